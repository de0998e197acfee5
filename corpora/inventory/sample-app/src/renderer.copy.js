window.settings.get().then((s) => { document.body.dataset.theme = s.theme; });

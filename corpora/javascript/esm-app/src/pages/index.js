window.app.name().then((name) => { document.title = name; });

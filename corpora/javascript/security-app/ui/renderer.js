document.title = "ready";

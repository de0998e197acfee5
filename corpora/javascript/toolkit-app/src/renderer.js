// The page: it calls what the preload exposed.
window.electron.ipcRenderer.send("ping");

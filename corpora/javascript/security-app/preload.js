const { contextBridge, ipcRenderer } = require("electron");
contextBridge.exposeInMainWorld("app", { openLink: (url) => ipcRenderer.send("link:open", url) });

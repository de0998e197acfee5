const { contextBridge, ipcRenderer } = require("electron");

contextBridge.exposeInMainWorld("app", { name: () => ipcRenderer.invoke("app:name") });

const { contextBridge, ipcRenderer } = require("electron");

contextBridge.exposeInMainWorld("app", {
  name: () => ipcRenderer.invoke("app:name"),
  version: () => ipcRenderer.invoke("app:version"),
  ping: () => ipcRenderer.invoke("app:ping"),
  log: (line) => ipcRenderer.send("app:log", line),
  onLogged: (listener) => ipcRenderer.on("app:logged", (_event, line) => listener(line)),
});

import { contextBridge, ipcRenderer } from "electron";

contextBridge.exposeInMainWorld("settings", {
  get: (key) => ipcRenderer.invoke("settings:get", key),
  set: (key, value) => ipcRenderer.invoke("settings:set", key, value),
  close: () => ipcRenderer.send("window:close"),
  open: (url) => ipcRenderer.send("link:open", url),
  onReady: (listener) => ipcRenderer.on("app:ready", listener),
});

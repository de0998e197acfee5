import { contextBridge, ipcRenderer } from "electron";

const GET = "settings:get";

contextBridge.exposeInMainWorld("settings", {
  get: (key) => ipcRenderer.invoke(GET, key),
  set: (key, value) => ipcRenderer.invoke("settings:set", key, value),
  close: () => ipcRenderer.send("window:close"),
  open: (url) => ipcRenderer.send("link:open", url),
  onReady: (listener) => ipcRenderer.on("app:ready", listener),
});

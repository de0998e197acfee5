// The main window's preload: the window keeps Electron's defaults (context isolation, no
// Node.js integration), so Forge builds it for a sandboxed preload with `electron` external.
const { contextBridge, ipcRenderer } = require('electron');

contextBridge.exposeInMainWorld('forgeApi', {
  version: () => ipcRenderer.invoke('app:version'),
  openSettings: () => ipcRenderer.send('settings:open'),
  onReady: (callback) => ipcRenderer.on('app:ready', (_event, version) => callback(version)),
});

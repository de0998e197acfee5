// A second window, opened from another module, with its own handlers.
const { BrowserWindow, ipcMain, shell } = require("electron");

function openSettings() {
  const settings = new BrowserWindow({ width: 600, webPreferences: { contextIsolation: true } });
  settings.loadFile("ui/settings.html");
  settings.webContents.on("will-navigate", (event) => event.preventDefault());
  return settings;
}

ipcMain.on("link:open", (event, url) => {
  if (url.startsWith("https://")) shell.openExternal(url);
});

module.exports = { openSettings };

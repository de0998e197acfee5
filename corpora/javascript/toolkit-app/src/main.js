// The main process of electron-vite's template, reduced: a window with the preload, and the
// handler of the page's `ping`.
import { app, BrowserWindow, ipcMain } from "electron";
import { join } from "path";

function createWindow() {
  const window = new BrowserWindow({
    width: 900,
    height: 670,
    webPreferences: { preload: join(__dirname, "../preload/index.js"), sandbox: false },
  });
  window.loadFile(join(__dirname, "../renderer/index.html"));
}

app.whenReady().then(() => {
  ipcMain.on("ping", () => console.log("pong"));
  createWindow();
});

// Loaded on demand by split.js: what it registers lives only in the chunk.
import { BrowserWindow, ipcMain } from "electron";

export function register() {
  ipcMain.handle("lazy:get", () => "later");
  ipcMain.on("lazy:log", (event, line) => line);
  new BrowserWindow({ show: false, webPreferences: { sandbox: true } });
}

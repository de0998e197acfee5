// The main process of electron-vite's template, reduced: a window with the preload, and the
// handler of the page's `ping`; and the typed listener of `@electron-toolkit/typed-ipc`, as its
// README sets one up, for the page's typed messages.
import { app, BrowserWindow, ipcMain } from "electron";
import { join } from "path";
import { IpcListener } from "@electron-toolkit/typed-ipc/main";

const ipc = new IpcListener();

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
  ipc.on("typed:ping", (_event, arg) => console.log(arg));
  ipc.handle("typed:say-hello", () => "hello");
  createWindow();
});

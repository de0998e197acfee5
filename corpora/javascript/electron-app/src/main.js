// The main process of a small Electron app, written as apps are and bundled by webpack,
// rspack and esbuild (electron stays external). Its facts are listed in ../truth.json.
import { app, BrowserWindow, ipcMain, shell } from "electron";
import { join } from "node:path";
import serve from "electron-serve";
import { settingsKey } from "./settings.js";

// electron-serve serves `renderer/` under app://; the loader it returns loads app://-.
const loadRenderer = serve({ directory: "renderer" });

function createWindows() {
  const main = new BrowserWindow({
    width: 900,
    webPreferences: {
      preload: join(__dirname, "preload.js"),
      contextIsolation: true,
      sandbox: true,
    },
  });
  main.loadFile("index.html");
  const legacy = new BrowserWindow({
    webPreferences: { nodeIntegration: true, contextIsolation: false },
  });
  legacy.webContents.send("app:ready", settingsKey);
  legacy.loadURL("app://-/about.html");
  const home = new BrowserWindow({ webPreferences: { sandbox: true } });
  loadRenderer(home);
}

ipcMain.handle("settings:get", (event, key) => ({ key }));
ipcMain.handle("settings:set", (event, key, value) => {
  if (event.senderFrame.url !== "app://index.html") return false;
  return true;
});
// Channels written as names bound to strings, as apps keep them in one table.
const Channels = Object.freeze({ window: { close: "window:close" } });
ipcMain.on(Channels.window.close, (event) => event.sender.close());
ipcMain.on("link:open", (event, url) => shell.openExternal(url));

// Switches for Chromium's command line: a debugging port any local program can drive the app
// through, a feature flag, and the sandbox for every renderer.
const DEBUG_PORT = "9222";
app.commandLine.appendSwitch("remote-debugging-port", DEBUG_PORT);
app.commandLine.appendSwitch("enable-features", "SmoothScrolling");
app.enableSandbox();

app.whenReady().then(createWindows);

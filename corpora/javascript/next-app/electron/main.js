// The main process, shipped as written: it serves the exported Next.js site from `out/`.
const { app, BrowserWindow, ipcMain } = require("electron");
const path = require("node:path");
const serve = require("electron-serve");

const loadURL = serve({ directory: "out" });

app.whenReady().then(async () => {
  const win = new BrowserWindow({
    width: 900,
    height: 700,
    webPreferences: {
      preload: path.join(__dirname, "preload.js"),
      contextIsolation: true,
      sandbox: true,
    },
  });
  await loadURL(win);
});

ipcMain.on("page:clicked", (_event, payload) => {
  console.log("clicked", payload);
});
ipcMain.on("settings:save", (_event, settings) => {
  console.log("save", settings);
});
ipcMain.handle("settings:load", () => ({ theme: "dark" }));

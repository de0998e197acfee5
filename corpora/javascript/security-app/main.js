// The main process of a small Electron app whose security-relevant calls are judged by
// Electronegativity (tools/cli/tests/electronegativity_oracle.rs). Never run.
const { app, BrowserWindow, BrowserView, session, shell } = require("electron");
const path = require("node:path");
const { openSettings } = require("./src/settings.js");

function createMain() {
  const main = new BrowserWindow({
    width: 1000,
    webPreferences: { preload: path.join(__dirname, "preload.js"), sandbox: true },
  });
  main.loadFile("ui/index.html");
  main.webContents.on("will-navigate", (event, url) => {
    if (!url.startsWith("file://")) event.preventDefault();
  });
  main.webContents.setWindowOpenHandler(({ url }) => {
    shell.openExternal(url);
    return { action: "deny" };
  });
  const view = new BrowserView({ webPreferences: { nodeIntegration: false } });
  main.setBrowserView(view);
  return main;
}

app.on("web-contents-created", (event, contents) => {
  contents.on("will-attach-webview", (e, preferences) => {
    delete preferences.preload;
  });
  contents.on("will-redirect", (e) => e.preventDefault());
  contents.on("new-window", (e) => e.preventDefault());
});

app.whenReady().then(() => {
  session.defaultSession.setPermissionRequestHandler((contents, permission, callback) => {
    callback(permission === "notifications");
  });
  createMain();
  openSettings();
  shell.openExternal("https://example.invalid/help");
});

// The main process of a small Electron app whose security-relevant calls are judged by
// Electronegativity (tools/cli/tests/electronegativity_oracle.rs). Never run.
const { app, BrowserWindow, BrowserView, protocol, session, shell } = require("electron");
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

// A window for a legacy site, with the preferences Electron's checklist warns about.
function createLegacy() {
  const legacy = new BrowserWindow({
    webPreferences: {
      webSecurity: false,
      allowRunningInsecureContent: true,
      experimentalFeatures: true,
      sandbox: false,
    },
  });
  legacy.loadURL("https://legacy.example.invalid/");
  // Its status page, over plain HTTP.
  new BrowserWindow({ webPreferences: { sandbox: true } }).loadURL("http://legacy.example.invalid/status");
  return legacy;
}

app.on("web-contents-created", (event, contents) => {
  contents.on("will-attach-webview", (e, preferences) => {
    delete preferences.preload;
  });
  contents.on("will-redirect", (e) => e.preventDefault());
  contents.on("new-window", (e) => e.preventDefault());
});

protocol.registerSchemesAsPrivileged([
  { scheme: "app", privileges: { standard: true, secure: true, supportFetchAPI: true, bypassCSP: false } },
]);
app.setAsDefaultProtocolClient("security-app");

// Chromium's command line: switches that turn a defence off, and some that do not.
app.commandLine.appendSwitch("ignore-certificate-errors");
app.commandLine.appendSwitch("remote-debugging-port", "9222");
app.commandLine.appendSwitch("host-resolver-rules", "MAP * 127.0.0.1");
app.commandLine.appendArgument("--disable-web-security");
app.commandLine.appendSwitch("js-flags", "--expose-gc");
app.commandLine.appendSwitch("enable-features", "SmoothScrolling");
app.commandLine.appendSwitch("force-device-scale-factor", "1");

app.on("certificate-error", (event, webContents, url, error, certificate, callback) => {
  event.preventDefault();
  callback(url.startsWith("https://intranet.invalid/"));
});

app.whenReady().then(() => {
  protocol.registerFileProtocol("app", (request, callback) => {
    callback({ path: path.join(__dirname, "ui", new URL(request.url).pathname) });
  });
  protocol.registerHttpProtocol("legacy", (request, callback) => callback({ url: "https://example.invalid/" }));
  session.defaultSession.setCertificateVerifyProc((request, callback) => callback(-3));
  session.defaultSession.setPermissionRequestHandler((contents, permission, callback) => {
    callback(permission === "notifications");
  });
  createMain();
  createLegacy();
  openSettings();
  shell.openExternal("https://example.invalid/help");
});

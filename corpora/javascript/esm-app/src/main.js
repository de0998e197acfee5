// A main process written as an ES module: it names its own directory without `__dirname`,
// each way Node.js offers (`import.meta.dirname` and `import.meta.filename` from Node.js
// 20.11, so Electron 30; `fileURLToPath(new URL(".", import.meta.url))`, as Quasar's template
// binds it; a file URL beside the module, `new URL("./x.html", import.meta.url)`), and a page
// chosen between two paths at run time, as angular-electron's template loads its page.
import { app, BrowserWindow, ipcMain } from "electron";
import path from "node:path";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Pinger, registerHandlers } from "./ipc.js";

const here = fileURLToPath(new URL(".", import.meta.url));

function open() {
  const main = new BrowserWindow({
    webPreferences: { preload: path.join(import.meta.dirname, "preload.cjs") },
  });
  // The page routes by its hash: the URL's fragment names no file.
  main.loadURL(new URL("./pages/index.html#/home", import.meta.url).href);
  const about = new BrowserWindow({
    webPreferences: { preload: path.resolve(here, path.join("preloads", "about.cjs")) },
  });
  about.loadFile(path.join(path.dirname(import.meta.filename), "pages", "about.html"));
  const help = new BrowserWindow({ webPreferences: { sandbox: true } });
  let page = "./pages/help.html";
  if (existsSync(path.join(import.meta.dirname, "../dist/help.html"))) {
    page = "../dist/help.html";
  }
  const url = new URL(path.join("file:", import.meta.dirname, page));
  help.loadURL(url.href);
}

ipcMain.handle("app:name", () => app.getName());
registerHandlers(ipcMain);
new Pinger(ipcMain).start();
app.whenReady().then(open);

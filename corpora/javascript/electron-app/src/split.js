// A main process that loads part of itself on demand (a chunk of its own in webpack's and
// rspack's CommonJS chunk format). Built only by the split builds of build.mjs; its facts are
// listed in ../split-truth.json.
import { app, BrowserWindow } from "electron";

app.whenReady().then(async () => {
  new BrowserWindow({ webPreferences: { contextIsolation: true } });
  const lazy = await import("./lazy.js");
  lazy.register();
});

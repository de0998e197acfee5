// A main process as electron-vite builds it with Vite 8: CommonJS output for Node, Electron
// external. Its CommonJS module of our own is required once, at the top, so rolldown's
// minifier writes the wrapper where the module is required (`c(o((e, t) => {…})())`); that
// module requires another, whose wrapper stays bound to a name.
import { ipcMain } from "electron";
import settings from "./settings.cjs";

ipcMain.handle(settings.channel, () => settings.describe());
ipcMain.on("node:ready", () => settings.describe());

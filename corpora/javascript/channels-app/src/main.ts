// The main process: its handlers name channels the shared module exports.
import { ipcMain } from "electron";
import * as ch from "./channels";
import { IPC, Channel } from "./channels";
ipcMain.handle(ch.GET, () => 1);
ipcMain.on(IPC.window.CLOSE, () => 1);
ipcMain.on(Channel.Open, () => 1);

// The main process: its handlers name channels the shared module exports.
import { ipcMain } from "electron";
import * as ch from "./channels";
import { IPC, Channel, SAVE, RESET, LOGGED } from "./channels";
import { handleWith } from "./ipc";
ipcMain.handle(ch.GET, () => 1);
ipcMain.on(IPC.window.CLOSE, () => 1);
ipcMain.on(Channel.Open, () => 1);
// A handler registered through a helper of the main process's own, as apps wrap their handlers.
function handle(channel: string, fn: () => unknown) {
  ipcMain.handle(channel, async () => fn());
}
handle(SAVE, () => 2);
// A handler registered through a helper another module exports.
handleWith(RESET, () => 3);
// Listeners registered over a list of channels the shared module exports.
LOGGED.forEach((channel) => ipcMain.on(channel, () => 4));

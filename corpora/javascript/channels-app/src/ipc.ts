// A module of IPC helpers, as apps keep them: the main process registers a handler through it.
import { ipcMain } from "electron";
export function handleWith(channel: string, fn: () => unknown) {
  ipcMain.handle(channel, async () => fn());
}

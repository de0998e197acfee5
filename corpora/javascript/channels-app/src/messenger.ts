// A class of IPC helpers and the one instance of it that other modules import, as apps keep
// an IPC manager (electron-fiddle's `ipcRendererManager`): the preload sends through it.
import { ipcRenderer } from "electron";
class Messenger {
  send(channel: string, ...args: unknown[]) {
    ipcRenderer.send(channel, ...args);
  }
}
export const messenger = new Messenger();

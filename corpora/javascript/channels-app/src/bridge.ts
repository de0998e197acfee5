// A bridge API built in a module of its own, as apps split their preload: the preload exposes
// what this module exports, and the page calls its member with the channel to invoke.
import { ipcRenderer } from "electron";
export const bridge = {
  request: (channel: string, ...args: unknown[]) => ipcRenderer.invoke(channel, ...args),
};

// The preload: its sends and invokes name the same exports.
import { contextBridge, ipcRenderer } from "electron";
import { GET, SAVE, RESET, IPC, Channel, LOG, FLUSH } from "./shared";
import { bridge } from "./bridge";
import { messenger } from "./messenger";
ipcRenderer.invoke(GET);
ipcRenderer.invoke(SAVE);
ipcRenderer.invoke(RESET);
ipcRenderer.send(IPC.window.CLOSE);
ipcRenderer.send(Channel.Open);
ipcRenderer.send(LOG);
ipcRenderer.send(FLUSH);
// A send through the instance another module exports.
messenger.send(IPC.window.CLOSE);
// A bridge member that forwards its parameter as the channel: the page names the channel.
contextBridge.exposeInMainWorld("api", { send: (channel: string) => ipcRenderer.send(channel) });
// An API another module builds.
contextBridge.exposeInMainWorld("bridge", bridge);

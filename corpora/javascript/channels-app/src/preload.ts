// The preload: its sends and invokes name the same exports.
import { ipcRenderer } from "electron";
import { GET, IPC, Channel } from "./channels";
ipcRenderer.invoke(GET);
ipcRenderer.send(IPC.window.CLOSE);
ipcRenderer.send(Channel.Open);

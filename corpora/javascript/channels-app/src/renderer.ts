// The page: it sends through the preload's bridge, naming a channel the shared module exports.
import { IPC } from "./channels";
(window as any).api.send(IPC.window.CLOSE);

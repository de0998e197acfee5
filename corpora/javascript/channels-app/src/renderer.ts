// The page: it sends through the preload's bridges, naming channels the shared module exports.
import { GET, IPC } from "./channels";
(window as any).api.send(IPC.window.CLOSE);
(window as any).bridge.request(GET);

// Handlers registered on the IPC object the caller hands in, as apps split their main process
// into modules. esbuild hoists this module into the bundle's one scope and renames the
// parameter (`function o(n){n.handle(…)}` … `o(e.ipcMain)`): only the call says what it holds.
export function registerHandlers(ipc) {
  ipc.handle("app:version", () => "1.0.0");
  ipc.on("app:log", (event, line) => {
    event.sender.send("app:logged", line);
  });
}

// A service that keeps the IPC object it is given in a member and registers on it later, as
// TypeScript services do (`constructor(private ipc: IpcMain)`): esbuild renames the class and
// the parameter, and keeps `this.ipc`.
export class Pinger {
  constructor(ipc) {
    this.ipc = ipc;
  }

  start() {
    this.ipc.handle("app:ping", () => "pong");
  }
}

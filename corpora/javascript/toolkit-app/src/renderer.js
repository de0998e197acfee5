// The page: it calls what the preload exposed, directly and through typed-ipc's renderer
// emitter (bundled into the page).
import { IpcEmitter } from "@electron-toolkit/typed-ipc/renderer";

const emitter = new IpcEmitter();
window.electron.ipcRenderer.send("ping");
emitter.send("typed:ping", "hi");
emitter.invoke("typed:say-hello").then((answer) => console.log(answer));

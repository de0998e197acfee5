require("electron").ipcRenderer.sendToHost("guest:ready");

const { contextBridge } = require("electron");

contextBridge.exposeInMainWorld("about", { version: process.versions.electron });

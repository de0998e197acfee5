const { app, BrowserWindow, ipcMain } = require('electron');
const path = require('path');

app.whenReady().then(() => {
  const win = new BrowserWindow({
    webPreferences: { preload: path.join(__dirname, 'preload.js'), contextIsolation: true },
  });
  ipcMain.handle('settings:get', () => ({ theme: 'dark' }));
  win.loadFile(path.join(__dirname, 'index.html'));
});

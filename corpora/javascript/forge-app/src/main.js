// The main process as Electron Forge's webpack template writes it: the plugin defines each
// entry point's URL and preload path (MAIN_WINDOW_WEBPACK_ENTRY,
// MAIN_WINDOW_PRELOAD_WEBPACK_ENTRY), which a production build replaces with
// `file://${require('path').resolve(__dirname, '..', 'renderer', 'main_window', 'index.html')}`
// and `require('path').resolve(__dirname, '../renderer', 'main_window', 'preload.js')`.
const { app, BrowserWindow, ipcMain, shell, utilityProcess } = require('electron');

let settingsWindow = null;

// A helper process that Forge's packager copies beside the archive (`extraResource`), into
// the resources directory.
const startHelper = () => utilityProcess.fork(`${process.resourcesPath}/helper/index.js`);

const createWindow = () => {
  const mainWindow = new BrowserWindow({
    width: 800,
    height: 600,
    webPreferences: {
      preload: MAIN_WINDOW_PRELOAD_WEBPACK_ENTRY,
    },
  });
  mainWindow.loadURL(MAIN_WINDOW_WEBPACK_ENTRY);
  mainWindow.webContents.on('did-finish-load', () => {
    mainWindow.webContents.send('app:ready', app.getVersion());
  });
};

const openSettings = () => {
  if (settingsWindow) {
    settingsWindow.focus();
    return;
  }
  settingsWindow = new BrowserWindow({
    width: 480,
    height: 360,
    webPreferences: {
      nodeIntegration: true,
      contextIsolation: false,
    },
  });
  settingsWindow.loadURL(SETTINGS_WINDOW_WEBPACK_ENTRY);
  settingsWindow.on('closed', () => {
    settingsWindow = null;
  });
};

ipcMain.handle('app:version', () => app.getVersion());
ipcMain.on('settings:open', () => openSettings());
ipcMain.on('settings:save', (_event, values) => {
  if (values && typeof values.homepage === 'string' && values.homepage.startsWith('https:')) {
    shell.openExternal(values.homepage);
  }
});

app.whenReady().then(() => {
  startHelper();
  createWindow();
  app.on('activate', () => {
    if (BrowserWindow.getAllWindows().length === 0) {
      createWindow();
    }
  });
});

app.on('window-all-closed', () => {
  if (process.platform !== 'darwin') {
    app.quit();
  }
});

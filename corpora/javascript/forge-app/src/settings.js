// The settings window's page script: that window integrates Node.js, so Forge builds it for
// webpack's `electron-renderer` target and the page talks to the main process directly.
const { ipcRenderer } = require('electron');

document.getElementById('save').addEventListener('click', () => {
  const homepage = document.getElementById('homepage').value;
  ipcRenderer.send('settings:save', { homepage });
});

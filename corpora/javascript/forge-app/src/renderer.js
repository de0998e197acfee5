// The main window's page script (webpack target `web`): it reaches the main process only
// through the preload's bridge.
import { describe } from './format';

const status = document.getElementById('status');
window.forgeApi.onReady((version) => {
  status.textContent = describe('ready', version);
});
document.getElementById('settings').addEventListener('click', () => window.forgeApi.openSettings());
window.forgeApi.version().then((version) => {
  document.title = describe('Forge app', version);
});

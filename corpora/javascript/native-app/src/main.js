// An Electron main process that loads a native add-on through an npm package, as webpack
// bundles it with the loaders Electron Forge's webpack template configures.
const addon = require("fakeaddon");
module.exports = addon;

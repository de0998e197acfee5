const os = require("os");
const defaults = require("./defaults.cjs");
function describe() {
  return defaults.prefix + os.platform();
}
module.exports = { describe, channel: "settings:describe" };

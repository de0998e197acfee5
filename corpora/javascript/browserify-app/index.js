// A CommonJS app for browserify: local modules, a JSON file and an npm package (qs, whose
// own dependencies come along).
const qs = require("qs");
const { greet } = require("./greet");
const config = require("./config.json");

module.exports = function main(query) {
  return greet(config.name) + " " + qs.stringify(qs.parse(query));
};

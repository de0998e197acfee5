const qs = require("qs");
module.exports = { version: 2, query: (o) => qs.stringify(o) };

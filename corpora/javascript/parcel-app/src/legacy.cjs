// CommonJS, required inside a function (see index.js).
exports.value = 42;
exports[["other"].join("")] = require("./greet.js").greet("again");

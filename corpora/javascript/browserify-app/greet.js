exports.greet = function greet(name) {
  return require("./punctuate")(`hello, ${name}`);
};

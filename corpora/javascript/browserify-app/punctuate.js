module.exports = (text) => text + "!";

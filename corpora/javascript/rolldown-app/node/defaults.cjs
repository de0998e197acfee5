module.exports = { prefix: "rolldown:" + process.arch };

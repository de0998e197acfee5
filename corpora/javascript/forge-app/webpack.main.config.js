module.exports = {
  entry: './src/main.js',
};

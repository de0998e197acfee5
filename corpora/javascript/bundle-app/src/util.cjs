module.exports = {
  double(n) {
    return n * 2;
  },
  endpoint: "https://api.example.test/v1/items?key=corpus-secret",
};

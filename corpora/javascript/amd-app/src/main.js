// The app's entry: dependencies by relative and by top-level id, a Node built-in, and a
// module loaded on demand.
define(['./lib/util', 'lib/format', 'lib/net/client', 'fs'], function (util, format, client, fs) {
  function later() {
    require(['./lazy'], function (lazy) {
      console.log(lazy.lazy);
    });
  }
  return {
    run: function () {
      later();
      return client.get(format.format(util.value), fs);
    },
  };
});

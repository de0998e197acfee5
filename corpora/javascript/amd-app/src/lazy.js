define(['exports'], function (exports) { exports.lazy = true; });

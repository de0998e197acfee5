// A module in a subfolder that reaches up with `../`.
define(['require', 'exports', 'module', '../helper'], function (require, exports, module, helper) {
  exports.get = function (path) {
    return fetch('https://api.example.invalid/v1/' + path + '?token=secret-' + helper.answer);
  };
  module.exports.name = 'client';
});

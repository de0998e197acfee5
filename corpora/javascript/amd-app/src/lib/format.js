define(['require', 'exports', './helper'], function (require, exports, helper) {
  exports.format = function (v) { return 'v=' + v + helper.answer; };
});

define(function (require, exports, module) {
  var helper = require('./helper');
  exports.value = helper.answer;
});

// ES modules of our own, a CommonJS module of our own and a CommonJS package tree (qs), which
// rolldown wraps each in a `__commonJSMin` wrapper; a module loaded on demand.
import qs from "qs";
import legacy from "./legacy.cjs";
import { helper } from "./helper.js";

document.body.textContent = qs.stringify({ a: helper(legacy.version) });
window.bridge.send("rolldown:hello", qs.parse("a=1"));
import("./lazy.js").then((m) => m.run());

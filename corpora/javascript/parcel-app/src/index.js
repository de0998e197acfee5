// The renderer entry: ES modules hoisted into the bundle's scope, CommonJS packages that
// Parcel registers and requires by id, and a module loaded on demand from its own bundle.
import { greet } from "./greet.js";
const React = require("react");
const { createRoot } = require("react-dom/client");
const chunk = require("lodash/chunk");

const root = createRoot(document.getElementById("root"));
root.render(React.createElement("p", null, greet(String(chunk([1, 2, 3], 2).length))));
document.getElementById("root").addEventListener("click", () => {
  // Required where it is used, not at the top: Parcel keeps it behind a factory.
  const legacy = require("./legacy.cjs");
  console.log(legacy.value);
  import("./lazy.js").then((lazy) => lazy.run());
});

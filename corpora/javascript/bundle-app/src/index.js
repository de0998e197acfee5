import { chunk } from "lodash-es";
import { greet } from "./greet.js";
import data from "./data.json";
import util from "./util.cjs";

export function main() {
  const groups = chunk(data.items, 2);
  console.log(greet(data.name), util.double(groups.length));
  return import("./lazy.js").then((lazy) => lazy.later(groups));
}

main();

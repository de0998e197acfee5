// Two versions of corpora/javascript/bundle-app, each bundled by webpack 5 and by rspack in
// production mode with one factory per module (module concatenation off; ids deterministic, as
// production builds number them), with the bundlers' own stats as the oracle of which module
// is which.
//
// Version 2 edits greet.js (a new greeting: same shape, other literal), adds farewell.js,
// drops util.cjs and rewrites index.js to match; lazy.js, data.json and the lodash-es modules
// are untouched. Both versions are built from sibling directories, so a module's path relative
// to its build, and with it its id, is the same in both.
//
// Usage: node build.mjs OUT   (run from a directory whose node_modules has webpack,
// @rspack/core and lodash-es)
//
//   OUT/<webpack|rspack>-v<1|2>/               the output files
//   OUT/<webpack|rspack>-v<1|2>.modules.json   {output file: {modules: {module id: module name},
//                                                entries: [entry module ids]}}
//   OUT/webpack-maps-v<1|2>/                   webpack again, each output with its source map
//   OUT/app/v<1|2>/src/                        the sources each version was built from
import { createRequire } from "node:module";
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";

const require = createRequire(path.join(process.cwd(), "package.json"));
const out = path.resolve(process.argv[2]);
const original = path.join(path.dirname(new URL(import.meta.url).pathname), "..", "bundle-app", "src");
mkdirSync(out, { recursive: true });

// The two sources, side by side.
for (const v of [1, 2]) cpSync(original, path.join(out, "app", `v${v}`, "src"), { recursive: true });
const v2 = path.join(out, "app", "v2", "src");
const edit = (file, from, to) => {
  const text = readFileSync(path.join(v2, file), "utf8");
  if (!text.includes(from)) throw new Error(`${file} lacks ${from}`);
  writeFileSync(path.join(v2, file), text.replace(from, to));
};
edit("greet.js", "`hello, ${name}`", "`good morning, ${name}`");
writeFileSync(path.join(v2, "farewell.js"), "export function farewell(name) {\n  return [\"goodbye\", name].join(\", \");\n}\n");
rmSync(path.join(v2, "util.cjs"));
edit("index.js", 'import util from "./util.cjs";', 'import { farewell } from "./farewell.js";');
edit("index.js", "util.double(groups.length)", "farewell(data.name)");

function modules(stats) {
  const json = stats.toJson({ all: false, chunks: true, chunkModules: true, ids: true, depth: true,
    chunkModulesSpace: Infinity, modulesSpace: Infinity, dependentModules: true, nestedModules: false,
    runtimeModules: false });
  // Entry modules (depth 0) are listed too: webpack may inline one into its runtime instead of
  // writing a factory.
  const files = {};
  for (const chunk of json.chunks) {
    for (const file of chunk.files) {
      const entry = (files[file] ??= { modules: {}, entries: [] });
      for (const m of chunk.modules ?? []) {
        if (m.id === null || m.id === undefined || m.moduleType === "runtime") continue;
        entry.modules[String(m.id)] = m.name;
        if (m.depth === 0) entry.entries.push(String(m.id));
      }
    }
  }
  return files;
}

async function pack(name, factory, v, devtool = false) {
  const dir = path.join(out, `${name}-v${v}`);
  const config = {
    mode: "production",
    context: path.join(out, "app", `v${v}`),
    entry: "./src/index.js",
    devtool,
    output: { path: dir, filename: "[name].js", chunkFilename: "[name].chunk.js" },
    resolve: { modules: [path.join(process.cwd(), "node_modules")] },
    optimization: { minimize: true, concatenateModules: false, moduleIds: "deterministic" },
  };
  const stats = await new Promise((resolve, reject) =>
    factory(config, (err, s) => (err ? reject(err) : s.hasErrors() ? reject(new Error(s.toString())) : resolve(s))));
  writeFileSync(path.join(out, `${name}-v${v}.modules.json`), JSON.stringify(modules(stats), null, 1));
}

const webpack = require("webpack");
const { rspack } = require("@rspack/core");
for (const v of [1, 2]) {
  await pack("webpack", webpack, v);
  await pack("rspack", rspack, v);
  // With source maps beside each output file, their sourcesContent holding each source's text:
  // the oracle of compare_source_to_bundle.
  await pack("webpack-maps", webpack, v, "source-map");
}

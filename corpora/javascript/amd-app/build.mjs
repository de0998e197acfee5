// Builds src/ (anonymous AMD modules) with RequireJS's optimizer, r.js, twice: unminified, and
// minified by the UglifyJS it bundles; and compiles ts/ (ES modules) with TypeScript into one
// file of named defines (`--module amd --outFile`). Writes, beside each output, what r.js's own
// parser finds in it, with ids normalized by RequireJS's own loader:
//
//   OUT/amd-<rjs-none|rjs-uglify|tsc>/main.js  the built file: one named define per module
//   OUT/amd-<rjs-none|rjs-uglify|tsc>.oracle.json
//                                              {modules: [{name, deps}], loads: [ids]}
//   OUT/amd-src/                               the sources, as shipped unbuilt
//   OUT/amd-src.oracle.json                    {file: {deps, loads}}: dependencies as written
//
// `deps` are a define's dependencies (a factory's `require("x")` calls included, as r.js
// reads them); `loads` are the ids of `require([ids], callback)` calls, loaded on demand.
// Usage: node build.mjs OUT   (run from a directory whose node_modules has requirejs and
// typescript)
import { execFileSync } from "node:child_process";
import { createRequire } from "node:module";
import { cpSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";

const require = createRequire(path.join(process.cwd(), "package.json"));
const requirejs = require("requirejs");
const out = path.resolve(process.argv[2]);
const src = path.join(path.dirname(new URL(import.meta.url).pathname), "src");

const lib = await new Promise((resolve) =>
  requirejs.tools.useLib((req) => req(["parse", "esprima"], (parse, esprima) => resolve({ parse, esprima }))),
);
const context = requirejs.s.contexts.uselib;
const normalize = (dep, from) =>
  context.makeModuleMap(dep, from ? context.makeModuleMap(from) : null, false, false).id;

// What r.js's parser finds in `text`: named defines with their dependencies, the
// dependencies of an anonymous define, and on-demand loads.
function read(text) {
  const modules = [];
  const anonymous = [];
  const loads = [];
  lib.parse.recurse(
    lib.esprima.parse(text),
    (callName, config, name, deps) => {
      if (callName === "define" && name) modules.push({ name, deps: deps || [] });
      else if (callName === "define") anonymous.push(...(deps || []));
      else if (callName === "require") loads.push(...(deps || []));
      return true;
    },
    { findNestedDependencies: true },
  );
  return { modules, anonymous, loads };
}

// Writes what r.js's parser finds in OUT/<name>/main.js beside it.
function oracle(name) {
  const found = read(readFileSync(path.join(out, name, "main.js"), "utf8"));
  const oracle = {
    modules: found.modules.map((m) => ({ name: m.name, deps: m.deps.map((d) => normalize(d, m.name)) })),
    loads: found.loads,
  };
  writeFileSync(path.join(out, `${name}.oracle.json`), JSON.stringify(oracle, null, 1));
}

for (const [mode, optimize] of [["none", "none"], ["uglify", "uglify"]]) {
  const dir = path.join(out, `amd-rjs-${mode}`);
  mkdirSync(dir, { recursive: true });
  await new Promise((resolve, reject) =>
    requirejs.optimize(
      {
        baseUrl: src,
        name: "main",
        include: ["lazy"],
        out: path.join(dir, "main.js"),
        optimize,
        paths: { fs: "empty:" },
        logLevel: 4,
      },
      resolve,
      reject,
    ),
  );
  oracle(`amd-rjs-${mode}`);
}

const app = path.dirname(new URL(import.meta.url).pathname);
execFileSync(process.execPath, [
  require.resolve("typescript/bin/tsc"),
  "-p", path.join(app, "ts", "tsconfig.json"),
  "--outFile", path.join(out, "amd-tsc", "main.js"),
]);
oracle("amd-tsc");

cpSync(src, path.join(out, "amd-src"), { recursive: true });
const files = {};
(function walk(dir) {
  for (const name of readdirSync(dir).sort()) {
    const file = path.join(dir, name);
    if (statSync(file).isDirectory()) walk(file);
    else {
      const found = read(readFileSync(file, "utf8"));
      files[path.relative(src, file)] = { deps: found.anonymous, loads: found.loads };
    }
  }
})(src);
writeFileSync(path.join(out, "amd-src.oracle.json"), JSON.stringify(files, null, 1));

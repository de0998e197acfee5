// Writes ROOT/app: a package (`exports-app`) whose main.js requires, and main.mjs imports,
// every subpath the packages in ROOT/node_modules export (patterns by a sample each), some
// they do not, packages that are missing or built in, the app's own `#imports`, and the app
// itself by name. Reads package.json files only; runs nothing.
import fs from "node:fs";
import path from "node:path";

const root = process.argv[2];
const modules = path.join(root, "node_modules");
const packages = [];
for (const entry of fs.readdirSync(modules).sort()) {
  if (entry.startsWith(".")) continue;
  if (entry.startsWith("@")) {
    for (const inner of fs.readdirSync(path.join(modules, entry)).sort()) {
      packages.push(`${entry}/${inner}`);
    }
  } else {
    packages.push(entry);
  }
}

const specifiers = new Set();
for (const name of packages) {
  const manifest = JSON.parse(fs.readFileSync(path.join(modules, name, "package.json"), "utf8"));
  specifiers.add(name);
  specifiers.add(`${name}/package.json`);
  const exports = manifest.exports;
  if (exports && typeof exports === "object" && !Array.isArray(exports)) {
    for (const key of Object.keys(exports)) {
      if (!key.startsWith(".")) break;
      // A pattern's sample: its `*` as `index`.
      specifiers.add(name + key.slice(1).replace("*", "index"));
    }
  }
}
for (const spec of [
  // Patterns, exported or not.
  "rxjs/internal/Observable",
  "rxjs/internal/operators/map",
  "rxjs/internal/NotThere",
  "@babel/runtime/regenerator/index.js",
  "@babel/runtime/helpers/extends.js",
  // Files that are there, but not exported.
  "uuid/dist/index.js",
  "rxjs/dist/cjs/index.js",
  "nanoid/index.js",
  "preact/src/index.js",
  "minimatch/dist/commonjs/index.js",
  // No exports: files as they are.
  "semver/functions/satisfies",
  "semver/classes/range.js",
  "tslib/tslib.es6.js",
  // Missing or built in.
  "not-installed-anywhere",
  "@scope-missing/pkg",
  "fs",
  "node:path",
  // The app's own map, and the app by its name.
  "#config",
  "#lib/feature",
  "#semver",
  "#missing",
  "exports-app",
  "exports-app/feature",
  "exports-app/lib/feature.js",
]) {
  specifiers.add(spec);
}

const app = path.join(root, "app");
fs.mkdirSync(path.join(app, "lib"), { recursive: true });
fs.writeFileSync(
  path.join(app, "package.json"),
  JSON.stringify(
    {
      name: "exports-app",
      version: "1.0.0",
      exports: { ".": "./main.js", "./feature": "./lib/feature.js" },
      imports: {
        "#config": { import: "./config.mjs", require: "./config.cjs" },
        "#lib/*": "./lib/*.js",
        "#semver": "semver",
      },
    },
    null,
    2,
  ),
);
fs.writeFileSync(path.join(app, "config.mjs"), "export default {};\n");
fs.writeFileSync(path.join(app, "config.cjs"), "module.exports = {};\n");
fs.writeFileSync(path.join(app, "lib", "feature.js"), "module.exports = 1;\n");
const list = [...specifiers].sort();
fs.writeFileSync(
  path.join(app, "main.js"),
  list.map((s) => `require(${JSON.stringify(s)});\n`).join(""),
);
fs.writeFileSync(
  path.join(app, "main.mjs"),
  list.map((s) => `import ${JSON.stringify(s)};\n`).join(""),
);

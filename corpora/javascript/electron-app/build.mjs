// Builds the Electron app in src/ the ways Electron apps ship: the main process and the
// preload bundled and minified with `electron` external, by webpack, rspack, esbuild, rollup
// (the bundler under electron-vite; CommonJS, as electron-vite writes main and preload by
// default, and ES modules) and rolldown (likewise), and compiled file by file to CommonJS by TypeScript's `tsc` (which
// writes `(0, path_1.join)(…)`).
// Each output directory gets a package.json naming main.js and the page main.js loads.
// Usage: node build.mjs OUT   (run from a directory whose node_modules has the bundlers)
import { createRequire } from "node:module";
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";

const require = createRequire(path.join(process.cwd(), "package.json"));
const out = path.resolve(process.argv[2]);
const app = path.dirname(new URL(import.meta.url).pathname);

function finish(dir) {
  writeFileSync(path.join(dir, "package.json"), JSON.stringify({ name: "rea-electron-corpus", version: "1.0.0", main: "main.js" }));
  writeFileSync(path.join(dir, "index.html"), "<!doctype html><title>rea</title>\n");
  // What electron-serve serves: app://- is renderer/index.html, app://-/about.html the other.
  mkdirSync(path.join(dir, "renderer"), { recursive: true });
  writeFileSync(path.join(dir, "renderer", "index.html"), "<!doctype html><title>home</title>\n");
  writeFileSync(path.join(dir, "renderer", "about.html"), "<!doctype html><title>about</title>\n");
}

// `factories`: modules stay factories in a table (no concatenation), as in apps with
// CommonJS dependencies; `electron` is then a factory that re-exports `require("electron")`.
// `development`: webpack's development build with its default `eval` devtool, which ships
// each module as a string, as apps packaged from a development build do.
async function pack(name, factory, factories = false, development = false) {
  const dir = path.join(out, name);
  const configs = [["main", "electron-main"], ["preload", "electron-preload"]].map(([entry, target]) => ({
    mode: development ? "development" : "production",
    target,
    context: app,
    entry: { [entry]: `./src/${entry}.js` },
    devtool: development ? "eval" : false,
    node: { __dirname: false, __filename: false },
    output: { path: dir, filename: "[name].js" },
    externals: { "electron-serve": "commonjs electron-serve" },
    optimization: { minimize: !development, concatenateModules: !factories },
  }));
  await new Promise((resolve, reject) =>
    factory(configs, (err, s) => (err ? reject(err) : s.hasErrors() ? reject(new Error(s.toString())) : resolve(s))));
  finish(dir);
}

await pack("electron-webpack", require("webpack"));
await pack("electron-rspack", require("@rspack/core").rspack);
await pack("electron-webpack-factories", require("webpack"), true);
await pack("electron-rspack-factories", require("@rspack/core").rspack, true);
await pack("electron-webpack-eval", require("webpack"), true, true);
await pack("electron-rspack-eval", require("@rspack/core").rspack, true, true);
// The main process split: src/split.js loads src/lazy.js on demand, a chunk of its own in the
// CommonJS chunk format (`exports.ids`, `exports.modules`) whose factories require `electron`
// from the entry file. With its stats, the module ids per output file, as the oracle.
async function split(name, factory) {
  const dir = path.join(out, name);
  const config = {
    mode: "production", target: "electron-main", context: app, entry: { main: "./src/split.js" },
    devtool: false, node: { __dirname: false, __filename: false },
    output: { path: dir, filename: "[name].js", chunkFilename: "[name].chunk.js" },
  };
  const stats = await new Promise((resolve, reject) =>
    factory(config, (err, s) => (err ? reject(err) : s.hasErrors() ? reject(new Error(s.toString())) : resolve(s))));
  const json = stats.toJson({ all: false, chunks: true, chunkModules: true, ids: true });
  const files = {};
  for (const chunk of json.chunks) {
    for (const file of chunk.files) {
      (files[file] ??= []).push(...(chunk.modules ?? []).map((m) => m.id).filter((id) => id !== null && id !== undefined));
    }
  }
  writeFileSync(path.join(out, `${name}.factories.json`), JSON.stringify(files, null, 1));
  writeFileSync(path.join(dir, "package.json"), JSON.stringify({ name: "rea-split-corpus", version: "1.0.0", main: "main.js" }));
}
await split("electron-webpack-split", require("webpack"));
await split("electron-rspack-split", require("@rspack/core").rspack);

const dir = path.join(out, "electron-esbuild");
await require("esbuild").build({
  absWorkingDir: app, entryPoints: ["src/main.js", "src/preload.js"], bundle: true, minify: true,
  platform: "node", format: "cjs", external: ["electron", "electron-serve"], outdir: dir, logLevel: "silent",
});
finish(dir);
for (const [name, format] of [["electron-rollup", "cjs"], ["electron-rollup-esm", "es"]]) {
  const { rollup } = require("rollup");
  const terser = require("@rollup/plugin-terser");
  for (const entry of ["main", "preload"]) {
    const bundle = await rollup({
      input: path.join(app, "src", `${entry}.js`), external: ["electron", "electron-serve", /^node:/], onwarn() {},
    });
    await bundle.write({ file: path.join(out, name, `${entry}.js`), format, plugins: [terser()] });
    await bundle.close();
  }
  finish(path.join(out, name));
}
// Rolldown, the bundler under Vite 8 and electron-vite's newer releases, minified by its own
// minifier.
for (const [name, format] of [["electron-rolldown", "cjs"], ["electron-rolldown-esm", "es"]]) {
  const { rolldown } = require("rolldown");
  for (const entry of ["main", "preload"]) {
    const bundle = await rolldown({
      input: path.join(app, "src", `${entry}.js`), external: ["electron", "electron-serve", /^node:/],
      logLevel: "silent",
    });
    await bundle.write({ file: path.join(out, name, `${entry}.js`), format, minify: true });
    await bundle.close();
  }
  finish(path.join(out, name));
}
const tsc = path.join(path.dirname(require.resolve("typescript/package.json")), "bin", "tsc");
const tscDir = path.join(out, "electron-tsc");
execFileSync(process.execPath, [tsc, "--allowJs", "--module", "commonjs", "--target", "es2020",
  "--esModuleInterop", "--outDir", tscDir, ...["main", "preload", "settings"].map((f) => path.join(app, "src", `${f}.js`))]);
finish(tscDir);

// Builds the bundle corpus with real bundlers and writes their own records as oracles:
// webpack and rspack stats (chunks, files, module ids) and the esbuild metafile.
// Usage: node build.mjs OUT   (run from a directory whose node_modules has the bundlers)
import { createRequire } from "node:module";
import { writeFileSync, mkdirSync } from "node:fs";
import path from "node:path";

const require = createRequire(path.join(process.cwd(), "package.json"));
const out = path.resolve(process.argv[2]);
const app = path.dirname(new URL(import.meta.url).pathname);
mkdirSync(out, { recursive: true });

function oracle(stats) {
  const json = stats.toJson({ all: false, chunks: true, chunkModules: true, ids: true, depth: true,
    chunkModulesSpace: Infinity, modulesSpace: Infinity, dependentModules: true, nestedModules: false, runtimeModules: false });
  // Per output file: the ids of the modules of the chunks that emit it, and which of them are
  // entry modules (depth 0), which webpack may inline into the runtime instead of a factory.
  const files = {};
  for (const chunk of json.chunks) {
    for (const file of chunk.files) {
      const entry = (files[file] ??= { modules: [], entries: [] });
      for (const m of chunk.modules ?? []) {
        if (m.id === null || m.id === undefined || m.moduleType === "runtime") continue;
        entry.modules.push(m.id);
        if (m.depth === 0) entry.entries.push(m.id);
      }
    }
  }
  return files;
}

// `esm`: ES-module output, whose chunks export their ids and module table. `devtool`: an
// `eval` devtool (the development default) ships each factory body as a string.
async function pack(name, factory, mode, esm = false, devtool = false) {
  const dir = path.join(out, name);
  const ext = esm ? "mjs" : "js";
  const config = {
    mode,
    context: app,
    entry: "./src/index.js",
    devtool,
    output: { path: dir, filename: `[name].${ext}`, chunkFilename: `[name].chunk.${ext}` },
    resolve: { modules: [path.join(process.cwd(), "node_modules")] },
    optimization: mode === "production" ? { minimize: true } : {},
  };
  if (esm) {
    config.experiments = { outputModule: true };
    Object.assign(config.output, { module: true, chunkFormat: "module", library: { type: "module" } });
  }
  const stats = await new Promise((resolve, reject) =>
    factory(config, (err, s) => (err ? reject(err) : s.hasErrors() ? reject(new Error(s.toString())) : resolve(s))));
  writeFileSync(path.join(out, `${name}.factories.json`), JSON.stringify(oracle(stats), null, 1));
}

const webpack = require("webpack");
const { rspack } = require("@rspack/core");
const esbuild = require("esbuild");
await pack("webpack-dev", webpack, "development");
await pack("webpack-prod", webpack, "production");
await pack("rspack-dev", rspack, "development");
await pack("rspack-prod", rspack, "production");
await pack("webpack-esm-dev", webpack, "development", true);
await pack("webpack-esm-prod", webpack, "production", true);
await pack("rspack-esm-dev", rspack, "development", true);
await pack("rspack-esm-prod", rspack, "production", true);
await pack("webpack-eval-dev", webpack, "development", false, "eval");
await pack("webpack-evalmap-dev", webpack, "development", false, "eval-cheap-module-source-map");
await pack("rspack-eval-dev", rspack, "development", false, "eval");
for (const [name, options] of [
  ["esbuild-esm", { format: "esm", splitting: true, outdir: path.join(out, "esbuild-esm") }],
  ["esbuild-cjs", { format: "cjs", platform: "node", outdir: path.join(out, "esbuild-cjs") }],
  // Minified: the wrappers lose their path keys and their helpers' names.
  ["esbuild-cjs-min", { format: "cjs", platform: "node", minify: true, outdir: path.join(out, "esbuild-cjs-min") }],
  // Minified with splitting: the chunks import the renamed helpers from a shared chunk.
  ["esbuild-esm-min", { format: "esm", splitting: true, minify: true, outdir: path.join(out, "esbuild-esm-min") }],
]) {
  const result = await esbuild.build({
    absWorkingDir: app, entryPoints: ["src/index.js"], bundle: true, metafile: true, logLevel: "silent",
    nodePaths: [path.join(process.cwd(), "node_modules")], ...options,
  });
  writeFileSync(path.join(out, `${name}.meta.json`), JSON.stringify(result.metafile, null, 1));
}

// A real CommonJS package tree (qs and its dependencies: every file a `__commonJS` wrapper),
// bundled by esbuild with and without minification; the metafile lists each input's requires.
for (const [name, minify] of [["esbuild-qs", false], ["esbuild-qs-min", true]]) {
  const result = await esbuild.build({
    absWorkingDir: process.cwd(), entryPoints: [require.resolve("qs")], bundle: true, metafile: true,
    logLevel: "silent", format: "cjs", platform: "node", minify, outdir: path.join(out, name),
  });
  writeFileSync(path.join(out, `${name}.meta.json`), JSON.stringify(result.metafile, null, 1));
}

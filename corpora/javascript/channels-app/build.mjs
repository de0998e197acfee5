// Compiles src/ file by file with TypeScript's `tsc`, as apps that do not bundle ship it, to
// CommonJS (`channels_1.IPC.window.CLOSE` after `require("./channels")`, enums exported as
// `Channel || (exports.Channel = Channel = {})`) and to ES modules (`import { IPC } from
// "./channels"`, `export var Channel`). Every channel is a member of another file's exports;
// the preload reads them through a barrel (`shared.ts`: `export * from "./channels"`).
// Each output is then bundled by webpack, rspack and esbuild, development and production
// (esbuild: minified or not, ES modules; webpack and rspack also in production with module
// concatenation off, `-esm-nocat`), as apps
// that bundle their main process and preload ship it: a factory reads another's exports
// (`o.GET` after `var o = n(227)`, `ch.GET` after `var ch = __toESM(require_channels())`), or
// concatenation and minification leave the strings. The preload also exposes an API object
// `bridge.ts` exports, read where it is written: another file, another factory, or the same
// scope once concatenated; and the main process registers a handler through a helper `ipc.ts`
// exports, read the same three ways; the preload sends through the instance of a helper class
// `messenger.ts` exports, read the same three ways too.
// Usage: node build.mjs OUT   (run from a directory whose node_modules has typescript,
// webpack, @rspack/core and esbuild)
import { createRequire } from "node:module";
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import path from "node:path";

const require = createRequire(path.join(process.cwd(), "package.json"));
const out = path.resolve(process.argv[2]);
const app = path.dirname(new URL(import.meta.url).pathname);
const tsc = path.join(path.dirname(require.resolve("typescript/package.json")), "bin", "tsc");
const sources = ["channels", "shared", "bridge", "ipc", "messenger", "main", "preload", "renderer"].map((f) => path.join(app, "src", `${f}.ts`));
for (const [name, module] of [["channels-tsc-cjs", "commonjs"], ["channels-tsc-esm", "esnext"]]) {
  const dir = path.join(out, name);
  // `electron` has no types here: tsc reports that and still writes every file.
  try {
    execFileSync(process.execPath, [tsc, "--module", module, "--target", "es2020", "--esModuleInterop",
      "--skipLibCheck", "--noResolve", "--outDir", dir, ...sources], { stdio: "pipe" });
  } catch (error) {
    if (!String(error.stdout).includes("TS2307") && !String(error.stdout).includes("TS2792")) throw error;
  }
  writeFileSync(path.join(dir, "package.json"), JSON.stringify({ name: "rea-channels-corpus", version: "1.0.0", main: "main.js" }));
}

// `channels-<bundler>-<cjs|esm>-<dev|prod>/`: main.js, preload.js and renderer.js, electron
// external.
// `concatenate: false` keeps every module a factory of its own in production, as webpack does
// for modules it cannot concatenate: the barrel's re-exports and webpack 5.100+'s array form
// of export definitions then stay in the output.
async function pack(name, factory, mode, input, concatenate = true) {
  const dir = path.join(out, name);
  const config = {
    mode,
    context: input,
    target: "node",
    devtool: false,
    entry: { main: "./main.js", preload: "./preload.js", renderer: "./renderer.js" },
    externals: { electron: "commonjs electron" },
    output: { path: dir, filename: "[name].js" },
    optimization: mode === "production" ? { minimize: true, concatenateModules: concatenate } : {},
  };
  const stats = await new Promise((resolve, reject) =>
    factory(config, (err, s) => (err ? reject(err) : s.hasErrors() ? reject(new Error(s.toString())) : resolve(s))));
  if (!stats) throw new Error(name);
  writeFileSync(path.join(dir, "package.json"), JSON.stringify({ name: "rea-channels-corpus", version: "1.0.0", main: "main.js" }));
}
const bundlers = [["webpack", require("webpack")], ["rspack", require("@rspack/core").rspack]];
for (const [bundler, factory] of bundlers) {
  for (const format of ["cjs", "esm"]) {
    for (const mode of ["development", "production"]) {
      const name = `channels-${bundler}-${format}-${mode === "development" ? "dev" : "prod"}`;
      await pack(name, factory, mode, path.join(out, `channels-tsc-${format}`));
    }
  }
  await pack(`channels-${bundler}-esm-nocat`, factory, "production", path.join(out, "channels-tsc-esm"), false);
}
const esbuild = require("esbuild");
// Minified CommonJS keeps the shared module in a wrapper of its own, with no path and a
// renamed helper.
for (const format of ["cjs", "esm"]) {
  for (const [mode, minify] of [["dev", false], ["prod", true]]) {
    const dir = path.join(out, `channels-esbuild-${format}-${mode}`);
    const input = path.join(out, `channels-tsc-${format}`);
    await esbuild.build({
      entryPoints: ["main.js", "preload.js", "renderer.js"].map((f) => path.join(input, f)),
      bundle: true, platform: "node", format: "cjs", external: ["electron"], minify, outdir: dir, logLevel: "error",
    });
    writeFileSync(path.join(dir, "package.json"), JSON.stringify({ name: "rea-channels-corpus", version: "1.0.0", main: "main.js" }));
  }
}

// Bundles src/main.js, which requires a package whose `index.js` requires its compiled add-on,
// the two ways webpack apps ship native add-ons: Electron Forge's rules (the asset relocator
// copies the add-on under native_modules/ and rewrites the require as
// `require(__webpack_require__.ab + "…")`, node-loader for .node files under it) and
// node-loader alone (`process.dlopen(module, join(__dirname, __webpack_require__.p, "<hash>.node"))`).
// The add-on is a stub: nothing is ever loaded. Writes each build's emitted .node assets
// (webpack's stats) as the oracle.
// Usage: node build.mjs OUT   (run from a directory whose node_modules has the tools)
import { createRequire } from "node:module";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";

const require = createRequire(path.join(process.cwd(), "package.json"));
const webpack = require("webpack");
const out = path.resolve(process.argv[2]);
const app = path.dirname(new URL(import.meta.url).pathname);
const modules = path.join(out, "native-app-deps", "node_modules");
const addon = path.join(modules, "fakeaddon");
mkdirSync(path.join(addon, "build", "Release"), { recursive: true });
writeFileSync(path.join(addon, "package.json"), JSON.stringify({ name: "fakeaddon", version: "1.0.0", main: "index.js" }));
writeFileSync(path.join(addon, "index.js"), 'module.exports = require("./build/Release/fakeaddon.node");\n');
writeFileSync(path.join(addon, "build", "Release", "fakeaddon.node"), Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0]));

const forge = [
  { test: /native_modules[/\\].+\.node$/, use: require.resolve("node-loader") },
  {
    test: /[/\\]node_modules[/\\].+\.(m?js|node)$/,
    parser: { amd: false },
    use: { loader: require.resolve("@vercel/webpack-asset-relocator-loader"), options: { outputAssetBase: "native_modules" } },
  },
];
const nodeLoader = [{ test: /\.node$/, use: require.resolve("node-loader") }];
for (const [name, rules] of [["native-forge", forge], ["native-node-loader", nodeLoader]]) {
  const dir = path.join(out, name);
  const stats = await new Promise((resolve, reject) =>
    webpack({
      mode: "production", target: "electron-main", context: app, entry: "./src/main.js", devtool: false,
      node: { __dirname: false, __filename: false },
      output: { path: path.join(dir, ".webpack", "main"), filename: "index.js" },
      resolve: { modules: [modules, path.join(process.cwd(), "node_modules")] },
      optimization: { minimize: true },
      module: { rules },
    }, (err, s) => (err ? reject(err) : s.hasErrors() ? reject(new Error(s.toString())) : resolve(s))));
  writeFileSync(path.join(dir, "package.json"), JSON.stringify({ name, version: "1.0.0", main: ".webpack/main/index.js" }));
  const assets = stats.toJson({ all: false, assets: true }).assets
    .map((a) => a.name)
    .filter((n) => n.endsWith(".node"))
    .map((n) => `.webpack/main/${n}`);
  writeFileSync(path.join(out, `${name}.assets.json`), JSON.stringify(assets.sort()));
}

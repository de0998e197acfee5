// Builds an Electron main process as vue-cli-plugin-electron-builder ships one, from the
// plugin's own npm tarball: its generated `background.js` (the generator's template with its
// EJS tags taken out, every option kept) and the `createProtocol` it imports from the plugin's
// `lib`, bundled by webpack 5 in production mode as the plugin's `electron:build` does
// (target `electron-main`, `__dirname` left to Node, dependencies external, minified). The
// renderer build it serves under `app://` is stood for by its page. What REA must find is in
// ./truth.json.
// Usage: node build.mjs OUT PLUGIN_PACKAGE_DIR   (run from a directory whose node_modules has webpack)
import { createRequire } from "node:module";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";

const require = createRequire(path.join(process.cwd(), "package.json"));
const out = path.resolve(process.argv[2]);
const plugin = path.resolve(process.argv[3]);
const dir = path.join(out, "vue-cli-electron");
const src = mkdtempSync(path.join(os.tmpdir(), "rea-vue-cli-src-"));
const template = readFileSync(path.join(plugin, "generator/templates/base/src/background.js"), "utf8");
writeFileSync(path.join(src, "background.js"), template.replace(/<%[^%]*%>/g, ""));

const config = {
  mode: "production",
  target: "electron-main",
  context: src,
  entry: { background: "./background.js" },
  devtool: false,
  node: { __dirname: false, __filename: false },
  output: { path: dir, filename: "[name].js" },
  resolve: { alias: { "vue-cli-plugin-electron-builder/lib": path.join(plugin, "lib/index.js") } },
  // Only the plugin's own code is bundled; every other package stays a `require`.
  externals: [({ request }, callback) =>
    /^[@a-z]/i.test(request) && !request.startsWith("vue-cli-plugin-electron-builder")
      ? callback(null, `commonjs ${request}`)
      : callback()],
};
await new Promise((resolve, reject) =>
  require("webpack")(config, (err, s) => (err ? reject(err) : s.hasErrors() ? reject(new Error(s.toString())) : resolve(s))));
rmSync(src, { recursive: true, force: true });
writeFileSync(path.join(dir, "package.json"), JSON.stringify({ name: "rea-vue-cli-corpus", version: "1.0.0", main: "background.js" }));
writeFileSync(path.join(dir, "index.html"), '<!doctype html><title>vue</title><script src="js/app.js"></script>\n');
mkdirSync(path.join(dir, "js"), { recursive: true });
writeFileSync(path.join(dir, "js", "app.js"), "document.title = 'vue';\n");

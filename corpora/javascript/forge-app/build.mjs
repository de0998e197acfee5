// Builds this app as Electron Forge's webpack plugin builds an app for packaging: the plugin's
// own config generator (`@electron-forge/plugin-webpack`'s WebpackConfigGenerator, production
// mode) makes the main process's and the renderers' webpack configs, webpack runs them, and the
// result is laid out as Forge packages it: `.webpack/main/index.js`, `.webpack/renderer/<entry
// point>/{index.html,index.js,preload.js}` and a package.json whose `main` is `.webpack/main`.
// Then @electron/asar packs that tree, as Forge's packager does.
//
//   OUT/forge-webpack/                 the tree
//   OUT/forge-webpack.asar             the tree packed
//   OUT/forge-dist/resources/          the archive as the packager places it, beside the
//                                      extra resource src/helper (`extraResource`)
//
// Usage: node build.mjs OUT   (run from a directory whose node_modules has webpack, the plugin
// and @electron/asar)
import { createRequire } from "node:module";
import { cpSync, mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";

const require = createRequire(path.join(process.cwd(), "package.json"));
const out = path.resolve(process.argv[2]);
const app = path.dirname(new URL(import.meta.url).pathname);
const webpack = require("webpack");
const Generator = require("@electron-forge/plugin-webpack/dist/WebpackConfig.js").default;

// The generator writes below the project's own `.webpack`, so the project is copied first.
const project = path.join(out, "forge-project");
mkdirSync(project, { recursive: true });
for (const item of ["src", "webpack.main.config.js", "webpack.renderer.config.js"]) {
  cpSync(path.join(app, item), path.join(project, item), { recursive: true });
}
process.chdir(project);
// As forge.config.js of Forge's webpack template names it, with a second window that
// integrates Node.js and so has a renderer build of its own.
const pluginConfig = {
  mainConfig: "./webpack.main.config.js",
  renderer: {
    config: "./webpack.renderer.config.js",
    entryPoints: [
      { html: "./src/index.html", js: "./src/renderer.js", name: "main_window", preload: { js: "./src/preload.js" } },
      { html: "./src/settings.html", js: "./src/settings.js", name: "settings_window", nodeIntegration: true },
    ],
  },
};
const generator = new Generator(pluginConfig, project, true, 3000);
const configs = [await generator.getMainConfig(), ...(await generator.getRendererConfig(pluginConfig.renderer))];
await new Promise((resolve, reject) =>
  webpack(configs, (err, s) => (err ? reject(err) : s.hasErrors() ? reject(new Error(s.toString())) : resolve(s))));
const webpackDir = path.join(project, ".webpack");
const tree = path.join(out, "forge-webpack");
mkdirSync(tree, { recursive: true });
renameSync(webpackDir, path.join(tree, ".webpack"));
process.chdir(out);
rmSync(project, { recursive: true });
writeFileSync(path.join(tree, "package.json"),
  JSON.stringify({ name: "rea-forge-corpus", productName: "Forge app", version: "1.0.0", main: ".webpack/main" }, null, 2));
await require("@electron/asar").createPackageWithOptions(tree, path.join(out, "forge-webpack.asar"), { dot: true });
const resources = path.join(out, "forge-dist", "resources");
mkdirSync(resources, { recursive: true });
cpSync(path.join(out, "forge-webpack.asar"), path.join(resources, "app.asar"));
cpSync(path.join(app, "src", "helper"), path.join(resources, "helper"), { recursive: true });

// electron-vite's template shape, built by rollup as electron-vite builds it: the main process
// and the preload bundled to CommonJS (`toolkit-cjs/`) and to ES modules (`toolkit-esm/`),
// `electron` and `@electron-toolkit/preload` left external, with the package itself shipped
// in the app's node_modules as a packaged app holds its dependencies.
// Usage: node build.mjs OUT PACKAGE   (run from a directory whose node_modules has rollup;
// PACKAGE is `@electron-toolkit/preload` unpacked from `npm pack`, without its peer
// `electron`, whose install script would download Electron itself)
import { createRequire } from "node:module";
import { cpSync, mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";

const require = createRequire(path.join(process.cwd(), "package.json"));
const { rollup } = require("rollup");
const out = path.resolve(process.argv[2]);
const app = path.dirname(new URL(import.meta.url).pathname);
const toolkit = path.resolve(process.argv[3]);
const external = ["electron", "path", "@electron-toolkit/preload"];
for (const format of ["cjs", "esm"]) {
  const dir = path.join(out, `toolkit-${format}`);
  const extension = format === "cjs" ? "js" : "mjs";
  for (const part of ["main", "preload"]) {
    const bundle = await rollup({ input: path.join(app, "src", `${part}.js`), external });
    await bundle.write({ file: path.join(dir, "out", part, `index.${extension}`), format });
    await bundle.close();
  }
  mkdirSync(path.join(dir, "out", "renderer"), { recursive: true });
  cpSync(path.join(app, "src", "renderer.js"), path.join(dir, "out", "renderer", "index.js"));
  writeFileSync(path.join(dir, "out", "renderer", "index.html"), '<script src="./index.js"></script>\n');
  const target = path.join(dir, "node_modules", "@electron-toolkit", "preload");
  cpSync(path.join(toolkit, "package.json"), path.join(target, "package.json"));
  cpSync(path.join(toolkit, "dist"), path.join(target, "dist"), { recursive: true });
  writeFileSync(path.join(dir, "package.json"), JSON.stringify({
    name: "rea-toolkit-corpus", version: "1.0.0", main: `out/main/index.${extension}`,
    dependencies: { "@electron-toolkit/preload": "3.0.2" },
  }));
}

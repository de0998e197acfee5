// electron-vite's template shape, built by rollup as electron-vite builds it: the main process
// and the preload bundled to CommonJS (`toolkit-cjs/`) and to ES modules (`toolkit-esm/`),
// `electron`, `@electron-toolkit/preload` and `@electron-toolkit/typed-ipc/main` left
// external, with the packages themselves shipped in the app's node_modules as a packaged app
// holds its dependencies; the page bundled with typed-ipc's renderer classes inside, as Vite
// bundles a page.
// Usage: node build.mjs OUT PRELOAD TYPED_IPC   (run from a directory whose node_modules has
// rollup; PRELOAD and TYPED_IPC are `@electron-toolkit/preload` and
// `@electron-toolkit/typed-ipc` unpacked from `npm pack`, without their peer `electron`,
// whose install script would download Electron itself)
import { createRequire } from "node:module";
import { cpSync, mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";

const require = createRequire(path.join(process.cwd(), "package.json"));
const { rollup } = require("rollup");
const out = path.resolve(process.argv[2]);
const app = path.dirname(new URL(import.meta.url).pathname);
const toolkit = path.resolve(process.argv[3]);
const typedIpc = path.resolve(process.argv[4]);
const external = ["electron", "path", "@electron-toolkit/preload", "@electron-toolkit/typed-ipc/main"];
// The page imports typed-ipc's renderer entry, which its `exports` map names.
const typedRenderer = {
  name: "typed-ipc-renderer",
  resolveId: (id) =>
    id === "@electron-toolkit/typed-ipc/renderer" ? path.join(typedIpc, "dist", "renderer.mjs") : null,
};
for (const format of ["cjs", "esm"]) {
  const dir = path.join(out, `toolkit-${format}`);
  const extension = format === "cjs" ? "js" : "mjs";
  for (const part of ["main", "preload"]) {
    const bundle = await rollup({ input: path.join(app, "src", `${part}.js`), external });
    await bundle.write({ file: path.join(dir, "out", part, `index.${extension}`), format });
    await bundle.close();
  }
  const page = await rollup({ input: path.join(app, "src", "renderer.js"), plugins: [typedRenderer] });
  await page.write({ file: path.join(dir, "out", "renderer", "index.js"), format: "iife" });
  await page.close();
  writeFileSync(path.join(dir, "out", "renderer", "index.html"), '<script src="./index.js"></script>\n');
  const target = path.join(dir, "node_modules", "@electron-toolkit", "preload");
  cpSync(path.join(toolkit, "package.json"), path.join(target, "package.json"));
  cpSync(path.join(toolkit, "dist"), path.join(target, "dist"), { recursive: true });
  const typedTarget = path.join(dir, "node_modules", "@electron-toolkit", "typed-ipc");
  cpSync(path.join(typedIpc, "package.json"), path.join(typedTarget, "package.json"));
  cpSync(path.join(typedIpc, "dist"), path.join(typedTarget, "dist"), { recursive: true });
  writeFileSync(path.join(dir, "package.json"), JSON.stringify({
    name: "rea-toolkit-corpus", version: "1.0.0", main: `out/main/index.${extension}`,
    dependencies: { "@electron-toolkit/preload": "3.0.2", "@electron-toolkit/typed-ipc": "1.0.2" },
  }));
}

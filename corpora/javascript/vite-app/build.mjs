// Builds the app with Vite (rollup underneath, minified by esbuild) the way electron-vite
// builds a renderer: a relative base, so that the page loads from `file://`. Vite's build
// manifest is the oracle: each chunk's dynamic imports, the chunks they import and the style
// sheets of each, which Vite's `__vite__mapDeps` table makes the page preload.
// Usage: node build.mjs OUT   (run from a directory whose node_modules has vite)
import { createRequire } from "node:module";
import path from "node:path";

const require = createRequire(path.join(process.cwd(), "package.json"));
const { build } = await import(require.resolve("vite"));
const out = path.resolve(process.argv[2]);
const app = path.dirname(new URL(import.meta.url).pathname);
for (const [name, base] of [["vite-relative", "./"], ["vite-absolute", "/"]]) {
  await build({
    root: app,
    base,
    logLevel: "silent",
    configFile: false,
    build: { outDir: path.join(out, name), emptyOutDir: true, manifest: "manifest.json" },
  });
}

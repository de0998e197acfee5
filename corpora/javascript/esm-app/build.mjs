// Builds the ES-module main process in src/ as apps ship one: bundled and minified by esbuild
// to an ES module (which renames what it imports, `import{fileURLToPath as t}from"node:url"`),
// with the preloads and pages beside it as written, and a package.json of type `module`.
// Usage: node build.mjs OUT   (run from a directory whose node_modules has esbuild)
import { createRequire } from "node:module";
import { cpSync, writeFileSync } from "node:fs";
import path from "node:path";

const require = createRequire(path.join(process.cwd(), "package.json"));
const out = path.resolve(process.argv[2], "esm-esbuild");
const app = path.dirname(new URL(import.meta.url).pathname);
await require("esbuild").build({
  absWorkingDir: app, entryPoints: ["src/main.js"], bundle: true, minify: true, platform: "node",
  format: "esm", external: ["electron"], outfile: path.join(out, "main.mjs"), logLevel: "silent",
});
for (const item of ["preload.cjs", "preloads", "pages"]) {
  cpSync(path.join(app, "src", item), path.join(out, item), { recursive: true });
}
writeFileSync(path.join(out, "package.json"),
  JSON.stringify({ name: "rea-esm-corpus", version: "1.0.0", type: "module", main: "main.mjs" }));

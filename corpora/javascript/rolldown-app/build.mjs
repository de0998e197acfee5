// Builds the app with Vite 8, whose bundler is rolldown, unminified and minified, with a
// relative base as electron-vite builds a renderer. The oracle is rolldown's own record of each
// chunk: the modules it rendered into it (`chunk.modules`, from the `generateBundle` hook),
// each with the format rolldown read it in (`cjs` modules are the ones it wraps) and the
// modules it imports or requires, written beside each build as <build>.modules.json:
// {"assets/x.js": [{"id": "/abs/node_modules/qs/lib/index.js", "format": "cjs", "imports": […]}]}.
// Usage: node build.mjs OUT   (run from a directory whose node_modules has vite and qs)
import { createRequire } from "node:module";
import fs from "node:fs";
import path from "node:path";

const require = createRequire(path.join(process.cwd(), "package.json"));
const { build } = await import(require.resolve("vite"));
const out = path.resolve(process.argv[2]);
const app = path.dirname(new URL(import.meta.url).pathname);
// The third build is node/main.js as electron-vite builds a main process: for Node, CommonJS
// output, minified, Electron external.
const node = {
  ssr: path.join(app, "node/main.js"),
  rollupOptions: { external: ["electron"], output: { format: "cjs", entryFileNames: "main.js" } },
};
for (const [name, minify, extra] of [
  ["rolldown-plain", false, {}],
  ["rolldown-min", true, {}],
  ["rolldown-main", true, node],
]) {
  const modules = {};
  await build({
    root: app,
    base: "./",
    logLevel: "silent",
    configFile: false,
    resolve: { alias: { qs: require.resolve("qs") } },
    build: { outDir: path.join(out, name), emptyOutDir: true, minify, ...extra },
    plugins: [
      {
        name: "record-chunk-modules",
        generateBundle(_options, bundle) {
          for (const [file, chunk] of Object.entries(bundle)) {
            if (chunk.type !== "chunk") continue;
            modules[file] = Object.keys(chunk.modules)
              .sort()
              .map((id) => {
                // Rolldown's own runtime has no module info.
                const info = this.getModuleInfo(id);
                const imports = info ? [...info.importedIds].sort() : [];
                return { id, format: info ? info.inputFormat : null, imports };
              });
          }
        },
      },
    ],
  });
  fs.writeFileSync(path.join(out, `${name}.modules.json`), JSON.stringify(modules, null, 1));
}

// Bundles index.js with browserify's API twice: with numeric ids, as browserify ships by
// default, and with --full-paths, whose keys are file paths; and writes browserify's own
// dependency records (what `browserify --deps` prints) as the oracle.
// Usage: node build.mjs OUT   (run from a directory whose node_modules has browserify and qs)
import { createRequire } from "node:module";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";

const require = createRequire(path.join(process.cwd(), "package.json"));
const browserify = require("browserify");
const out = path.resolve(process.argv[2]);
const app = path.dirname(new URL(import.meta.url).pathname);
const paths = [path.join(process.cwd(), "node_modules")];

// The bundle's bytes, or with `deps`, the rows browserify's dependency phase emits.
function run(options, deps = false) {
  const b = browserify(path.join(app, "index.js"), { paths, ...options });
  return new Promise((resolve, reject) => {
    const chunks = [];
    const stream = deps ? b.pipeline.get("deps") : b.bundle();
    stream.on("data", (chunk) => chunks.push(chunk));
    stream.on("end", () => resolve(deps ? chunks : Buffer.concat(chunks)));
    stream.on("error", reject);
    if (deps) b.bundle().resume();
  });
}

for (const [name, options] of [["browserify", {}], ["browserify-full-paths", { fullPaths: true }]]) {
  mkdirSync(path.join(out, name), { recursive: true });
  writeFileSync(path.join(out, name, "bundle.js"), await run(options));
}
const rows = await run({ fullPaths: true }, true);
const records = rows.map((row) => ({ id: row.id, file: row.file, entry: !!row.entry, deps: row.deps }));
records.sort((a, b) => String(a.id).localeCompare(String(b.id)));
writeFileSync(path.join(out, "browserify.deps.json"), JSON.stringify(records, null, 1));

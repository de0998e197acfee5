// The oracle of package resolution: Node.js's own resolver. Reads a JSON array of
// [from, specifier, system] (from: a path relative to ROOT; system: "require" or "import")
// on stdin and prints, for each, {path} (relative to ROOT) for a file that is there,
// {builtin: true}, {error: "missing", missing: path} for a path import names that is not
// there, or {error: code}. Only resolves: loads nothing.
// Run with --experimental-import-meta-resolve (Node.js 20), for import's parent argument.
import fs from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = path.resolve(process.argv[2]);
const queries = JSON.parse(fs.readFileSync(0, "utf8"));
const answers = queries.map(([from, specifier, system]) => {
  const parent = path.join(root, from);
  let resolved;
  try {
    resolved =
      system === "import"
        ? import.meta.resolve(specifier, pathToFileURL(parent).href)
        : createRequire(parent).resolve(specifier);
  } catch (e) {
    return { error: e.code ?? String(e) };
  }
  if (resolved.startsWith("file:")) resolved = fileURLToPath(resolved);
  if (!path.isAbsolute(resolved)) return { builtin: true };
  const relative = path.relative(root, resolved).split(path.sep).join("/");
  // import.meta.resolve does not look for the file: a missing one fails when loaded.
  if (!fs.statSync(resolved, { throwIfNoEntry: false })?.isFile()) {
    return { error: "missing", missing: relative };
  }
  return { path: relative };
});
process.stdout.write(JSON.stringify(answers));

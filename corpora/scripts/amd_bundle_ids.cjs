// Prints the modules a VS Code–style AMD bundle defines, read from its text without running it:
// `var __m = ["exports", "require", …]` is the table of ids, `define(__m[12/*…*/],
// __M([1/*…*/, 0, 7]), …)` names a module and its dependencies by index into it, and
// `define("id", [deps], …)` names them directly.
//
//   node amd_bundle_ids.cjs FILE   →   {"modules": [{"name", "deps"}], "stale_annotations": N}
//
// Modules are listed in text order, repeats included.
//
// The development build annotates each index with the id it stood for when the bundler wrote
// it; the release rewrites a few table entries afterwards (Monaco renames its core
// `vs/editor/editor.main` to `vs/editor/edcore.main`), so the ids come from the table, and the
// annotations that disagree with it are counted.
const fs = require("fs");

const text = fs.readFileSync(process.argv[2], "utf8");
const table = JSON.parse(/var __m\s*=\s*(\[[^\]]*\])/.exec(text)[1]);
const modules = [];
let stale = 0;
const id = (index, note) => {
  if (note !== undefined && note !== table[index]) stale++;
  return table[index];
};
const indexed = /define\(__m\[(\d+)(?:\/\*([^*]+)\*\/)?\],\s*__M\(\[([^\]]*)\]\)/g;
for (const m of text.matchAll(indexed)) {
  const deps = [...m[3].matchAll(/(\d+)(?:\/\*([^*]+)\*\/)?/g)].map((d) => id(Number(d[1]), d[2]));
  modules.push({ at: m.index, name: id(Number(m[1]), m[2]), deps });
}
// String-named defines, through `define` or a name Monaco binds to it (`globalDefine`).
const named = /\b(?:define|globalDefine)\(\s*(["'])([^"']+)\1,\s*(\[[^\]]*\])?/g;
for (const m of text.matchAll(named)) {
  const deps = m[3] ? [...m[3].matchAll(/(["'])([^"']*)\1/g)].map((d) => d[2]) : [];
  modules.push({ at: m.index, name: m[2], deps });
}
// In text order: the loader keeps the first define of an id.
modules.sort((a, b) => a.at - b.at);
console.log(JSON.stringify({ modules: modules.map(({ name, deps }) => ({ name, deps })), stale_annotations: stale }));

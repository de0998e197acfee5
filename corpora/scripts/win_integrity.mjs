// Writes the ASAR integrity resource into a copy of a Windows executable, the way Electron's
// packagers do (@electron/packager and electron-builder, both through resedit): a resource of
// type "Integrity", name "ElectronAsar", holding the JSON list
// [{"file": "resources\\app.asar", "alg": "SHA256", "value": <header hash>}].
//
//   node win_integrity.mjs TOOLS_DIR IN_EXE OUT_EXE LIST_JSON
//
// TOOLS_DIR holds node_modules/resedit.
import { readFileSync, writeFileSync } from "fs";
import { createRequire } from "module";
import path from "path";

const [tools, input, output, list] = process.argv.slice(2);
const require = createRequire(path.resolve(tools, "package.json"));
const ResEdit = await import(require.resolve("resedit"));
const exe = ResEdit.NtExecutable.from(readFileSync(input));
const res = ResEdit.NtExecutableResource.from(exe);
res.entries.push({
  type: "Integrity",
  id: "ElectronAsar",
  bin: new TextEncoder().encode(list).buffer,
  lang: 1033,
  codepage: 1200,
});
res.outputResource(exe);
writeFileSync(output, Buffer.from(exe.generate()));

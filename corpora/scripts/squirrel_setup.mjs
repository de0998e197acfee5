// Writes a Squirrel.Windows-style installer: a copy of a Windows executable with a zip (the
// package Squirrel bundles: Update.exe and the app's .nupkg) as its resource of type "DATA",
// id 131, as Squirrel's `WriteZipToSetup` does with UpdateResource (here through resedit, the
// resource editor Electron's packagers use).
//
//   node squirrel_setup.mjs TOOLS_DIR IN_EXE OUT_EXE ZIP
//
// TOOLS_DIR holds node_modules/resedit.
import { readFileSync, writeFileSync } from "fs";
import { createRequire } from "module";
import path from "path";

const [tools, input, output, zip] = process.argv.slice(2);
const require = createRequire(path.resolve(tools, "package.json"));
const ResEdit = await import(require.resolve("resedit"));
const exe = ResEdit.NtExecutable.from(readFileSync(input));
const res = ResEdit.NtExecutableResource.from(exe);
const bytes = readFileSync(zip);
res.entries.push({
  type: "DATA",
  id: 131,
  bin: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength),
  lang: 1033,
  codepage: 1200,
});
res.outputResource(exe);
writeFileSync(output, Buffer.from(exe.generate()));

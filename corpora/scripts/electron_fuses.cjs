// Electron fuse wires, through the official @electron/fuses 1.8.0.
//
//   node electron_fuses.cjs TOOLS_DIR seed BINARY         appends the wire an unflipped Electron
//                                                        43 binary carries (version 1, nine
//                                                        fuses "101100011") to a stand-in binary
//   node electron_fuses.cjs TOOLS_DIR flip PATH CONFIG    flipFuses(PATH, {version: "1", ...CONFIG}),
//                                                        CONFIG a JSON object of index -> boolean;
//                                                        PATH may be a .app bundle
//   node electron_fuses.cjs TOOLS_DIR read PATH           getCurrentFuseWire(PATH) as JSON
//
// TOOLS_DIR holds node_modules/@electron/fuses.
const fs = require("fs");
const path = require("path");
const [tools, command, target, config] = process.argv.slice(2);
const fuses = require(path.resolve(tools, "node_modules/@electron/fuses"));
const SENTINEL = "dL7pKGdnNz796PbbjQWNKmHXBZaB9tsX";

(async () => {
  if (command === "seed") {
    const wire = Buffer.concat([Buffer.from(SENTINEL), Buffer.from([1, 9]), Buffer.from("101100011")]);
    fs.appendFileSync(target, wire);
  } else if (command === "flip") {
    const options = { version: fuses.FuseVersion.V1 };
    for (const [index, on] of Object.entries(JSON.parse(config))) options[index] = on;
    await fuses.flipFuses(target, options);
  } else if (command === "read") {
    process.stdout.write(JSON.stringify(await fuses.getCurrentFuseWire(target)) + "\n");
  } else {
    throw new Error(`unknown command ${command}`);
  }
})().catch((err) => {
  console.error(err);
  process.exit(1);
});

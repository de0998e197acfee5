// The ASAR header integrity Electron's packagers declare, computed the way they compute it:
// SHA-256 of `getRawHeader(archive).headerString` from the official @electron/asar.
//
//   node asar_header_integrity.cjs ASAR_MODULE_DIR ARCHIVE   prints {"algorithm","hash"} as JSON
const path = require("path");
const crypto = require("crypto");
const [moduleDir, archive] = process.argv.slice(2);
const asar = require(path.resolve(moduleDir));
const { headerString } = asar.getRawHeader(archive);
const hash = crypto.createHash("SHA256").update(headerString).digest("hex");
process.stdout.write(JSON.stringify({ algorithm: "SHA256", hash }) + "\n");

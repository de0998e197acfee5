// Prints {file: [module ids] | null} for every file of DIR, as webpack-bundle-analyzer's own
// bundle parser (`parseBundle`) reads them: the third-party oracle for shipped bundles.
const { parseBundle } = require('webpack-bundle-analyzer/lib/parseUtils');
const fs = require('fs');
const path = require('path');
const dir = process.argv[2];
const out = {};
for (const file of fs.readdirSync(dir).sort()) {
  let parsed = null;
  try {
    parsed = parseBundle(path.join(dir, file));
  } catch (err) {
    parsed = null;
  }
  out[file] = parsed && parsed.modules ? Object.keys(parsed.modules).sort() : null;
}
process.stdout.write(JSON.stringify(out, null, 1) + '\n');

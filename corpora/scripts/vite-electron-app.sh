#!/usr/bin/env bash
# Rebuilds corpora/javascript/vite-electron-app/app: the Vue template of create-electron-vite
# 0.7.1 (the official scaffolder of vite-plugin-electron) with its `electron/` main and preload,
# built for production by vite 5.4.21 and vite-plugin-electron 0.28.8 as the scaffolder sets
# them up. The renderer's own bundle (the Vue runtime) is left out: the fixture is the main
# process and the preload, as vite-plugin-electron writes them, and the page they load.
#
#   bash corpora/scripts/vite-electron-app.sh [WORKDIR]   (default: a temporary directory)
#
# Nothing the build writes is run. The Electron binary is not downloaded.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
work="${1:-$(mktemp -d)}"
mkdir -p "$work"
cd "$work"
npm pack --silent create-electron-vite@0.7.1 >/dev/null
rm -rf scaffold project && mkdir scaffold
tar xzf create-electron-vite-0.7.1.tgz -C scaffold
cp -r scaffold/package/template-vue-ts project
cp -r scaffold/package/electron project/electron
rm project/electron/package.json
cd project
# What the scaffolder writes for the Vue template (its dist/index.mjs), without the prompts.
node -e '
const fs = require("fs");
const p = JSON.parse(fs.readFileSync("package.json", "utf8"));
p.name = "vite-electron-app";
p.main = "dist-electron/main.js";
delete p.devDependencies["vue-tsc"];
Object.assign(p.devDependencies, {
  "vite": "5.4.21", "@vitejs/plugin-vue": "5.2.4", "vue": "3.5.47",
  "electron": "30.5.1", "vite-plugin-electron": "0.28.8", "vite-plugin-electron-renderer": "0.14.6",
});
fs.writeFileSync("package.json", JSON.stringify(p, null, 2) + "\n");
'
cat > vite.config.ts <<'CONFIG'
import { defineConfig } from 'vite'
import path from 'node:path'
import electron from 'vite-plugin-electron/simple'
import vue from '@vitejs/plugin-vue'

export default defineConfig({
  plugins: [
    vue(),
    electron({
      main: { entry: 'electron/main.ts' },
      preload: { input: path.join(__dirname, 'electron/preload.ts') },
      renderer: {},
    }),
  ],
})
CONFIG
ELECTRON_SKIP_BINARY_DOWNLOAD=1 npm install --no-audit --no-fund --loglevel=error >/dev/null
npx vite build >/dev/null
out="$here/javascript/vite-electron-app/app"
rm -rf "$out" && mkdir -p "$out/dist" "$out/dist-electron"
node -e '
const fs = require("fs");
const p = JSON.parse(fs.readFileSync("package.json", "utf8"));
fs.writeFileSync(process.argv[1], JSON.stringify({ name: p.name, version: p.version, type: p.type, main: p.main }, null, 2) + "\n");
' "$out/package.json"
cp dist/index.html "$out/dist/"
cp dist-electron/main.js dist-electron/preload.mjs "$out/dist-electron/"
echo "$out"

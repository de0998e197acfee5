#!/usr/bin/env bash
# Installs typescript@5.9.3 from npm once into DEST (under target/), for the parse bench:
# DEST/node_modules/typescript/lib/typescript.js is the fixed real file the anchors use.
set -euo pipefail
dest="${1:?usage: typescript-js.sh DEST}"
[ -f "$dest/node_modules/typescript/lib/typescript.js" ] && exit 0
mkdir -p "$dest"
cd "$dest"
[ -f package.json ] || npm init -y >/dev/null
npm install --ignore-scripts --no-audit --no-fund --loglevel=error typescript@5.9.3 >/dev/null

#!/usr/bin/env bash
# Builds the ASAR corpus with the official packer, once, into DEST (under target/).
#
#   DEST/tree/                 a real package tree: express, lodash, react, react-dom and
#                              @node-rs/crc32's prebuilt linux-x64 .node add-on (install scripts off)
#   DEST/plain.asar            asar pack tree plain.asar
#   DEST/unpack-node.asar      asar pack tree unpack-node.asar --unpack '*.node'   (+ .unpacked/)
#   DEST/unpack-dir.asar       asar pack tree unpack-dir.asar --unpack-dir 'node_modules/lodash' (+ .unpacked/)
#   DEST/<name>.list           `asar list` of each archive: the listing oracle
#   DEST/tools/                @electron/asar 3.4.1 itself, for tests that extract with it
set -euo pipefail
dest="${1:?usage: asar-corpus.sh DEST}"
. "$(dirname "$0")/corpus.sh"
corpus_begin "$dest"
mkdir -p "$tmp/tree" "$tmp/tools"
(
  cd "$tmp/tools"
  npm init -y >/dev/null
  npm install --ignore-scripts --no-audit --no-fund --loglevel=error @electron/asar@3.4.1 >/dev/null
)
(
  cd "$tmp/tree"
  npm init -y >/dev/null
  npm install --ignore-scripts --no-audit --no-fund --loglevel=error --force \
    express@4.21.2 lodash@4.17.21 react@18.3.1 react-dom@18.3.1 @node-rs/crc32-linux-x64-gnu@1.10.8 >/dev/null
  # Symlinks in node_modules/.bin point outside the packed tree's files; keep them: they are real.
)
asar="$tmp/tools/node_modules/.bin/asar"
(
  cd "$tmp"
  "$asar" pack tree plain.asar
  "$asar" pack tree unpack-node.asar --unpack '*.node'
  "$asar" pack tree unpack-dir.asar --unpack-dir 'node_modules/lodash'
  for name in plain unpack-node unpack-dir; do "$asar" list "$name.asar" > "$name.list"; done
)
corpus_end

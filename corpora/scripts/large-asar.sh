#!/usr/bin/env bash
# Builds the large real ASAR for the benchmark, once, into DEST (under target/):
#   DEST/tree/        typescript, monaco-editor, @babel/preset-env, @mui/icons-material, date-fns,
#                     lodash, rxjs, @fortawesome/free-solid-svg-icons
#                     (pinned; install scripts off)
#   DEST/large.asar   packed by @electron/asar 3.4.1, with '*.node' unpacked
#   DEST/tools/       @electron/asar itself, for the extract comparison
set -euo pipefail
dest="${1:?usage: large-asar.sh DEST}"
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
    typescript@5.6.3 monaco-editor@0.52.0 @babel/preset-env@7.26.0 @babel/core@7.26.0 \
    @mui/icons-material@6.1.6 date-fns@4.1.0 lodash@4.17.21 rxjs@7.8.1 \
    @fortawesome/free-solid-svg-icons@6.6.0 >/dev/null
)
"$tmp/tools/node_modules/.bin/asar" pack "$tmp/tree" "$tmp/large.asar" --unpack '*.node'
corpus_end

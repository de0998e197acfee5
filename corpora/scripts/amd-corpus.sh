#!/usr/bin/env bash
# Builds the AMD corpus once into DEST (under target/):
#
#   DEST/corpus/amd-rjs-<none|uglify>/, amd-tsc/, amd-src/ and their *.oracle.json
#       corpora/javascript/amd-app built by RequireJS's optimizer (r.js) and by TypeScript
#       (`--module amd --outFile`), with r.js's own parser as the oracle (see that app's
#       build.mjs)
#   DEST/monaco/<dev|min>/editor.main.js
#       Monaco's editor bundle as monaco-editor 0.52.0 ships it (VS Code's AMD bundler: ids
#       and dependencies as indexes into one table of strings), development and minified
#   DEST/monaco/dev.oracle.json
#       the modules the development build's own annotations name (scripts/amd_bundle_ids.cjs)
#
# Nothing is run but the build tools. A rebuild happens when this script or a script it runs
# changes.
set -euo pipefail
dest="$(realpath -m "${1:?usage: amd-corpus.sh DEST}")"
here="$(cd "$(dirname "$0")/.." && pwd)"
stamp="$(cat "$0" "$here/scripts/amd_bundle_ids.cjs" \
  $(find "$here/javascript/amd-app" -type f | sort) | sha256sum | cut -d' ' -f1)"
. "$(dirname "$0")/corpus.sh"
corpus_begin "$dest" "$stamp"
mkdir -p "$tmp/tools" "$tmp/monaco/dev" "$tmp/monaco/min"
(
  cd "$tmp/tools"
  npm init -y >/dev/null
  npm install --no-audit --no-fund --loglevel=error requirejs@2.3.8 typescript@5.9.3 >/dev/null
  node "$here/javascript/amd-app/build.mjs" "$tmp/corpus"
  tarball="$(npm pack --silent monaco-editor@0.52.0 | tail -1)"
  tar -xzf "$tarball" package/dev/vs/editor/editor.main.js package/min/vs/editor/editor.main.js
  mv package/dev/vs/editor/editor.main.js "$tmp/monaco/dev/"
  mv package/min/vs/editor/editor.main.js "$tmp/monaco/min/"
)
node "$here/scripts/amd_bundle_ids.cjs" "$tmp/monaco/dev/editor.main.js" > "$tmp/monaco/dev.oracle.json"
rm -rf "$tmp/tools"
corpus_end

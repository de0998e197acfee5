#!/usr/bin/env bash
# Builds the ES-module corpus once into DEST (under target/): corpora/javascript/esm-app, a main
# process written as an ES module, bundled and minified by esbuild (see that app's build.mjs);
# what its source states is that app's truth.json:
#
#   DEST/corpus/esm-esbuild/   main.mjs, its preloads and pages, package.json
#
# A rebuild happens when this script or the app changes.
set -euo pipefail
dest="$(realpath -m "${1:?usage: esm-corpus.sh DEST}")"
here="$(cd "$(dirname "$0")/.." && pwd)"
stamp="$(cat "$0" $(find "$here/javascript/esm-app" -type f | sort) | sha256sum | cut -d' ' -f1)"
. "$(dirname "$0")/corpus.sh"
corpus_begin "$dest" "$stamp"
mkdir -p "$tmp/tools"
(
  cd "$tmp/tools"
  echo '{"name": "esm-corpus", "private": true}' > package.json
  npm install --no-audit --no-fund --loglevel=error esbuild@0.28.2 >/dev/null
  node "$here/javascript/esm-app/build.mjs" "$tmp/corpus"
)
rm -rf "$tmp/tools"
corpus_end

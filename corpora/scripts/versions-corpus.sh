#!/usr/bin/env bash
# Builds the version-comparison corpus once into DEST (under target/): two versions of
# corpora/javascript/bundle-app, bundled by webpack and rspack, with the bundlers' stats (module
# ids and names per output file) as the oracle; see corpora/javascript/versions-app/build.mjs.
#
#   DEST/corpus/<webpack|rspack>-v<1|2>/
#   DEST/corpus/<webpack|rspack>-v<1|2>.modules.json
#   DEST/corpus/webpack-maps-v<1|2>/        webpack with source maps (sourcesContent)
#   DEST/corpus/app/v<1|2>/src/              the sources each version was built from
#
# A rebuild happens when this script or a file of either app changes.
set -euo pipefail
dest="$(realpath -m "${1:?usage: versions-corpus.sh DEST}")"
here="$(cd "$(dirname "$0")/.." && pwd)"
stamp="$(cat "$0" $(find "$here/javascript/bundle-app" "$here/javascript/versions-app" -type f | LC_ALL=C sort) | sha256sum | cut -d' ' -f1)"
. "$(dirname "$0")/corpus.sh"
corpus_begin "$dest" "$stamp"
mkdir -p "$tmp/tools"
(
  cd "$tmp/tools"
  npm init -y >/dev/null
  npm install --no-audit --no-fund --loglevel=error webpack@5.112.2 @rspack/core@2.3.2 lodash-es@4.18.1 >/dev/null
  node "$here/javascript/versions-app/build.mjs" "$tmp/corpus"
)
rm -rf "$tmp/tools"
corpus_end

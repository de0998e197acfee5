#!/usr/bin/env bash
# Builds the Parcel corpus once into DEST (under target/): corpora/javascript/parcel-app (ES
# modules, CommonJS, react, react-dom and lodash from npm, a module loaded on demand) built by
# Parcel 2 three ways, each with Parcel's own bundle graph as the oracle (see that app's
# build.mjs):
#
#   DEST/corpus/parcel-<hoisted-min|hoisted|dev>/          the built files
#   DEST/corpus/parcel-<hoisted-min|hoisted|dev>.assets.json
#
# A rebuild happens when this script or the app changes.
set -euo pipefail
dest="$(realpath -m "${1:?usage: parcel-corpus.sh DEST}")"
here="$(cd "$(dirname "$0")/.." && pwd)"
stamp="$(cat "$0" $(find "$here/javascript/parcel-app" -type f | sort) | sha256sum | cut -d' ' -f1)"
. "$(dirname "$0")/corpus.sh"
corpus_begin "$dest" "$stamp"
mkdir -p "$tmp/tools"
(
  cd "$tmp/tools"
  echo '{"name": "parcel-corpus", "private": true}' > package.json
  npm install --no-audit --no-fund --loglevel=error \
    parcel@2.16.4 react@18.3.1 react-dom@18.3.1 lodash@4.17.21 >/dev/null
  node "$here/javascript/parcel-app/build.mjs" "$tmp/corpus"
)
rm -rf "$tmp/tools"
corpus_end

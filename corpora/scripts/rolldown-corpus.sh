#!/usr/bin/env bash
# Builds the rolldown corpus once into DEST (under target/): corpora/javascript/rolldown-app (ES
# modules, a CommonJS module of its own, the CommonJS package tree of qs, a module loaded on
# demand) built by Vite 8, whose bundler is rolldown, unminified and minified, and its node/
# main process built as electron-vite builds one (CommonJS for Node, minified), each with
# rolldown's own record of every chunk's modules (their input format and what they import) as
# the oracle (see that app's build.mjs):
#
#   DEST/corpus/rolldown-<plain|min|main>/               the built files
#   DEST/corpus/rolldown-<plain|min|main>.modules.json
#
# A rebuild happens when this script or the app changes.
set -euo pipefail
dest="$(realpath -m "${1:?usage: rolldown-corpus.sh DEST}")"
here="$(cd "$(dirname "$0")/.." && pwd)"
stamp="$(cat "$0" $(find "$here/javascript/rolldown-app" -type f | sort) | sha256sum | cut -d' ' -f1)"
. "$(dirname "$0")/corpus.sh"
corpus_begin "$dest" "$stamp"
mkdir -p "$tmp/tools"
(
  cd "$tmp/tools"
  echo '{"name": "rolldown-corpus", "private": true}' > package.json
  npm install --no-audit --no-fund --loglevel=error vite@8.4.1 qs@6.13.0 >/dev/null
  node "$here/javascript/rolldown-app/build.mjs" "$tmp/corpus"
)
rm -rf "$tmp/tools"
corpus_end

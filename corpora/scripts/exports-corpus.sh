#!/usr/bin/env bash
# Builds the package-resolution corpus once into DEST (under target/): real npm packages whose
# package.json has `exports` maps (conditions in order, subpath patterns, fallback arrays,
# `null`), `imports` maps (`#name`), or neither, installed without running their scripts; and
# an app beside them (exports_app.mjs) that requires and imports every subpath they export,
# a few they do not, its own `#imports` and itself by name.
#
#   DEST/tree/node_modules/…    the packages
#   DEST/tree/app/…             the app
#
# The oracle is Node.js's own resolver, asked at test time (node_resolve.mjs): it resolves
# without running any of the code.
set -euo pipefail
dest="$(realpath -m "${1:?usage: exports-corpus.sh DEST}")"
here="$(cd "$(dirname "$0")" && pwd)"
stamp="$(cat "$0" "$here/exports_app.mjs" | sha256sum | cut -d' ' -f1)"
. "$here/corpus.sh"
corpus_begin "$dest" "$stamp"
mkdir -p "$tmp/tree"
(
  cd "$tmp/tree"
  npm init -y >/dev/null
  npm install --ignore-scripts --no-audit --no-fund --loglevel=error \
    chalk@5.3.0 uuid@9.0.1 nanoid@5.0.9 minimatch@9.0.5 ws@8.18.0 preact@10.25.4 \
    rxjs@7.8.1 @babel/runtime@7.26.0 semver@7.6.3 >/dev/null
  rm -f package.json package-lock.json node_modules/.package-lock.json
)
node "$here/exports_app.mjs" "$tmp/tree"
corpus_end

#!/usr/bin/env bash
# Builds the bundle corpus once into DEST (under target/): the app in corpora/javascript/bundle-app
# bundled by webpack 5 and rspack (development and minified production) and by esbuild (ESM with
# splitting, and CommonJS), each with the bundler's own record as the oracle:
#
#   DEST/<bundler>-<mode>/                 the output files
#   DEST/<bundler>-<mode>.factories.json   {output file: [module ids]} from the bundler's stats
#   DEST/esbuild-<format>.meta.json        esbuild's metafile
set -euo pipefail
dest="${1:?usage: bundles-corpus.sh DEST}"
[ -f "$dest/.complete" ] && exit 0
command -v npm >/dev/null || { echo "bundles-corpus.sh: npm is required" >&2; exit 1; }
here="$(cd "$(dirname "$0")/.." && pwd)"
tmp="$dest.partial.$$"
rm -rf "$tmp"
mkdir -p "$tmp/tools"
(
  cd "$tmp/tools"
  npm init -y >/dev/null
  npm install --no-audit --no-fund --loglevel=error \
    webpack@5.112.2 @rspack/core@2.3.2 esbuild@0.28.2 lodash-es@4.18.1 >/dev/null
  node "$here/javascript/bundle-app/build.mjs" "$tmp/out"
)
mv "$tmp/out" "$tmp/corpus"
touch "$tmp/.complete"
rm -rf "$dest"
mkdir -p "$(dirname "$dest")"
mv "$tmp" "$dest"

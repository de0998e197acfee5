#!/usr/bin/env bash
# Builds the shipped-bundles corpus once into DEST (under target/): the files that
# corpora/npm-bundles/files.txt lists, taken from their npm tarballs (no dependencies are
# installed and nothing is run), and what webpack-bundle-analyzer's parser finds in each:
#
#   DEST/set/<package>_<path>    the shipped files, "/" and "@" written "_"
#   DEST/analyzer.json           {file: [module ids] | null} from webpack-bundle-analyzer 5.4.0
#
# A rebuild happens when this script, the list or the oracle script changes.
set -euo pipefail
dest="$(realpath -m "${1:?usage: npm-bundles.sh DEST}")"
here="$(cd "$(dirname "$0")/.." && pwd)"
list="$here/npm-bundles/files.txt"
stamp="$(cat "$0" "$list" "$here/scripts/wba_modules.cjs" | sha256sum | cut -d' ' -f1)"
. "$(dirname "$0")/corpus.sh"
corpus_begin "$dest" "$stamp"
mkdir -p "$tmp/tools" "$tmp/packs" "$tmp/set"
(
  cd "$tmp/tools"
  npm init -y >/dev/null
  npm install --no-audit --no-fund --loglevel=error webpack-bundle-analyzer@5.4.0 >/dev/null
)
grep -v '^#' "$list" | awk 'NF' | while read -r spec file; do
  name="${spec%@*}"
  unpacked="$tmp/packs/$(echo "$spec" | tr '/@' '__')"
  if [ ! -d "$unpacked" ]; then
    tarball="$(cd "$tmp/packs" && npm pack --silent "$spec" | tail -1)"
    mkdir -p "$unpacked"
    tar -xzf "$tmp/packs/$tarball" -C "$unpacked"
  fi
  cp "$unpacked/package/$file" "$tmp/set/$(echo "$name/$file" | tr '/@' '__')"
done
NODE_PATH="$tmp/tools/node_modules" node "$here/scripts/wba_modules.cjs" "$tmp/set" > "$tmp/analyzer.json"
rm -rf "$tmp/packs" "$tmp/tools"
corpus_end

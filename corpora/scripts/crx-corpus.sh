#!/usr/bin/env bash
# Installs, once, the CRX3 packer the browser-extension tests use into DEST (under target/):
#
#   DEST/node_modules/crx3    crx3 2.0.0, which signs a web extension's files into a CRX3 file
#                             (its `-z` option also keeps the ZIP it embedded: the oracle)
#
# Nothing here runs an extension.
set -euo pipefail
dest="${1:?usage: crx-corpus.sh DEST}"
# Rebuilt when this script changes.
stamp=$(sha256sum "$0" | cut -c1-16)
[ "$(cat "$dest/.complete" 2>/dev/null)" = "$stamp" ] && exit 0
command -v npm >/dev/null || { echo "crx-corpus.sh: npm is required" >&2; exit 1; }
tmp="$dest.partial.$$"
rm -rf "$tmp"
mkdir -p "$tmp"
(
  cd "$tmp"
  npm init -y >/dev/null
  npm install --ignore-scripts --no-audit --no-fund --loglevel=error crx3@2.0.0 >/dev/null
)
echo "$stamp" > "$tmp/.complete"
rm -rf "$dest"
mkdir -p "$(dirname "$dest")"
mv "$tmp" "$dest"

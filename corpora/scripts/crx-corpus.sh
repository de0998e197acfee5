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
. "$(dirname "$0")/corpus.sh"
corpus_begin "$dest" "$stamp"
(
  cd "$tmp"
  npm init -y >/dev/null
  npm install --ignore-scripts --no-audit --no-fund --loglevel=error crx3@2.0.0 >/dev/null
)
corpus_end

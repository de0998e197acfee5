#!/usr/bin/env bash
# Installs, once, Electronegativity into DEST (under target/): Doyensec's static checker of
# Electron applications' security, the judge of REA's windows, security handlers,
# openExternal calls and meta content security policies (tools/cli/tests/electronegativity_oracle.rs).
#
#   DEST/node_modules/.bin/electronegativity    @doyensec/electronegativity 1.10.3
#
# It reads the application's files with Babel and cheerio; nothing of the application runs.
set -euo pipefail
dest="${1:?usage: electronegativity-corpus.sh DEST}"
# Rebuilt when this script changes.
stamp=$(sha256sum "$0" | cut -c1-16)
. "$(dirname "$0")/corpus.sh"
corpus_begin "$dest" "$stamp"
(
  cd "$tmp"
  npm init -y >/dev/null
  npm install --ignore-scripts --no-audit --no-fund --loglevel=error @doyensec/electronegativity@1.10.3 >/dev/null
)
corpus_end

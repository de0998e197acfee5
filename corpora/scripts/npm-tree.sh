#!/usr/bin/env bash
# Installs a real tree of npm packages (express and react, pinned) into DEST, once.
# Used by the inventory oracle test and the inventory bench; DEST lives under target/.
# Install scripts are not run: REA never executes what it analyses, and neither do its corpora.
set -euo pipefail
dest="${1:?usage: npm-tree.sh DEST}"
. "$(dirname "$0")/corpus.sh"
corpus_begin "$dest"
(
  cd "$tmp"
  npm init -y >/dev/null
  npm install --ignore-scripts --no-audit --no-fund --loglevel=error express@4.21.2 react@18.3.1 react-dom@18.3.1 >/dev/null
)
corpus_end

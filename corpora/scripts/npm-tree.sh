#!/usr/bin/env bash
# Installs a real tree of npm packages (express and react, pinned) into DEST, once.
# Used by the inventory oracle test and the inventory bench; DEST lives under target/.
# Install scripts are not run: REA never executes what it analyses, and neither do its corpora.
set -euo pipefail
dest="${1:?usage: npm-tree.sh DEST}"
[ -f "$dest/.complete" ] && exit 0
command -v npm >/dev/null || { echo "npm-tree.sh: npm is required (apt-get install nodejs npm)" >&2; exit 1; }
tmp="$dest.partial.$$"
rm -rf "$tmp"
mkdir -p "$tmp"
(
  cd "$tmp"
  npm init -y >/dev/null
  npm install --ignore-scripts --no-audit --no-fund --loglevel=error express@4.21.2 react@18.3.1 react-dom@18.3.1 >/dev/null
)
touch "$tmp/.complete"
rm -rf "$dest"
mkdir -p "$(dirname "$dest")"
mv "$tmp" "$dest"

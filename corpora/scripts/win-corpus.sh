#!/usr/bin/env bash
# Installs, once, what the Windows ASAR-integrity tests need into DEST (under target/):
#
#   DEST/node_modules/resedit       resedit 3.1.0, the resource editor Electron's packagers use
#   DEST/node_modules/7zip-bin      7zip-bin 5.2.0, whose win/x64/7za.exe and win/ia32/7za.exe
#                                   are real PE32+ and PE32 executables to write resources into
#
# corpora/scripts/win_integrity.mjs writes the resource; nothing here runs an executable.
set -euo pipefail
dest="${1:?usage: win-corpus.sh DEST}"
[ -f "$dest/.complete" ] && exit 0
command -v npm >/dev/null || { echo "win-corpus.sh: npm is required" >&2; exit 1; }
tmp="$dest.partial.$$"
rm -rf "$tmp"
mkdir -p "$tmp"
(
  cd "$tmp"
  npm init -y >/dev/null
  npm install --ignore-scripts --no-audit --no-fund --loglevel=error resedit@3.1.0 7zip-bin@5.2.0 >/dev/null
)
touch "$tmp/.complete"
rm -rf "$dest"
mkdir -p "$(dirname "$dest")"
mv "$tmp" "$dest"

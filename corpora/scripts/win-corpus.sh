#!/usr/bin/env bash
# Installs, once, what the Windows ASAR-integrity and Electron-fuse tests need into DEST (under target/):
#
#   DEST/node_modules/resedit       resedit 3.1.0, the resource editor Electron's packagers use
#   DEST/node_modules/7zip-bin      7zip-bin 5.2.0, whose win/x64/7za.exe and win/ia32/7za.exe
#                                   are real PE32+ and PE32 executables to write resources into
#   DEST/node_modules/@electron/fuses  @electron/fuses 1.8.0, which flips and reads fuse wires
#
# corpora/scripts/win_integrity.mjs writes the resource and electron_fuses.cjs the fuse wire;
# nothing here runs an executable.
set -euo pipefail
dest="${1:?usage: win-corpus.sh DEST}"
# Rebuilt when this script changes.
stamp=$(sha256sum "$0" | cut -c1-16)
. "$(dirname "$0")/corpus.sh"
corpus_begin "$dest" "$stamp"
(
  cd "$tmp"
  npm init -y >/dev/null
  npm install --ignore-scripts --no-audit --no-fund --loglevel=error resedit@3.1.0 7zip-bin@5.2.0 @electron/fuses@1.8.0 >/dev/null
)
corpus_end

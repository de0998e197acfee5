#!/usr/bin/env bash
# 7z and installer inventory: the large ASAR's tree (56,100 entries, 223 MB) packed by 7-Zip
# (corpora/scripts/sevenz_tool.py, MODE: electron-builder's app-package settings by default),
# inventoried by rea against 7-Zip's own decoding of it: `7zz t` (decode and check every CRC,
# nothing written) and `7zz x` then hashing the extracted files (corpora/scripts/list_tree.py), as the
# ASAR bench does. With an NSIS installer built around the same archive (makensis, as
# electron-builder embeds its app package), the installer's inventory too.
#
#   bash benches/sevenz.sh [RUNS] [MODE]     (defaults 3 and electron-builder)
#
# Prints a table for BENCHMARKS.md. Every figure comes from this one run, on this machine.
set -euo pipefail
cd "$(dirname "$0")/.."
runs="${1:-3}"
mode="${2:-electron-builder}"
command -v 7zz >/dev/null || { echo "needs 7zz (Debian: 7zip)" >&2; exit 1; }
bash corpora/scripts/large-asar.sh target/bench/large-asar
cargo build -q --release -p rea-cli
rea=target/release/rea
archive="target/bench/sevenz/large-$mode.7z"
setup="target/bench/sevenz/large-$mode-setup.exe"
mkdir -p target/bench/sevenz
[ -f "$archive" ] || python3 corpora/scripts/sevenz_tool.py pack target/bench/large-asar/tree "$archive" "$mode"
if command -v makensis >/dev/null && [ ! -f "$setup" ]; then
  python3 corpora/scripts/sevenz_tool.py nsis "$archive" "$setup"
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

. benches/timing.sh

$rea inventory-artifact "$archive" --json > "$work/inventory.json"
walls=(); rss=(); tests=(); extracts=(); setups=(); setup_rss=()
for _ in $(seq "$runs"); do
  out=$(timed $rea inventory-artifact "$archive")
  walls+=("${out% *}"); rss+=("${out#* }")
  if [ -f "$setup" ]; then
    out=$(timed $rea inventory-artifact "$setup")
    setups+=("${out% *}"); setup_rss+=("${out#* }")
  fi
  tests+=("$(seconds 7zz t -bd "$archive")")
  extracts+=("$(extract_then_hash "$work/x" 7zz x -bd -snl -snld -y "-o$work/x" "$archive")")
done
wall=$(printf '%s\n' "${walls[@]}" | median)
peak=$(printf '%s\n' "${rss[@]}" | sort -n | tail -1)
test_s=$(printf '%s\n' "${tests[@]}" | median)
extract=$(printf '%s\n' "${extracts[@]}" | median)
setup_wall=$( [ ${#setups[@]} -gt 0 ] && printf '%s\n' "${setups[@]}" | median || echo 0)
setup_peak=$( [ ${#setup_rss[@]} -gt 0 ] && printf '%s\n' "${setup_rss[@]}" | sort -n | tail -1 || echo 0)
python3 - "$archive" "$work/inventory.json" "$wall" "$peak" "$test_s" "$extract" "$mode" "$setup" "$setup_wall" "$setup_peak" <<'PY'
import json, os, sys
archive, inventory, wall, peak, test_s, extract, mode, setup, setup_wall, setup_peak = sys.argv[1:]
summary = json.load(open(inventory))["result"]["summary"]
wall, test_s, extract, setup_wall = float(wall), float(test_s), float(extract), float(setup_wall)
print("| what | figure |")
print("|---|---|")
print(f"| archive ({mode}) | {os.path.getsize(archive)/1e6:.1f} MB, {summary['entries']:,} entries, {summary['bytes_hashed']/1e6:.1f} MB hashed |")
print(f"| rea inventory-artifact, median wall and peak RSS | {wall*1e3:.0f} ms, {int(peak)/1024:.0f} MiB |")
print(f"| 7zz t (decode and check every CRC, nothing written; median) | {test_s*1e3:.0f} ms: rea takes {wall/test_s:.2f} x its time |")
print(f"| 7zz x, then hashing every file (median) | {extract*1e3:.0f} ms: rea is {extract/wall:.1f} x faster |")
if setup_wall:
    print(f"| rea inventory-artifact of the NSIS installer around it ({os.path.getsize(setup)/1e6:.1f} MB) | {setup_wall*1e3:.0f} ms, {int(setup_peak)/1024:.0f} MiB |")
PY

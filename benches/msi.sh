#!/usr/bin/env bash
# Windows Installer inventory: the large ASAR's tree (53,803 files, 209 MB) packed by wixl into
# one MSI (corpora/scripts/msi_tool.py: one embedded MSZIP cabinet, installed under
# Program Files, as a per-machine electron-builder MSI is), inventoried by rea against
# msitools' own reading of it: `msiextract` (decode the cabinet and write every file) then
# hashing the extracted files (corpora/scripts/list_tree.py), as the ASAR bench does.
#
#   bash benches/msi.sh [RUNS]     (default 3)
#
# Prints a table for BENCHMARKS.md. Every figure comes from this one run, on this machine.
set -euo pipefail
cd "$(dirname "$0")/.."
runs="${1:-3}"
command -v wixl >/dev/null || { echo "needs wixl and msiextract (Debian: msitools)" >&2; exit 1; }
bash corpora/scripts/large-asar.sh target/bench/large-asar
cargo build -q --release -p rea-cli
rea=target/release/rea
package=target/bench/msi/large.msi
mkdir -p target/bench/msi
[ -f "$package" ] || python3 corpora/scripts/msi_tool.py pack target/bench/large-asar/tree "$package"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

. benches/timing.sh

$rea inventory-artifact "$package" --json > "$work/inventory.json"
walls=(); rss=(); extracts=()
for _ in $(seq "$runs"); do
  out=$(timed $rea inventory-artifact "$package")
  walls+=("${out% *}"); rss+=("${out#* }")
  extracts+=("$(extract_then_hash "$work/x" msiextract -C "$work/x" "$package")")
done
wall=$(printf '%s\n' "${walls[@]}" | median)
peak=$(printf '%s\n' "${rss[@]}" | sort -n | tail -1)
extract=$(printf '%s\n' "${extracts[@]}" | median)
python3 - "$package" "$work/inventory.json" "$wall" "$peak" "$extract" <<'PY'
import json, os, sys
package, inventory, wall, peak, extract = sys.argv[1:]
summary = json.load(open(inventory))["result"]["summary"]
wall, extract = float(wall), float(extract)
print("| what | figure |")
print("|---|---|")
print(f"| package | {os.path.getsize(package)/1e6:.1f} MB, {summary['entries']:,} entries, {summary['unavailable']} unavailable, {summary['bytes_hashed']/1e6:.1f} MB hashed |")
print(f"| rea inventory-artifact, median wall and peak RSS | {wall*1e3:.0f} ms, {int(peak)/1024:.0f} MiB |")
print(f"| msiextract, then hashing every file (median) | {extract*1e3:.0f} ms: rea is {extract/wall:.1f} x faster |")
PY

#!/usr/bin/env bash
# SquashFS (AppImage, snap) inventory: the large ASAR's tree (56,100 entries, 223 MB) packed by
# mksquashfs, inventoried by rea against what squashfs-tools take to list it and to extract it
# (then hashing the extracted files with corpora/scripts/list_tree.py, as the ASAR bench does).
#
#   bash benches/squashfs.sh [RUNS] [COMPRESSOR]     (defaults 3 and zstd)
#
# Prints a table for BENCHMARKS.md. Every figure comes from this one run, on this machine.
set -euo pipefail
cd "$(dirname "$0")/.."
runs="${1:-3}"
comp="${2:-zstd}"
command -v mksquashfs >/dev/null || { echo "needs mksquashfs (Debian: squashfs-tools)" >&2; exit 1; }
bash corpora/scripts/large-asar.sh target/bench/large-asar
cargo build -q --release -p rea-cli
rea=target/release/rea
image="target/bench/squashfs/large-$comp.squashfs"
if [ ! -f "$image" ]; then
  mkdir -p target/bench/squashfs
  mksquashfs target/bench/large-asar/tree "$image" -comp "$comp" -noappend -quiet -no-progress
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

. benches/timing.sh

$rea inventory-artifact "$image" --json > "$work/inventory.json"
walls=(); rss=(); lists=(); extracts=()
for _ in $(seq "$runs"); do
  out=$(timed $rea inventory-artifact "$image")
  walls+=("${out% *}"); rss+=("${out#* }")
  lists+=("$(seconds unsquashfs -lls "$image")")
  extracts+=("$(extract_then_hash "$work/x" unsquashfs -q -no-progress -d "$work/x" "$image")")
done
wall=$(printf '%s\n' "${walls[@]}" | median)
peak=$(printf '%s\n' "${rss[@]}" | sort -n | tail -1)
list=$(printf '%s\n' "${lists[@]}" | median)
extract=$(printf '%s\n' "${extracts[@]}" | median)
python3 - "$image" "$work/inventory.json" "$wall" "$peak" "$list" "$extract" "$comp" <<'EOF'
import json, os, sys
image, inventory, wall, peak, listing, extract, comp = sys.argv[1:]
summary = json.load(open(inventory))["result"]["summary"]
wall, listing, extract = float(wall), float(listing), float(extract)
print("| what | figure |")
print("|---|---|")
print(f"| image ({comp}) | {os.path.getsize(image)/1e6:.1f} MB, {summary['entries']:,} entries, {summary['bytes_hashed']/1e6:.1f} MB hashed |")
print(f"| rea inventory-artifact, median wall and peak RSS | {wall*1e3:.0f} ms, {int(peak)/1024:.0f} MiB |")
print(f"| unsquashfs -lls (listing only; median) | {listing*1e3:.0f} ms: rea is {listing/wall:.2f} x its speed |")
print(f"| unsquashfs extract, then hashing every file (median) | {extract*1e3:.0f} ms: rea is {extract/wall:.1f} x faster |")
EOF

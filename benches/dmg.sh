#!/usr/bin/env bash
# Disk-image inventory: the large ASAR's tree (53,803 files, 209 MB) written as an HFSX volume
# in a UDIF image with zlib runs (corpora/scripts/dmg_tool.py: a UDZO image, as electron-builder's
# default DMG is), inventoried by rea against 7-Zip's own reading of it: `7zz t` (decode and
# check, nothing written) and `7zz x` then hashing the extracted files
# (corpora/scripts/list_tree.py), as the ASAR bench does.
#
#   bash benches/dmg.sh [RUNS] [METHOD]     (default 3 runs, zlib runs)
#
# METHOD `lzfse` writes a ULFO image (Apple's reference encoder: needs the test venv,
# target/tmp/e2e-venv, which the tests create) and `xz` a ULMO one.
#
# Prints a table for BENCHMARKS.md. Every figure comes from this one run, on this machine.
set -euo pipefail
cd "$(dirname "$0")/.."
runs="${1:-3}"
method="${2:-zlib}"
python=python3
[ "$method" = lzfse ] && python=target/tmp/e2e-venv/bin/python
command -v 7zz >/dev/null || { echo "needs 7zz (Debian: 7zip)" >&2; exit 1; }
bash corpora/scripts/large-asar.sh target/bench/large-asar
cargo build -q --release -p rea-cli
rea=target/release/rea
image=target/bench/dmg/large.dmg
[ "$method" = zlib ] || image=target/bench/dmg/large-$method.dmg
mkdir -p target/bench/dmg
[ -f "$image" ] || "$python" corpora/scripts/dmg_tool.py pack target/bench/large-asar/tree "$image" "$method"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

. benches/timing.sh

$rea inventory-artifact "$image" --json > "$work/inventory.json"
walls=(); rss=(); tests=(); extracts=()
for _ in $(seq "$runs"); do
  out=$(timed $rea inventory-artifact "$image")
  walls+=("${out% *}"); rss+=("${out#* }")
  tests+=("$(seconds 7zz t -bd "$image")")
  extracts+=("$(extract_then_hash "$work/x" 7zz x -bd -snl -snld -y "-o$work/x" "$image")")
done
wall=$(printf '%s\n' "${walls[@]}" | median)
peak=$(printf '%s\n' "${rss[@]}" | sort -n | tail -1)
test_s=$(printf '%s\n' "${tests[@]}" | median)
extract=$(printf '%s\n' "${extracts[@]}" | median)
python3 - "$image" "$work/inventory.json" "$wall" "$peak" "$test_s" "$extract" <<'PY'
import json, os, sys
image, inventory, wall, peak, test_s, extract = sys.argv[1:]
summary = json.load(open(inventory))["result"]["summary"]
wall, test_s, extract = float(wall), float(test_s), float(extract)
print("| what | figure |")
print("|---|---|")
print(f"| image | {os.path.getsize(image)/1e6:.1f} MB, {summary['entries']:,} entries, {summary['unavailable']} unavailable, {summary['bytes_hashed']/1e6:.1f} MB hashed |")
print(f"| rea inventory-artifact, median wall and peak RSS | {wall*1e3:.0f} ms, {int(peak)/1024:.0f} MiB |")
print(f"| 7zz t (decode and check, nothing written; median) | {test_s*1e3:.0f} ms: rea takes {wall/test_s:.2f} x its time |")
print(f"| 7zz x, then hashing every file (median) | {extract*1e3:.0f} ms: rea is {extract/wall:.1f} x faster |")
PY

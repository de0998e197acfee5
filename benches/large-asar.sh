#!/usr/bin/env bash
# The large-ASAR benchmark: inventory with full integrity verification of a real archive of
# more than 200 MB and 50,000 files, against the hashing limit and against the official tool.
#
#   bash benches/large-asar.sh [RUNS]
#
# Prints a table for BENCHMARKS.md. Every figure comes from this one run, on this machine.
set -euo pipefail
cd "$(dirname "$0")/.."
runs="${1:-3}"
corpus=target/bench/large-asar
bash corpora/scripts/large-asar.sh "$corpus"
cargo build -q --release -p rea-cli
rea=target/release/rea
archive="$corpus/large.asar"

median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

# The hashing limit: one core of OpenSSL SHA-256 (SHA-NI), times two cores.
sha_bps=$(openssl speed -evp sha256 -bytes 65536 -seconds 3 2>/dev/null | awk '/^sha256/ {sub("k","",$2); print $2*1000}')

# Warm the page cache, then time rea (wall seconds and peak RSS in KiB).
$rea inventory-artifact "$archive" --json > /tmp/rea-large.json
walls=(); rss=()
for _ in $(seq "$runs"); do
  out=$( { /usr/bin/time -f "%e %M" $rea inventory-artifact "$archive" > /dev/null; } 2>&1 | tail -1)
  walls+=("${out% *}"); rss+=("${out#* }")
done
wall=$(printf '%s\n' "${walls[@]}" | median)
peak=$(printf '%s\n' "${rss[@]}" | sort -n | tail -1)

# The official tool: extract, then hash every extracted file (Python hashlib uses OpenSSL).
tools="$corpus/tools/node_modules/@electron/asar/bin/asar.js"
peer=()
for _ in $(seq "$runs"); do
  rm -rf /tmp/rea-bench-extract
  start=$(date +%s.%N)
  node "$tools" extract "$archive" /tmp/rea-bench-extract
  python3 corpora/scripts/list_tree.py /tmp/rea-bench-extract > /dev/null
  end=$(date +%s.%N)
  peer+=("$(echo "$end - $start" | bc)")
done
rm -rf /tmp/rea-bench-extract
peer_wall=$(printf '%s\n' "${peer[@]}" | median)

python3 - "$archive" "$sha_bps" "$wall" "$peak" "$peer_wall" /tmp/rea-large.json <<'PY'
import json, os, struct, sys
archive, sha_bps, wall, peak_kib, peer, result = sys.argv[1:]
size = os.path.getsize(archive)
sha_bps, wall, peak_kib, peer = float(sha_bps), float(wall), int(peak_kib), float(peer)
summary = json.load(open(result))["result"]["summary"]
with open(archive, "rb") as f:
    header = struct.unpack("<II", f.read(8))[1]
limit = size / (2 * sha_bps)
print(f"| archive | {size/1e6:.1f} MB, {summary['entries']} entries ({summary['files']} files), header {header/1e6:.1f} MB |")
print(f"| verified | {summary['verified']} files, {summary['bytes_hashed']/1e6:.1f} MB hashed (entries plus the archive itself) |")
print(f"| OpenSSL SHA-256, one core | {sha_bps/1e9:.2f} GB/s |")
print(f"| hashing limit, bytes / (2 x one core) | {limit*1000:.0f} ms |")
print(f"| rea inventory-artifact (median wall) | {wall*1000:.0f} ms = {wall/limit:.2f} x the limit |")
print(f"| rea peak RSS | {peak_kib/1024:.0f} MiB (target < 256 MiB + header {header/2**20:.0f} MiB) |")
print(f"| @electron/asar extract + hash extracted files (median) | {peer*1000:.0f} ms; rea is {peer/wall:.1f} x faster |")
PY

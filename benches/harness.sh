#!/usr/bin/env bash
# The macro benchmark harness: the large real ASAR end to end, and a batch of real ASARs
# through `rea pipeline`, each against anchors measured in the same run.
#
#   bash benches/harness.sh [RUNS]          (default 3; medians of RUNS, peak RSS = the largest)
#
# It builds what is missing (cached under target/bench/): the large ASAR
# (corpora/scripts/large-asar.sh), and the batch: one ASAR per top-level npm package of the
# large ASAR's tree, packed by the official @electron/asar. It prints the tables BENCHMARKS.md
# records. Anchors: `openssl speed -evp sha256` (hashing), a raw single-thread swc parse of the
# JavaScript files of the same archive (parsing), and @electron/asar list and extract.
set -euo pipefail
cd "$(dirname "$0")/.."
runs="${1:-3}"
corpus=target/bench/large-asar
bash corpora/scripts/large-asar.sh "$corpus"
cargo build -q --release -p rea-cli -p rea-benches --bin rea --bin swc-parse
rea=target/release/rea
archive="$corpus/large.asar"
asar="$corpus/tools/node_modules/@electron/asar/bin/asar.js"
work=$(mktemp -d /tmp/rea-harness.XXXXXX)
trap 'rm -rf "$work"' EXIT

median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
seconds() { local s=$(date +%s.%N); "$@" > /dev/null || true; echo "$(date +%s.%N) - $s" | bc; }

sha_bps=$(openssl speed -evp sha256 -bytes 65536 -seconds 3 2>/dev/null | awk '/^sha256/ {sub("k","",$2); print $2*1000}')

# The official tool: list, and extract (which the parse anchor then reads).
lists=(); extracts=()
for _ in $(seq "$runs"); do
  lists+=("$(seconds node "$asar" list "$archive")")
  rm -rf "$work/extract"
  extracts+=("$(seconds node "$asar" extract "$archive" "$work/extract")")
done
list_s=$(printf '%s\n' "${lists[@]}" | median)
extract_s=$(printf '%s\n' "${extracts[@]}" | median)
# The raw parse anchor, and the machine's own parallel ceiling for this kind of work: two raw
# parses at once, one process each (no shared pool, no shared allocator), against one alone;
# RUNS of each, alternating, medians.
for i in $(seq "$runs"); do
  target/release/swc-parse "$work/extract" > "$work/swc-one.$i.json"
  target/release/swc-parse "$work/extract" > "$work/swc-a.$i.json" &
  target/release/swc-parse "$work/extract" > "$work/swc-b.$i.json"
  wait
  # The same files on a 2-thread rayon pool in one process, each file whole on one thread as
  # the parse stage has them: the in-process ceiling (shared allocator and caches).
  target/release/swc-parse "$work/extract" 2 > "$work/swc-pool.$i.json"
done
swc=$(cat "$work/swc-one.1.json")

# rea: one warm-up, then RUNS timed runs with stage times (REA_LOG=info) and peak RSS.
run_rea() { # tool label
  local tool=$1 label=$2
  $rea "$tool" "$archive" --json > "$work/$label.json"
  for i in $(seq "$runs"); do
    REA_LOG=info /usr/bin/time -f "%e %M" -o "$work/$label.time.$i" \
      $rea "$tool" "$archive" > /dev/null 2> "$work/$label.log.$i"
  done
}
run_rea inventory-artifact inventory
run_rea analyze-javascript-application analyze

# The batch: 8+ real ASARs, one per package, through rea pipeline at 1 and 2 threads.
batch=target/bench/batch
if [ ! -f "$batch/.complete" ]; then
  rm -rf "$batch"; mkdir -p "$batch"
  for pkg in typescript monaco-editor @babel/core @babel/preset-env @mui/icons-material date-fns lodash rxjs @fortawesome/free-solid-svg-icons @babel/parser @babel/traverse core-js-compat; do
    src="$corpus/tree/node_modules/$pkg"
    [ -d "$src" ] || continue
    node "$asar" pack "$src" "$batch/$(echo "$pkg" | tr '/@' '__').asar"
  done
  touch "$batch/.complete"
fi
# The two thread counts alternate, run by run, so that drift in this shared VM's speed falls
# on both alike; medians of RUNS each, and each pair's ratio.
batch_wall() { # threads
  rm -rf "$work/batch-out"
  seconds $rea pipeline "$batch"/*.asar --out "$work/batch-out" --threads "$1"
}
$rea pipeline "$batch"/*.asar --out "$work/batch-warm" --threads 2 > /dev/null || true
pairs=()
for _ in $(seq "$runs"); do
  pairs+=("$(batch_wall 1) $(batch_wall 2)")
done
batch_1=$(printf '%s\n' "${pairs[@]}" | awk '{print $1}' | median)
batch_2=$(printf '%s\n' "${pairs[@]}" | awk '{print $2}' | median)
printf '%s\n' "${pairs[@]}" > "$work/batch-pairs.txt"
cp "$work/batch-warm/summary.json" "$work/batch-summary.json"

python3 - "$archive" "$sha_bps" "$list_s" "$extract_s" "$swc" "$work" "$runs" "$batch" "$batch_1" "$batch_2" <<'PY'
import glob, json, os, re, statistics, struct, sys
archive, sha_bps, list_s, extract_s, swc, work, runs, batch, b1, b2 = sys.argv[1:]
sha_bps, list_s, extract_s, runs, b1, b2 = float(sha_bps), float(list_s), float(extract_s), int(runs), float(b1), float(b2)
swc = json.loads(swc)
ones = [json.load(open(f"{work}/swc-one.{i}.json")) for i in range(1, runs + 1)]
pairs = [max(json.load(open(f"{work}/swc-{x}.{i}.json"))["seconds"] for x in "ab") for i in range(1, runs + 1)]
swc["seconds"] = statistics.median(o["seconds"] for o in ones)
swc["mb_per_s"] = swc["bytes"] / 1e6 / swc["seconds"]
pair_s = statistics.median(pairs)
swc_scaling = 2 * swc["seconds"] / pair_s
pool_s = statistics.median(json.load(open(f"{work}/swc-pool.{i}.json"))["seconds"] for i in range(1, runs + 1))
pool_scaling = swc["seconds"] / pool_s
size = os.path.getsize(archive)
with open(archive, "rb") as f:
    header = struct.unpack("<II", f.read(8))[1]

def timed(label):
    walls, rss, stages = [], [], {}
    for i in range(1, runs + 1):
        wall, peak = open(f"{work}/{label}.time.{i}").read().split()[-2:]
        walls.append(float(wall)); rss.append(int(peak))
        seen = {}
        for line in open(f"{work}/{label}.log.{i}"):
            m = re.search(r'stage="(\w+)" ms=([\d.]+)', line)
            if m:
                name = m.group(1)
                # A plan may hold two nodes of one kind (the analysis: inventory graph, then application graph).
                key = name if name not in seen else f"{name} #2"
                seen[name] = True
                stages.setdefault(key, []).append(float(m.group(2)))
    return statistics.median(walls), max(rss), {k: statistics.median(v) for k, v in stages.items()}

limit = size / (2 * sha_bps)
print("### Large ASAR\n")
print("| what | figure |\n|---|---|")
print(f"| archive | {size/1e6:.1f} MB, header {header/1e6:.1f} MB |")
print(f"| OpenSSL SHA-256, one core | {sha_bps/1e9:.2f} GB/s; hashing limit on 2 cores {limit*1e3:.0f} ms |")
print(f"| @electron/asar list / extract (median) | {list_s*1e3:.0f} ms / {extract_s*1e3:.0f} ms |")
print(f"| raw swc parse, one thread, the archive's {swc['files']:,} JavaScript and TypeScript files ({swc['bytes']/1e6:.1f} MB; median) | {swc['seconds']*1e3:.0f} ms = {swc['mb_per_s']:.1f} MB/s; 2-core limit {swc['mb_per_s']*2:.1f} MB/s |")
print(f"| raw swc parse, two processes at once (each the same files; median) | {pair_s*1e3:.0f} ms = {swc_scaling:.2f} x one process's throughput: this machine's 2-core ceiling for parsing, a best 2-thread / 1-thread time ratio of {1/swc_scaling:.2f} |")
print(f"| raw swc parse, one process, a 2-thread pool (median) | {pool_s*1e3:.0f} ms = {pool_scaling:.2f} x one thread's throughput: the in-process ceiling |")
for label, tool in (("inventory", "inventory-artifact"), ("analyze", "analyze-javascript-application")):
    wall, peak, stages = timed(label)
    result = json.load(open(f"{work}/{label}.json"))["result"]
    print(f"| rea {tool}, median wall | {wall*1e3:.0f} ms = {wall/limit:.1f} x the hashing limit; {extract_s/wall:.1f} x faster than asar extract |")
    print(f"| rea {tool}, peak RSS | {peak/1024:.0f} MiB |")
    for name, ms in stages.items():
        extra = ""
        if name == "hash":
            extra = f" ({size/1e6/(ms/1e3):.0f} MB/s of archive)"
        if name == "parse":
            parsed = swc['bytes']
            rate = parsed/1e6/(ms/1e3)
            extra = f" ({rate:.1f} MB/s of code = {rate/(swc['mb_per_s']*2):.2f} x the 2-core swc limit, {rate/(swc['mb_per_s']*swc_scaling):.2f} x two raw parses at once, {rate/(swc['mb_per_s']*pool_scaling):.2f} x the raw parse on a 2-thread pool)"
        print(f"| rea {tool}, stage {name} (median) | {ms:.0f} ms{extra} |")

summary = json.load(open(f"{work}/batch-summary.json"))
files = sorted(glob.glob(f"{batch}/*.asar"))
total = sum(os.path.getsize(f) for f in files)
print("\n### Batch\n")
print("| what | figure |\n|---|---|")
print(f"| inputs | {len(files)} real ASARs, {total/1e6:.1f} MB, one per npm package; {summary['totals']['ok']} ok, {summary['totals']['failed']} failed |")
print(f"| rea pipeline --threads 1 (median wall) | {b1:.2f} s |")
print(f"| rea pipeline --threads 2 (median wall) | {b2:.2f} s = {b2/b1:.2f} x the 1-thread time (target at most 0.6) |")
ratios = sorted(float(b) / float(a) for a, b in (l.split() for l in open(f"{work}/batch-pairs.txt")))
print(f"| the same, run by run (1 then 2 threads, alternating) | ratios {', '.join(f'{r:.2f}' for r in ratios)}; raw swc's own ceiling here {1/swc_scaling:.2f} |")
PY

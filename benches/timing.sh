# Timing helpers the container benches source (sevenz.sh, squashfs.sh, msi.sh, dmg.sh); they
# expect `$work` (a scratch directory) and run from the repository's root.

# The median of the numbers on stdin, one a line.
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
# Wall seconds of a command, its output discarded.
seconds() { /usr/bin/time -f "%e" -o "$work/t" "$@" > /dev/null; cat "$work/t"; }
# "SECONDS PEAK_KB" of a command, its output discarded.
timed() { { /usr/bin/time -f "%e %M" "$@" > /dev/null; } 2>&1 | tail -1; }
# Wall seconds of extracting with a third-party tool (the command, which writes below DIR),
# then hashing every extracted file (corpora/scripts/list_tree.py): REA's peer.
#   extract_then_hash DIR COMMAND...
extract_then_hash() {
  local dir=$1 start
  shift
  rm -rf "$dir"
  start=$(date +%s.%N)
  "$@" > /dev/null
  python3 corpora/scripts/list_tree.py "$dir" > /dev/null
  echo "$(date +%s.%N) - $start" | bc
}

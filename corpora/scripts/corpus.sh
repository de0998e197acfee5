# Shared by the corpus scripts, which source it. A corpus is built into DEST.partial.<pid> and
# replaces DEST whole once it is complete, so that an interrupted build leaves nothing half
# made; DEST/.complete holds the stamp of what it was built from.
#
#   . "$(dirname "$0")/corpus.sh"
#   corpus_begin DEST [STAMP]   exits 0 when DEST is complete (with STAMP, when one is given:
#                               a digest of the scripts and sources the corpus comes from);
#                               needs npm; sets $tmp, an empty directory to build in
#   …                           build into "$tmp"
#   corpus_end                  records the stamp and moves "$tmp" to DEST

corpus_begin() {
  corpus_dest="$1"
  corpus_stamp="${2:-}"
  if [ -f "$corpus_dest/.complete" ] \
    && { [ -z "$corpus_stamp" ] || [ "$(cat "$corpus_dest/.complete")" = "$corpus_stamp" ]; }; then
    exit 0
  fi
  command -v npm >/dev/null || { echo "$(basename "$0"): npm is required" >&2; exit 1; }
  tmp="$corpus_dest.partial.$$"
  rm -rf "$tmp"
  mkdir -p "$tmp"
}

corpus_end() {
  echo "$corpus_stamp" > "$tmp/.complete"
  rm -rf "$corpus_dest"
  mkdir -p "$(dirname "$corpus_dest")"
  mv "$tmp" "$corpus_dest"
}

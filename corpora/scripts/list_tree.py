#!/usr/bin/env python3
"""An independent listing of a directory tree, to judge `rea inventory-artifact`.

Prints one JSON object per entry below ROOT, sorted by path:
{"logical_path", "entry_kind", "size", "sha256", "link_target"}.
Symlinks are never followed. Only the Python standard library is used.
"""
import hashlib
import json
import os
import stat
import sys


def main(root):
    rows = []
    for dirpath, dirnames, filenames in os.walk(root, followlinks=False):
        for name in dirnames + filenames:
            full = os.path.join(dirpath, name)
            rel = os.path.relpath(full, root).replace(os.sep, "/")
            st = os.lstat(full)
            row = {"logical_path": rel, "size": None, "sha256": None, "link_target": None}
            if stat.S_ISLNK(st.st_mode):
                row["entry_kind"] = "symlink"
                row["link_target"] = os.readlink(full)
            elif stat.S_ISDIR(st.st_mode):
                row["entry_kind"] = "directory"
            elif stat.S_ISREG(st.st_mode):
                row["entry_kind"] = "file"
                digest = hashlib.sha256()
                with open(full, "rb") as handle:
                    for block in iter(lambda: handle.read(1 << 16), b""):
                        digest.update(block)
                row["sha256"] = digest.hexdigest()
                row["size"] = st.st_size
            else:
                continue
            rows.append(row)
    rows.sort(key=lambda r: r["logical_path"].encode("utf-8"))
    for row in rows:
        print(json.dumps(row, sort_keys=True))


if __name__ == "__main__":
    main(sys.argv[1])

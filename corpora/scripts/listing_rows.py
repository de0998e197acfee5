"""Rows of an archive listing as the oracle scripts print them (zip_tool.py, tar_tool.py,
squashfs_tool.py, rpm_tool.py)."""
import hashlib
import json
import os


def row(name, kind, data=None, link_target=None):
    """One member: `kind` is "directory", "symlink" or "file" (with its bytes in `data`)."""
    entry = {"logical_path": name, "entry_kind": kind, "size": None, "sha256": None, "link_target": link_target}
    if kind == "file":
        entry["size"] = len(data)
        entry["sha256"] = hashlib.sha256(data).hexdigest()
    return entry


def print_rows(rows):
    """One JSON object per line, sorted by path in code-point order (UTF-8 bytes)."""
    for entry in sorted(rows, key=lambda r: r["logical_path"].encode("utf-8")):
        print(json.dumps(entry, sort_keys=True))


def tree_rows(root):
    """The rows of a tree a third-party tool extracted under `root`, paths relative to it."""
    rows = []
    for dirpath, dirnames, filenames in os.walk(root, followlinks=False):
        for name in dirnames + filenames:
            full = os.path.join(dirpath, name)
            rel = os.path.relpath(full, root)
            if os.path.islink(full):
                rows.append(row(rel, "symlink", link_target=os.readlink(full)))
            elif os.path.isdir(full):
                rows.append(row(rel, "directory"))
            else:
                with open(full, "rb") as f:
                    rows.append(row(rel, "file", f.read()))
    return rows

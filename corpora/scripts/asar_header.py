#!/usr/bin/env python3
"""Prints the raw header of an ASAR archive, one JSON object per entry, sorted by path.

{"logical_path", "entry_kind", "size", "unpacked", "executable", "link", "integrity_hash",
 "block_count"}. An independent reading of the format for tests: standard library only.
"""
import json
import struct
import sys


def main(archive):
    with open(archive, "rb") as handle:
        size_field, pickle_size = struct.unpack("<II", handle.read(8))
        assert size_field == 4
        payload_size, json_len = struct.unpack("<II", handle.read(8))
        header = json.loads(handle.read(json_len))
    rows = []

    def walk(node, prefix):
        for name, child in node["files"].items():
            path = f"{prefix}/{name}" if prefix else name
            row = {"logical_path": path, "size": None, "unpacked": False, "executable": False,
                   "link": None, "integrity_hash": None, "block_count": None}
            if "files" in child:
                row["entry_kind"] = "directory"
                rows.append(row)
                walk(child, path)
                continue
            if "link" in child:
                row["entry_kind"] = "symlink"
                row["link"] = child["link"]
            else:
                row["entry_kind"] = "file"
                row["size"] = child["size"]
                row["unpacked"] = bool(child.get("unpacked", False))
                row["executable"] = bool(child.get("executable", False))
                integrity = child.get("integrity")
                if integrity:
                    row["integrity_hash"] = integrity["hash"]
                    row["block_count"] = len(integrity.get("blocks", []))
            rows.append(row)

    walk(header, "")
    rows.sort(key=lambda r: r["logical_path"].encode("utf-8"))
    for row in rows:
        print(json.dumps(row, sort_keys=True))


if __name__ == "__main__":
    main(sys.argv[1])

#!/usr/bin/env python3
"""CPython's zipfile as an independent ZIP packer and oracle for tests.

  zip_tool.py pack SRC DEST [--zip64]   deflate every file under SRC into DEST, symlinks kept
                                        as symlinks, directories as explicit entries
  zip_tool.py list ZIP                  one JSON object per member, sorted by path:
                                        {"logical_path", "entry_kind", "size", "sha256", "link_target"}
"""
import os
import stat
import sys
import zipfile

from listing_rows import print_rows, row


def pack(src, dest, zip64):
    with zipfile.ZipFile(dest, "w", compression=zipfile.ZIP_DEFLATED, allowZip64=True) as zf:
        for dirpath, dirnames, filenames in os.walk(src, followlinks=False):
            dirnames.sort()
            rel_dir = os.path.relpath(dirpath, src)
            if rel_dir != ".":
                zf.writestr(zipfile.ZipInfo(rel_dir.replace(os.sep, "/") + "/"), b"")
            for name in sorted(filenames + [d for d in dirnames if os.path.islink(os.path.join(dirpath, d))]):
                full = os.path.join(dirpath, name)
                rel = os.path.relpath(full, src).replace(os.sep, "/")
                if os.path.islink(full):
                    info = zipfile.ZipInfo(rel)
                    info.create_system = 3
                    info.external_attr = (stat.S_IFLNK | 0o777) << 16
                    zf.writestr(info, os.readlink(full))
                elif os.path.isfile(full):
                    with open(full, "rb") as handle, zf.open(zipfile.ZipInfo.from_file(full, rel), "w", force_zip64=zip64) as out:
                        out.write(handle.read())


def listing(path):
    rows = []
    with zipfile.ZipFile(path) as zf:
        for info in zf.infolist():
            name = info.filename.rstrip("/")
            mode = info.external_attr >> 16
            if info.is_dir():
                rows.append(row(name, "directory"))
            elif stat.S_ISLNK(mode):
                rows.append(row(name, "symlink", link_target=zf.read(info).decode()))
            else:
                rows.append(row(name, "file", zf.read(info)))
    print_rows(rows)


if __name__ == "__main__":
    if sys.argv[1] == "pack":
        pack(sys.argv[2], sys.argv[3], "--zip64" in sys.argv[4:])
    else:
        listing(sys.argv[2])

#!/usr/bin/env python3
"""CPython's tarfile (and the zstd and dpkg-deb tools) as an independent tar packer and oracle.

  tar_tool.py pack SRC DEST       pack every file under SRC into DEST, compressed as its name
                                  says: .tar, .tar.gz, .tar.xz, .tar.zst (through `zstd`);
                                  symlinks kept as symlinks, directories as explicit members
  tar_tool.py list ARCHIVE        one JSON object per member, sorted by path, names without a
                                  leading "./": {"logical_path", "entry_kind", "size", "sha256",
                                  "link_target"}; a .deb lists its data.tar through
                                  `dpkg-deb --fsys-tarfile`
"""
import io
import os
import subprocess
import sys
import tarfile

from listing_rows import print_rows, row


def pack(src, dest):
    if dest.endswith(".tar.zst"):
        plain = dest[: -len(".zst")]
        pack(src, plain)
        subprocess.run(["zstd", "-q", "-f", "--rm", plain, "-o", dest], check=True)
        return
    mode, options = "w", {}
    if dest.endswith(".tar.gz"):
        mode = "w:gz"
    elif dest.endswith(".tar.xz"):
        mode, options = "w:xz", {"preset": 1}
    with tarfile.open(dest, mode, format=tarfile.PAX_FORMAT, **options) as tf:
        for dirpath, dirnames, filenames in os.walk(src, followlinks=False):
            dirnames.sort()
            for name in sorted(dirnames + filenames):
                full = os.path.join(dirpath, name)
                tf.add(full, arcname=os.path.relpath(full, src), recursive=False)


def stream(path):
    if path.endswith(".deb"):
        data = subprocess.run(["dpkg-deb", "--fsys-tarfile", path], check=True, capture_output=True).stdout
        return tarfile.open(fileobj=io.BytesIO(data), mode="r:")
    if path.endswith(".tar.zst"):
        data = subprocess.run(["zstd", "-dc", path], check=True, capture_output=True).stdout
        return tarfile.open(fileobj=io.BytesIO(data), mode="r:")
    return tarfile.open(path, "r:*")


def listing(path):
    rows = []
    with stream(path) as tf:
        for info in tf.getmembers():
            name = info.name
            while name.startswith("./"):
                name = name[2:]
            name = name.rstrip("/")
            if name in ("", "."):
                continue
            if info.isdir():
                rows.append(row(name, "directory"))
            elif info.issym() or info.islnk():
                rows.append(row(name, "symlink", link_target=info.linkname))
            else:
                rows.append(row(name, "file", tf.extractfile(info).read()))
    print_rows(rows)


if __name__ == "__main__":
    if sys.argv[1] == "pack":
        pack(sys.argv[2], sys.argv[3])
    else:
        listing(sys.argv[2])

#!/usr/bin/env python3
"""A macOS flat package (.pkg) writer for tests, and 7-Zip and cpio as the oracles that read it.

No tool on Linux writes a flat package (`pkgbuild` and `productbuild` are macOS tools), so this
script lays one out as `productbuild` does: a XAR archive (a header, a zlib-compressed XML table
of contents, then the heap) holding `Distribution` and the component package `app.pkg/` with
its `PackageInfo`, `Bom` and `Payload`: the installed files as a cpio archive in the odc
format, written by GNU `cpio -o -H odc`, gzip-compressed (what `pkgbuild` writes). The small
members are zlib-encoded in the heap, the Payload stored as it is. 7-Zip's XAR reader and GNU
cpio, not this script, judge the result.

  pkg_tool.py pack SRC DEST [gzip|pbzx]
                                  write SRC's files, folders and symlinks as the Payload of the
                                  package DEST (installed below /Applications), gzip-compressed
                                  or in pbzx xz chunks of 1 MiB
  pkg_tool.py list PKG            one JSON object per member (see listing_rows.py): the package's
                                  members as `7zz x` extracts them, and below each Payload what
                                  `cpio -idm` extracts from it (once gzip or Python's xz decoder
                                  has undone its compression)
"""
import gzip
import hashlib
import lzma
import os
import subprocess
import sys
import tempfile
import zlib
from xml.sax.saxutils import escape

from listing_rows import print_rows, tree_rows

DISTRIBUTION = b"""<?xml version="1.0" encoding="utf-8"?>
<installer-gui-script minSpecVersion="2"><title>Demo App</title>
<pkg-ref id="com.example.demo">app.pkg</pkg-ref>
<choices-outline><line choice="default"/></choices-outline></installer-gui-script>
"""

PACKAGE_INFO = b"""<?xml version="1.0" encoding="utf-8"?>
<pkg-info format-version="2" identifier="com.example.demo" version="1.0.0" install-location="/Applications" auth="root">
<payload numberOfFiles="0" installKBytes="0"/></pkg-info>
"""


def pbzx(archive, chunk=1 << 20):
    """Apple's pbzx framing: a chunk size, then each chunk's flags, length and xz stream."""
    out = b"pbzx" + chunk.to_bytes(8, "big")
    for at in range(0, len(archive), chunk):
        packed = lzma.compress(archive[at:at + chunk], format=lzma.FORMAT_XZ)
        out += (1 << 24).to_bytes(8, "big") + len(packed).to_bytes(8, "big") + packed
    return out


def unpbzx(data):
    """The cpio archive inside a pbzx payload (Python's own xz decoder)."""
    out, at = b"", 12
    while at < len(data):
        length = int.from_bytes(data[at + 8:at + 16], "big")
        out += lzma.decompress(data[at + 16:at + 16 + length])
        at += 16 + length
    return out


def payload(src, compression="gzip"):
    """`find . | cpio -o -H odc`, gzip-compressed (what `pkgbuild` writes as a Payload) or in
    pbzx chunks (what Apple's own packages carry)."""
    names = ["."]
    for dirpath, dirnames, filenames in os.walk(src):
        dirnames.sort()
        for name in sorted(dirnames + filenames):
            names.append("./" + os.path.relpath(os.path.join(dirpath, name), src))
    archive = subprocess.run(["cpio", "-o", "-H", "odc", "--quiet"], cwd=src,
                             input="\n".join(names).encode() + b"\n", capture_output=True,
                             check=True).stdout
    if compression == "pbzx":
        return pbzx(archive)
    return gzip.compress(archive, 9, mtime=0)


class Xar:
    def __init__(self):
        self.heap = b""
        self.next_id = 1

    def data(self, content, compress):
        stored = zlib.compress(content, 9) if compress else content
        offset = len(self.heap)
        self.heap += stored
        style = "application/x-gzip" if compress else "application/octet-stream"
        return (f"<data><length>{len(stored)}</length><offset>{offset}</offset>"
                f"<size>{len(content)}</size><encoding style=\"{style}\"/>"
                f"<extracted-checksum style=\"sha1\">{hashlib.sha1(content).hexdigest()}</extracted-checksum>"
                f"<archived-checksum style=\"sha1\">{hashlib.sha1(stored).hexdigest()}</archived-checksum>"
                f"</data>")

    def file(self, name, content, compress=True):
        ident = self.next_id
        self.next_id += 1
        return (f"<file id=\"{ident}\"><name>{escape(name)}</name><type>file</type>"
                f"{self.data(content, compress)}</file>")

    def directory(self, name, children):
        ident = self.next_id
        self.next_id += 1
        return (f"<file id=\"{ident}\"><name>{escape(name)}</name><type>directory</type>"
                + "".join(children) + "</file>")


def pack(src, dest, compression="gzip"):
    xar = Xar()
    # The heap starts with the table of contents' own checksum (20 bytes of SHA-1).
    xar.heap = bytes(20)
    files = [
        xar.file("Distribution", DISTRIBUTION),
        xar.directory("app.pkg", [
            xar.file("PackageInfo", PACKAGE_INFO),
            xar.file("Bom", b"BOMStore" + bytes(56)),
            xar.file("Payload", payload(src, compression), compress=False),
        ]),
    ]
    toc = ("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<xar><toc>"
           "<checksum style=\"sha1\"><offset>0</offset><size>20</size></checksum>"
           + "".join(files) + "</toc></xar>").encode()
    packed = zlib.compress(toc, 9)
    heap = hashlib.sha1(packed).digest() + xar.heap[20:]
    header = b"xar!" + (28).to_bytes(2, "big") + (1).to_bytes(2, "big")
    header += len(packed).to_bytes(8, "big") + len(toc).to_bytes(8, "big") + (1).to_bytes(4, "big")
    with open(dest, "wb") as f:
        f.write(header + packed + heap)


def listing(pkg):
    with tempfile.TemporaryDirectory() as tmp:
        members = os.path.join(tmp, "members")
        subprocess.run(["7zz", "x", "-bd", "-y", f"-o{members}", pkg], check=True,
                       capture_output=True)
        # 7-Zip lists the table of contents as a member of its own, "[TOC].xml".
        rows = [row for row in tree_rows(members) if row["logical_path"] != "[TOC].xml"]
        for row in list(rows):
            if os.path.basename(row["logical_path"]) != "Payload":
                continue
            out = os.path.join(tmp, "payload-" + str(len(rows)))
            os.makedirs(out)
            with open(os.path.join(members, row["logical_path"]), "rb") as f:
                data = f.read()
            archive = unpbzx(data) if data.startswith(b"pbzx") else gzip.decompress(data)
            subprocess.run(["cpio", "-idm", "--quiet", "--no-absolute-filenames"], cwd=out,
                           input=archive, check=True, capture_output=True)
            for inner in tree_rows(out):
                inner["logical_path"] = row["logical_path"] + "/" + inner["logical_path"]
                rows.append(inner)
        print_rows(rows)


if __name__ == "__main__":
    command, args = sys.argv[1], sys.argv[2:]
    {"pack": pack, "list": listing}[command](*args)

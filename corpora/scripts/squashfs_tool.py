#!/usr/bin/env python3
"""squashfs-tools (mksquashfs, unsquashfs) as an independent SquashFS packer and oracle.

  squashfs_tool.py pack SRC DEST COMP [MKSQUASHFS_ARGS...]
                                  pack SRC into the image DEST with compressor COMP (gzip, xz,
                                  zstd, lz4, lzo) and any further mksquashfs options
  squashfs_tool.py appimage RUNTIME IMAGE DEST
                                  write an AppImage (type 2) as appimagetool lays it out: the
                                  ELF RUNTIME with the magic "AI\\x02" at byte 8, then IMAGE;
                                  prints the image's offset, read from the runtime's ELF header
                                  (the end of its section header table)
  squashfs_tool.py list ARCHIVE [OFFSET]
                                  one JSON object per member, sorted by path (see
                                  listing_rows.py), from what `unsquashfs -o OFFSET` extracts
"""
import os
import shutil
import struct
import subprocess
import sys
import tempfile

from listing_rows import print_rows, tree_rows


def pack(src, dest, comp, extra):
    subprocess.run(
        ["mksquashfs", src, dest, "-comp", comp, "-noappend", "-quiet", "-no-progress", *extra],
        check=True,
        stdout=subprocess.DEVNULL,
    )


def elf_end(data):
    """e_shoff + e_shnum * e_shentsize, as the AppImage runtime computes its own size."""
    assert data[:4] == b"\x7fELF", "the runtime is not an ELF file"
    order = "<" if data[5] == 1 else ">"
    if data[4] == 2:
        (shoff,) = struct.unpack_from(order + "Q", data, 0x28)
        shentsize, shnum = struct.unpack_from(order + "HH", data, 0x3A)
    else:
        (shoff,) = struct.unpack_from(order + "I", data, 0x20)
        shentsize, shnum = struct.unpack_from(order + "HH", data, 0x2E)
    return shoff + shnum * shentsize


def appimage(runtime, image, dest):
    data = bytearray(open(runtime, "rb").read())
    end = elf_end(data)
    # appimagetool's runtime is exactly as long as its ELF says; trim or pad a stand-in to that.
    data = data[:end] + b"\0" * max(0, end - len(data))
    data[8:11] = b"AI\x02"
    with open(dest, "wb") as out:
        out.write(data)
        out.write(open(image, "rb").read())
    os.chmod(dest, 0o755)
    print(end)


def listing(archive, offset):
    with tempfile.TemporaryDirectory() as tmp:
        root = os.path.join(tmp, "x")
        subprocess.run(
            ["unsquashfs", "-no-progress", "-quiet", "-no-xattrs", "-o", str(offset), "-d", root, archive],
            check=True,
            stdout=subprocess.DEVNULL,
        )
        rows = tree_rows(root)
        shutil.rmtree(root, ignore_errors=True)
    print_rows(rows)


if __name__ == "__main__":
    command = sys.argv[1]
    if command == "pack":
        pack(sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5:])
    elif command == "appimage":
        appimage(sys.argv[2], sys.argv[3], sys.argv[4])
    else:
        listing(sys.argv[2], int(sys.argv[3]) if len(sys.argv) > 3 else 0)

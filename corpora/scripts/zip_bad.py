#!/usr/bin/env python3
"""Writes hostile ZIP archives into DEST for the bad-input tests.

bomb.zip       one member of 1,000,000 '0' bytes, deflated (ratio about 1000), beside ok.txt
slip.zip       zip-slip and unsafe names beside ok.txt
encrypted.zip  a member whose encryption flag is set (never read), beside ok.txt
crc.zip        a stored member whose bytes were altered after packing, beside ok.txt
notzip.zip     not a ZIP at all
"""
import os
import sys
import zipfile


def write(path, members, compression=zipfile.ZIP_DEFLATED):
    with zipfile.ZipFile(path, "w", compression=compression) as zf:
        for name, data in members:
            zf.writestr(zipfile.ZipInfo(name), data, compress_type=compression)


def main(dest):
    os.makedirs(dest, exist_ok=True)
    ok = ("ok.txt", b"fine")
    write(os.path.join(dest, "bomb.zip"), [("bomb.txt", b"0" * 1_000_000), ok])
    write(os.path.join(dest, "slip.zip"), [("../evil.txt", b"x"), ("/abs.txt", b"x"), ("a\\b.txt", b"x"),
                                           ("C:drive.txt", b"x"), ("dir/../../up.txt", b"x"), ok])
    enc = os.path.join(dest, "encrypted.zip")
    write(enc, [("secret.txt", b"classified"), ok], zipfile.ZIP_STORED)
    data = bytearray(open(enc, "rb").read())
    # Set bit 0 (encrypted) of the general purpose flags of the first member, in its local
    # header (offset 6) and its central directory record (offset 8).
    data[6] |= 1
    central = data.index(b"PK\x01\x02")
    data[central + 8] |= 1
    open(enc, "wb").write(data)
    crc = os.path.join(dest, "crc.zip")
    write(crc, [("altered.txt", b"original bytes"), ok], zipfile.ZIP_STORED)
    data = bytearray(open(crc, "rb").read())
    at = data.index(b"original bytes")
    data[at] = ord("O")
    open(crc, "wb").write(data)
    open(os.path.join(dest, "notzip.zip"), "wb").write(b"PK\x03\x04 this is not really a zip")


if __name__ == "__main__":
    main(sys.argv[1])

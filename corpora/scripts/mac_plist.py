#!/usr/bin/env python3
"""Writes a macOS bundle's Info.plist with CPython's plistlib, as Electron's packagers do.

  mac_plist.py OUT xml|binary [KEY ALGORITHM HASH]...

Each KEY (an archive path relative to Contents/, such as Resources/app.asar) becomes an
ElectronAsarIntegrity entry {algorithm, hash}.
"""
import plistlib
import sys


def main():
    out, fmt, rest = sys.argv[1], sys.argv[2], sys.argv[3:]
    integrity = {}
    for i in range(0, len(rest), 3):
        key, algorithm, digest = rest[i:i + 3]
        integrity[key] = {"algorithm": algorithm, "hash": digest}
    info = {
        "CFBundleExecutable": "Fixture",
        "CFBundleIdentifier": "dev.rea.fixture",
        "CFBundleName": "Fixture",
        "CFBundlePackageType": "APPL",
    }
    if integrity:
        info["ElectronAsarIntegrity"] = integrity
    with open(out, "wb") as f:
        plistlib.dump(info, f, fmt=plistlib.FMT_XML if fmt == "xml" else plistlib.FMT_BINARY)


main()

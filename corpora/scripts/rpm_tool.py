#!/usr/bin/env python3
"""rpmbuild, rpm2cpio and cpio (Debian's rpm, rpm2cpio and cpio packages) as an independent
RPM packer and oracle.

  rpm_tool.py pack SRC DEST COMPRESSION
                                  build DEST, a binary RPM installing SRC's contents under
                                  /opt/Fixture, its payload compressed with COMPRESSION (gzip,
                                  xz, zstd, or none), with SHA-256 file digests
  rpm_tool.py list PACKAGE        one JSON object per member, sorted by path (see
                                  listing_rows.py), from what `rpm2cpio | cpio -idm` extracts
"""
import glob
import os
import shutil
import subprocess
import sys
import tempfile

from listing_rows import print_rows, tree_rows

PAYLOADS = {"gzip": "w9.gzdio", "xz": "w2.xzdio", "zstd": "w3.zstdio", "none": "w.ufdio"}

SPEC = """Name: fixture
Version: 1.0.0
Release: 1
Summary: a fixture
License: MIT
BuildArch: noarch

%description
A fixture.

%install
mkdir -p %{{buildroot}}/opt
cp -a {src} %{{buildroot}}/opt/Fixture

%files
/opt/Fixture
"""


def pack(src, dest, compression):
    with tempfile.TemporaryDirectory() as top:
        spec = os.path.join(top, "fixture.spec")
        with open(spec, "w") as out:
            out.write(SPEC.format(src=os.path.abspath(src)))
        subprocess.run(
            [
                "rpmbuild", "-bb", "--quiet",
                "--define", f"_topdir {top}",
                "--define", f"_binary_payload {PAYLOADS[compression]}",
                "--define", "_binary_filedigest_algorithm 8",
                "--define", "_build_id_links none",
                "--define", "__os_install_post %{nil}",
                "--define", "__spec_install_post %{nil}",
                spec,
            ],
            check=True,
            stdout=subprocess.DEVNULL,
        )
        (built,) = glob.glob(os.path.join(top, "RPMS", "*", "*.rpm"))
        shutil.copyfile(built, dest)


def listing(package):
    with tempfile.TemporaryDirectory() as tmp:
        payload = subprocess.run(["rpm2cpio", package], check=True, capture_output=True).stdout
        subprocess.run(
            ["cpio", "-idm", "--quiet", "--no-absolute-filenames"],
            input=payload,
            cwd=tmp,
            check=True,
        )
        rows = tree_rows(tmp)
    print_rows(rows)


if __name__ == "__main__":
    if sys.argv[1] == "pack":
        pack(sys.argv[2], sys.argv[3], sys.argv[4])
    else:
        listing(sys.argv[2])

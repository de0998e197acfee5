#!/usr/bin/env python3
"""7-Zip (Debian's 7zip package, `7zz`) and makensis (Debian's nsis package) as an independent
7z packer, NSIS installer builder and oracle.

  sevenz_tool.py pack SRC DEST MODE
                                  pack SRC's contents into the 7z archive DEST, symlinks kept as
                                  links (-snl); MODE is one of MODES below ("electron-builder" is
                                  the app package of an electron-builder NSIS installer: LZMA2,
                                  -mx=9, the BCJ filter, no timestamps)
  sevenz_tool.py nsis PACKAGE DEST [stored|compressed]
                                  build the NSIS installer DEST as electron-builder's templates
                                  embed an app package: compression off for
                                  `File /oname=$PLUGINSDIR\\app-64.EXT PACKAGE` (EXT: 7z, or zip
                                  as with electron-builder's `useZip`), and on (LZMA, not solid)
                                  for the rest of the installer; with `compressed`, NSIS
                                  compresses the package too (what electron-builder never does)
  sevenz_tool.py nsis-tree SRC DEST MODE
                                  build the NSIS installer DEST that installs SRC's files under
                                  $INSTDIR (`File /r`, as electron-builder's portable target
                                  does), compressed by NSIS with MODE: lzma, solid-lzma or zlib
  sevenz_tool.py nsis-uninstaller DEST
                                  build the NSIS installer DEST whose script extracts no file (it
                                  only writes its uninstaller)
  sevenz_tool.py list ARCHIVE     one JSON object per member, sorted by path (see
                                  listing_rows.py), from what `7zz x -snl` extracts
  sevenz_tool.py extract ARCHIVE MEMBER DEST [TYPE]
                                  write what `7zz` extracts as MEMBER of ARCHIVE (a 7z archive or
                                  an installer 7-Zip opens) to DEST; TYPE is 7-Zip's `-t` (`PE`
                                  reads an executable's resources, `.rsrc/DATA/131`, rather than
                                  the archive 7-Zip finds in one)
"""
import os
import shutil
import subprocess
import sys
import tempfile

from listing_rows import print_rows, tree_rows

MODES = {
    "lzma2": ["-mx=5"],
    "electron-builder": ["-mx=9", "-mtc=off", "-mf=BCJ", "-mtm=off", "-mta=off"],
    "non-solid": ["-mx=5", "-ms=off"],
    "bcj2": ["-m0=BCJ2", "-m1=LZMA:d=1m", "-m2=LZMA:d=64k", "-m3=LZMA:d=64k",
             "-mb0s0:1", "-mb0s1:2", "-mb0s2:3"],
    "lzma": ["-m0=LZMA"],
    "ppmd": ["-m0=PPMd"],
    "bzip2": ["-m0=BZip2"],
    "deflate": ["-m0=Deflate"],
    "copy": ["-mx=0"],
    "encrypted": ["-mx=5", "-pREA-fixture"],
    "encrypted-header": ["-mx=5", "-pREA-fixture", "-mhe=on"],
}

NSIS_SCRIPT = r"""Unicode true
Name "Fixture"
OutFile "{out}"
RequestExecutionLevel user
SetCompressor lzma
Section
  InitPluginsDir
  SetCompress {package_compression}
  File /oname=$PLUGINSDIR\app-64.{ext} "{package}"
  SetCompress auto
  SetOutPath $INSTDIR
  File "{readme}"
SectionEnd
"""


def pack(src, dest, mode):
    dest = os.path.abspath(dest)
    if os.path.exists(dest):
        os.remove(dest)
    names = sorted(os.listdir(src))
    subprocess.run(
        ["7zz", "a", "-bd", "-snl", *MODES[mode], dest, *names],
        cwd=src,
        check=True,
        stdout=subprocess.DEVNULL,
    )


def nsis(package, dest, compressed=False):
    with tempfile.TemporaryDirectory() as tmp:
        readme = os.path.join(tmp, "README.txt")
        with open(readme, "w") as out:
            out.write("installed beside the application\n" * 40)
        script = os.path.join(tmp, "installer.nsi")
        with open(script, "w") as out:
            out.write(NSIS_SCRIPT.format(
                out=os.path.abspath(dest), package=os.path.abspath(package), readme=readme,
                ext=os.path.splitext(package)[1].lstrip("."),
                package_compression="auto" if compressed else "off"))
        subprocess.run(["makensis", "-V1", script], check=True, stdout=subprocess.DEVNULL)


TREE_SCRIPT = r"""Unicode true
Name "Fixture"
OutFile "{out}"
RequestExecutionLevel user
SetCompressor {compressor}
Section
  SetOutPath $INSTDIR
  File /r "{src}\*.*"
SectionEnd
"""

UNINSTALLER_SCRIPT = r"""Unicode true
Name "Fixture"
OutFile "{out}"
RequestExecutionLevel user
Section
  WriteUninstaller "$INSTDIR\Uninstall Fixture.exe"
SectionEnd
Section "Uninstall"
  Delete "$INSTDIR\Uninstall Fixture.exe"
SectionEnd
"""


def nsis_uninstaller(dest):
    with tempfile.TemporaryDirectory() as tmp:
        script = os.path.join(tmp, "installer.nsi")
        with open(script, "w") as out:
            out.write(UNINSTALLER_SCRIPT.format(out=os.path.abspath(dest)))
        subprocess.run(["makensis", "-V1", script], check=True, stdout=subprocess.DEVNULL)


COMPRESSORS = {"lzma": "lzma", "solid-lzma": "/SOLID lzma", "zlib": "zlib"}


def nsis_tree(src, dest, mode):
    with tempfile.TemporaryDirectory() as tmp:
        script = os.path.join(tmp, "installer.nsi")
        with open(script, "w") as out:
            out.write(TREE_SCRIPT.format(
                out=os.path.abspath(dest), src=os.path.abspath(src), compressor=COMPRESSORS[mode]))
        subprocess.run(["makensis", "-V1", script], check=True, stdout=subprocess.DEVNULL)


def listing(archive):
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run(
            ["7zz", "x", "-bd", "-snl", "-snld", "-y", f"-o{tmp}", os.path.abspath(archive)],
            check=True,
            stdout=subprocess.DEVNULL,
        )
        rows = tree_rows(tmp)
    print_rows(rows)


def extract(archive, member, dest, kind=None):
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run(
            ["7zz", "x", "-bd", "-y", *([f"-t{kind}"] if kind else []), f"-o{tmp}",
             os.path.abspath(archive), member],
            check=True,
            stdout=subprocess.DEVNULL,
        )
        shutil.copyfile(os.path.join(tmp, member), dest)


if __name__ == "__main__":
    if sys.argv[1] == "pack":
        pack(sys.argv[2], sys.argv[3], sys.argv[4])
    elif sys.argv[1] == "nsis":
        nsis(sys.argv[2], sys.argv[3], len(sys.argv) > 4 and sys.argv[4] == "compressed")
    elif sys.argv[1] == "nsis-uninstaller":
        nsis_uninstaller(sys.argv[2])
    elif sys.argv[1] == "nsis-tree":
        nsis_tree(sys.argv[2], sys.argv[3], sys.argv[4])
    elif sys.argv[1] == "extract":
        extract(*sys.argv[2:6])
    else:
        listing(sys.argv[2])

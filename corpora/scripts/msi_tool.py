#!/usr/bin/env python3
"""msitools (Debian's msitools package: wixl, wixl-heat, msiextract, msiinfo) as an independent
Windows Installer builder and oracle.

  msi_tool.py pack SRC DEST [LAYOUT] [CABINET] [BINARY]
                                  build the package DEST that installs SRC's regular files with
                                  wixl: LAYOUT `program-files` (the default: per machine, under
                                  ProgramFilesFolder/"Demo App", as electron-builder's per-machine
                                  MSI installs) or `per-user` (under LocalAppDataFolder/Programs/
                                  "Demo App", as its per-user MSI does); CABINET `embedded` (the
                                  default) or `external` (the cabinet, app.cab, is written beside
                                  DEST);
                                  BINARY, a file stored in the package's Binary table (as a
                                  custom action's DLL or script is)
  msi_tool.py list MSI            one JSON object per member (see listing_rows.py), from what
                                  `msiextract` extracts
  msi_tool.py streams MSI         one JSON object per stream of the package that is not a table,
                                  a property set or an embedded cabinet, from `msiinfo streams` and
                                  `msiinfo extract`, below "[streams]/"
  msi_tool.py cabinet MSI NAME DEST
                                  write the package's stream NAME (an embedded cabinet) to DEST
"""
import os
import subprocess
import sys
import tempfile

from listing_rows import print_rows, row, tree_rows

PRODUCT = """<?xml version="1.0" encoding="utf-8"?>
<Wix xmlns="http://schemas.microsoft.com/wix/2006/wi">
  <Product Id="*" Name="Demo App" Manufacturer="REA fixtures" Version="1.2.3" Language="1033"
           UpgradeCode="2f1c6a52-8d0e-4e4b-9d4e-3b7a0c1d2e3f">
    <Package InstallerVersion="500" Compressed="yes" InstallScope="{scope}"/>
    <Media Id="1" Cabinet="app.cab" EmbedCab="{embed}"/>
    {binary}
    <Directory Id="TARGETDIR" Name="SourceDir">
      {directories}
    </Directory>
    <Feature Id="Main" Level="1"><ComponentGroupRef Id="AppFiles"/></Feature>
  </Product>
</Wix>
"""

LAYOUTS = {
    "program-files": (
        "perMachine",
        '<Directory Id="ProgramFilesFolder"><Directory Id="INSTALLDIR" Name="Demo App"/></Directory>',
    ),
    "per-user": (
        "perUser",
        '<Directory Id="LocalAppDataFolder"><Directory Id="Programs" Name="Programs">'
        '<Directory Id="INSTALLDIR" Name="Demo App"/></Directory></Directory>',
    ),
}


def pack(src, dest, layout="program-files", cabinet="embedded", binary=None):
    scope, directories = LAYOUTS[layout]
    src = os.path.abspath(src)
    files = []
    for dirpath, _, filenames in os.walk(src, followlinks=False):
        for name in filenames:
            full = os.path.join(dirpath, name)
            if os.path.isfile(full) and not os.path.islink(full):
                files.append(full)
    files.sort()
    with tempfile.TemporaryDirectory() as tmp:
        heat = subprocess.run(
            ["wixl-heat", "-p", src + "/", "--component-group", "AppFiles",
             "--directory-ref", "INSTALLDIR", "--var", "var.SourceDir"],
            input="\n".join(files) + "\n", capture_output=True, text=True, check=True)
        fragment = os.path.join(tmp, "files.wxs")
        with open(fragment, "w") as f:
            f.write(heat.stdout)
        product = os.path.join(tmp, "product.wxs")
        # Relative to SRC, where wixl runs.
        binary_xml = (f'<Binary Id="CustomActionDll" SourceFile="{os.path.relpath(binary, src)}"/>'
                      if binary else "")
        with open(product, "w") as f:
            f.write(PRODUCT.format(scope=scope, embed="yes" if cabinet == "embedded" else "no",
                                   binary=binary_xml, directories=directories))
        dest = os.path.abspath(dest)
        # wixl finds sources relative to where it runs: an absolute Source is not found.
        built = subprocess.run(["wixl", "-D", "SourceDir=.", "-o", dest, product, fragment],
                               cwd=src, capture_output=True, text=True)
        if built.returncode != 0:
            sys.exit(f"wixl failed: {built.stderr}")
    if cabinet == "external":
        # wixl writes no external cabinet: the one it embeds in the same package built with
        # EmbedCab="yes" holds the same files under the same keys (wixl-heat's ids are digests
        # of the paths), so that one is written beside DEST.
        with tempfile.TemporaryDirectory() as tmp:
            embedded = os.path.join(tmp, "embedded.msi")
            pack(src, embedded, layout, "embedded", binary)
            write_stream(embedded, "app.cab", os.path.join(os.path.dirname(dest), "app.cab"))


def listing(msi):
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run(["msiextract", "-C", tmp, msi], check=True, capture_output=True)
        print_rows(tree_rows(tmp))


def streams(msi):
    names = subprocess.run(["msiinfo", "streams", msi], check=True, capture_output=True,
                           text=True).stdout.split()
    media = subprocess.run(["msiinfo", "export", msi, "Media"], check=True, capture_output=True,
                           text=True).stdout.splitlines()[3:]
    cabinets = {line.split("\t")[3][1:] for line in media if line.split("\t")[3].startswith("#")}
    rows = []
    for name in names:
        # The embedded cabinets are listed as the files they hold; the property sets
        # ("\x05SummaryInformation") are the package's metadata, not streams of its tables'.
        if name in cabinets or name.startswith("\x05"):
            continue
        data = subprocess.run(["msiinfo", "extract", msi, name], check=True,
                              capture_output=True).stdout
        rows.append(row(f"[streams]/{name}", "file", data))
    print_rows(rows)


def write_stream(msi, name, dest):
    data = subprocess.run(["msiinfo", "extract", msi, name], check=True, capture_output=True).stdout
    with open(dest, "wb") as f:
        f.write(data)


if __name__ == "__main__":
    command, args = sys.argv[1], sys.argv[2:]
    {"pack": pack, "list": listing, "streams": streams, "cabinet": write_stream}[command](*args)

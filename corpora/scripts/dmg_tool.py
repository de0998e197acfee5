#!/usr/bin/env python3
"""A disk-image (.dmg) writer for tests, and 7-Zip (`7zz`) as the oracle that reads it.

No tool on Linux writes an HFS+ volume without mounting one, so this script lays out an HFSX
volume itself (case-sensitive HFS+, what `hdiutil create -fs HFSX` makes: a volume header, an
allocation bitmap, an empty extents tree, and a catalog B-tree of folders, files and symlinks
with their thread records, in leaf nodes under an index node), and wraps it in a UDIF image
as `hdiutil` writes one (`koly` trailer, an XML property list whose `blkx` table maps the
volume's sectors to zlib, bzip2, LZFSE, xz, raw or zero chunks). 7-Zip's DMG and HFS readers,
not this script, judge the result: `list` is what `7zz x` extracts. LZFSE and LZVN come from
Apple's reference encoder (the `lzfse` package from PyPI, imported only when asked for).

  dmg_tool.py pack SRC DEST [zlib|bzip2|lzfse|xz|raw] [volume|gpt] [plain|decmpfs|decmpfs-lzvn|decmpfs-lzfse]
                                  write SRC's files, folders, symlinks and hard links as the volume "Fixture"
                                  of the disk image DEST (chunks zlib-compressed by default, as
                                  UDZO images are), alone on the disk or (gpt) in a GUID
                                  partition map as `hdiutil` lays one out (protective MBR, GPT
                                  header and table, free space, the volume, the backups); a
                                  file of more than 64 KiB is stored in two extents, so that
                                  files in pieces are read too; with decmpfs, every regular
                                  file is compressed by the file system as
                                  `ditto --hfsCompression` stores it (zlib, in its
                                  com.apple.decmpfs attribute when small, else in its resource
                                  fork in chunks of 64 KiB; the attributes B-tree holds them);
                                  decmpfs-lzvn and decmpfs-lzfse store them as LZVN (types 7
                                  and 8; a chunk of 4 KiB or more, which the reference encoder
                                  writes as LZFSE, is stored after a 0x06 byte) or LZFSE (types
                                  11 and 12)
  dmg_tool.py list DMG            one JSON object per member (see listing_rows.py) of the volume,
                                  from what `7zz x -snl -snld` extracts from the image (below the
                                  volume's name)
"""
import bz2
import lzma
import os
import plistlib
import stat
import struct
import subprocess
import sys
import tempfile
import zlib

from listing_rows import print_rows, tree_rows

BLOCK = 4096
NODE = 4096
SECTOR = 512
EPOCH_OFFSET = 2082844800  # seconds from 1904 to 1970
NOW = 3_900_000_000


def fork(size, extents):
    """An HFSPlusForkData: logical size, clump size, total blocks and eight extents."""
    blocks = sum(count for _, count in extents)
    out = struct.pack(">QII", size, 0, blocks)
    for start, count in (extents + [(0, 0)] * 8)[:8]:
        out += struct.pack(">II", start, count)
    return out


def permissions(mode, special=0, owner_flags=0):
    return struct.pack(">IIBBHI", 501, 20, 0, owner_flags, mode, special)


def squeezed(data):
    """A decmpfs zlib chunk: zlib's stream, or 0xFF then the bytes when zlib does not help
    (a zlib stream never starts with 0xFF)."""
    packed = zlib.compress(data, 9)
    return packed if len(packed) < len(data) + 1 else b"\xff" + data


def lzvn(data):
    """A decmpfs LZVN chunk: the LZVN stream Apple's reference encoder writes for an input under
    4 KiB (its `bvxn` block without the block header and the end-of-stream marker), or 0x06
    then the bytes."""
    import lzfse
    if len(data) < 4096:
        stream = lzfse.compress(data)
        if stream[:4] == b"bvxn" and stream[-4:] == b"bvx$":
            payload = stream[12:-4]
            if len(payload) < len(data):
                return payload
    return b"\x06" + data


def lzfse_chunk(data):
    """A decmpfs LZFSE chunk: an LZFSE stream from Apple's reference encoder."""
    import lzfse
    return lzfse.compress(data)


def offset_fork(data, encode):
    """A decmpfs type-8 or type-12 resource fork: little-endian offsets of the chunks of 64 KiB
    (one more than the chunks), then the chunks."""
    blocks = [encode(data[i:i + 65536]) for i in range(0, len(data), 65536)]
    at = 4 * (len(blocks) + 1)
    offsets = [at]
    for block in blocks:
        offsets.append(offsets[-1] + len(block))
    return struct.pack(f"<{len(offsets)}I", *offsets) + b"".join(blocks)


def resource_fork(data):
    """A decmpfs type-4 resource fork: the resource header, then one resource (its length, a
    block count and table, the zlib blocks of 64 KiB), then the 50-byte resource map."""
    blocks = [squeezed(data[i:i + 65536]) for i in range(0, len(data), 65536)]
    table, body = b"", b""
    at = 4 + 8 * len(blocks)
    for block in blocks:
        table += struct.pack("<II", at + len(body), len(block))
        body += block
    payload = struct.pack("<I", len(blocks)) + table + body
    resource = struct.pack(">I", len(payload)) + payload
    data_at = 0x100
    map_at = data_at + len(resource)
    header = struct.pack(">IIII", data_at, map_at, len(resource), 50)
    resource_map = header + struct.pack(">IHHHHH", 0, 0, 0, 28, 50, 0)
    resource_map += b"cmpf" + struct.pack(">HH", 0, 10) + struct.pack(">HHIi", 1, 0xFFFF, 0, 0)
    resource_map = resource_map.ljust(50, b"\0")[:50]
    return header.ljust(data_at, b"\0") + resource + resource_map


def catalog_key(parent, name):
    units = name.encode("utf-16-be")
    return struct.pack(">HIH", 6 + len(units), parent, len(units) // 2) + units


def thread(kind, parent, name):
    units = name.encode("utf-16-be")
    return struct.pack(">hhIH", kind, 0, parent, len(units) // 2) + units


class Volume:
    def __init__(self):
        self.next_id = 16
        self.records = []  # (parent, name, record bytes)
        self.blobs = []  # (cnid, data), written after the B-trees
        self.files = 0
        self.folders = 0
        # Hard links: the private folder's id, and the iNode id of each linked (dev, inode).
        self.private = None
        self.inodes = {}
        # decmpfs: whether regular files are compressed, and the inline attributes written.
        self.compress = False
        self.attributes = []  # (cnid, name, data)

    def folder(self, parent, name, cnid, valence):
        record = struct.pack(">hHII", 1, 0, valence, cnid) + struct.pack(">5I", *[NOW] * 5)
        record += permissions(stat.S_IFDIR | 0o755) + bytes(16) + bytes(16) + struct.pack(">II", 0, 0)
        self.records.append((parent, name, record))
        self.records.append((cnid, "", thread(3, parent, name)))

    def file(self, parent, name, data, mode, kind=b"\0\0\0\0", creator=b"\0\0\0\0", special=0):
        cnid = self.next_id
        self.next_id += 1
        self.files += 1
        flags, resource = 0, b""
        if self.compress and stat.S_ISREG(mode) and kind == b"\0\0\0\0" and data:
            # As `ditto --hfsCompression` stores a file: an empty data fork, the UF_COMPRESSED
            # flag, and a com.apple.decmpfs attribute holding it (type 3, zlib inline) or
            # saying its resource fork does (type 4, zlib blocks of 64 KiB).
            flags = 0x20
            inline, forked, encode = {"zlib": (3, 4, squeezed), "lzvn": (7, 8, lzvn),
                                      "lzfse": (11, 12, lzfse_chunk)}[self.compress]
            packed = encode(data) if len(data) <= 65536 else b""
            if packed and len(packed) + 16 <= 3802:
                self.attributes.append((cnid, "com.apple.decmpfs",
                                        struct.pack("<4sIQ", b"fpmc", inline, len(data)) + packed))
            else:
                self.attributes.append((cnid, "com.apple.decmpfs",
                                        struct.pack("<4sIQ", b"fpmc", forked, len(data))))
                resource = resource_fork(data) if forked == 4 else offset_fork(data, encode)
            data = b""
        self.blobs.append(((cnid, "data"), data))
        if resource:
            self.blobs.append(((cnid, "rsrc"), resource))
        self.records.append((parent, name, (cnid, mode, kind, creator, len(data), special,
                                            flags, len(resource))))
        self.records.append((cnid, "", thread(4, parent, name)))
        return cnid

    def hard_link(self, parent, name, full, st):
        """A file with more than one link, as HFS+ stores one: its data once, as the file
        `iNode<id>` of the private folder, and each link a file record of type `hlnk` naming it."""
        if self.private is None:
            self.private = self.next_id
            self.next_id += 1
            self.folders += 1
            self.folder(2, "\0\0\0\0HFS+ Private Data", self.private, 0)
        key = (st.st_dev, st.st_ino)
        if key not in self.inodes:
            with open(full, "rb") as f:
                data = f.read()
            inode = self.next_id
            self.file(self.private, f"iNode{inode}", data, stat.S_IFREG | (st.st_mode & 0o777))
            self.inodes[key] = inode
        self.file(parent, name, b"", stat.S_IFREG | (st.st_mode & 0o777), b"hlnk", b"hfs+",
                  self.inodes[key])

    def add_tree(self, src, parent):
        names = sorted(os.listdir(src))
        for name in names:
            full = os.path.join(src, name)
            st = os.lstat(full)
            if stat.S_ISLNK(st.st_mode):
                target = os.readlink(full).encode()
                self.file(parent, name, target, stat.S_IFLNK | 0o755, b"slnk", b"rhap")
            elif stat.S_ISDIR(st.st_mode):
                cnid = self.next_id
                self.next_id += 1
                self.folders += 1
                self.folder(parent, name, cnid, len(os.listdir(full)))
                self.add_tree(full, cnid)
            elif stat.S_ISREG(st.st_mode) and st.st_nlink > 1:
                self.hard_link(parent, name, full, st)
            elif stat.S_ISREG(st.st_mode):
                with open(full, "rb") as f:
                    self.file(parent, name, f.read(), stat.S_IFREG | (st.st_mode & 0o777))

    def image(self, src):
        self.folder(1, "Fixture", 2, len(os.listdir(src)))
        self.add_tree(src, 2)
        # Blocks: 0 (boot and volume header), the allocation bitmap, the extents tree, the
        # catalog, then the files' data, then a spare block for the alternate volume header.
        data_blocks = sum(max(1, -(-len(d) // BLOCK)) + 1 for _, d in self.blobs)
        leaves = self.leaf_nodes()
        catalog_nodes = 1 + len(leaves) + len(index_nodes([(k, 0) for k, _ in leaves], 0)[0])
        attribute_leaves = tree_leaves(self.attribute_records())
        attribute_nodes = (1 + len(attribute_leaves)
                           + len(index_nodes([(k, 0) for k, _ in attribute_leaves], 0)[0])
                           if self.attributes else 0)
        total = 1 + 1 + 1 + catalog_nodes + attribute_nodes + data_blocks + 2
        bitmap_blocks = -(-total // (BLOCK * 8))
        total += bitmap_blocks
        at = 1
        allocation = (at, bitmap_blocks)
        at += bitmap_blocks
        extents_tree = (at, 1)
        at += 1
        catalog = (at, catalog_nodes)
        at += catalog_nodes
        attributes_tree = (at, attribute_nodes)
        at += attribute_nodes
        disk = bytearray(total * BLOCK)
        places = {}
        for cnid, blob in self.blobs:
            blocks = -(-len(blob) // BLOCK)
            if not blob:
                # An empty fork has no extents.
                places[cnid] = []
                continue
            if len(blob) > 64 * 1024:
                # Two extents with a gap between them.
                first = blocks // 2
                extents = [(at, first), (at + first + 1, blocks - first)]
                at += blocks + 1
            else:
                extents = [(at, blocks)]
                at += blocks
            offset = 0
            for start, count in extents:
                piece = blob[offset:offset + count * BLOCK]
                disk[start * BLOCK:start * BLOCK + len(piece)] = piece
                offset += count * BLOCK
            places[cnid] = extents
        used = at
        # The catalog, now that the files' extents are known.
        leaves = self.leaf_nodes(places)
        nodes = [None] + leaves
        index, root, depth = index_nodes(
            [(key, number) for number, (key, _) in enumerate(leaves, start=1)], len(nodes))
        nodes += [(None, node) for node in index]
        leaf_count = len(leaves)
        header = btree_header(depth, root, sum(1 for _ in self.records), 1, leaf_count,
                              catalog_nodes, 516, 0xBC, catalog[1] * BLOCK)
        catalog_bytes = header + b"".join(n[1] for n in nodes[1:])
        start = catalog[0] * BLOCK
        disk[start:start + len(catalog_bytes)] = catalog_bytes
        if self.attributes:
            nodes = [None] + attribute_leaves
            index, root, depth = index_nodes(
                [(key, number) for number, (key, _) in enumerate(attribute_leaves, start=1)],
                len(nodes))
            nodes += [(None, node) for node in index]
            tree = btree_header(depth, root, len(self.attributes), 1, len(attribute_leaves),
                                attribute_nodes, 266, 0, attribute_nodes * BLOCK)
            tree += b"".join(n[1] for n in nodes[1:])
            start = attributes_tree[0] * BLOCK
            disk[start:start + len(tree)] = tree
        extents_bytes = btree_header(0, 0, 0, 0, 0, 1, 10, 0, BLOCK)
        start = extents_tree[0] * BLOCK
        disk[start:start + len(extents_bytes)] = extents_bytes
        bitmap = bytearray(bitmap_blocks * BLOCK)
        for block in range(used):
            bitmap[block // 8] |= 0x80 >> (block % 8)
        for block in (total - 1,):
            bitmap[block // 8] |= 0x80 >> (block % 8)
        disk[allocation[0] * BLOCK:(allocation[0] + bitmap_blocks) * BLOCK] = bitmap
        header = struct.pack(">2sHIIIIIIIIIIIIIIIIIQ", b"HX", 5, 1 << 8, 0x31302E30, 0,
                             NOW, NOW, 0, NOW, self.files, self.folders, BLOCK, total,
                             total - used - 1, used, BLOCK, BLOCK, self.next_id, 1, 0)
        header += bytes(32)
        header += fork(bitmap_blocks * BLOCK, [allocation])
        header += fork(BLOCK, [extents_tree])
        header += fork(catalog[1] * BLOCK, [catalog])
        if self.attributes:
            header += fork(attribute_nodes * BLOCK, [attributes_tree])
        else:
            header += fork(0, [])
        header += fork(0, [])
        assert len(header) == 512, len(header)
        disk[1024:1536] = header
        disk[len(disk) - 1024:len(disk) - 512] = header
        return bytes(disk)

    def leaf_nodes(self, places=None):
        """The catalog's leaf nodes, records sorted by parent and name (binary order): each as
        (its first key, its bytes)."""
        records = []
        for parent, name, record in self.records:
            if isinstance(record, tuple):
                cnid, mode, kind, creator, size, special, flags, rsrc_size = record
                extents = (places or {}).get((cnid, "data"), [])
                rsrc_extents = (places or {}).get((cnid, "rsrc"), [])
                record = struct.pack(">hHII", 2, 2, 0, cnid) + struct.pack(">5I", *[NOW] * 5)
                record += permissions(mode, special, flags) + kind + creator + bytes(8) + bytes(16)
                record += struct.pack(">II", 0, 0) + fork(size, extents)
                record += fork(rsrc_size, rsrc_extents)
            records.append((parent, name.encode("utf-16-be"), catalog_key(parent, name) + record))
        records.sort(key=lambda r: (r[0], r[1]))
        return tree_leaves([record for _, _, record in records])

    def attribute_records(self):
        """The attributes tree's records, sorted by file id and name: inline data (0x10)."""
        records = []
        for cnid, name, data in self.attributes:
            units = name.encode("utf-16-be")
            key = struct.pack(">HHIIH", 12 + len(units), 0, cnid, 0, len(units) // 2) + units
            body = struct.pack(">IIII", 0x10, 0, 0, len(data)) + data
            if len(body) % 2:
                body += b"\0"
            records.append(((cnid, units), key + body))
        records.sort(key=lambda r: r[0])
        return [record for _, record in records]


def tree_leaves(records):
    """Leaf nodes holding `records` (sorted, each a key then its data), linked in order: each
    as (its first key, its bytes)."""
    leaves = []
    current, offsets = b"", []
    first_key = None
    for record in records:
        if 14 + len(current) + len(record) + 2 * (len(offsets) + 2) > NODE:
            leaves.append((first_key, current, offsets))
            current, offsets = b"", []
        if not offsets:
            first_key = record[:2 + struct.unpack(">H", record[:2])[0]]
        offsets.append(14 + len(current))
        current += record
    leaves.append((first_key, current, offsets))
    out = []
    for i, (key, body, offsets) in enumerate(leaves):
        flink = i + 2 if i + 1 < len(leaves) else 0
        blink = i if i > 0 else 0
        out.append((key, node_bytes(flink, blink, 0xFF, 1, offsets, body)))
    return out


def index_nodes(children, first_number):
    """The index levels above `children` ((first key, node number) of each leaf), numbered
    from `first_number`: their nodes, the root's number and the tree's depth."""
    nodes, depth = [], 1
    while len(children) > 1:
        depth += 1
        level, body, offsets, first = [], b"", [], None
        for key, number in children:
            record = key + struct.pack(">I", number)
            if 14 + len(body) + len(record) + 2 * (len(offsets) + 2) > NODE:
                level.append((first, body, offsets))
                body, offsets = b"", []
            if not offsets:
                first = key
            offsets.append(14 + len(body))
            body += record
        level.append((first, body, offsets))
        children = []
        for first, body, offsets in level:
            number = first_number + len(nodes)
            nodes.append(node_bytes(0, 0, 0, depth, offsets, body))
            children.append((first, number))
    root = children[0][1] if depth > 1 else 1
    return nodes, root, depth


def node_bytes(flink, blink, kind, height, offsets, body):
    assert 14 + len(body) + 2 * (len(offsets) + 1) <= NODE, "a node overflows"
    node = bytearray(NODE)
    node[:14] = struct.pack(">IIBBHH", flink, blink, kind, height, len(offsets), 0)
    node[14:14 + len(body)] = body
    table = offsets + [14 + len(body)]
    for i, offset in enumerate(table):
        struct.pack_into(">H", node, NODE - 2 * (i + 1), offset)
    return bytes(node)


def btree_header(depth, root, leaf_records, first_leaf, last_leaf, total_nodes, max_key,
                 compare, clump):
    record = struct.pack(">HIIIIHHIIHIBBI", depth, root, leaf_records, first_leaf, last_leaf,
                         NODE, max_key, total_nodes, 0, 0, clump, 0, compare, 6) + bytes(64)
    assert len(record) == 106
    user = bytes(128)
    map_len = NODE - 14 - 106 - 128 - 8
    bitmap = bytearray(map_len)
    for node in range(total_nodes):
        bitmap[node // 8] |= 0x80 >> (node % 8)
    body = record + user + bytes(bitmap)
    return node_bytes(0, 0, 1, 0, [14, 120, 248], body)


def mish_of(part, first_sector, method, data):
    """The block map of one partition (`part`, starting at `first_sector` of the disk), its
    runs appended to `data` (the image's data fork so far): the map, and the data fork."""
    chunk_sectors = 128
    sectors = len(part) // SECTOR
    chunks = []
    for first in range(0, sectors, chunk_sectors):
        count = min(chunk_sectors, sectors - first)
        piece = part[first * SECTOR:(first + count) * SECTOR]
        if piece.count(0) == len(piece):
            chunks.append((0x00000000, first, count, len(data), 0))
            continue
        if method == "zlib":
            packed, kind = zlib.compress(piece, 9), 0x80000005
        elif method == "bzip2":
            packed, kind = bz2.compress(piece), 0x80000006
        elif method == "lzfse":
            # The reference encoder writes data it cannot shrink as one stored block (`bvx-`),
            # which 7-Zip's DMG reader refuses; such a run is stored raw instead.
            import lzfse
            packed, kind = lzfse.compress(piece), 0x80000007
            if len(packed) >= len(piece):
                packed, kind = piece, 0x00000001
        elif method == "xz":
            packed, kind = lzma.compress(piece, format=lzma.FORMAT_XZ), 0x80000008
        else:
            packed, kind = piece, 0x00000001
        chunks.append((kind, first, count, len(data), len(packed)))
        data += packed
    chunks.append((0xFFFFFFFF, sectors, 0, len(data), 0))
    mish = struct.pack(">4sIQQQII", b"mish", 1, first_sector, sectors, 0, 0x208, 0) + bytes(24)
    mish += struct.pack(">II", 2, 0) + bytes(128) + struct.pack(">I", len(chunks))
    for kind, first, count, offset, length in chunks:
        mish += struct.pack(">IIQQQQ", kind, 0, first, count, offset, length)
    return mish, data


HFS_TYPE = bytes.fromhex("005346480000aa11aa1100306543ecac")  # 48465300-0000-11AA-AA11-00306543ECAC


def gpt_partitions(volume):
    """The disk `hdiutil` lays out with a GUID partition map: (name, first sector, bytes) for
    the protective MBR, the GPT header and table, the free space, the volume, and the backups."""
    vol_sectors = len(volume) // SECTOR
    first, last_usable = 40, 40 + vol_sectors + 7
    total = last_usable + 1 + 32 + 1
    entry = HFS_TYPE + bytes(range(16)) + struct.pack("<QQQ", first, first + vol_sectors - 1, 0)
    entry += "disk image".encode("utf-16-le").ljust(72, b"\0")
    table = entry.ljust(128 * 128, b"\0")

    def header(current, backup, entries_at):
        h = struct.pack("<8sIIIIQQQQ16sQIII", b"EFI PART", 0x10000, 92, 0, 0, current, backup,
                        34, last_usable, bytes(range(16, 32)), entries_at, 128, 128,
                        zlib.crc32(table))
        h = h[:16] + struct.pack("<I", zlib.crc32(h)) + h[20:]
        return h.ljust(SECTOR, b"\0")

    mbr = bytearray(SECTOR)
    mbr[446:462] = struct.pack("<BBBBBBBBII", 0, 0, 2, 0, 0xEE, 0xFF, 0xFF, 0xFF, 1,
                               min(total - 1, 0xFFFFFFFF))
    mbr[510:512] = b"\x55\xaa"
    return [
        ("Protective Master Boot Record (MBR : 0)", 0, bytes(mbr)),
        ("GPT Header (Primary GPT Header : 1)", 1, header(1, total - 1, 2)),
        ("GPT Partition Data (Primary GPT Table : 2)", 2, table),
        (" (Apple_Free : 3)", 34, bytes(6 * SECTOR)),
        ("disk image (Apple_HFSX : 4)", first, volume),
        (" (Apple_Free : 5)", first + vol_sectors, bytes(8 * SECTOR)),
        ("GPT Partition Data (Backup GPT Table : 6)", last_usable + 1, table),
        ("GPT Header (Backup GPT Header : 7)", total - 1, header(total - 1, 1, last_usable + 1)),
    ]


def udif(volume, method, layout="volume"):
    """The UDIF image of `volume`: alone on the disk, or (`gpt`) in a GUID partition map as
    `hdiutil` writes one; each partition a block map of runs of 64 KiB."""
    if layout == "gpt":
        partitions = gpt_partitions(volume)
    else:
        partitions = [("disk image (Apple_HFSX : 1)", 0, volume)]
    data, blkx = b"", []
    for number, (name, first, part) in enumerate(partitions):
        mish, data = mish_of(part, first, method, data)
        blkx.append({"Attributes": "0x0050", "CFName": name, "Data": mish,
                     "ID": str(number - 1), "Name": name})
    sectors = max(first + len(part) // SECTOR for _, first, part in partitions)
    plist = plistlib.dumps({"resource-fork": {"blkx": blkx}})
    koly = struct.pack(">4sIIIQQQQQII", b"koly", 4, 512, 1, 0, 0, len(data), 0, 0, 1, 1)
    koly += bytes(16) + struct.pack(">II", 2, 0) + bytes(128)
    koly += struct.pack(">QQ", len(data), len(plist)) + bytes(120)
    koly += struct.pack(">II", 2, 0) + bytes(128)
    koly += struct.pack(">IQIII", 1, sectors, 0, 0, 0)
    assert len(koly) == 512, len(koly)
    return data + plist + koly


def pack(src, dest, method="zlib", layout="volume", compression="plain"):
    vol = Volume()
    vol.compress = {"plain": False, "decmpfs": "zlib", "decmpfs-lzvn": "lzvn",
                    "decmpfs-lzfse": "lzfse"}[compression]
    volume = vol.image(src)
    with open(dest, "wb") as f:
        f.write(udif(volume, method, layout))


def listing(dmg):
    with tempfile.TemporaryDirectory() as tmp:
        # 7-Zip opens the image's HFS volume itself; its files land below the volume's name.
        subprocess.run(["7zz", "x", "-bd", "-y", "-snl", "-snld", f"-o{tmp}", dmg], check=True,
                       capture_output=True)
        volumes = os.listdir(tmp)
        assert len(volumes) == 1, volumes
        rows = tree_rows(os.path.join(tmp, volumes[0]))
        # 7-Zip writes an absolute link target below the output folder: what was stored is
        # the part after it.
        for row in rows:
            if row["link_target"] and row["link_target"].startswith(tmp + "/"):
                row["link_target"] = row["link_target"][len(tmp):]
        print_rows(rows)


if __name__ == "__main__":
    command, args = sys.argv[1], sys.argv[2:]
    {"pack": pack, "list": listing}[command](*args)

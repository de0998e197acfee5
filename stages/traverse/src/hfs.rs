//! HFS+ and HFSX volumes, as a disk image ([`crate::dmg`]) holds them: the file system of a
//! macOS application's `.dmg`.
//!
//! The volume header (at 1024) locates the catalog and extents-overflow B-trees. Every leaf of
//! the catalog is read by following the leaves' forward links from the first: folder and file
//! records give each item's parent, name (UTF-16, `/` stored as `:`), POSIX mode and data
//! fork. A file's data fork is its first eight extents, then those the extents-overflow tree
//! adds; a file in one run is a byte range of the volume, one in pieces is copied whole into
//! the in-memory file. Symlinks keep their target (their data fork), never followed; hard
//! links are read from the `iNode` file they name in the volume's private folder, which is
//! not listed itself. A file the file system compresses (decmpfs: the `UF_COMPRESSED` flag and
//! a `com.apple.decmpfs` attribute in the attributes B-tree) is decompressed into the
//! in-memory file: zlib, LZVN or LZFSE, in the attribute (types 3, 7, 11) or in chunks of its
//! resource fork (types 4, 8, 12), LZVN and LZFSE through Apple's reference decoder. A file
//! whose bytes lie where the image could not be decoded is unavailable with the reason.

use std::collections::{BTreeMap, HashMap};

use rea_core::Failure;

use crate::entry::{ArchiveRange, Entry, EntryKind, EntrySource};
use crate::nested::Walk;

/// What a volume's signature says it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    Hfs,
    Apfs,
}

/// The root folder's catalog id.
const ROOT: u32 = 2;
/// The file system's private folders: hard links' files, directory hard links.
const PRIVATE_FILES: &str = "\0\0\0\0HFS+ Private Data";
const PRIVATE_DIRS: &str = ".HFS+ Private Directory Data\r";
/// The BSD flag of a file the file system compresses (decmpfs).
const UF_COMPRESSED: u8 = 0x20;
/// The most catalog or extents-tree bytes read (a catalog of 56,000 files takes about 20 MB).
const MAX_TREE: u64 = 256 << 20;

fn be16(b: &[u8], at: usize) -> Option<u16> {
    Some(u16::from_be_bytes(b.get(at..at + 2)?.try_into().ok()?))
}

fn be32(b: &[u8], at: usize) -> Option<u32> {
    Some(u32::from_be_bytes(b.get(at..at + 4)?.try_into().ok()?))
}

fn be64(b: &[u8], at: usize) -> Option<u64> {
    Some(u64::from_be_bytes(b.get(at..at + 8)?.try_into().ok()?))
}

/// What the volume at `volume` is, by its signature: HFS+ (`H+`) or HFSX (`HX`) at 1024, or an
/// APFS container (`NXSB` at 32).
pub(crate) fn signature(volume: &ArchiveRange) -> Option<Kind> {
    let mut sig = [0u8; 4];
    if volume.read_at(1024, &mut sig[..2]).is_some() && matches!(&sig[..2], b"H+" | b"HX") {
        return Some(Kind::Hfs);
    }
    (volume.read_at(32, &mut sig).is_some() && &sig == b"NXSB").then_some(Kind::Apfs)
}

/// A fork: its logical size and its extents (start block, block count).
#[derive(Debug, Clone, Default)]
struct Fork {
    size: u64,
    extents: Vec<(u32, u32)>,
}

impl Fork {
    fn parse(b: &[u8], at: usize) -> Option<Fork> {
        let size = be64(b, at)?;
        let mut extents = Vec::new();
        for i in 0..8 {
            let (start, count) = (be32(b, at + 16 + 8 * i)?, be32(b, at + 20 + 8 * i)?);
            if count > 0 {
                extents.push((start, count));
            }
        }
        Some(Fork { size, extents })
    }
}

/// A fork of a file: its catalog id, and [`DATA`] or [`RESOURCE`].
type ForkKey = (u32, u8);
const DATA: u8 = 0x00;
const RESOURCE: u8 = 0xFF;

/// A volume being read: where it is, its block size, and the extents-overflow records.
struct Volume<'a> {
    range: &'a ArchiveRange,
    block: u64,
    /// The extents past a fork's first eight, in order.
    overflow: HashMap<ForkKey, Vec<(u32, u32)>>,
}

impl Volume<'_> {
    /// The byte runs (offset in the volume, length) of a fork of `file`, its extents
    /// completed from the overflow tree; an error when they do not cover its size.
    fn runs(&self, (file, kind): ForkKey, fork: &Fork) -> Result<Vec<(u64, u64)>, String> {
        let mut extents = fork.extents.clone();
        if let Some(more) = self.overflow.get(&(file, kind)) {
            extents.extend(more);
        }
        let mut runs: Vec<(u64, u64)> = Vec::new();
        let mut left = fork.size;
        for (start, count) in extents {
            if left == 0 {
                break;
            }
            let len = (u64::from(count) * self.block).min(left);
            let at = u64::from(start) * self.block;
            if at.checked_add(len).is_none_or(|end| end > self.range.len) {
                return Err("its extents lie outside the volume".to_owned());
            }
            match runs.last_mut() {
                Some(last) if last.0 + last.1 == at => last.1 += len,
                _ => runs.push((at, len)),
            }
            left -= len;
        }
        if left > 0 {
            return Err(format!(
                "its extents hold {} of its {} bytes",
                fork.size - left,
                fork.size
            ));
        }
        Ok(runs)
    }

    /// A whole fork's bytes (a B-tree, a symlink's target), at most `max`.
    fn read(&self, file: ForkKey, fork: &Fork, max: u64) -> Result<Vec<u8>, String> {
        if fork.size > max {
            return Err(format!("it declares {} bytes", fork.size));
        }
        let mut out = vec![0u8; fork.size as usize];
        let mut at = 0usize;
        for (offset, len) in self.runs(file, fork)? {
            let len = len as usize;
            self.range
                .read_at(offset, &mut out[at..at + len])
                .ok_or("its bytes could not be read")?;
            at += len;
        }
        Ok(out)
    }
}

/// The records of every leaf of a B-tree (`tree`, its nodes end to end), in order: each
/// record's bytes. Leaves are followed by their forward links from the first, each at most once.
fn leaf_records(tree: &[u8]) -> Result<Vec<&[u8]>, String> {
    let header_end = 14 + 106;
    if tree.len() < header_end {
        return Err("its B-tree header is cut short".to_owned());
    }
    let first = be32(tree, 14 + 10).unwrap_or(0);
    let node_size = usize::from(be16(tree, 14 + 18).unwrap_or(0));
    if !(512..=32768).contains(&node_size) || !node_size.is_power_of_two() {
        return Err(format!("its B-tree declares nodes of {node_size} bytes"));
    }
    let nodes = tree.len() / node_size;
    let mut seen = vec![false; nodes];
    let mut records = Vec::new();
    let mut next = first as usize;
    while next != 0 {
        if next >= nodes || seen[next] {
            return Err(format!(
                "its B-tree's leaf chain reaches node {next} twice or past its end"
            ));
        }
        seen[next] = true;
        let node = &tree[next * node_size..(next + 1) * node_size];
        if node[8] != 0xFF {
            return Err(format!(
                "its B-tree's leaf chain reaches node {next}, not a leaf"
            ));
        }
        let count = usize::from(be16(node, 10).unwrap_or(0));
        for i in 0..count {
            let start = usize::from(be16(node, node_size - 2 * (i + 1)).unwrap_or(0));
            let end = usize::from(be16(node, node_size - 2 * (i + 2)).unwrap_or(0));
            if start < 14 || end < start || end > node_size - 2 * (count + 1) {
                return Err(format!("a record of node {next} lies outside it"));
            }
            records.push(&node[start..end]);
        }
        next = be32(node, 0).unwrap_or(0) as usize;
    }
    Ok(records)
}

/// One catalog item.
#[derive(Debug)]
struct Item {
    parent: u32,
    name: String,
    kind: ItemKind,
}

#[derive(Debug)]
enum ItemKind {
    Folder,
    File {
        mode: u16,
        owner_flags: u8,
        /// File type and creator (`hlnk`/`hfs+` marks a hard link, `slnk` a symlink).
        type_creator: [u8; 8],
        /// The iNode number a hard link names.
        special: u32,
        data: Fork,
        resource: Fork,
    },
}

/// Reads a catalog record: its key's parent and name, then a folder or file record (threads
/// and anything else: `None`).
fn catalog_item(record: &[u8]) -> Option<(u32, Item)> {
    let key_len = usize::from(be16(record, 0)?);
    let parent = be32(record, 2)?;
    let units = usize::from(be16(record, 6)?);
    let name_bytes = record.get(8..8 + 2 * units)?;
    let name: String = char::decode_utf16(
        name_bytes
            .chunks_exact(2)
            .map(|u| u16::from_be_bytes([u[0], u[1]])),
    )
    .map(|c| c.unwrap_or(char::REPLACEMENT_CHARACTER))
    .map(|c| if c == '/' { ':' } else { c })
    .collect();
    let data = record.get(2 + key_len..)?;
    match be16(data, 0)? {
        1 => Some((
            be32(data, 8)?,
            Item {
                parent,
                name,
                kind: ItemKind::Folder,
            },
        )),
        2 => {
            let mut type_creator = [0u8; 8];
            type_creator.copy_from_slice(data.get(48..56)?);
            Some((
                be32(data, 8)?,
                Item {
                    parent,
                    name,
                    kind: ItemKind::File {
                        mode: be16(data, 42)?,
                        owner_flags: *data.get(41)?,
                        type_creator,
                        special: be32(data, 44)?,
                        data: Fork::parse(data, 88)?,
                        resource: Fork::parse(data, 168)?,
                    },
                },
            ))
        }
        _ => None,
    }
}

/// Lists the HFS+ volume at `volume` below `prefix`: every folder, file and symlink under its
/// root. `broken` are the byte ranges of the disk (`volume.base` is where the volume starts)
/// that could not be decoded, with why.
pub(crate) fn list(
    walk: &mut Walk<'_, '_>,
    volume: &ArchiveRange,
    prefix: &str,
    broken: &[(u64, u64, String)],
) -> Result<BTreeMap<String, Entry>, Failure> {
    const WHAT: &str = "HFS+ volume";
    let unreadable = |problem: String| volume.unreadable(WHAT, problem);
    let mut header = [0u8; 512];
    volume
        .read_at(1024, &mut header)
        .ok_or_else(|| unreadable("its volume header is cut short".to_owned()))?;
    let block = u64::from(be32(&header, 40).unwrap_or(0));
    if !(512..=1 << 20).contains(&block) || !block.is_power_of_two() {
        return Err(unreadable(format!("it declares blocks of {block} bytes")));
    }
    let extents_fork = Fork::parse(&header, 192).unwrap_or_default();
    let catalog_fork = Fork::parse(&header, 272).unwrap_or_default();
    let mut vol = Volume {
        range: volume,
        block,
        overflow: HashMap::new(),
    };
    // The extents-overflow tree (file 3), read from its own first eight extents.
    if extents_fork.size > 0 {
        let tree = vol
            .read((3, DATA), &extents_fork, MAX_TREE)
            .map_err(|why| unreadable(format!("its extents tree: {why}")))?;
        // (file id, fork type) → (the extent record's first block in the fork, start, count).
        let mut overflow: HashMap<ForkKey, Vec<(u32, u32, u32)>> = HashMap::new();
        for record in
            leaf_records(&tree).map_err(|why| unreadable(format!("its extents tree: {why}")))?
        {
            // Key: length, fork type, pad, file id, start block; then eight extents.
            let (Some(fork_type), Some(file), Some(start)) =
                (record.get(2).copied(), be32(record, 4), be32(record, 8))
            else {
                continue;
            };
            let list = overflow.entry((file, fork_type)).or_default();
            for i in 0..8 {
                if let (Some(at), Some(count)) =
                    (be32(record, 12 + 8 * i), be32(record, 16 + 8 * i))
                    && count > 0
                {
                    list.push((start, at, count));
                }
            }
        }
        for (key, mut list) in overflow {
            list.sort_by_key(|&(start, _, _)| start);
            vol.overflow.insert(
                key,
                list.into_iter().map(|(_, at, count)| (at, count)).collect(),
            );
        }
    }
    // The attributes tree (file 8): each file's com.apple.decmpfs attribute, when inline.
    let attributes_fork = Fork::parse(&header, 352).unwrap_or_default();
    let mut decmpfs: HashMap<u32, Vec<u8>> = HashMap::new();
    if attributes_fork.size > 0 {
        match vol.read((8, DATA), &attributes_fork, MAX_TREE) {
            Ok(tree) => match leaf_records(&tree) {
                Ok(records) => {
                    for record in records {
                        if let Some((file, value)) = decmpfs_attribute(record) {
                            decmpfs.insert(file, value.to_vec());
                        }
                    }
                }
                Err(why) => walk
                    .notes
                    .skip(prefix, format!("its attributes tree: {why}")),
            },
            Err(why) => walk
                .notes
                .skip(prefix, format!("its attributes tree: {why}")),
        }
    }
    let tree = vol
        .read((4, DATA), &catalog_fork, MAX_TREE)
        .map_err(|why| unreadable(format!("its catalog: {why}")))?;
    let mut items: HashMap<u32, Item> = HashMap::new();
    for record in leaf_records(&tree).map_err(|why| unreadable(format!("its catalog: {why}")))? {
        walk.cx.check()?;
        if let Some((id, item)) = catalog_item(record) {
            items.insert(id, item);
        }
    }
    // The private folders: not listed; hard links read their iNode files from the first.
    let private: Vec<u32> = items
        .iter()
        .filter(|(_, item)| {
            item.parent == ROOT && (item.name == PRIVATE_FILES || item.name == PRIVATE_DIRS)
        })
        .map(|(&id, _)| id)
        .collect();
    let inodes: HashMap<&str, u32> = items
        .iter()
        .filter(|(_, item)| private.contains(&item.parent))
        .map(|(&id, item)| (item.name.as_str(), id))
        .collect();

    // Each item's path below the root, its folders named upwards (a chain that never reaches
    // the root, loops, or climbs through a file, is skipped).
    let path_of = |id: u32| -> Option<String> {
        let mut names = Vec::new();
        let mut at = id;
        while at != ROOT {
            let item = items.get(&at)?;
            let folder = matches!(item.kind, ItemKind::Folder);
            if names.len() > 4096 || private.contains(&at) || (!names.is_empty() && !folder) {
                return None;
            }
            names.push(item.name.as_str());
            at = item.parent;
        }
        names.reverse();
        Some(names.join("/"))
    };
    let memory_bound = crate::nested::decompression_bound(walk.limits, volume.len);
    let mut pieces: Option<crate::nested::Memory> = None;
    let mut members = BTreeMap::new();
    let mut ids: Vec<u32> = items.keys().copied().collect();
    ids.sort_unstable();
    for id in ids {
        walk.cx.check()?;
        let item = &items[&id];
        let Some(relative) = path_of(id) else {
            continue;
        };
        if relative.is_empty() {
            continue;
        }
        let Some(logical_path) = walk.member_path(prefix, &relative) else {
            continue;
        };
        let entry = match &item.kind {
            ItemKind::Folder => Entry::directory(logical_path),
            ItemKind::File {
                type_creator,
                special,
                ..
            } => {
                // A hard link reads the file it names.
                let target = if type_creator == b"hlnkhfs+" {
                    inodes.get(format!("iNode{special}").as_str()).copied()
                } else {
                    Some(id)
                };
                match target.and_then(|t| Some((t, items.get(&t)?))) {
                    Some((
                        file_id,
                        Item {
                            kind:
                                ItemKind::File {
                                    mode,
                                    owner_flags,
                                    data,
                                    resource,
                                    ..
                                },
                            ..
                        },
                    )) => {
                        let file = FileFork {
                            id: file_id,
                            mode: *mode,
                            owner_flags: *owner_flags,
                            data,
                            resource,
                        };
                        file_entry(
                            walk,
                            &vol,
                            logical_path,
                            &file,
                            &decmpfs,
                            broken,
                            &mut pieces,
                            memory_bound,
                        )?
                    }
                    _ => {
                        let mut entry = Entry::bare(logical_path, EntryKind::File);
                        entry.limitations.push(format!(
                            "not read: a hard link to iNode{special}, which the volume does not hold"
                        ));
                        entry
                    }
                }
            }
        };
        crate::nested::keep_last(&mut members, entry, prefix, &mut walk.notes);
    }
    Ok(members)
}

/// The file whose bytes an entry reads (the link's target, for a hard link).
struct FileFork<'a> {
    id: u32,
    mode: u16,
    owner_flags: u8,
    data: &'a Fork,
    resource: &'a Fork,
}

/// The entry of one file record: a symlink with its target, or a file with its bytes located
/// (decompressed first when the file system compresses it).
#[allow(clippy::too_many_arguments)]
fn file_entry(
    walk: &Walk<'_, '_>,
    vol: &Volume<'_>,
    logical_path: String,
    file: &FileFork<'_>,
    decmpfs: &HashMap<u32, Vec<u8>>,
    broken: &[(u64, u64, String)],
    pieces: &mut Option<crate::nested::Memory>,
    bound: u64,
) -> Result<Entry, Failure> {
    if file.mode & 0o170000 == 0o120000 {
        let mut entry = Entry::bare(logical_path, EntryKind::Symlink);
        match vol.read((file.id, DATA), file.data, 4096) {
            Ok(target) => entry.link_target = Some(String::from_utf8_lossy(&target).into_owned()),
            Err(why) => entry
                .limitations
                .push(format!("its target was not read: {why}")),
        }
        return Ok(entry);
    }
    let mut entry = Entry::bare(logical_path, EntryKind::File);
    entry.declared_size = Some(file.data.size);
    entry.executable = file.mode & 0o111 != 0;
    let located = if file.owner_flags & UF_COMPRESSED != 0 {
        match decompressed(vol, file, decmpfs.get(&file.id), bound) {
            Ok(bytes) => {
                entry.declared_size = Some(bytes.len() as u64);
                held(walk, vol, pieces, bound, vec![Box::new(&bytes[..])])?
            }
            Err(why) => Err(why),
        }
    } else {
        file_source(walk, vol, file.id, file.data, broken, pieces, bound)?
    };
    match located {
        Ok(source) => entry.source = source,
        Err(why) => entry.limitations.push(format!("not read: {why}")),
    }
    Ok(entry)
}

/// A `com.apple.decmpfs` attribute stored inline: the file it belongs to and its value.
fn decmpfs_attribute(record: &[u8]) -> Option<(u32, &[u8])> {
    // Key: length, pad, file id, start block, name (UTF-16); then the record.
    let key_len = usize::from(be16(record, 0)?);
    let file = be32(record, 4)?;
    let units = usize::from(be16(record, 12)?);
    let name = record.get(14..14 + 2 * units)?;
    let wanted = "com.apple.decmpfs"
        .encode_utf16()
        .flat_map(u16::to_be_bytes);
    if !name.iter().copied().eq(wanted) {
        return None;
    }
    let data = record.get(2 + key_len..)?;
    // Inline data (0x10): type, two reserved words, its size, then the value.
    if be32(data, 0)? != 0x10 {
        return None;
    }
    let size = be32(data, 12)? as usize;
    Some((file, data.get(16..16 + size)?))
}

/// The bytes of a file the file system compresses, from its `com.apple.decmpfs` attribute:
/// types 3 (zlib), 7 (LZVN) and 11 (LZFSE) hold them in the attribute; types 4, 8 and 12 in the
/// resource fork as chunks of 64 KiB (type 4 behind a resource header and a table of offsets
/// and lengths, types 8 and 12 behind a table of offsets). A chunk may be stored instead, after
/// a marker byte. At most `bound` bytes.
fn decompressed(
    vol: &Volume<'_>,
    file: &FileFork<'_>,
    attribute: Option<&Vec<u8>>,
    bound: u64,
) -> Result<Vec<u8>, String> {
    let attribute =
        attribute.ok_or("the file system compresses it, but its decmpfs attribute is missing")?;
    if attribute.len() < 16 || &attribute[..4] != b"fpmc" {
        return Err("its decmpfs attribute has no decmpfs header".to_owned());
    }
    let le32 = |b: &[u8], at: usize| {
        b.get(at..at + 4)
            .map(|w| u32::from_le_bytes([w[0], w[1], w[2], w[3]]))
    };
    let kind = le32(attribute, 4).unwrap_or(0);
    let size = u64::from(le32(attribute, 8).unwrap_or(0))
        | u64::from(le32(attribute, 12).unwrap_or(0)) << 32;
    if size > bound {
        return Err(format!(
            "it decompresses to {size} bytes, more than the {bound} it may take in memory"
        ));
    }
    let mut out = Vec::with_capacity(size as usize);
    match kind {
        3 => inflate_chunk(&attribute[16..], size, &mut out)?,
        4 => {
            let fork = vol.read((file.id, RESOURCE), file.resource, MAX_TREE)?;
            let at = be32(&fork, 0).ok_or("its resource fork has no header")? as usize;
            let payload = fork
                .get(at + 4..)
                .ok_or("its resource fork's data lies outside it")?;
            let count = le32(payload, 0).ok_or("its resource fork has no chunk table")? as usize;
            for i in 0..count {
                let (Some(offset), Some(len)) =
                    (le32(payload, 4 + 8 * i), le32(payload, 8 + 8 * i))
                else {
                    return Err("its chunk table is cut short".to_owned());
                };
                let chunk = payload
                    .get(offset as usize..offset as usize + len as usize)
                    .ok_or("a chunk lies outside its resource fork")?;
                inflate_chunk(chunk, size - out.len() as u64, &mut out)?;
            }
        }
        7 | 11 => {
            let decode = if kind == 7 { lzvn_chunk } else { lzfse_chunk };
            decode(&attribute[16..], size as usize, &mut out)?;
        }
        8 | 12 => {
            let decode = if kind == 8 { lzvn_chunk } else { lzfse_chunk };
            let fork = vol.read((file.id, RESOURCE), file.resource, MAX_TREE)?;
            // A table of little-endian offsets into the fork, one more than the chunks of
            // 64 KiB the file takes: chunk i lies between offsets i and i + 1.
            let chunks = size.div_ceil(CHUNK) as usize;
            let offset = |i: usize| {
                le32(&fork, 4 * i)
                    .map(|o| o as usize)
                    .ok_or("its chunk table is cut short")
            };
            for i in 0..chunks {
                let (start, end) = (offset(i)?, offset(i + 1)?);
                let chunk = fork
                    .get(start..end)
                    .ok_or("a chunk lies outside its resource fork")?;
                let want = (size - out.len() as u64).min(CHUNK) as usize;
                decode(chunk, want, &mut out)?;
            }
        }
        other => {
            return Err(format!(
                "the file system compresses it with decmpfs type {other}, which REA does not read"
            ));
        }
    }
    if out.len() as u64 != size {
        return Err(format!(
            "it decompresses to {} bytes, not the {size} it declares",
            out.len()
        ));
    }
    Ok(out)
}

/// The bytes a decmpfs chunk in a resource fork holds, the last excepted.
const CHUNK: u64 = 64 << 10;

/// Appends one LZVN decmpfs chunk that holds `len` bytes to `out`: stored after a 0x06 byte,
/// or an LZVN stream, which Apple's reference decoder reads framed as one LZVN block of an
/// LZFSE stream (`bvxn`, the decoded and encoded sizes, then the end-of-stream `bvx$`).
fn lzvn_chunk(chunk: &[u8], len: usize, out: &mut Vec<u8>) -> Result<(), String> {
    if let Some((0x06, stored)) = chunk.split_first() {
        out.extend_from_slice(&stored[..stored.len().min(len)]);
        return Ok(());
    }
    let (Ok(raw), Ok(payload)) = (u32::try_from(len), u32::try_from(chunk.len())) else {
        return Err("an LZVN chunk is larger than a chunk holds".to_owned());
    };
    let mut framed = Vec::with_capacity(chunk.len() + 16);
    framed.extend_from_slice(b"bvxn");
    framed.extend_from_slice(&raw.to_le_bytes());
    framed.extend_from_slice(&payload.to_le_bytes());
    framed.extend_from_slice(chunk);
    framed.extend_from_slice(b"bvx$");
    decoded(crate::dmg::lzfse_decode(&framed, len), len, "LZVN", out)
}

/// Appends one LZFSE decmpfs chunk that holds `len` bytes to `out`: an LZFSE stream, or
/// stored after a 0xFF or 0x06 byte.
fn lzfse_chunk(chunk: &[u8], len: usize, out: &mut Vec<u8>) -> Result<(), String> {
    match chunk.split_first() {
        Some((0xFF | 0x06, stored)) if !chunk.starts_with(b"bvx") => {
            out.extend_from_slice(&stored[..stored.len().min(len)]);
            Ok(())
        }
        _ => decoded(crate::dmg::lzfse_decode(chunk, len), len, "LZFSE", out),
    }
}

/// Appends what a chunk decoded to, when it is the `len` bytes the chunk holds.
fn decoded(bytes: Vec<u8>, len: usize, what: &str, out: &mut Vec<u8>) -> Result<(), String> {
    if bytes.len() != len {
        return Err(format!(
            "a decmpfs {what} chunk decodes to {} bytes, not {len}",
            bytes.len()
        ));
    }
    out.extend_from_slice(&bytes);
    Ok(())
}

/// Appends one decmpfs chunk (zlib, or 0xFF then stored bytes) to `out`, at most `left` bytes.
fn inflate_chunk(chunk: &[u8], left: u64, out: &mut Vec<u8>) -> Result<(), String> {
    use std::io::Read;
    match chunk.split_first() {
        Some((0xFF, stored)) => {
            out.extend_from_slice(&stored[..stored.len().min(left as usize)]);
            Ok(())
        }
        _ => flate2::read::ZlibDecoder::new(chunk)
            .take(left)
            .read_to_end(out)
            .map(drop)
            .map_err(|err| format!("a decmpfs chunk does not inflate: {err}")),
    }
}

/// Holds `bytes` in the in-memory file for files stored in pieces: where they are.
fn held(
    walk: &Walk<'_, '_>,
    vol: &Volume<'_>,
    pieces: &mut Option<crate::nested::Memory>,
    bound: u64,
    readers: Vec<Box<dyn std::io::Read + '_>>,
) -> Result<Result<EntrySource, String>, Failure> {
    if pieces.is_none() {
        match crate::nested::Memory::new("the volume's files in pieces", bound) {
            Ok(memory) => *pieces = Some(memory),
            Err(note) => return Ok(Err(note)),
        }
    }
    let Some(memory) = pieces.as_mut() else {
        return Ok(Err("no in-memory file".to_owned()));
    };
    let too_much = format!(
        "the volume's files in pieces take more than the {bound} bytes they may take in memory"
    );
    // Appended one after another, the pieces are the file, contiguous.
    let (mut offset, mut total) = (None, 0u64);
    for reader in readers {
        match memory.append(walk.cx, reader, "a file in pieces", &too_much)? {
            Ok((start, n)) => {
                offset.get_or_insert(start);
                total += n;
            }
            Err(note) => return Ok(Err(note)),
        }
    }
    Ok(Ok(EntrySource::Range {
        archive: crate::entry::ArchiveFile {
            path: vol.range.archive.path.clone(),
            file: memory.file.clone(),
        },
        offset: offset.unwrap_or(0),
        len: total,
    }))
}

/// Where a file's bytes are: a range of the volume when they are one run, else a copy of its
/// runs in one in-memory file (`pieces`, made on first use).
fn file_source(
    walk: &Walk<'_, '_>,
    vol: &Volume<'_>,
    file: u32,
    data: &Fork,
    broken: &[(u64, u64, String)],
    pieces: &mut Option<crate::nested::Memory>,
    bound: u64,
) -> Result<Result<EntrySource, String>, Failure> {
    let runs = match vol.runs((file, DATA), data) {
        Ok(runs) => runs,
        Err(why) => return Ok(Err(why)),
    };
    let base = vol.range.base;
    for &(at, len) in &runs {
        if let Some((_, _, why)) = broken
            .iter()
            .find(|(start, end, _)| base + at < *end && *start < base + at + len)
        {
            return Ok(Err(format!(
                "its bytes lie in a run of the image that could not be read: {why}"
            )));
        }
    }
    match runs.as_slice() {
        [] => Ok(Ok(EntrySource::Range {
            archive: vol.range.archive.clone(),
            offset: 0,
            len: 0,
        })),
        [(at, len)] => Ok(Ok(EntrySource::Range {
            archive: vol.range.archive.clone(),
            offset: base + at,
            len: *len,
        })),
        _ => {
            let readers: Vec<Box<dyn std::io::Read>> = runs
                .iter()
                .map(|&(at, len)| {
                    Box::new(crate::read::SeekRange::new(
                        vol.range.archive.file.clone(),
                        base + at,
                        len,
                    )) as Box<dyn std::io::Read>
                })
                .collect();
            held(walk, vol, pieces, bound, readers)
        }
    }
}

//! Cabinet files (`.cab`): what a Windows Installer package embeds its files in (the MSI
//! reader, [`crate::msi`], hands its embedded cabinets here), and a format of its own.
//!
//! A cabinet lists its files (name, size, folder, offset in the folder) and packs them into
//! folders, each one compressed stream of data blocks: stored, MSZIP (deflate blocks, each
//! primed with the previous 32 KiB) or LZX (the `lzxd` crate). Quantum is not read. Each
//! folder is decoded once from its start into an anonymous in-memory file, bounded like every
//! decompressed container (`max_entry_bytes`, [`crate::nested::MAX_INFLATED_ARCHIVE`],
//! `max_compression_ratio`), and its files become byte ranges of it. Every folder's place is
//! fixed from the file table first, so folders decode in parallel on the pool. A folder that
//! cannot be decoded (a block checksum that does not match, an unsupported method, a folder
//! continued from another cabinet) leaves its files unavailable with a limitation.
//!
//! The `cab` crate is not used for this: it decompresses a folder from its first block for
//! every file it opens, so a folder of N files costs N²/2 blocks, and its folder reader is
//! private (ARCHITECTURE.md, design decisions).

use std::collections::BTreeMap;

use rea_core::Failure;

use crate::entry::{ArchiveFile, ArchiveRange, Entry, EntryKind, EntrySource};
use crate::nested::{Memory, Walk};

/// The signature a cabinet starts with (`MSCF`, then a reserved zero word).
pub const SIGNATURE: [u8; 8] = *b"MSCF\0\0\0\0";

const WHAT: &str = "cabinet";

/// The header flag: the cabinet continues one before it (its names follow the header).
const PREV_CABINET: u16 = 0x0001;
/// The header flag: the cabinet is continued by another (its names follow the header).
const NEXT_CABINET: u16 = 0x0002;
/// The header flag: reserved areas are present (their sizes follow the header).
const RESERVE_PRESENT: u16 = 0x0004;
/// A file attribute: its name is UTF-8 (otherwise a code page, read here as Latin-1).
const NAME_IS_UTF: u16 = 0x0080;
/// A file attribute: run after extraction.
const EXECUTE: u16 = 0x0040;
/// The folder indices that say a file continues from or into another cabinet.
const CONTINUED: u16 = 0xFFFD;
/// The most a data block decompresses to (MSZIP and LZX frames are 32 KiB).
const MAX_BLOCK: usize = 1 << 15;

/// True when `name` is named like a cabinet.
pub fn is_cab_name(name: &str) -> bool {
    crate::path::has_suffix(name, ".cab")
}

/// True when `head` starts a cabinet.
pub fn looks_like_cab(head: &[u8]) -> bool {
    head.starts_with(&SIGNATURE)
}

/// How long the cabinet that `start` (its first 36 bytes) begins is, when those bytes are a
/// plausible cabinet header: the signature, format version 1.3, a declared length of at least
/// a header, a file table inside it, and at least one folder and one file. How an archive
/// appended to a program (a self-extractor, an IExpress package, a WiX bundle's container) is
/// told from the bytes `MSCF` anywhere else.
pub fn archive_len(start: &[u8]) -> Option<u64> {
    let start = start.get(..36)?;
    if !looks_like_cab(start) {
        return None;
    }
    let len = field(start, 8, 4).ok()?;
    let files_at = field(start, 16, 4).ok()?;
    let version = (start[25], start[24]);
    let (folders, files) = (field(start, 26, 2).ok()?, field(start, 28, 2).ok()?);
    (version == (1, 3) && len >= 36 && files_at >= 36 && files_at < len && folders > 0 && files > 0)
        .then_some(len)
}

/// One folder: where its data blocks start, how many there are, and how they are compressed.
#[derive(Debug, Clone)]
pub(crate) struct Folder {
    data_offset: u64,
    blocks: u16,
    method: u16,
}

/// One file of the cabinet's file table.
#[derive(Debug, Clone)]
pub(crate) struct CabFile {
    /// Its name as stored, with `\` separators.
    pub name: String,
    pub size: u32,
    folder: u16,
    offset: u32,
    pub attributes: u16,
}

/// A cabinet's tables.
#[derive(Debug)]
pub(crate) struct Cabinet {
    folders: Vec<Folder>,
    pub files: Vec<CabFile>,
    /// The size of each data block's reserved area.
    data_reserve: usize,
}

/// Reads `len` little-endian bytes at `at`, or says the table ends early.
fn field(bytes: &[u8], at: usize, len: usize) -> Result<u64, String> {
    let slice = bytes
        .get(at..at + len)
        .ok_or_else(|| format!("its tables end early (at byte {at})"))?;
    Ok(slice
        .iter()
        .rev()
        .fold(0u64, |value, &b| (value << 8) | u64::from(b)))
}

/// A NUL-terminated string at `at` (at most 256 bytes): its bytes and where it ends.
fn c_string(bytes: &[u8], at: usize) -> Result<(&[u8], usize), String> {
    let rest = bytes.get(at..).ok_or("its tables end early")?;
    let end = memchr::memchr(0, &rest[..rest.len().min(257)])
        .ok_or("a name is not terminated within 256 bytes")?;
    Ok((&rest[..end], at + end + 1))
}

/// Reads a cabinet's header, folder table and file table.
pub(crate) fn parse(source: &ArchiveRange) -> Result<Cabinet, String> {
    let mut head = [0u8; 36];
    source
        .read_at(0, &mut head)
        .ok_or("it is shorter than a cabinet header")?;
    if !looks_like_cab(&head) {
        return Err("it does not start with a cabinet signature".to_owned());
    }
    let files_at = field(&head, 16, 4)?;
    let n_folders = field(&head, 26, 2)? as usize;
    let n_files = field(&head, 28, 2)? as usize;
    let flags = field(&head, 30, 2)? as u16;
    if files_at >= source.len {
        return Err(format!("its file table starts at {files_at}, past its end"));
    }
    // The header and folder table (a reserved area of at most 65,535 bytes, two pairs of
    // names, then the folders), and the file table (at most 65,535 entries of 16 bytes and a
    // name of at most 256 bytes each): each read whole, within the cabinet.
    let region = |at: u64, len: u64| -> Result<Vec<u8>, String> {
        let mut bytes = vec![0u8; len.min(source.len - at) as usize];
        source
            .read_at(at, &mut bytes)
            .ok_or_else(|| "its tables could not be read".to_owned())?;
        Ok(bytes)
    };
    let bytes = region(0, 40 + 65_535 + 4 * 257 + n_folders as u64 * (8 + 255))?;
    let table = region(files_at, n_files as u64 * (16 + 257))?;
    let mut at = 36usize;
    let (mut folder_reserve, mut data_reserve) = (0usize, 0usize);
    if flags & RESERVE_PRESENT != 0 {
        let header_reserve = field(&bytes, 36, 2)? as usize;
        folder_reserve = field(&bytes, 38, 1)? as usize;
        data_reserve = field(&bytes, 39, 1)? as usize;
        at = 40 + header_reserve;
    }
    // The previous and next cabinets' names and disks: skipped.
    for flag in [PREV_CABINET, NEXT_CABINET] {
        if flags & flag != 0 {
            at = c_string(&bytes, at)?.1;
            at = c_string(&bytes, at)?.1;
        }
    }
    let mut folders = Vec::with_capacity(n_folders);
    for _ in 0..n_folders {
        folders.push(Folder {
            data_offset: field(&bytes, at, 4)?,
            blocks: field(&bytes, at + 4, 2)? as u16,
            method: field(&bytes, at + 6, 2)? as u16,
        });
        at += 8 + folder_reserve;
    }
    let mut files = Vec::with_capacity(n_files);
    let mut at = 0;
    for _ in 0..n_files {
        let size = field(&table, at, 4)? as u32;
        let offset = field(&table, at + 4, 4)? as u32;
        let folder = field(&table, at + 8, 2)? as u16;
        let attributes = field(&table, at + 14, 2)? as u16;
        let (name, next) = c_string(&table, at + 16)?;
        let name = if attributes & NAME_IS_UTF != 0 {
            String::from_utf8_lossy(name).into_owned()
        } else {
            name.iter().map(|&b| char::from(b)).collect()
        };
        files.push(CabFile {
            name,
            size,
            folder,
            offset,
            attributes,
        });
        at = next;
    }
    Ok(Cabinet {
        folders,
        files,
        data_reserve,
    })
}

/// Where a cabinet's files were decoded to: the in-memory file, and for each file (by index
/// in the file table) its offset there, or why it was not read.
pub(crate) struct Decoded {
    pub memory: ArchiveFile,
    pub files: Vec<Result<u64, String>>,
}

/// Decodes every folder of `cabinet` (read from `source`) into one in-memory file of at most
/// `bound` bytes. Only cancellation fails it; a cabinet whose files cannot be held at all says
/// why in the inner error.
pub(crate) fn decode(
    cx: &rea_exec::StageCx<'_>,
    source: &ArchiveRange,
    cabinet: &Cabinet,
    bound: u64,
) -> Result<Result<Decoded, String>, Failure> {
    // Each folder's span is what its files need of it; the folders sit end to end in memory.
    let mut spans = vec![0u64; cabinet.folders.len()];
    for file in &cabinet.files {
        if let Some(span) = spans.get_mut(usize::from(file.folder)) {
            *span = (*span).max(u64::from(file.offset) + u64::from(file.size));
        }
    }
    let mut bases = Vec::with_capacity(spans.len());
    let mut total = 0u64;
    for span in &spans {
        bases.push(total);
        total = total.saturating_add(*span);
    }
    if total > bound {
        return Ok(Err(format!(
            "not read: its files take {total} bytes, more than the {bound} they may take in memory (max_entry_bytes, max_compression_ratio)"
        )));
    }
    let memory = match Memory::new("the cabinet", bound) {
        Ok(memory) => memory,
        Err(note) => return Ok(Err(note)),
    };
    let outcomes: Vec<Result<Option<String>, Failure>> = {
        use rayon::prelude::*;
        (0..cabinet.folders.len())
            .into_par_iter()
            .map(|index| {
                let folder = &cabinet.folders[index];
                let place = Place {
                    memory: &memory.file,
                    base: bases[index],
                    span: spans[index],
                };
                decode_folder(cx, source, cabinet, folder, &place)
            })
            .collect()
    };
    let mut broken = Vec::with_capacity(outcomes.len());
    for outcome in outcomes {
        broken.push(outcome?);
    }
    let files = cabinet
        .files
        .iter()
        .map(|file| {
            if file.folder >= CONTINUED {
                return Err("not read: it continues from or into another cabinet".to_owned());
            }
            match broken.get(usize::from(file.folder)) {
                None => Err(format!(
                    "not read: its folder {} is not in the cabinet",
                    file.folder
                )),
                Some(Some(why)) => Err(format!("not read: its folder could not be decoded: {why}")),
                Some(None) => Ok(bases[usize::from(file.folder)] + u64::from(file.offset)),
            }
        })
        .collect();
    Ok(Ok(Decoded {
        memory: ArchiveFile {
            path: source.archive.path.clone(),
            file: memory.file.clone(),
        },
        files,
    }))
}

/// Where one folder's bytes go: `span` bytes at `base` of `memory`.
struct Place<'a> {
    memory: &'a std::fs::File,
    base: u64,
    span: u64,
}

/// How a folder's blocks are decompressed.
enum Codec {
    Stored,
    MsZip {
        inflate: flate2::Decompress,
        /// The last 32 KiB decoded: the next block's dictionary.
        window: Vec<u8>,
    },
    Lzx(Box<lzxd::Lzxd>),
}

impl Codec {
    fn of(method: u16) -> Result<Codec, String> {
        match method & 0x000F {
            0 => Ok(Codec::Stored),
            1 => Ok(Codec::MsZip {
                inflate: flate2::Decompress::new(false),
                window: Vec::with_capacity(MAX_BLOCK),
            }),
            3 => {
                use lzxd::WindowSize as W;
                let window = match (method >> 8) & 0x1F {
                    15 => W::KB32,
                    16 => W::KB64,
                    17 => W::KB128,
                    18 => W::KB256,
                    19 => W::KB512,
                    20 => W::MB1,
                    21 => W::MB2,
                    bits => return Err(format!("it declares an LZX window of 2^{bits} bytes")),
                };
                Ok(Codec::Lzx(Box::new(lzxd::Lzxd::new(window))))
            }
            2 => Err("it is Quantum-compressed, which REA does not read".to_owned()),
            other => Err(format!(
                "it uses compression method {other}, which is unknown"
            )),
        }
    }

    /// Decompresses one block of `data` to exactly `size` bytes into `out`.
    fn block(&mut self, data: &[u8], size: usize, out: &mut Vec<u8>) -> Result<(), String> {
        out.clear();
        match self {
            Codec::Stored => out.extend_from_slice(data),
            Codec::MsZip { inflate, window } => {
                let body = data
                    .strip_prefix(b"CK")
                    .ok_or("an MSZIP block does not start with its signature")?;
                inflate.reset(false);
                if !window.is_empty() {
                    inflate
                        .set_dictionary(window)
                        .map_err(|err| format!("an MSZIP block's history was refused: {err}"))?;
                }
                out.reserve(size);
                inflate
                    .decompress_vec(body, out, flate2::FlushDecompress::Finish)
                    .map_err(|err| format!("an MSZIP block does not inflate: {err}"))?;
                let keep = (window.len() + out.len()).saturating_sub(MAX_BLOCK);
                window.drain(..keep.min(window.len()));
                let from = out.len().saturating_sub(MAX_BLOCK);
                window.extend_from_slice(&out[from..]);
            }
            Codec::Lzx(lzx) => {
                let decoded = lzx
                    .decompress_next(data, size)
                    .map_err(|err| format!("an LZX block does not decode: {err}"))?;
                out.extend_from_slice(decoded);
            }
        }
        if out.len() != size {
            return Err(format!(
                "a block decoded to {} bytes where it declares {size}",
                out.len()
            ));
        }
        Ok(())
    }
}

/// The cabinet checksum of `data`, continuing from `seed`: its little-endian words XORed, the
/// trailing bytes folded in as the format defines.
fn checksum(data: &[u8], seed: u32) -> u32 {
    let mut words = data.chunks_exact(4);
    let mut sum = seed;
    for word in &mut words {
        sum ^= u32::from_le_bytes([word[0], word[1], word[2], word[3]]);
    }
    let tail = words
        .remainder()
        .iter()
        .fold(0u32, |value, &b| (value << 8) | u32::from(b));
    sum ^ tail
}

/// Decodes one folder's blocks into its place, until its span is filled. Only cancellation
/// fails it; a folder that cannot be decoded says why.
fn decode_folder(
    cx: &rea_exec::StageCx<'_>,
    source: &ArchiveRange,
    cabinet: &Cabinet,
    folder: &Folder,
    place: &Place<'_>,
) -> Result<Option<String>, Failure> {
    use std::os::unix::fs::FileExt;
    if place.span == 0 {
        return Ok(None);
    }
    let mut codec = match Codec::of(folder.method) {
        Ok(codec) => codec,
        Err(why) => return Ok(Some(why)),
    };
    let header_len = 8 + cabinet.data_reserve;
    let mut header = vec![0u8; header_len];
    let mut data = Vec::with_capacity(MAX_BLOCK * 2);
    let mut out = Vec::with_capacity(MAX_BLOCK);
    let (mut at, mut written) = (folder.data_offset, 0u64);
    for block in 0..folder.blocks {
        cx.check()?;
        if written >= place.span {
            break;
        }
        if source.read_at(at, &mut header).is_none() {
            return Ok(Some(format!(
                "its data block {block} is past the cabinet's end"
            )));
        }
        let stored_sum = u32::from_le_bytes([header[0], header[1], header[2], header[3]]);
        let packed = usize::from(u16::from_le_bytes([header[4], header[5]]));
        let size = usize::from(u16::from_le_bytes([header[6], header[7]]));
        data.resize(packed, 0);
        if source.read_at(at + header_len as u64, &mut data).is_none() {
            return Ok(Some(format!(
                "its data block {block} is past the cabinet's end"
            )));
        }
        at += (header_len + packed) as u64;
        if stored_sum != 0 {
            let mut whole = Vec::with_capacity(cabinet.data_reserve + packed);
            whole.extend_from_slice(&header[8..]);
            whole.extend_from_slice(&data);
            if checksum(&whole, 0) ^ checksum(&header[4..8], 0) != stored_sum {
                return Ok(Some(format!("its data block {block} fails its checksum")));
            }
        }
        if size > MAX_BLOCK {
            return Ok(Some(format!(
                "its data block {block} declares {size} bytes, more than a block holds"
            )));
        }
        if let Err(why) = codec.block(&data, size, &mut out) {
            return Ok(Some(format!("data block {block}: {why}")));
        }
        let keep = (place.span - written).min(out.len() as u64) as usize;
        if let Err(err) = place
            .memory
            .write_all_at(&out[..keep], place.base + written)
        {
            return Ok(Some(format!(
                "its bytes could not be held in memory: {err}"
            )));
        }
        written += keep as u64;
    }
    if written < place.span {
        return Ok(Some(format!(
            "its blocks hold {written} bytes where its files need {}",
            place.span
        )));
    }
    Ok(None)
}

/// Sends every file the cabinet holds below `prefix` (`""` at the root), then expands the
/// archives among them. A cabinet whose tables cannot be read fails with reason `format`
/// (nested: the container's note).
pub fn walk(walk: &mut Walk<'_, '_>, source: &ArchiveRange, prefix: &str) -> Result<(), Failure> {
    crate::nested::send_guarded(walk, source, prefix, WHAT, list_cabinet)
}

fn list_cabinet(
    walk: &mut Walk<'_, '_>,
    source: &ArchiveRange,
    prefix: &str,
) -> Result<BTreeMap<String, Entry>, Failure> {
    let cabinet = parse(source).map_err(|problem| source.unreadable(WHAT, problem))?;
    let bound = crate::nested::decompression_bound(walk.limits, source.len);
    let decoded = decode(walk.cx, source, &cabinet, bound)?;
    let mut members = BTreeMap::new();
    for (index, file) in cabinet.files.iter().enumerate() {
        walk.cx.check()?;
        let name = file.name.replace('\\', "/");
        let Some(logical_path) = walk.member_path(prefix, &name) else {
            continue;
        };
        let mut entry = Entry::bare(logical_path, EntryKind::File);
        entry.declared_size = Some(u64::from(file.size));
        entry.executable = file.attributes & EXECUTE != 0;
        match &decoded {
            Ok(decoded) => match &decoded.files[index] {
                Ok(offset) => {
                    entry.source = EntrySource::Range {
                        archive: decoded.memory.clone(),
                        offset: *offset,
                        len: u64::from(file.size),
                    }
                }
                Err(note) => entry.limitations.push(note.clone()),
            },
            Err(note) => entry.limitations.push(note.clone()),
        }
        crate::nested::keep_last(&mut members, entry, prefix, &mut walk.notes);
    }
    if let Err(note) = &decoded {
        walk.notes
            .skip(prefix, format!("its files were listed, {note}"));
    }
    Ok(members)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_checksum_folds_trailing_bytes_high_first() {
        // Words XORed little-endian; a tail of three bytes a, b, c is (a << 16) | (b << 8) | c.
        assert_eq!(checksum(&[1, 0, 0, 0, 2, 0, 0, 0], 0), 3);
        assert_eq!(checksum(&[0xAA, 0xBB, 0xCC], 0), 0x00AA_BBCC);
        assert_eq!(checksum(&[0x01], 0x10), 0x11);
    }

    #[test]
    fn headers_say_how_long_a_cabinet_is() {
        let mut head = [0u8; 36];
        head[..8].copy_from_slice(&SIGNATURE);
        head[8..12].copy_from_slice(&5000u32.to_le_bytes());
        head[16..20].copy_from_slice(&44u32.to_le_bytes());
        (head[24], head[25]) = (3, 1);
        head[26] = 1;
        head[28] = 2;
        assert_eq!(archive_len(&head), Some(5000));
        head[25] = 2;
        assert_eq!(archive_len(&head), None, "another format version");
        head[25] = 1;
        head[16..20].copy_from_slice(&6000u32.to_le_bytes());
        assert_eq!(archive_len(&head), None, "a file table past its end");
        assert_eq!(archive_len(&head[..35]), None);
    }

    #[test]
    fn names_and_signatures_say_what_is_a_cabinet() {
        assert!(is_cab_name("Disk1.CAB"));
        assert!(!is_cab_name("cabinet"));
        assert!(looks_like_cab(b"MSCF\0\0\0\0rest"));
        assert!(!looks_like_cab(b"MSCF\x01\0\0\0"));
    }
}

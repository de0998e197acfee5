//! 7z archives (`.7z`): what electron-builder packs an NSIS installer's application into
//! (`$PLUGINSDIR/app-64.7z`, LZMA2 with the BCJ filter), and what 7-Zip users ship.
//!
//! The `sevenz-rust2` crate reads the archive's header and decodes its blocks (LZMA, LZMA2,
//! PPMd, bzip2, deflate, copy, and the BCJ, BCJ2 and delta filters), checking each file's and
//! each block's CRC-32. A block is decoded from its start, so each file is decoded into one
//! anonymous in-memory file, bounded by `max_entry_bytes`,
//! [`crate::nested::MAX_INFLATED_ARCHIVE`] and `max_compression_ratio` times the archive's
//! size, and becomes a byte range of it: every file's place is fixed from the header first, so
//! the blocks decode in parallel on the pool (a non-solid archive, as electron-builder's
//! differential packages are, has one block per file). A block that cannot be decoded (an
//! unsupported method, a CRC failure, an encrypted block, which is never read) leaves its
//! files unavailable with a limitation, and the other blocks are still read.
//!
//! A member whose attributes carry Unix mode bits (7-Zip's `-snl` on Unix, p7zip) keeps its
//! executable bit; a Unix symlink is recorded with its target and never followed.

use std::collections::BTreeMap;
use std::io::Read;

use rea_core::Failure;
use sevenz_rust2::{Archive, ArchiveEntry, BlockDecoder, Password};

use crate::entry::{ArchiveFile, ArchiveRange, Entry, EntryKind, EntrySource};
use crate::nested::{Memory, Walk};
use crate::read::SeekRange;

/// The signature a 7z archive starts with.
pub const SIGNATURE: [u8; 6] = [b'7', b'z', 0xBC, 0xAF, 0x27, 0x1C];

/// The most memory one decoder's dictionary or model, or the archive's header, may ask for
/// (KiB): 7-Zip's largest preset dictionary is 1.5 GiB; what electron-builder writes is 64 MiB.
const MEMORY_LIMIT_KB: usize = 1 << 20;

/// The Windows attribute bit that says the high 16 bits hold a Unix mode.
const UNIX_EXTENSION: u32 = 0x8000;

/// True when `name` is named like a 7z archive.
pub fn is_7z_name(name: &str) -> bool {
    crate::path::has_suffix(name, ".7z")
}

/// True when `head` starts a 7z archive.
pub fn looks_like_7z(head: &[u8]) -> bool {
    head.starts_with(&SIGNATURE)
}

/// How long the 7z archive that `start` (its first 32 bytes) begins is, when those bytes are a
/// valid start header: the signature, then a CRC-32 of the next-header offset, size and CRC.
pub fn archive_len(start: &[u8]) -> Option<u64> {
    let start = start.get(..32)?;
    if !looks_like_7z(start) {
        return None;
    }
    let le32 = |b: &[u8]| u32::from_le_bytes([b[0], b[1], b[2], b[3]]);
    let le64 = |b: &[u8]| u64::from_le_bytes(b[..8].try_into().unwrap_or([0; 8]));
    if crc32fast::hash(&start[12..32]) != le32(&start[8..12]) {
        return None;
    }
    let (offset, size) = (le64(&start[12..20]), le64(&start[20..28]));
    32u64.checked_add(offset)?.checked_add(size)
}

/// Sends every file, directory and symlink the archive holds below `prefix` (`""` at the
/// root), then expands the archives among them. An archive whose header cannot be read fails
/// with reason `format` (nested: the container's note).
pub fn walk(walk: &mut Walk<'_, '_>, source: &ArchiveRange, prefix: &str) -> Result<(), Failure> {
    crate::nested::send_guarded(walk, source, prefix, WHAT, list_archive)
}

const WHAT: &str = "7z archive";

fn list_archive(
    walk: &mut Walk<'_, '_>,
    source: &ArchiveRange,
    prefix: &str,
) -> Result<BTreeMap<String, Entry>, Failure> {
    let (cx, limits) = (walk.cx, walk.limits);
    let mut input = std::io::BufReader::with_capacity(
        1 << 16,
        SeekRange::new(source.archive.file.clone(), source.base, source.len),
    );
    let password = Password::empty();
    let archive = Archive::read_with_memory_limit(&mut input, &password, MEMORY_LIMIT_KB)
        .map_err(|err| source.unreadable(WHAT, describe(&err)))?;
    let bound = crate::nested::decompression_bound(limits, source.len);
    let too_much = format!(
        "the archive decompresses to more than the {bound} bytes it may take in memory (max_entry_bytes, max_compression_ratio)"
    );
    let memory = Memory::new("the archive", bound).map_err(|note| source.unreadable(WHAT, note))?;
    let held = ArchiveFile {
        path: source.archive.path.clone(),
        file: memory.file.clone(),
    };
    // Every member as the header lists it; the decoded blocks then locate the files' bytes.
    let mut entries: Vec<Option<Entry>> = Vec::with_capacity(archive.files.len());
    for (index, file) in archive.files.iter().enumerate() {
        cx.check()?;
        entries.push(listed(walk, &archive, index, file, &held, prefix));
    }
    // Each streamed file's place in memory is decided before any block is decoded (files in
    // header order), so the blocks decode on every worker at once, each writing its files
    // where they go, and the result does not depend on which finishes first.
    let kinds: Vec<Option<EntryKind>> =
        entries.iter().map(|e| e.as_ref().map(|e| e.kind)).collect();
    let mut places: Vec<Option<u64>> = vec![None; archive.files.len()];
    let mut total = 0u64;
    for (index, file) in archive.files.iter().enumerate() {
        if file.has_stream && kinds[index] == Some(EntryKind::File) {
            places[index] = Some(total);
            total = total.saturating_add(file.size);
        }
    }
    if total > bound {
        let note = format!("not read: {too_much}");
        for entry in entries.iter_mut().flatten() {
            if entry.kind == EntryKind::File && matches!(entry.source, EntrySource::None) {
                entry.limitations.push(note.clone());
            }
        }
        walk.notes
            .skip(prefix, format!("its files were listed, {note}"));
    } else {
        use rayon::prelude::*;
        let file = &memory.file;
        let outcomes: Vec<Result<BlockRead, Failure>> = (0..archive.blocks.len())
            .into_par_iter()
            // One copy buffer per worker, not per block: a non-solid archive has a block per file.
            .map_init(
                || vec![0u8; 1 << 16],
                |buf, block| {
                    let blocks = Blocks {
                        source,
                        archive: &archive,
                        password: &password,
                        places: &places,
                        kinds: &kinds,
                        memory: file,
                    };
                    decode_block(cx, &blocks, block, buf)
                },
            )
            .collect();
        for (block, outcome) in outcomes.into_iter().enumerate() {
            let read = outcome?;
            for (index, target) in read.links {
                if let Some(Some(entry)) = entries.get_mut(index) {
                    entry.link_target = Some(target);
                }
            }
            for index in read.files {
                if let (Some(Some(entry)), Some(offset)) = (entries.get_mut(index), places[index]) {
                    entry.source = EntrySource::Range {
                        archive: held.clone(),
                        offset,
                        len: archive.files[index].size,
                    };
                }
            }
            if read.encrypted {
                mark_block(&archive, block, &mut entries, "encrypted: never read");
            }
            if let Some(why) = read.error {
                // Files of the block read before the failure were read whole and passed their
                // CRC-32; the rest of the block is unavailable.
                mark_block(
                    &archive,
                    block,
                    &mut entries,
                    &format!("not read: its block could not be decoded: {why}"),
                );
                walk.notes
                    .skip(prefix, format!("a block could not be decoded: {why}"));
            }
        }
    }
    let mut members = BTreeMap::new();
    for entry in entries.into_iter().flatten() {
        crate::nested::keep_last(&mut members, entry, prefix, &mut walk.notes);
    }
    Ok(members)
}

/// The entry one header member becomes, or `None` (with the container's note) for one that is
/// not kept: an unsafe name, an anti-item.
fn listed(
    walk: &mut Walk<'_, '_>,
    archive: &Archive,
    index: usize,
    file: &ArchiveEntry,
    held: &ArchiveFile,
    prefix: &str,
) -> Option<Entry> {
    let name = file.name.replace('\\', "/");
    if file.is_anti_item {
        walk.notes.skip(
            prefix,
            format!("{name} was skipped: an anti-item (a deletion marker)"),
        );
        return None;
    }
    let logical_path = walk.member_path(prefix, &name)?;
    let mode = (file.has_windows_attributes && file.windows_attributes & UNIX_EXTENSION != 0)
        .then_some(file.windows_attributes >> 16);
    let kind = if file.is_directory {
        EntryKind::Directory
    } else if mode.is_some_and(|mode| mode & 0o170000 == 0o120000) {
        EntryKind::Symlink
    } else {
        EntryKind::File
    };
    let mut entry = Entry::bare(logical_path, kind);
    if kind == EntryKind::File {
        entry.declared_size = Some(file.size);
        entry.executable = mode.is_some_and(|mode| mode & 0o111 != 0);
        if !file.has_stream {
            // An empty file: its bytes are none, located nowhere.
            entry.source = EntrySource::Range {
                archive: held.clone(),
                offset: 0,
                len: 0,
            };
        } else if archive.stream_map.file_block_index[index].is_none() {
            entry
                .limitations
                .push("not read: no block holds its data".to_owned());
        }
    }
    Some(entry)
}

/// The kept entries of `block`'s files.
fn block_entries<'e>(
    archive: &Archive,
    block: usize,
    entries: &'e mut [Option<Entry>],
) -> impl Iterator<Item = &'e mut Entry> {
    let files: Vec<usize> = (0..archive.files.len())
        .filter(|&i| archive.stream_map.file_block_index[i] == Some(block))
        .collect();
    entries
        .iter_mut()
        .enumerate()
        .filter(move |(i, _)| files.binary_search(i).is_ok())
        .filter_map(|(_, entry)| entry.as_mut())
}

/// Leaves every file of `block` whose bytes were not located unread, with `note` as its
/// limitation.
fn mark_block(archive: &Archive, block: usize, entries: &mut [Option<Entry>], note: &str) {
    for entry in block_entries(archive, block, entries) {
        let unread = matches!(entry.source, EntrySource::None);
        if entry.kind == EntryKind::File && unread && entry.declared_size != Some(0) {
            entry.limitations.push(note.to_owned());
        }
    }
}

/// What decoding one block found: the files read whole (by index), the symlinks' targets,
/// and why the rest of the block could not be read, if it could not.
#[derive(Default)]
struct BlockRead {
    files: Vec<usize>,
    links: Vec<(usize, String)>,
    error: Option<String>,
    encrypted: bool,
}

/// What every block's decoding shares: the archive, and where each file goes.
struct Blocks<'a> {
    source: &'a ArchiveRange,
    archive: &'a Archive,
    password: &'a Password,
    /// Each streamed file's place in `memory`.
    places: &'a [Option<u64>],
    kinds: &'a [Option<EntryKind>],
    memory: &'a std::fs::File,
}

/// Decodes `block` with a reader of its own, writing each file's bytes at its place in
/// memory through `buf`. Only cancellation fails it; a broken block says why in its result.
fn decode_block(
    cx: &rea_exec::StageCx<'_>,
    blocks: &Blocks<'_>,
    block: usize,
    buf: &mut [u8],
) -> Result<BlockRead, Failure> {
    let Blocks {
        source,
        archive,
        password,
        places,
        kinds,
        memory,
    } = *blocks;
    use std::os::unix::fs::FileExt;
    cx.check()?;
    let mut read = BlockRead::default();
    let first = archive.stream_map.block_first_file_index[block];
    if archive.is_file_encrypted(first) {
        read.encrypted = true;
        return Ok(read);
    }
    let mut input = std::io::BufReader::with_capacity(
        1 << 16,
        SeekRange::new(source.archive.file.clone(), source.base, source.len),
    );
    let decoder = BlockDecoder::new_with_memory_limit(
        1,
        MEMORY_LIMIT_KB,
        block,
        archive,
        password,
        &mut input,
    );
    let mut at = first;
    let mut stop: Option<Failure> = None;
    let decoded = decoder.for_each_entries(&mut |file: &ArchiveEntry, reader: &mut dyn Read| {
        let index = at;
        at += 1;
        if !file.has_stream {
            return Ok(true);
        }
        match kinds.get(index).copied().flatten() {
            Some(EntryKind::Symlink) => {
                let mut target = Vec::new();
                reader.take(4096).read_to_end(&mut target)?;
                read.links
                    .push((index, String::from_utf8_lossy(&target).into_owned()));
            }
            Some(EntryKind::File) => {
                let Some(place) = places[index] else {
                    return Ok(true);
                };
                let mut written = 0u64;
                loop {
                    if let Err(cancelled) = cx.check() {
                        stop = Some(cancelled.into());
                        return Ok(false);
                    }
                    let n = match reader.read(buf) {
                        Ok(0) => break,
                        Ok(n) => n,
                        // Its bytes did not decode, or failed their CRC-32: the block is broken
                        // from here on.
                        Err(err) => {
                            return Err(sevenz_rust2::Error::Other(io_problem(&err).into()));
                        }
                    };
                    if let Err(err) = memory.write_all_at(&buf[..n], place + written) {
                        return Err(sevenz_rust2::Error::Other(
                            format!("its bytes could not be held in memory: {err}").into(),
                        ));
                    }
                    written += n as u64;
                }
                read.files.push(index);
            }
            _ => {}
        }
        Ok(true)
    });
    if let Some(failure) = stop {
        return Err(failure);
    }
    if let Err(err) = decoded {
        read.error = Some(describe(&err));
    }
    Ok(read)
}

/// A block reader's failure, said plainly.
fn io_problem(err: &std::io::Error) -> String {
    err.get_ref()
        .and_then(|inner| inner.downcast_ref::<sevenz_rust2::Error>())
        .map_or_else(|| err.to_string(), describe)
}

fn describe(err: &sevenz_rust2::Error) -> String {
    match err {
        sevenz_rust2::Error::Other(text) | sevenz_rust2::Error::Unsupported(text) => {
            text.to_string()
        }
        sevenz_rust2::Error::ChecksumVerificationFailed => "a CRC-32 does not match".to_owned(),
        sevenz_rust2::Error::NextHeaderCrcMismatch => {
            "its header's CRC-32 does not match".to_owned()
        }
        sevenz_rust2::Error::PasswordRequired => "it is encrypted (never read)".to_owned(),
        sevenz_rust2::Error::UnsupportedCompressionMethod(method) if method.contains("AES") => {
            "it is encrypted (never read)".to_owned()
        }
        sevenz_rust2::Error::UnsupportedCompressionMethod(method) => {
            format!("it uses the {method} method, which REA does not read")
        }
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_start_headers_say_what_is_an_archive() {
        assert!(is_7z_name("app-64.7Z"));
        assert!(!is_7z_name("a.7zip"));
        let mut start = [0u8; 32];
        start[..6].copy_from_slice(&SIGNATURE);
        start[12..20].copy_from_slice(&100u64.to_le_bytes());
        start[20..28].copy_from_slice(&7u64.to_le_bytes());
        let crc = crc32fast::hash(&start[12..32]);
        start[8..12].copy_from_slice(&crc.to_le_bytes());
        assert_eq!(archive_len(&start), Some(139));
        start[12] ^= 1;
        assert_eq!(archive_len(&start), None);
        assert_eq!(archive_len(&start[..31]), None);
    }
}

//! RPM packages (`.rpm`): electron-builder's `rpm` target, what Fedora and openSUSE install.
//!
//! The `rpm` crate reads the package's headers; the payload (a cpio archive, compressed with
//! gzip, xz or zstd) is decompressed with the same crates as a compressed tar and read member by
//! member with the `cpio` crate (the `rpm` crate's own payload reader matches each member to its
//! header by a linear search: quadratic). A payload cannot be read in place, so each
//! file is decompressed into one anonymous in-memory file, bounded by `max_entry_bytes`,
//! [`crate::nested::MAX_INFLATED_ARCHIVE`] and `max_compression_ratio` times the package's
//! size, and becomes a byte range of it. The header's per-file digests (SHA-256 in packages
//! built since RPM 4.6 defaults) are declared integrity: the hash stage verifies every file
//! against them, as it does an ASAR's.

use std::collections::{BTreeMap, HashMap};
use std::io::Read;

use rea_core::Failure;

use crate::entry::{ArchiveFile, ArchiveRange, DeclaredIntegrity, Entry, EntryKind, EntrySource};
use crate::nested::{Memory, Walk};
use crate::read::SeekRange;

/// True when `name` is named like an RPM package.
pub fn is_rpm_name(name: &str) -> bool {
    crate::path::has_suffix(name, ".rpm")
}

/// True when `head` starts an RPM package (its lead's magic).
pub fn looks_like_rpm(head: &[u8]) -> bool {
    head.starts_with(&[0xED, 0xAB, 0xEE, 0xDB])
}

/// Sends every file, directory and symlink the package's payload holds below `prefix` (`""`
/// at the root), then expands the archives among them. A package whose headers or payload
/// cannot be read fails with reason `format` (nested: the container's note).
pub fn walk(walk: &mut Walk<'_, '_>, source: &ArchiveRange, prefix: &str) -> Result<(), Failure> {
    crate::nested::send_guarded(walk, source, prefix, "RPM package", list_payload)
}

fn list_payload(
    walk: &mut Walk<'_, '_>,
    source: &ArchiveRange,
    prefix: &str,
) -> Result<BTreeMap<String, Entry>, Failure> {
    const WHAT: &str = "RPM package";
    let (cx, limits) = (walk.cx, walk.limits);
    let mut input = std::io::BufReader::with_capacity(
        1 << 16,
        SeekRange::new(source.archive.file.clone(), source.base, source.len),
    );
    check_counts(source).map_err(|problem| source.unreadable(WHAT, problem))?;
    let metadata =
        rpm::PackageMetadata::parse(&mut input).map_err(|err| source.unreadable(WHAT, err))?;
    let headers = metadata
        .get_file_entries()
        .map_err(|err| source.unreadable(WHAT, err))?;
    // What the header says of each path, by path: the payload names its files in its own
    // order, and a linear search per file is quadratic (the `rpm` crate's own payload
    // iterator spent 167 s on a 56,000-file package).
    let declared: HashMap<String, usize> = headers
        .iter()
        .enumerate()
        .map(|(i, entry)| (relative(&entry.path()), i))
        .collect();
    let compression = metadata
        .get_payload_compressor()
        .map_err(|err| source.unreadable(WHAT, err))?;
    let mut stream: Box<dyn Read> = match compression {
        rpm::CompressionType::None => Box::new(input),
        rpm::CompressionType::Gzip => Box::new(flate2::bufread::MultiGzDecoder::new(input)),
        rpm::CompressionType::Xz => Box::new(liblzma::bufread::XzDecoder::new_multi_decoder(input)),
        rpm::CompressionType::Zstd => Box::new(
            zstd::stream::read::Decoder::with_buffer(input)
                .map_err(|err| source.unreadable(WHAT, err))?,
        ),
        other => {
            return Err(source.unreadable(WHAT, format!("its payload is {other}-compressed")));
        }
    };
    let bound = crate::nested::decompression_bound(limits, source.len);
    let too_much = format!(
        "the payload decompresses to more than the {bound} bytes it may take in memory (max_entry_bytes, max_compression_ratio)"
    );
    let mut memory =
        Memory::new("the payload", bound).map_err(|note| source.unreadable(WHAT, note))?;
    let archive = ArchiveFile {
        path: source.archive.path.clone(),
        file: memory.file.clone(),
    };
    let mut members: BTreeMap<String, Entry> = BTreeMap::new();
    let mut seen = vec![false; headers.len()];
    // Hard links: newc stores the data once, with the last link of a group.
    let mut links: HashMap<u32, Vec<String>> = HashMap::new();
    let mut count = 0usize;
    loop {
        cx.check()?;
        let mut reader = match cpio::newc::Reader::new(stream) {
            Ok(reader) => reader,
            Err(err) if count == 0 => return Err(source.unreadable(WHAT, err)),
            Err(err) => {
                walk.notes.skip(
                    prefix,
                    format!("the listing stops: the payload could not be read further: {err}"),
                );
                break;
            }
        };
        if reader.entry().is_trailer() {
            break;
        }
        count += 1;
        let (name, mode, size, ino, nlink) = {
            let e = reader.entry();
            (
                relative(std::path::Path::new(e.name())),
                e.mode(),
                e.file_size(),
                e.ino(),
                e.nlink(),
            )
        };
        let header = declared.get(&name).copied();
        if let Some(i) = header {
            seen[i] = true;
        }
        let mut item = None;
        match crate::zip::member_path(prefix, &name, limits) {
            Ok(logical_path) if !name.is_empty() => {
                let mut entry = Entry::bare(logical_path, EntryKind::File);
                let keep = match mode & 0o170000 {
                    0o040000 => {
                        entry.kind = EntryKind::Directory;
                        true
                    }
                    0o120000 => {
                        entry.kind = EntryKind::Symlink;
                        let mut target = Vec::new();
                        if (&mut reader).take(4096).read_to_end(&mut target).is_ok() {
                            entry.link_target = Some(String::from_utf8_lossy(&target).into_owned());
                        }
                        true
                    }
                    0o100000 => {
                        entry.executable = mode & 0o111 != 0;
                        entry.declared = header.and_then(|i| declared_integrity(&headers[i]));
                        entry.declared_size =
                            Some(header.map_or(u64::from(size), |i| headers[i].size() as u64));
                        if size == 0 && nlink > 1 && entry.declared_size != Some(0) {
                            // Its data comes with a later link of the group (an empty file
                            // has none to wait for).
                            links
                                .entry(ino)
                                .or_default()
                                .push(entry.logical_path.clone());
                        } else {
                            match memory.append(cx, &mut reader, "the payload", &too_much)? {
                                Ok((offset, len)) => {
                                    let range = EntrySource::Range {
                                        archive: archive.clone(),
                                        offset,
                                        len,
                                    };
                                    for path in links.remove(&ino).unwrap_or_default() {
                                        if let Some(linked) = members.get_mut(&path) {
                                            linked.source = range.clone();
                                        }
                                    }
                                    entry.source = range;
                                }
                                Err(note) => {
                                    walk.notes.skip(
                                        prefix,
                                        format!(
                                            "the listing stops at {}: {note}",
                                            entry.logical_path
                                        ),
                                    );
                                    entry.limitations.push(format!("not read: {note}"));
                                    crate::nested::keep_last(
                                        &mut members,
                                        entry,
                                        prefix,
                                        &mut walk.notes,
                                    );
                                    break;
                                }
                            }
                        }
                        true
                    }
                    _ => {
                        walk.notes.skip(
                            prefix,
                            format!("{} was skipped: a special file", entry.logical_path),
                        );
                        false
                    }
                };
                item = keep.then_some(entry);
            }
            Ok(_) => {}
            Err(note) => walk.notes.skip(prefix, note),
        }
        if let Some(entry) = item {
            crate::nested::keep_last(&mut members, entry, prefix, &mut walk.notes);
        }
        stream = match reader.finish() {
            Ok(inner) => inner,
            Err(err) => {
                walk.notes.skip(
                    prefix,
                    format!("the listing stops: the payload could not be read further: {err}"),
                );
                break;
            }
        };
    }
    for path in links.into_values().flatten() {
        if let Some(linked) = members.get_mut(&path) {
            linked
                .limitations
                .push("a hard link whose data the payload does not hold".to_owned());
        }
    }
    // Files the package declares but does not ship (`%ghost`).
    for (i, entry) in headers.iter().enumerate() {
        if seen[i] || !entry.flags().contains(rpm::FileFlags::GHOST) {
            continue;
        }
        let name = relative(&entry.path());
        let Ok(logical_path) = crate::zip::member_path(prefix, &name, limits) else {
            continue;
        };
        let mut ghost = Entry::bare(logical_path, EntryKind::File);
        ghost.declared_size = Some(entry.size() as u64);
        ghost.limitations.push(
            "declared by the package (a %ghost file) but not shipped in its payload".to_owned(),
        );
        crate::nested::keep_last(&mut members, ghost, prefix, &mut walk.notes);
    }
    Ok(members)
}

/// Checks what the `rpm` crate trusts before it allocates: every header index entry's item
/// count against its header's data size (an item takes at least a byte of it). The crate sizes
/// arrays by that count before reading the data, so one flipped count asked for 43 GB and
/// aborted the process (found by the fuzz test). Only the header's layout is read here: the
/// 96-byte lead, then each header's 16-byte intro (magic, reserved, entry count, data size,
/// big-endian) and its 16-byte index entries (tag, type, offset, count).
fn check_counts(source: &ArchiveRange) -> Result<(), String> {
    let read = |at: u64, buf: &mut [u8]| -> Result<(), String> {
        source
            .read_at(at, buf)
            .ok_or_else(|| "its headers run past the end of the file".to_owned())
    };
    let be = |bytes: &[u8]| u32::from_be_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]);
    let mut at = 96u64;
    for signature in [true, false] {
        let mut intro = [0u8; 16];
        read(at, &mut intro)?;
        if intro[..3] != [0x8E, 0xAD, 0xE8] {
            return Err("a header does not start with the header magic".to_owned());
        }
        let (entries, size) = (u64::from(be(&intro[8..12])), u64::from(be(&intro[12..16])));
        let index_len = entries * 16;
        if at + 16 + index_len + size > source.len {
            return Err("a header is larger than the file".to_owned());
        }
        let mut index = vec![0u8; index_len as usize];
        read(at + 16, &mut index)?;
        if index
            .chunks_exact(16)
            .any(|entry| u64::from(be(&entry[12..16])) > size)
        {
            return Err("a header entry counts more items than its header holds".to_owned());
        }
        at += 16 + index_len + size;
        if signature {
            at = at.div_ceil(8) * 8;
        }
    }
    Ok(())
}

/// A payload or header path relative to the package's root.
fn relative(path: &std::path::Path) -> String {
    let path = path.to_string_lossy();
    let path = path.strip_prefix("./").unwrap_or(&path);
    path.trim_start_matches('/').to_owned()
}

/// What the header declares of a file's bytes: its digest, by algorithm.
fn declared_integrity(entry: &rpm::FileEntry<'_>) -> Option<DeclaredIntegrity> {
    entry.digest().map(|digest| DeclaredIntegrity {
        algorithm: match digest.algorithm() {
            rpm::DigestAlgorithm::Sha2_256 => "SHA256".to_owned(),
            other => format!("{other:?}"),
        },
        hash: digest.as_hex().to_ascii_lowercase(),
        block_size: None,
        blocks: Vec::new(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_magic_say_what_is_a_package() {
        assert!(is_rpm_name("Obsidian-1.7.7.x86_64.RPM"));
        assert!(!is_rpm_name("rpm.json"));
        assert!(looks_like_rpm(&[0xED, 0xAB, 0xEE, 0xDB, 3, 0]));
        assert!(!looks_like_rpm(b"PK\x03\x04"));
    }
}

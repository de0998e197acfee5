//! RPM packages (`.rpm`): electron-builder's `rpm` target, what Fedora and openSUSE install.
//!
//! The `rpm` crate reads the package's headers and streams its payload (a cpio archive,
//! compressed with gzip, xz or zstd), file by file. A payload cannot be read in place, so each
//! file is decompressed into one anonymous in-memory file, bounded by `max_entry_bytes`,
//! [`crate::nested::MAX_INFLATED_ARCHIVE`] and `max_compression_ratio` times the package's
//! size, and becomes a byte range of it. The header's per-file digests (SHA-256 in packages
//! built since RPM 4.6 defaults) are declared integrity: the hash stage verifies every file
//! against them, as it does an ASAR's.

use std::collections::BTreeMap;

use rea_core::Failure;

use crate::entry::{ArchiveFile, ArchiveRange, DeclaredIntegrity, Entry, EntryKind, EntrySource};
use crate::nested::{Memory, Walk};
use crate::read::SeekRange;

/// True when `name` is named like an RPM package.
pub fn is_rpm_name(name: &str) -> bool {
    name.to_lowercase().ends_with(".rpm")
}

/// True when `head` starts an RPM package (its lead's magic).
pub fn looks_like_rpm(head: &[u8]) -> bool {
    head.starts_with(&[0xED, 0xAB, 0xEE, 0xDB])
}

/// Sends every file, directory and symlink the package's payload holds below `prefix` (`""`
/// at the root), then expands the archives among them. A package whose headers or payload
/// cannot be read fails with reason `format` (nested: the container's note).
pub fn walk(walk: &mut Walk<'_, '_>, source: &ArchiveRange, prefix: &str) -> Result<(), Failure> {
    let listed = list(walk, source, prefix)?;
    crate::nested::send_listing(walk, listed, prefix)
}

fn list(
    walk: &mut Walk<'_, '_>,
    source: &ArchiveRange,
    prefix: &str,
) -> Result<BTreeMap<String, Entry>, Failure> {
    // The `rpm` crate reads untrusted headers and payload: a panic in it is this package's
    // problem, not the run's.
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        list_payload(walk, source, prefix)
    }))
    .unwrap_or_else(|_| {
        Err(source.unreadable("RPM package", "its headers or payload are malformed"))
    })
}

fn list_payload(
    walk: &mut Walk<'_, '_>,
    source: &ArchiveRange,
    prefix: &str,
) -> Result<BTreeMap<String, Entry>, Failure> {
    let (cx, limits) = (walk.cx, walk.limits);
    let reader = std::io::BufReader::with_capacity(
        1 << 16,
        SeekRange::new(source.archive.file.clone(), source.base, source.len),
    );
    let mut package =
        rpm::PackageReader::parse(reader).map_err(|err| source.unreadable("RPM package", err))?;
    let bound = crate::nested::decompression_bound(limits, source.len);
    let too_much = format!(
        "the payload decompresses to more than the {bound} bytes it may take in memory (max_entry_bytes, max_compression_ratio)"
    );
    let mut memory =
        Memory::new("the payload", bound).map_err(|note| source.unreadable("RPM package", note))?;
    let archive = ArchiveFile {
        path: source.archive.path.clone(),
        file: memory.file.clone(),
    };
    let mut members: BTreeMap<String, Entry> = BTreeMap::new();
    loop {
        cx.check()?;
        let mut file = match package.next_file() {
            Ok(Some(file)) => file,
            Ok(None) => break,
            Err(err) if members.is_empty() => return Err(source.unreadable("RPM package", err)),
            Err(err) => {
                walk.notes.skip(
                    prefix,
                    format!("the listing stops: the payload could not be read further: {err}"),
                );
                break;
            }
        };
        let path = file.metadata.path();
        let name = match path.to_str() {
            Some(name) => name.trim_start_matches('/').to_owned(),
            None => {
                walk.notes.skip(
                    prefix,
                    format!(
                        "{} was skipped: its name is not valid UTF-8",
                        path.to_string_lossy()
                    ),
                );
                continue;
            }
        };
        if name.is_empty() {
            continue;
        }
        let logical_path = match crate::zip::member_path(prefix, &name, limits) {
            Ok(path) => path,
            Err(note) => {
                walk.notes.skip(prefix, note);
                continue;
            }
        };
        let mut item = Entry::bare(logical_path, EntryKind::File);
        let mode = file.metadata.mode();
        match mode.file_type() {
            rpm::FileType::Dir => item.kind = EntryKind::Directory,
            rpm::FileType::SymbolicLink => {
                item.kind = EntryKind::Symlink;
                item.link_target = file.metadata.linkto().map(str::to_owned);
            }
            rpm::FileType::Regular if !file.has_payload() => {
                item.declared_size = Some(file.metadata.size() as u64);
                item.limitations.push(
                    "declared by the package (a %ghost file) but not shipped in its payload"
                        .to_owned(),
                );
            }
            rpm::FileType::Regular => {
                item.executable = mode.permissions() & 0o111 != 0;
                item.declared_size = Some(file.metadata.size() as u64);
                item.declared = file.metadata.digest().map(|digest| DeclaredIntegrity {
                    algorithm: match digest.algorithm() {
                        rpm::DigestAlgorithm::Sha2_256 => "SHA256".to_owned(),
                        other => format!("{other:?}"),
                    },
                    hash: digest.as_hex().to_ascii_lowercase(),
                    block_size: None,
                    blocks: Vec::new(),
                });
                match memory.append(cx, &mut file, "the payload", &too_much)? {
                    Ok((offset, len)) => {
                        item.source = EntrySource::Range {
                            archive: archive.clone(),
                            offset,
                            len,
                        };
                    }
                    Err(note) => {
                        walk.notes.skip(
                            prefix,
                            format!("the listing stops at {}: {note}", item.logical_path),
                        );
                        item.limitations.push(format!("not read: {note}"));
                        crate::nested::keep_last(&mut members, item, prefix, &mut walk.notes);
                        break;
                    }
                }
            }
            _ => {
                walk.notes.skip(
                    prefix,
                    format!("{} was skipped: a special file", item.logical_path),
                );
                continue;
            }
        }
        crate::nested::keep_last(&mut members, item, prefix, &mut walk.notes);
    }
    Ok(members)
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

//! The ZIP-family reader (zip, apk, ipa, msix, appx), through the `zip` crate.
//!
//! The central directory is read once; each member becomes an entry whose bytes are located,
//! not read: `EntrySource::ZipMember` names the compressed byte range, the method and the
//! CRC-32, so that the hash stage inflates members in parallel with positioned reads.
//! Directories that members imply but the archive does not list are added, so that every
//! member has a parent. A duplicate name keeps its last member, as extractors do.
//!
//! One odd member never fails the walk: an unsafe name (`..`, absolute, backslash, drive, NUL),
//! an encrypted member, an unsupported method or a compression ratio over
//! `max_compression_ratio` is recorded and skipped or left unread. Only an archive whose
//! central directory cannot be read fails, with reason `format`.

use std::collections::BTreeMap;
use std::io::{BufReader, Read};
use std::sync::Arc;

use rea_core::{Failure, FailureReason, Limits};

use crate::entry::{ArchiveRange, Entry, EntryKind, EntrySource, ZipMethod};
use crate::nested::Walk;
use crate::path;
use crate::read::SeekRange;

/// Longest symlink target read from a member.
const MAX_LINK_BYTES: u64 = 4096;

/// Names of the zip family, by extension (lower case), with the format each is reported as:
/// application packages (Android, iOS, Windows), Squirrel's NuGet packages (Electron's Windows
/// updates ship as `App-1.2.3-full.nupkg`), and the extension and library formats that are
/// plain zips (VS Code `.vsix`, Firefox `.xpi`, Java `.jar`, Android `.aar`).
pub const ZIP_FAMILY: [(&str, &str); 14] = [
    (".zip", "zip"),
    (".apk", "apk"),
    (".aab", "apk"),
    (".ipa", "ipa"),
    (".msix", "msix"),
    (".msixbundle", "msix"),
    (".appx", "appx"),
    (".appxbundle", "appx"),
    (".jar", "zip"),
    (".aar", "zip"),
    (".nupkg", "zip"),
    (".vsix", "zip"),
    (".xpi", "zip"),
    // A Chromium extension: a CRX3 header (its signatures), then a ZIP of the extension's
    // files, which the `zip` crate finds past the header.
    (".crx", "crx"),
];

/// The zip-family format a name has, by its extension.
pub fn zip_format(name: &str) -> Option<&'static str> {
    ZIP_FAMILY
        .iter()
        .find(|(ext, _)| crate::path::has_suffix(name, ext))
        .map(|(_, format)| *format)
}

/// True for names of the zip family.
pub fn is_zip_name(name: &str) -> bool {
    zip_format(name).is_some()
}

/// True when `head` starts with a ZIP signature.
pub fn looks_like_zip(head: &[u8]) -> bool {
    matches!(head.get(..4), Some([b'P', b'K', 3, 4] | [b'P', b'K', 5, 6]))
}

/// Sends every member of the archive, below `prefix` (`""` at the root), then expands the
/// archives it holds.
pub fn walk(walk: &mut Walk<'_, '_>, source: &ArchiveRange, prefix: &str) -> Result<(), Failure> {
    let (cx, limits) = (walk.cx, walk.limits);
    let shown = source.archive.path.to_string_lossy().into_owned();
    let reader = SeekRange::new(Arc::clone(&source.archive.file), source.base, source.len);
    let mut archive = ::zip::ZipArchive::new(BufReader::new(reader)).map_err(|err| {
        Failure::new(FailureReason::Format, "not a readable ZIP archive")
            .with_detail("path", shown.clone())
            .with_detail("problem", err.to_string())
    })?;
    let mut members: BTreeMap<String, Entry> = BTreeMap::new();
    for idx in 0..archive.len() {
        cx.check()?;
        let entry = match member(&mut archive, idx, prefix, limits, source) {
            Ok(entry) => entry,
            Err(note) => {
                walk.notes.skip(prefix, note);
                continue;
            }
        };
        crate::nested::keep_last(&mut members, entry, prefix, &mut walk.notes);
    }
    crate::nested::send_listing(walk, members, prefix)
}

/// One member as an entry, or a note saying why it was skipped.
fn member(
    archive: &mut ::zip::ZipArchive<BufReader<SeekRange>>,
    idx: usize,
    prefix: &str,
    limits: &Limits,
    source: &ArchiveRange,
) -> Result<Entry, String> {
    let raw = archive
        .by_index_raw(idx)
        .map_err(|err| format!("member {idx} could not be read: {err}"))?;
    let Ok(name) = std::str::from_utf8(raw.name_raw()).map(str::to_owned) else {
        return Err(format!(
            "member {idx} was skipped: its name is not valid UTF-8"
        ));
    };
    let logical_path = member_path(prefix, &name, limits)?;
    if raw.is_dir() {
        return Ok(Entry::directory(logical_path));
    }
    let mut entry = Entry::directory(logical_path);
    entry.kind = EntryKind::File;
    entry.declared_size = Some(raw.size());
    entry.executable = raw.unix_mode().is_some_and(|mode| mode & 0o111 != 0);
    let is_symlink = raw.is_symlink();
    let (size, compressed, crc32, encrypted) = (
        raw.size(),
        raw.compressed_size(),
        raw.crc32(),
        raw.encrypted(),
    );
    let method = match raw.compression() {
        ::zip::CompressionMethod::Stored => Some(ZipMethod::Stored),
        ::zip::CompressionMethod::Deflated => Some(ZipMethod::Deflated),
        _ => None,
    };
    let method_name = format!("{:?}", raw.compression());
    let offset = raw.data_start().map(|relative| relative + source.base);
    drop(raw);
    if encrypted {
        entry
            .limitations
            .push("encrypted member was not read".to_owned());
        return Ok(entry);
    }
    if is_symlink {
        entry.kind = EntryKind::Symlink;
        entry.declared_size = None;
        entry.executable = false;
        match archive.by_index(idx) {
            Ok(link) => {
                let mut target = String::new();
                match link.take(MAX_LINK_BYTES).read_to_string(&mut target) {
                    Ok(_) => entry.link_target = Some(target),
                    Err(err) => entry
                        .limitations
                        .push(format!("symlink target could not be read: {err}")),
                }
            }
            Err(err) => entry
                .limitations
                .push(format!("symlink target could not be read: {err}")),
        }
        return Ok(entry);
    }
    let Some(method) = method else {
        entry.limitations.push(format!(
            "compression method {method_name} is not supported; the member was not read"
        ));
        return Ok(entry);
    };
    if method == ZipMethod::Deflated && size > 0 {
        let ratio = if compressed == 0 {
            f64::INFINITY
        } else {
            size as f64 / compressed as f64
        };
        if ratio > limits.max_compression_ratio {
            entry.limitations.push(format!(
                "member was not read: compression ratio {ratio:.0} exceeds max_compression_ratio {}",
                limits.max_compression_ratio
            ));
            return Ok(entry);
        }
    }
    if method == ZipMethod::Stored && compressed != size {
        entry
            .limitations
            .push("stored member's sizes disagree; the member was not read".to_owned());
        return Ok(entry);
    }
    let Some(offset) = offset else {
        entry
            .limitations
            .push("member data could not be located".to_owned());
        return Ok(entry);
    };
    entry.source = EntrySource::ZipMember {
        archive: source.archive.clone(),
        offset,
        compressed_len: compressed,
        method,
        crc32,
    };
    Ok(entry)
}

/// An archive member's name as a logical path below `prefix`, or the note that says why it
/// was skipped: unsafe (zip-slip and friends), deeper than `max_depth`, or longer than
/// `max_path_bytes`.
pub(crate) fn member_path(prefix: &str, name: &str, limits: &Limits) -> Result<String, String> {
    let inner =
        safe_name(name).map_err(|problem| format!("member {name:?} was skipped: {problem}"))?;
    let logical_path = path::join(prefix, &inner);
    if path::depth(&logical_path) > limits.max_depth as usize {
        return Err(format!(
            "member {logical_path} was skipped: deeper than max_depth {}",
            limits.max_depth
        ));
    }
    if logical_path.len() > limits.max_path_bytes as usize {
        return Err(format!(
            "member {logical_path} was skipped: path longer than max_path_bytes {}",
            limits.max_path_bytes
        ));
    }
    Ok(logical_path)
}

/// The member name as a relative logical path, or why it is unsafe (zip-slip and friends).
fn safe_name(name: &str) -> Result<String, &'static str> {
    if name.starts_with('/') {
        return Err("absolute path");
    }
    if name.contains('\\') {
        return Err("name contains a backslash");
    }
    if name.len() >= 2 && name.as_bytes()[1] == b':' {
        return Err("drive-letter path");
    }
    let trimmed = name.trim_end_matches('/');
    if trimmed.is_empty() {
        return Err("empty name");
    }
    for part in trimmed.split('/') {
        if let Some(problem) = path::component_problem(part) {
            return Err(problem);
        }
    }
    Ok(trimmed.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    proptest::proptest! {
        #[test]
        fn normalised_names_never_escape_and_are_idempotent(name in "[a-zA-Z0-9._/\\\\:]{0,24}") {
            if let Ok(safe) = safe_name(&name) {
                proptest::prop_assert!(!safe.starts_with('/'));
                proptest::prop_assert!(safe.split('/').all(|part| !part.is_empty() && part != "." && part != ".."));
                proptest::prop_assert!(!safe.contains('\\'));
                proptest::prop_assert_eq!(safe_name(&safe), Ok(safe.clone()));
            }
        }
    }

    #[test]
    fn zip_slip_names_are_refused() {
        assert_eq!(safe_name("lib/main.js").unwrap(), "lib/main.js");
        assert_eq!(safe_name("assets/").unwrap(), "assets");
        for bad in [
            "../evil",
            "a/../../b",
            "/etc/passwd",
            "C:evil",
            "a\\b",
            "a//b",
            "./x",
            "nul\0",
        ] {
            assert!(safe_name(bad).is_err(), "{bad:?}");
        }
    }
}

//! Electron's ASAR header integrity: what an application declares for its archives' headers,
//! checked against the headers the walk read.
//!
//! With the `EnableEmbeddedAsarIntegrityValidation` fuse on, Electron refuses an archive whose
//! header's SHA-256 differs from the one the application declares. On macOS the declaration is
//! `ElectronAsarIntegrity` in the bundle's `Contents/Info.plist`: a dictionary from the
//! archive's path relative to `Contents/` (`Resources/app.asar`) to `{algorithm: "SHA256",
//! hash: <hex>}`, the hash of the header's JSON text (what `@electron/asar`'s `getRawHeader`
//! returns as `headerString`). On Windows it is the executable's `Integrity`/`ElectronAsar`
//! resource, a JSON list `[{file, alg, value}]` whose paths are relative to the executable's
//! directory and compared without regard to case; the resource is read with the `object`
//! crate, in place for a file on disk or a stored member (a few structures, through
//! `rea_hash::random_access`), inflated for a deflated one.
//!
//! Every ASAR header read becomes an [`AsarHeader`] with its digest, whether or not anything
//! declares it, so that a declaration found elsewhere can still be compared by hand.

use std::collections::BTreeMap;
use std::io::Cursor;

use rea_core::{Failure, FailureReason, IntegrityPolicy};
use rea_exec::StageCx;
use rea_hash::{HashOutcome, HashedEntry};
use rea_traverse::{EntryKind, WalkNotes};

use super::ids;
use super::types::{AsarHeader, Contradiction, HeaderDeclaration};

/// A property list larger than this is not read for declarations (real ones are a few KiB).
const MAX_PLIST_BYTES: u64 = 1 << 20;
/// The dictionary key Electron reads.
const PLIST_KEY: &str = "ElectronAsarIntegrity";

/// What the check found.
#[derive(Debug, Default)]
pub(super) struct HeaderChecks {
    /// One per ASAR header read, in logical-path order (the root, `"."`, first).
    pub headers: Vec<AsarHeader>,
    /// Headers that contradict their declaration (record-and-continue only).
    pub contradictions: Vec<Contradiction>,
    /// Declarations that could not be checked, and unreadable property lists.
    pub limitations: Vec<String>,
}

/// Where each ASAR header's occurrence sits, and its parent's content.
pub(super) struct Place<'a> {
    pub root_artifact_id: &'a str,
    pub root_occurrence_id: &'a str,
    /// The occurrence id and parent content id of the entry at a sorted index.
    pub of_entry: &'a dyn Fn(usize) -> (&'a str, Option<&'a str>),
}

/// Reads the declarations in `hashed` (sorted by logical path) and checks every header in
/// `notes` against them. Under [`IntegrityPolicy::Fail`] a mismatch fails the job.
pub(super) fn check(
    cx: &StageCx<'_>,
    hashed: &[HashedEntry],
    notes: &WalkNotes,
    policy: IntegrityPolicy,
    place: &Place<'_>,
) -> Result<HeaderChecks, Failure> {
    let mut out = HeaderChecks::default();
    if notes.asar_headers.is_empty() && !hashed.iter().any(|h| declares(&h.entry.logical_path)) {
        return Ok(out);
    }
    // Declarations keyed by the archive path they name.
    let mut declared: BTreeMap<String, Vec<HeaderDeclaration>> = BTreeMap::new();
    for item in hashed {
        cx.check()?;
        let path = item.entry.logical_path.as_str();
        if item.entry.kind != EntryKind::File {
            continue;
        }
        if declares(path) {
            plist_declarations(cx, item, &mut declared, &mut out.limitations)?;
        } else if is_executable_beside_an_archive(path, notes) {
            pe_declarations(cx, item, notes, &mut declared, &mut out.limitations)?;
        }
    }

    for (archive, digest) in &notes.asar_headers {
        cx.check()?;
        let (logical_path, occurrence_id, parent) = if archive.is_empty() {
            (".", place.root_occurrence_id, place.root_artifact_id)
        } else {
            let Ok(i) = hashed.binary_search_by(|h| h.entry.logical_path.as_str().cmp(archive))
            else {
                continue;
            };
            let (occurrence_id, parent) = (place.of_entry)(i);
            (
                archive.as_str(),
                occurrence_id,
                parent.unwrap_or(place.root_artifact_id),
            )
        };
        let mut declarations = declared.remove(archive).unwrap_or_default();
        for declaration in &mut declarations {
            let algorithm_ok = declaration.algorithm.eq_ignore_ascii_case("sha256");
            let hash = declaration.hash.to_ascii_lowercase();
            let well_formed = hash.len() == 64 && hash.bytes().all(|b| b.is_ascii_hexdigit());
            if !algorithm_ok || !well_formed {
                declaration.status = "unverifiable".to_owned();
                declaration.limitations.push(format!(
                    "the declaration is not a SHA256 digest (algorithm {:?}); Electron would not accept it either",
                    declaration.algorithm
                ));
                continue;
            }
            if hash == digest.sha256 {
                declaration.status = "verified".to_owned();
                continue;
            }
            if policy == IntegrityPolicy::Fail {
                return Err(Failure::new(
                    FailureReason::Integrity,
                    "ASAR header contradicts the integrity the application declares for it",
                )
                .with_detail("logical_path", logical_path.to_owned())
                .with_detail("declared_by", declaration.declared_by.clone())
                .with_detail("declared_sha256", hash)
                .with_detail("observed_sha256", digest.sha256.clone())
                .with_detail("unpacked", false));
            }
            out.limitations.push(format!(
                "the ASAR header of {logical_path} contradicts the ElectronAsarIntegrity {} declares; Electron with the integrity fuse on would refuse the archive",
                declaration.declared_by
            ));
            declaration.status = "mismatched".to_owned();
            declaration.limitations.push(
                "the header's SHA-256 differs from the declared one: Electron with the ASAR integrity fuse on would refuse this archive"
                    .to_owned(),
            );
            out.contradictions.push(Contradiction {
                contradiction_id: ids::contradiction_id(
                    place.root_artifact_id,
                    logical_path,
                    &hash,
                    &digest.sha256,
                )?,
                declared_sha256: hash,
                entry_kind: "file".to_owned(),
                limitations: vec![format!(
                    "the ASAR header contradicts the ElectronAsarIntegrity that {} declares; the archive is observed-untrusted",
                    declaration.declared_by
                )],
                logical_path: logical_path.to_owned(),
                observed_sha256: digest.sha256.clone(),
                occurrence_id: occurrence_id.to_owned(),
                parent_artifact_id: parent.to_owned(),
                provenance: "application-asar-integrity-versus-observed-header".to_owned(),
                trust: "observed-untrusted".to_owned(),
                unpacked: false,
            });
        }
        let status = summary_status(&declarations);
        out.headers.push(AsarHeader {
            declarations,
            header_sha256: digest.sha256.clone(),
            header_size: digest.size,
            logical_path: logical_path.to_owned(),
            occurrence_id: occurrence_id.to_owned(),
            status: status.to_owned(),
        });
    }
    for (archive, declarations) in declared {
        for declaration in declarations {
            out.limitations.push(format!(
                "{} declares ElectronAsarIntegrity for {:?}, but {archive} was not read as an ASAR archive in this input; its header was not checked",
                declaration.declared_by, declaration.key
            ));
        }
    }
    out.contradictions
        .sort_unstable_by(|a, b| a.contradiction_id.cmp(&b.contradiction_id));
    Ok(out)
}

/// Reads the `ElectronAsarIntegrity` a bundle's `Info.plist` declares.
fn plist_declarations(
    cx: &StageCx<'_>,
    item: &HashedEntry,
    declared: &mut BTreeMap<String, Vec<HeaderDeclaration>>,
    limitations: &mut Vec<String>,
) -> Result<(), Failure> {
    let path = item.entry.logical_path.as_str();
    let Some(bytes) = read_whole(cx, item, MAX_PLIST_BYTES, limitations)? else {
        return Ok(());
    };
    let entries = match read_plist(&bytes) {
        Ok(entries) => entries,
        Err(problem) => {
            limitations.push(format!(
                "{path} is not a readable property list ({problem}); it declares no ASAR integrity"
            ));
            return Ok(());
        }
    };
    let contents = path.rsplit_once('/').map_or("", |(dir, _)| dir);
    for raw in entries {
        let declaration = HeaderDeclaration {
            algorithm: raw.algorithm.unwrap_or_default(),
            declared_by: path.to_owned(),
            hash: raw.hash.unwrap_or_default(),
            key: raw.key,
            limitations: Vec::new(),
            mechanism: "info-plist".to_owned(),
            status: String::new(),
        };
        match resolve(contents, &declaration.key) {
            Some(target) => declared.entry(target).or_default().push(declaration),
            None => limitations.push(format!(
                "{path} declares ElectronAsarIntegrity for {:?}, which is not a path inside the bundle; it was not checked",
                declaration.key
            )),
        }
    }
    Ok(())
}

/// The whole content of a hashed entry of at most `cap` bytes, checked against its digest;
/// `None` (with a limitation when something went wrong) when it cannot be had.
pub(super) fn read_whole(
    cx: &StageCx<'_>,
    item: &HashedEntry,
    cap: u64,
    limitations: &mut Vec<String>,
) -> Result<Option<Vec<u8>>, Failure> {
    let path = item.entry.logical_path.as_str();
    let HashOutcome::Hashed(digest, _) = &item.outcome else {
        return Ok(None);
    };
    if digest.bytes > cap {
        return Ok(None);
    }
    let mut bytes = Vec::with_capacity(digest.bytes as usize);
    match rea_hash::copy_entry(cx, &item.entry, cap, &mut bytes) {
        Ok(read) if read.sha256 == digest.sha256 => Ok(Some(bytes)),
        Ok(_) => {
            limitations.push(format!(
                "{path} changed after it was hashed; the ASAR integrity it declares was not read"
            ));
            Ok(None)
        }
        Err(failure) if failure.reason == FailureReason::Cancelled => Err(failure),
        Err(failure) => {
            limitations.push(format!(
                "{path} could not be read again for the ASAR integrity it declares: {}",
                failure.message
            ));
            Ok(None)
        }
    }
}

/// A Windows executable in a directory that holds an ASAR archive at some depth: where
/// Electron's packagers put the integrity resource (`App.exe` beside `resources/app.asar`).
pub(super) fn is_executable_beside_an_archive(path: &str, notes: &WalkNotes) -> bool {
    let is_exe = path.len() >= 4
        && path.is_char_boundary(path.len() - 4)
        && path[path.len() - 4..].eq_ignore_ascii_case(".exe");
    if !is_exe {
        return false;
    }
    let dir = path.rsplit_once('/').map_or("", |(dir, _)| dir);
    notes
        .asar_headers
        .keys()
        .any(|archive| !archive.is_empty() && below(archive, dir).is_some())
}

/// `path` relative to `dir` (`""` is the root), when it lies below it.
pub(super) fn below<'p>(path: &'p str, dir: &str) -> Option<&'p str> {
    if dir.is_empty() {
        Some(path)
    } else {
        path.strip_prefix(dir)?.strip_prefix('/')
    }
}

/// The largest executable inflated into memory to read its resources (an Electron executable
/// is about 200 MB); stored ones and files on disk are read in place, a few structures at a time.
const MAX_INFLATED_EXECUTABLE: u64 = 512 << 20;
/// A resource section larger than this is not read (an Electron executable's is a few MiB).
const MAX_RESOURCE_SECTION: u32 = 64 << 20;

/// Reads the integrity list an Electron executable carries as its `INTEGRITY`/`ELECTRONASAR`
/// resource: JSON `[{"file": "resources\\app.asar", "alg": "SHA256", "value": <hex>}]`, paths
/// relative to the executable's directory, matched without regard to case as Electron does.
fn pe_declarations(
    cx: &StageCx<'_>,
    item: &HashedEntry,
    notes: &WalkNotes,
    declared: &mut BTreeMap<String, Vec<HeaderDeclaration>>,
    limitations: &mut Vec<String>,
) -> Result<(), Failure> {
    let path = item.entry.logical_path.as_str();
    let payload = match rea_hash::random_access(&item.entry) {
        Some(Ok(reader)) => {
            let cache = object::ReadCache::new(reader);
            integrity_resource(&cache)
        }
        Some(Err(failure)) => {
            limitations.push(format!(
                "{path} could not be opened again for its ASAR integrity resource: {}",
                failure.message
            ));
            return Ok(());
        }
        None => match read_whole(cx, item, MAX_INFLATED_EXECUTABLE, limitations)? {
            Some(bytes) => integrity_resource(bytes.as_slice()),
            None => return Ok(()),
        },
    };
    let payload = match payload {
        Ok(Some(payload)) => payload,
        // Not a PE, or no integrity resource: most executables beside an archive are helpers.
        Ok(None) | Err(_) => return Ok(()),
    };
    let text = payload
        .iter()
        .rposition(|b| !matches!(b, 0 | b' ' | b'\t' | b'\r' | b'\n'))
        .map_or(&payload[..0], |end| &payload[..=end]);
    let Ok(serde_json::Value::Array(list)) = serde_json::from_slice::<serde_json::Value>(text)
    else {
        limitations.push(format!(
            "{path} carries an ASAR integrity resource that is not a JSON list; Electron would refuse to start"
        ));
        return Ok(());
    };
    let dir = path.rsplit_once('/').map_or("", |(dir, _)| dir);
    for entry in list {
        let field = |name: &str| entry.get(name).and_then(|v| v.as_str()).map(str::to_owned);
        let Some(file) = field("file").filter(|f| !f.is_empty()) else {
            continue;
        };
        let mut declaration = HeaderDeclaration {
            algorithm: field("alg").unwrap_or_default(),
            declared_by: path.to_owned(),
            hash: field("value").unwrap_or_default(),
            key: file.clone(),
            limitations: Vec::new(),
            mechanism: "pe-resource".to_owned(),
            status: String::new(),
        };
        if file.contains('/') {
            declaration.limitations.push(
                "the path is written with '/': Electron on Windows looks archives up by their backslash path and would not find this entry"
                    .to_owned(),
            );
        }
        let wanted = file.replace('\\', "/").to_ascii_lowercase();
        let target = notes
            .asar_headers
            .keys()
            .find(|archive| {
                below(archive, dir).is_some_and(|rel| rel.to_ascii_lowercase() == wanted)
            })
            .cloned()
            .or_else(|| resolve(dir, &file.replace('\\', "/")));
        match target {
            Some(target) => declared.entry(target).or_default().push(declaration),
            None => limitations.push(format!(
                "{path} declares ASAR integrity for {file:?}, which is not a path below its directory; it was not checked"
            )),
        }
    }
    Ok(())
}

/// The data of a PE's `INTEGRITY`/`ELECTRONASAR` resource (first language); `None` when the
/// file has none. An error when it is not a PE or its resource table is malformed.
fn integrity_resource<'data, R: object::ReadRef<'data>>(
    data: R,
) -> object::read::Result<Option<Vec<u8>>> {
    match object::FileKind::parse(data)? {
        object::FileKind::Pe32 => resource_of(&object::read::pe::PeFile32::parse(data)?, data),
        object::FileKind::Pe64 => resource_of(&object::read::pe::PeFile64::parse(data)?, data),
        _ => Ok(None),
    }
}

fn resource_of<'data, Pe: object::read::pe::ImageNtHeaders, R: object::ReadRef<'data>>(
    file: &object::read::pe::PeFile<'data, Pe, R>,
    data: R,
) -> object::read::Result<Option<Vec<u8>>> {
    use object::read::pe::{ResourceDirectoryEntryData, ResourceNameOrId};
    let directories = file.data_directories();
    let sections = file.section_table();
    let too_large = directories
        .get(object::pe::IMAGE_DIRECTORY_ENTRY_RESOURCE)
        .is_some_and(|d| d.size.get(object::LittleEndian) > MAX_RESOURCE_SECTION);
    if too_large {
        return Ok(None);
    }
    let Some(directory) = directories.resource_directory(data, &sections)? else {
        return Ok(None);
    };
    let named = |table: &object::read::pe::ResourceDirectoryTable<'data>, name: &str| {
        table.entries.iter().find(|entry| {
            matches!(entry.name_or_id(), ResourceNameOrId::Name(n)
                if n.to_string_lossy(directory).is_ok_and(|s| s.eq_ignore_ascii_case(name)))
        })
    };
    let root = directory.root()?;
    let Some(kind) = named(&root, "INTEGRITY") else {
        return Ok(None);
    };
    let ResourceDirectoryEntryData::Table(kind) = kind.data(directory)? else {
        return Ok(None);
    };
    let Some(item) = named(&kind, "ELECTRONASAR") else {
        return Ok(None);
    };
    let ResourceDirectoryEntryData::Table(languages) = item.data(directory)? else {
        return Ok(None);
    };
    let Some(ResourceDirectoryEntryData::Data(entry)) = languages
        .entries
        .first()
        .map(|language| language.data(directory))
        .transpose()?
    else {
        return Ok(None);
    };
    let rva = entry.offset_to_data.get(object::LittleEndian);
    let size = entry.size.get(object::LittleEndian) as usize;
    let bytes = sections
        .pe_data_at(data, rva)
        .filter(|bytes| bytes.len() >= size)
        .map(|bytes| bytes[..size].to_vec());
    Ok(bytes)
}

/// Whether a path is where a macOS bundle declares its archives: `…/Contents/Info.plist`.
fn declares(path: &str) -> bool {
    path == "Contents/Info.plist" || path.ends_with("/Contents/Info.plist")
}

/// One `ElectronAsarIntegrity` entry as written.
struct RawDeclaration {
    key: String,
    algorithm: Option<String>,
    hash: Option<String>,
}

/// The `ElectronAsarIntegrity` entries of a property list (XML or binary); none when it has no
/// such key. An error only when the bytes are not a property list.
fn read_plist(bytes: &[u8]) -> Result<Vec<RawDeclaration>, String> {
    let value = plist::Value::from_reader(Cursor::new(bytes)).map_err(|err| err.to_string())?;
    let Some(integrity) = value
        .as_dictionary()
        .and_then(|root| root.get(PLIST_KEY))
        .and_then(plist::Value::as_dictionary)
    else {
        return Ok(Vec::new());
    };
    Ok(integrity
        .iter()
        .map(|(key, entry)| {
            let field = |name: &str| {
                entry
                    .as_dictionary()
                    .and_then(|d| d.get(name))
                    .and_then(plist::Value::as_string)
                    .map(str::to_owned)
            };
            RawDeclaration {
                key: key.clone(),
                algorithm: field("algorithm"),
                hash: field("hash"),
            }
        })
        .collect())
}

/// The logical path a key relative to `contents` names, when it stays inside the bundle.
fn resolve(contents: &str, key: &str) -> Option<String> {
    if key.starts_with('/') {
        return None;
    }
    let mut parts: Vec<&str> = contents.split('/').filter(|p| !p.is_empty()).collect();
    let floor = parts.len();
    for part in key.split('/') {
        match part {
            "" | "." => {}
            ".." if parts.len() > floor => {
                parts.pop();
            }
            ".." => return None,
            part => parts.push(part),
        }
    }
    (parts.len() > floor).then(|| parts.join("/"))
}

/// One word for a header: `undeclared`, or the worst of its declarations.
fn summary_status(declarations: &[HeaderDeclaration]) -> &'static str {
    let has = |status: &str| declarations.iter().any(|d| d.status == status);
    if declarations.is_empty() {
        "undeclared"
    } else if has("mismatched") {
        "mismatched"
    } else if has("unverifiable") {
        "unverifiable"
    } else {
        "verified"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_resolve_inside_the_bundle_only() {
        let contents = "Foo.app/Contents";
        assert_eq!(
            resolve(contents, "Resources/app.asar").as_deref(),
            Some("Foo.app/Contents/Resources/app.asar")
        );
        assert_eq!(
            resolve(contents, "./Resources//app.asar").as_deref(),
            Some("Foo.app/Contents/Resources/app.asar")
        );
        assert_eq!(
            resolve(contents, "Resources/../Resources/app.asar").as_deref(),
            Some("Foo.app/Contents/Resources/app.asar")
        );
        assert_eq!(resolve(contents, "../../x.asar"), None);
        assert_eq!(resolve(contents, "/etc/x.asar"), None);
        assert_eq!(
            resolve("Contents", "Resources/app.asar").as_deref(),
            Some("Contents/Resources/app.asar")
        );
    }

    #[test]
    fn only_a_bundle_s_info_plist_declares() {
        assert!(declares("Contents/Info.plist"));
        assert!(declares("dist/Foo.app/Contents/Info.plist"));
        assert!(!declares("Info.plist"));
        assert!(!declares("Foo.app/Contents/Resources/Info.plist"));
    }

    #[test]
    fn bytes_that_are_not_a_pe_give_no_resource_and_never_panic() {
        let mut bytes = b"MZ".to_vec();
        bytes.resize(4096, 0xff);
        assert!(!matches!(integrity_resource(bytes.as_slice()), Ok(Some(_))));
        assert!(!matches!(
            integrity_resource(&b"#!/bin/sh\n"[..]),
            Ok(Some(_))
        ));
        // A DOS header pointing its PE header past the end, and every truncation of it.
        let mut dos = b"MZ".to_vec();
        dos.resize(0x40, 0);
        dos[0x3c..0x40].copy_from_slice(&0x1000u32.to_le_bytes());
        for end in 0..dos.len() {
            let _ = integrity_resource(&dos[..end]);
        }
    }

    #[test]
    fn a_plist_without_the_key_declares_nothing_and_garbage_is_an_error() {
        let xml = br#"<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
<plist version="1.0"><dict><key>CFBundleName</key><string>Foo</string></dict></plist>"#;
        assert!(read_plist(xml).unwrap().is_empty());
        assert!(read_plist(b"\x00\x01not a plist").is_err());
    }
}

//! Electron's ASAR header integrity: what an application declares for its archives' headers,
//! checked against the headers the walk read.
//!
//! With the `EnableEmbeddedAsarIntegrityValidation` fuse on, Electron refuses an archive whose
//! header's SHA-256 differs from the one the application declares. On macOS the declaration is
//! `ElectronAsarIntegrity` in the bundle's `Contents/Info.plist`: a dictionary from the
//! archive's path relative to `Contents/` (`Resources/app.asar`) to `{algorithm: "SHA256",
//! hash: <hex>}`, the hash of the header's JSON text (what `@electron/asar`'s `getRawHeader`
//! returns as `headerString`). Windows executables carry the same list in a resource, which
//! REA does not read (no PE reader yet).
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
/// How a declaration reached us.
const MECHANISM: &str = "info-plist";

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
        if item.entry.kind != EntryKind::File || !declares(path) {
            continue;
        }
        let HashOutcome::Hashed(digest, _) = &item.outcome else {
            continue;
        };
        if digest.bytes > MAX_PLIST_BYTES {
            continue;
        }
        let mut bytes = Vec::with_capacity(digest.bytes as usize);
        let read = match rea_hash::copy_entry(cx, &item.entry, MAX_PLIST_BYTES, &mut bytes) {
            Ok(read) => read,
            Err(failure) if failure.reason == FailureReason::Cancelled => return Err(failure),
            Err(failure) => {
                out.limitations.push(format!(
                    "{path} could not be read again for ElectronAsarIntegrity: {}",
                    failure.message
                ));
                continue;
            }
        };
        if read.sha256 != digest.sha256 {
            out.limitations.push(format!(
                "{path} changed after it was hashed; its ElectronAsarIntegrity was not read"
            ));
            continue;
        }
        let entries = match read_plist(&bytes) {
            Ok(entries) => entries,
            Err(problem) => {
                out.limitations.push(format!(
                    "{path} is not a readable property list ({problem}); it declares no ASAR integrity"
                ));
                continue;
            }
        };
        let contents = path.rsplit_once('/').map_or("", |(dir, _)| dir);
        for raw in entries {
            let target = resolve(contents, &raw.key);
            let declaration = HeaderDeclaration {
                algorithm: raw.algorithm.unwrap_or_default(),
                declared_by: path.to_owned(),
                hash: raw.hash.unwrap_or_default(),
                key: raw.key,
                limitations: Vec::new(),
                mechanism: MECHANISM.to_owned(),
                status: String::new(),
            };
            match target {
                Some(target) => declared.entry(target).or_default().push(declaration),
                None => {
                    out.limitations.push(format!(
                        "{path} declares ElectronAsarIntegrity for {:?}, which is not a path inside the bundle; it was not checked",
                        declaration.key
                    ));
                }
            }
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
    fn a_plist_without_the_key_declares_nothing_and_garbage_is_an_error() {
        let xml = br#"<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
<plist version="1.0"><dict><key>CFBundleName</key><string>Foo</string></dict></plist>"#;
        assert!(read_plist(xml).unwrap().is_empty());
        assert!(read_plist(b"\x00\x01not a plist").is_err());
    }
}

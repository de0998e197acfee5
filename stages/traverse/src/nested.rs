//! Archives inside containers, expanded in place to any depth that `max_depth` allows:
//! an ASAR or a zip-family archive found in a directory, in an ASAR, or stored in a ZIP.
//!
//! Nested bytes are never copied out: a nested archive is read as a byte range of the file that
//! holds it. A ZIP member that is compressed cannot be read as a range, so an archive inside it
//! is recorded, not expanded. A packed ASAR whose container declares its digest is hashed first,
//! and a mismatch quarantines it: its contents are not listed (the hash stage then fails or
//! records the contradiction, by policy).
//! Whatever stops one expansion is noted on the container's occurrence; only cancellation,
//! a lost consumer and `max_entries` stop the walk.

use crossbeam_channel::Sender;
use rea_core::{Failure, FailureReason, Limits};
use rea_exec::StageCx;

use crate::entry::{
    ArchiveFile, DeclaredIntegrity, Entry, EntryKind, EntrySource, WalkNotes, WalkTally, ZipMethod,
};
use crate::{asar, zip};

/// Nesting deeper than this is recorded, not expanded, whatever `max_depth` says.
const MAX_NESTING: usize = 16;

/// What expanding one entry needs, taken before the entry is sent on.
pub(crate) struct Nested {
    logical_path: String,
    source: EntrySource,
    declared: Option<DeclaredIntegrity>,
    format: Format,
}

#[derive(Clone, Copy)]
enum Format {
    Asar,
    Zip,
}

/// The entry, when it is a file named like an archive we expand.
pub(crate) fn candidate(entry: &Entry) -> Option<Nested> {
    if entry.kind != EntryKind::File {
        return None;
    }
    let format = if entry.logical_path.to_lowercase().ends_with(".asar") {
        Format::Asar
    } else if zip::is_zip_name(&entry.logical_path) {
        Format::Zip
    } else {
        return None;
    };
    Some(Nested {
        logical_path: entry.logical_path.clone(),
        source: entry.source.clone(),
        declared: entry.declared.clone(),
        format,
    })
}

/// Expands one nested archive below its own logical path.
pub(crate) fn expand(
    cx: &StageCx<'_>,
    nested: Nested,
    limits: &Limits,
    tally: &WalkTally,
    out: &Sender<Entry>,
    notes: &mut WalkNotes,
    n_entries: &mut u64,
) -> Result<(), Failure> {
    let path = nested.logical_path.as_str();
    if nesting(path) > MAX_NESTING {
        notes.skip(
            path,
            format!("not expanded: archives nested more than {MAX_NESTING} deep"),
        );
        return Ok(());
    }
    let located = match &nested.source {
        EntrySource::Fs {
            path: file,
            dev,
            ino,
        } => match open_fs(file, *dev, *ino) {
            Ok(located) => located,
            Err(note) => {
                notes.skip(path, note);
                return Ok(());
            }
        },
        EntrySource::Range {
            archive,
            offset,
            len,
        } => (archive.clone(), *offset, *len),
        EntrySource::ZipMember {
            archive,
            offset,
            compressed_len,
            method: ZipMethod::Stored,
            ..
        } => (archive.clone(), *offset, *compressed_len),
        EntrySource::ZipMember { .. } => {
            notes.skip(
                path,
                "not expanded: an archive in a compressed ZIP member cannot be read in place"
                    .to_owned(),
            );
            return Ok(());
        }
        EntrySource::None => return Ok(()),
    };
    let (archive, base, len) = located;
    if let Some(declared) = &nested.declared
        && !matches_declaration(cx, &archive, base, len, declared)?
    {
        notes.skip(
            path,
            "quarantined: the archive's bytes contradict their declared integrity; not expanded"
                .to_owned(),
        );
        return Ok(());
    }
    let outcome = match nested.format {
        Format::Asar => {
            let unpacked_root = match &nested.source {
                EntrySource::Fs { path: file, .. } => asar::companion(file),
                _ => None,
            };
            let source = asar::AsarSource {
                archive,
                base,
                len,
                unpacked_root,
            };
            asar::read_header(cx, &source).and_then(|header| {
                asar::walk(
                    cx, &source, &header, path, limits, tally, out, notes, n_entries,
                )
            })
        }
        Format::Zip => zip::walk(
            cx,
            &zip::ZipSource { archive, base, len },
            path,
            limits,
            tally,
            out,
            notes,
            n_entries,
        ),
    };
    match outcome {
        Err(failure) if failure.reason == FailureReason::Format => {
            notes.skip(
                path,
                format!("not expanded as an archive: {}", failure.message),
            );
            Ok(())
        }
        other => other,
    }
}

/// How many archives deep a logical path is.
fn nesting(path: &str) -> usize {
    path.split('/')
        .filter(|part| {
            let lower = part.to_lowercase();
            lower.ends_with(".asar") || zip::is_zip_name(&lower)
        })
        .count()
}

fn open_fs(file: &std::path::Path, dev: u64, ino: u64) -> Result<(ArchiveFile, u64, u64), String> {
    use std::os::unix::fs::MetadataExt;
    let opened = std::fs::File::open(file)
        .map_err(|err| format!("not expanded: the archive could not be opened: {err}"))?;
    let meta = opened
        .metadata()
        .map_err(|err| format!("not expanded: {err}"))?;
    if !meta.is_file() || meta.dev() != dev || meta.ino() != ino {
        return Err("not expanded: the file changed during traversal".to_owned());
    }
    let archive = ArchiveFile {
        path: file.to_path_buf(),
        file: std::sync::Arc::new(opened),
    };
    Ok((archive, 0, meta.len()))
}

/// Hashes a range and compares it with a declared SHA-256 (other algorithms: not checked here).
fn matches_declaration(
    cx: &StageCx<'_>,
    archive: &ArchiveFile,
    base: u64,
    len: u64,
    declared: &DeclaredIntegrity,
) -> Result<bool, Failure> {
    use sha2::Digest;
    if !declared.algorithm.eq_ignore_ascii_case("sha256") {
        return Ok(true);
    }
    let mut hasher = sha2::Sha256::new();
    let mut buf = vec![0u8; rea_core::CHUNK_BYTES];
    let mut at = 0;
    while at < len {
        cx.check()?;
        let want = (len - at).min(buf.len() as u64) as usize;
        if std::os::unix::fs::FileExt::read_exact_at(&*archive.file, &mut buf[..want], base + at)
            .is_err()
        {
            return Ok(false);
        }
        hasher.update(&buf[..want]);
        at += want as u64;
    }
    Ok(hex::encode(hasher.finalize()) == declared.hash)
}

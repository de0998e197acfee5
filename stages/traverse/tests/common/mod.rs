//! What the reader fuzz tests share: walking bytes as an archive, outside any job.
#![allow(dead_code)] // Each test crate uses some of these.

use rea_core::{CancelToken, Limits, ProgressReporter};
use rea_exec::{StageCx, StageKind};
use rea_traverse::{ArchiveFormat, ArchiveRange, Entry, Walk, WalkTally, walk_archive};

/// Writes `bytes` to a file named `name` and walks it as `format`, with a stage of its own and
/// at most 10,000 entries: the entries sent, or the walk's failure message. The entries'
/// sources stay readable: they hold the file open.
pub fn walk_bytes(bytes: &[u8], name: &str, format: ArchiveFormat) -> Result<Vec<Entry>, String> {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(name);
    std::fs::write(&path, bytes).unwrap();
    let cancel = CancelToken::new();
    let progress = ProgressReporter::silent();
    let cx = StageCx::detached(StageKind::Traverse, &cancel, &progress);
    let source = ArchiveRange::whole(&path).map_err(|f| f.message)?;
    let (tx, rx) = crossbeam_channel::unbounded();
    let limits = Limits {
        max_entries: 10_000,
        ..Limits::default()
    };
    let tally = WalkTally::default();
    let mut walk = Walk::new(&cx, &limits, &tally, &tx);
    walk_archive(&mut walk, format, source, Default::default(), "").map_err(|f| f.message)?;
    drop(tx);
    Ok(rx.into_iter().collect())
}

/// Every located file's range is as long as its declared size.
pub fn ranges_match_sizes(entries: &[Entry]) -> Result<(), String> {
    for entry in entries {
        if let rea_traverse::EntrySource::Range { len, .. } = entry.source
            && entry.declared_size != Some(len)
        {
            return Err(format!(
                "{}: {len} bytes located, {:?} declared",
                entry.logical_path, entry.declared_size
            ));
        }
    }
    Ok(())
}

/// A committed fixture's bytes (`tests/fixtures/NAME`).
pub fn fixture(name: &str) -> Vec<u8> {
    std::fs::read(format!(
        "{}/tests/fixtures/{name}",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap()
}

/// The bytes a located entry reads as.
pub fn bytes_of(entry: &Entry) -> Vec<u8> {
    use std::io::Read;
    let rea_traverse::EntrySource::Range {
        archive,
        offset,
        len,
    } = &entry.source
    else {
        panic!(
            "{} is not located: {:?}",
            entry.logical_path, entry.limitations
        );
    };
    let mut out = Vec::new();
    rea_traverse::read::SeekRange::new(archive.file.clone(), *offset, *len)
        .read_to_end(&mut out)
        .unwrap();
    out
}

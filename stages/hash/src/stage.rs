//! The hash stage: every regular file in the entry stream is hashed, in parallel.
//!
//! A file that cannot be read (it vanished, changed identity, or fails with an I/O error) is
//! recorded as `Unavailable` with a limitation; a file over `max_entry_bytes` as
//! `NotHashedLimit`. Only cancellation, a lost producer and `max_total_bytes` fail the stage.

use std::fs::{File, OpenOptions};
use std::os::unix::fs::{MetadataExt, OpenOptionsExt};
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};

use crossbeam_channel::Receiver;
use rayon::iter::{ParallelBridge, ParallelIterator};
use rea_core::{Cancelled, Failure, FailureReason, Limits};
use rea_exec::StageCx;
use rea_traverse::{Entry, EntryKind, EntrySource, ResolvedInput, WalkTally};

use crate::stream::{StreamDigest, StreamError, hash_stream};

/// What hashing did with one entry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HashOutcome {
    Hashed(StreamDigest),
    /// Directories and symlinks: nothing to stream.
    NotHashed,
    /// A file larger than `max_entry_bytes`.
    NotHashedLimit,
    /// A file whose bytes could not be read; the entry's limitations say why.
    Unavailable,
}

/// An entry and its outcome.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HashedEntry {
    pub entry: Entry,
    pub outcome: HashOutcome,
}

/// Consumes `entries` on the current rayon pool and hashes every file.
///
/// The result is in no particular order; the graph stage sorts.
pub fn run(
    cx: &StageCx<'_>,
    entries: Receiver<Entry>,
    limits: &Limits,
    tally: &WalkTally,
) -> Result<Vec<HashedEntry>, Failure> {
    let budget = Budget {
        used: AtomicU64::new(0),
        hashed: AtomicU64::new(0),
    };
    let result: Result<Vec<HashedEntry>, Failure> = entries
        .into_iter()
        .par_bridge()
        .map(|entry| hash_entry(cx, entry, limits, tally, &budget))
        .collect();
    let hashed = result?;
    cx.progress().report(
        "hash",
        budget.hashed.load(Ordering::Relaxed),
        tally.total_file_bytes(),
        "files hashed",
    );
    Ok(hashed)
}

/// Hashes a file given as the job's input. Any failure here is fatal: there is nothing else.
pub fn hash_input_file(
    cx: &StageCx<'_>,
    input: &ResolvedInput,
    limits: &Limits,
) -> Result<StreamDigest, Failure> {
    let done = AtomicU64::new(0);
    let on_chunk = |n: u64| {
        let so_far = done.fetch_add(n, Ordering::Relaxed) + n;
        cx.progress()
            .report("hash", so_far, Some(input.size), "hashing input");
    };
    match hash_fs_file(
        cx,
        &input.path,
        input.dev,
        input.ino,
        limits.max_total_bytes,
        &on_chunk,
    ) {
        Ok(digest) => Ok(digest),
        Err(FileError::Cancelled(cancelled)) => Err(cancelled.into()),
        Err(FileError::OverCap { cap }) => Err(Failure::new(
            FailureReason::Limit,
            "input file is larger than max_total_bytes allows",
        )
        .with_detail("limit", "max_total_bytes")
        .with_detail("maximum", cap)
        .with_detail("truncated", true)),
        Err(FileError::Changed) => Err(Failure::new(
            FailureReason::Integrity,
            "input file changed while it was being read",
        )
        .with_detail("path", input.display.clone())),
        Err(FileError::Io(err)) => Err(Failure::new(
            FailureReason::Io,
            "input file could not be read",
        )
        .with_detail("path", input.display.clone())
        .with_source(err)),
    }
}

struct Budget {
    /// Bytes reserved against `max_total_bytes`.
    used: AtomicU64,
    /// Bytes actually hashed, for progress.
    hashed: AtomicU64,
}

impl Budget {
    fn reserve(&self, bytes: u64, limits: &Limits) -> Result<(), Failure> {
        let before = self.used.fetch_add(bytes, Ordering::Relaxed);
        if before.saturating_add(bytes) > limits.max_total_bytes {
            return Err(Failure::new(
                FailureReason::Limit,
                "input holds more bytes than max_total_bytes allows",
            )
            .with_detail("limit", "max_total_bytes")
            .with_detail("maximum", limits.max_total_bytes)
            .with_detail("truncated", true));
        }
        Ok(())
    }
}

fn hash_entry(
    cx: &StageCx<'_>,
    mut entry: Entry,
    limits: &Limits,
    tally: &WalkTally,
    budget: &Budget,
) -> Result<HashedEntry, Failure> {
    cx.check()?;
    if entry.kind != EntryKind::File {
        return Ok(HashedEntry {
            entry,
            outcome: HashOutcome::NotHashed,
        });
    }
    let EntrySource::Fs { path, dev, ino } = entry.source.clone() else {
        entry
            .limitations
            .push("file has no readable source".to_owned());
        return Ok(HashedEntry {
            entry,
            outcome: HashOutcome::Unavailable,
        });
    };
    let declared = entry.declared_size.unwrap_or(0);
    if declared > limits.max_entry_bytes {
        entry.limitations.push(format!(
            "file was not hashed: {declared} bytes is more than max_entry_bytes {}",
            limits.max_entry_bytes
        ));
        return Ok(HashedEntry {
            entry,
            outcome: HashOutcome::NotHashedLimit,
        });
    }
    budget.reserve(declared, limits)?;
    let on_chunk = |n: u64| {
        let so_far = budget.hashed.fetch_add(n, Ordering::Relaxed) + n;
        cx.progress()
            .report("hash", so_far, tally.total_file_bytes(), "hashing files");
    };
    let outcome = match hash_fs_file(cx, &path, dev, ino, limits.max_entry_bytes, &on_chunk) {
        Ok(digest) => {
            if digest.bytes != declared {
                entry.limitations.push(format!(
                    "file size changed during traversal: listed {declared} bytes, read {}",
                    digest.bytes
                ));
                if digest.bytes > declared {
                    budget.reserve(digest.bytes - declared, limits)?;
                }
            }
            HashOutcome::Hashed(digest)
        }
        Err(FileError::Cancelled(cancelled)) => return Err(cancelled.into()),
        Err(FileError::OverCap { cap }) => {
            entry.limitations.push(format!(
                "file was not hashed: it grew past max_entry_bytes {cap} while being read"
            ));
            HashOutcome::NotHashedLimit
        }
        Err(FileError::Changed) => {
            entry
                .limitations
                .push("file changed identity between listing and reading".to_owned());
            HashOutcome::Unavailable
        }
        Err(FileError::Io(err)) => {
            entry
                .limitations
                .push(format!("file could not be read: {err}"));
            HashOutcome::Unavailable
        }
    };
    Ok(HashedEntry { entry, outcome })
}

enum FileError {
    Cancelled(Cancelled),
    Changed,
    Io(std::io::Error),
    OverCap { cap: u64 },
}

/// Opens `path` without following a symlink or blocking on a FIFO, proves it is the regular
/// file the walk listed (same device and inode), and hashes it.
fn hash_fs_file(
    cx: &StageCx<'_>,
    path: &Path,
    dev: u64,
    ino: u64,
    cap: u64,
    on_chunk: &dyn Fn(u64),
) -> Result<StreamDigest, FileError> {
    cx.check().map_err(FileError::Cancelled)?;
    let mut file: File = OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK)
        .open(path)
        .map_err(|err| {
            if err.raw_os_error() == Some(libc::ELOOP) {
                FileError::Changed
            } else {
                FileError::Io(err)
            }
        })?;
    let meta = file.metadata().map_err(FileError::Io)?;
    if !meta.is_file() || meta.dev() != dev || meta.ino() != ino {
        return Err(FileError::Changed);
    }
    let check = || cx.check();
    match hash_stream(&mut file, cap, &check, on_chunk) {
        Ok(digest) => Ok(digest),
        Err(StreamError::Cancelled(cancelled)) => Err(FileError::Cancelled(cancelled)),
        Err(StreamError::Io(err)) => Err(FileError::Io(err)),
        Err(StreamError::OverCap { cap }) => Err(FileError::OverCap { cap }),
    }
}

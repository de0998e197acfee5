//! The hash stage: every regular file in the entry stream is hashed, in parallel.
//!
//! A file that cannot be read (it vanished, changed identity, or fails with an I/O error) is
//! recorded as `Unavailable` with a limitation; a file over `max_entry_bytes` as
//! `NotHashedLimit`. Only cancellation, a lost producer and `max_total_bytes` fail the stage.

use std::fs::{File, OpenOptions};
use std::io::{Read, Write};
use std::os::unix::fs::{MetadataExt, OpenOptionsExt};
use std::path::Path;
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};

use crossbeam_channel::Receiver;
use rayon::iter::{ParallelBridge, ParallelIterator};
use rea_core::{Cancelled, Failure, FailureReason, IntegrityPolicy, Limits};
use rea_exec::StageCx;
use rea_traverse::read::{CrcReader, RangeReader, SeekRange, zip_member};
use rea_traverse::{
    DeclaredIntegrity, Entry, EntryKind, EntrySource, ResolvedInput, WalkTally, ZipMethod,
};

use crate::stream::{StreamDigest, StreamError, hash_stream_blocks};

/// How observed bytes compare with what their container declared.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// Nothing was declared.
    Undeclared,
    /// The whole-file digest and every block digest match the declaration.
    Verified,
    /// A declaration exists but cannot be checked (unknown algorithm, malformed metadata).
    Unverifiable,
    /// The bytes contradict the declaration (recorded under record-and-continue only).
    Mismatched { declared_sha256: String },
}

/// What hashing did with one entry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HashOutcome {
    Hashed(StreamDigest, Verdict),
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

/// Consumes `entries` on the current rayon pool, hashes every file, and checks declared
/// integrity under `policy`.
///
/// The result is in no particular order; the graph stage sorts.
pub fn run(
    cx: &StageCx<'_>,
    entries: Receiver<Entry>,
    limits: &Limits,
    policy: IntegrityPolicy,
    tally: &WalkTally,
) -> Result<Vec<HashedEntry>, Failure> {
    let budget = Budget {
        used: AtomicU64::new(0),
        hashed: AtomicU64::new(0),
        mismatches: AtomicU32::new(0),
    };
    let job = Job {
        cx,
        limits,
        policy,
        tally,
        budget: &budget,
    };
    let result: Result<Vec<HashedEntry>, Failure> = entries
        .into_iter()
        .par_bridge()
        .map(|entry| job.hash_entry(entry))
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
    hash_input_file_with(cx, input, limits, &on_chunk)
}

/// [`hash_input_file`] without progress: for an archive's own digest, computed while its
/// entries are hashed and reported.
pub fn hash_archive_file(
    cx: &StageCx<'_>,
    input: &ResolvedInput,
    limits: &Limits,
) -> Result<StreamDigest, Failure> {
    hash_input_file_with(cx, input, limits, &|_| {})
}

fn hash_input_file_with(
    cx: &StageCx<'_>,
    input: &ResolvedInput,
    limits: &Limits,
    on_chunk: &dyn Fn(u64),
) -> Result<StreamDigest, Failure> {
    match hash_fs_file(
        cx,
        &input.path,
        input.dev,
        input.ino,
        limits.max_total_bytes,
        None,
        on_chunk,
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
    /// Integrity mismatches recorded so far.
    mismatches: AtomicU32,
}

struct Job<'a, 'cx> {
    cx: &'a StageCx<'cx>,
    limits: &'a Limits,
    policy: IntegrityPolicy,
    tally: &'a WalkTally,
    budget: &'a Budget,
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

impl Job<'_, '_> {
    fn hash_entry(&self, mut entry: Entry) -> Result<HashedEntry, Failure> {
        let (cx, limits, budget) = (self.cx, self.limits, self.budget);
        cx.check()?;
        if entry.kind != EntryKind::File {
            return Ok(HashedEntry {
                entry,
                outcome: HashOutcome::NotHashed,
            });
        }
        if matches!(entry.source, EntrySource::None) {
            // The reader could not locate the bytes; its limitations say why. Checked before the
            // budget, so that a garbage declared size cannot fail the whole job.
            return Ok(HashedEntry {
                entry,
                outcome: HashOutcome::Unavailable,
            });
        }
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
            cx.progress().report(
                "hash",
                so_far,
                self.tally.total_file_bytes(),
                "hashing files",
            );
        };
        let block_size = entry.declared.as_ref().and_then(|d| d.block_size);
        // A cheap clone (an `Arc` or a path) that leaves `entry` free to record limitations.
        let source = entry.source.clone();
        // An entry read to its end, up to `max_entry_bytes`.
        let hash_whole = |reader: &mut dyn Read| {
            hash_reader(cx, reader, limits.max_entry_bytes, block_size, &on_chunk)
        };
        let hashed = match &source {
            EntrySource::Fs { path, dev, ino } => hash_fs_file(
                cx,
                path,
                *dev,
                *ino,
                limits.max_entry_bytes,
                block_size,
                &on_chunk,
            ),
            EntrySource::Range {
                archive,
                offset,
                len,
            } => {
                let mut reader = RangeReader {
                    file: &archive.file,
                    pos: *offset,
                    end: offset + len,
                };
                hash_whole(&mut reader)
            }
            EntrySource::ZipMember {
                archive,
                offset,
                compressed_len,
                method,
                crc32,
            } => {
                // Inflation is bounded by the declared size: a member that inflates to more is cut off.
                let cap = declared.min(limits.max_entry_bytes);
                let mut reader =
                    CrcReader::new(zip_member(archive, *offset, *compressed_len, *method));
                let hashed = hash_reader(cx, &mut reader, cap, block_size, &on_chunk);
                let observed = reader.crc.finalize();
                match hashed {
                    Ok(_) if observed != *crc32 => {
                        if self.policy == IntegrityPolicy::Fail {
                            return Err(Failure::new(
                                FailureReason::Integrity,
                                "zip member bytes fail their CRC-32",
                            )
                            .with_detail("logical_path", entry.logical_path.clone())
                            .with_detail("declared_crc32", format!("{crc32:08x}"))
                            .with_detail("observed_crc32", format!("{observed:08x}"))
                            .with_detail("unpacked", false));
                        }
                        entry.limitations.push(format!(
                            "CRC-32 mismatch: declared {crc32:08x}, observed {observed:08x}; the bytes are corrupt and were not trusted"
                        ));
                        return Ok(HashedEntry {
                            entry,
                            outcome: HashOutcome::Unavailable,
                        });
                    }
                    Err(FileError::OverCap { .. }) if cap == declared => {
                        entry.limitations.push(format!(
                            "member inflates to more than its declared {declared} bytes; it was not trusted"
                        ));
                        return Ok(HashedEntry {
                            entry,
                            outcome: HashOutcome::Unavailable,
                        });
                    }
                    other => other,
                }
            }
            EntrySource::Squashfs { archive, file } => {
                // The reader stops at the inode's size; a block that does not decompress, or
                // an image that ends first, is an I/O error.
                hash_whole(&mut rea_traverse::squashfs::FileReader::new(archive, file))
            }
            EntrySource::None => {
                // The reader could not locate the bytes; its limitations say why.
                return Ok(HashedEntry {
                    entry,
                    outcome: HashOutcome::Unavailable,
                });
            }
        };
        let outcome = match hashed {
            Ok(digest) => {
                if digest.bytes != declared {
                    entry.limitations.push(format!(
                        "size changed or was misdeclared: listed {declared} bytes, read {}",
                        digest.bytes
                    ));
                    if digest.bytes > declared {
                        budget.reserve(digest.bytes - declared, limits)?;
                    }
                }
                let verdict = self.verdict(&mut entry, &digest)?;
                HashOutcome::Hashed(digest, verdict)
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

    /// Compares observed digests with the declaration, applying the integrity policy.
    fn verdict(&self, entry: &mut Entry, digest: &StreamDigest) -> Result<Verdict, Failure> {
        let Some(declared) = &entry.declared else {
            return Ok(Verdict::Undeclared);
        };
        if !declared.algorithm.eq_ignore_ascii_case("sha256") {
            if declared.algorithm != "malformed" {
                entry.limitations.push(format!(
                    "integrity algorithm {:?} is not supported; the entry is unverifiable",
                    declared.algorithm
                ));
            }
            return Ok(Verdict::Unverifiable);
        }
        if matches_declaration(declared, digest) {
            return Ok(Verdict::Verified);
        }
        let declared_sha256 = declared.hash.clone();
        match self.policy {
            IntegrityPolicy::Fail => Err(Failure::new(
                FailureReason::Integrity,
                "entry bytes contradict the archive's integrity metadata",
            )
            .with_detail("logical_path", entry.logical_path.clone())
            .with_detail("declared_sha256", declared_sha256)
            .with_detail("observed_sha256", digest.sha256.clone())
            .with_detail("unpacked", entry.unpacked)),
            IntegrityPolicy::RecordAndContinue { max_mismatches } => {
                let seen = self.budget.mismatches.fetch_add(1, Ordering::Relaxed) + 1;
                if seen > max_mismatches {
                    return Err(Failure::new(
                        FailureReason::Limit,
                        "more integrity mismatches than max_integrity_mismatches allows",
                    )
                    .with_detail("limit", "max_integrity_mismatches")
                    .with_detail("maximum", max_mismatches)
                    .with_detail("truncated", true));
                }
                entry.limitations.push(
                    "observed bytes contradict declared integrity metadata and cannot support equivalence"
                        .to_owned(),
                );
                Ok(Verdict::Mismatched { declared_sha256 })
            }
        }
    }
}

/// The whole digest must match, and every block when blocks are declared.
fn matches_declaration(declared: &DeclaredIntegrity, digest: &StreamDigest) -> bool {
    digest.sha256 == declared.hash
        && (declared.blocks.is_empty() || digest.blocks == declared.blocks)
}

/// Streams the bytes of `entry` into `sink` while hashing them, 64 KiB at a time with a
/// cancellation check per chunk, for extraction and for reading small files during analysis.
/// Reads at most `cap` bytes; the caller compares the digest with what the inventory recorded.
pub fn copy_entry(
    cx: &StageCx<'_>,
    entry: &Entry,
    cap: u64,
    sink: &mut dyn Write,
) -> Result<StreamDigest, Failure> {
    let shown = entry.logical_path.clone();
    let unreadable = |message: &str| {
        Failure::new(FailureReason::Io, message.to_owned())
            .with_detail("logical_path", shown.clone())
    };
    let mut owned_file;
    let mut range;
    let mut member;
    let mut image_file;
    let reader: &mut dyn Read = match &entry.source {
        EntrySource::Fs { path, dev, ino } => {
            owned_file = open_checked(path, *dev, *ino)
                .map_err(|_| unreadable("entry file could not be opened as listed"))?;
            &mut owned_file
        }
        EntrySource::Range {
            archive,
            offset,
            len,
        } => {
            range = RangeReader {
                file: &archive.file,
                pos: *offset,
                end: offset + len,
            };
            &mut range
        }
        EntrySource::ZipMember {
            archive,
            offset,
            compressed_len,
            method,
            ..
        } => {
            member = zip_member(archive, *offset, *compressed_len, *method);
            &mut member
        }
        EntrySource::Squashfs { archive, file } => {
            image_file = rea_traverse::squashfs::FileReader::new(archive, file);
            &mut image_file
        }
        EntrySource::None => return Err(unreadable("entry has no readable bytes")),
    };
    let mut tee = TeeReader {
        inner: reader,
        sink,
    };
    let check = || cx.check();
    match hash_stream_blocks(&mut tee, cap, None, &check, &|_| {}) {
        Ok(digest) => Ok(digest),
        Err(StreamError::Cancelled(cancelled)) => Err(cancelled.into()),
        Err(StreamError::OverCap { cap }) => Err(Failure::new(
            FailureReason::Limit,
            "entry is larger than allowed",
        )
        .with_detail("limit", "max_entry_bytes")
        .with_detail("maximum", cap)
        .with_detail("logical_path", entry.logical_path.clone())),
        Err(StreamError::Io(err)) => {
            Err(unreadable("entry bytes could not be read or written").with_source(err))
        }
    }
}

/// Random access to bytes: what [`random_access`] returns.
pub trait ReadSeek: Read + std::io::Seek {}

impl<T: Read + std::io::Seek> ReadSeek for T {}

/// An entry's bytes for random access, where its container allows it: the file on disk the walk
/// listed (checked by device and inode), a packed ASAR range, or a stored ZIP member. `None`
/// for a deflated member or a file in a SquashFS image, which can only be streamed ([`copy_entry`]), and for an entry with no
/// bytes. Nothing here checks the bytes against the inventory's digest: a reader takes a few
/// structures, not the whole content.
pub fn random_access(entry: &Entry) -> Option<Result<Box<dyn ReadSeek + '_>, Failure>> {
    let unreadable = || {
        Failure::new(
            FailureReason::Io,
            "entry file could not be opened as listed",
        )
        .with_detail("logical_path", entry.logical_path.clone())
    };
    match &entry.source {
        EntrySource::Fs { path, dev, ino } => Some(
            open_checked(path, *dev, *ino)
                .map(|file| Box::new(file) as Box<dyn ReadSeek>)
                .map_err(|_| unreadable()),
        ),
        EntrySource::Range {
            archive,
            offset,
            len,
        } => Some(Ok(Box::new(SeekRange::new(
            archive.file.clone(),
            *offset,
            *len,
        )))),
        EntrySource::ZipMember {
            archive,
            offset,
            compressed_len,
            method: ZipMethod::Stored,
            ..
        } => Some(Ok(Box::new(SeekRange::new(
            archive.file.clone(),
            *offset,
            *compressed_len,
        )))),
        EntrySource::ZipMember { .. } | EntrySource::Squashfs { .. } | EntrySource::None => None,
    }
}

/// Writes what it reads to a sink.
struct TeeReader<'a> {
    inner: &'a mut dyn Read,
    sink: &'a mut dyn Write,
}

impl Read for TeeReader<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.sink.write_all(&buf[..n])?;
        Ok(n)
    }
}

/// Opens a listed file without following a symlink or blocking, and proves it is the same file.
fn open_checked(path: &Path, dev: u64, ino: u64) -> Result<File, FileError> {
    let file = OpenOptions::new()
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
    Ok(file)
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
    block_size: Option<u64>,
    on_chunk: &dyn Fn(u64),
) -> Result<StreamDigest, FileError> {
    cx.check().map_err(FileError::Cancelled)?;
    let mut file = open_checked(path, dev, ino)?;
    hash_reader(cx, &mut file, cap, block_size, on_chunk)
}

fn hash_reader(
    cx: &StageCx<'_>,
    reader: &mut dyn Read,
    cap: u64,
    block_size: Option<u64>,
    on_chunk: &dyn Fn(u64),
) -> Result<StreamDigest, FileError> {
    let check = || cx.check();
    match hash_stream_blocks(reader, cap, block_size, &check, on_chunk) {
        Ok(digest) => Ok(digest),
        Err(StreamError::Cancelled(cancelled)) => Err(FileError::Cancelled(cancelled)),
        Err(StreamError::Io(err)) => Err(FileError::Io(err)),
        Err(StreamError::OverCap { cap }) => Err(FileError::OverCap { cap }),
    }
}

//! The reader-neutral entry and what a walk reports besides entries.

use std::collections::BTreeMap;
use std::fs::File;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use rea_core::{Failure, FailureReason};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// What kind of thing an entry is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum EntryKind {
    File,
    Directory,
    Symlink,
}

impl EntryKind {
    pub fn as_str(self) -> &'static str {
        match self {
            EntryKind::File => "file",
            EntryKind::Directory => "directory",
            EntryKind::Symlink => "symlink",
        }
    }
}

/// An open container file, shared by every entry read from it with positioned reads.
#[derive(Debug, Clone)]
pub struct ArchiveFile {
    /// Shared: every entry read from the archive holds a clone.
    pub path: Arc<Path>,
    pub file: Arc<File>,
}

impl ArchiveFile {
    /// Opens the archive file at `path` (already resolved): the shared handle, and its length.
    pub fn open(path: &Path) -> Result<(ArchiveFile, u64), Failure> {
        let file = File::open(path).map_err(|err| {
            Failure::new(FailureReason::Io, "archive could not be opened")
                .with_detail("path", path.to_string_lossy().into_owned())
                .with_source(err)
        })?;
        let len = file
            .metadata()
            .map_err(|err| {
                Failure::new(FailureReason::Io, "archive could not be read").with_source(err)
            })?
            .len();
        Ok((
            ArchiveFile {
                path: Arc::from(path),
                file: Arc::new(file),
            },
            len,
        ))
    }
}

/// An archive inside a file: the whole file, or a byte range of it (a member of an outer
/// archive, or an in-memory file it was decompressed into).
#[derive(Debug, Clone)]
pub struct ArchiveRange {
    pub archive: ArchiveFile,
    pub base: u64,
    pub len: u64,
}

impl ArchiveRange {
    /// The failure of a reader that cannot read this archive as `what` ("tar archive", "RPM
    /// package"), with reason `format`: at the root the run's error, nested the container's
    /// note.
    pub fn unreadable(&self, what: &str, problem: impl std::fmt::Display) -> Failure {
        Failure::new(
            FailureReason::Format,
            format!("not a readable {what}: {problem}"),
        )
        .with_detail("path", self.archive.path.to_string_lossy().into_owned())
        .with_detail("problem", problem.to_string())
    }

    /// Reads `buf.len()` bytes at `at` (from the range's start), all inside the range, or
    /// nothing: where a reader takes a container's structures a few bytes at a time.
    pub(crate) fn read_at(&self, at: u64, buf: &mut [u8]) -> Option<()> {
        use std::os::unix::fs::FileExt;
        let end = at.checked_add(buf.len() as u64)?;
        (end <= self.len)
            .then(|| self.archive.file.read_exact_at(buf, self.base + at).ok())
            .flatten()
    }

    /// The whole archive file at `path` (already resolved).
    pub fn whole(path: &Path) -> Result<ArchiveRange, Failure> {
        let (archive, len) = ArchiveFile::open(path)?;
        Ok(ArchiveRange {
            archive,
            base: 0,
            len,
        })
    }
}

/// The failure of a walk that meets more entries than `max_entries` allows.
pub(crate) fn too_many_entries(limits: &rea_core::Limits) -> rea_core::Failure {
    rea_core::Failure::new(
        rea_core::FailureReason::Limit,
        "input has more entries than max_entries allows",
    )
    .with_detail("limit", "max_entries")
    .with_detail("maximum", limits.max_entries)
    .with_detail("truncated", true)
}

impl PartialEq for ArchiveFile {
    fn eq(&self, other: &ArchiveFile) -> bool {
        Arc::ptr_eq(&self.file, &other.file)
    }
}

impl Eq for ArchiveFile {}

/// Where an entry's bytes can be read; private to the reader that made it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EntrySource {
    /// A file on the file system, with the identity `lstat` saw, so that an open can prove it
    /// reads the same file the walk listed.
    Fs { path: PathBuf, dev: u64, ino: u64 },
    /// A byte range of an open container file (an entry packed in an ASAR).
    Range {
        archive: ArchiveFile,
        offset: u64,
        len: u64,
    },
    /// A ZIP member: `compressed_len` bytes at `offset`, stored or deflated, with its CRC-32.
    ZipMember {
        archive: ArchiveFile,
        offset: u64,
        compressed_len: u64,
        method: ZipMethod,
        crc32: u32,
    },
    /// A file in a SquashFS image (an AppImage, a snap): its blocks, decompressed in order.
    Squashfs {
        archive: ArchiveFile,
        file: Arc<crate::squashfs::SquashfsFile>,
    },
    /// Nothing to read: directories, symlinks, and entries whose bytes cannot be located (their
    /// limitations say why).
    None,
}

/// The ZIP compression methods REA reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ZipMethod {
    Stored,
    Deflated,
}

/// Integrity a container declares for an entry (ASAR `integrity`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeclaredIntegrity {
    /// As declared, for example `SHA256`.
    pub algorithm: String,
    /// Lowercase hex digest of the whole entry.
    pub hash: String,
    /// Bytes per block; `None` when the container declares no blocks.
    pub block_size: Option<u64>,
    /// Lowercase hex digest of each block, in order.
    pub blocks: Vec<String>,
}

/// One entry of a container, as a reader lists it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// Relative, `/`-separated, no leading slash, valid UTF-8, never `.` or `..` components.
    pub logical_path: String,
    pub kind: EntryKind,
    /// The size the container states (for a directory file, `lstat`'s size).
    pub declared_size: Option<u64>,
    pub executable: bool,
    /// A symlink's target text, never followed.
    pub link_target: Option<String>,
    /// True only for ASAR entries stored in `<archive>.unpacked/`.
    pub unpacked: bool,
    pub source: EntrySource,
    /// What the container declares about the entry's bytes, if anything.
    pub declared: Option<DeclaredIntegrity>,
    /// What the reader could not do for this entry.
    pub limitations: Vec<String>,
}

impl Entry {
    /// A directory with nothing declared about it: one an archive's member paths imply, or
    /// one it lists.
    pub fn directory(logical_path: String) -> Entry {
        Entry::bare(logical_path, EntryKind::Directory)
    }

    /// An entry of `kind` with nothing known about it yet: no size, no bytes located.
    pub fn bare(logical_path: String, kind: EntryKind) -> Entry {
        Entry {
            logical_path,
            kind,
            declared_size: None,
            executable: false,
            link_target: None,
            unpacked: false,
            source: EntrySource::None,
            declared: None,
            limitations: Vec::new(),
        }
    }
}

/// What a walk learned besides its entries.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct WalkNotes {
    /// Notes for the whole walk.
    pub limitations: Vec<String>,
    /// Notes for one directory whose listing is incomplete, keyed by its logical path
    /// (`""` for the root).
    pub incomplete: BTreeMap<String, Vec<String>>,
    /// Every ASAR header read, keyed by the archive's logical path (`""` for the root).
    pub asar_headers: BTreeMap<String, HeaderDigest>,
}

/// An ASAR header as Electron's integrity check sees it: the SHA-256 of the header's JSON text
/// (the string inside the pickle, which `ElectronAsarIntegrity` declares).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HeaderDigest {
    /// Lowercase hex.
    pub sha256: String,
    /// Bytes of JSON text.
    pub size: u64,
}

impl WalkNotes {
    pub(crate) fn skip(&mut self, parent: &str, note: String) {
        self.incomplete
            .entry(parent.to_owned())
            .or_default()
            .push(note);
    }
}

/// Live counters a walk keeps, so that later stages can report a total once it is known.
#[derive(Debug, Default)]
pub struct WalkTally {
    entries: AtomicU64,
    file_bytes: AtomicU64,
    done: AtomicBool,
}

impl WalkTally {
    pub(crate) fn add(&self, entry: &Entry) {
        self.entries.fetch_add(1, Ordering::Relaxed);
        if entry.kind == EntryKind::File {
            self.file_bytes
                .fetch_add(entry.declared_size.unwrap_or(0), Ordering::Relaxed);
        }
    }

    pub fn finish(&self) {
        self.done.store(true, Ordering::Release);
    }

    pub fn entries(&self) -> u64 {
        self.entries.load(Ordering::Relaxed)
    }

    /// The declared bytes of all files, once the walk has finished; `None` before.
    pub fn total_file_bytes(&self) -> Option<u64> {
        self.done
            .load(Ordering::Acquire)
            .then(|| self.file_bytes.load(Ordering::Relaxed))
    }
}

//! The reader-neutral entry and what a walk reports besides entries.

use std::collections::BTreeMap;
use std::path::PathBuf;
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

/// Where an entry's bytes can be read; private to the reader that made it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EntrySource {
    /// A file on the file system, with the identity `lstat` saw, so that an open can prove it
    /// reads the same file the walk listed.
    Fs { path: PathBuf, dev: u64, ino: u64 },
    /// Nothing to read (directories and symlinks).
    None,
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
    /// What the reader could not do for this entry.
    pub limitations: Vec<String>,
}

/// What a walk learned besides its entries.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct WalkNotes {
    /// Notes for the whole walk.
    pub limitations: Vec<String>,
    /// Notes for one directory whose listing is incomplete, keyed by its logical path
    /// (`""` for the root).
    pub incomplete: BTreeMap<String, Vec<String>>,
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

    pub(crate) fn finish(&self) {
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

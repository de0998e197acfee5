//! The traverse stage: resolve what the user pointed at, then walk it into [`Entry`] values.
//!
//! This crate owns input resolution ([`resolve_input`]), the reader-neutral [`Entry`], and one
//! module per reader: [`directory`], [`asar`], [`zip`], [`tar`], [`rpm`], [`squashfs`], [`sevenz`], [`exe`], [`cab`], [`msi`], [`dmg`], [`xar`] and [`payload`] (the directory reader also uses the
//! latter two to expand the archives it meets). A reader never follows a symlink, never opens a
//! special file, and never decides an output path; it reports odd entries as limitations and
//! fails the walk only on cancellation or a hard limit.
//!
//! It does not hash: `rea-hash` consumes the entry stream. Start with [`directory::walk`].

pub mod asar;
pub mod cab;
pub mod directory;
pub mod dmg;
mod entry;
pub mod exe;
mod hfs;
mod input;
pub mod msi;
mod nested;
mod nsis;
pub mod path;
pub mod payload;
pub mod read;
pub mod rpm;
pub mod sevenz;
pub mod squashfs;
pub mod tar;
pub mod xar;
pub mod zip;

pub use entry::{
    ArchiveFile, ArchiveRange, DeclaredIntegrity, Entry, EntryKind, EntrySource, HeaderDigest,
    WalkNotes, WalkTally, ZipMethod,
};
pub use input::{InputKind, ResolvedInput, entry_estimate, resolve_input};
pub use nested::{ArchiveFormat, Walk, walk_archive};

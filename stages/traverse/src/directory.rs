//! The directory reader: an `lstat` walk that never follows a symlink.
//!
//! Children are visited in code-point order of their names, so the walk itself is
//! deterministic, although nothing downstream depends on its order.
//! A child that cannot be represented (a name that is not UTF-8, a path too deep or too long,
//! a special file, an `lstat` failure) is skipped and noted on its parent directory.
//! A directory that cannot be listed is noted the same way. Only cancellation, a lost consumer
//! and `max_entries` stop the walk.
//!
//! A regular file named `*.asar` that holds an ASAR header is expanded in place: its entries
//! follow it, below its own logical path (`resources/app.asar/main.js`). A directory named
//! `*.asar` or `*.js` is just a directory. A file that is not a readable ASAR stays a file, with
//! a limitation saying why it was not expanded.

use std::ffi::OsString;
use std::fs;
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::MetadataExt;
use std::path::PathBuf;

use crossbeam_channel::Sender;
use rea_core::{Failure, FailureReason, Limits};
use rea_exec::StageCx;

use crate::asar;
use crate::entry::{Entry, EntryKind, EntrySource, WalkNotes, WalkTally};
use crate::input::special_kind;
use crate::path;

/// Walks the directory at `root` (already resolved), sending every entry below it to `out`.
pub fn walk(
    cx: &StageCx<'_>,
    root: &std::path::Path,
    limits: &Limits,
    tally: &WalkTally,
    out: &Sender<Entry>,
) -> Result<WalkNotes, Failure> {
    let mut notes = WalkNotes::default();
    let root_meta = match fs::symlink_metadata(root) {
        Ok(meta) => meta,
        Err(err) => {
            return Err(
                Failure::new(FailureReason::Io, "input directory could not be read")
                    .with_source(err),
            );
        }
    };
    let mut stack = vec![PendingDir {
        abs: root.to_path_buf(),
        logical: String::new(),
        dev: root_meta.dev(),
        ino: root_meta.ino(),
    }];
    let mut n_entries: u64 = 0;
    while let Some(dir) = stack.pop() {
        cx.check()?;
        let children = match list(&dir) {
            Ok(children) => children,
            Err(note) => {
                notes.skip(&dir.logical, note);
                continue;
            }
        };
        let mut subdirs = Vec::new();
        for name in children {
            cx.check()?;
            let Some(child) = child_entry(&dir, &name, limits, &mut notes) else {
                continue;
            };
            if n_entries >= limits.max_entries {
                return Err(Failure::new(
                    FailureReason::Limit,
                    "input has more entries than max_entries allows",
                )
                .with_detail("limit", "max_entries")
                .with_detail("maximum", limits.max_entries)
                .with_detail("truncated", true));
            }
            n_entries += 1;
            if child.kind == EntryKind::Directory
                && let EntrySource::Fs { path, dev, ino } = &child.source
            {
                subdirs.push(PendingDir {
                    abs: path.clone(),
                    logical: child.logical_path.clone(),
                    dev: *dev,
                    ino: *ino,
                });
            }
            let nested = nested_asar(cx, &child);
            let mut child = child;
            let nested = match nested {
                Ok(nested) => nested,
                Err(note) => {
                    child.limitations.push(note);
                    None
                }
            };
            tally.add(&child);
            let prefix = child.logical_path.clone();
            let (child_kind, child_source) = (child.kind, child.source.clone());
            if out.send(child).is_err() {
                return Err(cx.disconnected());
            }
            let is_zip = child_is_zip(&prefix, &child_kind);
            if is_zip && let EntrySource::Fs { path, .. } = &child_source {
                let mut zip_notes = WalkNotes::default();
                match crate::zip::walk(
                    cx,
                    path,
                    &prefix,
                    limits,
                    tally,
                    out,
                    &mut zip_notes,
                    &mut n_entries,
                ) {
                    Ok(()) => merge_notes(&mut notes, zip_notes),
                    Err(failure) if failure.reason == FailureReason::Format => {
                        notes.skip(
                            &prefix,
                            format!("not expanded as a ZIP archive: {}", failure.message),
                        );
                    }
                    Err(failure) => return Err(failure),
                }
            }
            if let Some((source, header)) = nested {
                asar::walk(
                    cx,
                    &source,
                    &header,
                    &prefix,
                    limits,
                    tally,
                    out,
                    &mut notes,
                    &mut n_entries,
                )?;
            }
        }
        stack.extend(subdirs.into_iter().rev());
    }
    tally.finish();
    Ok(notes)
}

/// A regular file whose name is in the zip family is expanded as a ZIP archive.
fn child_is_zip(logical_path: &str, kind: &EntryKind) -> bool {
    *kind == EntryKind::File && crate::zip::is_zip_name(logical_path)
}

fn merge_notes(into: &mut WalkNotes, from: WalkNotes) {
    into.limitations.extend(from.limitations);
    for (path, notes) in from.incomplete {
        into.incomplete.entry(path).or_default().extend(notes);
    }
}

/// Opens `entry` as an ASAR archive when it is a regular file named `*.asar`.
/// `Ok(None)`: not a candidate. `Err(note)`: a candidate that could not be expanded.
fn nested_asar(
    cx: &StageCx<'_>,
    entry: &Entry,
) -> Result<Option<(asar::AsarSource, asar::AsarHeader)>, String> {
    let EntrySource::Fs { path, dev, ino } = &entry.source else {
        return Ok(None);
    };
    if entry.kind != EntryKind::File || !entry.logical_path.to_lowercase().ends_with(".asar") {
        return Ok(None);
    }
    let source =
        asar::open(path).map_err(|f| format!("not expanded as an ASAR archive: {}", f.message))?;
    let same = source
        .archive
        .file
        .metadata()
        .is_ok_and(|m| m.dev() == *dev && m.ino() == *ino);
    if !same {
        return Err(
            "not expanded as an ASAR archive: the file changed during traversal".to_owned(),
        );
    }
    match asar::read_header(cx, &source) {
        Ok(header) => Ok(Some((source, header))),
        Err(failure) if failure.is_cancellation() => Err(failure.message),
        Err(failure) => Err(format!(
            "not expanded as an ASAR archive: {}",
            failure.message
        )),
    }
}

struct PendingDir {
    abs: PathBuf,
    logical: String,
    dev: u64,
    ino: u64,
}

/// Lists a directory's child names in code-point order, after checking that the directory is
/// still the one the walk saw.
fn list(dir: &PendingDir) -> Result<Vec<OsString>, String> {
    let here = if dir.logical.is_empty() {
        "."
    } else {
        dir.logical.as_str()
    };
    match fs::symlink_metadata(&dir.abs) {
        Ok(meta) if meta.is_dir() && meta.dev() == dir.dev && meta.ino() == dir.ino => {}
        _ => {
            return Err(format!(
                "directory {here} changed during traversal; its children were not listed"
            ));
        }
    }
    let reader = fs::read_dir(&dir.abs)
        .map_err(|err| format!("directory {here} could not be listed: {err}"))?;
    let mut names = Vec::new();
    for item in reader {
        match item {
            Ok(item) => names.push(item.file_name()),
            Err(err) => {
                return Err(format!(
                    "directory {here} could not be listed completely: {err}"
                ));
            }
        }
    }
    names.sort_unstable_by(|a, b| a.as_bytes().cmp(b.as_bytes()));
    Ok(names)
}

/// Builds the entry for one child, or notes why it was skipped.
fn child_entry(
    dir: &PendingDir,
    name: &OsString,
    limits: &Limits,
    notes: &mut WalkNotes,
) -> Option<Entry> {
    let here = &dir.logical;
    let Some(text) = name.to_str() else {
        let shown = path::join(here, &name.to_string_lossy());
        notes.skip(
            here,
            format!("entry {shown} was skipped: its name is not valid UTF-8"),
        );
        return None;
    };
    let logical = path::join(here, text);
    if let Some(problem) = path::component_problem(text) {
        notes.skip(here, format!("entry {logical} was skipped: {problem}"));
        return None;
    }
    if path::depth(&logical) > limits.max_depth as usize {
        notes.skip(
            here,
            format!(
                "entry {logical} was skipped: deeper than max_depth {}",
                limits.max_depth
            ),
        );
        return None;
    }
    if logical.len() > limits.max_path_bytes as usize {
        notes.skip(
            here,
            format!(
                "entry {logical} was skipped: path longer than max_path_bytes {}",
                limits.max_path_bytes
            ),
        );
        return None;
    }
    let abs = dir.abs.join(name);
    let meta = match fs::symlink_metadata(&abs) {
        Ok(meta) => meta,
        Err(err) => {
            notes.skip(
                here,
                format!("entry {logical} was skipped: lstat failed: {err}"),
            );
            return None;
        }
    };
    let file_type = meta.file_type();
    let mut entry = Entry {
        logical_path: logical,
        kind: EntryKind::File,
        declared_size: None,
        executable: meta.mode() & 0o111 != 0,
        link_target: None,
        unpacked: false,
        source: EntrySource::None,
        declared: None,
        limitations: Vec::new(),
    };
    if file_type.is_symlink() {
        entry.kind = EntryKind::Symlink;
        entry.executable = false;
        match fs::read_link(&abs) {
            Ok(target) => match target.to_str() {
                Some(target) => entry.link_target = Some(target.to_owned()),
                None => {
                    entry.link_target = Some(target.to_string_lossy().into_owned());
                    entry.limitations.push(
                        "symlink target is not valid UTF-8; it is shown with replacement characters".to_owned(),
                    );
                }
            },
            Err(err) => entry
                .limitations
                .push(format!("symlink target could not be read: {err}")),
        }
    } else if file_type.is_dir() {
        entry.kind = EntryKind::Directory;
        entry.executable = false;
        entry.source = EntrySource::Fs {
            path: abs,
            dev: meta.dev(),
            ino: meta.ino(),
        };
    } else if file_type.is_file() {
        entry.declared_size = Some(meta.len());
        entry.source = EntrySource::Fs {
            path: abs,
            dev: meta.dev(),
            ino: meta.ino(),
        };
    } else {
        let what = special_kind(&file_type);
        notes.skip(
            here,
            format!("entry {} was skipped: it is a {what}", entry.logical_path),
        );
        return None;
    }
    Some(entry)
}

//! The directory reader: an `lstat` walk that never follows a symlink.
//!
//! Children are visited in code-point order of their names, so the walk itself is
//! deterministic, although nothing downstream depends on its order.
//! A child that cannot be represented (a name that is not UTF-8, a path too deep or too long,
//! a special file, an `lstat` failure) is skipped and noted on its parent directory.
//! A directory that cannot be listed is noted the same way. Only cancellation, a lost consumer
//! and `max_entries` stop the walk.
//!
//! A regular file named `*.asar` or like a zip-family archive is expanded in place by
//! `nested`: its entries follow it, below its own logical path (`resources/app.asar/main.js`).
//! A directory named `*.asar` or `*.js` is just a directory. A file that is not a readable
//! archive stays a file, with a note on its occurrence saying why it was not expanded.

use std::ffi::OsString;
use std::fs;
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::MetadataExt;
use std::path::PathBuf;

use crossbeam_channel::Sender;
use rea_core::{Failure, FailureReason, Limits};
use rea_exec::StageCx;

use crate::entry::{Entry, EntryKind, EntrySource, WalkNotes, WalkTally};
use crate::input::special_kind;
use crate::nested::Walk;
use crate::path;

/// Walks the directory at `root` (already resolved), sending every entry below it to `out`,
/// and expanding the containers it meets.
pub fn walk(
    cx: &StageCx<'_>,
    root: &std::path::Path,
    limits: &Limits,
    tally: &WalkTally,
    out: &Sender<Entry>,
) -> Result<WalkNotes, Failure> {
    walk_pruned(cx, root, limits, tally, out, &mut |_, _| false, true)
}

/// [`walk`], asking `prune` about each child (its logical path and kind) before it is sent: a
/// pruned child is neither sent nor counted, and a pruned directory is not descended. With
/// `expand_nested` false, containers are files like any other (a source tree's archives).
pub fn walk_pruned(
    cx: &StageCx<'_>,
    root: &std::path::Path,
    limits: &Limits,
    tally: &WalkTally,
    out: &Sender<Entry>,
    prune: &mut dyn FnMut(&str, EntryKind) -> bool,
    expand_nested: bool,
) -> Result<WalkNotes, Failure> {
    let mut walk = Walk::new(cx, limits, tally, out);
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
    while let Some(dir) = stack.pop() {
        cx.check()?;
        let children = match list(&dir) {
            Ok(children) => children,
            Err(note) => {
                walk.notes.skip(&dir.logical, note);
                continue;
            }
        };
        let mut subdirs = Vec::new();
        for name in children {
            cx.check()?;
            let Some(child) = child_entry(&dir, &name, limits, &mut walk.notes) else {
                continue;
            };
            if prune(&child.logical_path, child.kind) {
                continue;
            }
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
            if let Some(nested) = walk.send(child)?
                && expand_nested
            {
                crate::nested::expand(&mut walk, nested)?;
            }
        }
        stack.extend(subdirs.into_iter().rev());
    }
    tally.finish();
    Ok(walk.notes)
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

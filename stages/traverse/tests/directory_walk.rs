//! The directory reader on real trees made in a temporary folder.

use std::collections::BTreeMap;
use std::os::unix::ffi::OsStrExt;

use rea_core::{CancelToken, FailureReason, Limits, ProgressReporter};
use rea_exec::{StageCx, StageKind};
use rea_traverse::{Entry, EntryKind, WalkNotes, WalkTally, directory};

fn walk(
    root: &std::path::Path,
    limits: &Limits,
) -> Result<(Vec<Entry>, WalkNotes), rea_core::Failure> {
    let cancel = CancelToken::new();
    let progress = ProgressReporter::silent();
    let cx = StageCx::detached(StageKind::Traverse, &cancel, &progress);
    let (tx, rx) = crossbeam_channel::unbounded();
    let tally = WalkTally::default();
    let notes = directory::walk(&cx, root, limits, &tally, &tx)?;
    drop(tx);
    let entries: Vec<Entry> = rx.into_iter().collect();
    assert_eq!(tally.entries(), entries.len() as u64);
    Ok((entries, notes))
}

fn by_path(entries: &[Entry]) -> BTreeMap<&str, &Entry> {
    entries
        .iter()
        .map(|e| (e.logical_path.as_str(), e))
        .collect()
}

#[test]
fn lists_files_directories_and_symlinks_without_following() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    std::fs::create_dir_all(root.join("node_modules/ipaddr.js/lib")).unwrap();
    std::fs::write(root.join("node_modules/ipaddr.js/lib/ipaddr.js"), b"x").unwrap();
    std::fs::write(root.join("main.js"), b"console.log(1)").unwrap();
    std::os::unix::fs::symlink("/etc/passwd", root.join("passwd")).unwrap();
    std::os::unix::fs::symlink("node_modules", root.join("loop")).unwrap();
    let (entries, notes) = walk(root, &Limits::default()).unwrap();
    let map = by_path(&entries);
    assert_eq!(
        map.keys().copied().collect::<Vec<_>>(),
        vec![
            "loop",
            "main.js",
            "node_modules",
            "node_modules/ipaddr.js",
            "node_modules/ipaddr.js/lib",
            "node_modules/ipaddr.js/lib/ipaddr.js",
            "passwd"
        ]
    );
    assert_eq!(map["node_modules/ipaddr.js"].kind, EntryKind::Directory);
    assert_eq!(map["main.js"].declared_size, Some(14));
    assert_eq!(map["passwd"].kind, EntryKind::Symlink);
    assert_eq!(map["passwd"].link_target.as_deref(), Some("/etc/passwd"));
    assert_eq!(map["loop"].link_target.as_deref(), Some("node_modules"));
    assert_eq!(notes, WalkNotes::default());
}

#[test]
fn odd_children_are_noted_not_fatal() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    std::fs::create_dir_all(root.join("a/b/c")).unwrap();
    std::fs::write(root.join("a/b/c/deep.txt"), b"deep").unwrap();
    let bad = std::ffi::OsStr::from_bytes(b"bad-\xff.js");
    std::fs::write(root.join(bad), b"x").unwrap();
    let fifo = root.join("pipe");
    let status = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap();
    assert!(status.success());
    let limits = Limits {
        max_depth: 2,
        ..Limits::default()
    };
    let (entries, notes) = walk(root, &limits).unwrap();
    let paths: Vec<_> = entries.iter().map(|e| e.logical_path.as_str()).collect();
    assert_eq!(paths, vec!["a", "a/b"]);
    let root_notes = &notes.incomplete[""];
    assert!(
        root_notes.iter().any(|n| n.contains("not valid UTF-8")),
        "{root_notes:?}"
    );
    assert!(
        root_notes
            .iter()
            .any(|n| n.contains("pipe") && n.contains("fifo")),
        "{root_notes:?}"
    );
    assert!(notes.incomplete["a/b"][0].contains("deeper than max_depth 2"));
}

#[test]
fn max_entries_is_a_hard_limit() {
    let dir = tempfile::tempdir().unwrap();
    for i in 0..5 {
        std::fs::write(dir.path().join(format!("f{i}")), b"x").unwrap();
    }
    let err = walk(
        dir.path(),
        &Limits {
            max_entries: 4,
            ..Limits::default()
        },
    )
    .unwrap_err();
    assert_eq!(err.reason, FailureReason::Limit);
    assert_eq!(err.details["limit"], "max_entries");
    assert!(
        walk(
            dir.path(),
            &Limits {
                max_entries: 5,
                ..Limits::default()
            }
        )
        .is_ok()
    );
}

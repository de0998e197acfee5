//! The 7z and executable-overlay readers never panic, whatever the bytes: a real archive (packed
//! by 7-Zip with `corpora/scripts/sevenz_tool.py`, LZMA2, a symlink kept as a link) and a real
//! NSIS installer holding it uncompressed (built by makensis as electron-builder's templates
//! embed an app package), with bytes flipped or cut off, give entries or a typed failure; a
//! file's bytes, when located, are exactly as long as the archive declares.

use proptest::prelude::*;
use rea_traverse::{ArchiveFormat, Entry, EntryKind, EntrySource};

mod common;

fn kinds(entries: &[Entry]) -> Vec<(&str, EntryKind)> {
    entries
        .iter()
        .map(|e| (e.logical_path.as_str(), e.kind))
        .collect()
}

#[test]
fn the_seed_archive_lists_its_members() {
    let entries = common::walk_bytes(
        &common::fixture("tiny.7z"),
        "tiny.7z",
        ArchiveFormat::SevenZ,
    )
    .unwrap();
    let listed = kinds(&entries);
    for expected in [
        ("index.js", EntryKind::File),
        ("package.json", EntryKind::File),
        ("lib/data.txt", EntryKind::File),
        ("lib/link.js", EntryKind::Symlink),
        ("empty", EntryKind::Directory),
    ] {
        assert!(listed.contains(&expected), "{expected:?} in {listed:?}");
    }
    let index = entries
        .iter()
        .find(|e| e.logical_path == "index.js")
        .unwrap();
    assert!(index.executable);
    assert!(matches!(index.source, EntrySource::Range { len: 19, .. }));
    let link = entries
        .iter()
        .find(|e| e.logical_path == "lib/link.js")
        .unwrap();
    assert_eq!(link.link_target.as_deref(), Some("../index.js"));
    common::ranges_match_sizes(&entries).unwrap();
}

#[test]
fn the_seed_installer_holds_the_archive() {
    let setup = common::fixture("tiny-setup.exe");
    let archive = common::fixture("tiny.7z");
    let at = setup
        .windows(archive.len())
        .position(|w| w == archive.as_slice())
        .expect("the installer stores the archive as it is");
    let entries = common::walk_bytes(&setup, "tiny-setup.exe", ArchiveFormat::Exe).unwrap();
    // Named by the installer's script, and read where NSIS stored it.
    let package = entries
        .iter()
        .find(|e| e.logical_path == "$PLUGINSDIR/app-64.7z")
        .unwrap_or_else(|| panic!("{:?}", kinds(&entries)));
    assert_eq!(package.declared_size, Some(archive.len() as u64));
    assert!(matches!(package.source, EntrySource::Range { offset, .. } if offset == at as u64));
    assert!(
        kinds(&entries).contains(&("$PLUGINSDIR/app-64.7z/lib/data.txt", EntryKind::File)),
        "{:?}",
        kinds(&entries)
    );
    // A program with nothing in its overlay, or not a program at all, holds nothing.
    let stub = &setup[..at];
    assert!(
        common::walk_bytes(stub, "stub.exe", ArchiveFormat::Exe)
            .unwrap()
            .is_empty()
    );
    assert!(
        common::walk_bytes(b"MZ not really", "x.exe", ArchiveFormat::Exe)
            .unwrap()
            .is_empty()
    );
}

proptest! {
    #[test]
    fn flipped_archive_bytes_give_entries_or_a_typed_failure(flips in proptest::collection::vec((any::<prop::sample::Index>(), 1u8..=255), 1..8)) {
        let mut bytes = common::fixture("tiny.7z");
        for (at, mask) in flips {
            let i = at.index(bytes.len());
            bytes[i] ^= mask;
        }
        match common::walk_bytes(&bytes, "fuzz.7z", ArchiveFormat::SevenZ) {
            Ok(entries) => prop_assert!(common::ranges_match_sizes(&entries).is_ok(), "{:?}", common::ranges_match_sizes(&entries)),
            Err(message) => prop_assert!(message.starts_with("not a readable 7z archive"), "{}", message),
        }
    }

    #[test]
    fn archives_cut_short_give_entries_or_a_typed_failure(at in any::<prop::sample::Index>()) {
        let bytes = common::fixture("tiny.7z");
        if let Err(message) = common::walk_bytes(&bytes[..at.index(bytes.len())], "cut.7z", ArchiveFormat::SevenZ) {
            prop_assert!(message.starts_with("not a readable 7z archive"), "{}", message);
        }
    }

    #[test]
    fn flipped_or_cut_installers_give_entries_never_a_failure(
        flips in proptest::collection::vec((any::<prop::sample::Index>(), 1u8..=255), 0..8),
        cut in any::<prop::sample::Index>(),
    ) {
        let mut bytes = common::fixture("tiny-setup.exe");
        for (at, mask) in flips {
            let i = at.index(bytes.len());
            bytes[i] ^= mask;
        }
        bytes.truncate(cut.index(bytes.len()).max(64));
        // A broken payload is a note on it, a broken program no container at all.
        let entries = common::walk_bytes(&bytes, "fuzz.exe", ArchiveFormat::Exe);
        prop_assert!(entries.is_ok(), "{:?}", entries.err());
        let entries = entries.unwrap();
        prop_assert!(common::ranges_match_sizes(&entries).is_ok(), "{:?}", common::ranges_match_sizes(&entries));
    }
}

//! The disk-image and HFS+ readers never panic, whatever the bytes: a small image (written by
//! `corpora/scripts/dmg_tool.py`, whose images 7-Zip reads file for file in the CLI tests: an
//! HFSX volume of three files, one in two extents, and a symlink, in zlib runs), with bytes
//! flipped or cut off (and the same volume in raw runs, flipped where its structures are),
//! gives entries or a typed failure; a file's bytes, when located, are
//! exactly as long as the volume declares.

use proptest::prelude::*;
use rea_traverse::{ArchiveFormat, EntryKind};

mod common;

fn fixture() -> Vec<u8> {
    common::fixture("tiny.dmg")
}

fn typed(message: &str) -> bool {
    message.starts_with("not a readable disk image")
        || message.starts_with("not a readable HFS+ volume")
}

#[test]
fn the_seed_image_lists_its_volume() {
    let entries = common::walk_bytes(&fixture(), "tiny.dmg", ArchiveFormat::Dmg).unwrap();
    let find = |path: &str| entries.iter().find(|e| e.logical_path == path).unwrap();
    assert_eq!(
        common::bytes_of(find("index.js")),
        b"console.log(\"tiny\");\n"
    );
    // More than 64 KiB: stored in two extents, read as one.
    let data: String = (0..12_000).map(|i| format!("line {i}\n")).collect();
    assert_eq!(common::bytes_of(find("lib/data.txt")), data.as_bytes());
    let link = find("lib/link.js");
    assert_eq!(link.kind, EntryKind::Symlink);
    assert_eq!(link.link_target.as_deref(), Some("../index.js"));
    assert_eq!(find("lib").kind, EntryKind::Directory);
    common::ranges_match_sizes(&entries).unwrap();
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn flipped_images_give_entries_or_a_typed_failure(flips in proptest::collection::vec((any::<prop::sample::Index>(), 1u8..=255), 1..8)) {
        let mut bytes = fixture();
        for (at, mask) in flips {
            let i = at.index(bytes.len());
            bytes[i] ^= mask;
        }
        match common::walk_bytes(&bytes, "fuzz.dmg", ArchiveFormat::Dmg) {
            Ok(entries) => prop_assert!(common::ranges_match_sizes(&entries).is_ok(), "{:?}", common::ranges_match_sizes(&entries)),
            Err(message) => prop_assert!(typed(&message), "{}", message),
        }
    }

    /// The same volume in raw runs: flips land in the volume header, the B-trees and the
    /// records themselves, not in compressed bytes.
    #[test]
    fn flipped_volumes_give_entries_or_a_typed_failure(flips in proptest::collection::vec((any::<prop::sample::Index>(), 1u8..=255), 1..8)) {
        let mut bytes = common::fixture("tiny-raw.dmg");
        let volume_end = bytes.len() - 4096;
        for (at, mask) in flips {
            let i = at.index(volume_end);
            bytes[i] ^= mask;
        }
        match common::walk_bytes(&bytes, "fuzz.dmg", ArchiveFormat::Dmg) {
            Ok(entries) => prop_assert!(common::ranges_match_sizes(&entries).is_ok(), "{:?}", common::ranges_match_sizes(&entries)),
            Err(message) => prop_assert!(typed(&message), "{}", message),
        }
    }

    #[test]
    fn images_cut_short_give_entries_or_a_typed_failure(at in any::<prop::sample::Index>()) {
        let bytes = fixture();
        if let Err(message) = common::walk_bytes(&bytes[..at.index(bytes.len())], "cut.dmg", ArchiveFormat::Dmg) {
            prop_assert!(typed(&message), "{}", message);
        }
    }
}

//! The disk-image and HFS+ readers never panic, whatever the bytes: a small image (written by
//! `corpora/scripts/dmg_tool.py`, whose images 7-Zip reads file for file in the CLI tests: an
//! HFSX volume of three files, one in two extents, and a symlink, in zlib runs), with bytes
//! flipped or cut off (and the same volume in raw runs, flipped where its structures are),
//! gives entries or a typed failure; a file's bytes, when located, are
//! exactly as long as the volume declares. Three more images put Apple's compressors under the
//! same flips: the volume in LZFSE runs (`tiny-lzfse.dmg`), and in raw runs with every file
//! compressed by the file system as LZVN (`tiny-lzvn-files.dmg`, decmpfs types 7 and 8) or
//! LZFSE (`tiny-lzfse-files.dmg`, types 11 and 12), where flips land in the compressed files.
//! They were written with `dmg_tool.py pack SRC DEST lzfse|raw volume plain|decmpfs-lzvn|
//! decmpfs-lzfse` from the seed's tree (the LZVN one without `lib/data.txt`), plus
//! `lib/small.txt` (230 lines `small line {i % 40}`) and `lib/mixed.bin` (3,900 random bytes,
//! then 190 `a`) in the two decmpfs ones.

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

#[test]
fn images_compressed_by_apples_compressors_list_the_same_files() {
    let plain = common::walk_bytes(&fixture(), "tiny.dmg", ArchiveFormat::Dmg).unwrap();
    let digest = |entries: &[rea_traverse::Entry], path: &str| {
        entries
            .iter()
            .find(|e| e.logical_path == path)
            .map(common::bytes_of)
    };
    let lzfse = common::walk_bytes(
        &common::fixture("tiny-lzfse.dmg"),
        "a.dmg",
        ArchiveFormat::Dmg,
    )
    .unwrap();
    let lzvn_files = common::walk_bytes(
        &common::fixture("tiny-lzvn-files.dmg"),
        "b.dmg",
        ArchiveFormat::Dmg,
    )
    .unwrap();
    let lzfse_files = common::walk_bytes(
        &common::fixture("tiny-lzfse-files.dmg"),
        "c.dmg",
        ArchiveFormat::Dmg,
    )
    .unwrap();
    for entries in [&lzfse, &lzvn_files, &lzfse_files] {
        common::ranges_match_sizes(entries).unwrap();
        for path in ["index.js", "package.json"] {
            assert_eq!(digest(entries, path), digest(&plain, path), "{path}");
        }
    }
    let data = "lib/data.txt";
    assert_eq!(digest(&lzfse, data), digest(&plain, data));
    assert_eq!(digest(&lzfse_files, data), digest(&plain, data));
    let small: String = (0..230)
        .map(|i| format!("small line {}\n", i % 40))
        .collect();
    let mixed = digest(&lzvn_files, "lib/mixed.bin").unwrap();
    assert_eq!(mixed.len(), 4090);
    assert!(mixed.ends_with(&[b'a'; 190]));
    for entries in [&lzvn_files, &lzfse_files] {
        assert_eq!(digest(entries, "lib/small.txt").unwrap(), small.as_bytes());
        assert_eq!(digest(entries, "lib/mixed.bin").unwrap(), mixed);
    }
}

/// Flips `flips` in `bytes` (below `end`) and walks the image.
fn walk_flipped(
    mut bytes: Vec<u8>,
    end: usize,
    flips: Vec<(prop::sample::Index, u8)>,
) -> Result<(), TestCaseError> {
    for (at, mask) in flips {
        let i = at.index(end);
        bytes[i] ^= mask;
    }
    match common::walk_bytes(&bytes, "fuzz.dmg", ArchiveFormat::Dmg) {
        Ok(entries) => prop_assert!(
            common::ranges_match_sizes(&entries).is_ok(),
            "{:?}",
            common::ranges_match_sizes(&entries)
        ),
        Err(message) => prop_assert!(typed(&message), "{}", message),
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn flipped_compressed_images_give_entries_or_a_typed_failure(
        image in 0usize..3,
        flips in proptest::collection::vec((any::<prop::sample::Index>(), 1u8..=255), 1..8),
    ) {
        let name = ["tiny-lzfse.dmg", "tiny-lzvn-files.dmg", "tiny-lzfse-files.dmg"][image];
        let bytes = common::fixture(name);
        // Flips in the runs, not in the trailer's property list.
        let end = bytes.len() - 4096;
        walk_flipped(bytes, end, flips)?;
    }

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

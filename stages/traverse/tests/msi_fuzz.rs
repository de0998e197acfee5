//! The Windows Installer and cabinet readers never panic, whatever the bytes: a real package
//! (built by wixl with `corpora/scripts/msi_tool.py`: three files, one of them compressed over
//! several MSZIP blocks, and a custom action binary) and its embedded cabinet alone, with bytes
//! flipped or cut off, give entries or a typed failure; a file's bytes, when located, are
//! exactly as long as the package declares.

use proptest::prelude::*;
use rea_traverse::{ArchiveFormat, EntryKind};

mod common;

#[test]
fn the_seed_package_installs_its_files_and_lists_its_streams() {
    let entries =
        common::walk_bytes(&common::fixture("tiny.msi"), "tiny.msi", ArchiveFormat::Msi).unwrap();
    let find = |path: &str| {
        entries
            .iter()
            .find(|e| e.logical_path == path)
            .unwrap_or_else(|| {
                panic!(
                    "{path} in {:?}",
                    entries.iter().map(|e| &e.logical_path).collect::<Vec<_>>()
                )
            })
    };
    assert_eq!(
        common::bytes_of(find("Program Files/Demo App/index.js")),
        b"console.log(\"tiny\");\n"
    );
    let data: String = (0..12_000).map(|i| format!("line {i}\n")).collect();
    assert_eq!(
        common::bytes_of(find("Program Files/Demo App/lib/data.txt")),
        data.as_bytes()
    );
    assert_eq!(
        common::bytes_of(find("[streams]/Binary.CustomActionDll")),
        b"MZ custom action"
    );
    assert_eq!(
        find("Program Files/Demo App/lib").kind,
        EntryKind::Directory
    );
    common::ranges_match_sizes(&entries).unwrap();

    // The cabinet alone: the same bytes, under the keys the package's File table gives them.
    let cabinet =
        common::walk_bytes(&common::fixture("tiny.cab"), "tiny.cab", ArchiveFormat::Cab).unwrap();
    assert_eq!(cabinet.len(), 3);
    let mut from_cab: Vec<Vec<u8>> = cabinet.iter().map(common::bytes_of).collect();
    from_cab.sort();
    assert!(from_cab.contains(&data.into_bytes()));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn flipped_packages_give_entries_or_a_typed_failure(flips in proptest::collection::vec((any::<prop::sample::Index>(), 1u8..=255), 1..8)) {
        let mut bytes = common::fixture("tiny.msi");
        for (at, mask) in flips {
            let i = at.index(bytes.len());
            bytes[i] ^= mask;
        }
        match common::walk_bytes(&bytes, "fuzz.msi", ArchiveFormat::Msi) {
            Ok(entries) => prop_assert!(common::ranges_match_sizes(&entries).is_ok(), "{:?}", common::ranges_match_sizes(&entries)),
            Err(message) => prop_assert!(message.starts_with("not a readable Windows Installer package"), "{}", message),
        }
    }

    #[test]
    fn packages_cut_short_give_entries_or_a_typed_failure(at in any::<prop::sample::Index>()) {
        let bytes = common::fixture("tiny.msi");
        if let Err(message) = common::walk_bytes(&bytes[..at.index(bytes.len())], "cut.msi", ArchiveFormat::Msi) {
            prop_assert!(message.starts_with("not a readable Windows Installer package"), "{}", message);
        }
    }

    #[test]
    fn flipped_or_cut_cabinets_give_entries_or_a_typed_failure(
        flips in proptest::collection::vec((any::<prop::sample::Index>(), 1u8..=255), 0..8),
        cut in any::<prop::sample::Index>(),
    ) {
        let mut bytes = common::fixture("tiny.cab");
        for (at, mask) in flips {
            let i = at.index(bytes.len());
            bytes[i] ^= mask;
        }
        bytes.truncate(cut.index(bytes.len()).max(1));
        match common::walk_bytes(&bytes, "fuzz.cab", ArchiveFormat::Cab) {
            Ok(entries) => prop_assert!(common::ranges_match_sizes(&entries).is_ok(), "{:?}", common::ranges_match_sizes(&entries)),
            Err(message) => prop_assert!(message.starts_with("not a readable cabinet"), "{}", message),
        }
    }
}

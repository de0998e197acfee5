//! The flat-package (XAR) and payload (cpio) readers never panic, whatever the bytes: a small
//! package (written by `corpora/scripts/pkg_tool.py`, whose packages 7-Zip and GNU cpio read
//! file for file in the CLI tests: a XAR table of contents, zlib-encoded members, and a gzip
//! odc cpio Payload holding three files and a symlink), with bytes flipped or cut off, gives
//! entries or a typed failure; a file's bytes, when located, are exactly as long as declared.

use proptest::prelude::*;
use rea_traverse::{ArchiveFormat, EntryKind};

mod common;

fn typed(message: &str) -> bool {
    message.starts_with("not a readable XAR archive")
}

#[test]
fn the_seed_package_lists_its_members_and_payload() {
    let entries =
        common::walk_bytes(&common::fixture("tiny.pkg"), "tiny.pkg", ArchiveFormat::Xar).unwrap();
    let find = |path: &str| {
        entries
            .iter()
            .find(|e| e.logical_path == path)
            .unwrap_or_else(|| panic!("{path}"))
    };
    assert!(common::bytes_of(find("Distribution")).starts_with(b"<?xml"));
    assert_eq!(
        common::bytes_of(find("app.pkg/Payload/index.js")),
        b"console.log(\"tiny\");\n"
    );
    let data: String = (0..12_000).map(|i| format!("line {i}\n")).collect();
    assert_eq!(
        common::bytes_of(find("app.pkg/Payload/lib/data.txt")),
        data.as_bytes()
    );
    let link = find("app.pkg/Payload/lib/link.js");
    assert_eq!(link.kind, EntryKind::Symlink);
    assert_eq!(link.link_target.as_deref(), Some("../index.js"));
    common::ranges_match_sizes(&entries).unwrap();
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn flipped_or_cut_packages_give_entries_or_a_typed_failure(
        flips in proptest::collection::vec((any::<prop::sample::Index>(), 1u8..=255), 0..8),
        cut in any::<prop::sample::Index>(),
    ) {
        let mut bytes = common::fixture("tiny.pkg");
        for (at, mask) in flips {
            let i = at.index(bytes.len());
            bytes[i] ^= mask;
        }
        bytes.truncate(cut.index(bytes.len()).max(1));
        match common::walk_bytes(&bytes, "fuzz.pkg", ArchiveFormat::Xar) {
            Ok(entries) => prop_assert!(common::ranges_match_sizes(&entries).is_ok(), "{:?}", common::ranges_match_sizes(&entries)),
            Err(message) => prop_assert!(typed(&message), "{}", message),
        }
    }
}

/// The seed package's Payload, decompressed: its odc cpio archive.
fn seed_cpio() -> Vec<u8> {
    use std::io::Read;
    let entries =
        common::walk_bytes(&common::fixture("tiny.pkg"), "tiny.pkg", ArchiveFormat::Xar).unwrap();
    let payload = entries
        .iter()
        .find(|e| e.logical_path == "app.pkg/Payload")
        .unwrap();
    let mut cpio = Vec::new();
    flate2::read::GzDecoder::new(&common::bytes_of(payload)[..])
        .read_to_end(&mut cpio)
        .unwrap();
    cpio
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    /// The cpio archive itself, uncompressed (a payload may be stored so): flips land in its
    /// headers, names and data.
    #[test]
    fn flipped_or_cut_cpio_payloads_give_entries_or_a_typed_failure(
        flips in proptest::collection::vec((any::<prop::sample::Index>(), 1u8..=255), 0..8),
        cut in any::<prop::sample::Index>(),
    ) {
        let mut bytes = seed_cpio();
        prop_assert!(bytes.starts_with(b"070707"));
        for (at, mask) in flips {
            let i = at.index(bytes.len());
            bytes[i] ^= mask;
        }
        bytes.truncate(cut.index(bytes.len()).max(1));
        match common::walk_bytes(&bytes, "Payload", ArchiveFormat::PkgPayload) {
            Ok(entries) => prop_assert!(common::ranges_match_sizes(&entries).is_ok(), "{:?}", common::ranges_match_sizes(&entries)),
            Err(message) => prop_assert!(message.starts_with("not a readable package payload"), "{}", message),
        }
    }
}

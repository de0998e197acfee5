//! The RPM reader never panics, whatever the bytes: a real package (built by `rpmbuild` with
//! `corpora/scripts/rpm_tool.py`, gzip payload) with bytes flipped or cut off gives entries or
//! a typed failure.

use proptest::prelude::*;
use rea_traverse::{ArchiveFormat, EntryKind, EntrySource};

mod common;

fn seed() -> Vec<u8> {
    std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/tiny.rpm"
    ))
    .unwrap()
}

fn walk(bytes: &[u8]) -> Result<Vec<rea_traverse::Entry>, String> {
    common::walk_bytes(bytes, "fuzz.rpm", ArchiveFormat::Rpm)
}

#[test]
fn the_seed_package_lists_its_payload() {
    let entries = walk(&seed()).unwrap();
    let files: Vec<(&str, EntryKind)> = entries
        .iter()
        .map(|e| (e.logical_path.as_str(), e.kind))
        .collect();
    assert!(
        files.contains(&("opt/Fixture/index.js", EntryKind::File)),
        "{files:?}"
    );
    assert!(files.contains(&("opt/Fixture/lib/link.js", EntryKind::Symlink)));
    assert!(files.contains(&("opt", EntryKind::Directory)));
    let index = entries
        .iter()
        .find(|e| e.logical_path == "opt/Fixture/index.js")
        .unwrap();
    // Its bytes are a range of the decompressed payload, and the header declares its digest.
    assert!(matches!(index.source, EntrySource::Range { len: 20, .. }));
    let declared = index.declared.as_ref().unwrap();
    assert_eq!(declared.algorithm, "SHA256");
    assert_eq!(declared.hash.len(), 64);
}

proptest! {
    #[test]
    fn flipped_bytes_give_entries_or_a_typed_failure(flips in proptest::collection::vec((any::<prop::sample::Index>(), 1u8..=255), 1..8)) {
        let mut bytes = seed();
        for (at, mask) in flips {
            let i = at.index(bytes.len());
            bytes[i] ^= mask;
        }
        if let Err(message) = walk(&bytes) {
            prop_assert!(message.starts_with("not a readable RPM package"), "{}", message);
        }
    }

    #[test]
    fn packages_cut_short_give_entries_or_a_typed_failure(at in any::<prop::sample::Index>()) {
        let bytes = seed();
        if let Err(message) = walk(&bytes[..at.index(bytes.len())]) {
            prop_assert!(message.starts_with("not a readable RPM package"), "{}", message);
        }
    }
}

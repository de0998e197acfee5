//! The SquashFS reader never panics, whatever the bytes: a real image with bytes flipped or cut
//! off gives entries whose reads end in data or an error, or a typed failure.

use std::io::Read;

use proptest::prelude::*;
use rea_traverse::{ArchiveFormat, EntrySource, squashfs};

mod common;

/// A small image written by `backhand`: a file of three 4 KiB blocks and a tail, a file in a
/// fragment, a hole, a directory and a symlink.
fn seed() -> Vec<u8> {
    use backhand::{FilesystemWriter, NodeHeader};
    let mut writer = FilesystemWriter::default();
    writer.set_block_size(4096);
    let header = NodeHeader::default();
    let text: Vec<u8> = (0..14_000u32).map(|i| (i % 251) as u8).collect();
    writer.push_dir("a", header).unwrap();
    writer
        .push_file(std::io::Cursor::new(text), "a/blocks", header)
        .unwrap();
    writer
        .push_file(std::io::Cursor::new(b"tail".to_vec()), "a/small", header)
        .unwrap();
    writer
        .push_file(std::io::Cursor::new(vec![0u8; 9000]), "zeros", header)
        .unwrap();
    writer.push_symlink("a/blocks", "link", header).unwrap();
    let mut out = std::io::Cursor::new(Vec::new());
    writer.write(&mut out).unwrap();
    out.into_inner()
}

/// What reading one listed file gave.
type Listed = (String, Option<u64>, Result<Vec<u8>, String>);

/// Walks `bytes` as an image and reads every file it lists: its path, declared size and bytes,
/// in path order, or the walk's failure.
fn read_all(bytes: &[u8]) -> Result<Vec<Listed>, String> {
    let entries = common::walk_bytes(bytes, "fuzz.squashfs", ArchiveFormat::Squashfs)?;
    Ok(entries
        .into_iter()
        .filter_map(|entry| match &entry.source {
            EntrySource::Squashfs { archive, file } => {
                let mut bytes = Vec::new();
                let read = squashfs::FileReader::new(archive, file)
                    .take(1 << 24)
                    .read_to_end(&mut bytes)
                    .map(|_| bytes)
                    .map_err(|err| err.to_string());
                Some((entry.logical_path.clone(), entry.declared_size, read))
            }
            _ => None,
        })
        .collect())
}

#[test]
fn the_seed_image_reads_back_whole() {
    let files = read_all(&seed()).unwrap();
    let names: Vec<&str> = files.iter().map(|(p, _, _)| p.as_str()).collect();
    assert_eq!(names, ["a/blocks", "a/small", "zeros"]);
    let blocks = files[0].2.as_ref().unwrap();
    assert_eq!(blocks.len(), 14_000);
    assert!(
        blocks
            .iter()
            .enumerate()
            .all(|(i, b)| *b == (i % 251) as u8)
    );
    assert_eq!(files[1].2.as_deref().unwrap(), b"tail");
    assert_eq!(files[2].2.as_ref().unwrap(), &vec![0u8; 9000]);
}

/// A file read either fails or gives exactly the size its inode declares (up to the 16 MiB
/// the test reads).
fn every_read_is_whole_or_an_error(listed: Result<Vec<Listed>, String>) {
    let Ok(files) = listed else {
        return;
    };
    for (path, declared, read) in files {
        if let Ok(bytes) = read {
            let declared = declared.expect("a file declares its size");
            assert_eq!(bytes.len() as u64, declared.min(1 << 24), "{path}");
        }
    }
}

proptest! {
    #[test]
    fn flipped_bytes_never_panic(flips in proptest::collection::vec((any::<prop::sample::Index>(), 1u8..=255), 1..8)) {
        let mut bytes = seed();
        for (at, mask) in flips {
            let i = at.index(bytes.len());
            bytes[i] ^= mask;
        }
        every_read_is_whole_or_an_error(read_all(&bytes));
    }

    #[test]
    fn images_cut_short_never_panic(at in any::<prop::sample::Index>()) {
        let bytes = seed();
        let cut = at.index(bytes.len());
        every_read_is_whole_or_an_error(read_all(&bytes[..cut]));
    }
}

//! The ASAR reader never panics, whatever the bytes: it returns entries or a typed failure.

use proptest::prelude::*;
use rea_traverse::ArchiveFormat;

mod common;

/// Reads `bytes` as an archive and walks it; returns how many entries came out, or the failure.
fn read_all(bytes: &[u8]) -> Result<usize, String> {
    common::walk_bytes(bytes, "fuzz.asar", ArchiveFormat::Asar).map(|entries| entries.len())
}

/// A valid pickle around `json`, so that fuzzing reaches the header parser and the walker.
fn pickled(json: &[u8], data: &[u8]) -> Vec<u8> {
    let len = json.len() as u32;
    let padded = (len + 3) & !3;
    let mut out = Vec::new();
    for word in [4u32, 8 + padded, 4 + padded, len] {
        out.extend_from_slice(&word.to_le_bytes());
    }
    out.extend_from_slice(json);
    out.resize(16 + padded as usize, 0);
    out.extend_from_slice(data);
    out
}

fn node() -> impl Strategy<Value = serde_json::Value> {
    let leaf = prop_oneof![
        Just(serde_json::json!(null)),
        any::<i64>().prop_map(|n| serde_json::json!({"size": n, "offset": n.to_string()})),
        (0u64..64, 0u64..64)
            .prop_map(|(s, o)| serde_json::json!({"size": s, "offset": o.to_string()})),
        "[a-z./]{0,8}".prop_map(|t| serde_json::json!({"link": t})),
        Just(serde_json::json!({"size": 3, "unpacked": true})),
        Just(
            serde_json::json!({"size": 3, "offset": "0", "integrity": {"algorithm": "SHA256", "hash": 7}})
        ),
        Just(serde_json::json!({"files": 5})),
    ];
    leaf.prop_recursive(4, 32, 4, |inner| {
        proptest::collection::btree_map("[a-z.]{0,4}", inner, 0..4).prop_map(
            |m| serde_json::json!({"files": m.into_iter().collect::<serde_json::Map<_, _>>()}),
        )
    })
}

proptest! {
    #[test]
    fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..256)) {
        let _ = read_all(&bytes);
    }

    #[test]
    fn arbitrary_headers_never_panic(root in node(), data in proptest::collection::vec(any::<u8>(), 0..64)) {
        let json = serde_json::to_vec(&serde_json::json!({"files": {"root": root}})).unwrap();
        let _ = read_all(&pickled(&json, &data));
    }

    #[test]
    fn arbitrary_header_text_never_panics(text in "[{}\\[\\]\":,a-z0-9 ]{0,64}") {
        let _ = read_all(&pickled(text.as_bytes(), b""));
    }
}

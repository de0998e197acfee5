//! The directory inventory of a real npm tree equals an independent listing.
//!
//! The tree (express, react, react-dom, pinned) is installed once by
//! `corpora/scripts/npm-tree.sh` under Cargo's target tmp dir; the oracle is
//! `corpora/scripts/list_tree.py`, which walks and hashes with Python's standard library.

use std::path::{Path, PathBuf};

use serde_json::Value;

mod support;

use support::{corpus, inventory_all, python_lines};

fn npm_tree() -> PathBuf {
    corpus("npm-tree.sh", "npm-tree")
}

fn rea_json(root: &Path, threads: &str) -> Vec<u8> {
    inventory_all(root, &["--threads", threads])
}

#[test]
fn inventory_of_an_npm_tree_equals_an_independent_listing() {
    let root = npm_tree();
    let stdout = rea_json(&root, "2");
    let value: Value = serde_json::from_slice(&stdout).unwrap();
    let result = &value["result"];
    let ours: Vec<Value> = result["occurrences"]["items"]
        .as_array()
        .unwrap()
        .iter()
        .skip(1)
        .map(|o| {
            serde_json::json!({
                "logical_path": o["logical_path"],
                "entry_kind": o["entry_kind"],
                "size": if o["entry_kind"] == "file" { o["size"].clone() } else { Value::Null },
                "sha256": if o["entry_kind"] == "file" { o["sha256"].clone() } else { Value::Null },
                "link_target": o["link_target"],
            })
        })
        .collect();
    let theirs = python_lines("list_tree.py", &[root.as_os_str()]);
    assert!(
        theirs.len() > 500,
        "the npm tree is real: {} entries",
        theirs.len()
    );
    assert!(
        theirs.iter().any(|r| r["entry_kind"] == "symlink"),
        "node_modules/.bin has symlinks"
    );
    assert_eq!(ours.len(), theirs.len());
    for (a, b) in ours.iter().zip(&theirs) {
        assert_eq!(a, b);
    }
    // Every hashed file occurrence became one node per distinct digest.
    let distinct: std::collections::BTreeSet<_> =
        theirs.iter().filter_map(|r| r["sha256"].as_str()).collect();
    let file_nodes = result["nodes"]["items"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|n| n["format"] != "directory")
        .count();
    assert_eq!(file_nodes, distinct.len());
    // And the output does not depend on the thread count.
    assert_eq!(rea_json(&root, "1"), stdout);
}

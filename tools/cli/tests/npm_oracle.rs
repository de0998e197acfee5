//! The directory inventory of a real npm tree equals an independent listing.
//!
//! The tree (express, react, react-dom, pinned) is installed once by
//! `corpora/scripts/npm-tree.sh` under Cargo's target tmp dir; the oracle is
//! `corpora/scripts/list_tree.py`, which walks and hashes with Python's standard library.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

fn scripts() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../corpora/scripts")
}

fn npm_tree() -> PathBuf {
    let dest = Path::new(env!("CARGO_TARGET_TMPDIR")).join("corpora/npm-tree");
    let status = Command::new("bash")
        .arg(scripts().join("npm-tree.sh"))
        .arg(&dest)
        .status()
        .expect("bash runs");
    assert!(
        status.success(),
        "corpora/scripts/npm-tree.sh failed: npm and the npm registry are needed"
    );
    dest
}

fn rea_json(root: &Path, threads: &str) -> Vec<u8> {
    let output = Command::new(env!("CARGO_BIN_EXE_rea"))
        .args([
            "inventory-artifact",
            root.to_str().unwrap(),
            "--json",
            "--all",
            "--threads",
            threads,
        ])
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    output.stdout
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
    let listing = Command::new("python3")
        .arg(scripts().join("list_tree.py"))
        .arg(&root)
        .output()
        .unwrap();
    assert!(
        listing.status.success(),
        "{}",
        String::from_utf8_lossy(&listing.stderr)
    );
    let theirs: Vec<Value> = String::from_utf8(listing.stdout)
        .unwrap()
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
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

//! Helpers for REA's black-box tests: where the repository and its corpora are, and a small
//! fixture tree builder. The tests themselves live in `tests/tests/`, one file per feature.
//! Tests that drive the `rea` binary live beside it in `tools/cli/tests/`, where Cargo
//! guarantees the binary is built.

use std::path::{Path, PathBuf};

/// The repository root.
pub fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// `corpora/` at the repository root.
pub fn corpora() -> PathBuf {
    repo_root().join("corpora")
}

/// A small tree with nested directories, a duplicate, a symlink and a file of several chunks.
pub fn fixture_tree() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temp dir");
    let root = dir.path();
    std::fs::create_dir_all(root.join("app/lib")).expect("mkdir");
    std::fs::write(root.join("app/main.js"), b"require('./lib/a')\n").expect("write");
    std::fs::write(root.join("app/lib/a.js"), b"module.exports = 1\n").expect("write");
    std::fs::write(root.join("app/lib/copy.js"), b"module.exports = 1\n").expect("write");
    std::fs::write(root.join("big.bin"), vec![3u8; 200_000]).expect("write");
    std::os::unix::fs::symlink("app/main.js", root.join("main-link")).expect("symlink");
    dir
}

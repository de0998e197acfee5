//! Helpers for REA's black-box tests: where the repository and its corpora are, and a small
//! fixture tree builder. The tests themselves live in `tests/tests/`, one file per feature.
//! Tests that drive the `rea` binary live beside it in `tools/cli/tests/`, where Cargo
//! guarantees the binary is built.

use std::path::{Path, PathBuf};

use rea_core::{CancelToken, ProgressReporter};
use rea_jobs::JobControl;
use serde_json::Value;

/// Runs `f` with a fresh cancel token, silent progress and no timeout.
pub fn control<T>(f: impl FnOnce(&JobControl<'_>) -> T) -> T {
    let (cancel, progress) = (CancelToken::new(), ProgressReporter::silent());
    f(&JobControl {
        cancel: &cancel,
        progress: &progress,
        timeout: None,
    })
}

/// The `{result, evidence_id, evidence}` envelope of `analyze_javascript_application` for
/// `request`, on a pool of `threads`; the analysis must succeed.
pub fn analysis_envelope(request: &rea_jobs::analyze::AnalyzeRequest, threads: usize) -> Value {
    let published = control(|ctl| {
        rea_jobs::Engine::new(threads)
            .expect("engine")
            .analyze_javascript_application(request, ctl)
    })
    .expect("the analysis succeeds");
    serde_json::from_slice(&published.envelope_bytes()).expect("the envelope is JSON")
}

/// The evidence id a forger computes for an edited record, with the documented recipe: `ev_` +
/// SHA-256 of the record without `evidence_id`, its subject (if any) reduced to `digest`,
/// `format` and `architecture`.
pub fn forged_id(record: &Value) -> String {
    let mut projection = record.clone();
    if let Some(map) = projection.as_object_mut() {
        map.remove("evidence_id");
        if let Some(Value::Object(subject)) = map.get_mut("subject") {
            subject.retain(|k, _| matches!(k.as_str(), "digest" | "format" | "architecture"));
        }
    }
    format!(
        "ev_{}",
        rea_hash::sha256_hex(&rea_hash::canonical_bytes(&projection).expect("canonical"))
    )
}

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
    write_fixture_tree(dir.path());
    dir
}

/// The fixture tree at `parent/name`, the same path for every test process that asks: for
/// tests whose records must all name one input path. It is written into a directory of its own
/// and renamed into place, so that processes running at once never see it half made, and it
/// is kept for the next run (a tree held in a static would never be dropped, and each test
/// process would leave one behind).
pub fn shared_fixture_tree(parent: &Path, name: &str) -> PathBuf {
    let path = parent.join(name);
    if !path.is_dir() {
        std::fs::create_dir_all(parent).expect("mkdir");
        let draft = tempfile::tempdir_in(parent).expect("temp dir");
        write_fixture_tree(draft.path());
        // Another process may have put its own in place first: theirs is the same tree.
        let _ = std::fs::rename(draft.keep(), &path);
    }
    path
}

fn write_fixture_tree(root: &Path) {
    std::fs::create_dir_all(root.join("app/lib")).expect("mkdir");
    std::fs::write(root.join("app/main.js"), b"require('./lib/a')\n").expect("write");
    std::fs::write(root.join("app/lib/a.js"), b"module.exports = 1\n").expect("write");
    std::fs::write(root.join("app/lib/copy.js"), b"module.exports = 1\n").expect("write");
    std::fs::write(root.join("big.bin"), vec![3u8; 200_000]).expect("write");
    std::os::unix::fs::symlink("app/main.js", root.join("main-link")).expect("symlink");
}

/// Writes ASAR archives byte by byte, for tests that need malformed ones.
pub mod asar_writer {
    use serde_json::{Value, json};
    use sha2::{Digest, Sha256};

    /// The pickled archive: header text (any bytes, even invalid JSON) and data.
    pub fn pack_text(header: &[u8], data: &[u8]) -> Vec<u8> {
        let json_len = header.len() as u32;
        let padded = (json_len + 3) & !3;
        let payload_size = 4 + padded;
        let pickle_size = 4 + payload_size;
        let mut out = Vec::new();
        for word in [4u32, pickle_size, payload_size, json_len] {
            out.extend_from_slice(&word.to_le_bytes());
        }
        out.extend_from_slice(header);
        out.resize(out.len() + (padded - json_len) as usize, 0);
        out.extend_from_slice(data);
        out
    }

    pub fn pack(header: &Value, data: &[u8]) -> Vec<u8> {
        pack_text(&serde_json::to_vec(header).expect("json"), data)
    }

    pub fn sha256(bytes: &[u8]) -> String {
        hex::encode(Sha256::digest(bytes))
    }

    /// A packed file node for `bytes` at `offset`, with `@electron/asar`-style integrity.
    pub fn file(bytes: &[u8], offset: u64) -> Value {
        json!({
            "size": bytes.len(),
            "offset": offset.to_string(),
            "integrity": integrity(bytes),
        })
    }

    pub fn integrity(bytes: &[u8]) -> Value {
        json!({"algorithm": "SHA256", "hash": sha256(bytes), "blockSize": 4_194_304, "blocks": [sha256(bytes)]})
    }
}

/// Runs `inventory_artifact` over `path` with every item listed, and returns its `result`.
pub fn inventory_result(
    path: &Path,
    integrity: rea_core::IntegrityPolicy,
    limits: rea_core::Limits,
) -> Result<serde_json::Value, rea_core::Failure> {
    let cancel = rea_core::CancelToken::new();
    let progress = rea_core::ProgressReporter::silent();
    let ctl = rea_jobs::JobControl {
        cancel: &cancel,
        progress: &progress,
        timeout: None,
    };
    let request = rea_jobs::inventory::InventoryRequest {
        input_path: path.to_path_buf(),
        limits,
        page: rea_jobs::PageRequest::All,
        integrity,
    };
    let published = rea_jobs::Engine::new(2)?.inventory_artifact(&request, &ctl)?;
    let envelope: serde_json::Value =
        serde_json::from_slice(&published.envelope_bytes()).expect("the envelope is JSON");
    Ok(envelope["result"].clone())
}

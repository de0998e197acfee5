//! `extract_artifact`: exactly the selected regular files, byte for byte, in a fresh 0700
//! directory; nothing left behind on any failure or cancellation.
//!
//! One test function: it watches the system temporary directory for `rea-extract-*` folders
//! before and after each failing call, and no other test extracts.

use std::os::unix::fs::PermissionsExt;
use std::path::Path;

use rea_core::{CancelToken, Failure, FailureReason, IntegrityPolicy, Limits, ProgressReporter};
use rea_jobs::extract::{ExtractRequest, Extracted};
use rea_jobs::inventory::InventoryRequest;
use rea_jobs::{Engine, JobControl, PageRequest};
use rea_tests::asar_writer::{file, pack};
use serde_json::{Value, json};

fn extract(
    input: &Path,
    ids: &[&str],
    globs: &[&str],
    cancel: &CancelToken,
) -> Result<Extracted, Failure> {
    let progress = ProgressReporter::silent();
    let ctl = JobControl {
        cancel,
        progress: &progress,
        timeout: None,
    };
    let request = ExtractRequest {
        input_path: input.to_path_buf(),
        limits: Limits::default(),
        integrity: IntegrityPolicy::Fail,
        occurrence_ids: ids.iter().map(|s| (*s).to_owned()).collect(),
        globs: globs.iter().map(|s| (*s).to_owned()).collect(),
    };
    Engine::new(2).unwrap().extract_artifact(&request, &ctl)
}

fn inventory(input: &Path) -> Value {
    let (cancel, progress) = (CancelToken::new(), ProgressReporter::silent());
    let ctl = JobControl {
        cancel: &cancel,
        progress: &progress,
        timeout: None,
    };
    let request = InventoryRequest {
        input_path: input.to_path_buf(),
        limits: Limits::default(),
        page: PageRequest::All,
        integrity: IntegrityPolicy::Fail,
    };
    let published = Engine::new(2)
        .unwrap()
        .inventory_artifact(&request, &ctl)
        .unwrap();
    serde_json::from_slice::<Value>(&published.envelope_bytes()).unwrap()["result"].clone()
}

fn occurrence_id(result: &Value, path: &str) -> String {
    let items = result["occurrences"]["items"].as_array().unwrap();
    items.iter().find(|o| o["logical_path"] == path).unwrap()["occurrence_id"]
        .as_str()
        .unwrap()
        .to_owned()
}

/// Every file below `root`, relative, sorted.
fn files_below(root: &Path) -> Vec<String> {
    let mut out = Vec::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else {
                out.push(
                    path.strip_prefix(root)
                        .unwrap()
                        .to_string_lossy()
                        .into_owned(),
                );
            }
        }
    }
    out.sort();
    out
}

/// The `rea-extract-*` folders in the system temporary directory.
fn extract_dirs() -> std::collections::BTreeSet<std::ffi::OsString> {
    std::fs::read_dir(std::env::temp_dir())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .filter(|name| name.to_string_lossy().starts_with("rea-extract-"))
        .collect()
}

#[test]
fn extraction_writes_exactly_the_selection_and_leaves_nothing_on_failure() {
    let tmp = tempfile::tempdir().unwrap();
    let before = extract_dirs();
    let tree = rea_tests::fixture_tree();

    // By glob: the two scripts under app/, with their bytes, 0700 and 0600.
    let done = extract(tree.path(), &[], &["app/**/*.js"], &CancelToken::new()).unwrap();
    assert!(done.output_root.starts_with(std::env::temp_dir()));
    assert_eq!(
        std::fs::metadata(&done.output_root)
            .unwrap()
            .permissions()
            .mode()
            & 0o777,
        0o700
    );
    assert_eq!(
        files_below(&done.output_root),
        vec!["app/lib/a.js", "app/lib/copy.js", "app/main.js"]
    );
    for rel in files_below(&done.output_root) {
        let written = done.output_root.join(&rel);
        assert_eq!(
            std::fs::read(&written).unwrap(),
            std::fs::read(tree.path().join(&rel)).unwrap()
        );
        assert_eq!(
            std::fs::metadata(&written).unwrap().permissions().mode() & 0o777,
            0o600
        );
    }
    let record: Value = serde_json::from_slice(&done.published.envelope_bytes()).unwrap();
    let first_extraction_id = record["result"]["extraction_id"].clone();
    assert_eq!(
        record["result"]["output_root"],
        done.output_root.to_str().unwrap()
    );

    // By occurrence id, from an inventory of the same input; same selection, same extraction id.
    let inv = inventory(tree.path());
    let ids = [
        occurrence_id(&inv, "app/main.js"),
        occurrence_id(&inv, "app/lib/a.js"),
        occurrence_id(&inv, "app/lib/copy.js"),
    ];
    let again = extract(
        tree.path(),
        &ids.iter().map(String::as_str).collect::<Vec<_>>(),
        &[],
        &CancelToken::new(),
    )
    .unwrap();
    let record: Value = serde_json::from_slice(&again.published.envelope_bytes()).unwrap();
    assert_eq!(
        record["result"]["extraction_id"], first_extraction_id,
        "extraction ids do not depend on where"
    );
    assert_ne!(again.output_root, done.output_root);
    std::fs::remove_dir_all(&done.output_root).unwrap();
    std::fs::remove_dir_all(&again.output_root).unwrap();

    // Bad selections are typed errors and leave nothing.
    let err = extract(
        tree.path(),
        &[&format!("occ_{}", "0".repeat(64))],
        &[],
        &CancelToken::new(),
    )
    .unwrap_err();
    assert_eq!(err.reason, FailureReason::Unavailable);
    let err = extract(
        tree.path(),
        &[&occurrence_id(&inv, "app")],
        &[],
        &CancelToken::new(),
    )
    .unwrap_err();
    assert_eq!(err.reason, FailureReason::Format);
    assert_eq!(err.details["entry_kind"], "directory");
    assert_eq!(
        extract(tree.path(), &["occ_nope"], &[], &CancelToken::new())
            .unwrap_err()
            .reason,
        FailureReason::InvalidInput
    );
    assert_eq!(
        extract(tree.path(), &[], &["[unclosed"], &CancelToken::new())
            .unwrap_err()
            .reason,
        FailureReason::InvalidInput
    );
    assert_eq!(
        extract(tree.path(), &[], &[], &CancelToken::new())
            .unwrap_err()
            .reason,
        FailureReason::InvalidInput
    );
    assert_eq!(extract_dirs(), before);

    // An ASAR whose packed bytes were altered: the inventory fails closed, nothing is written.
    let archive = tmp.path().join("app.asar");
    let data = b"console.log(1)";
    let mut bytes = pack(&json!({"files": {"main.js": file(data, 0)}}), data);
    let done = {
        std::fs::write(&archive, &bytes).unwrap();
        extract(&archive, &[], &["*.js"], &CancelToken::new()).unwrap()
    };
    assert_eq!(
        std::fs::read(done.output_root.join("main.js")).unwrap(),
        data
    );
    std::fs::remove_dir_all(&done.output_root).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 1;
    std::fs::write(&archive, &bytes).unwrap();
    assert_eq!(
        extract(&archive, &[], &["*.js"], &CancelToken::new())
            .unwrap_err()
            .reason,
        FailureReason::Integrity
    );
    assert_eq!(extract_dirs(), before);

    // Cancellation at every check point of a complete extraction leaves nothing.
    let counter = CancelToken::counting();
    let done = extract(tree.path(), &[], &["**"], &counter).unwrap();
    std::fs::remove_dir_all(&done.output_root).unwrap();
    for n in 0..counter.checks_made() {
        let err = extract(tree.path(), &[], &["**"], &CancelToken::trip_after(n)).unwrap_err();
        assert_eq!(err.reason, FailureReason::Cancelled, "n = {n}");
        assert_eq!(extract_dirs(), before, "n = {n}");
    }
}

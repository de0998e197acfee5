//! A stop-after-N token cancels the directory inventory at every check point, for every N up
//! to the number of checks a complete run makes; each time the job reports `cancelled` and
//! nothing is left in the output location.

use rea_core::{CancelToken, Failure, FailureReason, Limits, ProgressReporter};
use rea_jobs::inventory::InventoryRequest;
use rea_jobs::{Engine, JobControl, PageRequest};

/// The whole job as the CLI runs it with `--out`: inventory, then atomic publication.
fn run(
    engine: &Engine,
    input: &std::path::Path,
    out: &std::path::Path,
    cancel: &CancelToken,
) -> Result<(), Failure> {
    let progress = ProgressReporter::silent();
    let ctl = JobControl {
        cancel,
        progress: &progress,
        timeout: None,
    };
    let request = InventoryRequest {
        input_path: input.to_path_buf(),
        limits: Limits::default(),
        page: PageRequest::All,
        integrity: Default::default(),
    };
    let published = engine.inventory_artifact(&request, &ctl)?;
    rea_jobs::publish::write_file_atomically(cancel, out, &published.envelope_bytes())
}

#[test]
fn every_check_point_cancels_cleanly() {
    let tree = rea_tests::fixture_tree();
    let out_dir = tempfile::tempdir().unwrap();
    let out = out_dir.path().join("inventory.json");
    for threads in [1, 2] {
        let engine = Engine::new(threads).unwrap();
        let counter = CancelToken::counting();
        run(&engine, tree.path(), &out, &counter).unwrap();
        assert!(out.exists());
        std::fs::remove_file(&out).unwrap();
        let checks = counter.checks_made();
        // Per entry in walk, hash and graph, per 64 KiB chunk, per stage, per written chunk.
        assert!(checks > 30, "only {checks} checks");
        for n in 0..checks {
            let failure = run(&engine, tree.path(), &out, &CancelToken::trip_after(n)).unwrap_err();
            assert_eq!(
                failure.reason,
                FailureReason::Cancelled,
                "threads {threads}, n {n}: {failure}"
            );
            let left: Vec<_> = std::fs::read_dir(out_dir.path()).unwrap().collect();
            assert!(left.is_empty(), "threads {threads}, n {n}: {left:?}");
        }
        // One more check than a full run needs: the job completes.
        run(&engine, tree.path(), &out, &CancelToken::trip_after(checks)).unwrap();
        std::fs::remove_file(&out).unwrap();
    }
}

#[test]
fn a_token_cancelled_before_the_start_returns_cancelled() {
    let tree = rea_tests::fixture_tree();
    let engine = Engine::new(2).unwrap();
    let token = CancelToken::new();
    token.cancel(rea_core::CancelReason::User);
    let out = tree.path().join("never.json");
    assert_eq!(
        run(&engine, tree.path(), &out, &token).unwrap_err().reason,
        FailureReason::Cancelled
    );
    assert!(!out.exists());
}

/// An ASAR with an unpacked companion, and a ZIP made by CPython's zipfile, inside one folder
/// tree: the walk expands both, so every reader's check points are exercised.
fn archives_tree() -> tempfile::TempDir {
    use rea_tests::asar_writer::{file, integrity, pack};
    let dir = rea_tests::fixture_tree();
    let (a, b) = (b"console.log('a')".as_slice(), vec![7u8; 150_000]);
    let mut data = a.to_vec();
    data.extend_from_slice(&b);
    let header = serde_json::json!({"files": {
        "a.js": file(a, 0),
        "lib": {"files": {"b.bin": file(&b, a.len() as u64)}},
        "addon.node": {"size": 3, "unpacked": true, "integrity": integrity(b"ELF")},
    }});
    std::fs::write(dir.path().join("app.asar"), pack(&header, &data)).unwrap();
    std::fs::create_dir(dir.path().join("app.asar.unpacked")).unwrap();
    std::fs::write(dir.path().join("app.asar.unpacked/addon.node"), b"ELF").unwrap();
    let status = std::process::Command::new("python3")
        .arg(rea_tests::corpora().join("scripts/zip_tool.py"))
        .arg("pack")
        .arg(dir.path().join("app"))
        .arg(dir.path().join("bundle.zip"))
        .status()
        .unwrap();
    assert!(status.success());
    dir
}

#[test]
fn every_check_point_cancels_cleanly_through_asar_and_zip_readers() {
    let tree = archives_tree();
    let out_dir = tempfile::tempdir().unwrap();
    let out = out_dir.path().join("inventory.json");
    let engine = Engine::new(2).unwrap();
    let counter = CancelToken::counting();
    run(&engine, tree.path(), &out, &counter).unwrap();
    let written: serde_json::Value = serde_json::from_slice(&std::fs::read(&out).unwrap()).unwrap();
    let paths: Vec<&str> = written["result"]["occurrences"]["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o["logical_path"].as_str().unwrap())
        .collect();
    assert!(
        paths.contains(&"app.asar/lib/b.bin") && paths.contains(&"bundle.zip/lib/a.js"),
        "{paths:?}"
    );
    std::fs::remove_file(&out).unwrap();
    for n in 0..counter.checks_made() {
        let failure = run(&engine, tree.path(), &out, &CancelToken::trip_after(n)).unwrap_err();
        assert_eq!(failure.reason, FailureReason::Cancelled, "n {n}: {failure}");
        assert_eq!(
            std::fs::read_dir(out_dir.path()).unwrap().count(),
            0,
            "n {n}"
        );
    }
}

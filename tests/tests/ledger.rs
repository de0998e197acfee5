//! The Evidence ledger and bundles: canonical bytes, all-or-nothing import, atomic export.

use std::path::Path;

use rea_core::{CancelToken, FailureReason, IntegrityPolicy, Limits, ProgressReporter};
use rea_hash::canonical_bytes;
use rea_jobs::inventory::InventoryRequest;
use rea_jobs::ledger::{Ledger, Recorded, parse_bundle};
use rea_jobs::{Engine, JobControl, PageRequest, Published};
use serde_json::Value;

fn inventory(path: &Path) -> Published {
    let (cancel, progress) = (CancelToken::new(), ProgressReporter::silent());
    let request = InventoryRequest {
        input_path: path.to_path_buf(),
        limits: Limits::default(),
        page: PageRequest::All,
        integrity: IntegrityPolicy::Fail,
    };
    Engine::new(2)
        .unwrap()
        .inventory_artifact(
            &request,
            &JobControl {
                cancel: &cancel,
                progress: &progress,
                timeout: None,
            },
        )
        .unwrap()
}

/// A ledger holding inventories of three different trees.
fn ledger_of_three() -> (Ledger, Vec<String>, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    let mut ledger = Ledger::new();
    let mut ids = Vec::new();
    for n in 0..3 {
        let tree = dir.path().join(format!("tree{n}"));
        std::fs::create_dir_all(&tree).unwrap();
        std::fs::write(tree.join("a.txt"), format!("version {n}")).unwrap();
        let published = inventory(&tree);
        assert_eq!(
            ledger
                .record(published.evidence_id(), published.record())
                .unwrap(),
            Recorded::Added
        );
        ids.push(published.evidence_id().to_owned());
    }
    (ledger, ids, dir)
}

fn bundle_bytes(ledger: &Ledger) -> Vec<u8> {
    let mut out = Vec::new();
    let n = ledger.write_bundle(&mut out, &CancelToken::new()).unwrap();
    assert_eq!(n as usize, out.len());
    out
}

#[test]
fn the_envelope_holds_the_canonical_record() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("x"), "x").unwrap();
    let published = inventory(dir.path());
    let envelope: Value = serde_json::from_slice(&published.envelope_bytes()).unwrap();
    assert_eq!(
        canonical_bytes(&envelope).unwrap(),
        published.envelope_bytes()
    );
    assert_eq!(
        canonical_bytes(&envelope["evidence"]).unwrap(),
        published.record()
    );
    assert_eq!(
        envelope["result"],
        envelope["evidence"]["normalized_result"]
    );
}

#[test]
fn a_bundle_is_canonical_sorted_and_round_trips() {
    let (ledger, mut ids, _dir) = ledger_of_three();
    let bytes = bundle_bytes(&ledger);
    let bundle: Value = serde_json::from_slice(&bytes).unwrap();
    assert_eq!(
        canonical_bytes(&bundle).unwrap(),
        bytes,
        "bundles are RFC 8785 JSON"
    );
    let listed: Vec<&str> = bundle["records"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["evidence_id"].as_str().unwrap())
        .collect();
    ids.sort();
    assert_eq!(listed, ids);
    assert_eq!(bundle["providers"].as_array().unwrap().len(), 1);
    assert_eq!(bundle["artifacts"].as_array().unwrap().len(), 3);

    let mut fresh = Ledger::new();
    let imported = fresh
        .import(parse_bundle(&bytes, &CancelToken::new()).unwrap())
        .unwrap();
    assert_eq!(
        (imported.added, imported.duplicates, imported.total),
        (3, 0, 3)
    );
    assert_eq!(
        bundle_bytes(&fresh),
        bytes,
        "export ∘ import is the identity"
    );
    let again = fresh
        .import(parse_bundle(&bytes, &CancelToken::new()).unwrap())
        .unwrap();
    assert_eq!((again.added, again.duplicates), (0, 3));
}

#[test]
fn import_is_all_or_nothing() {
    let (ledger, ids, _dir) = ledger_of_three();
    let bytes = bundle_bytes(&ledger);
    let mut fresh = Ledger::new();
    type Edit = Box<dyn Fn(&mut Value)>;
    let edits: Vec<(&str, Edit)> = vec![
        (
            "a record's content",
            Box::new(|b| b["records"][2]["normalized_result"]["limitations"] = "x".into()),
        ),
        (
            "a record's id",
            Box::new(|b| b["records"][0]["evidence_id"] = format!("ev_{}", "0".repeat(64)).into()),
        ),
        (
            "record order",
            Box::new(|b| b["records"].as_array_mut().unwrap().swap(0, 1)),
        ),
        (
            "a manifest",
            Box::new(|b| {
                b["artifacts"]
                    .as_array_mut()
                    .unwrap()
                    .pop()
                    .map(drop)
                    .unwrap_or(())
            }),
        ),
        ("the version", Box::new(|b| b["bundle_version"] = 1.into())),
        (
            "unknowns",
            Box::new(|b| b["unknowns"] = serde_json::json!([{"unknown_id": "unk_x"}])),
        ),
        ("an extra key", Box::new(|b| b["extra"] = true.into())),
    ];
    for (what, edit) in edits {
        let mut bundle: Value = serde_json::from_slice(&bytes).unwrap();
        edit(&mut bundle);
        let tampered = serde_json::to_vec(&bundle).unwrap();
        let err = parse_bundle(&tampered, &CancelToken::new())
            .map(|_| ())
            .expect_err(what);
        assert_eq!(err.reason, FailureReason::Integrity, "{what}: {err:?}");
        assert_eq!(fresh.len(), 0, "{what}: nothing was imported");
    }
    assert!(parse_bundle(b"{not json", &CancelToken::new()).is_err());
    // One good import still works after the refusals.
    fresh
        .import(parse_bundle(&bytes, &CancelToken::new()).unwrap())
        .unwrap();
    assert!(ids.iter().all(|id| fresh.get(id).is_some()));
}

#[test]
fn export_is_atomic_and_never_clobbers_by_default() {
    let (ledger, _ids, dir) = ledger_of_three();
    let dest = dir.path().join("out/bundle.json");
    std::fs::create_dir_all(dest.parent().unwrap()).unwrap();
    let exported = ledger.export(&dest, false, &CancelToken::new()).unwrap();
    let bytes = std::fs::read(&dest).unwrap();
    assert_eq!(bytes, bundle_bytes(&ledger));
    assert_eq!(
        (exported.bytes as usize, exported.records),
        (bytes.len(), 3)
    );

    std::fs::write(&dest, b"keep me").unwrap();
    let refused = ledger
        .export(&dest, false, &CancelToken::new())
        .unwrap_err();
    assert_eq!(refused.details["reason"], "exists");
    assert_eq!(std::fs::read(&dest).unwrap(), b"keep me");
    ledger.export(&dest, true, &CancelToken::new()).unwrap();
    assert_eq!(std::fs::read(&dest).unwrap(), bytes);

    let relative = ledger
        .export(Path::new("relative.json"), false, &CancelToken::new())
        .unwrap_err();
    assert_eq!(relative.reason, FailureReason::InvalidInput);

    // Cancelled at every check it makes: nothing appears, nothing is left behind.
    let fresh = dir.path().join("out/cancelled.json");
    let counter = CancelToken::counting();
    ledger.export(&fresh, false, &counter).unwrap();
    std::fs::remove_file(&fresh).unwrap();
    for n in 0..counter.checks_made() {
        let err = ledger
            .export(&fresh, false, &CancelToken::trip_after(n))
            .unwrap_err();
        assert_eq!(err.reason, FailureReason::Cancelled, "n = {n}");
        let names: Vec<String> = std::fs::read_dir(dest.parent().unwrap())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        assert_eq!(names, ["bundle.json"], "n = {n}");
    }
}

#[test]
fn clearing_forgets_everything() {
    let (mut ledger, ids, _dir) = ledger_of_three();
    assert_eq!(ledger.clear(), 3);
    assert!(ledger.is_empty());
    assert!(ids.iter().all(|id| ledger.get(id).is_none()));
    let bundle: Value = serde_json::from_slice(&bundle_bytes(&ledger)).unwrap();
    assert_eq!(bundle["records"], serde_json::json!([]));
}

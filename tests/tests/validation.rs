//! Validation rejects a sealed record whose bytes or fields were altered.

use rea_core::{CancelToken, Limits, ProgressReporter};
use rea_jobs::inventory::InventoryRequest;
use rea_jobs::{Engine, JobControl, PageRequest};
use rea_validate::{Validated, ValidationError};
use serde_json::Value;

/// One fixture for every test here, so that records name one input path.
fn tree() -> &'static std::path::Path {
    static TREE: std::sync::OnceLock<std::path::PathBuf> = std::sync::OnceLock::new();
    TREE.get_or_init(|| {
        rea_tests::shared_fixture_tree(
            std::path::Path::new(env!("CARGO_TARGET_TMPDIR")),
            "validation-tree",
        )
    })
}

fn input_path() -> String {
    std::fs::canonicalize(tree())
        .unwrap()
        .to_str()
        .unwrap()
        .to_owned()
}

fn validate_bytes(bytes: &[u8]) -> Result<Validated, ValidationError> {
    rea_validate::validate_for_input(bytes, &input_path())
}

/// The sealed bytes of a real inventory: the canonical form of the returned record.
fn sealed(page: PageRequest) -> Vec<u8> {
    let cancel = CancelToken::new();
    let progress = ProgressReporter::silent();
    let ctl = JobControl {
        cancel: &cancel,
        progress: &progress,
        timeout: None,
    };
    let request = InventoryRequest {
        input_path: tree().to_path_buf(),
        limits: Limits::default(),
        page,
        integrity: Default::default(),
    };
    let published = Engine::new(2)
        .unwrap()
        .inventory_artifact(&request, &ctl)
        .unwrap();
    let envelope: Value = serde_json::from_slice(&published.envelope_bytes()).unwrap();
    rea_hash::canonical_bytes(&envelope["evidence"]).unwrap()
}

fn reseal(record: &Value) -> Vec<u8> {
    rea_hash::canonical_bytes(record).unwrap()
}

#[test]
fn the_untouched_record_validates() {
    let bytes = sealed(PageRequest::All);
    let validated = validate_bytes(&bytes).unwrap();
    assert!(validated.evidence_id().starts_with("ev_"));
}

#[test]
fn flipping_any_single_byte_is_rejected() {
    let bytes = sealed(PageRequest::All);
    for at in 0..bytes.len() {
        let mut tampered = bytes.clone();
        tampered[at] ^= 0x01;
        assert!(
            validate_bytes(&tampered).is_err(),
            "flip at {at} of {} passed",
            bytes.len()
        );
    }
}

#[test]
fn changing_one_field_is_rejected() {
    let record: Value = serde_json::from_slice(&sealed(PageRequest::All)).unwrap();
    let mut tampered = record.clone();
    tampered["normalized_result"]["occurrences"]["items"][1]["size"] = Value::from(12345);
    let err = validate_bytes(&reseal(&tampered)).unwrap_err();
    assert_eq!(err.at, "/evidence_id");
}

#[test]
fn a_forger_who_recomputes_the_evidence_id_is_still_caught() {
    let record: Value = serde_json::from_slice(&sealed(PageRequest::All)).unwrap();
    let forge = |mut record: Value, edit: &dyn Fn(&mut Value)| {
        edit(&mut record);
        let id = rea_tests::forged_id(&record);
        record["evidence_id"] = Value::from(id);
        validate_bytes(&reseal(&record)).unwrap_err()
    };
    // A size is committed to by graph_sha256.
    let err = forge(record.clone(), &|r| {
        r["normalized_result"]["occurrences"]["items"][2]["size"] = Value::from(1)
    });
    assert_eq!(err.at, "/manifest/graph_sha256");
    // A digest is committed to by the artifact id.
    let err = forge(record.clone(), &|r| {
        r["normalized_result"]["nodes"]["items"][0]["sha256"] = Value::from("0".repeat(64));
    });
    assert_eq!(err.at, "/nodes/items/0");
    // A path is committed to by the occurrence id.
    let err = forge(record, &|r| {
        r["normalized_result"]["occurrences"]["items"][1]["logical_path"] = Value::from("zzz")
    });
    assert_eq!(err.at, "/occurrences/items/1");
}

#[test]
fn a_paged_record_checks_its_page_arithmetic() {
    let record: Value = serde_json::from_slice(&sealed(PageRequest::uniform(0, 2))).unwrap();
    assert!(validate_bytes(&reseal(&record)).is_ok());
    let mut tampered = record;
    tampered["normalized_result"]["nodes"]["next_offset"] = Value::Null;
    tampered["evidence_id"] = Value::from(rea_tests::forged_id(&tampered));
    assert_eq!(validate_bytes(&reseal(&tampered)).unwrap_err().at, "/nodes");
}

#[test]
fn non_canonical_bytes_are_rejected() {
    let bytes = sealed(PageRequest::All);
    let record: Value = serde_json::from_slice(&bytes).unwrap();
    let pretty = serde_json::to_vec_pretty(&record).unwrap();
    assert_eq!(
        validate_bytes(&pretty).unwrap_err().problem,
        "bytes are not in canonical form"
    );
}

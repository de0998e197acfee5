//! `compare_artifacts` over inventories of two versions of a tree.

use std::path::Path;

use rea_core::{Failure, FailureReason, IntegrityPolicy, Limits};
use rea_jobs::compare::CompareRequest;
use rea_jobs::inventory::InventoryRequest;
use rea_jobs::{Engine, PageRequest};
use rea_tests::asar_writer::{file, pack};
use rea_tests::control;
use serde_json::{Value, json};

fn inventory(path: &Path, page: PageRequest, integrity: IntegrityPolicy) -> Value {
    let request = InventoryRequest {
        input_path: path.to_path_buf(),
        limits: Limits::default(),
        page,
        integrity,
    };
    let published =
        control(|ctl| Engine::new(2).unwrap().inventory_artifact(&request, ctl)).unwrap();
    serde_json::from_slice(&published.envelope_bytes()).unwrap()
}

fn compare(left: Value, right: Value) -> Result<Value, Failure> {
    let request = CompareRequest {
        left,
        right,
        max_changes: 500,
    };
    let published = control(|ctl| Engine::new(2).unwrap().compare_artifacts(&request, ctl))?;
    Ok(serde_json::from_slice::<Value>(&published.envelope_bytes()).unwrap())
}

fn paths_with(result: &Value, status: &str) -> Vec<String> {
    result["changes"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["status"] == status)
        .map(|c| c["logical_path"].as_str().unwrap().to_owned())
        .collect()
}

fn two_versions() -> (tempfile::TempDir, tempfile::TempDir) {
    let (v1, v2) = (rea_tests::fixture_tree(), rea_tests::fixture_tree());
    std::fs::write(
        v2.path().join("app/main.js"),
        b"require('./lib/a'); // v2\n",
    )
    .unwrap();
    std::fs::remove_file(v2.path().join("app/lib/copy.js")).unwrap();
    std::fs::write(v2.path().join("app/new.js"), b"new\n").unwrap();
    (v1, v2)
}

#[test]
fn added_removed_and_changed_paths_between_two_versions() {
    let (v1, v2) = two_versions();
    let left = inventory(v1.path(), PageRequest::All, IntegrityPolicy::Fail);
    let right = inventory(v2.path(), PageRequest::All, IntegrityPolicy::Fail);
    let envelope = compare(left.clone(), right["evidence"].clone()).unwrap();
    let result = &envelope["result"];
    assert_eq!(paths_with(result, "added"), vec!["app/new.js"]);
    assert_eq!(paths_with(result, "removed"), vec!["app/lib/copy.js"]);
    // A changed file changes every directory above it: directory digests cover their children.
    assert_eq!(
        paths_with(result, "changed"),
        vec!["app", "app/lib", "app/main.js"]
    );
    assert_eq!(result["summary"]["unchanged"], 3);
    assert_eq!(result["identical_roots"], false);
    assert_eq!(
        envelope["evidence"]["evidence_links"],
        json!([left["evidence_id"], right["evidence_id"]])
    );
    assert_eq!(envelope["evidence"]["confidence"], "derived");
    // The same tree twice: nothing but unchanged.
    let same = compare(
        left.clone(),
        inventory(v1.path(), PageRequest::All, IntegrityPolicy::Fail),
    )
    .unwrap();
    assert_eq!(same["result"]["changes"], json!([]));
    assert_eq!(same["result"]["identical_roots"], true);
}

#[test]
fn a_paged_side_makes_absences_unknown() {
    let (v1, v2) = two_versions();
    let left = inventory(v1.path(), PageRequest::uniform(0, 2), IntegrityPolicy::Fail);
    let right = inventory(v2.path(), PageRequest::All, IntegrityPolicy::Fail);
    let result = compare(left, right).unwrap()["result"].clone();
    assert_eq!(result["left"]["complete"], false);
    assert_eq!(
        result["summary"]["added"], 0,
        "nothing is added when the left side is a page"
    );
    assert!(result["summary"]["unknown"].as_u64().unwrap() > 0);
    assert!(
        result["limitations"][0]
            .as_str()
            .unwrap()
            .contains("unknown")
    );
}

#[test]
fn contradicted_content_is_never_unchanged() {
    let dir = tempfile::tempdir().unwrap();
    let data = b"console.log(1)";
    let good = pack(&json!({"files": {"main.js": file(data, 0)}}), data);
    let mut bad = good.clone();
    let last = bad.len() - 1;
    bad[last] ^= 1;
    let (a, b) = (dir.path().join("a.asar"), dir.path().join("b.asar"));
    std::fs::write(&a, &good).unwrap();
    std::fs::write(&b, &bad).unwrap();
    let record = IntegrityPolicy::RecordAndContinue { max_mismatches: 10 };
    let result = compare(
        inventory(&a, PageRequest::All, record),
        inventory(&b, PageRequest::All, record),
    )
    .unwrap()["result"]
        .clone();
    assert_eq!(paths_with(&result, "contradiction"), vec!["main.js"]);
}

#[test]
fn altered_or_foreign_inputs_are_refused() {
    let (v1, _v2) = two_versions();
    let left = inventory(v1.path(), PageRequest::All, IntegrityPolicy::Fail);
    let mut altered = left.clone();
    altered["evidence"]["normalized_result"]["occurrences"]["items"][1]["size"] = json!(7);
    let err = compare(altered, left.clone()).unwrap_err();
    assert_eq!(err.reason, FailureReason::Integrity);
    assert_eq!(err.details["side"], "left");
    let err = compare(left, json!({"not": "evidence"})).unwrap_err();
    assert_eq!(err.details["side"], "right");
}

#[test]
fn an_inspect_record_compares_by_root_only() {
    let (v1, _v2) = two_versions();
    let inventory_record = inventory(v1.path(), PageRequest::All, IntegrityPolicy::Fail);
    let request = rea_jobs::inspect::InspectRequest {
        input_path: v1.path().to_path_buf(),
        limits: Limits::default(),
        integrity: IntegrityPolicy::Fail,
        max_observations: 5,
    };
    let published = control(|ctl| Engine::new(2).unwrap().inspect_artifact(&request, ctl)).unwrap();
    let inspect_record: Value = serde_json::from_slice(&published.envelope_bytes()).unwrap();
    let entries = inventory_record["result"]["summary"]["entries"].clone();
    let result = compare(inspect_record, inventory_record).unwrap()["result"].clone();
    assert_eq!(result["identical_roots"], true);
    assert_eq!(result["summary"]["added"], 0);
    assert_eq!(
        result["summary"]["unknown"], entries,
        "every path of the inventory side is unknown"
    );
    assert!(
        result["limitations"]
            .to_string()
            .contains("an inspect record lists no paths")
    );
}

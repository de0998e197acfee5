//! Export shapes end to end: two versions of a small application whose edits are known (a
//! field added to one return variant, a literal changed, a function made async, an export
//! removed), analyzed and compared through the engine; the section's bytes at any thread
//! count; and a forger who recomputes the record's id caught by the section's and the
//! comparison's own ids.

use std::path::Path;

use rea_core::{Failure, FailureReason};
use rea_jobs::Engine;
use rea_jobs::analyze::AnalyzeRequest;
use rea_jobs::shapes::{ExportShapesRequest, Selector, Side};
use rea_tests::{analysis_envelope, control, forged_id};
use serde_json::{Value, json};

const V1: &str = r#"
import { Model } from "./model.js";
export function getUser(id, full) {
  if (!id) return null;
  if (full) return { kind: "user", id, name: "n", roles: ["admin"] };
  return { kind: "stub", id };
}
export const LIMIT = 10;
export function legacy() { return "old"; }
export const make = () => new Model();
"#;

/// Version 2: `getUser` is async and its full variant gains `email`; `LIMIT` is 20; `legacy`
/// is gone; `make` is unchanged.
const V2: &str = r#"
import { Model } from "./model.js";
export async function getUser(id, full) {
  if (!id) return null;
  if (full) return { kind: "user", id, name: "n", email: "e", roles: ["admin"] };
  return { kind: "stub", id };
}
export const LIMIT = 20;
export const make = () => new Model();
"#;

fn write(root: &Path, api: &str) {
    std::fs::create_dir_all(root).unwrap();
    std::fs::write(root.join("api.js"), api).unwrap();
    std::fs::write(root.join("model.js"), "export class Model {}\n").unwrap();
}

fn analyze(root: &Path, threads: usize) -> Value {
    analysis_envelope(&AnalyzeRequest::new(root.to_path_buf()), threads)
}

fn fixture() -> (tempfile::TempDir, Value, Value) {
    let dir = tempfile::tempdir().unwrap();
    let (v1, v2) = (dir.path().join("v1"), dir.path().join("v2"));
    write(&v1, V1);
    write(&v2, V2);
    (dir, analyze(&v1, 2), analyze(&v2, 2))
}

fn compare_export(left: &Value, right: &Value, name: &str) -> Result<Value, Failure> {
    let selector = Selector {
        module_path: "api.js".to_owned(),
        module_key: None,
        export_name: name.to_owned(),
    };
    let request = ExportShapesRequest {
        left: Side::Value(left.clone()),
        right: Side::Value(right.clone()),
        left_export: selector.clone(),
        right_export: selector,
        max_changes: 100,
        max_candidates: 10,
    };
    let published = control(|ctl| {
        Engine::new(2)
            .unwrap()
            .compare_javascript_export_shapes(request, ctl)
    })?;
    Ok(serde_json::from_slice(&published.envelope_bytes()).unwrap())
}

/// (variant, pointer, change) of every listed change.
fn changes(result: &Value) -> Vec<(u64, String, String)> {
    result["changes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (
                c["variant"].as_u64().unwrap(),
                c["pointer"].as_str().unwrap().to_owned(),
                c["change"].as_str().unwrap().to_owned(),
            )
        })
        .collect()
}

#[test]
fn the_known_edits_between_two_versions_are_what_the_comparison_reports() {
    let (_dir, v1, v2) = fixture();
    let names = |record: &Value| -> Vec<String> {
        record["result"]["export_shapes"]["exports"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|e| e["module_path"] == "api.js")
            .map(|e| e["export_name"].as_str().unwrap().to_owned())
            .collect()
    };
    assert_eq!(names(&v1), ["LIMIT", "getUser", "legacy", "make"]);
    assert_eq!(names(&v2), ["LIMIT", "getUser", "make"]);

    let user = compare_export(&v1, &v2, "getUser").unwrap();
    let result = &user["result"];
    assert_eq!(result["status"], "changed");
    assert_eq!(
        result["attribute_changes"],
        json!([{"attribute": "async", "left": false, "right": true}])
    );
    // null, the full user, the stub: paired as identical (null, stub) and by their literal
    // `kind` (user); the parameter `id` is passed through on both sides, so it is equal.
    let pairings: Vec<&str> = result["variants"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v["pairing"].as_str().unwrap())
        .collect();
    assert_eq!(pairings, ["identical", "discriminant", "identical"]);
    assert_eq!(
        result["variants"][1]["discriminant"],
        json!({"pointer": "/kind", "value": "user"})
    );
    assert_eq!(
        changes(result),
        [(1, "/email".to_owned(), "added".to_owned())]
    );
    assert_eq!(result["coverage"], "complete");
    assert_eq!(
        user["evidence"]["evidence_links"],
        json!([v1["evidence_id"], v2["evidence_id"]])
    );

    let limit = compare_export(&v1, &v2, "LIMIT").unwrap();
    assert_eq!(
        changes(&limit["result"]),
        [(0, String::new(), "changed".to_owned())]
    );
    assert_eq!(limit["result"]["changes"][0]["right"]["value"], "20");

    // One class imported under one name on both sides: the same instance.
    let make = compare_export(&v1, &v2, "make").unwrap();
    assert_eq!(make["result"]["status"], "unchanged");
    assert_eq!(
        make["result"]["left"]["export"]["shapes"],
        json!([{"type": "instance", "of": "Model", "from": "./model.js"}])
    );

    let legacy = compare_export(&v1, &v2, "legacy").unwrap();
    assert_eq!(legacy["result"]["status"], "unknown");
    assert_eq!(legacy["result"]["reason"], "right-missing");
    let candidates: Vec<&str> = legacy["result"]["right"]["candidates"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["export_name"].as_str().unwrap())
        .collect();
    assert_eq!(candidates, ["LIMIT", "getUser", "make"]);
    assert!(legacy["result"]["recommendation"].is_null());
}

#[test]
fn the_section_is_the_same_bytes_at_any_thread_count() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), V1);
    let one = analyze(dir.path(), 1);
    let two = analyze(dir.path(), 2);
    assert_eq!(
        rea_hash::canonical_bytes(&one["result"]["export_shapes"]).unwrap(),
        rea_hash::canonical_bytes(&two["result"]["export_shapes"]).unwrap()
    );
    assert_eq!(one["evidence_id"], two["evidence_id"]);
}

#[test]
fn a_forger_who_recomputes_the_evidence_id_is_caught_by_the_shapes_ids() {
    let (_dir, v1, v2) = fixture();
    let forge = |record: &Value, edit: &dyn Fn(&mut Value)| {
        let mut record = record.clone();
        edit(&mut record);
        record["evidence_id"] = Value::from(forged_id(&record));
        rea_validate::validate_bytes(rea_hash::canonical_bytes(&record).unwrap()).unwrap_err()
    };
    let analysis = &v1["evidence"];
    // A shape is committed to by its export's id.
    let err = forge(analysis, &|r| {
        r["normalized_result"]["export_shapes"]["exports"][0]["shapes"][0]["value"] = "11".into()
    });
    assert_eq!(err.at, "/export_shapes/exports/0/export_id", "{err}");
    // An export dropped, and every export id still right: the section's id catches it.
    let err = forge(analysis, &|r| {
        r["normalized_result"]["export_shapes"]["exports"]
            .as_array_mut()
            .unwrap()
            .pop();
    });
    assert_eq!(err.at, "/export_shapes/shapes_id", "{err}");

    let comparison = compare_export(&v1, &v2, "getUser").unwrap()["evidence"].clone();
    let err = forge(&comparison, &|r| {
        r["normalized_result"]["status"] = "unchanged".into()
    });
    assert_eq!(err.at, "/status", "{err}");
    let err = forge(&comparison, &|r| {
        r["normalized_result"]["summary"]["added"] = 0.into()
    });
    assert_eq!(err.at, "/summary/added", "{err}");
    let err = forge(&comparison, &|r| {
        r["normalized_result"]["changes"][0]["pointer"] = "/name".into()
    });
    assert_eq!(err.at, "/comparison_id", "{err}");
}

#[test]
fn bad_requests_are_typed_errors() {
    let (_dir, v1, v2) = fixture();
    let err = compare_export(&v1, &v2, "").unwrap_err();
    assert_eq!(err.reason, FailureReason::InvalidInput);
    assert_eq!(
        err.details["issues"][0]["path"],
        json!(["left_export_name"])
    );
    let err = compare_export(&json!({"not": "evidence"}), &v2, "LIMIT").unwrap_err();
    assert_eq!(err.details["side"], "left");
    // Records from before export shapes (the section removed, the id recomputed) still
    // validate; comparing two of them asks for a new analysis.
    let old = |record: &Value| {
        let mut record = record["evidence"].clone();
        record["normalized_result"]
            .as_object_mut()
            .unwrap()
            .remove("export_shapes");
        record["evidence_id"] = Value::from(forged_id(&record));
        record
    };
    let err = compare_export(&old(&v1), &old(&v2), "LIMIT").unwrap_err();
    assert_eq!(err.reason, FailureReason::InvalidInput);
    assert!(err.message.contains("analyze"), "{}", err.message);
    let one_old = compare_export(&old(&v1), &v2, "LIMIT").unwrap();
    assert_eq!(one_old["result"]["reason"], "no-export-shapes");
    assert_eq!(one_old["result"]["left"]["selection"], "unavailable");
}

#[test]
fn the_section_keeps_to_its_bounds_and_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let per_file = rea_parse::MAX_FILE_EXPORTS;
    let bound = rea_graph::javascript::shapes::MAX_EXPORT_SHAPES;
    let files = bound / per_file + 1;
    let body = |n: usize| -> String {
        (0..n)
            .map(|i| format!("export const x{i} = {i};\n"))
            .collect()
    };
    for f in 0..files {
        std::fs::write(dir.path().join(format!("m{f:03}.js")), body(per_file)).unwrap();
    }
    // One file writes more exports than a file's bound.
    std::fs::write(dir.path().join("z.js"), body(per_file + 5)).unwrap();
    let record = analyze(dir.path(), 2);
    let section = &record["result"]["export_shapes"];
    let coverage = &section["coverage"];
    assert_eq!(coverage["status"], "partial");
    assert_eq!(
        coverage["limits"],
        json!(["max_export_shapes", "max_file_exports"])
    );
    assert_eq!(coverage["truncated_files"], 1);
    let total = (files + 1) * per_file;
    assert_eq!(coverage["exports"], total);
    assert_eq!(coverage["omitted_exports"], total - bound);
    let exports = section["exports"].as_array().unwrap();
    assert_eq!(exports.len(), bound);
    // The first in path order are kept: names sort as strings within a file.
    assert_eq!(exports[0]["module_path"], "m000.js");
    assert_eq!(exports[0]["export_name"], "x0");
    assert_eq!(exports[1]["export_name"], "x1");
    assert_eq!(exports[2]["export_name"], "x10");
    assert!(exports.iter().all(|e| e["module_path"] != "z.js"));
}

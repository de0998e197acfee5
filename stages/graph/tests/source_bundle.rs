//! `rea_graph::sources`: the reference's checks and commitment, original-source paths, and each
//! status rule of the comparison on small application graphs written for the rule.

use rea_core::{CancelToken, ProgressReporter};
use rea_exec::{StageCx, StageKind};
use rea_graph::sources::{self, Exclusion, Limits, Reference, ReferenceEntry, normalize_original};
use serde_json::{Value, json};

fn sha(byte: char) -> String {
    byte.to_string().repeat(64)
}

fn file(path: &str, digest: char) -> ReferenceEntry {
    ReferenceEntry {
        path: path.to_owned(),
        kind: "file".to_owned(),
        size: Some(1),
        sha256: Some(sha(digest)),
    }
}

fn reference(entries: Vec<ReferenceEntry>) -> Reference {
    Reference::build(
        entries,
        Vec::new(),
        true,
        json!([]),
        json!({"kind": "none"}),
        json!({}),
        Vec::new(),
    )
    .unwrap()
}

/// A shipped file: a content-digest node at `path`.
fn asset(id: &str, path: &str, digest: char) -> Value {
    json!({"node_id": id, "kind": "javascript-asset",
        "identity": {"strategy": "content-digest", "sha256": sha(digest)},
        "observations": [{"label": path, "properties": {"path": path}, "evidence": {}}]})
}

/// An original source a read source map lists.
fn original(id: &str, source: &str, digest: Option<char>) -> Value {
    json!({"node_id": id, "kind": "source-module",
        "identity": {"strategy": "source-map-original", "original_source": source,
                     "source_sha256": digest.map(sha)},
        "observations": [{"label": source, "properties": {"source_map_path": "main.js.map"}, "evidence": {}}]})
}

fn application(nodes: Vec<Value>, edges: Vec<Value>) -> Vec<u8> {
    serde_json::to_vec(&json!({
        "graph": {"graph_id": "jag_test", "coverage": {"status": "complete", "truncated": false},
                  "nodes": nodes, "edges": edges},
        "statistics": {"limit_omitted_text_files": 0, "truncated_scopes": 0, "dropped_findings": 0},
    }))
    .unwrap()
}

fn compare(reference: &Reference, app: &[u8]) -> Value {
    let cancel = CancelToken::new();
    let progress = ProgressReporter::silent();
    let cx = StageCx::detached(StageKind::Graph, &cancel, &progress);
    sources::compare(
        &cx,
        reference,
        app,
        "ev_test",
        Limits::default(),
        &json!({}),
    )
    .unwrap()
}

fn status(result: &Value, path: &str) -> (String, Value) {
    let item = result["items"]
        .as_array()
        .unwrap()
        .iter()
        .find(|i| i["source_path"] == path)
        .unwrap_or_else(|| panic!("no item for {path}"));
    (
        item["status"].as_str().unwrap().to_owned(),
        item["reason"].clone(),
    )
}

#[test]
fn original_sources_become_paths_below_their_project() {
    assert_eq!(
        normalize_original("webpack://app/./src/x.js?abcd").as_deref(),
        Some("src/x.js")
    );
    assert_eq!(
        normalize_original("webpack:///./src/x.js").as_deref(),
        Some("src/x.js")
    );
    assert_eq!(normalize_original("webpack:///webpack/bootstrap"), None);
    assert_eq!(
        normalize_original("../../src/y.ts").as_deref(),
        Some("src/y.ts")
    );
    assert_eq!(
        normalize_original("file:///home/u/p/z.js").as_deref(),
        Some("home/u/p/z.js")
    );
    assert_eq!(normalize_original("./"), None);
}

#[test]
fn a_reference_is_checked_and_its_commitment_recomputed() {
    let built = reference(vec![file("src/b.js", 'b'), file("src/a.js", 'a')]);
    assert_eq!(built.entries[0].path, "src/a.js", "entries are kept sorted");
    let value = serde_json::to_value(&built).unwrap();
    assert_eq!(
        Reference::read(&value).unwrap().root_sha256,
        built.root_sha256
    );

    let refused = |edit: &dyn Fn(&mut Value)| {
        let mut value = value.clone();
        edit(&mut value);
        Reference::read(&value).unwrap_err().message
    };
    assert!(refused(&|v| v["entries"][0]["sha256"] = json!(sha('c'))).contains("root_sha256"));
    assert!(refused(&|v| v["entries"][0]["path"] = json!("../a.js")).contains(".."));
    assert!(refused(&|v| v["entries"][1]["path"] = json!("src/a.js")).contains("twice"));
    assert!(refused(&|v| v["entries"][0]["sha256"] = json!("ABC")).contains("hex"));
    assert!(refused(&|v| v["schema"] = json!("Other/v1")).contains("schema"));
    assert!(refused(&|v| v["unexpected"] = json!(1)).contains("HistoricalSourceGraph"));
    let excluded = Reference::build(
        vec![file("a.js", 'a')],
        vec![Exclusion {
            path: ".env".to_owned(),
            reason: "made-up".to_owned(),
        }],
        true,
        json!([]),
        json!(null),
        json!(null),
        Vec::new(),
    )
    .unwrap();
    let message = Reference::read(&serde_json::to_value(&excluded).unwrap())
        .unwrap_err()
        .message;
    assert!(message.contains("reason"), "{message}");
}

#[test]
fn each_status_follows_its_rule() {
    let reference = reference(vec![
        file("same.js", 's'),     // its bytes shipped twice: duplicated
        file("one.js", 'o'),      // its bytes shipped once: unchanged
        file("edited.js", 'e'),   // at its path, other bytes: modified
        file("x.js", 'x'),        // two shipped files end with /x.js: split
        file("lib/weak.js", 'w'), // only a name matches: unknown
        file("gone.js", 'g'),     // nothing matches: removed
        file("README.md", 'r'),   // not a kind the analysis reads: unknown
        file("nodigest.ts", 'n'), // an original source without its text: unknown
        file("m/merged.js", 'm'), // two files whose one best node is the same
        file("merged.js", 'q'),
        file("shared.js", 'h'), // one source two maps list: unchanged
        file("kept.js", 'k'),   // at its own path, and copied elsewhere: unchanged
    ]);
    let app = application(
        vec![
            asset("jag_node_1", "a/same.js", 's'),
            asset("jag_node_2", "b/same.js", 's'),
            asset("jag_node_3", "dist/one.js", 'o'),
            asset("jag_node_4", "edited.js", 'E'),
            asset("jag_node_5", "a/x.js", '1'),
            asset("jag_node_6", "b/x.js", '2'),
            asset("jag_node_7", "other/weak.js", '3'),
            original("jag_node_8", "webpack://app/./nodigest.ts", None),
            original("jag_node_9", "webpack://app/./m/merged.js", Some('M')),
            original("jag_node_10", "webpack://app/./shared.js", Some('h')),
            original("jag_node_11", "webpack://other/./shared.js?x", Some('h')),
            asset("jag_node_12", "kept.js", 'k'),
            asset("jag_node_12", "kept.copy.js", 'k'),
        ],
        Vec::new(),
    );
    let result = compare(&reference, &app);
    let expect = [
        ("same.js", "duplicated", Value::Null),
        ("one.js", "unchanged", Value::Null),
        ("edited.js", "modified", Value::Null),
        ("x.js", "split", Value::Null),
        ("lib/weak.js", "unknown", json!("weak-match")),
        ("gone.js", "removed", Value::Null),
        ("README.md", "unknown", json!("not-analyzed-kind")),
        ("nodigest.ts", "unknown", json!("no-digest")),
        ("m/merged.js", "merged", Value::Null),
        ("merged.js", "merged", Value::Null),
        ("shared.js", "unchanged", Value::Null),
        ("kept.js", "unchanged", Value::Null),
    ];
    for (path, want, reason) in expect {
        assert_eq!(status(&result, path), (want.to_owned(), reason), "{path}");
    }
    let summary = &result["summary"];
    assert_eq!(summary["compared_files"], 12);
    assert_eq!(summary["unknown"], 3);
    // Scores are the sums of the listed signals' weights.
    let edited = result["items"]
        .as_array()
        .unwrap()
        .iter()
        .find(|i| i["source_path"] == "edited.js")
        .unwrap();
    assert_eq!(edited["matches"][0]["score"], 60 + 20 + 5);
    assert_eq!(edited["confidence"], "high");
    // Every id is recomputable.
    for item in result["items"].as_array().unwrap() {
        assert_eq!(
            sources::item_id(item).unwrap(),
            item["item_id"].as_str().unwrap()
        );
    }
}

#[test]
fn absence_is_unknown_where_a_bundle_could_hold_the_file() {
    let reference = reference(vec![file("src/gone.js", 'g'), file("src/data.json", 'd')]);
    // A bundle (an asset holding a chunk) that maps to nothing listing its sources.
    let chunk = json!({"node_id": "jag_node_c", "kind": "javascript-chunk",
        "identity": {"strategy": "artifact-local-key", "key": "main"},
        "observations": [{"label": "main", "properties": {}, "evidence": {}}]});
    let edges = vec![
        json!({"source_node_id": "jag_node_b", "target_node_id": "jag_node_c",
        "relation": "contains"}),
    ];
    let unmapped = application(
        vec![asset("jag_node_b", "main.js", 'b'), chunk.clone()],
        edges.clone(),
    );
    let result = compare(&reference, &unmapped);
    assert_eq!(
        status(&result, "src/gone.js"),
        ("unknown".to_owned(), json!("unmapped-bundles"))
    );
    assert_eq!(result["summary"]["unmapped_bundles"], 1);
    // The same bundle with its map read (an original source naming the asset's map): a script
    // absent from it is removed, JSON (which bundlers inline unlisted) is not.
    let mut listed = original("jag_node_o", "webpack://app/./src/kept.js", Some('k'));
    listed["observations"][0]["properties"]["source_map_path"] = json!("main.js");
    let mapped = application(
        vec![asset("jag_node_b", "main.js", 'b'), chunk, listed],
        edges,
    );
    let result = compare(&reference, &mapped);
    assert_eq!(result["summary"]["unmapped_bundles"], 0);
    assert_eq!(
        status(&result, "src/gone.js"),
        ("removed".to_owned(), Value::Null)
    );
    assert_eq!(
        status(&result, "src/data.json"),
        ("unknown".to_owned(), json!("not-listed-by-source-maps"))
    );
    // The mapped bundle stands for its sources: only the source no file matched is listed.
    let only = &result["application_only"];
    assert_eq!(only["count"], 1, "{only}");
    assert_eq!(only["nodes"][0]["path"], "src/kept.js", "{only}");
    assert_eq!(only["outside_dependencies"], 1, "{only}");
}

#[test]
fn bounds_leave_files_unknown_and_never_decide_them_on_a_partial_view() {
    let reference = reference(vec![
        file("a.js", 'a'),
        file("b.js", 'b'),
        file("gone.js", 'g'),
    ]);
    let app = application(
        vec![
            asset("jag_node_1", "a.js", 'a'),
            asset("jag_node_2", "b.js", 'b'),
        ],
        Vec::new(),
    );
    let cancel = CancelToken::new();
    let progress = ProgressReporter::silent();
    let cx = StageCx::detached(StageKind::Graph, &cancel, &progress);
    let limits = Limits {
        max_application_nodes: 1,
        ..Limits::default()
    };
    let result = sources::compare(&cx, &reference, &app, "ev_test", limits, &json!({})).unwrap();
    assert_eq!(
        status(&result, "a.js"),
        ("unchanged".to_owned(), Value::Null)
    );
    assert_eq!(
        status(&result, "b.js"),
        ("unknown".to_owned(), json!("node-limit"))
    );
    // No candidate at all: absent whatever the bound.
    assert_eq!(
        status(&result, "gone.js"),
        ("removed".to_owned(), Value::Null)
    );
    assert_eq!(result["coverage"]["status"], "truncated");
    assert_eq!(result["coverage"]["node_limit_reached"], true);
    let limits = Limits {
        max_candidate_evaluations: 1,
        ..Limits::default()
    };
    let result = sources::compare(&cx, &reference, &app, "ev_test", limits, &json!({})).unwrap();
    assert_eq!(
        status(&result, "b.js"),
        ("unknown".to_owned(), json!("evaluation-limit"))
    );
}

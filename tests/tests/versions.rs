//! `compare_application_versions` on the reference's versioned fixture (§6.3: version-1 and
//! version-2 of one application whose bundle factories were renamed, edited, duplicated, added
//! and removed), and the properties every comparison must keep: a version against itself
//! changes nothing, and the result is the same bytes whatever the thread count.

use std::collections::BTreeSet;
use std::path::Path;

use rea_core::{Failure, FailureReason};
use rea_jobs::Engine;
use rea_jobs::analyze::{AnalyzeRequest, SourceMaps};
use rea_jobs::versions::{Side, VersionsRequest};
use rea_tests::{analysis_envelope, control, forged_id};
use serde_json::Value;

/// One version of the fixture. Bundles throw if executed.
fn version(root: &Path, n: u8) {
    let (bundle, factories, content) = if n == 1 {
        (
            "left-bundle.js",
            r#"  "stable-old": (module) => { module.exports = "stable"; },
  "descriptive-name": (module) => { const descriptiveValue = 40; module.exports = descriptiveValue + 2; },
  "duplicate-a": (module) => { module.exports = "duplicate"; },
  "duplicate-b": (module) => { module.exports = "duplicate"; },
  "removed": (module) => { module.exports = ["removed", 1]; }"#,
            "before",
        )
    } else {
        (
            "right-bundle.js",
            r#"  "stable-new": (module) => { module.exports = "stable"; },
  "a": (module) => { const b = 40; module.exports = b + 2; },
  "collision-x": (module) => { module.exports = "duplicate"; },
  "collision-y": (module) => { module.exports = "duplicate"; },
  "added": (module) => { module.exports = { added: true }; }"#,
            "after",
        )
    };
    let map_directive = ["//# source", "MappingURL=../", bundle, ".map"].concat();
    let files: Vec<(String, Vec<u8>)> = vec![
        (
            "package.json".into(),
            format!(r#"{{"name":"rea-version-comparison-fixture","version":"{n}.0.0","main":"main.js"}}"#).into_bytes(),
        ),
        (
            "main.js".into(),
            br#"const { app, BrowserWindow, ipcMain } = require("electron");
ipcMain.handle("feature:open", () => require("./native.node"));
app.whenReady().then(() => new BrowserWindow({}).loadFile("renderer/index.html"));
"#
            .to_vec(),
        ),
        (
            "renderer/index.html".into(),
            format!(r#"<!doctype html><script src="./chunks/{bundle}"></script>"#).into_bytes(),
        ),
        (
            format!("renderer/chunks/{bundle}"),
            format!(
                "throw new Error(\"bundle executed\");\n(self.webpackChunkfixture = self.webpackChunkfixture || []).push([[{}], {{\n{factories}\n}}]);\n{map_directive}\n",
                if n == 1 { 101 } else { 909 }
            )
            .into_bytes(),
        ),
        (
            format!("renderer/{bundle}.map"),
            format!(r#"{{"version":3,"sources":["src/feature.ts"],"sourcesContent":["{content}"],"names":[],"mappings":"AAAA"}}"#).into_bytes(),
        ),
        ("native.node".into(), b"\x7fELF\x02\x01\x01\x00".to_vec()),
    ];
    for (path, bytes) in files {
        let path = root.join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, bytes).unwrap();
    }
}

fn analyze(root: &Path, threads: usize) -> Value {
    let mut request = AnalyzeRequest::new(root.to_path_buf());
    request.source_maps = SourceMaps::Contents;
    analysis_envelope(&request, threads)
}

fn compare_with(
    left: &Value,
    right: &Value,
    threads: usize,
    items: usize,
) -> Result<Value, Failure> {
    let request = VersionsRequest {
        left: Side::Value(left.clone()),
        right: Side::Value(right.clone()),
        max_comparison_items: items,
        max_candidate_nodes: 100,
        max_graph_nodes: rea_jobs::versions::DEFAULT_GRAPH_NODES,
        max_graph_edges: rea_jobs::versions::DEFAULT_GRAPH_EDGES,
    };
    let published = control(|ctl| {
        Engine::new(threads)
            .unwrap()
            .compare_application_versions(request, ctl)
    })?;
    Ok(serde_json::from_slice(&published.envelope_bytes()).unwrap())
}

fn compare(left: &Value, right: &Value) -> Value {
    compare_with(left, right, 2, 20_000).unwrap()["result"].clone()
}

fn fixture() -> (tempfile::TempDir, Value, Value) {
    let dir = tempfile::tempdir().unwrap();
    let (v1, v2) = (dir.path().join("version-1"), dir.path().join("version-2"));
    version(&v1, 1);
    version(&v2, 2);
    (dir, analyze(&v1, 2), analyze(&v2, 2))
}

/// The items of one kind whose left or right label is `label`.
fn items_labelled<'a>(result: &'a Value, kind: &str, label: &str) -> Vec<&'a Value> {
    result["items"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|i| {
            i["kind"] == kind && (i["left"]["label"] == label || i["right"]["label"] == label)
        })
        .collect()
}

#[test]
fn the_versioned_fixture_pairs_as_the_reference_expects() {
    let (_dir, v1, v2) = fixture();
    let result = compare(&v1, &v2);
    let module = |label: &str| items_labelled(&result, "javascript-module", label);

    // Identical source under a renamed key pairs on the source digest, and nothing changed.
    let stable = module("stable-old");
    assert_eq!(stable.len(), 1);
    assert_eq!(stable[0]["basis"], "exact-module-source-digest");
    assert_eq!(stable[0]["confidence"], "exact");
    assert_eq!(stable[0]["right"]["label"], "stable-new");
    assert_eq!(stable[0]["status"], "unchanged", "{}", stable[0]);

    // A renamed local changes the source digest but not the structure.
    let renamed = module("descriptive-name");
    assert_eq!(renamed.len(), 1);
    assert_eq!(renamed[0]["basis"], "structural-fingerprint");
    assert_eq!(renamed[0]["confidence"], "medium");
    assert_eq!(renamed[0]["right"]["label"], "a");
    assert_eq!(renamed[0]["status"], "changed");
    assert_eq!(
        renamed[0]["changed_dimensions"],
        serde_json::json!(["source"])
    );

    // Two identical factories on each side: no unique pair in any tier, all four unknown.
    assert!(result["matching"]["ambiguous"].as_u64().unwrap() >= 4);
    for label in ["duplicate-a", "duplicate-b", "collision-x", "collision-y"] {
        let items = module(label);
        assert_eq!(items.len(), 1, "{label}");
        assert_eq!(items[0]["status"], "unknown", "{label}");
        assert_eq!(items[0]["basis"], "exact-module-source-digest", "{label}");
        let candidates = &items[0]["candidates"];
        let listed = candidates["left"].as_array().unwrap().len()
            + candidates["right"].as_array().unwrap().len();
        assert_eq!(listed, 2, "{label}: {candidates}");
    }

    // One-sided factories.
    assert_eq!(module("removed")[0]["status"], "removed");
    assert_eq!(module("added")[0]["status"], "added");
    assert!(result["summary"]["added"].as_u64().unwrap() > 0);
    assert!(result["summary"]["removed"].as_u64().unwrap() > 0);

    // The original source pairs through its source map, and its contents changed.
    let feature = items_labelled(&result, "source-module", "src/feature.ts");
    assert_eq!(feature.len(), 1, "{:#}", result["items"]);
    assert_eq!(feature[0]["basis"], "source-map-identity");
    assert_eq!(feature[0]["confidence"], "high");
    assert_eq!(feature[0]["status"], "changed");

    // Files pair by content when unchanged, by path when not.
    let addon = items_labelled(&result, "native-addon", "native.node");
    assert_eq!(addon.len(), 1);
    assert_eq!(addon[0]["basis"], "exact-content-digest");
    assert_eq!(addon[0]["status"], "unchanged");
    let main = items_labelled(&result, "javascript-asset", "main.js");
    assert_eq!(main[0]["status"], "unchanged");
    let html = &result["items"]
        .as_array()
        .unwrap()
        .iter()
        .find(|i| i["left"]["paths"][0] == "renderer/index.html" && i["kind"] == "artifact")
        .expect("the page pairs");
    assert_eq!(html["status"], "changed");
    assert_eq!(html["basis"], "semantic-key");

    // The IPC handler is the same on both sides.
    let handler = items_labelled(&result, "ipc-handler", "feature:open");
    assert_eq!(handler.len(), 1);
    assert_ne!(handler[0]["status"], "added");
    assert_ne!(handler[0]["status"], "removed");

    // Counts add up, and the listing puts changes first.
    let summary = &result["summary"];
    let total: u64 = ["added", "removed", "changed", "unchanged", "unknown"]
        .iter()
        .map(|s| summary[*s].as_u64().unwrap())
        .sum();
    assert_eq!(summary["items"], total);
    assert_eq!(result["items"].as_array().unwrap().len() as u64, total);
    assert_eq!(result["items"][0]["status"], "changed");
    // Within a status, the application's boundary (IPC, bridges, windows…) comes first.
    let rank = |item: &Value| {
        let kind = item["kind"].as_str().unwrap();
        let boundary = rea_graph::versions::BOUNDARY_KINDS
            .iter()
            .position(|k| *k == kind)
            .unwrap_or(usize::MAX);
        (item["status"].as_str().unwrap().to_owned(), boundary)
    };
    let items = result["items"].as_array().unwrap();
    for pair in items.windows(2) {
        let (a, b) = (rank(&pair[0]), rank(&pair[1]));
        assert!(a.0 != b.0 || a.1 <= b.1, "{} before {}", pair[0], pair[1]);
    }
    assert!(items.iter().any(|i| i["kind"] == "ipc-handler"));
    assert_eq!(result["left"]["evidence_id"], v1["evidence_id"]);
    assert_eq!(result["right"]["evidence_id"], v2["evidence_id"]);

    // The changed_from graph: one edge from the later node to the earlier for every changed
    // pair whose node ids differ, each node as its side's graph holds it.
    let graph = &result["changed_from"];
    let expected: BTreeSet<(String, String)> = items
        .iter()
        .filter(|i| i["status"] == "changed" && i["left"]["node_id"] != i["right"]["node_id"])
        .map(|i| {
            (
                i["right"]["node_id"].as_str().unwrap().to_owned(),
                i["left"]["node_id"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    assert!(expected.len() >= 2, "{expected:?}");
    let edges: BTreeSet<(String, String)> = graph["edges"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            assert_eq!(e["relation"], "changed_from");
            assert_eq!(e["evidence"]["authority"], "cross-version-comparison");
            (
                e["source_node_id"].as_str().unwrap().to_owned(),
                e["target_node_id"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    assert_eq!(edges, expected);
    assert_eq!(summary["changed_from_edges"], expected.len());
    assert_eq!(summary["changed_from_graph_id"], graph["graph_id"]);
    let side_nodes = |record: &Value| -> Vec<Value> {
        record["result"]["graph"]["nodes"]
            .as_array()
            .unwrap()
            .clone()
    };
    let known: Vec<Value> = side_nodes(&v1).into_iter().chain(side_nodes(&v2)).collect();
    for node in graph["nodes"].as_array().unwrap() {
        assert!(known.contains(node), "{}", node["node_id"]);
    }
    assert_eq!(graph["coverage"]["status"], "complete");
}

/// Jitsi's SDK between two releases: the files that send on a channel and require a package
/// moved (`render.js` became `preload.js`). The channel and the external module keep their
/// names, so they pair, at low confidence, by their key without the files; a channel that was
/// renamed is removed on one side and added on the other.
#[test]
fn channels_and_external_modules_pair_by_name_when_the_code_naming_them_moved() {
    let dir = tempfile::tempdir().unwrap();
    let write = |root: &Path, files: &[(&str, &str)]| {
        for (path, text) in files {
            let path = root.join(path);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, text).unwrap();
        }
    };
    let main = r#"const { ipcMain } = require("electron");
ipcMain.on("pip:ping", () => {});
ipcMain.on("old:name", () => {});"#;
    let (v1, v2) = (dir.path().join("v1"), dir.path().join("v2"));
    write(
        &v1,
        &[
            ("package.json", r#"{"name":"sdk","main":"main.js"}"#),
            ("main.js", main),
            (
                "pip/render.js",
                r#"const { ipcRenderer } = require("electron");
const logger = require("@jitsi/logger");
ipcRenderer.send("pip:ping"); ipcRenderer.send("old:name");"#,
            ),
        ],
    );
    write(
        &v2,
        &[
            ("package.json", r#"{"name":"sdk","main":"main.js"}"#),
            ("main.js", &main.replace("old:name", "new:name")),
            (
                "pip/preload.js",
                r#"const { ipcRenderer } = require("electron");
const logger = require("@jitsi/logger");
ipcRenderer.send("pip:ping"); ipcRenderer.send("new:name");"#,
            ),
        ],
    );
    let result = compare(&analyze(&v1, 2), &analyze(&v2, 2));
    let ping = items_labelled(&result, "ipc-channel", "pip:ping");
    assert_eq!(ping.len(), 1, "{:#}", result["items"]);
    assert_eq!(ping[0]["basis"], "semantic-key-any-files");
    assert_eq!(ping[0]["confidence"], "low");
    assert_eq!(
        ping[0]["left"]["paths"],
        serde_json::json!(["main.js", "pip/render.js"])
    );
    assert_eq!(
        ping[0]["right"]["paths"],
        serde_json::json!(["main.js", "pip/preload.js"])
    );
    let logger = items_labelled(&result, "javascript-module", "@jitsi/logger");
    assert_eq!(logger.len(), 1, "{:#}", result["items"]);
    assert_eq!(logger[0]["basis"], "semantic-key-any-files");
    let statuses = |label: &str| -> Vec<&str> {
        items_labelled(&result, "ipc-channel", label)
            .iter()
            .map(|i| i["status"].as_str().unwrap())
            .collect()
    };
    assert_eq!(statuses("old:name"), ["removed"]);
    assert_eq!(statuses("new:name"), ["added"]);
}

#[test]
fn a_changed_pair_names_the_properties_whose_values_changed() {
    // Two versions of one main file of the same length: one registers another deep-link
    // scheme, so its content and its URL schemes changed, and nothing else it says.
    let dir = tempfile::tempdir().unwrap();
    let sides: Vec<Value> = ["one", "two"]
        .iter()
        .enumerate()
        .map(|(i, scheme)| {
            let root = dir.path().join(format!("version-{i}"));
            std::fs::create_dir_all(&root).unwrap();
            std::fs::write(root.join("package.json"), r#"{"name":"p","main":"main.js"}"#).unwrap();
            std::fs::write(
                root.join("main.js"),
                format!(
                    "const {{ app, protocol }} = require(\"electron\");\napp.setAsDefaultProtocolClient(\"{scheme}\");\nprotocol.registerSchemesAsPrivileged([{{ scheme: \"app\", privileges: {{ secure: true }} }}]);\n"
                ),
            )
            .unwrap();
            analyze(&root, 2)
        })
        .collect();
    let result = compare(&sides[0], &sides[1]);
    let main = items_labelled(&result, "javascript-asset", "main.js");
    assert_eq!(main.len(), 1, "{:#}", result["items"]);
    assert_eq!(main[0]["status"], "changed");
    assert_eq!(
        main[0]["changed_dimensions"],
        serde_json::json!(["content", "properties"])
    );
    assert_eq!(
        main[0]["changed_properties"],
        serde_json::json!(["url_schemes"])
    );
    // Where properties did not change, none is named.
    for item in result["items"].as_array().unwrap() {
        let named = !item["changed_properties"].as_array().unwrap().is_empty();
        let by_properties = item["changed_dimensions"]
            .as_array()
            .unwrap()
            .contains(&Value::from("properties"));
        assert!(!named || by_properties, "{item}");
    }
}

#[test]
fn the_changed_from_graph_keeps_to_its_bounds_and_says_so() {
    let (_dir, v1, v2) = fixture();
    let request = VersionsRequest {
        left: Side::Value(v1.clone()),
        right: Side::Value(v2.clone()),
        max_comparison_items: 20_000,
        max_candidate_nodes: 100,
        max_graph_nodes: 2,
        max_graph_edges: 1,
    };
    let published = control(|ctl| {
        Engine::new(2)
            .unwrap()
            .compare_application_versions(request, ctl)
    })
    .unwrap();
    let envelope: Value = serde_json::from_slice(&published.envelope_bytes()).unwrap();
    let result = &envelope["result"];
    let graph = &result["changed_from"];
    assert_eq!(graph["edges"].as_array().unwrap().len(), 1);
    assert_eq!(graph["nodes"].as_array().unwrap().len(), 2);
    assert_eq!(graph["coverage"]["status"], "partial");
    assert!(graph["coverage"]["omitted_count"].as_u64().unwrap() >= 1);
    assert!(
        result["limitations"]
            .as_array()
            .unwrap()
            .iter()
            .any(|l| l.as_str().unwrap().contains("max_graph_nodes"))
    );
    // A graph out of range is refused before anything runs.
    let err = control(|ctl| {
        Engine::new(1).unwrap().compare_application_versions(
            VersionsRequest {
                left: Side::Value(v1.clone()),
                right: Side::Value(v2.clone()),
                max_comparison_items: 10,
                max_candidate_nodes: 10,
                max_graph_nodes: 0,
                max_graph_edges: 1,
            },
            ctl,
        )
    })
    .unwrap_err();
    assert_eq!(err.reason, FailureReason::InvalidInput);
}

#[test]
fn a_version_against_itself_changes_nothing() {
    let (_dir, v1, _) = fixture();
    let result = compare(&v1, &v1);
    let summary = &result["summary"];
    for status in ["added", "removed", "changed", "unknown"] {
        assert_eq!(summary[status], 0, "{status}: {summary}");
    }
    let nodes = v1["result"]["graph"]["nodes"].as_array().unwrap().len() as u64;
    assert_eq!(summary["unchanged"], nodes);
    assert_eq!(summary["paired"], nodes);
    assert!(result["changed_from"].is_null());
    assert_eq!(summary["changed_from_edges"], 0);
}

#[test]
fn the_comparison_is_the_same_bytes_at_any_thread_count_and_bounded_listing_counts_all() {
    let (_dir, v1, v2) = fixture();
    let one = compare_with(&v1, &v2, 1, 20_000).unwrap();
    let two = compare_with(&v1, &v2, 2, 20_000).unwrap();
    assert_eq!(one["evidence_id"], two["evidence_id"]);
    assert_eq!(
        serde_json::to_vec(&one).unwrap(),
        serde_json::to_vec(&two).unwrap()
    );
    let cut = compare_with(&v1, &v2, 2, 3).unwrap()["result"].clone();
    assert_eq!(cut["items"].as_array().unwrap().len(), 3);
    assert_eq!(cut["summary"]["items"], one["result"]["summary"]["items"]);
    assert_eq!(
        cut["truncation"]["omitted_items"].as_u64().unwrap() + 3,
        cut["summary"]["items"].as_u64().unwrap()
    );
    assert!(
        cut["limitations"]
            .as_array()
            .unwrap()
            .iter()
            .any(|l| l.as_str().unwrap().contains("max_comparison_items"))
    );
    // The full listing's first items are the cut listing's.
    assert_eq!(cut["items"][0], one["result"]["items"][0]);
}

#[test]
fn sides_given_as_text_canonical_or_not_compare_as_values_do() {
    let (_dir, v1, v2) = fixture();
    let as_values = compare_with(&v1, &v2, 2, 20_000).unwrap();
    let text = |side: Side, other: Side| {
        let request = VersionsRequest {
            left: side,
            right: other,
            max_comparison_items: 20_000,
            max_candidate_nodes: 100,
            max_graph_nodes: rea_jobs::versions::DEFAULT_GRAPH_NODES,
            max_graph_edges: rea_jobs::versions::DEFAULT_GRAPH_EDGES,
        };
        let published = control(|ctl| {
            Engine::new(2)
                .unwrap()
                .compare_application_versions(request, ctl)
        })
        .unwrap();
        serde_json::from_slice::<Value>(&published.envelope_bytes()).unwrap()
    };
    // The envelope as the CLI writes it (canonical: validated where it lies), and the bare
    // record pretty-printed (read into a value first).
    let canonical = Side::Text(rea_hash::canonical_bytes(&v1).unwrap());
    let pretty = Side::Text(serde_json::to_vec_pretty(&v2["evidence"]).unwrap());
    let as_text = text(canonical, pretty);
    assert_eq!(as_text["evidence_id"], as_values["evidence_id"]);

    let err = control(|ctl| {
        Engine::new(1).unwrap().compare_application_versions(
            VersionsRequest {
                left: Side::Text(b"{not json".to_vec()),
                right: Side::Value(v2.clone()),
                max_comparison_items: 10,
                max_candidate_nodes: 10,
                max_graph_nodes: rea_jobs::versions::DEFAULT_GRAPH_NODES,
                max_graph_edges: rea_jobs::versions::DEFAULT_GRAPH_EDGES,
            },
            ctl,
        )
    })
    .unwrap_err();
    assert_eq!(err.reason, FailureReason::InvalidInput);
    assert_eq!(err.details["side"], "left");
}

#[test]
fn inputs_that_are_not_application_evidence_are_refused_and_tampering_is_caught() {
    let (_dir, v1, v2) = fixture();
    let mut tampered = v2.clone();
    tampered["evidence"]["normalized_result"]["graph"]["nodes"][0]["kind"] = "worker".into();
    let err = compare_with(&v1, &tampered, 2, 100).unwrap_err();
    assert_eq!(err.reason, FailureReason::Integrity);
    assert_eq!(err.details["side"], "right");

    let err = compare_with(&serde_json::json!({"hello": 1}), &v2, 2, 100).unwrap_err();
    assert_eq!(err.details["side"], "left");

    // A comparison is Evidence too, but not of an application.
    let comparison = compare_with(&v1, &v2, 2, 100).unwrap();
    let err = compare_with(&comparison, &v2, 2, 100).unwrap_err();
    assert_eq!(err.reason, FailureReason::InvalidInput);
    assert!(
        err.message.contains("analyze_javascript_application"),
        "{}",
        err.message
    );

    let err = compare_with(&v1, &v2, 2, 0).unwrap_err();
    assert_eq!(err.reason, FailureReason::InvalidInput);
}

#[test]
fn a_forger_who_recomputes_the_evidence_id_is_still_caught_by_the_comparison_checks() {
    let (_dir, v1, v2) = fixture();
    let record = compare_with(&v1, &v2, 2, 20_000).unwrap()["evidence"].clone();
    assert!(rea_validate::validate_bytes(rea_hash::canonical_bytes(&record).unwrap()).is_ok());
    let forge = |edit: &dyn Fn(&mut Value)| {
        let mut record = record.clone();
        edit(&mut record);
        record["evidence_id"] = Value::from(forged_id(&record));
        rea_validate::validate_bytes(rea_hash::canonical_bytes(&record).unwrap()).unwrap_err()
    };
    // An item's status is committed to by its id.
    let err = forge(&|r| r["normalized_result"]["items"][0]["status"] = "unchanged".into());
    assert!(err.at.starts_with("/items/0"), "{err}");
    // Properties are named as changed only where properties differ.
    let err = forge(&|r| {
        let items = r["normalized_result"]["items"].as_array_mut().unwrap();
        let added = items.iter_mut().find(|i| i["status"] == "added").unwrap();
        added["changed_properties"] = serde_json::json!(["bytes"]);
    });
    assert!(err.problem.contains("changed_properties"), "{err}");
    // More items listed than counted: an error, never an overflow.
    let err = forge(&|r| {
        let summary = &mut r["normalized_result"]["summary"];
        for key in [
            "added",
            "removed",
            "changed",
            "unchanged",
            "unknown",
            "items",
        ] {
            summary[key] = 0.into();
        }
    });
    assert_eq!(err.at, "/summary", "{err}");
    // The counts are committed to by the comparison id.
    let err = forge(&|r| {
        let summary = &mut r["normalized_result"]["summary"];
        let (added, removed) = (
            summary["added"].as_u64().unwrap(),
            summary["removed"].as_u64().unwrap(),
        );
        summary["added"] = (added + 1).into();
        summary["removed"] = (removed - 1).into();
    });
    assert_eq!(err.at, "/comparison_id", "{err}");
    // The changed_from graph's ids are recomputed, and its id is committed to.
    let err = forge(&|r| {
        r["normalized_result"]["changed_from"]["edges"][0]["properties"]["basis"] =
            "module-key".into()
    });
    assert!(err.at.starts_with("/graph/edges/0"), "{err}");
    let err = forge(&|r| r["normalized_result"]["changed_from"] = Value::Null);
    assert_eq!(err.at, "/changed_from", "{err}");
    // A comparison links the records it compares.
    let err = forge(&|r| r["evidence_links"] = serde_json::json!([]));
    assert_eq!(err.at, "/evidence_links", "{err}");
}

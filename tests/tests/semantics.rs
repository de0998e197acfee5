//! The semantic graph end to end: a small Electron-shaped application whose flows are known
//! (an environment variable through a config module into a request and a child process, an IPC
//! channel from a preload to its handler), analyzed through the engine and queried in every
//! direction; the section's bytes at any thread count; paging by cursor; forgery caught by the
//! section's own ids; and typed refusals.

use std::path::Path;

use rea_core::FailureReason;
use rea_jobs::Engine;
use rea_jobs::analyze::AnalyzeRequest;
use rea_jobs::semantics::{Filter, Limits, Query, Seed, SemanticTraceRequest};
use rea_jobs::shapes::Side;
use rea_tests::{analysis_envelope, control, forged_id};
use serde_json::Value;

const CONFIG: &str = r#"
function readConfig() {
  const url = process.env.API_URL || "https://api.example.test";
  return { url, tool: process.env.TOOL_PATH };
}
module.exports = { readConfig };
"#;

const MAIN: &str = r#"
const { ipcMain } = require("electron");
const { spawn } = require("node:child_process");
const { readConfig } = require("./config");
async function sync(cfg) {
  const res = await fetch(cfg.url, { method: "POST" });
  return JSON.parse(await res.text());
}
ipcMain.handle("sync:run", async (event, args) => {
  const cfg = readConfig();
  const child = spawn(cfg.tool, ["--once", args.mode]);
  child.on("exit", (code) => event.sender.send("sync:done", code));
  return sync(cfg);
});
"#;

const PRELOAD: &str = r#"
const { contextBridge, ipcRenderer } = require("electron");
contextBridge.exposeInMainWorld("sync", {
  run: (mode) => ipcRenderer.invoke("sync:run", { mode }),
  onDone: (listener) => ipcRenderer.on("sync:done", (_e, code) => listener(code)),
});
"#;

fn write(root: &Path) {
    std::fs::create_dir_all(root.join("src")).unwrap();
    std::fs::write(
        root.join("package.json"),
        r#"{"name":"sync-app","version":"1.0.0","main":"src/main.js"}"#,
    )
    .unwrap();
    std::fs::write(root.join("src/config.js"), CONFIG).unwrap();
    std::fs::write(root.join("src/main.js"), MAIN).unwrap();
    std::fs::write(root.join("src/preload.js"), PRELOAD).unwrap();
}

fn analyze(root: &Path, threads: usize) -> Value {
    analysis_envelope(&AnalyzeRequest::new(root.to_path_buf()), threads)
}

fn query(kind: &str, value: &str, direction: &str) -> Query {
    Query {
        seed: Seed {
            kind: kind.to_owned(),
            value: value.to_owned(),
            matching: None,
        },
        direction: direction.to_owned(),
        allowed_relations: None,
        include_ambiguous_dynamic_edges: false,
        filter: None,
        limits: Limits::default(),
        cursor: None,
    }
}

fn trace(app: &Value, query: Query) -> Result<Value, rea_core::Failure> {
    let request = SemanticTraceRequest {
        application: Side::Value(app.clone()),
        query,
    };
    let published = control(|ctl| {
        Engine::new(2)
            .unwrap()
            .trace_javascript_semantics(request, ctl)
    })?;
    let envelope: Value = serde_json::from_slice(&published.envelope_bytes()).unwrap();
    Ok(envelope["result"].clone())
}

/// The traced nodes' (kind, module, label) triples.
fn reached(result: &Value) -> Vec<(String, String, String)> {
    result["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| {
            let node = &n["node"];
            (
                node["kind"].as_str().unwrap().to_owned(),
                node["identity"]["module_path"].as_str().unwrap().to_owned(),
                node["label"].as_str().unwrap().to_owned(),
            )
        })
        .collect()
}

fn fixture() -> (tempfile::TempDir, Value) {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path());
    let app = analyze(dir.path(), 2);
    (dir, app)
}

#[test]
fn an_environment_variable_reaches_the_request_and_the_child_process() {
    let (_dir, app) = fixture();
    let mut q = query("literal", "https://api.example.test", "forward-influence");
    q.filter = Some(Filter {
        role: "sink".to_owned(),
        classes: vec!["request".to_owned(), "child-process".to_owned()],
    });
    let result = trace(&app, q).unwrap();
    let nodes = reached(&result);
    assert!(
        nodes
            .iter()
            .any(|(k, m, _)| k == "request" && m == "src/main.js"),
        "{nodes:#?}"
    );
    // The endpoints are exactly the traversed nodes of the filter's kinds.
    let endpoints = result["endpoints"].as_array().unwrap();
    let kinds: Vec<&str> = result["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|n| endpoints.contains(&n["node"]["node_id"]))
        .map(|n| n["node"]["kind"].as_str().unwrap())
        .collect();
    assert!(!kinds.is_empty());
    assert!(
        kinds
            .iter()
            .all(|k| *k == "request" || *k == "child-process")
    );
    // Backwards from the child process: the environment variable its path came from.
    let back = trace(&app, query("function", "readConfig", "callers")).unwrap();
    let callers = reached(&back);
    assert!(
        callers
            .iter()
            .any(|(k, m, _)| k == "call-site" && m == "src/main.js"),
        "{callers:#?}"
    );
    let provenance = trace(&app, query("property", "tool", "backward-provenance")).unwrap();
    assert!(
        reached(&provenance)
            .iter()
            .any(|(k, _, l)| k == "config-source" && l == "process.env.TOOL_PATH"),
        "{:#?}",
        reached(&provenance)
    );
}

#[test]
fn an_ipc_channel_links_the_preload_to_its_handler_and_back() {
    let (_dir, app) = fixture();
    let result = trace(&app, query("event", "sync:run", "forward-influence")).unwrap();
    let nodes = reached(&result);
    // The handler's function, in the main process, and what it does.
    assert!(
        nodes
            .iter()
            .any(|(k, m, _)| k == "function" && m == "src/main.js")
    );
    assert!(nodes.iter().any(|(k, _, _)| k == "child-process"));
    let done = trace(&app, query("event", "sync:done", "backward-provenance")).unwrap();
    let modules: std::collections::BTreeSet<String> =
        reached(&done).into_iter().map(|(_, m, _)| m).collect();
    assert!(modules.contains("src/main.js") && modules.contains("src/preload.js"));
    assert_eq!(result["status"], "partial");
}

#[test]
fn the_section_is_the_same_at_any_thread_count_and_pages_cover_the_trace() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path());
    let one = analyze(dir.path(), 1);
    let two = analyze(dir.path(), 2);
    assert_eq!(
        one["result"]["semantic_graph"], two["result"]["semantic_graph"],
        "the section differs between thread counts"
    );
    let graph = &two["result"]["semantic_graph"];
    assert_eq!(
        graph["application_graph_id"],
        two["result"]["graph"]["graph_id"]
    );
    assert_eq!(graph["coverage"]["families"].as_array().unwrap().len(), 12);

    let mut q = query("event", "sync:run", "forward-influence");
    q.limits.set("page_size", 2);
    let first = trace(&two, q.clone()).unwrap();
    let total = first["page"]["total_nodes"].as_u64().unwrap() as usize;
    assert!(total > 2);
    let mut seen: Vec<Value> = first["nodes"].as_array().unwrap().clone();
    let mut relations = first["relations"].as_array().unwrap().len();
    let mut cursor = first["page"]["next_cursor"].as_str().map(str::to_owned);
    while let Some(c) = cursor {
        let mut next = q.clone();
        next.cursor = Some(c);
        let page = trace(&two, next).unwrap();
        seen.extend(page["nodes"].as_array().unwrap().iter().cloned());
        relations += page["relations"].as_array().unwrap().len();
        cursor = page["page"]["next_cursor"].as_str().map(str::to_owned);
    }
    assert_eq!(seen.len(), total);
    assert_eq!(
        relations as u64,
        first["page"]["total_relations"].as_u64().unwrap()
    );
    let ids: std::collections::BTreeSet<&str> = seen
        .iter()
        .map(|n| n["node"]["node_id"].as_str().unwrap())
        .collect();
    assert_eq!(ids.len(), total, "a node on two pages");
    // Depths never decrease from page to page.
    let depths: Vec<u64> = seen.iter().map(|n| n["depth"].as_u64().unwrap()).collect();
    assert!(depths.is_sorted());
    // A cursor of another query is refused.
    let mut other = query("event", "sync:run", "backward-provenance");
    other.limits.set("page_size", 2);
    other.cursor = first["page"]["next_cursor"].as_str().map(str::to_owned);
    let refused = trace(&two, other).unwrap_err();
    assert_eq!(refused.reason, FailureReason::InvalidInput);
}

#[test]
fn a_forged_semantic_graph_is_caught_by_its_own_ids() {
    let (_dir, app) = fixture();
    let record = &app["evidence"];
    type Edit = (&'static str, fn(&mut Value));
    let edits: [Edit; 4] = [
        ("a relation's target", |g| {
            let other = g["nodes"][0]["node_id"].clone();
            g["relations"][0]["target_node_id"] = other;
        }),
        ("a node's label", |g| {
            g["nodes"][1]["label"] = Value::from("forged");
        }),
        ("an array that is not one", |g| {
            g["relations"] = Value::from("forged");
        }),
        ("a family's count", |g| {
            let families = g["coverage"]["families"].as_array_mut().unwrap();
            families[0]["retained_relations"] = Value::from(999_999);
        }),
    ];
    for (what, edit) in edits {
        let mut forged = record.clone();
        edit(&mut forged["normalized_result"]["semantic_graph"]);
        forged["evidence_id"] = Value::from(forged_id(&forged));
        let refused =
            rea_validate::validate_bytes(rea_hash::canonical_bytes(&forged).unwrap()).unwrap_err();
        assert!(
            refused.to_string().contains("semantic_graph"),
            "{what}: {refused}"
        );
    }
    // The section's items are checked on the record's text, each slice canonical and the
    // arrays framed exactly: a space inside a relation, or between two nodes, is refused.
    let bytes = rea_hash::canonical_bytes(record).unwrap();
    let text = String::from_utf8(bytes).unwrap();
    let relations = text.find("\"relations\":[{").unwrap() + "\"relations\":[{".len();
    let nodes = text.find("\"nodes\":[{\"application_node_ids\"").unwrap();
    let between = nodes + text[nodes..].find("},{").unwrap() + 2;
    for (what, at) in [("inside a relation", relations), ("between nodes", between)] {
        let mut spaced = text.clone();
        spaced.insert(at, ' ');
        let refused = rea_validate::validate_bytes(spaced.into_bytes()).unwrap_err();
        assert!(
            refused.to_string().contains("canonical"),
            "{what}: {refused}"
        );
    }
    // The record that passes keeps the section's items for its readers.
    let validated = rea_validate::validate_bytes(text.into_bytes()).unwrap();
    assert_eq!(
        validated.record()["normalized_result"]["semantic_graph"],
        record["normalized_result"]["semantic_graph"]
    );
}

#[test]
fn bad_queries_and_old_analyses_are_refused_with_typed_errors() {
    let (_dir, app) = fixture();
    let mut unknown_relation = query("function", "sync", "callers");
    unknown_relation.allowed_relations = Some(vec!["teleports".to_owned()]);
    let mut out_of_range = query("function", "sync", "callers");
    out_of_range.limits.set("page_size", 5_000);
    let mut bad_cursor = query("function", "sync", "callers");
    bad_cursor.cursor = Some("12:not-a-commitment".to_owned());
    for (what, q) in [
        ("unknown seed kind", query("regex", ".*", "callers")),
        ("unknown direction", query("function", "sync", "sideways")),
        ("empty seed", query("function", "", "callers")),
        ("unknown relation", unknown_relation),
        ("page size", out_of_range),
        ("cursor", bad_cursor),
    ] {
        let refused = trace(&app, q).unwrap_err();
        assert_eq!(refused.reason, FailureReason::InvalidInput, "{what}");
    }
    // An analysis without the section (as older versions made them) asks to reanalyze. The
    // record is re-sealed by a forger's recipe; validation passes, since the section is optional.
    let mut old = app["evidence"].clone();
    old["normalized_result"]
        .as_object_mut()
        .unwrap()
        .remove("semantic_graph");
    old["evidence_id"] = Value::from(forged_id(&old));
    let refused = trace(&old, query("function", "sync", "callers")).unwrap_err();
    assert_eq!(refused.reason, FailureReason::InvalidInput);
    assert_eq!(refused.details["reason"], "reanalyze", "{refused:?}");
}

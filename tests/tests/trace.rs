//! `trace_application_feature` on the reference's trace scenario (§5.1: a bridge API whose
//! member invokes a channel whose handler calls a native add-on's export), and the properties
//! every trace must keep: bounds that cut say so, nothing matched is `no-match`, the same bytes
//! at any thread count, and a record a forger edits is caught even with its ids recomputed.

use std::path::Path;

use rea_core::{Failure, FailureReason};
use rea_jobs::analyze::AnalyzeRequest;
use rea_jobs::inventory::InventoryRequest;
use rea_jobs::trace::{Limits, Seed, TraceRequest};
use rea_jobs::versions::Side;
use rea_jobs::{Engine, PageRequest};
use rea_tests::{analysis_envelope, control, forged_id};
use serde_json::{Value, json};

/// Writes each file below `root`, with its directories.
fn write_files(root: &Path, files: &[(&str, &[u8])]) {
    for (path, bytes) in files {
        let path = root.join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, bytes).unwrap();
    }
}

/// The app: `desktopApi.openProject` invokes `project:open`, whose handler calls
/// `openProject` on an add-on the main process required at the top; `project:close`'s
/// handler requires another add-on inline. Every file throws if executed.
fn app(root: &Path) {
    let files: [(&str, &[u8]); 6] = [
        (
            "package.json",
            br#"{"name":"trace-fixture","version":"1.0.0","main":"main.js"}"#,
        ),
        (
            "main.js",
            br#"throw new Error("executed");
const { app, BrowserWindow, ipcMain } = require("electron");
const path = require("path");
const native = require("./native/addon.node");
ipcMain.handle("project:open", (event, name) => native.openProject(name));
ipcMain.handle("project:close", () => require("./native/other.node").close());
ipcMain.handle("project:list", listProjects);
ipcMain.handle("project:save", saveProject);
ipcMain.handle("project:copy", copyProject);
function saveProject(event, name) { return native.saveProject(name); }
// Two functions of one name: which one is the handler is not known.
function copyProject() { return native.copyA(); }
if (process.env.X) { function copyProject() { return native.copyB(); } }
app.whenReady().then(() => {
  new BrowserWindow({ webPreferences: { preload: path.join(__dirname, "preload.js") } });
});
"#,
        ),
        (
            "preload.js",
            br#"throw new Error("executed");
const { contextBridge, ipcRenderer } = require("electron");
const { readConfig } = require("./native/addon.node");
contextBridge.exposeInMainWorld("configApi", { config: { read: readConfig } });
contextBridge.exposeInMainWorld("desktopApi", {
  openProject: (name) => ipcRenderer.invoke("project:open", name),
  closeProject: () => ipcRenderer.invoke("project:close"),
  listProjects: () => ipcRenderer.invoke("project:list"),
  saveProject: (name) => ipcRenderer.invoke("project:save", name),
  copyProject: () => ipcRenderer.invoke("project:copy"),
});
"#,
        ),
        ("renderer.js", b"window.desktopApi.openProject('a');"),
        ("native/addon.node", b"\x7fELF\x02\x01\x01\x00addon"),
        ("native/other.node", b"\x7fELF\x02\x01\x01\x00other"),
    ];
    write_files(root, &files);
}

fn analyze(root: &Path) -> Value {
    analysis_envelope(&AnalyzeRequest::new(root.to_path_buf()), 2)
}

/// `inventory_artifact` of one file: Evidence whose subject digest is the file's SHA-256.
fn inventory(path: &Path) -> Value {
    let request = InventoryRequest {
        input_path: path.to_path_buf(),
        limits: Default::default(),
        page: PageRequest::All,
        integrity: Default::default(),
    };
    let published =
        control(|ctl| Engine::new(1).unwrap().inventory_artifact(&request, ctl)).unwrap();
    serde_json::from_slice(&published.envelope_bytes()).unwrap()
}

fn seed(kind: &str, value: &str) -> Seed {
    Seed {
        kind: kind.to_owned(),
        value: value.to_owned(),
        matching: None,
        case_sensitive: false,
    }
}

fn trace_with(
    application: &Value,
    native: &[Value],
    seed: Seed,
    direction: &str,
    limits: Limits,
    threads: usize,
) -> Result<Value, Failure> {
    let request = TraceRequest {
        application: Side::Value(application.clone()),
        native_observations: native.iter().cloned().map(Side::Value).collect(),
        seed,
        direction: direction.to_owned(),
        limits,
    };
    let published = control(|ctl| {
        Engine::new(threads)
            .unwrap()
            .trace_application_feature(request, ctl)
    })?;
    Ok(serde_json::from_slice(&published.envelope_bytes()).unwrap())
}

/// The result of a trace with no native records, on 2 threads.
fn traced(application: &Value, seed: Seed, direction: &str, limits: Limits) -> Value {
    trace_with(application, &[], seed, direction, limits, 2).unwrap()["result"].clone()
}

fn fixture() -> (tempfile::TempDir, Value) {
    let dir = tempfile::tempdir().unwrap();
    app(dir.path());
    let analysis = analyze(dir.path());
    (dir, analysis)
}

/// The subgraph's node with this id.
fn node<'a>(result: &'a Value, id: &Value) -> &'a Value {
    result["graph"]["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|n| n["node_id"] == *id)
        .unwrap()
}

/// (kind, label) of the last node of each path of an outgoing trace from `channel`.
fn channel_ends(analysis: &Value, channel: &str) -> Vec<(String, String)> {
    let r = traced(
        analysis,
        seed("channel", channel),
        "outgoing",
        Limits::default(),
    );
    r["paths"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            let end = node(&r, &p["end_node_id"]);
            (
                end["kind"].as_str().unwrap().to_owned(),
                label(end).to_owned(),
            )
        })
        .collect()
}

fn label(node: &Value) -> &str {
    node["observations"][0]["label"]
        .as_str()
        .unwrap_or_default()
}

#[test]
fn a_bridge_api_traced_outgoing_reaches_the_native_export_its_handler_calls() {
    let (dir, analysis) = fixture();
    let addon = inventory(&dir.path().join("native/addon.node"));
    let out = trace_with(
        &analysis,
        std::slice::from_ref(&addon),
        seed("api", "desktopApi"),
        "outgoing",
        Limits::default(),
        2,
    )
    .unwrap();
    let r = &out["result"];
    assert_eq!(r["summary"]["matched_seeds"], 1);
    assert_eq!(r["seed_matches"][0]["kind"], "context-bridge-api");
    assert_eq!(r["coverage"]["status"], "complete-within-source");
    // Both shipped add-ons are handed off; the one a supplied record covers is linked to it.
    let handoffs = r["native_handoffs"].as_array().unwrap();
    assert_eq!(handoffs.len(), 2, "{handoffs:#?}");
    let linked: Vec<&Value> = handoffs
        .iter()
        .filter(|h| h["status"] == "evidence-linked")
        .collect();
    assert_eq!(linked.len(), 1);
    assert_eq!(linked[0]["artifact_path"], "native/addon.node");
    assert_eq!(linked[0]["evidence_ids"], json!([addon["evidence_id"]]));
    assert!(
        linked[0]["requested_exports"]
            .as_array()
            .unwrap()
            .contains(&json!("openProject"))
    );
    assert_eq!(linked[0]["recommended_tools"], json!([]));
    let other = handoffs
        .iter()
        .find(|h| h["status"] == "requires-provider-analysis")
        .unwrap();
    assert_eq!(other["artifact_path"], "native/other.node");
    assert_eq!(other["requested_exports"], json!(["close"]));
    assert_eq!(other["recommended_tools"].as_array().unwrap().len(), 5);
    // The supplied record is linked from the trace's Evidence, beside the application's.
    let links = out["evidence"]["evidence_links"].as_array().unwrap();
    assert!(links.contains(&addon["evidence_id"]) && links.contains(&analysis["evidence_id"]));
    // A path runs bridge → channel → handler → export, each step an inferred relation.
    let paths = r["paths"].as_array().unwrap();
    let to_export = paths
        .iter()
        .find(|p| {
            p["end_kind"] == "native-export" && label(node(r, &p["end_node_id"])) == "openProject"
        })
        .expect("a path to the openProject export");
    let kinds: Vec<&str> = to_export["node_ids"]
        .as_array()
        .unwrap()
        .iter()
        .map(|id| node(r, id)["kind"].as_str().unwrap())
        .collect();
    assert_eq!(
        kinds,
        [
            "context-bridge-api",
            "ipc-channel",
            "ipc-handler",
            "native-export"
        ]
    );
    assert_eq!(to_export["contains_inference"], true);
    assert!(
        to_export["authorities"]
            .as_array()
            .unwrap()
            .contains(&json!("static-relationship-inference"))
    );
    // Paths end at the boundary first.
    assert_eq!(paths[0]["end_kind"], "native-export");
    // A handler passed by name leads no further than its registration.
    let list = paths
        .iter()
        .find(|p| label(node(r, &p["end_node_id"])) == "project:list")
        .expect("a path to project:list");
    assert_eq!(node(r, &list["end_node_id"])["kind"], "ipc-handler");
    // A handler passed by the name of the one function the file declares under it leads to
    // what that function does; a name two functions share leads nowhere.
    let ends: Vec<(&str, &str)> = paths
        .iter()
        .map(|p| {
            let end = node(r, &p["end_node_id"]);
            (end["kind"].as_str().unwrap(), label(end))
        })
        .collect();
    assert!(ends.contains(&("native-export", "saveProject")), "{ends:?}");
    assert!(ends.contains(&("ipc-handler", "project:copy")), "{ends:?}");
    let copy = paths
        .iter()
        .map(|p| node(r, &p["end_node_id"]))
        .find(|n| label(n) == "project:copy")
        .unwrap();
    let calls_from_copy = r["graph"]["edges"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["source_node_id"] == copy["node_id"] && e["relation"] == "calls")
        .count();
    assert_eq!(calls_from_copy, 0);
}

/// `both` is what the seed leads to and what leads to it: exactly the nodes and edges of the
/// outgoing and the incoming traces together. It never walks up a `contains` edge to the
/// artifact root and down again to everything the root holds (the other add-on, which only
/// another channel's handler requires).
#[test]
fn both_ways_is_the_outgoing_and_the_incoming_trace_together() {
    let (_dir, analysis) = fixture();
    let ids = |r: &Value, key: &str, id: &str| -> std::collections::BTreeSet<String> {
        r["graph"][key]
            .as_array()
            .unwrap()
            .iter()
            .map(|n| n[id].as_str().unwrap().to_owned())
            .collect()
    };
    let run = |direction: &str| {
        traced(
            &analysis,
            seed("channel", "project:open"),
            direction,
            Limits::default(),
        )
    };
    let (out, inc, both) = (run("outgoing"), run("incoming"), run("both"));
    let union = |key: &str, id: &str| -> std::collections::BTreeSet<String> {
        ids(&out, key, id)
            .union(&ids(&inc, key, id))
            .cloned()
            .collect()
    };
    assert_eq!(ids(&both, "nodes", "node_id"), union("nodes", "node_id"));
    assert_eq!(ids(&both, "edges", "edge_id"), union("edges", "edge_id"));
    let labels: Vec<&str> = both["graph"]["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .map(label)
        .collect();
    // Upstream, the preload that invokes the channel; downstream, the export its handler calls.
    assert!(labels.contains(&"preload.js"), "{labels:?}");
    assert!(labels.contains(&"openProject"), "{labels:?}");
    assert!(
        !labels.iter().any(|l| l.contains("other.node")),
        "{labels:?}"
    );
    assert_eq!(both["coverage"]["status"], "complete-within-source");
}

#[test]
fn a_bridge_member_that_is_an_add_on_export_leads_to_it() {
    let (_dir, analysis) = fixture();
    let out = trace_with(
        &analysis,
        &[],
        seed("api", "configApi.config.read"),
        "outgoing",
        Limits::default(),
        2,
    )
    .unwrap();
    let r = &out["result"];
    assert_eq!(r["summary"]["matched_seeds"], 1);
    let direct = r["paths"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| label(node(r, &p["end_node_id"])) == "readConfig")
        .expect("a path to readConfig");
    assert_eq!(direct["node_ids"].as_array().unwrap().len(), 2, "{direct}");
    assert_eq!(
        r["native_handoffs"][0]["artifact_path"],
        "native/addon.node"
    );
}

/// The files of an app whose handlers call into a module of their own that loads the add-on:
/// written as modules, and as a webpack 5 bundle's runtime table of the same modules.
fn service_app(root: &Path, bundled: bool) {
    let main: &[u8] = if bundled {
        br#"(() => { var __webpack_modules__ = {
  12: (module) => { module.exports = require("electron"); },
  34: (module, exports, __webpack_require__) => { const addon = __webpack_require__(56); exports.open = (n) => addon.openProject(n); },
  56: (module) => { module.exports = require("./native/addon.node"); },
  78: (module, exports, __webpack_require__) => { const { ipcMain } = __webpack_require__(12); const projects = __webpack_require__(34); ipcMain.handle("service:open", (e, n) => projects.open(n)); },
};
var __webpack_module_cache__ = {};
function __webpack_require__(id) { var c = __webpack_module_cache__[id]; if (c !== undefined) return c.exports; var m = __webpack_module_cache__[id] = { exports: {} }; __webpack_modules__[id](m, m.exports, __webpack_require__); return m.exports; }
__webpack_require__(78);
})();
"#
    } else {
        br#"const { ipcMain } = require("electron");
const projects = require("./projects");
ipcMain.handle("service:open", (e, n) => projects.open(n));
"#
    };
    let files: [(&str, &[u8]); 4] = [
        (
            "package.json",
            br#"{"name":"service-fixture","version":"1.0.0","main":"main.js"}"#,
        ),
        ("main.js", main),
        (
            "projects.js",
            br#"const addon = require("./native/addon.node");
exports.open = (name) => addon.openProject(name);
"#,
        ),
        ("native/addon.node", b"\x7fELF\x02\x01\x01\x00addon"),
    ];
    write_files(root, &files);
}

#[test]
fn a_handler_that_calls_into_another_module_leads_to_what_that_module_loads() {
    for bundled in [false, true] {
        let dir = tempfile::tempdir().unwrap();
        service_app(dir.path(), bundled);
        let analysis = analyze(dir.path());
        let r = traced(
            &analysis,
            seed("channel", "service:open"),
            "outgoing",
            Limits::default(),
        );
        let handoffs = r["native_handoffs"].as_array().unwrap();
        assert_eq!(handoffs.len(), 1, "bundled {bundled}: {r:#}");
        assert_eq!(handoffs[0]["artifact_path"], "native/addon.node");
        // The handler's own step is a call into the module that holds `open`.
        let step = r["graph"]["edges"]
            .as_array()
            .unwrap()
            .iter()
            .find(|e| e["evidence"]["operation"] == "map-ipc-handler-scope")
            .expect("the handler calls into a module");
        let callee = node(&r, &step["target_node_id"]);
        let kind = if bundled {
            "javascript-module"
        } else {
            "javascript-asset"
        };
        assert_eq!(callee["kind"], kind, "bundled {bundled}");
    }
}

#[test]
fn a_handler_leads_through_the_functions_it_calls_by_name() {
    let dir = tempfile::tempdir().unwrap();
    let files: [(&str, &[u8]); 3] = [
        (
            "package.json",
            br#"{"name":"calls","version":"1.0.0","main":"main.js"}"#,
        ),
        (
            "main.js",
            br#"const { ipcMain, shell } = require("electron");
const native = require("./native/addon.node");
function openFile(name) { return helper(name); }
function helper(name) { native.openProject(name); shell.openExternal(name); }
function twice() { return 1; }
function twice() { return native.never(); }
ipcMain.handle("file:open", () => openFile("a"));
ipcMain.handle("file:other", () => helper("b"));
ipcMain.handle("file:twice", () => twice());
"#,
        ),
        ("native/addon.node", b"\x7fELF\x02\x01\x01\x00addon"),
    ];
    write_files(dir.path(), &files);
    let analysis = analyze(dir.path());
    let ends = |channel: &str| channel_ends(&analysis, channel);
    // Through two functions, and through the one both handlers call.
    for channel in ["file:open", "file:other"] {
        let ends = ends(channel);
        for expected in [
            ("native-export", "openProject"),
            ("target", "electron.shell.openExternal"),
        ] {
            assert!(
                ends.contains(&(expected.0.to_owned(), expected.1.to_owned())),
                "{channel}: {expected:?} not in {ends:?}"
            );
        }
    }
    // A name two functions share leads nowhere.
    let twice = ends("file:twice");
    assert!(
        !twice.iter().any(|(k, _)| k.starts_with("native")),
        "{twice:?}"
    );
}

#[test]
fn a_handler_that_is_a_method_leads_to_what_the_method_does() {
    let dir = tempfile::tempdir().unwrap();
    let main: &[u8] = br#"const { ipcMain, shell } = require("electron");
const native = require("./native/addon.node");
class Controller {
  register() {
    ipcMain.handle("c:open", this.open.bind(this));
    ipcMain.handle("c:close", this.close);
    ipcMain.handle("c:link", (e, url) => this.link(url));
  }
  open(e, name) { if (e.senderFrame.url !== "app://index.html") return; return native.openProject(name); }
  close = () => native.closeProject();
  link(url) { shell.openExternal(url); }
}
new Controller().register();
"#;
    let files: [(&str, &[u8]); 3] = [
        (
            "package.json",
            br#"{"name":"methods","version":"1.0.0","main":"main.js"}"#,
        ),
        ("main.js", main),
        ("native/addon.node", b"\x7fELF\x02\x01\x01\x00addon"),
    ];
    write_files(dir.path(), &files);
    let analysis = analyze(dir.path());
    for (channel, kind, end) in [
        ("c:open", "native-export", "openProject"),
        ("c:close", "native-export", "closeProject"),
        ("c:link", "target", "electron.shell.openExternal"),
    ] {
        let r = traced(
            &analysis,
            seed("channel", channel),
            "outgoing",
            Limits::default(),
        );
        let ends: Vec<(&str, &str)> = r["paths"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| {
                let n = node(&r, &p["end_node_id"]);
                (n["kind"].as_str().unwrap(), label(n))
            })
            .collect();
        assert!(ends.contains(&(kind, end)), "{channel}: {ends:?}");
        // A sender check in the method is the handler's, as one written inline is.
        let checked = r["graph"]["nodes"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|n| n["kind"] == "ipc-handler")
            .any(|n| {
                n["observations"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .any(|o| o["properties"]["fact_kind"] == "sender-validation-candidate")
            });
        assert_eq!(checked, channel == "c:open", "{channel}");
    }
}

/// Handlers kept as members of an object literal (`const handlers = { open() {…} }`) and
/// registered as `handlers.open` (or `handlers.save.bind(handlers)`) lead to what those
/// functions do, and a member call of one (`handlers.save(x)`) to what it does.
#[test]
fn a_handler_that_is_an_objects_member_leads_to_what_it_does() {
    let dir = tempfile::tempdir().unwrap();
    let main: &[u8] = br#"const { ipcMain, shell } = require("electron");
const native = require("./native/addon.node");
const handlers = {
  open(e, name) { return native.openProject(name); },
  save: async (e, name) => native.saveProject(name),
  link: function (e, url) { shell.openExternal(url); },
};
ipcMain.handle("h:open", handlers.open);
ipcMain.handle("h:save", handlers.save.bind(handlers));
ipcMain.handle("h:both", (e, n) => handlers.save(e, n));
ipcMain.on("h:link", handlers.link);
ipcMain.handle("h:unknown", other.open);
"#;
    let files: [(&str, &[u8]); 3] = [
        (
            "package.json",
            br#"{"name":"members","version":"1.0.0","main":"main.js"}"#,
        ),
        ("main.js", main),
        ("native/addon.node", b"\x7fELF\x02\x01\x01\x00addon"),
    ];
    write_files(dir.path(), &files);
    let analysis = analyze(dir.path());
    let ends = |channel: &str| channel_ends(&analysis, channel);
    for (channel, kind, end) in [
        ("h:open", "native-export", "openProject"),
        ("h:save", "native-export", "saveProject"),
        ("h:both", "native-export", "saveProject"),
        ("h:link", "target", "electron.shell.openExternal"),
    ] {
        let ends = ends(channel);
        assert!(
            ends.contains(&(kind.to_owned(), end.to_owned())),
            "{channel}: {ends:?}"
        );
    }
    // A member of an object the file does not declare leads nowhere.
    assert!(
        !ends("h:unknown")
            .iter()
            .any(|(k, _)| k.starts_with("native")),
        "h:unknown"
    );
}

#[test]
fn a_native_export_traced_incoming_leads_back_to_the_bridge() {
    let (_dir, analysis) = fixture();
    let out = trace_with(
        &analysis,
        &[],
        seed("native-export", "openProject"),
        "incoming",
        Limits::default(),
        2,
    )
    .unwrap();
    let r = &out["result"];
    let reached: Vec<(&str, &str)> = r["graph"]["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| (n["kind"].as_str().unwrap(), label(n)))
        .collect();
    for expected in [
        ("ipc-handler", "project:open"),
        ("ipc-channel", "project:open"),
        ("context-bridge-api", "desktopApi"),
        // The page whose code calls the member.
        ("javascript-asset", "renderer.js"),
    ] {
        assert!(
            reached.contains(&expected),
            "{expected:?} not in {reached:?}"
        );
    }
    // Against the flow, nothing downstream of the seed is reached.
    assert!(
        !reached.contains(&("ipc-channel", "project:close")),
        "{reached:?}"
    );
}

#[test]
fn bounds_that_cut_say_so_and_a_seed_that_matches_nothing_is_no_match() {
    let (_dir, analysis) = fixture();
    let shallow = Limits {
        max_depth: 1,
        ..Limits::default()
    };
    let r = traced(&analysis, seed("api", "desktopApi"), "outgoing", shallow);
    assert_eq!(r["coverage"]["status"], "truncated");
    assert!(r["coverage"]["omitted_nodes"].as_u64().unwrap() > 0);
    assert!(
        !r["coverage"]["frontier_node_ids"]
            .as_array()
            .unwrap()
            .is_empty()
    );
    assert_eq!(r["native_handoffs"], json!([]));
    assert_eq!(r["graph"]["coverage"]["truncated"], true);

    let r = traced(
        &analysis,
        seed("route", "/missing"),
        "both",
        Limits::default(),
    );
    assert_eq!(r["graph"], Value::Null);
    assert_eq!(r["coverage"]["status"], "no-match");
    assert_eq!(r["summary"]["matched_seeds"], 0);

    // One path listed, all counted.
    let one = Limits {
        max_paths: 1,
        ..Limits::default()
    };
    let r = traced(&analysis, seed("api", "desktopApi"), "outgoing", one);
    assert_eq!(r["paths"].as_array().unwrap().len(), 1);
    let total = r["summary"]["terminal_paths"].as_u64().unwrap();
    assert!(total > 1);
    assert_eq!(r["coverage"]["omitted_paths"], total - 1);
    assert_eq!(r["coverage"]["status"], "truncated");
}

#[test]
fn the_trace_is_the_same_bytes_at_any_thread_count() {
    let (_dir, analysis) = fixture();
    let run = |threads| {
        trace_with(
            &analysis,
            &[],
            seed("string", "project"),
            "both",
            Limits::default(),
            threads,
        )
        .unwrap()
    };
    let (one, two) = (run(1), run(2));
    assert_eq!(one["evidence_id"], two["evidence_id"]);
    assert_eq!(
        rea_hash::canonical_bytes(&one).unwrap(),
        rea_hash::canonical_bytes(&two).unwrap()
    );
    // A string seed matches by substring: the three channels and their handlers at least.
    assert!(one["result"]["summary"]["matched_seeds"].as_u64().unwrap() >= 6);
}

#[test]
fn bad_requests_and_inputs_that_are_not_application_evidence_are_refused() {
    let (dir, analysis) = fixture();
    let addon = inventory(&dir.path().join("native/addon.node"));
    // Tampered application Evidence fails its validation, and so does a tampered native record.
    let mut tampered = analysis.clone();
    tampered["evidence"]["normalized_result"]["graph"]["edges"][0]["relation"] = "calls".into();
    let mut forged = addon.clone();
    forged["evidence"]["subject"]["digest"]["sha256"] = "0".repeat(64).into();
    let deep = Limits {
        max_depth: 65,
        ..Limits::default()
    };
    let x = || seed("api", "x");
    use FailureReason::{Integrity, InvalidInput};
    type Case<'a> = (
        &'a str,
        &'a Value,
        Vec<Value>,
        Seed,
        &'a str,
        Limits,
        FailureReason,
    );
    let cases: [Case; 8] = [
        (
            "an unknown seed kind",
            &analysis,
            vec![],
            seed("regex", "x"),
            "outgoing",
            Limits::default(),
            InvalidInput,
        ),
        (
            "an empty seed",
            &analysis,
            vec![],
            seed("api", ""),
            "outgoing",
            Limits::default(),
            InvalidInput,
        ),
        (
            "an unknown direction",
            &analysis,
            vec![],
            x(),
            "sideways",
            Limits::default(),
            InvalidInput,
        ),
        (
            "a limit out of range",
            &analysis,
            vec![],
            x(),
            "outgoing",
            deep,
            InvalidInput,
        ),
        // An inventory is Evidence, but not of an application.
        (
            "an inventory",
            &addon,
            vec![],
            x(),
            "outgoing",
            Limits::default(),
            InvalidInput,
        ),
        (
            "a tampered application",
            &tampered,
            vec![],
            x(),
            "outgoing",
            Limits::default(),
            Integrity,
        ),
        (
            "a tampered native record",
            &analysis,
            vec![forged],
            x(),
            "outgoing",
            Limits::default(),
            Integrity,
        ),
        (
            "a native record twice",
            &analysis,
            vec![addon.clone(), addon.clone()],
            x(),
            "outgoing",
            Limits::default(),
            InvalidInput,
        ),
    ];
    for (what, application, native, seed, direction, limits, reason) in cases {
        let err = trace_with(application, &native, seed, direction, limits, 1).unwrap_err();
        assert_eq!(err.reason, reason, "{what}: {}", err.message);
        if what == "a limit out of range" {
            assert!(err.message.contains("max_depth"), "{}", err.message);
        }
    }
}

#[test]
fn a_forger_who_recomputes_every_id_is_still_caught_by_the_trace_checks() {
    let (_dir, analysis) = fixture();
    let record = trace_with(
        &analysis,
        &[],
        seed("api", "desktopApi"),
        "outgoing",
        Limits::default(),
        2,
    )
    .unwrap()["evidence"]
        .clone();
    assert!(rea_validate::validate_bytes(rea_hash::canonical_bytes(&record).unwrap()).is_ok());
    let forge = |edit: &dyn Fn(&mut Value), recompute_trace_id: bool| {
        let mut record = record.clone();
        edit(&mut record["normalized_result"]);
        if recompute_trace_id {
            let id = rea_graph::trace::trace_id(&record["normalized_result"]).unwrap();
            record["normalized_result"]["trace_id"] = id.into();
        }
        record["evidence_id"] = Value::from(forged_id(&record));
        rea_validate::validate_bytes(rea_hash::canonical_bytes(&record).unwrap()).unwrap_err()
    };
    // Everything in the result is committed to by the trace id.
    let err = forge(&|r| r["summary"]["traced_nodes"] = 1.into(), false);
    assert_eq!(err.at, "/trace_id", "{err}");
    // A path's nodes by its path id.
    let err = forge(&|r| r["paths"][0]["end_kind"] = "worker".into(), true);
    assert!(err.at.starts_with("/paths/0"), "{err}");
    // A path must walk the subgraph's edges.
    let err = forge(
        &|r| {
            let path = &mut r["paths"][0];
            let edges = path["edge_ids"].as_array().unwrap().clone();
            path["edge_ids"] = json!(edges.into_iter().rev().collect::<Vec<_>>());
            let ids = |k: &str| -> Vec<String> {
                path[k]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|v| v.as_str().unwrap().to_owned())
                    .collect()
            };
            let (nodes, edges) = (ids("node_ids"), ids("edge_ids"));
            let nodes: Vec<&str> = nodes.iter().map(String::as_str).collect();
            let edges: Vec<&str> = edges.iter().map(String::as_str).collect();
            path["path_id"] =
                rea_graph::trace::path_id(nodes[0], nodes[nodes.len() - 1], &nodes, &edges)
                    .unwrap()
                    .into();
        },
        true,
    );
    assert!(err.at.starts_with("/paths/0"), "{err}");
    // The subgraph's items keep their own ids.
    let err = forge(&|r| r["graph"]["nodes"][0]["kind"] = "worker".into(), true);
    assert!(err.at.starts_with("/graph"), "{err}");
    // A handoff is linked only to supplied evidence.
    let err = forge(
        &|r| r["native_handoffs"][0]["status"] = "evidence-linked".into(),
        true,
    );
    assert!(err.at.starts_with("/native_handoffs/0"), "{err}");
    // The records a trace rests on are the record's links.
    let err = forge(
        &|r| r["evidence_links"] = json!([format!("ev_{}", "0".repeat(64))]),
        true,
    );
    assert_eq!(err.at, "/evidence_links", "{err}");
    // Counts must agree with what is listed.
    let err = forge(&|r| r["summary"]["traced_edges"] = 0.into(), true);
    assert_eq!(err.at, "/summary", "{err}");
}

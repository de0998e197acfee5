//! `analyze_javascript_application` on the reference's fixtures (ported from its checklists):
//! the multi-feature app, the Electron boundary app, the same packed as an ASAR with an
//! unpacked add-on (present and deleted), nested in a directory, determinism across thread
//! counts, cancellation at every check point, and bad input that must never fail a run.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use rea_core::{CancelToken, Failure, FailureReason, ProgressReporter};
use rea_jobs::analyze::{AnalyzeRequest, Format, SourceMaps};
use rea_jobs::{Engine, JobControl};
use rea_tests::asar_writer::{integrity, pack};
use serde_json::{Value, json};

/// Files of the reference's JavaScript artifact fixture. The bundles throw if executed.
fn artifact_app() -> Vec<(&'static str, Vec<u8>)> {
    let directive = ["//# source", "MappingURL=renderer.js.map"].concat();
    vec![
        ("package.json", br#"{"name":"rea-javascript-fixture","version":"1.0.0","main":"main.js","renderer":"./renderer/index.html"}"#.to_vec()),
        ("main.js", br#"import { BrowserWindow } from "electron";
import path from "node:path";
const window = new BrowserWindow({ webPreferences: { preload: path.join(__dirname, "preload.js") } });
window.loadFile("./renderer/index.html");
require("./native/addon.node");
"#.to_vec()),
        ("preload.js", br#"const { contextBridge, ipcRenderer } = require("electron");
contextBridge.exposeInMainWorld("fixture", { lookup: (id) => ipcRenderer.invoke("fixture:lookup", id) });
"#.to_vec()),
        ("renderer/index.html", br#"<!doctype html><script type="module" src="./renderer.js"></script>"#.to_vec()),
        ("renderer/renderer.js", format!(r#"import "./chunks/webpack.js";
import "./chunks/rspack.js";
const routes = [{{ path: "/items/:id" }}];
fetch("https://api.example.test/items?token=fixture-secret");
localStorage.setItem("theme", "dark");
indexedDB.open("fixture-db");
new Worker("./worker.js");
navigator.serviceWorker.register("./sw.js");
{directive}
"#).into_bytes()),
        ("renderer/worker.js", b"onmessage = (e) => postMessage(e.data);\n".to_vec()),
        ("renderer/sw.js", b"caches.open(\"fixture-cache\");\n".to_vec()),
        ("renderer/chunks/webpack.js", br#"globalThis.__rea_bundle_executed = true; throw new Error("bundle executed");
(globalThis.webpackChunkfixture = globalThis.webpackChunkfixture || []).push([[101], {
  1: (module, exports, r) => { const dependency = r(2); exports.lookup = () => dependency; },
  2: (module) => { module.exports = { value: 42 }; }
}]);
"#.to_vec()),
        ("renderer/chunks/rspack.js", br#"throw new Error("bundle executed");
(self.rspackChunkfixture = self.rspackChunkfixture || []).push([["editor"], {
  "src/editor.ts": (module, exports, r) => { exports.render = () => r("src/model.ts"); },
  "src/model.ts": (module) => { module.exports = "model"; }
}]);
"#.to_vec()),
        ("renderer/renderer.js.map", br#"{"version":3,"sourceRoot":"webpack://fixture/","sources":["src/renderer.ts"],"sourcesContent":["export const a = 1;"],"names":[],"mappings":"AAAA"}"#.to_vec()),
        ("native/addon.node", b"\x7fELF\x02\x01\x01\x00".to_vec()),
    ]
}

/// Files of the reference's Electron boundary fixture.
fn electron_app() -> Vec<(&'static str, Vec<u8>)> {
    vec![
        ("package.json", br#"{"name":"rea-electron-fixture","main":"main.js","renderer":"renderer/index.html"}"#.to_vec()),
        ("main.js", br#"globalThis.__rea_electron_fixture_executed = true; throw new Error("executed");
const path = require("node:path");
const { BrowserWindow, ipcMain, utilityProcess } = require("electron");
const { read, write: nativeWrite } = require("./native/addon.node");
new BrowserWindow({ width: 900, webPreferences: { preload: path.join(__dirname, "preload.js"), nodeIntegration: true, contextIsolation: false, sandbox: false, webSecurity: false } });
new BrowserWindow({ webPreferences: { nodeIntegration: false, contextIsolation: true, sandbox: true } });
new BrowserWindow(windowOptions);
ipcMain.handle("rea:read", (event, key) => { if (!event.senderFrame.url.startsWith("file://")) throw new Error("denied"); return read(key); });
ipcMain.on("rea:write", (event, value) => { if (event.sender.getURL() !== "file://fixture/index.html") return; nativeWrite(value); });
ipcMain.handle("rea:ambiguous", () => 1);
ipcMain.handle("rea:ambiguous", () => 2);
ipcMain.handle(dynamicChannel, dynamicHandler);
utilityProcess.fork("./utility/worker.js", [], { serviceName: "fixture-db" });
module.exports.nativeRead = require("./native/addon.node").read;
"#.to_vec()),
        ("preload.js", br#"throw new Error("executed");
const { contextBridge, ipcRenderer } = require("electron");
const { read, write } = require("./native/addon.node");
contextBridge.exposeInMainWorld("reaApi", { read: (k) => ipcRenderer.invoke("rea:read", k), nested: { write: (v) => ipcRenderer.send("rea:write", v) }, nativeRead: read, nativeWrite: write });
contextBridge.exposeInMainWorld(dynamicApiKey, dynamicApi);
ipcRenderer.on("rea:event", () => {});
ipcRenderer.invoke("rea:ambiguous");
ipcRenderer.invoke("rea:missing");
ipcRenderer.invoke(dynamicChannel);
"#.to_vec()),
        ("renderer/renderer.js", br#"throw new Error("executed");
const { ipcRenderer } = require("electron");
ipcRenderer.invoke("rea:read", "renderer-key");
ipcRenderer.send("rea:write", "renderer-value");
ipcRenderer.on("rea:event", () => {});
"#.to_vec()),
        ("renderer/index.html", b"<script src='./renderer.js'></script>".to_vec()),
        ("utility/worker.js", b"const addon = require(\"../native/addon.node\");\nmodule.exports = addon;\n".to_vec()),
        ("native/addon.node", b"\x7fELF".to_vec()),
    ]
}

fn write_tree(root: &Path, files: &[(&str, Vec<u8>)]) {
    for (path, bytes) in files {
        let full = root.join(path);
        std::fs::create_dir_all(full.parent().unwrap()).unwrap();
        std::fs::write(full, bytes).unwrap();
    }
}

/// The properties of the edges that pair a transmission with its handler.
fn pairings(result: &Value) -> impl Iterator<Item = &Value> {
    result["graph"]["edges"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| &e["properties"])
        .filter(|p| !p["pairing_basis"].is_null())
}

/// The pairing edges' properties `keys`, as tuples (a missing one is `""`).
fn paired_by<'a>(result: &'a Value, [a, b, c]: [&str; 3]) -> BTreeSet<(&'a str, &'a str, &'a str)> {
    let text = |p: &'a Value, k: &str| p[k].as_str().unwrap_or("");
    pairings(result)
        .map(|p| (text(p, a), text(p, b), text(p, c)))
        .collect()
}

/// Each pairing as (channel, handler operation, handler path).
fn exact_pairs(result: &Value) -> BTreeSet<(&str, &str, &str)> {
    paired_by(result, ["channel", "handler_operation", "handler_path"])
}

/// How many IPC operations have a channel not known.
fn dynamic_ops(result: &Value) -> &Value {
    &result["summary"]["ipc"]["dynamic_channel_operations"]
}

/// The graph's edges from a renderer's sends and invokes.
fn transmissions(result: &Value) -> impl Iterator<Item = &Value> {
    result["graph"]["edges"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|e| e["relation"] == "invokes" || e["relation"] == "sends")
}

/// The channels of the graph's `ipc-channel` nodes.
fn channel_names(result: &Value) -> BTreeSet<&str> {
    nodes(result, "ipc-channel")
        .into_iter()
        .filter_map(|n| props(n)["channel"].as_str())
        .collect()
}

/// A property of each bridge API node whose key is known, by its key.
fn bridges_by_key<'a>(result: &'a Value, property: &str) -> BTreeMap<&'a str, &'a Value> {
    nodes(result, "context-bridge-api")
        .into_iter()
        .filter_map(|b| {
            let p = props(b);
            Some((p["api_key"].as_str()?, &p[property]))
        })
        .collect()
}

/// Every pairing edge of `basis` is a low-confidence candidate.
fn assert_low_confidence(result: &Value, basis: &str) {
    let edges = result["graph"]["edges"].as_array().unwrap();
    let of_basis: Vec<&Value> = edges
        .iter()
        .filter(|e| e["properties"]["pairing_basis"] == basis)
        .collect();
    assert!(!of_basis.is_empty(), "no {basis} pairing");
    for edge in of_basis {
        assert_eq!(edge["evidence"]["confidence"], "low", "{edge}");
    }
}

/// The channels the graph's edges name.
fn edge_channels(result: &Value) -> BTreeSet<&str> {
    result["graph"]["edges"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|e| e["properties"]["channel"].as_str())
        .collect()
}

/// A temporary application directory: a `package.json` whose `main` is `main.js`, and
/// `files`.
fn app_tree(files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let mut all = vec![(
        "package.json",
        br#"{"name":"app","main":"main.js"}"#.to_vec(),
    )];
    all.extend(
        files
            .iter()
            .map(|(path, text)| (*path, text.as_bytes().to_vec())),
    );
    write_tree(dir.path(), &all);
    dir
}

/// Packs `files` as an ASAR the way `@electron/asar` lays it out; paths ending `.node` are
/// unpacked into `<archive>.unpacked/`.
fn write_asar(archive: &Path, files: &[(&str, Vec<u8>)]) {
    let mut header = json!({"files": {}});
    let mut data = Vec::new();
    for (path, bytes) in files {
        let parts: Vec<&str> = path.split('/').collect();
        let mut node = &mut header;
        for dir in &parts[..parts.len() - 1] {
            node = node["files"]
                .as_object_mut()
                .unwrap()
                .entry(*dir)
                .or_insert(json!({"files": {}}));
        }
        let entry = if path.ends_with(".node") {
            let full = archive.with_extension("asar.unpacked").join(path);
            std::fs::create_dir_all(full.parent().unwrap()).unwrap();
            std::fs::write(full, bytes).unwrap();
            json!({"size": bytes.len(), "unpacked": true, "integrity": integrity(bytes)})
        } else {
            let entry = json!({"size": bytes.len(), "offset": data.len().to_string(), "integrity": integrity(bytes)});
            data.extend_from_slice(bytes);
            entry
        };
        node["files"][parts[parts.len() - 1]] = entry;
    }
    std::fs::write(archive, pack(&header, &data)).unwrap();
}

fn analyze_with(
    engine: &Engine,
    path: &Path,
    maps: SourceMaps,
    cancel: &CancelToken,
) -> Result<(Value, String, Vec<u8>), Failure> {
    let progress = ProgressReporter::silent();
    let ctl = JobControl {
        cancel,
        progress: &progress,
        timeout: None,
    };
    let mut request = AnalyzeRequest::new(path.to_path_buf());
    request.source_maps = maps;
    let published = engine.analyze_javascript_application(&request, &ctl)?;
    let envelope: Value = serde_json::from_slice(&published.envelope_bytes()).unwrap();
    Ok((
        envelope["result"].clone(),
        published.evidence_id().to_owned(),
        published.envelope_bytes(),
    ))
}

fn analyze(path: &Path, maps: SourceMaps) -> Value {
    analyze_with(&Engine::new(2).unwrap(), path, maps, &CancelToken::new())
        .unwrap()
        .0
}

fn nodes<'a>(result: &'a Value, kind: &str) -> Vec<&'a Value> {
    result["graph"]["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|n| n["kind"] == kind)
        .collect()
}

fn props(node: &Value) -> &Value {
    &node["observations"][0]["properties"]
}

fn kinds(result: &Value) -> std::collections::BTreeSet<String> {
    result["graph"]["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n["kind"].as_str().unwrap().to_owned())
        .collect()
}

fn relations(result: &Value) -> std::collections::BTreeSet<String> {
    result["graph"]["edges"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["relation"].as_str().unwrap().to_owned())
        .collect()
}

#[test]
fn the_artifact_fixture_is_reconstructed_without_running_anything() {
    let dir = tempfile::tempdir().unwrap();
    write_tree(dir.path(), &artifact_app());
    let result = analyze(dir.path(), SourceMaps::Contents);
    let stats = &result["statistics"];
    assert_eq!(
        result["input_path"],
        dir.path().canonicalize().unwrap().to_str().unwrap()
    );
    assert_eq!(
        (
            stats["modules"].as_u64(),
            stats["parse_failures"].as_u64(),
            stats["omitted_text_files"].as_u64()
        ),
        (Some(4), Some(0), Some(0))
    );
    let present = kinds(&result);
    for kind in [
        "package",
        "artifact",
        "electron-main",
        "electron-preload",
        "electron-renderer",
        "javascript-asset",
        "javascript-chunk",
        "javascript-module",
        "worker",
        "service-worker",
        "endpoint",
        "storage",
        "source-map",
        "source-module",
        "native-addon",
    ] {
        assert!(
            present.contains(kind),
            "missing node kind {kind}: {present:?}"
        );
    }
    let present = relations(&result);
    for relation in [
        "contains",
        "loads",
        "imports",
        "maps_to",
        "exposes",
        "calls",
        "persists_to",
    ] {
        assert!(
            present.contains(relation),
            "missing relation {relation}: {present:?}"
        );
    }
    let bundlers: Vec<&str> = nodes(&result, "javascript-chunk")
        .iter()
        .map(|n| props(n)["bundler"].as_str().unwrap())
        .collect();
    assert!(
        bundlers.contains(&"webpack") && bundlers.contains(&"rspack"),
        "{bundlers:?}"
    );
    let module = nodes(&result, "javascript-module")
        .into_iter()
        .find(|n| props(n)["module_key"] == json!(1))
        .expect("module 1");
    assert_eq!(
        props(module)["structural_fingerprint_algorithm"],
        rea_parse::FINGERPRINT_ALGORITHM
    );
    assert_eq!(props(module)["path"], "renderer/chunks/webpack.js");
    let main = props(nodes(&result, "electron-main")[0]);
    assert_eq!(
        (
            &main["declared_path"],
            &main["resolution_context"],
            &main["resolved_path"],
            &main["resolution_status"]
        ),
        (
            &json!("main.js"),
            &json!("package-entrypoint"),
            &json!("main.js"),
            &json!("resolved")
        )
    );
    assert_eq!(main["limitations"], json!([]));
    let preload = props(nodes(&result, "electron-preload")[0]);
    assert_eq!(
        (
            &preload["declared_path"],
            &preload["resolution_context"],
            &preload["resolved_path"],
            &preload["resolution_status"]
        ),
        (
            &json!("preload.js"),
            &json!("filesystem-expression"),
            &json!("preload.js"),
            &json!("resolved")
        )
    );
    let serialized = serde_json::to_string(&result).unwrap();
    assert!(serialized.contains("token=%5BREDACTED%5D"));
    assert!(!serialized.contains("fixture-secret"));
    // The renderer from index.html maps to its script; every resolved role maps to a file.
    let edges = result["graph"]["edges"].as_array().unwrap();
    for role in ["electron-main", "electron-preload", "electron-renderer"] {
        for node in nodes(&result, role)
            .into_iter()
            .filter(|n| props(n)["resolution_status"] == "resolved")
        {
            assert!(
                edges
                    .iter()
                    .any(|e| e["source_node_id"] == node["node_id"] && e["relation"] == "maps_to"),
                "{role} has no maps_to"
            );
        }
    }
}

/// Each pairing edge's channel and basis.
fn pairing_bases(result: &Value) -> BTreeSet<(&str, &str)> {
    result["graph"]["edges"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|e| {
            Some((
                e["properties"]["channel"].as_str()?,
                e["properties"]["pairing_basis"].as_str()?,
            ))
        })
        .collect()
}

#[test]
fn channels_read_through_constants_pair_and_say_so() {
    let dir = app_tree(&[
        (
            "main.js",
            r#"const { ipcMain } = require("electron");
const Channels = { GET: "settings:get" };
ipcMain.handle(Channels.GET, () => 1);
ipcMain.on("plain", () => 1);"#,
        ),
        (
            "preload.js",
            r#"const { ipcRenderer } = require("electron");
ipcRenderer.invoke("settings:get");
const PLAIN = "plain";
ipcRenderer.send(PLAIN);"#,
        ),
    ]);
    let result = analyze(dir.path(), SourceMaps::Declarations);
    let ipc = &result["summary"]["ipc"];
    assert_eq!(ipc["paired_renderer_transmissions"], 2);
    assert_eq!(ipc["dynamic_channel_operations"], 0);
    assert_eq!(ipc["literal_channels"], 2);
    let edges = result["graph"]["edges"].as_array().unwrap();
    let bases = pairing_bases(&result);
    // A constant on either side says so.
    assert_eq!(
        bases,
        BTreeSet::from([
            ("plain", "unique-exact-constant-channel"),
            ("settings:get", "unique-exact-constant-channel"),
        ])
    );
    // Each operation says how its channel is known, with the expression it was read through.
    let resolutions: BTreeSet<(&str, &str, Option<&str>)> = edges
        .iter()
        .filter(|e| !e["properties"]["resolution"].is_null())
        .map(|e| {
            let p = &e["properties"];
            (
                p["operation"].as_str().unwrap(),
                p["resolution"].as_str().unwrap(),
                p["channel_expression"].as_str(),
            )
        })
        .collect();
    assert_eq!(
        resolutions,
        BTreeSet::from([
            ("handle", "constant", Some("Channels.GET")),
            ("on", "literal", None),
            ("invoke", "literal", None),
            ("send", "constant", Some("PLAIN")),
        ])
    );
}

#[test]
fn a_channel_chosen_among_strings_pairs_each_string_and_says_so() {
    // `@electron/remote`'s renderer: a `let` given one of two strings before one `sendSync`.
    let dir = app_tree(&[
        (
            "main.js",
            r#"const { ipcMain } = require("electron");
ipcMain.on("r:construct", (e) => { e.returnValue = 1; });
ipcMain.on("r:call", (e) => { e.returnValue = 2; });
ipcMain.handle("r:yes", () => 1);"#,
        ),
        (
            "preload.js",
            r#"const { ipcRenderer } = require("electron");
function remote(construct) {
  let command;
  if (construct) command = "r:construct"; else command = "r:call";
  return ipcRenderer.sendSync(command, 1);
}
const ask = (flag) => ipcRenderer.invoke(flag ? "r:yes" : "r:nobody");
function loose(channel) { if (!channel) channel = "r:call"; ipcRenderer.send(channel); }"#,
        ),
    ]);
    let result = analyze(dir.path(), SourceMaps::Declarations);
    let ipc = &result["summary"]["ipc"];
    assert_eq!(ipc["paired_renderer_transmissions"], 3);
    assert_eq!(ipc["unpaired_literal_renderer_transmissions"], 1);
    // The parameter given a default stays dynamic: it held the argument before.
    assert_eq!(ipc["dynamic_channel_operations"], 1);
    let edges = result["graph"]["edges"].as_array().unwrap();
    let bases = pairing_bases(&result);
    assert_eq!(
        bases,
        BTreeSet::from([
            ("r:call", "unique-exact-choice-channel"),
            ("r:construct", "unique-exact-choice-channel"),
            ("r:yes", "unique-exact-choice-channel"),
        ])
    );
    let chosen: BTreeSet<(&str, &str)> = edges
        .iter()
        .filter(|e| e["properties"]["resolution"] == "choice")
        .map(|e| {
            let p = &e["properties"];
            (
                p["channel"].as_str().unwrap(),
                p["channel_expression"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        chosen,
        BTreeSet::from([
            ("r:call", "command"),
            ("r:construct", "command"),
            ("r:nobody", "flag ? \"r:yes\" : \"r:nobody\""),
            ("r:yes", "flag ? \"r:yes\" : \"r:nobody\""),
        ])
    );
}

#[test]
fn renderer_calls_of_forwarding_bridge_members_pair_with_main_handlers() {
    // The preload electron-react-boilerplate ships: members that hand their channel to
    // `ipcRenderer`, called by the page as `window.electron.ipcRenderer.sendMessage(…)`.
    let dir = app_tree(&[
        (
            "main.js",
            r#"const { ipcMain } = require("electron");
ipcMain.on("ipc-example", (event) => event.reply("ipc-example", "pong"));
ipcMain.handle("get-config", () => ({}));
ipcMain.handle("twice", () => 1);
ipcMain.handle("twice", () => 2);"#,
        ),
        (
            "preload.js",
            r#"const { contextBridge, ipcRenderer } = require("electron");
const electronHandler = {
  ipcRenderer: { sendMessage(channel, ...args) { ipcRenderer.send(channel, ...args); } },
  invoke: (name, payload) => ipcRenderer.invoke(name, payload),
};
contextBridge.exposeInMainWorld("electron", electronHandler);"#,
        ),
        (
            "renderer/app.js",
            r#"window.electron.ipcRenderer.sendMessage("ipc-example", ["ping"]);
window.electron.invoke("get-config", {});
window.electron.invoke("twice");
window.electron.invoke("nobody-handles");
window.other.invoke("get-config");"#,
        ),
    ]);
    let result = analyze(dir.path(), SourceMaps::Declarations);
    let ipc = &result["summary"]["ipc"];
    assert_eq!(ipc["paired_renderer_transmissions"], 2);
    assert_eq!(ipc["ambiguous_renderer_transmissions"], 1);
    assert_eq!(ipc["unpaired_literal_renderer_transmissions"], 1);
    let paired = paired_by(&result, ["channel", "handler_path", "via"]);
    assert_eq!(
        paired,
        BTreeSet::from([
            ("get-config", "main.js", "window.electron.invoke"),
            (
                "ipc-example",
                "main.js",
                "window.electron.ipcRenderer.sendMessage"
            ),
        ])
    );
}

#[test]
fn a_bridge_literal_that_spreads_local_objects_takes_their_members_and_reaches_their_channels() {
    let dir = app_tree(&[
        (
            "main.js",
            r#"const { ipcMain, BrowserWindow } = require("electron");
const win = new BrowserWindow({ webPreferences: { preload: __dirname + "/preload.js" } });
ipcMain.handle("app:ping", () => "pong");
ipcMain.on("app:quit", () => {});
ipcMain.on("app:log", () => {});
win.webContents.send("app:update", 1);"#,
        ),
        (
            "preload.js",
            r#"const { contextBridge, ipcRenderer } = require("electron");
const base = { ping: () => ipcRenderer.invoke("app:ping"), send(channel, data) { ipcRenderer.send(channel, data); } };
const extra = { version: "1", onUpdate: (cb) => ipcRenderer.on("app:update", cb) };
ipcRenderer.send("app:log", "outside the API");
contextBridge.exposeInMainWorld("app", { ...base, ...extra, quit: () => ipcRenderer.send("app:quit") });"#,
        ),
        ("renderer.js", r#"window.app.send("app:log", 1);"#),
    ]);
    let result = analyze(dir.path(), SourceMaps::Declarations);
    let bridges = nodes(&result, "context-bridge-api");
    assert_eq!(bridges.len(), 1);
    let bridge = props(bridges[0]);
    assert_eq!(
        bridge["members"],
        json!(["onUpdate", "ping", "quit", "send", "version"])
    );
    assert_eq!(bridge["unknown_members"], 0);
    // The API's own IPC: its members' calls, not the file's call outside the literal.
    let id = bridges[0]["node_id"].as_str().unwrap();
    let own: BTreeSet<(String, String, String)> = result["graph"]["edges"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["source_node_id"] == id && !e["properties"]["channel"].is_null())
        .map(|e| {
            let text = |v: &Value| v.as_str().unwrap().to_owned();
            (
                text(&e["relation"]),
                text(&e["properties"]["operation"]),
                text(&e["properties"]["channel"]),
            )
        })
        .collect();
    let expected: BTreeSet<(String, String, String)> = [
        ("invokes", "invoke", "app:ping"),
        ("exposes", "on", "app:update"),
        ("sends", "send", "app:quit"),
    ]
    .iter()
    .map(|(a, b, c)| (a.to_string(), b.to_string(), c.to_string()))
    .collect();
    assert_eq!(own, expected);
    // The spread member that forwards its parameter carries the page's channel to main.
    let paired = paired_by(&result, ["channel", "handler_path", "via"]);
    assert!(
        paired.contains(&("app:log", "main.js", "window.app.send")),
        "{paired:?}"
    );
}

/// A bridge API a function of the preload returns (`exposeInMainWorld("api",
/// createApi())`): the object literal its last `return` gives, declared before the call or
/// after it (a function declaration), an arrow's body, a function called in place, or
/// through a name bound to the call (not a `require`, whose module's API is read as ever).
/// Its members are the API's and its IPC is the API's own, and a member that forwards its
/// parameter carries the page's channel. A call of a function that returns something else
/// leaves the members unknown.
#[test]
fn a_bridge_api_a_function_returns_has_the_returned_literals_members() {
    let dir = app_tree(&[
        (
            "main.js",
            r#"const { ipcMain, BrowserWindow } = require("electron");
new BrowserWindow({ webPreferences: { preload: __dirname + "/preload.js" } });
ipcMain.handle("app:ping", () => "pong");
ipcMain.on("app:log", () => {});"#,
        ),
        (
            "preload.js",
            r#"const { contextBridge, ipcRenderer } = require("electron");
contextBridge.exposeInMainWorld("late", createLate());
const makeOther = () => ({ quit: () => ipcRenderer.send("app:quit") });
contextBridge.exposeInMainWorld("other", makeOther());
const bound = createLate();
contextBridge.exposeInMainWorld("bound", bound);
const plain = () => window.thing;
contextBridge.exposeInMainWorld("plain", plain());
const inPlace = function (o = {}) { return { open: () => ipcRenderer.invoke("app:open") }; }(1);
contextBridge.exposeInMainWorld("inPlace", inPlace);
const viaRequire = require("./api");
contextBridge.exposeInMainWorld("required", viaRequire);
function createLate() {
  const version = "1";
  return {
    version,
    ping: () => ipcRenderer.invoke("app:ping"),
    send(channel, data) { ipcRenderer.send(channel, data); },
  };
}"#,
        ),
        (
            "api.js",
            r#"const { ipcRenderer } = require("electron");
const api = { hello: () => ipcRenderer.send("hello") };
module.exports = api;"#,
        ),
        ("renderer.js", r#"window.late.send("app:log", 1);"#),
    ]);
    let result = analyze(dir.path(), SourceMaps::Declarations);
    let members = bridges_by_key(&result, "members");
    assert_eq!(*members["late"], json!(["ping", "send", "version"]));
    assert_eq!(*members["bound"], json!(["ping", "send", "version"]));
    assert_eq!(*members["other"], json!(["quit"]));
    assert_eq!(*members["inPlace"], json!(["open"]));
    // A module's API bound by `require` is that module's, as before.
    assert_eq!(*members["required"], json!(["hello"]));
    assert_eq!(*members["plain"], json!([]));
    let status = bridges_by_key(&result, "api_status");
    assert_eq!(status["late"], "object-literal");
    assert_eq!(status["plain"], "dynamic");
    let exposed: BTreeSet<(&str, &str)> = transmissions(&result)
        .filter_map(|e| {
            let p = &e["properties"];
            Some((p["operation"].as_str()?, p["channel"].as_str()?))
        })
        .collect();
    assert!(exposed.contains(&("invoke", "app:ping")), "{exposed:?}");
    assert!(exposed.contains(&("send", "app:quit")), "{exposed:?}");
    let paired = paired_by(&result, ["channel", "handler_path", "via"]);
    assert!(
        paired.contains(&("app:log", "main.js", "window.late.send")),
        "{paired:?}"
    );
}

/// A preload that exposes one API per key of a table, in a loop over its entries or its keys
/// (better-auth's preload: `for (const [key, value] of Object.entries(bridges))
/// contextBridge.exposeInMainWorld(key, value)`), exposes an API under each key: an object
/// literal's members, or a function, whose IPC is that API's own. A loop that exposes
/// anything but the table's value for the key stays one dynamic API.
#[test]
fn bridges_a_loop_exposes_one_per_key_of_a_table() {
    let dir = app_tree(&[
        (
            "main.js",
            r#"const { ipcMain, BrowserWindow } = require("electron");
new BrowserWindow({ webPreferences: { preload: __dirname + "/preload.js" } });
ipcMain.handle("files:open", () => 1);
ipcMain.handle("auth:user", () => 1);"#,
        ),
        (
            "preload.js",
            r#"const { contextBridge, ipcRenderer } = require("electron");
const apis = {
  files: { open: () => ipcRenderer.invoke("files:open"), nested: { list() {} } },
  getUser: async () => ipcRenderer.invoke("auth:user"),
  version: process.versions.electron,
};
for (const [key, api] of Object.entries(apis)) {
  contextBridge.exposeInMainWorld(key, api);
}
const more = { tools: { ping() { return ipcRenderer.send("tools:ping"); } } };
Object.keys(more).forEach((name) => contextBridge.exposeInMainWorld(name, more[name]));
const other = { x: 1 };
for (const [key] of Object.entries(other)) {
  contextBridge.exposeInMainWorld(key, window.somethingElse);
}"#,
        ),
    ]);
    let result = analyze(dir.path(), SourceMaps::Declarations);
    let members = bridges_by_key(&result, "members");
    assert_eq!(
        members.keys().copied().collect::<BTreeSet<_>>(),
        BTreeSet::from(["files", "getUser", "tools", "version"]),
        "{members:?}"
    );
    assert_eq!(*members["files"], json!(["nested", "nested.list", "open"]));
    assert_eq!(*members["tools"], json!(["ping"]));
    let status = bridges_by_key(&result, "api_status");
    assert_eq!(status["files"], "object-literal");
    assert_eq!(status["getUser"], "dynamic");
    assert_eq!(status["version"], "dynamic");
    // The loop over `other` exposes something else: one API whose key is not known.
    let keyless: Vec<&Value> = nodes(&result, "context-bridge-api")
        .into_iter()
        .filter(|b| props(b)["api_key"].is_null())
        .collect();
    assert_eq!(keyless.len(), 1);
    assert_eq!(props(keyless[0])["api_key_expression"], "key");
    // Each API's IPC is its own.
    let key_of: BTreeMap<&str, &str> = nodes(&result, "context-bridge-api")
        .into_iter()
        .filter_map(|b| Some((b["node_id"].as_str()?, props(b)["api_key"].as_str()?)))
        .collect();
    let by_api: BTreeSet<(&str, &str)> = transmissions(&result)
        .filter_map(|e| {
            let api = key_of.get(e["source_node_id"].as_str()?)?;
            Some((*api, e["properties"]["channel"].as_str()?))
        })
        .collect();
    assert_eq!(
        by_api,
        BTreeSet::from([
            ("files", "files:open"),
            ("getUser", "auth:user"),
            ("tools", "tools:ping"),
        ])
    );
}

#[test]
fn a_bridge_api_another_module_exports_is_read_where_it_is_written() {
    // Preloads that expose an object another module builds: as tsc compiles `export const
    // api = {…}`, as an ES module exports it by name and by default, and as a CommonJS
    // module's whole exports; a module that does not use Electron exports no API.
    let dir = app_tree(&[
        (
            "main.js",
            r#"const { ipcMain } = require("electron");
ipcMain.on("a", () => {});
ipcMain.handle("b", () => 1);
ipcMain.on("c", () => {});
ipcMain.handle("d", () => 1);
ipcMain.on("e", () => {});"#,
        ),
        (
            "api/cjs.js",
            r#""use strict";
exports.api = void 0;
const electron_1 = require("electron");
exports.api = {
  send: (channel, ...args) => electron_1.ipcRenderer.send(channel, ...args),
  nested: { go(c) { return electron_1.ipcRenderer.invoke(c); } },
};"#,
        ),
        (
            "api/esm.mjs",
            r#"import { ipcRenderer } from "electron";
const api = { post(channel, body) { ipcRenderer.send(channel, body); }, version: "1" };
export { api as bridge };
export default api;"#,
        ),
        (
            "api/whole.js",
            r#"const { ipcRenderer } = require("electron");
const handler = { ask: (ch) => ipcRenderer.invoke(ch) };
module.exports = handler;"#,
        ),
        ("api/plain.js", r#"exports.api = { send: (c) => c };"#),
        (
            "preload.js",
            r#"const { contextBridge } = require("electron");
const cjs = require("./api/cjs");
const whole_1 = __importDefault(require("./api/whole"));
const plain = require("./api/plain");
contextBridge.exposeInMainWorld("cjs", cjs.api);
contextBridge.exposeInMainWorld("inner", cjs.api.nested);
contextBridge.exposeInMainWorld("whole", whole_1.default);
contextBridge.exposeInMainWorld("plain", plain.api);
contextBridge.exposeInMainWorld("missing", cjs.nothing);"#,
        ),
        (
            "preload-esm.mjs",
            r#"import { contextBridge } from "electron";
import api, { bridge } from "./api/esm.mjs";
contextBridge.exposeInMainWorld("esmDefault", api);
contextBridge.exposeInMainWorld("esmNamed", bridge);"#,
        ),
        (
            "renderer.js",
            r#"window.cjs.send("a", 1);
window.inner.go("b");
window.esmNamed.post("c", {});
window.whole.ask("d");
window.plain.send("e");"#,
        ),
    ]);
    let result = analyze(dir.path(), SourceMaps::Declarations);
    let bridges: BTreeMap<&str, (&str, Value, Value)> = nodes(&result, "context-bridge-api")
        .into_iter()
        .map(|n| {
            let p = props(n);
            (
                p["api_key"].as_str().unwrap(),
                (
                    p["api_status"].as_str().unwrap(),
                    p["members"].clone(),
                    p["api_source"].clone(),
                ),
            )
        })
        .collect();
    let source =
        |path: &str, export: &str| json!({"path": path, "module_key": null, "export": export});
    assert_eq!(
        bridges["cjs"],
        (
            "object-literal",
            json!(["nested", "nested.go", "send"]),
            source("api/cjs.js", "api")
        )
    );
    // A member path below the export: the members below it.
    assert_eq!(
        bridges["inner"],
        (
            "object-literal",
            json!(["go"]),
            source("api/cjs.js", "api.nested")
        )
    );
    // `default` of a CommonJS module read through an interop helper is its whole exports.
    assert_eq!(
        bridges["whole"],
        (
            "object-literal",
            json!(["ask"]),
            source("api/whole.js", "default")
        )
    );
    for (key, export) in [("esmDefault", "default"), ("esmNamed", "bridge")] {
        assert_eq!(
            bridges[key],
            (
                "object-literal",
                json!(["post", "version"]),
                source("api/esm.mjs", export)
            )
        );
    }
    for key in ["plain", "missing"] {
        assert_eq!(bridges[key], ("dynamic", json!([]), Value::Null), "{key}");
    }
    let paired: BTreeSet<(&str, &str)> = pairings(&result)
        .map(|p| (p["channel"].as_str().unwrap(), p["via"].as_str().unwrap()))
        .collect();
    assert_eq!(
        paired,
        BTreeSet::from([
            ("a", "window.cjs.send"),
            ("b", "window.inner.go"),
            ("c", "window.esmNamed.post"),
            ("d", "window.whole.ask"),
        ])
    );
    assert_eq!(result["summary"]["ipc"]["paired_renderer_transmissions"], 4);
}

#[test]
fn the_electron_fixture_has_the_reference_boundary_counts() {
    let dir = tempfile::tempdir().unwrap();
    write_tree(dir.path(), &electron_app());
    let result = analyze(dir.path(), SourceMaps::Declarations);
    let s = &result["summary"];
    assert_eq!(s["browser_windows"], 3);
    assert_eq!(s["explicit_web_preferences"], 8);
    assert_eq!(s["preload_entrypoints"], 1);
    assert_eq!(s["context_bridge_apis"], 2);
    assert_eq!(s["exposed_api_members"], 5);
    assert_eq!(s["ipc"]["literal_channels"], 5);
    assert_eq!(s["ipc"]["dynamic_channel_operations"], 2);
    assert_eq!(s["ipc"]["paired_renderer_transmissions"], 4);
    assert_eq!(s["ipc"]["ambiguous_renderer_transmissions"], 1);
    assert_eq!(s["ipc"]["unpaired_literal_renderer_transmissions"], 1);
    assert_eq!(s["sender_validation_observations"], 2);
    assert_eq!(s["utility_processes"], 1);
    assert_eq!(s["resolved_utility_entrypoints"], 1);
    assert_eq!(s["native_addon_bindings"], 4);
    assert_eq!(s["resolved_native_addon_bindings"], 4);
    let paired: Vec<&Value> = result["graph"]["edges"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["properties"]["pairing_basis"] == "unique-exact-literal-channel")
        .collect();
    assert_eq!(paired.len(), 4);
    assert!(
        paired
            .iter()
            .all(|e| e["properties"]["channel"] != "rea:ambiguous")
    );
    let windows = nodes(&result, "browser-window");
    assert!(windows.iter().any(|w| {
        props(w)["preload_path"] == "preload.js"
            && props(w)["absence_means_default"] == false
            && props(w)["web_preferences"]
                .as_array()
                .unwrap()
                .iter()
                .any(|p| p["name"] == "nodeIntegration" && p["value"]["value"] == true)
    }));
    assert!(windows.iter().any(|w| {
        let prefs = props(w)["web_preferences"].as_array().unwrap();
        prefs
            .iter()
            .any(|p| p["name"] == "nodeIntegration" && p["value"]["value"] == false)
            && prefs
                .iter()
                .any(|p| p["name"] == "contextIsolation" && p["value"]["value"] == true)
    }));
    let api = nodes(&result, "context-bridge-api")
        .into_iter()
        .find(|n| props(n)["api_key"] == "reaApi")
        .unwrap();
    for member in ["nested", "nested.write", "read"] {
        assert!(
            props(api)["members"]
                .as_array()
                .unwrap()
                .contains(&json!(member))
        );
    }
    let handler_checks = nodes(&result, "ipc-handler")
        .into_iter()
        .flat_map(|n| n["observations"].as_array().unwrap())
        .filter(|o| o["properties"]["fact_kind"] == "sender-validation-candidate")
        .count();
    assert_eq!(handler_checks, 2);
    assert!(
        nodes(&result, "native-export")
            .iter()
            .all(|n| props(n)["native_export_verification"] == "not-performed")
    );
    let limitations = result["limitations"].as_array().unwrap();
    assert!(
        limitations
            .iter()
            .any(|l| l.as_str().unwrap().contains("dynamic"))
    );
}

#[test]
fn the_same_app_as_an_asar_with_an_unpacked_addon_and_with_it_missing() {
    let dir = tempfile::tempdir().unwrap();
    let archive = dir.path().join("app.asar");
    write_asar(&archive, &electron_app());
    let first = analyze(&archive, SourceMaps::Declarations);
    let second = analyze(&archive, SourceMaps::Declarations);
    assert_eq!(first["graph"]["graph_id"], second["graph"]["graph_id"]);
    assert_eq!(
        first["inventory_graph_sha256"],
        second["inventory_graph_sha256"]
    );
    assert_eq!(first["format"], "asar");
    assert_eq!(first["summary"]["resolved_native_addon_bindings"], 4);
    let addon = nodes(&first, "native-addon");
    assert!(
        addon
            .iter()
            .any(|n| props(n)["unpacked"] == true && props(n)["path"] == "native/addon.node")
    );
    std::fs::remove_file(dir.path().join("app.asar.unpacked/native/addon.node")).unwrap();
    let missing = analyze(&archive, SourceMaps::Declarations);
    assert!(
        missing["statistics"]["parsed_javascript_files"]
            .as_u64()
            .unwrap()
            > 0
    );
    assert!(!nodes(&missing, "javascript-asset").is_empty());
    let addon = nodes(&missing, "native-addon")
        .into_iter()
        .find(|n| props(n)["path"] == "native/addon.node")
        .expect("the add-on stays in the graph");
    assert_eq!(addon["identity"]["strategy"], "canonical-path");
    assert_eq!(missing["graph"]["coverage"]["status"], "partial");
}

#[test]
fn an_asar_nested_in_a_directory_is_analysed_in_place() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("outer/resources")).unwrap();
    write_asar(
        &dir.path().join("outer/resources/app.asar"),
        &artifact_app(),
    );
    let result = analyze(&dir.path().join("outer"), SourceMaps::Declarations);
    assert_eq!(result["statistics"]["nested_containers"], 1);
    assert_eq!(result["statistics"]["modules"], 4);
    assert!(
        nodes(&result, "artifact")
            .iter()
            .any(|n| n["observations"][0]["label"] == "resources/app.asar"
                && props(n)["format"] == "asar")
    );
    assert!(
        nodes(&result, "javascript-asset")
            .iter()
            .any(|n| props(n)["path"] == "resources/app.asar/main.js")
    );
    let main = props(nodes(&result, "electron-main")[0]);
    assert_eq!(main["resolved_path"], "resources/app.asar/main.js");
}

#[test]
fn output_is_byte_identical_across_thread_counts() {
    let dir = tempfile::tempdir().unwrap();
    write_tree(dir.path(), &artifact_app());
    write_tree(&dir.path().join("second"), &electron_app());
    let run = |threads| {
        analyze_with(
            &Engine::new(threads).unwrap(),
            dir.path(),
            SourceMaps::Contents,
            &CancelToken::new(),
        )
        .unwrap()
    };
    let (one, two, four) = (run(1), run(2), run(4));
    assert_eq!(one.1, two.1);
    assert_eq!(one.2, two.2);
    assert_eq!(two.2, four.2);
}

#[test]
fn cancellation_at_every_check_point_leaves_nothing() {
    let dir = tempfile::tempdir().unwrap();
    write_tree(dir.path(), &electron_app());
    let engine = Engine::new(2).unwrap();
    let counting = CancelToken::counting();
    analyze_with(&engine, dir.path(), SourceMaps::Declarations, &counting).unwrap();
    let checks = counting.checks_made();
    assert!(checks > 10, "only {checks} checks");
    for n in (0..checks).step_by((checks as usize / 40).max(1)) {
        let token = CancelToken::trip_after(n);
        match analyze_with(&engine, dir.path(), SourceMaps::Declarations, &token) {
            Err(failure) => assert_eq!(
                failure.reason,
                FailureReason::Cancelled,
                "check {n}: {failure:?}"
            ),
            Ok(_) => panic!("a job cancelled at check {n} of {checks} still published"),
        }
    }
}

#[test]
fn odd_files_become_limitations_and_never_fail_the_run() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write_tree(
        root,
        &[
            (
                "package.json",
                br#"{"name":"odd","main":"index.js"}"#.to_vec(),
            ),
            (
                "index.js",
                b"\xEF\xBB\xBFrequire('./broken'); require('ipaddr.js');\n".to_vec(),
            ),
            ("broken.js", b"function ( {".to_vec()),
            ("latin1.js", b"var s = '\xe9';".to_vec()),
            ("bad.json", b"{not json".to_vec()),
            (
                "node_modules/ipaddr.js/package.json",
                br#"{"name":"ipaddr.js","main":"./lib/ipaddr.js"}"#.to_vec(),
            ),
            (
                "node_modules/ipaddr.js/lib/ipaddr.js",
                b"module.exports = {};".to_vec(),
            ),
            (
                "deep.js",
                format!("x = {}0{};", "[".repeat(50_000), "]".repeat(50_000)).into_bytes(),
            ),
            (
                "huge-string.js",
                format!("var s = \"{}\";", "x".repeat(8 << 20)).into_bytes(),
            ),
        ],
    );
    let result = analyze(root, SourceMaps::Declarations);
    let stats = &result["statistics"];
    assert_eq!(
        stats["parse_failures"], 3,
        "broken.js, deep.js and bad.json"
    );
    assert_eq!(stats["invalid_utf8_files"], 1);
    let unknown: Vec<&str> = nodes(&result, "unknown")
        .iter()
        .map(|n| props(n)["path"].as_str().unwrap())
        .collect();
    for path in ["bad.json", "broken.js", "deep.js", "latin1.js"] {
        assert!(
            unknown.contains(&path),
            "{path} is not an unknown scope: {unknown:?}"
        );
    }
    let asset = |path: &str| {
        nodes(&result, "javascript-asset")
            .into_iter()
            .find(|n| props(n)["path"] == path)
            .map(|n| props(n)["parse_status"].clone())
    };
    assert_eq!(
        asset("index.js"),
        Some(json!("complete")),
        "a BOM does not stop parsing"
    );
    assert_eq!(asset("huge-string.js"), Some(json!("complete")));
    // The directory named ipaddr.js is a package, and the bare require resolves into it.
    let edges = result["graph"]["edges"].as_array().unwrap();
    assert!(
        edges
            .iter()
            .any(|e| e["properties"]["resolved_path"] == "node_modules/ipaddr.js/lib/ipaddr.js")
    );
    assert_eq!(result["graph"]["coverage"]["status"], "partial");
}

#[test]
fn a_50_mb_minified_file_is_analysed() {
    let dir = tempfile::tempdir().unwrap();
    let mut text = String::from("(self.webpackChunkbig=self.webpackChunkbig||[]).push([[1],{");
    let mut i = 0;
    while text.len() < 50 << 20 {
        // About 2.5 KB per factory, like real minified modules.
        text.push_str(&format!(
            "{i}:(e,t,n)=>{{var r=n({});t.v=r+\"{}\",e.exports.k=[1,2,3].map(x=>x*{i})}},",
            i + 1,
            "y".repeat(2400)
        ));
        i += 1;
    }
    text.push_str("}]);");
    std::fs::write(dir.path().join("big.js"), text).unwrap();
    let result = analyze(dir.path(), SourceMaps::Declarations);
    assert_eq!(result["statistics"]["modules"], i);
    assert_eq!(result["statistics"]["parse_failures"], 0);
}

#[test]
fn a_plain_file_or_the_wrong_format_is_a_typed_error() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("a.txt"), b"hello").unwrap();
    let engine = Engine::new(1).unwrap();
    let err = analyze_with(
        &engine,
        &dir.path().join("a.txt"),
        SourceMaps::Declarations,
        &CancelToken::new(),
    )
    .unwrap_err();
    assert_eq!(err.reason, FailureReason::Format);
    let progress = ProgressReporter::silent();
    let cancel = CancelToken::new();
    let ctl = JobControl {
        cancel: &cancel,
        progress: &progress,
        timeout: None,
    };
    let mut request = AnalyzeRequest::new(dir.path().to_path_buf());
    request.format = Format::Asar;
    assert_eq!(
        engine
            .analyze_javascript_application(&request, &ctl)
            .unwrap_err()
            .reason,
        FailureReason::Format
    );
}

#[test]
fn reaching_a_finding_or_module_limit_is_partial_coverage_that_names_the_limit() {
    let dir = tempfile::tempdir().unwrap();
    write_tree(dir.path(), &artifact_app());
    write_tree(&dir.path().join("electron"), &electron_app());
    let run = |findings: u64, modules: u64| {
        let (cancel, progress) = (CancelToken::new(), ProgressReporter::silent());
        let ctl = JobControl {
            cancel: &cancel,
            progress: &progress,
            timeout: None,
        };
        let mut request = AnalyzeRequest::new(dir.path().to_path_buf());
        request.text_limits.max_findings = findings;
        request.text_limits.max_modules = modules;
        let published = Engine::new(2)
            .unwrap()
            .analyze_javascript_application(&request, &ctl)
            .unwrap();
        let envelope: Value = serde_json::from_slice(&published.envelope_bytes()).unwrap();
        envelope["result"].clone()
    };
    let full = run(1_000, 1_000);
    let limited = run(5, 3);
    let limitations: Vec<&str> = limited["limitations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l.as_str().unwrap())
        .collect();
    assert!(
        limitations
            .iter()
            .any(|l| l.starts_with("max_findings (5) was reached")),
        "{limitations:?}"
    );
    assert!(
        limitations
            .iter()
            .any(|l| l.starts_with("max_modules (3) was reached")),
        "{limitations:?}"
    );
    assert_eq!(limited["graph"]["coverage"]["truncated"], true);
    let factories = |r: &Value| {
        nodes(r, "javascript-module")
            .into_iter()
            .filter(|n| !props(n)["module_key"].is_null())
            .count()
    };
    assert_eq!((factories(&full), factories(&limited)), (4, 3));
    assert!(
        limited["graph"]["edges"].as_array().unwrap().len()
            < full["graph"]["edges"].as_array().unwrap().len()
    );
    // The same limits cut the same facts on every run.
    assert_eq!(run(5, 3)["graph"]["graph_id"], limited["graph"]["graph_id"]);
}

/// The graph is validated from the record's text, never from a value: every byte still
/// counts, a forger who recomputes the evidence id is caught at the edge, one who recomputes
/// the edge id too is caught at the graph id, and a non-canonical item is refused.
#[test]
fn the_sealed_graph_is_validated_from_its_text() {
    use rea_graph::javascript::ids;
    use rea_hash::{CanonicalJson, Piece};
    let dir = tempfile::tempdir().unwrap();
    write_tree(dir.path(), &electron_app());
    let (_, id, envelope) = analyze_with(
        &Engine::new(2).unwrap(),
        dir.path(),
        SourceMaps::Declarations,
        &CancelToken::new(),
    )
    .unwrap();
    let envelope: Value = serde_json::from_slice(&envelope).unwrap();
    let record = envelope["evidence"].clone();
    let bytes = rea_hash::canonical_bytes(&record).unwrap();
    let local = record["subject"]["local_path"].as_str().unwrap().to_owned();
    let validate = |bytes: &[u8]| rea_validate::validate_for_input(bytes, &local);
    let validated = validate(&bytes).unwrap();
    assert_eq!(validated.evidence_id(), id);
    let graph = &record["normalized_result"]["graph"];
    let (nodes, edges) = (
        graph["nodes"].as_array().unwrap().len(),
        graph["edges"].as_array().unwrap().len(),
    );
    assert!(nodes > 10 && edges > 10);
    assert_eq!(validated.graph_size(), Some((nodes, edges)));

    // Any flipped byte, wherever it falls (a sample across the whole record).
    let step = (bytes.len() / 400).max(1);
    for at in (0..bytes.len()).step_by(step) {
        let mut tampered = bytes.clone();
        tampered[at] ^= 0x01;
        assert!(validate(&tampered).is_err(), "flip at {at} passed");
    }

    let reseal = |record: &mut Value| {
        record["evidence_id"] = Value::from(rea_seal::evidence_id_of(record).unwrap());
        rea_hash::canonical_bytes(record).unwrap()
    };
    let target = edges / 2;
    let mut forged = record.clone();
    forged["normalized_result"]["graph"]["edges"][target]["properties"] = json!({"forged": true});
    let err = validate(&reseal(&mut forged)).unwrap_err();
    assert_eq!(err.at, format!("/graph/edges/{target}/edge_id"));

    let edge = &mut forged["normalized_result"]["graph"]["edges"][target];
    let canon = |v: &Value| CanonicalJson::of(v).unwrap();
    let (properties, evidence) = (canon(&edge["properties"]), canon(&edge["evidence"]));
    let new_id = ids::edge_id(
        edge["source_node_id"].as_str().unwrap(),
        edge["target_node_id"].as_str().unwrap(),
        edge["relation"].as_str().unwrap(),
        Piece::Json(&properties),
        Piece::Json(&evidence),
    )
    .unwrap();
    edge["edge_id"] = Value::from(new_id);
    let mut edges_list = forged["normalized_result"]["graph"]["edges"]
        .as_array()
        .unwrap()
        .clone();
    edges_list.sort_by(|a, b| a["edge_id"].as_str().cmp(&b["edge_id"].as_str()));
    forged["normalized_result"]["graph"]["edges"] = Value::Array(edges_list);
    let err = validate(&reseal(&mut forged)).unwrap_err();
    assert_eq!(err.at, "/graph/graph_id");

    // A space inside one edge: the same JSON, not the canonical text.
    let text = String::from_utf8(bytes.clone()).unwrap();
    let edge_id = graph["edges"][target]["edge_id"].as_str().unwrap();
    let spaced = text.replacen(
        &format!("{{\"edge_id\":\"{edge_id}\","),
        &format!("{{\"edge_id\": \"{edge_id}\","),
        1,
    );
    assert_ne!(spaced, text);
    assert_eq!(
        validate(spaced.as_bytes()).unwrap_err().problem,
        "bytes are not in canonical form"
    );
}

#[test]
fn progress_counts_the_files_parsed_and_projected_and_never_goes_back() {
    use rea_core::{Clock, ProgressSink, ProgressUpdate};
    use std::sync::Mutex;
    use std::sync::atomic::{AtomicU64, Ordering};
    struct Recorder(Mutex<Vec<ProgressUpdate>>);
    impl ProgressSink for Recorder {
        fn send(&self, update: &ProgressUpdate) {
            self.0.lock().unwrap().push(update.clone());
        }
    }
    // A clock a second further on at every look: no update is dropped by the rate bound.
    struct Ticking(AtomicU64);
    impl Clock for Ticking {
        fn now_ms(&self) -> u64 {
            self.0.fetch_add(1000, Ordering::Relaxed) + 1000
        }
    }
    let dir = tempfile::tempdir().unwrap();
    let app = electron_app();
    write_tree(dir.path(), &app);
    let recorder = std::sync::Arc::new(Recorder(Mutex::new(Vec::new())));
    let progress = ProgressReporter::new(
        recorder.clone(),
        std::sync::Arc::new(Ticking(AtomicU64::new(0))),
    );
    let ctl = JobControl {
        cancel: &CancelToken::new(),
        progress: &progress,
        timeout: None,
    };
    let request = AnalyzeRequest::new(dir.path().to_path_buf());
    let published = Engine::new(2)
        .unwrap()
        .analyze_javascript_application(&request, &ctl)
        .unwrap();
    let envelope: Value = serde_json::from_slice(&published.envelope_bytes()).unwrap();
    let statistics = &envelope["result"]["statistics"];
    let updates = recorder.0.lock().unwrap().clone();
    // One update per text file parsed, counting up to the number selected.
    let selected = statistics["text_files_selected"].as_u64().unwrap();
    let parsed: Vec<&ProgressUpdate> = updates
        .iter()
        .filter(|u| u.phase == "parse" && u.message.ends_with("text files parsed"))
        .collect();
    // Files finish on several threads, so updates may arrive out of order: each count from 1
    // to the number selected appears exactly once.
    let counts = |updates: &[&ProgressUpdate], of: u64| {
        let mut counts: Vec<u64> = updates
            .iter()
            .map(|u| {
                let (n, rest) = u.message.split_once(" of ").unwrap();
                assert!(rest.starts_with(&format!("{of} ")), "{u:?}");
                n.parse().unwrap()
            })
            .collect();
        counts.sort_unstable();
        counts
    };
    assert_eq!(
        counts(&parsed, selected),
        (1..=selected).collect::<Vec<_>>()
    );
    // The graph phase counts the files it projects the same way.
    let projected: Vec<&ProgressUpdate> = updates
        .iter()
        .filter(|u| u.phase == "graph" && u.message.ends_with("files projected"))
        .collect();
    let n = projected.len() as u64;
    assert!(n >= selected);
    assert_eq!(counts(&projected, n), (1..=n).collect::<Vec<_>>());
    // Across phases the position never goes back, and the total never drops below it.
    for pair in updates.windows(2) {
        assert!(pair[1].completed >= pair[0].completed, "{pair:?}");
    }
    for update in &updates {
        if let Some(total) = update.total {
            assert!(total >= update.completed, "{update:?}");
        }
    }
    assert!(updates.last().unwrap().terminal);
}

#[test]
fn an_application_with_nothing_to_read_is_sealed_and_validated() {
    // An empty directory: the graph holds the artifact root and nothing else, so its edge
    // array is empty (validation finds such an array by scanning for it, not by its items).
    let dir = tempfile::tempdir().unwrap();
    let result = analyze(dir.path(), SourceMaps::Declarations);
    let graph = &result["graph"];
    assert_eq!(graph["edges"].as_array().unwrap().len(), 0);
    assert_eq!(nodes(&result, "artifact").len(), 1);
    assert_eq!(result["statistics"]["relevant_files"], 0);
}

#[test]
fn equal_keys_of_a_nested_bundle_are_other_modules_with_their_own_requires() {
    // A prebuilt webpack 4 library inside module 1 of a webpack 5 bundle: both tables are `e`,
    // both hold a module 1, and each bundle's requires stay inside it.
    let dir = tempfile::tempdir().unwrap();
    let text = r#"(()=>{var e={1:(e,t,r)=>{e.exports=(function(e){function r(n){var i={exports:{}};return e[n].call(i.exports,i,i.exports,r),i.exports}return r(0)})([function(e,t,r){r(1)},function(e){e.exports=2}])},7:(e,t,r)=>{r(1)}},t={};function r(n){var o=t[n];if(void 0!==o)return o.exports;var i=t[n]={exports:{}};return e[n](i,i.exports,r),i.exports}r(7)})();"#;
    write_tree(dir.path(), &[("dist/vendor.js", text.as_bytes().to_vec())]);
    let result = analyze(dir.path(), SourceMaps::Declarations);
    let modules = nodes(&result, "javascript-module");
    let by_key = |key: u64| -> Vec<&Value> {
        modules
            .iter()
            .copied()
            .filter(|n| props(n)["module_key"] == key)
            .collect()
    };
    assert_eq!(modules.len(), 4, "{modules:#?}");
    let ones = by_key(1);
    assert_eq!(ones.len(), 2, "module 1 of each table is its own node");
    assert_ne!(ones[0]["node_id"], ones[1]["node_id"]);
    assert!(
        modules
            .iter()
            .all(|n| n["observations"].as_array().unwrap().len() == 1)
    );
    let namespaces: std::collections::BTreeSet<&str> = ones
        .iter()
        .map(|n| n["identity"]["namespace"].as_str().unwrap())
        .collect();
    assert_eq!(namespaces.len(), 2, "{namespaces:?}");
    let imports: Vec<(&Value, &Value)> = result["graph"]["edges"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["properties"]["kind"] == "bundler-require")
        .map(|e| (&e["source_node_id"], &e["target_node_id"]))
        .collect();
    assert_eq!(imports.len(), 2, "{imports:?}");
    let namespace_of = |id: &Value| {
        modules
            .iter()
            .find(|n| &n["node_id"] == id)
            .map(|n| n["identity"]["namespace"].clone())
            .unwrap()
    };
    for (source, target) in imports {
        assert_eq!(
            namespace_of(source),
            namespace_of(target),
            "a require resolves in its own bundle"
        );
    }
}

#[test]
fn v8_bytecode_loaded_through_bytenode_is_listed_and_named_unreadable() {
    let dir = tempfile::tempdir().unwrap();
    write_tree(
        dir.path(),
        &[
            (
                "package.json",
                br#"{"name":"bytecode-app","version":"1.0.0","main":"main.js"}"#.to_vec(),
            ),
            (
                "main.js",
                b"require(\"bytenode\");\nrequire(\"./app.jsc\");\n".to_vec(),
            ),
        ],
    );
    // Real V8 bytecode: Node compiles the script into a code cache (bytenode's method) and
    // never runs it.
    let status = std::process::Command::new("node")
        .arg("-e")
        .arg(
            "const vm = require('vm'); const fs = require('fs'); \
             const script = new vm.Script('module.exports = () => 42;', {produceCachedData: true}); \
             fs.writeFileSync(process.argv[1], script.createCachedData());",
        )
        .arg(dir.path().join("app.jsc"))
        .status()
        .unwrap();
    assert!(status.success());
    let result = analyze(dir.path(), SourceMaps::Declarations);
    assert_eq!(result["statistics"]["bytecode_files"], 1);
    let asset = nodes(&result, "javascript-asset")
        .into_iter()
        .find(|n| props(n)["path"] == "app.jsc")
        .expect("the bytecode file is an asset");
    assert_eq!(props(asset)["file_kind"], "javascript-bytecode");
    let unknown = nodes(&result, "unknown")
        .into_iter()
        .find(|n| props(n)["path"] == "app.jsc")
        .expect("an unknown scope names it");
    assert_eq!(props(unknown)["operation"], "read-v8-bytecode");
    assert!(
        result["limitations"]
            .to_string()
            .contains("1 files are V8 bytecode")
    );
    let main = nodes(&result, "javascript-asset")
        .into_iter()
        .find(|n| props(n)["path"] == "main.js")
        .unwrap();
    assert_eq!(props(main)["vendor_markers"], json!(["bytenode"]));
    let loads_bytecode = result["graph"]["edges"]
        .as_array()
        .unwrap()
        .iter()
        .any(|e| e["properties"]["resolved_path"] == "app.jsc");
    assert!(
        loads_bytecode,
        "the require of ./app.jsc resolves to the file"
    );
}

#[test]
fn preloads_a_session_registers_are_preload_roles() {
    // Outside any window's options: `session.setPreloads([...])` (every frame of the session)
    // and Electron 35's `session.registerPreloadScript({type, filePath})`.
    let dir = tempfile::tempdir().unwrap();
    write_tree(
        dir.path(),
        &[
            (
                "package.json",
                br#"{"name":"session-app","version":"1.0.0","main":"main.js"}"#.to_vec(),
            ),
            (
                "main.js",
                br#"const { app, session } = require("electron");
const path = require("node:path");
app.whenReady().then(() => {
  const s = session.fromPartition("persist:app");
  s.setPreloads([path.join(__dirname, "frames.js"), path.join(__dirname, "missing.js")]);
  session.defaultSession.registerPreloadScript({ type: "service-worker", id: "sw", filePath: path.join(__dirname, "sw.js") });
});
"#
                .to_vec(),
            ),
            ("frames.js", b"window.framed = true;\n".to_vec()),
            ("sw.js", b"self.worker = true;\n".to_vec()),
        ],
    );
    let result = analyze(dir.path(), SourceMaps::Declarations);
    let mut preloads: Vec<(String, String, String)> = nodes(&result, "electron-preload")
        .into_iter()
        .map(|n| {
            let p = props(n);
            (
                p["declared_path"].as_str().unwrap().to_owned(),
                p["mechanism"].as_str().unwrap().to_owned(),
                p["resolution_status"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    preloads.sort();
    let expected: Vec<(String, String, String)> = [
        ("frames.js", "setPreloads", "resolved"),
        ("missing.js", "setPreloads", "not-found"),
        ("sw.js", "registerPreloadScript", "resolved"),
    ]
    .iter()
    .map(|(a, b, c)| ((*a).to_owned(), (*b).to_owned(), (*c).to_owned()))
    .collect();
    assert_eq!(preloads, expected);
}

#[test]
fn a_webviews_preload_is_a_preload_role_beside_its_page() {
    let dir = tempfile::tempdir().unwrap();
    write_tree(
        dir.path(),
        &[
            (
                "package.json",
                br#"{"name":"webview-app","version":"1.0.0","main":"main.js"}"#.to_vec(),
            ),
            (
                "main.js",
                br#"const { BrowserWindow } = require("electron");
new BrowserWindow({ webPreferences: { webviewTag: true } }).loadFile("ui/index.html");
"#
                .to_vec(),
            ),
            (
                "ui/index.html",
                br#"<webview src="https://example.invalid/" preload="./guest.js"></webview>"#
                    .to_vec(),
            ),
            ("ui/guest.js", b"window.guest = true;\n".to_vec()),
        ],
    );
    let result = analyze(dir.path(), SourceMaps::Declarations);
    let preloads: Vec<(&str, &str, &str)> = nodes(&result, "electron-preload")
        .into_iter()
        .map(|n| {
            let p = props(n);
            (
                p["mechanism"].as_str().unwrap(),
                p["anchor_path"].as_str().unwrap(),
                p["resolved_path"].as_str().unwrap_or("-"),
            )
        })
        .collect();
    assert_eq!(
        preloads,
        [("html-webview-preload", "ui/index.html", "ui/guest.js")]
    );
}

#[test]
fn inline_scripts_and_policies_of_the_pages_windows_load() {
    let dir = tempfile::tempdir().unwrap();
    write_tree(
        dir.path(),
        &[
            (
                "package.json",
                br#"{"name":"pages-app","version":"1.0.0","main":"main.js"}"#.to_vec(),
            ),
            (
                "main.js",
                br#"const { BrowserWindow, ipcMain } = require("electron");
const path = require("node:path");
new BrowserWindow({ webPreferences: { nodeIntegration: true, contextIsolation: false } }).loadFile(path.join(__dirname, "ui", "index.html"));
new BrowserWindow({}).loadFile("ui/legacy.html");
new BrowserWindow({}).loadURL("https://example.invalid/remote.html");
ipcMain.handle("settings:get", () => ({}));
session.defaultSession.webRequest.onHeadersReceived((d, cb) => cb({ responseHeaders: { "Content-Security-Policy": ["script-src 'self'"] } }));
app.on("web-contents-created", (e, contents) => { contents.setWindowOpenHandler(() => ({ action: "deny" })); contents.on("will-navigate", (e) => e.preventDefault()); });
session.defaultSession.setPermissionRequestHandler((wc, permission, callback) => callback(false));
session.defaultSession.setPermissionCheckHandler(null);
"#
                .to_vec(),
            ),
            (
                "ui/index.html",
                br#"<!doctype html>
<meta http-equiv="Content-Security-Policy" content="default-src 'self'; script-src 'self' 'unsafe-inline'">
<script>
  const { ipcRenderer } = require("electron");
  ipcRenderer.invoke("settings:get");
</script>
"#
                .to_vec(),
            ),
            (
                "ui/legacy.html",
                b"<script>var state = {{ state }};</script>\n<script>window.ready = true;</script>\n"
                    .to_vec(),
            ),
            // A page no window loads: read, but not one of the renderer pages.
            (
                "docs/readme.html",
                b"<meta http-equiv=\"Content-Security-Policy\" content=\"script-src 'unsafe-eval'\"><script>go()</script>"
                    .to_vec(),
            ),
        ],
    );
    let result = analyze(dir.path(), SourceMaps::Declarations);
    assert_eq!(
        result["summary"]["renderer_pages"],
        json!({"loaded_pages": 2, "with_content_security_policy": 1, "policy_allows_inline_scripts": 1,
               "policy_allows_eval": 0, "with_inline_scripts": 2, "response_header_policies": 1,
               // The remote page is a web URL, over HTTPS.
               "web_urls_loaded": 1, "plain_http_urls": []})
    );
    // A null handler removes one; it is listed but not counted.
    assert_eq!(
        result["summary"]["security_handlers"],
        json!({"window_open_handlers": 1, "navigation_listeners": 1, "legacy_new_window_listeners": 0,
               "webview_attach_listeners": 0, "web_contents_created_listeners": 1, "permission_handlers": 1,
               "certificate_handlers": 0})
    );
    // The inline script's invoke pairs with the main process's handler.
    assert_eq!(result["summary"]["ipc"]["paired_renderer_transmissions"], 1);
    let statistics = &result["statistics"];
    assert_eq!(statistics["html_pages"], 3);
    assert_eq!(statistics["html_inline_scripts"], 4);
    assert_eq!(statistics["html_inline_scripts_read"], 3);
    let page = |path: &str| {
        result["graph"]["nodes"]
            .as_array()
            .unwrap()
            .iter()
            .map(props)
            .find(|p| p["path"] == path && p["file_kind"] == "html")
            .unwrap()
            .clone()
    };
    let index = page("ui/index.html");
    assert_eq!(index["content_security_policy"]["allows_eval"], false);
    assert_eq!(index["content_security_policy"]["policies"][0]["line"], 2);
    let main = result["graph"]["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .map(props)
        .find(|p| p["path"] == "main.js" && p["file_kind"] == "javascript")
        .unwrap();
    let apis: Vec<&str> = main["electron_security_handlers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h["api"].as_str().unwrap())
        .collect();
    assert_eq!(
        apis,
        [
            "web-contents-created",
            "setWindowOpenHandler",
            "will-navigate",
            "setPermissionRequestHandler",
            "setPermissionCheckHandler"
        ]
    );
    // The header's value starts on line 7, at the string inside the array.
    let line_7 = std::fs::read_to_string(dir.path().join("main.js")).unwrap();
    let line_7 = line_7.lines().nth(6).unwrap();
    let column = line_7.find("\"script-src").unwrap();
    assert_eq!(
        main["content_security_policy_headers"],
        json!([{"policy": "script-src 'self'", "line": 7, "column": column,
                "allows_inline_scripts": false, "allows_eval": false}])
    );
    assert_eq!(page("ui/legacy.html")["inline_scripts_read"], 1);
    assert_eq!(page("ui/legacy.html")["parse_status"], "partial");
    assert!(
        page("ui/legacy.html")
            .get("content_security_policy")
            .is_none()
    );
    let unread: Vec<&str> = nodes(&result, "unknown")
        .into_iter()
        .filter(|n| props(n)["operation"] == "parse-inline-script")
        .map(|n| props(n)["path"].as_str().unwrap())
        .collect();
    assert_eq!(unread, ["ui/legacy.html"]);
    // The renderer's IPC call is located in the page, on the line it is written.
    let invoke = result["graph"]["edges"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| {
            e["relation"] == "invokes" && e["evidence"]["operation"] == "pair-ipc-literal-channel"
        })
        .unwrap();
    assert_eq!(invoke["properties"]["handler_path"], "main.js");
    let location = &invoke["evidence"]["location"];
    assert_eq!(location["source"], "ui/index.html");
    assert_eq!(location["start"], json!({"line": 5, "column": 2}));
}

/// Each renderer the graph names: its declared path, resolution status and resolved path
/// (`-` when none), sorted.
fn renderer_resolutions(result: &Value) -> Vec<(String, String, String)> {
    let mut renderers: Vec<(String, String, String)> = nodes(result, "electron-renderer")
        .into_iter()
        .map(|n| {
            let p = props(n);
            (
                p["declared_path"].as_str().unwrap().to_owned(),
                p["resolution_status"].as_str().unwrap().to_owned(),
                p["resolved_path"].as_str().unwrap_or("-").to_owned(),
            )
        })
        .collect();
    renderers.sort();
    renderers
}

#[test]
fn a_page_loaded_through_the_applications_own_scheme_resolves_to_its_file() {
    let dir = tempfile::tempdir().unwrap();
    write_tree(
        dir.path(),
        &[
            (
                "package.json",
                br#"{"name":"served-app","version":"1.0.0","main":"dist/background.js"}"#.to_vec(),
            ),
            // As vue-cli-plugin-electron-builder's createProtocol serves `app://./index.html`.
            (
                "dist/background.js",
                br#"const { app, BrowserWindow, protocol } = require("electron");
protocol.registerSchemesAsPrivileged([{ scheme: "app", privileges: { secure: true, standard: true } }]);
app.whenReady().then(() => {
  protocol.registerFileProtocol("app", (request, respond) => respond({ path: decodeURI(new URL(request.url).pathname) }));
  new BrowserWindow({}).loadURL("app://./index.html");
  new BrowserWindow({}).loadURL("app://settings/");
  new BrowserWindow({}).loadURL("other://./index.html");
});
"#
                .to_vec(),
            ),
            ("dist/index.html", b"<script src=\"js/app.js\"></script>".to_vec()),
            ("dist/js/app.js", b"window.app = 1;\n".to_vec()),
            ("dist/settings/index.html", b"<p>settings</p>".to_vec()),
        ],
    );
    let result = analyze(dir.path(), SourceMaps::Declarations);
    let renderers = renderer_resolutions(&result);
    assert_eq!(
        renderers,
        [
            (
                "app://./index.html".into(),
                "resolved".into(),
                "dist/index.html".into()
            ),
            (
                "app://settings/".into(),
                "resolved".into(),
                "dist/settings/index.html".into()
            ),
            (
                "js/app.js".into(),
                "resolved".into(),
                "dist/js/app.js".into()
            ),
            ("other://./index.html".into(), "external".into(), "-".into()),
        ]
    );
    let served = nodes(&result, "electron-renderer")
        .into_iter()
        .map(props)
        .find(|p| p["declared_path"] == "app://./index.html")
        .unwrap();
    assert!(
        served["limitations"][0]
            .as_str()
            .unwrap()
            .starts_with("served by the application's own protocol handler"),
        "{served}"
    );
    assert_eq!(result["summary"]["renderer_pages"]["loaded_pages"], 2);
}

#[test]
fn a_scheme_served_by_a_handler_of_its_own_resolves_under_the_directory_it_joins() {
    // Handlers written where the scheme is registered, as Electron's documentation writes
    // them: the request's path joined under a directory beside the file, or under the
    // application's root. A handler that joins no directory leaves the usual lookups.
    let dir = app_tree(&[
        (
            "main/index.js",
            r#"const { app, protocol, net, BrowserWindow } = require("electron");
const path = require("path");
const { pathToFileURL } = require("url");
protocol.handle("app", (req) => {
  const { pathname } = new URL(req.url);
  return net.fetch(pathToFileURL(path.join(__dirname, "../renderer", pathname)).toString());
});
protocol.registerFileProtocol("ui", (request, callback) => {
  callback({ path: path.join(app.getAppPath(), "out", "ui", request.url.slice(5)) });
});
protocol.registerFileProtocol("plain", (request, callback) => callback({ path: request.url.slice(8) }));
app.whenReady().then(() => {
  new BrowserWindow().loadURL("app://bundle/index.html");
  new BrowserWindow().loadURL("ui://./settings.html");
  new BrowserWindow().loadURL("plain://./about.html");
});
"#,
        ),
        ("renderer/index.html", "<p>index</p>"),
        ("out/ui/settings.html", "<p>settings</p>"),
        ("main/about.html", "<p>about</p>"),
    ]);
    let result = analyze(dir.path(), SourceMaps::Declarations);
    assert_eq!(
        renderer_resolutions(&result),
        [
            (
                "app://bundle/index.html".into(),
                "resolved".into(),
                "renderer/index.html".into()
            ),
            (
                "plain://./about.html".into(),
                "resolved".into(),
                "main/about.html".into()
            ),
            (
                "ui://./settings.html".into(),
                "resolved".into(),
                "out/ui/settings.html".into()
            ),
        ]
    );
}

#[test]
fn a_scheme_served_through_another_files_function_resolves_under_the_directory_that_file_joins() {
    // vue-cli-plugin-electron-builder's `createProtocol(scheme)`, an ES module's default
    // export, and a CommonJS helper of the application's own: each call serves the scheme it
    // passes, under the directory the function's handler joins beside its own file.
    let dir = app_tree(&[
        (
            "main/index.js",
            r#"import { app, BrowserWindow } from "electron";
import createProtocol from "../node_modules/vue-cli-plugin-electron-builder/lib/createProtocol.js";
const serving = require("./serving");
createProtocol("app");
serving.serve("ui");
app.whenReady().then(() => {
  new BrowserWindow().loadURL("app://./index.html");
  new BrowserWindow().loadURL("ui://./settings.html");
});
"#,
        ),
        (
            "node_modules/vue-cli-plugin-electron-builder/lib/createProtocol.js",
            r#"import { protocol } from "electron";
import * as path from "path";
import { readFile } from "fs";
export default (scheme, customProtocol) => {
  (customProtocol || protocol).registerBufferProtocol(scheme, (request, respond) => {
    const pathName = decodeURI(new URL(request.url).pathname);
    readFile(path.join(__dirname, pathName), (error, data) => respond({ data }));
  });
};
"#,
        ),
        (
            "main/serving.js",
            r#"const { protocol } = require("electron");
const path = require("path");
exports.serve = function (scheme) {
  protocol.registerFileProtocol(scheme, (request, callback) => {
    callback({ path: path.join(__dirname, "..", "renderer", request.url.slice(scheme.length + 3)) });
  });
};
"#,
        ),
        (
            "node_modules/vue-cli-plugin-electron-builder/lib/index.html",
            "<p>lib</p>",
        ),
        ("main/index.html", "<p>main</p>"),
        ("main/settings.html", "<p>main</p>"),
        ("renderer/settings.html", "<p>settings</p>"),
    ]);
    let result = analyze(dir.path(), SourceMaps::Declarations);
    assert_eq!(
        renderer_resolutions(&result),
        [
            (
                "app://./index.html".into(),
                "resolved".into(),
                "node_modules/vue-cli-plugin-electron-builder/lib/index.html".into()
            ),
            (
                "ui://./settings.html".into(),
                "resolved".into(),
                "renderer/settings.html".into()
            ),
        ]
    );
}

#[test]
fn pages_and_schemes_named_by_another_files_exports_are_loads() {
    // As secure-electron-template serves its page: the scheme is a string its protocol
    // module exports, registered and loaded through that module; other pages are named by a
    // constants module, as a path, a URL of the web (an endpoint, its secret redacted), and
    // one built on a name the module does not export (not a load).
    let dir = app_tree(&[
        (
            "protocol.js",
            r#"const scheme = "app";
function requestHandler(req, next) { next({}); }
module.exports = { scheme, requestHandler };
"#,
        ),
        (
            "pages.mjs",
            r#"export const PAGES = { SETTINGS: "dist/settings.html", REMOTE: "https://remote.example.com/app?token=s3cret" };"#,
        ),
        (
            "main.js",
            r#"const { app, protocol, BrowserWindow } = require("electron");
const Protocol = require("./protocol");
const pages = require("./pages.mjs");
protocol.registerSchemesAsPrivileged([{ scheme: Protocol.scheme, privileges: { standard: true } }]);
app.whenReady().then(() => {
  protocol.registerBufferProtocol(Protocol.scheme, Protocol.requestHandler);
  new BrowserWindow({}).loadURL(`${Protocol.scheme}://rse/index.html`);
  new BrowserWindow({}).loadFile(pages.PAGES.SETTINGS);
  new BrowserWindow({}).loadURL(pages.PAGES.REMOTE);
  new BrowserWindow({}).loadURL(Protocol.missing + "/x.html");
});
"#,
        ),
        ("index.html", "<p>home</p>"),
        ("dist/settings.html", "<p>settings</p>"),
    ]);
    let result = analyze(dir.path(), SourceMaps::Declarations);
    let renderers = renderer_resolutions(&result);
    assert_eq!(
        renderers,
        [
            (
                "app://rse/index.html".into(),
                "resolved".into(),
                "index.html".into()
            ),
            (
                "dist/settings.html".into(),
                "resolved".into(),
                "dist/settings.html".into()
            ),
        ]
    );
    let endpoints = serde_json::to_string(&nodes(&result, "endpoint")).unwrap();
    assert!(endpoints.contains("remote.example.com"), "{endpoints}");
    assert!(!endpoints.contains("s3cret"), "{endpoints}");
    assert_eq!(result["summary"]["renderer_pages"]["loaded_pages"], 2);
}

#[test]
fn remote_module_calls_are_process_boundaries() {
    // `@electron/remote` enabled for a window's web contents lets its page reach the main
    // process's objects: each main-side call is a `target` node the file calls.
    let dir = app_tree(&[(
        "main.js",
        r#"const { BrowserWindow } = require("electron");
require("@electron/remote/main").initialize();
const win = new BrowserWindow({ webPreferences: { nodeIntegration: true } });
require("@electron/remote/main").enable(win.webContents);
"#,
    )]);
    let result = analyze(dir.path(), SourceMaps::Declarations);
    assert_eq!(result["summary"]["remote_module_calls"], 2);
    let mut targets: Vec<(String, String)> = nodes(&result, "target")
        .into_iter()
        .map(props)
        .filter(|p| p["kind"] == "remote-module")
        .map(|p| {
            (
                p["api"].as_str().unwrap().to_owned(),
                p["target"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    targets.sort();
    assert_eq!(
        targets,
        [
            (
                "@electron/remote/main.enable".into(),
                "win.webContents".into()
            ),
            ("@electron/remote/main.initialize".into(), String::new()),
        ]
    );
}

#[test]
fn a_web_contents_own_ipc_handler_pairs_with_the_pages_invoke() {
    // `win.webContents.ipc.handle` answers that page's `invoke` as `ipcMain.handle` would;
    // the same channel handled both ways is ambiguous.
    let dir = app_tree(&[
        (
            "main.js",
            r#"const { BrowserWindow, ipcMain } = require("electron");
const win = new BrowserWindow({ webPreferences: { preload: require("path").join(__dirname, "preload.js") } });
win.webContents.ipc.handle("own:get", () => 1);
win.webContents.ipc.handle("both", () => 1);
ipcMain.handle("both", () => 2);
"#,
        ),
        (
            "preload.js",
            r#"const { ipcRenderer } = require("electron");
ipcRenderer.invoke("own:get");
ipcRenderer.invoke("both");
"#,
        ),
    ]);
    let result = analyze(dir.path(), SourceMaps::Declarations);
    let paired: Vec<(&str, &str)> = pairings(&result)
        .map(|p| {
            (
                p["channel"].as_str().unwrap(),
                p["handler_operation"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(paired, [("own:get", "webcontents-ipc-handle")]);
    let ipc = &result["summary"]["ipc"];
    assert_eq!(ipc["paired_renderer_transmissions"], 1, "{ipc}");
    assert_eq!(ipc["ambiguous_renderer_transmissions"], 1, "{ipc}");
}

/// Jitsi's Electron SDK shape: constants bound to strings at a file's top level and exported
/// by name (`module.exports = { A, B: b }`, `exports.C = C`), then destructured where they are
/// used (`const { A, B: bee, IPC: { GET } } = require("./constants")`). Every such channel is
/// literal on both sides, and pairs. A name with a default, a local the file reassigns, and a
/// function's own `exports.X = X` of a local name stay dynamic.
#[test]
fn channels_destructured_from_a_require_of_names_a_file_exports_are_literal() {
    let dir = app_tree(&[
        (
            "constants.js",
            r#"const A = "chan:a";
const b = "chan:b";
const C = "chan:c";
let D = "chan:d";
D = "chan:d2";
module.exports = { A, B: b, D, IPC: { GET: "chan:get" } };
exports.C = C;
function later() { const E = "chan:e"; exports.E = E; }"#,
        ),
        (
            "main.js",
            r#"const { ipcMain } = require("electron");
const { A, B: bee, C, D, E, F = "chan:f", IPC: { GET } } = require("./constants");
ipcMain.handle(A, () => 1);
ipcMain.on(bee, () => 1);
ipcMain.on(C, () => 1);
ipcMain.handle(GET, () => 1);
ipcMain.on(D, () => 1);
ipcMain.on(E, () => 1);
ipcMain.on(F, () => 1);"#,
        ),
        (
            "preload.js",
            r#"const { ipcRenderer } = require("electron");
const { A, B, C } = require("./constants");
const c = require("./constants");
ipcRenderer.invoke(A);
ipcRenderer.send(B);
ipcRenderer.send(C);
ipcRenderer.invoke(c.IPC.GET);"#,
        ),
    ]);
    let result = analyze(dir.path(), SourceMaps::Declarations);
    assert_eq!(
        exact_pairs(&result),
        BTreeSet::from([
            ("chan:a", "handle", "main.js"),
            ("chan:b", "on", "main.js"),
            ("chan:c", "on", "main.js"),
            ("chan:get", "handle", "main.js"),
        ])
    );
    let channels = channel_names(&result);
    assert_eq!(
        channels,
        BTreeSet::from(["chan:a", "chan:b", "chan:c", "chan:get"])
    );
    let ipc = &result["summary"]["ipc"];
    assert_eq!(ipc["dynamic_channel_operations"], 3, "{ipc}");
}

#[test]
fn channels_of_an_enum_a_rollup_chunk_exports_to_commonjs_pair() {
    // Rollup's CommonJS chunks, as electron-redux ships them: the enum is built on the
    // export itself (`exports.E || (exports.E = {})`), and read through the chunk's require.
    let dir = app_tree(&[
        (
            "chunk-1a2b.js",
            r#"'use strict';
exports.IPCEvents = void 0;
(function (IPCEvents) {
  IPCEvents["INIT_STATE"] = "redux.INIT_STATE";
  IPCEvents["ACTION"] = "redux.ACTION";
})(exports.IPCEvents || (exports.IPCEvents = {}));"#,
        ),
        (
            "main.js",
            r#"'use strict';
var electron = require('electron');
var chunk$1 = require('./chunk-1a2b.js');
electron.ipcMain.handle(chunk$1.IPCEvents.INIT_STATE, async () => ({}));
electron.ipcMain.on(chunk$1.IPCEvents.ACTION, (event, action) => {});"#,
        ),
        (
            "preload.js",
            r#"'use strict';
var electron = require('electron');
var chunk$1 = require('./chunk-1a2b.js');
electron.ipcRenderer.invoke(chunk$1.IPCEvents.INIT_STATE);
electron.ipcRenderer.send(chunk$1.IPCEvents.ACTION, {});
electron.ipcRenderer.send(chunk$1.IPCEvents.MISSING, {});"#,
        ),
    ]);
    let result = analyze(dir.path(), SourceMaps::Declarations);
    assert_eq!(
        exact_pairs(&result),
        BTreeSet::from([
            ("redux.ACTION", "on", "main.js"),
            ("redux.INIT_STATE", "handle", "main.js"),
        ])
    );
    // A member the enum does not have stays dynamic.
    assert_eq!(dynamic_ops(&result), 1);
}

#[test]
fn channels_babel_exports_in_a_chained_declaration_pair() {
    // Babel compiles `export const readFileRequest = "ReadFile-Request"` to CommonJS as one
    // chained declaration, `var readFileRequest = exports.readFileRequest = "…"`, and uses the
    // local name (i18next-electron-fs-backend ships its channels so). The name holds the
    // string the assignment assigns, in the file and through its export; a value that is not
    // a string stays dynamic.
    let dir = app_tree(&[
        (
            "channels.js",
            r#""use strict";
Object.defineProperty(exports, "__esModule", { value: true });
var readRequest = exports.readRequest = "ReadFile-Request",
  readResponse = exports.readResponse = "ReadFile-Response",
  computed = exports.computed = makeChannel();
var electron = require("electron");
electron.ipcMain.on(readRequest, (event, args) => {
  event.sender.send(readResponse, {});
});
electron.ipcMain.on(computed, () => {});"#,
        ),
        (
            "preload.js",
            r#"const { ipcRenderer } = require("electron");
const { readRequest } = require("./channels");
ipcRenderer.send(readRequest, { key: 1 });"#,
        ),
    ]);
    let result = analyze(dir.path(), SourceMaps::Declarations);
    assert_eq!(
        exact_pairs(&result),
        BTreeSet::from([("ReadFile-Request", "on", "channels.js")])
    );
    let channels = channel_names(&result);
    assert!(channels.contains("ReadFile-Response"), "{channels:?}");
    assert_eq!(dynamic_ops(&result), 1);
}

#[test]
fn channels_a_file_exports_and_reads_back_through_exports_pair() {
    // TypeScript compiles `export const OPEN = "app:open"; ipcMain.handle(OPEN, …)` to
    // CommonJS as `exports.OPEN = "app:open"; electron_1.ipcMain.handle(exports.OPEN, …)`,
    // after declaring every export `void 0`. A read of `exports.X` (or `module.exports.X`) is
    // the string the file assigns it; an export assigned two different strings, in any two
    // scopes, is neither, and `module.exports.X` after a whole `module.exports = …` is not read.
    let dir = app_tree(&[
        (
            "main.js",
            r#""use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.LATER = exports.TWICE = exports.CLOSE = exports.OPEN = void 0;
const electron_1 = require("electron");
exports.OPEN = "app:open";
exports.CLOSE = "app:close";
exports.TWICE = "app:first";
function reset() { exports.TWICE = "app:second"; }
electron_1.ipcMain.handle(exports.OPEN, () => 1);
electron_1.ipcMain.on(module.exports.CLOSE, () => 1);
electron_1.ipcMain.on(exports.TWICE, () => 1);
electron_1.ipcMain.on(exports.LATER, () => 1);"#,
        ),
        (
            "other.js",
            r#"const { ipcMain } = require("electron");
exports.A = "other:a";
module.exports = { A: "other:b" };
ipcMain.on(module.exports.A, () => 1);
ipcMain.on(exports.A, () => 1);"#,
        ),
        (
            "preload.js",
            r#"const { ipcRenderer } = require("electron");
ipcRenderer.invoke("app:open");
ipcRenderer.send("app:close");"#,
        ),
    ]);
    let result = analyze(dir.path(), SourceMaps::Declarations);
    assert_eq!(
        exact_pairs(&result),
        BTreeSet::from([
            ("app:close", "on", "main.js"),
            ("app:open", "handle", "main.js"),
        ])
    );
    let channels = channel_names(&result);
    assert_eq!(
        channels,
        BTreeSet::from(["app:close", "app:open", "other:a"]),
        "{channels:?}"
    );
    // `exports.TWICE`, `exports.LATER` (never given a string) and `module.exports.A`.
    assert_eq!(dynamic_ops(&result), 3);
}

#[test]
fn channels_and_helpers_a_barrel_re_exports_are_read_from_the_file_that_declares_them() {
    // A shared folder's index re-exports its modules, as TypeScript apps write
    // `shared/index.ts`: whole (`export *`, and `__exportStar` as `tsc` compiles it to
    // CommonJS) and by name (`export { GET as FETCH } from`), one hop after another. A name
    // the barrel declares itself hides a module's it re-exports whole, and `default` is never
    // re-exported whole.
    let dir = app_tree(&[
        (
            "shared/channels.js",
            r#"export const GET = "settings:get";
export const SET = "settings:set";
export const HIDDEN = "settings:hidden";
export default "settings:default";"#,
        ),
        (
            "shared/index.js",
            r#"export * from "./channels";
export { GET as FETCH } from "./channels";
export const HIDDEN = compute();"#,
        ),
        (
            "common/index.js",
            r#""use strict";
var __exportStar = (this && this.__exportStar) || function (m, exports) {};
Object.defineProperty(exports, "__esModule", { value: true });
__exportStar(require("./ipc"), exports);
__exportStar(require("../shared"), exports);"#,
        ),
        (
            "common/ipc.js",
            r#""use strict";
const { ipcMain } = require("electron");
exports.handle = function (channel, fn) { ipcMain.handle(channel, fn); };"#,
        ),
        (
            "main.js",
            r#"import { ipcMain } from "electron";
import { FETCH, HIDDEN } from "./shared";
import defaultChannel from "./shared/index.js";
import * as shared from "./shared/index.js";
const common = require("./common");
ipcMain.on(FETCH, () => 1);
common.handle(common.SET, () => 2);
ipcMain.on(HIDDEN, () => 3);
ipcMain.on(defaultChannel, () => 4);
ipcMain.on(shared.GET + ":x", () => 5);"#,
        ),
        (
            "preload.js",
            r#"import { ipcRenderer } from "electron";
import { GET, SET } from "./shared";
ipcRenderer.send(GET);
ipcRenderer.invoke(SET);"#,
        ),
    ]);
    let result = analyze(dir.path(), SourceMaps::Declarations);
    assert_eq!(
        exact_pairs(&result),
        BTreeSet::from([
            ("settings:get", "on", "main.js"),
            ("settings:set", "handle", "main.js"),
        ])
    );
    // Dynamic: the helper's own `ipcMain.handle(channel, …)`, the barrel's own `HIDDEN`,
    // `default`, and a concatenation.
    let ipc = &result["summary"]["ipc"];
    assert_eq!(ipc["dynamic_channel_operations"], 4, "{ipc}");
    assert_eq!(ipc["main_handlers"], 6, "{ipc}");
}

#[test]
fn re_exports_are_followed_four_files_deep_and_through_cycles_without_end() {
    // `near` is four re-exports past the barrel the renderer imports, `far` five; `loop`
    // re-exports itself through another barrel, and the lookup of a name it does not have
    // ends.
    let mut files: Vec<(String, String)> = (1..=4)
        .map(|i| {
            (
                format!("shared/level{i}.js"),
                format!("export * from \"./level{}\";", i + 1),
            )
        })
        .collect();
    files.push((
        "shared/level5.js".into(),
        r#"export * from "./level6"; export const near = "chan:near";"#.into(),
    ));
    files.push((
        "shared/level6.js".into(),
        r#"export const far = "chan:far";"#.into(),
    ));
    files.push((
        "shared/loop.js".into(),
        r#"export * from "./loop2";"#.into(),
    ));
    files.push((
        "shared/loop2.js".into(),
        r#"export * from "./loop";"#.into(),
    ));
    files.push((
        "main.js".into(),
        r#"import { ipcMain } from "electron";
import { near, far } from "./shared/level1";
import { missing } from "./shared/loop";
ipcMain.on(near, () => 1);
ipcMain.on(far, () => 2);
ipcMain.on(missing, () => 3);"#
            .into(),
    ));
    let borrowed: Vec<(&str, &str)> = files
        .iter()
        .map(|(p, t)| (p.as_str(), t.as_str()))
        .collect();
    let dir = app_tree(&borrowed);
    let result = analyze(dir.path(), SourceMaps::Declarations);
    let channels = channel_names(&result);
    assert_eq!(channels, BTreeSet::from(["chan:near"]));
    assert_eq!(dynamic_ops(&result), 2);
}

#[test]
fn calls_of_an_ipc_helper_another_file_exports_are_its_operations() {
    // The helpers live in modules of their own, as `tsc` compiles them (CommonJS) and as ES
    // modules ship; the callers import them by name, through a namespace, or as `tsc` calls
    // them (`(0, ipc_1.handle)(…)`), with literal channels and one read off another module.
    let dir = app_tree(&[
        (
            "ipc.js",
            r#""use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.handle = handle;
exports.listen = void 0;
const electron_1 = require("electron");
function handle(channel, fn) { electron_1.ipcMain.handle(channel, (_e, ...a) => fn(...a)); }
const listen = (channel, fn) => electron_1.ipcMain.on(channel, fn);
exports.listen = listen;
function unrelated(name) { return name; }
exports.unrelated = unrelated;
exports.inPlace = function (e, t) { electron_1.ipcMain.on(e, t); };
"#,
        ),
        ("channels.js", r#"exports.IPC = { SAVE: "settings:save" };"#),
        (
            "main.js",
            r#"const ipc_1 = require("./ipc");
const channels_1 = require("./channels");
(0, ipc_1.handle)("user:get", () => 1);
ipc_1.listen("log:line", onLine);
(0, ipc_1.handle)(channels_1.IPC.SAVE, () => 2);
(0, ipc_1.unrelated)("not-a-channel");
ipc_1.inPlace("in:place", onLine);
function onLine() {}
"#,
        ),
        (
            "bridge.mjs",
            r#"import { ipcRenderer } from "electron";
export function invoke(channel, ...args) { return ipcRenderer.invoke(channel, ...args); }
export const send = (channel, ...args) => ipcRenderer.send(channel, ...args);
"#,
        ),
        (
            "preload.mjs",
            r#"import { invoke, send as post } from "./bridge.mjs";
import * as bridge from "./bridge.mjs";
invoke("user:get");
post("log:line", "x");
bridge.invoke("settings:save");
post("in:place");
"#,
        ),
    ]);
    let result = analyze(dir.path(), SourceMaps::Declarations);
    assert_eq!(
        exact_pairs(&result),
        BTreeSet::from([
            ("in:place", "on", "main.js"),
            ("log:line", "on", "main.js"),
            ("settings:save", "handle", "main.js"),
            ("user:get", "handle", "main.js"),
        ])
    );
    // Each operation names the function it was made through; the helpers' own operations
    // stay dynamic, and a call of a function that forwards nothing is none.
    let vias: BTreeSet<(&str, &str)> = result["graph"]["edges"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| &e["properties"])
        .filter(|p| p["pairing_basis"].is_null() && p["via"].is_string())
        .map(|p| {
            (
                p["channel"].as_str().unwrap_or(""),
                p["via"].as_str().unwrap(),
            )
        })
        .collect();
    for expected in [
        ("user:get", "ipc_1.handle"),
        ("log:line", "ipc_1.listen"),
        ("settings:save", "ipc_1.handle"),
        ("in:place", "ipc_1.inPlace"),
        ("user:get", "invoke"),
        ("log:line", "post"),
        ("settings:save", "bridge.invoke"),
    ] {
        assert!(vias.contains(&expected), "{expected:?} in {vias:?}");
    }
    let ipc = &result["summary"]["ipc"];
    assert_eq!(ipc["paired_renderer_transmissions"], 4, "{ipc}");
    assert!(!vias.iter().any(|(c, _)| *c == "not-a-channel"), "{vias:?}");
}

#[test]
fn methods_of_ipc_helper_classes_are_their_operations_here_and_across_modules() {
    // A package exports classes whose methods forward a channel (as
    // `@electron-toolkit/typed-ipc` does, reached through its `exports` map); the main process
    // makes an instance and calls it. A renderer bundle declares such a class itself,
    // minified, and calls an instance of it; the page never binds a name to Electron, it goes
    // through `window.electron.ipcRenderer`.
    let dir = app_tree(&[
        (
            "node_modules/typed/package.json",
            r#"{"name":"typed","exports":{"./main":{"import":"./dist/main.mjs","require":"./dist/main.cjs"}}}"#,
        ),
        (
            "node_modules/typed/dist/main.cjs",
            r#"'use strict';
var electron = require('electron');
class Listener {
    constructor() { this.channels = []; }
    on(channel, listener) { this.channels.push(channel); electron.ipcMain.on(channel, listener); }
    handle(channel, handler) { electron.ipcMain.handle(channel, handler); }
    size() { return this.channels.length; }
}
exports.Listener = Listener;
"#,
        ),
        (
            "main.js",
            r#"const typed_1 = require("typed/main");
const ipc = new typed_1.Listener();
ipc.handle("say-hello", () => "hello");
ipc.on("ping", (e, arg) => {});
ipc.size("not-a-channel");
function other(ipc) { ipc.handle("shadowed", () => 1); }
"#,
        ),
        (
            "renderer.js",
            r#"class s{send(e,...n){window.electron.ipcRenderer.send(e,...n)}invoke(e,...n){return window.electron.ipcRenderer.invoke(e,...n)}}const o=new s;o.invoke("say-hello");o.send("ping",1);"#,
        ),
    ]);
    let result = analyze(dir.path(), SourceMaps::Declarations);
    let paired = paired_by(&result, ["channel", "via", "handler_path"]);
    assert_eq!(
        paired,
        BTreeSet::from([
            ("ping", "o.send", "main.js"),
            ("say-hello", "o.invoke", "main.js"),
        ])
    );
    let channels = edge_channels(&result);
    assert!(!channels.contains("not-a-channel"), "{channels:?}");
    assert!(!channels.contains("shadowed"), "{channels:?}");
    assert_eq!(result["summary"]["ipc"]["paired_renderer_transmissions"], 2);
}

#[test]
fn an_instance_of_an_ipc_helper_class_another_module_exports_is_called_through() {
    // Apps keep one IPC manager and export its instance (electron-fiddle's
    // `ipcRendererManager`): an ES module's `export const`, `tsc`'s `exports.x = new C()`,
    // `module.exports = new C()` and `export default new C()`; each page calls a method of
    // the instance it imports. A minified page makes its own instance of a class written in
    // place, `new class {…}`, as terser writes a class made once.
    let dir = app_tree(&[
        (
            "main.js",
            r#"const { ipcMain, BrowserWindow } = require("electron");
new BrowserWindow({});
ipcMain.on("a:esm", () => 1);
ipcMain.handle("a:cjs", () => 1);
ipcMain.on("a:whole", () => 1);
ipcMain.handle("a:default", () => 1);
ipcMain.on("a:inplace", () => 1);
"#,
        ),
        (
            "esm/ipc.mjs",
            r#"import { ipcRenderer } from "electron";
class Manager {
  send(channel, ...args) { ipcRenderer.send(channel, ...args); }
  size() { return 1; }
}
export const manager = new Manager();
"#,
        ),
        (
            "esm/page.mjs",
            r#"import { manager } from "./ipc.mjs";
manager.send("a:esm", 1);
manager.size("not-a-channel");
"#,
        ),
        (
            "cjs/ipc.js",
            r#""use strict";
const electron_1 = require("electron");
class Manager { invoke(channel, ...args) { return electron_1.ipcRenderer.invoke(channel, ...args); } }
exports.manager = new Manager();
"#,
        ),
        (
            "cjs/page.js",
            r#"const ipc_1 = require("./ipc");
ipc_1.manager.invoke("a:cjs");
"#,
        ),
        (
            "whole/ipc.js",
            r#"const { ipcRenderer } = require("electron");
module.exports = new class { send(channel) { ipcRenderer.send(channel); } }();
"#,
        ),
        (
            "whole/page.js",
            r#"const ipc = require("./ipc");
ipc.send("a:whole");
"#,
        ),
        (
            "default/ipc.mjs",
            r#"import { ipcRenderer } from "electron";
class Manager { invoke(channel) { return ipcRenderer.invoke(channel); } }
export default new Manager();
"#,
        ),
        (
            "default/page.mjs",
            r#"import ipc from "./ipc.mjs";
ipc.invoke("a:default");
"#,
        ),
        (
            "inplace.js",
            r#"const e=require("electron"),s=new class{send(n,...r){e.ipcRenderer.send(n,...r)}};s.send("a:inplace");"#,
        ),
    ]);
    let result = analyze(dir.path(), SourceMaps::Declarations);
    let paired = paired_by(&result, ["channel", "via", "handler_path"]);
    assert_eq!(
        paired,
        BTreeSet::from([
            ("a:cjs", "ipc_1.manager.invoke", "main.js"),
            ("a:default", "ipc.invoke", "main.js"),
            ("a:esm", "manager.send", "main.js"),
            ("a:inplace", "s.send", "main.js"),
            ("a:whole", "ipc.send", "main.js"),
        ])
    );
    let channels = edge_channels(&result);
    assert!(!channels.contains("not-a-channel"), "{channels:?}");
    assert_eq!(result["summary"]["ipc"]["paired_renderer_transmissions"], 5);
}

#[test]
fn a_loop_over_a_list_another_module_exports_is_one_operation_an_item() {
    // electron-fiddle registers its listeners over a list of enum members another module
    // exports: `ipcMainEvents.forEach((name) => ipcMain.on(name, …))`; `tsc` writes the list
    // as `exports.LIST = [exports.A, …]`. Each item is an operation read through the loop's
    // variable; a loop over a list of unknown items stays one dynamic operation.
    let dir = app_tree(&[
        (
            "events.ts",
            r#"export enum Events { A = "ev:a", B = "ev:b" }
export const MAIN_EVENTS = [Events.A, Events.B];
export const UNKNOWN = [Events.A, compute()];
"#,
        ),
        (
            "cjs-events.js",
            r#"exports.C = "ev:c";
exports.LIST = [exports.C, "ev:d"];
"#,
        ),
        (
            "main.ts",
            r#"import { ipcMain, BrowserWindow } from "electron";
import { MAIN_EVENTS, UNKNOWN } from "./events";
const cjs = require("./cjs-events");
new BrowserWindow({});
MAIN_EVENTS.forEach((name) => ipcMain.on(name, () => 1));
for (const channel of cjs.LIST) ipcMain.handle(channel, () => 2);
UNKNOWN.forEach((name) => ipcMain.on(name, () => 3));
"#,
        ),
        (
            "page.ts",
            r#"import { ipcRenderer } from "electron";
import { Events } from "./events";
ipcRenderer.send(Events.A);
ipcRenderer.send(Events.B);
ipcRenderer.invoke("ev:c");
ipcRenderer.invoke("ev:d");
"#,
        ),
    ]);
    let result = analyze(dir.path(), SourceMaps::Declarations);
    assert_eq!(
        exact_pairs(&result),
        BTreeSet::from([
            ("ev:a", "on", "main.ts"),
            ("ev:b", "on", "main.ts"),
            ("ev:c", "handle", "main.ts"),
            ("ev:d", "handle", "main.ts"),
        ])
    );
    let ipc = &result["summary"]["ipc"];
    assert_eq!(ipc["paired_renderer_transmissions"], 4, "{ipc}");
    // `UNKNOWN`'s loop: one operation, dynamic.
    assert_eq!(ipc["dynamic_channel_operations"], 1, "{ipc}");
}

#[test]
fn loops_over_imported_lists_become_at_most_4096_operations_a_file() {
    // 17 loops over a list of 256 channels would be 4,352 operations; a file gets 4,096,
    // and the loop past the bound stays one dynamic operation.
    let items: Vec<String> = (0..256).map(|i| format!("\"c:{i}\"")).collect();
    let list = format!("export const LIST = [{}];\n", items.join(", "));
    let loops: String = (0..17)
        .map(|_| "LIST.forEach((name) => ipcMain.on(name, () => 1));\n")
        .collect();
    let main = format!(
        "import {{ ipcMain, BrowserWindow }} from \"electron\";\nimport {{ LIST }} from \"./list\";\nnew BrowserWindow({{}});\n{loops}"
    );
    let dir = app_tree(&[("list.ts", list.as_str()), ("main.ts", main.as_str())]);
    let result = analyze(dir.path(), SourceMaps::Declarations);
    let ipc = &result["summary"]["ipc"];
    assert_eq!(ipc["operations"], 4096 + 1, "{ipc}");
    assert_eq!(ipc["dynamic_channel_operations"], 1, "{ipc}");
}

#[test]
fn a_name_bound_to_a_pages_web_contents_sends_to_the_page() {
    // `const wc = win.webContents; wc.send(…)`, and electron-fiddle's main-side helper, whose
    // target is `target || getOrCreateMainWindow().webContents`; a name bound to another
    // member of the window is no WebContents.
    let dir = app_tree(&[
        (
            "main.js",
            r#"const { BrowserWindow } = require("electron");
const win = new BrowserWindow({});
const wc = win.webContents;
wc.send("to:page", 1);
function send(channel, target) {
  const _target = target || BrowserWindow.getFocusedWindow().webContents;
  _target.send(channel);
}
send("via:helper");
const other = win.other;
other.send("not:ipc");
const literal = "x" || win.webContents;
literal.send("not:either");
"#,
        ),
        (
            "page.js",
            r#"const { ipcRenderer } = require("electron");
ipcRenderer.on("to:page", () => 1);
ipcRenderer.on("via:helper", () => 1);
"#,
        ),
    ]);
    let result = analyze(dir.path(), SourceMaps::Declarations);
    let sends: BTreeSet<(&str, &str)> = result["graph"]["edges"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| &e["properties"])
        .filter(|p| p["operation"] == "webcontents-send")
        .filter_map(|p| Some((p["channel"].as_str()?, p["via"].as_str().unwrap_or("-"))))
        .collect();
    assert_eq!(
        sends,
        BTreeSet::from([("to:page", "-"), ("via:helper", "send")])
    );
    let to_pages = &result["summary"]["ipc"]["main_to_renderer"];
    assert_eq!(to_pages["channels_a_page_listens_on"], 2, "{to_pages}");
}

/// A page answers the main process through the `sender` of the event its `ipcRenderer`
/// listener receives (Theia's preload answers `openUrl` and `aboutToClose` so): a message
/// to the main process, which pairs with the main-side listener of its channel, and not a
/// message to pages. The main process reaches pages through every WebContents Electron's
/// module lists or looks up, and through an event's sender in a file whose Electron comes
/// through a module that re-exports it.
#[test]
fn pages_answer_through_an_events_sender_and_main_reaches_pages_electron_lists() {
    let dir = app_tree(&[
        (
            "preload.js",
            r#"const { ipcRenderer } = require("electron");
ipcRenderer.on("about-to-close", (event) => { event.sender.send("close-ack"); });
const onLayout = (e, layout) => { e.sender.send("layout-ack", layout); };
ipcRenderer.on("layout-changed", onLayout);
ipcRenderer.on("popup-closed", () => {});
"#,
        ),
        (
            "main.js",
            r#"const electron_1 = require("./shared/electron");
electron_1.ipcMain.on("close-ack", () => {});
electron_1.ipcMain.on("layout-ack", () => {});
electron_1.ipcMain.handle("open-popup", (event) => {
  menu.popup({ callback: () => event.sender.send("popup-closed") });
});
for (const wc of electron_1.webContents.getAllWebContents()) wc.send("about-to-close");
electron_1.webContents.getFocusedWebContents()?.send("layout-changed");
"#,
        ),
        (
            "shared/electron.js",
            r#"module.exports = require("electron");"#,
        ),
    ]);
    let result = analyze(dir.path(), SourceMaps::Declarations);
    assert_eq!(
        exact_pairs(&result),
        BTreeSet::from([
            ("close-ack", "on", "main.js"),
            ("layout-ack", "on", "main.js")
        ])
    );
    let to_pages = &result["summary"]["ipc"]["main_to_renderer"];
    assert_eq!(to_pages["literal_channels"], 3, "{to_pages}");
    assert_eq!(to_pages["channels_a_page_listens_on"], 3, "{to_pages}");
}

/// A service worker's main-process object (Electron 36 on), as @electron/devtron keeps it:
/// `await ses.serviceWorkers.startWorkerForScope(url)` assigned, in a function, to a name
/// declared without a value around it. Its `ipc` receives what the worker's preload sends
/// (a registration the preload's `send` pairs with) and its `send` messages the preload; a
/// parameter of the same name is not it.
#[test]
fn a_service_workers_ipc_and_send_are_the_main_side_of_its_preload() {
    let dir = app_tree(&[
        (
            "main.js",
            r#"const { app, session, BrowserWindow } = require("electron");
let worker;
new BrowserWindow({});
async function start(ses, url) {
  const sw = await ses.serviceWorkers.startWorkerForScope(url);
  worker = sw;
  sw.ipc.handle("sw:ready", () => 1);
}
function events() {
  worker.send("sw:get-events");
  worker.ipc.once("sw:events", () => 1);
}
function track({ worker }) { worker.send("not:seen"); }
app.whenReady().then(() => {
  const found = session.defaultSession.serviceWorkers.getWorkerFromVersionID(1);
  found.ipc.on("sw:found", () => 1);
});
"#,
        ),
        (
            "sw-preload.js",
            r#"const { ipcRenderer } = require("electron");
ipcRenderer.on("sw:get-events", () => ipcRenderer.send("sw:events", []));
ipcRenderer.invoke("sw:ready");
ipcRenderer.send("sw:found");
"#,
        ),
    ]);
    let result = analyze(dir.path(), SourceMaps::Declarations);
    let ipc = &result["summary"]["ipc"];
    assert_eq!(ipc["paired_renderer_transmissions"], 3, "{ipc}");
    assert_eq!(ipc["unpaired_literal_renderer_transmissions"], 0, "{ipc}");
    let registrations: BTreeSet<(&str, &str)> = pairings(&result)
        .filter_map(|p| Some((p["channel"].as_str()?, p["handler_operation"].as_str()?)))
        .collect();
    assert_eq!(
        registrations,
        BTreeSet::from([
            ("sw:events", "service-worker-ipc-once"),
            ("sw:found", "service-worker-ipc-on"),
            ("sw:ready", "service-worker-ipc-handle"),
        ])
    );
    let sends: Vec<&str> = result["graph"]["edges"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| &e["properties"])
        .filter(|p| p["operation"] == "service-worker-send")
        .filter_map(|p| p["channel"].as_str())
        .collect();
    assert_eq!(sends, ["sw:get-events"]);
}

#[test]
fn members_and_helpers_that_spread_their_rest_parameter_forward_its_first_as_the_channel() {
    // `invoke: (...args) => ipcRenderer.invoke(...args)`, as many preloads expose
    // `ipcRenderer`: the page's first argument is the channel. The same for a helper of the
    // main process.
    let dir = app_tree(&[
        (
            "main.js",
            r#"const { ipcMain, BrowserWindow } = require("electron");
const path = require("path");
new BrowserWindow({ webPreferences: { preload: path.join(__dirname, "preload.js") } });
const handle = (...a) => ipcMain.handle(...a);
handle("db:query", () => 1);
ipcMain.on("log", () => 1);
"#,
        ),
        (
            "preload.js",
            r#"const { contextBridge, ipcRenderer } = require("electron");
contextBridge.exposeInMainWorld("electron", {
  invoke: (...args) => ipcRenderer.invoke(...args),
  send(...args) { ipcRenderer.send(...args); },
  sendArray(...args) { ipcRenderer.send(args); },
});
"#,
        ),
        (
            "renderer.js",
            r#"window.electron.invoke("db:query", 1);
window.electron.send("log", "x");
window.electron.sendArray("log");
"#,
        ),
    ]);
    let result = analyze(dir.path(), SourceMaps::Declarations);
    let paired = paired_by(&result, ["channel", "via", "handler_operation"]);
    // A rest parameter passed whole (an array, not spread) is not a channel the page names.
    assert_eq!(
        paired,
        BTreeSet::from([
            ("db:query", "window.electron.invoke", "handle"),
            ("log", "window.electron.send", "on"),
        ])
    );
    // The main process's handler was registered through its helper.
    assert!(
        result["graph"]["edges"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| &e["properties"])
            .any(|p| p["channel"] == "db:query" && p["via"] == "handle" && p["side"] == "main"),
        "no handler through the helper"
    );
}

/// vite-plugin-electron's scaffold (`npm create electron-vite`) writes its preload's
/// members as `send(...args) { const [channel, ...omit] = args; return
/// ipcRenderer.send(channel, ...omit) }`: the first item of the rest parameter is the page's
/// first argument, a forwarded channel as a spread of it is. The first item of a plain
/// parameter, or a later item, is not.
#[test]
fn a_channel_destructured_first_from_a_rest_parameter_is_forwarded() {
    let dir = app_tree(&[
        (
            "main.js",
            r#"const { ipcMain, BrowserWindow } = require("electron");
new BrowserWindow({ webPreferences: { preload: __dirname + "/preload.ts" } });
ipcMain.handle("db:query", () => 1);
ipcMain.on("log", () => 1);
ipcMain.on("plain", () => 1);
ipcMain.on("second", () => 1);
"#,
        ),
        (
            "preload.ts",
            r#"import { ipcRenderer, contextBridge } from "electron";
contextBridge.exposeInMainWorld("bridge", {
  on(...args: Parameters<typeof ipcRenderer.on>) {
    const [channel, listener] = args;
    return ipcRenderer.on(channel, (event, ...rest) => listener(event, ...rest));
  },
  send(...args: Parameters<typeof ipcRenderer.send>) {
    const [channel, ...omit] = args;
    return ipcRenderer.send(channel, ...omit);
  },
  invoke(...args: Parameters<typeof ipcRenderer.invoke>) {
    const [channel, ...omit] = args;
    return ipcRenderer.invoke(channel, ...omit);
  },
  plain(list: string[]) {
    const [channel] = list;
    return ipcRenderer.send(channel);
  },
  second(...args: string[]) {
    const [first, channel] = args;
    return ipcRenderer.send(channel, first);
  },
});
"#,
        ),
        (
            "renderer.js",
            r#"window.bridge.invoke("db:query", 1);
window.bridge.send("log", "x");
window.bridge.plain("plain");
window.bridge.second("x", "second");
"#,
        ),
    ]);
    let result = analyze(dir.path(), SourceMaps::Declarations);
    let paired = paired_by(&result, ["channel", "via", "handler_operation"]);
    assert_eq!(
        paired,
        BTreeSet::from([
            ("db:query", "window.bridge.invoke", "handle"),
            ("log", "window.bridge.send", "on"),
        ])
    );
    let members: BTreeSet<&str> = result["summary"]["bridge_channel_forwarders"]["items"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|f| f["member"].as_str())
        .collect();
    assert_eq!(members, BTreeSet::from(["invoke", "on", "send"]));
}

#[test]
fn a_bridge_literal_that_spreads_another_modules_api_has_its_members() {
    // `{ ...electronAPI, platform }`: the spread API is read where it is written, and the
    // page's call through one of its forwarders pairs.
    let dir = app_tree(&[
        (
            "main.js",
            r#"const { ipcMain } = require("electron"); ipcMain.handle("ping", () => 1);"#,
        ),
        (
            "api.js",
            r#"const { ipcRenderer } = require("electron");
exports.electronAPI = { invoke: (channel, ...a) => ipcRenderer.invoke(channel, ...a), versions: {} };
"#,
        ),
        (
            "preload.js",
            r#"const { contextBridge } = require("electron");
const api_1 = require("./api");
const local = require("./missing");
contextBridge.exposeInMainWorld("electron", { ...api_1.electronAPI, platform: "x", ...local.other });
"#,
        ),
        ("renderer.js", r#"window.electron.invoke("ping");"#),
    ]);
    let result = analyze(dir.path(), SourceMaps::Declarations);
    let bridge = nodes(&result, "context-bridge-api");
    let p = props(bridge[0]);
    assert_eq!(
        p["members"],
        json!(["invoke", "platform", "versions"]),
        "{p}"
    );
    // The spread of a module that is not there stays unknown.
    assert_eq!(p["unknown_members"], 1, "{p}");
    let paired = paired_by(&result, ["channel", "via", "handler_path"]);
    assert_eq!(
        paired,
        BTreeSet::from([("ping", "window.electron.invoke", "main.js")])
    );
}

/// electron-log's shape: a class another file exports in place (`module.exports = Api`)
/// takes Electron through its constructor and forwards each method's channel through an
/// optional call (`this.electron.ipcMain?.on(channel, …)`); the main process constructs it
/// from the whole module and registers through its methods. Those registrations are the
/// channels the preload's literal sends pair with.
#[test]
fn a_class_exported_in_place_registers_the_channels_its_callers_pass() {
    let dir = app_tree(&[
        (
            "main.js",
            r#"const electron = require("electron");
const Api = require("./lib/Api");
const api = new Api({ electron });
api.onIpc("__LOG__", (_, message) => console.log(message));
api.onIpcInvoke("__LOG__", () => ({ level: "info" }));"#,
        ),
        (
            "lib/Api.js",
            r#"class Api {
  constructor({ electron } = {}) { this.electron = electron; }
  onIpc(channel, listener) { this.electron.ipcMain?.on(channel, listener); }
  onIpcInvoke(channel, listener) { this.electron.ipcMain?.handle?.(channel, listener); }
}
module.exports = Api;"#,
        ),
        (
            "preload.js",
            r#"const { ipcRenderer } = require("electron");
ipcRenderer.send("__LOG__", { text: "hi" });
ipcRenderer.invoke("__LOG__", { cmd: "getOptions" });
ipcRenderer.send("__NOBODY__");"#,
        ),
    ]);
    let result = analyze(dir.path(), SourceMaps::Declarations);
    let ipc = &result["summary"]["ipc"];
    assert_eq!(ipc["paired_renderer_transmissions"], 2);
    assert_eq!(ipc["unpaired_literal_renderer_transmissions"], 1);
    let paired = paired_by(&result, ["channel", "handler_path", "handler_operation"]);
    assert_eq!(
        paired,
        BTreeSet::from([
            ("__LOG__", "main.js", "handle"),
            ("__LOG__", "main.js", "on")
        ])
    );
}

/// electron-fiddle's npm package: the root `package.json` names a main its build writes and
/// the package does not ship, and a test fixture deeper down is an Electron app of its own.
/// Nothing read says the root's main is no Electron main, so the root is the app and its role
/// is not found; a root whose missing main is `index.js` (what `npm init` writes) says
/// nothing, and the app below it is the app.
#[test]
fn a_package_whose_main_is_not_shipped_stays_the_app_over_a_deeper_one() {
    let fixture = (
        "tests/fixtures/quick-start/main.js",
        r#"const { app, BrowserWindow } = require("electron"); app.whenReady().then(() => new BrowserWindow({}));"#,
    );
    let fixture_package = (
        "tests/fixtures/quick-start/package.json",
        r#"{"name":"quick-start","main":"main.js"}"#,
    );
    for (root, expected) in [
        (
            r#"{"name":"fiddle","main":"./dist/src/main/main"}"#,
            ("package.json", "not-found"),
        ),
        (
            r#"{"name":"workspace","main":"index.js"}"#,
            ("tests/fixtures/quick-start/package.json", "resolved"),
        ),
    ] {
        let dir = app_tree(&[("package.json", root), fixture, fixture_package]);
        let result = analyze(dir.path(), SourceMaps::Declarations);
        let mains: Vec<(&str, &str)> = nodes(&result, "electron-main")
            .iter()
            .map(|n| {
                let p = props(n);
                (
                    p["anchor_path"].as_str().unwrap(),
                    p["resolution_status"].as_str().unwrap(),
                )
            })
            .collect();
        assert_eq!(mains, [expected], "{root}");
    }
}

/// A library that declares its entrypoints only in an `exports` map (an ES-module-only
/// package has no `main`): its package node `loads` each file the map names, with the
/// subpaths and conditions that name it; type declarations and `*` patterns name no file
/// loaded.
#[test]
fn a_packages_exports_map_names_the_files_it_loads() {
    let dir = app_tree(&[
        (
            "package.json",
            r#"{"name":"util","type":"module","exports":{".":{"types":"./dist/index.d.ts","default":"./dist/index.js"},"./main":{"import":"./dist/main.js","require":"./dist/main.cjs"},"./node":"./dist/main.js","./extra/*":"./dist/extra/*.js"}}"#,
        ),
        ("dist/index.js", "export const a = 1;"),
        ("dist/index.d.ts", "export declare const a: number;"),
        ("dist/main.js", "export const b = 2;"),
        ("dist/main.cjs", "exports.b = 2;"),
        ("dist/extra/x.js", "export const c = 3;"),
    ]);
    let result = analyze(dir.path(), SourceMaps::Declarations);
    let loads: BTreeSet<(&str, String)> = result["graph"]["edges"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["relation"] == "loads" && e["properties"]["field"] == "exports")
        .map(|e| {
            let p = &e["properties"];
            (
                p["resolved_path"].as_str().unwrap(),
                p["conditions"].to_string(),
            )
        })
        .collect();
    assert_eq!(
        loads,
        BTreeSet::from([
            ("dist/index.js", r#"[".#default"]"#.to_owned()),
            ("dist/main.cjs", r#"["./main#require"]"#.to_owned()),
            ("dist/main.js", r#"["./main#import","./node"]"#.to_owned()),
        ])
    );
}

/// nativefier's layout: a command-line tool's `package.json` at the root, and below it the
/// Electron app it ships, with a `package.json` whose `main` requires Electron. The app's
/// is the one that names the Electron main entrypoint; the tool's `main` is no Electron
/// process. The app's windows take their preferences and preload from a helper function's
/// return, spread into their options.
#[test]
fn the_package_whose_main_uses_electron_is_the_app_and_window_helpers_are_read() {
    let dir = tempfile::tempdir().unwrap();
    let files: &[(&str, &str)] = &[
        ("package.json", r#"{"name":"tool","main":"lib/cli.js"}"#),
        (
            "lib/cli.js",
            r#"const fs = require("fs"); module.exports = () => fs.existsSync("x");"#,
        ),
        (
            "app/package.json",
            r#"{"name":"shell","main":"lib/main.js"}"#,
        ),
        (
            "app/lib/main.js",
            r#"const electron_1 = require("electron");
const path_1 = require("path");
function createMainWindow(options) {
  const mainWindow = new electron_1.BrowserWindow({ width: 1280, ...getDefaultWindowOptions(options) });
  return mainWindow;
}
function getDefaultWindowOptions(options) {
  const defaultOptions = {
    webPreferences: { nodeIntegration: false, contextIsolation: false, preload: path_1.default.join(__dirname, "preload.js") },
    ...options.browserwindowOptions,
  };
  return defaultOptions;
}
exports.createMainWindow = createMainWindow;"#,
        ),
        (
            "app/lib/preload.js",
            r#"const { ipcRenderer } = require("electron"); ipcRenderer.send("ready");"#,
        ),
    ];
    let files: Vec<(&str, Vec<u8>)> = files
        .iter()
        .map(|(p, t)| (*p, t.as_bytes().to_vec()))
        .collect();
    write_tree(dir.path(), &files);
    let result = analyze(dir.path(), SourceMaps::Declarations);
    let mains: Vec<&Value> = nodes(&result, "electron-main");
    assert_eq!(mains.len(), 1);
    assert_eq!(props(mains[0])["resolved_path"], "app/lib/main.js");
    assert_eq!(props(mains[0])["anchor_path"], "app/package.json");

    let windows = nodes(&result, "browser-window");
    assert_eq!(windows.len(), 1);
    let window = props(windows[0]);
    assert_eq!(window["web_preferences_status"], "object-literal");
    assert_eq!(window["preload_path"], "app/lib/preload.js");
    let prefs: BTreeMap<&str, &Value> = window["web_preferences"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| (p["name"].as_str().unwrap(), &p["value"]["value"]))
        .collect();
    assert_eq!(
        prefs.get("contextIsolation"),
        Some(&&json!(false)),
        "{prefs:?}"
    );
    assert_eq!(
        prefs.get("nodeIntegration"),
        Some(&&json!(false)),
        "{prefs:?}"
    );
    let sources: Vec<(&str, &str)> = window["option_sources"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            (
                s["expression"].as_str().unwrap(),
                s["resolution"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        sources,
        [
            ("getDefaultWindowOptions(options)", "function-return"),
            ("options.browserwindowOptions", "unresolved"),
        ]
    );
    // The window loads the preload the helper names.
    let preload = nodes(&result, "electron-preload");
    assert_eq!(preload.len(), 1);
    let loads = result["graph"]["edges"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| {
            e["relation"] == "loads"
                && e["source_node_id"] == windows[0]["node_id"]
                && e["target_node_id"] == preload[0]["node_id"]
        })
        .count();
    assert_eq!(loads, 1);
}

/// An application that ships its TypeScript sources beside the build (Caprine's `source/`
/// and `dist-js/`) registers every channel twice. A transmission the main entrypoint reaches
/// (through the window's preload, or the page the window loads) pairs with the one
/// registration the entrypoint also reaches, at medium confidence and counted apart. A message
/// sent to a channel two reached files listen on runs both listeners, so it pairs with each;
/// an invoke two reached files handle stays ambiguous. What nothing reached tells apart pairs
/// with the one handler written in its own language (the sources' own transmission with the
/// sources' handler), or stays ambiguous when several are.
#[test]
fn of_several_handlers_the_one_the_main_entrypoint_reaches_pairs() {
    let files: &[(&str, &str)] = &[
        (
            "main.js",
            r#"const { BrowserWindow, ipcMain } = require("electron");
const path = require("path");
require("./extra");
ipcMain.handle("get", () => 1);
ipcMain.on("twice", () => {});
ipcMain.handle("dup", () => 1);
const win = new BrowserWindow({ webPreferences: { preload: path.join(__dirname, "preload.js") } });
win.loadFile("index.html");"#,
        ),
        (
            "extra.js",
            r#"const { ipcMain } = require("electron");
ipcMain.on("twice", () => {});
ipcMain.handle("dup", () => 2);"#,
        ),
        (
            "preload.js",
            r#"const { ipcRenderer } = require("electron");
ipcRenderer.invoke("get");
ipcRenderer.send("twice");
ipcRenderer.invoke("dup");"#,
        ),
        (
            "index.html",
            r#"<html><body><script src="renderer.js"></script></body></html>"#,
        ),
        (
            "renderer.js",
            r#"const { ipcRenderer } = require("electron");
ipcRenderer.invoke("get");"#,
        ),
        (
            "source/main.ts",
            r#"import { ipcMain } from "electron";
ipcMain.handle("get", (): number => 1);
ipcMain.on("twice", () => {});"#,
        ),
        (
            "source/preload.ts",
            r#"import { ipcRenderer } from "electron";
ipcRenderer.invoke("get");"#,
        ),
    ];
    let dir = app_tree(files);
    let result = analyze(dir.path(), SourceMaps::Declarations);
    let ipc = &result["summary"]["ipc"];
    assert_eq!(ipc["paired_renderer_transmissions"], 0, "{ipc}");
    assert_eq!(ipc["reached_paired_renderer_transmissions"], 2, "{ipc}");
    assert_eq!(ipc["fanned_out_renderer_transmissions"], 1, "{ipc}");
    // `get` from the shipped source, by its language.
    assert_eq!(ipc["language_paired_renderer_transmissions"], 1, "{ipc}");
    // `dup` from the preload.
    assert_eq!(ipc["ambiguous_renderer_transmissions"], 1, "{ipc}");
    let paired: BTreeSet<(&str, &str, &str)> = pairings(&result)
        .map(|p| {
            (
                p["pairing_basis"].as_str().unwrap(),
                p["handler_path"].as_str().unwrap(),
                p["channel"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        paired,
        BTreeSet::from([
            ("every-listener-of-channel", "extra.js", "twice"),
            ("every-listener-of-channel", "main.js", "twice"),
            ("unique-exact-channel-reached-from-main", "main.js", "get"),
            (
                "unique-exact-channel-same-language",
                "source/main.ts",
                "get"
            ),
        ])
    );
    let sources: BTreeSet<&str> = result["graph"]["edges"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| !e["properties"]["pairing_basis"].is_null())
        .map(|e| {
            assert_eq!(e["evidence"]["confidence"], "medium", "{e}");
            let source = nodes(&result, "javascript-asset")
                .into_iter()
                .find(|n| n["node_id"] == e["source_node_id"])
                .unwrap();
            props(source)["path"].as_str().unwrap()
        })
        .collect();
    assert_eq!(
        sources,
        BTreeSet::from(["preload.js", "renderer.js", "source/preload.ts"])
    );

    // Without a main entrypoint nothing is reached: only language tells handlers apart, and
    // `twice` and `dup`, both handled in two JavaScript files, stay ambiguous.
    let mut unrooted = vec![("package.json", r#"{"name":"app"}"#)];
    unrooted.extend_from_slice(files);
    let dir = app_tree(&unrooted);
    let result = analyze(dir.path(), SourceMaps::Declarations);
    let ipc = &result["summary"]["ipc"];
    assert_eq!(ipc["reached_paired_renderer_transmissions"], 0, "{ipc}");
    assert_eq!(ipc["fanned_out_renderer_transmissions"], 0, "{ipc}");
    assert_eq!(ipc["language_paired_renderer_transmissions"], 3, "{ipc}");
    assert_eq!(ipc["ambiguous_renderer_transmissions"], 2, "{ipc}");
    let by_language: BTreeSet<(&str, &str)> = pairings(&result)
        .map(|p| {
            assert_eq!(p["pairing_basis"], "unique-exact-channel-same-language");
            (
                p["handler_path"].as_str().unwrap(),
                p["channel"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        by_language,
        BTreeSet::from([("main.js", "get"), ("source/main.ts", "get")])
    );
    assert_eq!(pairings(&result).count(), 3);
}

/// electron-prompt's shape: channels built per window (`"prompt-post-data:" + id`) on both
/// sides, also from constants (`` `${DIALOG}:${id}:close` ``, `PREFIX + id`). A dynamic
/// transmission pairs, as a low-confidence candidate, with the one main-side registration
/// of the same leading string and mode; a prefix two registrations share, a prefix shorter
/// than three bytes, and a prefix nothing registers pair with none.
#[test]
fn dynamic_channels_pair_by_their_literal_prefix_when_one_registration_has_it() {
    let dir = app_tree(&[
        (
            "main.js",
            r#"const { ipcMain } = require("electron");
function open(id) {
  ipcMain.on("prompt-post-data:" + id, () => {});
  ipcMain.handle(`prompt-get-options:${id}`, () => ({}));
  ipcMain.on("twice:" + id, () => {});
  ipcMain.on("twice:" + id + ":again", () => {});
  ipcMain.on("x" + id, () => {});
  ipcMain.on(`${DIALOG}:${id}:close`, () => {});
}
const DIALOG = "dialog";"#,
        ),
        (
            "page.js",
            r#"const { ipcRenderer } = require("electron");
const id = new URLSearchParams(location.search).get("id");
ipcRenderer.send("prompt-post-data:" + id, 1);
ipcRenderer.invoke(`prompt-get-options:${id}`);
ipcRenderer.send("prompt-get-options:" + id);
ipcRenderer.send("twice:" + id);
ipcRenderer.send("x" + id);
ipcRenderer.send("nobody:" + id);
const PREFIX = "dialog:";
ipcRenderer.send(PREFIX + id + ":close");"#,
        ),
    ]);
    let result = analyze(dir.path(), SourceMaps::Declarations);
    let ipc = &result["summary"]["ipc"];
    assert_eq!(ipc["prefix_paired_renderer_transmissions"], 3);
    assert_eq!(ipc["paired_renderer_transmissions"], 0);
    let paired: BTreeSet<(&str, &str, &str)> = pairings(&result)
        .map(|p| {
            (
                p["channel_prefix"].as_str().unwrap(),
                p["operation"].as_str().unwrap(),
                p["handler_operation"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        paired,
        BTreeSet::from([
            ("dialog:", "send", "on"),
            ("prompt-get-options:", "invoke", "handle"),
            ("prompt-post-data:", "send", "on"),
        ])
    );
    assert_low_confidence(&result, "unique-channel-prefix");
}

/// @sentry/electron names its channels with a function of a namespace given at run time,
/// `ipcUtil.createKey("scope")`, on both sides: each dynamic transmission pairs, as a
/// candidate, with the one registration made by the same call of the same strings (names
/// bound to strings read as their strings); two registrations of one call pair with
/// neither, and a call with another argument, or of a minifier's one-letter name, is no
/// key.
#[test]
fn dynamic_channels_made_by_the_same_call_of_strings_pair_as_candidates() {
    let dir = app_tree(&[
        (
            "util.js",
            r#"exports.ipcChannelUtils = (ns) => ({ createKey: (c) => `${ns}.${c}` });"#,
        ),
        (
            "main.js",
            r#"const { ipcMain, BrowserWindow } = require("electron");
const ipcUtil = require("./util").ipcChannelUtils(process.env.NS);
new BrowserWindow({});
ipcMain.on(ipcUtil.createKey("start"), () => 1);
ipcMain.handle(ipcUtil.createKey("feedback"), () => 1);
ipcMain.on(ipcUtil.createKey("twice"), () => 1);
ipcMain.on(ipcUtil.createKey("twice"), () => 2);
ipcMain.on(ipcUtil.createKey("start", process.pid), () => 3);
ipcMain.on(k("short"), () => 4);
"#,
        ),
        (
            "preload.js",
            r#"const { ipcRenderer } = require("electron");
const ipcUtil = require("./util").ipcChannelUtils(window.ns);
const START = "start";
ipcRenderer.send(ipcUtil.createKey(START));
ipcRenderer.invoke(ipcUtil.createKey("feedback"));
ipcRenderer.send(ipcUtil.createKey("twice"));
ipcRenderer.send(ipcUtil.createKey("nobody"));
ipcRenderer.send(k("short"));
"#,
        ),
    ]);
    let result = analyze(dir.path(), SourceMaps::Declarations);
    let ipc = &result["summary"]["ipc"];
    assert_eq!(ipc["call_paired_renderer_transmissions"], 2, "{ipc}");
    assert_eq!(ipc["paired_renderer_transmissions"], 0, "{ipc}");
    let paired: BTreeSet<(&str, &str, &str, &str)> = pairings(&result)
        .map(|p| {
            (
                p["channel_call"].as_str().unwrap(),
                p["pairing_basis"].as_str().unwrap(),
                p["operation"].as_str().unwrap(),
                p["handler_operation"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        paired,
        BTreeSet::from([
            (
                r#"createKey("feedback")"#,
                "unique-channel-call",
                "invoke",
                "handle"
            ),
            (r#"createKey("start")"#, "unique-channel-call", "send", "on"),
        ])
    );
    assert_low_confidence(&result, "unique-channel-call");
}

/// better-auth's Electron plugin names its channels after a prefix given at run time,
/// `` `${prefix}getUser` `` on both sides: a dynamic channel that starts with a value not
/// known pairs, as a candidate, with the one registration of the same template (a
/// concatenation and a template literal alike, names bound to strings read as their
/// strings, runs of unknown values one `${…}`); two registrations of one template pair with
/// neither, another mode does not pair, and a template of fewer than 3 bytes of strings is
/// no key.
#[test]
fn dynamic_channels_of_the_same_template_pair_as_candidates() {
    let dir = app_tree(&[
        (
            "main.js",
            r#"const { ipcMain, BrowserWindow } = require("electron");
const prefix = process.env.PREFIX;
const win = new BrowserWindow({});
win.webContents.send(`${prefix}updated`, 1);
win.webContents.send(`${prefix}unheard`, 1);
ipcMain.handle(`${prefix}getUser`, () => 1);
ipcMain.on(prefix + "signOut", () => 1);
ipcMain.on(`${prefix}:${process.pid}:close`, () => 1);
ipcMain.on(`${prefix}twice`, () => 1);
ipcMain.on(`${prefix}twice`, () => 2);
ipcMain.on(`${prefix}listen`, () => 3);
ipcMain.on(`${prefix}-a`, () => 4);
"#,
        ),
        (
            "preload.js",
            r#"const { ipcRenderer } = require("electron");
const p = window.prefix;
const SIGN_OUT = "signOut";
ipcRenderer.invoke(`${p}getUser`);
ipcRenderer.send(`${p}${SIGN_OUT}`);
ipcRenderer.send(p + ":" + window.id + ":close");
ipcRenderer.send(`${p}twice`);
ipcRenderer.invoke(`${p}listen`);
ipcRenderer.send(`${p}-a`);
ipcRenderer.send(`${p}nobody`);
ipcRenderer.on(p + "updated", () => 1);
"#,
        ),
    ]);
    let result = analyze(dir.path(), SourceMaps::Declarations);
    let ipc = &result["summary"]["ipc"];
    assert_eq!(ipc["template_paired_renderer_transmissions"], 3, "{ipc}");
    assert_eq!(ipc["prefix_paired_renderer_transmissions"], 0, "{ipc}");
    assert_eq!(ipc["paired_renderer_transmissions"], 0, "{ipc}");
    let paired = paired_by(
        &result,
        ["channel_template", "pairing_basis", "handler_operation"],
    );
    assert_eq!(
        paired,
        BTreeSet::from([
            ("${…}getUser", "unique-channel-template", "handle"),
            ("${…}signOut", "unique-channel-template", "on"),
            ("${…}:${…}:close", "unique-channel-template", "on"),
        ])
    );
    assert_low_confidence(&result, "unique-channel-template");
    // The limitations say dynamic channels pair only as candidates, never exactly.
    let limitations: Vec<&str> = result["limitations"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(Value::as_str)
        .collect();
    assert!(
        limitations
            .iter()
            .any(|l| l
                .starts_with("Some dynamic IPC channels were paired as low-confidence candidates")),
        "{limitations:?}"
    );
    assert!(
        limitations
            .iter()
            .any(|l| l.ends_with("kept as written and never paired exactly.")),
        "{limitations:?}"
    );
    // What the main process sends on a template: a page listening on one made the same way
    // may hear it.
    let to_pages = &ipc["main_to_renderer"];
    assert_eq!(to_pages["keyed_dynamic_channels"], 2, "{to_pages}");
    assert_eq!(
        to_pages["keyed_dynamic_channels_a_page_listens_on"], 1,
        "{to_pages}"
    );
}

/// A function of the file that makes a channel of its parameters (`const $ = (e) =>
/// `${prefix}:${e}``, as @huyooo's bridges name theirs) is read at each call: a call of
/// strings whose template is all strings is that channel, and pairs exactly; one whose
/// template keeps a value not known pairs by its template. A same-named function of
/// another scope, or a name that shadows the maker, is not it.
#[test]
fn calls_of_a_function_that_makes_channels_are_the_channels_it_makes() {
    let dir = app_tree(&[
        (
            "main.js",
            r#"const { ipcMain, BrowserWindow } = require("electron");
const PREFIX = "app";
function channel(name) { return PREFIX + ":" + name; }
new BrowserWindow({});
ipcMain.handle(channel("open"), () => 1);
function setup(options) {
  const O = options.channelPrefix || "file-explorer", $ = (e) => `${O}:${e}`;
  ipcMain.handle($("readDirectory"), () => 2);
  ipcMain.on($("watch"), () => 3);
}
const k = (e) => `${process.env.P}:${e}`;
function other(k) { ipcMain.on(k("ignored"), () => 4); }
"#,
        ),
        (
            "preload.js",
            r#"const { ipcRenderer } = require("electron");
ipcRenderer.invoke("app:open");
function api(e = {}) {
  const i = e.channelPrefix || "file-explorer", n = (e) => `${i}:${e}`;
  return {
    read: (p) => ipcRenderer.invoke(n("readDirectory"), p),
    watch: () => ipcRenderer.send(n("watch")),
    ignored: () => ipcRenderer.send(n("ignored")),
  };
}
const n = (x) => x;
ipcRenderer.send(n("plain"));
"#,
        ),
    ]);
    let result = analyze(dir.path(), SourceMaps::Declarations);
    let ipc = &result["summary"]["ipc"];
    assert_eq!(ipc["paired_renderer_transmissions"], 1, "{ipc}");
    assert_eq!(ipc["template_paired_renderer_transmissions"], 2, "{ipc}");
    let exact: Vec<&str> = pairings(&result)
        .filter_map(|p| p["channel"].as_str())
        .collect();
    assert_eq!(exact, ["app:open"]);
    let templates: BTreeSet<&str> = pairings(&result)
        .filter_map(|p| p["channel_template"].as_str())
        .collect();
    assert_eq!(
        templates,
        BTreeSet::from(["${…}:readDirectory", "${…}:watch"])
    );
    // The main side's `channel("open")` is the constant channel, read through the call.
    let handled: Vec<(&str, &str)> = result["graph"]["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|n| n["kind"] == "ipc-handler")
        .flat_map(|n| n["observations"].as_array().unwrap())
        .filter_map(|o| {
            let p = &o["properties"];
            Some((p["channel"].as_str()?, p["channel_expression"].as_str()?))
        })
        .collect();
    assert!(
        handled.contains(&("app:open", r#"channel("open")"#)),
        "{handled:?}"
    );
}

/// A channel-making function given a huge string makes no channel past the template's
/// 4,096 bytes: the call stays a dynamic channel, and the run completes.
/// Functions that make a channel written as members of an object literal (`const CH = {
/// make: (n) => `app:${n}`, get(n) { return "get:" + n; } }`): a call through the object's
/// name with strings is the channel it makes, and pairs exactly. A parameter of the same name
/// hides the object in its function, and a function the file assigns again makes nothing.
#[test]
fn channel_making_functions_as_object_members_make_their_channel() {
    let dir = app_tree(&[
        (
            "main.js",
            r#"const { ipcMain, BrowserWindow } = require("electron");
new BrowserWindow({ webPreferences: { preload: __dirname + "/preload.js" } });
ipcMain.handle("app:open", () => 1);
ipcMain.handle("get:user", () => 1);
ipcMain.handle("app:hidden", () => 1);"#,
        ),
        (
            "preload.js",
            r#"const { contextBridge, ipcRenderer } = require("electron");
const CH = {
  make: (name) => `app:${name}`,
  get(name) { return "get:" + name; },
  plain: 3,
};
function hidden(CH) { return ipcRenderer.invoke(CH.make("hidden")); }
function re(name) { return "app:" + name; }
re = (name) => "other:" + name;
ipcRenderer.invoke(re("hidden"));
contextBridge.exposeInMainWorld("api", {
  open: () => ipcRenderer.invoke(CH.make("open")),
  user: () => ipcRenderer.invoke(CH["get"]("user")),
  hidden,
});"#,
        ),
    ]);
    let result = analyze(dir.path(), SourceMaps::Declarations);
    assert_eq!(
        exact_pairs(&result),
        BTreeSet::from([
            ("app:open", "handle", "main.js"),
            ("get:user", "handle", "main.js"),
        ])
    );
    // `CH.make` under a parameter, and `re`, which the file assigns again.
    assert_eq!(dynamic_ops(&result), 2);
}

/// A function that makes a channel, exported by another module: as `tsc` compiles a shared
/// module (`exports.channel = channel; function channel(name) { return "app:" + name; }`,
/// called `(0, ipc_1.channel)("open")`), as an ES module exports it and a barrel re-exports
/// it, and as a CommonJS assignment of an arrow. A call with strings is the channel the
/// function makes, and pairs exactly; a call with a value not known, or of a function the
/// module assigns again, stays dynamic.
#[test]
fn channel_making_functions_another_module_exports_make_their_channel() {
    let dir = app_tree(&[
        (
            "shared/ipc.js",
            r#""use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.channel = channel;
exports.changed = changed;
function channel(name) { return "app:" + name; }
function changed(name) { return "old:" + name; }
changed = (name) => "new:" + name;
exports.event = (name) => `event:${name}`;"#,
        ),
        (
            "shared/keys.mjs",
            r#"export const key = (scope, name) => `${scope}/${name}`;"#,
        ),
        ("shared/index.mjs", r#"export * from "./keys.mjs";"#),
        (
            "main.js",
            r#""use strict";
const electron_1 = require("electron");
const ipc_1 = require("./shared/ipc");
electron_1.ipcMain.handle((0, ipc_1.channel)("open"), () => 1);
electron_1.ipcMain.on(ipc_1.event("ready"), () => 1);
electron_1.ipcMain.on((0, ipc_1.changed)("x"), () => 1);
electron_1.ipcMain.on((0, ipc_1.channel)(process.argv[2]), () => 1);"#,
        ),
        (
            "preload.mjs",
            r#"import { ipcRenderer } from "electron";
import { key } from "./shared/index.mjs";
import { channel, event } from "./shared/ipc.js";
ipcRenderer.invoke(channel("open"));
ipcRenderer.send(event("ready"));
ipcRenderer.send(key("files", "list"));"#,
        ),
    ]);
    let result = analyze(dir.path(), SourceMaps::Declarations);
    let paired = exact_pairs(&result);
    assert!(
        paired.is_superset(&BTreeSet::from([
            ("app:open", "handle", "main.js"),
            ("event:ready", "on", "main.js"),
        ])),
        "{paired:?}"
    );
    let channels = channel_names(&result);
    assert!(channels.contains("files/list"), "{channels:?}");
    assert!(
        !channels.iter().any(|c| c.starts_with("old:")),
        "{channels:?}"
    );
    // `changed("x")` and `channel(process.argv[2])`.
    assert_eq!(dynamic_ops(&result), 2);
}

/// Windows kept in collections, as multi-window applications keep them: a `Map` by key
/// (`windows.set("main", new BrowserWindow(…))`, loaded through `windows.get("main")`), an
/// array or a set (`push`, `add`), and an object by an id not known (`this.windows[id] =
/// win`). A load through an entry is its key's window, or else the one window the
/// collection ever holds; through a collection of several windows and no key, no window's.
#[test]
fn windows_kept_in_collections_load_their_pages() {
    let dir = app_tree(&[
        (
            "main.js",
            r#"const { BrowserWindow } = require("electron");
const windows = new Map();
windows.set("main", new BrowserWindow({ title: "main" }));
windows.set("settings", new BrowserWindow({ title: "settings", webPreferences: { nodeIntegration: true } }));
windows.get("settings").loadURL("https://example.com/settings");
windows.get("main").webContents.loadFile("main.html");
const list = [];
list.push(new BrowserWindow({ title: "listed" }));
list[0].loadFile("listed.html");
class Manager {
  open(id) {
    const win = new BrowserWindow({ title: "managed" });
    this.windows[id] = win;
    this.windows[id].loadFile("managed.html");
  }
}
const many = new Set();
many.add(new BrowserWindow({ title: "one" }));
many.add(new BrowserWindow({ title: "two" }));
for (const w of many) { w.loadFile("any.html"); }
[...many][1].loadFile("either.html");"#,
        ),
        ("main.html", "<html></html>"),
        ("listed.html", "<html></html>"),
        ("managed.html", "<html></html>"),
        ("either.html", "<html></html>"),
    ]);
    let result = analyze(dir.path(), SourceMaps::Declarations);
    // Each window by the name that holds it, with its pages and web URLs.
    let loads: BTreeSet<(String, String, String)> = nodes(&result, "browser-window")
        .iter()
        .map(|w| {
            let p = props(w);
            let text = |k: &str| {
                p[k].as_str()
                    .map_or_else(|| p[k].to_string(), str::to_owned)
            };
            (text("holder"), text("pages"), text("remote_urls"))
        })
        .collect();
    let row =
        |h: &str, pages: &str, remote: &str| (h.to_owned(), pages.to_owned(), remote.to_owned());
    assert_eq!(
        loads,
        BTreeSet::from([
            row(r#"windows["main"]"#, r#"["main.html"]"#, "[]"),
            row(
                r#"windows["settings"]"#,
                "[]",
                r#"["https://example.com/settings"]"#
            ),
            row("list[]", r#"["listed.html"]"#, "[]"),
            row("win", r#"["managed.html"]"#, "[]"),
            row("many[]", "[]", "[]"),
        ]),
        "{loads:?}"
    );
    assert_eq!(nodes(&result, "browser-window").len(), 6);
    // The window with Node.js integration loads the web: remote content.
    let remote = &result["summary"]["remote_content"];
    assert_eq!(remote["windows"], 1, "{remote}");
    assert_eq!(
        remote["items"][0]["urls"],
        json!(["https://example.com/settings"])
    );
}

#[test]
fn a_huge_string_passed_to_a_channel_making_function_stays_dynamic() {
    let huge = "x".repeat(1 << 20);
    let main = format!(
        "const {{ ipcMain, BrowserWindow }} = require(\"electron\");\nnew BrowserWindow({{}});\nconst ch = (n) => `app:${{n}}`;\nipcMain.on(ch(\"{huge}\"), () => 1);\nipcMain.on(ch(\"small\"), () => 1);\n"
    );
    let dir = app_tree(&[("main.js", main.as_str())]);
    let result = analyze(dir.path(), SourceMaps::Declarations);
    let ipc = &result["summary"]["ipc"];
    assert_eq!(ipc["operations"], 2, "{ipc}");
    assert_eq!(ipc["dynamic_channel_operations"], 1, "{ipc}");
    assert!(edge_channels(&result).contains("app:small"));
    assert!(edge_channels(&result).iter().all(|c| c.len() < 4096));
}

/// A helper that writes strings around the channel it is passed (`(name, fn) =>
/// ipcMain.handle(`api:${name}`, fn)`, `function on(name, fn) { ipcMain.on("evt:" + name,
/// fn) }`): each call of it is the operation on the channel it makes of the string passed,
/// in its own file and through another module's export, and pairs exactly; a call passing a
/// value not known pairs by the helper's prefix.
#[test]
fn helpers_that_write_strings_around_the_channel_make_the_channel_of_each_call() {
    let dir = app_tree(&[
        (
            "main.js",
            r#"const { ipcMain, BrowserWindow } = require("electron");
new BrowserWindow({ webPreferences: { preload: __dirname + "/preload.js" } });
const handle = (name, fn) => ipcMain.handle(`api:${name}`, fn);
handle("getUser", () => 1);
function on(name, fn) { ipcMain.on("evt:" + name + ":v1", fn); }
on("log", () => 1);
"#,
        ),
        (
            "ipc.js",
            r#"const { ipcRenderer } = require("electron");
exports.invoke = (method, ...args) => ipcRenderer.invoke(`api:${method}`, ...args);
"#,
        ),
        (
            "preload.js",
            r#"const { ipcRenderer, contextBridge } = require("electron");
const { invoke } = require("./ipc");
function send(name, data) { ipcRenderer.send("evt:" + name + ":v1", data); }
contextBridge.exposeInMainWorld("api", {
  getUser: () => invoke("getUser"),
  log: (d) => send("log", d),
  other: (n) => send(n),
});
"#,
        ),
    ]);
    let result = analyze(dir.path(), SourceMaps::Declarations);
    let exact = paired_by(&result, ["channel", "via", "handler_operation"]);
    assert!(
        exact.contains(&("api:getUser", "invoke", "handle")),
        "{exact:?}"
    );
    assert!(exact.contains(&("evt:log:v1", "send", "on")), "{exact:?}");
    // The call passing a parameter pairs as a candidate, by the helper's prefix.
    let candidates = paired_by(
        &result,
        ["channel_prefix", "channel_expression", "pairing_basis"],
    );
    assert!(
        candidates.contains(&("evt:", "n", "unique-channel-prefix")),
        "{candidates:?}"
    );
}

/// electron-better-ipc (its `ipcMain` and `ipcRenderer` extend Electron's): the page's
/// `callMain` pairs with the main process's `answerRenderer`, with or without the window
/// that form may name first, and `callRenderer(win, channel)` is a main-side send on its
/// second argument.
#[test]
fn electron_better_ipc_requests_pair_with_their_answers() {
    let dir = app_tree(&[
        (
            "main.js",
            r#"const { BrowserWindow } = require("electron");
const { ipcMain: ipc } = require("electron-better-ipc");
const win = new BrowserWindow({});
ipc.answerRenderer("get-emoji", async (name) => name);
ipc.answerRenderer(win, "get-window-state", async () => ({}));
ipc.callRenderer(win, "refresh", { force: true });"#,
        ),
        (
            "renderer.js",
            r#"import { ipcRenderer as ipc } from "electron-better-ipc";
await ipc.callMain("get-emoji", "unicorn");
await ipc.callMain("get-window-state");
ipc.answerMain("refresh", async () => true);"#,
        ),
    ]);
    let result = analyze(dir.path(), SourceMaps::Declarations);
    let paired = paired_by(&result, ["channel", "operation", "handler_operation"]);
    assert_eq!(
        paired,
        BTreeSet::from([
            ("get-emoji", "call-main", "answer-renderer"),
            ("get-window-state", "call-main", "answer-renderer"),
        ])
    );
    let channels: BTreeSet<&str> = nodes(&result, "ipc-channel")
        .iter()
        .filter_map(|n| props(n)["channel"].as_str())
        .collect();
    assert_eq!(
        channels,
        BTreeSet::from(["get-emoji", "get-window-state", "refresh"])
    );
}

/// code-server's shape: the application is a server whose `main` never touches Electron,
/// and a VS Code extension deep inside it requires Electron without acting as a main
/// process. The root stays the application, and its main role says that its file shows no
/// use of Electron.
#[test]
fn a_main_without_electron_says_so_and_a_nested_package_that_merely_requires_it_is_not_the_app() {
    let dir = tempfile::tempdir().unwrap();
    let files: &[(&str, &str)] = &[
        (
            "package.json",
            r#"{"name":"server","main":"out/node/entry.js"}"#,
        ),
        (
            "out/node/entry.js",
            r#"const http = require("http"); http.createServer().listen(8080);"#,
        ),
        (
            "lib/extensions/auth/package.json",
            r#"{"name":"auth","main":"./dist/extension.js","engines":{"vscode":"^1.41.0"}}"#,
        ),
        (
            "lib/extensions/auth/dist/extension.js",
            r#"let fetching; try { fetching = require("electron").net.fetch; } catch { fetching = fetch; }"#,
        ),
    ];
    let files: Vec<(&str, Vec<u8>)> = files
        .iter()
        .map(|(p, t)| (*p, t.as_bytes().to_vec()))
        .collect();
    write_tree(dir.path(), &files);
    let result = analyze(dir.path(), SourceMaps::Declarations);
    let mains = nodes(&result, "electron-main");
    assert_eq!(mains.len(), 1);
    let main = props(mains[0]);
    assert_eq!(main["resolved_path"], "out/node/entry.js");
    let limitations: Vec<&str> = main["limitations"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(Value::as_str)
        .collect();
    assert_eq!(limitations.len(), 1, "{limitations:?}");
    assert!(limitations[0].contains("neither requires nor imports Electron"));
}

/// tabby-electron's shape: a plugin package whose `main` sends on `ipcRenderer` and opens no
/// window, registers nothing with `ipcMain`. Its main role says the file may be loaded by a
/// renderer; a main that also registers a handler, or opens a window, says nothing of it.
#[test]
fn a_main_that_uses_only_the_renderer_side_of_electron_says_so() {
    let limitations_of = |main_js: &str| -> Vec<String> {
        let dir = app_tree(&[("main.js", main_js)]);
        let result = analyze(dir.path(), SourceMaps::Declarations);
        let mains = nodes(&result, "electron-main");
        assert_eq!(mains.len(), 1);
        props(mains[0])["limitations"]
            .as_array()
            .unwrap()
            .iter()
            .map(|l| l.as_str().unwrap().to_owned())
            .collect()
    };
    let plugin = limitations_of(
        r#"const { ipcRenderer } = require("electron");
ipcRenderer.send("app:ready");
ipcRenderer.on("host:config-change", () => {});"#,
    );
    assert_eq!(plugin.len(), 1, "{plugin:?}");
    assert!(
        plugin[0].contains("only the renderer's side of Electron"),
        "{plugin:?}"
    );
    for main in [
        r#"const { ipcMain, ipcRenderer } = require("electron");
ipcMain.on("app:ready", () => {});
ipcRenderer.send("x");"#,
        r#"const { BrowserWindow, ipcRenderer } = require("electron");
new BrowserWindow({});
ipcRenderer.send("x");"#,
        r#"const { app } = require("electron"); app.quit();"#,
    ] {
        assert_eq!(limitations_of(main), Vec::<String>::new(), "{main}");
    }
}

/// A `sourceMappingURL` is a URL relative to its file, as bundlers write it: a bare name is the
/// map beside the bundle (never a package), `./` and `../` and a query resolve too, and a map
/// that is not shipped stays an unresolved declaration.
#[test]
fn source_map_urls_resolve_beside_their_bundle() {
    let directive = |url: &str| format!("console.log(1);\n//# {}={url}\n", "sourceMappingURL");
    // Two maps of different bytes: identical files would be one content node.
    let map = |source: &str| {
        format!(
            r#"{{"version":3,"sources":["../src/{source}"],"sourcesContent":["x"],"names":[],"mappings":"AAAA"}}"#
        )
    };
    let dir = app_tree(&[
        ("dist/main.js", &directive("main.js.map")),
        ("dist/main.js.map", &map("main.js")),
        ("dist/up.js", &directive("../maps/up.js.map?v=3")),
        ("maps/up.js.map", &map("up.js")),
        ("dist/gone.js", &directive("gone.js.map")),
    ]);
    let result = analyze(dir.path(), SourceMaps::Contents);
    let path_of = |id: &Value| -> String {
        let node = result["graph"]["nodes"]
            .as_array()
            .unwrap()
            .iter()
            .find(|n| &n["node_id"] == id)
            .unwrap();
        props(node)["path"]
            .as_str()
            .or(props(node)["declared_url"].as_str())
            .unwrap()
            .to_owned()
    };
    let links: BTreeSet<(String, String)> = result["graph"]["edges"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["relation"] == "maps_to")
        .map(|e| (path_of(&e["source_node_id"]), path_of(&e["target_node_id"])))
        .collect();
    assert!(
        links.contains(&("dist/main.js".to_owned(), "dist/main.js.map".to_owned())),
        "{links:?}"
    );
    assert!(
        links.contains(&("dist/up.js".to_owned(), "maps/up.js.map".to_owned())),
        "{links:?}"
    );
    assert!(
        links.contains(&("dist/gone.js".to_owned(), "gone.js.map".to_owned())),
        "{links:?}"
    );
}

/// A main process written as Electron's templates write it: the preload and the page bound
/// to names first (`const preload = path.join(…)`, passed as `{ preload }`), the preload
/// chosen by a condition between a packaged path and a development one the package does not
/// ship, and the page loaded through the name. The window's preload is the branch that
/// resolves; each branch is still a preload role, the missing one not found.
#[test]
fn preloads_and_pages_bound_to_names_or_chosen_by_a_condition_resolve() {
    let dir = app_tree(&[
        (
            "main.js",
            r#"const { app, BrowserWindow } = require("electron");
const path = require("path");
const preload = app.isPackaged
  ? path.join(__dirname, "dev", "preload.js")
  : path.join(__dirname, "dist", "preload.js");
const page = path.join(__dirname, "dist", "index.html");
app.whenReady().then(() => {
  const win = new BrowserWindow({ webPreferences: { preload: app.isPackaged ? path.join(__dirname, "../.dev/preload.js") : path.join(__dirname, "dist/preload.js") } });
  win.loadFile(page);
  const other = new BrowserWindow({ webPreferences: { preload } });
  other.loadURL(require("url").format({ pathname: path.join(__dirname, "/dist/other.html"), protocol: "file:", slashes: true }));
});
"#,
        ),
        (
            "dist/preload.js",
            r#"require("electron").ipcRenderer.send("ready");"#,
        ),
        ("dist/index.html", "<p>index</p>"),
        ("dist/other.html", "<p>other</p>"),
    ]);
    let result = analyze(dir.path(), SourceMaps::Declarations);
    let windows: Vec<(String, String)> = nodes(&result, "browser-window")
        .into_iter()
        .map(|w| {
            let p = props(w);
            (
                p["preload_path"].as_str().unwrap_or("-").to_owned(),
                p["preload_expression"].as_str().unwrap_or("-").to_owned(),
            )
        })
        .collect();
    assert_eq!(
        windows,
        [
            ("dist/preload.js".to_owned(), "-".to_owned()),
            ("dist/preload.js".to_owned(), "-".to_owned()),
        ]
    );
    let mut roles: BTreeSet<(String, String, String)> = BTreeSet::new();
    for kind in ["electron-preload", "electron-renderer"] {
        for n in nodes(&result, kind) {
            let p = props(n);
            roles.insert((
                kind.to_owned(),
                p["declared_path"].as_str().unwrap().to_owned(),
                p["resolution_status"].as_str().unwrap().to_owned(),
            ));
        }
    }
    let role = |k: &str, d: &str, s: &str| (k.to_owned(), d.to_owned(), s.to_owned());
    assert!(
        roles.contains(&role("electron-preload", "dist/preload.js", "resolved")),
        "{roles:?}"
    );
    assert!(
        roles.contains(&role("electron-preload", "dev/preload.js", "not-found")),
        "{roles:?}"
    );
    assert!(
        roles.contains(&role("electron-renderer", "dist/index.html", "resolved")),
        "{roles:?}"
    );
    assert!(
        roles.contains(&role("electron-renderer", "dist/other.html", "resolved")),
        "{roles:?}"
    );
    let pages = &result["summary"]["renderer_pages"]["loaded_pages"];
    assert_eq!(pages, 2);
}

/// A real build: what vite-plugin-electron writes for create-electron-vite's template
/// (`corpora/javascript/vite-electron-app`), against what the template's sources say
/// (`truth.json`). The main process names its page through names bound to paths
/// (`s = o.join(process.env.APP_ROOT, "dist")`, then `e.loadFile(o.join(s, "index.html"))`).
#[test]
fn a_vite_plugin_electron_build_matches_its_templates_sources() {
    let fixture =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpora/javascript/vite-electron-app");
    let truth: Value =
        serde_json::from_str(&std::fs::read_to_string(fixture.join("truth.json")).unwrap())
            .unwrap();
    let result = analyze(&fixture.join("app"), SourceMaps::Declarations);
    assert_eq!(
        nodes(&result, "browser-window").len() as u64,
        truth["windows"].as_u64().unwrap()
    );
    let resolved = |kind: &str| -> BTreeSet<String> {
        nodes(&result, kind)
            .into_iter()
            .filter(|n| props(n)["resolution_status"] == "resolved")
            .map(|n| props(n)["resolved_path"].as_str().unwrap().to_owned())
            .collect()
    };
    let strings = |v: &Value| -> BTreeSet<String> {
        v.as_array()
            .unwrap()
            .iter()
            .map(|s| s.as_str().unwrap().to_owned())
            .collect()
    };
    let pages: BTreeSet<String> = resolved("electron-renderer")
        .into_iter()
        .filter(|p| p.ends_with(".html"))
        .collect();
    assert_eq!(pages, strings(&truth["renderer_pages"]));
    assert_eq!(resolved("electron-preload"), strings(&truth["preloads"]));
    let window = props(nodes(&result, "browser-window")[0]);
    assert_eq!(window["preload_path"], truth["preloads"][0]);
    for (key, members) in truth["bridges"].as_object().unwrap() {
        let bridge = nodes(&result, "context-bridge-api")
            .into_iter()
            .find(|b| props(b)["api_key"] == key.as_str())
            .unwrap_or_else(|| panic!("bridge {key}"));
        assert_eq!(&props(bridge)["members"], members);
    }
    let main_ipc: BTreeSet<(String, String)> = result["graph"]["edges"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["relation"] == "sends" && e["properties"]["side"] == "main")
        .map(|e| {
            (
                e["properties"]["operation"].as_str().unwrap().to_owned(),
                e["properties"]["channel"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    let expected: BTreeSet<(String, String)> = truth["main_ipc"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            (
                p[0].as_str().unwrap().to_owned(),
                p[1].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    assert_eq!(main_ipc, expected);
    assert_eq!(result["summary"]["renderer_pages"]["loaded_pages"], 1);
}

/// A renderer transmission that reaches no handler is listed by channel, with the main
/// process's registrations of the channel in the other mode: `handle` answers only `invoke`,
/// and `on` only `send`, so an `invoke` of a channel the main process listens on goes
/// nowhere (Electron rejects it: no handler registered).
#[test]
fn unpaired_transmissions_name_their_channel_and_a_registration_in_the_other_mode() {
    let dir = app_tree(&[
        (
            "main.js",
            r#"const { ipcMain, BrowserWindow } = require("electron");
ipcMain.on("log", (e, m) => m);
ipcMain.handle("ask", () => 42);
new BrowserWindow({}).loadFile("index.html");"#,
        ),
        ("index.html", "<script src=\"page.js\"></script>"),
        (
            "page.js",
            r#"const { ipcRenderer } = require("electron");
ipcRenderer.invoke("log", "wrong mode");
ipcRenderer.send("ask");
ipcRenderer.sendSync("nowhere");
ipcRenderer.invoke("ask");"#,
        ),
    ]);
    let result = analyze(dir.path(), SourceMaps::Declarations);
    let ipc = &result["summary"]["ipc"];
    assert_eq!(ipc["renderer_transmissions"], 4);
    assert_eq!(ipc["paired_renderer_transmissions"], 1);
    assert_eq!(ipc["unpaired_literal_renderer_transmissions"], 3);
    assert_eq!(ipc["mode_mismatched_renderer_transmissions"], 2);
    assert_eq!(
        ipc["unpaired_renderer_channels"],
        json!([
            {"channel": "ask", "renderer_operations": ["send"], "main_registrations_in_other_mode": ["handle"]},
            {"channel": "log", "renderer_operations": ["invoke"], "main_registrations_in_other_mode": ["on"]},
            {"channel": "nowhere", "renderer_operations": ["send-sync"], "main_registrations_in_other_mode": []},
        ])
    );
}

/// A runtime whose externals a split chunk holds (webpack's `splitChunks` moving external
/// modules out of the entry): the entry module it inlines requires `electron` by a key that
/// only the other file defines, as `157: e => { e.exports = require("electron") }`. The
/// entry's IPC handler and window are Electron's all the same; a key that two files define
/// differently (one build's external, another's ordinary module) is left alone.
#[test]
fn a_runtime_reads_electron_from_the_externals_a_split_chunk_holds() {
    let runtime = r#"(()=>{"use strict";var e={20(e){e.exports=1}},r={};function t(o){var n=r[o];if(void 0!==n)return n.exports;var s=r[o]={exports:{}};return e[o](s,s.exports,t),s.exports}t.m=e;var o=require("./externals.js");for(var n in o.modules)t.m[n]=o.modules[n];
const{app:a,BrowserWindow:b,ipcMain:c}=t(157);a.whenReady().then(()=>{c.handle("split:get",()=>1),new b({webPreferences:{sandbox:!0}})});
const{ipcMain:d}=t(299);d.handle("other:get",()=>2)})();"#;
    let externals = r#""use strict";exports.ids=[201],exports.modules={157(e){e.exports=require("electron")},299(e){e.exports=require("electron")}};"#;
    // Another build in the same package, whose module 299 is its own code.
    let other = r#""use strict";exports.ids=[7],exports.modules={299(e,t,n){e.exports={ipcMain:{handle(){}}}}};"#;
    let dir = app_tree(&[
        ("main.js", runtime),
        ("externals.js", externals),
        ("other/7.js", other),
    ]);
    let result = analyze(dir.path(), SourceMaps::Declarations);
    let channels: BTreeSet<&str> = result["graph"]["edges"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["properties"]["side"] == "main")
        .filter_map(|e| e["properties"]["channel"].as_str())
        .collect();
    assert_eq!(
        channels,
        BTreeSet::from(["split:get"]),
        "{}",
        result["summary"]
    );
    let windows = nodes(&result, "browser-window");
    assert_eq!(windows.len(), 1);
    assert_eq!(props(windows[0])["path"], "main.js");
}

/// What the main entrypoint reaches: its requires (a path built from its own directory
/// included, and the scripts of a directory it requires from by a listing, which is also
/// counted as a load computed at run time), the window's preload and page, and the page's
/// script; a shipped TypeScript source beside the build is never loaded, and is listed with
/// its facts.
#[test]
fn the_summary_says_what_the_main_entrypoint_reaches_and_what_it_never_loads() {
    let dir = app_tree(&[
        (
            "main.js",
            r#"const { app, BrowserWindow } = require("electron");
            const path = require("path");
            const fs = require("fs");
            require(path.join(__dirname, "lib/ipc.js"));
            const plugins = path.join(__dirname, "plugins");
            fs.readdirSync(plugins).forEach((f) => require(path.join(plugins, f)));
            app.whenReady().then(() => {
              const w = new BrowserWindow({ webPreferences: { preload: path.join(__dirname, "preload.js") } });
              w.loadFile(path.join(__dirname, "index.html"));
            });"#,
        ),
        (
            "lib/ipc.js",
            r#"const { ipcMain } = require("electron"); ipcMain.handle("get", () => 1);"#,
        ),
        (
            "preload.js",
            r#"const { contextBridge, ipcRenderer } = require("electron");
            contextBridge.exposeInMainWorld("api", { get: () => ipcRenderer.invoke("get") });"#,
        ),
        (
            "plugins/log.js",
            r#"const { ipcMain } = require("electron"); ipcMain.on("log", () => {});"#,
        ),
        (
            "plugins/node_modules/dep/index.js",
            r#"const { ipcMain } = require("electron"); ipcMain.on("dep", () => {});"#,
        ),
        (
            "index.html",
            r#"<!doctype html><script src="page.js"></script>"#,
        ),
        ("page.js", r#"window.api.get();"#),
        (
            "src/main.ts",
            r#"import { app, BrowserWindow, ipcMain } from "electron";
            ipcMain.handle("get", () => 1);
            app.whenReady().then(() => new BrowserWindow({}));"#,
        ),
    ]);
    let result = analyze(dir.path(), SourceMaps::Declarations);
    let reach = &result["summary"]["entrypoint_reach"];
    assert_eq!(reach["status"], "computed", "{reach}");
    assert_eq!(reach["main_entrypoints"], json!(["main.js"]));
    // main.js, lib/ipc.js, plugins/log.js (a script of the directory main.js requires from,
    // not the packages installed below it), preload.js, index.html and page.js (package.json
    // is not loaded).
    assert_eq!(reach["files_reached"], 6, "{reach}");
    assert_eq!(reach["dynamic_loads_in_reached_files"], 1, "{reach}");
    let unreached = &reach["unreached"];
    assert_eq!(unreached["files"], 2, "{reach}");
    assert_eq!(
        unreached["listed_files"],
        json!([{"path": "plugins/node_modules/dep/index.js", "browser_windows": 0, "context_bridge_apis": 0,
                "ipc_operations": 1, "native_addon_requests": 0, "process_calls": 0},
               {"path": "src/main.ts", "browser_windows": 1, "context_bridge_apis": 0,
                "ipc_operations": 1, "native_addon_requests": 0, "process_calls": 0}])
    );
    assert_eq!(unreached["browser_windows"], 1);
    assert_eq!(unreached["ipc_operations"], 2);
    // The page's call pairs with the handler main.js reaches, not the source's copy.
    let paired = paired_by(&result, ["channel", "handler_path", "pairing_basis"]);
    assert!(
        paired
            .iter()
            .any(|(c, p, _)| *c == "get" && *p == "lib/ipc.js"),
        "{paired:?}"
    );
}

/// Without a resolved main entrypoint nothing is said to be unreached.
#[test]
fn without_a_main_entrypoint_reach_is_not_computed() {
    let dir = tempfile::tempdir().unwrap();
    write_tree(
        dir.path(),
        &[(
            "lib.js",
            br#"const { ipcMain } = require("electron"); ipcMain.handle("x", () => 1);"#.to_vec(),
        )],
    );
    let result = analyze(dir.path(), SourceMaps::Declarations);
    assert_eq!(
        result["summary"]["entrypoint_reach"],
        json!({"status": "no-resolved-main"})
    );
}

#[test]
fn a_script_a_page_loads_requires_from_the_pages_directory() {
    // Electron runs a `<script src>` in its page's module context: its relative requires and
    // its `__dirname` start from the page's directory (electron/electron#421, #1162).
    let dir = tempfile::tempdir().unwrap();
    write_tree(
        dir.path(),
        &[
            (
                "package.json",
                br#"{"name":"tabs-app","version":"1.0.0","main":"main/index.js"}"#.to_vec(),
            ),
            (
                "main/index.js",
                br#"const { BrowserWindow, ipcMain } = require("electron");
const path = require("path");
ipcMain.on("tab-opened", () => {});
new BrowserWindow({ webPreferences: { nodeIntegration: true } }).loadURL("file://" + path.join(__dirname, "../renderer", "main.html"));
"#
                .to_vec(),
            ),
            (
                "renderer/main.html",
                br#"<html><body><script src="js/main.js"></script></body></html>"#.to_vec(),
            ),
            (
                "renderer/js/main.js",
                br#"const Tabs = require(__dirname + "/js/tabs.js");
const util = require("./js/util.js");
const own = require("./own.js");
"#
                .to_vec(),
            ),
            (
                "renderer/js/tabs.js",
                br#"require("electron").ipcRenderer.send("tab-opened");
module.exports = require(__dirname + "/../js/util.js");
"#
                .to_vec(),
            ),
            ("renderer/js/util.js", b"module.exports = {};\n".to_vec()),
            // What the script's own directory would name: not what Electron loads.
            ("renderer/js/js/util.js", b"module.exports = {};\n".to_vec()),
            ("renderer/js/own.js", b"module.exports = {};\n".to_vec()),
        ],
    );
    let result = analyze(dir.path(), SourceMaps::Declarations);
    let mut resolved: Vec<(String, String, String)> = result["graph"]["edges"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| &e["properties"])
        .filter(|p| p["resolution_status"] == "resolved" && p["kind"] == "require")
        .map(|p| {
            (
                p["specifier"].as_str().unwrap().to_owned(),
                p["resolved_path"].as_str().unwrap().to_owned(),
                p["resolution_note"].as_str().unwrap_or("-").to_owned(),
            )
        })
        .collect();
    resolved.sort();
    let from_page = "resolved from the directory of renderer/main.html, the page whose <script> loads this file: a page's scripts share its module context";
    assert_eq!(
        resolved,
        [
            // A script it requires has its own directory, as in Node.js.
            ("../js/util.js", "renderer/js/util.js", "-"),
            ("./js/tabs.js", "renderer/js/tabs.js", from_page),
            ("./js/util.js", "renderer/js/util.js", from_page),
            // Nothing beside the page: the script's own directory is tried next.
            ("./own.js", "renderer/js/own.js", "-"),
        ]
        .map(|(a, b, c)| (a.to_owned(), b.to_owned(), c.to_owned()))
    );
    // So the main entrypoint reaches the page's script, and the file it requires with its
    // IPC message; the channel pairs with the main process's listener.
    let reach = &result["summary"]["entrypoint_reach"];
    assert_eq!(reach["unreached"]["files"], 0, "{reach}");
    assert_eq!(reach["files_reached"], 6, "{reach}");
    assert!(
        paired_by(&result, ["channel", "handler_path", "pairing_basis"])
            .iter()
            .any(|(channel, handler, _)| *channel == "tab-opened" && *handler == "main/index.js"),
        "tab-opened not paired"
    );
}

#[test]
fn a_webview_code_writes_takes_its_preload_from_the_document_it_runs_in() {
    // The embedder's document resolves a guest's preload URL: code a page's script requires
    // runs in that page, whatever directory the code sits in.
    let dir = tempfile::tempdir().unwrap();
    write_tree(
        dir.path(),
        &[
            (
                "package.json",
                br#"{"name":"tabs-app","version":"1.0.0","main":"main.js"}"#.to_vec(),
            ),
            (
                "main.js",
                br#"const { BrowserWindow } = require("electron");
new BrowserWindow({ webPreferences: { webviewTag: true } }).loadFile("renderer/index.html");
"#
                .to_vec(),
            ),
            (
                "renderer/index.html",
                br#"<script src="js/app.js"></script>"#.to_vec(),
            ),
            (
                "renderer/js/app.js",
                b"const View = require(\"./js/components/view.js\");\n".to_vec(),
            ),
            (
                "renderer/js/components/view.js",
                br#"module.exports = (url, trusted) => `<webview src="${url}" ${trusted ? 'nodeintegration' : ''} preload="js/guest.js"></webview>`;
const el = document.createElement("webview");
el.setAttribute("preload", "file:./missing.js");
"#
                .to_vec(),
            ),
            ("renderer/js/guest.js", b"window.guest = true;\n".to_vec()),
        ],
    );
    let result = analyze(dir.path(), SourceMaps::Declarations);
    let mut preloads: Vec<(String, String, String, String)> = nodes(&result, "electron-preload")
        .into_iter()
        .map(|n| {
            let p = props(n);
            (
                p["mechanism"].as_str().unwrap().to_owned(),
                p["declared_path"].as_str().unwrap().to_owned(),
                p["resolved_path"].as_str().unwrap_or("-").to_owned(),
                p["limitations"][0].as_str().unwrap_or("-").to_owned(),
            )
        })
        .collect();
    preloads.sort();
    assert_eq!(
        preloads,
        [
            (
                "code-webview-preload",
                "./missing.js",
                "-",
                "no file of the artifact matches the path"
            ),
            (
                "code-webview-preload",
                "js/guest.js",
                "renderer/js/guest.js",
                "resolved from the directory of renderer/index.html, the page whose document runs the code that writes the tag"
            ),
        ]
        .map(|(a, b, c, d)| (a.to_owned(), b.to_owned(), c.to_owned(), d.to_owned()))
    );
    let webviews = &result["summary"]["webview_tags"];
    assert_eq!(
        [
            "tags",
            "written_by_code",
            "computed",
            "node_integration",
            "web_security_disabled",
            "allow_popups",
            "omitted"
        ]
        .map(|k| webviews[k].as_u64().unwrap()),
        [2, 2, 2, 1, 0, 0, 0]
    );
    let listed: Vec<(&str, u64, &str, &str)> = webviews["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| {
            (
                t["path"].as_str().unwrap(),
                t["line"].as_u64().unwrap(),
                t["written"].as_str().unwrap(),
                t["preload"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        listed,
        [
            (
                "renderer/js/components/view.js",
                1,
                "markup-in-code",
                "js/guest.js"
            ),
            (
                "renderer/js/components/view.js",
                2,
                "element",
                "./missing.js"
            )
        ]
    );
}

#[test]
fn a_pages_scripts_call_ipc_through_the_names_its_other_scripts_bind() {
    // A page's classic scripts share one global scope: one binds `ipcRenderer` to a name, the
    // others call it by that name without binding it themselves.
    let dir = app_tree(&[
        (
            "main.js",
            r#"const { BrowserWindow, ipcMain } = require("electron");
const win = new BrowserWindow({ webPreferences: { nodeIntegration: true, contextIsolation: false } });
win.loadFile("index.html");
ipcMain.on("save", (event, text) => {});
ipcMain.handle("win-prop", () => 1);
win.webContents.send("menu:open");
"#,
        ),
        (
            "index.html",
            r#"<html><body>
<script>const inlineIpc = require("electron").ipcRenderer;</script>
<script src="js/app.js"></script>
<script src="js/module.js"></script>
<script src="js/menu.js"></script>
<script src="js/other.js"></script>
</body></html>"#,
        ),
        (
            "js/app.js",
            r#"var ipc = require("electron").ipcRenderer;
window.winIpc = require("electron").ipcRenderer;
const { ipcRenderer: renamed } = require("electron");
function later() { var local = require("electron").ipcRenderer; return local; }
"#,
        ),
        (
            "js/module.js",
            r#"import { ipcRenderer } from "electron";
const modIpc = ipcRenderer;
export default modIpc;
"#,
        ),
        (
            "js/menu.js",
            r#"ipc.on("menu:open", () => {});
ipc.send("save", document.title);
inlineIpc.send("from-inline");
winIpc.invoke("win-prop");
renamed.sendSync("sync");
local.send("not-global");
modIpc.send("module-scoped");
"#,
        ),
        (
            "js/other.js",
            r#"function f(ipc) { ipc.send("param-shadowed"); }
f({ send() {} });
"#,
        ),
        ("js/orphan.js", r#"ipc.send("orphan");"#),
    ]);
    let result = analyze(dir.path(), SourceMaps::Declarations);
    let through_names: BTreeSet<(String, String, String)> = result["graph"]["edges"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| &e["properties"])
        .filter(|p| p["pairing_basis"].is_null() && p["side"] == "renderer")
        .map(|p| {
            (
                p["channel"].as_str().unwrap_or("").to_owned(),
                p["operation"].as_str().unwrap_or("").to_owned(),
                p["via"].as_str().unwrap_or("-").to_owned(),
            )
        })
        .collect();
    let expected: BTreeSet<(String, String, String)> = [
        ("menu:open", "on", "ipc.on"),
        ("save", "send", "ipc.send"),
        ("from-inline", "send", "inlineIpc.send"),
        ("win-prop", "invoke", "winIpc.invoke"),
        ("sync", "send-sync", "renamed.sendSync"),
    ]
    .iter()
    .map(|(a, b, c)| (a.to_string(), b.to_string(), c.to_string()))
    .collect();
    // A name bound inside a function, an ES module's own binding, a name the calling file
    // binds itself, and a script no page loads are not the page's globals.
    assert_eq!(through_names, expected);
    let paired = paired_by(&result, ["channel", "handler_path", "via"]);
    assert!(
        paired.contains(&("save", "main.js", "ipc.send")),
        "{paired:?}"
    );
    assert!(
        paired.contains(&("win-prop", "main.js", "winIpc.invoke")),
        "{paired:?}"
    );
}

#[test]
fn a_preload_that_sets_ipc_on_the_window_gives_it_to_the_pages_its_window_loads() {
    // Without context isolation, what a preload sets on the window is the page's global.
    let dir = app_tree(&[
        (
            "main.js",
            r#"const { BrowserWindow, ipcMain } = require("electron");
const path = require("path");
require("./second.js");
const win = new BrowserWindow({ webPreferences: { preload: path.join(__dirname, "preload.js"), contextIsolation: false } });
win.loadFile("index.html");
ipcMain.on("a", () => {});
ipcMain.on("b", () => {});
ipcMain.on("c", () => {});
"#,
        ),
        (
            "second.js",
            r#"const { BrowserWindow } = require("electron");
const path = require("path");
const other = new BrowserWindow({ webPreferences: { preload: path.join(__dirname, "preload2.js"), contextIsolation: false } });
other.loadFile("second.html");
"#,
        ),
        (
            "preload.js",
            r#"window.ipc = require("electron").ipcRenderer;"#,
        ),
        (
            "preload2.js",
            r#"const { ipcRenderer } = require("electron");
window.otherIpc = ipcRenderer;
"#,
        ),
        ("index.html", r#"<script src="r.js"></script>"#),
        ("second.html", r#"<script src="s.js"></script>"#),
        (
            "r.js",
            r#"window.ipc.send("a");
ipc.send("b");
otherIpc.send("c");
"#,
        ),
        ("s.js", r#"otherIpc.send("c");"#),
    ]);
    let result = analyze(dir.path(), SourceMaps::Declarations);
    let paired = paired_by(&result, ["channel", "handler_path", "via"]);
    assert_eq!(
        paired,
        BTreeSet::from([
            ("a", "main.js", "window.ipc.send"),
            ("b", "main.js", "ipc.send"),
            // Only the page the second window loads has its preload's global.
            ("c", "main.js", "otherIpc.send"),
        ])
    );
    let transmissions = &result["summary"]["ipc"]["paired_renderer_transmissions"];
    assert_eq!(transmissions, 3, "{}", result["summary"]["ipc"]);
}

#[test]
fn the_summary_says_which_channels_the_main_process_sends_that_no_page_listens_on() {
    let dir = app_tree(&[
        (
            "main.js",
            r#"const { BrowserWindow, ipcMain } = require("electron");
require("./other.js");
const win = new BrowserWindow({ webPreferences: { nodeIntegration: true, contextIsolation: false } });
win.loadFile("index.html");
win.webContents.send("heard", 1);
win.webContents.send("unheard");
win.webContents.send("twice");
ipcMain.on("ask", (event) => event.reply("answer"));
win.webContents.send(dynamicName());
"#,
        ),
        (
            "other.js",
            r#"const { BrowserWindow } = require("electron");
BrowserWindow.getAllWindows()[0].webContents.send("twice");
"#,
        ),
        ("index.html", r#"<script src="page.js"></script>"#),
        (
            "page.js",
            r#"const { ipcRenderer } = require("electron");
ipcRenderer.on("heard", () => {});
ipcRenderer.on("answer", () => {});
ipcRenderer.on("never-sent", () => {});
ipcRenderer.send("ask");
"#,
        ),
    ]);
    let result = analyze(dir.path(), SourceMaps::Declarations);
    let ipc = &result["summary"]["ipc"];
    // Six sends to pages (an event's reply among them), one on a computed channel.
    assert_eq!(ipc["main_transmissions"], 6, "{ipc}");
    let to_pages = &ipc["main_to_renderer"];
    assert_eq!(to_pages["literal_channels"], 4, "{to_pages}");
    assert_eq!(to_pages["channels_a_page_listens_on"], 2, "{to_pages}");
    assert_eq!(
        to_pages["channels_no_page_listens_on"],
        json!([
            {"channel": "twice", "files": 2, "paths": ["main.js", "other.js"]},
            {"channel": "unheard", "files": 1, "paths": ["main.js"]},
        ])
    );
    assert_eq!(to_pages["omitted_channels"], 0);
}

#[test]
fn a_pages_html_imports_are_part_of_the_page() {
    // An HTML import's scripts run in the importing page (Electron until 5): their requires
    // start from the page's directory, and what they load is loaded by the application.
    let dir = app_tree(&[
        (
            "main.js",
            r#"const { BrowserWindow, ipcMain } = require("electron");
new BrowserWindow({ webPreferences: { nodeIntegration: true } }).loadFile("index.html");
ipcMain.on("ping", () => {});
"#,
        ),
        (
            "index.html",
            r#"<html><head>
<link rel="stylesheet" href="style.css">
<link rel="import" href="sections/ipc.html">
</head><body></body></html>"#,
        ),
        (
            "sections/ipc.html",
            r#"<template><section>
<script>require('./renderer/ping')</script>
</section></template>"#,
        ),
        (
            "renderer/ping.js",
            r#"require("electron").ipcRenderer.send("ping");"#,
        ),
        ("style.css", "body {}"),
    ]);
    let result = analyze(dir.path(), SourceMaps::Declarations);
    let imports: Vec<(String, String)> = nodes(&result, "electron-renderer")
        .iter()
        .map(|n| props(n))
        .filter(|p| p["mechanism"] == "html-import")
        .map(|p| {
            (
                p["declared_path"].as_str().unwrap().to_owned(),
                p["resolved_path"].as_str().unwrap_or("-").to_owned(),
            )
        })
        .collect();
    assert_eq!(
        imports,
        [(
            "sections/ipc.html".to_owned(),
            "sections/ipc.html".to_owned()
        )]
    );
    let reach = &result["summary"]["entrypoint_reach"];
    assert_eq!(reach["unreached"]["files"], 0, "{reach}");
    assert!(
        paired_by(&result, ["channel", "handler_path", "pairing_basis"])
            .iter()
            .any(|(channel, handler, _)| *channel == "ping" && *handler == "main.js"),
        "ping not paired"
    );
}

#[test]
fn only_computed_load_url_targets_may_be_remote_content() {
    // A `loadFile` loads a file of the application whatever its path: a window that loads a
    // computed file is no remote content, one that loads a computed URL may be.
    let dir = app_tree(&[(
        "main.js",
        r#"const { BrowserWindow } = require("electron");
function openFile() {
  const win = new BrowserWindow({ webPreferences: { nodeIntegration: true, contextIsolation: false } });
  win.loadFile(pagePath());
}
function openUrl() {
  const win = new BrowserWindow({ webPreferences: { nodeIntegration: true } });
  win.loadURL(settings.url);
}
"#,
    )]);
    let result = analyze(dir.path(), SourceMaps::Declarations);
    let remote = &result["summary"]["remote_content"];
    assert_eq!(remote["windows"], 0, "{remote}");
    assert_eq!(remote["windows_with_computed_targets_only"], 1, "{remote}");
    assert_eq!(remote["with_weakened_preferences"], 1, "{remote}");
    assert_eq!(
        remote["items"][0]["computed_targets"],
        json!(["settings.url"])
    );
    // Both windows still say what they load is computed.
    let computed: BTreeSet<String> = nodes(&result, "browser-window")
        .iter()
        .map(|w| props(w)["dynamic_loads"].to_string())
        .collect();
    assert_eq!(
        computed,
        BTreeSet::from([
            r#"["pagePath()"]"#.to_owned(),
            r#"["settings.url"]"#.to_owned()
        ])
    );
}

#[test]
fn each_window_loads_its_own_pages_and_gives_them_its_preload_s_globals() {
    // Two windows of one file, each with a preload that sets its own global: a page gets
    // only the global of the window that loads it.
    let dir = app_tree(&[
        (
            "main.js",
            r#"const { BrowserWindow, ipcMain } = require("electron");
const path = require("path");
function createMain() {
  const win = new BrowserWindow({ webPreferences: { preload: path.join(__dirname, "a.js"), contextIsolation: false } });
  win.loadFile("main.html");
  if (process.env.DEV_URL) win.loadURL(process.env.DEV_URL);
}
function createTools() {
  const win = new BrowserWindow({ webPreferences: { preload: path.join(__dirname, "b.js"), contextIsolation: false, nodeIntegration: true } });
  win.webContents.loadURL("https://tools.example.com/?key=secret");
  win.loadFile("tools.html");
}
ipcMain.on("from-main", () => {});
ipcMain.on("from-tools", () => {});
"#,
        ),
        (
            "a.js",
            r#"window.mainIpc = require("electron").ipcRenderer;"#,
        ),
        (
            "b.js",
            r#"window.toolsIpc = require("electron").ipcRenderer;"#,
        ),
        ("main.html", r#"<script src="m.js"></script>"#),
        ("tools.html", r#"<script src="t.js"></script>"#),
        (
            "m.js",
            "mainIpc.send(\"from-main\");\ntoolsIpc.send(\"from-tools\");\n",
        ),
        (
            "t.js",
            "toolsIpc.send(\"from-tools\");\nmainIpc.send(\"from-main\");\n",
        ),
    ]);
    let result = analyze(dir.path(), SourceMaps::Declarations);
    assert_eq!(
        paired_by(&result, ["channel", "via", "handler_path"]),
        BTreeSet::from([
            ("from-main", "mainIpc.send", "main.js"),
            ("from-tools", "toolsIpc.send", "main.js")
        ]),
    );
    // One call each: the other window's global is not the page's.
    let ipc = &result["summary"]["ipc"];
    assert_eq!(ipc["paired_renderer_transmissions"], 2, "{ipc}");
    assert_eq!(ipc["renderer_transmissions"], 2, "{ipc}");
    // The windows' pages, as properties and as `loads` edges to the renderer roles.
    let windows = nodes(&result, "browser-window");
    let pages: BTreeSet<(String, String)> = windows
        .iter()
        .map(|w| {
            (
                props(w)["pages"].to_string(),
                props(w)["remote_urls"].to_string(),
            )
        })
        .collect();
    assert_eq!(
        pages,
        BTreeSet::from([
            (r#"["main.html"]"#.to_owned(), "[]".to_owned()),
            (
                r#"["tools.html"]"#.to_owned(),
                r#"["https://tools.example.com/?key=%5BREDACTED%5D"]"#.to_owned()
            ),
        ])
    );
    let ids: BTreeSet<&str> = windows
        .iter()
        .map(|w| w["node_id"].as_str().unwrap())
        .collect();
    let roles: BTreeMap<&str, &str> = nodes(&result, "electron-renderer")
        .into_iter()
        .map(|r| {
            (
                r["node_id"].as_str().unwrap(),
                props(r)["resolved_path"].as_str().unwrap_or(""),
            )
        })
        .collect();
    let loaded: BTreeSet<&str> = result["graph"]["edges"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["relation"] == "loads" && ids.contains(e["source_node_id"].as_str().unwrap()))
        .filter_map(|e| roles.get(e["target_node_id"].as_str().unwrap()).copied())
        .collect();
    assert_eq!(loaded, BTreeSet::from(["main.html", "tools.html"]));
    let summary = &result["summary"];
    assert_eq!(summary["windows_with_matched_loads"], 2, "{summary}");
    // The window that loads the web has Node.js in its pages; the other loads a computed
    // target without context isolation.
    let remote = &summary["remote_content"];
    assert_eq!(remote["windows"], 1, "{remote}");
    assert_eq!(remote["windows_with_computed_targets_only"], 1, "{remote}");
    assert_eq!(remote["with_weakened_preferences"], 2, "{remote}");
    let items: BTreeSet<String> = remote["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| {
            format!(
                "{} {} {}",
                i["urls"], i["computed_targets"], i["weakened_preferences"]
            )
        })
        .collect();
    assert_eq!(
        items,
        BTreeSet::from([
            r#"[] ["process.env.DEV_URL"] ["contextIsolation=false"]"#.to_owned(),
            r#"["https://tools.example.com/?key=%5BREDACTED%5D"] [] ["contextIsolation=false","nodeIntegration=true"]"#.to_owned(),
        ])
    );
}

#[test]
fn node_code_that_spawns_electron_with_a_script_makes_that_script_a_main_process() {
    // In Node.js, `require("electron")` is the path of Electron's binary: run with a script,
    // the script is a main process, as nightmare runs its runner.
    let dir = app_tree(&[
        (
            "main.js",
            r#"const proc = require("child_process");
const path = require("path");
const defaultElectron = require("electron");
const runner = path.join(__dirname, "runner.js");
function start(options) {
  const binary = options.electronPath || defaultElectron;
  return proc.spawn(binary, [runner].concat(JSON.stringify(options)), { stdio: "inherit" });
}
function other() { proc.spawn("ls", [path.join(__dirname, "not-electron.js")]); }
module.exports = { start, other };
"#,
        ),
        (
            "runner.js",
            r#"const { app, BrowserWindow, ipcMain } = require("electron");
require("./helper.js");
ipcMain.on("goto", () => {});
app.on("ready", () => new BrowserWindow({}));
"#,
        ),
        ("helper.js", "module.exports = 1;\n"),
        ("not-electron.js", "module.exports = 2;\n"),
    ]);
    let result = analyze(dir.path(), SourceMaps::Declarations);
    let launched: Vec<(&str, &str)> = nodes(&result, "electron-main")
        .into_iter()
        .map(props)
        .filter(|p| p["mechanism"] == "electron-launch")
        .map(|p| {
            (
                p["anchor_path"].as_str().unwrap(),
                p["resolved_path"].as_str().unwrap_or("-"),
            )
        })
        .collect();
    assert_eq!(launched, [("main.js", "runner.js")]);
    let reach = &result["summary"]["entrypoint_reach"];
    assert_eq!(
        reach["main_entrypoints"],
        json!(["main.js", "runner.js"]),
        "{reach}"
    );
    // The runner and what it requires are reached; the other spawn's script is not.
    assert_eq!(reach["unreached"]["files"], 0, "{reach}");
    assert_eq!(reach["files_reached"], 3, "{reach}");
}

#[test]
fn pages_a_window_helper_is_called_with_are_the_helper_window_s_and_reached() {
    let dir = app_tree(&[
        (
            "main.js",
            r#"const { app, BrowserWindow } = require("electron");
function open(page) {
  const win = new BrowserWindow({ webPreferences: { nodeIntegration: true } });
  win.loadFile(page);
}
app.whenReady().then(() => { open("a.html"); open("b.html"); });
"#,
        ),
        ("a.html", r#"<script src="a.js"></script>"#),
        ("b.html", "<p>b</p>"),
        ("a.js", "require(\"electron\").ipcRenderer.send(\"x\");\n"),
    ]);
    let result = analyze(dir.path(), SourceMaps::Declarations);
    let pages: BTreeSet<&str> = nodes(&result, "electron-renderer")
        .into_iter()
        .map(props)
        .filter(|p| p["mechanism"] == "loadFile")
        .filter_map(|p| p["resolved_path"].as_str())
        .collect();
    assert_eq!(pages, BTreeSet::from(["a.html", "b.html"]));
    let windows = nodes(&result, "browser-window");
    assert_eq!(windows.len(), 1);
    assert_eq!(props(windows[0])["pages"], json!(["a.html", "b.html"]));
    assert_eq!(props(windows[0])["dynamic_loads"], json!([]));
    // The page's script is reached through the page the helper loads.
    let reach = &result["summary"]["entrypoint_reach"];
    assert_eq!(reach["files_reached"], 4, "{reach}");
}

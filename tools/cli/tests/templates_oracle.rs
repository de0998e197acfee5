//! Electron apps as their templates and build tools ship them, against the facts their
//! sources state (each app's `truth.json`):
//!
//! - corpora/javascript/forge-app, built as Electron Forge's webpack plugin builds an app for
//!   packaging (the plugin's own webpack config generator in production mode), as a tree and
//!   packed by `@electron/asar`. The plugin replaces `MAIN_WINDOW_WEBPACK_ENTRY` with a
//!   `file://` URL built by `require('path').resolve(__dirname, '..', 'renderer',
//!   'main_window', 'index.html')`, and webpack's minifier inlines the runtime's require where
//!   the entry calls it once: `const {ipcMain: o} = function r(t) {…}(157)`, where factory 157
//!   re-exports `electron`.
//! - corpora/javascript/esm-app, a main process written as an ES module, bundled and minified
//!   by esbuild: it names its directory by `import.meta.dirname`, `import.meta.filename`,
//!   `fileURLToPath(new URL(".", import.meta.url))` under a renamed import, and
//!   `new URL("./x.html", import.meta.url).href`.
//!
//! The corpora are built once by `corpora/scripts/forge-corpus.sh` and `esm-corpus.sh` under
//! Cargo's target tmp dir.

mod support;

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;

use serde_json::Value;

fn forge() -> PathBuf {
    support::corpus("forge-corpus.sh", "forge").join("corpus")
}

fn truth(app: &str) -> Value {
    serde_json::from_slice(
        &std::fs::read(support::scripts().join(format!("../javascript/{app}/truth.json"))).unwrap(),
    )
    .unwrap()
}

fn strings(v: &Value) -> BTreeSet<&str> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_str().unwrap())
        .collect()
}

/// The paths `v` lists, below `prefix` (where the app sits in the input).
fn paths(v: &Value, prefix: &str) -> BTreeSet<String> {
    strings(v)
        .into_iter()
        .map(|p| format!("{prefix}{p}"))
        .collect()
}

/// The resolved paths of one role's observations made by `mechanisms`.
fn resolved(result: &Value, kind: &str, mechanisms: &[&str]) -> BTreeSet<String> {
    result["graph"]["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|n| n["kind"] == kind)
        .flat_map(|n| n["observations"].as_array().unwrap())
        .map(|o| &o["properties"])
        .filter(|p| p["resolution_status"] == "resolved")
        .filter(|p| mechanisms.contains(&p["mechanism"].as_str().unwrap_or("")))
        .map(|p| p["resolved_path"].as_str().unwrap().to_owned())
        .collect()
}

/// The analysis of `input` has the facts `truth` lists: the main entrypoint, which loads
/// every file; the windows, their preloads and the pages they load; the bridges; each side's
/// IPC, and how many renderer transmissions pair.
fn assert_source_facts(result: &Value, truth: &Value, input: &str, prefix: &str) {
    assert_eq!(result["statistics"]["parse_failures"], 0, "{input}");
    let summary = &result["summary"];
    let reach = &summary["entrypoint_reach"];
    assert_eq!(
        reach["main_entrypoints"],
        serde_json::json!([format!("{prefix}{}", truth["main"].as_str().unwrap())]),
        "{input}"
    );
    assert_eq!(
        reach["unreached"]["files"], 0,
        "{input}: the main process loads every page, script and preload: {reach}"
    );
    assert_eq!(summary["browser_windows"], truth["windows"], "{input}");
    assert_eq!(
        summary["ipc"]["paired_renderer_transmissions"], truth["paired_renderer_transmissions"],
        "{input}"
    );
    assert_eq!(
        resolved(result, "electron-preload", &["webPreferences.preload"]),
        paths(&truth["preloads"], prefix),
        "{input}: preloads"
    );
    assert_eq!(
        resolved(result, "electron-renderer", &["loadURL", "loadFile"]),
        paths(&truth["renderer_pages"], prefix),
        "{input}: what the windows load"
    );
    let bridges: BTreeMap<&str, &Value> = result["graph"]["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|n| n["kind"] == "context-bridge-api")
        .flat_map(|n| n["observations"].as_array().unwrap())
        .map(|o| {
            (
                o["properties"]["api_key"].as_str().unwrap(),
                &o["properties"]["members"],
            )
        })
        .collect();
    let expected: BTreeMap<&str, &Value> = truth["bridges"]
        .as_object()
        .unwrap()
        .iter()
        .map(|(k, v)| (k.as_str(), v))
        .collect();
    assert_eq!(bridges, expected, "{input}: bridges");
    support::assert_ipc_sides(result, truth, input);
}

/// The app's tree, the archive @electron/asar packs of it, and that archive placed in a
/// resources directory beside the extra resource the main process forks from there
/// (`process.resourcesPath`), which only the last input holds.
#[test]
fn an_app_built_by_electron_forges_webpack_plugin_keeps_its_source_facts() {
    let truth = truth("forge-app");
    let inputs = [
        ("forge-webpack", ""),
        ("forge-webpack.asar", ""),
        ("forge-dist", "resources/app.asar/"),
    ];
    for (input, prefix) in inputs {
        let result = support::tool_json(
            "analyze-javascript-application",
            &forge().join(input),
            &[],
        )["result"]
            .clone();
        assert_source_facts(&result, &truth, input, prefix);
        assert_eq!(
            result["summary"]["open_external_calls"], truth["open_external_calls"],
            "{input}"
        );
        // The `settings:save` handler opens the URL the page sends: found in the minified
        // bundle's handler as in the source.
        assert_eq!(
            support::handler_boundaries(&result),
            truth["ipc_handler_boundaries"],
            "{input}"
        );
        assert_eq!(
            resolved(&result, "electron-renderer", &["html-script"]),
            paths(&truth["page_scripts"], prefix),
            "{input}: the pages' scripts"
        );
        // Each entry that requires `electron` (the main process, the preload and the page
        // that integrates Node.js) calls the runtime's require of the external's factory
        // from the runtime's own code: the chunk imports that factory of its own file.
        let nodes = support::nodes_by_id(&result);
        let path = |id: &Value| {
            nodes[id.as_str().unwrap()]["observations"][0]["properties"]["path"]
                .as_str()
                .unwrap()
                .to_owned()
        };
        let entry_requires: BTreeSet<String> = result["graph"]["edges"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|e| e["properties"]["kind"] == "bundler-entry-require")
            .filter(|e| path(&e["source_node_id"]) == path(&e["target_node_id"]))
            .map(|e| path(&e["source_node_id"]))
            .collect();
        assert_eq!(
            entry_requires,
            paths(&truth["requires_electron"], prefix),
            "{input}: runtimes' entry requires"
        );
        // The helper below the resources directory: found beside the archive, and said to
        // lie outside an input that is the app alone.
        let (status, expected) = if prefix.is_empty() {
            ("unavailable", BTreeSet::new())
        } else {
            (
                "resolved",
                paths(&truth["utility_processes_below_resources"], "resources/"),
            )
        };
        let forks: Vec<&Value> = result["graph"]["nodes"]
            .as_array()
            .unwrap()
            .iter()
            .flat_map(|n| n["observations"].as_array().unwrap())
            .map(|o| &o["properties"])
            .filter(|p| p["mechanism"] == "utilityProcess.fork")
            .collect();
        assert!(!forks.is_empty(), "{input}");
        for fork in &forks {
            assert_eq!(fork["resolution_context"], "resources-path", "{input}");
            assert_eq!(fork["resolution_status"], status, "{input}");
        }
        assert_eq!(
            resolved(&result, "electron-utility", &["utilityProcess.fork"]),
            expected,
            "{input}: utility processes"
        );
    }
}

#[test]
fn an_es_module_main_process_anchors_its_paths_at_its_own_directory() {
    let dir = support::corpus("esm-corpus.sh", "esm").join("corpus/esm-esbuild");
    let result = support::tool_json("analyze-javascript-application", &dir, &[])["result"].clone();
    assert_source_facts(&result, &truth("esm-app"), "esm-esbuild", "");
}

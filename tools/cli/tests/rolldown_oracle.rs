//! Rolldown's CommonJS wrappers (Vite 8's bundler writes `var require_x = __commonJSMin((exports,
//! module) => {…})`, esbuild's shape with one more argument) that `rea
//! analyze-javascript-application` recovers, against rolldown's own record of each chunk
//! (`chunk.modules` with each module's input format and imports), for
//! corpora/javascript/rolldown-app built unminified and minified, and for its main process
//! built as electron-vite builds one (where the minifier writes a wrapper required once where
//! it is required).
//!
//! The corpus is built once by `corpora/scripts/rolldown-corpus.sh` under Cargo's target tmp dir.

mod support;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use serde_json::Value;

fn corpus() -> PathBuf {
    support::corpus("rolldown-corpus.sh", "rolldown").join("corpus")
}

#[test]
fn rolldowns_commonjs_wrappers_are_the_modules_it_read_as_commonjs_with_their_requires() {
    for (build, least) in [("plain", 40), ("min", 40), ("main", 2)] {
        let dir = corpus().join(format!("rolldown-{build}"));
        let oracle: Value = serde_json::from_slice(
            &std::fs::read(corpus().join(format!("rolldown-{build}.modules.json"))).unwrap(),
        )
        .unwrap();
        let result =
            support::tool_json("analyze-javascript-application", &dir, &[])["result"].clone();
        let mut wrapped: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        let mut ids: BTreeMap<&str, String> = BTreeMap::new();
        for node in result["graph"]["nodes"].as_array().unwrap() {
            let p = &node["observations"][0]["properties"];
            if node["kind"] == "javascript-module" && p["runtime"] == "esbuild-commonjs" {
                assert_eq!(
                    p["bundler"], "rolldown",
                    "{build}: told from esbuild by its helper"
                );
                let key = p["module_key"].as_str().unwrap().to_owned();
                ids.insert(node["node_id"].as_str().unwrap(), key.clone());
                wrapped
                    .entry(p["path"].as_str().unwrap().to_owned())
                    .or_default()
                    .insert(key);
            }
        }
        let ours: BTreeSet<(String, String)> = result["graph"]["edges"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|e| e["properties"]["kind"] == "bundler-require")
            .filter_map(|e| {
                let from = ids.get(e["source_node_id"].as_str().unwrap())?;
                let to = ids.get(e["target_node_id"].as_str().unwrap())?;
                Some((from.clone(), to.clone()))
            })
            .collect();
        let mut theirs = BTreeSet::new();
        let mut checked = 0;
        for (file, modules) in oracle.as_object().unwrap() {
            let modules = modules.as_array().unwrap();
            let commonjs: BTreeSet<&str> = modules
                .iter()
                .filter(|m| m["format"] == "cjs")
                .map(|m| m["id"].as_str().unwrap())
                .collect();
            let recovered = wrapped.get(file).map_or(0, BTreeSet::len);
            assert_eq!(recovered, commonjs.len(), "{build} {file}");
            checked += commonjs.len();
            // A CommonJS module's imports of CommonJS modules are requires of their wrappers.
            for module in modules.iter().filter(|m| m["format"] == "cjs") {
                for import in module["imports"].as_array().unwrap() {
                    let import = import.as_str().unwrap();
                    if commonjs.contains(import) {
                        theirs
                            .insert((module["id"].as_str().unwrap().to_owned(), import.to_owned()));
                    }
                }
            }
        }
        assert!(checked >= least, "{build}: {checked} CommonJS modules");
        assert_eq!(ours.len(), theirs.len(), "{build}: require edges");
        assert_eq!(
            support::degrees(&ours),
            support::degrees(&theirs),
            "{build}"
        );
    }
}

/// The main process's channel is a string its CommonJS module exports, read through the
/// wrapper the minifier wrote where the module is required, and its interop helper
/// (`d = c(o((e, t) => {…})())`, then `d.default.channel`).
#[test]
fn a_channel_exported_by_a_wrapper_written_where_it_is_required_is_literal() {
    let dir = corpus().join("rolldown-main");
    let source = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../corpora/javascript/rolldown-app/node/settings.cjs"),
    )
    .unwrap();
    // The source's own channel, as it is written there.
    let channel = source
        .split("channel: \"")
        .nth(1)
        .and_then(|rest| rest.split('"').next())
        .unwrap();
    let result = support::tool_json("analyze-javascript-application", &dir, &[])["result"].clone();
    let main = &support::ipc_sides(&result)["main"];
    assert!(
        main.contains(&("handle".to_owned(), channel.to_owned())),
        "{main:?}"
    );
    assert!(
        main.contains(&("on".to_owned(), "node:ready".to_owned())),
        "{main:?}"
    );
    assert_eq!(
        result["summary"]["ipc"]["dynamic_channel_operations"], 0,
        "{}",
        result["summary"]["ipc"]
    );
}

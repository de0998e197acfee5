//! Module factories and imports that `rea analyze-javascript-application` recovers from real
//! bundles, against the bundlers' own records: webpack and rspack stats (module ids per
//! output file) and esbuild metafiles (imports per output, inputs by format).
//!
//! The corpus is built once by `corpora/scripts/bundles-corpus.sh` under Cargo's target tmp dir.

mod support;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use serde_json::Value;

fn corpus() -> PathBuf {
    support::corpus("bundles-corpus.sh", "bundles").join("corpus")
}

fn analyze(dir: &Path) -> Value {
    support::tool_json("analyze-javascript-application", dir, &[])["result"].clone()
}

fn key_text(key: &Value) -> String {
    match key {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// Module keys recovered per output file.
fn recovered(result: &Value) -> BTreeMap<String, BTreeSet<String>> {
    let mut out: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for node in result["graph"]["nodes"].as_array().unwrap() {
        if node["kind"] != "javascript-module" {
            continue;
        }
        for obs in node["observations"].as_array().unwrap() {
            let p = &obs["properties"];
            if let (Some(path), false) = (p["path"].as_str(), p["module_key"].is_null()) {
                out.entry(path.to_owned())
                    .or_default()
                    .insert(key_text(&p["module_key"]));
            }
        }
    }
    out
}

#[test]
fn webpack_and_rspack_factories_match_their_stats() {
    let corpus = corpus();
    for build in ["webpack-dev", "webpack-prod", "rspack-dev", "rspack-prod"] {
        let oracle: Value = serde_json::from_slice(
            &std::fs::read(corpus.join(format!("{build}.factories.json"))).unwrap(),
        )
        .unwrap();
        let result = analyze(&corpus.join(build));
        assert_eq!(result["statistics"]["parse_failures"], 0, "{build}");
        let ours = recovered(&result);
        for (file, expected) in oracle.as_object().unwrap() {
            let modules: BTreeSet<String> = expected["modules"]
                .as_array()
                .unwrap()
                .iter()
                .map(key_text)
                .collect();
            let entries: BTreeSet<String> = expected["entries"]
                .as_array()
                .unwrap()
                .iter()
                .map(key_text)
                .collect();
            let got = ours.get(file).cloned().unwrap_or_default();
            // An entry module may be inlined into the runtime instead of getting a factory.
            let without_entries: BTreeSet<String> = modules.difference(&entries).cloned().collect();
            assert!(
                got == modules || got == without_entries,
                "{build}/{file}: recovered {got:?}, stats list {modules:?} (entries {entries:?})"
            );
            assert!(!got.is_empty(), "{build}/{file}: no factory recovered");
        }
        // Requires between factories resolve to factories of the same build.
        let imports = result["graph"]["edges"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|e| e["properties"]["kind"] == "bundler-require")
            .count();
        assert!(imports > 0, "{build}: no require edge between factories");
    }
}

#[test]
fn esbuild_imports_and_wrappers_match_the_metafile() {
    let corpus = corpus();
    for build in ["esbuild-esm", "esbuild-cjs"] {
        let meta: Value = serde_json::from_slice(
            &std::fs::read(corpus.join(format!("{build}.meta.json"))).unwrap(),
        )
        .unwrap();
        let result = analyze(&corpus.join(build));
        let base = |p: &str| p.rsplit('/').next().unwrap_or(p).to_owned();
        let mut expected = BTreeSet::new();
        for (output, record) in meta["outputs"].as_object().unwrap() {
            if !output.ends_with(".js") {
                continue;
            }
            for import in record["imports"].as_array().unwrap() {
                let kind = match import["kind"].as_str().unwrap() {
                    "import-statement" => "static-import",
                    "dynamic-import" => "dynamic-import",
                    "require-call" => "require",
                    other => other,
                };
                expected.insert((
                    base(output),
                    kind.to_owned(),
                    base(import["path"].as_str().unwrap()),
                ));
            }
        }
        let nodes: BTreeMap<&str, &Value> = result["graph"]["nodes"]
            .as_array()
            .unwrap()
            .iter()
            .map(|n| (n["node_id"].as_str().unwrap(), n))
            .collect();
        let mut ours = BTreeSet::new();
        for edge in result["graph"]["edges"].as_array().unwrap() {
            let (Some(kind), Some(target)) = (
                edge["properties"]["kind"].as_str(),
                edge["properties"]["resolved_path"].as_str(),
            ) else {
                continue;
            };
            if edge["relation"] != "imports"
                || edge["properties"]["resolution_status"] != "resolved"
            {
                continue;
            }
            let source = nodes[edge["source_node_id"].as_str().unwrap()];
            let path = source["observations"][0]["properties"]["path"]
                .as_str()
                .unwrap();
            ours.insert((base(path), kind.to_owned(), base(target)));
        }
        assert_eq!(ours, expected, "{build}: imports differ from the metafile");
        // Every CommonJS input became an esbuild wrapper factory keyed by its path.
        let cjs_inputs: BTreeSet<String> = meta["inputs"]
            .as_object()
            .unwrap()
            .iter()
            .filter(|(_, v)| v["format"] == "cjs")
            .map(|(k, _)| k.clone())
            .collect();
        let wrapped: BTreeSet<String> = recovered(&result).into_values().flatten().collect();
        assert!(!cjs_inputs.is_empty());
        assert!(
            cjs_inputs.is_subset(&wrapped),
            "{build}: cjs inputs {cjs_inputs:?}, wrappers {wrapped:?}"
        );
    }
}

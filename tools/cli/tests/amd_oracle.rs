//! AMD modules that `rea analyze-javascript-application` recovers, against third-party records:
//! RequireJS's optimizer (r.js) and TypeScript (`--module amd --outFile`) builds of
//! corpora/javascript/amd-app, read back by r.js's own parser and normalized by RequireJS's
//! loader; and Monaco's editor bundle as monaco-editor
//! 0.52.0 ships it (VS Code's AMD bundler), read through the table of ids it writes.
//!
//! The corpus is built once by `corpora/scripts/amd-corpus.sh` under Cargo's target tmp dir.

mod support;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use serde_json::Value;

fn corpus() -> PathBuf {
    support::corpus("amd-corpus.sh", "amd")
}

fn analyze(dir: &Path) -> Value {
    support::tool_json("analyze-javascript-application", dir, &[])["result"].clone()
}

fn read_json(path: &Path) -> Value {
    serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap()
}

fn props(node: &Value) -> &Value {
    &node["observations"][0]["properties"]
}

/// What the graph says about the AMD modules of one file.
#[derive(Default, Debug)]
struct Recovered {
    /// Module ids.
    modules: BTreeSet<String>,
    /// (module, module) by edge kind: `bundler-require` or `bundler-async-module`.
    edges: BTreeMap<String, BTreeSet<(String, String)>>,
    /// (module or "", reference kind, specifier) of the file's references.
    references: BTreeSet<(String, String, String)>,
    /// Exports by module.
    exports: BTreeMap<String, Vec<String>>,
}

fn recovered(result: &Value, path: &str) -> Recovered {
    let nodes = result["graph"]["nodes"].as_array().unwrap();
    let by_id: BTreeMap<&str, &Value> = nodes
        .iter()
        .map(|n| (n["node_id"].as_str().unwrap(), n))
        .collect();
    let mut out = Recovered::default();
    let mut ids: BTreeMap<&str, String> = BTreeMap::new();
    for node in nodes {
        let p = props(node);
        if node["kind"] == "javascript-module" && p["bundler"] == "amd" && p["path"] == path {
            let key = p["module_key"].as_str().unwrap().to_owned();
            ids.insert(node["node_id"].as_str().unwrap(), key.clone());
            let exports = p["exports"].as_array().unwrap();
            out.exports.insert(
                key.clone(),
                exports
                    .iter()
                    .map(|e| e.as_str().unwrap().to_owned())
                    .collect(),
            );
            out.modules.insert(key);
        }
    }
    for edge in result["graph"]["edges"].as_array().unwrap() {
        let kind = edge["properties"]["kind"].as_str().unwrap_or_default();
        let (source, target) = (
            edge["source_node_id"].as_str().unwrap(),
            edge["target_node_id"].as_str().unwrap(),
        );
        match kind {
            "bundler-require" | "bundler-async-module" => {
                if let (Some(from), Some(to)) = (ids.get(source), ids.get(target)) {
                    out.edges
                        .entry(kind.to_owned())
                        .or_default()
                        .insert((from.clone(), to.clone()));
                }
            }
            "require" | "dynamic-import" => {
                let from = props(by_id[source]);
                let module = ids.get(source).cloned().unwrap_or_default();
                if ids.contains_key(source) || from["path"] == path {
                    out.references.insert((
                        module,
                        kind.to_owned(),
                        edge["properties"]["specifier"]
                            .as_str()
                            .unwrap_or("[dynamic]")
                            .to_owned(),
                    ));
                }
            }
            _ => {}
        }
    }
    out
}

fn strings(list: &Value) -> Vec<String> {
    list.as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_str().unwrap().to_owned())
        .collect()
}

fn is_special(id: &str) -> bool {
    matches!(id, "require" | "exports" | "module")
}

/// The modules an oracle lists, the first define of each id kept, with their dependencies.
fn oracle_modules(oracle: &Value) -> BTreeMap<String, Vec<String>> {
    let mut out = BTreeMap::new();
    for module in oracle["modules"].as_array().unwrap() {
        out.entry(module["name"].as_str().unwrap().to_owned())
            .or_insert_with(|| strings(&module["deps"]));
    }
    out
}

/// The module a dependency loads among `modules`: itself, or for a plugin resource
/// (`plugin!resource`) that is not a module, its plugin.
fn loaded<'m>(modules: &'m BTreeMap<String, Vec<String>>, dep: &str) -> Option<&'m String> {
    modules.get_key_value(dep).map(|(k, _)| k).or_else(|| {
        let (plugin, _) = dep.split_once('!')?;
        modules.get_key_value(plugin).map(|(k, _)| k)
    })
}

#[test]
fn requirejs_and_typescript_builds_match_the_optimizers_parse() {
    let corpus = corpus().join("corpus");
    for mode in ["rjs-none", "rjs-uglify", "tsc"] {
        let oracle = read_json(&corpus.join(format!("amd-{mode}.oracle.json")));
        let modules = oracle_modules(&oracle);
        let result = analyze(&corpus.join(format!("amd-{mode}")));
        assert_eq!(result["statistics"]["parse_failures"], 0, "{mode}");
        let ours = recovered(&result, "main.js");
        assert_eq!(
            ours.modules,
            modules.keys().cloned().collect::<BTreeSet<_>>(),
            "{mode}"
        );
        // Each dependency on a module of the file is a require edge; any other (a Node
        // built-in the build left out) is a `require` reference of its module.
        let mut edges = BTreeSet::new();
        let mut references = BTreeSet::new();
        for (name, deps) in &modules {
            for dep in deps.iter().filter(|d| !is_special(d)) {
                match loaded(&modules, dep) {
                    Some(target) => {
                        edges.insert((name.clone(), target.clone()));
                    }
                    None => {
                        references.insert((name.clone(), "require".to_owned(), dep.clone()));
                    }
                }
            }
        }
        assert_eq!(ours.edges["bundler-require"], edges, "{mode}");
        assert_eq!(ours.references, references, "{mode}");
        // r.js's on-demand loads name modules of the file: loads of the module that makes them
        // (`main`, at the top level, so `./x` names `x`).
        let loads: BTreeSet<String> = strings(&oracle["loads"])
            .iter()
            .map(|id| id.trim_start_matches("./").to_owned())
            .collect();
        let async_targets: BTreeSet<String> = ours.edges["bundler-async-module"]
            .iter()
            .map(|(_, to)| to.clone())
            .collect();
        assert_eq!(async_targets, loads, "{mode}");
        assert!(!loads.is_empty());
        // The factories' `exports.x =` assignments are read whatever the minifier named the
        // parameter that `exports` binds.
        let exported: usize = ours.exports.values().map(Vec::len).sum();
        assert!(exported >= 4, "{mode}: {:?}", ours.exports);
    }
    // Both builds are the same modules.
    let none = recovered(&analyze(&corpus.join("amd-rjs-none")), "main.js");
    let uglify = recovered(&analyze(&corpus.join("amd-rjs-uglify")), "main.js");
    assert_eq!(none.exports, uglify.exports);
    assert_eq!(none.edges, uglify.edges);
}

#[test]
fn unbuilt_amd_sources_declare_references() {
    // Each source file is one anonymous module: no factories, and every dependency r.js's
    // parser finds is a reference of the file (`require`, or `dynamic-import` when loaded on
    // demand).
    let corpus = corpus().join("corpus");
    let oracle = read_json(&corpus.join("amd-src.oracle.json"));
    let result = analyze(&corpus.join("amd-src"));
    assert_eq!(result["statistics"]["parse_failures"], 0);
    let mut files = 0;
    for (file, found) in oracle.as_object().unwrap() {
        let ours = recovered(&result, file);
        assert!(ours.modules.is_empty(), "{file}");
        let mut expected: BTreeSet<(String, String, String)> = strings(&found["deps"])
            .into_iter()
            .filter(|d| !is_special(d))
            .map(|d| (String::new(), "require".to_owned(), d))
            .collect();
        expected.extend(
            strings(&found["loads"])
                .into_iter()
                .map(|d| (String::new(), "dynamic-import".to_owned(), d)),
        );
        assert_eq!(ours.references, expected, "{file}");
        files += 1;
    }
    assert!(files >= 5);
    // A relative dependency resolves to the file it names.
    let resolved = result["graph"]["edges"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["properties"]["resolution_status"] == "resolved")
        .count();
    assert!(resolved >= 4, "{resolved} references resolved");
}

#[test]
fn monaco_editor_bundle_matches_its_id_table_minified_or_not() {
    // VS Code's AMD bundler names each module and dependency by an index into one table of
    // ids. The development build and the minified one of the same release define the same
    // modules with the same dependencies.
    let monaco = corpus().join("monaco");
    let oracle = read_json(&monaco.join("dev.oracle.json"));
    // The annotations beside the indexes are stale where the release rewrote the table.
    assert!(oracle["stale_annotations"].as_u64().unwrap() >= 1);
    let modules = oracle_modules(&oracle);
    assert!(modules.len() > 800, "{}", modules.len());
    let mut edges = BTreeSet::new();
    for (name, deps) in &modules {
        for dep in deps.iter().filter(|d| !is_special(d)) {
            if let Some(target) = loaded(&modules, dep) {
                edges.insert((name.clone(), target.clone()));
            }
        }
    }
    let result = analyze(&monaco);
    assert_eq!(result["statistics"]["parse_failures"], 0);
    for build in ["dev", "min"] {
        let ours = recovered(&result, &format!("{build}/editor.main.js"));
        assert_eq!(
            ours.modules,
            modules.keys().cloned().collect::<BTreeSet<_>>(),
            "{build}"
        );
        assert_eq!(ours.edges["bundler-require"], edges, "{build}");
    }
    // Some of those modules were bundled by esbuild first: each holds a `__commonJS` wrapper,
    // keyed by its source path in the development build. The minified build renames the
    // helper and drops the paths; its wrappers are found by the helper's shape, as many.
    let wrappers = |build: &str| {
        result["graph"]["nodes"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|n| n["kind"] == "javascript-module")
            .map(props)
            .filter(|p| {
                p["runtime"] == "esbuild-commonjs"
                    && p["path"] == format!("{build}/editor.main.js").as_str()
            })
            .map(|p| p["module_key"].as_str().unwrap().to_owned())
            .collect::<Vec<String>>()
    };
    let dev = wrappers("dev");
    assert!(
        !dev.is_empty() && dev.iter().all(|k| k.ends_with(".ts")),
        "{dev:?}"
    );
    assert_eq!(wrappers("min").len(), dev.len());
}

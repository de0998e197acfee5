//! Parcel 2 bundles that `rea analyze-javascript-application` recovers, against Parcel's own
//! bundle graph (its API's `bundleGraph`: the public id of every asset in each bundle, and what
//! its dependencies resolve to), for corpora/javascript/parcel-app built three ways:
//! development (every asset a factory of a prelude table), scope-hoisted, and scope-hoisted and
//! minified, as `parcel build` ships.
//!
//! The corpus is built once by `corpora/scripts/parcel-corpus.sh` under Cargo's target tmp dir.

mod support;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use serde_json::Value;

fn corpus() -> PathBuf {
    support::corpus("parcel-corpus.sh", "parcel").join("corpus")
}

fn analyze(dir: &Path) -> Value {
    support::tool_json("analyze-javascript-application", dir, &[])["result"].clone()
}

fn props(node: &Value) -> &Value {
    &node["observations"][0]["properties"]
}

/// Parcel's record of one build: per bundle file, its assets' ids, and per id its file and
/// the ids its dependencies resolve to.
struct Oracle {
    bundles: Modules,
    files: BTreeMap<String, String>,
    deps: BTreeSet<(String, String)>,
}

fn oracle(build: &str) -> Oracle {
    let path = corpus().join(format!("parcel-{build}.assets.json"));
    let value: Value = serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap();
    let mut out = Oracle {
        bundles: BTreeMap::new(),
        files: BTreeMap::new(),
        deps: BTreeSet::new(),
    };
    for (bundle, assets) in value.as_object().unwrap() {
        for asset in assets.as_array().unwrap() {
            let id = asset["id"].as_str().unwrap().to_owned();
            out.files
                .insert(id.clone(), asset["file"].as_str().unwrap().to_owned());
            for dep in asset["deps"].as_array().unwrap() {
                out.deps
                    .insert((id.clone(), dep.as_str().unwrap().to_owned()));
            }
            out.bundles.entry(bundle.clone()).or_default().insert(id);
        }
    }
    out
}

/// Module keys by bundle file.
type Modules = BTreeMap<String, BTreeSet<String>>;

/// Our Parcel modules by bundle file, and the require edges between them.
fn recovered(result: &Value) -> (Modules, BTreeSet<(String, String)>) {
    let mut modules = Modules::new();
    let mut keys: BTreeMap<&str, String> = BTreeMap::new();
    for node in result["graph"]["nodes"].as_array().unwrap() {
        let p = props(node);
        if node["kind"] == "javascript-module" && p["bundler"] == "parcel" {
            let key = p["module_key"].as_str().unwrap().to_owned();
            keys.insert(node["node_id"].as_str().unwrap(), key.clone());
            modules
                .entry(p["path"].as_str().unwrap().to_owned())
                .or_default()
                .insert(key);
        }
    }
    let mut edges = BTreeSet::new();
    for edge in result["graph"]["edges"].as_array().unwrap() {
        if edge["properties"]["kind"] == "bundler-require"
            && let (Some(from), Some(to)) = (
                keys.get(edge["source_node_id"].as_str().unwrap()),
                keys.get(edge["target_node_id"].as_str().unwrap()),
            )
        {
            edges.insert((from.clone(), to.clone()));
        }
    }
    (modules, edges)
}

#[test]
fn development_builds_match_parcels_bundle_graph() {
    // Every asset is a factory of the prelude table, keyed by its public id; each require,
    // through the factory's deps map, is an edge to the asset its dependency resolves to, in
    // its own bundle or, through the application's shared `parcelRequire<hash>`, another.
    let oracle = oracle("dev");
    let result = analyze(&corpus().join("parcel-dev"));
    assert_eq!(result["statistics"]["parse_failures"], 0);
    let (modules, edges) = recovered(&result);
    assert_eq!(modules, oracle.bundles);
    let all: BTreeSet<&String> = oracle.files.keys().collect();
    let expected: BTreeSet<(String, String)> = oracle
        .deps
        .iter()
        .filter(|(from, to)| from != to && all.contains(to))
        .cloned()
        .collect();
    assert_eq!(edges, expected);
    assert!(edges.len() > 30, "{}", edges.len());
}

#[test]
fn scope_hoisted_builds_register_assets_of_their_bundles() {
    // A scope-hoisted bundle registers only the assets Parcel runs lazily: each must be an
    // asset Parcel put in that bundle. The fixture's dynamically exported CommonJS module and
    // the module another bundle loads on demand are among them. The unminified and the
    // minified build register the same files, with the same requires between them.
    let mut by_build = Vec::new();
    for build in ["hoisted", "hoisted-min"] {
        let oracle = oracle(build);
        let result = analyze(&corpus().join(format!("parcel-{build}")));
        assert_eq!(result["statistics"]["parse_failures"], 0, "{build}");
        let (modules, edges) = recovered(&result);
        assert_eq!(
            modules.keys().collect::<Vec<_>>(),
            oracle.bundles.keys().collect::<Vec<_>>(),
            "{build}"
        );
        for (bundle, keys) in &modules {
            assert!(
                keys.is_subset(&oracle.bundles[bundle]),
                "{build} {bundle}: {keys:?}"
            );
        }
        // Parcel names the runtime it generates by a hash of the build.
        let file = |id: &String| {
            let file = &oracle.files[id];
            match file.split_once("/runtime-js/lib/runtime-") {
                Some((package, _)) => format!("{package}/runtime-js/lib/runtime"),
                None => file.clone(),
            }
        };
        let registered: BTreeSet<String> = modules.values().flatten().map(file).collect();
        for wanted in ["parcel-app/legacy.cjs", "parcel-app/lazy.js"] {
            assert!(registered.contains(wanted), "{build}: {registered:?}");
        }
        assert!(registered.len() >= 5, "{build}: {registered:?}");
        let edges: BTreeSet<(String, String)> =
            edges.iter().map(|(a, b)| (file(a), file(b))).collect();
        assert!(!edges.is_empty(), "{build}");
        by_build.push((registered, edges));
    }
    assert_eq!(by_build[0], by_build[1]);
}

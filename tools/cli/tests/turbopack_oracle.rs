//! Turbopack chunks that `rea analyze-javascript-application` recovers, for
//! corpora/javascript/next-app: an Electron app whose renderer is a Next.js 16 site exported
//! by `next build` (Turbopack, its default bundler), built minified with numeric module ids
//! and with named ids unminified. The oracles are Next.js's own records of each build (the
//! client reference manifests and the build manifest's root main files), the HTML it exported,
//! and what the app's sources state (`truth.json`).
//!
//! The corpus is built once by `corpora/scripts/turbopack-corpus.sh` under Cargo's target tmp
//! dir.

mod support;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use serde_json::Value;

const BUILDS: [&str; 2] = ["min", "named"];

fn corpus() -> PathBuf {
    support::corpus("turbopack-corpus.sh", "turbopack").join("corpus")
}

fn read_json(path: &Path) -> Value {
    serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap()
}

fn truth() -> Value {
    read_json(&support::scripts().join("../javascript/next-app/truth.json"))
}

fn analyze(build: &str) -> Value {
    let dir = corpus().join(format!("next-{build}"));
    support::tool_json("analyze-javascript-application", &dir, &[])["result"].clone()
}

fn props(node: &Value) -> &Value {
    &node["observations"][0]["properties"]
}

fn key_text(key: &Value) -> String {
    match key {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// Turbopack's modules: node id → (module key, path, exports).
fn modules(result: &Value) -> BTreeMap<&str, (String, &str, Vec<&str>)> {
    result["graph"]["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|n| n["kind"] == "javascript-module" && props(n)["bundler"] == "turbopack")
        .map(|n| {
            let p = props(n);
            let exports = p["exports"]
                .as_array()
                .unwrap()
                .iter()
                .map(|e| e.as_str().unwrap())
                .collect();
            (
                n["node_id"].as_str().unwrap(),
                (
                    key_text(&p["module_key"]),
                    p["path"].as_str().unwrap(),
                    exports,
                ),
            )
        })
        .collect()
}

/// Edges of one `kind` as (source, target, properties).
fn edges<'r>(result: &'r Value, kind: &str) -> Vec<(&'r str, &'r str, &'r Value)> {
    result["graph"]["edges"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["properties"]["kind"] == kind)
        .map(|e| {
            (
                e["source_node_id"].as_str().unwrap(),
                e["target_node_id"].as_str().unwrap(),
                &e["properties"],
            )
        })
        .collect()
}

/// The module id Next.js's manifest gives a module of the app: its manifest name starts with
/// the module's project path.
fn manifest_id(oracle: &Value, module: &str) -> String {
    let ids: BTreeSet<String> = oracle["pages"]
        .as_object()
        .unwrap()
        .values()
        .flat_map(|page| page.as_object().unwrap())
        .filter(|(name, _)| name.starts_with(module))
        .map(|(_, entry)| key_text(&entry["id"]))
        .collect();
    assert_eq!(ids.len(), 1, "one id for {module}: {ids:?}");
    ids.into_iter().next().unwrap()
}

#[test]
fn client_components_are_factories_of_the_chunks_nextjs_loads_them_with() {
    for build in BUILDS {
        let oracle = read_json(&corpus().join(format!("next-{build}.client-modules.json")));
        let result = analyze(build);
        let mut files_by_key: BTreeMap<String, BTreeSet<&str>> = BTreeMap::new();
        for (key, path, _) in modules(&result).into_values() {
            files_by_key.entry(key).or_default().insert(path);
        }
        // A client component's chunks leave out the root main files every page loads first.
        let root: Vec<String> = oracle["root_main_files"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| format!("out/_next/{}", f.as_str().unwrap()))
            .collect();
        let mut checked = 0;
        for (page, entries) in oracle["pages"].as_object().unwrap() {
            for (name, entry) in entries.as_object().unwrap() {
                let key = key_text(&entry["id"]);
                let loaded: Vec<String> = entry["chunks"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|c| format!("out{}", c.as_str().unwrap()))
                    .chain(root.iter().cloned())
                    .collect();
                let held = files_by_key.get(&key).cloned().unwrap_or_default();
                assert!(
                    held.iter().any(|f| loaded.iter().any(|l| l == f)),
                    "{build} {page}: {name} ({key}) is in {held:?}, not in {loaded:?}"
                );
                checked += 1;
            }
        }
        assert!(checked >= 20, "{build}: {checked} client modules");
        // Every chunk the exported home page loads is a Turbopack chunk (but the runtime, and
        // the polyfills Next.js ships unbundled for browsers without modules), and resolves
        // from the page's folder.
        let chunk_files: BTreeSet<String> = result["graph"]["nodes"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|n| n["kind"] == "javascript-chunk" && props(n)["bundler"] == "turbopack")
            .map(|n| props(n)["path"].as_str().unwrap().to_owned())
            .collect();
        let scripts = page_scripts(build);
        assert!(scripts.len() >= 4, "{build}: {scripts:?}");
        for (script, no_module) in scripts {
            let script = format!("out{script}");
            let runtime = script.contains("/turbopack-");
            assert_eq!(
                chunk_files.contains(&script),
                !runtime && !no_module,
                "{build}: {script}"
            );
        }
    }
}

/// The scripts the exported home page names, and whether each is for browsers without
/// modules (`noModule`).
fn page_scripts(build: &str) -> Vec<(String, bool)> {
    let html =
        std::fs::read_to_string(corpus().join(format!("next-{build}/out/index.html"))).unwrap();
    html.split("<script src=\"")
        .skip(1)
        .map(|rest| {
            let tag = &rest[..rest.find('>').unwrap()];
            (
                rest[..rest.find('"').unwrap()].to_owned(),
                tag.contains("noModule"),
            )
        })
        .collect()
}

#[test]
fn a_module_loaded_on_demand_is_reached_through_turbopacks_async_loader() {
    let truth = truth();
    let lazy = &truth["loaded_on_demand"];
    for build in BUILDS {
        let oracle = read_json(&corpus().join(format!("next-{build}.client-modules.json")));
        let result = analyze(build);
        let modules = modules(&result);
        let page_key = manifest_id(&oracle, truth["page"].as_str().unwrap());
        let (page, (_, page_path, _)) = modules
            .iter()
            .find(|(_, (key, _, _))| *key == page_key)
            .expect("the page's module");
        // The page loads a module through its async loader, which loads one chunk and then
        // requires the module from it: the one exporting what lazy.js exports.
        let loaders: Vec<&str> = edges(&result, "bundler-async-module")
            .into_iter()
            .filter(|(from, _, _)| from == page)
            .map(|(_, to, _)| to)
            .collect();
        assert_eq!(loaders.len(), 1, "{build}");
        let loader = loaders[0];
        let chunks: Vec<&Value> = edges(&result, "bundler-async-chunk")
            .into_iter()
            .filter(|(from, _, _)| *from == loader)
            .map(|(_, _, p)| &p["chunk_key"])
            .collect();
        assert_eq!(chunks.len(), 1, "{build}");
        let required: Vec<&(String, &str, Vec<&str>)> = edges(&result, "bundler-require")
            .into_iter()
            .filter(|(from, _, _)| *from == loader)
            .map(|(_, to, _)| &modules[to])
            .collect();
        assert_eq!(required.len(), 1, "{build}");
        let (_, lazy_path, lazy_exports) = required[0];
        let expected: Vec<&str> = lazy["exports"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| e.as_str().unwrap())
            .collect();
        assert_eq!(lazy_exports, &expected, "{build}");
        assert_ne!(
            lazy_path, page_path,
            "{build}: the lazy module has a chunk of its own"
        );
        assert_eq!(
            format!("out/_next/{}", chunks[0].as_str().unwrap()),
            *lazy_path,
            "{build}"
        );
        if build == "named" {
            assert!(required[0].0.starts_with(lazy["module"].as_str().unwrap()));
        }
        // Its endpoint sits in that module, redacted.
        let nodes = support::nodes_by_id(&result);
        let endpoint_holders: Vec<&str> = result["graph"]["edges"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|e| {
                let target = nodes[e["target_node_id"].as_str().unwrap()];
                target["kind"] == "endpoint" && props(target)["value"] == truth["endpoint"]
            })
            .map(|e| e["source_node_id"].as_str().unwrap())
            .collect();
        assert_eq!(endpoint_holders.len(), 1, "{build}");
        assert_eq!(modules[endpoint_holders[0]].1, *lazy_path, "{build}");
        // From the main process: its preload, the page electron-serve serves, the scripts
        // that page names, and the chunk loaded on demand; not the settings page's chunk.
        let scripts = page_scripts(build);
        let reach = &result["summary"]["entrypoint_reach"];
        assert_eq!(reach["main_entrypoints"][0], truth["main"], "{build}");
        assert_eq!(
            reach["files_reached"],
            3 + scripts.len() + 1,
            "{build}: main.js, preload.js, out/index.html, {scripts:?} and {lazy_path}"
        );
    }
}

#[test]
fn channels_a_shared_module_exports_pair_with_the_main_process() {
    let truth = truth();
    let expected: BTreeSet<(String, String, String)> = truth["paired"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            let p: Vec<String> = p
                .as_array()
                .unwrap()
                .iter()
                .map(|s| s.as_str().unwrap().to_owned())
                .collect();
            (p[0].clone(), p[1].clone(), p[2].clone())
        })
        .collect();
    for build in BUILDS {
        let result = analyze(build);
        // Both pages read their channels off lib/channels.js's export, a module of its own
        // (`d.f.CLICKED` after `d = a.i(82757)`), except where Turbopack inlined the literal.
        let paired = support::paired_transmissions(&result);
        assert_eq!(paired, expected, "{build}");
        let ipc = &result["summary"]["ipc"];
        assert_eq!(
            ipc["paired_renderer_transmissions"],
            expected.len(),
            "{build}"
        );
        assert_eq!(ipc["unpaired_literal_renderer_transmissions"], 0, "{build}");
    }
}

/// Each exported page registers with Turbopack's runtime, in an inline script, the chunks to
/// load and the modules to run once they are in (`push({"otherChunks": […],
/// "runtimeModuleIds": […]})`). Read off the page's own HTML here, those are what the page's
/// registration chunk loads and requires in the graph, and each module it runs is a factory
/// of a chunk it loads.
#[test]
fn each_page_registration_requires_the_modules_it_names_from_the_chunks_it_loads() {
    for build in BUILDS {
        let result = analyze(build);
        let modules = modules(&result);
        let chunks: BTreeMap<&str, &str> = result["graph"]["nodes"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|n| n["kind"] == "javascript-chunk")
            .map(|n| {
                (
                    n["node_id"].as_str().unwrap(),
                    props(n)["path"].as_str().unwrap(),
                )
            })
            .collect();
        for page in ["index.html", "settings.html"] {
            let path = format!("out/{page}");
            let html =
                std::fs::read_to_string(corpus().join(format!("next-{build}/{path}"))).unwrap();
            let start = html.find(".push({\"otherChunks\"").expect("a registration") + 6;
            let end = start + html[start..].find("});").unwrap() + 1;
            let registration: Value = serde_json::from_str(&html[start..end]).unwrap();
            let loads: BTreeSet<String> = registration["otherChunks"]
                .as_array()
                .unwrap()
                .iter()
                .map(|c| format!("out/_next/{}", c.as_str().unwrap()))
                .collect();
            let runs: BTreeSet<String> = registration["runtimeModuleIds"]
                .as_array()
                .unwrap()
                .iter()
                .map(key_text)
                .collect();
            assert!(!loads.is_empty() && !runs.is_empty(), "{build} {page}");
            let (node, _) = chunks
                .iter()
                .find(|(_, p)| **p == path)
                .unwrap_or_else(|| panic!("{build}: {page} has a registration chunk"));
            let loaded: BTreeSet<String> = edges(&result, "bundler-async-chunk")
                .into_iter()
                .filter(|(from, _, _)| from == node)
                .map(|(_, to, _)| chunks[to].to_owned())
                .collect();
            assert_eq!(loaded, loads, "{build} {page}: chunks loaded");
            let ran: Vec<&(String, &str, Vec<&str>)> = edges(&result, "bundler-entry-require")
                .into_iter()
                .filter(|(from, _, _)| from == node)
                .map(|(_, to, _)| &modules[to])
                .collect();
            assert_eq!(
                ran.iter().map(|m| m.0.clone()).collect::<BTreeSet<_>>(),
                runs,
                "{build} {page}: modules run"
            );
            for (key, file, _) in ran {
                assert!(loads.contains(*file), "{build} {page}: {key} in {file}");
            }
        }
    }
}

//! Module factories and imports that `rea analyze-javascript-application` recovers from real
//! bundles, against the bundlers' own records: webpack and rspack stats (module ids per
//! output file) and esbuild metafiles (imports per output, inputs by format).
//!
//! The corpus is built once by `corpora/scripts/bundles-corpus.sh` under Cargo's target tmp dir.

mod support;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use serde_json::{Value, json};

fn corpus() -> PathBuf {
    support::corpus("bundles-corpus.sh", "bundles").join("corpus")
}

fn analyze(dir: &Path) -> Value {
    support::tool_json("analyze-javascript-application", dir, &[])["result"].clone()
}

fn read_json(path: &Path) -> Value {
    serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap()
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
    for build in [
        "webpack-dev",
        "webpack-prod",
        "rspack-dev",
        "rspack-prod",
        "webpack-esm-dev",
        "webpack-esm-prod",
        "rspack-esm-dev",
        "rspack-esm-prod",
        "webpack-eval-dev",
        "webpack-evalmap-dev",
        "rspack-eval-dev",
    ] {
        let oracle: Value = read_json(&corpus.join(format!("{build}.factories.json")));
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

/// Per module key: its structural fingerprint, its exports and the keys it requires.
fn factories(result: &Value) -> BTreeMap<String, (Value, Value, BTreeSet<String>)> {
    let mut keys = BTreeMap::new();
    let mut out: BTreeMap<String, (Value, Value, BTreeSet<String>)> = BTreeMap::new();
    for node in result["graph"]["nodes"].as_array().unwrap() {
        let p = &node["observations"][0]["properties"];
        if node["kind"] == "javascript-module" && !p["module_key"].is_null() {
            let key = key_text(&p["module_key"]);
            keys.insert(node["node_id"].as_str().unwrap().to_owned(), key.clone());
            let facts = (
                p["structural_fingerprint_sha256"].clone(),
                p["exports"].clone(),
                BTreeSet::new(),
            );
            assert!(out.insert(key.clone(), facts).is_none(), "{key} twice");
        }
    }
    for edge in result["graph"]["edges"].as_array().unwrap() {
        if edge["properties"]["kind"] == "bundler-require" {
            let source = &keys[edge["source_node_id"].as_str().unwrap()];
            let target = key_text(&edge["properties"]["module_key"]);
            out.get_mut(source).unwrap().2.insert(target);
        }
    }
    out
}

#[test]
fn eval_devtool_builds_read_like_the_same_build_without_it() {
    // webpack's and rspack's development default ships each factory body as a string for
    // `eval`; read statically, it must give what the build without the devtool gives.
    let corpus = corpus();
    for (eval, plain) in [
        ("webpack-eval-dev", "webpack-dev"),
        ("webpack-evalmap-dev", "webpack-dev"),
        ("rspack-eval-dev", "rspack-dev"),
    ] {
        let text = std::fs::read_to_string(corpus.join(eval).join("main.js")).unwrap();
        assert!(text.contains("eval(\""), "{eval} is not an eval build");
        let ours = factories(&analyze(&corpus.join(eval)));
        let theirs = factories(&analyze(&corpus.join(plain)));
        let stats: Value = read_json(&corpus.join(format!("{eval}.factories.json")));
        let entries: BTreeSet<String> = stats
            .as_object()
            .unwrap()
            .values()
            .flat_map(|file| file["entries"].as_array().unwrap().iter().map(key_text))
            .collect();
        for (key, facts) in &ours {
            match theirs.get(key) {
                // Fingerprint, exports and requires: the same module, read the same.
                Some(plain_facts) => assert_eq!(facts, plain_facts, "{eval} vs {plain}: {key}"),
                // Without the devtool, webpack may inline an entry module into the runtime.
                None => assert!(entries.contains(key), "{eval}: {key} is not in {plain}"),
            }
        }
        assert!(
            theirs.keys().all(|key| ours.contains_key(key)),
            "{plain} has factories {eval} lacks"
        );
        assert!(ours.values().any(|facts| !facts.2.is_empty()));
    }
}

#[test]
fn inline_source_maps_of_an_eval_build_name_its_modules() {
    // `eval-cheap-module-source-map` gives every module's string its own inline map, whose
    // source webpack names `webpack:///<module id>?<hash>`.
    let corpus = corpus();
    let build = "webpack-evalmap-dev";
    let result = support::tool_json(
        "analyze-javascript-application",
        &corpus.join(build),
        &["--source-maps", "contents"],
    )["result"]
        .clone();
    let stats: Value = read_json(&corpus.join(format!("{build}.factories.json")));
    let ids: BTreeSet<String> = stats
        .as_object()
        .unwrap()
        .values()
        .flat_map(|file| file["modules"].as_array().unwrap().iter().map(key_text))
        .filter(|id| !id.ends_with(".json"))
        .collect();
    let nodes = result["graph"]["nodes"].as_array().unwrap();
    let maps = nodes
        .iter()
        .filter(|n| n["kind"] == "source-map")
        .map(|n| &n["observations"][0]["properties"])
        .collect::<Vec<_>>();
    assert_eq!(maps.len(), ids.len());
    assert!(
        maps.iter()
            .all(|p| p["inline"] == true && p["status"] == "included")
    );
    let named: BTreeSet<String> = nodes
        .iter()
        .filter(|n| n["kind"] == "source-module")
        .map(|n| {
            let source = n["observations"][0]["properties"]["original_source"]
                .as_str()
                .unwrap();
            let path = source.strip_prefix("webpack:///").unwrap_or(source);
            path.rsplit_once('?')
                .map_or(path, |(path, _)| path)
                .to_owned()
        })
        .collect();
    assert_eq!(named, ids);
}

#[test]
fn browserify_tables_match_browserify_dependency_records() {
    // browserify's dependency phase lists every module with its id and what each of its
    // `require` specifiers resolves to; with --full-paths, the bundle's keys are those ids.
    let corpus = corpus();
    let records: Value = read_json(&corpus.join("browserify.deps.json"));
    let expected: BTreeMap<String, BTreeSet<String>> = records
        .as_array()
        .unwrap()
        .iter()
        .map(|record| {
            let deps = record["deps"]
                .as_object()
                .unwrap()
                .values()
                .filter(|target| target.is_string())
                .map(key_text)
                .collect();
            (key_text(&record["id"]), deps)
        })
        .collect();
    let result = analyze(&corpus.join("browserify-full-paths"));
    let ours: BTreeMap<String, BTreeSet<String>> = factories(&result)
        .into_iter()
        .map(|(key, (_, _, requires))| (key, requires))
        .collect();
    assert_eq!(ours, expected);
    // A require the deps map resolves is an edge between factories, not a file reference.
    assert_eq!(result["statistics"]["unresolved_references"], 0);
    // Numeric ids, as browserify ships by default: the same modules and requires, renamed.
    let numeric = factories(&analyze(&corpus.join("browserify")));
    let shape = |requires: &mut dyn Iterator<Item = usize>| {
        let mut counts: Vec<usize> = requires.collect();
        counts.sort_unstable();
        counts
    };
    assert_eq!(
        shape(&mut numeric.values().map(|facts| facts.2.len())),
        shape(&mut expected.values().map(BTreeSet::len))
    );
    // The one-screen summary names the bundler of each asset's tables.
    let output = support::rea()
        .arg("analyze-javascript-application")
        .arg(corpus.join("browserify"))
        .output()
        .unwrap();
    let text = String::from_utf8(output.stdout).unwrap();
    let line = format!("bundle.js: {} modules (browserify)", expected.len());
    assert!(text.contains(&line), "{line} missing from:\n{text}");
}

#[test]
fn native_addons_relocated_by_webpack_loaders_resolve_to_the_emitted_files() {
    // Electron Forge's webpack rules (the asset relocator, then node-loader) and node-loader
    // alone: each rewrites `require("./build/Release/x.node")` into a path built from the
    // bundle's directory, and emits the add-on where that path points.
    let corpus = corpus();
    for build in ["native-forge", "native-node-loader"] {
        let emitted: BTreeSet<String> = serde_json::from_slice::<Vec<String>>(
            &std::fs::read(corpus.join(format!("{build}.assets.json"))).unwrap(),
        )
        .unwrap()
        .into_iter()
        .collect();
        assert!(!emitted.is_empty(), "{build}: webpack emitted no add-on");
        let result = analyze(&corpus.join(build));
        let resolved: BTreeSet<String> = result["graph"]["edges"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|e| e["properties"]["resolved_path"].as_str())
            .filter(|p| p.ends_with(".node"))
            .map(str::to_owned)
            .collect();
        assert_eq!(resolved, emitted, "{build}");
        let summary = &result["summary"];
        assert_eq!(
            summary["resolved_native_addon_bindings"], summary["native_addon_bindings"],
            "{build}"
        );
    }
}

#[test]
fn esbuild_imports_and_wrappers_match_the_metafile() {
    let corpus = corpus();
    for build in ["esbuild-esm", "esbuild-cjs"] {
        let meta: Value = read_json(&corpus.join(format!("{build}.meta.json")));
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
        let nodes = support::nodes_by_id(&result);
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

/// The entry points of an esbuild metafile's outputs: their code runs at the top level of the
/// output, not in a wrapper.
fn metafile_entries(meta: &Value) -> BTreeSet<String> {
    meta["outputs"]
        .as_object()
        .unwrap()
        .values()
        .filter_map(|o| o["entryPoint"].as_str().map(str::to_owned))
        .collect()
}

/// The requires between bundled inputs that an esbuild metafile lists, as (input, required
/// input), from inputs other than entry points.
fn metafile_requires(meta: &Value) -> BTreeSet<(String, String)> {
    let inputs = meta["inputs"].as_object().unwrap();
    let entries = metafile_entries(meta);
    let mut out = BTreeSet::new();
    for (input, record) in inputs {
        if entries.contains(input) {
            continue;
        }
        for import in record["imports"].as_array().unwrap() {
            let path = import["path"].as_str().unwrap();
            if import["kind"] == "require-call"
                && import["external"] != true
                && inputs.contains_key(path)
            {
                out.insert((input.clone(), path.to_owned()));
            }
        }
    }
    out
}

/// The runtime (as JSON text) of each module factory the graph holds, in node order.
fn factory_runtimes(result: &Value) -> Vec<String> {
    result["graph"]["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| (n, &n["observations"][0]["properties"]))
        .filter(|(n, p)| n["kind"] == "javascript-module" && !p["module_key"].is_null())
        .map(|(_, p)| p["runtime"].to_string())
        .collect()
}

#[test]
fn minified_esbuild_wrappers_are_recovered_with_their_requires() {
    // qs and its dependencies, all CommonJS: esbuild wraps every input but the entry point,
    // whose code runs at the output's top level, in `__commonJS`. Built
    // plainly, each wrapper is keyed by its input's path; minified, the helper is renamed and
    // takes the module's function alone, so a module is known by the name its wrapper is
    // bound to. Both must give the metafile's inputs and requires: by path, and minified,
    // as the same graph up to names.
    let corpus = corpus();
    let meta: Value = read_json(&corpus.join("esbuild-qs.meta.json"));
    let inputs: BTreeSet<String> = meta["inputs"]
        .as_object()
        .unwrap()
        .iter()
        .filter(|(k, v)| v["format"] == "cjs" && !metafile_entries(&meta).contains(*k))
        .map(|(k, _)| k.clone())
        .collect();
    let expected = metafile_requires(&meta);
    assert!(
        inputs.len() > 20 && expected.len() > 20,
        "{inputs:?} {expected:?}"
    );
    let requires = |result: &Value| -> BTreeSet<(String, String)> {
        factories(result)
            .into_iter()
            .flat_map(|(key, (_, _, targets))| targets.into_iter().map(move |t| (key.clone(), t)))
            .collect()
    };
    let plain = analyze(&corpus.join("esbuild-qs"));
    let keys: BTreeSet<String> = factories(&plain).into_keys().collect();
    assert_eq!(
        keys, inputs,
        "plain build: wrapper keys against the metafile's inputs"
    );
    assert_eq!(requires(&plain), expected, "plain build: requires");
    // However many wrappers an output holds, it is one bundle: the metafile's outputs.
    let outputs = |meta: &Value| {
        meta["outputs"]
            .as_object()
            .unwrap()
            .keys()
            .filter(|k| k.ends_with(".js"))
            .count()
    };
    assert_eq!(plain["statistics"]["bundles"], outputs(&meta));

    let min_meta: Value = read_json(&corpus.join("esbuild-qs-min.meta.json"));
    assert_eq!(
        metafile_requires(&min_meta),
        expected,
        "the two builds bundle the same inputs"
    );
    let minified = analyze(&corpus.join("esbuild-qs-min"));
    assert_eq!(minified["statistics"]["parse_failures"], 0);
    assert_eq!(minified["statistics"]["bundles"], outputs(&min_meta));
    let modules = factories(&minified);
    assert_eq!(
        modules.len(),
        inputs.len(),
        "minified build: one module per input"
    );
    let min_requires = requires(&minified);
    assert_eq!(
        min_requires.len(),
        expected.len(),
        "minified build: requires"
    );
    assert_eq!(
        support::degrees(&min_requires),
        support::degrees(&expected),
        "minified build: require graph"
    );
    // Each wrapper is its own esbuild bundle, as in the plain build.
    let runtimes: BTreeSet<String> = factory_runtimes(&minified).into_iter().collect();
    assert_eq!(
        runtimes,
        BTreeSet::from(["\"esbuild-commonjs\"".to_owned()])
    );

    // The app's own build: a CommonJS input and two lazily initialized ES modules (`__esm`),
    // one of which initializes the other; minified, the same modules and requires.
    let shape = |result: &Value| {
        let modules = factories(result);
        let mut kinds = factory_runtimes(result);
        kinds.sort();
        let requires = requires(result);
        (modules.len(), kinds, support::degrees(&requires))
    };
    let app = shape(&analyze(&corpus.join("esbuild-cjs")));
    assert!(app.0 >= 2, "{app:?}");
    assert_eq!(shape(&analyze(&corpus.join("esbuild-cjs-min"))), app);

    // Split into chunks, the CommonJS input's wrapper sits in a chunk that imports the
    // helper from the shared chunk under a one-letter name: plain or minified, one module
    // per CommonJS input the metafile lists.
    for build in ["esbuild-esm", "esbuild-esm-min"] {
        let meta: Value = read_json(&corpus.join(format!("{build}.meta.json")));
        let cjs_inputs = meta["inputs"]
            .as_object()
            .unwrap()
            .values()
            .filter(|v| v["format"] == "cjs")
            .count();
        let (modules, kinds, _) = shape(&analyze(&corpus.join(build)));
        assert!(cjs_inputs > 0);
        assert_eq!(modules, cjs_inputs, "{build}: {kinds:?}");
        assert!(
            kinds.iter().all(|k| k == "\"esbuild-commonjs\""),
            "{build}: {kinds:?}"
        );
    }
}

#[test]
fn a_call_of_an_imported_function_is_a_wrapper_only_if_the_module_exports_esbuild_s_helper() {
    // Two chunks import a one-letter name and call it with a function alone, as a split
    // esbuild build calls its wrapper helper; only the chunk whose import names a module
    // that exports such a helper holds a module.
    let dir = tempfile::tempdir().unwrap();
    let write = |name: &str, text: &str| std::fs::write(dir.path().join(name), text).unwrap();
    write(
        "chunk-A.js",
        "var f=(t,e)=>()=>(e||t((e={exports:{}}).exports,e),e.exports);var m=t=>t;export{f as a,m as b};",
    );
    write(
        "index.js",
        r#"import{a as C}from"./chunk-A.js";var P=C((e,t)=>{t.exports={double:n=>n*2}});console.log(P());"#,
    );
    write(
        "other.js",
        r#"import{b as C}from"./chunk-A.js";var Q=C((e,t)=>{t.exports=1});console.log(Q);"#,
    );
    let result = analyze(dir.path());
    let modules: Vec<(String, String)> = result["graph"]["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|n| n["kind"] == "javascript-module")
        .map(|n| &n["observations"][0]["properties"])
        .filter(|p| !p["module_key"].is_null())
        .map(|p| {
            (
                p["path"].as_str().unwrap().to_owned(),
                key_text(&p["module_key"]),
            )
        })
        .collect();
    assert_eq!(modules, [("index.js".to_owned(), "P".to_owned())]);
    assert_eq!(result["statistics"]["modules"], 1);
    assert_eq!(result["statistics"]["bundles"], 1);
}

/// What Vite preloads for a manifest key: its chunk, its style sheets, and the same for every
/// chunk it imports.
fn vite_preloads(manifest: &Value, key: &str, out: &mut BTreeSet<String>) {
    let chunk = &manifest[key];
    if !out.insert(chunk["file"].as_str().unwrap().to_owned()) {
        return;
    }
    for css in chunk["css"].as_array().into_iter().flatten() {
        out.insert(css.as_str().unwrap().to_owned());
    }
    for import in chunk["imports"].as_array().into_iter().flatten() {
        vite_preloads(manifest, import.as_str().unwrap(), out);
    }
}

#[test]
fn vite_preload_tables_name_what_the_manifest_says_each_dynamic_import_loads() {
    // Vite rewrites `import("./settings.js")` to preload, through its `__vite__mapDeps`
    // table, the chunk, the chunks it imports and their style sheets. With a relative base
    // (as Electron renderers are built) the table is relative to the chunk; with an absolute
    // one, to the served root. Either way the entry chunk's dynamic imports resolve to what
    // Vite's own manifest lists.
    let corpus = corpus();
    for build in ["vite-relative", "vite-absolute"] {
        let dir = corpus.join(build);
        let manifest: Value = read_json(&dir.join("manifest.json"));
        let entry = &manifest["index.html"];
        let mut expected = BTreeSet::new();
        for dynamic in entry["dynamicImports"].as_array().unwrap() {
            vite_preloads(&manifest, dynamic.as_str().unwrap(), &mut expected);
        }
        assert!(expected.iter().any(|f| f.ends_with(".css")), "{expected:?}");
        let result = analyze(&dir);
        let nodes = support::nodes_by_id(&result);
        let mut ours = BTreeSet::new();
        for edge in result["graph"]["edges"].as_array().unwrap() {
            let p = &edge["properties"];
            let source = &nodes[edge["source_node_id"].as_str().unwrap()]["observations"][0]["properties"]
                ["path"];
            if p["kind"] == "dynamic-import" && *source == entry["file"] {
                assert_eq!(p["resolution_status"], "resolved", "{build}: {p}");
                ours.insert(p["resolved_path"].as_str().unwrap().to_owned());
            }
        }
        assert_eq!(ours, expected, "{build}");
    }
}

/// The Electron app of `corpora/javascript/electron-app`, as webpack, rspack and esbuild bundle
/// it (minified, `electron` external; with and without module concatenation) and as `tsc`
/// compiles it, has the facts its source states (`truth.json`): every tool rewrites the
/// `join(__dirname, "preload.js")` of a named import as an indirect call `(0, x.join)(…)`,
/// and each reads `electron-serve`'s default export its own way (TypeScript's and esbuild's
/// interop helpers, webpack's and rspack's getter, rollup's plain require).
#[test]
fn electron_apps_built_by_real_tools_keep_their_source_facts() {
    let corpus = corpus();
    let truth: Value = read_json(&support::scripts().join("../javascript/electron-app/truth.json"));
    let builds = [
        "electron-webpack",
        "electron-webpack-factories",
        "electron-webpack-eval",
        "electron-rspack-eval",
        "electron-rspack",
        "electron-rspack-factories",
        "electron-esbuild",
        "electron-rollup",
        "electron-rollup-esm",
        "electron-rolldown",
        "electron-rolldown-esm",
        "electron-tsc",
    ];
    for build in builds {
        let result = analyze(&corpus.join(build));
        assert_eq!(result["statistics"]["parse_failures"], 0, "{build}");
        let summary = &result["summary"];
        assert_eq!(summary["browser_windows"], truth["windows"], "{build}");
        assert_eq!(
            summary["ipc"]["paired_renderer_transmissions"], truth["paired_renderer_transmissions"],
            "{build}"
        );
        assert_eq!(
            summary["open_external_calls"], truth["open_external_calls"],
            "{build}"
        );
        // The command line's switches, in source order, whatever each tool made of `app` and
        // of the constant the port is bound to.
        let switches: Vec<Value> = summary["command_line_switches"]["items"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| serde_json::json!([c["api"], c["switch"], c["value"]]))
            .collect();
        assert_eq!(
            Value::from(switches),
            truth["command_line_switches"],
            "{build}"
        );
        assert_eq!(
            summary["command_line_switches"]["weakening_switches"], truth["weakening_switches"],
            "{build}"
        );
        // Only `settings:set` compares its sender's frame URL.
        assert_eq!(
            summary["ipc"]["main_handlers_without_sender_check"],
            truth["main_handlers_without_sender_check"],
            "{build}"
        );
        let nodes = result["graph"]["nodes"].as_array().unwrap();
        let observed = |kind: &str| -> Vec<&Value> {
            nodes
                .iter()
                .filter(|n| n["kind"] == kind)
                .flat_map(|n| n["observations"].as_array().unwrap())
                .map(|o| &o["properties"])
                .collect()
        };
        let preloads: BTreeSet<&str> = observed("electron-preload")
            .into_iter()
            .filter(|p| p["resolution_status"] == "resolved")
            .map(|p| p["resolved_path"].as_str().unwrap())
            .collect();
        let expected: BTreeSet<&str> = truth["preloads"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p.as_str().unwrap())
            .collect();
        assert_eq!(preloads, expected, "{build}: preloads");
        // What windows load: a file, and the pages electron-serve serves (its loader, and a
        // URL of its scheme), found as its lookup finds them.
        let pages: BTreeSet<&str> = observed("electron-renderer")
            .into_iter()
            .filter(|p| p["resolution_status"] == "resolved")
            .map(|p| p["resolved_path"].as_str().unwrap())
            .collect();
        let expected: BTreeSet<&str> = truth["renderer_pages"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p.as_str().unwrap())
            .collect();
        assert_eq!(pages, expected, "{build}: renderer pages");
        let bridges: BTreeMap<String, Value> = observed("context-bridge-api")
            .into_iter()
            .map(|p| {
                (
                    p["api_key"].as_str().unwrap().to_owned(),
                    p["members"].clone(),
                )
            })
            .collect();
        let expected: BTreeMap<String, Value> = truth["bridges"]
            .as_object()
            .unwrap()
            .iter()
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        assert_eq!(bridges, expected, "{build}: bridges");
        // Every renderer IPC call of this app sits in the bridge's members: the API reaches
        // each channel (and exposes the listener) itself.
        let bridge_ids: BTreeSet<&str> = nodes
            .iter()
            .filter(|n| n["kind"] == "context-bridge-api")
            .map(|n| n["node_id"].as_str().unwrap())
            .collect();
        let through_bridge: BTreeSet<(String, String)> = result["graph"]["edges"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|e| bridge_ids.contains(e["source_node_id"].as_str().unwrap()))
            .filter(|e| e["relation"] != "contains")
            .filter(|e| !e["properties"]["channel"].is_null())
            .map(|e| {
                (
                    e["properties"]["operation"].as_str().unwrap().to_owned(),
                    e["properties"]["channel"].as_str().unwrap().to_owned(),
                )
            })
            .collect();
        assert_eq!(
            through_bridge,
            support::string_pairs(&truth["renderer_ipc"]),
            "{build}: the bridge's IPC"
        );
        support::assert_ipc_sides(&result, &truth, build);
    }
}

/// `corpora/javascript/channels-app` compiled file by file by `tsc`, to CommonJS and to ES
/// modules, and each output bundled by webpack, rspack and esbuild, development and production
/// (esbuild: minified or not): every channel the main process handles, the preload sends and
/// the page sends through the preload's bridge is a member of what `channels.ts` exports (a
/// constant, a constant object, an enum), read off that file, off another factory of the
/// bundle (`o.GET` after `var o = n(777)`, `ch.GET` after `require_channels()`, or a minified
/// wrapper's `R()`), or left as a literal or an inlined enum by concatenation and
/// minification; every transmission pairs, those the main process handles through a helper
/// (its own, or one another module exports) too, and so does the preload's send through the
/// instance of a helper class another module exports, and so do those the main process
/// listens on in a loop over a list `channels.ts` exports (`LOGGED.forEach((channel) =>
/// ipcMain.on(channel, …))`), read off that file, off its factory, or in place once
/// concatenated. The channels expected are the strings
/// `channels.ts` itself writes. The preload's second bridge exposes the object `bridge.ts`
/// exports, read off that file, off its factory, or in the concatenated scope: it has the
/// members `bridge.ts` writes, and the page's call through it pairs.
/// vue-cli-plugin-electron-builder's main process, built from the plugin's own tarball as its
/// `electron:build` does (`corpora/javascript/vue-cli-app`): the page it loads under `app://`
/// is served by the plugin's `createProtocol(scheme)`, whose handler reads the request's path
/// beside the bundle; the scheme it registers as privileged keeps its privileges, and the
/// registration inside `createProtocol` names no scheme of its own (`truth.json`).
#[test]
fn vue_cli_plugin_electron_builders_main_process_serves_its_page_through_create_protocol() {
    let truth = read_json(&support::scripts().join("../javascript/vue-cli-app/truth.json"));
    let result = analyze(&corpus().join("vue-cli-electron"));
    assert_eq!(result["statistics"]["parse_failures"], 0);
    let summary = &result["summary"];
    assert_eq!(summary["browser_windows"], truth["windows"]);
    let loads: BTreeSet<(String, String, String)> = result["graph"]["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|n| n["kind"] == "electron-renderer")
        .flat_map(|n| n["observations"].as_array().unwrap())
        .map(|o| {
            let p = &o["properties"];
            let text = |k: &str| p[k].as_str().unwrap_or("-").to_owned();
            (
                text("declared_path"),
                text("resolution_status"),
                text("resolved_path"),
            )
        })
        .collect();
    let expected: BTreeSet<(String, String, String)> =
        serde_json::from_value(truth["renderer_loads"].clone()).unwrap();
    assert_eq!(loads, expected);
    assert_eq!(summary["url_schemes"]["schemes"], truth["url_schemes"]);
    assert_eq!(
        summary["url_schemes"]["dynamic_registrations"],
        truth["dynamic_scheme_registrations"]
    );
}

#[test]
fn channels_a_shared_module_exports_pair_across_files() {
    let corpus = corpus();
    let source = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../corpora/javascript/channels-app/src/channels.ts"),
    )
    .unwrap();
    let expected: BTreeSet<String> = source
        .split('"')
        .skip(1)
        .step_by(2)
        .filter(|s| s.contains(':'))
        .map(String::from)
        .collect();
    assert_eq!(expected.len(), 7, "{expected:?}");
    // The bridge object's members: the keys `bridge.ts` writes, one per line.
    let bridge_source = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../corpora/javascript/channels-app/src/bridge.ts"),
    )
    .unwrap();
    let bridge_members: Vec<&str> = bridge_source
        .lines()
        .filter_map(|line| {
            line.strip_prefix("  ")?
                .split_once(": ")
                .map(|(key, _)| key)
        })
        .collect();
    assert!(!bridge_members.is_empty());
    let mut builds = vec!["channels-tsc-cjs".to_owned(), "channels-tsc-esm".to_owned()];
    for bundler in ["webpack", "rspack", "esbuild"] {
        for format in ["cjs", "esm"] {
            for mode in ["dev", "prod"] {
                builds.push(format!("channels-{bundler}-{format}-{mode}"));
            }
        }
    }
    // Production with every module a factory of its own: the barrel's re-exports, and
    // webpack's array form of export definitions, stay in the output.
    builds.push("channels-webpack-esm-nocat".to_owned());
    builds.push("channels-rspack-esm-nocat".to_owned());
    for build in &builds {
        let result = analyze(&corpus.join(build));
        assert_eq!(result["statistics"]["parse_failures"], 0, "{build}");
        let ipc = &result["summary"]["ipc"];
        // The preload's seven, its send through the instance `messenger.ts` exports, and the
        // page's send and invoke through the bridges; two of them pair with the handlers the
        // main process registers through helpers: its own, and one `ipc.ts` exports (read off
        // that file, off its factory, or in the concatenated scope), and two with the
        // listeners it registers in a loop over a list `channels.ts` exports.
        assert_eq!(ipc["paired_renderer_transmissions"], 10, "{build}");
        // The bridge members' own send and invoke, whose channels are their parameters, the
        // messenger's own send, and the two helpers' own handlers, unless the minifier
        // inlined a helper into its one call.
        let dynamic = ipc["dynamic_channel_operations"].as_u64().unwrap();
        assert!(
            dynamic == 5
                || ((3..5).contains(&dynamic)
                    && (build.ends_with("-prod") || build.ends_with("-nocat"))),
            "{build}: {dynamic}"
        );
        let bridge: Vec<&Value> = result["graph"]["nodes"]
            .as_array()
            .unwrap()
            .iter()
            .map(|n| &n["observations"][0]["properties"])
            .filter(|p| p["api_key"] == "bridge")
            .collect();
        assert_eq!(bridge.len(), 1, "{build}");
        assert_eq!(bridge[0]["api_status"], "object-literal", "{build}");
        assert_eq!(bridge[0]["members"], json!(bridge_members), "{build}");
        // Unbundled, the object is read off the file that exports it.
        if build.starts_with("channels-tsc") {
            assert_eq!(bridge[0]["api_source"]["path"], "bridge.js", "{build}");
            assert_eq!(bridge[0]["api_source"]["export"], "bridge", "{build}");
        }
        let mut seen: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        let mut constants = 0;
        for edge in result["graph"]["edges"].as_array().unwrap() {
            let p = &edge["properties"];
            if let (Some(side), Some(channel)) = (p["side"].as_str(), p["channel"].as_str()) {
                // A constant keeps the expression it was written as; a literal has none.
                match p["resolution"].as_str() {
                    Some("constant") => {
                        assert!(p["channel_expression"].is_string(), "{build}: {p}");
                        constants += 1;
                    }
                    Some("literal") => assert!(p["channel_expression"].is_null(), "{build}: {p}"),
                    other => panic!("{build}: {other:?} {p}"),
                }
                seen.entry(side.to_owned())
                    .or_default()
                    .insert(channel.to_owned());
            }
        }
        // Unbundled and development builds read every channel through a name (the preload's
        // through the barrel that re-exports them): the main process's seven (two through
        // the loop's variable), the preload's eight, and the page's two through the bridges.
        if build.starts_with("channels-tsc") || build.ends_with("-dev") {
            assert_eq!(constants, 17, "{build}");
        } else {
            assert!(constants > 0, "{build}");
        }
        assert_eq!(seen["main"], expected, "{build}");
        assert_eq!(seen["renderer"], expected, "{build}");
    }
}

/// The members an interface of a TypeScript declaration file declares, one per line
/// (`name(…)`, `name: Type;`, `readonly name: …`), with the type of a field written as one
/// name, by interface name.
fn declared_interfaces(declarations: &str) -> BTreeMap<&str, Vec<(&str, Option<&str>)>> {
    let mut out: BTreeMap<&str, Vec<(&str, Option<&str>)>> = BTreeMap::new();
    let mut current = None;
    for line in declarations.lines() {
        if let Some(name) = line
            .strip_prefix("interface ")
            .and_then(|rest| rest.strip_suffix(" {"))
        {
            current = Some(name);
            out.insert(name, Vec::new());
        } else if line == "}" {
            current = None;
        } else if let Some(interface) = current
            && let Some(member) = line.strip_prefix("    ")
            && member.starts_with(|c: char| c.is_alphabetic() || c == '_' || c == '$')
        {
            let member = member.strip_prefix("readonly ").unwrap_or(member);
            let end = member.find(['(', ':']).unwrap_or(member.len());
            let field_type = member[end..]
                .strip_prefix(": ")
                .and_then(|t| t.strip_suffix(';'))
                .filter(|t| t.chars().all(char::is_alphanumeric));
            out.get_mut(interface)
                .unwrap()
                .push((&member[..end], field_type));
        }
    }
    out
}

/// electron-vite's template shape bundled by rollup to CommonJS and to ES modules: the
/// preload exposes `electronAPI`, which the real `@electron-toolkit/preload` package builds in
/// its own file. The bridge has the members the package's own type declarations give its
/// `ElectronAPI` (each field, and each member of the field's interface), read off the
/// package's file, and the page's send through it pairs with the main process's handler;
/// so do the page's messages through the real `@electron-toolkit/typed-ipc` classes.
#[test]
fn a_bridge_exposing_a_packages_api_has_the_members_the_package_declares() {
    let corpus = corpus();
    for build in ["toolkit-cjs", "toolkit-esm"] {
        let app = corpus.join(build);
        let package = app.join("node_modules/@electron-toolkit/preload");
        let declarations = std::fs::read_to_string(package.join("dist/index.d.ts")).unwrap();
        let interfaces = declared_interfaces(&declarations);
        let mut expected: Vec<String> = Vec::new();
        for (field, field_type) in &interfaces["ElectronAPI"] {
            // `ipcRenderer: IpcRenderer;`: each field's type is an interface of the file.
            let interface = &interfaces[field_type.unwrap()];
            expected.push((*field).to_owned());
            expected.extend(interface.iter().map(|(m, _)| format!("{field}.{m}")));
        }
        expected.sort();
        assert!(expected.len() > 10, "{expected:?}");
        let result = analyze(&app);
        let preload_bridges: Vec<&Value> = result["graph"]["nodes"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|n| n["kind"] == "context-bridge-api")
            .map(|n| &n["observations"][0]["properties"])
            .filter(|p| p["path"].as_str().unwrap().starts_with("out/preload/"))
            .collect();
        let electron: Vec<&&Value> = preload_bridges
            .iter()
            .filter(|p| p["api_key"] == "electron")
            .collect();
        assert_eq!(electron.len(), 1, "{build}");
        let bridge = electron[0];
        assert_eq!(bridge["api_status"], "object-literal", "{build}");
        assert_eq!(bridge["members"], json!(expected), "{build}");
        // Read off the file the package's `main` names, or for an import, the one its
        // `exports` map gives imports.
        let manifest = read_json(&package.join("package.json"));
        let file = |entry: &Value| {
            let entry = entry.as_str().unwrap().trim_start_matches("./");
            format!("node_modules/@electron-toolkit/preload/{entry}")
        };
        let mut sources = vec![file(&manifest["main"])];
        if build.ends_with("esm") {
            sources.push(file(&manifest["exports"]["."]["import"]));
        }
        let source = &bridge["api_source"];
        assert!(
            sources.iter().any(|s| source["path"] == s.as_str()),
            "{build}: {source}"
        );
        assert_eq!(source["export"], "electronAPI", "{build}");
        assert_eq!(source["module_key"], Value::Null, "{build}");
        // The members through which the page picks the channel: the methods the package
        // declares with a first parameter `channel` (`send(channel: string, …)`).
        let mut picking: Vec<String> = interfaces["IpcRenderer"]
            .iter()
            .filter(|(m, _)| declarations.contains(&format!("{m}(channel: string")))
            .map(|(m, _)| format!("ipcRenderer.{m}"))
            .collect();
        picking.sort();
        assert!(picking.len() >= 5, "{picking:?}");
        let forwarders: Vec<&str> = bridge["channel_forwarders"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| f["member"].as_str().unwrap())
            .collect();
        assert_eq!(forwarders, picking, "{build}");
        assert!(
            result["summary"]["bridge_channel_forwarders"]["items"]
                .as_array()
                .unwrap()
                .iter()
                .any(|f| f["path"] == bridge["path"] && f["member"] == "ipcRenderer.send"),
            "{build}"
        );
        // The page's send through the bridge, and its two messages through typed-ipc's
        // emitter class (bundled into the page), pair with the main process's handlers; the
        // typed ones with those it registers through the package's own listener class,
        // reached through the package's `exports` map. The channels are the app's
        // (src/main.js and src/renderer.js).
        let paired = support::paired_transmissions(&result);
        let expected: BTreeSet<(String, String, String)> = [
            ("ping", "", "on"),
            ("typed:ping", "emitter.send", "on"),
            ("typed:say-hello", "emitter.invoke", "handle"),
        ]
        .iter()
        .map(|(c, v, o)| ((*c).to_owned(), (*v).to_owned(), (*o).to_owned()))
        .collect();
        assert_eq!(paired, expected, "{build}");
        assert_eq!(
            result["summary"]["ipc"]["paired_renderer_transmissions"], 3,
            "{build}"
        );
    }
}

/// Module keys per (file, table): a file can hold more than one table (a bundle nested in a
/// factory of another), each its own identity namespace.
fn recovered_tables(result: &Value) -> BTreeMap<(String, String), BTreeSet<String>> {
    let mut out: BTreeMap<(String, String), BTreeSet<String>> = BTreeMap::new();
    for node in result["graph"]["nodes"].as_array().unwrap() {
        if node["kind"] != "javascript-module" {
            continue;
        }
        let namespace = node["identity"]["namespace"].as_str().unwrap().to_owned();
        for obs in node["observations"].as_array().unwrap() {
            let p = &obs["properties"];
            if let (Some(path), false) = (p["path"].as_str(), p["module_key"].is_null()) {
                out.entry((path.to_owned(), namespace.clone()))
                    .or_default()
                    .insert(key_text(&p["module_key"]));
            }
        }
    }
    out
}

#[test]
fn shipped_npm_bundles_match_webpack_bundle_analyzer() {
    // Bundles as packages ship them (corpora/npm-bundles/files.txt), against what
    // webpack-bundle-analyzer's own parser finds in each file.
    let corpus = support::corpus("npm-bundles.sh", "npm-bundles");
    let oracle: Value = read_json(&corpus.join("analyzer.json"));
    let result = analyze(&corpus.join("set"));
    assert_eq!(result["statistics"]["parse_failures"], 0);
    let tables = recovered_tables(&result);
    let keys_of = |list: &Value| -> BTreeSet<String> {
        list.as_array().unwrap().iter().map(key_text).collect()
    };
    let mut compared = 0;
    for (file, listed) in oracle.as_object().unwrap() {
        let ours: Vec<&BTreeSet<String>> = tables
            .iter()
            .filter(|((path, _), _)| path == file)
            .map(|(_, keys)| keys)
            .collect();
        let expected = keys_of(listed);
        if expected.is_empty() {
            continue;
        }
        compared += 1;
        // The analyzer reads the outermost table; it must be one of ours, key for key.
        assert!(
            ours.contains(&&expected),
            "{file}: the analyzer lists {} modules; ours are tables of {:?}",
            expected.len(),
            ours.iter().map(|keys| keys.len()).collect::<Vec<_>>()
        );
    }
    assert!(compared >= 15, "only {compared} files had analyzer modules");
    // The analyzer reads no module from a minified webpack 4 bundle whose bootstrap terser
    // inlined (`return i=[…],c={},a.m=i,…`); its development build lists the same ids.
    let (minified, development) = ("draft-js_dist_Draft.min.js", "draft-js_dist_Draft.js");
    assert_eq!(oracle[minified], Value::Array(Vec::new()), "{minified}");
    let ours: Vec<&BTreeSet<String>> = tables
        .iter()
        .filter(|((path, _), _)| path == minified)
        .map(|(_, keys)| keys)
        .collect();
    assert_eq!(ours, [&keys_of(&oracle[development])], "{minified}");
    // web3 ships a webpack 4 library inside one of its webpack 5 factories: two tables, both
    // minified to `e`, in two namespaces.
    let web3: Vec<&String> = tables
        .keys()
        .filter(|(path, _)| path == "web3_dist_web3.min.js")
        .map(|(_, namespace)| namespace)
        .collect();
    assert_eq!(web3.len(), 2, "{web3:?}");
}

/// The same Electron app built by each tool is one version of it: compared with what `tsc`
/// compiles, its boundary (IPC channels and handlers, the bridge, windows, preloads, roles and
/// the external calls) pairs node for node, none of it added, removed or ambiguous. (The
/// `eval` devtool builds are left out: every position inside an `eval` string stands for the
/// string, so two handlers there share one place.)
#[test]
fn an_electron_app_built_by_each_tool_keeps_its_boundary_against_the_tsc_build() {
    const BOUNDARY: [&str; 8] = [
        "ipc-channel",
        "ipc-handler",
        "context-bridge-api",
        "browser-window",
        "electron-preload",
        "electron-main",
        "electron-renderer",
        "target",
    ];
    let corpus = corpus();
    let work = tempfile::tempdir().unwrap();
    let envelope = |build: &str| {
        let value = support::tool_json("analyze-javascript-application", &corpus.join(build), &[]);
        let path = work.path().join(format!("{build}.json"));
        std::fs::write(&path, serde_json::to_vec(&value).unwrap()).unwrap();
        path
    };
    let base = envelope("electron-tsc");
    for build in [
        "electron-webpack",
        "electron-webpack-factories",
        "electron-webpack-eval",
        "electron-rspack-eval",
        "electron-rspack",
        "electron-rspack-factories",
        "electron-esbuild",
        "electron-rollup",
        "electron-rollup-esm",
        "electron-rolldown",
        "electron-rolldown-esm",
    ] {
        let other = envelope(build);
        let result = support::tool_json(
            "compare-application-versions",
            &base,
            &[other.to_str().unwrap()],
        )["result"]
            .clone();
        let items = result["items"].as_array().unwrap();
        let boundary: Vec<&Value> = items
            .iter()
            .filter(|i| BOUNDARY.contains(&i["kind"].as_str().unwrap()))
            .collect();
        assert!(
            boundary.len() >= 15,
            "{build}: {} boundary items",
            boundary.len()
        );
        for item in boundary {
            assert!(
                item["status"] == "changed" || item["status"] == "unchanged",
                "{build}: {item}"
            );
        }
    }
}

/// A feature traced through the same Electron app built by each tool: from the bridge the
/// preload exposes, along the flow, to every main-process handler of a channel the bridge
/// sends on (ground truth: `truth.json`), the renderer listener it registers, and the shell
/// call the `link:open` handler makes; and every build's paths end where the `tsc` build's do.
/// (The `eval` devtool builds are left out, as above: a handler there has no place of its own
/// to hold what its function does.)
#[test]
fn a_bridge_traced_through_each_tools_build_reaches_the_handlers_truth_names() {
    let truth = read_json(&support::scripts().join("../javascript/electron-app/truth.json"));
    let (api, _) = truth["bridges"].as_object().unwrap().iter().next().unwrap();
    let main_ipc = support::string_pairs(&truth["main_ipc"]);
    // Channels the renderer sends on that a main handler takes, and channels it listens on.
    let mut expected: BTreeSet<String> = BTreeSet::new();
    for op in truth["renderer_ipc"].as_array().unwrap() {
        let (mode, channel) = (op[0].as_str().unwrap(), op[1].as_str().unwrap().to_owned());
        let handled = match mode {
            "invoke" => main_ipc.contains(&("handle".to_owned(), channel.clone())),
            "send" => main_ipc.contains(&("on".to_owned(), channel.clone())),
            _ => true,
        };
        if handled {
            expected.insert(channel);
        }
    }
    assert!(expected.len() >= 4, "{expected:?}");
    let corpus = corpus();
    let work = tempfile::tempdir().unwrap();
    let trace = |build: &str| {
        let value = support::tool_json("analyze-javascript-application", &corpus.join(build), &[]);
        // The summary says which process boundaries the handlers' code reaches, as the
        // sources do (`truth.json`), whatever the tool made of the handler's function.
        assert_eq!(
            support::handler_boundaries(&value["result"]),
            truth["ipc_handler_boundaries"],
            "{build}"
        );
        let path = work.path().join(format!("{build}.json"));
        std::fs::write(&path, serde_json::to_vec(&value).unwrap()).unwrap();
        support::tool_json(
            "trace-application-feature",
            &path,
            &[
                "--seed-kind",
                "api",
                "--seed",
                api,
                "--direction",
                "outgoing",
            ],
        )["result"]
            .clone()
    };
    let ends = |result: &Value| -> BTreeSet<(String, String)> {
        let nodes = support::nodes_by_id(result);
        result["paths"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| {
                let node = nodes[p["end_node_id"].as_str().unwrap()];
                (node["kind"].as_str().unwrap().to_owned(), main_label(node))
            })
            .collect()
    };
    let base = ends(&trace("electron-tsc"));
    for build in [
        "electron-tsc",
        "electron-webpack",
        "electron-webpack-factories",
        "electron-webpack-eval",
        "electron-rspack-eval",
        "electron-rspack",
        "electron-rspack-factories",
        "electron-esbuild",
        "electron-rollup",
        "electron-rollup-esm",
        "electron-rolldown",
        "electron-rolldown-esm",
    ] {
        let result = trace(build);
        assert_eq!(result["summary"]["matched_seeds"], 1, "{build}");
        let handlers: BTreeSet<String> = result["graph"]["nodes"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|n| n["kind"] == "ipc-handler")
            .map(main_label)
            .collect();
        assert_eq!(handlers, expected, "{build}");
        let found = ends(&result);
        if truth["open_external_calls"].as_u64().unwrap() > 0 {
            assert!(
                found.contains(&(
                    "target".to_owned(),
                    "electron.shell.openExternal".to_owned()
                )),
                "{build}: {found:?}"
            );
        }
        assert_eq!(found, base, "{build}");
    }
}

/// A node's label: its registration's for a handler (a sender check observed on it has a
/// label of its own), otherwise its first observation's.
fn main_label(node: &Value) -> String {
    let observations = node["observations"].as_array().unwrap();
    observations
        .iter()
        .find(|o| o["properties"]["fact_kind"] == "ipc-registration")
        .unwrap_or(&observations[0])["label"]
        .as_str()
        .unwrap_or_default()
        .to_owned()
}

/// A main process that webpack and rspack split with a dynamic import (`target:
/// "electron-main"`): the chunk is in the CommonJS chunk format (`exports.ids = [...],
/// exports.modules = {...}`), its factories are the ones the stats list for its file, and what
/// they do with `electron`, which they require by key from the entry file, is read as Electron
/// (`split-truth.json`, read off the sources). The entry's runtime loads the chunk, so the main
/// entrypoint reaches it and nothing with Electron facts is left unreached.
#[test]
fn a_main_process_split_into_commonjs_chunks_is_read_whole() {
    let corpus = corpus();
    let truth: Value =
        read_json(&support::scripts().join("../javascript/electron-app/split-truth.json"));
    for build in ["electron-webpack-split", "electron-rspack-split"] {
        let stats: Value = read_json(&corpus.join(format!("{build}.factories.json")));
        let result = analyze(&corpus.join(build));
        assert_eq!(result["statistics"]["parse_failures"], 0, "{build}");
        let ours = recovered(&result);
        let chunks: Vec<&String> = stats
            .as_object()
            .unwrap()
            .keys()
            .filter(|f| f.ends_with(".chunk.js"))
            .collect();
        assert_eq!(chunks.len(), 1, "{build}: {stats}");
        let chunk = chunks[0];
        let expected: BTreeSet<String> = stats[chunk]
            .as_array()
            .unwrap()
            .iter()
            .map(key_text)
            .collect();
        assert_eq!(ours.get(chunk), Some(&expected), "{build}/{chunk}");
        let nodes = support::nodes_by_id(&result);
        let path_of = |id: &Value| {
            nodes[id.as_str().unwrap()]["observations"][0]["properties"]["path"]
                .as_str()
                .unwrap_or("")
                .to_owned()
        };
        // Windows, by the file that opens them.
        let windows: Vec<String> = nodes
            .values()
            .filter(|n| n["kind"] == "browser-window")
            .map(|n| path_of(&n["node_id"]))
            .collect();
        let in_chunk = windows.iter().filter(|p| *p == chunk).count();
        assert_eq!(in_chunk, truth["chunk_windows"], "{build}: {windows:?}");
        assert_eq!(
            windows.len() - in_chunk,
            truth["main_windows"].as_u64().unwrap() as usize,
            "{build}: {windows:?}"
        );
        // The chunk's IPC registrations, from the factory that makes them.
        let main_ipc: BTreeSet<(String, String)> = result["graph"]["edges"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|e| e["properties"]["side"] == "main")
            .filter(|e| path_of(&e["source_node_id"]) == *chunk)
            .map(|e| {
                let p = &e["properties"];
                (
                    p["operation"].as_str().unwrap().to_owned(),
                    p["channel"].as_str().unwrap().to_owned(),
                )
            })
            .collect();
        assert_eq!(
            main_ipc,
            support::string_pairs(&truth["chunk_main_ipc"]),
            "{build}: the chunk's IPC"
        );
        // The entry's runtime loads the chunk: an edge from its chunk node to the chunk's.
        let async_loads = result["graph"]["edges"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|e| e["properties"]["kind"] == "bundler-async-chunk")
            .filter(|e| path_of(&e["target_node_id"]) == *chunk)
            .count();
        assert!(async_loads > 0, "{build}: no load of {chunk}");
        let reach = &result["summary"]["entrypoint_reach"];
        assert_eq!(reach["status"], "computed", "{build}");
        assert_eq!(reach["main_entrypoints"], json!(["main.js"]), "{build}");
        assert_eq!(reach["files_reached"], 2, "{build}: {reach}");
        assert_eq!(reach["unreached"]["files"], 0, "{build}: {reach}");
    }
}

/// What the main entrypoint reaches in electron-vite's template shape (CommonJS): the preload
/// `require`s `@electron-toolkit/preload`, which its package's `exports` map to one of its two
/// builds, so that build is reached and the other (which holds a bridge and IPC operations of
/// its own) is listed as never seen loaded, with what it holds; the app's own files are
/// reached. The two builds are named by the package's own `exports`, not by this test.
#[test]
fn the_summary_names_files_with_electron_facts_that_the_main_entrypoint_never_loads() {
    let app = corpus().join("toolkit-cjs");
    let package = "node_modules/@electron-toolkit/preload";
    let manifest = read_json(&app.join(package).join("package.json"));
    let build = |condition: &str| {
        let file = manifest["exports"]["."][condition].as_str().unwrap();
        format!("{package}/{}", file.trim_start_matches("./"))
    };
    let (required, imported) = (build("require"), build("import"));
    let result = analyze(&app);
    let reach = &result["summary"]["entrypoint_reach"];
    assert_eq!(reach["status"], "computed", "{reach}");
    assert_eq!(reach["main_entrypoints"], json!(["out/main/index.js"]));
    let listed: BTreeMap<&str, &Value> = reach["unreached"]["listed_files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| (f["path"].as_str().unwrap(), f))
        .collect();
    assert!(listed.contains_key(imported.as_str()), "{reach}");
    assert!(!listed.contains_key(required.as_str()), "{reach}");
    assert!(listed.keys().all(|p| !p.starts_with("out/")), "{reach}");
    assert_eq!(
        listed[imported.as_str()]["context_bridge_apis"],
        1,
        "{reach}"
    );
    // The totals add up the files listed (all of them are, under the list's bound).
    assert_eq!(reach["unreached"]["files"], listed.len());
    for key in ["browser_windows", "context_bridge_apis", "ipc_operations"] {
        let sum: u64 = listed.values().map(|f| f[key].as_u64().unwrap()).sum();
        assert_eq!(reach["unreached"][key], sum, "{key}");
    }
    // The human summary marks the bridge of the build nothing loads.
    let out = support::run(&["analyze-javascript-application", app.to_str().unwrap()]);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.lines().any(|l| l.starts_with("  bridge")
            && l.contains(imported.as_str())
            && l.ends_with("(not seen loaded from main)")),
        "{text}"
    );
    assert!(
        text.lines()
            .any(|l| l.starts_with("  reach") && l.contains(&imported)),
        "{text}"
    );
}

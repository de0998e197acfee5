//! Export shapes against third-party judges, on real npm packages:
//!
//! - TypeScript's checker (`corpora/scripts/ts_return_shapes.mjs`, typescript 5.9.3 from the
//!   bundles corpus) reads the same files as JavaScript and says what each export is and what
//!   each exported function returns. Wherever rea's reading is fully decided (every variant a
//!   primitive, an array, a function, or a complete object) and TypeScript's answer is one it
//!   can spell the same way, both must agree on every export: its kind, a function's arity,
//!   and the set of its return types, objects by their keys.
//! - rxjs ships each module compiled twice from one TypeScript source, as CommonJS
//!   (`dist/cjs`) and as ES modules (`dist/esm5`), both to ES5. Analyzed as two versions,
//!   every export the two builds share must compare as unchanged or unknown, never changed:
//!   the module format is not a shape.
//!
//! Nothing here hard-codes an export: the exports come from the packages.

mod support;

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::process::Command;

use serde_json::Value;

/// The analysis of `root`, `--json`, also written to `out` for the comparisons to read.
fn analyze(root: &Path, out: &Path) -> Value {
    let analysis = support::tool_json("analyze-javascript-application", root, &[]);
    std::fs::write(out, serde_json::to_vec(&analysis).unwrap()).unwrap();
    analysis
}

/// What `command` prints as JSON; it must succeed.
fn json_of(command: &mut Command) -> Value {
    let output = command.output().expect("the command runs");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    serde_json::from_slice(&output.stdout).unwrap()
}

/// (module path, export name) of an analysis's exports.
fn export_keys(analysis: &Value) -> BTreeSet<(String, String)> {
    analysis["result"]["export_shapes"]["exports"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            (
                e["module_path"].as_str().unwrap().to_owned(),
                e["export_name"].as_str().unwrap().to_owned(),
            )
        })
        .collect()
}

/// One variant as TypeScript names its types; `None` when rea's reading leaves it undecided.
fn spelled(shape: &Value) -> Option<String> {
    let t = shape["type"].as_str()?;
    match t {
        "string" | "number" | "bigint" | "boolean" | "null" | "undefined" | "function"
        | "array" => Some(t.to_owned()),
        "object" if shape["complete"] == true => {
            let keys: Vec<&str> = shape["fields"]
                .as_object()?
                .keys()
                .map(String::as_str)
                .collect();
            Some(format!("object:{}", keys.join(",")))
        }
        _ => None,
    }
}

/// TypeScript drops the `undefined` a JavaScript function returns by ending without a
/// `return` when it returns something else too; so the comparison drops it on both sides.
fn without_implicit_undefined(mut types: BTreeSet<String>) -> BTreeSet<String> {
    if types.len() > 1 {
        types.remove("undefined");
    }
    types
}

#[test]
fn export_shapes_agree_with_typescripts_checker() {
    let typescript =
        support::corpus("bundles-corpus.sh", "bundles").join("tools/node_modules/typescript");
    let work = tempfile::tempdir().unwrap();
    let mut compared = 0;
    let mut disagreements = Vec::new();
    for (name, root) in [
        (
            "exports",
            support::corpus("exports-corpus.sh", "exports").join("tree"),
        ),
        ("npm-tree", support::corpus("npm-tree.sh", "npm-tree")),
    ] {
        let result = analyze(&root, &work.path().join(format!("{name}.json")));
        let section = &result["result"]["export_shapes"];
        assert_eq!(section["coverage"]["status"], "complete");
        // rea's decided exports: (file, name) → (kind, types).
        let mut ours: BTreeMap<(String, String), (String, BTreeSet<String>, Value)> =
            BTreeMap::new();
        for export in section["exports"].as_array().unwrap() {
            let kind = export["kind"].as_str().unwrap();
            // TypeScript judges files; a bundle's factories are judged by the test below.
            if !matches!(kind, "function" | "value")
                || export["status"] != "complete"
                || !export["module_key"].is_null()
            {
                continue;
            }
            let types: Option<BTreeSet<String>> = export["shapes"]
                .as_array()
                .unwrap()
                .iter()
                .map(spelled)
                .collect();
            let Some(types) = types.filter(|t| !t.is_empty()) else {
                continue;
            };
            // A value chosen between functions is a function TypeScript calls, whose returns
            // rea does not attribute: not comparable.
            if kind == "value" && types.iter().all(|t| t == "function") {
                continue;
            }
            let key = (
                export["module_path"].as_str().unwrap().to_owned(),
                export["export_name"].as_str().unwrap().to_owned(),
            );
            ours.insert(
                key,
                (kind.to_owned(), types, export["parameter_arity"].clone()),
            );
        }
        let files: BTreeSet<&str> = ours.keys().map(|(f, _)| f.as_str()).collect();
        let theirs = json_of(
            Command::new("node")
                .arg(support::scripts().join("ts_return_shapes.mjs"))
                .arg(&typescript)
                .arg(&root)
                .args(&files),
        );
        for ((file, export), (kind, types, arity)) in &ours {
            // TypeScript does not list every CommonJS shape as an export (`exports =
            // module.exports = …`), and answers `any` where JavaScript gives it no type.
            let Some(judged) = theirs[file].get(export) else {
                continue;
            };
            let Some(their_types) = judged["types"].as_array() else {
                continue;
            };
            let their_types: BTreeSet<String> = their_types
                .iter()
                .map(|t| t.as_str().unwrap().to_owned())
                .collect();
            compared += 1;
            if judged["kind"] != kind.as_str()
                || without_implicit_undefined(their_types.clone())
                    != without_implicit_undefined(types.clone())
                || (kind == "function" && judged["arity"] != *arity)
            {
                disagreements.push(format!(
                    "{name}: {file} {export}: rea {kind} {types:?}, typescript {judged}"
                ));
            }
        }
    }
    assert!(disagreements.is_empty(), "{disagreements:#?}");
    // Both corpora hold hundreds of decided exports; a reading that decided almost nothing
    // would pass the comparison above vacuously.
    assert!(compared >= 300, "only {compared} exports were compared");
}

#[test]
fn one_source_built_as_commonjs_and_as_es_modules_compares_unchanged_or_unknown() {
    let rxjs = support::corpus("exports-corpus.sh", "exports").join("tree/node_modules/rxjs/dist");
    let work = tempfile::tempdir().unwrap();
    // The builds' `internal/util` directories, side by side as two versions of one tree.
    let mut sides = Vec::new();
    for build in ["cjs", "esm5"] {
        let dir = work.path().join(build);
        std::fs::create_dir_all(&dir).unwrap();
        for entry in std::fs::read_dir(rxjs.join(build).join("internal/util")).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|e| e == "js") {
                std::fs::copy(&path, dir.join(path.file_name().unwrap())).unwrap();
            }
        }
        let out = work.path().join(format!("{build}.json"));
        let result = analyze(&dir, &out);
        sides.push((out, result));
    }
    let shared: Vec<(String, String)> = export_keys(&sides[0].1)
        .intersection(&export_keys(&sides[1].1))
        .cloned()
        .collect();
    assert!(shared.len() >= 20, "{} shared exports", shared.len());
    let mut statuses: BTreeMap<String, usize> = BTreeMap::new();
    for (module, export) in &shared {
        let envelope = json_of(
            support::rea()
                .arg("compare-javascript-export-shapes")
                .arg(&sides[0].0)
                .arg(&sides[1].0)
                .args(["--module", module, "--export", export, "--json"]),
        );
        let result = &envelope["result"];
        assert_eq!(result["left"]["selection"], "exact");
        assert_eq!(result["right"]["selection"], "exact");
        assert_eq!(
            result["left"]["export"]["syntax"], "commonjs",
            "{module} {export}"
        );
        assert_eq!(
            result["right"]["export"]["syntax"], "esm",
            "{module} {export}"
        );
        assert_ne!(result["status"], "changed", "{module} {export}: {result:#}");
        assert_eq!(
            envelope["evidence"]["evidence_links"],
            serde_json::json!([sides[0].1["evidence_id"], sides[1].1["evidence_id"]])
        );
        *statuses
            .entry(result["status"].as_str().unwrap().to_owned())
            .or_default() += 1;
    }
    // Plain helpers (`isFunction`, `identity`, `noop`) are decided from syntax alone.
    assert!(
        statuses.get("unchanged").copied().unwrap_or(0) >= 5,
        "{statuses:?}"
    );
}

/// A bundled module factory reads as the source module it was built from. Which factory is
/// which module is the bundler's own word (webpack's and rspack's stats, through the corpus's
/// `modules.json`); for every export a factory and its source module both name (production
/// builds mangle ES module export names, CommonJS keeps them), the comparison of the two must
/// be unchanged or unknown, never changed.
#[test]
fn a_bundled_factory_reads_as_the_source_module_it_was_built_from() {
    let corpus = support::corpus("versions-corpus.sh", "versions").join("corpus");
    let work = tempfile::tempdir().unwrap();
    let mut compared = BTreeMap::<String, usize>::new();
    for version in ["v1", "v2"] {
        let source_out = work.path().join(format!("src-{version}.json"));
        let source = analyze(&corpus.join("app").join(version), &source_out);
        let source_exports = export_keys(&source);
        for bundler in ["webpack", "rspack"] {
            let build = format!("{bundler}-{version}");
            let bundle_out = work.path().join(format!("{build}.json"));
            let bundle = analyze(&corpus.join(&build), &bundle_out);
            let stats: Value = serde_json::from_slice(
                &std::fs::read(corpus.join(format!("{build}.modules.json"))).unwrap(),
            )
            .unwrap();
            for export in bundle["result"]["export_shapes"]["exports"]
                .as_array()
                .unwrap()
            {
                let (Some(file), Some(key)) = (
                    export["module_path"].as_str(),
                    export["module_key"].as_u64(),
                ) else {
                    continue;
                };
                let Some(module) = stats[file]["modules"][key.to_string()].as_str() else {
                    continue;
                };
                let (Some(path), name) = (
                    module.strip_prefix("./"),
                    export["export_name"].as_str().unwrap(),
                ) else {
                    continue;
                };
                let path = path.to_owned();
                if !source_exports.contains(&(path.clone(), name.to_owned())) {
                    continue;
                }
                let envelope = json_of(
                    support::rea()
                        .arg("compare-javascript-export-shapes")
                        .arg(&source_out)
                        .arg(&bundle_out)
                        .args(["--module", &path, "--export", name])
                        .args([
                            "--right-module",
                            file,
                            "--right-module-key",
                            &key.to_string(),
                        ])
                        .arg("--json"),
                );
                let result = &envelope["result"];
                assert_eq!(
                    result["right"]["selection"], "exact",
                    "{build} {file} {key}"
                );
                assert_ne!(
                    result["status"], "changed",
                    "{build} {path} {name}: {result:#}"
                );
                *compared.entry(format!("{build} {path}")).or_default() += 1;
            }
        }
    }
    // util.cjs (CommonJS: its names survive; version 2 drops it) has two exports.
    for build in ["webpack-v1", "rspack-v1"] {
        assert_eq!(
            compared.get(&format!("{build} src/util.cjs")),
            Some(&2),
            "{compared:?}"
        );
    }
    assert!(compared.values().sum::<usize>() >= 4, "{compared:?}");
}

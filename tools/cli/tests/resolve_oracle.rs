//! Package resolution against Node.js's own resolver: every `require` and `import` of a
//! package (or of a package's `#import`) that `rea analyze-javascript-application` finds in
//! real npm packages with `exports` and `imports` maps, and in an app that requires and
//! imports every subpath they export, resolves to the file Node.js resolves it to, and stays
//! unresolved where Node.js fails.
//!
//! The corpus is built once by `corpora/scripts/exports-corpus.sh` under Cargo's target tmp
//! dir; Node.js answers through `corpora/scripts/node_resolve.mjs`, which resolves and loads
//! nothing.

mod support;

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::process::{Command, Stdio};

use serde_json::Value;

/// One reference of the analysis: the file it is in, its specifier and its syntax, and what
/// rea resolved it to.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
struct Reference {
    from: String,
    specifier: String,
    system: &'static str,
    status: String,
    resolved: Option<String>,
}

fn references(result: &Value) -> BTreeSet<Reference> {
    let nodes: BTreeMap<&str, &Value> = result["graph"]["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| (n["node_id"].as_str().unwrap(), n))
        .collect();
    let mut out = BTreeSet::new();
    for edge in result["graph"]["edges"].as_array().unwrap() {
        let p = &edge["properties"];
        let system = match p["kind"].as_str() {
            Some("require") => "require",
            Some("static-import" | "dynamic-import") => "import",
            _ => continue,
        };
        let Some(specifier) = p["specifier"].as_str() else {
            continue;
        };
        if specifier.starts_with('.') || specifier.starts_with('/') {
            continue;
        }
        let source = nodes[edge["source_node_id"].as_str().unwrap()];
        let Some(from) = source["observations"][0]["properties"]["path"].as_str() else {
            continue;
        };
        out.insert(Reference {
            from: from.to_owned(),
            specifier: specifier.to_owned(),
            system,
            status: p["resolution_status"].as_str().unwrap().to_owned(),
            resolved: p["resolved_path"].as_str().map(str::to_owned),
        });
    }
    out
}

/// Node.js's answer for each reference, in order.
fn node_resolve(root: &Path, references: &[Reference]) -> Vec<Value> {
    let queries: Vec<Value> = references
        .iter()
        .map(|r| serde_json::json!([r.from, r.specifier, r.system]))
        .collect();
    let mut child = Command::new("node")
        .arg("--experimental-import-meta-resolve")
        .arg(support::scripts().join("node_resolve.mjs"))
        .arg(root)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("node runs");
    let input = serde_json::to_vec(&queries).unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        use std::io::Write;
        stdin.write_all(&input).unwrap();
    });
    let output = child.wait_with_output().unwrap();
    writer.join().unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let answers: Vec<Value> = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(answers.len(), references.len());
    answers
}

/// What `import` leaves to a bundler: a package without `exports`, whose subpath names a file
/// only with an extension or an `index` added. rea adds them, as bundlers and `require` do.
fn completed_by_extension(missing: &str, resolved: &str) -> bool {
    resolved.strip_prefix(missing).is_some_and(|rest| {
        let rest = rest.strip_prefix("/index").unwrap_or(rest);
        [".js", ".cjs", ".mjs", ".ts", ".tsx", ".json", ".node"].contains(&rest)
    })
}

#[test]
fn package_specifiers_resolve_where_nodes_resolver_does() {
    let root = support::corpus("exports-corpus.sh", "exports").join("tree");
    let result = support::tool_json("analyze-javascript-application", &root, &[])["result"].clone();
    let references: Vec<Reference> = references(&result).into_iter().collect();
    let answers = node_resolve(&root, &references);

    let mut outcomes: BTreeMap<String, usize> = BTreeMap::new();
    let mut mismatches = Vec::new();
    for (reference, answer) in references.iter().zip(&answers) {
        let ours = (reference.status.as_str(), reference.resolved.as_deref());
        let (outcome, agrees) = if let Some(path) = answer["path"].as_str() {
            ("resolved", ours == ("resolved", Some(path)))
        } else if answer["builtin"] == true {
            ("built-in", ours.0 == "external")
        } else if let Some(missing) = answer["missing"].as_str() {
            let lenient = ours.0 == "resolved"
                && reference.system == "import"
                && completed_by_extension(missing, ours.1.unwrap_or(""));
            ("missing", ours.0 != "resolved" || lenient)
        } else {
            ("failed", ours.0 != "resolved")
        };
        *outcomes
            .entry(format!(
                "{outcome} {}",
                answer["error"].as_str().unwrap_or("")
            ))
            .or_default() += 1;
        if !agrees {
            mismatches.push(format!("{reference:?} node: {answer}"));
        }
    }
    assert!(
        mismatches.is_empty(),
        "{} of {} references resolve unlike Node.js:\n{}",
        mismatches.len(),
        references.len(),
        mismatches.join("\n")
    );

    // The corpus exercises what it is for: both syntaxes, subpaths Node.js refuses to export,
    // `#imports` undefined, and packages' own `#imports` resolved inside them.
    let count = |prefix: &str| -> usize {
        outcomes
            .iter()
            .filter(|(k, _)| k.starts_with(prefix))
            .map(|(_, v)| v)
            .sum()
    };
    assert!(count("resolved") >= 500, "{outcomes:?}");
    assert!(
        count("failed ERR_PACKAGE_PATH_NOT_EXPORTED") >= 10,
        "{outcomes:?}"
    );
    assert!(
        count("failed ERR_PACKAGE_IMPORT_NOT_DEFINED") >= 1,
        "{outcomes:?}"
    );
    for system in ["require", "import"] {
        assert!(
            references
                .iter()
                .zip(&answers)
                .any(|(r, a)| r.system == system && a["path"].is_string()),
            "{system}"
        );
    }
    let package_imports = references
        .iter()
        .filter(|r| r.specifier.starts_with('#') && r.status == "resolved")
        .map(|r| r.from.split('/').take(2).collect::<Vec<_>>().join("/"))
        .collect::<BTreeSet<_>>();
    assert!(
        package_imports.contains("node_modules/chalk") && package_imports.contains("app/main.js"),
        "{package_imports:?}"
    );
    // The same specifier may name different files under the two syntaxes.
    let by_syntax: BTreeMap<(&str, &str), BTreeSet<&str>> =
        references.iter().fold(BTreeMap::new(), |mut acc, r| {
            if let Some(path) = r.resolved.as_deref() {
                acc.entry((
                    r.from.rsplit_once('.').map_or("", |(s, _)| s),
                    r.specifier.as_str(),
                ))
                .or_insert_with(BTreeSet::new)
                .insert(path);
            }
            acc
        });
    assert!(
        by_syntax
            .iter()
            .any(|((from, _), paths)| *from == "app/main" && paths.len() == 2),
        "no specifier resolved differently under require and import"
    );
}

/// Each package's `exports` map gives `loads` edges to the files it names: for every subpath
/// an edge names (`./main#import` is the subpath `./main`) of a package installed at the top
/// of `node_modules`, the file Node.js resolves `<package>/<subpath>` to, under `require`
/// and under `import`, is one the package's node loads.
#[test]
fn a_packages_exports_loads_what_nodes_resolver_picks() {
    let root = support::corpus("exports-corpus.sh", "exports").join("tree");
    let result = support::tool_json("analyze-javascript-application", &root, &[])["result"].clone();
    let packages: BTreeMap<&str, (&str, &str)> = result["graph"]["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|n| n["kind"] == "package")
        .filter_map(|n| {
            let p = &n["observations"][0]["properties"];
            let path = p["path"].as_str()?;
            let dir = path.strip_suffix("/package.json")?;
            let name = dir.strip_prefix("node_modules/")?;
            // A package at the top of `node_modules` (scoped or not).
            (name.matches('/').count() == usize::from(name.starts_with('@')))
                .then_some((n["node_id"].as_str().unwrap(), (name, p["name"].as_str()?)))
        })
        .collect();
    // (package name, subpath) → the files the package's edges load for it.
    let mut loads: BTreeMap<(&str, String), BTreeSet<&str>> = BTreeMap::new();
    for edge in result["graph"]["edges"].as_array().unwrap() {
        let p = &edge["properties"];
        if edge["relation"] != "loads" || p["field"] != "exports" {
            continue;
        }
        let Some(&(_, name)) = packages.get(edge["source_node_id"].as_str().unwrap()) else {
            continue;
        };
        for condition in p["conditions"].as_array().unwrap() {
            let subpath = condition.as_str().unwrap().split('#').next().unwrap();
            loads
                .entry((name, subpath.to_owned()))
                .or_default()
                .insert(p["resolved_path"].as_str().unwrap());
        }
    }
    let queries: Vec<(Reference, &BTreeSet<&str>)> = loads
        .iter()
        .flat_map(|((name, subpath), files)| {
            let specifier = match subpath.strip_prefix('.') {
                Some(rest) => format!("{name}{rest}"),
                None => (*name).to_owned(),
            };
            ["require", "import"].map(|system| {
                let reference = Reference {
                    from: "app/main.js".to_owned(),
                    specifier: specifier.clone(),
                    system,
                    status: String::new(),
                    resolved: None,
                };
                (reference, files)
            })
        })
        .collect();
    let references: Vec<Reference> = queries.iter().map(|(r, _)| r.clone()).collect();
    let answers = node_resolve(&root, &references);
    let mut checked = 0;
    let mut mismatches = Vec::new();
    for ((reference, files), answer) in queries.iter().zip(&answers) {
        // A subpath one syntax's conditions do not export (`import` only) fails there.
        let Some(path) = answer["path"].as_str() else {
            continue;
        };
        checked += 1;
        if !files.contains(path) {
            mismatches.push(format!("{reference:?}: node {path}, rea {files:?}"));
        }
    }
    assert!(mismatches.is_empty(), "{}", mismatches.join("\n"));
    assert!(checked >= 20, "{checked} of {}", references.len());
}

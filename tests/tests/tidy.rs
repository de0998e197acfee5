//! Tidy checks: the workspace's structural rules, as ordinary tests.

use std::path::{Path, PathBuf};

use toml::Value;

/// REA crates in pipeline order. A crate may depend only on crates before it; tools only on
/// `rea-jobs` and `rea-core`; nothing on `rea-tests` or `rea-benches`.
const LAYERS: [&str; 9] = [
    "rea-core",
    "rea-exec",
    "rea-traverse",
    "rea-hash",
    "rea-parse",
    "rea-graph",
    "rea-seal",
    "rea-validate",
    "rea-jobs",
];
const TOOLS: [&str; 3] = ["rea-cli", "rea-mcp", "xtask"];
const LEAVES: [&str; 2] = ["rea-tests", "rea-benches"];

struct Krate {
    name: String,
    dir: PathBuf,
    manifest: Value,
}

fn crates() -> Vec<Krate> {
    let root = rea_tests::repo_root();
    let mut dirs = vec![root.join("tests"), root.join("benches")];
    for group in ["engine", "stages", "tools"] {
        for entry in std::fs::read_dir(root.join(group)).unwrap() {
            dirs.push(entry.unwrap().path());
        }
    }
    dirs.into_iter()
        .filter(|dir| dir.join("Cargo.toml").exists())
        .map(|dir| {
            let manifest: Value =
                toml::from_str(&std::fs::read_to_string(dir.join("Cargo.toml")).unwrap()).unwrap();
            let name = manifest["package"]["name"].as_str().unwrap().to_owned();
            Krate {
                name,
                dir,
                manifest,
            }
        })
        .collect()
}

fn deps<'a>(krate: &'a Krate, table: &str) -> Vec<(&'a String, &'a Value)> {
    krate
        .manifest
        .get(table)
        .and_then(Value::as_table)
        .map(|t| t.iter().collect())
        .unwrap_or_default()
}

#[test]
fn dependencies_point_one_way() {
    let all = crates();
    assert!(all.len() >= 9, "found {} crates", all.len());
    let mut problems = Vec::new();
    for krate in &all {
        let own_layer = LAYERS.iter().position(|l| *l == krate.name);
        for table in ["dependencies", "build-dependencies", "dev-dependencies"] {
            for (dep, _) in deps(krate, table) {
                if LEAVES.contains(&dep.as_str()) {
                    problems.push(format!(
                        "{} depends on {dep}: nothing depends on test or bench crates",
                        krate.name
                    ));
                }
                if !dep.starts_with("rea-") || table == "dev-dependencies" {
                    continue;
                }
                let dep_layer = LAYERS.iter().position(|l| l == dep);
                let ok = if let Some(own) = own_layer {
                    dep_layer.is_some_and(|d| d < own)
                } else if TOOLS.contains(&krate.name.as_str()) {
                    // The `rea` binary hosts every front door, so the CLI may start the MCP
                    // server; the MCP crate never reaches back into the CLI.
                    dep == "rea-jobs"
                        || dep == "rea-core"
                        || (krate.name == "rea-cli" && dep == "rea-mcp")
                } else {
                    LEAVES.contains(&krate.name.as_str())
                };
                if !ok {
                    problems.push(format!("{} must not depend on {dep}", krate.name));
                }
            }
        }
    }
    assert!(problems.is_empty(), "{problems:#?}");
}

#[test]
fn third_party_versions_are_pinned_once_in_the_workspace() {
    let mut problems = Vec::new();
    for krate in crates() {
        for table in ["dependencies", "build-dependencies", "dev-dependencies"] {
            for (dep, spec) in deps(&krate, table) {
                if spec.get("workspace").and_then(Value::as_bool) != Some(true) {
                    problems.push(format!(
                        "{}: {dep} in [{table}] must be `workspace = true`",
                        krate.name
                    ));
                }
            }
        }
        if krate
            .manifest
            .get("lints")
            .and_then(|l| l.get("workspace"))
            .and_then(Value::as_bool)
            != Some(true)
        {
            problems.push(format!("{}: lints.workspace = true is missing", krate.name));
        }
    }
    assert!(problems.is_empty(), "{problems:#?}");
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

#[test]
fn every_crate_root_opens_with_module_docs_and_no_dbg_lands() {
    let mut problems = Vec::new();
    for krate in crates() {
        for root in ["src/lib.rs", "src/main.rs"] {
            let path = krate.dir.join(root);
            if path.exists() && !std::fs::read_to_string(&path).unwrap().starts_with("//!") {
                problems.push(format!("{} does not open with a //! block", path.display()));
            }
        }
        let mut files = Vec::new();
        rust_files(&krate.dir, &mut files);
        for file in files {
            let text = std::fs::read_to_string(&file).unwrap();
            if text.contains(concat!("dbg", "!(")) {
                problems.push(format!("{} contains dbg!", file.display()));
            }
        }
    }
    assert!(problems.is_empty(), "{problems:#?}");
}

#[test]
fn architecture_md_maps_every_crate() {
    let text = std::fs::read_to_string(rea_tests::repo_root().join("ARCHITECTURE.md")).unwrap();
    let missing: Vec<_> = crates()
        .into_iter()
        .map(|k| k.name)
        .filter(|name| !text.contains(&format!("`{name}`")))
        .collect();
    assert!(
        missing.is_empty(),
        "ARCHITECTURE.md has no code-map entry for {missing:?}"
    );
}

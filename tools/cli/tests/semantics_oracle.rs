//! The semantic graph's resolved calls against a third-party judge, on real npm packages.
//!
//! TypeScript's checker (`corpora/scripts/ts_calls.mjs`, typescript 5.9.3 from the bundles
//! corpus) binds the same files as JavaScript, relative requires and imports resolved among
//! them, and says which function each call of a plain name calls. The packages (semver, ws,
//! express, debug, body-parser, finalhandler, qs, send, iconv-lite, path-to-regexp) are
//! copied out of `node_modules` so that the
//! analysis reads them as the application's own code. Wherever TypeScript resolves a call to
//! a function of these files (those the section keeps whole within its bounds), rea's `calls` relation from that call site must name the same
//! function (file and name), in the same file or across a require; and wherever rea resolves
//! one that TypeScript resolves too, the two must agree.
//!
//! Nothing here hard-codes a call: the calls come from the packages.

mod support;

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::process::Command;

use serde_json::Value;

/// Copies every `.js` and `.cjs` file under `from` (no nested `node_modules`) to `to`.
fn copy_js(from: &Path, to: &Path, files: &mut Vec<String>, prefix: &str) {
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let name = entry.file_name().to_string_lossy().into_owned();
        let path = entry.path();
        if entry.file_type().unwrap().is_dir() {
            if name != "node_modules" {
                std::fs::create_dir_all(to.join(&name)).unwrap();
                copy_js(&path, &to.join(&name), files, &format!("{prefix}{name}/"));
            }
        } else if name.ends_with(".js") || name.ends_with(".cjs") || name == "package.json" {
            std::fs::copy(&path, to.join(&name)).unwrap();
            if name != "package.json" {
                files.push(format!("{prefix}{name}"));
            }
        }
    }
}

#[test]
fn resolved_calls_agree_with_typescripts_checker() {
    let typescript =
        support::corpus("bundles-corpus.sh", "bundles").join("tools/node_modules/typescript");
    let exports = support::corpus("exports-corpus.sh", "exports").join("tree/node_modules");
    let npm = support::corpus("npm-tree.sh", "npm-tree").join("node_modules");
    let work = tempfile::tempdir().unwrap();
    let app = work.path().join("app");
    let mut files = Vec::new();
    for (root, package) in [
        (&exports, "semver"),
        (&exports, "ws"),
        (&npm, "express"),
        (&npm, "debug"),
        (&npm, "body-parser"),
        (&npm, "finalhandler"),
        (&npm, "qs"),
        (&npm, "send"),
        (&npm, "iconv-lite"),
        (&npm, "path-to-regexp"),
    ] {
        let to = app.join(package);
        std::fs::create_dir_all(&to).unwrap();
        copy_js(&root.join(package), &to, &mut files, &format!("{package}/"));
    }
    files.sort();
    let analysis = support::tool_json("analyze-javascript-application", &app, &[]);
    let graph = &analysis["result"]["semantic_graph"];
    assert_eq!(
        graph["coverage"]["files"]["not_read"], 0,
        "{}",
        graph["coverage"]
    );
    // The files the section kept whole (a file past the section's bounds is left out, and
    // says so in the coverage): calls are judged between these.
    let truncated: BTreeSet<&str> = graph["unknowns"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|u| u["reason"] == "bound-reached")
        .filter_map(|u| u["evidence"]["location"]["path"].as_str())
        .collect();
    let kept: BTreeSet<&str> = graph["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|n| n["kind"] == "module")
        .filter_map(|n| n["identity"]["module_path"].as_str())
        .filter(|p| !truncated.contains(p))
        .collect();
    let nodes: BTreeMap<&str, &Value> = graph["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| (n["node_id"].as_str().unwrap(), n))
        .collect();
    // rea: (file, call start) -> the functions its resolved `calls` relations name.
    let mut ours: BTreeMap<(String, u64), BTreeSet<(String, String)>> = BTreeMap::new();
    for r in graph["relations"].as_array().unwrap() {
        if r["relation"] != "calls" || r["resolution"] != "resolved" {
            continue;
        }
        let (source, target) = (
            nodes[r["source_node_id"].as_str().unwrap()],
            nodes[r["target_node_id"].as_str().unwrap()],
        );
        if source["kind"] != "call-site" || target["kind"] != "function" {
            continue;
        }
        let Some(name) = target["properties"]["name"].as_str() else {
            continue;
        };
        let at = (
            source["identity"]["module_path"]
                .as_str()
                .unwrap()
                .to_owned(),
            source["identity"]["source_range"]["start"]
                .as_u64()
                .unwrap(),
        );
        ours.entry(at).or_default().insert((
            target["identity"]["module_path"]
                .as_str()
                .unwrap()
                .to_owned(),
            name.to_owned(),
        ));
    }
    let output = Command::new("node")
        .arg(support::scripts().join("ts_calls.mjs"))
        .arg(&typescript)
        .arg(&app)
        .args(&files)
        .output()
        .expect("node runs");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let judged: Vec<Value> = serde_json::from_slice(&output.stdout).unwrap();
    // Offsets compare only in ASCII files (TypeScript counts UTF-16 units, rea bytes).
    let ascii: BTreeSet<&str> = files
        .iter()
        .filter(|f| kept.contains(f.as_str()))
        .filter(|f| std::fs::read(app.join(f)).unwrap().is_ascii())
        .map(String::as_str)
        .collect();
    let (mut resolved, mut agreed, mut across) = (0usize, 0usize, 0usize);
    let mut missed = Vec::new();
    let mut disagreed = Vec::new();
    let mut judged_at: BTreeMap<(String, u64), Option<(String, String)>> = BTreeMap::new();
    for call in &judged {
        let file = call["file"].as_str().unwrap();
        if !ascii.contains(file) {
            continue;
        }
        let at = (file.to_owned(), call["start"].as_u64().unwrap());
        let target = call["target"].as_object().map(|t| {
            (
                t["file"].as_str().unwrap().to_owned(),
                t["name"].as_str().unwrap().to_owned(),
            )
        });
        judged_at.insert(at.clone(), target.clone());
        let Some(target) = target.filter(|t| kept.contains(t.0.as_str())) else {
            continue;
        };
        resolved += 1;
        match ours.get(&at) {
            Some(found) if found.len() == 1 && found.contains(&target) => {
                agreed += 1;
                across += usize::from(target.0 != at.0);
            }
            Some(found) => disagreed.push(format!("{at:?}: rea {found:?}, typescript {target:?}")),
            None => missed.push(format!("{at:?} {}: typescript {target:?}", call["callee"])),
        }
    }
    // rea's resolutions where TypeScript resolved the same call to something else.
    for (at, found) in &ours {
        if let Some(Some(target)) = judged_at.get(at)
            && !(found.len() == 1 && found.contains(target))
            && !disagreed.iter().any(|d| d.starts_with(&format!("{at:?}")))
        {
            disagreed.push(format!("{at:?}: rea {found:?}, typescript {target:?}"));
        }
    }
    eprintln!(
        "{resolved} calls typescript resolves; rea agrees on {agreed} ({across} across files), misses {}, disagrees on {}",
        missed.len(),
        disagreed.len()
    );
    assert!(resolved >= 150, "too few calls judged: {resolved}");
    assert!(across >= 5, "too few calls across files agreed: {across}");
    assert!(
        disagreed.len() * 100 <= agreed,
        "more than 1% of resolutions disagree: {disagreed:#?}"
    );
    assert!(
        agreed * 100 >= resolved * 85,
        "rea resolves under 85% of what typescript resolves; missed: {:#?}",
        &missed[..missed.len().min(40)]
    );
}

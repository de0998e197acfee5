//! `rea compare-application-versions` on two real versions of one application, each bundled by
//! webpack 5 and by rspack in production mode, against the bundlers' own stats: which module id
//! of which output file is which source module. A module both builds hold must pair with
//! itself; one only the earlier build holds is `removed`, one only the later holds `added`;
//! and whether it changed must follow its source file: a module whose source file is the same
//! bytes in both versions (or a package module, untouched by construction) must not differ in
//! structure, and one whose source file differs must be `changed`.
//!
//! The corpus is built once by `corpora/scripts/versions-corpus.sh` under Cargo's target tmp
//! dir (see `corpora/javascript/versions-app/build.mjs` for the edits between the versions).

mod support;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde_json::Value;

fn corpus() -> PathBuf {
    support::corpus("versions-corpus.sh", "versions").join("corpus")
}

/// {(output file, module id): (module name, whether it is an entry module)} from the stats.
fn stats_modules(path: &Path) -> BTreeMap<(String, String), (String, bool)> {
    let stats: Value = serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap();
    let mut out = BTreeMap::new();
    for (file, listed) in stats.as_object().unwrap() {
        let entries = listed["entries"].as_array().unwrap();
        for (id, name) in listed["modules"].as_object().unwrap() {
            let entry = entries.iter().any(|e| e == id.as_str());
            out.insert(
                (file.clone(), id.clone()),
                (name.as_str().unwrap().to_owned(), entry),
            );
        }
    }
    out
}

/// Whether the module's source is the same bytes in both versions. Package modules come from
/// the same installed package for both builds.
fn same_source(corpus: &Path, name: &str) -> bool {
    let Some(relative) = name.strip_prefix("./src/") else {
        assert!(name.contains("node_modules"), "{name}");
        return true;
    };
    let read = |v: &str| std::fs::read(corpus.join("app").join(v).join("src").join(relative)).ok();
    read("v1").is_some() && read("v1") == read("v2")
}

/// The comparison's module items by the (file, key) of each side they name.
fn module_items(result: &Value) -> [BTreeMap<(String, String), &Value>; 2] {
    let mut sides = [BTreeMap::new(), BTreeMap::new()];
    for item in result["items"].as_array().unwrap() {
        if item["kind"] != "javascript-module" {
            continue;
        }
        for (s, side) in ["left", "right"].into_iter().enumerate() {
            let node = &item[side];
            if node.is_null() {
                continue;
            }
            let (Some(file), Some(key)) = (node["paths"][0].as_str(), node["label"].as_str())
            else {
                continue;
            };
            let previous = sides[s].insert((file.to_owned(), key.to_owned()), item);
            assert!(previous.is_none(), "{side} {file} {key} is in two items");
        }
    }
    sides
}

fn check(bundler: &str) {
    let corpus = corpus();
    let work = tempfile::tempdir().unwrap();
    let analyses: Vec<PathBuf> = (1..=2)
        .map(|v| {
            let envelope = support::tool_json(
                "analyze-javascript-application",
                &corpus.join(format!("{bundler}-v{v}")),
                &[],
            );
            let path = work.path().join(format!("v{v}.json"));
            std::fs::write(&path, serde_json::to_vec(&envelope).unwrap()).unwrap();
            path
        })
        .collect();
    let right = analyses[1].to_str().unwrap();
    let result =
        support::tool_json("compare-application-versions", &analyses[0], &[right])["result"]
            .clone();
    assert_eq!(result["truncation"]["omitted_items"], 0);
    let [left_items, right_items] = module_items(&result);
    let v1 = stats_modules(&corpus.join(format!("{bundler}-v1.modules.json")));
    let v2 = stats_modules(&corpus.join(format!("{bundler}-v2.modules.json")));
    // Entry modules webpack inlined into its runtime have no factory, so no item.
    let (left_items, right_items) = (&left_items, &right_items);
    let by_name = |stats: &BTreeMap<(String, String), (String, bool)>,
                   items: &BTreeMap<(String, String), &Value>|
     -> BTreeMap<String, (String, String)> {
        stats
            .iter()
            .filter(|(at, (name, entry))| {
                assert!(
                    *entry || items.contains_key(*at),
                    "{bundler}: no item for {name} at {at:?}"
                );
                items.contains_key(*at)
            })
            .map(|(at, (name, _))| (name.clone(), at.clone()))
            .collect()
    };
    let (names1, names2) = (by_name(&v1, left_items), by_name(&v2, right_items));
    let (mut paired, mut changed, mut same) = (0, 0, 0);
    for (name, at1) in &names1 {
        let item = left_items[at1];
        let Some(at2) = names2.get(name) else {
            assert_eq!(item["status"], "removed", "{bundler}: {name}: {item}");
            continue;
        };
        let partner = (
            item["right"]["paths"][0]
                .as_str()
                .unwrap_or_default()
                .to_owned(),
            item["right"]["label"]
                .as_str()
                .unwrap_or_default()
                .to_owned(),
        );
        assert_eq!(
            &partner, at2,
            "{bundler}: {name} pairs with another module: {item}"
        );
        paired += 1;
        let dims: Vec<&str> = item["changed_dimensions"]
            .as_array()
            .unwrap()
            .iter()
            .map(|d| d.as_str().unwrap())
            .collect();
        if same_source(&corpus, name) {
            assert!(!dims.contains(&"structure"), "{bundler}: {name}: {item}");
            same += 1;
        } else {
            assert_eq!(item["status"], "changed", "{bundler}: {name}: {item}");
            changed += 1;
        }
    }
    for (name, at2) in &names2 {
        if !names1.contains_key(name) {
            let item = right_items[at2];
            assert_eq!(item["status"], "added", "{bundler}: {name}: {item}");
        }
    }
    // The corpus holds each case: package modules and untouched sources, edited sources, and
    // a module on one side only.
    assert!(same >= 10, "{bundler}: {same} unchanged sources");
    assert!(changed >= 1, "{bundler}: {changed} edited sources");
    assert!(paired < names1.len() && paired < names2.len(), "{bundler}");
}

#[test]
fn webpack_production_builds_of_two_versions_pair_as_their_stats_say() {
    check("webpack");
}

#[test]
fn rspack_production_builds_of_two_versions_pair_as_their_stats_say() {
    check("rspack");
}

//! `rea compare-source-to-bundle` on real builds: the two source versions of
//! `corpora/javascript/versions-app` against webpack's source-mapped build of version 2, with
//! webpack's own source maps as the oracle. A reference file that a map lists (by its original
//! path) must be `unchanged` when the map's `sourcesContent` is the file's bytes and `modified`
//! when it is not; a file webpack's stats say it built but no map lists (JSON) must not be
//! called removed; a file the build does not hold must be `removed`, since every bundle of the
//! build is mapped; and what the maps list that no reference file is must be counted as
//! application-only. Without read source maps, nothing bundled may be called removed.
//!
//! The corpus is built once by `corpora/scripts/versions-corpus.sh` (see versions_oracle.rs).

mod support;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde_json::Value;

fn corpus() -> PathBuf {
    support::corpus("versions-corpus.sh", "versions").join("corpus")
}

/// {original path below the build's context: sourcesContent} over every map of `build`, from
/// webpack's own `webpack://<name>/./<path>` sources.
fn mapped_sources(build: &Path) -> BTreeMap<String, Option<String>> {
    let mut out = BTreeMap::new();
    for entry in std::fs::read_dir(build).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "map") {
            continue;
        }
        let map: Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
        let sources = map["sources"].as_array().unwrap();
        for (i, source) in sources.iter().enumerate() {
            let source = source.as_str().unwrap();
            let Some((_, relative)) = source.split_once("/./") else {
                continue;
            };
            out.insert(
                relative.to_owned(),
                map["sourcesContent"][i].as_str().map(str::to_owned),
            );
        }
    }
    out
}

/// The modules webpack's stats say it built, by path below the build's context.
fn built_modules(stats: &Path) -> std::collections::BTreeSet<String> {
    let stats: Value = serde_json::from_slice(&std::fs::read(stats).unwrap()).unwrap();
    stats
        .as_object()
        .unwrap()
        .values()
        .flat_map(|file| file["modules"].as_object().unwrap().values())
        .filter_map(|name| name.as_str()?.strip_prefix("./").map(str::to_owned))
        .collect()
}

/// The files below `root`, by path relative to it.
fn files(root: &Path) -> BTreeMap<String, Vec<u8>> {
    let mut out = BTreeMap::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else {
                let relative = path
                    .strip_prefix(root)
                    .unwrap()
                    .to_str()
                    .unwrap()
                    .to_owned();
                out.insert(relative, std::fs::read(&path).unwrap());
            }
        }
    }
    out
}

fn analysis(build: &Path, work: &Path, contents: bool) -> PathBuf {
    let extra: &[&str] = if contents {
        &["--source-maps", "contents"]
    } else {
        &[]
    };
    let envelope = support::tool_json("analyze-javascript-application", build, extra);
    let out = work.join(if contents {
        "contents.json"
    } else {
        "declarations.json"
    });
    std::fs::write(&out, serde_json::to_vec(&envelope).unwrap()).unwrap();
    out
}

fn compare(reference: &Path, application: &Path) -> Value {
    let app = application.to_str().unwrap();
    support::tool_json("compare-source-to-bundle", reference, &[app])["result"].clone()
}

fn items(result: &Value) -> BTreeMap<String, &Value> {
    result["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| (i["source_path"].as_str().unwrap().to_owned(), i))
        .collect()
}

#[test]
fn source_versions_against_a_mapped_webpack_build_follow_webpacks_maps() {
    let corpus = corpus();
    let build = corpus.join("webpack-maps-v2");
    let mapped = mapped_sources(&build);
    let built = built_modules(&corpus.join("webpack-maps-v2.modules.json"));
    assert!(built.contains("src/data.json"), "{built:?}");
    assert!(mapped.keys().any(|p| p.starts_with("src/")), "{mapped:?}");
    let work = tempfile::tempdir().unwrap();
    let application = analysis(&build, work.path(), true);
    for version in ["v1", "v2"] {
        let root = corpus.join("app").join(version);
        let result = compare(&root, &application);
        let items = items(&result);
        let reference = files(&root);
        assert_eq!(
            items.keys().collect::<Vec<_>>(),
            reference.keys().collect::<Vec<_>>(),
            "{version}: one item per reference file"
        );
        for (path, bytes) in &reference {
            let item = items[path];
            let status = item["status"].as_str().unwrap();
            match mapped.get(path) {
                Some(Some(content)) => {
                    let expected = if content.as_bytes() == bytes.as_slice() {
                        "unchanged"
                    } else {
                        "modified"
                    };
                    assert_eq!(status, expected, "{version} {path}: {item}");
                    let top = &item["matches"][0];
                    assert_eq!(top["kind"], "source-module", "{version} {path}: {item}");
                    assert!(
                        top["path"].as_str().unwrap().ends_with(path.as_str()),
                        "{version} {path}: {item}"
                    );
                }
                // Built in, but the maps do not list it (webpack lists no JSON module): never
                // called removed.
                _ if built.contains(path) => {
                    assert_eq!(status, "unknown", "{version} {path}: {item}");
                }
                _ => assert_eq!(status, "removed", "{version} {path}: {item}"),
            }
        }
        // What the maps list that the reference does not hold is application-only.
        let only: Vec<&String> = mapped
            .keys()
            .filter(|p| !reference.contains_key(*p))
            .collect();
        assert_eq!(
            result["summary"]["application_only"].as_u64().unwrap() as usize,
            result["application_only"]["count"].as_u64().unwrap() as usize
        );
        assert!(
            result["summary"]["application_only"].as_u64().unwrap() as usize >= only.len(),
            "{version}: {}",
            result["summary"]
        );
        assert_eq!(result["summary"]["unmapped_bundles"], 0, "{version}");
    }
    // The edits build.mjs makes between the versions, seen from version 1's sources.
    let result = compare(&corpus.join("app").join("v1"), &application);
    let items = items(&result);
    assert_eq!(items["src/greet.js"]["status"], "modified");
    assert_eq!(items["src/index.js"]["status"], "modified");
    assert_eq!(items["src/util.cjs"]["status"], "removed");
    assert_eq!(items["src/lazy.js"]["status"], "unchanged");
    // What version 2 added is the one shipped source outside the dependencies, listed first.
    let only = result["application_only"]["nodes"].as_array().unwrap();
    assert_eq!(only[0]["path"], "src/farewell.js", "{only:?}");
    assert_eq!(result["application_only"]["outside_dependencies"], 1);
}

#[test]
fn without_read_source_maps_nothing_bundled_is_called_removed() {
    let corpus = corpus();
    let work = tempfile::tempdir().unwrap();
    let application = analysis(&corpus.join("webpack-maps-v2"), work.path(), false);
    let result = compare(&corpus.join("app").join("v1"), &application);
    let summary = &result["summary"];
    assert_eq!(summary["removed"], 0, "{summary}");
    assert!(
        summary["unmapped_bundles"].as_u64().unwrap() > 0,
        "{summary}"
    );
    for item in result["items"].as_array().unwrap() {
        assert_eq!(item["status"], "unknown", "{item}");
        assert_eq!(item["reason"], "unmapped-bundles", "{item}");
    }
    assert_eq!(result["coverage"]["status"], "partial");
}

/// A reference given as a HistoricalSourceGraph/v1 file compares like the directory it was
/// made from, and one whose commitment does not hold is refused.
#[test]
fn a_reference_file_round_trips_and_a_forged_one_is_refused() {
    let corpus = corpus();
    let work = tempfile::tempdir().unwrap();
    let application = analysis(&corpus.join("webpack-maps-v2"), work.path(), true);
    let root = corpus.join("app").join("v1");
    let from_directory = compare(&root, &application);
    // The reference as the comparison saw it is not in the result; rebuild it from the items
    // the way a caller would write one: every file with its digest and size.
    let mut entries: Vec<Value> = files(&root)
        .into_iter()
        .map(|(path, bytes)| {
            serde_json::json!({"path": path, "kind": "file", "size": bytes.len(),
                "sha256": rea_jobs::canonical::sha256_hex(&bytes)})
        })
        .collect();
    entries.push(
        serde_json::json!({"path": "src", "kind": "directory", "size": null, "sha256": null}),
    );
    entries.sort_by(|a, b| a["path"].as_str().cmp(&b["path"].as_str()));
    let commitment = rea_jobs::canonical::sha256_hex(
        &rea_jobs::canonical::canonical_bytes(
            &serde_json::json!({"entries": entries, "exclusions": []}),
        )
        .unwrap(),
    );
    let reference = serde_json::json!({
        "schema": "HistoricalSourceGraph/v1", "authority": "historical-reference",
        "root_alias": "$REFERENCE_ROOT", "root_sha256": commitment,
        "inventory_state": "complete", "entries": entries,
    });
    let file = work.path().join("reference.json");
    std::fs::write(&file, serde_json::to_vec(&reference).unwrap()).unwrap();
    let from_file = compare(&file, &application);
    assert_eq!(from_file["items"], from_directory["items"]);
    assert_eq!(from_file["summary"], from_directory["summary"]);
    assert_eq!(
        from_file["reference_root_sha256"],
        from_directory["reference_root_sha256"]
    );

    let mut forged = reference.clone();
    forged["entries"][0]["sha256"] = Value::String("0".repeat(64));
    std::fs::write(&file, serde_json::to_vec(&forged).unwrap()).unwrap();
    let output = support::run(&[
        "compare-source-to-bundle",
        file.to_str().unwrap(),
        application.to_str().unwrap(),
        "--json",
    ]);
    assert!(!output.status.success());
    let error: Value = serde_json::from_slice(&output.stdout)
        .or_else(|_| serde_json::from_slice(&output.stderr))
        .unwrap();
    let text = error.to_string();
    assert!(text.contains("root_sha256"), "{text}");
}

/// A directory reference leaves out what is not source, says so, and never reads it: version
/// control metadata and dependencies, likely secrets, and files too large to be sources (a
/// sparse 300 MiB file, so nothing is written); the commit checked out is read from `.git`.
#[test]
fn a_directory_reference_leaves_out_metadata_secrets_and_huge_files() {
    let work = tempfile::tempdir().unwrap();
    let tree = work.path().join("tree");
    let write = |path: &str, text: &str| {
        let path = tree.join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    };
    let head = "0123456789abcdef0123456789abcdef01234567";
    write("src/main.js", "console.log('hello');\n");
    write(".env", "TOKEN=secret\n");
    write("certs/server.pem", "-----BEGIN-----\n");
    write(".git/HEAD", "ref: refs/heads/main\n");
    write(".git/refs/heads/main", &format!("{head}\n"));
    write("node_modules/dep/index.js", "module.exports = 1;\n");
    std::fs::File::create(tree.join("media.bin"))
        .unwrap()
        .set_len(300 * 1024 * 1024)
        .unwrap();
    let application = work.path().join("app.json");
    let envelope = support::tool_json("analyze-javascript-application", &support::sample(), &[]);
    std::fs::write(&application, serde_json::to_vec(&envelope).unwrap()).unwrap();
    let result = compare(&tree, &application);
    let excluded: BTreeMap<String, String> = result["reference"]["exclusions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            (
                e["path"].as_str().unwrap().to_owned(),
                e["reason"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    let expected: BTreeMap<String, String> = [
        (".env", "configured-secret"),
        (".git", "caller-excluded"),
        ("certs/server.pem", "configured-secret"),
        ("media.bin", "size-limit"),
        ("node_modules", "caller-excluded"),
    ]
    .into_iter()
    .map(|(p, r)| (p.to_owned(), r.to_owned()))
    .collect();
    assert_eq!(excluded, expected);
    let items: Vec<&str> = result["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["source_path"].as_str().unwrap())
        .collect();
    assert_eq!(items, ["src/main.js"]);
    assert_eq!(result["reference"]["vcs"]["head"], head);
    assert_eq!(result["reference"]["inventory_state"], "complete");
    // The secret's bytes appear nowhere in the record.
    let text = serde_json::to_string(&result).unwrap();
    assert!(!text.contains("TOKEN=secret"));
}

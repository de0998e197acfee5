//! ZIP inventories against CPython's `zipfile`, an independent implementation: a real npm tree
//! packed with deflate (and once with zip64 records), expanded inside a directory too.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde_json::Value;

mod support;

use support::inventory_json;

/// The npm tree of the ASAR corpus (express, lodash, react, react-dom, a .node add-on).
fn tree() -> PathBuf {
    support::corpus("asar-corpus.sh", "asar").join("tree")
}

fn zip_tool(args: &[&std::ffi::OsStr]) -> Vec<u8> {
    support::python_script("zip_tool.py", args)
}

fn rea_all(input: &Path) -> Value {
    inventory_json(input, &[])
}

fn by_path(result: &Value, prefix: &str) -> BTreeMap<String, Value> {
    support::occurrences_under(result, prefix)
}

fn check(zip: &Path, ours: &BTreeMap<String, Value>) {
    let oracle = support::python_lines("zip_tool.py", &["list".as_ref(), zip.as_os_str()]);
    assert!(oracle.len() > 1500);
    support::assert_listing(&oracle, ours);
}

#[test]
fn a_deflated_zip_and_a_zip64_zip_match_python_zipfile() {
    let tree = tree();
    let dir = tempfile::tempdir().unwrap();
    for (name, extra) in [("tree.zip", None), ("tree64.zip", Some("--zip64"))] {
        let zip = dir.path().join(name);
        let mut args = vec!["pack".as_ref(), tree.as_os_str(), zip.as_os_str()];
        if let Some(flag) = extra {
            args.push(flag.as_ref());
        }
        zip_tool(&args);
        let value = rea_all(&zip);
        assert_eq!(value["result"]["manifest"]["root_format"], "zip");
        check(&zip, &by_path(&value["result"], ""));
    }
}

#[test]
fn a_zip_inside_a_directory_is_expanded_in_place() {
    let tree = tree();
    let app = tempfile::tempdir().unwrap();
    std::fs::create_dir(app.path().join("assets")).unwrap();
    let zip = app.path().join("assets/bundle.apk");
    zip_tool(&["pack".as_ref(), tree.as_os_str(), zip.as_os_str()]);
    let value = rea_all(app.path());
    let nested = by_path(&value["result"], "assets/bundle.apk/");
    check(&zip, &nested);
    let all = by_path(&value["result"], "");
    assert_eq!(
        nested["node_modules"]["parent_occurrence_id"],
        all["assets/bundle.apk"]["occurrence_id"]
    );
}

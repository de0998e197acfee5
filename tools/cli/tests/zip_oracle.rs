//! ZIP inventories against CPython's `zipfile`, an independent implementation: a real npm tree
//! packed with deflate (and once with zip64 records), expanded inside a directory too.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

mod support;

use support::{inventory_json, scripts};

/// The npm tree of the ASAR corpus (express, lodash, react, react-dom, a .node add-on).
fn tree() -> PathBuf {
    support::corpus("asar-corpus.sh", "asar").join("tree")
}

fn zip_tool(args: &[&std::ffi::OsStr]) -> Vec<u8> {
    let output = Command::new("python3")
        .arg(scripts().join("zip_tool.py"))
        .args(args)
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    output.stdout
}

fn rea_all(input: &Path) -> Value {
    inventory_json(input, &[])
}

fn by_path(result: &Value, prefix: &str) -> BTreeMap<String, Value> {
    result["occurrences"]["items"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|o| {
            let path = o["logical_path"].as_str()?.strip_prefix(prefix)?;
            (!path.is_empty() && path != ".").then(|| (path.to_owned(), o.clone()))
        })
        .collect()
}

fn check(zip: &Path, ours: &BTreeMap<String, Value>) {
    let oracle: Vec<Value> = String::from_utf8(zip_tool(&["list".as_ref(), zip.as_os_str()]))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert!(oracle.len() > 1500);
    assert_eq!(ours.len(), oracle.len(), "every member, nothing more");
    for row in &oracle {
        let o = &ours[row["logical_path"].as_str().unwrap()];
        assert_eq!(o["entry_kind"], row["entry_kind"], "{row}");
        match row["entry_kind"].as_str().unwrap() {
            "file" => {
                assert_eq!(o["sha256"], row["sha256"], "{row}");
                assert_eq!(o["size"], row["size"], "{row}");
                assert_eq!(o["hash_status"], "hashed", "{row}");
            }
            "symlink" => assert_eq!(o["link_target"], row["link_target"], "{row}"),
            _ => {}
        }
    }
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

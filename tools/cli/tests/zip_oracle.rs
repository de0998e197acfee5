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

#[test]
fn a_chromium_extension_is_read_past_its_crx3_header() {
    // A web extension (express's files, as a stand-in for its scripts, and a manifest) signed
    // into a CRX3 file by the crx3 packer, which also keeps the ZIP it embedded: the oracle.
    let crx3 = support::corpus("crx-corpus.sh", "crx").join("node_modules/crx3/bin/crx3.js");
    let dir = tempfile::tempdir().unwrap();
    let ext = dir.path().join("extension");
    let status = std::process::Command::new("cp")
        .arg("-r")
        .arg(tree().join("node_modules/express"))
        .arg(&ext)
        .status()
        .unwrap();
    assert!(status.success());
    std::fs::write(
        ext.join("manifest.json"),
        r#"{"manifest_version": 3, "name": "fixture", "version": "1.0", "background": {"service_worker": "index.js"}}"#,
    )
    .unwrap();
    let (crx, zip) = (
        dir.path().join("fixture.crx"),
        dir.path().join("fixture.zip"),
    );
    let output = std::process::Command::new("node")
        .arg(&crx3)
        .arg("-p")
        .arg(dir.path().join("key.pem"))
        .arg("-o")
        .arg(&crx)
        .arg("-z")
        .arg(&zip)
        .arg("--")
        .arg(&ext)
        .output()
        .unwrap();
    assert!(output.status.success(), "{output:?}");
    let (crx_bytes, zip_bytes) = (std::fs::read(&crx).unwrap(), std::fs::read(&zip).unwrap());
    assert!(crx_bytes.starts_with(b"Cr24") && crx_bytes.ends_with(&zip_bytes));

    let value = rea_all(&crx);
    assert_eq!(value["result"]["manifest"]["root_format"], "crx");
    let oracle = support::python_lines("zip_tool.py", &["list".as_ref(), zip.as_os_str()]);
    assert!(oracle.len() > 10, "{oracle:?}");
    // The packer writes no directory entries; REA adds the directories its members imply.
    let files = by_path(&value["result"], "")
        .into_iter()
        .filter(|(_, o)| o["entry_kind"] == "file")
        .collect();
    support::assert_listing(&oracle, &files);
    // Its scripts are analyzed as the same ZIP's are.
    let analysis = support::tool_json("analyze-javascript-application", &crx, &[]);
    let alone = support::tool_json("analyze-javascript-application", &zip, &[]);
    assert_eq!(
        analysis["result"]["statistics"]["javascript_files"],
        alone["result"]["statistics"]["javascript_files"]
    );
    assert!(
        analysis["result"]["statistics"]["javascript_files"]
            .as_u64()
            .unwrap()
            > 5
    );
}

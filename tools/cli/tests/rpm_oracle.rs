//! RPM inventories against the RPM tools: packages built by `rpmbuild` with each payload
//! compression (SHA-256 file digests), listed and hashed from what `rpm2cpio | cpio -idm`
//! extracts (`corpora/scripts/rpm_tool.py`); an Electron-style package holding an `app.asar`
//! packed by `@electron/asar`; a tampered payload, caught by the package's own digests; and
//! broken packages.

use std::ffi::OsStr;
use std::path::Path;

use serde_json::Value;

mod support;

use support::inventory_json;

fn pack(src: &Path, dest: &Path, compression: &str) {
    support::python_script(
        "rpm_tool.py",
        &[
            "pack".as_ref(),
            src.as_os_str(),
            dest.as_os_str(),
            OsStr::new(compression),
        ],
    );
}

/// Our occurrences equal what `rpm2cpio | cpio -idm` extracts from `package`, and every file
/// is verified against the digest the package's header declares for it.
fn check(package: &Path, result: &Value) -> usize {
    let oracle = support::python_lines("rpm_tool.py", &["list".as_ref(), package.as_os_str()]);
    let ours = support::occurrences_under(result, "");
    let outside: std::collections::BTreeMap<String, Value> = ours
        .into_iter()
        .filter(|(path, _)| !path.contains(".asar/"))
        .collect();
    for (path, o) in &outside {
        if o["entry_kind"] == "file" {
            assert_eq!(o["hash_status"], "verified", "{path}: {o}");
        }
    }
    support::assert_listing(&oracle, &outside)
}

#[test]
fn packages_by_every_payload_compression_match_rpm2cpio() {
    let tree = support::corpus("asar-corpus.sh", "asar").join("tree");
    let dir = tempfile::tempdir().unwrap();
    for compression in ["gzip", "xz", "zstd", "none"] {
        let package = dir.path().join(format!("fixture-{compression}.rpm"));
        pack(&tree, &package, compression);
        let value = inventory_json(&package, &[]);
        let result = &value["result"];
        assert_eq!(
            result["limitations"],
            serde_json::json!([]),
            "{compression}"
        );
        let members = check(&package, result);
        assert!(members > 1500, "{compression}: {members}");
        let root = &result["nodes"]["items"]
            .as_array()
            .unwrap()
            .iter()
            .find(|n| n["artifact_id"] == result["occurrences"]["items"][0]["artifact_id"])
            .unwrap()["format"];
        assert_eq!(root, "rpm");
    }
}

#[test]
fn an_rpm_is_expanded_down_to_its_asar() {
    let dir = tempfile::tempdir().unwrap();
    let app = support::app_tree(dir.path(), "app");
    // Hard links: the payload holds their data once, with the last of the group.
    std::fs::write(app.join("LICENSE"), "MIT\n".repeat(100)).unwrap();
    std::fs::hard_link(app.join("LICENSE"), app.join("LICENSE.electron")).unwrap();
    std::fs::hard_link(app.join("LICENSE"), app.join("resources/LICENSE")).unwrap();
    let package = dir.path().join("fixture.rpm");
    pack(&app, &package, "xz");
    let value = inventory_json(&package, &[]);
    let result = &value["result"];
    check(&package, result);
    let ours = support::occurrences_under(result, "");
    for link in ["LICENSE", "LICENSE.electron", "resources/LICENSE"] {
        let o = &ours[&format!("opt/Fixture/{link}")];
        assert_eq!(o["size"], 400, "{link}: {o}");
        assert_eq!(o["hash_status"], "verified", "{link}: {o}");
    }
    support::assert_plain_asar_at(result, "opt/Fixture/resources/app.asar");
}

#[test]
fn a_tampered_payload_fails_closed_and_is_a_contradiction_when_recorded() {
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path().join("src");
    std::fs::create_dir_all(&src).unwrap();
    std::fs::write(
        src.join("main.js"),
        "console.log('REA-MARKER-0123456789');\n",
    )
    .unwrap();
    std::fs::write(src.join("other.js"), "console.log('untouched');\n").unwrap();
    let package = dir.path().join("fixture.rpm");
    // An uncompressed payload, so that one byte of a file can change and the payload still
    // reads: only the header's digest of that file can tell.
    pack(&src, &package, "none");
    let mut bytes = std::fs::read(&package).unwrap();
    let marker = b"REA-MARKER-0";
    let at = bytes
        .windows(marker.len())
        .position(|w| w == marker)
        .expect("the marker is in the payload");
    bytes[at + marker.len() - 1] = b'X';
    std::fs::write(&package, &bytes).unwrap();

    let output = support::run(&["inventory-artifact", package.to_str().unwrap(), "--json"]);
    assert!(!output.status.success());
    let error: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(
        error["error"]["code"], "artifact_integrity_mismatch",
        "{error}"
    );
    let details = &error["error"]["details"];
    assert_eq!(details["logical_path"], "opt/Fixture/main.js");
    assert_ne!(details["declared_sha256"], details["observed_sha256"]);

    let value = inventory_json(&package, &["--integrity-policy", "record-and-continue"]);
    let result = &value["result"];
    let contradictions = result["integrity_contradictions"].as_array().unwrap();
    assert_eq!(contradictions.len(), 1, "{contradictions:?}");
    assert_eq!(contradictions[0]["logical_path"], "opt/Fixture/main.js");
    let ours = support::occurrences_under(result, "");
    assert_eq!(ours["opt/Fixture/main.js"]["hash_status"], "mismatched");
    assert_eq!(ours["opt/Fixture/other.js"]["hash_status"], "verified");
}

#[test]
fn broken_packages_are_noted_where_they_sit_and_typed_errors_at_the_root() {
    let dir = tempfile::tempdir().unwrap();
    let (src, inputs) = support::text_tree(dir.path(), 100_000);
    let good = inputs.join("good.rpm");
    pack(&src, &good, "xz");
    let bytes = std::fs::read(&good).unwrap();
    // The headers cut off, and the payload cut off.
    std::fs::write(inputs.join("headers-cut.rpm"), &bytes[..200]).unwrap();
    std::fs::write(inputs.join("payload-cut.rpm"), &bytes[..bytes.len() - 100]).unwrap();
    std::fs::write(inputs.join("text.rpm"), "not a package").unwrap();

    let value = inventory_json(&inputs, &[]);
    let ours = support::occurrences_under(&value["result"], "");
    let note = |name: &str| ours[name]["limitations"].to_string();
    support::assert_noted(
        &ours,
        &["headers-cut.rpm", "text.rpm"],
        "not a readable RPM package",
    );
    // A payload that ends early: what could not be read is said on the package.
    assert!(
        note("payload-cut.rpm").contains("not a readable RPM package")
            || note("payload-cut.rpm").contains("could not be"),
        "{}",
        note("payload-cut.rpm")
    );
    assert_eq!(
        ours["good.rpm/opt/Fixture/text.txt"]["hash_status"],
        "verified"
    );

    for name in ["headers-cut.rpm", "text.rpm"] {
        support::inventory_fails(&inputs.join(name));
    }
}

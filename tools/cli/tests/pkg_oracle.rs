//! macOS flat packages against 7-Zip and GNU cpio: packages laid out as `productbuild` writes
//! them (`corpora/scripts/pkg_tool.py`: a XAR archive holding `Distribution` and `app.pkg/`
//! with its `PackageInfo`, `Bom` and an odc cpio `Payload` written by `cpio -o -H odc`,
//! gzip-compressed or in pbzx xz chunks), listed from what `7zz x` extracts and, below each Payload, what
//! `cpio -idm` extracts; an application package read down to its ASAR; broken packages.

use std::path::Path;

use serde_json::Value;

mod support;

use support::inventory_json;

fn pack(src: &Path, dest: &Path) {
    pack_with(src, dest, "gzip");
}

/// `pkg_tool.py pack SRC DEST COMPRESSION`: the Payload gzip-compressed or in pbzx chunks.
fn pack_with(src: &Path, dest: &Path, compression: &str) {
    support::python_script(
        "pkg_tool.py",
        &[
            "pack".as_ref(),
            src.as_os_str(),
            dest.as_os_str(),
            compression.as_ref(),
        ],
    );
}

/// Our occurrences, outside the ASARs nested there, equal what 7-Zip and cpio extract.
fn check(pkg: &Path, result: &Value) -> usize {
    let oracle = support::python_lines("pkg_tool.py", &["list".as_ref(), pkg.as_os_str()]);
    let ours: std::collections::BTreeMap<String, Value> = support::occurrences_under(result, "")
        .into_iter()
        .filter(|(path, _)| !path.contains(".asar/"))
        .collect();
    support::assert_listing(&oracle, &ours)
}

#[test]
fn packages_match_7zip_and_cpio() {
    let tree = support::corpus("asar-corpus.sh", "asar").join("tree");
    let dir = tempfile::tempdir().unwrap();
    for compression in ["gzip", "pbzx"] {
        let pkg = dir.path().join(format!("Fixture-{compression}.pkg"));
        pack_with(&tree, &pkg, compression);
        let value = inventory_json(&pkg, &[]);
        let result = &value["result"];
        assert_eq!(support::root_format(result), "pkg", "{compression}");
        assert_eq!(result["summary"]["unavailable"], 0, "{compression}");
        let members = check(&pkg, result);
        assert!(members > 1500, "{compression}: {members}");
    }
}

#[test]
fn a_mac_application_package_is_read_down_to_its_asar() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("root");
    support::place_asar(
        &root.join("Fixture.app/Contents/Resources"),
        "unpack-node.asar",
    );
    let pkg = dir.path().join("Fixture-1.0.0.pkg");
    pack(&root, &pkg);
    let result = &inventory_json(&pkg, &[])["result"];
    check(&pkg, result);
    support::assert_asar_at(
        result,
        "app.pkg/Payload/Fixture.app/Contents/Resources/app.asar",
        "unpack-node.asar",
    );
    support::assert_analyzed_like(&pkg, "unpack-node.asar");
}

#[test]
fn broken_packages_are_noted_or_refused() {
    let dir = tempfile::tempdir().unwrap();
    let (src, inputs) = support::text_tree(dir.path(), 40_000);
    let pkg = inputs.join("good.pkg");
    pack(&src, &pkg);
    let bytes = std::fs::read(&pkg).unwrap();

    // A byte flipped in the Payload's compressed stream: the payload is noted, the package's
    // other members are listed.
    let flipped =
        support::inventory_flipped(&bytes, bytes.len() - 200, &inputs.join("flipped.pkg"));
    let ours = support::occurrences_under(&flipped, "");
    assert!(ours.contains_key("Distribution"));
    assert!(
        ours["app.pkg/Payload"]["limitations"]
            .to_string()
            .contains("package payload"),
        "{}",
        ours["app.pkg/Payload"]
    );

    // Cut inside its table of contents, and not a package at all: typed failures.
    let cut = inputs.join("cut.pkg");
    std::fs::write(&cut, &bytes[..60]).unwrap();
    let stderr = support::inventory_fails(&cut);
    assert!(stderr.contains("XAR archive"), "{stderr}");
    let not = inputs.join("not.pkg");
    std::fs::write(&not, b"not a package").unwrap();
    support::inventory_fails(&not);
}

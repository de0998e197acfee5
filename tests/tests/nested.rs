//! Archives inside archives, expanded in place: ASAR in ASAR, ASAR in ZIP in ASAR; an archive in
//! a compressed member is recorded, not expanded; a contradicted container is quarantined.

use std::path::Path;

use rea_core::{Failure, FailureReason, IntegrityPolicy, Limits};
use rea_tests::asar_writer::{file, integrity, pack, sha256};
use serde_json::{Value, json};

fn inventory(path: &Path, integrity: IntegrityPolicy) -> Result<Value, Failure> {
    rea_tests::inventory_result(path, integrity, Limits::default())
}

fn occurrence<'a>(result: &'a Value, path: &str) -> Option<&'a Value> {
    result["occurrences"]["items"]
        .as_array()
        .unwrap()
        .iter()
        .find(|o| o["logical_path"] == path)
}

/// A ZIP holding `app.asar`, written by CPython's zipfile, stored or deflated.
fn zip_holding(asar: &[u8], deflated: bool, dir: &Path) -> Vec<u8> {
    let (src, dest) = (
        dir.join(format!("payload-{deflated}.asar")),
        dir.join(format!("z-{deflated}.zip")),
    );
    std::fs::write(&src, asar).unwrap();
    let method = if deflated {
        "ZIP_DEFLATED"
    } else {
        "ZIP_STORED"
    };
    let script = format!(
        "import zipfile,sys; zipfile.ZipFile(sys.argv[2],'w',zipfile.{method}).write(sys.argv[1],'app.asar')"
    );
    let status = std::process::Command::new("python3")
        .args(["-c", &script])
        .arg(&src)
        .arg(&dest)
        .status()
        .unwrap();
    assert!(status.success());
    std::fs::read(&dest).unwrap()
}

#[test]
fn archives_nest_to_any_depth_and_compressed_members_are_recorded() {
    let dir = tempfile::tempdir().unwrap();
    let inner = pack(&json!({"files": {"x.js": file(b"inner!", 0)}}), b"inner!");
    let stored = zip_holding(&inner, false, dir.path());
    let deflated = zip_holding(&inner, true, dir.path());
    let mut data = inner.clone();
    let at_stored = data.len() as u64;
    data.extend_from_slice(&stored);
    let at_deflated = data.len() as u64;
    data.extend_from_slice(&deflated);
    let outer = pack(
        &json!({"files": {
            "inner.asar": file(&inner, 0),
            "stored.zip": file(&stored, at_stored),
            "deflated.zip": file(&deflated, at_deflated),
        }}),
        &data,
    );
    let path = dir.path().join("outer.asar");
    std::fs::write(&path, outer).unwrap();
    let result = inventory(&path, IntegrityPolicy::Fail).unwrap();
    let x = occurrence(&result, "inner.asar/x.js").expect("ASAR in ASAR");
    assert_eq!(
        (
            x["sha256"].as_str().unwrap(),
            x["hash_status"].as_str().unwrap()
        ),
        (sha256(b"inner!").as_str(), "verified")
    );
    let deep = occurrence(&result, "stored.zip/app.asar/x.js")
        .expect("ASAR in a stored ZIP member in an ASAR");
    assert_eq!(deep["hash_status"], "verified");
    assert_eq!(
        occurrence(&result, "stored.zip/app.asar").unwrap()["parent_occurrence_id"],
        occurrence(&result, "stored.zip").unwrap()["occurrence_id"]
    );
    let compressed =
        occurrence(&result, "deflated.zip/app.asar").expect("the member itself is listed");
    assert_eq!(compressed["hash_status"], "hashed");
    assert!(
        compressed["limitations"]
            .to_string()
            .contains("compressed ZIP member cannot be read in place")
    );
    assert!(occurrence(&result, "deflated.zip/app.asar/x.js").is_none());
}

#[test]
fn a_contradicted_nested_archive_is_quarantined_from_expansion() {
    let dir = tempfile::tempdir().unwrap();
    let inner = pack(&json!({"files": {"x.js": file(b"inner!", 0)}}), b"inner!");
    let mut claimed = integrity(&inner);
    claimed["hash"] = json!(sha256(b"something else"));
    claimed["blocks"] = json!([sha256(b"something else")]);
    let outer = pack(
        &json!({"files": {"inner.asar": {"size": inner.len(), "offset": "0", "integrity": claimed}}}),
        &inner,
    );
    let path = dir.path().join("outer.asar");
    std::fs::write(&path, outer).unwrap();
    let err = inventory(&path, IntegrityPolicy::Fail).unwrap_err();
    assert_eq!(err.reason, FailureReason::Integrity);
    let result = inventory(
        &path,
        IntegrityPolicy::RecordAndContinue { max_mismatches: 10 },
    )
    .unwrap();
    let container = occurrence(&result, "inner.asar").unwrap();
    assert_eq!(container["hash_status"], "mismatched");
    assert!(container["limitations"].to_string().contains("quarantined"));
    assert!(
        occurrence(&result, "inner.asar/x.js").is_none(),
        "contents of a contradicted container are not listed"
    );
    assert_eq!(
        result["integrity_contradictions"].as_array().unwrap().len(),
        1
    );
}

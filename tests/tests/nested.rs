//! Archives inside archives, expanded in place: ASAR in ASAR, ASAR in ZIP in ASAR; an archive in
//! a compressed member is inflated into memory within bounds and expanded, or recorded with the
//! reason when it cannot be; a contradicted container is quarantined.

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
fn archives_nest_to_any_depth_stored_or_compressed() {
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
    assert_eq!(compressed["sha256"].as_str().unwrap(), sha256(&inner));
    let inflated = occurrence(&result, "deflated.zip/app.asar/x.js")
        .expect("ASAR in a deflated ZIP member in an ASAR");
    assert_eq!(
        (
            inflated["sha256"].as_str().unwrap(),
            inflated["hash_status"].as_str().unwrap()
        ),
        (sha256(b"inner!").as_str(), "verified")
    );
    assert_eq!(
        inflated["parent_occurrence_id"],
        compressed["occurrence_id"]
    );
}

/// `zip` with the CRC-32 of its first member changed, in the local header and the central
/// directory alike.
fn with_wrong_crc(zip: &[u8]) -> Vec<u8> {
    let mut bad = zip.to_vec();
    let flip = |bad: &mut Vec<u8>, at: usize| bad[at] ^= 0xff;
    assert_eq!(&bad[..4], b"PK\x03\x04");
    flip(&mut bad, 14);
    let central = bad
        .windows(4)
        .position(|w| w == b"PK\x01\x02")
        .expect("a central directory");
    flip(&mut bad, central + 16);
    bad
}

/// `zip` with the uncompressed size of its first member declared as `size`, in the local header
/// and the central directory alike.
/// The zip at `path` inventories (recording, not failing), and its `app.asar` is recorded
/// with a note containing `note` and not expanded.
fn assert_not_expanded(path: &Path, note: &str) {
    let result = inventory(
        path,
        IntegrityPolicy::RecordAndContinue { max_mismatches: 10 },
    )
    .unwrap();
    assert!(occurrence(&result, "app.asar/x.js").is_none());
    let notes = occurrence(&result, "app.asar").unwrap()["limitations"].to_string();
    assert!(notes.contains(note), "{}: {notes}", path.display());
}

fn with_declared_size(zip: &[u8], size: u32) -> Vec<u8> {
    let mut bad = zip.to_vec();
    bad[22..26].copy_from_slice(&size.to_le_bytes());
    let central = bad
        .windows(4)
        .position(|w| w == b"PK\x01\x02")
        .expect("a central directory");
    bad[central + 24..central + 28].copy_from_slice(&size.to_le_bytes());
    bad
}

#[test]
fn a_compressed_archive_that_inflates_to_another_size_than_declared_is_not_expanded() {
    let dir = tempfile::tempdir().unwrap();
    let inner = pack(&json!({"files": {"x.js": file(b"inner!", 0)}}), b"inner!");
    let deflated = zip_holding(&inner, true, dir.path());
    let actual = inner.len() as u32;
    for (declared, note) in [
        (
            actual - 1,
            "not expanded: the compressed member inflates to more than its declared size"
                .to_owned(),
        ),
        (
            actual + 1,
            format!(
                "inflates to {actual} bytes, not the {} it declares",
                actual + 1
            ),
        ),
    ] {
        let path = dir.path().join(format!("sized-{declared}.zip"));
        std::fs::write(&path, with_declared_size(&deflated, declared)).unwrap();
        assert_not_expanded(&path, &note);
    }
}

#[test]
fn a_compressed_archive_is_not_expanded_past_its_bounds_or_its_crc() {
    let dir = tempfile::tempdir().unwrap();
    let inner = pack(&json!({"files": {"x.js": file(b"inner!", 0)}}), b"inner!");
    let deflated = zip_holding(&inner, true, dir.path());
    let bad_crc = with_wrong_crc(&deflated);
    let (zip_path, bad_path) = (dir.path().join("app.zip"), dir.path().join("bad.zip"));
    std::fs::write(&zip_path, &deflated).unwrap();
    std::fs::write(&bad_path, &bad_crc).unwrap();

    // Expanded from a ZIP given directly, as an app shipped in a zip is.
    let result = inventory(&zip_path, IntegrityPolicy::Fail).unwrap();
    assert_eq!(
        occurrence(&result, "app.asar/x.js").unwrap()["hash_status"],
        "verified"
    );

    // An archive larger than an entry may be is recorded, with the reason, and not expanded.
    let small = Limits {
        max_entry_bytes: inner.len() as u64 - 1,
        ..Limits::default()
    };
    let result = rea_tests::inventory_result(&zip_path, IntegrityPolicy::Fail, small).unwrap();
    assert!(occurrence(&result, "app.asar/x.js").is_none());
    let notes = occurrence(&result, "app.asar").unwrap()["limitations"].to_string();
    assert!(notes.contains("it may take in memory"), "{notes}");

    // Bytes that fail their CRC-32 are never expanded; the member is a recorded contradiction.
    let result = inventory(
        &bad_path,
        IntegrityPolicy::RecordAndContinue { max_mismatches: 10 },
    )
    .unwrap();
    assert!(occurrence(&result, "app.asar/x.js").is_none());
    let member = occurrence(&result, "app.asar").unwrap();
    assert_eq!(member["hash_status"], "unavailable");
    assert!(
        member["limitations"]
            .to_string()
            .contains("not expanded: the compressed member's bytes fail their CRC-32")
    );
    let err = inventory(&bad_path, IntegrityPolicy::Fail).unwrap_err();
    assert_eq!(err.reason, FailureReason::Integrity);

    // A damaged deflate stream is never expanded either, and never panics.
    let name_len = u16::from_le_bytes([deflated[26], deflated[27]]) as usize;
    let extra_len = u16::from_le_bytes([deflated[28], deflated[29]]) as usize;
    let data = 30 + name_len + extra_len;
    for at in [data, data + 3, data + 17] {
        let mut damaged = deflated.clone();
        damaged[at] ^= 0x5a;
        let path = dir.path().join(format!("damaged-{at}.zip"));
        std::fs::write(&path, &damaged).unwrap();
        assert_not_expanded(&path, "not expanded");
    }
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

#[test]
fn every_zip_family_name_is_expanded_and_reported_in_its_format() {
    let dir = tempfile::tempdir().unwrap();
    let app = dir.path().join("app");
    std::fs::create_dir(&app).unwrap();
    // A Squirrel update package, a VS Code extension, a Firefox add-on, an Android package:
    // zips by other names, each with its own content.
    let named = [
        ("App-1.2.3-full.nupkg", "zip"),
        ("extension.VSIX", "zip"),
        ("addon.xpi", "zip"),
        ("release.apk", "apk"),
    ];
    for (name, _) in named {
        let scratch = dir.path().join(format!("scratch-{name}"));
        std::fs::create_dir(&scratch).unwrap();
        let inner = pack(
            &json!({"files": {"x.js": file(name.as_bytes(), 0)}}),
            name.as_bytes(),
        );
        std::fs::write(app.join(name), zip_holding(&inner, true, &scratch)).unwrap();
    }
    let result = inventory(&app, IntegrityPolicy::Fail).unwrap();
    let formats: std::collections::BTreeMap<&str, &str> = result["nodes"]["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| (n["sha256"].as_str().unwrap(), n["format"].as_str().unwrap()))
        .collect();
    for (name, format) in named {
        let container = occurrence(&result, name).unwrap();
        assert!(
            occurrence(&result, &format!("{name}/app.asar/x.js")).is_some(),
            "{name} is expanded"
        );
        assert_eq!(
            formats[container["sha256"].as_str().unwrap()],
            format,
            "{name}"
        );
    }
}

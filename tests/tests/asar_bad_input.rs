//! Malformed and hostile ASAR archives: each answer is a typed error or a recorded limitation,
//! never a panic, and nothing is written anywhere.

use rea_core::{Failure, FailureReason, IntegrityPolicy, Limits};
use rea_tests::asar_writer::{file, integrity, pack, pack_text, sha256};
use serde_json::{Value, json};

const RECORD: IntegrityPolicy = IntegrityPolicy::RecordAndContinue { max_mismatches: 10 };

fn inventory(
    path: &std::path::Path,
    policy: IntegrityPolicy,
    limits: Limits,
) -> Result<Value, Failure> {
    rea_tests::inventory_result(path, policy, limits)
}

/// Writes `bytes` as `app.asar` in a fresh folder and inventories it.
fn run(bytes: &[u8], policy: IntegrityPolicy) -> (tempfile::TempDir, Result<Value, Failure>) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("app.asar");
    std::fs::write(&path, bytes).unwrap();
    let result = inventory(&path, policy, Limits::default());
    let names: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(
        names.len(),
        1,
        "nothing but the input is in the folder: {names:?}"
    );
    (dir, result)
}

fn occurrence<'a>(result: &'a Value, path: &str) -> &'a Value {
    result["occurrences"]["items"]
        .as_array()
        .unwrap()
        .iter()
        .find(|o| o["logical_path"] == path)
        .unwrap_or_else(|| panic!("no occurrence {path}"))
}

fn limitations(value: &Value) -> String {
    value["limitations"].to_string()
}

fn good_archive() -> Vec<u8> {
    let (a, b) = (
        b"console.log('a')".as_slice(),
        b"module.exports = 2".as_slice(),
    );
    let mut data = a.to_vec();
    data.extend_from_slice(b);
    pack(
        &json!({"files": {"a.js": file(a, 0), "lib": {"files": {"b.js": file(b, a.len() as u64)}}}}),
        &data,
    )
}

#[test]
fn a_well_formed_archive_verifies() {
    let (_dir, result) = run(&good_archive(), IntegrityPolicy::Fail);
    let result = result.unwrap();
    assert_eq!(occurrence(&result, "a.js")["hash_status"], "verified");
    assert_eq!(
        occurrence(&result, "lib/b.js")["sha256"],
        sha256(b"module.exports = 2")
    );
    assert_eq!(result["summary"]["verified"], 2);
}

#[test]
fn a_truncated_header_is_a_format_error() {
    let (_dir, result) = run(&good_archive()[..10], IntegrityPolicy::Fail);
    let err = result.unwrap_err();
    assert_eq!(err.reason, FailureReason::Format);
    let (_dir, result) = run(&good_archive()[..40], IntegrityPolicy::Fail);
    assert_eq!(result.unwrap_err().reason, FailureReason::Format);
}

#[test]
fn a_header_size_past_the_end_is_a_format_error() {
    let mut bytes = good_archive();
    bytes[4..8].copy_from_slice(&(1u32 << 30).to_le_bytes());
    let (_dir, result) = run(&bytes, IntegrityPolicy::Fail);
    let err = result.unwrap_err();
    assert_eq!(err.reason, FailureReason::Format);
    assert_eq!(
        err.message,
        "ASAR header size points past the end of the archive"
    );
}

#[test]
fn offsets_that_overflow_or_run_past_the_data_are_limitations() {
    let data = b"x";
    let header = json!({"files": {
        "overflow.js": {"size": 1, "offset": "18446744073709551615"},
        "past.js": {"size": 100, "offset": "0"},
        "ok.js": file(data, 0),
    }});
    let (_dir, result) = run(&pack(&header, data), IntegrityPolicy::Fail);
    let result = result.unwrap();
    for path in ["overflow.js", "past.js"] {
        let o = occurrence(&result, path);
        assert_eq!(o["hash_status"], "unavailable", "{path}");
        assert!(
            limitations(o).contains("past the end of the archive data"),
            "{o}"
        );
    }
    assert_eq!(occurrence(&result, "ok.js")["hash_status"], "verified");
}

#[test]
fn a_header_that_is_not_json_is_a_format_error() {
    let (_dir, result) = run(&pack_text(b"{\"files\": {nope", b""), IntegrityPolicy::Fail);
    let err = result.unwrap_err();
    assert_eq!(err.reason, FailureReason::Format);
    assert_eq!(err.message, "ASAR header is not valid JSON");
}

#[test]
fn a_header_nested_10000_deep_is_a_format_error() {
    let mut text = String::new();
    for _ in 0..10_000 {
        text.push_str("{\"files\":{\"d\":");
    }
    text.push_str("{\"files\":{}}");
    for _ in 0..10_000 {
        text.push_str("}}");
    }
    let (_dir, result) = run(&pack_text(text.as_bytes(), b""), IntegrityPolicy::Fail);
    let err = result.unwrap_err();
    assert_eq!(err.reason, FailureReason::Format);
    assert_eq!(err.message, "ASAR header is nested too deeply to parse");
}

#[test]
fn a_million_entries_stop_at_max_entries() {
    let mut text = String::from("{\"files\":{");
    for i in 0..1_000_001 {
        if i > 0 {
            text.push(',');
        }
        text.push_str(&format!("\"f{i}\":{{\"size\":0,\"offset\":\"0\"}}"));
    }
    text.push_str("}}");
    let (_dir, result) = run(&pack_text(text.as_bytes(), b""), IntegrityPolicy::Fail);
    let err = result.unwrap_err();
    assert_eq!(err.reason, FailureReason::Limit);
    assert_eq!(err.details["limit"], "max_entries");
    assert_eq!(err.details["maximum"], 1_000_000);
}

#[test]
fn duplicate_names_keep_the_last_declaration_as_json_parse_does() {
    let (first, last) = (b"first".as_slice(), b"last!".as_slice());
    let text = format!(
        "{{\"files\":{{\"a.js\":{},\"a.js\":{}}}}}",
        file(first, 0),
        file(last, first.len() as u64)
    );
    let (_dir, result) = run(
        &pack_text(text.as_bytes(), b"firstlast!"),
        IntegrityPolicy::Fail,
    );
    let result = result.unwrap();
    assert_eq!(occurrence(&result, "a.js")["sha256"], sha256(last));
    assert_eq!(result["summary"]["entries"], 1);
    assert!(limitations(occurrence(&result, ".")).contains("declared more than once"));
}

#[test]
fn unsafe_names_are_skipped_and_noted_on_their_parent() {
    let data = b"x";
    let header = json!({"files": {
        "..": file(data, 0),
        "/etc": file(data, 0),
        "a\\b.js": file(data, 0),
        "nul\u{0}.js": file(data, 0),
        "": file(data, 0),
        "ok.js": file(data, 0),
    }});
    let (_dir, result) = run(&pack(&header, data), IntegrityPolicy::Fail);
    let result = result.unwrap();
    assert_eq!(result["summary"]["entries"], 1);
    assert_eq!(result["summary"]["skipped"], 5);
    let notes = limitations(occurrence(&result, "."));
    for problem in ["dot name", "path separator", "NUL", "empty name"] {
        assert!(notes.contains(problem), "{problem}: {notes}");
    }
}

#[test]
fn case_collisions_are_kept_and_noted() {
    let (a, b) = (b"upper".as_slice(), b"lower".as_slice());
    let header = json!({"files": {"A.js": file(a, 0), "a.js": file(b, 5)}});
    let (_dir, result) = run(&pack(&header, b"upperlower"), IntegrityPolicy::Fail);
    let result = result.unwrap();
    assert_eq!(occurrence(&result, "A.js")["sha256"], sha256(a));
    assert_eq!(occurrence(&result, "a.js")["sha256"], sha256(b));
    assert!(limitations(occurrence(&result, ".")).contains("differ only by case"));
}

#[test]
fn a_symlink_that_escapes_the_root_is_recorded_and_never_followed() {
    let header =
        json!({"files": {"evil": {"link": "../../etc/passwd"}, "fine": {"link": "lib/x.js"}}});
    let (_dir, result) = run(&pack(&header, b""), IntegrityPolicy::Fail);
    let result = result.unwrap();
    let evil = occurrence(&result, "evil");
    assert_eq!(evil["entry_kind"], "symlink");
    assert_eq!(evil["link_target"], "../../etc/passwd");
    assert_eq!(evil["artifact_id"], Value::Null);
    assert!(limitations(evil).contains("escapes the archive root"));
    assert_eq!(occurrence(&result, "fine")["limitations"], json!([]));
}

#[test]
fn a_missing_unpacked_companion_is_unavailable_and_the_scan_goes_on() {
    let data = b"packed";
    let header = json!({"files": {
        "addon.node": {"size": 4, "unpacked": true, "integrity": integrity(b"ELF!")},
        "main.js": file(data, 0),
    }});
    let (_dir, result) = run(&pack(&header, data), IntegrityPolicy::Fail);
    let result = result.unwrap();
    let addon = occurrence(&result, "addon.node");
    assert_eq!(addon["hash_status"], "unavailable");
    assert_eq!(addon["unpacked"], true);
    assert!(limitations(addon).contains(".unpacked folder is missing"));
    assert_eq!(occurrence(&result, "main.js")["hash_status"], "verified");
}

#[test]
fn an_unknown_integrity_algorithm_is_unverifiable_never_skipped() {
    let data = b"hello";
    let header = json!({"files": {
        "md5.js": {"size": 5, "offset": "0", "integrity": {"algorithm": "MD5", "hash": sha256(data), "blockSize": 4, "blocks": []}},
        "broken.js": {"size": 5, "offset": "0", "integrity": {"algorithm": "SHA256"}},
    }});
    let (_dir, result) = run(&pack(&header, data), IntegrityPolicy::Fail);
    let result = result.unwrap();
    let md5 = occurrence(&result, "md5.js");
    assert_eq!(md5["hash_status"], "unverifiable");
    assert!(
        limitations(md5).contains("\\\"MD5\\\" is not supported"),
        "{md5}"
    );
    let broken = occurrence(&result, "broken.js");
    assert_eq!(broken["hash_status"], "unverifiable");
    assert!(limitations(broken).contains("malformed"));
    assert_eq!(result["summary"]["unverifiable"], 2);
}

/// An archive whose `b.js` bytes were altered after packing.
fn tampered() -> Vec<u8> {
    let mut bytes = good_archive();
    let at = bytes.len() - 1;
    bytes[at] ^= 0x20;
    bytes
}

#[test]
fn a_tampered_packed_byte_fails_closed_by_default() {
    let (_dir, result) = run(&tampered(), IntegrityPolicy::Fail);
    let err = result.unwrap_err();
    assert_eq!(err.reason, FailureReason::Integrity);
    assert_eq!(err.details["logical_path"], "lib/b.js");
    assert_eq!(
        err.details["declared_sha256"],
        sha256(b"module.exports = 2")
    );
    assert_eq!(
        err.details["observed_sha256"],
        sha256(b"module.exports = \x12")
    );
    assert_eq!(err.details["unpacked"], false);
    let wire = rea_jobs::error::ErrorObject::from_failure("inventory_artifact", &err);
    assert_eq!(wire.code, "artifact_integrity_mismatch");
}

#[test]
fn a_tampered_packed_byte_is_a_contradiction_under_record_and_continue() {
    let (_dir, result) = run(&tampered(), RECORD);
    let result = result.unwrap();
    let b = occurrence(&result, "lib/b.js");
    assert_eq!(b["hash_status"], "mismatched");
    assert_eq!(
        occurrence(&result, "a.js")["hash_status"],
        "verified",
        "verified siblings continue"
    );
    let contradictions = result["integrity_contradictions"].as_array().unwrap();
    assert_eq!(contradictions.len(), 1);
    let c = &contradictions[0];
    assert_eq!(c["logical_path"], "lib/b.js");
    assert_eq!(c["trust"], "observed-untrusted");
    assert_eq!(c["declared_sha256"], sha256(b"module.exports = 2"));
    assert_eq!(c["observed_sha256"], b["sha256"]);
    assert_eq!(c["occurrence_id"], b["occurrence_id"]);
    assert_eq!(c["unpacked"], false);
    assert_eq!(result["manifest"]["contradiction_count"], 1);
}

#[test]
fn a_tampered_unpacked_byte_under_both_policies() {
    let addon = b"\x7fELF real addon bytes".as_slice();
    let header = json!({"files": {"build": {"files": {"addon.node": {
        "size": addon.len(), "unpacked": true, "executable": true, "integrity": integrity(addon),
    }}}}});
    let dir = tempfile::tempdir().unwrap();
    let archive = dir.path().join("app.asar");
    std::fs::write(&archive, pack(&header, b"")).unwrap();
    std::fs::create_dir_all(dir.path().join("app.asar.unpacked/build")).unwrap();
    let companion = dir.path().join("app.asar.unpacked/build/addon.node");
    std::fs::write(&companion, addon).unwrap();
    let result = inventory(&archive, IntegrityPolicy::Fail, Limits::default()).unwrap();
    let o = occurrence(&result, "build/addon.node");
    assert_eq!(
        (
            o["hash_status"].clone(),
            o["unpacked"].clone(),
            o["executable"].clone()
        ),
        (json!("verified"), json!(true), json!(true))
    );
    let mut altered = addon.to_vec();
    altered[5] ^= 1;
    std::fs::write(&companion, &altered).unwrap();
    let err = inventory(&archive, IntegrityPolicy::Fail, Limits::default()).unwrap_err();
    assert_eq!(err.reason, FailureReason::Integrity);
    assert_eq!(err.details["unpacked"], true);
    assert_eq!(err.details["logical_path"], "build/addon.node");
    let result = inventory(&archive, RECORD, Limits::default()).unwrap();
    assert_eq!(result["integrity_contradictions"][0]["unpacked"], true);
    assert_eq!(
        result["integrity_contradictions"][0]["observed_sha256"],
        sha256(&altered)
    );
}

#[test]
fn a_wrong_block_digest_is_a_mismatch_even_when_the_whole_hash_matches() {
    let data = b"0123456789".as_slice();
    let header = json!({"files": {"x.bin": {"size": 10, "offset": "0", "integrity": {
        "algorithm": "SHA256", "hash": sha256(data), "blockSize": 4,
        "blocks": [sha256(b"0123"), sha256(b"4567"), sha256(b"XX")],
    }}}});
    let (_dir, result) = run(&pack(&header, data), IntegrityPolicy::Fail);
    assert_eq!(result.unwrap_err().reason, FailureReason::Integrity);
    let good = json!({"files": {"x.bin": {"size": 10, "offset": "0", "integrity": {
        "algorithm": "SHA256", "hash": sha256(data), "blockSize": 4,
        "blocks": [sha256(b"0123"), sha256(b"4567"), sha256(b"89")],
    }}}});
    let (_dir, result) = run(&pack(&good, data), IntegrityPolicy::Fail);
    assert_eq!(
        occurrence(&result.unwrap(), "x.bin")["hash_status"],
        "verified"
    );
}

#[test]
fn contradictions_are_bounded_by_max_integrity_mismatches() {
    let data = b"abc";
    let mut files = serde_json::Map::new();
    for i in 0..3 {
        files.insert(
            format!("f{i}.js"),
            json!({"size": 3, "offset": "0", "integrity": integrity(b"xyz")}),
        );
    }
    let bytes = pack(&json!({"files": files}), data);
    let (_dir, result) = run(
        &bytes,
        IntegrityPolicy::RecordAndContinue { max_mismatches: 2 },
    );
    let err = result.unwrap_err();
    assert_eq!(err.reason, FailureReason::Limit);
    assert_eq!(err.details["limit"], "max_integrity_mismatches");
    let (_dir, result) = run(
        &bytes,
        IntegrityPolicy::RecordAndContinue { max_mismatches: 3 },
    );
    assert_eq!(
        result.unwrap()["integrity_contradictions"]
            .as_array()
            .unwrap()
            .len(),
        3
    );
}

#[test]
fn directories_named_like_scripts_or_archives_are_directories() {
    let dir = tempfile::tempdir().unwrap();
    for name in ["ipaddr.js", "x.asar"] {
        std::fs::create_dir(dir.path().join(name)).unwrap();
        std::fs::write(dir.path().join(name).join("index.js"), b"1").unwrap();
    }
    let result = inventory(dir.path(), IntegrityPolicy::Fail, Limits::default()).unwrap();
    for name in ["ipaddr.js", "x.asar"] {
        assert_eq!(occurrence(&result, name)["entry_kind"], "directory");
        assert_eq!(
            occurrence(&result, &format!("{name}/index.js"))["hash_status"],
            "hashed"
        );
    }
}

/// An `integrity` of any shape is read entry by entry: what is not an object with a hex hash
/// (and blocks when a block size is declared) makes that entry unverifiable, never the run;
/// hex case is not significant, and unknown keys are ignored.
#[test]
fn integrity_of_any_shape_is_recorded_entry_by_entry() {
    let data = b"hello";
    let mut upper = integrity(data);
    upper["hash"] = json!(sha256(data).to_uppercase());
    upper["blocks"] = json!([sha256(data).to_uppercase()]);
    upper["note"] = json!({"nested": [1, 2, {"x": null}]});
    let mut stray_blocks = integrity(data);
    stray_blocks["blocks"] = json!("not a list");
    let mut odd_block = integrity(data);
    odd_block["blocks"] = json!([7]);
    let header = json!({"files": {
        "upper.js": {"size": 5, "offset": "0", "integrity": upper},
        "string.js": {"size": 5, "offset": "0", "integrity": "sha256"},
        "array.js": {"size": 5, "offset": "0", "integrity": [sha256(data)]},
        "null.js": {"size": 5, "offset": "0", "integrity": null},
        "number.js": {"size": 5, "offset": "0", "integrity": 3},
        "stray-blocks.js": {"size": 5, "offset": "0", "integrity": stray_blocks},
        "odd-block.js": {"size": 5, "offset": "0", "integrity": odd_block},
        "plain.js": {"size": 5, "offset": "0"},
    }});
    let (_dir, result) = run(&pack(&header, data), IntegrityPolicy::Fail);
    let result = result.unwrap();
    assert_eq!(occurrence(&result, "upper.js")["hash_status"], "verified");
    assert_eq!(occurrence(&result, "plain.js")["hash_status"], "hashed");
    for odd in [
        "string.js",
        "array.js",
        "null.js",
        "number.js",
        "stray-blocks.js",
        "odd-block.js",
    ] {
        let entry = occurrence(&result, odd);
        assert_eq!(entry["hash_status"], "unverifiable", "{odd}");
        assert!(limitations(entry).contains("malformed"), "{odd}: {entry}");
        assert_eq!(entry["sha256"], sha256(data), "{odd}");
    }
    assert_eq!(result["summary"]["unverifiable"], 6);
}

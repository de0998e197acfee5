//! Hostile ZIP archives (written by `corpora/scripts/zip_bad.py` with CPython's zipfile, then
//! byte-patched): each answer is a typed error or a recorded limitation, never a panic.

use std::path::{Path, PathBuf};

use rea_core::{Failure, FailureReason, IntegrityPolicy, Limits};
use serde_json::Value;

fn corpus() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let script = rea_tests::corpora().join("scripts/zip_bad.py");
    let status = std::process::Command::new("python3")
        .arg(script)
        .arg(dir.path())
        .status()
        .unwrap();
    assert!(status.success());
    let path = dir.path().to_path_buf();
    (dir, path)
}

fn inventory(path: &Path, policy: IntegrityPolicy, limits: Limits) -> Result<Value, Failure> {
    rea_tests::inventory_result(path, policy, limits)
}

fn occurrence<'a>(result: &'a Value, path: &str) -> &'a Value {
    result["occurrences"]["items"]
        .as_array()
        .unwrap()
        .iter()
        .find(|o| o["logical_path"] == path)
        .unwrap()
}

#[test]
fn a_zip_bomb_by_ratio_is_not_inflated() {
    let (_keep, dir) = corpus();
    let limits = Limits {
        max_compression_ratio: 100.0,
        ..Limits::default()
    };
    let result = inventory(&dir.join("bomb.zip"), IntegrityPolicy::Fail, limits).unwrap();
    let bomb = occurrence(&result, "bomb.txt");
    assert_eq!(bomb["hash_status"], "unavailable");
    assert!(
        bomb["limitations"]
            .to_string()
            .contains("exceeds max_compression_ratio 100")
    );
    assert_eq!(occurrence(&result, "ok.txt")["hash_status"], "hashed");
    // With the default ratio the same member is read.
    let result = inventory(
        &dir.join("bomb.zip"),
        IntegrityPolicy::Fail,
        Limits::default(),
    )
    .unwrap();
    assert_eq!(occurrence(&result, "bomb.txt")["size"], 1_000_000);
}

#[test]
fn zip_slip_names_are_skipped_and_noted() {
    let (_keep, dir) = corpus();
    let result = inventory(
        &dir.join("slip.zip"),
        IntegrityPolicy::Fail,
        Limits::default(),
    )
    .unwrap();
    assert_eq!(result["summary"]["entries"], 1);
    assert_eq!(result["summary"]["skipped"], 5);
    let notes = occurrence(&result, ".")["limitations"].to_string();
    for problem in ["dot name", "absolute path", "backslash", "drive-letter"] {
        assert!(notes.contains(problem), "{problem}: {notes}");
    }
}

#[test]
fn an_encrypted_member_is_never_read() {
    let (_keep, dir) = corpus();
    let result = inventory(
        &dir.join("encrypted.zip"),
        IntegrityPolicy::Fail,
        Limits::default(),
    )
    .unwrap();
    let secret = occurrence(&result, "secret.txt");
    assert_eq!(secret["hash_status"], "unavailable");
    assert_eq!(secret["sha256"], Value::Null);
    assert!(
        secret["limitations"]
            .to_string()
            .contains("encrypted member was not read")
    );
    assert_eq!(occurrence(&result, "ok.txt")["hash_status"], "hashed");
}

#[test]
fn a_crc_mismatch_fails_closed_or_is_recorded() {
    let (_keep, dir) = corpus();
    let err = inventory(
        &dir.join("crc.zip"),
        IntegrityPolicy::Fail,
        Limits::default(),
    )
    .unwrap_err();
    assert_eq!(err.reason, FailureReason::Integrity);
    assert_eq!(err.details["logical_path"], "altered.txt");
    let policy = IntegrityPolicy::RecordAndContinue { max_mismatches: 10 };
    let result = inventory(&dir.join("crc.zip"), policy, Limits::default()).unwrap();
    let altered = occurrence(&result, "altered.txt");
    assert_eq!(altered["hash_status"], "unavailable");
    assert!(
        altered["limitations"]
            .to_string()
            .contains("CRC-32 mismatch")
    );
    assert_eq!(occurrence(&result, "ok.txt")["hash_status"], "hashed");
}

#[test]
fn a_file_that_is_not_a_zip_is_a_format_error() {
    let (_keep, dir) = corpus();
    let err = inventory(
        &dir.join("notzip.zip"),
        IntegrityPolicy::Fail,
        Limits::default(),
    )
    .unwrap_err();
    assert_eq!(err.reason, FailureReason::Format);
    assert_eq!(err.message, "not a readable ZIP archive");
}

//! Invariants of an `extract_artifact` result, recomputed from its JSON.

use rea_graph::artifact::ids;
use serde_json::Value;

use crate::ValidationError;
use crate::record::{is_hex64, is_prefixed_hex};

pub(crate) fn check(record: &Value, result: &Value) -> Result<(), ValidationError> {
    let bad = |at: &str, problem: &str| ValidationError::new(at, problem);
    let manifest_id = result["source_manifest_id"].as_str().unwrap_or_default();
    if !is_prefixed_hex(manifest_id, "agm_") {
        return Err(bad(
            "/source_manifest_id",
            "must be agm_ and 64 lowercase hex digits",
        ));
    }
    let root_artifact_id = result["root_artifact_id"].as_str().unwrap_or_default();
    let subject_sha = record["subject"]["digest"]["sha256"]
        .as_str()
        .unwrap_or_default();
    if ids::artifact_id(subject_sha).ok().as_deref() != Some(root_artifact_id) {
        return Err(bad(
            "/root_artifact_id",
            "does not match the subject digest",
        ));
    }
    if !result["output_root"]
        .as_str()
        .is_some_and(|p| p.starts_with('/'))
    {
        return Err(bad("/output_root", "must be an absolute path"));
    }
    let Some(files) = result["files"].as_array() else {
        return Err(bad("/files", "must be an array"));
    };
    let mut lines = Vec::with_capacity(files.len());
    let mut previous: Option<&str> = None;
    for (i, file) in files.iter().enumerate() {
        let at = format!("/files/{i}");
        let (Some(path), Some(relative), Some(sha256), Some(size), Some(occurrence_id)) = (
            file["logical_path"].as_str(),
            file["relative_path"].as_str(),
            file["sha256"].as_str(),
            file["size"].as_u64(),
            file["occurrence_id"].as_str(),
        ) else {
            return Err(bad(
                &at,
                "must have logical_path, relative_path, sha256, size and occurrence_id",
            ));
        };
        if path != relative || !is_hex64(sha256) {
            return Err(bad(
                &at,
                "relative_path must equal logical_path, and sha256 be 64 hex digits",
            ));
        }
        if previous.is_some_and(|p| p >= relative) {
            return Err(bad(&at, "files are not in relative_path order"));
        }
        previous = Some(relative);
        if ids::occurrence_id(root_artifact_id, path, "file")
            .ok()
            .as_deref()
            != Some(occurrence_id)
        {
            return Err(bad(&at, "occurrence_id does not match its path"));
        }
        lines.push(ids::ExtractedFile {
            relative_path: relative,
            sha256,
            size,
        });
    }
    if ids::extraction_id(manifest_id, &lines).ok().as_deref() != result["extraction_id"].as_str() {
        return Err(bad("/extraction_id", "does not match the extracted files"));
    }
    let locations = record["locations"]
        .as_array()
        .map(Vec::as_slice)
        .unwrap_or(&[]);
    if locations.len() != files.len()
        || !locations
            .iter()
            .zip(files)
            .all(|(l, f)| l["path"] == f["logical_path"])
    {
        return Err(bad(
            "/locations",
            "must name each extracted file's logical_path, in order",
        ));
    }
    Ok(())
}

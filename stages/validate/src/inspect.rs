//! Invariants of an `inspect_artifact` result, recomputed from its JSON.

use rea_graph::artifact::ids;
use serde_json::Value;

use crate::ValidationError;

pub(crate) fn check(record: &Value, result: &Value) -> Result<(), ValidationError> {
    let bad = |at: &str, problem: &str| ValidationError::new(at, problem);
    let manifest = &result["manifest"];
    let (Some(root), Some(graph)) = (
        manifest["root_artifact_id"].as_str(),
        manifest["graph_sha256"].as_str(),
    ) else {
        return Err(bad(
            "/manifest",
            "must name root_artifact_id and graph_sha256",
        ));
    };
    if ids::manifest_id(root, graph).ok().as_deref() != manifest["manifest_id"].as_str() {
        return Err(bad("/manifest/manifest_id", "does not match its content"));
    }
    let subject_sha = record["subject"]["digest"]["sha256"]
        .as_str()
        .unwrap_or_default();
    if ids::artifact_id(subject_sha).ok().as_deref() != Some(root)
        || manifest["root_sha256"] != subject_sha
    {
        return Err(bad(
            "/manifest/root_artifact_id",
            "does not match the subject digest",
        ));
    }
    let max = record["parameters"]["max_observations"]
        .as_u64()
        .unwrap_or(0) as usize;
    for key in ["largest_files", "entrypoints", "containers"] {
        let Some(items) = result[key].as_array() else {
            return Err(bad(&format!("/{key}"), "must be an array"));
        };
        if items.len() > max {
            return Err(bad(
                &format!("/{key}"),
                "lists more than max_observations items",
            ));
        }
    }
    let largest = result["largest_files"]
        .as_array()
        .map(Vec::as_slice)
        .unwrap_or(&[]);
    let ordered = largest.windows(2).all(|w| {
        let (a, b) = (w[0]["size"].as_u64(), w[1]["size"].as_u64());
        a > b || (a == b && w[0]["logical_path"].as_str() < w[1]["logical_path"].as_str())
    });
    if !ordered {
        return Err(bad("/largest_files", "must be in descending size order"));
    }
    let counted: u64 = result["counts"]["by_kind"]
        .as_object()
        .map_or(0, |m| m.values().filter_map(Value::as_u64).sum());
    let hashed_files = result["summary"]["files"].as_u64().unwrap_or(0);
    if counted > hashed_files {
        return Err(bad(
            "/counts/by_kind",
            "counts more files than the summary holds",
        ));
    }
    let entrypoints = result["entrypoints"]
        .as_array()
        .map(Vec::as_slice)
        .unwrap_or(&[]);
    let locations = record["locations"]
        .as_array()
        .map(Vec::as_slice)
        .unwrap_or(&[]);
    if locations.len() != entrypoints.len()
        || !locations
            .iter()
            .zip(entrypoints)
            .all(|(l, e)| l["path"] == e["logical_path"])
    {
        return Err(bad(
            "/locations",
            "must name each entrypoint's logical_path, in order",
        ));
    }
    Ok(())
}

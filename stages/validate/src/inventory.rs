//! Invariants of an `inventory_artifact` result, recomputed from its JSON.

use std::collections::BTreeSet;

use rea_graph::artifact::ids;
use serde_json::Value;

use crate::ValidationError;
use crate::record::is_hex64;

const ENTRY_KINDS: [&str; 3] = ["file", "directory", "symlink"];
const HASH_STATUSES: [&str; 8] = [
    "hashed",
    "verified",
    "mismatched",
    "derived",
    "not-hashed",
    "unverifiable",
    "not-hashed-limit",
    "unavailable",
];

pub(crate) fn check(record: &Value, result: &Value) -> Result<(), ValidationError> {
    let manifest = &result["manifest"];
    let root_sha256 = str_at(manifest, "root_sha256", "/manifest")?;
    let root_artifact_id = str_at(manifest, "root_artifact_id", "/manifest")?;
    let graph_sha256 = str_at(manifest, "graph_sha256", "/manifest")?;
    if !is_hex64(root_sha256) || !is_hex64(graph_sha256) {
        return Err(bad("/manifest", "digests must be 64 lowercase hex"));
    }
    if ids::artifact_id(root_sha256).ok().as_deref() != Some(root_artifact_id) {
        return Err(bad(
            "/manifest/root_artifact_id",
            "does not match root_sha256",
        ));
    }
    if ids::manifest_id(root_artifact_id, graph_sha256)
        .ok()
        .as_deref()
        != manifest["manifest_id"].as_str()
    {
        return Err(bad("/manifest/manifest_id", "does not match its content"));
    }
    let subject = &record["subject"];
    if subject["digest"]["sha256"] != root_sha256 || subject["format"] != manifest["root_format"] {
        return Err(bad("/subject", "does not match the manifest root"));
    }

    let nodes = page(result, "nodes", &manifest["node_count"])?;
    let occurrences = page(result, "occurrences", &manifest["occurrence_count"])?;
    let edges = page(result, "edges", &manifest["edge_count"])?;
    let Some(contradictions) = result["integrity_contradictions"].as_array() else {
        return Err(bad("/integrity_contradictions", "must be an array"));
    };
    if manifest["contradiction_count"] != contradictions.len() {
        return Err(bad(
            "/manifest/contradiction_count",
            "does not match integrity_contradictions",
        ));
    }

    let mut previous: Option<&str> = None;
    for (i, node) in nodes.items.iter().enumerate() {
        let at = format!("/nodes/items/{i}");
        let artifact_id = str_at(node, "artifact_id", &at)?;
        let sha256 = str_at(node, "sha256", &at)?;
        if ids::artifact_id(sha256).ok().as_deref() != Some(artifact_id) {
            return Err(bad(&at, "artifact_id does not match sha256"));
        }
        if previous.is_some_and(|p| p >= artifact_id) {
            return Err(bad(&at, "nodes are not in artifact_id order"));
        }
        previous = Some(artifact_id);
    }

    let mut previous: Option<&str> = None;
    for (i, occurrence) in occurrences.items.iter().enumerate() {
        let at = format!("/occurrences/items/{i}");
        let path = str_at(occurrence, "logical_path", &at)?;
        let kind = str_at(occurrence, "entry_kind", &at)?;
        if !ENTRY_KINDS.contains(&kind) {
            return Err(bad(&at, "unknown entry_kind"));
        }
        if !HASH_STATUSES.contains(&occurrence["hash_status"].as_str().unwrap_or_default()) {
            return Err(bad(&at, "unknown hash_status"));
        }
        let is_root = occurrences.offset == 0 && i == 0;
        let expected = if is_root {
            if path != "." {
                return Err(bad(&at, "the first occurrence must be the root"));
            }
            ids::root_occurrence_id(root_artifact_id)
        } else {
            if path == "." || previous.is_some_and(|p| p >= path) {
                return Err(bad(&at, "occurrences are not in logical_path order"));
            }
            previous = Some(path);
            ids::occurrence_id(root_artifact_id, path, kind)
        };
        if expected.ok().as_deref() != occurrence["occurrence_id"].as_str() {
            return Err(bad(&at, "occurrence_id does not match its content"));
        }
        match (
            occurrence["artifact_id"].as_str(),
            occurrence["sha256"].as_str(),
        ) {
            (Some(artifact_id), Some(sha256)) => {
                if ids::artifact_id(sha256).ok().as_deref() != Some(artifact_id) {
                    return Err(bad(&at, "artifact_id does not match sha256"));
                }
            }
            (None, None) => {}
            _ => {
                return Err(bad(
                    &at,
                    "artifact_id and sha256 must both be set or both be null",
                ));
            }
        }
    }

    let mut previous: Option<&str> = None;
    for (i, edge) in edges.items.iter().enumerate() {
        let at = format!("/edges/items/{i}");
        let edge_id = str_at(edge, "edge_id", &at)?;
        let expected = ids::edge_id(
            str_at(edge, "parent_artifact_id", &at)?,
            str_at(edge, "child_artifact_id", &at)?,
            str_at(edge, "relation", &at)?,
            str_at(edge, "occurrence_id", &at)?,
            str_at(edge, "logical_path", &at)?,
        );
        if expected.ok().as_deref() != Some(edge_id) {
            return Err(bad(&at, "edge_id does not match its content"));
        }
        if previous.is_some_and(|p| p >= edge_id) {
            return Err(bad(&at, "edges are not in edge_id order"));
        }
        previous = Some(edge_id);
    }

    check_locations(record, occurrences.items)?;
    check_asar_headers(result, root_artifact_id, contradictions)?;
    check_fuses(result, root_artifact_id)?;

    if nodes.complete && occurrences.complete && edges.complete {
        check_complete(
            nodes.items,
            occurrences.items,
            edges.items,
            contradictions,
            graph_sha256,
        )?;
    }
    Ok(())
}

const HEADER_STATUSES: [&str; 4] = ["undeclared", "verified", "mismatched", "unverifiable"];
const DECLARATION_STATUSES: [&str; 3] = ["verified", "mismatched", "unverifiable"];

/// Each ASAR header names its archive's occurrence, and its verdicts agree with its digests;
/// every mismatched declaration is also an integrity contradiction. (Records made before
/// headers were reported have no `asar_headers`.)
fn check_asar_headers(
    result: &Value,
    root_artifact_id: &str,
    contradictions: &[Value],
) -> Result<(), ValidationError> {
    let Some(headers) = result.get("asar_headers") else {
        return Ok(());
    };
    let Some(headers) = headers.as_array() else {
        return Err(bad("/asar_headers", "must be an array"));
    };
    for (i, header) in headers.iter().enumerate() {
        let at = format!("/asar_headers/{i}");
        let path = str_at(header, "logical_path", &at)?;
        let observed = str_at(header, "header_sha256", &at)?;
        let expected = if path == "." {
            ids::root_occurrence_id(root_artifact_id)
        } else {
            ids::occurrence_id(root_artifact_id, path, "file")
        };
        if !is_hex64(observed) || expected.ok().as_deref() != header["occurrence_id"].as_str() {
            return Err(bad(&at, "header digest or occurrence_id does not match"));
        }
        let Some(declarations) = header["declarations"].as_array() else {
            return Err(bad(&at, "declarations must be an array"));
        };
        let status = str_at(header, "status", &at)?;
        if !HEADER_STATUSES.contains(&status) || (status == "undeclared") != declarations.is_empty()
        {
            return Err(bad(&at, "status does not match the declarations"));
        }
        for (k, declaration) in declarations.iter().enumerate() {
            let at = format!("{at}/declarations/{k}");
            let verdict = str_at(declaration, "status", &at)?;
            let hash = str_at(declaration, "hash", &at)?.to_ascii_lowercase();
            let consistent = match verdict {
                "verified" => hash == observed,
                "mismatched" => {
                    hash != observed
                        && contradictions.iter().any(|c| {
                            c["logical_path"] == path
                                && c["declared_sha256"] == hash.as_str()
                                && c["observed_sha256"] == observed
                        })
                }
                _ => DECLARATION_STATUSES.contains(&verdict),
            };
            if !consistent {
                return Err(bad(&at, "verdict does not match the digests"));
            }
        }
    }
    Ok(())
}

/// Each fuse wire names its binary's occurrence and lists its fuses in wire order. (Records
/// made before fuses were read have no `electron_fuses`.)
fn check_fuses(result: &Value, root_artifact_id: &str) -> Result<(), ValidationError> {
    let Some(binaries) = result.get("electron_fuses") else {
        return Ok(());
    };
    let Some(binaries) = binaries.as_array() else {
        return Err(bad("/electron_fuses", "must be an array"));
    };
    for (i, binary) in binaries.iter().enumerate() {
        let at = format!("/electron_fuses/{i}");
        let path = str_at(binary, "logical_path", &at)?;
        let expected = ids::occurrence_id(root_artifact_id, path, "file");
        if expected.ok().as_deref() != binary["occurrence_id"].as_str() {
            return Err(bad(&at, "occurrence_id does not match its binary"));
        }
        let in_order = binary["fuses"].as_array().is_some_and(|fuses| {
            fuses
                .iter()
                .enumerate()
                .all(|(k, fuse)| fuse["index"] == k && fuse["state"].is_string())
        });
        if !in_order {
            return Err(bad(&at, "fuses must be listed in wire order"));
        }
    }
    Ok(())
}

/// Cross-references and the graph digest, possible only when every item is present.
fn check_complete(
    nodes: &[Value],
    occurrences: &[Value],
    edges: &[Value],
    contradictions: &[Value],
    graph_sha256: &str,
) -> Result<(), ValidationError> {
    let node_ids: BTreeSet<&str> = nodes
        .iter()
        .filter_map(|n| n["artifact_id"].as_str())
        .collect();
    let occurrence_ids: BTreeSet<&str> = occurrences
        .iter()
        .filter_map(|o| o["occurrence_id"].as_str())
        .collect();
    for (i, occurrence) in occurrences.iter().enumerate() {
        if let Some(artifact_id) = occurrence["artifact_id"].as_str()
            && !node_ids.contains(artifact_id)
        {
            return Err(bad(
                &format!("/occurrences/items/{i}"),
                "artifact_id names no node",
            ));
        }
        if let Some(parent) = occurrence["parent_occurrence_id"].as_str()
            && !occurrence_ids.contains(parent)
        {
            return Err(bad(
                &format!("/occurrences/items/{i}"),
                "parent_occurrence_id names no occurrence",
            ));
        }
    }
    for (i, edge) in edges.iter().enumerate() {
        let ends = [
            edge["parent_artifact_id"].as_str(),
            edge["child_artifact_id"].as_str(),
        ];
        if !ends
            .iter()
            .all(|end| end.is_some_and(|id| node_ids.contains(id)))
        {
            return Err(bad(
                &format!("/edges/items/{i}"),
                "edge names a missing node",
            ));
        }
    }
    let recomputed = ids::graph_sha256(nodes, occurrences, edges, contradictions)
        .map_err(|_| bad("/manifest/graph_sha256", "graph has no canonical form"))?;
    if recomputed != graph_sha256 {
        return Err(bad("/manifest/graph_sha256", "does not match the graph"));
    }
    Ok(())
}

fn check_locations(record: &Value, occurrences: &[Value]) -> Result<(), ValidationError> {
    let locations = record["locations"]
        .as_array()
        .map(Vec::as_slice)
        .unwrap_or(&[]);
    if locations.len() != occurrences.len()
        || !locations
            .iter()
            .zip(occurrences)
            .all(|(l, o)| l["path"] == o["logical_path"])
    {
        return Err(bad(
            "/locations",
            "must name each listed occurrence's logical_path, in order",
        ));
    }
    Ok(())
}

struct Page<'a> {
    items: &'a [Value],
    offset: u64,
    complete: bool,
}

fn page<'a>(result: &'a Value, name: &str, count: &Value) -> Result<Page<'a>, ValidationError> {
    let at = format!("/{name}");
    let value = &result[name];
    let (Some(items), Some(offset), Some(limit), Some(total)) = (
        value["items"].as_array(),
        value["offset"].as_u64(),
        value["limit"].as_u64(),
        value["total"].as_u64(),
    ) else {
        return Err(bad(
            &at,
            "must be a page {items, offset, limit, total, next_offset}",
        ));
    };
    if count.as_u64() != Some(total) {
        return Err(bad(&at, "total does not match the manifest count"));
    }
    let expected_len = limit.min(total.saturating_sub(offset));
    if items.len() as u64 != expected_len {
        return Err(bad(
            &at,
            "item count does not match offset, limit and total",
        ));
    }
    let next = offset.checked_add(limit).filter(|&next| next < total);
    if value["next_offset"].as_u64() != next || (next.is_none() && !value["next_offset"].is_null())
    {
        return Err(bad(&at, "next_offset is wrong"));
    }
    Ok(Page {
        items,
        offset,
        complete: offset == 0 && items.len() as u64 == total,
    })
}

fn str_at<'a>(value: &'a Value, key: &str, at: &str) -> Result<&'a str, ValidationError> {
    value[key]
        .as_str()
        .ok_or_else(|| bad(&format!("{at}/{key}"), "must be a string"))
}

fn bad(at: &str, problem: &str) -> ValidationError {
    ValidationError::new(at, problem)
}

//! The `semantic_graph` section of an application analysis (`JavaScriptSemanticRelationGraph`
//! v1): its vocabulary, order, references and every id, recomputed.

use rayon::prelude::*;
use rea_graph::javascript::semantics as sg;
use rustc_hash::FxHashSet as HashSet;
use serde_json::Value;

use crate::ValidationError;

fn bad<T>(at: impl Into<String>, problem: &str) -> Result<T, ValidationError> {
    Err(ValidationError::new(at.into(), problem))
}

/// Checks `section`, the section of `result` (whose application graph id and root digest it
/// must name).
pub(crate) fn check(section: &Value, result: &Value) -> Result<(), ValidationError> {
    let at = |field: &str| format!("/semantic_graph/{field}");
    if section["schema"] != sg::SCHEMA || section["schema_version"] != 1 {
        return bad(
            at("schema"),
            "must be JavaScriptSemanticRelationGraph version 1",
        );
    }
    if section["algorithm"] != sg::ALGORITHM {
        return bad(at("algorithm"), "unknown algorithm");
    }
    if section["application_graph_id"] != result["graph"]["graph_id"] {
        return bad(
            at("application_graph_id"),
            "must be the analysis's application graph id",
        );
    }
    if section["root_artifact_sha256"] != result["root_artifact_sha256"] {
        return bad(
            at("root_artifact_sha256"),
            "must be the analysis's root artifact digest",
        );
    }
    let (Some(nodes), Some(relations), Some(unknowns), Some(roots)) = (
        section["nodes"].as_array(),
        section["relations"].as_array(),
        section["unknowns"].as_array(),
        section["root_node_ids"].as_array(),
    ) else {
        return bad(
            at("nodes"),
            "nodes, relations, unknowns and root_node_ids must be arrays",
        );
    };
    if nodes.len() > sg::MAX_NODES
        || relations.len() > sg::MAX_RELATIONS
        || unknowns.len() > sg::MAX_UNKNOWNS
        || roots.len() > sg::MAX_ROOTS
    {
        return bad(at("nodes"), "a bound of the section is exceeded");
    }
    let sorted = |items: &[Value], key: &str, name: &str| -> Result<(), ValidationError> {
        for (i, pair) in items.windows(2).enumerate() {
            if pair[0][key].as_str() >= pair[1][key].as_str() {
                return bad(
                    format!("/semantic_graph/{name}/{}", i + 1),
                    "must be sorted by id and unique",
                );
            }
        }
        Ok(())
    };
    sorted(nodes, "node_id", "nodes")?;
    sorted(relations, "relation_id", "relations")?;
    sorted(unknowns, "unknown_id", "unknowns")?;
    let ids: HashSet<&str> = nodes.iter().filter_map(|n| n["node_id"].as_str()).collect();
    let exists = |v: &Value| v.as_str().is_some_and(|id| ids.contains(id));
    nodes.par_iter().enumerate().try_for_each(|(i, node)| {
        let at = |field: &str| format!("/semantic_graph/nodes/{i}/{field}");
        if !sg::NODE_KINDS.contains(&node["kind"].as_str().unwrap_or_default()) {
            return bad(at("kind"), "unknown kind");
        }
        let role = node["identity"]["role_key"].as_str().unwrap_or_default();
        if role.is_empty() || role.len() > 1024 {
            return bad(at("identity"), "role_key must be 1 to 1024 bytes");
        }
        if node["identity"]["module_path"]
            .as_str()
            .is_none_or(str::is_empty)
        {
            return bad(at("identity"), "module_path must be a path");
        }
        if !node["function_node_id"].is_null() && !exists(&node["function_node_id"]) {
            return bad(at("function_node_id"), "names no node of the section");
        }
        let links = node["application_node_ids"].as_array();
        if links.is_none_or(|l| {
            l.len() > sg::MAX_APPLICATION_LINKS
                || l.iter()
                    .any(|id| !id.as_str().is_some_and(|s| s.starts_with("jag_node_")))
        }) {
            return bad(
                at("application_node_ids"),
                "must be at most 64 application graph node ids",
            );
        }
        if sg::node_id(node).ok().as_deref() != node["node_id"].as_str() {
            return bad(at("node_id"), "does not match the node's kind and identity");
        }
        Ok(())
    })?;
    relations
        .par_iter()
        .enumerate()
        .try_for_each(|(i, relation)| {
            let at = |field: &str| format!("/semantic_graph/relations/{i}/{field}");
            if sg::family_of(relation["relation"].as_str().unwrap_or_default()).is_none() {
                return bad(at("relation"), "unknown relation");
            }
            if !["resolved", "candidate"]
                .contains(&relation["resolution"].as_str().unwrap_or_default())
            {
                return bad(at("resolution"), "must be resolved or candidate");
            }
            if !exists(&relation["source_node_id"]) || !exists(&relation["target_node_id"]) {
                return bad(at("source_node_id"), "names no node of the section");
            }
            if sg::relation_id(relation).ok().as_deref() != relation["relation_id"].as_str() {
                return bad(at("relation_id"), "does not match the relation");
            }
            Ok(())
        })?;
    unknowns
        .par_iter()
        .enumerate()
        .try_for_each(|(i, unknown)| {
            let at = |field: &str| format!("/semantic_graph/unknowns/{i}/{field}");
            if !sg::UNKNOWN_REASONS.contains(&unknown["reason"].as_str().unwrap_or_default()) {
                return bad(at("reason"), "unknown reason");
            }
            let family = unknown["family"].as_str().unwrap_or_default();
            if !sg::FAMILIES.iter().any(|(f, _)| *f == family) {
                return bad(at("family"), "unknown family");
            }
            let kinds = unknown["relation_kinds"].as_array();
            if kinds.is_none_or(|k| {
                k.is_empty()
                    || k.len() > 45
                    || k.windows(2).any(|p| p[0].as_str() >= p[1].as_str())
                    || k.iter()
                        .any(|r| sg::family_of(r.as_str().unwrap_or_default()).is_none())
            }) {
                return bad(
                    at("relation_kinds"),
                    "must be 1 to 45 relations, sorted and unique",
                );
            }
            if !unknown["node_id"].is_null() && !exists(&unknown["node_id"]) {
                return bad(at("node_id"), "names no node of the section");
            }
            let candidates = unknown["candidate_node_ids"].as_array();
            if candidates.is_none_or(|c| {
                c.len() > 1000
                    || c.windows(2).any(|p| p[0].as_str() >= p[1].as_str())
                    || !c.iter().all(exists)
            }) {
                return bad(
                    at("candidate_node_ids"),
                    "must be nodes of the section, sorted and unique",
                );
            }
            if sg::unknown_id(unknown).ok().as_deref() != unknown["unknown_id"].as_str() {
                return bad(at("unknown_id"), "does not match the unknown");
            }
            Ok(())
        })?;
    let modules: HashSet<&str> = nodes
        .iter()
        .filter(|n| n["kind"] == "module")
        .filter_map(|n| n["node_id"].as_str())
        .collect();
    if roots.len() != modules.len()
        || roots.windows(2).any(|p| p[0].as_str() >= p[1].as_str())
        || !roots
            .iter()
            .all(|r| r.as_str().is_some_and(|r| modules.contains(r)))
    {
        return bad(
            at("root_node_ids"),
            "must be the section's module nodes, sorted",
        );
    }
    let families = section["coverage"]["families"].as_array();
    let expected: Vec<&str> = sg::FAMILIES.iter().map(|(f, _)| *f).collect();
    if families.is_none_or(|f| {
        f.len() != expected.len()
            || f.iter()
                .zip(&expected)
                .any(|(f, e)| f["family"].as_str() != Some(e))
    }) {
        return bad(
            at("coverage/families"),
            "must list the 12 families in order",
        );
    }
    if sg::graph_id(section).ok().as_deref() != section["graph_id"].as_str() {
        return bad(at("graph_id"), "does not match the section");
    }
    Ok(())
}

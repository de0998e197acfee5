//! A `trace_javascript_semantics` result: its vocabulary, its page, and every id recomputed
//! (the trace's, and each node's and relation's it copies from the semantic graph).

use rea_graph::javascript::semantics as sg;
use rea_graph::semtrace;
use serde_json::Value;

use crate::ValidationError;

fn bad<T>(at: impl Into<String>, problem: &str) -> Result<T, ValidationError> {
    Err(ValidationError::new(at.into(), problem))
}

pub(crate) fn check(_record: &Value, result: &Value) -> Result<(), ValidationError> {
    if result["schema"] != semtrace::SCHEMA || result["schema_version"] != 1 {
        return bad("/schema", "must be JavaScriptSemanticTrace version 1");
    }
    if !semtrace::STATUSES.contains(&result["status"].as_str().unwrap_or_default()) {
        return bad("/status", "unknown status");
    }
    if !result["graph_id"]
        .as_str()
        .is_some_and(|g| g.starts_with(sg::GRAPH_PREFIX))
    {
        return bad("/graph_id", "must be a semantic graph id");
    }
    let (Some(nodes), Some(relations)) =
        (result["nodes"].as_array(), result["relations"].as_array())
    else {
        return bad("/nodes", "nodes and relations must be arrays");
    };
    let page = &result["page"];
    let page_size = page["page_size"].as_u64().unwrap_or_default() as usize;
    if nodes.len() > page_size {
        return bad("/nodes", "more nodes than the page holds");
    }
    for (i, entry) in nodes.iter().enumerate() {
        let node = &entry["node"];
        if !sg::NODE_KINDS.contains(&node["kind"].as_str().unwrap_or_default()) {
            return bad(format!("/nodes/{i}/node/kind"), "unknown kind");
        }
        if sg::node_id(node).ok().as_deref() != node["node_id"].as_str() {
            return bad(
                format!("/nodes/{i}/node/node_id"),
                "does not match the node's kind and identity",
            );
        }
    }
    for (i, relation) in relations.iter().enumerate() {
        if sg::family_of(relation["relation"].as_str().unwrap_or_default()).is_none() {
            return bad(format!("/relations/{i}/relation"), "unknown relation");
        }
        if sg::relation_id(relation).ok().as_deref() != relation["relation_id"].as_str() {
            return bad(
                format!("/relations/{i}/relation_id"),
                "does not match the relation",
            );
        }
    }
    for (i, unknown) in result["unknowns"]
        .as_array()
        .into_iter()
        .flatten()
        .enumerate()
    {
        if sg::unknown_id(unknown).ok().as_deref() != unknown["unknown_id"].as_str() {
            return bad(
                format!("/unknowns/{i}/unknown_id"),
                "does not match the unknown",
            );
        }
    }
    if semtrace::trace_id(result).ok().as_deref() != result["trace_id"].as_str() {
        return bad("/trace_id", "does not match the trace");
    }
    Ok(())
}

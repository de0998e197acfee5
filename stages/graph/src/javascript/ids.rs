//! Id recipes of the JavaScript Application Graph. `H(x)` is the lowercase hex SHA-256 of
//! the RFC 8785 canonical JSON of `x`.
//!
//! - node: `jag_node_` + H(`{"identity", "kind"}`);
//! - observation: `jag_observation_` + H(`{"evidence", "label", "node_id", "properties"}`);
//! - edge: `jag_edge_` + H(`{"evidence", "properties", "relation", "source_node_id",
//!   "target_node_id"}`);
//! - graph: `jag_` + H(`{"edges": [...], "header": [{"coverage", "limitations",
//!   "root_node_ids", "schema", "schema_version"}], "nodes": [...]}`), computed over the
//!   sorted nodes and edges with their ids; serialized in parallel chunks and hashed in order
//!   (`rea_hash::digest_object_of_arrays`), which equals the plain digest of that object.
//!
//! Nodes are sorted by `node_id`, observations by `observation_id`, edges by `edge_id`.

use rea_hash::{CanonicalArray, CanonicalError, content_id, digest_object_of_arrays};
use serde_json::{Value, json};

pub const NODE_PREFIX: &str = "jag_node_";
pub const OBSERVATION_PREFIX: &str = "jag_observation_";
pub const EDGE_PREFIX: &str = "jag_edge_";
pub const GRAPH_PREFIX: &str = "jag_";

pub fn node_id(kind: &str, identity: &Value) -> Result<String, CanonicalError> {
    content_id(NODE_PREFIX, &json!({"identity": identity, "kind": kind}))
}

pub fn observation_id(
    node_id: &str,
    label: &Value,
    properties: &Value,
    evidence: &Value,
) -> Result<String, CanonicalError> {
    content_id(
        OBSERVATION_PREFIX,
        &json!({"evidence": evidence, "label": label, "node_id": node_id, "properties": properties}),
    )
}

pub fn edge_id(
    source: &str,
    target: &str,
    relation: &str,
    properties: &Value,
    evidence: &Value,
) -> Result<String, CanonicalError> {
    content_id(
        EDGE_PREFIX,
        &json!({"evidence": evidence, "properties": properties, "relation": relation,
                "source_node_id": source, "target_node_id": target}),
    )
}

/// The graph id over header fields and the sorted nodes and edges.
pub fn graph_id(
    header: &Value,
    nodes: &[Value],
    edges: &[Value],
) -> Result<String, CanonicalError> {
    let header = std::slice::from_ref(header);
    let members: [(&str, &dyn CanonicalArray); 3] =
        [("edges", &edges), ("header", &header), ("nodes", &nodes)];
    Ok(format!(
        "{GRAPH_PREFIX}{}",
        digest_object_of_arrays(&members)?
    ))
}

//! Id recipes of the JavaScript Application Graph. `H(x)` is the lowercase hex SHA-256 of
//! the RFC 8785 canonical JSON of `x`.
//!
//! - node: `jag_node_` + H(`{"identity", "kind"}`);
//! - observation: `jag_observation_` + H(`{"evidence", "label", "node_id", "properties"}`);
//! - edge: `jag_edge_` + H(`{"evidence", "properties", "relation", "source_node_id",
//!   "target_node_id"}`);
//! - graph: `jag_` + H(`{"edges": [...], "header": [{"coverage", "limitations",
//!   "root_node_ids", "schema", "schema_version"}], "nodes": [...]}`), computed over the
//!   sorted nodes and edges with their ids.
//!
//! Each item is serialized once: its parts' canonical texts are composed into the id's
//! projection (digested as it is emitted) and into the item's own text
//! ([`rea_hash::CanonicalJson`]); the graph's digest and text are joined from those texts.
//!
//! Nodes are sorted by `node_id`, observations by `observation_id`, edges by `edge_id`.

use rea_hash::{CanonicalError, CanonicalJson, ObjectDigest, Piece};
use serde_json::Value;

pub const NODE_PREFIX: &str = "jag_node_";
pub const OBSERVATION_PREFIX: &str = "jag_observation_";
pub const EDGE_PREFIX: &str = "jag_edge_";
pub const GRAPH_PREFIX: &str = "jag_";

pub fn node_id(kind: &str, identity: &Value) -> Result<String, CanonicalError> {
    node_id_of(kind, Piece::Json(&CanonicalJson::of(identity)?))
}

/// [`node_id`] of an identity given as canonical text.
pub fn node_id_of(kind: &str, identity: Piece<'_>) -> Result<String, CanonicalError> {
    Ok(format!(
        "{NODE_PREFIX}{}",
        CanonicalJson::digest_object([("identity", identity), ("kind", Piece::Str(kind))])?
    ))
}

/// An observation's id from its node and its parts' canonical texts.
pub fn observation_id(
    node_id: &str,
    label: Piece<'_>,
    properties: Piece<'_>,
    evidence: Piece<'_>,
) -> Result<String, CanonicalError> {
    Ok(format!(
        "{OBSERVATION_PREFIX}{}",
        CanonicalJson::digest_object([
            ("evidence", evidence),
            ("label", label),
            ("node_id", Piece::Str(node_id)),
            ("properties", properties),
        ])?
    ))
}

/// An edge's id from its endpoints, relation and parts' canonical texts.
pub fn edge_id(
    source: &str,
    target: &str,
    relation: &str,
    properties: Piece<'_>,
    evidence: Piece<'_>,
) -> Result<String, CanonicalError> {
    Ok(format!(
        "{EDGE_PREFIX}{}",
        CanonicalJson::digest_object(edge_projection(
            source, target, relation, properties, evidence
        ))?
    ))
}

/// [`edge_id`] from an edge's own canonical text: an edge is its id's projection plus
/// `edge_id`, which sorts first, so the projection's text is the edge's text with that first
/// member cut out. `None` when the text does not open with an `edge_id` member.
pub fn edge_id_of_text(text: &str) -> Option<String> {
    let rest = text.strip_prefix("{\"edge_id\":\"")?;
    let close = rest.find('"')?;
    let after = rest[close + 1..].strip_prefix(',')?;
    Some(format!(
        "{EDGE_PREFIX}{}",
        rea_hash::sha256_hex_of(&[b"{", after.as_bytes()])
    ))
}

fn edge_projection<'a>(
    source: &'a str,
    target: &'a str,
    relation: &'a str,
    properties: Piece<'a>,
    evidence: Piece<'a>,
) -> [(&'static str, Piece<'a>); 5] {
    [
        ("evidence", evidence),
        ("properties", properties),
        ("relation", Piece::Str(relation)),
        ("source_node_id", Piece::Str(source)),
        ("target_node_id", Piece::Str(target)),
    ]
}

/// An observation's id and canonical text (`{"evidence", "label", "observation_id",
/// "properties"}`), composed from its parts' canonical texts without re-serializing them.
pub fn observation(
    node_id: &str,
    label: Piece<'_>,
    properties: Piece<'_>,
    evidence: Piece<'_>,
) -> Result<(String, CanonicalJson), CanonicalError> {
    let id = observation_id(node_id, label, properties, evidence)?;
    let text = CanonicalJson::object([
        ("evidence", evidence),
        ("label", label),
        ("observation_id", Piece::Str(&id)),
        ("properties", properties),
    ])?;
    Ok((id, text))
}

/// An edge's id and canonical text (the id's projection plus `edge_id`).
pub fn edge(
    source: &str,
    target: &str,
    relation: &str,
    properties: Piece<'_>,
    evidence: Piece<'_>,
) -> Result<(String, CanonicalJson), CanonicalError> {
    let id = edge_id(source, target, relation, properties, evidence)?;
    let projection = edge_projection(source, target, relation, properties, evidence);
    let text = CanonicalJson::object(projection.into_iter().chain([("edge_id", Piece::Str(&id))]))?;
    Ok((id, text))
}

/// A node's canonical text; its id comes from [`node_id`].
pub fn node(
    node_id: &str,
    kind: &str,
    identity: Piece<'_>,
    observations: &[CanonicalJson],
) -> Result<CanonicalJson, CanonicalError> {
    CanonicalJson::object([
        ("identity", identity),
        ("kind", Piece::Str(kind)),
        ("node_id", Piece::Str(node_id)),
        ("observations", Piece::Items(observations)),
    ])
}

/// The graph id over the header (the object of `coverage`, `limitations`, `root_node_ids`,
/// `schema`, `schema_version`) and the sorted node and edge arrays, digested piece by piece.
pub fn graph_id(
    header: &CanonicalJson,
    nodes: Piece<'_>,
    edges: Piece<'_>,
) -> Result<String, CanonicalError> {
    graph_id_after_edges(graph_digest_of_edges(edges)?, header, nodes)
}

/// The first step of [`graph_id`]: its digest over the edges, which come first in the id's
/// projection and are most of its text, so they can be hashed while the nodes are made.
pub fn graph_digest_of_edges(edges: Piece<'_>) -> Result<ObjectDigest, CanonicalError> {
    let mut digest = ObjectDigest::new();
    digest.member("edges", edges)?;
    Ok(digest)
}

/// The last step of [`graph_id`]: the header and the nodes after the edges.
pub fn graph_id_after_edges(
    mut digest: ObjectDigest,
    header: &CanonicalJson,
    nodes: Piece<'_>,
) -> Result<String, CanonicalError> {
    digest.member("header", Piece::Items(std::slice::from_ref(header)))?;
    digest.member("nodes", nodes)?;
    Ok(format!("{GRAPH_PREFIX}{}", digest.finish()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn an_edge_id_read_from_the_edge_text_is_the_id_it_was_made_with() {
        let properties =
            CanonicalJson::of(&json!({"kind": "static-import", "z": [1, "\u{1f600}"]})).unwrap();
        let evidence = CanonicalJson::of(&json!({"state": "observed", "a": "\"quoted\""})).unwrap();
        let (id, text) = edge(
            "jag_node_a",
            "jag_node_b",
            "imports",
            Piece::Json(&properties),
            Piece::Json(&evidence),
        )
        .unwrap();
        let text = std::str::from_utf8(text.as_bytes()).unwrap();
        assert!(id.starts_with(EDGE_PREFIX));
        assert_eq!(edge_id_of_text(text).as_deref(), Some(id.as_str()));
        // Any change to the content changes the id read from the text.
        let changed = text.replacen("imports", "loads", 1);
        assert_ne!(edge_id_of_text(&changed).as_deref(), Some(id.as_str()));
        // Text that does not open with the id member has no id.
        assert_eq!(
            edge_id_of_text(&text.replacen("{\"edge_id\"", "{\"edge_ix\"", 1)),
            None
        );
        assert_eq!(edge_id_of_text("{}"), None);
    }
}

//! Invariants of an `analyze_javascript_application` result: every id of the application
//! graph is recomputed from its content, lists are sorted and unique, edges name existing
//! nodes, and the result commits to the subject's digest. Nodes and edges are read from the
//! record's canonical text, each into borrowed fields, in parallel.

use rustc_hash::FxHashSet as HashSet;

use rayon::prelude::*;
use rea_graph::javascript::{MAX_OBSERVATIONS, ids};
use std::borrow::Cow;

use rea_hash::{CanonicalJson, Piece};
use serde::Deserialize;
use serde::de::IgnoredAny;
use serde_json::value::RawValue;
use serde_json::{Value, json};

use crate::ValidationError;

const NODE_KINDS: &[&str] = &[
    "package",
    "installer",
    "artifact",
    "asar-entry",
    "electron-main",
    "electron-preload",
    "electron-renderer",
    "electron-utility",
    "javascript-asset",
    "javascript-chunk",
    "javascript-module",
    "source-map",
    "source-module",
    "browser-window",
    "frame",
    "target",
    "context-bridge-api",
    "ipc-channel",
    "ipc-handler",
    "worker",
    "service-worker",
    "endpoint",
    "storage",
    "native-addon",
    "native-export",
    "managed-assembly",
    "managed-module",
    "managed-type",
    "managed-method",
    "managed-field",
    "managed-pinvoke-import",
    "managed-native-implementation",
    "runtime-script-instance",
    "unknown",
];
const RELATIONS: &[&str] = &[
    "contains",
    "loads",
    "imports",
    "maps_to",
    "exposes",
    "sends",
    "invokes",
    "handles",
    "calls",
    "persists_to",
    "observed_as",
    "changed_from",
];

/// An application graph's `nodes` and `edges` as slices of the record's canonical text. Ids
/// are recomputed from these slices (canonical, since the whole text was checked to be), so
/// nothing is serialized again and the arrays are never parsed into values.
#[derive(Deserialize)]
pub(crate) struct GraphText<'a> {
    #[serde(borrow)]
    pub(crate) nodes: &'a RawValue,
    #[serde(borrow)]
    pub(crate) edges: &'a RawValue,
}

/// The same arrays read as their items, in the one scan that finds the graph in the record.
#[derive(Deserialize)]
pub(crate) struct GraphItemsText<'a> {
    #[serde(borrow)]
    pub(crate) nodes: Vec<&'a RawValue>,
    #[serde(borrow)]
    pub(crate) edges: Vec<&'a RawValue>,
}

/// The graph's arrays (as text) and their items, each item checked to be canonical text and
/// the text around them to be exactly `[`, `,` and `]`.
pub(crate) struct GraphItems<'a> {
    nodes_text: &'a str,
    edges_text: &'a str,
    nodes: Vec<&'a RawValue>,
    edges: Vec<&'a RawValue>,
}

impl<'a> GraphItems<'a> {
    /// Items found by scanning each array again (an array with no items has no position in
    /// the text to be found by, so a graph with an empty array is read this way).
    pub(crate) fn scan(text: GraphText<'a>) -> Result<Self, ValidationError> {
        // Each array's items are found by one serial scan: the two scans run side by side.
        let (nodes, edges) = rayon::join(
            || items(text.nodes, "/graph/nodes"),
            || items(text.edges, "/graph/edges"),
        );
        let (nodes, edges) = (nodes?, edges?);
        Ok(GraphItems {
            nodes_text: text.nodes.get(),
            edges_text: text.edges.get(),
            nodes,
            edges,
        })
    }

    /// Items already found in `whole` (the record's text): each array's text is located from
    /// its first and last item, and must be framed exactly. `None` when an array is empty.
    pub(crate) fn located(
        whole: &'a str,
        found: GraphItemsText<'a>,
    ) -> Result<Option<Self>, ValidationError> {
        let (Some(nodes_text), Some(edges_text)) =
            (framed(whole, &found.nodes)?, framed(whole, &found.edges)?)
        else {
            return Ok(None);
        };
        let (nodes, edges) = rayon::join(
            || rea_hash::canonical_items(&found.nodes),
            || rea_hash::canonical_items(&found.edges),
        );
        if !matches!((nodes, edges), (Ok(true), Ok(true))) {
            return Err(ValidationError::new("", "bytes are not in canonical form"));
        }
        Ok(Some(GraphItems {
            nodes_text,
            edges_text,
            nodes: found.nodes,
            edges: found.edges,
        }))
    }

    /// Where each array sits in `whole`, as byte ranges.
    pub(crate) fn spans(&self, whole: &str) -> [std::ops::Range<usize>; 2] {
        [self.nodes_text, self.edges_text].map(|text| {
            let start = text.as_ptr() as usize - whole.as_ptr() as usize;
            start..start + text.len()
        })
    }
}

/// The text of the array whose items are `items` (slices of `whole`), when it is exactly `[`,
/// the items joined by `,`, and `]`; `None` for no items; an error when it is framed otherwise.
pub(crate) fn framed<'a>(
    whole: &'a str,
    items: &[&'a RawValue],
) -> Result<Option<&'a str>, ValidationError> {
    let (Some(first), Some(last)) = (items.first(), items.last()) else {
        return Ok(None);
    };
    let offset = |raw: &RawValue| raw.get().as_ptr() as usize - whole.as_ptr() as usize;
    let bytes = whole.as_bytes();
    let not_canonical = || ValidationError::new("", "bytes are not in canonical form");
    let (start, end) = (offset(first), offset(last) + last.get().len());
    if start == 0 || bytes[start - 1] != b'[' || bytes.get(end) != Some(&b']') {
        return Err(not_canonical());
    }
    for pair in items.windows(2) {
        let after = offset(pair[0]) + pair[0].get().len();
        if bytes[after] != b',' || offset(pair[1]) != after + 1 {
            return Err(not_canonical());
        }
    }
    Ok(Some(&whole[start - 1..end + 1]))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Node<'a> {
    #[serde(borrow)]
    identity: &'a RawValue,
    kind: &'a str,
    node_id: &'a str,
    #[serde(borrow)]
    observations: Vec<Observation<'a>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Observation<'a> {
    #[serde(borrow)]
    evidence: &'a RawValue,
    #[serde(borrow)]
    label: &'a RawValue,
    observation_id: &'a str,
    #[serde(borrow)]
    properties: &'a RawValue,
}

/// An edge, read in one pass: its id is recomputed from its own text
/// ([`ids::edge_id_of_text`]), so only the evidence facts are kept of its content.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Edge<'a> {
    edge_id: &'a str,
    #[serde(borrow)]
    evidence: EvidenceFacts<'a>,
    #[serde(rename = "properties")]
    _properties: IgnoredAny,
    relation: &'a str,
    source_node_id: &'a str,
    target_node_id: &'a str,
}

/// What [`check_evidence`] reads of an evidence object.
#[derive(Deserialize)]
struct EvidenceFacts<'a> {
    #[serde(borrow, default)]
    state: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    confidence: Option<Cow<'a, str>>,
    #[serde(default)]
    limitations: Option<Vec<IgnoredAny>>,
    #[serde(borrow, default)]
    location: Option<&'a RawValue>,
}

/// The items of an array of the graph, checked to be canonical text.
fn items<'a>(array: &'a RawValue, at: &str) -> Result<Vec<&'a RawValue>, ValidationError> {
    match rea_hash::canonical_array_items(array.get()) {
        Ok(Some(items)) => Ok(items),
        Ok(None) => Err(ValidationError::new("", "bytes are not in canonical form")),
        Err(_) => Err(ValidationError::new(at, "must be an array")),
    }
}

/// `result` is the record's result with the graph's `nodes` and `edges` emptied; `graph` is
/// where those arrays sit in the canonical text. Returns the node and edge counts.
pub(crate) fn check(
    record: &Value,
    result: &Value,
    graph_text: Option<GraphItems<'_>>,
    semantic: Option<&crate::semantics::SectionItems<'_>>,
) -> Result<(usize, usize), ValidationError> {
    let bad = |at: &str, problem: &str| Err(ValidationError::new(at, problem));
    if result["schema_version"] != 2 {
        return bad("/schema_version", "must be 2");
    }
    let subject_sha = record["subject"]["digest"]["sha256"]
        .as_str()
        .unwrap_or_default();
    if result["root_artifact_sha256"] != subject_sha {
        return bad("/root_artifact_sha256", "does not match the subject digest");
    }
    let graph = &result["graph"];
    if graph["schema"] != "JavaScriptApplicationGraph" || graph["schema_version"] != 1 {
        return bad(
            "/graph/schema",
            "must be JavaScriptApplicationGraph version 1",
        );
    }
    if result["limitations"] != graph["limitations"] {
        return bad("/limitations", "must equal graph.limitations");
    }
    if let Some(section) = result.get("export_shapes") {
        check_export_shapes(section)?;
    }
    if let Some(section) = result.get("semantic_graph") {
        crate::semantics::check(section, result, semantic)?;
    }
    let (
        Some(GraphItems {
            nodes_text,
            edges_text,
            nodes,
            edges,
        }),
        Some(roots),
    ) = (graph_text, graph["root_node_ids"].as_array())
    else {
        return bad("/graph", "nodes, edges and root_node_ids must be arrays");
    };
    // The graph id (a digest of nearly the whole text) is recomputed while every node's and
    // edge's ids are, in parallel; order, uniqueness and endpoints are then checked in one
    // pass. The first failure in document order is reported.
    let (graph_id, items) = rayon::join(
        || {
            let header = json!({"coverage": graph["coverage"], "limitations": graph["limitations"],
                "root_node_ids": graph["root_node_ids"], "schema": graph["schema"], "schema_version": graph["schema_version"]});
            CanonicalJson::of(&header).and_then(|header| {
                ids::graph_id(
                    &header,
                    Piece::Verbatim(nodes_text),
                    Piece::Verbatim(edges_text),
                )
            })
        },
        || check_items(&nodes, &edges, roots),
    );
    items?;
    if graph_id.ok().as_deref() != graph["graph_id"].as_str() {
        return bad("/graph/graph_id", "does not match the graph");
    }
    let coverage = &graph["coverage"];
    if coverage["status"] != "complete" && graph["limitations"].as_array().is_none_or(Vec::is_empty)
    {
        return bad("/graph/coverage", "partial coverage needs a limitation");
    }
    Ok((nodes.len(), edges.len()))
}

/// Every node's and edge's ids, recomputed in parallel; then order, uniqueness, endpoints and
/// roots, in one pass. The first failure in document order is reported.
pub(crate) fn check_items(
    nodes: &[&RawValue],
    edges: &[&RawValue],
    roots: &[Value],
) -> Result<(), ValidationError> {
    let bad = |at: &str, problem: &str| Err(ValidationError::new(at, problem));
    let node_checks: Vec<Result<&str, ValidationError>> = nodes
        .par_iter()
        .enumerate()
        .map(|(i, node)| check_node(i, node))
        .collect();
    let mut node_ids = HashSet::with_capacity_and_hasher(nodes.len(), Default::default());
    let mut previous = "";
    for (i, checked) in node_checks.into_iter().enumerate() {
        let id = checked?;
        if id <= previous {
            return bad(
                &format!("/graph/nodes/{i}"),
                "nodes must be sorted by node_id and unique",
            );
        }
        previous = id;
        node_ids.insert(id);
    }
    let edge_checks: Vec<Result<&str, ValidationError>> = edges
        .par_iter()
        .enumerate()
        .map(|(i, edge)| check_edge(i, edge, &node_ids))
        .collect();
    let mut previous = "";
    for (i, checked) in edge_checks.into_iter().enumerate() {
        let id = checked?;
        if id <= previous {
            return bad(
                &format!("/graph/edges/{i}"),
                "edges must be sorted by edge_id and unique",
            );
        }
        previous = id;
    }
    let mut last = "";
    for root in roots {
        let root = root.as_str().unwrap_or_default();
        if !node_ids.contains(root) || root <= last {
            return bad(
                "/graph/root_node_ids",
                "must be sorted, unique node ids of the graph",
            );
        }
        last = root;
    }
    Ok(())
}

/// One node: its kind, its id from its kind and identity, and its observations (ids, order,
/// evidence). Returns its id.
fn check_node(i: usize, text: &RawValue) -> Result<&str, ValidationError> {
    let at = || format!("/graph/nodes/{i}");
    let node: Node<'_> = serde_json::from_str(text.get()).map_err(|_| {
        ValidationError::new(
            at(),
            "must be {identity, kind, node_id, observations} with string ids",
        )
    })?;
    if !NODE_KINDS.contains(&node.kind) {
        return Err(ValidationError::new(at(), "kind is not in the vocabulary"));
    }
    if ids::node_id_of(node.kind, Piece::Verbatim(node.identity.get()))
        .ok()
        .as_deref()
        != Some(node.node_id)
    {
        return Err(ValidationError::new(
            format!("{}/node_id", at()),
            "does not match its kind and identity",
        ));
    }
    if node.observations.is_empty() || node.observations.len() > MAX_OBSERVATIONS {
        return Err(ValidationError::new(at(), "must have 1 to 64 observations"));
    }
    let mut last = "";
    for (j, obs) in node.observations.iter().enumerate() {
        let expected = ids::observation_id(
            node.node_id,
            Piece::Verbatim(obs.label.get()),
            Piece::Verbatim(obs.properties.get()),
            Piece::Verbatim(obs.evidence.get()),
        )
        .ok();
        if expected.as_deref() != Some(obs.observation_id) {
            return Err(ValidationError::new(
                format!("{}/observations/{j}", at()),
                "observation_id does not match its content",
            ));
        }
        if obs.observation_id <= last {
            return Err(ValidationError::new(
                format!("{}/observations/{j}", at()),
                "observations must be sorted and unique",
            ));
        }
        last = obs.observation_id;
        check_evidence(obs.evidence, &format!("{}/observations/{j}/evidence", at()))?;
    }
    Ok(node.node_id)
}

/// One edge: its relation, endpoints in the graph, id from its content, and evidence. Returns
/// its id.
fn check_edge<'a>(
    i: usize,
    text: &'a RawValue,
    node_ids: &HashSet<&str>,
) -> Result<&'a str, ValidationError> {
    let at = || format!("/graph/edges/{i}");
    let edge: Edge<'a> = serde_json::from_str(text.get()).map_err(|_| {
        ValidationError::new(
            at(),
            "must be {edge_id, evidence, properties, relation, source_node_id, target_node_id}",
        )
    })?;
    if !RELATIONS.contains(&edge.relation) {
        return Err(ValidationError::new(
            at(),
            "relation is not in the vocabulary",
        ));
    }
    let (source, target) = (edge.source_node_id, edge.target_node_id);
    if !node_ids.contains(source) || !node_ids.contains(target) {
        return Err(ValidationError::new(
            at(),
            "names a node that is not in the graph",
        ));
    }
    if source == target {
        return Err(ValidationError::new(at(), "is a self-edge"));
    }
    if ids::edge_id_of_text(text.get()).as_deref() != Some(edge.edge_id) {
        return Err(ValidationError::new(
            format!("{}/edge_id", at()),
            "does not match its content",
        ));
    }
    check_facts(&edge.evidence, &format!("{}/evidence", at()))?;
    Ok(edge.edge_id)
}

fn check_evidence(evidence: &RawValue, at: &str) -> Result<(), ValidationError> {
    let facts: EvidenceFacts<'_> =
        serde_json::from_str(evidence.get()).map_err(|_| disagreeing(at))?;
    check_facts(&facts, at)
}

fn disagreeing(at: &str) -> ValidationError {
    ValidationError::new(
        at,
        "evidence state, confidence, location and limitations disagree",
    )
}

fn check_facts(facts: &EvidenceFacts<'_>, at: &str) -> Result<(), ValidationError> {
    let state = facts.state.as_deref().unwrap_or_default();
    let confidence = facts.confidence.as_deref().unwrap_or_default();
    let limitations = facts.limitations.as_ref().map_or(0, Vec::len);
    let ok = match state {
        "observed" => confidence != "unknown" && facts.location.is_some(),
        "inferred" => matches!(confidence, "high" | "medium" | "low") && limitations > 0,
        "unknown" | "unavailable" => confidence == "unknown" && limitations > 0,
        _ => false,
    };
    if !ok {
        return Err(disagreeing(at));
    }
    Ok(())
}

/// The `export_shapes` section: its vocabulary, order, and every id.
fn check_export_shapes(section: &Value) -> Result<(), ValidationError> {
    use rea_graph::javascript::shapes;
    let bad = |at: String, problem: &str| Err(ValidationError::new(at, problem));
    if section["schema"] != shapes::SCHEMA || section["schema_version"] != 1 {
        return bad(
            "/export_shapes/schema".into(),
            "must be JavaScriptExportShapes version 1",
        );
    }
    let Some(exports) = section["exports"].as_array() else {
        return bad("/export_shapes/exports".into(), "must be an array");
    };
    if exports.len() > shapes::MAX_EXPORT_SHAPES {
        return bad("/export_shapes/exports".into(), "too many exports");
    }
    let checks: Vec<Result<(), ValidationError>> = exports
        .par_iter()
        .enumerate()
        .map(|(i, export)| {
            let at = |field: &str| format!("/export_shapes/exports/{i}/{field}");
            if !shapes::KINDS.contains(&export["kind"].as_str().unwrap_or_default()) {
                return bad(at("kind"), "unknown kind");
            }
            if !["complete", "partial"].contains(&export["status"].as_str().unwrap_or_default()) {
                return bad(at("status"), "unknown status");
            }
            if !export["shapes"].is_array() {
                return bad(at("shapes"), "must be an array");
            }
            if shapes::export_id(export).ok().as_deref() != export["export_id"].as_str() {
                return bad(at("export_id"), "does not match the export");
            }
            Ok(())
        })
        .collect();
    checks.into_iter().collect::<Result<(), _>>()?;
    let key = |e: &Value| {
        (
            e["module_path"].as_str().unwrap_or_default().to_owned(),
            shapes::key_text(&e["module_key"]),
            e["export_name"].as_str().unwrap_or_default().to_owned(),
        )
    };
    for (i, pair) in exports.windows(2).enumerate() {
        if key(&pair[0]) >= key(&pair[1]) {
            return bad(
                format!("/export_shapes/exports/{}", i + 1),
                "exports must be sorted by module_path, module_key and export_name, and unique",
            );
        }
    }
    if shapes::section_id(section).ok().as_deref() != section["shapes_id"].as_str() {
        return bad(
            "/export_shapes/shapes_id".into(),
            "does not match the section",
        );
    }
    Ok(())
}

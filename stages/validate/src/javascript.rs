//! Invariants of an `analyze_javascript_application` result: every id of the application
//! graph is recomputed from its content, lists are sorted and unique, edges name existing
//! nodes, and the result commits to the subject's digest.

use std::collections::HashSet;

use rayon::prelude::*;
use rea_graph::javascript::{MAX_OBSERVATIONS, ids};
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

pub(crate) fn check(record: &Value, result: &Value) -> Result<(), ValidationError> {
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
    let (Some(nodes), Some(edges), Some(roots)) = (
        graph["nodes"].as_array(),
        graph["edges"].as_array(),
        graph["root_node_ids"].as_array(),
    ) else {
        return bad("/graph", "nodes, edges and root_node_ids must be arrays");
    };
    // Every node's and edge's ids are recomputed in parallel; order, uniqueness and endpoints
    // are then checked in one pass. The first failure in document order is reported.
    let node_checks: Vec<Result<&str, ValidationError>> = nodes
        .par_iter()
        .enumerate()
        .map(|(i, node)| check_node(i, node))
        .collect();
    let mut node_ids = HashSet::with_capacity(nodes.len());
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
    let header = json!({"coverage": graph["coverage"], "limitations": graph["limitations"],
        "root_node_ids": graph["root_node_ids"], "schema": graph["schema"], "schema_version": graph["schema_version"]});
    if ids::graph_id(&header, nodes, edges).ok().as_deref() != graph["graph_id"].as_str() {
        return bad("/graph/graph_id", "does not match the graph");
    }
    let coverage = &graph["coverage"];
    if coverage["status"] != "complete" && graph["limitations"].as_array().is_none_or(Vec::is_empty)
    {
        return bad("/graph/coverage", "partial coverage needs a limitation");
    }
    Ok(())
}

/// One node: its kind, its id from its kind and identity, and its observations (ids, order,
/// evidence). Returns its id.
fn check_node(i: usize, node: &Value) -> Result<&str, ValidationError> {
    let at = || format!("/graph/nodes/{i}");
    let (Some(id), Some(kind)) = (node["node_id"].as_str(), node["kind"].as_str()) else {
        return Err(ValidationError::new(at(), "needs node_id and kind"));
    };
    if !NODE_KINDS.contains(&kind) {
        return Err(ValidationError::new(at(), "kind is not in the vocabulary"));
    }
    if ids::node_id(kind, &node["identity"]).ok().as_deref() != Some(id) {
        return Err(ValidationError::new(
            format!("{}/node_id", at()),
            "does not match its kind and identity",
        ));
    }
    let Some(observations) = node["observations"].as_array() else {
        return Err(ValidationError::new(at(), "observations must be an array"));
    };
    if observations.is_empty() || observations.len() > MAX_OBSERVATIONS {
        return Err(ValidationError::new(at(), "must have 1 to 64 observations"));
    }
    let mut last = "";
    for (j, obs) in observations.iter().enumerate() {
        let oid = obs["observation_id"].as_str().unwrap_or_default();
        let expected =
            ids::observation_id(id, &obs["label"], &obs["properties"], &obs["evidence"]).ok();
        if expected.as_deref() != Some(oid) {
            return Err(ValidationError::new(
                format!("{}/observations/{j}", at()),
                "observation_id does not match its content",
            ));
        }
        if oid <= last {
            return Err(ValidationError::new(
                format!("{}/observations/{j}", at()),
                "observations must be sorted and unique",
            ));
        }
        last = oid;
        check_evidence(
            &obs["evidence"],
            &format!("{}/observations/{j}/evidence", at()),
        )?;
    }
    Ok(id)
}

/// One edge: its relation, endpoints in the graph, id from its content, and evidence. Returns
/// its id.
fn check_edge<'a>(
    i: usize,
    edge: &'a Value,
    node_ids: &HashSet<&str>,
) -> Result<&'a str, ValidationError> {
    let at = || format!("/graph/edges/{i}");
    let (Some(id), Some(source), Some(target), Some(relation)) = (
        edge["edge_id"].as_str(),
        edge["source_node_id"].as_str(),
        edge["target_node_id"].as_str(),
        edge["relation"].as_str(),
    ) else {
        return Err(ValidationError::new(
            at(),
            "needs edge_id, endpoints and relation",
        ));
    };
    if !RELATIONS.contains(&relation) {
        return Err(ValidationError::new(
            at(),
            "relation is not in the vocabulary",
        ));
    }
    if !node_ids.contains(source) || !node_ids.contains(target) {
        return Err(ValidationError::new(
            at(),
            "names a node that is not in the graph",
        ));
    }
    if source == target {
        return Err(ValidationError::new(at(), "is a self-edge"));
    }
    if ids::edge_id(
        source,
        target,
        relation,
        &edge["properties"],
        &edge["evidence"],
    )
    .ok()
    .as_deref()
        != Some(id)
    {
        return Err(ValidationError::new(
            format!("{}/edge_id", at()),
            "does not match its content",
        ));
    }
    check_evidence(&edge["evidence"], &format!("{}/evidence", at()))?;
    Ok(id)
}

fn check_evidence(evidence: &Value, at: &str) -> Result<(), ValidationError> {
    let state = evidence["state"].as_str().unwrap_or_default();
    let confidence = evidence["confidence"].as_str().unwrap_or_default();
    let limitations = evidence["limitations"].as_array().map_or(0, Vec::len);
    let ok = match state {
        "observed" => confidence != "unknown" && !evidence["location"].is_null(),
        "inferred" => matches!(confidence, "high" | "medium" | "low") && limitations > 0,
        "unknown" | "unavailable" => confidence == "unknown" && limitations > 0,
        _ => false,
    };
    if !ok {
        return Err(ValidationError::new(
            at,
            "evidence state, confidence, location and limitations disagree",
        ));
    }
    Ok(())
}

//! Invariants of a `trace_application_feature` result: vocabularies, the subgraph checked as
//! an application graph (every node, observation, edge and graph id recomputed), paths that
//! walk the subgraph's edges with their ids recomputed, handoffs on traced add-ons, counts
//! that agree, and the trace id.

use std::collections::{BTreeSet, HashMap};

use rea_graph::trace::{
    self, DIRECTIONS, HANDOFF_STATUSES, MAX_PATH_NODES, PROVIDER_TOOLS, SEED_KINDS, STATUSES,
};
use serde_json::Value;
use serde_json::value::RawValue;

use crate::ValidationError;

pub(crate) fn check(record: &Value, result: &Value) -> Result<(), ValidationError> {
    let bad = |at: &str, problem: &str| Err(ValidationError::new(at, problem));
    if result["schema"] != trace::SCHEMA || result["schema_version"] != 1 {
        return bad(
            "/schema",
            "must be JavaScriptApplicationFeatureTrace version 1",
        );
    }
    if trace::trace_id(result).ok().as_deref() != result["trace_id"].as_str() {
        return bad("/trace_id", "does not match the trace");
    }
    if !DIRECTIONS.contains(&result["direction"].as_str().unwrap_or_default()) {
        return bad("/direction", "unknown direction");
    }
    if !SEED_KINDS.contains(&result["seed"]["kind"].as_str().unwrap_or_default()) {
        return bad("/seed/kind", "unknown seed kind");
    }
    let links: Vec<&str> = record["evidence_links"]
        .as_array()
        .map(|l| l.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let source = result["source_evidence_id"].as_str().unwrap_or_default();
    if !links.contains(&source) || record["evidence_links"] != result["evidence_links"] {
        return bad(
            "/evidence_links",
            "must be the result's, and hold the source evidence id",
        );
    }
    let status = result["coverage"]["status"].as_str().unwrap_or_default();
    if !STATUSES.contains(&status) {
        return bad("/coverage/status", "unknown status");
    }
    let (Some(matches), Some(paths), Some(handoffs)) = (
        result["seed_matches"].as_array(),
        result["paths"].as_array(),
        result["native_handoffs"].as_array(),
    ) else {
        return bad(
            "/",
            "seed_matches, paths and native_handoffs must be arrays",
        );
    };
    let graph = &result["graph"];
    if (status == "no-match") != graph.is_null() || (status == "no-match") != matches.is_empty() {
        return bad("/graph", "a graph is given exactly when a seed matched");
    }
    let kinds = if graph.is_null() {
        if !paths.is_empty() || !handoffs.is_empty() {
            return bad("/paths", "a trace that matched nothing has no paths");
        }
        HashMap::new()
    } else {
        check_graph(graph)?
    };
    let edge_ends = edge_ends(graph);
    // Seeds are the graph's roots.
    let mut seeds: Vec<&str> = Vec::with_capacity(matches.len());
    for (i, m) in matches.iter().enumerate() {
        let id = m["node_id"].as_str().unwrap_or_default();
        let basis = m["basis"].as_str().unwrap_or_default();
        if kinds.get(id).copied() != m["kind"].as_str()
            || !["node-id", "label", "identity", "property"].contains(&basis)
        {
            return bad(
                &format!("/seed_matches/{i}"),
                "names no traced node of its kind, or an unknown basis",
            );
        }
        seeds.push(id);
    }
    seeds.sort_unstable();
    let roots: Vec<&str> = graph["root_node_ids"]
        .as_array()
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    if !graph.is_null() && seeds != roots {
        return bad("/graph/root_node_ids", "must be the matched seeds");
    }
    for (i, path) in paths.iter().enumerate() {
        check_path(path, &kinds, &edge_ends)
            .map_err(|problem| ValidationError::new(format!("/paths/{i}"), problem))?;
    }
    let listed: BTreeSet<&str> = links.iter().copied().collect();
    for (i, h) in handoffs.iter().enumerate() {
        let at = format!("/native_handoffs/{i}");
        let id = h["native_node_id"].as_str().unwrap_or_default();
        let status = h["status"].as_str().unwrap_or_default();
        let evidence: Vec<&str> = h["evidence_ids"]
            .as_array()
            .map(|e| e.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        let exports_traced = h["export_node_ids"].as_array().is_some_and(|e| {
            e.iter()
                .all(|x| kinds.get(x.as_str().unwrap_or_default()) == Some(&"native-export"))
        });
        let linked = status == "evidence-linked";
        let tools_fit = h["recommended_tools"].as_array().is_some_and(|t| {
            t.iter()
                .all(|x| PROVIDER_TOOLS.contains(&x.as_str().unwrap_or_default()))
        });
        if kinds.get(id) != Some(&"native-addon")
            || !HANDOFF_STATUSES.contains(&status)
            || linked == evidence.is_empty()
            || !evidence.iter().all(|e| listed.contains(e))
            || !exports_traced
            || !tools_fit
        {
            return bad(
                &at,
                "must be a traced add-on, linked exactly to supplied evidence",
            );
        }
    }
    let summary = &result["summary"];
    let coverage = &result["coverage"];
    let count = |v: &Value| v.as_u64().unwrap_or(u64::MAX);
    let nodes = graph["nodes"].as_array().map_or(0, Vec::len) as u64;
    let edges = graph["edges"].as_array().map_or(0, Vec::len) as u64;
    let terminal = count(&summary["terminal_paths"]);
    let omitted_paths = count(&coverage["omitted_paths"]);
    let cut = [
        "omitted_seed_matches",
        "omitted_nodes",
        "omitted_edges",
        "omitted_paths",
    ]
    .iter()
    .map(|k| count(&coverage[*k]))
    .try_fold(0u64, |a, b| a.checked_add(b));
    if count(&summary["matched_seeds"]) != matches.len() as u64
        || count(&summary["traced_nodes"]) != nodes
        || count(&summary["traced_edges"]) != edges
        || count(&summary["native_handoffs"]) != handoffs.len() as u64
        || terminal.checked_sub(paths.len() as u64) != Some(omitted_paths)
        || count(&coverage["total_seed_matches"]).checked_sub(matches.len() as u64)
            != Some(count(&coverage["omitted_seed_matches"]))
    {
        return bad("/summary", "counts disagree with the trace");
    }
    let truncated = cut.is_none_or(|c| c > 0);
    let fits = match status {
        "no-match" => true,
        "truncated" => truncated,
        _ => !truncated,
    };
    if !fits {
        return bad("/coverage/status", "disagrees with what was omitted");
    }
    Ok(())
}

/// The subgraph as an application graph; returns each node's kind by id.
pub(crate) fn check_graph(graph: &Value) -> Result<HashMap<&str, &str>, ValidationError> {
    let bad = |at: &str, problem: &str| Err(ValidationError::new(at, problem));
    if graph["schema"] != "JavaScriptApplicationGraph" || graph["schema_version"] != 1 {
        return bad(
            "/graph/schema",
            "must be JavaScriptApplicationGraph version 1",
        );
    }
    let (Some(nodes), Some(edges), Some(roots)) = (
        graph["nodes"].as_array(),
        graph["edges"].as_array(),
        graph["root_node_ids"].as_array(),
    ) else {
        return bad("/graph", "nodes, edges and root_node_ids must be arrays");
    };
    let texts = |items: &[Value]| -> Result<Vec<Box<RawValue>>, ValidationError> {
        items
            .iter()
            .map(|item| {
                let text = rea_hash::canonical_bytes(item)
                    .ok()
                    .and_then(|b| String::from_utf8(b).ok())
                    .and_then(|s| RawValue::from_string(s).ok());
                text.ok_or_else(|| ValidationError::new("/graph", "items must be JSON objects"))
            })
            .collect()
    };
    let (node_texts, edge_texts) = (texts(nodes)?, texts(edges)?);
    let node_refs: Vec<&RawValue> = node_texts.iter().map(|b| &**b).collect();
    let edge_refs: Vec<&RawValue> = edge_texts.iter().map(|b| &**b).collect();
    crate::javascript::check_items(&node_refs, &edge_refs, roots)?;
    if trace::subgraph_id(graph).ok().as_deref() != graph["graph_id"].as_str() {
        return bad("/graph/graph_id", "does not match the graph");
    }
    if graph["coverage"]["status"] != "complete"
        && graph["limitations"].as_array().is_none_or(Vec::is_empty)
    {
        return bad("/graph/coverage", "partial coverage needs a limitation");
    }
    Ok(nodes
        .iter()
        .map(|n| {
            (
                n["node_id"].as_str().unwrap_or_default(),
                n["kind"].as_str().unwrap_or_default(),
            )
        })
        .collect())
}

/// Each edge's ends by id.
fn edge_ends(graph: &Value) -> HashMap<&str, (&str, &str)> {
    graph["edges"]
        .as_array()
        .map(|edges| {
            edges
                .iter()
                .map(|e| {
                    (
                        e["edge_id"].as_str().unwrap_or_default(),
                        (
                            e["source_node_id"].as_str().unwrap_or_default(),
                            e["target_node_id"].as_str().unwrap_or_default(),
                        ),
                    )
                })
                .collect()
        })
        .unwrap_or_default()
}

/// A path walks the subgraph: each edge joins the nodes on either side of it.
fn check_path(
    path: &Value,
    kinds: &HashMap<&str, &str>,
    edges: &HashMap<&str, (&str, &str)>,
) -> Result<(), &'static str> {
    let strings = |v: &Value| -> Option<Vec<String>> {
        v.as_array()?
            .iter()
            .map(|x| x.as_str().map(str::to_owned))
            .collect()
    };
    let (Some(node_ids), Some(edge_ids)) = (strings(&path["node_ids"]), strings(&path["edge_ids"]))
    else {
        return Err("node_ids and edge_ids must be arrays of strings");
    };
    if node_ids.is_empty()
        || node_ids.len() > MAX_PATH_NODES
        || edge_ids.len() + 1 != node_ids.len()
    {
        return Err("must hold 1 to 65 nodes and one edge fewer");
    }
    for (i, edge) in edge_ids.iter().enumerate() {
        let Some(&(s, t)) = edges.get(edge.as_str()) else {
            return Err("names an edge that is not in the graph");
        };
        let (a, b) = (node_ids[i].as_str(), node_ids[i + 1].as_str());
        if !((s, t) == (a, b) || (s, t) == (b, a)) {
            return Err("an edge does not join the nodes beside it");
        }
    }
    if node_ids.iter().any(|n| !kinds.contains_key(n.as_str())) {
        return Err("names a node that is not in the graph");
    }
    let start = node_ids[0].as_str();
    let end = node_ids[node_ids.len() - 1].as_str();
    let node_refs: Vec<&str> = node_ids.iter().map(String::as_str).collect();
    let edge_refs: Vec<&str> = edge_ids.iter().map(String::as_str).collect();
    if path["start_node_id"] != start
        || path["end_node_id"] != end
        || kinds.get(end).copied() != path["end_kind"].as_str()
    {
        return Err("its ends disagree with its nodes");
    }
    if trace::path_id(start, end, &node_refs, &edge_refs)
        .ok()
        .as_deref()
        != path["path_id"].as_str()
    {
        return Err("path_id does not match the path");
    }
    Ok(())
}

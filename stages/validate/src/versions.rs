//! Invariants of a `compare_application_versions` result: vocabularies, every item id and the
//! comparison id recomputed, items in listing order, and counts that add up.

use rea_graph::versions::{self, DIMENSIONS, STATUSES, TIERS};
use serde_json::Value;

use crate::ValidationError;

pub(crate) fn check(record: &Value, result: &Value) -> Result<(), ValidationError> {
    let bad = |at: &str, problem: &str| Err(ValidationError::new(at, problem));
    crate::compare::links_to_sides(record, result)?;
    if result["schema"] != versions::SCHEMA || result["schema_version"] != 1 {
        return bad(
            "/schema",
            "must be JavaScriptApplicationComparison version 1",
        );
    }
    let Some(items) = result["items"].as_array() else {
        return bad("/items", "must be an array");
    };
    let mut previous_rank = 0;
    let mut ids = Vec::with_capacity(items.len());
    for (i, item) in items.iter().enumerate() {
        let at = format!("/items/{i}");
        let status = item["status"].as_str().unwrap_or_default();
        let Some(rank) = STATUSES.iter().position(|s| *s == status) else {
            return bad(&at, "unknown status");
        };
        if rank < previous_rank {
            return bad(&at, "items are not in status order");
        }
        previous_rank = rank;
        let basis = item["basis"].as_str().unwrap_or_default();
        if basis != "none" && !TIERS.iter().any(|(t, _)| *t == basis) {
            return bad(&at, "unknown basis");
        }
        let paired = !item["left"].is_null() && !item["right"].is_null();
        let lone = item["left"].is_null() != item["right"].is_null();
        let fits = match status {
            "changed" | "unchanged" => paired,
            "added" => item["left"].is_null() && !item["right"].is_null(),
            "removed" => !item["left"].is_null() && item["right"].is_null(),
            _ => paired || lone,
        };
        // A pair and an ambiguous node name the tier that found them; a lone node names none.
        let found = paired || !item["candidates"].is_null();
        if !fits || (basis == "none") == found {
            return bad(&at, "status, basis and sides disagree");
        }
        // A changed pair names what changed; a pair whose only differences may be cut is
        // unknown and names them; nothing else names any.
        let Some(dimensions) = item["changed_dimensions"].as_array() else {
            return bad(&at, "changed_dimensions must be an array");
        };
        if dimensions
            .iter()
            .any(|d| !DIMENSIONS.contains(&d.as_str().unwrap_or_default()))
        {
            return bad(&at, "unknown changed dimension");
        }
        let named = !dimensions.is_empty();
        let fits = match status {
            "changed" => named,
            "unknown" => paired || !named,
            _ => !named,
        };
        if !fits {
            return bad(&at, "changed_dimensions disagree with the status");
        }
        // The properties named only where properties differ.
        let Some(properties) = item["changed_properties"].as_array() else {
            return bad(&at, "changed_properties must be an array");
        };
        let by_properties = dimensions.iter().any(|d| d == "properties");
        if properties.iter().any(|p| !p.is_string()) || (!by_properties && !properties.is_empty()) {
            return bad(&at, "changed_properties disagree with changed_dimensions");
        }
        let id = versions::item_id(item).map_err(|e| ValidationError::new(&at, e.to_string()))?;
        if item["item_id"] != id.as_str() {
            return bad(&at, "item_id does not match the item");
        }
        ids.push(Value::String(id));
    }
    let summary = &result["summary"];
    let count = |key: &str| summary[key].as_u64();
    let mut total = 0;
    for status in STATUSES {
        let Some(n) = count(status) else {
            return bad("/summary", "must count every status");
        };
        total += n;
    }
    if count("items") != Some(total)
        || count("items_listed") != Some(items.len() as u64)
        || result["truncation"]["omitted_items"].as_u64() != total.checked_sub(items.len() as u64)
    {
        return bad("/summary", "counts do not add up to the items");
    }
    check_changed_from(result)?;
    let id = versions::comparison_id(
        result["left"]["graph_id"].as_str().unwrap_or_default(),
        result["right"]["graph_id"].as_str().unwrap_or_default(),
        &record["parameters"],
        summary,
        &ids,
    )
    .map_err(|e| ValidationError::new("/comparison_id", e.to_string()))?;
    if result["comparison_id"] != id.as_str() {
        return bad("/comparison_id", "does not match the comparison");
    }
    Ok(())
}

/// The `changed_from` graph, when there is one: an application graph (every id recomputed)
/// whose edges all say `changed_from` between nodes of one kind, as many as the summary
/// counts, and whose id the summary commits to.
fn check_changed_from(result: &Value) -> Result<(), ValidationError> {
    let bad = |at: &str, problem: &str| Err(ValidationError::new(at, problem));
    let graph = &result["changed_from"];
    let summary = &result["summary"];
    if graph.is_null() {
        if summary["changed_from_edges"] != 0 || !summary["changed_from_graph_id"].is_null() {
            return bad(
                "/changed_from",
                "the summary counts a graph that is not there",
            );
        }
        return Ok(());
    }
    let kinds = crate::trace::check_graph(graph)?;
    let edges = graph["edges"].as_array().map_or(&[][..], Vec::as_slice);
    for (i, edge) in edges.iter().enumerate() {
        let kind = |key: &str| kinds.get(edge[key].as_str().unwrap_or_default());
        if edge["relation"] != "changed_from" || kind("source_node_id") != kind("target_node_id") {
            return bad(
                &format!("/changed_from/edges/{i}"),
                "must be changed_from between nodes of one kind",
            );
        }
    }
    if summary["changed_from_edges"].as_u64() != Some(edges.len() as u64)
        || summary["changed_from_graph_id"] != graph["graph_id"]
    {
        return bad("/summary", "does not count or name the changed_from graph");
    }
    Ok(())
}

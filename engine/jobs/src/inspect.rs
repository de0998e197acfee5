//! `inspect_artifact`: the bounded summary a person or an agent reads first.
//!
//! Plan: the inventory's traverse ⇢ hash → graph, then an inspect node (a projection of the
//! graph, plus reading the few `package.json` files outside `node_modules` to name their
//! entrypoints), then seal → validate. Every list is bounded by `max_observations`.

use std::collections::BTreeMap;
use std::path::PathBuf;

use rea_core::{Failure, FailureReason, IntegrityPolicy, Limits};
use rea_exec::{Dep, Placement, Plan, StageCx, StageKind};
use rea_graph::artifact::InventoryGraph;
use rea_hash::HashedEntry;
use rea_seal::{Authority, Confidence, EvidenceDraft, Sealed};
use serde_json::{Map, Value, json};

use crate::common::{
    artifact_provider, artifact_subject, locations_of, plan_failure, resolve, validate_and_run,
};
use crate::engine::{Engine, JobControl, Published};
use crate::inventory::{integrity_json, invalid, limits_json, plan_graph};
use crate::slot::Slot;

/// The operation name, as tools and Evidence spell it.
pub const OPERATION: &str = "inspect_artifact";
/// Largest `package.json` read to find entrypoints.
const MAX_MANIFEST_BYTES: u64 = 1 << 20;

/// A request to inspect one input.
#[derive(Debug, Clone)]
pub struct InspectRequest {
    pub input_path: PathBuf,
    pub limits: Limits,
    pub integrity: IntegrityPolicy,
    /// Items per list (largest files, entrypoints, containers), 1 to 500.
    pub max_observations: u32,
}

impl Engine {
    /// Inspects `request.input_path`. Returns only validated Evidence.
    pub fn inspect_artifact(
        &self,
        request: &InspectRequest,
        ctl: &JobControl<'_>,
    ) -> Result<Published, Failure> {
        crate::inventory::check_limits(&request.limits, request.integrity)?;
        if !(1..=500).contains(&request.max_observations) {
            return Err(invalid(
                "max_observations",
                "max_observations must be between 1 and 500".to_owned(),
            ));
        }
        ctl.cancel.check()?;
        let input = resolve(ctl, &request.input_path)?;
        let mut plan = Plan::new();
        let entries: Slot<Vec<HashedEntry>> = Slot::new();
        let (graph_node, graph) = plan_graph(
            &mut plan,
            &input,
            request.limits,
            request.integrity,
            Some(entries.clone()),
        )
        .map_err(plan_failure)?;
        let sealed: Slot<Sealed> = Slot::new();
        let seal_node = {
            let sealed = sealed.clone();
            let (display, max) = (input.display.clone(), request.max_observations as usize);
            let parameters = json!({
                "limits": limits_json(&request.limits),
                "integrity": integrity_json(request.integrity),
                "max_observations": request.max_observations,
            });
            plan.add(
                StageKind::Seal,
                Placement::Pool,
                &[Dep::After(graph_node)],
                move |cx| {
                    let graph = graph.take("inventory graph")?;
                    let entries = entries.take("hashed entries")?;
                    let result = inspect(cx, &graph, &entries, &display, max)?;
                    sealed.put(rea_seal::seal(
                        cx,
                        draft(&graph, result, &display, parameters),
                    )?);
                    Ok(())
                },
            )
            .map_err(plan_failure)?
        };
        let (validated, report) =
            validate_and_run(self, plan, seal_node, sealed, input.display.clone(), ctl)?;
        let mut headline = Map::new();
        for key in ["entrypoints", "largest_files", "containers"] {
            let n = validated.record()["normalized_result"][key]
                .as_array()
                .map_or(0, Vec::len);
            headline.insert(key.to_owned(), Value::from(n));
        }
        let published = Published::new(validated, headline, &report)?;
        ctl.progress
            .finish("done", 1, Some(1), "inspection complete");
        Ok(published)
    }
}

/// The inspection proper: a bounded projection of the graph.
fn inspect(
    cx: &StageCx<'_>,
    graph: &InventoryGraph,
    entries: &[HashedEntry],
    display: &str,
    max: usize,
) -> Result<Value, Failure> {
    let nodes: BTreeMap<&str, &rea_graph::artifact::ArtifactNode> = graph
        .nodes
        .iter()
        .map(|n| (n.artifact_id.as_str(), n))
        .collect();
    let mut by_kind: BTreeMap<String, u64> = BTreeMap::new();
    let mut by_format: BTreeMap<String, u64> = BTreeMap::new();
    let mut by_hash_status: BTreeMap<String, u64> = BTreeMap::new();
    let mut files = Vec::new();
    let mut containers = Vec::new();
    let mut entrypoints = Vec::new();
    for occurrence in graph.occurrences.iter().skip(1) {
        cx.check()?;
        let status = serde_json::to_value(occurrence.hash_status)
            .ok()
            .and_then(|v| v.as_str().map(str::to_owned))
            .unwrap_or_default();
        *by_hash_status.entry(status).or_default() += 1;
        let Some(node) = occurrence
            .artifact_id
            .as_deref()
            .and_then(|id| nodes.get(id))
        else {
            continue;
        };
        if occurrence.entry_kind != "file" {
            continue;
        }
        *by_kind.entry(node.kind.clone()).or_default() += 1;
        *by_format.entry(node.format.clone()).or_default() += 1;
        files.push((
            occurrence.size.unwrap_or(0),
            occurrence.logical_path.as_str(),
            node,
        ));
        let path = occurrence.logical_path.as_str();
        let in_dependencies = path.contains("node_modules/");
        match node.kind.as_str() {
            "container" => containers.push(json!({"logical_path": path, "format": node.format})),
            "native-addon" => entrypoints
                .push(json!({"logical_path": path, "role": "native-addon", "detail": node.format})),
            _ => {}
        }
        let lower = path.to_lowercase();
        if !in_dependencies && (lower.ends_with(".html") || lower.ends_with(".htm")) {
            entrypoints
                .push(json!({"logical_path": path, "role": "html", "detail": "HTML document"}));
        }
        if !in_dependencies && node.kind == "package-metadata" {
            entrypoints.extend(package_entrypoints(cx, entries, path)?);
        }
        if node.kind == "container" {
            entrypoints.push(
                json!({"logical_path": path, "role": node.format, "detail": "nested archive"}),
            );
        }
    }
    files.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(b.1)));
    let largest: Vec<Value> = files
        .iter()
        .take(max)
        .map(|(size, path, node)| json!({"logical_path": path, "size": size, "sha256": node.sha256, "kind": node.kind, "format": node.format}))
        .collect();
    let paths: std::collections::HashSet<&str> = graph
        .occurrences
        .iter()
        .map(|o| o.logical_path.as_str())
        .collect();
    for entrypoint in &mut entrypoints {
        let present = entrypoint["logical_path"]
            .as_str()
            .is_some_and(|p| paths.contains(p));
        entrypoint["present"] = Value::from(present);
    }
    entrypoints.sort_by(|a, b| {
        (a["logical_path"].as_str(), a["role"].as_str())
            .cmp(&(b["logical_path"].as_str(), b["role"].as_str()))
    });
    entrypoints.dedup();
    let truncated_entrypoints = entrypoints.len() > max;
    entrypoints.truncate(max);
    let truncated_containers = containers.len() > max;
    containers.truncate(max);
    let s = &graph.summary;
    let has_js = by_kind.contains_key("javascript") || by_format.contains_key("asar");
    let mut next = Vec::new();
    if has_js {
        next.push(json!({"tool": "analyze_javascript_application", "reason": "the input ships JavaScript", "arguments": {"input_path": display}}));
    }
    if !entrypoints.is_empty() {
        next.push(json!({"tool": "extract_artifact", "reason": "read the entrypoints named here", "arguments": {"input_path": display, "globs": ["**/package.json"]}}));
    }
    next.push(json!({"tool": "inventory_artifact", "reason": "every path, digest and id, paged", "arguments": {"input_path": display}}));
    let mut limitations = graph.limitations.clone();
    if truncated_entrypoints || truncated_containers || files.len() > max {
        limitations.push(format!("lists are cut at max_observations {max}"));
    }
    Ok(json!({
        "manifest": serde_json::to_value(&graph.manifest).map_err(no_json)?,
        "summary": serde_json::to_value(graph.summary).map_err(no_json)?,
        "counts": {"by_kind": by_kind, "by_format": by_format, "by_hash_status": by_hash_status},
        "largest_files": largest,
        "entrypoints": entrypoints,
        "containers": containers,
        "integrity": {
            "verified": s.verified, "mismatched": s.mismatched, "unverifiable": s.unverifiable,
            "unavailable": s.unavailable, "contradictions": graph.integrity_contradictions.len(),
            "asar_headers": serde_json::to_value(&graph.asar_headers).map_err(no_json)?,
            "electron_fuses": serde_json::to_value(&graph.electron_fuses).map_err(no_json)?,
        },
        "suggested_next_tools": next,
        "limitations": limitations,
    }))
}

/// Entrypoints a `package.json` names (`main`, `browser`, `module`), read with a size bound.
fn package_entrypoints(
    cx: &StageCx<'_>,
    entries: &[HashedEntry],
    path: &str,
) -> Result<Vec<Value>, Failure> {
    let Ok(idx) = entries.binary_search_by(|h| h.entry.logical_path.as_str().cmp(path)) else {
        return Ok(Vec::new());
    };
    let item = &entries[idx];
    if !matches!(item.outcome, rea_hash::HashOutcome::Hashed(..))
        || item.entry.declared_size.unwrap_or(0) > MAX_MANIFEST_BYTES
    {
        return Ok(Vec::new());
    }
    let mut bytes = Vec::new();
    match rea_hash::copy_entry(cx, &item.entry, MAX_MANIFEST_BYTES, &mut bytes) {
        Ok(_) => {}
        Err(failure) if failure.is_cancellation() => return Err(failure),
        Err(_) => return Ok(Vec::new()),
    }
    let Ok(manifest) = serde_json::from_slice::<Value>(&bytes) else {
        return Ok(vec![
            json!({"logical_path": path, "role": "package-json", "detail": "not valid JSON"}),
        ]);
    };
    let dir = path.rsplit_once('/').map_or("", |(dir, _)| dir);
    let name = manifest["name"].as_str().unwrap_or("");
    let mut out = Vec::new();
    for field in ["main", "browser", "module"] {
        if let Some(target) = manifest[field].as_str() {
            let target = target.trim_start_matches("./");
            let joined = if dir.is_empty() {
                target.to_owned()
            } else {
                format!("{dir}/{target}")
            };
            out.push(json!({"logical_path": joined, "role": format!("package-{field}"), "detail": format!("{field} of {name} ({path})")}));
        }
    }
    Ok(out)
}

fn draft(graph: &InventoryGraph, result: Value, display: &str, parameters: Value) -> EvidenceDraft {
    let locations = locations_of(result["entrypoints"].as_array().map_or(&[], Vec::as_slice));
    let limitations = crate::common::limitations_of(&result);
    EvidenceDraft {
        subject: Some(artifact_subject(&graph.manifest, display)),
        provider: artifact_provider(),
        predicate_type: "rea.analysis/v2".to_owned(),
        operation: OPERATION.to_owned(),
        parameters,
        normalized_result: result,
        result_parts: Vec::new(),
        confidence: Confidence::Observed,
        authority: Authority::ShippedArtifact,
        limitations,
        locations,
        evidence_links: Vec::new(),
    }
}

fn no_json(err: serde_json::Error) -> Failure {
    Failure::new(FailureReason::Internal, "inspection has no json form").with_source(err)
}

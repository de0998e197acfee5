//! `compare_artifacts`: two inventories of two versions, path by path and content by content.
//!
//! Inputs are complete Evidence records (or the `{result, evidence_id, evidence}` envelopes the
//! CLI prints) of `inventory_artifact` or `inspect_artifact`, re-validated before use. An
//! inspection names its root but no paths, so against it only root identity is compared. Plan: graph (compare) → seal → validate; no input is
//! read from disk besides the two records.
//!
//! Each path is `added`, `removed`, `changed`, `unchanged`, `contradiction` (either side's bytes
//! contradict declared integrity: never `unchanged`) or `unknown` (absent from a side whose
//! record lists only a page, so absence proves nothing). Beside the paths, `electron_packaging`
//! lists the fuses, Electron versions and ASAR header verdicts that differ.

use std::collections::{BTreeMap, BTreeSet};

use rea_core::{Failure, FailureReason};
use rea_seal::{Authority, Confidence, EvidenceDraft};
use serde_json::{Value, json};

use crate::common::{artifact_provider, derive, locations_of, validated_side};
use crate::engine::{Engine, JobControl, Published};
use crate::inventory::in_range;

/// The operation name, as tools and Evidence spell it.
pub const OPERATION: &str = "compare_artifacts";
/// Changes listed inline at most; the counts always cover everything.
pub const MAX_CHANGES: usize = 500;

/// Two records to compare.
#[derive(Debug, Clone)]
pub struct CompareRequest {
    pub left: Value,
    pub right: Value,
    /// Changes listed inline, 1 to [`MAX_CHANGES`].
    pub max_changes: usize,
}

impl Engine {
    /// Compares two inventory records. Returns only validated Evidence.
    pub fn compare_artifacts(
        &self,
        request: &CompareRequest,
        ctl: &JobControl<'_>,
    ) -> Result<Published, Failure> {
        in_range(
            "max_changes",
            request.max_changes as u64,
            1,
            MAX_CHANGES as u64,
        )?;
        let request = request.clone();
        derive(self, ctl, "comparison complete", move |cx| {
            let left = side("left", &request.left)?;
            cx.check()?;
            let right = side("right", &request.right)?;
            cx.check()?;
            draft(&left, &right, request.max_changes)
        })
    }
}

/// One validated input.
struct Side {
    evidence_id: String,
    manifest: Value,
    complete: bool,
    /// Occurrences by logical path (the root left out).
    occurrences: BTreeMap<String, Value>,
    contradicted: BTreeSet<String>,
    /// False for an inspection record, which names its root but lists no paths.
    lists_paths: bool,
    /// `electron_fuses` and `asar_headers` (an inspection carries them under `integrity`;
    /// records made before they were read carry none).
    fuses: Vec<Value>,
    headers: Vec<Value>,
}

fn side(name: &str, value: &Value) -> Result<Side, Failure> {
    let bad = |message: &str| {
        Failure::new(FailureReason::InvalidInput, format!("{name}: {message}"))
            .with_detail("side", name)
    };
    let validated = validated_side(name, value)?;
    let record = validated.record();
    let result = &record["normalized_result"];
    if record["operation"] == "inspect_artifact" {
        // An inspection names the root but lists no paths: every path is unknown on its side.
        return Ok(Side {
            evidence_id: validated.evidence_id().to_owned(),
            manifest: result["manifest"].clone(),
            complete: false,
            occurrences: BTreeMap::new(),
            contradicted: BTreeSet::new(),
            lists_paths: false,
            fuses: list(&result["integrity"]["electron_fuses"]),
            headers: list(&result["integrity"]["asar_headers"]),
        });
    }
    if record["operation"] != "inventory_artifact" {
        return Err(bad(
            "must be inventory_artifact or inspect_artifact Evidence",
        ));
    }
    let page = &result["occurrences"];
    let items = page["items"].as_array().cloned().unwrap_or_default();
    let complete = page["offset"] == 0 && page["total"].as_u64() == Some(items.len() as u64);
    let occurrences = items
        .into_iter()
        .filter(|o| o["logical_path"] != ".")
        .filter_map(|o| {
            o["logical_path"]
                .as_str()
                .map(str::to_owned)
                .map(|p| (p, o))
        })
        .collect();
    let contradicted = result["integrity_contradictions"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|c| c["logical_path"].as_str().map(str::to_owned))
        .collect();
    Ok(Side {
        evidence_id: validated.evidence_id().to_owned(),
        manifest: result["manifest"].clone(),
        complete,
        occurrences,
        contradicted,
        lists_paths: true,
        fuses: list(&result["electron_fuses"]),
        headers: list(&result["asar_headers"]),
    })
}

fn list(value: &Value) -> Vec<Value> {
    value.as_array().cloned().unwrap_or_default()
}

/// What the packager sealed in that differs between the sides: each fuse whose state, and
/// each binary whose Electron version, changed (or that one side lacks), and each ASAR header
/// whose digest or verdict changed.
fn packaging_changes(left: &Side, right: &Side) -> Value {
    let keyed = |items: &[Value]| -> BTreeMap<String, Value> {
        items
            .iter()
            .filter_map(|i| Some((i["logical_path"].as_str()?.to_owned(), i.clone())))
            .collect()
    };
    let (lf, rf) = (keyed(&left.fuses), keyed(&right.fuses));
    let mut fuses = Vec::new();
    let mut versions = Vec::new();
    for path in lf.keys().chain(rf.keys()).collect::<BTreeSet<_>>() {
        let (l, r) = (lf.get(path), rf.get(path));
        let version = |b: Option<&Value>| b.map_or(Value::Null, |b| b["electron_version"].clone());
        if version(l) != version(r) {
            versions.push(json!({"logical_path": path, "left": version(l), "right": version(r)}));
        }
        let states = |b: Option<&Value>| -> BTreeMap<String, Value> {
            b.and_then(|b| b["fuses"].as_array())
                .into_iter()
                .flatten()
                .filter_map(|f| Some((f["name"].as_str()?.to_owned(), f["state"].clone())))
                .collect()
        };
        let (ls, rs) = (states(l), states(r));
        for name in ls.keys().chain(rs.keys()).collect::<BTreeSet<_>>() {
            let (a, b) = (
                ls.get(name).cloned().unwrap_or(Value::Null),
                rs.get(name).cloned().unwrap_or(Value::Null),
            );
            if a != b {
                fuses.push(json!({"logical_path": path, "fuse": name, "left": a, "right": b}));
            }
        }
    }
    let (lh, rh) = (keyed(&left.headers), keyed(&right.headers));
    let mut headers = Vec::new();
    for path in lh.keys().chain(rh.keys()).collect::<BTreeSet<_>>() {
        let view = |h: Option<&Value>| {
            h.map_or(
                Value::Null,
                |h| json!({"header_sha256": h["header_sha256"], "status": h["status"]}),
            )
        };
        let (l, r) = (view(lh.get(path)), view(rh.get(path)));
        if l != r {
            headers.push(json!({"logical_path": path, "left": l, "right": r}));
        }
    }
    json!({"asar_headers": headers, "electron_fuses": fuses, "electron_versions": versions})
}

fn draft(left: &Side, right: &Side, max_changes: usize) -> Result<EvidenceDraft, Failure> {
    let paths: BTreeSet<&String> = left
        .occurrences
        .keys()
        .chain(right.occurrences.keys())
        .collect();
    let mut counts: BTreeMap<&str, u64> = [
        "added",
        "removed",
        "changed",
        "unchanged",
        "contradiction",
        "unknown",
    ]
    .into_iter()
    .map(|k| (k, 0))
    .collect();
    let mut changes = Vec::new();
    for path in paths {
        let (l, r) = (left.occurrences.get(path), right.occurrences.get(path));
        let touched = |side: &Side, o: Option<&Value>| {
            side.contradicted.contains(path) || o.is_some_and(|o| o["hash_status"] == "mismatched")
        };
        let status = match (l, r) {
            _ if touched(left, l) || touched(right, r) => "contradiction",
            (Some(_), None) if right.complete => "removed",
            (None, Some(_)) if left.complete => "added",
            (Some(_), None) | (None, Some(_)) => "unknown",
            (Some(a), Some(b))
                if a["entry_kind"] == b["entry_kind"]
                    && a["sha256"] == b["sha256"]
                    && a["link_target"] == b["link_target"] =>
            {
                "unchanged"
            }
            _ => "changed",
        };
        *counts.entry(status).or_default() += 1;
        if status != "unchanged" && changes.len() < max_changes {
            let view = |o: Option<&Value>| {
                o.map(|o| json!({"entry_kind": o["entry_kind"], "sha256": o["sha256"], "size": o["size"], "hash_status": o["hash_status"]}))
            };
            changes.push(
                json!({"logical_path": path, "status": status, "left": view(l), "right": view(r)}),
            );
        }
    }
    let listed = changes.len() as u64;
    let total: u64 = counts
        .iter()
        .filter(|(k, _)| **k != "unchanged")
        .map(|(_, v)| *v)
        .sum();
    let mut limitations = Vec::new();
    if !left.lists_paths || !right.lists_paths {
        limitations.push(
            "an inspect record lists no paths; compare two inventories (--json --all) for per-path changes".to_owned(),
        );
    }
    if !left.complete || !right.complete {
        limitations.push("a side lists only a page of its occurrences; paths absent from it are unknown, not removed or added".to_owned());
    }
    if listed < total {
        limitations.push(format!(
            "{listed} of {total} changes are listed; the counts cover all"
        ));
    }
    let same_root = left.manifest["root_sha256"] == right.manifest["root_sha256"];
    let locations = locations_of(&changes);
    let result = json!({
        "left": {"evidence_id": left.evidence_id, "manifest_id": left.manifest["manifest_id"], "root_sha256": left.manifest["root_sha256"], "complete": left.complete},
        "right": {"evidence_id": right.evidence_id, "manifest_id": right.manifest["manifest_id"], "root_sha256": right.manifest["root_sha256"], "complete": right.complete},
        "identical_roots": same_root,
        "summary": counts,
        "changes": changes,
        "changes_listed": listed,
        "electron_packaging": packaging_changes(left, right),
        "limitations": limitations,
    });
    Ok(EvidenceDraft {
        subject: None,
        provider: artifact_provider(),
        predicate_type: "rea.artifact-comparison/v1".to_owned(),
        operation: OPERATION.to_owned(),
        parameters: json!({"max_changes": max_changes}),
        normalized_result: result,
        result_parts: Vec::new(),
        confidence: Confidence::Derived,
        authority: Authority::ShippedArtifact,
        limitations,
        locations,
        evidence_links: vec![left.evidence_id.clone(), right.evidence_id.clone()],
    })
}

//! Invariants of a `compare_source_to_bundle` result: vocabularies, item ids, counts that agree
//! with the items, and the comparison id.

use std::collections::BTreeMap;

use rea_graph::sources::{self, CONFIDENCES, SIGNALS, STATUSES, UNKNOWN_REASONS};
use serde_json::Value;

use crate::ValidationError;

pub(crate) fn check(record: &Value, result: &Value) -> Result<(), ValidationError> {
    let bad = |at: &str, problem: &str| Err(ValidationError::new(at, problem));
    if result["schema"] != sources::SCHEMA || result["schema_version"] != 1 {
        return bad(
            "/schema",
            "must be JavaScriptSourceBundleComparison version 1",
        );
    }
    let application = result["application_evidence_id"]
        .as_str()
        .unwrap_or_default();
    if record["evidence_links"] != serde_json::json!([application]) {
        return bad("/evidence_links", "must be the application's evidence id");
    }
    let Some(items) = result["items"].as_array() else {
        return bad("/items", "must be an array");
    };
    let mut counts: BTreeMap<&str, u64> = STATUSES.iter().map(|s| (*s, 0)).collect();
    let mut reasons: BTreeMap<String, u64> = BTreeMap::new();
    for (i, item) in items.iter().enumerate() {
        let at = |field: &str| format!("/items/{i}/{field}");
        let status = item["status"].as_str().unwrap_or_default();
        let Some(count) = counts.get_mut(status) else {
            return Err(ValidationError::new(at("status"), "unknown status"));
        };
        *count += 1;
        match (status, item["reason"].as_str()) {
            ("unknown", Some(reason)) if UNKNOWN_REASONS.contains(&reason) => {
                *reasons.entry(reason.to_owned()).or_default() += 1;
            }
            ("unknown", _) => {
                return Err(ValidationError::new(
                    at("reason"),
                    "an unknown item needs a known reason",
                ));
            }
            (_, None) => {}
            _ => {
                return Err(ValidationError::new(
                    at("reason"),
                    "only unknown items have a reason",
                ));
            }
        }
        if !CONFIDENCES.contains(&item["confidence"].as_str().unwrap_or_default()) {
            return Err(ValidationError::new(at("confidence"), "unknown confidence"));
        }
        for (m, found) in item["matches"].as_array().into_iter().flatten().enumerate() {
            let known = found["signals"].as_array().is_some_and(|signals| {
                signals
                    .iter()
                    .all(|s| SIGNALS.iter().any(|(name, _)| s.as_str() == Some(name)))
            });
            let weight: u64 = found["signals"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|s| SIGNALS.iter().find(|(name, _)| s.as_str() == Some(name)))
                .map(|(_, w)| u64::from(*w))
                .sum();
            if !known || found["score"].as_u64() != Some(weight) {
                return Err(ValidationError::new(
                    format!("/items/{i}/matches/{m}"),
                    "signals must be known and the score their sum",
                ));
            }
        }
        if sources::item_id(item).ok().as_deref() != item["item_id"].as_str() {
            return Err(ValidationError::new(
                at("item_id"),
                "does not match the item",
            ));
        }
    }
    let summary = &result["summary"];
    for (status, count) in &counts {
        if summary[*status].as_u64() != Some(*count) {
            return Err(ValidationError::new(
                format!("/summary/{status}"),
                "does not count the items",
            ));
        }
    }
    if summary["compared_files"].as_u64() != Some(items.len() as u64) {
        return bad("/summary/compared_files", "does not count the items");
    }
    if summary["unknown_reasons"] != serde_json::json!(reasons) {
        return bad("/summary/unknown_reasons", "does not count the items");
    }
    let item_ids: Vec<Value> = items.iter().map(|i| i["item_id"].clone()).collect();
    let recomputed = sources::comparison_id(
        result["application_graph_id"].as_str().unwrap_or_default(),
        result["reference_root_sha256"].as_str().unwrap_or_default(),
        &record["parameters"],
        summary,
        &item_ids,
    );
    if recomputed.ok().as_deref() != result["comparison_id"].as_str() {
        return bad("/comparison_id", "does not match the comparison");
    }
    Ok(())
}

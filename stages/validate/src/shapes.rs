//! Invariants of a `compare_javascript_export_shapes` result: vocabularies, counts that agree
//! with the listed changes, links to both sides, and the comparison id.

use rea_graph::shapes::{self, CHANGES, PAIRINGS, STATUSES};
use serde_json::Value;

use crate::ValidationError;

pub(crate) fn check(record: &Value, result: &Value) -> Result<(), ValidationError> {
    let bad = |at: &str, problem: &str| Err(ValidationError::new(at, problem));
    if result["schema"] != shapes::SCHEMA || result["schema_version"] != 1 {
        return bad(
            "/schema",
            "must be JavaScriptExportShapeComparison version 1",
        );
    }
    let links = [
        &result["left"]["application_evidence_id"],
        &result["right"]["application_evidence_id"],
    ];
    let listed: Vec<&Value> = record["evidence_links"]
        .as_array()
        .map(|l| l.iter().collect())
        .unwrap_or_default();
    if listed != links {
        return bad(
            "/evidence_links",
            "must be the left and right applications' evidence ids, in that order",
        );
    }
    for side in ["left", "right"] {
        let selection = result[side]["selection"].as_str().unwrap_or_default();
        if !["exact", "missing", "ambiguous", "unavailable"].contains(&selection) {
            return bad(&format!("/{side}/selection"), "unknown selection");
        }
        if (selection == "exact") == result[side]["export"].is_null() {
            return bad(
                &format!("/{side}/export"),
                "an exact selection, and only one, carries its export",
            );
        }
    }
    if !STATUSES.contains(&result["status"].as_str().unwrap_or_default()) {
        return bad("/status", "unknown status");
    }
    for (i, variant) in result["variants"]
        .as_array()
        .into_iter()
        .flatten()
        .enumerate()
    {
        if !PAIRINGS.contains(&variant["pairing"].as_str().unwrap_or_default()) {
            return bad(&format!("/variants/{i}/pairing"), "unknown pairing");
        }
    }
    let Some(changes) = result["changes"].as_array() else {
        return bad("/changes", "must be an array");
    };
    let mut counts = [0u64; 4];
    for (i, change) in changes.iter().enumerate() {
        let kind = change["change"].as_str().unwrap_or_default();
        let Some(at) = CHANGES.iter().position(|c| *c == kind) else {
            return bad(&format!("/changes/{i}/change"), "unknown change");
        };
        counts[at] += 1;
    }
    let summary = &result["summary"];
    let truncated = result["truncated"] == true;
    for (name, listed) in CHANGES.iter().zip(counts) {
        let counted = summary[*name].as_u64().unwrap_or(u64::MAX);
        if counted < listed || (!truncated && counted != listed) {
            return bad(
                &format!("/summary/{name}"),
                "does not agree with the listed changes",
            );
        }
    }
    if summary["listed_changes"].as_u64() != Some(changes.len() as u64) {
        return bad("/summary/listed_changes", "must count the listed changes");
    }
    let definite = counts[..3].iter().sum::<u64>() > 0
        || result["attribute_changes"]
            .as_array()
            .is_some_and(|a| !a.is_empty());
    if definite && result["status"] != "changed" {
        return bad("/status", "a listed change makes the status changed");
    }
    if shapes::comparison_id(result).ok().as_deref() != result["comparison_id"].as_str() {
        return bad("/comparison_id", "does not match the comparison");
    }
    Ok(())
}

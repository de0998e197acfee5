//! Invariants of a `compare_artifacts` result.

use serde_json::Value;

use crate::ValidationError;

/// A comparison links the records it compares: `evidence_links` is the left and right
/// evidence ids, in that order.
pub(crate) fn links_to_sides(record: &Value, result: &Value) -> Result<(), ValidationError> {
    let links: Vec<&Value> = record["evidence_links"]
        .as_array()
        .map(|l| l.iter().collect())
        .unwrap_or_default();
    if links
        != [
            &result["left"]["evidence_id"],
            &result["right"]["evidence_id"],
        ]
    {
        return Err(ValidationError::new(
            "/evidence_links",
            "must be the left and right evidence ids, in that order",
        ));
    }
    Ok(())
}

const STATUSES: [&str; 6] = [
    "added",
    "removed",
    "changed",
    "unchanged",
    "contradiction",
    "unknown",
];

pub(crate) fn check(record: &Value, result: &Value) -> Result<(), ValidationError> {
    let bad = |at: &str, problem: &str| ValidationError::new(at, problem);
    links_to_sides(record, result)?;
    let Some(changes) = result["changes"].as_array() else {
        return Err(bad("/changes", "must be an array"));
    };
    let mut previous: Option<&str> = None;
    for (i, change) in changes.iter().enumerate() {
        let path = change["logical_path"].as_str().unwrap_or_default();
        let status = change["status"].as_str().unwrap_or_default();
        if !STATUSES.contains(&status) || status == "unchanged" {
            return Err(bad(&format!("/changes/{i}"), "status must be a change"));
        }
        if previous.is_some_and(|p| p >= path) {
            return Err(bad(
                &format!("/changes/{i}"),
                "changes are not in logical_path order",
            ));
        }
        previous = Some(path);
    }
    let summary = &result["summary"];
    let mut total_changes = 0;
    for status in STATUSES {
        let Some(n) = summary[status].as_u64() else {
            return Err(bad("/summary", "must count every status"));
        };
        if status != "unchanged" {
            total_changes += n;
        }
    }
    if result["changes_listed"].as_u64() != Some(changes.len() as u64)
        || changes.len() as u64 > total_changes
    {
        return Err(bad("/changes_listed", "does not match the listed changes"));
    }
    let locations = record["locations"]
        .as_array()
        .map(Vec::as_slice)
        .unwrap_or(&[]);
    if locations.len() != changes.len()
        || !locations
            .iter()
            .zip(changes)
            .all(|(l, c)| l["path"] == c["logical_path"])
    {
        return Err(bad("/locations", "must name each listed change, in order"));
    }
    Ok(())
}

//! Checks of the Evidence envelope shared by every operation.

use serde_json::Value;

use crate::ValidationError;

const CONFIDENCE: [&str; 3] = ["observed", "derived", "inferred"];
const AUTHORITY: [&str; 5] = [
    "shipped-artifact",
    "controlled-replay",
    "historical-reference",
    "external-service",
    "analyst-inference",
];

/// Checks keys, types and the id; returns the id. `expected` is the id recomputed from the
/// record's canonical text (already checked), or `None` when it could not be.
pub(crate) fn check(record: &Value, expected: Option<&str>) -> Result<String, ValidationError> {
    let Value::Object(map) = record else {
        return Err(ValidationError::new("", "record is not an object"));
    };
    for key in map.keys() {
        if !rea_seal::RECORD_KEYS.contains(&key.as_str()) {
            return Err(ValidationError::new(format!("/{key}"), "unknown key"));
        }
    }
    for key in rea_seal::RECORD_KEYS {
        if !map.contains_key(key) {
            return Err(ValidationError::new(format!("/{key}"), "missing key"));
        }
    }
    if map["schema_version"] != 2 {
        return Err(ValidationError::new("/schema_version", "must be 2"));
    }
    let evidence_id = map["evidence_id"].as_str().unwrap_or_default();
    if !is_prefixed_hex(evidence_id, "ev_") {
        return Err(ValidationError::new(
            "/evidence_id",
            "must be ev_ and 64 lowercase hex digits",
        ));
    }
    check_subject(&map["subject"])?;
    let provider = &map["provider"];
    for key in ["id", "name", "version"] {
        if provider[key].as_str().is_none_or(str::is_empty) {
            return Err(ValidationError::new(
                format!("/provider/{key}"),
                "must be a non-empty string",
            ));
        }
    }
    for key in ["predicate_type", "operation"] {
        if map[key].as_str().is_none_or(str::is_empty) {
            return Err(ValidationError::new(
                format!("/{key}"),
                "must be a non-empty string",
            ));
        }
    }
    if !map["parameters"].is_object() {
        return Err(ValidationError::new("/parameters", "must be an object"));
    }
    if !CONFIDENCE.contains(&map["confidence"].as_str().unwrap_or_default()) {
        return Err(ValidationError::new("/confidence", "unknown confidence"));
    }
    if !AUTHORITY.contains(&map["authority"].as_str().unwrap_or_default()) {
        return Err(ValidationError::new("/authority", "unknown authority"));
    }
    if !map["environment"].is_null() || !map["raw_result"].is_null() {
        return Err(ValidationError::new(
            "/environment",
            "environment and raw_result must be null",
        ));
    }
    string_array(&map["limitations"], "/limitations")?;
    for (i, link) in string_array(&map["evidence_links"], "/evidence_links")?
        .iter()
        .enumerate()
    {
        if !is_prefixed_hex(link, "ev_") {
            return Err(ValidationError::new(
                format!("/evidence_links/{i}"),
                "not an evidence id",
            ));
        }
    }
    let Some(locations) = map["locations"].as_array() else {
        return Err(ValidationError::new("/locations", "must be an array"));
    };
    for (i, location) in locations.iter().enumerate() {
        if location["kind"] != "artifact-path"
            || !location["path"].is_string()
            || location.as_object().map(|o| o.len()) != Some(2)
        {
            return Err(ValidationError::new(
                format!("/locations/{i}"),
                "must be {kind: artifact-path, path}",
            ));
        }
    }
    let expected = expected.ok_or_else(|| ValidationError::new("", "no canonical form"))?;
    if expected != evidence_id {
        return Err(ValidationError::new(
            "/evidence_id",
            "does not match the record's content",
        ));
    }
    Ok(evidence_id.to_owned())
}

fn check_subject(subject: &Value) -> Result<(), ValidationError> {
    if subject.is_null() {
        return Ok(());
    }
    let keys = ["architecture", "digest", "format", "local_path", "name"];
    let Some(map) = subject.as_object() else {
        return Err(ValidationError::new(
            "/subject",
            "must be an object or null",
        ));
    };
    if map.len() != keys.len() || !keys.iter().all(|k| map.contains_key(*k)) {
        return Err(ValidationError::new(
            "/subject",
            "must have exactly name, digest, format, architecture, local_path",
        ));
    }
    if !is_hex64(subject["digest"]["sha256"].as_str().unwrap_or_default())
        || subject["digest"].as_object().map(|o| o.len()) != Some(1)
    {
        return Err(ValidationError::new(
            "/subject/digest",
            "must be {sha256: 64 lowercase hex}",
        ));
    }
    Ok(())
}

fn string_array<'a>(value: &'a Value, at: &str) -> Result<Vec<&'a str>, ValidationError> {
    let Some(items) = value.as_array() else {
        return Err(ValidationError::new(at, "must be an array of strings"));
    };
    items
        .iter()
        .enumerate()
        .map(|(i, item)| {
            item.as_str()
                .ok_or_else(|| ValidationError::new(format!("{at}/{i}"), "must be a string"))
        })
        .collect()
}

pub(crate) fn is_hex64(text: &str) -> bool {
    text.len() == 64
        && text
            .bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
}

pub(crate) fn is_prefixed_hex(text: &str, prefix: &str) -> bool {
    text.strip_prefix(prefix).is_some_and(is_hex64)
}

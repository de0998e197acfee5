//! Building and sealing one record.

use rea_core::{Failure, FailureReason};
use rea_exec::StageCx;
use rea_hash::{canonical_bytes, content_id};
use serde_json::{Value, json};

/// Every key of a record, in canonical order.
pub const RECORD_KEYS: [&str; 15] = [
    "authority",
    "confidence",
    "environment",
    "evidence_id",
    "evidence_links",
    "limitations",
    "locations",
    "normalized_result",
    "operation",
    "parameters",
    "predicate_type",
    "provider",
    "raw_result",
    "schema_version",
    "subject",
];

/// What was analysed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Subject {
    pub name: String,
    pub sha256: String,
    pub format: String,
    pub local_path: String,
}

/// Who produced the result.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Provider {
    pub id: String,
    pub name: String,
    pub version: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Confidence {
    Observed,
    Derived,
    Inferred,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Authority {
    ShippedArtifact,
    ControlledReplay,
    HistoricalReference,
    ExternalService,
    AnalystInference,
}

/// A place the result points at.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Location {
    ArtifactPath(String),
}

/// Everything a record holds except its id.
#[derive(Debug, Clone)]
pub struct EvidenceDraft {
    pub subject: Option<Subject>,
    pub provider: Provider,
    pub predicate_type: String,
    pub operation: String,
    /// A JSON object.
    pub parameters: Value,
    pub normalized_result: Value,
    pub confidence: Confidence,
    pub authority: Authority,
    pub limitations: Vec<String>,
    pub locations: Vec<Location>,
    pub evidence_links: Vec<String>,
}

/// A sealed record: its id and its canonical bytes, which nothing may change.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sealed {
    evidence_id: String,
    bytes: Vec<u8>,
}

impl Sealed {
    pub fn evidence_id(&self) -> &str {
        &self.evidence_id
    }

    pub fn bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// For tests that prove validation rejects altered bytes.
    pub fn into_bytes(self) -> Vec<u8> {
        self.bytes
    }
}

/// Seals `draft`: builds the record, derives its id and serializes it canonically.
pub fn seal(cx: &StageCx<'_>, draft: EvidenceDraft) -> Result<Sealed, Failure> {
    cx.check()?;
    let mut record = record_value(draft);
    let evidence_id = evidence_id_of(&record)?;
    cx.check()?;
    if let Value::Object(map) = &mut record {
        map.insert("evidence_id".to_owned(), Value::String(evidence_id.clone()));
    }
    let bytes = canonical_bytes(&record).map_err(|err| {
        Failure::new(
            FailureReason::Internal,
            "evidence record has no canonical form",
        )
        .with_source(err)
    })?;
    cx.check()?;
    Ok(Sealed { evidence_id, bytes })
}

/// The id a record (with or without its `evidence_id`) must carry.
pub fn evidence_id_of(record: &Value) -> Result<String, Failure> {
    let Value::Object(map) = record else {
        return Err(Failure::new(
            FailureReason::Internal,
            "evidence record is not an object",
        ));
    };
    // The projection borrows the record: only the reduced subject is built anew.
    let reduced = match map.get("subject") {
        Some(Value::Object(subject)) => Some(Value::Object(
            subject
                .iter()
                .filter(|(key, _)| matches!(key.as_str(), "digest" | "format" | "architecture"))
                .map(|(key, value)| (key.clone(), value.clone()))
                .collect(),
        )),
        _ => None,
    };
    let projection: std::collections::BTreeMap<&str, &Value> = map
        .iter()
        .filter(|(key, _)| key.as_str() != "evidence_id")
        .map(|(key, value)| match (key.as_str(), &reduced) {
            ("subject", Some(reduced)) => (key.as_str(), reduced),
            _ => (key.as_str(), value),
        })
        .collect();
    content_id("ev_", &projection).map_err(|err| {
        Failure::new(
            FailureReason::Internal,
            "evidence record has no canonical form",
        )
        .with_source(err)
    })
}

fn record_value(draft: EvidenceDraft) -> Value {
    let subject = match draft.subject {
        Some(s) => json!({
            "name": s.name,
            "digest": {"sha256": s.sha256},
            "format": s.format,
            "architecture": null,
            "local_path": s.local_path,
        }),
        None => Value::Null,
    };
    let mut limitations = draft.limitations;
    if subject.is_null() {
        limitations.insert(
            0,
            "Artifact identity is unavailable for this observation.".to_owned(),
        );
    }
    let locations: Vec<Value> = draft
        .locations
        .into_iter()
        .map(|Location::ArtifactPath(path)| json!({"kind": "artifact-path", "path": path}))
        .collect();
    // `json!` copies every interpolated `Value` through the serializer; the result (which can
    // be megabytes) is moved in afterwards instead.
    let mut record = json!({
        "schema_version": 2,
        "subject": subject,
        "provider": {"id": draft.provider.id, "name": draft.provider.name, "version": draft.provider.version},
        "predicate_type": draft.predicate_type,
        "operation": draft.operation,
        "parameters": draft.parameters,
        "raw_result": null,
        "normalized_result": null,
        "confidence": match draft.confidence {
            Confidence::Observed => "observed",
            Confidence::Derived => "derived",
            Confidence::Inferred => "inferred",
        },
        "authority": match draft.authority {
            Authority::ShippedArtifact => "shipped-artifact",
            Authority::ControlledReplay => "controlled-replay",
            Authority::HistoricalReference => "historical-reference",
            Authority::ExternalService => "external-service",
            Authority::AnalystInference => "analyst-inference",
        },
        "environment": null,
        "limitations": limitations,
        "locations": locations,
        "evidence_links": draft.evidence_links,
    });
    record["normalized_result"] = draft.normalized_result;
    record
}

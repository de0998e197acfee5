//! Building and sealing one record.

use rea_core::{Failure, FailureReason};
use rea_exec::StageCx;
use rea_hash::{CanonicalJson, Composed, Piece, content_id};
use std::collections::BTreeMap;

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
    /// Members of `normalized_result` given already as canonical text (an application graph
    /// of a hundred megabytes), spliced in without being serialized again. Their keys must
    /// not also be in `normalized_result`.
    pub result_parts: Vec<(String, Composed)>,
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
///
/// The record is serialized once, without its id; its result's large parts stay as they were
/// composed. The projection the id digests is streamed into the hasher, and the final bytes
/// are written once, with a placeholder id, at the same time; the id then replaces the
/// placeholder, which has its length.
pub fn seal(cx: &StageCx<'_>, mut draft: EvidenceDraft) -> Result<Sealed, Failure> {
    cx.check()?;
    let no_form = |err| {
        Failure::new(
            FailureReason::Internal,
            "evidence record has no canonical form",
        )
        .with_source(err)
    };
    let parts = std::mem::take(&mut draft.result_parts);
    let result = if parts.is_empty() {
        None
    } else {
        let result = std::mem::take(&mut draft.normalized_result);
        let base = CanonicalJson::of_value(&result).map_err(no_form)?;
        Some(Composed::object_with(&base, parts).map_err(no_form)?)
    };
    cx.check()?;
    let record = record_value(draft);
    let without_id = rea_hash::canonical_value_bytes(&record).map_err(no_form)?;
    rea_hash::drop_value_parallel(record);
    cx.check()?;
    let mut fields: Members<'_> = raw_fields(&without_id)?
        .into_iter()
        .map(|(key, text)| (key, Piece::Verbatim(text)))
        .collect();
    if let Some(result) = &result {
        fields.insert("normalized_result", Piece::Composed(result));
    }
    let placeholder = format!("\"ev_{}\"", "0".repeat(64));
    let (evidence_id, bytes) = rayon::join(
        || evidence_id_of_members(&fields),
        || {
            let mut fields = fields.clone();
            fields.insert("evidence_id", Piece::Verbatim(&placeholder));
            CanonicalJson::object(fields).map(CanonicalJson::into_bytes)
        },
    );
    let (evidence_id, mut bytes) = (evidence_id?, bytes.map_err(no_form)?);
    drop(result);
    // The first member after `authority`, `confidence` and `environment` (fixed vocabulary
    // and null): the first occurrence of the placeholder member is the record's own.
    let member = format!("\"evidence_id\":{placeholder}");
    let at = bytes
        .windows(member.len())
        .position(|window| window == member.as_bytes())
        .ok_or_else(|| Failure::new(FailureReason::Internal, "sealed record lost its id"))?;
    let value = at + member.len() - placeholder.len() + 1;
    bytes[value..value + evidence_id.len()].copy_from_slice(evidence_id.as_bytes());
    cx.check()?;
    Ok(Sealed { evidence_id, bytes })
}

/// A record's top-level members, in key order, as canonical pieces.
type Members<'a> = BTreeMap<&'a str, Piece<'a>>;

/// The top-level fields of a canonical record, as slices of its text, in key order. Record
/// keys are plain ASCII, so byte order is RFC 8785's UTF-16 order.
fn raw_fields(bytes: &[u8]) -> Result<BTreeMap<&str, &str>, Failure> {
    let fields: BTreeMap<&str, &serde_json::value::RawValue> = serde_json::from_slice(bytes)
        .map_err(|err| {
            Failure::new(
                FailureReason::Internal,
                "evidence record is not a JSON object",
            )
            .with_source(err)
        })?;
    if !fields.keys().all(|k| {
        k.bytes()
            .all(|b| b.is_ascii() && b != b'"' && b != b'\\' && b >= 0x20)
    }) {
        return Err(Failure::new(
            FailureReason::Internal,
            "evidence record keys are not plain ASCII",
        ));
    }
    Ok(fields.into_iter().map(|(k, v)| (k, v.get())).collect())
}

/// [`evidence_id_of`] for a record given as canonical bytes (with or without its
/// `evidence_id`): the projection is streamed from the bytes into the hasher, never
/// re-serialized. Gives the same id as [`evidence_id_of`] on the parsed value.
pub fn evidence_id_of_canonical(bytes: &[u8]) -> Result<String, Failure> {
    let fields = raw_fields(bytes)?;
    evidence_id_of_members(
        &fields
            .into_iter()
            .map(|(key, text)| (key, Piece::Verbatim(text)))
            .collect(),
    )
}

/// The id of a record given as its top-level members (with or without `evidence_id`), each
/// canonical: the projection is streamed into the hasher.
pub fn evidence_id_of_members(given: &BTreeMap<&str, Piece<'_>>) -> Result<String, Failure> {
    let reduced;
    let mut fields: Vec<(&str, Piece<'_>)> = given
        .iter()
        .filter(|(key, _)| **key != "evidence_id")
        .map(|(key, piece)| (*key, *piece))
        .collect();
    if let Some((_, subject)) = fields.iter_mut().find(|(key, _)| *key == "subject")
        && !matches!(subject, Piece::Verbatim("null"))
    {
        let Piece::Verbatim(text) = subject else {
            return Err(Failure::new(
                FailureReason::Internal,
                "evidence subject is not canonical text",
            ));
        };
        let parsed: serde_json::Map<String, Value> = serde_json::from_str(text).map_err(|err| {
            Failure::new(FailureReason::Internal, "evidence subject is not an object")
                .with_source(err)
        })?;
        let kept: serde_json::Map<String, Value> = parsed
            .into_iter()
            .filter(|(key, _)| matches!(key.as_str(), "digest" | "format" | "architecture"))
            .collect();
        reduced = CanonicalJson::of(&kept).map_err(|err| {
            Failure::new(
                FailureReason::Internal,
                "evidence subject has no canonical form",
            )
            .with_source(err)
        })?;
        *subject = Piece::Json(&reduced);
    }
    let digest = CanonicalJson::digest_object(fields).map_err(|err| {
        Failure::new(
            FailureReason::Internal,
            "evidence record has no canonical form",
        )
        .with_source(err)
    })?;
    Ok(format!("ev_{digest}"))
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

#[cfg(test)]
mod tests {
    use super::*;
    use rea_core::{CancelToken, ProgressReporter};
    use rea_exec::StageKind;
    use rea_hash::canonical_bytes;

    fn draft(subject: Option<Subject>, result: Value) -> EvidenceDraft {
        EvidenceDraft {
            subject,
            provider: Provider {
                id: "p".into(),
                name: "P".into(),
                version: "1".into(),
            },
            predicate_type: "rea.analysis/v2".into(),
            operation: "inventory_artifact".into(),
            parameters: json!({"z": 1, "a": [true, null]}),
            normalized_result: result,
            result_parts: Vec::new(),
            confidence: Confidence::Observed,
            authority: Authority::ShippedArtifact,
            limitations: vec!["b".into(), "a".into()],
            locations: vec![Location::ArtifactPath("x/y".into())],
            evidence_links: vec![],
        }
    }

    #[test]
    fn spliced_sealing_equals_serializing_the_whole_record() {
        let subject = Subject {
            name: "app.asar".into(),
            sha256: "ab".repeat(32),
            format: "asar".into(),
            local_path: "/tmp/app.asar".into(),
        };
        let results = [
            json!({"nodes": [{"k": "é \" \\ \u{1F600}"}], "count": 3}),
            json!({}),
            json!({"deep": {"b": [1, 2, {"a": "x"}], "a": null}}),
        ];
        let (cancel, progress) = (CancelToken::new(), ProgressReporter::silent());
        let cx = StageCx::detached(StageKind::Seal, &cancel, &progress);
        for result in results {
            for subject in [Some(subject.clone()), None] {
                let sealed = seal(&cx, draft(subject.clone(), result.clone())).unwrap();
                let mut expected = record_value(draft(subject.clone(), result.clone()));
                let id = evidence_id_of(&expected).unwrap();
                assert_eq!(sealed.evidence_id(), id);
                expected["evidence_id"] = Value::String(id.clone());
                assert_eq!(sealed.bytes(), canonical_bytes(&expected).unwrap());
                assert_eq!(evidence_id_of_canonical(sealed.bytes()).unwrap(), id);
                // The same result with a large member given as composed parts seals to the
                // same bytes as the whole result serialized at once.
                let items = vec![
                    CanonicalJson::of(&json!({"node_id": "n1", "b": [1]})).unwrap(),
                    CanonicalJson::of(&json!("evidence_id")).unwrap(),
                ];
                let graph = Composed::object(vec![
                    ("nodes".to_owned(), Composed::Items(items)),
                    (
                        "graph_id".to_owned(),
                        Composed::Text(CanonicalJson::string("g")),
                    ),
                ])
                .unwrap();
                let mut parted = draft(subject.clone(), result.clone());
                parted.result_parts = vec![("graph".to_owned(), graph)];
                let sealed = seal(&cx, parted).unwrap();
                let mut whole = result.clone();
                whole["graph"] =
                    json!({"nodes": [{"node_id": "n1", "b": [1]}, "evidence_id"], "graph_id": "g"});
                let mut expected = record_value(draft(subject, whole));
                let id = evidence_id_of(&expected).unwrap();
                assert_eq!(sealed.evidence_id(), id);
                expected["evidence_id"] = Value::String(id);
                assert_eq!(sealed.bytes(), canonical_bytes(&expected).unwrap());
            }
        }
    }
}

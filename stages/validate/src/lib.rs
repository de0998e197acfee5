//! The validate stage: the last gate before anything is published.
//!
//! [`validate`] takes sealed bytes, not the in-memory value that produced them, and checks:
//! 1. the bytes parse as JSON and are already in canonical (RFC 8785) form;
//! 2. the record has exactly the Evidence keys, with the documented types and vocabularies;
//! 3. `evidence_id` equals the id recomputed from the semantic projection;
//! 4. the operation's own invariants hold: for `inventory_artifact`, every node, occurrence
//!    and edge id is recomputed from its fields, orders and page arithmetic are checked, the
//!    manifest id is recomputed, and when the result holds every item, `graph_sha256` too.
//!
//! A failure here is a bug or a tampered record, never bad user input; the job façade maps it
//! to an internal error and publishes nothing.

mod compare;
mod extract;
mod inspect;
mod inventory;
mod javascript;
mod record;

use rea_core::{Failure, FailureReason};
use rea_exec::StageCx;
use serde_json::Value;

/// A record that passed every check.
#[derive(Debug, Clone)]
pub struct Validated {
    evidence_id: String,
    record: Value,
    /// The canonical bytes that were validated.
    bytes: Vec<u8>,
}

impl Validated {
    pub fn evidence_id(&self) -> &str {
        &self.evidence_id
    }

    pub fn record(&self) -> &Value {
        &self.record
    }

    pub fn into_record(self) -> Value {
        self.record
    }

    /// The validated canonical bytes of the record.
    pub fn bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// The id and the validated canonical bytes, dropping the parsed value.
    pub fn into_bytes(self) -> (String, Vec<u8>) {
        rea_hash::drop_value_parallel(self.record);
        (self.evidence_id, self.bytes)
    }
}

/// Why a record was rejected.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("evidence failed validation at {at}: {problem}")]
pub struct ValidationError {
    /// A JSON pointer to the offending value.
    pub at: String,
    pub problem: String,
}

impl ValidationError {
    pub(crate) fn new(at: impl Into<String>, problem: impl Into<String>) -> ValidationError {
        ValidationError {
            at: at.into(),
            problem: problem.into(),
        }
    }
}

impl From<ValidationError> for Failure {
    fn from(err: ValidationError) -> Failure {
        Failure::new(
            FailureReason::Internal,
            "result failed validation and was not published",
        )
        .with_detail("at", err.at.clone())
        .with_detail("problem", err.problem.clone())
        .with_source(err)
    }
}

/// Validates the bytes a job sealed for the input at `local_path`. Cancellation is checked
/// before and after the work.
pub fn validate(cx: &StageCx<'_>, bytes: &[u8], local_path: &str) -> Result<Validated, Failure> {
    cx.check()?;
    let validated = validate_for_input(bytes, local_path)?;
    cx.check()?;
    Ok(validated)
}

/// Validates a derived record (one compared or traced from other Evidence): it has no subject.
pub fn validate_derived(cx: &StageCx<'_>, bytes: &[u8]) -> Result<Validated, Failure> {
    cx.check()?;
    let validated = validate_bytes(bytes)?;
    if !validated.record["subject"].is_null() {
        return Err(ValidationError::new("/subject", "a derived record has no subject").into());
    }
    cx.check()?;
    Ok(validated)
}

/// [`validate_bytes`], plus the two subject fields the id leaves out on purpose: `local_path`
/// must be the input the job resolved, and `name` its last component. Together with the id
/// and the canonical-form check, every byte of the record is then pinned.
pub fn validate_for_input(bytes: &[u8], local_path: &str) -> Result<Validated, ValidationError> {
    let validated = validate_bytes(bytes)?;
    let subject = &validated.record["subject"];
    if subject["local_path"] != local_path {
        return Err(ValidationError::new(
            "/subject/local_path",
            "is not the input the job read",
        ));
    }
    let name = local_path
        .rsplit('/')
        .find(|part| !part.is_empty())
        .unwrap_or("/");
    if subject["name"] != name {
        return Err(ValidationError::new(
            "/subject/name",
            "is not the last component of local_path",
        ));
    }
    Ok(validated)
}

/// The checks themselves, without a stage context.
pub fn validate_bytes(bytes: &[u8]) -> Result<Validated, ValidationError> {
    let record: Value = rea_hash::parse_value_parallel(bytes)
        .map_err(|err| ValidationError::new("", format!("not json: {err}")))?;
    let canonical = rea_hash::canonical_value_bytes(&record)
        .map_err(|_| ValidationError::new("", "no canonical form"))?;
    if canonical != bytes {
        return Err(ValidationError::new("", "bytes are not in canonical form"));
    }
    let evidence_id = record::check(&record, &canonical)?;
    let operation = record["operation"].as_str().unwrap_or_default();
    let result = &record["normalized_result"];
    match operation {
        "inventory_artifact" => inventory::check(&record, result)?,
        "extract_artifact" => extract::check(&record, result)?,
        "inspect_artifact" => inspect::check(&record, result)?,
        "compare_artifacts" => compare::check(&record, result)?,
        "analyze_javascript_application" => javascript::check(&record, result)?,
        other => {
            return Err(ValidationError::new(
                "/operation",
                format!("no validator for operation {other}"),
            ));
        }
    }
    Ok(Validated {
        evidence_id,
        record,
        bytes: canonical,
    })
}

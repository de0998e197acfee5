//! The validate stage: the last gate before anything is published.
//!
//! [`validate`] takes sealed bytes, not the in-memory value that produced them, and checks:
//! 1. the bytes parse as JSON and are already in canonical (RFC 8785) form (checked on the
//!    text, without building a value: [`rea_hash::is_canonical`]);
//! 2. the record has exactly the Evidence keys, with the documented types and vocabularies;
//! 3. `evidence_id` equals the id recomputed from the semantic projection;
//! 4. the operation's own invariants hold: for `inventory_artifact`, every node, occurrence
//!    and edge id is recomputed from its fields, orders and page arithmetic are checked, the
//!    manifest id is recomputed, and when the result holds every item, `graph_sha256` too;
//!    for `analyze_javascript_application`, every node, observation and edge id and the graph
//!    id are recomputed from slices of the canonical text (canonical because the whole is),
//!    so the graph (nearly all of such a record) is never parsed into a value.
//!
//! A failure here is a bug or a tampered record, never bad user input; the job façade maps it
//! to an internal error and publishes nothing.

mod compare;
mod extract;
mod inspect;
mod inventory;
mod javascript;
mod record;
mod semantics;
mod semtrace;
mod shapes;
mod sources;
mod trace;
mod versions;

use rea_core::{Failure, FailureReason};
use rea_exec::StageCx;
use serde_json::Value;

/// A record that passed every check.
#[derive(Debug, Clone)]
pub struct Validated {
    evidence_id: String,
    /// The record as a value; an application graph's `nodes` and `edges` are empty arrays
    /// here (they were checked on the text, and are only in `bytes`).
    record: Value,
    /// An application graph's node and edge counts.
    graph_size: Option<(usize, usize)>,
    /// Where the record's `normalized_result` sits in `bytes`.
    result: std::ops::Range<usize>,
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

    /// The node and edge counts of an application graph record.
    pub fn graph_size(&self) -> Option<(usize, usize)> {
        self.graph_size
    }

    /// The validated canonical bytes of the record.
    pub fn bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// The canonical text of the record's `normalized_result`, a slice of [`Self::bytes`].
    pub fn result_bytes(&self) -> &[u8] {
        &self.bytes[self.result.clone()]
    }

    /// The id, the validated canonical bytes and where `normalized_result` sits in them,
    /// dropping the parsed value.
    pub fn into_bytes(self) -> (String, Vec<u8>, std::ops::Range<usize>) {
        rea_hash::drop_value_parallel(self.record);
        (self.evidence_id, self.bytes, self.result)
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
pub fn validate(
    cx: &StageCx<'_>,
    bytes: impl Into<Vec<u8>>,
    local_path: &str,
) -> Result<Validated, Failure> {
    cx.check()?;
    let validated = validate_for_input(bytes, local_path)?;
    cx.check()?;
    Ok(validated)
}

/// Validates a derived record (one compared or traced from other Evidence): it has no subject.
pub fn validate_derived(cx: &StageCx<'_>, bytes: impl Into<Vec<u8>>) -> Result<Validated, Failure> {
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
pub fn validate_for_input(
    bytes: impl Into<Vec<u8>>,
    local_path: &str,
) -> Result<Validated, ValidationError> {
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

/// The checks themselves, without a stage context. The bytes are kept, not copied: given a
/// vector, they move into the [`Validated`].
pub fn validate_bytes(bytes: impl Into<Vec<u8>>) -> Result<Validated, ValidationError> {
    let bytes = bytes.into();
    let checked = check_text(&bytes)?;
    Ok(Validated {
        evidence_id: checked.evidence_id,
        record: checked.record,
        graph_size: checked.graph_size,
        result: checked.result,
        bytes,
    })
}

/// What [`check_text`] establishes about a record's bytes.
struct Checked {
    evidence_id: String,
    record: Value,
    graph_size: Option<(usize, usize)>,
    result: std::ops::Range<usize>,
}

fn check_text(bytes: &[u8]) -> Result<Checked, ValidationError> {
    let not_json = |err: serde_json::Error| ValidationError::new("", format!("not json: {err}"));
    let whole = std::str::from_utf8(bytes).map_err(|_| {
        not_json(
            serde_json::from_slice::<serde::de::IgnoredAny>(bytes)
                .err()
                .unwrap_or_else(|| serde::de::Error::custom("invalid UTF-8")),
        )
    })?;
    let RecordText {
        thin,
        graph,
        semantic,
        spans,
    } = record_text(whole)?;
    let (record, semantic) = rayon::join(
        || -> Result<Value, ValidationError> {
            if graph.is_some() {
                serde_json::from_slice(&thin).map_err(not_json)
            } else {
                rea_hash::parse_value_parallel(bytes).map_err(not_json)
            }
        },
        || semantic.map(semantics::SectionItems::parse).transpose(),
    );
    let (mut record, semantic) = (record?, semantic?);
    // The record's members, as slices of the thin text; the result's slice is mapped back to
    // the whole text (the graph's arrays, which the thin text leaves out, lie inside it).
    let members: std::collections::BTreeMap<&str, &serde_json::value::RawValue> =
        serde_json::from_slice(&thin).map_err(not_json)?;
    let removed: usize = spans.iter().map(|span| span.len() - 2).sum();
    let result = members.get("normalized_result").map(|raw| {
        let start = raw.get().as_ptr() as usize - thin.as_ptr() as usize;
        start..start + raw.get().len() + removed
    });
    let (expected, outcome) = rayon::join(
        || {
            // The id's projection streams from the slices of the text checked canonical.
            let text = whole;
            let pieces = members
                .iter()
                .map(|(key, raw)| {
                    let piece = match (*key, &result) {
                        ("normalized_result", Some(range)) => text.get(range.clone())?,
                        _ => raw.get(),
                    };
                    Some((*key, rea_hash::Piece::Verbatim(piece)))
                })
                .collect::<Option<_>>()?;
            rea_seal::evidence_id_of_members(&pieces).ok()
        },
        || operation_checks(&record, graph, semantic.as_ref()),
    );
    let evidence_id = record::check(&record, expected.as_deref())?;
    let graph_size = outcome?;
    // The semantic section's items, checked, go back into the record its readers query.
    if let Some(items) = semantic {
        items.restore(&mut record["normalized_result"]["semantic_graph"]);
    }
    Ok(Checked {
        evidence_id,
        record,
        graph_size,
        result: result.unwrap_or_default(),
    })
}

/// The checks of the record's operation; an application graph's node and edge counts.
fn operation_checks(
    record: &Value,
    graph: Option<javascript::GraphItems<'_>>,
    semantic: Option<&semantics::SectionItems<'_>>,
) -> Result<Option<(usize, usize)>, ValidationError> {
    let operation = record["operation"].as_str().unwrap_or_default();
    let result = &record["normalized_result"];
    match operation {
        "inventory_artifact" => inventory::check(record, result)?,
        "extract_artifact" => extract::check(record, result)?,
        "inspect_artifact" => inspect::check(record, result)?,
        "compare_artifacts" => compare::check(record, result)?,
        "compare_application_versions" => versions::check(record, result)?,
        "trace_application_feature" => trace::check(record, result)?,
        "compare_source_to_bundle" => sources::check(record, result)?,
        "compare_javascript_export_shapes" => shapes::check(record, result)?,
        "trace_javascript_semantics" => semtrace::check(record, result)?,
        "analyze_javascript_application" => {
            return Ok(Some(javascript::check(record, result, graph, semantic)?));
        }
        other => {
            return Err(ValidationError::new(
                "/operation",
                format!("no validator for operation {other}"),
            ));
        }
    }
    Ok(None)
}

/// Where an application graph's arrays sit in a record's text, if it has them.
#[derive(serde::Deserialize)]
#[serde(bound(deserialize = "G: serde::Deserialize<'de>"))]
struct GraphArrays<'a, G> {
    #[serde(borrow, default = "Option::default")]
    normalized_result: Option<ResultArrays<'a, G>>,
    #[serde(borrow, default)]
    operation: Option<std::borrow::Cow<'a, str>>,
}

#[derive(serde::Deserialize)]
#[serde(bound(deserialize = "'de: 'a, G: serde::Deserialize<'de>"))]
struct ResultArrays<'a, G> {
    #[serde(default = "Option::default")]
    graph: Option<G>,
    /// Read as text here, and for its items apart: a malformed section must not hide the
    /// graph's arrays; its own check then reports it.
    #[serde(borrow, default)]
    semantic_graph: Option<&'a serde_json::value::RawValue>,
}

/// A record's text, checked to be canonical, with an application graph's `nodes` and `edges`
/// (nearly all of such a record) left out: `thin` has `[]` in their place (the whole text when
/// there is no graph), and their items are checked one by one by the graph's validator.
struct RecordText<'a> {
    thin: std::borrow::Cow<'a, [u8]>,
    graph: Option<javascript::GraphItems<'a>>,
    /// The semantic section's arrays, left out of `thin` like the graph's.
    semantic: Option<semantics::SectionText<'a>>,
    /// Where the left-out arrays sit in the whole text, in order.
    spans: Vec<std::ops::Range<usize>>,
}

fn record_text(whole: &str) -> Result<RecordText<'_>, ValidationError> {
    let bytes = whole.as_bytes();
    let not_json = |err: serde_json::Error| ValidationError::new("", format!("not json: {err}"));
    let canonical = |text: &[u8]| match rea_hash::is_canonical(text) {
        Ok(true) => Ok(()),
        Ok(false) => Err(ValidationError::new("", "bytes are not in canonical form")),
        Err(err) => Err(not_json(err)),
    };
    type Found<'a, G> = (Option<G>, Option<&'a serde_json::value::RawValue>);
    fn graph_of<'a, G: serde::Deserialize<'a>>(whole: &'a str) -> Found<'a, G> {
        serde_json::from_str::<GraphArrays<'a, G>>(whole)
            .ok()
            .filter(|a| a.operation.as_deref() == Some("analyze_javascript_application"))
            .and_then(|a| a.normalized_result)
            .map_or((None, None), |r| (r.graph, r.semantic_graph))
    }
    // One scan finds the graph's arrays and their items (and the semantic section's); only a
    // graph with an empty array (which has no item to locate it by) is scanned again.
    let (found, semantic) = graph_of::<javascript::GraphItemsText<'_>>(whole);
    let items = match found {
        Some(found) => match javascript::GraphItems::located(whole, found)? {
            Some(items) => Some(items),
            None => graph_of::<javascript::GraphText<'_>>(whole)
                .0
                .map(javascript::GraphItems::scan)
                .transpose()?,
        },
        None => None,
    };
    let Some(items) = items else {
        canonical(bytes)?;
        return Ok(RecordText {
            thin: std::borrow::Cow::Borrowed(bytes),
            graph: None,
            semantic: None,
            spans: Vec::new(),
        });
    };
    let semantic = semantic
        .and_then(|raw| serde_json::from_str::<semantics::SectionItemsText<'_>>(raw.get()).ok())
        .map(|found| semantics::SectionText::located(whole, found))
        .transpose()?;
    let mut spans = items.spans(whole).to_vec();
    spans.extend(semantic.iter().flat_map(|s| s.spans(whole)));
    spans.sort_by_key(|span| span.start);
    let mut thin =
        Vec::with_capacity(bytes.len() - spans.iter().map(|s| s.len()).sum::<usize>() + 4);
    let mut at = 0;
    for span in &spans {
        thin.extend_from_slice(&bytes[at..span.start]);
        thin.extend_from_slice(b"[]");
        at = span.end;
    }
    thin.extend_from_slice(&bytes[at..]);
    // `[]` is canonical, so the whole is canonical when this is and the arrays are.
    canonical(&thin)?;
    Ok(RecordText {
        thin: std::borrow::Cow::Owned(thin),
        graph: Some(items),
        semantic,
        spans,
    })
}

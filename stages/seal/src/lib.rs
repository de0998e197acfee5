//! The seal stage: a result becomes an Evidence record, serialized as canonical JSON, whose id
//! is the SHA-256 of its own content.
//!
//! # The Evidence record (schema version 2)
//!
//! | field | value |
//! |---|---|
//! | `schema_version` | `2` |
//! | `evidence_id` | `"ev_" + lowercase_hex(SHA-256(JCS(semantic projection)))` |
//! | `subject` | `null`, or `{name, digest: {sha256}, format, architecture, local_path}`: what was analysed |
//! | `provider` | `{id, name, version}`: the REA component that produced the result |
//! | `predicate_type` | `"rea.analysis/v2"` unless a tool names a more specific one |
//! | `operation` | the tool name, such as `inventory_artifact` |
//! | `parameters` | the request options, *without* the input path (that lives in `subject.local_path`) |
//! | `raw_result` | `null` |
//! | `normalized_result` | the tool's result; equal to the `result` returned beside the record |
//! | `confidence` | `observed`, `derived` or `inferred` |
//! | `authority` | `shipped-artifact`, `controlled-replay`, `historical-reference`, `external-service` or `analyst-inference` |
//! | `environment` | `null` |
//! | `limitations` | strings, in a deterministic order |
//! | `locations` | `{kind: "artifact-path", path}` objects, one per item the result lists |
//! | `evidence_links` | ids of the Evidence this record was derived from |
//!
//! The **semantic projection** is the record without `evidence_id`, and with `subject` reduced
//! to `{digest, format, architecture}`: neither where the input sits (`local_path`) nor what it
//! is called (`name`) changes the id, so the same bytes analysed at two paths give one id.
//! JCS is RFC 8785 (`rea_hash::canonical_bytes`). Sealed bytes are the JCS of the whole record.
//!
//! Start with [`seal`]; `rea-validate` re-reads what it produced.

mod record;

pub use record::{
    Authority, Confidence, EvidenceDraft, Location, Provider, RECORD_KEYS, Sealed, Subject,
    evidence_id_of, evidence_id_of_canonical, evidence_id_of_members, seal,
};

//! An application graph's items as the workflows over a validated `analyze_javascript_application`
//! record read them (`versions`, `trace`): only the fields they use, everything else skipped.

use serde::Deserialize;
use serde_json::{Map, Value};

#[derive(Deserialize)]
pub(crate) struct CoverageIn {
    pub(crate) status: String,
    #[serde(default)]
    pub(crate) truncated: bool,
}

#[derive(Deserialize)]
pub(crate) struct NodeIn {
    pub(crate) node_id: String,
    pub(crate) kind: String,
    pub(crate) identity: Map<String, Value>,
    pub(crate) observations: Vec<ObservationIn>,
}

#[derive(Deserialize)]
pub(crate) struct ObservationIn {
    pub(crate) label: Option<String>,
    #[serde(default)]
    pub(crate) properties: Map<String, Value>,
    pub(crate) evidence: EvidenceIn,
}

/// The evidence of an observation or edge: where, and how it is known.
#[derive(Deserialize)]
pub(crate) struct EvidenceIn {
    #[serde(default)]
    pub(crate) location: Value,
    #[serde(default)]
    pub(crate) state: String,
    #[serde(default)]
    pub(crate) authority: String,
}

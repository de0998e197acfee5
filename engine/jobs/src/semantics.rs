//! `trace_javascript_semantics`: a query over the semantic relation graph of one analysis of
//! a JavaScript application, from a seed along data, call, promise and effect relations.
//!
//! The input is a complete `analyze_javascript_application` Evidence record (or the `{result,
//! evidence_id, evidence}` envelope tools return), validated again before use; its
//! `semantic_graph` section is the source. Plan: graph (trace) → seal → validate; nothing is
//! read from disk and nothing is run. The query itself is [`rea_graph::semtrace`].

use rea_core::Failure;
use serde_json::json;

use crate::common::{Side, derive, validated_application};
use crate::engine::{Engine, JobControl, Published};
use crate::inventory::invalid;

pub use rea_graph::semtrace::{
    DIRECTIONS, Filter, LIMITS, Limits, OPERATION, Query, SEED_KINDS, Seed,
};

/// A query to run over one analysis.
#[derive(Debug, Clone)]
pub struct SemanticTraceRequest {
    pub application: Side,
    pub query: Query,
}

impl Engine {
    /// Runs a semantic query over an application analysis. Returns only validated Evidence.
    pub fn trace_javascript_semantics(
        &self,
        request: SemanticTraceRequest,
        ctl: &JobControl<'_>,
    ) -> Result<Published, Failure> {
        if let Err((field, message)) = request.query.check() {
            return Err(invalid(field, message));
        }
        let SemanticTraceRequest { application, query } = request;
        derive(self, ctl, "query complete", move |cx| {
            let validated = validated_application(&application, "application")?;
            let id = validated.evidence_id().to_owned();
            let result =
                rea_graph::semtrace::trace(cx, &validated.record()["normalized_result"], &query)?;
            drop(validated);
            let mut parameters = query.json();
            parameters["limits"] = query.limits.json();
            parameters["cursor"] = json!(query.cursor);
            Ok(crate::common::application_workflow_draft(
                "rea.javascript-semantic-trace/v1",
                OPERATION,
                result,
                parameters,
                vec![id],
            ))
        })
    }
}

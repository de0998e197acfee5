//! `compare_application_versions`: two analyses of two versions of one JavaScript application,
//! node by node.
//!
//! Inputs are complete `analyze_javascript_application` Evidence records (or the `{result,
//! evidence_id, evidence}` envelopes tools return), validated again before use: every node,
//! observation, edge and graph id is recomputed. Plan: graph (compare) → seal → validate;
//! nothing is read from disk. The matching itself is [`rea_graph::versions`].

use rea_core::Failure;
use rea_exec::StageCx;
use rea_graph::versions::{self, Limits, Version};
use rea_seal::EvidenceDraft;
use serde_json::{Value, json};

use crate::common::derive;
use crate::engine::{Engine, JobControl, Published};
use crate::inventory::in_range;

pub use rea_graph::versions::{
    DEFAULT_CANDIDATE_NODES, DEFAULT_COMPARISON_ITEMS, DEFAULT_GRAPH_EDGES, DEFAULT_GRAPH_NODES,
    MAX_CANDIDATE_NODES, MAX_COMPARISON_ITEMS, MAX_GRAPH_EDGES, MAX_GRAPH_NODES, OPERATION,
    STANDING_LIMITATIONS,
};

pub use crate::common::Side;

/// Two application records to compare: `left` the earlier version, `right` the later.
#[derive(Debug, Clone)]
pub struct VersionsRequest {
    pub left: Side,
    pub right: Side,
    /// Items listed inline, 1 to [`MAX_COMPARISON_ITEMS`]; the summary counts all.
    pub max_comparison_items: usize,
    /// Candidates listed per ambiguous item, 1 to [`MAX_CANDIDATE_NODES`].
    pub max_candidate_nodes: usize,
    /// Nodes of the `changed_from` graph, 1 to [`MAX_GRAPH_NODES`].
    pub max_graph_nodes: usize,
    /// Edges of the `changed_from` graph, 1 to [`MAX_GRAPH_EDGES`].
    pub max_graph_edges: usize,
}

impl Engine {
    /// Compares two application analyses. Returns only validated Evidence. The request is
    /// taken by value: its records may be hundreds of megabytes each.
    pub fn compare_application_versions(
        &self,
        request: VersionsRequest,
        ctl: &JobControl<'_>,
    ) -> Result<Published, Failure> {
        for (field, value, most) in [
            (
                "max_comparison_items",
                request.max_comparison_items,
                MAX_COMPARISON_ITEMS,
            ),
            (
                "max_candidate_nodes",
                request.max_candidate_nodes,
                MAX_CANDIDATE_NODES,
            ),
            ("max_graph_nodes", request.max_graph_nodes, MAX_GRAPH_NODES),
            ("max_graph_edges", request.max_graph_edges, MAX_GRAPH_EDGES),
        ] {
            in_range(field, value as u64, 1, most as u64)?;
        }
        let VersionsRequest {
            left,
            right,
            max_comparison_items,
            max_candidate_nodes,
            max_graph_nodes,
            max_graph_edges,
        } = request;
        derive(self, ctl, "comparison complete", move |cx| {
            let (left, right) =
                rayon::join(|| side(cx, "left", &left), || side(cx, "right", &right));
            let (left, right) = (left?, right?);
            cx.check()?;
            let limits = Limits {
                max_comparison_items,
                max_candidate_nodes,
                max_graph_nodes,
                max_graph_edges,
            };
            let parameters = json!({
                "max_candidate_nodes": limits.max_candidate_nodes,
                "max_comparison_items": limits.max_comparison_items,
                "max_graph_edges": limits.max_graph_edges,
                "max_graph_nodes": limits.max_graph_nodes,
            });
            let result = versions::compare(
                cx,
                [&left.1, &right.1],
                [left.2.result_bytes(), right.2.result_bytes()],
                limits,
                &parameters,
            )?;
            Ok(draft(&left.0, &right.0, result, parameters))
        })
    }
}

/// One side: its evidence id, its graph, and its validated record (whose text the graph's
/// node spans index).
fn side(
    cx: &StageCx<'_>,
    name: &str,
    input: &Side,
) -> Result<(String, Version, rea_validate::Validated), Failure> {
    let validated = crate::common::validated_application(input, name)?;
    let id = validated.evidence_id().to_owned();
    let version = Version::read(cx, name, &id, validated.result_bytes())?;
    Ok((id, version, validated))
}

fn draft(left: &str, right: &str, result: Value, parameters: Value) -> EvidenceDraft {
    crate::common::application_workflow_draft(
        "rea.application-comparison/v1",
        OPERATION,
        result,
        parameters,
        vec![left.to_owned(), right.to_owned()],
    )
}

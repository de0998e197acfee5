//! `compare_javascript_export_shapes`: one export of one application analysis against one
//! export of another (or of the same), by the shapes its `export_shapes` section records.
//!
//! Inputs are complete `analyze_javascript_application` Evidence records (or the envelopes
//! tools return), validated again before use. Plan: graph (compare) → seal → validate; nothing
//! is read from disk and nothing is run. The comparison itself is [`rea_graph::shapes`].

use rea_core::{Failure, FailureReason};
use rea_graph::shapes::{self, Limits};
use serde_json::json;

use crate::common::derive;
use crate::engine::{Engine, JobControl, Published};
use crate::inventory::{in_range, invalid};

pub use rea_graph::shapes::{
    DEFAULT_CANDIDATES, DEFAULT_CHANGES, MAX_CANDIDATES, MAX_CHANGES, MAX_SELECTOR, OPERATION,
    Selector,
};

pub use crate::common::Side;

/// Two exports to compare: `left` the earlier, `right` the later.
#[derive(Debug, Clone)]
pub struct ExportShapesRequest {
    pub left: Side,
    pub right: Side,
    pub left_export: Selector,
    pub right_export: Selector,
    /// Changes listed, 1 to [`MAX_CHANGES`]; the summary counts all.
    pub max_changes: usize,
    /// Candidates listed for a selector that matches no export, 0 to [`MAX_CANDIDATES`].
    pub max_candidates: usize,
}

impl Engine {
    /// Compares two exports' shapes. Returns only validated Evidence.
    pub fn compare_javascript_export_shapes(
        &self,
        request: ExportShapesRequest,
        ctl: &JobControl<'_>,
    ) -> Result<Published, Failure> {
        in_range(
            "max_changes",
            request.max_changes as u64,
            1,
            MAX_CHANGES as u64,
        )?;
        in_range(
            "max_candidates",
            request.max_candidates as u64,
            0,
            MAX_CANDIDATES as u64,
        )?;
        let (l, r) = (&request.left_export, &request.right_export);
        for (field, text) in [
            ("left_module_path", Some(&l.module_path)),
            ("left_module_key", l.module_key.as_ref()),
            ("left_export_name", Some(&l.export_name)),
            ("right_module_path", Some(&r.module_path)),
            ("right_module_key", r.module_key.as_ref()),
            ("right_export_name", Some(&r.export_name)),
        ] {
            if text.is_some_and(|t| t.is_empty() || t.len() > MAX_SELECTOR) {
                return Err(invalid(
                    field,
                    format!("{field} must be 1 to {MAX_SELECTOR} bytes"),
                ));
            }
        }
        let ExportShapesRequest {
            left,
            right,
            left_export,
            right_export,
            max_changes,
            max_candidates,
        } = request;
        derive(self, ctl, "comparison complete", move |cx| {
            let (left, right) = rayon::join(|| side("left", &left), || side("right", &right));
            let (left, right) = (left?, right?);
            cx.check()?;
            if left.exports.is_none() && right.exports.is_none() {
                return Err(Failure::new(
                    FailureReason::InvalidInput,
                    "neither analysis records export shapes: analyze both versions again with this rea",
                )
                .with_detail("field", "left"));
            }
            let parameters = json!({
                "left_module_path": left_export.module_path,
                "left_export_name": left_export.export_name,
                "right_module_path": right_export.module_path,
                "right_export_name": right_export.export_name,
                "left_module_key": left_export.module_key,
                "right_module_key": right_export.module_key,
                "max_changes": max_changes,
                "max_candidates": max_candidates,
            });
            let result = shapes::compare(
                cx,
                [&left, &right],
                [&left_export, &right_export],
                Limits {
                    max_changes,
                    max_candidates,
                },
                &parameters,
            )?;
            Ok(crate::common::application_workflow_draft(
                "rea.export-shape-comparison/v1",
                OPERATION,
                result,
                parameters,
                vec![left.evidence_id.clone(), right.evidence_id.clone()],
            ))
        })
    }
}

fn side(name: &str, input: &Side) -> Result<shapes::Side, Failure> {
    let validated = crate::common::validated_application(input, name)?;
    shapes::Side::read(name, validated.evidence_id(), validated.result_bytes())
}

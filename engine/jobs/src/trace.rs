//! `trace_application_feature`: a feature traced through one analysis of a JavaScript
//! application, from a seed to the application's boundary and its native add-ons.
//!
//! The input is a complete `analyze_javascript_application` Evidence record (or the `{result,
//! evidence_id, evidence}` envelope tools return), validated again before use, with up to 64
//! native Evidence records (validated too), whose subject digests link native handoffs. Plan:
//! graph (trace) → seal → validate; nothing is read from disk. The trace itself is
//! [`rea_graph::trace`].

use rea_core::Failure;
use rea_exec::StageCx;
use rea_graph::trace::{self, Application, NativeEvidence};
use rea_seal::EvidenceDraft;
use serde_json::{Value, json};

use crate::common::{Side, derive, validated_application};
use crate::engine::{Engine, JobControl, Published};
use crate::inventory::invalid;

pub use rea_graph::trace::{
    DIRECTIONS, LIMITS, Limits, MAX_NATIVE_OBSERVATIONS, OPERATION, SEED_KINDS,
    STANDING_LIMITATIONS, Seed,
};

/// A trace to run.
#[derive(Debug, Clone)]
pub struct TraceRequest {
    pub application: Side,
    /// Native Evidence records: a handoff whose add-on's SHA-256 equals one's subject digest
    /// is `evidence-linked`.
    pub native_observations: Vec<Side>,
    pub seed: Seed,
    /// `outgoing`, `incoming` or `both`.
    pub direction: String,
    pub limits: Limits,
}

impl Engine {
    /// Traces a feature through an application analysis. Returns only validated Evidence. The
    /// request is taken by value: its record may be hundreds of megabytes.
    pub fn trace_application_feature(
        &self,
        request: TraceRequest,
        ctl: &JobControl<'_>,
    ) -> Result<Published, Failure> {
        check(&request)?;
        let TraceRequest {
            application,
            native_observations,
            seed,
            direction,
            limits,
        } = request;
        derive(self, ctl, "trace complete", move |cx| {
            let validated = validated_application(&application, "application")?;
            let native = native_evidence(cx, &native_observations)?;
            let id = validated.evidence_id().to_owned();
            let app = Application::read(cx, &id, validated.result_bytes())?;
            let result = trace::trace(cx, &app, &seed, &direction, &limits, &native)?;
            drop(app);
            let links: Vec<String> = result["evidence_links"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|l| l.as_str().map(str::to_owned))
                .collect();
            let parameters =
                json!({"seed": seed.json(), "direction": direction, "limits": limits.json()});
            Ok(draft(result, parameters, links))
        })
    }
}

/// The request's own checks, before anything is read.
fn check(request: &TraceRequest) -> Result<(), Failure> {
    let seed = &request.seed;
    if !SEED_KINDS.contains(&seed.kind.as_str()) {
        return Err(invalid(
            "seed.kind",
            format!("seed.kind must be one of {}", SEED_KINDS.join(", ")),
        ));
    }
    if seed.value.is_empty() || seed.value.chars().count() > 4096 {
        return Err(invalid(
            "seed.value",
            "seed.value must be 1 to 4096 characters".to_owned(),
        ));
    }
    if let Some(m) = &seed.matching
        && m != "exact"
        && m != "contains"
    {
        return Err(invalid(
            "seed.match",
            "seed.match must be exact or contains".to_owned(),
        ));
    }
    if !DIRECTIONS.contains(&request.direction.as_str()) {
        return Err(invalid(
            "direction",
            "direction must be outgoing, incoming or both".to_owned(),
        ));
    }
    if let Some((name, least, most)) = request.limits.out_of_range() {
        return Err(invalid(
            name,
            format!("{name} must be between {least} and {most}"),
        ));
    }
    if request.native_observations.len() > MAX_NATIVE_OBSERVATIONS {
        return Err(invalid(
            "native_observations",
            format!("at most {MAX_NATIVE_OBSERVATIONS} native Evidence records"),
        ));
    }
    Ok(())
}

/// Each native record, validated, with its id unique.
fn native_evidence(cx: &StageCx<'_>, inputs: &[Side]) -> Result<Vec<NativeEvidence>, Failure> {
    let mut out: Vec<NativeEvidence> = Vec::with_capacity(inputs.len());
    for (i, input) in inputs.iter().enumerate() {
        cx.check()?;
        let name = format!("native_observations[{i}]");
        let validated = input.validated(&name)?;
        let record = validated.record();
        let id = validated.evidence_id().to_owned();
        if out.iter().any(|n| n.evidence_id == id) {
            return Err(invalid(
                "native_observations",
                format!("{name}: {id} is given twice"),
            ));
        }
        out.push(NativeEvidence {
            evidence_id: id,
            provider: record["provider"]["id"]
                .as_str()
                .unwrap_or_default()
                .to_owned(),
            subject_sha256: record["subject"]["digest"]["sha256"]
                .as_str()
                .map(str::to_owned),
        });
    }
    Ok(out)
}

fn draft(result: Value, parameters: Value, links: Vec<String>) -> EvidenceDraft {
    crate::common::application_workflow_draft(
        "rea.application-feature-trace/v1",
        OPERATION,
        result,
        parameters,
        links,
    )
}

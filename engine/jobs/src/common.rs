//! What every artifact job shares: input resolution, the validate node, and the subject and
//! provider of an artifact record.

use std::path::Path;

use rea_core::{Failure, FailureReason};
use rea_exec::{Dep, NodeId, Placement, Plan, PlanError, RunReport, StageKind};
use rea_graph::artifact::Manifest;
use rea_seal::{Provider, Sealed, Subject};
use rea_traverse::ResolvedInput;
use rea_validate::Validated;

use crate::engine::{Engine, JobControl};
use crate::slot::Slot;

/// Resolves the input path; a failure still sends the terminal progress update.
pub(crate) fn resolve(ctl: &JobControl<'_>, path: &Path) -> Result<ResolvedInput, Failure> {
    rea_traverse::resolve_input(path).inspect_err(|failure| {
        ctl.progress
            .finish("done", 0, None, failure.reason.as_str());
    })
}

pub(crate) fn plan_failure(err: PlanError) -> Failure {
    Failure::new(FailureReason::Internal, "job plan is invalid").with_source(err)
}

/// Adds the validate node after `after`: it validates what `sealed` holds for the input shown
/// as `display`.
pub(crate) fn add_validate(
    plan: &mut Plan,
    after: NodeId,
    sealed: Slot<Sealed>,
    display: String,
    validated: Slot<Validated>,
) -> Result<NodeId, PlanError> {
    plan.add(
        StageKind::Validate,
        Placement::Pool,
        &[Dep::After(after)],
        move |cx| {
            validated.put(rea_validate::validate(
                cx,
                sealed.take("sealed evidence")?.into_bytes(),
                &display,
            )?);
            Ok(())
        },
    )
}

/// Finishes a plan whose `seal` node fills `sealed`: adds the validate node, runs the plan on
/// `engine`, and returns the validated record with the run's report.
pub(crate) fn validate_and_run(
    engine: &Engine,
    mut plan: Plan,
    seal: NodeId,
    sealed: Slot<Sealed>,
    display: String,
    ctl: &JobControl<'_>,
) -> Result<(Validated, RunReport), Failure> {
    let validated: Slot<Validated> = Slot::new();
    add_validate(&mut plan, seal, sealed, display, validated.clone()).map_err(plan_failure)?;
    let report = engine.execute(plan, ctl)?;
    Ok((validated.take("validated evidence")?, report))
}

/// Runs a derived record's job (a comparison of records, no input read from disk): one graph
/// node drafts the record and seals it, a validate node checks it as derived Evidence, and the
/// validated record is published with its `normalized_result.summary` as the headline, and
/// the terminal progress update says `done`.
pub(crate) fn derive(
    engine: &Engine,
    ctl: &JobControl<'_>,
    done: &str,
    draft: impl FnOnce(&rea_exec::StageCx<'_>) -> Result<rea_seal::EvidenceDraft, Failure>
    + Send
    + 'static,
) -> Result<crate::engine::Published, Failure> {
    derive_after(engine, ctl, done, Plan::new(), None, draft)
}

/// [`derive`] with the graph node added to `plan` after the node `after` (stages that read
/// what the record is derived from, such as a directory's traverse and hash).
pub(crate) fn derive_after(
    engine: &Engine,
    ctl: &JobControl<'_>,
    done: &str,
    mut plan: Plan,
    after: Option<NodeId>,
    draft: impl FnOnce(&rea_exec::StageCx<'_>) -> Result<rea_seal::EvidenceDraft, Failure>
    + Send
    + 'static,
) -> Result<crate::engine::Published, Failure> {
    ctl.cancel.check()?;
    let deps: Vec<Dep> = after.into_iter().map(Dep::After).collect();
    let sealed: Slot<Sealed> = Slot::new();
    let graph = {
        let sealed = sealed.clone();
        plan.add(StageKind::Graph, Placement::Pool, &deps, move |cx| {
            let draft = draft(cx)?;
            cx.check()?;
            sealed.put(rea_seal::seal(cx, draft)?);
            Ok(())
        })
        .map_err(plan_failure)?
    };
    let validated: Slot<Validated> = Slot::new();
    {
        let validated = validated.clone();
        plan.add(
            StageKind::Validate,
            Placement::Pool,
            &[Dep::After(graph)],
            move |cx| {
                validated.put(rea_validate::validate_derived(
                    cx,
                    sealed.take("sealed evidence")?.bytes(),
                )?);
                Ok(())
            },
        )
        .map_err(plan_failure)?;
    }
    let report = engine.execute(plan, ctl)?;
    let validated = validated.take("validated evidence")?;
    let headline = match &validated.record()["normalized_result"]["summary"] {
        serde_json::Value::Object(map) => map.clone(),
        _ => serde_json::Map::new(),
    };
    let published = crate::engine::Published::new(validated, headline, &report)?;
    ctl.progress.finish("done", 1, Some(1), done);
    Ok(published)
}

/// A result's `limitations` as strings, for the record's own.
pub(crate) fn limitations_of(result: &serde_json::Value) -> Vec<String> {
    result["limitations"]
        .as_array()
        .map(|l| {
            l.iter()
                .filter_map(|v| v.as_str().map(str::to_owned))
                .collect()
        })
        .unwrap_or_default()
}

/// The subject of a record about the input shown as `display`, whose inventory root is `manifest`'s.
pub(crate) fn artifact_subject(manifest: &Manifest, display: &str) -> Subject {
    Subject {
        name: display
            .rsplit('/')
            .find(|part| !part.is_empty())
            .unwrap_or("/")
            .to_owned(),
        sha256: manifest.root_sha256.clone(),
        format: manifest.root_format.clone(),
        local_path: display.to_owned(),
    }
}

/// The provider of every artifact record.
pub(crate) fn artifact_provider() -> Provider {
    Provider {
        id: "rea-artifact-graph".to_owned(),
        name: "REA artifact graph".to_owned(),
        version: crate::REA_VERSION.to_owned(),
    }
}

/// A record derived from application records (a comparison, a trace): subject-less, inferred
/// by the JavaScript provider, its limitations the result's, linked to the records in `links`.
pub(crate) fn application_workflow_draft(
    predicate_type: &str,
    operation: &str,
    result: serde_json::Value,
    parameters: serde_json::Value,
    links: Vec<String>,
) -> rea_seal::EvidenceDraft {
    rea_seal::EvidenceDraft {
        subject: None,
        provider: javascript_provider(),
        predicate_type: predicate_type.to_owned(),
        operation: operation.to_owned(),
        parameters,
        limitations: limitations_of(&result),
        normalized_result: result,
        result_parts: Vec::new(),
        confidence: rea_seal::Confidence::Inferred,
        authority: rea_seal::Authority::ShippedArtifact,
        locations: Vec::new(),
        evidence_links: links,
    }
}

/// The provider of every JavaScript application record.
pub(crate) fn javascript_provider() -> Provider {
    Provider {
        id: "rea-javascript-reconstruction".to_owned(),
        name: "REA JavaScript reconstruction (swc)".to_owned(),
        version: crate::REA_VERSION.to_owned(),
    }
}

/// One `artifact-path` location per item that has a `logical_path`.
pub(crate) fn locations_of(items: &[serde_json::Value]) -> Vec<rea_seal::Location> {
    items
        .iter()
        .filter_map(|item| item["logical_path"].as_str())
        .map(|path| rea_seal::Location::ArtifactPath(path.to_owned()))
        .collect()
}

/// A record given to a job over records (a side of a comparison, an application to trace, a
/// native record), as the caller holds it.
#[derive(Debug, Clone)]
pub enum Side {
    /// A record (or an envelope) as a value, as MCP arguments bring it.
    Value(serde_json::Value),
    /// A record (or an envelope) as JSON text, as files and the ledger hold it: validated
    /// where it lies when it is canonical, never built into a value of the whole.
    Text(Vec<u8>),
}

impl Side {
    /// The record validated again (every id recomputed), named `name` in errors.
    pub(crate) fn validated(&self, name: &str) -> Result<Validated, Failure> {
        match self {
            Side::Value(value) => validated_side(name, value),
            Side::Text(text) => validated_side_text(name, text),
        }
    }
}

/// [`Side::validated`], which must also be `analyze_javascript_application` Evidence.
pub(crate) fn validated_application(side: &Side, name: &str) -> Result<Validated, Failure> {
    let validated = side.validated(name)?;
    if validated.record()["operation"] != crate::analyze::OPERATION {
        return Err(Failure::new(
            FailureReason::InvalidInput,
            format!("{name}: must be analyze_javascript_application Evidence"),
        )
        .with_detail("side", name));
    }
    Ok(validated)
}

/// One side of a comparison: a complete Evidence record, or the `{result, evidence_id,
/// evidence}` envelope a tool returned, validated again (every id recomputed) before use.
pub(crate) fn validated_side(name: &str, value: &serde_json::Value) -> Result<Validated, Failure> {
    let record = if value.get("evidence").is_some() {
        &value["evidence"]
    } else {
        value
    };
    let bytes = rea_hash::canonical_bytes(record).map_err(|_| not_evidence(name))?;
    validate_side(name, bytes)
}

/// [`validated_side`] of a record (or envelope) given as JSON text, as files and the ledger
/// hold it. Canonical text, as `rea` writes it, is validated where it lies, without building a
/// value of the whole (a large application record is hundreds of megabytes); other text is
/// read into a value and made canonical first.
pub(crate) fn validated_side_text(name: &str, text: &[u8]) -> Result<Validated, Failure> {
    #[derive(serde::Deserialize)]
    struct Envelope<'a> {
        #[serde(borrow)]
        evidence: Option<&'a serde_json::value::RawValue>,
    }
    let envelope: Envelope<'_> = serde_json::from_slice(text).map_err(|_| not_evidence(name))?;
    let record = envelope.evidence.map_or(text, |raw| raw.get().as_bytes());
    if rea_hash::is_canonical(record).unwrap_or(false) {
        return validate_side(name, record.to_vec());
    }
    let value: serde_json::Value =
        serde_json::from_slice(record).map_err(|_| not_evidence(name))?;
    validated_side(name, &value)
}

fn not_evidence(name: &str) -> Failure {
    Failure::new(
        FailureReason::InvalidInput,
        format!("{name}: is not JSON Evidence"),
    )
    .with_detail("side", name)
}

fn validate_side(name: &str, bytes: Vec<u8>) -> Result<Validated, Failure> {
    rea_validate::validate_bytes(bytes).map_err(|err| {
        Failure::new(
            FailureReason::Integrity,
            format!("{name}: evidence failed validation"),
        )
        .with_detail("side", name)
        .with_detail("at", err.at.clone())
        .with_detail("problem", err.problem.clone())
    })
}

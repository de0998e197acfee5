//! The engine: one worker pool, and the rules every job run follows.

use std::time::Duration;

use rea_core::{CancelReason, CancelToken, Failure, FailureReason, ProgressReporter};
use rea_exec::{Executor, Plan, RunReport};
use rea_hash::canonical_bytes;
use rea_validate::Validated;
use serde_json::{Map, Value};

/// What a caller controls about one job run.
#[derive(Debug, Clone, Copy)]
pub struct JobControl<'a> {
    pub cancel: &'a CancelToken,
    pub progress: &'a ProgressReporter,
    /// After this long the token is cancelled with reason `Timeout`.
    pub timeout: Option<Duration>,
}

/// Wall time of one stage of a published job.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StageTime {
    pub stage: &'static str,
    pub elapsed: Duration,
}

/// A sealed, validated result, ready to hand out.
#[derive(Debug, Clone)]
pub struct Published {
    evidence_id: String,
    envelope: Vec<u8>,
    /// Where the canonical record sits inside `envelope`.
    record: std::ops::Range<usize>,
    /// Where the canonical result sits inside `envelope`.
    result: std::ops::Range<usize>,
    /// Headline counts for summaries and batch indexes.
    pub headline: Map<String, Value>,
    pub stages: Vec<StageTime>,
}

impl Published {
    pub(crate) fn new(
        validated: Validated,
        headline: Map<String, Value>,
        report: &RunReport,
    ) -> Result<Published, Failure> {
        // The record's bytes are the ones validation proved canonical; they are not
        // serialized again. RFC 8785 orders the envelope's keys `evidence`, `evidence_id`,
        // `result`, so the canonical envelope is these pieces in this order, and the result is
        // the record's own `normalized_result` slice (canonical inside a canonical record).
        let (evidence_id, record_bytes) = validated.into_bytes();
        let no_form = |what: &str| {
            Failure::new(
                FailureReason::Internal,
                format!("result has no canonical {what}"),
            )
        };
        let result_bytes =
            normalized_result_slice(&record_bytes).ok_or_else(|| no_form("normalized_result"))?;
        let id_bytes = canonical_bytes(&Value::from(evidence_id.as_str()))
            .map_err(|err| no_form("evidence_id").with_source(err))?;
        let mut envelope =
            Vec::with_capacity(record_bytes.len() + result_bytes.len() + id_bytes.len() + 48);
        envelope.extend_from_slice(b"{\"evidence\":");
        let start = envelope.len();
        envelope.extend_from_slice(&record_bytes);
        let end = envelope.len();
        envelope.extend_from_slice(b",\"evidence_id\":");
        envelope.extend_from_slice(&id_bytes);
        envelope.extend_from_slice(b",\"result\":");
        let result_start = envelope.len();
        envelope.extend_from_slice(&record_bytes[result_bytes]);
        let result_end = envelope.len();
        envelope.push(b'}');
        let stages = report
            .stages
            .iter()
            .map(|t| StageTime {
                stage: t.kind.as_str(),
                elapsed: t.elapsed,
            })
            .collect();
        Ok(Published {
            evidence_id,
            envelope,
            record: start..end,
            result: result_start..result_end,
            headline,
            stages,
        })
    }

    pub fn evidence_id(&self) -> &str {
        &self.evidence_id
    }

    /// Canonical JSON of `{"result", "evidence_id", "evidence"}`: what MCP returns as
    /// `structuredContent` and the CLI prints with `--json`.
    pub fn envelope(&self) -> &[u8] {
        &self.envelope
    }

    /// Canonical JSON of the result alone (the record's `normalized_result`): what a summary
    /// reads.
    pub fn result(&self) -> &[u8] {
        &self.envelope[self.result.clone()]
    }

    /// Canonical JSON of the Evidence record alone: what a ledger retains.
    pub fn record(&self) -> &[u8] {
        &self.envelope[self.record.clone()]
    }
}

/// Where `normalized_result`'s value sits in a record's JSON bytes.
fn normalized_result_slice(record: &[u8]) -> Option<std::ops::Range<usize>> {
    let fields: std::collections::BTreeMap<&str, &serde_json::value::RawValue> =
        serde_json::from_slice(record).ok()?;
    let raw = fields.get("normalized_result")?.get().as_bytes();
    let start = raw.as_ptr() as usize - record.as_ptr() as usize;
    Some(start..start + raw.len())
}

/// The engine: a worker pool shared by every job run through it.
#[derive(Debug)]
pub struct Engine {
    exec: Executor,
}

impl Engine {
    /// An engine with `threads` workers; 0 means one per available core.
    pub fn new(threads: usize) -> Result<Engine, Failure> {
        Ok(Engine {
            exec: Executor::new(threads)?,
        })
    }

    pub fn threads(&self) -> usize {
        self.exec.threads()
    }

    /// Runs a compiled plan under the job's control: a timeout watchdog while it runs, and a
    /// terminal progress update whatever the outcome.
    pub(crate) fn execute(&self, plan: Plan, ctl: &JobControl<'_>) -> Result<RunReport, Failure> {
        let outcome = std::thread::scope(|scope| {
            let (done_tx, done_rx) = crossbeam_channel::bounded::<()>(0);
            if let Some(timeout) = ctl.timeout {
                let cancel = ctl.cancel.clone();
                scope.spawn(move || {
                    if let Err(crossbeam_channel::RecvTimeoutError::Timeout) =
                        done_rx.recv_timeout(timeout)
                    {
                        cancel.cancel(CancelReason::Timeout);
                    }
                });
            }
            let outcome = self.exec.run(plan, ctl.cancel, ctl.progress);
            drop(done_tx);
            outcome
        });
        if let Err(failure) = &outcome {
            ctl.progress
                .finish("done", 0, None, failure.reason.as_str());
        }
        outcome
    }
}

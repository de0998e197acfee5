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
        let evidence_id = validated.evidence_id().to_owned();
        let record = validated.into_record();
        let no_form = |err| {
            Failure::new(FailureReason::Internal, "result has no canonical form").with_source(err)
        };
        // RFC 8785 orders the envelope's keys `evidence`, `evidence_id`, `result`, so the
        // canonical envelope is these pieces in this order, and the record is a slice of it.
        let record_bytes = canonical_bytes(&record).map_err(no_form)?;
        let result_bytes = canonical_bytes(&record["normalized_result"]).map_err(no_form)?;
        let id_bytes = canonical_bytes(&Value::from(evidence_id.as_str())).map_err(no_form)?;
        let mut envelope = Vec::with_capacity(record_bytes.len() + result_bytes.len() + 128);
        envelope.extend_from_slice(b"{\"evidence\":");
        let start = envelope.len();
        envelope.extend_from_slice(&record_bytes);
        let end = envelope.len();
        envelope.extend_from_slice(b",\"evidence_id\":");
        envelope.extend_from_slice(&id_bytes);
        envelope.extend_from_slice(b",\"result\":");
        envelope.extend_from_slice(&result_bytes);
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

    /// Canonical JSON of the Evidence record alone: what a ledger retains.
    pub fn record(&self) -> &[u8] {
        &self.envelope[self.record.clone()]
    }
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

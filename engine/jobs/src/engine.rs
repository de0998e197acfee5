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
    /// The id as a JSON string.
    id_json: Vec<u8>,
    /// The canonical record.
    record: Vec<u8>,
    /// Where the canonical result sits inside `record`.
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
        // The record's bytes are the ones validation proved canonical; they are neither
        // serialized again nor copied. RFC 8785 orders the envelope's keys `evidence`,
        // `evidence_id`, `result`, so the canonical envelope is these bytes with the id and
        // the record's own `normalized_result` slice (canonical inside a canonical record),
        // written out piece by piece when asked for.
        let (evidence_id, record, result) = validated.into_bytes();
        let id_json = canonical_bytes(&Value::from(evidence_id.as_str())).map_err(|err| {
            Failure::new(
                FailureReason::Internal,
                "result has no canonical evidence_id",
            )
            .with_source(err)
        })?;
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
            id_json,
            record,
            result,
            headline,
            stages,
        })
    }

    pub fn evidence_id(&self) -> &str {
        &self.evidence_id
    }

    /// Canonical JSON of `{"evidence", "evidence_id", "result"}`, what MCP returns as
    /// `structuredContent` and the CLI prints with `--json`, as the pieces that joined make
    /// it: the record is written out without being copied.
    pub fn envelope_parts(&self) -> [&[u8]; 7] {
        [
            b"{\"evidence\":",
            &self.record,
            b",\"evidence_id\":",
            &self.id_json,
            b",\"result\":",
            self.result(),
            b"}",
        ]
    }

    /// [`Self::envelope_parts`] joined into one buffer.
    pub fn envelope_bytes(&self) -> Vec<u8> {
        self.envelope_parts().concat()
    }

    /// Canonical JSON of the result alone (the record's `normalized_result`): what a summary
    /// reads.
    pub fn result(&self) -> &[u8] {
        &self.record[self.result.clone()]
    }

    /// Canonical JSON of the Evidence record alone: what a ledger retains.
    pub fn record(&self) -> &[u8] {
        &self.record
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

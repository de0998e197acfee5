//! Running a plan: groups in order, nodes of a group concurrently, checks around every node.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use rea_core::{CancelToken, Cancelled, Failure, FailureReason, ProgressReporter};

use crate::plan::{Node, Placement, Plan, StageKind};

/// Detail key that marks a failure caused by a peer stage hanging up, not by the stage itself.
const DISCONNECTED: &str = "stage_disconnected";

/// What a stage body sees.
pub struct StageCx<'a> {
    kind: StageKind,
    cancel: &'a CancelToken,
    progress: &'a ProgressReporter,
}

impl std::fmt::Debug for StageCx<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("StageCx")
            .field("kind", &self.kind)
            .finish_non_exhaustive()
    }
}

impl<'a> StageCx<'a> {
    /// A context outside any plan, for running one stage directly (tests and benches).
    pub fn detached(
        kind: StageKind,
        cancel: &'a CancelToken,
        progress: &'a ProgressReporter,
    ) -> StageCx<'a> {
        StageCx {
            kind,
            cancel,
            progress,
        }
    }

    /// The cancellation check every long loop makes.
    pub fn check(&self) -> Result<(), Cancelled> {
        self.cancel.check()
    }

    pub fn kind(&self) -> StageKind {
        self.kind
    }

    pub fn cancel_token(&self) -> &CancelToken {
        self.cancel
    }

    pub fn progress(&self) -> &ProgressReporter {
        self.progress
    }

    /// The failure a stage returns when its stream peer hung up. The executor reports the
    /// peer's own failure instead whenever there is one.
    pub fn disconnected(&self) -> Failure {
        Failure::new(
            FailureReason::Internal,
            format!("{} stage lost its stream peer", self.kind.as_str()),
        )
        .with_detail(DISCONNECTED, true)
    }
}

/// Wall time of one node.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StageTiming {
    pub kind: StageKind,
    pub elapsed: Duration,
}

/// What a successful run reports.
#[derive(Debug, Clone, Default)]
pub struct RunReport {
    /// One entry per node, in node order.
    pub stages: Vec<StageTiming>,
}

/// A rayon pool plus the rules for running plans on it.
pub struct Executor {
    pool: rayon::ThreadPool,
}

impl std::fmt::Debug for Executor {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Executor")
            .field("threads", &self.threads())
            .finish()
    }
}

impl Executor {
    /// A pool of `threads` workers; 0 means one per available core.
    pub fn new(threads: usize) -> Result<Executor, Failure> {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .thread_name(|i| format!("rea-worker-{i}"))
            .stack_size(rea_core::WORKER_STACK_BYTES)
            .build()
            .map_err(|err| {
                Failure::new(
                    FailureReason::Unavailable,
                    "could not start the worker pool",
                )
                .with_source(err)
            })?;
        Ok(Executor { pool })
    }

    pub fn threads(&self) -> usize {
        self.pool.current_num_threads()
    }

    /// Runs `f` inside the pool, for work outside any plan.
    pub fn install<R: Send>(&self, f: impl FnOnce() -> R + Send) -> R {
        self.pool.install(f)
    }

    /// Runs every node of `plan`. The first failure wins, except that a cancelled token always
    /// reports as cancellation and a stage that only lost its peer never hides the peer's error.
    pub fn run(
        &self,
        plan: Plan,
        cancel: &CancelToken,
        progress: &ProgressReporter,
    ) -> Result<RunReport, Failure> {
        let groups = plan.groups().map_err(|err| {
            Failure::new(FailureReason::Internal, "job plan is invalid").with_source(err)
        })?;
        let mut slots: Vec<Option<Node>> = plan.nodes.into_iter().map(Some).collect();
        let mut timings: Vec<Option<StageTiming>> = vec![None; slots.len()];
        for group in groups {
            cancel.check()?;
            let nodes: Vec<(usize, Node)> = group
                .iter()
                .filter_map(|&idx| slots[idx].take().map(|node| (idx, node)))
                .collect();
            let outcomes = self.run_group(nodes, cancel, progress);
            let mut failures = Vec::new();
            for (idx, outcome) in outcomes {
                match outcome {
                    Ok(timing) => timings[idx] = Some(timing),
                    Err(failure) => failures.push((idx, failure)),
                }
            }
            if !failures.is_empty() {
                return Err(pick_failure(failures, cancel));
            }
            cancel.check()?;
        }
        Ok(RunReport {
            stages: timings.into_iter().flatten().collect(),
        })
    }

    fn run_group(
        &self,
        nodes: Vec<(usize, Node)>,
        cancel: &CancelToken,
        progress: &ProgressReporter,
    ) -> Vec<(usize, Result<StageTiming, Failure>)> {
        let outcomes = Mutex::new(Vec::with_capacity(nodes.len()));
        let (dedicated, pooled): (Vec<_>, Vec<_>) = nodes
            .into_iter()
            .partition(|(_, node)| node.placement == Placement::Dedicated);
        std::thread::scope(|scope| {
            for (idx, node) in dedicated {
                let outcomes = &outcomes;
                let spawned = std::thread::Builder::new()
                    .name(format!("rea-{}", node.kind.as_str()))
                    .spawn_scoped(scope, move || {
                        let outcome = run_node(node, cancel, progress);
                        push(outcomes, idx, outcome);
                    });
                if let Err(err) = spawned {
                    let failure =
                        Failure::new(FailureReason::Unavailable, "could not start a stage thread")
                            .with_source(err);
                    push(outcomes, idx, Err(failure));
                }
            }
            if !pooled.is_empty() {
                self.pool.install(|| {
                    rayon::scope(|scope| {
                        for (idx, node) in pooled {
                            let outcomes = &outcomes;
                            scope.spawn(move |_| {
                                let outcome = run_node(node, cancel, progress);
                                push(outcomes, idx, outcome);
                            });
                        }
                    });
                });
            }
        });
        let mut outcomes = outcomes.into_inner().unwrap_or_else(|p| p.into_inner());
        outcomes.sort_by_key(|(idx, _)| *idx);
        outcomes
    }
}

fn push(
    outcomes: &Mutex<Vec<(usize, Result<StageTiming, Failure>)>>,
    idx: usize,
    outcome: Result<StageTiming, Failure>,
) {
    outcomes
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .push((idx, outcome));
}

fn run_node(
    node: Node,
    cancel: &CancelToken,
    progress: &ProgressReporter,
) -> Result<StageTiming, Failure> {
    let kind = node.kind;
    let cx = StageCx {
        kind,
        cancel,
        progress,
    };
    cx.check()?;
    let start = Instant::now();
    let body = node.body;
    match catch_unwind(AssertUnwindSafe(|| body(&cx))) {
        Ok(Ok(())) => {}
        Ok(Err(failure)) => return Err(failure),
        Err(_) => {
            return Err(Failure::new(
                FailureReason::Internal,
                format!("{} stage panicked", kind.as_str()),
            ));
        }
    }
    let elapsed = start.elapsed();
    cx.check()?;
    Ok(StageTiming { kind, elapsed })
}

fn pick_failure(failures: Vec<(usize, Failure)>, cancel: &CancelToken) -> Failure {
    if let Some(reason) = cancel.reason() {
        return Failure::from(Cancelled { reason });
    }
    let mut failures = failures;
    let own = failures
        .iter()
        .position(|(_, f)| !f.details.contains_key(DISCONNECTED));
    failures.swap_remove(own.unwrap_or(0)).1
}

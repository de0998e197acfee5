//! The executor: a [`Plan`] is a DAG of stage nodes; an [`Executor`] runs it on a rayon pool.
//!
//! This crate owns scheduling and nothing else. It knows stage *kinds* (traverse, hash, parse,
//! graph, seal, validate) and two kinds of edge, but no concrete stage: a node is a closure that
//! the job façade (`rea-jobs`) builds around a stage crate's `run` function.
//!
//! Edges:
//! - [`Dep::After`]: the consumer starts once the producer has finished.
//! - [`Dep::Stream`]: both run at the same time, joined by a channel the job created.
//!   A stream producer must be [`Placement::Dedicated`]: it blocks on I/O on its own thread, so a
//!   pool consumer that blocks on `recv` can never starve it, whatever the pool size.
//!
//! Nodes joined by stream edges form a group; groups run one after another in dependency order.
//! The token is checked before and after every node; inside a node, the stage checks it per item.
//! Start with [`Plan::add`] and [`Executor::run`].

mod plan;
mod run;

pub use plan::{Dep, NodeId, Placement, Plan, PlanError, StageKind};
pub use run::{Executor, RunReport, StageCx, StageTiming};

/// Frees `value` on a short-lived thread of its own, off the job's critical path: the hashed
/// entries and the graph of a 56,000-entry archive take tens of milliseconds to free, and the
/// stage that is done with them should not wait for it. When no thread can be started, the
/// value is freed here.
pub fn drop_off_path<T: Send + 'static>(value: T) {
    // On failure `spawn` drops the closure, and the value with it, before returning.
    let _ = std::thread::Builder::new()
        .name("rea-drop".to_owned())
        .spawn(move || drop(value));
}

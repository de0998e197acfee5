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

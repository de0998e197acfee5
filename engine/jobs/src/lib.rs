//! The job façade: the engine's API boundary, which the CLI, the MCP server and the pipeline
//! call.
//!
//! A job (for example [`inventory::InventoryRequest`]) is validated, then compiled into a
//! [`rea_exec::Plan`] of stage nodes, run on the [`Engine`]'s pool, sealed and validated.
//! Only a validated record becomes a [`Published`] result; anything else is a
//! [`rea_core::Failure`], which [`error::ErrorObject`] turns into the wire error shape.
//! Output files are published atomically by [`publish`]: a cancelled or failed job leaves
//! nothing behind.
//!
//! This crate exposes plain data: no swc, rayon or channel types cross it.
//! Start with [`Engine::inventory_artifact`].

pub mod analyze;
mod common;
pub mod compare;
mod engine;
pub mod error;
pub mod extract;
pub mod inspect;
pub mod inventory;
pub mod ledger;
pub mod overrides;
mod page;
pub mod pipeline;
pub mod publish;
pub mod semantics;
pub mod shapes;
mod slot;
pub mod sources;
pub mod target;
pub mod trace;
pub mod versions;

/// Canonical JSON (RFC 8785) and SHA-256, for front doors that digest what they publish.
pub mod canonical {
    pub use rea_hash::{canonical_bytes, sha256_hex};
}

pub use engine::{Engine, JobControl, Published, StageTime};
pub use page::{PageRequest, Window};

/// The version of REA that produces every record.
pub const REA_VERSION: &str = env!("CARGO_PKG_VERSION");

//! The artifact inventory graph.
//!
//! Shape (every array sorted as stated, every id a content id, see [`ids`]):
//! - `manifest`: `schema_version`, `manifest_id`, `root_artifact_id`, `root_sha256`,
//!   `root_format`, `graph_sha256` and the counts;
//! - `nodes`: one per distinct content, sorted by `artifact_id`;
//! - `occurrences`: the root occurrence (`logical_path` `"."`) first, then one per entry,
//!   sorted by `logical_path` in code-point order;
//! - `edges`: one `contains` edge per non-root occurrence that has content, sorted by `edge_id`;
//! - `integrity_contradictions`: declared-versus-observed digests recorded instead of failing;
//! - `asar_headers`: every ASAR header read, with the integrity the application declares for it
//!   (see [`asar_integrity`]); a contradicted header is also an integrity contradiction;
//! - `electron_fuses`: the fuse wire of each Electron binary beside the archives (see
//!   [`electron_fuses`]);
//! - `limitations`: what the inventory could not cover.

mod asar_integrity;
mod build;
pub mod classify;
mod electron_fuses;
pub mod ids;
mod types;

pub use build::{RootContent, build};
pub use types::{
    ArtifactNode, AsarHeader, Contradiction, Edge, HashStatus, HeaderDeclaration, InventoryGraph,
    Manifest, Occurrence, Summary,
};

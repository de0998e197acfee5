//! The JavaScript Application Graph: nodes (packages, assets, chunks, module factories,
//! Electron roles, windows, bridges, IPC channels and handlers, endpoints, storage, native
//! add-ons and their requested exports, source maps and original sources) and edges
//! (`contains`, `loads`, `imports`, `maps_to`, `exposes`, `sends`, `invokes`, `handles`,
//! `calls`, `persists_to`), projected from the parse stage's facts and the inventory.
//!
//! Every node has an `identity` (content digest, artifact-local key, canonical path,
//! source-map original or observation fingerprint) and 1 to 64 `observations`, each with
//! `evidence`: `{authority, state, confidence, artifact_sha256, location, operation,
//! extractor, limitations}`. Facts read from syntax are `observed`/`exact`; relationships
//! between them are `inferred` with a stated confidence. Ids: see [`ids`].
//!
//! Start with [`build`].

mod build;
pub mod ids;
pub mod resolve;
pub mod semantics;
pub mod shapes;

pub use build::{Built, MAX_OBSERVATIONS, Request, build, settle_imports};

//! The graph stage: turns hashed entries into a content-addressed graph.
//!
//! This crate owns [`artifact`]: the inventory graph of content nodes (one per distinct
//! content), occurrences (one per path), `contains` edges and a manifest whose ids derive only
//! from content, never from where the input sits or in which order threads finished.
//! The id recipes live in [`artifact::ids`], so that `rea-validate` recomputes ids with the
//! same documented formulas.
//!
//! Graph types derive `Serialize`: their JSON form is what ids and `graph_sha256` commit to.
//! Start with [`artifact::build`].

pub mod artifact;
pub mod javascript;
mod record;
pub mod semtrace;
pub mod shapes;
pub mod sources;
pub mod trace;
pub mod versions;

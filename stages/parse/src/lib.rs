//! The parse stage: reads the text files of an inventoried application and turns each into
//! plain facts.
//!
//! [`run`] selects files by kind (`package.json`, HTML, JavaScript/TypeScript, JSON, source
//! maps; native add-ons are listed but never read), in priority then path order under the
//! [`TextLimits`]; reads each again with a byte cap and checks it against the inventory's
//! SHA-256; then, in parallel on the rayon pool, parses JavaScript with swc and walks it once
//! ([`extract`]) for bundles and module factories, references, endpoints, storage, routes and
//! Electron boundaries. Nothing is ever executed.
//!
//! **Architecture Invariant:** no swc type leaves this crate; the AST is dropped as soon as
//! its file's facts are out. A file that does not parse is a [`ParseStatus::Failed`] fact with
//! diagnostics, never an `Err`: only cancellation, integrity and I/O bounds are errors.
//! Deep nesting is refused before parsing ([`syntax::MAX_NESTING`]) and pool threads have
//! large stacks, so no input can overflow the stack.

mod csp;
pub mod extract;
pub mod facts;
pub mod redact;
mod source;
mod stage;
pub mod syntax;
mod text;
mod update;

pub use extract::{
    EXPORT_SHAPE_ALGORITHM, FINGERPRINT_ALGORITHM, MAX_FILE_EXPORTS, MAX_FILE_SEMANTIC_NODES,
    MAX_FILE_SEMANTIC_RELATIONS, MAX_FILE_SEMANTIC_UNKNOWNS, SEMANTIC_ALGORITHM,
};
pub use facts::*;
pub use source::cut;
pub use stage::{
    Options, ParseOutput, SEMANTIC_DEPENDENCY_BYTES, SEMANTIC_SOURCE_BYTES, TextLimits, read_text,
    run,
};

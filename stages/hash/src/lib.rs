//! The hash stage, and the content-addressed identities every later stage builds on.
//!
//! This crate owns:
//! - [`canonical`]: RFC 8785 canonical JSON (through `serde_jcs`) and the id recipe
//!   `prefix + hex(SHA-256(canonical JSON))`;
//! - [`text`]: canonical text composed from canonical pieces without re-serialization (an
//!   application graph is serialized once), and [`is_canonical`], which checks a text's form
//!   without building a value;
//! - [`stream`]: streaming SHA-256 over any reader, 64 KiB at a time, checking cancellation
//!   per chunk, through `sha2` (which picks the SHA-NI path at run time when the CPU has it);
//! - [`stage`]: the hash stage proper, which consumes the traverse stage's entry stream in
//!   parallel on the rayon pool and hashes every regular file.
//!
//! Canonical JSON lives here, not in `rea-seal`, because content ids are needed by the graph
//! stage before anything is sealed. `rea-seal` remains the only crate that writes Evidence.

pub mod canonical;
pub mod object;
mod scan;
pub mod stage;
pub mod stream;
pub mod text;

pub use canonical::{
    CanonicalArray, CanonicalError, canonical_array_items, canonical_bytes, canonical_items,
    canonical_value_bytes, content_id, content_id_without, digest_canonical,
    digest_object_of_arrays, drop_value_parallel, hex_digest, is_canonical, parse_value_parallel,
    sha256_hex, sha256_hex_of, takes_fast_path, utf16_lt,
};
pub use object::{ObjectWriter, WriteCanonical, Written, object_id};
pub use stage::{
    HashOutcome, HashedEntry, ReadSeek, Verdict, copy_entry, hash_archive_file, hash_input_file,
    random_access, run,
};
pub use stream::{StreamDigest, hash_stream, hash_stream_blocks};
pub use text::{CanonicalJson, Composed, ObjectDigest, Piece};

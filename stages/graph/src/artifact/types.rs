//! The serialized shape of the inventory graph.
//!
//! Fields are declared in code-point order, so that serialization takes the canonical fast
//! path in `rea_hash::canonical` (a test checks it).

use rea_hash::{CanonicalError, ObjectWriter, WriteCanonical};
use serde::Serialize;

/// The whole inventory of one input.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct InventoryGraph {
    /// Every ASAR header read, and what the application declares about it.
    pub asar_headers: Vec<AsarHeader>,
    pub edges: Vec<Edge>,
    /// The fuse wire of each Electron binary beside the archives.
    pub electron_fuses: Vec<ElectronFuses>,
    pub integrity_contradictions: Vec<Contradiction>,
    pub limitations: Vec<String>,
    pub manifest: Manifest,
    pub nodes: Vec<ArtifactNode>,
    pub occurrences: Vec<Occurrence>,
    pub summary: Summary,
}

/// Content-derived identity of the whole graph.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Manifest {
    pub contradiction_count: u64,
    pub edge_count: u64,
    /// H({nodes, occurrences, edges, integrity_contradictions}) over the complete sorted arrays.
    pub graph_sha256: String,
    /// `agm_` + H({schema_version, root_artifact_id, graph_sha256}).
    pub manifest_id: String,
    pub node_count: u64,
    pub occurrence_count: u64,
    pub root_artifact_id: String,
    pub root_format: String,
    pub root_sha256: String,
    pub schema_version: u32,
}

/// One distinct content.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ArtifactNode {
    pub artifact_id: String,
    /// `materialized` (bytes on disk), `embedded` (bytes inside a container) or `virtual`.
    pub content_state: String,
    pub format: String,
    pub kind: String,
    pub limitations: Vec<String>,
    pub sha256: String,
    /// Bytes of content; `null` for directories, which are virtual.
    pub size: Option<u64>,
}

/// How an occurrence's digest was obtained.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum HashStatus {
    /// Bytes streamed and hashed; nothing was declared to compare with.
    Hashed,
    /// Bytes streamed and hashed, and equal to a declared digest.
    Verified,
    /// Bytes hashed and different from a declared digest (record-and-continue only).
    Mismatched,
    /// A directory: its digest is derived from its children.
    Derived,
    /// A symlink: nothing to hash.
    NotHashed,
    /// Hashed, but the declared integrity cannot be checked (unknown algorithm, malformed).
    Unverifiable,
    /// A file over `max_entry_bytes`.
    NotHashedLimit,
    /// Bytes that could not be read; the occurrence's limitations say why.
    Unavailable,
}

impl HashStatus {
    /// The serialized name.
    pub fn as_str(self) -> &'static str {
        match self {
            HashStatus::Hashed => "hashed",
            HashStatus::Verified => "verified",
            HashStatus::Mismatched => "mismatched",
            HashStatus::Derived => "derived",
            HashStatus::NotHashed => "not-hashed",
            HashStatus::Unverifiable => "unverifiable",
            HashStatus::NotHashedLimit => "not-hashed-limit",
            HashStatus::Unavailable => "unavailable",
        }
    }
}

/// One path at which content occurs.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Occurrence {
    pub artifact_id: Option<String>,
    pub declared_size: Option<u64>,
    pub entry_kind: String,
    pub executable: bool,
    pub hash_status: HashStatus,
    pub limitations: Vec<String>,
    pub link_target: Option<String>,
    pub logical_path: String,
    pub occurrence_id: String,
    pub parent_occurrence_id: Option<String>,
    pub sha256: Option<String>,
    /// Bytes observed (hashed), or the declared size when the bytes were not read; `null` for
    /// directories and symlinks.
    pub size: Option<u64>,
    pub unpacked: bool,
}

/// A parent content holding a child content at one occurrence.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Edge {
    pub child_artifact_id: String,
    pub edge_id: String,
    pub logical_path: String,
    pub occurrence_id: String,
    pub parent_artifact_id: String,
    pub relation: String,
}

/// Declared and observed digests that disagree, kept instead of failing.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Contradiction {
    pub contradiction_id: String,
    pub declared_sha256: String,
    pub entry_kind: String,
    pub limitations: Vec<String>,
    pub logical_path: String,
    pub observed_sha256: String,
    pub occurrence_id: String,
    pub parent_artifact_id: String,
    pub provenance: String,
    pub trust: String,
    pub unpacked: bool,
}

/// One ASAR archive's header: its digest as Electron's integrity check computes it, and the
/// declarations that name it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct AsarHeader {
    pub declarations: Vec<HeaderDeclaration>,
    /// SHA-256 of the header's JSON text, lowercase hex.
    pub header_sha256: String,
    /// Bytes of JSON text.
    pub header_size: u64,
    /// The archive's occurrence path (`"."` when the input is the archive).
    pub logical_path: String,
    pub occurrence_id: String,
    /// `undeclared`, or the worst of the declarations: `mismatched`, `unverifiable`, `verified`.
    pub status: String,
}

/// What one declaring file says about an archive's header.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct HeaderDeclaration {
    /// As declared; Electron accepts only `SHA256`.
    pub algorithm: String,
    /// The declaring file's logical path (a bundle's `Contents/Info.plist`).
    pub declared_by: String,
    /// As declared.
    pub hash: String,
    /// The archive's path as the declaration writes it (relative to `Contents/`).
    pub key: String,
    pub limitations: Vec<String>,
    /// `info-plist`: `ElectronAsarIntegrity` in a macOS bundle's property list.
    pub mechanism: String,
    /// `verified`, `mismatched` (record-and-continue only) or `unverifiable`.
    pub status: String,
}

/// The fuses of one Electron binary, in wire order.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ElectronFuses {
    /// The Electron version, when the distribution says it beside the binary.
    pub electron_version: Option<String>,
    /// The file the version was read from.
    pub electron_version_source: Option<String>,
    pub fuses: Vec<Fuse>,
    /// The binary's occurrence path.
    pub logical_path: String,
    pub occurrence_id: String,
    /// The wire's version byte (1 today).
    pub wire_version: u64,
}

/// One fuse.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Fuse {
    /// Position in the wire.
    pub index: u64,
    /// `@electron/fuses`' name for the position (`RunAsNode`, …), or `fuse-<index>`.
    pub name: String,
    /// `enabled`, `disabled`, `removed`, `inherit`, or `unknown-0x..`.
    pub state: String,
}

/// Headline counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
pub struct Summary {
    pub bytes_hashed: u64,
    pub directories: u64,
    pub distinct_contents: u64,
    /// Occurrences below the root.
    pub entries: u64,
    pub files: u64,
    pub mismatched: u64,
    pub not_hashed_limit: u64,
    /// Children the walk skipped (odd names, special files, depth), noted on their parents.
    pub skipped: u64,
    pub symlinks: u64,
    pub unavailable: u64,
    pub unverifiable: u64,
    pub verified: u64,
}

// The canonical forms of the arrays `graph_sha256` covers, written member by member; each
// equals the canonical form of the type's `Serialize` output (tests/artifact_graph.rs).

impl WriteCanonical for ArtifactNode {
    fn write_canonical(&self, out: &mut Vec<u8>) -> Result<(), CanonicalError> {
        ObjectWriter::new(out)
            .str("artifact_id", &self.artifact_id)
            .str("content_state", &self.content_state)
            .str("format", &self.format)
            .str("kind", &self.kind)
            .strs("limitations", &self.limitations)
            .str("sha256", &self.sha256)
            .opt_uint("size", self.size)
            .finish()
    }
}

impl WriteCanonical for Occurrence {
    fn write_canonical(&self, out: &mut Vec<u8>) -> Result<(), CanonicalError> {
        ObjectWriter::new(out)
            .opt_str("artifact_id", self.artifact_id.as_deref())
            .opt_uint("declared_size", self.declared_size)
            .str("entry_kind", &self.entry_kind)
            .bool("executable", self.executable)
            .str("hash_status", self.hash_status.as_str())
            .strs("limitations", &self.limitations)
            .opt_str("link_target", self.link_target.as_deref())
            .str("logical_path", &self.logical_path)
            .str("occurrence_id", &self.occurrence_id)
            .opt_str("parent_occurrence_id", self.parent_occurrence_id.as_deref())
            .opt_str("sha256", self.sha256.as_deref())
            .opt_uint("size", self.size)
            .bool("unpacked", self.unpacked)
            .finish()
    }
}

impl WriteCanonical for Edge {
    fn write_canonical(&self, out: &mut Vec<u8>) -> Result<(), CanonicalError> {
        ObjectWriter::new(out)
            .str("child_artifact_id", &self.child_artifact_id)
            .str("edge_id", &self.edge_id)
            .str("logical_path", &self.logical_path)
            .str("occurrence_id", &self.occurrence_id)
            .str("parent_artifact_id", &self.parent_artifact_id)
            .str("relation", &self.relation)
            .finish()
    }
}

impl WriteCanonical for Contradiction {
    fn write_canonical(&self, out: &mut Vec<u8>) -> Result<(), CanonicalError> {
        ObjectWriter::new(out)
            .str("contradiction_id", &self.contradiction_id)
            .str("declared_sha256", &self.declared_sha256)
            .str("entry_kind", &self.entry_kind)
            .strs("limitations", &self.limitations)
            .str("logical_path", &self.logical_path)
            .str("observed_sha256", &self.observed_sha256)
            .str("occurrence_id", &self.occurrence_id)
            .str("parent_artifact_id", &self.parent_artifact_id)
            .str("provenance", &self.provenance)
            .str("trust", &self.trust)
            .bool("unpacked", self.unpacked)
            .finish()
    }
}

//! Id recipes of the artifact graph. `H(x)` is SHA-256 over the RFC 8785 canonical JSON of `x`,
//! in lowercase hex (`rea_hash::digest_canonical`).
//!
//! | id | recipe |
//! |---|---|
//! | file content `sha256` | raw SHA-256 of the bytes |
//! | directory `sha256` | H({kind: "directory", children: [{name, entry_kind, artifact_id, link_target}]}), children sorted by name in code-point order |
//! | node `art_` | "art_" + H({schema_version: 1, sha256}) |
//! | root occurrence `occ_` | "occ_" + H({root: root_artifact_id}) |
//! | occurrence `occ_` | "occ_" + H({root_artifact_id, logical_path, entry_kind}) |
//! | edge `edge_` | "edge_" + H({parent_artifact_id, child_artifact_id, relation, occurrence_id, logical_path}) |
//! | contradiction `ic_` | "ic_" + H({root_artifact_id, logical_path, declared_sha256, observed_sha256}) |
//! | `graph_sha256` | H({nodes, occurrences, edges, integrity_contradictions}) |
//! | manifest `agm_` | "agm_" + H({schema_version: 1, root_artifact_id, graph_sha256}) |
//! | extraction `aex_` | "aex_" + H({schema_version: 1, source_manifest_id, files: [{relative_path, sha256, size}]}), files sorted by relative_path |
//!
//! A directory's digest covers names, kinds, symlink targets and child contents, so the root
//! digest commits to the whole tree. Nothing here depends on the input's absolute path.

use rea_core::{Failure, FailureReason};
use rea_hash::{CanonicalError, ObjectWriter, Written, content_id, object_id};
use serde::Serialize;

use super::types::{ArtifactNode, Contradiction, Edge, Occurrence};

// Each recipe's members are written in canonical key order by an `ObjectWriter`, which gives
// the bytes `rea_hash::content_id` would give for the same object (tests in
// `tests/artifact_graph.rs` compare the two), without going through `serde`.

/// One child line of a directory digest.
#[derive(Debug, Clone, Serialize)]
pub struct DirectoryChild<'a> {
    pub artifact_id: Option<&'a str>,
    pub entry_kind: &'a str,
    pub link_target: Option<&'a str>,
    pub name: &'a str,
}

impl DirectoryChild<'_> {
    fn write(&self, out: &mut Vec<u8>) -> Result<(), CanonicalError> {
        ObjectWriter::new(out)
            .opt_str("artifact_id", self.artifact_id)
            .str("entry_kind", self.entry_kind)
            .opt_str("link_target", self.link_target)
            .str("name", self.name)
            .finish()
    }
}

pub fn directory_sha256(children: &[DirectoryChild<'_>]) -> Result<String, Failure> {
    let mut out = Vec::with_capacity(64 + 160 * children.len());
    ObjectWriter::new(&mut out)
        .array("children", children, DirectoryChild::write)
        .str("kind", "directory")
        .finish()
        .map_err(internal)?;
    Ok(rea_hash::sha256_hex(&out))
}

pub fn artifact_id(sha256: &str) -> Result<String, Failure> {
    object_id("art_", |w| {
        w.uint("schema_version", 1).str("sha256", sha256);
    })
    .map_err(internal)
}

pub fn root_occurrence_id(root_artifact_id: &str) -> Result<String, Failure> {
    object_id("occ_", |w| {
        w.str("root", root_artifact_id);
    })
    .map_err(internal)
}

pub fn occurrence_id(
    root_artifact_id: &str,
    logical_path: &str,
    entry_kind: &str,
) -> Result<String, Failure> {
    object_id("occ_", |w| {
        w.str("entry_kind", entry_kind)
            .str("logical_path", logical_path)
            .str("root_artifact_id", root_artifact_id);
    })
    .map_err(internal)
}

pub fn edge_id(
    parent_artifact_id: &str,
    child_artifact_id: &str,
    relation: &str,
    occurrence_id: &str,
    logical_path: &str,
) -> Result<String, Failure> {
    object_id("edge_", |w| {
        w.str("child_artifact_id", child_artifact_id)
            .str("logical_path", logical_path)
            .str("occurrence_id", occurrence_id)
            .str("parent_artifact_id", parent_artifact_id)
            .str("relation", relation);
    })
    .map_err(internal)
}

pub fn contradiction_id(
    root_artifact_id: &str,
    logical_path: &str,
    declared_sha256: &str,
    observed_sha256: &str,
) -> Result<String, Failure> {
    object_id("ic_", |w| {
        w.str("declared_sha256", declared_sha256)
            .str("logical_path", logical_path)
            .str("observed_sha256", observed_sha256)
            .str("root_artifact_id", root_artifact_id);
    })
    .map_err(internal)
}

/// `graph_sha256` over the four complete arrays, which may be typed values or JSON values.
/// The arrays are serialized in parallel chunks; the digest is that of the one canonical object.
pub fn graph_sha256<
    N: Serialize + Sync,
    O: Serialize + Sync,
    E: Serialize + Sync,
    C: Serialize + Sync,
>(
    nodes: &[N],
    occurrences: &[O],
    edges: &[E],
    contradictions: &[C],
) -> Result<String, Failure> {
    rea_hash::digest_object_of_arrays(&[
        ("edges", &edges),
        ("integrity_contradictions", &contradictions),
        ("nodes", &nodes),
        ("occurrences", &occurrences),
    ])
    .map_err(internal)
}

/// [`graph_sha256`] of the typed arrays, each item written by its `WriteCanonical` form.
pub fn typed_graph_sha256(
    nodes: &[ArtifactNode],
    occurrences: &[Occurrence],
    edges: &[Edge],
    contradictions: &[Contradiction],
) -> Result<String, Failure> {
    rea_hash::digest_object_of_arrays(&[
        ("edges", &Written(edges)),
        ("integrity_contradictions", &Written(contradictions)),
        ("nodes", &Written(nodes)),
        ("occurrences", &Written(occurrences)),
    ])
    .map_err(internal)
}

pub fn manifest_id(root_artifact_id: &str, graph_sha256: &str) -> Result<String, Failure> {
    object_id("agm_", |w| {
        w.str("graph_sha256", graph_sha256)
            .str("root_artifact_id", root_artifact_id)
            .uint("schema_version", 1);
    })
    .map_err(internal)
}

fn internal(err: CanonicalError) -> Failure {
    Failure::new(FailureReason::Internal, "graph value has no canonical form").with_source(err)
}

/// One extracted file, as the extraction id commits to it.
#[derive(Debug, Clone, Serialize)]
pub struct ExtractedFile<'a> {
    pub relative_path: &'a str,
    pub sha256: &'a str,
    pub size: u64,
}

/// The extraction id: the same selection of the same bytes has the same id, wherever it was
/// written. `files` must be sorted by `relative_path`.
pub fn extraction_id(
    source_manifest_id: &str,
    files: &[ExtractedFile<'_>],
) -> Result<String, Failure> {
    #[derive(Serialize)]
    struct Aex<'a> {
        files: &'a [ExtractedFile<'a>],
        schema_version: u32,
        source_manifest_id: &'a str,
    }
    content_id(
        "aex_",
        &Aex {
            files,
            schema_version: 1,
            source_manifest_id,
        },
    )
    .map_err(internal)
}

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
use rea_hash::{CanonicalError, content_id, digest_canonical};
use serde::Serialize;

// Recipe inputs are structs with fields in code-point order: the canonical fast path.

/// One child line of a directory digest.
#[derive(Debug, Clone, Serialize)]
pub struct DirectoryChild<'a> {
    pub artifact_id: Option<&'a str>,
    pub entry_kind: &'a str,
    pub link_target: Option<&'a str>,
    pub name: &'a str,
}

pub fn directory_sha256(children: &[DirectoryChild<'_>]) -> Result<String, Failure> {
    #[derive(Serialize)]
    struct Directory<'a> {
        children: &'a [DirectoryChild<'a>],
        kind: &'static str,
    }
    digest_canonical(&Directory {
        children,
        kind: "directory",
    })
    .map_err(internal)
}

pub fn artifact_id(sha256: &str) -> Result<String, Failure> {
    #[derive(Serialize)]
    struct Art<'a> {
        schema_version: u32,
        sha256: &'a str,
    }
    content_id(
        "art_",
        &Art {
            schema_version: 1,
            sha256,
        },
    )
    .map_err(internal)
}

pub fn root_occurrence_id(root_artifact_id: &str) -> Result<String, Failure> {
    #[derive(Serialize)]
    struct Root<'a> {
        root: &'a str,
    }
    content_id(
        "occ_",
        &Root {
            root: root_artifact_id,
        },
    )
    .map_err(internal)
}

pub fn occurrence_id(
    root_artifact_id: &str,
    logical_path: &str,
    entry_kind: &str,
) -> Result<String, Failure> {
    #[derive(Serialize)]
    struct Occ<'a> {
        entry_kind: &'a str,
        logical_path: &'a str,
        root_artifact_id: &'a str,
    }
    content_id(
        "occ_",
        &Occ {
            entry_kind,
            logical_path,
            root_artifact_id,
        },
    )
    .map_err(internal)
}

pub fn edge_id(
    parent_artifact_id: &str,
    child_artifact_id: &str,
    relation: &str,
    occurrence_id: &str,
    logical_path: &str,
) -> Result<String, Failure> {
    #[derive(Serialize)]
    struct EdgeKey<'a> {
        child_artifact_id: &'a str,
        logical_path: &'a str,
        occurrence_id: &'a str,
        parent_artifact_id: &'a str,
        relation: &'a str,
    }
    let key = EdgeKey {
        child_artifact_id,
        logical_path,
        occurrence_id,
        parent_artifact_id,
        relation,
    };
    content_id("edge_", &key).map_err(internal)
}

pub fn contradiction_id(
    root_artifact_id: &str,
    logical_path: &str,
    declared_sha256: &str,
    observed_sha256: &str,
) -> Result<String, Failure> {
    #[derive(Serialize)]
    struct Ic<'a> {
        declared_sha256: &'a str,
        logical_path: &'a str,
        observed_sha256: &'a str,
        root_artifact_id: &'a str,
    }
    let key = Ic {
        declared_sha256,
        logical_path,
        observed_sha256,
        root_artifact_id,
    };
    content_id("ic_", &key).map_err(internal)
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

pub fn manifest_id(root_artifact_id: &str, graph_sha256: &str) -> Result<String, Failure> {
    #[derive(Serialize)]
    struct Agm<'a> {
        graph_sha256: &'a str,
        root_artifact_id: &'a str,
        schema_version: u32,
    }
    content_id(
        "agm_",
        &Agm {
            graph_sha256,
            root_artifact_id,
            schema_version: 1,
        },
    )
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

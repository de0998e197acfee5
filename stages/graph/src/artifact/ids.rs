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
//!
//! A directory's digest covers names, kinds, symlink targets and child contents, so the root
//! digest commits to the whole tree. Nothing here depends on the input's absolute path.

use rea_core::{Failure, FailureReason};
use rea_hash::{CanonicalError, content_id, digest_canonical};
use serde::Serialize;
use serde_json::json;

/// One child line of a directory digest.
#[derive(Debug, Clone, Serialize)]
pub struct DirectoryChild<'a> {
    pub name: &'a str,
    pub entry_kind: &'a str,
    pub artifact_id: Option<&'a str>,
    pub link_target: Option<&'a str>,
}

pub fn directory_sha256(children: &[DirectoryChild<'_>]) -> Result<String, Failure> {
    digest_canonical(&json!({"kind": "directory", "children": children})).map_err(internal)
}

pub fn artifact_id(sha256: &str) -> Result<String, Failure> {
    content_id("art_", &json!({"schema_version": 1, "sha256": sha256})).map_err(internal)
}

pub fn root_occurrence_id(root_artifact_id: &str) -> Result<String, Failure> {
    content_id("occ_", &json!({"root": root_artifact_id})).map_err(internal)
}

pub fn occurrence_id(
    root_artifact_id: &str,
    logical_path: &str,
    entry_kind: &str,
) -> Result<String, Failure> {
    content_id(
        "occ_",
        &json!({"root_artifact_id": root_artifact_id, "logical_path": logical_path, "entry_kind": entry_kind}),
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
    content_id(
        "edge_",
        &json!({
            "parent_artifact_id": parent_artifact_id,
            "child_artifact_id": child_artifact_id,
            "relation": relation,
            "occurrence_id": occurrence_id,
            "logical_path": logical_path,
        }),
    )
    .map_err(internal)
}

pub fn contradiction_id(
    root_artifact_id: &str,
    logical_path: &str,
    declared_sha256: &str,
    observed_sha256: &str,
) -> Result<String, Failure> {
    content_id(
        "ic_",
        &json!({
            "root_artifact_id": root_artifact_id,
            "logical_path": logical_path,
            "declared_sha256": declared_sha256,
            "observed_sha256": observed_sha256,
        }),
    )
    .map_err(internal)
}

/// `graph_sha256` over the four complete arrays, which may be typed values or JSON values.
pub fn graph_sha256<N: Serialize, O: Serialize, E: Serialize, C: Serialize>(
    nodes: &[N],
    occurrences: &[O],
    edges: &[E],
    contradictions: &[C],
) -> Result<String, Failure> {
    #[derive(Serialize)]
    struct Graph<'a, N, O, E, C> {
        nodes: &'a [N],
        occurrences: &'a [O],
        edges: &'a [E],
        integrity_contradictions: &'a [C],
    }
    digest_canonical(&Graph {
        nodes,
        occurrences,
        edges,
        integrity_contradictions: contradictions,
    })
    .map_err(internal)
}

pub fn manifest_id(root_artifact_id: &str, graph_sha256: &str) -> Result<String, Failure> {
    content_id(
        "agm_",
        &json!({"schema_version": 1, "root_artifact_id": root_artifact_id, "graph_sha256": graph_sha256}),
    )
    .map_err(internal)
}

fn internal(err: CanonicalError) -> Failure {
    Failure::new(FailureReason::Internal, "graph value has no canonical form").with_source(err)
}

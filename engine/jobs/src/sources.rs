//! `compare_source_to_bundle`: a historical source tree (a repository at some commit) against
//! one analysis of a shipped JavaScript application.
//!
//! The reference is a `HistoricalSourceGraph/v1` given as JSON (checked, its commitment
//! recomputed), or a directory that this job inventories into one: every file below it hashed
//! on the pool as the inventory hashes, with version-control metadata (`.git`, `.hg`, `.svn`)
//! and `node_modules` left out as `caller-excluded` and likely secrets (`.env*`, `*.pem`,
//! `*.key`, `*.p12`, `*.pfx`, `id_rsa*`, `id_ed25519*`, `id_ecdsa*`, `.npmrc`, `.netrc`,
//! `.pypirc`) as `configured-secret`, never read; a file over 256 MiB is `size-limit`, and a
//! tree of more than 16 GiB fails with a typed `limit`. Containers in the tree are files like any
//! other; the root's own path is never recorded (`$REFERENCE_ROOT`). The application is a
//! complete `analyze_javascript_application` Evidence record, validated again before use.
//! Plan: for a directory, traverse ⇢ hash (the inventory's own stream of stages); then graph
//! (read the reference, compare) → seal → validate. The comparison itself is
//! [`rea_graph::sources`].

use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use crossbeam_channel::Sender;
use rea_core::{Failure, FailureReason, IntegrityPolicy, Limits as WalkLimits};
use rea_exec::{NodeId, Plan, PlanError, StageCx};
use rea_graph::sources::{self, Exclusion, Reference, ReferenceEntry};
use rea_hash::{HashOutcome, HashedEntry};
use rea_seal::EvidenceDraft;
use rea_traverse::{Entry, EntryKind, InputKind, WalkNotes, WalkTally};
use serde_json::{Value, json};

use crate::common::{Side, derive_after, plan_failure, validated_application};
use crate::engine::{Engine, JobControl, Published};
use crate::inventory::{add_entry_stream, in_range, invalid};
use crate::slot::Slot;

pub use rea_graph::sources::{
    DEFAULT_APPLICATION_NODES, DEFAULT_CANDIDATE_EVALUATIONS, DEFAULT_CANDIDATE_NODES,
    DEFAULT_SOURCE_FILES, Limits, MAX_APPLICATION_NODES, MAX_CANDIDATE_EVALUATIONS,
    MAX_CANDIDATE_NODES, MAX_SOURCE_FILES, OPERATION, REFERENCE_SCHEMA, STANDING_LIMITATIONS,
};

/// Directory names a directory reference leaves out.
const LEFT_OUT_DIRECTORIES: [&str; 4] = [".git", ".hg", ".svn", "node_modules"];
/// A directory reference's largest file hashed, and the most bytes it hashes in all.
const MAX_SOURCE_FILE_BYTES: u64 = 256 * 1024 * 1024;
const MAX_SOURCE_TREE_BYTES: u64 = 16 * 1024 * 1024 * 1024;
/// Reference limitations listed; the rest are counted.
const MAX_REFERENCE_LIMITATIONS: usize = 64;

/// Where the reference comes from.
#[derive(Debug, Clone)]
pub enum SourceReference {
    /// A `HistoricalSourceGraph/v1` as JSON.
    Graph(Value),
    /// A directory to inventory into one.
    Directory(PathBuf),
}

/// A comparison to run.
#[derive(Debug, Clone)]
pub struct SourceBundleRequest {
    pub reference: SourceReference,
    pub application: Side,
    pub limits: Limits,
}

impl Engine {
    /// Compares a source tree with an application analysis. Returns only validated Evidence.
    pub fn compare_source_to_bundle(
        &self,
        request: SourceBundleRequest,
        ctl: &JobControl<'_>,
    ) -> Result<Published, Failure> {
        check(&request.limits)?;
        let SourceBundleRequest {
            reference,
            application,
            limits,
        } = request;
        let parameters = json!({
            "max_application_nodes": limits.max_application_nodes,
            "max_candidate_evaluations": limits.max_candidate_evaluations,
            "max_candidate_nodes": limits.max_candidate_nodes,
            "max_source_files": limits.max_source_files,
        });
        // A directory is resolved before the job starts, so a bad path fails at once; it is
        // then walked and hashed by the job's own traverse and hash stages.
        let mut plan = Plan::new();
        let (after, reference) = match reference {
            SourceReference::Directory(path) => {
                let input = crate::common::resolve(ctl, &path)?;
                if input.kind != InputKind::Directory {
                    return Err(invalid(
                        "reference",
                        "reference: a path must name a directory".to_owned(),
                    ));
                }
                let (hash, tree) = plan_tree(&mut plan, input.path).map_err(plan_failure)?;
                (Some(hash), Pending::Tree(tree))
            }
            SourceReference::Graph(value) => (None, Pending::Graph(value)),
        };
        derive_after(self, ctl, "comparison complete", plan, after, move |cx| {
            let validated = validated_application(&application, "application")?;
            let reference = match reference {
                Pending::Graph(value) => Reference::read(&value)?,
                Pending::Tree(tree) => tree.reference()?,
            };
            cx.check()?;
            let id = validated.evidence_id().to_owned();
            let result = sources::compare(
                cx,
                &reference,
                validated.result_bytes(),
                &id,
                limits,
                &parameters,
            )?;
            Ok(draft(&id, result, parameters))
        })
    }
}

/// A reference still to be read: given as JSON, or a directory's walk and hash to come.
enum Pending {
    Graph(Value),
    Tree(Tree),
}

/// What a directory reference's traverse and hash stages leave.
struct Tree {
    hashed: Slot<Vec<HashedEntry>>,
    notes: Slot<WalkNotes>,
    exclusions: Arc<Mutex<Vec<Exclusion>>>,
    root: PathBuf,
}

/// Adds the traverse and hash stages of the directory `root` (walked with [`left_out`]
/// pruned, containers not expanded) to `plan`; returns the hash node.
fn plan_tree(plan: &mut Plan, root: PathBuf) -> Result<(NodeId, Tree), PlanError> {
    // A source tree's file past MAX_SOURCE_FILE_BYTES (a media file, a checked-in binary) is
    // excluded as `size-limit` rather than hashed, and the whole tree is bounded.
    let limits = WalkLimits {
        max_entry_bytes: MAX_SOURCE_FILE_BYTES,
        max_total_bytes: MAX_SOURCE_TREE_BYTES,
        ..WalkLimits::default()
    };
    let exclusions: Arc<Mutex<Vec<Exclusion>>> = Arc::default();
    let walk = {
        let (root, exclusions) = (root.clone(), exclusions.clone());
        move |cx: &StageCx<'_>, tally: &WalkTally, tx: &Sender<Entry>| {
            let mut prune = |path: &str, kind: EntryKind| match left_out(path, kind) {
                Some(reason) => {
                    exclusions
                        .lock()
                        .unwrap_or_else(|p| p.into_inner())
                        .push(Exclusion {
                            path: path.to_owned(),
                            reason: reason.to_owned(),
                        });
                    true
                }
                None => false,
            };
            rea_traverse::directory::walk_pruned(cx, &root, &limits, tally, tx, &mut prune, false)
        }
    };
    let stream = add_entry_stream(plan, limits, IntegrityPolicy::Fail, walk)?;
    Ok((
        stream.hash,
        Tree {
            hashed: stream.hashed,
            notes: stream.notes,
            exclusions,
            root,
        },
    ))
}

fn check(limits: &Limits) -> Result<(), Failure> {
    let ranges: [(&str, u64, u64); 4] = [
        (
            "max_source_files",
            limits.max_source_files as u64,
            MAX_SOURCE_FILES as u64,
        ),
        (
            "max_application_nodes",
            limits.max_application_nodes as u64,
            MAX_APPLICATION_NODES as u64,
        ),
        (
            "max_candidate_nodes",
            limits.max_candidate_nodes as u64,
            MAX_CANDIDATE_NODES as u64,
        ),
        (
            "max_candidate_evaluations",
            limits.max_candidate_evaluations,
            MAX_CANDIDATE_EVALUATIONS,
        ),
    ];
    for (field, value, most) in ranges {
        in_range(field, value, 1, most)?;
    }
    Ok(())
}

/// Why a path below a directory reference is left out, if it is.
fn left_out(path: &str, kind: EntryKind) -> Option<&'static str> {
    let name = path.rsplit('/').next().unwrap_or(path);
    if kind == EntryKind::Directory && LEFT_OUT_DIRECTORIES.contains(&name) {
        return Some("caller-excluded");
    }
    if kind == EntryKind::Directory {
        return None;
    }
    let lower = name.to_ascii_lowercase();
    let secret = lower.starts_with(".env")
        || [".pem", ".key", ".p12", ".pfx"]
            .iter()
            .any(|ext| lower.ends_with(ext))
        || ["id_rsa", "id_ed25519", "id_ecdsa"]
            .iter()
            .any(|key| lower.starts_with(key))
        || matches!(lower.as_str(), ".npmrc" | ".netrc" | ".pypirc");
    secret.then_some("configured-secret")
}

impl Tree {
    /// The reference the directory's walk and hash make.
    fn reference(self) -> Result<Reference, Failure> {
        inventory(
            self.hashed.take("hashed entries")?,
            self.notes.take("walk notes")?,
            std::mem::take(&mut *self.exclusions.lock().unwrap_or_else(|p| p.into_inner())),
            &self.root,
        )
    }
}

/// The reference made of a directory's hashed entries, what its walk noted and left out.
fn inventory(
    hashed: Vec<HashedEntry>,
    notes: WalkNotes,
    mut exclusions: Vec<Exclusion>,
    root: &std::path::Path,
) -> Result<Reference, Failure> {
    let mut size_excluded = Vec::new();
    let mut limitations: Vec<String> = notes.limitations.clone();
    limitations.extend(notes.incomplete.values().flatten().cloned());
    let mut complete = limitations.is_empty();
    let mut entries = Vec::with_capacity(hashed.len());
    let mut manifests = Vec::new();
    for HashedEntry { entry, outcome } in hashed {
        let kind = match entry.kind {
            EntryKind::Directory => "directory",
            EntryKind::Symlink => "symlink",
            _ => "file",
        };
        let sha256 = match &outcome {
            HashOutcome::Hashed(digest, _) => Some(digest.sha256.clone()),
            HashOutcome::NotHashedLimit => {
                size_excluded.push(Exclusion {
                    path: entry.logical_path,
                    reason: "size-limit".to_owned(),
                });
                continue;
            }
            _ => None,
        };
        if kind == "file" && sha256.is_none() {
            complete = false;
        }
        limitations.extend(
            entry
                .limitations
                .iter()
                .map(|l| format!("{}: {l}", entry.logical_path)),
        );
        if entry.logical_path.rsplit('/').next() == Some("package.json")
            && let Some(sha) = &sha256
        {
            manifests.push(json!({"path": entry.logical_path, "sha256": sha}));
        }
        entries.push(ReferenceEntry {
            size: (kind == "file").then_some(entry.declared_size).flatten(),
            path: entry.logical_path,
            kind: kind.to_owned(),
            sha256,
        });
    }
    exclusions.append(&mut size_excluded);
    manifests.sort_by(|a, b| a["path"].as_str().cmp(&b["path"].as_str()));
    limitations.sort();
    let omitted = limitations.len().saturating_sub(MAX_REFERENCE_LIMITATIONS);
    limitations.truncate(MAX_REFERENCE_LIMITATIONS);
    if omitted > 0 {
        limitations.push(format!("{omitted} further limitation(s) not listed"));
    }
    if !exclusions.is_empty() {
        limitations.push(
            "Version-control metadata, node_modules and likely secrets were left out (see exclusions)."
                .to_owned(),
        );
    }
    Reference::build(
        entries,
        exclusions,
        complete,
        json!(manifests),
        vcs_of(root),
        json!({"importer": "rea", "importer_version": crate::REA_VERSION, "caller": "directory"}),
        limitations,
    )
    .map_err(|_| {
        Failure::new(
            FailureReason::Internal,
            "reference could not be made canonical",
        )
    })
}

/// The Git commit checked out at `root`, from `.git/HEAD` (and the ref it names, loose or
/// packed); whether the work tree differs from it is not known.
fn vcs_of(root: &std::path::Path) -> Value {
    let git = root.join(".git");
    if !git.is_dir() {
        return json!({"kind": "none"});
    }
    let read = |path: PathBuf| -> Option<String> {
        use std::io::Read;
        let mut text = String::new();
        std::fs::File::open(path)
            .ok()?
            .take(16 << 20)
            .read_to_string(&mut text)
            .ok()?;
        Some(text)
    };
    let is_hex =
        |text: &str| matches!(text.len(), 40 | 64) && text.bytes().all(|b| b.is_ascii_hexdigit());
    let head = read(git.join("HEAD")).and_then(|head| {
        let head = head.trim();
        if is_hex(head) {
            return Some(head.to_ascii_lowercase());
        }
        let name = head.strip_prefix("ref: ")?.trim();
        if name.split('/').any(|part| matches!(part, "" | "." | "..")) {
            return None;
        }
        if let Some(loose) = read(git.join(name)).filter(|t| is_hex(t.trim())) {
            return Some(loose.trim().to_ascii_lowercase());
        }
        read(git.join("packed-refs"))?.lines().find_map(|line| {
            let (hash, packed) = line.split_once(' ')?;
            (packed.trim() == name && is_hex(hash)).then(|| hash.to_ascii_lowercase())
        })
    });
    json!({"kind": "git", "head": head, "dirty": null})
}

fn draft(application: &str, result: Value, parameters: Value) -> EvidenceDraft {
    crate::common::application_workflow_draft(
        "rea.source-bundle-comparison/v1",
        OPERATION,
        result,
        parameters,
        vec![application.to_owned()],
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn secrets_and_metadata_are_left_out_and_sources_are_not() {
        assert_eq!(
            left_out("a/.git", EntryKind::Directory),
            Some("caller-excluded")
        );
        assert_eq!(
            left_out("node_modules", EntryKind::Directory),
            Some("caller-excluded")
        );
        assert_eq!(
            left_out("x/.env.production", EntryKind::File),
            Some("configured-secret")
        );
        assert_eq!(
            left_out("certs/server.PEM", EntryKind::File),
            Some("configured-secret")
        );
        assert_eq!(
            left_out("id_rsa.pub", EntryKind::File),
            Some("configured-secret")
        );
        assert_eq!(left_out("src/.git", EntryKind::File), None);
        assert_eq!(left_out("src/keyboard.js", EntryKind::File), None);
        assert_eq!(left_out("src/env.js", EntryKind::Directory), None);
    }
}

//! Building the inventory graph from hashed entries.

use std::collections::{BTreeMap, HashMap};

use rayon::prelude::*;

use rea_core::Failure;
use rea_exec::StageCx;
use rea_hash::{HashOutcome, HashedEntry, StreamDigest, Verdict};
use rea_traverse::{EntryKind, EntrySource, WalkNotes};

use super::classify::{Class, classify_directory, classify_file};
use super::ids;
use super::types::{
    ArtifactNode, Contradiction, Edge, HashStatus, InventoryGraph, Manifest, Occurrence, Summary,
};

/// What the root of the input is.
#[derive(Debug, Clone)]
pub enum RootContent {
    /// A directory whose entries are the hashed entries.
    Directory,
    /// A single file, already hashed; there are no entries.
    File { name: String, digest: StreamDigest },
}

/// Builds the graph. Output order depends only on content and paths, never on input order.
/// `hashed` is sorted by logical path in place and left to the caller.
pub fn build(
    cx: &StageCx<'_>,
    root: RootContent,
    hashed: &mut [HashedEntry],
    notes: WalkNotes,
) -> Result<InventoryGraph, Failure> {
    hashed.sort_unstable_by(|a, b| a.entry.logical_path.cmp(&b.entry.logical_path));
    let hashed: &[HashedEntry] = hashed;
    let digests = digest_all(cx, hashed)?;
    let (root_sha, root_class, root_size, root_state) = match &root {
        RootContent::Directory => {
            let children = children_of(hashed, "");
            let lines = child_lines(hashed, &digests, &children);
            (
                ids::directory_sha256(&lines)?,
                classify_directory(""),
                None,
                "virtual",
            )
        }
        RootContent::File { name, digest } => (
            digest.sha256.clone(),
            classify_file(name, &digest.head),
            Some(digest.bytes),
            "materialized",
        ),
    };
    let root_artifact_id = ids::artifact_id(&root_sha)?;
    let root_occurrence_id = ids::root_occurrence_id(&root_artifact_id)?;

    let mut nodes: BTreeMap<String, ArtifactNode> = BTreeMap::new();
    nodes.insert(
        root_artifact_id.clone(),
        ArtifactNode {
            artifact_id: root_artifact_id.clone(),
            kind: root_class.kind.to_owned(),
            format: root_class.format.to_owned(),
            sha256: root_sha.clone(),
            size: root_size,
            content_state: root_state.to_owned(),
            limitations: Vec::new(),
        },
    );
    let mut summary = Summary::default();
    let mut occurrences = Vec::with_capacity(hashed.len() + 1);
    let mut root_limitations = Vec::new();
    if let Some(skipped) = notes.incomplete.get("") {
        root_limitations.extend(skipped.iter().cloned());
    }
    occurrences.push(Occurrence {
        occurrence_id: root_occurrence_id.clone(),
        artifact_id: Some(root_artifact_id.clone()),
        parent_occurrence_id: None,
        logical_path: ".".to_owned(),
        entry_kind: match root {
            RootContent::Directory => "directory",
            RootContent::File { .. } => "file",
        }
        .to_owned(),
        size: root_size,
        declared_size: root_size,
        sha256: Some(root_sha.clone()),
        unpacked: false,
        hash_status: match root {
            RootContent::Directory => HashStatus::Derived,
            RootContent::File { .. } => HashStatus::Hashed,
        },
        executable: false,
        link_target: None,
        limitations: root_limitations,
    });
    if let RootContent::File { digest, .. } = &root {
        summary.bytes_hashed = digest.bytes;
    }

    // Ids are independent per entry: compute them on the pool, then assemble in order.
    let index: HashMap<&str, usize> = hashed
        .iter()
        .enumerate()
        .map(|(i, h)| (h.entry.logical_path.as_str(), i))
        .collect();
    let parent_of: Vec<Option<usize>> = hashed
        .iter()
        .map(|h| index.get(parent_path(&h.entry.logical_path)).copied())
        .collect();
    let occurrence_ids: Vec<String> = hashed
        .par_iter()
        .map(|h| {
            cx.check()?;
            ids::occurrence_id(
                &root_artifact_id,
                &h.entry.logical_path,
                h.entry.kind.as_str(),
            )
        })
        .collect::<Result<_, Failure>>()?;
    let parent_ids = |i: usize| -> (String, Option<String>) {
        match parent_of[i] {
            Some(p) => (
                occurrence_ids[p].clone(),
                digests[p].as_ref().map(|d| d.artifact_id.clone()),
            ),
            None => (root_occurrence_id.clone(), Some(root_artifact_id.clone())),
        }
    };
    let edge_ids: Vec<Option<String>> = (0..hashed.len())
        .into_par_iter()
        .map(|i| {
            cx.check()?;
            let (Some(digest), (_, Some(parent))) = (&digests[i], parent_ids(i)) else {
                return Ok(None);
            };
            let path = &hashed[i].entry.logical_path;
            ids::edge_id(
                &parent,
                &digest.artifact_id,
                "contains",
                &occurrence_ids[i],
                path,
            )
            .map(Some)
        })
        .collect::<Result<_, Failure>>()?;
    let mut edges = Vec::new();
    let mut contradictions = Vec::new();
    for (i, (item, digest)) in hashed.iter().zip(&digests).enumerate() {
        cx.check()?;
        let entry = &item.entry;
        let path = entry.logical_path.as_str();
        let kind = entry.kind.as_str();
        let occurrence_id = occurrence_ids[i].clone();
        let artifact_id = digest.as_ref().map(|d| d.artifact_id.clone());
        let (parent_occurrence_id, parent_artifact_id) = parent_ids(i);
        let mut limitations = entry.limitations.clone();
        if let Some(skipped) = notes.incomplete.get(path) {
            limitations.extend(skipped.iter().cloned());
            summary.skipped += skipped.len() as u64;
        }
        let (hash_status, size) = match (&item.outcome, entry.kind) {
            (HashOutcome::Hashed(d, verdict), _) => (status_of(verdict), Some(d.bytes)),
            (_, EntryKind::Directory) => (HashStatus::Derived, None),
            (HashOutcome::NotHashedLimit, _) => (HashStatus::NotHashedLimit, entry.declared_size),
            (HashOutcome::Unavailable, _) => (HashStatus::Unavailable, entry.declared_size),
            (HashOutcome::NotHashed, _) => (HashStatus::NotHashed, None),
        };
        match entry.kind {
            EntryKind::File => summary.files += 1,
            EntryKind::Directory => summary.directories += 1,
            EntryKind::Symlink => summary.symlinks += 1,
        }
        if let HashOutcome::Hashed(d, _) = &item.outcome {
            summary.bytes_hashed += d.bytes;
        }
        match hash_status {
            HashStatus::Verified => summary.verified += 1,
            HashStatus::Mismatched => summary.mismatched += 1,
            HashStatus::Unverifiable => summary.unverifiable += 1,
            HashStatus::NotHashedLimit => summary.not_hashed_limit += 1,
            HashStatus::Unavailable => summary.unavailable += 1,
            HashStatus::Hashed | HashStatus::Derived | HashStatus::NotHashed => {}
        }
        if let HashOutcome::Hashed(observed, Verdict::Mismatched { declared_sha256 }) =
            &item.outcome
        {
            contradictions.push(Contradiction {
                contradiction_id: ids::contradiction_id(
                    &root_artifact_id,
                    path,
                    declared_sha256,
                    &observed.sha256,
                )?,
                declared_sha256: declared_sha256.clone(),
                entry_kind: kind.to_owned(),
                limitations: vec![CONTRADICTION_NOTE.to_owned()],
                logical_path: path.to_owned(),
                observed_sha256: observed.sha256.clone(),
                occurrence_id: occurrence_id.clone(),
                parent_artifact_id: parent_artifact_id
                    .clone()
                    .unwrap_or_else(|| root_artifact_id.clone()),
                provenance: "container-integrity-metadata-versus-observed-bytes".to_owned(),
                trust: "observed-untrusted".to_owned(),
                unpacked: entry.unpacked,
            });
        }
        if let Some(digest) = digest {
            nodes
                .entry(digest.artifact_id.clone())
                .or_insert_with(|| ArtifactNode {
                    artifact_id: digest.artifact_id.clone(),
                    kind: digest.class.kind.to_owned(),
                    format: digest.class.format.to_owned(),
                    sha256: digest.sha256.clone(),
                    size: digest.size,
                    content_state: content_state(entry.kind, &entry.source).to_owned(),
                    limitations: Vec::new(),
                });
            if let (Some(parent_artifact_id), Some(edge_id)) = (&parent_artifact_id, &edge_ids[i]) {
                edges.push(Edge {
                    edge_id: edge_id.clone(),
                    parent_artifact_id: parent_artifact_id.clone(),
                    child_artifact_id: digest.artifact_id.clone(),
                    relation: "contains".to_owned(),
                    occurrence_id: occurrence_id.clone(),
                    logical_path: path.to_owned(),
                });
            }
        }
        occurrences.push(Occurrence {
            occurrence_id,
            artifact_id,
            parent_occurrence_id: Some(parent_occurrence_id),
            logical_path: path.to_owned(),
            entry_kind: kind.to_owned(),
            size,
            declared_size: entry.declared_size,
            sha256: digest.as_ref().map(|d| d.sha256.clone()),
            unpacked: entry.unpacked,
            hash_status,
            executable: entry.executable,
            link_target: entry.link_target.clone(),
            limitations,
        });
    }
    summary.entries = hashed.len() as u64;
    summary.skipped += notes.incomplete.get("").map_or(0, |v| v.len() as u64);
    let nodes: Vec<ArtifactNode> = nodes.into_values().collect();
    summary.distinct_contents = nodes.len() as u64;
    edges.sort_unstable_by(|a, b| a.edge_id.cmp(&b.edge_id));

    contradictions.sort_unstable_by(|a, b| a.contradiction_id.cmp(&b.contradiction_id));
    let graph_sha256 = ids::graph_sha256(&nodes, &occurrences, &edges, &contradictions)?;
    let manifest = Manifest {
        schema_version: 1,
        manifest_id: ids::manifest_id(&root_artifact_id, &graph_sha256)?,
        root_artifact_id,
        root_sha256: root_sha,
        root_format: root_class.format.to_owned(),
        graph_sha256,
        node_count: nodes.len() as u64,
        occurrence_count: occurrences.len() as u64,
        edge_count: edges.len() as u64,
        contradiction_count: contradictions.len() as u64,
    };
    Ok(InventoryGraph {
        manifest,
        limitations: top_limitations(&notes, &summary),
        nodes,
        occurrences,
        edges,
        integrity_contradictions: contradictions,
        summary,
    })
}

/// The fixed note every contradiction carries.
const CONTRADICTION_NOTE: &str =
    "Observed bytes contradict declared integrity metadata and cannot support equivalence.";

fn status_of(verdict: &Verdict) -> HashStatus {
    match verdict {
        Verdict::Undeclared => HashStatus::Hashed,
        Verdict::Verified => HashStatus::Verified,
        Verdict::Unverifiable => HashStatus::Unverifiable,
        Verdict::Mismatched { .. } => HashStatus::Mismatched,
    }
}

fn content_state(kind: EntryKind, source: &EntrySource) -> &'static str {
    match (kind, source) {
        (EntryKind::Directory, _) => "virtual",
        (_, EntrySource::Range { .. } | EntrySource::ZipMember { .. }) => "embedded",
        _ => "materialized",
    }
}

/// The digest facts of one entry that has content.
struct Digested {
    sha256: String,
    artifact_id: String,
    size: Option<u64>,
    class: Class,
}

/// Digests every file, then every directory deepest first, so that a directory's children are
/// known before it.
fn digest_all(cx: &StageCx<'_>, hashed: &[HashedEntry]) -> Result<Vec<Option<Digested>>, Failure> {
    let mut digests: Vec<Option<Digested>> = hashed
        .par_iter()
        .map(|item| {
            cx.check()?;
            Ok(match &item.outcome {
                HashOutcome::Hashed(d, _) => Some(Digested {
                    artifact_id: ids::artifact_id(&d.sha256)?,
                    sha256: d.sha256.clone(),
                    size: Some(d.bytes),
                    class: classify_file(&item.entry.logical_path, &d.head),
                }),
                _ => None,
            })
        })
        .collect::<Result<_, Failure>>()?;
    let mut dirs: Vec<usize> = (0..hashed.len())
        .filter(|&i| hashed[i].entry.kind == EntryKind::Directory)
        .collect();
    dirs.sort_by_key(|&i| {
        std::cmp::Reverse(rea_traverse::path::depth(&hashed[i].entry.logical_path))
    });
    let index = children_index(hashed);
    for i in dirs {
        cx.check()?;
        let path = hashed[i].entry.logical_path.as_str();
        let children = index.get(path).map(Vec::as_slice).unwrap_or(&[]);
        let sha256 = ids::directory_sha256(&child_lines(hashed, &digests, children))?;
        digests[i] = Some(Digested {
            artifact_id: ids::artifact_id(&sha256)?,
            sha256,
            size: None,
            class: classify_directory(path),
        });
    }
    Ok(digests)
}

fn children_index(hashed: &[HashedEntry]) -> HashMap<&str, Vec<usize>> {
    let mut index: HashMap<&str, Vec<usize>> = HashMap::new();
    for (i, item) in hashed.iter().enumerate() {
        index
            .entry(parent_path(&item.entry.logical_path))
            .or_default()
            .push(i);
    }
    index
}

fn children_of(hashed: &[HashedEntry], parent: &str) -> Vec<usize> {
    (0..hashed.len())
        .filter(|&i| parent_path(&hashed[i].entry.logical_path) == parent)
        .collect()
}

/// Directory digest lines; `children` are in path order, which is name order among siblings.
fn child_lines<'a>(
    hashed: &'a [HashedEntry],
    digests: &'a [Option<Digested>],
    children: &[usize],
) -> Vec<ids::DirectoryChild<'a>> {
    children
        .iter()
        .map(|&i| {
            let entry = &hashed[i].entry;
            ids::DirectoryChild {
                name: entry
                    .logical_path
                    .rsplit('/')
                    .next()
                    .unwrap_or(&entry.logical_path),
                entry_kind: entry.kind.as_str(),
                artifact_id: digests[i].as_ref().map(|d| d.artifact_id.as_str()),
                link_target: entry.link_target.as_deref(),
            }
        })
        .collect()
}

/// The parent of a logical path; `""` is the root.
fn parent_path(path: &str) -> &str {
    path.rfind('/').map_or("", |at| &path[..at])
}

fn top_limitations(notes: &WalkNotes, summary: &Summary) -> Vec<String> {
    let mut out = notes.limitations.clone();
    if summary.skipped > 0 {
        out.push(format!(
            "{} entries were skipped; each is noted on its parent directory's occurrence",
            summary.skipped
        ));
    }
    if summary.unavailable > 0 {
        out.push(format!(
            "{} files could not be read; their occurrences have hash_status unavailable",
            summary.unavailable
        ));
    }
    if summary.mismatched > 0 {
        out.push(format!(
            "{} integrity contradiction(s) were recorded; mismatched content is observed-untrusted",
            summary.mismatched
        ));
    }
    if summary.unverifiable > 0 {
        out.push(format!(
            "{} entries declare integrity that cannot be checked; they are unverifiable",
            summary.unverifiable
        ));
    }
    if summary.not_hashed_limit > 0 {
        out.push(format!(
            "{} files were larger than max_entry_bytes and were not hashed",
            summary.not_hashed_limit
        ));
    }
    out
}

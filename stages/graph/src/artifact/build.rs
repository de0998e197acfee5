//! Building the inventory graph from hashed entries.

use std::collections::BTreeMap;

use rayon::prelude::*;

use rea_core::{Failure, IntegrityPolicy};
use rea_exec::StageCx;
use rea_hash::{HashOutcome, HashedEntry, StreamDigest, Verdict};
use rea_traverse::{EntryKind, EntrySource, WalkNotes};

use super::classify::{Class, classify_directory, classify_file};
use super::ids;
use super::types::{
    ArtifactNode, Contradiction, Edge, HashStatus, InventoryGraph, Manifest, Occurrence, Summary,
};
use super::{asar_integrity, electron_fuses};

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
///
/// Every per-entry step (digests, ids, occurrences, edges, distinct contents) runs on the
/// rayon pool; only the counts and the rare contradictions are gathered in one pass.
pub fn build(
    cx: &StageCx<'_>,
    root: RootContent,
    hashed: &mut [HashedEntry],
    notes: WalkNotes,
    policy: IntegrityPolicy,
) -> Result<InventoryGraph, Failure> {
    hashed.par_sort_unstable_by(|a, b| a.entry.logical_path.cmp(&b.entry.logical_path));
    let hashed: &[HashedEntry] = hashed;
    let tree = Tree::of(hashed);
    let digests = digest_all(cx, hashed, &tree)?;
    let (root_sha, root_class, root_size, root_state) = match &root {
        RootContent::Directory => {
            let lines = child_lines(hashed, &digests, &tree.root_children);
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
    let root_node = ArtifactNode {
        artifact_id: root_artifact_id.clone(),
        kind: root_class.kind.to_owned(),
        format: root_class.format.to_owned(),
        sha256: root_sha.clone(),
        size: root_size,
        content_state: root_state.to_owned(),
        limitations: Vec::new(),
    };
    let mut root_limitations = Vec::new();
    if let Some(skipped) = notes.incomplete.get("") {
        root_limitations.extend(skipped.iter().cloned());
    }
    let root_occurrence = Occurrence {
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
    };

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
    let parent_ids = |i: usize| -> (&str, Option<&str>) {
        match tree.parent_of[i] {
            Some(p) => (
                occurrence_ids[p].as_str(),
                digests[p].as_ref().map(|d| d.artifact_id.as_str()),
            ),
            None => (root_occurrence_id.as_str(), Some(root_artifact_id.as_str())),
        }
    };

    let (summary, mut contradictions) = tally(
        cx,
        hashed,
        &notes,
        &root,
        &root_artifact_id,
        &occurrence_ids,
        &parent_ids,
    )?;
    let of_entry = |i: usize| (occurrence_ids[i].as_str(), parent_ids(i).1);
    let headers = asar_integrity::check(
        cx,
        hashed,
        &notes,
        policy,
        &asar_integrity::Place {
            root_artifact_id: &root_artifact_id,
            root_occurrence_id: &root_occurrence_id,
            of_entry: &of_entry,
        },
    )?;
    if !headers.contradictions.is_empty() {
        contradictions.extend(headers.contradictions);
        contradictions.sort_unstable_by(|a, b| a.contradiction_id.cmp(&b.contradiction_id));
        // Header contradictions count against the same budget as the entries' (the hash stage
        // stopped at it for those).
        if let IntegrityPolicy::RecordAndContinue { max_mismatches } = policy
            && contradictions.len() > max_mismatches as usize
        {
            return Err(Failure::new(
                rea_core::FailureReason::Limit,
                "more integrity mismatches than max_integrity_mismatches allows",
            )
            .with_detail("limit", "max_integrity_mismatches")
            .with_detail("maximum", max_mismatches)
            .with_detail("truncated", true));
        }
    }
    let mut header_limitations = headers.limitations;
    let fuses = electron_fuses::read(
        cx,
        hashed,
        &notes,
        &|i| occurrence_ids[i].clone(),
        &mut header_limitations,
    )?;
    header_limitations.extend(electron_fuses::undeclared_under_the_fuse(
        &fuses,
        &headers.headers,
    ));
    let mut occurrences = Vec::with_capacity(hashed.len() + 1);
    occurrences.push(root_occurrence);
    occurrences.par_extend((0..hashed.len()).into_par_iter().map(|i| {
        let (item, digest) = (&hashed[i], &digests[i]);
        let entry = &item.entry;
        let mut limitations = entry.limitations.clone();
        if let Some(skipped) = notes.incomplete.get(entry.logical_path.as_str()) {
            limitations.extend(skipped.iter().cloned());
        }
        let (hash_status, size) = status_and_size(item);
        Occurrence {
            occurrence_id: occurrence_ids[i].clone(),
            artifact_id: digest.as_ref().map(|d| d.artifact_id.clone()),
            parent_occurrence_id: Some(parent_ids(i).0.to_owned()),
            logical_path: entry.logical_path.clone(),
            entry_kind: entry.kind.as_str().to_owned(),
            size,
            declared_size: entry.declared_size,
            sha256: digest.as_ref().map(|d| d.sha256.clone()),
            unpacked: entry.unpacked,
            hash_status,
            executable: entry.executable,
            link_target: entry.link_target.clone(),
            limitations,
        }
    }));
    cx.check()?;
    let mut edges: Vec<Edge> = (0..hashed.len())
        .into_par_iter()
        .filter_map(|i| {
            let (Some(digest), (_, Some(parent))) = (&digests[i], parent_ids(i)) else {
                return None;
            };
            let path = &hashed[i].entry.logical_path;
            let occurrence_id = &occurrence_ids[i];
            Some(
                ids::edge_id(parent, &digest.artifact_id, "contains", occurrence_id, path).map(
                    |edge_id| Edge {
                        edge_id,
                        parent_artifact_id: parent.to_owned(),
                        child_artifact_id: digest.artifact_id.clone(),
                        relation: "contains".to_owned(),
                        occurrence_id: occurrence_id.clone(),
                        logical_path: path.clone(),
                    },
                ),
            )
        })
        .collect::<Result<_, Failure>>()?;
    edges.par_sort_unstable_by(|a, b| a.edge_id.cmp(&b.edge_id));
    cx.check()?;
    let nodes = distinct_contents(hashed, &digests, root_node);
    let mut summary = summary;
    summary.distinct_contents = nodes.len() as u64;

    let graph_sha256 = ids::typed_graph_sha256(&nodes, &occurrences, &edges, &contradictions)?;
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
    let mut limitations = top_limitations(&notes, &summary);
    limitations.extend(header_limitations);
    Ok(InventoryGraph {
        asar_headers: headers.headers,
        electron_fuses: fuses,
        manifest,
        limitations,
        nodes,
        occurrences,
        edges,
        integrity_contradictions: contradictions,
        summary,
    })
}

/// The counts of the summary, and the integrity contradictions (sorted by id), in one pass.
fn tally<'a>(
    cx: &StageCx<'_>,
    hashed: &[HashedEntry],
    notes: &WalkNotes,
    root: &RootContent,
    root_artifact_id: &str,
    occurrence_ids: &[String],
    parent_ids: &impl Fn(usize) -> (&'a str, Option<&'a str>),
) -> Result<(Summary, Vec<Contradiction>), Failure> {
    let mut summary = Summary::default();
    if let RootContent::File { digest, .. } = root {
        summary.bytes_hashed = digest.bytes;
    }
    let mut contradictions = Vec::new();
    for (i, item) in hashed.iter().enumerate() {
        if i % 4096 == 0 {
            cx.check()?;
        }
        let entry = &item.entry;
        if let Some(skipped) = notes.incomplete.get(entry.logical_path.as_str()) {
            summary.skipped += skipped.len() as u64;
        }
        match entry.kind {
            EntryKind::File => summary.files += 1,
            EntryKind::Directory => summary.directories += 1,
            EntryKind::Symlink => summary.symlinks += 1,
        }
        if let HashOutcome::Hashed(d, _) = &item.outcome {
            summary.bytes_hashed += d.bytes;
        }
        match status_and_size(item).0 {
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
            let path = entry.logical_path.as_str();
            contradictions.push(Contradiction {
                contradiction_id: ids::contradiction_id(
                    root_artifact_id,
                    path,
                    declared_sha256,
                    &observed.sha256,
                )?,
                declared_sha256: declared_sha256.clone(),
                entry_kind: entry.kind.as_str().to_owned(),
                limitations: vec![CONTRADICTION_NOTE.to_owned()],
                logical_path: path.to_owned(),
                observed_sha256: observed.sha256.clone(),
                occurrence_id: occurrence_ids[i].clone(),
                parent_artifact_id: parent_ids(i).1.unwrap_or(root_artifact_id).to_owned(),
                provenance: "container-integrity-metadata-versus-observed-bytes".to_owned(),
                trust: "observed-untrusted".to_owned(),
                unpacked: entry.unpacked,
            });
        }
    }
    summary.entries = hashed.len() as u64;
    summary.skipped += notes.incomplete.get("").map_or(0, |v| v.len() as u64);
    contradictions.sort_unstable_by(|a, b| a.contradiction_id.cmp(&b.contradiction_id));
    Ok((summary, contradictions))
}

/// An occurrence's hash status and size.
fn status_and_size(item: &HashedEntry) -> (HashStatus, Option<u64>) {
    let entry = &item.entry;
    match (&item.outcome, entry.kind) {
        (HashOutcome::Hashed(d, verdict), _) => (status_of(verdict), Some(d.bytes)),
        (_, EntryKind::Directory) => (HashStatus::Derived, None),
        (HashOutcome::NotHashedLimit, _) => (HashStatus::NotHashedLimit, entry.declared_size),
        (HashOutcome::Unavailable, _) => (HashStatus::Unavailable, entry.declared_size),
        (HashOutcome::NotHashed, _) => (HashStatus::NotHashed, None),
    }
}

/// One node per distinct content, sorted by id. Where contents repeat, the node describes the
/// first occurrence in path order; the root's node comes before every entry's.
fn distinct_contents(
    hashed: &[HashedEntry],
    digests: &[Option<Digested>],
    root: ArtifactNode,
) -> Vec<ArtifactNode> {
    let mut with_content: Vec<(&str, usize, &Digested)> = digests
        .iter()
        .enumerate()
        .filter_map(|(i, d)| d.as_ref().map(|d| (d.artifact_id.as_str(), i, d)))
        .collect();
    with_content.par_sort_unstable_by(|a, b| (a.0, a.1).cmp(&(b.0, b.1)));
    with_content.dedup_by(|later, first| later.0 == first.0);
    with_content.retain(|(id, _, _)| *id != root.artifact_id);
    let mut nodes: Vec<ArtifactNode> = with_content
        .par_iter()
        .map(|&(_, i, digest)| {
            let entry = &hashed[i].entry;
            ArtifactNode {
                artifact_id: digest.artifact_id.clone(),
                kind: digest.class.kind.to_owned(),
                format: digest.class.format.to_owned(),
                sha256: digest.sha256.clone(),
                size: digest.size,
                content_state: content_state(entry.kind, &entry.source).to_owned(),
                limitations: Vec::new(),
            }
        })
        .collect();
    let at = nodes.partition_point(|node| node.artifact_id < root.artifact_id);
    nodes.insert(at, root);
    nodes
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
        (
            _,
            EntrySource::Range { .. }
            | EntrySource::ZipMember { .. }
            | EntrySource::Squashfs { .. },
        ) => "embedded",
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

/// Parent and child links of the sorted entries: an entry's parent is the entry at its parent
/// path (`None` for the root, or when the parent path was not walked).
struct Tree {
    parent_of: Vec<Option<usize>>,
    children: Vec<Vec<usize>>,
    /// Entries directly under the root, in path order.
    root_children: Vec<usize>,
}

impl Tree {
    fn of(hashed: &[HashedEntry]) -> Tree {
        let find = |path: &str| {
            let at = hashed.partition_point(|h| h.entry.logical_path.as_str() < path);
            (hashed.get(at)?.entry.logical_path == path).then_some(at)
        };
        let parent_of: Vec<Option<usize>> = hashed
            .par_iter()
            .map(|h| match parent_path(&h.entry.logical_path) {
                "" => None,
                parent => find(parent),
            })
            .collect();
        let mut children = vec![Vec::new(); hashed.len()];
        let mut root_children = Vec::new();
        for (i, parent) in parent_of.iter().enumerate() {
            match parent {
                Some(p) => children[*p].push(i),
                None if parent_path(&hashed[i].entry.logical_path).is_empty() => {
                    root_children.push(i);
                }
                None => {}
            }
        }
        Tree {
            parent_of,
            children,
            root_children,
        }
    }
}

/// Digests every file, then every directory, deepest level first, so that a directory's
/// children are known before it. Files, and the directories of one level, run in parallel.
fn digest_all(
    cx: &StageCx<'_>,
    hashed: &[HashedEntry],
    tree: &Tree,
) -> Result<Vec<Option<Digested>>, Failure> {
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
    let mut levels: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
    for (i, item) in hashed.iter().enumerate() {
        if item.entry.kind == EntryKind::Directory {
            let depth = rea_traverse::path::depth(&item.entry.logical_path);
            levels.entry(depth).or_default().push(i);
        }
    }
    for level in levels.values().rev() {
        cx.check()?;
        let done: Vec<Digested> = level
            .par_iter()
            .map(|&i| {
                let path = hashed[i].entry.logical_path.as_str();
                let lines = child_lines(hashed, &digests, &tree.children[i]);
                let sha256 = ids::directory_sha256(&lines)?;
                Ok(Digested {
                    artifact_id: ids::artifact_id(&sha256)?,
                    sha256,
                    size: None,
                    class: classify_directory(path),
                })
            })
            .collect::<Result<_, Failure>>()?;
        for (&i, digest) in level.iter().zip(done) {
            digests[i] = Some(digest);
        }
    }
    Ok(digests)
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

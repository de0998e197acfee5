//! The artifact graph's ids depend on content and paths only.

use proptest::prelude::*;
use rea_core::{CancelToken, ProgressReporter};
use rea_exec::{StageCx, StageKind};
use rea_graph::artifact::{HashStatus, InventoryGraph, RootContent, build, ids};
use rea_hash::{
    HashOutcome, HashedEntry, StreamDigest, Verdict, WriteCanonical, content_id, sha256_hex,
};
use rea_traverse::{Entry, EntryKind, EntrySource, WalkNotes};
use serde_json::json;

fn entry(path: &str, kind: EntryKind, content: Option<&[u8]>, link: Option<&str>) -> HashedEntry {
    let outcome = match content {
        Some(bytes) => HashOutcome::Hashed(
            StreamDigest {
                sha256: sha256_hex(bytes),
                bytes: bytes.len() as u64,
                head: bytes[..bytes.len().min(16)].to_vec(),
                blocks: Vec::new(),
            },
            Verdict::Undeclared,
        ),
        None => HashOutcome::NotHashed,
    };
    HashedEntry {
        entry: Entry {
            logical_path: path.to_owned(),
            kind,
            declared_size: content.map(|c| c.len() as u64),
            executable: false,
            link_target: link.map(str::to_owned),
            unpacked: false,
            source: EntrySource::None,
            declared: None,
            limitations: Vec::new(),
        },
        outcome,
    }
}

fn sample(link: &str) -> Vec<HashedEntry> {
    vec![
        entry("app", EntryKind::Directory, None, None),
        entry(
            "app/main.js",
            EntryKind::File,
            Some(b"require('./a')"),
            None,
        ),
        entry("app/a.js", EntryKind::File, Some(b"same"), None),
        entry("copy.js", EntryKind::File, Some(b"same"), None),
        entry("empty", EntryKind::Directory, None, None),
        entry("link", EntryKind::Symlink, None, Some(link)),
    ]
}

fn graph(entries: Vec<HashedEntry>) -> InventoryGraph {
    let cancel = CancelToken::new();
    let progress = ProgressReporter::silent();
    let cx = StageCx::detached(StageKind::Graph, &cancel, &progress);
    build(
        &cx,
        RootContent::Directory,
        &mut entries.clone(),
        WalkNotes::default(),
        rea_core::IntegrityPolicy::Fail,
    )
    .unwrap()
}

/// `graph_sha256` recomputed through `serde` from the graph's arrays.
fn recomputed_graph_sha256(g: &InventoryGraph) -> String {
    ids::graph_sha256(
        &g.nodes,
        &g.occurrences,
        &g.edges,
        &g.integrity_contradictions,
    )
    .unwrap()
}

#[test]
fn shape_follows_the_documented_recipes() {
    let g = graph(sample("app/main.js"));
    // Root first, then code-point order.
    let paths: Vec<_> = g
        .occurrences
        .iter()
        .map(|o| o.logical_path.as_str())
        .collect();
    assert_eq!(
        paths,
        vec![
            ".",
            "app",
            "app/a.js",
            "app/main.js",
            "copy.js",
            "empty",
            "link"
        ]
    );
    // Identical bytes share a node: root, app, empty, main.js, same.
    assert_eq!(g.nodes.len(), 5);
    assert_eq!(g.summary.distinct_contents, 5);
    let same = g
        .occurrences
        .iter()
        .find(|o| o.logical_path == "copy.js")
        .unwrap();
    assert_eq!(
        same.artifact_id.as_deref(),
        Some(ids::artifact_id(&sha256_hex(b"same")).unwrap().as_str())
    );
    let link = g
        .occurrences
        .iter()
        .find(|o| o.logical_path == "link")
        .unwrap();
    assert_eq!(link.hash_status, HashStatus::NotHashed);
    assert_eq!(link.artifact_id, None);
    // One contains edge per occurrence with content, the root excluded.
    assert_eq!(g.edges.len(), 5);
    assert!(g.edges.windows(2).all(|w| w[0].edge_id < w[1].edge_id));
    let m = &g.manifest;
    assert_eq!(
        m.manifest_id,
        ids::manifest_id(&m.root_artifact_id, &m.graph_sha256).unwrap()
    );
    assert_eq!(m.graph_sha256, recomputed_graph_sha256(&g));
    assert_eq!(
        m.root_artifact_id,
        ids::artifact_id(&m.root_sha256).unwrap()
    );
    // Every parent exists and precedes... is the occurrence of the parent path.
    let app = g
        .occurrences
        .iter()
        .find(|o| o.logical_path == "app")
        .unwrap();
    let main = g
        .occurrences
        .iter()
        .find(|o| o.logical_path == "app/main.js")
        .unwrap();
    assert_eq!(main.parent_occurrence_id.as_ref(), Some(&app.occurrence_id));
}

#[test]
fn graph_types_serialize_on_the_canonical_fast_path() {
    let g = graph(sample("x"));
    assert!(rea_hash::takes_fast_path(&g.nodes));
    assert!(rea_hash::takes_fast_path(&g.occurrences));
    assert!(rea_hash::takes_fast_path(&g.edges));
    assert!(rea_hash::takes_fast_path(&g.manifest));
    assert!(rea_hash::takes_fast_path(&g.summary));
    assert!(rea_hash::takes_fast_path(&g));
}

/// Entries whose names need JSON escapes, a non-ASCII name, a limitation and an integrity
/// contradiction: everything the hand-written canonical forms must get right.
fn odd_sample() -> Vec<HashedEntry> {
    let mut entries = sample("../escape\\\"quoted\"");
    entries.push(entry(
        "app/quote\"d\nline\t.js",
        EntryKind::File,
        Some(b"odd"),
        None,
    ));
    entries.push(entry(
        "app/ünï😀.js",
        EntryKind::File,
        Some(b"unicode"),
        None,
    ));
    let mut tampered = entry("app/tampered.js", EntryKind::File, Some(b"observed"), None);
    if let HashOutcome::Hashed(_, verdict) = &mut tampered.outcome {
        *verdict = Verdict::Mismatched {
            declared_sha256: sha256_hex(b"declared"),
        };
    }
    tampered
        .entry
        .limitations
        .push("a \"quoted\" note\u{1}".to_owned());
    entries.push(tampered);
    entries
}

#[test]
fn hand_written_canonical_forms_equal_the_serde_canonical_forms() {
    let g = graph(odd_sample());
    assert_eq!(g.integrity_contradictions.len(), 1);
    fn same<T: WriteCanonical + serde::Serialize>(items: &[T]) {
        for item in items {
            let mut written = Vec::new();
            item.write_canonical(&mut written).unwrap();
            assert_eq!(
                String::from_utf8(written).unwrap(),
                String::from_utf8(rea_hash::canonical_bytes(item).unwrap()).unwrap()
            );
        }
    }
    same(&g.nodes);
    same(&g.occurrences);
    same(&g.edges);
    same(&g.integrity_contradictions);
    assert_eq!(g.manifest.graph_sha256, recomputed_graph_sha256(&g));
}

/// Every id recomputed from its documented recipe (the table in `ids.rs`), through
/// `serde_json` values and the general canonical serializer.
#[test]
fn ids_follow_their_recipes_over_json_values() {
    let g = graph(odd_sample());
    let m = &g.manifest;
    let art = |sha: &str| content_id("art_", &json!({"schema_version": 1, "sha256": sha})).unwrap();
    assert_eq!(m.root_artifact_id, art(&m.root_sha256));
    assert_eq!(
        m.manifest_id,
        content_id(
            "agm_",
            &json!({"schema_version": 1, "root_artifact_id": m.root_artifact_id,
                    "graph_sha256": m.graph_sha256})
        )
        .unwrap()
    );
    for node in &g.nodes {
        assert_eq!(node.artifact_id, art(&node.sha256));
    }
    let by_path: std::collections::HashMap<&str, &rea_graph::artifact::Occurrence> = g
        .occurrences
        .iter()
        .map(|o| (o.logical_path.as_str(), o))
        .collect();
    for o in &g.occurrences[1..] {
        assert_eq!(
            o.occurrence_id,
            content_id(
                "occ_",
                &json!({"root_artifact_id": m.root_artifact_id, "logical_path": o.logical_path,
                        "entry_kind": o.entry_kind})
            )
            .unwrap()
        );
        if o.entry_kind == "directory" {
            let prefix = format!("{}/", o.logical_path);
            let mut children: Vec<_> = g
                .occurrences
                .iter()
                .filter(|c| {
                    c.logical_path
                        .strip_prefix(&prefix)
                        .is_some_and(|rest| !rest.contains('/'))
                })
                .map(|c| {
                    json!({"name": &c.logical_path[prefix.len()..], "entry_kind": c.entry_kind,
                           "artifact_id": c.artifact_id, "link_target": c.link_target})
                })
                .collect();
            children.sort_by(|a, b| a["name"].as_str().cmp(&b["name"].as_str()));
            let digest =
                rea_hash::digest_canonical(&json!({"kind": "directory", "children": children}))
                    .unwrap();
            assert_eq!(
                o.sha256.as_deref(),
                Some(digest.as_str()),
                "{}",
                o.logical_path
            );
        }
    }
    let top: Vec<_> = g.occurrences[1..]
        .iter()
        .filter(|c| !c.logical_path.contains('/'))
        .map(|c| {
            json!({"name": c.logical_path, "entry_kind": c.entry_kind,
                   "artifact_id": c.artifact_id, "link_target": c.link_target})
        })
        .collect();
    assert_eq!(
        m.root_sha256,
        rea_hash::digest_canonical(&json!({"kind": "directory", "children": top})).unwrap()
    );
    for e in &g.edges {
        assert_eq!(
            e.edge_id,
            content_id(
                "edge_",
                &json!({"parent_artifact_id": e.parent_artifact_id,
                        "child_artifact_id": e.child_artifact_id, "relation": e.relation,
                        "occurrence_id": e.occurrence_id, "logical_path": e.logical_path})
            )
            .unwrap()
        );
        assert_eq!(
            by_path[e.logical_path.as_str()].occurrence_id,
            e.occurrence_id
        );
    }
    for c in &g.integrity_contradictions {
        assert_eq!(
            c.contradiction_id,
            content_id(
                "ic_",
                &json!({"root_artifact_id": m.root_artifact_id, "logical_path": c.logical_path,
                        "declared_sha256": c.declared_sha256,
                        "observed_sha256": c.observed_sha256})
            )
            .unwrap()
        );
    }
}

#[test]
fn a_symlink_target_change_changes_the_root() {
    let a = graph(sample("app/main.js"));
    let b = graph(sample("/etc/passwd"));
    assert_ne!(a.manifest.root_sha256, b.manifest.root_sha256);
    assert_ne!(a.manifest.manifest_id, b.manifest.manifest_id);
}

proptest! {
    #[test]
    fn ids_do_not_depend_on_arrival_order(seed in any::<u64>()) {
        let mut entries = sample("x");
        // A deterministic shuffle from the seed.
        let mut state = seed | 1;
        for i in (1..entries.len()).rev() {
            state ^= state << 13; state ^= state >> 7; state ^= state << 17;
            entries.swap(i, (state % (i as u64 + 1)) as usize);
        }
        prop_assert_eq!(graph(entries), graph(sample("x")));
    }
}

//! Two versions of one JavaScript application, node by node: the analysis behind
//! `compare_application_versions`.
//!
//! Each side is the `normalized_result` of validated `analyze_javascript_application` Evidence.
//! Nodes pair across the sides by tiers, strongest first. A tier pairs two nodes of the same
//! kind only when its key names exactly one unpaired node on each side, and a lower tier never
//! reconsiders a pair a higher tier made. A key that names more than one node on either side
//! pairs none of them; a lower tier may still pair them uniquely (identical factories in two
//! bundles of one build share a source digest, but not a node identity). A node still unpaired
//! at the end after such a key is ambiguous: `unknown`, with the candidates of the first tier
//! that found more than one.
//!
//! | tier | key | confidence |
//! |---|---|---|
//! | `exact-content-digest` | the `content-digest` identity's `sha256` | exact |
//! | `exact-module-source-digest` | a module factory's `source_sha256` | exact |
//! | `exact-node-identity` | the `node_id` | exact |
//! | `source-map-identity` | a `source-map-original` identity's `original_source` | high |
//! | `structural-fingerprint` | a module's complete `rea-swc-structure-v2` fingerprint (identifier names ignored) | medium |
//! | `semantic-key` | for nodes that are not module factories: the identity without the file digest and source position (`artifact-local-key` namespace and key with a trailing `:line:column` cut), the label, and the files the node was seen in; tried first with the node's descriptive properties too, then without | medium |
//! | `module-key` | a module factory's file and key, only in a file where at least 3 factories paired by a digest and 9 in 10 of them kept their key | low |
//! | `semantic-key-any-files` | the semantic key without the files: an IPC channel, an external module, a package or a bridge named alike wherever the code that names it moved | low |
//!
//! A pair is `changed` when a dimension differs: `content` (the content digest), `source` (the
//! factory's source digest, or an original source's), `structure` (its fingerprint), `properties` (what the
//! observations say, less what only places the node: module keys, chunk keys, paths, runtime
//! names, digests; the item's `changed_properties` names the properties whose values differ,
//! at most 32), `labels`, or `relations` (the edges, each named by its relation, its
//! direction and what its other end paired with; what contains a node only places it, and is
//! left out). Relations of a side whose graph was cut by a
//! limit (a file not read or cut short, or findings dropped, as the analysis's statistics count
//! them; observations left out past the per-node cap cut no node or edge), and properties or labels of a node whose observations
//! reached the per-node cap, may be incomplete: a difference there alone makes the pair
//! `unknown`, not `changed`. A node on one side only is `added` or `removed` only when no limit
//! cut the other side's graph; otherwise `unknown`. (A graph is `partial` without being cut when
//! it holds dynamic IPC channels, for example: its nodes are still all there.)
//!
//! Items are listed by status (`changed`, `added`, `removed`, `unknown`, `unchanged`), then
//! the application's boundary first ([`BOUNDARY_KINDS`]: IPC, bridges, preloads, windows,
//! processes, native add-ons, endpoints…), then kind, label and node ids.
//!
//! Each changed pair whose two nodes have different ids is also an edge of the `changed_from`
//! graph, a JavaScript Application Graph (its ids by that graph's recipes, no roots): both nodes
//! as their sides' graphs hold them, and an edge `changed_from` from the later node to the
//! earlier (properties `basis` and `dimensions`; evidence `cross-version-comparison`,
//! `inferred`), pairs taken in listing order until `max_graph_nodes` or `max_graph_edges`
//! would be passed. A pair whose node id the graph already holds with other content is left out
//! too. The summary counts its edges and names its `graph_id`; null when it would be empty.
//!
//! Ids: an item's `item_id` is `jaci_` + H(the item without `item_id`); the `comparison_id` is
//! `jacmp_` + H(`{item_ids, left_graph_id, parameters, right_graph_id, summary}`), where H is
//! the lowercase hex SHA-256 of the RFC 8785 canonical JSON. Both are recomputed by the
//! validator ([`item_id`], [`comparison_id`]).

use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet};

use rayon::prelude::*;
use rustc_hash::FxHashMap as HashMap;
use serde_json::value::RawValue;

use rea_core::{Failure, FailureReason};
use rea_exec::StageCx;
use rea_hash::CanonicalError;
use serde::Deserialize;
use serde_json::{Map, Value, json};

use crate::javascript::MAX_OBSERVATIONS;
use crate::record::{CoverageIn, NodeIn};

pub const OPERATION: &str = "compare_application_versions";
pub const SCHEMA: &str = "JavaScriptApplicationComparison";
pub const COMPARISON_PREFIX: &str = "jacmp_";
pub const ITEM_PREFIX: &str = "jaci_";
/// Items listed inline: the default and the most.
pub const DEFAULT_COMPARISON_ITEMS: usize = 20_000;
pub const MAX_COMPARISON_ITEMS: usize = 50_000;
/// Candidates listed per ambiguous item: the default and the most.
pub const DEFAULT_CANDIDATE_NODES: usize = 100;
pub const MAX_CANDIDATE_NODES: usize = 1_000;
/// Nodes and edges of the `changed_from` graph: the defaults and the most.
pub const DEFAULT_GRAPH_NODES: usize = 20_000;
pub const MAX_GRAPH_NODES: usize = 100_000;
pub const DEFAULT_GRAPH_EDGES: usize = 40_000;
pub const MAX_GRAPH_EDGES: usize = 200_000;
/// Paths shown per node side of an item.
const MAX_PATHS: usize = 4;

/// The tiers, strongest first, with the confidence of a pair each makes.
pub const TIERS: [(&str, &str); 8] = [
    ("exact-content-digest", "exact"),
    ("exact-module-source-digest", "exact"),
    ("exact-node-identity", "exact"),
    ("source-map-identity", "high"),
    ("structural-fingerprint", "medium"),
    ("semantic-key", "medium"),
    ("module-key", "low"),
    ("semantic-key-any-files", "low"),
];
/// The `module-key` tier, used only for files whose keys held (see [`stable_key_files`]).
const MODULE_KEY: usize = 6;
/// The passes over the tiers, in order, as (tier, whether the key is [`Node::refined`]): the
/// semantic tier runs twice, with the descriptive properties first, then without.
const PASSES: [(usize, bool); 9] = [
    (0, false),
    (1, false),
    (2, false),
    (3, false),
    (4, false),
    (5, true),
    (5, false),
    (MODULE_KEY, false),
    (MODULE_KEY + 1, false),
];
/// Item statuses, in the order items are listed.
pub const STATUSES: [&str; 5] = ["changed", "added", "removed", "unknown", "unchanged"];
/// The kinds of the application's boundary: within a status, items of these kinds are listed
/// first, in this order (then every other kind, by name), so that a bounded listing keeps them.
pub const BOUNDARY_KINDS: [&str; 14] = [
    "ipc-channel",
    "ipc-handler",
    "context-bridge-api",
    "electron-preload",
    "browser-window",
    "electron-main",
    "electron-renderer",
    "electron-utility",
    "native-addon",
    "endpoint",
    "target",
    "worker",
    "service-worker",
    "storage",
];
/// The limitations every comparison states, first; the others say what this one met.
pub const STANDING_LIMITATIONS: [&str; 3] = [
    "Module factories pair by their source digest, then by their structural fingerprint (rea-swc-structure-v2, identifier names ignored; medium confidence), then, only in files whose other factories kept their keys, by their module key (low confidence): bundler ordinals shift between builds.",
    "Nodes that are not module factories pair last by a semantic key (identity without file digest or source position, labels, files): medium confidence; then by that key without the files, when the code that names them moved: low confidence.",
    "The changed_from graph holds each changed pair whose two nodes have different ids, the later node changed_from the earlier; a pair that kept its node id (only its observations or relations changed) is an item only.",
];
/// Every dimension a pair is compared on.
pub const DIMENSIONS: [&str; 6] = [
    "content",
    "labels",
    "properties",
    "relations",
    "source",
    "structure",
];

/// Observation properties that place a node rather than describe it: a new build renumbers
/// module keys and moves factories between chunks and files without changing them. Left out
/// at any depth, with every `*_expression` (see [`descriptive`]).
const PLACEMENT: &[&str] = &[
    "chunk_keys",
    "factory_require_name",
    "module_key",
    "path",
    "runtime",
    "runtime_entry",
    "source_sha256",
    "structural_fingerprint_algorithm",
    "structural_fingerprint_sha256",
    "structural_fingerprint_status",
    // How a channel was written (a constant, or the literal a minifier put in its place).
    "resolution",
    // The name a window is held by, and its loads' computed targets, as written: a
    // minifier renames both.
    "holder",
    "dynamic_loads",
];

/// The bounds of one comparison.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    pub max_comparison_items: usize,
    pub max_candidate_nodes: usize,
    /// Nodes and edges of the `changed_from` graph.
    pub max_graph_nodes: usize,
    pub max_graph_edges: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_comparison_items: DEFAULT_COMPARISON_ITEMS,
            max_candidate_nodes: DEFAULT_CANDIDATE_NODES,
            max_graph_nodes: DEFAULT_GRAPH_NODES,
            max_graph_edges: DEFAULT_GRAPH_EDGES,
        }
    }
}

#[derive(Deserialize)]
struct ResultIn<'a> {
    #[serde(borrow)]
    graph: GraphIn<'a>,
    #[serde(default)]
    root_artifact_sha256: Value,
    #[serde(default)]
    statistics: StatisticsIn,
}

/// What the analysis left out because of a limit. Records made before these counts were
/// published lack them: then a truncated coverage is taken to have cut nodes.
#[derive(Deserialize, Default)]
struct StatisticsIn {
    limit_omitted_text_files: Option<u64>,
    truncated_scopes: Option<u64>,
    dropped_findings: Option<u64>,
}

impl StatisticsIn {
    /// Whether nodes or edges may be missing: a file not read, a file cut short, or findings
    /// dropped. Observations left out past the per-node cap cut neither.
    fn cut(&self, truncated: bool) -> bool {
        match (
            self.limit_omitted_text_files,
            self.truncated_scopes,
            self.dropped_findings,
        ) {
            (Some(files), Some(scopes), Some(findings)) => files + scopes + findings > 0,
            _ => truncated,
        }
    }
}

/// Nodes are kept as text here and read in parallel; edges are read borrowing their ids.
#[derive(Deserialize)]
struct GraphIn<'a> {
    graph_id: String,
    coverage: CoverageIn,
    #[serde(borrow)]
    nodes: Vec<&'a RawValue>,
    #[serde(borrow)]
    edges: Vec<EdgeIn<'a>>,
}

#[derive(Deserialize)]
struct EdgeIn<'a> {
    #[serde(borrow)]
    source_node_id: Cow<'a, str>,
    #[serde(borrow)]
    target_node_id: Cow<'a, str>,
    #[serde(borrow)]
    relation: Cow<'a, str>,
}

/// One side: an application graph, read down to what the comparison needs.
pub struct Version {
    evidence_id: String,
    graph_id: String,
    root_artifact_sha256: Value,
    graph_status: String,
    /// Coverage says a limit cut something.
    truncated: bool,
    /// A limit cut nodes or edges (not only observations past the per-node cap).
    cut: bool,
    nodes: Vec<Node>,
    /// Edges as (source index, relation, target index).
    edges: Vec<(usize, String, usize)>,
}

struct Node {
    id: String,
    kind: String,
    label: Option<String>,
    paths: Vec<String>,
    /// The key of each tier, where the node has one.
    keys: [Option<String>; 8],
    /// The semantic key with the node's descriptive properties: tried before the semantic key
    /// alone, it tells apart nodes that only their properties distinguish (three windows of
    /// one file, each with its own options).
    refined: Option<String>,
    /// A module factory's file (content hashes in its name left out).
    factory_file: Option<String>,
    /// The content digest of a file's node.
    content: Option<String>,
    /// A module factory's source digest, or an original source's (from its source map).
    source: Option<String>,
    structure: Option<String>,
    /// Canonical text of the set of descriptive properties of its observations.
    properties: String,
    labels: BTreeSet<String>,
    /// Its observations reached the per-node cap, so some may be left out.
    capped: bool,
    /// Where the node's canonical text sits in its side's result text.
    span: (usize, usize),
}

impl Version {
    /// Reads a side from the canonical text of a validated record's `normalized_result`.
    pub fn read(
        cx: &StageCx<'_>,
        side: &str,
        evidence_id: &str,
        result: &[u8],
    ) -> Result<Version, Failure> {
        let unreadable = |err: serde_json::Error| {
            Failure::new(
                FailureReason::InvalidInput,
                format!("{side}: the application result has no readable graph"),
            )
            .with_detail("side", side)
            .with_source(err)
        };
        let parsed: ResultIn<'_> = serde_json::from_slice(result).map_err(unreadable)?;
        let graph = parsed.graph;
        cx.check()?;
        let nodes: Vec<Node> = graph
            .nodes
            .par_iter()
            .map(|raw| {
                cx.check()?;
                let text = raw.get();
                let start = (text.as_ptr() as usize).wrapping_sub(result.as_ptr() as usize);
                serde_json::from_str::<NodeIn>(text)
                    .map(|node| Node {
                        span: (start, text.len()),
                        ..Node::of(node)
                    })
                    .map_err(unreadable)
            })
            .collect::<Result<_, Failure>>()?;
        cx.check()?;
        let index: HashMap<&str, usize> = nodes
            .iter()
            .enumerate()
            .map(|(i, n)| (n.id.as_str(), i))
            .collect();
        let edges = graph
            .edges
            .iter()
            .filter_map(|e| {
                Some((
                    *index.get(&*e.source_node_id)?,
                    e.relation.to_string(),
                    *index.get(&*e.target_node_id)?,
                ))
            })
            .collect();
        Ok(Version {
            evidence_id: evidence_id.to_owned(),
            graph_id: graph.graph_id,
            root_artifact_sha256: parsed.root_artifact_sha256,
            graph_status: graph.coverage.status,
            truncated: graph.coverage.truncated,
            cut: parsed.statistics.cut(graph.coverage.truncated),
            nodes,
            edges,
        })
    }

    /// Whether every node and edge the analysis found is in the graph.
    fn whole(&self) -> bool {
        !self.cut
    }

    fn header(&self) -> Value {
        json!({
            "edges": self.edges.len(),
            "evidence_id": self.evidence_id,
            "graph_id": self.graph_id,
            "graph_status": self.graph_status,
            "graph_cut": self.cut,
            "graph_truncated": self.truncated,
            "nodes": self.nodes.len(),
            "root_artifact_sha256": self.root_artifact_sha256,
        })
    }
}

impl Node {
    fn of(node: NodeIn) -> Node {
        let text = |v: Option<&Value>| v.and_then(Value::as_str).map(str::to_owned);
        let strategy = node.identity.get("strategy").and_then(Value::as_str);
        let content = match strategy {
            Some("content-digest") => text(node.identity.get("sha256")),
            _ => None,
        };
        // A property every observation that has it agrees on.
        let agreed = |key: &str| -> Option<String> {
            let mut values = node
                .observations
                .iter()
                .filter_map(|o| o.properties.get(key).and_then(Value::as_str));
            let first = values.next()?;
            values.all(|v| v == first).then(|| first.to_owned())
        };
        let is_module = node.kind == "javascript-module";
        let source = is_module.then(|| agreed("source_sha256")).flatten();
        let structure = match strategy {
            Some("structural-fingerprint") => text(node.identity.get("fingerprint_sha256")),
            _ if is_module
                && agreed("structural_fingerprint_status").as_deref() == Some("complete") =>
            {
                // Keyed by algorithm too: digests of two algorithms never pair.
                agreed("structural_fingerprint_algorithm")
                    .zip(agreed("structural_fingerprint_sha256"))
                    .map(|(algorithm, digest)| format!("{algorithm}:{digest}"))
            }
            _ => None,
        };
        let mut paths: BTreeSet<String> = BTreeSet::new();
        for o in &node.observations {
            let location = &o.evidence.location;
            for key in ["path", "source"] {
                if let Some(path) = location.get(key).and_then(Value::as_str) {
                    paths.insert(path.to_owned());
                }
            }
        }
        let labels: BTreeSet<String> = node
            .observations
            .iter()
            .filter_map(|o| o.label.clone())
            .collect();
        let label = labels.iter().next().cloned();
        let properties: BTreeSet<String> = node
            .observations
            .iter()
            .map(|o| serde_json::to_string(&descriptive_map(&o.properties)).unwrap_or_default())
            .collect();
        let properties = serde_json::to_string(&properties).unwrap_or_default();
        let source_map = match strategy {
            Some("source-map-original") => text(node.identity.get("original_source")),
            _ => None,
        };
        let semantic = source
            .is_none()
            .then(|| semantic_key(&node, &labels, &paths));
        let refined = semantic.as_ref().map(|key| format!("{key}\n{properties}"));
        // The same, wherever the node was seen: an IPC channel, an external module or a
        // package keeps its name when the files that name it change between versions.
        let anywhere = source
            .is_none()
            .then(|| semantic_key(&node, &labels, &BTreeSet::new()));
        let factory_file = source
            .is_some()
            .then(|| agreed("path").map(|p| without_hashes(&p)))
            .flatten();
        let module_key = node
            .observations
            .iter()
            .filter_map(|o| match o.properties.get("module_key") {
                Some(Value::String(k)) => Some(k.clone()),
                Some(Value::Number(n)) => Some(n.to_string()),
                _ => None,
            })
            .collect::<BTreeSet<_>>();
        let module_key = factory_file
            .as_ref()
            .filter(|_| module_key.len() == 1)
            .and_then(|file| Some(format!("{file}\n{}", module_key.first()?)));
        let keys = [
            content.clone(),
            source.clone(),
            Some(node.node_id.clone()),
            source_map,
            structure.clone(),
            semantic,
            module_key,
            anywhere,
        ];
        // An original source's digest, where its source map carried the contents.
        let source = source.or_else(|| match strategy {
            Some("source-map-original") => text(node.identity.get("source_sha256")),
            _ => None,
        });
        Node {
            span: (0, 0),
            capped: node.observations.len() >= MAX_OBSERVATIONS,
            id: node.node_id,
            kind: node.kind,
            label,
            paths: paths.into_iter().collect(),
            keys,
            content,
            source,
            structure,
            properties,
            labels,
            factory_file,
            refined,
        }
    }
}

/// `value` without what only places or names things in one build, at any depth: the
/// [`PLACEMENT`] keys, and expressions as written (`channel_expression: "n.GET"`), which a
/// minifier renames from one build to the next.
fn descriptive(value: &Value) -> Value {
    match value {
        Value::Object(map) => Value::Object(descriptive_map(map)),
        Value::Array(items) => Value::Array(items.iter().map(descriptive).collect()),
        other => other.clone(),
    }
}

fn descriptive_map(map: &Map<String, Value>) -> Map<String, Value> {
    map.iter()
        .filter(|(k, _)| !PLACEMENT.contains(&k.as_str()) && !k.ends_with("_expression"))
        .map(|(k, v)| (k.clone(), descriptive(v)))
        .collect()
}

/// Most property names an item lists as changed.
const MAX_CHANGED_PROPERTIES: usize = 32;

/// The descriptive properties (top-level names) whose values differ between two nodes'
/// observations, `a` and `b` their [`Node::properties`] texts: a name differs when the values
/// it takes across one node's observations are not those it takes across the other's (an
/// absent name takes none). Sorted, at most [`MAX_CHANGED_PROPERTIES`].
fn changed_properties(a: &str, b: &str) -> Vec<String> {
    let values = |text: &str| -> BTreeMap<String, BTreeSet<String>> {
        let mut out: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        let observations: Vec<String> = serde_json::from_str(text).unwrap_or_default();
        for observation in observations {
            let Ok(Value::Object(map)) = serde_json::from_str::<Value>(&observation) else {
                continue;
            };
            for (key, value) in map {
                out.entry(key).or_default().insert(value.to_string());
            }
        }
        out
    };
    let (a, b) = (values(a), values(b));
    let names: BTreeSet<&String> = a.keys().chain(b.keys()).collect();
    names
        .into_iter()
        .filter(|name| a.get(*name) != b.get(*name))
        .take(MAX_CHANGED_PROPERTIES)
        .cloned()
        .collect()
}

/// What names a node that is not a module factory, without the digest of the file it is in
/// or its position there.
fn semantic_key(node: &NodeIn, labels: &BTreeSet<String>, paths: &BTreeSet<String>) -> String {
    let mut identity = node.identity.clone();
    identity.remove("artifact_sha256");
    identity.remove("sha256");
    identity.remove("observation_sha256");
    identity.remove("source_map_sha256");
    identity.remove("source_sha256");
    if let Some(Value::String(key)) = identity.get_mut("key") {
        *key = without_hashes(without_position(key));
    }
    let labels: BTreeSet<String> = labels.iter().map(|l| without_hashes(l)).collect();
    let paths: BTreeSet<String> = paths.iter().map(|p| without_hashes(p)).collect();
    json!({"identity": identity, "labels": labels, "paths": paths}).to_string()
}

/// `assets/index-BpZ3xK1a.js` → `assets/index-*.js`: bundlers name output files by a digest
/// of their contents, which changes with every build. A token between `/`, `.`, `-` and `_`
/// counts as such a name when it is at least 8 ASCII letters and digits, one of them a digit
/// (`es2015` and `index` are kept). (Two files that differ only there then share a key,
/// and a shared key pairs nothing.)
fn without_hashes(text: &str) -> String {
    let hashed = |token: &str| {
        token.len() >= 8
            && token.bytes().all(|b| b.is_ascii_alphanumeric())
            && token.bytes().any(|b| b.is_ascii_digit())
    };
    let mut out = String::with_capacity(text.len());
    let mut start = 0;
    for (end, c) in text.char_indices().chain([(text.len(), '/')]) {
        if matches!(c, '/' | '.' | '-' | '_') {
            let token = &text[start..end];
            out.push_str(if hashed(token) { "*" } else { token });
            if end < text.len() {
                out.push(c);
            }
            start = end + 1;
        }
    }
    out
}

/// `main:handle:8:2` → `main:handle`: a trailing `:line:column` moves whenever code above it
/// changes.
fn without_position(key: &str) -> &str {
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    let mut parts = key.rsplitn(3, ':');
    match (parts.next(), parts.next(), parts.next()) {
        (Some(column), Some(line), Some(rest)) if digits(column) && digits(line) => rest,
        _ => key,
    }
}

/// The files (as factories name them) whose module keys held from one version to the other:
/// at least 3 factories of the file paired by a digest, 9 in 10 of them under the same key.
/// Production builds of webpack 5 and rspack derive a module's id from its path, so it holds;
/// ordinal ids (webpack 4's) shift when a module is added or removed, and pairing by them
/// would pair strangers.
fn stable_key_files(left: &Version, right: &Version, fates: &[Fate]) -> BTreeSet<String> {
    let mut tally: BTreeMap<&str, (usize, usize)> = BTreeMap::new();
    for (i, fate) in fates.iter().enumerate() {
        let Fate::Paired { other, .. } = *fate else {
            continue;
        };
        let (a, b) = (&left.nodes[i], &right.nodes[other]);
        if let (Some(file), Some(_)) = (&a.factory_file, &b.factory_file) {
            let entry = tally.entry(file).or_default();
            entry.1 += 1;
            if a.keys[MODULE_KEY].is_some() && a.keys[MODULE_KEY] == b.keys[MODULE_KEY] {
                entry.0 += 1;
            }
        }
    }
    tally
        .into_iter()
        .filter(|(_, (same, total))| *total >= 3 && same * 10 >= total * 9)
        .map(|(file, _)| file.to_owned())
        .collect()
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Fate {
    Open,
    Paired {
        other: usize,
        tier: usize,
    },
    /// Unpaired after a tier found more than one candidate: the first such group.
    Ambiguous {
        group: usize,
    },
}

struct Group {
    tier: usize,
    left: Vec<usize>,
    right: Vec<usize>,
}

/// Compares two versions; the result is the comparison's `normalized_result`.
pub fn compare(
    cx: &StageCx<'_>,
    [left, right]: [&Version; 2],
    texts: [&[u8]; 2],
    limits: Limits,
    parameters: &Value,
) -> Result<Value, Failure> {
    let mut fates = [
        vec![Fate::Open; left.nodes.len()],
        vec![Fate::Open; right.nodes.len()],
    ];
    let mut groups: Vec<Group> = Vec::new();
    for (tier, refined) in PASSES {
        cx.check()?;
        let stable = if tier == MODULE_KEY {
            stable_key_files(left, right, &fates[0])
        } else {
            BTreeSet::new()
        };
        let mut buckets: BTreeMap<(&str, &str), [Vec<usize>; 2]> = BTreeMap::new();
        for (s, version) in [left, right].into_iter().enumerate() {
            for (i, node) in version.nodes.iter().enumerate() {
                if i % 4096 == 0 {
                    cx.check()?;
                }
                if matches!(fates[s][i], Fate::Paired { .. }) {
                    continue;
                }
                if tier == MODULE_KEY
                    && !node
                        .factory_file
                        .as_ref()
                        .is_some_and(|f| stable.contains(f))
                {
                    continue;
                }
                let key = if refined {
                    &node.refined
                } else {
                    &node.keys[tier]
                };
                if let Some(key) = key {
                    buckets.entry((&node.kind, key)).or_default()[s].push(i);
                }
            }
        }
        for [l, r] in buckets.into_values() {
            match (l.as_slice(), r.as_slice()) {
                ([], _) | (_, []) => {}
                ([a], [b]) => {
                    fates[0][*a] = Fate::Paired { other: *b, tier };
                    fates[1][*b] = Fate::Paired { other: *a, tier };
                }
                _ => {
                    let group = groups.len();
                    for (s, members) in [(0, &l), (1, &r)] {
                        for &i in members {
                            if fates[s][i] == Fate::Open {
                                fates[s][i] = Fate::Ambiguous { group };
                            }
                        }
                    }
                    groups.push(Group {
                        tier,
                        left: l,
                        right: r,
                    });
                }
            }
        }
    }
    // What each node's relations point at: the pair, the ambiguity group, or the node itself.
    let token = |s: usize, i: usize| -> String {
        match fates[s][i] {
            Fate::Paired { other, .. } => {
                let l = if s == 0 { i } else { other };
                format!("p{l}")
            }
            Fate::Ambiguous { group } => format!("g{group}"),
            Fate::Open => format!("{}{}", ["l", "r"][s], i),
        }
    };
    let relations = |s: usize, version: &Version| -> Vec<BTreeSet<String>> {
        let mut sets = vec![BTreeSet::new(); version.nodes.len()];
        for (from, relation, to) in &version.edges {
            sets[*from].insert(format!("out {relation} {}", token(s, *to)));
            // What contains a node places it (a new build moves factories between chunks and
            // files): the container's own relations say what it holds.
            if relation != "contains" {
                sets[*to].insert(format!("in {relation} {}", token(s, *from)));
            }
        }
        sets
    };
    cx.check()?;
    let (left_relations, right_relations) = (relations(0, left), relations(1, right));
    cx.check()?;

    let mut counts: BTreeMap<&str, u64> = STATUSES.iter().map(|s| (*s, 0)).collect();
    let mut by_kind: BTreeMap<&str, BTreeMap<&str, u64>> = BTreeMap::new();
    let mut by_basis: BTreeMap<&str, u64> = TIERS.iter().map(|(t, _)| (*t, 0)).collect();
    let mut dimension_counts: BTreeMap<&str, u64> = DIMENSIONS.iter().map(|d| (*d, 0)).collect();
    let mut drafts: Vec<Draft<'_>> = Vec::new();
    for (i, fate) in fates[0].iter().enumerate() {
        if i % 4096 == 0 {
            cx.check()?;
        }
        let a = &left.nodes[i];
        let draft = match *fate {
            Fate::Paired { other, tier } => {
                let b = &right.nodes[other];
                let mut sure: Vec<&'static str> = Vec::new();
                let mut unsure: Vec<&'static str> = Vec::new();
                for (dimension, differs) in [
                    ("content", a.content != b.content),
                    ("source", a.source != b.source),
                    ("structure", a.structure != b.structure),
                ] {
                    if differs {
                        sure.push(dimension);
                    }
                }
                let capped = a.capped || b.capped;
                for (dimension, differs) in [
                    (
                        "labels",
                        a.labels != b.labels && a.kind != "javascript-module",
                    ),
                    ("properties", a.properties != b.properties),
                ] {
                    if differs {
                        if capped { &mut unsure } else { &mut sure }.push(dimension);
                    }
                }
                if left_relations[i] != right_relations[other] {
                    if left.whole() && right.whole() {
                        sure.push("relations");
                    } else {
                        unsure.push("relations");
                    }
                }
                let status = if !sure.is_empty() {
                    "changed"
                } else if !unsure.is_empty() {
                    "unknown"
                } else {
                    "unchanged"
                };
                let mut dimensions: Vec<&'static str> = sure.into_iter().chain(unsure).collect();
                dimensions.sort_unstable();
                let properties = if dimensions.contains(&"properties") {
                    changed_properties(&a.properties, &b.properties)
                } else {
                    Vec::new()
                };
                *by_basis.entry(TIERS[tier].0).or_default() += 1;
                Draft {
                    status,
                    kind: &a.kind,
                    basis: TIERS[tier].0,
                    confidence: TIERS[tier].1,
                    left: Some(a),
                    right: Some(b),
                    dimensions,
                    properties,
                    candidates: None,
                }
            }
            Fate::Ambiguous { group } => ambiguous(&groups[group], a, true, right),
            Fate::Open => Draft::alone(a, true, if right.whole() { "removed" } else { "unknown" }),
        };
        drafts.push(draft);
    }
    for (i, fate) in fates[1].iter().enumerate() {
        if i % 4096 == 0 {
            cx.check()?;
        }
        let b = &right.nodes[i];
        match *fate {
            Fate::Paired { .. } => {}
            Fate::Ambiguous { group } => drafts.push(ambiguous(&groups[group], b, false, left)),
            Fate::Open => drafts.push(Draft::alone(
                b,
                false,
                if left.whole() { "added" } else { "unknown" },
            )),
        }
    }
    for d in &drafts {
        *counts.entry(d.status).or_default() += 1;
        *by_kind
            .entry(d.kind)
            .or_insert_with(|| STATUSES.iter().map(|s| (*s, 0)).collect())
            .entry(d.status)
            .or_default() += 1;
        for dimension in &d.dimensions {
            *dimension_counts.entry(dimension).or_default() += 1;
        }
    }
    let rank = |status: &str| STATUSES.iter().position(|s| *s == status).unwrap_or(0);
    let boundary = |kind: &str| {
        BOUNDARY_KINDS
            .iter()
            .position(|k| *k == kind)
            .unwrap_or(BOUNDARY_KINDS.len())
    };
    drafts.sort_by(|x, y| {
        rank(x.status)
            .cmp(&rank(y.status))
            .then_with(|| boundary(x.kind).cmp(&boundary(y.kind)))
            .then_with(|| x.kind.cmp(y.kind))
            .then_with(|| x.label().cmp(y.label()))
            .then_with(|| side_id(x.left).cmp(side_id(y.left)))
            .then_with(|| side_id(x.right).cmp(side_id(y.right)))
    });
    let changed_from = changed_from_graph(cx, &drafts, texts, limits)?;
    let total = drafts.len();
    let ambiguous_nodes = drafts.iter().filter(|d| d.candidates.is_some()).count();
    drafts.truncate(limits.max_comparison_items);
    let mut omitted_candidates = 0usize;
    let mut items = Vec::with_capacity(drafts.len());
    let mut item_ids = Vec::with_capacity(drafts.len());
    for (n, d) in drafts.iter().enumerate() {
        if n % 1024 == 0 {
            cx.check()?;
        }
        let (item, omitted) = d.item(limits.max_candidate_nodes);
        omitted_candidates += omitted;
        let id = item_id(&item).map_err(canonical_failure)?;
        let mut item = item;
        if let Value::Object(map) = &mut item {
            map.insert("item_id".to_owned(), Value::String(id.clone()));
        }
        item_ids.push(Value::String(id));
        items.push(item);
    }
    let listed = items.len();
    let paired: u64 = by_basis.values().sum();
    let summary = json!({
        "added": counts["added"],
        "by_basis": by_basis,
        "by_kind": by_kind,
        "changed": counts["changed"],
        "changed_dimensions": dimension_counts,
        "changed_from_edges": changed_from.edges,
        "changed_from_graph_id": changed_from.graph["graph_id"],
        "items": total,
        "items_listed": listed,
        "paired": paired,
        "removed": counts["removed"],
        "unchanged": counts["unchanged"],
        "unknown": counts["unknown"],
    });
    let mut limitations: Vec<String> = STANDING_LIMITATIONS.map(str::to_owned).to_vec();
    for (name, version) in [("left", left), ("right", right)] {
        if !version.whole() {
            limitations.push(format!(
                "A limit cut the {name} graph: nodes absent from it are unknown, not added or removed, and differences in relations are unknown."
            ));
        }
    }
    if ambiguous_nodes > 0 {
        limitations.push(format!(
            "{ambiguous_nodes} nodes match more than one node of the other version in a tier; they stay unknown, with their candidates."
        ));
    }
    if listed < total {
        limitations.push(format!(
            "{listed} of {total} items are listed (max_comparison_items); the summary counts all."
        ));
    }
    if omitted_candidates > 0 {
        limitations.push(format!(
            "{omitted_candidates} candidates are left out of ambiguous items (max_candidate_nodes)."
        ));
    }
    let comparison = comparison_id(
        &left.graph_id,
        &right.graph_id,
        parameters,
        &summary,
        &item_ids,
    )
    .map_err(canonical_failure)?;
    if changed_from.omitted > 0 {
        limitations.push(format!(
            "{} changed pairs are left out of the changed_from graph (max_graph_nodes, max_graph_edges).",
            changed_from.omitted
        ));
    }
    Ok(json!({
        "changed_from": changed_from.graph,
        "comparison_id": comparison,
        "items": items,
        "left": left.header(),
        "left_graph_status": left.graph_status,
        "limitations": limitations,
        "matching": {
            "ambiguous": ambiguous_nodes,
            "ambiguous_groups": fates
                .iter()
                .flatten()
                .filter_map(|f| match f {
                    Fate::Ambiguous { group } => Some(*group),
                    _ => None,
                })
                .collect::<BTreeSet<_>>()
                .len(),
            "tiers": TIERS.iter().map(|(t, c)| json!({"basis": t, "confidence": c})).collect::<Vec<_>>(),
        },
        "right": right.header(),
        "right_graph_status": right.graph_status,
        "schema": SCHEMA,
        "schema_version": 1,
        "summary": summary,
        "truncation": {
            "omitted_candidates": omitted_candidates,
            "omitted_items": total - listed,
        },
    }))
}

/// The `changed_from` graph, and what it holds and left out.
struct ChangedFrom {
    /// A JavaScript Application Graph, or null when no changed pair has two node ids.
    graph: Value,
    edges: usize,
    /// Changed pairs left out by the bounds (or whose node id the graph already holds with
    /// other content).
    omitted: usize,
}

/// The evidence of a `changed_from` edge.
fn changed_from_evidence(confidence: &str) -> Value {
    json!({
        "artifact_sha256": null,
        "authority": "cross-version-comparison",
        "confidence": match confidence { "exact" | "high" => "high", "medium" => "medium", _ => "low" },
        "extractor": "rea-javascript-reconstruction",
        "limitations": ["The pairing across versions is inferred from digests, identities and fingerprints, not recorded by the build."],
        "location": null,
        "operation": "compare-application-versions",
        "state": "inferred",
    })
}

/// The graph of changed pairs, in listing order (boundary first): both nodes verbatim from
/// their sides' texts, and an edge from the later to the earlier, within the bounds.
fn changed_from_graph(
    cx: &StageCx<'_>,
    drafts: &[Draft<'_>],
    texts: [&[u8]; 2],
    limits: Limits,
) -> Result<ChangedFrom, Failure> {
    let text_of = |side: usize, node: &Node| -> Option<Value> {
        let (start, len) = node.span;
        let bytes = texts[side].get(start..start.checked_add(len)?)?;
        serde_json::from_slice(bytes).ok()
    };
    let mut nodes: BTreeMap<String, Value> = BTreeMap::new();
    let mut edges: Vec<(String, Value)> = Vec::new();
    let mut omitted = 0usize;
    for (n, d) in drafts.iter().enumerate() {
        if n % 1024 == 0 {
            cx.check()?;
        }
        let (Some(a), Some(b)) = (d.left, d.right) else {
            continue;
        };
        if d.status != "changed" || a.id == b.id {
            continue;
        }
        let new = usize::from(!nodes.contains_key(&a.id)) + usize::from(!nodes.contains_key(&b.id));
        if nodes.len() + new > limits.max_graph_nodes || edges.len() >= limits.max_graph_edges {
            omitted += 1;
            continue;
        }
        let (Some(left), Some(right)) = (text_of(0, a), text_of(1, b)) else {
            omitted += 1;
            continue;
        };
        let clashes = |id: &str, text: &Value| nodes.get(id).is_some_and(|held| held != text);
        if clashes(&a.id, &left) || clashes(&b.id, &right) {
            omitted += 1;
            continue;
        }
        let properties = json!({"basis": d.basis, "dimensions": d.dimensions});
        let evidence = changed_from_evidence(d.confidence);
        let (id, text) = crate::javascript::ids::edge(
            &b.id,
            &a.id,
            "changed_from",
            rea_hash::Piece::Json(
                &rea_hash::CanonicalJson::of(&properties).map_err(canonical_failure)?,
            ),
            rea_hash::Piece::Json(
                &rea_hash::CanonicalJson::of(&evidence).map_err(canonical_failure)?,
            ),
        )
        .map_err(canonical_failure)?;
        let edge: Value = text.to_value().map_err(|err| {
            Failure::new(FailureReason::Internal, "changed_from edge is not JSON").with_source(err)
        })?;
        nodes.insert(a.id.clone(), left);
        nodes.insert(b.id.clone(), right);
        edges.push((id, edge));
    }
    if edges.is_empty() {
        return Ok(ChangedFrom {
            graph: Value::Null,
            edges: 0,
            omitted,
        });
    }
    edges.sort_by(|x, y| x.0.cmp(&y.0));
    let count = edges.len();
    let coverage = if omitted > 0 {
        json!({"status": "partial", "truncated": true, "omitted_count": omitted,
               "limits": [{"name": "max_graph_edges", "unit": "items", "value": limits.max_graph_edges},
                          {"name": "max_graph_nodes", "unit": "items", "value": limits.max_graph_nodes}]})
    } else {
        json!({"status": "complete", "truncated": false, "omitted_count": 0, "limits": []})
    };
    let graph_limitations: Vec<String> = if omitted > 0 {
        vec![format!(
            "{omitted} changed pairs are left out (max_graph_nodes, max_graph_edges)."
        )]
    } else {
        Vec::new()
    };
    let mut graph = json!({
        "schema": "JavaScriptApplicationGraph",
        "schema_version": 1,
        "coverage": coverage,
        "limitations": graph_limitations,
        "root_node_ids": [],
        "nodes": nodes.into_values().collect::<Vec<_>>(),
        "edges": edges.into_iter().map(|(_, e)| e).collect::<Vec<_>>(),
    });
    graph["graph_id"] = json!(crate::trace::subgraph_id(&graph).map_err(canonical_failure)?);
    Ok(ChangedFrom {
        graph,
        edges: count,
        omitted,
    })
}

/// An item before it is written out.
struct Draft<'a> {
    status: &'static str,
    kind: &'a str,
    basis: &'static str,
    confidence: &'static str,
    left: Option<&'a Node>,
    right: Option<&'a Node>,
    dimensions: Vec<&'static str>,
    /// The descriptive properties whose values differ, when `properties` is a dimension
    /// ([`changed_properties`]).
    properties: Vec<String>,
    /// For an ambiguous node: the other version's candidates, in order.
    candidates: Option<(bool, Vec<&'a str>)>,
}

impl<'a> Draft<'a> {
    fn alone(node: &'a Node, on_left: bool, status: &'static str) -> Draft<'a> {
        Draft {
            status,
            kind: &node.kind,
            basis: "none",
            confidence: "unknown",
            left: on_left.then_some(node),
            right: (!on_left).then_some(node),
            dimensions: Vec::new(),
            properties: Vec::new(),
            candidates: None,
        }
    }

    fn label(&self) -> &str {
        self.left
            .or(self.right)
            .and_then(|n| n.label.as_deref())
            .unwrap_or("")
    }

    /// The item's JSON (without its id) and how many candidates it leaves out.
    fn item(&self, max_candidates: usize) -> (Value, usize) {
        let side = |n: Option<&Node>| {
            n.map_or(Value::Null, |n| {
                json!({
                    "label": n.label,
                    "node_id": n.id,
                    "paths": n.paths.iter().take(MAX_PATHS).collect::<Vec<_>>(),
                })
            })
        };
        let (candidates, omitted) = match &self.candidates {
            None => (Value::Null, 0),
            Some((on_right, ids)) => {
                let shown: Vec<&str> = ids.iter().take(max_candidates).copied().collect();
                let omitted = ids.len() - shown.len();
                let (l, r): (Vec<&str>, Vec<&str>) = if *on_right {
                    (Vec::new(), shown)
                } else {
                    (shown, Vec::new())
                };
                (json!({"left": l, "omitted": omitted, "right": r}), omitted)
            }
        };
        (
            json!({
                "basis": self.basis,
                "candidates": candidates,
                "changed_dimensions": self.dimensions,
                "changed_properties": self.properties,
                "confidence": self.confidence,
                "kind": self.kind,
                "left": side(self.left),
                "right": side(self.right),
                "status": self.status,
            }),
            omitted,
        )
    }
}

fn side_id(node: Option<&Node>) -> &str {
    node.map_or("", |n| n.id.as_str())
}

/// A node that one tier found with more than one counterpart in `other`.
fn ambiguous<'a>(
    group: &Group,
    node: &'a Node,
    node_on_left: bool,
    other: &'a Version,
) -> Draft<'a> {
    let members = if node_on_left {
        &group.right
    } else {
        &group.left
    };
    let mut ids: Vec<&str> = members
        .iter()
        .map(|&i| other.nodes[i].id.as_str())
        .collect();
    ids.sort_unstable();
    Draft {
        status: "unknown",
        kind: &node.kind,
        basis: TIERS[group.tier].0,
        confidence: "unknown",
        left: node_on_left.then_some(node),
        right: (!node_on_left).then_some(node),
        dimensions: Vec::new(),
        properties: Vec::new(),
        candidates: Some((node_on_left, ids)),
    }
}

/// `jaci_` + H(the item without `item_id`).
pub fn item_id(item: &Value) -> Result<String, CanonicalError> {
    rea_hash::content_id_without(ITEM_PREFIX, item, "item_id")
}

/// `jacmp_` + H(`{item_ids, left_graph_id, parameters, right_graph_id, summary}`).
pub fn comparison_id(
    left_graph_id: &str,
    right_graph_id: &str,
    parameters: &Value,
    summary: &Value,
    item_ids: &[Value],
) -> Result<String, CanonicalError> {
    rea_hash::content_id(
        COMPARISON_PREFIX,
        &json!({
            "item_ids": item_ids,
            "left_graph_id": left_graph_id,
            "parameters": parameters,
            "right_graph_id": right_graph_id,
            "summary": summary,
        }),
    )
}

fn canonical_failure(err: CanonicalError) -> Failure {
    Failure::new(
        FailureReason::Internal,
        "the comparison could not be written as canonical JSON",
    )
    .with_source(err)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_limits_that_drop_nodes_or_edges_cut_a_graph() {
        let stats = |files, scopes, findings| StatisticsIn {
            limit_omitted_text_files: Some(files),
            truncated_scopes: Some(scopes),
            dropped_findings: Some(findings),
        };
        // Observations past the per-node cap make coverage truncated, and cut nothing.
        assert!(!stats(0, 0, 0).cut(true));
        assert!(stats(1, 0, 0).cut(false));
        assert!(stats(0, 2, 0).cut(true));
        assert!(stats(0, 0, 3).cut(true));
        // A record without the counts: coverage decides.
        assert!(StatisticsIn::default().cut(true));
        assert!(!StatisticsIn::default().cut(false));
    }

    #[test]
    fn positions_and_content_hashes_leave_semantic_keys() {
        assert_eq!(without_position("main:handle:8:2"), "main:handle");
        assert_eq!(without_position("BrowserWindow:5:14"), "BrowserWindow");
        assert_eq!(without_position("external:path"), "external:path");
        assert_eq!(without_position("a:b:c"), "a:b:c");
        assert_eq!(
            without_hashes("assets/index-BpZ3xK1a.js"),
            "assets/index-*.js"
        );
        assert_eq!(
            without_hashes("static/js/main.3f2a1b9c.chunk.js"),
            "static/js/main.*.chunk.js"
        );
        assert_eq!(without_hashes("chunk-7XK2PLQA.js"), "chunk-*.js");
        assert_eq!(without_hashes("lib.es2015.d.ts"), "lib.es2015.d.ts");
        assert_eq!(
            without_hashes("node_modules/react/index.js"),
            "node_modules/react/index.js"
        );
        assert_eq!(without_hashes(""), "");
        assert_eq!(without_hashes("a//b"), "a//b");
    }
}

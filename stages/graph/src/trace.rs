//! A feature traced through one application graph: the analysis behind
//! `trace_application_feature`.
//!
//! The source is the `normalized_result` of validated `analyze_javascript_application`
//! Evidence. A **seed** names where the feature starts: nodes matched by a literal comparison
//! (exact, or substring; no patterns), case-insensitive unless asked otherwise.
//!
//! | seed kind | nodes | fields compared | default match |
//! |---|---|---|---|
//! | `node-id` | any | `node_id` | exact (always case-sensitive) |
//! | `api` | `context-bridge-api`, `target` | label, `api_key`, each member and `api_key.member`, `api` | exact |
//! | `channel` | `ipc-channel`, `ipc-handler` | label, `channel`, `channel_expression` | exact |
//! | `route` | `endpoint` | label, `value`, `path` | exact |
//! | `module` | assets, chunks, module factories, source modules, source maps, Electron roles | label, `path`, `module_key`, `resolved_path`, `declared_path`; exact also matches the last segments of a path (`search.js` matches `renderer/search.js`) | exact |
//! | `native-export` | `native-export`, `native-addon` | label, `member`, `specifier`, `path` | exact |
//! | `string` | any | label, identity strings, every string property (in arrays too), less the graph's vocabulary fields (`kind`, `fact_kind`, `strategy`, `scope`, `resolution`…) and digests | contains |
//!
//! A node matches once, by the first field that matches (`basis`: `node-id`, `label`,
//! `identity` or `property`, and the `field`). Matches are sorted by node id; past
//! `max_seed_matches` they are counted, not traced.
//!
//! **Traversal.** Breadth first from every seed at once, over the graph's edges as data and
//! control flow run ([`flow`]): every relation from its source to its target, except
//! `handles`, which runs from the channel to the handler registered for it (an IPC message
//! flows from the channel into its handler). The analysis links a bridge API and an IPC handler to what
//! their code does (the add-on exports a bridge member is or calls, what a handler's function
//! requests, calls, launches or opens), so a trace crosses from the renderer's API through
//! the channel into the main process and on to native code. `outgoing` follows that flow, `incoming` runs
//! against it, and `both` does both from the seeds: a node reached along the flow is walked on
//! along it, one reached against it, against it (a node reached both ways, both ways). So
//! `both` is what the seed leads to and what leads to it, never all that is merely connected
//! to it (up a `contains` edge to the artifact root and down to every file). A node's edges are taken in `edge_id` order, so the trace
//! does not depend on how the graph was read. Bounds: `max_depth` edges from a seed,
//! `max_nodes` nodes and `max_edges` edges; what a bound cuts is counted (`omitted_nodes`,
//! `omitted_edges`) and the nodes whose expansion it cut are the `frontier_node_ids`.
//!
//! **Paths.** Each leaf of the breadth-first tree (a traced node from which the trace reached
//! nothing new) ends one path, the shortest from its seed. Paths are listed boundary first
//! ([`TERMINAL_KINDS`]: native exports and add-ons, processes and shell targets, endpoints,
//! storage, handlers, windows…), then by `path_id`; past `max_paths` they are counted.
//!
//! **Native handoffs.** Each traced `native-addon` whose bytes are shipped (a content digest)
//! is a handoff to native analysis: `evidence-linked` when a supplied native Evidence record's
//! subject digest equals the add-on's SHA-256 exactly, otherwise `requires-provider-analysis`.
//! No provider is started.
//!
//! Ids: a path's `path_id` is `jatp_` + H(`{edge_ids, end_node_id, node_ids, start_node_id}`);
//! the trace's `trace_id` is `jatr_` + H(the result without `trace_id`), where H is the
//! lowercase hex SHA-256 of the RFC 8785 canonical JSON. The subgraph is a
//! `JavaScriptApplicationGraph` of the traced nodes and edges, copied from the source, with its
//! own `graph_id` (the application graph's recipe) and the seeds as roots. The validator
//! recomputes every id ([`path_id`], [`trace_id`], [`subgraph_id`]).

use std::collections::{BTreeMap, BTreeSet, VecDeque};

use rayon::prelude::*;
use rustc_hash::FxHashMap as HashMap;
use serde::Deserialize;
use serde_json::value::RawValue;
use serde_json::{Value, json};

use rea_core::{Failure, FailureReason};
use rea_exec::StageCx;
use rea_hash::{CanonicalError, CanonicalJson, Piece};

use crate::javascript::ids;
use crate::record::{CoverageIn, EvidenceIn, NodeIn};

pub const OPERATION: &str = "trace_application_feature";
pub const SCHEMA: &str = "JavaScriptApplicationFeatureTrace";
pub const TRACE_PREFIX: &str = "jatr_";
pub const PATH_PREFIX: &str = "jatp_";
pub const SEED_KINDS: [&str; 7] = [
    "node-id",
    "route",
    "string",
    "api",
    "channel",
    "module",
    "native-export",
];
pub const DIRECTIONS: [&str; 3] = ["outgoing", "incoming", "both"];
pub const STATUSES: [&str; 4] = ["complete-within-source", "partial", "truncated", "no-match"];
pub const HANDOFF_STATUSES: [&str; 2] = ["evidence-linked", "requires-provider-analysis"];
/// What a handoff that no supplied Evidence covers recommends: a native analysis provider's
/// tools, in the reference's vocabulary.
pub const PROVIDER_TOOLS: [&str; 5] = [
    "open_binary",
    "binary_overview",
    "search_procedures",
    "analyze_function",
    "xrefs",
];
/// Native Evidence records a trace takes.
pub const MAX_NATIVE_OBSERVATIONS: usize = 64;
/// Frontier nodes listed.
pub const MAX_FRONTIER: usize = 1_000;
/// Authorities listed per path.
const MAX_AUTHORITIES: usize = 16;
/// Nodes a path may hold (so edges: one fewer).
pub const MAX_PATH_NODES: usize = 65;

/// Each limit: its name, default, least and most.
pub const LIMITS: [(&str, usize, usize, usize); 5] = [
    ("max_seed_matches", 25, 1, 1_000),
    ("max_depth", 12, 0, 64),
    ("max_nodes", 2_000, 1, 50_000),
    ("max_edges", 4_000, 1, 100_000),
    ("max_paths", 100, 1, 1_000),
];

/// The kinds a path may end at, most telling first: the application's boundary.
pub const TERMINAL_KINDS: [&str; 16] = [
    "native-export",
    "native-addon",
    "target",
    "electron-utility",
    "endpoint",
    "storage",
    "worker",
    "service-worker",
    "ipc-handler",
    "ipc-channel",
    "browser-window",
    "electron-renderer",
    "electron-preload",
    "context-bridge-api",
    "javascript-module",
    "javascript-asset",
];

/// The limitations every trace states, first; the others say what this one met.
pub const STANDING_LIMITATIONS: [&str; 3] = [
    "A trace follows only the relations the static analysis recorded: a missing path never proves that none exists at run time.",
    "An IPC handler leads to what its function does (requests, add-on calls, calls into other modules, processes, windows, endpoints) when the function is written in the registration or passed by a name the file declares exactly one function, class method or function member of an object literal bound to a name under (this.open, this.open.bind(this), handlers.open), and through the functions and methods of its file it calls by such a name; otherwise it leads no further than its registration.",
    "Edges are followed as data and control flow run: every relation from its source to its target, except handles, followed from the channel to its handler.",
];

/// The bounds of one trace.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    pub max_seed_matches: usize,
    pub max_depth: usize,
    pub max_nodes: usize,
    pub max_edges: usize,
    pub max_paths: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_seed_matches: LIMITS[0].1,
            max_depth: LIMITS[1].1,
            max_nodes: LIMITS[2].1,
            max_edges: LIMITS[3].1,
            max_paths: LIMITS[4].1,
        }
    }
}

impl Limits {
    /// The limits by name, in [`LIMITS`] order.
    pub fn values(&self) -> [usize; 5] {
        [
            self.max_seed_matches,
            self.max_depth,
            self.max_nodes,
            self.max_edges,
            self.max_paths,
        ]
    }

    /// The first limit out of its range, with its range.
    pub fn out_of_range(&self) -> Option<(&'static str, usize, usize)> {
        LIMITS
            .iter()
            .zip(self.values())
            .find(|((_, _, least, most), value)| !(*least..=*most).contains(value))
            .map(|((name, _, least, most), _)| (*name, *least, *most))
    }

    pub fn json(&self) -> Value {
        Value::Object(
            LIMITS
                .iter()
                .zip(self.values())
                .map(|((name, ..), value)| (name.to_string(), json!(value)))
                .collect(),
        )
    }
}

/// Where a feature starts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Seed {
    /// One of [`SEED_KINDS`].
    pub kind: String,
    /// 1 to 4096 characters.
    pub value: String,
    /// `exact` or `contains`; `None` takes the kind's default.
    pub matching: Option<String>,
    pub case_sensitive: bool,
}

impl Seed {
    pub fn json(&self) -> Value {
        json!({"kind": self.kind, "value": self.value, "match": self.matching,
               "case_sensitive": self.case_sensitive})
    }

    /// Whether the comparison is by substring, after the kind's default.
    fn contains(&self) -> bool {
        match self.matching.as_deref() {
            Some(m) => m == "contains",
            None => self.kind == "string",
        }
    }
}

/// A native Evidence record supplied with the trace: its id, producer and subject digest.
#[derive(Debug, Clone)]
pub struct NativeEvidence {
    pub evidence_id: String,
    pub provider: String,
    pub subject_sha256: Option<String>,
}

#[derive(Deserialize)]
struct ResultIn<'a> {
    #[serde(borrow)]
    graph: GraphIn<'a>,
}

#[derive(Deserialize)]
struct GraphIn<'a> {
    graph_id: String,
    coverage: CoverageIn,
    #[serde(borrow)]
    nodes: Vec<&'a RawValue>,
    #[serde(borrow)]
    edges: Vec<&'a RawValue>,
}

#[derive(Deserialize)]
struct EdgeIn {
    edge_id: String,
    source_node_id: String,
    target_node_id: String,
    relation: String,
    evidence: EvidenceIn,
}

/// An application graph, read down to what a trace needs, its items kept as their text.
pub struct Application<'a> {
    evidence_id: String,
    graph_id: String,
    status: String,
    nodes: Vec<Node<'a>>,
    edges: Vec<Edge<'a>>,
}

struct Node<'a> {
    text: &'a RawValue,
    node: NodeIn,
}

struct Edge<'a> {
    text: &'a RawValue,
    edge: EdgeIn,
    source: usize,
    target: usize,
}

impl<'a> Application<'a> {
    /// Reads the canonical text of a validated record's `normalized_result`.
    pub fn read(
        cx: &StageCx<'_>,
        evidence_id: &str,
        result: &'a [u8],
    ) -> Result<Application<'a>, Failure> {
        let unreadable = |err: serde_json::Error| {
            Failure::new(
                FailureReason::InvalidInput,
                "application: the application result has no readable graph",
            )
            .with_source(err)
        };
        let parsed: ResultIn<'a> = serde_json::from_slice(result).map_err(unreadable)?;
        let graph = parsed.graph;
        cx.check()?;
        let nodes: Vec<Node<'a>> = graph
            .nodes
            .par_iter()
            .map(|text| {
                cx.check()?;
                let node = serde_json::from_str::<NodeIn>(text.get()).map_err(unreadable)?;
                Ok(Node { text, node })
            })
            .collect::<Result<_, Failure>>()?;
        cx.check()?;
        let index: HashMap<&str, usize> = nodes
            .iter()
            .enumerate()
            .map(|(i, n)| (n.node.node_id.as_str(), i))
            .collect();
        let edges = graph
            .edges
            .par_iter()
            .map(|text| {
                let edge = serde_json::from_str::<EdgeIn>(text.get()).map_err(unreadable)?;
                let end = |id: &str| {
                    index.get(id).copied().ok_or_else(|| {
                        Failure::new(
                            FailureReason::InvalidInput,
                            "application: an edge names a node that is not in the graph",
                        )
                    })
                };
                let (source, target) = (end(&edge.source_node_id)?, end(&edge.target_node_id)?);
                Ok(Edge {
                    text,
                    edge,
                    source,
                    target,
                })
            })
            .collect::<Result<_, Failure>>()?;
        Ok(Application {
            evidence_id: evidence_id.to_owned(),
            graph_id: graph.graph_id,
            status: graph.coverage.status,
            nodes,
            edges,
        })
    }
}

/// Where an edge runs as data and control flow do: (from, to).
pub fn flow(relation: &str, source: usize, target: usize) -> (usize, usize) {
    if relation == "handles" {
        (target, source)
    } else {
        (source, target)
    }
}

/// How a node matched a seed.
struct Match {
    node: usize,
    basis: &'static str,
    field: String,
}

/// The first field of `node` that matches `seed`, as (basis, field).
fn seed_match(seed: &Seed, node: &NodeIn) -> Option<(&'static str, String)> {
    let fold = |s: &str| {
        if seed.case_sensitive {
            s.to_owned()
        } else {
            s.to_lowercase()
        }
    };
    let wanted = fold(&seed.value);
    let contains = seed.contains();
    let is_path_field = seed.kind == "module";
    let hit = |text: &str| {
        let text = fold(text);
        if contains {
            text.contains(&wanted)
        } else {
            text == wanted || (is_path_field && text.ends_with(&format!("/{wanted}")))
        }
    };
    if seed.kind == "node-id" {
        return (node.node_id == seed.value).then(|| ("node-id", "node_id".to_owned()));
    }
    let (kinds, fields): (&[&str], &[&str]) = match seed.kind.as_str() {
        "api" => (&["context-bridge-api", "target"], &["api_key", "api"]),
        "channel" => (
            &["ipc-channel", "ipc-handler"],
            &["channel", "channel_expression"],
        ),
        "route" => (&["endpoint"], &["value", "path"]),
        "module" => (
            &[
                "javascript-asset",
                "javascript-chunk",
                "javascript-module",
                "source-module",
                "source-map",
                "electron-main",
                "electron-preload",
                "electron-renderer",
                "electron-utility",
            ],
            &[
                "path",
                "module_key",
                "resolved_path",
                "declared_path",
                "original_source",
            ],
        ),
        "native-export" => (
            &["native-export", "native-addon"],
            &["member", "specifier", "path"],
        ),
        _ => (&[], &[]),
    };
    let any_kind = seed.kind == "string";
    if !any_kind && !kinds.contains(&node.kind.as_str()) {
        return None;
    }
    for o in &node.observations {
        if o.label.as_deref().is_some_and(&hit) {
            return Some(("label", "label".to_owned()));
        }
    }
    if any_kind {
        let mut strings = Vec::new();
        for (key, value) in &node.identity {
            collect_strings(key, value, &mut strings);
        }
        if let Some((key, _)) = strings.iter().find(|(_, s)| hit(s)) {
            return Some(("identity", key.to_string()));
        }
        for o in &node.observations {
            let mut strings = Vec::new();
            for (key, value) in &o.properties {
                collect_strings(key, value, &mut strings);
            }
            if let Some((key, _)) = strings.iter().find(|(_, s)| hit(s)) {
                return Some(("property", key.to_string()));
            }
        }
        return None;
    }
    for o in &node.observations {
        for field in fields {
            let text = match o.properties.get(*field) {
                Some(Value::String(s)) => Some(s.clone()),
                Some(Value::Number(n)) => Some(n.to_string()),
                _ => None,
            };
            if text.as_deref().is_some_and(&hit) {
                return Some(("property", field.to_string()));
            }
        }
        // A bridge's members, alone and under its key.
        if seed.kind == "api"
            && let Some(Value::Array(members)) = o.properties.get("members")
        {
            let key = o.properties.get("api_key").and_then(Value::as_str);
            for member in members.iter().filter_map(Value::as_str) {
                let qualified = key.map(|k| format!("{k}.{member}"));
                if hit(member) || qualified.as_deref().is_some_and(&hit) {
                    return Some(("property", "members".to_owned()));
                }
            }
        }
    }
    None
}

/// Fields a `string` seed does not look in: the graph's own vocabulary (what kind of fact,
/// how it was identified or resolved) and digests, which every node of a kind shares or no
/// one searches for.
const BOOKKEEPING: [&str; 12] = [
    "strategy",
    "stability",
    "scope",
    "namespace",
    "kind",
    "fact_kind",
    "side",
    "world",
    "resolution",
    "resolution_status",
    "resolution_context",
    "api_status",
];

/// Every string in `value`, named by the top-level key it sits under, less [`BOOKKEEPING`]
/// fields and digests.
fn collect_strings<'v>(key: &'v str, value: &'v Value, out: &mut Vec<(&'v str, &'v str)>) {
    if BOOKKEEPING.contains(&key) || key.ends_with("sha256") {
        return;
    }
    match value {
        Value::String(s) => out.push((key, s)),
        Value::Array(items) => items.iter().for_each(|v| collect_strings(key, v, out)),
        Value::Object(map) => map.values().for_each(|v| collect_strings(key, v, out)),
        _ => {}
    }
}

/// A traced node: its index, its depth, and the node and edge it was first reached by.
type Reached = (usize, usize, Option<(usize, usize)>);

/// The breadth-first walk: what it reached and what its bounds cut.
struct Walk {
    /// Traced nodes, in the order reached, with (depth, the node and edge it was reached by).
    reached: Vec<Reached>,
    at: HashMap<usize, usize>,
    edges: BTreeSet<usize>,
    omitted_nodes: BTreeSet<usize>,
    omitted_edges: BTreeSet<usize>,
    frontier: BTreeSet<usize>,
    /// Nodes from which the walk reached a node first.
    parents: BTreeSet<usize>,
}

fn walk(
    cx: &StageCx<'_>,
    app: &Application<'_>,
    seeds: &[usize],
    direction: &str,
    limits: &Limits,
) -> Result<Walk, Failure> {
    // Each node's steps, as (next node, edge, way), in edge order (the graph's edges are
    // sorted): with the flow (`OUT`) or against it (`IN`).
    const OUT: u8 = 1;
    const IN: u8 = 2;
    let mut steps: Vec<Vec<(usize, usize, u8)>> = vec![Vec::new(); app.nodes.len()];
    for (i, e) in app.edges.iter().enumerate() {
        let (from, to) = flow(&e.edge.relation, e.source, e.target);
        if direction != "incoming" {
            steps[from].push((to, i, OUT));
        }
        if direction != "outgoing" {
            steps[to].push((from, i, IN));
        }
    }
    let mut w = Walk {
        reached: Vec::new(),
        at: HashMap::default(),
        edges: BTreeSet::new(),
        omitted_nodes: BTreeSet::new(),
        omitted_edges: BTreeSet::new(),
        frontier: BTreeSet::new(),
        parents: BTreeSet::new(),
    };
    // The ways each node is walked on: a seed both ways, any other node on the way it was
    // reached, so that `both` is what the seed leads to and what leads to it, never what is
    // merely connected (up a containment edge to the root and down to every file).
    let mut ways: HashMap<usize, u8> = HashMap::default();
    let mut queue: VecDeque<(usize, u8, usize)> = VecDeque::new();
    for &seed in seeds {
        w.at.insert(seed, w.reached.len());
        w.reached.push((seed, 0, None));
        ways.insert(seed, OUT | IN);
        queue.push_back((seed, OUT | IN, 0));
    }
    let mut visited = 0usize;
    while let Some((node, walked, depth)) = queue.pop_front() {
        visited += 1;
        if visited.is_multiple_of(1024) {
            cx.check()?;
        }
        for &(next, edge, way) in &steps[node] {
            if walked & way == 0 || w.edges.contains(&edge) {
                continue;
            }
            if w.at.contains_key(&next) {
                if w.edges.len() < limits.max_edges {
                    w.edges.insert(edge);
                    // Reached before only the other way: it is walked this way too.
                    let seen = ways.entry(next).or_default();
                    if *seen & way == 0 && depth < limits.max_depth {
                        *seen |= way;
                        queue.push_back((next, way, depth + 1));
                    }
                } else {
                    w.omitted_edges.insert(edge);
                    w.frontier.insert(node);
                }
                continue;
            }
            if depth >= limits.max_depth
                || w.reached.len() >= limits.max_nodes
                || w.edges.len() >= limits.max_edges
            {
                w.omitted_nodes.insert(next);
                w.omitted_edges.insert(edge);
                w.frontier.insert(node);
                continue;
            }
            w.edges.insert(edge);
            w.at.insert(next, w.reached.len());
            w.reached.push((next, depth + 1, Some((node, edge))));
            w.parents.insert(node);
            ways.insert(next, way);
            queue.push_back((next, way, depth + 1));
        }
    }
    // A node cut from one side may have been reached from another; so may an edge.
    w.omitted_nodes.retain(|n| !w.at.contains_key(n));
    let traced = &w.edges;
    w.omitted_edges.retain(|e| !traced.contains(e));
    Ok(w)
}

/// Traces `seed` through `app`. `native` are the supplied native Evidence records.
pub fn trace(
    cx: &StageCx<'_>,
    app: &Application<'_>,
    seed: &Seed,
    direction: &str,
    limits: &Limits,
    native: &[NativeEvidence],
) -> Result<Value, Failure> {
    // Seeds.
    let matches: Vec<Match> = app
        .nodes
        .par_iter()
        .enumerate()
        .filter_map(|(i, n)| {
            seed_match(seed, &n.node).map(|(basis, field)| Match {
                node: i,
                basis,
                field,
            })
        })
        .collect();
    cx.check()?;
    // Nodes are sorted by id in a validated graph, so index order is id order.
    let total_matches = matches.len();
    let kept: Vec<&Match> = matches.iter().take(limits.max_seed_matches).collect();
    let seeds: Vec<usize> = kept.iter().map(|m| m.node).collect();
    let w = walk(cx, app, &seeds, direction, limits)?;
    cx.check()?;

    // Paths: one per leaf of the walk's tree, the shortest from its seed.
    let mut paths = Vec::new();
    for &(node, _, _) in &w.reached {
        if w.parents.contains(&node) {
            continue;
        }
        let mut node_ids = vec![node];
        let mut edge_ids = Vec::new();
        let mut here = node;
        while let Some((parent, edge)) = w.reached[w.at[&here]].2 {
            node_ids.push(parent);
            edge_ids.push(edge);
            here = parent;
        }
        node_ids.reverse();
        edge_ids.reverse();
        if node_ids.len() > MAX_PATH_NODES {
            continue;
        }
        paths.push(path_of(app, &node_ids, &edge_ids).map_err(canonical_failure)?);
    }
    let rank = |kind: &str| {
        TERMINAL_KINDS
            .iter()
            .position(|k| *k == kind)
            .unwrap_or(TERMINAL_KINDS.len())
    };
    paths.sort_by(|a: &Value, b: &Value| {
        let key = |p: &Value| {
            (
                rank(p["end_kind"].as_str().unwrap_or_default()),
                p["path_id"].as_str().unwrap_or_default().to_owned(),
            )
        };
        key(a).cmp(&key(b))
    });
    let total_paths = paths.len();
    paths.truncate(limits.max_paths);

    // The subgraph, nodes and edges sorted by id (index order is id order in the source).
    let mut node_indices: Vec<usize> = w.at.keys().copied().collect();
    node_indices.sort_unstable();
    let mut facts = BTreeMap::<&str, usize>::new();
    let mut nodes = Vec::with_capacity(node_indices.len());
    for &i in &node_indices {
        for o in &app.nodes[i].node.observations {
            *facts.entry(o.evidence.state.as_str()).or_default() += 1;
        }
        nodes.push(parse(app.nodes[i].text)?);
    }
    let mut edges = Vec::with_capacity(w.edges.len());
    for &i in &w.edges {
        *facts.entry(app.edges[i].edge.state()).or_default() += 1;
        edges.push(parse(app.edges[i].text)?);
    }
    cx.check()?;

    // Native handoffs.
    let mut handoffs = Vec::new();
    let mut unshipped = 0usize;
    for &i in &node_indices {
        let node = &app.nodes[i].node;
        if node.kind != "native-addon" {
            continue;
        }
        let sha = match node.identity.get("strategy").and_then(Value::as_str) {
            Some("content-digest") => node.identity.get("sha256").and_then(Value::as_str),
            _ => None,
        };
        let Some(sha) = sha else {
            unshipped += 1;
            continue;
        };
        let path = node.observations.iter().find_map(|o| {
            o.properties
                .get("path")
                .and_then(Value::as_str)
                .map(str::to_owned)
        });
        let mut exports = BTreeSet::new();
        let mut members = BTreeSet::new();
        for &e in &w.edges {
            let edge = &app.edges[e];
            if edge.source == i
                && edge.edge.relation == "exposes"
                && app.nodes[edge.target].node.kind == "native-export"
            {
                let export = &app.nodes[edge.target].node;
                exports.insert(export.node_id.clone());
                for o in &export.observations {
                    if let Some(member) = o.properties.get("member").and_then(Value::as_str) {
                        members.insert(member.to_owned());
                    }
                }
            }
        }
        let linked: Vec<&NativeEvidence> = native
            .iter()
            .filter(|n| n.subject_sha256.as_deref() == Some(sha))
            .collect();
        let evidence_ids: BTreeSet<&str> = linked.iter().map(|n| n.evidence_id.as_str()).collect();
        let providers: BTreeSet<&str> = linked.iter().map(|n| n.provider.as_str()).collect();
        let (status, tools): (&str, &[&str]) = if linked.is_empty() {
            ("requires-provider-analysis", &PROVIDER_TOOLS)
        } else {
            ("evidence-linked", &[])
        };
        handoffs.push(json!({
            "native_node_id": node.node_id,
            "artifact_sha256": sha,
            "artifact_path": path,
            "export_node_ids": exports,
            "requested_exports": members,
            "status": status,
            "providers": providers,
            "evidence_ids": evidence_ids,
            "recommended_tools": tools,
        }));
    }

    // Coverage and limitations.
    let omitted_seeds = total_matches - kept.len();
    let omitted_paths = total_paths - paths.len();
    let cut = omitted_seeds + w.omitted_nodes.len() + w.omitted_edges.len() + omitted_paths;
    let status = if kept.is_empty() {
        "no-match"
    } else if cut > 0 {
        "truncated"
    } else if app.status != "complete" {
        "partial"
    } else {
        "complete-within-source"
    };
    let mut limitations: Vec<String> = STANDING_LIMITATIONS.iter().map(|s| s.to_string()).collect();
    if app.status != "complete" {
        limitations.push(format!(
            "The source graph's coverage is {}: its own limitations apply to this trace.",
            app.status
        ));
    }
    let mut limits_hit = Vec::new();
    if omitted_seeds > 0 {
        limits_hit.push(("max_seed_matches", limits.max_seed_matches, "items"));
        limitations.push(format!(
            "{omitted_seeds} seed matches past max_seed_matches ({}) were not traced.",
            limits.max_seed_matches
        ));
    }
    if !w.omitted_nodes.is_empty() || !w.omitted_edges.is_empty() {
        limits_hit.push(("max_depth", limits.max_depth, "depth"));
        limits_hit.push(("max_edges", limits.max_edges, "items"));
        limits_hit.push(("max_nodes", limits.max_nodes, "items"));
        limitations.push(format!(
            "The trace stopped at its bounds (max_depth {}, max_nodes {}, max_edges {}): {} nodes and {} edges beyond frontier nodes were not traced.",
            limits.max_depth,
            limits.max_nodes,
            limits.max_edges,
            w.omitted_nodes.len(),
            w.omitted_edges.len()
        ));
    }
    if omitted_paths > 0 {
        limits_hit.push(("max_paths", limits.max_paths, "items"));
        limitations.push(format!(
            "{omitted_paths} paths past max_paths ({}) are counted, not listed.",
            limits.max_paths
        ));
    }
    if unshipped > 0 {
        limitations.push(format!(
            "{unshipped} traced native add-on requests name no shipped file: no handoff is made for them."
        ));
    }
    if handoffs
        .iter()
        .any(|h| h["status"] == "requires-provider-analysis")
    {
        limitations.push("Native add-ons are handed off, not analysed: recommended_tools name a native analysis provider's tools, which this server does not offer.".to_owned());
    }
    let frontier: Vec<&str> = w
        .frontier
        .iter()
        .take(MAX_FRONTIER)
        .map(|&i| app.nodes[i].node.node_id.as_str())
        .collect();
    if w.frontier.len() > MAX_FRONTIER {
        limitations.push(format!(
            "{} frontier nodes past the first {MAX_FRONTIER} are not listed.",
            w.frontier.len() - MAX_FRONTIER
        ));
    }

    let graph = if kept.is_empty() {
        Value::Null
    } else {
        let coverage = if cut > 0 {
            let limits: Vec<Value> = limits_hit
                .iter()
                .map(|(name, value, unit)| json!({"name": name, "value": value, "unit": unit}))
                .collect();
            json!({"status": "partial", "truncated": true,
                   "omitted_count": w.omitted_nodes.len() + w.omitted_edges.len() + omitted_seeds + omitted_paths,
                   "limits": sorted_limits(limits)})
        } else {
            json!({"status": "complete", "truncated": false, "omitted_count": 0, "limits": []})
        };
        let graph_limitations: Vec<&String> = if cut > 0 {
            limitations
                .iter()
                .filter(|l| l.contains("max_"))
                .collect::<BTreeSet<_>>()
                .into_iter()
                .collect()
        } else {
            Vec::new()
        };
        let mut roots: Vec<&str> = kept
            .iter()
            .map(|m| app.nodes[m.node].node.node_id.as_str())
            .collect();
        roots.sort_unstable();
        let mut graph = json!({
            "schema": "JavaScriptApplicationGraph",
            "schema_version": 1,
            "coverage": coverage,
            "limitations": graph_limitations,
            "root_node_ids": roots,
            "nodes": nodes,
            "edges": edges,
        });
        graph["graph_id"] = json!(subgraph_id(&graph).map_err(canonical_failure)?);
        graph
    };

    let seed_matches: Vec<Value> = kept
        .iter()
        .map(|m| {
            let n = &app.nodes[m.node].node;
            json!({"node_id": n.node_id, "kind": n.kind, "basis": m.basis, "field": m.field})
        })
        .collect();
    // The records the trace rests on: the application's, and each native record supplied.
    let links: BTreeSet<&str> = native
        .iter()
        .map(|n| n.evidence_id.as_str())
        .chain([app.evidence_id.as_str()])
        .collect();
    let count = |state: &str| facts.get(state).copied().unwrap_or(0);
    let mut result = json!({
        "schema": SCHEMA,
        "schema_version": 1,
        "source_evidence_id": app.evidence_id,
        "source_graph_id": app.graph_id,
        "seed": seed.json(),
        "direction": direction,
        "limits": limits.json(),
        "seed_matches": seed_matches,
        "graph": graph,
        "paths": paths,
        "native_handoffs": handoffs,
        "summary": {
            "matched_seeds": kept.len(),
            "traced_nodes": node_indices.len(),
            "traced_edges": w.edges.len(),
            "terminal_paths": total_paths,
            "native_handoffs": handoffs.len(),
            "observed_facts": count("observed"),
            "inferred_facts": count("inferred"),
            "unknown_facts": count("unknown"),
            "unavailable_facts": count("unavailable"),
        },
        "coverage": {
            "status": status,
            "source_graph_status": app.status,
            "scanned_nodes": app.nodes.len(),
            "total_seed_matches": total_matches,
            "omitted_seed_matches": omitted_seeds,
            "omitted_nodes": w.omitted_nodes.len(),
            "omitted_edges": w.omitted_edges.len(),
            "omitted_paths": omitted_paths,
            "frontier_node_ids": frontier,
        },
        "limitations": limitations,
        "evidence_links": links,
    });
    let id = trace_id(&result).map_err(canonical_failure)?;
    result["trace_id"] = json!(id);
    Ok(result)
}

impl EdgeIn {
    fn state(&self) -> &str {
        &self.evidence.state
    }
}

fn parse(text: &RawValue) -> Result<Value, Failure> {
    serde_json::from_str(text.get()).map_err(|err| {
        Failure::new(
            FailureReason::Internal,
            "a graph item could not be read again",
        )
        .with_source(err)
    })
}

fn sorted_limits(mut limits: Vec<Value>) -> Vec<Value> {
    limits.sort_by_key(|l| {
        CanonicalJson::of(l)
            .map(|c| c.as_bytes().to_vec())
            .unwrap_or_default()
    });
    limits.dedup();
    limits
}

/// A path from its nodes and edges (indices into `app`).
fn path_of(
    app: &Application<'_>,
    nodes: &[usize],
    edges: &[usize],
) -> Result<Value, CanonicalError> {
    let node_ids: Vec<&str> = nodes
        .iter()
        .map(|&i| app.nodes[i].node.node_id.as_str())
        .collect();
    let edge_ids: Vec<&str> = edges
        .iter()
        .map(|&i| app.edges[i].edge.edge_id.as_str())
        .collect();
    let authorities: BTreeSet<&str> = edges
        .iter()
        .map(|&i| app.edges[i].edge.evidence.authority.as_str())
        .take(MAX_AUTHORITIES)
        .collect();
    let inference = edges
        .iter()
        .any(|&i| app.edges[i].edge.evidence.state != "observed");
    let start = node_ids[0];
    let end = *node_ids.last().unwrap_or(&start);
    let end_kind = &app.nodes[*nodes.last().unwrap_or(&nodes[0])].node.kind;
    Ok(json!({
        "path_id": path_id(start, end, &node_ids, &edge_ids)?,
        "start_node_id": start,
        "end_node_id": end,
        "end_kind": end_kind,
        "node_ids": node_ids,
        "edge_ids": edge_ids,
        "authorities": authorities,
        "contains_inference": inference,
    }))
}

/// `jatp_` + H(`{edge_ids, end_node_id, node_ids, start_node_id}`).
pub fn path_id(
    start: &str,
    end: &str,
    node_ids: &[&str],
    edge_ids: &[&str],
) -> Result<String, CanonicalError> {
    rea_hash::content_id(
        PATH_PREFIX,
        &json!({"edge_ids": edge_ids, "end_node_id": end, "node_ids": node_ids, "start_node_id": start}),
    )
}

/// `jatr_` + H(the result without `trace_id`).
pub fn trace_id(result: &Value) -> Result<String, CanonicalError> {
    rea_hash::content_id_without(TRACE_PREFIX, result, "trace_id")
}

/// The subgraph's `graph_id`, by the application graph's recipe.
pub fn subgraph_id(graph: &Value) -> Result<String, CanonicalError> {
    let header = json!({"coverage": graph["coverage"], "limitations": graph["limitations"],
        "root_node_ids": graph["root_node_ids"], "schema": graph["schema"], "schema_version": graph["schema_version"]});
    ids::graph_id(
        &CanonicalJson::of(&header)?,
        Piece::Json(&CanonicalJson::of(&graph["nodes"])?),
        Piece::Json(&CanonicalJson::of(&graph["edges"])?),
    )
}

fn canonical_failure(err: CanonicalError) -> Failure {
    Failure::new(
        FailureReason::Internal,
        "the trace could not be written as canonical JSON",
    )
    .with_source(err)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn node(kind: &str, label: &str, properties: Value) -> NodeIn {
        serde_json::from_value(json!({
            "node_id": "jag_node_1", "kind": kind, "identity": {"strategy": "x"},
            "observations": [{"label": label, "properties": properties, "evidence": {"state": "observed"}}],
        }))
        .unwrap()
    }

    fn seed(kind: &str, value: &str, matching: Option<&str>, case_sensitive: bool) -> Seed {
        Seed {
            kind: kind.to_owned(),
            value: value.to_owned(),
            matching: matching.map(str::to_owned),
            case_sensitive,
        }
    }

    #[test]
    fn seeds_match_by_kind_field_and_case() {
        let bridge = node(
            "context-bridge-api",
            "desktopApi",
            json!({"api_key": "desktopApi", "members": ["openProject", "nested.write"]}),
        );
        assert_eq!(
            seed_match(&seed("api", "desktopapi", None, false), &bridge).map(|m| m.0),
            Some("label")
        );
        assert_eq!(
            seed_match(&seed("api", "desktopapi", None, true), &bridge).map(|m| m.0),
            None
        );
        let member = seed_match(&seed("api", "desktopApi.openProject", None, true), &bridge);
        assert_eq!(member.map(|m| m.1), Some("members".to_owned()));
        // Exact is not a substring; contains is.
        assert!(seed_match(&seed("api", "desktop", None, false), &bridge).is_none());
        assert!(seed_match(&seed("api", "desktop", Some("contains"), false), &bridge).is_some());
        // A kind outside the seed's kinds never matches.
        assert!(seed_match(&seed("channel", "desktopApi", None, false), &bridge).is_none());
        // A string seed looks at every string, by substring.
        assert_eq!(
            seed_match(&seed("string", "write", None, false), &bridge).map(|m| m.1),
            Some("members".to_owned())
        );
        // A module seed matches a path's last segments exactly.
        let asset = node(
            "javascript-asset",
            "renderer/search.js",
            json!({"path": "renderer/search.js"}),
        );
        assert!(seed_match(&seed("module", "search.js", Some("exact"), false), &asset).is_some());
        assert!(seed_match(&seed("module", "arch.js", Some("exact"), false), &asset).is_none());
    }

    #[test]
    fn handles_runs_from_the_channel_to_its_handler() {
        assert_eq!(flow("handles", 1, 2), (2, 1));
        assert_eq!(flow("invokes", 1, 2), (1, 2));
        assert_eq!(flow("contains", 1, 2), (1, 2));
    }

    #[test]
    fn limits_are_checked_against_their_ranges() {
        assert_eq!(Limits::default().out_of_range(), None);
        let limits = Limits {
            max_depth: 65,
            ..Limits::default()
        };
        assert_eq!(limits.out_of_range(), Some(("max_depth", 0, 64)));
        let limits = Limits {
            max_nodes: 0,
            ..Limits::default()
        };
        assert_eq!(limits.out_of_range(), Some(("max_nodes", 1, 50_000)));
    }
}

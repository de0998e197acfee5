//! A query over one analysis's semantic relation graph: the analysis behind
//! `trace_javascript_semantics`.
//!
//! The source is the `semantic_graph` section of validated `analyze_javascript_application`
//! Evidence ([`crate::javascript::semantics`]); a record without one (an analysis made before
//! the section existed) is refused with the reason `reanalyze`.
//!
//! **Seeds** (literal comparison, `exact` by default or `contains`; case-sensitive):
//!
//! | seed kind | nodes | compared |
//! |---|---|---|
//! | `semantic-node` | any | `node_id` (always exact) |
//! | `application-node` | any | each of `application_node_ids` (always exact) |
//! | `function` | `function` | its name, its label |
//! | `property` | `property-slot` | the property name |
//! | `endpoint` | `request`, and literals supplying a request's `url` | the URL |
//! | `event` | `event`, `signal` | the name |
//! | `boundary-field` | `property-slot` read off a value a boundary (`JSON.parse`, a validator…) produced | the property name |
//! | `literal` | `literal` | the value |
//!
//! Matches are sorted by node id; past `max_seed_matches` they are counted, not traced.
//!
//! **Directions.** `forward-influence` follows relations from source to target (where a value
//! or control goes), `backward-provenance` against them (where it comes from). `callers` walks
//! from a function (or the function a seed belongs to) to the call sites that call it (and to
//! the bindings it is imported or assigned into, whose calls count too), and on to the functions
//! those call sites are in. `ownership` walks up: to the function a node belongs to, and
//! against `defines`, `owns`, `creates-promise`, `detaches-task`, `returns-task`, `awaits` and
//! `chains`. A step from a node to the function it is in is a `containment`, not a relation.
//! `allowed_relations` restricts the relations followed; `candidate` relations (one of several
//! possible callees) are followed only with `include_ambiguous_dynamic_edges`.
//!
//! **Traversal** is breadth first from every seed at once, each level in node id order, each
//! node's relations in relation id order. Bounds: `max_depth` steps, `max_nodes`, `max_edges`,
//! `max_functions` (function nodes), `max_modules` (distinct module paths), `max_unknowns`;
//! what a bound cuts is counted and the result is `truncated`. Otherwise the result is
//! `partial` (a missing relation never proves absence), or `unavailable` when no seed matched or
//! the graph is empty.
//!
//! **Pages.** The traversed nodes, ordered by (depth, node id), are paged `page_size` at a
//! time; a relation or containment goes with the page of its later-reached endpoint. The
//! `next_cursor` names the next page's offset and commits to the graph, the query and the
//! limits: a cursor given with anything else is refused.
//!
//! `trace_id` is `jsst_` + H(the result without `trace_id`).

use std::collections::{BTreeMap, BTreeSet};

use rea_core::{Failure, FailureReason};
use rea_exec::StageCx;
use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};
use serde_json::{Value, json};

use crate::javascript::semantics as sg;

pub const OPERATION: &str = "trace_javascript_semantics";
pub const SCHEMA: &str = "JavaScriptSemanticTrace";
pub const TRACE_PREFIX: &str = "jsst_";
pub const SEED_KINDS: [&str; 8] = [
    "semantic-node",
    "application-node",
    "function",
    "property",
    "endpoint",
    "event",
    "boundary-field",
    "literal",
];
pub const DIRECTIONS: [&str; 4] = [
    "backward-provenance",
    "forward-influence",
    "callers",
    "ownership",
];
pub const STATUSES: [&str; 4] = ["complete", "partial", "truncated", "unavailable"];
const OWNERSHIP: [&str; 7] = [
    "defines",
    "owns",
    "creates-promise",
    "detaches-task",
    "returns-task",
    "awaits",
    "chains",
];

/// Each limit: its name, default, least and most.
pub const LIMITS: [(&str, usize, usize, usize); 8] = [
    ("max_seed_matches", 25, 1, 1_000),
    ("max_nodes", 2_000, 1, 50_000),
    ("max_edges", 4_000, 1, 100_000),
    ("max_depth", 12, 0, 64),
    ("max_functions", 500, 1, 10_000),
    ("max_modules", 500, 1, 10_000),
    ("max_unknowns", 1_000, 0, 10_000),
    ("page_size", 200, 1, 1_000),
];

/// The query's limits, by name (see [`LIMITS`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Limits(pub BTreeMap<&'static str, usize>);

impl Default for Limits {
    fn default() -> Self {
        Limits(LIMITS.iter().map(|(n, d, _, _)| (*n, *d)).collect())
    }
}

impl Limits {
    pub fn get(&self, name: &str) -> usize {
        self.0.get(name).copied().unwrap_or_default()
    }

    pub fn set(&mut self, name: &'static str, value: usize) {
        self.0.insert(name, value);
    }

    /// The first limit out of its range: (name, least, most).
    pub fn out_of_range(&self) -> Option<(&'static str, usize, usize)> {
        LIMITS
            .iter()
            .find(|(n, _, least, most)| {
                let v = self.get(n);
                v < *least || v > *most
            })
            .map(|(n, _, least, most)| (*n, *least, *most))
    }

    pub fn json(&self) -> Value {
        Value::Object(
            self.0
                .iter()
                .map(|(k, v)| ((*k).to_owned(), json!(v)))
                .collect(),
        )
    }
}

/// What a query starts from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Seed {
    pub kind: String,
    pub value: String,
    /// `exact` (default) or `contains`.
    pub matching: Option<String>,
}

/// Which traversed nodes are reported as the query's endpoints.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Filter {
    /// `source` or `sink`.
    pub role: String,
    /// Semantic node kinds, 1 to 24.
    pub classes: Vec<String>,
}

/// A query.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Query {
    pub seed: Seed,
    pub direction: String,
    /// Relations followed (all when `None`).
    pub allowed_relations: Option<Vec<String>>,
    pub include_ambiguous_dynamic_edges: bool,
    pub filter: Option<Filter>,
    pub limits: Limits,
    pub cursor: Option<String>,
}

impl Query {
    /// The query as the result and the cursor commit to it (the cursor left out).
    pub fn json(&self) -> Value {
        let mut relations = self.allowed_relations.clone();
        if let Some(r) = &mut relations {
            r.sort();
            r.dedup();
        }
        json!({
            "seed": {
                "kind": self.seed.kind,
                "value": self.seed.value,
                "match": self.seed.matching.as_deref().unwrap_or("exact"),
            },
            "direction": self.direction,
            "allowed_relations": relations,
            "include_ambiguous_dynamic_edges": self.include_ambiguous_dynamic_edges,
            "filter": self.filter.as_ref().map(|f| {
                let mut classes = f.classes.clone();
                classes.sort();
                classes.dedup();
                json!({"role": f.role, "classes": classes})
            }),
            "source_map_authority": {"authority": "none"},
        })
    }

    /// The request's own checks: a problem as (field, message).
    pub fn check(&self) -> Result<(), (&'static str, String)> {
        if !SEED_KINDS.contains(&self.seed.kind.as_str()) {
            return Err((
                "seed.kind",
                format!("seed.kind must be one of {}", SEED_KINDS.join(", ")),
            ));
        }
        if self.seed.value.is_empty() || self.seed.value.chars().count() > 4096 {
            return Err((
                "seed.value",
                "seed.value must be 1 to 4096 characters".into(),
            ));
        }
        if let Some(m) = &self.seed.matching
            && m != "exact"
            && m != "contains"
        {
            return Err(("seed.match", "seed.match must be exact or contains".into()));
        }
        if !DIRECTIONS.contains(&self.direction.as_str()) {
            return Err((
                "direction",
                format!("direction must be one of {}", DIRECTIONS.join(", ")),
            ));
        }
        if let Some(relations) = &self.allowed_relations {
            if relations.is_empty() || relations.len() > 44 {
                return Err((
                    "allowed_relations",
                    "allowed_relations must list 1 to 44 relations".into(),
                ));
            }
            if let Some(r) = relations.iter().find(|r| sg::family_of(r).is_none()) {
                return Err((
                    "allowed_relations",
                    format!("{r} is not a semantic relation"),
                ));
            }
        }
        if let Some(filter) = &self.filter {
            if filter.role != "source" && filter.role != "sink" {
                return Err(("filter.role", "filter.role must be source or sink".into()));
            }
            if filter.classes.is_empty()
                || filter.classes.len() > 24
                || filter
                    .classes
                    .iter()
                    .any(|c| !sg::NODE_KINDS.contains(&c.as_str()))
            {
                return Err((
                    "filter.classes",
                    "filter.classes must be 1 to 24 semantic node kinds".into(),
                ));
            }
        }
        if let Some((name, least, most)) = self.limits.out_of_range() {
            return Err((name, format!("{name} must be between {least} and {most}")));
        }
        Ok(())
    }
}

fn failure(reason: FailureReason, message: impl Into<String>) -> Failure {
    Failure::new(reason, message)
}

/// The graph, indexed.
struct Graph<'g> {
    nodes: HashMap<&'g str, &'g Value>,
    relations: &'g [Value],
    /// Relation indices by source and by target, in relation id order.
    out: HashMap<&'g str, Vec<usize>>,
    inn: HashMap<&'g str, Vec<usize>>,
}

impl<'g> Graph<'g> {
    fn new(section: &'g Value) -> Graph<'g> {
        let empty: &[Value] = &[];
        let nodes = section["nodes"].as_array().map_or(empty, Vec::as_slice);
        let relations = section["relations"].as_array().map_or(empty, Vec::as_slice);
        let mut out: HashMap<&str, Vec<usize>> = HashMap::default();
        let mut inn: HashMap<&str, Vec<usize>> = HashMap::default();
        for (i, r) in relations.iter().enumerate() {
            let (s, t) = (str_of(&r["source_node_id"]), str_of(&r["target_node_id"]));
            out.entry(s).or_default().push(i);
            inn.entry(t).or_default().push(i);
        }
        Graph {
            nodes: nodes.iter().map(|n| (str_of(&n["node_id"]), n)).collect(),
            relations,
            out,
            inn,
        }
    }
}

fn str_of(v: &Value) -> &str {
    v.as_str().unwrap_or_default()
}

/// Runs `query` over the `semantic_graph` of an analysis's `result`.
pub fn trace(cx: &StageCx<'_>, result: &Value, query: &Query) -> Result<Value, Failure> {
    let Some(section) = result.get("semantic_graph") else {
        return Err(failure(
            FailureReason::InvalidInput,
            "the analysis has no semantic relation graph: analyze the application again with this version of rea",
        )
        .with_detail("reason", "reanalyze"));
    };
    let graph_id = str_of(&section["graph_id"]).to_owned();
    let commit = commitment(&graph_id, query)?;
    let offset = match &query.cursor {
        None => 0,
        Some(cursor) => parse_cursor(cursor, &commit)?,
    };
    let graph = Graph::new(section);
    let seeds = seeds(&graph, section, query);
    let limits = &query.limits;
    let traced: Vec<&str> = seeds
        .iter()
        .take(limits.get("max_seed_matches"))
        .map(|(id, _)| *id)
        .collect();
    let walk = walk(cx, &graph, &traced, query)?;
    let total = walk.order.len();
    if offset > 0 && offset >= total {
        return Err(failure(
            FailureReason::InvalidInput,
            "the cursor is past the last page",
        )
        .with_detail("reason", "invalid-cursor"));
    }
    let page_size = limits.get("page_size");
    let end = (offset + page_size).min(total);
    let index: HashMap<&str, usize> = walk
        .order
        .iter()
        .enumerate()
        .map(|(i, (id, _))| (*id, i))
        .collect();
    let on_page = |a: &str, b: &str| {
        let at = match (index.get(a), index.get(b)) {
            (Some(a), Some(b)) => *a.max(b),
            _ => return false,
        };
        (offset..end).contains(&at)
    };
    let nodes: Vec<Value> = walk.order[offset..end]
        .iter()
        .map(|(id, depth)| json!({"depth": depth, "node": graph.nodes[id]}))
        .collect();
    let relations: Vec<Value> = walk
        .relations
        .iter()
        .filter(|i| {
            let r = &graph.relations[**i];
            on_page(str_of(&r["source_node_id"]), str_of(&r["target_node_id"]))
        })
        .map(|i| graph.relations[*i].clone())
        .collect();
    let containments: Vec<Value> = walk
        .containments
        .iter()
        .filter(|(f, n)| on_page(f, n))
        .map(|(f, n)| json!({"function_node_id": f, "node_id": n}))
        .collect();
    // Unknowns of the traversed nodes, and of their files.
    let traversed: HashSet<&str> = walk.order.iter().map(|(id, _)| *id).collect();
    let modules: HashSet<&str> = walk
        .order
        .iter()
        .map(|(id, _)| str_of(&graph.nodes[id]["identity"]["module_path"]))
        .collect();
    let module_nodes: HashSet<&str> = graph
        .nodes
        .iter()
        .filter(|(_, n)| {
            n["kind"] == "module" && modules.contains(str_of(&n["identity"]["module_path"]))
        })
        .map(|(id, _)| *id)
        .collect();
    let mut unknowns: Vec<&Value> = section["unknowns"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|u| {
            let node = str_of(&u["node_id"]);
            traversed.contains(node) || module_nodes.contains(node)
        })
        .collect();
    let unknowns_total = unknowns.len();
    unknowns.truncate(limits.get("max_unknowns"));
    let endpoints: Vec<&str> = match &query.filter {
        None => Vec::new(),
        Some(f) => walk
            .order
            .iter()
            .filter(|(id, _)| {
                let kind = str_of(&graph.nodes[id]["kind"]);
                f.classes.iter().any(|c| c == kind)
            })
            .map(|(id, _)| *id)
            .collect(),
    };
    let mut bounds: Vec<&str> = walk.bounds.iter().copied().collect();
    if seeds.len() > traced.len() {
        bounds.push("max_seed_matches");
    }
    if unknowns_total > unknowns.len() {
        bounds.push("max_unknowns");
    }
    bounds.sort_unstable();
    bounds.dedup();
    let status = if traced.is_empty() || section["coverage"]["status"] == "unavailable" {
        "unavailable"
    } else if !bounds.is_empty() {
        "truncated"
    } else {
        "partial"
    };
    let next_cursor = (end < total).then(|| format!("{end}:{commit}"));
    let mut result = json!({
        "schema": SCHEMA,
        "schema_version": 1,
        "graph_id": graph_id,
        "application_graph_id": section["application_graph_id"],
        "query": query.json(),
        "limits": limits.json(),
        "status": status,
        "seeds": seeds.iter().take(traced.len()).map(|(id, field)| json!({"node_id": id, "field": field})).collect::<Vec<_>>(),
        "seed_matches": {"total": seeds.len(), "traced": traced.len()},
        "page": {
            "offset": offset,
            "page_size": page_size,
            "total_nodes": total,
            "total_relations": walk.relations.len(),
            "next_cursor": next_cursor,
        },
        "nodes": nodes,
        "relations": relations,
        "containments": containments,
        "endpoints": endpoints,
        "unknowns": unknowns,
        "coverage": {
            "graph_status": section["coverage"]["status"],
            "traversed_nodes": total,
            "traversed_relations": walk.relations.len(),
            "omitted_nodes": walk.omitted_nodes,
            "omitted_relations": walk.omitted_relations,
            "omitted_unknowns": unknowns_total - unknowns.len(),
            "bounds_reached": bounds,
        },
        "limitations": [
            "the trace follows relations the analysis read from syntax; a missing relation never proves absence",
            "source maps are not consulted (source_map_authority none)",
        ],
    });
    result["trace_id"] = Value::from(trace_id(&result).map_err(|e| {
        failure(
            FailureReason::Internal,
            format!("the trace could not be serialized: {e}"),
        )
    })?);
    Ok(result)
}

/// `jsst_` + H(the result without `trace_id`).
pub fn trace_id(result: &Value) -> Result<String, rea_hash::CanonicalError> {
    rea_hash::content_id_without(TRACE_PREFIX, result, "trace_id")
}

/// What a cursor commits to: the graph, the query and the limits.
fn commitment(graph_id: &str, query: &Query) -> Result<String, Failure> {
    let digest = rea_hash::digest_canonical(&json!({
        "graph_id": graph_id,
        "query": query.json(),
        "limits": query.limits.json(),
    }))
    .map_err(|e| failure(FailureReason::Internal, e.to_string()))?;
    Ok(digest[..32].to_owned())
}

fn parse_cursor(cursor: &str, commit: &str) -> Result<usize, Failure> {
    let invalid = || {
        failure(
            FailureReason::InvalidInput,
            "the cursor does not belong to this graph, query and limits",
        )
        .with_detail("reason", "invalid-cursor")
    };
    let (offset, rest) = cursor.split_once(':').ok_or_else(invalid)?;
    if rest != commit {
        return Err(invalid());
    }
    offset.parse::<usize>().map_err(|_| invalid())
}

/// Matching seed nodes with the field that matched, sorted by node id.
fn seeds<'g>(graph: &Graph<'g>, section: &'g Value, query: &Query) -> Vec<(&'g str, &'static str)> {
    let seed = &query.seed;
    let contains = seed.matching.as_deref() == Some("contains");
    let hit = |text: &str| {
        if contains {
            text.contains(seed.value.as_str())
        } else {
            text == seed.value
        }
    };
    let nodes = section["nodes"]
        .as_array()
        .map(Vec::as_slice)
        .unwrap_or_default();
    // Values a boundary produced: nodes a boundary writes into.
    let from_boundary: HashSet<&str> = if seed.kind == "boundary-field" {
        graph
            .relations
            .iter()
            .filter(|r| {
                graph
                    .nodes
                    .get(str_of(&r["source_node_id"]))
                    .is_some_and(|n| n["kind"] == "boundary")
            })
            .map(|r| str_of(&r["target_node_id"]))
            .collect()
    } else {
        HashSet::default()
    };
    // Literals supplying a request's URL.
    let url_literals: HashSet<&str> = if seed.kind == "endpoint" {
        graph
            .relations
            .iter()
            .filter(|r| {
                r["relation"] == "supplies-request-field" && r["properties"]["field"] == "url"
            })
            .map(|r| str_of(&r["source_node_id"]))
            .collect()
    } else {
        HashSet::default()
    };
    let mut out = Vec::new();
    for node in nodes {
        let id = str_of(&node["node_id"]);
        let kind = str_of(&node["kind"]);
        let props = &node["properties"];
        let field: Option<&'static str> = match seed.kind.as_str() {
            "semantic-node" => (id == seed.value).then_some("node_id"),
            "application-node" => node["application_node_ids"]
                .as_array()
                .is_some_and(|l| l.iter().any(|a| a == seed.value.as_str()))
                .then_some("application_node_ids"),
            "function" if kind == "function" => {
                if props["name"].as_str().is_some_and(hit) {
                    Some("name")
                } else if hit(str_of(&node["label"])) {
                    Some("label")
                } else {
                    None
                }
            }
            "property" if kind == "property-slot" => props["property"]
                .as_str()
                .is_some_and(hit)
                .then_some("property"),
            "endpoint" if kind == "request" => {
                props["url"].as_str().is_some_and(hit).then_some("url")
            }
            "endpoint" if kind == "literal" && url_literals.contains(id) => {
                props["value"].as_str().is_some_and(hit).then_some("value")
            }
            "event" if kind == "event" || kind == "signal" => {
                props["name"].as_str().is_some_and(hit).then_some("name")
            }
            "boundary-field" if kind == "property-slot" => {
                let read_off_boundary = graph.inn.get(id).is_some_and(|edges| {
                    edges.iter().any(|i| {
                        let r = &graph.relations[*i];
                        r["relation"] == "reads-property"
                            && from_boundary.contains(str_of(&r["source_node_id"]))
                    })
                });
                (read_off_boundary && props["property"].as_str().is_some_and(hit))
                    .then_some("property")
            }
            "literal" if kind == "literal" => {
                props["value"].as_str().is_some_and(hit).then_some("value")
            }
            _ => None,
        };
        if let Some(field) = field {
            out.push((id, field));
        }
    }
    out.sort_unstable();
    out
}

struct Walk<'g> {
    /// Traversed nodes with their depth, in (depth, node id) order.
    order: Vec<(&'g str, usize)>,
    /// Relation indices followed, in the order followed.
    relations: Vec<usize>,
    containments: Vec<(&'g str, &'g str)>,
    bounds: BTreeSet<&'static str>,
    omitted_nodes: usize,
    omitted_relations: usize,
}

fn walk<'g>(
    cx: &StageCx<'_>,
    graph: &Graph<'g>,
    seeds: &[&'g str],
    query: &Query,
) -> Result<Walk<'g>, Failure> {
    let limits = &query.limits;
    let allowed: Option<HashSet<&str>> = query
        .allowed_relations
        .as_ref()
        .map(|r| r.iter().map(String::as_str).collect());
    let follows = |r: &Value| {
        let relation = str_of(&r["relation"]);
        allowed.as_ref().is_none_or(|a| a.contains(relation))
            && (query.include_ambiguous_dynamic_edges || r["resolution"] == "resolved")
    };
    let mut w = Walk {
        order: Vec::new(),
        relations: Vec::new(),
        containments: Vec::new(),
        bounds: BTreeSet::new(),
        omitted_nodes: 0,
        omitted_relations: 0,
    };
    let mut seen: HashSet<&str> = HashSet::default();
    let mut seen_relations: HashSet<usize> = HashSet::default();
    let mut functions = 0usize;
    let mut modules: HashSet<&str> = HashSet::default();
    let mut level: Vec<&str> = Vec::new();
    // A node is admitted once, within the bounds.
    let mut admit =
        |w: &mut Walk<'g>, id: &'g str, depth: usize, seen: &mut HashSet<&'g str>| -> bool {
            if seen.contains(id) {
                return true;
            }
            let Some(node) = graph.nodes.get(id) else {
                return false;
            };
            let module = str_of(&node["identity"]["module_path"]);
            let is_function = node["kind"] == "function";
            if w.order.len() >= limits.get("max_nodes") {
                w.bounds.insert("max_nodes");
            } else if is_function && functions >= limits.get("max_functions") {
                w.bounds.insert("max_functions");
            } else if !modules.contains(module) && modules.len() >= limits.get("max_modules") {
                w.bounds.insert("max_modules");
            } else {
                seen.insert(id);
                functions += usize::from(is_function);
                modules.insert(module);
                w.order.push((id, depth));
                return true;
            }
            w.omitted_nodes += 1;
            false
        };
    for id in seeds {
        if admit(&mut w, id, 0, &mut seen) {
            level.push(id);
        }
    }
    for depth in 1..=limits.get("max_depth") {
        if level.is_empty() {
            break;
        }
        cx.check()?;
        level.sort_unstable();
        let mut next = Vec::new();
        for id in std::mem::take(&mut level) {
            // Relations to follow from here: (relation index, the node it leads to).
            let mut steps: Vec<(Option<usize>, &'g str)> = Vec::new();
            let node = graph.nodes[id];
            match query.direction.as_str() {
                "forward-influence" => {
                    for i in graph.out.get(id).into_iter().flatten() {
                        let r = &graph.relations[*i];
                        if follows(r) {
                            steps.push((Some(*i), str_of(&r["target_node_id"])));
                        }
                    }
                }
                "backward-provenance" => {
                    for i in graph.inn.get(id).into_iter().flatten() {
                        let r = &graph.relations[*i];
                        if follows(r) {
                            steps.push((Some(*i), str_of(&r["source_node_id"])));
                        }
                    }
                }
                "callers" => {
                    if node["kind"] == "call-site" {
                        if let Some(f) = node["function_node_id"].as_str() {
                            steps.push((None, f));
                        }
                    } else if node["kind"] == "function" || node["kind"] == "binding" {
                        for i in graph.inn.get(id).into_iter().flatten() {
                            let r = &graph.relations[*i];
                            if r["relation"] == "calls" && follows(r) {
                                steps.push((Some(*i), str_of(&r["source_node_id"])));
                            }
                        }
                        for i in graph.out.get(id).into_iter().flatten() {
                            let r = &graph.relations[*i];
                            let to = str_of(&r["target_node_id"]);
                            if matches!(str_of(&r["relation"]), "aliases" | "writes")
                                && graph.nodes.get(to).is_some_and(|n| n["kind"] == "binding")
                                && follows(r)
                            {
                                steps.push((Some(*i), to));
                            }
                        }
                    } else if let Some(f) = node["function_node_id"].as_str() {
                        steps.push((None, f));
                    }
                }
                _ => {
                    // ownership
                    if let Some(f) = node["function_node_id"].as_str() {
                        steps.push((None, f));
                    }
                    for i in graph.inn.get(id).into_iter().flatten() {
                        let r = &graph.relations[*i];
                        if OWNERSHIP.contains(&str_of(&r["relation"])) && follows(r) {
                            steps.push((Some(*i), str_of(&r["source_node_id"])));
                        }
                    }
                }
            }
            for (relation, to) in steps {
                let fresh = !seen.contains(to);
                if let Some(i) = relation {
                    if seen_relations.contains(&i) {
                        continue;
                    }
                    if w.relations.len() >= limits.get("max_edges") {
                        w.bounds.insert("max_edges");
                        w.omitted_relations += 1;
                        continue;
                    }
                }
                if !admit(&mut w, to, depth, &mut seen) {
                    if relation.is_some() {
                        w.omitted_relations += 1;
                    }
                    continue;
                }
                match relation {
                    Some(i) => {
                        seen_relations.insert(i);
                        w.relations.push(i);
                    }
                    None => {
                        let (f, n) = (to, id);
                        if !w.containments.contains(&(f, n)) {
                            w.containments.push((f, n));
                        }
                    }
                }
                if fresh {
                    next.push(to);
                }
            }
        }
        level = next;
    }
    w.order.sort_unstable_by(|a, b| (a.1, a.0).cmp(&(b.1, b.0)));
    if !level.is_empty() {
        // Nodes whose expansion the depth bound cut.
        let cut = level
            .iter()
            .any(|id| graph.out.contains_key(id) || graph.inn.contains_key(id));
        if cut {
            w.bounds.insert("max_depth");
        }
    }
    Ok(w)
}

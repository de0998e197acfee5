//! The `semantic_graph` section of an application analysis (`JavaScriptSemanticRelationGraph`
//! v1): the semantic relations the parse stage read from each file
//! (`rea-javascript-semantic-relations/v1`; the rules are in `rea_parse::extract::semantics`),
//! given content ids, linked across files through relative imports, bounded, and sealed. It
//! feeds `trace_javascript_semantics`.
//!
//! ```text
//! {schema, schema_version: 1, algorithm, graph_id, root_artifact_sha256, application_graph_id,
//!  root_node_ids (the module nodes, sorted, ≤ 10,000), nodes (by node_id), relations (by
//!  relation_id), fingerprints: [], unknowns (by unknown_id), coverage, limitations}
//! Node = {node_id, kind, identity: {artifact_sha256, module_path, source_range: {start, end}
//!         (byte offsets) | null, role_key}, function_node_id | null, application_node_ids,
//!         label, properties, evidence, identifier_strategy}
//! Relation = {relation_id, source_node_id, target_node_id, relation, resolution (resolved |
//!             candidate), properties, evidence, identifier_strategy}
//! Unknown = {unknown_id, node_id | null, family, relation_kinds, reason, detail,
//!            candidate_node_ids, evidence}
//! ```
//!
//! Ids (H = lowercase hex SHA-256 of RFC 8785 canonical JSON): `node_id` = `jsrg_node_` +
//! H(`{identity, kind}`); `relation_id` = `jsrg_relation_` + H(the relation without
//! `relation_id`); `unknown_id` = `jsrg_unknown_` + H(the unknown without `unknown_id`);
//! `graph_id` = `jsrg_` + H(the section without `graph_id`).
//!
//! Files are taken whole, the application's own first (outside `node_modules`), then in path
//! order, while the section's bounds hold ([`MAX_NODES`], [`MAX_RELATIONS`],
//! [`MAX_UNKNOWNS`]); a file that does not fit is left out and counted. An import whose
//! relative specifier names a file of the section links the exported node to the importing
//! binding (`aliases`, with the specifier).

use std::collections::BTreeMap;

use rayon::prelude::*;
use rea_core::{Failure, FailureReason};
use rea_hash::{CanonicalError, CanonicalJson, Composed};
use rea_parse::{
    FileFacts, FileKind, ParseStatus, Range, SEMANTIC_ALGORITHM, SEMANTIC_DEPENDENCY_BYTES,
    SEMANTIC_SOURCE_BYTES, SemanticFacts,
};
use rustc_hash::FxHashMap as HashMap;
use serde_json::{Map, Value, json};

pub use rea_parse::SEMANTIC_ALGORITHM as ALGORITHM;

pub const SCHEMA: &str = "JavaScriptSemanticRelationGraph";
pub const GRAPH_PREFIX: &str = "jsrg_";
pub const NODE_PREFIX: &str = "jsrg_node_";
pub const RELATION_PREFIX: &str = "jsrg_relation_";
pub const UNKNOWN_PREFIX: &str = "jsrg_unknown_";
pub const MAX_NODES: usize = 12_000;
pub const MAX_RELATIONS: usize = 24_000;
pub const MAX_UNKNOWNS: usize = 4_000;
pub const MAX_ROOTS: usize = 10_000;
/// An IPC channel's senders and listeners: (kept file, node).
type ChannelEnds = (Vec<(usize, u32)>, Vec<(usize, u32)>);

/// Senders and listeners of one IPC channel linked across files.
const MAX_CHANNEL_ENDS: usize = 32;
/// Application graph nodes a node links to.
pub const MAX_APPLICATION_LINKS: usize = 64;

/// The 24 node kinds.
pub const NODE_KINDS: [&str; 24] = [
    "module",
    "function",
    "parameter",
    "binding",
    "expression",
    "literal",
    "property-slot",
    "call-site",
    "return-site",
    "closure-capture",
    "promise",
    "task",
    "event",
    "listener",
    "timer",
    "child-process",
    "stdio",
    "signal",
    "config-source",
    "request",
    "response",
    "boundary",
    "resource",
    "unknown-frontier",
];

/// The 12 families and their 44 relations.
pub const FAMILIES: [(&str, &[&str]); 12] = [
    ("data-flow", &["aliases", "defines", "reads", "writes"]),
    (
        "object-flow",
        &[
            "destructures",
            "reads-property",
            "spreads",
            "writes-property",
        ],
    ),
    ("closure", &["captures"]),
    (
        "call-flow",
        &["argument-to-parameter", "calls", "returns-to-call"],
    ),
    (
        "promise-ownership",
        &[
            "aggregates",
            "awaits",
            "chains",
            "creates-promise",
            "detaches-task",
            "owns",
            "returns-task",
        ],
    ),
    (
        "event",
        &[
            "dispatches-candidate",
            "registers-listener",
            "removes-listener",
        ],
    ),
    ("timer", &["cancels-timer", "schedules-timer"]),
    (
        "child-process",
        &[
            "connects-stdio",
            "forwards-signal",
            "listens-error",
            "listens-exit",
            "spawns",
            "supplies-argv",
            "supplies-env",
        ],
    ),
    (
        "configuration",
        &[
            "defaults",
            "overrides",
            "reads-argv",
            "reads-config",
            "reads-environment",
        ],
    ),
    (
        "request",
        &[
            "constructs-request",
            "consumed-by",
            "supplies-request-field",
        ],
    ),
    ("boundary", &["coerces", "parses", "validates"]),
    ("resource-lifecycle", &["acquires", "releases"]),
];

pub const UNKNOWN_REASONS: [&str; 8] = [
    "ambiguous-target",
    "bound-reached",
    "dynamic-call",
    "dynamic-property",
    "eval-or-generated-code",
    "incomplete-module",
    "missing-source",
    "unsupported-syntax",
];

/// What the section never covers, whatever the input.
pub const STANDING_LIMITATIONS: [&str; 6] = [
    "relations are read from syntax without running code; a missing relation never proves absence",
    "calls resolve only to one function the syntax names (a declaration, a binding written only with that function, a function written in place); methods of objects and classes, and calls through properties, are not resolved",
    "files are linked through relative imports only; bare package specifiers and bundled module factories' requires are not followed",
    "configuration files and stores are not read (reads-config is never recorded); function fingerprints are not computed",
    "bundled code is read as one file: a bundler's module factories appear as functions of their bundle",
    "dependencies in node_modules are not read (counted as not_read): the relations cover the application's own code, up to 4 MiB of it",
];

/// The relation family a relation belongs to.
pub fn family_of(relation: &str) -> Option<&'static str> {
    FAMILIES
        .iter()
        .find(|(_, relations)| relations.contains(&relation))
        .map(|(family, _)| *family)
}

/// One file's relations, taken out of its facts.
pub struct TakenFile {
    path: String,
    sha256: String,
    status: ParseStatus,
    facts: Box<SemanticFacts>,
}

/// The semantic relations the parse stage read, and the files it did not read them for.
pub struct Taken {
    files: Vec<TakenFile>,
    /// JavaScript files left out by the semantic byte budget.
    not_read: usize,
}

/// Moves every file's semantic relations out of `files`.
pub fn take(files: &mut [FileFacts]) -> Taken {
    let mut taken = Vec::new();
    let mut not_read = 0;
    for file in files.iter_mut() {
        if file.kind != FileKind::JavaScript || file.parse == ParseStatus::Failed {
            continue;
        }
        let (Some(facts), Some(sha256)) = (file.js.semantics.take(), &file.sha256) else {
            if file.parse != ParseStatus::NotParsed && !file.semantic {
                not_read += 1;
            }
            continue;
        };
        taken.push(TakenFile {
            path: file.path.clone(),
            sha256: sha256.clone(),
            status: file.parse,
            facts,
        });
    }
    Taken {
        files: taken,
        not_read,
    }
}

fn is_dependency(path: &str) -> bool {
    path.starts_with("node_modules/") || path.contains("/node_modules/")
}

fn range_json(range: &Range) -> Value {
    json!({
        "start": {"line": range.start.line, "column": range.start.column},
        "end": {"line": range.end.line, "column": range.end.column},
    })
}

fn location(path: &str, range: Option<&Range>) -> Value {
    match range {
        Some(r) => {
            let mut v = range_json(r);
            v["kind"] = json!("source-range");
            v["source"] = json!(path);
            v
        }
        None => json!({"kind": "artifact-path", "path": path}),
    }
}

/// An item's evidence: compact, as the section's items number in the hundreds of thousands
/// (the artifact is the node's identity's, the extractor the section's `algorithm`, and the
/// standing limitations the section's).
fn evidence(path: &str, range: Option<&Range>, operation: &str, confidence: &str) -> Value {
    json!({
        "authority": "static-relationship-inference",
        "confidence": confidence,
        "location": location(path, range),
        "operation": operation,
        "state": "inferred",
    })
}

fn properties(pairs: &[(&'static str, Value)]) -> Value {
    let mut map = Map::new();
    for (k, v) in pairs {
        map.insert((*k).to_owned(), v.clone());
    }
    Value::Object(map)
}

/// The application graph's node for a JavaScript file (its content-digest identity).
fn asset_node_id(sha256: &str) -> Result<String, CanonicalError> {
    super::ids::node_id(
        "javascript-asset",
        &json!({"sha256": sha256, "stability": "global-exact", "strategy": "content-digest"}),
    )
}

/// One file's items with their ids.
struct Projected {
    nodes: Vec<Value>,
    relations: Vec<Value>,
    unknowns: Vec<(Value, &'static str)>,
    /// Node ids by index.
    ids: Vec<String>,
    exports: Vec<(String, u32)>,
    imports: Vec<rea_parse::SemanticImport>,
    calls: Vec<rea_parse::SemanticCall>,
    /// Each function's parameters by position, and its return sites.
    params: HashMap<u32, Vec<(u64, u32)>>,
    returns: HashMap<u32, Vec<u32>>,
    /// Electron IPC channels: (name, node, dispatched here, listened to here).
    channels: Vec<(String, u32, bool, bool)>,
    truncated: bool,
    incomplete: bool,
}

fn project_file(file: &TakenFile) -> Result<Projected, CanonicalError> {
    let facts = &file.facts;
    let path = &file.path;
    let asset = asset_node_id(&file.sha256)?;
    let mut ids = Vec::with_capacity(facts.nodes.len());
    for node in &facts.nodes {
        let identity = json!({
            "artifact_sha256": file.sha256,
            "module_path": path,
            "source_range": node.offsets.map(|(s, e)| json!({"start": s, "end": e})),
            "role_key": node.role_key,
        });
        ids.push(rea_hash::content_id(
            NODE_PREFIX,
            &json!({"identity": identity, "kind": node.kind}),
        )?);
    }
    let mut nodes = Vec::with_capacity(facts.nodes.len());
    for (i, node) in facts.nodes.iter().enumerate() {
        let label = if node.kind == "module" {
            path.clone()
        } else {
            node.label.clone()
        };
        let links: Vec<&str> = if node.kind == "module" {
            vec![asset.as_str()]
        } else {
            Vec::new()
        };
        nodes.push(json!({
            "node_id": ids[i],
            "kind": node.kind,
            "identity": {
                "artifact_sha256": file.sha256,
                "module_path": path,
                "source_range": node.offsets.map(|(s, e)| json!({"start": s, "end": e})),
                "role_key": node.role_key,
            },
            "function_node_id": node.function.map(|f| ids[f as usize].clone()),
            "application_node_ids": links,
            "label": label,
            "properties": properties(&node.properties),
            "evidence": evidence(path, node.range.as_ref(), "recover-semantic-node", "high"),
        }));
    }
    let mut relations = Vec::with_capacity(facts.relations.len());
    for r in &facts.relations {
        let mut value = json!({
            "source_node_id": ids[r.source as usize],
            "target_node_id": ids[r.target as usize],
            "relation": r.relation,
            "resolution": if r.resolved { "resolved" } else { "candidate" },
            "properties": properties(&r.properties),
            "evidence": evidence(path, r.range.as_ref(), "recover-semantic-relation",
                if r.resolved { "high" } else { "low" }),
        });
        value["relation_id"] = Value::from(rea_hash::content_id(RELATION_PREFIX, &value)?);
        relations.push(value);
    }
    let mut unknowns = Vec::with_capacity(facts.unknowns.len());
    for u in &facts.unknowns {
        let mut value = json!({
            "node_id": u.node.map(|n| ids[n as usize].clone()),
            "family": u.family,
            "relation_kinds": u.relation_kinds,
            "reason": u.reason,
            "detail": u.detail,
            "candidate_node_ids": sorted(u.candidates.iter().map(|c| ids[*c as usize].clone()).collect()),
            "evidence": evidence(path, u.range.as_ref(), "recover-semantic-unknown", "high"),
        });
        value["unknown_id"] = Value::from(rea_hash::content_id(UNKNOWN_PREFIX, &value)?);
        unknowns.push((value, u.family));
    }
    let mut projected = Projected {
        nodes,
        relations,
        unknowns,
        ids,
        exports: facts.exports.clone(),
        imports: facts.imports.clone(),
        calls: facts.imported_calls.clone(),
        params: HashMap::default(),
        returns: HashMap::default(),
        channels: Vec::new(),
        truncated: facts.truncated,
        incomplete: file.status == ParseStatus::Truncated,
    };
    for (i, node) in facts.nodes.iter().enumerate() {
        let Some(f) = node.function else { continue };
        match node.kind {
            "parameter" => {
                let position = node
                    .properties
                    .iter()
                    .find(|(k, _)| *k == "position")
                    .and_then(|(_, v)| v.as_u64())
                    .unwrap_or_default();
                projected
                    .params
                    .entry(f)
                    .or_default()
                    .push((position, i as u32));
            }
            "return-site" => projected.returns.entry(f).or_default().push(i as u32),
            _ => {}
        }
    }
    for (i, node) in facts.nodes.iter().enumerate() {
        if let Some(name) = node.role_key.strip_prefix("ipc:") {
            let i = i as u32;
            let dispatched = facts
                .relations
                .iter()
                .any(|r| r.target == i && r.relation == "dispatches-candidate");
            let listened = facts
                .relations
                .iter()
                .any(|r| r.source == i && r.relation == "registers-listener");
            projected
                .channels
                .push((name.to_owned(), i, dispatched, listened));
        }
    }
    // A file whose walk stopped, or whose parse hit a bound, is a frontier of its own.
    let module_id = projected.ids.first().cloned();
    for (flag, reason, detail) in [
        (
            projected.truncated,
            "bound-reached",
            "the file's semantic bounds were reached; its later code was not read",
        ),
        (
            projected.incomplete,
            "incomplete-module",
            "a parse bound was reached; part of the file was not read",
        ),
    ] {
        if !flag {
            continue;
        }
        let mut value = json!({
            "node_id": module_id,
            "family": "data-flow",
            "relation_kinds": ["aliases", "defines", "reads", "writes"],
            "reason": reason,
            "detail": detail,
            "candidate_node_ids": [],
            "evidence": evidence(path, None, "recover-semantic-unknown", "high"),
        });
        value["unknown_id"] = Value::from(rea_hash::content_id(UNKNOWN_PREFIX, &value)?);
        projected.unknowns.push((value, "data-flow"));
    }
    Ok(projected)
}

fn sorted(mut v: Vec<String>) -> Vec<String> {
    v.sort();
    v.dedup();
    v
}

/// The relative specifier `spec` from the file at `from`, as the candidate paths Node.js
/// would try, in its order.
fn candidates(from: &str, spec: &str) -> Vec<String> {
    if !(spec.starts_with("./") || spec.starts_with("../")) {
        return Vec::new();
    }
    let mut parts: Vec<&str> = from.split('/').collect();
    parts.pop();
    for part in spec.split('/') {
        match part {
            "." | "" => {}
            ".." => {
                if parts.pop().is_none() {
                    return Vec::new();
                }
            }
            other => parts.push(other),
        }
    }
    let base = parts.join("/");
    let mut out = vec![base.clone()];
    for ext in [".js", ".mjs", ".cjs", ".ts", ".tsx", ".jsx", ".mts", ".cts"] {
        out.push(format!("{base}{ext}"));
    }
    for index in [
        "index.js",
        "index.mjs",
        "index.cjs",
        "index.ts",
        "index.tsx",
    ] {
        out.push(format!("{base}/{index}"));
    }
    // TypeScript's convention: `./a.js` written for `./a.ts`.
    if let Some(stem) = base.strip_suffix(".js") {
        out.push(format!("{stem}.ts"));
        out.push(format!("{stem}.tsx"));
    }
    out
}

/// The section for the taken relations, without its `application_graph_id` and `graph_id`
/// ([`seal`] adds them).
pub fn project(taken: Taken, root_artifact_sha256: &str) -> Result<Section, Failure> {
    let Taken {
        mut files,
        not_read,
    } = taken;
    files.sort_by(|a, b| (is_dependency(&a.path), &a.path).cmp(&(is_dependency(&b.path), &b.path)));
    // Whole files, while the bounds hold, chosen by their counts before anything is
    // projected (a file's own frontier unknowns, two at most, counted in).
    let (mut n, mut r, mut u) = (0usize, 0usize, 0usize);
    let mut chosen = Vec::new();
    let (mut omitted_nodes, mut omitted_relations, mut omitted_unknowns) = (0u64, 0u64, 0u64);
    let mut omitted_files = 0usize;
    let mut truncated_files = 0usize;
    for file in &files {
        let f = &file.facts;
        omitted_nodes += f.omitted_nodes;
        omitted_relations += f.omitted_relations;
        omitted_unknowns += f.omitted_unknowns;
        truncated_files += usize::from(f.truncated);
        let unknowns = f.unknowns.len()
            + usize::from(f.truncated)
            + usize::from(file.status == ParseStatus::Truncated);
        if n + f.nodes.len() > MAX_NODES
            || r + f.relations.len() > MAX_RELATIONS
            || u + unknowns > MAX_UNKNOWNS
            || chosen.len() >= MAX_ROOTS
        {
            omitted_files += 1;
            omitted_nodes += f.nodes.len() as u64;
            omitted_relations += f.relations.len() as u64;
            omitted_unknowns += unknowns as u64;
            continue;
        }
        n += f.nodes.len();
        r += f.relations.len();
        u += unknowns;
        chosen.push(file);
    }
    let projected: Vec<Projected> = chosen
        .par_iter()
        .map(|file| project_file(file))
        .collect::<Result<_, _>>()
        .map_err(internal)?;
    let kept: Vec<(&TakenFile, Projected)> = chosen.into_iter().zip(projected).collect();
    // Links across files: an exported node to the binding that imports it.
    let by_path: HashMap<&str, usize> = kept
        .iter()
        .enumerate()
        .map(|(i, (f, _))| (f.path.as_str(), i))
        .collect();
    let mut links = Vec::new();
    let link = |source: &str,
                target: &str,
                relation: &str,
                properties: Value,
                path: &str|
     -> Result<Value, Failure> {
        let mut value = json!({
            "source_node_id": source,
            "target_node_id": target,
            "relation": relation,
            "resolution": "resolved",
            "properties": properties,
            "evidence": evidence(path, None, "link-semantic-import", "high"),
        });
        value["relation_id"] =
            Value::from(rea_hash::content_id(RELATION_PREFIX, &value).map_err(internal)?);
        Ok(value)
    };
    for (file, p) in &kept {
        // The exporting file and node each imported binding stands for.
        let mut bound: HashMap<u32, (usize, u32)> = HashMap::default();
        for import in &p.imports {
            let Some(target) = candidates(&file.path, &import.specifier)
                .iter()
                .find_map(|c| by_path.get(c.as_str()).copied())
            else {
                continue;
            };
            let (_, exporter) = &kept[target];
            let name = import.name.as_deref().unwrap_or("default");
            // A later export of a name replaces an earlier one.
            let Some((_, exported)) = exporter.exports.iter().rev().find(|(n, _)| n == name) else {
                continue;
            };
            bound.insert(import.binding, (target, *exported));
            links.push(link(
                &exporter.ids[*exported as usize],
                &p.ids[import.binding as usize],
                "aliases",
                json!({"specifier": import.specifier, "imported": name}),
                &file.path,
            )?);
        }
        for call in &p.calls {
            let Some(&(target, f)) = bound.get(&call.binding) else {
                continue;
            };
            let (_, exporter) = &kept[target];
            if exporter.nodes[f as usize]["kind"] != "function" {
                continue;
            }
            let site = &p.ids[call.site as usize];
            links.push(link(
                site,
                &exporter.ids[f as usize],
                "calls",
                json!({}),
                &file.path,
            )?);
            let params = exporter
                .params
                .get(&f)
                .map(Vec::as_slice)
                .unwrap_or_default();
            for (i, sources) in call.arguments.iter().enumerate() {
                for (_, param) in params.iter().filter(|(at, _)| *at == i as u64) {
                    for s in sources {
                        links.push(link(
                            &p.ids[*s as usize],
                            &exporter.ids[*param as usize],
                            "argument-to-parameter",
                            json!({"position": i}),
                            &file.path,
                        )?);
                    }
                }
            }
            for r in exporter.returns.get(&f).into_iter().flatten() {
                links.push(link(
                    &exporter.ids[*r as usize],
                    site,
                    "returns-to-call",
                    json!({}),
                    &file.path,
                )?);
            }
        }
    }
    // Electron IPC across files: a channel sent on in one file reaches the channel listened
    // to in another (channel names are global to the application).
    let mut channels: BTreeMap<&str, ChannelEnds> = BTreeMap::new();
    for (k, (_, p)) in kept.iter().enumerate() {
        for (name, node, dispatched, listened) in &p.channels {
            let entry = channels.entry(name.as_str()).or_default();
            if *dispatched {
                entry.0.push((k, *node));
            }
            if *listened {
                entry.1.push((k, *node));
            }
        }
    }
    for (name, (senders, listeners)) in &channels {
        for (sk, s) in senders.iter().take(MAX_CHANNEL_ENDS) {
            for (lk, l) in listeners.iter().take(MAX_CHANNEL_ENDS) {
                if sk == lk {
                    continue;
                }
                links.push(link(
                    &kept[*sk].1.ids[*s as usize],
                    &kept[*lk].1.ids[*l as usize],
                    "dispatches-candidate",
                    json!({"channel": name}),
                    &kept[*sk].0.path,
                )?);
            }
        }
    }
    let mut roots = Vec::new();
    let mut nodes = Vec::with_capacity(n);
    let mut relations = Vec::with_capacity(r + links.len());
    let mut unknowns = Vec::with_capacity(u);
    for (_, p) in kept {
        if let Some(module) = p.ids.first() {
            roots.push(module.clone());
        }
        nodes.extend(p.nodes);
        relations.extend(p.relations);
        unknowns.extend(p.unknowns);
    }
    let linked = links.len();
    if r + linked > MAX_RELATIONS {
        omitted_relations += (r + linked - MAX_RELATIONS) as u64;
        links.truncate(MAX_RELATIONS - r);
    }
    relations.extend(links);
    roots.sort();
    let id_of = |v: &Value, key: &str| v[key].as_str().unwrap_or_default().to_owned();
    nodes.par_sort_unstable_by(|a, b| a["node_id"].as_str().cmp(&b["node_id"].as_str()));
    relations
        .par_sort_unstable_by(|a, b| a["relation_id"].as_str().cmp(&b["relation_id"].as_str()));
    relations.dedup_by(|a, b| a["relation_id"] == b["relation_id"]);
    unknowns
        .par_sort_unstable_by(|a, b| a.0["unknown_id"].as_str().cmp(&b.0["unknown_id"].as_str()));
    unknowns.dedup_by(|a, b| a.0["unknown_id"] == b.0["unknown_id"]);
    // Coverage per family.
    let mut retained: BTreeMap<&str, usize> = BTreeMap::new();
    for relation in &relations {
        if let Some(family) = relation["relation"].as_str().and_then(family_of) {
            *retained.entry(family).or_default() += 1;
        }
    }
    let mut unknown_ids: BTreeMap<&str, Vec<String>> = BTreeMap::new();
    for (value, family) in &unknowns {
        unknown_ids
            .entry(family)
            .or_default()
            .push(id_of(value, "unknown_id"));
    }
    let bounded = omitted_nodes > 0 || omitted_relations > 0 || omitted_unknowns > 0;
    let families: Vec<Value> = FAMILIES
        .iter()
        .map(|(family, _)| {
            let ids = unknown_ids.remove(family).unwrap_or_default();
            json!({
                "family": family,
                // Never `complete`: what the rules do not read is not proven absent.
                "status": "partial",
                "retained_relations": retained.get(family).copied().unwrap_or(0),
                "omitted_relations": Value::Null,
                "unknown_ids": ids,
            })
        })
        .collect();
    let mut limits = Vec::new();
    if omitted_files > 0 {
        limits.push(json!({"name": "max-semantic-nodes", "unit": "items", "value": MAX_NODES}));
    }
    if truncated_files > 0 {
        limits.push(json!({"name": "max-file-semantic-nodes", "unit": "items", "value": rea_parse::MAX_FILE_SEMANTIC_NODES}));
    }
    if not_read > 0 {
        limits.push(json!({"name": "max-semantic-source-bytes", "unit": "bytes", "value": SEMANTIC_SOURCE_BYTES}));
        limits.push(json!({"name": "max-semantic-dependency-bytes", "unit": "bytes", "value": SEMANTIC_DEPENDENCY_BYTES}));
    }
    let status = if roots.is_empty() {
        "unavailable"
    } else {
        "partial"
    };
    let header = [
        ("schema", json!(SCHEMA)),
        ("schema_version", json!(1)),
        ("algorithm", json!(SEMANTIC_ALGORITHM)),
        ("root_artifact_sha256", json!(root_artifact_sha256)),
        ("root_node_ids", json!(roots)),
        ("fingerprints", json!([])),
        (
            "identifier_strategies",
            json!({
                "node": {"strategy": "semantic-content-sha256", "stability": "artifact-version"},
                "relation": {"strategy": "semantic-content-sha256", "stability": "relationship-exact"},
            }),
        ),
        (
            "coverage",
            json!({
                "status": status,
                "truncated": bounded || not_read > 0,
                "omitted_nodes": omitted_nodes,
                "omitted_relations": omitted_relations,
                "omitted_unknowns": omitted_unknowns,
                "files": {
                    "read": files.len() - omitted_files,
                    "omitted": omitted_files,
                    "not_read": not_read,
                    "truncated": truncated_files,
                },
                "limits": limits,
                "families": families,
            }),
        ),
        ("limitations", json!(STANDING_LIMITATIONS)),
    ];
    let texts = |items: Vec<Value>| -> Result<Vec<CanonicalJson>, Failure> {
        items
            .into_par_iter()
            .map(|v| CanonicalJson::of_value(&v))
            .collect::<Result<_, _>>()
            .map_err(internal)
    };
    let counts = (nodes.len(), relations.len(), unknowns.len());
    let mut members = Vec::with_capacity(header.len() + 3);
    for (key, value) in header {
        members.push((
            key.to_owned(),
            Composed::Text(CanonicalJson::of_value(&value).map_err(internal)?),
        ));
    }
    members.push(("nodes".to_owned(), Composed::Items(texts(nodes)?)));
    members.push(("relations".to_owned(), Composed::Items(texts(relations)?)));
    members.push((
        "unknowns".to_owned(),
        Composed::Items(texts(unknowns.into_iter().map(|(v, _)| v).collect())?),
    ));
    Ok(Section { members, counts })
}

/// A projected section, its members as canonical text, waiting for the application graph's
/// id ([`seal`]).
pub struct Section {
    members: Vec<(String, Composed)>,
    /// Nodes, relations and unknowns.
    pub counts: (usize, usize, usize),
}

/// The section's text, with the application graph's id and its own `graph_id`.
pub fn seal(section: Section, application_graph_id: &str) -> Result<Composed, Failure> {
    let mut members = section.members;
    members.push((
        "application_graph_id".to_owned(),
        Composed::Text(CanonicalJson::string(application_graph_id)),
    ));
    let composed = Composed::object(members).map_err(internal)?;
    let id = format!("{GRAPH_PREFIX}{}", composed.digest());
    let Composed::Object(mut members) = composed else {
        return Err(Failure::new(
            FailureReason::Internal,
            "the semantic graph was not composed as an object",
        ));
    };
    members.push((
        "graph_id".to_owned(),
        Composed::Text(CanonicalJson::string(&id)),
    ));
    Composed::object(members).map_err(internal)
}

/// `jsrg_` + H(the section without `graph_id`).
pub fn graph_id(section: &Value) -> Result<String, CanonicalError> {
    rea_hash::content_id_without(GRAPH_PREFIX, section, "graph_id")
}

/// `jsrg_node_` + H(`{identity, kind}`).
pub fn node_id(node: &Value) -> Result<String, CanonicalError> {
    rea_hash::content_id(
        NODE_PREFIX,
        &json!({"identity": node["identity"], "kind": node["kind"]}),
    )
}

pub fn relation_id(relation: &Value) -> Result<String, CanonicalError> {
    rea_hash::content_id_without(RELATION_PREFIX, relation, "relation_id")
}

pub fn unknown_id(unknown: &Value) -> Result<String, CanonicalError> {
    rea_hash::content_id_without(UNKNOWN_PREFIX, unknown, "unknown_id")
}

fn internal(err: CanonicalError) -> Failure {
    Failure::new(
        FailureReason::Internal,
        format!("the semantic graph could not be serialized: {err}"),
    )
}

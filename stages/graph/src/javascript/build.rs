//! Projection of parse facts onto the JavaScript Application Graph.

use std::collections::{BTreeMap, BTreeSet};

use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};

use rayon::prelude::*;
use rea_core::{Failure, FailureReason};
use rea_exec::StageCx;
use rea_hash::{CanonicalJson, Composed, Piece};
use rea_parse::{
    ChannelImport, ChannelKey, CommandLineSwitch, FileFacts, FileKind, ImportFrom, IpcOp, JsFacts,
    Module, ModuleKey, ModuleRef, ParseOutput, ParseStatus, Range, RendererLoad, ServeOptions,
    StaticValue, TextStatus, UpdateConfig, UpdateValue, WindowCall,
};
use serde::Serialize;
use serde_json::{Value, json};

use super::ids;
use super::resolve::{Context, Files, ModuleSystem, PackageScope, Resolution};
use crate::artifact::InventoryGraph;

/// Most observations kept on one node.
pub const MAX_OBSERVATIONS: usize = 64;
const EXTRACTOR: &str = "rea-javascript-reconstruction";

/// What the builder needs besides the facts.
#[derive(Debug, Clone)]
pub struct Request<'a> {
    pub inventory: &'a InventoryGraph,
    pub parsed: &'a ParseOutput,
    pub limits: &'a rea_parse::TextLimits,
    pub source_map_contents: bool,
}

/// The built graph with its summary, statistics and limitations.
#[derive(Debug, Clone)]
pub struct Built {
    /// The graph's canonical text, kept as its items (large: each item was serialized once,
    /// when it was made), copied once, into the sealed record.
    pub graph: Composed,
    pub graph_id: String,
    pub node_count: usize,
    pub edge_count: usize,
    pub summary: Value,
    pub statistics: Value,
    pub limitations: Vec<String>,
}

/// A node as projected so far: its identity's canonical text and its observations, each
/// serialized once, when it was made, with its id.
struct NodeAcc {
    kind: &'static str,
    identity: CanonicalJson,
    observations: Vec<(String, CanonicalJson)>,
}

/// The facts every projection reads: what the inventory and the file nodes say.
struct Env<'a> {
    cx: &'a StageCx<'a>,
    root_sha: String,
    files: Files,
    /// Node of each file path (content node).
    file_nodes: HashMap<String, String>,
    /// Node of each container path ("" is the root).
    container_nodes: HashMap<String, String>,
    /// Digest of each file path.
    digests: HashMap<String, String>,
    /// URL schemes the application serves through Electron's `protocol` module.
    served_schemes: BTreeMap<String, Served>,
}

impl Env<'_> {
    /// Where a window's or view's load leads: a URL of a scheme the application serves
    /// itself resolves to a file of the application (`Files::resolve_served`), any other
    /// target as its context says.
    fn resolve_load(&self, file: &FileFacts, load: &RendererLoad) -> Resolution {
        if load.api == "loadURL"
            && let Some((scheme, _)) = load.target.split_once("://")
            && let Some(serves) = self.served_schemes.get(&scheme.to_ascii_lowercase())
        {
            // electron-serve's lookup is known, so it is followed; for each directory the
            // application serves under this scheme, the first that holds the file.
            let mut known = serves
                .serve
                .iter()
                .filter_map(|o| Some((o.directory.as_deref()?, o.file.as_deref()?)));
            if let Some(first) = known.next() {
                let mut resolved =
                    self.files
                        .resolve_electron_serve(&file.path, first, &load.target);
                for next in known {
                    if resolved.status == "resolved" {
                        break;
                    }
                    resolved = self
                        .files
                        .resolve_electron_serve(&file.path, next, &load.target);
                }
                return resolved;
            }
            return self
                .files
                .resolve_served(&file.path, &load.target, &serves.roots);
        }
        self.files
            .resolve(&file.path, load_path(load), Context::parse(load.context))
    }
}

/// The file a load names: a URL's query and fragment name no file,
/// `file://${__dirname}/index.html#/settings` as a page routed by its hash is loaded (a path
/// given to `loadFile` is a path).
fn load_path(load: &RendererLoad) -> &str {
    match load.api {
        "loadURL" => load.target.split(['?', '#']).next().unwrap_or(""),
        _ => load.target.as_str(),
    }
}

/// The nodes (with their observations) and edges a projection adds. Projections of
/// separate files run in parallel, each into its own sink; the sinks are then absorbed
/// one into another. Order does not matter: observations and edges are sorted by id.
#[derive(Default)]
struct Sink {
    nodes: HashMap<String, NodeAcc>,
    /// Edges with their ids.
    edges: Vec<(String, CanonicalJson)>,
    /// Which file loads which, for what the application's main entrypoint reaches: resolved
    /// references and resolved roles, as (from path, to path).
    loads: Vec<(String, String)>,
    /// The files resolved as the application's `electron-main` entrypoint.
    mains: Vec<String>,
}

/// A projection at work: the facts it reads and the sink it writes.
struct Out<'e, 'a> {
    env: &'e Env<'a>,
    sink: &'e mut Sink,
}

/// The application-wide bounds on findings and module factories, spent in path order so that
/// the same facts are kept on every run.
#[derive(Default)]
struct Budget {
    max_findings: u64,
    max_modules: u64,
    findings: u64,
    modules: u64,
    dropped_findings: u64,
    dropped_modules: u64,
}

impl Budget {
    /// Spends up to `wanted` findings; returns how many were granted.
    fn grant_findings(&mut self, wanted: u64) -> u64 {
        let granted = wanted.min(self.max_findings.saturating_sub(self.findings));
        self.findings += granted;
        self.dropped_findings += wanted - granted;
        granted
    }
}

/// Everything projected, ready to be serialized.
struct Projected {
    sink: Sink,
    limitations: BTreeSet<String>,
    budget: Budget,
    nested_containers: u64,
    root: String,
    app_package: Option<String>,
    counts: Counts,
    renderer_pages: RendererPages,
}

fn failure(err: rea_hash::CanonicalError) -> Failure {
    Failure::new(FailureReason::Internal, "graph value has no canonical form").with_source(err)
}

fn key_json(key: &ModuleKey) -> Value {
    match key {
        ModuleKey::Number(n) => json!(n),
        ModuleKey::String(s) => json!(s),
    }
}

fn value_json(value: &StaticValue) -> Value {
    match value {
        StaticValue::Literal(v) => json!({"kind": "literal", "value": v}),
        StaticValue::Dynamic(e) => json!({"kind": "dynamic", "expression": e}),
    }
}

/// Where a fact was read. Fields are declared in canonical (sorted) order, so these
/// serialize straight to canonical JSON without an intermediate value.
#[derive(Debug, Clone, Copy, Serialize)]
#[serde(untagged)]
enum Location<'a> {
    Artifact {
        kind: &'static str,
        path: &'a str,
    },
    Source {
        end: At,
        kind: &'static str,
        source: &'a str,
        start: At,
    },
}

#[derive(Debug, Clone, Copy, Serialize)]
struct At {
    column: u32,
    line: u32,
}

impl From<rea_parse::Pos> for At {
    fn from(pos: rea_parse::Pos) -> At {
        At {
            column: pos.column,
            line: pos.line,
        }
    }
}

fn artifact_path(path: &str) -> Location<'_> {
    Location::Artifact {
        kind: "artifact-path",
        path,
    }
}

fn source_range<'a>(path: &'a str, range: &Range) -> Location<'a> {
    Location::Source {
        end: range.end.into(),
        kind: "source-range",
        source: path,
        start: range.start.into(),
    }
}

/// The evidence of one observation or edge (fields in canonical order).
#[derive(Debug, Clone, Copy, Serialize)]
struct Evidence<'a> {
    artifact_sha256: Option<&'a str>,
    authority: &'a str,
    confidence: &'a str,
    extractor: &'static str,
    #[serde(serialize_with = "list_of_at_most_one")]
    limitations: Option<&'a str>,
    location: Location<'a>,
    operation: &'a str,
    state: &'static str,
}

fn list_of_at_most_one<S: serde::Serializer>(
    item: &Option<&str>,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    serializer.collect_seq(item.iter())
}

/// Evidence of a fact read directly from bytes or syntax.
fn observed<'a>(
    authority: &'a str,
    sha: Option<&'a str>,
    location: Location<'a>,
    operation: &'a str,
) -> Evidence<'a> {
    Evidence {
        artifact_sha256: sha,
        authority,
        confidence: "exact",
        extractor: EXTRACTOR,
        limitations: None,
        location,
        operation,
        state: "observed",
    }
}

/// Evidence of a relationship inferred from syntax.
fn inferred<'a>(
    confidence: &'a str,
    sha: Option<&'a str>,
    location: Location<'a>,
    operation: &'a str,
) -> Evidence<'a> {
    Evidence {
        artifact_sha256: sha,
        authority: "static-relationship-inference",
        confidence,
        extractor: EXTRACTOR,
        limitations: Some(
            "Static syntax does not prove that this relationship executes at runtime.",
        ),
        location,
        operation,
        state: "inferred",
    }
}

/// Evidence that a scope could not be analysed.
fn unavailable<'a>(
    authority: &'a str,
    sha: Option<&'a str>,
    path: &'a str,
    operation: &'a str,
    limitation: &'a str,
) -> Evidence<'a> {
    Evidence {
        artifact_sha256: sha,
        authority,
        confidence: "unknown",
        extractor: EXTRACTOR,
        limitations: Some(limitation),
        location: artifact_path(path),
        operation,
        state: "unavailable",
    }
}

fn local_key(sha: &str, namespace: &str, key: &str) -> Value {
    json!({"strategy": "artifact-local-key", "stability": "artifact-version",
           "artifact_sha256": sha, "namespace": namespace, "key": key})
}

fn content_digest(sha: &str) -> Value {
    json!({"strategy": "content-digest", "stability": "global-exact", "sha256": sha})
}

fn fingerprint_identity(scope: &str, text: &str) -> Value {
    json!({"strategy": "observation-fingerprint", "stability": "observation-only",
           "scope": scope, "observation_sha256": rea_hash::sha256_hex(text.as_bytes())})
}

/// An observation of node `id`: its id and canonical text.
fn observation(
    id: &str,
    label: Option<&str>,
    properties: impl Serialize,
    evidence: Evidence<'_>,
) -> Result<(String, CanonicalJson), Failure> {
    let label = match label {
        Some(label) => CanonicalJson::string(rea_parse::cut(label, 1024)),
        None => CanonicalJson::of(&()).map_err(failure)?,
    };
    let properties = CanonicalJson::of(&properties).map_err(failure)?;
    let evidence = CanonicalJson::of(&evidence).map_err(failure)?;
    ids::observation(
        id,
        Piece::Json(&label),
        Piece::Json(&properties),
        Piece::Json(&evidence),
    )
    .map_err(failure)
}

impl Sink {
    fn node(
        &mut self,
        kind: &'static str,
        identity: Value,
        label: Option<&str>,
        properties: impl Serialize,
        evidence: Evidence<'_>,
    ) -> Result<String, Failure> {
        let identity = CanonicalJson::of(&identity).map_err(failure)?;
        let id = ids::node_id_of(kind, Piece::Json(&identity)).map_err(failure)?;
        let observation = observation(&id, label, properties, evidence)?;
        self.nodes
            .entry(id.clone())
            .or_insert_with(|| NodeAcc {
                kind,
                identity,
                observations: Vec::new(),
            })
            .observations
            .push(observation);
        Ok(id)
    }

    /// Adds an observation to a node this sink holds.
    fn observe(
        &mut self,
        id: &str,
        label: Option<&str>,
        properties: impl Serialize,
        evidence: Evidence<'_>,
    ) -> Result<(), Failure> {
        let observation = observation(id, label, properties, evidence)?;
        let acc = self.nodes.get_mut(id).ok_or_else(|| {
            Failure::new(
                FailureReason::Internal,
                format!("an observation names node {id}, which this projection does not hold"),
            )
        })?;
        acc.observations.push(observation);
        Ok(())
    }

    fn edge(
        &mut self,
        source: &str,
        target: &str,
        relation: &'static str,
        properties: impl Serialize,
        evidence: Evidence<'_>,
    ) -> Result<(), Failure> {
        if source != target {
            let properties = CanonicalJson::of(&properties).map_err(failure)?;
            let evidence = CanonicalJson::of(&evidence).map_err(failure)?;
            let edge = ids::edge(
                source,
                target,
                relation,
                Piece::Json(&properties),
                Piece::Json(&evidence),
            )
            .map_err(failure)?;
            self.edges.push(edge);
        }
        Ok(())
    }

    /// Adds another sink's nodes (merging observations of the same node) and edges.
    fn absorb(&mut self, other: Sink) {
        for (id, acc) in other.nodes {
            match self.nodes.entry(id) {
                std::collections::hash_map::Entry::Occupied(mut entry) => {
                    entry.get_mut().observations.extend(acc.observations)
                }
                std::collections::hash_map::Entry::Vacant(entry) => {
                    entry.insert(acc);
                }
            }
        }
        self.edges.extend(other.edges);
        self.loads.extend(other.loads);
        self.mains.extend(other.mains);
    }
}

/// The files the application's main entrypoints (`mains`) reach through `loads`: their own
/// imports and requires, the preloads and pages of the windows they open, and theirs in turn.
/// Empty when no main entrypoint resolved.
fn reached_from<'l>(mains: &'l [String], loads: &'l [(String, String)]) -> HashSet<&'l str> {
    let mut next: HashMap<&str, Vec<&str>> = HashMap::default();
    for (from, to) in loads {
        next.entry(from.as_str()).or_default().push(to.as_str());
    }
    let mut reached: HashSet<&str> = HashSet::default();
    let mut stack: Vec<&str> = mains.iter().map(String::as_str).collect();
    while let Some(path) = stack.pop() {
        if reached.insert(path) {
            stack.extend(next.get(path).into_iter().flatten());
        }
    }
    reached
}

/// Projects each item into its own sink on the rayon pool, then absorbs the sinks in item
/// order; returns each item's result, in order.
fn project_each<T: Sync, R: Send>(
    env: &Env<'_>,
    sink: &mut Sink,
    items: &[T],
    project: impl Fn(&mut Out<'_, '_>, &T) -> Result<R, Failure> + Sync,
) -> Result<Vec<R>, Failure> {
    let parts: Vec<(Sink, R)> = items
        .par_iter()
        .map(|item| {
            env.cx.check()?;
            let mut local = Sink::default();
            let result = project(
                &mut Out {
                    env,
                    sink: &mut local,
                },
                item,
            )?;
            Ok((local, result))
        })
        .collect::<Result<_, Failure>>()?;
    let mut results = Vec::with_capacity(parts.len());
    for (local, result) in parts {
        sink.absorb(local);
        results.push(result);
    }
    Ok(results)
}

impl Env<'_> {
    fn sha_of(&self, path: &str) -> Option<&str> {
        self.digests.get(path).map(String::as_str)
    }

    /// The graph source of a finding: its module factory node, or its file's node.
    fn source_node(
        &self,
        file: &FileFacts,
        module: Option<&ModuleRef>,
        modules: &ModuleIndex<'_>,
    ) -> Option<String> {
        if let Some(module) = module
            && let Some(id) = modules.get(&(file.path.as_str(), module.bundle, &module.key))
        {
            return Some(id.clone());
        }
        self.file_nodes.get(&file.path).cloned()
    }
}

impl Out<'_, '_> {
    fn node(
        &mut self,
        kind: &'static str,
        identity: Value,
        label: Option<&str>,
        properties: impl Serialize,
        evidence: Evidence<'_>,
    ) -> Result<String, Failure> {
        self.sink.node(kind, identity, label, properties, evidence)
    }

    fn edge(
        &mut self,
        source: &str,
        target: &str,
        relation: &'static str,
        properties: impl Serialize,
        evidence: Evidence<'_>,
    ) -> Result<(), Failure> {
        self.sink
            .edge(source, target, relation, properties, evidence)
    }

    /// `path`'s container `contains` `child`, read from the artifact's bytes.
    fn contained(
        &mut self,
        child: &str,
        path: &str,
        sha: Option<&str>,
        properties: Value,
        operation: &str,
    ) -> Result<(), Failure> {
        let parent = self.env.container_nodes[self.env.files.container_of(path)].clone();
        let evidence = observed("artifact-bytes", sha, artifact_path(path), operation);
        self.edge(&parent, child, "contains", properties, evidence)
    }

    /// An Electron role node (main, preload, renderer, utility) for a path, with `loads` from
    /// `from` and `maps_to` the file when resolved.
    fn role(
        &mut self,
        kind: &'static str,
        from: &str,
        anchor: &FileFacts,
        declared: &str,
        context: Context,
        mechanism: &str,
        range: Option<&Range>,
    ) -> Result<Resolution, Failure> {
        let resolution = self.env.files.resolve(&anchor.path, declared, context);
        self.role_resolved(
            kind, from, anchor, declared, context, resolution, mechanism, range,
        )
        .map(|(resolution, _)| resolution)
    }

    /// [`Builder::role`] for a path the caller has already resolved; also gives the role's
    /// node.
    fn role_resolved(
        &mut self,
        kind: &'static str,
        from: &str,
        anchor: &FileFacts,
        declared: &str,
        context: Context,
        resolution: Resolution,
        mechanism: &str,
        range: Option<&Range>,
    ) -> Result<(Resolution, String), Failure> {
        let anchor_sha = anchor
            .sha256
            .clone()
            .unwrap_or_else(|| self.env.root_sha.clone());
        let key = format!(
            "{kind}:{}:{}",
            context.as_str(),
            resolution.path.as_deref().unwrap_or(declared)
        );
        let location = range.map_or_else(
            || artifact_path(&anchor.path),
            |r| source_range(&anchor.path, r),
        );
        let properties = json!({
            "declared_path": declared, "resolution_context": context.as_str(),
            "resolved_path": resolution.path, "resolution_status": resolution.status,
            "limitations": resolution.limitation.iter().collect::<Vec<_>>(), "mechanism": mechanism,
            "anchor_path": anchor.path,
        });
        let role = self.node(
            kind,
            local_key(&anchor_sha, "electron-role", &key),
            Some(declared),
            properties,
            inferred(
                "high",
                Some(&anchor_sha),
                location,
                "discover-electron-entrypoint",
            ),
        )?;
        self.edge(
            from,
            &role,
            "loads",
            json!({"mechanism": mechanism}),
            inferred(
                "high",
                Some(&anchor_sha),
                location,
                "discover-electron-entrypoint",
            ),
        )?;
        if resolution.status == "resolved"
            && let Some(path) = &resolution.path
        {
            if kind == "electron-main" {
                self.sink.mains.push(path.clone());
            } else {
                self.sink.loads.push((anchor.path.clone(), path.clone()));
            }
        }
        if resolution.status == "resolved"
            && let Some(target) = resolution
                .path
                .as_deref()
                .and_then(|p| self.env.file_nodes.get(p))
                .cloned()
        {
            self.edge(
                &role,
                &target,
                "maps_to",
                json!({"path": resolution.path}),
                inferred(
                    "high",
                    Some(&anchor_sha),
                    location,
                    "resolve-electron-entrypoint",
                ),
            )?;
        }
        Ok((resolution, role))
    }
}

/// The pages a window of `file` loads (its `loadFile`/`loadURL` calls, `loads`): resolved
/// paths, or the target as written where it does not resolve; sorted, at most 16.
fn window_pages(env: &Env<'_>, file: &FileFacts, loads: &[&RendererLoad]) -> Vec<String> {
    let mut pages: Vec<String> = loads
        .iter()
        .map(|l| {
            let resolution = env.resolve_load(file, l);
            match resolution.path {
                Some(path) if resolution.status == "resolved" => path,
                _ => l.target.clone(),
            }
        })
        .collect();
    pages.sort();
    pages.dedup();
    pages.truncate(16);
    pages
}

fn file_node_kind(kind: FileKind) -> &'static str {
    match kind {
        FileKind::JavaScript | FileKind::Bytecode => "javascript-asset",
        FileKind::SourceMap => "source-map",
        FileKind::NativeAddon => "native-addon",
        FileKind::PackageJson | FileKind::UpdateConfig | FileKind::Json | FileKind::Html => {
            "artifact"
        }
    }
}

/// Builds the graph. Deterministic: every list is sorted and every id derives from content.
/// The schemes the application serves, each with the (directory, file) of every
/// `electron-serve` call that serves it; an empty set where only handlers of its own do.
/// A URL scheme the application serves: what `electron-serve` calls for it said to serve
/// (none for a handler of its own), and the directories its own handlers build paths on, each
/// with the file that names it ([`rea_parse::ServedScheme::roots`]).
#[derive(Default)]
struct Served {
    serve: BTreeSet<ServeOptions>,
    roots: BTreeSet<(String, String)>,
}

fn served_schemes(request: &Request<'_>) -> BTreeMap<String, Served> {
    let mut schemes: BTreeMap<String, Served> = BTreeMap::new();
    for file in &request.parsed.files {
        for served in &file.js.served_schemes {
            let serves = schemes.entry(served.scheme.clone()).or_default();
            if let Some(options) = &served.serve {
                serves.serve.insert(options.clone());
            }
            let from = served.roots_from.as_ref().unwrap_or(&file.path);
            for root in &served.roots {
                serves.roots.insert((from.clone(), root.path.clone()));
            }
        }
    }
    schemes
}

/// A container found in the inventory: (path, format, sha256).
type ContainerFacts = (String, String, String);

/// The inventory's files as path resolution sees them, its containers, and each file's
/// digest by path.
fn inventory_files(
    inventory: &InventoryGraph,
    parsed: &[FileFacts],
) -> (Files, Vec<ContainerFacts>, HashMap<String, String>) {
    // Inventory facts: files, containers, digests.
    let node_by_id: HashMap<&str, &crate::artifact::ArtifactNode> = inventory
        .nodes
        .iter()
        .map(|n| (n.artifact_id.as_str(), n))
        .collect();
    let mut file_map = BTreeMap::new();
    let mut containers = Vec::new();
    let mut digests = HashMap::default();
    for occurrence in inventory.occurrences.iter().skip(1) {
        if occurrence.entry_kind != "file" {
            continue;
        }
        let node = occurrence
            .artifact_id
            .as_deref()
            .and_then(|id| node_by_id.get(id));
        file_map.insert(occurrence.logical_path.clone(), node.is_some());
        if let Some(node) = node {
            digests.insert(occurrence.logical_path.clone(), node.sha256.clone());
            if node.kind == "container" {
                containers.push((
                    occurrence.logical_path.clone(),
                    node.format.clone(),
                    node.sha256.clone(),
                ));
            }
        }
    }
    let mut packages = BTreeMap::new();
    for file in parsed {
        if let Some(package) = file.package.as_ref().filter(|p| p.valid) {
            let dir = file.path.rsplit_once('/').map_or("", |(d, _)| d);
            packages.insert(
                dir.to_owned(),
                PackageScope {
                    name: package.name.clone(),
                    main: package.main.clone(),
                    exports: package.exports_map.clone(),
                    imports: package.imports_map.clone(),
                },
            );
        }
    }
    let mut files = Files::new(
        file_map,
        containers.iter().map(|c| c.0.clone()).collect(),
        packages,
    );
    files.set_page_scripts(parsed.iter().flat_map(|page| {
        page.html
            .iter()
            .filter(|script| !script.webview_preload)
            .map(|script| (page.path.as_str(), script_spec(script)))
    }));
    (files, containers, digests)
}

/// Settles what each file's parse left to the other files, once every file is read: the
/// modules wrapped by helpers imported from other files ([`settle_imported_wrappers`]) and
/// the bridge APIs read off other modules' exports ([`settle_imported_bridges`]).
pub fn settle_imports(inventory: &InventoryGraph, parsed: &mut [FileFacts]) {
    let wrappers = parsed.iter().any(|f| !f.js.imported_wrappers.is_empty());
    let bridges = parsed.iter().any(|f| {
        f.js.bridges
            .iter()
            .any(|b| b.api_import.is_some() || !b.spread_imports.is_empty())
    });
    let helpers = parsed.iter().any(|f| !f.js.exported_ipc_helpers.is_empty());
    if !helpers {
        for file in parsed.iter_mut() {
            file.js.imported_helper_calls = Vec::new();
        }
    }
    let loads = parsed
        .iter()
        .any(|f| !f.js.imported_loads.is_empty() || !f.js.imported_schemes.is_empty());
    let globals = parsed.iter().any(|f| !f.js.page_globals.is_empty());
    if !globals {
        for file in parsed.iter_mut() {
            file.js.global_calls = Vec::new();
        }
    }
    if !wrappers && !bridges && !helpers && !loads && !globals {
        return;
    }
    let (files, _, _) = inventory_files(inventory, parsed);
    if globals {
        settle_page_globals(&files, parsed);
    }
    if loads {
        settle_imported_loads(&files, parsed);
    }
    if wrappers {
        settle_imported_wrappers(&files, parsed);
    }
    if bridges {
        settle_imported_bridges(&files, parsed);
    }
    if helpers {
        settle_imported_helper_calls(&files, parsed);
    }
}

/// Settles the calls of `ipcRenderer` through names a page's scripts share
/// ([`rea_parse::GlobalCall`]): a page's inline code and the classic scripts it loads with
/// `<script src>` run in one global scope, so where one of them binds the name to
/// `ipcRenderer` ([`rea_parse::PageGlobal`]), the call in another is the IPC operation it
/// names, with `via` naming the callee as written. So is a name a window's preload sets on
/// the window, for the pages that window loads ([`window_preload_globals`]). A script several
/// pages load is settled once. The other calls are dropped.
fn settle_page_globals(files: &Files, parsed: &mut [FileFacts]) {
    let index: HashMap<&str, usize> = parsed
        .iter()
        .enumerate()
        .map(|(i, f)| (f.path.as_str(), i))
        .collect();
    let preloads = window_preload_globals(files, parsed, &index);
    let mut settled: BTreeSet<(usize, usize)> = BTreeSet::new();
    for (page_at, page) in parsed.iter().enumerate() {
        if page.html.is_empty() && page.js.page_globals.is_empty() {
            continue;
        }
        let mut scripts = vec![page_at];
        scripts.extend(
            files
                .scripts_of_page(&page.path)
                .iter()
                .filter_map(|script| index.get(script.as_str()).copied())
                .filter(|&at| at != page_at),
        );
        let globals: HashSet<&str> = scripts
            .iter()
            .flat_map(|&at| parsed[at].js.page_globals.iter().map(|g| g.name.as_str()))
            .chain(preloads.get(&page_at).into_iter().flatten().copied())
            .collect();
        if globals.is_empty() {
            continue;
        }
        for &at in &scripts {
            for (k, call) in parsed[at].js.global_calls.iter().enumerate() {
                if globals.contains(call.name.as_str()) {
                    settled.insert((at, k));
                }
            }
        }
    }
    let mut ops: HashMap<usize, Vec<IpcOp>> = HashMap::default();
    for (at, k) in settled {
        ops.entry(at)
            .or_default()
            .push(parsed[at].js.global_calls[k].operation());
    }
    for file in parsed.iter_mut() {
        file.js.global_calls = Vec::new();
    }
    for (at, found) in ops {
        parsed[at].js.ipc.extend(found);
    }
}

/// The names preloads set on the window for `ipcRenderer` (`window.ipc = ipcRenderer`, seen
/// by the page where the preload does not isolate its context), by the index of each page
/// the windows load. A window whose `loadFile`/`loadURL` calls were matched to it gives its
/// preload's names to its own pages ([`rea_parse::RendererLoad::window`]); the file's other
/// windows, and its preloads set outside a window's options, to the pages the file loads on
/// no matched window.
fn window_preload_globals<'p>(
    files: &Files,
    parsed: &'p [FileFacts],
    index: &HashMap<&str, usize>,
) -> HashMap<usize, Vec<&'p str>> {
    let setters: HashSet<&str> = parsed
        .iter()
        .filter(|f| {
            f.js.page_globals
                .iter()
                .any(|g| g.written == "window-property")
        })
        .map(|f| f.path.as_str())
        .collect();
    let mut by_page: HashMap<usize, Vec<&'p str>> = HashMap::default();
    if setters.is_empty() {
        return by_page;
    }
    let resolved = |from: &str, path: &str, context: &str| {
        let r = files.resolve(from, path, Context::parse(context));
        r.path
            .filter(|_| r.status == "resolved")
            .and_then(|p| index.get(p.as_str()).copied())
    };
    // What the preloads at `preloads` (indices) set.
    let names_of = |preloads: &mut dyn Iterator<Item = usize>| -> Vec<&'p str> {
        preloads
            .filter(|&at| setters.contains(parsed[at].path.as_str()))
            .flat_map(|at| {
                parsed[at]
                    .js
                    .page_globals
                    .iter()
                    .filter(|g| g.written == "window-property")
                    .map(|g| g.name.as_str())
            })
            .collect()
    };
    for file in parsed {
        let js = &file.js;
        // The file's page loads by the window they were matched to.
        let mut by_window: HashMap<Option<u32>, Vec<&RendererLoad>> = HashMap::default();
        for load in &js.renderer_loads {
            if matches!(load.api, "loadFile" | "loadURL") {
                by_window.entry(load.window).or_default().push(load);
            }
        }
        let pages = |window: Option<u32>| {
            by_window
                .get(&window)
                .into_iter()
                .flatten()
                .filter_map(|l| resolved(&file.path, load_path(l), l.context))
        };
        let mut unmatched: Vec<&'p str> = names_of(
            &mut js
                .renderer_loads
                .iter()
                .filter(|l| !matches!(l.api, "loadFile" | "loadURL" | "electron-launch"))
                .filter_map(|l| resolved(&file.path, &l.target, l.context)),
        );
        let loading: HashSet<u32> = js.renderer_loads.iter().filter_map(|l| l.window).collect();
        for (at, window) in js.windows.iter().enumerate() {
            let names = names_of(
                &mut window
                    .preload
                    .iter()
                    .chain(&window.preload_alternatives)
                    .filter_map(|p| resolved(&file.path, &p.path, p.context)),
            );
            if names.is_empty() {
                continue;
            }
            if !loading.contains(&(at as u32)) {
                unmatched.extend(names);
                continue;
            }
            for page in pages(Some(at as u32)) {
                by_page
                    .entry(page)
                    .or_default()
                    .extend(names.iter().copied());
            }
        }
        if unmatched.is_empty() {
            continue;
        }
        for page in pages(None) {
            by_page
                .entry(page)
                .or_default()
                .extend(unmatched.iter().copied());
        }
    }
    // Many windows may give one page the same name.
    for names in by_page.values_mut() {
        names.sort_unstable();
        names.dedup();
    }
    by_page
}

/// Settles the loads and served schemes built on strings other files export
/// ([`rea_parse::ImportedLoad`], [`rea_parse::ImportedScheme`]): each import's specifier is
/// resolved as a module specifier from the file, and the string is what the resolved file
/// exports at the path. A load whose parts all resolve joins the file's renderer loads (or,
/// a URL of the web, its endpoints); a scheme its served schemes. The rest are dropped.
fn settle_imported_loads(files: &Files, parsed: &mut [FileFacts]) {
    type Settled = (
        usize,
        Vec<rea_parse::SettledLoad>,
        Vec<rea_parse::ServedScheme>,
    );
    let settled: Vec<Settled> = {
        let by_path = files_by_path(parsed);
        parsed
            .iter()
            .enumerate()
            .filter(|(_, f)| !f.js.imported_loads.is_empty() || !f.js.imported_schemes.is_empty())
            .map(|(i, file)| {
                let string = |import: &ChannelImport| {
                    imported_string(files, &by_path, &file.path, import).map(str::to_owned)
                };
                let loads = file
                    .js
                    .imported_loads
                    .iter()
                    .filter_map(|l| l.settle(string));
                let schemes = file
                    .js
                    .imported_schemes
                    .iter()
                    .filter_map(|s| s.settle(string));
                (i, loads.collect(), schemes.collect())
            })
            .collect()
    };
    for (i, loads, schemes) in settled {
        let js = &mut parsed[i].js;
        js.imported_loads = Vec::new();
        js.imported_schemes = Vec::new();
        for load in loads {
            match load {
                rea_parse::SettledLoad::Load(load) => js.renderer_loads.push(load),
                rea_parse::SettledLoad::Endpoint(endpoint) => js.observations.push(endpoint),
            }
        }
        add_served_schemes(js, schemes);
    }
}

/// The parsed files by their paths.
fn files_by_path(parsed: &[FileFacts]) -> HashMap<&str, &FileFacts> {
    parsed.iter().map(|f| (f.path.as_str(), f)).collect()
}

/// Adds to a file's served schemes those settled once every file was read, each once.
fn add_served_schemes(js: &mut rea_parse::JsFacts, schemes: Vec<rea_parse::ServedScheme>) {
    for scheme in schemes {
        if !js.served_schemes.contains(&scheme) {
            js.served_schemes.push(scheme);
        }
    }
}

/// Settles the calls of functions other files export ([`rea_parse::ImportedHelperCall`]):
/// where the specifier resolves to a file that exports (itself, or through its re-exports,
/// [`through_reexports`]), under the name called, a function
/// that forwards a parameter as an IPC channel ([`rea_parse::ExportedIpcHelper`]), the call
/// is each operation that function makes, on the channel the call passes, with `via` naming
/// the callee as written; where the function passes it to a protocol method as the scheme
/// it serves, the call serves the scheme it passes, under the directories the function's
/// handler names from its own file. The other calls are dropped.
fn settle_imported_helper_calls(files: &Files, parsed: &mut [FileFacts]) {
    type Settled = (usize, Vec<IpcOp>, Vec<rea_parse::ServedScheme>);
    let settled: Vec<Settled> = {
        let by_path = files_by_path(parsed);
        parsed
            .iter()
            .enumerate()
            .filter(|(_, f)| !f.js.imported_helper_calls.is_empty())
            .map(|(i, file)| {
                let (mut ops, mut schemes) = (Vec::new(), Vec::new());
                for call in &file.js.imported_helper_calls {
                    let ImportFrom::Specifier(specifier) = &call.import.from else {
                        continue;
                    };
                    let Some(target) = imported_file(files, &by_path, &file.path, specifier) else {
                        continue;
                    };
                    let export = call.import.path.first().map_or("", String::as_str);
                    let helper = &mut |f, export: &str| exported_helper(f, export, call);
                    let Some((path, helper)) =
                        through_reexports(files, &by_path, target, export, helper)
                    else {
                        continue;
                    };
                    ops.extend(call.operations(helper));
                    let roots_from = (path != file.path).then_some(path);
                    schemes.extend(call.served(helper, roots_from));
                }
                (i, ops, schemes)
            })
            .collect()
    };
    for file in parsed.iter_mut() {
        file.js.imported_helper_calls = Vec::new();
    }
    for (i, ops, schemes) in settled {
        let js = &mut parsed[i].js;
        js.ipc.extend(ops);
        add_served_schemes(js, schemes);
    }
}

/// The files a package's `exports` map names (`"./main": {"default": "./dist/main.js"}`),
/// as `loads` edges from its node: what `require` or `import` of the package and its
/// subpaths reach, an ES-module-only library's entrypoints (it may have no `main`). One edge
/// per file, with the subpaths and conditions that name it; type declarations and `*`
/// patterns are left out.
fn package_export_loads(
    b: &mut Out<'_, '_>,
    id: &str,
    file: &FileFacts,
    package: &rea_parse::PackageFacts,
) -> Result<(), Failure> {
    let mut targets: BTreeMap<String, Vec<&str>> = BTreeMap::new();
    for (condition, target) in &package.exports {
        if condition.split('#').any(|c| c == "types")
            || target.contains('*')
            || !target.starts_with("./")
        {
            continue;
        }
        let resolution = b
            .env
            .files
            .resolve(&file.path, target, Context::ModuleSpecifier);
        if let Some(path) = resolution.path {
            targets.entry(path).or_default().push(condition);
        }
    }
    for (path, conditions) in targets {
        let props = json!({"field": "exports", "conditions": conditions, "resolved_path": path});
        package_loads(b, id, file, &path, props)?;
    }
    Ok(())
}

/// A `loads` edge from a package's node `id` to the file at `path`, when it is one of the
/// application's, as the package's `package.json` (`file`) declares it.
fn package_loads(
    b: &mut Out<'_, '_>,
    id: &str,
    file: &FileFacts,
    path: &str,
    props: Value,
) -> Result<(), Failure> {
    let Some(target) = b.env.file_nodes.get(path).cloned() else {
        return Ok(());
    };
    let evidence = inferred(
        "high",
        file.sha256.as_deref(),
        artifact_path(&file.path),
        "discover-package-entrypoint",
    );
    b.edge(id, &target, "loads", props, evidence)
}

/// The helper `file` exports as `export` that `call` names, with the file's path.
fn exported_helper<'p>(
    file: &'p FileFacts,
    export: &str,
    call: &rea_parse::ImportedHelperCall,
) -> Option<(&'p str, &'p rea_parse::ExportedIpcHelper)> {
    let helper = file
        .js
        .exported_ipc_helpers
        .iter()
        .find(|h| call.calls_as(export, h))?;
    Some((file.path.as_str(), helper))
}

/// Settles the modules wrapped by helpers imported from other files
/// ([`rea_parse::ImportedWrapper`]): each whose specifier resolves to a file that exports an
/// esbuild wrapper helper under the imported name becomes a module of its own esbuild bundle,
/// appended to the file's bundles; the others are dropped (their code was read as the file's
/// own).
fn settle_imported_wrappers(files: &Files, parsed: &mut [FileFacts]) {
    let helpers: HashMap<String, Vec<(String, rea_parse::Wrapper)>> = parsed
        .iter()
        .filter(|f| !f.js.exported_helpers.is_empty())
        .map(|f| (f.path.clone(), f.js.exported_helpers.clone()))
        .collect();
    for file in parsed.iter_mut() {
        for wrapper in std::mem::take(&mut file.js.imported_wrappers) {
            let Some(kind) = files
                .resolved_module(&file.path, &wrapper.from)
                .and_then(|path| helpers.get(&path))
                .and_then(|exported| exported.iter().find(|(name, _)| *name == wrapper.helper))
                .map(|(_, kind)| *kind)
            else {
                continue;
            };
            file.js.bundles.push(rea_parse::Bundle {
                bundler: "esbuild",
                runtime: kind.runtime(),
                shape: "esbuild-wrapper",
                chunk_keys: vec![kind.chunk_key(wrapper.offset)],
                unknown_chunk_keys: 0,
                entry_module_keys: Vec::new(),
                range: wrapper.range,
                modules: vec![wrapper.module],
                unknown_modules: 0,
                async_chunks: Vec::new(),
                entry_requires: Vec::new(),
            });
        }
    }
}

/// Settles the bridges whose API another file exports (`exposeInMainWorld("api",
/// api_1.api)`, `Bridge::api_import`): where the specifier resolves to a file of the
/// application that exports an API object at a prefix of the member path read, the bridge
/// takes that object's members and forwarders ([`rea_parse::Bridge::settle`]), with
/// `api_source` naming the file and export. Other bridges stay `dynamic`.
fn settle_imported_bridges(files: &Files, parsed: &mut [FileFacts]) {
    let apis: HashMap<String, Vec<rea_parse::ExportedApi>> = parsed
        .iter()
        .filter(|f| !f.js.exported_apis.is_empty())
        .map(|f| (f.path.clone(), f.js.exported_apis.clone()))
        .collect();
    for file in parsed.iter_mut() {
        let from = &file.path;
        file.js.settle_bridges(|import| {
            let ImportFrom::Specifier(specifier) = import else {
                return None;
            };
            let target = files.resolved_module(from, specifier)?;
            let exported = apis.get(&target)?;
            Some((exported.as_slice(), Some(target), None))
        });
    }
}

pub fn build(cx: &StageCx<'_>, request: &Request<'_>) -> Result<Built, Failure> {
    let inventory = request.inventory;
    let manifest = &inventory.manifest;
    let root_sha = manifest.root_sha256.clone();
    let (files, containers, digests) = inventory_files(inventory, &request.parsed.files);
    let mut env = Env {
        cx,
        root_sha: root_sha.clone(),
        files,
        file_nodes: HashMap::default(),
        container_nodes: HashMap::default(),
        digests,
        served_schemes: served_schemes(request),
    };
    let mut sink = Sink::default();
    // Root and containers.
    let root = sink.node("artifact", content_digest(&root_sha), Some("artifact root"),
        json!({"format": manifest.root_format, "inventory_manifest_id": manifest.manifest_id,
               "inventory_graph_sha256": manifest.graph_sha256, "inventory_artifact_id": manifest.root_artifact_id}),
        observed("artifact-bytes", Some(&root_sha), artifact_path("artifact-root"), "inventory-root"))?;
    env.container_nodes.insert(String::new(), root.clone());
    for (path, format, sha) in &containers {
        let id = sink.node(
            "artifact",
            content_digest(sha),
            Some(path),
            json!({"path": path, "format": format}),
            observed(
                "artifact-bytes",
                Some(sha),
                artifact_path(path),
                "inventory-container",
            ),
        )?;
        env.container_nodes.insert(path.clone(), id);
    }
    let mut out = Out {
        env: &env,
        sink: &mut sink,
    };
    for (path, format, sha) in &containers {
        let child = out.env.container_nodes[path].clone();
        let properties = json!({"path": path, "format": format});
        out.contained(&child, path, Some(sha), properties, "inventory-container")?;
    }
    // One node per relevant file content; each path adds an observation.
    let parsed = &request.parsed.files;
    let file_nodes = project_each(&env, &mut sink, parsed, |out, file| {
        let kind = file_node_kind(file.kind);
        let identity = match &file.sha256 {
            Some(sha) => content_digest(sha),
            None => json!({"strategy": "canonical-path", "stability": "artifact-version",
                           "artifact_sha256": out.env.sha_of(out.env.files.container_of(&file.path)).unwrap_or(&out.env.root_sha), "path": file.path}),
        };
        let mut props = json!({"path": file.path, "bytes": file.bytes, "unpacked": file.unpacked,
            "file_kind": file.kind.as_str(), "text_status": file.text.as_str(), "parse_status": file.parse.as_str()});
        if !file.js.vendor_markers.is_empty() {
            props["vendor_markers"] = json!(file.js.vendor_markers);
        }
        if !file.js.security_handlers.is_empty() {
            props["electron_security_handlers"] = json!(file.js.security_handlers.iter().map(|h| json!({
                "api": h.api, "handler": h.handler, "line": h.range.start.line, "column": h.range.start.column}))
                .collect::<Vec<_>>());
        }
        if !file.js.launch_inputs.is_empty() {
            props["electron_launch_inputs"] = json!(file.js.launch_inputs.iter().map(|i| {
                let mut entry = json!({"api": i.api, "line": i.range.start.line, "column": i.range.start.column});
                if let Some(handler) = i.handler {
                    entry["handler"] = json!(handler);
                }
                entry
            }).collect::<Vec<_>>());
        }
        if let Some(config) = &file.update_config {
            props["update_config"] = json!({"fields": update_fields(config),
                                            "credential_keys": config.credential_keys, "omitted_keys": config.omitted});
        }
        if !file.js.command_line_switches.is_empty() {
            props["electron_command_line_switches"] = json!(
                file.js
                    .command_line_switches
                    .iter()
                    .map(|c| json!({
                "api": c.api, "switch": c.switch, "value": c.value, "dynamic_expression": c.dynamic,
                "line": c.range.start.line, "column": c.range.start.column}))
                    .collect::<Vec<_>>()
            );
        }
        let schemes = url_schemes_of(file);
        if !schemes.is_empty() {
            props["url_schemes"] = json!(schemes);
        }
        if !file.js.csp_headers.is_empty() {
            props["content_security_policy_headers"] = json!(
                file.js
                    .csp_headers
                    .iter()
                    .map(|h| json!({
                "policy": h.policy, "line": h.range.start.line, "column": h.range.start.column,
                "allows_inline_scripts": h.allows_inline_scripts, "allows_eval": h.allows_eval}))
                    .collect::<Vec<_>>()
            );
        }
        if file.all_webviews().next().is_some() {
            props["webview_tags"] = json!(file
                .all_webviews()
                .map(|w| json!({"line": w.line, "written": w.written, "computed": w.computed,
                    "src": w.src, "attributes": w.attributes, "web_preferences": w.web_preferences, "preload": w.preload,
                    "node_integration": w.node_integration(), "web_security_disabled": w.web_security_disabled()}))
                .collect::<Vec<_>>());
        }
        if file.kind == FileKind::Html {
            props["inline_scripts"] = json!(file.inline_scripts.0);
            props["inline_scripts_read"] = json!(file.inline_scripts.1);
            if let Some(csp) = &file.csp {
                let policies: Vec<Value> = csp
                    .policies
                    .iter()
                    .map(|p| json!({"policy": p.policy, "line": p.line}))
                    .collect();
                props["content_security_policy"] = json!({"source": "meta", "policies": policies,
                    "allows_inline_scripts": csp.allows_inline_scripts, "allows_eval": csp.allows_eval});
            }
        }
        if let Some((keys, omitted)) = &file.json_keys {
            props["json_top_level_keys"] = json!(keys);
            props["omitted_json_top_level_keys"] = json!(omitted);
        }
        if !file.diagnostics.is_empty() {
            props["diagnostics"] = json!(file.diagnostics);
        }
        let evidence = match &file.sha256 {
            Some(sha) => observed(
                "artifact-bytes",
                Some(sha),
                artifact_path(&file.path),
                "inventory-file",
            ),
            None => unavailable(
                "artifact-bytes",
                None,
                &file.path,
                "inventory-file",
                "the file's bytes were unavailable; no content hash was produced",
            ),
        };
        let id = out.node(kind, identity, Some(&file.path), props, evidence)?;
        let properties = json!({"path": file.path});
        out.contained(
            &id,
            &file.path,
            file.sha256.as_deref(),
            properties,
            "inventory-file",
        )?;
        Ok(id)
    })?;
    env.file_nodes = parsed
        .iter()
        .zip(file_nodes)
        .map(|(file, id)| (file.path.clone(), id))
        .collect();
    let mut out = Out {
        env: &env,
        sink: &mut sink,
    };
    // Unknown scopes for what could not be read or parsed.
    for file in parsed {
        let (operation, limitation) = match (file.kind, file.text, file.parse) {
            (FileKind::NativeAddon, _, _) => continue,
            (FileKind::Bytecode, _, _) => (
                "read-v8-bytecode",
                "V8 bytecode (a bytenode .jsc): its code cannot be read without running it"
                    .to_owned(),
            ),
            (_, TextStatus::FileLimit | TextStatus::ByteLimit, _) => {
                ("read-text", format!("not read: {}", file.text.as_str()))
            }
            (_, TextStatus::InvalidUtf8 | TextStatus::Unavailable, _) => {
                ("read-text", format!("not read: {}", file.text.as_str()))
            }
            (kind, _, ParseStatus::Failed) => (
                match kind {
                    FileKind::PackageJson => "parse-package-json",
                    FileKind::UpdateConfig => "parse-update-config",
                    FileKind::Json => "parse-json-module",
                    FileKind::SourceMap => "parse-local-source-map",
                    _ => "parse-javascript",
                },
                format!(
                    "parse failed: {}",
                    file.diagnostics
                        .first()
                        .map_or("unknown error", String::as_str)
                ),
            ),
            (FileKind::Html, _, _) if file.inline_scripts.1 < file.inline_scripts.0 => (
                "parse-inline-script",
                format!(
                    "{} of {} inline scripts do not parse; their code was not read",
                    file.inline_scripts.0 - file.inline_scripts.1,
                    file.inline_scripts.0
                ),
            ),
            _ => continue,
        };
        let sha = file.sha256.clone().unwrap_or_else(|| root_sha.clone());
        let id = out.node(
            "unknown",
            local_key(
                &sha,
                "static-parse-scope",
                &format!("{operation}:{}", file.path),
            ),
            Some(&file.path),
            json!({"path": file.path, "operation": operation, "limitation": limitation}),
            unavailable(
                "ast-static-analysis",
                file.sha256.as_deref(),
                &file.path,
                operation,
                &limitation,
            ),
        )?;
        if let Some(asset) = out.env.file_nodes.get(&file.path).cloned() {
            out.edge(
                &asset,
                &id,
                "contains",
                json!({"scope": "unavailable-static-analysis"}),
                unavailable(
                    "ast-static-analysis",
                    file.sha256.as_deref(),
                    &file.path,
                    operation,
                    &limitation,
                ),
            )?;
        }
    }
    let mut budget = Budget {
        max_findings: request.limits.max_findings,
        max_modules: request.limits.max_modules,
        ..Budget::default()
    };
    let mut limitations = BTreeSet::new();
    let app_package = project_packages(&mut out, parsed)?;
    let modules = project_bundles(&mut out, parsed, &mut budget, &mut limitations)?;
    let bridged = bridged_operations(&env.files, parsed);
    let imported = imported_channels(&env.files, parsed);
    let ipc = IpcInputs {
        bridged: &bridged,
        imported: &imported,
    };
    let counts = project_findings(&env, &mut sink, parsed, ipc, &modules, &mut budget)?;
    project_source_maps(
        &mut Out {
            env: &env,
            sink: &mut sink,
        },
        parsed,
        request.source_map_contents,
    )?;
    project_code_webview_preloads(
        &mut Out {
            env: &env,
            sink: &mut sink,
        },
        parsed,
    )?;
    (sink.mains, sink.loads) = (Vec::new(), Vec::new());
    let renderer_pages = renderer_pages(&env, parsed);
    let projected = Projected {
        sink,
        limitations,
        budget,
        nested_containers: containers.len() as u64,
        root,
        app_package,
        counts,
        renderer_pages,
    };
    finish(cx, projected, request)
}

/// Most URL scheme registrations listed on one file's node.
const MAX_FILE_SCHEMES: usize = 64;
/// Most schemes the summary lists.
const MAX_SUMMARY_SCHEMES: usize = 64;

/// The calls of a file that register a URL scheme with Electron: those that serve one
/// ([`rea_parse::ServedScheme`], also through a helper, and `electron-serve`) and the rest
/// ([`rea_parse::SchemeRegistration`]), in source order, at most [`MAX_FILE_SCHEMES`].
fn url_schemes_of(file: &FileFacts) -> Vec<Value> {
    let served = file.js.served_schemes.iter().map(|s| {
        (
            (s.range.start.line, s.range.start.column),
            s.api,
            Some(s.scheme.as_str()),
            &[][..],
        )
    });
    let registered = file.js.scheme_registrations.iter().map(|r| {
        (
            (r.range.start.line, r.range.start.column),
            r.api,
            r.scheme.as_deref(),
            r.privileges.as_slice(),
        )
    });
    let mut all: Vec<_> = served.chain(registered).collect();
    all.sort();
    all.dedup();
    all.into_iter()
        .take(MAX_FILE_SCHEMES)
        .map(|((line, column), api, scheme, privileges)| {
            let mut entry = json!({"api": api, "scheme": scheme, "line": line, "column": column});
            if !privileges.is_empty() {
                entry["privileges"] = json!(privileges);
            }
            entry
        })
        .collect()
}

/// The URL schemes the application registers with Electron, by scheme: the methods that
/// register each and the privileges granted to it (sorted, at most [`MAX_SUMMARY_SCHEMES`]
/// schemes), and how many registrations name no scheme the code writes.
fn url_schemes(parsed: &[FileFacts]) -> Value {
    let mut schemes: BTreeMap<&str, (BTreeSet<&str>, BTreeSet<&str>)> = BTreeMap::new();
    let mut dynamic = 0u64;
    for file in parsed {
        for served in &file.js.served_schemes {
            let entry = schemes.entry(served.scheme.as_str()).or_default();
            entry.0.insert(served.api);
        }
        for registration in &file.js.scheme_registrations {
            let Some(scheme) = registration.scheme.as_deref() else {
                dynamic += 1;
                continue;
            };
            let entry = schemes.entry(scheme).or_default();
            entry.0.insert(registration.api);
            entry
                .1
                .extend(registration.privileges.iter().map(String::as_str));
        }
    }
    let listed = schemes.len();
    let schemes: Vec<Value> = schemes
        .into_iter()
        .take(MAX_SUMMARY_SCHEMES)
        .map(|(scheme, (apis, privileges))| {
            json!({"scheme": scheme, "apis": apis, "privileges": privileges})
        })
        .collect();
    json!({"schemes": schemes, "omitted_schemes": listed - schemes.len(),
           "dynamic_registrations": dynamic})
}

/// An exported function: its file, its module factory (in a bundle), and its export name.
type ExportKey = (String, Option<rea_parse::ModuleKey>, String);

/// The process boundaries written in the functions `file` exports (or its module factories
/// do), or in the functions of the file those call by name, by export: of `processes`, those
/// admitted to the graph.
fn export_boundaries(
    file: &FileFacts,
    processes: &[&rea_parse::ProcessUse],
) -> Vec<(ExportKey, Vec<Boundary>)> {
    if processes.is_empty() {
        return Vec::new();
    }
    let file_exports = file.js.export_shapes.iter().map(|shape| (None, shape));
    let module_exports = file
        .js
        .bundles
        .iter()
        .flat_map(|b| &b.modules)
        .flat_map(|m| {
            m.export_shapes
                .iter()
                .map(move |shape| (Some(&m.key), shape))
        });
    // Each piece of code names its export by its index in `owners`.
    let mut owners: Vec<(Option<&rea_parse::ModuleKey>, &str)> = Vec::new();
    let mut code: Vec<Code> = Vec::new();
    for (module, shape) in file_exports.chain(module_exports) {
        if shape.kind == "function" {
            let range = shape.body.unwrap_or(shape.range);
            code.push((range, owners.len().to_string(), "export"));
            owners.push((module, &shape.name));
        }
    }
    if code.is_empty() {
        return Vec::new();
    }
    expand_code(&mut code, &file.js.local_calls);
    let mut by_export: BTreeMap<usize, Vec<Boundary>> = BTreeMap::new();
    for process in processes {
        for (_, owner, _) in holders(&code, &process.range, "", false) {
            let Ok(owner) = owner.parse::<usize>() else {
                continue;
            };
            by_export
                .entry(owner)
                .or_default()
                .push(Boundary::of(process));
        }
    }
    by_export
        .into_iter()
        .map(|(owner, boundaries)| {
            let (module, name) = owners[owner];
            (
                (file.path.clone(), module.cloned(), name.to_owned()),
                boundaries,
            )
        })
        .collect()
}

/// The process boundaries bridges' own code reaches (a preload with Node.js that runs a
/// child process or opens a URL for the page), in file order, at most
/// [`MAX_SUMMARY_HANDLER_BOUNDARIES`]; how many have a target not written there.
fn bridge_boundaries_json(all: &[HandlerBoundary]) -> Value {
    boundaries_json(
        all.iter().collect(),
        |b| json!({"api_key": b.holder.name, "path": b.holder.path, "line": b.holder.line}),
    )
}

/// At most [`MAX_SUMMARY_HANDLER_BOUNDARIES`] of `all`, each what `holder` says of its holder
/// with the boundary's fields; how many have a target not written there, and how many more
/// there are.
fn boundaries_json(
    all: Vec<&HandlerBoundary>,
    holder: impl Fn(&HandlerBoundary) -> Value,
) -> Value {
    let items: Vec<Value> = all
        .iter()
        .take(MAX_SUMMARY_HANDLER_BOUNDARIES)
        .map(|b| {
            let mut item = holder(b);
            let reached = &b.boundary;
            item["kind"] = json!(reached.kind);
            item["api"] = json!(reached.api);
            item["static"] = json!(reached.static_target);
            item["target"] = json!(reached.target);
            item["boundary_line"] = json!(reached.line);
            item
        })
        .collect();
    json!({"boundaries": all.len(), "dynamic_targets": all.iter().filter(|b| !b.boundary.static_target).count(),
           "items": items, "omitted": all.len() - items.len()})
}

/// The bridge members that let a page choose the IPC channel (a parameter the member passes
/// to `ipcRenderer` as the channel): each reaches every handler the main process registers,
/// so the channel list says less than it seems. At most [`MAX_SUMMARY_HANDLER_BOUNDARIES`],
/// in file order.
fn forwarders_json(all: &[(String, String, &'static str, String)]) -> Value {
    let items: Vec<Value> = all
        .iter()
        .take(MAX_SUMMARY_HANDLER_BOUNDARIES)
        .map(|(key, member, operation, path)| {
            json!({"api_key": key, "member": member, "operation": operation, "path": path})
        })
        .collect();
    json!({"members": all.len(), "items": items, "omitted": all.len() - items.len()})
}

/// Most handler boundaries the summary lists.
const MAX_SUMMARY_HANDLER_BOUNDARIES: usize = 64;

/// The process boundaries IPC handlers reach ([`HandlerBoundary`]), by file, handler line and
/// boundary line (see [`boundaries_json`]).
fn handler_boundaries_json(all: &[HandlerBoundary]) -> Value {
    let mut sorted: Vec<&HandlerBoundary> = all.iter().collect();
    sorted.sort_by(|a, b| {
        let (x, y) = (&a.holder, &b.holder);
        (
            &x.path,
            x.line,
            &a.via,
            a.boundary.line,
            &x.name,
            &a.boundary.api,
        )
            .cmp(&(
                &y.path,
                y.line,
                &b.via,
                b.boundary.line,
                &y.name,
                &b.boundary.api,
            ))
    });
    boundaries_json(sorted, |b| {
        let via = b.via.as_ref().map(|(path, module, export)| {
            json!({"path": path, "module_key": module.as_ref().map(key_json), "export": export})
        });
        json!({"channel": b.holder.name, "side": b.holder.side, "operation": b.holder.operation,
               "path": b.holder.path, "line": b.holder.line, "via": via})
    })
}

/// Where the operating system hands the application outside input: the schemes it asks to
/// open as their default client (`app.setAsDefaultProtocolClient`, whose links arrive through
/// `open-url` or another launch's command line), how many listeners it adds for each launch
/// event (a `null` handler is not counted), and whether it takes the single-instance lock.
fn launch_inputs(parsed: &[FileFacts]) -> Value {
    let mut counts = zero_counts(&[
        "open_url_listeners",
        "second_instance_listeners",
        "open_file_listeners",
        "continue_activity_listeners",
    ]);
    let (mut locks, mut argv) = (0u64, 0u64);
    for input in parsed.iter().flat_map(|f| &f.js.launch_inputs) {
        let key = match input.api {
            "open-url" => "open_url_listeners",
            "second-instance" => "second_instance_listeners",
            "open-file" => "open_file_listeners",
            "continue-activity" => "continue_activity_listeners",
            "process.argv" => {
                argv += 1;
                continue;
            }
            _ => {
                locks += 1;
                continue;
            }
        };
        if input.handler != Some("null") {
            *counts.entry(key).or_default() += 1;
        }
    }
    let schemes: BTreeSet<&str> = parsed
        .iter()
        .flat_map(|f| &f.js.scheme_registrations)
        .filter(|r| r.api == "setAsDefaultProtocolClient")
        .filter_map(|r| r.scheme.as_deref())
        .collect();
    let mut out = json!(counts);
    out["default_protocol_schemes"] = json!(
        schemes
            .into_iter()
            .take(MAX_SUMMARY_SCHEMES)
            .collect::<Vec<_>>()
    );
    out["single_instance_locks"] = json!(locks);
    out["process_argv_reads"] = json!(argv);
    out
}

/// An update configuration's fields as a JSON object: a string, or a list of strings.
fn update_fields(config: &UpdateConfig) -> Value {
    config
        .fields
        .iter()
        .map(|(key, value)| {
            let value = match value {
                UpdateValue::Text(text) => json!(text),
                UpdateValue::List(items) => json!(items),
            };
            (key.clone(), value)
        })
        .collect::<serde_json::Map<String, Value>>()
        .into()
}

/// Where the application looks for updates: each electron-updater configuration
/// (`app-update.yml`, which electron-builder writes from its `publish` settings) with its
/// provider and the fields that say where (`url`, `owner` and `repo`, `bucket`, …), whether
/// it fetches over plain HTTP and which credentials it carries (their values never kept);
/// and the feed URLs the code sets (`autoUpdater.setFeedURL`), redacted, at most
/// [`MAX_SUMMARY_SCHEMES`] of each.
fn update_feeds(parsed: &[FileFacts]) -> Value {
    let configs: Vec<Value> = parsed
        .iter()
        .filter_map(|f| Some((f, f.update_config.as_ref()?)))
        .take(MAX_SUMMARY_SCHEMES)
        .map(|(f, config)| {
            let insecure = config.fields.iter().any(|(_, value)| match value {
                UpdateValue::Text(text) => plain_http(text),
                UpdateValue::List(_) => false,
            });
            let fields = update_fields(config);
            json!({"path": f.path, "provider": fields["provider"], "fields": fields,
                   "plain_http": insecure, "credential_keys": config.credential_keys})
        })
        .collect();
    let feed_urls: BTreeSet<&str> = parsed
        .iter()
        .flat_map(|f| &f.js.observations)
        .filter(|o| o.family == "endpoint" && o.kind == "setFeedURL")
        .filter_map(|o| o.value.as_deref())
        .collect();
    json!({"configs": configs,
           "configs_with_credentials": configs.iter().filter(|c| c["credential_keys"].as_array().is_some_and(|k| !k.is_empty())).count(),
           "feed_urls": feed_urls.into_iter().take(MAX_SUMMARY_SCHEMES).collect::<Vec<_>>()})
}

/// Switches that turn a defence of Chromium or Electron off, or open the process to another
/// program: the sandbox (`no-sandbox`, `disable-gpu-sandbox`, `allow-no-sandbox-job`), the
/// same-origin policy and site isolation (`disable-web-security`,
/// `disable-site-isolation-trials`, `allow-file-access-from-files`,
/// `allow-running-insecure-content`, `unsafely-treat-insecure-origin-as-secure`,
/// `enable-local-file-accesses`, `disable-xss-auditor`), certificate and TLS checks
/// (`ignore-certificate-errors` and its kin, `allow-insecure-localhost`,
/// `cipher-suite-blacklist`, `disable-webrtc-encryption`), where traffic goes and whom
/// credentials go to (`host-rules`, `host-resolver-rules`, `explicitly-allowed-ports`,
/// `auth-server-whitelist`, `auth-negotiate-delegate-whitelist`), what a bad IPC message
/// costs a renderer (`disable-kill-after-bad-ipc`), testing switches
/// (`reduce-security-for-testing`, `expose-internals-for-testing`), another program run for
/// the GPU (`gpu-launcher`), and debugging ports (`remote-debugging-port`,
/// `remote-debugging-address`, `remote-debugging-pipe`, `remote-allow-origins`, and Node.js's
/// `inspect`, `inspect-brk` and `inspect-port`). Most are those Electronegativity's
/// `CUSTOM_ARGUMENTS_JS_CHECK` calls dangerous; its `js-flags`, `disable-features` and
/// debugging-log switches are not here, as they say nothing of a defence by their name.
/// Names are compared in lower case.
const WEAKENING_SWITCHES: &[&str] = &[
    "allow-file-access-from-files",
    "allow-insecure-localhost",
    "allow-no-sandbox-job",
    "allow-running-insecure-content",
    "auth-negotiate-delegate-whitelist",
    "auth-server-whitelist",
    "cipher-suite-blacklist",
    "disable-gpu-sandbox",
    "disable-kill-after-bad-ipc",
    "disable-site-isolation-trials",
    "disable-web-security",
    "disable-webrtc-encryption",
    "disable-xss-auditor",
    "enable-local-file-accesses",
    "explicitly-allowed-ports",
    "expose-internals-for-testing",
    "gpu-launcher",
    "host-resolver-rules",
    "host-rules",
    "ignore-certificate-errors",
    "ignore-certificate-errors-spki-list",
    "ignore-urlfetcher-cert-requests",
    "inspect",
    "inspect-brk",
    "inspect-port",
    "no-sandbox",
    "reduce-security-for-testing",
    "remote-allow-origins",
    "remote-debugging-address",
    "remote-debugging-pipe",
    "remote-debugging-port",
    "unsafely-treat-insecure-origin-as-secure",
];

/// The switches the main process adds to its command line (`app.commandLine.appendSwitch`,
/// `appendArgument`, and `app.enableSandbox` as `enable-sandbox`): how many calls, how many
/// name a switch of [`WEAKENING_SWITCHES`] and which, how many are not written as strings, and
/// the calls themselves by file and line (at most [`MAX_SUMMARY_HANDLER_BOUNDARIES`]).
fn command_line_switches(parsed: &[FileFacts]) -> Value {
    let weakens = |c: &CommandLineSwitch| {
        c.switch
            .as_deref()
            .is_some_and(|s| WEAKENING_SWITCHES.contains(&s.to_ascii_lowercase().as_str()))
    };
    let all: Vec<(&str, &CommandLineSwitch)> = parsed
        .iter()
        .flat_map(|f| {
            f.js.command_line_switches
                .iter()
                .map(|c| (f.path.as_str(), c))
        })
        .collect();
    let weakening: BTreeSet<String> = all
        .iter()
        .filter(|(_, c)| weakens(c))
        .filter_map(|(_, c)| c.switch.as_deref().map(str::to_ascii_lowercase))
        .collect();
    let items: Vec<Value> = all
        .iter()
        .take(MAX_SUMMARY_HANDLER_BOUNDARIES)
        .map(|(path, c)| {
            json!({"api": c.api, "switch": c.switch, "value": c.value, "dynamic_expression": c.dynamic,
                   "weakens": weakens(c), "path": path, "line": c.range.start.line})
        })
        .collect();
    json!({"calls": all.len(),
           "weakening_calls": all.iter().filter(|(_, c)| weakens(c)).count(),
           "weakening_switches": weakening,
           "dynamic_calls": all.iter().filter(|(_, c)| c.dynamic.is_some()).count(),
           "enable_sandbox_calls": all.iter().filter(|(_, c)| c.api == "enableSandbox").count(),
           "items": items, "omitted": all.len() - items.len()})
}

/// The `<webview>` tags of the application's pages and code, and how many give their guest
/// Node.js, turn its web security off, or let it open windows; how many the code writes, and
/// how many have attributes computed at run time.
fn webview_tags(parsed: &[FileFacts]) -> Value {
    let tags: Vec<(&str, &rea_parse::HtmlWebview)> = parsed
        .iter()
        .flat_map(|f| f.all_webviews().map(|w| (f.path.as_str(), w)))
        .collect();
    let count = |test: &dyn Fn(&rea_parse::HtmlWebview) -> bool| {
        tags.iter().filter(|(_, w)| test(w)).count()
    };
    // Each tag by file and line, in path order (at most as many as the handlers' boundaries).
    let items: Vec<Value> = tags
        .iter()
        .take(MAX_SUMMARY_HANDLER_BOUNDARIES)
        .map(|(path, w)| {
            json!({"path": path, "line": w.line, "written": w.written, "computed": w.computed,
                   "attributes": w.attributes, "web_preferences": w.web_preferences, "preload": w.preload,
                   "node_integration": w.node_integration(), "web_security_disabled": w.web_security_disabled()})
        })
        .collect();
    json!({
        "tags": tags.len(),
        "written_by_code": count(&|w| w.written != "html"),
        "computed": count(&|w| w.computed),
        "node_integration": count(&|w| w.node_integration()),
        "web_security_disabled": count(&|w| w.web_security_disabled()),
        "allow_popups": count(&|w| w.attributes.contains(&"allowpopups")),
        "items": items,
        "omitted": tags.len() - items.len(),
    })
}

/// The `webPreferences` values that weaken what a page can reach, as written: Node.js in
/// the page or its frames, no context isolation or sandbox, no same-origin policy, insecure
/// content allowed.
const WEAKENING_PREFERENCES: [(&str, bool); 6] = [
    ("nodeIntegration", true),
    ("nodeIntegrationInSubFrames", true),
    ("contextIsolation", false),
    ("sandbox", false),
    ("webSecurity", false),
    ("allowRunningInsecureContent", true),
];

/// The windows that load URLs of the web ([`rea_parse::Window::remote_urls`]) or `loadURL`
/// targets computed at run time, which may be such URLs, and each of those whose written preferences
/// weaken the page's isolation: remote content that may reach Node.js or the preload's
/// world. Only explicit values count, never the defaults of an Electron version;
/// preferences that are not read are counted apart.
fn remote_content(parsed: &[FileFacts]) -> Value {
    let (mut windows, mut computed, mut dynamic) = (0, 0, 0);
    let mut items: Vec<Value> = Vec::new();
    let mut weakened_windows = 0;
    for file in parsed {
        for window in file
            .js
            .windows
            .iter()
            .filter(|w| !w.remote_urls.is_empty() || !w.dynamic_urls.is_empty())
        {
            if window.remote_urls.is_empty() {
                computed += 1;
            } else {
                windows += 1;
            }
            if window.web_preferences_status == "dynamic" {
                dynamic += 1;
            }
            let weakened: Vec<String> = window
                .web_preferences
                .iter()
                .filter_map(|(name, value)| match value {
                    StaticValue::Literal(Value::Bool(b))
                        if WEAKENING_PREFERENCES.contains(&(name.as_str(), *b)) =>
                    {
                        Some(format!("{name}={b}"))
                    }
                    _ => None,
                })
                .collect();
            if weakened.is_empty() {
                continue;
            }
            weakened_windows += 1;
            if items.len() < MAX_SUMMARY_HANDLER_BOUNDARIES {
                items.push(json!({"path": file.path, "line": window.range.start.line,
                    "constructor": window.constructor, "urls": window.remote_urls,
                    "computed_targets": window.dynamic_urls, "weakened_preferences": weakened}));
            }
        }
    }
    json!({
        "windows": windows,
        "windows_with_computed_targets_only": computed,
        "with_weakened_preferences": weakened_windows,
        "with_dynamic_preferences": dynamic,
        "items": items,
        "omitted": weakened_windows - items.len(),
    })
}

/// A count of 0 for each of `keys`, so that a summary names every kind it counts.
fn zero_counts<'k>(keys: &[&'k str]) -> BTreeMap<&'k str, u64> {
    keys.iter().map(|k| (*k, 0)).collect()
}

/// How many of each kind of security handler the code installs (a `null` handler, which
/// removes one, is not counted).
fn security_handlers(parsed: &[FileFacts]) -> Value {
    let mut counts = zero_counts(&[
        "window_open_handlers",
        "navigation_listeners",
        "legacy_new_window_listeners",
        "webview_attach_listeners",
        "web_contents_created_listeners",
        "permission_handlers",
        "certificate_handlers",
    ]);
    for handler in parsed.iter().flat_map(|f| &f.js.security_handlers) {
        if handler.handler == "null" {
            continue;
        }
        let key = match handler.api {
            "setWindowOpenHandler" => "window_open_handlers",
            "will-navigate" | "will-frame-navigate" | "will-redirect" => "navigation_listeners",
            "new-window" => "legacy_new_window_listeners",
            "will-attach-webview" => "webview_attach_listeners",
            "web-contents-created" => "web_contents_created_listeners",
            "certificate-error" | "setCertificateVerifyProc" | "importCertificate" => {
                "certificate_handlers"
            }
            _ => "permission_handlers",
        };
        *counts.entry(key).or_default() += 1;
    }
    json!(counts)
}

/// What the HTML pages that windows and views load (`loadFile`, `loadURL` of a file in the
/// application) declare about their scripts.
#[derive(Debug, Default)]
struct RendererPages {
    pages: u64,
    with_policy: u64,
    policy_allows_inline_scripts: u64,
    policy_allows_eval: u64,
    with_inline_scripts: u64,
}

/// The web pages windows load (`loadURL` of an `http(s)` or `ws(s)` URL, redacted), each
/// once, in order.
fn web_loads(parsed: &[FileFacts]) -> BTreeSet<&str> {
    parsed
        .iter()
        .flat_map(|f| &f.js.observations)
        .filter(|o| o.family == "endpoint" && o.kind == "loadURL")
        .filter_map(|o| o.value.as_deref())
        .collect()
}

/// Whether a URL goes over plain HTTP (or an unencrypted web socket), where whoever is on
/// the network path may change what a window runs.
fn plain_http(url: &str) -> bool {
    let lower = url.trim_start().to_ascii_lowercase();
    lower.starts_with("http://") || lower.starts_with("ws://")
}

fn renderer_pages(env: &Env<'_>, parsed: &[FileFacts]) -> RendererPages {
    let html: HashMap<&str, &FileFacts> = parsed
        .iter()
        .filter(|f| f.kind == FileKind::Html)
        .map(|f| (f.path.as_str(), f))
        .collect();
    let mut loaded: BTreeMap<String, &FileFacts> = BTreeMap::new();
    for file in parsed {
        for load in &file.js.renderer_loads {
            if matches!(
                load.api,
                "preload-property" | "setPreloads" | "registerPreloadScript" | "electron-launch"
            ) {
                continue;
            }
            if let Some(path) = env.resolve_load(file, load).path
                && let Some(page) = html.get(path.as_str())
            {
                loaded.insert(path, page);
            }
        }
    }
    let mut out = RendererPages::default();
    for page in loaded.values() {
        out.pages += 1;
        out.with_inline_scripts += u64::from(page.inline_scripts.0 > 0);
        if let Some(csp) = &page.csp {
            out.with_policy += 1;
            out.policy_allows_inline_scripts += u64::from(csp.allows_inline_scripts);
            out.policy_allows_eval += u64::from(csp.allows_eval);
        }
    }
    out
}

/// Package nodes; the application's own `package.json` names the Electron main entrypoint.
/// It is the one outside `node_modules` whose `main` is a file that does what a main process
/// does (constructs a window or registers with `ipcMain`), shallowest first; when no `main`
/// does, the shallowest outside `node_modules` (a tool that ships an Electron app inside its
/// own package, as nativefier does, has the app's `package.json` below its own; a VS Code
/// extension that merely requires Electron does not take the place of the application's).
fn project_packages(b: &mut Out<'_, '_>, parsed: &[FileFacts]) -> Result<Option<String>, Failure> {
    let by_path = files_by_path(parsed);
    // Whether nothing read says the package's `main` is no Electron main process: it does
    // what one does, or it is declared and its code was not read (not shipped, as npm's
    // `files` leaves a build's `dist/` out, or not parsed). A package with no `main`, or
    // whose `main` was read and does nothing of the kind, may not be the app; nor may one
    // whose missing `main` is `index.js`, the default `npm init` writes and Electron takes
    // anyway, which says nothing.
    let main_may_be_electron = |file: &FileFacts| {
        let Some(main) = file.package.as_ref().and_then(|p| p.main.as_deref()) else {
            return false;
        };
        let resolution = b
            .env
            .files
            .resolve(&file.path, main, Context::PackageEntrypoint);
        match resolution
            .path
            .as_deref()
            .and_then(|path| by_path.get(path))
        {
            Some(main) if matches!(main.parse, ParseStatus::Complete | ParseStatus::Partial) => {
                acts_as_electron_main(main)
            }
            Some(_) => true,
            None => !matches!(main.trim_start_matches("./"), "index.js" | "index"),
        }
    };
    // (whether its main may be Electron's, depth, file): the greatest first flag, then the
    // least depth.
    let mut app: Option<(bool, usize, &FileFacts)> = None;
    for file in parsed.iter().filter(|f| f.package.is_some()) {
        if file.path.split('/').any(|s| s == "node_modules") {
            continue;
        }
        let depth = file.path.matches('/').count();
        let electron = main_may_be_electron(file);
        if app.is_none_or(|(e, d, _)| {
            (electron, std::cmp::Reverse(depth)) > (e, std::cmp::Reverse(d))
        }) {
            app = Some((electron, depth, file));
        }
    }
    let app = app.map(|(_, depth, file)| (depth, file));
    let mut app_node = None;
    for file in parsed {
        let Some(package) = &file.package else {
            continue;
        };
        let sha = file
            .sha256
            .clone()
            .unwrap_or_else(|| b.env.root_sha.clone());
        let exports: Vec<Value> = package
            .exports
            .iter()
            .map(|(c, t)| json!({"condition": c, "target": t}))
            .collect();
        let id = b.node("package", local_key(&sha, "package-json", &file.path), package.name.as_deref().or(Some(&file.path)),
            json!({"path": file.path, "name": package.name, "version": package.version, "main": package.main,
                   "renderer": package.renderer, "browser": package.browser, "module": package.module, "exports": exports,
                   "parse_status": if package.valid { "included" } else { "invalid" }}),
            observed("artifact-bytes", file.sha256.as_deref(), artifact_path(&file.path), "read-package-json"))?;
        let properties = json!({"path": file.path});
        b.contained(
            &id,
            &file.path,
            file.sha256.as_deref(),
            properties,
            "read-package-json",
        )?;
        let is_app = app.is_some_and(|(_, f)| std::ptr::eq(f, file));
        if is_app {
            app_node = Some(id.clone());
            if let Some(main) = &package.main {
                let mut resolution =
                    b.env
                        .files
                        .resolve(&file.path, main, Context::PackageEntrypoint);
                // A `main` read as code that neither requires nor imports Electron (nor
                // constructs a window) may be no Electron main process at all: a server or a
                // command-line tool.
                // One that uses only the renderer's side of Electron (`ipcRenderer`, never a
                // window or `ipcMain`) may be a plugin or a page's script a renderer loads.
                let read = resolution
                    .path
                    .as_deref()
                    .and_then(|path| by_path.get(path))
                    .filter(|main| {
                        matches!(main.parse, ParseStatus::Complete | ParseStatus::Partial)
                    });
                let limitation = read.and_then(|main| {
                    if !uses_electron(main) {
                        Some(NO_ELECTRON_MAIN)
                    } else if !acts_as_electron_main(main)
                        && main.js.ipc.iter().any(|op| op.side == "renderer")
                        && !main.js.ipc.iter().any(|op| op.side == "main")
                    {
                        Some(RENDERER_SIDE_MAIN)
                    } else {
                        None
                    }
                });
                if let Some(limitation) = limitation
                    && resolution.limitation.is_none()
                {
                    resolution.limitation = Some(limitation.to_owned());
                }
                b.role_resolved(
                    "electron-main",
                    &id,
                    file,
                    main,
                    Context::PackageEntrypoint,
                    resolution,
                    "package-main",
                    None,
                )?;
            } else if b.env.files.contains(&join_dir(&file.path, "index.js")) {
                b.role(
                    "electron-main",
                    &id,
                    file,
                    "index.js",
                    Context::PackageEntrypoint,
                    "package-default-main",
                    None,
                )?;
            }
            for renderer in [&package.renderer, &package.browser, &package.module]
                .into_iter()
                .flatten()
                .take(1)
            {
                b.role(
                    "electron-renderer",
                    &id,
                    file,
                    renderer,
                    Context::PackageEntrypoint,
                    "package-renderer",
                    None,
                )?;
            }
        } else if let Some(main) = &package.main {
            let resolution = b.env.files.resolve(
                &file.path,
                &format!("./{}", main.trim_start_matches("./")),
                Context::ModuleSpecifier,
            );
            if let Some(path) = resolution.path {
                let props = json!({"field": "main", "resolved_path": path});
                package_loads(b, &id, file, &path, props)?;
            }
        }
        package_export_loads(b, &id, file, package)?;
    }
    // HTML script entrypoints, and the preloads of the `<webview>` guests a page hosts.
    for file in parsed.iter().filter(|f| !f.html.is_empty()) {
        let Some(source) = b.env.file_nodes.get(&file.path).cloned() else {
            continue;
        };
        for script in &file.html {
            let spec = script_spec(script);
            let (kind, mechanism) = if script.webview_preload {
                ("electron-preload", "html-webview-preload")
            } else if script.html_import {
                ("electron-renderer", "html-import")
            } else {
                ("electron-renderer", "html-script")
            };
            b.role(
                kind,
                &source,
                file,
                &spec,
                Context::HtmlReference,
                mechanism,
                None,
            )?;
        }
    }
    Ok(app_node)
}

/// The preloads of the `<webview>` tags code writes (`electron-preload` roles of mechanism
/// `code-webview-preload`): a URL the embedder's document resolves, so from the page whose
/// document the code runs in ([`documents`]), else from the file itself.
fn project_code_webview_preloads(o: &mut Out<'_, '_>, parsed: &[FileFacts]) -> Result<(), Failure> {
    if parsed
        .iter()
        .all(|f| f.js.webviews.iter().all(|w| w.preload.is_none()))
    {
        return Ok(());
    }
    let loads = o.sink.loads.clone();
    let documents = documents(&o.env.files, &loads);
    for file in parsed {
        let Some(source) = o.env.file_nodes.get(&file.path).cloned() else {
            continue;
        };
        let mut seen = BTreeSet::new();
        for preload in file.js.webviews.iter().filter_map(|w| w.preload.as_deref()) {
            if !seen.insert(preload) {
                continue;
            }
            let files = &o.env.files;
            let resolution = match documents.get(file.path.as_str()) {
                Some(page) => files.resolve_from_page(
                    page,
                    &file.path,
                    preload,
                    (Context::HtmlReference, ModuleSystem::Require),
                    "the page whose document runs the code that writes the tag",
                ),
                None => files.resolve(&file.path, preload, Context::HtmlReference),
            };
            o.role_resolved(
                "electron-preload",
                &source,
                file,
                preload,
                Context::HtmlReference,
                resolution,
                "code-webview-preload",
                None,
            )?;
        }
    }
    Ok(())
}

/// The page whose document each script runs in: the scripts a page loads with `<script src>`
/// and the scripts they load, transitively (the first page in path order that reaches one).
fn documents<'l>(files: &'l Files, loads: &'l [(String, String)]) -> HashMap<&'l str, &'l str> {
    let script = |path: &str| {
        let lower = path.to_ascii_lowercase();
        [".js", ".cjs", ".mjs", ".jsx", ".ts", ".tsx"]
            .iter()
            .any(|e| lower.ends_with(e))
    };
    let mut next: HashMap<&str, Vec<&str>> = HashMap::default();
    for (from, to) in loads {
        if script(from) && script(to) {
            next.entry(from.as_str()).or_default().push(to.as_str());
        }
    }
    let mut pages: Vec<(&str, &str)> = files.page_scripts().collect();
    pages.sort_by_key(|&(script, page)| (page, script));
    let mut document: HashMap<&str, &str> = HashMap::default();
    for (first, page) in pages {
        let mut stack = vec![first];
        while let Some(path) = stack.pop() {
            if document.contains_key(path) {
                continue;
            }
            document.insert(path, page);
            stack.extend(next.get(path).into_iter().flatten());
        }
    }
    document
}

/// What a page's `<script src>` names: its `src`, below the page's `<base href>` when it is
/// relative.
fn script_spec(script: &rea_parse::HtmlScript) -> String {
    match &script.base_href {
        Some(base) if !script.src.starts_with('/') && !script.src.contains("://") => {
            format!("{}/{}", base.trim_end_matches('/'), script.src)
        }
        _ => script.src.clone(),
    }
}

/// A renderer transmission paired with a main-side handler.
struct Pairing<'a> {
    from: &'a str,
    relation: &'static str,
    op: &'a IpcOp,
    file: &'a FileFacts,
    sha: &'a str,
}

impl Pairing<'_> {
    /// Writes the edge to `handler`: `props`, with the bridge member the transmission went
    /// through, and inferred evidence of `confidence` from `operation`.
    fn write(
        &self,
        sink: &mut Sink,
        handler: &str,
        mut props: Value,
        (confidence, operation): (&str, &str),
    ) -> Result<(), Failure> {
        if let Some(via) = &self.op.via {
            props["via"] = json!(via);
        }
        sink.edge(
            self.from,
            handler,
            self.relation,
            props,
            inferred(
                confidence,
                Some(self.sha),
                source_range(&self.file.path, &self.op.range),
                operation,
            ),
        )
    }
}

/// The limitation of an `electron-main` role whose file shows no use of Electron.
const NO_ELECTRON_MAIN: &str = "The package's main file neither requires nor imports Electron: it may not be an Electron main process (a server or command-line tool), or it may reach Electron only through other modules.";

/// The limitation of an `electron-main` role whose file uses only the renderer's side of
/// Electron.
const RENDERER_SIDE_MAIN: &str = "The package's main file uses only the renderer's side of Electron (ipcRenderer; no window and no ipcMain): it may be a plugin or a page's script that a renderer loads, not an Electron main process.";

/// Whether a file does what an Electron main process does: constructs a window or
/// registers with `ipcMain`.
fn acts_as_electron_main(file: &FileFacts) -> bool {
    !file.js.windows.is_empty()
        || file
            .js
            .ipc
            .iter()
            .any(|op| op.side == "main" && op.mode != "send")
}

/// Whether a file requires or imports Electron, or constructs its windows.
fn uses_electron(file: &FileFacts) -> bool {
    !file.js.windows.is_empty()
        || file.js.references.iter().any(|r| {
            r.specifier
                .as_deref()
                .is_some_and(|s| s == "electron" || s.starts_with("electron/"))
        })
}

fn join_dir(path: &str, name: &str) -> String {
    match path.rsplit_once('/') {
        Some((dir, _)) => format!("{dir}/{name}"),
        None => name.to_owned(),
    }
}

/// Chunks and module factories, and the `require` edges between factories. At most
/// `max_modules` factories are projected, in path order; the rest are counted.
fn project_bundles<'p>(
    b: &mut Out<'_, '_>,
    parsed: &'p [FileFacts],
    budget: &mut Budget,
    limitations: &mut BTreeSet<String>,
) -> Result<ModuleIndex<'p>, Failure> {
    let mut modules: ModuleIndex<'p> = HashMap::default();
    // Requires resolve in the factory's own bundle first, then in the same file, then by
    // (container, runtime, key), then by (container, key); past its own bundle, only a
    // unique candidate makes an edge.
    let mut by_file: HashMap<(&'p str, &'p ModuleKey), Vec<String>> = HashMap::default();
    let mut by_runtime: HashMap<(&'p str, &'p str, &'p ModuleKey), Vec<String>> =
        HashMap::default();
    let mut by_container: HashMap<(&'p str, &'p ModuleKey), Vec<String>> = HashMap::default();
    let mut chunks_by_key: HashMap<(&'p str, &'p str), Vec<String>> = HashMap::default();
    // The files that hold a chunk of each key: what an async load of that key loads, for
    // what the main entrypoint reaches (every candidate: a load seen is never dropped).
    let mut chunk_files: HashMap<(&'p str, &'p str), Vec<&'p str>> = HashMap::default();
    let mut pending: Vec<(&'p FileFacts, &'p str, u32, &'p str, &'p Module, String)> = Vec::new();
    // Runtimes that load chunks or require factories from their own code: (file, container,
    // bundle index, chunk node, bundle).
    let mut runtime_loads: Vec<(&'p FileFacts, &'p str, u32, String, &'p rea_parse::Bundle)> =
        Vec::new();
    for file in parsed {
        let Some(asset) = b.env.file_nodes.get(&file.path).cloned() else {
            continue;
        };
        let sha = file.sha256.as_deref().unwrap_or_default();
        // A container path is a prefix of the paths it holds.
        let container = &file.path[..b.env.files.container_of(&file.path).len()];
        // A runtime name that names more than one bundle in the file (a bundle nested in a
        // factory of another, both tables minified to `e`) is qualified by where each starts,
        // so that equal keys of different tables stay different modules.
        let mut runtimes: HashMap<&str, u32> = HashMap::default();
        for bundle in &file.js.bundles {
            *runtimes.entry(bundle.runtime.as_str()).or_default() += 1;
        }
        for (index, bundle) in file.js.bundles.iter().enumerate() {
            b.env.cx.check()?;
            let index = index as u32;
            let namespace = if runtimes[bundle.runtime.as_str()] > 1 {
                format!(
                    "{}@{}:{}:module",
                    bundle.runtime, bundle.range.start.line, bundle.range.start.column
                )
            } else {
                format!("{}:module", bundle.runtime)
            };
            let chunk_identity = format!(
                "{}:{}:{}@{}:{}",
                bundle.runtime,
                bundle.shape,
                bundle.chunk_keys.join(","),
                bundle.range.start.line,
                bundle.range.start.column
            );
            let location = source_range(&file.path, &bundle.range);
            let chunk = b.node("javascript-chunk", local_key(sha, "bundler-chunk", &chunk_identity), Some(&bundle.runtime),
                json!({"path": file.path, "bundler": bundle.bundler, "runtime": bundle.runtime, "shape": bundle.shape,
                       "chunk_keys": bundle.chunk_keys, "unknown_chunk_keys": bundle.unknown_chunk_keys,
                       "module_count": bundle.modules.len(), "unknown_modules": bundle.unknown_modules,
                       "entry_module_keys": bundle.entry_module_keys.iter().map(key_json).collect::<Vec<_>>()}),
                observed("ast-static-analysis", Some(sha), location, "extract-bundler-registration"))?;
            b.edge(
                &asset,
                &chunk,
                "contains",
                json!({"path": file.path}),
                observed(
                    "ast-static-analysis",
                    Some(sha),
                    location,
                    "map-bundler-structure",
                ),
            )?;
            if !bundle.async_chunks.is_empty() || !bundle.entry_requires.is_empty() {
                runtime_loads.push((file, container, index, chunk.clone(), bundle));
            }
            for key in chunk_keys_of(bundle, &file.path) {
                chunks_by_key
                    .entry((container, key))
                    .or_default()
                    .push(chunk.clone());
                chunk_files
                    .entry((container, key))
                    .or_default()
                    .push(file.path.as_str());
            }
            for module in &bundle.modules {
                if budget.modules >= budget.max_modules {
                    budget.dropped_modules += 1;
                    continue;
                }
                budget.modules += 1;
                let location = source_range(&file.path, &module.range);
                let key_text = module.key.text();
                let id = b.node("javascript-module", local_key(sha, &namespace, &key_text), Some(&key_text),
                    json!({"path": file.path, "bundler": bundle.bundler, "runtime": bundle.runtime, "chunk_keys": bundle.chunk_keys,
                           "module_key": key_json(&module.key), "factory_require_name": module.require_name,
                           "runtime_entry": bundle.entry_module_keys.contains(&module.key),
                           "source_sha256": module.source_sha256,
                           "structural_fingerprint_sha256": module.fingerprint,
                           "structural_fingerprint_algorithm": module.fingerprint.as_ref().map(|_| rea_parse::FINGERPRINT_ALGORITHM),
                           "structural_fingerprint_status": if module.fingerprint.is_some() { "complete" } else { "truncated" },
                           "exports": module.exports, "exports_truncated": module.exports_truncated}),
                    observed("ast-static-analysis", Some(sha), location, "extract-bundler-module"))?;
                b.edge(
                    &chunk,
                    &id,
                    "contains",
                    json!({"module_key": key_json(&module.key)}),
                    observed(
                        "ast-static-analysis",
                        Some(sha),
                        location,
                        "map-bundler-structure",
                    ),
                )?;
                modules.insert((file.path.as_str(), index, &module.key), id.clone());
                by_file
                    .entry((file.path.as_str(), &module.key))
                    .or_default()
                    .push(id.clone());
                by_runtime
                    .entry((container, bundle.runtime.as_str(), &module.key))
                    .or_default()
                    .push(id.clone());
                by_container
                    .entry((container, &module.key))
                    .or_default()
                    .push(id.clone());
                pending.push((file, container, index, bundle.runtime.as_str(), module, id));
            }
        }
    }
    for list in by_file
        .values_mut()
        .chain(by_runtime.values_mut())
        .chain(by_container.values_mut())
        .chain(chunks_by_key.values_mut())
    {
        list.sort();
        list.dedup();
    }
    let unique = |list: Option<&Vec<String>>| match list {
        Some(list) if list.len() == 1 => Some(list[0].clone()),
        _ => None,
    };
    let mut unresolved = 0u64;
    for (file, container, bundle, runtime, module, id) in pending {
        b.env.cx.check()?;
        let sha = file.sha256.as_deref();
        let location = source_range(&file.path, &module.range);
        // Requires, and AMD's loads on demand, by the same resolution.
        let named = [
            (
                &module.requires,
                "bundler-require",
                "high",
                "resolve-bundler-require",
            ),
            (
                &module.async_modules,
                "bundler-async-module",
                "medium",
                "resolve-bundler-async-module",
            ),
        ];
        for (keys, kind, confidence, operation) in named {
            for key in keys {
                let target = modules
                    .get(&(file.path.as_str(), bundle, key))
                    .cloned()
                    .or_else(|| unique(by_file.get(&(file.path.as_str(), key))))
                    .or_else(|| unique(by_runtime.get(&(container, runtime, key))))
                    .or_else(|| unique(by_container.get(&(container, key))));
                match target {
                    Some(target) => b.edge(
                        &id,
                        &target,
                        "imports",
                        json!({"kind": kind, "module_key": key_json(key)}),
                        inferred(confidence, sha, location, operation),
                    )?,
                    None => unresolved += 1,
                }
            }
        }
        let loaded = (&file.path, container, module.async_chunks.as_slice());
        let chunks = (&chunk_files, &chunks_by_key);
        unresolved += async_chunks(b, &id, loaded, chunks, (sha, location))?;
    }
    for (file, container, index, chunk, bundle) in runtime_loads {
        let (sha, location) = (
            file.sha256.as_deref(),
            source_range(&file.path, &bundle.range),
        );
        let loaded = (&file.path, container, bundle.async_chunks.as_slice());
        let chunks = (&chunk_files, &chunks_by_key);
        unresolved += async_chunks(b, &chunk, loaded, chunks, (sha, location))?;
        // What the runtime's own code requires (webpack's inlined entry module, `t(157)`) or a
        // Turbopack page registers to run once its chunks are in (`runtimeModuleIds`): its own
        // bundle's factory first, then the only one of the runtime in the container.
        for text in &bundle.entry_requires {
            let key = ModuleKey::from_text(text);
            let target = modules
                .get(&(file.path.as_str(), index, &key))
                .cloned()
                .or_else(|| unique(by_runtime.get(&(container, bundle.runtime.as_str(), &key))));
            match target {
                Some(target) => b.edge(
                    &chunk,
                    &target,
                    "imports",
                    json!({"kind": "bundler-entry-require", "module_key": key_json(&key)}),
                    inferred("high", sha, location, "resolve-bundler-entry-require"),
                )?,
                None => unresolved += 1,
            }
        }
    }
    if unresolved > 0 {
        limitations.insert(format!("{unresolved} bundler requires or async chunks named no unique factory or chunk in the artifact (external modules, runtime-generated ids, or chunks not shipped)."));
    }
    Ok(modules)
}

/// The keys an async load may name a bundle's chunk by: its chunk keys, and for Turbopack,
/// which loads chunks by path from its output root (`a.l("static/chunks/x.js")`), every
/// suffix of the file's path that starts a path segment.
fn chunk_keys_of<'p>(bundle: &'p rea_parse::Bundle, path: &'p str) -> BTreeSet<&'p str> {
    let mut keys: BTreeSet<&str> = bundle.chunk_keys.iter().map(String::as_str).collect();
    if bundle.bundler == "turbopack" {
        keys.extend(
            path.match_indices('/')
                .map(|(at, _)| &path[at + 1..])
                .filter(|suffix| !suffix.is_empty()),
        );
    }
    keys
}

/// The chunks of one key in one container: the files that hold them, and their nodes.
type ChunksByKey<'c, 'p, T> = &'c HashMap<(&'p str, &'p str), Vec<T>>;

/// Async loads of the chunks `keys` from `from` (a factory or a runtime's chunk node) in the
/// file at `path`: every file holding a chunk of such a key in the container is loaded (for
/// what the main entrypoint reaches), and an `imports` edge goes to the chunk when it is the
/// only one. How many keys named no single chunk.
fn async_chunks(
    b: &mut Out<'_, '_>,
    from: &str,
    (path, container, keys): (&String, &str, &[String]),
    (files, nodes): (ChunksByKey<'_, '_, &str>, ChunksByKey<'_, '_, String>),
    (sha, location): (Option<&str>, Location<'_>),
) -> Result<u64, Failure> {
    let mut unresolved = 0;
    for key in keys {
        let key = key.as_str();
        for file in files.get(&(container, key)).into_iter().flatten() {
            if *file != path.as_str() {
                b.sink.loads.push((path.clone(), (*file).to_owned()));
            }
        }
        match nodes.get(&(container, key)).map(Vec::as_slice) {
            Some([chunk]) => b.edge(
                from,
                chunk,
                "imports",
                json!({"kind": "bundler-async-chunk", "chunk_key": key}),
                inferred("medium", sha, location, "resolve-bundler-async-chunk"),
            )?,
            _ => unresolved += 1,
        }
    }
    Ok(unresolved)
}

/// Module factory nodes by (file path, bundle index in the file, module key), borrowed from
/// the facts.
type ModuleIndex<'p> = HashMap<(&'p str, u32, &'p ModuleKey), String>;

/// A main-side handler registration: its node, file path and operation.
/// A main-process handler: its node, path, operation, and whether its channel was read
/// through a name bound to a string.
type Handler = (String, String, &'static str, bool);

/// How an IPC operation's channel is known: a string literal, a name bound to one, one of
/// the strings of a choice, or not.
fn channel_resolution(op: &IpcOp) -> &'static str {
    match (&op.channel, &op.channel_expression) {
        (Some(_), _) if op.choice => "choice",
        (Some(_), None) => "literal",
        (Some(_), Some(_)) => "constant",
        (None, _) => "dynamic",
    }
}

#[derive(Default)]
struct Counts {
    windows: u64,
    /// Windows whose page loads were matched to them.
    windows_with_loads: u64,
    explicit_prefs: u64,
    preloads: u64,
    bridges: u64,
    members: u64,
    ipc_ops: u64,
    literal_channels: BTreeSet<String>,
    dynamic_ops: u64,
    transmissions: u64,
    listeners: u64,
    handlers: u64,
    paired: u64,
    ambiguous: u64,
    unpaired: u64,
    /// Unpaired transmissions whose channel the main process registers in the other mode
    /// (an `invoke` of a channel it only listens on, a `send` to one it only handles).
    mode_mismatched: u64,
    /// The channels of unpaired transmissions: the renderer's operations, and the main
    /// process's registrations of the channel in the other mode.
    unpaired_channels: BTreeMap<String, (BTreeSet<String>, BTreeSet<&'static str>)>,
    prefix_paired: u64,
    /// Dynamic transmissions paired by the call that makes their channel.
    call_paired: u64,
    /// Dynamic renderer transmissions paired by their channel's template.
    template_paired: u64,
    reached_paired: u64,
    /// Transmissions paired with the one of several handlers written in the same language
    /// (TypeScript sources shipped beside their JavaScript build).
    language_paired: u64,
    fanned_out: u64,
    /// Messages the main process sends to pages (`webContents.send`, an event's reply, …).
    main_sends: u64,
    /// The literal channels of those, with the files that send on each.
    main_send_channels: BTreeMap<String, BTreeSet<String>>,
    /// The literal channels pages listen on.
    renderer_listener_channels: BTreeSet<String>,
    /// The keys of the dynamic channels the main process sends on ([`ChannelKey`]), and of
    /// those pages listen on.
    main_send_keys: BTreeSet<ChannelKey>,
    renderer_listener_keys: BTreeSet<ChannelKey>,
    /// What the main entrypoints reach: set once every file is projected.
    reach: Option<Reach>,
    sender_checks: u64,
    /// Main-process IPC handlers with no sender-validation candidate in their code.
    unchecked_main_handlers: u64,
    /// Process boundaries in IPC handlers' code ([`HandlerBoundary`]), in file order.
    handler_boundaries: Vec<HandlerBoundary>,
    /// Process boundaries in bridges' code, as [`HandlerBoundary`] items whose `channel` is
    /// the API's key, in file order.
    bridge_boundaries: Vec<HandlerBoundary>,
    /// Bridge members that pass the page's channel to `ipcRenderer`: (API key, member,
    /// operation, path), in file order.
    forwarders: Vec<(String, String, &'static str, String)>,
    utilities: u64,
    resolved_utilities: u64,
    child_processes: u64,
    open_external: u64,
    /// `@electron/remote`'s main-side calls (`initialize`, `enable`).
    remote_module: u64,
    execute_javascript: u64,
    native: u64,
    resolved_native: u64,
    references: u64,
    unresolved_references: u64,
    endpoints: u64,
    routes: u64,
    storage: u64,
}

impl Counts {
    fn add(&mut self, other: Counts) {
        let Counts {
            windows,
            windows_with_loads,
            explicit_prefs,
            preloads,
            bridges,
            members,
            ipc_ops,
            literal_channels,
            dynamic_ops,
            transmissions,
            listeners,
            handlers,
            paired,
            ambiguous,
            unpaired,
            mode_mismatched,
            unpaired_channels,
            prefix_paired,
            call_paired,
            template_paired,
            reached_paired,
            language_paired,
            fanned_out,
            main_sends,
            main_send_channels,
            renderer_listener_channels,
            main_send_keys,
            renderer_listener_keys,
            reach,
            sender_checks,
            unchecked_main_handlers,
            handler_boundaries,
            bridge_boundaries,
            forwarders,
            utilities,
            resolved_utilities,
            child_processes,
            open_external,
            remote_module,
            execute_javascript,
            native,
            resolved_native,
            references,
            unresolved_references,
            endpoints,
            routes,
            storage,
        } = other;
        self.windows += windows;
        self.windows_with_loads += windows_with_loads;
        self.explicit_prefs += explicit_prefs;
        self.preloads += preloads;
        self.bridges += bridges;
        self.members += members;
        self.ipc_ops += ipc_ops;
        self.literal_channels.extend(literal_channels);
        self.dynamic_ops += dynamic_ops;
        self.transmissions += transmissions;
        self.listeners += listeners;
        self.handlers += handlers;
        self.paired += paired;
        self.ambiguous += ambiguous;
        self.unpaired += unpaired;
        self.mode_mismatched += mode_mismatched;
        for (channel, (ops, other)) in unpaired_channels {
            let entry = self.unpaired_channels.entry(channel).or_default();
            entry.0.extend(ops);
            entry.1.extend(other);
        }
        self.prefix_paired += prefix_paired;
        self.call_paired += call_paired;
        self.template_paired += template_paired;
        self.reached_paired += reached_paired;
        self.language_paired += language_paired;
        self.fanned_out += fanned_out;
        self.main_sends += main_sends;
        for (channel, paths) in main_send_channels {
            self.main_send_channels
                .entry(channel)
                .or_default()
                .extend(paths);
        }
        self.renderer_listener_channels
            .extend(renderer_listener_channels);
        self.main_send_keys.extend(main_send_keys);
        self.renderer_listener_keys.extend(renderer_listener_keys);
        if reach.is_some() {
            self.reach = reach;
        }
        self.sender_checks += sender_checks;
        self.unchecked_main_handlers += unchecked_main_handlers;
        self.handler_boundaries.extend(handler_boundaries);
        self.forwarders.extend(forwarders);
        self.bridge_boundaries.extend(bridge_boundaries);
        self.utilities += utilities;
        self.resolved_utilities += resolved_utilities;
        self.child_processes += child_processes;
        self.open_external += open_external;
        self.remote_module += remote_module;
        self.execute_javascript += execute_javascript;
        self.native += native;
        self.resolved_native += resolved_native;
        self.references += references;
        self.unresolved_references += unresolved_references;
        self.endpoints += endpoints;
        self.routes += routes;
        self.storage += storage;
    }
}

/// Most files listed for one channel no page listens on.
const MAX_LISTED_SENDERS: usize = 16;

/// What the main process sends pages, against what pages listen on: how many literal
/// channels it sends on, how many of those a page listens on, and those none does (each with
/// the files that send on it, at most [`MAX_UNPAIRED_CHANNELS`]). A page may still hear such
/// a channel through a listener whose channel is computed, or one the application does not
/// ship; and a channel heard is not paired, since any page may listen.
fn main_to_renderer_json(c: &Counts) -> Value {
    let (sent, heard) = (&c.main_send_channels, &c.renderer_listener_channels);
    let unheard: Vec<(&String, &BTreeSet<String>)> = sent
        .iter()
        .filter(|(channel, _)| !heard.contains(*channel))
        .collect();
    // Dynamic channels, by the key they would pair by (a prefix, a call or a template): a
    // page listening on one made the same way may hear it.
    let keyed_heard = c
        .main_send_keys
        .iter()
        .filter(|key| c.renderer_listener_keys.contains(*key))
        .count();
    json!({
        "literal_channels": sent.len(),
        "channels_a_page_listens_on": sent.len() - unheard.len(),
        "keyed_dynamic_channels": c.main_send_keys.len(),
        "keyed_dynamic_channels_a_page_listens_on": keyed_heard,
        "channels_no_page_listens_on": unheard
            .iter()
            .take(MAX_UNPAIRED_CHANNELS)
            .map(|(channel, paths)| json!({"channel": channel, "files": paths.len(),
                "paths": paths.iter().take(MAX_LISTED_SENDERS).collect::<Vec<_>>()}))
            .collect::<Vec<Value>>(),
        "omitted_channels": unheard.len().saturating_sub(MAX_UNPAIRED_CHANNELS),
    })
}

/// Most unpaired channels the summary lists (by name; the count of transmissions is whole).
const MAX_UNPAIRED_CHANNELS: usize = 64;

/// The summary's unpaired channels: each with the renderer's operations on it and the main
/// process's registrations of it in the other mode, by channel, at most
/// [`MAX_UNPAIRED_CHANNELS`].
fn unpaired_channels_json(
    channels: &BTreeMap<String, (BTreeSet<String>, BTreeSet<&'static str>)>,
) -> Value {
    channels
        .iter()
        .take(MAX_UNPAIRED_CHANNELS)
        .map(|(channel, (ops, other))| {
            json!({"channel": channel, "renderer_operations": ops, "main_registrations_in_other_mode": other})
        })
        .collect()
}

/// A file's bundles: each module table, and its esbuild wrappers (recorded one per wrapper)
/// as one bundle, the file's output.
fn bundle_count(bundles: &[rea_parse::Bundle]) -> u64 {
    let tables = bundles
        .iter()
        .filter(|b| b.shape != "esbuild-wrapper")
        .count();
    let wrapped = bundles.iter().any(|b| b.shape == "esbuild-wrapper");
    (tables + usize::from(wrapped)) as u64
}

/// The findings of a file that each spend one of `max_findings`.
fn finding_count(js: &JsFacts) -> u64 {
    (js.references.len()
        + js.observations.len()
        + js.windows.len()
        + js.renderer_loads.len()
        + js.bridges.len()
        + js.ipc.len()
        + js.processes.len()
        + js.native.len()) as u64
}

/// IPC operations added to or completed beyond what each file's own facts say.
#[derive(Clone, Copy)]
struct IpcInputs<'p> {
    /// Operations reached through forwarding bridge members, by the calling file.
    bridged: &'p HashMap<String, Vec<IpcOp>>,
    /// Files' operations with channels read off another file's exports filled in.
    imported: &'p HashMap<String, Vec<IpcOp>>,
}

/// The file of the application a relative specifier written in `from` names, resolved as a
/// module specifier.
fn imported_file<'p>(
    files: &Files,
    by_path: &HashMap<&str, &'p FileFacts>,
    from: &str,
    specifier: &str,
) -> Option<&'p FileFacts> {
    let path = files.resolved_module(from, specifier)?;
    by_path.get(path.as_str()).copied()
}

/// Re-exports followed from the file a specifier names to the file that declares an export.
const MAX_REEXPORT_HOPS: usize = 4;
/// Files looked into for one export through re-exports: a barrel may re-export dozens of
/// modules whole, each of which may re-export more.
const MAX_REEXPORT_FILES: usize = 256;

/// What `found` finds for the export `name` of `file`, or of the file that export comes from:
/// a named re-export (`export { a as name } from "m"`, or CommonJS written so: an
/// [`rea_parse::ExportShape`] of kind `re-export`) is followed to its module's export, and a
/// name the file does not export itself is looked for in each module it re-exports whole
/// (`export * from "m"`, [`rea_parse::JsFacts::star_exports`]), which never gives `default`.
/// At most [`MAX_REEXPORT_HOPS`] files past the first, and [`MAX_REEXPORT_FILES`] files in
/// all; a specifier that resolves to no file of the application ends that path.
fn through_reexports<'p, T>(
    files: &Files,
    by_path: &HashMap<&str, &'p FileFacts>,
    file: &'p FileFacts,
    name: &str,
    found: &mut dyn FnMut(&'p FileFacts, &str) -> Option<T>,
) -> Option<T> {
    let mut visited = 0;
    reexported(files, by_path, file, name, found, 0, &mut visited)
}

/// [`through_reexports`] at `hops` files past the first, `visited` files looked into so far.
fn reexported<'p, T>(
    files: &Files,
    by_path: &HashMap<&str, &'p FileFacts>,
    file: &'p FileFacts,
    name: &str,
    found: &mut dyn FnMut(&'p FileFacts, &str) -> Option<T>,
    hops: usize,
    visited: &mut usize,
) -> Option<T> {
    *visited += 1;
    if let Some(value) = found(file, name) {
        return Some(value);
    }
    if hops >= MAX_REEXPORT_HOPS || *visited >= MAX_REEXPORT_FILES {
        return None;
    }
    // The file's own export of the name, the last written, hides any it re-exports whole.
    if let Some(shape) = file.js.export_shapes.iter().rev().find(|s| s.name == name) {
        let (Some(from), Some(imported)) = (&shape.from, &shape.imported) else {
            return None;
        };
        let target = imported_file(files, by_path, &file.path, from)?;
        return reexported(files, by_path, target, imported, found, hops + 1, visited);
    }
    if name == "default" {
        return None;
    }
    for star in &file.js.star_exports {
        if *visited >= MAX_REEXPORT_FILES {
            return None;
        }
        let Some(target) = imported_file(files, by_path, &file.path, star) else {
            continue;
        };
        if let Some(value) = reexported(files, by_path, target, name, found, hops + 1, visited) {
            return Some(value);
        }
    }
    None
}

/// The string another file exports where `import` reads it (a [`ChannelImport`] from a
/// specifier, resolved as a module specifier from `from`), if that file exports one there,
/// itself or through its re-exports ([`through_reexports`]).
fn imported_string<'p>(
    files: &Files,
    by_path: &HashMap<&str, &'p FileFacts>,
    from: &str,
    import: &ChannelImport,
) -> Option<&'p str> {
    match imported_value(files, by_path, from, import)? {
        rea_parse::Constant::Str(string) => Some(string),
        rea_parse::Constant::Object(_) | rea_parse::Constant::Maker(_) => None,
    }
}

/// The value another file exports where `import` reads it: a string, or an object (or
/// array) of them; as [`imported_string`] finds it.
fn imported_value<'p>(
    files: &Files,
    by_path: &HashMap<&str, &'p FileFacts>,
    from: &str,
    import: &ChannelImport,
) -> Option<&'p rea_parse::Constant> {
    let ImportFrom::Specifier(specifier) = &import.from else {
        return None;
    };
    let target = imported_file(files, by_path, from, specifier)?;
    let [name, rest @ ..] = import.path.as_slice() else {
        return None;
    };
    let mut value = |file: &'p FileFacts, name: &str| {
        rea_parse::exported_value_at(&file.js.exported_constants, name, rest)
    };
    through_reexports(files, by_path, target, name, &mut value)
}

/// Channels written as members of what another file exports (`channels_1.IPC.GET` after
/// `require("./channels")`): the specifier is resolved as a module specifier from the file,
/// and the channel is the string the resolved file exports at that path, if it exports one.
/// Each file with such an operation gets its whole list back, completed.
fn imported_channels(files: &Files, parsed: &[FileFacts]) -> HashMap<String, Vec<IpcOp>> {
    let mut out = HashMap::default();
    let by_path = files_by_path(parsed);
    for file in parsed {
        let imports_file = |op: &IpcOp| matches!(&op.channel_import, Some(i) if matches!(i.from, ImportFrom::Specifier(_)));
        if !file.js.ipc.iter().any(imports_file) {
            continue;
        }
        let mut ops = Vec::with_capacity(file.js.ipc.len());
        let mut room = rea_parse::MAX_ITEM_OPERATIONS;
        for op in &file.js.ipc {
            let Some(import) = &op.channel_import else {
                ops.push(op.clone());
                continue;
            };
            // A loop's variable over a list the file exports is each of its strings.
            match imported_value(files, &by_path, &file.path, import)
                .and_then(|value| op.settle(value, &mut room))
            {
                Some(settled) => ops.extend(settled),
                None => ops.push(op.clone()),
            }
        }
        out.insert(file.path.clone(), ops);
    }
    out
}

/// The IPC operations renderers reach through bridge members that forward a channel: for
/// each call `window.<key>.<member>(…, "x", …)` of a member some bridge exposed under
/// `<key>` as a forwarder, the operation it forwards, on the channel the call passes. By
/// file path, in the order of the file's calls.
fn bridged_operations(files: &Files, parsed: &[FileFacts]) -> HashMap<String, Vec<IpcOp>> {
    // (API key, member) → (channel parameter, operation, mode).
    type Forwarded = (u32, &'static str, &'static str);
    let mut forwarders: BTreeMap<(&str, &str), BTreeSet<Forwarded>> = BTreeMap::new();
    for bridge in parsed.iter().flat_map(|f| &f.js.bridges) {
        let Some(key) = &bridge.api_key else { continue };
        for f in &bridge.forwarders {
            forwarders
                .entry((key, &f.member))
                .or_default()
                .insert((f.param, f.operation, f.mode));
        }
    }
    let mut out = HashMap::default();
    if forwarders.is_empty() {
        return out;
    }
    let by_path = files_by_path(parsed);
    for file in parsed {
        let mut ops = Vec::new();
        for call in &file.js.window_calls {
            let Some((key, member)) = call.name.split_once('.') else {
                continue;
            };
            for &(param, operation, mode) in forwarders.get(&(key, member)).into_iter().flatten() {
                let param = param as usize;
                let imported = || {
                    let import = call.arg_imports.get(param)?.as_ref()?;
                    imported_string(files, &by_path, &file.path, import).map(str::to_owned)
                };
                let Some(channel) = call.args.get(param).cloned().flatten().or_else(imported)
                else {
                    continue;
                };
                // A channel read through a name keeps the expression, as an operation's does.
                let channel_expression = call.arg_expressions.get(param).cloned().flatten();
                ops.push(IpcOp {
                    side: "renderer",
                    operation,
                    mode,
                    channel: Some(channel),
                    channel_expression,
                    channel_key: None,
                    choice: false,
                    each: false,
                    handler_kind: None,
                    channel_import: None,
                    channel_args: None,
                    via: Some(format!("window.{}", call.name)),
                    range: call.range,
                    span: (0, 0),
                    handler_range: None,
                    module: call.module.clone(),
                });
            }
        }
        if !ops.is_empty() {
            out.insert(file.path.clone(), ops);
        }
    }
    out
}

/// What holds code that reaches process boundaries: an IPC handler's registration, or a
/// bridge's exposure.
#[derive(Debug, Clone)]
struct Holder {
    /// The handler's channel as written (the string, or the expression), or the API's key.
    name: String,
    side: &'static str,
    operation: &'static str,
    path: String,
    /// The registration's (or exposure's) line.
    line: u32,
}

/// A process boundary (a child process, an external URL opened, code run in a page, a
/// utility process, `@electron/remote`) as reached.
#[derive(Debug, Clone)]
struct Boundary {
    kind: &'static str,
    api: String,
    /// Whether the target is written there (a path or a literal URL); a dynamic one may come
    /// from the message.
    static_target: bool,
    /// The target: its path, or its expression as written.
    target: Option<String>,
    line: u32,
}

impl Boundary {
    fn of(process: &rea_parse::ProcessUse) -> Boundary {
        Boundary {
            kind: process.kind,
            api: process.api.clone(),
            static_target: process.static_target,
            target: process
                .target
                .as_ref()
                .map(|t| t.path.clone())
                .or_else(|| process.expression.clone()),
            line: process.range.start.line,
        }
    }
}

/// A process boundary that an IPC handler's (or a bridge's) code reaches: written in the
/// handler's registration call, in the function it is passed by name, in a function such
/// code calls by name (see [`code_scope`]), or in an exported function it calls. What a
/// renderer can make the main process do.
#[derive(Debug)]
struct HandlerBoundary {
    holder: Holder,
    boundary: Boundary,
    /// For a boundary in an exported function the handler calls (another file's, or another
    /// factory's): that file, factory and export.
    via: Option<ExportKey>,
}

/// A call an IPC handler's code makes of a function another file (or factory) exports: the
/// handler, and the file (and module factory) called with the export.
type Delegation = (Holder, ExportKey);

/// What one file's findings add besides nodes and edges.
#[derive(Default)]
struct Found<'p> {
    counts: Counts,
    /// Main-side handler registrations by (channel, mode).
    handlers: Vec<((String, &'static str), Handler)>,
    /// Main-side registrations of dynamic channels with a literal prefix or made by a call
    /// of strings, by (what they pair by, mode).
    candidate_handlers: Vec<((ChannelKey, &'static str), Handler)>,
    /// Renderer transmissions: (source node, operation, file, file digest).
    transmissions: Vec<(String, &'p IpcOp, &'p FileFacts, String)>,
    /// Bridges: (API key, node, members, whether some members are unknown).
    bridges: Vec<(&'p str, String, &'p [String], bool)>,
    /// Calls through the window: (source node, call, file, file digest).
    window_calls: Vec<(String, &'p WindowCall, &'p FileFacts, String)>,
    /// Calls handlers make of other files' exports.
    delegations: Vec<Delegation>,
    /// The process boundaries in the file's exported functions, by export.
    export_boundaries: Vec<(ExportKey, Vec<Boundary>)>,
}

/// References, observations and Electron boundaries, projected file by file in parallel.
/// The findings budget is granted to the files in path order first, so the same findings
/// are kept whatever the thread count.
fn project_findings<'p>(
    env: &Env<'_>,
    sink: &mut Sink,
    parsed: &'p [FileFacts],
    ipc: IpcInputs<'p>,
    modules: &ModuleIndex<'_>,
    budget: &mut Budget,
) -> Result<Counts, Failure> {
    let bridged_of = |file: &FileFacts| ipc.bridged.get(&file.path).map_or(&[][..], Vec::as_slice);
    // A file's operations, with channels read off other files' exports filled in.
    let ipc_of = |file: &'p FileFacts| {
        ipc.imported
            .get(&file.path)
            .map_or(file.js.ipc.as_slice(), Vec::as_slice)
    };
    let work: Vec<(&FileFacts, u64)> = parsed
        .iter()
        .filter(|file| env.file_nodes.contains_key(&file.path))
        .map(|file| {
            // A file's operations as completed: a loop over another file's list is one an
            // item.
            let count = finding_count(&file.js) - file.js.ipc.len() as u64
                + ipc_of(file).len() as u64
                + bridged_of(file).len() as u64;
            (file, budget.grant_findings(count))
        })
        .collect();
    let counter = env.cx.progress().phase_counter(
        "graph",
        "files projected",
        work.len() as u64,
        work.iter().map(|(file, _)| file.bytes).sum(),
    );
    let found = project_each(env, sink, &work, |o, &(file, granted)| {
        counter.done(file.bytes);
        let mut left = granted;
        let mut admit = || {
            let admitted = left > 0;
            left = left.saturating_sub(1);
            admitted
        };
        let mut found = Found::default();
        let c = &mut found.counts;
        let js = &file.js;
        let asset = o.env.file_nodes[&file.path].clone();
        let sha = file.sha256.clone().unwrap_or_default();
        let sha_ref = Some(sha.as_str());
        // What this file's facts made, by where they are written, with the relation code that
        // holds them has to each (`code_scope`): kept only in a file with such code, an IPC
        // handler or listener registration or a bridge.
        let scoping = !js.bridges.is_empty()
            || ipc_of(file)
                .iter()
                .any(|op| matches!(op.mode, "listen" | "handle"));
        let mut scoped: Vec<(Range, String, &'static str)> = Vec::new();
        // Code whose facts are what a node does: a bridge's literals and each IPC handler's
        // function, with the operation that says so (`code_scope`).
        let mut code: Vec<Code> = Vec::new();
        // Each IPC handler node's registration: (channel, side, operation, line).
        let mut handler_ops: HashMap<String, Holder> = HashMap::default();
        // The main process's handler registrations, each by its node (two registrations
        // written at one place, as code inside an `eval` string is, share one).
        let mut main_registrations: Vec<String> = Vec::new();
        // Each bridge node's exposure.
        let mut bridge_ops: HashMap<String, Holder> = HashMap::default();
        // The process boundaries admitted to the graph.
        let mut boundaries: Vec<&rea_parse::ProcessUse> = Vec::new();
        // References.
        for reference in &js.references {
            if !admit() {
                continue;
            }
            c.references += 1;
            let from = o
                .env
                .source_node(file, reference.module.as_ref(), modules)
                .unwrap_or_else(|| asset.clone());
            let location = source_range(&file.path, &reference.range);
            let spec = reference.specifier.as_deref();
            let resolution = match spec {
                Some(s) => o.env.files.resolve_reference(&file.path, s, reference.kind),
                None => Resolution {
                    status: "unresolved",
                    path: None,
                    limitation: Some("the specifier is dynamic".to_owned()),
                },
            };
            let mut props = json!({"kind": reference.kind, "specifier": spec, "expression": reference.expression,
                               "resolution_status": resolution.status, "resolved_path": resolution.path});
            // How a path was found where that is not the file's own directory.
            if resolution.status == "resolved"
                && let Some(note) = &resolution.limitation
            {
                props["resolution_note"] = json!(note);
            }
            let is_worker = matches!(
                reference.kind,
                "worker" | "shared-worker" | "service-worker"
            );
            let target_file = resolution
                .path
                .as_deref()
                .filter(|_| resolution.status == "resolved")
                .and_then(|p| o.env.file_nodes.get(p))
                .cloned();
            if target_file.is_some()
                && let Some(path) = &resolution.path
            {
                o.sink.loads.push((file.path.clone(), path.clone()));
            }
            // A require computed at run time in a static directory may load any script there.
            if let Some(directory) = &reference.directory {
                props["directory"] = json!(directory);
                let base = file.path.rsplit_once('/').map_or("", |(dir, _)| dir);
                let joined = if base.is_empty() {
                    directory.clone()
                } else {
                    format!("{base}/{directory}")
                };
                if let Some(dir) = super::resolve::normalize(&joined) {
                    for script in o.env.files.scripts_under(&dir) {
                        // Not the packages installed below it, nor the file itself.
                        if script != file.path && !script[dir.len()..].contains("node_modules/") {
                            o.sink.loads.push((file.path.clone(), script.to_owned()));
                        }
                    }
                }
            }
            if is_worker {
                let kind = if reference.kind == "service-worker" {
                    "service-worker"
                } else {
                    "worker"
                };
                let key = format!(
                    "{}:{}",
                    reference.kind,
                    spec.or(reference.expression.as_deref()).unwrap_or("")
                );
                let worker = o.node(
                    kind,
                    local_key(&sha, "worker", &key),
                    spec,
                    props.clone(),
                    observed("ast-static-analysis", sha_ref, location, "discover-worker"),
                )?;
                o.edge(
                    &from,
                    &worker,
                    "loads",
                    props.clone(),
                    inferred("high", sha_ref, location, "discover-worker"),
                )?;
                if scoping {
                    scoped.push((reference.range, worker.clone(), "loads"));
                }
                if let Some(target) = target_file {
                    o.edge(
                        &worker,
                        &target,
                        "maps_to",
                        json!({"path": resolution.path}),
                        inferred("high", sha_ref, location, "resolve-worker"),
                    )?;
                }
                continue;
            }
            match target_file {
                Some(target) => {
                    let relation = if resolution
                        .path
                        .as_deref()
                        .is_some_and(|p| p.to_ascii_lowercase().ends_with(".node"))
                    {
                        "loads"
                    } else {
                        "imports"
                    };
                    o.edge(
                        &from,
                        &target,
                        relation,
                        props,
                        inferred("high", sha_ref, location, "map-static-relationship"),
                    )?;
                    if scoping {
                        scoped.push((reference.range, target, relation));
                    }
                }
                None => {
                    c.unresolved_references += 1;
                    // External and unresolved targets share one node per specifier in the artifact.
                    let key = format!(
                        "{}:{}",
                        resolution.status,
                        spec.unwrap_or_else(|| reference.expression.as_deref().unwrap_or(""))
                    );
                    let (identity_sha, confidence) = if resolution.status == "external" {
                        (o.env.root_sha.clone(), "medium")
                    } else {
                        (sha.clone(), "low")
                    };
                    let target = o.node("javascript-module", local_key(&identity_sha, "unresolved-reference", &key), spec.or(reference.expression.as_deref()),
                        json!({"reference_kind": reference.kind, "specifier": spec, "expression": reference.expression,
                               "resolution_status": resolution.status, "limitation": resolution.limitation}),
                        inferred(confidence, sha_ref, location, "resolve-static-reference"))?;
                    o.edge(
                        &from,
                        &target,
                        "imports",
                        props,
                        inferred(confidence, sha_ref, location, "map-static-relationship"),
                    )?;
                    if scoping {
                        scoped.push((reference.range, target, "imports"));
                    }
                }
            }
        }
        // Endpoints, routes, storage.
        for obs in &js.observations {
            if !admit() {
                continue;
            }
            let from = o
                .env
                .source_node(file, obs.module.as_ref(), modules)
                .unwrap_or_else(|| asset.clone());
            let location = source_range(&file.path, &obs.range);
            let value = obs.value.clone().unwrap_or_default();
            let (kind, relation, scope) = match obs.family {
                "endpoint" => {
                    c.endpoints += 1;
                    ("endpoint", "calls", "endpoint")
                }
                "route" => {
                    c.routes += 1;
                    ("endpoint", "exposes", "route")
                }
                _ => {
                    c.storage += 1;
                    ("storage", "persists_to", "storage")
                }
            };
            let identity = fingerprint_identity(
                scope,
                &format!("{}\0{scope}\0{}\0{value}", o.env.root_sha, obs.kind),
            );
            let props = json!({"family": obs.family, "mechanism": obs.kind, "value": obs.value});
            let node = o.node(
                kind,
                identity,
                obs.value.as_deref().or(Some(&obs.kind)),
                props.clone(),
                observed(
                    "ast-static-analysis",
                    sha_ref,
                    location,
                    "discover-static-observation",
                ),
            )?;
            o.edge(
                &from,
                &node,
                relation,
                props,
                inferred("medium", sha_ref, location, "map-static-observation"),
            )?;
            if scoping {
                scoped.push((obs.range, node, relation));
            }
        }
        // Windows and preloads.
        let mut window_nodes: Vec<Option<String>> = vec![None; js.windows.len()];
        let mut window_loads: HashMap<u32, Vec<&RendererLoad>> = HashMap::default();
        for load in &js.renderer_loads {
            if let Some(window) = load.window {
                window_loads.entry(window).or_default().push(load);
            }
        }
        for (index, window) in js.windows.iter().enumerate() {
            if !admit() {
                continue;
            }
            c.windows += 1;
            c.explicit_prefs += window.web_preferences.len() as u64;
            let pages = window_pages(
                o.env,
                file,
                window_loads.get(&(index as u32)).map_or(&[], Vec::as_slice),
            );
            if !pages.is_empty()
                || !window.remote_urls.is_empty()
                || !window.dynamic_loads.is_empty()
            {
                c.windows_with_loads += 1;
            }
            let from = o
                .env
                .source_node(file, window.module.as_ref(), modules)
                .unwrap_or_else(|| asset.clone());
            let location = source_range(&file.path, &window.range);
            let prefs: Vec<Value> = window
                .web_preferences
                .iter()
                .map(|(n, v)| json!({"name": n, "value": value_json(v)}))
                .collect();
            // The first of the preload's static paths that resolves (a condition's branches
            // may name a development path the package does not ship), or else the first.
            let mut preload = window.preload.as_ref().map(|p| {
                let resolved = o
                    .env
                    .files
                    .resolve(&file.path, &p.path, Context::parse(p.context));
                (p, resolved)
            });
            for other in &window.preload_alternatives {
                if preload
                    .as_ref()
                    .is_some_and(|(_, r)| r.status == "resolved")
                {
                    break;
                }
                let resolved =
                    o.env
                        .files
                        .resolve(&file.path, &other.path, Context::parse(other.context));
                if resolved.status == "resolved" {
                    preload = Some((other, resolved));
                }
            }
            let (preload, preload_resolution) = match preload {
                Some((p, r)) => (Some(p), Some(r)),
                None => (None, None),
            };
            let key = format!(
                "{}:{}:{}",
                window.constructor, window.range.start.line, window.range.start.column
            );
            let node = o.node("browser-window", local_key(&sha, "browser-window", &key), Some(&window.constructor),
                json!({"path": file.path, "constructor": window.constructor, "options_status": window.options_status,
                       "web_preferences_status": window.web_preferences_status, "web_preferences": prefs,
                       "omitted_web_preferences": window.omitted_web_preferences,
                       "option_sources": window.option_sources.iter().map(|s| json!({"expression": s.expression, "resolution": s.resolution})).collect::<Vec<_>>(),
                       "preload_path": preload_resolution.as_ref().and_then(|r| r.path.clone()).or_else(|| preload.map(|p| p.path.clone())),
                       "preload_resolution_context": preload.map(|p| p.context),
                       "preload_expression": window.preload_expression, "absence_means_default": false,
                       "holder": window.holder, "pages": pages, "remote_urls": window.remote_urls,
                       "dynamic_loads": window.dynamic_loads}),
                observed("ast-static-analysis", sha_ref, location, "observe-browser-window-construction"))?;
            window_nodes[index] = Some(node.clone());
            o.edge(
                &from,
                &node,
                "contains",
                json!({"path": file.path}),
                observed(
                    "ast-static-analysis",
                    sha_ref,
                    location,
                    "observe-browser-window-construction",
                ),
            )?;
            if scoping {
                scoped.push((window.range, node.clone(), "calls"));
            }
            if let (Some(preload), Some(resolution)) = (preload, preload_resolution) {
                c.preloads += 1;
                o.role_resolved(
                    "electron-preload",
                    &node,
                    file,
                    &preload.path,
                    Context::parse(preload.context),
                    resolution,
                    "webPreferences.preload",
                    Some(&window.range),
                )?;
            }
        }
        for load in &js.renderer_loads {
            if !admit() {
                continue;
            }
            let from = o
                .env
                .source_node(file, load.module.as_ref(), modules)
                .unwrap_or_else(|| asset.clone());
            let kind = match load.api {
                "preload-property" | "setPreloads" | "registerPreloadScript" => "electron-preload",
                "electron-launch" => "electron-main",
                _ => "electron-renderer",
            };
            let resolution = o.env.resolve_load(file, load);
            let (_, role) = o.role_resolved(
                kind,
                &from,
                file,
                &load.target,
                Context::parse(load.context),
                resolution,
                load.api,
                Some(&load.range),
            )?;
            // The window the load is called on loads the page.
            if let Some(window) = load
                .window
                .and_then(|w| window_nodes.get(w as usize)?.clone())
            {
                o.edge(
                    &window,
                    &role,
                    "loads",
                    json!({"mechanism": load.api}),
                    inferred(
                        "medium",
                        sha_ref,
                        source_range(&file.path, &load.range),
                        "map-window-load",
                    ),
                )?;
            }
        }
        // contextBridge. The APIs whose literal is in this file, by its span: the IPC calls
        // inside it are what the API's members do.
        let mut bridge_literals: Vec<((u32, u32), _, Option<&String>)> = Vec::new();
        for bridge in &js.bridges {
            if !admit() {
                continue;
            }
            c.bridges += 1;
            c.members += bridge.members.len() as u64;
            let key_text = bridge
                .api_key
                .clone()
                .or_else(|| bridge.api_key_expression.clone())
                .unwrap_or_default();
            for f in &bridge.forwarders {
                c.forwarders.push((
                    key_text.clone(),
                    f.member.clone(),
                    f.operation,
                    file.path.clone(),
                ));
            }
            let from = o
                .env
                .source_node(file, bridge.module.as_ref(), modules)
                .unwrap_or_else(|| asset.clone());
            let location = source_range(&file.path, &bridge.range);
            let name = bridge
                .api_key
                .clone()
                .or_else(|| bridge.api_key_expression.clone())
                .unwrap_or_default();
            let key = format!(
                "{}:{}:{}:{}",
                bridge.world, name, bridge.range.start.line, bridge.range.start.column
            );
            let mut props = json!({"path": file.path, "world": bridge.world, "world_id": bridge.world_id.as_ref().map(value_json),
                "api_key": bridge.api_key, "api_key_expression": bridge.api_key_expression, "api_status": bridge.api_status,
                "members": bridge.members, "unknown_members": bridge.unknown_members});
            if !bridge.forwarders.is_empty() {
                props["channel_forwarders"] = json!(bridge.forwarders.iter()
                    .map(|f| json!({"member": f.member, "operation": f.operation, "channel_parameter": f.param}))
                    .collect::<Vec<_>>());
            }
            // An API read off another module's exports says where it is written.
            if let Some(source) = &bridge.api_source {
                let path = source.path.as_ref().unwrap_or(&file.path);
                props["api_source"] =
                    json!({"path": path, "module_key": source.module_key, "export": source.export});
            }
            let node = o.node(
                "context-bridge-api",
                local_key(&sha, "context-bridge", &key),
                Some(&name),
                props,
                observed(
                    "ast-static-analysis",
                    sha_ref,
                    location,
                    "observe-context-bridge-exposure",
                ),
            )?;
            o.edge(
                &from,
                &node,
                "exposes",
                json!({"api_key": bridge.api_key}),
                inferred("high", sha_ref, location, "map-context-bridge-exposure"),
            )?;
            for span in &bridge.literal_spans {
                bridge_literals.push((*span, node.clone(), bridge.api_key.as_ref()));
            }
            if let Some(key) = &bridge.api_key {
                let unknown = bridge.unknown_members > 0 || bridge.api_status != "object-literal";
                found
                    .bridges
                    .push((key, node.clone(), &bridge.members, unknown));
            }
            for range in &bridge.literal_ranges {
                code.push((*range, node.clone(), BRIDGE_SCOPE));
            }
            bridge_ops.insert(
                node.clone(),
                Holder {
                    name: key_text.clone(),
                    side: "renderer",
                    operation: "expose",
                    path: file.path.clone(),
                    line: bridge.range.start.line,
                },
            );
        }
        // The innermost API literal around a call.
        let bridge_of = |span: (u32, u32)| {
            bridge_literals
                .iter()
                .filter(|(s, _, _)| s.0 <= span.0 && span.1 <= s.1)
                .min_by_key(|(s, _, _)| s.1 - s.0)
        };
        // IPC.
        for op in ipc_of(file).iter().chain(bridged_of(file)) {
            if !admit() {
                continue;
            }
            c.ipc_ops += 1;
            let from = o
                .env
                .source_node(file, op.module.as_ref(), modules)
                .unwrap_or_else(|| asset.clone());
            let location = source_range(&file.path, &op.range);
            let channel_key = match &op.channel {
                Some(ch) => {
                    c.literal_channels.insert(ch.clone());
                    format!("literal:{ch}")
                }
                None => {
                    c.dynamic_ops += 1;
                    format!(
                        "dynamic:{}\0{}:{}\0{}\0{}",
                        file.path,
                        op.range.start.line,
                        op.range.start.column,
                        op.side,
                        op.operation
                    )
                }
            };
            let channel_label = op
                .channel
                .clone()
                .or_else(|| op.channel_expression.clone())
                .unwrap_or_default();
            let channel = o.node(
                "ipc-channel",
                fingerprint_identity(
                    "electron-ipc-channel",
                    &format!("{}\0electron-ipc-channel\0{channel_key}", o.env.root_sha),
                ),
                Some(&channel_label),
                json!({"channel": op.channel, "channel_expression": op.channel_expression,
                    "resolution": channel_resolution(op)}),
                observed(
                    "ast-static-analysis",
                    sha_ref,
                    location,
                    "observe-ipc-channel",
                ),
            )?;
            let mut props = json!({"side": op.side, "operation": op.operation, "channel": op.channel,
                "channel_expression": op.channel_expression, "resolution": channel_resolution(op)});
            // Reached through a bridge member that forwards the channel.
            if let Some(via) = &op.via {
                props["via"] = json!(via);
            }
            match op.mode {
                "send" | "invoke" => {
                    let relation = if op.mode == "invoke" {
                        "invokes"
                    } else {
                        "sends"
                    };
                    if op.side == "renderer"
                        && let Some((_, api, api_key)) = bridge_of(op.span)
                    {
                        o.edge(
                            api,
                            &channel,
                            relation,
                            json!({"api_key": api_key, "channel": op.channel, "operation": op.operation}),
                            inferred("high", sha_ref, location, "map-context-bridge-ipc"),
                        )?;
                    }
                    o.edge(
                        &from,
                        &channel,
                        relation,
                        props,
                        inferred("high", sha_ref, location, "map-ipc-transmission"),
                    )?;
                    if op.side == "main" && scoping {
                        scoped.push((op.range, channel.clone(), relation));
                    }
                    if op.side == "renderer" {
                        c.transmissions += 1;
                        found
                            .transmissions
                            .push((from.clone(), op, file, sha.clone()));
                    } else {
                        c.main_sends += 1;
                        if let Some(channel) = &op.channel {
                            c.main_send_channels
                                .entry(channel.clone())
                                .or_default()
                                .insert(file.path.clone());
                        } else if let Some(key) = &op.channel_key {
                            c.main_send_keys.insert(key.clone());
                        }
                    }
                }
                "listen" | "handle" => {
                    if op.side == "main" {
                        c.handlers += 1;
                    } else {
                        c.listeners += 1;
                        if let Some(channel) = &op.channel {
                            c.renderer_listener_channels.insert(channel.clone());
                        } else if let Some(key) = &op.channel_key {
                            c.renderer_listener_keys.insert(key.clone());
                        }
                    }
                    let key = format!(
                        "{}:{}:{}:{}",
                        op.side, op.operation, op.range.start.line, op.range.start.column
                    );
                    let handler = o.node("ipc-handler", local_key(&sha, "ipc-handler", &key), Some(&channel_label),
                        json!({"path": file.path, "side": op.side, "operation": op.operation, "channel": op.channel,
                               "channel_expression": op.channel_expression, "handler_kind": op.handler_kind, "fact_kind": "ipc-registration"}),
                        observed("ast-static-analysis", sha_ref, location, "observe-ipc-handler"))?;
                    o.edge(
                        &from,
                        &handler,
                        "contains",
                        json!({"path": file.path}),
                        observed(
                            "ast-static-analysis",
                            sha_ref,
                            location,
                            "locate-ipc-handler",
                        ),
                    )?;
                    // A listener a bridge member registers for the page.
                    if op.side == "renderer"
                        && let Some((_, api, api_key)) = bridge_of(op.span)
                    {
                        o.edge(
                            api,
                            &handler,
                            "exposes",
                            json!({"api_key": api_key, "channel": op.channel, "operation": op.operation}),
                            inferred("high", sha_ref, location, "map-context-bridge-ipc"),
                        )?;
                    }
                    o.edge(
                        &handler,
                        &channel,
                        "handles",
                        props,
                        inferred("high", sha_ref, location, "map-ipc-handler-registration"),
                    )?;
                    // Its code: the registration call, and the function it names.
                    code.push((op.range, handler.clone(), HANDLER_SCOPE));
                    handler_ops.insert(
                        handler.clone(),
                        Holder {
                            name: channel_label.clone(),
                            side: op.side,
                            operation: op.operation,
                            path: file.path.clone(),
                            line: op.range.start.line,
                        },
                    );
                    if let Some(range) = op.handler_range {
                        code.push((range, handler.clone(), HANDLER_SCOPE));
                    }
                    if op.side == "main" {
                        main_registrations.push(handler.clone());
                        let entry = (
                            handler,
                            file.path.clone(),
                            op.operation,
                            op.channel_expression.is_some(),
                        );
                        if let Some(ch) = &op.channel {
                            found.handlers.push(((ch.clone(), op.mode), entry));
                        } else if let Some(key) = &op.channel_key {
                            found
                                .candidate_handlers
                                .push(((key.clone(), op.mode), entry));
                        }
                    }
                }
                _ => o.edge(
                    &from,
                    &channel,
                    "calls",
                    props,
                    inferred("medium", sha_ref, location, "map-ipc-removal"),
                )?,
            }
        }
        // Calls into other modules: what the code around them (a handler, a bridge) reaches.
        for used in js.imported_uses.iter().filter(|_| scoping) {
            let target = match &used.import.from {
                ImportFrom::Specifier(specifier) => o
                    .env
                    .files
                    .resolved_module(&file.path, specifier)
                    .and_then(|path| o.env.file_nodes.get(&path).cloned()),
                ImportFrom::Module(module) => o.env.source_node(file, Some(module), modules),
            };
            if let Some(target) = target {
                scoped.push((used.range, target, "calls"));
            }
        }
        // Calls of bridge members through the window, linked once every bridge is known.
        for call in &js.window_calls {
            let from = o
                .env
                .source_node(file, call.module.as_ref(), modules)
                .unwrap_or_else(|| asset.clone());
            found.window_calls.push((from, call, file, sha.clone()));
        }
        // Processes.
        for process in &js.processes {
            if !admit() {
                continue;
            }
            let from = o
                .env
                .source_node(file, process.module.as_ref(), modules)
                .unwrap_or_else(|| asset.clone());
            let location = source_range(&file.path, &process.range);
            boundaries.push(process);
            match process.kind {
                "utility-process" => {
                    c.utilities += 1;
                    match &process.target {
                        Some(target) => {
                            let resolution = o.role(
                                "electron-utility",
                                &from,
                                file,
                                &target.path,
                                Context::parse(target.context),
                                "utilityProcess.fork",
                                Some(&process.range),
                            )?;
                            if resolution.status == "resolved" {
                                c.resolved_utilities += 1
                            }
                        }
                        None => {
                            let expr = process.expression.clone().unwrap_or_default();
                            let node = o.node("electron-utility", local_key(&sha, "electron-role", &format!("electron-utility:dynamic:{}:{}", process.range.start.line, process.range.start.column)),
                                Some(&expr), json!({"declared_path": null, "module_expression": expr, "resolution_status": "unresolved", "service_name": process.service_name}),
                                inferred("low", sha_ref, location, "discover-electron-entrypoint"))?;
                            o.edge(
                                &from,
                                &node,
                                "loads",
                                json!({"mechanism": "utilityProcess.fork"}),
                                inferred("low", sha_ref, location, "map-utility-process-launch"),
                            )?;
                            if scoping {
                                scoped.push((process.range, node, "loads"));
                            }
                        }
                    }
                }
                kind => {
                    match kind {
                        "child-process" => c.child_processes += 1,
                        "remote-module" => c.remote_module += 1,
                        "execute-javascript" => c.execute_javascript += 1,
                        _ => c.open_external += 1,
                    }
                    let target = process
                        .target
                        .as_ref()
                        .map(|t| t.path.clone())
                        .or_else(|| process.expression.clone())
                        .unwrap_or_default();
                    let node = o.node("target", local_key(&sha, kind, &format!("{}:{}:{}", process.api, process.range.start.line, process.range.start.column)), Some(&process.api),
                        json!({"kind": kind, "api": process.api, "target": target, "static": process.static_target}),
                        observed("ast-static-analysis", sha_ref, location, "observe-process-boundary"))?;
                    o.edge(
                        &from,
                        &node,
                        "calls",
                        json!({"api": process.api}),
                        inferred("medium", sha_ref, location, "map-process-boundary"),
                    )?;
                    if scoping {
                        scoped.push((process.range, node, "calls"));
                    }
                }
            }
        }
        // Native add-ons: each request's node and its exports' nodes, for the calls through
        // names bound to it.
        let mut addons: Vec<Option<Addon>> = vec![None; js.native.len()];
        for (index, request) in js.native.iter().enumerate() {
            if !admit() {
                continue;
            }
            c.native += 1;
            let from = o
                .env
                .source_node(file, request.module.as_ref(), modules)
                .unwrap_or_else(|| asset.clone());
            let location = source_range(&file.path, &request.range);
            let resolved = resolve_native(o.env, file, request);
            let addon = match resolved.as_ref().and_then(|p| o.env.file_nodes.get(p).cloned()) {
                Some(node) => { c.resolved_native += 1; node }
                None => o.node("native-addon", local_key(&sha, "native-addon-request", &format!("{}:{}", request.mechanism, request.specifier)), Some(&request.specifier),
                    json!({"specifier": request.specifier, "mechanism": request.mechanism, "resolution_status": "not-found"}),
                    inferred("low", sha_ref, location, "resolve-native-addon"))?,
            };
            let relation = if resolved.is_some() {
                "loads"
            } else {
                "imports"
            };
            o.edge(&from, &addon, relation, json!({"mechanism": request.mechanism, "specifier": request.specifier, "resolved_path": resolved, "members": request.members}),
                inferred("high", sha_ref, location, "map-native-addon-binding"))?;
            if scoping {
                scoped.push((request.range, addon.clone(), relation));
            }
            let addon_sha = resolved
                .as_deref()
                .and_then(|p| o.env.sha_of(p))
                .unwrap_or(&sha)
                .to_owned();
            let mut exports = Vec::with_capacity(request.members.len());
            for member in &request.members {
                let export = o.node("native-export", local_key(&addon_sha, "native-export", &format!("{}:{member}", resolved.as_deref().unwrap_or(&request.specifier))), Some(member),
                    json!({"member": member, "native_export_verification": "not-performed", "requested_by": file.path}),
                    inferred("medium", sha_ref, location, "associate-native-addon-requested-exports"))?;
                o.edge(
                    &addon,
                    &export,
                    "exposes",
                    json!({"member": member}),
                    inferred(
                        "medium",
                        sha_ref,
                        location,
                        "associate-native-addon-requested-exports",
                    ),
                )?;
                exports.push((member.clone(), export));
            }
            addons[index] = Some((addon, exports));
        }
        for used in js.native_uses.iter().filter(|_| scoping) {
            let Some(Some((addon, exports))) = addons.get(used.request as usize) else {
                continue;
            };
            scoped.push((used.range, addon.clone(), "calls"));
            if let Some(member) = &used.member
                && let Some((_, export)) = exports.iter().find(|(m, _)| m == member)
            {
                scoped.push((used.range, export.clone(), "calls"));
            }
        }
        expand_code(&mut code, &js.local_calls);
        for process in &boundaries {
            // What a handler's code does, and what a bridge's own code does (in a preload that
            // has Node.js).
            let handlers = holders(&code, &process.range, "", true).into_iter();
            let bridges = holders(&code, &process.range, "", false)
                .into_iter()
                .filter(|(_, _, operation)| *operation == BRIDGE_SCOPE);
            for (_, node, operation) in handlers.chain(bridges) {
                let (ops, reached) = if *operation == BRIDGE_SCOPE {
                    (&bridge_ops, &mut c.bridge_boundaries)
                } else {
                    (&handler_ops, &mut c.handler_boundaries)
                };
                if let Some(holder) = ops.get(node) {
                    reached.push(HandlerBoundary {
                        holder: holder.clone(),
                        boundary: Boundary::of(process),
                        via: None,
                    });
                }
            }
        }
        // Calls the handlers make of other files' exports, followed once every file is read.
        for used in &js.imported_uses {
            // The export called: the first member, or for a default import of a CommonJS
            // module (`import tools from "./tools.cjs"; tools.run()`) the one after `default`.
            let exports: Vec<&String> = match used.import.path.as_slice() {
                [] => continue,
                [first, second, ..] if first == "default" => vec![first, second],
                [first, ..] => vec![first],
            };
            let holding = holders(&code, &used.range, "", true);
            if holding.is_empty() {
                continue;
            }
            let target = match &used.import.from {
                ImportFrom::Specifier(specifier) => {
                    match o.env.files.resolved_module(&file.path, specifier) {
                        Some(path) => (path, None),
                        None => continue,
                    }
                }
                ImportFrom::Module(module) => (file.path.clone(), Some(module.key.clone())),
            };
            for (_, handler, _) in holding {
                let Some(holder) = handler_ops.get(handler) else {
                    continue;
                };
                for export in &exports {
                    found.delegations.push((
                        holder.clone(),
                        (target.0.clone(), target.1.clone(), (*export).clone()),
                    ));
                }
            }
        }
        found.export_boundaries = export_boundaries(file, &boundaries);
        // Sender checks are observations of the innermost handler whose code holds them.
        let mut checked: BTreeSet<&str> = BTreeSet::new();
        for check in &js.sender_checks {
            let handlers = holders(&code, &check.range, "", true);
            if handlers.is_empty() {
                continue;
            }
            c.sender_checks += 1;
            for (_, handler, _) in handlers {
                checked.insert(handler);
                o.sink.observe(handler, Some(&check.subject),
                    json!({"fact_kind": "sender-validation-candidate", "subject": check.subject, "mechanism": check.mechanism,
                           "expected": value_json(&check.expected), "enforcement": "unknown", "path": file.path}),
                    observed("ast-static-analysis", sha_ref, source_range(&file.path, &check.range), "observe-ipc-sender-validation-candidate"))?;
            }
        }
        c.unchecked_main_handlers += main_registrations
            .iter()
            .filter(|id| !checked.contains(id.as_str()))
            .count() as u64;
        code_scope(o, file, sha_ref, &code, &scoped)?;
        Ok(found)
    })?;
    let mut c = Counts::default();
    // Handlers by channel, for pairing: (channel, mode) → [(handler node, path, operation)].
    let mut handlers: BTreeMap<(String, &'static str), Vec<Handler>> = BTreeMap::new();
    let mut candidate_handlers: BTreeMap<(ChannelKey, &'static str), Vec<Handler>> =
        BTreeMap::new();
    let mut transmissions = Vec::new();
    let mut bridges: BTreeMap<&str, Vec<Exposed<'_>>> = BTreeMap::new();
    let mut window_calls = Vec::new();
    let mut delegations = Vec::new();
    let mut export_boundaries = Vec::new();
    for found in found {
        c.add(found.counts);
        for (key, handler) in found.handlers {
            handlers.entry(key).or_default().push(handler);
        }
        for (key, handler) in found.candidate_handlers {
            candidate_handlers.entry(key).or_default().push(handler);
        }
        transmissions.extend(found.transmissions);
        for (key, node, members, unknown) in found.bridges {
            bridges
                .entry(key)
                .or_default()
                .push((node, members, unknown));
        }
        window_calls.extend(found.window_calls);
        delegations.extend(found.delegations);
        export_boundaries.extend(found.export_boundaries);
    }
    // What handlers reach through the functions of other files they call.
    let export_boundaries: HashMap<ExportKey, Vec<Boundary>> =
        export_boundaries.into_iter().collect();
    for (holder, target) in delegations {
        for boundary in export_boundaries.get(&target).into_iter().flatten() {
            c.handler_boundaries.push(HandlerBoundary {
                holder: holder.clone(),
                boundary: boundary.clone(),
                via: Some(target.clone()),
            });
        }
    }
    // A page's call `window.<key>.<member>(…)` calls each bridge exposed under `<key>` that
    // has that member (or members not known): the renderer side of a feature.
    for (from, call, file, sha) in window_calls {
        let Some((key, member)) = call.name.split_once('.') else {
            continue;
        };
        let candidates: Vec<&String> = bridges
            .get(key)
            .into_iter()
            .flatten()
            .filter(|(_, members, unknown)| *unknown || members.iter().any(|m| m == member))
            .map(|(node, _, _)| node)
            .collect();
        let confidence = if candidates.len() == 1 {
            "medium"
        } else {
            "low"
        };
        for bridge in candidates {
            sink.edge(
                &from,
                bridge,
                "calls",
                json!({"api_key": key, "member": member, "path": file.path}),
                inferred(
                    confidence,
                    Some(&sha),
                    source_range(&file.path, &call.range),
                    "map-context-bridge-call",
                ),
            )?;
        }
    }
    // Pairing: a literal renderer transmission pairs only with exactly one compatible handler
    // (of several, with the one the main entrypoint reaches, if it reaches the transmission).
    // Read only when some transmission has several candidates.
    let (mains, loads) = (
        std::mem::take(&mut sink.mains),
        std::mem::take(&mut sink.loads),
    );
    let reached = std::cell::OnceCell::new();
    for (from, op, file, sha) in transmissions {
        if op.operation == "send-to-host" {
            continue;
        }
        let mode = if op.mode == "invoke" {
            "handle"
        } else {
            "listen"
        };
        let relation = if op.mode == "invoke" {
            "invokes"
        } else {
            "sends"
        };
        let pairing = Pairing {
            from: &from,
            relation,
            op,
            file,
            sha: &sha,
        };
        let Some(channel) = &op.channel else {
            // A dynamic channel with a literal prefix (`"prompt-post-data:" + id`), made by
            // a call of strings (`createKey("scope")`), or of a template (`${…}getUser`),
            // pairs, as a candidate, with the one main-side registration of the same key
            // and mode.
            let Some(key) = &op.channel_key else {
                continue;
            };
            if let Some([(handler, handler_path, handler_operation, _)]) = candidate_handlers
                .get(&(key.clone(), mode))
                .map(Vec::as_slice)
            {
                match key {
                    ChannelKey::Prefix(_) => c.prefix_paired += 1,
                    ChannelKey::Call(_) => c.call_paired += 1,
                    ChannelKey::Template(_) => c.template_paired += 1,
                }
                let (field, value, basis, operation) = key.pairing();
                let mut props = json!({"channel_expression": op.channel_expression,
                    "pairing_basis": basis, "handler_path": handler_path,
                    "handler_operation": handler_operation, "operation": op.operation});
                props[field] = json!(value);
                pairing.write(sink, handler, props, ("low", operation))?;
            }
            continue;
        };
        let candidates = handlers
            .get(&(channel.clone(), mode))
            .map_or(&[][..], Vec::as_slice);
        match candidates {
            [(handler, handler_path, handler_operation, handler_constant)] => {
                c.paired += 1;
                // A channel read through a name, or one of a choice, on either side says so.
                let basis = if op.choice {
                    "unique-exact-choice-channel"
                } else if *handler_constant || op.channel_expression.is_some() {
                    "unique-exact-constant-channel"
                } else {
                    "unique-exact-literal-channel"
                };
                let props = json!({"channel": channel, "pairing_basis": basis,
                        "handler_path": handler_path, "handler_operation": handler_operation, "operation": op.operation});
                pairing.write(sink, handler, props, ("high", "pair-ipc-literal-channel"))?;
            }
            [] => {
                c.unpaired += 1;
                // The main process may register the channel in the other mode, which this
                // transmission does not reach: `handle` answers only `invoke`.
                let other_mode = if mode == "handle" { "listen" } else { "handle" };
                let other: BTreeSet<&'static str> = handlers
                    .get(&(channel.clone(), other_mode))
                    .into_iter()
                    .flatten()
                    .map(|(_, _, operation, _)| *operation)
                    .collect();
                c.mode_mismatched += u64::from(!other.is_empty());
                let entry = c.unpaired_channels.entry(channel.clone()).or_default();
                entry.0.insert(op.operation.to_string());
                entry.1.extend(other);
            }
            several => {
                // Of several registrations, the one the main entrypoint reaches is the one a
                // transmission it also reaches goes to: a shipped source's copy, or a second
                // build nothing loads, registers the same channel but never runs.
                let reached = reached.get_or_init(|| reached_from(&mains, &loads));
                let reached: Vec<&Handler> = if reached.contains(file.path.as_str()) {
                    several
                        .iter()
                        .filter(|(_, path, _, _)| reached.contains(path.as_str()))
                        .collect()
                } else {
                    Vec::new()
                };
                // Where nothing reached tells them apart: of handlers in TypeScript and in
                // JavaScript (the sources shipped beside their build), the one in the
                // transmission's own language.
                let chosen = match reached[..] {
                    [one] => Some((one, "unique-exact-channel-reached-from-main")),
                    [] => {
                        let typescript = typescript_source(&file.path);
                        let mut same = several
                            .iter()
                            .filter(|(_, path, _, _)| typescript_source(path) == typescript);
                        match (same.next(), same.next()) {
                            (Some(one), None) => Some((one, "unique-exact-channel-same-language")),
                            _ => None,
                        }
                    }
                    _ => None,
                };
                if let Some(((handler, handler_path, handler_operation, _), basis)) = chosen {
                    if basis == "unique-exact-channel-same-language" {
                        c.language_paired += 1;
                    } else {
                        c.reached_paired += 1;
                    }
                    let props = json!({"channel": channel, "pairing_basis": basis,
                        "handler_path": handler_path, "handler_operation": handler_operation,
                        "operation": op.operation, "candidates": several.len()});
                    pairing.write(sink, handler, props, ("medium", "pair-ipc-literal-channel"))?;
                    continue;
                }
                // A message sent (not invoked) runs every listener of its channel: several
                // listeners of one program each get it. They are one program when the main
                // entrypoint reaches them all, or when they are written in one file; listeners
                // in files that nothing tells apart (two builds, a shipped source) stay
                // ambiguous, and so do several handlers of an invoke, of which one answers.
                let one_file = several.iter().all(|(_, path, _, _)| *path == several[0].1);
                let listeners: Vec<&Handler> = match mode {
                    "listen" if reached.len() > 1 => reached,
                    "listen" if one_file => several.iter().collect(),
                    _ => Vec::new(),
                };
                if listeners.is_empty() {
                    c.ambiguous += 1;
                    continue;
                }
                c.fanned_out += 1;
                for (handler, handler_path, handler_operation, _) in &listeners {
                    let props = json!({"channel": channel, "pairing_basis": "every-listener-of-channel",
                        "handler_path": handler_path, "handler_operation": handler_operation,
                        "operation": op.operation, "listeners": listeners.len()});
                    pairing.write(sink, handler, props, ("medium", "pair-ipc-literal-channel"))?;
                }
            }
        }
    }
    c.reach = Some(reach(
        &mains,
        reached.get_or_init(|| reached_from(&mains, &loads)),
        parsed,
        &ipc_of,
    ));
    drop(reached);
    // Kept for what is read after the findings (the pages documents run in).
    (sink.mains, sink.loads) = (mains, loads);
    Ok(c)
}

/// Whether a path is a TypeScript source (`.ts`, `.tsx`, `.mts`, `.cts`), which Electron does
/// not run: shipped beside the JavaScript built from it.
fn typescript_source(path: &str) -> bool {
    [".ts", ".tsx", ".mts", ".cts"]
        .iter()
        .any(|ext| path.ends_with(ext))
}

/// Most files the summary lists among those holding Electron facts that no main entrypoint
/// reaches.
const MAX_UNREACHED_FILES: usize = 64;

/// What the main entrypoints reach, and the Electron facts (windows, bridges, IPC operations,
/// native add-on requests, processes) in files they do not.
#[derive(Default)]
struct Reach {
    mains: Vec<String>,
    files_reached: u64,
    /// Requires and dynamic imports in the files reached whose module is computed at run time
    /// (`require(file)` over a directory's listing): what they load is not seen.
    dynamic_loads: u64,
    /// Per file not reached that holds any such fact, in path order: (path, [windows,
    /// bridges, IPC operations, native add-on requests, processes]).
    unreached: Vec<(String, [u64; 5])>,
}

/// What `mains` reach (`reached`, from [`reached_from`]) of the `parsed` files, and the facts
/// of those they do not; empty when no main entrypoint resolved.
fn reach<'p>(
    mains: &[String],
    reached: &HashSet<&str>,
    parsed: &'p [FileFacts],
    ipc_of: &dyn Fn(&'p FileFacts) -> &'p [IpcOp],
) -> Reach {
    let mut out = Reach {
        mains: mains.to_vec(),
        ..Reach::default()
    };
    out.mains.sort();
    out.mains.dedup();
    if out.mains.is_empty() {
        return out;
    }
    for file in parsed.iter().filter(|f| reached.contains(f.path.as_str())) {
        out.files_reached += 1;
        out.dynamic_loads += file
            .js
            .references
            .iter()
            .filter(|r| matches!(r.kind, "require" | "dynamic-import") && r.specifier.is_none())
            .count() as u64;
    }
    for file in parsed {
        let js = &file.js;
        let facts = [
            js.windows.len(),
            js.bridges.len(),
            ipc_of(file).len(),
            js.native.len(),
            js.processes.len(),
        ]
        .map(|n| n as u64);
        if facts.iter().any(|&n| n > 0) && !reached.contains(file.path.as_str()) {
            out.unreached.push((file.path.clone(), facts));
        }
    }
    out
}

/// The summary's `entrypoint_reach`: which files the main entrypoints load, directly or
/// through the windows they open, and the Electron facts of the files they were never seen to
/// load (a shipped source beside its build, a library's second build, a file loaded through a
/// path computed at run time, which `dynamic_loads_in_reached_files` counts the chances of).
fn reach_json(reach: Option<&Reach>) -> Value {
    let Some(reach) = reach.filter(|r| !r.mains.is_empty()) else {
        return json!({"status": "no-resolved-main"});
    };
    let total = |i: usize| reach.unreached.iter().map(|(_, n)| n[i]).sum::<u64>();
    let files: Vec<Value> = reach
        .unreached
        .iter()
        .take(MAX_UNREACHED_FILES)
        .map(|(path, n)| {
            json!({"path": path, "browser_windows": n[0], "context_bridge_apis": n[1],
                   "ipc_operations": n[2], "native_addon_requests": n[3], "process_calls": n[4]})
        })
        .collect();
    json!({"status": "computed", "main_entrypoints": reach.mains, "files_reached": reach.files_reached,
           "dynamic_loads_in_reached_files": reach.dynamic_loads,
           "unreached": {"files": reach.unreached.len(), "listed_files": files,
                         "browser_windows": total(0), "context_bridge_apis": total(1), "ipc_operations": total(2),
                         "native_addon_requests": total(3), "process_calls": total(4)}})
}

/// A bridge as a page's call finds it: its node, members, and whether some are unknown.
type Exposed<'p> = (String, &'p [String], bool);

/// An add-on request's node, and its requested exports' nodes by member.
type Addon = (String, Vec<(String, String)>);

/// A piece of code whose facts are what a node does: where it is written, the node (an IPC
/// handler or a bridge API), and the operation that says so.
type Code = (Range, String, &'static str);

/// The operation of an IPC handler's code.
const HANDLER_SCOPE: &str = "map-ipc-handler-scope";
/// The operation of a bridge's code (see [`code_scope`]).
const BRIDGE_SCOPE: &str = "map-context-bridge-scope";

/// Adds to each IPC handler's and bridge's code the functions of the file that code calls by
/// name, transitively, breadth first (up to [`MAX_CODE`] pieces of code a file).
fn expand_code(code: &mut Vec<Code>, local_calls: &[rea_parse::LocalCall]) {
    if code.is_empty() || local_calls.is_empty() {
        return;
    }
    let mut calls: Vec<&rea_parse::LocalCall> = local_calls.iter().collect();
    calls.sort_by_key(|c| c.range.start);
    let mut seen: BTreeSet<(Range, String)> =
        code.iter().map(|(r, n, _)| (*r, n.clone())).collect();
    let mut next = 0;
    while next < code.len() && code.len() < MAX_CODE {
        let (range, node, operation) = code[next].clone();
        next += 1;
        let first = calls.partition_point(|c| c.range.start < range.start);
        for call in calls[first..]
            .iter()
            .take_while(|c| c.range.start <= range.end)
            .filter(|c| c.range.end <= range.end)
        {
            if seen.insert((call.function, node.clone())) {
                code.push((call.function, node.clone(), operation));
            }
        }
    }
}

/// The code that holds `range` innermost (code nests, so the one that starts last; a function
/// two handlers call is both handlers' code), each holder once, never `node` itself; only IPC
/// handlers' code when `handlers_only`.
fn holders<'c>(code: &'c [Code], range: &Range, node: &str, handlers_only: bool) -> Vec<&'c Code> {
    let holds = |(h, id, operation): &&'c Code| {
        h.start <= range.start
            && range.end <= h.end
            && h != range
            && id != node
            && (!handlers_only || *operation == HANDLER_SCOPE)
    };
    let Some(innermost) = code.iter().filter(holds).map(|(h, _, _)| h.start).max() else {
        return Vec::new();
    };
    let mut seen = BTreeSet::new();
    code.iter()
        .filter(holds)
        .filter(|(h, id, _)| h.start == innermost && seen.insert(id))
        .collect()
}

/// Links each IPC handler and bridge API to what its code does: every fact of the file
/// written inside an IPC handler's registration call (`ipcMain.handle("open", () =>
/// require("./x.node"))`) or inside the one function the file declares under the name a
/// handler is passed by, or inside a bridge's literal (`{ read }` after `const { read } =
/// require("./x.node")`), and inside the functions such code calls by name ([`expand_code`]),
/// to the code that holds it innermost ([`holders`]).
fn code_scope(
    o: &mut Out<'_, '_>,
    file: &FileFacts,
    sha: Option<&str>,
    code: &[Code],
    scoped: &[(Range, String, &'static str)],
) -> Result<(), Failure> {
    for (range, node, relation) in scoped {
        for (_, holder, operation) in holders(code, range, node, false) {
            o.edge(
                holder,
                node,
                relation,
                json!({"path": file.path}),
                inferred("medium", sha, source_range(&file.path, range), operation),
            )?;
        }
    }
    Ok(())
}

/// Pieces of code a file's handlers and bridges reach, at the most (see [`code_scope`]).
const MAX_CODE: usize = 4_096;

/// The archive file a native request names, if shipped.
fn resolve_native(
    b: &Env<'_>,
    file: &FileFacts,
    request: &rea_parse::NativeRequest,
) -> Option<String> {
    match request.mechanism {
        "bindings" => {
            let name = if request.specifier.ends_with(".node") {
                request.specifier.clone()
            } else {
                format!("{}.node", request.specifier)
            };
            // The package root: the nearest ancestor directory with a package.json.
            let mut dir = file
                .path
                .rsplit_once('/')
                .map_or(String::new(), |(d, _)| d.to_owned());
            loop {
                let has_manifest = b.files.contains(&if dir.is_empty() {
                    "package.json".to_owned()
                } else {
                    format!("{dir}/package.json")
                });
                if has_manifest || dir.is_empty() {
                    break;
                }
                dir = dir
                    .rsplit_once('/')
                    .map_or(String::new(), |(d, _)| d.to_owned());
            }
            let prefix = if dir.is_empty() {
                String::new()
            } else {
                format!("{dir}/")
            };
            [
                "build/",
                "build/Debug/",
                "build/Release/",
                "out/Debug/",
                "Debug/",
                "out/Release/",
                "Release/",
                "build/default/",
                "lib/binding/",
            ]
            .iter()
            .map(|sub| format!("{prefix}{sub}{name}"))
            .find(|p| b.files.contains(p))
        }
        "node-gyp-build" => {
            let base = b.files.resolve(
                &file.path,
                &format!("./{}", request.specifier.trim_start_matches("./")),
                Context::FilesystemExpression,
            );
            let dir = match base.path {
                Some(p) => p,
                None => {
                    let from_dir = file.path.rsplit_once('/').map_or("", |(d, _)| d);
                    super::resolve::normalize(&format!("{from_dir}/{}", request.specifier))?
                }
            };
            let release = b.files.native_under(&if dir.is_empty() {
                "build/Release".to_owned()
            } else {
                format!("{dir}/build/Release")
            });
            let prebuilds = b.files.native_under(&if dir.is_empty() {
                "prebuilds".to_owned()
            } else {
                format!("{dir}/prebuilds")
            });
            release
                .first()
                .or(prebuilds.first())
                .map(|p| (*p).to_owned())
        }
        _ => {
            let r = b.files.resolve(
                &file.path,
                &request.specifier,
                Context::parse(request.context),
            );
            (r.status == "resolved" || r.status == "unavailable")
                .then_some(r.path)
                .flatten()
        }
    }
}

/// Source-map declarations and, when asked for, original sources.
fn project_source_maps(
    b: &mut Out<'_, '_>,
    parsed: &[FileFacts],
    contents: bool,
) -> Result<(), Failure> {
    for file in parsed {
        let Some(asset) = b.env.file_nodes.get(&file.path).cloned() else {
            continue;
        };
        let sha = file.sha256.clone().unwrap_or_default();
        let location = artifact_path(&file.path);
        for inline in &file.js.inline_source_maps {
            let map = &inline.map;
            let node = b.node(
                "source-map",
                local_key(&sha, "inline-source-map", &inline.url_sha256),
                Some("inline source map"),
                json!({"declared_url": "data:…", "inline": true, "map_sha256": inline.map_sha256,
                       "status": map.status, "file": map.file, "source_count": map.source_count}),
                observed(
                    "ast-static-analysis",
                    Some(&sha),
                    location,
                    "discover-source-map",
                ),
            )?;
            b.edge(
                &asset,
                &node,
                "maps_to",
                json!({"inline": true}),
                inferred("high", Some(&sha), location, "discover-source-map"),
            )?;
            if let (true, Some(map_sha256)) = (contents, &inline.map_sha256) {
                project_map_sources(b, &node, &map.sources, map_sha256, &sha, &file.path)?;
            }
        }
        for url in &file.js.source_map_urls {
            // A URL relative to the file, as a page's are: `main.js.map` is beside it, not a
            // package.
            let resolution = b.env.files.resolve(&file.path, url, Context::HtmlReference);
            match resolution
                .path
                .as_deref()
                .filter(|_| resolution.status == "resolved")
                .and_then(|p| b.env.file_nodes.get(p))
                .cloned()
            {
                Some(map) => b.edge(
                    &asset,
                    &map,
                    "maps_to",
                    json!({"declared_url": url}),
                    inferred("high", Some(&sha), location, "link-source-map"),
                )?,
                None => {
                    let node = b.node(
                        "source-map",
                        local_key(&sha, "source-map-declaration", url),
                        Some(url),
                        json!({"declared_url": url, "resolution_status": resolution.status}),
                        inferred("medium", Some(&sha), location, "discover-source-map"),
                    )?;
                    b.edge(
                        &asset,
                        &node,
                        "maps_to",
                        json!({"declared_url": url}),
                        inferred("medium", Some(&sha), location, "discover-source-map"),
                    )?;
                }
            }
        }
        let Some(map) = &file.source_map else {
            continue;
        };
        if !contents {
            continue;
        }
        project_map_sources(b, &asset, &map.sources, &sha, &sha, &file.path)?;
    }
    Ok(())
}

/// Whether a file is a source map or carries one inline.
fn has_source_map(file: &FileFacts) -> bool {
    file.kind == FileKind::SourceMap || !file.js.inline_source_maps.is_empty()
}

/// The original sources a source map lists (`map_sha256` is the map's digest; `sha` the
/// digest of the file holding it), each contained by `holder`.
fn project_map_sources(
    b: &mut Out<'_, '_>,
    holder: &str,
    sources: &[rea_parse::MapSource],
    map_sha256: &str,
    sha: &str,
    path: &str,
) -> Result<(), Failure> {
    for source in sources {
        let node = b.node("source-module", json!({"strategy": "source-map-original", "stability": "source-map-exact",
                "source_map_sha256": map_sha256, "original_source": source.source, "source_sha256": source.content_sha256}),
            Some(&source.source), json!({"original_source": source.source, "source_sha256": source.content_sha256, "source_map_path": path}),
            observed("artifact-bytes", Some(sha), artifact_path(path), "parse-local-source-map"))?;
        b.edge(
            holder,
            &node,
            "contains",
            json!({"original_source": source.source}),
            observed(
                "artifact-bytes",
                Some(sha),
                artifact_path(path),
                "parse-local-source-map",
            ),
        )?;
    }
    Ok(())
}

fn finish(cx: &StageCx<'_>, p: Projected, request: &Request<'_>) -> Result<Built, Failure> {
    let Projected {
        sink,
        mut limitations,
        budget,
        nested_containers,
        root,
        app_package,
        counts: c,
        renderer_pages: pages,
    } = p;
    let parsed = &request.parsed.files;
    // Statistics.
    let count =
        |pred: &dyn Fn(&FileFacts) -> bool| parsed.iter().filter(|f| pred(f)).count() as u64;
    let limit_omitted = count(&|f| matches!(f.text, TextStatus::FileLimit | TextStatus::ByteLimit));
    let invalid_utf8 = count(&|f| f.text == TextStatus::InvalidUtf8);
    let unavailable_files = count(&|f| f.text == TextStatus::Unavailable);
    let failures = count(&|f| f.parse == ParseStatus::Failed);
    let truncated = count(&|f| f.parse == ParseStatus::Truncated);
    let partial = count(&|f| f.parse == ParseStatus::Partial);
    let modules: u64 = parsed
        .iter()
        .flat_map(|f| &f.js.bundles)
        .map(|b| b.modules.len() as u64)
        .sum();
    let dropped_findings: u64 = parsed
        .iter()
        .map(|f| f.js.dropped_findings + f.js.dropped_modules)
        .sum::<u64>()
        + budget.dropped_findings
        + budget.dropped_modules;
    if budget.dropped_findings > 0 {
        limitations.insert(format!(
            "max_findings ({}) was reached: {} findings were not projected.",
            budget.max_findings, budget.dropped_findings
        ));
    }
    if budget.dropped_modules > 0 {
        limitations.insert(format!(
            "max_modules ({}) was reached: {} module factories were not projected.",
            budget.max_modules, budget.dropped_modules
        ));
    }
    // Edges are sorted first: they open the graph id's projection and are most of its text,
    // so they are hashed while the nodes (each with its observations, serialized when it was
    // made) are bounded and sorted.
    let canon = |value: &Value| CanonicalJson::of(value).map_err(failure);
    let Sink {
        nodes, mut edges, ..
    } = sink;
    edges.par_sort_unstable_by(|a, b| a.0.cmp(&b.0));
    edges.dedup_by(|a, b| a.0 == b.0);
    let edges: Vec<CanonicalJson> = edges.into_iter().map(|(_, text)| text).collect();
    cx.check()?;
    let (edge_digest, built) = rayon::join(
        || ids::graph_digest_of_edges(Piece::Items(&edges)).map_err(failure),
        || -> Result<Vec<(String, CanonicalJson, u64)>, Failure> {
            let mut built: Vec<(String, CanonicalJson, u64)> = nodes
                .into_par_iter()
                .map(
                    |(id, mut acc)| -> Result<(String, CanonicalJson, u64), Failure> {
                        let observations = &mut acc.observations;
                        observations.sort_unstable_by(|a, b| a.0.cmp(&b.0));
                        observations.dedup_by(|a, b| a.0 == b.0);
                        let omitted = observations.len().saturating_sub(MAX_OBSERVATIONS) as u64;
                        observations.truncate(MAX_OBSERVATIONS);
                        let observations: Vec<CanonicalJson> =
                            acc.observations.into_iter().map(|(_, text)| text).collect();
                        let text =
                            ids::node(&id, acc.kind, Piece::Json(&acc.identity), &observations)
                                .map_err(failure)?;
                        Ok((id, text, omitted))
                    },
                )
                .collect::<Result<_, _>>()?;
            built.par_sort_unstable_by(|a, b| a.0.cmp(&b.0));
            Ok(built)
        },
    );
    let (edge_digest, built) = (edge_digest?, built?);
    cx.check()?;
    let mut omitted_observations = 0u64;
    let nodes: Vec<CanonicalJson> = built
        .into_iter()
        .map(|(_, text, omitted)| {
            omitted_observations += omitted;
            text
        })
        .collect();
    let (node_count, edge_count) = (nodes.len(), edges.len());
    // Coverage.
    let lim = request.limits;
    let limits = json!([
        {"name": "max-text-files", "value": lim.max_text_files, "unit": "items"},
        {"name": "max-total-text-bytes", "value": lim.max_total_text_bytes, "unit": "bytes"},
        {"name": "max-text-file-bytes", "value": lim.max_text_file_bytes, "unit": "bytes"},
        {"name": "max-ast-nodes", "value": lim.max_ast_nodes, "unit": "items"},
        {"name": "max-findings", "value": lim.max_findings, "unit": "items"},
        {"name": "max-modules", "value": lim.max_modules, "unit": "items"},
        {"name": "max-observations-per-node", "value": MAX_OBSERVATIONS, "unit": "items"},
    ]);
    let omitted = limit_omitted + omitted_observations + dropped_findings;
    let coverage = if truncated > 0 || omitted > 0 {
        json!({"status": "partial", "truncated": true, "omitted_count": omitted, "limits": limits})
    } else if failures + invalid_utf8 + unavailable_files + partial > 0
        || !request.source_map_contents && parsed.iter().any(has_source_map)
    {
        json!({"status": "partial", "truncated": false, "omitted_count": null, "limits": limits})
    } else {
        json!({"status": "complete", "truncated": false, "omitted_count": 0, "limits": limits})
    };
    // Limitations.
    limitations.insert("Code was parsed, never executed: every fact is static.".to_owned());
    limitations.insert("Module specifiers resolve only to files inside the same container; packages not shipped are external.".to_owned());
    limitations.insert("Bundler module factories were recovered syntactically and never run; keys and ordinals are not stable across builds.".to_owned());
    limitations.insert("Data, call and promise flow is not in this graph: the semantic_graph section holds it, for the application's own code within its bounds (its coverage says what was read).".to_owned());
    if c.dynamic_ops > 0 {
        limitations.insert(
            "Some IPC channels are dynamic expressions; they are kept as written and never paired exactly."
                .to_owned(),
        );
    }
    if c.prefix_paired + c.call_paired + c.template_paired > 0 {
        limitations.insert("Some dynamic IPC channels were paired as low-confidence candidates with the one registration that shares their literal prefix, the call of strings that makes them or their template; the values at run time may still differ.".to_owned());
    }
    if c.ambiguous > 0 {
        limitations
            .insert("Some IPC transmissions match several handlers and stay ambiguous.".to_owned());
    }
    if c.fanned_out > 0 {
        limitations.insert("Some IPC messages sent to a channel several listeners of one program register were paired with every one of them, as each runs; whether each is registered when the message comes is not known.".to_owned());
    }
    if c.language_paired > 0 {
        limitations.insert("Some IPC transmissions match several handlers and were paired with the one written in the same language: TypeScript sources shipped beside their JavaScript build register each channel twice, and each side runs with its own.".to_owned());
    }
    if c.reached_paired > 0 {
        limitations.insert("Some IPC transmissions match several handlers and were paired with the one the main entrypoint reaches through static imports, requires, preloads and loaded pages; a file it loads only through dynamic paths is not seen as reached.".to_owned());
    }
    if c.sender_checks > 0 {
        limitations.insert(
            "Sender validation candidates are syntactic; whether they are enforced is unknown."
                .to_owned(),
        );
    }
    if c.native > 0 {
        limitations.insert(
            "Native add-on members are what JavaScript requests, not verified exports.".to_owned(),
        );
    }
    if limit_omitted > 0 {
        limitations.insert(format!(
            "{limit_omitted} text files were not read because a text limit was reached."
        ));
    }
    if failures > 0 {
        limitations.insert(format!(
            "{failures} files did not parse; each is an unknown scope."
        ));
    }
    let bytecode = count(&|f| f.kind == FileKind::Bytecode);
    if bytecode > 0 {
        limitations.insert(format!(
            "{bytecode} files are V8 bytecode (.jsc, as bytenode compiles them): their code was not read, and each is an unknown scope."
        ));
    }
    if invalid_utf8 > 0 {
        limitations.insert(format!(
            "{invalid_utf8} files are not valid UTF-8 and were not parsed."
        ));
    }
    if unavailable_files > 0 {
        limitations.insert(format!("{unavailable_files} files had unavailable bytes (for example a missing unpacked companion)."));
    }
    if truncated > 0 {
        limitations.insert(format!(
            "{truncated} files reached a per-file bound (AST nodes, findings or modules)."
        ));
    }
    if omitted_observations > 0 {
        limitations.insert(format!(
            "{omitted_observations} observations beyond {MAX_OBSERVATIONS} per node were omitted."
        ));
    }
    let inline_scripts: u64 = parsed.iter().map(|f| u64::from(f.inline_scripts.0)).sum();
    let inline_scripts_read: u64 = parsed.iter().map(|f| u64::from(f.inline_scripts.1)).sum();
    if inline_scripts > inline_scripts_read {
        limitations.insert(format!(
            "{} of {inline_scripts} inline scripts of HTML pages do not parse; their code was not read.",
            inline_scripts - inline_scripts_read
        ));
    }
    let header_policies: u64 = parsed.iter().map(|f| f.js.csp_headers.len() as u64).sum();
    if header_policies > 0 {
        limitations.insert(format!("The code writes {header_policies} Content-Security-Policy response headers (listed on the files that write them); which pages they cover is not resolved, so renderer_pages counts only the pages' meta policies."));
    } else if pages.pages > 0 {
        limitations.insert("Content security policies were read from the pages' meta tags and from literal Content-Security-Policy headers in the code; none of the latter was found, and a policy computed at run time is not seen.".to_owned());
    }
    if !request.source_map_contents && parsed.iter().any(has_source_map) {
        limitations.insert("Source maps were inventoried and their declarations linked; their contents were not read (source_maps: contents reads them).".to_owned());
    }
    limitations.extend(request.inventory.limitations.iter().take(64).cloned());
    let limitations: Vec<String> = limitations
        .into_iter()
        .map(|l| rea_parse::cut(&l, 4096).to_owned())
        .take(1000)
        .collect();
    let mut roots = vec![root];
    roots.extend(app_package);
    roots.sort();
    roots.dedup();
    let header = json!({"coverage": coverage, "limitations": limitations, "root_node_ids": roots,
                        "schema": "JavaScriptApplicationGraph", "schema_version": 1});
    let header = canon(&header)?;
    let graph_id =
        ids::graph_id_after_edges(edge_digest, &header, Piece::Items(&nodes)).map_err(failure)?;
    cx.check()?;
    let graph = Composed::object_with(
        &header,
        vec![
            (
                "graph_id".to_owned(),
                Composed::Text(CanonicalJson::string(&graph_id)),
            ),
            ("nodes".to_owned(), Composed::Items(nodes)),
            ("edges".to_owned(), Composed::Items(edges)),
        ],
    )
    .map_err(failure)?;
    let web_loads = web_loads(parsed);
    let summary = json!({
        "browser_windows": c.windows, "windows_with_matched_loads": c.windows_with_loads, "explicit_web_preferences": c.explicit_prefs, "preload_entrypoints": c.preloads,
        "context_bridge_apis": c.bridges, "exposed_api_members": c.members,
        "ipc": {"operations": c.ipc_ops, "literal_channels": c.literal_channels.len(), "dynamic_channel_operations": c.dynamic_ops,
                "renderer_transmissions": c.transmissions, "renderer_listeners": c.listeners, "main_handlers": c.handlers, "main_handlers_without_sender_check": c.unchecked_main_handlers,
                "paired_renderer_transmissions": c.paired, "ambiguous_renderer_transmissions": c.ambiguous,
                "unpaired_literal_renderer_transmissions": c.unpaired,
                "mode_mismatched_renderer_transmissions": c.mode_mismatched,
                "unpaired_renderer_channels": unpaired_channels_json(&c.unpaired_channels),
                "prefix_paired_renderer_transmissions": c.prefix_paired,
                "call_paired_renderer_transmissions": c.call_paired,
                "template_paired_renderer_transmissions": c.template_paired,
                "reached_paired_renderer_transmissions": c.reached_paired,
                "language_paired_renderer_transmissions": c.language_paired,
                "fanned_out_renderer_transmissions": c.fanned_out,
                "main_transmissions": c.main_sends,
                "main_to_renderer": main_to_renderer_json(&c)},
        "sender_validation_observations": c.sender_checks, "utility_processes": c.utilities,
        "resolved_utility_entrypoints": c.resolved_utilities, "child_process_calls": c.child_processes,
        "open_external_calls": c.open_external, "remote_module_calls": c.remote_module, "execute_javascript_calls": c.execute_javascript, "native_addon_bindings": c.native, "resolved_native_addon_bindings": c.resolved_native,
        "ipc_handler_boundaries": handler_boundaries_json(&c.handler_boundaries),
        "bridge_channel_forwarders": forwarders_json(&c.forwarders),
        "bridge_boundaries": bridge_boundaries_json(&c.bridge_boundaries),
        "security_handlers": security_handlers(parsed),
        "url_schemes": url_schemes(parsed),
        "launch_inputs": launch_inputs(parsed),
        "command_line_switches": command_line_switches(parsed),
        "update_feeds": update_feeds(parsed),
        "webview_tags": webview_tags(parsed),
        "remote_content": remote_content(parsed),
        "entrypoint_reach": reach_json(c.reach.as_ref()),
        "renderer_pages": {"loaded_pages": pages.pages, "with_content_security_policy": pages.with_policy,
                           "policy_allows_inline_scripts": pages.policy_allows_inline_scripts,
                           "policy_allows_eval": pages.policy_allows_eval, "with_inline_scripts": pages.with_inline_scripts,
                           "response_header_policies": header_policies,
                           "web_urls_loaded": web_loads.len(),
                           "plain_http_urls": web_loads.iter().filter(|u| plain_http(u)).take(MAX_SUMMARY_SCHEMES).collect::<Vec<_>>()},
    });
    let js_files = count(&|f| f.kind == FileKind::JavaScript);
    let statistics = json!({
        "relevant_files": parsed.len(), "nested_containers": nested_containers,
        "text_files_selected": count(&|f| !matches!(f.text, TextStatus::FileLimit | TextStatus::ByteLimit | TextStatus::NotApplicable)),
        "text_bytes_read": request.parsed.text_bytes_read, "omitted_text_files": limit_omitted + invalid_utf8 + unavailable_files,
        "limit_omitted_text_files": limit_omitted, "invalid_utf8_files": invalid_utf8,
        "javascript_files": js_files, "bytecode_files": bytecode,
        "html_pages": count(&|f| f.kind == FileKind::Html), "html_inline_scripts": inline_scripts,
        "html_inline_scripts_read": inline_scripts_read,
        "parsed_javascript_files": count(&|f| f.kind == FileKind::JavaScript && matches!(f.parse, ParseStatus::Complete | ParseStatus::Partial | ParseStatus::Truncated)),
        "visited_ast_nodes": parsed.iter().map(|f| f.visited_nodes).sum::<u64>(),
        "findings": parsed.iter().map(|f| (f.js.references.len() + f.js.observations.len() + f.js.windows.len() + f.js.bridges.len() + f.js.ipc.len() + f.js.native.len() + f.js.processes.len()) as u64).sum::<u64>(),
        "bundles": parsed.iter().map(|f| bundle_count(&f.js.bundles)).sum::<u64>(),
        "modules": modules, "parse_failures": failures, "truncated_scopes": truncated,
        "dropped_findings": dropped_findings, "omitted_observations": omitted_observations,
        "references": c.references, "unresolved_references": c.unresolved_references,
        "endpoints": c.endpoints, "routes": c.routes, "storage": c.storage,
    });
    Ok(Built {
        graph,
        graph_id,
        node_count,
        edge_count,
        summary,
        statistics,
        limitations,
    })
}

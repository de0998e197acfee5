//! A historical source tree against a shipped application: the analysis behind
//! `compare_source_to_bundle`.
//!
//! The reference is a [`Reference`] (`HistoricalSourceGraph/v1`): the files of a source tree
//! (a repository at some commit) with their sizes and SHA-256, committed to by `root_sha256`.
//! The application is the `normalized_result` of validated `analyze_javascript_application`
//! Evidence. Each file of the reference is looked for among the application graph's file
//! nodes (every node with a `content-digest` identity and a `path`: assets, JSON, pages, add-ons)
//! and its original sources (`source-module` nodes, which an analysis with
//! `source_maps: "contents"` projects from source maps, with the digest of each source's text).
//!
//! Signals and weights, summed per (file, node):
//!
//! | signal | weight | holds when |
//! |---|---|---|
//! | `exact-source-digest` | 100 | the file's SHA-256 is the node's content digest, or its original source's |
//! | `source-map-original-path` | 70 | an original source's path, normalized (bundler scheme and namespace, `./` and `../` cut), is the file's path or ends with `/` + it |
//! | `current-path-exact` | 60 | the node's path is the file's path |
//! | `current-path-suffix` | 40 | the node's path ends with `/` + the file's path |
//! | `basename-match` | 20 | the last path components are equal |
//! | `language-extension` | 5 | the extensions are equal |
//!
//! A candidate scoring under 20 is dropped. Per file, strongest first:
//! - nodes whose digest is the file's: `unchanged` when one sits at the file's own path, or all
//!   at one path (a file, or one original source that several maps list), `duplicated` when
//!   they sit only at several other paths, `exact`;
//! - else the best-scoring candidates, when their score holds a path signal (the first three
//!   after the digest): several at that score is `split`; one is `modified` when the node carries
//!   a digest to compare (`high` for an original-source or exact path, `medium` for a suffix),
//!   and `unknown` (reason `no-digest`) when it does not. Two or more files whose one best node
//!   is the same node are `merged`;
//! - else a file only a name matches: `unknown` (reason `weak-match`);
//! - else `removed`, but only when absence means something: the reference's inventory is
//!   complete, no limit cut the application's graph or this comparison, the file is of a kind the
//!   analysis reads (JavaScript and TypeScript, JSON, HTML, source maps, add-ons), every
//!   bundle of the application has its original sources listed (a bundle without them may hold
//!   the file), and, when the application has bundles, the file is a script (bundlers inline
//!   JSON without listing it in source maps). Otherwise `unknown`, with the reason.
//!
//! Bounds: files are compared in path order; `max_candidate_evaluations` bounds the (file,
//! node) pairs scored and `max_application_nodes` the distinct application nodes scored (every
//! node is indexed; only a file's candidates, by digest or name, are scored). A file whose
//! candidates would pass either is `unknown` (`evaluation-limit`, `node-limit`); a file with no
//! candidate is decided whatever the bounds.
//!
//! Application nodes no file matched, among original sources and JavaScript assets (a bundle
//! whose original sources are listed stands for them, and is not one), are counted
//! and listed (bounded) as `application_only`: those outside `node_modules` first (code no source
//! file accounts for), counted apart as `outside_dependencies`.
//!
//! Ids (H = lowercase hex SHA-256 of RFC 8785 canonical JSON): the reference's `root_sha256` is
//! H(`{entries, exclusions}`), each sorted by path; an item's `item_id` is `jscbi_` + H(the item
//! without `item_id`); the `comparison_id` is `jscb_` + H(`{application_graph_id, item_ids,
//! parameters, reference_root_sha256, summary}`). The validator recomputes all three.

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};

use rea_core::{Failure, FailureReason};
use rea_exec::StageCx;
use rea_hash::CanonicalError;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::record::CoverageIn;

pub const OPERATION: &str = "compare_source_to_bundle";
pub const SCHEMA: &str = "JavaScriptSourceBundleComparison";
pub const REFERENCE_SCHEMA: &str = "HistoricalSourceGraph/v1";
pub const REFERENCE_AUTHORITY: &str = "historical-reference";
pub const ROOT_ALIAS: &str = "$REFERENCE_ROOT";
pub const COMPARISON_PREFIX: &str = "jscb_";
pub const ITEM_PREFIX: &str = "jscbi_";
/// Entries a reference may hold.
pub const MAX_REFERENCE_ENTRIES: usize = 100_000;
/// Files compared: the default and the most.
pub const DEFAULT_SOURCE_FILES: usize = 10_000;
pub const MAX_SOURCE_FILES: usize = 100_000;
/// Application nodes projected: the default and the most.
pub const DEFAULT_APPLICATION_NODES: usize = 20_000;
pub const MAX_APPLICATION_NODES: usize = 100_000;
/// Matches listed per item: the default and the most.
pub const DEFAULT_CANDIDATE_NODES: usize = 100;
pub const MAX_CANDIDATE_NODES: usize = 1_000;
/// (file, node) pairs scored: the default and the most.
pub const DEFAULT_CANDIDATE_EVALUATIONS: u64 = 1_000_000;
pub const MAX_CANDIDATE_EVALUATIONS: u64 = 10_000_000;
/// Application-only nodes listed.
const MAX_APPLICATION_ONLY: usize = 100;
/// The lowest score a candidate keeps.
pub const MINIMUM_SCORE: u32 = 20;

/// The signals and their weights, strongest first.
pub const SIGNALS: [(&str, u32); 6] = [
    ("exact-source-digest", 100),
    ("source-map-original-path", 70),
    ("current-path-exact", 60),
    ("current-path-suffix", 40),
    ("basename-match", 20),
    ("language-extension", 5),
];
const DIGEST: usize = 0;
const ORIGINAL: usize = 1;
const EXACT: usize = 2;
const SUFFIX: usize = 3;
const BASENAME: usize = 4;
const EXTENSION: usize = 5;

/// Item statuses, in the order items are counted.
pub const STATUSES: [&str; 7] = [
    "unchanged",
    "modified",
    "removed",
    "split",
    "merged",
    "duplicated",
    "unknown",
];
/// Why an item is `unknown`.
pub const UNKNOWN_REASONS: [&str; 9] = [
    "no-digest",
    "weak-match",
    "not-analyzed-kind",
    "not-listed-by-source-maps",
    "incomplete-reference",
    "incomplete-application",
    "unmapped-bundles",
    "evaluation-limit",
    "node-limit",
];
pub const CONFIDENCES: [&str; 5] = ["exact", "high", "medium", "low", "unknown"];
pub const ENTRY_KINDS: [&str; 3] = ["directory", "file", "symlink"];
pub const INVENTORY_STATES: [&str; 3] = ["complete", "partial", "unknown"];
pub const EXCLUSION_REASONS: [&str; 6] = [
    "configured-secret",
    "symlink-escape",
    "size-limit",
    "inventory-limit",
    "unreadable",
    "caller-excluded",
];
/// The limitations every comparison states, first.
pub const STANDING_LIMITATIONS: [&str; 3] = [
    "Files match application nodes by digest, original-source path, current path and name only; a file compiled or transformed on its way into a bundle (TypeScript, JSX, minified) matches by digest only through a source map's sourcesContent, so analyze the application with source_maps: \"contents\".",
    "Relationships between reference files (imports, requires) are carried in the reference but not compared.",
    "A file that gives a bundle no code of its own (a module of re-exports or types only) may be left out of its source map, and so be reported removed although it was bundled.",
];

/// One entry of a reference: a file, a directory or a symlink, by its path below the root.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReferenceEntry {
    pub path: String,
    pub kind: String,
    #[serde(default)]
    pub size: Option<u64>,
    /// Lowercase hex SHA-256 of a file's bytes; null when they could not be read.
    #[serde(default)]
    pub sha256: Option<String>,
}

/// A path below the root that the reference leaves out, and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Exclusion {
    pub path: String,
    pub reason: String,
}

/// `HistoricalSourceGraph/v1`: a source tree as the comparison's reference.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Reference {
    pub schema: String,
    pub authority: String,
    pub root_alias: String,
    pub root_sha256: String,
    pub inventory_state: String,
    pub entries: Vec<ReferenceEntry>,
    #[serde(default)]
    pub relationships: Vec<Value>,
    #[serde(default)]
    pub parse_failures: Vec<Value>,
    #[serde(default)]
    pub exclusions: Vec<Exclusion>,
    #[serde(default)]
    pub languages: Value,
    #[serde(default)]
    pub manifests: Value,
    #[serde(default)]
    pub vcs: Value,
    #[serde(default)]
    pub provenance: Value,
    #[serde(default)]
    pub limitations: Vec<String>,
}

impl Reference {
    /// A reference over `entries` and `exclusions` (any order; kept sorted by path), with its
    /// languages counted from file extensions and its commitment computed.
    pub fn build(
        mut entries: Vec<ReferenceEntry>,
        mut exclusions: Vec<Exclusion>,
        complete: bool,
        manifests: Value,
        vcs: Value,
        provenance: Value,
        limitations: Vec<String>,
    ) -> Result<Reference, CanonicalError> {
        entries.sort_by(|a, b| a.path.cmp(&b.path));
        exclusions.sort_by(|a, b| a.path.cmp(&b.path));
        let mut languages: BTreeMap<String, u64> = BTreeMap::new();
        for entry in entries.iter().filter(|e| e.kind == "file") {
            if let Some(language) = language_of(&entry.path) {
                *languages.entry(language.to_owned()).or_default() += 1;
            }
        }
        let root_sha256 = root_sha256(&entries, &exclusions)?;
        Ok(Reference {
            schema: REFERENCE_SCHEMA.to_owned(),
            authority: REFERENCE_AUTHORITY.to_owned(),
            root_alias: ROOT_ALIAS.to_owned(),
            root_sha256,
            inventory_state: if complete { "complete" } else { "partial" }.to_owned(),
            entries,
            relationships: Vec::new(),
            parse_failures: Vec::new(),
            exclusions,
            languages: json!(languages),
            manifests,
            vcs,
            provenance,
            limitations,
        })
    }

    /// Reads and checks a reference given as JSON: its vocabulary, its paths (relative, no `.`
    /// or `..`, no backslash or NUL, unique), its digests, and its commitment.
    pub fn read(value: &Value) -> Result<Reference, Failure> {
        let reference: Reference = serde_json::from_value(value.clone())
            .map_err(|err| bad_reference(format!("is not a {REFERENCE_SCHEMA}: {err}")))?;
        reference.check()?;
        Ok(reference)
    }

    fn check(&self) -> Result<(), Failure> {
        if self.schema != REFERENCE_SCHEMA {
            return Err(bad_reference(format!("schema must be {REFERENCE_SCHEMA}")));
        }
        if self.authority != REFERENCE_AUTHORITY || self.root_alias != ROOT_ALIAS {
            return Err(bad_reference(format!(
                "authority must be {REFERENCE_AUTHORITY} and root_alias {ROOT_ALIAS}"
            )));
        }
        if !INVENTORY_STATES.contains(&self.inventory_state.as_str()) {
            return Err(bad_reference(
                "inventory_state is not one of complete, partial, unknown".to_owned(),
            ));
        }
        if self.entries.len() > MAX_REFERENCE_ENTRIES {
            return Err(bad_reference(format!(
                "holds more than {MAX_REFERENCE_ENTRIES} entries"
            )));
        }
        let mut seen = BTreeSet::new();
        for entry in &self.entries {
            if let Some(problem) = path_problem(&entry.path) {
                return Err(bad_reference(format!("entry {:?}: {problem}", entry.path)));
            }
            if !seen.insert(entry.path.as_str()) {
                return Err(bad_reference(format!(
                    "entry {:?} is listed twice",
                    entry.path
                )));
            }
            if !ENTRY_KINDS.contains(&entry.kind.as_str()) {
                return Err(bad_reference(format!(
                    "entry {:?}: kind must be file, directory or symlink",
                    entry.path
                )));
            }
            if let Some(sha) = &entry.sha256
                && !is_sha256(sha)
            {
                return Err(bad_reference(format!(
                    "entry {:?}: sha256 must be 64 lowercase hex digits",
                    entry.path
                )));
            }
        }
        for exclusion in &self.exclusions {
            if let Some(problem) = path_problem(&exclusion.path) {
                return Err(bad_reference(format!(
                    "exclusion {:?}: {problem}",
                    exclusion.path
                )));
            }
            if !EXCLUSION_REASONS.contains(&exclusion.reason.as_str()) {
                return Err(bad_reference(format!(
                    "exclusion {:?}: unknown reason {:?}",
                    exclusion.path, exclusion.reason
                )));
            }
        }
        let mut entries = self.entries.clone();
        entries.sort_by(|a, b| a.path.cmp(&b.path));
        let mut exclusions = self.exclusions.clone();
        exclusions.sort_by(|a, b| a.path.cmp(&b.path));
        let recomputed = root_sha256(&entries, &exclusions)
            .map_err(|_| bad_reference("could not be made canonical".to_owned()))?;
        if recomputed != self.root_sha256 {
            return Err(bad_reference(
                "root_sha256 is not the commitment of its entries and exclusions".to_owned(),
            )
            .with_detail("recomputed_root_sha256", recomputed));
        }
        Ok(())
    }
}

/// H(`{entries, exclusions}`), both sorted by path.
pub fn root_sha256(
    entries: &[ReferenceEntry],
    exclusions: &[Exclusion],
) -> Result<String, CanonicalError> {
    rea_hash::digest_canonical(&json!({"entries": entries, "exclusions": exclusions}))
}

fn bad_reference(message: String) -> Failure {
    Failure::new(FailureReason::InvalidInput, format!("reference: {message}"))
        .with_detail("field", "reference")
}

fn is_sha256(text: &str) -> bool {
    text.len() == 64 && text.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
}

/// Why `path` is not a safe relative path, if it is not.
fn path_problem(path: &str) -> Option<&'static str> {
    if path.is_empty() || path.len() > 4096 {
        return Some("must be 1 to 4096 bytes");
    }
    if path.starts_with('/') || path.contains('\\') || path.contains('\0') {
        return Some("must be relative, with / separators and no NUL");
    }
    if path.split('/').any(|part| matches!(part, "" | "." | "..")) {
        return Some("must not hold empty, . or .. components");
    }
    None
}

/// The language a file's extension names, for the reference's counts.
fn language_of(path: &str) -> Option<&'static str> {
    let (_, ext) = basename(path).rsplit_once('.')?;
    Some(match ext.to_ascii_lowercase().as_str() {
        "js" | "cjs" | "mjs" | "jsx" => "javascript",
        "ts" | "cts" | "mts" | "tsx" => "typescript",
        "json" => "json",
        "html" | "htm" => "html",
        "css" | "scss" | "sass" | "less" => "css",
        "vue" => "vue",
        "svelte" => "svelte",
        "c" | "h" => "c",
        "cc" | "cpp" | "cxx" | "hpp" | "hh" => "c++",
        "rs" => "rust",
        "py" => "python",
        "md" => "markdown",
        _ => return None,
    })
}

fn basename(path: &str) -> &str {
    path.rsplit('/').next().unwrap_or(path)
}

fn extension(path: &str) -> Option<String> {
    basename(path)
        .rsplit_once('.')
        .map(|(_, ext)| ext.to_ascii_lowercase())
}

/// A source map's original source as a path: a `scheme://` prefix cut (with webpack's
/// namespace, the segment after `webpack://`), then a query or fragment, leading `/`, `./` and
/// `../` components. `None` when nothing is left, or for a bundler's runtime module.
pub fn normalize_original(source: &str) -> Option<String> {
    let mut rest = source;
    if let Some((scheme, after)) = rest.split_once("://") {
        if scheme.is_empty()
            || !scheme
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-')
        {
            return None;
        }
        rest = after;
        if scheme == "webpack" {
            // `webpack://<namespace>/./src/x.js`, or `webpack:///src/x.js` without one.
            rest = rest.split_once('/').map_or("", |(_, path)| path);
            if rest.starts_with("webpack/") {
                return None;
            }
        }
    }
    let rest = rest.split(['?', '#']).next().unwrap_or_default();
    let parts: Vec<&str> = rest
        .split('/')
        .filter(|part| !matches!(*part, "" | "." | ".."))
        .collect();
    (!parts.is_empty()).then(|| parts.join("/"))
}

/// The bounds of one comparison.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    pub max_source_files: usize,
    pub max_application_nodes: usize,
    pub max_candidate_nodes: usize,
    pub max_candidate_evaluations: u64,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_source_files: DEFAULT_SOURCE_FILES,
            max_application_nodes: DEFAULT_APPLICATION_NODES,
            max_candidate_nodes: DEFAULT_CANDIDATE_NODES,
            max_candidate_evaluations: DEFAULT_CANDIDATE_EVALUATIONS,
        }
    }
}

#[derive(Deserialize)]
struct ResultIn {
    graph: GraphIn,
    #[serde(default)]
    statistics: StatisticsIn,
}

#[derive(Deserialize)]
struct GraphIn {
    graph_id: String,
    coverage: CoverageIn,
    nodes: Vec<NodeIn>,
    edges: Vec<EdgeIn>,
}

/// A node, read down to the fields the comparison uses (any other field is skipped, and a
/// field of an unexpected type reads as absent).
#[derive(Deserialize)]
struct NodeIn {
    node_id: String,
    kind: String,
    identity: IdentityIn,
    observations: Vec<ObservationIn>,
}

#[derive(Deserialize)]
struct IdentityIn {
    #[serde(default)]
    strategy: Value,
    #[serde(default)]
    sha256: Value,
    #[serde(default)]
    original_source: Value,
    #[serde(default)]
    source_sha256: Value,
}

#[derive(Deserialize)]
struct ObservationIn {
    #[serde(default)]
    label: Value,
    #[serde(default)]
    properties: PropertiesIn,
}

#[derive(Deserialize, Default)]
struct PropertiesIn {
    #[serde(default)]
    path: Value,
    #[serde(default)]
    source_map_path: Value,
}

#[derive(Deserialize)]
struct EdgeIn {
    source_node_id: String,
    target_node_id: String,
    relation: String,
}

#[derive(Deserialize, Default)]
struct StatisticsIn {
    limit_omitted_text_files: Option<u64>,
    truncated_scopes: Option<u64>,
    dropped_findings: Option<u64>,
}

/// An application node a reference file may match.
struct Current {
    node_id: String,
    kind: String,
    label: Option<String>,
    /// The node's path, or its original source's normalized path.
    path: String,
    /// A `source-module` (its path is an original source's).
    original: bool,
    digest: Option<String>,
}

/// The application, read down to what the comparison needs.
struct Application {
    graph_id: String,
    graph_status: String,
    cut: bool,
    nodes: Vec<Current>,
    /// Bundles: assets holding module factories or chunks.
    bundles: usize,
    /// Bundles whose original sources are not listed.
    unmapped_bundles: usize,
    /// Bundles whose original sources are listed: what they hold is those sources.
    mapped_bundles: HashSet<String>,
}

impl Application {
    fn read(bytes: &[u8]) -> Result<Application, Failure> {
        let result: ResultIn = serde_json::from_slice(bytes).map_err(|err| {
            Failure::new(
                FailureReason::InvalidInput,
                "application: is not an application graph result",
            )
            .with_detail("side", "application")
            .with_detail("problem", err.to_string())
        })?;
        let ResultIn { graph, statistics } = result;
        let cut = match (
            statistics.limit_omitted_text_files,
            statistics.truncated_scopes,
            statistics.dropped_findings,
        ) {
            (Some(files), Some(scopes), Some(findings)) => files + scopes + findings > 0,
            _ => graph.coverage.truncated,
        };
        let kinds: HashMap<&str, &str> = graph
            .nodes
            .iter()
            .map(|n| (n.node_id.as_str(), n.kind.as_str()))
            .collect();
        // Bundles, and the nodes that list original sources (an asset itself, for an inline
        // map read whole, or the source-map node it maps to).
        let mut bundles = BTreeSet::new();
        let mut lists_sources = BTreeSet::new();
        let mut maps: Vec<(&str, &str)> = Vec::new();
        for edge in &graph.edges {
            let target = kinds.get(edge.target_node_id.as_str()).copied();
            match (edge.relation.as_str(), target) {
                ("contains", Some("javascript-module" | "javascript-chunk")) => {
                    bundles.insert(edge.source_node_id.as_str());
                }
                ("contains", Some("source-module")) => {
                    lists_sources.insert(edge.source_node_id.as_str());
                }
                ("maps_to", _) => maps.push((&edge.source_node_id, &edge.target_node_id)),
                _ => {}
            }
        }
        // A map file's node is not always the node that lists its sources: those name the map
        // they came from by its path (an inline map, by its asset's).
        let paths: HashMap<&str, &str> = graph
            .nodes
            .iter()
            .filter_map(|n| {
                let path = n
                    .observations
                    .iter()
                    .find_map(|o| o.properties.path.as_str())?;
                Some((n.node_id.as_str(), path))
            })
            .collect();
        let path_of = |id: &str| paths.get(id).copied();
        let map_paths: BTreeSet<&str> = graph
            .nodes
            .iter()
            .filter(|n| n.kind == "source-module")
            .flat_map(|n| &n.observations)
            .filter_map(|o| o.properties.source_map_path.as_str())
            .collect();
        let mut mapped: BTreeSet<&str> = lists_sources.clone();
        for (asset, map) in maps {
            if lists_sources.contains(map) || path_of(map).is_some_and(|p| map_paths.contains(p)) {
                mapped.insert(asset);
            }
        }
        for bundle in &bundles {
            if path_of(bundle).is_some_and(|p| map_paths.contains(p)) {
                mapped.insert(bundle);
            }
        }
        let unmapped_bundles = bundles
            .iter()
            .filter(|b| kinds.get(*b) == Some(&"javascript-asset") && !mapped.contains(*b))
            .count();
        let mut nodes = Vec::new();
        for node in &graph.nodes {
            let identity = &node.identity;
            let label = node
                .observations
                .first()
                .and_then(|o| o.label.as_str())
                .map(str::to_owned);
            if node.kind == "source-module" {
                let Some(path) = identity
                    .original_source
                    .as_str()
                    .and_then(normalize_original)
                else {
                    continue;
                };
                nodes.push(Current {
                    node_id: node.node_id.clone(),
                    kind: node.kind.clone(),
                    label,
                    path,
                    original: true,
                    digest: identity.source_sha256.as_str().map(str::to_owned),
                });
            } else if identity.strategy == "content-digest" {
                let paths: BTreeSet<&str> = node
                    .observations
                    .iter()
                    .filter_map(|o| o.properties.path.as_str())
                    .collect();
                for path in paths {
                    nodes.push(Current {
                        node_id: node.node_id.clone(),
                        kind: node.kind.clone(),
                        label: label.clone(),
                        path: path.to_owned(),
                        original: false,
                        digest: identity.sha256.as_str().map(str::to_owned),
                    });
                }
            }
        }
        nodes.sort_by(|a, b| (&a.path, &a.node_id).cmp(&(&b.path, &b.node_id)));
        Ok(Application {
            graph_id: graph.graph_id,
            graph_status: graph.coverage.status,
            cut,
            nodes,
            bundles: bundles
                .iter()
                .filter(|b| kinds.get(*b) == Some(&"javascript-asset"))
                .count(),
            unmapped_bundles,
            mapped_bundles: bundles
                .iter()
                .filter(|b| mapped.contains(*b))
                .map(|b| (*b).to_owned())
                .collect(),
        })
    }
}

/// One scored candidate: a projected node, its score and its signals (indexes into
/// [`SIGNALS`]).
struct Scored {
    node: usize,
    score: u32,
    signals: Vec<usize>,
}

impl Scored {
    fn has(&self, signal: usize) -> bool {
        self.signals.contains(&signal)
    }

    fn has_path(&self) -> bool {
        self.has(ORIGINAL) || self.has(EXACT) || self.has(SUFFIX)
    }
}

/// Scores `node` as a match for the file at `path` with digest `sha`.
fn score(path: &str, sha: Option<&str>, node: &Current) -> Scored {
    let mut signals = Vec::new();
    if sha.is_some() && node.digest.as_deref() == sha {
        signals.push(DIGEST);
    }
    let suffix = node.path.len() > path.len()
        && node.path.ends_with(path)
        && node.path.as_bytes()[node.path.len() - path.len() - 1] == b'/';
    if node.original {
        if node.path == path || suffix {
            signals.push(ORIGINAL);
        }
    } else if node.path == path {
        signals.push(EXACT);
    } else if suffix {
        signals.push(SUFFIX);
    }
    if basename(&node.path) == basename(path) {
        signals.push(BASENAME);
    }
    if extension(&node.path).is_some() && extension(&node.path) == extension(path) {
        signals.push(EXTENSION);
    }
    let score = signals.iter().map(|s| SIGNALS[*s].1).sum();
    Scored {
        node: 0,
        score,
        signals,
    }
}

/// What one file came to, before it is written as an item.
struct Outcome {
    status: &'static str,
    reason: Option<&'static str>,
    confidence: &'static str,
    matches: Vec<Scored>,
    /// The one node a path named, for `merged`.
    best: Option<usize>,
}

/// Compares `reference` with the application result `app_bytes` (the `normalized_result` of
/// validated `analyze_javascript_application` Evidence whose id is `app_evidence_id`).
pub fn compare(
    cx: &StageCx<'_>,
    reference: &Reference,
    app_bytes: &[u8],
    app_evidence_id: &str,
    limits: Limits,
    parameters: &Value,
) -> Result<Value, Failure> {
    let app = Application::read(app_bytes)?;
    cx.check()?;
    let mut by_digest: HashMap<&str, Vec<usize>> = HashMap::new();
    let mut by_name: HashMap<&str, Vec<usize>> = HashMap::new();
    for (i, node) in app.nodes.iter().enumerate() {
        if let Some(digest) = &node.digest {
            by_digest.entry(digest).or_default().push(i);
        }
        by_name.entry(basename(&node.path)).or_default().push(i);
    }
    let files: Vec<&ReferenceEntry> = reference
        .entries
        .iter()
        .filter(|e| e.kind == "file")
        .collect();
    let omitted_files = files.len().saturating_sub(limits.max_source_files);
    let files = &files[..files.len() - omitted_files];
    let reference_complete = reference.inventory_state == "complete";
    // A file with no candidate is absent whatever the bounds: they only stop candidates from
    // being considered.
    let application_complete = !app.cut;
    let mut evaluations: u64 = 0;
    let mut evaluation_limit = false;
    // The application nodes scored so far, at most max_application_nodes.
    let mut considered: HashSet<usize> = HashSet::new();
    let mut node_limit = false;
    let mut outcomes = Vec::with_capacity(files.len());
    for file in files {
        cx.check()?;
        let sha = file.sha256.as_deref();
        let mut candidates: BTreeSet<usize> = BTreeSet::new();
        if let Some(sha) = sha {
            candidates.extend(by_digest.get(sha).into_iter().flatten());
        }
        candidates.extend(by_name.get(basename(&file.path)).into_iter().flatten());
        let fresh = candidates
            .iter()
            .filter(|i| !considered.contains(i))
            .count();
        let cut = if evaluations + candidates.len() as u64 > limits.max_candidate_evaluations {
            evaluation_limit = true;
            Some("evaluation-limit")
        } else if considered.len() + fresh > limits.max_application_nodes {
            node_limit = true;
            Some("node-limit")
        } else {
            None
        };
        if let Some(reason) = cut {
            outcomes.push(Outcome {
                status: "unknown",
                reason: Some(reason),
                confidence: "unknown",
                matches: Vec::new(),
                best: None,
            });
            continue;
        }
        evaluations += candidates.len() as u64;
        considered.extend(candidates.iter().copied());
        let mut scored: Vec<Scored> = candidates
            .into_iter()
            .map(|i| Scored {
                node: i,
                ..score(&file.path, sha, &app.nodes[i])
            })
            .filter(|s| s.score >= MINIMUM_SCORE)
            .collect();
        scored.sort_by(|a, b| {
            b.score
                .cmp(&a.score)
                .then_with(|| app.nodes[a.node].path.cmp(&app.nodes[b.node].path))
                .then_with(|| app.nodes[a.node].node_id.cmp(&app.nodes[b.node].node_id))
        });
        outcomes.push(decide(
            &file.path,
            scored,
            &app,
            reference_complete,
            application_complete,
        ));
    }
    // Two or more files whose one best node is the same node are merged into it.
    let mut claims: HashMap<usize, usize> = HashMap::new();
    for outcome in &outcomes {
        if let Some(node) = outcome.best {
            *claims.entry(node).or_default() += 1;
        }
    }
    for outcome in &mut outcomes {
        if outcome.best.is_some_and(|node| claims[&node] > 1) {
            outcome.status = "merged";
            outcome.reason = None;
        }
    }
    // Application sources and assets that no file matched.
    let matched: BTreeSet<usize> = outcomes
        .iter()
        .filter(|o| o.status != "unknown" || o.reason == Some("no-digest"))
        .flat_map(|o| o.matches.iter().map(|s| s.node))
        .collect();
    let only: Vec<&Current> = app
        .nodes
        .iter()
        .enumerate()
        .filter(|(i, n)| {
            !matched.contains(i)
                && (n.original
                    || (n.kind == "javascript-asset" && !app.mapped_bundles.contains(&n.node_id)))
        })
        .map(|(_, n)| n)
        .collect();
    // What the application holds beyond its dependencies comes first: code no source file
    // accounts for is what a reverse engineer looks at.
    let dependency = |n: &&Current| is_dependency(&n.path);
    let (own, dependencies): (Vec<&Current>, Vec<&Current>) =
        only.iter().partition(|n| !dependency(n));
    // Items, and counts.
    let mut counts: BTreeMap<&str, u64> = STATUSES.iter().map(|s| (*s, 0)).collect();
    let mut reasons: BTreeMap<&str, u64> = BTreeMap::new();
    let mut items = Vec::with_capacity(outcomes.len());
    for (file, outcome) in files.iter().zip(outcomes) {
        *counts.entry(outcome.status).or_default() += 1;
        if let Some(reason) = outcome.reason {
            *reasons.entry(reason).or_default() += 1;
        }
        let listed = outcome.matches.len().min(limits.max_candidate_nodes);
        let matches: Vec<Value> = outcome.matches[..listed]
            .iter()
            .map(|s| {
                let node = &app.nodes[s.node];
                json!({
                    "node_id": node.node_id,
                    "kind": node.kind,
                    "label": node.label,
                    "path": node.path,
                    "score": s.score,
                    "signals": s.signals.iter().map(|i| SIGNALS[*i].0).collect::<Vec<_>>(),
                })
            })
            .collect();
        let top = outcome.matches.first();
        let mut item = json!({
            "source_path": file.path,
            "source_sha256": file.sha256,
            "status": outcome.status,
            "reason": outcome.reason,
            "confidence": outcome.confidence,
            "score": top.map_or(0, |s| s.score),
            "matches": matches,
            "omitted_matches": outcome.matches.len() - listed,
        });
        let id = item_id(&item).map_err(no_json)?;
        item["item_id"] = json!(id);
        items.push(item);
    }
    let truncated = omitted_files > 0 || node_limit || evaluation_limit;
    let status = if truncated {
        "truncated"
    } else if !reference_complete || app.cut || counts["unknown"] > 0 {
        "partial"
    } else {
        "complete"
    };
    let summary = json!({
        "source_files": files.len() + omitted_files,
        "compared_files": files.len(),
        "unchanged": counts["unchanged"],
        "modified": counts["modified"],
        "removed": counts["removed"],
        "split": counts["split"],
        "merged": counts["merged"],
        "duplicated": counts["duplicated"],
        "unknown": counts["unknown"],
        "unknown_reasons": reasons,
        "application_only": only.len(),
        "candidate_evaluations": evaluations,
        "projected_application_nodes": app.nodes.len(),
        "considered_application_nodes": considered.len(),
        "unmapped_bundles": app.unmapped_bundles,
    });
    let item_ids: Vec<Value> = items.iter().map(|i| i["item_id"].clone()).collect();
    let comparison_id = comparison_id(
        &app.graph_id,
        &reference.root_sha256,
        parameters,
        &summary,
        &item_ids,
    )
    .map_err(no_json)?;
    let mut limitations: Vec<String> = STANDING_LIMITATIONS
        .iter()
        .map(|s| (*s).to_owned())
        .collect();
    if !reference_complete {
        limitations.push(format!(
            "The reference's inventory is {}: no file is reported removed.",
            reference.inventory_state
        ));
    }
    if app.cut {
        limitations
            .push("A limit cut the application's graph: no file is reported removed.".to_owned());
    }
    if app.unmapped_bundles > 0 {
        limitations.push(format!(
            "{} bundle(s) of the application list no original sources (no source map, or one whose sources were not read): a file absent elsewhere may be inside one, so none is reported removed.",
            app.unmapped_bundles
        ));
    }
    if omitted_files > 0 {
        limitations.push(format!(
            "{omitted_files} reference file(s) past max_source_files {} were not compared.",
            limits.max_source_files
        ));
    }
    if node_limit {
        limitations.push(format!(
            "max_application_nodes {} was reached: files whose candidates would pass it are unknown.",
            limits.max_application_nodes
        ));
    }
    if evaluation_limit {
        limitations.push(format!(
            "max_candidate_evaluations {} was reached: the remaining files are unknown.",
            limits.max_candidate_evaluations
        ));
    }
    limitations.extend(
        reference
            .limitations
            .iter()
            .map(|l| format!("reference: {l}")),
    );
    let files_total = reference
        .entries
        .iter()
        .filter(|e| e.kind == "file")
        .count();
    Ok(json!({
        "schema": SCHEMA,
        "schema_version": 1,
        "comparison_id": comparison_id,
        "application_evidence_id": app_evidence_id,
        "application_graph_id": app.graph_id,
        "reference_root_sha256": reference.root_sha256,
        "reference": {
            "inventory_state": reference.inventory_state,
            "entries": reference.entries.len(),
            "files": files_total,
            "exclusions": reference.exclusions,
            "languages": reference.languages,
            "manifests": reference.manifests,
            "vcs": reference.vcs,
            "provenance": reference.provenance,
        },
        "signals": SIGNALS.iter().map(|(s, w)| json!({"signal": s, "weight": w})).collect::<Vec<_>>(),
        "minimum_score": MINIMUM_SCORE,
        "items": items,
        "application_only": {
            "count": only.len(),
            "outside_dependencies": own.len(),
            "nodes": own.iter().chain(&dependencies).take(MAX_APPLICATION_ONLY).map(|n| json!({
                "node_id": n.node_id, "kind": n.kind, "path": n.path,
            })).collect::<Vec<_>>(),
        },
        "summary": summary,
        "coverage": {
            "status": status,
            "reference_inventory_state": reference.inventory_state,
            "application_graph_status": app.graph_status,
            "application_cut": app.cut,
            "omitted_source_files": omitted_files,
            "node_limit_reached": node_limit,
            "evaluation_limit_reached": evaluation_limit,
        },
        "limitations": limitations,
    }))
}

/// The status of one file given its candidates, best first.
fn decide(
    path: &str,
    scored: Vec<Scored>,
    app: &Application,
    reference_complete: bool,
    application_complete: bool,
) -> Outcome {
    let outcome = |status, reason, confidence, matches, best| Outcome {
        status,
        reason,
        confidence,
        matches,
        best,
    };
    let (digest, others): (Vec<Scored>, Vec<Scored>) =
        scored.into_iter().partition(|s| s.has(DIGEST));
    if !digest.is_empty() {
        // The file's bytes at its own path (or at one path only: a file, or one source
        // several maps list) is the file shipped unchanged, whatever copies sit elsewhere;
        // bytes found only at several other paths are duplicates.
        let path = |s: &Scored| app.nodes[s.node].path.as_str();
        let own: BTreeSet<&str> = digest.iter().filter(|s| s.has_path()).map(path).collect();
        let paths: BTreeSet<&str> = digest.iter().map(path).collect();
        return if own.len() == 1 || paths.len() == 1 {
            outcome("unchanged", None, "exact", digest, None)
        } else {
            outcome("duplicated", None, "exact", digest, None)
        };
    }
    let Some(top) = others.first() else {
        return absent(path, app, reference_complete, application_complete);
    };
    if !top.has_path() {
        return outcome("unknown", Some("weak-match"), "low", others, None);
    }
    let best = top.score;
    let tied: Vec<Scored> = others.into_iter().filter(|s| s.score == best).collect();
    let confidence = if tied[0].has(ORIGINAL) || tied[0].has(EXACT) {
        "high"
    } else {
        "medium"
    };
    if tied.len() > 1 {
        return outcome("split", None, confidence, tied, None);
    }
    let node = tied[0].node;
    if app.nodes[node].digest.is_none() {
        return outcome("unknown", Some("no-digest"), confidence, tied, None);
    }
    outcome("modified", None, confidence, tied, Some(node))
}

/// A file no node matched: `removed` only when its absence means something.
fn absent(
    path: &str,
    app: &Application,
    reference_complete: bool,
    application_complete: bool,
) -> Outcome {
    let reason = if !reference_complete {
        Some("incomplete-reference")
    } else if !application_complete {
        Some("incomplete-application")
    } else if rea_parse::FileKind::of(path).is_none() {
        Some("not-analyzed-kind")
    } else if app.unmapped_bundles > 0 {
        Some("unmapped-bundles")
    } else if app.bundles > 0 && !is_script(path) {
        // Bundlers inline JSON (and other assets) without listing them in source maps.
        Some("not-listed-by-source-maps")
    } else {
        None
    };
    match reason {
        Some(reason) => Outcome {
            status: "unknown",
            reason: Some(reason),
            confidence: "unknown",
            matches: Vec::new(),
            best: None,
        },
        None => Outcome {
            status: "removed",
            reason: None,
            confidence: "medium",
            matches: Vec::new(),
            best: None,
        },
    }
}

/// A path inside a package dependency (`node_modules/`, or a bundler's `~/` alias of it).
fn is_dependency(path: &str) -> bool {
    path.starts_with("node_modules/") || path.contains("/node_modules/") || path.starts_with("~/")
}

/// A script a source map lists when it is bundled: JavaScript or TypeScript.
fn is_script(path: &str) -> bool {
    matches!(
        extension(path).as_deref(),
        Some("js" | "cjs" | "mjs" | "jsx" | "ts" | "tsx" | "cts" | "mts")
    )
}

fn no_json(_: CanonicalError) -> Failure {
    Failure::new(
        FailureReason::Internal,
        "comparison could not be made canonical",
    )
}

/// `jscbi_` + H(the item without `item_id`).
pub fn item_id(item: &Value) -> Result<String, CanonicalError> {
    rea_hash::content_id_without(ITEM_PREFIX, item, "item_id")
}

/// `jscb_` + H(`{application_graph_id, item_ids, parameters, reference_root_sha256, summary}`).
pub fn comparison_id(
    application_graph_id: &str,
    reference_root_sha256: &str,
    parameters: &Value,
    summary: &Value,
    item_ids: &[Value],
) -> Result<String, CanonicalError> {
    rea_hash::content_id(
        COMPARISON_PREFIX,
        &json!({
            "application_graph_id": application_graph_id,
            "item_ids": item_ids,
            "parameters": parameters,
            "reference_root_sha256": reference_root_sha256,
            "summary": summary,
        }),
    )
}

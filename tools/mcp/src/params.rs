//! Tool inputs and outputs as Rust types. `schemars` turns them into the advertised JSON
//! Schemas, and serde decodes calls with them, so the schema and the decoder cannot disagree.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

pub use rea_jobs::overrides::{
    LimitOverrides as LimitsParam, TextLimitOverrides as TextLimitsParam,
};

#[derive(Debug, Clone, Copy, Default, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum PolicyParam {
    /// Fail the call at the first integrity mismatch (`artifact_integrity_mismatch`).
    #[default]
    Fail,
    /// Record each mismatch as a contradiction and continue with verified siblings.
    RecordAndContinue,
}

/// Declares a tool input that names an artifact: `input_path`, `limits`, the integrity policy,
/// then the tool's own fields. (serde's `flatten` cannot be combined with
/// `deny_unknown_fields`, so the shared fields are spelled out by this macro instead.)
macro_rules! artifact_params {
    ($(#[$doc:meta])* $name:ident { $($(#[$fdoc:meta])* $field:ident : $ty:ty,)* }) => {
        $(#[$doc])*
        #[derive(Debug, Deserialize, JsonSchema)]
        #[serde(deny_unknown_fields)]
        pub struct $name {
            /// Absolute path of a directory, `.asar` (with its `.asar.unpacked/`), ZIP-family or
            /// tar-family archive (`.tar.gz`, `.deb`, …), RPM package, 7z archive, SquashFS image
            /// (AppImage, snap), Windows installer (`.exe`, `.msi`), cabinet (`.cab`), macOS disk image (`.dmg`) or package (`.pkg`), or file.
            pub input_path: String,
            pub limits: Option<LimitsParam>,
            /// `fail` (default) or `record-and-continue`.
            pub integrity_policy: Option<PolicyParam>,
            /// With `record-and-continue`: fail after this many mismatches, 1 to 100 (default 10).
            pub max_integrity_mismatches: Option<u32>,
            $($(#[$fdoc])* pub $field: $ty,)*
        }

        impl ArtifactParams for $name {
            fn input_path(&self) -> &str {
                &self.input_path
            }
            fn limits(&self) -> Option<&LimitsParam> {
                self.limits.as_ref()
            }
            fn integrity_policy(&self) -> Option<PolicyParam> {
                self.integrity_policy
            }
            fn max_integrity_mismatches(&self) -> Option<u32> {
                self.max_integrity_mismatches
            }
        }
    };
}

/// The fields every artifact tool input has.
pub trait ArtifactParams {
    fn input_path(&self) -> &str;
    fn limits(&self) -> Option<&LimitsParam>;
    fn integrity_policy(&self) -> Option<PolicyParam>;
    fn max_integrity_mismatches(&self) -> Option<u32>;
}

artifact_params!(InventoryParams {
    /// First item of each page of nodes, occurrences and edges (default 0).
    offset: Option<u64>,
    /// Items per page, 1 to 500 (default 100).
    limit: Option<u64>,
    /// List everything instead of one page; large inventories may then exceed the response budget.
    all: Option<bool>,
});

artifact_params!(InspectParams {
    /// Items per list (largest files, entrypoints, containers), 1 to 500 (default 20).
    max_observations: Option<u32>,
});

artifact_params!(ExtractParams {
    /// Occurrence ids (`occ_…`) from an inventory of the same input.
    occurrence_ids: Option<Vec<String>>,
    /// Globs over logical paths, such as `**/package.json`.
    globs: Option<Vec<String>>,
});

#[derive(Debug, Clone, Copy, Default, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum FormatParam {
    #[default]
    Auto,
    Asar,
    Directory,
    Zip,
    Tar,
    Squashfs,
    Rpm,
    #[serde(rename = "7z")]
    SevenZ,
    Exe,
    Msi,
    Cab,
    Dmg,
    Pkg,
}

#[derive(Debug, Clone, Copy, Default, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum SourceMapsParam {
    /// Inventory source maps and link the declarations that name them.
    #[default]
    Declarations,
    /// Also record original source names and content digests (never the contents).
    Contents,
}

artifact_params!(AnalyzeParams {
    /// What the input must be; `auto` (default) accepts a directory, ASAR, ZIP, tar, .deb, .rpm, .7z, AppImage, snap, Windows installer (.exe or .msi), cabinet, macOS disk image (.dmg) or package (.pkg).
    format: Option<FormatParam>,
    /// `declarations` (default) or `contents`.
    source_maps: Option<SourceMapsParam>,
    text_limits: Option<TextLimitsParam>,
});

/// One side of a comparison: complete inline Evidence (or the `{result, evidence_id,
/// evidence}` envelope a tool returned), or a reference to a record this connection retains.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum EvidenceInput {
    Retained(RetainedEvidence),
    Inline(Map<String, Value>),
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RetainedEvidence {
    pub kind: RetainedKind,
    /// `ev_` and 64 lowercase hex digits, as a tool of this connection returned it.
    #[schemars(regex(pattern = r"^ev_[0-9a-f]{64}$"))]
    pub evidence_id: String,
}

#[derive(Debug, Deserialize, JsonSchema)]
pub enum RetainedKind {
    #[serde(rename = "retained-evidence")]
    RetainedEvidence,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CompareParams {
    /// The earlier version: `inventory_artifact` or `inspect_artifact` Evidence.
    pub left: EvidenceInput,
    /// The later version.
    pub right: EvidenceInput,
    /// Changes listed inline, 1 to 500 (default 500); the counts always cover all.
    pub max_changes: Option<u64>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct VersionsParams {
    /// The earlier version: `analyze_javascript_application` Evidence.
    pub left: EvidenceInput,
    /// The later version.
    pub right: EvidenceInput,
    /// Items listed inline, 1 to 50,000 (default 20,000); the summary counts all.
    pub max_comparison_items: Option<u64>,
    /// Candidates listed per ambiguous item, 1 to 1,000 (default 100).
    pub max_candidate_nodes: Option<u64>,
    /// Nodes of the changed_from graph, 1 to 100,000 (default 20,000).
    pub max_graph_nodes: Option<u64>,
    /// Edges of the changed_from graph, 1 to 200,000 (default 40,000).
    pub max_graph_edges: Option<u64>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SourcesParams {
    /// The historical source tree: `{kind: "directory", input_path}` names a directory (an
    /// absolute path, such as a repository checkout) that rea inventories (version-control
    /// metadata, node_modules and likely secrets left out); or a complete
    /// `HistoricalSourceGraph/v1` object (schema, authority "historical-reference", root_alias
    /// "$REFERENCE_ROOT", root_sha256 = SHA-256 of the canonical JSON of {entries, exclusions}
    /// sorted by path, inventory_state, entries of {path, kind, size, sha256}).
    pub reference: ReferenceParam,
    /// The application: `analyze_javascript_application` Evidence (analyzed with
    /// `source_maps: "contents"` to match bundled sources).
    pub application: EvidenceInput,
    pub limits: Option<SourcesLimitsParam>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ShapesParams {
    /// The earlier version: `analyze_javascript_application` Evidence.
    pub left: EvidenceInput,
    /// The later version (the same record compares two exports of one version).
    pub right: EvidenceInput,
    /// The module's path in the left analysis, exactly as its `export_shapes` lists it.
    pub left_module_path: String,
    /// A bundled module factory's key in that file (`"123"`, `"./src/api.js"`), as the
    /// analysis lists it; omitted for the file's own top-level exports.
    pub left_module_key: Option<String>,
    /// The export's name: `default` for a default export or a whole CommonJS export.
    pub left_export_name: String,
    /// The module's path on the right (default: left_module_path).
    pub right_module_path: Option<String>,
    /// The factory's key on the right (default: left_module_key; keys change between builds).
    pub right_module_key: Option<String>,
    /// The export's name on the right (default: left_export_name).
    pub right_export_name: Option<String>,
    pub limits: Option<ShapesLimitsParam>,
}

#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ShapesLimitsParam {
    /// Changes listed, 1 to 10,000 (default 1,000); the summary counts all.
    pub max_changes: Option<u64>,
    /// Candidates listed for a selector that matches no export, 0 to 1,000 (default 50).
    pub max_candidates: Option<u64>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum ReferenceParam {
    Directory(DirectoryReference),
    Graph(Map<String, Value>),
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DirectoryReference {
    pub kind: DirectoryKind,
    /// An absolute path of a directory.
    pub input_path: String,
}

#[derive(Debug, Deserialize, JsonSchema)]
pub enum DirectoryKind {
    #[serde(rename = "directory")]
    Directory,
}

#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SourcesLimitsParam {
    /// Reference files compared, 1 to 100,000 (default 10,000).
    pub max_source_files: Option<u64>,
    /// Application nodes considered, 1 to 100,000 (default 20,000).
    pub max_application_nodes: Option<u64>,
    /// Matches listed per file, 1 to 1,000 (default 100).
    pub max_candidate_nodes: Option<u64>,
    /// (file, node) pairs scored in all, 1 to 10,000,000 (default 1,000,000).
    pub max_candidate_evaluations: Option<u64>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TraceParams {
    /// The application: `analyze_javascript_application` Evidence.
    pub application: EvidenceInput,
    /// Native Evidence records, at most 64 (for example `inventory_artifact` of an add-on): a
    /// native handoff whose add-on's SHA-256 equals a record's subject digest is linked to it.
    pub native_observations: Option<Vec<EvidenceInput>>,
    pub seed: SeedParam,
    /// `outgoing` (what the seed leads to), `incoming` (what leads to it) or `both` (default).
    pub direction: Option<DirectionParam>,
    pub limits: Option<TraceLimitsParam>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SemanticsParams {
    /// The application: `analyze_javascript_application` Evidence whose result has a
    /// `semantic_graph` (an older analysis is refused with the reason `reanalyze`).
    pub application: EvidenceInput,
    pub query: SemanticQueryParam,
    pub limits: Option<SemanticLimitsParam>,
}

/// What to look for and which way to go.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SemanticQueryParam {
    pub seed: SemanticSeedParam,
    /// `forward-influence` (where values go), `backward-provenance` (where they come from),
    /// `callers` (who calls a function), `ownership` (what owns a node or task).
    pub direction: SemanticDirectionParam,
    /// Relations followed, 1 to 44 of the semantic relations (default: all).
    pub allowed_relations: Option<Vec<String>>,
    /// Follow `candidate` relations (one of several possible callees); default false.
    pub include_ambiguous_dynamic_edges: Option<bool>,
    /// Report the traversed nodes of these kinds as the query's endpoints.
    pub filter: Option<SemanticFilterParam>,
    /// Only `{authority: "none"}`: source maps are not consulted.
    pub source_map_authority: Option<SourceMapAuthorityParam>,
    /// The `next_cursor` of an earlier page of the same query.
    pub cursor: Option<String>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SemanticSeedParam {
    /// `semantic-node`, `application-node`, `function` (a name), `property`, `endpoint` (a
    /// URL), `event`, `boundary-field` or `literal`.
    pub kind: SemanticSeedKindParam,
    /// 1 to 4096 characters, compared literally and with case.
    #[schemars(length(min = 1, max = 4096))]
    pub value: String,
    /// `exact` (default) or `contains`.
    #[serde(rename = "match")]
    pub matching: Option<MatchParam>,
}

#[derive(Debug, Clone, Copy, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum SemanticSeedKindParam {
    SemanticNode,
    ApplicationNode,
    Function,
    Property,
    Endpoint,
    Event,
    BoundaryField,
    Literal,
}

impl SemanticSeedKindParam {
    pub fn as_str(self) -> &'static str {
        match self {
            SemanticSeedKindParam::SemanticNode => "semantic-node",
            SemanticSeedKindParam::ApplicationNode => "application-node",
            SemanticSeedKindParam::Function => "function",
            SemanticSeedKindParam::Property => "property",
            SemanticSeedKindParam::Endpoint => "endpoint",
            SemanticSeedKindParam::Event => "event",
            SemanticSeedKindParam::BoundaryField => "boundary-field",
            SemanticSeedKindParam::Literal => "literal",
        }
    }
}

#[derive(Debug, Clone, Copy, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum SemanticDirectionParam {
    BackwardProvenance,
    ForwardInfluence,
    Callers,
    Ownership,
}

impl SemanticDirectionParam {
    pub fn as_str(self) -> &'static str {
        match self {
            SemanticDirectionParam::BackwardProvenance => "backward-provenance",
            SemanticDirectionParam::ForwardInfluence => "forward-influence",
            SemanticDirectionParam::Callers => "callers",
            SemanticDirectionParam::Ownership => "ownership",
        }
    }
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SemanticFilterParam {
    /// `source` or `sink`.
    pub role: String,
    /// 1 to 24 semantic node kinds (`child-process`, `request`, `config-source`…).
    pub classes: Vec<String>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SourceMapAuthorityParam {
    /// `none`.
    pub authority: String,
}

/// The query's bounds; what a bound cuts is counted and makes the result `truncated`.
#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SemanticLimitsParam {
    /// Seed matches traced, 1 to 1,000 (default 25).
    pub max_seed_matches: Option<u64>,
    /// Nodes traced, 1 to 50,000 (default 2,000).
    pub max_nodes: Option<u64>,
    /// Relations traced, 1 to 100,000 (default 4,000).
    pub max_edges: Option<u64>,
    /// Steps from a seed, 0 to 64 (default 12).
    pub max_depth: Option<u64>,
    /// Function nodes traced, 1 to 10,000 (default 500).
    pub max_functions: Option<u64>,
    /// Modules traced, 1 to 10,000 (default 500).
    pub max_modules: Option<u64>,
    /// Unknowns listed, 0 to 10,000 (default 1,000).
    pub max_unknowns: Option<u64>,
    /// Nodes per page, 1 to 1,000 (default 200).
    pub page_size: Option<u64>,
}

/// Where the feature starts: nodes whose fields equal (or contain) `value`, compared
/// literally, without patterns.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SeedParam {
    /// `api` (a contextBridge API, a member, or an API a process calls), `channel` (IPC),
    /// `module` (a file, module factory or original source; exact also matches a path's last
    /// segments), `route`, `native-export`, `string` (any label or string), or `node-id`.
    pub kind: SeedKindParam,
    /// 1 to 4096 characters.
    #[schemars(length(min = 1, max = 4096))]
    pub value: String,
    /// `exact` or `contains`; by default `contains` for a `string` seed, `exact` otherwise.
    #[serde(rename = "match")]
    pub matching: Option<MatchParam>,
    /// Compare with case (default false).
    pub case_sensitive: Option<bool>,
}

#[derive(Debug, Clone, Copy, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum SeedKindParam {
    NodeId,
    Route,
    String,
    Api,
    Channel,
    Module,
    NativeExport,
}

impl SeedKindParam {
    pub fn as_str(self) -> &'static str {
        match self {
            SeedKindParam::NodeId => "node-id",
            SeedKindParam::Route => "route",
            SeedKindParam::String => "string",
            SeedKindParam::Api => "api",
            SeedKindParam::Channel => "channel",
            SeedKindParam::Module => "module",
            SeedKindParam::NativeExport => "native-export",
        }
    }
}

#[derive(Debug, Clone, Copy, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum MatchParam {
    Exact,
    Contains,
}

#[derive(Debug, Clone, Copy, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum DirectionParam {
    Outgoing,
    Incoming,
    Both,
}

/// The trace's bounds; what a bound cuts is counted and makes the trace `truncated`.
#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TraceLimitsParam {
    /// Seed matches traced, 1 to 1,000 (default 25).
    pub max_seed_matches: Option<u64>,
    /// Edges from a seed, 0 to 64 (default 12).
    pub max_depth: Option<u64>,
    /// Nodes traced, 1 to 50,000 (default 2,000).
    pub max_nodes: Option<u64>,
    /// Edges traced, 1 to 100,000 (default 4,000).
    pub max_edges: Option<u64>,
    /// Paths listed, 1 to 1,000 (default 100).
    pub max_paths: Option<u64>,
}

#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SessionParams {
    /// The `rea` version the caller expects to be talking to.
    pub expected_package_version: Option<String>,
    /// The catalog digest (`combined_sha256` of `docs/product-catalog.json`) the caller expects.
    #[schemars(regex(pattern = r"^[0-9a-f]{64}$"))]
    pub expected_catalog_digest: Option<String>,
    /// The server executable the caller registered.
    pub expected_server_path: Option<String>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct OpenParams {
    /// Absolute path of the application, archive or binary to investigate.
    pub path: String,
    /// A provider id from `binary_session.analysis_provider_candidates`, or `auto` (default).
    pub provider_id: Option<String>,
}

#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct EmptyParams {}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ExportParams {
    /// Absolute destination path of the bundle file.
    pub path: String,
    /// Replace an existing regular file (default false).
    pub overwrite: Option<bool>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ImportParams {
    /// Absolute path of an Evidence bundle file written by `export_evidence_bundle`.
    pub path: String,
}

// Outputs.

/// What every Evidence-producing tool returns.
#[derive(Debug, Serialize, JsonSchema)]
pub struct EvidenceOutput {
    /// The tool's result; equal to `evidence.normalized_result`.
    pub result: Map<String, Value>,
    #[schemars(regex(pattern = r"^ev_[0-9a-f]{64}$"))]
    pub evidence_id: String,
    pub evidence: EvidenceRecord,
}

/// A sealed Evidence v2 record: `evidence_id` is `ev_` + SHA-256 of the RFC 8785 JSON of the
/// record without its id and with `subject` reduced to `{digest, format, architecture}`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct EvidenceRecord {
    pub schema_version: u32,
    pub evidence_id: String,
    pub subject: Option<Map<String, Value>>,
    pub provider: Map<String, Value>,
    pub predicate_type: String,
    pub operation: String,
    pub parameters: Map<String, Value>,
    pub raw_result: Value,
    pub normalized_result: Map<String, Value>,
    pub confidence: String,
    pub authority: String,
    pub environment: Value,
    pub limitations: Vec<String>,
    pub locations: Vec<Map<String, Value>>,
    pub evidence_links: Vec<String>,
}

/// What the session and bundle tools return: `{result}`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct Wrapped<T: JsonSchema> {
    pub result: T,
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct SessionResult {
    pub server_identity: Map<String, Value>,
    pub alignment: Map<String, Value>,
    pub open: bool,
    pub target: Option<Map<String, Value>>,
    pub tool_availability: Vec<Map<String, Value>>,
    pub client_features: Map<String, Value>,
    pub analysis_provider_candidates: Vec<Map<String, Value>>,
    pub analysis_provider_binding: Option<Map<String, Value>>,
    pub analysis_run: Option<Map<String, Value>>,
    pub process_lineage: Map<String, Value>,
    pub evidence_ledger: Map<String, Value>,
    pub recommended_actions: Vec<String>,
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct OpenResult {
    pub path: String,
    pub format: String,
    pub kind: String,
    pub sha256: Option<String>,
    pub architecture: Option<String>,
    pub provider_id: String,
    pub selection_source: String,
    pub run_id: String,
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct CloseResult {
    /// Whether a target was open.
    pub closed: bool,
    /// Records dropped from the ledger.
    pub records_cleared: u64,
    /// Running calls that were cancelled and drained.
    pub calls_drained: u64,
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct ExportResult {
    pub path: String,
    pub bytes: u64,
    pub records: u64,
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct ImportResult {
    /// Records added to this connection's ledger.
    pub imported: u64,
    /// Records it already held.
    pub duplicates: u64,
    /// Records it holds now.
    pub total: u64,
}

/// A canonical Evidence bundle (version 2).
#[derive(Debug, Serialize, JsonSchema)]
pub struct BundleResult {
    pub bundle_version: u32,
    pub artifacts: Vec<Map<String, Value>>,
    pub providers: Vec<Map<String, Value>>,
    pub environments: Vec<Value>,
    pub scenarios: Vec<Value>,
    pub captures: Vec<Value>,
    pub unknowns: Vec<Value>,
    pub records: Vec<Map<String, Value>>,
}

/// What every tool returns when it fails (with `isError: true`).
#[derive(Debug, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ToolErrorOutput {
    pub error: ToolError,
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct ToolError {
    /// Such as `invalid_request`, `cancelled`, `resource_constraint`, `truncated`,
    /// `artifact_integrity_mismatch`, `evidence_integrity_mismatch`, `target_unavailable`.
    pub code: String,
    pub category: String,
    pub message: String,
    pub retryable: bool,
    pub remediation: Remediation,
    pub details: Map<String, Value>,
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct Remediation {
    pub action: String,
    pub restart_required: bool,
}

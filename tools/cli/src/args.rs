//! The command line, as clap parses it. No side effects here.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

/// rea: reverse-engineer shipped applications without running them.
#[derive(Debug, Parser)]
#[command(name = "rea", version, about, propagate_version = true)]
pub struct Cli {
    /// Worker threads; 0 means one per core.
    #[arg(long, global = true, env = "REA_THREADS", default_value_t = 0)]
    pub threads: usize,
    #[command(subcommand)]
    pub command: Command,
}

/// Variants are named after the tools they run (`inventory_artifact` is `inventory-artifact`),
/// so they share suffixes on purpose.
#[allow(clippy::enum_variant_names)]
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Inventory every byte of a directory, ASAR, ZIP, tar, .deb, .rpm, .7z, AppImage, snap, Windows installer (.exe, .msi), cabinet, disk image (.dmg), macOS package (.pkg) or file: paths, sizes, SHA-256, integrity, ids.
    InventoryArtifact(InventoryArgs),
    /// Extract selected regular files into a fresh directory that rea creates and reports.
    ExtractArtifact(ExtractArgs),
    /// A bounded first look: counts, largest files, entrypoints, integrity, what to run next.
    InspectArtifact(InspectArgs),
    /// Compare two inventories (files of `inventory-artifact --json --all` output).
    CompareArtifacts(CompareArgs),
    /// Compare two analyses of two versions of one application (files of
    /// `analyze-javascript-application --json` output): modules, files, windows, bridges, IPC
    /// and the rest, node by node: added, removed, changed, unchanged or unknown.
    CompareApplicationVersions(VersionsArgs),
    /// Trace a feature through an analysis (a file of `analyze-javascript-application --json`
    /// output): from a seed (a bridge API, an IPC channel, a module, a route, a native export, a
    /// string or a node id) along the graph to the application's boundary and its native
    /// add-ons, with the paths and native handoffs.
    TraceApplicationFeature(TraceArgs),
    /// Compare a historical source tree (a directory, such as a repository checkout, or a
    /// HistoricalSourceGraph/v1 JSON file) with an analysis (a file of
    /// `analyze-javascript-application --json` output): which source files shipped unchanged,
    /// modified, or not at all. Analyze with `--source-maps contents` to match bundled sources.
    CompareSourceToBundle(SourcesArgs),
    /// Compare one export across two analyses (files of `analyze-javascript-application
    /// --json` output): what an exported function returns, or an exported value is, field by
    /// field (JSON Pointers: added, removed, changed or unknown). Nothing is run.
    CompareJavascriptExportShapes(ShapesArgs),
    /// Query an analysis's semantic relation graph (a file of `analyze-javascript-application
    /// --json` output): from a seed (a function, a property, an endpoint, an event, a literal, a
    /// boundary field or a node) along data, call, promise and effect relations: where a value
    /// comes from, what it influences, who calls a function, what owns a task.
    TraceJavascriptSemantics(SemanticsArgs),
    /// Reconstruct a JavaScript/Electron application statically: entrypoints, bundles and
    /// module factories, imports, windows, preloads, bridges, IPC, native add-ons, source maps.
    AnalyzeJavascriptApplication(AnalyzeArgs),
    /// Run a job over many inputs into an output directory: resumable, shardable
    /// (`rea pipeline merge` combines shard outputs).
    Pipeline(PipelineArgs),
    /// Serve MCP on stdin/stdout, for agents (logs go to stderr; REA_MCP_MAX_RESPONSE_BYTES
    /// raises the 10 MiB response budget).
    Mcp,
    /// Write the product catalog: tools with schemas and annotations, providers, CLI commands,
    /// and their digests.
    Catalog(CatalogArgs),
}

#[derive(Debug, Args)]
pub struct CatalogArgs {
    /// Where to write it; `-` prints it.
    #[arg(long, default_value = "docs/product-catalog.json")]
    pub out: PathBuf,
}

#[derive(Debug, Clone, Copy, clap::ValueEnum)]
pub enum FormatArg {
    Auto,
    Asar,
    Directory,
    Zip,
    Tar,
    /// A SquashFS image: an AppImage or a snap.
    Squashfs,
    /// An RPM package.
    Rpm,
    /// A 7z archive.
    #[value(name = "7z")]
    SevenZ,
    /// A Windows executable whose overlay holds the application: an NSIS installer from
    /// electron-builder, a 7-Zip self-extractor.
    Exe,
    /// A Windows Installer package: electron-builder's `msi` target, a WiX installer.
    Msi,
    /// A cabinet.
    Cab,
    /// An Apple disk image (HFS+): a macOS application's `.dmg`.
    Dmg,
    /// A macOS flat package (`.pkg`, a XAR archive) and the payloads of its components.
    Pkg,
}

#[derive(Debug, Clone, Copy, clap::ValueEnum)]
pub enum SourceMapsArg {
    /// Inventory maps and link the declarations that name them.
    Declarations,
    /// Also record original source names and content digests (never the contents).
    Contents,
}

#[derive(Debug, Args)]
pub struct AnalyzeArgs {
    /// The directory, ASAR, ZIP, tar, .deb, .rpm, .7z, AppImage, snap, Windows installer (.exe, .msi), cabinet, disk image (.dmg) or macOS package (.pkg) holding the application (relative paths are resolved).
    pub input_path: PathBuf,
    /// What the input must be; `auto` accepts any of them.
    #[arg(long, value_enum, default_value = "auto")]
    pub format: FormatArg,
    /// How much of source maps to read.
    #[arg(long, value_enum, default_value = "declarations")]
    pub source_maps: SourceMapsArg,
    /// Most text files read.
    #[arg(long)]
    pub max_text_files: Option<u64>,
    /// Most bytes of text read in all.
    #[arg(long)]
    pub max_total_text_bytes: Option<u64>,
    /// Largest single text file read.
    #[arg(long)]
    pub max_text_file_bytes: Option<u64>,
    #[command(flatten)]
    pub job: JobArgs,
    #[command(flatten)]
    pub limits: LimitArgs,
    #[command(flatten)]
    pub integrity: IntegrityArgs,
}

#[derive(Debug, Args)]
pub struct CompareArgs {
    /// The earlier version's inventory Evidence, as JSON.
    pub left: PathBuf,
    /// The later version's inventory Evidence, as JSON.
    pub right: PathBuf,
    /// Changes listed inline, 1 to 500 (the counts always cover all).
    #[arg(long, default_value_t = 500, value_parser = clap::value_parser!(u64).range(1..=500))]
    pub max_changes: u64,
    #[command(flatten)]
    pub job: JobArgs,
}

#[derive(Debug, Args)]
pub struct SourcesArgs {
    /// The source tree: a directory, or a HistoricalSourceGraph/v1 JSON file.
    pub reference: PathBuf,
    /// The application's `analyze-javascript-application --json` output.
    pub application: PathBuf,
    /// Reference files compared, 1 to 100,000 (the rest are counted, not compared).
    #[arg(long, default_value_t = 10_000, value_parser = clap::value_parser!(u64).range(1..=100_000))]
    pub max_source_files: u64,
    /// Application nodes considered, 1 to 100,000.
    #[arg(long, default_value_t = 20_000, value_parser = clap::value_parser!(u64).range(1..=100_000))]
    pub max_application_nodes: u64,
    /// Matches listed per file, 1 to 1,000.
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u64).range(1..=1_000))]
    pub max_candidate_nodes: u64,
    /// (file, node) pairs scored in all, 1 to 10,000,000.
    #[arg(long, default_value_t = 1_000_000, value_parser = clap::value_parser!(u64).range(1..=10_000_000))]
    pub max_candidate_evaluations: u64,
    #[command(flatten)]
    pub job: JobArgs,
}

#[derive(Debug, Args)]
pub struct VersionsArgs {
    /// The earlier version's `analyze-javascript-application --json` output.
    pub left: PathBuf,
    /// The later version's.
    pub right: PathBuf,
    /// Items listed inline, 1 to 50,000 (the summary counts all).
    #[arg(long, default_value_t = 20_000, value_parser = clap::value_parser!(u64).range(1..=50_000))]
    pub max_comparison_items: u64,
    /// Candidates listed per ambiguous item, 1 to 1,000.
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u64).range(1..=1_000))]
    pub max_candidate_nodes: u64,
    /// Nodes of the changed_from graph, 1 to 100,000.
    #[arg(long, default_value_t = 20_000, value_parser = clap::value_parser!(u64).range(1..=100_000))]
    pub max_graph_nodes: u64,
    /// Edges of the changed_from graph, 1 to 200,000.
    #[arg(long, default_value_t = 40_000, value_parser = clap::value_parser!(u64).range(1..=200_000))]
    pub max_graph_edges: u64,
    #[command(flatten)]
    pub job: JobArgs,
}

#[derive(Debug, Args)]
pub struct ShapesArgs {
    /// The earlier version's `analyze-javascript-application --json` output.
    pub left: PathBuf,
    /// The later version's (the same file compares two exports of one version).
    pub right: PathBuf,
    /// The module's path as the analysis lists it (`dist/api.js`, `resources/app.asar/main.js`).
    #[arg(long)]
    pub module: String,
    /// A bundled module factory's key in that file (`123`, `./src/api.js`), as the analysis
    /// lists it; without it, the file's own top-level exports.
    #[arg(long)]
    pub module_key: Option<String>,
    /// The export's name: `default` for a default export or a whole CommonJS export.
    #[arg(long)]
    pub export: String,
    /// The module's path on the right, when it differs (default: --module).
    #[arg(long)]
    pub right_module: Option<String>,
    /// The factory's key on the right, when it differs (default: --module-key; keys change
    /// between builds).
    #[arg(long)]
    pub right_module_key: Option<String>,
    /// The export's name on the right, when it differs (default: --export).
    #[arg(long)]
    pub right_export: Option<String>,
    /// Changes listed, 1 to 10,000 (the summary counts all).
    #[arg(long, default_value_t = 1_000, value_parser = clap::value_parser!(u64).range(1..=10_000))]
    pub max_changes: u64,
    /// Candidates listed for a selector that matches no export, 0 to 1,000.
    #[arg(long, default_value_t = 50, value_parser = clap::value_parser!(u64).range(0..=1_000))]
    pub max_candidates: u64,
    #[command(flatten)]
    pub job: JobArgs,
}

#[derive(Debug, Args)]
pub struct SemanticsArgs {
    /// The application's `analyze-javascript-application --json` output.
    pub application: PathBuf,
    /// What the seed names.
    #[arg(long, value_parser = clap::builder::PossibleValuesParser::new(rea_jobs::semantics::SEED_KINDS))]
    pub seed_kind: String,
    /// The seed, compared literally and with case (no patterns), 1 to 4096 characters.
    #[arg(long)]
    pub seed: String,
    /// `exact` (default) or `contains`.
    #[arg(long = "match", value_parser = ["exact", "contains"])]
    pub matching: Option<String>,
    /// Which way to go.
    #[arg(long, default_value = "forward-influence", value_parser = clap::builder::PossibleValuesParser::new(rea_jobs::semantics::DIRECTIONS))]
    pub direction: String,
    /// A relation to follow (repeatable; default: all).
    #[arg(long = "relation")]
    pub relations: Vec<String>,
    /// Follow candidate relations too (one of several possible callees).
    #[arg(long)]
    pub include_ambiguous: bool,
    /// Report traversed nodes of these kinds as the query's endpoints (`source` or `sink`).
    #[arg(long, value_parser = ["source", "sink"], requires = "class")]
    pub role: Option<String>,
    /// A semantic node kind for --role (repeatable).
    #[arg(long = "class", requires = "role")]
    pub classes: Vec<String>,
    /// Seed matches traced, 1 to 1,000.
    #[arg(long, default_value_t = 25, value_parser = clap::value_parser!(u64).range(1..=1_000))]
    pub max_seed_matches: u64,
    /// Nodes traced, 1 to 50,000.
    #[arg(long, default_value_t = 2_000, value_parser = clap::value_parser!(u64).range(1..=50_000))]
    pub max_nodes: u64,
    /// Relations traced, 1 to 100,000.
    #[arg(long, default_value_t = 4_000, value_parser = clap::value_parser!(u64).range(1..=100_000))]
    pub max_edges: u64,
    /// Steps from a seed, 0 to 64.
    #[arg(long, default_value_t = 12, value_parser = clap::value_parser!(u64).range(0..=64))]
    pub max_depth: u64,
    /// Function nodes traced, 1 to 10,000.
    #[arg(long, default_value_t = 500, value_parser = clap::value_parser!(u64).range(1..=10_000))]
    pub max_functions: u64,
    /// Modules traced, 1 to 10,000.
    #[arg(long, default_value_t = 500, value_parser = clap::value_parser!(u64).range(1..=10_000))]
    pub max_modules: u64,
    /// Unknowns listed, 0 to 10,000.
    #[arg(long, default_value_t = 1_000, value_parser = clap::value_parser!(u64).range(0..=10_000))]
    pub max_unknowns: u64,
    /// Nodes per page, 1 to 1,000.
    #[arg(long, default_value_t = 200, value_parser = clap::value_parser!(u64).range(1..=1_000))]
    pub page_size: u64,
    /// The `next_cursor` of an earlier page of the same query.
    #[arg(long)]
    pub cursor: Option<String>,
    #[command(flatten)]
    pub job: JobArgs,
}

#[derive(Debug, Args)]
pub struct TraceArgs {
    /// The application's `analyze-javascript-application --json` output.
    pub application: PathBuf,
    /// What the seed names.
    #[arg(long, value_parser = clap::builder::PossibleValuesParser::new(rea_jobs::trace::SEED_KINDS))]
    pub seed_kind: String,
    /// The seed, compared literally (no patterns), 1 to 4096 characters.
    #[arg(long)]
    pub seed: String,
    /// `exact` or `contains`; by default `contains` for a string seed, `exact` otherwise.
    #[arg(long = "match", value_parser = ["exact", "contains"])]
    pub matching: Option<String>,
    /// Compare with case (by default case is ignored).
    #[arg(long)]
    pub case_sensitive: bool,
    /// Follow the flow out of the seed, into it, or both ways.
    #[arg(long, default_value = "both", value_parser = rea_jobs::trace::DIRECTIONS)]
    pub direction: String,
    /// Seed matches traced, 1 to 1,000.
    #[arg(long, default_value_t = 25, value_parser = clap::value_parser!(u64).range(1..=1_000))]
    pub max_seed_matches: u64,
    /// Edges from a seed, 0 to 64.
    #[arg(long, default_value_t = 12, value_parser = clap::value_parser!(u64).range(0..=64))]
    pub max_depth: u64,
    /// Nodes traced, 1 to 50,000.
    #[arg(long, default_value_t = 2_000, value_parser = clap::value_parser!(u64).range(1..=50_000))]
    pub max_nodes: u64,
    /// Edges traced, 1 to 100,000.
    #[arg(long, default_value_t = 4_000, value_parser = clap::value_parser!(u64).range(1..=100_000))]
    pub max_edges: u64,
    /// Paths listed, 1 to 1,000.
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u64).range(1..=1_000))]
    pub max_paths: u64,
    /// A native Evidence file (for example `inventory-artifact --json` of an add-on): a
    /// handoff whose add-on's SHA-256 equals its subject digest is linked to it. Repeatable,
    /// at most 64.
    #[arg(long = "native-evidence")]
    pub native_evidence: Vec<PathBuf>,
    #[command(flatten)]
    pub job: JobArgs,
}

#[derive(Debug, Args)]
pub struct InspectArgs {
    /// The directory, ASAR, ZIP, tar, .deb, .rpm, .7z, AppImage, snap, Windows installer (.exe, .msi), cabinet, disk image (.dmg), macOS package (.pkg) or file to inspect (relative paths are resolved).
    pub input_path: PathBuf,
    /// Items per list (largest files, entrypoints, containers), 1 to 500.
    #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u32).range(1..=500))]
    pub max_observations: u32,
    #[command(flatten)]
    pub job: JobArgs,
    #[command(flatten)]
    pub limits: LimitArgs,
    #[command(flatten)]
    pub integrity: IntegrityArgs,
}

#[derive(Debug, Args)]
pub struct ExtractArgs {
    /// The directory, ASAR, ZIP, tar, .deb, .rpm, .7z, AppImage, snap or Windows installer to extract from (relative paths are resolved).
    pub input_path: PathBuf,
    /// An occurrence id from an inventory of the same input (repeatable).
    #[arg(long = "occurrence-id", value_name = "OCC_ID")]
    pub occurrence_ids: Vec<String>,
    /// A glob over logical paths, such as '**/package.json' (repeatable).
    #[arg(long = "glob", value_name = "PATTERN")]
    pub globs: Vec<String>,
    #[command(flatten)]
    pub job: JobArgs,
    #[command(flatten)]
    pub limits: LimitArgs,
    #[command(flatten)]
    pub integrity: IntegrityArgs,
}

/// Options every job command shares.
#[derive(Debug, Args)]
pub struct JobArgs {
    /// Print the complete JSON result ({"result", "evidence_id", "evidence"}) instead of a summary.
    #[arg(long)]
    pub json: bool,
    /// Write the JSON result to this file, atomically, instead of stdout.
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// Cancel the job after this many seconds (exit 1, code "timeout").
    #[arg(long, value_name = "SECONDS")]
    pub timeout: Option<f64>,
}

/// Traversal limits; each defaults to a value that admits real desktop applications.
#[derive(Debug, Args)]
pub struct LimitArgs {
    #[arg(long, value_name = "N")]
    pub max_entries: Option<u64>,
    #[arg(long, value_name = "BYTES")]
    pub max_total_bytes: Option<u64>,
    #[arg(long, value_name = "BYTES")]
    pub max_entry_bytes: Option<u64>,
    #[arg(long, value_name = "RATIO")]
    pub max_compression_ratio: Option<f64>,
    #[arg(long, value_name = "N")]
    pub max_depth: Option<u32>,
    #[arg(long, value_name = "BYTES")]
    pub max_path_bytes: Option<u32>,
}

#[derive(Debug, Args)]
pub struct InventoryArgs {
    /// The directory, ASAR, ZIP, tar, .deb, .rpm, .7z, AppImage, snap, Windows installer or file to inventory (relative paths are resolved).
    pub input_path: PathBuf,
    #[command(flatten)]
    pub job: JobArgs,
    #[command(flatten)]
    pub limits: LimitArgs,
    /// List every node, occurrence and edge instead of one page.
    #[arg(long, conflicts_with_all = ["offset", "limit"])]
    pub all: bool,
    /// First item of each page.
    #[arg(long, default_value_t = 0)]
    pub offset: u64,
    /// Items per page, 1 to 500.
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u64).range(1..=500))]
    pub limit: u64,
    #[command(flatten)]
    pub integrity: IntegrityArgs,
}

/// What to do when bytes contradict declared integrity.
#[derive(Debug, Args)]
pub struct IntegrityArgs {
    /// `fail` stops at the first mismatch; `record-and-continue` records it as a contradiction.
    #[arg(long, value_enum, default_value_t = PolicyArg::Fail)]
    pub integrity_policy: PolicyArg,
    /// With record-and-continue: fail once more mismatches than this were recorded (1 to 100).
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u32).range(1..=100))]
    pub max_integrity_mismatches: u32,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum PolicyArg {
    Fail,
    RecordAndContinue,
}

#[derive(Debug, Args)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
pub struct PipelineArgs {
    #[command(subcommand)]
    pub command: Option<PipelineCommand>,
    /// Inputs: paths (directories, ASARs, zips) or globs such as 'apps/*/app.asar'.
    pub inputs: Vec<String>,
    /// A manifest: one JSON object a line, {"path": …, "job": …, "options": {…}}.
    #[arg(long, value_name = "FILE")]
    pub manifest: Option<PathBuf>,
    /// The output directory (evidence/, results/, index.jsonl, summary.json).
    #[arg(long, value_name = "DIR", required = true)]
    pub out: Option<PathBuf>,
    /// The job for inputs that do not name one.
    #[arg(long, value_enum, default_value = "analyze_javascript_application")]
    pub job: JobKindArg,
    /// Redo inputs whose results are already in the output directory.
    #[arg(long)]
    pub force: bool,
    /// Only the K-th of N partitions of the inputs (K from 1). Without it, a Kubernetes Indexed
    /// Job or Slurm array environment selects the shard.
    #[arg(long, value_name = "K/N")]
    pub shard: Option<String>,
    /// Inputs in flight at once (default: threads + 1).
    #[arg(long, value_name = "N")]
    pub concurrency: Option<usize>,
    /// Print summary.json instead of a human summary.
    #[arg(long, global = true)]
    pub json: bool,
}

#[derive(Debug, Subcommand)]
pub enum PipelineCommand {
    /// Combine shard output directories into one index and summary.
    Merge(MergeArgs),
}

#[derive(Debug, Args)]
pub struct MergeArgs {
    /// Shard output directories.
    #[arg(required = true)]
    pub shards: Vec<PathBuf>,
    /// The merged output directory.
    #[arg(long, value_name = "DIR")]
    pub out: PathBuf,
}

#[derive(Debug, Clone, Copy, clap::ValueEnum)]
#[value(rename_all = "snake_case")]
pub enum JobKindArg {
    AnalyzeJavascriptApplication,
    InventoryArtifact,
}

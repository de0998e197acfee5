//! `analyze_javascript_application`: the static reconstruction of a JavaScript/Electron
//! application.
//!
//! Plan: the inventory's traverse ⇢ hash → graph, then parse (select text files, read them
//! again with caps, parse and extract in parallel), then the application graph, then seal →
//! validate. Nothing of the application is ever executed.

use std::path::PathBuf;

use rea_core::{Failure, FailureReason, IntegrityPolicy, Limits};
use rea_exec::{Dep, Placement, Plan, StageKind};
use rea_graph::artifact::InventoryGraph;
use rea_hash::Composed;
use rea_hash::HashedEntry;
use rea_parse::ParseOutput;
pub use rea_parse::TextLimits;
use rea_seal::{Authority, Confidence, EvidenceDraft, Sealed};
use rea_traverse::ArchiveFormat;
use serde_json::{Map, Value, json};

use crate::common::{artifact_subject, plan_failure, resolve, validate_and_run};
use crate::engine::{Engine, JobControl, Published};
use crate::inventory::{Shape, integrity_json, invalid, limits_json, plan_graph, shape_of};
use crate::slot::Slot;

/// The operation name, as tools and Evidence spell it.
pub const OPERATION: &str = "analyze_javascript_application";

/// What the input is expected to be.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Auto,
    Asar,
    Directory,
    Zip,
    /// A tar, plain or compressed, or a Debian package.
    Tar,
    /// A SquashFS image: an AppImage or a snap.
    Squashfs,
    /// An RPM package.
    Rpm,
    /// A 7z archive.
    SevenZ,
    /// A Windows executable whose overlay holds the application: an installer.
    Exe,
    /// A Windows Installer package.
    Msi,
    /// A cabinet.
    Cab,
    /// An Apple disk image.
    Dmg,
    /// A macOS flat package (XAR).
    Pkg,
}

impl Format {
    pub fn as_str(self) -> &'static str {
        match self {
            Format::Auto => "auto",
            Format::Asar => "asar",
            Format::Directory => "directory",
            Format::Zip => "zip",
            Format::Tar => "tar",
            Format::Squashfs => "squashfs",
            Format::Rpm => "rpm",
            Format::SevenZ => "7z",
            Format::Exe => "exe",
            Format::Msi => "msi",
            Format::Cab => "cab",
            Format::Dmg => "dmg",
            Format::Pkg => "pkg",
        }
    }
}

/// How much of source maps to read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SourceMaps {
    /// Inventory maps and link the declarations that name them.
    Declarations,
    /// Also record each original source's name and content digest (never the content).
    Contents,
}

/// A request to analyze one application.
#[derive(Debug, Clone)]
pub struct AnalyzeRequest {
    pub input_path: PathBuf,
    pub format: Format,
    pub limits: Limits,
    pub text_limits: TextLimits,
    pub source_maps: SourceMaps,
    pub integrity: IntegrityPolicy,
}

impl AnalyzeRequest {
    /// A request with every default.
    pub fn new(input_path: PathBuf) -> AnalyzeRequest {
        AnalyzeRequest {
            input_path,
            format: Format::Auto,
            limits: Limits::default(),
            text_limits: TextLimits::default(),
            source_maps: SourceMaps::Declarations,
            integrity: IntegrityPolicy::default(),
        }
    }
}

fn check_text_limits(limits: &TextLimits) -> Result<(), Failure> {
    let fields = [
        ("max_text_files", limits.max_text_files, 1_000_000),
        (
            "max_total_text_bytes",
            limits.max_total_text_bytes,
            16 << 30,
        ),
        ("max_text_file_bytes", limits.max_text_file_bytes, 256 << 20),
        ("max_ast_nodes", limits.max_ast_nodes, 1_000_000_000),
        ("max_findings", limits.max_findings, 10_000_000),
        ("max_modules", limits.max_modules, 10_000_000),
        (
            "max_source_map_sources",
            limits.max_source_map_sources,
            10_000_000,
        ),
    ];
    for (name, value, max) in fields {
        if value == 0 || value > max {
            return Err(invalid(name, format!("{name} must be between 1 and {max}")));
        }
    }
    Ok(())
}

impl Engine {
    /// Analyzes the application at `request.input_path`. Returns only validated Evidence.
    pub fn analyze_javascript_application(
        &self,
        request: &AnalyzeRequest,
        ctl: &JobControl<'_>,
    ) -> Result<Published, Failure> {
        crate::inventory::check_limits(&request.limits, request.integrity)?;
        check_text_limits(&request.text_limits)?;
        ctl.cancel.check()?;
        let input = resolve(ctl, &request.input_path)?;
        let observed = match shape_of(&input) {
            Shape::Directory => Format::Directory,
            Shape::Archive(ArchiveFormat::Asar) => Format::Asar,
            Shape::Archive(ArchiveFormat::Zip) => Format::Zip,
            Shape::Archive(ArchiveFormat::Tar(_)) => Format::Tar,
            Shape::Archive(ArchiveFormat::Squashfs) => Format::Squashfs,
            Shape::Archive(ArchiveFormat::Rpm) => Format::Rpm,
            Shape::Archive(ArchiveFormat::SevenZ) => Format::SevenZ,
            Shape::Archive(ArchiveFormat::Exe) => Format::Exe,
            Shape::Archive(ArchiveFormat::Msi) => Format::Msi,
            Shape::Archive(ArchiveFormat::Cab) => Format::Cab,
            Shape::Archive(ArchiveFormat::Dmg) => Format::Dmg,
            Shape::Archive(ArchiveFormat::Xar) => Format::Pkg,
            // Only ever nested: a payload is named by the package that holds it.
            Shape::Archive(ArchiveFormat::PkgPayload) => Format::Pkg,
            Shape::File => {
                ctl.progress.finish("done", 0, None, "format");
                return Err(Failure::new(
                    FailureReason::Format,
                    "input is not a directory, an ASAR, a zip-family or a tar-family archive, an RPM package, a 7z archive, a SquashFS image, a Windows installer (an installer executable or a Windows Installer package) a cabinet, a disk image or a macOS package",
                )
                .with_detail("input_path", input.display.clone()));
            }
        };
        if request.format != Format::Auto && request.format != observed {
            ctl.progress.finish("done", 0, None, "format");
            return Err(Failure::new(
                FailureReason::Format,
                format!(
                    "input is {}, not {}",
                    article(observed),
                    article(request.format)
                ),
            )
            .with_detail("expected_format", request.format.as_str())
            .with_detail("observed_format", observed.as_str()));
        }
        let mut plan = Plan::new();
        let entries: Slot<Vec<HashedEntry>> = Slot::new();
        let (graph_node, inventory) = plan_graph(
            &mut plan,
            &input,
            request.limits,
            request.integrity,
            Some(entries.clone()),
        )
        .map_err(plan_failure)?;
        let options = rea_parse::Options {
            limits: request.text_limits,
            source_map_contents: request.source_maps == SourceMaps::Contents,
        };
        let parsed: Slot<(ParseOutput, InventoryGraph)> = Slot::new();
        let parse_node = {
            let (parsed, inventory) = (parsed.clone(), inventory.clone());
            plan.add(
                StageKind::Parse,
                Placement::Pool,
                &[Dep::After(graph_node)],
                move |cx| {
                    let entries = entries.take("hashed entries")?;
                    let inventory = inventory.take("inventory graph")?;
                    cx.progress().report("parse", 0, None, "parsing text files");
                    let output = rea_parse::run(cx, &entries, options)?;
                    drop(entries);
                    parsed.put((output, inventory));
                    Ok(())
                },
            )
            .map_err(plan_failure)?
        };
        let built: Slot<Built> = Slot::new();
        let display = input.display.clone();
        let text_limits = request.text_limits;
        let graph_node = {
            let built = built.clone();
            let display = display.clone();
            plan.add(
                StageKind::Graph,
                Placement::Pool,
                &[Dep::After(parse_node)],
                move |cx| {
                    let (mut output, inventory) = parsed.take("parsed files")?;
                    // Modules whose wrapper helper another file exports, and bridge APIs
                    // another file exports, known only now.
                    rea_graph::javascript::settle_imports(&inventory, &mut output.files);
                    cx.progress()
                        .report("graph", 0, None, "building the application graph");
                    // The exports go their own way: projected alongside the graph.
                    let exports = rea_graph::javascript::shapes::take(&mut output.files);
                    let semantics = rea_graph::javascript::semantics::take(&mut output.files);
                    let root_sha256 = inventory.manifest.root_sha256.clone();
                    let (graph, (export_shapes, semantic_graph)) = rayon::join(
                        || {
                            rea_graph::javascript::build(
                                cx,
                                &rea_graph::javascript::Request {
                                    inventory: &inventory,
                                    parsed: &output,
                                    limits: &text_limits,
                                    source_map_contents: options.source_map_contents,
                                },
                            )
                        },
                        || {
                            rayon::join(
                                || rea_graph::javascript::shapes::project(exports),
                                || {
                                    rea_graph::javascript::semantics::project(
                                        semantics,
                                        &root_sha256,
                                    )
                                },
                            )
                        },
                    );
                    let (graph, export_shapes) = (graph?, export_shapes?);
                    let semantic_graph =
                        rea_graph::javascript::semantics::seal(semantic_graph?, &graph.graph_id)?;
                    drop(output);
                    // The graph (megabytes) is already canonical text: seal splices it in.
                    let mut result = json!({
                        "schema_version": 2,
                        "input_path": display,
                        "format": observed.as_str(),
                        "root_artifact_sha256": inventory.manifest.root_sha256,
                        "inventory_manifest_id": inventory.manifest.manifest_id,
                        "inventory_graph_sha256": inventory.manifest.graph_sha256,
                    });
                    // What the packager sealed into the application: header integrity and fuses.
                    result["electron_packaging"] = json!({
                        "asar_headers": crate::inventory::to_value(&inventory.asar_headers)?,
                        "electron_fuses": crate::inventory::to_value(&inventory.electron_fuses)?,
                    });
                    result["export_shapes"] = export_shapes;
                    result["summary"] = graph.summary;
                    result["statistics"] = graph.statistics;
                    result["limitations"] = Value::from(graph.limitations);
                    built.put((
                        result,
                        vec![
                            ("graph".to_owned(), graph.graph),
                            ("semantic_graph".to_owned(), semantic_graph),
                        ],
                        inventory,
                    ));
                    Ok(())
                },
            )
            .map_err(plan_failure)?
        };
        let sealed: Slot<Sealed> = Slot::new();
        let parameters = json!({
            "format": request.format.as_str(),
            "limits": limits_json(&request.limits),
            "text_limits": text_limits_json(&request.text_limits),
            "source_maps": match request.source_maps { SourceMaps::Declarations => "declarations", SourceMaps::Contents => "contents" },
            "integrity": integrity_json(request.integrity),
        });
        let seal_node = {
            let sealed = sealed.clone();
            plan.add(
                StageKind::Seal,
                Placement::Pool,
                &[Dep::After(graph_node)],
                move |cx| {
                    let (result, graph, inventory) = built.take("application graph")?;
                    sealed.put(rea_seal::seal(
                        cx,
                        draft(&inventory, result, graph, &display, parameters),
                    )?);
                    Ok(())
                },
            )
            .map_err(plan_failure)?
        };
        let (validated, report) =
            validate_and_run(self, plan, seal_node, sealed, input.display.clone(), ctl)?;
        let result = &validated.record()["normalized_result"];
        let mut headline = Map::new();
        let stats = &result["statistics"];
        for key in [
            "relevant_files",
            "parsed_javascript_files",
            "modules",
            "parse_failures",
        ] {
            headline.insert(key.to_owned(), stats[key].clone());
        }
        let (nodes, edges) = validated.graph_size().unwrap_or_default();
        headline.insert("nodes".to_owned(), Value::from(nodes));
        headline.insert("edges".to_owned(), Value::from(edges));
        let published = Published::new(validated, headline, &report)?;
        ctl.progress.finish("done", 1, Some(1), "analysis complete");
        Ok(published)
    }
}

/// The result, its parts given as canonical text (the graphs), and the inventory.
type Built = (Value, Vec<(String, Composed)>, InventoryGraph);

/// "a directory", "an ASAR", "a zip archive".
fn article(format: Format) -> &'static str {
    match format {
        Format::Auto => "any supported input",
        Format::Asar => "an ASAR",
        Format::Directory => "a directory",
        Format::Zip => "a zip-family archive",
        Format::Tar => "a tar-family archive",
        Format::Squashfs => "a SquashFS image (an AppImage or a snap)",
        Format::Rpm => "an RPM package",
        Format::SevenZ => "a 7z archive",
        Format::Exe => "a Windows executable (an installer)",
        Format::Msi => "a Windows Installer package",
        Format::Cab => "a cabinet",
        Format::Dmg => "an Apple disk image",
        Format::Pkg => "a macOS package",
    }
}

fn text_limits_json(limits: &TextLimits) -> Value {
    json!({
        "max_text_files": limits.max_text_files,
        "max_total_text_bytes": limits.max_total_text_bytes,
        "max_text_file_bytes": limits.max_text_file_bytes,
        "max_ast_nodes": limits.max_ast_nodes,
        "max_findings": limits.max_findings,
        "max_modules": limits.max_modules,
        "max_source_map_sources": limits.max_source_map_sources,
    })
}

fn draft(
    inventory: &InventoryGraph,
    result: Value,
    parts: Vec<(String, Composed)>,
    display: &str,
    parameters: Value,
) -> EvidenceDraft {
    let limitations = crate::common::limitations_of(&result);
    EvidenceDraft {
        subject: Some(artifact_subject(&inventory.manifest, display)),
        provider: crate::common::javascript_provider(),
        predicate_type: "rea.analysis/v2".to_owned(),
        operation: OPERATION.to_owned(),
        parameters,
        normalized_result: result,
        result_parts: parts,
        confidence: Confidence::Inferred,
        authority: Authority::ShippedArtifact,
        limitations,
        locations: Vec::new(),
        evidence_links: Vec::new(),
    }
}

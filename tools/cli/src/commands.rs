//! One function per command: build the job request, run it, render the outcome.

use std::process::ExitCode;
use std::time::{Duration, Instant};

use rea_core::{CancelToken, Failure, FailureReason, IntegrityPolicy, Limits};
use rea_jobs::compare::{CompareRequest, OPERATION as COMPARE};
use rea_jobs::extract::{ExtractRequest, OPERATION as EXTRACT};
use rea_jobs::inspect::{InspectRequest, OPERATION as INSPECT};
use rea_jobs::inventory::{InventoryRequest, OPERATION as INVENTORY};
use rea_jobs::semantics::{OPERATION as SEMANTICS, SemanticTraceRequest};
use rea_jobs::shapes::{ExportShapesRequest, OPERATION as SHAPES, Selector};
use rea_jobs::sources::{OPERATION as SOURCES, SourceBundleRequest, SourceReference};
use rea_jobs::trace::{Limits as TraceLimits, OPERATION as TRACE, Seed, TraceRequest};
use rea_jobs::versions::{OPERATION as VERSIONS, Side, VersionsRequest};
use rea_jobs::{Engine, JobControl, PageRequest, Published};

use crate::args::{
    AnalyzeArgs, Cli, Command, CompareArgs, ExtractArgs, FormatArg, InspectArgs, IntegrityArgs,
    InventoryArgs, JobArgs, LimitArgs, PolicyArg, SemanticsArgs, ShapesArgs, SourceMapsArg,
    SourcesArgs, TraceArgs, VersionsArgs,
};
use crate::{progress, render};

/// Exit code for a failed job.
const EXIT_FAILED: u8 = 1;
/// Exit code for a job cancelled by Ctrl-C (128 + SIGINT).
const EXIT_CANCELLED: u8 = 130;

pub fn run(cli: Cli, cancel: &CancelToken) -> ExitCode {
    match &cli.command {
        Command::Mcp => return mcp(cli.threads),
        Command::Catalog(args) => return catalog(&args.out, cancel),
        _ => {}
    }
    let engine = match Engine::new(cli.threads) {
        Ok(engine) => engine,
        Err(failure) => return fail("engine", &failure, false),
    };
    match cli.command {
        Command::InventoryArtifact(args) => inventory(&engine, args, cancel),
        Command::ExtractArtifact(args) => extract(&engine, args, cancel),
        Command::InspectArtifact(args) => inspect(&engine, args, cancel),
        Command::AnalyzeJavascriptApplication(args) => analyze(&engine, args, cancel),
        Command::CompareArtifacts(args) => compare(&engine, args, cancel),
        Command::CompareApplicationVersions(args) => versions(&engine, args, cancel),
        Command::TraceApplicationFeature(args) => trace(&engine, args, cancel),
        Command::CompareSourceToBundle(args) => sources(&engine, args, cancel),
        Command::CompareJavascriptExportShapes(args) => shapes(&engine, args, cancel),
        Command::TraceJavascriptSemantics(args) => semantics(&engine, args, cancel),
        Command::Pipeline(args) => crate::pipeline::run(&engine, args, cancel),
        Command::Mcp | Command::Catalog(_) => ExitCode::SUCCESS,
    }
}

/// The CLI's command names, as the catalog lists them.
pub fn command_names() -> Vec<String> {
    use clap::CommandFactory;
    Cli::command()
        .get_subcommands()
        .map(|c| c.get_name().to_owned())
        .collect()
}

fn mcp(threads: usize) -> ExitCode {
    let budget = match rea_mcp::response::budget_from(
        std::env::var(rea_mcp::response::BUDGET_ENV).ok().as_deref(),
    ) {
        Ok(budget) => budget,
        Err(message) => {
            eprintln!("rea mcp: {message}");
            return ExitCode::from(EXIT_FAILED);
        }
    };
    let options = rea_mcp::ServerOptions {
        threads,
        cli_commands: command_names(),
        max_response_bytes: budget,
    };
    match rea_mcp::serve_stdio(options) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("rea mcp: {message}");
            ExitCode::from(EXIT_FAILED)
        }
    }
}

fn catalog(out: &std::path::Path, cancel: &CancelToken) -> ExitCode {
    let catalog = rea_mcp::catalog::catalog(&command_names());
    let mut text = match serde_json::to_string_pretty(&catalog) {
        Ok(text) => text,
        Err(err) => {
            eprintln!("rea catalog: {err}");
            return ExitCode::from(EXIT_FAILED);
        }
    };
    text.push('\n');
    if out.as_os_str() == "-" {
        return render::json_line(&[text.trim_end().as_bytes()]);
    }
    if let Some(parent) = out.parent().filter(|p| !p.as_os_str().is_empty())
        && let Err(err) = std::fs::create_dir_all(parent)
    {
        eprintln!("rea catalog: {}: {err}", parent.display());
        return ExitCode::from(EXIT_FAILED);
    }
    match rea_jobs::publish::write_file_atomically(cancel, out, text.as_bytes()) {
        Ok(()) => {
            // A checked-in document, readable by everyone (the staging file was private).
            use std::os::unix::fs::PermissionsExt;
            let _ = std::fs::set_permissions(out, std::fs::Permissions::from_mode(0o644));
            ExitCode::SUCCESS
        }
        Err(failure) => fail("catalog", &failure, false),
    }
}

fn inventory(engine: &Engine, args: InventoryArgs, cancel: &CancelToken) -> ExitCode {
    let page = if args.all {
        PageRequest::All
    } else {
        PageRequest::uniform(args.offset, args.limit)
    };
    let request = InventoryRequest {
        input_path: args.input_path,
        limits: limits(&args.limits),
        page,
        integrity: integrity(&args.integrity),
    };
    let started = Instant::now();
    let outcome = with_control(cancel, &args.job, |ctl| {
        engine.inventory_artifact(&request, ctl)
    });
    finish(INVENTORY, &args.job, outcome, cancel, |published| {
        render::summary(INVENTORY, published, started.elapsed())
    })
}

fn compare(engine: &Engine, args: CompareArgs, cancel: &CancelToken) -> ExitCode {
    let started = Instant::now();
    let outcome = read_json(&args.left).and_then(|left| {
        let right = read_json(&args.right)?;
        let request = CompareRequest {
            left,
            right,
            max_changes: args.max_changes as usize,
        };
        with_control(cancel, &args.job, |ctl| {
            engine.compare_artifacts(&request, ctl)
        })
    });
    finish(COMPARE, &args.job, outcome, cancel, |published| {
        render::compare_summary(published, started.elapsed())
    })
}

fn versions(engine: &Engine, args: VersionsArgs, cancel: &CancelToken) -> ExitCode {
    let started = Instant::now();
    let outcome = read_file(&args.left).and_then(|left| {
        let request = VersionsRequest {
            left: Side::Text(left),
            right: Side::Text(read_file(&args.right)?),
            max_comparison_items: args.max_comparison_items as usize,
            max_candidate_nodes: args.max_candidate_nodes as usize,
            max_graph_nodes: args.max_graph_nodes as usize,
            max_graph_edges: args.max_graph_edges as usize,
        };
        with_control(cancel, &args.job, |ctl| {
            engine.compare_application_versions(request, ctl)
        })
    });
    finish(VERSIONS, &args.job, outcome, cancel, |published| {
        render::versions_summary(published, started.elapsed())
    })
}

fn shapes(engine: &Engine, args: ShapesArgs, cancel: &CancelToken) -> ExitCode {
    let started = Instant::now();
    let outcome = read_file(&args.left).and_then(|left| {
        let right = if args.right == args.left {
            left.clone()
        } else {
            read_file(&args.right)?
        };
        let request = ExportShapesRequest {
            left: Side::Text(left),
            right: Side::Text(right),
            left_export: Selector {
                module_path: args.module.clone(),
                module_key: args.module_key.clone(),
                export_name: args.export.clone(),
            },
            right_export: Selector {
                module_path: args.right_module.unwrap_or(args.module),
                module_key: args.right_module_key.or(args.module_key),
                export_name: args.right_export.unwrap_or(args.export),
            },
            max_changes: args.max_changes as usize,
            max_candidates: args.max_candidates as usize,
        };
        with_control(cancel, &args.job, |ctl| {
            engine.compare_javascript_export_shapes(request, ctl)
        })
    });
    finish(SHAPES, &args.job, outcome, cancel, |published| {
        render::shapes_summary(published, started.elapsed())
    })
}

fn semantics(engine: &Engine, args: SemanticsArgs, cancel: &CancelToken) -> ExitCode {
    use rea_jobs::semantics::{Filter, Limits, Query, Seed};
    let started = Instant::now();
    let mut limits = Limits::default();
    for (name, value) in [
        ("max_seed_matches", args.max_seed_matches),
        ("max_nodes", args.max_nodes),
        ("max_edges", args.max_edges),
        ("max_depth", args.max_depth),
        ("max_functions", args.max_functions),
        ("max_modules", args.max_modules),
        ("max_unknowns", args.max_unknowns),
        ("page_size", args.page_size),
    ] {
        limits.set(name, value as usize);
    }
    let query = Query {
        seed: Seed {
            kind: args.seed_kind,
            value: args.seed,
            matching: args.matching,
        },
        direction: args.direction,
        allowed_relations: (!args.relations.is_empty()).then_some(args.relations),
        include_ambiguous_dynamic_edges: args.include_ambiguous,
        filter: args.role.map(|role| Filter {
            role,
            classes: args.classes,
        }),
        limits,
        cursor: args.cursor,
    };
    let outcome = read_file(&args.application).and_then(|application| {
        let request = SemanticTraceRequest {
            application: Side::Text(application),
            query,
        };
        with_control(cancel, &args.job, |ctl| {
            engine.trace_javascript_semantics(request, ctl)
        })
    });
    finish(SEMANTICS, &args.job, outcome, cancel, |published| {
        render::semantics_summary(published, started.elapsed())
    })
}

fn sources(engine: &Engine, args: SourcesArgs, cancel: &CancelToken) -> ExitCode {
    let started = Instant::now();
    let reference = if args.reference.is_dir() {
        Ok(SourceReference::Directory(args.reference.clone()))
    } else {
        read_json(&args.reference).map(SourceReference::Graph)
    };
    let outcome = reference.and_then(|reference| {
        let request = SourceBundleRequest {
            reference,
            application: Side::Text(read_file(&args.application)?),
            limits: rea_jobs::sources::Limits {
                max_source_files: args.max_source_files as usize,
                max_application_nodes: args.max_application_nodes as usize,
                max_candidate_nodes: args.max_candidate_nodes as usize,
                max_candidate_evaluations: args.max_candidate_evaluations,
            },
        };
        with_control(cancel, &args.job, |ctl| {
            engine.compare_source_to_bundle(request, ctl)
        })
    });
    finish(SOURCES, &args.job, outcome, cancel, |published| {
        render::sources_summary(published, started.elapsed())
    })
}

fn trace(engine: &Engine, args: TraceArgs, cancel: &CancelToken) -> ExitCode {
    let started = Instant::now();
    let outcome = read_file(&args.application).and_then(|application| {
        let native_observations = args
            .native_evidence
            .iter()
            .map(|path| read_file(path).map(Side::Text))
            .collect::<Result<Vec<_>, Failure>>()?;
        let request = TraceRequest {
            application: Side::Text(application),
            native_observations,
            seed: Seed {
                kind: args.seed_kind,
                value: args.seed,
                matching: args.matching,
                case_sensitive: args.case_sensitive,
            },
            direction: args.direction,
            limits: TraceLimits {
                max_seed_matches: args.max_seed_matches as usize,
                max_depth: args.max_depth as usize,
                max_nodes: args.max_nodes as usize,
                max_edges: args.max_edges as usize,
                max_paths: args.max_paths as usize,
            },
        };
        with_control(cancel, &args.job, |ctl| {
            engine.trace_application_feature(request, ctl)
        })
    });
    finish(TRACE, &args.job, outcome, cancel, |published| {
        render::trace_summary(published, started.elapsed())
    })
}

/// Reads an evidence file given on the command line.
fn read_file(path: &std::path::Path) -> Result<Vec<u8>, Failure> {
    std::fs::read(path).map_err(|err| {
        Failure::new(FailureReason::Path, "evidence file could not be read")
            .with_detail("path", path.to_string_lossy().into_owned())
            .with_source(err)
    })
}

/// Reads a JSON file given on the command line.
fn read_json(path: &std::path::Path) -> Result<serde_json::Value, Failure> {
    let shown = path.to_string_lossy().into_owned();
    let bytes = read_file(path)?;
    serde_json::from_slice(&bytes).map_err(|err| {
        Failure::new(FailureReason::InvalidInput, "evidence file is not JSON")
            .with_detail("path", shown)
            .with_source(err)
    })
}

fn inspect(engine: &Engine, args: InspectArgs, cancel: &CancelToken) -> ExitCode {
    let request = InspectRequest {
        input_path: args.input_path,
        limits: limits(&args.limits),
        integrity: integrity(&args.integrity),
        max_observations: args.max_observations,
    };
    let started = Instant::now();
    let outcome = with_control(cancel, &args.job, |ctl| {
        engine.inspect_artifact(&request, ctl)
    });
    finish(INSPECT, &args.job, outcome, cancel, |published| {
        render::inspect_summary(published, started.elapsed())
    })
}

fn analyze(engine: &Engine, args: AnalyzeArgs, cancel: &CancelToken) -> ExitCode {
    use rea_jobs::analyze::{AnalyzeRequest, Format, SourceMaps};
    let text_limits = rea_jobs::overrides::TextLimitOverrides {
        max_text_files: args.max_text_files,
        max_total_text_bytes: args.max_total_text_bytes,
        max_text_file_bytes: args.max_text_file_bytes,
    }
    .apply();
    let request = AnalyzeRequest {
        input_path: args.input_path,
        format: match args.format {
            FormatArg::Auto => Format::Auto,
            FormatArg::Asar => Format::Asar,
            FormatArg::Directory => Format::Directory,
            FormatArg::Zip => Format::Zip,
            FormatArg::Tar => Format::Tar,
            FormatArg::Squashfs => Format::Squashfs,
            FormatArg::Rpm => Format::Rpm,
            FormatArg::SevenZ => Format::SevenZ,
            FormatArg::Exe => Format::Exe,
            FormatArg::Msi => Format::Msi,
            FormatArg::Cab => Format::Cab,
            FormatArg::Dmg => Format::Dmg,
            FormatArg::Pkg => Format::Pkg,
        },
        limits: limits(&args.limits),
        text_limits,
        source_maps: match args.source_maps {
            SourceMapsArg::Declarations => SourceMaps::Declarations,
            SourceMapsArg::Contents => SourceMaps::Contents,
        },
        integrity: integrity(&args.integrity),
    };
    let started = Instant::now();
    let outcome = with_control(cancel, &args.job, |ctl| {
        engine.analyze_javascript_application(&request, ctl)
    });
    finish(
        rea_jobs::analyze::OPERATION,
        &args.job,
        outcome,
        cancel,
        |published| render::analyze_summary(published, started.elapsed()),
    )
}

fn extract(engine: &Engine, args: ExtractArgs, cancel: &CancelToken) -> ExitCode {
    let request = ExtractRequest {
        input_path: args.input_path,
        limits: limits(&args.limits),
        integrity: integrity(&args.integrity),
        occurrence_ids: args.occurrence_ids,
        globs: args.globs,
    };
    let started = Instant::now();
    let mut output_root = None;
    let outcome = with_control(cancel, &args.job, |ctl| {
        engine.extract_artifact(&request, ctl).map(|extracted| {
            output_root = Some(extracted.output_root);
            extracted.published
        })
    });
    finish(EXTRACT, &args.job, outcome, cancel, |published| {
        render::extract_summary(published, output_root.as_deref(), started.elapsed())
    })
}

/// Runs `job` with a progress reporter that draws a bar only when stderr is a terminal.
fn with_control(
    cancel: &CancelToken,
    job_args: &JobArgs,
    job: impl FnOnce(&JobControl<'_>) -> Result<Published, Failure>,
) -> Result<Published, Failure> {
    let timeout = match job_args.timeout {
        Some(seconds) if seconds.is_finite() && seconds > 0.0 => {
            Some(Duration::from_secs_f64(seconds))
        }
        Some(_) => {
            return Err(Failure::new(
                FailureReason::InvalidInput,
                "--timeout must be a positive number of seconds",
            ));
        }
        None => None,
    };
    let reporter = progress::reporter();
    let ctl = JobControl {
        cancel,
        progress: &reporter,
        timeout,
    };
    job(&ctl)
}

fn finish(
    operation: &str,
    job_args: &JobArgs,
    outcome: Result<Published, Failure>,
    cancel: &CancelToken,
    summary: impl FnOnce(&Published),
) -> ExitCode {
    let published = match outcome {
        Ok(published) => published,
        Err(failure) => return fail(operation, &failure, job_args.json),
    };
    for stage in &published.stages {
        tracing::info!(
            operation,
            stage = stage.stage,
            ms = stage.elapsed.as_secs_f64() * 1e3,
            "stage time"
        );
    }
    if let Some(out) = &job_args.out {
        if let Err(failure) =
            rea_jobs::publish::write_parts_atomically(cancel, out, &published.envelope_parts())
        {
            return fail(operation, &failure, job_args.json);
        }
    } else if job_args.json {
        return render::json_line(&published.envelope_parts());
    }
    if !job_args.json {
        summary(&published);
    }
    ExitCode::SUCCESS
}

fn fail(operation: &str, failure: &Failure, json: bool) -> ExitCode {
    render::failure(operation, failure, json);
    if failure.reason == FailureReason::Cancelled {
        ExitCode::from(EXIT_CANCELLED)
    } else {
        ExitCode::from(EXIT_FAILED)
    }
}

fn limits(args: &LimitArgs) -> Limits {
    rea_jobs::overrides::LimitOverrides {
        max_entries: args.max_entries,
        max_total_bytes: args.max_total_bytes,
        max_entry_bytes: args.max_entry_bytes,
        max_compression_ratio: args.max_compression_ratio,
        max_depth: args.max_depth,
        max_path_bytes: args.max_path_bytes,
    }
    .apply()
}

fn integrity(args: &IntegrityArgs) -> IntegrityPolicy {
    match args.integrity_policy {
        PolicyArg::Fail => IntegrityPolicy::Fail,
        PolicyArg::RecordAndContinue => IntegrityPolicy::RecordAndContinue {
            max_mismatches: args.max_integrity_mismatches,
        },
    }
}

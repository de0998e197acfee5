//! `rea pipeline`: a batch over many inputs, with an overall bar and a line per running job on a
//! terminal, or plain periodic lines on stderr otherwise.

use std::collections::BTreeMap;
use std::io::IsTerminal;
use std::process::ExitCode;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use indicatif::{MultiProgress, ProgressBar, ProgressDrawTarget, ProgressStyle};
use rea_core::{
    CancelToken, Failure, FailureReason, ProgressReporter, ProgressSink, ProgressUpdate,
    SystemClock,
};
use rea_jobs::Engine;
use rea_jobs::pipeline::{
    BatchInput, BatchObserver, BatchOptions, BatchSummary, JobKind, Shard, expand_args, merge,
    read_manifest, run_batch,
};
use serde_json::{Map, Value};

use crate::args::{JobKindArg, PipelineArgs, PipelineCommand};
use crate::render;

/// How often plain progress lines are printed without a terminal.
const PLAIN_EVERY: Duration = Duration::from_secs(5);

pub fn run(engine: &Engine, args: PipelineArgs, cancel: &CancelToken) -> ExitCode {
    let started = Instant::now();
    let outcome = match args.command {
        Some(PipelineCommand::Merge(merge_args)) => merge(&merge_args.shards, &merge_args.out),
        None => batch(engine, &args, cancel),
    };
    match outcome {
        Ok(summary) => {
            if args.json {
                let text = serde_json::to_vec(&summary.summary).unwrap_or_default();
                let _ = render::json_line(&[&text]);
            } else {
                render::pipeline_summary(&summary.summary, started.elapsed());
            }
            if summary.cancelled > 0 && cancel.is_cancelled() {
                ExitCode::from(130)
            } else if summary.failed > 0 || summary.cancelled > 0 {
                ExitCode::from(1)
            } else {
                ExitCode::SUCCESS
            }
        }
        Err(failure) => {
            render::failure("pipeline", &failure, args.json);
            ExitCode::from(if failure.is_cancellation() { 130 } else { 1 })
        }
    }
}

fn batch(
    engine: &Engine,
    args: &PipelineArgs,
    cancel: &CancelToken,
) -> Result<BatchSummary, Failure> {
    let job = match args.job {
        JobKindArg::AnalyzeJavascriptApplication => JobKind::AnalyzeJavascriptApplication,
        JobKindArg::InventoryArtifact => JobKind::InventoryArtifact,
    };
    let mut inputs: Vec<BatchInput> = expand_args(&args.inputs)?
        .into_iter()
        .map(|path| BatchInput {
            path,
            job,
            options: Map::new(),
        })
        .collect();
    if let Some(manifest) = &args.manifest {
        inputs.extend(read_manifest(manifest, job)?);
    }
    if inputs.is_empty() {
        return Err(Failure::new(
            FailureReason::InvalidInput,
            "no inputs: give paths, globs or --manifest FILE",
        ));
    }
    let shard = match &args.shard {
        Some(text) => {
            Some(Shard::parse(text).map_err(|m| Failure::new(FailureReason::InvalidInput, m))?)
        }
        None => Shard::from_env(|name| std::env::var(name).ok())
            .map_err(|m| Failure::new(FailureReason::InvalidInput, m))?,
    };
    let Some(out) = args.out.clone() else {
        return Err(Failure::new(
            FailureReason::InvalidInput,
            "--out DIR is required",
        ));
    };
    let options = BatchOptions {
        out,
        force: args.force,
        shard,
        concurrency: args.concurrency.unwrap_or(engine.threads() + 1),
    };
    let observer = Observer::new();
    run_batch(engine, inputs, &options, cancel, &observer)
}

struct Observer {
    started: Instant,
    total: AtomicU64,
    done: AtomicU64,
    bytes: AtomicU64,
    bars: Option<(MultiProgress, ProgressBar)>,
    last_plain: Mutex<Instant>,
    running: Mutex<BTreeMap<String, ProgressBar>>,
}

impl Observer {
    fn new() -> Observer {
        let bars = std::io::stderr().is_terminal().then(|| {
            let multi = MultiProgress::with_draw_target(ProgressDrawTarget::stderr());
            let overall = multi.add(ProgressBar::new(0));
            overall.set_style(
                ProgressStyle::with_template("{pos}/{len} inputs [{bar:30}] {msg} eta {eta}")
                    .unwrap_or_else(|_| ProgressStyle::default_bar())
                    .progress_chars("=> "),
            );
            (multi, overall)
        });
        Observer {
            started: Instant::now(),
            total: AtomicU64::new(0),
            done: AtomicU64::new(0),
            bytes: AtomicU64::new(0),
            bars,
            last_plain: Mutex::new(Instant::now()),
            running: Mutex::new(BTreeMap::new()),
        }
    }

    fn rate(&self) -> String {
        let bytes = self.bytes.load(Ordering::Relaxed) as f64 / (1 << 20) as f64;
        let secs = self.started.elapsed().as_secs_f64().max(1e-3);
        format!("{bytes:.1} MiB, {:.1} MiB/s", bytes / secs)
    }
}

struct LineSink {
    bar: ProgressBar,
    name: String,
}

impl ProgressSink for LineSink {
    fn send(&self, update: &ProgressUpdate) {
        self.bar
            .set_message(format!("{}: {}", self.name, update.phase));
    }
}

impl BatchObserver for Observer {
    fn begin(&self, total: usize) {
        self.total.store(total as u64, Ordering::Relaxed);
        if let Some((_, overall)) = &self.bars {
            overall.set_length(total as u64);
        }
    }

    fn started(&self, input: &BatchInput, _bytes: u64) -> ProgressReporter {
        let Some((multi, _)) = &self.bars else {
            return ProgressReporter::silent();
        };
        let name = input.path.to_string_lossy().into_owned();
        let bar = multi.add(ProgressBar::new_spinner());
        bar.enable_steady_tick(Duration::from_millis(200));
        bar.set_message(name.clone());
        if let Ok(mut running) = self.running.lock() {
            running.insert(name.clone(), bar.clone());
        }
        ProgressReporter::new(
            Arc::new(LineSink { bar, name }),
            Arc::new(SystemClock::default()),
        )
    }

    fn finished(&self, input: &BatchInput, line: &Map<String, Value>, reused: bool) {
        let done = self.done.fetch_add(1, Ordering::Relaxed) + 1;
        if let Some(bytes) = line.get("input_bytes").and_then(Value::as_u64) {
            self.bytes.fetch_add(bytes, Ordering::Relaxed);
        }
        let total = self.total.load(Ordering::Relaxed);
        let status = line
            .get("status")
            .and_then(Value::as_str)
            .unwrap_or("failed");
        if let Some((_, overall)) = &self.bars {
            if let Some(bar) = self
                .running
                .lock()
                .ok()
                .and_then(|mut r| r.remove(input.path.to_string_lossy().as_ref()))
            {
                bar.finish_and_clear();
            }
            overall.set_position(done);
            overall.set_message(self.rate());
            if status != "ok" {
                overall.println(format!("{status}: {}", input.path.display()));
            }
            if done == total {
                overall.finish_and_clear();
            }
            return;
        }
        let Ok(mut last) = self.last_plain.lock() else {
            return;
        };
        if status != "ok" || done == total || last.elapsed() >= PLAIN_EVERY {
            *last = Instant::now();
            let what = if reused { "reused" } else { status };
            eprintln!(
                "pipeline: {done}/{total} inputs, {}; last {what}: {}",
                self.rate(),
                input.path.display()
            );
        }
    }
}

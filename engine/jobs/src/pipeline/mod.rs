//! Batch runs: many inputs, one engine, an output directory that survives crashes.
//!
//! [`run_batch`] runs each input's job on the shared engine from a few worker threads (so
//! large and small inputs interleave on the pool) and writes, under `out/`:
//!
//! - `evidence/<evidence_id>.json`: the canonical sealed record, published atomically;
//! - `results/<key>.json`: the index line of a finished result, published atomically after
//!   its evidence. `key` is the SHA-256 of the canonical JSON of
//!   `{input_sha256, job, options_sha256, rea_version}`, so a rerun finds finished work by
//!   content, and skips it unless `force`;
//! - `index.jsonl`: one line per input, in identity order (absolute path, job, options);
//! - `summary.json`: `totals` (a pure function of the index) and `run` (this run's timings).
//!
//! A shard writes `index-K-of-N.jsonl` and `summary-K-of-N.json` instead, so shards can share
//! one output directory (evidence and results are content-addressed and published atomically).
//!
//! A failed input is recorded in the index with its error object and retried by the next run;
//! it never stops the batch. A killed run leaves only whole files behind (stale temporary files,
//! named `.rea-partial-*`, are removed by the next run), so rerunning finishes the rest and
//! ends in the same state as an uninterrupted run, timings apart. [`merge`] combines the
//! outputs of shards ([`Shard`]) into the same state too.

mod inputs;
mod shard;

use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use rea_core::{CancelToken, Failure, FailureReason, ProgressReporter};
use serde_json::{Map, Value, json};

pub use inputs::{
    BatchInput, JobKind, JobOptions, JobRequest, absolute, expand_args, input_digest,
    read_manifest, request_for,
};
pub use shard::Shard;

use crate::canonical::{canonical_bytes, sha256_hex};
use crate::error::ErrorObject;
use crate::publish::write_file_atomically;
use crate::{Engine, JobControl, Published, REA_VERSION};

/// How a batch runs.
#[derive(Debug, Clone)]
pub struct BatchOptions {
    pub out: PathBuf,
    /// Redo inputs whose result is already in `out`.
    pub force: bool,
    /// Only this shard's inputs.
    pub shard: Option<Shard>,
    /// Inputs in flight at once (at least 1).
    pub concurrency: usize,
}

/// What a front door sees of a running batch.
pub trait BatchObserver: Sync {
    /// The batch starts with `total` inputs (after sharding).
    fn begin(&self, _total: usize) {}
    /// `input` starts; returns the reporter its job reports to.
    fn started(&self, _input: &BatchInput, _bytes: u64) -> ProgressReporter {
        ProgressReporter::silent()
    }
    /// `input` is done; `line` is its index line.
    fn finished(&self, _input: &BatchInput, _line: &Map<String, Value>, _reused: bool) {}
}

/// An observer that sees nothing.
#[derive(Debug)]
pub struct Quiet;

impl BatchObserver for Quiet {}

/// What a batch did.
#[derive(Debug, Clone)]
pub struct BatchSummary {
    /// `summary.json` as written.
    pub summary: Value,
    pub failed: usize,
    pub cancelled: usize,
}

const EVIDENCE_DIR: &str = "evidence";
const RESULTS_DIR: &str = "results";
/// Index-line fields that describe one run rather than the result.
pub const TIMING_FIELDS: [&str; 2] = ["elapsed_ms", "stages"];

/// What one archive entry costs to analyse, in bytes of content that cost as much. Measured
/// on the benchmark batch (BENCHMARKS.md): a megabyte of ASAR header (about 8,000 entries)
/// cost about 20 times a megabyte of JavaScript.
const ENTRY_COST_BYTES: u64 = 2560;

/// Runs `inputs` (those of `options.shard`) into `options.out`.
pub fn run_batch(
    engine: &Engine,
    inputs: Vec<BatchInput>,
    options: &BatchOptions,
    cancel: &CancelToken,
    observer: &dyn BatchObserver,
) -> Result<BatchSummary, Failure> {
    let started = Instant::now();
    prepare_out(&options.out)?;
    let mut selected: Vec<(String, BatchInput)> = inputs
        .into_iter()
        .map(|input| (input.identity(), input))
        .filter(|(identity, _)| options.shard.is_none_or(|s| s.selects(identity)))
        .collect();
    selected.sort_by(|a, b| a.0.cmp(&b.0));
    selected.dedup_by(|a, b| a.0 == b.0);
    observer.begin(selected.len());

    let lines: Vec<Mutex<Option<Map<String, Value>>>> =
        selected.iter().map(|_| Mutex::new(None)).collect();
    // Costliest first (longest-processing-time scheduling): the costliest inputs start at once
    // on their own workers while the cheap ones fill the others, so no single huge input is
    // left to run alone at the end. The cost is estimated from the input's bytes plus its
    // entries (read from an archive's index): per-entry work (graph items, ids, validation)
    // outweighs bytes in archives of many small files. Directories and missing paths count
    // as 0.
    let mut order: Vec<usize> = (0..selected.len()).collect();
    let sizes: Vec<u64> = selected
        .iter()
        .map(|(_, input)| {
            let path = absolute(&input.path);
            std::fs::metadata(&path).map_or(0, |m| {
                if m.is_file() {
                    m.len().saturating_add(
                        rea_traverse::entry_estimate(&path).saturating_mul(ENTRY_COST_BYTES),
                    )
                } else {
                    0
                }
            })
        })
        .collect();
    order.sort_by(|&a, &b| sizes[b].cmp(&sizes[a]).then(a.cmp(&b)));
    let next = AtomicUsize::new(0);
    let ran = AtomicUsize::new(0);
    let reused = AtomicUsize::new(0);
    let workers = options.concurrency.clamp(1, selected.len().max(1));
    std::thread::scope(|scope| {
        for _ in 0..workers {
            scope.spawn(|| {
                while let Some(&i) = order.get(next.fetch_add(1, Ordering::Relaxed)) {
                    let (_, input) = &selected[i];
                    let (line, was_reused) = one(engine, input, options, cancel, observer);
                    if was_reused {
                        reused.fetch_add(1, Ordering::Relaxed);
                    } else if line["status"] == "ok" {
                        ran.fetch_add(1, Ordering::Relaxed);
                    }
                    observer.finished(input, &line, was_reused);
                    if let Ok(mut slot) = lines[i].lock() {
                        *slot = Some(line);
                    }
                }
            });
        }
    });
    let lines: Vec<Map<String, Value>> = lines
        .into_iter()
        .map(|slot| slot.into_inner().ok().flatten().unwrap_or_default())
        .collect();
    let run = json!({
        "wall_ms": started.elapsed().as_secs_f64() * 1e3,
        "ran": ran.load(Ordering::Relaxed),
        "reused": reused.load(Ordering::Relaxed),
        "shard": options.shard.map(|s| s.to_string()),
        "threads": engine.threads(),
        "concurrency": workers,
    });
    let name = options
        .shard
        .map(|s| format!("-{}-of-{}", s.index + 1, s.count));
    write_index(
        &options.out,
        name.as_deref().unwrap_or(""),
        &lines,
        run,
        started,
    )
}

/// Creates the output directories and removes temporary files a killed run left.
fn prepare_out(out: &Path) -> Result<(), Failure> {
    for dir in [
        out.to_path_buf(),
        out.join(EVIDENCE_DIR),
        out.join(RESULTS_DIR),
    ] {
        std::fs::create_dir_all(&dir).map_err(|err| {
            Failure::new(FailureReason::Path, "output directory could not be created")
                .with_detail("path", dir.to_string_lossy().into_owned())
                .with_source(err)
        })?;
        if let Ok(entries) = std::fs::read_dir(&dir) {
            for entry in entries.flatten() {
                if entry
                    .file_name()
                    .to_string_lossy()
                    .starts_with(".rea-partial-")
                {
                    let _ = std::fs::remove_file(entry.path());
                }
            }
        }
    }
    Ok(())
}

/// Runs (or reuses) one input; returns its index line and whether it was reused.
fn one(
    engine: &Engine,
    input: &BatchInput,
    options: &BatchOptions,
    cancel: &CancelToken,
    observer: &dyn BatchObserver,
) -> (Map<String, Value>, bool) {
    let started = Instant::now();
    let options_sha256 = sha256_hex(&canonical_bytes(&input.options).unwrap_or_default());
    let mut line = Map::new();
    line.insert(
        "path".into(),
        absolute(&input.path).to_string_lossy().into_owned().into(),
    );
    line.insert("job".into(), input.job.as_str().into());
    line.insert("options".into(), Value::Object(input.options.clone()));
    line.insert("options_sha256".into(), options_sha256.clone().into());
    line.insert("rea_version".into(), REA_VERSION.into());
    for key in ["input_sha256", "input_bytes", "key", "evidence_id", "error"] {
        line.insert(key.into(), Value::Null);
    }
    line.insert("headline".into(), json!({}));
    line.insert("stages".into(), json!({}));
    let finish = |mut line: Map<String, Value>, status: &str, failure: Option<&Failure>| {
        line.insert("status".into(), status.into());
        if let Some(failure) = failure {
            let error = ErrorObject::from_failure(input.job.as_str(), failure).to_json();
            line.insert("error".into(), error);
        }
        line.insert(
            "elapsed_ms".into(),
            (started.elapsed().as_secs_f64() * 1e3).into(),
        );
        line
    };
    if cancel.is_cancelled() {
        let failure = Failure::new(
            FailureReason::Cancelled,
            "batch cancelled before this input",
        );
        return (finish(line, "cancelled", Some(&failure)), false);
    }
    let (input_sha256, bytes) = match input_digest(&absolute(&input.path), cancel) {
        Ok(digest) => digest,
        Err(failure) => return (finish_failure(finish, line, &failure), false),
    };
    let key = sha256_hex(
        &canonical_bytes(&json!({
            "input_sha256": input_sha256,
            "job": input.job.as_str(),
            "options_sha256": options_sha256,
            "rea_version": REA_VERSION,
        }))
        .unwrap_or_default(),
    );
    line.insert("input_sha256".into(), input_sha256.into());
    line.insert("input_bytes".into(), bytes.into());
    line.insert("key".into(), key.clone().into());
    let done = options.out.join(RESULTS_DIR).join(format!("{key}.json"));
    if !options.force
        && let Some(previous) = finished_result(&options.out, &done, &line)
    {
        return (previous, true);
    }
    let progress = observer.started(input, bytes);
    let outcome = request_for(input).and_then(|request| {
        let ctl = JobControl {
            cancel,
            progress: &progress,
            timeout: None,
        };
        match request {
            JobRequest::Analyze(request) => engine.analyze_javascript_application(&request, &ctl),
            JobRequest::Inventory(request) => engine.inventory_artifact(&request, &ctl),
        }
    });
    let published = match outcome {
        Ok(published) => published,
        Err(failure) => return (finish_failure(finish, line, &failure), false),
    };
    match publish(
        &options.out,
        &done,
        line.clone(),
        &published,
        cancel,
        finish,
    ) {
        Ok(line) => (line, false),
        Err(failure) => (finish_failure(finish, line, &failure), false),
    }
}

fn finish_failure(
    finish: impl Fn(Map<String, Value>, &str, Option<&Failure>) -> Map<String, Value>,
    line: Map<String, Value>,
    failure: &Failure,
) -> Map<String, Value> {
    let status = if failure.is_cancellation() {
        "cancelled"
    } else {
        "failed"
    };
    finish(line, status, Some(failure))
}

/// The stored line of a finished result for `line`'s key, if it and its evidence are whole.
fn finished_result(
    out: &Path,
    done: &Path,
    line: &Map<String, Value>,
) -> Option<Map<String, Value>> {
    let stored: Map<String, Value> = serde_json::from_slice(&std::fs::read(done).ok()?).ok()?;
    let id = stored.get("evidence_id")?.as_str()?;
    let evidence = out.join(EVIDENCE_DIR).join(format!("{id}.json"));
    let same = ["path", "job", "options", "key"]
        .iter()
        .all(|k| stored.get(*k) == line.get(*k));
    (same && evidence.is_file()).then_some(stored)
}

/// Writes the evidence, then the result line, each atomically.
fn publish(
    out: &Path,
    done: &Path,
    mut line: Map<String, Value>,
    published: &Published,
    cancel: &CancelToken,
    finish: impl Fn(Map<String, Value>, &str, Option<&Failure>) -> Map<String, Value>,
) -> Result<Map<String, Value>, Failure> {
    let evidence = out
        .join(EVIDENCE_DIR)
        .join(format!("{}.json", published.evidence_id()));
    write_file_atomically(cancel, &evidence, published.record())?;
    line.insert("evidence_id".into(), published.evidence_id().into());
    line.insert("headline".into(), Value::Object(published.headline.clone()));
    let stages: Map<String, Value> = published
        .stages
        .iter()
        .map(|t| (t.stage.to_owned(), (t.elapsed.as_secs_f64() * 1e3).into()))
        .collect();
    line.insert("stages".into(), Value::Object(stages));
    let line = finish(line, "ok", None);
    let bytes = canonical_bytes(&line).map_err(|err| {
        Failure::new(FailureReason::Internal, "index line has no canonical form").with_source(err)
    })?;
    write_file_atomically(cancel, done, &bytes)?;
    Ok(line)
}

/// Writes `index{suffix}.jsonl` and `summary{suffix}.json` for `lines` (already in identity
/// order).
fn write_index(
    out: &Path,
    suffix: &str,
    lines: &[Map<String, Value>],
    run: Value,
    started: Instant,
) -> Result<BatchSummary, Failure> {
    let mut index = Vec::new();
    for line in lines {
        index.extend(canonical_bytes(line).map_err(|err| {
            Failure::new(FailureReason::Internal, "index line has no canonical form")
                .with_source(err)
        })?);
        index.push(b'\n');
    }
    let count = |status: &str| lines.iter().filter(|l| l["status"] == status).count();
    let (ok, failed, cancelled) = (count("ok"), count("failed"), count("cancelled"));
    let bytes: u64 = lines
        .iter()
        .filter(|l| l["status"] == "ok")
        .filter_map(|l| l["input_bytes"].as_u64())
        .sum();
    let mut by_job = Map::new();
    for line in lines {
        let job = line["job"].as_str().unwrap_or_default().to_owned();
        let entry = by_job
            .entry(job)
            .or_insert_with(|| json!({"ok": 0, "failed": 0, "cancelled": 0}));
        let status = line["status"].as_str().unwrap_or("failed");
        entry[status] = (entry[status].as_u64().unwrap_or(0) + 1).into();
    }
    let wall = started.elapsed().as_secs_f64();
    let mut run = run;
    run["throughput_mib_s"] = if wall > 0.0 {
        json!(bytes as f64 / wall / (1 << 20) as f64)
    } else {
        Value::Null
    };
    let summary = json!({
        "totals": {
            "inputs": lines.len(),
            "ok": ok,
            "failed": failed,
            "cancelled": cancelled,
            "input_bytes": bytes,
            "by_job": by_job,
            "rea_version": REA_VERSION,
        },
        "run": run,
    });
    // The index stays valid even when the batch was cancelled: it is written whole either way.
    let never = CancelToken::new();
    write_file_atomically(&never, &out.join(format!("index{suffix}.jsonl")), &index)?;
    let mut text = serde_json::to_vec_pretty(&summary).unwrap_or_default();
    text.push(b'\n');
    write_file_atomically(&never, &out.join(format!("summary{suffix}.json")), &text)?;
    Ok(BatchSummary {
        summary,
        failed,
        cancelled,
    })
}

/// Combines shard outputs into `out`: evidence and results copied (identical files are
/// shared), index lines joined in identity order, totals recomputed.
pub fn merge(shards: &[PathBuf], out: &Path) -> Result<BatchSummary, Failure> {
    let started = Instant::now();
    let never = CancelToken::new();
    let mut indexes: Vec<(PathBuf, PathBuf)> = Vec::new();
    for shard in shards {
        let found = shard_indexes(shard);
        if found.is_empty() {
            return Err(
                Failure::new(FailureReason::Path, "shard output has no index")
                    .with_detail("path", shard.to_string_lossy().into_owned()),
            );
        }
        indexes.extend(found.into_iter().map(|index| (shard.clone(), index)));
    }
    // Every shard line is read and checked before anything is written.
    let mut parsed: Vec<(&Path, Map<String, Value>)> = Vec::new();
    for (shard, index) in &indexes {
        let text = std::fs::read_to_string(index).map_err(|err| {
            Failure::new(FailureReason::Path, "shard index could not be read")
                .with_detail("path", index.to_string_lossy().into_owned())
                .with_source(err)
        })?;
        for raw in text.lines().filter(|l| !l.trim().is_empty()) {
            let line: Map<String, Value> = serde_json::from_str(raw).map_err(|err| {
                Failure::new(FailureReason::InvalidInput, "shard index line is not JSON")
                    .with_detail("path", index.to_string_lossy().into_owned())
                    .with_source(err)
            })?;
            check_line(&line).map_err(|field| {
                Failure::new(FailureReason::InvalidInput, "shard index line is malformed")
                    .with_detail("path", index.to_string_lossy().into_owned())
                    .with_detail("field", field)
            })?;
            parsed.push((shard.as_path(), line));
        }
    }
    prepare_out(out)?;
    let mut lines: Vec<(String, Map<String, Value>)> = Vec::new();
    for (shard, line) in parsed {
        for dir in [EVIDENCE_DIR, RESULTS_DIR] {
            let name = match dir {
                EVIDENCE_DIR => line["evidence_id"].as_str().map(|id| format!("{id}.json")),
                _ if line["status"] == "ok" => line["key"].as_str().map(|k| format!("{k}.json")),
                _ => None,
            };
            let Some(name) = name else { continue };
            let (from, to) = (shard.join(dir).join(&name), out.join(dir).join(&name));
            if from == to || to.is_file() {
                continue;
            }
            let bytes = std::fs::read(&from).map_err(|err| {
                Failure::new(FailureReason::Path, "shard file is missing")
                    .with_detail("path", from.to_string_lossy().into_owned())
                    .with_source(err)
            })?;
            write_file_atomically(&never, &to, &bytes)?;
        }
        let identity = BatchInput {
            path: PathBuf::from(line["path"].as_str().unwrap_or_default()),
            job: line["job"]
                .as_str()
                .and_then(JobKind::parse)
                .unwrap_or(JobKind::AnalyzeJavascriptApplication),
            options: line["options"].as_object().cloned().unwrap_or_default(),
        }
        .identity();
        lines.push((identity, line));
    }
    // One line per identity; a finished result wins over a failure from another shard.
    lines.sort_by(|a, b| {
        a.0.cmp(&b.0)
            .then_with(|| (b.1["status"] == "ok").cmp(&(a.1["status"] == "ok")))
    });
    lines.dedup_by(|a, b| a.0 == b.0);
    let lines: Vec<Map<String, Value>> = lines.into_iter().map(|(_, l)| l).collect();
    let run = json!({
        "wall_ms": started.elapsed().as_secs_f64() * 1e3,
        "merged_from": shards.len(),
    });
    write_index(out, "", &lines, run, started)
}

/// The fields `merge` and the index writer read from a line written by another process,
/// with their types; returns the first one that is missing or wrong.
fn check_line(line: &Map<String, Value>) -> Result<(), &'static str> {
    let string = |key| line.get(key).and_then(Value::as_str);
    if string("path").is_none() {
        return Err("path");
    }
    if string("job").and_then(JobKind::parse).is_none() {
        return Err("job");
    }
    if !line.get("options").is_some_and(Value::is_object) {
        return Err("options");
    }
    if !matches!(string("status"), Some("ok" | "failed" | "cancelled")) {
        return Err("status");
    }
    let ok = string("status") == Some("ok");
    for key in ["evidence_id", "key"] {
        match line.get(key) {
            Some(Value::String(text)) if !text.contains(['/', '\\']) && !text.starts_with('.') => {}
            Some(Value::Null) if !ok => {}
            _ => return Err(key),
        }
    }
    if !line
        .get("input_bytes")
        .is_some_and(|v| v.is_u64() || v.is_null())
    {
        return Err("input_bytes");
    }
    Ok(())
}

/// A shard directory's index files: every `index-K-of-N.jsonl`, or else its `index.jsonl`.
fn shard_indexes(dir: &Path) -> Vec<PathBuf> {
    let mut sharded: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|entries| {
            entries
                .filter_map(Result::ok)
                .map(|e| e.path())
                .filter(|p| {
                    let name = p
                        .file_name()
                        .map(|n| n.to_string_lossy().into_owned())
                        .unwrap_or_default();
                    name.starts_with("index-") && name.ends_with(".jsonl") && name.contains("-of-")
                })
                .collect()
        })
        .unwrap_or_default();
    sharded.sort();
    if sharded.is_empty() && dir.join("index.jsonl").is_file() {
        sharded.push(dir.join("index.jsonl"));
    }
    sharded
}

//! `rea pipeline`: a mixed batch, reruns, a killed run, and shard/merge equivalence.

mod support;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::{Map, Value};
use support::{rea, sample};

/// Index lines without the fields that describe one run's timing.
fn index_without_timings(out: &Path) -> Vec<Map<String, Value>> {
    index_file_without_timings(&out.join("index.jsonl"))
}

fn index_file_without_timings(index: &Path) -> Vec<Map<String, Value>> {
    std::fs::read_to_string(index)
        .unwrap()
        .lines()
        .map(|line| {
            let mut line: Map<String, Value> = serde_json::from_str(line).unwrap();
            line.remove("elapsed_ms");
            line.remove("stages");
            line
        })
        .collect()
}

/// Every file below `dir/evidence` and `dir/results`, by relative name, with its bytes; results
/// lose their timing fields.
fn published(out: &Path) -> BTreeMap<String, Vec<u8>> {
    let mut files = BTreeMap::new();
    for sub in ["evidence", "results"] {
        for entry in std::fs::read_dir(out.join(sub)).unwrap() {
            let entry = entry.unwrap();
            let name = entry.file_name().to_string_lossy().into_owned();
            let mut bytes = std::fs::read(entry.path()).unwrap();
            if sub == "results" {
                let mut line: Map<String, Value> = serde_json::from_slice(&bytes).unwrap();
                line.remove("elapsed_ms");
                line.remove("stages");
                bytes = serde_json::to_vec(&line).unwrap();
            }
            files.insert(format!("{sub}/{name}"), bytes);
        }
    }
    files
}

fn totals(out: &Path) -> Value {
    let summary: Value =
        serde_json::from_slice(&std::fs::read(out.join("summary.json")).unwrap()).unwrap();
    summary["totals"].clone()
}

fn run_summary(out: &Path) -> Value {
    let summary: Value =
        serde_json::from_slice(&std::fs::read(out.join("summary.json")).unwrap()).unwrap();
    summary["run"].clone()
}

/// `rea pipeline merge SHARDS… --out OUT`, which must succeed.
fn merge(shards: &[PathBuf], out: &Path) {
    let output = rea()
        .args(["pipeline", "merge"])
        .args(shards)
        .arg("--out")
        .arg(out)
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
}

fn pipeline(args: &[&str], out: &Path) -> std::process::Output {
    rea()
        .arg("pipeline")
        .args(args)
        .arg("--out")
        .arg(out)
        .output()
        .unwrap()
}

/// `count` small distinct applications under `dir`.
fn small_apps(dir: &Path, count: usize) -> Vec<String> {
    (0..count)
        .map(|i| {
            let app = dir.join(format!("app-{i:02}"));
            std::fs::create_dir_all(app.join("src")).unwrap();
            std::fs::write(
                app.join("package.json"),
                format!(
                    "{{\"name\":\"app-{i}\",\"version\":\"1.0.{i}\",\"main\":\"src/main.js\"}}"
                ),
            )
            .unwrap();
            let mut main =
                String::from("const { app, BrowserWindow, ipcMain } = require('electron');\n");
            for j in 0..200 {
                main.push_str(&format!(
                    "ipcMain.handle('channel-{i}-{j}', async () => {{ return {j} * {i}; }});\n"
                ));
            }
            std::fs::write(app.join("src/main.js"), main).unwrap();
            app.to_string_lossy().into_owned()
        })
        .collect()
}

#[test]
fn a_mixed_batch_seals_the_good_inputs_and_records_the_bad_ones() {
    let corpus = support::corpus("asar-corpus.sh", "asar");
    let dir = tempfile::tempdir().unwrap();
    let corrupt = dir.path().join("corrupt.asar");
    std::fs::write(&corrupt, b"\x04\x00\x00\x00not a pickle at all").unwrap();
    let zip = dir.path().join("sample.zip");
    let status = Command::new("python3")
        .arg(support::scripts().join("zip_tool.py"))
        .arg("pack")
        .arg(sample())
        .arg(&zip)
        .status()
        .unwrap();
    assert!(status.success());
    let manifest = dir.path().join("batch.jsonl");
    let lines = [
        format!("{{\"path\": {:?}}}", corpus.join("plain.asar")),
        format!(
            "{{\"path\": {:?}, \"job\": \"inventory_artifact\"}}",
            corpus.join("unpack-node.asar")
        ),
        format!(
            "{{\"path\": {:?}, \"job\": \"inventory_artifact\", \"options\": {{\"integrity_policy\": \"record-and-continue\"}}}}",
            corpus.join("unpack-dir.asar")
        ),
        format!(
            "{{\"path\": {:?}, \"job\": \"inventory_artifact\"}}",
            corpus.join("tree")
        ),
        format!("{{\"path\": {:?}}}", zip),
        format!("{{\"path\": {:?}}}", corrupt),
        format!("{{\"path\": {:?}}}", dir.path().join("missing.asar")),
    ];
    std::fs::write(&manifest, lines.join("\n") + "\n# a comment\n").unwrap();
    let out = dir.path().join("out");
    let sample_path = sample().canonicalize().unwrap();
    let output = pipeline(
        &[
            sample_path.to_str().unwrap(),
            "--manifest",
            manifest.to_str().unwrap(),
        ],
        &out,
    );
    assert_eq!(output.status.code(), Some(1), "an input failed: exit 1");
    let index = index_without_timings(&out);
    assert_eq!(index.len(), 8);
    let by_path: BTreeMap<String, &Map<String, Value>> = index
        .iter()
        .map(|l| (l["path"].as_str().unwrap().to_owned(), l))
        .collect();
    let status_of = |p: &Path| by_path[&p.to_string_lossy().into_owned()]["status"].clone();
    for good in [
        corpus.join("plain.asar"),
        corpus.join("unpack-node.asar"),
        corpus.join("unpack-dir.asar"),
        corpus.join("tree"),
        zip.clone(),
        sample_path.clone(),
    ] {
        assert_eq!(status_of(&good), "ok", "{}", good.display());
    }
    for bad in [&corrupt, &dir.path().join("missing.asar")] {
        let line = by_path[&bad.to_string_lossy().into_owned()];
        assert_eq!(line["status"], "failed");
        assert_eq!(line["evidence_id"], Value::Null);
        let error = &line["error"];
        assert_eq!(
            error["details"]["operation"],
            "analyze_javascript_application"
        );
        assert!(error["code"].is_string() && error["category"].is_string());
    }
    // The index is sorted by identity (path first).
    let paths: Vec<&str> = index.iter().map(|l| l["path"].as_str().unwrap()).collect();
    let mut sorted = paths.clone();
    sorted.sort();
    assert_eq!(paths, sorted);
    // The batch's Evidence is the single-run CLI's Evidence, byte for byte.
    let single = support::tool_json("analyze-javascript-application", &sample_path, &[]);
    let id = single["evidence_id"].as_str().unwrap();
    assert_eq!(
        by_path[&sample_path.to_string_lossy().into_owned()]["evidence_id"],
        id
    );
    let file: Value = serde_json::from_slice(
        &std::fs::read(out.join("evidence").join(format!("{id}.json"))).unwrap(),
    )
    .unwrap();
    assert_eq!(file, single["evidence"]);
    let totals = totals(&out);
    assert_eq!(
        (totals["ok"].as_u64(), totals["failed"].as_u64()),
        (Some(6), Some(2))
    );
    assert_eq!(totals["by_job"]["inventory_artifact"]["ok"], 3);
}

#[test]
fn a_rerun_does_no_work_and_force_redoes_it() {
    let dir = tempfile::tempdir().unwrap();
    let apps = small_apps(dir.path(), 4);
    let out = dir.path().join("out");
    let args: Vec<&str> = apps.iter().map(String::as_str).collect();
    assert!(pipeline(&args, &out).status.success());
    let first_index = std::fs::read(out.join("index.jsonl")).unwrap();
    assert_eq!(run_summary(&out)["ran"], 4);

    let second = pipeline(&args, &out);
    assert!(second.status.success());
    assert_eq!(run_summary(&out)["ran"], 0);
    assert_eq!(run_summary(&out)["reused"], 4);
    assert_eq!(
        std::fs::read(out.join("index.jsonl")).unwrap(),
        first_index,
        "a rerun rewrites the same index, timings included: nothing was redone"
    );

    let mut forced: Vec<&str> = args.clone();
    forced.push("--force");
    assert!(pipeline(&forced, &out).status.success());
    assert_eq!(run_summary(&out)["ran"], 4);
    assert_eq!(run_summary(&out)["reused"], 0);
    let after: Vec<Map<String, Value>> = index_without_timings(&out);
    let before: Vec<Map<String, Value>> = first_index
        .split(|b| *b == b'\n')
        .filter(|l| !l.is_empty())
        .map(|l| {
            let mut line: Map<String, Value> = serde_json::from_slice(l).unwrap();
            line.remove("elapsed_ms");
            line.remove("stages");
            line
        })
        .collect();
    assert_eq!(after, before, "redone work gives the same results");

    // A changed input is new work under a new key.
    std::fs::write(
        Path::new(&apps[0]).join("src/extra.js"),
        "require('./main');\n",
    )
    .unwrap();
    assert!(pipeline(&args, &out).status.success());
    assert_eq!(run_summary(&out)["ran"], 1);
    assert_eq!(run_summary(&out)["reused"], 3);
}

#[test]
fn a_killed_run_resumes_to_the_uninterrupted_state() {
    let dir = tempfile::tempdir().unwrap();
    let apps = small_apps(dir.path(), 16);
    let mut args: Vec<&str> = apps.iter().map(String::as_str).collect();
    args.extend(["--concurrency", "1"]);

    let whole = dir.path().join("whole");
    assert!(pipeline(&args, &whole).status.success());

    let killed = dir.path().join("killed");
    let mut child = rea()
        .arg("pipeline")
        .args(&args)
        .arg("--out")
        .arg(&killed)
        .arg("--threads")
        .arg("1")
        .spawn()
        .unwrap();
    let results = killed.join("results");
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(120);
    loop {
        let done = finished(&results);
        if done >= 3 || std::time::Instant::now() > deadline {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    child.kill().unwrap(); // SIGKILL
    child.wait().unwrap();
    let finished_before = std::fs::read_dir(&results).unwrap().count();
    assert!(
        finished_before < 24,
        "killed mid-way ({finished_before} done)"
    );
    // Whatever it left is whole: every published file parses.
    for sub in ["evidence", "results"] {
        for entry in std::fs::read_dir(killed.join(sub)).unwrap() {
            let entry = entry.unwrap();
            if entry
                .file_name()
                .to_string_lossy()
                .starts_with(".rea-partial-")
            {
                continue;
            }
            let bytes = std::fs::read(entry.path()).unwrap();
            serde_json::from_slice::<Value>(&bytes).expect("a published file is whole");
        }
    }

    let resumed = pipeline(&args, &killed);
    assert!(resumed.status.success());
    assert_eq!(run_summary(&killed)["reused"], finished_before);
    assert_eq!(
        index_without_timings(&killed),
        index_without_timings(&whole)
    );
    assert_eq!(published(&killed), published(&whole));
    assert_eq!(totals(&killed), totals(&whole));
}

/// Results published whole in `dir` (temporary files excluded).
fn finished(dir: &Path) -> usize {
    std::fs::read_dir(dir)
        .map(|d| {
            d.filter_map(Result::ok)
                .filter(|e| !e.file_name().to_string_lossy().starts_with(".rea-partial-"))
                .count()
        })
        .unwrap_or(0)
}

fn shard_equivalence(n: usize, apps: &[String], dir: &Path, single: &Path) {
    let args: Vec<&str> = apps.iter().map(String::as_str).collect();
    let outs: Vec<PathBuf> = (1..=n)
        .map(|k| dir.join(format!("n{n}-shard{k}")))
        .collect();
    let children: Vec<_> = outs
        .iter()
        .enumerate()
        .map(|(k, out)| {
            rea()
                .arg("pipeline")
                .args(&args)
                .arg("--out")
                .arg(out)
                .arg("--shard")
                .arg(format!("{}/{n}", k + 1))
                .arg("--threads")
                .arg("1")
                .spawn()
                .unwrap()
        })
        .collect();
    let mut sizes = 0;
    for (k, (mut child, out)) in children.into_iter().zip(&outs).enumerate() {
        assert!(child.wait().unwrap().success());
        let index = out.join(format!("index-{}-of-{n}.jsonl", k + 1));
        sizes += index_file_without_timings(&index).len();
    }
    assert_eq!(sizes, apps.len(), "every input is in exactly one shard");
    let merged = dir.join(format!("n{n}-merged"));
    merge(&outs, &merged);
    assert_eq!(
        index_without_timings(&merged),
        index_without_timings(single),
        "n = {n}"
    );
    assert_eq!(published(&merged), published(single), "n = {n}");
    assert_eq!(totals(&merged), totals(single), "n = {n}");
}

#[test]
fn merged_shards_equal_one_unsharded_run() {
    let dir = tempfile::tempdir().unwrap();
    let apps = small_apps(&dir.path().join("apps"), 9);
    let single = dir.path().join("single");
    let args: Vec<&str> = apps.iter().map(String::as_str).collect();
    assert!(pipeline(&args, &single).status.success());
    for n in 1..=3 {
        shard_equivalence(n, &apps, dir.path(), &single);
    }
}

#[test]
fn schedulers_pick_the_shard_through_the_environment() {
    let dir = tempfile::tempdir().unwrap();
    let apps = small_apps(&dir.path().join("apps"), 6);
    let args: Vec<&str> = apps.iter().map(String::as_str).collect();
    let mut lines = 0;
    // Both shards share one output directory, as a shared volume would.
    let out = dir.path().join("shared");
    for index in 0..2 {
        let output = rea()
            .arg("pipeline")
            .args(&args)
            .arg("--out")
            .arg(&out)
            .env("JOB_COMPLETION_INDEX", index.to_string())
            .env("JOB_COMPLETIONS", "2")
            .output()
            .unwrap();
        assert!(output.status.success());
        let summary: Value = serde_json::from_slice(
            &std::fs::read(out.join(format!("summary-{}-of-2.json", index + 1))).unwrap(),
        )
        .unwrap();
        assert_eq!(summary["run"]["shard"], format!("{}/2", index + 1));
        lines +=
            index_file_without_timings(&out.join(format!("index-{}-of-2.jsonl", index + 1))).len();
    }
    assert_eq!(lines, 6);
    // Merging the shared directory into itself gives the one index.
    merge(std::slice::from_ref(&out), &out);
    assert_eq!(index_without_timings(&out).len(), 6);
    assert_eq!(totals(&out)["ok"], 6);
    let bad = rea()
        .arg("pipeline")
        .args(&args)
        .arg("--out")
        .arg(dir.path().join("bad"))
        .env("SLURM_ARRAY_TASK_ID", "3")
        .output()
        .unwrap();
    assert_eq!(
        bad.status.code(),
        Some(1),
        "half a Slurm environment is an error"
    );
}

#[test]
fn bad_manifests_and_empty_batches_are_usage_errors() {
    let dir = tempfile::tempdir().unwrap();
    let manifest = dir.path().join("m.jsonl");
    std::fs::write(&manifest, "{\"path\": \"x\", \"colour\": 1}\n").unwrap();
    let output = pipeline(
        &["--manifest", manifest.to_str().unwrap(), "--json"],
        &dir.path().join("o"),
    );
    assert_eq!(output.status.code(), Some(1));
    let error: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(error["error"]["code"], "invalid_request");
    let none = pipeline(&[], &dir.path().join("o2"));
    assert_eq!(none.status.code(), Some(1));
    let glob = pipeline(
        &[&format!("{}/nothing-*.asar", dir.path().display())],
        &dir.path().join("o3"),
    );
    assert_eq!(glob.status.code(), Some(1));
}

/// A directory whose `rea` is the binary under test, for scripts that call `rea` by name.
fn rea_on_path(dir: &Path) -> String {
    let bin = dir.join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_rea"), bin.join("rea")).unwrap();
    format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    )
}

fn manifest_of(dir: &Path, apps: &[String]) -> PathBuf {
    let manifest = dir.join("batch.jsonl");
    let lines: Vec<String> = apps
        .iter()
        .map(|a| format!("{{\"path\": {a:?}}}"))
        .collect();
    std::fs::write(&manifest, lines.join("\n")).unwrap();
    manifest
}

#[test]
fn the_slurm_array_script_runs_as_written() {
    let dir = tempfile::tempdir().unwrap();
    let apps = small_apps(&dir.path().join("apps"), 5);
    let manifest = manifest_of(dir.path(), &apps);
    let single = dir.path().join("single");
    assert!(
        pipeline(&["--manifest", manifest.to_str().unwrap()], &single)
            .status
            .success()
    );

    let path = rea_on_path(dir.path());
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../deploy/slurm/array.sbatch");
    let out = dir.path().join("slurm-out");
    for task in 1..=3 {
        let status = Command::new("bash")
            .arg(&script)
            .arg(&manifest)
            .arg(&out)
            .env("PATH", &path)
            .env("SLURM_ARRAY_TASK_ID", task.to_string())
            .env("SLURM_ARRAY_TASK_MIN", "1")
            .env("SLURM_ARRAY_TASK_COUNT", "3")
            .env("SLURM_CPUS_PER_TASK", "1")
            .status()
            .unwrap();
        assert!(status.success(), "task {task}");
    }
    let shards: Vec<PathBuf> = (1..=3).map(|t| out.join(format!("shard-{t}"))).collect();
    let merged = dir.path().join("merged");
    merge(&shards, &merged);
    assert_eq!(
        index_without_timings(&merged),
        index_without_timings(&single)
    );
    assert_eq!(published(&merged), published(&single));
}

#[test]
fn the_kubernetes_indexed_job_runs_as_written() {
    let yaml =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../deploy/kubernetes/indexed-job.yaml");
    let read = Command::new(support::python())
        .args([
            "-c",
            "import json, sys, yaml; print(json.dumps(yaml.safe_load(open(sys.argv[1]))))",
        ])
        .arg(&yaml)
        .output()
        .unwrap();
    assert!(
        read.status.success(),
        "{}",
        String::from_utf8_lossy(&read.stderr)
    );
    let job: Value = serde_json::from_slice(&read.stdout).unwrap();
    assert_eq!(job["kind"], "Job");
    assert_eq!(job["spec"]["completionMode"], "Indexed");
    let completions = job["spec"]["completions"].as_u64().unwrap();
    let container = &job["spec"]["template"]["spec"]["containers"][0];
    let env: BTreeMap<String, String> = container["env"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            (
                e["name"].as_str().unwrap().to_owned(),
                e["value"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    assert_eq!(env["JOB_COMPLETIONS"], completions.to_string());
    let mount = container["volumeMounts"][0]["mountPath"]
        .as_str()
        .unwrap()
        .to_owned();

    // Run each pod's command as Kubernetes would, with the volume at a temporary directory.
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let apps = small_apps(&data.join("apps"), 6);
    std::fs::copy(manifest_of(dir.path(), &apps), data.join("batch.jsonl")).unwrap();
    let single = dir.path().join("single");
    let manifest = data.join("batch.jsonl");
    assert!(
        pipeline(&["--manifest", manifest.to_str().unwrap()], &single)
            .status
            .success()
    );
    let args: Vec<String> = container["args"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a.as_str().unwrap().replace(&mount, data.to_str().unwrap()))
        .collect();
    for index in 0..completions {
        let output = rea()
            .args(&args)
            .env("JOB_COMPLETION_INDEX", index.to_string())
            .envs(&env)
            .output()
            .unwrap();
        assert!(
            output.status.success(),
            "pod {index}: {}",
            String::from_utf8_lossy(&output.stderr)
        );
    }
    let out = data.join("out");
    merge(std::slice::from_ref(&out), &out);
    assert_eq!(index_without_timings(&out), index_without_timings(&single));
}

#[test]
fn ctrl_c_keeps_finished_results_and_a_valid_index() {
    let dir = tempfile::tempdir().unwrap();
    let apps = small_apps(dir.path(), 16);
    let mut args: Vec<&str> = apps.iter().map(String::as_str).collect();
    args.extend(["--concurrency", "1", "--threads", "1"]);
    let out = dir.path().join("out");
    let mut child = rea()
        .arg("pipeline")
        .args(&args)
        .arg("--out")
        .arg(&out)
        .spawn()
        .unwrap();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(120);
    while finished(&out.join("results")) < 2 && std::time::Instant::now() < deadline {
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    let status = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    let status = child.wait().unwrap();
    let index = index_without_timings(&out);
    assert_eq!(index.len(), 16, "the index lists every input");
    let ok = index.iter().filter(|l| l["status"] == "ok").count();
    let cancelled = index.iter().filter(|l| l["status"] == "cancelled").count();
    if cancelled > 0 {
        assert_eq!(status.code(), Some(130));
        assert_eq!(ok + cancelled, 16);
        assert!(
            index
                .iter()
                .filter(|l| l["status"] == "cancelled")
                .all(|l| l["error"]["code"] == "cancelled")
        );
    }
    assert_eq!(
        ok,
        finished(&out.join("results")),
        "every ok line has its result"
    );
    let rerun = pipeline(&args, &out);
    assert!(rerun.status.success());
    assert_eq!(run_summary(&out)["reused"], ok);
    assert_eq!(totals(&out)["ok"], 16);
}

#[test]
fn merging_a_garbled_shard_is_a_typed_error() {
    let dir = tempfile::tempdir().unwrap();
    let cases: [&str; 5] = [
        "{}\n",
        "not json\n",
        "{\"path\": \"/a\", \"job\": \"inventory_artifact\", \"options\": {}, \"status\": \"ok\", \"evidence_id\": \"../../etc/passwd\", \"key\": \"k\", \"input_bytes\": 1}\n",
        "{\"path\": \"/a\", \"job\": \"nope\", \"options\": {}, \"status\": \"ok\"}\n",
        "[1, 2]\n",
    ];
    for (i, index) in cases.iter().enumerate() {
        let shard = dir.path().join(format!("shard-{i}"));
        std::fs::create_dir_all(&shard).unwrap();
        std::fs::write(shard.join("index.jsonl"), index).unwrap();
        let out = dir.path().join(format!("out-{i}"));
        let output = rea()
            .args(["pipeline", "merge", "--json"])
            .arg(&shard)
            .arg("--out")
            .arg(&out)
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(1), "case {i}");
        let error: Value = serde_json::from_slice(&output.stdout).unwrap();
        assert_eq!(error["error"]["code"], "invalid_request", "case {i}");
        assert!(
            !out.join("index.jsonl").exists(),
            "case {i}: nothing merged"
        );
    }
}

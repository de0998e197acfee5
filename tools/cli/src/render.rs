//! What the CLI prints: a human summary, canonical JSON, or an error.

use std::io::Write;
use std::process::ExitCode;
use std::time::Duration;

use rea_core::{Failure, FailureReason};
use rea_jobs::Published;
use rea_jobs::error::ErrorObject;
use serde_json::{Value, json};

/// Prints canonical JSON and a newline to stdout.
pub fn json_line(bytes: &[u8]) -> ExitCode {
    let mut stdout = std::io::stdout().lock();
    if stdout
        .write_all(bytes)
        .and_then(|()| stdout.write_all(b"\n"))
        .and_then(|()| stdout.flush())
        .is_err()
    {
        return ExitCode::from(1);
    }
    ExitCode::SUCCESS
}

/// A short summary for people.
pub fn summary(operation: &str, published: &Published, elapsed: Duration) {
    let h = &published.headline;
    let n = |key: &str| h.get(key).and_then(Value::as_u64).unwrap_or(0);
    let s = |key: &str| h.get(key).and_then(Value::as_str).unwrap_or("");
    println!("{operation}: {} input", s("root_format"));
    println!(
        "  entries      {} ({} files, {} directories, {} symlinks){}",
        n("entries"),
        n("files"),
        n("directories"),
        n("symlinks"),
        if n("skipped") > 0 {
            format!(", {} skipped", n("skipped"))
        } else {
            String::new()
        }
    );
    println!(
        "  contents     {} distinct, {} hashed",
        n("distinct_contents"),
        bytes(n("bytes_hashed"))
    );
    if n("verified") + n("mismatched") + n("unverifiable") > 0 {
        println!(
            "  integrity    {} verified, {} mismatched, {} unverifiable",
            n("verified"),
            n("mismatched"),
            n("unverifiable")
        );
    }
    if n("unavailable") + n("not_hashed_limit") > 0 {
        println!(
            "  not hashed   {} unreadable, {} over max_entry_bytes",
            n("unavailable"),
            n("not_hashed_limit")
        );
    }
    println!("  manifest     {}", s("manifest_id"));
    println!("  evidence     {}", published.evidence_id());
    if n("limitations") > 0 {
        println!("  limitations  {} (see --json)", n("limitations"));
    }
    let stages: Vec<String> = published
        .stages
        .iter()
        .map(|t| format!("{} {:.3} s", t.stage, t.elapsed.as_secs_f64()))
        .collect();
    println!(
        "  time         {:.3} s ({})",
        elapsed.as_secs_f64(),
        stages.join(", ")
    );
}

/// The inspection, for people: the lists themselves, not just their sizes.
pub fn inspect_summary(published: &Published, elapsed: Duration) {
    let envelope: Value = serde_json::from_slice(published.envelope()).unwrap_or(Value::Null);
    let r = &envelope["result"];
    let s = &r["summary"];
    println!(
        "inspect_artifact: {} input, {} entries ({} files), {} distinct contents",
        r["manifest"]["root_format"].as_str().unwrap_or(""),
        s["entries"],
        s["files"],
        s["distinct_contents"]
    );
    let i = &r["integrity"];
    println!(
        "  integrity     {} verified, {} mismatched, {} unverifiable, {} unreadable",
        i["verified"], i["mismatched"], i["unverifiable"], i["unavailable"]
    );
    let kinds: Vec<String> = r["counts"]["by_kind"]
        .as_object()
        .map(|m| m.iter().map(|(k, v)| format!("{k} {v}")).collect())
        .unwrap_or_default();
    println!("  kinds         {}", kinds.join(", "));
    for e in r["entrypoints"].as_array().into_iter().flatten().take(10) {
        println!(
            "  entrypoint    {} ({})",
            e["logical_path"].as_str().unwrap_or(""),
            e["role"].as_str().unwrap_or("")
        );
    }
    for f in r["largest_files"].as_array().into_iter().flatten().take(5) {
        println!(
            "  large file    {} ({} bytes)",
            f["logical_path"].as_str().unwrap_or(""),
            f["size"]
        );
    }
    for t in r["suggested_next_tools"].as_array().into_iter().flatten() {
        println!(
            "  next          {}: {}",
            t["tool"].as_str().unwrap_or(""),
            t["reason"].as_str().unwrap_or("")
        );
    }
    println!("  evidence      {}", published.evidence_id());
    println!("  time          {:.3} s", elapsed.as_secs_f64());
}

/// A comparison, for people.
pub fn compare_summary(published: &Published, elapsed: Duration) {
    let h = &published.headline;
    let n = |key: &str| h.get(key).and_then(Value::as_u64).unwrap_or(0);
    println!(
        "compare_artifacts: {} added, {} removed, {} changed, {} unchanged, {} contradictions, {} unknown",
        n("added"),
        n("removed"),
        n("changed"),
        n("unchanged"),
        n("contradiction"),
        n("unknown")
    );
    println!("  evidence     {}", published.evidence_id());
    println!("  time         {:.3} s", elapsed.as_secs_f64());
}

/// A short summary of an extraction.
pub fn extract_summary(
    published: &Published,
    output_root: Option<&std::path::Path>,
    elapsed: Duration,
) {
    let files = published
        .headline
        .get("files")
        .and_then(Value::as_u64)
        .unwrap_or(0);
    let root = output_root
        .map(|p| p.display().to_string())
        .unwrap_or_default();
    println!("extract_artifact: {files} files written to {root}");
    println!("  evidence     {}", published.evidence_id());
    println!("  time         {:.3} s", elapsed.as_secs_f64());
}

/// Reports a failure: the error object on stdout with `--json`, one line on stderr always.
pub fn failure(operation: &str, failure: &Failure, json: bool) {
    let object = ErrorObject::from_failure(operation, failure);
    if json {
        let text = serde_json::to_string(&json!({"error": object.to_json()})).unwrap_or_default();
        println!("{text}");
    }
    if failure.reason == FailureReason::Cancelled {
        eprintln!("cancelled");
        return;
    }
    let path = failure.details.get("path").and_then(Value::as_str);
    match path {
        Some(path) => eprintln!("rea: {}: {path} [{}]", failure.message, object.code),
        None => eprintln!("rea: {} [{}]", failure.message, object.code),
    }
}

fn bytes(n: u64) -> String {
    const UNITS: [&str; 5] = ["B", "KiB", "MiB", "GiB", "TiB"];
    let mut value = n as f64;
    let mut unit = 0;
    while value >= 1024.0 && unit + 1 < UNITS.len() {
        value /= 1024.0;
        unit += 1;
    }
    if unit == 0 {
        format!("{n} B")
    } else {
        format!("{value:.1} {}", UNITS[unit])
    }
}

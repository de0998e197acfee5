//! What the CLI prints: a human summary, canonical JSON, or an error.

use std::io::Write;
use std::process::ExitCode;
use std::time::Duration;

use rea_core::{Failure, FailureReason};
use rea_jobs::Published;
use rea_jobs::error::ErrorObject;
use serde_json::{Value, json};

/// `println!` for summaries, except that a closed stdout (`rea … | head`) ends the process
/// quietly with status 0 instead of panicking: the job already finished, and whoever read the
/// first lines got what they asked for.
macro_rules! say {
    ($($arg:tt)*) => {{
        let mut stdout = std::io::stdout().lock();
        if writeln!(stdout, $($arg)*).is_err() {
            std::process::exit(0);
        }
    }};
}

/// Prints canonical JSON and a newline to stdout.
pub fn json_line(parts: &[&[u8]]) -> ExitCode {
    let mut stdout = std::io::stdout().lock();
    if parts
        .iter()
        .try_for_each(|part| stdout.write_all(part))
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
    say!("{operation}: {} input", s("root_format"));
    say!(
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
    say!(
        "  contents     {} distinct, {} hashed",
        n("distinct_contents"),
        bytes(n("bytes_hashed"))
    );
    if n("verified") + n("mismatched") + n("unverifiable") > 0 {
        say!(
            "  integrity    {} verified, {} mismatched, {} unverifiable",
            n("verified"),
            n("mismatched"),
            n("unverifiable")
        );
    }
    if n("asar_headers") > 0 {
        say!(
            "  asar headers {}: {} verified, {} mismatched, {} unverifiable (ElectronAsarIntegrity), {} undeclared",
            n("asar_headers"),
            n("asar_headers_verified"),
            n("asar_headers_mismatched"),
            n("asar_headers_unverifiable"),
            n("asar_headers_undeclared")
        );
    }
    for binary in h
        .get("electron_fuses")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
    {
        say!("  fuses on     {binary}");
    }
    if n("unavailable") + n("not_hashed_limit") > 0 {
        say!(
            "  not hashed   {} unreadable, {} over max_entry_bytes",
            n("unavailable"),
            n("not_hashed_limit")
        );
    }
    say!("  manifest     {}", s("manifest_id"));
    say!("  evidence     {}", published.evidence_id());
    if n("limitations") > 0 {
        say!("  limitations  {} (see --json)", n("limitations"));
    }
    let stages: Vec<String> = published
        .stages
        .iter()
        .map(|t| format!("{} {:.3} s", t.stage, t.elapsed.as_secs_f64()))
        .collect();
    say!(
        "  time         {:.3} s ({})",
        elapsed.as_secs_f64(),
        stages.join(", ")
    );
}

/// `<binary>: <the fuses it enables>` from one `electron_fuses` item.
fn fuses_on(binary: &Value) -> String {
    let on: Vec<&str> = binary["fuses"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|f| f["state"] == "enabled")
        .filter_map(|f| f["name"].as_str())
        .collect();
    let version = binary["electron_version"]
        .as_str()
        .map_or(String::new(), |v| format!(" (Electron {v})"));
    format!(
        "{}{version}: {}",
        binary["logical_path"].as_str().unwrap_or(""),
        if on.is_empty() {
            "none".to_owned()
        } else {
            on.join(", ")
        }
    )
}

/// The inspection, for people: the lists themselves, not just their sizes.
pub fn inspect_summary(published: &Published, elapsed: Duration) {
    let r: Value = serde_json::from_slice(published.result()).unwrap_or(Value::Null);
    let s = &r["summary"];
    say!(
        "inspect_artifact: {} input, {} entries ({} files), {} distinct contents",
        r["manifest"]["root_format"].as_str().unwrap_or(""),
        s["entries"],
        s["files"],
        s["distinct_contents"]
    );
    let i = &r["integrity"];
    say!(
        "  integrity     {} verified, {} mismatched, {} unverifiable, {} unreadable",
        i["verified"],
        i["mismatched"],
        i["unverifiable"],
        i["unavailable"]
    );
    for header in i["asar_headers"].as_array().into_iter().flatten() {
        let by: Vec<&str> = header["declarations"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|d| d["declared_by"].as_str())
            .collect();
        say!(
            "  asar header   {}: {}{}",
            header["logical_path"].as_str().unwrap_or(""),
            header["status"].as_str().unwrap_or(""),
            if by.is_empty() {
                String::new()
            } else {
                format!(" (declared by {})", by.join(", "))
            }
        );
    }
    for binary in i["electron_fuses"].as_array().into_iter().flatten() {
        say!("  fuses on      {}", fuses_on(binary));
    }
    let kinds: Vec<String> = r["counts"]["by_kind"]
        .as_object()
        .map(|m| m.iter().map(|(k, v)| format!("{k} {v}")).collect())
        .unwrap_or_default();
    say!("  kinds         {}", kinds.join(", "));
    for e in r["entrypoints"].as_array().into_iter().flatten().take(10) {
        say!(
            "  entrypoint    {} ({})",
            e["logical_path"].as_str().unwrap_or(""),
            e["role"].as_str().unwrap_or("")
        );
    }
    for f in r["largest_files"].as_array().into_iter().flatten().take(5) {
        say!(
            "  large file    {} ({} bytes)",
            f["logical_path"].as_str().unwrap_or(""),
            f["size"]
        );
    }
    for t in r["suggested_next_tools"].as_array().into_iter().flatten() {
        say!(
            "  next          {}: {}",
            t["tool"].as_str().unwrap_or(""),
            t["reason"].as_str().unwrap_or("")
        );
    }
    say!("  evidence      {}", published.evidence_id());
    say!("  time          {:.3} s", elapsed.as_secs_f64());
}

/// A comparison, for people.
pub fn compare_summary(published: &Published, elapsed: Duration) {
    let h = &published.headline;
    let n = |key: &str| h.get(key).and_then(Value::as_u64).unwrap_or(0);
    say!(
        "compare_artifacts: {} added, {} removed, {} changed, {} unchanged, {} contradictions, {} unknown",
        n("added"),
        n("removed"),
        n("changed"),
        n("unchanged"),
        n("contradiction"),
        n("unknown")
    );
    let r: Value = serde_json::from_slice(published.result()).unwrap_or(Value::Null);
    let packaging = &r["electron_packaging"];
    let text = |v: &Value| match v {
        Value::Null => "absent".to_owned(),
        Value::String(s) => s.clone(),
        other => other.to_string(),
    };
    for v in packaging["electron_versions"]
        .as_array()
        .into_iter()
        .flatten()
    {
        say!(
            "  electron     {}: {} -> {}",
            text(&v["logical_path"]),
            text(&v["left"]),
            text(&v["right"])
        );
    }
    for f in packaging["electron_fuses"].as_array().into_iter().flatten() {
        say!(
            "  fuse         {} {}: {} -> {}",
            text(&f["logical_path"]),
            text(&f["fuse"]),
            text(&f["left"]),
            text(&f["right"])
        );
    }
    for h in packaging["asar_headers"].as_array().into_iter().flatten() {
        say!(
            "  asar header  {}: {} -> {}",
            text(&h["logical_path"]),
            text(&h["left"]["status"]),
            text(&h["right"]["status"])
        );
    }
    say!("  evidence     {}", published.evidence_id());
    say!("  time         {:.3} s", elapsed.as_secs_f64());
}

/// Files listed by the human summary of a source-to-bundle comparison, per status.
const SHOWN_SOURCES: usize = 12;

/// A source-to-bundle comparison, for people: the counts, then the files that did not ship
/// as they are, by status.
pub fn sources_summary(published: &Published, elapsed: Duration) {
    let text = |v: &Value| v.as_str().unwrap_or("-").to_owned();
    let h = &published.headline;
    let n = |key: &str| h.get(key).and_then(Value::as_u64).unwrap_or(0);
    say!(
        "compare_source_to_bundle: {} source files: {} unchanged, {} modified, {} removed, {} split, {} merged, {} duplicated, {} unknown",
        n("source_files"),
        n("unchanged"),
        n("modified"),
        n("removed"),
        n("split"),
        n("merged"),
        n("duplicated"),
        n("unknown")
    );
    let r: Value = serde_json::from_slice(published.result()).unwrap_or(Value::Null);
    let reasons: Vec<String> = r["summary"]["unknown_reasons"]
        .as_object()
        .into_iter()
        .flatten()
        .map(|(k, v)| format!("{k} {}", v.as_u64().unwrap_or(0)))
        .collect();
    if !reasons.is_empty() {
        say!("  unknown      {}", reasons.join(", "));
    }
    say!(
        "  application  {} of {} nodes considered, {} sources or assets no file matched ({} outside node_modules), {} bundle(s) without original sources",
        n("considered_application_nodes"),
        n("projected_application_nodes"),
        n("application_only"),
        r["application_only"]["outside_dependencies"]
            .as_u64()
            .unwrap_or(0),
        n("unmapped_bundles")
    );
    let only = &r["application_only"];
    for node in only["nodes"]
        .as_array()
        .into_iter()
        .flatten()
        .take(n("application_only").min(SHOWN_SOURCES as u64) as usize)
    {
        say!(
            "  only shipped {} ({})",
            text(&node["path"]),
            text(&node["kind"])
        );
    }
    let items = r["items"].as_array().map_or(&[][..], Vec::as_slice);
    for status in ["modified", "removed", "split", "merged", "duplicated"] {
        let of: Vec<&Value> = items.iter().filter(|i| i["status"] == status).collect();
        for item in of.iter().take(SHOWN_SOURCES) {
            let first = &item["matches"][0];
            let to = first["path"]
                .as_str()
                .map(|p| format!(" -> {p} ({})", text(&item["confidence"])))
                .unwrap_or_default();
            say!("  {status:<12} {}{to}", text(&item["source_path"]));
        }
        if of.len() > SHOWN_SOURCES {
            say!("  {status:<12} … {} more", of.len() - SHOWN_SOURCES);
        }
    }
    say!("  coverage     {}", text(&r["coverage"]["status"]));
    say!("  evidence     {}", published.evidence_id());
    say!("  time         {:.3} s", elapsed.as_secs_f64());
}

/// Lines of changes shown by the human summary of a version comparison.
const SHOWN_CHANGES: usize = 40;

/// A version comparison, for people: the counts, how nodes paired, then the first changes.
pub fn versions_summary(published: &Published, elapsed: Duration) {
    let h = &published.headline;
    let n = |key: &str| h.get(key).and_then(Value::as_u64).unwrap_or(0);
    say!(
        "compare_application_versions: {} added, {} removed, {} changed, {} unchanged, {} unknown ({} nodes paired)",
        n("added"),
        n("removed"),
        n("changed"),
        n("unchanged"),
        n("unknown"),
        n("paired")
    );
    let r: Value = serde_json::from_slice(published.result()).unwrap_or(Value::Null);
    let counts = |v: &Value| {
        v.as_object()
            .into_iter()
            .flatten()
            .filter(|(_, n)| n.as_u64().unwrap_or(0) > 0)
            .map(|(k, n)| format!("{k} {n}"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    say!("  paired by    {}", counts(&r["summary"]["by_basis"]));
    // Per kind, what did not stay the same: `+added -removed ~changed ?unknown`.
    let mut kinds = Vec::new();
    for (kind, c) in r["summary"]["by_kind"].as_object().into_iter().flatten() {
        let n = |s: &str| c[s].as_u64().unwrap_or(0);
        let parts: Vec<String> = [
            ("+", "added"),
            ("-", "removed"),
            ("~", "changed"),
            ("?", "unknown"),
        ]
        .iter()
        .filter(|(_, s)| n(s) > 0)
        .map(|(sign, s)| format!("{sign}{}", n(s)))
        .collect();
        if !parts.is_empty() {
            kinds.push(format!("{kind} {}", parts.join(" ")));
        }
    }
    if !kinds.is_empty() {
        say!("  by kind      {}", kinds.join(", "));
    }
    if r["matching"]["ambiguous"].as_u64().unwrap_or(0) > 0 {
        say!("  ambiguous    {} nodes", r["matching"]["ambiguous"]);
    }
    let text = |v: &Value| v.as_str().unwrap_or("-").to_owned();
    let mut shown = 0;
    for item in r["items"].as_array().into_iter().flatten() {
        let status = item["status"].as_str().unwrap_or_default();
        if status == "unchanged" || shown == SHOWN_CHANGES {
            break;
        }
        let node = if item["right"].is_null() {
            &item["left"]
        } else {
            &item["right"]
        };
        let dims: Vec<&str> = strs(&item["changed_dimensions"]);
        let properties: Vec<&str> = strs(&item["changed_properties"]);
        let dims = match (dims.is_empty(), properties.is_empty()) {
            (true, _) => String::new(),
            (false, true) => format!(" [{}]", dims.join(", ")),
            (false, false) => format!(" [{}; {}]", dims.join(", "), properties.join(", ")),
        };
        say!(
            "  {:<8}     {} {}{} ({})",
            status,
            text(&item["kind"]),
            text(&node["label"]),
            dims,
            text(&item["basis"])
        );
        shown += 1;
    }
    let changes = n("added") + n("removed") + n("changed") + n("unknown");
    if changes > shown as u64 {
        say!("  …            {} more in --json", changes - shown as u64);
    }
    if n("changed_from_edges") > 0 {
        say!(
            "  changed_from {} edges, later node to earlier, in the graph {}",
            n("changed_from_edges"),
            text(&r["summary"]["changed_from_graph_id"])
        );
    }
    // What this comparison met; the standing limitations are in --json.
    let standing = rea_jobs::versions::STANDING_LIMITATIONS.len();
    for l in r["limitations"]
        .as_array()
        .into_iter()
        .flatten()
        .skip(standing)
    {
        say!("  limitation   {}", text(l));
    }
    say!("  evidence     {}", published.evidence_id());
    say!("  time         {:.3} s", elapsed.as_secs_f64());
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
    say!("extract_artifact: {files} files written to {root}");
    say!("  evidence     {}", published.evidence_id());
    say!("  time         {:.3} s", elapsed.as_secs_f64());
}

/// Reports a failure: the error object on stdout with `--json`, one line on stderr always.
pub fn failure(operation: &str, failure: &Failure, json: bool) {
    let object = ErrorObject::from_failure(operation, failure);
    if json {
        let text = serde_json::to_string(&json!({"error": object.to_json()})).unwrap_or_default();
        say!("{text}");
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

/// The application reconstruction, for people: one screen.
pub fn analyze_summary(published: &Published, elapsed: Duration) {
    // Only the result is read: the record repeats it, and large graphs are hundreds of MB.
    // The graph's nodes and edges stay raw text; only the node kinds shown here, and the
    // edges that pair an IPC transmission with its handler, are parsed into values (the
    // headline counts the rest).
    #[derive(serde::Deserialize, Default)]
    struct Lite<'a> {
        #[serde(borrow, default)]
        graph: GraphLite<'a>,
        #[serde(default)]
        format: Value,
        #[serde(default)]
        statistics: Value,
        #[serde(default)]
        summary: Value,
        #[serde(default)]
        limitations: Value,
        #[serde(default)]
        electron_packaging: Value,
        #[serde(default)]
        export_shapes: ExportsLite,
        #[serde(borrow, default)]
        semantic_graph: Option<SemanticLite<'a>>,
    }
    #[derive(serde::Deserialize, Default)]
    struct SemanticLite<'a> {
        #[serde(borrow, default)]
        nodes: Vec<&'a serde_json::value::RawValue>,
        #[serde(borrow, default)]
        relations: Vec<&'a serde_json::value::RawValue>,
        #[serde(borrow, default)]
        unknowns: Vec<&'a serde_json::value::RawValue>,
        #[serde(default)]
        coverage: Value,
    }
    #[derive(serde::Deserialize, Default)]
    struct ExportsLite {
        #[serde(default)]
        exports: Vec<ExportLite>,
    }
    #[derive(serde::Deserialize)]
    struct ExportLite {
        module_path: String,
        kind: String,
    }
    #[derive(serde::Deserialize, Default)]
    struct GraphLite<'a> {
        #[serde(borrow, default)]
        nodes: Vec<&'a serde_json::value::RawValue>,
        #[serde(borrow, default)]
        edges: Vec<&'a serde_json::value::RawValue>,
        #[serde(default)]
        coverage: Value,
    }
    #[derive(serde::Deserialize)]
    struct KindOf<'a> {
        #[serde(borrow)]
        kind: std::borrow::Cow<'a, str>,
    }
    const SHOWN: [&str; 9] = [
        "electron-main",
        "electron-preload",
        "electron-renderer",
        "electron-utility",
        "browser-window",
        "context-bridge-api",
        "ipc-channel",
        "javascript-chunk",
        "target",
    ];
    let r: Lite<'_> = serde_json::from_slice(published.result()).unwrap_or_default();
    let nodes: Vec<Value> = r
        .graph
        .nodes
        .iter()
        .filter(|raw| {
            serde_json::from_str::<KindOf<'_>>(raw.get())
                .is_ok_and(|k| SHOWN.contains(&k.kind.as_ref()))
        })
        .filter_map(|raw| serde_json::from_str(raw.get()).ok())
        .collect();
    let st = &r.statistics;
    let s = &r.summary;
    let text = |v: &Value| v.as_str().unwrap_or("").to_owned();
    let props = |n: &Value| n["observations"][0]["properties"].clone();
    say!(
        "analyze_javascript_application: {} input, {} relevant files, {} JavaScript parsed, {} modules in {} bundles, {} parse failures",
        text(&r.format),
        st["relevant_files"],
        st["parsed_javascript_files"],
        st["modules"],
        st["bundles"],
        st["parse_failures"]
    );
    // The roles, main entrypoints first, then preloads, utility processes and pages; past the
    // first 12, a count by kind.
    const ROLES: [&str; 4] = [
        "electron-main",
        "electron-preload",
        "electron-utility",
        "electron-renderer",
    ];
    let mut roles: Vec<(usize, &Value)> = nodes
        .iter()
        .filter_map(|n| {
            let rank = ROLES.iter().position(|k| n["kind"] == *k)?;
            Some((rank, n))
        })
        .collect();
    // Pages before the scripts they load, then by path.
    let role_path = |n: &Value| {
        let p = props(n);
        p["resolved_path"]
            .as_str()
            .or(p["declared_path"].as_str())
            .unwrap_or("")
            .to_owned()
    };
    roles.sort_by_cached_key(|(rank, n)| {
        let path = role_path(n);
        let page = path.ends_with(".html") || path.ends_with(".htm");
        (*rank, !page, path)
    });
    const MAX_ROLE_LINES: usize = 12;
    for &(_, n) in roles.iter().take(MAX_ROLE_LINES) {
        let p = props(n);
        // A main file that shows no use of Electron says so (see its limitation).
        let said = |words: &str| {
            n["kind"] == "electron-main"
                && p["limitations"].as_array().is_some_and(|l| {
                    l.iter()
                        .any(|l| l.as_str().is_some_and(|l| l.contains(words)))
                })
        };
        let note = if said("neither requires nor imports Electron") {
            ", no use of Electron seen"
        } else if said("only the renderer's side of Electron") {
            ", only renderer-side Electron seen"
        } else {
            ""
        };
        say!(
            "  {:<17} {} -> {} ({}){}",
            text(&n["kind"]),
            text(&p["declared_path"]),
            p["resolved_path"].as_str().unwrap_or("-"),
            text(&p["resolution_status"]),
            note
        );
    }
    if roles.len() > MAX_ROLE_LINES {
        let more: Vec<String> = ROLES
            .iter()
            .enumerate()
            .filter_map(|(rank, kind)| {
                let n = roles[MAX_ROLE_LINES..]
                    .iter()
                    .filter(|(r, _)| *r == rank)
                    .count();
                (n > 0).then(|| format!("{n} {kind}"))
            })
            .collect();
        say!(
            "  {:<17} {} more: {}",
            "roles",
            roles.len() - MAX_ROLE_LINES,
            more.join(", ")
        );
    }
    // Files with Electron facts that no main entrypoint was seen to load.
    let reach = &s["entrypoint_reach"];
    let unreached: Vec<&str> = reach["unreached"]["listed_files"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|f| f["path"].as_str())
        .collect();
    let mark = |n: &Value| {
        if props(n)["path"]
            .as_str()
            .is_some_and(|path| unreached.contains(&path))
        {
            " (not seen loaded from main)"
        } else {
            ""
        }
    };
    if reach["status"] == "computed" {
        let u = &reach["unreached"];
        let mut line = format!(
            "  reach             {} reach {} files",
            reach["main_entrypoints"]
                .as_array()
                .into_iter()
                .flatten()
                .map(text)
                .collect::<Vec<String>>()
                .join(", "),
            reach["files_reached"]
        );
        let files = u["files"].as_u64().unwrap_or(0);
        if files > 0 {
            let facts: Vec<String> = [
                ("browser_windows", "windows"),
                ("context_bridge_apis", "bridges"),
                ("ipc_operations", "IPC operations"),
                ("native_addon_requests", "native add-on requests"),
                ("process_calls", "process calls"),
            ]
            .iter()
            .filter(|(key, _)| u[*key].as_u64().unwrap_or(0) > 0)
            .map(|(key, words)| format!("{} {words}", u[*key]))
            .collect();
            line.push_str(&format!(
                "; not seen loaded: {files} files with {} ({}{})",
                facts.join(", "),
                unreached
                    .iter()
                    .take(4)
                    .copied()
                    .collect::<Vec<&str>>()
                    .join(", "),
                if files > 4 { ", …" } else { "" }
            ));
        }
        let dynamic = reach["dynamic_loads_in_reached_files"]
            .as_u64()
            .unwrap_or(0);
        if dynamic > 0 {
            line.push_str(&format!(
                "; {dynamic} requires or imports there compute their module at run time"
            ));
        }
        say!("{line}");
    }
    // Those the main entrypoint reaches first, its own file's first among them, then by path.
    let mains: Vec<&str> = strs(&reach["main_entrypoints"]);
    let reached_first = |kind: &str| {
        let mut of: Vec<&Value> = nodes.iter().filter(|n| n["kind"] == kind).collect();
        of.sort_by_cached_key(|n| {
            let path = text(&props(n)["path"]);
            // In one file, in source order.
            let start = &n["observations"][0]["evidence"]["location"]["start"];
            let at = (start["line"].as_u64(), start["column"].as_u64());
            (
                !mark(n).is_empty(),
                !mains.contains(&path.as_str()),
                path,
                at,
            )
        });
        of
    };
    for n in reached_first("browser-window").into_iter().take(8) {
        let p = props(n);
        let risky: Vec<String> = p["web_preferences"]
            .as_array()
            .into_iter()
            .flatten()
            .filter(|w| {
                matches!(
                    w["name"].as_str(),
                    Some(
                        "nodeIntegration"
                            | "contextIsolation"
                            | "sandbox"
                            | "webSecurity"
                            | "nodeIntegrationInWorker"
                            | "allowRunningInsecureContent"
                            | "nodeIntegrationInSubFrames"
                            | "experimentalFeatures"
                            | "enableBlinkFeatures"
                            | "webviewTag"
                    )
                )
            })
            .map(|w| {
                format!(
                    "{}={}",
                    text(&w["name"]),
                    if w["value"]["kind"] == "literal" {
                        w["value"]["value"].to_string()
                    } else {
                        "dynamic".to_owned()
                    }
                )
            })
            .collect::<Vec<String>>();
        let mut risky = risky;
        match p["web_preferences_status"].as_str() {
            Some("dynamic") => risky.push("webPreferences=dynamic".to_owned()),
            // No `webPreferences` written: Electron's defaults for its version hold.
            Some("missing") => risky.push("webPreferences=missing".to_owned()),
            _ => {}
        }
        let unresolved = p["option_sources"]
            .as_array()
            .into_iter()
            .flatten()
            .filter(|s| s["resolution"] == "unresolved")
            .count();
        if unresolved > 0 {
            risky.push(format!("unresolved-option-sources={unresolved}"));
        }
        // What it loads, where its `loadFile`/`loadURL` calls were matched to it: the first
        // page (then the web URLs), and how many more, computed targets included; `dynamic`
        // when all it loads is computed at run time.
        let loads: Vec<&str> = ["pages", "remote_urls"]
            .iter()
            .flat_map(|k| p[*k].as_array().into_iter().flatten())
            .filter_map(Value::as_str)
            .collect();
        let dynamic = p["dynamic_loads"].as_array().map_or(0, Vec::len);
        let loads = match (loads.first(), loads.len() + dynamic) {
            (None, 0) => String::new(),
            (None, _) => " loads=dynamic".to_owned(),
            (Some(first), 1) => format!(" loads={first}"),
            (Some(first), all) => format!(" loads={first}(+{})", all - 1),
        };
        say!(
            "  window            {} in {}{} preload={}{}{}{}",
            text(&p["constructor"]),
            text(&p["path"]),
            mark(n),
            p["preload_path"].as_str().unwrap_or("-"),
            loads,
            if risky.is_empty() { "" } else { " " },
            risky.join(" ")
        );
    }
    let guards = &s["security_handlers"];
    say!(
        "  security handlers window open {} (legacy new-window {}), navigation {}, webview attach {}, permissions {}, web-contents-created {}, certificates {}",
        guards["window_open_handlers"],
        guards["legacy_new_window_listeners"],
        guards["navigation_listeners"],
        guards["webview_attach_listeners"],
        guards["permission_handlers"],
        guards["web_contents_created_listeners"],
        guards["certificate_handlers"]
    );
    // Pages of the web (or computed targets) in windows whose written preferences weaken
    // their isolation.
    let remote = &s["remote_content"];
    for item in remote["items"].as_array().into_iter().flatten().take(4) {
        let urls: Vec<&str> = strs(&item["urls"]);
        let prefs: Vec<&str> = strs(&item["weakened_preferences"]);
        // A window that loads only targets computed at run time says the first as written.
        let computed = item["computed_targets"]
            .as_array()
            .and_then(|c| c.first())
            .and_then(Value::as_str);
        let first = match (urls.first(), computed) {
            (Some(url), _) => (*url).to_owned(),
            (None, Some(target)) => format!("computed {target}"),
            (None, None) => "-".to_owned(),
        };
        say!(
            "  remote content    {}{} in {} at {}:{} with {}",
            first,
            if urls.len() > 1 {
                format!("(+{})", urls.len() - 1)
            } else {
                String::new()
            },
            text(&item["constructor"]),
            text(&item["path"]),
            item["line"],
            prefs.join(" ")
        );
    }
    if let Some(more) = remote["with_weakened_preferences"]
        .as_u64()
        .filter(|n| *n > 4)
    {
        say!("  remote content    {} more windows", more - 4);
    }
    let webviews = &s["webview_tags"];
    if webviews["tags"].as_u64().is_some_and(|n| n > 0) {
        say!(
            "  webview tags      {} ({} written by code, {} with computed attributes): node integration {}, web security off {}, popups allowed {}",
            webviews["tags"],
            webviews["written_by_code"],
            webviews["computed"],
            webviews["node_integration"],
            webviews["web_security_disabled"],
            webviews["allow_popups"]
        );
        // The tags that grant their guest something, where they are written.
        for tag in webviews["items"]
            .as_array()
            .into_iter()
            .flatten()
            .filter(|t| {
                t["node_integration"] == true
                    || t["web_security_disabled"] == true
                    || !t["attributes"].as_array().is_none_or(Vec::is_empty)
            })
            .take(4)
        {
            let mut grants = strings(&tag["attributes"]);
            if let Some(prefs) = tag["web_preferences"].as_str() {
                grants.push(format!("webpreferences=\"{prefs}\""));
            }
            say!(
                "  webview           {}:{} ({}{}): {}",
                text(&tag["path"]),
                tag["line"],
                text(&tag["written"]),
                if tag["computed"] == true {
                    ", computed"
                } else {
                    ""
                },
                grants.join(" ")
            );
        }
    }
    let schemes = &s["url_schemes"];
    let listed = schemes["schemes"].as_array().map_or(&[][..], Vec::as_slice);
    let dynamic = schemes["dynamic_registrations"].as_u64().unwrap_or(0);
    if !listed.is_empty() || dynamic > 0 {
        let mut parts: Vec<String> = listed
            .iter()
            .take(8)
            .map(|scheme| {
                let words = |key: &str| {
                    scheme[key]
                        .as_array()
                        .into_iter()
                        .flatten()
                        .filter_map(Value::as_str)
                        .collect::<Vec<_>>()
                        .join(" ")
                };
                let privileges = words("privileges");
                let privileges = if privileges.is_empty() {
                    String::new()
                } else {
                    format!("; privileges: {privileges}")
                };
                format!(
                    "{}:// ({}{privileges})",
                    text(&scheme["scheme"]),
                    words("apis")
                )
            })
            .collect();
        let more = listed.len().saturating_sub(8) as u64
            + schemes["omitted_schemes"].as_u64().unwrap_or(0);
        if more > 0 {
            parts.push(format!("{more} more"));
        }
        if dynamic > 0 {
            parts.push(format!(
                "{dynamic} registering a scheme not written as a string"
            ));
        }
        say!("  url schemes       {}", parts.join(", "));
    }
    let launch = &s["launch_inputs"];
    let listeners = [
        ("open-url", "open_url_listeners"),
        ("second-instance", "second_instance_listeners"),
        ("open-file", "open_file_listeners"),
        ("continue-activity", "continue_activity_listeners"),
    ];
    let deep_links: Vec<String> = launch["default_protocol_schemes"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|scheme| format!("{}://", text(scheme)))
        .collect();
    let heard: Vec<String> = listeners
        .iter()
        .filter_map(|(event, key)| {
            let n = launch[key].as_u64().filter(|n| *n > 0)?;
            Some(format!("{event} {n}"))
        })
        .collect();
    let locks = launch["single_instance_locks"].as_u64().unwrap_or(0);
    let argv = launch["process_argv_reads"].as_u64().unwrap_or(0);
    if !deep_links.is_empty() || !heard.is_empty() || locks > 0 || argv > 0 {
        let links = if deep_links.is_empty() {
            "none".to_owned()
        } else {
            deep_links.join(" ")
        };
        let heard = if heard.is_empty() {
            "none".to_owned()
        } else {
            heard.join(", ")
        };
        say!(
            "  launch inputs     deep links {links}; listeners {heard}; single-instance lock {}; process.argv read {argv} times",
            if locks > 0 { "taken" } else { "not taken" }
        );
    }
    // Where the application looks for updates: electron-updater's configurations, and the
    // feed URLs the code sets.
    let updates = &s["update_feeds"];
    for config in updates["configs"].as_array().into_iter().flatten().take(4) {
        let fields = &config["fields"];
        let place = ["url", "owner", "repo", "bucket", "slug", "product"]
            .iter()
            .filter_map(|k| Some(format!("{k} {}", fields[*k].as_str()?)))
            .collect::<Vec<_>>()
            .join(", ");
        let mut line = format!(
            "  updates           {}: provider {}",
            text(&config["path"]),
            config["provider"].as_str().unwrap_or("not named")
        );
        if !place.is_empty() {
            line.push_str(&format!(", {}", cut_short(place, 100)));
        }
        if config["plain_http"] == true {
            line.push_str("; over plain HTTP");
        }
        let credentials = strings(&config["credential_keys"]);
        if !credentials.is_empty() {
            line.push_str(&format!(
                "; carries credentials: {}",
                credentials.join(", ")
            ));
        }
        say!("{line}");
    }
    let feeds = strings(&updates["feed_urls"]);
    if !feeds.is_empty() {
        say!(
            "  updates           feed URLs set in code: {}",
            cut_short(feeds.join(" "), 120)
        );
    }
    // What the main process adds to its own command line, the switches that weaken a
    // defence first (with the value they are given).
    let switches = &s["command_line_switches"];
    if switches["calls"].as_u64().unwrap_or(0) > 0 {
        let mut weakening: Vec<String> = switches["items"]
            .as_array()
            .into_iter()
            .flatten()
            .filter(|c| c["weakens"] == true)
            .map(|c| match c["value"].as_str() {
                Some(value) => {
                    format!("{}={}", text(&c["switch"]), cut_short(value.to_owned(), 24))
                }
                None => text(&c["switch"]),
            })
            .collect();
        weakening.sort_unstable();
        weakening.dedup();
        let mut line = format!(
            "  switches          {} appended to the command line, {} weakening a defence",
            switches["calls"], switches["weakening_calls"]
        );
        if !weakening.is_empty() {
            line.push_str(&format!(" ({})", weakening.join(", ")));
        }
        let dynamic = switches["dynamic_calls"].as_u64().unwrap_or(0);
        if dynamic > 0 {
            line.push_str(&format!(", {dynamic} not written as strings"));
        }
        if switches["enable_sandbox_calls"].as_u64().unwrap_or(0) > 0 {
            line.push_str("; app.enableSandbox() called");
        }
        say!("{line}");
    }
    let pages = &s["renderer_pages"];
    if pages["loaded_pages"].as_u64().unwrap_or(0) > 0 {
        say!(
            "  renderer pages    {} loaded, {} with inline scripts, {} with a meta CSP (allowing inline scripts: {}, eval: {}); {} CSP response headers in the code",
            pages["loaded_pages"],
            pages["with_inline_scripts"],
            pages["with_content_security_policy"],
            pages["policy_allows_inline_scripts"],
            pages["policy_allows_eval"],
            pages["response_header_policies"]
        );
    }
    // Web pages windows load, and those whoever is on the network path may rewrite.
    if pages["web_urls_loaded"].as_u64().unwrap_or(0) > 0 {
        let plain = strings(&pages["plain_http_urls"]);
        let plain = if plain.is_empty() {
            "none".to_owned()
        } else {
            cut_short(plain.join(" "), 120)
        };
        say!(
            "  web pages         {} URLs loaded into windows; over plain HTTP: {plain}",
            pages["web_urls_loaded"]
        );
    }
    for n in reached_first("context-bridge-api").into_iter().take(8) {
        let p = props(n);
        let members: Vec<String> = p["members"]
            .as_array()
            .into_iter()
            .flatten()
            .map(text)
            .collect();
        // An API another module builds: where it is written.
        let source = &p["api_source"];
        let mut from = String::new();
        if let Some(path) = source["path"].as_str() {
            from = format!(" from {path}");
            if let Some(key) = source["module_key"].as_str() {
                from.push_str(&format!(" module {key}"));
            }
            match text(&source["export"]) {
                export if export.is_empty() => from.push_str(" (its exports)"),
                export => from.push_str(&format!(" export {export}")),
            }
        } else if let Some(path) = p["path"].as_str() {
            // Where it is exposed: two copies of one preload (a package's ESM and CommonJS
            // builds) expose the same key.
            from = format!(" in {path}");
        }
        say!(
            "  bridge            {} ({}) [{}]{}{}",
            p["api_key"]
                .as_str()
                .or(p["api_key_expression"].as_str())
                .unwrap_or(""),
            text(&p["world"]),
            members.join(", "),
            from,
            mark(n)
        );
    }
    for binary in r.electron_packaging["electron_fuses"]
        .as_array()
        .into_iter()
        .flatten()
    {
        say!("  fuses on          {}", fuses_on(binary));
    }
    for header in r.electron_packaging["asar_headers"]
        .as_array()
        .into_iter()
        .flatten()
        .take(8)
    {
        say!(
            "  asar header       {}: {}",
            text(&header["logical_path"]),
            text(&header["status"])
        );
    }
    let ipc = &s["ipc"];
    say!(
        "  ipc               {} operations, {} literal channels, {} dynamic; {} renderer transmissions: {} paired, {} ambiguous, {} unpaired",
        ipc["operations"],
        ipc["literal_channels"],
        ipc["dynamic_channel_operations"],
        ipc["renderer_transmissions"],
        ipc["paired_renderer_transmissions"],
        ipc["ambiguous_renderer_transmissions"],
        ipc["unpaired_literal_renderer_transmissions"]
    );
    if ipc["prefix_paired_renderer_transmissions"]
        .as_u64()
        .unwrap_or(0)
        > 0
    {
        say!(
            "  ipc by prefix     {} dynamic renderer transmissions paired, as candidates, by their channel's literal prefix",
            ipc["prefix_paired_renderer_transmissions"]
        );
    }
    if ipc["call_paired_renderer_transmissions"]
        .as_u64()
        .unwrap_or(0)
        > 0
    {
        say!(
            "  ipc by call       {} dynamic renderer transmissions paired, as candidates, by the call of strings that makes their channel",
            ipc["call_paired_renderer_transmissions"]
        );
    }
    if ipc["template_paired_renderer_transmissions"]
        .as_u64()
        .unwrap_or(0)
        > 0
    {
        say!(
            "  ipc by template   {} dynamic renderer transmissions paired, as candidates, by their channel's template of strings around values not known",
            ipc["template_paired_renderer_transmissions"]
        );
    }
    if ipc["fanned_out_renderer_transmissions"]
        .as_u64()
        .unwrap_or(0)
        > 0
    {
        say!(
            "  ipc to all        {} sent renderer transmissions paired with each of their channel's several listeners",
            ipc["fanned_out_renderer_transmissions"]
        );
    }
    if ipc["reached_paired_renderer_transmissions"]
        .as_u64()
        .unwrap_or(0)
        > 0
    {
        say!(
            "  ipc by reach      {} renderer transmissions paired with the one of several handlers the main entrypoint reaches",
            ipc["reached_paired_renderer_transmissions"]
        );
    }
    if ipc["language_paired_renderer_transmissions"]
        .as_u64()
        .unwrap_or(0)
        > 0
    {
        say!(
            "  ipc by language   {} renderer transmissions paired with the one of several handlers written in their own language (TypeScript sources beside their build)",
            ipc["language_paired_renderer_transmissions"]
        );
    }
    // Electron's checklist asks every handler to validate the sender of its messages.
    if ipc["main_handlers"].as_u64().unwrap_or(0) > 0 {
        say!(
            "  sender checks     {} of {} main-process handlers with no check of the sender in their code ({} checks seen)",
            ipc["main_handlers_without_sender_check"],
            ipc["main_handlers"],
            s["sender_validation_observations"]
        );
    }
    let mut channels: Vec<String> = nodes
        .iter()
        .filter(|n| n["kind"] == "ipc-channel")
        .filter_map(|n| props(n)["channel"].as_str().map(str::to_owned))
        .collect();
    channels.sort();
    if !channels.is_empty() {
        let shown: Vec<&str> = channels.iter().take(12).map(String::as_str).collect();
        say!(
            "  channels          {}{}",
            shown.join(", "),
            if channels.len() > 12 { ", …" } else { "" }
        );
    }
    // Which transmissions reach which handlers: `channel: sends|invokes [via member] ->
    // handler file operation`.
    let mut pairs: Vec<String> = r
        .graph
        .edges
        .iter()
        .filter(|raw| raw.get().contains("\"pairing_basis\""))
        .filter_map(|raw| serde_json::from_str::<Value>(raw.get()).ok())
        .map(|edge| {
            let p = &edge["properties"];
            let via = match p["via"].as_str() {
                Some(via) => format!(" via {via}"),
                None => String::new(),
            };
            // A pairing by a dynamic channel's literal prefix shows the prefix, `*` after it;
            // one by the call that makes it, the call; one by its template, the template.
            // One paired, of several registrations, as the one the main entrypoint reaches
            // says so.
            let channel = match p["channel_prefix"].as_str() {
                Some(prefix) => format!("{prefix}* (by prefix)"),
                None if p["channel_call"].is_string() => {
                    format!("{} (by call)", text(&p["channel_call"]))
                }
                None if p["channel_template"].is_string() => {
                    format!("{} (by template)", text(&p["channel_template"]))
                }
                None if p["pairing_basis"] == "unique-exact-channel-reached-from-main" => {
                    format!("{} (by reach)", text(&p["channel"]))
                }
                None if p["pairing_basis"] == "every-listener-of-channel" => {
                    format!(
                        "{} (each of {} listeners)",
                        text(&p["channel"]),
                        p["listeners"]
                    )
                }
                None => text(&p["channel"]),
            };
            format!(
                "{}: {}{via} -> {} {}",
                channel,
                text(&edge["relation"]),
                text(&p["handler_path"]),
                text(&p["handler_operation"])
            )
        })
        .collect();
    pairs.sort();
    pairs.dedup();
    for pair in pairs.iter().take(12) {
        say!("  paired            {pair}");
    }
    if pairs.len() > 12 {
        say!("  paired            … {} more", pairs.len() - 12);
    }
    // Transmissions that reach no handler, and whether the main process registers their
    // channel in the other mode (`invoke` of a channel it only listens on).
    let unpaired = ipc["unpaired_renderer_channels"].as_array();
    for entry in unpaired.into_iter().flatten().take(12) {
        let ops: Vec<String> = entry["renderer_operations"]
            .as_array()
            .into_iter()
            .flatten()
            .map(text)
            .collect();
        let other: Vec<String> = entry["main_registrations_in_other_mode"]
            .as_array()
            .into_iter()
            .flatten()
            .map(text)
            .collect();
        let main = if other.is_empty() {
            "no main-side registration seen".to_owned()
        } else {
            format!("main registers it with {} only", other.join(", "))
        };
        say!(
            "  unpaired          {}: {} ({main})",
            text(&entry["channel"]),
            ops.join(", ")
        );
    }
    let listed = unpaired.map_or(0, Vec::len);
    if listed > 12 {
        say!("  unpaired          … {} more channels", listed - 12);
    }
    // What the main process sends pages, and the channels no page listens on.
    let to_pages = &ipc["main_to_renderer"];
    if ipc["main_transmissions"].as_u64().is_some_and(|n| n > 0) {
        let unheard: Vec<String> = to_pages["channels_no_page_listens_on"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|c| text(&c["channel"]))
            .collect();
        let more = unheard.len() as u64 + to_pages["omitted_channels"].as_u64().unwrap_or(0);
        let shown: Vec<&str> = unheard.iter().take(12).map(String::as_str).collect();
        let sends = ipc["main_transmissions"].as_u64().unwrap_or(0);
        let keyed = to_pages["keyed_dynamic_channels"].as_u64().unwrap_or(0);
        say!(
            "  to pages          the main process sends {sends} {} on {} literal channels, {} of which a page listens on{}{}",
            if sends == 1 { "message" } else { "messages" },
            to_pages["literal_channels"],
            to_pages["channels_a_page_listens_on"],
            if keyed == 0 {
                String::new()
            } else {
                format!(
                    "; of {keyed} dynamic channels by prefix, call or template, {} a page listens on made the same way",
                    to_pages["keyed_dynamic_channels_a_page_listens_on"]
                )
            },
            if shown.is_empty() {
                String::new()
            } else {
                format!(
                    "; no page listens on {}{}",
                    shown.join(", "),
                    if more > 12 { ", …" } else { "" }
                )
            }
        );
    }
    say!(
        "  native add-ons    {} bindings, {} resolved",
        s["native_addon_bindings"],
        s["resolved_native_addon_bindings"]
    );
    // `@electron/remote` lets the pages it is enabled for reach the main process's objects.
    if s["remote_module_calls"].as_u64().is_some_and(|n| n > 0) {
        let enabled: std::collections::BTreeSet<String> = nodes
            .iter()
            .filter(|n| n["kind"] == "target")
            .map(&props)
            .filter(|p| p["kind"] == "remote-module" && text(&p["api"]).ends_with(".enable"))
            .map(|p| text(&p["target"]))
            .collect();
        let enabled: Vec<String> = enabled.into_iter().collect();
        say!(
            "  remote module     {} main-side calls of @electron/remote; enabled for: {}",
            s["remote_module_calls"],
            if enabled.is_empty() {
                "none seen".to_owned()
            } else {
                enabled.join(", ")
            }
        );
    }
    // Code run in pages: what each call passes, as written.
    if s["execute_javascript_calls"]
        .as_u64()
        .is_some_and(|n| n > 0)
    {
        let code: Vec<String> = nodes
            .iter()
            .filter(|n| n["kind"] == "target")
            .map(&props)
            .filter(|p| p["kind"] == "execute-javascript")
            .map(|p| cut_short(text(&p["target"]), 48))
            .collect();
        say!(
            "  executed in pages {} calls: {}",
            s["execute_javascript_calls"],
            code.into_iter().take(4).collect::<Vec<_>>().join("; ")
        );
    }
    // Bridge members through which a page picks the channel itself: what it may send to
    // (and, listening, hear) is every channel, not the list above.
    let forwarders = s["bridge_channel_forwarders"]["items"]
        .as_array()
        .map_or(&[][..], Vec::as_slice);
    if !forwarders.is_empty() {
        let mut sending = std::collections::BTreeSet::new();
        let mut hearing = std::collections::BTreeSet::new();
        let mut files = std::collections::BTreeSet::new();
        for f in forwarders {
            let member = format!("{}.{}", text(&f["api_key"]), text(&f["member"]));
            match f["operation"].as_str() {
                Some("on" | "once" | "remove-listener") => hearing.insert(member),
                _ => sending.insert(member),
            };
            files.insert(text(&f["path"]));
        }
        let list = |set: std::collections::BTreeSet<String>| {
            if set.is_empty() {
                "none".to_owned()
            } else {
                set.into_iter().collect::<Vec<_>>().join(", ")
            }
        };
        say!(
            "  any channel       pages pick the channel through {} bridge members in {} files: sending {}; listening {}",
            s["bridge_channel_forwarders"]["members"],
            files.len(),
            list(sending),
            list(hearing)
        );
    }
    // What a message can make the main process do: the process boundaries in handlers' code,
    // those whose target is not written there first.
    let reached = &s["ipc_handler_boundaries"];
    let items = reached["items"].as_array().map_or(&[][..], Vec::as_slice);
    if !items.is_empty() {
        say!(
            "  handler reach     {} process boundaries in IPC handlers' code, {} with a target not written there",
            reached["boundaries"],
            reached["dynamic_targets"]
        );
        let mut order: Vec<&Value> = items.iter().collect();
        order.sort_by_key(|b| b["static"].as_bool().unwrap_or(false));
        for b in order.iter().take(6) {
            // Where the boundary is written: in the handler's file, or in the export of
            // another file (or factory) the handler calls.
            let via = match (b["via"]["path"].as_str(), &b["via"]["module_key"]) {
                (Some(_), Value::Null) => format!(" in {}", text(&b["via"]["export"])),
                (Some(_), key) => format!(
                    " in module {} {}",
                    key.as_str().map_or_else(|| key.to_string(), str::to_owned),
                    text(&b["via"]["export"])
                ),
                (None, _) => String::new(),
            };
            let file = b["via"]["path"]
                .as_str()
                .map_or_else(|| text(&b["path"]), str::to_owned);
            say!(
                "  handler reach     {} ({} {}, {}:{}) -> {}{via}",
                text(&b["channel"]),
                text(&b["side"]),
                text(&b["operation"]),
                text(&b["path"]),
                b["line"],
                boundary_text(b, &file)
            );
        }
    }
    // What a bridge's own code does for the page, in a preload with Node.js.
    let reached = &s["bridge_boundaries"];
    for b in reached["items"].as_array().into_iter().flatten().take(6) {
        say!(
            "  bridge reach      {} ({}:{}) -> {}",
            text(&b["api_key"]),
            text(&b["path"]),
            b["line"],
            boundary_text(b, &text(&b["path"]))
        );
    }
    // Per asset: its module count and the bundlers that wrote its tables.
    type PerAsset = (u64, std::collections::BTreeSet<String>);
    let mut per_asset: std::collections::BTreeMap<String, PerAsset> =
        std::collections::BTreeMap::new();
    for n in nodes.iter().filter(|n| n["kind"] == "javascript-chunk") {
        let p = props(n);
        let asset = per_asset.entry(text(&p["path"])).or_default();
        asset.0 += p["module_count"].as_u64().unwrap_or(0);
        asset.1.insert(text(&p["bundler"]));
    }
    let mut assets: Vec<(String, PerAsset)> = per_asset.into_iter().collect();
    assets.sort_by(|a, b| b.1.0.cmp(&a.1.0).then(a.0.cmp(&b.0)));
    for (path, (count, bundlers)) in assets.iter().take(6) {
        let bundlers: Vec<&str> = bundlers.iter().map(String::as_str).collect();
        say!(
            "  bundle            {path}: {count} modules ({})",
            bundlers.join(", ")
        );
    }
    // Source maps: how many, how many the code links, and the original sources they name
    // (with their contents when the maps' contents were read).
    let mut maps: std::collections::HashSet<String> = std::collections::HashSet::new();
    let (mut sources, mut with_contents) = (0u64, 0u64);
    for raw in &r.graph.nodes {
        let Ok(kind) = serde_json::from_str::<KindOf<'_>>(raw.get()) else {
            continue;
        };
        if !matches!(kind.kind.as_ref(), "source-map" | "source-module") {
            continue;
        }
        let Ok(node) = serde_json::from_str::<Value>(raw.get()) else {
            continue;
        };
        if kind.kind == "source-map" {
            maps.insert(text(&node["node_id"]));
        } else {
            sources += 1;
            with_contents += u64::from(props(&node)["source_sha256"].is_string());
        }
    }
    if !maps.is_empty() {
        let linked = r
            .graph
            .edges
            .iter()
            .filter(|raw| raw.get().contains("\"maps_to\""))
            .filter_map(|raw| serde_json::from_str::<Value>(raw.get()).ok())
            .filter(|e| {
                e["relation"] == "maps_to"
                    && e["target_node_id"]
                        .as_str()
                        .is_some_and(|t| maps.contains(t))
            })
            .filter_map(|e| e["target_node_id"].as_str().map(str::to_owned))
            .collect::<std::collections::HashSet<String>>()
            .len();
        let read = if sources > 0 {
            format!("{sources} original sources, {with_contents} with contents")
        } else {
            "contents not read (--source-maps contents reads them)".to_owned()
        };
        say!(
            "  source maps       {} maps, {linked} linked from code; {read}",
            maps.len()
        );
    }
    let exports = &r.export_shapes.exports;
    if !exports.is_empty() {
        let modules: std::collections::BTreeSet<&str> =
            exports.iter().map(|e| e.module_path.as_str()).collect();
        let functions = exports.iter().filter(|e| e.kind == "function").count();
        say!(
            "  exports           {} in {} modules, {} functions with return shapes (compare-javascript-export-shapes)",
            exports.len(),
            modules.len(),
            functions
        );
    }
    if let Some(semantic) = &r.semantic_graph {
        let files = &semantic.coverage["files"];
        say!(
            "  semantic graph    {} nodes, {} relations, {} unknowns; files: {} kept, {} left out at the bounds, {} not read, {} cut short; coverage {} (trace-javascript-semantics)",
            semantic.nodes.len(),
            semantic.relations.len(),
            semantic.unknowns.len(),
            files["read"],
            files["omitted"],
            files["not_read"],
            files["truncated"],
            text(&semantic.coverage["status"])
        );
    }
    say!(
        "  graph             {} nodes, {} edges, coverage {}",
        published.headline["nodes"],
        published.headline["edges"],
        text(&r.graph.coverage["status"])
    );
    for l in r.limitations.as_array().into_iter().flatten().take(4) {
        say!("  limitation        {}", text(l));
    }
    say!("  evidence          {}", published.evidence_id());
    say!("  time              {:.3} s", elapsed.as_secs_f64());
}

/// The human summary of a batch.
pub fn pipeline_summary(summary: &serde_json::Value, elapsed: std::time::Duration) {
    let totals = &summary["totals"];
    let run = &summary["run"];
    say!(
        "pipeline: {} inputs: {} ok, {} failed, {} cancelled",
        totals["inputs"],
        totals["ok"],
        totals["failed"],
        totals["cancelled"]
    );
    if run.get("ran").is_some() {
        say!(
            "  analysed now {}, reused {}; {:.1} MiB of input",
            run["ran"],
            run["reused"],
            totals["input_bytes"].as_f64().unwrap_or(0.0) / (1 << 20) as f64
        );
    }
    say!("  time {:.2} s", elapsed.as_secs_f64());
}

/// Paths shown by the human summary of a trace.
const SHOWN_PATHS: usize = 20;

/// A feature trace, for people: what the seed matched, then the paths (boundary first) with
/// each node's kind and label, then the native handoffs.
pub fn trace_summary(published: &Published, elapsed: Duration) {
    let r: Value = serde_json::from_slice(published.result()).unwrap_or(Value::Null);
    let s = &r["summary"];
    let n = |v: &Value| v.as_u64().unwrap_or(0);
    say!(
        "trace_application_feature: {} seeds, {} nodes, {} edges, {} paths, {} native handoffs ({})",
        n(&s["matched_seeds"]),
        n(&s["traced_nodes"]),
        n(&s["traced_edges"]),
        n(&s["terminal_paths"]),
        n(&s["native_handoffs"]),
        r["coverage"]["status"].as_str().unwrap_or("-")
    );
    let nodes: std::collections::HashMap<&str, (&str, String)> = r["graph"]["nodes"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|node| {
            // A handler's registration names it; a sender check on it has a label of its own.
            let observations = node["observations"]
                .as_array()
                .map_or(&[][..], Vec::as_slice);
            let label = observations
                .iter()
                .find(|o| o["properties"]["fact_kind"] == "ipc-registration")
                .or(observations.first())
                .and_then(|o| o["label"].as_str())
                .unwrap_or("-")
                .to_owned();
            (
                node["node_id"].as_str().unwrap_or_default(),
                (node["kind"].as_str().unwrap_or("-"), label),
            )
        })
        .collect();
    let name = |id: &Value| {
        nodes
            .get(id.as_str().unwrap_or_default())
            .map(|(kind, label)| format!("{kind} {label}"))
            .unwrap_or_else(|| "-".to_owned())
    };
    for m in r["seed_matches"].as_array().into_iter().flatten() {
        say!(
            "  seed         {} (by {})",
            name(&m["node_id"]),
            m["field"].as_str().unwrap_or("-")
        );
    }
    let paths = r["paths"].as_array().map_or(&[][..], Vec::as_slice);
    for path in paths.iter().take(SHOWN_PATHS) {
        let steps: Vec<String> = path["node_ids"]
            .as_array()
            .into_iter()
            .flatten()
            .map(&name)
            .collect();
        say!("  path         {}", steps.join(" → "));
    }
    let total = n(&s["terminal_paths"]);
    if total > SHOWN_PATHS.min(paths.len()) as u64 {
        say!(
            "  …            {} more paths in --json",
            total - SHOWN_PATHS.min(paths.len()) as u64
        );
    }
    for h in r["native_handoffs"].as_array().into_iter().flatten() {
        let exports: Vec<&str> = strs(&h["requested_exports"]);
        say!(
            "  native       {} [{}] {}",
            h["artifact_path"].as_str().unwrap_or("-"),
            exports.join(", "),
            h["status"].as_str().unwrap_or("-")
        );
    }
    // What this trace met; the standing limitations are in --json.
    let standing = rea_jobs::trace::STANDING_LIMITATIONS.len();
    for l in r["limitations"]
        .as_array()
        .into_iter()
        .flatten()
        .skip(standing)
    {
        say!("  limitation   {}", l.as_str().unwrap_or("-"));
    }
    say!("  evidence     {}", published.evidence_id());
    say!("  time         {:.3} s", elapsed.as_secs_f64());
}

/// An export shape comparison, for people: the status, each side's selection, then the
/// attribute changes and the first shape changes.
pub fn shapes_summary(published: &Published, elapsed: Duration) {
    let r: Value = serde_json::from_slice(published.result()).unwrap_or(Value::Null);
    let text = |v: &Value| match v {
        Value::String(s) => s.clone(),
        Value::Null => "-".to_owned(),
        other => other.to_string(),
    };
    let n = |key: &str| r["summary"][key].as_u64().unwrap_or(0);
    say!(
        "compare_javascript_export_shapes: {} ({} added, {} removed, {} changed, {} unknown; {} attribute changes)",
        text(&r["status"]),
        n("added"),
        n("removed"),
        n("changed"),
        n("unknown"),
        n("attribute_changes")
    );
    for side in ["left", "right"] {
        let s = &r[side];
        say!(
            "  {:<12} {} {} ({})",
            side,
            text(&s["module_path"]),
            text(&s["export_name"]),
            text(&s["selection"])
        );
        for c in s["candidates"].as_array().into_iter().flatten().take(10) {
            say!(
                "    candidate  {} {} ({})",
                text(&c["module_path"]),
                text(&c["export_name"]),
                text(&c["kind"])
            );
        }
    }
    if !r["reason"].is_null() {
        say!("  reason       {}", text(&r["reason"]));
    }
    for a in r["attribute_changes"].as_array().into_iter().flatten() {
        say!(
            "  attribute    {}: {} -> {}",
            text(&a["attribute"]),
            text(&a["left"]),
            text(&a["right"])
        );
    }
    let changes = r["changes"].as_array().map_or(&[][..], Vec::as_slice);
    for c in changes.iter().take(SHOWN_CHANGES) {
        let pointer = c["pointer"].as_str().unwrap_or_default();
        say!(
            "  {:<8}     variant {} {}",
            text(&c["change"]),
            text(&c["variant"]),
            if pointer.is_empty() {
                "(whole value)"
            } else {
                pointer
            }
        );
    }
    if changes.len() > SHOWN_CHANGES {
        say!(
            "  …            {} more in --json",
            changes.len() - SHOWN_CHANGES
        );
    }
    if !r["recommendation"].is_null() {
        say!(
            "  next         a controlled replay would decide what the static reading left unknown"
        );
    }
    say!("  evidence     {}", published.evidence_id());
    say!("  time         {:.3} s", elapsed.as_secs_f64());
}

/// A semantic query, for people: the status and seeds, then the page's nodes by depth with the
/// relation that reached each, and the unknowns met.
pub fn semantics_summary(published: &Published, elapsed: Duration) {
    let r: Value = serde_json::from_slice(published.result()).unwrap_or(Value::Null);
    let text = |v: &Value| match v {
        Value::String(s) => s.clone(),
        Value::Null => "-".to_owned(),
        other => other.to_string(),
    };
    let page = &r["page"];
    say!(
        "trace_javascript_semantics: {} ({} seed matches, {} nodes, {} relations)",
        text(&r["status"]),
        r["seed_matches"]["total"].as_u64().unwrap_or(0),
        page["total_nodes"].as_u64().unwrap_or(0),
        page["total_relations"].as_u64().unwrap_or(0)
    );
    let mut reached: std::collections::HashMap<&str, String> = std::collections::HashMap::new();
    for rel in r["relations"].as_array().into_iter().flatten() {
        let (s, t) = (
            rel["source_node_id"].as_str().unwrap_or_default(),
            rel["target_node_id"].as_str().unwrap_or_default(),
        );
        let relation = text(&rel["relation"]);
        reached.entry(t).or_insert_with(|| format!("<-{relation}-"));
        reached.entry(s).or_insert_with(|| format!("-{relation}->"));
    }
    for entry in r["nodes"]
        .as_array()
        .into_iter()
        .flatten()
        .take(SHOWN_CHANGES)
    {
        let node = &entry["node"];
        let at = &node["evidence"]["location"];
        let line = at["start"]["line"]
            .as_u64()
            .map(|l| format!(":{l}"))
            .unwrap_or_default();
        say!(
            "  {:>2} {:<14} {:<40} {}{} {}",
            entry["depth"].as_u64().unwrap_or(0),
            text(&node["kind"]),
            text(&node["label"]).chars().take(40).collect::<String>(),
            text(&node["identity"]["module_path"]),
            line,
            reached
                .get(node["node_id"].as_str().unwrap_or_default())
                .map(String::as_str)
                .unwrap_or("")
        );
    }
    for u in r["unknowns"].as_array().into_iter().flatten().take(10) {
        say!(
            "  unknown      {}: {}",
            text(&u["reason"]),
            text(&u["detail"])
        );
    }
    if !page["next_cursor"].is_null() {
        say!("  next page    --cursor {}", text(&page["next_cursor"]));
    }
    let bounds = r["coverage"]["bounds_reached"]
        .as_array()
        .map_or(0, Vec::len);
    if bounds > 0 {
        say!("  bounds       {}", r["coverage"]["bounds_reached"]);
    }
    say!("  evidence     {}", published.evidence_id());
    say!("  time         {:.3} s", elapsed.as_secs_f64());
}

/// The strings of a JSON list (none for anything else).
fn strings(list: &Value) -> Vec<String> {
    strs(list).into_iter().map(str::to_owned).collect()
}

/// [`strings`], borrowed.
fn strs(list: &Value) -> Vec<&str> {
    list.as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .collect()
}

/// `text` cut to its first `chars` characters, `…` marking the cut.
fn cut_short(text: String, chars: usize) -> String {
    match text.char_indices().nth(chars) {
        Some((at, _)) => format!("{}…", &text[..at]),
        None => text,
    }
}

/// A reached process boundary as the summary shows it: its kind, its API and its target
/// (cut short), whether the target is not written there, and the place in `file` where the
/// call is written (one handler may reach several calls of one API).
fn boundary_text(b: &Value, file: &str) -> String {
    let text = |key: &str| b[key].as_str().unwrap_or("");
    format!(
        "{} {}({}){} at {file}:{}",
        text("kind"),
        text("api").trim_start_matches('.'),
        cut_short(text("target").to_owned(), 40),
        if b["static"] == true { "" } else { " dynamic" },
        b["boundary_line"]
    )
}

//! The parse stage proper: select text files, read them again with a byte cap, check each
//! against the inventory's digest, then parse and extract in parallel on the rayon pool.

use rayon::prelude::*;
use rea_core::{Failure, FailureReason};
use rea_exec::StageCx;
use rea_hash::{HashOutcome, HashedEntry};

use crate::extract::{self, Budget};
use crate::facts::{FileFacts, FileKind, ParseStatus, TextStatus};
use crate::source::Source;
use crate::{syntax, text};

/// Bounds on what is read and kept.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TextLimits {
    pub max_text_files: u64,
    pub max_total_text_bytes: u64,
    pub max_text_file_bytes: u64,
    pub max_ast_nodes: u64,
    pub max_findings: u64,
    pub max_modules: u64,
    pub max_source_map_sources: u64,
}

impl Default for TextLimits {
    /// Raised well past the reference's defaults so that real desktop applications complete.
    fn default() -> TextLimits {
        TextLimits {
            max_text_files: 100_000,
            max_total_text_bytes: 1 << 30,
            max_text_file_bytes: 64 << 20,
            max_ast_nodes: 50_000_000,
            max_findings: 200_000,
            max_modules: 200_000,
            max_source_map_sources: 100_000,
        }
    }
}

/// Options of one run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Options {
    pub limits: TextLimits,
    /// Read source-map `sources` and hash their contents (never keeping them).
    pub source_map_contents: bool,
}

/// What the stage returns: one [`FileFacts`] per relevant file, in path order.
#[derive(Debug, Clone, Default)]
pub struct ParseOutput {
    pub files: Vec<FileFacts>,
    pub text_bytes_read: u64,
}

/// Bytes of the application's own JavaScript (outside `node_modules`) read for semantic
/// relations per analysis, in path order.
pub const SEMANTIC_SOURCE_BYTES: u64 = 4 << 20;
/// Bytes of its dependencies' JavaScript (in `node_modules`) read for them, in path order:
/// none. Third-party internals cost as much as the application's own code and answer none of
/// its questions; a dependency's file copied out of `node_modules` (or bundled) is read.
pub const SEMANTIC_DEPENDENCY_BYTES: u64 = 0;

/// Whether a path lies in a `node_modules` directory.
fn is_dependency(path: &str) -> bool {
    path.starts_with("node_modules/") || path.contains("/node_modules/")
}

/// Selects, reads and parses the relevant files among `entries` (sorted by path).
pub fn run(
    cx: &StageCx<'_>,
    entries: &[HashedEntry],
    options: Options,
) -> Result<ParseOutput, Failure> {
    let limits = options.limits;
    let mut candidates: Vec<(FileKind, &HashedEntry)> = entries
        .iter()
        .filter(|h| h.entry.kind == rea_traverse::EntryKind::File)
        .filter_map(|h| FileKind::of(&h.entry.logical_path).map(|k| (k, h)))
        .collect();
    let by_path = |a: &(FileKind, &HashedEntry), b: &(FileKind, &HashedEntry)| {
        a.1.entry.logical_path.cmp(&b.1.entry.logical_path)
    };
    if !candidates.is_sorted_by(|a, b| by_path(a, b).is_le()) {
        candidates.sort_by(by_path);
    }
    // Each file's facts go to its slot, in path order, so the output needs no sort of its
    // (large) facts.
    let mut slots: Vec<Option<FileFacts>> = (0..candidates.len()).map(|_| None).collect();
    // Selection goes by priority, then path (the rank), sequentially and in this fixed order,
    // so bounds cut the same files every run.
    let mut order: Vec<usize> = (0..candidates.len()).collect();
    order.sort_by_key(|&rank| (candidates[rank].0.priority(), rank));
    let mut selected = Vec::new();
    let (mut count, mut total) = (0u64, 0u64);
    for rank in order {
        cx.check()?;
        let (kind, hashed) = candidates[rank];
        let mut facts = FileFacts::new(hashed.entry.logical_path.clone(), None, 0, kind);
        facts.unpacked = hashed.entry.unpacked;
        let HashOutcome::Hashed(digest, _) = &hashed.outcome else {
            facts.text = TextStatus::Unavailable;
            facts
                .diagnostics
                .push("bytes unavailable in the inventory".to_owned());
            slots[rank] = Some(facts);
            continue;
        };
        facts.sha256 = Some(digest.sha256.clone());
        facts.bytes = digest.bytes;
        if matches!(kind, FileKind::NativeAddon | FileKind::Bytecode) {
            slots[rank] = Some(facts);
            continue;
        }
        if count >= limits.max_text_files || digest.bytes > limits.max_text_file_bytes {
            facts.text = TextStatus::FileLimit;
            slots[rank] = Some(facts);
            continue;
        }
        if total + digest.bytes > limits.max_total_text_bytes {
            facts.text = TextStatus::ByteLimit;
            slots[rank] = Some(facts);
            continue;
        }
        count += 1;
        total += digest.bytes;
        selected.push((rank, facts, hashed));
    }
    // Semantic relations: the application's own files first (outside `node_modules`), then
    // in path order, until the budget is spent.
    let mut semantic_order: Vec<usize> = (0..selected.len())
        .filter(|&i| selected[i].1.kind == FileKind::JavaScript)
        .collect();
    semantic_order.sort_by_key(|&i| (is_dependency(&selected[i].1.path), selected[i].0));
    let (mut own, mut dependencies) = (0u64, 0u64);
    for i in semantic_order {
        let facts = &mut selected[i].1;
        let (spent, budget) = if is_dependency(&facts.path) {
            (&mut dependencies, SEMANTIC_DEPENDENCY_BYTES)
        } else {
            (&mut own, SEMANTIC_SOURCE_BYTES)
        };
        facts.semantic = *spent + facts.bytes <= budget;
        if facts.semantic {
            *spent += facts.bytes;
        }
    }
    let counter =
        cx.progress()
            .phase_counter("parse", "text files parsed", selected.len() as u64, total);
    // Largest first, one file per job: rayon splits an indexed iterator only as often as
    // jobs are stolen, so in path order a worker could be left with a run of large files
    // while the other idles (on the large ASAR one of two workers sat idle for half the
    // stage). Jobs of one file, biggest first, leave only small files for the end.
    selected.sort_by_key(|(rank, facts, _)| (std::cmp::Reverse(facts.bytes), *rank));
    let done: Vec<(usize, Result<FileFacts, Failure>)> = selected
        .into_par_iter()
        .with_max_len(1)
        .map(|(rank, facts, hashed)| {
            let bytes = facts.bytes;
            let parsed = read_and_parse(cx, facts, hashed, options);
            counter.done(bytes);
            (rank, parsed)
        })
        .collect();
    // The first failure in path order, whatever order the files were read in.
    let mut failure: Option<(usize, Failure)> = None;
    for (rank, facts) in done {
        match facts {
            Ok(facts) => slots[rank] = Some(facts),
            Err(f) if failure.as_ref().is_none_or(|(first, _)| rank < *first) => {
                failure = Some((rank, f));
            }
            Err(_) => {}
        }
    }
    if let Some((_, f)) = failure {
        return Err(f);
    }
    cx.check()?;
    let files: Vec<FileFacts> = slots.into_iter().flatten().collect();
    let text_bytes_read = files
        .iter()
        .filter(|f| f.text == TextStatus::Included)
        .map(|f| f.bytes)
        .sum();
    Ok(ParseOutput {
        files,
        text_bytes_read,
    })
}

fn read_and_parse(
    cx: &StageCx<'_>,
    mut facts: FileFacts,
    hashed: &HashedEntry,
    options: Options,
) -> Result<FileFacts, Failure> {
    cx.check()?;
    let mut bytes = Vec::with_capacity(facts.bytes as usize);
    match rea_hash::copy_entry(
        cx,
        &hashed.entry,
        options.limits.max_text_file_bytes,
        &mut bytes,
    ) {
        Ok(digest) => {
            if Some(&digest.sha256) != facts.sha256.as_ref() || digest.bytes != facts.bytes {
                return Err(Failure::new(
                    FailureReason::Integrity,
                    "file changed between inventory and parse",
                )
                .with_detail("logical_path", facts.path.clone())
                .with_detail("declared_sha256", facts.sha256.clone().unwrap_or_default())
                .with_detail("observed_sha256", digest.sha256));
            }
        }
        Err(failure) if failure.is_cancellation() => return Err(failure),
        Err(failure) => {
            facts.text = TextStatus::Unavailable;
            facts.diagnostics.push(failure.message);
            return Ok(facts);
        }
    }
    let body = bytes
        .strip_prefix(b"\xEF\xBB\xBF".as_slice())
        .unwrap_or(&bytes);
    let Ok(text) = std::str::from_utf8(body) else {
        facts.text = TextStatus::InvalidUtf8;
        facts.diagnostics.push("text is not valid UTF-8".to_owned());
        return Ok(facts);
    };
    facts.text = TextStatus::Included;
    let cancelled = || cx.check().is_err();
    read_text(&mut facts, text, options, &cancelled);
    cx.check()?;
    Ok(facts)
}

/// Reads one file's text into `facts` by its kind. Public so benches and tests can run the
/// parser and extractor on text without an inventory.
pub fn read_text(
    facts: &mut FileFacts,
    text: &str,
    options: Options,
    cancelled: &dyn Fn() -> bool,
) {
    let limits = options.limits;
    match facts.kind {
        FileKind::PackageJson => {
            let package = text::package(text);
            facts.parse = if package.valid {
                ParseStatus::Complete
            } else {
                ParseStatus::Failed
            };
            if !package.valid {
                facts
                    .diagnostics
                    .push("package.json is not a JSON object".to_owned());
            }
            facts.package = Some(package);
        }
        FileKind::Json => match text::json_keys(text) {
            Some((keys, omitted, jsonc)) => {
                facts.parse = ParseStatus::Complete;
                facts.json_keys = Some((keys, omitted));
                if jsonc {
                    facts
                        .diagnostics
                        .push("read as JSON with comments or trailing commas".to_owned());
                }
            }
            None => {
                facts.parse = ParseStatus::Failed;
                facts.diagnostics.push("not valid JSON".to_owned());
            }
        },
        FileKind::Html => read_html(facts, text, options, cancelled),
        FileKind::SourceMap => {
            let map = text::source_map(
                text,
                options.source_map_contents,
                limits.max_source_map_sources as usize,
            );
            facts.parse = match map.status {
                "invalid" => ParseStatus::Failed,
                "truncated" => ParseStatus::Truncated,
                _ => ParseStatus::Complete,
            };
            facts.source_map = Some(map);
        }
        FileKind::JavaScript => {
            if let Err(diagnostics) = read_javascript(facts, Source::new(text), options, cancelled)
            {
                facts.diagnostics = diagnostics;
                facts.parse = ParseStatus::Failed;
            }
        }
        FileKind::NativeAddon | FileKind::Bytecode => {}
    }
}

/// Parses `source` as JavaScript and extracts its facts into `facts` (its parse status, its
/// `js` facts, the parser's recovered errors); the parser's diagnostics when it does not
/// parse, and then `facts` is untouched.
fn read_javascript(
    facts: &mut FileFacts,
    mut source: Source<'_>,
    options: Options,
    cancelled: &dyn Fn() -> bool,
) -> Result<(), Vec<String>> {
    let limits = options.limits;
    let parsed = syntax::parse(&source, &facts.path);
    let Some(mut program) = parsed.program else {
        return Err(parsed.diagnostics);
    };
    facts.diagnostics.extend(parsed.diagnostics);
    extract::evals::inline(&mut program, &mut source, parsed.extent);
    let budget = Budget {
        max_findings: limits.max_findings,
        max_modules: limits.max_modules,
        max_ast_nodes: limits.max_ast_nodes,
    };
    let maps = extract::MapOptions {
        contents: options.source_map_contents,
        max_sources: limits.max_source_map_sources as usize,
    };
    let semantic = facts.semantic && facts.kind == FileKind::JavaScript;
    let walk = extract::extract(&source, &program, budget, maps, semantic, cancelled);
    drop(program);
    facts.visited_nodes = walk.visited_nodes;
    let js = walk.facts;
    facts.parse = if walk.truncated || js.dropped_findings > 0 || js.dropped_modules > 0 {
        ParseStatus::Truncated
    } else if parsed.recovered || js.dynamic_findings > 0 {
        ParseStatus::Partial
    } else {
        ParseStatus::Complete
    };
    facts.js = js;
    Ok(())
}

/// Reads an HTML page: its script tags, webview preloads and content security policies, and
/// its inline scripts as code. The inline scripts are parsed together, each at its place in
/// the page (`text::inline_script_text`), so that every finding has its position in the page;
/// when they do not parse together, those that do not parse alone are left out, each with a
/// diagnostic, and the page is `partial`.
fn read_html(facts: &mut FileFacts, text: &str, options: Options, cancelled: &dyn Fn() -> bool) {
    let page = text::html_page(text);
    facts.html = page.scripts;
    facts.csp = page.csp;
    facts.parse = ParseStatus::Complete;
    if page.inline.is_empty() {
        return;
    }
    let all: Vec<&text::InlineScript> = page.inline.iter().collect();
    let read = |facts: &mut FileFacts, scripts: &[&text::InlineScript]| {
        let js = text::inline_script_text(text, scripts);
        read_javascript(facts, Source::embedded(&js, text), options, cancelled)
    };
    let mut kept = all.clone();
    let mut outcome = read(facts, &kept);
    if outcome.is_err() && kept.len() > 1 {
        // Whether a script parses alone needs only its own text, not the page around it.
        kept.retain(|script| {
            syntax::parse(&Source::new(&text[script.body.clone()]), &facts.path)
                .program
                .is_some()
        });
        if !kept.is_empty() {
            outcome = read(facts, &kept);
        }
        if outcome.is_err() && kept.len() > 1 {
            // Each parses alone but not with the others: the largest is read alone.
            kept = kept
                .iter()
                .max_by_key(|s| s.body.len())
                .copied()
                .into_iter()
                .collect();
            outcome = read(facts, &kept);
        }
    }
    let read_count = if outcome.is_ok() { kept.len() } else { 0 };
    facts.inline_scripts = (all.len() as u32, read_count as u32);
    for script in all.iter().filter(|s| outcome.is_err() || !kept.contains(s)) {
        facts.diagnostics.push(format!(
            "the inline script at line {} does not parse; its code was not read",
            script.line
        ));
    }
    if let Err(diagnostics) = outcome {
        facts.diagnostics.extend(diagnostics.into_iter().take(8));
    }
    if read_count < all.len() && facts.parse == ParseStatus::Complete {
        facts.parse = ParseStatus::Partial;
    }
}

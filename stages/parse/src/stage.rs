//! The parse stage proper: select text files, read them again with a byte cap, check each
//! against the inventory's digest, then parse and extract in parallel on the rayon pool.

use rayon::prelude::*;
use rea_core::{Failure, FailureReason};
use rea_exec::StageCx;
use rea_hash::{HashOutcome, HashedEntry};

use crate::extract::{self, Budget, Externals};
use crate::facts::{FileFacts, FileKind, ModuleKey, ParseStatus, TextStatus};
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
            let parsed = read_and_parse(cx, facts, hashed, options, &Externals::default());
            counter.done(bytes);
            (rank, parsed)
        })
        .collect();
    fill(&mut slots, done)?;
    // A chunk's factories require, by key, the externals its entry chunk defines in another
    // file (`t(157)` where main.js holds `157: e => { e.exports = require("electron") }`):
    // those chunks are read again knowing them, so that `t(157).ipcMain` is Electron's.
    let again: Vec<(usize, FileFacts, &HashedEntry, Externals)> = second_readings(&slots)
        .into_iter()
        .filter_map(|(rank, foreign)| {
            let first = slots[rank].as_ref()?;
            let mut facts = FileFacts::new(
                first.path.clone(),
                first.sha256.clone(),
                first.bytes,
                first.kind,
            );
            facts.unpacked = first.unpacked;
            facts.semantic = first.semantic;
            Some((rank, facts, candidates[rank].1, foreign))
        })
        .collect();
    cx.check()?;
    let done: Vec<(usize, Result<FileFacts, Failure>)> = again
        .into_par_iter()
        .with_max_len(1)
        .map(|(rank, facts, hashed, foreign)| {
            (rank, read_and_parse(cx, facts, hashed, options, &foreign))
        })
        .collect();
    fill(&mut slots, done)?;
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

/// Puts each file's facts in its slot; the first failure in path order, whatever order the
/// files were read in.
fn fill(
    slots: &mut [Option<FileFacts>],
    done: Vec<(usize, Result<FileFacts, Failure>)>,
) -> Result<(), Failure> {
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
    match failure {
        Some((_, f)) => Err(f),
        None => Ok(()),
    }
}

/// Whether a bundle is webpack's or rspack's.
fn is_webpack(bundle: &crate::facts::Bundle) -> bool {
    matches!(bundle.bundler, "webpack" | "rspack")
}

/// Whether a bundle is a webpack or rspack chunk, which another file's runtime installs.
fn is_webpack_chunk(bundle: &crate::facts::Bundle) -> bool {
    is_webpack(bundle) && matches!(bundle.shape, "jsonp-chunk" | "esm-chunk" | "commonjs-chunk")
}

/// The files to read again, by slot, each with the externals it requires from other files (a
/// chunk's factories, or a runtime whose externals a split chunk holds).
/// A key counts only where every file that has a factory of that key (of webpack or rspack)
/// has it as the same external: production builds number modules by a hash of their name, so
/// one build's key may be another build's ordinary module, and such a key is left alone.
fn second_readings(slots: &[Option<FileFacts>]) -> Vec<(usize, Externals)> {
    use std::collections::hash_map::Entry;
    let webpack = |f: &FileFacts| {
        f.js.bundles
            .iter()
            .filter(|b| is_webpack(b))
            .flat_map(|b| &b.modules)
            .map(|m| m.key.text())
            .collect::<Vec<String>>()
    };
    if !slots
        .iter()
        .flatten()
        .any(|f| f.js.bundles.iter().any(is_webpack_chunk))
    {
        return Vec::new();
    }
    let mut defined: rustc_hash::FxHashMap<String, Option<&'static str>> =
        rustc_hash::FxHashMap::default();
    for file in slots.iter().flatten() {
        for key in webpack(file) {
            let external = file
                .js
                .externals
                .binary_search_by(|(k, _)| k.as_str().cmp(&key))
                .ok()
                .map(|i| file.js.externals[i].1);
            match defined.entry(key) {
                Entry::Vacant(entry) => {
                    entry.insert(external);
                }
                Entry::Occupied(mut entry) => {
                    if *entry.get() != external {
                        entry.insert(None);
                    }
                }
            }
        }
    }
    let mut again = Vec::new();
    for (rank, file) in slots.iter().enumerate() {
        let Some(file) = file else { continue };
        if !file.js.bundles.iter().any(is_webpack) {
            continue;
        }
        let own: rustc_hash::FxHashSet<String> = webpack(file).into_iter().collect();
        let mut foreign = Externals::default();
        for bundle in file.js.bundles.iter().filter(|b| is_webpack(b)) {
            let required = bundle
                .modules
                .iter()
                .flat_map(|m| m.requires.iter().map(ModuleKey::text))
                .chain(bundle.entry_requires.iter().cloned());
            for key in required {
                if !own.contains(&key)
                    && let Some(Some(external)) = defined.get(&key)
                {
                    foreign.insert(key, external);
                }
            }
        }
        if !foreign.is_empty() {
            again.push((rank, foreign));
        }
    }
    again
}

fn read_and_parse(
    cx: &StageCx<'_>,
    mut facts: FileFacts,
    hashed: &HashedEntry,
    options: Options,
    foreign: &Externals,
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
    read_text_with(&mut facts, text, options, foreign, &cancelled);
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
    read_text_with(facts, text, options, &Externals::default(), cancelled);
}

/// [`read_text`], knowing the externals other files of the build define (`foreign`).
fn read_text_with(
    facts: &mut FileFacts,
    text: &str,
    options: Options,
    foreign: &Externals,
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
        FileKind::UpdateConfig => match crate::update::read(text) {
            Some(config) => {
                facts.parse = ParseStatus::Complete;
                facts.update_config = Some(config);
            }
            None => {
                facts.parse = ParseStatus::Failed;
                facts
                    .diagnostics
                    .push("not YAML whose first document is a mapping".to_owned());
            }
        },
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
            if let Err(diagnostics) =
                read_javascript(facts, Source::new(text), options, foreign, cancelled)
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
    foreign: &Externals,
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
    let walk = extract::extract(
        &source, &program, budget, maps, semantic, foreign, cancelled,
    );
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
    facts.webviews = page.webviews;
    facts.parse = ParseStatus::Complete;
    if page.inline.is_empty() {
        return;
    }
    let all: Vec<&text::InlineScript> = page.inline.iter().collect();
    let read = |facts: &mut FileFacts, scripts: &[&text::InlineScript]| {
        let js = text::inline_script_text(text, scripts);
        read_javascript(
            facts,
            Source::embedded(&js, text),
            options,
            &Externals::default(),
            cancelled,
        )
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

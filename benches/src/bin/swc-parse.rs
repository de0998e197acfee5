//! The parse anchor for the harness: raw swc parses of every JavaScript or TypeScript file
//! below a directory (the extensions the parse stage reads as code),
//! one after another on one thread (no extraction, no REA pipeline), with the engine's stack.
//!
//!     swc-parse DIR [THREADS] [--extract]
//!
//! With `--extract`, each file also goes through REA's fact extraction (`read_text`, what the
//! parse stage does after reading a file), so the two runs side by side say what extraction
//! costs on the same texts. As in the parse stage, files in a `node_modules` directory are not
//! read for semantic relations, and the others are up to `SEMANTIC_SOURCE_BYTES` in path order.
//!
//! With THREADS (at least 2), the files are parsed on a rayon pool of that many threads in this
//! one process, each file whole on one thread as the parse stage does: the in-process ceiling
//! for parse-like work, beside two separate processes.
//!
//! Prints one JSON line: `{"files", "bytes", "seconds", "mb_per_s", "failed", "threads"}`.

use std::path::{Path, PathBuf};
use std::time::Instant;

#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut children: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    children.sort();
    for child in children {
        let Ok(meta) = std::fs::symlink_metadata(&child) else {
            continue;
        };
        if meta.is_dir() {
            walk(&child, out);
        } else if meta.is_file()
            && matches!(
                child.extension().and_then(|e| e.to_str()),
                Some("js" | "cjs" | "mjs" | "jsx" | "ts" | "tsx" | "cts" | "mts")
            )
        {
            out.push(child);
        }
    }
}

fn main() {
    let extract = std::env::args().any(|a| a == "--extract");
    let args: Vec<String> = std::env::args().filter(|a| a != "--extract").collect();
    let Some(dir) = args.get(1) else {
        eprintln!("usage: swc-parse DIR [THREADS] [--extract]");
        std::process::exit(2);
    };
    let mut files = Vec::new();
    walk(Path::new(&dir), &mut files);
    let texts: Vec<(String, String)> = files
        .iter()
        .filter_map(|f| {
            let text = std::fs::read_to_string(f).ok()?;
            let relative = f.strip_prefix(dir.as_str()).unwrap_or(f);
            Some((relative.to_string_lossy().into_owned(), text))
        })
        .collect();
    let bytes: usize = texts.iter().map(|(_, t)| t.len()).sum();
    let mut own = 0u64;
    let semantic: Vec<bool> = texts
        .iter()
        .map(|(name, text)| {
            let dependency = name.starts_with("node_modules/") || name.contains("/node_modules/");
            let read = !dependency && own + text.len() as u64 <= rea_parse::SEMANTIC_SOURCE_BYTES;
            if read {
                own += text.len() as u64;
            }
            read
        })
        .collect();
    let threads: usize = args.get(2).and_then(|t| t.parse().ok()).unwrap_or(1).max(1);
    // One thread or several, the files go through a rayon pool with the engine's stack, each
    // file whole on one thread.
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .stack_size(rea_core::WORKER_STACK_BYTES)
        .build()
        .expect("pool");
    let (seconds, failed, count) = pool.install(|| {
        use rayon::prelude::*;
        let start = Instant::now();
        let failed = texts
            .par_iter()
            .zip(&semantic)
            .filter(|((name, text), semantic)| {
                if extract {
                    !parse_and_extract(name, text, **semantic)
                } else {
                    !rea_parse::syntax::parse_only(text, name)
                }
            })
            .count();
        (start.elapsed().as_secs_f64(), failed, texts.len())
    });
    println!(
        "{{\"extract\": {extract}, \"files\": {count}, \"bytes\": {bytes}, \"seconds\": {seconds:.4}, \"mb_per_s\": {:.2}, \"failed\": {failed}, \"threads\": {threads}}}",
        bytes as f64 / 1e6 / seconds
    );
}

/// The parse stage's work on one text once it is read: parse, then extract (with semantic
/// relations if `semantic`). True when it parsed.
fn parse_and_extract(name: &str, text: &str, semantic: bool) -> bool {
    let options = rea_parse::Options {
        limits: rea_parse::TextLimits::default(),
        source_map_contents: false,
    };
    let mut facts = rea_parse::FileFacts::new(
        name.into(),
        None,
        text.len() as u64,
        rea_parse::FileKind::JavaScript,
    );
    facts.semantic = semantic;
    rea_parse::read_text(&mut facts, text, options, &|| false);
    facts.parse != rea_parse::ParseStatus::Failed
}

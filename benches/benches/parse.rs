//! The parse stage's cost on one fixed real file, `typescript/lib/typescript.js` from npm
//! (installed once under `target/bench/typescript` by `corpora/scripts/typescript-js.sh`),
//! single thread: the raw swc parse (the anchor: 58.5 MB/s in performance-anchors.md) and
//! the parse plus REA's fact extraction, so their ratio is what extraction costs.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};

// The same allocator as the `rea` binary, so these figures describe what the binary does.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;
use rea_parse::{FileFacts, FileKind, Options, TextLimits};

fn typescript_js() -> String {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let dest = root.join("target/bench/typescript");
    let status = std::process::Command::new("bash")
        .arg(root.join("corpora/scripts/typescript-js.sh"))
        .arg(&dest)
        .status()
        .expect("bash runs");
    assert!(
        status.success(),
        "typescript-js.sh failed: npm and the npm registry are needed"
    );
    std::fs::read_to_string(dest.join("node_modules/typescript/lib/typescript.js"))
        .expect("typescript.js")
}

fn parsing(c: &mut Criterion) {
    let text = typescript_js();
    // Parse on a thread with the engine's stack, as the pool does.
    let mut group = c.benchmark_group("typescript_js");
    group.throughput(Throughput::Bytes(text.len() as u64));
    group.sample_size(10);
    group.bench_function("swc_parse_raw", |b| {
        b.iter(|| assert!(rea_parse::syntax::parse_only(&text, "typescript.js")))
    });
    let options = Options {
        limits: TextLimits::default(),
        source_map_contents: false,
    };
    group.bench_function("parse_and_extract", |b| {
        b.iter(|| {
            let mut facts = FileFacts::new(
                "typescript.js".into(),
                None,
                text.len() as u64,
                FileKind::JavaScript,
            );
            rea_parse::read_text(&mut facts, &text, options, &|| false);
            facts.visited_nodes
        })
    });
    group.finish();
}

criterion_group!(benches, parsing);
criterion_main!(benches);

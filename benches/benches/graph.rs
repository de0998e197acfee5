//! The inventory graph build on its own: 50,000 hashed files in 500 directories (the large
//! ASAR's shape), already hashed, so the figure is the graph stage alone: ids, Merkle directory
//! digests, contains edges, sorting and `graph_sha256`. Run on the engine's pool at 1 and 2
//! threads. The harness (`benches/harness.sh`) reports the same stage inside real runs.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use rea_core::{CancelToken, ProgressReporter};
use rea_exec::{Executor, StageCx, StageKind};
use rea_graph::artifact::{RootContent, build};
use rea_hash::{HashOutcome, HashedEntry, StreamDigest, Verdict, sha256_hex};
use rea_traverse::{Entry, EntryKind, EntrySource, WalkNotes};

#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

const DIRS: usize = 500;
const FILES: usize = 50_000;

fn entry(path: String, kind: EntryKind, content: Option<String>) -> HashedEntry {
    let outcome = match &content {
        Some(text) => HashOutcome::Hashed(
            StreamDigest {
                sha256: sha256_hex(text.as_bytes()),
                bytes: text.len() as u64,
                head: text.as_bytes()[..text.len().min(16)].to_vec(),
                blocks: Vec::new(),
            },
            Verdict::Undeclared,
        ),
        None => HashOutcome::NotHashed,
    };
    HashedEntry {
        entry: Entry {
            logical_path: path,
            kind,
            declared_size: content.as_ref().map(|c| c.len() as u64),
            executable: false,
            link_target: None,
            unpacked: false,
            source: EntrySource::None,
            declared: None,
            limitations: Vec::new(),
        },
        outcome,
    }
}

fn entries() -> Vec<HashedEntry> {
    let mut all = Vec::with_capacity(DIRS + FILES);
    for d in 0..DIRS {
        all.push(entry(
            format!("node_modules/pkg-{d:03}"),
            EntryKind::Directory,
            None,
        ));
    }
    for f in 0..FILES {
        let d = f % DIRS;
        all.push(entry(
            format!("node_modules/pkg-{d:03}/lib/file-{f:05}.js"),
            EntryKind::File,
            Some(format!("module.exports = {f};\n")),
        ));
    }
    for d in 0..DIRS {
        all.push(entry(
            format!("node_modules/pkg-{d:03}/lib"),
            EntryKind::Directory,
            None,
        ));
    }
    all.push(entry("node_modules".to_owned(), EntryKind::Directory, None));
    all
}

fn graph_build(c: &mut Criterion) {
    let entries = entries();
    let mut group = c.benchmark_group("inventory_graph_50k");
    group.throughput(Throughput::Elements(entries.len() as u64));
    group.sample_size(10);
    for threads in [1, 2] {
        let pool = Executor::new(threads).expect("pool");
        group.bench_function(format!("threads_{threads}"), |b| {
            b.iter_batched(
                || entries.clone(),
                |mut batch| {
                    pool.install(|| {
                        let (cancel, progress) = (CancelToken::new(), ProgressReporter::silent());
                        let cx = StageCx::detached(StageKind::Graph, &cancel, &progress);
                        build(
                            &cx,
                            RootContent::Directory,
                            &mut batch,
                            WalkNotes::default(),
                            rea_core::IntegrityPolicy::Fail,
                        )
                        .map(|g| g.occurrences.len())
                        .ok()
                    })
                },
                criterion::BatchSize::LargeInput,
            )
        });
    }
    group.finish();
}

criterion_group!(benches, graph_build);
criterion_main!(benches);

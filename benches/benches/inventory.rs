//! `inventory_artifact` end to end on a synthetic tree in page cache: 2,000 files of 64 KiB
//! (125 MiB) in 200 packages. Compare with (bytes ÷ 3.5 GB/s), the two-core SHA-NI limit.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use rea_core::{CancelToken, Limits, ProgressReporter};
use rea_jobs::inventory::InventoryRequest;
use rea_jobs::{Engine, JobControl, PageRequest};

fn inventory(c: &mut Criterion) {
    let dir = tempfile::tempdir().expect("temp dir");
    let bytes = rea_benches::synthetic_tree(dir.path(), 200, 2000, 64 * 1024).expect("tree");
    let mut group = c.benchmark_group("inventory_directory_125MiB");
    group.throughput(Throughput::Bytes(bytes));
    group.sample_size(10);
    for threads in [1, 2] {
        let engine = Engine::new(threads).expect("engine");
        let request = InventoryRequest {
            input_path: dir.path().to_path_buf(),
            limits: Limits::default(),
            page: PageRequest::default(),
            integrity: Default::default(),
        };
        group.bench_function(format!("threads_{threads}"), |b| {
            b.iter(|| {
                let cancel = CancelToken::new();
                let progress = ProgressReporter::silent();
                let ctl = JobControl {
                    cancel: &cancel,
                    progress: &progress,
                    timeout: None,
                };
                engine
                    .inventory_artifact(&request, &ctl)
                    .map(|p| p.evidence_id().len())
                    .ok()
            })
        });
    }
    group.finish();
}

criterion_group!(benches, inventory);
criterion_main!(benches);

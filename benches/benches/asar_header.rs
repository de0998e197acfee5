//! The ASAR header read and parse (pickle framing plus the lenient JSON header) of the large
//! real archive that `corpora/scripts/large-asar.sh` builds under `target/bench/large-asar`
//! (a 14 MB header describing 56,000 entries). The anchor is `@electron/asar`'s header read
//! (72 ms for a 12.6 MB archive's header in performance-anchors.md); `benches/harness.sh`
//! measures `asar list` on the same archive.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use rea_core::{CancelToken, ProgressReporter};
use rea_exec::{StageCx, StageKind};

#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn header(c: &mut Criterion) {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let dest = root.join("target/bench/large-asar");
    let status = std::process::Command::new("bash")
        .arg(root.join("corpora/scripts/large-asar.sh"))
        .arg(&dest)
        .status()
        .expect("bash runs");
    assert!(
        status.success(),
        "large-asar.sh failed: npm and the npm registry are needed"
    );
    let archive = dest.join("large.asar");
    let mut head = [0u8; 8];
    std::io::Read::read_exact(
        &mut std::fs::File::open(&archive).expect("archive"),
        &mut head,
    )
    .expect("header size");
    let header_bytes = u32::from_le_bytes([head[4], head[5], head[6], head[7]]);
    let source = rea_traverse::asar::open(&archive).expect("open");
    let (cancel, progress) = (CancelToken::new(), ProgressReporter::silent());
    let cx = StageCx::detached(StageKind::Traverse, &cancel, &progress);
    let mut group = c.benchmark_group("asar_header");
    group.throughput(Throughput::Bytes(u64::from(header_bytes)));
    group.sample_size(10);
    group.bench_function("large_asar_read_and_parse", |b| {
        b.iter(|| {
            rea_traverse::asar::read_header(&cx, &source)
                .and_then(|header| rea_traverse::asar::parse_header(&source, &header))
                .is_ok()
        })
    });
    group.finish();
}

criterion_group!(benches, header);
criterion_main!(benches);

//! SHA-256 through REA's streaming path against `sha2` on one buffer.
//! The ratio tells what chunking and cancellation checks cost; the absolute MB/s tells whether
//! `sha2` reached the SHA-NI path (about 1.5-2 GB/s on one core) or not (about 0.25 GB/s).

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use rea_core::CancelToken;
use sha2::{Digest, Sha256};

fn hashing(c: &mut Criterion) {
    let data: Vec<u8> = (0..64 << 20)
        .map(|i: u32| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
        .collect();
    let mut group = c.benchmark_group("sha256_64MiB");
    group.throughput(Throughput::Bytes(data.len() as u64));
    group.sample_size(20);
    group.bench_function("sha2_raw", |b| b.iter(|| Sha256::digest(&data)));
    let cancel = CancelToken::new();
    group.bench_function("rea_hash_stream", |b| {
        b.iter(|| {
            rea_hash::hash_stream(&mut data.as_slice(), u64::MAX, &|| cancel.check(), &|_| {})
                .map(|d| d.bytes)
                .ok()
        })
    });
    group.finish();
}

criterion_group!(benches, hashing);
criterion_main!(benches);

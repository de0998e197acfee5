//! The hash stage over a real walk: digests, per-entry limits, the total budget, cancellation.

use rea_core::{CancelToken, Failure, FailureReason, Limits, ProgressReporter};
use rea_exec::{StageCx, StageKind};
use rea_hash::{HashOutcome, HashedEntry, sha256_hex};
use rea_traverse::{WalkTally, directory};

fn walk_and_hash(
    root: &std::path::Path,
    limits: &Limits,
    cancel: &CancelToken,
) -> Result<Vec<HashedEntry>, Failure> {
    let progress = ProgressReporter::silent();
    let cx = StageCx::detached(StageKind::Hash, cancel, &progress);
    let (tx, rx) = crossbeam_channel::unbounded();
    let tally = WalkTally::default();
    directory::walk(&cx, root, limits, &tally, &tx)?;
    drop(tx);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .unwrap();
    let mut hashed = pool.install(|| rea_hash::run(&cx, rx, limits, Default::default(), &tally))?;
    hashed.sort_by(|a, b| a.entry.logical_path.cmp(&b.entry.logical_path));
    Ok(hashed)
}

fn tree() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("lib")).unwrap();
    std::fs::write(dir.path().join("lib/big.bin"), vec![1u8; 200_000]).unwrap();
    std::fs::write(dir.path().join("small.js"), b"module.exports = 1;\n").unwrap();
    std::fs::write(dir.path().join("empty"), b"").unwrap();
    dir
}

#[test]
fn every_file_gets_its_real_digest() {
    let dir = tree();
    let hashed = walk_and_hash(dir.path(), &Limits::default(), &CancelToken::new()).unwrap();
    let paths: Vec<_> = hashed
        .iter()
        .map(|h| h.entry.logical_path.as_str())
        .collect();
    assert_eq!(paths, vec!["empty", "lib", "lib/big.bin", "small.js"]);
    for h in &hashed {
        let abs = dir.path().join(&h.entry.logical_path);
        match &h.outcome {
            HashOutcome::Hashed(digest, _) => {
                let bytes = std::fs::read(&abs).unwrap();
                assert_eq!(digest.sha256, sha256_hex(&bytes));
                assert_eq!(digest.bytes, bytes.len() as u64);
                assert_eq!(digest.head, bytes[..bytes.len().min(16)].to_vec());
            }
            HashOutcome::NotHashed => assert!(abs.is_dir()),
            other => panic!("unexpected {other:?} for {}", h.entry.logical_path),
        }
    }
}

#[test]
fn a_file_over_max_entry_bytes_is_recorded_not_fatal() {
    let dir = tree();
    let limits = Limits {
        max_entry_bytes: 1000,
        ..Limits::default()
    };
    let hashed = walk_and_hash(dir.path(), &limits, &CancelToken::new()).unwrap();
    let big = hashed
        .iter()
        .find(|h| h.entry.logical_path == "lib/big.bin")
        .unwrap();
    assert_eq!(big.outcome, HashOutcome::NotHashedLimit);
    assert!(big.entry.limitations[0].contains("max_entry_bytes 1000"));
}

#[test]
fn max_total_bytes_is_a_hard_limit() {
    let dir = tree();
    let limits = Limits {
        max_total_bytes: 100_000,
        ..Limits::default()
    };
    let err = walk_and_hash(dir.path(), &limits, &CancelToken::new()).unwrap_err();
    assert_eq!(err.reason, FailureReason::Limit);
    assert_eq!(err.details["limit"], "max_total_bytes");
}

#[test]
fn cancellation_inside_a_file_is_not_swallowed() {
    let dir = tree();
    let counter = CancelToken::counting();
    walk_and_hash(dir.path(), &Limits::default(), &counter).unwrap();
    for n in 0..counter.checks_made() {
        let err =
            walk_and_hash(dir.path(), &Limits::default(), &CancelToken::trip_after(n)).unwrap_err();
        assert_eq!(err.reason, FailureReason::Cancelled, "n = {n}");
    }
}

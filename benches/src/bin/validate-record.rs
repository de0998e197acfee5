//! Times the validate stage alone on a sealed record, for the harness and by hand:
//!
//!     validate-record ENVELOPE.json [RUNS] [THREADS]
//!
//! `ENVELOPE.json` is what `rea … --json` prints (`{"evidence":RECORD,"evidence_id":…}`); the
//! record's bytes are taken from it verbatim. Prints one JSON line: the record's size and the
//! median, minimum and maximum of RUNS validations on a pool of THREADS (default 5 and 2).

use std::time::Instant;

#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    let mut args = std::env::args().skip(1);
    let Some(path) = args.next() else {
        eprintln!("usage: validate-record ENVELOPE.json [RUNS] [THREADS]");
        std::process::exit(2);
    };
    let runs: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(5);
    let threads: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(2);
    let fail = |message: String| -> ! {
        eprintln!("validate-record: {message}");
        std::process::exit(1);
    };
    let envelope = std::fs::read(&path).unwrap_or_else(|err| fail(format!("{path}: {err}")));
    let prefix = b"{\"evidence\":";
    let marker = b",\"evidence_id\":\"ev_";
    let Some(end) = envelope
        .windows(marker.len())
        .rposition(|w| w == marker)
        .filter(|&end| envelope.starts_with(prefix) && end >= prefix.len())
    else {
        fail(format!("{path} is not an envelope written by rea --json"));
    };
    let record = envelope[prefix.len()..end].to_vec();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads.max(1))
        .stack_size(rea_core::WORKER_STACK_BYTES)
        .build()
        .unwrap_or_else(|err| fail(format!("no thread pool: {err}")));
    let mut times: Vec<f64> = (0..runs.max(1))
        .map(|_| {
            let bytes = record.clone();
            pool.install(|| {
                let start = Instant::now();
                let validated = rea_validate::validate_bytes(bytes)
                    .unwrap_or_else(|err| fail(format!("the record does not validate: {err}")));
                let seconds = start.elapsed().as_secs_f64();
                drop(validated);
                seconds
            })
        })
        .collect();
    times.sort_by(f64::total_cmp);
    println!(
        "{{\"bytes\": {}, \"runs\": {runs}, \"threads\": {threads}, \"median_ms\": {:.1}, \"min_ms\": {:.1}, \"max_ms\": {:.1}}}",
        record.len(),
        times[times.len() / 2] * 1e3,
        times[0] * 1e3,
        times[times.len() - 1] * 1e3
    );
}

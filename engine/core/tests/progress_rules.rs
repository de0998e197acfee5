//! The four progress rules, driven by a manual clock.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use rea_core::{Clock, ProgressReporter, ProgressSink, ProgressUpdate};

#[derive(Default)]
struct ManualClock(AtomicU64);

impl ManualClock {
    fn advance(&self, ms: u64) {
        self.0.fetch_add(ms, Ordering::SeqCst);
    }
}

impl Clock for ManualClock {
    fn now_ms(&self) -> u64 {
        self.0.load(Ordering::SeqCst)
    }
}

#[derive(Default)]
struct Recorder(Mutex<Vec<ProgressUpdate>>);

impl ProgressSink for Recorder {
    fn send(&self, update: &ProgressUpdate) {
        self.0.lock().unwrap().push(update.clone());
    }
}

fn setup() -> (Arc<ManualClock>, Arc<Recorder>, ProgressReporter) {
    let clock = Arc::new(ManualClock::default());
    let sink = Arc::new(Recorder::default());
    let reporter = ProgressReporter::new(sink.clone(), clock.clone());
    (clock, sink, reporter)
}

fn sent(sink: &Recorder) -> Vec<ProgressUpdate> {
    sink.0.lock().unwrap().clone()
}

#[test]
fn updates_are_monotonic_even_when_callers_go_backwards() {
    let (clock, sink, reporter) = setup();
    for completed in [5, 3, 9, 1, 9, 12, 0] {
        reporter.report("hash", completed, Some(20), "");
        clock.advance(150);
    }
    reporter.report("hash", 4, Some(10), "");
    reporter.finish("done", 2, None, "");
    let updates = sent(&sink);
    assert!(updates.len() >= 8);
    for pair in updates.windows(2) {
        assert!(pair[1].completed >= pair[0].completed, "{pair:?}");
        assert!(pair[1].seq == pair[0].seq + 1);
        let (Some(a), Some(b)) = (pair[0].total, pair[1].total) else {
            panic!("total disappeared: {pair:?}");
        };
        assert!(b >= a);
    }
    assert!(updates.iter().all(|u| u.total.unwrap() >= u.completed));
    assert_eq!(updates.last().unwrap().completed, 12);
}

#[test]
fn at_most_one_intermediate_update_per_100_ms() {
    let (clock, sink, reporter) = setup();
    // 1,000 reports, 1 ms apart: one second of wall time on the manual clock.
    for i in 0..1000 {
        reporter.report("hash", i, None, "");
        clock.advance(1);
    }
    let updates = sent(&sink);
    assert!(updates.len() <= 10, "sent {}", updates.len());
    assert!(updates.len() >= 9, "sent {}", updates.len());
    // Reconstruct send times from the completed values (completed == ms at send).
    for pair in updates.windows(2) {
        assert!(pair[1].completed - pair[0].completed >= 100, "{pair:?}");
    }
}

#[test]
fn terminal_update_is_always_sent_once_and_last() {
    let (clock, sink, reporter) = setup();
    reporter.report("hash", 1, None, "");
    // Inside the 100 ms window, but terminal.
    clock.advance(5);
    reporter.finish("done", 2, Some(2), "finished");
    clock.advance(500);
    reporter.report("hash", 3, None, "");
    reporter.finish("done", 4, None, "again");
    let updates = sent(&sink);
    assert_eq!(updates.len(), 2);
    assert!(!updates[0].terminal);
    assert!(updates[1].terminal);
    assert_eq!(updates[1].message, "finished");
    assert_eq!(updates.iter().filter(|u| u.terminal).count(), 1);
}

#[test]
fn total_is_omitted_while_unknown_and_never_invented() {
    let (clock, sink, reporter) = setup();
    reporter.report("traverse", 10, None, "");
    clock.advance(200);
    reporter.report("traverse", 20, None, "");
    clock.advance(200);
    reporter.report("hash", 20, Some(100), "");
    clock.advance(200);
    reporter.finish("done", 60, None, "cancelled");
    let updates = sent(&sink);
    assert_eq!(updates[0].total, None);
    assert_eq!(updates[1].total, None);
    assert_eq!(updates[2].total, Some(100));
    // A terminal update after a failure keeps the real count: no jump to 100%.
    assert_eq!(updates[3].completed, 60);
    assert_eq!(updates[3].total, Some(100));
}

#[test]
fn a_job_with_no_intermediate_updates_still_ends_with_a_terminal_one() {
    let (_clock, sink, reporter) = setup();
    reporter.finish("done", 0, None, "");
    let updates = sent(&sink);
    assert_eq!(updates.len(), 1);
    assert!(updates[0].terminal);
    assert_eq!(updates[0].total, None);
}

#[test]
fn a_phase_counter_counts_on_from_where_earlier_phases_left_off() {
    let (clock, sink, reporter) = setup();
    reporter.report("hash", 700, Some(1000), "");
    clock.advance(150);
    let counter = reporter.phase_counter("parse", "files parsed", 2, 30);
    counter.done(10);
    clock.advance(150);
    counter.done(20);
    let updates = sent(&sink);
    let parse: Vec<&ProgressUpdate> = updates.iter().filter(|u| u.phase == "parse").collect();
    assert_eq!(parse.len(), 2);
    // The earlier phase's total (1000) is the base: the job's position never goes back.
    assert_eq!((parse[0].completed, parse[0].total), (1010, Some(1030)));
    assert_eq!(parse[0].message, "1 of 2 files parsed");
    assert_eq!((parse[1].completed, parse[1].total), (1030, Some(1030)));
    assert_eq!(parse[1].message, "2 of 2 files parsed");
}

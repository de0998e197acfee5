//! Rate-bounded, monotonic progress reporting.
//!
//! One [`ProgressReporter`] per job feeds one [`ProgressSink`]: the CLI progress bar, MCP progress
//! notifications, or nothing. The reporter enforces four rules so that no sink has to:
//!
//! 1. `completed` never decreases, and a known `total` never drops below `completed` or disappears;
//! 2. at most one intermediate update is sent per 100 ms of the injected [`Clock`];
//! 3. the terminal update is always sent, exactly once, and nothing follows it;
//! 4. `total` stays `None` until the caller knows it; the reporter never invents one.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// Minimum gap between two intermediate updates, in milliseconds.
pub const MIN_INTERVAL_MS: u64 = 100;

/// One update as a sink receives it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProgressUpdate {
    /// Position in the sequence of updates sent to this sink, from 0.
    pub seq: u64,
    /// The job phase, such as `traverse` or `hash`.
    pub phase: String,
    pub completed: u64,
    /// `None` while the total is unknown.
    pub total: Option<u64>,
    pub message: String,
    pub terminal: bool,
}

/// Where updates go.
pub trait ProgressSink: Send + Sync {
    fn send(&self, update: &ProgressUpdate);
}

/// A source of monotonic milliseconds; tests inject a manual one.
pub trait Clock: Send + Sync {
    fn now_ms(&self) -> u64;
}

/// The real clock: milliseconds since the clock was made.
#[derive(Debug)]
pub struct SystemClock {
    start: Instant,
}

impl Default for SystemClock {
    fn default() -> SystemClock {
        SystemClock {
            start: Instant::now(),
        }
    }
}

impl Clock for SystemClock {
    fn now_ms(&self) -> u64 {
        u64::try_from(self.start.elapsed().as_millis()).unwrap_or(u64::MAX)
    }
}

struct NullSink;

impl ProgressSink for NullSink {
    fn send(&self, _update: &ProgressUpdate) {}
}

#[derive(Default)]
struct State {
    seq: u64,
    completed: u64,
    total: Option<u64>,
    /// Time of the last sent update; `None` before the first.
    last_sent_ms: Option<u64>,
    finished: bool,
}

/// See [`ProgressReporter::phase_counter`].
#[derive(Debug)]
pub struct PhaseCounter<'r> {
    reporter: &'r ProgressReporter,
    phase: &'static str,
    what: &'static str,
    base: u64,
    items: u64,
    bytes: u64,
    items_done: AtomicU64,
    bytes_done: AtomicU64,
}

impl PhaseCounter<'_> {
    /// One item of `bytes` bytes is done.
    pub fn done(&self, bytes: u64) {
        let items = self.items_done.fetch_add(1, Ordering::Relaxed) + 1;
        let done = self.bytes_done.fetch_add(bytes, Ordering::Relaxed) + bytes;
        self.reporter.report(
            self.phase,
            self.base + done,
            Some(self.base + self.bytes),
            &format!("{items} of {} {}", self.items, self.what),
        );
    }
}

/// The per-job reporter; share it by reference across threads.
pub struct ProgressReporter {
    sink: Arc<dyn ProgressSink>,
    clock: Arc<dyn Clock>,
    state: Mutex<State>,
    /// Copy of `State::last_sent_ms` (or 0) for a lock-free early out on hot paths.
    last_sent_hint: AtomicU64,
}

impl std::fmt::Debug for ProgressReporter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ProgressReporter").finish_non_exhaustive()
    }
}

impl ProgressReporter {
    pub fn new(sink: Arc<dyn ProgressSink>, clock: Arc<dyn Clock>) -> ProgressReporter {
        ProgressReporter {
            sink,
            clock,
            state: Mutex::new(State::default()),
            last_sent_hint: AtomicU64::new(0),
        }
    }

    /// A reporter that sends nothing.
    pub fn silent() -> ProgressReporter {
        ProgressReporter::new(Arc::new(NullSink), Arc::new(SystemClock::default()))
    }

    /// An intermediate update; dropped when one was sent less than 100 ms ago.
    pub fn report(&self, phase: &str, completed: u64, total: Option<u64>, message: &str) {
        let now = self.clock.now_ms();
        let hint = self.last_sent_hint.load(Ordering::Relaxed);
        if hint != 0 && now.saturating_sub(hint) < MIN_INTERVAL_MS {
            return;
        }
        let mut state = self.lock();
        if state.finished {
            return;
        }
        merge(&mut state, completed, total);
        if let Some(last) = state.last_sent_ms
            && now.saturating_sub(last) < MIN_INTERVAL_MS
        {
            return;
        }
        self.send_locked(&mut state, phase, message, false, now);
    }

    /// A counter for a phase whose `items` (of `bytes` in all) finish on any thread. It reports
    /// bytes on from where the job stands (the largest of what earlier phases reported), so a
    /// job's progress stays monotonic across phases, and names the items done in its message:
    /// `"{done} of {items} {what}"`.
    pub fn phase_counter(
        &self,
        phase: &'static str,
        what: &'static str,
        items: u64,
        bytes: u64,
    ) -> PhaseCounter<'_> {
        let base = {
            let state = self.lock();
            state.total.unwrap_or(state.completed).max(state.completed)
        };
        PhaseCounter {
            reporter: self,
            phase,
            what,
            base,
            items,
            bytes,
            items_done: AtomicU64::new(0),
            bytes_done: AtomicU64::new(0),
        }
    }

    /// The terminal update: always sent once; later calls and reports are ignored.
    pub fn finish(&self, phase: &str, completed: u64, total: Option<u64>, message: &str) {
        let now = self.clock.now_ms();
        let mut state = self.lock();
        if state.finished {
            return;
        }
        merge(&mut state, completed, total);
        state.finished = true;
        self.send_locked(&mut state, phase, message, true, now);
    }

    fn send_locked(&self, state: &mut State, phase: &str, message: &str, terminal: bool, now: u64) {
        let update = ProgressUpdate {
            seq: state.seq,
            phase: phase.to_owned(),
            completed: state.completed,
            total: state.total,
            message: message.to_owned(),
            terminal,
        };
        state.seq += 1;
        state.last_sent_ms = Some(now);
        self.last_sent_hint.store(now.max(1), Ordering::Relaxed);
        self.sink.send(&update);
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        // A panic in a sink must not disable progress for the rest of the job.
        self.state
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

fn merge(state: &mut State, completed: u64, total: Option<u64>) {
    state.completed = state.completed.max(completed);
    state.total = match (state.total, total) {
        (Some(old), Some(new)) => Some(old.max(new)),
        (old, new) => old.or(new),
    };
    if let Some(total) = state.total {
        state.total = Some(total.max(state.completed));
    }
}

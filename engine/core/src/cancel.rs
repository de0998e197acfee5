//! One cancellation token per job.
//!
//! The token is an `Arc` around an atomic state word.
//! `cancel` records the first reason and later calls change nothing.
//! A test token can trip itself after a fixed number of checks, so tests can cancel at every check point.

use std::fmt;
use std::sync::Arc;
use std::sync::atomic::{AtomicU8, AtomicU64, Ordering};

/// Why a job was asked to stop.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CancelReason {
    /// The user asked: Ctrl-C on the CLI, `notifications/cancelled` in MCP.
    User,
    /// The job ran past its deadline.
    Timeout,
    /// The process is shutting down.
    Shutdown,
}

impl CancelReason {
    /// The stable lowercase name of the reason.
    pub fn as_str(self) -> &'static str {
        match self {
            CancelReason::User => "user",
            CancelReason::Timeout => "timeout",
            CancelReason::Shutdown => "shutdown",
        }
    }

    fn to_code(self) -> u8 {
        match self {
            CancelReason::User => 1,
            CancelReason::Timeout => 2,
            CancelReason::Shutdown => 3,
        }
    }

    fn from_code(code: u8) -> Option<CancelReason> {
        match code {
            1 => Some(CancelReason::User),
            2 => Some(CancelReason::Timeout),
            3 => Some(CancelReason::Shutdown),
            _ => None,
        }
    }
}

/// The value a check returns once the token is cancelled.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("job cancelled ({})", reason.as_str())]
pub struct Cancelled {
    pub reason: CancelReason,
}

/// A shared, cheap-to-clone cancellation token.
#[derive(Clone, Default)]
pub struct CancelToken {
    inner: Arc<Inner>,
}

#[derive(Default)]
struct Inner {
    state: AtomicU8,
    /// Counted only by test tokens: a shared counter would bounce a cache line between every
    /// thread that checks.
    checks: AtomicU64,
    counting: bool,
    /// Zero means "never trip"; otherwise the token cancels itself on check number `trip_at`.
    trip_at: u64,
}

impl fmt::Debug for CancelToken {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("CancelToken")
            .field("reason", &self.reason())
            .field("checks", &self.checks_made())
            .finish()
    }
}

impl CancelToken {
    /// A token that is never cancelled until someone calls [`CancelToken::cancel`].
    pub fn new() -> CancelToken {
        CancelToken::default()
    }

    /// A test token that lets `n` checks pass and cancels itself (reason `User`) on check `n + 1`.
    pub fn trip_after(n: u64) -> CancelToken {
        CancelToken {
            inner: Arc::new(Inner {
                state: AtomicU8::new(0),
                checks: AtomicU64::new(0),
                counting: true,
                trip_at: n + 1,
            }),
        }
    }

    /// A test token that never cancels by itself but counts its checks ([`CancelToken::checks_made`]).
    pub fn counting() -> CancelToken {
        CancelToken {
            inner: Arc::new(Inner {
                state: AtomicU8::new(0),
                checks: AtomicU64::new(0),
                counting: true,
                trip_at: 0,
            }),
        }
    }

    /// Asks the job to stop; the first reason wins.
    pub fn cancel(&self, reason: CancelReason) {
        let _ = self.inner.state.compare_exchange(
            0,
            reason.to_code(),
            Ordering::SeqCst,
            Ordering::SeqCst,
        );
    }

    /// The reason, once cancelled.
    pub fn reason(&self) -> Option<CancelReason> {
        CancelReason::from_code(self.inner.state.load(Ordering::SeqCst))
    }

    /// True once cancelled. Does not count as a check.
    pub fn is_cancelled(&self) -> bool {
        self.reason().is_some()
    }

    /// The check every long loop makes: `Err(Cancelled)` once the token is cancelled.
    pub fn check(&self) -> Result<(), Cancelled> {
        if self.inner.counting {
            let n = self.inner.checks.fetch_add(1, Ordering::Relaxed) + 1;
            if self.inner.trip_at != 0 && n >= self.inner.trip_at {
                self.cancel(CancelReason::User);
            }
        }
        match self.reason() {
            Some(reason) => Err(Cancelled { reason }),
            None => Ok(()),
        }
    }

    /// How many checks a test token ([`CancelToken::counting`], [`CancelToken::trip_after`]) has
    /// seen: tests use it to enumerate every check point. Always 0 for other tokens.
    pub fn checks_made(&self) -> u64 {
        self.inner.checks.load(Ordering::Relaxed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_reason_wins_and_sticks() {
        let token = CancelToken::new();
        assert!(token.check().is_ok());
        token.cancel(CancelReason::Timeout);
        token.cancel(CancelReason::User);
        assert_eq!(
            token.check(),
            Err(Cancelled {
                reason: CancelReason::Timeout
            })
        );
        assert_eq!(token.reason(), Some(CancelReason::Timeout));
    }

    #[test]
    fn trip_after_lets_exactly_n_checks_pass() {
        for n in 0..5 {
            let token = CancelToken::trip_after(n);
            let passed = (0..10).take_while(|_| token.check().is_ok()).count() as u64;
            assert_eq!(passed, n);
            assert!(token.check().is_err(), "cancellation is sticky");
        }
    }

    #[test]
    fn clones_share_state() {
        let token = CancelToken::new();
        let clone = token.clone();
        clone.cancel(CancelReason::Shutdown);
        assert_eq!(token.reason(), Some(CancelReason::Shutdown));
    }
}

//! What to do when bytes contradict the integrity a container declares for them.

/// The integrity policy of one job.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum IntegrityPolicy {
    /// Fail the job on the first mismatch (the default: fail closed).
    #[default]
    Fail,
    /// Record each mismatch as a contradiction and go on; fail once more than `max_mismatches`
    /// were recorded.
    RecordAndContinue { max_mismatches: u32 },
}

impl IntegrityPolicy {
    /// The largest accepted `max_mismatches`.
    pub const MAX_MISMATCHES: u32 = 100;
    /// The default `max_mismatches`.
    pub const DEFAULT_MAX_MISMATCHES: u32 = 10;

    /// The wire name of the policy.
    pub fn as_str(self) -> &'static str {
        match self {
            IntegrityPolicy::Fail => "fail",
            IntegrityPolicy::RecordAndContinue { .. } => "record-and-continue",
        }
    }
}

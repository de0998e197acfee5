//! Traversal limits shared by readers, inventory and extraction.

/// Bounds on one traversal. Defaults admit real desktop applications
/// (hundreds of MB, 100k entries); the reference's defaults did not.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Limits {
    /// Most occurrences (the root excluded) before the job fails with `limit`.
    pub max_entries: u64,
    /// Most bytes hashed across all entries before the job fails with `limit`.
    pub max_total_bytes: u64,
    /// Largest single entry hashed; a larger one is recorded as `not-hashed-limit`.
    pub max_entry_bytes: u64,
    /// Largest declared uncompressed ÷ compressed ratio accepted for a compressed entry.
    pub max_compression_ratio: f64,
    /// Most path components below the root; deeper entries are recorded as a limitation.
    pub max_depth: u32,
    /// Longest logical path in UTF-8 bytes; longer ones are recorded as a limitation.
    pub max_path_bytes: u32,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            max_entries: 1_000_000,
            max_total_bytes: 64 * 1024 * 1024 * 1024,
            max_entry_bytes: 4 * 1024 * 1024 * 1024,
            max_compression_ratio: 1_000.0,
            max_depth: 64,
            max_path_bytes: 4_096,
        }
    }
}

/// A limit field whose value is out of its accepted range.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("limit {field} must be between {minimum} and {maximum}")]
pub struct LimitViolation {
    pub field: &'static str,
    pub minimum: f64,
    pub maximum: f64,
}

impl Limits {
    /// The accepted range of every field, as `(name, minimum, maximum)`.
    pub const RANGES: [(&'static str, f64, f64); 6] = [
        ("max_entries", 1.0, 10_000_000.0),
        ("max_total_bytes", 1.0, 9_007_199_254_740_991.0),
        ("max_entry_bytes", 1.0, 9_007_199_254_740_991.0),
        ("max_compression_ratio", 1.0, 100_000.0),
        ("max_depth", 0.0, 1_000.0),
        ("max_path_bytes", 1.0, 65_535.0),
    ];

    /// Checks every field against [`Limits::RANGES`].
    pub fn validate(&self) -> Result<(), LimitViolation> {
        let values = [
            self.max_entries as f64,
            self.max_total_bytes as f64,
            self.max_entry_bytes as f64,
            self.max_compression_ratio,
            f64::from(self.max_depth),
            f64::from(self.max_path_bytes),
        ];
        for ((field, minimum, maximum), value) in Limits::RANGES.iter().zip(values) {
            if !(value >= *minimum && value <= *maximum) {
                return Err(LimitViolation {
                    field,
                    minimum: *minimum,
                    maximum: *maximum,
                });
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_are_valid_and_admit_large_apps() {
        let limits = Limits::default();
        assert!(limits.validate().is_ok());
        assert!(limits.max_entries >= 100_000);
        assert!(limits.max_total_bytes >= 1024 * 1024 * 1024);
    }

    #[test]
    fn out_of_range_is_named() {
        let limits = Limits {
            max_entries: 0,
            ..Limits::default()
        };
        assert_eq!(limits.validate().unwrap_err().field, "max_entries");
        let limits = Limits {
            max_compression_ratio: f64::NAN,
            ..Limits::default()
        };
        assert_eq!(
            limits.validate().unwrap_err().field,
            "max_compression_ratio"
        );
    }
}

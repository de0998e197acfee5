//! Limit overrides as front doors take them: every field optional, each one left out keeping
//! the engine's default. The MCP tools (with `schemars`, behind the `schemars` feature), the
//! pipeline's manifests and the CLI all build their limits through these two types.

use rea_core::Limits;
use serde::Deserialize;

use crate::analyze::TextLimits;

/// Traversal limits; each one left out keeps its default, which admits real desktop
/// applications.
#[derive(Debug, Default, Clone, Copy, PartialEq, Deserialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct LimitOverrides {
    /// Most entries walked (default 1,000,000). Reaching it fails the call with `truncated`.
    pub max_entries: Option<u64>,
    /// Most bytes read in all (default 64 GiB).
    pub max_total_bytes: Option<u64>,
    /// Largest entry hashed (default 4 GiB); larger ones are listed with a limitation.
    pub max_entry_bytes: Option<u64>,
    /// Largest ZIP compression ratio accepted per member (default 1000).
    pub max_compression_ratio: Option<f64>,
    /// Deepest directory or archive nesting walked (default 64).
    pub max_depth: Option<u32>,
    /// Longest logical path, in bytes (default 4096).
    pub max_path_bytes: Option<u32>,
}

impl LimitOverrides {
    /// The defaults with these overrides applied.
    pub fn apply(&self) -> Limits {
        let d = Limits::default();
        Limits {
            max_entries: self.max_entries.unwrap_or(d.max_entries),
            max_total_bytes: self.max_total_bytes.unwrap_or(d.max_total_bytes),
            max_entry_bytes: self.max_entry_bytes.unwrap_or(d.max_entry_bytes),
            max_compression_ratio: self
                .max_compression_ratio
                .unwrap_or(d.max_compression_ratio),
            max_depth: self.max_depth.unwrap_or(d.max_depth),
            max_path_bytes: self.max_path_bytes.unwrap_or(d.max_path_bytes),
        }
    }
}

/// Text limits of the JavaScript analysis; each one left out keeps its default.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq, Deserialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct TextLimitOverrides {
    /// Most text files read (default 100,000).
    pub max_text_files: Option<u64>,
    /// Most bytes of text read in all (default 1 GiB).
    pub max_total_text_bytes: Option<u64>,
    /// Largest single text file read (default 64 MiB).
    pub max_text_file_bytes: Option<u64>,
}

impl TextLimitOverrides {
    /// The defaults with these overrides applied.
    pub fn apply(&self) -> TextLimits {
        let mut limits = TextLimits::default();
        limits.max_text_files = self.max_text_files.unwrap_or(limits.max_text_files);
        limits.max_total_text_bytes = self
            .max_total_text_bytes
            .unwrap_or(limits.max_total_text_bytes);
        limits.max_text_file_bytes = self
            .max_text_file_bytes
            .unwrap_or(limits.max_text_file_bytes);
        limits
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn absent_fields_keep_the_defaults() {
        assert_eq!(LimitOverrides::default().apply(), Limits::default());
        let some = LimitOverrides {
            max_depth: Some(3),
            ..LimitOverrides::default()
        };
        assert_eq!(some.apply().max_depth, 3);
        assert_eq!(some.apply().max_entries, Limits::default().max_entries);
        let text = TextLimitOverrides {
            max_text_files: Some(7),
            ..TextLimitOverrides::default()
        }
        .apply();
        assert_eq!(text.max_text_files, 7);
        assert_eq!(
            text.max_total_text_bytes,
            TextLimits::default().max_total_text_bytes
        );
    }
}

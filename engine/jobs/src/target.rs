//! Opening a target: what a session names before it analyses, without analysing it.
//!
//! [`open_target`] resolves the path, classifies it (directory, ASAR, ZIP family, native binary,
//! script, or plain file) and, for a file, streams its SHA-256. It reads nothing else and starts
//! nothing.

use std::path::Path;

use rea_core::{CancelToken, Failure, FailureReason};
use rea_traverse::InputKind;

/// A target as a session records it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Target {
    /// The canonical absolute path.
    pub path: String,
    /// `directory`, `asar`, `zip`, `apk`, …, `elf`, `javascript`, `file`.
    pub format: String,
    /// `artifact` (a directory), `archive`, `executable` or `file`.
    pub kind: String,
    /// Lowercase hex SHA-256 of a file; `None` for a directory (its digest is the inventory's).
    pub sha256: Option<String>,
    pub size: u64,
}

/// Resolves and classifies `path`, hashing it when it is a file.
pub fn open_target(path: &Path, cancel: &CancelToken) -> Result<Target, Failure> {
    if !path.is_absolute() {
        return Err(
            Failure::new(FailureReason::InvalidInput, "path must be absolute")
                .with_detail("path", path.to_string_lossy().into_owned()),
        );
    }
    let input = rea_traverse::resolve_input(path)?;
    if input.kind == InputKind::Directory {
        return Ok(Target {
            path: input.display,
            format: "directory".to_owned(),
            kind: "artifact".to_owned(),
            sha256: None,
            size: 0,
        });
    }
    let mut file = std::fs::File::open(&input.path).map_err(|err| {
        Failure::new(FailureReason::Io, "target could not be read")
            .with_detail("path", input.display.clone())
            .with_source(err)
    })?;
    let digest =
        rea_hash::hash_stream(&mut file, u64::MAX, &|| cancel.check(), &|_| {}).map_err(|err| {
            match err {
                rea_hash::stream::StreamError::Cancelled(cancelled) => cancelled.into(),
                other => Failure::new(FailureReason::Io, "target could not be read")
                    .with_detail("path", input.display.clone())
                    .with_source(other),
            }
        })?;
    let class = rea_graph::artifact::classify::classify_file(&input.display, &digest.head);
    let format = if class.format == "file" && rea_traverse::asar::looks_like_asar(&digest.head) {
        "asar"
    } else {
        class.format
    };
    let kind = match (class.kind, format) {
        (_, "asar") | ("container", _) => "archive",
        ("executable" | "dynamic-library" | "native-addon", _) => "executable",
        _ => "file",
    };
    Ok(Target {
        path: input.display,
        format: format.to_owned(),
        kind: kind.to_owned(),
        sha256: Some(digest.sha256),
        size: digest.bytes,
    })
}

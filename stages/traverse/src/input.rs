//! Resolving the path a user gave into something a reader can walk.

use std::fs;
use std::os::unix::fs::{FileTypeExt, MetadataExt};
use std::path::{Path, PathBuf};

use rea_core::{Failure, FailureReason};

/// What the input is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum InputKind {
    Directory,
    File,
}

/// An input path after resolution: absolute, symlinks in the path itself resolved, UTF-8.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResolvedInput {
    /// The canonical absolute path.
    pub path: PathBuf,
    /// The same path as UTF-8 text.
    pub display: String,
    pub kind: InputKind,
    pub size: u64,
    pub dev: u64,
    pub ino: u64,
}

/// Resolves `path`: it must exist, be UTF-8, and be a regular file or a directory.
///
/// Symlinks *in the input path* are followed (the user named the target); symlinks inside a
/// container never are.
pub fn resolve_input(path: &Path) -> Result<ResolvedInput, Failure> {
    let shown = path.to_string_lossy().into_owned();
    if path.to_str().is_none() {
        return Err(
            Failure::new(FailureReason::Path, "input path is not valid UTF-8")
                .with_detail("path", shown),
        );
    }
    let canonical = match fs::canonicalize(path) {
        Ok(canonical) => canonical,
        Err(err) => return Err(io_failure(&err, &shown).with_source(err)),
    };
    let Some(display) = canonical.to_str().map(str::to_owned) else {
        return Err(
            Failure::new(FailureReason::Path, "input path is not valid UTF-8")
                .with_detail("path", canonical.to_string_lossy().into_owned()),
        );
    };
    let meta = match fs::metadata(&canonical) {
        Ok(meta) => meta,
        Err(err) => return Err(io_failure(&err, &shown).with_source(err)),
    };
    let file_type = meta.file_type();
    let kind = if file_type.is_dir() {
        InputKind::Directory
    } else if file_type.is_file() {
        InputKind::File
    } else {
        let what = special_kind(&file_type);
        return Err(Failure::new(
            FailureReason::Format,
            format!("input is a {what}, not a file or directory"),
        )
        .with_detail("path", shown)
        .with_detail("file_type", what));
    };
    Ok(ResolvedInput {
        path: canonical,
        display,
        kind,
        size: meta.len(),
        dev: meta.dev(),
        ino: meta.ino(),
    })
}

/// Names a special file type.
pub(crate) fn special_kind(file_type: &fs::FileType) -> &'static str {
    if file_type.is_fifo() {
        "fifo"
    } else if file_type.is_socket() {
        "socket"
    } else if file_type.is_block_device() {
        "block device"
    } else if file_type.is_char_device() {
        "character device"
    } else {
        "special file"
    }
}

fn io_failure(err: &std::io::Error, shown: &str) -> Failure {
    let (reason, message) = match err.kind() {
        std::io::ErrorKind::NotFound => (FailureReason::Path, "input path does not exist"),
        std::io::ErrorKind::PermissionDenied => (FailureReason::Io, "input path is not readable"),
        _ if err.raw_os_error() == Some(libc::ELOOP) => {
            (FailureReason::Path, "input path is a symlink loop")
        }
        _ => (FailureReason::Io, "input path could not be resolved"),
    };
    Failure::new(reason, message).with_detail("path", shown)
}

/// A cheap guess of how many entries the file at `path` holds, read from its index alone,
/// for scheduling (per-entry work dominates the cost of archives of many small files): an
/// ASAR's header length over an average of 128 header bytes per entry, or a zip's central
/// directory count. 0 for anything else or anything unreadable; never an error.
pub fn entry_estimate(path: &Path) -> u64 {
    use std::io::Read;
    let Ok(mut file) = fs::File::open(path) else {
        return 0;
    };
    let mut head = [0u8; 17];
    if file.read_exact(&mut head).is_err() {
        return 0;
    }
    if crate::asar::looks_like_asar(&head) {
        let json_len = u32::from_le_bytes([head[12], head[13], head[14], head[15]]);
        return u64::from(json_len) / 128;
    }
    if crate::zip::looks_like_zip(&head) {
        return ::zip::ZipArchive::new(file).map_or(0, |archive| archive.len() as u64);
    }
    0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn missing_path_is_a_path_failure() {
        let err = resolve_input(Path::new("/definitely/not/here")).unwrap_err();
        assert_eq!(err.reason, FailureReason::Path);
        assert_eq!(err.message, "input path does not exist");
    }

    #[test]
    fn character_device_is_rejected_without_opening() {
        let err = resolve_input(Path::new("/dev/null")).unwrap_err();
        assert_eq!(err.reason, FailureReason::Format);
        assert_eq!(err.details["file_type"], "character device");
    }

    #[test]
    fn symlink_loop_is_named() {
        let dir = tempfile::tempdir().unwrap();
        std::os::unix::fs::symlink(dir.path().join("b"), dir.path().join("a")).unwrap();
        std::os::unix::fs::symlink(dir.path().join("a"), dir.path().join("b")).unwrap();
        let err = resolve_input(&dir.path().join("a")).unwrap_err();
        assert_eq!(err.reason, FailureReason::Path);
        assert_eq!(err.message, "input path is a symlink loop");
    }
}

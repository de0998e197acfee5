//! Publishing bytes to a file: all of them, atomically, or nothing.
//!
//! The bytes go to a temporary file beside the destination, which is renamed over the
//! destination only once every byte is written and synced. Until then the temporary file sits
//! behind a guard that deletes it on drop, so cancellation or failure leaves nothing behind.

use std::io::Write;
use std::path::Path;

use rea_core::{CHUNK_BYTES, CancelToken, Failure, FailureReason};

/// Writes `bytes` to `dest`, checking `cancel` before every 64 KiB chunk and before the rename.
pub fn write_file_atomically(
    cancel: &CancelToken,
    dest: &Path,
    bytes: &[u8],
) -> Result<(), Failure> {
    write_parts_atomically(cancel, dest, &[bytes])
}

/// [`write_file_atomically`] of `parts` joined, without joining them in memory.
pub fn write_parts_atomically(
    cancel: &CancelToken,
    dest: &Path,
    parts: &[&[u8]],
) -> Result<(), Failure> {
    cancel.check()?;
    let shown = dest.to_string_lossy().into_owned();
    let parent = match dest.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    };
    if dest.is_dir() {
        return Err(
            Failure::new(FailureReason::Path, "output path is a directory")
                .with_detail("path", shown),
        );
    }
    let mut staged = tempfile::Builder::new()
        .prefix(".rea-partial-")
        .tempfile_in(parent)
        .map_err(|err| {
            Failure::new(FailureReason::Path, "output directory is not writable")
                .with_detail("path", shown.clone())
                .with_source(err)
        })?;
    for chunk in parts.iter().flat_map(|part| part.chunks(CHUNK_BYTES)) {
        cancel.check()?;
        staged
            .write_all(chunk)
            .map_err(|err| write_failure(&shown, err))?;
    }
    staged
        .as_file()
        .sync_all()
        .map_err(|err| write_failure(&shown, err))?;
    cancel.check()?;
    staged
        .persist(dest)
        .map_err(|err| write_failure(&shown, err.error))?;
    Ok(())
}

fn write_failure(shown: &str, err: std::io::Error) -> Failure {
    Failure::new(FailureReason::Io, "output file could not be written")
        .with_detail("path", shown.to_owned())
        .with_source(err)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn listing(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    #[test]
    fn writes_everything_or_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let dest = dir.path().join("out.json");
        let bytes = vec![b'x'; 3 * CHUNK_BYTES + 1];
        let counter = CancelToken::counting();
        write_file_atomically(&counter, &dest, &bytes).unwrap();
        assert_eq!(std::fs::read(&dest).unwrap(), bytes);
        std::fs::remove_file(&dest).unwrap();
        for n in 0..counter.checks_made() {
            let err =
                write_file_atomically(&CancelToken::trip_after(n), &dest, &bytes).unwrap_err();
            assert_eq!(err.reason, FailureReason::Cancelled);
            assert!(
                listing(dir.path()).is_empty(),
                "n = {n}: {:?}",
                listing(dir.path())
            );
        }
    }

    #[test]
    fn a_directory_destination_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let err = write_file_atomically(&CancelToken::new(), dir.path(), b"{}").unwrap_err();
        assert_eq!(err.reason, FailureReason::Path);
    }
}

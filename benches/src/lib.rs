//! Shared set-up for REA's benches: synthetic trees whose shape mimics a shipped application.
//! The benches themselves are in `benches/benches/`; `cargo bench -p rea-benches` runs them.

use std::path::Path;

/// Writes `files` files of `size` bytes each, spread over `dirs` directories, with varied
/// contents so that every file is a distinct node.
pub fn synthetic_tree(root: &Path, dirs: usize, files: usize, size: usize) -> std::io::Result<u64> {
    let mut total = 0;
    for d in 0..dirs {
        std::fs::create_dir_all(root.join(format!("node_modules/pkg{d}/lib")))?;
    }
    for f in 0..files {
        let dir = root.join(format!("node_modules/pkg{}/lib", f % dirs.max(1)));
        let mut bytes = vec![0u8; size];
        for (i, b) in bytes.iter_mut().enumerate() {
            *b = (i as u64)
                .wrapping_mul(2_654_435_761)
                .wrapping_add(f as u64) as u8;
        }
        std::fs::write(dir.join(format!("file{f}.js")), &bytes)?;
        total += size as u64;
    }
    Ok(total)
}

//! Streaming SHA-256 with a cancellation check per 64 KiB chunk.

use std::io::Read;

use rea_core::{CHUNK_BYTES, Cancelled};
use sha2::{Digest, Sha256};

/// What streaming a reader produced.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StreamDigest {
    /// Lowercase hex SHA-256.
    pub sha256: String,
    pub bytes: u64,
    /// The first (up to) 16 bytes, for format sniffing.
    pub head: Vec<u8>,
    /// Lowercase hex SHA-256 of each `block_size` block, when blocks were asked for.
    pub blocks: Vec<String>,
}

/// Why streaming stopped early.
#[derive(Debug, thiserror::Error)]
pub enum StreamError {
    #[error(transparent)]
    Cancelled(#[from] Cancelled),
    #[error("read failed")]
    Io(#[source] std::io::Error),
    #[error("more than {cap} bytes")]
    OverCap { cap: u64 },
}

/// Hashes everything `reader` yields, up to `cap` bytes.
///
/// `check` runs before every chunk; `on_chunk` runs after it with the chunk's length.
pub fn hash_stream(
    reader: &mut dyn Read,
    cap: u64,
    check: &dyn Fn() -> Result<(), Cancelled>,
    on_chunk: &dyn Fn(u64),
) -> Result<StreamDigest, StreamError> {
    hash_stream_blocks(reader, cap, None, check, on_chunk)
}

/// [`hash_stream`], plus the digest of every `block_size` block (the last may be shorter).
pub fn hash_stream_blocks(
    reader: &mut dyn Read,
    cap: u64,
    block_size: Option<u64>,
    check: &dyn Fn() -> Result<(), Cancelled>,
    on_chunk: &dyn Fn(u64),
) -> Result<StreamDigest, StreamError> {
    CHUNK.with_borrow_mut(|buf| {
        if buf.len() != CHUNK_BYTES {
            buf.resize(CHUNK_BYTES, 0);
        }
        hash_with_buffer(reader, cap, block_size, check, on_chunk, buf)
    })
}

thread_local! {
    /// One reusable chunk buffer per thread: most entries are a few KiB, and zeroing a fresh
    /// 64 KiB buffer for each of them cost more than hashing them.
    static CHUNK: std::cell::RefCell<Vec<u8>> = const { std::cell::RefCell::new(Vec::new()) };
}

fn hash_with_buffer(
    reader: &mut dyn Read,
    cap: u64,
    block_size: Option<u64>,
    check: &dyn Fn() -> Result<(), Cancelled>,
    on_chunk: &dyn Fn(u64),
    buf: &mut [u8],
) -> Result<StreamDigest, StreamError> {
    let mut hasher = Hashers::new(block_size);
    let mut bytes: u64 = 0;
    let mut head = Vec::new();
    loop {
        check()?;
        let n = match read_chunk(reader, buf) {
            Ok(0) => break,
            Ok(n) => n,
            Err(err) => return Err(StreamError::Io(err)),
        };
        bytes += n as u64;
        if bytes > cap {
            return Err(StreamError::OverCap { cap });
        }
        if head.len() < 16 {
            let take = (16 - head.len()).min(n);
            head.extend_from_slice(&buf[..take]);
        }
        hasher.update(&buf[..n]);
        on_chunk(n as u64);
    }
    let (sha256, blocks) = hasher.finish();
    Ok(StreamDigest {
        sha256,
        bytes,
        head,
        blocks,
    })
}

/// The whole input's digest, and optionally the digest of each fixed-size block.
///
/// The first block's digest is the whole hasher's state at the block boundary, finalized on a
/// copy: an input of at most one block (nearly every file an ASAR declares blocks for; the
/// default block is 4 MiB) is hashed once, not twice. Later blocks have a hasher of their own.
struct Hashers {
    whole: Sha256,
    /// Zero when no blocks were asked for.
    block_size: u64,
    total: u64,
    /// The block after the first one that is being filled.
    later: Sha256,
    done: Vec<String>,
}

impl Hashers {
    fn new(block_size: Option<u64>) -> Hashers {
        Hashers {
            whole: Sha256::new(),
            block_size: block_size.unwrap_or(0),
            total: 0,
            later: Sha256::new(),
            done: Vec::new(),
        }
    }

    fn update(&mut self, mut data: &[u8]) {
        if self.block_size == 0 {
            self.whole.update(data);
            self.total += data.len() as u64;
            return;
        }
        while !data.is_empty() {
            let filled = self.total % self.block_size;
            let room = (self.block_size - filled).min(data.len() as u64) as usize;
            let (part, rest) = data.split_at(room);
            self.whole.update(part);
            if self.total >= self.block_size {
                self.later.update(part);
            }
            self.total += room as u64;
            if self.total.is_multiple_of(self.block_size) {
                let digest = if self.total == self.block_size {
                    self.whole.clone().finalize()
                } else {
                    std::mem::replace(&mut self.later, Sha256::new()).finalize()
                };
                self.done.push(crate::canonical::hex_digest(digest));
            }
            data = rest;
        }
    }

    /// The whole digest and the block digests; an empty input has one block, the digest of
    /// nothing, as `@electron/asar` writes it.
    fn finish(mut self) -> (String, Vec<String>) {
        let whole = crate::canonical::hex_digest(self.whole.finalize());
        if self.block_size == 0 {
            return (whole, Vec::new());
        }
        if self.total == 0 || !self.total.is_multiple_of(self.block_size) {
            if self.total < self.block_size {
                self.done.push(whole.clone());
            } else {
                self.done
                    .push(crate::canonical::hex_digest(self.later.finalize()));
            }
        }
        (whole, self.done)
    }
}

/// Fills `buf` as far as the reader allows, so that chunks are full 64 KiB except the last.
fn read_chunk(reader: &mut dyn Read, buf: &mut [u8]) -> std::io::Result<usize> {
    let mut filled = 0;
    while filled < buf.len() {
        match reader.read(&mut buf[filled..]) {
            Ok(0) => break,
            Ok(n) => filled += n,
            Err(err) if err.kind() == std::io::ErrorKind::Interrupted => {}
            Err(err) => return Err(err),
        }
    }
    Ok(filled)
}

#[cfg(test)]
mod tests {
    use std::cell::Cell;

    use super::*;

    #[test]
    fn chunks_are_64_kib_and_each_is_checked() {
        let data = vec![7u8; 3 * CHUNK_BYTES + 5];
        let checks = Cell::new(0);
        let chunks = std::sync::Mutex::new(Vec::new());
        let digest = hash_stream(
            &mut data.as_slice(),
            u64::MAX,
            &|| {
                checks.set(checks.get() + 1);
                Ok(())
            },
            &|n| chunks.lock().unwrap().push(n),
        )
        .unwrap();
        assert_eq!(digest.bytes, data.len() as u64);
        assert_eq!(digest.sha256, crate::sha256_hex(&data));
        assert_eq!(digest.head, vec![7u8; 16]);
        let chunk = CHUNK_BYTES as u64;
        assert_eq!(*chunks.lock().unwrap(), vec![chunk, chunk, chunk, 5]);
        // One check per chunk plus the one that sees end of input.
        assert_eq!(checks.get(), 5);
    }

    #[test]
    fn blocks_split_at_block_size_whatever_the_chunking() {
        let data: Vec<u8> = (0..(2 * CHUNK_BYTES + 10)).map(|i| i as u8).collect();
        let block = 50_000u64;
        let digest = hash_stream_blocks(
            &mut data.as_slice(),
            u64::MAX,
            Some(block),
            &|| Ok(()),
            &|_| {},
        )
        .unwrap();
        let expected: Vec<String> = data.chunks(block as usize).map(crate::sha256_hex).collect();
        assert_eq!(digest.blocks, expected);
        let empty =
            hash_stream_blocks(&mut [].as_slice(), 1, Some(block), &|| Ok(()), &|_| {}).unwrap();
        assert_eq!(empty.blocks, vec![crate::sha256_hex(b"")]);
        // One block or less, exact multiples, and one byte past a multiple.
        for len in [1, 49_999, 50_000, 50_001, 100_000, 100_001] {
            let data = &data[..len];
            let digest =
                hash_stream_blocks(&mut &data[..], u64::MAX, Some(block), &|| Ok(()), &|_| {})
                    .unwrap();
            let expected: Vec<String> =
                data.chunks(block as usize).map(crate::sha256_hex).collect();
            assert_eq!(digest.blocks, expected, "{len} bytes");
            assert_eq!(digest.sha256, crate::sha256_hex(data), "{len} bytes");
        }
    }

    #[test]
    fn over_cap_stops() {
        let data = vec![0u8; 100];
        let err = hash_stream(&mut data.as_slice(), 99, &|| Ok(()), &|_| {}).unwrap_err();
        assert!(matches!(err, StreamError::OverCap { cap: 99 }));
    }
}

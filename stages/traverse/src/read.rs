//! Reading an entry's bytes in place: a byte range of an open container file, inflated when it
//! is a deflated ZIP member, with the CRC-32 of what passes through. The hash stage reads every
//! entry this way; the walk reads a nested archive's compressed member this way to expand it.

use std::fs::File;
use std::io::Read;
use std::os::unix::fs::FileExt;

use crate::entry::{ArchiveFile, ZipMethod};

/// Reads `pos..end` of `file` with positioned reads (the file's cursor is never moved, so any
/// number of readers share one open file).
pub struct RangeReader<'a> {
    pub file: &'a File,
    pub pos: u64,
    pub end: u64,
}

impl Read for RangeReader<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let want = (self.end.saturating_sub(self.pos)).min(buf.len() as u64) as usize;
        if want == 0 {
            return Ok(0);
        }
        let n = self.file.read_at(&mut buf[..want], self.pos)?;
        if n == 0 {
            return Err(std::io::Error::new(
                std::io::ErrorKind::UnexpectedEof,
                "archive ended inside an entry",
            ));
        }
        self.pos += n as u64;
        Ok(n)
    }
}

/// The bytes of the ZIP member at `offset` (`compressed_len` bytes of `archive`), inflated
/// when it is deflated.
pub fn zip_member(
    archive: &ArchiveFile,
    offset: u64,
    compressed_len: u64,
    method: ZipMethod,
) -> Box<dyn Read + '_> {
    let raw = RangeReader {
        file: &archive.file,
        pos: offset,
        end: offset + compressed_len,
    };
    match method {
        ZipMethod::Stored => Box::new(raw),
        ZipMethod::Deflated => Box::new(flate2::read::DeflateDecoder::new(
            std::io::BufReader::with_capacity(64 * 1024, raw),
        )),
    }
}

/// Computes the CRC-32 of what passes through.
pub struct CrcReader<R> {
    pub inner: R,
    pub crc: crc32fast::Hasher,
}

impl<R: Read> CrcReader<R> {
    pub fn new(inner: R) -> CrcReader<R> {
        CrcReader {
            inner,
            crc: crc32fast::Hasher::new(),
        }
    }
}

impl<R: Read> Read for CrcReader<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.crc.update(&buf[..n]);
        Ok(n)
    }
}

/// A byte range of an open file, read as a file of its own: random access for formats read a
/// few structures at a time (a PE's resource table, a tar's headers, a ZIP's central directory)
/// rather than streamed. It holds the shared file, so readers that own theirs can have one.
pub struct SeekRange {
    file: std::sync::Arc<File>,
    start: u64,
    len: u64,
    pos: u64,
}

impl SeekRange {
    pub fn new(file: std::sync::Arc<File>, start: u64, len: u64) -> SeekRange {
        SeekRange {
            file,
            start,
            len,
            pos: 0,
        }
    }
}

impl Read for SeekRange {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let want = self.len.saturating_sub(self.pos).min(buf.len() as u64) as usize;
        if want == 0 {
            return Ok(0);
        }
        let n = self.file.read_at(&mut buf[..want], self.start + self.pos)?;
        self.pos += n as u64;
        Ok(n)
    }
}

impl std::io::Seek for SeekRange {
    fn seek(&mut self, to: std::io::SeekFrom) -> std::io::Result<u64> {
        let target = match to {
            std::io::SeekFrom::Start(at) => Some(at),
            std::io::SeekFrom::End(delta) => self.len.checked_add_signed(delta),
            std::io::SeekFrom::Current(delta) => self.pos.checked_add_signed(delta),
        };
        match target {
            Some(at) => {
                self.pos = at;
                Ok(at)
            }
            None => Err(std::io::Error::new(
                std::io::ErrorKind::InvalidInput,
                "seek before the start of the range",
            )),
        }
    }
}

//! SquashFS images: Linux AppImages (an ELF runtime with the image appended), snaps, and bare
//! `.squashfs` files. electron-builder's default Linux target is an AppImage, and the Snap
//! Store ships snaps: both hold `resources/app.asar` and the Electron binary beside it.
//!
//! The image's tables (superblock, inodes, directories, fragments) are read with the
//! `backhand` crate. Each file is then an entry whose bytes are read in place, block by block,
//! where its inode says they lie: a block stored compressed is decompressed with `backhand`'s
//! own codecs (gzip, xz, zstd, lz4), a hole is zeros, and the file's tail comes out of its
//! fragment block. Nothing is extracted to disk, and the hash stage reads files in parallel
//! like any other entries.
//!
//! Where an AppImage's image starts is where its runtime says it does: the end of the ELF
//! section header table (what the AppImage runtime itself computes to mount it).

use std::collections::BTreeMap;
use std::io::Read;
use std::os::unix::fs::FileExt;
use std::sync::Arc;

use backhand::compression::{CompressionAction, Compressor, DefaultCompressor};
use backhand::{DataSize, FilesystemReader, InnerNode, SquashfsFileReader};
use rea_core::{Failure, Limits};
use rea_exec::StageCx;

use crate::entry::{ArchiveFile, ArchiveRange, Entry, EntryKind, EntrySource};
use crate::nested::Walk;
use crate::read::SeekRange;

/// SquashFS magic, `hsqs`, at the image's first byte.
const MAGIC: &[u8; 4] = b"hsqs";

/// A file's `frag_index` when its tail is not in a fragment.
const NO_FRAGMENT: u32 = u32::MAX;

/// Names of SquashFS images, by extension (lower case).
const SQUASHFS_NAMES: [&str; 6] = [".appimage", ".snap", ".squashfs", ".sqfs", ".sqsh", ".sfs"];

/// True when `name` is named like a SquashFS image or an AppImage.
pub fn is_squashfs_name(name: &str) -> bool {
    SQUASHFS_NAMES
        .iter()
        .any(|ext| crate::path::has_suffix(name, ext))
}

/// True when `head` starts a bare SquashFS image.
pub fn looks_like_squashfs(head: &[u8]) -> bool {
    head.starts_with(MAGIC)
}

/// Where one file's bytes lie in an image.
#[derive(Debug, PartialEq, Eq)]
pub struct SquashfsFile {
    /// The listing of the image this file is in, unique in the process: what its fragment
    /// blocks are cached by.
    pub image_id: u64,
    /// Where the image starts in the archive file.
    pub image: u64,
    pub compressor: Compressor,
    pub block_size: u32,
    /// The first data block, from the image's start.
    pub blocks_start: u64,
    /// Each full block's stored size, with the uncompressed flag; 0 is a hole.
    pub blocks: Vec<DataSize>,
    /// The file's tail, when it lies in a fragment block.
    pub tail: Option<Tail>,
    pub size: u64,
}

/// A file's tail in a fragment block.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Tail {
    /// The fragment block, from the image's start, and its stored size.
    pub start: u64,
    pub stored: DataSize,
    /// Where the tail starts in the decompressed fragment block.
    pub offset: u32,
}

/// Sends every file, directory and symlink of the image below `prefix` (`""` at the root),
/// then expands the archives it holds. An image that cannot be read fails with reason
/// `format` (nested: the container's note).
pub fn walk(walk: &mut Walk<'_, '_>, source: &ArchiveRange, prefix: &str) -> Result<(), Failure> {
    let listed = list(walk, source, prefix)?;
    crate::nested::send_listing(walk, listed, prefix)
}

/// Where the image starts in `source`: 0 for a bare image, the end of the runtime's section
/// header table for an AppImage (type 2).
fn image_offset(source: &ArchiveRange) -> Result<u64, String> {
    let mut head = [0u8; 64];
    let read = source
        .archive
        .file
        .read_at(&mut head, source.base)
        .map_err(|err| format!("its first bytes could not be read: {err}"))?;
    let head = &head[..read.min(source.len as usize)];
    if looks_like_squashfs(head) {
        return Ok(0);
    }
    if !head.starts_with(b"\x7fELF") {
        return Err("it is neither a SquashFS image nor an ELF file (an AppImage)".to_owned());
    }
    let end = elf_end(head).ok_or("its ELF header could not be read")?;
    if head.get(8..11) == Some(b"AI\x01".as_slice()) {
        return Err("a type 1 AppImage (an ISO 9660 image), which is not read".to_owned());
    }
    let mut magic = [0u8; 4];
    let found = end
        .checked_add(4)
        .filter(|&stop| stop <= source.len)
        .and_then(|_| {
            source
                .archive
                .file
                .read_at(&mut magic, source.base + end)
                .ok()
        });
    if found == Some(4) && looks_like_squashfs(&magic) {
        Ok(end)
    } else {
        Err(format!(
            "no SquashFS image follows the ELF runtime (expected at byte {end})"
        ))
    }
}

/// The end of an ELF file's section header table: where an AppImage runtime's own bytes end.
fn elf_end(head: &[u8]) -> Option<u64> {
    use object::read::elf::FileHeader;
    fn end<H: FileHeader>(head: &[u8]) -> Option<u64> {
        let header = H::parse(head).ok()?;
        let endian = header.endian().ok()?;
        let table = u64::from(header.e_shnum(endian)) * u64::from(header.e_shentsize(endian));
        header.e_shoff(endian).into().checked_add(table)
    }
    match head.get(4)? {
        1 => end::<object::elf::FileHeader32<object::Endianness>>(head),
        2 => end::<object::elf::FileHeader64<object::Endianness>>(head),
        _ => None,
    }
}

/// A member path as a logical path below `prefix`, or why it was skipped; `Ok(None)` for the
/// image's root.
fn logical(
    prefix: &str,
    path: &std::path::Path,
    limits: &Limits,
) -> Result<Option<String>, String> {
    let Some(name) = path.to_str() else {
        return Err(format!(
            "{} was skipped: its name is not valid UTF-8",
            path.to_string_lossy()
        ));
    };
    let inner = name.trim_start_matches('/');
    if inner.is_empty() {
        return Ok(None);
    }
    crate::zip::member_path(prefix, inner, limits).map(Some)
}

fn list(
    walk: &mut Walk<'_, '_>,
    source: &ArchiveRange,
    prefix: &str,
) -> Result<BTreeMap<String, Entry>, Failure> {
    let (cx, limits, notes) = (walk.cx, walk.limits, &mut walk.notes);
    let offset =
        image_offset(source).map_err(|problem| source.unreadable("SquashFS image", problem))?;
    let reader = std::io::BufReader::with_capacity(
        1 << 16,
        SeekRange::new(source.archive.file.clone(), source.base, source.len),
    );
    // `backhand` reads untrusted tables: a panic in it is this image's problem, not the run's.
    let read = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        FilesystemReader::from_reader_with_offset(reader, offset)
    }));
    let image = match read {
        Ok(Ok(image)) => image,
        Ok(Err(err)) => return Err(source.unreadable("SquashFS image", err)),
        Err(_) => return Err(source.unreadable("SquashFS image", "its tables are malformed")),
    };
    let fragments = image.fragments.as_deref().unwrap_or_default();
    let image_id = NEXT_IMAGE.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let mut members: BTreeMap<String, Entry> = BTreeMap::new();
    for node in image.files() {
        cx.check()?;
        let logical_path = match logical(prefix, &node.fullpath, limits) {
            Ok(Some(path)) => path,
            Ok(None) => continue,
            Err(note) => {
                notes.skip(prefix, note);
                continue;
            }
        };
        let mut item = Entry::bare(logical_path, EntryKind::File);
        match &node.inner {
            InnerNode::Dir(_) => item.kind = EntryKind::Directory,
            InnerNode::Symlink(link) => {
                item.kind = EntryKind::Symlink;
                item.link_target = Some(link.link.to_string_lossy().into_owned());
            }
            InnerNode::File(file) => {
                item.executable = node.header.permissions & 0o111 != 0;
                item.declared_size = Some(file.file_len() as u64);
                match locate(&image, fragments, file, (image_id, source.base + offset)) {
                    Ok(located) => {
                        item.source = EntrySource::Squashfs {
                            archive: source.archive.clone(),
                            file: Arc::new(located),
                        }
                    }
                    Err(problem) => item.limitations.push(problem),
                }
            }
            InnerNode::CharacterDevice(_)
            | InnerNode::BlockDevice(_)
            | InnerNode::NamedPipe
            | InnerNode::Socket => {
                notes.skip(
                    prefix,
                    format!("{} was skipped: a special file", item.logical_path),
                );
                continue;
            }
        }
        crate::nested::keep_last(&mut members, item, prefix, notes);
    }
    Ok(members)
}

/// Where a file's bytes lie, or why they cannot be located.
fn locate(
    image: &FilesystemReader<'_>,
    fragments: &[backhand::Fragment],
    file: &SquashfsFileReader,
    (image_id, at): (u64, u64),
) -> Result<SquashfsFile, String> {
    let (blocks_start, block_offset) = match file {
        SquashfsFileReader::Basic(basic) => (u64::from(basic.blocks_start), basic.block_offset),
        SquashfsFileReader::Extended(extended) => (extended.blocks_start, extended.block_offset),
    };
    let tail = match file.frag_index() as u32 {
        NO_FRAGMENT => None,
        index => {
            let fragment = fragments.get(index as usize).ok_or_else(|| {
                format!("its tail lies in fragment {index}, which the image does not have")
            })?;
            Some(Tail {
                start: fragment.start,
                stored: fragment.size,
                offset: block_offset,
            })
        }
    };
    let compressor = image
        .compressor
        .ok_or("its image names no compressor")?
        .into();
    Ok(SquashfsFile {
        image_id,
        image: at,
        compressor,
        block_size: image.block_size,
        blocks_start,
        blocks: file.block_sizes().to_vec(),
        tail,
        size: file.file_len() as u64,
    })
}

/// A file of an image that holds an archive (the `app.asar` of an AppImage), decompressed into
/// an anonymous in-memory file of at most `max_entry_bytes` and
/// [`crate::nested::MAX_INFLATED_ARCHIVE`] bytes, to be read in place; or the note that says
/// why it was not.
pub(crate) fn into_memory(
    cx: &StageCx<'_>,
    archive: &ArchiveFile,
    file: &SquashfsFile,
    limits: &Limits,
) -> Result<Result<(ArchiveFile, u64, u64), String>, Failure> {
    let bound = limits
        .max_entry_bytes
        .min(crate::nested::MAX_INFLATED_ARCHIVE);
    if file.size > bound {
        return Ok(Err(format!(
            "not expanded: the archive is {} bytes compressed in its image, over the {bound} bytes it may take in memory",
            file.size
        )));
    }
    let too_much = "not expanded: the file decompresses to more than its declared size";
    let located = crate::nested::into_memory(
        cx,
        FileReader::new(archive, file),
        file.size,
        "the file in the image",
        too_much,
    )?;
    Ok(located.map(|(memory, len)| {
        let archive = ArchiveFile {
            path: archive.path.clone(),
            file: memory,
        };
        (archive, 0, len)
    }))
}

/// Numbers each listing of an image, for [`SquashfsFile::image_id`].
static NEXT_IMAGE: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// How many decompressed fragment blocks a thread keeps.
const CACHED_FRAGMENTS: usize = 8;

/// A fragment block, decompressed: by image and place in it.
type CachedFragment = ((u64, u64), Arc<Vec<u8>>);

thread_local! {
    /// The fragment blocks this thread decompressed last. The small files of a directory share
    /// fragment blocks (mksquashfs packs their tails together), and each file would otherwise
    /// decompress a whole block again for its few bytes: on the large ASAR's tree as an image
    /// (56,100 entries), the hash stage took 2.4–2.8 s that way and takes 0.41–0.43 s now.
    static FRAGMENTS: std::cell::RefCell<std::collections::VecDeque<CachedFragment>> =
        const { std::cell::RefCell::new(std::collections::VecDeque::new()) };
}

/// Reads a file of an image: its blocks in order, then its tail.
pub struct FileReader<'a> {
    archive: &'a ArchiveFile,
    file: &'a SquashfsFile,
    /// The next block to read, and where its stored bytes start (from the image's start).
    next: usize,
    stored_at: u64,
    tail_done: bool,
    /// Bytes of the file not yet returned.
    remaining: u64,
    block: Vec<u8>,
    stored: Vec<u8>,
    pos: usize,
}

impl<'a> FileReader<'a> {
    pub fn new(archive: &'a ArchiveFile, file: &'a SquashfsFile) -> FileReader<'a> {
        FileReader {
            archive,
            file,
            next: 0,
            stored_at: file.blocks_start,
            tail_done: file.tail.is_none(),
            remaining: file.size,
            block: Vec::new(),
            stored: Vec::new(),
            pos: 0,
        }
    }

    /// Reads and decompresses the stored bytes at `at` (from the image's start) into
    /// `self.block`, which must then hold `expect` bytes, or a hole of that many zeros.
    fn load(&mut self, at: u64, stored: DataSize, expect: usize) -> std::io::Result<()> {
        let invalid = |what: String| std::io::Error::new(std::io::ErrorKind::InvalidData, what);
        self.block.clear();
        self.pos = 0;
        let size = stored.size() as usize;
        if size == 0 {
            self.block.resize(expect, 0);
            return Ok(());
        }
        let block_size = self.file.block_size as usize;
        if size > block_size {
            return Err(invalid(format!(
                "a block is stored in {size} bytes, more than the image's block size"
            )));
        }
        self.stored.resize(size, 0);
        let from = self
            .file
            .image
            .checked_add(at)
            .ok_or_else(|| invalid("a block lies past the end of the file".to_owned()))?;
        self.archive.file.read_exact_at(&mut self.stored, from)?;
        if stored.uncompressed() {
            self.block.extend_from_slice(&self.stored);
        } else {
            self.block.reserve(block_size);
            DefaultCompressor
                .decompress(&self.stored, &mut self.block, self.file.compressor)
                .map_err(|err| invalid(format!("a block does not decompress: {err}")))?;
        }
        if self.block.len() < expect {
            return Err(invalid(format!(
                "a block decompresses to {} bytes, fewer than the {expect} the file needs",
                self.block.len()
            )));
        }
        Ok(())
    }

    /// The fragment block `tail` lies in, decompressed, from this thread's cache or the image.
    fn fragment(&mut self, tail: Tail) -> std::io::Result<Arc<Vec<u8>>> {
        let key = (self.file.image_id, tail.start);
        let cached = FRAGMENTS.with(|cache| {
            cache
                .borrow()
                .iter()
                .find(|(at, _)| *at == key)
                .map(|(_, block)| Arc::clone(block))
        });
        if let Some(block) = cached {
            return Ok(block);
        }
        self.load(tail.start, tail.stored, 0)?;
        let block = Arc::new(std::mem::take(&mut self.block));
        FRAGMENTS.with(|cache| {
            let mut cache = cache.borrow_mut();
            if cache.len() == CACHED_FRAGMENTS {
                cache.pop_front();
            }
            cache.push_back((key, Arc::clone(&block)));
        });
        Ok(block)
    }

    /// Loads the next stretch of the file into `self.block[self.pos..]`; false at the end.
    fn fill(&mut self) -> std::io::Result<bool> {
        let block_size = u64::from(self.file.block_size);
        if let Some(&stored) = self.file.blocks.get(self.next) {
            let expect = self.remaining.min(block_size) as usize;
            self.load(self.stored_at, stored, expect)?;
            self.block.truncate(expect);
            self.next += 1;
            self.stored_at += u64::from(stored.size());
            return Ok(true);
        }
        if !self.tail_done {
            self.tail_done = true;
            let Some(tail) = self.file.tail else {
                return Ok(false);
            };
            let expect = self.remaining as usize;
            let offset = tail.offset as usize;
            if offset.saturating_add(expect) > self.file.block_size as usize {
                return Err(std::io::Error::new(
                    std::io::ErrorKind::InvalidData,
                    "the file's tail does not fit in a fragment block",
                ));
            }
            let fragment = self.fragment(tail)?;
            let Some(bytes) = fragment.get(offset..offset + expect) else {
                return Err(std::io::Error::new(
                    std::io::ErrorKind::InvalidData,
                    format!(
                        "a fragment block decompresses to {} bytes, fewer than the file's tail needs",
                        fragment.len()
                    ),
                ));
            };
            self.block.clear();
            self.block.extend_from_slice(bytes);
            self.pos = 0;
            return Ok(true);
        }
        Ok(false)
    }
}

impl Read for FileReader<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        while self.pos >= self.block.len() {
            if self.remaining == 0 || !self.fill()? {
                if self.remaining > 0 {
                    return Err(std::io::Error::new(
                        std::io::ErrorKind::UnexpectedEof,
                        "the image ends before the file does",
                    ));
                }
                return Ok(0);
            }
        }
        let n = (self.block.len() - self.pos).min(buf.len());
        buf[..n].copy_from_slice(&self.block[self.pos..self.pos + n]);
        self.pos += n;
        self.remaining -= n as u64;
        Ok(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_say_what_is_an_image() {
        assert!(is_squashfs_name("Obsidian-1.7.7.AppImage"));
        assert!(is_squashfs_name("signal-desktop_7.40_amd64.snap"));
        assert!(is_squashfs_name("rootfs.squashfs"));
        assert!(!is_squashfs_name("app.asar"));
        assert!(!is_squashfs_name("snapshot.json"));
    }

    #[test]
    fn an_elf_header_says_where_its_runtime_ends() {
        // An ELF64 little-endian header: e_shoff 0x1000, e_shentsize 64, e_shnum 3.
        let mut head = [0u8; 64];
        head[..4].copy_from_slice(b"\x7fELF");
        head[4] = 2;
        head[5] = 1;
        head[6] = 1;
        head[0x28..0x30].copy_from_slice(&0x1000u64.to_le_bytes());
        head[0x34..0x36].copy_from_slice(&64u16.to_le_bytes());
        head[0x3a..0x3c].copy_from_slice(&64u16.to_le_bytes());
        head[0x3c..0x3e].copy_from_slice(&3u16.to_le_bytes());
        assert_eq!(elf_end(&head), Some(0x1000 + 3 * 64));
        head[4] = 9;
        assert_eq!(elf_end(&head), None);
    }
}

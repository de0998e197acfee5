//! The ASAR reader.
//!
//! An ASAR archive is a pickled JSON header followed by file data:
//!
//! ```text
//! u32 LE 4 | u32 LE header_pickle_size | u32 LE payload_size | u32 LE json_len | json … | data …
//!                                                                                         ^ 8 + header_pickle_size
//! ```
//!
//! The header maps names to nodes: a directory `{"files": {…}}`, a symlink `{"link": "target"}`,
//! or a file `{"size", "offset" (a decimal string), "unpacked"?, "executable"?, "integrity"?}`
//! where `integrity` is `{"algorithm": "SHA256", "hash", "blockSize", "blocks": [...]}`.
//! Packed bytes live at `data_start + offset`; unpacked ones in `<archive>.unpacked/<path>`.
//!
//! Reading is by positioned reads on one shared file handle, never by loading the archive.
//! The header is parsed leniently: a malformed *entry* (a bad size, an offset past the data, a
//! name with `..`, a duplicate name, a missing unpacked file) becomes a limitation on that entry
//! or its parent, and the walk goes on. Only a malformed *header* (truncated, not JSON, nested
//! beyond `serde_json`'s recursion limit) fails, with reason `format`.
//!
//! Start with [`open`] and [`walk`].

mod header;

use std::borrow::Cow;
use std::collections::HashMap;
use std::fs::File;
use std::os::unix::fs::{FileExt, MetadataExt};
use std::path::{Path, PathBuf};

use rea_core::{Failure, FailureReason};
use rea_exec::StageCx;

use crate::entry::{ArchiveFile, DeclaredIntegrity, Entry, EntryKind, EntrySource, HeaderDigest};
use crate::nested::Walk;
use crate::path;
use header::{Blocks, RawFiles, RawIntegrity, RawNode, Scalar};

/// An ASAR archive inside a file: the whole file, or a byte range of it.
#[derive(Debug, Clone)]
pub struct AsarSource {
    pub archive: ArchiveFile,
    /// Where the archive starts in the file.
    pub base: u64,
    /// The archive's length in bytes.
    pub len: u64,
    /// Where its unpacked entries are read from.
    pub unpacked: Unpacked,
}

/// The members of an archive's container below `<archive>.unpacked/`, by their path inside
/// that folder: their kind and where their bytes are.
pub type UnpackedMembers = std::collections::BTreeMap<String, (EntryKind, EntrySource)>;

/// Where an ASAR's unpacked entries are read from: its `.unpacked` companion.
#[derive(Debug, Clone, Default)]
pub enum Unpacked {
    /// Nowhere: the archive has no companion.
    #[default]
    Missing,
    /// `<archive>.unpacked` on disk, canonical (an archive on disk, or found in a directory).
    Dir(PathBuf),
    /// The companion's files as members of the container that holds the archive too (an
    /// application packed into a zip, a tar, an image, a package or an installer).
    Members(std::sync::Arc<UnpackedMembers>),
}

impl Unpacked {
    /// The companion of the archive at `path` on disk, if it has one.
    pub fn beside(path: &Path) -> Unpacked {
        companion(path).map_or(Unpacked::Missing, Unpacked::Dir)
    }
}

/// A header read from the archive, ready to walk: its JSON text and where the data lies.
/// [`walk`] parses the text, borrowing names and strings from it.
#[derive(Debug)]
pub struct AsarHeader {
    /// Absolute file offset where packed data starts.
    data_start: u64,
    /// End of the archive in the file.
    data_end: u64,
    json: Vec<u8>,
}

impl AsarHeader {
    /// Parses the JSON text into the top level's `files`; a malformed header fails with
    /// reason `format`.
    fn parse(&self, source: &AsarSource) -> Result<RawFiles<'_>, Failure> {
        let bad = |reason: &str, problem: String| {
            Failure::new(FailureReason::Format, reason.to_owned())
                .with_detail("path", source.archive.path.to_string_lossy().into_owned())
                .with_detail("problem", problem)
        };
        match serde_json::from_slice::<RawNode<'_>>(&self.json) {
            Ok(RawNode::Object {
                files: Some(files), ..
            }) => Ok(files),
            Ok(_) => Err(bad(
                "ASAR header is not valid JSON",
                "the top level is not an object with a files member".to_owned(),
            )),
            Err(err) if err.to_string().contains("recursion limit") => Err(bad(
                "ASAR header is nested too deeply to parse",
                err.to_string(),
            )),
            Err(err) => Err(bad("ASAR header is not valid JSON", err.to_string())),
        }
    }
}

/// Parses a header as [`walk`] does, without walking it: whether it is well-formed.
pub fn parse_header(source: &AsarSource, header: &AsarHeader) -> Result<(), Failure> {
    header.parse(source).map(drop)
}

/// Opens the archive file at `path` (already resolved) as an ASAR source.
pub fn open(path: &Path) -> Result<AsarSource, Failure> {
    let (archive, len) = ArchiveFile::open(path)?;
    Ok(AsarSource {
        archive,
        base: 0,
        len,
        unpacked: Unpacked::beside(path),
    })
}

/// `<archive>.unpacked`, canonical, when it exists as a real directory.
pub fn companion(path: &Path) -> Option<PathBuf> {
    let mut companion = path.as_os_str().to_owned();
    companion.push(".unpacked");
    std::fs::canonicalize(PathBuf::from(companion))
        .ok()
        .filter(|p| std::fs::symlink_metadata(p).is_ok_and(|m| m.is_dir()))
}

/// True when the first bytes of `head` look like an ASAR pickle header.
pub fn looks_like_asar(head: &[u8]) -> bool {
    let word = |at: usize| {
        head.get(at..at + 4)
            .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    };
    matches!((word(0), word(4), word(8), word(12)), (Some(4), Some(h), Some(p), Some(j))
        if p.checked_add(4) == Some(h) || (p < h && j < p))
        && head.get(16) == Some(&b'{')
}

/// Reads the header. Checks cancellation per 64 KiB of header read.
pub fn read_header(cx: &StageCx<'_>, source: &AsarSource) -> Result<AsarHeader, Failure> {
    let bad = |message: &str| {
        Failure::new(FailureReason::Format, message.to_owned())
            .with_detail("path", source.archive.path.to_string_lossy().into_owned())
    };
    if source.len < 16 {
        return Err(bad("archive is too small to hold an ASAR header"));
    }
    let mut prefix = [0u8; 16];
    read_exact_at(&source.archive.file, &mut prefix, source.base)
        .map_err(|err| bad("archive header could not be read").with_source(err))?;
    let word = |at: usize| {
        u64::from(u32::from_le_bytes([
            prefix[at],
            prefix[at + 1],
            prefix[at + 2],
            prefix[at + 3],
        ]))
    };
    let (size_field, pickle_size, payload_size, json_len) = (word(0), word(4), word(8), word(12));
    if size_field != 4 {
        return Err(bad(
            "not an ASAR archive: the header size field is not a 4-byte pickle",
        ));
    }
    if pickle_size + 8 > source.len {
        return Err(bad("ASAR header size points past the end of the archive"));
    }
    if payload_size + 4 > pickle_size || json_len + 4 > payload_size {
        return Err(bad(
            "ASAR header pickle is inconsistent: its lengths do not nest",
        ));
    }
    let mut json = vec![0u8; json_len as usize];
    for (idx, chunk) in json.chunks_mut(rea_core::CHUNK_BYTES).enumerate() {
        cx.check()?;
        let at = source.base + 16 + (idx * rea_core::CHUNK_BYTES) as u64;
        read_exact_at(&source.archive.file, chunk, at)
            .map_err(|err| bad("ASAR header is truncated").with_source(err))?;
    }
    cx.check()?;
    Ok(AsarHeader {
        data_start: source.base + 8 + pickle_size,
        data_end: source.base + source.len,
        json,
    })
}

/// Sends every entry of the archive, with logical paths below `prefix` (`""` at the root).
///
/// `n_entries` counts entries across the whole job, against `max_entries`.
pub fn walk(
    walk: &mut Walk<'_, '_>,
    source: &AsarSource,
    header: &AsarHeader,
    prefix: &str,
) -> Result<(), Failure> {
    let root = header.parse(source)?;
    walk.cx.check()?;
    walk.notes.asar_headers.insert(
        prefix.to_owned(),
        HeaderDigest {
            sha256: hex::encode(<sha2::Sha256 as sha2::Digest>::digest(&header.json)),
            size: header.json.len() as u64,
        },
    );
    let mut walker = Walker {
        walk,
        source,
        header,
        prefix,
    };
    walker.files(&root, "")
}

struct Walker<'a, 'w, 'cx> {
    walk: &'a mut Walk<'w, 'cx>,
    source: &'a AsarSource,
    header: &'a AsarHeader,
    prefix: &'a str,
}

impl Walker<'_, '_, '_> {
    /// Visits one `files` map; `inner` is its path inside the archive (`""` at the top).
    fn files(&mut self, files: &RawFiles<'_>, inner: &str) -> Result<(), Failure> {
        let here = path::join(self.prefix, inner);
        let RawFiles::Map(children) = files else {
            self.walk.notes.skip(
                &here,
                format!(
                    "directory {} has a files value that is not an object",
                    shown(&here)
                ),
            );
            return Ok(());
        };
        // JSON.parse keeps the last of duplicate keys, and so does Electron: so do we.
        let mut order: Vec<usize> = (0..children.len()).collect();
        order.sort_by(|&a, &b| children[a].0.cmp(&children[b].0).then(a.cmp(&b)));
        let mut folded: HashMap<Cow<'_, str>, &str> = HashMap::with_capacity(children.len());
        for (pos, &idx) in order.iter().enumerate() {
            self.walk.cx.check()?;
            let (name, node) = &children[idx];
            let name: &str = name;
            let logical = path::join(&here, name);
            if order
                .get(pos + 1)
                .is_some_and(|&next| children[next].0 == *name)
            {
                self.walk.notes.skip(
                    &here,
                    format!(
                        "entry {} is declared more than once; the last declaration is used",
                        shown(&logical)
                    ),
                );
                continue;
            }
            if let Some(problem) = path::component_problem(name) {
                self.walk.notes.skip(
                    &here,
                    format!(
                        "entry {:?} in {} was skipped: {problem}",
                        name,
                        shown(&here)
                    ),
                );
                continue;
            }
            if path::depth(&logical) > self.walk.limits.max_depth as usize {
                self.walk.notes.skip(
                    &here,
                    format!(
                        "entry {logical} was skipped: deeper than max_depth {}",
                        self.walk.limits.max_depth
                    ),
                );
                continue;
            }
            if logical.len() > self.walk.limits.max_path_bytes as usize {
                self.walk.notes.skip(
                    &here,
                    format!(
                        "entry {logical} was skipped: path longer than max_path_bytes {}",
                        self.walk.limits.max_path_bytes
                    ),
                );
                continue;
            }
            let lower = if name
                .bytes()
                .any(|b| b.is_ascii_uppercase() || !b.is_ascii())
            {
                Cow::Owned(name.to_lowercase())
            } else {
                Cow::Borrowed(name)
            };
            if let Some(other) = folded.insert(lower, name) {
                self.walk.notes.skip(
                    &here,
                    format!(
                        "entries {other} and {name} in {} differ only by case",
                        shown(&here)
                    ),
                );
            }
            let inner_path = path::join(inner, name);
            let entry = self.entry(node, logical, &inner_path);
            let subdir = match node {
                RawNode::Object {
                    files: Some(files), ..
                } => Some(files),
                _ => None,
            };
            let nested = self.walk.send(entry)?;
            if let Some(files) = subdir {
                self.files(files, &inner_path)?;
            }
            if let Some(nested) = nested {
                crate::nested::expand(self.walk, nested)?;
            }
        }
        Ok(())
    }

    /// The entry one header node describes.
    fn entry(&self, node: &RawNode<'_>, logical_path: String, inner_path: &str) -> Entry {
        let mut entry = Entry::bare(logical_path, EntryKind::File);
        let RawNode::Object { files, fields } = node else {
            entry
                .limitations
                .push("header node is not an object; its bytes cannot be located".to_owned());
            return entry;
        };
        if files.is_some() {
            entry.kind = EntryKind::Directory;
            return entry;
        }
        if let Some(link) = fields.link.as_ref() {
            entry.kind = EntryKind::Symlink;
            match link.as_str() {
                Some(target) => {
                    if escapes_root(target) {
                        entry.limitations.push(
                            "symlink target escapes the archive root; it was not followed"
                                .to_owned(),
                        );
                    }
                    entry.link_target = Some(target.to_owned());
                }
                None => entry
                    .limitations
                    .push("symlink target is not a string".to_owned()),
            }
            return entry;
        }
        entry.executable = fields
            .executable
            .as_ref()
            .and_then(Scalar::as_bool)
            .unwrap_or(false);
        entry.unpacked = fields
            .unpacked
            .as_ref()
            .and_then(Scalar::as_bool)
            .unwrap_or(false);
        entry.declared = fields
            .integrity
            .as_ref()
            .map(|value| declared_integrity(value, &mut entry.limitations));
        let Some(size) = fields.size.as_ref().and_then(as_safe_u64) else {
            entry.limitations.push(
                "declared size is missing or not a whole number; the bytes cannot be located"
                    .to_owned(),
            );
            return entry;
        };
        entry.declared_size = Some(size);
        entry.source = if entry.unpacked {
            self.unpacked_source(inner_path, &mut entry.limitations)
        } else {
            self.packed_source(fields.offset.as_ref(), size, &mut entry.limitations)
        };
        entry
    }

    fn packed_source(
        &self,
        offset: Option<&Scalar<'_>>,
        size: u64,
        limitations: &mut Vec<String>,
    ) -> EntrySource {
        let offset = match offset {
            Some(Scalar::Str(text)) => text.parse::<u64>().ok(),
            Some(other) => as_safe_u64(other),
            None => None,
        };
        let Some(offset) = offset else {
            limitations.push(
                "declared offset is missing or not a whole number; the bytes cannot be located"
                    .to_owned(),
            );
            return EntrySource::None;
        };
        let start = self.header.data_start.checked_add(offset);
        match start.and_then(|start| start.checked_add(size).map(|end| (start, end))) {
            Some((start, end)) if end <= self.header.data_end => EntrySource::Range {
                archive: self.source.archive.clone(),
                offset: start,
                len: size,
            },
            _ => {
                limitations.push(
                    "declared offset and size point past the end of the archive data".to_owned(),
                );
                EntrySource::None
            }
        }
    }

    fn unpacked_source(&self, inner_path: &str, limitations: &mut Vec<String>) -> EntrySource {
        let root = match &self.source.unpacked {
            Unpacked::Dir(root) => root,
            Unpacked::Members(members) => {
                return match members.get(inner_path) {
                    Some((EntryKind::File, EntrySource::None)) => {
                        limitations.push(
                            "unpacked companion file could not be read from its container"
                                .to_owned(),
                        );
                        EntrySource::None
                    }
                    Some((EntryKind::File, source)) => source.clone(),
                    Some(_) => {
                        limitations.push("unpacked companion is not a regular file".to_owned());
                        EntrySource::None
                    }
                    None => {
                        limitations.push("unpacked companion file is missing".to_owned());
                        EntrySource::None
                    }
                };
            }
            Unpacked::Missing => {
                limitations.push(
                    "entry is unpacked but the archive's .unpacked folder is missing".to_owned(),
                );
                return EntrySource::None;
            }
        };
        let path = root.join(inner_path);
        let meta = match std::fs::symlink_metadata(&path) {
            Ok(meta) if meta.is_file() => meta,
            Ok(_) => {
                limitations.push("unpacked companion is not a regular file".to_owned());
                return EntrySource::None;
            }
            Err(_) => {
                limitations.push("unpacked companion file is missing".to_owned());
                return EntrySource::None;
            }
        };
        let contained = std::fs::canonicalize(&path).is_ok_and(|real| real.starts_with(root));
        if !contained {
            limitations.push(
                "unpacked companion resolves outside the .unpacked folder; it was not read"
                    .to_owned(),
            );
            return EntrySource::None;
        }
        EntrySource::Fs {
            path,
            dev: meta.dev(),
            ino: meta.ino(),
        }
    }
}

/// Reads the declared integrity; malformed metadata is kept as unverifiable, never dropped.
fn declared_integrity(
    value: &RawIntegrity<'_>,
    limitations: &mut Vec<String>,
) -> DeclaredIntegrity {
    let algorithm = value
        .algorithm
        .as_ref()
        .and_then(Scalar::as_str)
        .unwrap_or("")
        .to_owned();
    let hash = value
        .hash
        .as_ref()
        .and_then(Scalar::as_str)
        .map(str::to_lowercase);
    let block_size = value
        .block_size
        .as_ref()
        .and_then(as_safe_u64)
        .filter(|&n| n > 0);
    let blocks: Option<Vec<String>> = match &value.blocks {
        None => Some(Vec::new()),
        Some(Blocks::List(items)) => items
            .iter()
            .map(|b| b.as_deref().map(str::to_lowercase))
            .collect(),
        Some(Blocks::Other) => None,
    };
    let well_formed = hash.as_deref().is_some_and(is_hex64)
        && blocks
            .as_ref()
            .is_some_and(|b| b.iter().all(|h| is_hex64(h)))
        && (block_size.is_some() || blocks.as_ref().is_some_and(Vec::is_empty));
    if !well_formed {
        limitations.push("integrity metadata is malformed; the entry is unverifiable".to_owned());
        return DeclaredIntegrity {
            algorithm: "malformed".to_owned(),
            hash: String::new(),
            block_size: None,
            blocks: Vec::new(),
        };
    }
    DeclaredIntegrity {
        algorithm,
        hash: hash.unwrap_or_default(),
        block_size,
        blocks: blocks.unwrap_or_default(),
    }
}

fn is_hex64(text: &str) -> bool {
    text.len() == 64 && text.bytes().all(|b| b.is_ascii_hexdigit())
}

fn as_safe_u64(value: &Scalar<'_>) -> Option<u64> {
    value.as_u64().filter(|&n| n < (1 << 53))
}

/// A link target leaves the archive when it is absolute or climbs above the root.
/// `@electron/asar` stores targets relative to the archive root.
fn escapes_root(target: &str) -> bool {
    if target.starts_with('/') || target.contains('\\') {
        return true;
    }
    let mut depth: i64 = 0;
    for part in target.split('/') {
        match part {
            "" | "." => {}
            ".." => depth -= 1,
            _ => depth += 1,
        }
        if depth < 0 {
            return true;
        }
    }
    false
}

fn shown(path: &str) -> &str {
    if path.is_empty() { "." } else { path }
}

fn read_exact_at(file: &File, buf: &mut [u8], offset: u64) -> std::io::Result<()> {
    file.read_exact_at(buf, offset)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escaping_link_targets() {
        assert!(!escapes_root("node_modules/mime/cli.js"));
        assert!(!escapes_root("a/../b"));
        assert!(escapes_root("../etc/passwd"));
        assert!(escapes_root("a/../../b"));
        assert!(escapes_root("/etc/passwd"));
    }

    #[test]
    fn asar_magic() {
        let mut head = Vec::new();
        for word in [4u32, 100, 96, 90] {
            head.extend_from_slice(&word.to_le_bytes());
        }
        head.push(b'{');
        assert!(looks_like_asar(&head));
        head[0] = 5;
        assert!(!looks_like_asar(&head));
    }
}

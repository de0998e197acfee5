//! macOS flat packages (`.pkg`: electron-builder's `pkg` and `mas` targets, the installers of
//! managed deployments) and other XAR archives (`.xar`).
//!
//! A XAR archive is a 28-byte header, a zlib-compressed XML table of contents, then the heap.
//! The table (read with `quick-xml`) nests `<file>` elements as the folders nest; each names
//! its type (`file`, `directory`, `symlink`, `hardlink`) and, for a file, where its bytes are
//! in the heap and how they are encoded: stored (read in place), zlib (`application/x-gzip`),
//! bzip2 or xz, each decoded into the in-memory file within the usual bounds. A hard link reads
//! the file it names.
//!
//! A component package's `Payload` and `Scripts` (a cpio archive, gzip- or pbzx-compressed,
//! what `pkgbuild` writes) are expanded where they are found, by [`payload`].

use std::collections::{BTreeMap, HashMap};
use std::io::Read;

use rea_core::Failure;

use crate::entry::{ArchiveFile, ArchiveRange, Entry, EntryKind, EntrySource};
use crate::nested::{Memory, Walk};

const WHAT: &str = "XAR archive";
/// The most a table of contents may take, decompressed.
const MAX_TOC: u64 = 64 << 20;
/// How deep `<file>` elements may nest.
const MAX_DEPTH: usize = 256;

/// True when `name` is named like a flat package or a XAR archive.
pub fn is_xar_name(name: &str) -> bool {
    [".pkg", ".mpkg", ".xar"]
        .iter()
        .any(|ext| crate::path::has_suffix(name, ext))
}

/// True when `head` starts a XAR archive.
pub fn looks_like_xar(head: &[u8]) -> bool {
    head.starts_with(b"xar!")
}

/// Sends every member of the archive below `prefix` (`""` at the root), then expands the
/// archives among them. An archive whose header or table of contents cannot be read fails with
/// reason `format` (nested: the container's note).
pub fn walk(walk: &mut Walk<'_, '_>, source: &ArchiveRange, prefix: &str) -> Result<(), Failure> {
    crate::nested::send_guarded(walk, source, prefix, WHAT, list_archive)
}

/// One `<file>` of the table of contents.
#[derive(Debug, Default)]
struct Node {
    id: String,
    name: String,
    kind: String,
    /// A hard link's `link` attribute: `original`, or the id of the file it names.
    link_attr: Option<String>,
    /// A symlink's target.
    link: Option<String>,
    data: Option<Data>,
    /// The `<file>` it is nested in.
    parent: Option<usize>,
    /// Its path below the archive's root.
    path: String,
}

/// Where a file's bytes are in the heap, and how they are encoded.
#[derive(Debug, Default, Clone)]
struct Data {
    offset: u64,
    length: u64,
    size: u64,
    encoding: String,
}

fn be(bytes: &[u8]) -> u64 {
    bytes
        .iter()
        .fold(0, |value, &b| (value << 8) | u64::from(b))
}

/// The table of contents' `<file>` nodes, each with its path.
fn table(xml: &str) -> Result<Vec<Node>, String> {
    use quick_xml::events::Event;
    let mut reader = quick_xml::Reader::from_str(xml);
    let mut nodes: Vec<Node> = Vec::new();
    // The open `<file>`s, as indices into `nodes`, and the open elements' names.
    let mut files: Vec<usize> = Vec::new();
    let mut elements: Vec<String> = Vec::new();
    let mut text = String::new();
    loop {
        let event = reader
            .read_event()
            .map_err(|err| format!("its table of contents is not readable XML: {err}"))?;
        match event {
            Event::Start(start) => {
                let name = start.local_name().as_ref().to_owned();
                let attr = |key: &str| {
                    start.try_get_attribute(key).ok().flatten().and_then(|a| {
                        a.normalized_value(quick_xml::XmlVersion::Implicit1_0)
                            .ok()
                            .map(|v| v.into_owned())
                    })
                };
                if name == "file" {
                    if files.len() >= MAX_DEPTH {
                        return Err(format!("its files nest more than {MAX_DEPTH} deep"));
                    }
                    nodes.push(Node {
                        id: attr("id").unwrap_or_default(),
                        parent: files.last().copied(),
                        ..Node::default()
                    });
                    files.push(nodes.len() - 1);
                } else if let Some(&at) = files.last() {
                    match name.as_str() {
                        "type" => nodes[at].link_attr = attr("link"),
                        "data" => nodes[at].data = Some(Data::default()),
                        _ => {}
                    }
                }
                elements.push(name);
                text.clear();
            }
            Event::Empty(start) => {
                let name = start.local_name().as_ref().to_owned();
                if name == "encoding"
                    && let Some(&at) = files.last()
                    && let Some(data) = nodes[at].data.as_mut()
                {
                    data.encoding = start
                        .try_get_attribute("style")
                        .ok()
                        .flatten()
                        .and_then(|a| {
                            a.normalized_value(quick_xml::XmlVersion::Implicit1_0)
                                .ok()
                                .map(|v| v.into_owned())
                        })
                        .unwrap_or_default();
                }
            }
            Event::Text(t) => text.push_str(&t.xml10_content()),
            Event::CData(t) => text.push_str(&t),
            Event::GeneralRef(r) => {
                if r.is_char_ref() {
                    if let Ok(Some(c)) = r.resolve_char_ref() {
                        text.push(c);
                    }
                } else if let Some(s) = quick_xml::escape::resolve_predefined_entity(&r) {
                    text.push_str(s);
                }
            }
            Event::End(_) => {
                let Some(name) = elements.pop() else {
                    continue;
                };
                let parent = elements.last().map(String::as_str);
                let Some(&at) = files.last() else {
                    continue;
                };
                let value = std::mem::take(&mut text);
                let number = || value.trim().parse::<u64>().unwrap_or(0);
                match (name.as_str(), parent) {
                    ("file", _) => {
                        files.pop();
                    }
                    ("name", Some("file")) => nodes[at].name = value,
                    ("type", Some("file")) => nodes[at].kind = value.trim().to_owned(),
                    ("link", Some("file")) => nodes[at].link = Some(value),
                    (field, Some("data")) => {
                        if let Some(data) = nodes[at].data.as_mut() {
                            match field {
                                "offset" => data.offset = number(),
                                "length" => data.length = number(),
                                "size" => data.size = number(),
                                _ => {}
                            }
                        }
                    }
                    _ => {}
                }
            }
            Event::Eof => break,
            _ => {}
        }
    }
    // Paths, parents first: a node's parent was opened, so pushed, before it.
    for i in 0..nodes.len() {
        let path = match nodes[i].parent {
            Some(p) if !nodes[p].path.is_empty() => format!("{}/{}", nodes[p].path, nodes[i].name),
            _ => nodes[i].name.clone(),
        };
        nodes[i].path = path;
    }
    Ok(nodes)
}

fn list_archive(
    walk: &mut Walk<'_, '_>,
    source: &ArchiveRange,
    prefix: &str,
) -> Result<BTreeMap<String, Entry>, Failure> {
    let (cx, limits) = (walk.cx, walk.limits);
    let unreadable = |problem: String| source.unreadable(WHAT, problem);
    let mut header = [0u8; 28];
    source
        .read_at(0, &mut header)
        .ok_or_else(|| unreadable("it is shorter than a XAR header".to_owned()))?;
    if !looks_like_xar(&header) {
        return Err(unreadable(
            "it does not start with a XAR signature".to_owned(),
        ));
    }
    let header_len = be(&header[4..6]);
    let (packed, unpacked) = (be(&header[8..16]), be(&header[16..24]));
    if header_len < 28 || unpacked > MAX_TOC || packed > MAX_TOC {
        return Err(unreadable(format!(
            "its header declares a table of contents of {packed} bytes ({unpacked} unpacked)"
        )));
    }
    let heap = header_len
        .checked_add(packed)
        .filter(|&end| end <= source.len)
        .ok_or_else(|| unreadable("its table of contents lies past its end".to_owned()))?;
    let mut compressed = vec![0u8; packed as usize];
    source
        .read_at(header_len, &mut compressed)
        .ok_or_else(|| unreadable("its table of contents could not be read".to_owned()))?;
    let mut xml = String::new();
    flate2::read::ZlibDecoder::new(&compressed[..])
        .take(MAX_TOC)
        .read_to_string(&mut xml)
        .map_err(|err| unreadable(format!("its table of contents does not inflate: {err}")))?;
    let nodes = table(&xml).map_err(unreadable)?;

    let bound = crate::nested::decompression_bound(limits, source.len);
    let too_much = format!(
        "its files decompress to more than the {bound} bytes they may take in memory (max_entry_bytes, max_compression_ratio)"
    );
    let mut memory: Option<Memory> = None;
    let by_id: HashMap<&str, usize> = nodes
        .iter()
        .enumerate()
        .map(|(i, n)| (n.id.as_str(), i))
        .collect();
    let mut located: HashMap<usize, Result<EntrySource, String>> = HashMap::new();
    let mut members = BTreeMap::new();
    for (index, node) in nodes.iter().enumerate() {
        cx.check()?;
        let Some(logical_path) = walk.member_path(prefix, &node.path) else {
            continue;
        };
        let entry = match node.kind.as_str() {
            "directory" => Entry::directory(logical_path),
            "symlink" => {
                let mut entry = Entry::bare(logical_path, EntryKind::Symlink);
                entry.link_target = node.link.clone();
                entry
            }
            kind => {
                let mut entry = Entry::bare(logical_path, EntryKind::File);
                // A hard link that is not the original reads the file it names.
                let target = match (kind, node.link_attr.as_deref()) {
                    ("hardlink", Some(id)) if id != "original" => by_id.get(id).copied(),
                    _ => Some(index),
                };
                let data = target.and_then(|t| nodes[t].data.clone().map(|d| (t, d)));
                match data {
                    None if kind == "file" => {
                        entry.declared_size = Some(0);
                        entry.source = EntrySource::Range {
                            archive: source.archive.clone(),
                            offset: 0,
                            len: 0,
                        };
                    }
                    None => entry.limitations.push(
                        "not read: a hard link to a file the archive does not hold".to_owned(),
                    ),
                    Some((t, data)) => {
                        entry.declared_size = Some(data.size);
                        let outcome = match located.entry(t) {
                            std::collections::hash_map::Entry::Occupied(seen) => seen.into_mut(),
                            std::collections::hash_map::Entry::Vacant(slot) => slot.insert(locate(
                                walk,
                                source,
                                heap,
                                &data,
                                &mut memory,
                                bound,
                                &too_much,
                            )?),
                        };
                        match outcome {
                            Ok(place) => entry.source = place.clone(),
                            Err(why) => entry.limitations.push(format!("not read: {why}")),
                        }
                    }
                }
                entry
            }
        };
        crate::nested::keep_last(&mut members, entry, prefix, &mut walk.notes);
    }
    Ok(members)
}

/// Where a file's bytes are: in place when stored, else decoded into the in-memory file.
fn locate(
    walk: &Walk<'_, '_>,
    source: &ArchiveRange,
    heap: u64,
    data: &Data,
    memory: &mut Option<Memory>,
    bound: u64,
    too_much: &str,
) -> Result<Result<EntrySource, String>, Failure> {
    let Some(at) = heap.checked_add(data.offset).filter(|at| {
        at.checked_add(data.length)
            .is_some_and(|end| end <= source.len)
    }) else {
        return Ok(Err("its bytes lie past the archive's end".to_owned()));
    };
    let stored =
        crate::read::SeekRange::new(source.archive.file.clone(), source.base + at, data.length);
    let decoded: Box<dyn Read> = match data.encoding.as_str() {
        "" | "application/octet-stream" => {
            if data.length != data.size {
                return Ok(Err(format!(
                    "it is stored in {} bytes but declares {}",
                    data.length, data.size
                )));
            }
            return Ok(Ok(EntrySource::Range {
                archive: source.archive.clone(),
                offset: source.base + at,
                len: data.size,
            }));
        }
        "application/x-gzip" => Box::new(flate2::read::ZlibDecoder::new(stored)),
        "application/x-bzip2" => Box::new(bzip2::read::BzDecoder::new(stored)),
        "application/x-xz" | "application/x-lzma" => {
            Box::new(liblzma::read::XzDecoder::new(stored))
        }
        other => {
            return Ok(Err(format!(
                "it is encoded as {other}, which REA does not read"
            )));
        }
    };
    if memory.is_none() {
        match Memory::new("the archive's files", bound) {
            Ok(made) => *memory = Some(made),
            Err(note) => return Ok(Err(note)),
        }
    }
    let Some(memory) = memory.as_mut() else {
        return Ok(Err("no in-memory file".to_owned()));
    };
    match memory.append(walk.cx, decoded.take(data.size + 1), "a file", too_much)? {
        Ok((offset, len)) if len == data.size => Ok(Ok(EntrySource::Range {
            archive: ArchiveFile {
                path: source.archive.path.clone(),
                file: memory.file.clone(),
            },
            offset,
            len,
        })),
        Ok((_, len)) => Ok(Err(format!(
            "it decodes to {len} bytes, not the {} it declares",
            data.size
        ))),
        Err(note) => Ok(Err(note)),
    }
}

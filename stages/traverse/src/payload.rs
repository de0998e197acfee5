//! The `Payload` and `Scripts` of a macOS component package (`app.pkg/Payload` in a flat
//! package, [`crate::xar`]): a cpio archive in the odc format (what `pkgbuild` writes; newc is
//! read too), gzip-compressed, or pbzx-compressed (xz chunks, Apple's own packages), or plain.
//!
//! The stream is decompressed into the in-memory file, bounded like every decompressed
//! container, and each member becomes a byte range of it. Symlinks keep their target; a newc
//! hard link whose data comes with a later link of its group takes that data.

use std::collections::{BTreeMap, HashMap};
use std::io::Read;

use rea_core::Failure;

use crate::entry::{ArchiveFile, ArchiveRange, Entry, EntryKind, EntrySource};
use crate::nested::{Memory, Walk};

const WHAT: &str = "package payload";

/// True when `path` is a component package's payload: `Payload` or `Scripts` directly below a
/// `*.pkg` (a component package, or the flat package itself).
pub fn is_payload_name(path: &str) -> bool {
    let mut parts = path.rsplit('/');
    let (Some(name), Some(parent)) = (parts.next(), parts.next()) else {
        return false;
    };
    matches!(name, "Payload" | "Scripts") && crate::path::has_suffix(parent, ".pkg")
}

/// Sends every member of the payload below `prefix`, then expands the archives among them. A
/// payload that is not a cpio archive fails with reason `format` (nested: the container's
/// note).
pub fn walk(walk: &mut Walk<'_, '_>, source: &ArchiveRange, prefix: &str) -> Result<(), Failure> {
    crate::nested::send_guarded(walk, source, prefix, WHAT, list_payload)
}

/// Decompresses the payload into `memory`: its place there.
fn decompress(
    walk: &Walk<'_, '_>,
    source: &ArchiveRange,
    memory: &mut Memory,
    too_much: &str,
) -> Result<Result<(u64, u64), String>, Failure> {
    let mut head = [0u8; 12];
    let head_len = source.len.min(12) as usize;
    if source.read_at(0, &mut head[..head_len]).is_none() {
        return Ok(Err("it could not be read".to_owned()));
    }
    let stream =
        || crate::read::SeekRange::new(source.archive.file.clone(), source.base, source.len);
    if head.starts_with(&[0x1F, 0x8B]) {
        let reader = flate2::read::MultiGzDecoder::new(std::io::BufReader::new(stream()));
        return memory.append(walk.cx, reader, "the payload", too_much);
    }
    if !head.starts_with(b"pbzx") {
        return memory.append(walk.cx, stream(), "the payload", too_much);
    }
    // pbzx: a chunk size, then chunks of (flags, length, bytes): xz streams, or stored.
    let (mut at, mut start, mut total) = (12u64, None, 0u64);
    while at < source.len {
        walk.cx.check()?;
        let mut chunk = [0u8; 16];
        if source.read_at(at, &mut chunk).is_none() {
            return Ok(Err("a pbzx chunk header is cut short".to_owned()));
        }
        let len = u64::from_be_bytes(chunk[8..16].try_into().unwrap_or_default());
        at += 16;
        if at.checked_add(len).is_none_or(|end| end > source.len) {
            return Ok(Err("a pbzx chunk lies past the payload's end".to_owned()));
        }
        let bytes = crate::read::SeekRange::new(source.archive.file.clone(), source.base + at, len);
        let mut magic = [0u8; 6];
        let xz =
            source.read_at(at, &mut magic).is_some() && magic == [0xFD, b'7', b'z', b'X', b'Z', 0];
        let reader: Box<dyn Read> = if xz {
            Box::new(liblzma::read::XzDecoder::new(bytes))
        } else {
            Box::new(bytes)
        };
        match memory.append(walk.cx, reader, "the payload", too_much)? {
            Ok((offset, n)) => {
                start.get_or_insert(offset);
                total += n;
            }
            Err(note) => return Ok(Err(note)),
        }
        at += len;
    }
    Ok(Ok((start.unwrap_or(0), total)))
}

/// One cpio header: its fields, where its name and data are, and where the next one starts.
struct Header {
    ino: u64,
    mode: u64,
    nlink: u64,
    name: String,
    data: u64,
    size: u64,
    next: u64,
    newc: bool,
}

/// The cpio header at `at` of `archive` (`len` bytes), or why there is none.
fn header(archive: &ArchiveRange, at: u64) -> Result<Header, String> {
    let mut magic = [0u8; 6];
    archive
        .read_at(at, &mut magic)
        .ok_or("the archive ends without a trailer")?;
    let field = |bytes: &[u8], radix: u32| -> Result<u64, String> {
        let text =
            std::str::from_utf8(bytes).map_err(|_| "a header field is not text".to_owned())?;
        u64::from_str_radix(text.trim_end_matches('\0').trim(), radix)
            .map_err(|_| format!("a header field reads {text:?}"))
    };
    let (fixed, newc) = match &magic {
        b"070707" => (76usize, false),
        b"070701" | b"070702" => (110usize, true),
        other => {
            return Err(format!(
                "it is not a cpio archive in the odc or newc format (magic {:?})",
                String::from_utf8_lossy(other)
            ));
        }
    };
    let mut h = vec![0u8; fixed];
    archive.read_at(at, &mut h).ok_or("a header is cut short")?;
    let (ino, mode, nlink, name_len, size) = if newc {
        let f = |i: usize| field(&h[6 + 8 * i..14 + 8 * i], 16);
        (f(0)?, f(1)?, f(4)?, f(11)?, f(6)?)
    } else {
        (
            field(&h[12..18], 8)?,
            field(&h[18..24], 8)?,
            field(&h[42..48], 8)?,
            field(&h[59..65], 8)?,
            field(&h[65..76], 8)?,
        )
    };
    if name_len == 0 || name_len > 4096 {
        return Err(format!("a header declares a name of {name_len} bytes"));
    }
    let mut name = vec![0u8; name_len as usize];
    archive
        .read_at(at + fixed as u64, &mut name)
        .ok_or("a name is cut short")?;
    let name = String::from_utf8_lossy(name.strip_suffix(b"\0").unwrap_or(&name)).into_owned();
    let align = |n: u64| if newc { n.div_ceil(4) * 4 } else { n };
    let data = at + align(fixed as u64 + name_len);
    let next = align(
        data.checked_add(size)
            .filter(|&end| end <= archive.len)
            .ok_or("a member's data lies past the archive's end")?,
    );
    Ok(Header {
        ino,
        mode,
        nlink,
        name,
        data,
        size,
        next,
        newc,
    })
}

fn list_payload(
    walk: &mut Walk<'_, '_>,
    source: &ArchiveRange,
    prefix: &str,
) -> Result<BTreeMap<String, Entry>, Failure> {
    let bound = crate::nested::decompression_bound(walk.limits, source.len);
    let too_much = format!(
        "the payload decompresses to more than the {bound} bytes it may take in memory (max_entry_bytes, max_compression_ratio)"
    );
    let mut memory =
        Memory::new("the payload", bound).map_err(|note| source.unreadable(WHAT, note))?;
    let (base, len) = decompress(walk, source, &mut memory, &too_much)?
        .map_err(|note| source.unreadable(WHAT, note))?;
    let held = ArchiveFile {
        path: source.archive.path.clone(),
        file: memory.file.clone(),
    };
    let archive = ArchiveRange {
        archive: held.clone(),
        base,
        len,
    };
    let mut members = BTreeMap::new();
    // newc hard links: the data comes with the last link of a group.
    let mut waiting: HashMap<u64, Vec<String>> = HashMap::new();
    let mut at = 0u64;
    let mut count = 0usize;
    loop {
        walk.cx.check()?;
        let h = match header(&archive, at) {
            Ok(h) => h,
            Err(why) if count == 0 => return Err(source.unreadable(WHAT, why)),
            Err(why) => {
                walk.notes.skip(prefix, format!("the listing stops: {why}"));
                break;
            }
        };
        count += 1;
        at = h.next;
        if h.name == "TRAILER!!!" {
            break;
        }
        let name = h.name.trim_start_matches("./").trim_start_matches('/');
        if name.is_empty() || name == "." {
            continue;
        }
        let Some(logical_path) = walk.member_path(prefix, name) else {
            continue;
        };
        let range = EntrySource::Range {
            archive: held.clone(),
            offset: base + h.data,
            len: h.size,
        };
        let entry = match h.mode & 0o170000 {
            0o040000 => Entry::directory(logical_path),
            0o120000 => {
                let mut entry = Entry::bare(logical_path, EntryKind::Symlink);
                let mut target = vec![0u8; h.size.min(4096) as usize];
                if archive.read_at(h.data, &mut target).is_some() {
                    entry.link_target = Some(String::from_utf8_lossy(&target).into_owned());
                }
                entry
            }
            0o100000 => {
                let mut entry = Entry::bare(logical_path, EntryKind::File);
                entry.executable = h.mode & 0o111 != 0;
                entry.declared_size = Some(h.size);
                if h.newc && h.size == 0 && h.nlink > 1 {
                    waiting
                        .entry(h.ino)
                        .or_default()
                        .push(entry.logical_path.clone());
                } else {
                    for path in waiting.remove(&h.ino).unwrap_or_default() {
                        if let Some(linked) = members.get_mut(&path) {
                            let linked: &mut Entry = linked;
                            linked.declared_size = Some(h.size);
                            linked.source = range.clone();
                        }
                    }
                }
                entry.source = range;
                entry
            }
            _ => {
                walk.notes.skip(
                    prefix,
                    format!("{name} was skipped: a special file (mode {:o})", h.mode),
                );
                continue;
            }
        };
        crate::nested::keep_last(&mut members, entry, prefix, &mut walk.notes);
    }
    Ok(members)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn payloads_are_named_below_a_component_package() {
        assert!(is_payload_name("Demo.pkg/app.pkg/Payload"));
        assert!(is_payload_name("Demo.PKG/Scripts"));
        assert!(!is_payload_name("Payload"));
        assert!(!is_payload_name("lib/Payload"));
        assert!(!is_payload_name("app.pkg/Payload/x"));
    }
}

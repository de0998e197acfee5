//! Apple disk images (`.dmg`): what a macOS application is downloaded as (electron-builder's
//! default mac target, `create-dmg`, `appdmg`).
//!
//! A UDIF image ends with a 512-byte `koly` trailer that locates an XML property list; its
//! `blkx` table lists, for each partition, a `mish` block map: runs of the disk's sectors,
//! each stored raw, zlib-compressed (UDZO), bzip2-compressed (UDBZ), LZFSE-compressed (ULFO,
//! through Apple's reference decoder), xz-compressed (ULMO), or all zeros. Every run is
//! independent, so the disk is decoded into one anonymous in-memory file in parallel, bounded
//! like every decompressed container. An ADC run (UDCO, before Mac OS X 10.3) is not read: the
//! sectors it covers are noted, and a file whose bytes lie there is unavailable.
//!
//! The disk's partitions are then searched for an HFS+ or HFSX volume ([`crate::hfs`]), which
//! lists the files. An APFS volume is noted, not read.

use std::collections::BTreeMap;
use std::io::Read;

use rea_core::Failure;

use crate::entry::{ArchiveFile, ArchiveRange, Entry};
use crate::nested::Walk;

const WHAT: &str = "disk image";
const SECTOR: u64 = 512;
/// The largest disk read: its free space costs nothing (zero runs are left sparse), but its
/// structures may lie anywhere in it.
const MAX_DISK: u64 = 1 << 40;

/// True when `name` is named like a disk image.
pub fn is_dmg_name(name: &str) -> bool {
    crate::path::has_suffix(name, ".dmg")
}

/// Sends every file, folder and symlink of the image's volume below `prefix` (`""` at the
/// root), then expands the archives among them. An image whose trailer or block map cannot be
/// read fails with reason `format` (nested: the container's note).
pub fn walk(walk: &mut Walk<'_, '_>, source: &ArchiveRange, prefix: &str) -> Result<(), Failure> {
    crate::nested::send_guarded(walk, source, prefix, WHAT, list_image)
}

/// One run of sectors of a partition's block map.
#[derive(Debug, Clone, Copy)]
struct Run {
    kind: u32,
    /// Where the run starts on the disk, and how long it is (bytes).
    at: u64,
    len: u64,
    /// Where its stored bytes are in the image, and how many.
    stored_at: u64,
    stored_len: u64,
}

/// A partition of the block map: its name and its place on the disk (bytes).
#[derive(Debug)]
struct Partition {
    name: String,
    at: u64,
    len: u64,
}

const ZERO: u32 = 0x0000_0000;
const RAW: u32 = 0x0000_0001;
const IGNORE: u32 = 0x0000_0002;
const ADC: u32 = 0x8000_0004;
const ZLIB: u32 = 0x8000_0005;
const BZIP2: u32 = 0x8000_0006;
const LZFSE: u32 = 0x8000_0007;
/// ULMO images: each run an xz stream (7-Zip reads them so).
const XZ: u32 = 0x8000_0008;
const COMMENT: u32 = 0x7FFF_FFFE;
const END: u32 = 0xFFFF_FFFF;

fn be32(b: &[u8], at: usize) -> u32 {
    u32::from_be_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]])
}

fn be64(b: &[u8], at: usize) -> u64 {
    u64::from(be32(b, at)) << 32 | u64::from(be32(b, at + 4))
}

/// The partitions and runs of the image's block map, from its trailer and property list.
fn block_map(source: &ArchiveRange) -> Result<(Vec<Partition>, Vec<Run>), String> {
    if source.len < 512 {
        return Err("it is shorter than a disk image trailer".to_owned());
    }
    let mut koly = [0u8; 512];
    source
        .read_at(source.len - 512, &mut koly)
        .ok_or("its trailer could not be read")?;
    if &koly[..4] != b"koly" {
        return Err("it does not end with a UDIF trailer (koly)".to_owned());
    }
    let data_fork = be64(&koly, 24);
    let (xml_at, xml_len) = (be64(&koly, 216), be64(&koly, 224));
    if xml_len == 0
        || xml_at
            .checked_add(xml_len)
            .is_none_or(|end| end > source.len)
    {
        return Err("its property list lies outside the image".to_owned());
    }
    if xml_len > 64 << 20 {
        return Err(format!("its property list declares {xml_len} bytes"));
    }
    let mut xml = vec![0u8; xml_len as usize];
    source
        .read_at(xml_at, &mut xml)
        .ok_or("its property list could not be read")?;
    let plist = plist::Value::from_reader_xml(std::io::Cursor::new(xml))
        .map_err(|err| format!("its property list is not readable: {err}"))?;
    let blkx = plist
        .as_dictionary()
        .and_then(|d| d.get("resource-fork"))
        .and_then(plist::Value::as_dictionary)
        .and_then(|d| d.get("blkx"))
        .and_then(plist::Value::as_array)
        .ok_or("its property list has no blkx table")?;
    let (mut partitions, mut runs) = (Vec::new(), Vec::new());
    for entry in blkx {
        let Some(entry) = entry.as_dictionary() else {
            continue;
        };
        let name = entry
            .get("Name")
            .or_else(|| entry.get("CFName"))
            .and_then(plist::Value::as_string)
            .unwrap_or_default()
            .to_owned();
        let mish = entry
            .get("Data")
            .and_then(plist::Value::as_data)
            .ok_or("a blkx entry has no block map")?;
        if mish.len() < 204 || &mish[..4] != b"mish" {
            return Err(format!("the block map of {name:?} is not a mish block"));
        }
        let first = be64(mish, 8).saturating_mul(SECTOR);
        let count = be64(mish, 16).saturating_mul(SECTOR);
        let chunks = be32(mish, 200) as usize;
        if mish.len() < 204 + chunks.saturating_mul(40) {
            return Err(format!("the block map of {name:?} ends early"));
        }
        for i in 0..chunks {
            let c = &mish[204 + 40 * i..204 + 40 * (i + 1)];
            let kind = be32(c, 0);
            if kind == END {
                break;
            }
            if kind == COMMENT {
                continue;
            }
            runs.push(Run {
                kind,
                at: first.saturating_add(be64(c, 8).saturating_mul(SECTOR)),
                len: be64(c, 16).saturating_mul(SECTOR),
                stored_at: data_fork.saturating_add(be64(c, 24)),
                stored_len: be64(c, 32),
            });
        }
        partitions.push(Partition {
            name,
            at: first,
            len: count,
        });
    }
    Ok((partitions, runs))
}

/// Decodes one run into the disk's in-memory file; why it could not be, if it could not.
/// Decodes an LZFSE stream (Apple's reference decoder, through the `lzfse` crate) that should
/// hold `len` bytes: what it holds, at most `len` bytes and one more, so that a stream holding
/// more or less than declared shows in the length.
pub(crate) fn lzfse_decode(stream: &[u8], len: usize) -> Vec<u8> {
    let mut out = vec![0u8; len + 1];
    let n = lzfse::decode_buffer(stream, &mut out).unwrap_or(len + 1);
    out.truncate(n);
    out
}

fn decode_run(source: &ArchiveRange, disk: &std::fs::File, run: &Run) -> Option<String> {
    use std::os::unix::fs::FileExt;
    let kind = run.kind;
    if matches!(kind, ZERO | IGNORE) || run.len == 0 {
        return None;
    }
    let name = match kind {
        RAW | ZLIB | BZIP2 | LZFSE | XZ => "",
        ADC => "ADC",
        _ => "an unknown",
    };
    if !name.is_empty() {
        return Some(format!("it is {name}-compressed, which REA does not read"));
    }
    if run.stored_len > 64 << 20 || run.len > 64 << 20 {
        return Some(format!(
            "it declares {} bytes stored in {}, more than a run holds",
            run.len, run.stored_len
        ));
    }
    let mut stored = vec![0u8; run.stored_len as usize];
    if source.read_at(run.stored_at, &mut stored).is_none() {
        return Some("its stored bytes lie outside the image".to_owned());
    }
    let mut out = Vec::with_capacity(run.len as usize);
    let read = match kind {
        RAW => {
            out = stored;
            Ok(out.len())
        }
        ZLIB => flate2::read::ZlibDecoder::new(&stored[..])
            .take(run.len)
            .read_to_end(&mut out),
        XZ => liblzma::read::XzDecoder::new(&stored[..])
            .take(run.len)
            .read_to_end(&mut out),
        LZFSE => {
            out = lzfse_decode(&stored, run.len as usize);
            Ok(out.len())
        }
        _ => bzip2::read::BzDecoder::new(&stored[..])
            .take(run.len)
            .read_to_end(&mut out),
    };
    match read {
        Err(err) => return Some(format!("it does not decompress: {err}")),
        Ok(_) if out.len() as u64 != run.len => {
            return Some(format!(
                "it decompresses to {} bytes, not {}",
                out.len(),
                run.len
            ));
        }
        Ok(_) => {}
    }
    disk.write_all_at(&out, run.at)
        .err()
        .map(|err| format!("its bytes could not be held in memory: {err}"))
}

fn list_image(
    walk: &mut Walk<'_, '_>,
    source: &ArchiveRange,
    prefix: &str,
) -> Result<BTreeMap<String, Entry>, Failure> {
    let cx = walk.cx;
    let (partitions, runs) =
        block_map(source).map_err(|problem| source.unreadable(WHAT, problem))?;
    let disk_len = runs
        .iter()
        .map(|r| r.at.saturating_add(r.len))
        .max()
        .unwrap_or(0);
    // The disk is a sparse in-memory file: only the runs that hold data take memory (a
    // volume's free space is zero runs), so they are what the bound weighs.
    let data_len: u64 = runs
        .iter()
        .filter(|r| !matches!(r.kind, ZERO | IGNORE | COMMENT | END))
        .map(|r| r.len)
        .fold(0u64, u64::saturating_add);
    let bound = crate::nested::decompression_bound(walk.limits, source.len);
    if data_len > bound || disk_len > MAX_DISK {
        walk.notes.skip(
            prefix,
            format!("not read: its disk holds {data_len} bytes of data in {disk_len}, more than the {bound} it may take in memory (max_entry_bytes, max_compression_ratio) or a disk of {MAX_DISK} bytes"),
        );
        return Ok(BTreeMap::new());
    }
    let memory = crate::nested::Memory::new("the disk image", bound)
        .map_err(|note| source.unreadable(WHAT, note))?;
    memory
        .file
        .set_len(disk_len)
        .map_err(|err| source.unreadable(WHAT, format!("no memory for its disk: {err}")))?;
    let outcomes: Vec<Result<Option<String>, Failure>> = {
        use rayon::prelude::*;
        runs.par_iter()
            .map(|run| {
                cx.check()?;
                Ok(decode_run(source, &memory.file, run))
            })
            .collect()
    };
    // The byte ranges of the disk that could not be decoded, and why.
    let mut broken = Vec::new();
    for (run, outcome) in runs.iter().zip(outcomes) {
        if let Some(why) = outcome? {
            broken.push((run.at, run.at.saturating_add(run.len), why));
        }
    }
    let disk = ArchiveRange {
        archive: ArchiveFile {
            path: source.archive.path.clone(),
            file: memory.file.clone(),
        },
        base: 0,
        len: disk_len,
    };
    // The volume: the partition that holds an HFS+ signature (a whole-disk volume is the
    // partition at 0 too), else the disk itself.
    let mut candidates: Vec<(u64, u64)> = partitions.iter().map(|p| (p.at, p.len)).collect();
    candidates.push((0, disk_len));
    for (at, len) in candidates {
        let volume = ArchiveRange {
            base: at,
            len: len.min(disk_len.saturating_sub(at)),
            ..disk.clone()
        };
        match crate::hfs::signature(&volume) {
            Some(crate::hfs::Kind::Hfs) => {
                return crate::hfs::list(walk, &volume, prefix, &broken);
            }
            Some(crate::hfs::Kind::Apfs) => {
                walk.notes.skip(
                    prefix,
                    "its volume is APFS, which REA does not read: its files are not listed"
                        .to_owned(),
                );
                return Ok(BTreeMap::new());
            }
            None => {}
        }
    }
    let names: Vec<&str> = partitions.iter().map(|p| p.name.as_str()).collect();
    let why = broken
        .first()
        .map(|(_, _, why)| format!(" (a run could not be read: {why})"))
        .unwrap_or_default();
    walk.notes.skip(
        prefix,
        format!(
            "no HFS+ volume was found among its partitions {names:?}{why}: its files are not listed"
        ),
    );
    Ok(BTreeMap::new())
}

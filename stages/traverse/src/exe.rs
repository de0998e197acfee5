//! Windows executables (`.exe`) that carry archives: installers keep their payload in the
//! overlay (the bytes after the last section's data) or in a resource. electron-builder's NSIS
//! installer stores its application package in the overlay uncompressed (`SetCompress off`
//! before `File /oname=$PLUGINSDIR\app-64.7z`), 7-Zip's self-extractors append their archive,
//! and Squirrel.Windows (Electron Forge's default Windows maker) writes a zip holding
//! `Update.exe` and the app's `.nupkg` into its `Setup.exe` as a `DATA` resource.
//!
//! The PE headers are read with the `object` crate. The overlay and the resource section's data
//! are then searched, a chunk at a time, for a 7z start header whose CRC-32 holds, a cabinet
//! header that fits ([`crate::cab::archive_len`]: IExpress packages, cabinet self-extractors,
//! a WiX bundle's attached container), and a ZIP end-of-central-directory record whose central
//! directory and first local header sit where it says; each archive found becomes a member
//! named by where it starts (`payload-<offset>.7z`), a byte range of the executable, and is expanded like any nested
//! archive. An archive found inside another is left to that one's expansion. An NSIS installer
//! is listed by its own script instead ([`crate::nsis`]), and searched this way only when its
//! script cannot be read; what it compressed itself then stays hidden, and the executable's
//! occurrence says so.

use std::collections::BTreeMap;

use rea_core::Failure;

use crate::entry::{ArchiveRange, Entry, EntryKind, EntrySource};
use crate::nested::Walk;
use crate::read::SeekRange;

/// What the run says when the input executable holds no archive.
const NO_PAYLOAD: &str = "The Windows executable holds no archive REA found in its resources or overlay, where installers keep their payload.";

/// Most archives taken from one executable.
const MAX_PAYLOADS: usize = 64;
/// Most archive headers checked in one region (nested ones included) before the search stops.
const MAX_CANDIDATES: usize = 4096;
/// How much of the overlay is searched at a time.
const CHUNK: usize = 1 << 20;
/// What NSIS writes after the first header's flags (its signature and magic).
const NSIS_MAGIC: &[u8] = crate::nsis::MAGIC;
const ZIP_END: &[u8] = b"PK\x05\x06";

/// True when `name` is named like a Windows executable.
pub fn is_exe_name(name: &str) -> bool {
    crate::path::has_suffix(name, ".exe")
}

/// True when `head` starts a DOS/PE executable.
pub fn looks_like_exe(head: &[u8]) -> bool {
    head.starts_with(b"MZ")
}

/// An archive found in the overlay: where it starts (from the executable's start), how long
/// it is, and its extension.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Payload {
    at: u64,
    len: u64,
    ext: &'static str,
    /// "overlay" or "resources".
    region: &'static str,
}

/// Sends the archives the executable's overlay holds, below `prefix`, and expands them. An
/// executable without an overlay, or whose overlay holds none, sends nothing, and so does a
/// file named `.exe` that is not a PE: it is a file like any other, never a failed container.
pub fn walk(walk: &mut Walk<'_, '_>, source: &ArchiveRange, prefix: &str) -> Result<(), Failure> {
    let (mut payloads, mut nsis, mut cut_short) = (Vec::new(), None, false);
    for (start, end, region) in regions(source).unwrap_or_default() {
        let found = search(walk, source, (start, end), region)?;
        payloads.extend(found.payloads);
        nsis = nsis.or(found.nsis);
        cut_short |= found.cut_short;
    }
    if payloads.len() > MAX_PAYLOADS || cut_short {
        payloads.truncate(MAX_PAYLOADS);
        walk.notes.skip(
            prefix,
            format!("more than {MAX_PAYLOADS} archives in the executable, or more than {MAX_CANDIDATES} archive headers in one region; the rest were not read"),
        );
    }
    // An NSIS installer is listed by its own script, names and all; the search for stored
    // archives stands in only when the script cannot be read.
    if let Some(at) = nsis {
        match crate::nsis::list(walk, source, at, prefix)? {
            // An uninstaller's script extracts nothing: there is nothing to look for.
            Ok(members) if members.is_empty() => {
                if prefix.is_empty() {
                    walk.notes.limitations.push(NO_PAYLOAD.to_owned());
                }
                return Ok(());
            }
            Ok(members) => return crate::nested::send_listing(walk, members, prefix),
            Err(why) => walk.notes.skip(
                prefix,
                format!("the NSIS installer's script could not be read ({why}); archives it stores uncompressed were searched for instead"),
            ),
        }
    }
    if payloads.is_empty() {
        // The input itself: said for the whole run, so that an analysis of a program that is
        // no installer does not read as a complete analysis of nothing.
        if prefix.is_empty() {
            walk.notes.limitations.push(NO_PAYLOAD.to_owned());
        }
        if nsis.is_some() {
            walk.notes.skip(
                prefix,
                "an NSIS installer whose payload is compressed by NSIS itself; only payloads it stores uncompressed (as electron-builder stores its application package) are read".to_owned(),
            );
        }
        return Ok(());
    }
    let mut members = BTreeMap::new();
    for payload in payloads {
        let name = format!("payload-{}.{}", payload.at, payload.ext);
        let Some(logical_path) = walk.member_path(prefix, &name) else {
            continue;
        };
        let mut entry = Entry::bare(logical_path, EntryKind::File);
        entry.declared_size = Some(payload.len);
        entry.source = EntrySource::Range {
            archive: source.archive.clone(),
            offset: source.base + payload.at,
            len: payload.len,
        };
        entry.limitations.push(format!(
            "found in the executable's {} at byte {}: the name is REA's, not the installer's",
            payload.region, payload.at
        ));
        members.insert(entry.logical_path.clone(), entry);
    }
    crate::nested::send_listing(walk, members, prefix)
}

/// Where payloads may lie, as `(start, end, name)` byte ranges: the resource section's data,
/// and the overlay (from the end of the last section's data to the end of the file, less an
/// Authenticode signature at its end). `None` when the file is no PE.
fn regions(source: &ArchiveRange) -> Option<Vec<(u64, u64, &'static str)>> {
    let reader = SeekRange::new(source.archive.file.clone(), source.base, source.len);
    let cache = object::ReadCache::new(reader);
    let layout = match object::FileKind::parse(&cache).ok()? {
        object::FileKind::Pe32 => layout::<object::pe::ImageNtHeaders32>(&cache).ok()?,
        object::FileKind::Pe64 => layout::<object::pe::ImageNtHeaders64>(&cache).ok()?,
        _ => return None,
    };
    let (start, mut end) = (layout.sections_end, source.len);
    if let Some((at, len)) = layout.signature
        && at >= start
        && at.checked_add(len) == Some(end)
    {
        end = at;
    }
    let mut regions = Vec::new();
    if let Some((at, len)) = layout.resources
        && at.saturating_add(len) <= source.len
    {
        regions.push((at, at + len, "resources"));
    }
    if start < end {
        regions.push((start, end, "overlay"));
    }
    Some(regions)
}

/// What [`regions`] reads of a PE's layout (file offsets and lengths).
struct Layout {
    /// The end of the last section's raw data.
    sections_end: u64,
    /// The Authenticode signature (the security directory holds a file offset).
    signature: Option<(u64, u64)>,
    /// The resource section's data, from the resource directory to the end of its section.
    resources: Option<(u64, u64)>,
}

fn layout<Pe: object::read::pe::ImageNtHeaders>(
    data: &object::ReadCache<SeekRange>,
) -> object::read::Result<Layout> {
    use object::LittleEndian as LE;
    use object::read::pe::ImageOptionalHeader;
    let file = object::read::pe::PeFile::<Pe, _>::parse(data)?;
    let mut end = u64::from(file.nt_headers().optional_header().size_of_headers());
    for section in file.section_table().iter() {
        let (offset, size) = (
            u64::from(section.pointer_to_raw_data.get(LE)),
            u64::from(section.size_of_raw_data.get(LE)),
        );
        if size > 0 {
            end = end.max(offset + size);
        }
    }
    let directories = file.data_directories();
    let signature = directories
        .get(object::pe::IMAGE_DIRECTORY_ENTRY_SECURITY)
        .map(|d| {
            (
                u64::from(d.virtual_address.get(LE)),
                u64::from(d.size.get(LE)),
            )
        })
        .filter(|&(at, len)| at > 0 && len > 0);
    let resources = directories
        .get(object::pe::IMAGE_DIRECTORY_ENTRY_RESOURCE)
        .map(|d| d.virtual_address.get(LE))
        .filter(|&address| address > 0)
        .and_then(|address| file.section_table().pe_file_range_at(address))
        .map(|(at, len)| (u64::from(at), u64::from(len)));
    Ok(Layout {
        sections_end: end,
        signature,
        resources,
    })
}

/// The archives found by a start header that gives their length (from its first 36 bytes): a
/// signature, the extension a payload is named with, and the measure.
type Headed = (&'static [u8], &'static str, fn(&[u8]) -> Option<u64>);
const HEADED: [Headed; 2] = [
    (&crate::sevenz::SIGNATURE, "7z", crate::sevenz::archive_len),
    (&crate::cab::SIGNATURE, "cab", crate::cab::archive_len),
];

/// What [`search`] finds in one region.
struct Search {
    /// The archives, outermost first in file order.
    payloads: Vec<Payload>,
    /// Where an NSIS first header is (its flags, four bytes before its magic), if one is.
    nsis: Option<u64>,
    /// True when the search stopped at [`MAX_CANDIDATES`] before the region's end.
    cut_short: bool,
}

/// The archives in `start..end` of the executable, and any NSIS first header there.
fn search(
    walk: &mut Walk<'_, '_>,
    source: &ArchiveRange,
    (start, end): (u64, u64),
    region: &'static str,
) -> Result<Search, Failure> {
    // Reads inside this region only.
    let read = |at: u64, buf: &mut [u8]| -> bool {
        at.checked_add(buf.len() as u64)
            .is_some_and(|stop| stop <= end)
            && source.read_at(at, buf).is_some()
    };
    let mut found = Vec::new();
    let mut nsis = None;
    let overlap = NSIS_MAGIC.len() + 4;
    let mut buf = vec![0u8; CHUNK + overlap];
    let mut at = start;
    while at < end && found.len() < MAX_CANDIDATES {
        walk.cx.check()?;
        let want = (end - at).min(buf.len() as u64) as usize;
        if !read(at, &mut buf[..want]) {
            break;
        }
        let chunk = &buf[..want];
        // Matches that start in the overlap are found again by the next chunk.
        let own = if at + (want as u64) < end {
            CHUNK
        } else {
            want
        };
        if nsis.is_none()
            && let Some(hit) = memchr::memmem::find(chunk, NSIS_MAGIC)
            && hit >= 4
        {
            nsis = Some(at + hit as u64 - 4);
        }
        // Archives whose start header says how long they are.
        for (signature, ext, measure) in HEADED {
            for hit in memchr::memmem::find_iter(chunk, signature) {
                if hit >= own {
                    break;
                }
                let mut header = [0u8; 36];
                let here = at + hit as u64;
                if read(here, &mut header)
                    && let Some(len) = measure(&header)
                    && here.checked_add(len).is_some_and(|stop| stop <= end)
                {
                    found.push(Payload {
                        at: here,
                        len,
                        ext,
                        region,
                    });
                }
            }
        }
        for hit in memchr::memmem::find_iter(chunk, ZIP_END) {
            if hit >= own {
                break;
            }
            if let Some(payload) = zip_at(&read, at + hit as u64, region) {
                found.push(payload);
            }
        }
        at += own as u64;
    }
    // Outermost first: an archive inside another is the outer one's to expand.
    found.sort_by_key(|p| (p.at, std::cmp::Reverse(p.len)));
    let mut kept: Vec<Payload> = Vec::new();
    for payload in found {
        if kept.last().is_some_and(|k| payload.at < k.at + k.len) {
            continue;
        }
        kept.push(payload);
    }
    Ok(Search {
        payloads: kept,
        nsis,
        cut_short: at < end,
    })
}

/// The ZIP archive whose end-of-central-directory record is at `end_record`: it starts where
/// the record's central directory size and offset place it, if a local header is there and a
/// central directory header is where the directory starts.
fn zip_at(
    read: &dyn Fn(u64, &mut [u8]) -> bool,
    end_record: u64,
    region: &'static str,
) -> Option<Payload> {
    let mut record = [0u8; 22];
    if !read(end_record, &mut record) {
        return None;
    }
    let le32 = |b: &[u8]| u64::from(u32::from_le_bytes([b[0], b[1], b[2], b[3]]));
    let (cd_size, cd_offset) = (le32(&record[12..16]), le32(&record[16..20]));
    let comment = u64::from(u16::from_le_bytes([record[20], record[21]]));
    let cd_start = end_record.checked_sub(cd_size)?;
    let zip_start = cd_start.checked_sub(cd_offset)?;
    let mut sig = [0u8; 4];
    if !read(zip_start, &mut sig) || &sig != b"PK\x03\x04" {
        return None;
    }
    if cd_size > 0 && (!read(cd_start, &mut sig) || &sig != b"PK\x01\x02") {
        return None;
    }
    // The comment, the record's last field, must lie in the region too.
    let stop = end_record.checked_add(22 + comment)?;
    (comment == 0 || read(stop - 1, &mut [0u8])).then_some(Payload {
        at: zip_start,
        len: stop - zip_start,
        ext: "zip",
        region,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_magic_say_what_is_an_executable() {
        assert!(is_exe_name("Fixture Setup 1.0.0.EXE"));
        assert!(!is_exe_name("exe.json"));
        assert!(looks_like_exe(b"MZ\x90\x00"));
        assert!(!looks_like_exe(b"PK\x03\x04"));
    }

    /// Positioned reads of `bytes`, as [`zip_at`] takes them.
    fn reader(bytes: &[u8]) -> impl Fn(u64, &mut [u8]) -> bool + '_ {
        move |at, buf| match bytes.get(at as usize..at as usize + buf.len()) {
            Some(src) => {
                buf.copy_from_slice(src);
                true
            }
            None => false,
        }
    }

    #[test]
    fn a_zip_is_placed_by_its_end_record() {
        // A stored one-member zip after 100 bytes of something else.
        let mut zip = Vec::new();
        {
            let mut writer = ::zip::ZipWriter::new(std::io::Cursor::new(&mut zip));
            let options = ::zip::write::SimpleFileOptions::default()
                .compression_method(::zip::CompressionMethod::Stored);
            writer.start_file("a.txt", options).unwrap();
            std::io::Write::write_all(&mut writer, b"hello").unwrap();
            writer.finish().unwrap();
        }
        let mut bytes = vec![7u8; 100];
        bytes.extend_from_slice(&zip);
        bytes.extend_from_slice(&[9u8; 10]);
        let end_record = memchr::memmem::rfind(&bytes, ZIP_END).unwrap() as u64;
        let payload = zip_at(&reader(&bytes), end_record, "overlay").unwrap();
        assert_eq!((payload.at, payload.len), (100, zip.len() as u64));
        // A record whose directory would start before the file does is no zip.
        let mut broken = bytes.clone();
        broken[end_record as usize + 16] = 0xFF;
        assert_eq!(zip_at(&reader(&broken), end_record, "overlay"), None);
    }
}

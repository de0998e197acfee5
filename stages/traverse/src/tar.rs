//! The tar family: tar archives, plain or compressed (gzip, xz, zstd), and Debian packages
//! (`.deb`, an `ar` archive whose `data.tar.*` member holds the installed files).
//!
//! Linux builds of Electron applications ship this way (electron-builder's `tar.gz` and `deb`
//! targets). A plain tar is read in place: `tar` lists its headers with seeks, and each
//! member is a byte range of the file. A compressed tar cannot be read in place: its stream is
//! decompressed, bounded by `max_entry_bytes`, [`crate::nested::MAX_INFLATED_ARCHIVE`] and
//! `max_compression_ratio`, into an anonymous in-memory file, and read from there. A `.deb`
//! lists its `ar` members (read with the `ar` crate, which seeks over their data), and the
//! tar members among them are expanded like any nested archive.

use std::cell::Cell;
use std::collections::BTreeMap;
use std::io::{Read, Seek, SeekFrom};
use std::rc::Rc;

use rea_core::{Failure, FailureReason, Limits};
use rea_exec::StageCx;

use crate::entry::{ArchiveFile, ArchiveRange, Entry, EntryKind, EntrySource, WalkNotes};
use crate::nested::Walk;
use crate::read::SeekRange;

/// How a tar-family file is packed, from its name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Packing {
    Tar,
    Gzip,
    Xz,
    Zstd,
    /// A Debian package: an `ar` archive of tars.
    Deb,
}

/// Names of the tar family, by extension (lower case).
const TAR_FAMILY: [(&str, Packing); 9] = [
    (".tar", Packing::Tar),
    (".tar.gz", Packing::Gzip),
    (".tgz", Packing::Gzip),
    (".tar.xz", Packing::Xz),
    (".txz", Packing::Xz),
    (".tar.zst", Packing::Zstd),
    (".tzst", Packing::Zstd),
    (".deb", Packing::Deb),
    (".ipk", Packing::Deb),
];

/// How a name says its file is packed, if it is of the tar family.
pub fn packing_of(name: &str) -> Option<Packing> {
    TAR_FAMILY
        .iter()
        .find(|(ext, _)| crate::path::has_suffix(name, ext))
        .map(|(_, packing)| *packing)
}

/// Sends every member of the archive below `prefix` (`""` at the root), then expands the
/// archives it holds. A compressed stream that cannot be unpacked within bounds fails with
/// reason `format` and the note that says why (nested: the container's note).
pub fn walk(
    walk: &mut Walk<'_, '_>,
    source: &ArchiveRange,
    packing: Packing,
    prefix: &str,
) -> Result<(), Failure> {
    let (cx, limits, notes) = (walk.cx, walk.limits, &mut walk.notes);
    let listed = match packing {
        Packing::Tar => walk_tar(cx, source, prefix, limits, notes)?,
        Packing::Deb => walk_ar(cx, source, prefix, limits, notes)?,
        compressed => {
            let unpacked = unpack(cx, source, compressed, limits)?.map_err(|problem| {
                let problem = problem.trim_start_matches("not expanded: ").to_owned();
                Failure::new(FailureReason::Format, problem)
                    .with_detail("path", source.archive.path.to_string_lossy().into_owned())
            })?;
            walk_tar(cx, &unpacked, prefix, limits, notes)?
        }
    };
    crate::nested::send_listing(walk, listed, prefix)
}

/// A member name as a logical path below `prefix`, or why it was skipped. `Ok(None)` for the
/// archive's own root (`./`).
fn logical(prefix: &str, name: &str, limits: &Limits) -> Result<Option<String>, String> {
    let mut inner = name;
    while let Some(rest) = inner.strip_prefix("./") {
        inner = rest;
    }
    if inner.is_empty() || inner == "." {
        return Ok(None);
    }
    crate::zip::member_path(prefix, inner, limits).map(Some)
}

fn walk_tar(
    cx: &StageCx<'_>,
    source: &ArchiveRange,
    prefix: &str,
    limits: &Limits,
    notes: &mut WalkNotes,
) -> Result<BTreeMap<String, Entry>, Failure> {
    let reader = SeekRange::new(source.archive.file.clone(), source.base, source.len);
    let mut archive = ::tar::Archive::new(reader);
    let members_iter = archive
        .entries_with_seek()
        .map_err(|err| source.unreadable("tar archive", err))?;
    let mut members: BTreeMap<String, Entry> = BTreeMap::new();
    for (idx, member) in members_iter.enumerate() {
        cx.check()?;
        let member = match member {
            Ok(member) => member,
            // A header that does not parse ends the listing: what follows cannot be located.
            Err(err) if idx == 0 => return Err(source.unreadable("tar archive", err)),
            Err(err) => {
                notes.skip(
                    prefix,
                    format!("the listing stops at member {idx}: its header is malformed: {err}"),
                );
                break;
            }
        };
        let name = match member.path() {
            Ok(name) => match name.to_str() {
                Some(name) => name.to_owned(),
                None => {
                    notes.skip(
                        prefix,
                        format!("member {idx} was skipped: its name is not valid UTF-8"),
                    );
                    continue;
                }
            },
            Err(err) => {
                notes.skip(prefix, format!("member {idx} was skipped: {err}"));
                continue;
            }
        };
        let logical_path = match logical(prefix, &name, limits) {
            Ok(Some(path)) => path,
            Ok(None) => continue,
            Err(note) => {
                notes.skip(prefix, note);
                continue;
            }
        };
        let header = member.header();
        let kind = header.entry_type();
        let mut item = Entry::bare(logical_path, EntryKind::File);
        item.executable = header.mode().is_ok_and(|mode| mode & 0o111 != 0);
        match kind {
            ::tar::EntryType::Directory => {
                item.kind = EntryKind::Directory;
                item.executable = false;
            }
            ::tar::EntryType::Symlink | ::tar::EntryType::Link => {
                item.kind = EntryKind::Symlink;
                item.executable = false;
                match member.link_name() {
                    Ok(Some(target)) => {
                        item.link_target = Some(target.to_string_lossy().into_owned());
                    }
                    _ => item
                        .limitations
                        .push("link target could not be read".to_owned()),
                }
                if kind == ::tar::EntryType::Link {
                    item.limitations
                        .push("a hard link in the tar: its content is its target's".to_owned());
                }
            }
            ::tar::EntryType::Regular | ::tar::EntryType::Continuous => {
                let size = member.size();
                item.declared_size = Some(size);
                let offset = member.raw_file_position();
                if offset.checked_add(size).is_none_or(|end| end > source.len) {
                    item.limitations
                        .push("member data lies past the end of the archive".to_owned());
                } else {
                    item.source = EntrySource::Range {
                        archive: source.archive.clone(),
                        offset: source.base + offset,
                        len: size,
                    };
                }
            }
            ::tar::EntryType::GNUSparse => {
                item.declared_size = Some(member.size());
                item.limitations
                    .push("sparse member was not read".to_owned());
            }
            ::tar::EntryType::XGlobalHeader | ::tar::EntryType::XHeader => continue,
            other => {
                notes.skip(
                    prefix,
                    format!(
                        "member {} was skipped: a special file ({other:?})",
                        item.logical_path
                    ),
                );
                continue;
            }
        }
        crate::nested::keep_last(&mut members, item, prefix, notes);
    }
    Ok(members)
}

/// A reader that says where it stands, so that the `ar` crate's position can be read while it
/// owns the reader.
struct Tracked {
    inner: SeekRange,
    at: Rc<Cell<u64>>,
}

impl Read for Tracked {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.at.set(self.at.get() + n as u64);
        Ok(n)
    }
}

impl Seek for Tracked {
    fn seek(&mut self, to: SeekFrom) -> std::io::Result<u64> {
        let at = self.inner.seek(to)?;
        self.at.set(at);
        Ok(at)
    }
}

fn walk_ar(
    cx: &StageCx<'_>,
    source: &ArchiveRange,
    prefix: &str,
    limits: &Limits,
    notes: &mut WalkNotes,
) -> Result<BTreeMap<String, Entry>, Failure> {
    let at = Rc::new(Cell::new(0));
    let mut archive = ::ar::Archive::new(Tracked {
        inner: SeekRange::new(source.archive.file.clone(), source.base, source.len),
        at: Rc::clone(&at),
    });
    let mut members: BTreeMap<String, Entry> = BTreeMap::new();
    let mut idx = 0;
    while let Some(member) = archive.next_entry() {
        cx.check()?;
        let mut member = match member {
            Ok(member) => member,
            Err(err) if idx == 0 => return Err(source.unreadable("Debian package", err)),
            Err(err) => {
                notes.skip(
                    prefix,
                    format!("the listing stops at member {idx}: its header is malformed: {err}"),
                );
                break;
            }
        };
        idx += 1;
        let data_start = at.get();
        let size = member.header().size();
        let name = String::from_utf8_lossy(member.header().identifier()).into_owned();
        // Seeking to the end keeps the crate from reading the data to skip it.
        let skipped = member.seek(SeekFrom::End(0));
        drop(member);
        if skipped.is_err() {
            notes.skip(
                prefix,
                format!("the listing stops at member {name:?}: its data lies past the end"),
            );
            break;
        }
        let logical_path = match logical(prefix, name.trim_end_matches('/'), limits) {
            Ok(Some(path)) => path,
            Ok(None) => continue,
            Err(note) => {
                notes.skip(prefix, note);
                continue;
            }
        };
        let mut item = Entry::bare(logical_path, EntryKind::File);
        item.declared_size = Some(size);
        item.source = EntrySource::Range {
            archive: source.archive.clone(),
            offset: source.base + data_start,
            len: size,
        };
        crate::nested::keep_last(&mut members, item, prefix, notes);
    }
    Ok(members)
}

/// Decompresses a compressed tar into an anonymous in-memory file; the note says why it could
/// not be, within bounds.
pub(crate) fn unpack(
    cx: &StageCx<'_>,
    source: &ArchiveRange,
    packing: Packing,
    limits: &Limits,
) -> Result<Result<ArchiveRange, String>, Failure> {
    let raw = std::io::BufReader::with_capacity(
        1 << 16,
        SeekRange::new(source.archive.file.clone(), source.base, source.len),
    );
    let reader: Box<dyn Read> = match packing {
        Packing::Gzip => Box::new(flate2::bufread::MultiGzDecoder::new(raw)),
        Packing::Xz => Box::new(liblzma::bufread::XzDecoder::new_multi_decoder(raw)),
        Packing::Zstd => match zstd::stream::read::Decoder::with_buffer(raw) {
            Ok(decoder) => Box::new(decoder),
            Err(err) => return Ok(Err(format!("the zstd stream could not be opened: {err}"))),
        },
        Packing::Tar | Packing::Deb => {
            return Ok(Ok(source.clone()));
        }
    };
    let bound = crate::nested::decompression_bound(limits, source.len);
    let too_much = format!(
        "not expanded: the compressed tar decompresses to more than the {bound} bytes it may take in memory (max_entry_bytes, max_compression_ratio)"
    );
    let (file, len) =
        match crate::nested::into_memory(cx, reader, bound, "the compressed tar", &too_much)? {
            Ok(located) => located,
            Err(note) => return Ok(Err(note)),
        };
    Ok(Ok(ArchiveRange {
        archive: ArchiveFile {
            path: source.archive.path.clone(),
            file,
        },
        base: 0,
        len,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_say_how_a_file_is_packed() {
        assert_eq!(packing_of("app-1.0.0.tar.gz"), Some(Packing::Gzip));
        assert_eq!(packing_of("DATA.TAR.XZ"), Some(Packing::Xz));
        assert_eq!(packing_of("x.tzst"), Some(Packing::Zstd));
        assert_eq!(
            packing_of("slack-desktop_4.41_amd64.deb"),
            Some(Packing::Deb)
        );
        assert_eq!(packing_of("x.tar"), Some(Packing::Tar));
        assert_eq!(packing_of("x.tar.bz2"), None);
        assert_eq!(packing_of("x.gz"), None);
    }

    #[test]
    fn member_names_stay_inside() {
        let limits = Limits::default();
        assert_eq!(logical("", "./", &limits), Ok(None));
        assert_eq!(
            logical("pkg.deb/data.tar.xz", "./usr/lib/app/", &limits),
            Ok(Some("pkg.deb/data.tar.xz/usr/lib/app".to_owned()))
        );
        assert!(logical("", "../etc/passwd", &limits).is_err());
        assert!(logical("", "/etc/passwd", &limits).is_err());
        assert!(logical("", "./a/../../b", &limits).is_err());
    }
}

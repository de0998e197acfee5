//! NSIS installers (what electron-builder's `nsis` and `portable` targets build), listed by the
//! installer's own script: the files its `File` instructions extract, with the paths its
//! `SetOutPath` instructions give them, as 7-Zip's NSIS reader lists them.
//!
//! The installer's data follows its first header (flags, `0xDEADBEEF`, `NullsoftInst`, the
//! script header's size and the data's size) at a 512-byte boundary of the overlay. Either
//! every block is compressed on its own (a 32-bit length, its high bit set when the block is
//! compressed), the script header first, or the whole data is one compressed stream (`/SOLID`).
//! NSIS compresses with LZMA (a 5-byte properties header, then a raw stream with an end
//! marker: read by liblzma as an `.lzma` stream of unknown size) or zlib (raw deflate, read by
//! flate2); its own bzip2 variant is not read. A stored block is a byte range of the installer;
//! a compressed one is decompressed into the in-memory file, within the same bounds as a
//! compressed tar.
//!
//! The script header lists blocks (pages, sections, entries, strings, …); each entry is an
//! opcode and six parameters. REA reads two opcodes of NSIS 3: `CreateDir`/`SetOutPath` (11),
//! whose second parameter says it sets the output directory, and `ExtractFile` (20), whose
//! parameters are the file's name and its data's offset. Strings are UTF-16 (NSIS 3 Unicode,
//! electron-builder's default) with NSIS's codes for variables, shell folders and language
//! strings; `$INSTDIR` is the listing's root and other variables keep their names
//! (`$PLUGINSDIR/app-64.7z`). An installer this does not fit (ANSI strings, another opcode
//! table, bzip2) is an error the executable reader notes before it searches the overlay for
//! stored archives instead.

use std::collections::{BTreeMap, HashMap};
use std::io::Read;

use rea_core::Failure;

use crate::entry::{ArchiveFile, ArchiveRange, Entry, EntryKind, EntrySource};
use crate::nested::{Memory, Walk};
use crate::read::SeekRange;

/// What follows the first header's flags.
pub(crate) const MAGIC: &[u8] = b"\xEF\xBE\xAD\xDENullsoftInst";
const FIRST_HEADER: u64 = 28;
const OP_CREATE_DIR: i32 = 11;
const OP_EXTRACT_FILE: i32 = 20;
/// The script header's blocks: entries and strings.
const BLOCK_ENTRIES: usize = 2;
const BLOCK_STRINGS: usize = 3;
/// NSIS's string codes (Unicode): language string, shell folder, variable, literal.
const CODE_LANG: u16 = 1;
const CODE_SHELL: u16 = 2;
const CODE_VAR: u16 = 3;
const CODE_SKIP: u16 = 4;
/// The largest script header read (electron-builder's are tens of KiB).
const MAX_HEADER: u64 = 64 << 20;

/// The files the NSIS installer whose first header is at `at` (from the executable's start)
/// extracts, below `prefix` (none for an uninstaller, whose script extracts nothing); an error
/// says why the installer could not be read this way.
pub(crate) fn list(
    walk: &mut Walk<'_, '_>,
    source: &ArchiveRange,
    at: u64,
    prefix: &str,
) -> Result<Result<BTreeMap<String, Entry>, String>, Failure> {
    let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        Installer::open(walk, source, at).and_then(|installer| installer.list(walk, prefix))
    }));
    match outcome {
        Ok(Ok(listed)) => Ok(Ok(listed)),
        Ok(Err(Problem::Stop(failure))) => Err(failure),
        Ok(Err(Problem::Unreadable(why))) => Ok(Err(why)),
        Err(_) => Ok(Err("its script is malformed".to_owned())),
    }
}

enum Problem {
    /// Cancellation or a lost consumer: the run's, not the installer's.
    Stop(Failure),
    Unreadable(String),
}

impl From<String> for Problem {
    fn from(why: String) -> Problem {
        Problem::Unreadable(why)
    }
}

impl From<&str> for Problem {
    fn from(why: &str) -> Problem {
        Problem::Unreadable(why.to_owned())
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Method {
    Lzma,
    Deflate,
}

/// Where the file data lies.
enum Data {
    /// Each block on its own, from this offset of the executable.
    Blocks(u64),
    /// The solid stream's data (after the script header), decompressed into memory.
    Solid(ArchiveRange),
}

struct Installer<'s> {
    source: &'s ArchiveRange,
    /// The end of the installer's data (from the executable's start).
    end: u64,
    /// How the installer's blocks are compressed, as its script header's block was.
    method: Method,
    header: Vec<u8>,
    data: Data,
    memory: Memory,
    held: ArchiveFile,
    too_much: String,
}

impl<'s> Installer<'s> {
    fn open(walk: &Walk<'_, '_>, source: &'s ArchiveRange, at: u64) -> Result<Self, Problem> {
        let mut first = [0u8; FIRST_HEADER as usize];
        source
            .read_at(at, &mut first)
            .ok_or("its first header is cut short")?;
        let le32 =
            |i: usize| u32::from_le_bytes([first[i], first[i + 1], first[i + 2], first[i + 3]]);
        let (header_len, all_len) = (u64::from(le32(20)), u64::from(le32(24)));
        if header_len > MAX_HEADER {
            return Err(format!("its script header claims {header_len} bytes").into());
        }
        let end = at
            .checked_add(all_len)
            .filter(|&end| end <= source.len && all_len >= FIRST_HEADER)
            .ok_or("its data runs past the end of the file")?;
        let bound = crate::nested::decompression_bound(walk.limits, source.len);
        let too_much = format!(
            "the installer decompresses to more than the {bound} bytes it may take in memory (max_entry_bytes, max_compression_ratio)"
        );
        let memory = Memory::new("the installer", bound).map_err(Problem::Unreadable)?;
        let held = ArchiveFile {
            path: source.archive.path.clone(),
            file: memory.file.clone(),
        };
        let mut installer = Installer {
            source,
            end,
            method: Method::Lzma,
            header: Vec::new(),
            data: Data::Blocks(0),
            memory,
            held,
            too_much,
        };
        let start = at + FIRST_HEADER;
        // Blocks each on its own: the script header's block decompresses to its stated size
        // with one of the two methods, which is then the installer's.
        for method in [Method::Lzma, Method::Deflate] {
            if let Ok((header, next)) = installer.block_bytes(start, header_len, method)
                && header.len() as u64 == header_len
            {
                installer.method = method;
                installer.header = header;
                installer.data = Data::Blocks(next);
                return Ok(installer);
            }
        }
        installer.open_solid(walk, start, header_len)?;
        Ok(installer)
    }

    /// The whole data as one stream: its first 32 bits are the script header's size.
    fn open_solid(
        &mut self,
        walk: &Walk<'_, '_>,
        start: u64,
        header_len: u64,
    ) -> Result<(), Problem> {
        let mut head = [0u8; 1];
        self.source
            .read_at(start, &mut head)
            .ok_or("its data is cut short")?;
        let method = if head[0] == 0x5D {
            Method::Lzma
        } else {
            Method::Deflate
        };
        let mut stream = self.decoder(start, self.end - start, method)?;
        let mut len = [0u8; 4];
        stream
            .read_exact(&mut len)
            .map_err(|err| format!("its data does not decompress: {err}"))?;
        if u64::from(u32::from_le_bytes(len)) != header_len {
            return Err("its data is neither separate blocks nor one stream NSIS wrote".into());
        }
        let mut header = Vec::new();
        (&mut stream)
            .take(header_len)
            .read_to_end(&mut header)
            .map_err(|err| format!("its script header does not decompress: {err}"))?;
        if header.len() as u64 != header_len {
            return Err("its script header is cut short".into());
        }
        let (offset, len) = self
            .memory
            .append(walk.cx, &mut stream, "the installer", &self.too_much)
            .map_err(Problem::Stop)??;
        self.header = header;
        self.data = Data::Solid(ArchiveRange {
            archive: self.held.clone(),
            base: offset,
            len,
        });
        Ok(())
    }

    /// A reader of the stream compressed with `method` in `len` bytes at `at`.
    fn decoder(&self, at: u64, len: u64, method: Method) -> Result<Box<dyn Read + 's>, Problem> {
        let raw = SeekRange::new(self.source.archive.file.clone(), self.source.base + at, len);
        Ok(match method {
            Method::Deflate => Box::new(flate2::read::DeflateDecoder::new(raw)),
            Method::Lzma => {
                // NSIS writes the 5 properties bytes and an end-marked stream: an `.lzma`
                // stream once the unknown size (all ones) is put after the properties.
                let mut props = [0u8; 5];
                self.source
                    .read_at(at, &mut props)
                    .ok_or("its data is cut short")?;
                let mut alone = props.to_vec();
                alone.extend_from_slice(&[0xFF; 8]);
                let rest = SeekRange::new(
                    self.source.archive.file.clone(),
                    self.source.base + at + 5,
                    len.saturating_sub(5),
                );
                let stream = liblzma::stream::Stream::new_lzma_decoder(1 << 30)
                    .map_err(|err| format!("no LZMA decoder: {err}"))?;
                Box::new(liblzma::bufread::XzDecoder::new_stream(
                    std::io::BufReader::new(std::io::Cursor::new(alone).chain(rest)),
                    stream,
                ))
            }
        })
    }

    /// The block at `at`: its bytes (at most `want + 1` of them, decompressed with `method`
    /// when it is compressed) and where the next block starts. Used for the script header.
    fn block_bytes(&self, at: u64, want: u64, method: Method) -> Result<(Vec<u8>, u64), Problem> {
        let (compressed, len, next) = self.block_at(at)?;
        let mut out = Vec::new();
        if compressed {
            self.decoder(at + 4, len, method)?
                .take(want + 1)
                .read_to_end(&mut out)
                .map_err(|err| format!("a block does not decompress: {err}"))?;
        } else {
            if len > want + 1 {
                return Err("a stored block is larger than it may be".into());
            }
            out = vec![0u8; len as usize];
            self.source
                .read_at(at + 4, &mut out)
                .ok_or("its data is cut short")?;
        }
        Ok((out, next))
    }

    /// A block's header at `at`: whether it is compressed, its length, and where the next
    /// block starts.
    fn block_at(&self, at: u64) -> Result<(bool, u64, u64), Problem> {
        let mut word = [0u8; 4];
        self.source
            .read_at(at, &mut word)
            .ok_or("a block lies past the installer's data")?;
        let word = u32::from_le_bytes(word);
        let len = u64::from(word & 0x7FFF_FFFF);
        let next = at + 4 + len;
        if next > self.end {
            return Err("a block runs past the installer's data".into());
        }
        Ok((word & 0x8000_0000 != 0, len, next))
    }

    /// The bytes of the file whose data is at `offset` of the data.
    fn file_source(&mut self, walk: &Walk<'_, '_>, offset: u64) -> Result<EntrySource, Problem> {
        match &self.data {
            Data::Blocks(start) => {
                let at = start
                    .checked_add(offset)
                    .ok_or("a file's data offset overflows")?;
                let (compressed, len, _) = self.block_at(at)?;
                if !compressed {
                    return Ok(EntrySource::Range {
                        archive: self.source.archive.clone(),
                        offset: self.source.base + at + 4,
                        len,
                    });
                }
                let mut decoder = self.decoder(at + 4, len, self.method)?;
                match self
                    .memory
                    .append(walk.cx, &mut decoder, "the installer", &self.too_much)
                    .map_err(Problem::Stop)?
                {
                    Ok((offset, len)) => Ok(EntrySource::Range {
                        archive: self.held.clone(),
                        offset,
                        len,
                    }),
                    Err(note) => Err(note.into()),
                }
            }
            Data::Solid(stream) => {
                let mut word = [0u8; 4];
                stream
                    .read_at(offset, &mut word)
                    .ok_or("a file's data lies past the installer's data")?;
                let len = u64::from(u32::from_le_bytes(word) & 0x7FFF_FFFF);
                if offset + 4 + len > stream.len {
                    return Err("a file's data runs past the installer's data".into());
                }
                Ok(EntrySource::Range {
                    archive: stream.archive.clone(),
                    offset: stream.base + offset + 4,
                    len,
                })
            }
        }
    }

    fn list(
        mut self,
        walk: &mut Walk<'_, '_>,
        prefix: &str,
    ) -> Result<BTreeMap<String, Entry>, Problem> {
        let header = std::mem::take(&mut self.header);
        let block = |i: usize| -> Option<(usize, usize)> {
            let at = 4 + 8 * i;
            let word = |j: usize| {
                header
                    .get(j..j + 4)
                    .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as usize)
            };
            Some((word(at)?, word(at + 4)?))
        };
        let (entries_at, entry_count) =
            block(BLOCK_ENTRIES).ok_or("its script header is cut short")?;
        let (strings_at, _) = block(BLOCK_STRINGS).ok_or("its script header is cut short")?;
        let strings = header
            .get(strings_at..)
            .ok_or("its strings lie past its script header")?;
        if !looks_unicode(strings) {
            return Err("its strings are not UTF-16 (an ANSI installer)".into());
        }
        let entries = header
            .get(entries_at..entries_at.saturating_add(entry_count.saturating_mul(28)))
            .ok_or("its entries lie past its script header")?;
        let names = Strings { table: strings };
        let mut outdir = String::new();
        let mut saved_outdir = String::new();
        let mut sources: HashMap<u64, EntrySource> = HashMap::new();
        let mut members = BTreeMap::new();
        for entry in entries.chunks_exact(28) {
            walk.cx.check().map_err(|stop| Problem::Stop(stop.into()))?;
            let param = |i: usize| {
                i32::from_le_bytes([
                    entry[4 + 4 * i],
                    entry[5 + 4 * i],
                    entry[6 + 4 * i],
                    entry[7 + 4 * i],
                ])
            };
            match i32::from_le_bytes([entry[0], entry[1], entry[2], entry[3]]) {
                OP_CREATE_DIR if param(1) != 0 => {
                    let path = names.get(param(0), &outdir, &saved_outdir)?;
                    if !names.uses_saved_outdir(param(0)) {
                        saved_outdir = path.clone();
                    }
                    outdir = path;
                }
                OP_EXTRACT_FILE => {
                    let name = names.get(param(1), &outdir, &saved_outdir)?;
                    let full =
                        if name.starts_with('$') || name.starts_with('\\') || name.contains(':') {
                            name
                        } else {
                            format!("{outdir}\\{name}")
                        };
                    let relative = full.replace('\\', "/");
                    let relative = relative.trim_start_matches('/');
                    let offset =
                        u64::try_from(param(2)).map_err(|_| "a file's data offset is negative")?;
                    // One file whose data cannot be read is that file's limitation.
                    let (source, problem) = match sources.get(&offset) {
                        Some(source) => (source.clone(), None),
                        None => match self.file_source(walk, offset) {
                            Ok(source) => {
                                sources.insert(offset, source.clone());
                                (source, None)
                            }
                            Err(Problem::Stop(failure)) => return Err(Problem::Stop(failure)),
                            Err(Problem::Unreadable(why)) => (EntrySource::None, Some(why)),
                        },
                    };
                    if let Some(logical_path) = walk.member_path(prefix, relative) {
                        let mut item = Entry::bare(logical_path, EntryKind::File);
                        if let EntrySource::Range { len, .. } = source {
                            item.declared_size = Some(len);
                        }
                        item.source = source;
                        if let Some(why) = &problem {
                            item.limitations.push(format!("not read: {why}"));
                        }
                        crate::nested::keep_last(&mut members, item, prefix, &mut walk.notes);
                    }
                }
                _ => {}
            }
        }
        Ok(members)
    }
}

/// True when a string table reads as UTF-16: its first string is empty (two zero bytes), and
/// most of its high bytes are zero.
fn looks_unicode(strings: &[u8]) -> bool {
    let sample = &strings[..strings.len().min(4096) & !1];
    if sample.len() < 4 {
        return false;
    }
    let high_zero = sample.chunks_exact(2).filter(|pair| pair[1] == 0).count();
    high_zero * 4 >= sample.len() / 2 * 3
}

/// The script's string table (UTF-16).
struct Strings<'h> {
    table: &'h [u8],
}

impl Strings<'_> {
    /// The code units of the string at `index` (in UTF-16 units), up to its terminator.
    fn units(&self, index: i32) -> Result<Vec<u16>, Problem> {
        let start = usize::try_from(index).map_err(|_| "a string index is negative")? * 2;
        let bytes = self
            .table
            .get(start..)
            .ok_or("a string lies past the string table")?;
        let mut units = Vec::new();
        for pair in bytes.chunks_exact(2) {
            let unit = u16::from_le_bytes([pair[0], pair[1]]);
            if unit == 0 {
                return Ok(units);
            }
            units.push(unit);
            if units.len() > 32_768 {
                break;
            }
        }
        Err("a string has no end".into())
    }

    /// True when the string at `index` names `$_OUTDIR` (what `File /r` saves `$OUTDIR` in).
    fn uses_saved_outdir(&self, index: i32) -> bool {
        self.units(index).is_ok_and(|units| {
            units
                .windows(2)
                .any(|w| w[0] == CODE_VAR && decode_short(w[1]) == 31)
        })
    }

    /// The string at `index`, its codes expanded: `$INSTDIR` to nothing (the root), `$OUTDIR`
    /// to `outdir`, `$_OUTDIR` to `saved`, other variables and folders to their names.
    fn get(&self, index: i32, outdir: &str, saved: &str) -> Result<String, Problem> {
        let units = self.units(index)?;
        let mut out = String::new();
        let mut i = 0;
        while i < units.len() {
            let unit = units[i];
            if (CODE_LANG..=CODE_SKIP).contains(&unit) {
                let arg = *units.get(i + 1).ok_or("a string code has no argument")?;
                i += 2;
                match unit {
                    CODE_VAR => out.push_str(&variable(decode_short(arg), outdir, saved)),
                    CODE_SHELL => out.push_str(&format!("$SHELL{}", arg & 0xFF)),
                    CODE_LANG => out.push_str(&format!("$LANG{}", decode_short(arg))),
                    _ => out.push(char::from_u32(u32::from(arg)).unwrap_or('\u{FFFD}')),
                }
                continue;
            }
            let end = units[i..]
                .iter()
                .position(|u| (CODE_LANG..=CODE_SKIP).contains(u))
                .map_or(units.len(), |k| i + k);
            out.push_str(&String::from_utf16_lossy(&units[i..end]));
            i = end;
        }
        Ok(out)
    }
}

/// A variable index, as NSIS writes it in two 7-bit halves of one code unit.
fn decode_short(unit: u16) -> u16 {
    ((unit >> 8) & 0x7F) << 7 | (unit & 0x7F)
}

fn variable(index: u16, outdir: &str, saved: &str) -> String {
    const NAMES: [&str; 12] = [
        "$CMDLINE",
        "",
        "",
        "$EXEDIR",
        "$LANGUAGE",
        "$TEMP",
        "$PLUGINSDIR",
        "$EXEPATH",
        "$EXEFILE",
        "$HWNDPARENT",
        "$_CLICK",
        "",
    ];
    match index {
        0..=9 => format!("${index}"),
        10..=19 => format!("$R{}", index - 10),
        21 => String::new(),
        22 => outdir.to_owned(),
        31 => saved.to_owned(),
        20..=31 => NAMES[usize::from(index - 20)].to_owned(),
        _ => format!("$VAR{index}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn variables_decode_from_their_two_halves() {
        // $INSTDIR (21) and $_OUTDIR (31) as makensis 3 writes them.
        assert_eq!(decode_short(0x8095), 21);
        assert_eq!(decode_short(0x809F), 31);
        assert_eq!(variable(26, "", ""), "$PLUGINSDIR");
        assert_eq!(variable(21, "x", "y"), "");
        assert_eq!(variable(22, "x", "y"), "x");
        assert_eq!(variable(12, "", ""), "$R2");
    }

    #[test]
    fn utf16_tables_are_told_from_byte_strings() {
        let utf16: Vec<u8> = "\0a.txt\0sub\0"
            .encode_utf16()
            .flat_map(u16::to_le_bytes)
            .collect();
        assert!(looks_unicode(&utf16));
        assert!(!looks_unicode(b"\0a.txt\0sub\0more text here\0"));
    }
}

//! Archives inside containers, expanded in place to any depth that `max_depth` allows:
//! an ASAR or a zip-family archive found in a directory, in an ASAR, or stored in a ZIP.
//!
//! Nested bytes are never copied out to disk: a nested archive is read as a byte range of the
//! file that holds it. An archive in a compressed ZIP member (an app's `app.asar` deflated in
//! the zip it ships as) cannot be read as a range: it is inflated, with its CRC-32 checked, into
//! an anonymous in-memory file (`memfd_create`) of at most [`MAX_INFLATED_ARCHIVE`] bytes, which
//! its entries are then read from in place. A packed ASAR whose container declares its digest is hashed first,
//! and a mismatch quarantines it: its contents are not listed (the hash stage then fails or
//! records the contradiction, by policy).
//! Whatever stops one expansion is noted on the container's occurrence; only cancellation,
//! a lost consumer and `max_entries` stop the walk.

use crossbeam_channel::Sender;
use rea_core::{Failure, FailureReason, Limits};
use rea_exec::StageCx;

use crate::entry::{
    ArchiveFile, ArchiveRange, DeclaredIntegrity, Entry, EntryKind, EntrySource, WalkNotes,
    WalkTally, ZipMethod,
};
use crate::{asar, zip};

/// Nesting deeper than this is recorded, not expanded, whatever `max_depth` says.
const MAX_NESTING: usize = 16;

/// The largest archive inflated into memory from a compressed ZIP member to be expanded (and
/// never more than `max_entry_bytes`); a larger one is recorded, not expanded.
pub(crate) const MAX_INFLATED_ARCHIVE: u64 = 1 << 30;

/// What expanding one entry needs, taken before the entry is sent on.
pub(crate) struct Nested {
    logical_path: String,
    source: EntrySource,
    declared: Option<DeclaredIntegrity>,
    declared_size: Option<u64>,
    format: ArchiveFormat,
    /// An ASAR's `.unpacked` companion among its container's members.
    companion: Option<std::sync::Arc<asar::UnpackedMembers>>,
}

/// One walk of an input: the stage, the limits, the entry channel and tally, and what every
/// reader adds to as it goes (the notes on containers, and the count of entries sent, against
/// `max_entries`). Every reader takes it, so nested archives share one count and one set of
/// notes.
pub struct Walk<'a, 'cx> {
    pub cx: &'a StageCx<'cx>,
    pub limits: &'a Limits,
    pub tally: &'a WalkTally,
    pub out: &'a Sender<Entry>,
    pub notes: WalkNotes,
    pub n_entries: u64,
}

impl<'a, 'cx> Walk<'a, 'cx> {
    pub fn new(
        cx: &'a StageCx<'cx>,
        limits: &'a Limits,
        tally: &'a WalkTally,
        out: &'a Sender<Entry>,
    ) -> Walk<'a, 'cx> {
        Walk {
            cx,
            limits,
            tally,
            out,
            notes: WalkNotes::default(),
            n_entries: 0,
        }
    }

    /// The logical path of the member named `name` inside the container at `prefix`, or
    /// `None`, the container's note saying why the member was skipped (an unsafe or overlong
    /// name).
    pub(crate) fn member_path(&mut self, prefix: &str, name: &str) -> Option<String> {
        match crate::zip::member_path(prefix, name, self.limits) {
            Ok(path) => Some(path),
            Err(note) => {
                self.notes.skip(prefix, note);
                None
            }
        }
    }

    /// Counts `entry` against `max_entries` and sends it on; the archive it holds, when it is
    /// one to expand (after whatever the caller sends first).
    pub(crate) fn send(&mut self, entry: Entry) -> Result<Option<Nested>, Failure> {
        if self.n_entries >= self.limits.max_entries {
            return Err(crate::entry::too_many_entries(self.limits));
        }
        self.n_entries += 1;
        self.tally.add(&entry);
        let nested = candidate(&entry);
        if self.out.send(entry).is_err() {
            return Err(self.cx.disconnected());
        }
        Ok(nested)
    }
}

/// The archive formats REA walks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ArchiveFormat {
    Asar,
    Zip,
    Tar(crate::tar::Packing),
    /// A SquashFS image: an AppImage, a snap, a bare image.
    Squashfs,
    /// An RPM package.
    Rpm,
    /// A 7z archive.
    SevenZ,
    /// A Windows executable, for the archives its overlay holds (an installer's payload).
    Exe,
    /// A Windows Installer package.
    Msi,
    /// A cabinet.
    Cab,
    /// An Apple disk image.
    Dmg,
    /// A macOS flat package, or another XAR archive.
    Xar,
    /// A component package's `Payload` or `Scripts` (a compressed cpio archive).
    PkgPayload,
}

impl ArchiveFormat {
    /// The format a file named `name` is expanded as, when it is named like an archive REA
    /// walks: how nested archives are found.
    pub fn by_name(name: &str) -> Option<ArchiveFormat> {
        ArchiveFormat::detect(name, &[])
    }

    /// The format of an input file, by its name or its first bytes, each format in turn (an
    /// ASAR's magic wins over a `.zip` name, as it always has).
    pub fn of_input(name: &str, head: &[u8]) -> Option<ArchiveFormat> {
        ArchiveFormat::detect(name, head)
    }

    fn detect(name: &str, head: &[u8]) -> Option<ArchiveFormat> {
        let magic = !head.is_empty();
        if crate::path::has_suffix(name, ".asar") || (magic && asar::looks_like_asar(head)) {
            Some(ArchiveFormat::Asar)
        } else if zip::is_zip_name(name) || (magic && zip::looks_like_zip(head)) {
            Some(ArchiveFormat::Zip)
        } else if let Some(packing) = crate::tar::packing_of(name) {
            Some(ArchiveFormat::Tar(packing))
        } else if crate::squashfs::is_squashfs_name(name)
            || (magic && crate::squashfs::looks_like_squashfs(head))
        {
            Some(ArchiveFormat::Squashfs)
        } else if crate::rpm::is_rpm_name(name) || (magic && crate::rpm::looks_like_rpm(head)) {
            Some(ArchiveFormat::Rpm)
        } else if crate::sevenz::is_7z_name(name) || (magic && crate::sevenz::looks_like_7z(head)) {
            Some(ArchiveFormat::SevenZ)
        } else if crate::exe::is_exe_name(name) || (magic && crate::exe::looks_like_exe(head)) {
            Some(ArchiveFormat::Exe)
        } else if crate::msi::is_msi_name(name) {
            // By name only: the compound-file magic is also a Word or Excel document's.
            Some(ArchiveFormat::Msi)
        } else if crate::cab::is_cab_name(name) || (magic && crate::cab::looks_like_cab(head)) {
            Some(ArchiveFormat::Cab)
        } else if crate::payload::is_payload_name(name) {
            Some(ArchiveFormat::PkgPayload)
        } else if crate::xar::is_xar_name(name) || (magic && crate::xar::looks_like_xar(head)) {
            Some(ArchiveFormat::Xar)
        } else if crate::dmg::is_dmg_name(name) {
            // By name only: a disk image's trailer is at its end.
            Some(ArchiveFormat::Dmg)
        } else {
            None
        }
    }
}

/// Walks the archive at `source`, of `format`, below `prefix` (`""` for the input itself): the
/// one dispatch to the readers, for an input file and for a nested archive alike.
/// `unpacked` is where an ASAR's unpacked entries are read from.
pub fn walk_archive(
    walk: &mut Walk<'_, '_>,
    format: ArchiveFormat,
    source: ArchiveRange,
    unpacked: asar::Unpacked,
    prefix: &str,
) -> Result<(), Failure> {
    match format {
        ArchiveFormat::Asar => {
            let source = asar::AsarSource {
                archive: source.archive,
                base: source.base,
                len: source.len,
                unpacked,
            };
            let header = asar::read_header(walk.cx, &source)?;
            asar::walk(walk, &source, &header, prefix)
        }
        ArchiveFormat::Zip => zip::walk(walk, &source, prefix),
        ArchiveFormat::Tar(packing) => crate::tar::walk(walk, &source, packing, prefix),
        ArchiveFormat::Squashfs => crate::squashfs::walk(walk, &source, prefix),
        ArchiveFormat::Rpm => crate::rpm::walk(walk, &source, prefix),
        ArchiveFormat::SevenZ => crate::sevenz::walk(walk, &source, prefix),
        ArchiveFormat::Exe => crate::exe::walk(walk, &source, prefix),
        ArchiveFormat::Msi => crate::msi::walk(walk, &source, prefix),
        ArchiveFormat::Cab => crate::cab::walk(walk, &source, prefix),
        ArchiveFormat::Dmg => crate::dmg::walk(walk, &source, prefix),
        ArchiveFormat::Xar => crate::xar::walk(walk, &source, prefix),
        ArchiveFormat::PkgPayload => crate::payload::walk(walk, &source, prefix),
    }
}

/// The entry, when it is a file named like an archive we expand.
pub(crate) fn candidate(entry: &Entry) -> Option<Nested> {
    if entry.kind != EntryKind::File {
        return None;
    }
    let format = ArchiveFormat::by_name(&entry.logical_path)?;
    Some(Nested {
        logical_path: entry.logical_path.clone(),
        source: entry.source.clone(),
        declared: entry.declared.clone(),
        declared_size: entry.declared_size,
        format,
        companion: None,
    })
}

/// Expands one nested archive below its own logical path.
pub(crate) fn expand(walk: &mut Walk<'_, '_>, nested: Nested) -> Result<(), Failure> {
    let path = nested.logical_path.as_str();
    if nesting(path) > MAX_NESTING {
        walk.notes.skip(
            path,
            format!("not expanded: archives nested more than {MAX_NESTING} deep"),
        );
        return Ok(());
    }
    let (cx, limits) = (walk.cx, walk.limits);
    // An executable is searched for a payload only where its bytes can be read in place:
    // decompressing every compressed program of an application to look would cost more than
    // the rare installer inside an archive is worth.
    let in_place = matches!(
        nested.source,
        EntrySource::Fs { .. }
            | EntrySource::Range { .. }
            | EntrySource::ZipMember {
                method: ZipMethod::Stored,
                ..
            }
    );
    if nested.format == ArchiveFormat::Exe && !in_place {
        return Ok(());
    }
    let located = match &nested.source {
        EntrySource::Fs {
            path: file,
            dev,
            ino,
        } => open_fs(file, *dev, *ino),
        EntrySource::Range {
            archive,
            offset,
            len,
        } => Ok((archive.clone(), *offset, *len)),
        EntrySource::ZipMember {
            archive,
            offset,
            compressed_len,
            method: ZipMethod::Stored,
            ..
        } => Ok((archive.clone(), *offset, *compressed_len)),
        EntrySource::ZipMember {
            archive,
            offset,
            compressed_len,
            method,
            crc32,
        } => {
            let member = Member {
                archive,
                offset: *offset,
                compressed_len: *compressed_len,
                method: *method,
                crc32: *crc32,
                declared_size: nested.declared_size.unwrap_or(0),
            };
            inflate(cx, &member, limits)?
        }
        EntrySource::Squashfs { archive, file } => {
            crate::squashfs::into_memory(cx, archive, file, limits)?
        }
        EntrySource::None => return Ok(()),
    };
    let (archive, base, len) = match located {
        Ok(located) => located,
        Err(note) => {
            walk.notes.skip(path, note);
            return Ok(());
        }
    };
    if let Some(declared) = &nested.declared
        && !matches_declaration(cx, &archive, base, len, declared)?
    {
        walk.notes.skip(
            path,
            "quarantined: the archive's bytes contradict their declared integrity; not expanded"
                .to_owned(),
        );
        return Ok(());
    }
    let unpacked = match (&nested.source, nested.companion.clone()) {
        (EntrySource::Fs { path: file, .. }, _) => asar::Unpacked::beside(file),
        (_, Some(members)) => asar::Unpacked::Members(members),
        _ => asar::Unpacked::Missing,
    };
    let outcome = walk_archive(
        walk,
        nested.format,
        ArchiveRange { archive, base, len },
        unpacked,
        path,
    );
    match outcome {
        Err(failure) if failure.reason == FailureReason::Format => {
            walk.notes.skip(
                path,
                format!("not expanded as an archive: {}", failure.message),
            );
            Ok(())
        }
        other => other,
    }
}

/// Adds a listed member; a name listed again replaces the earlier member, as extractors do,
/// and the container's occurrence says so.
pub(crate) fn keep_last(
    members: &mut std::collections::BTreeMap<String, Entry>,
    entry: Entry,
    prefix: &str,
    notes: &mut WalkNotes,
) {
    if members.contains_key(&entry.logical_path) {
        notes.skip(
            prefix,
            format!(
                "member {} appears more than once; the last one is used",
                entry.logical_path
            ),
        );
    }
    members.insert(entry.logical_path.clone(), entry);
}

/// Sends a container's listing in path order, with the directories its paths imply (below
/// `prefix`) added, counting each entry against `max_entries` and expanding the archives
/// among them: what every archive reader does once it has listed its members.
pub(crate) fn send_listing(
    walk: &mut Walk<'_, '_>,
    mut members: std::collections::BTreeMap<String, Entry>,
    prefix: &str,
) -> Result<(), Failure> {
    let mut implied = Vec::new();
    for logical in members.keys() {
        let mut parent = logical.as_str();
        while let Some(at) = parent.rfind('/') {
            parent = &parent[..at];
            if parent.len() <= prefix.len() {
                break;
            }
            implied.push(parent.to_owned());
        }
    }
    for dir in implied {
        members
            .entry(dir.clone())
            .or_insert_with(|| Entry::directory(dir));
    }
    let mut companions = unpacked_companions(&members);
    for (path, entry) in members {
        walk.cx.check()?;
        if let Some(mut nested) = walk.send(entry)? {
            nested.companion = companions.remove(&path);
            expand(walk, nested)?;
        }
    }
    Ok(())
}

/// For each ASAR among a container's `members`, its `.unpacked` companion's members (by their
/// path inside the companion), when the container holds the companion: an application packed
/// with its `resources/app.asar.unpacked/` beside its `resources/app.asar`.
fn unpacked_companions(
    members: &std::collections::BTreeMap<String, Entry>,
) -> std::collections::HashMap<String, std::sync::Arc<asar::UnpackedMembers>> {
    let mut companions = std::collections::HashMap::new();
    for (path, entry) in members {
        if entry.kind != EntryKind::File
            || ArchiveFormat::by_name(path) != Some(ArchiveFormat::Asar)
        {
            continue;
        }
        let folder = format!("{path}.unpacked/");
        let inside: asar::UnpackedMembers = members
            .range(folder.clone()..)
            .take_while(|(member, _)| member.starts_with(&folder))
            .map(|(member, e)| {
                (
                    member[folder.len()..].to_owned(),
                    (e.kind, e.source.clone()),
                )
            })
            .collect();
        if !inside.is_empty() {
            companions.insert(path.clone(), std::sync::Arc::new(inside));
        }
    }
    companions
}

/// Lists a container with `lister`, inside `catch_unwind` (a panic in a crate that reads its
/// untrusted bytes is this container's `format` failure as `what`, not the run's), then sends
/// the listing ([`send_listing`]).
pub(crate) fn send_guarded(
    walk: &mut Walk<'_, '_>,
    source: &ArchiveRange,
    prefix: &str,
    what: &str,
    lister: impl FnOnce(
        &mut Walk<'_, '_>,
        &ArchiveRange,
        &str,
    ) -> Result<std::collections::BTreeMap<String, Entry>, Failure>,
) -> Result<(), Failure> {
    let listed = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        lister(walk, source, prefix)
    }))
    .unwrap_or_else(|_| Err(source.unreadable(what, "its structures are malformed")))?;
    send_listing(walk, listed, prefix)
}

/// A compressed ZIP member that holds an archive.
struct Member<'a> {
    archive: &'a ArchiveFile,
    offset: u64,
    compressed_len: u64,
    method: ZipMethod,
    crc32: u32,
    declared_size: u64,
}

/// Inflates `member` into an anonymous in-memory file, checking cancellation per chunk, the
/// declared size (never more, never fewer) and the CRC-32. A member that cannot be expanded
/// gives the note that says why.
fn inflate(
    cx: &StageCx<'_>,
    member: &Member<'_>,
    limits: &Limits,
) -> Result<Result<(ArchiveFile, u64, u64), String>, Failure> {
    use crate::read::{CrcReader, zip_member};
    let bound = limits.max_entry_bytes.min(MAX_INFLATED_ARCHIVE);
    let declared = member.declared_size;
    if declared > bound {
        return Ok(Err(format!(
            "not expanded: the archive in this compressed ZIP member inflates to {declared} bytes, over the {bound} bytes it may take in memory"
        )));
    }
    let mut reader = CrcReader::new(zip_member(
        member.archive,
        member.offset,
        member.compressed_len,
        member.method,
    ));
    let (memory, total) = match into_memory(
        cx,
        &mut reader,
        declared,
        "the compressed member",
        "not expanded: the compressed member inflates to more than its declared size",
    )? {
        Ok(located) => located,
        Err(note) => return Ok(Err(note)),
    };
    if total != declared {
        return Ok(Err(format!(
            "not expanded: the compressed member inflates to {total} bytes, not the {declared} it declares"
        )));
    }
    if reader.crc.finalize() != member.crc32 {
        return Ok(Err(
            "not expanded: the compressed member's bytes fail their CRC-32".to_owned(),
        ));
    }
    let archive = ArchiveFile {
        path: member.archive.path.clone(),
        file: memory,
    };
    Ok(Ok((archive, 0, total)))
}

/// Streams `reader` into an anonymous in-memory file of at most `bound` bytes, checking
/// cancellation per chunk; the file and its length, or the note that says why it could not
/// be held (`what` names the stream in the note; `too_much` is the note past `bound`).
pub(crate) fn into_memory(
    cx: &StageCx<'_>,
    reader: impl std::io::Read,
    bound: u64,
    what: &str,
    too_much: &str,
) -> Result<Result<(std::sync::Arc<std::fs::File>, u64), String>, Failure> {
    let mut memory = match Memory::new(what, bound) {
        Ok(memory) => memory,
        Err(note) => return Ok(Err(note)),
    };
    Ok(memory
        .append(cx, reader, what, too_much)?
        .map(|(_, len)| (memory.file, len)))
}

/// How many bytes a compressed container of `compressed` bytes may decompress to in memory:
/// at most `max_entry_bytes`, [`MAX_INFLATED_ARCHIVE`] and `max_compression_ratio` times its
/// size (never under 1 MiB, so that small containers of text still open).
pub(crate) fn decompression_bound(limits: &Limits, compressed: u64) -> u64 {
    let by_ratio = (compressed as f64 * limits.max_compression_ratio).min(u64::MAX as f64) as u64;
    limits
        .max_entry_bytes
        .min(MAX_INFLATED_ARCHIVE)
        .min(by_ratio.max(1 << 20))
}

/// An anonymous in-memory file (`memfd_create`) that streams are appended to, all of them
/// within one bound: where a compressed container's members are decompressed to be read in
/// place.
pub(crate) struct Memory {
    pub file: std::sync::Arc<std::fs::File>,
    len: u64,
    bound: u64,
    buf: Vec<u8>,
}

impl Memory {
    /// An empty in-memory file, or the note that says why there is none (`what` names what
    /// it was to hold).
    pub(crate) fn new(what: &str, bound: u64) -> Result<Memory, String> {
        let file = rustix::fs::memfd_create("rea-nested-archive", rustix::fs::MemfdFlags::CLOEXEC)
            .map(std::fs::File::from)
            .map_err(|err| format!("not expanded: no in-memory file for {what}: {err}"))?;
        Ok(Memory {
            file: std::sync::Arc::new(file),
            len: 0,
            bound,
            buf: vec![0u8; rea_core::CHUNK_BYTES],
        })
    }

    /// Appends what `reader` gives, checking cancellation per chunk: where it starts in the
    /// file and how long it is, or the note that says why it could not be held (`too_much`
    /// past the bound).
    pub(crate) fn append(
        &mut self,
        cx: &StageCx<'_>,
        mut reader: impl std::io::Read,
        what: &str,
        too_much: &str,
    ) -> Result<Result<(u64, u64), String>, Failure> {
        use std::io::Write;
        let start = self.len;
        loop {
            cx.check()?;
            let n = match reader.read(&mut self.buf) {
                Ok(0) => break,
                Ok(n) => n,
                Err(err) => {
                    return Ok(Err(format!(
                        "not expanded: {what} could not be decompressed: {err}"
                    )));
                }
            };
            self.len += n as u64;
            if self.len > self.bound {
                return Ok(Err(too_much.to_owned()));
            }
            if let Err(err) = (&*self.file).write_all(&self.buf[..n]) {
                return Ok(Err(format!(
                    "not expanded: {what} could not be held in memory: {err}"
                )));
            }
        }
        Ok(Ok((start, self.len - start)))
    }
}

/// How many archives deep a logical path is.
fn nesting(path: &str) -> usize {
    path.split('/')
        .filter(|part| ArchiveFormat::by_name(part).is_some())
        .count()
}

fn open_fs(file: &std::path::Path, dev: u64, ino: u64) -> Result<(ArchiveFile, u64, u64), String> {
    use std::os::unix::fs::MetadataExt;
    let opened = std::fs::File::open(file)
        .map_err(|err| format!("not expanded: the archive could not be opened: {err}"))?;
    let meta = opened
        .metadata()
        .map_err(|err| format!("not expanded: {err}"))?;
    if !meta.is_file() || meta.dev() != dev || meta.ino() != ino {
        return Err("not expanded: the file changed during traversal".to_owned());
    }
    let archive = ArchiveFile {
        path: std::sync::Arc::from(file),
        file: std::sync::Arc::new(opened),
    };
    Ok((archive, 0, meta.len()))
}

/// Hashes a range and compares it with a declared SHA-256 (other algorithms: not checked here).
fn matches_declaration(
    cx: &StageCx<'_>,
    archive: &ArchiveFile,
    base: u64,
    len: u64,
    declared: &DeclaredIntegrity,
) -> Result<bool, Failure> {
    use sha2::Digest;
    if !declared.algorithm.eq_ignore_ascii_case("sha256") {
        return Ok(true);
    }
    let mut hasher = sha2::Sha256::new();
    let mut buf = vec![0u8; rea_core::CHUNK_BYTES];
    let mut at = 0;
    while at < len {
        cx.check()?;
        let want = (len - at).min(buf.len() as u64) as usize;
        if std::os::unix::fs::FileExt::read_exact_at(&*archive.file, &mut buf[..want], base + at)
            .is_err()
        {
            return Ok(false);
        }
        hasher.update(&buf[..want]);
        at += want as u64;
    }
    Ok(hex::encode(hasher.finalize()) == declared.hash)
}

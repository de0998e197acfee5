//! Electron fuses: the feature switches an application's packager flips in the Electron binary
//! itself (`RunAsNode`, `EnableEmbeddedAsarIntegrityValidation`, `OnlyLoadAppFromAsar`, …).
//!
//! The binary carries a fuse wire: the sentinel `dL7pKGdnNz796PbbjQWNKmHXBZaB9tsX`, one byte of
//! wire version (1), one byte of length, then one byte per fuse: `'1'` enabled, `'0'` disabled,
//! `'r'` removed (and `0x90`, which `@electron/fuses` writes as "inherit"). The wire sits in the
//! Windows executable, the Linux executable, or a macOS bundle's
//! `Contents/Frameworks/<Name> Framework.framework/Versions/<v>/<Name> Framework`, beside or
//! above the application's ASAR archives, which is where this module looks, and only there: the
//! whole binary is scanned for the sentinel, a read of every byte.

use rea_core::{Failure, FailureReason};
use rea_exec::StageCx;
use rea_hash::{HashOutcome, HashedEntry};
use rea_traverse::{EntryKind, WalkNotes};

use super::asar_integrity::{below, is_executable_beside_an_archive, read_whole};
use super::types::{AsarHeader, ElectronFuses, Fuse};

const SENTINEL: &[u8] = b"dL7pKGdnNz796PbbjQWNKmHXBZaB9tsX";
/// Fuse names by wire position (`@electron/fuses`' `FuseV1Options`).
const NAMES: [&str; 9] = [
    "RunAsNode",
    "EnableCookieEncryption",
    "EnableNodeOptionsEnvironmentVariable",
    "EnableNodeCliInspectArguments",
    "EnableEmbeddedAsarIntegrityValidation",
    "OnlyLoadAppFromAsar",
    "LoadBrowserProcessSpecificV8Snapshot",
    "GrantFileProtocolExtraPrivileges",
    "WasmTrapHandlers",
];
/// Bytes read at a time while scanning.
const CHUNK: usize = 1 << 20;
/// The largest binary inflated from a deflated member to be scanned.
const MAX_INFLATED_BINARY: u64 = 512 << 20;

/// The fuse wire of every binary in `hashed` (sorted by logical path) that Electron would read
/// it from. `of_entry` gives an entry's occurrence id.
pub(super) fn read(
    cx: &StageCx<'_>,
    hashed: &[HashedEntry],
    notes: &WalkNotes,
    of_entry: &dyn Fn(usize) -> String,
    limitations: &mut Vec<String>,
) -> Result<Vec<ElectronFuses>, Failure> {
    let mut out = Vec::new();
    if notes.asar_headers.keys().all(String::is_empty) {
        return Ok(out);
    }
    for (i, item) in hashed.iter().enumerate() {
        cx.check()?;
        let entry = &item.entry;
        if entry.kind != EntryKind::File
            || !matches!(item.outcome, HashOutcome::Hashed(..))
            || !may_hold_fuses(&entry.logical_path, entry.executable, notes)
        {
            continue;
        }
        let path = entry.logical_path.as_str();
        let mut scan = Scan::default();
        let scanned = match rea_hash::random_access(entry) {
            Some(Ok(mut reader)) => scan.read_all(cx, &mut reader),
            Some(Err(failure)) => Err(failure),
            None => rea_hash::copy_entry(cx, entry, MAX_INFLATED_BINARY, &mut scan).map(drop),
        };
        match scanned {
            Ok(()) => {}
            Err(failure) if failure.reason == FailureReason::Cancelled => return Err(failure),
            Err(failure) => {
                limitations.push(format!(
                    "{path} could not be read for Electron fuses: {}",
                    failure.message
                ));
                continue;
            }
        }
        let Some(wire) = scan.wire else {
            continue;
        };
        let (electron_version, electron_version_source) =
            match electron_version(cx, hashed, path, limitations)? {
                Some((version, source)) => (Some(version), Some(source)),
                None => (None, None),
            };
        out.push(ElectronFuses {
            electron_version,
            electron_version_source,
            fuses: wire
                .states
                .iter()
                .enumerate()
                .map(|(index, &byte)| Fuse {
                    index: index as u64,
                    name: NAMES
                        .get(index)
                        .map_or_else(|| format!("fuse-{index}"), |n| (*n).to_owned()),
                    state: state(byte),
                })
                .collect(),
            logical_path: path.to_owned(),
            occurrence_id: of_entry(i),
            wire_version: u64::from(wire.version),
        });
    }
    Ok(out)
}

/// Limitations for archives the binary's integrity fuse covers but nothing declares: Electron
/// opens no archive of that application (it stops at the first one it cannot find a
/// declaration for).
pub(super) fn undeclared_under_the_fuse(
    fuses: &[ElectronFuses],
    headers: &[AsarHeader],
) -> Vec<String> {
    let mut out = Vec::new();
    for binary in fuses {
        let enforced = binary
            .fuses
            .iter()
            .any(|f| f.name == "EnableEmbeddedAsarIntegrityValidation" && f.state == "enabled");
        if !enforced {
            continue;
        }
        let path = binary.logical_path.as_str();
        let root = match path.find("Contents/Frameworks/") {
            Some(at) => path[..at + "Contents".len()].to_owned(),
            None => path.rsplit_once('/').map_or("", |(dir, _)| dir).to_owned(),
        };
        for header in headers {
            if header.status == "undeclared" && below(&header.logical_path, &root).is_some() {
                out.push(format!(
                    "{path} enables EnableEmbeddedAsarIntegrityValidation, but nothing declares the integrity of {}: Electron would refuse to open it",
                    header.logical_path
                ));
            }
        }
    }
    out
}

/// The Electron version a binary belongs to, and the file that says so: on macOS the
/// framework's `Resources/Info.plist` (`CFBundleVersion`), elsewhere the `version` file
/// Electron's distributions put beside the executable.
fn electron_version(
    cx: &StageCx<'_>,
    hashed: &[HashedEntry],
    binary: &str,
    limitations: &mut Vec<String>,
) -> Result<Option<(String, String)>, Failure> {
    let dir = binary.rsplit_once('/').map_or("", |(dir, _)| dir);
    let framework = dir.contains(".framework/Versions/");
    let source = if framework {
        format!("{dir}/Resources/Info.plist")
    } else if dir.is_empty() {
        "version".to_owned()
    } else {
        format!("{dir}/version")
    };
    let Ok(i) = hashed.binary_search_by(|h| h.entry.logical_path.as_str().cmp(&source)) else {
        return Ok(None);
    };
    let cap = if framework { 1 << 20 } else { 64 };
    let Some(bytes) = read_whole(cx, &hashed[i], cap, limitations)? else {
        return Ok(None);
    };
    let version = if framework {
        plist::Value::from_reader(std::io::Cursor::new(&bytes))
            .ok()
            .and_then(|value| {
                value
                    .as_dictionary()?
                    .get("CFBundleVersion")?
                    .as_string()
                    .map(str::to_owned)
            })
    } else {
        std::str::from_utf8(&bytes)
            .ok()
            .map(|text| text.trim().to_owned())
    };
    Ok(version.filter(|v| is_version(v)).map(|v| (v, source)))
}

/// `major.minor.patch`, with an optional pre-release or build suffix.
fn is_version(text: &str) -> bool {
    let core = text.split(['-', '+']).next().unwrap_or("");
    let parts: Vec<&str> = core.split('.').collect();
    text.len() <= 64
        && parts.len() == 3
        && parts
            .iter()
            .all(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()))
        && text
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-+.".contains(&b))
}

/// A Windows or Linux executable in a directory holding an archive, or a macOS bundle's
/// framework binary (`…/Contents/Frameworks/X.framework/Versions/v/X`) whose bundle holds one.
fn may_hold_fuses(path: &str, executable: bool, notes: &WalkNotes) -> bool {
    let (dir, name) = path.rsplit_once('/').unwrap_or(("", path));
    if is_executable_beside_an_archive(path, notes) {
        return true;
    }
    let archive_below = |dir: &str| {
        notes
            .asar_headers
            .keys()
            .any(|archive| !archive.is_empty() && below(archive, dir).is_some())
    };
    if executable && !name.contains('.') && archive_below(dir) {
        return true;
    }
    let mut parts = dir.rsplitn(4, '/');
    let (_version, versions, framework, rest) =
        (parts.next(), parts.next(), parts.next(), parts.next());
    let Some(contents) = rest.and_then(|r| r.strip_suffix("Frameworks")) else {
        return false;
    };
    let contents = contents.strip_suffix('/').unwrap_or(contents);
    versions == Some("Versions")
        && framework.and_then(|f| f.strip_suffix(".framework")) == Some(name)
        && (contents == "Contents" || contents.ends_with("/Contents"))
        && archive_below(contents)
}

fn state(byte: u8) -> String {
    match byte {
        b'1' => "enabled".to_owned(),
        b'0' => "disabled".to_owned(),
        b'r' => "removed".to_owned(),
        0x90 => "inherit".to_owned(),
        other => format!("unknown-0x{other:02x}"),
    }
}

struct Wire {
    version: u8,
    states: Vec<u8>,
}

/// Finds the first fuse wire in a stream written to it in pieces.
#[derive(Default)]
struct Scan {
    /// The end of what was seen, enough to hold a sentinel cut by a piece boundary and the
    /// wire after it.
    window: Vec<u8>,
    wire: Option<Wire>,
}

/// Sentinel, version, length, and at most 255 states.
const WINDOW: usize = SENTINEL.len() + 2 + 255;

impl Scan {
    fn feed(&mut self, bytes: &[u8]) {
        if self.wire.is_some() {
            return;
        }
        self.window.extend_from_slice(bytes);
        if let Some(at) = memchr::memmem::find(&self.window, SENTINEL) {
            let rest = &self.window[at + SENTINEL.len()..];
            if let [version, len, states @ ..] = rest
                && states.len() >= usize::from(*len)
            {
                self.wire = Some(Wire {
                    version: *version,
                    states: states[..usize::from(*len)].to_vec(),
                });
            } else if rest.len() >= WINDOW - SENTINEL.len() {
                // Cannot happen: a length byte allows at most 255 states.
                self.window.clear();
            } else {
                // Keep from the sentinel on until the wire is whole.
                self.window.drain(..at);
            }
            return;
        }
        let keep = SENTINEL.len() - 1;
        if self.window.len() > keep {
            self.window.drain(..self.window.len() - keep);
        }
    }

    fn read_all(
        &mut self,
        cx: &StageCx<'_>,
        reader: &mut dyn rea_hash::ReadSeek,
    ) -> Result<(), Failure> {
        let mut buf = vec![0u8; CHUNK];
        loop {
            cx.check()?;
            let n = match reader.read(&mut buf) {
                Ok(0) => return Ok(()),
                Ok(n) => n,
                Err(err) if err.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(err) => {
                    return Err(Failure::new(FailureReason::Io, "binary could not be read")
                        .with_source(err));
                }
            };
            self.feed(&buf[..n]);
            if self.wire.is_some() {
                return Ok(());
            }
        }
    }
}

impl std::io::Write for Scan {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.feed(bytes);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn wire(states: &[u8]) -> Vec<u8> {
        let mut bytes = SENTINEL.to_vec();
        bytes.push(1);
        bytes.push(states.len() as u8);
        bytes.extend_from_slice(states);
        bytes
    }

    #[test]
    fn a_wire_is_found_across_any_piece_boundary() {
        let mut data = vec![b'x'; 1000];
        data.extend(wire(b"01r1\x900"));
        data.extend(vec![b'y'; 100]);
        for piece in [1, 2, 7, 31, 32, 33, 64, 4096] {
            let mut scan = Scan::default();
            for chunk in data.chunks(piece) {
                scan.feed(chunk);
            }
            let found = scan.wire.expect("found");
            assert_eq!(found.version, 1, "{piece}");
            assert_eq!(found.states, b"01r1\x900", "{piece}");
        }
        let states: Vec<String> = b"01r\x90\x07".iter().map(|&b| state(b)).collect();
        assert_eq!(
            states,
            ["disabled", "enabled", "removed", "inherit", "unknown-0x07"]
        );
    }

    #[test]
    fn versions_look_like_electron_s() {
        for good in ["28.1.0", "33.0.0-beta.3", "1.2.3+build.4"] {
            assert!(is_version(good), "{good}");
        }
        for bad in ["28.1", "v28.1.0", "28.1.0\n\0", "", "a.b.c", "1.2.3 4"] {
            assert!(!is_version(bad), "{bad:?}");
        }
    }

    #[test]
    fn a_wire_cut_short_by_the_end_is_not_reported() {
        let mut data = wire(b"0101");
        data.truncate(data.len() - 1);
        let mut scan = Scan::default();
        scan.feed(&data);
        assert!(scan.wire.is_none());
    }

    #[test]
    fn binaries_electron_reads_fuses_from() {
        let mut notes = WalkNotes::default();
        for archive in [
            "win/resources/app.asar",
            "Foo.app/Contents/Resources/app.asar",
        ] {
            notes.asar_headers.insert(
                archive.to_owned(),
                rea_traverse::HeaderDigest {
                    sha256: String::new(),
                    size: 0,
                },
            );
        }
        assert!(may_hold_fuses("win/App.exe", false, &notes));
        assert!(may_hold_fuses("win/app", true, &notes));
        assert!(!may_hold_fuses("win/app", false, &notes));
        assert!(!may_hold_fuses("win/libEGL.dll", true, &notes));
        assert!(!may_hold_fuses("other/App.exe", false, &notes));
        assert!(may_hold_fuses(
            "Foo.app/Contents/Frameworks/Electron Framework.framework/Versions/A/Electron Framework",
            false,
            &notes
        ));
        assert!(!may_hold_fuses(
            "Foo.app/Contents/Frameworks/Electron Framework.framework/Versions/A/Resources/x",
            false,
            &notes
        ));
        assert!(!may_hold_fuses("Foo.app/Contents/MacOS/Foo", true, &notes));
    }
}

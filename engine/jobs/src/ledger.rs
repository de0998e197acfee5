//! The Evidence ledger and Evidence bundles.
//!
//! A [`Ledger`] retains validated records by `evidence_id` (one per MCP connection). Its
//! bundle is canonical JSON (RFC 8785) with these keys, which is also their canonical order:
//!
//! - `artifacts`: the distinct subjects `{digest: {sha256}, format, architecture}`;
//! - `bundle_version`: `2`;
//! - `captures`, `environments`, `scenarios`, `unknowns`: always empty (REA records no process
//!   captures, environments, controlled replays or residual unknowns);
//! - `providers`: the distinct `{id, name, version}`;
//! - `records`: every record, sorted by `evidence_id`.
//!
//! Manifests (`artifacts`, `providers`) are deduplicated and sorted by their canonical JSON, so
//! a bundle is a pure function of its set of records. [`Ledger::write_bundle`] streams it record
//! by record; [`parse_bundle`] accepts a bundle only if every record validates again (ids
//! recomputed) and the manifests equal the ones rebuilt from the records.

use std::collections::{BTreeMap, BTreeSet};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use rea_core::{CHUNK_BYTES, CancelToken, Failure, FailureReason};
use rea_hash::canonical_bytes;
use serde_json::{Value, json};

/// Records a ledger holds at most.
pub const MAX_RECORDS: usize = 10_000;
/// Bytes of canonical records a ledger holds at most. Larger than the reference's 64 MiB: one
/// real application's graph is already tens of MB.
pub const MAX_BYTES: u64 = 2 << 30;

/// One retained record: its canonical bytes and the parts the bundle manifests need.
#[derive(Debug, Clone)]
struct Entry {
    bytes: Arc<[u8]>,
    artifact: Option<String>,
    provider: String,
}

/// What recording did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Recorded {
    Added,
    /// The same id was already retained; ids commit to content, so nothing changes.
    Duplicate,
}

/// What an import did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Imported {
    pub added: usize,
    pub duplicates: usize,
    pub total: usize,
}

/// What an export wrote.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Exported {
    pub path: PathBuf,
    pub bytes: u64,
    pub records: usize,
}

/// Validated Evidence, by id.
#[derive(Debug, Default)]
pub struct Ledger {
    records: BTreeMap<String, Entry>,
    bytes: u64,
}

impl Ledger {
    pub fn new() -> Ledger {
        Ledger::default()
    }

    pub fn len(&self) -> usize {
        self.records.len()
    }

    pub fn is_empty(&self) -> bool {
        self.records.is_empty()
    }

    /// The canonical bytes of record `id`, if retained.
    pub fn get(&self, id: &str) -> Option<Arc<[u8]>> {
        self.records.get(id).map(|entry| Arc::clone(&entry.bytes))
    }

    /// Retains `record`, the canonical bytes of a record that already passed validation (as
    /// [`crate::Published::record`] holds).
    pub fn record(&mut self, evidence_id: &str, record: &[u8]) -> Result<Recorded, Failure> {
        if self.records.contains_key(evidence_id) {
            return Ok(Recorded::Duplicate);
        }
        // Only the two fields the bundle manifests need are built; the rest (the result, which
        // can be hundreds of MB) is scanned past without allocating.
        #[derive(serde::Deserialize)]
        struct Head {
            #[serde(default)]
            subject: Value,
            #[serde(default)]
            provider: Value,
        }
        let head: Head = serde_json::from_slice(record).map_err(|err| {
            Failure::new(FailureReason::Internal, "retained record is not JSON").with_source(err)
        })?;
        let entry = entry_of(Arc::from(record), &head.subject, &head.provider)?;
        self.check_room(1, entry.bytes.len() as u64)?;
        self.bytes += entry.bytes.len() as u64;
        self.records.insert(evidence_id.to_owned(), entry);
        Ok(Recorded::Added)
    }

    /// Forgets everything; returns how many records were dropped.
    pub fn clear(&mut self) -> usize {
        let n = self.records.len();
        self.records.clear();
        self.bytes = 0;
        n
    }

    fn check_room(&self, records: usize, bytes: u64) -> Result<(), Failure> {
        if self.records.len() + records > MAX_RECORDS {
            return Err(ledger_full("records", MAX_RECORDS as u64));
        }
        if self.bytes + bytes > MAX_BYTES {
            return Err(ledger_full("bytes", MAX_BYTES));
        }
        Ok(())
    }

    /// Adds every record of a parsed bundle, or none of them.
    pub fn import(&mut self, bundle: ParsedBundle) -> Result<Imported, Failure> {
        let fresh: Vec<(String, Entry)> = bundle
            .records
            .into_iter()
            .filter(|(id, _)| !self.records.contains_key(id))
            .collect();
        let duplicates = bundle.count - fresh.len();
        let bytes: u64 = fresh.iter().map(|(_, e)| e.bytes.len() as u64).sum();
        self.check_room(fresh.len(), bytes)?;
        let added = fresh.len();
        self.bytes += bytes;
        self.records.extend(fresh);
        Ok(Imported {
            added,
            duplicates,
            total: self.records.len(),
        })
    }

    /// Streams the canonical bundle into `out`, checking `cancel` per record; returns the bytes
    /// written.
    pub fn write_bundle(&self, out: &mut dyn Write, cancel: &CancelToken) -> std::io::Result<u64> {
        let artifacts: BTreeSet<&str> = self
            .records
            .values()
            .filter_map(|e| e.artifact.as_deref())
            .collect();
        let providers: BTreeSet<&str> =
            self.records.values().map(|e| e.provider.as_str()).collect();
        let mut out = Counting { inner: out, n: 0 };
        out.write_all(b"{\"artifacts\":[")?;
        write_joined(&mut out, artifacts.iter().map(|s| s.as_bytes()))?;
        out.write_all(
            b"],\"bundle_version\":2,\"captures\":[],\"environments\":[],\"providers\":[",
        )?;
        write_joined(&mut out, providers.iter().map(|s| s.as_bytes()))?;
        out.write_all(b"],\"records\":[")?;
        for (i, entry) in self.records.values().enumerate() {
            if cancel.check().is_err() {
                return Err(std::io::Error::new(
                    std::io::ErrorKind::Interrupted,
                    "cancelled",
                ));
            }
            if i > 0 {
                out.write_all(b",")?;
            }
            for chunk in entry.bytes.chunks(CHUNK_BYTES) {
                out.write_all(chunk)?;
            }
        }
        out.write_all(b"],\"scenarios\":[],\"unknowns\":[]}")?;
        Ok(out.n)
    }

    /// Writes the canonical bundle to `dest` atomically: streamed into a temporary file in the
    /// destination's directory, synced, then renamed into place (without replacing an existing
    /// file unless `overwrite`). A failure or cancellation leaves nothing behind.
    pub fn export(
        &self,
        dest: &Path,
        overwrite: bool,
        cancel: &CancelToken,
    ) -> Result<Exported, Failure> {
        let shown = dest.to_string_lossy().into_owned();
        if !dest.is_absolute() {
            return Err(
                Failure::new(FailureReason::InvalidInput, "path must be absolute")
                    .with_detail("path", shown),
            );
        }
        if let Ok(meta) = std::fs::symlink_metadata(dest) {
            if !meta.is_file() {
                return Err(Failure::new(
                    FailureReason::Path,
                    "destination exists and is not a regular file",
                )
                .with_detail("path", shown)
                .with_detail("reason", "not-file"));
            }
            if !overwrite {
                return Err(Failure::new(
                    FailureReason::Path,
                    "destination exists; pass overwrite to replace it",
                )
                .with_detail("path", shown)
                .with_detail("reason", "exists"));
            }
        }
        let parent = dest.parent().unwrap_or(Path::new("/"));
        let io = |err: std::io::Error| {
            Failure::new(FailureReason::Io, "bundle could not be written")
                .with_detail("path", dest.to_string_lossy().into_owned())
                .with_source(err)
        };
        let mut staged = tempfile::Builder::new()
            .prefix(".rea-bundle-")
            .tempfile_in(parent)
            .map_err(io)?;
        let bytes = {
            let mut writer = std::io::BufWriter::with_capacity(CHUNK_BYTES, staged.as_file_mut());
            let n = self.write_bundle(&mut writer, cancel);
            cancel.check()?;
            let n = n.map_err(io)?;
            writer.flush().map_err(io)?;
            n
        };
        staged.as_file().sync_all().map_err(io)?;
        cancel.check()?;
        if overwrite {
            staged.persist(dest).map_err(|err| io(err.error))?;
        } else {
            staged
                .persist_noclobber(dest)
                .map_err(|err| io(err.error))?;
        }
        Ok(Exported {
            path: dest.to_path_buf(),
            bytes,
            records: self.records.len(),
        })
    }
}

/// A bundle that passed [`parse_bundle`], ready to import.
#[derive(Debug)]
pub struct ParsedBundle {
    records: Vec<(String, Entry)>,
    count: usize,
}

impl ParsedBundle {
    pub fn len(&self) -> usize {
        self.count
    }

    pub fn is_empty(&self) -> bool {
        self.count == 0
    }
}

/// Parses and checks a bundle: the exact key set, version 2, empty unknowns, unique ids in
/// order, every record re-validated with its id recomputed, and manifests equal to the ones the
/// records imply. All or nothing.
pub fn parse_bundle(bytes: &[u8], cancel: &CancelToken) -> Result<ParsedBundle, Failure> {
    let bad = |message: &str| evidence_failure(message);
    let mut bundle: Value = serde_json::from_slice(bytes).map_err(|err| {
        Failure::new(FailureReason::InvalidInput, "bundle is not JSON").with_source(err)
    })?;
    let Some(object) = bundle.as_object_mut() else {
        return Err(bad("bundle is not a JSON object"));
    };
    let keys: Vec<&str> = object.keys().map(String::as_str).collect();
    let expected = [
        "artifacts",
        "bundle_version",
        "captures",
        "environments",
        "providers",
        "records",
        "scenarios",
        "unknowns",
    ];
    if keys != expected {
        return Err(bad("bundle keys are not those of an Evidence bundle v2")
            .with_detail("keys", keys.join(",")));
    }
    if object["bundle_version"] != json!(2) {
        return Err(bad("only Evidence bundle version 2 is accepted"));
    }
    for key in ["captures", "environments", "scenarios"] {
        if object[key] != json!([]) {
            return Err(
                bad("bundle lists captures, environments or scenarios REA never records")
                    .with_detail("field", key),
            );
        }
    }
    if object["unknowns"] != json!([]) {
        return Err(bad("bundles with residual unknowns are not supported")
            .with_detail("field", "unknowns"));
    }
    let Some(Value::Array(records)) = object.remove("records") else {
        return Err(bad("records is not an array"));
    };
    let mut parsed: Vec<(String, Entry)> = Vec::with_capacity(records.len());
    for (i, record) in records.into_iter().enumerate() {
        cancel.check()?;
        let canonical = canonical_bytes(&record).map_err(|err| {
            bad("record has no canonical form")
                .with_detail("index", i as u64)
                .with_source(err)
        })?;
        let validated = rea_validate::validate_bytes(canonical.as_slice()).map_err(|err| {
            bad("record does not validate")
                .with_detail("index", i as u64)
                .with_detail("at", err.at.clone())
                .with_source(err)
        })?;
        let id = validated.evidence_id().to_owned();
        if let Some((last, _)) = parsed.last()
            && *last >= id
        {
            return Err(bad("records are not sorted by evidence_id, or repeat one")
                .with_detail("evidence_id", id));
        }
        let record = validated.record();
        let entry = entry_of(
            Arc::from(canonical),
            &record["subject"],
            &record["provider"],
        )?;
        parsed.push((id, entry));
    }
    let artifacts: BTreeSet<&str> = parsed
        .iter()
        .filter_map(|(_, e)| e.artifact.as_deref())
        .collect();
    let providers: BTreeSet<&str> = parsed.iter().map(|(_, e)| e.provider.as_str()).collect();
    for (key, expected) in [("artifacts", artifacts), ("providers", providers)] {
        let written: Vec<Vec<u8>> = object[key]
            .as_array()
            .map(|items| {
                items
                    .iter()
                    .filter_map(|v| canonical_bytes(v).ok())
                    .collect()
            })
            .unwrap_or_default();
        let rebuilt: Vec<&[u8]> = expected.iter().map(|s| s.as_bytes()).collect();
        if written
            .iter()
            .map(Vec::as_slice)
            .ne(rebuilt.iter().copied())
        {
            return Err(
                bad("Evidence bundle manifests are not canonical").with_detail("field", key)
            );
        }
    }
    let count = parsed.len();
    Ok(ParsedBundle {
        records: parsed,
        count,
    })
}

/// The manifest parts of a record: its subject reduced to `{digest, format, architecture}` and
/// its provider, both as canonical JSON.
fn entry_of(bytes: Arc<[u8]>, subject: &Value, provider: &Value) -> Result<Entry, Failure> {
    let no_form = |err| {
        Failure::new(FailureReason::Internal, "record part has no canonical form").with_source(err)
    };
    let artifact = match subject {
        Value::Object(subject) => {
            let artifact = json!({
                "architecture": subject.get("architecture").cloned().unwrap_or(Value::Null),
                "digest": subject.get("digest").cloned().unwrap_or(Value::Null),
                "format": subject.get("format").cloned().unwrap_or(Value::Null),
            });
            Some(utf8(canonical_bytes(&artifact).map_err(no_form)?))
        }
        _ => None,
    };
    let provider = utf8(canonical_bytes(provider).map_err(no_form)?);
    Ok(Entry {
        bytes,
        artifact,
        provider,
    })
}

/// An Evidence record or bundle that is not what it claims; maps to
/// `evidence_integrity_mismatch`.
pub fn evidence_failure(message: &str) -> Failure {
    Failure::new(FailureReason::Integrity, message.to_owned()).with_detail("scope", "evidence")
}

fn utf8(bytes: Vec<u8>) -> String {
    // Canonical JSON is UTF-8 by construction.
    String::from_utf8(bytes).unwrap_or_default()
}

fn ledger_full(limit: &str, maximum: u64) -> Failure {
    Failure::new(
        FailureReason::Limit,
        "the session's Evidence ledger is full",
    )
    .with_detail("limit", limit.to_owned())
    .with_detail("maximum", maximum)
    .with_detail("truncated", true)
}

fn write_joined<'a>(
    out: &mut dyn Write,
    items: impl Iterator<Item = &'a [u8]>,
) -> std::io::Result<()> {
    for (i, item) in items.enumerate() {
        if i > 0 {
            out.write_all(b",")?;
        }
        out.write_all(item)?;
    }
    Ok(())
}

struct Counting<'a> {
    inner: &'a mut dyn Write,
    n: u64,
}

impl Write for Counting<'_> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let n = self.inner.write(buf)?;
        self.n += n as u64;
        Ok(n)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush()
    }
}

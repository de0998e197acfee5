//! What a batch runs over: inputs from the command line (paths or globs) or a manifest, the
//! options of each job, and the content digest that keys a result.

use std::io::Read;
use std::path::{Path, PathBuf};

use rea_core::{CHUNK_BYTES, CancelToken, Failure, FailureReason, IntegrityPolicy};
use serde::Deserialize;
use serde_json::{Map, Value};
use sha2::{Digest, Sha256};

use crate::analyze::{AnalyzeRequest, Format, SourceMaps};
use crate::inventory::InventoryRequest;
use crate::overrides::{LimitOverrides, TextLimitOverrides};
use crate::page::PageRequest;

/// The jobs a batch can run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum JobKind {
    AnalyzeJavascriptApplication,
    InventoryArtifact,
}

impl JobKind {
    pub fn as_str(self) -> &'static str {
        match self {
            JobKind::AnalyzeJavascriptApplication => "analyze_javascript_application",
            JobKind::InventoryArtifact => "inventory_artifact",
        }
    }

    pub fn parse(text: &str) -> Option<JobKind> {
        match text {
            "analyze_javascript_application" => Some(JobKind::AnalyzeJavascriptApplication),
            "inventory_artifact" => Some(JobKind::InventoryArtifact),
            _ => None,
        }
    }
}

/// One input of a batch.
#[derive(Debug, Clone, PartialEq)]
pub struct BatchInput {
    /// As given (absolute once [`BatchInput::identity`] is taken).
    pub path: PathBuf,
    pub job: JobKind,
    /// The job's options, a JSON object (see [`JobOptions`]).
    pub options: Map<String, Value>,
}

impl BatchInput {
    /// The input's identity: its absolute path, job and canonical options. Shards and the
    /// index order are derived from it.
    pub fn identity(&self) -> String {
        let options = crate::canonical::canonical_bytes(&self.options).unwrap_or_default();
        format!(
            "{}\n{}\n{}",
            absolute(&self.path).to_string_lossy(),
            self.job.as_str(),
            String::from_utf8_lossy(&options)
        )
    }
}

/// The absolute form of `path`, without touching the filesystem beyond the working directory.
pub fn absolute(path: &Path) -> PathBuf {
    std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf())
}

/// Options a manifest line (or the command line) gives a job. Unknown keys are refused.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct JobOptions {
    pub format: Option<String>,
    pub source_maps: Option<String>,
    pub integrity_policy: Option<String>,
    pub max_integrity_mismatches: Option<u32>,
    pub limits: Option<LimitOverrides>,
    pub text_limits: Option<TextLimitOverrides>,
}

/// A request the engine runs.
#[derive(Debug, Clone)]
pub enum JobRequest {
    Analyze(AnalyzeRequest),
    Inventory(InventoryRequest),
}

fn bad_options(message: String) -> Failure {
    Failure::new(FailureReason::InvalidInput, message)
}

/// Builds the engine request for `input`. Inventories list everything (a batch keeps whole
/// records).
pub fn request_for(input: &BatchInput) -> Result<JobRequest, Failure> {
    let options: JobOptions = serde_json::from_value(Value::Object(input.options.clone()))
        .map_err(|err| bad_options(format!("job options are invalid: {err}")))?;
    let limits = options.limits.unwrap_or_default().apply();
    let integrity = match options.integrity_policy.as_deref() {
        None | Some("fail") => IntegrityPolicy::Fail,
        Some("record-and-continue") => IntegrityPolicy::RecordAndContinue {
            max_mismatches: options.max_integrity_mismatches.unwrap_or(10),
        },
        Some(other) => return Err(bad_options(format!("unknown integrity_policy {other:?}"))),
    };
    let input_path = absolute(&input.path);
    match input.job {
        JobKind::InventoryArtifact => {
            if options.format.is_some()
                || options.source_maps.is_some()
                || options.text_limits.is_some()
            {
                return Err(bad_options(
                    "format, source_maps and text_limits apply to analyze_javascript_application only".to_owned(),
                ));
            }
            Ok(JobRequest::Inventory(InventoryRequest {
                input_path,
                limits,
                page: PageRequest::All,
                integrity,
            }))
        }
        JobKind::AnalyzeJavascriptApplication => {
            let format = match options.format.as_deref() {
                None | Some("auto") => Format::Auto,
                Some("asar") => Format::Asar,
                Some("directory") => Format::Directory,
                Some("zip") => Format::Zip,
                Some("tar") => Format::Tar,
                Some("squashfs") => Format::Squashfs,
                Some("rpm") => Format::Rpm,
                Some("7z") => Format::SevenZ,
                Some("exe") => Format::Exe,
                Some("msi") => Format::Msi,
                Some("cab") => Format::Cab,
                Some("dmg") => Format::Dmg,
                Some("pkg") => Format::Pkg,
                Some(other) => return Err(bad_options(format!("unknown format {other:?}"))),
            };
            let source_maps = match options.source_maps.as_deref() {
                None | Some("declarations") => SourceMaps::Declarations,
                Some("contents") => SourceMaps::Contents,
                Some(other) => return Err(bad_options(format!("unknown source_maps {other:?}"))),
            };
            let text_limits = options.text_limits.unwrap_or_default().apply();
            Ok(JobRequest::Analyze(AnalyzeRequest {
                input_path,
                format,
                limits,
                text_limits,
                source_maps,
                integrity,
            }))
        }
    }
}

/// Reads a manifest: one JSON object a line, `{"path", "job"?, "options"?}`; blank lines and
/// lines starting with `#` are skipped. `default_job` applies where `job` is absent. Relative
/// paths are relative to the manifest's directory.
pub fn read_manifest(path: &Path, default_job: JobKind) -> Result<Vec<BatchInput>, Failure> {
    let shown = path.to_string_lossy().into_owned();
    let text = std::fs::read_to_string(path).map_err(|err| {
        Failure::new(FailureReason::Path, "manifest could not be read")
            .with_detail("path", shown.clone())
            .with_source(err)
    })?;
    let base = path.parent().map(Path::to_path_buf).unwrap_or_default();
    let mut inputs = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let bad = |message: &str| {
            Failure::new(
                FailureReason::InvalidInput,
                format!("manifest line {}: {message}", n + 1),
            )
            .with_detail("path", shown.clone())
            .with_detail("line", (n + 1) as u64)
        };
        let Ok(Value::Object(mut object)) = serde_json::from_str::<Value>(line) else {
            return Err(bad("not a JSON object"));
        };
        let Some(Value::String(input)) = object.remove("path") else {
            return Err(bad("`path` must be a string"));
        };
        let job = match object.remove("job") {
            None => default_job,
            Some(Value::String(job)) => JobKind::parse(&job).ok_or_else(|| {
                bad("`job` must be analyze_javascript_application or inventory_artifact")
            })?,
            Some(_) => return Err(bad("`job` must be a string")),
        };
        let options = match object.remove("options") {
            None => Map::new(),
            Some(Value::Object(options)) => options,
            Some(_) => return Err(bad("`options` must be an object")),
        };
        if let Some(key) = object.keys().next() {
            return Err(bad(&format!("unknown key `{key}`")));
        }
        inputs.push(BatchInput {
            path: base.join(input),
            job,
            options,
        });
    }
    Ok(inputs)
}

/// Expands command-line inputs: a plain path is taken as is (even if missing: the batch records
/// it as failed); a pattern with `*`, `?`, `[` or `{` is matched against the paths below its
/// literal prefix, sorted. A pattern that matches nothing is an error.
pub fn expand_args(args: &[String]) -> Result<Vec<PathBuf>, Failure> {
    let mut out = Vec::new();
    for arg in args {
        if !arg.contains(['*', '?', '[', '{']) {
            out.push(PathBuf::from(arg));
            continue;
        }
        let glob = globset::GlobBuilder::new(arg)
            .literal_separator(true)
            .build()
            .map_err(|err| {
                Failure::new(FailureReason::InvalidInput, "invalid glob")
                    .with_detail("glob", arg.clone())
                    .with_source(err)
            })?
            .compile_matcher();
        let literal: PathBuf = Path::new(arg)
            .components()
            .take_while(|c| {
                !c.as_os_str()
                    .to_string_lossy()
                    .contains(['*', '?', '[', '{'])
            })
            .collect();
        let depth = Path::new(arg).components().count() - literal.components().count();
        let root = if literal.as_os_str().is_empty() {
            PathBuf::from(".")
        } else {
            literal
        };
        let mut matched = Vec::new();
        walk(&root, depth, &mut |p| {
            let shown = if arg.starts_with("./") || !p.starts_with("./") {
                p.to_path_buf()
            } else {
                p.strip_prefix("./").unwrap_or(p).to_path_buf()
            };
            if glob.is_match(&shown) {
                matched.push(shown);
            }
        });
        if matched.is_empty() {
            return Err(Failure::new(FailureReason::Path, "glob matches nothing")
                .with_detail("glob", arg.clone()));
        }
        matched.sort();
        out.extend(matched);
    }
    Ok(out)
}

/// Visits every path below `dir` down to `depth` levels, without following symlinks.
fn walk(dir: &Path, depth: usize, visit: &mut dyn FnMut(&Path)) {
    if depth == 0 {
        return;
    }
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut children: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    children.sort();
    for child in children {
        visit(&child);
        if std::fs::symlink_metadata(&child).is_ok_and(|m| m.is_dir()) {
            walk(&child, depth - 1, visit);
        }
    }
}

/// The content digest of an input and its size in bytes: SHA-256 of a file's bytes, or for a
/// directory SHA-256 over one record per entry below it (`kind NUL relative-path NUL
/// size-or-target NUL sha256 NUL LF`, in code-point order; symlinks are recorded by target,
/// never followed) and the sum of its files' sizes.
pub fn input_digest(path: &Path, cancel: &CancelToken) -> Result<(String, u64), Failure> {
    let meta = std::fs::metadata(path).map_err(|err| {
        Failure::new(
            FailureReason::Path,
            "input does not exist or cannot be read",
        )
        .with_detail("path", path.to_string_lossy().into_owned())
        .with_source(err)
    })?;
    if meta.is_file() {
        return Ok((file_digest(path, cancel)?, meta.len()));
    }
    if !meta.is_dir() {
        return Err(Failure::new(
            FailureReason::Path,
            "input is neither a file nor a directory",
        )
        .with_detail("path", path.to_string_lossy().into_owned()));
    }
    let mut lines = Sha256::new();
    let mut stack = vec![(path.to_path_buf(), String::new())];
    let mut entries: Vec<(String, PathBuf)> = Vec::new();
    while let Some((dir, rel)) = stack.pop() {
        cancel.check()?;
        let Ok(read) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in read.flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            let child_rel = if rel.is_empty() {
                name
            } else {
                format!("{rel}/{name}")
            };
            let child = entry.path();
            if entry.file_type().is_ok_and(|t| t.is_dir()) {
                stack.push((child.clone(), child_rel.clone()));
            }
            entries.push((child_rel, child));
        }
    }
    entries.sort();
    let mut bytes = 0u64;
    for (rel, child) in entries {
        cancel.check()?;
        let Ok(meta) = std::fs::symlink_metadata(&child) else {
            continue;
        };
        let (kind, size, sha) = if meta.is_symlink() {
            let target = std::fs::read_link(&child).unwrap_or_default();
            ("l", target.to_string_lossy().into_owned(), String::new())
        } else if meta.is_dir() {
            ("d", String::new(), String::new())
        } else if meta.is_file() {
            bytes += meta.len();
            let sha = match file_digest(&child, cancel) {
                Ok(sha) => sha,
                Err(failure) if failure.is_cancellation() => return Err(failure),
                // One unreadable file does not fail the batch entry; the job records it.
                Err(_) => "unreadable".to_owned(),
            };
            ("f", meta.len().to_string(), sha)
        } else {
            ("o", String::new(), String::new())
        };
        for part in [kind, &rel, &size, &sha] {
            lines.update(part.as_bytes());
            lines.update([0]);
        }
        lines.update(b"\n");
    }
    Ok((hex::encode(lines.finalize()), bytes))
}

fn file_digest(path: &Path, cancel: &CancelToken) -> Result<String, Failure> {
    let mut file = std::fs::File::open(path).map_err(|err| {
        Failure::new(FailureReason::Io, "input could not be read")
            .with_detail("path", path.to_string_lossy().into_owned())
            .with_source(err)
    })?;
    let mut hasher = Sha256::new();
    let mut buf = vec![0u8; CHUNK_BYTES * 4];
    loop {
        cancel.check()?;
        let n = file.read(&mut buf).map_err(|err| {
            Failure::new(FailureReason::Io, "input could not be read")
                .with_detail("path", path.to_string_lossy().into_owned())
                .with_source(err)
        })?;
        if n == 0 {
            break;
        }
        hasher.update(&buf[..n]);
    }
    Ok(hex::encode(hasher.finalize()))
}

//! `extract_artifact`: selected regular files, written safely into a fresh directory.
//!
//! Plan: the inventory's traverse ⇢ hash → graph, then an extract node that writes the
//! selected files, then seal → validate. The output directory is created by `rea` under the
//! system temporary directory with mode 0700 and sits behind a guard (`tempfile::TempDir`):
//! it is kept only once the record is validated; any failure or cancellation removes it whole.
//! Each file is created exclusively (`O_CREAT|O_EXCL|O_NOFOLLOW`, mode 0600) below parents that
//! are checked to be real directories, and its bytes are hashed as they are written and
//! compared with the inventory's digest.

use std::collections::BTreeSet;
use std::fs::OpenOptions;
use std::os::unix::fs::{DirBuilderExt, OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};

use rea_core::{Failure, FailureReason, IntegrityPolicy, Limits};
use rea_exec::{Dep, Placement, Plan, StageCx, StageKind};
use rea_graph::artifact::{HashStatus, InventoryGraph, Occurrence, ids};
use rea_hash::HashedEntry;
use rea_seal::{Authority, Confidence, EvidenceDraft, Sealed};
use serde_json::{Map, Value, json};

use crate::common::{
    artifact_provider, artifact_subject, locations_of, plan_failure, resolve, validate_and_run,
};
use crate::engine::{Engine, JobControl, Published};
use crate::inventory::{integrity_json, invalid, limits_json, plan_graph};
use crate::slot::Slot;

/// The operation name, as tools and Evidence spell it.
pub const OPERATION: &str = "extract_artifact";
/// Most occurrence ids or globs in one request.
pub const MAX_SELECTORS: usize = 500;

/// A request to extract files from one input.
#[derive(Debug, Clone)]
pub struct ExtractRequest {
    pub input_path: PathBuf,
    pub limits: Limits,
    pub integrity: IntegrityPolicy,
    /// `occ_…` ids from an inventory of the same input.
    pub occurrence_ids: Vec<String>,
    /// Glob patterns over logical paths, such as `**/*.js` or `resources/app.asar/package.json`.
    pub globs: Vec<String>,
}

/// A validated extraction whose directory has been kept.
#[derive(Debug)]
pub struct Extracted {
    pub published: Published,
    pub output_root: PathBuf,
}

struct Written {
    graph: InventoryGraph,
    root: tempfile::TempDir,
    files: Vec<Value>,
    limitations: Vec<String>,
}

impl Engine {
    /// Extracts the selected regular files of `request.input_path` into a fresh directory.
    pub fn extract_artifact(
        &self,
        request: &ExtractRequest,
        ctl: &JobControl<'_>,
    ) -> Result<Extracted, Failure> {
        crate::inventory::check_limits(&request.limits, request.integrity)?;
        let globs = check_selection(request)?;
        ctl.cancel.check()?;
        let input = resolve(ctl, &request.input_path)?;
        let mut plan = Plan::new();
        let entries: Slot<Vec<HashedEntry>> = Slot::new();
        let (graph_node, graph) = plan_graph(
            &mut plan,
            &input,
            request.limits,
            request.integrity,
            Some(entries.clone()),
        )
        .map_err(plan_failure)?;
        let written: Slot<Written> = Slot::new();
        let write_node = {
            let (written, ids) = (written.clone(), request.occurrence_ids.clone());
            let cap = request.limits.max_entry_bytes;
            plan.add(
                StageKind::Hash,
                Placement::Pool,
                &[Dep::After(graph_node)],
                move |cx| {
                    let graph = graph.take("inventory graph")?;
                    let entries = entries.take("hashed entries")?;
                    written.put(write_selected(cx, graph, &entries, &ids, &globs, cap)?);
                    Ok(())
                },
            )
            .map_err(plan_failure)?
        };
        let sealed: Slot<Sealed> = Slot::new();
        let kept: Slot<tempfile::TempDir> = Slot::new();
        let seal_node = {
            let (sealed, kept, written) = (sealed.clone(), kept.clone(), written.clone());
            let (display, parameters) = (input.display.clone(), parameters(request));
            plan.add(
                StageKind::Seal,
                Placement::Pool,
                &[Dep::After(write_node)],
                move |cx| {
                    let written = written.take("written files")?;
                    let draft = draft(&written, &display, parameters)?;
                    sealed.put(rea_seal::seal(cx, draft)?);
                    kept.put(written.root);
                    Ok(())
                },
            )
            .map_err(plan_failure)?
        };
        let (validated, report) =
            validate_and_run(self, plan, seal_node, sealed, input.display.clone(), ctl)?;
        let n_files = validated.record()["normalized_result"]["files"]
            .as_array()
            .map_or(0, Vec::len);
        let mut headline = Map::new();
        headline.insert("files".to_owned(), Value::from(n_files));
        let published = Published::new(validated, headline, &report)?;
        ctl.cancel.check()?;
        // Published: the guard lets go of the directory.
        let output_root = kept.take("output directory")?.keep();
        ctl.progress.finish(
            "done",
            n_files as u64,
            Some(n_files as u64),
            "extraction complete",
        );
        Ok(Extracted {
            published,
            output_root,
        })
    }
}

fn check_selection(request: &ExtractRequest) -> Result<globset::GlobSet, Failure> {
    let n = request.occurrence_ids.len() + request.globs.len();
    if n == 0 {
        return Err(invalid(
            "occurrence_ids",
            "select at least one occurrence id or glob".to_owned(),
        ));
    }
    if n > MAX_SELECTORS {
        return Err(invalid(
            "occurrence_ids",
            format!("at most {MAX_SELECTORS} occurrence ids and globs"),
        ));
    }
    for id in &request.occurrence_ids {
        let ok = id.strip_prefix("occ_").is_some_and(|hex| {
            hex.len() == 64
                && hex
                    .bytes()
                    .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
        });
        if !ok {
            return Err(invalid(
                "occurrence_ids",
                format!("{id:?} is not an occurrence id (occ_ and 64 lowercase hex digits)"),
            ));
        }
    }
    let mut builder = globset::GlobSetBuilder::new();
    for pattern in &request.globs {
        let glob = globset::GlobBuilder::new(pattern)
            .literal_separator(true)
            .build()
            .map_err(|err| invalid("globs", format!("{pattern:?} is not a valid glob: {err}")))?;
        builder.add(glob);
    }
    builder
        .build()
        .map_err(|err| invalid("globs", format!("globs could not be compiled: {err}")))
}

/// Writes every selected regular file; explicit ids that cannot be extracted fail the job.
fn write_selected(
    cx: &StageCx<'_>,
    graph: InventoryGraph,
    entries: &[HashedEntry],
    ids: &[String],
    globs: &globset::GlobSet,
    cap: u64,
) -> Result<Written, Failure> {
    let wanted: BTreeSet<&str> = ids.iter().map(String::as_str).collect();
    let mut found = BTreeSet::new();
    let mut selected: Vec<&Occurrence> = Vec::new();
    let mut limitations = Vec::new();
    for occurrence in &graph.occurrences {
        let by_id = wanted.contains(occurrence.occurrence_id.as_str());
        let by_glob = occurrence.logical_path != "." && globs.is_match(&occurrence.logical_path);
        if !by_id && !by_glob {
            continue;
        }
        if by_id {
            found.insert(occurrence.occurrence_id.as_str());
        }
        let readable = occurrence.entry_kind == "file"
            && occurrence.logical_path != "."
            && matches!(
                occurrence.hash_status,
                HashStatus::Hashed | HashStatus::Verified | HashStatus::Unverifiable
            );
        if readable {
            selected.push(occurrence);
        } else if by_id {
            return Err(Failure::new(
                FailureReason::Format,
                "occurrence is not an extractable regular file",
            )
            .with_detail("occurrence_id", occurrence.occurrence_id.clone())
            .with_detail("logical_path", occurrence.logical_path.clone())
            .with_detail("entry_kind", occurrence.entry_kind.clone()));
        } else if occurrence.entry_kind == "file" {
            limitations.push(format!(
                "{} matched but was not extracted: its bytes are {:?}",
                occurrence.logical_path, occurrence.hash_status
            ));
        }
    }
    // A selected archive whose nested entries are selected too cannot be both a file and the
    // directory of those entries: its contents are written, and the archive file is noted.
    let containers: BTreeSet<&str> = selected
        .iter()
        .filter_map(|o| o.logical_path.rsplit_once('/').map(|(dir, _)| dir))
        .flat_map(|dir| {
            dir.match_indices('/')
                .map(move |(at, _)| &dir[..at])
                .chain(std::iter::once(dir))
        })
        .collect();
    selected.retain(|o| {
        let shadowed = containers.contains(o.logical_path.as_str());
        if shadowed {
            limitations.push(format!(
                "{} was not written as a file: its nested entries were selected and written below that path",
                o.logical_path
            ));
        }
        !shadowed
    });
    if let Some(missing) = wanted.iter().find(|id| !found.contains(**id)) {
        return Err(Failure::new(
            FailureReason::Unavailable,
            "occurrence id not found in the input's inventory",
        )
        .with_detail("occurrence_id", (*missing).to_owned()));
    }
    let root = tempfile::Builder::new()
        .prefix("rea-extract-")
        .permissions(std::fs::Permissions::from_mode(0o700))
        .tempdir()
        .map_err(|err| {
            Failure::new(FailureReason::Io, "could not create the output directory")
                .with_source(err)
        })?;
    let mut files = Vec::with_capacity(selected.len());
    for occurrence in selected {
        cx.check()?;
        let Ok(idx) = entries
            .binary_search_by(|h| h.entry.logical_path.as_str().cmp(&occurrence.logical_path))
        else {
            return Err(Failure::new(
                FailureReason::Internal,
                "selected occurrence has no entry",
            ));
        };
        let expected = occurrence.sha256.clone().unwrap_or_default();
        let size = write_one(cx, root.path(), &entries[idx], &expected, cap)?;
        files.push(json!({
            "logical_path": occurrence.logical_path,
            "occurrence_id": occurrence.occurrence_id,
            "relative_path": occurrence.logical_path,
            "sha256": expected,
            "size": size,
        }));
    }
    Ok(Written {
        graph,
        root,
        files,
        limitations,
    })
}

/// Creates one file exclusively below `root` and streams the entry into it.
fn write_one(
    cx: &StageCx<'_>,
    root: &Path,
    item: &HashedEntry,
    expected: &str,
    cap: u64,
) -> Result<u64, Failure> {
    let relative = &item.entry.logical_path;
    let unsafe_path = |what: &str| {
        Failure::new(
            FailureReason::Path,
            format!("unsafe extraction path: {what}"),
        )
        .with_detail("logical_path", relative.clone())
    };
    let mut parent = root.to_path_buf();
    let components: Vec<&str> = relative.split('/').collect();
    for part in &components[..components.len() - 1] {
        parent.push(part);
        match std::fs::DirBuilder::new().mode(0o700).create(&parent) {
            Ok(()) => {}
            Err(err) if err.kind() == std::io::ErrorKind::AlreadyExists => {}
            Err(err) => return Err(unsafe_path("parent could not be created").with_source(err)),
        }
        let is_real_dir = std::fs::symlink_metadata(&parent).is_ok_and(|m| m.is_dir());
        if !is_real_dir {
            return Err(unsafe_path("a parent is not a real directory"));
        }
    }
    let target = parent.join(components[components.len() - 1]);
    let mut file = OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .custom_flags(libc::O_NOFOLLOW)
        .open(&target)
        .map_err(|err| unsafe_path("file could not be created exclusively").with_source(err))?;
    let digest = rea_hash::copy_entry(cx, &item.entry, cap, &mut file)?;
    if digest.sha256 != expected {
        return Err(Failure::new(
            FailureReason::Integrity,
            "extracted bytes disagree with the inventory",
        )
        .with_detail("logical_path", relative.clone())
        .with_detail("declared_sha256", expected.to_owned())
        .with_detail("observed_sha256", digest.sha256)
        .with_detail("unpacked", item.entry.unpacked));
    }
    Ok(digest.bytes)
}

fn parameters(request: &ExtractRequest) -> Value {
    let mut ids = request.occurrence_ids.clone();
    ids.sort();
    json!({
        "limits": limits_json(&request.limits),
        "integrity": integrity_json(request.integrity),
        "occurrence_ids": ids,
        "globs": request.globs,
    })
}

fn draft(written: &Written, display: &str, parameters: Value) -> Result<EvidenceDraft, Failure> {
    let manifest = &written.graph.manifest;
    let mut files = written.files.clone();
    files.sort_by(|a, b| {
        a["relative_path"]
            .as_str()
            .cmp(&b["relative_path"].as_str())
    });
    let extraction_id = extraction_id(&manifest.manifest_id, &files)?;
    let output_root = written.root.path().to_string_lossy().into_owned();
    let locations = locations_of(&files);
    let result = json!({
        "extraction_id": extraction_id,
        "source_manifest_id": manifest.manifest_id,
        "root_artifact_id": manifest.root_artifact_id,
        "output_root": output_root,
        "files": files,
        "limitations": written.limitations,
    });
    Ok(EvidenceDraft {
        subject: Some(artifact_subject(manifest, display)),
        provider: artifact_provider(),
        predicate_type: "rea.analysis/v2".to_owned(),
        operation: OPERATION.to_owned(),
        parameters,
        normalized_result: result,
        result_parts: Vec::new(),
        confidence: Confidence::Observed,
        authority: Authority::ShippedArtifact,
        limitations: written.limitations.clone(),
        locations,
        evidence_links: Vec::new(),
    })
}

fn extraction_id(source_manifest_id: &str, files: &[Value]) -> Result<String, Failure> {
    let lines: Vec<ids::ExtractedFile<'_>> = files
        .iter()
        .map(|f| ids::ExtractedFile {
            relative_path: f["relative_path"].as_str().unwrap_or_default(),
            sha256: f["sha256"].as_str().unwrap_or_default(),
            size: f["size"].as_u64().unwrap_or_default(),
        })
        .collect();
    ids::extraction_id(source_manifest_id, &lines)
}

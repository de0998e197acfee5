//! `inventory_artifact`: every byte of the input accounted for, content-addressed.
//!
//! Plan for a directory: traverse ⇢ hash (streamed: hashing starts on the first entries while
//! the walk goes on) → graph → seal → validate; `.asar` files met in the walk are expanded in
//! place. For an ASAR archive: the same, with the archive's own digest hashed alongside.
//! For any other file: hash → graph → seal → validate. `⇢` is a stream edge, `→` an after edge.

use std::path::PathBuf;
use std::sync::Arc;

use crossbeam_channel::Sender;
use rea_core::{Failure, FailureReason, IntegrityPolicy, Limits};
use rea_exec::{Dep, NodeId, Placement, Plan, PlanError, StageCx, StageKind};
use rea_graph::artifact::{InventoryGraph, RootContent};
use rea_hash::HashedEntry;
use rea_seal::{Authority, Confidence, EvidenceDraft, Sealed};
use rea_traverse::{ArchiveFormat, Entry, InputKind, ResolvedInput, WalkNotes, WalkTally};
use rea_validate::Validated;
use serde::Serialize;
use serde_json::{Map, Value, json};

use crate::common::{add_validate, artifact_provider, artifact_subject, locations_of, resolve};
use crate::engine::{Engine, JobControl, Published};
use crate::page::{PageRequest, page_of};
use crate::slot::Slot;

/// The operation name, as tools and Evidence spell it.
pub const OPERATION: &str = "inventory_artifact";
/// Entries buffered between the walk and the hashers.
const STREAM_DEPTH: usize = 4096;

/// A request to inventory one input.
#[derive(Debug, Clone)]
pub struct InventoryRequest {
    pub input_path: PathBuf,
    pub limits: Limits,
    pub page: PageRequest,
    pub integrity: IntegrityPolicy,
}

impl Engine {
    /// Inventories `request.input_path`. Returns only validated Evidence.
    pub fn inventory_artifact(
        &self,
        request: &InventoryRequest,
        ctl: &JobControl<'_>,
    ) -> Result<Published, Failure> {
        check_request(request)?;
        ctl.cancel.check()?;
        let input = resolve(ctl, &request.input_path)?;
        let validated: Slot<Validated> = Slot::new();
        let headline: Slot<Map<String, Value>> = Slot::new();
        let plan =
            compile(&input, request, validated.clone(), headline.clone()).map_err(|err| {
                Failure::new(FailureReason::Internal, "job plan is invalid").with_source(err)
            })?;
        let report = self.execute(plan, ctl)?;
        let headline = headline.take("headline")?;
        let bytes = headline
            .get("bytes_hashed")
            .and_then(Value::as_u64)
            .unwrap_or(0);
        let published = Published::new(validated.take("validated evidence")?, headline, &report)?;
        ctl.progress
            .finish("done", bytes, Some(bytes), "inventory complete");
        Ok(published)
    }
}

pub(crate) fn check_limits(limits: &Limits, integrity: IntegrityPolicy) -> Result<(), Failure> {
    check_request(&InventoryRequest {
        input_path: PathBuf::new(),
        limits: *limits,
        page: PageRequest::All,
        integrity,
    })
}

fn check_request(request: &InventoryRequest) -> Result<(), Failure> {
    if let Err(violation) = request.limits.validate() {
        return Err(invalid(violation.field, violation.to_string())
            .with_detail("minimum", violation.minimum)
            .with_detail("maximum", violation.maximum));
    }
    if let IntegrityPolicy::RecordAndContinue { max_mismatches } = request.integrity
        && !(1..=IntegrityPolicy::MAX_MISMATCHES).contains(&max_mismatches)
    {
        return Err(invalid(
            "max_integrity_mismatches",
            format!(
                "max_integrity_mismatches must be between 1 and {}",
                IntegrityPolicy::MAX_MISMATCHES
            ),
        ));
    }
    if let Some(field) = request.page.invalid_field() {
        return Err(invalid(
            field,
            format!("{field} must be between 1 and {}", crate::page::MAX_LIMIT),
        ));
    }
    Ok(())
}

pub(crate) fn invalid(field: &str, message: String) -> Failure {
    Failure::new(FailureReason::InvalidInput, message).with_detail(
        "issues",
        json!([{"path": [field], "reason": "out_of_range"}]),
    )
}

/// `Ok` when `value` lies in `least..=most`, else [`invalid`] for `field`, saying the range.
pub(crate) fn in_range(field: &str, value: u64, least: u64, most: u64) -> Result<(), Failure> {
    if (least..=most).contains(&value) {
        Ok(())
    } else {
        Err(invalid(
            field,
            format!("{field} must be between {least} and {most}"),
        ))
    }
}

/// What the input is, as far as planning cares.
#[derive(Clone, Copy)]
pub(crate) enum Shape {
    Directory,
    /// An archive REA walks: an ASAR, a zip-family or tar-family archive, a SquashFS image.
    Archive(ArchiveFormat),
    File,
}

pub(crate) fn shape_of(input: &ResolvedInput) -> Shape {
    match input.kind {
        InputKind::Directory => Shape::Directory,
        InputKind::File => {
            let mut head = [0u8; 17];
            let read = std::fs::File::open(&input.path)
                .and_then(|file| std::os::unix::fs::FileExt::read_at(&file, &mut head, 0))
                .unwrap_or(0);
            ArchiveFormat::of_input(&input.display, &head[..read])
                .map_or(Shape::File, Shape::Archive)
        }
    }
}

/// Adds the nodes that build the inventory graph of `input`: traverse, hash and graph.
/// With `entries_out`, the hashed entries (sorted by path) are handed on after the graph is
/// built, for jobs that read entry bytes afterwards.
pub(crate) fn plan_graph(
    plan: &mut Plan,
    input: &ResolvedInput,
    limits: Limits,
    policy: IntegrityPolicy,
    entries_out: Option<Slot<Vec<HashedEntry>>>,
) -> Result<(NodeId, Slot<InventoryGraph>), PlanError> {
    let graph: Slot<InventoryGraph> = Slot::new();
    let name = file_name(&input.display);
    let graph_node = match shape_of(input) {
        Shape::Directory => {
            let root = input.path.clone();
            let walk = move |cx: &StageCx<'_>, tally: &WalkTally, tx: &Sender<Entry>| {
                rea_traverse::directory::walk(cx, &root, &limits, tally, tx)
            };
            let stream = add_entry_stream(plan, limits, policy, walk)?;
            let (hashed, notes) = (stream.hashed, stream.notes);
            let (graph, entries_out) = (graph.clone(), entries_out.clone());
            plan.add(
                StageKind::Graph,
                Placement::Pool,
                &[Dep::After(stream.hash)],
                move |cx| {
                    let root = RootContent::Directory;
                    let mut entries = hashed.take("hashed entries")?;
                    graph.put(rea_graph::artifact::build(
                        cx,
                        root,
                        &mut entries,
                        notes.take("walk notes")?,
                        policy,
                    )?);
                    hand_on(&entries_out, entries);
                    Ok(())
                },
            )?
        }
        Shape::Archive(format) => {
            let path = input.path.clone();
            let walk = move |cx: &StageCx<'_>, tally: &WalkTally, tx: &Sender<Entry>| {
                let unpacked = match format {
                    ArchiveFormat::Asar => rea_traverse::asar::Unpacked::beside(&path),
                    _ => rea_traverse::asar::Unpacked::Missing,
                };
                let source = rea_traverse::ArchiveRange::whole(&path)?;
                let mut walk = rea_traverse::Walk::new(cx, &limits, tally, tx);
                rea_traverse::walk_archive(&mut walk, format, source, unpacked, "")?;
                tally.finish();
                Ok(walk.notes)
            };
            let stream = add_entry_stream(plan, limits, policy, walk)?;
            let (hashed, notes) = (stream.hashed, stream.notes);
            let digest = Slot::new();
            // The archive's own digest is computed beside the entry hashing, not after it.
            let root_hash = {
                let (input, digest) = (input.clone(), digest.clone());
                plan.add(
                    StageKind::Hash,
                    Placement::Pool,
                    &[Dep::Alongside(stream.walk)],
                    move |cx| {
                        digest.put(rea_hash::hash_archive_file(cx, &input, &limits)?);
                        Ok(())
                    },
                )?
            };
            let (graph, entries_out) = (graph.clone(), entries_out.clone());
            plan.add(
                StageKind::Graph,
                Placement::Pool,
                &[Dep::After(stream.hash), Dep::After(root_hash)],
                move |cx| {
                    let root = RootContent::File {
                        name,
                        digest: digest.take("archive digest")?,
                    };
                    let mut entries = hashed.take("hashed entries")?;
                    graph.put(rea_graph::artifact::build(
                        cx,
                        root,
                        &mut entries,
                        notes.take("walk notes")?,
                        policy,
                    )?);
                    hand_on(&entries_out, entries);
                    Ok(())
                },
            )?
        }
        Shape::File => {
            let digest = Slot::new();
            let hash = {
                let (input, digest) = (input.clone(), digest.clone());
                plan.add(StageKind::Hash, Placement::Pool, &[], move |cx| {
                    digest.put(rea_hash::hash_input_file(cx, &input, &limits)?);
                    Ok(())
                })?
            };
            let (graph, entries_out) = (graph.clone(), entries_out.clone());
            plan.add(
                StageKind::Graph,
                Placement::Pool,
                &[Dep::After(hash)],
                move |cx| {
                    let root = RootContent::File {
                        name,
                        digest: digest.take("input digest")?,
                    };
                    graph.put(rea_graph::artifact::build(
                        cx,
                        root,
                        &mut [],
                        WalkNotes::default(),
                        policy,
                    )?);
                    hand_on(&entries_out, Vec::new());
                    Ok(())
                },
            )?
        }
    };
    Ok((graph_node, graph))
}

/// Hands the hashed entries to a later stage that asked for them, or frees them off the
/// critical path.
fn hand_on(out: &Option<Slot<Vec<HashedEntry>>>, entries: Vec<HashedEntry>) {
    match out {
        Some(out) => out.put(entries),
        None => rea_exec::drop_off_path(entries),
    }
}

fn compile(
    input: &ResolvedInput,
    request: &InventoryRequest,
    validated: Slot<Validated>,
    headline: Slot<Map<String, Value>>,
) -> Result<Plan, PlanError> {
    let mut plan = Plan::new();
    let (limits, policy) = (request.limits, request.integrity);
    let (graph_node, graph) = plan_graph(&mut plan, input, limits, policy, None)?;
    let sealed: Slot<Sealed> = Slot::new();
    let seal = {
        let (sealed, display, page) = (sealed.clone(), input.display.clone(), request.page);
        plan.add(
            StageKind::Seal,
            Placement::Pool,
            &[Dep::After(graph_node)],
            move |cx| {
                let graph = graph.take("inventory graph")?;
                headline.put(headline_of(&graph));
                let draft = draft(&graph, &display, &limits, policy, page)?;
                rea_exec::drop_off_path(graph);
                sealed.put(rea_seal::seal(cx, draft)?);
                Ok(())
            },
        )?
    };
    add_validate(&mut plan, seal, sealed, input.display.clone(), validated)?;
    Ok(plan)
}

/// A walk node streaming into a hash node, and the slots their results land in.
pub(crate) struct EntryStream {
    pub(crate) walk: NodeId,
    pub(crate) hash: NodeId,
    pub(crate) hashed: Slot<Vec<HashedEntry>>,
    pub(crate) notes: Slot<WalkNotes>,
}

/// Adds a walk node (on its own thread) streaming entries into a hash node (on the pool).
pub(crate) fn add_entry_stream(
    plan: &mut Plan,
    limits: Limits,
    policy: IntegrityPolicy,
    walk: impl FnOnce(&StageCx<'_>, &WalkTally, &Sender<Entry>) -> Result<WalkNotes, Failure>
    + Send
    + 'static,
) -> Result<EntryStream, PlanError> {
    let (tx, rx) = crossbeam_channel::bounded(STREAM_DEPTH);
    let tally = Arc::new(WalkTally::default());
    let notes: Slot<WalkNotes> = Slot::new();
    let hashed: Slot<Vec<HashedEntry>> = Slot::new();
    let walk_node = {
        let (tally, notes) = (tally.clone(), notes.clone());
        plan.add(StageKind::Traverse, Placement::Dedicated, &[], move |cx| {
            notes.put(walk(cx, &tally, &tx)?);
            Ok(())
        })?
    };
    let hash_node = {
        let hashed = hashed.clone();
        plan.add(
            StageKind::Hash,
            Placement::Pool,
            &[Dep::Stream(walk_node)],
            move |cx| {
                hashed.put(rea_hash::run(cx, rx, &limits, policy, &tally)?);
                Ok(())
            },
        )?
    };
    Ok(EntryStream {
        walk: walk_node,
        hash: hash_node,
        hashed,
        notes,
    })
}

/// The Evidence draft: the paged result plus provenance.
fn draft(
    graph: &InventoryGraph,
    display: &str,
    limits: &Limits,
    policy: IntegrityPolicy,
    page: PageRequest,
) -> Result<EvidenceDraft, Failure> {
    let windows = match page {
        PageRequest::All => [None; 3],
        PageRequest::Windows {
            nodes,
            occurrences,
            edges,
        } => [Some(nodes), Some(occurrences), Some(edges)],
    };
    let occurrences = page_of(&graph.occurrences, windows[1]).map_err(no_json)?;
    let locations = locations_of(occurrences["items"].as_array().map_or(&[], Vec::as_slice));
    let limits_json = limits_json(limits);
    let result = json!({
        "manifest": to_value(&graph.manifest)?,
        "nodes": page_of(&graph.nodes, windows[0]).map_err(no_json)?,
        "occurrences": occurrences,
        "edges": page_of(&graph.edges, windows[2]).map_err(no_json)?,
        "integrity_contradictions": to_value(&graph.integrity_contradictions)?,
        "asar_headers": to_value(&graph.asar_headers)?,
        "electron_fuses": to_value(&graph.electron_fuses)?,
        "limitations": graph.limitations,
        "limits": limits_json,
        "summary": to_value(&graph.summary)?,
    });
    Ok(EvidenceDraft {
        subject: Some(artifact_subject(&graph.manifest, display)),
        provider: artifact_provider(),
        predicate_type: "rea.analysis/v2".to_owned(),
        operation: OPERATION.to_owned(),
        parameters: json!({
            "limits": limits_json,
            "page": page.to_parameters(),
            "integrity": integrity_json(policy),
        }),
        normalized_result: result,
        result_parts: Vec::new(),
        confidence: Confidence::Observed,
        authority: Authority::ShippedArtifact,
        limitations: graph.limitations.clone(),
        locations,
        evidence_links: Vec::new(),
    })
}

fn headline_of(graph: &InventoryGraph) -> Map<String, Value> {
    let mut headline = match serde_json::to_value(graph.summary) {
        Ok(Value::Object(map)) => map,
        _ => Map::new(),
    };
    headline.insert(
        "manifest_id".to_owned(),
        Value::from(graph.manifest.manifest_id.clone()),
    );
    headline.insert(
        "root_format".to_owned(),
        Value::from(graph.manifest.root_format.clone()),
    );
    headline.insert(
        "limitations".to_owned(),
        Value::from(graph.limitations.len()),
    );
    let headers = &graph.asar_headers;
    headline.insert("asar_headers".to_owned(), Value::from(headers.len()));
    for status in ["verified", "mismatched", "unverifiable", "undeclared"] {
        headline.insert(
            format!("asar_headers_{status}"),
            Value::from(headers.iter().filter(|h| h.status == status).count()),
        );
    }
    headline.insert(
        "electron_fuses".to_owned(),
        Value::from(
            graph
                .electron_fuses
                .iter()
                .map(|binary| {
                    let on: Vec<&str> = binary
                        .fuses
                        .iter()
                        .filter(|f| f.state == "enabled")
                        .map(|f| f.name.as_str())
                        .collect();
                    let version = binary
                        .electron_version
                        .as_ref()
                        .map_or(String::new(), |v| format!(" (Electron {v})"));
                    format!("{}{version}: {}", binary.logical_path, on.join(", "))
                })
                .collect::<Vec<_>>(),
        ),
    );
    headline
}

pub(crate) fn integrity_json(policy: IntegrityPolicy) -> Value {
    match policy {
        IntegrityPolicy::Fail => json!({"integrity_policy": "fail"}),
        IntegrityPolicy::RecordAndContinue { max_mismatches } => json!({
            "integrity_policy": "record-and-continue",
            "max_integrity_mismatches": max_mismatches,
        }),
    }
}

pub(crate) fn limits_json(limits: &Limits) -> Value {
    json!({
        "max_entries": limits.max_entries,
        "max_total_bytes": limits.max_total_bytes,
        "max_entry_bytes": limits.max_entry_bytes,
        "max_compression_ratio": limits.max_compression_ratio,
        "max_depth": limits.max_depth,
        "max_path_bytes": limits.max_path_bytes,
    })
}

fn file_name(display: &str) -> String {
    display
        .rsplit('/')
        .find(|part| !part.is_empty())
        .unwrap_or("/")
        .to_owned()
}

pub(crate) fn to_value<T: Serialize + ?Sized>(item: &T) -> Result<Value, Failure> {
    serde_json::to_value(item).map_err(no_json)
}

fn no_json(err: serde_json::Error) -> Failure {
    Failure::new(FailureReason::Internal, "graph value has no json form").with_source(err)
}

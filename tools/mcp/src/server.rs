//! The MCP server: decode a call, run a job in the engine, encode the sealed result.
//!
//! Calls run concurrently: each `tools/call` is its own task, and analysis runs on a blocking
//! thread that hands the plan to the engine's rayon pool, so the protocol loop never waits on
//! analysis. A panic in a handler becomes an internal tool error.

use std::future::Future;
use std::path::Path;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use rea_core::{CancelReason, CancelToken, Failure, FailureReason, IntegrityPolicy, Limits};
use rea_jobs::analyze::{AnalyzeRequest, Format, SourceMaps};
use rea_jobs::compare::CompareRequest;
use rea_jobs::extract::ExtractRequest;
use rea_jobs::inspect::InspectRequest;
use rea_jobs::inventory::InventoryRequest;
use rea_jobs::ledger::{evidence_failure, parse_bundle};
use rea_jobs::shapes::{self, ExportShapesRequest, Selector};
use rea_jobs::sources::{self, SourceBundleRequest, SourceReference};
use rea_jobs::versions::{
    DEFAULT_CANDIDATE_NODES, DEFAULT_COMPARISON_ITEMS, DEFAULT_GRAPH_EDGES, DEFAULT_GRAPH_NODES,
    MAX_CANDIDATE_NODES, MAX_COMPARISON_ITEMS, Side, VersionsRequest,
};
use rea_jobs::{Engine, JobControl, PageRequest, Published};
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ClientCapabilities, Implementation,
    InitializeRequestParams, InitializeResult, ListToolsResult, PaginatedRequestParams,
    ProgressToken, ServerCapabilities,
};
use rmcp::service::{RequestContext, RoleServer};
use rmcp::{ErrorData as McpError, ServerHandler, ServiceExt};
use serde::de::DeserializeOwned;
use serde_json::{Map, Value, json};

use crate::catalog::{self, RMCP_VERSION};
use crate::params::{
    AnalyzeParams, ArtifactParams, CloseResult, CompareParams, EvidenceInput, ExportParams,
    ExportResult, ExtractParams, FormatParam, ImportParams, ImportResult, InspectParams,
    InventoryParams, OpenParams, OpenResult, PolicyParam, SemanticsParams, SessionParams,
    SessionResult, ShapesParams, SourceMapsParam, SourcesParams, TraceParams, VersionsParams,
    Wrapped,
};
use crate::params::{DirectionParam, MatchParam, ReferenceParam};
use crate::session::{self, Opened, Session};
use crate::{progress, response, stdio};
use rea_jobs::trace::{self, TraceRequest};

/// How the server is configured at start.
#[derive(Debug, Clone)]
pub struct ServerOptions {
    /// Engine worker threads; 0 means one per core.
    pub threads: usize,
    /// The CLI's command names, for the catalog digest.
    pub cli_commands: Vec<String>,
    /// The response budget in bytes (see [`response::budget_from`]).
    pub max_response_bytes: u64,
}

/// Serves MCP on stdin/stdout until stdin closes.
pub fn serve_stdio(options: ServerOptions) -> Result<(), String> {
    let engine = Engine::new(options.threads).map_err(|f| f.message)?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .thread_name("rea-mcp")
        .enable_all()
        .build()
        .map_err(|err| format!("could not start the async runtime: {err}"))?;
    let outcome = runtime.block_on(async move {
        let transport = stdio::transport();
        let server = Rea::new(engine, options);
        let running = server
            .serve((transport.read, transport.write))
            .await
            .map_err(|err| format!("MCP initialization failed: {err}"))?;
        let _ = running.waiting().await;
        let _ = tokio::time::timeout(Duration::from_secs(5), transport.writer).await;
        Ok(())
    });
    // The stdin reader may still be blocked in a read; do not wait for it.
    runtime.shutdown_timeout(Duration::from_millis(200));
    outcome
}

/// What the client told us at `initialize`.
#[derive(Debug, Default, Clone)]
struct PeerFacts {
    protocol_version: Option<String>,
    client: Option<(String, String)>,
    capabilities: Option<ClientCapabilities>,
}

struct Shared {
    engine: Engine,
    options: ServerOptions,
    session: Mutex<Session>,
    peer: Mutex<PeerFacts>,
    started_at_unix_ms: u128,
    /// The catalog digests, computed once: the catalog cannot change while the server runs.
    digests: Value,
}

/// The handler; clones share one connection's state.
#[derive(Clone)]
pub struct Rea {
    shared: Arc<Shared>,
}

impl Rea {
    pub fn new(engine: Engine, options: ServerOptions) -> Rea {
        let started_at_unix_ms = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_millis())
            .unwrap_or(0);
        let digests = catalog::digests(&options.cli_commands);
        Rea {
            shared: Arc::new(Shared {
                engine,
                digests,
                options,
                session: Mutex::new(Session::default()),
                peer: Mutex::new(PeerFacts::default()),
                started_at_unix_ms,
            }),
        }
    }

    fn session(&self) -> MutexGuard<'_, Session> {
        // A panic while holding the lock leaves plain data behind; keep serving.
        self.shared
            .session
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    fn budget(&self) -> u64 {
        self.shared.options.max_response_bytes
    }

    async fn dispatch(
        &self,
        name: &'static str,
        args: Value,
        token: Option<ProgressToken>,
        cx: RequestContext<RoleServer>,
    ) -> Result<CallToolResult, McpError> {
        match name {
            "inventory_artifact" => {
                let p: InventoryParams = decode(name, args)?;
                let request = match inventory_request(&p) {
                    Ok(request) => request,
                    Err(failure) => return Ok(response::failure(name, &failure)),
                };
                self.run_job(name, cx, token, move |engine, ctl| {
                    engine.inventory_artifact(&request, ctl)
                })
                .await
            }
            "inspect_artifact" => {
                let p: InspectParams = decode(name, args)?;
                let request = match artifact(&p).and_then(|(input_path, limits, integrity)| {
                    let max_observations = p.max_observations.unwrap_or(20);
                    in_range("max_observations", u64::from(max_observations), 1, 500)?;
                    Ok(InspectRequest {
                        input_path,
                        limits,
                        integrity,
                        max_observations,
                    })
                }) {
                    Ok(request) => request,
                    Err(failure) => return Ok(response::failure(name, &failure)),
                };
                self.run_job(name, cx, token, move |engine, ctl| {
                    engine.inspect_artifact(&request, ctl)
                })
                .await
            }
            "extract_artifact" => {
                let p: ExtractParams = decode(name, args)?;
                let request = match artifact(&p) {
                    Ok((input_path, limits, integrity)) => ExtractRequest {
                        input_path,
                        limits,
                        integrity,
                        occurrence_ids: p.occurrence_ids.clone().unwrap_or_default(),
                        globs: p.globs.clone().unwrap_or_default(),
                    },
                    Err(failure) => return Ok(response::failure(name, &failure)),
                };
                self.run_job(name, cx, token, move |engine, ctl| {
                    engine
                        .extract_artifact(&request, ctl)
                        .map(|extracted| extracted.published)
                })
                .await
            }
            "analyze_javascript_application" => {
                let p: AnalyzeParams = decode(name, args)?;
                let request = match analyze_request(&p) {
                    Ok(request) => request,
                    Err(failure) => return Ok(response::failure(name, &failure)),
                };
                self.run_job(name, cx, token, move |engine, ctl| {
                    engine.analyze_javascript_application(&request, ctl)
                })
                .await
            }
            "compare_artifacts" => {
                let p: CompareParams = decode(name, args)?;
                let sides = self
                    .evidence_side(p.left)
                    .and_then(|left| Ok((left, self.evidence_side(p.right)?)));
                let (left, right) = match sides {
                    Ok(sides) => sides,
                    Err(failure) => return Ok(response::failure(name, &failure)),
                };
                let request = CompareRequest {
                    left,
                    right,
                    max_changes: p.max_changes.unwrap_or(500) as usize,
                };
                self.run_job(name, cx, token, move |engine, ctl| {
                    engine.compare_artifacts(&request, ctl)
                })
                .await
            }
            "compare_application_versions" => {
                let p: VersionsParams = decode(name, args)?;
                let sides = self
                    .version_side(p.left)
                    .and_then(|left| Ok((left, self.version_side(p.right)?)));
                let request = sides.and_then(|(left, right)| {
                    let items = p
                        .max_comparison_items
                        .unwrap_or(DEFAULT_COMPARISON_ITEMS as u64);
                    let candidates = p
                        .max_candidate_nodes
                        .unwrap_or(DEFAULT_CANDIDATE_NODES as u64);
                    in_range(
                        "max_comparison_items",
                        items,
                        1,
                        MAX_COMPARISON_ITEMS as u64,
                    )?;
                    in_range(
                        "max_candidate_nodes",
                        candidates,
                        1,
                        MAX_CANDIDATE_NODES as u64,
                    )?;
                    let pick = |v: Option<u64>, d: usize| {
                        v.map_or(d, |v| usize::try_from(v).unwrap_or(usize::MAX))
                    };
                    Ok(VersionsRequest {
                        left,
                        right,
                        max_comparison_items: items as usize,
                        max_candidate_nodes: candidates as usize,
                        max_graph_nodes: pick(p.max_graph_nodes, DEFAULT_GRAPH_NODES),
                        max_graph_edges: pick(p.max_graph_edges, DEFAULT_GRAPH_EDGES),
                    })
                });
                let request = match request {
                    Ok(request) => request,
                    Err(failure) => return Ok(response::failure(name, &failure)),
                };
                self.run_job(name, cx, token, move |engine, ctl| {
                    engine.compare_application_versions(request, ctl)
                })
                .await
            }
            "compare_source_to_bundle" => {
                let p: SourcesParams = decode(name, args)?;
                let request = match self.sources_request(p) {
                    Ok(request) => request,
                    Err(failure) => return Ok(response::failure(name, &failure)),
                };
                self.run_job(name, cx, token, move |engine, ctl| {
                    engine.compare_source_to_bundle(request, ctl)
                })
                .await
            }
            "compare_javascript_export_shapes" => {
                let p: ShapesParams = decode(name, args)?;
                let request = match self.shapes_request(p) {
                    Ok(request) => request,
                    Err(failure) => return Ok(response::failure(name, &failure)),
                };
                self.run_job(name, cx, token, move |engine, ctl| {
                    engine.compare_javascript_export_shapes(request, ctl)
                })
                .await
            }
            "trace_javascript_semantics" => {
                let p: SemanticsParams = decode(name, args)?;
                let request = match self.semantics_request(p) {
                    Ok(request) => request,
                    Err(failure) => return Ok(response::failure(name, &failure)),
                };
                self.run_job(name, cx, token, move |engine, ctl| {
                    engine.trace_javascript_semantics(request, ctl)
                })
                .await
            }
            "trace_application_feature" => {
                let p: TraceParams = decode(name, args)?;
                let request = self.trace_request(p);
                let request = match request {
                    Ok(request) => request,
                    Err(failure) => return Ok(response::failure(name, &failure)),
                };
                self.run_job(name, cx, token, move |engine, ctl| {
                    engine.trace_application_feature(request, ctl)
                })
                .await
            }
            "binary_session" => {
                let p: SessionParams = decode(name, args)?;
                Ok(self.wrapped(name, &self.session_result(&p)))
            }
            "open_binary" => {
                let p: OpenParams = decode(name, args)?;
                Ok(self.open_binary(p, cx).await)
            }
            "close_binary" => {
                let _: crate::params::EmptyParams = decode(name, args)?;
                Ok(self.close_binary().await)
            }
            "get_evidence_bundle" => {
                let _: crate::params::EmptyParams = decode(name, args)?;
                Ok(self.get_bundle(name))
            }
            "export_evidence_bundle" => {
                let p: ExportParams = decode(name, args)?;
                Ok(self.export_bundle(name, p, cx).await)
            }
            "import_evidence_bundle" => {
                let p: ImportParams = decode(name, args)?;
                Ok(self.import_bundle(name, p, cx).await)
            }
            other => Err(McpError::invalid_params(
                format!("unknown tool: {other}"),
                None,
            )),
        }
    }

    /// Runs one engine job for this call: progress forwarded, cancellation wired to the
    /// request, and only a validated, uncancelled result recorded in the ledger.
    async fn run_job(
        &self,
        operation: &'static str,
        cx: RequestContext<RoleServer>,
        token: Option<ProgressToken>,
        job: impl FnOnce(&Engine, &JobControl<'_>) -> Result<Published, Failure> + Send + 'static,
    ) -> Result<CallToolResult, McpError> {
        let cancel = CancelToken::new();
        let (call, generation) = self.session().start_call(cancel.clone());
        let (reporter, forward) = progress::bridge(cx.peer.clone(), token);
        let watch = watch_cancellation(&cx, &cancel);
        let shared = Arc::clone(&self.shared);
        let job_cancel = cancel.clone();
        let outcome = tokio::task::spawn_blocking(move || {
            let ctl = JobControl {
                cancel: &job_cancel,
                progress: &reporter,
                timeout: None,
            };
            let outcome = job(&shared.engine, &ctl);
            let message = if outcome.is_ok() {
                "completed"
            } else {
                "failed"
            };
            reporter.finish("done", 0, None, message);
            outcome
        })
        .await;
        watch.abort();
        if let Some(forward) = forward {
            let _ = forward.await;
        }
        let result = match outcome {
            Err(_) => response::internal(operation, "the job panicked"),
            Ok(Err(failure)) => response::failure(operation, &failure),
            Ok(Ok(published)) => self.publish(operation, &published, &cancel, generation),
        };
        self.session().end_call(call);
        Ok(result)
    }

    /// Records a published result and answers with it. Cancellation observed before this
    /// point wins: nothing is recorded.
    fn publish(
        &self,
        operation: &str,
        published: &Published,
        cancel: &CancelToken,
        generation: u64,
    ) -> CallToolResult {
        if let Err(cancelled) = cancel.check() {
            return response::failure(operation, &cancelled.into());
        }
        {
            let mut session = self.session();
            if session.generation != generation {
                let failure = Failure::new(
                    FailureReason::Cancelled,
                    "the session was closed while the call ran",
                );
                return response::failure(operation, &failure);
            }
            if let Err(failure) = session
                .ledger
                .record(published.evidence_id(), published.record())
            {
                return response::failure(operation, &failure);
            }
        }
        response::success(
            operation,
            &published.envelope_bytes(),
            self.budget(),
            Some(published.evidence_id()),
        )
    }

    /// One side of a comparison as the engine takes it.
    fn evidence_side(&self, input: EvidenceInput) -> Result<Value, Failure> {
        match input {
            EvidenceInput::Inline(object) => Ok(Value::Object(object)),
            EvidenceInput::Retained(reference) => {
                let bytes = self.session().ledger.get(&reference.evidence_id);
                let Some(bytes) = bytes else {
                    return Err(missing_evidence(reference.evidence_id));
                };
                serde_json::from_slice(&bytes).map_err(|err| {
                    Failure::new(FailureReason::Internal, "retained record is not JSON")
                        .with_source(err)
                })
            }
        }
    }

    /// A side of a version comparison: inline as it came, retained as the ledger's bytes
    /// (an application record can be hundreds of megabytes: it is not parsed here).
    fn version_side(&self, input: EvidenceInput) -> Result<Side, Failure> {
        match input {
            EvidenceInput::Inline(object) => Ok(Side::Value(Value::Object(object))),
            EvidenceInput::Retained(reference) => self
                .session()
                .ledger
                .get(&reference.evidence_id)
                .map(|bytes| Side::Text(bytes.to_vec()))
                .ok_or_else(|| missing_evidence(reference.evidence_id)),
        }
    }

    /// A source comparison's request: the reference (a directory at an absolute path, or a
    /// graph object) and the application resolved, the limits defaulted. The engine checks the
    /// ranges.
    fn sources_request(&self, p: SourcesParams) -> Result<SourceBundleRequest, Failure> {
        let reference = match p.reference {
            ReferenceParam::Directory(dir) => {
                let path = std::path::PathBuf::from(&dir.input_path);
                if !path.is_absolute() {
                    return Err(invalid(
                        "reference",
                        "reference.input_path must be an absolute path".to_owned(),
                    ));
                }
                SourceReference::Directory(path)
            }
            ReferenceParam::Graph(object) => SourceReference::Graph(Value::Object(object)),
        };
        let l = p.limits.unwrap_or_default();
        let pick =
            |v: Option<u64>, d: usize| v.map_or(d, |v| usize::try_from(v).unwrap_or(usize::MAX));
        Ok(SourceBundleRequest {
            reference,
            application: self.version_side(p.application)?,
            limits: sources::Limits {
                max_source_files: pick(l.max_source_files, sources::DEFAULT_SOURCE_FILES),
                max_application_nodes: pick(
                    l.max_application_nodes,
                    sources::DEFAULT_APPLICATION_NODES,
                ),
                max_candidate_nodes: pick(l.max_candidate_nodes, sources::DEFAULT_CANDIDATE_NODES),
                max_candidate_evaluations: l
                    .max_candidate_evaluations
                    .unwrap_or(sources::DEFAULT_CANDIDATE_EVALUATIONS),
            },
        })
    }

    /// An export shape comparison's request: both sides resolved, the right selector and
    /// the limits defaulted. The engine checks the ranges.
    fn shapes_request(&self, p: ShapesParams) -> Result<ExportShapesRequest, Failure> {
        let l = p.limits.unwrap_or_default();
        let pick =
            |v: Option<u64>, d: usize| v.map_or(d, |v| usize::try_from(v).unwrap_or(usize::MAX));
        Ok(ExportShapesRequest {
            left: self.version_side(p.left)?,
            right: self.version_side(p.right)?,
            right_export: Selector {
                module_path: p
                    .right_module_path
                    .unwrap_or_else(|| p.left_module_path.clone()),
                module_key: p.right_module_key.or_else(|| p.left_module_key.clone()),
                export_name: p
                    .right_export_name
                    .unwrap_or_else(|| p.left_export_name.clone()),
            },
            left_export: Selector {
                module_path: p.left_module_path,
                module_key: p.left_module_key,
                export_name: p.left_export_name,
            },
            max_changes: pick(l.max_changes, shapes::DEFAULT_CHANGES),
            max_candidates: pick(l.max_candidates, shapes::DEFAULT_CANDIDATES),
        })
    }

    /// A semantic query's request: the application resolved, the limits defaulted. The
    /// engine checks the ranges and the vocabulary.
    fn semantics_request(
        &self,
        p: SemanticsParams,
    ) -> Result<rea_jobs::semantics::SemanticTraceRequest, Failure> {
        use rea_jobs::semantics::{Filter, LIMITS, Limits, Query, Seed};
        if let Some(a) = &p.query.source_map_authority
            && a.authority != "none"
        {
            return Err(invalid(
                "query.source_map_authority",
                "only {authority: \"none\"} is supported: source maps are not consulted".to_owned(),
            ));
        }
        let l = p.limits.unwrap_or_default();
        let mut limits = Limits::default();
        for (name, value) in [
            ("max_seed_matches", l.max_seed_matches),
            ("max_nodes", l.max_nodes),
            ("max_edges", l.max_edges),
            ("max_depth", l.max_depth),
            ("max_functions", l.max_functions),
            ("max_modules", l.max_modules),
            ("max_unknowns", l.max_unknowns),
            ("page_size", l.page_size),
        ] {
            if let (Some(v), Some((n, ..))) = (value, LIMITS.iter().find(|(n, ..)| *n == name)) {
                limits.set(n, usize::try_from(v).unwrap_or(usize::MAX));
            }
        }
        let q = p.query;
        Ok(rea_jobs::semantics::SemanticTraceRequest {
            application: self.version_side(p.application)?,
            query: Query {
                seed: Seed {
                    kind: q.seed.kind.as_str().to_owned(),
                    value: q.seed.value,
                    matching: q.seed.matching.map(|m| {
                        match m {
                            MatchParam::Exact => "exact",
                            MatchParam::Contains => "contains",
                        }
                        .to_owned()
                    }),
                },
                direction: q.direction.as_str().to_owned(),
                allowed_relations: q.allowed_relations,
                include_ambiguous_dynamic_edges: q.include_ambiguous_dynamic_edges.unwrap_or(false),
                filter: q.filter.map(|f| Filter {
                    role: f.role,
                    classes: f.classes,
                }),
                limits,
                cursor: q.cursor,
            },
        })
    }

    /// A trace's request: the application and native records resolved (inline, or retained by
    /// this connection), the limits defaulted. The engine checks the ranges.
    fn trace_request(&self, p: TraceParams) -> Result<TraceRequest, Failure> {
        let natives = p.native_observations.unwrap_or_default();
        if natives.len() > trace::MAX_NATIVE_OBSERVATIONS {
            return Err(invalid(
                "native_observations",
                format!(
                    "at most {} native Evidence records",
                    trace::MAX_NATIVE_OBSERVATIONS
                ),
            ));
        }
        let native_observations = natives
            .into_iter()
            .map(|n| self.version_side(n))
            .collect::<Result<Vec<_>, Failure>>()?;
        let defaults = trace::Limits::default();
        let l = p.limits.unwrap_or_default();
        let pick =
            |v: Option<u64>, d: usize| v.map_or(d, |v| usize::try_from(v).unwrap_or(usize::MAX));
        Ok(TraceRequest {
            application: self.version_side(p.application)?,
            native_observations,
            seed: trace::Seed {
                kind: p.seed.kind.as_str().to_owned(),
                value: p.seed.value,
                matching: p.seed.matching.map(|m| {
                    match m {
                        MatchParam::Exact => "exact",
                        MatchParam::Contains => "contains",
                    }
                    .to_owned()
                }),
                case_sensitive: p.seed.case_sensitive.unwrap_or(false),
            },
            direction: match p.direction.unwrap_or(DirectionParam::Both) {
                DirectionParam::Outgoing => "outgoing",
                DirectionParam::Incoming => "incoming",
                DirectionParam::Both => "both",
            }
            .to_owned(),
            limits: trace::Limits {
                max_seed_matches: pick(l.max_seed_matches, defaults.max_seed_matches),
                max_depth: pick(l.max_depth, defaults.max_depth),
                max_nodes: pick(l.max_nodes, defaults.max_nodes),
                max_edges: pick(l.max_edges, defaults.max_edges),
                max_paths: pick(l.max_paths, defaults.max_paths),
            },
        })
    }

    fn wrapped<T: serde::Serialize + schemars::JsonSchema>(
        &self,
        operation: &str,
        result: &T,
    ) -> CallToolResult {
        match serde_json::to_vec(&Wrapped { result }) {
            Ok(json) => response::success(operation, &json, self.budget(), None),
            Err(_) => response::internal(operation, "result is not serializable"),
        }
    }

    fn session_result(&self, p: &SessionParams) -> SessionResult {
        let peer = self
            .shared
            .peer
            .lock()
            .map(|g| g.clone())
            .unwrap_or_default();
        let session = self.session();
        let digests = self.shared.digests.clone();
        let command_path = std::env::current_exe()
            .ok()
            .and_then(|p| p.canonicalize().ok())
            .map(|p| p.to_string_lossy().into_owned());
        let combined = digests["combined_sha256"]
            .as_str()
            .unwrap_or_default()
            .to_owned();
        let comparisons = [
            (
                "package_version",
                p.expected_package_version.clone(),
                Some(rea_jobs::REA_VERSION.to_owned()),
                "package_version_mismatch",
            ),
            (
                "catalog_digest",
                p.expected_catalog_digest.clone(),
                Some(combined),
                "catalog_digest_mismatch",
            ),
            (
                "server_path",
                p.expected_server_path.as_ref().map(|path| {
                    Path::new(path)
                        .canonicalize()
                        .map(|p| p.to_string_lossy().into_owned())
                        .unwrap_or_else(|_| path.clone())
                }),
                command_path.clone(),
                "registration_path_mismatch",
            ),
        ];
        let mut reasons = Vec::new();
        let mut any_aligned = false;
        let mut compared = Map::new();
        for (key, expected, actual, mismatch) in comparisons {
            let state = match &expected {
                None => "unknown",
                Some(e) if Some(e) == actual.as_ref() => {
                    any_aligned = true;
                    "aligned"
                }
                Some(_) => {
                    reasons.push(mismatch);
                    "mismatched"
                }
            };
            compared.insert(
                key.to_owned(),
                json!({"state": state, "expected": expected, "actual": actual}),
            );
        }
        let (state, remediation) = if !reasons.is_empty() {
            (
                "mcp_server_restart_required",
                json!("Restart the registered MCP server/client, then compare identity again."),
            )
        } else if any_aligned {
            ("aligned", Value::Null)
        } else {
            (
                "unknown",
                json!(
                    "Pass expected_package_version, expected_catalog_digest or expected_server_path to compare this server with the one you registered."
                ),
            )
        };
        let mut alignment = Map::new();
        alignment.insert("state".to_owned(), json!(state));
        alignment.insert("reasons".to_owned(), json!(reasons));
        alignment.insert("remediation".to_owned(), remediation);
        alignment.insert("comparisons".to_owned(), Value::Object(compared));

        let caps = peer.capabilities.clone().unwrap_or_default();
        let mut client_features = Map::new();
        client_features.insert(
            "elicitation_form".to_owned(),
            json!(caps.elicitation.is_some()),
        );
        client_features.insert("elicitation_url".to_owned(), json!(false));
        client_features.insert("roots".to_owned(), json!(caps.roots.is_some()));
        client_features.insert("sampling".to_owned(), json!(caps.sampling.is_some()));

        let tool_availability = catalog::tools()
            .iter()
            .map(|spec| {
                object(json!({
                    "name": spec.name,
                    "surface": spec.surface,
                    "available": true,
                    "reason": "available",
                    "remediation": null,
                    "client_requirements": {
                        "required": [], "optional": [], "missing_required": [], "missing_optional": [],
                    },
                    "effects": spec.effects.to_json(),
                    "annotations": {
                        "read_only": spec.effects.read_only(),
                        "destructive": spec.effects.may_discard_data,
                        "idempotent": spec.effects.idempotent,
                        "open_world": spec.effects.open_world(),
                    },
                }))
            })
            .collect();

        let opened = session.opened.as_ref();
        let candidates = session::candidates()
            .iter()
            .map(|c| session::candidate_json(c, opened))
            .collect();
        let lineage = json!({"status": "not_observed"});
        let server_identity = object(json!({
            "package": {
                "name": "rea",
                "version": rea_jobs::REA_VERSION,
                "build_commit": std::env::var("REA_BUILD_COMMIT").ok(),
            },
            "server": {
                "name": "rea",
                "version": rea_jobs::REA_VERSION,
                "started_at_unix_ms": self.shared.started_at_unix_ms as u64,
                "command_path": command_path,
            },
            "sdk": {"server": "rmcp", "server_version": RMCP_VERSION},
            "negotiated_protocol_version": peer.protocol_version,
            "client": peer.client.as_ref().map(|(name, version)| json!({"name": name, "version": version})),
            "catalog": {
                "digests": digests,
                "counts": {
                    "mcp_tools": catalog::tools().len(),
                    "cli_commands": self.shared.options.cli_commands.len(),
                },
            },
            "protocol_features": {
                "progress": true, "cancellation": true, "evidence_resources": false, "elicitation": false,
            },
        }));
        let mut recommended_actions = Vec::new();
        if state == "mcp_server_restart_required" {
            recommended_actions.push(
                "Restart the registered MCP server/client, then compare identity again.".to_owned(),
            );
        }
        match opened {
            None => recommended_actions.push(
                "Call analyze_javascript_application with the absolute path of an app.asar or app directory, or inspect_artifact for any other artifact.".to_owned(),
            ),
            Some(o) if matches!(o.target.format.as_str(), "asar" | "directory" | "javascript") => {
                recommended_actions.push(format!(
                    "Call analyze_javascript_application with input_path {}.",
                    o.target.path
                ));
            }
            Some(o) => recommended_actions.push(format!(
                "Call inspect_artifact, then inventory_artifact, with input_path {}.",
                o.target.path
            )),
        }
        SessionResult {
            server_identity,
            alignment,
            open: opened.is_some(),
            target: opened.map(|o| {
                object(json!({
                    "path": o.target.path,
                    "format": o.target.format,
                    "kind": o.target.kind,
                    "sha256": o.target.sha256,
                    "architecture": null,
                }))
            }),
            tool_availability,
            client_features,
            analysis_provider_candidates: candidates,
            analysis_provider_binding: opened.map(|o| {
                object(json!({
                    "provider": {"id": o.provider_id, "name": "REA static engine", "version": rea_jobs::REA_VERSION},
                    "selection_source": o.selection.as_str(),
                    "analysis_profile": null,
                }))
            }),
            analysis_run: opened
                .map(|o| object(json!({"run_id": o.run_id, "process_lineage": lineage.clone()}))),
            process_lineage: object(lineage),
            evidence_ledger: object(json!({
                "records": session.ledger.len(),
                "running_calls": session.running_calls(),
            })),
            recommended_actions,
        }
    }

    async fn open_binary(&self, p: OpenParams, cx: RequestContext<RoleServer>) -> CallToolResult {
        let operation = "open_binary";
        let env = std::env::var("REA_ANALYSIS_PROVIDER").ok();
        let (provider, selection) = match session::select(p.provider_id.as_deref(), env.as_deref())
        {
            Ok(chosen) => chosen,
            Err(err) => {
                let (code, category) = if err.reason == "provider_unavailable" {
                    ("provider_unavailable", "unavailable")
                } else {
                    ("capability_unavailable", "unsupported_provider")
                };
                let candidate_ids: Vec<&str> = session::candidates().iter().map(|c| c.id).collect();
                return response::error_result(json!({
                    "code": code,
                    "category": category,
                    "message": "That analysis provider cannot be used here. Choose one listed as available by binary_session.",
                    "retryable": code == "provider_unavailable",
                    "remediation": {
                        "action": "Call binary_session and pass an available provider_id from analysis_provider_candidates, or auto.",
                        "restart_required": false,
                    },
                    "details": {
                        "operation": operation,
                        "selection_reason": err.reason,
                        "requested_provider_id": err.requested,
                        "candidate_ids": candidate_ids,
                        "rejections": err.rejections,
                    },
                }));
            }
        };
        let cancel = CancelToken::new();
        let watch = watch_cancellation(&cx, &cancel);
        let path = std::path::PathBuf::from(&p.path);
        let job_cancel = cancel.clone();
        let opened =
            tokio::task::spawn_blocking(move || rea_jobs::target::open_target(&path, &job_cancel))
                .await;
        watch.abort();
        let target = match opened {
            Err(_) => return response::internal(operation, "opening panicked"),
            Ok(Err(failure))
                if failure.is_cancellation() || failure.reason == FailureReason::InvalidInput =>
            {
                return response::failure(operation, &failure);
            }
            Ok(Err(failure)) => {
                return response::error_result(json!({
                    "code": "target_unavailable",
                    "category": "unavailable",
                    "message": "REA could not open that path. Check that it exists and is a directory, archive or file REA can read.",
                    "retryable": false,
                    "remediation": {"action": "Pass the absolute path of an existing directory, archive or file.", "restart_required": false},
                    "details": {"operation": operation, "path": p.path, "reason": failure.reason.as_str(), "problem": failure.message},
                }));
            }
            Ok(Ok(target)) => target,
        };
        // A new run id for every successful transition, allocated before any provider starts
        // (the built-in provider starts nothing).
        let run_id = uuid::Uuid::new_v4().to_string();
        let result = OpenResult {
            path: target.path.clone(),
            format: target.format.clone(),
            kind: target.kind.clone(),
            sha256: target.sha256.clone(),
            architecture: None,
            provider_id: provider.to_owned(),
            selection_source: selection.as_str().to_owned(),
            run_id: run_id.clone(),
        };
        self.session().opened = Some(Opened {
            target,
            provider_id: provider.to_owned(),
            selection,
            run_id,
        });
        self.wrapped(operation, &result)
    }

    async fn close_binary(&self) -> CallToolResult {
        let operation = "close_binary";
        let (drained, closed) = {
            let mut session = self.session();
            session.generation += 1;
            (session.cancel_calls(), session.opened.is_some())
        };
        let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
        while self.session().running_calls() > 0 && tokio::time::Instant::now() < deadline {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        let (cleared, remaining) = {
            let mut session = self.session();
            session.opened = None;
            (session.ledger.clear(), session.running_calls())
        };
        if remaining > 0 {
            return response::error_result(json!({
                "code": "cleanup_incomplete",
                "category": "execution_failure",
                "message": "Some of this session's calls are still stopping.",
                "retryable": false,
                "remediation": {"action": "Wait a moment, then call close_binary again.", "restart_required": false},
                "details": {"operation": operation, "cleanup": "incomplete", "resources": ["analysis_call"], "running_calls": remaining},
            }));
        }
        self.wrapped(
            operation,
            &CloseResult {
                closed,
                records_cleared: cleared as u64,
                calls_drained: drained as u64,
            },
        )
    }

    fn get_bundle(&self, operation: &str) -> CallToolResult {
        let session = self.session();
        let mut counter = response::EscapedCounter::default();
        if session
            .ledger
            .write_bundle(&mut counter, &CancelToken::new())
            .is_err()
        {
            return response::internal(operation, "bundle could not be measured");
        }
        // `{"result":` + bundle + `}`, as structured content and as escaped text.
        let structured = counter.raw + 11;
        let text = counter.escaped + 11 + 2 + 2;
        let size = structured + text + 128;
        if size > self.budget().saturating_sub(response::RESERVED_BYTES) {
            return response::too_large(operation, size, self.budget(), None);
        }
        let mut json = Vec::with_capacity(structured as usize);
        json.extend_from_slice(b"{\"result\":");
        if session
            .ledger
            .write_bundle(&mut json, &CancelToken::new())
            .is_err()
        {
            return response::internal(operation, "bundle could not be written");
        }
        json.push(b'}');
        drop(session);
        response::success(operation, &json, self.budget(), None)
    }

    async fn export_bundle(
        &self,
        operation: &str,
        p: ExportParams,
        cx: RequestContext<RoleServer>,
    ) -> CallToolResult {
        let cancel = CancelToken::new();
        let watch = watch_cancellation(&cx, &cancel);
        let this = self.clone();
        let job_cancel = cancel.clone();
        let exported = tokio::task::spawn_blocking(move || {
            let session = this.session();
            session.ledger.export(
                Path::new(&p.path),
                p.overwrite.unwrap_or(false),
                &job_cancel,
            )
        })
        .await;
        watch.abort();
        match exported {
            Err(_) => response::internal(operation, "export panicked"),
            Ok(Err(failure)) => response::failure(operation, &failure),
            Ok(Ok(exported)) => self.wrapped(
                operation,
                &ExportResult {
                    path: exported.path.to_string_lossy().into_owned(),
                    bytes: exported.bytes,
                    records: exported.records as u64,
                },
            ),
        }
    }

    async fn import_bundle(
        &self,
        operation: &str,
        p: ImportParams,
        cx: RequestContext<RoleServer>,
    ) -> CallToolResult {
        let cancel = CancelToken::new();
        let watch = watch_cancellation(&cx, &cancel);
        let job_cancel = cancel.clone();
        let parsed = tokio::task::spawn_blocking(move || {
            let path = Path::new(&p.path);
            if !path.is_absolute() {
                return Err(
                    Failure::new(FailureReason::InvalidInput, "path must be absolute")
                        .with_detail("path", p.path.clone()),
                );
            }
            // Only a regular file is read (never a FIFO or device), and never more than the
            // ledger could hold.
            let meta = std::fs::metadata(path).map_err(|err| {
                Failure::new(FailureReason::Path, "bundle file could not be read")
                    .with_detail("path", p.path.clone())
                    .with_source(err)
            })?;
            if !meta.is_file() {
                return Err(
                    Failure::new(FailureReason::Path, "bundle path is not a regular file")
                        .with_detail("path", p.path.clone()),
                );
            }
            if meta.len() > rea_jobs::ledger::MAX_BYTES {
                return Err(Failure::new(
                    FailureReason::Limit,
                    "bundle file is larger than a ledger holds",
                )
                .with_detail("limit", "bytes")
                .with_detail("maximum", rea_jobs::ledger::MAX_BYTES)
                .with_detail("truncated", true));
            }
            let bytes = std::fs::read(path).map_err(|err| {
                Failure::new(FailureReason::Path, "bundle file could not be read")
                    .with_detail("path", p.path.clone())
                    .with_source(err)
            })?;
            parse_bundle(&bytes, &job_cancel)
        })
        .await;
        watch.abort();
        let parsed = match parsed {
            Err(_) => return response::internal(operation, "import panicked"),
            Ok(Err(failure)) => return response::failure(operation, &failure),
            Ok(Ok(parsed)) => parsed,
        };
        if let Err(cancelled) = cancel.check() {
            return response::failure(operation, &cancelled.into());
        }
        let imported = self.session().ledger.import(parsed);
        match imported {
            Err(failure) => response::failure(operation, &failure),
            Ok(imported) => self.wrapped(
                operation,
                &ImportResult {
                    imported: imported.added as u64,
                    duplicates: imported.duplicates as u64,
                    total: imported.total as u64,
                },
            ),
        }
    }
}

impl ServerHandler for Rea {
    fn get_info(&self) -> InitializeResult {
        InitializeResult::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(Implementation::new("rea", rea_jobs::REA_VERSION))
            .with_instructions(
                "rea reverse-engineers shipped applications without running them. Start with binary_session {} to see what is callable, then analyze_javascript_application (Electron app.asar or app directory) or inspect_artifact / inventory_artifact (any directory, ASAR or zip). Results are sealed Evidence; later calls can reference them as {kind: \"retained-evidence\", evidence_id}.",
            )
    }

    async fn initialize(
        &self,
        request: InitializeRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<InitializeResult, McpError> {
        context.peer.set_peer_info(request.clone());
        let result = self.negotiate_initialize(&request)?;
        if let Ok(mut peer) = self.shared.peer.lock() {
            peer.protocol_version = Some(result.protocol_version.to_string());
            peer.client = Some((
                request.client_info.name.clone(),
                request.client_info.version.clone(),
            ));
            peer.capabilities = Some(request.capabilities.clone());
        }
        Ok(result)
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, McpError> {
        Ok(ListToolsResult::with_all_items(
            catalog::tools()
                .iter()
                .map(catalog::ToolSpec::to_tool)
                .collect(),
        ))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, McpError> {
        let Some(spec) = catalog::tool(&request.name) else {
            return Err(McpError::invalid_params(
                format!("unknown tool: {}", request.name),
                None,
            ));
        };
        let name = spec.name;
        let token = request
            .meta
            .as_ref()
            .and_then(|meta| meta.get_progress_token())
            .or_else(|| context.meta.get_progress_token());
        let args = Value::Object(request.arguments.unwrap_or_default());
        let this = self.clone();
        guarded(name, async move {
            this.dispatch(name, args, token, context).await
        })
        .await
        .map(Into::into)
    }
}

/// Runs a handler as its own task, so that a panic in it becomes an internal tool error and the
/// server keeps serving.
async fn guarded(
    name: &'static str,
    handler: impl Future<Output = Result<CallToolResult, McpError>> + Send + 'static,
) -> Result<CallToolResult, McpError> {
    match tokio::spawn(handler).await {
        Ok(outcome) => outcome,
        Err(_) => Ok(response::internal(name, "the handler panicked")),
    }
}

/// Trips `cancel` when the client cancels the request.
fn watch_cancellation(
    cx: &RequestContext<RoleServer>,
    cancel: &CancelToken,
) -> tokio::task::JoinHandle<()> {
    let ct = cx.ct.clone();
    let cancel = cancel.clone();
    tokio::spawn(async move {
        ct.cancelled().await;
        cancel.cancel(CancelReason::User);
    })
}

/// Decodes arguments; a mismatch with the schema is a JSON-RPC invalid-params error.
fn decode<T: DeserializeOwned>(operation: &str, args: Value) -> Result<T, McpError> {
    serde_json::from_value(args).map_err(|err| {
        McpError::invalid_params(
            format!("invalid arguments for {operation}: {err}"),
            Some(json!({"code": "invalid_request", "operation": operation})),
        )
    })
}

fn object(value: Value) -> Map<String, Value> {
    match value {
        Value::Object(map) => map,
        _ => Map::new(),
    }
}

fn invalid(field: &str, message: String) -> Failure {
    Failure::new(FailureReason::InvalidInput, message).with_detail(
        "issues",
        json!([{"path": [field], "reason": "invalid_value"}]),
    )
}

/// A retained-evidence reference this connection does not hold.
fn missing_evidence(evidence_id: String) -> Failure {
    evidence_failure("no Evidence with this id is retained by this connection")
        .with_detail("evidence_id", evidence_id)
        .with_detail("reason", "missing")
        .with_detail("expected", "Evidence retained by the current connection")
        .with_detail("actual", Value::Null)
}

fn in_range(field: &str, value: u64, min: u64, max: u64) -> Result<(), Failure> {
    if (min..=max).contains(&value) {
        Ok(())
    } else {
        Err(invalid(
            field,
            format!("{field} must be between {min} and {max}"),
        ))
    }
}

/// The shared artifact fields as the engine takes them.
fn artifact(
    p: &impl ArtifactParams,
) -> Result<(std::path::PathBuf, Limits, IntegrityPolicy), Failure> {
    let path = std::path::PathBuf::from(p.input_path());
    if !path.is_absolute() {
        return Err(invalid(
            "input_path",
            "input_path must be an absolute path".to_owned(),
        ));
    }
    let integrity = match p.integrity_policy().unwrap_or_default() {
        PolicyParam::Fail => IntegrityPolicy::Fail,
        PolicyParam::RecordAndContinue => {
            let max = p.max_integrity_mismatches().unwrap_or(10);
            in_range("max_integrity_mismatches", u64::from(max), 1, 100)?;
            IntegrityPolicy::RecordAndContinue {
                max_mismatches: max,
            }
        }
    };
    let limits = p.limits().copied().unwrap_or_default().apply();
    Ok((path, limits, integrity))
}

fn inventory_request(p: &InventoryParams) -> Result<InventoryRequest, Failure> {
    let (input_path, limits, integrity) = artifact(p)?;
    let page = if p.all.unwrap_or(false) {
        PageRequest::All
    } else {
        let limit = p.limit.unwrap_or(100);
        in_range("limit", limit, 1, 500)?;
        PageRequest::uniform(p.offset.unwrap_or(0), limit)
    };
    Ok(InventoryRequest {
        input_path,
        limits,
        page,
        integrity,
    })
}

fn analyze_request(p: &AnalyzeParams) -> Result<AnalyzeRequest, Failure> {
    let (input_path, limits, integrity) = artifact(p)?;
    let text_limits = p.text_limits.unwrap_or_default().apply();
    Ok(AnalyzeRequest {
        input_path,
        format: match p.format.unwrap_or_default() {
            FormatParam::Auto => Format::Auto,
            FormatParam::Asar => Format::Asar,
            FormatParam::Directory => Format::Directory,
            FormatParam::Zip => Format::Zip,
            FormatParam::Tar => Format::Tar,
            FormatParam::Squashfs => Format::Squashfs,
            FormatParam::Rpm => Format::Rpm,
            FormatParam::SevenZ => Format::SevenZ,
            FormatParam::Exe => Format::Exe,
            FormatParam::Msi => Format::Msi,
            FormatParam::Cab => Format::Cab,
            FormatParam::Dmg => Format::Dmg,
            FormatParam::Pkg => Format::Pkg,
        },
        limits,
        text_limits,
        source_maps: match p.source_maps.unwrap_or_default() {
            SourceMapsParam::Declarations => SourceMaps::Declarations,
            SourceMapsParam::Contents => SourceMaps::Contents,
        },
        integrity,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_panicking_handler_is_an_internal_tool_error() {
        let panicked = guarded("inventory_artifact", async {
            if std::env::var_os("REA_NEVER_SET_IN_TESTS").is_none() {
                panic!("handler bug");
            }
            Ok(CallToolResult::success(vec![]))
        })
        .await
        .unwrap();
        assert_eq!(panicked.is_error, Some(true));
        let error = &panicked.structured_content.unwrap()["error"];
        assert_eq!(error["code"], "execution_failure");
        assert_eq!(error["details"]["operation"], "inventory_artifact");
        let fine = guarded("binary_session", async {
            Ok(CallToolResult::success(vec![]))
        })
        .await
        .unwrap();
        assert_eq!(fine.is_error, Some(false));
    }
}

//! One connection's state: the Evidence ledger, the open target, the run, and the calls in
//! flight. Nothing here analyses anything.

use std::collections::BTreeMap;

use rea_core::{CancelReason, CancelToken};
use rea_jobs::ledger::Ledger;
use rea_jobs::target::Target;
use serde_json::{Map, Value, json};

/// The built-in provider: REA's own static artifact and JavaScript engine.
pub const STATIC_PROVIDER: &str = "rea-static";

/// How a provider was chosen.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SelectionSource {
    Request,
    Environment,
    AutoSingleCandidate,
}

impl SelectionSource {
    pub fn as_str(self) -> &'static str {
        match self {
            SelectionSource::Request => "request",
            SelectionSource::Environment => "environment",
            SelectionSource::AutoSingleCandidate => "auto-single-candidate",
        }
    }
}

/// The open target and its binding.
#[derive(Debug, Clone)]
pub struct Opened {
    pub target: Target,
    pub provider_id: String,
    pub selection: SelectionSource,
    pub run_id: String,
}

/// A connection's mutable state.
#[derive(Debug, Default)]
pub struct Session {
    pub ledger: Ledger,
    pub opened: Option<Opened>,
    /// Bumped by `close_binary`: a call that started under an older generation never records.
    pub generation: u64,
    calls: BTreeMap<u64, CancelToken>,
    next_call: u64,
}

impl Session {
    /// Registers a running call; returns its id and the generation it runs under.
    pub fn start_call(&mut self, cancel: CancelToken) -> (u64, u64) {
        let id = self.next_call;
        self.next_call += 1;
        self.calls.insert(id, cancel);
        (id, self.generation)
    }

    pub fn end_call(&mut self, id: u64) {
        self.calls.remove(&id);
    }

    pub fn running_calls(&self) -> usize {
        self.calls.len()
    }

    /// Cancels every running call; returns how many there were.
    pub fn cancel_calls(&self) -> usize {
        for cancel in self.calls.values() {
            cancel.cancel(CancelReason::Shutdown);
        }
        self.calls.len()
    }
}

/// Why a provider is or is not available on this host.
#[derive(Debug, Clone)]
pub struct Candidate {
    pub id: &'static str,
    pub name: &'static str,
    pub version: Option<String>,
    pub available: Result<(), (&'static str, String)>,
}

/// The provider candidates on this host, sorted by id. Discovery only looks at the host; it
/// starts nothing.
pub fn candidates() -> Vec<Candidate> {
    let ghidra = match ghidra_installation() {
        Some(dir) => Err((
            "not_configured",
            format!(
                "A Ghidra installation was found at {dir}, but this REA build has no Ghidra adapter."
            ),
        )),
        None => Err((
            "executable_missing",
            "No Ghidra installation was found (GHIDRA_INSTALL_DIR is unset and analyzeHeadless is not on PATH).".to_owned(),
        )),
    };
    vec![
        Candidate {
            id: "ghidra",
            name: "Ghidra",
            version: None,
            available: ghidra,
        },
        Candidate {
            id: STATIC_PROVIDER,
            name: "REA static engine",
            version: Some(rea_jobs::REA_VERSION.to_owned()),
            available: Ok(()),
        },
    ]
}

fn ghidra_installation() -> Option<String> {
    if let Some(dir) = std::env::var_os("GHIDRA_INSTALL_DIR")
        && std::path::Path::new(&dir)
            .join("support/analyzeHeadless")
            .is_file()
    {
        return Some(dir.to_string_lossy().into_owned());
    }
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join("analyzeHeadless"))
        .find(|candidate| candidate.is_file())
        .map(|found| found.to_string_lossy().into_owned())
}

/// A candidate as `binary_session` lists it.
pub fn candidate_json(candidate: &Candidate, opened: Option<&Opened>) -> Map<String, Value> {
    let availability = match &candidate.available {
        Ok(()) => json!({"status": "available", "code": null, "reason": null, "diagnostics": []}),
        Err((code, reason)) => {
            json!({"status": "unavailable", "code": code, "reason": reason, "diagnostics": []})
        }
    };
    let target_support = match opened {
        None => json!({
            "status": "unknown",
            "code": null,
            "reason": "No target is open; support is decided when one is.",
            "diagnostics": [],
        }),
        Some(_) if candidate.id == STATIC_PROVIDER => {
            json!({"status": "supported", "code": null, "reason": null, "diagnostics": []})
        }
        Some(_) => json!({
            "status": "unknown",
            "code": null,
            "reason": "The provider is not available on this host.",
            "diagnostics": [],
        }),
    };
    let capabilities: Vec<&str> = if candidate.id == STATIC_PROVIDER {
        crate::catalog::tools()
            .iter()
            .filter(|t| t.surface == "artifact" || t.surface == "javascript")
            .map(|t| t.name)
            .collect()
    } else {
        Vec::new()
    };
    let mut out = Map::new();
    out.insert(
        "provider".to_owned(),
        json!({"id": candidate.id, "name": candidate.name, "version": candidate.version}),
    );
    out.insert("availability".to_owned(), availability);
    out.insert("target_support".to_owned(), target_support);
    out.insert(
        "selected".to_owned(),
        Value::from(opened.is_some_and(|o| o.provider_id == candidate.id)),
    );
    out.insert("capabilities".to_owned(), json!(capabilities));
    out
}

/// Why a provider choice failed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SelectionError {
    /// `unknown_provider`, `provider_unavailable`, `ambiguous` or `invalid_options`.
    pub reason: &'static str,
    pub requested: String,
    pub rejections: Vec<Value>,
}

/// Chooses a provider for a target: `requested` is a provider id or `auto`; with `auto`,
/// `REA_ANALYSIS_PROVIDER` is consulted first, then the single available candidate is taken.
/// A provider is never switched automatically.
pub fn select(
    requested: Option<&str>,
    env: Option<&str>,
) -> Result<(&'static str, SelectionSource), SelectionError> {
    let (wanted, source) = match requested {
        Some(id) if id != "auto" => (id, SelectionSource::Request),
        _ => match env {
            Some(id) if !id.is_empty() && id != "auto" => (id, SelectionSource::Environment),
            _ => ("auto", SelectionSource::AutoSingleCandidate),
        },
    };
    let all = candidates();
    let rejections: Vec<Value> = all
        .iter()
        .filter_map(|c| match &c.available {
            Ok(()) => None,
            Err((code, reason)) => Some(json!({
                "provider_id": c.id,
                "code": code,
                "reason": reason,
                "diagnostics": [],
            })),
        })
        .collect();
    if wanted.trim().is_empty() {
        return Err(SelectionError {
            reason: "invalid_options",
            requested: wanted.to_owned(),
            rejections,
        });
    }
    if wanted == "auto" {
        let available: Vec<&Candidate> = all.iter().filter(|c| c.available.is_ok()).collect();
        return match available.as_slice() {
            [only] => Ok((only.id, source)),
            [] => Err(SelectionError {
                reason: "provider_unavailable",
                requested: wanted.to_owned(),
                rejections,
            }),
            _ => Err(SelectionError {
                reason: "ambiguous",
                requested: wanted.to_owned(),
                rejections,
            }),
        };
    }
    match all.iter().find(|c| c.id == wanted) {
        None => Err(SelectionError {
            reason: "unknown_provider",
            requested: wanted.to_owned(),
            rejections,
        }),
        Some(c) if c.available.is_err() => Err(SelectionError {
            reason: "provider_unavailable",
            requested: wanted.to_owned(),
            rejections,
        }),
        Some(c) => Ok((c.id, source)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn auto_takes_the_single_available_candidate() {
        let (id, source) = select(None, None).unwrap();
        assert_eq!(id, STATIC_PROVIDER);
        assert_eq!(source, SelectionSource::AutoSingleCandidate);
        let (id, source) = select(Some("auto"), Some(STATIC_PROVIDER)).unwrap();
        assert_eq!(
            (id, source),
            (STATIC_PROVIDER, SelectionSource::Environment)
        );
    }

    #[test]
    fn unknown_and_unavailable_choices_are_typed() {
        let unknown = select(Some("hopper-x"), None).unwrap_err();
        assert_eq!(unknown.reason, "unknown_provider");
        assert_eq!(unknown.requested, "hopper-x");
        let ghidra = select(Some("ghidra"), None).unwrap_err();
        assert_eq!(ghidra.reason, "provider_unavailable");
        assert!(
            ghidra
                .rejections
                .iter()
                .any(|r| r["provider_id"] == "ghidra")
        );
        assert_eq!(
            select(Some(" "), None).unwrap_err().reason,
            "invalid_options"
        );
    }

    #[test]
    fn candidates_are_sorted_by_id() {
        let ids: Vec<&str> = candidates().iter().map(|c| c.id).collect();
        let mut sorted = ids.clone();
        sorted.sort();
        assert_eq!(ids, sorted);
    }
}

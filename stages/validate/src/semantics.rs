//! The `semantic_graph` section of an application analysis (`JavaScriptSemanticRelationGraph`
//! v1): its vocabulary, order, references and every id, recomputed.

use rayon::prelude::*;
use rea_graph::javascript::semantics as sg;
use rea_hash::{CanonicalJson, ObjectDigest, Piece};
use rustc_hash::FxHashSet as HashSet;
use serde::Deserialize;
use serde_json::Value;
use serde_json::value::RawValue;

use crate::ValidationError;

/// The section's item arrays as found in the record's text, in the scan that finds the
/// application graph's.
#[derive(Deserialize, Default)]
pub(crate) struct SectionItemsText<'a> {
    #[serde(borrow, default)]
    nodes: Vec<&'a RawValue>,
    #[serde(borrow, default)]
    relations: Vec<&'a RawValue>,
    #[serde(borrow, default)]
    unknowns: Vec<&'a RawValue>,
}

const ARRAYS: [&str; 3] = ["nodes", "relations", "unknowns"];

/// The section's non-empty item arrays located in the record's text (each framed exactly and
/// its items canonical), to be left out of the text parsed as one value: most of an analysis
/// of the application's own code is this section. An empty array stays where it is.
pub(crate) struct SectionText<'a> {
    /// Per array of [`ARRAYS`]: its text, when it has items.
    texts: [Option<&'a str>; 3],
    items: [Vec<&'a RawValue>; 3],
}

impl<'a> SectionText<'a> {
    pub(crate) fn located(
        whole: &'a str,
        found: SectionItemsText<'a>,
    ) -> Result<Self, ValidationError> {
        let items = [found.nodes, found.relations, found.unknowns];
        let mut texts = [None; 3];
        for (text, items) in texts.iter_mut().zip(&items) {
            *text = crate::javascript::framed(whole, items)?;
            if !matches!(rea_hash::canonical_items(items), Ok(true)) {
                return Err(ValidationError::new("", "bytes are not in canonical form"));
            }
        }
        Ok(SectionText { texts, items })
    }

    /// Where the located arrays sit in `whole`.
    pub(crate) fn spans(&self, whole: &str) -> Vec<std::ops::Range<usize>> {
        self.texts
            .iter()
            .flatten()
            .map(|text| {
                let start = text.as_ptr() as usize - whole.as_ptr() as usize;
                start..start + text.len()
            })
            .collect()
    }
}

/// The left-out items, parsed one by one in parallel, with their arrays' text.
pub(crate) struct SectionItems<'a> {
    texts: [Option<&'a str>; 3],
    items: [Vec<Value>; 3],
}

impl<'a> SectionItems<'a> {
    pub(crate) fn parse(text: SectionText<'a>) -> Result<Self, ValidationError> {
        let parse = |raws: &[&RawValue], name: &str| -> Result<Vec<Value>, ValidationError> {
            raws.par_iter()
                .map(|raw| serde_json::from_str(raw.get()))
                .collect::<Result<_, _>>()
                .map_err(|err| {
                    ValidationError::new(
                        format!("/semantic_graph/{name}"),
                        format!("not json: {err}"),
                    )
                })
        };
        let [nodes, relations, unknowns] = &text.items;
        let (nodes, (relations, unknowns)) = rayon::join(
            || parse(nodes, "nodes"),
            || {
                rayon::join(
                    || parse(relations, "relations"),
                    || parse(unknowns, "unknowns"),
                )
            },
        );
        Ok(SectionItems {
            texts: text.texts,
            items: [nodes?, relations?, unknowns?],
        })
    }

    /// Puts the items back into `section`, whose arrays were left out as `[]`.
    pub(crate) fn restore(self, section: &mut Value) {
        for ((name, text), items) in ARRAYS.iter().zip(self.texts).zip(self.items) {
            if text.is_some() {
                section[*name] = Value::Array(items);
            }
        }
    }

    /// An array by name: the left-out items, or `section`'s own when it was left in place.
    fn array<'s>(&'s self, section: &'s Value, name: &str) -> Option<&'s [Value]> {
        let at = ARRAYS.iter().position(|a| *a == name)?;
        match self.texts[at] {
            Some(_) => Some(&self.items[at]),
            None => section[name].as_array().map(Vec::as_slice),
        }
    }

    /// [`sg::graph_id`] of the section, its left-out arrays taken as their (canonical) text.
    fn graph_id(&self, section: &Value) -> Result<String, rea_hash::CanonicalError> {
        let Some(members) = section.as_object() else {
            return sg::graph_id(section);
        };
        let mut members: Vec<(&String, &Value)> = members.iter().collect();
        members.sort_by(|a, b| {
            if rea_hash::utf16_lt(a.0, b.0) {
                std::cmp::Ordering::Less
            } else if rea_hash::utf16_lt(b.0, a.0) {
                std::cmp::Ordering::Greater
            } else {
                std::cmp::Ordering::Equal
            }
        });
        let mut digest = ObjectDigest::new();
        for (key, value) in members {
            if key == "graph_id" {
                continue;
            }
            let left_out = ARRAYS
                .iter()
                .position(|a| a == key)
                .and_then(|at| self.texts[at]);
            match left_out {
                Some(text) => digest.member(key, Piece::Verbatim(text))?,
                None => digest.member(key, Piece::Json(&CanonicalJson::of_value(value)?))?,
            }
        }
        Ok(format!("{}{}", sg::GRAPH_PREFIX, digest.finish()))
    }
}

fn bad<T>(at: impl Into<String>, problem: &str) -> Result<T, ValidationError> {
    Err(ValidationError::new(at.into(), problem))
}

/// Checks `section`, the section of `result` (whose application graph id and root digest it
/// must name).
pub(crate) fn check(
    section: &Value,
    result: &Value,
    items: Option<&SectionItems<'_>>,
) -> Result<(), ValidationError> {
    let at = |field: &str| format!("/semantic_graph/{field}");
    if section["schema"] != sg::SCHEMA || section["schema_version"] != 1 {
        return bad(
            at("schema"),
            "must be JavaScriptSemanticRelationGraph version 1",
        );
    }
    if section["algorithm"] != sg::ALGORITHM {
        return bad(at("algorithm"), "unknown algorithm");
    }
    if section["application_graph_id"] != result["graph"]["graph_id"] {
        return bad(
            at("application_graph_id"),
            "must be the analysis's application graph id",
        );
    }
    if section["root_artifact_sha256"] != result["root_artifact_sha256"] {
        return bad(
            at("root_artifact_sha256"),
            "must be the analysis's root artifact digest",
        );
    }
    let array = |name: &str| match items {
        Some(items) => items.array(section, name),
        None => section[name].as_array().map(Vec::as_slice),
    };
    let (Some(nodes), Some(relations), Some(unknowns), Some(roots)) = (
        array("nodes"),
        array("relations"),
        array("unknowns"),
        section["root_node_ids"].as_array(),
    ) else {
        return bad(
            at("nodes"),
            "nodes, relations, unknowns and root_node_ids must be arrays",
        );
    };
    if nodes.len() > sg::MAX_NODES
        || relations.len() > sg::MAX_RELATIONS
        || unknowns.len() > sg::MAX_UNKNOWNS
        || roots.len() > sg::MAX_ROOTS
    {
        return bad(at("nodes"), "a bound of the section is exceeded");
    }
    let sorted = |items: &[Value], key: &str, name: &str| -> Result<(), ValidationError> {
        for (i, pair) in items.windows(2).enumerate() {
            if pair[0][key].as_str() >= pair[1][key].as_str() {
                return bad(
                    format!("/semantic_graph/{name}/{}", i + 1),
                    "must be sorted by id and unique",
                );
            }
        }
        Ok(())
    };
    sorted(nodes, "node_id", "nodes")?;
    sorted(relations, "relation_id", "relations")?;
    sorted(unknowns, "unknown_id", "unknowns")?;
    let ids: HashSet<&str> = nodes.iter().filter_map(|n| n["node_id"].as_str()).collect();
    let exists = |v: &Value| v.as_str().is_some_and(|id| ids.contains(id));
    nodes.par_iter().enumerate().try_for_each(|(i, node)| {
        let at = |field: &str| format!("/semantic_graph/nodes/{i}/{field}");
        if !sg::NODE_KINDS.contains(&node["kind"].as_str().unwrap_or_default()) {
            return bad(at("kind"), "unknown kind");
        }
        let role = node["identity"]["role_key"].as_str().unwrap_or_default();
        if role.is_empty() || role.len() > 1024 {
            return bad(at("identity"), "role_key must be 1 to 1024 bytes");
        }
        if node["identity"]["module_path"]
            .as_str()
            .is_none_or(str::is_empty)
        {
            return bad(at("identity"), "module_path must be a path");
        }
        if !node["function_node_id"].is_null() && !exists(&node["function_node_id"]) {
            return bad(at("function_node_id"), "names no node of the section");
        }
        let links = node["application_node_ids"].as_array();
        if links.is_none_or(|l| {
            l.len() > sg::MAX_APPLICATION_LINKS
                || l.iter()
                    .any(|id| !id.as_str().is_some_and(|s| s.starts_with("jag_node_")))
        }) {
            return bad(
                at("application_node_ids"),
                "must be at most 64 application graph node ids",
            );
        }
        if sg::node_id(node).ok().as_deref() != node["node_id"].as_str() {
            return bad(at("node_id"), "does not match the node's kind and identity");
        }
        Ok(())
    })?;
    relations
        .par_iter()
        .enumerate()
        .try_for_each(|(i, relation)| {
            let at = |field: &str| format!("/semantic_graph/relations/{i}/{field}");
            if sg::family_of(relation["relation"].as_str().unwrap_or_default()).is_none() {
                return bad(at("relation"), "unknown relation");
            }
            if !["resolved", "candidate"]
                .contains(&relation["resolution"].as_str().unwrap_or_default())
            {
                return bad(at("resolution"), "must be resolved or candidate");
            }
            if !exists(&relation["source_node_id"]) || !exists(&relation["target_node_id"]) {
                return bad(at("source_node_id"), "names no node of the section");
            }
            if sg::relation_id(relation).ok().as_deref() != relation["relation_id"].as_str() {
                return bad(at("relation_id"), "does not match the relation");
            }
            Ok(())
        })?;
    unknowns
        .par_iter()
        .enumerate()
        .try_for_each(|(i, unknown)| {
            let at = |field: &str| format!("/semantic_graph/unknowns/{i}/{field}");
            if !sg::UNKNOWN_REASONS.contains(&unknown["reason"].as_str().unwrap_or_default()) {
                return bad(at("reason"), "unknown reason");
            }
            let family = unknown["family"].as_str().unwrap_or_default();
            if !sg::FAMILIES.iter().any(|(f, _)| *f == family) {
                return bad(at("family"), "unknown family");
            }
            let kinds = unknown["relation_kinds"].as_array();
            if kinds.is_none_or(|k| {
                k.is_empty()
                    || k.len() > 45
                    || k.windows(2).any(|p| p[0].as_str() >= p[1].as_str())
                    || k.iter()
                        .any(|r| sg::family_of(r.as_str().unwrap_or_default()).is_none())
            }) {
                return bad(
                    at("relation_kinds"),
                    "must be 1 to 45 relations, sorted and unique",
                );
            }
            if !unknown["node_id"].is_null() && !exists(&unknown["node_id"]) {
                return bad(at("node_id"), "names no node of the section");
            }
            let candidates = unknown["candidate_node_ids"].as_array();
            if candidates.is_none_or(|c| {
                c.len() > 1000
                    || c.windows(2).any(|p| p[0].as_str() >= p[1].as_str())
                    || !c.iter().all(exists)
            }) {
                return bad(
                    at("candidate_node_ids"),
                    "must be nodes of the section, sorted and unique",
                );
            }
            if sg::unknown_id(unknown).ok().as_deref() != unknown["unknown_id"].as_str() {
                return bad(at("unknown_id"), "does not match the unknown");
            }
            Ok(())
        })?;
    let modules: HashSet<&str> = nodes
        .iter()
        .filter(|n| n["kind"] == "module")
        .filter_map(|n| n["node_id"].as_str())
        .collect();
    if roots.len() != modules.len()
        || roots.windows(2).any(|p| p[0].as_str() >= p[1].as_str())
        || !roots
            .iter()
            .all(|r| r.as_str().is_some_and(|r| modules.contains(r)))
    {
        return bad(
            at("root_node_ids"),
            "must be the section's module nodes, sorted",
        );
    }
    let families = section["coverage"]["families"].as_array();
    let expected: Vec<&str> = sg::FAMILIES.iter().map(|(f, _)| *f).collect();
    if families.is_none_or(|f| {
        f.len() != expected.len()
            || f.iter()
                .zip(&expected)
                .any(|(f, e)| f["family"].as_str() != Some(e))
    }) {
        return bad(
            at("coverage/families"),
            "must list the 12 families in order",
        );
    }
    let graph_id = match items {
        Some(items) => items.graph_id(section),
        None => sg::graph_id(section),
    };
    if graph_id.ok().as_deref() != section["graph_id"].as_str() {
        return bad(at("graph_id"), "does not match the section");
    }
    Ok(())
}

//! One export of one application against one export of another: the analysis behind
//! `compare_javascript_export_shapes`.
//!
//! Each side is the `normalized_result` of validated `analyze_javascript_application` Evidence,
//! whose `export_shapes` section (see [`crate::javascript::shapes`]) lists every file's top-level
//! exports, and every bundled module factory's, with their shapes. A selector (`module_path`,
//! `module_key` for a factory, `export_name`) must match exactly one export; a missing one makes
//! the comparison `unknown` and lists candidates (the module's other exports, then the file's,
//! then exports of that name elsewhere, then modules whose path ends the same way).
//! There is no fuzzy matching: a candidate is listed, never chosen.
//!
//! Attributes (`kind`, `async`, `generator`, `parameter_arity`) are compared as values; the module
//! syntax (ES module or CommonJS) is not a shape, and each side's export record shows it.
//! Return variants (a value's one shape) are paired, in this order:
//! 1. `identical`: equal shapes, first to first;
//! 2. `discriminant`: a field every remaining object variant on both sides holds as a literal,
//!    unique on each side (`/type`); equal values pair, which is reciprocal by uniqueness (the
//!    first such field, in code-point order);
//! 3. `type`: a remaining variant of a type (not an object) that is the only one of that type
//!    on each side;
//! 4. `remaining`: one variant left on each side.
//!
//! Variants left on one side only are `removed` or `added` when both exports are `complete` and
//! neither has an `unknown` variant (which may be the same value as the lone one), else `unknown`;
//! variants left on both sides are `unknown` (ambiguous). Paired variants are compared field by
//! field; each change is a JSON Pointer (RFC 6901) into the variant's value:
//! - a field on one side only is `added`/`removed` only if the object is `complete` on both
//!   sides (no spread, computed key, bound, or possible mutation), else `unknown`; arrays the
//!   same by position;
//! - different types or literal values are `changed`, and so are instances of constructors
//!   imported under different names; a literal against a computed value of the same type, or
//!   an instance of a local constructor against another, is `unknown`;
//! - anything `unknown` (a call, a member, a parameter) is an `unknown` change, never equal.
//!
//! The status is `changed` when any attribute or change is `added`, `removed` or `changed`;
//! else `unknown` when a selection failed, any change is `unknown`, or either export is
//! `partial`; else `unchanged`. When the static reading leaves something undecided, the result
//! recommends a controlled replay (running the export under a harness the investigator
//! controls); nothing is run here.
//!
//! Ids (H = lowercase hex SHA-256 of RFC 8785 canonical JSON): `comparison_id` is `jsxc_` + H(the
//! result without `comparison_id`). The validator recomputes it and the counts.

use std::collections::BTreeSet;

use rea_core::{Failure, FailureReason};
use rea_exec::StageCx;
use rea_hash::CanonicalError;
use serde::Deserialize;
use serde_json::value::RawValue;
use serde_json::{Map, Value, json};

pub const OPERATION: &str = "compare_javascript_export_shapes";
pub const SCHEMA: &str = "JavaScriptExportShapeComparison";
pub const COMPARISON_PREFIX: &str = "jsxc_";
/// Changes listed: the default and the most.
pub const DEFAULT_CHANGES: usize = 1_000;
pub const MAX_CHANGES: usize = 10_000;
/// Candidates listed per failed selector: the default and the most.
pub const DEFAULT_CANDIDATES: usize = 50;
pub const MAX_CANDIDATES: usize = 1_000;
/// Longest selector accepted.
pub const MAX_SELECTOR: usize = 4096;

pub const STATUSES: [&str; 3] = ["unchanged", "changed", "unknown"];
pub const CHANGES: [&str; 4] = ["added", "removed", "changed", "unknown"];
pub const PAIRINGS: [&str; 6] = [
    "identical",
    "discriminant",
    "type",
    "remaining",
    "unpaired",
    "ambiguous",
];
/// Attributes compared as values.
/// Attributes compared as values (the module syntax, ES module or CommonJS, is not a shape:
/// each side's export record shows it).
pub const ATTRIBUTES: [&str; 4] = ["kind", "async", "generator", "parameter_arity"];

/// What this comparison never covers.
pub const STANDING_LIMITATIONS: [&str; 2] = [
    "shapes are read from each side's syntax without running code; an unknown part is reported as unknown, never as equal",
    "a missing field counts as added or removed only where both objects are complete; variants pair only on identical shapes, a unique literal discriminant, a unique type, or as the one variant left",
];

/// One selector: an export by module path, module key (a bundle's module factory; `None`
/// for the file's own exports) and name.
#[derive(Debug, Clone)]
pub struct Selector {
    pub module_path: String,
    /// The factory's key as written: `123`, or `./src/api.js`.
    pub module_key: Option<String>,
    pub export_name: String,
}

impl Selector {
    /// Whether `export` is the module this names (whatever its export name).
    fn module_is(&self, export: &Value) -> bool {
        export["module_path"].as_str() == Some(self.module_path.as_str())
            && match (&export["module_key"], &self.module_key) {
                (Value::Null, None) => true,
                (Value::Number(n), Some(key)) => n.to_string() == *key,
                (Value::String(s), Some(key)) => s == key,
                _ => false,
            }
    }
}

#[derive(Debug, Clone, Copy)]
pub struct Limits {
    pub max_changes: usize,
    pub max_candidates: usize,
}

/// One side as read from its record.
pub struct Side {
    pub evidence_id: String,
    pub graph_id: String,
    /// The section's exports; `None` when the analysis predates export shapes.
    pub exports: Option<Vec<Value>>,
}

#[derive(Deserialize)]
struct ResultText<'a> {
    #[serde(borrow, default)]
    export_shapes: Option<&'a RawValue>,
    graph: GraphId,
}

#[derive(Deserialize)]
struct GraphId {
    graph_id: String,
}

#[derive(Deserialize)]
struct Section {
    exports: Vec<Value>,
}

impl Side {
    /// Reads a validated application record's result text.
    pub fn read(name: &str, evidence_id: &str, result: &[u8]) -> Result<Side, Failure> {
        let text: ResultText<'_> = serde_json::from_slice(result).map_err(|err| {
            Failure::new(
                FailureReason::InvalidInput,
                format!("{name} is not an application analysis: {err}"),
            )
            .with_detail("field", name)
        })?;
        let exports = text
            .export_shapes
            .map(|raw| serde_json::from_str::<Section>(raw.get()).map(|s| s.exports))
            .transpose()
            .map_err(|err| {
                Failure::new(
                    FailureReason::Internal,
                    format!("{name}'s export shapes could not be read: {err}"),
                )
            })?;
        Ok(Side {
            evidence_id: evidence_id.to_owned(),
            graph_id: text.graph.graph_id,
            exports,
        })
    }
}

/// Compares the selected exports.
pub fn compare(
    cx: &StageCx<'_>,
    sides: [&Side; 2],
    selectors: [&Selector; 2],
    limits: Limits,
    parameters: &Value,
) -> Result<Value, Failure> {
    let selected: Vec<(Value, Option<&Value>)> = sides
        .iter()
        .zip(selectors)
        .map(|(side, selector)| select(side, selector, limits.max_candidates))
        .collect();
    cx.check()?;
    let mut out = Changes::new(limits.max_changes);
    let mut variants = Vec::new();
    let mut attribute_changes = Vec::new();
    let mut reason = Value::Null;
    let both = match (selected[0].1, selected[1].1) {
        (Some(left), Some(right)) => Some((left, right)),
        (left, right) => {
            reason = Value::from(
                match (
                    sides[0].exports.is_some(),
                    sides[1].exports.is_some(),
                    left,
                    right,
                ) {
                    (false, _, _, _) | (_, false, _, _) => "no-export-shapes",
                    (_, _, None, None) => "both-missing",
                    (_, _, None, _) => "left-missing",
                    _ => "right-missing",
                },
            );
            None
        }
    };
    let mut partial = both.is_none();
    if let Some((left, right)) = both {
        partial = left["status"] != "complete" || right["status"] != "complete";
        for attribute in ATTRIBUTES {
            if left[attribute] != right[attribute] {
                attribute_changes.push(json!({
                    "attribute": attribute, "left": left[attribute], "right": right[attribute],
                }));
            }
        }
        let empty = Vec::new();
        let left_shapes = left["shapes"].as_array().unwrap_or(&empty);
        let right_shapes = right["shapes"].as_array().unwrap_or(&empty);
        // A variant left unpaired is added or removed only when both exports are complete and
        // neither side has an unknown variant (which may be the same value).
        let unknown_variant = |shapes: &[Value]| shapes.iter().any(|s| s["type"] == "unknown");
        let decided = !partial && !unknown_variant(left_shapes) && !unknown_variant(right_shapes);
        for (i, pair) in pair_variants(left_shapes, right_shapes)
            .into_iter()
            .enumerate()
        {
            cx.check()?;
            let (l, r) = (
                pair.left.map(|i| &left_shapes[i]),
                pair.right.map(|i| &right_shapes[i]),
            );
            let lone = |change| {
                if decided && pair.pairing == "unpaired" {
                    change
                } else {
                    "unknown"
                }
            };
            match (l, r) {
                (Some(l), Some(r)) => diff(l, r, &mut String::new(), i, &mut out),
                (Some(l), None) => out.push(i, "", lone("removed"), Some(l), None),
                (None, Some(r)) => out.push(i, "", lone("added"), None, Some(r)),
                (None, None) => {}
            }
            variants.push(json!({
                "left": pair.left, "right": pair.right, "pairing": pair.pairing,
                "discriminant": pair.discriminant,
            }));
        }
    }
    let definite = out.counts[..3].iter().sum::<u64>() > 0 || !attribute_changes.is_empty();
    let undecided = both.is_none() || out.counts[3] > 0 || partial;
    let status = if definite {
        "changed"
    } else if undecided {
        "unknown"
    } else {
        "unchanged"
    };
    let recommendation = if undecided && both.is_some() {
        json!({
            "action": "controlled-replay",
            "reason": "the static reading left parts of these exports undecided (calls, members, parameters, or bounds); replaying both exports with the same recorded inputs in a harness you control would observe what they return. REA runs nothing.",
            "unknown_pointers": out.unknown_pointers,
        })
    } else {
        Value::Null
    };
    let mut summary = Map::new();
    for (name, count) in CHANGES.iter().zip(out.counts) {
        summary.insert((*name).to_owned(), Value::from(count));
    }
    summary.insert(
        "attribute_changes".to_owned(),
        Value::from(attribute_changes.len()),
    );
    summary.insert("variants".to_owned(), Value::from(variants.len()));
    summary.insert("listed_changes".to_owned(), Value::from(out.listed.len()));
    summary.insert("status".to_owned(), Value::from(status));
    let [(left, _), (right, _)] = <[_; 2]>::try_from(selected)
        .map_err(|_| Failure::new(FailureReason::Internal, "two sides expected"))?;
    let mut result = json!({
        "schema": SCHEMA,
        "schema_version": 1,
        "left": left,
        "right": right,
        "status": status,
        "reason": reason,
        "coverage": if undecided { "partial" } else { "complete" },
        "attribute_changes": attribute_changes,
        "variants": variants,
        "changes": out.listed,
        "truncated": out.truncated,
        "summary": summary,
        "recommendation": recommendation,
        "parameters": parameters,
        "limitations": STANDING_LIMITATIONS,
    });
    result["comparison_id"] = Value::from(comparison_id(&result).map_err(|err| {
        Failure::new(
            FailureReason::Internal,
            format!("comparison could not be serialized: {err}"),
        )
    })?);
    Ok(result)
}

/// `jsxc_` + H(the result without `comparison_id`).
pub fn comparison_id(result: &Value) -> Result<String, CanonicalError> {
    rea_hash::content_id_without(COMPARISON_PREFIX, result, "comparison_id")
}

/// The selection record for one side, and its export when exactly one matches.
fn select<'s>(
    side: &'s Side,
    selector: &Selector,
    max_candidates: usize,
) -> (Value, Option<&'s Value>) {
    let exports = side.exports.as_deref().unwrap_or_default();
    let path = |e: &Value| e["module_path"].as_str().unwrap_or_default().to_owned();
    let name = |e: &Value| e["export_name"].as_str().unwrap_or_default().to_owned();
    let matches: Vec<&Value> = exports
        .iter()
        .filter(|e| selector.module_is(e) && name(e) == selector.export_name)
        .collect();
    let found = (matches.len() == 1).then(|| matches[0]);
    let mut candidates = Vec::new();
    if found.is_none() {
        let base = selector.module_path.rsplit('/').next().unwrap_or_default();
        let tiers: [&dyn Fn(&Value) -> bool; 4] = [
            &|e| selector.module_is(e),
            &|e| path(e) == selector.module_path,
            &|e| name(e) == selector.export_name,
            &|e| !base.is_empty() && path(e).rsplit('/').next() == Some(base),
        ];
        let mut seen = BTreeSet::new();
        'tiers: for tier in tiers {
            for e in exports.iter().filter(|e| tier(e)) {
                if candidates.len() == max_candidates {
                    break 'tiers;
                }
                if seen.insert(e["export_id"].as_str().unwrap_or_default()) {
                    candidates.push(json!({
                        "module_path": e["module_path"], "module_key": e["module_key"],
                        "export_name": e["export_name"], "kind": e["kind"],
                        "export_id": e["export_id"],
                    }));
                }
            }
        }
    }
    let selection = match (&side.exports, matches.len()) {
        (None, _) => "unavailable",
        (Some(_), 1) => "exact",
        (Some(_), 0) => "missing",
        _ => "ambiguous",
    };
    let record = json!({
        "application_evidence_id": side.evidence_id,
        "application_graph_id": side.graph_id,
        "module_path": selector.module_path,
        "module_key": selector.module_key,
        "export_name": selector.export_name,
        "selection": selection,
        "export": found,
        "candidates": candidates,
    });
    (record, found)
}

struct Pair {
    left: Option<usize>,
    right: Option<usize>,
    pairing: &'static str,
    discriminant: Value,
}

fn pair_variants(left: &[Value], right: &[Value]) -> Vec<Pair> {
    let mut pairs = Vec::new();
    let mut l: Vec<usize> = (0..left.len()).collect();
    let mut r: Vec<usize> = (0..right.len()).collect();
    // 1. Identical shapes.
    l.retain(|&i| match r.iter().position(|&j| right[j] == left[i]) {
        Some(at) => {
            pairs.push(Pair {
                left: Some(i),
                right: Some(r.remove(at)),
                pairing: "identical",
                discriminant: Value::Null,
            });
            false
        }
        None => true,
    });
    // 2. A literal discriminant, unique on each side.
    let objects = |side: &[Value], idx: &[usize]| -> Vec<usize> {
        idx.iter()
            .copied()
            .filter(|&i| side[i]["type"] == "object")
            .collect()
    };
    let (lo, ro) = (objects(left, &l), objects(right, &r));
    if !lo.is_empty() && !ro.is_empty() {
        let keys: BTreeSet<&String> = lo
            .iter()
            .flat_map(|&i| {
                left[i]["fields"]
                    .as_object()
                    .into_iter()
                    .flat_map(|m| m.keys())
            })
            .collect();
        let literal = |shape: &Value, key: &str| -> Option<Value> {
            let field = &shape["fields"][key];
            field.get("value").map(|v| json!([field["type"], v]))
        };
        let unique = |side: &[Value], idx: &[usize], key: &str| -> Option<Vec<Value>> {
            let values: Vec<Value> = idx
                .iter()
                .map(|&i| literal(&side[i], key))
                .collect::<Option<_>>()?;
            let distinct: BTreeSet<String> = values.iter().map(Value::to_string).collect();
            (distinct.len() == values.len()).then_some(values)
        };
        for key in keys {
            let (Some(lv), Some(rv)) = (unique(left, &lo, key), unique(right, &ro, key)) else {
                continue;
            };
            for (a, value) in lo.iter().zip(&lv) {
                if let Some(b) = rv.iter().position(|v| v == value) {
                    let j = ro[b];
                    pairs.push(Pair {
                        left: Some(*a),
                        right: Some(j),
                        pairing: "discriminant",
                        discriminant: json!({"pointer": format!("/{}", escape(key)), "value": value[1]}),
                    });
                    l.retain(|&x| x != *a);
                    r.retain(|&x| x != j);
                }
            }
            break;
        }
    }
    // 3. A type that is the only one of its kind on each side.
    let types = |side: &[Value], idx: &[usize], t: &Value| {
        idx.iter().filter(|&&i| &side[i]["type"] == t).count()
    };
    for i in l.clone() {
        let t = &left[i]["type"];
        if t == "object" || types(left, &l, t) != 1 || types(right, &r, t) != 1 {
            continue;
        }
        if let Some(at) = r.iter().position(|&j| &right[j]["type"] == t) {
            pairs.push(Pair {
                left: Some(i),
                right: Some(r.remove(at)),
                pairing: "type",
                discriminant: Value::Null,
            });
            l.retain(|&x| x != i);
        }
    }
    // 4. One left on each side.
    if l.len() == 1 && r.len() == 1 {
        pairs.push(Pair {
            left: Some(l[0]),
            right: Some(r[0]),
            pairing: "remaining",
            discriminant: Value::Null,
        });
        l.clear();
        r.clear();
    }
    // Left on both sides: ambiguous; on one side: added or removed.
    let ambiguous = !l.is_empty() && !r.is_empty();
    let pairing = if ambiguous { "ambiguous" } else { "unpaired" };
    for i in l {
        pairs.push(Pair {
            left: Some(i),
            right: None,
            pairing,
            discriminant: Value::Null,
        });
    }
    for j in r {
        pairs.push(Pair {
            left: None,
            right: Some(j),
            pairing,
            discriminant: Value::Null,
        });
    }
    pairs.sort_by_key(|p| (p.left.unwrap_or(usize::MAX), p.right.unwrap_or(usize::MAX)));
    pairs
}

/// RFC 6901: `~` as `~0`, `/` as `~1`.
fn escape(key: &str) -> String {
    key.replace('~', "~0").replace('/', "~1")
}

struct Changes {
    max: usize,
    listed: Vec<Value>,
    counts: [u64; 4],
    truncated: bool,
    unknown_pointers: Vec<String>,
}

impl Changes {
    fn new(max: usize) -> Changes {
        Changes {
            max,
            listed: Vec::new(),
            counts: [0; 4],
            truncated: false,
            unknown_pointers: Vec::new(),
        }
    }

    fn push(
        &mut self,
        variant: usize,
        pointer: &str,
        change: &str,
        left: Option<&Value>,
        right: Option<&Value>,
    ) {
        let at = CHANGES.iter().position(|c| *c == change).unwrap_or(3);
        self.counts[at] += 1;
        if change == "unknown" && self.unknown_pointers.len() < 16 {
            self.unknown_pointers.push(format!("{variant}:{pointer}"));
        }
        if self.listed.len() == self.max {
            self.truncated = true;
            return;
        }
        self.listed.push(json!({
            "variant": variant, "pointer": pointer, "change": change, "left": left, "right": right,
        }));
    }
}

/// A member of an object or array: its pointer segment, and its value on each side.
type Member<'v> = (String, Option<&'v Value>, Option<&'v Value>);

fn diff(left: &Value, right: &Value, pointer: &mut String, variant: usize, out: &mut Changes) {
    let (lt, rt) = (
        left["type"].as_str().unwrap_or_default(),
        right["type"].as_str().unwrap_or_default(),
    );
    if lt == "unknown" || rt == "unknown" {
        out.push(variant, pointer, "unknown", Some(left), Some(right));
        return;
    }
    if lt != rt {
        out.push(variant, pointer, "changed", Some(left), Some(right));
        return;
    }
    let complete = left["complete"] == true && right["complete"] == true;
    // An object's fields by key, or an array's elements by position, on each side.
    let (no_fields, no_elements) = (Map::new(), Vec::new());
    let members: Option<Vec<Member<'_>>> = match lt {
        "object" => {
            let empty = &no_fields;
            let lf = left["fields"].as_object().unwrap_or(empty);
            let rf = right["fields"].as_object().unwrap_or(empty);
            let keys: BTreeSet<&String> = lf.keys().chain(rf.keys()).collect();
            Some(
                keys.into_iter()
                    .map(|k| (escape(k), lf.get(k), rf.get(k)))
                    .collect(),
            )
        }
        "array" => {
            let empty = &no_elements;
            let le = left["elements"].as_array().unwrap_or(empty);
            let re = right["elements"].as_array().unwrap_or(empty);
            Some(
                (0..le.len().max(re.len()))
                    .map(|i| (i.to_string(), le.get(i), re.get(i)))
                    .collect(),
            )
        }
        _ => None,
    };
    if let Some(members) = members {
        for (segment, l, r) in members {
            let len = pointer.len();
            pointer.push('/');
            pointer.push_str(&segment);
            // A member on one side only is added or removed only between complete values.
            let lone = |change| if complete { change } else { "unknown" };
            match (l, r) {
                (Some(l), Some(r)) => diff(l, r, pointer, variant, out),
                (Some(l), None) => out.push(variant, pointer, lone("removed"), Some(l), None),
                (None, Some(r)) => out.push(variant, pointer, lone("added"), None, Some(r)),
                (None, None) => {}
            }
            pointer.truncate(len);
        }
        if !complete {
            // Members not written (a spread, a computed key, a later change) may differ.
            out.push(variant, pointer, "unknown", Some(left), Some(right));
        }
        return;
    }
    match lt {
        // A constructor imported on both sides is one class by its imported name; a local name
        // may be the same class under another name.
        "instance" if left != right => {
            let imported = left.get("from").is_some() && right.get("from").is_some();
            let change = if imported { "changed" } else { "unknown" };
            out.push(variant, pointer, change, Some(left), Some(right));
        }
        "union" if left != right => {
            let has_unknown = |shape: &Value| {
                shape["options"]
                    .as_array()
                    .is_some_and(|o| o.iter().any(|s| s["type"] == "unknown"))
            };
            let change = if has_unknown(left) || has_unknown(right) {
                "unknown"
            } else {
                "changed"
            };
            out.push(variant, pointer, change, Some(left), Some(right));
        }
        _ => match (left.get("value"), right.get("value")) {
            (Some(l), Some(r)) if l != r => {
                out.push(variant, pointer, "changed", Some(left), Some(right))
            }
            (Some(_), None) | (None, Some(_)) => {
                out.push(variant, pointer, "unknown", Some(left), Some(right))
            }
            _ if left != right => out.push(variant, pointer, "changed", Some(left), Some(right)),
            _ => {}
        },
    }
}

//! The `export_shapes` section of an application analysis (`JavaScriptExportShapes` v1): every
//! top-level export of the application's JavaScript and TypeScript files (declaration files
//! declare types, and are left out), and every export of every bundled module factory (with
//! its `module_key`), with the shapes its
//! functions return or its values have (`rea-export-shape-v1`, read by the parse stage; the
//! rules are in `rea_parse::extract::shapes`). It feeds `compare_javascript_export_shapes`.
//!
//! ```text
//! {schema, schema_version: 1, algorithm, exports: [Export…] (sorted by module_path, then
//!  the module key's JSON text, "" for a file's own, then export_name), coverage: {status,
//!  exports, omitted_exports, truncated_files (files and factories that wrote more exports than
//!  were read), ambiguous_modules, max_file_exports, limits},
//!  limitations, shapes_id}
//! Export = {export_id, module_path, module_key, module_sha256 (the factory's source digest, or
//!           the file's), export_name, syntax, kind, async, generator,
//!           parameter_arity, shapes, status, limitations, from, imported, location}
//! ```
//!
//! Ids (H = lowercase hex SHA-256 of RFC 8785 canonical JSON): `export_id` is `jsx_` + H(the
//! export without `export_id`); `shapes_id` is `jses_` + H(`{algorithm, coverage, export_ids,
//! limitations, schema, schema_version}`), the exports standing in by their ids, in order.

use rayon::prelude::*;
use rea_core::{Failure, FailureReason};
use rea_hash::CanonicalError;
use rea_parse::{
    EXPORT_SHAPE_ALGORITHM, ExportShape, FileFacts, FileKind, MAX_FILE_EXPORTS, ModuleKey,
    ParseStatus,
};
use rustc_hash::FxHashMap as HashMap;
use serde_json::{Value, json};

pub const SCHEMA: &str = "JavaScriptExportShapes";
/// What an export is.
pub const KINDS: [&str; 4] = ["function", "class", "value", "re-export"];
pub const EXPORT_PREFIX: &str = "jsx_";
pub const SECTION_PREFIX: &str = "jses_";
/// Exports recorded per analysis.
pub const MAX_EXPORT_SHAPES: usize = 20_000;
/// What the section never covers, whatever the input.
pub const STANDING_LIMITATIONS: [&str; 2] = [
    "a bundled module factory's exports are read from its own body (webpack's export getters, module.exports and exports assignments); modules a bundler hoisted into one scope (esbuild's and rollup's ES module output) have no exports of their own left, only the bundle's; a factory whose key names two modules of one file is left out (counted as ambiguous_modules)",
    "shapes are read from syntax without running code: a value a call, a member or a parameter gives is unknown",
];

/// The exports the parse stage read, taken out of its facts: one row per export with its
/// file's path and digest, and how many files wrote more exports than were read.
pub struct Taken {
    rows: Vec<Row>,
    truncated_files: usize,
    ambiguous_modules: usize,
}

/// An export without its shapes: its name, kind and what a re-export reads.
fn outline(export: &ExportShape) -> ExportShape {
    ExportShape {
        name: export.name.clone(),
        syntax: export.syntax,
        kind: export.kind,
        is_async: export.is_async,
        generator: export.generator,
        arity: export.arity,
        shapes: Vec::new(),
        partial: export.partial,
        limitations: Vec::new(),
        from: export.from.clone(),
        imported: export.imported.clone(),
        range: export.range,
        body: export.body,
    }
}

/// One export: its file's path, its module's key (a factory's) and digest (the factory's
/// source, or the file's), and what the parse stage read.
type Row = (String, Option<ModuleKey>, Option<String>, ExportShape);

/// Moves every export out of `files` (in any order), leaving their lists empty, but for a
/// file that re-exports another module's, or that reaches a process boundary: its list keeps
/// each export's name, kind, range and what a re-export reads, without shapes, for what other
/// files look up through it and for the boundaries its exported functions reach.
pub fn take(files: &mut [FileFacts]) -> Taken {
    let mut rows = Vec::new();
    let mut truncated_files = 0;
    let mut ambiguous_modules = 0;
    for file in files.iter_mut() {
        let exports = std::mem::take(&mut file.js.export_shapes);
        let boundaries = !file.js.processes.is_empty();
        if !file.js.star_exports.is_empty()
            || boundaries
            || exports.iter().any(|e| e.from.is_some())
        {
            file.js.export_shapes = exports.iter().map(outline).collect();
        }
        if file.kind != FileKind::JavaScript
            || file.parse == ParseStatus::Failed
            || is_declaration_file(&file.path)
        {
            continue;
        }
        truncated_files += usize::from(file.js.export_shapes_truncated);
        rows.extend(
            exports
                .into_iter()
                .map(|e| (file.path.clone(), None, file.sha256.clone(), e)),
        );
        // A key that names two factories of one file (tables of two bundles) names neither.
        let mut keys: HashMap<ModuleKey, usize> = HashMap::default();
        for module in file.js.bundles.iter().flat_map(|b| &b.modules) {
            *keys.entry(module.key.clone()).or_default() += 1;
        }
        for module in file.js.bundles.iter_mut().flat_map(|b| &mut b.modules) {
            if keys.get(&module.key).is_some_and(|n| *n > 1) {
                ambiguous_modules += 1;
                continue;
            }
            truncated_files += usize::from(module.export_shapes_truncated);
            let exports = std::mem::take(&mut module.export_shapes);
            if boundaries {
                module.export_shapes = exports.iter().map(outline).collect();
            }
            rows.extend(exports.into_iter().map(|e| {
                (
                    file.path.clone(),
                    Some(module.key.clone()),
                    Some(module.source_sha256.clone()),
                    e,
                )
            }));
        }
    }
    Taken {
        rows,
        truncated_files,
        ambiguous_modules,
    }
}

/// A module key as the section sorts it: `""` for a file's own exports, else the key's JSON
/// text (`12`, `"./src/a.js"`).
pub fn key_text(key: &Value) -> String {
    if key.is_null() {
        String::new()
    } else {
        key.to_string()
    }
}

fn key_json(key: &Option<ModuleKey>) -> Value {
    match key {
        None => Value::Null,
        Some(ModuleKey::Number(n)) => json!(n),
        Some(ModuleKey::String(s)) => json!(s),
    }
}

/// The section for the taken exports.
pub fn project(taken: Taken) -> Result<Value, Failure> {
    let Taken {
        rows,
        truncated_files,
        ambiguous_modules,
    } = taken;
    let mut rows: Vec<(String, Row)> = rows
        .into_iter()
        .map(|row| (key_text(&key_json(&row.1)), row))
        .collect();
    rows.par_sort_unstable_by(|a, b| (&a.1.0, &a.0, &a.1.3.name).cmp(&(&b.1.0, &b.0, &b.1.3.name)));
    let total = rows.len();
    rows.truncate(MAX_EXPORT_SHAPES);
    let exports: Vec<Value> = rows
        .into_par_iter()
        .map(|(_, (path, key, sha256, export))| {
            let mut value = json!({
                "module_path": path,
                "module_key": key_json(&key),
                "module_sha256": sha256,
                "export_name": export.name,
                "syntax": export.syntax,
                "kind": export.kind,
                "async": export.is_async,
                "generator": export.generator,
                "parameter_arity": export.arity,
                "status": if export.partial { "partial" } else { "complete" },
                "limitations": export.limitations,
                "from": export.from,
                "imported": export.imported,
                "location": {
                    "start": {"line": export.range.start.line, "column": export.range.start.column},
                    "end": {"line": export.range.end.line, "column": export.range.end.column},
                },
            });
            // Moved in, not copied through `json!`.
            value["shapes"] = Value::Array(export.shapes);
            value["export_id"] = Value::from(rea_hash::content_id(EXPORT_PREFIX, &value)?);
            Ok(value)
        })
        .collect::<Result<_, CanonicalError>>()
        .map_err(internal)?;
    let mut limits = Vec::new();
    if total > MAX_EXPORT_SHAPES {
        limits.push("max_export_shapes");
    }
    if truncated_files > 0 {
        limits.push("max_file_exports");
    }
    let mut section = json!({
        "schema": SCHEMA,
        "schema_version": 1,
        "algorithm": EXPORT_SHAPE_ALGORITHM,
        "coverage": {
            "status": if limits.is_empty() { "complete" } else { "partial" },
            "exports": total,
            "omitted_exports": total.saturating_sub(MAX_EXPORT_SHAPES),
            "truncated_files": truncated_files,
            "ambiguous_modules": ambiguous_modules,
            "max_file_exports": MAX_FILE_EXPORTS,
            "limits": limits,
        },
        "limitations": STANDING_LIMITATIONS,
    });
    section["exports"] = Value::Array(exports);
    section["shapes_id"] = Value::from(section_id(&section).map_err(internal)?);
    Ok(section)
}

/// `jsx_` + H(the export without `export_id`).
pub fn export_id(export: &Value) -> Result<String, CanonicalError> {
    rea_hash::content_id_without(EXPORT_PREFIX, export, "export_id")
}

/// `jses_` + H(`{algorithm, coverage, export_ids, limitations, schema, schema_version}`): the
/// section's members but its exports, which their ids (in order) stand for.
pub fn section_id(section: &Value) -> Result<String, CanonicalError> {
    let ids: Vec<&Value> = section["exports"]
        .as_array()
        .map(|exports| exports.iter().map(|e| &e["export_id"]).collect())
        .unwrap_or_default();
    rea_hash::content_id(
        SECTION_PREFIX,
        &json!({
            "algorithm": section["algorithm"],
            "coverage": section["coverage"],
            "export_ids": ids,
            "limitations": section["limitations"],
            "schema": section["schema"],
            "schema_version": section["schema_version"],
        }),
    )
}

/// TypeScript declaration files (`.d.ts`, `.d.mts`, `.d.cts`) declare types, not code.
fn is_declaration_file(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path).to_ascii_lowercase();
    [".d.ts", ".d.mts", ".d.cts"]
        .iter()
        .any(|s| name.ends_with(s))
}

fn internal(err: CanonicalError) -> Failure {
    Failure::new(
        FailureReason::Internal,
        format!("export shapes could not be serialized: {err}"),
    )
}

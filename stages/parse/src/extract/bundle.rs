//! Bundle shapes: webpack 5 / rspack JSONP chunk pushes, webpack 4 `webpackJsonp`, runtime
//! module tables (`__webpack_modules__` or its minified name), webpack 4 bootstrap IIFEs,
//! and esbuild `__commonJS` / `__esm` wrapper tables; plus the per-factory walk that computes
//! the `rea-swc-structure-v2` fingerprint, `require` edges, async chunks and exports.
//!
//! # `rea-swc-structure-v2`
//!
//! A pre-order walk of the factory's swc AST emits tokens; the digest is SHA-256 over the
//! tokens, each followed by one `\n` (token text never contains `\n`: strings are escaped
//! with Rust's `escape_default`). Tokens:
//! - `e:<Kind>` for each expression, `s:<Kind>` for each statement, `d:<Kind>` for each
//!   declaration, `p:<Kind>` for each pattern (kinds are swc variant names);
//! - `str:<value ≤1024 chars>`, `num:<JS String(n)>`, `bool:<b>`, `null`, `re:<pattern>/<flags>`,
//!   `big:<digits>`, `tpl:<cooked quasi>` for literals and template text;
//! - `op:<operator>` for binary, logical, unary, update and assignment operators;
//! - `prop:<name>` for static member properties and `key:<name>` for static object keys.
//!
//! Identifier names never appear, so renaming locals keeps the digest. Nor does a
//! `"use strict"` statement in the factory's own body before any nested function: a bundler
//! writes it into each factory, or once for the whole bundle, depending on what else the
//! bundle holds (one CommonJS module among ES modules is enough), so the same module gets it
//! in one build and not in the next. (That is all v2 changes from v1.) After 100,000 tokens
//! the walk stops and no digest is published.

use std::collections::BTreeSet;

use rustc_hash::FxHashMap as HashMap;

use sha2::{Digest, Sha256};
use swc_common::Spanned;
use swc_ecma_ast::{
    ArrayLit, AssignTarget, CallExpr, Callee, Decl, Expr, Lit, MemberExpr, MemberProp, ObjectLit,
    Pat, Prop, PropName, PropOrSpread, SimpleAssignTarget, Stmt,
};
use swc_ecma_visit::{Visit, VisitWith};

use super::constants::{self, Binding, Bound, Constant};
use super::names::{callee_name, dotted, literal_key, number_text, param_name, prop_name, unwrap};
use super::templates::Maker;
use crate::facts::{Module, ModuleKey};
use crate::source::Source;

pub const FINGERPRINT_ALGORITHM: &str = "rea-swc-structure-v2";
const MAX_TOKENS: u64 = 100_000;
const MAX_EXPORTS: usize = 256;
pub(crate) const MAX_CHUNK_KEYS: usize = 256;

/// A factory found in a table, before its walk.
pub(crate) struct Factory<'a> {
    pub key: Option<ModuleKey>,
    pub body: Body<'a>,
    pub require_name: Option<String>,
    pub exports_name: Option<String>,
    pub module_name: Option<String>,
    /// Whether the require name is bound outside the factory (Parcel's `parcelRequire`), so
    /// that the factory itself can rebind it, not only the functions inside it.
    pub require_outside: bool,
    /// Whether the require name is Turbopack's module context, whose methods require
    /// (`a.r(id)`, `a.i(id)`), load (`a.A(id)`, `a.l(path)`) and export (`a.s([…])`).
    pub context: bool,
    /// Further keys that name this same factory (a Turbopack chunk lists every module a
    /// factory merged before it).
    pub aliases: Vec<ModuleKey>,
}

/// A factory is a function expression or an object method.
#[derive(Clone, Copy)]
pub(crate) enum Body<'a> {
    Expr(&'a Expr),
    Method(&'a swc_ecma_ast::Function),
}

/// Whether `name` is a chunk-loading global (webpack's and rspack's, or Turbopack's
/// registry).
pub(crate) fn chunk_global(name: &str) -> bool {
    if name == TURBOPACK {
        return true;
    }
    let lower = name.to_ascii_lowercase();
    lower.contains("webpackchunk") || lower.contains("rspackchunk") || lower == "webpackjsonp"
}

/// The chunk-loading global a `.push` receiver names, searched through members,
/// assignments, logical and binary operands and parentheses.
pub(crate) fn chunk_receiver(expr: &Expr, depth: usize) -> Option<String> {
    if depth > 128 {
        return None;
    }
    match unwrap(expr) {
        Expr::Ident(ident) if chunk_global(&ident.sym) => Some(ident.sym.to_string()),
        Expr::Member(member) => member_receiver(member, depth),
        Expr::Assign(assign) => {
            if let AssignTarget::Simple(SimpleAssignTarget::Member(m)) = &assign.left
                && let Some(found) = member_receiver(m, depth + 1)
            {
                return Some(found);
            }
            if let AssignTarget::Simple(SimpleAssignTarget::Ident(i)) = &assign.left
                && chunk_global(&i.id.sym)
            {
                return Some(i.id.sym.to_string());
            }
            chunk_receiver(&assign.right, depth + 1)
        }
        Expr::Bin(bin) => {
            chunk_receiver(&bin.left, depth + 1).or_else(|| chunk_receiver(&bin.right, depth + 1))
        }
        _ => None,
    }
}

/// The chunk-loading global a member expression names, or one in its object.
fn member_receiver(member: &swc_ecma_ast::MemberExpr, depth: usize) -> Option<String> {
    let prop = match &member.prop {
        MemberProp::Ident(prop) => Some(prop.sym.to_string()),
        MemberProp::Computed(c) => literal_key(&c.expr),
        MemberProp::PrivateName(_) => None,
    };
    match prop {
        Some(name) if chunk_global(&name) => Some(name),
        _ => chunk_receiver(&member.obj, depth + 1),
    }
}

/// `ids` or `modules` for `exports.ids` and `exports.modules`, the members a chunk in
/// webpack's CommonJS chunk format assigns (`exports.id`, which older builds add, names no
/// table).
pub(crate) fn commonjs_chunk_part(member: &MemberExpr) -> Option<&'static str> {
    let Expr::Ident(object) = unwrap(&member.obj) else {
        return None;
    };
    if object.sym != *"exports" {
        return None;
    }
    match member.prop.as_ident()?.sym.as_ref() {
        "ids" => Some("ids"),
        "modules" => Some("modules"),
        _ => None,
    }
}

/// Literal chunk ids, sorted and unique, and how many were not literals.
pub(crate) fn chunk_ids(array: &ArrayLit) -> (Vec<String>, u64) {
    let mut keys = BTreeSet::new();
    let mut unknown = 0;
    for elem in array.elems.iter().flatten() {
        match literal_key(&elem.expr) {
            Some(key) if elem.spread.is_none() => {
                keys.insert(key);
            }
            _ => unknown += 1,
        }
    }
    (keys.into_iter().take(MAX_CHUNK_KEYS).collect(), unknown)
}

/// Turbopack's module registry: browser chunks push to `globalThis.TURBOPACK`.
pub(crate) const TURBOPACK: &str = "TURBOPACK";

/// The runtime name of Turbopack's Node.js chunks (`module.exports = [id, factory, …]`, which
/// its Node runtime loads with `R.c(path)`): a registry of its own, apart from the browser's.
pub(crate) const TURBOPACK_NODE: &str = "turbopack-node";

/// The factories of a Turbopack chunk's module list, as its runtime reads it: one or more
/// module ids (numbers in production builds, strings such as `"[project]/app/page.js
/// [app-client] (ecmascript)"` with named ids) and then the factory they share (the first id is
/// the module's key, the rest [`Factory::aliases`]: modules merged into it); the list may
/// start with an array, what `(() => { "use strict"; return […] })()` returns to group strict
/// modules, read first. Older builds push one object `{id: factory}` instead (`table`).
/// `None` when the elements do not have that shape, or name no factory.
pub(crate) fn turbopack_factories<'a>(elems: &[Option<&'a Expr>]) -> Option<Vec<Factory<'a>>> {
    if let [Some(table)] = elems
        && let Expr::Object(table) = unwrap(table)
    {
        let (mut factories, unknown) = object_factories(table);
        if unknown > 0 || factories.is_empty() {
            return None;
        }
        for factory in &mut factories {
            turbopack_params(factory);
        }
        return Some(factories);
    }
    let mut out = Vec::new();
    let mut rest = elems;
    if let [Some(first), tail @ ..] = rest
        && let Some(grouped) = strict_group(first)
    {
        turbopack_groups(&items(grouped), &mut out)?;
        rest = tail;
    }
    turbopack_groups(rest, &mut out)?;
    (!out.is_empty()).then_some(out)
}

/// An array literal's elements, a hole or a spread as `None`.
pub(crate) fn items(list: &ArrayLit) -> Vec<Option<&Expr>> {
    list.elems
        .iter()
        .map(|e| e.as_ref().filter(|e| e.spread.is_none()).map(|e| &*e.expr))
        .collect()
}

/// `(() => { "use strict"; return […]; })()`: the array returned.
fn strict_group(expr: &Expr) -> Option<&ArrayLit> {
    let Expr::Call(call) = unwrap(expr) else {
        return None;
    };
    if !call.args.is_empty() {
        return None;
    }
    let stmts = match unwrap(call.callee.as_expr()?) {
        Expr::Arrow(arrow) if arrow.params.is_empty() => match &*arrow.body {
            swc_ecma_ast::ArrowFunctionBody::FunctionBody(body) => &body.stmts[..],
            swc_ecma_ast::ArrowFunctionBody::Expr(_) => return None,
        },
        Expr::Fn(f) if f.function.params.is_empty() => &f.function.body.as_ref()?.stmts[..],
        _ => return None,
    };
    let (last, directives) = stmts.split_last()?;
    if !directives.iter().all(is_use_strict) {
        return None;
    }
    match last {
        Stmt::Return(ret) => match unwrap(ret.arg.as_deref()?) {
            Expr::Array(array) => Some(array),
            _ => None,
        },
        _ => None,
    }
}

/// Appends the `id… factory` groups of `elems` to `out`; `None` when an element is neither a
/// literal id nor a function, or ids end the list.
fn turbopack_groups<'a>(elems: &[Option<&'a Expr>], out: &mut Vec<Factory<'a>>) -> Option<()> {
    let mut ids = Vec::new();
    for elem in elems {
        let elem = (*elem)?;
        if is_function(elem) {
            let mut ids = std::mem::take(&mut ids).into_iter();
            let mut factory = factory(Some(ids.next()?), elem);
            factory.aliases = ids.collect();
            turbopack_params(&mut factory);
            out.push(factory);
            continue;
        }
        ids.push(turbopack_id(elem)?);
    }
    ids.is_empty().then_some(())
}

/// A Turbopack module id: a number, or a string naming a module as Turbopack does
/// (`"[project]/…"`, `"[root-of-the-server]/…"`).
fn turbopack_id(expr: &Expr) -> Option<ModuleKey> {
    match module_key_of(expr)? {
        ModuleKey::String(s) if !s.starts_with('[') => None,
        key => Some(key),
    }
}

/// A Turbopack factory takes `(context, module, exports)`.
fn turbopack_params(factory: &mut Factory<'_>) {
    let params = match factory.body {
        Body::Expr(expr) => params_of(expr),
        Body::Method(function) => function.params.iter().map(|p| &p.pat).collect(),
    };
    factory.require_name = param_name(params.first().copied());
    factory.module_name = param_name(params.get(1).copied());
    factory.exports_name = param_name(params.get(2).copied());
    factory.context = true;
}

/// What an ES module's Turbopack export list binds (`a.s(["bump", 0, value, "x", getter,
/// setter?])`: a name, then the tag `0` and a value, or a getter and maybe a setter), in
/// order: each name with its value, or with its getter.
fn turbopack_exports(list: &ArrayLit) -> Vec<(String, Exported<'_>)> {
    let elems = items(list);
    let mut out = Vec::new();
    let mut at = 0;
    while let Some(Some(name)) = elems.get(at) {
        let Some(name) = super::names::string(name) else {
            break;
        };
        at += 1;
        match elems.get(at).copied().flatten().map(unwrap) {
            Some(Expr::Lit(Lit::Num(_))) => {
                let Some(Some(value)) = elems.get(at + 1) else {
                    break;
                };
                out.push((name, Exported::Value(value)));
                at += 2;
            }
            Some(getter) if is_function(getter) => {
                out.push((name, Exported::Getter(getter)));
                at += 1;
                if elems.get(at).copied().flatten().is_some_and(is_function) {
                    at += 1;
                }
            }
            _ => break,
        }
    }
    out
}

/// How a Turbopack export list binds a name.
enum Exported<'a> {
    Value(&'a Expr),
    Getter(&'a Expr),
}

pub(crate) fn is_function(expr: &Expr) -> bool {
    matches!(unwrap(expr), Expr::Fn(_) | Expr::Arrow(_))
}

pub(crate) use crate::facts::Wrapper;

/// Most nodes read from a helper's inner function: esbuild's are about twenty.
const MAX_HELPER_NODES: u32 = 256;

/// Which esbuild wrapper a declaration's value is, and which bundler wrote it (`esbuild`, or
/// `rolldown` where its calling convention tells), read from its shape, since a build with
/// minified identifiers renames the helpers (`var h=(r,e)=>()=>…`):
/// - `__commonJS`: `(cb, mod) => () => (mod || cb((mod = {exports: {}}).exports, mod),
///   mod.exports)`, its callee also written `(0, cb[keys(cb)[0]])`;
/// - `__esm`: `(fn, res) => () => (fn && (res = fn(fn = 0)), res)`.
///
/// Newer releases wrap either body in a `try`/`catch` and take a third parameter; the
/// shapes hold through that. Rolldown (Vite 8's bundler) writes the same helpers as
/// `__commonJSMin`, `cb((mod = {exports: {}}).exports, mod, mod.exports)`, and `__esmMin`.
pub(crate) fn esbuild_helper(init: &Expr) -> Option<(Wrapper, &'static str)> {
    let (params, inner): (Vec<&Pat>, Option<&Expr>) = match unwrap(init) {
        Expr::Arrow(arrow) => (
            arrow.params.iter().collect(),
            match &*arrow.body {
                swc_ecma_ast::ArrowFunctionBody::Expr(e) => Some(e),
                swc_ecma_ast::ArrowFunctionBody::FunctionBody(b) => returned(&b.stmts),
            },
        ),
        Expr::Fn(f) => (
            f.function.params.iter().map(|p| &p.pat).collect(),
            f.function.body.as_ref().and_then(|b| returned(&b.stmts)),
        ),
        _ => return None,
    };
    if !(2..=3).contains(&params.len()) {
        return None;
    }
    let inner = unwrap(inner?);
    let empty = match inner {
        Expr::Arrow(arrow) => arrow.params.is_empty(),
        Expr::Fn(f) => f.function.params.is_empty(),
        _ => false,
    };
    if !empty {
        return None;
    }
    let (Some(callback), Some(state)) = (
        param_name(params.first().copied()),
        param_name(params.get(1).copied()),
    ) else {
        return None;
    };
    let mut shape = HelperShape {
        callback: &callback,
        state: &state,
        nodes: 0,
        fresh_module: false,
        called_with_module: false,
        called_with_exports_again: false,
        called_once: false,
    };
    inner.visit_with(&mut shape);
    if shape.nodes > MAX_HELPER_NODES {
        return None;
    }
    if shape.fresh_module && shape.called_with_module {
        let bundler = if shape.called_with_exports_again {
            "rolldown"
        } else {
            "esbuild"
        };
        Some((Wrapper::CommonJs, bundler))
    } else if shape.called_once {
        Some((Wrapper::Esm, "esbuild"))
    } else {
        None
    }
}

/// What [`esbuild_helper`] finds in a helper's inner function.
struct HelperShape<'n> {
    /// The helper's first parameter (the module's function, or its keyed table).
    callback: &'n str,
    /// Its second (the module record, or the initializer's result).
    state: &'n str,
    nodes: u32,
    /// `state = {exports: {}}`.
    fresh_module: bool,
    /// The callback called with two arguments (or three, as rolldown calls it).
    called_with_module: bool,
    /// With three: rolldown's `cb(exports, mod, mod.exports)`.
    called_with_exports_again: bool,
    /// The callback called with `callback = 0`.
    called_once: bool,
}

impl HelperShape<'_> {
    /// Whether `callee` is the callback: `cb`, `cb[…]` or `(0, cb[…])`.
    fn is_callback(&self, callee: &Expr) -> bool {
        match unwrap(callee) {
            Expr::Ident(ident) => ident.sym == *self.callback,
            Expr::Member(member) => {
                matches!(unwrap(&member.obj), Expr::Ident(i) if i.sym == *self.callback)
            }
            Expr::Seq(seq) => seq.exprs.last().is_some_and(|e| self.is_callback(e)),
            _ => false,
        }
    }
}

impl Visit for HelperShape<'_> {
    fn visit_expr(&mut self, expr: &Expr) {
        self.nodes += 1;
        if self.nodes > MAX_HELPER_NODES {
            return;
        }
        match expr {
            Expr::Assign(assign) => {
                if let AssignTarget::Simple(SimpleAssignTarget::Ident(target)) = &assign.left
                    && target.id.sym == *self.state
                    && let Expr::Object(object) = unwrap(&assign.right)
                    && let [PropOrSpread::Prop(prop)] = object.props.as_slice()
                    && let Prop::KeyValue(kv) = &**prop
                    && prop_name(&kv.key).as_deref() == Some("exports")
                    && matches!(unwrap(&kv.value), Expr::Object(o) if o.props.is_empty())
                {
                    self.fresh_module = true;
                }
            }
            Expr::Call(call) => {
                if let Callee::Expr(callee) = &call.callee
                    && self.is_callback(callee)
                {
                    match call.args.as_slice() {
                        [_, _] => self.called_with_module = true,
                        // Rolldown's `__commonJSMin` passes `mod.exports` a third time.
                        [_, _, _] => {
                            self.called_with_module = true;
                            self.called_with_exports_again = true;
                        }
                        [arg] => {
                            if let Expr::Assign(reset) = unwrap(&arg.expr)
                                && let AssignTarget::Simple(SimpleAssignTarget::Ident(target)) =
                                    &reset.left
                                && target.id.sym == *self.callback
                                && matches!(unwrap(&reset.right), Expr::Lit(Lit::Num(n)) if n.value == 0.0)
                            {
                                self.called_once = true;
                            }
                        }
                        _ => {}
                    }
                }
            }
            _ => {}
        }
        expr.visit_children_with(self);
    }
}

fn params_of(expr: &Expr) -> Vec<&Pat> {
    match unwrap(expr) {
        Expr::Fn(f) => f.function.params.iter().map(|p| &p.pat).collect(),
        Expr::Arrow(a) => a.params.iter().collect(),
        _ => Vec::new(),
    }
}

pub(crate) fn factory<'a>(key: Option<ModuleKey>, expr: &'a Expr) -> Factory<'a> {
    let params = params_of(expr);
    Factory {
        key,
        body: Body::Expr(expr),
        module_name: param_name(params.first().copied()),
        exports_name: param_name(params.get(1).copied()),
        require_name: param_name(params.get(2).copied()),
        require_outside: false,
        context: false,
        aliases: Vec::new(),
    }
}

fn key_of(name: &PropName) -> Option<ModuleKey> {
    match name {
        PropName::Num(n) if n.value >= 0.0 && n.value.fract() == 0.0 && n.value < 9e15 => {
            Some(ModuleKey::Number(n.value as u64))
        }
        other => prop_name(other).map(ModuleKey::String),
    }
}

/// Factories of an object table (`{key: function…}`), and the number of entries that are not
/// factories with a static key. Method shorthand (`"path"(exports, module) {…}`, esbuild)
/// counts as a factory.
pub(crate) fn object_factories(table: &ObjectLit) -> (Vec<Factory<'_>>, u64) {
    let mut out = Vec::new();
    let mut unknown = 0;
    for prop in &table.props {
        let PropOrSpread::Prop(prop) = prop else {
            unknown += 1;
            continue;
        };
        match &**prop {
            Prop::KeyValue(kv) if is_function(&kv.value) => match key_of(&kv.key) {
                Some(key) => out.push(factory(Some(key), &kv.value)),
                None => unknown += 1,
            },
            Prop::Method(method) => match key_of(&method.key) {
                Some(key) => {
                    let params: Vec<&Pat> = method.function.params.iter().map(|p| &p.pat).collect();
                    out.push(Factory {
                        key: Some(key),
                        body: Body::Method(&method.function),
                        module_name: param_name(params.first().copied()),
                        exports_name: param_name(params.get(1).copied()),
                        require_name: param_name(params.get(2).copied()),
                        require_outside: false,
                        context: false,
                        aliases: Vec::new(),
                    });
                }
                None => unknown += 1,
            },
            _ => unknown += 1,
        }
    }
    (out, unknown)
}

/// Factories of an array table (webpack 4 numeric ids): the index is the key; holes are skipped.
pub(crate) fn array_factories(table: &ArrayLit) -> (Vec<Factory<'_>>, u64) {
    let mut out = Vec::new();
    let mut unknown = 0;
    for (i, elem) in table.elems.iter().enumerate() {
        match elem {
            Some(e) if e.spread.is_none() && is_function(&e.expr) => {
                out.push(factory(Some(ModuleKey::Number(i as u64)), &e.expr))
            }
            Some(e) if matches!(unwrap(&e.expr), Expr::Ident(i) if i.sym == *"undefined") => {}
            None => {}
            Some(_) => unknown += 1,
        }
    }
    (out, unknown)
}

/// A browserify (and Parcel 1) module table: `prelude({key: [function (require, module,
/// exports) {…}, {"./dep": key, …}], …}, cache, [entry keys])`, or Parcel 2's development
/// one: `prelude({key: [function (require, module, exports, __globalThis) {…}, {…}], …},
/// [entry keys], mainEntry, "parcelRequire<hash>", externals)`. Every entry must have that
/// shape; the deps map turns each factory's `require("./dep")` into the key it names.
pub(crate) struct BrowserifyTable<'a> {
    pub factories: Vec<Factory<'a>>,
    /// Per factory, in the same order: specifier → module key (`false` entries are left out).
    pub deps: Vec<rustc_hash::FxHashMap<String, ModuleKey>>,
    pub entries: Vec<ModuleKey>,
    /// Parcel 2's global require name (`parcelRequire<hash>`), shared by the bundles of one
    /// application.
    pub parcel_global: Option<String>,
}

/// Reads `call` as a browserify or Parcel prelude call, if that is its shape.
pub(crate) fn browserify_table(call: &CallExpr) -> Option<BrowserifyTable<'_>> {
    let (table, entries, parcel_global) = match &call.args[..] {
        [table, cache, entries, ..] if matches!(unwrap(&cache.expr), Expr::Object(_)) => {
            (table, entries, None)
        }
        [table, entries, _, global, ..] => {
            let global = super::names::string(&global.expr)?;
            if !global.starts_with("parcelRequire") {
                return None;
            }
            (table, entries, Some(global))
        }
        _ => return None,
    };
    let (Expr::Object(table), Expr::Array(entries)) = (unwrap(&table.expr), unwrap(&entries.expr))
    else {
        return None;
    };
    if table.props.is_empty() {
        return None;
    }
    let mut out = BrowserifyTable {
        factories: Vec::with_capacity(table.props.len()),
        deps: Vec::with_capacity(table.props.len()),
        entries: entries
            .elems
            .iter()
            .flatten()
            .filter_map(|e| module_key_of(&e.expr))
            .collect(),
        parcel_global,
    };
    for prop in &table.props {
        let PropOrSpread::Prop(prop) = prop else {
            return None;
        };
        let Prop::KeyValue(kv) = &**prop else {
            return None;
        };
        let Expr::Array(entry) = unwrap(&kv.value) else {
            return None;
        };
        let (Some(Some(body)), deps) = (entry.elems.first(), entry.elems.get(1)) else {
            return None;
        };
        let params = params_of(&body.expr);
        if body.spread.is_some() || !is_function(&body.expr) || params.len() > 4 {
            return None;
        }
        let mut map = rustc_hash::FxHashMap::default();
        if let Some(Some(deps)) = deps {
            let Expr::Object(deps) = unwrap(&deps.expr) else {
                return None;
            };
            for dep in &deps.props {
                if let PropOrSpread::Prop(dep) = dep
                    && let Prop::KeyValue(dep) = &**dep
                    && let (Some(spec), Some(key)) =
                        (prop_name(&dep.key), module_key_of(&dep.value))
                {
                    map.insert(spec, key);
                }
            }
        }
        out.factories.push(Factory {
            key: key_of(&kv.key),
            body: Body::Expr(&body.expr),
            require_name: param_name(params.first().copied()),
            module_name: param_name(params.get(1).copied()),
            exports_name: param_name(params.get(2).copied()),
            require_outside: false,
            context: false,
            aliases: Vec::new(),
        });
        out.deps.push(map);
    }
    Some(out)
}

/// Whether an object or array literal looks like a module table: non-empty, and every
/// entry a function of at most three parameters.
pub(crate) fn looks_like_table(expr: &Expr) -> bool {
    match unwrap(expr) {
        Expr::Object(obj) => {
            !obj.props.is_empty()
                && obj.props.iter().all(|p| match p {
                    PropOrSpread::Prop(p) => match &**p {
                        Prop::KeyValue(kv) => {
                            is_function(&kv.value) && params_of(&kv.value).len() <= 3
                        }
                        // webpack 5.100+ writes factories as methods: `123(e, t, n) {…}`.
                        Prop::Method(m) => m.function.params.len() <= 3,
                        _ => false,
                    },
                    PropOrSpread::Spread(_) => false,
                })
        }
        Expr::Array(arr) => {
            arr.elems.iter().flatten().count() > 0
                && arr.elems.iter().flatten().all(|e| {
                    e.spread.is_none() && is_function(&e.expr) && params_of(&e.expr).len() <= 3
                })
        }
        _ => false,
    }
}

/// The table name a webpack runtime call uses: `T[id](m, m.exports, req)` or
/// `T[id].call(m.exports, m, m.exports, req)`.
pub(crate) fn runtime_table_name(call: &CallExpr) -> Option<String> {
    let Callee::Expr(callee) = &call.callee else {
        return None;
    };
    if call.args.len() < 3 {
        return None;
    }
    let exports_arg = call.args.iter().any(|a| {
        matches!(unwrap(&a.expr), Expr::Member(m) if matches!(&m.prop, MemberProp::Ident(p) if p.sym == *"exports"))
    });
    if !exports_arg {
        return None;
    }
    let mut target = unwrap(callee);
    if let Expr::Member(m) = target
        && matches!(&m.prop, MemberProp::Ident(p) if p.sym == *"call")
    {
        target = unwrap(&m.obj);
    }
    match target {
        Expr::Member(m) if matches!(m.prop, MemberProp::Computed(_)) => match unwrap(&m.obj) {
            Expr::Ident(i) => Some(i.sym.to_string()),
            _ => None,
        },
        _ => None,
    }
}

/// Whether `function`, named `name`, is a webpack runtime's require as a minifier writes one
/// used once where it is called (`function r(t) {…; return e[t](i, i.exports, r), i.exports}(157)`):
/// a statement of its own body calls a module table with the function itself as the require.
pub(crate) fn inline_runtime_require(function: &swc_ecma_ast::Function, name: &str) -> bool {
    let Some(body) = &function.body else {
        return false;
    };
    let calls_table = |expr: &Expr| {
        let exprs: Vec<&Expr> = match unwrap(expr) {
            Expr::Seq(seq) => seq.exprs.iter().map(|e| &**e).collect(),
            other => vec![other],
        };
        exprs.into_iter().any(|e| {
            matches!(unwrap(e), Expr::Call(call)
                if runtime_table_name(call).is_some()
                    && matches!(call.args.last().map(|a| unwrap(&a.expr)),
                        Some(Expr::Ident(require)) if require.sym == *name))
        })
    };
    function.params.len() == 1
        && body.stmts.iter().any(|stmt| match stmt {
            Stmt::Expr(e) => calls_table(&e.expr),
            Stmt::Return(r) => r.arg.as_deref().is_some_and(calls_table),
            _ => false,
        })
}

/// What a factory exports by name, read by its walk.
#[derive(Debug, Default)]
pub(crate) struct FactoryExports {
    /// The strings (see [`ExportedStrings`]).
    pub strings: Vec<(String, Constant)>,
    /// Names of the factory's own body it exports, as (exported, local): webpack's getters
    /// (`n.d(t, {handle: () => handle})`) and `exports.handle = handle`.
    pub names: Vec<(String, String)>,
    /// What it re-exports from other factories of its bundle.
    pub reexports: Vec<Reexport>,
    /// The factories it re-exports every name of: TypeScript's `__exportStar(n(777),
    /// exports)`, as `export * from "./channels"` compiles to CommonJS.
    pub stars: Vec<ModuleKey>,
}

/// A name a factory exports as read off another factory's exports: webpack's getter of a
/// re-export, `n.d(t, {GET: () => o.GET})` after `var o = n("./channels.js")`, as a barrel
/// module's `export { GET } from "./channels"` or `export * from "./channels"` compiles.
#[derive(Debug, Clone)]
pub(crate) struct Reexport {
    /// The name it is exported under.
    pub name: String,
    /// The factory read, by key.
    pub from: ModuleKey,
    /// The members read off that factory's exports (`["GET"]`).
    pub path: Vec<String>,
}

/// The scope a factory's body opens: its function's start, as the walks name scopes.
pub(crate) fn body_scope(body: Body<'_>) -> Option<u32> {
    match body {
        Body::Method(function) => Some(function.span.lo.0),
        Body::Expr(expr) => match unwrap(expr) {
            Expr::Fn(f) => Some(f.function.span.lo.0),
            Expr::Arrow(arrow) => Some(arrow.span.lo.0),
            _ => None,
        },
    }
}

/// Walks one factory: fingerprint, requires, async chunks and exports, and with `strings`
/// what it exports by name (see [`FactoryExports`]).
pub(crate) fn walk_factory(
    source: &Source<'_>,
    factory: &Factory<'_>,
    esbuild_names: &HashMap<String, ModuleKey>,
    strings: bool,
) -> (Module, FactoryExports) {
    let mut walker = FactoryWalker {
        strings: strings.then(Box::default),
        depth: 0,
        hasher: Sha256::new(),
        tokens: 0,
        require_name: factory.require_name.clone(),
        exports_name: factory.exports_name.clone(),
        module_name: factory.module_name.clone(),
        esbuild_names,
        requires: BTreeSet::new(),
        async_chunks: BTreeSet::new(),
        async_modules: BTreeSet::new(),
        exports: BTreeSet::new(),
        functions: 0,
        require_outside: factory.require_outside,
        context: factory.context,
        importers: Vec::new(),
        shadowed: 0,
        hidden: HashMap::default(),
    };
    let span = match factory.body {
        Body::Method(function) => {
            function.visit_with(&mut walker);
            function.span
        }
        Body::Expr(expr) => {
            expr.visit_with(&mut walker);
            expr.span()
        }
    };
    let stmts = match factory.body {
        Body::Method(function) => function.body.as_ref().map(|b| &b.stmts[..]),
        Body::Expr(expr) => match unwrap(expr) {
            Expr::Fn(f) => f.function.body.as_ref().map(|b| &b.stmts[..]),
            Expr::Arrow(arrow) => match &*arrow.body {
                swc_ecma_ast::ArrowFunctionBody::FunctionBody(b) => Some(&b.stmts[..]),
                swc_ecma_ast::ArrowFunctionBody::Expr(_) => None,
            },
            _ => None,
        },
    };
    if let Some(stmts) = stmts {
        walker.note_required(stmts);
    }
    let exports = walker.strings.take().map(|s| s.close()).unwrap_or_default();
    let fingerprint =
        (walker.tokens < MAX_TOKENS).then(|| rea_hash::hex_digest(walker.hasher.finalize()));
    let exports_truncated = walker.exports.len() > MAX_EXPORTS;
    // A factory that names neither its module nor its exports exports nothing.
    let named = factory.module_name.is_some() || factory.exports_name.is_some();
    let (export_shapes, export_shapes_truncated) = match stmts.filter(|_| named) {
        Some(stmts) => super::shapes::read_factory(
            source,
            stmts,
            super::shapes::Names {
                module: factory.module_name.clone(),
                exports: factory.exports_name.clone(),
                // A factory without a require parameter requires nothing by name.
                require: factory
                    .require_name
                    .clone()
                    .unwrap_or_else(|| "\0".to_owned()),
            },
        ),
        None => (Vec::new(), false),
    };
    let module = Module {
        key: factory
            .key
            .clone()
            .unwrap_or(ModuleKey::String(String::new())),
        range: source.range(span),
        source_sha256: rea_hash::sha256_hex(source.slice(span).as_bytes()),
        fingerprint,
        require_name: factory.require_name.clone(),
        requires: walker.requires.into_iter().collect(),
        async_chunks: walker.async_chunks.into_iter().collect(),
        async_modules: walker.async_modules.into_iter().collect(),
        exports: walker.exports.into_iter().take(MAX_EXPORTS).collect(),
        exports_truncated,
        export_shapes,
        export_shapes_truncated,
    };
    (module, exports)
}

/// The strings a factory exports by name, for IPC channels other factories read off it
/// (`o.GET` after `var o = n(227)`): `exports.GET = "x"`, `module.exports = {…}`, a compiled
/// enum exported as `E || (exports.E = E = {})`, and webpack's getters
/// (`n.d(t, {GET: () => o})`) of a name the factory's own body binds once to a constant.
#[derive(Default)]
struct ExportedStrings {
    values: Vec<(String, Constant)>,
    /// Getters as (exported name, the local name they return).
    getters: Vec<(String, String)>,
    /// Getters of a member of a local name, as (exported name, the local name, the members):
    /// re-exports when the name is bound to a require of another factory.
    member_getters: Vec<(String, String, Vec<String>)>,
    /// Names the factory's body binds to a require of another factory, by key; `None` once
    /// a name is declared twice.
    required: HashMap<String, Option<ModuleKey>>,
    /// Names the factory's body binds to TypeScript's `__exportStar` helper (`var i = this &&
    /// this.__exportStar || function (e, n) {…}`, however the minifier renamed it).
    star_helpers: Vec<String>,
    /// What the helper was called with: a factory required in place, or a local name.
    stars: Vec<Result<ModuleKey, String>>,
    /// Names assigned to the exports as they are (`exports.handle = handle`), as (exported
    /// name, local name).
    assigned_names: Vec<(String, String)>,
    /// Names the factory's body declares with a constant value, and how they hold; `None`
    /// once a name is declared twice.
    locals: HashMap<String, Option<Bound>>,
    /// The factory's compiled enums, by name.
    enums: HashMap<String, Constant>,
    /// How often the factory assigns each name.
    assignments: HashMap<String, u32>,
}

impl ExportedStrings {
    /// Binds a name the factory's body declares; a name declared twice holds nothing.
    fn bind_local(&mut self, name: &str, bound: Bound) {
        self.locals
            .entry(name.to_owned())
            .and_modify(|seen| *seen = None)
            .or_insert(Some(bound));
    }

    /// The string a name the factory's body binds once stands for.
    fn local_string(&self, expr: &Expr) -> Option<String> {
        let Expr::Ident(name) = unwrap(expr) else {
            return None;
        };
        let bound = self.locals.get(&*name.sym)?.as_ref()?;
        let assignments = self.assignments.get(&*name.sym).copied().unwrap_or(0);
        match &bound.value {
            Constant::Str(value) if bound.how.holds(assignments) => Some(value.clone()),
            _ => None,
        }
    }

    /// The function that makes a channel a value is, its names read as the factory binds
    /// them ([`Maker::of_value`]).
    fn maker(&self, value: &Expr) -> Option<Constant> {
        Maker::of_value(value, &mut |part| self.local_string(part)).map(Constant::Maker)
    }

    /// An array of strings the factory's body writes or exports as a value
    /// ([`constants::list`]): literals, and names it binds once to strings (`const LOGGED =
    /// [LOG, FLUSH]`, `n.d(t, ["L", 0, ["a", "b"]])`).
    fn listed(&self, init: &Expr) -> Option<Constant> {
        self.listed_with(init, |_| false)
    }

    /// [`Self::listed`], with members of the factory's exports too, as `is_exports` names
    /// them (`t.LOGGED = [t.LOG, t.FLUSH]`).
    fn listed_with(&self, init: &Expr, is_exports: impl Fn(&str) -> bool) -> Option<Constant> {
        constants::list(init, &mut |item| match unwrap(item) {
            ident @ Expr::Ident(_) => self.local_string(ident),
            Expr::Member(member) if is_exports(&dotted(&member.obj)) => {
                let name = member.prop.as_ident()?;
                crate::facts::exported_string_at(&self.values, &name.sym, &[]).map(str::to_owned)
            }
            _ => None,
        })
    }

    /// The exports in order, getters resolved last (their order among themselves kept); and
    /// the names exported, getters first.
    fn close(mut self) -> FactoryExports {
        let mut names = self.getters.clone();
        names.append(&mut self.assigned_names);
        for (exported, local) in std::mem::take(&mut self.getters) {
            let value = self.enums.get(&local).cloned().or_else(|| {
                let bound = self.locals.get(&local)?.as_ref()?;
                let assignments = self.assignments.get(&local).copied().unwrap_or(0);
                bound.how.holds(assignments).then(|| bound.value.clone())
            });
            if let Some(value) = value {
                self.values.push((exported, value));
            }
        }
        let reexports = std::mem::take(&mut self.member_getters)
            .into_iter()
            .filter_map(|(name, local, path)| {
                let from = self.required.get(&local)?.clone()?;
                Some(Reexport { name, from, path })
            })
            .collect();
        let stars = std::mem::take(&mut self.stars)
            .into_iter()
            .filter_map(|star| match star {
                Ok(key) => Some(key),
                Err(local) => self.required.get(&local)?.clone(),
            })
            .collect();
        FactoryExports {
            strings: self.values,
            names,
            reexports,
            stars,
        }
    }
}

/// Whether `init` is TypeScript's `__exportStar` helper as it declares it in each CommonJS
/// module: `(this && this.__exportStar) || function (m, exports) {…}`.
fn is_export_star_helper(init: &Expr) -> bool {
    let Expr::Bin(or) = unwrap(init) else {
        return false;
    };
    if or.op != swc_ecma_ast::BinaryOp::LogicalOr {
        return false;
    }
    let names_helper =
        |e: &Expr| matches!(unwrap(e), Expr::Member(m) if m.prop.is_ident_with("__exportStar"));
    match unwrap(&or.left) {
        Expr::Bin(and) if and.op == swc_ecma_ast::BinaryOp::LogicalAnd => names_helper(&and.right),
        other => names_helper(other),
    }
}

/// What webpack's export definitions `<require>.d(<exports>, …)` export, as (name, what the
/// getter returns or the value): the object form `{x: () => local, y() { return p; }}`,
/// webpack 5.100+'s array form `["x", () => local, "y", 0, value]` (where `0` says a value
/// follows), rspack 2's object of values after the getters' (`{x: () => local}, {y:
/// value}`), and webpack 4's `(<exports>, "x", function () { return local; })`. Names whose
/// getter is not one `return` are left out.
pub(super) fn webpack_exports(call: &CallExpr) -> Vec<(String, &Expr)> {
    let mut out = Vec::new();
    match (call.args.get(1).map(|a| unwrap(&a.expr)), call.args.get(2)) {
        // rspack 2: `(<exports>, {x: () => local}, {y: value})`, getters then values.
        (Some(Expr::Object(object)), values) => {
            let values = values.map(|v| unwrap(&v.expr));
            if values.is_some_and(|v| !matches!(v, Expr::Object(_))) {
                return out;
            }
            for prop in &object.props {
                let PropOrSpread::Prop(prop) = prop else {
                    continue;
                };
                let (key, value) = match &**prop {
                    Prop::KeyValue(kv) => (prop_name(&kv.key), getter_result(&kv.value)),
                    Prop::Method(m) => (
                        prop_name(&m.key),
                        m.function.body.as_ref().and_then(|b| returned(&b.stmts)),
                    ),
                    _ => continue,
                };
                if let (Some(key), Some(value)) = (key, value) {
                    out.push((key, value));
                }
            }
            if let Some(Expr::Object(values)) = values {
                for prop in &values.props {
                    if let PropOrSpread::Prop(prop) = prop
                        && let Prop::KeyValue(kv) = &**prop
                        && let Some(key) = prop_name(&kv.key)
                    {
                        out.push((key, &*kv.value));
                    }
                }
            }
        }
        (Some(Expr::Array(array)), None) => {
            let mut items = array.elems.iter().map(|e| e.as_ref().map(|e| &*e.expr));
            while let (Some(Some(key)), Some(Some(binding))) = (items.next(), items.next()) {
                let Some(key) = super::names::string(key) else {
                    break;
                };
                let value = if matches!(unwrap(binding), Expr::Lit(Lit::Num(n)) if n.value == 0.0) {
                    match items.next() {
                        Some(Some(value)) => Some(value),
                        _ => break,
                    }
                } else {
                    getter_result(binding)
                };
                if let Some(value) = value {
                    out.push((key, value));
                }
            }
        }
        (Some(name), Some(getter)) => {
            if let (Some(key), Some(value)) =
                (super::names::string(name), getter_result(&getter.expr))
            {
                out.push((key, value));
            }
        }
        _ => {}
    }
    out
}

/// The expression a getter returns: `() => o`, `function () { return o; }`.
pub(super) fn getter_result(expr: &Expr) -> Option<&Expr> {
    match unwrap(expr) {
        Expr::Arrow(arrow) => match &*arrow.body {
            swc_ecma_ast::ArrowFunctionBody::Expr(e) => Some(e),
            swc_ecma_ast::ArrowFunctionBody::FunctionBody(body) => returned(&body.stmts),
        },
        Expr::Fn(f) => returned(&f.function.body.as_ref()?.stmts),
        _ => None,
    }
}

/// The value of a body that is one `return` (a getter's body).
pub(super) fn returned(stmts: &[Stmt]) -> Option<&Expr> {
    match stmts {
        [Stmt::Return(ret)] => ret.arg.as_deref(),
        _ => None,
    }
}

/// What a property descriptor (`Object.defineProperty(o, key, {…})`) holds: its `value`, or
/// what its getter returns (`get: () => v`, `get: function () { return v; }`, `get() {
/// return v; }`).
pub(super) fn described_value(descriptor: &ObjectLit) -> Option<&Expr> {
    descriptor.props.iter().find_map(|prop| {
        let PropOrSpread::Prop(prop) = prop else {
            return None;
        };
        match &**prop {
            Prop::KeyValue(kv) => match prop_name(&kv.key).as_deref() {
                Some("value") => Some(&*kv.value),
                Some("get") => getter_result(&kv.value),
                _ => None,
            },
            Prop::Method(m) if prop_name(&m.key).as_deref() == Some("get") => {
                returned(&m.function.body.as_ref()?.stmts)
            }
            _ => None,
        }
    })
}

struct FactoryWalker<'n> {
    /// The strings the factory exports, when asked for.
    strings: Option<Box<ExportedStrings>>,
    /// Functions open around the node visited; the factory's own body is at 1.
    depth: u32,
    hasher: Sha256,
    tokens: u64,
    require_name: Option<String>,
    exports_name: Option<String>,
    module_name: Option<String>,
    esbuild_names: &'n HashMap<String, ModuleKey>,
    requires: BTreeSet<ModuleKey>,
    async_chunks: BTreeSet<String>,
    async_modules: BTreeSet<ModuleKey>,
    exports: BTreeSet<String>,
    /// Functions entered so far; the first is the factory itself.
    functions: u64,
    /// Whether the require name is bound outside the factory.
    require_outside: bool,
    /// Whether the require name is Turbopack's module context ([`Factory::context`]).
    context: bool,
    /// The parameters of the functions a Turbopack async loader exports (`a.v(e => … e(7768))`,
    /// what the runtime calls with its import function): a call of one requires.
    importers: Vec<String>,
    /// esbuild wrapper names bound by a function open around the node visited, with how
    /// many such functions are open.
    hidden: HashMap<String, u32>,
    /// Open functions inside the factory that rebind its require name (a bundle nested in
    /// the factory names its own runtime `r` too): calls to that name there are not requires.
    shadowed: u32,
}

impl FactoryWalker<'_> {
    fn token(&mut self, kind: &str, text: &str) {
        if self.tokens >= MAX_TOKENS {
            return;
        }
        self.tokens += 1;
        self.hasher.update(kind.as_bytes());
        if !text.is_empty() {
            self.hasher.update(b":");
            let cut = crate::source::cut(text, 1024);
            if cut.contains(['\n', '\\']) || !cut.is_ascii() {
                self.hasher
                    .update(cut.escape_default().to_string().as_bytes());
            } else {
                self.hasher.update(cut.as_bytes());
            }
        }
        self.hasher.update(b"\n");
    }

    fn is_require(&self, name: &str) -> bool {
        name == "__webpack_require__"
            || (self.shadowed == 0 && self.require_name.as_deref().is_some_and(|r| r == name))
    }

    /// Whether a function inside the factory binds the require name: as a parameter, or as a
    /// function or variable declared at the top of its body.
    fn rebinds<'p>(&mut self, mut params: impl Iterator<Item = &'p Pat>, body: &[Stmt]) -> bool {
        self.functions += 1;
        let Some(name) = self.require_name.as_deref() else {
            return false;
        };
        if self.functions == 1 && !self.require_outside {
            return false;
        }
        let is = |ident: &swc_ecma_ast::Ident| ident.sym == *name;
        params.any(|p| param_name(Some(p)).is_some_and(|p| p == name))
            || body.iter().any(|stmt| match stmt {
                Stmt::Decl(Decl::Fn(f)) => is(&f.ident),
                Stmt::Decl(Decl::Var(var)) => var
                    .decls
                    .iter()
                    .any(|d| matches!(&d.name, Pat::Ident(i) if is(&i.id))),
                _ => false,
            })
    }

    /// The esbuild wrapper names a function binds for itself, as parameters or declarations
    /// of its body outside nested functions: there, a call of that name is not a require.
    /// Minified builds reuse a module's short name (`U`) for locals elsewhere.
    fn hides_wrappers<'p>(
        &self,
        params: impl Iterator<Item = &'p Pat>,
        body: &[Stmt],
    ) -> Vec<String> {
        if self.esbuild_names.is_empty() {
            return Vec::new();
        }
        let mut declared = Declared {
            names: self.esbuild_names,
            found: Vec::new(),
        };
        for param in params {
            param.visit_with(&mut declared);
        }
        for stmt in body {
            stmt.visit_with(&mut declared);
        }
        declared.found
    }

    /// Walks with `names` hidden from the esbuild wrapper names.
    fn with_hidden(&mut self, names: Vec<String>, walk: impl FnOnce(&mut Self)) {
        if names.is_empty() {
            return walk(self);
        }
        for name in &names {
            *self.hidden.entry(name.clone()).or_default() += 1;
        }
        walk(self);
        for name in names {
            if let Some(count) = self.hidden.get_mut(&name) {
                *count -= 1;
                if *count == 0 {
                    self.hidden.remove(&name);
                }
            }
        }
    }

    /// Walks a function's children, with the require name shadowed when it rebinds it.
    fn walk_function(&mut self, rebinds: bool, walk: impl FnOnce(&mut Self)) {
        self.shadowed += u32::from(rebinds);
        self.depth += 1;
        walk(self);
        self.depth -= 1;
        self.shadowed -= u32::from(rebinds);
    }

    /// Notes what an assignment exports, or which name it assigns (for [`ExportedStrings`]).
    fn note_export_value(&mut self, assign: &swc_ecma_ast::AssignExpr) {
        if self.strings.is_none() || assign.op != swc_ecma_ast::AssignOp::Assign {
            return;
        }
        let AssignTarget::Simple(target) = &assign.left else {
            return;
        };
        let mut values = Vec::new();
        let mut assigned = None;
        // `(o = r || (t.Channel = r = {})).Open = "link:open"`, swc's minified enum.
        if let Some(member) = constants::inline_enum_member(assign) {
            let export = member
                .export
                .filter(|m| self.is_exports(&dotted(&m.obj)))
                .and_then(|m| m.prop.as_ident())
                .map(|p| p.sym.to_string());
            if let Some(strings) = self.strings.as_deref_mut() {
                let target = member.target.to_owned();
                if let Some(export) = export
                    && !strings.getters.iter().any(|g| g.0 == export)
                {
                    strings.getters.push((export, target.clone()));
                }
                let Constant::Object(members) = strings
                    .enums
                    .entry(target)
                    .or_insert_with(|| Constant::Object(Vec::new()))
                else {
                    return;
                };
                if members.len() < constants::MAX_MEMBERS {
                    members.push((member.key, Constant::Str(member.value)));
                }
            }
            return;
        }
        match target {
            SimpleAssignTarget::Ident(ident) => assigned = Some(ident.id.sym.to_string()),
            // `t.GET = "x"`, `module.exports = {…}`; `t.handle = handle`.
            SimpleAssignTarget::Member(m) => {
                constants::exported_by(m, &assign.right, |n| self.is_exports(n), &mut values);
                // `t.channel = (e) => `app:${e}``: a function that makes a channel.
                if values.is_empty()
                    && let Some(prop) = m.prop.as_ident()
                    && self.is_exports(&dotted(&m.obj))
                    && let Some(strings) = self.strings.as_deref()
                    && let Some(maker) = strings.maker(&assign.right)
                {
                    values.push((prop.sym.to_string(), maker));
                }
                // `t.LOGGED = [t.LOG, t.FLUSH]`, as `tsc` writes an exported list.
                if values.is_empty()
                    && let Some(prop) = m.prop.as_ident()
                    && self.is_exports(&dotted(&m.obj))
                    && let Some(strings) = self.strings.as_deref()
                    && let Some(list) = strings.listed_with(&assign.right, |n| self.is_exports(n))
                {
                    values.push((prop.sym.to_string(), list));
                }
                // A function assigned in place (`t.handle = function (e, t) {…}`) is named by
                // the member, as the pre-pass names its frame.
                // An instance made in place (`t.ipc = new Ipc()`) has its class's helpers.
                let local = match unwrap(&assign.right) {
                    Expr::Ident(local) => Some(local.sym.to_string()),
                    Expr::Fn(_) | Expr::Arrow(_) => Some(super::names::dotted_member(m)),
                    new @ Expr::New(_) => super::names::instantiated_class(new),
                    _ => None,
                };
                if let (Some(local), Some(prop)) = (local, m.prop.as_ident())
                    && self.is_exports(&dotted(&m.obj))
                    && let Some(strings) = self.strings.as_deref_mut()
                {
                    strings.assigned_names.push((prop.sym.to_string(), local));
                }
            }
            _ => {}
        }
        if let Some(strings) = self.strings.as_deref_mut() {
            strings.values.extend(values);
            if let Some(name) = assigned {
                *strings.assignments.entry(name).or_default() += 1;
            }
        }
    }

    /// Notes a declaration of the factory's own body bound to a constant, or to TypeScript's
    /// `__exportStar` helper.
    fn note_declaration(&mut self, var: &swc_ecma_ast::VarDecl) {
        if self.depth != 1 {
            return;
        }
        let helpers: Vec<String> = var
            .decls
            .iter()
            .filter_map(|decl| match (&decl.name, decl.init.as_deref()) {
                (Pat::Ident(ident), Some(init)) if is_export_star_helper(init) => {
                    Some(ident.id.sym.to_string())
                }
                _ => None,
            })
            .collect();
        let Some(strings) = self.strings.as_deref_mut() else {
            return;
        };
        strings.star_helpers.extend(helpers);
        let how = if var.kind == swc_ecma_ast::VarDeclKind::Const {
            Binding::Fixed
        } else {
            Binding::Declared
        };
        for decl in &var.decls {
            let (Pat::Ident(ident), Some(init)) = (&decl.name, &decl.init) else {
                continue;
            };
            let Some(value) = constants::constant(init)
                .or_else(|| strings.listed(init))
                .or_else(|| strings.maker(init))
            else {
                continue;
            };
            strings.bind_local(&ident.id.sym, Bound { value, how });
        }
    }

    /// Notes a function the factory's own body declares that makes a channel
    /// (`function r(e) { return "app:" + e; }`, exported by a getter).
    fn note_function(&mut self, decl: &swc_ecma_ast::FnDecl) {
        if self.depth != 1 {
            return;
        }
        let Some(strings) = self.strings.as_deref_mut() else {
            return;
        };
        let maker = Maker::of_function(&decl.function, &mut |part| strings.local_string(part));
        if let Some(maker) = maker {
            let bound = Bound {
                value: Constant::Maker(maker),
                how: Binding::Declared,
            };
            strings.bind_local(&decl.ident.sym, bound);
        }
    }

    /// Notes a compiled enum, and its export; and the values of webpack's export getters.
    fn note_export_call(&mut self, call: &CallExpr, callee: &str, getters: bool) {
        if self.strings.is_none() {
            return;
        }
        if let Some((target, members)) = constants::enum_call(call) {
            let exported = constants::enum_export(call, |name| self.is_exports(name));
            let Some(strings) = self.strings.as_deref_mut() else {
                return;
            };
            if let Some(exported) = exported {
                strings.values.push((exported, members.clone()));
            }
            if let Some(target) = target {
                strings.enums.insert(target.to_owned(), members);
            }
            return;
        }
        if let Some(star) = self.export_star(call, callee) {
            if let Some(strings) = self.strings.as_deref_mut() {
                strings.stars.push(star);
            }
            return;
        }
        if !getters {
            return;
        }
        let Some(strings) = self.strings.as_deref_mut() else {
            return;
        };
        let exports = call.args.first().map(|a| dotted(&a.expr));
        for (name, value) in webpack_exports(call) {
            match unwrap(value) {
                Expr::Ident(local) => strings.getters.push((name, local.sym.to_string())),
                // rspack 2's function exported in place, named as the pre-pass names it.
                Expr::Fn(_) | Expr::Arrow(_) => {
                    if let Some(exports) = &exports {
                        let local = format!("{exports}.{name}");
                        strings.assigned_names.push((name, local));
                    }
                }
                member @ Expr::Member(_) => {
                    let dotted = dotted(member);
                    let mut parts = dotted.split('.').map(str::to_owned);
                    let local = parts.next().unwrap_or_default();
                    let path: Vec<String> = parts.collect();
                    if !local.is_empty() && !path.is_empty() && path.iter().all(|p| !p.is_empty()) {
                        strings.member_getters.push((name, local, path));
                    }
                }
                value => {
                    if let Some(value) =
                        constants::constant(value).or_else(|| strings.listed(value))
                    {
                        strings.values.push((name, value));
                    }
                }
            }
        }
    }

    /// What a call (of `callee`, as written) of TypeScript's `__exportStar` helper re-exports
    /// into the factory's exports (`__exportStar(n(777), exports)`, `tslib_1.__exportStar(c,
    /// exports)`, or the name a minified factory binds the helper to): the factory required,
    /// or the local name read.
    fn export_star(&self, call: &CallExpr, callee: &str) -> Option<Result<ModuleKey, String>> {
        let [from, into] = call.args.as_slice() else {
            return None;
        };
        let strings = self.strings.as_deref()?;
        let helper = callee == "__exportStar"
            || callee.ends_with(".__exportStar")
            || strings.star_helpers.iter().any(|h| h == callee);
        if !helper || from.spread.is_some() || !self.is_exports(&dotted(&into.expr)) {
            return None;
        }
        match unwrap(&from.expr) {
            Expr::Ident(local) => Some(Err(local.sym.to_string())),
            Expr::Call(required) => self.required_key(required).map(Ok),
            _ => None,
        }
    }

    /// Where the factory re-exports a local name's members, the names its body's top-level
    /// declarations bind to a require of another factory (`var c = n("./channels.js")`,
    /// before or after the getters).
    fn note_required(&mut self, stmts: &[Stmt]) {
        let Some(strings) = self.strings.as_deref() else {
            return;
        };
        if strings.member_getters.is_empty() && !strings.stars.iter().any(Result::is_err) {
            return;
        }
        let mut required: Vec<(String, ModuleKey)> = Vec::new();
        for stmt in stmts {
            let Stmt::Decl(Decl::Var(var)) = stmt else {
                continue;
            };
            for decl in &var.decls {
                if let (Pat::Ident(ident), Some(Expr::Call(call))) =
                    (&decl.name, decl.init.as_deref().map(unwrap))
                    && let Some(key) = self.required_key(call)
                {
                    required.push((ident.id.sym.to_string(), key));
                }
            }
        }
        let Some(strings) = self.strings.as_deref_mut() else {
            return;
        };
        for (name, key) in required {
            strings
                .required
                .entry(name)
                .and_modify(|seen| *seen = None)
                .or_insert(Some(key));
        }
    }

    /// The factory a call requires: `n(777)` through the factory's require name, or esbuild's
    /// `require_channels()`.
    fn required_key(&self, call: &CallExpr) -> Option<ModuleKey> {
        let Expr::Ident(callee) = call.callee.as_expr().map(|c| unwrap(c))? else {
            return None;
        };
        match call.args.as_slice() {
            [arg] if arg.spread.is_none() && self.is_require(&callee.sym) => {
                module_key_of(&arg.expr)
            }
            [] if !self.hidden.contains_key(&*callee.sym) => {
                self.esbuild_names.get(&*callee.sym).cloned()
            }
            _ => None,
        }
    }

    fn is_exports(&self, name: &str) -> bool {
        name == "exports"
            || name == "module.exports"
            || self.exports_name.as_deref().is_some_and(|e| e == name)
            || self
                .module_name
                .as_deref()
                .is_some_and(|m| name.strip_prefix(m) == Some(".exports"))
    }

    fn note_export_target(&mut self, m: &swc_ecma_ast::MemberExpr) {
        if let MemberProp::Ident(p) = &m.prop
            && self.is_exports(&dotted(&m.obj))
        {
            self.exports.insert(p.sym.to_string());
        }
    }
}

fn expr_kind(expr: &Expr) -> &'static str {
    match expr {
        Expr::This(_) => "This",
        Expr::Array(_) => "Array",
        Expr::Object(_) => "Object",
        Expr::Fn(_) => "Fn",
        Expr::Unary(_) => "Unary",
        Expr::Update(_) => "Update",
        Expr::Bin(_) => "Bin",
        Expr::Assign(_) => "Assign",
        Expr::Member(_) => "Member",
        Expr::SuperProp(_) => "SuperProp",
        Expr::Cond(_) => "Cond",
        Expr::Call(_) => "Call",
        Expr::New(_) => "New",
        Expr::Seq(_) => "Seq",
        Expr::Ident(_) => "Ident",
        Expr::Lit(_) => "Lit",
        Expr::Tpl(_) => "Tpl",
        Expr::TaggedTpl(_) => "TaggedTpl",
        Expr::Arrow(_) => "Arrow",
        Expr::Class(_) => "Class",
        Expr::Yield(_) => "Yield",
        Expr::MetaProp(_) => "MetaProp",
        Expr::Await(_) => "Await",
        Expr::Paren(_) => "Paren",
        Expr::JSXMember(_) => "JSXMember",
        Expr::JSXNamespacedName(_) => "JSXNamespacedName",
        Expr::JSXEmpty(_) => "JSXEmpty",
        Expr::JSXElement(_) => "JSXElement",
        Expr::JSXFragment(_) => "JSXFragment",
        Expr::TsTypeAssertion(_) => "TsTypeAssertion",
        Expr::TsConstAssertion(_) => "TsConstAssertion",
        Expr::TsNonNull(_) => "TsNonNull",
        Expr::TsAs(_) => "TsAs",
        Expr::TsInstantiation(_) => "TsInstantiation",
        Expr::TsSatisfies(_) => "TsSatisfies",
        Expr::PrivateName(_) => "PrivateName",
        Expr::OptChain(_) => "OptChain",
        Expr::Invalid(_) => "Invalid",
    }
}

fn stmt_kind(stmt: &Stmt) -> &'static str {
    match stmt {
        Stmt::Block(_) => "Block",
        Stmt::Empty(_) => "Empty",
        Stmt::Debugger(_) => "Debugger",
        Stmt::With(_) => "With",
        Stmt::Return(_) => "Return",
        Stmt::Labeled(_) => "Labeled",
        Stmt::Break(_) => "Break",
        Stmt::Continue(_) => "Continue",
        Stmt::If(_) => "If",
        Stmt::Switch(_) => "Switch",
        Stmt::Throw(_) => "Throw",
        Stmt::Try(_) => "Try",
        Stmt::While(_) => "While",
        Stmt::DoWhile(_) => "DoWhile",
        Stmt::For(_) => "For",
        Stmt::ForIn(_) => "ForIn",
        Stmt::ForOf(_) => "ForOf",
        Stmt::Decl(_) => "Decl",
        Stmt::Expr(_) => "Expr",
    }
}

fn decl_kind(decl: &Decl) -> &'static str {
    match decl {
        Decl::Class(_) => "Class",
        Decl::Fn(_) => "Fn",
        Decl::Var(_) => "Var",
        Decl::Using(_) => "Using",
        Decl::TsInterface(_) => "TsInterface",
        Decl::TsTypeAlias(_) => "TsTypeAlias",
        Decl::TsEnum(_) => "TsEnum",
        Decl::TsModule(_) => "TsModule",
    }
}

fn pat_kind(pat: &Pat) -> &'static str {
    match pat {
        Pat::Ident(_) => "Ident",
        Pat::Array(_) => "Array",
        Pat::Rest(_) => "Rest",
        Pat::Object(_) => "Object",
        Pat::Assign(_) => "Assign",
        Pat::Invalid(_) => "Invalid",
        Pat::Expr(_) => "Expr",
    }
}

/// `"use strict";`
fn is_use_strict(stmt: &Stmt) -> bool {
    matches!(stmt, Stmt::Expr(e) if matches!(&*e.expr, Expr::Lit(Lit::Str(s)) if s.value == *"use strict"))
}

impl Visit for FactoryWalker<'_> {
    fn visit_function(&mut self, function: &swc_ecma_ast::Function) {
        let body = function.body.as_ref().map_or(&[][..], |b| &b.stmts[..]);
        let rebinds = self.rebinds(function.params.iter().map(|p| &p.pat), body);
        let hidden = self.hides_wrappers(function.params.iter().map(|p| &p.pat), body);
        self.walk_function(rebinds, |walker| {
            walker.with_hidden(hidden, |walker| function.visit_children_with(walker))
        });
    }

    fn visit_arrow_expr(&mut self, arrow: &swc_ecma_ast::ArrowExpr) {
        let body = match &*arrow.body {
            swc_ecma_ast::ArrowFunctionBody::FunctionBody(block) => &block.stmts[..],
            swc_ecma_ast::ArrowFunctionBody::Expr(_) => &[][..],
        };
        let rebinds = self.rebinds(arrow.params.iter(), body);
        let hidden = self.hides_wrappers(arrow.params.iter(), body);
        self.walk_function(rebinds, |walker| {
            walker.with_hidden(hidden, |walker| arrow.visit_children_with(walker))
        });
    }

    fn visit_expr(&mut self, expr: &Expr) {
        if self.tokens >= MAX_TOKENS {
            return;
        }
        self.token("e", expr_kind(expr));
        match expr {
            Expr::Bin(bin) => self.token("op", bin.op.as_str()),
            Expr::Unary(u) => self.token("op", u.op.as_str()),
            Expr::Update(u) => self.token("op", u.op.as_str()),
            Expr::Assign(a) => {
                self.token("op", a.op.as_str());
                if let AssignTarget::Simple(SimpleAssignTarget::Member(m)) = &a.left {
                    self.note_export_target(m);
                }
                self.note_export_value(a);
                if let AssignTarget::Simple(target) = &a.left {
                    let name = match target {
                        SimpleAssignTarget::Ident(i) => i.id.sym.to_string(),
                        SimpleAssignTarget::Member(m) => super::names::dotted_member(m),
                        _ => String::new(),
                    };
                    if self.is_exports(&name) {
                        match unwrap(&a.right) {
                            Expr::Object(obj) => {
                                for prop in &obj.props {
                                    if let PropOrSpread::Prop(p) = prop
                                        && let Some(k) = prop_key(p)
                                    {
                                        self.exports.insert(k);
                                    }
                                }
                            }
                            _ => {
                                self.exports.insert("default".to_owned());
                            }
                        }
                    }
                }
            }
            Expr::Lit(lit) => match lit {
                Lit::Str(s) => self.token("str", &s.value.to_string_lossy()),
                Lit::Num(n) => self.token("num", &number_text(n.value)),
                Lit::Bool(b) => self.token("bool", if b.value { "true" } else { "false" }),
                Lit::Null(_) => self.token("null", ""),
                Lit::Regex(r) => self.token("re", &format!("{}/{}", r.exp, r.flags)),
                Lit::BigInt(b) => self.token("big", &b.value.to_string()),
                Lit::JSXText(t) => self.token("jsx", &t.value.to_string_lossy()),
            },
            Expr::Tpl(tpl) => {
                for quasi in &tpl.quasis {
                    let text = quasi
                        .cooked
                        .as_ref()
                        .map(|c| c.to_string_lossy().into_owned())
                        .unwrap_or_default();
                    self.token("tpl", &text);
                }
            }
            Expr::Member(m) => {
                if let Some(name) = match &m.prop {
                    MemberProp::Ident(p) => Some(p.sym.to_string()),
                    MemberProp::Computed(c) => literal_key(&c.expr),
                    MemberProp::PrivateName(p) => Some(format!("#{}", p.name)),
                } {
                    self.token("prop", &name);
                }
            }
            Expr::Call(call) => self.note_call(call),
            _ => {}
        }
        expr.visit_children_with(self);
    }

    fn visit_stmt(&mut self, stmt: &Stmt) {
        if self.tokens >= MAX_TOKENS || (self.functions == 1 && is_use_strict(stmt)) {
            return;
        }
        self.token("s", stmt_kind(stmt));
        stmt.visit_children_with(self);
    }

    fn visit_decl(&mut self, decl: &Decl) {
        self.token("d", decl_kind(decl));
        match decl {
            Decl::Var(var) => self.note_declaration(var),
            Decl::Fn(f) => self.note_function(f),
            _ => {}
        }
        decl.visit_children_with(self);
    }

    fn visit_pat(&mut self, pat: &Pat) {
        self.token("p", pat_kind(pat));
        pat.visit_children_with(self);
    }

    fn visit_prop_name(&mut self, name: &PropName) {
        if let Some(key) = prop_name(name)
            && !matches!(name, PropName::Computed(_))
        {
            self.token("key", &key);
        }
        name.visit_children_with(self);
    }
}

fn prop_key(prop: &Prop) -> Option<String> {
    match prop {
        Prop::Shorthand(i) => Some(i.sym.to_string()),
        Prop::KeyValue(kv) => prop_name(&kv.key),
        Prop::Getter(g) => prop_name(&g.key),
        Prop::Method(m) => prop_name(&m.key),
        Prop::Assign(a) => Some(a.key.sym.to_string()),
        Prop::Setter(s) => prop_name(&s.key),
    }
}

impl FactoryWalker<'_> {
    fn note_call(&mut self, call: &CallExpr) {
        if self.context {
            return self.note_context_call(call);
        }
        let name = callee_name(&call.callee);
        let first = call.args.first().map(|a| &*a.expr);
        if self.strings.is_some() {
            let getters = name
                .rsplit_once('.')
                .is_some_and(|(object, method)| method == "d" && self.is_require(object));
            self.note_export_call(call, &name, getters);
        }
        if self.is_require(&name) {
            match first.map(unwrap) {
                // AMD's `require([ids], callback)` loads on demand.
                Some(Expr::Array(ids)) => {
                    for id in ids.elems.iter().flatten() {
                        if let Some(id) = super::names::string(&id.expr) {
                            self.async_modules.insert(ModuleKey::String(id));
                        }
                    }
                }
                _ => {
                    if let Some(key) = first.and_then(module_key_of) {
                        self.requires.insert(key);
                    }
                }
            }
        } else if let Some((object, method)) = name.rsplit_once('.')
            && self.is_require(object)
        {
            match method {
                "e" => {
                    if let Some(key) = first.and_then(literal_key) {
                        self.async_chunks.insert(key);
                    }
                }
                // `__webpack_require__.d(exports, {name: getter})`
                "d" => {
                    if let Some(Expr::Object(obj)) = call.args.get(1).map(|a| unwrap(&a.expr)) {
                        for prop in &obj.props {
                            if let PropOrSpread::Prop(p) = prop
                                && let Some(k) = prop_key(p)
                            {
                                self.exports.insert(k);
                            }
                        }
                    }
                }
                // `__webpack_require__.bind(req, id)` and `.t(id, mode)`
                "bind" | "t" => {
                    let arg = if method == "bind" {
                        call.args.get(1)
                    } else {
                        call.args.first()
                    };
                    if let Some(key) = arg.and_then(|a| module_key_of(&a.expr)) {
                        self.requires.insert(key);
                    }
                }
                _ => {}
            }
        } else if name == "Object.defineProperty"
            && let Some(target) = first
            && self.is_exports(&dotted(target))
            && let Some(key) = call.args.get(1).and_then(|a| literal_key(&a.expr))
        {
            self.exports.insert(key);
        } else if let Some(key) = self.esbuild_names.get(&name)
            && call.args.is_empty()
            && !self.hidden.contains_key(&name)
        {
            self.requires.insert(key.clone());
        }
    }
}

impl FactoryWalker<'_> {
    /// A call in a Turbopack factory: the context's `r(id)` and `i(id)` require, `A(id)` loads
    /// a module through its async loader, `l(path)` and `L(url)` load a chunk, `s([…])`
    /// exports an ES module's names and `v(value)` the module's value; in an async loader,
    /// `Promise.all(["static/chunks/x.js"].map(p => a.l(p)))` loads those chunks, and the
    /// function it exports requires what it calls its parameter with.
    fn note_context_call(&mut self, call: &CallExpr) {
        let first = call.args.first().map(|a| &*a.expr);
        let callee = call.callee.as_expr().map(|c| unwrap(c));
        if let Some(Expr::Member(member)) = callee
            && member.prop.is_ident_with("map")
            && let Expr::Array(paths) = unwrap(&member.obj)
            && first.is_some_and(|f| self.loads_chunk(f))
        {
            for path in paths.elems.iter().flatten() {
                if let Some(path) = super::names::string(&path.expr) {
                    self.async_chunks.insert(path);
                }
            }
            return;
        }
        let name = callee_name(&call.callee);
        if self.importers.contains(&name) {
            if let Some(key) = first.and_then(module_key_of) {
                self.requires.insert(key);
            }
            return;
        }
        let Some((object, method)) = name.rsplit_once('.') else {
            return;
        };
        if !self.is_require(object) {
            return;
        }
        match (method, first) {
            ("r" | "i", Some(id)) => {
                if let Some(key) = module_key_of(id) {
                    self.requires.insert(key);
                }
            }
            ("A", Some(id)) => {
                if let Some(key) = module_key_of(id) {
                    self.async_modules.insert(key);
                }
            }
            ("l" | "L", Some(path)) => {
                if let Some(path) = super::names::string(path) {
                    self.async_chunks.insert(path);
                }
            }
            ("s", Some(list)) => {
                if let Expr::Array(list) = unwrap(list) {
                    for (name, exported) in turbopack_exports(list) {
                        self.note_turbopack_export(&name, exported);
                        self.exports.insert(name);
                    }
                }
            }
            ("v", Some(value)) => {
                self.exports.insert("default".to_owned());
                if let Some(importer) = params_of(value).first().and_then(|p| param_name(Some(p))) {
                    self.importers.push(importer);
                }
            }
            _ => {}
        }
    }

    /// An export's constant value, or the local name it exports (as a value or through its
    /// getter), for [`ExportedStrings`].
    fn note_turbopack_export(&mut self, name: &str, exported: Exported<'_>) {
        let Some(strings) = self.strings.as_deref_mut() else {
            return;
        };
        // A name exported as a local binding's value or through a getter is resolved from
        // the factory's declarations once it is walked.
        let local = match exported {
            Exported::Value(Expr::Ident(local)) => Some(local),
            Exported::Value(value) => {
                if let Some(value) = constants::constant(value).or_else(|| strings.listed(value)) {
                    strings.values.push((name.to_owned(), value));
                }
                None
            }
            Exported::Getter(getter) => match getter_result(getter).map(unwrap) {
                Some(Expr::Ident(local)) => Some(local),
                _ => None,
            },
        };
        if let Some(local) = local {
            strings
                .getters
                .push((name.to_owned(), local.sym.to_string()));
        }
    }

    /// Whether `f` is a function of one parameter that loads it as a chunk: `p => a.l(p)`.
    fn loads_chunk(&self, f: &Expr) -> bool {
        let Expr::Arrow(arrow) = unwrap(f) else {
            return false;
        };
        let body = match &*arrow.body {
            swc_ecma_ast::ArrowFunctionBody::Expr(e) => Some(&**e),
            swc_ecma_ast::ArrowFunctionBody::FunctionBody(body) => returned(&body.stmts),
        };
        let Some(Expr::Call(call)) = body.map(unwrap) else {
            return false;
        };
        callee_name(&call.callee)
            .rsplit_once('.')
            .is_some_and(|(object, method)| matches!(method, "l" | "L") && self.is_require(object))
    }
}

/// Names of a function's own scope (its parameters, and what its body declares outside
/// nested functions) that are esbuild wrapper names.
struct Declared<'n> {
    names: &'n HashMap<String, ModuleKey>,
    found: Vec<String>,
}

impl Declared<'_> {
    fn note(&mut self, ident: &swc_ecma_ast::Ident) {
        if self.names.contains_key(&*ident.sym) {
            self.found.push(ident.sym.to_string());
        }
    }
}

impl Visit for Declared<'_> {
    fn visit_binding_ident(&mut self, ident: &swc_ecma_ast::BindingIdent) {
        self.note(&ident.id);
    }

    fn visit_fn_decl(&mut self, decl: &swc_ecma_ast::FnDecl) {
        self.note(&decl.ident);
    }

    fn visit_class_decl(&mut self, decl: &swc_ecma_ast::ClassDecl) {
        self.note(&decl.ident);
    }

    // Initializers and nested functions bind nothing of this scope; patterns are read for
    // their names only.
    fn visit_expr(&mut self, _: &Expr) {}
    fn visit_function(&mut self, _: &swc_ecma_ast::Function) {}
    fn visit_arrow_expr(&mut self, _: &swc_ecma_ast::ArrowExpr) {}
    fn visit_class(&mut self, _: &swc_ecma_ast::Class) {}
}

/// A numeric or string literal as a module key.
pub(crate) fn module_key_of(expr: &Expr) -> Option<ModuleKey> {
    match unwrap(expr) {
        Expr::Lit(Lit::Num(n)) if n.value >= 0.0 && n.value.fract() == 0.0 && n.value < 9e15 => {
            Some(ModuleKey::Number(n.value as u64))
        }
        other => super::names::string(other).map(ModuleKey::String),
    }
}

//! Export shapes (`rea-export-shape-v1`): what a file exports at its top level, and the shape of
//! what each exported function returns (or each exported value is), read from the tree. Nothing
//! is evaluated.
//!
//! Exports read: ES module declarations (`export function`, `export const`, `export class`,
//! `export default …`, `export { a as b }`, re-exports `export { a } from "m"`, and TypeScript's
//! `export =`), and CommonJS assignments at the top level (`module.exports = …`,
//! `module.exports.x = …`, `exports.x = …`). A CommonJS object literal assigned to
//! `module.exports` exports each of its keys, as Node.js's CommonJS lexer names them; any other
//! value assigned to it is the export `default`. A later export of a name replaces an earlier
//! one. A bundled module factory is read the same way over its own body, with its parameters
//! as `module`, `exports` and `require`, plus webpack's export getters
//! (`n.d(t, {x: () => local})`, its array form, and webpack 4's `n.d(t, "x", getter)`).
//!
//! A function's shapes are its return variants, in source order, one per distinct shape: each
//! `return` of the function's own body (nested functions and classes are not attributed to it),
//! an arrow's expression body, a conditional expression split into its two branches, and
//! `undefined` when the body may end without a `return` or `throw`. An `async` function's
//! variants are the values its promise resolves to (`await x` reads as `x`).
//!
//! A shape is a JSON object with a `type`:
//! - `string`, `number`, `bigint`, `boolean`: with `value` when the literal is written (numbers
//!   as JavaScript prints them, strings up to 256 characters);
//! - `null`, `undefined`, `regexp`, `function`, `class`;
//! - `object`: `fields` (key to shape) and `complete`, false when a spread, a computed key, a
//!   bound or a possible later mutation (the binding is used elsewhere) leaves other keys
//!   possible;
//! - `array`: `elements` (positional) and `complete`;
//! - `instance`: `of`, the constructor's dotted name (`new Date()`);
//! - `parameter`: `position`, a plain parameter the body never assigns, returned as the caller
//!   passed it;
//! - `union`: `options`, for a conditional inside a value;
//! - `unknown`: with the `reason` the value is not known statically (`call`, `member`,
//!   `binding`, `logical`, `operator`, `this`, `getter`, `expression`, `bound`), and what it
//!   read when that is a name: a call's `callee`, a member's `of`, a binding's `name`.
//!
//! Names resolve to `const` bindings (and function and class declarations) of the function's
//! body or the file's top level, at most four hops; a destructured parameter is `binding`.
//! Bounds per export: 16 variants, depth 8, 256 shape nodes, 64 fields, 32 elements; a bound
//! reached leaves that part `unknown` (`bound`) and the export `partial`. At most 256 exports per
//! file.

use rustc_hash::FxHashMap as HashMap;
use std::cell::OnceCell;

use serde_json::{Map, Value, json};
use swc_atoms::Atom;
use swc_common::{Span, Spanned};
use swc_ecma_ast::{
    ArrowExpr, ArrowFunctionBody, AssignOp, AssignTarget, BinaryOp, Decl, DefaultDecl, Expr,
    Function, Ident, ImportSpecifier, Lit, MemberExpr, MemberProp, ModuleDecl, ModuleExportName,
    ModuleItem, Pat, Program, Prop, PropOrSpread, SimpleAssignTarget, Stmt, UnaryOp, VarDeclKind,
};
use swc_ecma_visit::{Visit, VisitWith};

use super::names::{dotted, number_text, prop_name, unwrap};
use crate::facts::ExportShape;
use crate::source::Source;

pub const ALGORITHM: &str = "rea-export-shape-v1";
/// Exports read per file.
pub const MAX_EXPORTS: usize = 256;
const MAX_VARIANTS: usize = 16;
const MAX_DEPTH: usize = 8;
const MAX_SHAPE_NODES: usize = 256;
const MAX_FIELDS: usize = 64;
const MAX_ELEMENTS: usize = 32;
const MAX_STRING: usize = 256;
const MAX_HOPS: usize = 4;
/// Modules a file re-exports whole that are kept.
const MAX_STAR_EXPORTS: usize = 64;
/// Statements nested inside a function's body that are searched for `return`s.
const MAX_STATEMENT_DEPTH: usize = 256;

/// What a top-level or body-level name is bound to.
#[derive(Clone, Copy)]
enum Local<'a> {
    Function(&'a Function),
    Arrow(&'a ArrowExpr),
    Class,
    /// A `const` (or, at the top level, `let`/`var`) with its initializer.
    Value(&'a Expr, VarDeclKind),
    /// An import: the specifier and the imported name.
    Import(&'a str, Option<&'a str>),
}

/// The names a module's code reaches its exports and other modules by: a file's `module`,
/// `exports` and `require`, or a factory's parameters (`(e, t, n)` in webpack's output).
#[derive(Debug, Clone)]
pub(crate) struct Names {
    pub module: Option<String>,
    pub exports: Option<String>,
    pub require: String,
}

impl Names {
    fn file() -> Names {
        Names {
            module: Some("module".to_owned()),
            exports: Some("exports".to_owned()),
            require: "require".to_owned(),
        }
    }
}

/// Where names are counted: a file, or a factory's body.
#[derive(Clone, Copy)]
enum Root<'a> {
    Program(&'a Program),
    Body(&'a [Stmt]),
}

/// The exports of one file, in the order they were written (a later one replacing an earlier
/// one of the same name), whether more than [`MAX_EXPORTS`] were written, and the specifiers
/// of the modules it re-exports whole ([`crate::facts::JsFacts::star_exports`]).
pub(crate) fn read(
    source: &Source<'_>,
    program: &Program,
) -> (Vec<ExportShape>, bool, Vec<String>) {
    let stmts: Vec<Item<'_>> = match program {
        Program::Module(module) => module.body.iter().map(Item::of).collect(),
        Program::Script(script) => script.body.iter().map(Item::Stmt).collect(),
    };
    read_items(source, &stmts, Root::Program(program), Names::file())
}

/// The exports of one module factory, whose body is `stmts`: what it assigns to
/// `<module>.exports` and `<exports>.x`, and webpack's export getters
/// (`<require>.d(<exports>, {x: () => local})`).
pub(crate) fn read_factory(
    source: &Source<'_>,
    stmts: &[Stmt],
    names: Names,
) -> (Vec<ExportShape>, bool) {
    let items: Vec<Item<'_>> = stmts.iter().map(Item::Stmt).collect();
    let (shapes, truncated, _) = read_items(source, &items, Root::Body(stmts), names);
    (shapes, truncated)
}

fn read_items<'a>(
    source: &Source<'_>,
    stmts: &[Item<'a>],
    root: Root<'a>,
    names: Names,
) -> (Vec<ExportShape>, bool, Vec<String>) {
    let mut top: HashMap<Atom, Local<'_>> = HashMap::default();
    for item in stmts {
        match item {
            Item::Stmt(stmt) => bind_stmt(stmt, &mut top, true),
            Item::Decl(ModuleDecl::ExportDecl(export)) => bind_decl(&export.decl, &mut top, true),
            Item::Decl(ModuleDecl::Import(import)) if !import.type_only => {
                let from = import.src.value.as_str().unwrap_or_default();
                for spec in &import.specifiers {
                    let (local, imported) = match spec {
                        ImportSpecifier::Named(named) => (
                            &named.local,
                            Some(match &named.imported {
                                Some(ModuleExportName::Ident(i)) => i.sym.as_str(),
                                Some(ModuleExportName::Str(s)) => {
                                    s.value.as_str().unwrap_or_default()
                                }
                                None => named.local.sym.as_str(),
                            }),
                        ),
                        ImportSpecifier::Default(d) => (&d.local, Some("default")),
                        ImportSpecifier::Namespace(n) => (&n.local, None),
                    };
                    top.insert(local.sym.clone(), Local::Import(from, imported));
                }
            }
            Item::Decl(_) => {}
        }
    }
    let mut reader = Reader {
        source,
        root,
        names,
        top_uses: OnceCell::new(),
        top,
        out: Vec::new(),
        truncated: false,
        hops: 0,
        stars: Vec::new(),
    };
    for item in stmts {
        reader.item(item);
    }
    (reader.out, reader.truncated, reader.stars)
}

enum Item<'a> {
    Stmt(&'a Stmt),
    Decl(&'a ModuleDecl),
}

impl<'a> Item<'a> {
    fn of(item: &'a ModuleItem) -> Item<'a> {
        match item {
            ModuleItem::Stmt(stmt) => Item::Stmt(stmt),
            ModuleItem::ModuleDecl(decl) => Item::Decl(decl),
        }
    }
}

fn bind_stmt<'a>(stmt: &'a Stmt, names: &mut HashMap<Atom, Local<'a>>, top: bool) {
    if let Stmt::Decl(decl) = stmt {
        bind_decl(decl, names, top);
    }
}

fn bind_decl<'a>(decl: &'a Decl, names: &mut HashMap<Atom, Local<'a>>, top: bool) {
    match decl {
        Decl::Fn(f) => {
            names.insert(f.ident.sym.clone(), Local::Function(&f.function));
        }
        Decl::Class(c) => {
            names.insert(c.ident.sym.clone(), Local::Class);
        }
        Decl::Var(var) if top || var.kind == VarDeclKind::Const => {
            for d in &var.decls {
                if let (Pat::Ident(id), Some(init)) = (&d.name, &d.init) {
                    let local = match unwrap(init) {
                        Expr::Arrow(arrow) if var.kind == VarDeclKind::Const => Local::Arrow(arrow),
                        Expr::Fn(f) if var.kind == VarDeclKind::Const => {
                            Local::Function(&f.function)
                        }
                        Expr::Class(_) if var.kind == VarDeclKind::Const => Local::Class,
                        _ => Local::Value(init, var.kind),
                    };
                    names.insert(id.id.sym.clone(), local);
                }
            }
        }
        _ => {}
    }
}

struct Reader<'s, 'a> {
    source: &'s Source<'s>,
    root: Root<'a>,
    names: Names,
    /// How often each name appears in the file, counted when first needed.
    top_uses: OnceCell<HashMap<Atom, usize>>,
    top: HashMap<Atom, Local<'a>>,
    out: Vec<ExportShape>,
    truncated: bool,
    /// Names followed from an export to the binding it names, now.
    hops: usize,
    /// The specifiers of modules re-exported whole, at most [`MAX_STAR_EXPORTS`].
    stars: Vec<String>,
}

impl<'a> Reader<'_, 'a> {
    fn item(&mut self, item: &Item<'a>) {
        match item {
            Item::Decl(decl) => self.module_decl(decl),
            Item::Stmt(Stmt::Expr(stmt)) => {
                if !self.getters(&stmt.expr) {
                    self.commonjs(&stmt.expr);
                }
            }
            Item::Stmt(_) => {}
        }
    }

    fn module_decl(&mut self, decl: &'a ModuleDecl) {
        let span = decl.span();
        match decl {
            ModuleDecl::ExportDecl(export) => match &export.decl {
                Decl::Fn(f) if !f.declare => {
                    self.callable(span, &f.ident.sym, "esm", Callable::Function(&f.function));
                }
                Decl::Class(c) if !c.declare => self.class(span, &c.ident.sym, "esm"),
                Decl::Var(var) if !var.declare => {
                    for d in &var.decls {
                        if let (Pat::Ident(id), Some(init)) = (&d.name, &d.init) {
                            self.value_export(span, &id.id.sym, "esm", init, var.kind);
                            self.changeable(&id.id.sym, &id.id.sym, 1);
                        }
                    }
                }
                _ => {}
            },
            ModuleDecl::ExportDefaultDecl(export) => match &export.decl {
                DefaultDecl::Fn(f) => {
                    self.callable(span, "default", "esm", Callable::Function(&f.function));
                }
                DefaultDecl::Class(_) => self.class(span, "default", "esm"),
                DefaultDecl::TsInterfaceDecl(_) => {}
            },
            ModuleDecl::ExportDefaultExpr(export) => {
                self.value_export(span, "default", "esm", &export.expr, VarDeclKind::Const);
            }
            ModuleDecl::TsExportAssignment(export) => {
                self.value_export(span, "default", "esm", &export.expr, VarDeclKind::Const);
            }
            // `export * from "m"`.
            ModuleDecl::ExportAll(all) if !all.type_only => {
                self.star(all.src.value.as_str().unwrap_or_default());
            }
            ModuleDecl::ExportNamed(named) if !named.type_only => {
                let from = named
                    .src
                    .as_ref()
                    .map(|s| s.value.as_str().unwrap_or_default());
                for spec in &named.specifiers {
                    let (orig, exported) = match spec {
                        swc_ecma_ast::ExportSpecifier::Named(n) if !n.is_type_only => {
                            let orig = export_name(&n.orig);
                            let exported = n.exported.as_ref().map_or(orig, export_name);
                            (Some(orig), exported)
                        }
                        swc_ecma_ast::ExportSpecifier::Namespace(n) => (None, export_name(&n.name)),
                        swc_ecma_ast::ExportSpecifier::Default(d) => {
                            (Some("default"), d.exported.sym.as_str())
                        }
                        _ => continue,
                    };
                    match from {
                        Some(from) => self.reexport(span, exported, from, orig, "esm"),
                        None => self.local_export(span, exported, orig.unwrap_or_default(), "esm"),
                    }
                }
            }
            _ => {}
        }
    }

    /// A module re-exported whole, by its specifier.
    fn star(&mut self, from: &str) {
        if self.stars.len() < MAX_STAR_EXPORTS && !self.stars.iter().any(|s| s == from) {
            self.stars.push(from.to_owned());
        }
    }

    /// A module the call re-exports whole, as compilers write `export * from "m"` in
    /// CommonJS: TypeScript's `__exportStar(require("m"), exports)` (through `tslib` too),
    /// esbuild's `__reExport(target, require("m"), module.exports)`, and Babel's
    /// `Object.keys(_m).forEach(function (key) { … exports[key] = _m[key] … })` after
    /// `var _m = require("m")`.
    fn star_call(&mut self, call: &'a swc_ecma_ast::CallExpr) -> bool {
        let callee = super::names::callee_name(&call.callee);
        let arg = |i: usize| call.args.get(i).map(|a| &*a.expr);
        let module = if callee == "__exportStar" || callee.ends_with(".__exportStar") {
            arg(0)
        } else if callee == "__reExport" || callee.ends_with(".__reExport") {
            arg(1)
        } else if callee.ends_with(".forEach")
            && let Some(Expr::Member(member)) = call.callee.as_expr().map(|c| unwrap(c))
            && let Expr::Call(keys) = unwrap(&member.obj)
            && super::names::callee_name(&keys.callee) == "Object.keys"
        {
            keys.args.first().map(|a| &*a.expr)
        } else {
            return false;
        };
        // Babel's names the module: `var _m = require("m")`.
        let module = match module.map(unwrap) {
            Some(Expr::Ident(id)) => match self.top.get(&id.sym) {
                Some(Local::Value(init, _)) => Some(*init),
                _ => None,
            },
            other => other,
        };
        match module.and_then(|m| self.required(m)) {
            Some((from, None)) => {
                self.star(&from);
                true
            }
            _ => false,
        }
    }

    /// `module.exports = …`, `module.exports.x = …`, `exports.x = …`.
    fn commonjs(&mut self, expr: &'a Expr) {
        if let Expr::Call(call) = unwrap(expr) {
            if !self.star_call(call) {
                self.define_property(call);
            }
            return;
        }
        let Expr::Assign(assign) = unwrap(expr) else {
            return;
        };
        if assign.op != AssignOp::Assign {
            return;
        }
        let AssignTarget::Simple(SimpleAssignTarget::Member(target)) = &assign.left else {
            return;
        };
        let span = assign.span;
        let right = &*assign.right;
        if self.is_module_exports(target) {
            // An object literal (written, or bound to a name) exports each key.
            let object = match unwrap(right) {
                Expr::Object(object) => Some(object),
                Expr::Ident(id) => match self.top.get(&id.sym) {
                    Some(Local::Value(init, _)) => match unwrap(init) {
                        Expr::Object(object) => Some(object),
                        _ => None,
                    },
                    _ => None,
                },
                _ => None,
            };
            match object {
                Some(object) if !object.props.is_empty() => {
                    for prop in &object.props {
                        let PropOrSpread::Prop(prop) = prop else {
                            continue;
                        };
                        match &**prop {
                            Prop::KeyValue(kv) => {
                                if let Some(key) = prop_name(&kv.key) {
                                    self.value_export(
                                        span,
                                        &key,
                                        "commonjs",
                                        &kv.value,
                                        VarDeclKind::Const,
                                    );
                                }
                            }
                            Prop::Shorthand(id) => {
                                self.local_export(span, &id.sym, &id.sym, "commonjs")
                            }
                            Prop::Method(m) => {
                                if let Some(key) = prop_name(&m.key) {
                                    self.callable(
                                        span,
                                        &key,
                                        "commonjs",
                                        Callable::Function(&m.function),
                                    );
                                }
                            }
                            _ => {}
                        }
                    }
                }
                _ => self.value_export(span, "default", "commonjs", right, VarDeclKind::Const),
            }
            return;
        }
        let exports_object = match unwrap(&target.obj) {
            Expr::Ident(id) => self.names.exports.as_deref() == Some(&*id.sym),
            Expr::Member(inner) => self.is_module_exports(inner),
            _ => false,
        };
        if !exports_object {
            return;
        }
        let name = match &target.prop {
            MemberProp::Ident(id) => id.sym.to_string(),
            MemberProp::Computed(c) => match super::names::literal_key(&c.expr) {
                Some(key) => key,
                None => return,
            },
            MemberProp::PrivateName(_) => return,
        };
        // `exports.x = exports.y = void 0`: TypeScript's declarations ahead of the values.
        if matches!(unwrap(right), Expr::Unary(u) if u.op == UnaryOp::Void)
            || matches!(unwrap(right), Expr::Assign(_))
        {
            return;
        }
        self.value_export(span, &name, "commonjs", right, VarDeclKind::Const);
    }

    fn is_module_exports(&self, member: &MemberExpr) -> bool {
        matches!(unwrap(&member.obj), Expr::Ident(id) if self.names.module.as_deref() == Some(&*id.sym))
            && matches!(&member.prop, MemberProp::Ident(p) if p.sym == *"exports")
    }

    /// webpack's export getters: `<require>.d(<exports>, {x: () => local, y: function () {
    /// return local; }})`, webpack 5.100's arrays (`["x", () => local, "y", 0, value]`, where
    /// `0` says a value follows), and webpack 4's `<require>.d(<exports>, "x", function () {
    /// return local; })`. Whether `expr` was one.
    fn getters(&mut self, expr: &'a Expr) -> bool {
        let Expr::Call(call) = unwrap(expr) else {
            return false;
        };
        let Some(exports) = self.names.exports.clone() else {
            return false;
        };
        let callee = super::names::callee_name(&call.callee);
        let is_target = call
            .args
            .first()
            .is_some_and(|a| matches!(unwrap(&a.expr), Expr::Ident(id) if *id.sym == *exports));
        if callee.strip_suffix(".d") != Some(self.names.require.as_str()) || !is_target {
            return false;
        }
        let span = call.span;
        for (key, value) in super::bundle::webpack_exports(call) {
            self.getter_export(span, &key, value);
        }
        true
    }

    /// One getter's export: a local name is exported as itself; anything else is a value.
    fn getter_export(&mut self, span: Span, name: &str, value: &'a Expr) {
        match unwrap(value) {
            Expr::Ident(id) if self.top.contains_key(&id.sym) => {
                self.local_export(span, name, &id.sym.clone(), "esm");
            }
            other => self.value_export(span, name, "esm", other, VarDeclKind::Const),
        }
    }

    /// `Object.defineProperty(exports, "x", {get: () => value})` (or `{value}`): how
    /// TypeScript and Babel write a CommonJS re-export. `__esModule` is a marker, not an export.
    fn define_property(&mut self, call: &'a swc_ecma_ast::CallExpr) {
        if super::names::callee_name(&call.callee) != "Object.defineProperty" {
            return;
        }
        let [target, key, descriptor] = &call.args[..] else {
            return;
        };
        let on_exports = match unwrap(&target.expr) {
            Expr::Ident(id) => self.names.exports.as_deref() == Some(&*id.sym),
            Expr::Member(member) => self.is_module_exports(member),
            _ => false,
        };
        let (true, Some(key), Expr::Object(descriptor)) = (
            on_exports,
            super::names::string(&key.expr),
            unwrap(&descriptor.expr),
        ) else {
            return;
        };
        if key == "__esModule" {
            return;
        }
        if let Some(value) = super::bundle::described_value(descriptor) {
            self.value_export(call.span, &key, "commonjs", value, VarDeclKind::Const);
        }
    }

    /// `export { orig as exported }` of a local name (or a CommonJS export of one).
    fn local_export(&mut self, span: Span, exported: &str, orig: &str, syntax: &'static str) {
        match self.top.get(&Atom::from(orig)).copied() {
            Some(Local::Function(f)) => {
                self.callable(span, exported, syntax, Callable::Function(f));
            }
            Some(Local::Arrow(a)) => self.callable(span, exported, syntax, Callable::Arrow(a)),
            Some(Local::Class) => self.class(span, exported, syntax),
            Some(Local::Value(init, kind)) => {
                self.value_export(span, exported, syntax, init, kind);
                self.changeable(exported, &Atom::from(orig), 2);
            }
            Some(Local::Import(from, imported)) => {
                self.reexport(span, exported, from, imported, syntax);
            }
            None => {
                let mut export = self.export(span, exported, syntax, "value");
                export.shapes = vec![unknown_naming("binding", "name", orig)];
                self.push(export);
            }
        }
    }

    fn value_export(
        &mut self,
        span: Span,
        name: &str,
        syntax: &'static str,
        init: &'a Expr,
        kind: VarDeclKind,
    ) {
        match unwrap(init) {
            Expr::Arrow(arrow) => self.callable(span, name, syntax, Callable::Arrow(arrow)),
            Expr::Fn(f) => self.callable(span, name, syntax, Callable::Function(&f.function)),
            Expr::Class(_) => self.class(span, name, syntax),
            other if let Some((from, imported)) = self.required(other) => {
                self.reexport(span, name, &from, imported.as_deref(), syntax);
            }
            // A name bound to a name bound to … stops after a few hops (and a cycle with it).
            Expr::Ident(id) if self.top.contains_key(&id.sym) && self.hops < MAX_HOPS => {
                self.hops += 1;
                self.local_export(span, name, &id.sym.clone(), syntax);
                self.hops -= 1;
            }
            _ => {
                let mut export = self.export(span, name, syntax, "value");
                let mut shaper = Shaper::new(self.file(), None);
                export.shapes = vec![shaper.shape(init, 0)];
                if kind != VarDeclKind::Const {
                    export.limitations.push("mutable-binding");
                }
                export.partial |= shaper.bounded;
                self.push(export);
            }
        }
    }

    /// What `expr` takes from another module, when that is all it is: `require("m")`,
    /// `require("m").x`, `M.x` with `const M = require("m")` or `import * as M from "m"`:
    /// the specifier and the member (`None` for the whole module).
    fn required(&self, expr: &Expr) -> Option<(String, Option<String>)> {
        let module = |expr: &Expr| -> Option<String> {
            match unwrap(expr) {
                Expr::Call(call)
                    if super::names::callee_name(&call.callee) == self.names.require =>
                {
                    call.args
                        .first()
                        .and_then(|a| super::names::literal_key(&a.expr))
                }
                Expr::Ident(id) => match self.top.get(&id.sym) {
                    Some(Local::Import(from, None)) => Some((*from).to_owned()),
                    Some(Local::Value(init, _)) => match unwrap(init) {
                        Expr::Call(call)
                            if super::names::callee_name(&call.callee) == self.names.require =>
                        {
                            call.args
                                .first()
                                .and_then(|a| super::names::literal_key(&a.expr))
                        }
                        _ => None,
                    },
                    _ => None,
                },
                _ => None,
            }
        };
        match unwrap(expr) {
            Expr::Member(member) => {
                let MemberProp::Ident(prop) = &member.prop else {
                    return None;
                };
                Some((module(&member.obj)?, Some(prop.sym.to_string())))
            }
            Expr::Call(_) => Some((module(expr)?, None)),
            _ => None,
        }
    }

    fn reexport(
        &mut self,
        span: Span,
        exported: &str,
        from: &str,
        imported: Option<&str>,
        syntax: &'static str,
    ) {
        let mut export = self.export(span, exported, syntax, "re-export");
        export.from = Some(from.to_owned());
        export.imported = imported.map(str::to_owned);
        self.push(export);
    }

    fn class(&mut self, span: Span, name: &str, syntax: &'static str) {
        let export = self.export(span, name, syntax, "class");
        self.push(export);
    }

    fn callable(&mut self, span: Span, name: &str, syntax: &'static str, callable: Callable<'a>) {
        let mut export = self.export(span, name, syntax, "function");
        export.body = Some(self.source.range(match callable {
            Callable::Function(f) => f.span,
            Callable::Arrow(a) => a.span,
        }));
        let (params, body, is_async, generator) = match callable {
            Callable::Function(f) => (
                f.params.iter().map(|p| &p.pat).collect::<Vec<_>>(),
                f.body.as_ref().map(|body| Body::Block(&body.stmts)),
                f.is_async,
                f.is_generator,
            ),
            Callable::Arrow(a) => (
                a.params.iter().collect(),
                Some(match &*a.body {
                    ArrowFunctionBody::FunctionBody(body) => Body::Block(&body.stmts),
                    ArrowFunctionBody::Expr(expr) => Body::Expr(expr),
                }),
                a.is_async,
                a.is_generator,
            ),
        };
        export.is_async = is_async;
        export.generator = generator;
        export.arity = Some(
            params
                .iter()
                .take_while(|p| matches!(p, Pat::Ident(_) | Pat::Array(_) | Pat::Object(_)))
                .count() as u32,
        );
        if generator {
            export.limitations.push("generator-yields-not-read");
        }
        let mut shadowed: Vec<Atom> = Vec::new();
        let mut positional: Vec<(Atom, usize)> = Vec::new();
        for (i, param) in params.iter().enumerate() {
            match param {
                Pat::Ident(id) => positional.push((id.id.sym.clone(), i)),
                other => collect_bindings(other, &mut shadowed),
            }
        }
        let mut locals: HashMap<Atom, Local<'a>> = HashMap::default();
        let mut returns: Vec<Option<&'a Expr>> = Vec::new();
        let mut ends = false;
        match body {
            // A signature without a body (an overload, a declaration) is a type, not code.
            None => return,
            Some(Body::Expr(expr)) => returns.push(Some(expr)),
            Some(Body::Block(stmts)) => {
                for stmt in stmts {
                    bind_stmt(stmt, &mut locals, false);
                }
                if !stmts.iter().all(|s| collect_returns(s, &mut returns, 0)) {
                    export.partial = true;
                    export.limitations.push("depth-bound");
                }
                ends = !stmts.iter().any(always_exits);
            }
        }
        let body_block = match body {
            Some(Body::Block(stmts)) => Some(stmts),
            _ => None,
        };
        let mut shaper = Shaper::new(
            self.file(),
            Some(Scope {
                locals,
                shadowed,
                positional,
                body: body_block,
            }),
        );
        let mut shapes: Vec<Value> = Vec::new();
        let mut seen: Vec<String> = Vec::new();
        let mut add = |shape: Value, shapes: &mut Vec<Value>, partial: &mut bool| {
            let text = shape.to_string();
            if seen.contains(&text) {
                return;
            }
            if shapes.len() == MAX_VARIANTS {
                *partial = true;
                return;
            }
            seen.push(text);
            shapes.push(shape);
        };
        let mut partial = false;
        for ret in returns {
            let Some(expr) = ret else {
                add(json!({"type": "undefined"}), &mut shapes, &mut partial);
                continue;
            };
            let mut branches = Vec::new();
            split_conditional(expr, &mut branches, 0);
            for branch in branches {
                let shape = shaper.shape(branch, 0);
                add(shape, &mut shapes, &mut partial);
            }
        }
        if ends {
            add(json!({"type": "undefined"}), &mut shapes, &mut partial);
        }
        if partial {
            export.limitations.push("variant-bound");
        }
        export.partial |= partial || shaper.bounded;
        export.shapes = shapes;
        self.push(export);
    }

    /// An exported object or array whose binding the file names more than `expected` times
    /// (its declaration and the export) may be changed after it is made: other keys are
    /// possible.
    fn changeable(&mut self, export: &str, binding: &Atom, expected: usize) {
        if self.file().uses(binding) > expected
            && let Some(export) = self.out.iter_mut().find(|e| e.name == export)
            && export.kind == "value"
            && let Some(complete) = export
                .shapes
                .first_mut()
                .and_then(|s| s.get_mut("complete"))
        {
            *complete = Value::Bool(false);
        }
    }

    fn file(&self) -> File<'_, 'a> {
        File {
            top: &self.top,
            root: self.root,
            require: &self.names.require,
            uses: &self.top_uses,
        }
    }

    fn export(
        &self,
        span: Span,
        name: &str,
        syntax: &'static str,
        kind: &'static str,
    ) -> ExportShape {
        ExportShape {
            name: name.to_owned(),
            syntax,
            kind,
            is_async: false,
            generator: false,
            arity: None,
            shapes: Vec::new(),
            partial: false,
            limitations: Vec::new(),
            from: None,
            imported: None,
            range: self.source.range(span),
            body: None,
        }
    }

    fn push(&mut self, mut export: ExportShape) {
        export.limitations.sort_unstable();
        export.limitations.dedup();
        if let Some(at) = self.out.iter().position(|e| e.name == export.name) {
            self.out.remove(at);
        } else if self.out.len() == MAX_EXPORTS {
            self.truncated = true;
            return;
        }
        self.out.push(export);
    }
}

fn export_name(name: &ModuleExportName) -> &str {
    match name {
        ModuleExportName::Ident(i) => i.sym.as_str(),
        ModuleExportName::Str(s) => s.value.as_str().unwrap_or_default(),
    }
}

#[derive(Clone, Copy)]
enum Callable<'a> {
    Function(&'a Function),
    Arrow(&'a ArrowExpr),
}

#[derive(Clone, Copy)]
enum Body<'a> {
    Block(&'a [Stmt]),
    Expr(&'a Expr),
}

fn collect_bindings(pat: &Pat, out: &mut Vec<Atom>) {
    let mut names = Vec::new();
    super::names::pattern_names(pat, &mut names);
    out.extend(names.into_iter().map(|ident| ident.sym.clone()));
}

/// Whether running `stmt` never reaches the statement after it.
fn always_exits(stmt: &Stmt) -> bool {
    match stmt {
        Stmt::Return(_) | Stmt::Throw(_) => true,
        Stmt::Block(block) => block.stmts.iter().any(always_exits),
        Stmt::If(s) => always_exits(&s.cons) && s.alt.as_deref().is_some_and(always_exits),
        Stmt::Try(t) => {
            t.finalizer
                .as_ref()
                .is_some_and(|f| f.stmts.iter().any(always_exits))
                || (t.block.stmts.iter().any(always_exits)
                    && t.handler
                        .as_ref()
                        .is_none_or(|h| h.body.stmts.iter().any(always_exits)))
        }
        Stmt::Labeled(l) => always_exits(&l.body),
        _ => false,
    }
}

/// The branches a returned value takes: a conditional's two, recursively.
fn split_conditional<'e>(expr: &'e Expr, out: &mut Vec<&'e Expr>, depth: usize) {
    match unwrap(expr) {
        Expr::Cond(c) if depth < MAX_DEPTH => {
            split_conditional(&c.cons, out, depth + 1);
            split_conditional(&c.alt, out, depth + 1);
        }
        other => out.push(other),
    }
}

/// The `return`s of one function's own body, in source order: statements are walked, and
/// expressions (where nested functions and classes sit) are not.
fn collect_returns<'a>(stmt: &'a Stmt, out: &mut Vec<Option<&'a Expr>>, depth: usize) -> bool {
    if depth > MAX_STATEMENT_DEPTH {
        return false;
    }
    let all = |stmts: &'a [Stmt], out: &mut Vec<Option<&'a Expr>>| {
        stmts.iter().all(|s| collect_returns(s, out, depth + 1))
    };
    match stmt {
        Stmt::Return(ret) => {
            out.push(ret.arg.as_deref());
            true
        }
        Stmt::Block(block) => all(&block.stmts, out),
        Stmt::If(s) => {
            collect_returns(&s.cons, out, depth + 1)
                && s.alt
                    .as_deref()
                    .is_none_or(|alt| collect_returns(alt, out, depth + 1))
        }
        Stmt::For(s) => collect_returns(&s.body, out, depth + 1),
        Stmt::ForIn(s) => collect_returns(&s.body, out, depth + 1),
        Stmt::ForOf(s) => collect_returns(&s.body, out, depth + 1),
        Stmt::While(s) => collect_returns(&s.body, out, depth + 1),
        Stmt::DoWhile(s) => collect_returns(&s.body, out, depth + 1),
        Stmt::Labeled(s) => collect_returns(&s.body, out, depth + 1),
        Stmt::With(s) => collect_returns(&s.body, out, depth + 1),
        Stmt::Switch(s) => s.cases.iter().all(|case| all(&case.cons, out)),
        Stmt::Try(t) => {
            all(&t.block.stmts, out)
                && t.handler.as_ref().is_none_or(|h| all(&h.body.stmts, out))
                && t.finalizer.as_ref().is_none_or(|f| all(&f.stmts, out))
        }
        _ => true,
    }
}

/// The function whose body names resolve in.
struct Scope<'a> {
    locals: HashMap<Atom, Local<'a>>,
    /// Names bound by destructuring parameters.
    shadowed: Vec<Atom>,
    /// Plain parameters and their positions.
    positional: Vec<(Atom, usize)>,
    body: Option<&'a [Stmt]>,
}

/// The file's top level: its bindings, and how often each name appears in it.
#[derive(Clone, Copy)]
struct File<'t, 'a> {
    top: &'t HashMap<Atom, Local<'a>>,
    root: Root<'a>,
    /// The name other modules are required by.
    require: &'t str,
    uses: &'t OnceCell<HashMap<Atom, usize>>,
}

impl File<'_, '_> {
    fn uses(&self, name: &Atom) -> usize {
        let counts = self.uses.get_or_init(|| {
            struct Count(HashMap<Atom, usize>);
            impl Visit for Count {
                fn visit_ident(&mut self, id: &Ident) {
                    *self.0.entry(id.sym.clone()).or_default() += 1;
                }
            }
            let mut count = Count(HashMap::default());
            match self.root {
                Root::Program(program) => program.visit_with(&mut count),
                Root::Body(stmts) => stmts.iter().for_each(|s| s.visit_with(&mut count)),
            }
            count.0
        });
        counts.get(name).copied().unwrap_or(0)
    }
}

struct Shaper<'t, 'a> {
    file: File<'t, 'a>,
    scope: Option<Scope<'a>>,
    nodes: usize,
    bounded: bool,
}

impl<'t, 'a> Shaper<'t, 'a> {
    fn new(file: File<'t, 'a>, scope: Option<Scope<'a>>) -> Shaper<'t, 'a> {
        Shaper {
            file,
            scope,
            nodes: 0,
            bounded: false,
        }
    }

    fn shape(&mut self, expr: &Expr, depth: usize) -> Value {
        self.shape_hops(expr, depth, 0)
    }

    fn shape_hops(&mut self, expr: &Expr, depth: usize, hops: usize) -> Value {
        self.nodes += 1;
        if depth > MAX_DEPTH || self.nodes > MAX_SHAPE_NODES {
            self.bounded = true;
            return unknown("bound");
        }
        match unwrap(expr) {
            Expr::Lit(lit) => literal(lit),
            Expr::Tpl(tpl) if tpl.exprs.is_empty() => {
                match tpl.quasis.first().and_then(|q| q.cooked.as_ref()) {
                    Some(text) => string(&text.to_string_lossy()),
                    None => json!({"type": "string"}),
                }
            }
            Expr::Tpl(_) => json!({"type": "string"}),
            Expr::Ident(id) => self.name(id, depth, hops),
            Expr::Unary(u) => match u.op {
                UnaryOp::Void => json!({"type": "undefined"}),
                UnaryOp::Bang | UnaryOp::Delete => json!({"type": "boolean"}),
                UnaryOp::TypeOf => json!({"type": "string"}),
                UnaryOp::Minus => match unwrap(&u.arg) {
                    Expr::Lit(Lit::Num(n)) => {
                        json!({"type": "number", "value": number_text(-n.value)})
                    }
                    _ => json!({"type": "number"}),
                },
                UnaryOp::Plus | UnaryOp::Tilde => json!({"type": "number"}),
            },
            Expr::Bin(bin) => match bin.op {
                BinaryOp::EqEq
                | BinaryOp::NotEq
                | BinaryOp::EqEqEq
                | BinaryOp::NotEqEq
                | BinaryOp::Lt
                | BinaryOp::LtEq
                | BinaryOp::Gt
                | BinaryOp::GtEq
                | BinaryOp::In
                | BinaryOp::InstanceOf => json!({"type": "boolean"}),
                BinaryOp::LogicalAnd | BinaryOp::LogicalOr | BinaryOp::NullishCoalescing => {
                    unknown("logical")
                }
                BinaryOp::Add => {
                    let left = self.shape_hops(&bin.left, depth + 1, hops);
                    let right = self.shape_hops(&bin.right, depth + 1, hops);
                    match (left["type"].as_str(), right["type"].as_str()) {
                        (Some("string"), _) | (_, Some("string")) => json!({"type": "string"}),
                        (Some("number"), Some("number")) => json!({"type": "number"}),
                        _ => unknown("operator"),
                    }
                }
                _ => json!({"type": "number"}),
            },
            Expr::Object(object) => {
                let mut fields = Map::new();
                let mut complete = true;
                for prop in &object.props {
                    let PropOrSpread::Prop(prop) = prop else {
                        complete = false;
                        continue;
                    };
                    let (key, value) = match &**prop {
                        Prop::KeyValue(kv) => match prop_name(&kv.key) {
                            Some(key) => (key, self.shape_hops(&kv.value, depth + 1, hops)),
                            None => {
                                complete = false;
                                continue;
                            }
                        },
                        Prop::Shorthand(id) => (id.sym.to_string(), self.name(id, depth + 1, hops)),
                        Prop::Method(m) => match prop_name(&m.key) {
                            Some(key) => (key, json!({"type": "function"})),
                            None => {
                                complete = false;
                                continue;
                            }
                        },
                        Prop::Getter(g) => match prop_name(&g.key) {
                            Some(key) => (key, unknown("getter")),
                            None => {
                                complete = false;
                                continue;
                            }
                        },
                        Prop::Setter(_) | Prop::Assign(_) => continue,
                    };
                    if !fields.contains_key(&key) && fields.len() == MAX_FIELDS {
                        self.bounded = true;
                        complete = false;
                        continue;
                    }
                    fields.insert(key, value);
                }
                json!({"type": "object", "fields": fields, "complete": complete})
            }
            Expr::Array(array) => {
                let mut elements = Vec::new();
                let mut complete = true;
                for element in &array.elems {
                    if elements.len() == MAX_ELEMENTS {
                        self.bounded = true;
                        complete = false;
                        break;
                    }
                    match element {
                        None => elements.push(json!({"type": "undefined"})),
                        Some(e) if e.spread.is_some() => {
                            complete = false;
                            break;
                        }
                        Some(e) => elements.push(self.shape_hops(&e.expr, depth + 1, hops)),
                    }
                }
                json!({"type": "array", "elements": elements, "complete": complete})
            }
            Expr::Fn(_) | Expr::Arrow(_) => json!({"type": "function"}),
            Expr::Class(_) => json!({"type": "class"}),
            Expr::New(new) => self.constructor(&new.callee),
            Expr::Await(a) => match unwrap(&a.arg) {
                call @ (Expr::Call(_) | Expr::OptChain(_)) => called(call),
                other => self.shape_hops(other, depth, hops),
            },
            Expr::Cond(c) => {
                let mut options: Vec<Value> = Vec::new();
                for branch in [&c.cons, &c.alt] {
                    let shape = self.shape_hops(branch, depth + 1, hops);
                    let mut flat = match shape {
                        Value::Object(ref map) if map.get("type") == Some(&json!("union")) => {
                            map["options"].as_array().cloned().unwrap_or_default()
                        }
                        other => vec![other],
                    };
                    for option in flat.drain(..) {
                        if !options.contains(&option) {
                            options.push(option);
                        }
                    }
                }
                if options.len() == 1 {
                    options.pop().unwrap_or_else(|| unknown("expression"))
                } else {
                    json!({"type": "union", "options": options})
                }
            }
            Expr::Assign(a) if a.op == AssignOp::Assign => self.shape_hops(&a.right, depth, hops),
            call @ (Expr::Call(_) | Expr::OptChain(_) | Expr::TaggedTpl(_)) => called(call),
            member @ (Expr::Member(_) | Expr::SuperProp(_)) => {
                unknown_naming("member", "of", &dotted(member))
            }
            Expr::This(_) => unknown("this"),
            _ => unknown("expression"),
        }
    }

    /// What `new callee(…)` makes: the constructor's name, and the module it is imported from
    /// when the file imports it (`import { X } from "m"`, `import * as M from "m"` then `M.X`,
    /// or `const M = require("m")` then `M.X`), so that one class reads the same whatever the
    /// module format.
    fn constructor(&self, callee: &Expr) -> Value {
        let shadowed = |name: &Atom| {
            self.scope.as_ref().is_some_and(|s| {
                s.locals.contains_key(name)
                    || s.shadowed.contains(name)
                    || s.positional.iter().any(|(n, _)| n == name)
            })
        };
        let imported = |name: &Atom| match self.file.top.get(name) {
            Some(Local::Import(from, imported)) if !shadowed(name) => {
                Some((from.to_string(), imported.map(str::to_owned)))
            }
            Some(Local::Value(init, _)) if !shadowed(name) => match unwrap(init) {
                Expr::Call(call)
                    if super::names::callee_name(&call.callee) == self.file.require =>
                {
                    call.args
                        .first()
                        .and_then(|a| super::names::literal_key(&a.expr))
                        .map(|spec| (spec, None))
                }
                _ => None,
            },
            _ => None,
        };
        let found = match unwrap(callee) {
            Expr::Ident(id) => match imported(&id.sym) {
                Some((from, Some(name))) => Some((name, from)),
                _ => None,
            },
            Expr::Member(member) => match (unwrap(&member.obj), &member.prop) {
                (Expr::Ident(object), MemberProp::Ident(prop)) => match imported(&object.sym) {
                    Some((from, None)) => Some((prop.sym.to_string(), from)),
                    _ => None,
                },
                _ => None,
            },
            _ => None,
        };
        match found {
            Some((name, from)) => json!({"type": "instance", "of": name, "from": from}),
            None => match dotted(callee) {
                name if !name.is_empty() => json!({"type": "instance", "of": name}),
                _ => unknown("expression"),
            },
        }
    }

    /// A name: `undefined`, a binding of the function's body, or of the file's top level;
    /// `unknown` (`binding`, with the name) when it is none the reading can follow.
    fn name(&mut self, id: &Ident, depth: usize, hops: usize) -> Value {
        let shape = self.binding(id, depth, hops);
        match shape {
            Value::Object(mut map) if map.get("reason") == Some(&json!("binding")) => {
                map.insert("name".to_owned(), Value::from(id.sym.as_str()));
                Value::Object(map)
            }
            other => other,
        }
    }

    fn binding(&mut self, id: &Ident, depth: usize, hops: usize) -> Value {
        if id.sym == *"undefined" {
            return json!({"type": "undefined"});
        }
        if hops >= MAX_HOPS {
            return unknown("binding");
        }
        let (local, scope_body, top_level) = match &self.scope {
            Some(scope) if scope.shadowed.contains(&id.sym) => return unknown("binding"),
            // A parameter the body never assigns is the caller's argument, passed through.
            Some(scope) if scope.positional.iter().any(|(name, _)| *name == id.sym) => {
                let position = scope
                    .positional
                    .iter()
                    .rev()
                    .find(|(name, _)| *name == id.sym)
                    .map(|p| p.1);
                let assigned = scope.body.is_some_and(|body| assigns(body, &id.sym));
                return match position {
                    Some(position) if !assigned => {
                        json!({"type": "parameter", "position": position})
                    }
                    _ => unknown("binding"),
                };
            }
            Some(scope) => match scope.locals.get(&id.sym) {
                Some(local) => (Some(*local), scope.body, false),
                None => (self.file.top.get(&id.sym).copied(), None, true),
            },
            None => (self.file.top.get(&id.sym).copied(), None, true),
        };
        match local {
            Some(Local::Function(_) | Local::Arrow(_)) => json!({"type": "function"}),
            Some(Local::Class) => json!({"type": "class"}),
            Some(Local::Value(init, kind)) => {
                let mut shape = self.shape_hops(init, depth, hops + 1);
                // An object or array the body also uses elsewhere may be changed before it is
                // returned; one declared with `let` or `var` may be replaced.
                let changeable = kind != VarDeclKind::Const
                    || scope_body.is_some_and(|body| uses(body, &id.sym) > 2)
                    || (top_level && self.file.uses(&id.sym) > 2);
                if kind != VarDeclKind::Const
                    && !matches!(shape["type"].as_str(), Some("object" | "array"))
                {
                    return unknown("binding");
                }
                if changeable && let Some(complete) = shape.get_mut("complete") {
                    *complete = Value::Bool(false);
                }
                shape
            }
            Some(Local::Import(..)) | None => unknown("binding"),
        }
    }
}

/// Whether `body` assigns `name` (`name = …`, `name += …`, `name++`), or declares it again.
fn assigns(body: &[Stmt], name: &Atom) -> bool {
    struct Find<'n> {
        name: &'n Atom,
        found: bool,
    }
    impl Visit for Find<'_> {
        fn visit_simple_assign_target(&mut self, target: &SimpleAssignTarget) {
            if let SimpleAssignTarget::Ident(id) = target
                && id.id.sym == *self.name
            {
                self.found = true;
            }
            target.visit_children_with(self);
        }
        fn visit_update_expr(&mut self, update: &swc_ecma_ast::UpdateExpr) {
            if matches!(&*update.arg, Expr::Ident(id) if id.sym == *self.name) {
                self.found = true;
            }
            update.visit_children_with(self);
        }
        fn visit_binding_ident(&mut self, id: &swc_ecma_ast::BindingIdent) {
            if id.id.sym == *self.name {
                self.found = true;
            }
        }
    }
    let mut find = Find { name, found: false };
    for stmt in body {
        stmt.visit_with(&mut find);
    }
    find.found
}

/// How many times `name` appears in `body` (its declaration and every use).
fn uses(body: &[Stmt], name: &Atom) -> usize {
    struct Count<'n> {
        name: &'n Atom,
        n: usize,
    }
    impl Visit for Count<'_> {
        fn visit_ident(&mut self, id: &Ident) {
            if id.sym == *self.name {
                self.n += 1;
            }
        }
    }
    let mut count = Count { name, n: 0 };
    for stmt in body {
        stmt.visit_with(&mut count);
    }
    count.n
}

fn literal(lit: &Lit) -> Value {
    match lit {
        Lit::Str(s) => string(&s.value.to_string_lossy()),
        Lit::Num(n) => json!({"type": "number", "value": number_text(n.value)}),
        Lit::BigInt(b) => json!({"type": "bigint", "value": b.value.to_string()}),
        Lit::Bool(b) => json!({"type": "boolean", "value": b.value}),
        Lit::Null(_) => json!({"type": "null"}),
        Lit::Regex(_) => json!({"type": "regexp"}),
        Lit::JSXText(_) => json!({"type": "string"}),
    }
}

fn string(text: &str) -> Value {
    if text.chars().count() <= MAX_STRING {
        json!({"type": "string", "value": text})
    } else {
        json!({"type": "string"})
    }
}

fn unknown(reason: &str) -> Value {
    json!({"type": "unknown", "reason": reason})
}

/// `unknown` for `reason`, naming what it read at `key` when that is a name of at most 256
/// characters (`JSON.parse`, `config.user`).
fn unknown_naming(reason: &str, key: &str, name: &str) -> Value {
    let mut shape = unknown(reason);
    if !name.is_empty() && name.chars().count() <= MAX_STRING {
        shape[key] = Value::from(name);
    }
    shape
}

/// A call's value: unknown, naming the function called when the callee is a name.
fn called(expr: &Expr) -> Value {
    let callee = match expr {
        Expr::Call(call) => super::names::callee_name(&call.callee),
        Expr::OptChain(chain) => match &*chain.base {
            swc_ecma_ast::OptChainBase::Call(call) => dotted(&call.callee),
            swc_ecma_ast::OptChainBase::Member(_) => String::new(),
        },
        Expr::TaggedTpl(tagged) => dotted(&tagged.tag),
        _ => String::new(),
    };
    unknown_naming("call", "callee", &callee)
}

//! Names a page's scripts share. A page's classic scripts run in one global scope: what one
//! binds at its top level, or sets on the window, the others read by name. Renderers written
//! for `nodeIntegration` bind Electron's `ipcRenderer` once (`var ipc =
//! require("electron").ipcRenderer` in `js/app.js`) and call it from the page's other scripts
//! (`ipc.on("file-open", …)` in `js/menu.js`), which never bind the name themselves.
//!
//! Each file records the names it binds so ([`PageGlobal`]) and its calls of `ipcRenderer`'s
//! methods with a string channel through a name it never binds ([`GlobalCall`]). The graph
//! stage pairs the two within the scripts of one page.

use rustc_hash::FxHashSet as HashSet;
use swc_common::Spanned;
use swc_ecma_ast::{CallExpr, Expr, Pat, Program};
use swc_ecma_visit::{Visit, VisitWith};

use super::Extractor;
use super::electron::{handler_kind, ipc_operation};
use super::names::{named, string, unwrap};
use super::prepass::{PROGRAM_SCOPE, module_of, required_root};
use crate::facts::{GlobalCall, PageGlobal};

/// `ipcRenderer`'s methods that take the channel first.
const IPC_METHODS: [&str; 11] = [
    "send",
    "sendSync",
    "invoke",
    "postMessage",
    "sendToHost",
    "on",
    "once",
    "addListener",
    "off",
    "removeListener",
    "removeAllListeners",
];

/// Names a page's scripts do not bind for one another: the page's own globals and those
/// Node.js gives a renderer, and Electron's IPC objects, whose calls are read by name already.
const NOT_SHARED: [&str; 12] = [
    "window",
    "self",
    "globalThis",
    "document",
    "process",
    "module",
    "exports",
    "require",
    "console",
    "global",
    "ipcRenderer",
    "ipcMain",
];

/// Most calls through unbound names kept per file.
const MAX_GLOBAL_CALLS: usize = 256;

/// Most page globals kept per file.
const MAX_PAGE_GLOBALS: usize = 16;

/// Largest text whose syntax tree is walked for the names its calls go through.
const MAX_DECLARED_WALK: usize = 1 << 20;

impl Extractor<'_, '_> {
    /// `NAME.method("x", …)` or `window.NAME.method("x", …)`, a method of `ipcRenderer`
    /// called through a name no alias resolves, with a string channel: kept as a
    /// [`GlobalCall`] until the walk ends, when the file proves not to bind the name
    /// anywhere.
    pub(super) fn global_call(&mut self, name: &str, call: &CallExpr) {
        if self.facts.global_calls.len() >= MAX_GLOBAL_CALLS {
            return;
        }
        let Some(Expr::Member(member)) = call.callee.as_expr().map(|c| unwrap(c)) else {
            return;
        };
        let Some(method) = member.prop.as_ident().map(|m| &*m.sym) else {
            return;
        };
        if !IPC_METHODS.contains(&method) {
            return;
        }
        // `NAME.method`, or the window's property `window.NAME.method`.
        let (object, through_window) = match unwrap(&member.obj) {
            Expr::Ident(object) => (&*object.sym, false),
            Expr::Member(holder) => match (unwrap(&holder.obj), holder.prop.as_ident()) {
                (Expr::Ident(window), Some(prop))
                    if matches!(&*window.sym, "window" | "globalThis" | "self") =>
                {
                    (&*prop.sym, true)
                }
                _ => return,
            },
            _ => return,
        };
        // The name as written: an alias would have renamed it (`ipc` bound to Electron's).
        if NOT_SHARED.contains(&object)
            || (!through_window
                && (name.len() != object.len() + 1 + method.len() || !name.starts_with(object)))
        {
            return;
        }
        let Some(first) = call.args.first().filter(|a| a.spread.is_none()) else {
            return;
        };
        let first = unwrap(&first.expr);
        let (channel, through_name) = match string(first) {
            Some(channel) => (channel, false),
            None => match self.constant_string(first) {
                Some(channel) => (channel, true),
                None => return,
            },
        };
        let Some((side, operation, mode)) = ipc_operation(&format!("ipcRenderer.{method}")) else {
            return;
        };
        let handler_kind = (mode == "listen" || mode == "handle")
            .then(|| handler_kind(call.args.get(1).map(|a| unwrap(&a.expr))));
        self.facts.global_calls.push(GlobalCall {
            name: object.to_owned(),
            through_window,
            callee: name.to_owned(),
            side,
            operation,
            mode,
            channel,
            channel_expression: through_name.then(|| self.source.expression(first.span())),
            handler_kind,
            range: self.source.range(call.span),
            span: (
                self.source.offset(call.span.lo),
                self.source.offset(call.span.hi),
            ),
            module: self.module(),
        });
    }

    /// The names a classic script's top-level declaration binds to Electron's `ipcRenderer`
    /// (`var ipc = require("electron").ipcRenderer`, `const { ipcRenderer: ipc } = …`): each
    /// is a global of the pages that run the script.
    pub(super) fn page_globals_declared(&mut self, pattern: &Pat) {
        if !self.electron
            || self.facts.module_syntax
            || !self.stack.is_empty()
            || self.scopes.current() != PROGRAM_SCOPE
        {
            return;
        }
        let mut names = Vec::new();
        super::names::pattern_names(pattern, &mut names);
        for ident in names {
            let bound = self
                .aliases
                .resolve(&ident.sym, &self.scopes)
                .is_some_and(|target| {
                    named(target, "ipcRenderer") && module_of(target) == Some("electron")
                });
            if bound {
                self.page_global(&ident.sym, "top-level", ident.span);
            }
        }
    }

    /// `window.ipc = ipcRenderer` (or `globalThis.`, `self.`): the name is a global of the
    /// pages the script runs in, or, in a preload that does not isolate its context, of the
    /// pages its window loads.
    pub(super) fn page_global_assigned(&mut self, target: &swc_ecma_ast::MemberExpr, value: &Expr) {
        if !self.reads_ipc {
            return;
        }
        let Expr::Ident(holder) = unwrap(&target.obj) else {
            return;
        };
        let Some(prop) = target.prop.as_ident() else {
            return;
        };
        if !matches!(&*holder.sym, "window" | "globalThis" | "self")
            || NOT_SHARED.contains(&&*prop.sym)
        {
            return;
        }
        if self.is_ipc_renderer(value) {
            self.page_global(&prop.sym, "window-property", target.span);
        }
    }

    /// Whether `value` is Electron's `ipcRenderer`: through a name bound to it, or read off
    /// the module in place (`require("electron").ipcRenderer`).
    fn is_ipc_renderer(&self, value: &Expr) -> bool {
        let name = self.name(value);
        match name.strip_prefix('.') {
            Some(member) => member == "ipcRenderer" && required_root(value) == Some("electron"),
            None => named(&name, "ipcRenderer") && module_of(&name) == Some("electron"),
        }
    }

    fn page_global(&mut self, name: &str, written: &'static str, span: swc_common::Span) {
        if self.facts.page_globals.len() >= MAX_PAGE_GLOBALS
            || self.facts.page_globals.iter().any(|g| g.name == name)
        {
            return;
        }
        self.facts.page_globals.push(PageGlobal {
            name: name.to_owned(),
            written,
            range: self.source.range(span),
        });
    }

    /// Drops the calls through names the file binds somewhere (a parameter, a declaration,
    /// a function's or class's name, an import), except those that read the window's
    /// property. Where the binding is, and whether it encloses the call, is not read: such a
    /// name is not taken for a page's global.
    ///
    /// A name written nowhere else in the text than as these calls' callees is bound nowhere,
    /// and costs no walk: most files that call through such a name are small page scripts.
    /// The others are looked for in the syntax tree, in files up to [`MAX_DECLARED_WALK`]
    /// bytes; in larger ones their calls are dropped.
    pub(super) fn finish_global_calls(&mut self, program: &Program) {
        if self.facts.global_calls.is_empty() {
            return;
        }
        let mut calls: Vec<(&str, usize)> = Vec::new();
        for call in self.facts.global_calls.iter().filter(|c| !c.through_window) {
            match calls.iter_mut().find(|(name, _)| *name == call.name) {
                Some((_, n)) => *n += 1,
                None => calls.push((&call.name, 1)),
            }
        }
        let text = self.source.text;
        let wanted: HashSet<&str> = calls
            .into_iter()
            .filter(|(name, n)| words(text, name) != *n)
            .map(|(name, _)| name)
            .collect();
        if wanted.is_empty() {
            return;
        }
        let found = if text.len() <= MAX_DECLARED_WALK {
            let mut declared = Declared {
                wanted: &wanted,
                found: HashSet::default(),
            };
            program.visit_with(&mut declared);
            declared.found
        } else {
            wanted.iter().map(|name| (*name).to_owned()).collect()
        };
        self.facts
            .global_calls
            .retain(|call| call.through_window || !found.contains(call.name.as_str()));
    }
}

/// How many times `name` is written in `text` as a whole word (not inside a longer name).
fn words(text: &str, name: &str) -> usize {
    let bytes = text.as_bytes();
    let part_of_name = |b: u8| b.is_ascii_alphanumeric() || b == b'_' || b == b'$' || b >= 0x80;
    memchr::memmem::find_iter(bytes, name.as_bytes())
        .filter(|&at| {
            let before = at.checked_sub(1).map(|i| bytes[i]);
            let after = bytes.get(at + name.len()).copied();
            !before.is_some_and(part_of_name) && !after.is_some_and(part_of_name)
        })
        .count()
}

/// Which of the `wanted` names the program binds anywhere.
struct Declared<'w> {
    wanted: &'w HashSet<&'w str>,
    found: HashSet<String>,
}

impl Declared<'_> {
    fn note(&mut self, ident: &swc_ecma_ast::Ident) {
        if self.wanted.contains(&*ident.sym) && !self.found.contains(&*ident.sym) {
            self.found.insert(ident.sym.to_string());
        }
    }
}

impl Visit for Declared<'_> {
    fn visit_binding_ident(&mut self, ident: &swc_ecma_ast::BindingIdent) {
        self.note(&ident.id);
    }

    fn visit_fn_decl(&mut self, decl: &swc_ecma_ast::FnDecl) {
        self.note(&decl.ident);
        decl.visit_children_with(self);
    }

    fn visit_class_decl(&mut self, decl: &swc_ecma_ast::ClassDecl) {
        self.note(&decl.ident);
        decl.visit_children_with(self);
    }

    fn visit_fn_expr(&mut self, expr: &swc_ecma_ast::FnExpr) {
        if let Some(ident) = &expr.ident {
            self.note(ident);
        }
        expr.visit_children_with(self);
    }

    fn visit_class_expr(&mut self, expr: &swc_ecma_ast::ClassExpr) {
        if let Some(ident) = &expr.ident {
            self.note(ident);
        }
        expr.visit_children_with(self);
    }

    fn visit_import_named_specifier(&mut self, spec: &swc_ecma_ast::ImportNamedSpecifier) {
        self.note(&spec.local);
    }

    fn visit_import_default_specifier(&mut self, spec: &swc_ecma_ast::ImportDefaultSpecifier) {
        self.note(&spec.local);
    }

    fn visit_import_star_as_specifier(&mut self, spec: &swc_ecma_ast::ImportStarAsSpecifier) {
        self.note(&spec.local);
    }
}

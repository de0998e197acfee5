//! Channels a loop names: handlers registered over a table of them, as applications with many
//! handlers write it (`for (const [channel, fn] of Object.entries(handlers))
//! ipcMain.handle(channel, fn)`, `Object.keys(handlers).forEach((c) => …)`, `for (const c in
//! handlers)`, `["a", "b"].forEach((c) => ipcRenderer.on(c, …))`). The loop's variable stands
//! for each key of an object literal, or each string of an array literal, bound by name or
//! written in place; an operation whose channel is that variable is one operation per key.
//! Read only in files that read IPC (they bind Electron, or name `ipcRenderer`/`ipcMain`).

use swc_ecma_ast::{
    ArrayLit, CallExpr, Expr, ForHead, ForInStmt, ForOfStmt, ObjectLit, Pat, Prop, PropName,
    PropOrSpread,
};

use super::Extractor;
use super::names::{dotted, prop_name, string, unwrap};

/// Most keys a table may have for its loop to fan out.
const MAX_KEYS: usize = 256;

/// A name bound to a table a loop may go over.
#[derive(Debug, Clone)]
pub(super) enum Table {
    /// An object literal's keys.
    Object(Vec<String>),
    /// An array literal's strings.
    Strings(Vec<String>),
}

/// What a loop's variable stands for.
#[derive(Debug, Clone)]
pub(super) enum LoopItems {
    /// Each of these keys or strings.
    Keys(Vec<String>),
    /// Each item of a list another module (or factory) exports, read once it is known
    /// (`ipcMainEvents.forEach((name) => …)` after `import { ipcMainEvents } from
    /// "./ipc-events"`).
    Imported(crate::facts::ChannelImport),
}

/// How a loop goes over a table.
enum Over {
    /// `Object.entries(t)`: `[key, value]` pairs.
    Entries,
    /// `Object.keys(t)`, or `for … in t`: keys.
    Keys,
    /// The array itself: its strings.
    Items,
}

impl Extractor<'_, '_> {
    /// Keeps `name` as a table when `init` is an object literal or an array of strings.
    pub(super) fn table_binding(&mut self, name: &str, init: &Expr) {
        if !self.reads_ipc {
            return;
        }
        let table = match unwrap(init) {
            Expr::Object(object) => self.object_keys(object).map(Table::Object),
            Expr::Array(array) => self.array_strings(array).map(Table::Strings),
            _ => None,
        };
        let scope = self.scopes.current();
        match table {
            Some(table) => self.tables_named.set(name, scope, table),
            None => self.tables_named.shadow(name, scope),
        }
    }

    /// The keys `expr` goes over as `over` says, when it is a table: written in place, or a
    /// name bound to one.
    fn table_keys(&self, expr: &Expr, over: &Over) -> Option<Vec<String>> {
        match (unwrap(expr), over) {
            (Expr::Object(object), Over::Entries | Over::Keys) => self.object_keys(object),
            (Expr::Array(array), Over::Items) => self.array_strings(array),
            (Expr::Ident(ident), _) => {
                match (self.tables_named.resolve(&ident.sym, &self.scopes)?, over) {
                    (Table::Object(keys), Over::Entries | Over::Keys) => Some(keys.clone()),
                    (Table::Strings(items), Over::Items) => Some(items.clone()),
                    _ => None,
                }
            }
            _ => None,
        }
    }

    /// What a loop's iterable is: `Object.entries(t)`, `Object.keys(t)` or an array, or the
    /// items of a list another module exports.
    fn iterated(&self, expr: &Expr) -> Option<(LoopItems, Over)> {
        if let Expr::Call(call) = unwrap(expr)
            && let [arg] = call.args.as_slice()
            && arg.spread.is_none()
        {
            let callee = call.callee.as_expr().map(|c| dotted(c))?;
            let over = match callee.as_str() {
                "Object.entries" => Over::Entries,
                "Object.keys" => Over::Keys,
                _ => return None,
            };
            return Some((LoopItems::Keys(self.table_keys(&arg.expr, &over)?), over));
        }
        let items = match self.table_keys(expr, &Over::Items) {
            Some(keys) => LoopItems::Keys(keys),
            None => LoopItems::Imported(self.channel_import(expr)?),
        };
        Some((items, Over::Items))
    }

    /// Binds the variable a loop's pattern names (the key of an `[key, value]` pair for
    /// entries) to the keys, in `scope`.
    fn bind_loop(&mut self, pat: &Pat, (keys, over): (LoopItems, Over), scope: u32) {
        let pat = match (pat, over) {
            (Pat::Array(array), Over::Entries) => match array.elems.first() {
                Some(Some(first)) => first,
                _ => return,
            },
            (pat, Over::Keys | Over::Items) => pat,
            _ => return,
        };
        if let Pat::Ident(ident) = pat {
            self.loop_channels.set(&ident.id.sym, scope, keys);
        }
    }

    /// `for (const [channel, fn] of Object.entries(handlers))`, `for (const c of [...])`.
    pub(super) fn for_of_loop(&mut self, stmt: &ForOfStmt) {
        if !self.reads_ipc {
            return;
        }
        if let (Some(pat), Some(iterated)) = (head_pat(&stmt.left), self.iterated(&stmt.right)) {
            let scope = self.scopes.current();
            self.bind_loop(pat, iterated, scope);
        }
    }

    /// `for (const channel in handlers)`.
    pub(super) fn for_in_loop(&mut self, stmt: &ForInStmt) {
        if !self.reads_ipc {
            return;
        }
        if let (Some(pat), Some(keys)) = (
            head_pat(&stmt.left),
            self.table_keys(&stmt.right, &Over::Keys),
        ) {
            let scope = self.scopes.current();
            self.bind_loop(pat, (LoopItems::Keys(keys), Over::Keys), scope);
        }
    }

    /// `Object.keys(handlers).forEach((channel) => …)` and the like: the callback's first
    /// parameter, bound in the callback's own scope before the walk enters it.
    pub(super) fn for_each_loop(&mut self, call: &CallExpr) {
        if !self.reads_ipc {
            return;
        }
        let Some(Expr::Member(member)) = call.callee.as_expr().map(|c| unwrap(c)) else {
            return;
        };
        if !member.prop.is_ident_with("forEach") {
            return;
        }
        let Some(callback) = call.args.first().map(|a| unwrap(&a.expr)) else {
            return;
        };
        let (scope, first) = match callback {
            Expr::Arrow(arrow) => (arrow.span.lo.0, arrow.params.first()),
            Expr::Fn(f) => (
                f.function.span.lo.0,
                f.function.params.first().map(|p| &p.pat),
            ),
            _ => return,
        };
        let Some(first) = first else {
            return;
        };
        if let Some(iterated) = self.iterated(&member.obj) {
            self.bind_loop(first, iterated, scope);
        }
    }

    /// The keys a channel written as a loop's variable stands for.
    pub(super) fn loop_channel(&self, channel: &Expr) -> Option<&LoopItems> {
        if self.loop_channels.is_empty() {
            return None;
        }
        match unwrap(channel) {
            Expr::Ident(ident) => self.loop_channels.resolve(&ident.sym, &self.scopes),
            _ => None,
        }
    }

    /// An object literal's keys, when every property has a static key (a computed one that
    /// is a name bound to a string too: `[IPC.GET]: handler`).
    fn object_keys(&self, object: &ObjectLit) -> Option<Vec<String>> {
        if object.props.is_empty() || object.props.len() > MAX_KEYS {
            return None;
        }
        let key = |name: &PropName| match name {
            PropName::Computed(c) => prop_name(name).or_else(|| self.constant_string(&c.expr)),
            other => prop_name(other),
        };
        object
            .props
            .iter()
            .map(|prop| match prop {
                PropOrSpread::Prop(prop) => match &**prop {
                    Prop::KeyValue(kv) => key(&kv.key),
                    Prop::Method(m) => key(&m.key),
                    Prop::Shorthand(ident) => Some(ident.sym.to_string()),
                    _ => None,
                },
                PropOrSpread::Spread(_) => None,
            })
            .collect()
    }

    /// An array literal's items when each is a string (a literal, or a name bound to one).
    fn array_strings(&self, array: &ArrayLit) -> Option<Vec<String>> {
        if array.elems.is_empty() || array.elems.len() > MAX_KEYS {
            return None;
        }
        array
            .elems
            .iter()
            .map(|e| {
                let e = e.as_ref().filter(|e| e.spread.is_none())?;
                string(&e.expr).or_else(|| self.constant_string(&e.expr))
            })
            .collect()
    }
}

/// The pattern a loop's head binds: `const [a, b]`, `let c`, or an assignment target.
fn head_pat(head: &ForHead) -> Option<&Pat> {
    match head {
        ForHead::VarDecl(decl) => match decl.decls.as_slice() {
            [one] => Some(&one.name),
            _ => None,
        },
        ForHead::Pat(pat) => Some(pat),
        ForHead::UsingDecl(_) => None,
    }
}

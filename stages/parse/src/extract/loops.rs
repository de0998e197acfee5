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
use super::electron::NamedObject;
use super::names::{dotted, prop_name, string, unwrap};
use crate::facts::Range;

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

/// A table's value for one key, in a file that exposes a bridge API: what a loop that
/// exposes one API per key exposes for it (`for (const [key, api] of Object.entries(apis))
/// contextBridge.exposeInMainWorld(key, api)`).
#[derive(Debug, Clone)]
pub(super) enum TableValue {
    /// An object literal, written there or bound to the name written there.
    Object(NamedObject),
    /// A function written there: where it is, so that what it does is the API's.
    Function((u32, u32), Range),
    /// Anything else.
    Other,
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
        if self.exposes && self.iterated_tables.contains(name) {
            let values = match unwrap(init) {
                Expr::Object(object) => self.table_values(object),
                _ => None,
            };
            match values {
                Some(values) => self.table_apis.set(name, scope, values),
                None => self.table_apis.shadow(name, scope),
            }
        }
    }

    /// Each key's value of an object literal whose keys are all static, as a bridge API.
    fn table_values(&self, object: &ObjectLit) -> Option<Vec<(String, TableValue)>> {
        let keys = self.object_keys(object)?;
        let function = |span: swc_common::Span| {
            TableValue::Function(
                (self.source.offset(span.lo), self.source.offset(span.hi)),
                self.source.range(span),
            )
        };
        let named = |name: &str| {
            self.named_object(name)
                .cloned()
                .map_or(TableValue::Other, TableValue::Object)
        };
        let values = object.props.iter().map(|prop| match prop {
            PropOrSpread::Prop(prop) => match &**prop {
                Prop::KeyValue(kv) => match unwrap(&kv.value) {
                    Expr::Object(value) => TableValue::Object(self.read_named_object(value)),
                    Expr::Fn(f) => function(f.function.span),
                    Expr::Arrow(arrow) => function(arrow.span),
                    Expr::Ident(ident) => named(&ident.sym),
                    _ => TableValue::Other,
                },
                Prop::Method(method) => function(method.function.span),
                Prop::Shorthand(ident) => named(&ident.sym),
                _ => TableValue::Other,
            },
            PropOrSpread::Spread(_) => TableValue::Other,
        });
        Some(keys.into_iter().zip(values).collect())
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

    /// The name of the table a loop goes over (`apis` of `Object.entries(apis)`, `for (k in
    /// apis)`), when it is bound to an object literal of bridge APIs.
    fn api_table(&self, expr: &Expr) -> Option<String> {
        if self.table_apis.is_empty() {
            return None;
        }
        let table = match unwrap(expr) {
            Expr::Call(call) => match call.args.as_slice() {
                [arg] if arg.spread.is_none() => unwrap(&arg.expr),
                _ => return None,
            },
            other => other,
        };
        let Expr::Ident(ident) = table else {
            return None;
        };
        self.table_apis
            .resolve(&ident.sym, &self.scopes)
            .map(|_| ident.sym.to_string())
    }

    /// Binds a loop's variables over a table of bridge APIs: the key's, and the value's of
    /// an `[key, value]` pair for entries.
    fn bind_api_loop(&mut self, pat: &Pat, table: String, over: &Over, scope: u32) {
        let (key, value) = match (pat, over) {
            (Pat::Array(array), Over::Entries) => (array.elems.first(), array.elems.get(1)),
            (Pat::Ident(_), Over::Keys) => (None, None),
            _ => return,
        };
        let key = match (pat, key) {
            (Pat::Ident(ident), _) => Some(ident),
            (_, Some(Some(Pat::Ident(ident)))) => Some(ident),
            _ => None,
        };
        if let Some(key) = key {
            self.loop_tables
                .set(&key.id.sym, scope, (table.clone(), false));
        }
        if let Some(Some(Pat::Ident(value))) = value {
            self.loop_tables.set(&value.id.sym, scope, (table, true));
        }
    }

    /// The table's values by key when a bridge exposes one API per key of a loop over it:
    /// `exposeInMainWorld(key, api)` with `[key, api]` of `Object.entries(apis)`, or
    /// `exposeInMainWorld(key, apis[key])` with `key` of `Object.keys(apis)` or `for (key in
    /// apis)`.
    pub(super) fn looped_apis(
        &self,
        key: Option<&Expr>,
        api: Option<&Expr>,
    ) -> Option<Vec<(String, TableValue)>> {
        if self.loop_tables.is_empty() {
            return None;
        }
        let Expr::Ident(key) = unwrap(key?) else {
            return None;
        };
        let (table, false) = self.loop_tables.resolve(&key.sym, &self.scopes)? else {
            return None;
        };
        let exposed = match unwrap(api?) {
            Expr::Ident(value) => self
                .loop_tables
                .resolve(&value.sym, &self.scopes)
                .is_some_and(|(t, is_value)| *is_value && t == table),
            Expr::Member(member) => {
                matches!(unwrap(&member.obj), Expr::Ident(o) if *o.sym == **table)
                    && member.prop.as_computed().is_some_and(
                        |c| matches!(unwrap(&c.expr), Expr::Ident(k) if k.sym == key.sym),
                    )
            }
            _ => false,
        };
        if !exposed {
            return None;
        }
        self.table_apis.resolve(table, &self.scopes).cloned()
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
        let Some(pat) = head_pat(&stmt.left) else {
            return;
        };
        let scope = self.scopes.current();
        if let Some(iterated) = self.iterated(&stmt.right) {
            if let Some(table) = self.api_table(&stmt.right) {
                self.bind_api_loop(pat, table, &iterated.1, scope);
            }
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
            if let Some(table) = self.api_table(&stmt.right) {
                self.bind_api_loop(pat, table, &Over::Keys, scope);
            }
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
            if let Some(table) = self.api_table(&member.obj) {
                self.bind_api_loop(first, table, &iterated.1, scope);
            }
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

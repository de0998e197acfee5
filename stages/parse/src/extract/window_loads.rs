//! Which window loads which page: a `loadFile`/`loadURL` called on the name a window is held
//! by (`const win = new BrowserWindow(…); win.loadFile("index.html")`), on its `webContents`,
//! on the construction itself (`new BrowserWindow(…).loadURL(…)`), or through a helper that
//! loads its parameter into its window (`open("settings.html")`).
//!
//! A window is held by a name when its construction is a declaration's value (bound in the
//! declaring function's scope) or is assigned to a name or a member (`win = …`,
//! `this.mainWindow = …`, a class property: bound for the whole file, as the variable or
//! the object outlives the function that assigns it), and a subclass's `super(…)` window by
//! `this`. A window put in a collection (`windows.set("main", win)`, `list.push(win)`,
//! `set.add(win)`, `this.windows[id] = win`) is held by the collection's entry of that key
//! (`windows["main"]`) and by the collection as a whole (`windows[]`): a load through
//! `windows.get("main")` is the key's window, and one through an entry whose key is not a
//! string (`this.windows[id]`, `list[0]`) the one window the collection ever holds, if it
//! holds one. A name given the call of a function the file declares once, and that returns one
//! window (`return new BrowserWindow(…)`, or `return win` of a name holding one), holds that
//! window too (`const main = createWindow()`; a member call, `(0, windows_1.createWindow)()`,
//! by its last name). A load is matched once the file is walked, since the function that
//! loads may be written before the one that creates: among the windows held by the
//! receiver's name in a scope the load sees, the innermost scope's, and in it the one given
//! last before the load (or else the first). Nothing is run, so a name given other windows
//! at run time may load into those too.

use swc_common::{Span, Spanned};
use swc_ecma_ast::{CallExpr, Expr, MemberExpr, MemberProp, OptChainBase};

use super::Extractor;
use super::electron::web_url;
use super::names::{dotted, unwrap};
use super::prepass::PROGRAM_SCOPE;
use super::windows::is_window_constructor;
use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};

/// The remote URLs kept on one window.
const MAX_REMOTE_URLS: usize = 16;

/// The computed targets kept on one window.
const MAX_DYNAMIC_LOADS: usize = 4;

/// The holders, calls held, returns and loads one file keeps for matching, each: a
/// generated file with thousands of windows and loads is matched up to these, and the rest
/// stay unmatched.
const MAX_KEPT: usize = 4096;

/// A window held by a name.
pub(super) struct Holder {
    name: String,
    scope: u32,
    /// Where the window's construction starts: the key of [`Extractor::window_starts`].
    start: u32,
    /// Where the name is given the window, for the order of bindings and loads.
    at: u32,
}

/// The holders of a file, with an index by name and scope, so that a load looks up only the
/// holders of its receiver's name in the scopes it sees.
#[derive(Default)]
pub(super) struct Holders {
    list: Vec<Holder>,
    by_name: HashMap<String, HashMap<u32, Vec<usize>>>,
}

impl Holders {
    fn push(&mut self, holder: Holder) {
        if self.list.len() >= MAX_KEPT {
            return;
        }
        self.by_name
            .entry(holder.name.clone())
            .or_default()
            .entry(holder.scope)
            .or_default()
            .push(self.list.len());
        self.list.push(holder);
    }

    fn is_empty(&self) -> bool {
        self.list.is_empty()
    }

    /// Whether some holder is named `name`.
    fn holds(&self, name: &str) -> bool {
        self.by_name.contains_key(name)
    }

    /// The construction (by its start) of the window `name` holds where a load at `at`, in
    /// the scopes `stack`, sees it: the innermost scope's, and in it the one given last before
    /// the load, or else the first.
    fn held_by(&self, name: &str, stack: &[u32], at: u32) -> Option<u32> {
        let by_scope = self.by_name.get(name)?;
        let seen = stack.iter().rev().find_map(|scope| by_scope.get(scope))?;
        let holders = seen.iter().map(|&i| &self.list[i]);
        holders
            .clone()
            .filter(|h| h.at < at)
            .max_by_key(|h| h.at)
            .or_else(|| holders.min_by_key(|h| h.at))
            .map(|h| h.start)
    }

    /// The one construction every holder of `name` holds, in any scope, if there is one.
    fn only(&self, name: &str) -> Option<u32> {
        let mut starts = self
            .by_name
            .get(name)?
            .values()
            .flatten()
            .map(|&i| self.list[i].start);
        let first = starts.next()?;
        starts.all(|s| s == first).then_some(first)
    }
}

/// A name given what a function of the file returns (`mainWindow = createWindow()`): a
/// holder of the window that function returns, once the file is walked.
pub(super) struct CallHolder {
    name: String,
    scope: u32,
    function: String,
    at: u32,
}

/// A load whose window is matched once the file is walked.
pub(super) struct PendingLoad {
    receiver: Receiver,
    /// The scopes the call is in, innermost last.
    stack: Vec<u32>,
    start: u32,
    loaded: Loaded,
}

/// What one load call (or one call of a helper that loads its argument) loads.
pub(super) struct Loaded {
    /// Its renderer loads, by index in `renderer_loads`, and its imported ones.
    loads: std::ops::Range<usize>,
    imported: std::ops::Range<usize>,
    /// The URLs of the web it loads, redacted.
    remote: Vec<String>,
    /// Its target as written, when it is computed at run time.
    dynamic: Option<String>,
    /// Whether it is a `loadURL`, whose computed target may be a URL of the web (a
    /// `loadFile` loads a file).
    url: bool,
}

impl Loaded {
    fn is_empty(&self) -> bool {
        self.loads.is_empty()
            && self.imported.is_empty()
            && self.remote.is_empty()
            && self.dynamic.is_none()
    }
}

enum Receiver {
    Name(String),
    /// An entry of a collection of windows (`windows.get("main")`, `this.windows[id]`): the
    /// collection's name, and the entry's key when it is a string.
    Entry(String, Option<String>),
    /// The construction the call is chained on, by its start.
    Construction(u32),
    /// The window of the helper's load call that starts there ([`LoadForward`]).
    ///
    /// [`LoadForward`]: super::prepass::LoadForward
    Helper(u32),
}

impl Extractor<'_, '_> {
    /// A window's construction, by where it starts, so that a holder finds its index.
    pub(super) fn window_constructed(&mut self, start: u32, index: usize) {
        self.window_starts.insert(start, index);
    }

    /// `name = <value>` (or a declaration, `declared`): a holder if the value constructs a
    /// window, or may be one if it calls a function of the file (`createWindow()`, `await
    /// this.createWindow()`). `name` is built only for a value that may hold a window.
    pub(super) fn window_holder(
        &mut self,
        name: impl FnOnce() -> String,
        value: &Expr,
        declared: bool,
    ) {
        let scope = if declared {
            self.scopes.current()
        } else {
            PROGRAM_SCOPE
        };
        let mut value = unwrap(value);
        if let Expr::Await(awaited) = value {
            value = unwrap(&awaited.arg);
        }
        match value {
            Expr::New(new) if is_window_constructor(&self.name(&new.callee)) => {
                let name = name();
                if name.is_empty() {
                    return;
                }
                self.window_holders.push(Holder {
                    name,
                    scope,
                    start: new.span.lo.0,
                    at: new.span.lo.0,
                });
            }
            Expr::Call(call) if self.electron => {
                let Some(callee @ (Expr::Ident(_) | Expr::Member(_))) =
                    call.callee.as_expr().map(|c| unwrap(c))
                else {
                    return;
                };
                let mut function = dotted(callee);
                if function.split('.').any(str::is_empty) {
                    return;
                }
                // A member of another module (`(0, windows_1.createMainWindow)(…)`, as
                // TypeScript and bundlers call imports) by its name: a file that declares
                // one function of that name is a bundle holding that module.
                if !function.starts_with("this.")
                    && let Some((_, last)) = function.rsplit_once('.')
                {
                    function = last.to_owned();
                }
                let name = name();
                if name.is_empty() {
                    return;
                }
                if self.call_holders.len() >= MAX_KEPT {
                    return;
                }
                self.call_holders.push(CallHolder {
                    name,
                    scope,
                    function,
                    at: call.span.lo.0,
                });
            }
            _ => {}
        }
    }

    /// A window put in a collection: `windows.set("main", win)`, `windows.push(win)`,
    /// `windows.add(win)`, or `this.windows[id] = win` (`key` the entry's key when it is a
    /// string). The collection holds it under that key, and as one of its windows.
    pub(super) fn window_collected(&mut self, collection: &str, key: Option<&str>, value: &Expr) {
        let names = [
            key.map(|k| entry_name(collection, Some(k))),
            Some(entry_name(collection, None)),
        ];
        for name in names.into_iter().flatten() {
            if let Expr::Ident(held) = unwrap(value) {
                // A name holding a window, given before.
                let at = value.span().lo.0;
                if let Some(start) = self
                    .window_holders
                    .held_by(&held.sym, self.scopes.stack(), at)
                {
                    self.window_holders.push(Holder {
                        name,
                        scope: PROGRAM_SCOPE,
                        start,
                        at,
                    });
                }
            } else {
                self.window_holder(|| name, value, false);
            }
        }
    }

    /// Whether a value may be a window: one constructed there; or, once the file has
    /// constructed one, a name holding one or a call that may return one. Minified code
    /// puts values in arrays and objects everywhere: nothing else is looked at.
    fn may_hold_window(&self, value: &Expr) -> bool {
        let mut value = unwrap(value);
        if let Expr::Await(awaited) = value {
            value = unwrap(&awaited.arg);
        }
        match value {
            Expr::New(new) => is_window_constructor(&self.name(&new.callee)),
            Expr::Ident(ident) => self.window_holders.holds(&ident.sym),
            Expr::Call(_) => !self.window_starts.is_empty(),
            _ => false,
        }
    }

    /// `this.windows[id] = win`: a window put in a collection under a key not known, in a
    /// file that uses Electron.
    pub(super) fn window_entry_assigned(&mut self, target: &MemberExpr, value: &Expr) {
        if !self.electron || !self.may_hold_window(value) {
            return;
        }
        let MemberProp::Computed(computed) = &target.prop else {
            return;
        };
        if super::names::string(&computed.expr).is_none()
            && let Some(collection) = collection_name(&target.obj)
        {
            self.window_collected(&collection, None, value);
        }
    }

    /// A call that puts a window in a collection ([`Self::window_collected`]), in a file
    /// that uses Electron.
    pub(super) fn window_collecting_call(&mut self, call: &CallExpr) {
        if !self.electron || call.args.is_empty() || call.args.len() > 2 {
            return;
        }
        let Some(member) = call.callee.as_expr().and_then(|c| member_of(c)) else {
            return;
        };
        let Some(method) = member.prop.as_ident() else {
            return;
        };
        let (key, value) = match (&*method.sym, call.args.as_slice()) {
            ("set", [key, value]) => (super::names::string(&key.expr), &value.expr),
            ("push" | "add" | "unshift", [value]) => (None, &value.expr),
            _ => return,
        };
        if self.may_hold_window(value)
            && let Some(collection) = collection_name(&member.obj)
        {
            self.window_collected(&collection, key.as_deref(), value);
        }
    }

    /// A function of the file by name (`this.<name>` for a class's), by its scope, for
    /// [`CallHolder`]s.
    pub(super) fn function_scope(&mut self, name: impl FnOnce() -> String, scope: u32) {
        if self.electron {
            self.function_scopes.entry(name()).or_default().push(scope);
        }
    }

    /// `return <value>` in the current function: a window it constructs, or one a name of
    /// the function holds.
    pub(super) fn window_return(&mut self, value: &Expr) {
        let start = match unwrap(value) {
            Expr::New(new) if is_window_constructor(&self.name(&new.callee)) => new.span.lo.0,
            Expr::Ident(ident) if !self.window_holders.is_empty() => {
                match self.window_holders.held_by(
                    &ident.sym,
                    self.scopes.stack(),
                    value.span().lo.0,
                ) {
                    Some(start) => start,
                    None => return,
                }
            }
            _ => return,
        };
        if self.window_returns.len() >= MAX_KEPT {
            return;
        }
        self.window_returns.push((self.scopes.current(), start));
    }

    /// The window a subclass's `super(…)` makes, at `start`: its methods' `this.loadURL(…)`
    /// load into it.
    pub(super) fn window_held_by_this(&mut self, start: u32) {
        self.window_holders.push(Holder {
            name: "this".to_owned(),
            scope: PROGRAM_SCOPE,
            start,
            at: start,
        });
    }

    /// What `api` (`loadFile` or `loadURL`) loads given `target`: each value it may take
    /// (apps choose between a development server and the packaged page, `isDev ?
    /// "http://localhost:3000" : `file://${…}``, or `process.env.RENDERER_URL || …`), as
    /// renderer loads, web URLs, or a target computed at run time when none is read.
    pub(super) fn load_target(&mut self, api: &'static str, target: &Expr, span: Span) -> Loaded {
        let mut values = Vec::new();
        super::names::alternatives(target, &mut values, 0);
        let (loads, imported) = (
            self.facts.renderer_loads.len(),
            self.facts.imported_loads.len(),
        );
        let mut seen: Vec<String> = Vec::new();
        for value in values {
            self.renderer_load(api, value, span, &mut seen);
        }
        let imported = imported..self.facts.imported_loads.len();
        Loaded {
            loads: loads..self.facts.renderer_loads.len(),
            remote: seen
                .iter()
                .filter(|t| api == "loadURL" && web_url(t))
                .map(|t| crate::redact::url(t))
                .collect(),
            dynamic: (seen.is_empty() && imported.is_empty())
                .then(|| self.source.expression(target.span())),
            url: api == "loadURL",
            imported,
        }
    }

    /// A `loadFile`/`loadURL` call and what it loaded: kept for
    /// [`Self::finish_window_loads`] when it is called on a name or on a window's
    /// construction.
    pub(super) fn window_load(&mut self, call: &CallExpr, loaded: Loaded) {
        if loaded.is_empty() {
            return;
        }
        let Some(member) = call.callee.as_expr().and_then(|c| member_of(c)) else {
            return;
        };
        let mut object = unwrap(&member.obj);
        // `win.webContents.loadURL(…)` (or `win?.webContents…`) loads into `win`.
        if let Some(inner) = member_of(object)
            && matches!(&inner.prop, MemberProp::Ident(p) if p.sym == "webContents")
        {
            object = unwrap(&inner.obj);
        }
        let receiver = match object {
            Expr::New(new) => Receiver::Construction(new.span.lo.0),
            _ if let Some((collection, key)) = collection_entry(object) => {
                Receiver::Entry(collection, key)
            }
            Expr::Ident(_) | Expr::Member(_) | Expr::This(_) | Expr::OptChain(_) => {
                let name = dotted(object);
                // A part that is not a name (`a[0].loadURL`, `f().loadURL`) names nothing.
                if name.is_empty() || name.split('.').any(str::is_empty) {
                    return;
                }
                Receiver::Name(name)
            }
            _ => return,
        };
        if self.pending_loads.len() >= MAX_KEPT {
            return;
        }
        self.pending_loads.push(PendingLoad {
            receiver,
            stack: self.scopes.stack().to_vec(),
            start: call.span().lo.0,
            loaded,
        });
    }

    /// A call of a helper that loads its argument into the window of its own load call,
    /// which starts at `at`: what the call loads is that window's.
    pub(super) fn helper_load(&mut self, at: u32, loaded: Loaded) {
        if loaded.is_empty() || self.pending_loads.len() >= MAX_KEPT {
            return;
        }
        self.pending_loads.push(PendingLoad {
            receiver: Receiver::Helper(at),
            stack: Vec::new(),
            start: at,
            loaded,
        });
    }

    /// Matches each load kept by [`Self::window_load`] to its window.
    pub(super) fn finish_window_loads(&mut self) {
        let pending = std::mem::take(&mut self.pending_loads);
        let mut holders = std::mem::take(&mut self.window_holders);
        // A name given a function's return holds the one window the function returns, where
        // the file declares one function of that name.
        let mut returns: HashMap<u32, Vec<u32>> = HashMap::default();
        for (scope, start) in &self.window_returns {
            returns.entry(*scope).or_default().push(*start);
        }
        for call in std::mem::take(&mut self.call_holders) {
            let Some([scope]) = self.function_scopes.get(&call.function).map(Vec::as_slice) else {
                continue;
            };
            let mut returned = returns.get(scope).into_iter().flatten().copied();
            if let Some(start) = returned.next()
                && returned.all(|other| other == start)
            {
                holders.push(Holder {
                    name: call.name,
                    scope: call.scope,
                    start,
                    at: call.at,
                });
            }
        }
        for holder in &holders.list {
            if let Some(&index) = self.window_starts.get(&holder.start)
                && self.facts.windows[index].holder.is_none()
            {
                self.facts.windows[index].holder = Some(holder.name.clone());
            }
        }
        // A helper's own load call, whose target is its parameter, loads what its callers
        // pass: its parameter is no computed target of the window.
        let forwarded: HashSet<u32> = pending
            .iter()
            .filter_map(|l| match l.receiver {
                Receiver::Helper(at) => Some(at),
                _ => None,
            })
            .collect();
        // Each load call's window, by where the call starts, for the helpers' callers.
        let mut windows_of_calls: HashMap<u32, usize> = HashMap::default();
        let (helpers, direct): (Vec<PendingLoad>, Vec<PendingLoad>) = pending
            .into_iter()
            .partition(|l| matches!(l.receiver, Receiver::Helper(_)));
        for mut load in direct.into_iter().chain(helpers) {
            let constructed = |start: Option<u32>| self.window_starts.get(&start?).copied();
            let index = match &load.receiver {
                Receiver::Construction(start) => constructed(Some(*start)),
                Receiver::Name(name) => constructed(holders.held_by(name, &load.stack, load.start)),
                // The entry of that key, or else the one window the collection ever holds.
                Receiver::Entry(collection, key) => constructed(
                    key.as_ref()
                        .and_then(|key| {
                            let name = entry_name(collection, Some(key));
                            holders.held_by(&name, &load.stack, load.start)
                        })
                        .or_else(|| holders.only(&entry_name(collection, None))),
                ),
                Receiver::Helper(at) => windows_of_calls.get(at).copied(),
            };
            let Some(index) = index else {
                continue;
            };
            if !matches!(load.receiver, Receiver::Helper(_)) {
                windows_of_calls.insert(load.start, index);
                if forwarded.contains(&load.start) {
                    load.loaded.dynamic = None;
                }
            }
            let Loaded {
                loads,
                imported,
                remote,
                dynamic,
                url,
            } = load.loaded;
            for at in loads {
                self.facts.renderer_loads[at].window = Some(index as u32);
            }
            for at in imported {
                self.facts.imported_loads[at].load.window = Some(index as u32);
            }
            let window = &mut self.facts.windows[index];
            keep(&mut window.remote_urls, remote, MAX_REMOTE_URLS);
            if url {
                keep(
                    &mut window.dynamic_urls,
                    dynamic.iter().cloned(),
                    MAX_DYNAMIC_LOADS,
                );
            }
            keep(&mut window.dynamic_loads, dynamic, MAX_DYNAMIC_LOADS);
        }
    }
}

/// The name a holder of a collection's entry is given: `windows["main"]` for the entry of
/// key `main`, `windows[]` for any of its windows.
fn entry_name(collection: &str, key: Option<&str>) -> String {
    match key {
        Some(key) => format!("{collection}[{key:?}]"),
        None => format!("{collection}[]"),
    }
}

/// A collection's name as written (`windows`, `this.windows`), when every part is a name.
fn collection_name(expr: &Expr) -> Option<String> {
    let name = dotted(expr);
    (!name.is_empty() && !name.split('.').any(str::is_empty)).then_some(name)
}

/// The entry of a collection an expression reads: `windows.get(key)`, or `windows[key]` of a
/// key that is not a string literal (one that is reads a member like any other); the
/// collection's name and the key, when it is a string.
fn collection_entry(expr: &Expr) -> Option<(String, Option<String>)> {
    match unwrap(expr) {
        Expr::Call(call) => {
            let member = call.callee.as_expr().and_then(|c| member_of(c))?;
            let [key] = call.args.as_slice() else {
                return None;
            };
            if !member.prop.is_ident_with("get") || key.spread.is_some() {
                return None;
            }
            Some((
                collection_name(&member.obj)?,
                super::names::string(&key.expr),
            ))
        }
        Expr::Member(member) => {
            let MemberProp::Computed(computed) = &member.prop else {
                return None;
            };
            if super::names::string(&computed.expr).is_some() {
                return None;
            }
            Some((collection_name(&member.obj)?, None))
        }
        _ => None,
    }
}

/// The member expression `expr` is, optional (`win?.loadURL`) or not.
fn member_of(expr: &Expr) -> Option<&MemberExpr> {
    match unwrap(expr) {
        Expr::Member(member) => Some(member),
        Expr::OptChain(chain) => match &*chain.base {
            OptChainBase::Member(member) => Some(member),
            OptChainBase::Call(_) => None,
        },
        _ => None,
    }
}

/// Adds `more` to the sorted, unique, bounded `list`.
fn keep(list: &mut Vec<String>, more: impl IntoIterator<Item = String>, max: usize) {
    for item in more {
        if !list.contains(&item) {
            list.push(item);
        }
    }
    list.sort();
    list.truncate(max);
}

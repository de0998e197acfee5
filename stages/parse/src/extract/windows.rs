//! Window options: `new BrowserWindow(options)` and the `webPreferences` its options give,
//! read through the ways real applications compose them.
//!
//! Options are read as a [`Composition`]: the parts that decide `webPreferences`, in source
//! order. A part is a `webPreferences` key, or a source spread into the options: an object
//! literal, a name bound to one in scope, `Object.assign(…)`'s arguments, or the value a
//! function of the same file returns (`{ ...defaultWindowOptions(), parent }`,
//! `new BrowserWindow(getOptions())`). Functions are looked up once the file is walked, by
//! name, when the file declares exactly one function of that name and all its returns read
//! the same; their returns are read where they are written, with that scope's names.
//!
//! As in JavaScript, a later part replaces an earlier one's `webPreferences`, and a later
//! key an earlier one inside `webPreferences`. A source that cannot be read is listed as
//! `unresolved`: it leaves `webPreferences` `dynamic` when nothing before it set them, and
//! may override them when something did (the window's `option_sources` say so). Nothing
//! is evaluated and defaults are never filled in.

use swc_common::Spanned;
use swc_ecma_ast::{ArrowFunctionBody, Expr, ObjectLit, Prop, PropOrSpread, Stmt};

use super::Extractor;
use super::names::{PathScope, named, prop_name, property, static_value, string, unwrap};
use crate::facts::{OptionSource, StaticPath, StaticValue, Window};

/// How a function merges objects into one ([`merger`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Merging {
    /// Whether an earlier object's keys win over a later one's (`_.defaults`), not the
    /// reverse (`Object.assign`).
    pub(super) defaults: bool,
    /// Whether nested objects are merged key by key (`_.merge`), not replaced whole.
    pub(super) deep: bool,
}

/// The functions the usual libraries merge objects with, as window options are composed
/// from defaults and a caller's options, by the callee's last part: `Object.assign`,
/// lodash's and underscore's `assign`, `extend`, `merge`, `defaults` and `defaultsDeep`,
/// `xtend`, `deepmerge`, and the `defaults` and `deep-defaults` packages as they are
/// usually bound. A boolean argument (jQuery's `$.extend(true, …)`) is not an object. A
/// call of fewer than two arguments, but `Object.assign`'s, merges nothing: it is read as a
/// call of a function of the file (`defaults(opts)` returning options), as any other call is.
pub(super) fn merger(name: &str, args: usize) -> Option<Merging> {
    if args < 2 && name != "Object.assign" {
        return None;
    }
    let last = name.rsplit('.').next().unwrap_or(name);
    let (defaults, deep) = match last {
        "assign" | "extend" | "xtend" => (false, false),
        "merge" | "deepmerge" | "deepMerge" | "mergeDeep" => (false, true),
        "defaults" => (true, false),
        "defaultsDeep" | "deepDefaults" => (true, true),
        _ => return None,
    };
    Some(Merging { defaults, deep })
}

/// Most preferences kept of one window.
const MAX_PREFERENCES: usize = 64;
/// Most option sources listed of one window.
const MAX_SOURCES: usize = 16;
/// How deep function returns are followed into other functions' returns.
const MAX_CALL_DEPTH: usize = 4;
/// How deep spreads of literals within literals are read.
const MAX_NESTING: usize = 8;
/// Most parts one source may hold, nested ones counted: a literal built by spreading
/// another many times over (`{ ...a, ...a }` again and again) is not copied past it.
const MAX_WEIGHT: usize = 512;
/// Most parts read for one window, through every source and function return.
const MAX_READ_PARTS: usize = 4096;

/// `source`, or `Unknown` when it holds more than [`MAX_WEIGHT`] parts.
fn bounded(source: Source) -> Source {
    match &source {
        Source::Literal(composition, _) if composition.weight() > MAX_WEIGHT => Source::Unknown,
        _ => source,
    }
}

/// The parts of window options that decide `webPreferences`, in source order.
#[derive(Debug, Clone, PartialEq, Default)]
pub(super) struct Composition {
    parts: Vec<Part>,
}

impl Composition {
    /// Its parts, and those of the literals it spreads, counted (stopping past
    /// [`MAX_WEIGHT`]).
    fn weight(&self) -> usize {
        let mut total = 0;
        for part in &self.parts {
            total += 1;
            if let Part::Spread {
                source: Source::Literal(inner, _),
                ..
            } = part
            {
                total += inner.weight();
            }
            if total > MAX_WEIGHT {
                break;
            }
        }
        total
    }
}

#[derive(Debug, Clone, PartialEq)]
enum Part {
    /// `webPreferences: …`: its preferences, or `None` when the value is not an object
    /// literal the walk can read.
    Preferences(Option<Preferences>),
    /// `options.webPreferences.<key> = value` after the options were bound: one preference
    /// set on whatever `webPreferences` hold by then.
    Preference(Preferences),
    /// More options from elsewhere: a spread, an `Object.assign` argument (or another
    /// merging function's, [`merger`]), or the whole options expression. A `deep` one merges
    /// its `webPreferences` into those before it instead of replacing them.
    Spread {
        expression: String,
        source: Source,
        deep: bool,
    },
}

/// Where spread options come from.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Source {
    /// An object literal: in place (`object-literal`) or bound to a name (`binding`).
    Literal(Composition, &'static str),
    /// What the file's function of this name returns, looked up when the walk is done.
    Call(String),
    Unknown,
}

/// The preferences of a `webPreferences` object literal, in source order (a later key
/// replaces an earlier one).
#[derive(Debug, Clone, PartialEq, Default)]
pub(super) struct Preferences {
    entries: Vec<(String, StaticValue)>,
    /// Keys past [`MAX_HELD_PREFERENCES`], counted, not kept.
    omitted: u64,
    preload: Option<StaticPath>,
    preload_alternatives: Vec<StaticPath>,
    preload_expression: Option<String>,
}

/// Most preferences held while options are read (a later key replaces an earlier one, found
/// by a scan): more are counted as omitted.
const MAX_HELD_PREFERENCES: usize = 4 * MAX_PREFERENCES;

impl Preferences {
    fn set(&mut self, key: String, value: StaticValue) {
        let full = self.entries.len() >= MAX_HELD_PREFERENCES;
        match self.entries.iter_mut().find(|(k, _)| *k == key) {
            Some(entry) => entry.1 = value,
            None if full => self.omitted += 1,
            None => self.entries.push((key, value)),
        }
    }

    fn merge(&mut self, other: &Preferences) {
        for (key, value) in &other.entries {
            self.set(key.clone(), value.clone());
        }
        self.omitted += other.omitted;
        if other.preload.is_some() || other.preload_expression.is_some() {
            self.preload = other.preload.clone();
            self.preload_alternatives = other.preload_alternatives.clone();
            self.preload_expression = other.preload_expression.clone();
        }
    }
}

/// A window whose options are read when the walk is done.
pub(super) struct PendingWindow {
    index: usize,
    /// `object-literal`, `dynamic`, or `call` (decided by whether the call resolves).
    status: &'static str,
    composition: Composition,
}

/// What `webPreferences` come to after a composition is read.
enum State {
    Missing,
    Known(Preferences),
    /// Set to a value the walk cannot read.
    Dynamic,
    /// Not set by anything read, but a source that could not be read may set them.
    Unknown,
}

/// A composition read: its `webPreferences` and the sources it listed.
struct Reading {
    state: State,
    sources: Vec<OptionSource>,
}

impl Extractor<'_, '_> {
    pub(super) fn window(&mut self, name: &str, options: Option<&Expr>, span: swc_common::Span) {
        if !self.admit(None) {
            return;
        }
        let (status, composition) = match options {
            None => ("missing", Composition::default()),
            Some(expr) => match self.option_source(expr, 0) {
                Source::Literal(composition, _) => ("object-literal", composition),
                source @ Source::Call(_) => ("call", self.spread_of(expr, source)),
                Source::Unknown => ("dynamic", self.spread_of(expr, Source::Unknown)),
            },
        };
        self.window_constructed(span.lo.0, self.facts.windows.len());
        self.pending_windows.push(PendingWindow {
            index: self.facts.windows.len(),
            status,
            composition,
        });
        self.facts.windows.push(Window {
            constructor: name.rsplit('.').next().unwrap_or(name).to_owned(),
            options_status: status,
            web_preferences_status: "missing",
            web_preferences: Vec::new(),
            omitted_web_preferences: 0,
            option_sources: Vec::new(),
            preload: None,
            preload_alternatives: Vec::new(),
            preload_expression: None,
            holder: None,
            remote_urls: Vec::new(),
            dynamic_loads: Vec::new(),
            dynamic_urls: Vec::new(),
            range: self.source.range(span),
            module: self.module(),
        });
    }

    /// A `preload` value: the static paths its branches take (`isDev ? a : b`), the first
    /// as the preload, or else its expression.
    fn set_preload(&self, prefs: &mut Preferences, value: &Expr) {
        let mut paths = super::names::static_paths(value, self).into_iter();
        prefs.preload = paths.next();
        prefs.preload_alternatives = paths.collect();
        prefs.preload_expression = match prefs.preload {
            Some(_) => None,
            None => Some(self.source.expression(value.span())),
        };
    }

    fn spread_of(&self, expr: &Expr, source: Source) -> Composition {
        Composition {
            parts: vec![Part::Spread {
                expression: self.source.expression(expr.span()),
                source,
                deep: false,
            }],
        }
    }

    /// Where options written as `expr` come from.
    pub(super) fn option_source(&self, expr: &Expr, depth: usize) -> Source {
        if depth > MAX_NESTING {
            return Source::Unknown;
        }
        match unwrap(expr) {
            Expr::Object(obj) => bounded(Source::Literal(
                self.composition(obj, depth),
                "object-literal",
            )),
            Expr::Ident(ident) => {
                let source = match self.named_object(&ident.sym) {
                    Some(object) => Source::Literal(object.composition.clone(), "binding"),
                    None => match self.named_options.resolve(&ident.sym, &self.scopes) {
                        Some(Source::Literal(composition, _)) => {
                            Source::Literal(composition.clone(), "binding")
                        }
                        Some(source) => source.clone(),
                        None => Source::Unknown,
                    },
                };
                bounded(source)
            }
            Expr::Call(call) => {
                let Some(callee) = call.callee.as_expr() else {
                    return Source::Unknown;
                };
                let name = self.name(callee);
                if let Some(merging) = merger(&name, call.args.len()) {
                    let mut parts: Vec<Part> = call
                        .args
                        .iter()
                        .filter(|arg| !matches!(unwrap(&arg.expr), Expr::Lit(_)))
                        .map(|arg| Part::Spread {
                            expression: self.source.expression(arg.expr.span()),
                            source: self.option_source(&arg.expr, depth + 1),
                            deep: merging.deep,
                        })
                        .collect();
                    // Defaults fill in what the objects before them leave out: read last to
                    // first, each replaces what the ones after it set.
                    if merging.defaults {
                        parts.reverse();
                    }
                    return bounded(Source::Literal(Composition { parts }, "object-literal"));
                }
                match name.rsplit('.').next() {
                    Some(last) if !last.is_empty() && !name.contains('(') => {
                        Source::Call(last.to_owned())
                    }
                    _ => Source::Unknown,
                }
            }
            _ => Source::Unknown,
        }
    }

    /// An object literal bound to a name, read as window options.
    pub(super) fn option_source_literal(&self, obj: &ObjectLit) -> Composition {
        self.composition(obj, 0)
    }

    /// The parts of an options object literal.
    fn composition(&self, obj: &ObjectLit, depth: usize) -> Composition {
        let mut parts = Vec::new();
        for prop in &obj.props {
            match prop {
                PropOrSpread::Spread(spread) => parts.push(Part::Spread {
                    expression: self.source.expression(spread.expr.span()),
                    source: self.option_source(&spread.expr, depth + 1),
                    deep: false,
                }),
                PropOrSpread::Prop(prop) => match &**prop {
                    Prop::KeyValue(kv)
                        if prop_name(&kv.key).as_deref() == Some("webPreferences") =>
                    {
                        parts.push(Part::Preferences(self.preferences_of(&kv.value)))
                    }
                    Prop::Shorthand(ident) if ident.sym == *"webPreferences" => {
                        parts.push(Part::Preferences(
                            self.named_object(&ident.sym).map(|o| o.preferences.clone()),
                        ))
                    }
                    _ => {}
                },
            }
        }
        Composition { parts }
    }

    fn preferences_of(&self, value: &Expr) -> Option<Preferences> {
        match unwrap(value) {
            Expr::Object(prefs) => Some(self.preferences(prefs)),
            Expr::Ident(ident) => self.named_object(&ident.sym).map(|o| o.preferences.clone()),
            // `Object.assign({ preload: … }, options.webPreferences)`, or another merging
            // function's ([`merger`]): each argument's preferences in turn (last to first
            // for defaults); one the walk cannot read is a `[spread@offset]`.
            Expr::Call(call) => {
                let merging = merger(&self.name(call.callee.as_expr()?), call.args.len())?;
                let mut args: Vec<&Expr> = call
                    .args
                    .iter()
                    .map(|a| &*a.expr)
                    .filter(|e| !matches!(unwrap(e), Expr::Lit(_)))
                    .collect();
                if merging.defaults {
                    args.reverse();
                }
                let mut out = Preferences::default();
                for arg in args {
                    match self.preferences_of(arg) {
                        Some(prefs) => out.merge(&prefs),
                        None => out.set(
                            format!("[spread@{}]", self.source.offset(arg.span().lo)),
                            StaticValue::Dynamic(self.source.expression(arg.span())),
                        ),
                    }
                }
                Some(out)
            }
            _ => None,
        }
    }

    /// `options = …` where the name is read as window options, as a function assigns a
    /// variable declared outside it (`var options; … options = defaults(opts, {…})`): from
    /// there on in this function, the options are what it assigns.
    pub(super) fn options_assigned(&mut self, name: &str, value: &Expr) {
        let scope = self.scopes.current();
        if let Expr::Object(obj) = unwrap(value) {
            let object = self.read_named_object(obj);
            self.named_objects.set(name, scope, object);
            return;
        }
        let source = self.option_source(value, 0);
        if !matches!(source, Source::Unknown) {
            self.named_objects.shadow(name, scope);
            self.named_options.set(name, scope, source);
        }
    }

    /// `options.webPreferences = …` or `options.webPreferences.<key> = …` after `options`
    /// was bound to window options: the options read from then on include it.
    pub(super) fn amend_options(&mut self, target: &swc_ecma_ast::MemberExpr, value: &Expr) {
        let (object, part) = match unwrap(&target.obj) {
            Expr::Ident(object)
                if target
                    .prop
                    .as_ident()
                    .is_some_and(|p| p.sym == *"webPreferences") =>
            {
                (object, Part::Preferences(self.preferences_of(value)))
            }
            Expr::Member(prefs)
                if prefs
                    .prop
                    .as_ident()
                    .is_some_and(|p| p.sym == *"webPreferences") =>
            {
                let (Expr::Ident(object), Some(key)) = (unwrap(&prefs.obj), target.prop.as_ident())
                else {
                    return;
                };
                let mut one = Preferences::default();
                if key.sym == *"preload" {
                    self.set_preload(&mut one, value);
                }
                one.set(key.sym.to_string(), static_value(self.source, value));
                (object, Part::Preference(one))
            }
            _ => return,
        };
        if !self.object_names.contains(&*object.sym) {
            return;
        }
        let name = object.sym.to_string();
        if let Some((scope, named)) = self.named_objects.resolve_scope(&name, &self.scopes) {
            let mut named = named.clone();
            named.composition.parts.push(part);
            self.named_objects.set(&name, scope, named);
        } else if let Some((scope, source)) = self.named_options.resolve_scope(&name, &self.scopes)
        {
            let mut composition = match source {
                Source::Literal(composition, _) => composition.clone(),
                other => Composition {
                    parts: vec![Part::Spread {
                        expression: name.clone(),
                        source: other.clone(),
                        deep: false,
                    }],
                },
            };
            composition.parts.push(part);
            self.named_options
                .set(&name, scope, Source::Literal(composition, "binding"));
        }
    }

    /// An object literal read as `webPreferences`. A spread of a name bound to an object
    /// literal adds its preferences; any other spread is listed as `[spread@offset]`.
    pub(super) fn preferences(&self, prefs: &ObjectLit) -> Preferences {
        let mut out = Preferences::default();
        for prop in &prefs.props {
            let offset = self.source.offset(prop.span().lo);
            match prop {
                PropOrSpread::Spread(s) => {
                    let named = match unwrap(&s.expr) {
                        Expr::Ident(ident) => self.named_object(&ident.sym),
                        _ => None,
                    };
                    match named {
                        Some(object) => out.merge(&object.preferences),
                        None => out.set(
                            format!("[spread@{offset}]"),
                            StaticValue::Dynamic(self.source.expression(s.expr.span())),
                        ),
                    }
                }
                PropOrSpread::Prop(p) => match &**p {
                    Prop::KeyValue(kv) => {
                        let key =
                            prop_name(&kv.key).unwrap_or_else(|| format!("[dynamic@{offset}]"));
                        if key == "preload" {
                            self.set_preload(&mut out, &kv.value);
                        }
                        out.set(key, static_value(self.source, &kv.value));
                    }
                    Prop::Shorthand(ident) => {
                        if ident.sym == *"preload" {
                            let mut paths = PathScope::bound_paths(self, &ident.sym).iter();
                            out.preload = paths.next().cloned();
                            out.preload_alternatives = paths.cloned().collect();
                            out.preload_expression = match out.preload {
                                Some(_) => None,
                                None => Some(ident.sym.to_string()),
                            };
                        }
                        out.set(
                            ident.sym.to_string(),
                            StaticValue::Dynamic(ident.sym.to_string()),
                        )
                    }
                    other => {
                        let key = match other {
                            Prop::Method(m) => prop_name(&m.key),
                            Prop::Getter(g) => prop_name(&g.key),
                            Prop::Setter(s) => prop_name(&s.key),
                            _ => None,
                        }
                        .unwrap_or_else(|| format!("[dynamic@{offset}]"));
                        out.set(
                            key,
                            StaticValue::Dynamic(self.source.expression(other.span())),
                        );
                    }
                },
            }
        }
        out
    }

    /// A function the pre-pass saw called where window options are read: its returns are
    /// read as options while the walk is inside it.
    pub(super) fn option_function(&mut self, name: &str, scope: u32) {
        if self.option_functions.contains(name) {
            self.option_scopes.insert(scope, name.to_owned());
        }
    }

    /// `return value` (or an arrow's expression body) in a function whose returns are read
    /// as window options.
    pub(super) fn option_return(&mut self, value: &Expr, scope: u32) {
        if self.option_scopes.contains_key(&scope) {
            let source = self.option_source(value, 0);
            self.option_returns.entry(scope).or_default().push(source);
        }
    }

    /// Whether the walk is in a function whose returns are read as window options, where
    /// every object literal bound to a name is kept.
    pub(super) fn in_option_function(&self) -> bool {
        !self.option_scopes.is_empty() && self.option_scopes.contains_key(&self.scopes.current())
    }

    /// Reads every window's options now that the file's functions are known.
    pub(super) fn finish_windows(&mut self) {
        let pending = std::mem::take(&mut self.pending_windows);
        for window in pending {
            let mut budget = MAX_READ_PARTS;
            let reading = self.read(&window.composition, 0, &mut budget);
            let resolved_call = window.status == "call"
                && reading
                    .sources
                    .first()
                    .is_some_and(|s| s.resolution != "unresolved");
            let options_status = match window.status {
                "call" if resolved_call => "function-return",
                "call" => "dynamic",
                status => status,
            };
            let (web_preferences_status, prefs) = match reading.state {
                State::Missing => ("missing", Preferences::default()),
                State::Known(prefs) => ("object-literal", prefs),
                State::Dynamic | State::Unknown => ("dynamic", Preferences::default()),
            };
            if options_status == "dynamic" || web_preferences_status == "dynamic" {
                self.facts.dynamic_findings += 1;
            }
            let mut entries = prefs.entries;
            entries.sort_by(|a, b| a.0.cmp(&b.0));
            let omitted = prefs.omitted + entries.len().saturating_sub(MAX_PREFERENCES) as u64;
            entries.truncate(MAX_PREFERENCES);
            let mut sources = reading.sources;
            sources.truncate(MAX_SOURCES);
            let out = &mut self.facts.windows[window.index];
            out.options_status = options_status;
            out.web_preferences_status = web_preferences_status;
            out.web_preferences = entries;
            out.omitted_web_preferences = omitted;
            out.option_sources = sources;
            out.preload = prefs.preload;
            out.preload_alternatives = prefs.preload_alternatives;
            out.preload_expression = prefs.preload_expression;
        }
    }

    fn read(&self, composition: &Composition, depth: usize, budget: &mut usize) -> Reading {
        let mut state = State::Missing;
        let mut sources = Vec::new();
        for part in &composition.parts {
            // Every part read counts; once the budget is spent, sources stay unread.
            *budget = budget.saturating_sub(1);
            match part {
                Part::Preferences(Some(prefs)) => state = State::Known(prefs.clone()),
                Part::Preferences(None) => state = State::Dynamic,
                Part::Preference(one) => match &mut state {
                    State::Known(prefs) => prefs.merge(one),
                    State::Missing => state = State::Known(one.clone()),
                    State::Dynamic | State::Unknown => {}
                },
                Part::Spread {
                    expression,
                    source,
                    deep,
                } => {
                    let (resolution, inner) = match source {
                        _ if *budget == 0 => ("unresolved", None),
                        Source::Literal(inner, kind) => {
                            (*kind, Some(self.read(inner, depth + 1, budget)))
                        }
                        Source::Call(name) => match self.returned(name, depth, budget) {
                            Some(inner) => ("function-return", Some(inner)),
                            None => ("unresolved", None),
                        },
                        Source::Unknown => ("unresolved", None),
                    };
                    sources.push(OptionSource {
                        expression: expression.clone(),
                        resolution,
                    });
                    let inner_state = match inner {
                        Some(inner) => {
                            sources.extend(inner.sources);
                            inner.state
                        }
                        None => State::Unknown,
                    };
                    // A source that sets `webPreferences` replaces them; one that may set
                    // them leaves what was set, and makes "nothing" unknown.
                    match inner_state {
                        State::Missing => {}
                        State::Unknown => {
                            if matches!(state, State::Missing) {
                                state = State::Unknown;
                            }
                        }
                        State::Known(inner) if *deep => match &mut state {
                            State::Known(prefs) => prefs.merge(&inner),
                            _ => state = State::Known(inner),
                        },
                        known => state = known,
                    }
                }
            }
        }
        Reading { state, sources }
    }

    /// What the file's one function named `name` returns, when all its returns read the same.
    fn returned(&self, name: &str, depth: usize, budget: &mut usize) -> Option<Reading> {
        if depth >= MAX_CALL_DEPTH {
            return None;
        }
        let mut scopes = self.option_scopes.iter().filter(|(_, n)| *n == name);
        let (scope, _) = scopes.next()?;
        if scopes.next().is_some() || self.named_functions.get(name).is_some_and(|f| f.len() > 1) {
            return None;
        }
        let returns = self.option_returns.get(scope)?;
        let first = returns.first()?;
        if returns.iter().any(|r| r != first) {
            return None;
        }
        match first {
            Source::Literal(composition, _) => Some(self.read(composition, depth + 1, budget)),
            Source::Call(inner) => self.returned(inner, depth + 1, budget),
            Source::Unknown => None,
        }
    }
}

/// Whether a callee constructs a window.
pub(super) fn is_window_constructor(name: &str) -> bool {
    named(name, "BrowserWindow") || named(name, "BrowserView") || named(name, "WebContentsView")
}

/// The statements a return is looked for in, at most this deep in blocks and branches.
const MAX_RETURN_DEPTH: usize = 8;

impl Extractor<'_, '_> {
    /// `setWindowOpenHandler(handler)`: the windows a page opens (`window.open`, links with a
    /// target) are made with the options the handler returns under
    /// `overrideBrowserWindowOptions`, where its action is not `deny`. Each object the
    /// handler's function returns with such options is a window of constructor
    /// `window-open`, whose `webPreferences` and preload are read as a constructor's.
    pub(super) fn window_open_overrides(&mut self, handler: Option<&Expr>) {
        let mut objects = Vec::new();
        match handler.map(unwrap) {
            Some(Expr::Arrow(arrow)) => match &*arrow.body {
                ArrowFunctionBody::Expr(body) => returned_objects(body, &mut objects),
                ArrowFunctionBody::FunctionBody(block) => {
                    returns_in(&block.stmts, &mut objects, 0);
                }
            },
            Some(Expr::Fn(f)) => {
                if let Some(body) = &f.function.body {
                    returns_in(&body.stmts, &mut objects, 0);
                }
            }
            _ => return,
        }
        for object in objects {
            if property(object, "action")
                .and_then(string)
                .is_some_and(|a| a == "deny")
            {
                continue;
            }
            if let Some(options) = property(object, "overrideBrowserWindowOptions") {
                self.window("window-open", Some(options), options.span());
            }
        }
    }
}

/// The object literals `expr` is, through conditions.
fn returned_objects<'e>(expr: &'e Expr, out: &mut Vec<&'e ObjectLit>) {
    match unwrap(expr) {
        Expr::Object(object) => out.push(object),
        Expr::Cond(cond) => {
            returned_objects(&cond.cons, out);
            returned_objects(&cond.alt, out);
        }
        _ => {}
    }
}

/// The object literals the statements return, in their blocks and branches (not in nested
/// functions).
fn returns_in<'e>(stmts: &'e [Stmt], out: &mut Vec<&'e ObjectLit>, depth: usize) {
    if depth > MAX_RETURN_DEPTH {
        return;
    }
    for stmt in stmts {
        match stmt {
            Stmt::Return(ret) => {
                if let Some(arg) = &ret.arg {
                    returned_objects(arg, out);
                }
            }
            Stmt::Block(block) => returns_in(&block.stmts, out, depth + 1),
            Stmt::If(branch) => {
                returns_in(std::slice::from_ref(&*branch.cons), out, depth + 1);
                if let Some(alt) = &branch.alt {
                    returns_in(std::slice::from_ref(&**alt), out, depth + 1);
                }
            }
            Stmt::Switch(switch) => {
                for case in &switch.cases {
                    returns_in(&case.cons, out, depth + 1);
                }
            }
            Stmt::Try(attempt) => returns_in(&attempt.block.stmts, out, depth + 1),
            _ => {}
        }
    }
}

//! Semantic relations (`rea-javascript-semantic-relations/v1`): one lexical walk of a file that
//! records its functions, parameters, bindings, call sites and returns, what flows between
//! them, and the effects its calls have (promises, events, timers, child processes,
//! configuration reads, requests, parse and coerce boundaries, resources). Nothing is run: a
//! relation is what the syntax shows, and whatever the syntax leaves open becomes an unknown.
//!
//! **Scopes.** Function scopes and block scopes, as JavaScript has them: `var` and function
//! declarations are hoisted to their function, `let`, `const` and `class` to their block, and a
//! name resolves to the innermost declaration. A name no scope declares is a global, and only
//! the globals below are read.
//!
//! **Relations,** each from where a value (or control) comes to where it goes:
//! - `defines`: a module or function to the functions it declares (a binding's or parameter's
//!   function is its `function` field);
//! - `writes`: a value to the binding, return site or property slot it is stored in; `aliases`
//!   when a binding is initialized with another name as is; `destructures`, `spreads`,
//!   `defaults` for those forms; `reads-property` from a property slot (`x.p`, one slot per
//!   property name and file) to where its value goes, and `writes-property` into it;
//! - `reads` / `captures`: a binding to a function that reads it, in its own scope or from an
//!   enclosing one;
//! - `calls`: a call site to the function it calls, `resolved` only when the callee is that one
//!   function (a declaration, a constant initialized with a function, or a function written in
//!   place), `candidate` for each of several; `argument-to-parameter` and `returns-to-call`
//!   along a resolved call;
//! - promises: `creates-promise` (`new Promise`), `chains` (`.then`, `.catch`, `.finally`),
//!   `aggregates` (`Promise.all`, `allSettled`, `race`, `any`), `awaits`, `returns-task`,
//!   `detaches-task` (a call of an `async` function whose result is dropped), `owns` (a promise
//!   to its executor);
//! - events: `registers-listener` (an event name to its listener, for `on`, `once`,
//!   `addListener`, `prependListener`, `addEventListener`), `removes-listener`,
//!   `dispatches-candidate` (`emit`); Electron IPC channels (`ipcMain.handle`/`on`,
//!   `ipcRenderer.invoke`/`send`/`on`, `webContents.send`, on a receiver named for IPC) are
//!   events of their own (`ipc:` role keys), which the graph links across files by name;
//! - timers: `schedules-timer` (the call to its timer, the timer to its callback),
//!   `cancels-timer`;
//! - child processes (`child_process` imported or required, with or without `node:`):
//!   `spawns`, `supplies-argv`, `supplies-env`, `connects-stdio`, `listens-exit`,
//!   `listens-error`, `forwards-signal` (a `process.on("SIG…")` listener that kills the child);
//! - configuration: `reads-environment` (`process.env.X`, also destructured), `reads-argv`,
//!   `defaults` (`process.env.X || "…"`), `overrides` (`process.env.X = …`);
//! - requests: `constructs-request` (`fetch`, `http(s).request`/`get`, `axios`, `got`,
//!   `node-fetch`, `undici`, Electron's `net.request`, `new Request`, `new WebSocket`),
//!   `supplies-request-field` (`url`, `method`, `headers`, `body`), `consumed-by`;
//! - boundaries: `parses` (`JSON.parse`), `coerces` (`Number`, `String`, `Boolean`, `BigInt`,
//!   `parseInt`, `parseFloat`), `validates` (`safeParse`, `validate`, `validateSync`,
//!   `parseAsync`, and `parse` on a name ending in `schema`);
//! - resources: `acquires` (`fs` open and streams, `net`/`tls` connections and servers, HTTP
//!   servers), `releases` (`close`, `destroy`, `end` on what holds one).
//!
//! **Unknowns**: a call of a computed member, of a parameter or of a value the walk does not
//! know (`dynamic-call`, `dynamic-property`), `eval` and `Function` (`eval-or-generated-code`),
//! a callee with several candidates (`ambiguous-target`), a dynamic environment key or event
//! name, and a per-file bound (`bound-reached`). A missing relation never proves absence.
//!
//! Bounds per file: [`MAX_FILE_NODES`] nodes, [`MAX_FILE_RELATIONS`] relations and
//! [`MAX_FILE_UNKNOWNS`] unknowns; past one, the items are counted as omitted and the walk
//! stops.

use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};

use serde_json::{Value, json};
use swc_atoms::Atom;
use swc_common::{Span, Spanned};
use swc_ecma_ast::{
    ArrowExpr, ArrowFunctionBody, AssignOp, AssignTarget, AssignTargetPat, BinaryOp, Callee,
    CatchClause, Class, ClassMember, Decl, DefaultDecl, Expr, ExprOrSpread, ForHead, Function,
    Ident, ImportSpecifier, Lit, MemberExpr, MemberProp, ModuleDecl, ModuleExportName, ModuleItem,
    NewExpr, ObjectPatProp, Pat, Program, Prop, PropOrSpread, SimpleAssignTarget, Stmt, VarDecl,
    VarDeclKind,
};
use swc_ecma_visit::{Visit, VisitWith};

use super::names::{dotted, prop_name, string, unwrap};
use crate::facts::{
    SemanticCall, SemanticFacts, SemanticImport, SemanticNode, SemanticRelation, SemanticUnknown,
};
use crate::source::{Source, cut};

pub const ALGORITHM: &str = "rea-javascript-semantic-relations/v1";
pub const MAX_FILE_NODES: usize = 6_000;
pub const MAX_FILE_RELATIONS: usize = 12_000;
pub const MAX_FILE_UNKNOWNS: usize = 500;
/// Value sources kept per expression.
const MAX_SOURCES: usize = 16;
/// How deep an expression is followed for its value sources.
const MAX_SOURCE_DEPTH: u32 = 24;
/// Bytes of a name or literal kept in a role key or label.
const MAX_TEXT: usize = 256;
/// Candidates of an ambiguous callee linked.
const MAX_CANDIDATES: usize = 8;

/// Reads `program`'s semantic relations; `cancelled` is polled every 4096 expressions.
pub(crate) fn read(
    source: &Source<'_>,
    program: &Program,
    cancelled: &dyn Fn() -> bool,
) -> SemanticFacts {
    let mut walk = Walk {
        source,
        cancelled,
        out: SemanticFacts::default(),
        keys: HashMap::default(),
        relation_keys: HashSet::default(),
        scopes: Vec::new(),
        owners: Vec::new(),
        calls: Vec::new(),
        params: HashMap::default(),
        returns: HashMap::default(),
        async_fns: HashSet::default(),
        values: HashMap::default(),
        modules: HashMap::default(),
        members: HashMap::default(),
        functions_at: HashMap::default(),
        call_values: HashMap::default(),
        kills: Vec::new(),
        signals: Vec::new(),
        name_hint: None,
        relation_spans: Vec::new(),
        unknown_spans: Vec::new(),
        statement_call: None,
        steps: 0,
        stop: false,
    };
    walk.program(program);
    walk.finish();
    walk.positions();
    walk.out
}

/// A value source of an expression and how its value arrives.
#[derive(Clone, Copy, PartialEq, Eq)]
struct Src {
    node: u32,
    via: Via,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Via {
    Value,
    /// The whole expression is this name.
    Alias,
    Spread,
    Default,
}

struct Scope {
    names: HashMap<Atom, u32>,
    function: bool,
}

/// A call to resolve once every declaration is known.
struct Call {
    site: u32,
    owner: u32,
    callee: u32,
    args: Vec<Vec<Src>>,
    /// Its value is dropped (an expression statement).
    dropped: bool,
    range: Span,
}

/// What a call does, by its callee.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Effect {
    Child,
    Request,
    Timer,
    CancelTimer,
    Parses,
    Coerces,
    Validates,
    Acquires,
    Aggregates,
    Eval,
}

struct Walk<'s, 'a, 'c> {
    source: &'s Source<'a>,
    cancelled: &'c dyn Fn() -> bool,
    out: SemanticFacts,
    keys: HashMap<NodeKey, u32>,
    relation_keys: HashSet<(u32, u32, &'static str)>,
    scopes: Vec<Scope>,
    /// The function nodes being walked, innermost last; the module (0) first.
    owners: Vec<u32>,
    calls: Vec<Call>,
    /// A function's parameters by position (`None` for a destructured one), and whether the
    /// last is a rest parameter.
    params: HashMap<u32, (Vec<Option<u32>>, bool)>,
    returns: HashMap<u32, Vec<u32>>,
    async_fns: HashSet<u32>,
    /// What each binding is written with.
    values: HashMap<u32, Vec<u32>>,
    /// Bindings that hold a whole module: its specifier (`node:` removed).
    modules: HashMap<u32, String>,
    /// Bindings that hold one export of a module: its specifier and name.
    members: HashMap<u32, (String, String)>,
    /// Function nodes by their span.
    functions_at: HashMap<(u32, u32), u32>,
    /// The node a call's value is, by the call's span.
    call_values: HashMap<(u32, u32), u32>,
    /// `kill` calls: the function they are in, and the child process killed.
    kills: Vec<(u32, u32)>,
    /// `process.on("SIG…", f)`: the signal node and the listener.
    signals: Vec<(u32, u32)>,
    name_hint: Option<String>,
    /// Each relation's and unknown's byte offsets, turned into positions at the end.
    relation_spans: Vec<Option<(u32, u32)>>,
    unknown_spans: Vec<(u32, u32)>,
    /// The span of the call an expression statement consists of.
    statement_call: Option<(u32, u32)>,
    steps: u64,
    stop: bool,
}

/// A node's kind, byte offsets and role key: what makes it one node.
type NodeKey = (&'static str, Option<(u32, u32)>, String);

fn offsets_key(span: Span) -> (u32, u32) {
    (span.lo.0, span.hi.0)
}

fn short(text: &str) -> String {
    cut(text, MAX_TEXT).to_owned()
}

/// `node:fs` → `fs`; `fs/promises` stays.
fn module_name(spec: &str) -> String {
    spec.strip_prefix("node:").unwrap_or(spec).to_owned()
}

impl Walk<'_, '_, '_> {
    // ---- items -------------------------------------------------------------------------

    fn node(
        &mut self,
        kind: &'static str,
        span: Option<Span>,
        role_key: String,
        label: String,
        properties: Vec<(&'static str, Value)>,
    ) -> Option<u32> {
        self.node_with(kind, span, role_key, || (label, properties))
    }

    /// [`Self::node`], with the label and properties made only when the node is new: most
    /// calls for a shared node (a literal, a property slot, an event) find it made.
    fn node_with(
        &mut self,
        kind: &'static str,
        span: Option<Span>,
        role_key: String,
        make: impl FnOnce() -> (String, Vec<(&'static str, Value)>),
    ) -> Option<u32> {
        let offsets = span.map(|s| {
            let lo = self.source.offset(s.lo);
            (lo, self.source.offset(s.hi).max(lo))
        });
        let role_key = short_key(role_key);
        let key = (kind, offsets, role_key);
        if let Some(&i) = self.keys.get(&key) {
            return Some(i);
        }
        if self.out.nodes.len() >= MAX_FILE_NODES {
            self.out.omitted_nodes += 1;
            self.out.truncated = true;
            self.stop = true;
            return None;
        }
        let i = self.out.nodes.len() as u32;
        let (label, mut properties) = make();
        properties.sort_by_key(|(k, _)| *k);
        self.out.nodes.push(SemanticNode {
            kind,
            offsets,
            range: None,
            role_key: key.2.clone(),
            function: if kind == "module" {
                None
            } else {
                self.owners.last().copied()
            },
            label,
            properties,
        });
        self.keys.insert(key, i);
        Some(i)
    }

    fn relate(&mut self, source: u32, target: u32, relation: &'static str, span: Option<Span>) {
        self.relate_with(source, target, relation, true, Vec::new(), span);
    }

    fn relate_with(
        &mut self,
        source: u32,
        target: u32,
        relation: &'static str,
        resolved: bool,
        properties: Vec<(&'static str, Value)>,
        span: Option<Span>,
    ) {
        if source == target || !self.relation_keys.insert((source, target, relation)) {
            return;
        }
        if self.out.relations.len() >= MAX_FILE_RELATIONS {
            self.out.omitted_relations += 1;
            self.out.truncated = true;
            self.stop = true;
            return;
        }
        let mut properties = properties;
        properties.sort_by_key(|(k, _)| *k);
        self.out.relations.push(SemanticRelation {
            source,
            target,
            relation,
            resolved,
            properties,
            range: None,
        });
        self.relation_spans.push(span.map(|s| self.offsets(s)));
    }

    fn unknown(
        &mut self,
        node: Option<u32>,
        family: &'static str,
        mut relation_kinds: Vec<&'static str>,
        reason: &'static str,
        detail: String,
        candidates: Vec<u32>,
        span: Span,
    ) {
        if self.out.unknowns.len() >= MAX_FILE_UNKNOWNS {
            self.out.omitted_unknowns += 1;
            return;
        }
        relation_kinds.sort_unstable();
        relation_kinds.dedup();
        let mut candidates = candidates;
        candidates.sort_unstable();
        candidates.dedup();
        self.out.unknowns.push(SemanticUnknown {
            node,
            family,
            relation_kinds,
            reason,
            detail: short(&detail),
            candidates,
            range: None,
        });
        self.unknown_spans.push(self.offsets(span));
    }

    /// A span's byte offsets (a span in code read out of a string: the string's start).
    fn offsets(&self, span: Span) -> (u32, u32) {
        let lo = self.source.offset(span.lo);
        (lo, self.source.offset(span.hi).max(lo))
    }

    /// Every item's line and column, computed in one pass over the offsets in order: a
    /// position on a long minified line costs its distance from the previous one, not from
    /// the line's start.
    fn positions(&mut self) {
        let mut all: Vec<u32> = Vec::new();
        let spans = self
            .out
            .nodes
            .iter()
            .map(|n| n.offsets)
            .chain(self.relation_spans.iter().copied())
            .chain(self.unknown_spans.iter().copied().map(Some));
        for (lo, hi) in spans.flatten() {
            all.push(lo);
            all.push(hi);
        }
        all.sort_unstable();
        all.dedup();
        let positions: Vec<crate::facts::Pos> = all.iter().map(|o| self.source.pos(*o)).collect();
        let at = |o: u32| positions[all.binary_search(&o).unwrap_or(0)];
        let range = |(lo, hi): (u32, u32)| crate::facts::Range {
            start: at(lo),
            end: at(hi),
        };
        for node in &mut self.out.nodes {
            node.range = node.offsets.map(range);
        }
        for (r, span) in self.out.relations.iter_mut().zip(&self.relation_spans) {
            r.range = span.map(range);
        }
        for (u, span) in self.out.unknowns.iter_mut().zip(&self.unknown_spans) {
            u.range = Some(range(*span));
        }
    }

    fn owner(&self) -> u32 {
        self.owners.last().copied().unwrap_or(0)
    }

    fn kind_of(&self, node: u32) -> &'static str {
        self.out.nodes[node as usize].kind
    }

    fn tick(&mut self) -> bool {
        if self.stop {
            return false;
        }
        self.steps += 1;
        if self.steps.is_multiple_of(4096) && (self.cancelled)() {
            self.stop = true;
            self.out.truncated = true;
            return false;
        }
        true
    }

    // ---- scopes ------------------------------------------------------------------------

    fn push_scope(&mut self, function: bool) {
        self.scopes.push(Scope {
            names: HashMap::default(),
            function,
        });
    }

    fn pop_scope(&mut self) {
        self.scopes.pop();
    }

    fn resolve(&self, name: &Atom) -> Option<u32> {
        self.scopes
            .iter()
            .rev()
            .find_map(|s| s.names.get(name).copied())
    }

    /// Declares `ident` as a binding of the innermost scope (`var`: of the function's).
    fn declare(&mut self, ident: &Ident, hoisted: bool) -> Option<u32> {
        let at = if hoisted {
            self.scopes.iter().rposition(|s| s.function)
        } else {
            self.scopes.len().checked_sub(1)
        }?;
        if let Some(&existing) = self.scopes[at].names.get(&ident.sym) {
            return Some(existing);
        }
        let name = short(&ident.sym);
        let node = self.node(
            "binding",
            Some(ident.span),
            format!("binding:{name}"),
            name.clone(),
            vec![("name", json!(name))],
        )?;
        self.scopes[at].names.insert(ident.sym.clone(), node);
        Some(node)
    }

    fn bind(&mut self, name: &Atom, node: u32) {
        if let Some(scope) = self.scopes.last_mut() {
            scope.names.insert(name.clone(), node);
        }
    }

    /// Declares every name `pat` binds.
    fn declare_pat(&mut self, pat: &Pat, hoisted: bool) {
        let mut names = Vec::new();
        pat_idents(pat, &mut names);
        for ident in names {
            self.declare(ident, hoisted);
        }
    }

    /// Hoists the declarations of a statement list into the current scope: functions,
    /// `let`, `const` and `class`; at a function's level also every `var` of its body.
    fn hoist(&mut self, stmts: &[&Stmt], function_level: bool) {
        for stmt in stmts {
            if let Stmt::Decl(decl) = stmt {
                self.hoist_decl(decl);
            }
        }
        if function_level {
            let mut vars = VarNames(Vec::new());
            for stmt in stmts {
                stmt.visit_with(&mut vars);
            }
            for ident in vars.0 {
                self.declare(&ident, true);
            }
        }
    }

    fn hoist_decl(&mut self, decl: &Decl) {
        match decl {
            Decl::Fn(f) => {
                let name = f.ident.sym.to_string();
                if let Some(node) = self.function_node(&f.function, Some(&name)) {
                    self.bind(&f.ident.sym, node);
                    let owner = self.owner();
                    self.relate(owner, node, "defines", Some(f.ident.span));
                }
            }
            Decl::Var(v) => {
                for d in &v.decls {
                    self.declare_pat(&d.name, v.kind == VarDeclKind::Var);
                }
            }
            Decl::Class(c) => {
                self.declare(&c.ident, false);
            }
            _ => {}
        }
    }

    // ---- functions ---------------------------------------------------------------------

    fn function_node(&mut self, function: &Function, name: Option<&str>) -> Option<u32> {
        let arity = arity(function.params.iter().map(|p| &p.pat));
        self.callable_at(
            function.span,
            name,
            function.is_async,
            function.is_generator,
            arity,
        )
    }

    /// The function node at `span`, made once.
    fn callable_at(
        &mut self,
        span: Span,
        name: Option<&str>,
        is_async: bool,
        generator: bool,
        arity: usize,
    ) -> Option<u32> {
        let key = offsets_key(span);
        if let Some(&n) = self.functions_at.get(&key) {
            return Some(n);
        }
        let name = name.map(short);
        let label = match &name {
            Some(n) => format!("function {n}"),
            None => "anonymous function".to_owned(),
        };
        let node = self.node(
            "function",
            Some(span),
            format!("function:{}", name.as_deref().unwrap_or("")),
            label,
            vec![
                ("async", json!(is_async)),
                ("generator", json!(generator)),
                ("name", name.map_or(Value::Null, Value::from)),
                ("parameter_arity", json!(arity)),
            ],
        )?;
        if is_async {
            self.async_fns.insert(node);
        }
        self.functions_at.insert(key, node);
        Some(node)
    }

    /// Walks a function's parameters and body in its own scope.
    fn walk_function<'p>(
        &mut self,
        node: u32,
        params: impl Iterator<Item = &'p Pat>,
        body: Body<'_>,
    ) {
        self.owners.push(node);
        self.push_scope(true);
        let mut positions = Vec::new();
        let mut rest = false;
        for (i, pat) in params.enumerate() {
            let (inner, is_rest) = match pat {
                Pat::Rest(r) => (&*r.arg, true),
                Pat::Assign(a) => (&*a.left, false),
                other => (other, false),
            };
            rest = is_rest;
            let mut names = Vec::new();
            pat_idents(inner, &mut names);
            let mut first = None;
            for ident in names {
                let name = short(&ident.sym);
                let Some(p) = self.node(
                    "parameter",
                    Some(ident.span),
                    format!("parameter:{i}:{name}"),
                    name.clone(),
                    vec![("name", json!(name)), ("position", json!(i))],
                ) else {
                    break;
                };
                self.bind(&ident.sym, p);
                first.get_or_insert(p);
            }
            positions.push(if matches!(inner, Pat::Ident(_)) {
                first
            } else {
                None
            });
            if let Pat::Assign(a) = pat {
                a.right.visit_with(self);
                let sources = self.sources(&a.right);
                if let Some(p) = first {
                    for s in sources {
                        self.relate(s.node, p, "defaults", Some(a.span));
                    }
                }
            }
            if !matches!(inner, Pat::Ident(_)) {
                inner.visit_with(self);
            }
        }
        self.params.insert(node, (positions, rest));
        match body {
            Body::Block(stmts) => {
                let refs: Vec<&Stmt> = stmts.iter().collect();
                self.hoist(&refs, true);
                for stmt in stmts {
                    if !self.tick() {
                        break;
                    }
                    stmt.visit_with(self);
                }
            }
            Body::Expr(expr) => {
                expr.visit_with(self);
                let sources = self.sources(expr);
                self.return_site(node, expr.span(), sources);
            }
            Body::None => {}
        }
        self.pop_scope();
        self.owners.pop();
    }

    // ---- values ------------------------------------------------------------------------

    /// The nodes an expression's value comes from (already walked).
    fn sources(&mut self, expr: &Expr) -> Vec<Src> {
        let mut out = Vec::new();
        let whole = matches!(unwrap(expr), Expr::Ident(_));
        self.collect(expr, Via::Value, 0, &mut out);
        if whole {
            for s in &mut out {
                s.via = Via::Alias;
            }
        }
        out
    }

    fn collect(&mut self, expr: &Expr, via: Via, depth: u32, out: &mut Vec<Src>) {
        if depth > MAX_SOURCE_DEPTH || out.len() >= MAX_SOURCES || self.stop {
            return;
        }
        let push = |out: &mut Vec<Src>, node: u32| {
            if !out.iter().any(|s| s.node == node) {
                out.push(Src { node, via });
            }
        };
        match unwrap(expr) {
            Expr::Ident(ident) => {
                if let Some(n) = self.resolve(&ident.sym) {
                    push(out, n);
                }
            }
            Expr::Lit(Lit::Str(_)) | Expr::Tpl(_) if string(expr).is_some() => {
                if let Some(n) = self.literal(expr) {
                    push(out, n);
                }
            }
            Expr::Tpl(tpl) => {
                for e in &tpl.exprs {
                    self.collect(e, via, depth + 1, out);
                }
            }
            Expr::Call(call) => {
                if let Some(&n) = self.call_values.get(&offsets_key(call.span)) {
                    push(out, n);
                }
            }
            Expr::New(new) => {
                if let Some(&n) = self.call_values.get(&offsets_key(new.span)) {
                    push(out, n);
                }
            }
            Expr::OptChain(chain) => {
                if let Some(&n) = self.call_values.get(&offsets_key(chain.span)) {
                    push(out, n);
                }
            }
            Expr::Member(member) => {
                if let Some(n) = self.member_value(member) {
                    push(out, n);
                }
            }
            Expr::Cond(c) => {
                self.collect(&c.cons, via, depth + 1, out);
                self.collect(&c.alt, via, depth + 1, out);
            }
            Expr::Bin(b) => {
                let right_via = if matches!(b.op, BinaryOp::LogicalOr | BinaryOp::NullishCoalescing)
                {
                    Via::Default
                } else {
                    via
                };
                self.collect(&b.left, via, depth + 1, out);
                self.collect(&b.right, right_via, depth + 1, out);
            }
            Expr::Unary(u) => self.collect(&u.arg, via, depth + 1, out),
            Expr::Update(u) => self.collect(&u.arg, via, depth + 1, out),
            Expr::Assign(a) => self.collect(&a.right, via, depth + 1, out),
            Expr::Await(a) => self.collect(&a.arg, via, depth + 1, out),
            Expr::Yield(y) => {
                if let Some(arg) = &y.arg {
                    self.collect(arg, via, depth + 1, out);
                }
            }
            Expr::Seq(seq) => {
                if let Some(last) = seq.exprs.last() {
                    self.collect(last, via, depth + 1, out);
                }
            }
            Expr::Fn(f) => {
                if let Some(&n) = self.functions_at.get(&offsets_key(f.function.span)) {
                    push(out, n);
                }
            }
            Expr::Arrow(a) => {
                if let Some(&n) = self.functions_at.get(&offsets_key(a.span)) {
                    push(out, n);
                }
            }
            Expr::Object(object) => {
                for prop in &object.props {
                    match prop {
                        PropOrSpread::Spread(s) => {
                            self.collect(&s.expr, Via::Spread, depth + 1, out);
                        }
                        PropOrSpread::Prop(p) => match &**p {
                            Prop::KeyValue(kv) => self.collect(&kv.value, via, depth + 1, out),
                            Prop::Shorthand(ident) => {
                                if let Some(n) = self.resolve(&ident.sym) {
                                    push(out, n);
                                }
                            }
                            _ => {}
                        },
                    }
                }
            }
            Expr::Array(array) => {
                for e in array.elems.iter().flatten() {
                    let via = if e.spread.is_some() { Via::Spread } else { via };
                    self.collect(&e.expr, via, depth + 1, out);
                }
            }
            _ => {}
        }
    }

    fn literal(&mut self, expr: &Expr) -> Option<u32> {
        let value = string(expr)?;
        let value = redacted(&value);
        let text = cut(&value, MAX_TEXT);
        self.node_with("literal", None, format!("literal:{text}"), || {
            (
                serde_json::to_string(text).unwrap_or_default(),
                vec![("value", json!(text))],
            )
        })
    }

    /// The node a member expression's value is: a configuration source or a property slot.
    fn member_value(&mut self, member: &MemberExpr) -> Option<u32> {
        if let Some(node) = self.config_source(member) {
            return Some(node);
        }
        let name = member_name(&member.prop)?;
        self.property_slot(&name)
    }

    fn property_slot(&mut self, name: &str) -> Option<u32> {
        let name = cut(name, MAX_TEXT);
        self.node_with("property-slot", None, format!("property:{name}"), || {
            (format!(".{name}"), vec![("property", json!(name))])
        })
    }

    /// `process.env.X`, `process.env["X"]`, `process.argv`, `process.argv[i]`.
    fn config_source(&mut self, member: &MemberExpr) -> Option<u32> {
        let object = unwrap(&member.obj);
        if is_process_member(object, "env") {
            let key = member_name(&member.prop)?;
            return self.environment(&key);
        }
        let is_process = matches!(object, Expr::Ident(i) if i.sym == *"process");
        if is_process_member(object, "argv")
            || (is_process && member_name(&member.prop).as_deref() == Some("argv"))
        {
            return self.argv();
        }
        None
    }

    /// The configuration source `process.env.<key>`.
    fn environment(&mut self, key: &str) -> Option<u32> {
        let key = cut(key, MAX_TEXT);
        self.node_with("config-source", None, format!("environment:{key}"), || {
            (
                format!("process.env.{key}"),
                vec![("name", json!(key)), ("source", json!("environment"))],
            )
        })
    }

    fn argv(&mut self) -> Option<u32> {
        self.node_with("config-source", None, "argv".to_owned(), || {
            ("process.argv".to_owned(), vec![("source", json!("argv"))])
        })
    }

    /// The relation a value takes into a binding or slot, by where it comes from.
    fn flow_relation(&self, source: Src, into_slot: bool) -> &'static str {
        match (source.via, self.kind_of(source.node)) {
            (Via::Spread, _) => "spreads",
            (Via::Default, "literal") => "defaults",
            (_, "property-slot") => "reads-property",
            (_, "config-source") => {
                if self.out.nodes[source.node as usize].role_key == "argv" {
                    "reads-argv"
                } else {
                    "reads-environment"
                }
            }
            (_, "request") => "consumed-by",
            (Via::Alias, "binding" | "parameter") if !into_slot => "aliases",
            _ if into_slot => "writes-property",
            _ => "writes",
        }
    }

    /// A return of `function` at `span`, and what flows into it.
    fn return_site(&mut self, function: u32, span: Span, sources: Vec<Src>) {
        let Some(site) = self.node(
            "return-site",
            Some(span),
            "return".to_owned(),
            "return".to_owned(),
            Vec::new(),
        ) else {
            return;
        };
        self.returns.entry(function).or_default().push(site);
        for s in sources {
            let relation = self.return_relation(s.node);
            self.relate(s.node, site, relation, Some(span));
        }
    }

    fn return_relation(&self, source: u32) -> &'static str {
        if self.kind_of(source) == "promise" || self.returns_task(source) {
            "returns-task"
        } else {
            "writes"
        }
    }

    /// Whether `node` is a call site of a `.then` chain or of a known `async` function.
    fn returns_task(&self, node: u32) -> bool {
        let n = &self.out.nodes[node as usize];
        n.kind == "call-site"
            && (n.role_key.ends_with(".then")
                || n.role_key.ends_with(".catch")
                || n.role_key.ends_with(".finally"))
    }

    /// Stores `sources` into the binding `target`.
    fn write(&mut self, sources: &[Src], target: u32, span: Span) {
        for &s in sources {
            let relation = self.flow_relation(s, false);
            self.relate(s.node, target, relation, Some(span));
        }
        let entry = self.values.entry(target).or_default();
        entry.extend(sources.iter().map(|s| s.node));
    }

    /// Assigns `sources` (the value of `init`) to the names `pat` binds.
    fn assign_pat(&mut self, pat: &Pat, sources: &[Src], init: Option<&Expr>, span: Span) {
        match pat {
            Pat::Ident(b) => {
                let Some(target) = self
                    .resolve(&b.id.sym)
                    .or_else(|| self.declare(&b.id, false))
                else {
                    return;
                };
                if let Some(init) = init {
                    self.import_into(target, init);
                }
                self.write(sources, target, span);
            }
            Pat::Object(object) => {
                let init = init.map(unwrap);
                let env = init.is_some_and(|e| is_process_member(e, "env"));
                let module = init.and_then(require_spec);
                for prop in &object.props {
                    let (key, value, default): (Option<String>, Option<&Pat>, Option<&Expr>) =
                        match prop {
                            ObjectPatProp::KeyValue(kv) => {
                                (prop_name(&kv.key), Some(&*kv.value), None)
                            }
                            ObjectPatProp::Assign(a) => {
                                (Some(a.key.sym.to_string()), None, a.value.as_deref())
                            }
                            ObjectPatProp::Rest(r) => (None, Some(&*r.arg), None),
                        };
                    let mut names = Vec::new();
                    match (value, prop) {
                        (Some(p), _) => pat_idents(p, &mut names),
                        (None, ObjectPatProp::Assign(a)) => names.push(&a.key.id),
                        _ => {}
                    }
                    for ident in names {
                        let Some(target) = self
                            .resolve(&ident.sym)
                            .or_else(|| self.declare(ident, false))
                        else {
                            continue;
                        };
                        if let (Some(key), true) = (&key, env) {
                            if let Some(c) = self.environment(key) {
                                self.relate(c, target, "reads-environment", Some(span));
                                self.values.entry(target).or_default().push(c);
                            }
                        } else if let (Some(key), Some(spec)) = (&key, &module) {
                            self.members.insert(target, (spec.clone(), key.clone()));
                            self.out.imports.push(SemanticImport {
                                binding: target,
                                specifier: spec.clone(),
                                name: Some(key.clone()),
                            });
                        } else {
                            let properties = key
                                .as_ref()
                                .map(|k| vec![("property", json!(short(k)))])
                                .unwrap_or_default();
                            for s in sources {
                                self.relate_with(
                                    s.node,
                                    target,
                                    "destructures",
                                    true,
                                    properties.clone(),
                                    Some(span),
                                );
                            }
                            self.values
                                .entry(target)
                                .or_default()
                                .extend(sources.iter().map(|s| s.node));
                        }
                        if let Some(default) = default {
                            default.visit_with(self);
                            let defaults = self.sources(default);
                            for d in defaults {
                                self.relate(d.node, target, "defaults", Some(span));
                            }
                        }
                    }
                }
            }
            Pat::Array(array) => {
                for (i, elem) in array.elems.iter().enumerate() {
                    let Some(elem) = elem else { continue };
                    let mut names = Vec::new();
                    pat_idents(elem, &mut names);
                    for ident in names {
                        let Some(target) = self
                            .resolve(&ident.sym)
                            .or_else(|| self.declare(ident, false))
                        else {
                            continue;
                        };
                        for s in sources {
                            self.relate_with(
                                s.node,
                                target,
                                "destructures",
                                true,
                                vec![("index", json!(i))],
                                Some(span),
                            );
                        }
                        self.values
                            .entry(target)
                            .or_default()
                            .extend(sources.iter().map(|s| s.node));
                    }
                }
            }
            Pat::Assign(a) => {
                self.assign_pat(&a.left, sources, init, span);
                a.right.visit_with(self);
                let defaults = self.sources(&a.right);
                let mut names = Vec::new();
                pat_idents(&a.left, &mut names);
                for ident in names {
                    if let Some(target) = self.resolve(&ident.sym) {
                        for d in &defaults {
                            self.relate(d.node, target, "defaults", Some(span));
                        }
                    }
                }
            }
            Pat::Rest(r) => self.assign_pat(&r.arg, sources, None, span),
            Pat::Expr(e) => {
                if let Expr::Member(m) = unwrap(e) {
                    self.assign_member(m, sources, span);
                }
            }
            Pat::Invalid(_) => {}
        }
    }

    /// Records what `init` imports into `target`: `require("m")`, `require("m").x`.
    fn import_into(&mut self, target: u32, init: &Expr) {
        let init = unwrap(init);
        if let Some(spec) = require_spec(init) {
            self.modules.insert(target, spec.clone());
            self.out.imports.push(SemanticImport {
                binding: target,
                specifier: spec,
                name: None,
            });
        } else if let Expr::Member(m) = init
            && let Some(spec) = require_spec(unwrap(&m.obj))
            && let Some(name) = member_name(&m.prop)
        {
            self.members.insert(target, (spec.clone(), name.clone()));
            self.out.imports.push(SemanticImport {
                binding: target,
                specifier: spec,
                name: Some(name),
            });
        }
    }

    /// The keys of an object assigned to `module.exports`, each an export.
    fn export_object(&mut self, object: &swc_ecma_ast::ObjectLit) {
        for prop in &object.props {
            let PropOrSpread::Prop(p) = prop else {
                continue;
            };
            let (key, node) = match &**p {
                Prop::Shorthand(ident) => (ident.sym.to_string(), self.resolve(&ident.sym)),
                Prop::KeyValue(kv) => {
                    let node = self.sources(&kv.value).first().map(|s| s.node);
                    let Some(key) = prop_name(&kv.key) else {
                        continue;
                    };
                    (key, node)
                }
                Prop::Method(m) => {
                    let node = self
                        .functions_at
                        .get(&offsets_key(m.function.span))
                        .copied();
                    let Some(key) = prop_name(&m.key) else {
                        continue;
                    };
                    (key, node)
                }
                _ => continue,
            };
            if let Some(node) = node {
                self.out.exports.push((key, node));
            }
        }
    }

    /// `a.b = v`, `module.exports = v`, `exports.x = v`, `process.env.X = v`.
    fn assign_member(&mut self, member: &MemberExpr, sources: &[Src], span: Span) {
        let object = unwrap(&member.obj);
        let prop = member_name(&member.prop);
        if is_process_member(object, "env") {
            if let Some(key) = prop
                && let Some(c) = self.environment(&key)
            {
                for s in sources {
                    self.relate(s.node, c, "overrides", Some(span));
                }
            }
            return;
        }
        let exports_object = matches!(object, Expr::Ident(i) if i.sym == *"exports" && self.resolve(&i.sym).is_none())
            || matches!(object, Expr::Member(m) if is_module_exports(m));
        if is_module_exports(member) {
            if let Some(s) = sources.first() {
                self.out.exports.push(("default".to_owned(), s.node));
            }
            return;
        }
        let Some(prop) = prop else {
            if self.owners.len() <= 64 {
                self.unknown(
                    None,
                    "object-flow",
                    vec!["writes-property"],
                    "dynamic-property",
                    format!("{}[…] =", short(&dotted(object))),
                    Vec::new(),
                    span,
                );
            }
            return;
        };
        if exports_object && let Some(s) = sources.first() {
            self.out.exports.push((prop.clone(), s.node));
        }
        if let Some(slot) = self.property_slot(&prop) {
            for &s in sources {
                let relation = self.flow_relation(s, true);
                self.relate(s.node, slot, relation, Some(span));
            }
        }
    }

    // ---- calls -------------------------------------------------------------------------

    /// The module and dotted name a callee stands for: a global's path (`JSON.parse`), or a
    /// module's export (`("child_process", "spawn")`) through a binding or a `require`.
    fn callee_path(&self, callee: &Expr) -> (Option<String>, String) {
        let text = dotted(callee);
        let rest = text.split_once('.').map(|(_, rest)| rest);
        // `require("m").x(…)`
        if let Expr::Member(m) = unwrap(callee)
            && let Some(spec) = require_spec(unwrap(&m.obj))
            && let Some(name) = member_name(&m.prop)
        {
            return (Some(spec), name);
        }
        let root_node = root_ident(callee).and_then(|i| self.resolve(&i.sym));
        match root_node {
            Some(n) => {
                if let Some(spec) = self.modules.get(&n) {
                    (Some(spec.clone()), rest.unwrap_or("default").to_owned())
                } else if let Some((spec, name)) = self.members.get(&n) {
                    let path = match rest {
                        Some(rest) => format!("{name}.{rest}"),
                        None => name.clone(),
                    };
                    (Some(spec.clone()), path)
                } else {
                    (None, String::new())
                }
            }
            None => (None, text),
        }
    }

    fn effect(module: Option<&str>, path: &str, is_new: bool) -> Option<Effect> {
        let global = module.is_none();
        let path = path
            .strip_prefix("window.")
            .or_else(|| path.strip_prefix("globalThis."))
            .or_else(|| path.strip_prefix("self."))
            .unwrap_or(path);
        Some(match (module, path) {
            (
                Some("child_process"),
                "spawn" | "exec" | "execFile" | "fork" | "spawnSync" | "execSync" | "execFileSync",
            ) => Effect::Child,
            (None, "fetch") | (None, "Request") if global => Effect::Request,
            (None, "WebSocket" | "EventSource") if is_new => Effect::Request,
            (Some("http" | "https"), "request" | "get") => Effect::Request,
            (
                Some("axios"),
                "default" | "get" | "post" | "put" | "delete" | "patch" | "head" | "request",
            ) => Effect::Request,
            (Some("got"), "default" | "get" | "post" | "put" | "delete" | "patch") => {
                Effect::Request
            }
            (Some("node-fetch" | "cross-fetch" | "undici"), "default" | "fetch" | "request") => {
                Effect::Request
            }
            (Some("electron"), "net.request" | "net.fetch") => Effect::Request,
            (Some("ws"), "default" | "WebSocket") if is_new => Effect::Request,
            (None, "setTimeout" | "setInterval" | "setImmediate") => Effect::Timer,
            (Some("timers"), "setTimeout" | "setInterval" | "setImmediate") => Effect::Timer,
            (None, "clearTimeout" | "clearInterval" | "clearImmediate") => Effect::CancelTimer,
            (Some("timers"), "clearTimeout" | "clearInterval" | "clearImmediate") => {
                Effect::CancelTimer
            }
            (None, "JSON.parse") => Effect::Parses,
            (None, p)
                if matches!(
                    p,
                    "Number"
                        | "String"
                        | "Boolean"
                        | "BigInt"
                        | "parseInt"
                        | "parseFloat"
                        | "Number.parseInt"
                        | "Number.parseFloat"
                ) && !is_new =>
            {
                Effect::Coerces
            }
            (
                Some("fs" | "fs/promises"),
                "open" | "openSync" | "createReadStream" | "createWriteStream" | "watch"
                | "promises.open",
            ) => Effect::Acquires,
            (Some("net" | "tls"), "connect" | "createConnection" | "createServer") => {
                Effect::Acquires
            }
            (
                Some("http" | "https" | "http2"),
                "createServer" | "createSecureServer" | "connect",
            ) => Effect::Acquires,
            (None, "Promise.all" | "Promise.allSettled" | "Promise.race" | "Promise.any") => {
                Effect::Aggregates
            }
            (None, "eval" | "Function") => Effect::Eval,
            _ => return None,
        })
    }

    /// A call or `new` after its parts were walked: its call site, what it calls, and its
    /// effects.
    fn call(&mut self, span: Span, callee: Option<&Expr>, args: &[ExprOrSpread], is_new: bool) {
        let callee_text = callee.map_or_else(String::new, |c| short(&dotted(c)));
        // A callee that is not a dotted name is shown by its static parts only (`(…).then`):
        // its source text could hold a literal, and literals can be secrets.
        let shown = if callee_text.is_empty() {
            "(…)".to_owned()
        } else if callee_text.starts_with('.') || callee_text.contains("..") {
            let parts: Vec<&str> = callee_text
                .split('.')
                .map(|p| if p.is_empty() { "(…)" } else { p })
                .collect();
            parts.join(".")
        } else {
            callee_text.clone()
        };
        let role = if is_new {
            format!("new:{shown}")
        } else {
            format!("call:{shown}")
        };
        let label = if is_new {
            format!("new {shown}(…)")
        } else {
            format!("{shown}(…)")
        };
        let owner = self.owner();
        let Some(site) = self.node(
            "call-site",
            Some(span),
            role,
            label,
            vec![("callee", json!(shown))],
        ) else {
            return;
        };
        let key = offsets_key(span);
        self.call_values.insert(key, site);
        let dropped = self.statement_call == Some(key);
        let arg_sources: Vec<Vec<Src>> = args.iter().map(|a| self.sources(&a.expr)).collect();
        let Some(callee) = callee else { return };
        let (module, path) = self.callee_path(callee);
        let effect = Self::effect(module.as_deref(), &path, is_new);
        if let Some(effect) = effect {
            self.effect_call(effect, site, span, &path, args, &arg_sources);
            return;
        }
        match unwrap(callee) {
            Expr::Ident(ident) => match self.resolve(&ident.sym) {
                Some(target) => self.calls.push(Call {
                    site,
                    owner,
                    callee: target,
                    args: arg_sources,
                    dropped,
                    range: span,
                }),
                None if ident.sym == *"require" => {}
                None => {}
            },
            Expr::Fn(_) | Expr::Arrow(_) => {
                let mut sources = Vec::new();
                self.collect(callee, Via::Value, 0, &mut sources);
                if let Some(f) = sources.first() {
                    self.calls.push(Call {
                        site,
                        owner,
                        callee: f.node,
                        args: arg_sources,
                        dropped,
                        range: span,
                    });
                }
            }
            Expr::Member(member) => self.method_call(site, span, member, args, &arg_sources),
            Expr::Call(_) | Expr::OptChain(_) => {
                self.unknown(
                    Some(site),
                    "call-flow",
                    vec!["calls", "argument-to-parameter", "returns-to-call"],
                    "dynamic-call",
                    format!("calls the value of {shown}"),
                    Vec::new(),
                    span,
                );
            }
            _ => {}
        }
    }

    fn effect_call(
        &mut self,
        effect: Effect,
        site: u32,
        span: Span,
        path: &str,
        args: &[ExprOrSpread],
        arg_sources: &[Vec<Src>],
    ) {
        let name = short(path);
        let effect_node =
            |walk: &mut Self, kind: &'static str, properties: Vec<(&'static str, Value)>| {
                walk.node(
                    kind,
                    Some(span),
                    format!("{kind}:{name}"),
                    format!("{name}(…)"),
                    properties,
                )
            };
        let first = |i: usize| arg_sources.get(i).cloned().unwrap_or_default();
        match effect {
            Effect::Child => {
                let mut properties = vec![("api", json!(name))];
                if let Some(command) = args.first().and_then(|a| string(&a.expr)) {
                    properties.push(("command", json!(short(&command))));
                }
                let Some(child) = effect_node(self, "child-process", properties) else {
                    return;
                };
                self.relate(site, child, "spawns", Some(span));
                self.call_values.insert(offsets_key(span), child);
                for i in 0..2.min(args.len()) {
                    for s in first(i) {
                        self.relate(s.node, child, "supplies-argv", Some(span));
                    }
                }
                // The options object: `env` and `stdio`.
                for arg in args.iter().skip(1) {
                    if let Expr::Object(object) = unwrap(&arg.expr) {
                        for (field, relation) in
                            [("env", "supplies-env"), ("stdio", "connects-stdio")]
                        {
                            if let Some(value) = super::names::property(object, field) {
                                let sources = self.sources(value);
                                if relation == "connects-stdio"
                                    && let Some(stdio) = self.node(
                                        "stdio",
                                        Some(value.span()),
                                        "stdio".to_owned(),
                                        short(&self.source.expression(value.span())),
                                        Vec::new(),
                                    )
                                {
                                    self.relate(stdio, child, relation, Some(value.span()));
                                }
                                for s in sources {
                                    self.relate(s.node, child, relation, Some(value.span()));
                                }
                            }
                        }
                    }
                }
            }
            Effect::Request => {
                let mut properties = vec![("api", json!(name))];
                if let Some(url) = args.first().and_then(|a| string(&a.expr)) {
                    properties.push(("url", json!(short(&redacted(&url)))));
                }
                let Some(request) = effect_node(self, "request", properties) else {
                    return;
                };
                self.relate(site, request, "constructs-request", Some(span));
                self.call_values.insert(offsets_key(span), request);
                for (i, arg) in args.iter().enumerate().take(3) {
                    if let Expr::Object(object) = unwrap(&arg.expr) {
                        for field in [
                            "url", "method", "headers", "body", "hostname", "host", "path", "data",
                        ] {
                            if let Some(value) = super::names::property(object, field) {
                                for s in self.sources(value) {
                                    self.relate_with(
                                        s.node,
                                        request,
                                        "supplies-request-field",
                                        true,
                                        vec![("field", json!(field))],
                                        Some(value.span()),
                                    );
                                }
                            }
                        }
                    } else if i == 0 {
                        for s in first(0) {
                            self.relate_with(
                                s.node,
                                request,
                                "supplies-request-field",
                                true,
                                vec![("field", json!("url"))],
                                Some(arg.expr.span()),
                            );
                        }
                    }
                }
            }
            Effect::Timer => {
                let Some(timer) = effect_node(self, "timer", vec![("api", json!(name))]) else {
                    return;
                };
                self.relate(site, timer, "schedules-timer", Some(span));
                self.call_values.insert(offsets_key(span), timer);
                if let Some(callback) = args.first() {
                    if string(&callback.expr).is_some() {
                        self.unknown(
                            Some(site),
                            "timer",
                            vec!["schedules-timer"],
                            "eval-or-generated-code",
                            format!("{name} runs a string as code"),
                            Vec::new(),
                            span,
                        );
                    }
                    for s in first(0) {
                        if self.kind_of(s.node) == "function" {
                            self.relate(timer, s.node, "schedules-timer", Some(span));
                        }
                    }
                }
            }
            Effect::CancelTimer => {
                for s in first(0) {
                    let timers = self.held(s.node, "timer");
                    for t in timers {
                        self.relate(site, t, "cancels-timer", Some(span));
                    }
                    self.relate(s.node, site, "cancels-timer", Some(span));
                }
            }
            Effect::Parses | Effect::Coerces | Effect::Validates => {
                let relation = match effect {
                    Effect::Parses => "parses",
                    Effect::Coerces => "coerces",
                    _ => "validates",
                };
                let Some(boundary) = effect_node(
                    self,
                    "boundary",
                    vec![("api", json!(name)), ("boundary", json!(relation))],
                ) else {
                    return;
                };
                self.relate(site, boundary, relation, Some(span));
                self.call_values.insert(offsets_key(span), boundary);
                let input = if name.ends_with("validate") && arg_sources.len() > 1 {
                    1
                } else {
                    0
                };
                for s in first(input) {
                    self.relate(s.node, boundary, relation, Some(span));
                }
            }
            Effect::Acquires => {
                let Some(resource) = effect_node(self, "resource", vec![("api", json!(name))])
                else {
                    return;
                };
                self.relate(site, resource, "acquires", Some(span));
                self.call_values.insert(offsets_key(span), resource);
                for s in first(0) {
                    self.relate(s.node, resource, "acquires", Some(span));
                }
            }
            Effect::Aggregates => {
                for s in first(0) {
                    self.relate(s.node, site, "aggregates", Some(span));
                }
            }
            Effect::Eval => {
                self.unknown(
                    Some(site),
                    "data-flow",
                    vec!["calls", "reads", "writes"],
                    "eval-or-generated-code",
                    format!("{name} runs generated code"),
                    Vec::new(),
                    span,
                );
            }
        }
    }

    /// The nodes of `kind` that `node` holds: itself, or what a binding was written with.
    fn held(&self, node: u32, kind: &str) -> Vec<u32> {
        let mut out = Vec::new();
        let mut stack = vec![(node, 0)];
        while let Some((n, depth)) = stack.pop() {
            if self.kind_of(n) == kind {
                out.push(n);
            } else if depth < 4
                && let Some(values) = self.values.get(&n)
            {
                stack.extend(values.iter().map(|v| (*v, depth + 1)));
            }
        }
        out.sort_unstable();
        out.dedup();
        out
    }

    /// `x.then(f)`, `x.on("e", f)`, `x.emit("e")`, `x.close()`, `schema.parse(x)`…
    fn method_call(
        &mut self,
        site: u32,
        span: Span,
        member: &MemberExpr,
        args: &[ExprOrSpread],
        arg_sources: &[Vec<Src>],
    ) {
        let Some(method) = member_name(&member.prop) else {
            if let MemberProp::Computed(c) = &member.prop
                && string(&c.expr).is_none()
            {
                self.unknown(
                    Some(site),
                    "call-flow",
                    vec!["calls"],
                    "dynamic-property",
                    format!("calls {}[…]", short(&dotted(&member.obj))),
                    Vec::new(),
                    span,
                );
            }
            return;
        };
        let receiver = self.sources(&member.obj);
        let receiver_name = dotted(&member.obj);
        // electron-better-ipc's requests and answers on an IPC object read as Electron's own:
        // `answerRenderer([win,] channel, fn)` and `answerMain(channel, fn)` listen, and their
        // functions get the data first (no event object); `callMain(channel, data)`,
        // `callRenderer(win, channel, data)`, `callFocusedRenderer(channel, data)` and
        // `sendToRenderers(channel, data)` send.
        let mut data_first = false;
        let better =
            super::electron::better_ipc(&method).filter(|_| is_ipc_receiver(&receiver_name));
        let (method, args, arg_sources) = match better {
            Some((_, operation, mode)) => {
                let skip = super::electron::window_args(operation, args.len())
                    .min(args.len())
                    .min(arg_sources.len());
                data_first = matches!(mode, "listen" | "handle");
                let plain = if data_first { "on" } else { "send" };
                (plain.to_owned(), &args[skip..], &arg_sources[skip..])
            }
            None => (method, args, arg_sources),
        };
        let first = |i: usize| arg_sources.get(i).cloned().unwrap_or_default();
        match method.as_str() {
            "then" | "catch" | "finally" => {
                for s in &receiver {
                    self.relate(s.node, site, "chains", Some(span));
                }
                self.call_values.insert(offsets_key(span), site);
                for (i, sources) in arg_sources.iter().enumerate().take(2) {
                    for s in sources {
                        if self.kind_of(s.node) != "function" {
                            continue;
                        }
                        self.relate(site, s.node, "chains", Some(span));
                        // What the promise resolves to reaches the callback's parameter.
                        if method == "then"
                            && i == 0
                            && let Some(Some(p)) = self
                                .params
                                .get(&s.node)
                                .and_then(|(p, _)| p.first().copied())
                        {
                            for r in &receiver {
                                let relation = if self.kind_of(r.node) == "request" {
                                    "consumed-by"
                                } else {
                                    "chains"
                                };
                                self.relate(r.node, p, relation, Some(span));
                            }
                        }
                    }
                }
            }
            "handle" | "handleOnce" | "invoke" | "send" | "sendSync" | "sendToHost"
                if !is_ipc_receiver(&receiver_name) => {}
            "on"
            | "once"
            | "addListener"
            | "prependListener"
            | "prependOnceListener"
            | "addEventListener"
            | "off"
            | "removeListener"
            | "removeEventListener"
            | "emit"
            | "handle"
            | "handleOnce"
            | "invoke"
            | "send"
            | "sendSync"
            | "sendToHost" => {
                let Some(name) = args.first().and_then(|a| string(&a.expr)) else {
                    if !args.is_empty() {
                        self.unknown(
                            Some(site),
                            "event",
                            vec![
                                "registers-listener",
                                "removes-listener",
                                "dispatches-candidate",
                            ],
                            "dynamic-property",
                            format!(
                                "{}.{method} with a computed event name",
                                short(&receiver_name)
                            ),
                            Vec::new(),
                            span,
                        );
                    }
                    return;
                };
                let name = short(&name);
                // A child process's exit and error.
                let children: Vec<u32> = receiver
                    .iter()
                    .flat_map(|s| self.held(s.node, "child-process"))
                    .collect();
                if !children.is_empty()
                    && !method.starts_with("remove")
                    && method != "off"
                    && method != "emit"
                {
                    let relation = match name.as_str() {
                        "exit" | "close" => Some("listens-exit"),
                        "error" => Some("listens-error"),
                        _ => None,
                    };
                    if let Some(relation) = relation {
                        for c in &children {
                            for s in first(1) {
                                self.relate(*c, s.node, relation, Some(span));
                            }
                        }
                        return;
                    }
                }
                let is_process =
                    receiver_name == "process" && self.resolve(&Atom::from("process")).is_none();
                let ipc = is_ipc_receiver(&receiver_name);
                let (kind, role) = if is_process && name.starts_with("SIG") {
                    ("signal", format!("signal:{name}"))
                } else if ipc {
                    ("event", format!("ipc:{name}"))
                } else {
                    ("event", format!("event:{name}"))
                };
                let Some(event) = self.node_with(kind, None, role, || {
                    let mut properties = vec![("name", json!(name))];
                    if ipc {
                        properties.push(("channel", json!("electron-ipc")));
                    }
                    (name.clone(), properties)
                }) else {
                    return;
                };
                match method.as_str() {
                    "emit" | "invoke" | "send" | "sendSync" | "sendToHost" => {
                        self.relate(site, event, "dispatches-candidate", Some(span));
                        for sources in arg_sources.iter().skip(1) {
                            for s in sources {
                                self.relate(s.node, event, "dispatches-candidate", Some(span));
                            }
                        }
                    }
                    "off" | "removeListener" | "removeEventListener" => {
                        for s in first(1) {
                            self.relate(event, s.node, "removes-listener", Some(span));
                        }
                    }
                    _ => {
                        self.relate(site, event, "registers-listener", Some(span));
                        for s in first(1) {
                            self.relate(event, s.node, "registers-listener", Some(span));
                            if kind == "signal" {
                                self.signals.push((event, s.node));
                            }
                            // What is sent reaches the listener's parameters: after the IPC
                            // event object for an IPC channel, from the first otherwise.
                            let params = self.params.get(&s.node).map(|(p, _)| p.clone());
                            for (i, p) in params.into_iter().flatten().enumerate() {
                                if let Some(p) = p
                                    && (!ipc || data_first || i > 0)
                                {
                                    self.relate_with(
                                        event,
                                        p,
                                        "argument-to-parameter",
                                        true,
                                        vec![("position", json!(i))],
                                        Some(span),
                                    );
                                }
                            }
                        }
                    }
                }
            }
            "close" | "destroy" | "end" | "terminate" | "abort" | "kill" | "disconnect" => {
                let mut held: Vec<u32> = receiver
                    .iter()
                    .flat_map(|s| self.held(s.node, "resource"))
                    .collect();
                let children: Vec<u32> = receiver
                    .iter()
                    .flat_map(|s| self.held(s.node, "child-process"))
                    .collect();
                if method == "kill" {
                    let owner = self.owner();
                    for c in &children {
                        self.kills.push((owner, *c));
                    }
                }
                held.extend(children);
                for r in held {
                    self.relate(site, r, "releases", Some(span));
                }
            }
            "safeParse" | "safeParseAsync" | "parseAsync" | "validate" | "validateSync"
            | "parse"
                if method != "parse" || receiver_name.to_ascii_lowercase().ends_with("schema") =>
            {
                self.effect_call(
                    Effect::Validates,
                    site,
                    span,
                    &format!("{receiver_name}.{method}"),
                    args,
                    arg_sources,
                );
            }
            _ => {
                // `process.argv.slice(2)`: the configuration reaches the call's value.
                for s in &receiver {
                    if self.kind_of(s.node) == "config-source" {
                        let relation = self.flow_relation(*s, false);
                        self.relate(s.node, site, relation, Some(span));
                    }
                }
            }
        }
    }

    // ---- the walk ----------------------------------------------------------------------

    fn program(&mut self, program: &Program) {
        self.owners.clear();
        let Some(module) = self.node(
            "module",
            None,
            "module".to_owned(),
            String::new(),
            Vec::new(),
        ) else {
            return;
        };
        self.owners.push(module);
        self.push_scope(true);
        let stmts: Vec<&Stmt> = match program {
            Program::Module(m) => m.body.iter().filter_map(ModuleItem::as_stmt).collect(),
            Program::Script(s) => s.body.iter().collect(),
        };
        if let Program::Module(m) = program {
            for item in &m.body {
                if let ModuleItem::ModuleDecl(decl) = item {
                    self.hoist_module_decl(decl);
                }
            }
        }
        self.hoist(&stmts, true);
        match program {
            Program::Module(m) => {
                for item in &m.body {
                    if !self.tick() {
                        break;
                    }
                    item.visit_with(self);
                }
            }
            Program::Script(s) => {
                for stmt in &s.body {
                    if !self.tick() {
                        break;
                    }
                    stmt.visit_with(self);
                }
            }
        }
        self.pop_scope();
    }

    /// Imports, and the declarations an export statement holds.
    fn hoist_module_decl(&mut self, decl: &ModuleDecl) {
        match decl {
            ModuleDecl::Import(import) if !import.type_only => {
                let spec = module_name(&import.src.value.to_string_lossy());
                for specifier in &import.specifiers {
                    let (local, name) = match specifier {
                        ImportSpecifier::Named(n) if !n.is_type_only => (
                            &n.local,
                            Some(match &n.imported {
                                Some(ModuleExportName::Ident(i)) => i.sym.to_string(),
                                Some(ModuleExportName::Str(s)) => {
                                    s.value.to_string_lossy().into_owned()
                                }
                                None => n.local.sym.to_string(),
                            }),
                        ),
                        ImportSpecifier::Default(d) => (&d.local, Some("default".to_owned())),
                        ImportSpecifier::Namespace(n) => (&n.local, None),
                        ImportSpecifier::Named(_) => continue,
                    };
                    let Some(binding) = self.declare(local, false) else {
                        continue;
                    };
                    match &name {
                        Some(n) if n != "default" => {
                            self.members.insert(binding, (spec.clone(), n.clone()));
                        }
                        _ => {
                            self.modules.insert(binding, spec.clone());
                        }
                    }
                    self.out.imports.push(SemanticImport {
                        binding,
                        specifier: spec.clone(),
                        name,
                    });
                }
            }
            ModuleDecl::ExportDecl(export) => {
                self.hoist_decl(&export.decl);
            }
            ModuleDecl::ExportDefaultDecl(export) => {
                if let DefaultDecl::Fn(f) = &export.decl {
                    let name = f.ident.as_ref().map(|i| i.sym.to_string());
                    if let Some(node) = self.function_node(&f.function, name.as_deref()) {
                        if let Some(ident) = &f.ident {
                            self.bind(&ident.sym, node);
                        }
                        self.out.exports.push(("default".to_owned(), node));
                        let owner = self.owner();
                        self.relate(owner, node, "defines", Some(f.function.span));
                    }
                }
            }
            _ => {}
        }
    }

    /// Resolves the calls once every declaration is known.
    fn finish(&mut self) {
        let calls = std::mem::take(&mut self.calls);
        for call in calls {
            let targets = self.functions_of(call.callee);
            let callee_kind = self.kind_of(call.callee);
            match targets.as_slice() {
                [f] => {
                    let f = *f;
                    self.relate(call.site, f, "calls", Some(call.range));
                    if let Some((params, rest)) = self.params.get(&f).cloned() {
                        for (i, sources) in call.args.iter().enumerate() {
                            let at = if rest && i + 1 >= params.len() {
                                params.len().checked_sub(1)
                            } else {
                                Some(i)
                            };
                            let Some(Some(p)) = at.and_then(|at| params.get(at).copied()) else {
                                continue;
                            };
                            for s in sources {
                                self.relate_with(
                                    s.node,
                                    p,
                                    "argument-to-parameter",
                                    true,
                                    vec![("position", json!(i))],
                                    Some(call.range),
                                );
                            }
                        }
                    }
                    for r in self.returns.get(&f).cloned().unwrap_or_default() {
                        self.relate(r, call.site, "returns-to-call", Some(call.range));
                    }
                    if call.dropped && self.async_fns.contains(&f) {
                        self.relate(call.owner, call.site, "detaches-task", Some(call.range));
                    }
                }
                [] if self.members.contains_key(&call.callee)
                    || self.modules.contains_key(&call.callee) =>
                {
                    // A function another module exports: linked across files by the graph.
                    self.relate(call.site, call.callee, "calls", Some(call.range));
                    self.out.imported_calls.push(SemanticCall {
                        site: call.site,
                        binding: call.callee,
                        arguments: call
                            .args
                            .iter()
                            .map(|a| a.iter().map(|s| s.node).collect())
                            .collect(),
                    });
                }
                [] if callee_kind == "parameter" => {
                    let name = self.out.nodes[call.callee as usize].label.clone();
                    self.unknown(
                        Some(call.site),
                        "call-flow",
                        vec!["calls", "argument-to-parameter", "returns-to-call"],
                        "dynamic-call",
                        format!("calls parameter {name}"),
                        Vec::new(),
                        call.range,
                    );
                }
                [] => {
                    let name = self.out.nodes[call.callee as usize].label.clone();
                    self.unknown(
                        Some(call.site),
                        "call-flow",
                        vec!["calls", "argument-to-parameter", "returns-to-call"],
                        "dynamic-call",
                        format!("calls {name}, whose value is not a known function"),
                        Vec::new(),
                        call.range,
                    );
                }
                many => {
                    let many: Vec<u32> = many.iter().copied().take(MAX_CANDIDATES).collect();
                    for f in &many {
                        self.relate_with(
                            call.site,
                            *f,
                            "calls",
                            false,
                            Vec::new(),
                            Some(call.range),
                        );
                    }
                    let name = self.out.nodes[call.callee as usize].label.clone();
                    self.unknown(
                        Some(call.site),
                        "call-flow",
                        vec!["calls"],
                        "ambiguous-target",
                        format!("{name} holds one of {} functions", many.len()),
                        many,
                        call.range,
                    );
                }
            }
        }
        // An exported binding that holds one function exports that function.
        let exports = std::mem::take(&mut self.out.exports);
        self.out.exports = exports
            .into_iter()
            .map(|(name, node)| match self.functions_of(node).as_slice() {
                [f] => (name, *f),
                _ => (name, node),
            })
            .collect();
        let signals = std::mem::take(&mut self.signals);
        for (signal, listener) in signals {
            let kills: Vec<u32> = self
                .kills
                .iter()
                .filter(|(f, _)| *f == listener)
                .map(|(_, c)| *c)
                .collect();
            for c in kills {
                self.relate(signal, c, "forwards-signal", None);
            }
        }
    }

    /// The functions a callee may be: a function node, or the functions a binding that is
    /// written only with functions holds (through aliases, four hops).
    fn functions_of(&self, node: u32) -> Vec<u32> {
        let mut out = Vec::new();
        let mut stack = vec![(node, 0)];
        while let Some((n, depth)) = stack.pop() {
            match self.kind_of(n) {
                "function" => out.push(n),
                "binding" if depth < 4 => {
                    let Some(values) = self.values.get(&n) else {
                        return Vec::new();
                    };
                    for v in values {
                        stack.push((*v, depth + 1));
                    }
                }
                _ => return Vec::new(),
            }
        }
        out.sort_unstable();
        out.dedup();
        out
    }
}

enum Body<'b> {
    Block(&'b [Stmt]),
    Expr(&'b Expr),
    None,
}

fn short_key(key: String) -> String {
    if key.len() <= 1024 {
        key
    } else {
        cut(&key, 1024).to_owned()
    }
}

/// Parameters before the first default or rest parameter.
fn arity<'p>(params: impl Iterator<Item = &'p Pat>) -> usize {
    params
        .take_while(|p| !matches!(p, Pat::Assign(_) | Pat::Rest(_)))
        .count()
}

/// A literal as the graph keeps it: a URL (or a path with a query) loses its credentials,
/// fragment and query values ([`crate::redact::url`]), as secrets ship in URLs.
fn redacted(value: &str) -> std::borrow::Cow<'_, str> {
    let url_like = value.contains("://") || value.starts_with('/');
    if url_like && value.contains(['?', '#', '@']) {
        crate::redact::url(value).into()
    } else {
        value.into()
    }
}

/// Whether a receiver is Electron's IPC: `ipcMain`, `ipcRenderer`, a `webContents`, an IPC
/// event's `sender`, or a name that says so.
fn is_ipc_receiver(name: &str) -> bool {
    let last = name.rsplit('.').next().unwrap_or(name);
    last.eq_ignore_ascii_case("webContents")
        || last == "sender"
        || name.to_ascii_lowercase().contains("ipc")
}

/// The name a member chain starts from: `a` of `a.b.c`.
fn root_ident(expr: &Expr) -> Option<&Ident> {
    let mut cur = unwrap(expr);
    for _ in 0..64 {
        match cur {
            Expr::Ident(i) => return Some(i),
            Expr::Member(m) => cur = unwrap(&m.obj),
            _ => return None,
        }
    }
    None
}

fn member_name(prop: &MemberProp) -> Option<String> {
    match prop {
        MemberProp::Ident(i) => Some(i.sym.to_string()),
        MemberProp::Computed(c) => string(&c.expr),
        MemberProp::PrivateName(_) => None,
    }
}

fn is_process_member(expr: &Expr, name: &str) -> bool {
    matches!(expr, Expr::Member(m)
        if matches!(unwrap(&m.obj), Expr::Ident(i) if i.sym == *"process")
        && member_name(&m.prop).as_deref() == Some(name))
}

fn is_module_exports(member: &MemberExpr) -> bool {
    matches!(unwrap(&member.obj), Expr::Ident(i) if i.sym == *"module")
        && member_name(&member.prop).as_deref() == Some("exports")
}

/// `require("m")` (a literal specifier).
fn require_spec(expr: &Expr) -> Option<String> {
    let Expr::Call(call) = expr else { return None };
    let Callee::Expr(callee) = &call.callee else {
        return None;
    };
    if !matches!(unwrap(callee), Expr::Ident(i) if i.sym == *"require") || call.args.len() != 1 {
        return None;
    }
    string(&call.args[0].expr).map(|s| module_name(&s))
}

/// The names a pattern binds, in order.
fn pat_idents<'p>(pat: &'p Pat, out: &mut Vec<&'p Ident>) {
    match pat {
        Pat::Ident(b) => out.push(&b.id),
        Pat::Array(a) => {
            for p in a.elems.iter().flatten() {
                pat_idents(p, out);
            }
        }
        Pat::Object(o) => {
            for prop in &o.props {
                match prop {
                    ObjectPatProp::KeyValue(kv) => pat_idents(&kv.value, out),
                    ObjectPatProp::Assign(a) => out.push(&a.key.id),
                    ObjectPatProp::Rest(r) => pat_idents(&r.arg, out),
                }
            }
        }
        Pat::Rest(r) => pat_idents(&r.arg, out),
        Pat::Assign(a) => pat_idents(&a.left, out),
        Pat::Expr(_) | Pat::Invalid(_) => {}
    }
}

/// Every `var` a function body declares, nested blocks included, nested functions not.
struct VarNames(Vec<Ident>);

impl Visit for VarNames {
    fn visit_var_decl(&mut self, decl: &VarDecl) {
        if decl.kind == VarDeclKind::Var {
            for d in &decl.decls {
                let mut names = Vec::new();
                pat_idents(&d.name, &mut names);
                self.0.extend(names.into_iter().cloned());
            }
        }
    }
    fn visit_function(&mut self, _: &Function) {}
    fn visit_arrow_expr(&mut self, _: &ArrowExpr) {}
    fn visit_class(&mut self, _: &Class) {}
    fn visit_expr(&mut self, _: &Expr) {}
}

impl Visit for Walk<'_, '_, '_> {
    fn visit_stmt(&mut self, stmt: &Stmt) {
        if !self.tick() {
            return;
        }
        match stmt {
            Stmt::Expr(e) => {
                let inner = unwrap(&e.expr);
                let inner = match inner {
                    Expr::Await(a) => unwrap(&a.arg),
                    other => other,
                };
                let saved = self.statement_call.take();
                if let Expr::Call(c) = inner {
                    self.statement_call = Some(offsets_key(c.span));
                }
                e.expr.visit_with(self);
                self.statement_call = saved;
            }
            Stmt::Block(block) => {
                self.push_scope(false);
                let refs: Vec<&Stmt> = block.stmts.iter().collect();
                self.hoist(&refs, false);
                block.stmts.visit_with(self);
                self.pop_scope();
            }
            Stmt::Return(ret) => {
                let Some(arg) = &ret.arg else { return };
                arg.visit_with(self);
                let sources = self.sources(arg);
                let owner = self.owner();
                if owner != 0 {
                    self.return_site(owner, ret.span, sources);
                }
            }
            Stmt::For(f) => {
                self.push_scope(false);
                f.visit_children_with(self);
                self.pop_scope();
            }
            Stmt::ForOf(f) => {
                self.push_scope(false);
                f.right.visit_with(self);
                let sources = self.sources(&f.right);
                self.for_head(&f.left, &sources, f.span);
                f.body.visit_with(self);
                self.pop_scope();
            }
            Stmt::ForIn(f) => {
                self.push_scope(false);
                f.right.visit_with(self);
                self.for_head(&f.left, &[], f.span);
                f.body.visit_with(self);
                self.pop_scope();
            }
            _ => stmt.visit_children_with(self),
        }
    }

    fn visit_catch_clause(&mut self, clause: &CatchClause) {
        self.push_scope(false);
        if let Some(param) = &clause.param {
            self.declare_pat(param, false);
        }
        self.push_scope(false);
        let refs: Vec<&Stmt> = clause.body.stmts.iter().collect();
        self.hoist(&refs, false);
        clause.body.stmts.visit_with(self);
        self.pop_scope();
        self.pop_scope();
    }

    fn visit_var_decl(&mut self, decl: &VarDecl) {
        for d in &decl.decls {
            if !self.tick() {
                return;
            }
            if d.init.is_none() && decl.kind != VarDeclKind::Var {
                // `let x;`: written later.
                let mut names = Vec::new();
                pat_idents(&d.name, &mut names);
                for ident in names {
                    if self.resolve(&ident.sym).is_none() {
                        self.declare(ident, false);
                    }
                }
                continue;
            }
            let Some(init) = &d.init else { continue };
            if let Pat::Ident(b) = &d.name
                && matches!(unwrap(init), Expr::Fn(_) | Expr::Arrow(_) | Expr::Class(_))
            {
                self.name_hint = Some(b.id.sym.to_string());
            }
            init.visit_with(self);
            self.name_hint = None;
            let sources = self.sources(init);
            self.assign_pat(&d.name, &sources, Some(init), d.span);
        }
    }

    fn visit_fn_decl(&mut self, decl: &swc_ecma_ast::FnDecl) {
        let name = decl.ident.sym.to_string();
        self.name_hint = Some(name);
        decl.function.visit_with(self);
    }

    fn visit_function(&mut self, function: &Function) {
        let name = self.name_hint.take();
        let Some(node) = self.function_node(function, name.as_deref()) else {
            return;
        };
        for d in &function.decorators {
            d.visit_with(self);
        }
        let body = match &function.body {
            Some(b) => Body::Block(&b.stmts),
            None => Body::None,
        };
        self.walk_function(node, function.params.iter().map(|p| &p.pat), body);
    }

    fn visit_fn_expr(&mut self, f: &swc_ecma_ast::FnExpr) {
        let name = f
            .ident
            .as_ref()
            .map(|i| i.sym.to_string())
            .or_else(|| self.name_hint.take());
        self.name_hint = name;
        if let Some(ident) = &f.ident {
            // The name of a function expression is bound in its own scope.
            self.push_scope(false);
            if let Some(node) = self.function_node(&f.function, Some(ident.sym.as_ref())) {
                self.bind(&ident.sym, node);
            }
            f.function.visit_with(self);
            self.pop_scope();
        } else {
            f.function.visit_with(self);
        }
    }

    fn visit_arrow_expr(&mut self, arrow: &ArrowExpr) {
        let name = self.name_hint.take();
        let Some(node) = self.callable_at(
            arrow.span,
            name.as_deref(),
            arrow.is_async,
            arrow.is_generator,
            arity(arrow.params.iter()),
        ) else {
            return;
        };
        let body = match &*arrow.body {
            ArrowFunctionBody::FunctionBody(b) => Body::Block(&b.stmts),
            ArrowFunctionBody::Expr(e) => Body::Expr(e),
        };
        self.walk_function(node, arrow.params.iter(), body);
    }

    fn visit_class_member(&mut self, member: &ClassMember) {
        let name = match member {
            ClassMember::Method(m) => prop_name(&m.key),
            ClassMember::PrivateMethod(m) => Some(format!("#{}", m.key.name)),
            ClassMember::Constructor(_) => Some("constructor".to_owned()),
            _ => None,
        };
        self.name_hint = name;
        member.visit_children_with(self);
        self.name_hint = None;
    }

    fn visit_constructor(&mut self, ctor: &swc_ecma_ast::Constructor) {
        let name = self.name_hint.take();
        let params: Vec<&Pat> = ctor
            .params
            .iter()
            .filter_map(|p| match p {
                swc_ecma_ast::ParamOrTsParamProp::Param(p) => Some(&p.pat),
                swc_ecma_ast::ParamOrTsParamProp::TsParamProp(_) => None,
            })
            .collect();
        let arity = arity(params.iter().copied());
        let Some(node) = self.callable_at(ctor.span, name.as_deref(), false, false, arity) else {
            return;
        };
        let body = match &ctor.body {
            Some(b) => Body::Block(&b.stmts),
            None => Body::None,
        };
        self.walk_function(node, params.into_iter(), body);
    }

    fn visit_prop(&mut self, prop: &Prop) {
        match prop {
            Prop::Method(m) => {
                self.name_hint = prop_name(&m.key);
                m.function.visit_with(self);
            }
            Prop::Getter(_) | Prop::Setter(_) => prop.visit_children_with(self),
            Prop::KeyValue(kv) => {
                kv.key.visit_with(self);
                if matches!(unwrap(&kv.value), Expr::Fn(_) | Expr::Arrow(_)) {
                    self.name_hint = prop_name(&kv.key);
                }
                kv.value.visit_with(self);
                self.name_hint = None;
                if let Some(key) = prop_name(&kv.key) {
                    let sources = self.sources(&kv.value);
                    if let Some(slot) = self.property_slot(&key) {
                        for s in sources {
                            let relation = self.flow_relation(s, true);
                            self.relate(s.node, slot, relation, Some(kv.value.span()));
                        }
                    }
                }
            }
            _ => prop.visit_children_with(self),
        }
    }

    fn visit_expr(&mut self, expr: &Expr) {
        if !self.tick() {
            return;
        }
        match expr {
            Expr::Ident(ident) => {
                if let Some(n) = self.resolve(&ident.sym) {
                    let owner = self.owner();
                    let relation = match self.out.nodes[n as usize].function {
                        _ if self.kind_of(n) == "function" => return,
                        Some(f) if f != owner => "captures",
                        _ => "reads",
                    };
                    self.relate(n, owner, relation, Some(ident.span));
                }
            }
            Expr::Member(member) => {
                member.obj.visit_with(self);
                if let MemberProp::Computed(c) = &member.prop {
                    c.expr.visit_with(self);
                }
                if let Some(config) = self.config_source(member) {
                    let owner = self.owner();
                    let relation = if self.out.nodes[config as usize].role_key == "argv" {
                        "reads-argv"
                    } else {
                        "reads-environment"
                    };
                    self.relate(config, owner, relation, Some(member.span));
                } else if is_process_member(unwrap(&member.obj), "env")
                    && let MemberProp::Computed(_) = &member.prop
                {
                    self.unknown(
                        None,
                        "configuration",
                        vec!["reads-environment"],
                        "dynamic-property",
                        "process.env[…] with a computed name".to_owned(),
                        Vec::new(),
                        member.span,
                    );
                } else if let Some(name) = member_name(&member.prop) {
                    let object = self.sources(&member.obj);
                    if !object.is_empty()
                        && let Some(slot) = self.property_slot(&name)
                    {
                        for s in object {
                            if matches!(self.kind_of(s.node), "binding" | "parameter" | "boundary")
                            {
                                self.relate(s.node, slot, "reads-property", Some(member.span));
                            }
                        }
                    }
                }
            }
            Expr::Call(call) => {
                if let Callee::Expr(callee) = &call.callee {
                    self.visit_callee(callee)
                }
                call.args.visit_with(self);
                match &call.callee {
                    Callee::Expr(callee) => self.call(call.span, Some(callee), &call.args, false),
                    Callee::Import(_) => self.call(call.span, None, &call.args, false),
                    Callee::Super(_) => {}
                }
            }
            Expr::New(new) => {
                new.visit_children_with(self);
                self.new_expr(new);
            }
            Expr::Await(a) => {
                a.arg.visit_with(self);
                let sources = self.sources(&a.arg);
                let owner = self.owner();
                for s in sources {
                    self.relate(s.node, owner, "awaits", Some(a.span));
                }
            }
            Expr::Assign(assign) => {
                assign.right.visit_with(self);
                let sources = self.sources(&assign.right);
                match &assign.left {
                    AssignTarget::Simple(SimpleAssignTarget::Ident(b)) => {
                        if let Some(target) = self.resolve(&b.id.sym) {
                            if assign.op == AssignOp::Assign {
                                self.write(&sources, target, assign.span);
                            } else {
                                // `x += v`: x is no longer one known value.
                                self.values.entry(target).or_default().push(target);
                                for s in &sources {
                                    self.relate(s.node, target, "writes", Some(assign.span));
                                }
                            }
                        }
                    }
                    AssignTarget::Simple(SimpleAssignTarget::Member(m)) => {
                        m.obj.visit_with(self);
                        if let MemberProp::Computed(c) = &m.prop {
                            c.expr.visit_with(self);
                        }
                        if is_module_exports(m)
                            && let Expr::Object(object) = unwrap(&assign.right)
                        {
                            // `module.exports = {a, b: f}` exports each key.
                            self.export_object(object);
                        } else {
                            self.assign_member(m, &sources, assign.span);
                        }
                    }
                    AssignTarget::Pat(p) => {
                        let pat: Pat = match p {
                            AssignTargetPat::Array(a) => Pat::Array(a.clone()),
                            AssignTargetPat::Object(o) => Pat::Object(o.clone()),
                            AssignTargetPat::Invalid(_) => return,
                        };
                        self.assign_pat(&pat, &sources, Some(&assign.right), assign.span);
                    }
                    AssignTarget::Simple(other) => other.visit_with(self),
                }
            }
            Expr::OptChain(chain) => match &*chain.base {
                swc_ecma_ast::OptChainBase::Call(call) => {
                    self.visit_callee(&call.callee);
                    call.args.visit_with(self);
                    self.call(chain.span, Some(&call.callee), &call.args, false);
                }
                swc_ecma_ast::OptChainBase::Member(_) => chain.visit_children_with(self),
            },
            _ => expr.visit_children_with(self),
        }
    }

    fn visit_module_decl(&mut self, decl: &ModuleDecl) {
        match decl {
            ModuleDecl::Import(_) => {}
            ModuleDecl::ExportDecl(export) => {
                export.decl.visit_with(self);
                let mut names: Vec<&Ident> = Vec::new();
                match &export.decl {
                    Decl::Fn(f) => names.push(&f.ident),
                    Decl::Class(c) => names.push(&c.ident),
                    Decl::Var(v) => {
                        for d in &v.decls {
                            pat_idents(&d.name, &mut names);
                        }
                    }
                    _ => {}
                }
                for ident in names {
                    if let Some(n) = self.resolve(&ident.sym) {
                        self.out.exports.push((ident.sym.to_string(), n));
                    }
                }
            }
            ModuleDecl::ExportDefaultDecl(export) => match &export.decl {
                DefaultDecl::Fn(f) => {
                    self.name_hint = f.ident.as_ref().map(|i| i.sym.to_string());
                    f.function.visit_with(self);
                }
                other => other.visit_children_with(self),
            },
            ModuleDecl::ExportDefaultExpr(export) => {
                export.expr.visit_with(self);
                if let Some(s) = self.sources(&export.expr).first() {
                    self.out.exports.push(("default".to_owned(), s.node));
                }
            }
            ModuleDecl::ExportNamed(named) if named.src.is_none() => {
                for specifier in &named.specifiers {
                    if let swc_ecma_ast::ExportSpecifier::Named(n) = specifier
                        && let ModuleExportName::Ident(local) = &n.orig
                        && let Some(node) = self.resolve(&local.sym)
                    {
                        let exported = match &n.exported {
                            Some(ModuleExportName::Ident(i)) => i.sym.to_string(),
                            Some(ModuleExportName::Str(s)) => {
                                s.value.to_string_lossy().into_owned()
                            }
                            None => local.sym.to_string(),
                        };
                        self.out.exports.push((exported, node));
                    }
                }
            }
            _ => decl.visit_children_with(self),
        }
    }

    fn visit_class(&mut self, class: &Class) {
        self.name_hint = None;
        class.visit_children_with(self);
    }
}

impl Walk<'_, '_, '_> {
    /// A callee's parts: the object of a method, not the method as a property read.
    fn visit_callee(&mut self, callee: &Expr) {
        match unwrap(callee) {
            Expr::Member(m) => {
                m.obj.visit_with(self);
                if let MemberProp::Computed(c) = &m.prop {
                    c.expr.visit_with(self);
                }
            }
            Expr::OptChain(chain) => match &*chain.base {
                swc_ecma_ast::OptChainBase::Member(m) => {
                    m.obj.visit_with(self);
                }
                swc_ecma_ast::OptChainBase::Call(_) => callee.visit_with(self),
            },
            _ => callee.visit_with(self),
        }
    }

    fn new_expr(&mut self, new: &NewExpr) {
        let args = new.args.as_deref().unwrap_or_default();
        let callee_text = dotted(&new.callee);
        if callee_text == "Promise" && self.resolve(&Atom::from("Promise")).is_none() {
            let Some(site) = self.node(
                "call-site",
                Some(new.span),
                "new:Promise".to_owned(),
                "new Promise(…)".to_owned(),
                vec![("callee", json!("Promise"))],
            ) else {
                return;
            };
            let Some(promise) = self.node(
                "promise",
                Some(new.span),
                "promise".to_owned(),
                "new Promise".to_owned(),
                Vec::new(),
            ) else {
                return;
            };
            self.relate(site, promise, "creates-promise", Some(new.span));
            self.call_values.insert(offsets_key(new.span), promise);
            if let Some(executor) = args.first() {
                for s in self.sources(&executor.expr) {
                    if self.kind_of(s.node) == "function" {
                        self.relate(promise, s.node, "owns", Some(new.span));
                    }
                }
            }
            return;
        }
        self.call(new.span, Some(&new.callee), args, true);
    }

    fn for_head(&mut self, head: &ForHead, sources: &[Src], span: Span) {
        match head {
            ForHead::VarDecl(v) => {
                for d in &v.decls {
                    self.declare_pat(&d.name, v.kind == VarDeclKind::Var);
                    let mut names = Vec::new();
                    pat_idents(&d.name, &mut names);
                    for ident in names {
                        if let Some(n) = self.resolve(&ident.sym) {
                            // Each iteration's value: not one known value.
                            self.values.entry(n).or_default().push(n);
                            for s in sources {
                                self.relate(s.node, n, "writes", Some(span));
                            }
                        }
                    }
                }
            }
            ForHead::Pat(p) => self.assign_pat(p, sources, None, span),
            ForHead::UsingDecl(_) => {}
        }
    }
}

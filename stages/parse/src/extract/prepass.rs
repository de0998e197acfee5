//! The pre-pass: what the extraction walk needs to know before it starts.
//!
//! - Local names bound to the exports of `electron`, `child_process`, `bindings` and
//!   `node-gyp-build`, each in the function scope that binds it: `require("electron")`,
//!   `import`, a destructuring or member of a name already bound (`const {ipcMain: s} = n`),
//!   and a bundler's require of an external module (`var n = o(12)`, where the factory of
//!   key 12 is `e.exports = require("electron")`, as webpack writes externals).
//! - The chunk ids and module tables an ES-module chunk of webpack or rspack exports
//!   (`export const __webpack_esm_ids__ = [480]; export const __webpack_esm_modules__ = {…}`).
//! - The names of webpack runtime module tables (found from the runtime's `T[id](m, m.exports,
//!   req)` call, so minified names work), and esbuild `require_x = __commonJS(...)` wrappers.
//!
//! Scopes are function scopes named by where the function starts in the file, so the walk
//! that reads the aliases names them the same way. A parameter or declaration that reuses a
//! bound name in an inner function shadows it there. Block scopes are not told apart.
//! When anything was bound, a second pass picks up names used before their binding was seen.

use std::collections::BTreeMap;

use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};

use swc_common::Spanned;
use swc_ecma_ast::{
    ArrayLit, ArrowExpr, ArrowFunctionBody, AssignOp, AssignTarget, CallExpr, Decl, ExportDecl,
    Expr, Function, ImportSpecifier, ModuleExportName, NewExpr, ObjectPat, ObjectPatProp, Pat,
    Program, Prop, PropOrSpread, SimpleAssignTarget, Stmt, VarDeclarator,
};
use swc_ecma_visit::{Visit, VisitWith};

use super::bundle;
use super::constants::{self, Binding, Bound, Constant};
use super::names::{self, Anchor, callee_name, dotted, named, string, unwrap};
use super::templates::Maker;
use crate::facts::{ChannelImport, ImportFrom};
use crate::facts::{ModuleKey, StaticPath};

const ALIASED_MODULES: &[&str] = &[
    "electron",
    "child_process",
    "bindings",
    "node-gyp-build",
    "path",
    "url",
    "electron-serve",
    "@electron/remote/main",
    // Their method decorators register IPC handlers (`electron::decorator_operation`).
    "einf",
    "@doubleshot/nest-electron",
];
/// Modules aliased only so that static paths read renamed helpers (`import {join as r} from
/// "node:path"`, as rollup writes it): binding one of them alone does not call for the second
/// pre-pass, which catches facts used before their binding.
const PATH_MODULES: &[&str] = &["path", "url"];
const ELECTRON_APIS: &[&str] = &[
    "BrowserView",
    "BrowserWindow",
    "WebContentsView",
    "contextBridge",
    "ipcMain",
    "ipcRenderer",
    "shell",
    "utilityProcess",
    "webContents",
];

/// Electron's other objects whose calls the extraction reads by name (`app.on`,
/// `app.setAsDefaultProtocolClient`, `protocol.handle`, `session.fromPartition`): a local
/// renamed from one (`const { app: a } = require("electron")`, as minifiers write it) is
/// bound to its name, which is not qualified with the module as [`ELECTRON_APIS`] are.
const ELECTRON_OBJECTS: &[&str] = &["app", "protocol", "session"];

/// An Electron API's name as a require of the module writes it: the aliases of named imports
/// (`import { shell } from "electron"`) name Electron's exports bare (`shell.openExternal`),
/// where a member of the module object is `electron.shell.openExternal`. Recorded names take
/// the one form.
pub(super) fn qualified_electron_api(name: &str) -> String {
    let first = name.split('.').next().unwrap_or_default();
    if ELECTRON_APIS.contains(&first) {
        format!("electron.{name}")
    } else {
        name.to_owned()
    }
}

/// Constructors whose first argument is window options.
const WINDOW_CONSTRUCTORS: &[&str] = &["BrowserWindow", "BrowserView", "WebContentsView"];

/// The scope of the program's top level; function scopes are named by their start offset.
pub(super) const PROGRAM_SCOPE: u32 = u32::MAX;

/// How deep binding patterns are followed when looking for shadowing names.
const MAX_PATTERN_DEPTH: usize = 32;

/// The enclosing function scopes of a walk, innermost last; the program scope is first.
pub(super) struct Scopes(Vec<u32>);

impl Default for Scopes {
    fn default() -> Scopes {
        Scopes(vec![PROGRAM_SCOPE])
    }
}

impl Scopes {
    /// Enters the function that starts at `start`.
    pub(super) fn enter(&mut self, start: u32) {
        self.0.push(start);
    }

    pub(super) fn leave(&mut self) {
        if self.0.len() > 1 {
            self.0.pop();
        }
    }

    pub(super) fn current(&self) -> u32 {
        self.0.last().copied().unwrap_or(PROGRAM_SCOPE)
    }

    pub(super) fn stack(&self) -> &[u32] {
        &self.0
    }
}

/// Names bound to values, each in a function scope.
pub(super) struct Scoped<T> {
    /// name → scope → value; `None` is a binding of the same name that shadows an outer
    /// value in that scope. Minified bundles bind one short name in thousands of functions,
    /// so both binding and lookup go through maps.
    by_name: HashMap<String, HashMap<u32, Option<T>>>,
}

impl<T> Default for Scoped<T> {
    fn default() -> Scoped<T> {
        Scoped {
            by_name: HashMap::default(),
        }
    }
}

impl<T> Scoped<T> {
    pub(super) fn is_empty(&self) -> bool {
        self.by_name.is_empty()
    }

    pub(super) fn binds(&self, name: &str) -> bool {
        self.by_name.contains_key(name)
    }

    /// What `name` is bound to in the innermost scope of `scopes` that binds it.
    pub(super) fn resolve(&self, name: &str, scopes: &Scopes) -> Option<&T> {
        if self.by_name.is_empty() {
            return None;
        }
        let by_scope = self.by_name.get(name)?;
        scopes
            .stack()
            .iter()
            .rev()
            .find_map(|scope| by_scope.get(scope))?
            .as_ref()
    }

    /// What `name` is bound to in the innermost scope of `scopes` that binds it, to change.
    pub(super) fn resolve_mut(&mut self, name: &str, scopes: &Scopes) -> Option<&mut T> {
        let by_scope = self.by_name.get_mut(name)?;
        let scope = *scopes
            .stack()
            .iter()
            .rev()
            .find(|scope| by_scope.contains_key(scope))?;
        by_scope.get_mut(&scope)?.as_mut()
    }

    /// The innermost scope of `scopes` that binds `name`, and what it binds it to.
    pub(super) fn resolve_scope(&self, name: &str, scopes: &Scopes) -> Option<(u32, &T)> {
        let by_scope = self.by_name.get(name)?;
        scopes
            .stack()
            .iter()
            .rev()
            .find_map(|scope| by_scope.get(scope).map(|v| (*scope, v)))
            .and_then(|(scope, value)| Some((scope, value.as_ref()?)))
    }

    /// What `name` is bound to in the innermost of `stack` (scopes, innermost last) that
    /// binds it: a lookup made after the walk left those scopes.
    pub(super) fn resolve_in(&self, name: &str, stack: &[u32]) -> Option<&T> {
        let by_scope = self.by_name.get(name)?;
        stack
            .iter()
            .rev()
            .find_map(|scope| by_scope.get(scope))?
            .as_ref()
    }

    /// Binds `name` in `scope`. Within one scope a value outlives a shadowing declaration of
    /// the same name: the walk cannot tell which comes first at run time.
    pub(super) fn bind(&mut self, name: &str, scope: u32, value: Option<T>) {
        let by_scope = match self.by_name.get_mut(name) {
            Some(by_scope) => by_scope,
            None => self.by_name.entry(name.to_owned()).or_default(),
        };
        let slot = by_scope.entry(scope).or_insert(None);
        if slot.is_none() {
            *slot = value;
        }
    }

    /// Binds `name` in `scope` to `value`, over whatever the scope bound it to.
    pub(super) fn set(&mut self, name: &str, scope: u32, value: T) {
        self.by_name
            .entry(name.to_owned())
            .or_default()
            .insert(scope, Some(value));
    }

    /// Shadows `name` in `scope` when an outer scope binds it.
    pub(super) fn shadow(&mut self, name: &str, scope: u32) {
        if self.binds(name) {
            self.bind(name, scope, None);
        }
    }
}

/// A function of the file that hands one of its parameters to an IPC operation as the
/// channel: `function handle(channel, fn) { ipcMain.handle(channel, wrap(fn)) }`. A call of
/// it, `handle("get-user", …)`, is that operation on the channel the call passes. Or one that
/// hands it to a protocol method as the scheme it serves, `(scheme) =>
/// protocol.registerBufferProtocol(scheme, …)`: a call of it serves the scheme it passes.
#[derive(Debug, Clone, Default)]
pub(super) struct Helper {
    /// The operations it makes of its parameters, as other files see them too.
    pub(super) forwards: Vec<crate::facts::IpcForward>,
    /// The schemes it serves.
    pub(super) serves: Vec<crate::facts::SchemeForward>,
    /// The pages it loads: a parameter given to `loadFile`/`loadURL`.
    pub(super) loads: Vec<LoadForward>,
}

/// A parameter a helper hands to `loadFile`/`loadURL` (`function open(page) { const win =
/// new BrowserWindow(…); win.loadFile(page) }`): a call of it, `open("settings.html")`, loads
/// the page it passes, into the window the helper's own call loads into.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct LoadForward {
    pub(super) param: u32,
    pub(super) api: &'static str,
    /// Where the helper's own load call starts.
    pub(super) at: u32,
}

/// A call that hands Electron's `ipcMain` or `ipcRenderer` to a function of the file by its
/// name (`registerHandlers(electron.ipcMain)`, as a bundler that hoists modules into one
/// scope writes a call of another module's function) or by a member of that name (as
/// webpack calls another factory's export): the function's parameter at that place holds
/// the object ([`PrePass::bind_ipc_params`]).
struct IpcArgCall {
    /// The name called, or the member (`registerHandlers` of `(0, r.registerHandlers)(…)`,
    /// as webpack writes a call of another factory's export).
    callee: swc_atoms::Atom,
    /// Whether the callee is a member: the function is then the one the file assigns to a
    /// member of that name (`t.registerHandlers = function (e) {…}`) or declares under it,
    /// in any scope.
    member: bool,
    /// Which argument, from 0.
    index: usize,
    /// `ipcMain` or `ipcRenderer`.
    object: &'static str,
    /// The scopes around the call: a function declared in one of them is the one called.
    stack: Vec<u32>,
    /// Where the call starts.
    at: u32,
}

/// The name a callee calls a function by: a name, or a member's (`r.registerHandlers`, also
/// called indirectly, `(0, r.registerHandlers)`), with whether it is a member's.
fn called_name(callee: &Expr) -> Option<(&swc_atoms::Atom, bool)> {
    fn member(e: &Expr) -> Option<(&swc_atoms::Atom, bool)> {
        match unwrap(e) {
            Expr::Member(member) => member.prop.as_ident().map(|p| (&p.sym, true)),
            _ => None,
        }
    }
    match unwrap(callee) {
        Expr::Ident(ident) => Some((&ident.sym, false)),
        Expr::Seq(seq) => member(seq.exprs.last()?),
        other => member(other),
    }
}

/// Most (member, local) names of functions and classes a file keeps (`PrePass::exported_as`).
const MAX_EXPORTED_AS: usize = 4096;

/// Most calls handing Electron's IPC objects to a function that a file keeps.
const MAX_IPC_ARG_CALLS: usize = 256;
/// The arguments of a call read for Electron's IPC objects.
const MAX_IPC_ARGS: usize = 8;

/// A function open in the pre-pass of a file that uses Electron, read as a possible
/// [`Helper`].
struct Frame {
    scope: u32,
    /// The name a declaration binds the function to, if any.
    name: Option<String>,
    /// Where its parameters start in [`PrePass::frame_params`].
    params: usize,
    forwards: Vec<crate::facts::IpcForward>,
    serves: Vec<crate::facts::SchemeForward>,
    loads: Vec<LoadForward>,
    /// The directories its code (nested functions too) joins a dynamic last part under
    /// ([`names::served_dir`]): where it serves from, if it is a protocol handler.
    roots: Vec<StaticPath>,
    /// Whether it is a method of the innermost class.
    method: bool,
}

/// A class's methods that forward a parameter as an IPC channel ([`Helper`]s), by name.
pub(super) type Methods = Vec<(String, Helper)>;

/// Local names of aliased exports: `s` → `ipcMain`.
pub(super) type Aliases = Scoped<String>;

/// Names of webpack runtime module tables, each with the function scopes that enclose a
/// runtime call reading it (`T[id](m, m.exports, req)`): a table is declared in one of them.
/// Minifiers reuse short names, so a same-named object elsewhere is not the table.
#[derive(Default)]
pub(super) struct Tables {
    /// name → enclosing scopes of its reads; `None` for a distinctive name, in any scope.
    by_name: HashMap<String, Option<HashSet<u32>>>,
}

impl Tables {
    /// Whether a `name` declared in `scope` is a module table.
    pub(super) fn holds(&self, name: &str, scope: u32) -> bool {
        match self.by_name.get(name) {
            Some(None) => true,
            Some(Some(scopes)) => scopes.contains(&scope),
            None => false,
        }
    }

    fn any_scope(&mut self, name: String) {
        self.by_name.insert(name, None);
    }

    fn read_from(&mut self, name: String, scopes: &[u32]) {
        if let Some(set) = self
            .by_name
            .entry(name)
            .or_insert_with(|| Some(HashSet::default()))
        {
            set.extend(scopes.iter().copied());
        }
    }
}

/// `dotted` name with its first segment replaced by what it aliases in `scopes`.
pub(super) fn normalize(aliases: &Aliases, scopes: &Scopes, name: String) -> String {
    if aliases.is_empty() {
        return name;
    }
    let (first, rest) = split_first(&name);
    let target = if first.starts_with("this.") {
        // A member of `this` in a class is the class's, bound in its scope or inside it.
        let stack = scopes.stack();
        let class = stack
            .iter()
            .rposition(|&scope| scope != PROGRAM_SCOPE && scope & CLASS_SCOPE != 0);
        aliases.resolve_in(first, &stack[class.unwrap_or(0)..])
    } else {
        aliases.resolve(first, scopes)
    };
    let Some(target) = target else {
        return name;
    };
    // A module's `default` is the module itself where an alias names it whole: the
    // interop helpers compilers wrap a CommonJS module in (`(0, m_1.default)(…)` after
    // `m_1 = __importDefault(require("m"))`) hand back `module.exports` as `default`.
    let rest = match rest {
        Some(rest) if is_module_root(target) => match rest.strip_prefix("default") {
            Some("") => None,
            Some(after) => after.strip_prefix('.').map_or(Some(rest), Some),
            None => Some(rest),
        },
        other => other,
    };
    match rest {
        Some(rest) => format!("{target}.{rest}"),
        None => target.to_owned(),
    }
}

/// A dotted name's first segment, and the rest: a member of `this` is one segment
/// (`this.ipc`, and `_this.ipc`, as [`this_member`] names it), whose alias is the member's.
fn split_first(name: &str) -> (&str, Option<&str>) {
    let start = if name.starts_with("this.") {
        Some(0)
    } else if name.starts_with("_this.") {
        Some(1)
    } else {
        None
    };
    if let Some(start) = start {
        let member = start + "this.".len();
        let end = member + name[member..].find('.').unwrap_or(name.len() - member);
        let rest = (end < name.len()).then(|| &name[end + 1..]);
        return (&name[start..end], rest);
    }
    match name.split_once('.') {
        Some((first, rest)) => (first, Some(rest)),
        None => (name, None),
    }
}

/// The names webpack's export getters return, with the names they export them under:
/// `n.d(t, {api: () => o, other: function () { return p; }})`, and the other forms
/// [`bundle::webpack_exports`] reads.
pub(super) fn export_getters(call: &CallExpr) -> impl Iterator<Item = (String, &str)> {
    bundle::webpack_exports(call)
        .into_iter()
        .filter_map(|(name, value)| match unwrap(value) {
            Expr::Ident(local) => Some((name, &*local.sym)),
            _ => None,
        })
}

/// The scope of a class's constructor, which is no function of its own to swc.
pub(super) fn constructor_scope(constructor: &swc_ecma_ast::Constructor) -> u32 {
    constructor.span.lo.0
}

/// `this.x`, `this.#x`, or `_this.x` (how TypeScript and Babel read `this` in a callback
/// they compile an arrow function's into): the name [`normalize`] reads a member of `this` by.
pub(super) fn this_member(member: &swc_ecma_ast::MemberExpr) -> Option<String> {
    let this = match unwrap(&member.obj) {
        Expr::This(_) => true,
        Expr::Ident(ident) => ident.sym == *"_this",
        _ => false,
    };
    if !this {
        return None;
    }
    match &member.prop {
        swc_ecma_ast::MemberProp::Ident(prop) => Some(format!("this.{}", prop.sym)),
        swc_ecma_ast::MemberProp::PrivateName(prop) => Some(format!("this.#{}", prop.name)),
        swc_ecma_ast::MemberProp::Computed(_) => None,
    }
}

/// The scope of a class's members: names bound there (a member of `this`, see
/// `PrePass::bind_this_member`) are the class's own. Its id is the class's start, marked.
pub(super) fn class_scope(class: &swc_ecma_ast::Class) -> u32 {
    class.span.lo.0 | CLASS_SCOPE
}

/// The bit that marks a class's scope (the program's, `u32::MAX`, aside): no file parsed is
/// 2 GiB long, so no function starts there. Inside a class, `this` is the class's, never
/// that of a function around it.
const CLASS_SCOPE: u32 = 1 << 31;

/// The name a parameter pattern binds when it is a plain name (`x`, or `x = 1`).
fn pat_name(pat: &Pat) -> Option<swc_atoms::Atom> {
    match pat {
        Pat::Ident(ident) => Some(ident.id.sym.clone()),
        Pat::Assign(assign) => match &*assign.left {
            Pat::Ident(ident) => Some(ident.id.sym.clone()),
            _ => None,
        },
        _ => None,
    }
}

/// A function parameter's name for [`Frame`]s: as [`pat_name`], and a rest parameter as
/// `...args`, as a spread of it (`ipcMain.handle(...args)`) names the channel.
fn param_name(pat: &Pat) -> Option<swc_atoms::Atom> {
    match pat {
        Pat::Rest(rest) => match &*rest.arg {
            Pat::Ident(ident) => Some(format!("...{}", ident.id.sym).into()),
            _ => None,
        },
        other => pat_name(other),
    }
}

/// The export `Object.defineProperty(exports, "A", {…})` defines, and the expression it
/// holds ([`bundle::described_value`]).
fn defined_export(call: &CallExpr) -> Option<(String, &Expr)> {
    let [target, name, descriptor] = call.args.as_slice() else {
        return None;
    };
    if dotted(call.callee.as_expr()?) != "Object.defineProperty"
        || !matches!(dotted(&target.expr).as_str(), "exports" | "module.exports")
    {
        return None;
    }
    let Expr::Object(descriptor) = unwrap(&descriptor.expr) else {
        return None;
    };
    Some((string(&name.expr)?, bundle::described_value(descriptor)?))
}

/// The (exported, local) names an assignment to a CommonJS export exports (`export` is `""`
/// for `module.exports`): the name assigned (`exports.A = A`, `module.exports = api`), or each
/// member of an object written with a name as its value (`module.exports = { A, B: b }`).
fn exported_names(export: String, value: &Expr) -> Vec<(String, String)> {
    match unwrap(value) {
        Expr::Ident(local) => vec![(export, local.sym.to_string())],
        Expr::Object(object) if export.is_empty() => object
            .props
            .iter()
            .filter_map(|prop| match prop {
                PropOrSpread::Prop(prop) => match &**prop {
                    Prop::Shorthand(name) => Some((name.sym.to_string(), name.sym.to_string())),
                    Prop::KeyValue(kv) => match unwrap(&kv.value) {
                        Expr::Ident(local) => {
                            Some((names::prop_name(&kv.key)?, local.sym.to_string()))
                        }
                        _ => None,
                    },
                    _ => None,
                },
                PropOrSpread::Spread(_) => None,
            })
            .collect(),
        _ => Vec::new(),
    }
}

/// Whether `init` is a page's WebContents: a member `.webContents`, what Electron's
/// `webContents` module looks one up by (`webContents.fromId(id)`,
/// `webContents.getFocusedWebContents()`), one found in a list of them
/// (`webContents.getAllWebContents().find(…)`), or a choice one of whose branches is one and
/// none a literal (`target || win.webContents`).
fn holds_web_contents(init: &Expr) -> bool {
    let contents =
        |e: &Expr| matches!(unwrap(e), Expr::Member(m) if m.prop.is_ident_with("webContents"));
    // Most declarations are neither: no list of branches for them.
    match unwrap(init) {
        Expr::Member(_) => return contents(init),
        Expr::Call(call) => return looked_up_web_contents(call),
        Expr::Bin(_) | Expr::Cond(_) => {}
        _ => return false,
    }
    let mut branches = Vec::new();
    names::alternatives(init, &mut branches, 0);
    branches.iter().any(|b| contents(b))
        && branches
            .iter()
            .all(|b| matches!(unwrap(b), Expr::Ident(_) | Expr::Member(_) | Expr::Call(_)))
}

/// Whether `call` gives one page's WebContents: `webContents.fromId(id)` and the module's
/// other look-ups, or `find` in a list of them ([`web_contents_list`]).
pub(super) fn looked_up_web_contents(call: &CallExpr) -> bool {
    match method_call(call) {
        Some((
            object,
            "fromId" | "fromFrame" | "fromDevToolsTargetId" | "getFocusedWebContents",
        )) => names_web_contents_module(object),
        Some((list, "find" | "findLast")) => web_contents_list(list),
        _ => false,
    }
}

/// The object and the method a call of a member names (`list` and `forEach` of
/// `list.forEach(…)`).
fn method_call(call: &CallExpr) -> Option<(&Expr, &str)> {
    match call.callee.as_expr().map(|c| unwrap(c))? {
        Expr::Member(callee) => Some((&callee.obj, &*callee.prop.as_ident()?.sym)),
        _ => None,
    }
}

/// Whether `object` is written as Electron's `webContents` module: `webContents`, or a member
/// `x.webContents` (`electron.webContents`, `electron_1.webContents`).
fn names_web_contents_module(object: &Expr) -> bool {
    match unwrap(object) {
        Expr::Ident(ident) => &*ident.sym == "webContents",
        Expr::Member(member) => member.prop.is_ident_with("webContents"),
        _ => false,
    }
}

/// Whether `list` is a list of every page's WebContents, `webContents.getAllWebContents()`,
/// or such a list filtered, sorted or sliced.
fn web_contents_list(list: &Expr) -> bool {
    web_contents_list_or(list, &|_| false)
}

/// [`web_contents_list`], where `bound` tells a name bound to such a list.
fn web_contents_list_or(list: &Expr, bound: &dyn Fn(&str) -> bool) -> bool {
    let mut list = list;
    loop {
        let call = match unwrap(list) {
            Expr::Call(call) => call,
            Expr::Ident(name) => return bound(&name.sym),
            _ => return false,
        };
        match method_call(call) {
            Some((module, "getAllWebContents")) => return names_web_contents_module(module),
            Some((inner, "filter" | "slice" | "sort" | "reverse")) => list = inner,
            _ => return false,
        }
    }
}

/// The function a call hands each item of a list of pages' WebContents to
/// (`webContents.getAllWebContents().forEach((wc) => wc.send("x"))`): where it starts.
fn web_contents_callback(call: &CallExpr, is_list: impl Fn(&Expr) -> bool) -> Option<u32> {
    let (list, method) = method_call(call)?;
    if !matches!(
        method,
        "forEach" | "map" | "filter" | "some" | "every" | "find" | "findLast"
    ) || !is_list(list)
    {
        return None;
    }
    match call.args.first().map(|a| unwrap(&a.expr)) {
        Some(Expr::Fn(f)) => Some(f.function.span.lo.0),
        Some(Expr::Arrow(a)) => Some(a.span.lo.0),
        _ => None,
    }
}

/// Whether `init` is a service worker's main-process object (Electron 36 on), whose `send`
/// messages its preload and whose `ipc` receives them: what `session.serviceWorkers`'
/// `startWorkerForScope(scope)` gives (awaited or not) or `getWorkerFromVersionID(id)`
/// returns.
fn holds_service_worker(init: &Expr) -> bool {
    let init = match unwrap(init) {
        Expr::Await(awaited) => unwrap(&awaited.arg),
        other => other,
    };
    let Expr::Call(call) = init else {
        return false;
    };
    call.callee.as_expr().is_some_and(|callee| {
        matches!(unwrap(callee), Expr::Member(m)
            if m.prop.is_ident_with("startWorkerForScope") || m.prop.is_ident_with("getWorkerFromVersionID"))
    })
}

/// The name a named import imports: `a` of `import { a as b }`, or of `import { a }`.
fn imported_name(named: &swc_ecma_ast::ImportNamedSpecifier) -> String {
    match &named.imported {
        Some(ModuleExportName::Ident(i)) => i.sym.to_string(),
        Some(ModuleExportName::Str(s)) => s.value.to_string_lossy().into_owned(),
        None => named.local.sym.to_string(),
    }
}

/// The module `init` requires when its exports may be read ([`importable`]):
/// `require("./x")`, or an interop helper around it (`__importStar(require("./x"))`).
fn imported_require(init: &Expr) -> Option<String> {
    let spec = require_spec(init).or_else(|| match unwrap(init) {
        Expr::Call(call) if call.args.len() == 1 => require_spec(&call.args[0].expr),
        _ => None,
    })?;
    importable(&spec).then_some(spec)
}

/// Whether what a specifier's module exports may be read from the application's files: a
/// relative specifier or a package's (`@electron-toolkit/preload`), but not the modules read
/// as aliases (`electron`, `path`), Node's built-ins by scheme, or URLs.
pub(super) fn importable(spec: &str) -> bool {
    !spec.is_empty() && !spec.contains(':') && aliased_module(spec).is_none()
}

/// The name a member chain starts from (`a` of `a.b.c`), read without allocating.
pub(super) fn root_name(expr: &Expr) -> Option<&str> {
    let mut cur = unwrap(expr);
    for _ in 0..MAX_PATTERN_DEPTH {
        match cur {
            Expr::Ident(ident) => return Some(&ident.sym),
            Expr::Member(member) => cur = unwrap(&member.obj),
            Expr::OptChain(chain) => match &*chain.base {
                swc_ecma_ast::OptChainBase::Member(member) => cur = unwrap(&member.obj),
                swc_ecma_ast::OptChainBase::Call(_) => return None,
            },
            _ => return None,
        }
    }
    None
}

/// The globals a page's window is reached through.
const WINDOW_ROOTS: &[&str] = &["window", "globalThis", "self"];

/// Whether an alias target names a whole module (`electron`, `bindings`), not an export.
fn is_module_root(target: &str) -> bool {
    ALIASED_MODULES.contains(&target)
}

/// The module a `require("x")` (or `import`) names, when it is one we alias.
/// The aliased module a member chain starts from when its root is the module's `require`
/// call written in place: `child_process` for `require("child_process").exec`.
pub(super) fn required_root(expr: &Expr) -> Option<&'static str> {
    let mut cur = unwrap(expr);
    for _ in 0..MAX_PATTERN_DEPTH {
        match cur {
            Expr::Member(member) => cur = unwrap(&member.obj),
            Expr::Call(call) => return aliased_module(&require_call_spec(call)?),
            _ => return None,
        }
    }
    None
}

pub(super) fn aliased_module(spec: &str) -> Option<&'static str> {
    let spec = spec.strip_prefix("node:").unwrap_or(spec);
    // Electron's entry points by process (`import { ipcMain } from "electron/main"`) are
    // Electron's.
    if ELECTRON_ENTRY_POINTS.contains(&spec) || reexports_electron(spec) {
        return Some("electron");
    }
    ALIASED_MODULES.iter().copied().find(|m| *m == spec)
}

/// Whether a specifier names a module that hands Electron back: one of the application's
/// own, or a package's, whose file is named `electron` (`@theia/electron/shared/electron`,
/// `../electron-shared/electron.js`), as applications that load Electron in one place
/// re-export it.
fn reexports_electron(spec: &str) -> bool {
    let Some((_, file)) = spec.rsplit_once('/') else {
        return false;
    };
    let file = [".js", ".cjs", ".mjs"]
        .iter()
        .find_map(|ext| file.strip_suffix(ext))
        .unwrap_or(file);
    file == "electron" && !spec.starts_with("electron/")
}

/// Whether a call takes no arguments and names a getter of Electron (`requireElectron()`,
/// `loadElectron()`, `getElectron()`, also another module's, `(0, u.requireElectron)()`), as
/// code that may run outside Electron loads it: what it returns is Electron.
fn electron_getter(init: &Expr) -> bool {
    let Expr::Call(call) = unwrap(init) else {
        return false;
    };
    let Some((name, _)) = call
        .callee
        .as_expr()
        .filter(|_| call.args.is_empty())
        .and_then(|callee| called_name(callee))
    else {
        return false;
    };
    ["require", "load", "get", "import"]
        .iter()
        .any(|verb| name.strip_prefix(verb) == Some("Electron"))
}

/// The module names Electron also answers to, one per process type, and
/// electron-better-ipc, whose `ipcMain` and `ipcRenderer` extend Electron's.
const ELECTRON_ENTRY_POINTS: &[&str] = &[
    "electron/main",
    "electron/renderer",
    "electron/common",
    "electron/utility",
    "electron-better-ipc",
];

/// The aliased module an alias target belongs to (`ipcMain.on` → `electron`).
pub(super) fn module_of(target: &str) -> Option<&'static str> {
    let first = target.split('.').next()?;
    if first == "electron" || ELECTRON_APIS.contains(&first) {
        return Some("electron");
    }
    ALIASED_MODULES.iter().copied().find(|m| *m == first)
}

/// The string a `require("…")` names, or a dynamic `import("…")` whose module is waited for
/// (`await import("electron")`, and `yield import("electron")` as TypeScript compiles an
/// `await` for older targets): the module, like a `require`'s.
pub(super) fn require_spec(expr: &Expr) -> Option<String> {
    let imported = |arg: &Expr| match unwrap(arg) {
        Expr::Call(
            call @ CallExpr {
                callee: swc_ecma_ast::Callee::Import(_),
                ..
            },
        ) => call.args.first().and_then(|a| string(&a.expr)),
        _ => None,
    };
    match unwrap(expr) {
        Expr::Call(call) => require_call_spec(call),
        Expr::Await(awaited) => imported(&awaited.arg),
        Expr::Yield(yielded) if !yielded.delegate => yielded.arg.as_deref().and_then(imported),
        _ => None,
    }
}

/// The string a `require("…")` (or `x.require("…")`) call names.
pub(super) fn require_call_spec(call: &CallExpr) -> Option<String> {
    let name = callee_name(&call.callee);
    if name == "require" || named(&name, "require") {
        call.args.first().and_then(|a| string(&a.expr))
    } else {
        None
    }
}

/// Whether `expr` can be a path worth binding to a member, checked without allocating: a
/// directory-like string (`""`, `"./"`, `"/x/"`, as publicPath is written), or a concatenation,
/// template or `join`/`resolve` call, which may be anchored. Minified code assigns members by
/// the thousand (`e.exports = n(12)`), so most never reach [`names::static_path`].
fn may_be_path(expr: &Expr) -> bool {
    match unwrap(expr) {
        Expr::Lit(swc_ecma_ast::Lit::Str(s)) => {
            let len = s.value.len();
            len == 0 || (len <= 256 && s.value.as_bytes().ends_with(b"/"))
        }
        Expr::Bin(bin) => bin.op == swc_ecma_ast::BinaryOp::Add,
        Expr::Tpl(tpl) => !tpl.exprs.is_empty(),
        Expr::Call(call) => {
            let name = match call.callee.as_expr().map(|c| unwrap(c)) {
                Some(Expr::Ident(ident)) => &ident.sym,
                Some(Expr::Member(member)) => match member.prop.as_ident() {
                    Some(prop) => &prop.sym,
                    None => return false,
                },
                _ => return false,
            };
            *name == *"join" || *name == *"resolve"
        }
        _ => false,
    }
}

impl PrePass {
    /// Notes `call` if it is a wrapper call written in place ([`Self::inline_wrappers`]): one
    /// function handed to a name bound to a wrapper helper, or to a helper written there.
    fn inline_wrapper(&mut self, call: &CallExpr) {
        let [arg] = call.args.as_slice() else {
            return;
        };
        let span = (call.span.lo.0, call.span.hi.0);
        if arg.spread.is_some()
            || !bundle::is_function(&arg.expr)
            || self.wrapper_calls.contains_key(&span)
        {
            return;
        }
        let kind = match call.callee.as_expr().map(|c| unwrap(c)) {
            Some(Expr::Ident(helper)) => self.wrappers.resolve(&helper.sym, &self.scopes).copied(),
            Some(helper @ (Expr::Arrow(_) | Expr::Fn(_))) => {
                bundle::esbuild_helper(helper).map(|(kind, bundler)| {
                    self.rolldown_helpers |= bundler == "rolldown";
                    kind
                })
            }
            _ => None,
        };
        if let Some(kind) = kind {
            self.wrapper_calls.insert(span, (kind, None));
            self.inline_wrappers.insert(span);
        }
    }
    /// `name = path` where `name` is a `var` or `let` bound to static paths: the path joins
    /// them, as one more value the name may hold.
    fn assign_path(&mut self, name: &str, value: &Expr) {
        let Some(path) = names::static_path(value, self) else {
            return;
        };
        if let Some(bound) = self.paths.resolve_mut(name, &self.scopes)
            && bound.how == Binding::Declared
            && bound.paths.len() < MAX_PATH_ALTERNATIVES
        {
            if !bound.paths.contains(&path) {
                bound.paths.push(path);
            }
            bound.assigned += 1;
        }
    }

    /// Names a window's options read through: names bound to option literals, spread or
    /// passed to `Object.assign` (also inside `webPreferences`), and functions called for
    /// options.
    fn window_options(&mut self, expr: &Expr, depth: usize) {
        if depth > 4 {
            return;
        }
        match unwrap(expr) {
            Expr::Ident(ident) => {
                self.object_names.insert(ident.sym.to_string());
                self.option_names.insert(ident.sym.to_string());
            }
            Expr::Object(obj) => {
                for prop in &obj.props {
                    match prop {
                        PropOrSpread::Spread(spread) => {
                            self.window_options(&spread.expr, depth + 1)
                        }
                        PropOrSpread::Prop(prop) => match &**prop {
                            Prop::KeyValue(kv)
                                if names::prop_name(&kv.key).as_deref()
                                    == Some("webPreferences") =>
                            {
                                self.window_options(&kv.value, depth + 1)
                            }
                            Prop::Shorthand(ident) if ident.sym == *"webPreferences" => {
                                self.object_names.insert(ident.sym.to_string());
                                self.option_names.insert(ident.sym.to_string());
                            }
                            _ => {}
                        },
                    }
                }
            }
            Expr::Call(call) => {
                let Some(callee) = call.callee.as_expr() else {
                    return;
                };
                let name = dotted(callee);
                if super::windows::merger(&name, call.args.len()).is_some() {
                    for arg in &call.args {
                        self.window_options(&arg.expr, depth + 1);
                    }
                } else if let Some(last) = name.rsplit('.').next().filter(|l| !l.is_empty()) {
                    self.option_functions.insert(last.to_owned());
                }
            }
            _ => {}
        }
    }
}

/// Most entries of Vite's preload table read (reference §3.5).
const MAX_VITE_DEPS: usize = 256;

/// The strings of the array Vite's `__vite__mapDeps` caches as its table (`m.f = […]`).
fn vite_table(init: &Expr) -> Vec<String> {
    struct Table(Option<Vec<String>>);
    impl Visit for Table {
        fn visit_assign_expr(&mut self, assign: &swc_ecma_ast::AssignExpr) {
            if self.0.is_none()
                && let AssignTarget::Simple(SimpleAssignTarget::Member(member)) = &assign.left
                && member.prop.is_ident_with("f")
                && let Expr::Array(array) = unwrap(&assign.right)
            {
                let strings: Option<Vec<String>> = array
                    .elems
                    .iter()
                    .take(MAX_VITE_DEPS)
                    .map(|e| {
                        e.as_ref()
                            .filter(|e| e.spread.is_none())
                            .and_then(|e| string(&e.expr))
                    })
                    .collect();
                self.0 = Some(strings.unwrap_or_default());
                return;
            }
            assign.visit_children_with(self);
        }
    }
    let mut table = Table(None);
    init.visit_with(&mut table);
    table.0.unwrap_or_default()
}

/// Directories kept per function read as a possible protocol handler ([`Frame::roots`]).
const MAX_FRAME_ROOTS: usize = 4;

/// Most members per file whose assigned static paths are kept.
const MAX_MEMBER_PATHS: usize = 4096;

#[derive(Default)]
pub(super) struct PrePass {
    pub(super) aliases: Aliases,
    pub(super) tables: Tables,
    pub(super) esbuild: HashMap<String, ModuleKey>,
    /// esbuild's wrapper helpers known by their shape ([`bundle::esbuild_helper`]), by the
    /// names they are bound to.
    wrappers: Scoped<bundle::Wrapper>,
    /// Calls of those helpers, by span: what each wraps, and the key of a module written
    /// as the function alone (the name the call is bound to).
    pub(super) wrapper_calls: HashMap<(u32, u32), (bundle::Wrapper, Option<String>)>,
    /// Wrapper calls written where their module is first required, not bound to a name
    /// (a subset of [`Self::wrapper_calls`], with no key): rolldown's minifier inlines a
    /// wrapper bound once, `c(o((e, t) => {…})())`, and a helper used once,
    /// `((e, t) => () => …)((e, t) => {…})()`. The walk keys each by its offset.
    pub(super) inline_wrappers: HashSet<(u32, u32)>,
    /// Calls of a name imported by name from a relative module (which may be esbuild's
    /// wrapper helper in a split build's shared chunk) with a function alone, bound to a
    /// name, by span: (specifier, imported name, the name bound), modules once the helper
    /// is known ([`crate::facts::ImportedWrapper`]).
    pub(super) imported_calls: HashMap<(u32, u32), (String, String, String)>,
    /// Vite's preload table: the strings of the `m.f || (m.f = […])` array that
    /// `const __vite__mapDeps = (i, m = __vite__mapDeps, d = (m.f || (m.f = […]))) => …`
    /// declares, at most [`MAX_VITE_DEPS`].
    pub(super) vite_deps: Vec<String>,
    /// Wrapper helpers the file exports, by exported name.
    pub(super) exported_helpers: Vec<(String, bundle::Wrapper)>,
    /// Whether rolldown wrote the file's wrapper helpers (one of them calls a module's function
    /// as rolldown does); else esbuild did.
    pub(super) rolldown_helpers: bool,
    /// Module keys whose factory only re-exports an aliased module.
    pub(super) externals: HashMap<String, &'static str>,
    /// Chunk ids an ES-module chunk exports (`export const __webpack_esm_ids__ = [480]`), or
    /// a CommonJS chunk assigns (`exports.ids = [480]`).
    pub(super) esm_chunk_ids: Option<(Vec<String>, u64)>,
    /// Where the module tables an ES-module chunk exports (or a CommonJS chunk assigns) start.
    pub(super) esm_tables: HashSet<u32>,
    /// Identifiers passed where the walk reads an object literal: a `contextBridge` API
    /// (`exposeInMainWorld("api", api)`) or window options (`new BrowserWindow(options)`).
    /// The walk reads the object literal a declaration binds to one of these names.
    pub(super) object_names: HashSet<String>,
    /// The last names of functions called where window options are read
    /// (`new BrowserWindow(options())`, `{ ...defaults(), parent }`): the walk reads what
    /// they return ([`super::windows`]).
    pub(super) option_functions: HashSet<String>,
    /// The names of [`Self::object_names`] that window options read (bridge APIs aside):
    /// their declarations are read for more such names.
    option_names: HashSet<String>,
    scopes: Scopes,
    /// Local names bound to the module's directory or file
    /// (`const d = dirname(fileURLToPath(import.meta.url))`, as ES modules write `__dirname`).
    pub(super) anchors: Scoped<Anchor>,
    /// Strings (and objects of them) bound to names ([`super::constants`]).
    pub(super) constants: Scoped<Bound>,
    /// Static paths bound to names, in a file that uses Electron:
    /// `const preload = path.join(__dirname, "preload.js")`, read where a window, a load or
    /// a process names the path through the name.
    pub(super) paths: Scoped<PathBound>,
    /// How many times the file assigns each name (after declaring it): `var`/`let` values
    /// hold only for names it never assigns.
    pub(super) assignments: HashMap<String, u32>,
    /// The strings names are given, in a file that names `ipcRenderer` or `ipcMain`
    /// ([`super::choices`]).
    pub(super) choices: super::choices::Choices,
    /// Whether the declarations being visited are `const`.
    in_const: bool,
    /// Names bound to what another module of the application exports:
    /// `const c = require("./channels")`, `import { IPC } from "./channels"`,
    /// `import { electronAPI } from "@electron-toolkit/preload"`.
    pub(super) imports: Scoped<ChannelImport>,
    /// Names the file exports, as (export path, local name), that may hold a bridge API:
    /// `export const api = …`, `exports.api = api`, `module.exports = api` (path ``). Kept,
    /// and added to [`Self::object_names`], only where the file uses Electron (which a file
    /// that binds Electron's names knows from its second pass on, at the latest).
    pub(super) api_exports: Vec<(String, String)>,
    /// Whether the file binds a name to Electron or one of its APIs.
    pub(super) electron: bool,
    /// Whether the file binds a name to `child_process` or one of its functions.
    pub(super) child_process: bool,
    /// Whether the file calls `exposeInMainWorld`/`exposeInIsolatedWorld`.
    pub(super) exposes: bool,
    /// The file's functions that forward a parameter as an IPC channel ([`Helper`]), by the
    /// name a declaration binds them to. Read only in files that use Electron.
    pub(super) helpers: Scoped<Helper>,
    /// Names declared without a value (`let devtronSW;`), in a file that reads IPC: an
    /// assignment in a nested function binds what the name holds where it is declared.
    bare: Scoped<()>,
    /// The file's functions that make a channel of their parameters ([`Maker`]), by the
    /// name a declaration binds them to. Read in every file: a module that only makes
    /// channels for others may export one.
    pub(super) makers: Scoped<Maker>,
    /// The same, written as members of an object literal a declaration binds (`const CH = {
    /// make: (n) => `app:${n}` }`), by the object's name: a call `CH.make("x")`. Read only
    /// in files that read IPC.
    pub(super) member_makers: Scoped<Vec<(String, Maker)>>,
    /// Names whose keys the file iterates (`Object.entries(t)`, `Object.keys(t)`, `for (k
    /// in t)`): only their object literals are read key by key as bridge APIs a loop may
    /// expose ([`super::loops::TableValue`]).
    pub(super) iterated_tables: HashSet<String>,
    /// What the file assigns to the members of its CommonJS exports, by the scope the
    /// assignments are made in and the export (`None` once two assignments disagree, or one
    /// is not a constant; an export assigned different values in two scopes is read in
    /// neither): TypeScript compiles `export const A = "a"; use(A)` to
    /// `exports.A = "a"; use(exports.A)`, and reads of `exports.A` are that string.
    own_exports: HashMap<(u32, String), Option<Constant>>,
    /// The scopes that assign a whole `module.exports`, after which `module.exports.A` is
    /// another object's.
    module_replaced: HashSet<u32>,
    /// The directories the file's named functions join a dynamic last part under, by the
    /// name a declaration binds them to: what a protocol handler passed by name serves from
    /// ([`crate::facts::ServedScheme::roots`]). Read only in files that read IPC helpers.
    pub(super) handler_roots: Scoped<Vec<StaticPath>>,
    /// Calls that hand Electron's IPC objects to a function of the file by name.
    ipc_arg_calls: Vec<IpcArgCall>,
    /// The own name of the next function expression entered, where such calls were seen
    /// (`{key: "mainBindings", value: function mainBindings(a, b) {…}}`, as Babel writes a
    /// class's method): (its start, the name).
    fn_expr_name: Option<(u32, swc_atoms::Atom)>,
    /// Functions, by start, that a call hands each of a list of pages' WebContents to
    /// ([`web_contents_callback`]): their first parameter is one.
    web_contents_callbacks: HashSet<u32>,
    /// Names bound to a list of every page's WebContents (`const views =
    /// webContents.getAllWebContents()`), iterated like the call itself.
    web_contents_lists: Scoped<()>,
    /// The functions open around the node visited, innermost last, in a file that uses
    /// Electron.
    frames: Vec<Frame>,
    /// The open frames' parameters that are plain names, frame after frame (one buffer, so
    /// that a function costs no allocation of its own).
    frame_params: Vec<Option<swc_atoms::Atom>>,
    /// The name the next function entered is declared as: (its start, the name).
    function_name: Option<(u32, String)>,
    /// The name the next class entered is declared as: (its start, the name).
    class_name: Option<(u32, String)>,
    /// The name of the next function entered when it is a class's method: (its start, the
    /// name).
    method_name: Option<(u32, String)>,
    /// Functions rspack 2 exports in place among a factory's values (`n.d(t, {}, {handle:
    /// function (e, n) {…}})`), by start: named, for their frames, as the member of the
    /// exports they become (`t.handle`), as terser's `t.handle = function …` is.
    value_functions: HashMap<u32, String>,
    /// The classes open around the node visited, innermost last: their names, and the
    /// methods found so far that forward a parameter as an IPC channel.
    classes: Vec<(String, Methods)>,
    /// The scopes the classes open around the node visited sit in, innermost last: where a
    /// member of `this` one of them assigns is bound ([`Self::bind_this_member`]).
    class_scopes: Vec<u32>,
    /// The scope [`Self::alias`] binds in, where not the current one.
    alias_scope: Option<u32>,
    /// Names the file's functions and classes are exported or stored under, as (member,
    /// local): `t.Store = o`, webpack's `n.d(t, {Z: () => f})`. A call by that member
    /// (`new r.Store(…)`, `(0, r.Z)(…)`) calls the local ([`Self::ipc_params_of`]). Kept in
    /// files that read IPC, at most [`MAX_EXPORTED_AS`] members; `None` for a member that
    /// holds more than one local.
    exported_as: HashMap<swc_atoms::Atom, Option<swc_atoms::Atom>>,
    /// The file's classes with such methods, by the name a declaration binds them to (a
    /// class no code names, by `names::class_key`). Read only in files that read IPC
    /// helpers.
    pub(super) class_helpers: Scoped<Methods>,
    /// The file's exports, as (export path, local name), where it reads IPC helpers but does
    /// not use Electron (where it does, they are [`Self::api_exports`]).
    pub(super) helper_exports: Vec<(String, String)>,
    /// Names a module factory may export an API under, in a file that uses Electron and
    /// exposes a bridge (which a factory of its own bundle may build): the value of a member
    /// assignment (`t.api = o`) or of webpack's export getters (`n.d(t, {api: () => o})`).
    /// Kept once the file is known to be such a file, which the second pass knows from its
    /// start.
    api_names: HashSet<String>,
    /// Strings the file exports ([`crate::facts::JsFacts::exported_constants`]).
    pub(super) exported: Vec<(String, Constant)>,
    /// Names exported by a declaration without a value or by an export list, as (exported,
    /// local): `export var Channel;`, `export { a as b }`, looked up once the file is read.
    export_locals: Vec<(String, String)>,
    /// The file's compiled enums, by the name their call assigns.
    enums: HashMap<String, Constant>,
    /// The require functions of webpack runtimes, with the table each reads.
    pub(super) runtime_requires: HashMap<String, String>,
    /// Enums as swc's minifier inlines them, by name and scope
    /// (`(n = e || (e = {})).Open = "link:open"`); bound once the file is read.
    inline_enums: BTreeMap<(String, u32), Vec<(String, Constant)>>,
    /// Whether an alias of a module other than [`PATH_MODULES`], or an external, was bound.
    rebind: bool,
    /// Members assigned a static path (`__webpack_require__.ab = __dirname + "/native_modules/"`),
    /// by dotted name; `None` where two path-shaped assignments (see [`may_be_path`]) in the
    /// file disagree.
    pub(super) member_paths: HashMap<String, Option<StaticPath>>,
    /// What the text holds that calls for more bindings to be kept.
    looks: Looks,
    /// Arrays of strings by name, for AMD defines that read ids through one.
    pub(super) strings: super::amd::AmdNames,
    /// Parcel 2's local require and register names.
    pub(super) parcel: super::parcel::ParcelNames,
}

impl names::PathScope for PrePass {
    fn callee(&self, callee: &swc_ecma_ast::Callee) -> String {
        normalize(&self.aliases, &self.scopes, callee_name(callee))
    }

    fn anchor(&self, name: &str) -> Option<Anchor> {
        self.anchors.resolve(name, &self.scopes).copied()
    }

    fn normalized(&self, name: String) -> String {
        normalize(&self.aliases, &self.scopes, name)
    }

    fn member_path(&self, dotted: &str) -> Option<&StaticPath> {
        self.member_paths.get(dotted)?.as_ref()
    }

    fn bound_paths(&self, name: &str) -> &[StaticPath] {
        self.paths.bound(name, &self.scopes, &self.assignments)
    }

    fn bound_path(&self, name: &str) -> Option<&StaticPath> {
        self.paths.single(name, &self.scopes, &self.assignments)
    }
}

/// The static paths bound to a name (one, or one for each branch of a condition that has
/// one), and how the binding was made.
#[derive(Debug)]
pub(super) struct PathBound {
    paths: Vec<StaticPath>,
    /// Whether every branch of the value is one of `paths`: a path built on the name
    /// (`join(dir, "x")`) reads it only then.
    complete: bool,
    how: Binding,
    /// Assignments of a static path to a `var` or `let` after its declaration, whose paths
    /// joined `paths` (`let page = "./index.html"; if (…) page = "../dist/index.html"`): the
    /// binding holds when they are all the file's assignments of the name.
    assigned: u32,
}

impl PathBound {
    fn holds(&self, name: &str, assignments: &HashMap<String, u32>) -> bool {
        let assigned = assignments.get(name).copied().unwrap_or(0);
        self.how.holds(assigned.saturating_sub(self.assigned))
    }
}

impl Scoped<PathBound> {
    /// The paths `name` is bound to in the innermost of `scopes` that binds it, where the
    /// binding holds in a file that assigns names `assignments` times.
    pub(super) fn bound(
        &self,
        name: &str,
        scopes: &Scopes,
        assignments: &HashMap<String, u32>,
    ) -> &[StaticPath] {
        match self.resolve(name, scopes) {
            Some(b) if b.holds(name, assignments) => &b.paths,
            _ => &[],
        }
    }

    /// The one path `name` holds, where the binding holds and every branch is that path.
    pub(super) fn single(
        &self,
        name: &str,
        scopes: &Scopes,
        assignments: &HashMap<String, u32>,
    ) -> Option<&StaticPath> {
        let b = self.resolve(name, scopes).filter(|b| b.complete)?;
        match b.paths.as_slice() {
            [one] if b.holds(name, assignments) => Some(one),
            _ => None,
        }
    }
}

/// Most paths one name is bound to, through its declaration and assignments.
const MAX_PATH_ALTERNATIVES: usize = 8;

/// Whether a declaration's value may be a path worth binding to its name, checked without
/// allocating before [`names::static_path`] reads it: what [`may_be_path`] admits, any short
/// string, and the file-URL forms static paths read (`fileURLToPath(…)`, `url.format(…)`,
/// `pathToFileURL(…).href` or `.toString()`).
fn may_bind_path(expr: &Expr) -> bool {
    match unwrap(expr) {
        Expr::Lit(swc_ecma_ast::Lit::Str(s)) => s.value.len() <= 256,
        Expr::Call(call) => {
            may_be_path(expr)
                // A renamed `fileURLToPath` (`t(new URL("./x", import.meta.url))`).
                || call
                    .args
                    .first()
                    .is_some_and(|a| names::module_url_of(&a.expr).is_some())
                || call.callee.as_expr().is_some_and(|c| match unwrap(c) {
                    Expr::Ident(i) => i.sym == *"fileURLToPath" || i.sym == *"format",
                    Expr::Member(m) => m.prop.as_ident().is_some_and(|p| {
                        p.sym == *"fileURLToPath" || p.sym == *"format" || p.sym == *"toString"
                    }),
                    _ => false,
                })
        }
        Expr::Member(m) => m.prop.as_ident().is_some_and(|p| p.sym == *"href"),
        Expr::New(new) => matches!(unwrap(&new.callee), Expr::Ident(i) if i.sym == *"URL"),
        other => may_be_path(other),
    }
}

/// What a file's text holds that calls for more bindings to be kept, found by a search of the
/// text before the walk.
#[derive(Default, Clone, Copy)]
pub(super) struct Looks {
    /// It calls `define(`: arrays of strings and names of `define` are kept (AMD).
    pub amd: bool,
    /// It names `parcelRequire`: Parcel 2's require and register names are kept.
    pub parcel: bool,
    /// It names `__vite__mapDeps`: Vite's preload table is read.
    pub vite: bool,
    /// It names `ipcRenderer`, or `ipcMain`: functions and class methods that forward a
    /// channel are read even where no name is bound to Electron (a page calling
    /// `window.electron.ipcRenderer`, a bundle of such helpers).
    pub ipc_renderer: bool,
    pub ipc_main: bool,
    /// It names `webview`: the `<webview>` tags the code writes are read
    /// (`super::webviews`).
    pub webview: bool,
}

/// Runs the pre-pass over `program`, twice when the first pass bound anything. `foreign`
/// names the externals other files of the build define (see [`super::Externals`]).
pub(super) fn run(program: &Program, looks: Looks, foreign: &super::Externals) -> PrePass {
    let mut pre = PrePass {
        looks,
        ..PrePass::default()
    };
    for (key, &module) in foreign {
        pre.electron |= module == "electron";
        pre.externals.insert(key.clone(), module);
    }
    pre.parcel.enabled = looks.parcel;
    program.visit_with(&mut pre);
    if pre.rebind {
        // The second pass counts the file's assignments, and finds its exports, again.
        pre.assignments.clear();
        pre.choices.clear();
        pre.exported.clear();
        pre.export_locals.clear();
        pre.api_exports.clear();
        pre.inline_enums.clear();
        pre.own_exports.clear();
        pre.module_replaced.clear();
        program.visit_with(&mut pre);
    }
    pre.bind_own_exports();
    // A parameter (or a loop's or a pattern's name) assigned once in its function is not a
    // name declared empty and given one value: it held the argument before.
    for (name, scope) in pre.choices.bound_names() {
        if let Some(slot) = pre
            .constants
            .by_name
            .get_mut(name.as_str())
            .and_then(|by_scope| by_scope.get_mut(&scope))
            && slot.as_ref().is_some_and(|b| b.how == Binding::Assigned)
        {
            *slot = None;
        }
    }
    if pre.electron {
        for (_, local) in &pre.api_exports {
            pre.object_names.insert(local.clone());
        }
        pre.object_names.extend(std::mem::take(&mut pre.api_names));
    } else {
        // Only helpers are read off the exports of a file that does not use Electron.
        pre.helper_exports = std::mem::take(&mut pre.api_exports);
    }
    for ((name, scope), members) in std::mem::take(&mut pre.inline_enums) {
        let bound = Bound {
            value: Constant::Object(members),
            how: Binding::Fixed,
        };
        // Over the `{}` the enum's own `e || (e = {})` assigns.
        pre.constants.set(&name, scope, bound);
    }
    if !pre.wrappers.is_empty() {
        for (exported, local) in &pre.export_locals {
            if let Some(kind) = pre.wrappers.resolve(local, &pre.scopes) {
                pre.exported_helpers.push((exported.clone(), *kind));
            }
        }
    }
    // Exported names whose values the file bound: enums and constants.
    for (exported, local) in std::mem::take(&mut pre.export_locals) {
        let value = pre.enums.get(&local).cloned().or_else(|| {
            pre.constants
                .resolve(&local, &pre.scopes)
                .filter(|b| {
                    b.how
                        .holds(pre.assignments.get(&local).copied().unwrap_or(0))
                })
                .map(|b| b.value.clone())
        });
        // A function that makes a channel, which the file never assigns again.
        let value = value.or_else(|| {
            (pre.assignments.get(&local).copied().unwrap_or(0) == 0)
                .then(|| pre.makers.resolve(&local, &pre.scopes))
                .flatten()
                .map(|maker| Constant::Maker(maker.clone()))
        });
        if let Some(value) = value {
            pre.exported.push((exported, value));
        }
    }
    pre
}

impl PrePass {
    /// Binds what `pat` declares from `init` when `init` is an aliased module or export.
    fn bind_init(&mut self, pat: &Pat, init: &Expr) -> bool {
        self.bind_branch(pat, init, 0)
    }

    /// [`Self::bind_init`] of a value, or of one of its branches: `electron_1.ipcMain ??
    /// info.ipcMain` (TypeScript writes it `a !== null && a !== void 0 ? a : b`), `a || b`,
    /// `c ? a : b`. The name is bound to the first branch that names what the file aliases,
    /// which is what the code means it to hold.
    fn bind_branch(&mut self, pat: &Pat, init: &Expr, depth: usize) -> bool {
        const MAX_BRANCH_DEPTH: usize = 4;
        // Two branches that both name what the file aliases (`isMain ? electron.ipcMain :
        // electron.ipcRenderer`) leave the name unbound: it may hold either.
        let both = |a: &Expr, b: &Expr| self.aliasable(a) && self.aliasable(b);
        match unwrap(init) {
            Expr::Cond(cond) if both(&cond.cons, &cond.alt) => return false,
            Expr::Bin(bin) if both(&bin.left, &bin.right) => return false,
            Expr::Cond(cond) if depth < MAX_BRANCH_DEPTH => {
                return self.bind_branch(pat, &cond.cons, depth + 1)
                    || self.bind_branch(pat, &cond.alt, depth + 1);
            }
            Expr::Bin(bin)
                if depth < MAX_BRANCH_DEPTH
                    && matches!(
                        bin.op,
                        swc_ecma_ast::BinaryOp::LogicalOr
                            | swc_ecma_ast::BinaryOp::NullishCoalescing
                    ) =>
            {
                return self.bind_branch(pat, &bin.left, depth + 1)
                    || self.bind_branch(pat, &bin.right, depth + 1);
            }
            _ => {}
        }
        self.bind_value(pat, init)
    }

    /// Whether a branch names a module the file aliases, or a name bound to one.
    fn aliasable(&self, expr: &Expr) -> bool {
        require_spec(expr).is_some_and(|s| aliased_module(&s).is_some())
            || root_name(expr).is_some_and(|n| self.aliases.resolve(n, &self.scopes).is_some())
    }

    fn bind_value(&mut self, pat: &Pat, init: &Expr) -> bool {
        if let Pat::Ident(local) = pat
            && let Some(spec) = imported_require(init)
        {
            let scope = self.scopes.current();
            let import = ChannelImport {
                from: ImportFrom::Specifier(spec),
                path: Vec::new(),
            };
            self.imports.bind(&local.id.sym, scope, Some(import));
        }
        if let Pat::Object(object) = pat
            && let Some(spec) = imported_require(init)
        {
            self.bind_required_members(object, &spec, &[], 0);
        }
        // `const api = window.electron`, `const { sendMessage } = window.electron`: what a
        // page's window holds (a bridge API), read through the local name as through the window.
        if let Expr::Member(member) = unwrap(init)
            && root_name(init).is_some_and(|root| WINDOW_ROOTS.contains(&root))
        {
            let base = names::dotted_member(member);
            if base.split('.').all(|part| !part.is_empty()) {
                self.bind(pat, &base, "window", 0);
                return true;
            }
        }
        // const x = require("electron") / const {ipcRenderer: r} = require("electron").x
        let (module, member) = match unwrap(init) {
            Expr::Member(m) => match require_spec(&m.obj) {
                Some(spec) => (Some(spec), names::dotted_member(m)),
                None => (None, String::new()),
            },
            other => (require_spec(other), String::new()),
        };
        if let Some(module) = module.as_deref().and_then(aliased_module) {
            let base = match member.rsplit_once('.') {
                Some((_, prop)) if !member.is_empty() => format!("{module}.{prop}"),
                _ => module.to_owned(),
            };
            self.bind(pat, &base, module, 0);
            return true;
        }
        if electron_getter(init) {
            self.bind(pat, "electron", "electron", 0);
            return true;
        }
        // var n = o(12), where the factory of key 12 re-exports an aliased module.
        if let Some(module) = self.external_require(init) {
            self.bind(pat, module, module, 0);
            return true;
        }
        // An interop helper around a module: `__importDefault(require("m"))` (TypeScript),
        // `_interopRequireDefault(…)` (Babel), `__toESM(…)` (esbuild, whose minified helper
        // has no telling name), or rollup's `_interopDefault(m)` of a bound name. Each hands
        // back the module, or an object whose `default` is the module; [`normalize`] reads
        // `x.default` as the module.
        if let Expr::Call(call) = unwrap(init)
            && let [arg] = call.args.as_slice()
            && arg.spread.is_none()
            && require_call_spec(call).is_none()
        {
            let module = match require_spec(&arg.expr) {
                Some(spec) => aliased_module(&spec),
                None => match unwrap(&arg.expr) {
                    Expr::Ident(ident) => self
                        .aliases
                        .resolve(&ident.sym, &self.scopes)
                        .and_then(|t| ALIASED_MODULES.iter().copied().find(|m| *m == t)),
                    _ => None,
                },
            };
            if let Some(module) = module {
                // webpack's getter is called for the module: `a()` after `a = n.n(m)`.
                if names::webpack_default_getter(call).is_some() {
                    if let Pat::Ident(local) = pat {
                        self.alias(&format!("{}()", local.id.sym), module, module);
                    }
                } else {
                    self.bind(pat, module, module, 0);
                }
                return true;
            }
        }
        // const {ipcMain: s} = n / var s = n.ipcMain, where `n` is bound here; and a member
        // of Electron's objects bound to Electron (`const cl = app.commandLine`, `const {
        // commandLine } = app`).
        if !self.aliases.is_empty()
            && root_name(init).is_some_and(|n| self.aliases.resolve(n, &self.scopes).is_some())
        {
            let name = dotted(init);
            let first = name.split('.').next().unwrap_or("");
            if !first.is_empty() && self.aliases.resolve(first, &self.scopes).is_some() {
                let target = normalize(&self.aliases, &self.scopes, name);
                let object = target.split('.').next().unwrap_or("");
                let module = module_of(&target)
                    .or_else(|| ELECTRON_OBJECTS.contains(&object).then_some("electron"));
                if let Some(module) = module {
                    self.bind(pat, &target, module, 0);
                    return true;
                }
            }
        }
        false
    }

    /// `ident(key)` where `key` names an external's factory.
    fn external_require(&self, init: &Expr) -> Option<&'static str> {
        if self.externals.is_empty() {
            return None;
        }
        let Expr::Call(call) = unwrap(init) else {
            return None;
        };
        // `o(12)`, or the runtime's require inlined where the entry calls it once
        // (`const {ipcMain: o} = function r(t) {…}(157)`, webpack's minified single-module entry).
        let required = match unwrap(call.callee.as_expr()?) {
            Expr::Ident(_) => true,
            Expr::Fn(f) => f
                .ident
                .as_ref()
                .is_some_and(|name| bundle::inline_runtime_require(&f.function, &name.sym)),
            _ => false,
        };
        if !required || call.args.len() != 1 {
            return None;
        }
        let arg = &call.args[0];
        if arg.spread.is_some() {
            return None;
        }
        let key = names::literal_key(&arg.expr)?;
        self.externals.get(&key).copied()
    }

    fn bind(&mut self, pat: &Pat, base: &str, module: &str, depth: usize) {
        if depth > MAX_PATTERN_DEPTH {
            return;
        }
        match pat {
            Pat::Ident(ident) => self.alias(&ident.id.sym, base, module),
            Pat::Assign(assign) => self.bind(&assign.left, base, module, depth + 1),
            Pat::Object(obj) => {
                for prop in &obj.props {
                    match prop {
                        ObjectPatProp::KeyValue(kv) => {
                            if let Some(key) = names::prop_name(&kv.key) {
                                self.bind(&kv.value, &format!("{base}.{key}"), module, depth + 1);
                            }
                        }
                        ObjectPatProp::Assign(assign) => {
                            let key = assign.key.id.sym.to_string();
                            self.alias(&assign.key.id.sym, &format!("{base}.{key}"), module);
                        }
                        ObjectPatProp::Rest(_) => {}
                    }
                }
            }
            _ => {}
        }
    }

    /// A class's body, with the methods that forward a parameter as an IPC channel kept by
    /// the class's name, in the scope around it ([`Self::class_helpers`]).
    fn visit_class_body(&mut self, class: &swc_ecma_ast::Class) {
        if !self.reads_ipc() {
            self.visit_class_scope(class);
            return;
        }
        let name = match self.class_name.take() {
            Some((at, name)) if at == class.span.lo.0 => name,
            _ => names::class_key(class),
        };
        self.classes.push((name, Vec::new()));
        self.visit_class_scope(class);
        if let Some((name, methods)) = self.classes.pop()
            && !methods.is_empty()
        {
            self.class_helpers
                .set(&name, self.scopes.current(), methods);
        }
    }

    /// A class's members, in a scope of the class's own (see [`class_scope`]).
    fn visit_class_scope(&mut self, class: &swc_ecma_ast::Class) {
        let scope = class_scope(class);
        self.class_scopes.push(scope);
        self.scopes.enter(scope);
        class.visit_children_with(self);
        self.scopes.leave();
        self.class_scopes.pop();
    }

    /// `this.ipc = electron.ipcMain`, or a class's field: the member holds what the value
    /// aliases wherever the class reads `this`, so it is bound in the class's scope; a
    /// constructor function's, wherever the functions around it (among them its prototype's
    /// methods) do, so in the scope around the function.
    fn bind_this_member(&mut self, member: &str, value: &Expr) {
        let scope = match self.class_scopes.last() {
            Some(&scope) => scope,
            None => match self.scopes.stack() {
                [.., outer, _] => *outer,
                _ => PROGRAM_SCOPE,
            },
        };
        let ident = swc_ecma_ast::Ident::new_no_ctxt(member.into(), swc_common::DUMMY_SP);
        let previous = self.alias_scope.replace(scope);
        self.bind_init(&Pat::Ident(ident.into()), value);
        self.alias_scope = previous;
    }

    /// Records `local` → `target` in the current scope. For `electron`, the canonical name
    /// drops the module (`ipcRenderer.invoke`, as code that reads `electron.ipcRenderer` also
    /// ends with it).
    fn alias(&mut self, local: &str, target: &str, module: &str) {
        self.electron |= module == "electron";
        self.child_process |= module == "child_process";
        let target = if module == "electron" {
            target.strip_prefix("electron.").unwrap_or(target)
        } else {
            target
        };
        if module == "electron"
            && target != "electron"
            && !ELECTRON_APIS
                .iter()
                .chain(ELECTRON_OBJECTS)
                .any(|api| target.split('.').next() == Some(api))
        {
            return;
        }
        // A local named as the module (`const electron = require("electron")`) is bound too,
        // so that names read through it (`const m = electron.ipcMain`, `const { ipcMain: m } =
        // electron`) are; it renames nothing, so it calls for no second pass.
        let scope = self.alias_scope.unwrap_or_else(|| self.scopes.current());
        self.aliases.bind(local, scope, Some(target.to_owned()));
        if local != target {
            // A window member is bound where the page reads it; it calls for no second pass.
            self.rebind |= !PATH_MODULES.contains(&module) && module != "window";
        }
    }

    /// The names an export of `value` under `export` may hold an API in: the name itself
    /// (`exports.api = api`), or each named member of `module.exports = { api, other: x }`.
    fn api_exports_of(&mut self, export: String, value: &Expr, target: &str) {
        match unwrap(value) {
            // `exports.handle = function (channel) {…}`: a helper named by its member.
            Expr::Fn(_) | Expr::Arrow(_) if !export.is_empty() => {
                self.api_exports.push((export, target.to_owned()))
            }
            // `exports.ipc = new IpcManager()`: the instance has the class's helpers.
            new @ Expr::New(_) => {
                if let Some(class) = names::instantiated_class(new) {
                    self.api_exports.push((export, class));
                }
            }
            _ => self.api_exports.extend(exported_names(export, value)),
        }
    }

    /// Binds the names a pattern destructures from a required module's exports to those
    /// exports: `const { A, B: b, IPC: { GET } } = require("./channels")`, `path` being the
    /// members read so far. A name with a default may hold the default, and is not bound.
    fn bind_required_members(
        &mut self,
        object: &ObjectPat,
        spec: &str,
        path: &[String],
        depth: usize,
    ) {
        if depth > MAX_PATTERN_DEPTH {
            return;
        }
        let scope = self.scopes.current();
        for prop in &object.props {
            // (the member read, the name bound to it, or the pattern it is destructured into)
            let (key, local, inner) = match prop {
                ObjectPatProp::Assign(assign) if assign.value.is_none() => (
                    assign.key.id.sym.to_string(),
                    Some(&assign.key.id.sym),
                    None,
                ),
                ObjectPatProp::KeyValue(kv) => {
                    let Some(key) = names::prop_name(&kv.key) else {
                        continue;
                    };
                    match &*kv.value {
                        Pat::Ident(local) => (key, Some(&local.id.sym), None),
                        Pat::Object(inner) => (key, None, Some(inner)),
                        _ => continue,
                    }
                }
                _ => continue,
            };
            let mut member = path.to_vec();
            member.push(key);
            if let Some(inner) = inner {
                self.bind_required_members(inner, spec, &member, depth + 1);
            } else if let Some(local) = local {
                let import = ChannelImport {
                    from: ImportFrom::Specifier(spec.to_owned()),
                    path: member,
                };
                self.imports.bind(local, scope, Some(import));
            }
        }
    }

    /// Names that `pat` declares in the current scope stop meaning an outer alias there.
    fn shadow(&mut self, pat: &Pat, depth: usize) {
        if (self.aliases.is_empty()
            && self.anchors.is_empty()
            && self.paths.is_empty()
            && self.constants.is_empty()
            && self.wrappers.is_empty()
            && self.imports.is_empty()
            && self.helpers.is_empty()
            && self.makers.is_empty()
            && self.member_makers.is_empty())
            || depth > MAX_PATTERN_DEPTH
        {
            return;
        }
        match pat {
            Pat::Ident(ident) => self.shadow_name(&ident.id.sym),
            Pat::Assign(assign) => self.shadow(&assign.left, depth + 1),
            Pat::Rest(rest) => self.shadow(&rest.arg, depth + 1),
            Pat::Array(array) => {
                for elem in array.elems.iter().flatten() {
                    self.shadow(elem, depth + 1);
                }
            }
            Pat::Object(obj) => {
                for prop in &obj.props {
                    match prop {
                        ObjectPatProp::KeyValue(kv) => self.shadow(&kv.value, depth + 1),
                        ObjectPatProp::Assign(assign) => self.shadow_name(&assign.key.id.sym),
                        ObjectPatProp::Rest(rest) => self.shadow(&rest.arg, depth + 1),
                    }
                }
            }
            _ => {}
        }
    }

    fn shadow_name(&mut self, name: &str) {
        self.aliases.shadow(name, self.scopes.current());
        self.anchors.shadow(name, self.scopes.current());
        self.paths.shadow(name, self.scopes.current());
        self.constants.shadow(name, self.scopes.current());
        self.wrappers.shadow(name, self.scopes.current());
        self.imports.shadow(name, self.scopes.current());
        self.helpers.shadow(name, self.scopes.current());
        self.class_helpers.shadow(name, self.scopes.current());
        self.makers.shadow(name, self.scopes.current());
        self.member_makers.shadow(name, self.scopes.current());
        self.bare.shadow(name, self.scopes.current());
    }

    /// The string `PREFIX + ":get"` or `` `${PREFIX}:get` `` makes, of literals and names
    /// bound for good (`const`) to strings.
    fn folded(&self, init: &Expr) -> Option<String> {
        if self.constants.is_empty() || !constants::foldable(init) {
            return None;
        }
        constants::fold(init, &mut |part| self.fixed_string(part))
    }

    /// The string a name the file binds with `const`, or a member of one (an enum's), is.
    fn fixed_string(&self, part: &Expr) -> Option<String> {
        let (constants, scopes) = (&self.constants, &self.scopes);
        let root = names::dotted(part);
        let root = root.split('.').next().unwrap_or("");
        constants
            .resolve(root, scopes)
            .filter(|b| b.how == Binding::Fixed)?;
        constants::string_of(part, |root| constants.resolve(root, scopes), |_| 0)
    }

    /// An array of strings ([`constants::list`]): literals, `const` names or members bound
    /// to them, concatenations of them, and members of the file's own CommonJS exports
    /// (`exports.LOGGED = [exports.LOG, exports.FLUSH]`, as `tsc` writes an exported list).
    fn listed(&self, init: &Expr) -> Option<Constant> {
        constants::list(init, &mut |item| {
            if let Expr::Member(member) = unwrap(item)
                && constants::commonjs_exports(&names::dotted(&member.obj))
            {
                let name = member.prop.as_ident()?;
                return crate::facts::exported_string_at(&self.exported, &name.sym, &[])
                    .map(str::to_owned);
            }
            self.folded(item).or_else(|| self.fixed_string(item))
        })
    }

    /// Whether the file's functions are read as IPC helpers, and its exports kept for them:
    /// where it uses Electron or names its IPC modules.
    fn reads_ipc(&self) -> bool {
        self.electron || self.looks.ipc_renderer || self.looks.ipc_main
    }

    /// Whether the strings names are given are read ([`super::choices`]): decided by the
    /// file's text, so that every binding is counted from the first.
    fn reads_choices(&self) -> bool {
        self.looks.ipc_renderer || self.looks.ipc_main
    }

    /// A loop's head binds its names to what the loop goes over.
    fn loop_head(&mut self, head: &swc_ecma_ast::ForHead) {
        if !self.reads_choices() {
            return;
        }
        match head {
            swc_ecma_ast::ForHead::VarDecl(decl) => {
                for declarator in &decl.decls {
                    self.choices.bound(&declarator.name, &self.scopes);
                }
            }
            swc_ecma_ast::ForHead::Pat(pat) => {
                let mut names = Vec::new();
                names::pattern_names(pat, &mut names);
                self.choices.assigned_names(&names, &self.scopes);
            }
            swc_ecma_ast::ForHead::UsingDecl(_) => {}
        }
    }

    /// The name `expr` is read as: a member's property (`electron.ipcMain` is `ipcMain`), or
    /// what a name is bound to (or the name itself).
    fn read_name<'e>(&'e self, expr: &'e Expr) -> Option<&'e str> {
        match unwrap(expr) {
            Expr::Member(member) => member.prop.as_ident().map(|p| &*p.sym),
            Expr::Ident(ident) => Some(
                self.aliases
                    .resolve(&ident.sym, &self.scopes)
                    .map_or(&*ident.sym, String::as_str),
            ),
            _ => None,
        }
    }

    /// Notes the arguments of a call of a name that are Electron's `ipcMain` or
    /// `ipcRenderer` (a member of that name, `electron.ipcMain`, or a name bound to one).
    fn note_ipc_args(
        &mut self,
        (callee, member): (&swc_atoms::Atom, bool),
        args: &[swc_ecma_ast::ExprOrSpread],
        span: swc_common::Span,
    ) {
        for (index, arg) in args.iter().enumerate().take(MAX_IPC_ARGS) {
            if arg.spread.is_some() {
                break;
            }
            let object = match self.read_name(&arg.expr) {
                Some("ipcMain") => "ipcMain",
                Some("ipcRenderer") => "ipcRenderer",
                _ => continue,
            };
            let at = span.lo.0;
            if self.ipc_arg_calls.len() >= MAX_IPC_ARG_CALLS
                || self
                    .ipc_arg_calls
                    .iter()
                    .any(|c| c.at == at && c.index == index)
            {
                continue;
            }
            self.ipc_arg_calls.push(IpcArgCall {
                callee: callee.clone(),
                member,
                index,
                object,
                stack: self.scopes.stack().to_vec(),
                at,
            });
            // A function declared before the call is read again once the call is known.
            self.rebind = true;
        }
    }

    /// The parameters, by place, of the function starting at `start` that calls hand
    /// Electron's `ipcMain` or `ipcRenderer` to, with the object: a call of the name a
    /// declaration binds the function to, in the scope it is declared in or one inside it;
    /// or a call by a member of that name (or of the last part of a member it is assigned
    /// to, `t.registerHandlers`), which alone names a class's method and a function
    /// expression's own name.
    fn ipc_params_of(&self, start: u32) -> Vec<(usize, &'static str)> {
        if self.ipc_arg_calls.is_empty() {
            return Vec::new();
        }
        fn named(named: &Option<(u32, String)>, start: u32) -> Option<&str> {
            named
                .as_ref()
                .filter(|(at, _)| *at == start)
                .map(|(_, name)| name.as_str())
        }
        let (name, member_only) = match (
            named(&self.function_name, start),
            named(&self.method_name, start),
        ) {
            (Some(name), _) => (name, false),
            (None, Some(name)) => (name, true),
            (None, None) => match &self.fn_expr_name {
                Some((at, name)) if *at == start => (&**name, true),
                _ => return Vec::new(),
            },
        };
        let member = name.rsplit('.').next().unwrap_or(name);
        let around = self.scopes.current();
        self.calls_handing(member, (!member_only).then_some((name, around)))
    }

    fn note_exported_as(&mut self, member: &swc_atoms::Atom, local: &swc_atoms::Atom) {
        if member == local {
            return;
        }
        let room = self.exported_as.len() < MAX_EXPORTED_AS;
        match self.exported_as.get_mut(member) {
            Some(held) if held.as_ref().is_some_and(|held| held != local) => *held = None,
            Some(_) => {}
            None if room => {
                self.exported_as.insert(member.clone(), Some(local.clone()));
            }
            None => {}
        }
    }

    /// Whether a call by the member `callee` calls the function or class the file names
    /// `name`: one of that name, or the one the file exports or stores under that member.
    /// Minifiers give the exports of many modules one name (`Z`, `default`): a member the
    /// file stores more than one local under names none of them.
    fn member_calls(&self, callee: &swc_atoms::Atom, name: &str) -> bool {
        **callee == *name
            || self
                .exported_as
                .get(callee)
                .is_some_and(|local| local.as_deref() == Some(name))
    }

    /// The parameters of the constructor of the class open around the walk (whose scope is
    /// the current one) that `new` hands `ipcMain` or `ipcRenderer` to: `new Bridge(ipcMain)`
    /// in the scope the class is declared in or one inside it, or `new r.Bridge(…)` in any.
    fn constructor_ipc_params(&self) -> Vec<(usize, &'static str)> {
        if self.ipc_arg_calls.is_empty() {
            return Vec::new();
        }
        let Some((name, _)) = self.classes.last() else {
            return Vec::new();
        };
        let around = match self.scopes.stack() {
            [.., around, _] => *around,
            _ => PROGRAM_SCOPE,
        };
        self.calls_handing(name, Some((name, around)))
    }

    /// What the calls that hand `ipcMain` or `ipcRenderer` to a function hand, as (argument,
    /// object): those by a member that names `member` ([`Self::member_calls`]), and, given
    /// `plain`, those by that name made in that scope or one inside it.
    fn calls_handing(
        &self,
        member: &str,
        plain: Option<(&str, u32)>,
    ) -> Vec<(usize, &'static str)> {
        self.ipc_arg_calls
            .iter()
            .filter(|c| {
                if c.member {
                    self.member_calls(&c.callee, member)
                } else {
                    plain.is_some_and(|(name, around)| {
                        *c.callee == *name && c.stack.contains(&around)
                    })
                }
            })
            .map(|c| (c.index, c.object))
            .collect()
    }

    /// Whether `list` is every page's WebContents ([`web_contents_list`]), or a name bound to
    /// them ([`Self::web_contents_lists`]), filtered, sorted or sliced.
    fn lists_web_contents(&self, list: &Expr) -> bool {
        web_contents_list_or(list, &|name| {
            self.web_contents_lists
                .resolve(name, &self.scopes)
                .is_some()
        })
    }

    /// A parameter whose default is what the file aliases holds it, in the function just
    /// entered: `function registerProxy(target, transport = electron.ipcMain)`, as a library
    /// lets tests hand it a stand-in.
    fn bind_defaults<'p>(&mut self, params: impl Iterator<Item = &'p Pat>) {
        if self.aliases.is_empty() {
            return;
        }
        for param in params {
            if let Pat::Assign(assign) = param
                && matches!(&*assign.left, Pat::Ident(_))
                && self.aliasable(&assign.right)
            {
                self.bind_init(&assign.left, &assign.right);
            }
        }
    }

    /// Binds the parameters [`Self::ipc_params_of`] found, in the function just entered.
    fn bind_ipc_params<'p>(
        &mut self,
        bound: Vec<(usize, &'static str)>,
        param: impl Fn(usize) -> Option<&'p Pat>,
    ) {
        for (index, object) in bound {
            if let Some(Pat::Ident(local)) = param(index) {
                self.alias(&local.id.sym, object, "electron");
            }
        }
    }

    /// Binds the first parameter of the function starting at `start` as a page's WebContents
    /// where a call hands it each of a list of them ([`Self::web_contents_callbacks`]).
    fn web_contents_param(&mut self, start: u32, first: Option<&Pat>) {
        if !self.web_contents_callbacks.is_empty()
            && self.web_contents_callbacks.contains(&start)
            && let Some(Pat::Ident(ident)) = first
        {
            self.aliases
                .bind(&ident.id.sym, start, Some("webContents".to_owned()));
        }
    }

    /// A function's parameters, in its own scope.
    fn params_bound<'p>(&mut self, params: impl Iterator<Item = &'p Pat>) {
        if self.reads_choices() {
            for pat in params {
                self.choices.bound(pat, &self.scopes);
            }
        }
    }

    /// Names the functions rspack 2 exports in place (`n.d(t, {}, {handle: function …})`)
    /// as the members of the exports they become ([`Self::value_functions`]).
    fn value_functions(&mut self, call: &CallExpr) {
        let [exports, _, values] = call.args.as_slice() else {
            return;
        };
        if !names::callee_name(&call.callee).ends_with(".d") {
            return;
        }
        let (Expr::Ident(exports), Expr::Object(values)) =
            (unwrap(&exports.expr), unwrap(&values.expr))
        else {
            return;
        };
        for prop in &values.props {
            if let PropOrSpread::Prop(prop) = prop
                && let Prop::KeyValue(kv) = &**prop
                && let Some(key) = names::prop_name(&kv.key)
            {
                let start = match unwrap(&kv.value) {
                    Expr::Fn(f) => f.function.span.lo.0,
                    Expr::Arrow(arrow) => arrow.span.lo.0,
                    _ => continue,
                };
                self.value_functions
                    .insert(start, format!("{}.{key}", exports.sym));
            }
        }
    }

    /// What `init` holds that a name bound to it is read as, in a file that reads IPC:
    /// a page's WebContents ([`holds_web_contents`]), a service worker's main-process object
    /// ([`holds_service_worker`]), or a name that holds either.
    fn holder(&self, init: &Expr) -> Option<&'static str> {
        if holds_web_contents(init) {
            return Some("webContents");
        }
        if holds_service_worker(init) {
            return Some("serviceWorkerMain");
        }
        let Expr::Ident(name) = unwrap(init) else {
            return None;
        };
        match self.aliases.resolve(&name.sym, &self.scopes)?.as_str() {
            "webContents" => Some("webContents"),
            "serviceWorkerMain" => Some("serviceWorkerMain"),
            _ => None,
        }
    }

    /// Binds `name` to the function `init` when it makes a channel of its parameters
    /// (`const channel = (name) => `${PREFIX}:${name}``).
    fn bind_maker(&mut self, name: &str, init: &Expr) {
        if let Some(maker) = self.maker_value(init) {
            self.makers.set(name, self.scopes.current(), maker);
        }
    }

    /// The maker a function written as a value is ([`Maker::of_value`]).
    fn maker_value(&self, value: &Expr) -> Option<Maker> {
        Maker::of_value(value, &mut |part| self.fixed_string(part))
    }

    /// Notes an assignment of `value` to the CommonJS export `export` (the whole exports
    /// when empty) in the current scope. `exports.A = exports.B = void 0`, as TypeScript
    /// declares its exports first, assigns nothing.
    fn own_export(&mut self, export: &str, value: &Expr) {
        let scope = self.scopes.current();
        if export.is_empty() {
            self.module_replaced.insert(scope);
            return;
        }
        if constants::undefined(value) {
            return;
        }
        let value = constants::constant(value);
        self.own_exports
            .entry((scope, export.to_owned()))
            .and_modify(|held| {
                if *held != value {
                    *held = None;
                }
            })
            .or_insert(value);
    }

    /// Binds `exports` (and `module`, where the scope never replaces `module.exports`) to the
    /// constants the file assigns to its exports' members, scope by scope.
    fn bind_own_exports(&mut self) {
        if self.own_exports.is_empty() {
            return;
        }
        // An export the file assigns different values, in any two scopes, is none of them.
        let mut agreed: HashMap<&str, Option<&Constant>> = HashMap::default();
        for ((_, export), value) in &self.own_exports {
            agreed
                .entry(export)
                .and_modify(|held| {
                    if *held != value.as_ref() {
                        *held = None;
                    }
                })
                .or_insert(value.as_ref());
        }
        let mut by_scope: BTreeMap<u32, Vec<(String, Constant)>> = BTreeMap::new();
        for (scope, export) in self.own_exports.keys() {
            if let Some(Some(value)) = agreed.get(export.as_str()) {
                let member = (export.clone(), (*value).clone());
                by_scope.entry(*scope).or_default().push(member);
            }
        }
        self.own_exports.clear();
        for (scope, mut members) in by_scope {
            members.sort_by(|a, b| a.0.cmp(&b.0));
            let exports = Constant::Object(members);
            if !self.module_replaced.contains(&scope) {
                let module = Constant::Object(vec![("exports".to_owned(), exports.clone())]);
                let bound = Bound {
                    value: module,
                    how: Binding::Fixed,
                };
                self.constants.set("module", scope, bound);
            }
            let bound = Bound {
                value: exports,
                how: Binding::Fixed,
            };
            self.constants.set("exports", scope, bound);
        }
    }

    /// Binds `name` to the members of the object literal `init` that make a channel of their
    /// parameters (`const CH = { make: (n) => `app:${n}`, get(n) { return "get:" + n } }`).
    fn bind_member_makers(&mut self, name: &str, init: &Expr) {
        let Expr::Object(object) = unwrap(init) else {
            return;
        };
        let mut members = Vec::new();
        for prop in object.props.iter().take(constants::MAX_MEMBERS) {
            let PropOrSpread::Prop(prop) = prop else {
                continue;
            };
            let mut part = |part: &Expr| self.fixed_string(part);
            let (key, maker) = match &**prop {
                Prop::KeyValue(kv) => (&kv.key, Maker::of_value(&kv.value, &mut part)),
                Prop::Method(method) => {
                    (&method.key, Maker::of_function(&method.function, &mut part))
                }
                _ => continue,
            };
            if let (Some(key), Some(maker)) = (names::prop_name(key), maker) {
                members.push((key, maker));
            }
        }
        if !members.is_empty() {
            self.member_makers.set(name, self.scopes.current(), members);
        }
    }

    /// Opens a function's frame, in a file that reads IPC helpers: whether it did.
    fn open_frame(
        &mut self,
        start: u32,
        params: impl Iterator<Item = Option<swc_atoms::Atom>>,
    ) -> bool {
        if !self.reads_ipc() {
            return false;
        }
        let (name, method) = match (self.function_name.take(), self.method_name.take()) {
            (Some((at, name)), _) if at == start => (Some(name), false),
            (_, Some((at, name))) if at == start => (Some(name), true),
            _ => match self.value_functions.remove(&start) {
                Some(name) => (Some(name), false),
                None => (None, false),
            },
        };
        let from = self.frame_params.len();
        self.frame_params.extend(params);
        self.frames.push(Frame {
            scope: start,
            name,
            params: from,
            forwards: Vec::new(),
            serves: Vec::new(),
            loads: Vec::new(),
            roots: Vec::new(),
            method,
        });
        true
    }

    /// Closes the innermost frame once the function is left: a named function that
    /// forwards a parameter as a channel is a helper in the scope around it.
    fn close_frame(&mut self) {
        let Some(frame) = self.frames.pop() else {
            return;
        };
        self.frame_params.truncate(frame.params);
        if let (Some(name), false, false) = (&frame.name, frame.roots.is_empty(), frame.method) {
            self.handler_roots
                .set(name, self.scopes.current(), frame.roots.clone());
        }
        if let (Some(name), false) = (
            frame.name,
            frame.forwards.is_empty() && frame.serves.is_empty() && frame.loads.is_empty(),
        ) {
            let helper = Helper {
                forwards: frame.forwards,
                serves: frame.serves,
                loads: frame.loads,
            };
            if frame.method {
                if let Some((_, methods)) = self.classes.last_mut() {
                    methods.push((name, helper));
                }
            } else {
                self.helpers.set(&name, self.scopes.current(), helper);
            }
        }
    }

    /// A `join`/`resolve` in framed functions whose last part is dynamic: a directory each
    /// open frame may serve from ([`Frame::roots`]), at most [`MAX_FRAME_ROOTS`] each.
    fn note_root(&mut self, call: &CallExpr) {
        // Cheap looks first: a call of `join` or `resolve`, or of a name (a renamed import).
        let joins = match call.callee.as_expr().map(|c| unwrap(c)) {
            Some(Expr::Member(member)) => member
                .prop
                .as_ident()
                .is_some_and(|p| matches!(&*p.sym, "join" | "resolve")),
            Some(Expr::Ident(_) | Expr::Seq(_)) => true,
            _ => false,
        };
        if !joins || call.args.len() < 2 {
            return;
        }
        let Some(root) = names::served_dir(call, &*self) else {
            return;
        };
        for frame in &mut self.frames {
            if frame.roots.len() < MAX_FRAME_ROOTS && !frame.roots.contains(&root) {
                frame.roots.push(root.clone());
            }
        }
    }

    /// An IPC operation directly in a framed function whose channel is one of its
    /// parameters: one the function forwards.
    fn note_forward(&mut self, call: &CallExpr) {
        let Some(frame) = self.frames.last() else {
            return;
        };
        if frame.scope != self.scopes.current() {
            return;
        }
        // `ipcRenderer.send.apply(ipcRenderer, arguments)`, as pre-ES2015 code forwards
        // every argument: the function's own arguments, from the first.
        if let Some(callee) = applied_to_arguments(call) {
            let name = normalize(&self.aliases, &self.scopes, names::dotted(callee));
            if let Some((side, operation, mode)) = super::electron::ipc_operation(&name) {
                let listens = mode == "listen" || mode == "handle";
                let forward = crate::facts::IpcForward {
                    param: 0,
                    around: None,
                    side,
                    operation,
                    mode,
                    handler_param: listens.then_some(1),
                    handler_kind: None,
                };
                if let Some(frame) = self.frames.last_mut() {
                    frame.forwards.push(forward);
                }
            }
            return;
        }
        // Cheap looks first: the channel is a parameter of the function, or the first of
        // its rest parameter spread (`(...args) => ipcMain.handle(...args)`).
        let Some(first) = call.args.first() else {
            return;
        };
        let spread = first.spread.is_some();
        let params = &self.frame_params[frame.params..];
        let position =
            |name: &swc_atoms::Atom| params.iter().position(|p| p.as_ref() == Some(name));
        // Or the channel is made of one parameter and strings around it: `` `api:${name}` ``,
        // `"evt:" + name` (what the helper writes around it).
        let (param, around) = match unwrap(&first.expr) {
            Expr::Ident(channel) => {
                let param = if spread {
                    position(&format!("...{}", channel.sym).into())
                } else {
                    position(&channel.sym)
                };
                let Some(param) = param else {
                    return;
                };
                (param, None)
            }
            made if !spread && constants::foldable(made) => {
                let param = |e: &Expr| match e {
                    Expr::Ident(name) => position(&name.sym).and_then(|i| u32::try_from(i).ok()),
                    _ => None,
                };
                let parts = super::templates::parts(made, &mut |p| self.fixed_string(p), &param);
                let Some((param, around)) = parts.as_deref().and_then(super::templates::around)
                else {
                    return;
                };
                (param as usize, Some(around))
            }
            _ => return,
        };
        let name = names::PathScope::callee(&*self, &call.callee);
        if around.is_some() && super::electron::ipc_operation(&name).is_none() {
            return;
        }
        if !spread && (named(&name, "loadFile") || named(&name, "loadURL")) {
            let forward = LoadForward {
                param: param as u32,
                api: if name.ends_with("loadFile") {
                    "loadFile"
                } else {
                    "loadURL"
                },
                at: call.span.lo.0,
            };
            if let Some(frame) = self.frames.last_mut() {
                frame.loads.push(forward);
            }
            return;
        }
        let Some((side, operation, mode)) = super::electron::ipc_operation(&name) else {
            // A protocol method given the parameter as the scheme it serves.
            if let (false, Some(api)) = (spread, super::electron::serving_api(&name)) {
                let roots = call
                    .args
                    .get(1)
                    .map(|h| names::handler_roots(&h.expr, &*self))
                    .unwrap_or_default();
                let serve = crate::facts::SchemeForward {
                    param: param as u32,
                    api,
                    roots,
                };
                if let Some(frame) = self.frames.last_mut() {
                    frame.serves.push(serve);
                }
            }
            return;
        };
        // For a listener or handler: the parameter passed as the handler, if one of the
        // helper's own (the spread's second is the call's argument after the channel);
        // otherwise the kind of what it passes.
        let (mut handler_param, mut handler_kind) = (None, None);
        if mode == "listen" || mode == "handle" {
            let arg = call.args.get(1).map(|a| unwrap(&a.expr));
            handler_param = match arg {
                _ if spread => Some(param + 1),
                Some(Expr::Ident(passed)) => position(&passed.sym),
                _ => None,
            };
            if handler_param.is_none() {
                handler_kind = Some(super::electron::handler_kind(arg));
            }
        }
        let forward = crate::facts::IpcForward {
            param: param as u32,
            around,
            side,
            operation,
            mode,
            handler_param: handler_param.map(|p| p as u32),
            handler_kind,
        };
        if let Some(frame) = self.frames.last_mut() {
            frame.forwards.push(forward);
        }
    }

    fn external(&mut self, key: Option<String>, module: &'static str) {
        if let Some(key) = key {
            self.electron |= module == "electron";
            self.externals.insert(key, module);
            self.rebind |= !PATH_MODULES.contains(&module);
        }
    }
}

/// The function `f.apply(thisArg, arguments)` calls with the calling function's own
/// arguments: `f`.
fn applied_to_arguments(call: &CallExpr) -> Option<&Expr> {
    let Some(Expr::Member(member)) = call.callee.as_expr().map(|c| unwrap(c)) else {
        return None;
    };
    let applies = member.prop.as_ident().is_some_and(|p| p.sym == *"apply")
        && call.args.len() == 2
        && call.args.iter().all(|a| a.spread.is_none())
        && matches!(unwrap(&call.args[1].expr), Expr::Ident(a) if a.sym == *"arguments");
    applies.then_some(&*member.obj)
}

/// The aliased module a factory only re-exports: `function (e) { e.exports = require("m") }`.
fn external_factory_expr(expr: &Expr) -> Option<&'static str> {
    match unwrap(expr) {
        Expr::Fn(f) => external_factory(&f.function),
        Expr::Arrow(arrow) => match &*arrow.body {
            ArrowFunctionBody::FunctionBody(block) => external_body(&block.stmts),
            ArrowFunctionBody::Expr(expr) => exports_of(expr),
        },
        _ => None,
    }
}

fn external_factory(function: &Function) -> Option<&'static str> {
    external_body(&function.body.as_ref()?.stmts)
}

fn external_body(stmts: &[Stmt]) -> Option<&'static str> {
    let mut rest = stmts.iter().filter(|stmt| {
        !matches!(stmt, Stmt::Expr(e) if matches!(&*e.expr, Expr::Lit(swc_ecma_ast::Lit::Str(_))))
    });
    let (Some(Stmt::Expr(only)), None) = (rest.next(), rest.next()) else {
        return None;
    };
    exports_of(&only.expr)
}

/// `x.exports = require("m")` for an aliased `m`.
fn exports_of(expr: &Expr) -> Option<&'static str> {
    let Expr::Assign(assign) = unwrap(expr) else {
        return None;
    };
    let AssignTarget::Simple(SimpleAssignTarget::Member(target)) = &assign.left else {
        return None;
    };
    if assign.op != AssignOp::Assign || target.prop.as_ident().is_none_or(|p| p.sym != *"exports") {
        return None;
    }
    require_spec(&assign.right)
        .as_deref()
        .and_then(aliased_module)
}

/// Exported names that hold an ES-module chunk's ids (webpack 5.9x+, rspack, older webpack 5).
const ESM_CHUNK_IDS: &[&str] = &[
    "__webpack_esm_ids__",
    "__rspack_esm_ids",
    "__webpack_ids__",
    "ids",
];
/// Exported names that hold an ES-module chunk's module table.
const ESM_CHUNK_MODULES: &[&str] = &["__webpack_esm_modules__", "__webpack_modules__", "modules"];

impl Visit for PrePass {
    fn visit_export_decl(&mut self, export: &ExportDecl) {
        // `export function handle(…)`, `export class Ipc {…}`: what another file may call as
        // an IPC helper.
        if self.reads_ipc() {
            let name = match &export.decl {
                Decl::Fn(f) => Some(&f.ident.sym),
                Decl::Class(c) => Some(&c.ident.sym),
                _ => None,
            };
            if let Some(name) = name {
                self.api_exports.push((name.to_string(), name.to_string()));
            }
        }
        // `export function channel(name) { return `app:${name}`; }`: a function that may make
        // a channel, read once the file is.
        if let Decl::Fn(f) = &export.decl {
            let name = f.ident.sym.to_string();
            self.export_locals.push((name.clone(), name));
        }
        // `export enum Channel { Open = "link:open" }`, in a TypeScript file.
        if let Decl::TsEnum(decl) = &export.decl {
            self.exported
                .push((decl.id.sym.to_string(), constants::enum_decl(decl)));
        }
        if let Decl::Var(var) = &export.decl {
            for decl in &var.decls {
                // `export var Channel;`, which a compiled enum then fills.
                if let (Pat::Ident(ident), None) = (&decl.name, &decl.init) {
                    let name = ident.id.sym.to_string();
                    self.export_locals.push((name.clone(), name));
                }
                let (Pat::Ident(ident), Some(init)) = (&decl.name, &decl.init) else {
                    continue;
                };
                let name: &str = &ident.id.sym;
                if self.reads_ipc() {
                    self.api_exports.push((name.to_owned(), name.to_owned()));
                }
                // `export const channel = (name) => …`: a function that may make a channel.
                if matches!(unwrap(init), Expr::Arrow(_) | Expr::Fn(_)) {
                    self.export_locals.push((name.to_owned(), name.to_owned()));
                }
                // `export const GET = "settings:get"`, and `export const CHANNELS = [GET, …]`.
                if var.kind == swc_ecma_ast::VarDeclKind::Const
                    && let Some(value) = constants::constant(init)
                        .or_else(|| self.folded(init).map(Constant::Str))
                        .or_else(|| self.listed(init))
                {
                    self.exported.push((name.to_owned(), value));
                }
                match unwrap(init) {
                    Expr::Array(ids) if ESM_CHUNK_IDS.contains(&name) => {
                        self.esm_chunk_ids = Some(bundle::chunk_ids(ids));
                    }
                    table
                        if ESM_CHUNK_MODULES.contains(&name) && bundle::looks_like_table(table) =>
                    {
                        self.esm_tables.insert(init.span().lo.0);
                    }
                    _ => {}
                }
            }
        }
        export.visit_children_with(self);
    }

    fn visit_function(&mut self, function: &Function) {
        let start = function.span.lo.0;
        let ipc_params = self.ipc_params_of(start);
        let framed = self.open_frame(start, function.params.iter().map(|p| param_name(&p.pat)));
        self.scopes.enter(start);
        self.params_bound(function.params.iter().map(|p| &p.pat));
        for param in &function.params {
            self.shadow(&param.pat, 0);
        }
        self.web_contents_param(start, function.params.first().map(|p| &p.pat));
        self.bind_defaults(function.params.iter().map(|p| &p.pat));
        self.bind_ipc_params(ipc_params, |i| function.params.get(i).map(|p| &p.pat));
        function.visit_children_with(self);
        self.scopes.leave();
        if framed {
            self.close_frame();
        }
    }

    /// `enum Channel { Open = "link:open" }`: a constant of its string members, as the enum
    /// TypeScript compiles it to is.
    fn visit_ts_enum_decl(&mut self, decl: &swc_ecma_ast::TsEnumDecl) {
        let scope = self.scopes.current();
        let bound = Bound {
            value: constants::enum_decl(decl),
            how: Binding::Fixed,
        };
        self.constants.bind(&decl.id.sym, scope, Some(bound));
    }

    fn visit_class_decl(&mut self, decl: &swc_ecma_ast::ClassDecl) {
        if self.reads_choices() {
            self.choices.bound_name(&decl.ident.sym, &self.scopes);
        }
        if self.reads_ipc() {
            self.class_name = Some((decl.class.span.lo.0, decl.ident.sym.to_string()));
        }
        decl.visit_children_with(self);
    }

    fn visit_class_expr(&mut self, class: &swc_ecma_ast::ClassExpr) {
        if self.reads_ipc()
            && let Some(ident) = &class.ident
            && self.class_name.is_none()
        {
            self.class_name = Some((class.class.span.lo.0, ident.sym.to_string()));
        }
        class.visit_children_with(self);
    }

    /// A class whose methods forward a parameter as an IPC channel is kept by its name, in
    /// the scope around it, with those methods ([`Self::class_helpers`]).
    fn visit_class(&mut self, class: &swc_ecma_ast::Class) {
        self.visit_class_body(class);
    }

    // A class's field holds what it is given where it is declared: `ipc = electron.ipcMain`.
    fn visit_class_prop(&mut self, prop: &swc_ecma_ast::ClassProp) {
        if let (Some(name), Some(value)) = (prop.key.as_ident(), &prop.value) {
            self.bind_this_member(&format!("this.{}", name.sym), value);
        }
        prop.visit_children_with(self);
    }

    fn visit_private_prop(&mut self, prop: &swc_ecma_ast::PrivateProp) {
        if let Some(value) = &prop.value {
            self.bind_this_member(&format!("this.#{}", prop.key.name), value);
        }
        prop.visit_children_with(self);
    }

    fn visit_class_method(&mut self, method: &swc_ecma_ast::ClassMethod) {
        if self.reads_ipc()
            && method.kind == swc_ecma_ast::MethodKind::Method
            && let Some(name) = names::prop_name(&method.key)
        {
            self.method_name = Some((method.function.span.lo.0, name));
        }
        method.visit_children_with(self);
    }

    /// `{key: "mainBindings", value: function (e, t) {…}}`, the descriptor of a class's method
    /// Babel's `_createClass` takes (its function's own name dropped by a minifier): the
    /// function is the method of that name, where calls hand Electron's IPC objects to one.
    fn visit_object_lit(&mut self, object: &swc_ecma_ast::ObjectLit) {
        if !self.ipc_arg_calls.is_empty()
            && let [PropOrSpread::Prop(first), PropOrSpread::Prop(second), ..] =
                object.props.as_slice()
            && let (Prop::KeyValue(key), Prop::KeyValue(value)) = (&**first, &**second)
            && names::prop_name(&key.key).as_deref() == Some("key")
            && names::prop_name(&value.key).as_deref() == Some("value")
            && let Some(name) = string(&key.value)
        {
            let start = match unwrap(&value.value) {
                Expr::Fn(f) => Some(f.function.span.lo.0),
                Expr::Arrow(arrow) => Some(arrow.span.lo.0),
                _ => None,
            };
            if let Some(start) = start {
                self.fn_expr_name = Some((start, name.as_str().into()));
            }
        }
        object.visit_children_with(self);
    }

    fn visit_fn_expr(&mut self, function: &swc_ecma_ast::FnExpr) {
        let start = function.function.span.lo.0;
        if !self.ipc_arg_calls.is_empty()
            && let Some(ident) = &function.ident
            && self
                .fn_expr_name
                .as_ref()
                .is_none_or(|(at, _)| *at != start)
        {
            self.fn_expr_name = Some((start, ident.sym.clone()));
        }
        function.visit_children_with(self);
    }

    fn visit_fn_decl(&mut self, decl: &swc_ecma_ast::FnDecl) {
        if self.reads_choices() {
            self.choices.bound_name(&decl.ident.sym, &self.scopes);
        }
        if self.looks.amd {
            self.strings.declare_function(&decl.ident.sym);
        }
        if self.reads_ipc() {
            self.function_name = Some((decl.function.span.lo.0, decl.ident.sym.to_string()));
        }
        // In every file: a module that only makes channels for others may export it.
        let maker = Maker::of_function(&decl.function, &mut |part| self.fixed_string(part));
        if let Some(maker) = maker {
            self.makers
                .set(&decl.ident.sym, self.scopes.current(), maker);
        }
        decl.visit_children_with(self);
    }

    fn visit_arrow_expr(&mut self, arrow: &ArrowExpr) {
        let start = arrow.span.lo.0;
        let ipc_params = self.ipc_params_of(start);
        let framed = self.open_frame(start, arrow.params.iter().map(param_name));
        self.scopes.enter(start);
        self.params_bound(arrow.params.iter());
        for param in &arrow.params {
            self.shadow(param, 0);
        }
        self.web_contents_param(start, arrow.params.first());
        self.bind_defaults(arrow.params.iter());
        self.bind_ipc_params(ipc_params, |i| arrow.params.get(i));
        arrow.visit_children_with(self);
        self.scopes.leave();
        if framed {
            self.close_frame();
        }
    }

    fn visit_var_declarator(&mut self, decl: &VarDeclarator) {
        // `const wc = win.webContents`, `const target = t || mainWindow().webContents`,
        // `const wc = webContents.fromId(id)`: a name for a page's WebContents, whose `send`
        // is `webContents.send`.
        // `const sw = await ses.serviceWorkers.startWorkerForScope(url)`: a service worker's,
        // whose `send` and `ipc` are read like a page's.
        if self.reads_ipc()
            && let Pat::Ident(ident) = &decl.name
        {
            match decl.init.as_deref() {
                Some(init) => {
                    if let Some(holds) = self.holder(init) {
                        let scope = self.scopes.current();
                        self.aliases
                            .bind(&ident.id.sym, scope, Some(holds.to_owned()));
                    } else if self.lists_web_contents(init) {
                        let scope = self.scopes.current();
                        self.web_contents_lists.bind(&ident.id.sym, scope, Some(()));
                    }
                }
                None => self
                    .bare
                    .bind(&ident.id.sym, self.scopes.current(), Some(())),
            }
        }
        if self.reads_choices() {
            match &decl.name {
                Pat::Ident(ident) => self.choices.declared(
                    &ident.id.sym,
                    (decl.init.as_deref(), self.in_const),
                    &self.scopes,
                ),
                pat => self.choices.bound(pat, &self.scopes),
            }
        }
        // `const send = (channel) => …`: the function's name, for its frame;
        // `const Ipc = class {…}`: the class's.
        if self.reads_ipc()
            && let (Pat::Ident(ident), Some(init)) = (&decl.name, decl.init.as_deref())
        {
            let start = match unwrap(init) {
                Expr::Arrow(arrow) => Some(arrow.span.lo.0),
                Expr::Fn(f) => Some(f.function.span.lo.0),
                _ => None,
            };
            if let Some(start) = start {
                self.function_name = Some((start, ident.id.sym.to_string()));
            }
            self.bind_member_makers(&ident.id.sym, init);
            if let Expr::Class(class) = unwrap(init) {
                self.class_name = Some((class.class.span.lo.0, ident.id.sym.to_string()));
            }
        }
        // In every file: a module that only makes channels for others may export it.
        if let (Pat::Ident(ident), Some(init)) = (&decl.name, decl.init.as_deref()) {
            self.bind_maker(&ident.id.sym, init);
        }
        let bound = decl
            .init
            .as_deref()
            .is_some_and(|init| self.bind_init(&decl.name, init));
        if !bound {
            self.shadow(&decl.name, 0);
        }
        if let (Pat::Ident(ident), Some(init)) = (&decl.name, decl.init.as_deref()) {
            // Window options bound to a name, and a helper's expression body, may spread
            // more names: they are read too (the second pass sees what the first added).
            match unwrap(init) {
                _ if self.option_names.contains(&*ident.id.sym) => self.window_options(init, 1),
                Expr::Arrow(arrow) if self.option_functions.contains(&*ident.id.sym) => {
                    if let ArrowFunctionBody::Expr(body) = &*arrow.body {
                        self.window_options(body, 1);
                    }
                }
                _ => {}
            }
            if self.looks.vite && ident.id.sym == *"__vite__mapDeps" && self.vite_deps.is_empty() {
                self.vite_deps = vite_table(init);
            }
            if self.looks.amd {
                match unwrap(init) {
                    Expr::Array(array) => self.strings.bind_array(&ident.id.sym, array),
                    Expr::Fn(_) | Expr::Arrow(_) => self.strings.declare_function(&ident.id.sym),
                    other => self.strings.bind_define(&ident.id.sym, other),
                }
            }
            if self.looks.parcel {
                self.parcel.bind(&ident.id.sym, init);
            }
        }
        if let (Pat::Ident(ident), Some(init)) = (&decl.name, decl.init.as_deref()) {
            let declared = if self.in_const {
                Binding::Fixed
            } else {
                Binding::Declared
            };
            let value = match unwrap(init) {
                Expr::Call(call) => {
                    constants::enum_call(call).map(|(_, members)| (members, Binding::Fixed))
                }
                _ => None,
            }
            .or_else(|| constants::constant(init).map(|value| (value, declared)))
            .or_else(|| self.folded(init).map(|s| (Constant::Str(s), declared)))
            .or_else(|| self.listed(init).map(|list| (list, declared)));
            if let Some((value, how)) = value {
                let scope = self.scopes.current();
                self.constants
                    .bind(&ident.id.sym, scope, Some(Bound { value, how }));
            }
        }
        if let (Pat::Ident(ident), Some(init)) = (&decl.name, decl.init.as_deref())
            && let Some(anchor) = names::anchor_of(init, self)
        {
            let scope = self.scopes.current();
            self.anchors.bind(&ident.id.sym, scope, Some(anchor));
        } else if self.electron
            && let (Pat::Ident(ident), Some(init)) = (&decl.name, decl.init.as_deref())
        {
            let mut branches = Vec::new();
            names::alternatives(init, &mut branches, 0);
            let mut paths: Vec<StaticPath> = Vec::new();
            let mut complete = true;
            for branch in branches {
                if !may_bind_path(branch) {
                    complete = false;
                    continue;
                }
                let read = match names::static_path(branch, self) {
                    Some(path) => vec![path],
                    None => names::expanded_paths(branch, self),
                };
                if read.is_empty() {
                    complete = false;
                }
                for path in read {
                    if paths.len() == MAX_PATH_ALTERNATIVES {
                        // More values than a name keeps: the rest are not known.
                        complete = false;
                    } else if !paths.contains(&path) {
                        paths.push(path);
                    }
                }
            }
            if !paths.is_empty() {
                let how = if self.in_const {
                    Binding::Fixed
                } else {
                    Binding::Declared
                };
                let scope = self.scopes.current();
                let bound = PathBound {
                    paths,
                    complete,
                    how,
                    assigned: 0,
                };
                self.paths.bind(&ident.id.sym, scope, Some(bound));
            }
        }
        if let Some(init) = &decl.init {
            if let Pat::Ident(ident) = &decl.name
                && let Expr::Call(call) = unwrap(init)
            {
                let name = callee_name(&call.callee);
                let wrapper = if named(&name, "__commonJS") || named(&name, "__esm") {
                    None
                } else {
                    self.wrappers.resolve(&name, &self.scopes).copied()
                };
                if let Some(kind) = wrapper {
                    // A helper known by its shape: the call is a wrapper whether its module is
                    // a keyed table or, as minified builds write it, the function alone,
                    // whose key is then the name the wrapper is bound to.
                    let key = match call.args.first().map(|a| unwrap(&a.expr)) {
                        Some(f) if call.args.len() == 1 && bundle::is_function(f) => {
                            Some(ident.id.sym.to_string())
                        }
                        _ => None,
                    };
                    if let Some(key) = &key {
                        self.esbuild
                            .insert(key.clone(), ModuleKey::String(key.clone()));
                    }
                    self.wrapper_calls
                        .insert((call.span.lo.0, call.span.hi.0), (kind, key));
                } else if let [arg] = call.args.as_slice()
                    && arg.spread.is_none()
                    && bundle::is_function(&arg.expr)
                    && let Some(ChannelImport {
                        from: ImportFrom::Specifier(from),
                        path,
                    }) = self.imports.resolve(&name, &self.scopes)
                    && from.starts_with('.')
                    && let [helper] = path.as_slice()
                {
                    // Perhaps a wrapper whose helper another chunk exports: settled once
                    // every file is read.
                    let key = ident.id.sym.to_string();
                    let call_key = (call.span.lo.0, call.span.hi.0);
                    self.imported_calls
                        .insert(call_key, (from.clone(), helper.clone(), key.clone()));
                    self.esbuild.insert(key.clone(), ModuleKey::String(key));
                }
                if (named(&name, "__commonJS") || named(&name, "__esm") || wrapper.is_some())
                    && let Some(Expr::Object(obj)) = call.args.first().map(|a| unwrap(&a.expr))
                    && let Some(PropOrSpread::Prop(prop)) = obj.props.first()
                {
                    let key = match &**prop {
                        Prop::KeyValue(kv) => names::prop_name(&kv.key),
                        Prop::Method(m) => names::prop_name(&m.key),
                        _ => None,
                    };
                    if let Some(key) = key {
                        self.esbuild
                            .insert(ident.id.sym.to_string(), ModuleKey::String(key));
                    }
                }
            }
            if let Pat::Ident(ident) = &decl.name
                && let Some((kind, bundler)) = bundle::esbuild_helper(init)
            {
                let scope = self.scopes.current();
                self.wrappers.bind(&ident.id.sym, scope, Some(kind));
                self.rolldown_helpers |= bundler == "rolldown";
            }
            if let Pat::Ident(ident) = &decl.name
                && ident.id.sym == *"__webpack_modules__"
            {
                self.tables.any_scope(ident.id.sym.to_string());
            }
        }
        decl.visit_children_with(self);
    }

    fn visit_export_default_expr(&mut self, export: &swc_ecma_ast::ExportDefaultExpr) {
        if self.reads_ipc() {
            match unwrap(&export.expr) {
                // `export default api`, and `export default new IpcManager()`, whose
                // instance has the class's helpers.
                Expr::Ident(ident) => self
                    .api_exports
                    .push(("default".to_owned(), ident.sym.to_string())),
                new @ Expr::New(_) => {
                    if let Some(class) = names::instantiated_class(new) {
                        self.api_exports.push(("default".to_owned(), class));
                    }
                }
                // `export default (scheme) => {…}`: a helper under a name no code can bind.
                Expr::Arrow(arrow) => {
                    self.function_name = Some((arrow.span.lo.0, "default".to_owned()));
                    self.api_exports
                        .push(("default".to_owned(), "default".to_owned()));
                }
                Expr::Fn(f) if f.ident.is_none() => {
                    self.function_name = Some((f.function.span.lo.0, "default".to_owned()));
                    self.api_exports
                        .push(("default".to_owned(), "default".to_owned()));
                }
                _ => {}
            }
        }
        export.visit_children_with(self);
    }

    fn visit_named_export(&mut self, export: &swc_ecma_ast::NamedExport) {
        // `export { a as b }` of the file's own names.
        if export.src.is_none() {
            for specifier in &export.specifiers {
                if let swc_ecma_ast::ExportSpecifier::Named(named) = specifier
                    && let ModuleExportName::Ident(orig) = &named.orig
                {
                    let exported = match &named.exported {
                        Some(ModuleExportName::Ident(e)) => e.sym.to_string(),
                        Some(ModuleExportName::Str(s)) => s.value.to_string_lossy().into_owned(),
                        None => orig.sym.to_string(),
                    };
                    if self.reads_ipc() {
                        self.api_exports
                            .push((exported.clone(), orig.sym.to_string()));
                    }
                    self.export_locals.push((exported, orig.sym.to_string()));
                }
            }
        }
        export.visit_children_with(self);
    }

    fn visit_import_decl(&mut self, decl: &swc_ecma_ast::ImportDecl) {
        if self.reads_choices() {
            for specifier in &decl.specifiers {
                let local = match specifier {
                    ImportSpecifier::Named(named) => &named.local.sym,
                    ImportSpecifier::Default(d) => &d.local.sym,
                    ImportSpecifier::Namespace(n) => &n.local.sym,
                };
                self.choices.bound_name(local, &self.scopes);
            }
        }
        let spec = decl.src.value.to_string_lossy();
        if importable(&spec) {
            for specifier in &decl.specifiers {
                let (local, path) = match specifier {
                    ImportSpecifier::Named(named) => (&named.local.sym, vec![imported_name(named)]),
                    ImportSpecifier::Default(d) => (&d.local.sym, vec!["default".to_owned()]),
                    ImportSpecifier::Namespace(ns) => (&ns.local.sym, Vec::new()),
                };
                let import = ChannelImport {
                    from: ImportFrom::Specifier(spec.clone().into_owned()),
                    path,
                };
                self.imports.bind(local, PROGRAM_SCOPE, Some(import));
            }
        }
        if let Some(module) = aliased_module(&spec) {
            for specifier in &decl.specifiers {
                match specifier {
                    ImportSpecifier::Named(named) => {
                        let imported = imported_name(named);
                        self.alias(&named.local.sym, &format!("{module}.{imported}"), module);
                    }
                    ImportSpecifier::Default(d) => self.alias(&d.local.sym, module, module),
                    ImportSpecifier::Namespace(ns) => self.alias(&ns.local.sym, module, module),
                }
            }
        }
    }

    fn visit_assign_expr(&mut self, assign: &swc_ecma_ast::AssignExpr) {
        if self.reads_choices()
            && let AssignTarget::Pat(target) = &assign.left
        {
            let mut names = Vec::new();
            names::target_names(target, &mut names);
            self.choices.assigned_names(&names, &self.scopes);
        }
        // A chunk in webpack's and rspack's CommonJS chunk format (what `target: "node"` and
        // `"electron-main"` split into): `exports.ids = [14]; exports.modules = {14(e, t, n) {…}}`.
        if self.scopes.current() == PROGRAM_SCOPE
            && assign.op == AssignOp::Assign
            && let AssignTarget::Simple(SimpleAssignTarget::Member(member)) = &assign.left
        {
            match (bundle::commonjs_chunk_part(member), unwrap(&assign.right)) {
                (Some("ids"), Expr::Array(ids)) => {
                    self.esm_chunk_ids = Some(bundle::chunk_ids(ids));
                }
                (Some("modules"), table) if bundle::looks_like_table(table) => {
                    self.esm_tables.insert(assign.right.span().lo.0);
                }
                _ => {}
            }
        }
        if self.reads_ipc()
            && assign.op == AssignOp::Assign
            && let AssignTarget::Simple(SimpleAssignTarget::Member(member)) = &assign.left
            && let Some(prop) = member.prop.as_ident()
            && let Expr::Ident(local) = unwrap(&assign.right)
        {
            self.note_exported_as(&prop.sym, &local.sym);
        }
        // `this.ipc = electron.ipcMain`: a member of `this` holding what the file aliases.
        if assign.op == AssignOp::Assign
            && let AssignTarget::Simple(SimpleAssignTarget::Member(member)) = &assign.left
            && let Some(name) = this_member(member)
        {
            self.bind_this_member(&name, &assign.right);
        }
        // `t.handle = function (e, t) { … }`, as terser writes an exported function: the
        // function's name, for its frame, is the member it is assigned to.
        if self.reads_ipc()
            && assign.op == AssignOp::Assign
            && let AssignTarget::Simple(SimpleAssignTarget::Member(member)) = &assign.left
        {
            let start = match unwrap(&assign.right) {
                Expr::Arrow(arrow) => Some(arrow.span.lo.0),
                Expr::Fn(f) => Some(f.function.span.lo.0),
                _ => None,
            };
            if let Some(start) = start {
                self.function_name = Some((start, names::dotted_member(member)));
            }
        }
        // `exports.GET = "settings:get"`, `module.exports = { GET: "settings:get" }`.
        if assign.op == AssignOp::Assign
            && let AssignTarget::Simple(SimpleAssignTarget::Member(member)) = &assign.left
            && constants::on_commonjs_exports(member)
        {
            let before = self.exported.len();
            constants::exported_by(
                member,
                &assign.right,
                constants::commonjs_exports,
                &mut self.exported,
            );
            // `exports.CHANNELS = [Channel.A, …]`, as `tsc` writes an exported list.
            if self.exported.len() == before
                && let swc_ecma_ast::MemberProp::Ident(prop) = &member.prop
                && constants::commonjs_exports(&names::dotted(&member.obj))
                && let Some(list) = self.listed(&assign.right)
            {
                self.exported.push((prop.sym.to_string(), list));
            }
            if let Some(export) = constants::commonjs_export_path(member, (None, None)) {
                self.own_export(&export, &assign.right);
                // `exports.channel = (name) => `app:${name}``: a function that makes a channel.
                if !export.is_empty()
                    && let Some(maker) = self.maker_value(&assign.right)
                {
                    self.exported.push((export.clone(), Constant::Maker(maker)));
                }
                // `module.exports = { A, B: b }`, `exports.A = A`: names the file binds,
                // looked up once it is read (at the top level only, where those names are the
                // file's).
                if self.scopes.current() == PROGRAM_SCOPE {
                    let exported = exported_names(export.clone(), &assign.right);
                    // A whole `module.exports = A` names no export of its own.
                    self.export_locals
                        .extend(exported.into_iter().filter(|(name, _)| !name.is_empty()));
                }
                if self.reads_ipc() {
                    let target = names::dotted_member(member);
                    self.api_exports_of(export, &assign.right, &target);
                }
            }
        }
        // `t.api = o` in a factory: `o` may be an API object it exports.
        if self.electron
            && self.exposes
            && assign.op == AssignOp::Assign
            && let AssignTarget::Simple(SimpleAssignTarget::Member(member)) = &assign.left
            && member.prop.is_ident()
            && let Expr::Ident(value) = unwrap(&assign.right)
            && !self.api_names.contains(&*value.sym)
        {
            self.api_names.insert(value.sym.to_string());
        }
        if let Some(member) = constants::inline_enum_member(assign) {
            let scope = self.scopes.current();
            let members = self
                .inline_enums
                .entry((member.target.to_owned(), scope))
                .or_default();
            if members.len() < constants::MAX_MEMBERS {
                members.push((member.key, Constant::Str(member.value)));
            }
        }
        if let AssignTarget::Simple(SimpleAssignTarget::Ident(ident)) = &assign.left {
            *self.assignments.entry(ident.sym.to_string()).or_default() += 1;
            if self.reads_choices() {
                self.choices.assigned(
                    &ident.id.sym,
                    (assign.op, Some(&assign.right)),
                    &self.scopes,
                );
            }
            if assign.op == AssignOp::Assign && self.electron && may_bind_path(&assign.right) {
                self.assign_path(&ident.id.sym, &assign.right);
            }
            if assign.op == AssignOp::Assign
                && let Some(value) = constants::constant(&assign.right)
            {
                let scope = self.scopes.current();
                let bound = Bound {
                    value,
                    how: Binding::Assigned,
                };
                self.constants.bind(&ident.id.sym, scope, Some(bound));
            }
        }
        // `devtronSW = sw` in a function, after `let devtronSW;` around it: the name holds
        // a page's or a service worker's object where it is declared.
        if self.reads_ipc()
            && assign.op == AssignOp::Assign
            && let AssignTarget::Simple(SimpleAssignTarget::Ident(ident)) = &assign.left
            && let Some(holds) = self.holder(&assign.right)
        {
            let scope = self
                .bare
                .resolve_scope(&ident.id.sym, &self.scopes)
                .map_or_else(|| self.scopes.current(), |(scope, _)| scope);
            self.aliases
                .bind(&ident.id.sym, scope, Some(holds.to_owned()));
        }
        // `o = d(452)`: minifiers declare names first and assign them in one sequence
        // (rspack writes `var r, n, o; …, r = d(157), o = d(452), t = d.n(o)`).
        if assign.op == AssignOp::Assign
            && let AssignTarget::Simple(SimpleAssignTarget::Ident(ident)) = &assign.left
            && matches!(
                unwrap(&assign.right),
                Expr::Call(_) | Expr::Ident(_) | Expr::Member(_)
            )
        {
            self.bind_init(&Pat::Ident(ident.clone()), &assign.right);
        }
        if assign.op == AssignOp::Assign
            && let AssignTarget::Simple(swc_ecma_ast::SimpleAssignTarget::Member(member)) =
                &assign.left
            && member.prop.is_ident()
            && may_be_path(&assign.right)
        {
            let path = names::static_path(&assign.right, self);
            if path.is_none() && self.member_paths.is_empty() {
                // Nothing bound that this could contradict: no name to make.
                assign.visit_children_with(self);
                return;
            }
            let name = names::dotted_member(member);
            let room = self.member_paths.len() < MAX_MEMBER_PATHS;
            match self.member_paths.get_mut(&name) {
                Some(bound) if *bound != path => *bound = None,
                Some(_) => {}
                None if path.is_some() && room => {
                    self.member_paths.insert(name, path);
                }
                None => {}
            }
        }
        assign.visit_children_with(self);
    }

    fn visit_catch_clause(&mut self, clause: &swc_ecma_ast::CatchClause) {
        if self.reads_choices()
            && let Some(param) = &clause.param
        {
            self.choices.bound(param, &self.scopes);
        }
        clause.visit_children_with(self);
    }

    /// A class's constructor, in a scope of its own: its parameters, those `new` hands
    /// Electron's IPC objects to among them ([`Self::constructor_ipc_params`]).
    fn visit_constructor(&mut self, constructor: &swc_ecma_ast::Constructor) {
        use swc_ecma_ast::{ParamOrTsParamProp, TsParamPropParam};
        let ipc_params = self.constructor_ipc_params();
        self.scopes.enter(constructor_scope(constructor));
        let param = |i: usize| match constructor.params.get(i)? {
            ParamOrTsParamProp::Param(param) => Some(&param.pat),
            ParamOrTsParamProp::TsParamProp(_) => None,
        };
        for i in 0..constructor.params.len() {
            if let Some(pat) = param(i) {
                self.shadow(pat, 0);
            }
        }
        // `constructor(private ipc: IpcMain)`: TypeScript's parameter property is also the
        // member `this.ipc`.
        for &(index, object) in &ipc_params {
            if let Some(ParamOrTsParamProp::TsParamProp(prop)) = constructor.params.get(index)
                && let TsParamPropParam::Ident(ident) = &prop.param
            {
                self.alias(&ident.id.sym, object, "electron");
                let class = self.class_scopes.last().copied();
                let previous = std::mem::replace(&mut self.alias_scope, class);
                self.alias(&format!("this.{}", ident.id.sym), object, "electron");
                self.alias_scope = previous;
            }
        }
        self.bind_defaults((0..constructor.params.len()).filter_map(param));
        self.bind_ipc_params(ipc_params, param);
        if self.reads_choices() {
            for param in &constructor.params {
                match param {
                    swc_ecma_ast::ParamOrTsParamProp::Param(param) => {
                        self.choices.bound(&param.pat, &self.scopes);
                    }
                    swc_ecma_ast::ParamOrTsParamProp::TsParamProp(prop) => {
                        if let swc_ecma_ast::TsParamPropParam::Ident(ident) = &prop.param {
                            self.choices.bound_name(&ident.id.sym, &self.scopes);
                        }
                    }
                }
            }
        }
        constructor.visit_children_with(self);
        self.scopes.leave();
    }

    fn visit_for_of_stmt(&mut self, stmt: &swc_ecma_ast::ForOfStmt) {
        self.loop_head(&stmt.left);
        // `for (const wc of webContents.getAllWebContents()) wc.send("x")`: the loop's name
        // is a page's WebContents.
        if self.reads_ipc()
            && let swc_ecma_ast::ForHead::VarDecl(decl) = &stmt.left
            && let [declarator] = decl.decls.as_slice()
            && let Pat::Ident(ident) = &declarator.name
            && self.lists_web_contents(&stmt.right)
        {
            let scope = self.scopes.current();
            self.aliases
                .bind(&ident.id.sym, scope, Some("webContents".to_owned()));
        }
        stmt.visit_children_with(self);
    }

    fn visit_for_in_stmt(&mut self, stmt: &swc_ecma_ast::ForInStmt) {
        self.loop_head(&stmt.left);
        if let Expr::Ident(table) = unwrap(&stmt.right) {
            self.iterated_tables.insert(table.sym.to_string());
        }
        stmt.visit_children_with(self);
    }

    fn visit_var_decl(&mut self, decl: &swc_ecma_ast::VarDecl) {
        let outer = std::mem::replace(
            &mut self.in_const,
            decl.kind == swc_ecma_ast::VarDeclKind::Const,
        );
        decl.visit_children_with(self);
        self.in_const = outer;
    }

    fn visit_update_expr(&mut self, update: &swc_ecma_ast::UpdateExpr) {
        if let Expr::Ident(ident) = unwrap(&update.arg) {
            *self.assignments.entry(ident.sym.to_string()).or_default() += 1;
            if self.reads_choices() {
                self.choices
                    .assigned(&ident.sym, (AssignOp::Assign, None), &self.scopes);
            }
        }
        update.visit_children_with(self);
    }

    fn visit_opt_call(&mut self, call: &swc_ecma_ast::OptCall) {
        match names::opt_call_as_call(call) {
            Some(call) => self.visit_call_expr(&call),
            None => call.visit_children_with(self),
        }
    }

    fn visit_call_expr(&mut self, call: &CallExpr) {
        if let [arg] = call.args.as_slice()
            && let Expr::Ident(table) = unwrap(&arg.expr)
            && let Some(Expr::Member(callee)) = call.callee.as_expr().map(|c| unwrap(c))
            && (callee.prop.is_ident_with("entries") || callee.prop.is_ident_with("keys"))
            && matches!(unwrap(&callee.obj), Expr::Ident(object) if &*object.sym == "Object")
        {
            self.iterated_tables.insert(table.sym.to_string());
        }
        if !self.frames.is_empty() {
            self.note_forward(call);
            self.note_root(call);
        }
        if self.reads_ipc() {
            self.value_functions(call);
            if let Some(start) = web_contents_callback(call, |list| self.lists_web_contents(list)) {
                self.web_contents_callbacks.insert(start);
            }
            if !call.args.is_empty()
                && let Some(callee) = call.callee.as_expr().and_then(|c| called_name(c))
            {
                self.note_ipc_args(callee, &call.args, call.span);
            }
        }
        self.inline_wrapper(call);
        // `Object.defineProperty(exports, "A", { enumerable: true, get: function () { return
        // A; } })`, as rollup and rolldown write a CommonJS export (and `{ value: A }`).
        if self.scopes.current() == PROGRAM_SCOPE
            && let Some((export, value)) = defined_export(call)
        {
            match unwrap(value) {
                Expr::Ident(local) => self.export_locals.push((export, local.sym.to_string())),
                other => {
                    if let Some(value) = constants::constant(other) {
                        self.exported.push((export, value));
                    }
                }
            }
        }
        // `(function (E) { E["Open"] = "link:open"; })(E || (E = {}))`: a TypeScript enum,
        // exported as `E || (exports.E = E = {})`.
        if let Some((target, members)) = constants::enum_call(call) {
            if let Some(exported) = constants::enum_export(call, constants::commonjs_exports) {
                self.exported.push((exported, members.clone()));
            }
            if let Some(target) = target {
                self.enums.insert(target.to_owned(), members.clone());
            }
            if let Some(target) = target {
                let scope = self.scopes.current();
                let bound = Bound {
                    value: members,
                    how: Binding::Fixed,
                };
                self.constants.bind(target, scope, Some(bound));
            }
        }
        if let Some(table) = bundle::runtime_table_name(call) {
            // `T[id](m, m.exports, req)`: `req` is the runtime's
            // require, which an entry module inlined into the runtime calls.
            if let Some(Expr::Ident(require)) = call.args.last().map(|a| unwrap(&a.expr)) {
                self.runtime_requires
                    .insert(require.sym.to_string(), table.clone());
            }
            self.tables.read_from(table, self.scopes.stack());
        }
        if let Some(callee) = call.callee.as_expr()
            && let Expr::Member(member) = unwrap(callee)
            && let Some(method) = member.prop.as_ident()
        {
            // `n.d(t, {api: () => o})`: webpack's export getters, in a file that uses Electron.
            if self.electron && self.exposes && method.sym == *"d" {
                for (_, local) in export_getters(call) {
                    self.api_names.insert(local.to_owned());
                }
            }
            if self.reads_ipc() && method.sym == *"d" {
                for (name, local) in export_getters(call) {
                    self.note_exported_as(&name.into(), &local.into());
                }
            }
            let api = match &*method.sym {
                "exposeInMainWorld" => call.args.get(1),
                "exposeInIsolatedWorld" => call.args.get(2),
                _ => None,
            };
            self.exposes |= api.is_some();
            match api.map(|a| unwrap(&a.expr)) {
                Some(Expr::Ident(ident)) => {
                    self.object_names.insert(ident.sym.to_string());
                }
                // `{ ...base, x }`: the names it spreads, read as bridge literals too.
                Some(Expr::Object(obj)) => {
                    for prop in &obj.props {
                        if let PropOrSpread::Spread(spread) = prop
                            && let Expr::Ident(ident) = unwrap(&spread.expr)
                        {
                            self.object_names.insert(ident.sym.to_string());
                        }
                    }
                }
                _ => {}
            }
        }
        call.visit_children_with(self);
    }

    fn visit_new_expr(&mut self, new: &NewExpr) {
        // `new Bridge(ipcMain)`: the constructor's (or the constructor function's) parameter
        // holds the object.
        if self.reads_ipc()
            && let Some(args) = new.args.as_deref().filter(|args| !args.is_empty())
            && let Some(callee) = called_name(&new.callee)
        {
            self.note_ipc_args(callee, args, new.span);
        }
        let constructor = self.read_name(&new.callee);
        if constructor.is_some_and(|c| WINDOW_CONSTRUCTORS.contains(&c))
            && let Some(first) = new.args.as_ref().and_then(|a| a.first())
        {
            self.window_options(&first.expr, 0);
        }
        new.visit_children_with(self);
    }

    fn visit_return_stmt(&mut self, ret: &swc_ecma_ast::ReturnStmt) {
        // A function whose returns are read as window options may return a name bound to
        // an options literal, or compose one (`return { ...base, show: false }`).
        if let Some(value) = &ret.arg
            && self.frames.last().is_some_and(|frame| {
                frame
                    .name
                    .as_deref()
                    .is_some_and(|n| self.option_functions.contains(n))
            })
        {
            self.window_options(value, 0);
        }
        ret.visit_children_with(self);
    }

    fn visit_prop(&mut self, prop: &Prop) {
        match prop {
            Prop::KeyValue(kv) => {
                if let Some(module) = external_factory_expr(&kv.value) {
                    self.external(names::prop_name(&kv.key), module);
                }
            }
            Prop::Method(method) => {
                if let Some(module) = external_factory(&method.function) {
                    self.external(names::prop_name(&method.key), module);
                }
            }
            _ => {}
        }
        prop.visit_children_with(self);
    }

    fn visit_array_lit(&mut self, array: &ArrayLit) {
        for (index, elem) in array.elems.iter().enumerate() {
            if let Some(elem) = elem
                && elem.spread.is_none()
                && let Some(module) = external_factory_expr(&elem.expr)
            {
                self.external(Some(index.to_string()), module);
            }
        }
        array.visit_children_with(self);
    }
}

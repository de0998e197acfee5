//! Electron boundaries: windows and their explicit `webPreferences`, `contextBridge`
//! exposures, IPC operations, sender-validation candidates, utility processes, child
//! processes, `shell.openExternal`, and renderer loads.

use std::fmt::Write as _;

use swc_common::{Span, Spanned};
use swc_ecma_ast::{BinExpr, BinaryOp, CallExpr, Expr, Lit, ObjectLit, Pat, Prop, PropOrSpread};

use super::Extractor;
use super::loops::TableValue;
use super::names::{
    named, prop_name, property, property_of, static_path, static_value, string, unwrap,
};
use super::templates;
use crate::facts::{
    Bridge, CallArg, ChannelImport, ChannelKey, CommandLineSwitch, ExportedApi, ExportedIpcHelper,
    Forwarder, ImportFrom, ImportedHelperCall, ImportedLoad, ImportedScheme, IpcOp, LaunchInput,
    LoadPart, ProcessUse, RendererLoad, SchemeRegistration, SecurityHandler, SenderCheck,
    ServeOptions, ServedScheme, StaticPath, StaticValue, WindowCall,
};

const MAX_MEMBERS: usize = 128;
/// Longest command-line switch name or value kept, in bytes.
const MAX_SWITCH_BYTES: usize = 1024;
/// Most API objects kept of one file's exports.
const MAX_EXPORTED_APIS: usize = 32;
/// Most calls of other modules' functions kept of one file, to settle as IPC helpers' calls.
const MAX_IMPORTED_HELPER_CALLS: usize = 4096;
/// Most arguments of such a call read.
const MAX_HELPER_ARGS: usize = 8;
const MAX_MEMBER_DEPTH: usize = 8;

const SENDER_SUBJECTS: &[(&str, &str)] = &[
    ("sender.getURL", "sender-url"),
    ("senderFrame.origin", "sender-origin"),
    ("senderFrame.url", "sender-url"),
    ("senderFrame", "sender-frame"),
    ("sender.id", "sender-id"),
    ("frameId", "frame-id"),
    ("processId", "process-id"),
];

/// electron-better-ipc's requests and answers, by method (its `ipcMain` and `ipcRenderer`
/// extend Electron's): (side, operation, mode).
pub(super) fn better_ipc(method: &str) -> Option<(&'static str, &'static str, &'static str)> {
    Some(match method {
        "callMain" => ("renderer", "call-main", "invoke"),
        "answerMain" => ("renderer", "answer-main", "listen"),
        "answerRenderer" => ("main", "answer-renderer", "handle"),
        "callRenderer" => ("main", "call-renderer", "send"),
        "callFocusedRenderer" => ("main", "call-focused-renderer", "send"),
        "sendToRenderers" => ("main", "send-to-renderers", "send"),
        _ => return None,
    })
}

/// How many arguments of an IPC operation name a window before its channel: electron-better-ipc's
/// `callRenderer(win, channel, data)` and `answerRenderer(win, channel, fn)`.
pub(super) fn window_args(operation: &str, args: usize) -> usize {
    match operation {
        "call-renderer" => 1,
        "answer-renderer" if args >= 3 => 1,
        _ => 0,
    }
}

/// The methods of a page's or a service worker's own IPC (`webContents.ipc`,
/// `serviceWorkerMain.ipc`): (method, the page's operation, the worker's, mode).
const OWN_IPC: [(&str, &str, &str, &str); 9] = [
    (
        "on",
        "webcontents-ipc-on",
        "service-worker-ipc-on",
        "listen",
    ),
    (
        "once",
        "webcontents-ipc-once",
        "service-worker-ipc-once",
        "listen",
    ),
    (
        "addListener",
        "webcontents-ipc-add-listener",
        "service-worker-ipc-add-listener",
        "listen",
    ),
    (
        "handle",
        "webcontents-ipc-handle",
        "service-worker-ipc-handle",
        "handle",
    ),
    (
        "handleOnce",
        "webcontents-ipc-handle-once",
        "service-worker-ipc-handle-once",
        "handle",
    ),
    (
        "removeHandler",
        "webcontents-ipc-remove-handler",
        "service-worker-ipc-remove-handler",
        "remove",
    ),
    (
        "off",
        "webcontents-ipc-remove-listener",
        "service-worker-ipc-remove-listener",
        "remove",
    ),
    (
        "removeListener",
        "webcontents-ipc-remove-listener",
        "service-worker-ipc-remove-listener",
        "remove",
    ),
    (
        "removeAllListeners",
        "webcontents-ipc-remove-listener",
        "service-worker-ipc-remove-listener",
        "remove",
    ),
];

/// The IPC operation a callee names: (side, operation, mode).
pub(super) fn ipc_operation(name: &str) -> Option<(&'static str, &'static str, &'static str)> {
    let (object_path, method) = name.rsplit_once('.')?;
    let object = object_path.rsplit('.').next().unwrap_or(object_path);
    match object {
        "ipcRenderer" => Some(match method {
            "send" => ("renderer", "send", "send"),
            "sendSync" => ("renderer", "send-sync", "send"),
            "postMessage" => ("renderer", "post-message", "send"),
            "sendToHost" => ("renderer", "send-to-host", "send"),
            "invoke" => ("renderer", "invoke", "invoke"),
            "on" => ("renderer", "on", "listen"),
            "once" => ("renderer", "once", "listen"),
            "addListener" => ("renderer", "add-listener", "listen"),
            "off" | "removeListener" | "removeAllListeners" => {
                ("renderer", "remove-listener", "remove")
            }
            _ => return better_ipc(method).filter(|(side, _, _)| *side == "renderer"),
        }),
        "ipcMain" => Some(match method {
            "on" => ("main", "on", "listen"),
            "once" => ("main", "once", "listen"),
            "addListener" => ("main", "add-listener", "listen"),
            "handle" => ("main", "handle", "handle"),
            "handleOnce" => ("main", "handle-once", "handle"),
            "removeHandler" => ("main", "remove-handler", "remove"),
            "off" | "removeListener" | "removeAllListeners" => {
                ("main", "remove-listener", "remove")
            }
            _ => return better_ipc(method).filter(|(side, _, _)| *side == "main"),
        }),
        "webContents" if method == "send" => Some(("main", "webcontents-send", "send")),
        // A WebContents' own IPC (`win.webContents.ipc.handle`, Electron 17 on), and a
        // service worker's (Electron 36 on): the main side's handlers and listeners for that
        // page or worker only.
        "ipc" => {
            let holder = object_path.rsplit('.').nth(1)?;
            let (_, page, worker, mode) = OWN_IPC.iter().find(|(m, ..)| *m == method)?;
            match holder {
                "webContents" => Some(("main", page, mode)),
                "serviceWorkerMain" => Some(("main", worker, mode)),
                _ => None,
            }
        }
        // A service worker's main-process object: a message to its preload.
        "serviceWorkerMain" if method == "send" => Some(("main", "service-worker-send", "send")),
        _ => None,
    }
}

/// What a name holds an instance of: a class of the file whose methods forward a parameter
/// as an IPC channel (those methods), or a class another module exports.
#[derive(Debug, Clone)]
pub(super) enum Instance {
    Local(super::prepass::Methods),
    Imported(ChannelImport),
}

/// The IPC helpers a factory exports: the (exported, local) names and the factory's scope
/// while the file is walked, the helpers they resolve to once it is read.
pub(super) enum FactoryHelpers {
    Names(u32, Vec<(String, String)>),
    Helpers(Vec<ExportedIpcHelper>),
}

/// Most `ipcRenderer` listeners written in place a file keeps the event parameter of.
const MAX_RENDERER_EVENTS: usize = 4096;

/// Fewest bytes the name of the function that makes a channel must have to pair by it.
const MIN_CHANNEL_CALL_NAME: usize = 3;
/// Most arguments a channel made by a call may have to pair by them.
const MAX_CHANNEL_CALL_ARGS: usize = 4;
/// Most bytes of a channel call's key (`createKey("scope")`).
const MAX_CHANNEL_CALL_BYTES: usize = 256;

/// The IPC operation a method decorator makes of the method it decorates, by the
/// decorator's name (`IpcHandle` of `@IpcHandle("x")`, `(0, einf_1.IpcHandle)("x")` or
/// `@doubleshot/nest-electron.IpcHandle` through a renamed import): einf's and
/// @doubleshot/nest-electron's `IpcHandle` (`ipcMain.handle`) and `IpcOn` (`ipcMain.on`), and
/// einf's `IpcSend`, which sends what the method returns to a window's page.
pub(super) fn decorator_operation(
    name: &str,
) -> Option<(&'static str, &'static str, &'static str)> {
    match name.rsplit('.').next()? {
        "IpcHandle" => Some(("main", "handle", "handle")),
        "IpcOn" => Some(("main", "on", "listen")),
        "IpcSend" => Some(("main", "webcontents-send", "send")),
        _ => None,
    }
}

/// What a listener or handler argument is (reference §3: `handler_kind`).
pub(super) fn handler_kind(arg: Option<&Expr>) -> &'static str {
    match arg {
        None => "missing",
        Some(Expr::Fn(_) | Expr::Arrow(_)) => "inline-function",
        Some(Expr::Ident(_)) => "identifier",
        Some(Expr::Member(_)) => "member-expression",
        Some(_) => "dynamic-expression",
    }
}

const CHILD_PROCESS_APIS: &[&str] = &[
    "exec",
    "execFile",
    "execFileSync",
    "execSync",
    "fork",
    "spawn",
    "spawnSync",
];

impl Extractor<'_, '_> {
    /// What the walk reads off an object literal bound to a name that is passed where a
    /// literal is read: its members as a bridge API and its fields as window options.
    pub(super) fn read_named_object(&self, obj: &ObjectLit) -> NamedObject {
        NamedObject {
            span: (
                self.source.offset(obj.span.lo),
                self.source.offset(obj.span.hi),
            ),
            range: self.source.range(obj.span),
            members: object_members(obj),
            functions: member_functions(obj),
            composition: self.option_source_literal(obj),
            preferences: self.preferences(obj),
        }
    }

    /// What the walk reads off a class whose instance a file may expose as a bridge API
    /// (`contextBridge.exposeInMainWorld("api", new Api())`): its methods and its fields
    /// holding functions, as members, none of them static or private. What a superclass or
    /// the constructor adds is not read: one unknown member says so.
    pub(super) fn read_class_object(&self, class: &swc_ecma_ast::Class) -> NamedObject {
        use swc_ecma_ast::{ClassMember, MethodKind};
        let mut names = Vec::new();
        let mut functions = Vec::new();
        for member in class.body.iter().take(MAX_MEMBERS) {
            match member {
                ClassMember::Method(method)
                    if !method.is_static && method.kind == MethodKind::Method =>
                {
                    if let Some(key) = prop_name(&method.key) {
                        functions.push(MemberFunction::of(key.clone(), &method.function));
                        names.push(key);
                    }
                }
                ClassMember::ClassProp(prop) if !prop.is_static => {
                    let key = prop_name(&prop.key);
                    match (key, prop.value.as_deref().map(unwrap)) {
                        (Some(key), Some(Expr::Arrow(a))) => {
                            functions.push(MemberFunction::of_arrow(key.clone(), a));
                            names.push(key);
                        }
                        (Some(key), Some(Expr::Fn(f))) => {
                            functions.push(MemberFunction::of(key.clone(), &f.function));
                            names.push(key);
                        }
                        (Some(key), Some(_)) => names.push(key),
                        _ => {}
                    }
                }
                _ => {}
            }
        }
        names.sort();
        names.dedup();
        let unknown = class.super_class.is_some()
            || class
                .body
                .iter()
                .any(|m| matches!(m, ClassMember::Constructor(_)));
        NamedObject {
            span: (
                self.source.offset(class.span.lo),
                self.source.offset(class.span.hi),
            ),
            range: self.source.range(class.span),
            members: (names, u64::from(unknown)),
            functions,
            composition: Default::default(),
            preferences: Default::default(),
        }
    }

    /// Bridge members that forward a renderer operation's channel: an operation whose channel
    /// is a parameter of a bridge member's own function (`send(channel, ...args) {
    /// ipcRenderer.send(channel, ...args) }`).
    pub(super) fn finish_forwarders(&mut self) {
        for (bridge, functions) in std::mem::take(&mut self.bridge_functions) {
            self.facts.bridges[bridge].forwarders = self.forwarders(&functions);
        }
    }

    /// Which of `functions` forward a channel, and to what operation.
    fn forwarders(&self, functions: &[MemberFunction]) -> Vec<Forwarder> {
        let mut forwarders = Vec::new();
        for (op, scope, name) in &self.forwarding {
            let Some(function) = functions.iter().find(|f| f.scope == *scope) else {
                continue;
            };
            let Some(param) = function
                .params
                .iter()
                .position(|p| p.as_deref() == Some(name))
            else {
                continue;
            };
            let op = &self.facts.ipc[*op];
            forwarders.push(Forwarder {
                member: function.path.clone(),
                param: param as u32,
                operation: op.operation,
                mode: op.mode,
            });
        }
        forwarders.sort_by(|a, b| {
            (&a.member, a.param, a.operation).cmp(&(&b.member, b.param, b.operation))
        });
        forwarders.dedup();
        forwarders
    }

    /// The object literals the file exports, read as APIs a bridge in another file may
    /// expose ([`ExportedApi`]): those bound to exported names, then those exported in place.
    /// Then the same for each module factory, and the file's bridges that expose what a
    /// factory of the file exports are settled against it.
    pub(super) fn finish_exported_apis(&mut self) {
        // The exported functions and classes that forward a channel, for calls in other
        // files.
        if !self.helpers.is_empty() || !self.class_helpers.is_empty() {
            let stack = self.scopes.stack().to_vec();
            let names: Vec<(String, String)> = self
                .api_exports
                .iter()
                .chain(&self.helper_exports)
                .cloned()
                .collect();
            self.facts.exported_ipc_helpers = self.exported_helpers(&names, &stack);
        }
        if !self.api_exports.is_empty() || !self.literal_apis.is_empty() {
            let named: Vec<(String, NamedObject)> = std::mem::take(&mut self.api_exports)
                .into_iter()
                .filter_map(|(export, local)| Some((export, self.named_object(&local)?.clone())))
                .collect();
            let literal = std::mem::take(&mut self.literal_apis);
            self.facts.exported_apis = self.exported_apis(named.into_iter().chain(literal));
        }
        for (module, export, local, scopes) in std::mem::take(&mut self.pending_getters) {
            if let Some(object) = self.named_objects.resolve_in(&local, &scopes) {
                let object = object.clone();
                self.factory_apis
                    .entry((module.bundle, module.key))
                    .or_default()
                    .push((export, object));
            }
        }
        if self.factory_apis.is_empty() {
            return;
        }
        let mut by_factory = rustc_hash::FxHashMap::default();
        for (module, objects) in std::mem::take(&mut self.factory_apis) {
            by_factory.insert(module, self.exported_apis(objects.into_iter()));
        }
        self.facts.settle_bridges(|import| {
            let ImportFrom::Module(module) = import else {
                return None;
            };
            let exported = by_factory.get(&(module.bundle, module.key.clone()))?;
            Some((exported.as_slice(), None, Some(module.key.text())))
        });
    }

    /// The API objects of a module's exports, in export order: a later export of a path
    /// replaces an earlier one; objects without members are none.
    fn exported_apis(
        &self,
        objects: impl Iterator<Item = (String, NamedObject)>,
    ) -> Vec<ExportedApi> {
        let mut apis: Vec<ExportedApi> = Vec::new();
        for (export, object) in objects {
            let (members, unknown_members) = object.members;
            if members.is_empty() {
                continue;
            }
            let api = ExportedApi {
                forwarders: self.forwarders(&object.functions),
                export,
                members,
                unknown_members,
            };
            match apis.iter().position(|a| a.export == api.export) {
                Some(earlier) => apis[earlier] = api,
                None if apis.len() < MAX_EXPORTED_APIS => apis.push(api),
                None => {}
            }
        }
        apis
    }

    /// `window.<name>.<member>(…)` with a literal string among its first arguments: a call
    /// that may reach a bridge member.
    pub(super) fn window_call(&mut self, name: &str, call: &CallExpr) {
        let Some(rest) = ["window.", "globalThis.", "self."]
            .iter()
            .find_map(|p| name.strip_prefix(p))
        else {
            return;
        };
        let Some((first, _)) = rest.split_once('.') else {
            return;
        };
        // `window.electron.ipcRenderer.send("x")` is read as an IPC operation already.
        if first.is_empty()
            || NOT_BRIDGES.contains(&first)
            || ipc_operation(name).is_some()
            || self.facts.window_calls.len() >= MAX_WINDOW_CALLS
        {
            return;
        }
        let mut args = Vec::new();
        let mut arg_imports = Vec::new();
        let mut arg_expressions = Vec::new();
        for arg in call.args.iter().take(MAX_FORWARDED_ARGS) {
            // A literal; or, read through a name, a constant of the file or a member of
            // another module's exports, with the expression as written.
            let (value, import, through_name) = if arg.spread.is_some() {
                (None, None, false)
            } else if let Some(value) = string(&arg.expr) {
                (Some(value), None, false)
            } else if let Some(value) = self.constant_string(&arg.expr) {
                (Some(value), None, true)
            } else {
                let import = self.channel_import(&arg.expr);
                let found = import.is_some();
                (None, import, found)
            };
            arg_expressions.push(through_name.then(|| self.source.expression(arg.expr.span())));
            args.push(value);
            arg_imports.push(import);
        }
        // Kept without a string too: a call of a bridge member is the renderer side of the
        // feature the member exposes.
        if arg_imports.iter().all(Option::is_none) {
            arg_imports.clear();
        }
        if arg_expressions.iter().all(Option::is_none) {
            arg_expressions.clear();
        }
        self.facts.window_calls.push(WindowCall {
            name: rest.to_owned(),
            args,
            arg_imports,
            arg_expressions,
            range: self.source.range(call.span),
            module: self.module(),
        });
    }

    /// One value a `loadFile`/`loadURL` argument may take: a URL of the web is an endpoint,
    /// a path or a URL of the application's own scheme a renderer load. `seen` keeps one
    /// finding per target of a call.
    pub(super) fn renderer_load(
        &mut self,
        api: &'static str,
        value: &Expr,
        span: Span,
        seen: &mut Vec<String>,
    ) {
        // `loadFile` reads a relative path from the application's root, however the path
        // was written; a name may hold several (`const page = isDev ? url : file`).
        let targets: Vec<(String, &'static str)> = match string(value) {
            Some(target) if api == "loadFile" => vec![(target, "filesystem-expression")],
            Some(target) => vec![(target, "module-specifier")],
            None => super::names::static_paths(value, self)
                .into_iter()
                .map(|p| {
                    let context = if api == "loadFile" {
                        "filesystem-expression"
                    } else {
                        p.context
                    };
                    (p.path, context)
                })
                .collect(),
        };
        if targets.is_empty() {
            self.imported_load(api, value, span);
            return;
        }
        for (target, context) in targets {
            if seen.contains(&target) {
                continue;
            }
            if api == "loadURL" && web_url(&target) {
                seen.push(target.clone());
                self.observation(
                    "endpoint",
                    "loadURL".to_owned(),
                    Some(crate::redact::url(&target)),
                    span,
                );
                continue;
            }
            if !self.admit(None) {
                return;
            }
            seen.push(target.clone());
            self.facts.renderer_loads.push(RendererLoad {
                window: None,
                api,
                target,
                context,
                range: self.source.range(span),
                module: self.module(),
            });
        }
    }

    /// A load whose target is built on strings other files export ([`ImportedLoad`]), kept
    /// for the graph stage to settle.
    fn imported_load(&mut self, api: &'static str, value: &Expr, span: Span) {
        let mut parts = Vec::new();
        if !self.load_parts(value, &mut parts, 0)
            || !parts.iter().any(|p| matches!(p, LoadPart::Import(_)))
            || !self.admit(None)
        {
            return;
        }
        self.facts.imported_loads.push(ImportedLoad {
            load: RendererLoad {
                window: None,
                api,
                target: String::new(),
                context: if api == "loadFile" {
                    "filesystem-expression"
                } else {
                    "module-specifier"
                },
                range: self.source.range(span),
                module: self.module(),
            },
            parts,
        });
    }

    /// The parts of a load's target: strings, and members of what another file exports,
    /// joined by templates and `+`. False if a part is neither.
    fn load_parts(&self, value: &Expr, parts: &mut Vec<LoadPart>, depth: u32) -> bool {
        if depth > 8 || parts.len() > 32 {
            return false;
        }
        if let Some(text) = string(value).or_else(|| self.constant_string(value)) {
            parts.push(LoadPart::Text(text));
            return true;
        }
        match unwrap(value) {
            Expr::Tpl(tpl) => {
                for (i, quasi) in tpl.quasis.iter().enumerate() {
                    let text = quasi.cooked.as_ref().map_or_else(
                        || quasi.raw.to_string(),
                        |c| c.to_string_lossy().into_owned(),
                    );
                    if !text.is_empty() {
                        parts.push(LoadPart::Text(text));
                    }
                    if let Some(expr) = tpl.exprs.get(i)
                        && !self.load_parts(expr, parts, depth + 1)
                    {
                        return false;
                    }
                }
                true
            }
            Expr::Bin(bin) if bin.op == swc_ecma_ast::BinaryOp::Add => {
                self.load_parts(&bin.left, parts, depth + 1)
                    && self.load_parts(&bin.right, parts, depth + 1)
            }
            Expr::Member(_) | Expr::Ident(_) => match self.channel_import(value) {
                Some(import) if matches!(import.from, ImportFrom::Specifier(_)) => {
                    parts.push(LoadPart::Import(import));
                    true
                }
                _ => false,
            },
            _ => false,
        }
    }

    pub(super) fn electron_call(&mut self, name: &str, call: &CallExpr) {
        let span = call.span;
        let arg = |i: usize| call.args.get(i).map(|a| &*a.expr);
        if name == "electron-serve" {
            if let Some(served) = electron_serve(call)
                && self.admit(None)
            {
                self.facts.served_schemes.push(ServedScheme {
                    scheme: served.scheme,
                    api: "electron-serve",
                    serve: Some(served.options),
                    roots: Vec::new(),
                    roots_from: None,
                    range: self.source.range(span),
                });
            }
            return;
        }
        // The loader `electron-serve` returns, called with a window: it loads
        // `<scheme>://<hostname>`.
        if !self.serve_loaders.is_empty()
            && let Some(url) = self.serve_loaders.get(name).cloned()
            && self.admit(None)
        {
            self.facts.renderer_loads.push(RendererLoad {
                window: None,
                api: "loadURL",
                target: url,
                context: "module-specifier",
                range: self.source.range(span),
                module: self.module(),
            });
            return;
        }
        if named(name, "contextBridge.exposeInMainWorld")
            || named(name, "contextBridge.exposeInIsolatedWorld")
        {
            let isolated = name.ends_with("exposeInIsolatedWorld");
            let (world_id, key, api) = if isolated {
                (arg(0).map(|e| static_value(self.source, e)), arg(1), arg(2))
            } else {
                (None, arg(0), arg(1))
            };
            self.bridge(isolated, world_id, key, api, span);
            return;
        }
        // An IPC event answers the page that sent it: through its `sender` (that page's
        // WebContents, `event.sender.send("x")`) or `senderFrame` (its frame), as
        // `webContents.send` does, and through `event.reply("x")`; but the `sender` of an
        // event an `ipcRenderer` listener receives is the page's `ipcRenderer`, which sends
        // to the main process. A file that uses Electron only, or that made an IPC operation
        // before the call (its Electron may come through a module that re-exports it, and a
        // handler's body comes after the call that registers it), since these are common
        // names; `reply` also only where the file names `ipcMain`, whose listeners receive
        // such events.
        let event_send = || {
            let event = |suffix: &str| {
                name.strip_suffix(suffix)
                    .filter(|event| !event.is_empty() && !event.contains('.'))
            };
            let answers = |suffix: &str| event(suffix).is_some();
            if !self.electron && self.facts.ipc.is_empty() {
                return None;
            }
            if let Some(event) = event(".sender.send")
                && self.renderer_event(event, span)
            {
                Some(("renderer", "send", "send"))
            } else if answers(".sender.send") || answers(".senderFrame.send") {
                Some(("main", "webcontents-send", "send"))
            } else if answers(".reply") && self.ipc_main {
                Some(("main", "event-reply", "send"))
            } else {
                None
            }
        };
        // `webContents.fromId(id).send("x")`: a page's WebContents looked up in place.
        // `webContents.fromId(id)?.send("x")` too.
        let looked_up_send = || {
            let member = match call.callee.as_expr().map(|c| unwrap(c))? {
                Expr::Member(member) => member,
                Expr::OptChain(chain) => chain.base.as_member()?,
                _ => return None,
            };
            let looked_up = matches!(unwrap(&member.obj),
                Expr::Call(c) if super::prepass::looked_up_web_contents(c));
            (looked_up && member.prop.is_ident_with("send")).then_some((
                "main",
                "webcontents-send",
                "send",
            ))
        };
        let operation = ipc_operation(name)
            .or_else(event_send)
            .or_else(looked_up_send);
        if let Some((side, operation, mode)) = operation {
            self.ipc(side, operation, mode, call);
            return;
        }
        if let Some(operation) = decorator_operation(name) {
            // The decorated method is the handler: a member of the class's prototype.
            let handler_kind = (operation.2 != "send").then_some("member-expression");
            let channel = call.args.first().filter(|a| a.spread.is_none());
            self.ipc_op(
                operation,
                (channel.map(|a| &*a.expr), false),
                handler_kind,
                span,
                (None, None),
            );
            return;
        }
        if named(name, "utilityProcess.fork") {
            let service_name = arg(2)
                .and_then(|o| property_of(o, "serviceName"))
                .and_then(string);
            self.process("utility-process", name, arg(0), service_name, span);
            return;
        }
        if let Some(api) = name.strip_prefix("child_process.")
            && CHILD_PROCESS_APIS.contains(&api)
        {
            if matches!(api, "spawn" | "spawnSync" | "execFile" | "execFileSync") {
                self.electron_launch(arg(0), arg(1));
            }
            self.process("child-process", name, arg(0), None, span);
            return;
        }
        // `@electron/remote`: its main side set up, and enabled for a page's web contents,
        // which then reaches the main process's objects.
        if let Some(api) = name.strip_prefix("@electron/remote/main.")
            && matches!(api, "initialize" | "enable")
        {
            self.remote_module(name, arg(0), span);
            return;
        }
        if let Some((api, handler)) = security_handler(name, arg(0)) {
            if api == "setWindowOpenHandler" {
                self.window_open_overrides(arg(handler));
            }
            if self.admit(None) {
                self.facts.security_handlers.push(SecurityHandler {
                    api,
                    handler: installed_handler(arg(handler)),
                    range: self.source.range(span),
                });
            }
            return;
        }
        if let Some((api, handler)) = self.launch_input(name, arg(0)) {
            if self.admit(None) {
                self.facts.launch_inputs.push(LaunchInput {
                    api,
                    handler: handler.map(|i| installed_handler(arg(i))),
                    range: self.source.range(span),
                });
            }
            return;
        }
        if let Some(api) = self.command_line_api(name) {
            self.command_line_switch(api, arg(0), arg(1), span);
            return;
        }
        if let Some(api) = protocol_api(name) {
            if SERVING_APIS.contains(&api) {
                let roots = match arg(1).map(unwrap) {
                    // A handler declared under a name.
                    Some(Expr::Ident(handler)) => self
                        .handler_roots
                        .resolve(&handler.sym, &self.scopes)
                        .cloned()
                        .unwrap_or_default(),
                    Some(handler) => super::names::handler_roots(handler, self),
                    None => Vec::new(),
                };
                if self.served_scheme(api, arg(0), roots, span) {
                    return;
                }
            }
            match api {
                "registerSchemesAsPrivileged" => self.privileged_schemes(arg(0), span),
                "registerStandardSchemes" | "registerServiceWorkerSchemes" => {
                    self.listed_schemes(api, arg(0), span)
                }
                _ => {
                    let scheme = arg(0).and_then(|s| self.scheme_text(s));
                    self.scheme_registration(api, scheme, Vec::new(), span);
                }
            }
            return;
        }
        if named(name, "app.setAsDefaultProtocolClient") {
            let scheme = arg(0).and_then(|s| self.scheme_text(s));
            self.scheme_registration("setAsDefaultProtocolClient", scheme, Vec::new(), span);
            return;
        }
        // Code the main process (or a page, through `webFrame`) runs in a page: a string of
        // JavaScript, never parsed as the application's own.
        if let Some(code) = if named(name, "executeJavaScript") {
            Some(arg(0))
        } else if named(name, "executeJavaScriptInIsolatedWorld") {
            Some(arg(1))
        } else {
            None
        } {
            self.executed_code(name, code, span);
            return;
        }
        if named(name, "shell.openExternal") || named(name, "shell.openPath") {
            self.process("open-external", name, arg(0), None, span);
            return;
        }
        // Preloads a session runs in every frame (or service worker) it hosts:
        // `session.setPreloads([paths])`, and Electron 35's
        // `session.registerPreloadScript({type, filePath})`.
        if named(name, "setPreloads") || named(name, "registerPreloadScript") {
            let api = if name.ends_with("setPreloads") {
                "setPreloads"
            } else {
                "registerPreloadScript"
            };
            let paths: Vec<&Expr> = match arg(0).map(unwrap) {
                Some(Expr::Array(list)) => list
                    .elems
                    .iter()
                    .flatten()
                    .filter(|e| e.spread.is_none())
                    .map(|e| &*e.expr)
                    .collect(),
                Some(Expr::Object(obj)) => property(obj, "filePath").into_iter().collect(),
                _ => Vec::new(),
            };
            for expr in paths {
                if let Some(path) = static_path(expr, self)
                    && self.admit(None)
                {
                    self.facts.renderer_loads.push(RendererLoad {
                        window: None,
                        api,
                        target: path.path,
                        context: path.context,
                        range: self.source.range(expr.span()),
                        module: self.module(),
                    });
                }
            }
            return;
        }
        if named(name, "loadFile") || named(name, "loadURL") {
            let api = if name.ends_with("loadFile") {
                "loadFile"
            } else {
                "loadURL"
            };
            if let Some(target) = arg(0) {
                let loaded = self.load_target(api, target, span);
                self.window_load(call, loaded);
            }
            return;
        }
        // `<subject>.startsWith|endsWith|includes(x)` on a sender subject.
        for method in ["startsWith", "endsWith", "includes"] {
            if let Some(subject) = super::names::object_of(name, method)
                && let Some(kind) = sender_subject(subject)
                && let Some(expected) = arg(0)
            {
                self.sender_check(kind, format!("call:{method}"), expected, span);
                return;
            }
        }
    }

    fn bridge(
        &mut self,
        isolated: bool,
        world_id: Option<StaticValue>,
        key: Option<&Expr>,
        api: Option<&Expr>,
        span: Span,
    ) {
        if !self.admit(None) {
            return;
        }
        // One API per key of a table a loop goes over.
        if let Some(values) = self.looped_apis(key, api) {
            for (api_key, value) in values {
                self.looped_bridge(isolated, world_id.clone(), api_key, value, span);
            }
            return;
        }
        let api_key = key.and_then(string);
        let api_key_expression = match (&api_key, key) {
            (None, Some(k)) => Some(self.source.expression(k.span())),
            (None, None) => Some("[missing-expression]".to_owned()),
            _ => None,
        };
        if api_key.is_none() {
            self.facts.dynamic_findings += 1;
        }
        let mut api_import = None;
        let mut spread_imports = Vec::new();
        let mut literal_spans = Vec::new();
        let mut literal_ranges = Vec::new();
        let (api_status, (members, unknown), functions) = match api.map(unwrap) {
            None => ("missing", (Vec::new(), 0), Vec::new()),
            Some(Expr::Object(obj)) => {
                // `{ ...electronAPI, x }`: what a spread reads off another module, settled
                // like an imported API.
                spread_imports = obj
                    .props
                    .iter()
                    .filter_map(|p| match p {
                        PropOrSpread::Spread(spread) => self.module_import(&spread.expr),
                        PropOrSpread::Prop(_) => None,
                    })
                    .collect();
                literal_spans.push((
                    self.source.offset(obj.span.lo),
                    self.source.offset(obj.span.hi),
                ));
                literal_ranges.push(self.source.range(obj.span));
                if !self.native_locals.is_empty() {
                    self.native_members_exposed(obj, 0);
                }
                let (mut members, mut unknown) = object_members(obj);
                let mut functions = member_functions(obj);
                // `{ ...api, x }` of an object literal bound in scope: its members are the
                // API's, as if written here.
                for prop in &obj.props {
                    let PropOrSpread::Spread(spread) = prop else {
                        continue;
                    };
                    let Expr::Ident(ident) = unwrap(&spread.expr) else {
                        continue;
                    };
                    let Some(named) = self.named_object(&ident.sym) else {
                        continue;
                    };
                    members.extend(named.members.0.iter().cloned());
                    unknown = unknown.saturating_sub(1) + named.members.1;
                    functions.extend(named.functions.iter().cloned());
                    literal_spans.push(named.span);
                    literal_ranges.push(named.range);
                }
                members.sort();
                members.dedup();
                ("object-literal", (members, unknown), functions)
            }
            // `exposeInMainWorld("api", createApi())`: the literal the function returns,
            // once it is read if it is declared further on.
            Some(Expr::Call(call)) if self.exposes && self.call_returns_object(call) => {
                match self.returned_object(call) {
                    Some(named) => {
                        literal_spans.push(named.span);
                        literal_ranges.push(named.range);
                        ("object-literal", named.members, named.functions)
                    }
                    None => {
                        if let Some(name) = local_callee(call) {
                            let stack = self.scopes.stack().to_vec();
                            self.pending_returns
                                .push((self.facts.bridges.len(), name, stack));
                        }
                        ("dynamic", (Vec::new(), 0), Vec::new())
                    }
                }
            }
            // `exposeInMainWorld("api", new Api())`: the methods of a class of the file.
            Some(Expr::New(new)) if self.instance_object(new).is_some() => {
                let named = self.instance_object(new);
                literal_spans.extend(named.map(|o| o.span));
                literal_ranges.extend(named.map(|o| o.range));
                // Read as its literal would be: the status is the contract's.
                (
                    "object-literal",
                    named.map(|o| o.members.clone()).unwrap_or_default(),
                    named.map(|o| o.functions.clone()).unwrap_or_default(),
                )
            }
            // `const api = {…}; exposeInMainWorld("api", api)`: the literal bound in scope.
            Some(Expr::Ident(ident)) if self.named_object(&ident.sym).is_some() => {
                let named = self.named_object(&ident.sym);
                literal_spans.extend(named.map(|o| o.span));
                literal_ranges.extend(named.map(|o| o.range));
                (
                    "object-literal",
                    named.map(|o| o.members.clone()).unwrap_or_default(),
                    named.map(|o| o.functions.clone()).unwrap_or_default(),
                )
            }
            // `const api = createApi()` before the function is declared: read once it is.
            Some(Expr::Ident(ident)) if self.returned_by_call(&ident.sym).is_some() => {
                let callee = self
                    .returned_by_call(&ident.sym)
                    .unwrap_or_default()
                    .to_owned();
                let stack = self.scopes.stack().to_vec();
                self.pending_returns
                    .push((self.facts.bridges.len(), callee, stack));
                ("dynamic", (Vec::new(), 0), Vec::new())
            }
            Some(other) => {
                // Perhaps another module's export, settled once every file is read.
                api_import = self.module_import(other);
                self.facts.dynamic_findings += 1;
                ("dynamic", (Vec::new(), 0), Vec::new())
            }
        };
        self.push_bridge(
            Bridge {
                api_key,
                api_key_expression,
                api_status,
                members,
                unknown_members: unknown,
                api_import,
                spread_imports,
                literal_spans,
                literal_ranges,
                ..self.bridge_at(isolated, world_id, span)
            },
            functions,
        );
    }

    /// A bridge exposed by the call at `span`, nothing yet known of its API.
    fn bridge_at(&self, isolated: bool, world_id: Option<StaticValue>, span: Span) -> Bridge {
        Bridge {
            world: if isolated { "isolated" } else { "main" },
            world_id,
            api_key: None,
            api_key_expression: None,
            api_status: "dynamic",
            members: Vec::new(),
            unknown_members: 0,
            forwarders: Vec::new(),
            range: self.source.range(span),
            module: self.module(),
            api_import: None,
            api_source: None,
            spread_imports: Vec::new(),
            literal_spans: Vec::new(),
            literal_ranges: Vec::new(),
        }
    }

    /// The API a loop exposes for one key of its table: an object literal's members, or a
    /// function (`dynamic`, as a function passed in place is) whose code is the API's.
    fn looped_bridge(
        &mut self,
        isolated: bool,
        world_id: Option<StaticValue>,
        api_key: String,
        value: TableValue,
        span: Span,
    ) {
        let (api_status, members, functions, literal) = match value {
            TableValue::Object(named) => (
                "object-literal",
                named.members,
                named.functions,
                Some((named.span, named.range)),
            ),
            TableValue::Function(span, range) => {
                ("dynamic", (Vec::new(), 0), Vec::new(), Some((span, range)))
            }
            TableValue::Other => ("dynamic", (Vec::new(), 0), Vec::new(), None),
        };
        if api_status == "dynamic" {
            self.facts.dynamic_findings += 1;
        }
        let (literal_spans, literal_ranges) = literal.into_iter().unzip();
        self.push_bridge(
            Bridge {
                api_key: Some(api_key),
                api_status,
                members: members.0,
                unknown_members: members.1,
                literal_spans,
                literal_ranges,
                ..self.bridge_at(isolated, world_id, span)
            },
            functions,
        );
    }

    fn push_bridge(&mut self, bridge: Bridge, functions: Vec<MemberFunction>) {
        if !functions.is_empty() {
            self.bridge_functions
                .push((self.facts.bridges.len(), functions));
        }
        self.facts.bridges.push(bridge);
    }

    /// Members of a bridge literal that are a native add-on's exports by a name bound to its
    /// request (`{ read }`, `{ nativeRead: read }`, `{ open: addon.open }`): each a use of
    /// the export where the member is written, as a call through the name is.
    fn native_members_exposed(&mut self, obj: &ObjectLit, depth: usize) {
        if depth >= MAX_MEMBER_DEPTH {
            return;
        }
        for prop in &obj.props {
            let PropOrSpread::Prop(prop) = prop else {
                continue;
            };
            match &**prop {
                Prop::Shorthand(i) => self.native_use(&i.sym, i.span),
                Prop::KeyValue(kv) => match unwrap(&kv.value) {
                    Expr::Object(nested) => self.native_members_exposed(nested, depth + 1),
                    value @ (Expr::Ident(_) | Expr::Member(_)) => {
                        let name = crate::extract::names::dotted(value);
                        self.native_use(&name, value.span());
                    }
                    _ => {}
                },
                _ => {}
            }
        }
    }

    /// Binds `name` to what its function returns when that is an object literal, in a file
    /// that exposes a bridge.
    pub(super) fn returns_object(&mut self, name: &str, returned: Option<&ObjectLit>) {
        let object = returned.map(|obj| self.read_named_object(obj));
        let scope = self.scopes.current();
        match object {
            Some(object) => self.returned_objects.set(name, scope, object),
            None => self.returned_objects.shadow(name, scope),
        }
    }

    /// What the function a call names returns, when it is an object literal: a function of
    /// the file read so far, or one written in place (`(() => ({…}))()`).
    pub(super) fn returned_object(&self, call: &CallExpr) -> Option<NamedObject> {
        let in_place = match unwrap(call.callee.as_expr()?) {
            Expr::Fn(f) => function_returns(&f.function),
            Expr::Arrow(arrow) => arrow_returns(arrow),
            _ => {
                let name = local_callee(call)?;
                return self.returned_objects.resolve(&name, &self.scopes).cloned();
            }
        };
        in_place.map(|obj| self.read_named_object(obj))
    }

    /// Whether a call may give a bridge's API from a function of the file: a call of a
    /// plain name (not a module's or `require`).
    pub(super) fn call_returns_object(&self, call: &CallExpr) -> bool {
        if call
            .callee
            .as_expr()
            .is_some_and(|c| matches!(unwrap(c), Expr::Fn(_) | Expr::Arrow(_)))
        {
            return true;
        }
        local_callee(call).is_some_and(|name| {
            self.returned_objects.resolve(&name, &self.scopes).is_some()
                || (self.aliases.resolve(&name, &self.scopes).is_none()
                    && self.imports.resolve(&name, &self.scopes).is_none()
                    && name != "require")
        })
    }

    /// The function a name is bound to a call of, when that function was not yet read.
    fn returned_by_call(&self, name: &str) -> Option<&str> {
        if self.returned_by.is_empty() {
            return None;
        }
        self.returned_by
            .resolve(name, &self.scopes)
            .map(String::as_str)
    }

    /// Bridges whose API is a call of a function declared further on: the object literal it
    /// returns, looked up in the scopes open at the call (an API still not known stays
    /// `dynamic`).
    pub(super) fn finish_returned_bridges(&mut self) {
        for (index, name, stack) in std::mem::take(&mut self.pending_returns) {
            let Some(named) = self.returned_objects.resolve_in(&name, &stack) else {
                self.facts.dynamic_findings += 1;
                continue;
            };
            let (members, functions) = (named.members.clone(), named.functions.clone());
            let (span, range) = (named.span, named.range);
            if !functions.is_empty() {
                self.bridge_functions.push((index, functions));
            }
            let bridge = &mut self.facts.bridges[index];
            bridge.api_status = "object-literal";
            bridge.members = members.0;
            bridge.unknown_members = members.1;
            bridge.literal_spans.push(span);
            bridge.literal_ranges.push(range);
        }
    }

    /// What was read off the object literal bound to `name` in the innermost enclosing scope.
    pub(super) fn named_object(&self, name: &str) -> Option<&NamedObject> {
        self.named_objects.resolve(name, &self.scopes)
    }

    /// What `new Api()` makes, read off the class of the file it names
    /// ([`Self::read_class_object`]).
    pub(super) fn instance_object(&self, new: &swc_ecma_ast::NewExpr) -> Option<&NamedObject> {
        match unwrap(&new.callee) {
            Expr::Ident(class) => self.named_object(&class_key(&class.sym)),
            _ => None,
        }
    }

    fn ipc(
        &mut self,
        side: &'static str,
        operation: &'static str,
        mode: &'static str,
        call: &CallExpr,
    ) {
        let first = window_args(operation, call.args.len());
        let args = &call.args[first.min(call.args.len())..];
        // `ipcRenderer.invoke(...args)`: the channel is the first of what the spread holds,
        // and so is the handler after it.
        let spread = args.first().is_some_and(|a| a.spread.is_some());
        let handler_kind = (mode == "listen" || mode == "handle").then(|| {
            if spread {
                "dynamic-expression"
            } else {
                handler_kind(args.get(1).map(|a| unwrap(&a.expr)))
            }
        });
        let channel = args.first().map(|a| &*a.expr);
        if side == "renderer" && mode == "listen" {
            self.note_renderer_event(args.get(1).map(|a| &*a.expr));
        }
        let before = self.facts.ipc.len();
        self.ipc_op(
            (side, operation, mode),
            (channel, spread),
            handler_kind,
            call.span,
            (None, None),
        );
        // A handler passed by name (`onOpen`, `this.onOpen`, `this.onOpen.bind(this)`): its
        // function is found once the file is read.
        if let Some(name) = args.get(1).and_then(|a| super::local_name(&a.expr)) {
            for op in before..self.facts.ipc.len() {
                self.named_handlers.push((op, name.clone()));
            }
        }
    }

    /// Notes a listener written in place for an `ipcRenderer` event, by its event parameter.
    fn note_renderer_event(&mut self, handler: Option<&Expr>) {
        let (span, first) = match handler.map(unwrap) {
            Some(Expr::Fn(f)) => (f.function.span, f.function.params.first().map(|p| &p.pat)),
            Some(Expr::Arrow(a)) => (a.span, a.params.first()),
            _ => return,
        };
        if let Some(Pat::Ident(event)) = first
            && self.renderer_events.len() < MAX_RENDERER_EVENTS
        {
            self.renderer_events
                .push((span.lo.0, span.hi.0, event.id.sym.clone()));
        }
    }

    /// Whether `event`, at `at`, is the event an `ipcRenderer` listener receives, whose
    /// `sender` is the page's `ipcRenderer` (Electron's `IpcRendererEvent`), so that
    /// `event.sender.send("x")` sends to the main process: the event parameter of a listener
    /// written in place around `at`, or, in a file that names `ipcRenderer` and not
    /// `ipcMain`, any event.
    fn renderer_event(&self, event: &str, at: Span) -> bool {
        let inside = self
            .renderer_events
            .iter()
            .any(|(lo, hi, name)| *lo <= at.lo.0 && at.hi.0 <= *hi && *name == *event);
        inside || (self.ipc_renderer && !self.ipc_main)
    }

    /// `name = new C(…)`: binds `name` to an instance of `C` where `C` is a class of the
    /// file with methods that forward a channel, or a class another module exports
    /// ([`Instance`]); any other value hides an outer such binding.
    pub(super) fn instance_binding(&mut self, name: &str, init: &Expr) {
        let Expr::New(new) = unwrap(init) else {
            if !self.instances.is_empty() {
                self.instances.shadow(name, self.scopes.current());
            }
            return;
        };
        if self.class_helpers.is_empty() && self.imports.is_empty() {
            return;
        }
        let callee = unwrap(&new.callee);
        let local = || {
            let class = super::names::instantiated_class(init)?;
            let methods = self.class_helpers.resolve(&class, &self.scopes)?;
            Some(Instance::Local(methods.clone()))
        };
        let instance = match callee {
            Expr::Ident(_) | Expr::Class(_) => local().or_else(|| self.imported_class(callee)),
            Expr::Member(_) => self.imported_class(callee),
            _ => None,
        };
        match instance {
            Some(instance) => self.instances.set(name, self.scopes.current(), instance),
            None => self.instances.shadow(name, self.scopes.current()),
        }
    }

    /// A class another module (or factory) exports, under a name or in place
    /// (`module.exports = Ipc`), as `new` names it.
    fn imported_class(&self, callee: &Expr) -> Option<Instance> {
        self.callee_import(callee).map(Instance::Imported)
    }

    /// The helper a call names: a function of the file, a method of an instance of a class
    /// of the file (or of the class itself, as a static method is called), by the callee as
    /// written.
    fn called_helper(&self, callee: &Expr) -> Option<(super::prepass::Helper, String)> {
        match callee {
            Expr::Ident(name) => {
                let helper = self.helpers.resolve(&name.sym, &self.scopes)?;
                Some((helper.clone(), name.sym.to_string()))
            }
            Expr::Member(member) => {
                let Expr::Ident(object) = unwrap(&member.obj) else {
                    return None;
                };
                let method = member.prop.as_ident()?;
                let methods = match self.instances.resolve(&object.sym, &self.scopes) {
                    Some(Instance::Local(methods)) => methods,
                    Some(Instance::Imported(_)) => return None,
                    None => self.class_helpers.resolve(&object.sym, &self.scopes)?,
                };
                let (_, helper) = methods.iter().find(|(m, _)| *m == *method.sym)?;
                Some((helper.clone(), format!("{}.{}", object.sym, method.sym)))
            }
            _ => None,
        }
    }

    /// The calls of the file's functions (and classes' methods) that forward a parameter as
    /// an IPC channel ([`Helper`]): each is the operation the function makes, on the channel
    /// the call passes, with `via` naming the function. Those that pass one to a protocol
    /// method serve the scheme the call passes.
    pub(super) fn helper_call(&mut self, call: &CallExpr) {
        let Some(callee) = call.callee.as_expr().map(|c| unwrap(c)) else {
            return;
        };
        let Some((helper, via)) = self.called_helper(callee) else {
            return;
        };
        let arg = |i: usize| {
            call.args
                .get(i)
                .filter(|a| a.spread.is_none())
                .map(|a| unwrap(&a.expr))
        };
        for forward in helper.forwards {
            let handler_kind = match (forward.handler_param, forward.handler_kind) {
                (Some(param), _) => Some(handler_kind(arg(param as usize))),
                (None, kind) => kind,
            };
            self.ipc_op(
                (forward.side, forward.operation, forward.mode),
                (arg(forward.param as usize), false),
                handler_kind,
                call.span,
                (Some(via.clone()), Some(&forward)),
            );
        }
        for serve in helper.serves {
            self.served_scheme(serve.api, arg(serve.param as usize), serve.roots, call.span);
        }
        for load in helper.loads {
            if let Some(target) = arg(load.param as usize) {
                let loaded = self.load_target(load.api, target, call.span);
                self.helper_load(load.at, loaded);
            }
        }
    }

    /// The IPC helpers among `names` (exported, local), resolved in the scopes `stack`:
    /// functions, and each method of a class ([`ExportedIpcHelper`]).
    fn exported_helpers(
        &self,
        names: &[(String, String)],
        stack: &[u32],
    ) -> Vec<ExportedIpcHelper> {
        let mut exported = Vec::new();
        for (export, local) in names {
            if let Some(helper) = self.helpers.resolve_in(local, stack) {
                exported.push(ExportedIpcHelper {
                    export: export.clone(),
                    method: None,
                    forwards: helper.forwards.clone(),
                    serves: helper.serves.clone(),
                });
            }
            // A class, or an instance of one of the file's classes (`export const ipc = new
            // IpcManager()`, the singleton other files import and call `ipc.send(…)` on):
            // each method apart.
            let methods = self.class_helpers.resolve_in(local, stack).or_else(|| {
                match self.instances.resolve_in(local, stack) {
                    Some(Instance::Local(methods)) => Some(methods),
                    _ => None,
                }
            });
            for (method, helper) in methods.into_iter().flatten() {
                exported.push(ExportedIpcHelper {
                    export: export.clone(),
                    method: Some(method.clone()),
                    forwards: helper.forwards.clone(),
                    serves: helper.serves.clone(),
                });
            }
        }
        exported
    }

    /// Keeps the IPC helpers a factory exports (`names`, as (exported, local), bound in the
    /// factory's own scope `scope`), for calls in other factories of the bundle.
    pub(super) fn factory_helpers_of(
        &mut self,
        (bundle, key): (u32, &crate::facts::ModuleKey),
        scope: Option<u32>,
        names: &[(String, String)],
    ) {
        if self.helpers.is_empty() && self.class_helpers.is_empty() {
            return;
        }
        let Some(scope) = scope else {
            return;
        };
        // Looked up once the file is read: an exported instance (`const a = new s;
        // t.d(r, ["H", 0, a])`) is bound as the walk goes through the factory.
        self.factory_helpers.insert(
            (bundle, key.clone()),
            FactoryHelpers::Names(scope, names.to_vec()),
        );
    }

    /// Settles the calls of helpers another factory of the file exports (`(0,
    /// _ipc__WEBPACK_IMPORTED_MODULE_1__.handle)("x", …)`, `ipc_1.handle(…)` after `var
    /// ipc_1 = require_ipc()`): each becomes the helper's operations. Calls of a factory that
    /// exports no such helper are dropped; those of other files' modules wait for the graph
    /// stage.
    pub(super) fn finish_factory_helper_calls(&mut self) {
        let mut factory_helpers = std::mem::take(&mut self.factory_helpers);
        for helpers in factory_helpers.values_mut() {
            if let FactoryHelpers::Names(scope, names) = helpers {
                *helpers = FactoryHelpers::Helpers(self.exported_helpers(names, &[*scope]));
            }
        }
        self.factory_helpers = factory_helpers;
        let calls = std::mem::take(&mut self.facts.imported_helper_calls);
        let mut kept = Vec::with_capacity(calls.len());
        for call in calls {
            let ImportFrom::Module(module) = &call.import.from else {
                kept.push(call);
                continue;
            };
            let helper = self.reexported_helper(&call, (module.bundle, module.key.clone()));
            if let Some(helper) = helper {
                let operations = call.operations(&helper);
                self.facts.ipc.extend(operations);
                let served = call.served(&helper, None);
                self.facts.served_schemes.extend(served);
            }
        }
        self.facts.imported_helper_calls = kept;
    }

    /// The helper a call of another factory's export names: one that factory exports, or,
    /// through up to [`super::MAX_REEXPORT_HOPS`] factories that re-export it (webpack's
    /// `n.d(t, {DX: () => i.DX})` of an index module, its `export *`), one the factory it
    /// comes from does.
    fn reexported_helper(
        &self,
        call: &crate::facts::ImportedHelperCall,
        mut module: (u32, crate::facts::ModuleKey),
    ) -> Option<ExportedIpcHelper> {
        let mut export = call.import.path.first().cloned().unwrap_or_default();
        for _ in 0..super::MAX_REEXPORT_HOPS {
            if let Some(FactoryHelpers::Helpers(exported)) = self.factory_helpers.get(&module)
                && let Some(helper) = exported.iter().find(|h| call.calls_as(&export, h))
            {
                return Some(helper.clone());
            }
            let named = self
                .factory_reexports
                .iter()
                .find(|(bundle, key, reexport)| {
                    (*bundle, key) == (module.0, &module.1)
                        && reexport.name == export
                        && reexport.path.len() == 1
                });
            if let Some((bundle, _, reexport)) = named {
                export = reexport.path[0].clone();
                module = (*bundle, reexport.from.clone());
                continue;
            }
            // `export *`: the first factory it reads that exports a helper of the name.
            let star = self.factory_stars.iter().find(|(bundle, key, from)| {
                (*bundle, key) == (module.0, &module.1)
                    && matches!(
                        self.factory_helpers.get(&(*bundle, from.clone())),
                        Some(FactoryHelpers::Helpers(exported))
                            if exported.iter().any(|h| call.calls_as(&export, h))
                    )
            });
            let (bundle, _, from) = star?;
            module = (*bundle, from.clone());
        }
        None
    }

    /// A call of a function another module exports, with a string among its arguments: kept
    /// to settle once every file is read, when that function may prove to forward a channel
    /// ([`ImportedHelperCall`]).
    pub(super) fn imported_helper_call(&mut self, call: &CallExpr) {
        if self.facts.imported_helper_calls.len() >= MAX_IMPORTED_HELPER_CALLS {
            return;
        }
        let Some(callee) = call.callee.as_expr().map(|c| unwrap(c)) else {
            return;
        };
        // Cheap looks first: a callee a name reads, and an argument that may be a string.
        if !matches!(callee, Expr::Ident(_) | Expr::Member(_))
            || !call.args.iter().take(MAX_HELPER_ARGS).any(|a| {
                matches!(
                    unwrap(&a.expr),
                    Expr::Lit(Lit::Str(_)) | Expr::Ident(_) | Expr::Member(_)
                )
            })
        {
            return;
        }
        // A method of an instance of a class another module exports, or a function it
        // exports.
        let instance = match callee {
            Expr::Member(member) if !self.instances.is_empty() => match unwrap(&member.obj) {
                Expr::Ident(object) => match self.instances.resolve(&object.sym, &self.scopes) {
                    Some(Instance::Imported(import)) => member
                        .prop
                        .as_ident()
                        .map(|m| (import.clone(), Some(m.sym.to_string()))),
                    _ => None,
                },
                _ => None,
            },
            _ => None,
        };
        // A member of what it exports called in place (`ipc.send(…)` after `import { ipc }
        // from "./ipc"`): a method of the class or instance exported under that name.
        let member_of_export = || {
            self.channel_import(callee)
                .filter(|import| import.path.len() == 2)
                .map(|i| (i, None))
        };
        let Some((import, method)) = instance
            .or_else(|| self.callee_import(callee).map(|i| (i, None)))
            .or_else(member_of_export)
        else {
            return;
        };
        let args: Vec<CallArg> = call
            .args
            .iter()
            .take(MAX_HELPER_ARGS)
            .take_while(|a| a.spread.is_none())
            .map(|a| {
                let e = unwrap(&a.expr);
                let channel = string(e).or_else(|| self.constant_string(e));
                let literal = matches!(e, Expr::Lit(Lit::Str(_)));
                CallArg {
                    import: if channel.is_none() {
                        self.channel_import(e)
                    } else {
                        None
                    },
                    channel,
                    expression: (!literal).then(|| self.source.expression(e.span())),
                    handler_kind: handler_kind(Some(e)),
                }
            })
            .collect();
        if !args
            .iter()
            .any(|a| a.channel.is_some() || a.import.is_some())
        {
            return;
        }
        self.facts.imported_helper_calls.push(ImportedHelperCall {
            import,
            method,
            callee: self.source.expression(callee.span()),
            args,
            range: self.source.range(call.span),
            span: (
                self.source.offset(call.span.lo),
                self.source.offset(call.span.hi),
            ),
            module: self.module(),
        });
    }

    /// One IPC operation on the channel `channel_expr` names, made by the call at `span`
    /// (through the function `via`, if it is a helper's call).
    fn ipc_op(
        &mut self,
        (side, operation, mode): (&'static str, &'static str, &'static str),
        (channel_expr, spread): (Option<&Expr>, bool),
        handler_kind: Option<&'static str>,
        span: Span,
        (via, forward): (Option<String>, Option<&crate::facts::IpcForward>),
    ) {
        if !self.admit(None) {
            return;
        }
        let literal = channel_expr.and_then(string);
        // A name bound to a string (`const GET = "settings:get"`, an enum member) is that
        // string; the expression as written is kept beside it.
        let constant = match (&literal, channel_expr) {
            (None, Some(e)) => self.constant_string(e),
            _ => None,
        };
        // A helper that writes strings around the channel it is passed (`` `api:${name}` ``)
        // makes the channel of the string passed, read as a constant; of anything else, a
        // channel that pairs by its key.
        if let Some(forward) = forward.filter(|f| f.around.is_some()) {
            let passed = literal.or(constant);
            let channel = passed.map(|p| forward.channel(&p));
            self.around_op(
                (side, operation, mode),
                (channel, channel_expr),
                handler_kind,
                span,
                (via, forward.key()),
            );
            return;
        }
        // Or a call of a function that makes a channel of strings: the string it makes, or
        // what it pairs by.
        let made = match (&literal, &constant, channel_expr) {
            (None, None, Some(e)) => self.made_channel(e),
            _ => None,
        };
        // Or a call of a function another module exports, settled once it is read.
        let maker_call = match (&literal, &constant, &made, channel_expr) {
            (None, None, None, Some(e)) => self.imported_maker_call(e),
            _ => None,
        };
        let constant = constant.or_else(|| made.as_deref().and_then(templates::whole));
        let channel_expression = match (&literal, channel_expr) {
            (Some(_), _) => None,
            (None, Some(e)) => Some(self.source.expression(e.span())),
            (None, None) => Some("[missing-expression]".to_owned()),
        };
        // A loop's variable over a table's keys, or a choice of strings: one operation a
        // key or string.
        let mut each_of = None;
        let keys = match (&literal, &constant, channel_expr) {
            (None, None, Some(e)) => match self.loop_channel(e) {
                Some(super::loops::LoopItems::Keys(keys)) => Some((keys.clone(), false)),
                Some(super::loops::LoopItems::Imported(import)) => {
                    each_of = Some(import.clone());
                    None
                }
                None => self.channel_choices(e).map(|keys| (keys, true)),
            },
            _ => None,
        };
        if let Some((keys, choice)) = keys {
            for key in keys {
                if !self.admit(None) {
                    return;
                }
                let op = IpcOp {
                    channel: Some(key),
                    channel_expression: channel_expression.clone(),
                    choice,
                    ..self.op_at((side, operation, mode), handler_kind, span, via.clone())
                };
                self.facts.ipc.push(op);
            }
            return;
        }
        // A channel that is a parameter of the function around the call may be a bridge
        // member's, forwarded (matched with the bridges once the file is read); a spread
        // rest parameter (`(...args) => ipcRenderer.invoke(...args)`) is named as the
        // function lists it, `...args`.
        if side == "renderer"
            && literal.is_none()
            && constant.is_none()
            && let Some(Expr::Ident(ident)) = channel_expr.map(unwrap)
        {
            // `const [channel, ...rest] = args; ipcRenderer.send(channel, ...rest)` in a
            // member `send(...args)`, as vite-plugin-electron's scaffold writes its preload:
            // the first of what the rest parameter holds, as a spread of it is.
            let first_of = (!spread && !self.first_items.is_empty())
                .then(|| self.first_items.resolve(&ident.sym, &self.scopes))
                .flatten();
            let name = match first_of {
                Some(array) => format!("...{array}"),
                None if spread => format!("...{}", ident.sym),
                None => ident.sym.to_string(),
            };
            self.forwarding
                .push((self.facts.ipc.len(), self.scopes.current(), name));
        }
        // A member of what a relative module exports, resolved once every file is read; or
        // each item of a list it exports, when the channel is a loop's variable over it.
        let each = each_of.is_some();
        let (maker_import, channel_args) = maker_call.unzip();
        let channel_import = match (&literal, &constant, channel_expr) {
            (None, None, Some(e)) => each_of.or_else(|| self.channel_import(e)).or(maker_import),
            _ => None,
        };
        let channel = literal.or(constant);
        let channel_key = match (&channel, made, channel_expr) {
            (None, Some(made), _) => templates::key(&made),
            (None, None, Some(e)) => self.channel_key(e),
            _ => None,
        };
        if channel.is_none() {
            self.facts.dynamic_findings += 1;
        }
        let op = IpcOp {
            channel,
            channel_expression,
            channel_key,
            each,
            channel_import,
            channel_args,
            ..self.op_at((side, operation, mode), handler_kind, span, via)
        };
        self.facts.ipc.push(op);
    }

    /// An operation made by the call at `span`, nothing yet known of its channel.
    fn op_at(
        &self,
        (side, operation, mode): (&'static str, &'static str, &'static str),
        handler_kind: Option<&'static str>,
        span: Span,
        via: Option<String>,
    ) -> IpcOp {
        IpcOp {
            side,
            operation,
            mode,
            channel: None,
            channel_expression: None,
            channel_key: None,
            choice: false,
            each: false,
            handler_kind,
            channel_import: None,
            channel_args: None,
            via,
            range: self.source.range(span),
            span: (self.source.offset(span.lo), self.source.offset(span.hi)),
            handler_range: None,
            module: self.module(),
        }
    }

    /// The operation a helper call makes on a channel the helper writes strings around:
    /// `channel` when the call passes a string, else dynamic with `key`.
    fn around_op(
        &mut self,
        (side, operation, mode): (&'static str, &'static str, &'static str),
        (channel, channel_expr): (Option<String>, Option<&Expr>),
        handler_kind: Option<&'static str>,
        span: Span,
        (via, key): (Option<String>, Option<ChannelKey>),
    ) {
        if channel.is_none() {
            self.facts.dynamic_findings += 1;
        }
        let op = IpcOp {
            channel_key: if channel.is_none() { key } else { None },
            channel,
            channel_expression: Some(channel_expr.map_or_else(
                || "[missing-expression]".to_owned(),
                |e| self.source.expression(e.span()),
            )),
            ..self.op_at((side, operation, mode), handler_kind, span, via)
        };
        self.facts.ipc.push(op);
    }

    /// What a dynamic channel pairs by ([`ChannelKey`]): the string a concatenation or a
    /// template literal starts with, or else its template; the call of strings that makes
    /// it.
    fn channel_key(&self, expr: &Expr) -> Option<ChannelKey> {
        let mut part = |part: &Expr| self.constant_string(part);
        match templates::parts(expr, &mut part, &|_| None) {
            Some(parts) => templates::key(&parts),
            None => self.channel_call(expr).map(ChannelKey::Call),
        }
    }

    /// The parts of a channel made by a call of one of the file's functions that make a
    /// channel of their parameters ([`templates::Maker`]): `channel("open")` after `const
    /// channel = (name) => `${PREFIX}:${name}``.
    pub(super) fn made_channel(&self, expr: &Expr) -> Option<Vec<templates::Part>> {
        if self.makers.is_empty() && self.member_makers.is_empty() {
            return None;
        }
        let Expr::Call(call) = unwrap(expr) else {
            return None;
        };
        let maker = match unwrap(call.callee.as_expr()?) {
            // A function declared once and never assigned again (`function f(n) {…}` then
            // `f = other` makes something else).
            Expr::Ident(callee) if !self.assignments.contains_key(&*callee.sym) => {
                self.makers.resolve(&callee.sym, &self.scopes)?
            }
            Expr::Member(member) => {
                let Expr::Ident(object) = unwrap(&member.obj) else {
                    return None;
                };
                let prop = match &member.prop {
                    swc_ecma_ast::MemberProp::Ident(prop) => prop.sym.to_string(),
                    swc_ecma_ast::MemberProp::Computed(computed) => string(&computed.expr)?,
                    swc_ecma_ast::MemberProp::PrivateName(_) => return None,
                };
                let members = self.member_makers.resolve(&object.sym, &self.scopes)?;
                members
                    .iter()
                    .find(|(key, _)| *key == prop)
                    .map(|(_, m)| m)?
            }
            _ => return None,
        };
        maker.apply(&self.call_strings(call))
    }

    /// Each argument of a call as a string, when it is one (a literal, or a name bound to
    /// one): what a channel-making function is passed.
    fn call_strings(&self, call: &CallExpr) -> Vec<Option<String>> {
        call.args
            .iter()
            .map(|arg| {
                (arg.spread.is_none())
                    .then(|| string(&arg.expr).or_else(|| self.constant_string(&arg.expr)))
                    .flatten()
            })
            .collect()
    }

    /// A call of a function another module exports as a channel (`channel("open")` after
    /// `import { channel } from "./ipc"`, `(0, ipc_1.channel)("open")`): the export, and the
    /// strings the call passes, settled once that module is read.
    fn imported_maker_call(&self, expr: &Expr) -> Option<(ChannelImport, Vec<Option<String>>)> {
        let Expr::Call(call) = unwrap(expr) else {
            return None;
        };
        if call.args.is_empty() || call.args.len() > MAX_CHANNEL_CALL_ARGS {
            return None;
        }
        let import = self.channel_import(unwrap(call.callee.as_expr()?))?;
        Some((import, self.call_strings(call)))
    }

    /// A dynamic channel made by a call whose arguments are all strings (literals, or names
    /// bound to them), `ipcUtil.createKey("scope")`: the function's name and the strings,
    /// `createKey("scope")`, at most [`MAX_CHANNEL_CALL_ARGS`] of them and
    /// [`MAX_CHANNEL_CALL_BYTES`] in all, the name at least [`MIN_CHANNEL_CALL_NAME`] bytes
    /// ([`ChannelKey::Call`]).
    fn channel_call(&self, expr: &Expr) -> Option<String> {
        let Expr::Call(call) = unwrap(expr) else {
            return None;
        };
        let name = match unwrap(call.callee.as_expr()?) {
            Expr::Ident(function) => function.sym.to_string(),
            Expr::Member(member) => member.prop.as_ident()?.sym.to_string(),
            _ => return None,
        };
        // A minifier's one- or two-letter name says too little to tell functions apart.
        if name.len() < MIN_CHANNEL_CALL_NAME
            || call.args.is_empty()
            || call.args.len() > MAX_CHANNEL_CALL_ARGS
        {
            return None;
        }
        let mut key = name;
        key.push('(');
        for (i, arg) in call.args.iter().enumerate() {
            let value = (arg.spread.is_none())
                .then(|| string(&arg.expr).or_else(|| self.constant_string(&arg.expr)))??;
            if i > 0 {
                key.push_str(", ");
            }
            let _ = write!(key, "{value:?}");
        }
        key.push(')');
        (key.len() <= MAX_CHANNEL_CALL_BYTES).then_some(key)
    }

    /// The strings a channel written as a choice stands for: each branch of a conditional (or
    /// side of `||`/`??`) that is a string, a name bound to one, or a name the file gives only
    /// strings ([`super::choices`]). `None` unless every branch is known and there are two
    /// strings or more.
    fn channel_choices(&self, expr: &Expr) -> Option<Vec<String>> {
        let mut branches = Vec::new();
        super::names::alternatives(expr, &mut branches, 0);
        let mut out: Vec<String> = Vec::new();
        for branch in branches {
            let values = match string(branch).or_else(|| self.constant_string(branch)) {
                Some(value) => vec![value],
                None => match unwrap(branch) {
                    Expr::Ident(ident) => self.choices.resolve(&ident.sym, &self.scopes)?.clone(),
                    _ => return None,
                },
            };
            for value in values {
                if !out.contains(&value) {
                    out.push(value);
                }
            }
        }
        (out.len() >= 2).then_some(out)
    }

    /// A scheme the application serves with a handler of its own (`api`), given as
    /// `scheme` to the call at `span` (of the protocol method, or of a helper that calls it):
    /// a string or a name bound to one ([`Self::scheme_text`]), or a string another file
    /// exports (`Protocol.scheme`), settled once every file is read. Kept when it is a scheme
    /// an application may serve itself; whether it was (or was left out at the findings'
    /// bound).
    fn served_scheme(
        &mut self,
        api: &'static str,
        scheme: Option<&Expr>,
        roots: Vec<StaticPath>,
        span: Span,
    ) -> bool {
        let literal = scheme.and_then(|s| self.scheme_text(s));
        let import = match &literal {
            Some(_) => None,
            None => scheme
                .and_then(|a| self.channel_import(a))
                .filter(|i| matches!(i.from, ImportFrom::Specifier(_))),
        };
        let kept = literal.as_deref().is_some_and(custom_scheme) || import.is_some();
        if !kept {
            return false;
        }
        if !self.admit(None) {
            return true;
        }
        let served = ServedScheme {
            scheme: literal.unwrap_or_default(),
            api,
            serve: None,
            roots,
            roots_from: None,
            range: self.source.range(span),
        };
        match import {
            Some(import) => self
                .facts
                .imported_schemes
                .push(ImportedScheme { served, import }),
            None => self.facts.served_schemes.push(served),
        }
        true
    }

    /// The scheme a call writes: a string, or a name bound to one; lower case.
    fn scheme_text(&self, scheme: &Expr) -> Option<String> {
        string(scheme)
            .or_else(|| self.constant_string(scheme))
            .map(|s| s.to_ascii_lowercase())
    }

    /// One [`SchemeRegistration`] of the call at `span`.
    fn scheme_registration(
        &mut self,
        api: &'static str,
        scheme: Option<String>,
        privileges: Vec<String>,
        span: Span,
    ) {
        if self.admit(None) {
            self.facts.scheme_registrations.push(SchemeRegistration {
                api,
                scheme,
                privileges,
                range: self.source.range(span),
            });
        }
    }

    /// Electron 4's `registerStandardSchemes([schemes])` (privilege `standard`) and
    /// `registerServiceWorkerSchemes([schemes])` (`allowServiceWorkers`): one registration for
    /// each scheme listed, at most [`MAX_LISTED_SCHEMES`]; one of no known scheme when the
    /// list is not written there.
    fn listed_schemes(&mut self, api: &'static str, list: Option<&Expr>, span: Span) {
        let privilege = if api == "registerStandardSchemes" {
            "standard"
        } else {
            "allowServiceWorkers"
        };
        let schemes: Vec<Option<String>> = match list.map(unwrap) {
            Some(Expr::Array(array)) => array
                .elems
                .iter()
                .take(MAX_LISTED_SCHEMES)
                .map(|e| e.as_ref().and_then(|e| self.scheme_text(&e.expr)))
                .collect(),
            _ => vec![None],
        };
        for scheme in schemes {
            self.scheme_registration(api, scheme, vec![privilege.to_owned()], span);
        }
    }

    /// `protocol.registerSchemesAsPrivileged([{ scheme, privileges: { standard: true, … } }])`:
    /// one registration for each scheme listed (at most [`MAX_LISTED_SCHEMES`]), with the
    /// privileges set to `true` (or `!0`, as minifiers write it); one of no known scheme when
    /// the list is not written there.
    fn privileged_schemes(&mut self, list: Option<&Expr>, span: Span) {
        const API: &str = "registerSchemesAsPrivileged";
        let Some(Expr::Array(array)) = list.map(unwrap) else {
            self.scheme_registration(API, None, Vec::new(), span);
            return;
        };
        for element in array.elems.iter().take(MAX_LISTED_SCHEMES) {
            let object = match element.as_ref().map(|e| unwrap(&e.expr)) {
                Some(Expr::Object(object)) => Some(object),
                _ => None,
            };
            let scheme = object
                .and_then(|o| property(o, "scheme"))
                .and_then(|s| self.scheme_text(s));
            let mut privileges: Vec<String> =
                match object.and_then(|o| property(o, "privileges")).map(unwrap) {
                    Some(Expr::Object(granted)) => granted
                        .props
                        .iter()
                        .filter_map(|p| match p {
                            PropOrSpread::Prop(prop) => match &**prop {
                                Prop::KeyValue(kv)
                                    if super::names::literal_bool(&kv.value) == Some(true) =>
                                {
                                    prop_name(&kv.key)
                                }
                                _ => None,
                            },
                            _ => None,
                        })
                        .collect(),
                    _ => Vec::new(),
                };
            privileges.sort_unstable();
            privileges.dedup();
            self.scheme_registration(API, scheme, privileges, span);
        }
    }

    /// A call of `@electron/remote`'s main side ([`ProcessUse`] of kind `remote-module`):
    /// `initialize()`, or `enable(webContents)` with the web contents' expression.
    fn remote_module(&mut self, api: &str, web_contents: Option<&Expr>, span: Span) {
        if !self.admit(None) {
            return;
        }
        self.facts.processes.push(ProcessUse {
            kind: "remote-module",
            static_target: false,
            api: api.to_owned(),
            target: None,
            expression: web_contents.map(|e| self.source.expression(e.span())),
            service_name: None,
            range: self.source.range(span),
            module: self.module(),
        });
    }

    /// `spawn(require("electron"), [script, …])`: Node.js code that runs Electron (in Node.js,
    /// the `electron` package exports the path of its binary) with a script of its own, which
    /// is then a main process, as nightmare and electron-mocha launch theirs. The binary may
    /// be a name bound to the package, or a branch of `options.electronPath || electron`; the
    /// script is the first element of the arguments' array literal (or of one `concat`ed on).
    fn electron_launch(&mut self, binary: Option<&Expr>, args: Option<&Expr>) {
        let (Some(binary), Some(args)) = (binary, args) else {
            return;
        };
        let mut branches = Vec::new();
        super::names::alternatives(binary, &mut branches, 0);
        let electron = |e: &Expr| {
            super::prepass::require_spec(e).is_some_and(|s| s == "electron")
                || self.name(e) == "electron"
        };
        if !branches.into_iter().any(electron) {
            return;
        }
        let list = match unwrap(args) {
            Expr::Array(list) => list,
            Expr::Call(call) => match call.callee.as_expr().map(|c| unwrap(c)) {
                Some(Expr::Member(m)) if matches!(&m.prop, swc_ecma_ast::MemberProp::Ident(p) if p.sym == "concat") => {
                    match unwrap(&m.obj) {
                        Expr::Array(list) => list,
                        _ => return,
                    }
                }
                _ => return,
            },
            _ => return,
        };
        let Some(Some(first)) = list.elems.first() else {
            return;
        };
        if first.spread.is_some() {
            return;
        }
        for path in super::names::static_paths(&first.expr, self) {
            if !self.admit(None) {
                return;
            }
            self.facts.renderer_loads.push(RendererLoad {
                window: None,
                api: "electron-launch",
                target: path.path,
                context: path.context,
                range: self.source.range(first.expr.span()),
                module: self.module(),
            });
        }
    }

    fn process(
        &mut self,
        kind: &'static str,
        api: &str,
        target: Option<&Expr>,
        service_name: Option<String>,
        span: Span,
    ) {
        if !self.admit(None) {
            return;
        }
        let path = target.and_then(|e| static_path(e, self));
        let static_target = path.is_some();
        let expression = match (&path, target) {
            (None, Some(t)) => {
                self.facts.dynamic_findings += 1;
                Some(self.source.expression(t.span()))
            }
            _ => None,
        };
        let (target, expression) = if kind == "open-external" {
            // A URL is recorded redacted, never resolved as a path.
            (
                None,
                path.map(|p| crate::redact::url(&p.path)).or(expression),
            )
        } else {
            (path, expression)
        };
        self.facts.processes.push(ProcessUse {
            kind,
            static_target,
            api: super::prepass::qualified_electron_api(api),
            target,
            expression,
            service_name,
            range: self.source.range(span),
            module: self.module(),
        });
    }

    /// `executeJavaScript(code)` (of web contents, a frame or `webFrame`) and
    /// `executeJavaScriptInIsolatedWorld(world, scripts)`: a [`ProcessUse`] of kind
    /// `execute-javascript`, its code (or the scripts) as written, static when it is a string
    /// literal.
    fn executed_code(&mut self, api: &str, code: Option<&Expr>, span: Span) {
        if !self.admit(None) {
            return;
        }
        let static_target = code.is_some_and(|c| matches!(unwrap(c), Expr::Lit(Lit::Str(_))));
        if !static_target {
            self.facts.dynamic_findings += 1;
        }
        self.facts.processes.push(ProcessUse {
            kind: "execute-javascript",
            static_target,
            api: super::prepass::qualified_electron_api(api),
            target: None,
            expression: code.map(|c| self.source.expression(c.span())),
            service_name: None,
            range: self.source.range(span),
            module: self.module(),
        });
    }

    pub(super) fn sender_comparison(&mut self, bin: &BinExpr) {
        let op = match bin.op {
            BinaryOp::EqEq => "==",
            BinaryOp::EqEqEq => "===",
            BinaryOp::NotEq => "!=",
            BinaryOp::NotEqEq => "!==",
            BinaryOp::In => "in",
            _ => return,
        };
        for (subject, other) in [(&bin.left, &bin.right), (&bin.right, &bin.left)] {
            let name = match unwrap(subject) {
                Expr::Call(call) => super::names::callee_name(&call.callee),
                other => self.name(other),
            };
            if let Some(kind) = sender_subject(&name) {
                self.sender_check(kind, format!("comparison:{op}"), other, bin.span);
                return;
            }
        }
    }

    fn sender_check(&mut self, kind: &str, mechanism: String, expected: &Expr, span: Span) {
        if !self.admit(None) {
            return;
        }
        let expected = static_value(self.source, expected);
        self.facts.sender_checks.push(SenderCheck {
            subject: kind.to_owned(),
            mechanism,
            expected,
            offset: self.source.offset(span.lo),
            range: self.source.range(span),
        });
    }
}

fn sender_subject(name: &str) -> Option<&'static str> {
    SENDER_SUBJECTS
        .iter()
        .find(|(subject, _)| named(name, subject))
        .map(|(_, kind)| *kind)
}

/// The setters of Electron's security handlers (a `webContents`' or a session's method), and
/// `app.importCertificate`, which adds a certificate to the platform's store.
/// Each with the argument that is its handler.
const SECURITY_SETTERS: &[(&str, usize)] = &[
    ("setWindowOpenHandler", 0),
    ("setPermissionRequestHandler", 0),
    ("setPermissionCheckHandler", 0),
    ("setDevicePermissionHandler", 0),
    ("setDisplayMediaRequestHandler", 0),
    ("setCertificateVerifyProc", 0),
    ("importCertificate", 1),
];

/// The events whose listeners guard navigation, new windows and webviews, and decide on
/// certificates that fail verification (`certificate-error`).
const SECURITY_EVENTS: &[&str] = &[
    "will-navigate",
    "will-frame-navigate",
    "will-redirect",
    "new-window",
    "will-attach-webview",
    "web-contents-created",
    "certificate-error",
];

/// The security handler a call installs, with the argument that is the handler: a setter
/// called on any object (its names are Electron's own), or a listener (`on`, `once`,
/// `addListener`, `prependListener`) added for one of the guarding events, named by a
/// literal, whose handler is its second argument.
fn security_handler(name: &str, first: Option<&Expr>) -> Option<(&'static str, usize)> {
    let (_, method) = name.rsplit_once('.')?;
    if let Some(setter) = SECURITY_SETTERS.iter().find(|(s, _)| *s == method) {
        return Some(*setter);
    }
    if !matches!(method, "on" | "once" | "addListener" | "prependListener") {
        return None;
    }
    let event = first.and_then(string)?;
    let event = SECURITY_EVENTS.iter().find(|e| **e == event)?;
    Some((event, 1))
}

/// How a call installs a handler: `function` (a function written there), `reference` (a name
/// or member), `null` (a handler removed) or `other`.
fn installed_handler(handler: Option<&Expr>) -> &'static str {
    match handler.map(unwrap) {
        Some(Expr::Fn(_) | Expr::Arrow(_)) => "function",
        Some(Expr::Ident(_) | Expr::Member(_)) => "reference",
        Some(Expr::Lit(Lit::Null(_))) => "null",
        _ => "other",
    }
}

/// The `app` events through which the operating system hands the application outside input
/// once it runs.
const LAUNCH_EVENTS: &[&str] = &[
    "open-url",
    "open-file",
    "second-instance",
    "continue-activity",
];

impl Extractor<'_, '_> {
    /// The launch input a call of a file that uses Electron sets up, with the argument that
    /// is its handler: a listener added on `app` (`app.on`, `electron.app.once`, …) for one
    /// of [`LAUNCH_EVENTS`], named by a literal; or `app.requestSingleInstanceLock()`.
    fn launch_input(
        &self,
        name: &str,
        first: Option<&Expr>,
    ) -> Option<(&'static str, Option<usize>)> {
        if !self.electron {
            return None;
        }
        if named(name, "app.requestSingleInstanceLock") {
            return Some(("requestSingleInstanceLock", None));
        }
        let (object, method) = name.rsplit_once('.')?;
        if !matches!(method, "on" | "once" | "addListener" | "prependListener")
            || !named(object, "app")
        {
            return None;
        }
        let event = first.and_then(string)?;
        let event = LAUNCH_EVENTS.iter().find(|e| **e == event)?;
        Some((event, Some(1)))
    }
}

/// Most reads of `process.argv` kept per file.
const MAX_ARGV_READS: usize = 16;

impl Extractor<'_, '_> {
    /// A read of `process.argv` in a file that uses Electron: the command line the process
    /// was launched with, where Windows and Linux hand a deep link (`myapp://…`) or a file
    /// to open to the first instance (later ones come through `second-instance`). A launch
    /// input of api `process.argv`, up to [`MAX_ARGV_READS`] a file.
    pub(super) fn argv_read(&mut self, span: Span) {
        let reads = self
            .facts
            .launch_inputs
            .iter()
            .filter(|i| i.api == "process.argv")
            .count();
        if reads < MAX_ARGV_READS && self.admit(None) {
            self.facts.launch_inputs.push(LaunchInput {
                api: "process.argv",
                handler: None,
                range: self.source.range(span),
            });
        }
    }

    /// The command-line API a call of a file that uses Electron makes:
    /// `app.commandLine.appendSwitch`, `app.commandLine.appendArgument` or
    /// `app.enableSandbox`.
    fn command_line_api(&self, name: &str) -> Option<&'static str> {
        if !self.electron {
            return None;
        }
        let (object, method) = name.rsplit_once('.')?;
        match method {
            "appendSwitch" if named(object, "app.commandLine") => Some("appendSwitch"),
            "appendArgument" if named(object, "app.commandLine") => Some("appendArgument"),
            "enableSandbox" if named(object, "app") => Some("enableSandbox"),
            _ => None,
        }
    }

    /// One [`CommandLineSwitch`]: `appendSwitch(name, value?)` names the switch and its
    /// value apart; `appendArgument("--name=value")` writes them as one argument, which is a
    /// switch only when it starts with a dash; `enableSandbox()` is the `enable-sandbox`
    /// switch.
    fn command_line_switch(
        &mut self,
        api: &'static str,
        first: Option<&Expr>,
        second: Option<&Expr>,
        span: Span,
    ) {
        // A name or value as kept: a URL redacted as endpoints are (a proxy's credentials),
        // and cut short.
        let text = |e: &Expr| {
            string(e)
                .or_else(|| self.constant_string(e))
                .or_else(|| match unwrap(e) {
                    Expr::Lit(Lit::Num(n)) => Some(n.value.to_string()),
                    _ => None,
                })
                .map(|t| crate::redact::value(&t, MAX_SWITCH_BYTES))
        };
        let mut dynamic = None;
        let (switch, value) = match api {
            "enableSandbox" => (Some("enable-sandbox".to_owned()), None),
            "appendSwitch" => {
                let name = first.and_then(text);
                if name.is_none() {
                    dynamic = first.map(|e| self.source.expression(e.span()));
                }
                let value = second.and_then(|v| {
                    let value = text(v);
                    if value.is_none() && dynamic.is_none() {
                        dynamic = Some(self.source.expression(v.span()));
                    }
                    value
                });
                (name.map(|n| n.trim_start_matches('-').to_owned()), value)
            }
            _ => match first.and_then(text) {
                // A bare argument (a path, a URL) is no switch.
                Some(argument) if !argument.starts_with('-') => return,
                Some(argument) => {
                    let argument = argument.trim_start_matches('-');
                    match argument.split_once('=') {
                        Some((name, value)) => (Some(name.to_owned()), Some(value.to_owned())),
                        None => (Some(argument.to_owned()), None),
                    }
                }
                None => {
                    dynamic = first.map(|e| self.source.expression(e.span()));
                    (None, None)
                }
            },
        };
        if self.admit(None) {
            self.facts.command_line_switches.push(CommandLineSwitch {
                api,
                switch,
                value,
                dynamic,
                range: self.source.range(span),
            });
        }
    }
}

/// The `protocol` method `name` calls, when it serves a scheme's requests with the
/// application's own handler: `protocol.handle`, `session.protocol.registerFileProtocol`, …
pub(super) fn serving_api(name: &str) -> Option<&'static str> {
    protocol_api(name).filter(|api| SERVING_APIS.contains(api))
}

/// The `protocol` method `name` calls, when it registers a scheme: one of [`SERVING_APIS`], or
/// of [`REGISTERING_APIS`].
fn protocol_api(name: &str) -> Option<&'static str> {
    let (object, method) = name.rsplit_once('.')?;
    if object != "protocol" && !object.ends_with(".protocol") {
        return None;
    }
    SERVING_APIS
        .iter()
        .chain(REGISTERING_APIS)
        .find(|a| **a == method)
        .copied()
}

/// `protocol` methods that register a scheme without serving it with a handler of the
/// application's own.
const REGISTERING_APIS: &[&str] = &[
    "registerHttpProtocol",
    "interceptHttpProtocol",
    "registerSchemesAsPrivileged",
    "registerStandardSchemes",
    "registerServiceWorkerSchemes",
];

/// Schemes read off one call's list.
const MAX_LISTED_SCHEMES: usize = 64;

/// `protocol` methods that serve a scheme's requests with the application's own handler
/// (`registerHttpProtocol` forwards them to another URL, so it is not one).
const SERVING_APIS: &[&str] = &[
    "handle",
    "registerFileProtocol",
    "registerBufferProtocol",
    "registerStringProtocol",
    "registerStreamProtocol",
    "interceptFileProtocol",
    "interceptBufferProtocol",
    "interceptStringProtocol",
    "interceptStreamProtocol",
];

/// What a page's window holds of its own, never a bridge.
const NOT_BRIDGES: &[&str] = &[
    "document",
    "console",
    "location",
    "history",
    "navigator",
    "localStorage",
    "sessionStorage",
    "performance",
    "crypto",
    "customElements",
    "screen",
    "indexedDB",
    "caches",
    "parent",
    "top",
    "opener",
    "frames",
    "window",
    "self",
    "globalThis",
];
/// Most window calls kept per file.
const MAX_WINDOW_CALLS: usize = 4096;
/// Arguments of a window call read for a forwarded channel.
const MAX_FORWARDED_ARGS: usize = 4;

/// What an `electron-serve` call sets up.
pub(super) struct Served {
    pub(super) scheme: String,
    /// What the loader it returns loads: `<scheme>://<hostname>`.
    pub(super) url: String,
    pub(super) options: ServeOptions,
}

/// `serve({directory, scheme, hostname, file})` of the `electron-serve` package, with its
/// defaults (`app`, `-`, `index`, and the application's root, version 2's default; version 1
/// requires a directory). `None` when the scheme cannot be told: options that are not an
/// object literal, or a scheme that is not a literal.
pub(super) fn electron_serve(call: &CallExpr) -> Option<Served> {
    let options = match call.args.first() {
        None => None,
        Some(arg) if arg.spread.is_some() => return None,
        Some(arg) => match unwrap(&arg.expr) {
            Expr::Object(object) => Some(object),
            _ => return None,
        },
    };
    let text = |key: &str, default: &str| match options.and_then(|o| property(o, key)) {
        None => Some(default.to_owned()),
        Some(value) => string(value),
    };
    let scheme = text("scheme", "app")?.to_ascii_lowercase();
    if !custom_scheme(&scheme) {
        return None;
    }
    let hostname = text("hostname", "-").unwrap_or_else(|| "-".to_owned());
    Some(Served {
        url: format!("{scheme}://{hostname}"),
        scheme,
        options: ServeOptions {
            directory: text("directory", "."),
            file: text("file", "index"),
        },
    })
}

/// Whether an application may serve `scheme` itself: a valid scheme, none of the web's or the
/// browser's own.
pub(crate) fn custom_scheme(scheme: &str) -> bool {
    let mut chars = scheme.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic())
        && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'))
        && ![
            "http",
            "https",
            "file",
            "ws",
            "wss",
            "data",
            "blob",
            "about",
            "javascript",
        ]
        .contains(&scheme.to_ascii_lowercase().as_str())
}

/// Whether a load's target is a URL of the web (HTTP or WebSocket).
pub(crate) fn web_url(target: &str) -> bool {
    let lower = target.to_ascii_lowercase();
    ["http://", "https://", "ws://", "wss://"]
        .iter()
        .any(|p| lower.starts_with(p))
}

/// The name a class of the file is kept under among the named objects: no local name has
/// a space.
pub(super) fn class_key(class: &str) -> String {
    format!("new {class}")
}

/// Member paths of a bridge API, and how many more there were or could not be named.
pub(super) type Members = (Vec<String>, u64);

/// What the walk read off an object literal bound to a name.
#[derive(Debug, Clone)]
pub(super) struct NamedObject {
    /// The literal's byte span in the file.
    span: (u32, u32),
    range: crate::facts::Range,
    members: Members,
    functions: Vec<MemberFunction>,
    /// The literal read as window options.
    pub(super) composition: super::windows::Composition,
    /// The literal read as `webPreferences`.
    pub(super) preferences: super::windows::Preferences,
}

/// A function member of a bridge API: its dotted path, where the function starts (as the
/// walk names its scope), and its parameters' names (`None` for a pattern).
#[derive(Debug, Clone)]
pub(super) struct MemberFunction {
    pub(super) path: String,
    pub(super) scope: u32,
    pub(super) params: Vec<Option<String>>,
}

impl MemberFunction {
    /// The member at `path` whose function is `function`.
    fn of(path: String, function: &swc_ecma_ast::Function) -> MemberFunction {
        MemberFunction {
            path,
            scope: function.span.lo.0,
            params: function.params.iter().map(|p| param_name(&p.pat)).collect(),
        }
    }

    /// The member at `path` whose function is the arrow `arrow`.
    fn of_arrow(path: String, arrow: &swc_ecma_ast::ArrowExpr) -> MemberFunction {
        MemberFunction {
            path,
            scope: arrow.span.lo.0,
            params: arrow.params.iter().map(param_name).collect(),
        }
    }
}

/// The function members of an API object literal, nested ones included.
pub(super) fn member_functions(obj: &ObjectLit) -> Vec<MemberFunction> {
    let mut out = Vec::new();
    collect_functions(obj, "", 0, &mut out);
    out
}

/// A function parameter's name for a [`MemberFunction`]: a rest parameter is listed as
/// `...args`, as a spread of it names the channel.
fn param_name(p: &Pat) -> Option<String> {
    match p {
        Pat::Ident(i) => Some(i.id.sym.to_string()),
        Pat::Assign(a) => match &*a.left {
            Pat::Ident(i) => Some(i.id.sym.to_string()),
            _ => None,
        },
        Pat::Rest(rest) => match &*rest.arg {
            Pat::Ident(i) => Some(format!("...{}", i.id.sym)),
            _ => None,
        },
        _ => None,
    }
}

fn collect_functions(obj: &ObjectLit, prefix: &str, depth: usize, out: &mut Vec<MemberFunction>) {
    if depth >= MAX_MEMBER_DEPTH || out.len() >= MAX_MEMBERS {
        return;
    }
    for prop in &obj.props {
        let PropOrSpread::Prop(prop) = prop else {
            continue;
        };
        let (key, value) = match &**prop {
            Prop::KeyValue(kv) => (prop_name(&kv.key), Some(&*kv.value)),
            Prop::Method(m) => {
                if let Some(key) = prop_name(&m.key) {
                    out.push(MemberFunction::of(join_path(prefix, &key), &m.function));
                }
                continue;
            }
            _ => continue,
        };
        let Some(key) = key else { continue };
        let path = join_path(prefix, &key);
        match value.map(unwrap) {
            Some(Expr::Object(nested)) => collect_functions(nested, &path, depth + 1, out),
            Some(Expr::Fn(f)) => out.push(MemberFunction::of(path, &f.function)),
            Some(Expr::Arrow(a)) => out.push(MemberFunction::of_arrow(path, a)),
            _ => {}
        }
    }
}

fn join_path(prefix: &str, key: &str) -> String {
    if prefix.is_empty() {
        key.to_owned()
    } else {
        format!("{prefix}.{key}")
    }
}

/// The plain name a call calls (`createApi()`).
pub(super) fn local_callee(call: &CallExpr) -> Option<String> {
    match unwrap(call.callee.as_expr()?) {
        Expr::Ident(ident) => Some(ident.sym.to_string()),
        _ => None,
    }
}

/// The object literal a function returns last: its body's last statement is `return {…}`.
pub(super) fn function_returns(function: &swc_ecma_ast::Function) -> Option<&ObjectLit> {
    match function.body.as_ref()?.stmts.last()? {
        swc_ecma_ast::Stmt::Return(ret) => match unwrap(ret.arg.as_deref()?) {
            Expr::Object(obj) => Some(obj),
            _ => None,
        },
        _ => None,
    }
}

/// The object literal an arrow function returns: its body (`() => ({…})`), or its block's
/// last `return {…}`.
pub(super) fn arrow_returns(arrow: &swc_ecma_ast::ArrowExpr) -> Option<&ObjectLit> {
    let last = match &*arrow.body {
        swc_ecma_ast::ArrowFunctionBody::Expr(body) => Some(&**body),
        swc_ecma_ast::ArrowFunctionBody::FunctionBody(block) => match block.stmts.last()? {
            swc_ecma_ast::Stmt::Return(ret) => ret.arg.as_deref(),
            _ => None,
        },
    }?;
    match unwrap(last) {
        Expr::Object(obj) => Some(obj),
        _ => None,
    }
}

/// The members of a bridge API object literal: sorted, unique, at most [`MAX_MEMBERS`].
pub(super) fn object_members(obj: &ObjectLit) -> Members {
    let mut members = Vec::new();
    let mut unknown = 0;
    collect_members(obj, "", 0, &mut members, &mut unknown);
    members.sort();
    members.dedup();
    if members.len() > MAX_MEMBERS {
        unknown += (members.len() - MAX_MEMBERS) as u64;
        members.truncate(MAX_MEMBERS);
    }
    (members, unknown)
}

fn collect_members(
    obj: &ObjectLit,
    prefix: &str,
    depth: usize,
    out: &mut Vec<String>,
    unknown: &mut u64,
) {
    if depth >= MAX_MEMBER_DEPTH {
        return;
    }
    for prop in &obj.props {
        let PropOrSpread::Prop(prop) = prop else {
            *unknown += 1;
            continue;
        };
        let (key, value) = match &**prop {
            Prop::Shorthand(i) => (Some(i.sym.to_string()), None),
            Prop::KeyValue(kv) => (prop_name(&kv.key), Some(&*kv.value)),
            Prop::Method(m) => (prop_name(&m.key), None),
            Prop::Getter(g) => (prop_name(&g.key), None),
            Prop::Setter(s) => (prop_name(&s.key), None),
            Prop::Assign(a) => (Some(a.key.sym.to_string()), None),
        };
        let Some(key) = key else {
            *unknown += 1;
            continue;
        };
        let path = if prefix.is_empty() {
            key
        } else {
            format!("{prefix}.{key}")
        };
        if let Some(Expr::Object(nested)) = value.map(unwrap) {
            collect_members(nested, &path, depth + 1, out, unknown);
        }
        out.push(path);
    }
}

//! Names and values read off expressions without evaluating anything.

use std::borrow::Cow;

use smallvec::SmallVec;
use swc_common::Spanned;
use swc_ecma_ast::{
    ArrayPat, AssignTargetPat, Callee, Expr, Ident, Lit, MemberExpr, MemberProp, MetaPropKind,
    ObjectLit, ObjectPat, ObjectPatProp, OptChainBase, Pat, Prop, PropName, PropOrSpread, SeqExpr,
    UnaryOp,
};
use swc_ecma_visit::VisitWith;

use crate::facts::{StaticPath, StaticValue};
use crate::source::Source;

const MAX_NAME_DEPTH: usize = 128;
/// How deep binding patterns are followed.
const MAX_PATTERN_DEPTH: usize = 16;
const MAX_NAME_BYTES: usize = 4096;
/// Expressions in a template literal read as a path.
const MAX_PATH_PARTS: usize = 32;

/// The dotted name of a callee: `a.b.c`, `import`, or `""` where a part is not static.
/// Computed string or number keys give their value. One allocation for the whole name.
pub(crate) fn dotted(expr: &Expr) -> String {
    // Most names have a few parts: they are gathered on the stack, and the name is the one
    // allocation.
    let mut parts: SmallVec<[Cow<'_, str>; 8]> = SmallVec::new();
    let mut cur = expr;
    for _ in 0..MAX_NAME_DEPTH {
        match cur {
            Expr::Ident(ident) => {
                parts.push(Cow::Borrowed(&ident.sym));
                break;
            }
            Expr::This(_) => {
                parts.push(Cow::Borrowed("this"));
                break;
            }
            Expr::Member(member) => {
                parts.push(member_prop(&member.prop));
                cur = &member.obj;
            }
            Expr::OptChain(chain) => match &*chain.base {
                OptChainBase::Member(member) => {
                    parts.push(member_prop(&member.prop));
                    cur = &member.obj;
                }
                OptChainBase::Call(_) => {
                    parts.push(Cow::Borrowed(""));
                    break;
                }
            },
            Expr::Paren(paren) => cur = &paren.expr,
            Expr::Seq(seq) => match indirect(seq) {
                Some(value) => cur = value,
                None => {
                    parts.push(Cow::Borrowed(""));
                    break;
                }
            },
            Expr::TsAs(e) => cur = &e.expr,
            Expr::TsNonNull(e) => cur = &e.expr,
            Expr::MetaProp(meta) if meta.kind == MetaPropKind::ImportMeta => {
                parts.push(Cow::Borrowed("import.meta"));
                break;
            }
            // A call of no arguments. webpack reads a CommonJS module's default export
            // through a getter, `__webpack_require__.n(m)`, which returns the module: called
            // at once, `n.n(m)()`, it names `m`; a getter kept in a local, `a()` after
            // `a = n.n(m)`, names `a()`, which the pre-pass binds to what `m` aliases.
            Expr::Call(call) if call.args.is_empty() => {
                match call.callee.as_expr().map(|c| unwrap(c)) {
                    Some(Expr::Ident(ident)) => parts.push(Cow::Owned(format!("{}()", ident.sym))),
                    Some(Expr::Call(inner)) => match webpack_default_getter(inner) {
                        Some(module) => parts.push(Cow::Borrowed(&module.sym)),
                        None => parts.push(Cow::Borrowed("")),
                    },
                    _ => parts.push(Cow::Borrowed("")),
                }
                break;
            }
            _ => {
                parts.push(Cow::Borrowed(""));
                break;
            }
        }
    }
    let mut name = String::with_capacity(parts.iter().map(|p| p.len() + 1).sum());
    for (i, part) in parts.iter().rev().enumerate() {
        if i > 0 {
            name.push('.');
        }
        name.push_str(part);
    }
    if name.len() > MAX_NAME_BYTES {
        name.truncate(crate::source::cut(&name, MAX_NAME_BYTES).len());
    }
    name
}

/// The module `m` of webpack's default-export getter `<require>.n(m)`, `m` a plain name.
pub(crate) fn webpack_default_getter(
    call: &swc_ecma_ast::CallExpr,
) -> Option<&swc_ecma_ast::Ident> {
    let [arg] = call.args.as_slice() else {
        return None;
    };
    let Some(Expr::Member(member)) = call.callee.as_expr().map(|c| unwrap(c)) else {
        return None;
    };
    if arg.spread.is_some() || member.prop.as_ident().is_none_or(|p| p.sym != *"n") {
        return None;
    }
    match unwrap(&arg.expr) {
        Expr::Ident(ident) => Some(ident),
        _ => None,
    }
}

/// [`dotted`] of a member expression, without building an `Expr` around it.
pub(crate) fn dotted_member(member: &MemberExpr) -> String {
    let mut name = dotted(&member.obj);
    name.push('.');
    name.push_str(&member_prop(&member.prop));
    if name.len() > MAX_NAME_BYTES {
        name = crate::source::cut(&name, MAX_NAME_BYTES).to_owned();
    }
    name
}

pub(crate) fn callee_name(callee: &Callee) -> String {
    match callee {
        Callee::Expr(expr) => {
            let name = dotted(expr);
            // `(customProtocol || protocol).handle(…)`: a member of a value or its fallback
            // is named by the fallback, what the call uses unless told otherwise.
            if name.starts_with('.')
                && let Some(fallback) = fallback_root(expr)
            {
                let root = dotted(fallback);
                if !root.is_empty() && !root.starts_with('.') {
                    return root + &name;
                }
            }
            // `ipcRenderer.on("a", f).on("b", g)`: an event emitter's listener methods return
            // the emitter, so a method of what one returns is the emitter's.
            if name.starts_with('.')
                && let Expr::Member(member) = unwrap(expr)
                && let Some(object) = emitter_returned(&member.obj, 0)
            {
                return object + &name;
            }
            name
        }
        Callee::Import(_) => "import".to_owned(),
        Callee::Super(_) => "super".to_owned(),
    }
}

/// The methods of Node.js's `EventEmitter` that return the emitter.
const EMITTER_CHAINED: &[&str] = &[
    "on",
    "once",
    "addListener",
    "prependListener",
    "prependOnceListener",
    "off",
    "removeListener",
    "removeAllListeners",
    "setMaxListeners",
];

/// The emitter a call of one of its [`EMITTER_CHAINED`] methods returns, by name:
/// `ipcRenderer` of `ipcRenderer.on("a", f)`, also down a chain of such calls.
fn emitter_returned(expr: &Expr, depth: usize) -> Option<String> {
    let Expr::Call(call) = unwrap(expr) else {
        return None;
    };
    let Expr::Member(callee) = unwrap(call.callee.as_expr()?) else {
        return None;
    };
    if !EMITTER_CHAINED.contains(&&*callee.prop.as_ident()?.sym) {
        return None;
    }
    let object = dotted(&callee.obj);
    if !object.is_empty() && !object.starts_with('.') {
        Some(object)
    } else if depth < MAX_PATTERN_DEPTH {
        emitter_returned(&callee.obj, depth + 1)
    } else {
        None
    }
}

/// The fallback of `(value || fallback)` (or `??`) at the root of a member chain.
fn fallback_root(expr: &Expr) -> Option<&Expr> {
    let mut cur = expr;
    for _ in 0..MAX_NAME_DEPTH {
        match cur {
            Expr::Member(member) => cur = &member.obj,
            Expr::Paren(paren) => cur = &paren.expr,
            Expr::Bin(bin)
                if matches!(
                    bin.op,
                    swc_ecma_ast::BinaryOp::LogicalOr | swc_ecma_ast::BinaryOp::NullishCoalescing
                ) =>
            {
                return Some(&bin.right);
            }
            _ => return None,
        }
    }
    None
}

/// The name of a function expression called where it is written (`function r(t) {…}(157)`),
/// as minifiers inline a webpack or rspack runtime's require that is used once.
pub(crate) fn called_function_name(call: &swc_ecma_ast::CallExpr) -> Option<&str> {
    match unwrap(call.callee.as_expr()?) {
        Expr::Fn(f) => f.ident.as_ref().map(|i| &*i.sym),
        _ => None,
    }
}

/// Whether a path part is a `file:` URL's scheme alone (`file:` or `file://`), which a path
/// built after it drops.
fn is_file_scheme(part: &str) -> bool {
    part.eq_ignore_ascii_case("file://") || part.eq_ignore_ascii_case("file:")
}

/// `name == x || name.ends_with(".x")`.
pub(crate) fn named(name: &str, x: &str) -> bool {
    name == x || object_of(name, x).is_some()
}

/// The object part of `name` when it is `<object>.x`: `object_of("a.b.x", "x") == Some("a.b")`.
pub(crate) fn object_of<'n>(name: &'n str, x: &str) -> Option<&'n str> {
    name.strip_suffix(x)?.strip_suffix('.')
}

/// A member's static property name; `""` when it is not static.
fn member_prop(prop: &MemberProp) -> Cow<'_, str> {
    match prop {
        MemberProp::Ident(ident) => Cow::Borrowed(&ident.sym),
        MemberProp::Computed(computed) => {
            literal_key(&computed.expr).map_or(Cow::Borrowed(""), Cow::Owned)
        }
        MemberProp::PrivateName(private) => Cow::Owned(format!("#{}", private.name)),
    }
}

/// The name the pre-pass keeps the class of `new C(…)` under: `C`, or for a class written
/// in place (`new class {…}`, as terser writes a class made once), its own name or
/// [`class_key`].
pub(crate) fn instantiated_class(expr: &Expr) -> Option<String> {
    let Expr::New(new) = unwrap(expr) else {
        return None;
    };
    match unwrap(&new.callee) {
        Expr::Ident(class) => Some(class.sym.to_string()),
        Expr::Class(class) => Some(
            class
                .ident
                .as_ref()
                .map_or_else(|| class_key(&class.class), |i| i.sym.to_string()),
        ),
        _ => None,
    }
}

/// The name of a class no code names: its offset, after a `#` no identifier starts with.
pub(crate) fn class_key(class: &swc_ecma_ast::Class) -> String {
    format!("#class@{}", class.span.lo.0)
}

/// A string or number literal as a key.
pub(crate) fn literal_key(expr: &Expr) -> Option<String> {
    match unwrap(expr) {
        Expr::Lit(Lit::Num(n)) => Some(number_text(n.value)),
        other => string(other),
    }
}

/// A string literal (or an expression-free template).
pub(crate) fn string(expr: &Expr) -> Option<String> {
    match unwrap(expr) {
        Expr::Lit(Lit::Str(s)) => Some(s.value.to_string_lossy().into_owned()),
        Expr::Tpl(tpl) if tpl.exprs.is_empty() => tpl
            .quasis
            .first()
            .and_then(|q| q.cooked.as_ref())
            .map(|c| c.to_string_lossy().into_owned()),
        _ => None,
    }
}

/// The value of an indirect-call sequence, `(0, x.y)`: compilers (TypeScript, Babel, webpack)
/// write it to call an import without `this`. Only literal leading expressions qualify.
fn indirect(seq: &SeqExpr) -> Option<&Expr> {
    let (last, leading) = seq.exprs.split_last()?;
    (!leading.is_empty() && leading.iter().all(|e| matches!(**e, Expr::Lit(_)))).then_some(last)
}

/// Parentheses, indirect-call sequences and TypeScript casts removed.
pub(crate) fn unwrap(expr: &Expr) -> &Expr {
    let mut cur = expr;
    for _ in 0..MAX_NAME_DEPTH {
        cur = match cur {
            Expr::Paren(p) => &p.expr,
            Expr::Seq(seq) => match indirect(seq) {
                Some(value) => value,
                None => return cur,
            },
            Expr::TsAs(e) => &e.expr,
            Expr::TsNonNull(e) => &e.expr,
            Expr::TsSatisfies(e) => &e.expr,
            Expr::TsConstAssertion(e) => &e.expr,
            Expr::TsTypeAssertion(e) => &e.expr,
            _ => return cur,
        };
    }
    cur
}

/// JavaScript's `String(n)` for the numbers keys use.
pub(crate) fn number_text(n: f64) -> String {
    if n.fract() == 0.0 && n.abs() < 1e21 {
        format!("{}", n as i128)
    } else {
        format!("{n}")
    }
}

/// The value an object literal gives `key`: its last `key: value` property, as JavaScript
/// keeps the last of repeated keys (spreads, shorthands and methods are not read).
pub(crate) fn property<'o>(object: &'o ObjectLit, key: &str) -> Option<&'o Expr> {
    object.props.iter().rev().find_map(|p| match p {
        PropOrSpread::Prop(p) => match &**p {
            Prop::KeyValue(kv) if prop_name(&kv.key).as_deref() == Some(key) => Some(&*kv.value),
            _ => None,
        },
        PropOrSpread::Spread(_) => None,
    })
}

/// The value of `key` when `expr` is an object literal.
pub(crate) fn property_of<'e>(expr: &'e Expr, key: &str) -> Option<&'e Expr> {
    match unwrap(expr) {
        Expr::Object(object) => property(object, key),
        _ => None,
    }
}

pub(crate) fn prop_name(name: &PropName) -> Option<String> {
    match name {
        PropName::Ident(ident) => Some(ident.sym.to_string()),
        PropName::Str(s) => Some(s.value.to_string_lossy().into_owned()),
        PropName::Num(n) => Some(number_text(n.value)),
        PropName::BigInt(b) => Some(b.value.to_string()),
        PropName::Computed(c) => literal_key(&c.expr),
    }
}

/// A literal, or the source text of what it was.
pub(crate) fn static_value(source: &Source<'_>, expr: &Expr) -> StaticValue {
    let inner = unwrap(expr);
    let literal = match inner {
        Expr::Lit(Lit::Str(_)) | Expr::Tpl(_) => string(inner).map(serde_json::Value::from),
        Expr::Lit(Lit::Num(n)) => {
            serde_json::Number::from_f64(n.value).map(serde_json::Value::Number)
        }
        Expr::Lit(Lit::Bool(_)) => literal_bool(inner).map(serde_json::Value::Bool),
        Expr::Lit(Lit::Null(_)) => Some(serde_json::Value::Null),
        Expr::Unary(u) if u.op == UnaryOp::Minus => match unwrap(&u.arg) {
            Expr::Lit(Lit::Num(n)) => {
                serde_json::Number::from_f64(-n.value).map(serde_json::Value::Number)
            }
            _ => None,
        },
        Expr::Unary(u) if u.op == UnaryOp::Bang => literal_bool(inner).map(serde_json::Value::Bool),
        _ => None,
    };
    literal.map_or_else(
        || StaticValue::Dynamic(source.expression(expr.span())),
        StaticValue::Literal,
    )
}

/// A boolean literal, also as minifiers write them: `!0` and `!1`.
pub(crate) fn literal_bool(expr: &Expr) -> Option<bool> {
    match unwrap(expr) {
        Expr::Lit(Lit::Bool(b)) => Some(b.value),
        Expr::Unary(u) if u.op == UnaryOp::Bang => match unwrap(&u.arg) {
            Expr::Lit(Lit::Num(n)) if n.value == 0.0 || n.value == 1.0 => Some(n.value == 0.0),
            _ => None,
        },
        _ => None,
    }
}

/// The first parameter's identifier name, or the `n`-th.
pub(crate) fn param_name(pat: Option<&Pat>) -> Option<String> {
    match pat? {
        Pat::Ident(ident) => Some(ident.id.sym.to_string()),
        Pat::Assign(assign) => param_name(Some(&assign.left)),
        _ => None,
    }
}

/// A path expression resolved statically: literals, `+` and template literals of static
/// parts, `path.join` / `path.resolve` / `join` / `resolve` of static parts (skipping
/// `__dirname` and friends), `fileURLToPath(x)` and `new URL(str, import.meta.url)`.
/// `app.getAppPath()` is the application's root, which a leading `/` names (the artifact
/// root, reference §3.10), and a `file://` written before a directory anchor is dropped:
/// `` `file://${__dirname}/index.html` `` is `index.html` beside the file.
///
/// `scope` resolves names: callees through aliases (`r` for `import {join as r} from "path"`
/// is `path.join`), and local names bound to the module's directory or file, as ES modules
/// make them (`const d = dirname(fileURLToPath(import.meta.url))`).
pub(crate) fn static_path(expr: &Expr, scope: &dyn PathScope) -> Option<StaticPath> {
    let mut anchored = false;
    let path = path_parts(expr, scope, &mut anchored, 0)?;
    // Below Electron's resources directory (`process.resourcesPath`), which holds the
    // application's archive: a bare resources directory names no file.
    if let Some(rest) = path.strip_prefix(RESOURCES) {
        let rest = rest.trim_start_matches('/');
        return (!rest.is_empty()).then(|| StaticPath {
            path: rest.to_owned(),
            context: RESOURCES_CONTEXT,
        });
    }
    // A bare anchor (`__dirname`, `app.getAppPath()`) names a directory, not a file.
    if anchored && (path.is_empty() || path == "/") {
        return None;
    }
    let absolute = path.starts_with('/');
    let context = if anchored || absolute {
        "filesystem-expression"
    } else {
        "module-specifier"
    };
    Some(StaticPath { path, context })
}

/// The static directory a path computed at run time lies in: `path.join(dir, file)` or
/// `dir + "/" + file` where `dir` is a static path and `file` is not (a name from a
/// directory's listing); none when the whole path is static or nothing before the unknown part
/// is.
pub(crate) fn static_dir(expr: &Expr, scope: &dyn PathScope) -> Option<StaticPath> {
    let expr = unwrap(expr);
    let prefix: &[&Expr] = &match expr {
        Expr::Call(call) => {
            // The directory is the call of the parts before the unknown one.
            let (anchored, dir) = dynamic_join_dir(call, scope)?;
            return relative_dir(anchored, &dir);
        }
        Expr::Bin(bin) if bin.op == swc_ecma_ast::BinaryOp::Add => {
            if path_parts(&bin.right, scope, &mut false, 0).is_some() {
                return None;
            }
            vec![&*bin.left]
        }
        _ => return None,
    };
    let mut anchored = false;
    let mut dir = String::new();
    for part in prefix {
        dir = concat(&dir, &path_parts(part, scope, &mut anchored, 0)?);
    }
    relative_dir(anchored, &dir)
}

/// How [`path_parts`] writes `process.resourcesPath`: a first part no path of the artifact
/// has, which [`static_path`] turns into a path of context [`RESOURCES_CONTEXT`].
const RESOURCES: &str = "\u{1}resources";

/// The context of a path below Electron's resources directory (`process.resourcesPath`: the
/// directory that holds `app.asar`, `app.asar.unpacked` and a build's extra resources).
pub(crate) const RESOURCES_CONTEXT: &str = "resources-path";

/// A directory anchored at the file's own (`""` for that directory itself); none for the app
/// root, the resources directory and absolute paths.
fn relative_dir(anchored: bool, dir: &str) -> Option<StaticPath> {
    (anchored && !dir.starts_with('/') && !dir.starts_with(RESOURCES)).then(|| StaticPath {
        path: dir.trim_end_matches('/').to_owned(),
        context: "filesystem-expression",
    })
}

/// The directory before the last part of `path.join(…)` (or `resolve`) when that part is
/// not static, and whether an anchor starts it.
fn dynamic_join_dir(
    call: &swc_ecma_ast::CallExpr,
    scope: &dyn PathScope,
) -> Option<(bool, String)> {
    let name = scope.callee(&call.callee);
    if !(named(&name, "join") || named(&name, "resolve"))
        || call.args.len() < 2
        || call.args.iter().any(|a| a.spread.is_some())
    {
        return None;
    }
    let args: Vec<&Expr> = call.args.iter().map(|a| &*a.expr).collect();
    let (last, dir) = args.split_last()?;
    if static_path(last, scope).is_some() || string(last).is_some() {
        return None;
    }
    dir_parts(dir, named(&name, "join"), scope)
}

/// The path `join(parts…)` (or `resolve`) builds, and whether an anchor starts it.
fn dir_parts(parts: &[&Expr], join: bool, scope: &dyn PathScope) -> Option<(bool, String)> {
    let mut anchored = false;
    let mut out = Vec::new();
    for (i, part) in parts.iter().enumerate() {
        let part = path_parts(part, scope, &mut anchored, 0)?;
        let part = match part.strip_prefix('/') {
            Some(rest) if join && i > 0 => rest.trim_start_matches('/').to_owned(),
            _ => part,
        };
        if !part.is_empty() {
            out.push(part);
        }
    }
    Some((anchored, join_parts(&out)))
}

/// The directory a protocol handler serves from, read off one of its path calls:
/// `path.join(dir…, requestPath)` (or `resolve`) whose last part is not static. Anchored at
/// the file's directory (relative) or at the application's root (a leading `/`).
pub(crate) fn served_dir(
    call: &swc_ecma_ast::CallExpr,
    scope: &dyn PathScope,
) -> Option<StaticPath> {
    let (anchored, dir) = dynamic_join_dir(call, scope)?;
    (anchored && !dir.starts_with(RESOURCES)).then(|| StaticPath {
        path: dir.trim_end_matches('/').to_owned(),
        context: "filesystem-expression",
    })
}

/// Directories read off one protocol handler ([`crate::facts::ServedScheme::roots`]).
const MAX_HANDLER_ROOTS: usize = 4;

/// The directories a protocol handler written where it is passed builds its paths on
/// ([`crate::facts::ServedScheme::roots`]): each [`served_dir`] of its calls, in the order
/// written, at most [`MAX_HANDLER_ROOTS`]. None for a handler passed by name.
pub(crate) fn handler_roots(handler: &Expr, scope: &dyn PathScope) -> Vec<StaticPath> {
    struct Roots<'s> {
        scope: &'s dyn PathScope,
        found: Vec<StaticPath>,
    }
    impl swc_ecma_visit::Visit for Roots<'_> {
        fn visit_call_expr(&mut self, call: &swc_ecma_ast::CallExpr) {
            if self.found.len() >= MAX_HANDLER_ROOTS {
                return;
            }
            if let Some(root) = served_dir(call, self.scope)
                && !self.found.contains(&root)
            {
                self.found.push(root);
            }
            swc_ecma_visit::VisitWith::visit_children_with(call, self);
        }
    }
    if !matches!(unwrap(handler), Expr::Fn(_) | Expr::Arrow(_)) {
        return Vec::new();
    }
    let mut roots = Roots {
        scope,
        found: Vec::new(),
    };
    swc_ecma_visit::VisitWith::visit_with(handler, &mut roots);
    roots.found
}

/// Most values read off one argument.
const MAX_ALTERNATIVES: usize = 8;

/// The values `expr` may take: both branches of a conditional, both sides of `||` and `??`
/// (nested a few deep), or `expr` itself.
pub(crate) fn alternatives<'e>(expr: &'e Expr, out: &mut Vec<&'e Expr>, depth: usize) {
    let expr = unwrap(expr);
    if out.len() >= MAX_ALTERNATIVES {
        return;
    }
    match expr {
        Expr::Cond(cond) if depth < 4 => {
            alternatives(&cond.cons, out, depth + 1);
            alternatives(&cond.alt, out, depth + 1);
        }
        Expr::Bin(bin)
            if depth < 4
                && matches!(
                    bin.op,
                    swc_ecma_ast::BinaryOp::LogicalOr | swc_ecma_ast::BinaryOp::NullishCoalescing
                ) =>
        {
            alternatives(&bin.left, out, depth + 1);
            alternatives(&bin.right, out, depth + 1);
        }
        _ => out.push(expr),
    }
}

/// The static paths `expr` may take: one for each branch of a condition that has one
/// (`app.isPackaged ? join(__dirname, "a.js") : join(__dirname, "b.js")`), through names
/// bound to such a condition too, in source order and without repeats.
pub(crate) fn static_paths(expr: &Expr, scope: &dyn PathScope) -> Vec<StaticPath> {
    let mut branches = Vec::new();
    alternatives(expr, &mut branches, 0);
    let mut out: Vec<StaticPath> = Vec::new();
    for branch in branches {
        let paths = match unwrap(branch) {
            Expr::Ident(ident) => scope.bound_paths(&ident.sym).to_vec(),
            other => match static_path(other, scope) {
                Some(path) => vec![path],
                None => expanded_paths(other, scope),
            },
        };
        for path in paths {
            if !out.contains(&path) {
                out.push(path);
            }
        }
    }
    out
}

/// The static paths of a path built on a name bound to several (`new URL(path.join("file:",
/// __dirname, page))` after `let page = "./index.html"; if (…) page = "../dist/index.html"`):
/// the path read once with the name as each of them. Only the first such name in `expr` is
/// expanded; none when `expr` names none.
pub(crate) fn expanded_paths(expr: &Expr, scope: &dyn PathScope) -> Vec<StaticPath> {
    let mut names = Names {
        scope,
        found: None,
        budget: 64,
    };
    expr.visit_with(&mut names);
    let Some(name) = names.found else {
        return Vec::new();
    };
    let mut out: Vec<StaticPath> = Vec::new();
    for value in scope.bound_paths(&name) {
        let one = Override {
            scope,
            name: &name,
            value,
        };
        if let Some(path) = static_path(expr, &one)
            && !out.contains(&path)
        {
            out.push(path);
        }
    }
    out
}

/// The first name an expression reads that is bound to several static paths.
struct Names<'s> {
    scope: &'s dyn PathScope,
    found: Option<String>,
    /// Names looked at before giving up: a path is a few parts.
    budget: usize,
}

impl swc_ecma_visit::Visit for Names<'_> {
    fn visit_ident(&mut self, ident: &swc_ecma_ast::Ident) {
        if self.found.is_some() || self.budget == 0 {
            return;
        }
        self.budget -= 1;
        if self.scope.bound_paths(&ident.sym).len() > 1 {
            self.found = Some(ident.sym.to_string());
        }
    }

    // Member properties and object keys are not names the scope binds.
    fn visit_member_prop(&mut self, _: &MemberProp) {}

    fn visit_prop_name(&mut self, _: &swc_ecma_ast::PropName) {}
}

/// A scope in which one name holds one of its static paths.
struct Override<'s> {
    scope: &'s dyn PathScope,
    name: &'s str,
    value: &'s StaticPath,
}

impl PathScope for Override<'_> {
    fn callee(&self, callee: &Callee) -> String {
        self.scope.callee(callee)
    }

    fn anchor(&self, name: &str) -> Option<Anchor> {
        self.scope.anchor(name)
    }

    fn normalized(&self, name: String) -> String {
        self.scope.normalized(name)
    }

    fn member_path(&self, dotted: &str) -> Option<&StaticPath> {
        self.scope.member_path(dotted)
    }

    fn bound_paths(&self, name: &str) -> &[StaticPath] {
        if name == self.name {
            std::slice::from_ref(self.value)
        } else {
            self.scope.bound_paths(name)
        }
    }

    fn bound_path(&self, name: &str) -> Option<&StaticPath> {
        if name == self.name {
            Some(self.value)
        } else {
            self.scope.bound_path(name)
        }
    }
}

/// `app.getAppPath()`: the directory of the application's `package.json`.
fn is_app_root(expr: &Expr, scope: &dyn PathScope) -> bool {
    matches!(unwrap(expr), Expr::Call(call) if call.args.is_empty()
        && named(&scope.callee(&call.callee), "getAppPath"))
}

/// `left + right` of two path parts. A part that an anchor left empty makes the other
/// relative (`__dirname + "/x"` is `x`); `file://` before an anchor is dropped.
fn concat(left: &str, right: &str) -> String {
    // What is written before the resources directory, an absolute path, is dropped.
    if left.eq_ignore_ascii_case("file://") || right.starts_with(RESOURCES) {
        return right.to_owned();
    }
    if let Some(rest) = left.strip_prefix(RESOURCES) {
        let joined = format!("{rest}{right}");
        return format!("{RESOURCES}/{}", joined.trim_start_matches('/'));
    }
    let joined = format!("{left}{right}");
    let rest = joined.trim_start_matches('/');
    if left.starts_with('/') {
        format!("/{rest}")
    } else {
        rest.to_owned()
    }
}

/// What names a path resolves through: see [`static_path`].
pub(crate) trait PathScope {
    /// A call's callee name, aliases resolved.
    fn callee(&self, callee: &Callee) -> String;
    /// What a local name is bound to, when it is the module's directory or file.
    fn anchor(&self, name: &str) -> Option<Anchor>;
    /// A dotted name with its first segment replaced by what it aliases.
    fn normalized(&self, name: String) -> String;
    /// The static path a member (`__webpack_require__.ab`) is assigned, when the file's
    /// path-shaped assignments of it agree.
    fn member_path(&self, _dotted: &str) -> Option<&StaticPath> {
        None
    }
    /// The static paths a local name is bound to, where the binding holds
    /// (`const preload = path.join(__dirname, "preload.js")`): one, or one for each branch
    /// of a condition.
    fn bound_paths(&self, _name: &str) -> &[StaticPath] {
        &[]
    }
    /// The static path a local name is bound to, when every value it may hold is that path.
    fn bound_path(&self, _name: &str) -> Option<&StaticPath> {
        None
    }
}

/// Whether a module name (or `require` specifier) is Node's `path`.
fn is_path_module(name: &str) -> bool {
    matches!(name, "path" | "node:path")
}

/// A name for the module's own location.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Anchor {
    /// The module's directory: `__dirname`, `dirname(fileURLToPath(import.meta.url))`.
    Dir,
    /// The module's file: `__filename`, `fileURLToPath(import.meta.url)`.
    File,
}

/// Which location `expr` names, if it names the module's directory or file.
pub(crate) fn anchor_of(expr: &Expr, scope: &dyn PathScope) -> Option<Anchor> {
    match unwrap(expr) {
        Expr::Ident(i) if i.sym == *"__dirname" => Some(Anchor::Dir),
        Expr::Ident(i) if i.sym == *"__filename" => Some(Anchor::File),
        Expr::Ident(i) => scope.anchor(&i.sym),
        // `import.meta.dirname` and `import.meta.filename` (Node.js 20.11 on, so Electron 30).
        Expr::Member(m) if matches!(unwrap(&m.obj), Expr::MetaProp(meta) if meta.kind == MetaPropKind::ImportMeta) => {
            match m.prop.as_ident().map(|p| &*p.sym) {
                Some("dirname") => Some(Anchor::Dir),
                Some("filename") => Some(Anchor::File),
                _ => None,
            }
        }
        // The argument's shape is checked first: naming the callee resolves aliases and
        // allocates, and this runs on every declaration and path part.
        Expr::Call(call) => {
            let arg = call.args.first().filter(|a| a.spread.is_none())?;
            if matches!(unwrap(&arg.expr), Expr::Member(m) if dotted_member(m) == "import.meta.url")
            {
                named(&scope.callee(&call.callee), "fileURLToPath").then_some(Anchor::File)
            } else if module_url_of(&arg.expr).is_some_and(|p| matches!(p.as_str(), "." | "./")) {
                // `fileURLToPath(new URL(".", import.meta.url))`, as Quasar's main writes it.
                named(&scope.callee(&call.callee), "fileURLToPath").then_some(Anchor::Dir)
            } else if anchor_of(&arg.expr, scope)? == Anchor::File {
                named(&scope.callee(&call.callee), "dirname").then_some(Anchor::Dir)
            } else {
                None
            }
        }
        _ => None,
    }
}

fn is_dir_identity(expr: &Expr, scope: &dyn PathScope) -> bool {
    anchor_of(expr, scope) == Some(Anchor::Dir)
}

fn path_parts(
    expr: &Expr,
    scope: &dyn PathScope,
    anchored: &mut bool,
    depth: usize,
) -> Option<String> {
    if depth > 16 {
        return None;
    }
    let expr = unwrap(expr);
    if let Some(s) = string(expr) {
        return Some(s);
    }
    if is_dir_identity(expr, scope) {
        *anchored = true;
        return Some(String::new());
    }
    if is_app_root(expr, scope) {
        *anchored = true;
        return Some("/".to_owned());
    }
    if let Expr::Member(m) = expr
        && m.prop.as_ident().is_some_and(|p| p.sym == *"resourcesPath")
        && matches!(unwrap(&m.obj), Expr::Ident(i) if i.sym == *"process")
    {
        *anchored = true;
        return Some(RESOURCES.to_owned());
    }
    match expr {
        Expr::Ident(ident) => Some(bound_parts(scope.bound_path(&ident.sym)?, anchored)),
        Expr::Bin(bin) if bin.op == swc_ecma_ast::BinaryOp::Add => {
            let left = path_parts(&bin.left, scope, anchored, depth + 1)?;
            let right = path_parts(&bin.right, scope, anchored, depth + 1)?;
            Some(concat(&left, &right))
        }
        // A path is a few parts; longer templates are not paths, and stay linear.
        Expr::Tpl(tpl) if tpl.exprs.len() <= MAX_PATH_PARTS => {
            let mut path = tpl
                .quasis
                .first()?
                .cooked
                .as_ref()?
                .to_string_lossy()
                .into_owned();
            for (i, (expr, quasi)) in tpl.exprs.iter().zip(tpl.quasis.iter().skip(1)).enumerate() {
                // A file's path ends where its URL's query or fragment starts: what follows
                // (`` `file://${__dirname}/tracker.html?id=${id}` ``) names no other file.
                if *anchored && path.contains(['?', '#']) {
                    break;
                }
                let part = path_parts(expr, scope, anchored, depth + 1)?;
                // A template that opens with its first part is that part: the application's
                // root (`${app.getAppPath()}/x`) stays rooted.
                path = if i == 0 && path.is_empty() {
                    part
                } else {
                    concat(&path, &part)
                };
                path = concat(&path, &quasi.cooked.as_ref()?.to_string_lossy());
            }
            Some(path)
        }
        Expr::Call(call) => {
            let name = scope.callee(&call.callee);
            if named(&name, "join") || named(&name, "resolve") {
                let join = named(&name, "join");
                let mut parts = Vec::new();
                for (i, arg) in call.args.iter().enumerate() {
                    if arg.spread.is_some() {
                        return None;
                    }
                    let part = path_parts(&arg.expr, scope, anchored, depth + 1)?;
                    // `path.join("file://", __dirname, "index.html")`: the scheme before an
                    // anchor is dropped, as `concat` drops it (and `path.join("file:", …)`,
                    // which angular-electron hands to `new URL`).
                    if i == 0 && is_file_scheme(&part) {
                        continue;
                    }
                    // `join` does not start again at an absolute part as `resolve` does:
                    // `join(__dirname, "/index.html")` is `index.html` beside the file.
                    let part = match part.strip_prefix('/') {
                        Some(rest) if join && i > 0 => rest.trim_start_matches('/').to_owned(),
                        _ => part,
                    };
                    if !part.is_empty() {
                        parts.push(part);
                    }
                }
                if parts.is_empty() {
                    return None;
                }
                Some(join_parts(&parts))
            } else if named(&name, "format") {
                // `url.format({ pathname: path.join(__dirname, "index.html"), protocol:
                // "file:", slashes: true })`, as Electron's early templates load a page.
                let options = call.args.first().filter(|a| a.spread.is_none())?;
                let protocol = string(property_of(&options.expr, "protocol")?)?;
                if !protocol.trim_end_matches(':').eq_ignore_ascii_case("file") {
                    return None;
                }
                path_parts(
                    property_of(&options.expr, "pathname")?,
                    scope,
                    anchored,
                    depth + 1,
                )
            } else if let Some(url) = file_url_text(call, scope) {
                path_parts(url, scope, anchored, depth + 1)
            } else if named(&name, "fileURLToPath") {
                let inner = path_parts(&call.args.first()?.expr, scope, anchored, depth + 1)?;
                Some(
                    inner
                        .strip_prefix("file://")
                        .map_or(inner.clone(), str::to_owned),
                )
            } else {
                None
            }
        }
        // `path.sep`, and a member a static path was assigned to: webpack's asset relocator
        // (Electron Forge's native modules) writes `__webpack_require__.ab + "x.node"` after
        // `__webpack_require__.ab = __dirname + "/native_modules/"`, and node-loader writes
        // `__dirname + require("path").sep + __webpack_require__.p + "x.node"`.
        Expr::Member(member) => {
            let prop = member.prop.as_ident()?;
            // `pathToFileURL(p).href`: the file URL of a path is the path; and so is
            // `new URL("./index.html", import.meta.url).href`.
            if prop.sym == *"href" {
                match unwrap(&member.obj) {
                    Expr::Call(call) if named(&scope.callee(&call.callee), "pathToFileURL") => {
                        let arg = call.args.first().filter(|a| a.spread.is_none())?;
                        return path_parts(&arg.expr, scope, anchored, depth + 1);
                    }
                    // A name bound to such a URL (`const url = new URL(…); url.href`).
                    inner @ (Expr::New(_) | Expr::Ident(_)) => {
                        return path_parts(inner, scope, anchored, depth + 1);
                    }
                    _ => {}
                }
            }
            if prop.sym == *"sep"
                && (super::prepass::require_spec(&member.obj)
                    .as_deref()
                    .is_some_and(is_path_module)
                    || is_path_module(&scope.normalized(dotted(&member.obj))))
            {
                return Some("/".to_owned());
            }
            Some(bound_parts(
                scope.member_path(&dotted_member(member))?,
                anchored,
            ))
        }
        Expr::New(new) => {
            if let Some(path) = module_url_of(expr) {
                *anchored = true;
                return Some(path);
            }
            // `new URL(path.join("file:", __dirname, page))`: a file URL made of a path.
            let [arg] = new.args.as_deref()? else {
                return None;
            };
            if dotted(&new.callee) != "URL" || arg.spread.is_some() {
                return None;
            }
            let Expr::Call(call) = unwrap(&arg.expr) else {
                return None;
            };
            if !is_file_scheme(&call.args.first().and_then(|a| string(&a.expr))?) {
                return None;
            }
            path_parts(&arg.expr, scope, anchored, depth + 1)
        }
        _ => None,
    }
}

/// A path a name or member was bound to, as [`path_parts`] writes it: below the resources
/// directory it keeps that directory in front.
fn bound_parts(bound: &StaticPath, anchored: &mut bool) -> String {
    match bound.context {
        "filesystem-expression" => {
            *anchored = true;
            bound.path.clone()
        }
        RESOURCES_CONTEXT => {
            *anchored = true;
            format!("{RESOURCES}/{}", bound.path)
        }
        _ => bound.path.clone(),
    }
}

/// The path whose file URL `call` writes out: `pathToFileURL(p).toString()`.
fn file_url_text<'e>(call: &'e swc_ecma_ast::CallExpr, scope: &dyn PathScope) -> Option<&'e Expr> {
    if !call.args.is_empty() {
        return None;
    }
    let Expr::Member(member) = unwrap(call.callee.as_expr()?) else {
        return None;
    };
    if member.prop.as_ident().is_none_or(|p| p.sym != *"toString") {
        return None;
    }
    let inner = match unwrap(&member.obj) {
        Expr::Call(inner) => inner,
        // `new URL("./index.html", import.meta.url).toString()`, and a name bound to a path
        // or such a URL (`url.toString()`).
        new @ Expr::New(_) => return module_url_of(new).map(|_| new),
        name @ Expr::Ident(_) => return Some(name),
        _ => return None,
    };
    if !named(&scope.callee(&inner.callee), "pathToFileURL") {
        return None;
    }
    inner
        .args
        .first()
        .filter(|a| a.spread.is_none())
        .map(|a| &*a.expr)
}

/// The path `new URL(path, import.meta.url)` (or `__filename` as the base) names, relative
/// to the module's own directory.
pub(crate) fn module_url_of(expr: &Expr) -> Option<String> {
    let Expr::New(new) = unwrap(expr) else {
        return None;
    };
    if dotted(&new.callee) != "URL" {
        return None;
    }
    let args = new.args.as_ref()?;
    let anchored_base = match args.get(1).map(|a| unwrap(&a.expr)) {
        Some(Expr::Member(m)) => dotted_member(m) == "import.meta.url",
        Some(Expr::Ident(i)) => i.sym == *"__filename",
        _ => false,
    };
    if anchored_base {
        string(&args.first()?.expr)
    } else {
        None
    }
}

fn join_parts(parts: &[String]) -> String {
    let mut out = String::new();
    for part in parts {
        if part.starts_with('/') || part.starts_with(RESOURCES) {
            out = part.clone();
        } else if out.is_empty() || out.ends_with('/') {
            out.push_str(part);
        } else {
            out.push('/');
            out.push_str(part);
        }
    }
    out
}

/// Largest source span of an optional call's arguments copied to read it as a plain call.
const MAX_OPT_CALL_ARGS: u32 = 4096;

/// An optional call (`win?.webContents.send("ch", x)`, `ipcMain?.handle?.(ch, f)`) as the
/// plain call it is when it runs, so that both walks read it like any call. Its callee and
/// arguments are copied, so only calls whose arguments span at most
/// [`MAX_OPT_CALL_ARGS`] bytes of source are; the walks visit larger ones' children as
/// they are.
pub(crate) fn opt_call_as_call(call: &swc_ecma_ast::OptCall) -> Option<swc_ecma_ast::CallExpr> {
    let args = match (call.args.first(), call.args.last()) {
        (Some(first), Some(last)) => last.expr.span().hi.0.saturating_sub(first.expr.span().lo.0),
        _ => 0,
    };
    (args <= MAX_OPT_CALL_ARGS).then(|| swc_ecma_ast::CallExpr {
        span: call.span,
        ctxt: call.ctxt,
        callee: Callee::Expr(call.callee.clone()),
        args: call.args.clone(),
        type_args: None,
    })
}

/// The names a binding pattern binds (`a`, `{ b, c: d }`, `[e, ...f]`, defaults included),
/// followed [`MAX_PATTERN_DEPTH`] deep.
pub(crate) fn pattern_names<'p>(pat: &'p Pat, out: &mut Vec<&'p Ident>) {
    pattern_names_at(pat, out, 0);
}

/// The names a destructuring assignment's target assigns (`[a, b] = pair`).
pub(crate) fn target_names<'p>(target: &'p AssignTargetPat, out: &mut Vec<&'p Ident>) {
    match target {
        AssignTargetPat::Array(array) => array_names(array, out, 0),
        AssignTargetPat::Object(object) => object_names(object, out, 0),
        AssignTargetPat::Invalid(_) => {}
    }
}

fn pattern_names_at<'p>(pat: &'p Pat, out: &mut Vec<&'p Ident>, depth: usize) {
    if depth > MAX_PATTERN_DEPTH {
        return;
    }
    match pat {
        Pat::Ident(ident) => out.push(&ident.id),
        Pat::Assign(assign) => pattern_names_at(&assign.left, out, depth + 1),
        Pat::Rest(rest) => pattern_names_at(&rest.arg, out, depth + 1),
        Pat::Array(array) => array_names(array, out, depth + 1),
        Pat::Object(object) => object_names(object, out, depth + 1),
        Pat::Expr(_) | Pat::Invalid(_) => {}
    }
}

fn array_names<'p>(array: &'p ArrayPat, out: &mut Vec<&'p Ident>, depth: usize) {
    for elem in array.elems.iter().flatten() {
        pattern_names_at(elem, out, depth);
    }
}

fn object_names<'p>(object: &'p ObjectPat, out: &mut Vec<&'p Ident>, depth: usize) {
    for prop in &object.props {
        match prop {
            ObjectPatProp::KeyValue(kv) => pattern_names_at(&kv.value, out, depth),
            ObjectPatProp::Assign(assign) => out.push(&assign.key.id),
            ObjectPatProp::Rest(rest) => pattern_names_at(&rest.arg, out, depth),
        }
    }
}

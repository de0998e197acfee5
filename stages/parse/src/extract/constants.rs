//! Strings a file binds to names once, read so that an IPC channel written as a name
//! (`ipcMain.handle(GET, …)`, `ipcRenderer.invoke(Channels.settings.GET)`) is known as the
//! string it stands for. Nothing is evaluated: a value is a string literal (or a template
//! without expressions), an object literal of such values (through `Object.freeze`), or the
//! members a TypeScript `enum` compiles to.
//!
//! A name counts when a `const` declaration binds it, when a `var`/`let` declaration does
//! and the file never assigns the name again (minifiers and esbuild rewrite `const` as `var`
//! or `let`), or when the file assigns a name once (minifiers declare names first, then
//! assign them in one sequence); an `enum` is the one object built by assignments, as TypeScript and esbuild
//! write it: `(function (E) { E["Open"] = "link:open"; })(E || (E = {}))` and
//! `var E = ((E) => { E["Open"] = "link:open"; return E; })(E || {})`. Numeric members are not
//! strings and are left out.

use swc_ecma_ast::{
    ArrowFunctionBody, AssignExpr, AssignOp, AssignTarget, BinaryOp, CallExpr, Expr, MemberExpr,
    MemberProp, Pat, Prop, PropOrSpread, SimpleAssignTarget, Stmt,
};

use super::names::{self, dotted, string, unwrap};

/// Most members read off one object, nested ones included.
pub(super) const MAX_MEMBERS: usize = 512;
/// Deepest concatenation folded, and the longest string it may make.
const MAX_FOLD_DEPTH: usize = 16;
const MAX_FOLD_BYTES: usize = 4096;
/// Deepest object nesting read.
const MAX_DEPTH: usize = 4;

pub(crate) use crate::facts::Constant;

/// A binding: its value, and how it holds.
#[derive(Debug, Clone)]
pub(super) struct Bound {
    pub(super) value: Constant,
    pub(super) how: Binding,
}

/// How a name came by its value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Binding {
    /// A `const` declaration, or an `enum`: it holds.
    Fixed,
    /// A `var`/`let` declaration: it holds while the file assigns the name nowhere.
    Declared,
    /// An assignment to a name declared without a value (`var r, n; …, r = Object.freeze({…})`,
    /// as minifiers write declarations): it holds while that is the one assignment.
    Assigned,
}

impl Binding {
    /// Whether a binding made this way holds in a file that assigns its name `assignments`
    /// times.
    pub(super) fn holds(self, assignments: u32) -> bool {
        match self {
            Binding::Fixed => true,
            Binding::Declared => assignments == 0,
            Binding::Assigned => assignments == 1,
        }
    }
}

/// Whether `expr` is `undefined` (`void 0`, `undefined`), or assigns it
/// (`exports.B = void 0`).
pub(super) fn undefined(expr: &Expr) -> bool {
    match unwrap(expr) {
        Expr::Unary(unary) => unary.op == swc_ecma_ast::UnaryOp::Void,
        Expr::Ident(ident) => &*ident.sym == "undefined",
        Expr::Assign(assign) => assign.op == AssignOp::Assign && undefined(&assign.right),
        _ => false,
    }
}

/// The constant `expr` is, if any.
pub(super) fn constant(expr: &Expr) -> Option<Constant> {
    let mut budget = MAX_MEMBERS;
    read(expr, &mut budget, 0)
}

fn read(expr: &Expr, budget: &mut usize, depth: usize) -> Option<Constant> {
    match unwrap(expr) {
        Expr::Lit(_) | Expr::Tpl(_) => string(expr).map(Constant::Str),
        // `var a = exports.a = "x"`, as Babel and TypeScript compile `export const a = "x"`:
        // an assignment's value is what it assigns.
        Expr::Assign(assign) if assign.op == AssignOp::Assign && depth < MAX_DEPTH => {
            read(&assign.right, budget, depth + 1)
        }
        Expr::Object(object) if depth < MAX_DEPTH => {
            let mut members = Vec::new();
            for prop in &object.props {
                if *budget == 0 {
                    break;
                }
                let PropOrSpread::Prop(prop) = prop else {
                    continue;
                };
                let Prop::KeyValue(kv) = &**prop else {
                    continue;
                };
                let Some(key) = names::prop_name(&kv.key) else {
                    continue;
                };
                *budget -= 1;
                if let Some(value) = read(&kv.value, budget, depth + 1) {
                    members.push((key, value));
                }
            }
            Some(Constant::Object(members))
        }
        // `Object.freeze({…})`, as channel tables are often written.
        Expr::Call(call) if depth < MAX_DEPTH => {
            let [arg] = call.args.as_slice() else {
                return None;
            };
            let callee = call.callee.as_expr()?;
            (arg.spread.is_none() && dotted(callee) == "Object.freeze")
                .then(|| read(&arg.expr, budget, depth + 1))
                .flatten()
        }
        _ => None,
    }
}

/// A TypeScript `enum` as written in a TypeScript file (`enum E { Open = "link:open" }`, also
/// `const enum`): its string members.
pub(super) fn enum_decl(decl: &swc_ecma_ast::TsEnumDecl) -> Constant {
    let members = decl
        .members
        .iter()
        .take(MAX_MEMBERS)
        .filter_map(|member| {
            let key = match &member.id {
                swc_ecma_ast::TsEnumMemberId::Ident(ident) => ident.sym.to_string(),
                swc_ecma_ast::TsEnumMemberId::Str(s) => s.value.to_string_lossy().into_owned(),
            };
            Some((key, Constant::Str(string(member.init.as_deref()?)?)))
        })
        .collect();
    Constant::Object(members)
}

/// A TypeScript `enum` as compiled: an immediately called function of one parameter that
/// assigns string members to it, as statements or, minified, as one sequence
/// (`function (e) { e.Open = "link:open", e[e.Count = 3] = "Count" }`). Returns the name its
/// argument names (`E` of `E || (E = {})`), if any, and the members.
pub(super) fn enum_call(call: &CallExpr) -> Option<(Option<&str>, Constant)> {
    let [arg] = call.args.as_slice() else {
        return None;
    };
    // `E || (E = {})`, `E || {}`: checked first, as it is the cheapest. Rolldown calls the
    // function with a new `{}` and binds what it returns: `let E = function(E$1) { E$1["A"] =
    // "a"; return E$1; }({})`, which must then return its parameter.
    let (target, returned) = match unwrap(&arg.expr) {
        Expr::Bin(bin) if bin.op == BinaryOp::LogicalOr => match unwrap(&bin.left) {
            Expr::Ident(ident) => (Some(&*ident.sym), false),
            _ => (None, false),
        },
        Expr::Object(object) if object.props.is_empty() => (None, true),
        _ => return None,
    };
    let callee = unwrap(call.callee.as_expr()?);
    let (param, stmts, body): (&Pat, &[Stmt], Option<&Expr>) = match callee {
        Expr::Fn(f) => (
            &f.function.params.first()?.pat,
            &f.function.body.as_ref()?.stmts,
            None,
        ),
        Expr::Arrow(arrow) => match &*arrow.body {
            ArrowFunctionBody::FunctionBody(body) => (arrow.params.first()?, &body.stmts, None),
            ArrowFunctionBody::Expr(e) => (arrow.params.first()?, &[][..], Some(&**e)),
        },
        _ => return None,
    };
    let Pat::Ident(param) = param else {
        return None;
    };
    if returned
        && !stmts.iter().any(|stmt| {
            matches!(stmt, Stmt::Return(ret) if ret.arg.as_deref().map(unwrap)
                .is_some_and(|e| matches!(e, Expr::Ident(i) if i.sym == param.id.sym)))
        })
    {
        return None;
    }
    let exprs = stmts
        .iter()
        .filter_map(|stmt| match stmt {
            Stmt::Expr(stmt) => Some(&*stmt.expr),
            _ => None,
        })
        .chain(body)
        .flat_map(|expr| match unwrap(expr) {
            Expr::Seq(seq) => seq.exprs.iter().map(|e| &**e).collect::<Vec<_>>(),
            other => vec![other],
        });
    let mut members = Vec::new();
    for expr in exprs.take(MAX_MEMBERS) {
        let Expr::Assign(assign) = unwrap(expr) else {
            continue;
        };
        if assign.op != AssignOp::Assign {
            continue;
        }
        let AssignTarget::Simple(SimpleAssignTarget::Member(member)) = &assign.left else {
            continue;
        };
        let Expr::Ident(object) = unwrap(&member.obj) else {
            continue;
        };
        if object.sym != param.id.sym {
            continue;
        }
        let key = match &member.prop {
            swc_ecma_ast::MemberProp::Ident(ident) => Some(ident.sym.to_string()),
            swc_ecma_ast::MemberProp::Computed(computed) => string(&computed.expr),
            swc_ecma_ast::MemberProp::PrivateName(_) => None,
        };
        if let (Some(key), Some(value)) = (key, string(&assign.right)) {
            members.push((key, Constant::Str(value)));
        }
    }
    (!members.is_empty()).then_some((target, Constant::Object(members)))
}

/// A member of a TypeScript `enum` as swc's minifier inlines its function:
/// `(n = e || (e = {})).Open = "link:open"`, the enum `e` gaining `Open`.
pub(super) struct InlineEnumMember<'a> {
    /// The enum's name.
    pub(super) target: &'a str,
    pub(super) key: String,
    pub(super) value: String,
    /// What the enum is also assigned to, `exports.E` of `e || (exports.E = e = {})`.
    pub(super) export: Option<&'a MemberExpr>,
}

/// The enum member `assign` adds, if it is one (see [`InlineEnumMember`]).
pub(super) fn inline_enum_member(assign: &AssignExpr) -> Option<InlineEnumMember<'_>> {
    if assign.op != AssignOp::Assign {
        return None;
    }
    let AssignTarget::Simple(SimpleAssignTarget::Member(member)) = &assign.left else {
        return None;
    };
    let Expr::Assign(alias) = unwrap(&member.obj) else {
        return None;
    };
    let Expr::Bin(bin) = unwrap(&alias.right) else {
        return None;
    };
    if bin.op != BinaryOp::LogicalOr {
        return None;
    }
    let Expr::Ident(target) = unwrap(&bin.left) else {
        return None;
    };
    let key = match &member.prop {
        MemberProp::Ident(ident) => ident.sym.to_string(),
        MemberProp::Computed(computed) => string(&computed.expr)?,
        MemberProp::PrivateName(_) => return None,
    };
    let value = string(&assign.right)?;
    let export = match unwrap(&bin.right) {
        Expr::Assign(outer) => match &outer.left {
            AssignTarget::Simple(SimpleAssignTarget::Member(m)) => Some(m),
            _ => None,
        },
        _ => None,
    };
    Some(InlineEnumMember {
        target: &target.sym,
        key,
        value,
        export,
    })
}

/// The name a compiled enum is exported as: `(function (E) {…})(E || (exports.E = E = {}))`,
/// `is_exports` telling which objects are the module's exports (`exports`, or a bundle
/// factory's parameter for them).
pub(super) fn enum_export(call: &CallExpr, is_exports: impl Fn(&str) -> bool) -> Option<String> {
    let Expr::Bin(bin) = unwrap(&call.args.first()?.expr) else {
        return None;
    };
    let Expr::Assign(assign) = unwrap(&bin.right) else {
        return None;
    };
    let AssignTarget::Simple(SimpleAssignTarget::Member(member)) = &assign.left else {
        return None;
    };
    let MemberProp::Ident(name) = &member.prop else {
        return None;
    };
    is_exports(&dotted(&member.obj)).then(|| name.sym.to_string())
}

/// Whether `name` is a CommonJS module's exports object.
pub(super) fn commonjs_exports(name: &str) -> bool {
    name == "exports" || name == "module.exports"
}

/// The export an assignment to `member` makes, if it is one of a CommonJS module's exports
/// or one member of them: `X` of `exports.X` or `module.exports.X`, and the empty path of
/// `module.exports` itself. A module factory names its exports and module parameters as it
/// likes (`t.X`, `e.exports`): `names` gives them, `exports` and `module` by default.
pub(super) fn commonjs_export_path(
    member: &MemberExpr,
    names: (Option<&str>, Option<&str>),
) -> Option<String> {
    let name = names::dotted_member(member);
    let exports = names.0.unwrap_or("exports");
    let module = names.1.unwrap_or("module");
    let below = |prefix: &str| name.strip_prefix(prefix)?.strip_prefix('.');
    let module_exports = below(module).filter(|rest| rest.starts_with("exports"));
    if module_exports == Some("exports") {
        return Some(String::new());
    }
    let export = module_exports
        .and_then(|rest| rest.strip_prefix("exports."))
        .or_else(|| below(exports))?;
    (!export.is_empty() && !export.contains('.')).then(|| export.to_owned())
}

/// Whether `member` may be a member of a CommonJS module's exports (`exports.X`,
/// `module.exports`, `module.exports.X`): a cheap look at the name it starts from.
pub(super) fn on_commonjs_exports(member: &MemberExpr) -> bool {
    let root = match unwrap(&member.obj) {
        Expr::Ident(ident) => &ident.sym,
        Expr::Member(inner) => match unwrap(&inner.obj) {
            Expr::Ident(ident) => &ident.sym,
            _ => return false,
        },
        _ => return false,
    };
    *root == *"exports" || *root == *"module"
}

/// What an assignment to `member` exports when the value is a constant: `exports.X = "x"`,
/// `module.exports.X = {…}`, or each member of `module.exports = {…}`, `is_exports` telling
/// which objects are the module's exports (see [`enum_export`]).
pub(super) fn exported_by(
    member: &MemberExpr,
    value: &Expr,
    is_exports: impl Fn(&str) -> bool,
    out: &mut Vec<(String, Constant)>,
) {
    if is_exports(&dotted(&member.obj)) {
        // An empty object holds no string; it is what `E || (exports.E = {})` starts a
        // compiled enum from, whose members the enum itself exports.
        if let MemberProp::Ident(prop) = &member.prop
            && let Some(value) = constant(value)
            && !matches!(&value, Constant::Object(members) if members.is_empty())
        {
            out.push((prop.sym.to_string(), value));
        }
    } else if is_exports(&names::dotted_member(member))
        && let Some(Constant::Object(members)) = constant(value)
    {
        out.extend(members);
    }
}

/// Most items an array whose items are names may have to be kept as a constant.
pub(super) const MAX_LISTED: usize = 256;

/// An array whose every item is a string, a literal or one `item` reads (a name bound to
/// one, an enum's member, a member of the module's own exports): the object of its indexes,
/// as JavaScript keeps an array, so that a loop over an imported list of
/// channels reads its strings (electron-fiddle's `ipcMainEvents.forEach((name) =>
/// ipcMain.on(name, …))`). At most [`MAX_LISTED`] items.
pub(super) fn list(expr: &Expr, item: &mut dyn FnMut(&Expr) -> Option<String>) -> Option<Constant> {
    let Expr::Array(array) = unwrap(expr) else {
        return None;
    };
    if array.elems.is_empty() || array.elems.len() > MAX_LISTED {
        return None;
    }
    let mut members = Vec::with_capacity(array.elems.len());
    for (i, element) in array.elems.iter().enumerate() {
        let element = &element.as_ref().filter(|e| e.spread.is_none())?.expr;
        let value = string(element).or_else(|| item(element))?;
        members.push((i.to_string(), Constant::Str(value)));
    }
    Some(Constant::Object(members))
}

/// The string a name or a member path of one stands for, `lookup` giving the binding of
/// the first name. `None` when any part is not static or not bound to a string.
pub(super) fn string_of<'b>(
    expr: &Expr,
    lookup: impl FnOnce(&str) -> Option<&'b Bound>,
    assignments: impl FnOnce(&str) -> u32,
) -> Option<String> {
    if !matches!(unwrap(expr), Expr::Ident(_) | Expr::Member(_)) {
        return None;
    }
    let name = dotted(expr);
    let mut parts = name.split('.');
    let root = parts.next().filter(|r| !r.is_empty())?;
    let path: Vec<&str> = parts.collect();
    if path.iter().any(|p| p.is_empty()) {
        return None;
    }
    let bound = lookup(root)?;
    if !bound.how.holds(assignments(root)) {
        return None;
    }
    bound.value.at(&path).map(str::to_owned)
}

/// Whether `expr` is a concatenation or a template literal with expressions: what [`fold`]
/// reads.
pub(super) fn foldable(expr: &Expr) -> bool {
    match unwrap(expr) {
        Expr::Bin(bin) => bin.op == BinaryOp::Add,
        Expr::Tpl(tpl) => !tpl.exprs.is_empty(),
        _ => false,
    }
}

/// The string a concatenation (`PREFIX + ":get"`) or a template literal
/// (`` `${PREFIX}:get` ``) makes when every part is a string: a literal, or a name `part`
/// reads as one. Numbers are not read (`+` of two numbers adds them), and nothing else is.
pub(super) fn fold(expr: &Expr, part: &mut dyn FnMut(&Expr) -> Option<String>) -> Option<String> {
    let folded = fold_in(expr, part, 0)?;
    (folded.len() <= MAX_FOLD_BYTES).then_some(folded)
}

fn fold_in(
    expr: &Expr,
    part: &mut dyn FnMut(&Expr) -> Option<String>,
    depth: usize,
) -> Option<String> {
    if depth > MAX_FOLD_DEPTH {
        return None;
    }
    match unwrap(expr) {
        Expr::Bin(bin) if bin.op == BinaryOp::Add => {
            let mut left = fold_in(&bin.left, part, depth + 1)?;
            left.push_str(&fold_in(&bin.right, part, depth + 1)?);
            (left.len() <= MAX_FOLD_BYTES).then_some(left)
        }
        Expr::Tpl(tpl) if !tpl.exprs.is_empty() => {
            let mut out = String::new();
            for (i, quasi) in tpl.quasis.iter().enumerate() {
                out.push_str(&quasi.cooked.as_ref()?.to_string_lossy());
                if let Some(inner) = tpl.exprs.get(i) {
                    out.push_str(&fold_in(inner, part, depth + 1)?);
                }
                if out.len() > MAX_FOLD_BYTES {
                    return None;
                }
            }
            Some(out)
        }
        // `part` reads names; anything else folds no further.
        other @ (Expr::Ident(_) | Expr::Member(_)) => string(other).or_else(|| part(other)),
        other => string(other),
    }
}

//! AMD modules: `define(id?, dependencies?, factory)`, as RequireJS's optimizer (r.js),
//! TypeScript's `--outFile`, and the bundlers of VS Code and Monaco write them.
//!
//! A named define is a module factory whose key is its id. VS Code's bundler writes ids and
//! dependencies as indexes into one array of strings (`define(__m[12], __M([1, 0, 7]), …)`
//! after `var __m = ["exports", "require", …]`): the pre-pass keeps such arrays by name
//! ([`AmdNames`]) and an index reads the id through the table the define's id names. A name
//! bound to the global `define` (`const globalDefine = globalThis.define`, as Monaco keeps it
//! before installing a shim) defines too.
//! An anonymous define (one module per file, and every UMD wrapper) declares dependencies
//! only; the walk records them as references.

use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};

use swc_common::{Span, Spanned};
use swc_ecma_ast::{ArrayLit, CallExpr, Callee, Expr, Lit, MemberProp, Pat};

use super::names::{dotted, param_name, string, unwrap};

/// Most strings kept from one array by the pre-pass.
const MAX_TABLE_STRINGS: usize = 1 << 20;

/// What the pre-pass keeps for defines: arrays of string literals bound to a name, as read by
/// index (`None` where one name binds two different arrays in the file), and names bound to
/// the global `define`.
#[derive(Default)]
pub(super) struct AmdNames {
    by_name: HashMap<String, (u32, Option<Vec<String>>)>,
    defines: HashSet<String>,
    /// The file declares a function of its own named `define` (`const define = (…) => …`,
    /// `function define(…)`), as core-js's polyfill tables and regenerator do: a bare
    /// `define(…)` then calls that helper, not the loader's global. A loader's own `define`
    /// is assigned (`define = function (name, deps, callback)`, as almond and RequireJS write
    /// it) or required (`var define = require("amdefine")(module)`), and stays AMD.
    local_define: bool,
}

/// How the global `define` is reached.
const GLOBAL_DEFINES: &[&str] = &[
    "define",
    "globalThis.define",
    "window.define",
    "self.define",
    "global.define",
];

impl AmdNames {
    /// Keeps `name` as a name of `define` when `init` is the global `define`.
    pub(super) fn bind_define(&mut self, name: &str, init: &Expr) {
        if matches!(unwrap(init), Expr::Ident(_) | Expr::Member(_))
            && GLOBAL_DEFINES.contains(&dotted(init).as_str())
        {
            self.defines.insert(name.to_owned());
        }
    }

    /// Notes a function declared under the name `define`; see [`AmdNames::local_define`].
    pub(super) fn declare_function(&mut self, name: &str) {
        if name == "define" {
            self.local_define = true;
        }
    }

    /// Keeps `array` as `name`'s table when every element is a string literal.
    pub(super) fn bind_array(&mut self, name: &str, array: &ArrayLit) {
        if array.elems.len() < 2 || array.elems.len() > MAX_TABLE_STRINGS {
            return;
        }
        let lo = array.span.lo.0;
        if let Some((at, _)) = self.by_name.get(name)
            && *at == lo
        {
            return;
        }
        let strings: Option<Vec<String>> = array
            .elems
            .iter()
            .map(|e| match e {
                Some(e) if e.spread.is_none() => match &*e.expr {
                    Expr::Lit(Lit::Str(s)) => Some(s.value.to_string_lossy().into_owned()),
                    _ => None,
                },
                _ => None,
            })
            .collect();
        let Some(strings) = strings else { return };
        match self.by_name.get_mut(name) {
            Some(slot) => slot.1 = None,
            None => {
                self.by_name.insert(name.to_owned(), (lo, Some(strings)));
            }
        }
    }

    fn get(&self, name: &str) -> Option<&[String]> {
        self.by_name.get(name)?.1.as_deref()
    }
}

/// One `define(…)` call, read.
pub(super) struct Define<'a> {
    /// The id of a named define.
    pub id: Option<String>,
    /// The dependency list by position, each entry the id as written (or read through the
    /// table) with where it is written; `None` for an entry that is not a literal. `None` for
    /// the whole list when the call has none.
    pub deps: Option<Vec<Option<(String, Span)>>>,
    /// The factory function, or the module's value.
    pub value: &'a Expr,
}

impl Define<'_> {
    /// The factory's parameter bound to the special dependency `name` (`require`, `exports`
    /// or `module`). Without a dependency list a factory takes those three in that order.
    pub fn param_for(&self, name: &str) -> Option<String> {
        let params: Vec<&Pat> = match unwrap(self.value) {
            Expr::Fn(f) => f.function.params.iter().map(|p| &p.pat).collect(),
            Expr::Arrow(a) => a.params.iter().collect(),
            _ => return None,
        };
        let at = match &self.deps {
            Some(deps) => deps
                .iter()
                .position(|d| d.as_ref().is_some_and(|(d, _)| d == name))?,
            None => ["require", "exports", "module"]
                .iter()
                .position(|d| *d == name)?,
        };
        param_name(params.get(at).copied())
    }
}

/// Whether `id` names one of the loader's own modules rather than a module of the app.
pub(super) fn is_special(id: &str) -> bool {
    matches!(id, "require" | "exports" | "module")
}

/// Reads a call to the global `define`; `None` when it is not one of the AMD shapes.
pub(super) fn define_call<'a>(call: &'a CallExpr, tables: &AmdNames) -> Option<Define<'a>> {
    let Callee::Expr(callee) = &call.callee else {
        return None;
    };
    let defines = match unwrap(callee) {
        Expr::Ident(i) => {
            (&*i.sym == "define" && !tables.local_define) || tables.defines.contains(&*i.sym)
        }
        Expr::Member(_) => GLOBAL_DEFINES[1..].contains(&dotted(callee).as_str()),
        _ => false,
    };
    if !defines {
        return None;
    }
    if call.args.iter().any(|a| a.spread.is_some()) {
        return None;
    }
    let args: Vec<&Expr> = call.args.iter().map(|a| &*a.expr).collect();
    let (id, deps, value) = match args.as_slice() {
        [value] => (None, None, *value),
        [first, value] if matches!(unwrap(first), Expr::Array(_)) => (None, Some(*first), *value),
        [id, value] => (Some(*id), None, *value),
        [id, deps, value] => (Some(*id), Some(*deps), *value),
        _ => return None,
    };
    // An anonymous define's only argument is its factory or an object: regenerator's
    // `define(obj, key, value)` and the like are not AMD.
    if id.is_none()
        && deps.is_none()
        && !matches!(
            unwrap(value),
            Expr::Fn(_) | Expr::Arrow(_) | Expr::Object(_)
        )
    {
        return None;
    }
    let (id, table) = match id {
        None => (None, None),
        Some(expr) => {
            let (id, table) = read_id(expr, tables)?;
            (Some(id), table)
        }
    };
    let deps = match deps {
        None => None,
        Some(expr) => Some(read_deps(expr, table)?),
    };
    Some(Define { id, deps, value })
}

/// A define's id: a string, or an index into a table of strings (and that table).
fn read_id<'t>(expr: &Expr, tables: &'t AmdNames) -> Option<(String, Option<&'t [String]>)> {
    if let Some(id) = string(expr) {
        return Some((id, None));
    }
    let Expr::Member(member) = unwrap(expr) else {
        return None;
    };
    let Expr::Ident(name) = unwrap(&member.obj) else {
        return None;
    };
    let MemberProp::Computed(index) = &member.prop else {
        return None;
    };
    let table = tables.get(&name.sym)?;
    let id = table.get(index_of(&index.expr)?)?.clone();
    Some((id, Some(table)))
}

fn index_of(expr: &Expr) -> Option<usize> {
    match unwrap(expr) {
        Expr::Lit(Lit::Num(n)) if n.value >= 0.0 && n.value.fract() == 0.0 && n.value < 1e9 => {
            Some(n.value as usize)
        }
        _ => None,
    }
}

/// A dependency list: an array of strings, or, beside an id read through a table, a call
/// mapping an array of indexes through it (`__M([1, 0, 7])`).
fn read_deps(expr: &Expr, table: Option<&[String]>) -> Option<Vec<Option<(String, Span)>>> {
    match unwrap(expr) {
        Expr::Array(array) => Some(
            array
                .elems
                .iter()
                .map(|e| {
                    let e = e.as_ref().filter(|e| e.spread.is_none())?;
                    Some((string(&e.expr)?, e.expr.span()))
                })
                .collect(),
        ),
        Expr::Call(call) => {
            let table = table?;
            let [arg] = call.args.as_slice() else {
                return None;
            };
            let Expr::Array(indexes) = unwrap(&arg.expr) else {
                return None;
            };
            Some(
                indexes
                    .elems
                    .iter()
                    .map(|e| {
                        let e = e.as_ref().filter(|e| e.spread.is_none())?;
                        let id = table.get(index_of(&e.expr)?)?;
                        Some((id.clone(), e.expr.span()))
                    })
                    .collect(),
            )
        }
        _ => None,
    }
}

/// `dep` as the loader names it from the module `from`: a relative id (`./x`, `../x`) is
/// resolved against `from`'s directory; a plugin id (`css!./x`) has both parts resolved.
pub(super) fn normalize(from: &str, dep: &str) -> String {
    if let Some((plugin, resource)) = dep.split_once('!') {
        return format!("{}!{}", normalize(from, plugin), normalize(from, resource));
    }
    if !(dep.starts_with("./") || dep.starts_with("../")) {
        return dep.to_owned();
    }
    let mut parts: Vec<&str> = from.split('/').collect();
    parts.pop();
    for segment in dep.split('/') {
        match segment {
            "." | "" => {}
            ".." => {
                if parts.is_empty() || parts.last() == Some(&"..") {
                    parts.push("..");
                } else {
                    parts.pop();
                }
            }
            other => parts.push(other),
        }
    }
    parts.join("/")
}

#[cfg(test)]
mod tests {
    use super::normalize;

    #[test]
    fn relative_ids_resolve_against_the_module_directory() {
        assert_eq!(normalize("app/main", "./util"), "app/util");
        assert_eq!(normalize("app/sub/x", "../lib/y"), "app/lib/y");
        assert_eq!(normalize("main", "./a"), "a");
        assert_eq!(normalize("main", "../a"), "../a");
        assert_eq!(normalize("app/main", "lib/y"), "lib/y");
        assert_eq!(normalize("app/main", "css!./style"), "css!app/style");
        assert_eq!(normalize("app/main", "./a/./b"), "app/a/b");
    }
}

//! Modules a file loads over a glob's listing, as applications load a folder of modules
//! whose names only the listing knows (`glob.sync(path.join(__dirname, "main-process/**/*.js"))
//! .forEach((file) => require(file))`, as electron-api-demos loads its demos). The pattern's
//! static part, up to its first segment with a wildcard, is the directory the required module
//! lies in (`Reference::directory`): the graph counts the scripts below it as loaded.
//!
//! The listing is a glob call written in place or a name bound to one; its items are the
//! first parameter of a `forEach` or `map` callback over it, or a `for … of` variable.

use swc_ecma_ast::{CallExpr, Expr, ForOfStmt, Pat};

use super::Extractor;
use super::names::{static_path, unwrap};

/// What a name stands for.
#[derive(Debug, Clone)]
pub(super) enum Listed {
    /// The listing of a glob whose matches lie in this directory (relative to the file's own,
    /// `./x` or `.`).
    Listing(String),
    /// One file of such a listing.
    Item(String),
}

/// Whether `callee` names a synchronous glob of a common package: `glob.sync`, `globSync`
/// (glob 9 and later), fast-glob's `fg.sync`, `globby.sync` and `globbySync`.
fn is_glob(callee: &str) -> bool {
    let lower = callee.to_ascii_lowercase();
    let last = lower.rsplit('.').next().unwrap_or("");
    match lower.rsplit_once('.') {
        Some((object, "sync")) => {
            let object = object.rsplit('.').next().unwrap_or("");
            object.contains("glob") || object == "fg"
        }
        _ => matches!(last, "globsync" | "globbysync"),
    }
}

/// The directory a pattern's matches lie in: its static part before the first segment with a
/// wildcard, when it is anchored at the file's own directory.
fn pattern_dir(pattern: &str) -> Option<String> {
    let specifier = if pattern.starts_with("../") {
        pattern.to_owned()
    } else {
        format!("./{pattern}")
    };
    let segments: Vec<&str> = specifier.split('/').collect();
    let wild = segments
        .iter()
        .position(|s| s.contains(['*', '?', '[', '{', '!', '(']))?;
    let dir = segments[..wild].join("/");
    Some(if dir.is_empty() { ".".to_owned() } else { dir })
}

impl Extractor<'_, '_> {
    /// The directory of the glob listing `expr` is: a glob call, or a name bound to one.
    fn listing_dir(&self, expr: &Expr) -> Option<String> {
        match unwrap(expr) {
            Expr::Call(call) => {
                // Most declarations are initialised by calls: a look at the callee's last name
                // before it is resolved.
                let last = match unwrap(call.callee.as_expr()?) {
                    Expr::Member(member) => member.prop.as_ident()?.sym.clone(),
                    Expr::Ident(ident) => ident.sym.clone(),
                    _ => return None,
                };
                if !last.ends_with("ync") {
                    return None;
                }
                let callee = self.callee(&call.callee);
                if !is_glob(&callee) {
                    return None;
                }
                let path = static_path(&call.args.first()?.expr, self)?;
                if path.context != "filesystem-expression" || path.path.starts_with('/') {
                    return None;
                }
                pattern_dir(&path.path)
            }
            Expr::Ident(ident) => match self.listed.resolve(&ident.sym, &self.scopes)? {
                Listed::Listing(dir) => Some(dir.clone()),
                Listed::Item(_) => None,
            },
            _ => None,
        }
    }

    /// `const files = glob.sync(…)`.
    pub(super) fn listing_binding(&mut self, name: &str, init: &Expr) {
        let scope = self.scopes.current();
        match self.listing_dir(init) {
            Some(dir) => self.listed.set(name, scope, Listed::Listing(dir)),
            None => self.listed.shadow(name, scope),
        }
    }

    /// `files.forEach((file) => …)` or `.map(…)` over a listing: the callback's first
    /// parameter, bound in its own scope, is one of its files; `files.forEach(require)`
    /// requires each.
    pub(super) fn listing_callback(&mut self, call: &CallExpr) {
        let Some(Expr::Member(member)) = call.callee.as_expr().map(|c| unwrap(c)) else {
            return;
        };
        if !(member.prop.is_ident_with("forEach") || member.prop.is_ident_with("map")) {
            return;
        }
        let (scope, first) = match call.args.first().map(|a| unwrap(&a.expr)) {
            // `files.forEach(require)`: each file is required.
            Some(Expr::Ident(callback)) if callback.sym == *"require" => {
                if let Some(dir) = self.listing_dir(&member.obj) {
                    self.listed_require(callback, dir, call.span);
                }
                return;
            }
            Some(Expr::Arrow(arrow)) => (arrow.span.lo.0, arrow.params.first()),
            Some(Expr::Fn(f)) => (
                f.function.span.lo.0,
                f.function.params.first().map(|p| &p.pat),
            ),
            _ => return,
        };
        if let Some(Pat::Ident(item)) = first
            && let Some(dir) = self.listing_dir(&member.obj)
        {
            self.listed.set(&item.id.sym, scope, Listed::Item(dir));
        }
    }

    /// `for (const file of files)` over a listing.
    pub(super) fn listing_loop(&mut self, stmt: &ForOfStmt) {
        if let swc_ecma_ast::ForHead::VarDecl(var) = &stmt.left
            && let [decl] = var.decls.as_slice()
            && let Pat::Ident(item) = &decl.name
            && let Some(dir) = self.listing_dir(&stmt.right)
        {
            let scope = self.scopes.current();
            self.listed.set(&item.id.sym, scope, Listed::Item(dir));
        }
    }

    /// A require of each file of a listing in `dir`, by `require` passed as the callback.
    fn listed_require(
        &mut self,
        callback: &swc_ecma_ast::Ident,
        dir: String,
        span: swc_common::Span,
    ) {
        let count = self.facts.references.len();
        self.reference_to("require", None, Some(callback.sym.to_string()), span);
        if self.facts.references.len() > count
            && let Some(reference) = self.facts.references.last_mut()
        {
            reference.directory = Some(dir);
        }
    }

    /// The directory a required path lies in when it is one file of a glob's listing.
    pub(super) fn listed_item_dir(&self, expr: &Expr) -> Option<String> {
        match unwrap(expr) {
            Expr::Ident(ident) => match self.listed.resolve(&ident.sym, &self.scopes)? {
                Listed::Item(dir) => Some(dir.clone()),
                Listed::Listing(_) => None,
            },
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn glob_callees_and_pattern_directories() {
        for callee in [
            "glob.sync",
            "globSync",
            "fg.sync",
            "fastGlob.sync",
            "globby.sync",
            "globbySync",
            "x.glob.sync",
        ] {
            assert!(is_glob(callee), "{callee}");
        }
        for callee in ["sync", "fs.readdirSync", "glob", "cache.sync"] {
            assert!(!is_glob(callee), "{callee}");
        }
        assert_eq!(
            pattern_dir("main-process/**/*.js").as_deref(),
            Some("./main-process")
        );
        assert_eq!(pattern_dir("*.js").as_deref(), Some("."));
        assert_eq!(
            pattern_dir("../plugins/*/index.js").as_deref(),
            Some("../plugins")
        );
        assert_eq!(pattern_dir("a/{b,c}/x.js").as_deref(), Some("./a"));
        assert_eq!(
            pattern_dir("lib/ipc.js"),
            None,
            "no wildcard: a path, not a listing"
        );
    }
}

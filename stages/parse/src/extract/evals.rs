//! Module code shipped as a string: webpack's and rspack's `eval` devtools (the development
//! default) write each factory body as `eval("…module code…\n//# sourceURL=webpack://…")`.
//! Read as written, every require, import and Electron call of such a bundle is a string
//! literal. The string is code the bundler wrote, so it is parsed like the rest of the file
//! (never run) and its statements take the place of the `eval` statement before the walks:
//! the pre-pass, the extraction and each factory's walk then read them as if the bundle had
//! been built without the devtool. A position inside is where the literal writes its
//! character (see [`Source::add_segment`]). Only an `eval` statement whose one argument is a string literal
//! is read, and code read this way is not searched for more of them.

use swc_ecma_ast::{Callee, Expr, Lit, ModuleItem, Program, Stmt};
use swc_ecma_visit::{VisitMut, VisitMutWith};

use super::names::unwrap;
use crate::source::Source;
use crate::syntax;

/// Replaces every `eval("…")` statement of `program` whose string parses with the statements
/// it holds. `within` is the file's own extent, which bounds where any statement of it sits.
/// Returns how many were read.
pub(crate) fn inline(
    program: &mut Program,
    source: &mut Source<'_>,
    within: syntax::Extent,
) -> u64 {
    if memchr::memmem::find(source.text.as_bytes(), b"eval(\"").is_none() {
        return 0;
    }
    let mut inliner = Inliner {
        source,
        within,
        read: 0,
    };
    program.visit_mut_with(&mut inliner);
    inliner.read
}

struct Inliner<'s, 'a> {
    source: &'s mut Source<'a>,
    /// The file's own extent: code read out of it must fit the parser's bounds beside it.
    within: syntax::Extent,
    read: u64,
}

impl Inliner<'_, '_> {
    /// The statements an `eval("…")` statement holds, when it is one and its code parses.
    fn read(&mut self, stmt: &Stmt) -> Option<Vec<Stmt>> {
        let Stmt::Expr(expr) = stmt else {
            return None;
        };
        let Expr::Call(call) = unwrap(&expr.expr) else {
            return None;
        };
        let Callee::Expr(callee) = &call.callee else {
            return None;
        };
        if !matches!(unwrap(callee), Expr::Ident(i) if i.sym == *"eval") || call.args.len() != 1 {
            return None;
        }
        let arg = &call.args[0];
        let (None, Expr::Lit(Lit::Str(literal))) = (&arg.spread, unwrap(&arg.expr)) else {
            return None;
        };
        let code = literal.value.to_string_lossy().into_owned();
        let start = self.source.add_segment(code, literal.span)?;
        let text = self.source.segment_text(start)?;
        let program = syntax::parse_segment(text, start, self.within)?;
        self.read += 1;
        let mut stmts: Vec<Stmt> = match program {
            Program::Script(script) => script.body,
            Program::Module(module) => module
                .body
                .into_iter()
                .filter_map(|item| match item {
                    ModuleItem::Stmt(stmt) => Some(stmt),
                    ModuleItem::ModuleDecl(_) => None,
                })
                .collect(),
        };
        // webpack 5.100+ and rspack wrap the module in a block (`eval("{…}")`); its statements
        // are the factory's, as the same build without the devtool writes them.
        if let [Stmt::Block(_)] = &stmts[..]
            && let Some(Stmt::Block(block)) = stmts.pop()
        {
            stmts = block.stmts;
        }
        Some(stmts)
    }
}

impl VisitMut for Inliner<'_, '_> {
    fn visit_mut_stmts(&mut self, stmts: &mut Vec<Stmt>) {
        let mut out = Vec::with_capacity(stmts.len());
        for mut stmt in stmts.drain(..) {
            match self.read(&stmt) {
                Some(code) => out.extend(code),
                None => {
                    stmt.visit_mut_with(self);
                    out.push(stmt);
                }
            }
        }
        *stmts = out;
    }
}

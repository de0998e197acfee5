//! The template of a channel that does not fold to one string: its strings, and holes for
//! the values not known (`` `${prefix}getUser` `` is `${…}getUser`), read so that a dynamic
//! channel pairs, as a candidate, with a registration made the same way
//! ([`ChannelKey`]). And the functions of a file that make a channel of their parameters
//! (`const channel = (name) => `${PREFIX}:${name}``): a call of one, `channel("open")`, is
//! the channel its template makes of the strings it passes.

use swc_ecma_ast::{ArrowFunctionBody, BinaryOp, Expr, Function, Pat};

use super::constants;
use super::names::unwrap;
use crate::facts::ChannelKey;

/// Deepest concatenation read, most parts kept, and the most bytes of strings.
const MAX_DEPTH: usize = 16;
const MAX_PARTS: usize = 64;
const MAX_BYTES: usize = 4096;

/// What stands in a template for a run of values not known.
pub(super) const HOLE: &str = crate::facts::CHANNEL_HOLE;

pub(super) use crate::facts::{ChannelMaker as Maker, ChannelPart as Part};

/// The parts of a concatenation or template literal: its strings as
/// [`constants::fold`] reads them (`part` reading names), `param` naming the parameters of
/// the function it is the body of, and a hole for each run of anything else. `None` past
/// the bounds.
pub(super) fn parts(
    expr: &Expr,
    part: &mut dyn FnMut(&Expr) -> Option<String>,
    param: &dyn Fn(&Expr) -> Option<u32>,
) -> Option<Vec<Part>> {
    if !constants::foldable(expr) {
        return None;
    }
    let mut out = Template::default();
    out.read(expr, part, param, 0).then_some(out.parts)
}

/// Parts being read, adjacent strings joined and adjacent holes one.
#[derive(Default)]
struct Template {
    parts: Vec<Part>,
    bytes: usize,
}

impl Template {
    /// Appends `part`; whether the template stays within the bounds (nothing is appended
    /// past them).
    fn push(&mut self, part: Part) -> bool {
        if let Part::Str(text) = &part {
            if self.bytes + text.len() > MAX_BYTES {
                return false;
            }
            self.bytes += text.len();
        }
        match (self.parts.last_mut(), part) {
            (Some(Part::Str(last)), Part::Str(text)) => last.push_str(&text),
            (Some(Part::Hole), Part::Hole) => {}
            (_, part) => {
                if self.parts.len() == MAX_PARTS {
                    return false;
                }
                self.parts.push(part);
            }
        }
        true
    }

    /// Appends `expr`'s parts; whether it stayed within the bounds.
    fn read(
        &mut self,
        expr: &Expr,
        part: &mut dyn FnMut(&Expr) -> Option<String>,
        param: &dyn Fn(&Expr) -> Option<u32>,
        depth: usize,
    ) -> bool {
        if depth > MAX_DEPTH {
            return false;
        }
        match unwrap(expr) {
            Expr::Bin(bin) if bin.op == BinaryOp::Add => {
                self.read(&bin.left, part, param, depth + 1)
                    && self.read(&bin.right, part, param, depth + 1)
            }
            Expr::Tpl(tpl) => {
                for (i, quasi) in tpl.quasis.iter().enumerate() {
                    let Some(cooked) = quasi.cooked.as_ref() else {
                        return false;
                    };
                    if !cooked.is_empty() && !self.push(Part::Str(cooked.to_string_lossy().into()))
                    {
                        return false;
                    }
                    if let Some(inner) = tpl.exprs.get(i)
                        && !self.read(inner, part, param, depth + 1)
                    {
                        return false;
                    }
                }
                true
            }
            other => self.push(match param(other) {
                Some(index) => Part::Param(index),
                None => constants::fold(other, part).map_or(Part::Hole, Part::Str),
            }),
        }
    }
}

/// The parameter a channel of `parts` is made of, and the strings around it, when it is made
/// of one parameter and strings only (`` `api:${name}` `` is parameter 0 with `("api:",
/// "")`).
pub(super) fn around(parts: &[Part]) -> Option<(u32, (String, String))> {
    let text = |part: Option<&Part>| match part {
        Some(Part::Str(text)) => Some(text.clone()),
        None => Some(String::new()),
        _ => None,
    };
    match parts {
        [Part::Param(param)] => Some((*param, (String::new(), String::new()))),
        [Part::Param(param), after] => Some((*param, (String::new(), text(Some(after))?))),
        [before, Part::Param(param)] => Some((*param, (text(Some(before))?, String::new()))),
        [before, Part::Param(param), after] => {
            Some((*param, (text(Some(before))?, text(Some(after))?)))
        }
        _ => None,
    }
}

/// The string `parts` make when every part is one.
pub(super) fn whole(parts: &[Part]) -> Option<String> {
    match parts {
        [Part::Str(text)] => Some(text.clone()),
        _ => None,
    }
}

/// What a channel of `parts` that is not known whole pairs by: the string it starts with,
/// at least [`crate::facts::MIN_CHANNEL_PREFIX`] bytes; else its template (each hole `${…}`), when its
/// strings have that many.
pub(super) fn key(parts: &[Part]) -> Option<ChannelKey> {
    let prefix = match parts.first() {
        Some(Part::Str(prefix)) => prefix.as_str(),
        _ => "",
    };
    let strings = parts
        .iter()
        .map(|part| match part {
            Part::Str(text) => text.len(),
            Part::Param(_) | Part::Hole => 0,
        })
        .sum();
    let template = || {
        parts
            .iter()
            .map(|part| match part {
                Part::Str(text) => text.as_str(),
                Part::Param(_) | Part::Hole => HOLE,
            })
            .collect()
    };
    ChannelKey::of(prefix, template, strings)
}

impl Maker {
    /// The maker a function written as a value is: an arrow with an expression body, or a
    /// function whose body is one `return` (`part` reading the names around it).
    pub(super) fn of_value(
        value: &Expr,
        part: &mut dyn FnMut(&Expr) -> Option<String>,
    ) -> Option<Maker> {
        match unwrap(value) {
            Expr::Arrow(arrow) => match &*arrow.body {
                ArrowFunctionBody::Expr(body) => {
                    let params: Vec<&Pat> = arrow.params.iter().collect();
                    Maker::of(&params, body, part)
                }
                ArrowFunctionBody::FunctionBody(_) => None,
            },
            Expr::Fn(f) => Maker::of_function(&f.function, part),
            _ => None,
        }
    }

    /// The maker a function is when its body is one `return`.
    pub(super) fn of_function(
        function: &Function,
        part: &mut dyn FnMut(&Expr) -> Option<String>,
    ) -> Option<Maker> {
        let body = super::bundle::returned(&function.body.as_ref()?.stmts)?;
        let params: Vec<&Pat> = function.params.iter().map(|p| &p.pat).collect();
        Maker::of(&params, body, part)
    }

    /// The maker a function of `params` whose body is the one expression `body` is, if any
    /// (`part` reading the names around it).
    pub(super) fn of(
        params: &[&Pat],
        body: &Expr,
        part: &mut dyn FnMut(&Expr) -> Option<String>,
    ) -> Option<Maker> {
        let param = |e: &Expr| {
            let Expr::Ident(ident) = e else { return None };
            params
                .iter()
                .position(|p| matches!(p, Pat::Ident(name) if name.id.sym == ident.sym))
                .and_then(|i| u32::try_from(i).ok())
        };
        let parts = parts(body, part, &param)?;
        parts
            .iter()
            .any(|p| matches!(p, Part::Param(_)))
            .then_some(Maker(parts))
    }

    /// The channel a call that passes `args` makes, when every part is a string.
    pub fn made(&self, args: &[Option<String>]) -> Option<String> {
        whole(&self.apply(args)?)
    }

    /// The parts the call that passes `args` makes: each parameter the string its
    /// argument is, or a hole. `None` past the bounds (a huge string passed).
    pub(super) fn apply(&self, args: &[Option<String>]) -> Option<Vec<Part>> {
        let mut out = Template::default();
        for part in &self.0 {
            let part = match part {
                Part::Param(i) => args
                    .get(*i as usize)
                    .cloned()
                    .flatten()
                    .map_or(Part::Hole, Part::Str),
                other => other.clone(),
            };
            if !out.push(part) {
                return None;
            }
        }
        Some(out.parts)
    }
}

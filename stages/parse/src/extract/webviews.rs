//! `<webview>` tags the code writes rather than a page: markup in a string, a template or a
//! concatenation (`` `<webview src="${url}" disablewebsecurity>` `` set as a container's
//! HTML), an element a view library makes (`createElement("webview", props)`, the JSX runtime's
//! `jsx("webview", props)`, a JSX element in a shipped source), and an element the DOM makes
//! (`document.createElement("webview")`, its attributes set afterwards). Each is read as
//! [`HtmlWebview`], with what its attributes grant the guest.
//!
//! What a template's expression or a property's value computes is not known. An expression
//! stands for the strings it may write (each branch of a conditional, the right of `&&`),
//! and a property whose value is not a literal counts as present; such a tag is `computed`.
//! Electron reads the boolean attributes by their presence, so `nodeintegration="false"` is
//! as present as `nodeintegration`; a property valued `false`, `null` or `undefined` is not
//! written by the view libraries, and counts as absent.

use swc_ecma_ast::{
    BinaryOp, Expr, JSXAttrName, JSXAttrOrSpread, JSXAttrValue, JSXElement, JSXElementName, Lit,
    ObjectLit, Prop, PropName, PropOrSpread, Tpl, UnaryOp,
};

use swc_common::Spanned;
use swc_ecma_ast::CallExpr;

use super::Extractor;
use super::names::{string, unwrap};
use crate::facts::{HtmlWebview, WEBVIEW_ATTRIBUTES};
use crate::source::cut;

/// Most `<webview>` tags kept per file.
pub(super) const MAX_WEBVIEWS: usize = 64;

/// Longest markup text read from one expression.
const MAX_MARKUP: usize = 64 * 1024;

/// Deepest expression read for the strings it may write.
const MAX_DEPTH: usize = 16;

/// Longest attribute value kept (as a page's).
const MAX_VALUE: usize = 4096;

/// The tag tested for, as a page writes it.
const TAG: &str = "<webview";

/// Callees that make an element of a view library from a tag name and props: React's
/// `createElement`, the JSX runtime's, Preact's and Vue's (the last part of the callee's name).
const ELEMENT_MAKERS: [&str; 12] = [
    "createElement",
    "jsx",
    "jsxs",
    "jsxDEV",
    "_jsx",
    "_jsxs",
    "_jsxDEV",
    "h",
    "createVNode",
    "_createVNode",
    "createElementVNode",
    "_createElementVNode",
];

/// The markup an expression writes, when it holds a `<webview` tag: a string, a template (its
/// expressions read as the strings they may write), or a `+` concatenation of those. Returns
/// the text and whether some of it is computed.
pub(super) fn markup(expr: &Expr) -> Option<(String, bool)> {
    // The tag opens in a literal part: most expressions are passed over without building text.
    if !holds_tag(expr, 0) {
        return None;
    }
    let (mut text, mut computed) = (String::new(), false);
    match expr {
        Expr::Lit(Lit::Str(s)) => text.push_str(&s.value.to_string_lossy()),
        Expr::Tpl(tpl) => template(tpl, &mut text, &mut computed, 0),
        Expr::TaggedTpl(tagged) => template(&tagged.tpl, &mut text, &mut computed, 0),
        Expr::Bin(bin) if bin.op == BinaryOp::Add => concatenation(expr, &mut text, &mut computed),
        _ => return None,
    }
    text.contains(TAG).then_some((text, computed))
}

/// Whether a literal part of a string, template or concatenation holds [`TAG`].
fn holds_tag(expr: &Expr, depth: usize) -> bool {
    let quasis = |tpl: &Tpl| tpl.quasis.iter().any(|q| q.raw.contains(TAG));
    match expr {
        Expr::Lit(Lit::Str(s)) => {
            memchr::memmem::find(s.value.as_bytes(), TAG.as_bytes()).is_some()
        }
        Expr::Tpl(tpl) => quasis(tpl),
        Expr::TaggedTpl(tagged) => quasis(&tagged.tpl),
        Expr::Paren(paren) if depth < MAX_DEPTH => holds_tag(&paren.expr, depth + 1),
        // Down the left spine, and each right leaf.
        Expr::Bin(bin) if bin.op == BinaryOp::Add => {
            let mut left = expr;
            let mut steps = 0;
            while let Expr::Bin(bin) = unwrap(left)
                && bin.op == BinaryOp::Add
                && steps < 4096
            {
                if holds_tag(unwrap(&bin.right), MAX_DEPTH) {
                    return true;
                }
                left = &bin.left;
                steps += 1;
            }
            !matches!(unwrap(left), Expr::Bin(_)) && holds_tag(unwrap(left), MAX_DEPTH)
        }
        _ => false,
    }
}

/// The markup an expression appends to a tag built in parts (`tag += " nodeintegration"`), as
/// [`markup`] reads it, with no tag of its own needed.
fn appended_markup(expr: &Expr) -> String {
    let (mut text, mut computed) = (String::new(), false);
    concatenation(expr, &mut text, &mut computed);
    text
}

/// The tags of `text`, markup code writes at `line`.
pub(super) fn tags_in(text: &str, line: u32, computed: bool) -> Vec<HtmlWebview> {
    // Markup built in parts may leave its tag open (`` `<webview src="${url}"` ``, closed by
    // a later part): a tag open at the end of the text is closed there.
    crate::text::html_page(&format!("{text}>"))
        .webviews
        .into_iter()
        .map(|tag| HtmlWebview {
            line: line + tag.line.saturating_sub(1),
            written: "markup-in-code",
            computed,
            // The URL redaction percent-encodes the placeholder of a value not known.
            src: tag.src.map(|src| src.replace("$%7B%E2%80%A6%7D", UNKNOWN)),
            ..tag
        })
        .collect()
}

/// Appends a template's text: its parts as written, each expression as the strings it may
/// write.
fn template(tpl: &Tpl, text: &mut String, computed: &mut bool, depth: usize) {
    for (i, quasi) in tpl.quasis.iter().enumerate() {
        match &quasi.cooked {
            Some(cooked) => push(text, &cooked.to_string_lossy()),
            None => push(text, &quasi.raw),
        }
        if let Some(expr) = tpl.exprs.get(i) {
            *computed = true;
            words(expr, text, depth + 1);
        }
    }
}

/// Appends a `+` concatenation's text, left to right.
fn concatenation(expr: &Expr, text: &mut String, computed: &mut bool) {
    // The leaves, from the left: `a + b + c` nests on its left.
    let mut right = Vec::new();
    let mut left = expr;
    while let Expr::Bin(bin) = unwrap(left)
        && bin.op == BinaryOp::Add
        && right.len() < 4096
    {
        right.push(&*bin.right);
        left = &bin.left;
    }
    right.push(left);
    for leaf in right.into_iter().rev() {
        match unwrap(leaf) {
            Expr::Lit(Lit::Str(s)) => push(text, &s.value.to_string_lossy()),
            Expr::Tpl(tpl) => template(tpl, text, computed, 0),
            other => {
                *computed = true;
                words(other, text, 0);
            }
        }
    }
}

/// Appends the strings an expression may write, spaced apart: a string's value; each branch
/// of a conditional; the right of `&&`; both sides of `||` and `??`; a template's text. Any
/// other expression writes [`UNKNOWN`] (its value is not known: `src="${url}"` reads as
/// `src="${…}"`).
fn words(expr: &Expr, text: &mut String, depth: usize) {
    let expr = unwrap(expr);
    if depth > MAX_DEPTH || !writes_words(expr) {
        push(text, UNKNOWN);
        return;
    }
    push(text, " ");
    match expr {
        Expr::Lit(Lit::Str(s)) => push(text, &s.value.to_string_lossy()),
        Expr::Tpl(tpl) => template(tpl, text, &mut true, depth + 1),
        Expr::Cond(cond) => {
            words(&cond.cons, text, depth + 1);
            words(&cond.alt, text, depth + 1);
        }
        Expr::Bin(bin) if bin.op == BinaryOp::LogicalAnd => words(&bin.right, text, depth + 1),
        Expr::Bin(bin) if matches!(bin.op, BinaryOp::LogicalOr | BinaryOp::NullishCoalescing) => {
            words(&bin.left, text, depth + 1);
            words(&bin.right, text, depth + 1);
        }
        _ => {}
    }
    push(text, " ");
}

/// What markup reads where an expression's value is not known.
const UNKNOWN: &str = "${…}";

/// Whether [`words`] reads strings off `expr` (else it is [`UNKNOWN`]).
fn writes_words(expr: &Expr) -> bool {
    match expr {
        Expr::Lit(Lit::Str(_)) | Expr::Tpl(_) | Expr::Cond(_) => true,
        Expr::Bin(bin) => matches!(
            bin.op,
            BinaryOp::LogicalAnd | BinaryOp::LogicalOr | BinaryOp::NullishCoalescing
        ),
        _ => false,
    }
}

/// Appends `part` while the text stays within [`MAX_MARKUP`].
fn push(text: &mut String, part: &str) {
    if text.len() + part.len() <= MAX_MARKUP {
        text.push_str(part);
    }
}

/// The attributes of a tag the code makes, as they are read.
#[derive(Default)]
struct Attributes {
    present: Vec<&'static str>,
    src: Option<String>,
    web_preferences: Option<String>,
    preload: Option<String>,
    computed: bool,
}

impl Attributes {
    /// Reads one attribute: `name` (any case), and its value (`None` when it has none, as
    /// a bare JSX attribute).
    fn read(&mut self, name: &str, value: Option<&Expr>) {
        let name = name.to_ascii_lowercase();
        let literal = value.map(literal);
        if matches!(literal, Some(Literal::Absent)) {
            return;
        }
        if matches!(literal, Some(Literal::Unknown)) {
            self.computed = true;
        }
        let text = match &literal {
            Some(Literal::Text(text)) => Some(cut(text, MAX_VALUE).to_owned()),
            _ => None,
        };
        match name.as_str() {
            "src" => self.src = text.map(|t| cut(&crate::redact::url(&t), MAX_VALUE).to_owned()),
            "webpreferences" => self.web_preferences = text,
            // `<video preload="auto">` is no webview's.
            "preload" => {
                self.preload = text
                    .filter(|t| !matches!(t.trim(), "" | "auto" | "none" | "metadata"))
                    .map(|t| crate::text::preload_path(&t));
            }
            _ => {
                if let Some(attribute) = WEBVIEW_ATTRIBUTES.into_iter().find(|a| *a == name)
                    && !self.present.contains(&attribute)
                {
                    self.present.push(attribute);
                }
            }
        }
    }

    fn tag(mut self, line: u32, written: &'static str) -> HtmlWebview {
        // In the order a page's tags list them.
        self.present
            .sort_by_key(|a| WEBVIEW_ATTRIBUTES.iter().position(|w| w == a));
        HtmlWebview {
            line,
            written,
            computed: self.computed,
            src: self.src.filter(|s| !s.trim().is_empty()),
            attributes: self.present,
            web_preferences: self.web_preferences,
            preload: self.preload,
        }
    }
}

/// What a property's or attribute's value is known to be.
enum Literal {
    /// `false`, `null`, `undefined`, `void 0`, `!1`: the attribute is not written.
    Absent,
    /// A string (or a number), written as the attribute's value.
    Text(String),
    /// `true` (`!0`): written, with no value.
    Present,
    /// Computed at run time.
    Unknown,
}

fn literal(expr: &Expr) -> Literal {
    match unwrap(expr) {
        Expr::Lit(Lit::Bool(b)) if !b.value => Literal::Absent,
        Expr::Lit(Lit::Null(_)) => Literal::Absent,
        Expr::Ident(i) if &*i.sym == "undefined" => Literal::Absent,
        Expr::Unary(u) if u.op == UnaryOp::Void => Literal::Absent,
        Expr::Unary(u) if u.op == UnaryOp::Bang => match unwrap(&u.arg) {
            Expr::Lit(Lit::Num(n)) if n.value == 0.0 => Literal::Present,
            Expr::Lit(Lit::Num(_)) => Literal::Absent,
            _ => Literal::Unknown,
        },
        Expr::Lit(Lit::Bool(_)) => Literal::Present,
        Expr::Lit(Lit::Str(s)) => Literal::Text(s.value.to_string_lossy().into_owned()),
        Expr::Lit(Lit::Num(n)) => Literal::Text(n.value.to_string()),
        Expr::Tpl(tpl) if tpl.exprs.is_empty() => Literal::Text(
            tpl.quasis
                .first()
                .and_then(|q| q.cooked.as_ref())
                .map(|c| c.to_string_lossy().into_owned())
                .unwrap_or_default(),
        ),
        _ => Literal::Unknown,
    }
}

/// How a call makes a `<webview>` element, from its callee's name and arguments: `Some(None)`
/// for the DOM's `createElement("webview")` (its attributes come later), `Some(Some(props))`
/// for a view library's element with its props (`None` props read as no attributes).
pub(super) fn element_call<'c>(
    callee: &str,
    args: &'c [swc_ecma_ast::ExprOrSpread],
) -> Option<Option<Option<&'c Expr>>> {
    let [tag, rest @ ..] = args else {
        return None;
    };
    if tag.spread.is_some()
        || !matches!(unwrap(&tag.expr), Expr::Lit(Lit::Str(s)) if s.value.to_string_lossy() == "webview")
    {
        return None;
    }
    let method = callee.rsplit('.').next().unwrap_or(callee);
    if !ELEMENT_MAKERS.contains(&method) {
        return None;
    }
    let props = rest
        .first()
        .filter(|p| p.spread.is_none())
        .map(|p| &*p.expr);
    // The DOM's `createElement` takes a tag name and, at most, options naming a custom
    // element: no props.
    let dom = method == "createElement" && (callee.starts_with("document.") || rest.is_empty());
    Some(if dom { None } else { Some(props) })
}

/// The tag a view library's element call makes, with its props (an object literal: others
/// are computed).
pub(super) fn element(props: Option<&Expr>, line: u32) -> HtmlWebview {
    let mut attributes = Attributes::default();
    match props.map(unwrap) {
        None | Some(Expr::Lit(Lit::Null(_))) => {}
        Some(Expr::Object(object)) => object_props(object, &mut attributes),
        Some(_) => attributes.computed = true,
    }
    attributes.tag(line, "element")
}

fn object_props(object: &ObjectLit, attributes: &mut Attributes) {
    for prop in &object.props {
        match prop {
            PropOrSpread::Spread(_) => attributes.computed = true,
            PropOrSpread::Prop(prop) => match &**prop {
                Prop::KeyValue(kv) => {
                    let key = match &kv.key {
                        PropName::Ident(i) => i.sym.to_string(),
                        PropName::Str(s) => s.value.to_string_lossy().into_owned(),
                        _ => {
                            attributes.computed = true;
                            continue;
                        }
                    };
                    attributes.read(&key, Some(&kv.value));
                }
                Prop::Shorthand(i) => {
                    attributes.read(&i.sym, Some(&Expr::Ident(i.clone())));
                }
                _ => attributes.computed = true,
            },
        }
    }
}

/// The tag a JSX element makes, when it is a `<webview>`.
pub(super) fn jsx(element: &JSXElement, line: u32) -> Option<HtmlWebview> {
    let JSXElementName::Ident(name) = &element.opening.name else {
        return None;
    };
    if &*name.sym != "webview" {
        return None;
    }
    let mut attributes = Attributes::default();
    for attribute in &element.opening.attrs {
        let JSXAttrOrSpread::JSXAttr(attribute) = attribute else {
            attributes.computed = true;
            continue;
        };
        let JSXAttrName::Ident(key) = &attribute.name else {
            continue;
        };
        match &attribute.value {
            None => attributes.read(&key.sym, None),
            Some(JSXAttrValue::Str(s)) => {
                attributes.read(&key.sym, Some(&Expr::Lit(Lit::Str(s.clone()))));
            }
            Some(JSXAttrValue::JSXExprContainer(container)) => match &container.expr {
                swc_ecma_ast::JSXExpr::Expr(expr) => attributes.read(&key.sym, Some(expr)),
                swc_ecma_ast::JSXExpr::JSXEmptyExpr(_) => {}
            },
            Some(_) => {
                attributes.computed = true;
                attributes.read(&key.sym, None);
            }
        }
    }
    Some(attributes.tag(line, "element"))
}

/// Adds an attribute set on an element the DOM made (`webview.setAttribute(name, value)`),
/// when `name` is one only a `<webview>` reads (not `src` or `plugins`, which other elements
/// have too).
fn set_attribute(tag: &mut HtmlWebview, name: &str, value: Option<&Expr>) {
    let name = name.to_ascii_lowercase();
    if !matches!(name.as_str(), "webpreferences" | "preload")
        && !WEBVIEW_ATTRIBUTES.contains(&name.as_str())
        || name == "plugins"
    {
        return;
    }
    let mut attributes = Attributes::default();
    attributes.read(&name, value);
    merge(tag, attributes.tag(tag.line, tag.written));
}

/// Adds to `tag` the attributes code gives it later (`added`): those present, and the
/// `webpreferences` and `preload` it sets. Its attributes are then computed.
fn merge(tag: &mut HtmlWebview, added: HtmlWebview) {
    for attribute in added.attributes {
        if !tag.attributes.contains(&attribute) {
            tag.attributes.push(attribute);
        }
    }
    tag.attributes
        .sort_by_key(|a| WEBVIEW_ATTRIBUTES.iter().position(|w| w == a));
    if added.web_preferences.is_some() {
        tag.web_preferences = added.web_preferences;
    }
    if added.preload.is_some() {
        tag.preload = added.preload;
    }
    tag.computed = true;
}

impl Extractor<'_, '_> {
    /// Reads the `<webview>` tags an expression writes as markup, unless it is part of the
    /// last expression read so.
    pub(super) fn webview_markup(&mut self, expr: &Expr) {
        let span = expr.span();
        if self
            .markup_span
            .is_some_and(|(lo, hi)| lo <= span.lo.0 && span.hi.0 <= hi)
        {
            return;
        }
        // A concatenation's left spine (`a + b + c` holds `a + b`, starting where it starts)
        // was searched with the whole: searching each again would be quadratic.
        let chain = matches!(expr, Expr::Bin(bin) if bin.op == BinaryOp::Add);
        if chain
            && self
                .searched_chain
                .is_some_and(|(lo, hi)| lo == span.lo.0 && span.hi.0 <= hi)
        {
            return;
        }
        let found = markup(expr);
        if chain && found.is_none() {
            self.searched_chain = Some((span.lo.0, span.hi.0));
        }
        if let Some((text, computed)) = found {
            self.markup_span = Some((span.lo.0, span.hi.0));
            let line = self.source.range(span).start.line;
            let mut last = None;
            for tag in tags_in(&text, line, computed) {
                if self.push_webview(tag) {
                    last = Some(self.facts.webviews.len() - 1);
                }
            }
            // The markup a declaration binds a name to, which later parts may add to.
            if let Some((at, name)) = self.markup_binding.take()
                && at == span.lo.0
                && let Some(index) = last
            {
                self.markup_names.insert(name.to_string(), index);
            }
        }
    }

    /// Reads markup appended to a name bound to a `<webview>` tag's markup (`let tag =
    /// \`<webview src="${url}"\`; if (node) tag += " nodeintegration";`): its attributes are the
    /// tag's, on some runs.
    pub(super) fn webview_append(&mut self, name: &str, appended: &Expr) {
        let Some(&index) = self.markup_names.get(name) else {
            return;
        };
        let text = format!("<webview {}>", appended_markup(appended));
        let Some(added) = crate::text::html_page(&text).webviews.into_iter().next() else {
            return;
        };
        merge(&mut self.facts.webviews[index], added);
    }

    /// Reads a call that makes a `<webview>` element, or sets an attribute on the last one
    /// the DOM made.
    pub(super) fn webview_call(&mut self, name: &str, call: &CallExpr) {
        let line = || self.source.range(call.span).start.line;
        match element_call(name, &call.args) {
            Some(None) => {
                let mut tag = element(None, line());
                tag.computed = true;
                if self.push_webview(tag) {
                    self.dom_webview = Some(self.facts.webviews.len() - 1);
                }
            }
            Some(Some(props)) => {
                let tag = element(props, line());
                self.push_webview(tag);
            }
            None => {
                if let Some(index) = self.dom_webview
                    && name.rsplit('.').next() == Some("setAttribute")
                    && let Some(attribute) = call.args.first().and_then(|a| string(&a.expr))
                {
                    let value = call.args.get(1).map(|a| &*a.expr);
                    set_attribute(&mut self.facts.webviews[index], &attribute, value);
                }
            }
        }
    }

    /// Keeps a tag, up to [`MAX_WEBVIEWS`] a file; whether it was kept.
    pub(super) fn push_webview(&mut self, tag: HtmlWebview) -> bool {
        if self.facts.webviews.len() >= MAX_WEBVIEWS {
            self.facts.dropped_findings += 1;
            return false;
        }
        self.facts.webviews.push(tag);
        true
    }
}

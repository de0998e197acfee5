//! The non-JavaScript text kinds: `package.json`, JSON modules, HTML script tags and source
//! maps. Each reader returns facts; a malformed file is a status, never an error.

use std::fmt;

use serde::de::{Deserializer, MapAccess, SeqAccess, Visitor};

use crate::facts::{
    HtmlScript, MapSource, PackageFacts, PackageTarget, PageCsp, PagePolicy, SourceMapFacts,
};
use crate::source::cut;

const MAX_FIELD: usize = 4096;
const MAX_KEYS: usize = 64;
const MAX_SCRIPTS: usize = 256;
const MAX_EXPORT_TARGETS: usize = 16_384;

/// Reads a `package.json`.
pub(crate) fn package(text: &str) -> PackageFacts {
    let Ok(serde_json::Value::Object(doc)) = serde_json::from_str::<serde_json::Value>(text) else {
        return PackageFacts::default();
    };
    let field = |name: &str| {
        doc.get(name)
            .and_then(|v| v.as_str())
            .filter(|s| !s.is_empty())
            .map(|s| cut(s, MAX_FIELD).to_owned())
    };
    // The maps again, in the file's order (`serde_json`'s own map sorts its keys).
    let maps = serde_json::from_str::<Maps>(text).unwrap_or_default();
    let mut exports = Vec::new();
    if let Some(Ordered(value)) = &maps.exports {
        collect_exports(value, ".", &mut exports, 0);
    }
    exports.sort();
    exports.dedup();
    exports.truncate(MAX_KEYS);
    PackageFacts {
        valid: true,
        name: field("name"),
        version: field("version"),
        main: field("main"),
        renderer: field("renderer"),
        browser: field("browser"),
        module: field("module"),
        exports,
        exports_map: maps.exports.map(|o| o.0),
        imports_map: maps.imports.map(|o| o.0),
    }
}

/// The two maps of a `package.json` that resolution reads in order.
#[derive(Default, serde::Deserialize)]
struct Maps {
    exports: Option<Ordered>,
    imports: Option<Ordered>,
}

/// A [`PackageTarget`] read with its keys in the file's order.
struct Ordered(PackageTarget);

impl<'de> serde::Deserialize<'de> for Ordered {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(OrderedVisitor).map(Ordered)
    }
}

struct OrderedVisitor;

impl<'de> Visitor<'de> for OrderedVisitor {
    type Value = PackageTarget;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a package exports or imports value")
    }

    fn visit_str<E>(self, v: &str) -> Result<PackageTarget, E> {
        Ok(PackageTarget::Path(v.to_owned()))
    }

    fn visit_unit<E>(self) -> Result<PackageTarget, E> {
        Ok(PackageTarget::Null)
    }

    fn visit_bool<E>(self, _: bool) -> Result<PackageTarget, E> {
        Ok(PackageTarget::Invalid)
    }

    fn visit_i64<E>(self, _: i64) -> Result<PackageTarget, E> {
        Ok(PackageTarget::Invalid)
    }

    fn visit_u64<E>(self, _: u64) -> Result<PackageTarget, E> {
        Ok(PackageTarget::Invalid)
    }

    fn visit_f64<E>(self, _: f64) -> Result<PackageTarget, E> {
        Ok(PackageTarget::Invalid)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<PackageTarget, A::Error> {
        let mut items = Vec::new();
        while let Some(Ordered(item)) = seq.next_element()? {
            items.push(item);
        }
        Ok(PackageTarget::Alternatives(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<PackageTarget, A::Error> {
        let mut entries = Vec::new();
        while let Some((key, Ordered(value))) = map.next_entry::<String, Ordered>()? {
            entries.push((key, value));
        }
        Ok(PackageTarget::Map(entries))
    }
}

fn collect_exports(
    value: &PackageTarget,
    condition: &str,
    out: &mut Vec<(String, String)>,
    depth: usize,
) {
    // Every target up to a bound far above `MAX_KEYS`, so that the sorted cut to `MAX_KEYS`
    // does not depend on the order the file writes them in.
    if depth > 8 || out.len() >= MAX_EXPORT_TARGETS {
        return;
    }
    match value {
        PackageTarget::Path(s) => out.push((condition.to_owned(), cut(s, MAX_FIELD).to_owned())),
        PackageTarget::Map(map) => {
            for (key, inner) in map {
                let next = if key.starts_with('.') {
                    key.clone()
                } else {
                    format!("{condition}#{key}")
                };
                collect_exports(inner, &next, out, depth + 1);
            }
        }
        PackageTarget::Alternatives(items) => {
            for item in items {
                collect_exports(item, condition, out, depth + 1);
            }
        }
        PackageTarget::Null | PackageTarget::Invalid => {}
    }
}

/// Top-level keys of a JSON module (at most 64, sorted), how many were left out, and whether
/// the text needed the JSON-with-comments reading (comments or trailing commas, as
/// `tsconfig.json` files have); `None` when the text is not JSON either way.
pub(crate) fn json_keys(text: &str) -> Option<(Vec<String>, u64, bool)> {
    let (value, jsonc) = match serde_json::from_str::<serde_json::Value>(text) {
        Ok(value) => (value, false),
        Err(_) => {
            let mut relaxed = text.to_owned();
            json_strip_comments::strip(&mut relaxed).ok()?;
            (serde_json::from_str(&relaxed).ok()?, true)
        }
    };
    match value {
        serde_json::Value::Object(map) => {
            let mut keys: Vec<String> = map.keys().map(|k| cut(k, 256).to_owned()).collect();
            keys.sort();
            let omitted = keys.len().saturating_sub(MAX_KEYS) as u64;
            keys.truncate(MAX_KEYS);
            Some((keys, omitted, jsonc))
        }
        _ => Some((Vec::new(), 0, jsonc)),
    }
}

/// What an HTML page holds for the analysis, read by a WHATWG tokenizer (`html5gum`, with
/// its naive switch into script, style and other raw-text states, so that markup inside a
/// script or a comment is never read as tags).
#[derive(Debug, Default)]
pub(crate) struct HtmlPage {
    /// `<script src>` tags and `<webview preload>` attributes, in text order.
    pub scripts: Vec<HtmlScript>,
    /// Inline classic and module scripts, in text order.
    pub inline: Vec<InlineScript>,
    /// `<meta http-equiv="Content-Security-Policy">` policies, if any.
    pub csp: Option<PageCsp>,
    /// `<webview>` tags, in text order, at most [`MAX_SCRIPTS`].
    pub webviews: Vec<crate::facts::HtmlWebview>,
}

/// An inline `<script>` element's code.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct InlineScript {
    /// The byte offset of the `>` that ends the start tag.
    pub tag_end: usize,
    /// The body's byte range: from the start tag's end to the end tag (or the end of the page).
    pub body: std::ops::Range<usize>,
    /// The start tag's line.
    pub line: u32,
}

/// The file a `<webview preload>` URL names: a relative `file:` URL (`file:./preload.js`) is
/// the path after the scheme; any other URL is kept as written.
pub(crate) fn preload_path(url: &str) -> String {
    let url = url.trim();
    match url.strip_prefix("file:") {
        Some(rest) if !rest.starts_with("//") => cut(rest, MAX_FIELD).to_owned(),
        _ => cut(url, MAX_FIELD).to_owned(),
    }
}

/// What a page's tag names for the page to load.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Named {
    Script,
    WebviewPreload,
    Import,
}

/// Reads an HTML page: script tags, HTML imports (`<link rel="import" href>`), the
/// `<base href>`, webview preloads (a `file:` URL: a
/// relative one, `./preload.js` or `file:./preload.js`, names a file beside the page), inline
/// scripts (no `src`, and a JavaScript type or `module`) and meta content security policies.
/// Attribute values are decoded as the browser decodes them (`&amp;`, `&#39;`).
pub(crate) fn html_page(text: &str) -> HtmlPage {
    let mut emitter = html5gum::DefaultEmitter::<usize>::new_with_span();
    emitter.naively_switch_states(true);
    let mut page = HtmlPage::default();
    let mut policies = Vec::new();
    let mut base_href = None;
    let mut tags = Vec::new();
    let mut open_script: Option<(usize, u32)> = None;
    let mut lines = LineCounter::default();
    for token in html5gum::Tokenizer::new_with_emitter(text, emitter) {
        // The reader of a `&str` cannot fail.
        let Ok(token) = token;
        match token {
            html5gum::Token::StartTag(tag) => {
                let value = |name: &str| {
                    tag.attributes
                        .get(name.as_bytes())
                        .map(|v| String::from_utf8_lossy(&v.value).into_owned())
                };
                let line = lines.line_of(text, tag.span.start);
                match tag.name.as_slice() {
                    b"base" if base_href.is_none() => {
                        base_href = value("href").filter(|h| !h.is_empty())
                    }
                    b"script" => match value("src") {
                        Some(src) if !src.is_empty() => tags.push((src, line, Named::Script)),
                        Some(_) => {}
                        None if !tag.self_closing
                            && value("type").is_none_or(|t| is_script_type(&t)) =>
                        {
                            open_script = Some((tag.span.end, line));
                        }
                        None => {}
                    },
                    b"webview" => {
                        let preload = value("preload")
                            .filter(|u| !u.trim().is_empty())
                            .map(|url| preload_path(&url));
                        if page.webviews.len() < MAX_SCRIPTS {
                            page.webviews.push(crate::facts::HtmlWebview {
                                line,
                                written: "html",
                                computed: false,
                                src: value("src")
                                    .filter(|s| !s.trim().is_empty())
                                    .map(|s| cut(&crate::redact::url(&s), MAX_FIELD).to_owned()),
                                attributes: crate::facts::WEBVIEW_ATTRIBUTES
                                    .into_iter()
                                    .filter(|a| tag.attributes.contains_key(a.as_bytes()))
                                    .collect(),
                                web_preferences: value("webpreferences")
                                    .map(|w| cut(&w, MAX_FIELD).to_owned()),
                                preload: preload.clone(),
                            });
                        }
                        if let Some(path) = preload {
                            tags.push((path, line, Named::WebviewPreload));
                        }
                    }
                    b"link"
                        if value("rel").is_some_and(|rel| {
                            rel.split_ascii_whitespace()
                                .any(|r| r.eq_ignore_ascii_case("import"))
                        }) =>
                    {
                        if let Some(href) = value("href").filter(|h| !h.trim().is_empty()) {
                            tags.push((href.trim().to_owned(), line, Named::Import));
                        }
                    }
                    b"meta" => {
                        let equiv = value("http-equiv").unwrap_or_default();
                        if equiv.trim().eq_ignore_ascii_case("content-security-policy")
                            && policies.len() < MAX_SCRIPTS
                            && let Some(policy) = value("content")
                        {
                            policies.push(PagePolicy {
                                policy: cut(policy.trim(), MAX_FIELD).to_owned(),
                                line,
                            });
                        }
                    }
                    _ => {}
                }
            }
            html5gum::Token::EndTag(tag) if tag.name.as_slice() == b"script" => {
                if let Some((body_start, line)) = open_script.take() {
                    page.inline.push(InlineScript {
                        tag_end: body_start - 1,
                        body: body_start..tag.span.start,
                        line,
                    });
                }
            }
            _ => {}
        }
        if page.inline.len() >= MAX_SCRIPTS {
            break;
        }
    }
    if let Some((body_start, line)) = open_script
        && page.inline.len() < MAX_SCRIPTS
    {
        page.inline.push(InlineScript {
            tag_end: body_start - 1,
            body: body_start..text.len(),
            line,
        });
    }
    page.inline
        .retain(|s| !text[s.body.clone()].trim().is_empty());
    page.csp = (!policies.is_empty()).then(|| page_csp(policies));
    page.scripts = tags
        .into_iter()
        .take(MAX_SCRIPTS)
        .map(|(src, line, named)| HtmlScript {
            src: cut(&src, MAX_FIELD).to_owned(),
            base_href: base_href.clone(),
            line,
            webview_preload: named == Named::WebviewPreload,
            html_import: named == Named::Import,
        })
        .collect();
    page
}

/// What a page's meta policies, all enforced, let scripts do.
fn page_csp(policies: Vec<PagePolicy>) -> PageCsp {
    let (allows_inline_scripts, allows_eval) = crate::csp::judge(
        policies.iter().map(|p| p.policy.as_str()),
        crate::csp::Delivery::Meta,
    );
    PageCsp {
        policies,
        allows_inline_scripts,
        allows_eval,
    }
}

/// Whether a `<script type>` holds code the browser runs as JavaScript: a JavaScript MIME
/// type (HTML's list, parameters ignored), `module`, or the JSX types Babel's standalone
/// build compiles in the page (`text/babel`, `text/jsx`).
fn is_script_type(value: &str) -> bool {
    let essence = value
        .split(';')
        .next()
        .unwrap_or("")
        .trim()
        .to_ascii_lowercase();
    matches!(
        essence.as_str(),
        "" | "module"
            | "application/ecmascript"
            | "application/javascript"
            | "application/x-ecmascript"
            | "application/x-javascript"
            | "text/ecmascript"
            | "text/javascript"
            | "text/javascript1.0"
            | "text/javascript1.1"
            | "text/javascript1.2"
            | "text/javascript1.3"
            | "text/javascript1.4"
            | "text/javascript1.5"
            | "text/jscript"
            | "text/livescript"
            | "text/x-ecmascript"
            | "text/x-javascript"
            | "text/babel"
            | "text/jsx"
    )
}

/// The page's inline scripts as one JavaScript text of the page's length: every byte outside
/// the scripts' bodies is a space (line breaks kept), and the `>` ending each script's start
/// tag a `;`, so that positions in the text are positions in the page and each script starts
/// a statement of its own.
pub(crate) fn inline_script_text(page: &str, scripts: &[&InlineScript]) -> String {
    let mut out: Vec<u8> = page
        .bytes()
        .map(|b| if matches!(b, b'\n' | b'\r') { b } else { b' ' })
        .collect();
    for script in scripts {
        out[script.tag_end] = b';';
        out[script.body.clone()].copy_from_slice(&page.as_bytes()[script.body.clone()]);
    }
    // Every byte kept is ASCII or a whole body, and bodies start and end at ASCII `>` and `<`.
    String::from_utf8(out).unwrap_or_default()
}

/// Line numbers of increasing offsets, counted once.
#[derive(Default)]
struct LineCounter {
    counted: usize,
    line: u32,
}

impl LineCounter {
    fn line_of(&mut self, text: &str, at: usize) -> u32 {
        if self.line == 0 {
            self.line = 1;
        }
        let at = at.min(text.len());
        if at > self.counted {
            self.line +=
                memchr::memchr_iter(b'\n', &text.as_bytes()[self.counted..at]).count() as u32;
            self.counted = at;
        }
        self.line
    }
}

/// Reads a source map: version 3, `sources` (and `sections` of an indexed map). With
/// `contents`, each source's content is hashed; the content itself is never kept.
pub(crate) fn source_map(text: &str, contents: bool, max_sources: usize) -> SourceMapFacts {
    let Ok(serde_json::Value::Object(doc)) = serde_json::from_str::<serde_json::Value>(text) else {
        return SourceMapFacts {
            status: "invalid",
            ..SourceMapFacts::default()
        };
    };
    let mut facts = SourceMapFacts {
        status: if contents {
            "included"
        } else {
            "declarations-only"
        },
        file: doc
            .get("file")
            .and_then(|f| f.as_str())
            .map(|f| cut(f, MAX_FIELD).to_owned()),
        ..SourceMapFacts::default()
    };
    let mut maps = vec![&doc];
    if let Some(sections) = doc.get("sections").and_then(|s| s.as_array()) {
        maps.extend(
            sections
                .iter()
                .filter_map(|s| s.get("map")?.as_object())
                .take(10_000),
        );
    }
    let mut valid = false;
    for map in maps {
        if map.get("version").and_then(|v| v.as_u64()) != Some(3) {
            continue;
        }
        valid = true;
        let root = map.get("sourceRoot").and_then(|r| r.as_str()).unwrap_or("");
        let sources = map.get("sources").and_then(|s| s.as_array());
        let contents_of = map.get("sourcesContent").and_then(|s| s.as_array());
        for (i, source) in sources.into_iter().flatten().enumerate() {
            let Some(source) = source.as_str() else {
                continue;
            };
            facts.source_count += 1;
            if !contents {
                continue;
            }
            if facts.sources.len() >= max_sources {
                facts.status = "truncated";
                continue;
            }
            let name = if root.is_empty() || root.ends_with('/') {
                format!("{root}{source}")
            } else {
                format!("{root}/{source}")
            };
            let content_sha256 = contents_of
                .and_then(|c| c.get(i))
                .and_then(|c| c.as_str())
                .map(|c| rea_hash::sha256_hex(c.as_bytes()));
            facts.sources.push(MapSource {
                source: cut(&name, MAX_FIELD).to_owned(),
                content_sha256,
            });
        }
    }
    if !valid {
        facts.status = "invalid";
        facts.sources.clear();
    }
    facts
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn json_with_comments_is_read_and_flagged() {
        assert_eq!(
            json_keys(r#"{"b": 1, "a": 2}"#),
            Some((vec!["a".into(), "b".into()], 0, false))
        );
        let tsconfig = "{\n  // options\n  \"compilerOptions\": {\"strict\": true,},\n  /* paths */ \"include\": [\"src\"],\n}";
        assert_eq!(
            json_keys(tsconfig),
            Some((vec!["compilerOptions".into(), "include".into()], 0, true))
        );
        assert_eq!(json_keys("{not json"), None);
    }

    #[test]
    fn html_scripts_with_quotes_and_base() {
        let html = "<html><head><BASE href='/app/'></head>\n<script type=\"module\" src=\"./r.js\"></script><script>inline()</script>\n<script src=x.js></script>";
        let page = html_page(html);
        let srcs: Vec<&str> = page.scripts.iter().map(|s| s.src.as_str()).collect();
        assert_eq!(srcs, ["./r.js", "x.js"]);
        assert_eq!(page.scripts[0].base_href.as_deref(), Some("/app/"));
        assert_eq!(page.scripts[1].line, 3);
        assert_eq!(page.inline.len(), 1);
        assert_eq!(&html[page.inline[0].body.clone()], "inline()");
        assert_eq!(page.inline[0].line, 2);
    }

    #[test]
    fn markup_in_comments_and_scripts_is_not_read_as_tags() {
        let html = "<!-- <script src=old.js></script> -->\n<script>const s = '<script src=fake.js>' + \"</div>\";</script>\n<script type=\"application/json\">{\"a\": 1}</script><script type=\"text/template\"><p></p></script>\n<SCRIPT TYPE=\"text/javascript; charset=utf-8\">go()</SCRIPT><script src=real.js></script>";
        let page = html_page(html);
        let srcs: Vec<&str> = page.scripts.iter().map(|s| s.src.as_str()).collect();
        assert_eq!(srcs, ["real.js"]);
        let bodies: Vec<&str> = page.inline.iter().map(|s| &html[s.body.clone()]).collect();
        assert_eq!(
            bodies,
            ["const s = '<script src=fake.js>' + \"</div>\";", "go()"]
        );
        assert_eq!(
            page.inline.iter().map(|s| s.line).collect::<Vec<_>>(),
            [2, 4]
        );
    }

    #[test]
    fn inline_script_text_keeps_every_position_of_the_page() {
        let html = "<p>h\u{e9}llo</p><script>a()</script><script>b()</script>\r\n<script type=module>\nimport x from './x.js'</script>";
        let page = html_page(html);
        let scripts: Vec<&InlineScript> = page.inline.iter().collect();
        let js = inline_script_text(html, &scripts);
        assert_eq!(js.len(), html.len());
        // `<p>héllo</p>` is 13 bytes, `<script>` 8, `</script>` 9, `<script type=module>` 20.
        let spaces = |n: usize| " ".repeat(n);
        let expected = format!(
            "{};a(){};b(){}\r\n{};\nimport x from './x.js'{}",
            spaces(13 + 7),
            spaces(9 + 7),
            spaces(9),
            spaces(19),
            spaces(9)
        );
        assert_eq!(js, expected);
        for script in &page.inline {
            assert_eq!(js[script.body.clone()], html[script.body.clone()]);
        }
    }

    #[test]
    fn meta_policies_are_decoded_and_webview_preloads_are_files() {
        let html = "<meta http-equiv=\"content-security-policy\" content=\"default-src &#39;self&#39;; script-src &apos;self&apos; &#x27;unsafe-eval&#x27;\">\n<meta http-equiv=refresh content=5><webview src=\"https://x.test\" preload=\"file:./guest.js\"></webview>";
        let page = html_page(html);
        let csp = page.csp.unwrap();
        assert_eq!(csp.policies.len(), 1);
        assert_eq!(
            csp.policies[0].policy,
            "default-src 'self'; script-src 'self' 'unsafe-eval'"
        );
        assert_eq!(csp.policies[0].line, 1);
        assert!(csp.allows_eval);
        assert!(!csp.allows_inline_scripts);
        assert_eq!(page.scripts.len(), 1);
        assert_eq!(page.scripts[0].src, "./guest.js");
        assert!(page.scripts[0].webview_preload);
        assert!(page.inline.is_empty());
    }

    #[test]
    fn what_meta_policies_let_scripts_do() {
        let judge = |metas: &[&str]| {
            let html: String = metas
                .iter()
                .map(|p| format!("<meta http-equiv=Content-Security-Policy content=\"{p}\">\n"))
                .collect();
            html_page(&html)
                .csp
                .map(|c| (c.allows_inline_scripts, c.allows_eval))
        };
        assert_eq!(judge(&[]), None);
        assert_eq!(judge(&["default-src 'self'"]), Some((false, false)));
        assert_eq!(judge(&["img-src *"]), Some((true, true)));
        assert_eq!(
            judge(&["script-src 'self' 'unsafe-inline' 'unsafe-eval'"]),
            Some((true, true))
        );
        // A nonce or a hash makes the browser ignore 'unsafe-inline'.
        assert_eq!(
            judge(&["script-src 'unsafe-inline' 'nonce-abc'"]),
            Some((false, false))
        );
        // script-src replaces default-src for scripts.
        assert_eq!(
            judge(&["default-src 'none'; script-src 'unsafe-inline'"]),
            Some((true, false))
        );
        // Every policy is enforced: one that forbids is enough.
        assert_eq!(
            judge(&[
                "script-src 'unsafe-inline' 'unsafe-eval'",
                "script-src 'self'"
            ]),
            Some((false, false))
        );
    }

    #[test]
    fn package_fields_and_exports() {
        let p = package(
            r#"{"name":"a","main":"m.js","exports":{".":{"import":"./e.mjs","require":"./e.cjs"},"./sub":"./s.js"}}"#,
        );
        assert!(p.valid);
        assert_eq!(p.main.as_deref(), Some("m.js"));
        assert!(
            p.exports
                .contains(&(".#import".to_owned(), "./e.mjs".to_owned()))
        );
        assert!(
            p.exports
                .contains(&("./sub".to_owned(), "./s.js".to_owned()))
        );
        assert!(!package("{not json").valid);
    }

    #[test]
    fn package_maps_keep_the_files_order_and_odd_values() {
        use crate::facts::PackageTarget::{Alternatives, Invalid, Map, Null, Path};
        let p = package(
            r##"{"exports":{"require":"./r.js","import":["./i.mjs",7],"default":null,"node":true},
                 "imports":{"#a":{"node":"./n.js"}}}"##,
        );
        let path = |s: &str| Path(s.to_owned());
        assert_eq!(
            p.exports_map,
            Some(Map(vec![
                ("require".to_owned(), path("./r.js")),
                (
                    "import".to_owned(),
                    Alternatives(vec![path("./i.mjs"), Invalid])
                ),
                ("default".to_owned(), Null),
                ("node".to_owned(), Invalid),
            ]))
        );
        assert_eq!(
            p.imports_map,
            Some(Map(vec![(
                "#a".to_owned(),
                Map(vec![("node".to_owned(), path("./n.js"))])
            )]))
        );
        // Maps nested past what the JSON reader takes, or no maps at all: none.
        let deep = format!(r#"{{"exports":{}"x"{}}}"#, "[".repeat(200), "]".repeat(200));
        assert_eq!(package(&deep).exports_map, None);
        assert_eq!(package(r#"{"exports":null}"#).exports_map, None);
    }

    #[test]
    fn source_maps_hash_contents_only_when_asked() {
        let map = r#"{"version":3,"sourceRoot":"webpack://fixture/","sources":["src/a.ts"],"sourcesContent":["let a = 1;"],"mappings":""}"#;
        let declared = source_map(map, false, 10);
        assert_eq!(
            (
                declared.status,
                declared.source_count,
                declared.sources.len()
            ),
            ("declarations-only", 1, 0)
        );
        let read = source_map(map, true, 10);
        assert_eq!(read.sources[0].source, "webpack://fixture/src/a.ts");
        assert_eq!(
            read.sources[0].content_sha256.as_deref(),
            Some(rea_hash::sha256_hex(b"let a = 1;").as_str())
        );
        assert_eq!(source_map("[]", true, 10).status, "invalid");
    }

    fn html_token() -> impl Strategy<Value = &'static str> {
        prop::sample::select(vec![
            "<script>",
            "<SCRIPT type=module>",
            "</script>",
            "<script src=a.js>",
            "<!--",
            "-->",
            "<meta http-equiv=Content-Security-Policy content=\"",
            "\">",
            "<base href=",
            "<webview preload='",
            "'",
            "\"",
            ">",
            "<",
            "/",
            "&#39;",
            "&amp",
            "é",
            "\u{1F600}",
            "\n",
            "\r",
            " ",
            "x(",
            ")",
            ";",
            "'unsafe-inline'",
            "script-src",
            "nonce-",
            "<style>",
            "</style>",
        ])
    }

    proptest! {
        #[test]
        fn any_page_reads_without_panic_and_keeps_its_positions(
            tokens in prop::collection::vec(html_token(), 0..200),
        ) {
            let page = tokens.concat();
            let read = html_page(&page);
            for script in &read.inline {
                prop_assert!(script.tag_end < script.body.start);
                prop_assert!(script.body.end <= page.len());
                prop_assert!(page.is_char_boundary(script.body.start));
                prop_assert!(page.is_char_boundary(script.body.end));
            }
            let scripts: Vec<&InlineScript> = read.inline.iter().collect();
            let js = inline_script_text(&page, &scripts);
            prop_assert_eq!(js.len(), page.len());
            prop_assert_eq!(js.matches('\n').count(), page.matches('\n').count());
        }

        #[test]
        fn any_policy_is_judged_without_panic(policy in "\\PC{0,80}") {
            let _ = crate::csp::judge([policy.as_str()], crate::csp::Delivery::Header);
            let _ = crate::csp::judge([policy.as_str(), "script-src 'self'"], crate::csp::Delivery::Meta);
        }
    }
}

//! The non-JavaScript text kinds: `package.json`, JSON modules, HTML script tags and source
//! maps. Each reader returns facts; a malformed file is a status, never an error.

use crate::facts::{HtmlScript, MapSource, PackageFacts, SourceMapFacts};
use crate::source::cut;

const MAX_FIELD: usize = 4096;
const MAX_KEYS: usize = 64;
const MAX_SCRIPTS: usize = 256;

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
    let mut exports = Vec::new();
    if let Some(value) = doc.get("exports") {
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
    }
}

fn collect_exports(
    value: &serde_json::Value,
    condition: &str,
    out: &mut Vec<(String, String)>,
    depth: usize,
) {
    if depth > 8 || out.len() > MAX_KEYS {
        return;
    }
    match value {
        serde_json::Value::String(s) => {
            out.push((condition.to_owned(), cut(s, MAX_FIELD).to_owned()))
        }
        serde_json::Value::Object(map) => {
            for (key, inner) in map {
                let next = if key.starts_with('.') {
                    key.clone()
                } else {
                    format!("{condition}#{key}")
                };
                collect_exports(inner, &next, out, depth + 1);
            }
        }
        serde_json::Value::Array(items) => {
            for item in items {
                collect_exports(item, condition, out, depth + 1);
            }
        }
        _ => {}
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

/// `<script src>` tags, `<webview preload>` attributes and the `<base href>` in an HTML file,
/// found by a tag scan, in text order. A webview's preload is a `file:` URL: a relative one
/// (`./preload.js`, `file:./preload.js`) names a file beside the page.
pub(crate) fn html_scripts(text: &str) -> Vec<HtmlScript> {
    let lower = text.to_ascii_lowercase();
    let base_href = find_tags(&lower, "<base")
        .into_iter()
        .find_map(|(at, end)| attribute(&text[at..end], "href"));
    let mut tags: Vec<(usize, usize, bool)> = find_tags(&lower, "<script")
        .into_iter()
        .map(|(at, end)| (at, end, false))
        .chain(
            find_tags(&lower, "<webview")
                .into_iter()
                .map(|(at, end)| (at, end, true)),
        )
        .collect();
    tags.sort_unstable();
    let mut out = Vec::new();
    let (mut line, mut counted) = (1u32, 0usize);
    for (at, end, webview) in tags {
        let value = if webview {
            attribute(&text[at..end], "preload").map(|url| match url.strip_prefix("file:") {
                Some(rest) if !rest.starts_with("//") => rest.to_owned(),
                _ => url,
            })
        } else {
            attribute(&text[at..end], "src")
        };
        if let Some(src) = value {
            line += text.as_bytes()[counted..at]
                .iter()
                .filter(|b| **b == b'\n')
                .count() as u32;
            counted = at;
            out.push(HtmlScript {
                src: cut(&src, MAX_FIELD).to_owned(),
                base_href: base_href.clone(),
                line,
                webview_preload: webview,
            });
            if out.len() >= MAX_SCRIPTS {
                break;
            }
        }
    }
    out
}

/// (start, end) of each tag opening with `open` (lower-case text, ASCII offsets match).
fn find_tags(lower: &str, open: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(rel) = lower[from..].find(open) {
        let at = from + rel;
        let after = lower.as_bytes().get(at + open.len()).copied();
        let end = lower[at..].find('>').map_or(lower.len(), |e| at + e);
        if matches!(after, Some(b' ' | b'\t' | b'\n' | b'\r' | b'>' | b'/')) {
            out.push((at, end));
        }
        from = end.max(at + 1);
    }
    out
}

/// The value of `name="…"`, `name='…'` or `name=…` in a tag.
fn attribute(tag: &str, name: &str) -> Option<String> {
    let lower = tag.to_ascii_lowercase();
    let mut from = 0;
    while let Some(rel) = lower[from..].find(name) {
        let at = from + rel;
        from = at + name.len();
        let before = lower.as_bytes().get(at.wrapping_sub(1)).copied();
        if !matches!(before, Some(b' ' | b'\t' | b'\n' | b'\r')) {
            continue;
        }
        let rest = tag[from..].trim_start();
        let Some(rest) = rest.strip_prefix('=') else {
            continue;
        };
        let rest = rest.trim_start();
        let value = match rest.chars().next()? {
            q @ ('"' | '\'') => rest[1..].split(q).next()?.to_owned(),
            _ => rest
                .split(|c: char| c.is_whitespace() || c == '>')
                .next()?
                .to_owned(),
        };
        return (!value.is_empty()).then_some(value);
    }
    None
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
        let scripts = html_scripts(html);
        let srcs: Vec<&str> = scripts.iter().map(|s| s.src.as_str()).collect();
        assert_eq!(srcs, ["./r.js", "x.js"]);
        assert_eq!(scripts[0].base_href.as_deref(), Some("/app/"));
        assert_eq!(scripts[1].line, 3);
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
}

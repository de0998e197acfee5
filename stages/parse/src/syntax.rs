//! The swc front end. Parsing never fails: it returns a program or nothing, plus diagnostics.

use swc_common::Spanned;
use swc_ecma_ast::Program;
use swc_ecma_parser::{EsSyntax, Parser, StringInput, Syntax, TsSyntax};

use crate::source::Source;

/// Deepest bracket nesting parsed. swc and our visitors recurse once per level, so deeper
/// input would risk the stack; such a file becomes an unknown scope instead.
pub const MAX_NESTING: u32 = 2_000;
/// Most operator characters in one statement (between `;`, `{` and `}`). A chain such as
/// `1+1+…` nests one AST level per operator; 500,000 levels fit in [`STACK_BYTES`].
pub const MAX_OPERATOR_RUN: u32 = 500_000;
/// The stack a thread needs to parse, walk and drop any file these bounds admit; the engine
/// gives its pool threads this much.
pub const STACK_BYTES: usize = rea_core::WORKER_STACK_BYTES;

/// A parse result.
pub(crate) struct Parsed {
    pub program: Option<Program>,
    /// Errors the parser recovered from, or the fatal one.
    pub diagnostics: Vec<String>,
    pub recovered: bool,
    /// How deep the text nests, measured before parsing (what code read out of its strings
    /// must fit beside).
    pub extent: Extent,
}

/// Parses `source` with the syntax its path implies: TypeScript declarations for `.d.ts`
/// (and `.d.mts`, `.d.cts`), TypeScript for `.ts`/`.tsx` (`.tsx` with JSX), JavaScript with
/// JSX otherwise, retried without JSX when that fails.
pub(crate) fn parse(source: &Source<'_>, path: &str) -> Parsed {
    let lower = path.to_ascii_lowercase();
    let extent = match measure(source.text, Extent::default()) {
        Ok(extent) => extent,
        Err(depth) => {
            return Parsed {
                program: None,
                diagnostics: vec![format!(
                    "nesting deeper than the parser's bound ({depth}); not parsed"
                )],
                recovered: false,
                extent: Extent::default(),
            };
        }
    };
    let declarations = [".d.ts", ".d.mts", ".d.cts"];
    let syntaxes: &[Syntax] = if declarations.iter().any(|ext| lower.ends_with(ext)) {
        // A declaration file: `export const x: T;` and other bodiless declarations are
        // valid only here.
        &[Syntax::Typescript(TsSyntax {
            dts: true,
            decorators: true,
            ..TsSyntax::default()
        })]
    } else if lower.ends_with(".ts") || lower.ends_with(".mts") || lower.ends_with(".cts") {
        &[Syntax::Typescript(TsSyntax {
            tsx: false,
            decorators: true,
            ..TsSyntax::default()
        })]
    } else if lower.ends_with(".tsx") {
        &[Syntax::Typescript(TsSyntax {
            tsx: true,
            decorators: true,
            ..TsSyntax::default()
        })]
    } else {
        &[
            // `export v from "mod"` (Babel's export-default-from, as packages such as
            // history 4 ship their `modules/`) is read too: no valid program reads otherwise.
            Syntax::Es(EsSyntax {
                jsx: true,
                decorators: true,
                allow_return_outside_function: true,
                export_default_from: true,
                ..EsSyntax::default()
            }),
            Syntax::Es(EsSyntax {
                jsx: false,
                decorators: true,
                allow_return_outside_function: true,
                export_default_from: true,
                ..EsSyntax::default()
            }),
        ]
    };
    // A Flow file (`// @flow`, as React Native and many packages' `src/` ship them) is read
    // with TypeScript syntax when it does not parse as JavaScript: Flow's type imports and
    // annotations are TypeScript's; what only Flow writes (`?T`, `{| |}`) still fails. The
    // pragma is looked for only once the JavaScript syntaxes have failed.
    let flow = std::iter::once(()).flat_map(|()| {
        let read_as_flow = syntaxes.len() > 1 && has_flow_pragma(source.text);
        read_as_flow.then(flow_syntaxes).into_iter().flatten()
    });
    let mut first_failure = None;
    for (i, syntax) in syntaxes.iter().copied().chain(flow).enumerate() {
        let input = StringInput::new(source.text, source.start(), source.end());
        let mut parser = Parser::new(syntax, input, None);
        let result = parser.parse_program();
        let recovered: Vec<String> = parser
            .take_errors()
            .into_iter()
            .map(|e| describe(source, e))
            .collect();
        match result {
            Ok(program) => {
                let mut diagnostics: Vec<String> = recovered.into_iter().take(8).collect();
                let as_flow = i >= syntaxes.len();
                if as_flow {
                    diagnostics.insert(
                        0,
                        "a Flow file, read with TypeScript syntax: it does not parse as JavaScript"
                            .to_owned(),
                    );
                }
                return Parsed {
                    recovered: !diagnostics.is_empty(),
                    diagnostics,
                    program: Some(program),
                    extent,
                };
            }
            Err(err) => {
                if first_failure.is_none() {
                    let mut diagnostics = vec![describe(source, err)];
                    diagnostics.extend(recovered);
                    diagnostics.truncate(8);
                    first_failure = Some(diagnostics);
                } else if i == syntaxes.len()
                    && let Some(diagnostics) = &mut first_failure
                {
                    // A Flow file read as neither: what TypeScript syntax met too (Flow-only
                    // syntax, such as `*` or `{| |}`).
                    diagnostics.truncate(7);
                    diagnostics.push(format!(
                        "a Flow file; as TypeScript: {}",
                        describe(source, err)
                    ));
                }
            }
        }
    }
    Parsed {
        program: None,
        diagnostics: first_failure.unwrap_or_default(),
        recovered: false,
        extent,
    }
}

/// The syntaxes a Flow file is tried with: TypeScript, without JSX and then with it.
fn flow_syntaxes() -> [Syntax; 2] {
    [false, true].map(|tsx| {
        Syntax::Typescript(TsSyntax {
            tsx,
            decorators: true,
            ..TsSyntax::default()
        })
    })
}

/// Whether the text's leading comments carry Flow's pragma (`// @flow`, `/* @flow strict */`),
/// as Flow itself finds it: in a comment before the first token.
fn has_flow_pragma(text: &str) -> bool {
    let mut rest = text.trim_start_matches('\u{feff}');
    loop {
        rest = rest.trim_start();
        if rest.starts_with("#!") {
            rest = rest.split_once('\n').map_or("", |(_, after)| after);
            continue;
        }
        let (comment, after) = if let Some(line) = rest.strip_prefix("//") {
            line.split_once('\n').unwrap_or((line, ""))
        } else if let Some(block) = rest.strip_prefix("/*") {
            match block.split_once("*/") {
                Some(parts) => parts,
                None => return false,
            }
        } else {
            return false;
        };
        if comment
            .split(|c: char| c.is_whitespace() || c == '*')
            .any(|word| word == "@flow")
        {
            return true;
        }
        rest = after;
    }
}

/// Parses code read out of a string literal, whose swc positions start at `start`: a script,
/// without JSX. `None` when it does not parse, or when it is too deep to walk where it will
/// sit, inside code of extent `within`.
pub(crate) fn parse_segment(
    text: &str,
    start: swc_common::BytePos,
    within: Extent,
) -> Option<Program> {
    measure(text, within).ok()?;
    let end = swc_common::BytePos(start.0 + text.len() as u32);
    let syntax = Syntax::Es(EsSyntax {
        allow_return_outside_function: true,
        ..EsSyntax::default()
    });
    Parser::new(syntax, StringInput::new(text, start, end), None)
        .parse_program()
        .ok()
}

/// Parses `text` and drops the tree: the raw swc cost, for benches. True when it parsed.
pub fn parse_only(text: &str, path: &str) -> bool {
    parse(&Source::new(text), path).program.is_some()
}

fn describe(source: &Source<'_>, err: swc_ecma_parser::error::Error) -> String {
    let pos = source.pos(source.offset(err.span().lo));
    format!("{}:{}: {}", pos.line, pos.column, err.kind().msg())
}

/// How deep a text nests: its deepest bracket nesting and its longest operator run.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Extent {
    pub depth: u32,
    pub run: u32,
}

/// Measures `text`, as if it sat `within` code of that extent. An error says why the two
/// together are too deep to parse safely: bracket depth past [`MAX_NESTING`] or an operator
/// chain past [`MAX_OPERATOR_RUN`]. The scan skips string, template and comment text
/// approximately; it only decides whether parsing is safe, so an overestimate costs one
/// unknown scope, never a crash.
pub(crate) fn measure(text: &str, within: Extent) -> Result<Extent, String> {
    let bytes = text.as_bytes();
    let (mut depth, mut max, mut run, mut longest) = (within.depth, within.depth, within.run, 0);
    let mut i = 0;
    while i < bytes.len() {
        match CLASS[bytes[i] as usize] {
            STATEMENT_END => run = 0,
            BLOCK_OPEN | GROUP_OPEN => {
                if CLASS[bytes[i] as usize] == BLOCK_OPEN {
                    run = 0;
                }
                depth += 1;
                max = max.max(depth);
                if max > MAX_NESTING {
                    return Err(format!("{max} brackets"));
                }
            }
            BLOCK_CLOSE => {
                run = 0;
                depth = depth.saturating_sub(1);
            }
            GROUP_CLOSE => depth = depth.saturating_sub(1),
            OPERATOR => {
                run += 1;
                longest = longest.max(run);
                if run > MAX_OPERATOR_RUN {
                    return Err(format!("{run} operators in one statement"));
                }
            }
            QUOTE => {
                // To the closing quote or the end of the line, over escaped characters.
                let quote = bytes[i];
                i += 1;
                while let Some(k) = bytes
                    .get(i..)
                    .and_then(|rest| memchr::memchr3(quote, b'\\', b'\n', rest))
                {
                    if bytes[i + k] == b'\\' {
                        i += k + 2;
                    } else {
                        i += k;
                        break;
                    }
                }
                if i < bytes.len() && bytes[i] != quote && bytes[i] != b'\n' {
                    i = bytes.len();
                }
            }
            SLASH if bytes.get(i + 1) == Some(&b'/') => {
                i = memchr::memchr(b'\n', &bytes[i..]).map_or(bytes.len(), |k| i + k);
            }
            SLASH if bytes.get(i + 1) == Some(&b'*') => {
                i += 2;
                i = memchr::memmem::find(&bytes[i..], b"*/").map_or(bytes.len(), |k| i + k + 1);
            }
            _ => {}
        }
        i += 1;
    }
    Ok(Extent {
        depth: max,
        run: longest.max(within.run),
    })
}

const STATEMENT_END: u8 = 1;
const BLOCK_OPEN: u8 = 2;
const BLOCK_CLOSE: u8 = 3;
const GROUP_OPEN: u8 = 4;
const GROUP_CLOSE: u8 = 5;
const OPERATOR: u8 = 6;
const QUOTE: u8 = 7;
const SLASH: u8 = 8;

/// What [`measure`] makes of each byte; 0 for bytes it passes over.
const CLASS: [u8; 256] = {
    let mut class = [0u8; 256];
    class[b';' as usize] = STATEMENT_END;
    class[b'{' as usize] = BLOCK_OPEN;
    class[b'}' as usize] = BLOCK_CLOSE;
    class[b'(' as usize] = GROUP_OPEN;
    class[b'[' as usize] = GROUP_OPEN;
    class[b')' as usize] = GROUP_CLOSE;
    class[b']' as usize] = GROUP_CLOSE;
    let operators = b"+-*%&|^<>?:=";
    let mut k = 0;
    while k < operators.len() {
        class[operators[k] as usize] = OPERATOR;
        k += 1;
    }
    class[b'"' as usize] = QUOTE;
    class[b'\'' as usize] = QUOTE;
    class[b'/' as usize] = SLASH;
    class
};

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn the_flow_pragma_is_read_from_leading_comments_only() {
        for flow in [
            "// @flow\nimport type {A} from './a';",
            "#!/usr/bin/env node\n/**\n * Copyright\n * @flow strict\n */\nexport {};",
            "\u{feff}/* @flow */ x",
            "// license\n\n// @flow weak\nx",
        ] {
            assert!(has_flow_pragma(flow), "{flow:?}");
        }
        for not_flow in [
            "x; // @flow",
            "// @flowtype\nx",
            "const s = '// @flow';",
            "/* unterminated @flow",
            "",
        ] {
            assert!(!has_flow_pragma(not_flow), "{not_flow:?}");
        }
    }

    fn too_deep(text: &str) -> Option<String> {
        measure(text, Extent::default()).err()
    }

    /// The byte-by-byte scan [`measure`] replaced; it must decide exactly the same.
    fn too_deep_byte_by_byte(text: &str) -> Option<String> {
        let bytes = text.as_bytes();
        let (mut depth, mut max, mut run) = (0u32, 0u32, 0u32);
        let mut i = 0;
        while i < bytes.len() {
            match bytes[i] {
                b';' | b'{' | b'}' => {
                    run = 0;
                    if bytes[i] == b'{' {
                        depth += 1;
                        max = max.max(depth);
                        if max > MAX_NESTING {
                            return Some(format!("{max} brackets"));
                        }
                    } else if bytes[i] == b'}' {
                        depth = depth.saturating_sub(1);
                    }
                }
                b'+' | b'-' | b'*' | b'%' | b'&' | b'|' | b'^' | b'<' | b'>' | b'?' | b':'
                | b'=' => {
                    run += 1;
                    if run > MAX_OPERATOR_RUN {
                        return Some(format!("{run} operators in one statement"));
                    }
                }
                b'(' | b'[' => {
                    depth += 1;
                    max = max.max(depth);
                    if max > MAX_NESTING {
                        return Some(format!("{max} brackets"));
                    }
                }
                b')' | b']' => depth = depth.saturating_sub(1),
                quote @ (b'"' | b'\'') => {
                    i += 1;
                    while i < bytes.len() && bytes[i] != quote && bytes[i] != b'\n' {
                        if bytes[i] == b'\\' {
                            i += 1;
                        }
                        i += 1;
                    }
                }
                b'/' if bytes.get(i + 1) == Some(&b'/') => {
                    while i < bytes.len() && bytes[i] != b'\n' {
                        i += 1;
                    }
                }
                b'/' if bytes.get(i + 1) == Some(&b'*') => {
                    i += 2;
                    while i + 1 < bytes.len() && !(bytes[i] == b'*' && bytes[i + 1] == b'/') {
                        i += 1;
                    }
                    i += 1;
                }
                _ => {}
            }
            i += 1;
        }
        None
    }

    fn token() -> impl Strategy<Value = &'static str> {
        prop::sample::select(vec![
            "(", ")", "{", "}", "[", "]", ";", "+", "=", "\"", "'", "\\", "\n", "/", "*", "//",
            "/*", "*/", "a", " ", "é",
        ])
    }

    proptest! {
        #[test]
        fn the_depth_scan_decides_as_the_byte_by_byte_scan_did(
            open in 0usize..2_100,
            head in prop::sample::select(vec!["(", "{", "[", "\"", "/*", "a"]),
            tail in prop::collection::vec(token(), 0..400),
        ) {
            let text = format!("{}{}", head.repeat(open), tail.concat());
            prop_assert_eq!(too_deep(&text), too_deep_byte_by_byte(&text));
        }
    }

    fn parse_text(text: &str, path: &str) -> Parsed {
        parse(&Source::new(text), path)
    }

    #[test]
    fn modules_scripts_jsx_and_typescript_parse() {
        assert!(
            parse_text("import a from 'a'; export const b = a;", "a.js")
                .program
                .is_some()
        );
        assert!(parse_text("with (x) { y }", "a.js").program.is_some());
        assert!(
            parse_text("const a = <div>{b}</div>;", "a.jsx")
                .program
                .is_some()
        );
        assert!(
            parse_text("let a: number = 1 as number;", "a.ts")
                .program
                .is_some()
        );
        assert!(
            parse_text("const a = <T,>(x: T) => <b>{x}</b>;", "a.tsx")
                .program
                .is_some()
        );
        // `a < b > c` is not JSX: the retry without JSX takes it.
        assert!(parse_text("var x = a < b > c;", "a.js").program.is_some());
    }

    #[test]
    fn a_broken_file_gives_diagnostics_not_a_panic() {
        let parsed = parse_text("function (", "a.js");
        assert!(parsed.program.is_none());
        assert!(!parsed.diagnostics.is_empty());
        assert!(
            parsed.diagnostics[0].starts_with("1:"),
            "{:?}",
            parsed.diagnostics
        );
    }

    #[test]
    fn nesting_past_the_bound_is_refused_before_parsing() {
        let deep = format!("x = {}1{};", "[".repeat(5000), "]".repeat(5000));
        let parsed = parse_text(&deep, "deep.js");
        assert!(parsed.program.is_none());
        assert!(parsed.diagnostics[0].contains("nesting deeper"));
        let chain = format!("x = {}1;", "1+".repeat(600_000));
        assert!(parse_text(&chain, "chain.js").program.is_none());
        // Brackets inside strings and comments do not count.
        let quoted = format!("x = '{}'; // {}\n", "(".repeat(5000), "[".repeat(5000));
        assert!(parse_text(&quoted, "q.js").program.is_some());
    }
}

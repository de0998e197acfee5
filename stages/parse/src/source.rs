//! One file's text with a line index: byte spans to positions and exact source slices.

use std::cell::{Cell, OnceCell};

use swc_common::{BytePos, Span};

use crate::facts::{Pos, Range};

/// Where swc positions of a file start; 0 is swc's dummy position.
pub(crate) const BASE: u32 = 1;

/// Longest expression text kept in a fact.
pub(crate) const MAX_EXPRESSION: usize = 4096;

pub(crate) struct Source<'a> {
    pub text: &'a str,
    /// The text columns are counted in: `text` itself, or, for the inline scripts of a page,
    /// the page (`text` is then the page with everything outside the scripts blanked, of the
    /// same length and line breaks, so only the UTF-16 widths of the blanked characters differ).
    columns: &'a str,
    line_starts: Vec<u32>,
    /// The last position computed, so columns on one long minified line cost amortised O(1).
    last: Cell<(u32, Pos)>,
    /// The column at every [`CHECKPOINT_BYTES`] of `columns` (at the character boundary at or
    /// before it), made the first time a position is counted from further back: nested spans
    /// step backwards, and on a one-line bundle of megabytes each step back counted from the
    /// line's start made positions quadratic.
    checkpoints: OnceCell<Vec<(u32, u32)>>,
    /// Code read out of string literals (see [`crate::extract::evals`]), placed after the
    /// file's own positions in order of their start.
    segments: Vec<Segment>,
}

/// Code parsed out of a string literal of the file: its swc positions start at `start`, and
/// each stands for the place in the literal, `outer`, where its character is written (the
/// literal's escapes decoded: `\n` is one character of the code and two of the literal).
struct Segment {
    start: u32,
    text: String,
    outer: Span,
    /// (offset in the code, offset in the literal) every [`SEGMENT_STEP`] bytes of the code,
    /// made the first time a position in the segment is asked for.
    map: OnceCell<Vec<(u32, u32)>>,
}

/// Bytes of a segment's code between two of its map's entries.
const SEGMENT_STEP: u32 = 256;

impl<'a> Source<'a> {
    pub fn new(text: &'a str) -> Source<'a> {
        Source::embedded(text, text)
    }

    /// A source whose `text` stands at the same byte offsets in `page` (see `columns`).
    pub fn embedded(text: &'a str, page: &'a str) -> Source<'a> {
        let page = if page.len() == text.len() { page } else { text };
        let mut line_starts = vec![0u32];
        line_starts.extend(memchr::memchr_iter(b'\n', text.as_bytes()).map(|i| i as u32 + 1));
        Source {
            text,
            columns: page,
            line_starts,
            last: Cell::new((0, Pos { line: 1, column: 0 })),
            checkpoints: OnceCell::new(),
            segments: Vec::new(),
        }
    }

    /// Adds code read out of the string literal at `outer`; returns where its swc positions
    /// start, or `None` when positions would run out (the segment is then not added).
    pub fn add_segment(&mut self, text: String, outer: Span) -> Option<BytePos> {
        let start = match self.segments.last() {
            Some(last) => last.start + last.text.len() as u32 + 1,
            None => BASE + self.text.len() as u32 + 1,
        };
        start.checked_add(text.len() as u32 + 1)?;
        self.segments.push(Segment {
            start,
            text,
            outer,
            map: OnceCell::new(),
        });
        Some(BytePos(start))
    }

    /// The text of the segment `start` begins.
    pub fn segment_text(&self, start: BytePos) -> Option<&str> {
        let at = self.segments.partition_point(|s| s.start < start.0);
        self.segments
            .get(at)
            .filter(|s| s.start == start.0)
            .map(|s| s.text.as_str())
    }

    /// The segment a position lies in, if it lies past the file's own text.
    fn segment_of(&self, pos: BytePos) -> Option<&Segment> {
        if pos.0 <= BASE + self.text.len() as u32 {
            return None;
        }
        let at = self.segments.partition_point(|s| s.start <= pos.0);
        self.segments.get(at.checked_sub(1)?)
    }

    pub fn start(&self) -> BytePos {
        BytePos(BASE)
    }

    pub fn end(&self) -> BytePos {
        BytePos(BASE + self.text.len() as u32)
    }

    /// The byte offset of a swc position, clamped to the text; a position in a segment is
    /// where its character is written in the string literal.
    pub fn offset(&self, pos: BytePos) -> u32 {
        if let Some(segment) = self.segment_of(pos) {
            return self.in_literal(segment, pos);
        }
        pos.0.saturating_sub(BASE).min(self.text.len() as u32)
    }

    /// The byte offset in the file of a position of `segment`: the literal's raw text walked
    /// from the nearest entry of the segment's map, decoding escapes as they come.
    fn in_literal(&self, segment: &Segment, pos: BytePos) -> u32 {
        let len = self.text.len();
        let lo = (segment.outer.lo.0.saturating_sub(BASE) as usize).min(len);
        let hi = (segment.outer.hi.0.saturating_sub(BASE) as usize).clamp(lo, len);
        let raw = self.text.as_bytes().get(lo..hi).unwrap_or_default();
        let inner = pos.0.saturating_sub(segment.start);
        let map = segment.map.get_or_init(|| literal_map(raw));
        let at = map.partition_point(|(i, _)| *i <= inner);
        let (mut i, mut r) = at
            .checked_sub(1)
            .and_then(|at| map.get(at))
            .copied()
            .unwrap_or((0, 0));
        loop {
            let (decoded, written) = literal_char(raw, r as usize);
            // Past a line continuation too: the character is written after it.
            if written == 0 || (i >= inner && decoded > 0) {
                break;
            }
            (i, r) = (i + decoded, r + written);
        }
        (lo as u32 + r).min(hi as u32)
    }

    /// The position of a byte offset: 1-based line, UTF-16 column.
    pub fn pos(&self, offset: u32) -> Pos {
        let line_idx = match self.line_starts.binary_search(&offset) {
            Ok(i) => i,
            Err(i) => i - 1,
        };
        let line_start = self.line_starts[line_idx];
        let (last_offset, last_pos) = self.last.get();
        let line = line_idx as u32 + 1;
        let (mut from, mut column) = if last_pos.line == line && last_offset <= offset {
            (last_offset, last_pos.column)
        } else {
            (line_start, 0)
        };
        if offset - from > CHECKPOINT_BYTES {
            let checkpoints = self.checkpoints.get_or_init(|| checkpoints(self.columns));
            let at = checkpoints.partition_point(|(o, _)| *o <= offset);
            if let Some(&(o, c)) = at.checked_sub(1).and_then(|i| checkpoints.get(i))
                && o > from
            {
                (from, column) = (o, c);
            }
        }
        let column = column + utf16_len(self.slice_bytes(from, offset));
        let pos = Pos { line, column };
        self.last.set((offset, pos));
        pos
    }

    /// The range of a span; a span in a segment has the range in the string literal where
    /// its code is written.
    pub fn range(&self, span: Span) -> Range {
        let start = self.offset(span.lo);
        let end = self.offset(span.hi).max(start);
        Range {
            start: self.pos(start),
            end: self.pos(end),
        }
    }

    /// The text between two offsets, as the columns are counted.
    fn slice_bytes(&self, from: u32, to: u32) -> &str {
        let text = self.columns;
        let (mut from, mut to) = (from as usize, to as usize);
        while from > 0 && !text.is_char_boundary(from) {
            from -= 1;
        }
        while to < text.len() && !text.is_char_boundary(to) {
            to += 1;
        }
        text.get(from..to.min(text.len())).unwrap_or("")
    }

    /// The exact source text of a span (a segment's own text for a span in it).
    pub fn slice(&self, span: Span) -> &str {
        if let Some(segment) = self.segment_of(span.lo) {
            let from = (span.lo.0 - segment.start) as usize;
            let to = (span.hi.0.saturating_sub(segment.start) as usize).min(segment.text.len());
            return segment.text.get(from..to.max(from)).unwrap_or("");
        }
        let (from, to) = (self.offset(span.lo) as usize, self.offset(span.hi) as usize);
        self.text.get(from..to.max(from)).unwrap_or("")
    }

    /// The trimmed source text of a span, cut to [`MAX_EXPRESSION`] bytes.
    pub fn expression(&self, span: Span) -> String {
        let text = self.slice(span).trim();
        if text.is_empty() {
            return "[missing-expression]".to_owned();
        }
        cut(text, MAX_EXPRESSION).to_owned()
    }
}

/// Bytes between two column checkpoints.
const CHECKPOINT_BYTES: u32 = 1024;

/// (offset in the decoded code, offset in `raw`) every [`SEGMENT_STEP`] bytes of the code,
/// `raw` being a string literal as written, quotes included.
fn literal_map(raw: &[u8]) -> Vec<(u32, u32)> {
    let body_end = raw.len().saturating_sub(1);
    let (mut i, mut r) = (0u32, 1u32.min(raw.len() as u32));
    let mut map = vec![(i, r)];
    let mut next = SEGMENT_STEP;
    while (r as usize) < body_end {
        let (decoded, written) = literal_char(raw, r as usize);
        if written == 0 {
            break;
        }
        (i, r) = (i + decoded, r + written);
        if i >= next {
            map.push((i, r));
            next = i + SEGMENT_STEP;
        }
    }
    map
}

/// The character of a string literal's raw text at byte `r`: how many bytes it decodes to
/// (as the code's UTF-8, a lone surrogate as U+FFFD) and how many it is written with; (0, 0)
/// at the end. A line continuation decodes to nothing.
fn literal_char(raw: &[u8], r: usize) -> (u32, u32) {
    let Some(&first) = raw.get(r) else {
        return (0, 0);
    };
    if first != b'\\' {
        let len = utf8_width(first);
        return (len, len);
    }
    let Some(&escaped) = raw.get(r + 1) else {
        return (0, 1);
    };
    let hex = |from: usize, to: usize| {
        raw.get(from..to)
            .and_then(|h| std::str::from_utf8(h).ok())
            .and_then(|h| u32::from_str_radix(h, 16).ok())
    };
    match escaped {
        b'\n' => (0, 2),
        b'\r' => (0, if raw.get(r + 2) == Some(&b'\n') { 3 } else { 2 }),
        b'x' => match hex(r + 2, r + 4) {
            Some(v) => (code_point_width(v), 4),
            None => (1, 2),
        },
        b'u' if raw.get(r + 2) == Some(&b'{') => {
            let close = raw[r + 2..]
                .iter()
                .position(|&b| b == b'}')
                .map(|p| r + 2 + p);
            match close.and_then(|c| Some((hex(r + 3, c)?, c))) {
                Some((v, c)) => (code_point_width(v), (c + 1 - r) as u32),
                None => (1, 2),
            }
        }
        b'u' => match hex(r + 2, r + 6) {
            // A surrogate pair written as two escapes is one character of four bytes.
            Some(0xD800..=0xDBFF)
                if raw.get(r + 6..r + 8) == Some(b"\\u")
                    && hex(r + 8, r + 12).is_some_and(|low| (0xDC00..=0xDFFF).contains(&low)) =>
            {
                (4, 12)
            }
            Some(v) => (code_point_width(v), 6),
            None => (1, 2),
        },
        b'0'..=b'7' => {
            let digits = raw[r + 1..]
                .iter()
                .take(if escaped <= b'3' { 3 } else { 2 })
                .take_while(|b| (b'0'..=b'7').contains(b))
                .count();
            let value = std::str::from_utf8(&raw[r + 1..r + 1 + digits])
                .ok()
                .and_then(|d| u32::from_str_radix(d, 8).ok())
                .unwrap_or(0);
            (code_point_width(value), 1 + digits as u32)
        }
        _ => {
            let len = utf8_width(escaped);
            // U+2028 and U+2029 after a backslash continue the line, as a line break does.
            let continues = matches!(raw.get(r + 1..r + 4), Some([0xE2, 0x80, 0xA8 | 0xA9]));
            (if continues { 0 } else { len }, 1 + len)
        }
    }
}

/// The bytes of the UTF-8 character a leading byte starts (1 for a byte no character starts
/// with, so a walk always moves on).
fn utf8_width(first: u8) -> u32 {
    match first {
        0xF0..=0xF7 => 4,
        0xE0..=0xEF => 3,
        0xC0..=0xDF => 2,
        _ => 1,
    }
}

/// The UTF-8 width of a code point decoded from an escape; a surrogate or a value past Unicode
/// is U+FFFD, three bytes.
fn code_point_width(value: u32) -> u32 {
    match char::from_u32(value) {
        Some(c) => c.len_utf8() as u32,
        None => 3,
    }
}

/// The UTF-16 column, within its line, of each character boundary at or before a multiple of
/// [`CHECKPOINT_BYTES`]: (offset, column), by offset.
fn checkpoints(text: &str) -> Vec<(u32, u32)> {
    let step = CHECKPOINT_BYTES as usize;
    let mut out = Vec::with_capacity(text.len() / step + 1);
    let (mut at, mut column) = (0usize, 0u32);
    while at < text.len() {
        out.push((at as u32, column));
        let mut next = (at + step).min(text.len());
        while !text.is_char_boundary(next) {
            next -= 1;
        }
        let block = &text[at..next];
        column = match memchr::memrchr(b'\n', block.as_bytes()) {
            Some(newline) => utf16_len(&block[newline + 1..]),
            None => column + utf16_len(block),
        };
        at = next;
    }
    out
}

fn utf16_len(text: &str) -> u32 {
    if text.is_ascii() {
        return text.len() as u32;
    }
    text.chars().map(|c| c.len_utf16() as u32).sum()
}

/// `text` cut to at most `max` bytes on a character boundary.
pub fn cut(text: &str, max: usize) -> &str {
    if text.len() <= max {
        return text;
    }
    let mut end = max;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    &text[..end]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_count_utf16_units_and_lines_start_at_one() {
        let source = Source::new("ab\n\u{1F600}x\ny");
        assert_eq!(source.pos(0), Pos { line: 1, column: 0 });
        assert_eq!(source.pos(3), Pos { line: 2, column: 0 });
        // The emoji is 4 UTF-8 bytes and 2 UTF-16 units.
        assert_eq!(source.pos(7), Pos { line: 2, column: 2 });
        assert_eq!(source.pos(9), Pos { line: 3, column: 0 });
        // Going backwards does not reuse the cache wrongly.
        assert_eq!(source.pos(1), Pos { line: 1, column: 1 });
    }

    /// Positions counted from the line's start, without any cache.
    fn naive(text: &str, offset: u32) -> Pos {
        let offset = offset as usize;
        let before = &text[..offset];
        let line_start = before.rfind('\n').map_or(0, |i| i + 1);
        Pos {
            line: before.matches('\n').count() as u32 + 1,
            column: utf16_len(&text[line_start..offset]),
        }
    }

    proptest::proptest! {
        #[test]
        fn positions_agree_with_counting_from_the_line_start_in_any_order(
            parts in proptest::collection::vec(
                proptest::prop_oneof!["[a-z ]{0,3000}", "[\u{e9}\u{1F600}x]{0,700}", "\n"],
                1..8,
            ),
            picks in proptest::collection::vec(0.0f64..1.0, 1..40),
        ) {
            let text: String = parts.concat();
            let source = Source::new(&text);
            let boundaries: Vec<usize> =
                (0..=text.len()).filter(|i| text.is_char_boundary(*i)).collect();
            for pick in picks {
                let offset = boundaries[(pick * (boundaries.len() - 1) as f64) as usize] as u32;
                proptest::prop_assert_eq!(source.pos(offset), naive(&text, offset));
            }
        }
    }

    #[test]
    fn a_segment_stands_for_its_string_literal() {
        let text = "f();\neval(\"g(1)\");\n";
        let mut source = Source::new(text);
        // The literal `"g(1)"` spans bytes 10..16, that is swc positions 11..17.
        let outer = Span::new(BytePos(11), BytePos(17));
        let start = source.add_segment("g(1)".to_owned(), outer).unwrap();
        assert!(
            start.0 > BASE + text.len() as u32,
            "after the file's own positions"
        );
        assert_eq!(source.segment_text(start), Some("g(1)"));
        let inner = Span::new(BytePos(start.0 + 2), BytePos(start.0 + 3));
        assert_eq!(source.slice(inner), "1");
        // The `1` written at byte 13, inside the literal.
        assert_eq!(source.offset(inner.lo), 13);
        assert_eq!(
            source.range(inner),
            Range {
                start: Pos { line: 2, column: 8 },
                end: Pos { line: 2, column: 9 }
            }
        );
        // A second segment starts after the first, and the file's own spans are unchanged.
        let second = source.add_segment("h()".to_owned(), outer).unwrap();
        assert!(second.0 > start.0 + 4);
        let own = Span::new(BytePos(1), BytePos(4));
        assert_eq!(source.slice(own), "f()");
    }

    /// One character of code as a string literal may write it: as itself, or escaped.
    fn written(c: char, how: u8) -> String {
        let code = c as u32;
        match how % 6 {
            1 => match c.len_utf16() {
                1 => format!("\\u{code:04X}"),
                _ => {
                    let mut units = [0u16; 2];
                    c.encode_utf16(&mut units);
                    format!("\\u{:04X}\\u{:04X}", units[0], units[1])
                }
            },
            2 => format!("\\u{{{code:x}}}"),
            3 if code < 0x100 => format!("\\x{code:02x}"),
            4 if c.is_ascii_alphabetic() && !"bfnrtvux".contains(c) => format!("\\{c}"),
            // A line continuation before the character, which decodes to nothing.
            5 => format!("\\\n{}", written(c, 0)),
            _ => match c {
                '"' | '\\' => format!("\\{c}"),
                '\n' => "\\n".to_owned(),
                '\r' => "\\r".to_owned(),
                '\u{2028}' | '\u{2029}' => format!("\\u{code:04X}"),
                c => c.to_string(),
            },
        }
    }

    proptest::proptest! {
        #[test]
        fn a_position_in_a_segment_is_where_its_character_is_written(
            chars in proptest::collection::vec(
                (proptest::prop_oneof![
                    proptest::char::range('a', 'z'),
                    proptest::char::range('\u{0}', '\u{7f}'),
                    proptest::char::range('\u{80}', '\u{7ff}'),
                    proptest::char::range('\u{800}', '\u{ffff}'),
                    proptest::char::range('\u{10000}', '\u{10ffff}'),
                ], 0u8..6),
                0..700,
            ),
            picks in proptest::collection::vec(0.0f64..1.0, 1..30),
        ) {
            let code: String = chars.iter().map(|(c, _)| *c).collect();
            let mut literal = String::from("\"");
            // Where each character of the code starts, in the code and in the literal.
            let mut starts = Vec::new();
            let mut at = 0usize;
            for (c, how) in &chars {
                let w = written(*c, *how);
                // A line continuation's own bytes come before the character.
                let lead = if w.starts_with("\\\n") { 2 } else { 0 };
                starts.push((at, literal.len() + lead));
                literal.push_str(&w);
                at += c.len_utf8();
            }
            starts.push((at, literal.len()));
            literal.push('"');
            let text = format!("eval({literal});");
            let mut source = Source::new(&text);
            let outer = Span::new(BytePos(BASE + 5), BytePos(BASE + 5 + literal.len() as u32));
            let start = source.add_segment(code.clone(), outer).unwrap();
            for pick in picks {
                let (inner, expected) = starts[(pick * (starts.len() - 1) as f64) as usize];
                let pos = BytePos(start.0 + inner as u32);
                proptest::prop_assert_eq!(source.offset(pos) as usize, 5 + expected, "{:?}", literal);
            }
        }
    }

    #[test]
    fn cut_respects_character_boundaries() {
        assert_eq!(cut("héllo", 2), "h");
        assert_eq!(cut("abc", 10), "abc");
    }
}

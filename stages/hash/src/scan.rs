//! A one-pass check that a text is already in RFC 8785 canonical form, for the text REA
//! itself writes: no whitespace, integers within the safe range, strings escaped as JCS
//! escapes them, object keys without escapes in strictly increasing UTF-16 order.
//!
//! It answers only "certainly canonical"; anything else (a float, an escaped key, a
//! difference, text that is not JSON, nesting past [`MAX_DEPTH`]) is left to the transcoding
//! check in [`crate::canonical`], which stays the judge: this scan accelerates the common
//! case and never decides a negative. No crate checks canonical form; `serde_jcs` only
//! writes it, and the transcoding check built on it costs about three times this scan.

/// Deepest nesting the scan follows; deeper text is left to the transcoding check (whose
/// parser stops at 128 levels anyway).
const MAX_DEPTH: usize = 128;

/// Largest integer JCS writes as digits exactly (`Number.MAX_SAFE_INTEGER`).
const MAX_SAFE_INTEGER: u64 = (1 << 53) - 1;

/// True only when `text` is certainly exactly the canonical form of the one JSON value it
/// holds. False means "not shown": the caller decides by a full check.
pub(crate) fn surely_canonical(text: &str) -> bool {
    let bytes = text.as_bytes();
    // Per open container: whether it is an object, and its previous key (start, end).
    let mut objects = [false; MAX_DEPTH];
    let mut previous: [Option<(usize, usize)>; MAX_DEPTH] = [None; MAX_DEPTH];
    let mut depth = 0usize;
    let mut i = 0usize;
    // Whether the next token is an object key (else a value).
    let mut expect_key = false;
    loop {
        if expect_key {
            // `"key":` with no escape in the key, after the previous key in UTF-16 order.
            let Some(end) = string_end(bytes, i) else {
                return false;
            };
            let key = (i + 1, end - 1);
            if bytes[key.0..key.1].contains(&b'\\') {
                return false;
            }
            if let Some(before) = previous[depth - 1]
                && !crate::canonical::utf16_lt(&text[before.0..before.1], &text[key.0..key.1])
            {
                return false;
            }
            previous[depth - 1] = Some(key);
            if bytes.get(end) != Some(&b':') {
                return false;
            }
            i = end + 1;
        }
        // A value.
        match bytes.get(i) {
            Some(b'{' | b'[') => {
                let object = bytes[i] == b'{';
                let close = if object { b'}' } else { b']' };
                i += 1;
                if bytes.get(i) == Some(&close) {
                    i += 1;
                } else {
                    if depth == MAX_DEPTH {
                        return false;
                    }
                    objects[depth] = object;
                    previous[depth] = None;
                    depth += 1;
                    expect_key = object;
                    continue;
                }
            }
            Some(b'"') => match string_end(bytes, i) {
                Some(end) => i = end,
                None => return false,
            },
            Some(b't') if bytes[i..].starts_with(b"true") => i += 4,
            Some(b'f') if bytes[i..].starts_with(b"false") => i += 5,
            Some(b'n') if bytes[i..].starts_with(b"null") => i += 4,
            Some(b'-' | b'0'..=b'9') => match integer_end(bytes, i) {
                Some(end) => i = end,
                None => return false,
            },
            _ => return false,
        }
        // After a value: close containers, or a separator before the next item.
        loop {
            if depth == 0 {
                return i == bytes.len();
            }
            let object = objects[depth - 1];
            match bytes.get(i) {
                Some(b',') => {
                    i += 1;
                    expect_key = object;
                    break;
                }
                Some(b'}') if object => {
                    i += 1;
                    depth -= 1;
                }
                Some(b']') if !object => {
                    i += 1;
                    depth -= 1;
                }
                _ => return false,
            }
        }
    }
}

/// The end (one past the closing quote) of the string opening at `start`, when it is
/// escaped exactly as JCS escapes: `\"`, `\\`, `\b`, `\t`, `\n`, `\f`, `\r`, and `\u00xx`
/// (lowercase) only for the other control characters; no raw control character.
fn string_end(bytes: &[u8], start: usize) -> Option<usize> {
    if bytes.get(start) != Some(&b'"') {
        return None;
    }
    let mut at = start + 1;
    loop {
        let run = memchr::memchr2(b'"', b'\\', bytes.get(at..)?)?;
        // A raw control character is not JSON; `|` over the run keeps the loop branch-free.
        if bytes[at..at + run]
            .iter()
            .fold(false, |seen, &b| seen | (b < 0x20))
        {
            return None;
        }
        at += run;
        if bytes[at] == b'"' {
            return Some(at + 1);
        }
        match bytes.get(at + 1)? {
            b'"' | b'\\' | b'b' | b't' | b'n' | b'f' | b'r' => at += 2,
            b'u' => {
                let code = bytes.get(at + 2..at + 6)?;
                let hex = |b: u8| match b {
                    b'0'..=b'9' => Some(b - b'0'),
                    b'a'..=b'f' => Some(b - b'a' + 10),
                    _ => None,
                };
                if &code[..2] != b"00" {
                    return None;
                }
                let value = hex(code[2])? * 16 + hex(code[3])?;
                // Only control characters without a short escape are written as `\u00xx`.
                if value >= 0x20 || matches!(value, 0x08 | 0x09 | 0x0a | 0x0c | 0x0d) {
                    return None;
                }
                at += 6;
            }
            _ => return None,
        }
    }
}

/// The end of the integer starting at `start`, when JCS writes it so: no leading zero, no
/// `-0`, no fraction or exponent, at most `MAX_SAFE_INTEGER` in magnitude.
fn integer_end(bytes: &[u8], start: usize) -> Option<usize> {
    let negative = bytes[start] == b'-';
    let digits_start = start + usize::from(negative);
    let digits = bytes
        .get(digits_start..)?
        .iter()
        .take_while(|b| b.is_ascii_digit())
        .count();
    let end = digits_start + digits;
    if digits == 0 || digits > 16 || matches!(bytes.get(end), Some(b'.' | b'e' | b'E')) {
        return None;
    }
    let text = &bytes[digits_start..end];
    if text[0] == b'0' && (digits > 1 || negative) {
        return None;
    }
    let value = text.iter().fold(0u64, |n, &d| n * 10 + u64::from(d - b'0'));
    (value <= MAX_SAFE_INTEGER).then_some(end)
}

#[cfg(test)]
mod tests {
    use super::surely_canonical;

    #[test]
    fn canonical_text_is_recognised() {
        for text in [
            r#"{"a":1,"b":[true,false,null],"c":{"d":"e"}}"#,
            r#"[]"#,
            r#"{}"#,
            r#""x""#,
            "0",
            "-12",
            "9007199254740991",
            r#"{"a":[],"b":{},"c":[[],{}]}"#,
            r#""\"\\\b\t\n\f\r\u0000\u001f/é😀""#,
            r#"{"":0,"a":1}"#,
        ] {
            assert!(surely_canonical(text), "{text}");
        }
    }

    #[test]
    fn anything_else_is_left_to_the_full_check() {
        for text in [
            r#"{"b":1,"a":2}"#,
            r#"{"a":1,"a":2}"#,
            r#"{ "a":1}"#,
            r#"[1 ,2]"#,
            r#"[1,2] "#,
            r#""\u001F""#,
            r#""\u0041""#,
            r#""\u0009""#,
            r#""\/""#,
            "\"a\u{1}b\"",
            "1.0",
            "1e3",
            "-0",
            "01",
            "9007199254740992",
            r#"{"\u0061":1}"#,
            r#"[1,]"#,
            r#"{"a":1,}"#,
            r#"{"a"1}"#,
            r#"[1}"#,
            r#"{"a":1]"#,
            r#"tru"#,
            r#""unterminated"#,
            "",
            "[1][2]",
        ] {
            assert!(!surely_canonical(text), "{text}");
        }
    }

    #[test]
    fn keys_follow_utf16_order_not_utf8_order() {
        // U+FF61 sorts before U+1F600 in UTF-8 bytes but after it in UTF-16 code units
        // (U+1F600 is the surrogate pair D83D DE00).
        assert!(surely_canonical("{\"\u{1f600}\":1,\"\u{ff61}\":2}"));
        assert!(!surely_canonical("{\"\u{ff61}\":1,\"\u{1f600}\":2}"));
    }

    #[test]
    fn nesting_past_the_bound_is_left_to_the_full_check() {
        let deep = format!("{}{}", "[".repeat(200), "]".repeat(200));
        assert!(!surely_canonical(&deep));
        let fits = format!("{}1{}", "[".repeat(100), "]".repeat(100));
        assert!(surely_canonical(&fits));
    }
}

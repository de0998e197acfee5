//! Canonical JSON (RFC 8785, "JCS") and content ids.
//!
//! Every id REA publishes is `prefix + lowercase_hex(SHA-256(JCS(value)))`, where `value` is a
//! small JSON object named in the recipe of that id. JCS sorts object keys by UTF-16 code
//! units, prints numbers the ECMAScript way and writes no whitespace, so the same value gives
//! the same bytes on every machine and thread count.
//!
//! `serde_jcs` defines the bytes. It buffers every object and sorts its keys, which costs about
//! ten times plain `serde_json`; on a 2,000-file inventory that was most of the graph stage.
//! So this module first tries a fast path: `serde_json`'s compact output through a
//! [`CheckingFormatter`] that watches every key and number. When every object's keys already
//! arrive in UTF-16 order and no float appears, compact output *is* the JCS output (same
//! escapes, same integers, no whitespace). Otherwise the fast attempt is discarded and
//! `serde_jcs` serializes the value. REA's own types declare their fields in sorted order so
//! that they take the fast path; a property test checks both paths agree on arbitrary values.

use std::io::{self, Write};

use serde::Serialize;
use serde_json::ser::{CharEscape, CompactFormatter, Formatter};
use sha2::{Digest, Sha256};

/// A value that has no canonical form (a non-finite number, or a failing `Serialize`).
#[derive(Debug, thiserror::Error)]
#[error("value has no canonical json form")]
pub struct CanonicalError {
    #[source]
    source: serde_json::Error,
}

impl CanonicalError {
    pub(crate) fn from_json(source: serde_json::Error) -> Self {
        CanonicalError { source }
    }

    /// Canonical pieces that cannot be composed as asked (a repeated key, a non-object).
    pub(crate) fn composition(problem: &str) -> Self {
        CanonicalError {
            source: serde::ser::Error::custom(problem),
        }
    }
}

/// The canonical bytes of `value`.
pub fn canonical_bytes<T: Serialize + ?Sized>(value: &T) -> Result<Vec<u8>, CanonicalError> {
    let mut fast = Vec::with_capacity(256);
    if try_fast(&mut fast, value)? {
        return Ok(fast);
    }
    serde_jcs::to_vec(value).map_err(|source| CanonicalError { source })
}

/// Arrays at least this long (at most [`PAR_DEPTH`] levels down) are serialized and dropped in
/// parallel chunks.
const PAR_MIN_ITEMS: usize = 1024;
const PAR_CHUNK: usize = 256;
/// Objects this shallow are walked key by key; deeper values are serialized whole.
const PAR_DEPTH: usize = 4;

/// [`canonical_bytes`] of a JSON value, with long arrays near the root (a graph's nodes and
/// edges, an inventory's occurrences) serialized in parallel chunks on the current rayon pool.
/// The bytes are the same: JCS of an array is its items' JCS joined by commas, and of an
/// object its members' in UTF-16 key order.
pub fn canonical_value_bytes(value: &serde_json::Value) -> Result<Vec<u8>, CanonicalError> {
    let mut out = Vec::new();
    write_value(value, 0, &mut out)?;
    Ok(out)
}

fn write_value(
    value: &serde_json::Value,
    depth: usize,
    out: &mut Vec<u8>,
) -> Result<(), CanonicalError> {
    use rayon::prelude::*;
    use serde_json::Value;
    match value {
        Value::Array(items) if depth < PAR_DEPTH && items.len() >= PAR_MIN_ITEMS => {
            let parts: Vec<Vec<u8>> = items
                .par_chunks(PAR_CHUNK)
                .map(|chunk| {
                    let mut buf = Vec::new();
                    for (i, item) in chunk.iter().enumerate() {
                        if i > 0 {
                            buf.push(b',');
                        }
                        write_value(item, depth + 1, &mut buf)?;
                    }
                    Ok(buf)
                })
                .collect::<Result<_, CanonicalError>>()?;
            out.reserve(parts.iter().map(|p| p.len() + 1).sum::<usize>() + 2);
            out.push(b'[');
            for (i, part) in parts.iter().enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                out.extend_from_slice(part);
            }
            out.push(b']');
        }
        Value::Object(map) if depth < PAR_DEPTH => {
            let mut keys: Vec<&String> = map.keys().collect();
            keys.sort_by(|a, b| a.encode_utf16().cmp(b.encode_utf16()));
            out.push(b'{');
            for (i, key) in keys.into_iter().enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                // serde_json's string escapes are JCS's (the fast path relies on the same fact).
                serde_json::to_writer(&mut *out, key)
                    .map_err(|source| CanonicalError { source })?;
                out.push(b':');
                write_value(&map[key], depth + 1, out)?;
            }
            out.push(b'}');
        }
        other => out.extend_from_slice(&canonical_bytes(other)?),
    }
    Ok(())
}

/// Whether `bytes` are exactly the canonical form of the JSON they hold, checked without
/// building a value: the text is transcoded (deserializer events fed straight to the
/// canonical serializer) and the output compared with the input as it is written. Long
/// arrays near the root (at most [`PAR_DEPTH`] levels down) are checked item by item in
/// parallel, after checking that the text around their items is exactly `[`, `,` and `]`
/// (and, for objects on the way, `{`, canonically escaped keys in UTF-16 order, `:` and `}`).
/// Anything the fast serializer would write differently (a float, a key out of order) is
/// settled by the slow path: parse, serialize with `serde_jcs`, compare. An error means the
/// bytes are not JSON.
pub fn is_canonical(bytes: &[u8]) -> Result<bool, serde_json::Error> {
    let text = std::str::from_utf8(bytes).map_err(|_| {
        serde_json::from_slice::<serde::de::IgnoredAny>(bytes)
            .err()
            .unwrap_or_else(|| serde::de::Error::custom("invalid UTF-8"))
    })?;
    canonical_at(text, 0)
}

fn canonical_at(text: &str, depth: usize) -> Result<bool, serde_json::Error> {
    use serde_json::value::RawValue;
    if depth < PAR_DEPTH {
        let offset = |raw: &RawValue| raw.get().as_ptr() as usize - text.as_ptr() as usize;
        match text.as_bytes().first() {
            Some(b'[') => {
                let items: Vec<&RawValue> = serde_json::from_str(text)?;
                if items.len() >= PAR_MIN_ITEMS {
                    return Ok(framed_exactly(text, &items) && items_canonical(&items, depth + 1)?);
                }
            }
            Some(b'{') => {
                let members = serde_json::from_str::<RawObject<'_>>(text)?.0;
                let mut pos = 1;
                for (i, (key, raw)) in members.iter().enumerate() {
                    if i > 0 {
                        let previous = &members[i - 1].0;
                        if text.as_bytes().get(pos) != Some(&b',')
                            || !previous.encode_utf16().lt(key.encode_utf16())
                        {
                            return Ok(false);
                        }
                        pos += 1;
                    }
                    let mut name = serde_json::to_string(key)?;
                    name.push(':');
                    if !text[pos..].starts_with(&name) || offset(raw) != pos + name.len() {
                        return Ok(false);
                    }
                    pos += name.len() + raw.get().len();
                }
                if &text[pos..] != "}" {
                    return Ok(false);
                }
                for (_, raw) in &members {
                    if !canonical_at(raw.get(), depth + 1)? {
                        return Ok(false);
                    }
                }
                return Ok(true);
            }
            _ => {}
        }
    }
    transcoded_equals(text)
}

/// The items of the JSON array `text`, when the whole array is canonical: the text around the
/// items is exactly `[`, `,` and `]`, and every item is canonical (checked in parallel).
/// `None` when it is not canonical; an error when it is not an array.
pub fn canonical_array_items(
    text: &str,
) -> Result<Option<Vec<&serde_json::value::RawValue>>, serde_json::Error> {
    let items: Vec<&serde_json::value::RawValue> = serde_json::from_str(text)?;
    let canonical = framed_exactly(text, &items) && items_canonical(&items, PAR_DEPTH)?;
    Ok(canonical.then_some(items))
}

/// True when `text` is exactly `[` + the items joined by `,` + `]`.
fn framed_exactly(text: &str, items: &[&serde_json::value::RawValue]) -> bool {
    let offset =
        |raw: &serde_json::value::RawValue| raw.get().as_ptr() as usize - text.as_ptr() as usize;
    if !text.starts_with('[') {
        return false;
    }
    let mut pos = 1;
    for (i, item) in items.iter().enumerate() {
        if i > 0 {
            if text.as_bytes().get(pos) != Some(&b',') {
                return false;
            }
            pos += 1;
        }
        if offset(item) != pos {
            return false;
        }
        pos += item.get().len();
    }
    &text[pos..] == "]"
}

/// Whether every one of `items` (each a JSON value found in a larger text) is canonical text,
/// checked in parallel. The text around them is the caller's to check.
pub fn canonical_items(items: &[&serde_json::value::RawValue]) -> Result<bool, serde_json::Error> {
    items_canonical(items, PAR_DEPTH)
}

fn items_canonical(
    items: &[&serde_json::value::RawValue],
    depth: usize,
) -> Result<bool, serde_json::Error> {
    use rayon::prelude::*;
    items
        .par_iter()
        .with_min_len(PAR_CHUNK)
        .map(|item| canonical_at(item.get(), depth))
        .try_reduce(|| true, |a, b| Ok(a && b))
}

/// Transcodes `text` through the canonical serializer, comparing as it writes; text the
/// one-pass scan shows canonical (nearly all REA writes) skips the transcoding.
fn transcoded_equals(text: &str) -> Result<bool, serde_json::Error> {
    if crate::scan::surely_canonical(text) {
        return Ok(true);
    }
    let mut formatter = CheckingFormatter::default();
    let mut compare = Compare {
        expected: text.as_bytes(),
        pos: 0,
        differs: false,
    };
    let mut de = serde_json::Deserializer::from_str(text);
    let transcoded = {
        let mut ser = serde_json::Serializer::with_formatter(&mut compare, &mut formatter);
        serde_transcode::transcode(&mut de, &mut ser)
    };
    match transcoded {
        Ok(()) => {
            de.end()?;
            Ok(!formatter.diverged && compare.pos == text.len())
        }
        Err(_) if compare.differs => Ok(false),
        Err(_) if formatter.diverged => {
            let value: serde_json::Value = serde_json::from_str(text)?;
            Ok(canonical_bytes(&value).is_ok_and(|c| c == text.as_bytes()))
        }
        Err(err) => Err(err),
    }
}

/// A writer that compares what it is given with `expected` and fails at the first difference.
struct Compare<'a> {
    expected: &'a [u8],
    pos: usize,
    differs: bool,
}

impl Write for Compare<'_> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let end = self.pos + buf.len();
        if self.expected.get(self.pos..end) != Some(buf) {
            self.differs = true;
            return Err(io::Error::other("differs from the canonical form"));
        }
        self.pos = end;
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// Parses JSON text into a value, with long arrays near the root (at most [`PAR_DEPTH`] levels
/// down) parsed item by item in parallel on the current rayon pool: their items are first
/// delimited (a scan, no allocation), then parsed independently. The value is the one
/// `serde_json::from_slice` gives, duplicate keys included (the last one wins in both).
pub fn parse_value_parallel(bytes: &[u8]) -> Result<serde_json::Value, serde_json::Error> {
    let text = std::str::from_utf8(bytes).map_err(|_| {
        // Let serde_json report invalid UTF-8 the way it always does.
        serde_json::from_slice::<serde_json::Value>(bytes)
            .err()
            .unwrap_or_else(|| serde::de::Error::custom("invalid UTF-8"))
    })?;
    parse_at(text, 0)
}

fn parse_at(text: &str, depth: usize) -> Result<serde_json::Value, serde_json::Error> {
    use rayon::prelude::*;
    use serde_json::value::RawValue;
    use serde_json::{Map, Value};
    if depth >= PAR_DEPTH {
        return serde_json::from_str(text);
    }
    match text.trim_start().as_bytes().first() {
        Some(b'[') => {
            let items: Vec<&RawValue> = serde_json::from_str(text)?;
            if items.len() < PAR_MIN_ITEMS {
                return serde_json::from_str(text);
            }
            let values = items
                .par_iter()
                .with_min_len(PAR_CHUNK)
                .map(|item| parse_at(item.get(), depth + 1))
                .collect::<Result<Vec<Value>, _>>()?;
            Ok(Value::Array(values))
        }
        Some(b'{') => {
            let members: Vec<(String, &RawValue)> = serde_json::from_str::<RawObject<'_>>(text)?.0;
            let mut map = Map::new();
            for (key, raw) in members {
                map.insert(key, parse_at(raw.get(), depth + 1)?);
            }
            Ok(Value::Object(map))
        }
        _ => serde_json::from_str(text),
    }
}

/// An object's members in document order, values left unparsed.
struct RawObject<'a>(Vec<(String, &'a serde_json::value::RawValue)>);

impl<'de: 'a, 'a> serde::Deserialize<'de> for RawObject<'a> {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Members<'a>(std::marker::PhantomData<&'a ()>);
        impl<'de: 'a, 'a> serde::de::Visitor<'de> for Members<'a> {
            type Value = RawObject<'a>;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a JSON object")
            }
            fn visit_map<M: serde::de::MapAccess<'de>>(
                self,
                mut access: M,
            ) -> Result<Self::Value, M::Error> {
                let mut members = Vec::new();
                while let Some((key, value)) =
                    access.next_entry::<String, &'de serde_json::value::RawValue>()?
                {
                    members.push((key, value));
                }
                Ok(RawObject(members))
            }
        }
        deserializer.deserialize_map(Members(std::marker::PhantomData))
    }
}

/// Drops a JSON value, freeing long arrays near the root in parallel: a graph of millions of
/// values otherwise takes one core seconds to free.
pub fn drop_value_parallel(value: serde_json::Value) {
    use rayon::prelude::*;
    use serde_json::Value;
    fn go(value: Value, depth: usize) {
        match value {
            Value::Array(items) if depth < PAR_DEPTH && items.len() >= PAR_MIN_ITEMS => items
                .into_par_iter()
                .with_min_len(PAR_CHUNK)
                .for_each(|item| go(item, depth + 1)),
            Value::Object(map) if depth < PAR_DEPTH => {
                for (_, child) in map {
                    go(child, depth + 1);
                }
            }
            other => drop(other),
        }
    }
    go(value, 0);
}

/// Lowercase hex SHA-256 of the canonical bytes of `value`, streamed into the hasher.
pub fn digest_canonical<T: Serialize + ?Sized>(value: &T) -> Result<String, CanonicalError> {
    // Serializers write a token at a time; feed the hasher in 8 KiB runs instead.
    let mut fast = io::BufWriter::with_capacity(8192, HashWriter(Sha256::new()));
    if try_fast(&mut fast, value)? {
        let hasher = fast.into_inner().map_err(|err| CanonicalError {
            source: serde_json::Error::io(err.into_error()),
        })?;
        return Ok(hex_digest(hasher.0.finalize()));
    }
    let mut slow = HashWriter(Sha256::new());
    serde_jcs::to_writer(&mut slow, value).map_err(|source| CanonicalError { source })?;
    Ok(hex_digest(slow.0.finalize()))
}

/// An array whose items' canonical forms can be produced independently, in parallel.
pub trait CanonicalArray: Sync {
    fn item_count(&self) -> usize;
    /// Appends the canonical bytes of item `idx` to `out`.
    fn write_item(&self, idx: usize, out: &mut Vec<u8>) -> Result<(), CanonicalError>;
}

impl<T: Serialize + Sync> CanonicalArray for &[T] {
    fn item_count(&self) -> usize {
        self.len()
    }

    fn write_item(&self, idx: usize, out: &mut Vec<u8>) -> Result<(), CanonicalError> {
        let start = out.len();
        if try_fast(out, &self[idx])? {
            return Ok(());
        }
        // The fast attempt may have written a prefix before it gave up: start the item again.
        out.truncate(start);
        serde_jcs::to_writer(out, &self[idx]).map_err(|source| CanonicalError { source })
    }
}

/// Items per chunk, and chunks in flight, when an array is serialized in parallel.
const ITEMS_PER_CHUNK: usize = 1024;
const CHUNKS_IN_FLIGHT: usize = 16;

/// Lowercase hex SHA-256 of the canonical JSON of an object whose members are all arrays,
/// such as `{"edges": [...], "nodes": [...]}`. Chunks of items are serialized on the current
/// rayon pool and hashed in order, a bounded number at a time. The result equals
/// [`digest_canonical`] of the same object: a canonical array is `[`, its items' canonical
/// forms joined by `,`, and `]`; `members` must be given in canonical key order (checked).
pub fn digest_object_of_arrays(
    members: &[(&str, &dyn CanonicalArray)],
) -> Result<String, CanonicalError> {
    use rayon::prelude::*;
    let plain_key = |k: &str| k.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_');
    let sorted = members
        .windows(2)
        .all(|w| w[0].0.encode_utf16().lt(w[1].0.encode_utf16()));
    if !sorted || !members.iter().all(|(k, _)| plain_key(k)) {
        return Err(CanonicalError {
            source: serde_json::Error::io(io::Error::other("member keys are not canonical")),
        });
    }
    let mut hasher = Sha256::new();
    hasher.update(b"{");
    for (idx, (key, array)) in members.iter().enumerate() {
        if idx > 0 {
            hasher.update(b",");
        }
        hasher.update(format!("\"{key}\":[").as_bytes());
        let n_chunks = array.item_count().div_ceil(ITEMS_PER_CHUNK);
        let serialize = |window: &[usize]| -> Result<Vec<(usize, Vec<u8>)>, CanonicalError> {
            window
                .par_iter()
                .map(|&chunk| {
                    let start = chunk * ITEMS_PER_CHUNK;
                    let end = (start + ITEMS_PER_CHUNK).min(array.item_count());
                    let mut out = Vec::with_capacity(256 * (end - start));
                    for item in start..end {
                        if item > start {
                            out.push(b',');
                        }
                        array.write_item(item, &mut out)?;
                    }
                    Ok((chunk, out))
                })
                .collect()
        };
        let absorb = |hasher: &mut Sha256, parts: Vec<(usize, Vec<u8>)>| {
            for (chunk, part) in parts {
                if chunk > 0 {
                    hasher.update(b",");
                }
                hasher.update(&part);
            }
        };
        // Each window is hashed while the next one is serialized.
        let chunks: Vec<usize> = (0..n_chunks).collect();
        let mut pending = Vec::new();
        for window in chunks.chunks(CHUNKS_IN_FLIGHT) {
            let (next, ()) = rayon::join(
                || serialize(window),
                || absorb(&mut hasher, std::mem::take(&mut pending)),
            );
            pending = next?;
        }
        absorb(&mut hasher, pending);
        hasher.update(b"]");
    }
    hasher.update(b"}");
    Ok(hex_digest(hasher.finalize()))
}

/// True when `value` serializes on the fast path: sorted keys, no floats, safe integers.
/// Types that are hashed often should make this true; tests assert it.
pub fn takes_fast_path<T: Serialize + ?Sized>(value: &T) -> bool {
    try_fast(&mut io::sink(), value).unwrap_or(false)
}

/// Serializes compactly into `writer`; `Ok(false)` when the output may differ from JCS.
fn try_fast<W: Write, T: Serialize + ?Sized>(
    writer: &mut W,
    value: &T,
) -> Result<bool, CanonicalError> {
    let mut formatter = CheckingFormatter::default();
    let mut serializer = serde_json::Serializer::with_formatter(writer, &mut formatter);
    match value.serialize(&mut serializer) {
        Ok(()) => Ok(!formatter.diverged),
        // A divergence aborts with an error on purpose, to stop early; anything else is real.
        Err(_) if formatter.diverged => Ok(false),
        Err(source) => Err(CanonicalError { source }),
    }
}

/// Compact output plus a watch for anything JCS would write differently.
#[derive(Default)]
struct CheckingFormatter {
    /// Per nesting level: the previous key of the object open there, and the key being
    /// written. Levels are reused (buffers and all), so steady work allocates nothing.
    keys: Vec<KeyState>,
    /// How many objects are open.
    depth: usize,
    in_key: bool,
    diverged: bool,
}

#[derive(Default)]
struct KeyState {
    has_previous: bool,
    previous: String,
    key: String,
}

/// `a < b` in UTF-16 code units. UTF-8 byte order is code point order, which is UTF-16 order
/// unless a character at or above U+E000 meets a supplementary one: only then compare the
/// UTF-16 forms.
pub fn utf16_lt(a: &str, b: &str) -> bool {
    if a.bytes().chain(b.bytes()).all(|byte| byte < 0xEE) {
        a < b
    } else {
        a.encode_utf16().lt(b.encode_utf16())
    }
}

impl CheckingFormatter {
    fn current(&mut self) -> Option<&mut KeyState> {
        self.depth
            .checked_sub(1)
            .and_then(|level| self.keys.get_mut(level))
    }

    fn diverge(&mut self) -> io::Result<()> {
        self.diverged = true;
        Err(io::Error::other("output would differ from rfc 8785"))
    }
}

impl Formatter for &mut CheckingFormatter {
    fn write_f32<W: ?Sized + Write>(&mut self, _writer: &mut W, _value: f32) -> io::Result<()> {
        self.diverge()
    }

    fn write_f64<W: ?Sized + Write>(&mut self, _writer: &mut W, _value: f64) -> io::Result<()> {
        self.diverge()
    }

    fn write_u64<W: ?Sized + Write>(&mut self, writer: &mut W, value: u64) -> io::Result<()> {
        if value > MAX_SAFE_INTEGER {
            return self.diverge();
        }
        CompactFormatter.write_u64(writer, value)
    }

    fn write_i64<W: ?Sized + Write>(&mut self, writer: &mut W, value: i64) -> io::Result<()> {
        if value.unsigned_abs() > MAX_SAFE_INTEGER {
            return self.diverge();
        }
        CompactFormatter.write_i64(writer, value)
    }

    fn write_u128<W: ?Sized + Write>(&mut self, _writer: &mut W, _value: u128) -> io::Result<()> {
        self.diverge()
    }

    fn write_i128<W: ?Sized + Write>(&mut self, _writer: &mut W, _value: i128) -> io::Result<()> {
        self.diverge()
    }

    fn write_number_str<W: ?Sized + Write>(
        &mut self,
        _writer: &mut W,
        _value: &str,
    ) -> io::Result<()> {
        self.diverge()
    }

    fn write_raw_fragment<W: ?Sized + Write>(
        &mut self,
        _writer: &mut W,
        _fragment: &str,
    ) -> io::Result<()> {
        self.diverge()
    }

    fn write_string_fragment<W: ?Sized + Write>(
        &mut self,
        writer: &mut W,
        fragment: &str,
    ) -> io::Result<()> {
        if self.in_key
            && let Some(state) = self.current()
        {
            state.key.push_str(fragment);
        }
        writer.write_all(fragment.as_bytes())
    }

    fn write_char_escape<W: ?Sized + Write>(
        &mut self,
        writer: &mut W,
        escape: CharEscape,
    ) -> io::Result<()> {
        if self.in_key
            && let Some(KeyState { key, .. }) = self.current()
        {
            key.push(match escape {
                CharEscape::Quote => '"',
                CharEscape::ReverseSolidus => '\\',
                CharEscape::Solidus => '/',
                CharEscape::Backspace => '\u{8}',
                CharEscape::FormFeed => '\u{c}',
                CharEscape::LineFeed => '\n',
                CharEscape::CarriageReturn => '\r',
                CharEscape::Tab => '\t',
                CharEscape::AsciiControl(byte) => char::from(byte),
            });
        }
        if let CharEscape::Solidus = escape {
            return self.diverge();
        }
        CompactFormatter.write_char_escape(writer, escape)
    }

    fn begin_object<W: ?Sized + Write>(&mut self, writer: &mut W) -> io::Result<()> {
        if self.keys.len() == self.depth {
            self.keys.push(KeyState::default());
        }
        self.keys[self.depth].has_previous = false;
        self.depth += 1;
        CompactFormatter.begin_object(writer)
    }

    fn end_object<W: ?Sized + Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.depth = self.depth.saturating_sub(1);
        CompactFormatter.end_object(writer)
    }

    fn begin_object_key<W: ?Sized + Write>(
        &mut self,
        writer: &mut W,
        first: bool,
    ) -> io::Result<()> {
        self.in_key = true;
        if let Some(state) = self.current() {
            state.key.clear();
        }
        CompactFormatter.begin_object_key(writer, first)
    }

    fn end_object_key<W: ?Sized + Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.in_key = false;
        let Some(state) = self.current() else {
            return self.diverge();
        };
        if state.has_previous && !utf16_lt(&state.previous, &state.key) {
            return self.diverge();
        }
        state.has_previous = true;
        std::mem::swap(&mut state.previous, &mut state.key);
        CompactFormatter.end_object_key(writer)
    }
}

/// Integers above 2^53 - 1 are not exact ECMAScript numbers; leave them to `serde_jcs`.
const MAX_SAFE_INTEGER: u64 = (1 << 53) - 1;

/// `prefix` followed by [`digest_canonical`] of `value`.
pub fn content_id<T: Serialize + ?Sized>(
    prefix: &str,
    value: &T,
) -> Result<String, CanonicalError> {
    Ok(format!("{prefix}{}", digest_canonical(value)?))
}

/// `prefix` followed by [`digest_canonical`] of `object` without its member `key`: the id of
/// a record that holds its own id. The object is not copied.
pub fn content_id_without(
    prefix: &str,
    object: &serde_json::Value,
    key: &str,
) -> Result<String, CanonicalError> {
    /// An object's members but one, serialized as the object without it.
    struct Without<'a>(&'a serde_json::Map<String, serde_json::Value>, &'a str);
    impl Serialize for Without<'_> {
        fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
            use serde::ser::SerializeMap;
            let members = self.0.iter().filter(|(k, _)| k.as_str() != self.1);
            let mut map = serializer.serialize_map(Some(members.clone().count()))?;
            for (k, v) in members {
                map.serialize_entry(k, v)?;
            }
            map.end()
        }
    }
    match object {
        serde_json::Value::Object(map) => content_id(prefix, &Without(map, key)),
        other => content_id(prefix, other),
    }
}

/// Lowercase hex SHA-256 of raw bytes.
pub fn sha256_hex(bytes: &[u8]) -> String {
    sha256_hex_of(&[bytes])
}

/// Lowercase hex SHA-256 of the concatenation of `parts`.
pub fn sha256_hex_of(parts: &[&[u8]]) -> String {
    let mut hasher = Sha256::new();
    for part in parts {
        hasher.update(part);
    }
    hex_digest(hasher.finalize())
}

/// Lowercase hex of a digest. `hex::encode` builds its string a `char` at a time; ids are
/// made by the hundred thousand, so this encodes into a buffer of the exact size instead.
pub fn hex_digest(digest: impl AsRef<[u8]>) -> String {
    let digest = digest.as_ref();
    let mut out = vec![0u8; digest.len() * 2];
    // The buffer is exactly twice the input, the only way encoding can fail.
    if hex::encode_to_slice(digest, &mut out).is_err() {
        return hex::encode(digest);
    }
    // Hex digits are ASCII.
    String::from_utf8(out).unwrap_or_else(|_| hex::encode(digest))
}

struct HashWriter(Sha256);

impl Write for HashWriter {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.update(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn an_id_without_a_member_is_the_id_of_the_object_without_it() {
        let object = json!({"b": [1, {"\u{e9}": "x"}], "id": "old", "a": null, "\u{1f600}": 2.5});
        let mut copy = object.clone();
        copy.as_object_mut().unwrap().remove("id");
        assert_eq!(
            content_id_without("p_", &object, "id").unwrap(),
            content_id("p_", &copy).unwrap()
        );
        assert_eq!(
            content_id_without("p_", &json!([1]), "id").unwrap(),
            content_id("p_", &json!([1])).unwrap()
        );
    }

    #[test]
    fn keys_sort_by_utf16_code_units_not_utf8_bytes() {
        // U+1F600 is a surrogate pair (D83D ...) in UTF-16 and sorts before U+E000 there,
        // although its UTF-8 bytes (F0 ...) sort after U+E000's (EE ...).
        let value = json!({"\u{e000}": 1, "\u{1f600}": 2, "b": 3, "a": 4});
        let text = String::from_utf8(canonical_bytes(&value).unwrap()).unwrap();
        assert_eq!(text, "{\"a\":4,\"b\":3,\"\u{1f600}\":2,\"\u{e000}\":1}");
    }

    #[test]
    fn numbers_and_escapes_follow_rfc_8785() {
        let value = json!([1.0, 1e21, 0.1, -0.0, 1e-7, "\u{1}\"\\", "é"]);
        let text = String::from_utf8(canonical_bytes(&value).unwrap()).unwrap();
        assert_eq!(text, "[1,1e+21,0.1,0,1e-7,\"\\u0001\\\"\\\\\",\"é\"]");
    }

    #[test]
    fn streamed_digest_equals_digest_of_bytes() {
        let value = json!({"z": [1, 2, {"y": null}], "a": "text"});
        assert_eq!(
            digest_canonical(&value).unwrap(),
            sha256_hex(&canonical_bytes(&value).unwrap())
        );
        let id = content_id("art_", &value).unwrap();
        assert!(id.starts_with("art_") && id.len() == 4 + 64);
    }

    #[test]
    fn unsorted_keys_floats_and_big_integers_take_the_slow_path_and_agree() {
        #[derive(serde::Serialize)]
        struct Unsorted {
            zebra: u32,
            apple: f64,
        }
        let value = Unsorted {
            zebra: 1,
            apple: 2.5,
        };
        assert_eq!(
            canonical_bytes(&value).unwrap(),
            b"{\"apple\":2.5,\"zebra\":1}"
        );
        let big = json!({"n": u64::MAX, "m": [1.0e300, 5e-324]});
        assert_eq!(
            canonical_bytes(&big).unwrap(),
            serde_jcs::to_vec(&big).unwrap()
        );
    }

    #[test]
    fn parallel_serialization_gives_the_same_bytes() {
        let items: Vec<serde_json::Value> = (0..5000)
            .map(|i| {
                json!({
                    "\u{e000}": i,
                    "\u{1f600}": [i, 0.5, "q\"\\\u{1}"],
                    "b": {"z": i % 7, "a": null},
                    "a": format!("item {i}"),
                })
            })
            .collect();
        let value = json!({"graph": {"edges": items.clone(), "nodes": [1, 2]}, "\u{e000}": items, "a": 1.5});
        let parallel = canonical_value_bytes(&value).unwrap();
        assert_eq!(parallel, serde_jcs::to_vec(&value).unwrap());
        assert_eq!(parallel, canonical_bytes(&value).unwrap());
        let text = serde_json::to_vec(&value).unwrap();
        assert_eq!(parse_value_parallel(&text).unwrap(), value);
        let duplicated = br#"{"a": 1, "a": [2], "b": {"c": 3, "c": 4}}"#;
        assert_eq!(
            parse_value_parallel(duplicated).unwrap(),
            serde_json::from_slice::<serde_json::Value>(duplicated).unwrap()
        );
        for bad in [&b"[1, 2"[..], b"{\"a\" 1}", b"\xff", b"[1] x"] {
            assert!(parse_value_parallel(bad).is_err());
        }
        drop_value_parallel(value);
    }

    proptest::proptest! {
        #[test]
        fn fast_path_always_equals_serde_jcs(value in arbitrary_json()) {
            let expected = serde_jcs::to_vec(&value).unwrap();
            proptest::prop_assert_eq!(canonical_bytes(&value).unwrap(), expected.clone());
            proptest::prop_assert_eq!(canonical_value_bytes(&value).unwrap(), expected.clone());
            proptest::prop_assert_eq!(
                parse_value_parallel(&expected).unwrap(),
                serde_json::from_slice::<serde_json::Value>(&expected).unwrap()
            );
            proptest::prop_assert_eq!(digest_canonical(&value).unwrap(), sha256_hex(&expected));
            proptest::prop_assert!(is_canonical(&expected).unwrap());
            // serde_json's own output differs exactly when its keys or numbers are not JCS's.
            let plain = serde_json::to_vec(&value).unwrap();
            proptest::prop_assert_eq!(is_canonical(&plain).unwrap(), plain == expected);
            let pretty = serde_json::to_vec_pretty(&value).unwrap();
            proptest::prop_assert_eq!(is_canonical(&pretty).unwrap(), pretty == expected);
        }
    }

    proptest::proptest! {
        /// The one-pass scan only ever vouches for text that is exactly canonical (serde_jcs
        /// of its parse), and vouches for what REA writes: JCS text with integers in the safe
        /// range and keys without escapes.
        #[test]
        fn the_scan_vouches_only_for_canonical_text(
            value in arbitrary_json(),
            at in proptest::prelude::any::<proptest::sample::Index>(),
            byte in 0x20u8..0x7f,
        ) {
            let expected = serde_jcs::to_vec(&value).unwrap();
            let text = String::from_utf8(expected.clone()).unwrap();
            let oracle = |t: &str| {
                serde_json::from_str::<serde_json::Value>(t)
                    .ok()
                    .and_then(|v| serde_jcs::to_vec(&v).ok())
                    .is_some_and(|c| c == t.as_bytes())
            };
            let mut mutated = expected.clone();
            let i = at.index(mutated.len());
            mutated[i] = byte;
            let mut candidates = vec![
                text.clone(),
                serde_json::to_string(&value).unwrap(),
                serde_json::to_string_pretty(&value).unwrap(),
            ];
            candidates.extend(String::from_utf8(mutated).ok());
            for candidate in &candidates {
                if crate::scan::surely_canonical(candidate) {
                    proptest::prop_assert!(oracle(candidate), "{}", candidate);
                }
            }
            fn plain_keys(value: &serde_json::Value) -> bool {
                match value {
                    serde_json::Value::Array(items) => items.iter().all(plain_keys),
                    serde_json::Value::Object(map) => map.iter().all(|(k, v)| {
                        !k.chars().any(|c| c == '"' || c == '\\' || c < ' ') && plain_keys(v)
                    }),
                    _ => true,
                }
            }
            if takes_fast_path(&value) && plain_keys(&value) {
                proptest::prop_assert!(crate::scan::surely_canonical(&text), "{}", text);
            }
        }
    }

    #[test]
    fn canonical_check_finds_every_kind_of_difference_in_long_arrays() {
        let items: Vec<serde_json::Value> = (0..3000)
            .map(|i| json!({"a": format!("item {i}"), "b": {"z": i % 7, "a": null}, "\u{e000}": i}))
            .collect();
        let value = json!({"graph": {"edges": items.clone(), "nodes": [1, 2]}, "\u{e000}": items, "a": 1.5});
        let text = String::from_utf8(canonical_value_bytes(&value).unwrap()).unwrap();
        assert!(is_canonical(text.as_bytes()).unwrap());
        let variants = [
            text.replacen("\"item 2999\"", "\"item\\u00202999\"", 1), // an escape JCS does not write
            text.replacen(",{\"a\":\"item 1500\"", ", {\"a\":\"item 1500\"", 1), // space between items
            text.replacen("{\"a\":\"item 7\",", "{\"a\":\"item 7\",\"a\":\"x\",", 1), // a repeated key
            text.replacen("\"z\":3", "\"z\":3.0", 1), // a float where JCS writes an integer
            text.replacen("\"a\":1.5", "\"a\":15e-1", 1),
            text.replacen("{\"a\":", "{ \"a\":", 1),
            format!("{text}\n"),
            format!(" {text}"),
        ];
        for variant in &variants {
            assert_ne!(variant, &text);
            assert!(
                !is_canonical(variant.as_bytes()).unwrap(),
                "{}",
                &variant[..80]
            );
        }
        // Keys out of UTF-16 order, deep in an item and at the top.
        let swapped = text.replacen(
            "{\"a\":\"item 9\",\"b\":{\"a\":null,\"z\":2}",
            "{\"b\":{\"a\":null,\"z\":2},\"a\":\"item 9\"",
            1,
        );
        assert_ne!(swapped, text);
        assert!(!is_canonical(swapped.as_bytes()).unwrap());
        for bad in [&b"[1, 2"[..], b"{\"a\" 1}", b"\xff", b"[1] x"] {
            assert!(is_canonical(bad).is_err() || !is_canonical(bad).unwrap());
        }
    }

    fn arbitrary_json() -> impl proptest::strategy::Strategy<Value = serde_json::Value> {
        use proptest::prelude::*;
        let key = prop_oneof![
            "[a-z_]{0,6}",
            Just("\u{e000}".to_owned()),
            Just("\u{1f600}".to_owned()),
            Just("\"/\\\n\u{1}\u{7f}é".to_owned()),
        ];
        let leaf = prop_oneof![
            Just(serde_json::Value::Null),
            any::<bool>().prop_map(serde_json::Value::from),
            any::<i64>().prop_map(serde_json::Value::from),
            any::<u64>().prop_map(serde_json::Value::from),
            (-1.0e6f64..1.0e6).prop_map(serde_json::Value::from),
            "[ -~\u{80}-\u{10ffff}]{0,8}".prop_map(serde_json::Value::from),
        ];
        leaf.prop_recursive(4, 48, 6, move |inner| {
            prop_oneof![
                proptest::collection::vec(inner.clone(), 0..6).prop_map(serde_json::Value::from),
                proptest::collection::btree_map(key.clone(), inner, 0..6)
                    .prop_map(|m| serde_json::Value::Object(m.into_iter().collect())),
            ]
        })
    }

    #[test]
    fn object_of_arrays_equals_the_sequential_digest() {
        let small: Vec<serde_json::Value> =
            (0..5).map(|i| json!({"b": i, "a": [i, "x"]})).collect();
        let large: Vec<serde_json::Value> = (0..3000)
            .map(|i| json!({"id": format!("n{i}"), "z": 1.5}))
            .collect();
        let empty: Vec<serde_json::Value> = Vec::new();
        let expected =
            digest_canonical(&json!({"edges": large, "nodes": small, "zero": empty})).unwrap();
        let got = digest_object_of_arrays(&[
            ("edges", &large.as_slice() as &dyn CanonicalArray),
            ("nodes", &small.as_slice()),
            ("zero", &empty.as_slice()),
        ])
        .unwrap();
        assert_eq!(got, expected);
        let unsorted: [(&str, &dyn CanonicalArray); 2] =
            [("b", &small.as_slice()), ("a", &small.as_slice())];
        assert!(digest_object_of_arrays(&unsorted).is_err());
    }

    #[test]
    fn sha256_of_abc_is_the_fips_vector() {
        assert_eq!(
            sha256_hex(b"abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }
}

//! JSON text already in RFC 8785 canonical form, composed without re-serialization.
//!
//! A large result (an application graph of a hundred thousand edges) is serialized once: each
//! item's canonical bytes are written, hashed for its id, and then joined into arrays and
//! objects by [`CanonicalJson::array`] and [`CanonicalJson::object`], which only copy bytes.
//! Composition keeps the form canonical: an array is `[` + items joined by `,` + `]`, and an
//! object is its members in UTF-16 key order with keys escaped the JCS way. A
//! [`CanonicalJson`] can only be made from a serialization or from other canonical pieces, so
//! nothing unchecked can enter it.

use std::fmt;

use serde::Serialize;
use serde_json::Value;
use serde_json::value::RawValue;

use crate::canonical::{CanonicalError, canonical_bytes, canonical_value_bytes, sha256_hex};
use crate::object::write_str;

/// Canonical JSON text (valid UTF-8).
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct CanonicalJson(Vec<u8>);

/// One member value of an object being composed.
#[derive(Clone, Copy)]
pub enum Piece<'a> {
    /// A canonical value.
    Json(&'a CanonicalJson),
    /// A string, escaped on the way in.
    Str(&'a str),
    /// An array of canonical items, joined on the way in.
    Items(&'a [CanonicalJson]),
    /// Text the caller has established is canonical: a slice of a document whose whole text
    /// was checked to be canonical (as a validator does before it recomputes ids).
    Verbatim(&'a str),
    /// Text composed of parts.
    Composed(&'a Composed),
}

impl Piece<'_> {
    fn size(&self) -> usize {
        match self {
            Piece::Json(json) => json.0.len(),
            Piece::Str(text) => text.len() + 2,
            Piece::Items(items) => items.iter().map(|i| i.0.len() + 1).sum::<usize>() + 2,
            Piece::Verbatim(text) => text.len(),
            Piece::Composed(composed) => composed.len(),
        }
    }

    fn emit(&self, sink: &mut impl FnMut(&[u8])) {
        match self {
            Piece::Json(json) => sink(&json.0),
            Piece::Verbatim(text) => sink(text.as_bytes()),
            Piece::Composed(composed) => composed.emit(sink),
            Piece::Str(text) => {
                let mut out = Vec::with_capacity(text.len() + 2);
                write_str(&mut out, text);
                sink(&out);
            }
            Piece::Items(items) => {
                sink(b"[");
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        sink(b",");
                    }
                    sink(&item.0);
                }
                sink(b"]");
            }
        }
    }
}

/// Sorts an object's members by UTF-16 key; a repeated key is an error.
fn sort_members<K: AsRef<str>, V>(members: &mut [(K, V)]) -> Result<(), CanonicalError> {
    members.sort_by(|a, b| a.0.as_ref().encode_utf16().cmp(b.0.as_ref().encode_utf16()));
    if members
        .windows(2)
        .any(|w| w[0].0.as_ref() == w[1].0.as_ref())
    {
        return Err(CanonicalError::composition("an object repeats a key"));
    }
    Ok(())
}

/// Emits `{…}` of members already in canonical order, each value by `value`.
fn emit_members<K: AsRef<str>, V, S: FnMut(&[u8])>(
    members: &[(K, V)],
    sink: &mut S,
    value: impl Fn(&V, &mut S),
) {
    sink(b"{");
    for (i, (key, member)) in members.iter().enumerate() {
        if i > 0 {
            sink(b",");
        }
        sink(&member_name(key.as_ref()));
        value(member, sink);
    }
    sink(b"}");
}

/// `"key":` as JCS writes it.
fn member_name(key: &str) -> Vec<u8> {
    let mut name = Vec::with_capacity(key.len() + 3);
    write_str(&mut name, key);
    name.push(b':');
    name
}

/// Emits `{…}` of the members in canonical order, piece by piece.
fn emit_object(
    members: &mut [(&str, Piece<'_>)],
    sink: &mut impl FnMut(&[u8]),
) -> Result<(), CanonicalError> {
    sort_members(members)?;
    emit_members(members, sink, |piece, sink| piece.emit(sink));
    Ok(())
}

impl CanonicalJson {
    /// The canonical text of `value`.
    pub fn of<T: Serialize + ?Sized>(value: &T) -> Result<Self, CanonicalError> {
        canonical_bytes(value).map(CanonicalJson)
    }

    /// The canonical text of a JSON value, long arrays near the root in parallel.
    pub fn of_value(value: &Value) -> Result<Self, CanonicalError> {
        canonical_value_bytes(value).map(CanonicalJson)
    }

    /// A JSON string.
    pub fn string(text: &str) -> Self {
        let mut out = Vec::with_capacity(text.len() + 2);
        write_str(&mut out, text);
        CanonicalJson(out)
    }

    /// `[a,b,…]` of canonical items, in the given order.
    pub fn array(items: &[CanonicalJson]) -> Self {
        let piece = Piece::Items(items);
        let mut out = Vec::with_capacity(piece.size());
        piece.emit(&mut |bytes| out.extend_from_slice(bytes));
        CanonicalJson(out)
    }

    /// `{…}` of the members, sorted by UTF-16 key; a repeated key is an error.
    pub fn object<'a>(
        members: impl IntoIterator<Item = (&'a str, Piece<'a>)>,
    ) -> Result<Self, CanonicalError> {
        let mut members: Vec<(&str, Piece<'_>)> = members.into_iter().collect();
        let size = members
            .iter()
            .map(|(k, v)| k.len() + 4 + v.size())
            .sum::<usize>();
        let mut out = Vec::with_capacity(size + 2);
        emit_object(&mut members, &mut |bytes| out.extend_from_slice(bytes))?;
        Ok(CanonicalJson(out))
    }

    /// [`CanonicalJson::object`]`(members).digest()`, streamed into the hasher: the object's
    /// text is never held whole.
    pub fn digest_object<'a>(
        members: impl IntoIterator<Item = (&'a str, Piece<'a>)>,
    ) -> Result<String, CanonicalError> {
        use sha2::{Digest, Sha256};
        let mut members: Vec<(&str, Piece<'_>)> = members.into_iter().collect();
        let mut hasher = Sha256::new();
        emit_object(&mut members, &mut |bytes| hasher.update(bytes))?;
        Ok(crate::canonical::hex_digest(hasher.finalize()))
    }

    /// This object with `extra` members added; a key already present is an error, and so is
    /// a value that is not an object.
    pub fn with_members<'a>(
        &self,
        extra: impl IntoIterator<Item = (&'a str, Piece<'a>)>,
    ) -> Result<Self, CanonicalError> {
        let own = self.members()?;
        // Slices of canonical text are canonical: they are copied once, into the result.
        let mut members: Vec<(&str, Piece<'_>)> = own
            .iter()
            .map(|(k, raw)| (k.as_str(), Piece::Verbatim(raw.get())))
            .collect();
        for (key, value) in extra {
            members.push((key, value));
        }
        Self::object(members)
    }

    /// The members of this object, values as slices of this text.
    pub fn members(&self) -> Result<Vec<(String, &RawValue)>, CanonicalError> {
        let map: std::collections::BTreeMap<String, &RawValue> =
            serde_json::from_slice(&self.0).map_err(CanonicalError::from_json)?;
        Ok(map.into_iter().collect())
    }

    pub fn as_bytes(&self) -> &[u8] {
        &self.0
    }

    pub fn into_bytes(self) -> Vec<u8> {
        self.0
    }

    pub fn len(&self) -> usize {
        self.0.len()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Lowercase hex SHA-256 of the text.
    pub fn digest(&self) -> String {
        sha256_hex(&self.0)
    }

    /// The text parsed back into a value (for readers that want one; costs a parse).
    pub fn to_value(&self) -> Result<Value, serde_json::Error> {
        crate::canonical::parse_value_parallel(&self.0)
    }
}

/// Canonical text kept as parts and joined only when it is written out: an application graph
/// of a hundred megabytes is held as its items, hashed by streaming over them, and copied once,
/// into the sealed record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Composed {
    /// Canonical text.
    Text(CanonicalJson),
    /// `[a,b,…]` of the items, in this order.
    Items(Vec<CanonicalJson>),
    /// `{…}` of the members, kept sorted by UTF-16 key and unique.
    Object(Vec<(String, Composed)>),
}

impl Composed {
    /// An object of `members`, sorted by UTF-16 key; a repeated key is an error.
    pub fn object(mut members: Vec<(String, Composed)>) -> Result<Self, CanonicalError> {
        sort_members(&mut members)?;
        Ok(Composed::Object(members))
    }

    /// The object `base` (canonical text of an object) with `extra` members added; a key
    /// already in `base` is an error, and so is a `base` that is not an object. `base`'s
    /// members are copied, so keep it small.
    pub fn object_with(
        base: &CanonicalJson,
        extra: Vec<(String, Composed)>,
    ) -> Result<Self, CanonicalError> {
        let mut members: Vec<(String, Composed)> = base
            .members()?
            .into_iter()
            .map(|(key, raw)| {
                let text = CanonicalJson(raw.get().as_bytes().to_vec());
                (key, Composed::Text(text))
            })
            .collect();
        members.extend(extra);
        Self::object(members)
    }

    /// The length of the text in bytes.
    pub fn len(&self) -> usize {
        match self {
            Composed::Text(text) => text.len(),
            Composed::Items(items) => {
                // `[` and `]`, a `,` between items, and the items.
                2 + items.len().saturating_sub(1) + items.iter().map(|i| i.0.len()).sum::<usize>()
            }
            Composed::Object(members) => {
                // `{` and `}`, a `,` between members, and `"key":value` for each.
                let commas = members.len().saturating_sub(1);
                let members: usize = members
                    .iter()
                    .map(|(key, value)| key_len(key) + 1 + value.len())
                    .sum();
                2 + commas + members
            }
        }
    }

    /// Never: no JSON text is empty.
    pub fn is_empty(&self) -> bool {
        false
    }

    /// Feeds the text to `sink`, part by part.
    pub fn emit(&self, sink: &mut impl FnMut(&[u8])) {
        match self {
            Composed::Text(text) => sink(&text.0),
            Composed::Items(items) => Piece::Items(items).emit(sink),
            Composed::Object(members) => {
                emit_members(members, sink, |value, sink| value.emit(sink));
            }
        }
    }

    /// The whole text, copied once into a buffer of its exact size.
    pub fn to_text(&self) -> CanonicalJson {
        let mut out = Vec::with_capacity(self.len());
        self.emit(&mut |bytes| out.extend_from_slice(bytes));
        CanonicalJson(out)
    }

    /// Lowercase hex SHA-256 of the text, streamed: the text is never held whole.
    pub fn digest(&self) -> String {
        use sha2::{Digest, Sha256};
        let mut hasher = Sha256::new();
        self.emit(&mut |bytes| hasher.update(bytes));
        crate::canonical::hex_digest(hasher.finalize())
    }
}

/// The digest of an object whose members arrive one at a time, in canonical key order: an
/// early member (most of a graph's text) can be hashed while later ones are still being made.
/// `ObjectDigest` of the members equals [`CanonicalJson::digest_object`] of them.
pub struct ObjectDigest {
    hasher: sha2::Sha256,
    last: Option<String>,
}

impl Default for ObjectDigest {
    fn default() -> Self {
        ObjectDigest::new()
    }
}

impl ObjectDigest {
    pub fn new() -> Self {
        use sha2::Digest;
        ObjectDigest {
            hasher: sha2::Sha256::new(),
            last: None,
        }
    }

    /// Adds a member, whose key must sort after every key before it.
    pub fn member(&mut self, key: &str, value: Piece<'_>) -> Result<(), CanonicalError> {
        use sha2::Digest;
        match &self.last {
            Some(last) if !crate::canonical::utf16_lt(last, key) => {
                return Err(CanonicalError::composition(
                    "an object's members arrive out of canonical order",
                ));
            }
            Some(_) => self.hasher.update(b","),
            None => self.hasher.update(b"{"),
        }
        self.hasher.update(member_name(key));
        value.emit(&mut |bytes| self.hasher.update(bytes));
        self.last = Some(key.to_owned());
        Ok(())
    }

    /// Lowercase hex SHA-256 of the object's text.
    pub fn finish(mut self) -> String {
        use sha2::Digest;
        if self.last.is_none() {
            self.hasher.update(b"{");
        }
        self.hasher.update(b"}");
        crate::canonical::hex_digest(self.hasher.finalize())
    }
}

/// The length of `"key"` as JCS writes it.
fn key_len(key: &str) -> usize {
    let mut name = Vec::with_capacity(key.len() + 2);
    write_str(&mut name, key);
    name.len()
}

impl fmt::Debug for CanonicalJson {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text = String::from_utf8_lossy(&self.0);
        if text.len() > 256 {
            let cut = (0..=256)
                .rev()
                .find(|&i| text.is_char_boundary(i))
                .unwrap_or(0);
            write!(f, "CanonicalJson({}… {} bytes)", &text[..cut], text.len())
        } else {
            write!(f, "CanonicalJson({text})")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn composed_objects_and_arrays_equal_serializing_the_whole() {
        let edge = json!({"z": [1, {"b": null, "a": "é\u{1}"}], "\u{e000}": 1, "\u{1f600}": "q\"", "a": true});
        let pieces: Vec<(String, CanonicalJson)> = edge
            .as_object()
            .unwrap()
            .iter()
            .map(|(k, v)| (k.clone(), CanonicalJson::of(v).unwrap()))
            .collect();
        let composed = CanonicalJson::object(
            pieces
                .iter()
                .rev()
                .map(|(k, v)| (k.as_str(), Piece::Json(v))),
        )
        .unwrap();
        assert_eq!(composed.as_bytes(), canonical_bytes(&edge).unwrap());
        let list = CanonicalJson::array(&[composed.clone(), CanonicalJson::string("x\n")]);
        assert_eq!(
            list.as_bytes(),
            canonical_bytes(&json!([edge, "x\n"])).unwrap()
        );
        assert_eq!(list.to_value().unwrap(), json!([edge, "x\n"]));
        let members = || {
            [
                ("items", Piece::Items(std::slice::from_ref(&composed))),
                ("name", Piece::Str("n")),
                ("list", Piece::Json(&list)),
            ]
        };
        let whole = CanonicalJson::object(members()).unwrap();
        assert_eq!(
            whole.as_bytes(),
            canonical_bytes(&json!({"items": [edge], "name": "n", "list": [edge, "x\n"]})).unwrap()
        );
        assert_eq!(
            CanonicalJson::digest_object(members()).unwrap(),
            whole.digest()
        );
    }

    #[test]
    fn members_are_added_in_key_order_and_never_twice() {
        let base = CanonicalJson::of(&json!({"b": 1, "d": [2]})).unwrap();
        let extra = CanonicalJson::of(&json!({"y": "z"})).unwrap();
        let joined = base
            .with_members([
                ("c", Piece::Json(&extra)),
                ("a", Piece::Verbatim("{\"y\":\"z\"}")),
            ])
            .unwrap();
        assert_eq!(
            joined.as_bytes(),
            canonical_bytes(&json!({"a": {"y": "z"}, "b": 1, "c": {"y": "z"}, "d": [2]})).unwrap()
        );
        assert!(base.with_members([("b", Piece::Json(&extra))]).is_err());
        assert!(
            CanonicalJson::string("x")
                .with_members([("a", Piece::Json(&extra))])
                .is_err()
        );
        assert!(CanonicalJson::object([("k", Piece::Str("1")), ("k", Piece::Str("2"))]).is_err());
    }

    #[test]
    fn an_object_digested_member_by_member_equals_the_whole_digest() {
        let items = vec![
            CanonicalJson::of(&json!({"b": 1})).unwrap(),
            CanonicalJson::of(&json!("x")).unwrap(),
        ];
        let header = CanonicalJson::of(&json!({"z": [1, 2], "a": null})).unwrap();
        // Canonical (UTF-16) order: U+1F600 is D83D DE00, before U+E000.
        let members = [
            ("edges", Piece::Items(&items)),
            ("header", Piece::Json(&header)),
            ("\u{1f600}", Piece::Str("s")),
            ("\u{e000}", Piece::Items(&[])),
        ];
        let mut streamed = ObjectDigest::new();
        for (key, value) in members {
            streamed.member(key, value).unwrap();
        }
        assert_eq!(
            streamed.finish(),
            CanonicalJson::digest_object(members).unwrap()
        );
        assert_eq!(ObjectDigest::new().finish(), sha256_hex(b"{}"));
        let mut out_of_order = ObjectDigest::new();
        out_of_order.member("b", Piece::Str("1")).unwrap();
        assert!(out_of_order.member("a", Piece::Str("2")).is_err());
        assert!(out_of_order.member("b", Piece::Str("2")).is_err());
    }

    #[test]
    fn composed_text_is_the_text_of_the_whole_and_is_copied_once() {
        let item = |v: Value| CanonicalJson::of(&v).unwrap();
        let items = vec![
            item(json!({"b": 1, "a": "é\u{1}"})),
            item(json!([null, "x"])),
        ];
        let base = item(json!({"z": 2, "\u{e000}": "p", "\u{1f600}": [1]}));
        let composed = Composed::object_with(
            &base,
            vec![
                ("items".to_owned(), Composed::Items(items.clone())),
                ("none".to_owned(), Composed::Items(Vec::new())),
                ("empty".to_owned(), Composed::object(Vec::new()).unwrap()),
                (
                    "q\"".to_owned(),
                    Composed::object(vec![("k".to_owned(), Composed::Text(item(json!(true))))])
                        .unwrap(),
                ),
            ],
        )
        .unwrap();
        let expected = canonical_bytes(&json!({
            "z": 2, "\u{e000}": "p", "\u{1f600}": [1],
            "items": [{"b": 1, "a": "é\u{1}"}, [null, "x"]], "none": [], "empty": {},
            "q\"": {"k": true},
        }))
        .unwrap();
        let text = composed.to_text();
        assert_eq!(text.as_bytes(), expected);
        assert_eq!(composed.len(), expected.len());
        assert_eq!(text.as_bytes().len(), text.0.capacity());
        assert_eq!(composed.digest(), sha256_hex(&expected));
        let outer =
            CanonicalJson::object([("c", Piece::Composed(&composed)), ("a", Piece::Str("s"))])
                .unwrap();
        assert_eq!(
            outer.to_value().unwrap(),
            json!({"a": "s", "c": serde_json::from_slice::<Value>(&expected).unwrap()})
        );
        assert!(
            Composed::object_with(&base, vec![("z".to_owned(), Composed::Items(items))]).is_err()
        );
        assert!(Composed::object_with(&CanonicalJson::string("x"), Vec::new()).is_err());
    }
}

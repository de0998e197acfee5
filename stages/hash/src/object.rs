//! Canonical objects written member by member, for the few record types that are hashed by
//! the hundred thousand (an inventory's occurrences, edges and contents, and their ids).
//!
//! [`canonical_bytes`](crate::canonical_bytes) goes through `serde`: every key is copied and
//! compared at run time, and every string goes through `serde_json`'s escaper a byte at a time.
//! On a 56,000-entry archive that was most of the inventory graph stage. An [`ObjectWriter`]
//! writes the same bytes directly: the caller names the members in canonical key order (checked
//! as they come: a key out of order is an error, never different bytes), and a string with
//! nothing to escape, which is every id and almost every path, is copied whole. A string that
//! needs escaping is written by `serde_json`, whose escapes are the RFC 8785 ones.
//!
//! Types that use it keep their `Serialize` form; tests check that both give the same bytes
//! (here, and per inventory type in `rea-graph`), and the validate stage recomputes
//! `graph_sha256` from the published JSON through `serde` when a page holds everything.
//! [`write_str`] is also how [`text`](crate::text) writes strings.

use sha2::{Digest, Sha256};

use crate::canonical::{CanonicalError, hex_digest, utf16_lt};

/// The largest integer JSON numbers carry exactly, which RFC 8785 prints as written.
const MAX_SAFE_INTEGER: u64 = (1 << 53) - 1;

/// Writes one canonical JSON object into a byte buffer. Members must come in canonical key
/// order (UTF-16 code units); [`ObjectWriter::finish`] reports the first problem.
pub struct ObjectWriter<'o, 'k> {
    out: &'o mut Vec<u8>,
    previous: Option<&'k str>,
    problem: Option<&'static str>,
}

impl<'o, 'k> ObjectWriter<'o, 'k> {
    /// Opens an object at the end of `out`.
    pub fn new(out: &'o mut Vec<u8>) -> Self {
        out.push(b'{');
        ObjectWriter {
            out,
            previous: None,
            problem: None,
        }
    }

    fn key(&mut self, key: &'k str) {
        if let Some(previous) = self.previous {
            if !utf16_lt(previous, key) {
                self.problem
                    .get_or_insert("object keys are not in canonical order");
            }
            self.out.push(b',');
        }
        self.previous = Some(key);
        write_str(self.out, key);
        self.out.push(b':');
    }

    /// A string member.
    pub fn str(&mut self, key: &'k str, value: &str) -> &mut Self {
        self.key(key);
        write_str(self.out, value);
        self
    }

    /// A string member, or `null`.
    pub fn opt_str(&mut self, key: &'k str, value: Option<&str>) -> &mut Self {
        self.key(key);
        match value {
            Some(value) => write_str(self.out, value),
            None => self.out.extend_from_slice(b"null"),
        }
        self
    }

    /// An integer member.
    pub fn uint(&mut self, key: &'k str, value: u64) -> &mut Self {
        self.key(key);
        self.write_uint(value);
        self
    }

    /// An integer member, or `null`.
    pub fn opt_uint(&mut self, key: &'k str, value: Option<u64>) -> &mut Self {
        self.key(key);
        match value {
            Some(value) => self.write_uint(value),
            None => self.out.extend_from_slice(b"null"),
        }
        self
    }

    /// A boolean member.
    pub fn bool(&mut self, key: &'k str, value: bool) -> &mut Self {
        self.key(key);
        self.out
            .extend_from_slice(if value { b"true" } else { b"false" });
        self
    }

    /// An array-of-strings member.
    pub fn strs(&mut self, key: &'k str, values: &[String]) -> &mut Self {
        self.key(key);
        self.out.push(b'[');
        for (idx, value) in values.iter().enumerate() {
            if idx > 0 {
                self.out.push(b',');
            }
            write_str(self.out, value);
        }
        self.out.push(b']');
        self
    }

    /// An array member whose items `write` appends one at a time, each already canonical.
    pub fn array<T>(
        &mut self,
        key: &'k str,
        items: impl IntoIterator<Item = T>,
        mut write: impl FnMut(T, &mut Vec<u8>) -> Result<(), CanonicalError>,
    ) -> &mut Self {
        self.key(key);
        self.out.push(b'[');
        for (idx, item) in items.into_iter().enumerate() {
            if idx > 0 {
                self.out.push(b',');
            }
            if write(item, self.out).is_err() {
                self.problem
                    .get_or_insert("an array item has no canonical form");
            }
        }
        self.out.push(b']');
        self
    }

    fn write_uint(&mut self, value: u64) {
        if value > MAX_SAFE_INTEGER {
            self.problem
                .get_or_insert("an integer above 2^53 has no exact canonical form");
        }
        self.out
            .extend_from_slice(itoa::Buffer::new().format(value).as_bytes());
    }

    /// Closes the object.
    pub fn finish(&mut self) -> Result<(), CanonicalError> {
        self.out.push(b'}');
        match self.problem {
            Some(problem) => Err(CanonicalError::composition(problem)),
            None => Ok(()),
        }
    }
}

/// A type whose canonical JSON an [`ObjectWriter`] writes, equal to its `Serialize` form's.
pub trait WriteCanonical: Sync {
    fn write_canonical(&self, out: &mut Vec<u8>) -> Result<(), CanonicalError>;
}

/// A slice of [`WriteCanonical`] items, as a [`CanonicalArray`](crate::CanonicalArray).
pub struct Written<'a, T>(pub &'a [T]);

impl<T: WriteCanonical> crate::CanonicalArray for Written<'_, T> {
    fn item_count(&self) -> usize {
        self.0.len()
    }

    fn write_item(&self, idx: usize, out: &mut Vec<u8>) -> Result<(), CanonicalError> {
        self.0[idx].write_canonical(out)
    }
}

/// `prefix` + lowercase hex SHA-256 of the object that `members` writes: the same id as
/// [`content_id`](crate::content_id) of the equal `Serialize` value.
pub fn object_id(
    prefix: &str,
    members: impl FnOnce(&mut ObjectWriter<'_, '_>),
) -> Result<String, CanonicalError> {
    let mut buf = Vec::with_capacity(256);
    let mut writer = ObjectWriter::new(&mut buf);
    members(&mut writer);
    writer.finish()?;
    let digest = hex_digest(Sha256::digest(&buf));
    let mut id = String::with_capacity(prefix.len() + digest.len());
    id.push_str(prefix);
    id.push_str(&digest);
    Ok(id)
}

/// Appends `value` as a JSON string the way RFC 8785 writes it: copied whole when nothing
/// needs escaping, through `serde_json` (whose escapes are JCS's) otherwise.
pub(crate) fn write_str(out: &mut Vec<u8>, value: &str) {
    if needs_escape(value.as_bytes()) {
        // Writing into a Vec cannot fail, and a str always serializes.
        let _ = serde_json::to_writer(&mut *out, value);
    } else {
        out.reserve(value.len() + 2);
        out.push(b'"');
        out.extend_from_slice(value.as_bytes());
        out.push(b'"');
    }
}

/// True when a byte of `bytes` is a control character, `"` or `\\`: what JSON escapes.
/// Checked 16 bytes at a time without an early exit inside a block, so that it vectorizes.
fn needs_escape(bytes: &[u8]) -> bool {
    let flag = |byte: u8| u8::from(byte < 0x20) | u8::from(byte == b'"') | u8::from(byte == b'\\');
    let mut blocks = bytes.chunks_exact(16);
    for block in &mut blocks {
        if block.iter().fold(0, |any, &byte| any | flag(byte)) != 0 {
            return true;
        }
    }
    blocks.remainder().iter().any(|&byte| flag(byte) != 0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::canonical_bytes;
    use serde::Serialize;

    #[derive(Serialize)]
    struct Sample<'a> {
        a: Option<&'a str>,
        b: u64,
        c: bool,
        d: &'a [String],
        e: Option<u64>,
        z: &'a str,
    }

    fn written(sample: &Sample<'_>) -> Vec<u8> {
        let mut out = Vec::new();
        ObjectWriter::new(&mut out)
            .opt_str("a", sample.a)
            .uint("b", sample.b)
            .bool("c", sample.c)
            .strs("d", sample.d)
            .opt_uint("e", sample.e)
            .str("z", sample.z)
            .finish()
            .unwrap();
        out
    }

    #[test]
    fn members_written_by_hand_equal_the_serde_canonical_bytes() {
        let lists = [
            vec![],
            vec!["plain".to_owned(), "quote \" and \\ and \n\u{1}".to_owned()],
            vec!["é ☃ 😀 \u{7f} \u{e000}".to_owned()],
        ];
        let strings = [
            "",
            "node_modules/x/index.js",
            "tab\there",
            "\u{0}\u{1f}",
            "a/b\"c",
            "long path with a quote right at the end, past the first block of thirty-two\"",
            "ünïcödé/😀",
        ];
        for (i, text) in strings.iter().enumerate() {
            for list in &lists {
                let sample = Sample {
                    a: (i % 2 == 0).then_some(*text),
                    b: (i as u64) * 1_000_003,
                    c: i % 3 == 0,
                    d: list,
                    e: (i % 2 == 1).then_some(u64::from(u32::MAX) + i as u64),
                    z: text,
                };
                assert_eq!(
                    String::from_utf8(written(&sample)).unwrap(),
                    String::from_utf8(canonical_bytes(&sample).unwrap()).unwrap()
                );
            }
        }
    }

    #[test]
    fn keys_out_of_order_are_an_error_not_other_bytes() {
        let mut out = Vec::new();
        let err = ObjectWriter::new(&mut out)
            .str("b", "x")
            .str("a", "y")
            .finish();
        assert!(err.is_err());
        let mut out = Vec::new();
        let repeated = ObjectWriter::new(&mut out)
            .str("a", "x")
            .str("a", "y")
            .finish();
        assert!(repeated.is_err());
    }

    #[test]
    fn integers_beyond_exact_json_are_refused() {
        let mut out = Vec::new();
        assert!(
            ObjectWriter::new(&mut out)
                .uint("n", MAX_SAFE_INTEGER)
                .finish()
                .is_ok()
        );
        assert_eq!(out, format!("{{\"n\":{MAX_SAFE_INTEGER}}}").into_bytes());
        let mut out = Vec::new();
        assert!(
            ObjectWriter::new(&mut out)
                .uint("n", MAX_SAFE_INTEGER + 1)
                .finish()
                .is_err()
        );
    }

    #[test]
    fn object_ids_equal_content_ids_of_the_same_value() {
        #[derive(Serialize)]
        struct Id<'a> {
            entry_kind: &'a str,
            logical_path: &'a str,
            root_artifact_id: &'a str,
        }
        let value = Id {
            entry_kind: "file",
            logical_path: "dir/\"odd\"\nname.js",
            root_artifact_id: "art_0123",
        };
        let by_hand = object_id("occ_", |w| {
            w.str("entry_kind", value.entry_kind)
                .str("logical_path", value.logical_path)
                .str("root_artifact_id", value.root_artifact_id);
        })
        .unwrap();
        assert_eq!(by_hand, crate::content_id("occ_", &value).unwrap());
    }

    #[test]
    fn arrays_of_objects_are_joined_canonically() {
        #[derive(Serialize)]
        struct Child<'a> {
            name: &'a str,
        }
        #[derive(Serialize)]
        struct Parent<'a> {
            children: Vec<Child<'a>>,
            kind: &'a str,
        }
        let names = ["b", "a\"", "c"];
        let value = Parent {
            children: names.iter().map(|name| Child { name }).collect(),
            kind: "directory",
        };
        let mut out = Vec::new();
        ObjectWriter::new(&mut out)
            .array("children", names, |name, out| {
                ObjectWriter::new(out).str("name", name).finish()
            })
            .str("kind", "directory")
            .finish()
            .unwrap();
        assert_eq!(out, canonical_bytes(&value).unwrap());
    }
}

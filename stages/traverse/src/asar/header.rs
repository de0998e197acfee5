//! Lenient serde types for the ASAR header, borrowing from the header's bytes. The top level
//! is read as a node: `{"files": {...}}`.
//!
//! `files` maps keep their order and their duplicate keys (a derived map would silently keep
//! one), and any value that has the wrong shape becomes an `Invalid` or `Other` variant instead
//! of failing the whole header: one odd entry must not fail a whole run.
//!
//! Names and strings borrow from the header text when they hold no escapes (a `Cow`), and the
//! scalar fields REA reads are kept as [`Scalar`]s rather than JSON values: a large header holds
//! a few hundred thousand strings (names, offsets, digests), and allocating each one was most
//! of the time to read it.

use std::borrow::Cow;
use std::fmt;

use serde::Deserialize;
use serde::de::{self, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};

/// A `files` map, in declaration order, duplicates kept.
#[derive(Debug)]
pub(crate) enum RawFiles<'de> {
    Map(Vec<(Cow<'de, str>, RawNode<'de>)>),
    Invalid,
}

/// One header node.
#[derive(Debug)]
pub(crate) enum RawNode<'de> {
    Object {
        files: Option<RawFiles<'de>>,
        /// Boxed: nodes sit in their directory's vector, which grows by copying, and a
        /// directory of many thousand files would copy (and touch fresh pages for) every
        /// node's fields at each growth.
        fields: Box<RawFields<'de>>,
    },
    Invalid,
}

/// The keys of a node that REA reads, checked later, entry by entry.
/// Other keys are skipped without being stored.
#[derive(Debug, Default)]
pub(crate) struct RawFields<'de> {
    pub(crate) size: Option<Scalar<'de>>,
    pub(crate) offset: Option<Scalar<'de>>,
    pub(crate) unpacked: Option<Scalar<'de>>,
    pub(crate) executable: Option<Scalar<'de>>,
    pub(crate) link: Option<Scalar<'de>>,
    pub(crate) integrity: Option<RawIntegrity<'de>>,
}

/// A node's `integrity`, read without a map for the object (a map per file was most of a large
/// header's memory). A value that is not an object has no fields, as a map lookup would find
/// none.
#[derive(Debug, Default)]
pub(crate) struct RawIntegrity<'de> {
    pub(crate) algorithm: Option<Scalar<'de>>,
    pub(crate) hash: Option<Scalar<'de>>,
    pub(crate) block_size: Option<Scalar<'de>>,
    pub(crate) blocks: Option<Blocks<'de>>,
}

/// A JSON value where REA expects a string, a whole number or a boolean.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Scalar<'de> {
    Str(Cow<'de, str>),
    /// A non-negative integer (JSON numbers with a fraction or exponent are `Other`).
    Uint(u64),
    Bool(bool),
    /// Anything else: null, a negative or fractional number, an array, an object.
    Other,
}

impl Scalar<'_> {
    pub(crate) fn as_str(&self) -> Option<&str> {
        match self {
            Scalar::Str(text) => Some(text),
            _ => None,
        }
    }

    pub(crate) fn as_u64(&self) -> Option<u64> {
        match self {
            Scalar::Uint(n) => Some(*n),
            _ => None,
        }
    }

    pub(crate) fn as_bool(&self) -> Option<bool> {
        match self {
            Scalar::Bool(b) => Some(*b),
            _ => None,
        }
    }
}

/// An integrity `blocks` value: an array (each item a string or not), or anything else.
#[derive(Debug)]
pub(crate) enum Blocks<'de> {
    List(Vec<Option<Cow<'de, str>>>),
    Other,
}

/// `Deserialize` for each lenient type, through its visitor: every JSON value is accepted.
macro_rules! deserialize_any {
    ($($ty:ident => $visitor:ident),* $(,)?) => {
        $(impl<'de> Deserialize<'de> for $ty<'de> {
            fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<$ty<'de>, D::Error> {
                deserializer.deserialize_any($visitor)
            }
        })*
    };
}

deserialize_any!(
    RawFiles => FilesVisitor,
    RawNode => NodeVisitor,
    RawIntegrity => IntegrityVisitor,
    Scalar => ScalarVisitor,
    Blocks => BlocksVisitor,
);

/// A JSON string, borrowed from the text when it holds no escapes. (`Cow<str>`'s own
/// `Deserialize` always copies.)
struct Text<'de>(Cow<'de, str>);

impl<'de> Deserialize<'de> for Text<'de> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Text<'de>, D::Error> {
        deserializer.deserialize_str(TextVisitor)
    }
}

struct TextVisitor;

impl<'de> Visitor<'de> for TextVisitor {
    type Value = Text<'de>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a string")
    }

    fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<Text<'de>, E> {
        Ok(Text(Cow::Borrowed(v)))
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<Text<'de>, E> {
        Ok(Text(Cow::Owned(v.to_owned())))
    }
}

struct FilesVisitor;
struct NodeVisitor;
struct IntegrityVisitor;
struct ScalarVisitor;
struct BlocksVisitor;

/// Accepts every scalar JSON value as `$value`.
macro_rules! accept_scalars {
    ($value:expr) => {
        fn visit_bool<E: de::Error>(self, _v: bool) -> Result<Self::Value, E> {
            Ok($value)
        }
        fn visit_i64<E: de::Error>(self, _v: i64) -> Result<Self::Value, E> {
            Ok($value)
        }
        fn visit_u64<E: de::Error>(self, _v: u64) -> Result<Self::Value, E> {
            Ok($value)
        }
        fn visit_f64<E: de::Error>(self, _v: f64) -> Result<Self::Value, E> {
            Ok($value)
        }
        fn visit_str<E: de::Error>(self, _v: &str) -> Result<Self::Value, E> {
            Ok($value)
        }
        fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
            Ok($value)
        }
    };
}

/// Accepts every JSON value but a map as `$invalid`.
macro_rules! accept_non_maps {
    ($invalid:expr) => {
        accept_scalars!($invalid);
        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
            while seq.next_element::<IgnoredAny>()?.is_some() {}
            Ok($invalid)
        }
    };
}

/// Accepts maps and arrays as `$other`, their contents skipped.
macro_rules! accept_containers {
    ($other:expr) => {
        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
            while seq.next_element::<IgnoredAny>()?.is_some() {}
            Ok($other)
        }
        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
            while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
            Ok($other)
        }
    };
}

impl<'de> Visitor<'de> for FilesVisitor {
    type Value = RawFiles<'de>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an ASAR files map")
    }

    accept_non_maps!(RawFiles::Invalid);

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<RawFiles<'de>, A::Error> {
        let mut children = Vec::new();
        while let Some(Text(name)) = map.next_key::<Text<'de>>()? {
            children.push((name, map.next_value::<RawNode<'de>>()?));
        }
        Ok(RawFiles::Map(children))
    }
}

impl<'de> Visitor<'de> for NodeVisitor {
    type Value = RawNode<'de>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an ASAR header node")
    }

    accept_non_maps!(RawNode::Invalid);

    /// The last of repeated keys wins, as in a map.
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<RawNode<'de>, A::Error> {
        let mut files = None;
        let mut fields = RawFields::default();
        while let Some(Text(key)) = map.next_key::<Text<'de>>()? {
            let slot = match key.as_ref() {
                "files" => {
                    files = Some(map.next_value::<RawFiles<'de>>()?);
                    continue;
                }
                "size" => &mut fields.size,
                "offset" => &mut fields.offset,
                "unpacked" => &mut fields.unpacked,
                "executable" => &mut fields.executable,
                "link" => &mut fields.link,
                "integrity" => {
                    fields.integrity = Some(map.next_value::<RawIntegrity<'de>>()?);
                    continue;
                }
                _ => {
                    map.next_value::<IgnoredAny>()?;
                    continue;
                }
            };
            *slot = Some(map.next_value::<Scalar<'de>>()?);
        }
        Ok(RawNode::Object {
            files,
            fields: Box::new(fields),
        })
    }
}

impl<'de> Visitor<'de> for IntegrityVisitor {
    type Value = RawIntegrity<'de>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an ASAR integrity object")
    }

    accept_non_maps!(RawIntegrity::default());

    /// The last of repeated keys wins, as in a map.
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<RawIntegrity<'de>, A::Error> {
        let mut integrity = RawIntegrity::default();
        while let Some(Text(key)) = map.next_key::<Text<'de>>()? {
            let slot = match key.as_ref() {
                "algorithm" => &mut integrity.algorithm,
                "hash" => &mut integrity.hash,
                "blockSize" => &mut integrity.block_size,
                "blocks" => {
                    integrity.blocks = Some(map.next_value::<Blocks<'de>>()?);
                    continue;
                }
                _ => {
                    map.next_value::<IgnoredAny>()?;
                    continue;
                }
            };
            *slot = Some(map.next_value::<Scalar<'de>>()?);
        }
        Ok(integrity)
    }
}

impl<'de> Visitor<'de> for ScalarVisitor {
    type Value = Scalar<'de>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON value")
    }

    accept_containers!(Scalar::Other);

    fn visit_bool<E: de::Error>(self, v: bool) -> Result<Scalar<'de>, E> {
        Ok(Scalar::Bool(v))
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Scalar<'de>, E> {
        Ok(u64::try_from(v).map_or(Scalar::Other, Scalar::Uint))
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Scalar<'de>, E> {
        Ok(Scalar::Uint(v))
    }

    fn visit_f64<E: de::Error>(self, _v: f64) -> Result<Scalar<'de>, E> {
        Ok(Scalar::Other)
    }

    fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<Scalar<'de>, E> {
        Ok(Scalar::Str(Cow::Borrowed(v)))
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<Scalar<'de>, E> {
        Ok(Scalar::Str(Cow::Owned(v.to_owned())))
    }

    fn visit_unit<E: de::Error>(self) -> Result<Scalar<'de>, E> {
        Ok(Scalar::Other)
    }
}

impl<'de> Visitor<'de> for BlocksVisitor {
    type Value = Blocks<'de>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an ASAR integrity block list")
    }

    accept_scalars!(Blocks::Other);

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Blocks<'de>, A::Error> {
        while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
        Ok(Blocks::Other)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Blocks<'de>, A::Error> {
        let mut items = Vec::with_capacity(seq.size_hint().unwrap_or(1));
        while let Some(item) = seq.next_element::<Scalar<'de>>()? {
            items.push(match item {
                Scalar::Str(text) => Some(text),
                _ => None,
            });
        }
        Ok(Blocks::List(items))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn node(text: &str) -> RawFields<'_> {
        match serde_json::from_str::<RawNode<'_>>(text).unwrap() {
            RawNode::Object { fields, .. } => *fields,
            RawNode::Invalid => panic!("not an object: {text}"),
        }
    }

    #[test]
    fn scalars_keep_only_what_the_reader_can_use() {
        let fields = node(
            r#"{"size": 12, "offset": "34", "unpacked": true, "executable": null,
                "link": "a\"b", "extra": {"deep": [1, 2]}}"#,
        );
        assert_eq!(fields.size, Some(Scalar::Uint(12)));
        assert_eq!(fields.offset.as_ref().and_then(Scalar::as_str), Some("34"));
        assert_eq!(
            fields.unpacked.as_ref().and_then(Scalar::as_bool),
            Some(true)
        );
        assert_eq!(fields.executable, Some(Scalar::Other));
        // An escaped string is owned, a plain one borrowed; both read the same.
        assert_eq!(fields.link.as_ref().and_then(Scalar::as_str), Some("a\"b"));
        for odd in ["-1", "1.5", "1e3", "[1]", "{\"a\": 1}", "null"] {
            let text = format!(r#"{{"size": {odd}}}"#);
            assert_eq!(node(&text).size, Some(Scalar::Other), "{odd}");
        }
    }

    #[test]
    fn integrity_blocks_keep_their_positions() {
        let fields = node(
            r#"{"integrity": {"algorithm": "SHA256", "hash": "ab", "blockSize": 4,
                "blocks": ["cd", 5, "ef"]}}"#,
        );
        let integrity = fields.integrity.unwrap();
        assert_eq!(
            integrity.algorithm.as_ref().and_then(Scalar::as_str),
            Some("SHA256")
        );
        assert_eq!(integrity.block_size, Some(Scalar::Uint(4)));
        match integrity.blocks {
            Some(Blocks::List(items)) => assert_eq!(
                items,
                vec![Some(Cow::Borrowed("cd")), None, Some(Cow::Borrowed("ef"))]
            ),
            other => panic!("blocks read as {other:?}"),
        }
        let not_a_list = node(r#"{"integrity": {"blocks": "cd"}}"#);
        assert!(matches!(
            not_a_list.integrity.unwrap().blocks,
            Some(Blocks::Other)
        ));
    }

    #[test]
    fn duplicate_names_are_kept_in_order() {
        let root: RawNode<'_> =
            serde_json::from_str(r#"{"files": {"a": {"size": 1}, "b": 7, "a": {"size": 2}}}"#)
                .unwrap();
        let RawNode::Object {
            files: Some(RawFiles::Map(children)),
            ..
        } = root
        else {
            panic!("files is a map");
        };
        let names: Vec<&str> = children.iter().map(|(name, _)| name.as_ref()).collect();
        assert_eq!(names, vec!["a", "b", "a"]);
        // Names without escapes are borrowed from the header text, not copied.
        assert!(
            children
                .iter()
                .all(|(name, _)| matches!(name, Cow::Borrowed(_)))
        );
        let escaped: RawNode<'_> =
            serde_json::from_str(r#"{"files": {"a\"b": {"size": 1}}}"#).unwrap();
        assert!(matches!(children[1].1, RawNode::Invalid));
        let RawNode::Object {
            files: Some(RawFiles::Map(escaped)),
            ..
        } = escaped
        else {
            panic!("files is a map");
        };
        assert_eq!(escaped[0].0, "a\"b");
    }
}

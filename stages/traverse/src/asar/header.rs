//! Lenient serde types for the ASAR header.
//!
//! `files` maps keep their order and their duplicate keys (a derived map would silently keep
//! one), and any value that has the wrong shape becomes an `Invalid` variant instead of failing
//! the whole header: one odd entry must not fail a whole run.

use std::fmt;

use serde::Deserialize;
use serde::de::{self, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde_json::Value;

/// The top level: `{"files": {...}}`.
#[derive(Debug, Deserialize)]
pub(crate) struct RawRoot {
    pub(crate) files: RawFiles,
}

/// A `files` map, in declaration order, duplicates kept.
#[derive(Debug)]
pub(crate) enum RawFiles {
    Map(Vec<(String, RawNode)>),
    Invalid,
}

/// One header node.
#[derive(Debug)]
pub(crate) enum RawNode {
    Object {
        files: Option<RawFiles>,
        /// Boxed: nodes sit in their directory's vector, which grows by copying, and a
        /// directory of many thousand files would copy (and touch fresh pages for) every
        /// node's fields at each growth.
        fields: Box<RawFields>,
    },
    Invalid,
}

/// The keys of a node that REA reads, as JSON values checked later, entry by entry.
/// Other keys are skipped without being stored.
#[derive(Debug, Default)]
pub(crate) struct RawFields {
    pub(crate) size: Option<Value>,
    pub(crate) offset: Option<Value>,
    pub(crate) unpacked: Option<Value>,
    pub(crate) executable: Option<Value>,
    pub(crate) link: Option<Value>,
    pub(crate) integrity: Option<RawIntegrity>,
}

/// A node's `integrity`, its fields read as JSON values (checked later) without a map for the
/// object: a map per file was most of a large header's memory, and on a VM every fresh page
/// is costly. A value that is not an object has no fields, as a map lookup would find none.
#[derive(Debug, Default)]
pub(crate) struct RawIntegrity {
    pub(crate) algorithm: Option<Value>,
    pub(crate) hash: Option<Value>,
    pub(crate) block_size: Option<Value>,
    pub(crate) blocks: Option<Value>,
}

impl<'de> Deserialize<'de> for RawIntegrity {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<RawIntegrity, D::Error> {
        deserializer.deserialize_any(IntegrityVisitor)
    }
}

struct IntegrityVisitor;

impl<'de> Deserialize<'de> for RawFiles {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<RawFiles, D::Error> {
        deserializer.deserialize_any(FilesVisitor)
    }
}

impl<'de> Deserialize<'de> for RawNode {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<RawNode, D::Error> {
        deserializer.deserialize_any(NodeVisitor)
    }
}

struct FilesVisitor;
struct NodeVisitor;

/// Accepts every non-map JSON value as `$invalid`.
macro_rules! accept_scalars {
    ($invalid:expr) => {
        fn visit_bool<E: de::Error>(self, _v: bool) -> Result<Self::Value, E> {
            Ok($invalid)
        }
        fn visit_i64<E: de::Error>(self, _v: i64) -> Result<Self::Value, E> {
            Ok($invalid)
        }
        fn visit_u64<E: de::Error>(self, _v: u64) -> Result<Self::Value, E> {
            Ok($invalid)
        }
        fn visit_f64<E: de::Error>(self, _v: f64) -> Result<Self::Value, E> {
            Ok($invalid)
        }
        fn visit_str<E: de::Error>(self, _v: &str) -> Result<Self::Value, E> {
            Ok($invalid)
        }
        fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
            Ok($invalid)
        }
        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
            while seq.next_element::<IgnoredAny>()?.is_some() {}
            Ok($invalid)
        }
    };
}

impl<'de> Visitor<'de> for FilesVisitor {
    type Value = RawFiles;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an ASAR files map")
    }

    accept_scalars!(RawFiles::Invalid);

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<RawFiles, A::Error> {
        let mut children = Vec::new();
        while let Some(name) = map.next_key::<String>()? {
            children.push((name, map.next_value::<RawNode>()?));
        }
        Ok(RawFiles::Map(children))
    }
}

impl<'de> Visitor<'de> for NodeVisitor {
    type Value = RawNode;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an ASAR header node")
    }

    accept_scalars!(RawNode::Invalid);

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<RawNode, A::Error> {
        let mut files = None;
        let mut fields = RawFields::default();
        while let Some(key) = map.next_key::<std::borrow::Cow<'de, str>>()? {
            let slot = match key.as_ref() {
                "files" => {
                    files = Some(map.next_value::<RawFiles>()?);
                    continue;
                }
                "size" => &mut fields.size,
                "offset" => &mut fields.offset,
                "unpacked" => &mut fields.unpacked,
                "executable" => &mut fields.executable,
                "link" => &mut fields.link,
                "integrity" => {
                    fields.integrity = Some(map.next_value::<RawIntegrity>()?);
                    continue;
                }
                _ => {
                    map.next_value::<IgnoredAny>()?;
                    continue;
                }
            };
            *slot = Some(map.next_value::<Value>()?);
        }
        Ok(RawNode::Object {
            files,
            fields: Box::new(fields),
        })
    }
}

impl<'de> Visitor<'de> for IntegrityVisitor {
    type Value = RawIntegrity;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an ASAR integrity object")
    }

    accept_scalars!(RawIntegrity::default());

    /// The last of repeated keys wins, as in a map.
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<RawIntegrity, A::Error> {
        let mut integrity = RawIntegrity::default();
        while let Some(key) = map.next_key::<std::borrow::Cow<'de, str>>()? {
            let slot = match key.as_ref() {
                "algorithm" => &mut integrity.algorithm,
                "hash" => &mut integrity.hash,
                "blockSize" => &mut integrity.block_size,
                "blocks" => &mut integrity.blocks,
                _ => {
                    map.next_value::<IgnoredAny>()?;
                    continue;
                }
            };
            *slot = Some(map.next_value::<Value>()?);
        }
        Ok(integrity)
    }
}

//! Canonical JSON (RFC 8785, "JCS") and content ids.
//!
//! Every id REA publishes is `prefix + lowercase_hex(SHA-256(JCS(value)))`, where `value` is a
//! small JSON object named in the recipe of that id. JCS sorts object keys by UTF-16 code
//! units, prints numbers the ECMAScript way and writes no whitespace, so the same value gives
//! the same bytes on every machine and thread count.

use std::io::Write;

use serde::Serialize;
use sha2::{Digest, Sha256};

/// A value that has no canonical form (a non-finite number, or a failing `Serialize`).
#[derive(Debug, thiserror::Error)]
#[error("value has no canonical json form")]
pub struct CanonicalError {
    #[source]
    source: serde_json::Error,
}

/// The canonical bytes of `value`.
pub fn canonical_bytes<T: Serialize + ?Sized>(value: &T) -> Result<Vec<u8>, CanonicalError> {
    serde_jcs::to_vec(value).map_err(|source| CanonicalError { source })
}

/// Lowercase hex SHA-256 of the canonical bytes of `value`, streamed into the hasher.
pub fn digest_canonical<T: Serialize + ?Sized>(value: &T) -> Result<String, CanonicalError> {
    let mut writer = HashWriter(Sha256::new());
    serde_jcs::to_writer(&mut writer, value).map_err(|source| CanonicalError { source })?;
    Ok(hex::encode(writer.0.finalize()))
}

/// `prefix` followed by [`digest_canonical`] of `value`.
pub fn content_id<T: Serialize + ?Sized>(
    prefix: &str,
    value: &T,
) -> Result<String, CanonicalError> {
    Ok(format!("{prefix}{}", digest_canonical(value)?))
}

/// Lowercase hex SHA-256 of raw bytes.
pub fn sha256_hex(bytes: &[u8]) -> String {
    hex::encode(Sha256::digest(bytes))
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
    fn sha256_of_abc_is_the_fips_vector() {
        assert_eq!(
            sha256_hex(b"abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }
}

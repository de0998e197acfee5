//! Tool results: success envelopes under the response budget, and error results.
//!
//! A success carries the same JSON twice, as text and as `structuredContent`. Its size is
//! decided before any response string is built: the structured form is the canonical bytes we
//! already hold, and the text form's length is counted by serializing those bytes as a JSON
//! string into a counting writer.

use std::io::Write;

use rea_core::Failure;
use rea_jobs::error::ErrorObject;
use rmcp::model::{CallToolResult, ContentBlock};
use serde_json::{Value, json};

/// The default, and smallest, response budget: the pinned stdio clients' receive buffer.
pub const DEFAULT_MAX_RESPONSE_BYTES: u64 = 10 * 1024 * 1024;
/// Bytes kept for the JSON-RPC envelope around a result.
pub const RESERVED_BYTES: u64 = 1024;
/// The environment variable that raises the budget.
pub const BUDGET_ENV: &str = "REA_MCP_MAX_RESPONSE_BYTES";
/// `Number.MAX_SAFE_INTEGER`.
const MAX_SAFE_INTEGER: u64 = (1 << 53) - 1;

/// Reads the budget from `value` (the environment variable's value, if set).
pub fn budget_from(value: Option<&str>) -> Result<u64, String> {
    let Some(text) = value else {
        return Ok(DEFAULT_MAX_RESPONSE_BYTES);
    };
    let valid = !text.is_empty() && text.len() <= 16 && text.bytes().all(|b| b.is_ascii_digit());
    match text.parse::<u64>() {
        Ok(n) if valid && (DEFAULT_MAX_RESPONSE_BYTES..=MAX_SAFE_INTEGER).contains(&n) => Ok(n),
        _ => Err(format!(
            "{BUDGET_ENV} must be a decimal integer from {DEFAULT_MAX_RESPONSE_BYTES} to {MAX_SAFE_INTEGER} (bytes); got {text:?}"
        )),
    }
}

/// Counts bytes written.
#[derive(Debug, Default)]
pub struct Counter(pub u64);

impl Write for Counter {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0 += buf.len() as u64;
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Counts the bytes of JSON text written through it once embedded in a JSON string: every
/// byte, plus one for each `"` and `\` (canonical JSON holds no raw control characters).
#[derive(Debug, Default)]
pub struct EscapedCounter {
    pub raw: u64,
    pub escaped: u64,
}

impl Write for EscapedCounter {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.raw += buf.len() as u64;
        self.escaped += buf.len() as u64;
        self.escaped += buf.iter().filter(|&&b| b == b'"' || b == b'\\').count() as u64;
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Bytes of a result around its text and structured forms:
/// `{"content":[{"type":"text","text":""}],"isError":false,"structuredContent":}` and slack.
const RESULT_FRAME_BYTES: u64 = 128;

/// The size a result carrying `json` (compact JSON, UTF-8) as both text and structured content
/// takes, counted without building the text.
pub fn response_size(json: &[u8]) -> u64 {
    let text = std::str::from_utf8(json).unwrap_or_default();
    let mut counter = Counter::default();
    // Writing to a counter cannot fail.
    let _ = serde_json::to_writer(&mut counter, text);
    json.len() as u64 + counter.0 + RESULT_FRAME_BYTES
}

/// A success result, or `resource_constraint` when `json` does not fit `budget`.
/// `reference` names the retained record a too-large result can be fetched as.
pub fn success(
    operation: &str,
    json: &[u8],
    budget: u64,
    reference: Option<&str>,
) -> CallToolResult {
    let size = response_size(json);
    if size > budget.saturating_sub(RESERVED_BYTES) {
        return too_large(operation, size, budget, reference);
    }
    let value: Value = match serde_json::from_slice(json) {
        Ok(value) => value,
        Err(_) => return internal(operation, "result is not JSON"),
    };
    let text = String::from_utf8_lossy(json).into_owned();
    let mut result = CallToolResult::success(vec![ContentBlock::text(text)]);
    result.structured_content = Some(value);
    result
}

/// `resource_constraint`: the response would not fit the transport budget.
pub fn too_large(
    operation: &str,
    measured: u64,
    budget: u64,
    reference: Option<&str>,
) -> CallToolResult {
    let evidence_reference = match reference {
        Some(id) => json!({"kind": "retained-evidence", "evidence_id": id}),
        None => Value::Null,
    };
    let action = if reference.is_some() {
        "The complete Evidence is retained in this session. Call export_evidence_bundle with an absolute path to write it out, or pass details.reported_limits.evidence_reference to a tool that accepts retained Evidence. Raising REA_MCP_MAX_RESPONSE_BYTES with the client's receive buffer also works."
    } else {
        "Call export_evidence_bundle with an absolute path to write the bundle to a file, or raise REA_MCP_MAX_RESPONSE_BYTES with the client's receive buffer."
    };
    error_result(json!({
        "code": "resource_constraint",
        "category": "truncated",
        "message": "The result is too large for one MCP response.",
        "retryable": false,
        "remediation": {"action": action, "restart_required": false},
        "details": {
            "operation": operation,
            "resource": "transport",
            "limit": budget,
            "measured_bytes": measured,
            "reported_limits": {
                "max_response_bytes": budget,
                "reserved_bytes": RESERVED_BYTES,
                "evidence_reference": evidence_reference,
            },
        },
    }))
}

/// An engine failure as a tool error.
pub fn failure(operation: &str, failure: &Failure) -> CallToolResult {
    error_result(ErrorObject::from_failure(operation, failure).to_json())
}

/// An internal error (a bug, a panic); the server keeps serving.
pub fn internal(operation: &str, what: &str) -> CallToolResult {
    error_result(json!({
        "code": "execution_failure",
        "category": "execution_failure",
        "message": "Analysis could not complete. Retry once; if it continues, report the input.",
        "retryable": false,
        "remediation": {"action": "Retry once; if it continues, report the input.", "restart_required": false},
        "details": {"operation": operation, "reason": "internal", "problem": what},
    }))
}

/// Any error object `{code, category, message, retryable, remediation, details}`.
pub fn error_result(error: Value) -> CallToolResult {
    CallToolResult::structured_error(json!({ "error": error }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_budget_is_a_safe_integer_of_at_least_ten_mebibytes() {
        assert_eq!(budget_from(None).unwrap(), DEFAULT_MAX_RESPONSE_BYTES);
        assert_eq!(budget_from(Some("20971520")).unwrap(), 20_971_520);
        for bad in [
            "1024",
            "10485759",
            "",
            "1e9",
            "-1",
            " 10485760",
            "9007199254740992",
            "0x10",
        ] {
            assert!(budget_from(Some(bad)).is_err(), "{bad:?} accepted");
        }
    }

    #[test]
    fn the_counted_size_is_the_serialized_size() {
        let json = br#"{"a":"quote \" and backslash \\ here","b":[1,2,{"c":"\u00e9"}]}"#;
        let value: Value = serde_json::from_slice(json).unwrap();
        let compact = serde_json::to_vec(&value).unwrap();
        let result = success("x", &compact, DEFAULT_MAX_RESPONSE_BYTES, None);
        let text = result.content[0]
            .as_text()
            .expect("text content")
            .text
            .clone();
        let exact = serde_json::to_vec(&text).unwrap().len() + compact.len();
        let counted = response_size(&compact) - RESULT_FRAME_BYTES;
        assert_eq!(counted as usize, exact);
        let serialized = serde_json::to_vec(&result).unwrap().len() as u64;
        assert!(
            serialized <= response_size(&compact),
            "{serialized} > frame"
        );
        let mut escaped = EscapedCounter::default();
        escaped.write_all(&compact).unwrap();
        assert_eq!(
            escaped.escaped as usize + 2,
            serde_json::to_vec(&text).unwrap().len()
        );
    }

    #[test]
    fn a_result_over_the_budget_becomes_resource_constraint() {
        let big = format!("{{\"s\":\"{}\"}}", "x".repeat(600));
        let result = success(
            "analyze_javascript_application",
            big.as_bytes(),
            1500,
            Some("ev_1"),
        );
        assert_eq!(result.is_error, Some(true));
        let error = &result.structured_content.unwrap()["error"];
        assert_eq!(error["code"], "resource_constraint");
        assert_eq!(error["details"]["resource"], "transport");
        assert_eq!(
            error["details"]["reported_limits"]["evidence_reference"]["evidence_id"],
            "ev_1"
        );
    }
}

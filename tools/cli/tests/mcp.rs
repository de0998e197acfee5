//! `rea mcp` end to end: real MCP clients (the official TypeScript SDK and the Python `mcp`
//! SDK, pinned under `tests/mcp-e2e/`) drive the server over stdio, plus raw JSON-RPC checks of
//! what those SDKs cannot send, and the checked-in product catalog.

mod support;

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use serde_json::{Value, json};
use support::{python, rea, run, sample};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn e2e() -> PathBuf {
    repo().join("tests/mcp-e2e")
}

fn absolute(path: PathBuf) -> String {
    path.canonicalize()
        .expect("path exists")
        .to_string_lossy()
        .into_owned()
}

/// Installs the pinned TypeScript SDK when `.ci/run` has not already.
fn node_modules() {
    if e2e()
        .join("node_modules/@modelcontextprotocol/sdk/package.json")
        .is_file()
    {
        return;
    }
    let status = Command::new("npm")
        .args(["ci", "--no-audit", "--no-fund"])
        .current_dir(e2e())
        .status()
        .expect("npm runs");
    assert!(status.success(), "npm ci in tests/mcp-e2e failed");
}

fn checked(stdout: &[u8]) -> Vec<String> {
    let line = String::from_utf8_lossy(stdout);
    let report: Value = serde_json::from_str(line.trim()).expect("the client prints a JSON report");
    report["checked"]
        .as_array()
        .expect("checked list")
        .iter()
        .map(|v| v.as_str().unwrap().to_owned())
        .collect()
}

#[test]
fn the_typescript_sdk_drives_every_contract_point() {
    node_modules();
    let work = tempfile::tempdir().unwrap();
    let output = Command::new("node")
        .arg(e2e().join("client.mjs"))
        .arg(env!("CARGO_BIN_EXE_rea"))
        .arg(absolute(sample()))
        .arg(work.path())
        .env_remove("REA_MCP_MAX_RESPONSE_BYTES")
        .output()
        .expect("node runs");
    assert!(
        output.status.success(),
        "{}\n{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    assert_eq!(
        checked(&output.stdout),
        [
            "initialize",
            "tools/list and schema profile",
            "binary_session",
            "analyze with progress",
            "retained and missing references",
            "compare_application_versions",
            "compare_source_to_bundle",
            "compare_javascript_export_shapes",
            "trace_javascript_semantics",
            "trace_application_feature",
            "32 concurrent calls",
            "garbage on stdin",
            "export, import and round trip",
            "cancellation",
            "response budget",
            "close_binary",
        ]
    );
}

#[test]
fn the_python_sdk_drives_the_session_and_bundle_tools() {
    let python = python();
    let work = tempfile::tempdir().unwrap();
    let output = Command::new(python)
        .arg(e2e().join("client.py"))
        .arg(env!("CARGO_BIN_EXE_rea"))
        .arg(absolute(sample()))
        .arg(work.path())
        .arg(repo().join("docs/product-catalog.json"))
        .output()
        .expect("python runs");
    assert!(
        output.status.success(),
        "{}\n{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    let checked = checked(&output.stdout);
    assert_eq!(checked.len(), 12, "{checked:?}");
    assert!(checked.iter().any(|c| c == "compare_application_versions"));
    assert!(checked.iter().any(|c| c == "compare_source_to_bundle"));
    assert!(
        checked
            .iter()
            .any(|c| c == "compare_javascript_export_shapes")
    );
    assert!(checked.iter().any(|c| c == "trace_application_feature"));
    assert!(checked.iter().any(|c| c == "trace_javascript_semantics"));
}

#[test]
fn the_checked_in_catalog_is_the_generated_one() {
    let output = run(&["catalog", "--out", "-"]);
    assert!(output.status.success());
    let generated: Value = serde_json::from_slice(&output.stdout).unwrap();
    let text = std::fs::read_to_string(repo().join("docs/product-catalog.json")).unwrap();
    let checked_in: Value = serde_json::from_str(&text).unwrap();
    assert!(
        generated == checked_in,
        "docs/product-catalog.json is stale: run `rea catalog`"
    );
    assert_eq!(
        text,
        format!("{}\n", serde_json::to_string_pretty(&generated).unwrap())
    );
    let names: Vec<&str> = generated["tools"]["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    let mut sorted = names.clone();
    sorted.sort();
    assert_eq!(names, sorted);
    assert!(
        generated["cli"]["commands"]
            .as_array()
            .unwrap()
            .contains(&json!("mcp"))
    );
}

#[test]
fn rmcp_version_reported_is_the_locked_one() {
    let lock = std::fs::read_to_string(repo().join("Cargo.lock")).unwrap();
    let locked = lock
        .split("[[package]]")
        .find(|p| p.contains("name = \"rmcp\"\n"))
        .and_then(|p| p.lines().find(|l| l.starts_with("version = ")))
        .map(|l| {
            l.trim_start_matches("version = ")
                .trim_matches('"')
                .to_owned()
        })
        .expect("rmcp in Cargo.lock");
    assert_eq!(locked, rea_mcp_version());
}

fn rea_mcp_version() -> String {
    let output = run(&["catalog", "--out", "-"]);
    let catalog: Value = serde_json::from_slice(&output.stdout).unwrap();
    catalog["package"]["sdk"]["server_version"]
        .as_str()
        .unwrap()
        .to_owned()
}

#[test]
fn an_invalid_response_budget_refuses_to_start() {
    for bad in ["1024", "ten", "10485759", "99999999999999999999"] {
        let output = rea()
            .arg("mcp")
            .env("REA_MCP_MAX_RESPONSE_BYTES", bad)
            .output()
            .unwrap();
        assert!(!output.status.success(), "{bad} accepted");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(stderr.contains("REA_MCP_MAX_RESPONSE_BYTES"), "{stderr}");
        assert!(output.stdout.is_empty(), "stdout carries only protocol");
    }
}

/// A raw JSON-RPC session over the server's stdio.
struct Raw {
    child: std::process::Child,
    out: BufReader<std::process::ChildStdout>,
}

impl Raw {
    fn start() -> Raw {
        let mut child = rea()
            .arg("mcp")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let out = BufReader::new(child.stdout.take().unwrap());
        let mut raw = Raw { child, out };
        raw.send(r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"0"}}}"#);
        assert_eq!(raw.recv()["id"], 0);
        raw.send(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#);
        raw
    }

    fn send(&mut self, line: &str) {
        let stdin = self.child.stdin.as_mut().unwrap();
        stdin.write_all(line.as_bytes()).unwrap();
        stdin.write_all(b"\n").unwrap();
        stdin.flush().unwrap();
    }

    fn recv(&mut self) -> Value {
        let mut line = String::new();
        self.out.read_line(&mut line).unwrap();
        serde_json::from_str(&line).unwrap_or_else(|_| panic!("not JSON: {line:?}"))
    }

    fn finish(mut self) {
        drop(self.child.stdin.take());
        let status = self.child.wait().unwrap();
        assert!(status.success(), "the server exits cleanly at end of input");
    }
}

#[test]
fn garbage_gets_json_rpc_errors_and_the_server_keeps_serving() {
    let mut raw = Raw::start();
    raw.send("this is not json");
    let parse = raw.recv();
    assert_eq!(parse["error"]["code"], -32700);
    assert_eq!(parse["id"], Value::Null);
    raw.send("\u{1}\u{2}{{{");
    assert_eq!(raw.recv()["error"]["code"], -32700);
    raw.send(r#"{"jsonrpc":"2.0","id":1,"method":"no/such/method"}"#);
    let unknown = raw.recv();
    assert_eq!(
        (unknown["id"].clone(), unknown["error"]["code"].clone()),
        (json!(1), json!(-32601))
    );
    raw.send(r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"no_such_tool","arguments":{}}}"#);
    assert_eq!(raw.recv()["error"]["code"], -32602);
    raw.send(r#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"inventory_artifact","arguments":{"input_path":7}}}"#);
    let invalid = raw.recv();
    assert_eq!(invalid["error"]["code"], -32602);
    assert_eq!(invalid["error"]["data"]["code"], "invalid_request");
    raw.send(r#"{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"inventory_artifact","arguments":{"input_path":"relative/path"}}}"#);
    let relative = raw.recv();
    assert_eq!(relative["result"]["isError"], true);
    assert_eq!(
        relative["result"]["structuredContent"]["error"]["code"],
        "invalid_request"
    );
    raw.send(r#"{"jsonrpc":"2.0","id":5,"method":"tools/list"}"#);
    let catalog: Value = serde_json::from_str(
        &std::fs::read_to_string(repo().join("docs/product-catalog.json")).unwrap(),
    )
    .unwrap();
    let listed = raw.recv()["result"]["tools"].as_array().unwrap().len();
    assert_eq!(Some(listed as u64), catalog["tools"]["total"].as_u64());
    raw.finish();
}

#[test]
fn importing_garbage_is_a_typed_error_and_imports_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let garbage = dir.path().join("garbage.json");
    std::fs::write(&garbage, b"\xff\x00 not a bundle").unwrap();
    let mut raw = Raw::start();
    for (id, path) in [
        (1, garbage.clone()),
        (2, dir.path().to_path_buf()),
        (3, dir.path().join("missing")),
    ] {
        raw.send(&format!(
            r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"name":"import_evidence_bundle","arguments":{{"path":{:?}}}}}}}"#,
            path.to_str().unwrap()
        ));
        let response = raw.recv();
        assert_eq!(response["result"]["isError"], true, "{response}");
        let code = &response["result"]["structuredContent"]["error"]["code"];
        assert!(code.is_string(), "{response}");
    }
    raw.send(r#"{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"binary_session","arguments":{}}}"#);
    let state = raw.recv();
    assert_eq!(
        state["result"]["structuredContent"]["result"]["evidence_ledger"]["records"],
        0
    );
    raw.finish();
}

#[test]
fn a_tool_failure_is_an_error_result_with_the_error_object() {
    let mut raw = Raw::start();
    raw.send(r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"inspect_artifact","arguments":{"input_path":"/no/such/input/anywhere"}}}"#);
    let response = raw.recv();
    let result = &response["result"];
    assert_eq!(result["isError"], true);
    let error = &result["structuredContent"]["error"];
    assert_eq!(error["code"], "artifact_operation_failed");
    assert_eq!(error["details"]["operation"], "inspect_artifact");
    let text: Value = serde_json::from_str(result["content"][0]["text"].as_str().unwrap()).unwrap();
    assert_eq!(&text, &result["structuredContent"]);
    raw.finish();
}

//! The stdio transport, with JSON-RPC parse errors.
//!
//! rmcp drops lines that are not JSON without answering. JSON-RPC 2.0 asks for a `-32700`
//! parse error with a null id, so this layer sits between the process's stdio and rmcp: each
//! input line that is not JSON is answered with that error, every other line is passed on
//! unchanged, and one writer task interleaves rmcp's output and these errors line by line.

use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader, DuplexStream};
use tokio::sync::mpsc;
use tokio::task::JoinHandle;

const PIPE_BYTES: usize = 1 << 20;

const PARSE_ERROR: &[u8] =
    b"{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32700,\"message\":\"Parse error: the line is not JSON\"}}\n";

/// The two ends rmcp uses, and the task that owns stdout (await it to flush before exit).
pub struct Transport {
    pub read: DuplexStream,
    pub write: DuplexStream,
    pub writer: JoinHandle<()>,
}

/// Connects to the process's stdin and stdout.
pub fn transport() -> Transport {
    let (to_rmcp, rmcp_reads) = tokio::io::duplex(PIPE_BYTES);
    let (rmcp_writes, from_rmcp) = tokio::io::duplex(PIPE_BYTES);
    let (lines_tx, mut lines_rx) = mpsc::channel::<Vec<u8>>(64);

    let errors = lines_tx.clone();
    tokio::spawn(async move {
        let mut stdin = BufReader::new(tokio::io::stdin());
        let mut to_rmcp = to_rmcp;
        let mut line = Vec::new();
        loop {
            line.clear();
            match stdin.read_until(b'\n', &mut line).await {
                Ok(0) | Err(_) => break,
                Ok(_) => {}
            }
            let body = trim(&line);
            if body.is_empty() {
                continue;
            }
            if serde_json::from_slice::<serde::de::IgnoredAny>(body).is_err() {
                tracing::debug!("answered a line that is not JSON with a parse error");
                if errors.send(PARSE_ERROR.to_vec()).await.is_err() {
                    break;
                }
                continue;
            }
            if to_rmcp.write_all(body).await.is_err() || to_rmcp.write_all(b"\n").await.is_err() {
                break;
            }
        }
        // EOF on stdin: rmcp sees EOF too and shuts the service down.
        let _ = to_rmcp.shutdown().await;
    });

    tokio::spawn(async move {
        let mut from_rmcp = BufReader::new(from_rmcp);
        let mut line = Vec::new();
        loop {
            line.clear();
            match from_rmcp.read_until(b'\n', &mut line).await {
                Ok(0) | Err(_) => break,
                Ok(_) => {}
            }
            if lines_tx.send(std::mem::take(&mut line)).await.is_err() {
                break;
            }
        }
    });

    let writer = tokio::spawn(async move {
        let mut stdout = tokio::io::stdout();
        while let Some(mut line) = lines_rx.recv().await {
            if line.last() != Some(&b'\n') {
                line.push(b'\n');
            }
            if stdout.write_all(&line).await.is_err() || stdout.flush().await.is_err() {
                break;
            }
        }
    });

    Transport {
        read: rmcp_reads,
        write: rmcp_writes,
        writer,
    }
}

fn trim(line: &[u8]) -> &[u8] {
    let mut body = line;
    while let [rest @ .., b'\n' | b'\r'] = body {
        body = rest;
    }
    body
}

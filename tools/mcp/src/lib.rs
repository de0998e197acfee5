//! `rea mcp`: the MCP front door, over stdio, built on rmcp (the official Rust SDK).
//!
//! This crate is the only code that speaks MCP. Each handler decodes its parameters (types in
//! [`params`], whose `schemars` schemas are what `tools/list` advertises), runs a job in the
//! engine ([`rea_jobs`]) and encodes the sealed result; it holds no analysis logic.
//!
//! - [`catalog`]: the canonical tool inventory (always complete; no `list_changed`), effects,
//!   annotations, and the product catalog with its digests.
//! - [`server`]: the handler. Calls run concurrently; analysis runs on the engine's pool.
//! - [`session`]: one connection's ledger, target, run id and running calls; provider discovery.
//! - [`response`]: the response budget (counted before any response string is built) and the
//!   error envelope `{error: {code, category, message, retryable, remediation, details}}`.
//! - [`progress`]: engine progress as `notifications/progress`.
//! - [`stdio`]: the transport, which answers lines that are not JSON with `-32700`.

pub mod catalog;
pub mod params;
mod progress;
pub mod response;
mod server;
pub mod session;
mod stdio;

pub use server::{Rea, ServerOptions, serve_stdio};

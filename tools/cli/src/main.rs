//! `rea`: the command-line front door. Thin glue over `rea-jobs`.
//!
//! The command line is parsed in two steps: [`args`] turns words into validated options with
//! no side effects (usage errors exit 2), then each command in [`commands`] builds a job
//! request and runs it. Ctrl-C cancels the running job through its token.
//!
//! Exit codes: 0 success, 1 the job failed, 2 usage error, 130 cancelled by Ctrl-C.

mod args;
mod commands;
mod pipeline;
mod progress;
mod render;

use std::process::ExitCode;

use clap::Parser;
use rea_core::{CancelReason, CancelToken};

/// Graph building allocates many small JSON values across threads; mimalloc handles that
/// pattern far better than glibc's allocator (see BENCHMARKS.md).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Set while `rea mcp` serves: then Ctrl-C ends the process at once.
static SERVING_MCP: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

fn main() -> ExitCode {
    // The handler goes in first, so that a Ctrl-C at any moment cancels instead of killing.
    let cancel = CancelToken::new();
    let handler_token = cancel.clone();
    let handler = ctrlc::set_handler(move || {
        if SERVING_MCP.load(std::sync::atomic::Ordering::Relaxed) || handler_token.is_cancelled() {
            // The MCP server owns no job of the user's: Ctrl-C ends it.
            // A second Ctrl-C: the user insists.
            std::process::exit(130);
        }
        handler_token.cancel(CancelReason::User);
    });
    if let Err(err) = handler {
        eprintln!("rea: could not install the Ctrl-C handler: {err}");
    }
    let cli = match args::Cli::try_parse() {
        Ok(cli) => {
            if matches!(cli.command, args::Command::Mcp) {
                SERVING_MCP.store(true, std::sync::atomic::Ordering::Relaxed);
            }
            cli
        }
        Err(err) => {
            let _ = err.print();
            return ExitCode::from(u8::try_from(err.exit_code()).unwrap_or(2));
        }
    };
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_env("REA_LOG")
                .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("warn")),
        )
        .init();
    commands::run(cli, &cancel)
}

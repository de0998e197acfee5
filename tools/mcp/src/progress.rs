//! Engine progress as MCP `notifications/progress`.
//!
//! The engine's [`ProgressReporter`] already enforces the rules (monotonic, at most one
//! intermediate update per 100 ms, one terminal update, no invented total); this sink only
//! forwards each update, in order, to an async task that sends it to the client.

use std::sync::Arc;

use rea_core::{ProgressReporter, ProgressSink, ProgressUpdate, SystemClock};
use rmcp::model::{ProgressNotificationParam, ProgressToken};
use rmcp::service::{Peer, RoleServer};
use tokio::sync::mpsc;
use tokio::task::JoinHandle;

struct ChannelSink {
    tx: mpsc::UnboundedSender<ProgressUpdate>,
}

impl ProgressSink for ChannelSink {
    fn send(&self, update: &ProgressUpdate) {
        // A closed channel means the call is over; nothing is left to tell.
        let _ = self.tx.send(update.clone());
    }
}

/// A reporter for one call, and the task forwarding its updates. Without a progress token the
/// reporter is silent. The task ends once the reporter is dropped and every update is sent.
pub fn bridge(
    peer: Peer<RoleServer>,
    token: Option<ProgressToken>,
) -> (ProgressReporter, Option<JoinHandle<()>>) {
    let Some(token) = token else {
        return (ProgressReporter::silent(), None);
    };
    let (tx, mut rx) = mpsc::unbounded_channel::<ProgressUpdate>();
    let forward = tokio::spawn(async move {
        while let Some(update) = rx.recv().await {
            let mut param = ProgressNotificationParam::new(token.clone(), update.completed as f64)
                .with_message(format!("{}: {}", update.phase, update.message));
            if let Some(total) = update.total {
                param = param.with_total(total as f64);
            }
            if let Err(err) = peer.notify_progress(param).await {
                tracing::debug!("progress notification not sent: {err}");
            }
        }
    });
    let reporter = ProgressReporter::new(
        Arc::new(ChannelSink { tx }),
        Arc::new(SystemClock::default()),
    );
    (reporter, Some(forward))
}

//! The progress bar: an indicatif bar on stderr, only when stderr is a terminal.

use std::io::IsTerminal;
use std::sync::Arc;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use rea_core::{ProgressReporter, ProgressSink, ProgressUpdate, SystemClock};

struct BarSink {
    bar: ProgressBar,
}

impl ProgressSink for BarSink {
    fn send(&self, update: &ProgressUpdate) {
        if update.terminal {
            self.bar.finish_and_clear();
            return;
        }
        match update.total {
            Some(total) => {
                if self.bar.length() != Some(total) {
                    self.bar.set_length(total);
                    self.bar.set_style(
                        ProgressStyle::with_template(
                            "[{bar:30}] {bytes}/{total_bytes} {bytes_per_sec} {msg}",
                        )
                        .unwrap_or_else(|_| ProgressStyle::default_bar())
                        .progress_chars("=> "),
                    );
                }
            }
            None => self.bar.set_style(
                ProgressStyle::with_template("{spinner} {bytes} {bytes_per_sec} {msg}")
                    .unwrap_or_else(|_| ProgressStyle::default_spinner()),
            ),
        }
        self.bar.set_message(if update.message.is_empty() {
            update.phase.clone()
        } else {
            format!("{}: {}", update.phase, update.message)
        });
        self.bar.set_position(update.completed);
    }
}

/// A reporter drawing on stderr when it is a terminal, silent otherwise.
pub fn reporter() -> ProgressReporter {
    if !std::io::stderr().is_terminal() {
        return ProgressReporter::silent();
    }
    let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
    ProgressReporter::new(Arc::new(BarSink { bar }), Arc::new(SystemClock::default()))
}

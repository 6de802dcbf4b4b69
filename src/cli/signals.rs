//! Ctrl-C and SIGTERM: the command tidies up, then exits with 128 + the
//! signal's number, as a shell expects of a process the signal killed.

use signal_hook::consts::{SIGINT, SIGTERM};
use signal_hook::iterator::Signals;

/// Runs `tidy` on a thread of its own when SIGINT or SIGTERM arrives, then
/// ends the process. Without a handler (the signals cannot be caught), the
/// signals keep their default action.
pub fn on_interrupt(tidy: impl FnOnce() + Send + 'static) {
    let Ok(mut signals) = Signals::new([SIGINT, SIGTERM]) else {
        return;
    };
    std::thread::spawn(move || {
        if let Some(signal) = signals.forever().next() {
            tidy();
            std::process::exit(128 + signal);
        }
    });
}

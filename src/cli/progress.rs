//! Progress on stderr: drawn only when stderr is a terminal, and only after
//! a second, so that short counts stay quiet. Elsewhere (a log file, a
//! batch job) a plan known to take seconds is said in one line first.

use std::io::{self, IsTerminal};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use nqueens::Phase;

/// A count's progress: a spinner while it plans, then the work items done
/// with an ETA: the estimate's (see `set_estimate`) until a twentieth of
/// the items is done, then the pace of the items.
pub struct CountBar {
    bar: ProgressBar,
    counting: AtomicBool,
    /// The estimated seconds of the whole count, and when it started.
    estimate: Mutex<Option<(f64, Instant)>>,
    paced: AtomicBool,
}

impl CountBar {
    /// The bar of a count of the n×n board, made before the count plans:
    /// planning the join takes seconds from n = 22 (23 s at n = 25 on two
    /// threads, `nqueens::engine::join::LAYOUT_TIMES`).
    pub fn new(n: usize) -> CountBar {
        let terminal = io::stderr().is_terminal();
        let bar = if terminal {
            ProgressBar::with_draw_target(None, ProgressDrawTarget::hidden())
        } else {
            ProgressBar::hidden()
        };
        bar.set_style(style(
            "{elapsed_precise} {spinner} planning the count of n = {msg}…",
        ));
        bar.set_message(n.to_string());
        if terminal {
            let shown = bar.clone();
            std::thread::spawn(move || {
                std::thread::sleep(Duration::from_secs(1));
                if !shown.is_finished() {
                    shown.set_draw_target(ProgressDrawTarget::stderr());
                    shown.enable_steady_tick(Duration::from_millis(250));
                }
            });
        }
        CountBar {
            bar,
            counting: AtomicBool::new(false),
            estimate: Mutex::new(None),
            paced: AtomicBool::new(false),
        }
    }

    /// Says what takes the plan seconds, and about how long (`the join
    /// sizes its quarter table and costs its items, about 23.0 s on 2
    /// thread(s)`): on the spinner, or in one line where there is none.
    pub fn planning(&self, n: usize, what: &str) {
        if io::stderr().is_terminal() {
            self.bar.set_message(format!("{n}: {what}"));
        } else {
            eprintln!("planning the count of n = {n}: {what}…");
        }
    }

    /// Uses an estimate of the whole count's seconds for the ETA until the
    /// items' own pace can tell.
    pub fn set_estimate(&self, seconds: f64) {
        *self.estimate.lock().unwrap_or_else(|e| e.into_inner()) = Some((seconds, Instant::now()));
    }

    /// Shows a phase (called from any worker thread).
    pub fn show(&self, phase: Phase) {
        match phase {
            Phase::Planning => {}
            Phase::Counting { done, items } => {
                let estimate = *self.estimate.lock().unwrap_or_else(|e| e.into_inner());
                if !self.counting.swap(true, Ordering::Relaxed) {
                    let eta = if estimate.is_some() { "{msg}" } else { "{eta}" };
                    self.bar.set_style(style(&format!(
                        "{{elapsed_precise}} [{{bar:30}}] {{pos}}/{{len}} work items, ETA {eta}"
                    )));
                    self.bar.set_length(items as u64);
                    // A resumed count starts with items done: the ETA is
                    // the pace of this run over what is left.
                    self.bar.set_position(done as u64);
                    self.bar.reset_eta();
                }
                if let Some((seconds, start)) = estimate {
                    if done * 20 < items {
                        let left = (seconds - start.elapsed().as_secs_f64()).max(0.0);
                        self.bar
                            .set_message(format!("{} (estimate)", super::report::duration(left)));
                    } else if !self.paced.swap(true, Ordering::Relaxed) {
                        self.bar.set_style(style(
                            "{elapsed_precise} [{bar:30}] {pos}/{len} work items, ETA {eta}",
                        ));
                    }
                }
                self.bar.set_position(done as u64);
            }
        }
    }

    /// The bar itself, to clear from another thread (an interrupt).
    pub fn handle(&self) -> ProgressBar {
        self.bar.clone()
    }

    /// Clears the bar, leaving the terminal line empty.
    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }
}

/// A bar of `runs` benchmark runs with an ETA and a message, or nothing when
/// stderr is not a terminal.
pub fn runs_bar(runs: u64) -> ProgressBar {
    if !io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(runs);
    bar.set_style(style(
        "{elapsed_precise} [{bar:30}] {pos}/{len} runs, ETA {eta}  {msg}",
    ));
    bar.enable_steady_tick(Duration::from_millis(200));
    bar
}

fn style(template: &str) -> ProgressStyle {
    ProgressStyle::with_template(template)
        .expect("a valid template")
        .progress_chars("=> ")
}

//! The import's progress: on a terminal a progress bar (indicatif) with streets per second and
//! the time left, or a spinner with the count and the rate when the file does not say up front
//! how many features it holds; elsewhere (a Kubernetes Job) a log line every few seconds with
//! the count and the rate. The clock is the caller's: [`Progress::advance`] takes the instant.

use std::fmt;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// How progress is shown.
pub enum Display {
    /// A bar (or a spinner) on the terminal.
    Bar(ProgressBar),
    /// A log line at most every `interval`.
    Log { interval: Duration },
}

impl Display {
    /// A bar when stderr is a terminal, else log lines every `interval`.
    pub fn for_stderr(interval: Duration) -> Self {
        if std::io::IsTerminal::is_terminal(&std::io::stderr()) {
            let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
            bar.enable_steady_tick(Duration::from_millis(200));
            Self::Bar(bar)
        } else {
            Self::Log { interval }
        }
    }
}

/// Where an import is: streets written, of how many, since when.
pub struct Progress {
    display: Display,
    total: Option<u64>,
    written: u64,
    started: Instant,
    last_line: Instant,
}

/// One progress report, as logged.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Report {
    pub written: u64,
    pub total: Option<u64>,
    /// Streets per second since the start.
    pub rate: f64,
    /// At that rate, the time until the last street is written, when the total is known.
    pub left: Option<Duration>,
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ", self.written)?;
        if let Some(total) = self.total {
            write!(f, "of {total} ")?;
        }
        write!(f, "streets written, {:.0} streets/s", self.rate)?;
        if let Some(left) = self.left {
            write!(f, ", about {} s left", left.as_secs())?;
        }
        Ok(())
    }
}

impl Progress {
    pub fn new(display: Display, now: Instant) -> Self {
        Self {
            display,
            total: None,
            written: 0,
            started: now,
            last_line: now,
        }
    }

    /// The file's feature count, when it is known up front: the bar's length.
    pub fn set_total(&mut self, total: Option<u64>) {
        self.total = total;
        if let Display::Bar(bar) = &self.display {
            let style = match total {
                Some(total) => {
                    bar.set_length(total);
                    ProgressStyle::with_template(
                        "{spinner} [{elapsed_precise}] {wide_bar} {human_pos}/{human_len} streets ({per_sec}, {eta} left)",
                    )
                }
                None => ProgressStyle::with_template(
                    "{spinner} [{elapsed_precise}] {human_pos} streets ({per_sec})",
                ),
            };
            if let Ok(style) = style {
                bar.set_style(style);
            }
        }
    }

    /// `streets` more were written at `now`; the report to log, when a log line is due.
    pub fn advance(&mut self, streets: u64, now: Instant) -> Option<Report> {
        self.written += streets;
        match &self.display {
            Display::Bar(bar) => {
                bar.set_position(self.written);
                None
            }
            Display::Log { interval } => {
                if now.duration_since(self.last_line) < *interval {
                    return None;
                }
                self.last_line = now;
                Some(self.report(now))
            }
        }
    }

    /// Where the import is at `now`.
    pub fn report(&self, now: Instant) -> Report {
        let elapsed = now.duration_since(self.started).as_secs_f64();
        #[allow(clippy::cast_precision_loss)] // a rate for people to read
        let rate = if elapsed > 0.0 {
            self.written as f64 / elapsed
        } else {
            0.0
        };
        let left = self.total.filter(|_| rate > 0.0).map(|total| {
            #[allow(clippy::cast_precision_loss)]
            let seconds = total.saturating_sub(self.written) as f64 / rate;
            Duration::from_secs_f64(seconds)
        });
        Report {
            written: self.written,
            total: self.total,
            rate,
            left,
        }
    }

    /// Every street is written; the bar, if any, is cleared.
    pub fn finish(&self) {
        if let Display::Bar(bar) = &self.display {
            bar.finish_and_clear();
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    #[test]
    fn a_log_line_every_interval_with_count_rate_and_time_left() {
        let t0 = Instant::now();
        let at = |ms: u64| t0 + Duration::from_millis(ms);
        let mut progress = Progress::new(
            Display::Log {
                interval: Duration::from_secs(5),
            },
            t0,
        );
        progress.set_total(Some(100_000));
        assert_eq!(progress.advance(5_000, at(1_000)), None);
        assert_eq!(progress.advance(5_000, at(4_999)), None);
        let report = progress.advance(10_000, at(5_000)).unwrap();
        assert_eq!(report.written, 20_000);
        assert!((report.rate - 4_000.0).abs() < 1e-6, "{report:?}");
        assert_eq!(report.left, Some(Duration::from_secs(20)));
        assert_eq!(
            report.to_string(),
            "20000 of 100000 streets written, 4000 streets/s, about 20 s left"
        );
        // The next line is due an interval after the last one.
        assert_eq!(progress.advance(1, at(9_999)), None);
        assert!(progress.advance(1, at(10_000)).is_some());
    }

    #[test]
    fn without_a_total_the_line_has_count_and_rate() {
        let t0 = Instant::now();
        let mut progress = Progress::new(
            Display::Log {
                interval: Duration::ZERO,
            },
            t0,
        );
        progress.set_total(None);
        let report = progress
            .advance(3_000, t0 + Duration::from_secs(2))
            .unwrap();
        assert_eq!(report.left, None);
        assert_eq!(report.to_string(), "3000 streets written, 1500 streets/s");
    }
}

//! The wall-clock deadline of one command (`--timeout`), shared by its phases: bounds,
//! algorithms, exact searches and the Pareto walk's decisions all ask the same [`Deadline`]
//! what is left, so the limit holds for the whole command, not for each phase on its own.
//!
//! Work that cannot poll the clock (a linear program, an algorithm, building a model) runs
//! [`within`] the deadline: on a thread of its own, abandoned when the deadline passes. The
//! abandoned thread runs on until it finishes; its answer is dropped.

use std::time::{Duration, Instant};

/// An instant to stop at, or none (no limit).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Deadline(Option<Instant>);

impl Deadline {
    /// No limit.
    pub const NONE: Deadline = Deadline(None);

    /// `timeout` from now (no limit for `None`).
    pub fn after(timeout: Option<Duration>) -> Self {
        Self(timeout.map(|t| Instant::now() + t))
    }

    /// The instant, if any.
    pub fn instant(self) -> Option<Instant> {
        self.0
    }

    /// The time left: `None` without a limit, zero once passed.
    pub fn left(self) -> Option<Duration> {
        self.0.map(|d| d.saturating_duration_since(Instant::now()))
    }

    /// Whether the deadline has passed.
    pub fn passed(self) -> bool {
        self.left().is_some_and(|left| left.is_zero())
    }

    /// The earlier deadline that leaves `1/parts` of the time left to this phase (a phase's
    /// share, so that the phases after it still have time); no limit stays no limit.
    pub fn share(self, parts: u32) -> Self {
        Self(self.left().map(|left| Instant::now() + left / parts.max(1)))
    }
}

/// Runs `work` and returns its answer, or `None` when `deadline` passes first: without a limit
/// on this thread, else on a thread of its own that is abandoned at the deadline.
pub fn within<T: Send + 'static>(deadline: Deadline, work: impl FnOnce() -> T + Send + 'static) -> Option<T> {
    let Some(left) = deadline.left() else { return Some(work()) };
    if left.is_zero() {
        return None;
    }
    let (send, receive) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        // The receiver is gone when the work was abandoned; its answer is not needed then.
        let _ = send.send(work());
    });
    receive.recv_timeout(left).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn work_past_the_deadline_is_abandoned() {
        let deadline = Deadline::after(Some(Duration::from_millis(20)));
        let answer = within(deadline, || {
            std::thread::sleep(Duration::from_secs(2));
            1
        });
        assert_eq!(answer, None);
        assert!(deadline.passed());
        assert_eq!(within(Deadline::NONE, || 2), Some(2));
        assert_eq!(within(Deadline::after(Some(Duration::from_secs(60))), || 3), Some(3));
    }

    #[test]
    fn a_share_ends_no_later_than_the_deadline() {
        let deadline = Deadline::after(Some(Duration::from_secs(10)));
        let share = deadline.share(2);
        assert!(share.instant() <= deadline.instant());
        assert!(share.left().unwrap() <= Duration::from_secs(5));
        assert_eq!(Deadline::NONE.share(2), Deadline::NONE);
    }
}

//! Store-and-forward checker (SPEC §4.2, papers 003 and 004). PLACEHOLDER: being implemented.
use super::Verdict;
use crate::spec::{Instance, Transmission};

/// Checks a store-and-forward schedule.
pub fn check(_instance: &Instance, _steps: &[Vec<Transmission>]) -> Verdict {
    todo!("store-and-forward checker")
}

//! Bufferless checker (SPEC §4.1, papers 000 and 001). PLACEHOLDER: being implemented.
use super::Verdict;
use crate::spec::{Instance, Schedule, Start};

/// Checks a bufferless schedule (starts plus control messages).
pub fn check(_instance: &Instance, _schedule: &Schedule) -> Verdict {
    todo!("bufferless checker")
}

/// Checks a virtual schedule (paper 000 §3).
pub fn check_virtual(_instance: &Instance, _starts: &[Start]) -> Verdict {
    todo!("virtual checker")
}

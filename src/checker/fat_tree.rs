//! Ideal fat-tree checker (SPEC §4.3, paper 002). PLACEHOLDER: being implemented.
use super::Verdict;
use crate::spec::{FatTreeSend, Instance};

/// Checks a fat-tree schedule.
pub fn check(_instance: &Instance, _sends: &[FatTreeSend]) -> Verdict {
    todo!("fat-tree checker")
}

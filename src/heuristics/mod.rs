//! The heuristics layer: every polynomial algorithm the papers document, each emitting an
//! explicit schedule. Callers check every schedule with [`crate::checker::check`]; producers
//! are never trusted.

pub mod fat_tree;
pub mod total_exchange;

use crate::error::Result;
use crate::spec::{Instance, Schedule};

/// A published algorithm, named as its paper names it.
pub struct Method {
    /// CLI name, e.g. `furthest-first`.
    pub name: &'static str,
    /// The problem it solves (`total-exchange`, ...).
    pub problem: &'static str,
    /// Paper section and claim ids, e.g. `004 §3; TE-5..TE-13`.
    pub source: &'static str,
    /// One line on what it does and what the paper claims.
    pub summary: &'static str,
    /// `Ok(())` when it applies to the instance, else the reason.
    pub applies: fn(&Instance) -> std::result::Result<(), String>,
    /// Runs it.
    pub run: fn(&Instance) -> Result<Schedule>,
}

/// Every registered algorithm.
pub fn all() -> Vec<&'static Method> {
    total_exchange::METHODS.iter().chain(fat_tree::METHODS).collect()
}

/// The algorithm with this name.
pub fn find(name: &str) -> Option<&'static Method> {
    all().into_iter().find(|m| m.name == name)
}

/// The algorithms that apply to an instance.
pub fn for_instance(instance: &Instance) -> Vec<&'static Method> {
    all().into_iter().filter(|m| (m.applies)(instance).is_ok()).collect()
}

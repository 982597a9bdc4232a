//! The heuristics layer: every polynomial algorithm the papers document, each emitting an
//! explicit schedule. Callers check every schedule ([`crate::checker::accept`]); producers are
//! never trusted.
//!
//! One registry, [`all`]: each paper's directory keeps a `METHODS` table of [`Method`]s, one file
//! per algorithm. Adding an algorithm is one file plus one line in its paper's table.

pub mod chatting;
pub mod collective;
pub mod fat_tree;
pub mod gossip;
pub mod scatter_gather;
pub mod total_exchange;

use crate::claims::ClaimValue;
use crate::error::{Error, Result};
use crate::spec::{Applicability, Instance, ProblemKind, Schedule};

/// A published algorithm, named as its paper names it.
pub struct Method {
    /// CLI name, e.g. `furthest-first`.
    pub name: &'static str,
    /// Paper section and claim ids, e.g. `004 §3; TE-5..TE-13`.
    pub source: &'static str,
    /// One line on what it does and what the paper claims.
    pub summary: &'static str,
    /// The instances it is stated for.
    pub applicability: Applicability,
    /// What the paper claims for the length of its schedule on an instance it applies to
    /// (`None`: the paper claims nothing there).
    pub claim: fn(&Instance) -> Option<ClaimValue>,
    /// Runs it on an instance it applies to.
    pub run: fn(&Instance) -> Result<Schedule>,
}

impl Method {
    /// `Ok(())` when it applies to the instance, else the reason.
    pub fn applies(&self, instance: &Instance) -> std::result::Result<(), String> {
        self.applicability.check(instance)
    }

    /// Whether it is commsched's own algorithm, not a paper's: its source says `ours`.
    pub fn is_ours(&self) -> bool {
        self.source.starts_with("ours")
    }

    /// Whether it solves `problem`.
    pub fn solves(&self, problem: ProblemKind) -> bool {
        self.applicability.problems.contains(&problem)
    }

    /// Runs it after checking that it applies ([`Error::NotApplicable`] otherwise).
    pub fn produce(&self, instance: &Instance) -> Result<Schedule> {
        self.applies(instance)
            .map_err(|reason| Error::NotApplicable { method: self.name.to_string(), reason })?;
        (self.run)(instance)
    }
}

/// Every registered algorithm.
pub fn all() -> Vec<&'static Method> {
    [
        chatting::METHODS,
        scatter_gather::METHODS,
        fat_tree::METHODS,
        gossip::METHODS,
        total_exchange::METHODS,
        collective::METHODS,
    ]
    .into_iter()
    .flatten()
    .collect()
}

/// The algorithm with this name.
pub fn find(name: &str) -> Option<&'static Method> {
    all().into_iter().find(|m| m.name == name)
}

/// The algorithms that apply to an instance.
pub fn for_instance(instance: &Instance) -> Vec<&'static Method> {
    all().into_iter().filter(|m| m.applies(instance).is_ok()).collect()
}

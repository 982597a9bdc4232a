//! The problem↔model table (SPEC §3–§4): every problem is stated in exactly one model, and
//! every layer that pairs them (validation, bounds, the store-and-forward checker, the MSCCL
//! export) asks [`ProblemKind::model`] rather than matching problem and model itself.

use super::model::{Mode, Model};
use super::problem::ProblemKind;
use std::fmt;

/// A model of SPEC §4 without its parameters, coarser than [`super::ModelClass`]: what a
/// problem is stated in. Store-and-forward keeps its mode, which the problem fixes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ModelKind {
    /// SPEC §4.1 (real or virtual schedules).
    Bufferless,
    /// SPEC §4.2 in the given mode.
    StoreForward(Mode),
    /// SPEC §4.3.
    FatTree,
    /// docs/spec.md §4.4.
    Collective,
}

impl ProblemKind {
    /// The model the problem is stated in (SPEC §3): papers 000 and 001 bufferless, paper 004
    /// store-and-forward moving packets, paper 003 store-and-forward copying pieces, paper 002
    /// the ideal fat-tree, SCCL's collectives the collective model.
    pub const fn model(self) -> ModelKind {
        match self {
            ProblemKind::Chatting | ProblemKind::Scatter | ProblemKind::Gather => ModelKind::Bufferless,
            ProblemKind::TotalExchange => ModelKind::StoreForward(Mode::Move),
            ProblemKind::Gossip => ModelKind::StoreForward(Mode::Copy),
            ProblemKind::Broadcast | ProblemKind::Product | ProblemKind::Prefix => ModelKind::FatTree,
            ProblemKind::Collective => ModelKind::Collective,
        }
    }
}

impl Model {
    /// The model without its parameters.
    pub fn kind(&self) -> ModelKind {
        match *self {
            Model::Bufferless { .. } => ModelKind::Bufferless,
            Model::StoreForward { mode, .. } => ModelKind::StoreForward(mode),
            Model::FatTree { .. } => ModelKind::FatTree,
            Model::Collective { .. } => ModelKind::Collective,
        }
    }
}

impl ModelKind {
    /// The `kind` of an instance file's `[model]` table (docs/spec.md §2) that selects it.
    pub const fn key(self) -> &'static str {
        match self {
            ModelKind::Bufferless => "bufferless",
            ModelKind::StoreForward(_) => "store-forward",
            ModelKind::FatTree => "fat-tree",
            ModelKind::Collective => "collective",
        }
    }
}

impl fmt::Display for ModelKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ModelKind::Bufferless => f.write_str("bufferless"),
            ModelKind::StoreForward(mode) => write!(f, "store-and-forward {}", mode.name()),
            ModelKind::FatTree => f.write_str("fat-tree"),
            ModelKind::Collective => f.write_str("collective"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_problem_has_its_papers_model() {
        assert_eq!(ProblemKind::TotalExchange.model(), ModelKind::StoreForward(Mode::Move));
        assert_eq!(ProblemKind::Gossip.model(), ModelKind::StoreForward(Mode::Copy));
        let bufferless = ProblemKind::ALL.iter().filter(|p| p.model() == ModelKind::Bufferless).count();
        assert_eq!(bufferless, 3);
    }
}

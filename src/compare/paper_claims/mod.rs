//! The papers' claims about instances, by paper (one module per paper, as in `bounds/` and
//! `heuristics/`): the optimum a paper claims for an instance, and the length it states for an
//! instance file's figure (`[paper] length`). Claims about an algorithm's length live on the
//! algorithm's registry entry ([`crate::heuristics::Method::claim`]).

pub mod gossip;
pub mod scatter_gather;
pub mod total_exchange;

use crate::claims::{ClaimValue, Relation, Subject};
use crate::spec::{Instance, ProblemKind};

/// Every instance-level claim: what the paper claims for the optimum of the instance's family
/// and model (an exact value, or a bound on it), and the
/// number its figure states. The figure's number is a [`Subject::PaperSchedule`] claim: it is
/// judged by checking the paper's own schedule when one is transcribed, else as an optimum.
pub fn claimed_values(instance: &Instance) -> Vec<ClaimValue> {
    let optimum = match instance.problem.kind() {
        ProblemKind::TotalExchange => total_exchange::optimum(instance).into_iter().collect(),
        ProblemKind::Scatter | ProblemKind::Gather => scatter_gather::optimum(instance).into_iter().collect(),
        ProblemKind::Gossip => gossip::optimum(instance),
        // No optimum of these problems' instances is transcribed from their papers.
        ProblemKind::Chatting
        | ProblemKind::Broadcast
        | ProblemKind::Product
        | ProblemKind::Prefix
        | ProblemKind::Collective => Vec::new(),
    };
    let stated = instance.paper.length.map(|value| ClaimValue {
        claim: instance.paper.claims.first().cloned().unwrap_or_else(|| "paper".into()),
        subject: Subject::PaperSchedule,
        about: "length stated by the paper".into(),
        value,
        relation: Relation::Equal,
        convention: if instance.paper.note.is_empty() {
            "commsched steps".into()
        } else {
            instance.paper.note.clone()
        },
    });
    optimum.into_iter().chain(stated).collect()
}

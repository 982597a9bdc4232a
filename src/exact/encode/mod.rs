//! Encoders: an instance and a horizon T become an [`ir::Model`](super::ir::Model) whose assignments are exactly
//! the admissible schedules of length ≤ T (up to moves that are never needed, see each
//! encoder), plus the table that decodes an assignment back into a [`Schedule`].
//!
//! Encoders never see a solver. Only total exchange (paper 004; store-and-forward, move mode,
//! any of the four port rules) is encoded so far; every other problem is
//! [`Error::NotApplicable`].

pub mod store_forward;

use super::ir::{Model, VarId};
use crate::error::{Error, Result};
use crate::spec::{Instance, Node, Problem, Schedule, Transmission};

/// What a variable set to 1 means in the schedule.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Event {
    /// Store-and-forward: `token` crosses arc `(from, to)` in `step`.
    Hop {
        /// The token (total exchange: packet id src·n + dst).
        token: usize,
        /// Sender.
        from: Node,
        /// Receiver.
        to: Node,
        /// Step, 1-based.
        step: u64,
    },
}

/// A model for one horizon and its decoding table.
#[derive(Debug, Clone)]
pub struct Encoding {
    /// The horizon T: every event of a decoded schedule lies in steps 1..=T.
    pub horizon: u64,
    /// The model.
    pub model: Model,
    /// The variables that stand for schedule events.
    events: Vec<(VarId, Event)>,
}

impl Encoding {
    /// The schedule of an assignment (one value per model variable). Store-and-forward hops
    /// on one arc in one step form one transmission; leading and trailing idle steps are
    /// dropped (SPEC §1: a schedule's first event is in step 1), which keeps it admissible.
    pub fn decode(&self, values: &[i64]) -> Schedule {
        let mut steps: Vec<Vec<Transmission>> = vec![Vec::new(); self.horizon as usize];
        for &(var, Event::Hop { token, from, to, step }) in &self.events {
            if values[var.index()] != 1 {
                continue;
            }
            let step = &mut steps[step as usize - 1];
            match step.iter_mut().find(|tr| tr.from == from && tr.to == to) {
                Some(tr) => tr.tokens.push(token),
                None => step.push(Transmission { from, to, tokens: vec![token] }),
            }
        }
        for step in &mut steps {
            step.sort_by_key(|tr| (tr.from, tr.to));
            for tr in step.iter_mut() {
                tr.tokens.sort_unstable();
            }
        }
        let first = steps.iter().position(|s| !s.is_empty()).unwrap_or(steps.len());
        let last = steps.iter().rposition(|s| !s.is_empty()).map_or(first, |l| l + 1);
        Schedule::StoreForward(steps.drain(first..last).collect())
    }
}

/// An encoder for one instance, reused across horizons.
pub trait Encoder {
    /// `Some(reason)` when no horizon admits a schedule (an item cannot reach its target).
    fn impossible(&self) -> Option<String>;

    /// The distance bound: every item needs at least its hop distance (generic, no claim).
    fn distance_bound(&self) -> u64;

    /// A cheap lower estimate of [`Encoder::variables`] (no pruning beyond distances), used
    /// to refuse huge instances before the pruning tables are built.
    fn min_variables(&self, horizon: u64) -> usize;

    /// The number of variables of the model at `horizon`.
    fn variables(&self, horizon: u64) -> usize;

    /// The model at `horizon`.
    fn encode(&self, horizon: u64) -> Encoding;
}

/// The problems (SPEC §3 names) with an encoder.
pub const ENCODED: &[&str] = &["total-exchange"];

/// The encoder for the instance's problem, or [`Error::NotApplicable`].
pub fn encoder(instance: &Instance) -> Result<Box<dyn Encoder + '_>> {
    match &instance.problem {
        Problem::TotalExchange(_) => Ok(Box::new(store_forward::TotalExchange::new(instance))),
        p => Err(Error::NotApplicable {
            method: "exact".into(),
            reason: format!("no exact encoding of `{p}` yet (encoded: {})", ENCODED.join(", ")),
        }),
    }
}

//! # Half-duplex split (paper 004 §2)
//!
//! Paper 004, §2: "the algorithms can be easily transformed for the case
//! of half-duplex links with a slowdown factor of two" (TE-23, A4-6). Step t of an F\* schedule
//! becomes step 2t − 1, holding its rightward (clockwise) transmissions, and step 2t, holding the
//! rest. Each link then carries one packet per step in one direction (H\*). On a linear array
//! or ring each node also sends at most one and receives at most one packet per step (F1),
//! since in step 2t − 1 node x only sends to x ⊕ 1 and receives from x ⊖ 1, and in step 2t the
//! reverse. It is not an H1 schedule: an interior node sends and receives in the same step.

use crate::error::{Error, Result};
use crate::spec::{Direction, Family, Instance, Itineraries, Schedule};

/// Splits every step of a store-and-forward schedule into a forward half-step (arcs x → x ⊕ 1
/// on a linear array or ring; arcs u → v with u < v on other networks) and a backward one.
/// Empty steps at either end are dropped, so the result starts in step 1 and has length at
/// most 2T. Errors for any other kind of schedule.
pub fn split_half_duplex(inst: &Instance, schedule: &Schedule) -> Result<Schedule> {
    if let Schedule::Itineraries(it) = schedule {
        let mut it = it.clone();
        split_itineraries(&mut it);
        return Ok(Schedule::Itineraries(it));
    }
    let Schedule::StoreForward(steps) = schedule else {
        return Err(Error::NotApplicable {
            method: "half-duplex split".into(),
            reason: format!("it transforms store-forward schedules, not {} ones", schedule.model_name()),
        });
    };
    let n = inst.network.len();
    let forward = |u: usize, v: usize| match inst.network.family() {
        Family::Path(_) => v == u + 1,
        Family::Ring(_) => v == (u + 1) % n,
        _ => u < v,
    };
    let mut split = Vec::with_capacity(2 * steps.len());
    for step in steps {
        let (fwd, bwd): (Vec<_>, Vec<_>) = step.iter().cloned().partition(|tr| forward(tr.from, tr.to));
        split.push(fwd);
        split.push(bwd);
    }
    let first = split.iter().position(|s| !s.is_empty()).unwrap_or(split.len());
    let last = split.iter().rposition(|s| !s.is_empty()).map_or(first, |t| t + 1);
    Ok(Schedule::StoreForward(split.drain(first..last).collect()))
}

/// The same split on itineraries, in place: a forward hop of step t moves to step 2t − 1, a
/// backward one to step 2t. The checker measures the length from the first used step, so
/// nothing needs shifting.
pub fn split_itineraries(it: &mut Itineraries) {
    it.map_departures(|d, t| match d {
        Direction::Forward => 2 * t - 1,
        Direction::Backward => 2 * t,
    });
}

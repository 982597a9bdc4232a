//! # Prefix from a broadcast (paper 002 §5, relations 1–3)
//!
//! Claims FT-23 (product is part of prefix; broadcast is prefix with a_i = e for i ≥ 1) and
//! FT-24 (Theorem 6: prefix has the complexity of broadcast; the paper defers the details).
//! The construction here is an up-sweep and a down-sweep over the shortest broadcast the model
//! allows (as for [`product`](mod@super::product)) with the responsibility ranges of
//! [`Reversal`]:
//!
//! 1. **up-sweep**: the [`product`](mod@super::product) schedule; every message's receiver
//!    ends up holding the contiguous ranges of the messages it sent in the broadcast;
//! 2. **down-sweep**: the broadcast again, forwards; a message whose range is [lo, hi] carries
//!    [0, lo − 1]. Its sender holds that chain: the prefix before its own range (received in its
//!    own down-sweep message, or a_0 at P_0) followed by the up-sweep ranges below lo.
//!
//! P_i then holds the prefix before the range of its last broadcast receipt and the ranges up
//! to i inside it, a chain [0, i]. The length is at most twice the broadcast's (phases with
//! nothing to carry are dropped).

use super::plan::sends;
use super::product::{Reversal, in_rounds};
use crate::error::Result;
use crate::heuristics::Method;
use crate::spec::{Instance, Schedule};

/// Up-sweep then down-sweep over the shortest broadcast: P_i ends with a_0 ⋆ … ⋆ a_i.
pub fn prefix(inst: &Instance) -> Result<Schedule> {
    let n = inst.network.len();
    let plan = super::shortest_broadcast(inst)?;
    let reversal = Reversal::new(&plan, n)?;
    let mut phases = reversal.product(in_rounds(inst));
    phases.extend(reversal.prefixes());
    Ok(Schedule::FatTree(sends(&phases)))
}

/// Registry entry.
pub const METHOD: Method = Method {
    name: "prefix",
    source: "002 §5 relations 1-3, Theorem 6; FT-23, FT-24",
    summary: "up-sweep (the shortest broadcast reversed with contiguous ranges) then down-sweep \
              (it forwards, carrying [0, lo-1]); at most twice that broadcast",
    applicability: super::PREFIX,
    claim: |_| None,
    run: prefix,
};

//! # ESM unit-length slot algorithm (paper 000 §5.2, Theorem 5.3)
//!
//! Unit-length messages on the N×N Eastward-Southward mesh with one-turn paths (CHAT-23: east
//! along the source row to the turning node (i,j), then south along column j). The algorithm
//! scans turning nodes by diagonals i − j = N−1, N−2, …, −(N−1) (from the south-west corner),
//! each diagonal by increasing column, messages sharing a turning node in id order ("ordered
//! arbitrarily"). Per row i and column j it keeps arrays row_i\[s\] (initially 0) and col_j\[s\]
//! (initially N−1). A message from (i,k) to (h,j) takes the smallest slot s with
//! row_i\[s\] ≤ k and col_j\[s\] ≥ h, then sets row_i\[s\] := j and col_j\[s\] := i (CHAT-25).
//!
//! Three availability tests ([`SlotTest`]):
//!
//! * [`SlotTest::Printed`]: the paper's text, "row_i\[s_0\] ≤ k and col_j\[s_0\] > h", probing only
//!   s = 1..2C(M) as the paper's arrays do. Misprint (CHAT-25 note 1): a message ending in row
//!   N−1 never finds a slot; the run fails naming it.
//! * [`SlotTest::Literal`]: the consistent reading col_j\[s\] ≥ h, unbounded arrays, both arrays
//!   tested and updated for every message. Registered as `esm-slot`. Theorem 5.3 claims
//!   S(σ) ≤ 2C(M); it is **violated** (CHAT-26) by the 3×3 instance `esm3-chat26` with C = 1
//!   where this variant needs slot 3: straight messages block slots on arcs they do not use.
//! * [`SlotTest::Refined`]: as Literal, but a purely southward message (k = j) skips the row
//!   test and update, a purely eastward one (h = i) the column test and update (CHAT-26
//!   "refined variant"). Registered as `esm-slot-refined`.
//!
//! All three produce admissible virtual schedules when they finish: on row i turning nodes come
//! west to east, on column j south to north, so the arrays' extreme turning nodes separate the
//! segments sharing a slot. Time O(|M|·S).

use super::{MESHES, chatting_on, claimed, is_virtual, parameters, produce};
use crate::bounds::chatting::congestion;
use crate::claims::{ClaimValue, Relation};
use crate::error::{Error, Result};
use crate::heuristics::Method;
use crate::spec::{Family, Instance, Message, Network, Schedule};

/// Which availability test the slot algorithm uses (see the module documentation).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SlotTest {
    /// The printed test `col_j\[s\] > h`, slots 1..2C only.
    Printed,
    /// `col_j\[s\] ≥ h`, every message tests and updates both arrays.
    Literal,
    /// `col_j\[s\] ≥ h`, straight messages skip the test and update of the array they do not use.
    Refined,
}

/// The slot (virtual start, from 1) of each unit-length message on an ESM, in message order.
pub fn esm_slots(network: &Network, messages: &[Message], test: SlotTest) -> Result<Vec<i64>> {
    let Family::Esm(n) = *network.family() else {
        return Err(Error::NotApplicable {
            method: "esm-slot".into(),
            reason: format!("it runs on an ESM, not on {network}"),
        });
    };
    let probes = match test {
        SlotTest::Printed => Some(2 * congestion(network.arcs().len(), messages) as usize),
        SlotTest::Literal | SlotTest::Refined => None,
    };
    // (row i, source column k, destination row h, turning column j)
    let geometry = |m: &Message| (m.src / n, m.src % n, m.dst / n, m.dst % n);
    let mut order: Vec<usize> = (0..messages.len()).collect();
    order.sort_by_key(|&x| {
        let (i, _, _, j) = geometry(&messages[x]);
        (j as i64 - i as i64, j, messages[x].id)
    });
    let mut row: Vec<Vec<usize>> = vec![Vec::new(); n];
    let mut col: Vec<Vec<usize>> = vec![Vec::new(); n];
    let mut slot = vec![0i64; messages.len()];
    for x in order {
        let (i, k, h, j) = geometry(&messages[x]);
        let uses_row = test != SlotTest::Refined || k != j;
        let uses_col = test != SlotTest::Refined || h != i;
        let free = |s: usize| {
            let (r, c) = (row[i].get(s).copied().unwrap_or(0), col[j].get(s).copied().unwrap_or(n - 1));
            let row_ok = !uses_row || r <= k;
            let col_ok = !uses_col || if test == SlotTest::Printed { c > h } else { c >= h };
            row_ok && col_ok
        };
        let s = match probes {
            Some(limit) => (0..limit).find(|&s| free(s)).ok_or_else(|| Error::NotApplicable {
                method: "esm-slot (printed test)".into(),
                reason: format!(
                    "message {} ({i},{k}) -> ({h},{j}) finds no available slot in 1..2C = 1..{limit}",
                    messages[x].id
                ),
            })?,
            None => {
                (0..).find(|&s| free(s)).expect("a slot beyond every array entry holds the initial values")
            }
        };
        if uses_row {
            set(&mut row[i], s, 0, j);
        }
        if uses_col {
            set(&mut col[j], s, n - 1, i);
        }
        slot[x] = s as i64 + 1;
    }
    Ok(slot)
}

/// `array\[s\] := value`, growing the array with `initial` entries.
fn set(array: &mut Vec<usize>, s: usize, initial: usize, value: usize) {
    if array.len() <= s {
        array.resize(s + 1, initial);
    }
    array[s] = value;
}

/// The slot algorithm with `test` on the instance (an ESM, or a full mesh as four ESMs): the
/// virtual schedule on a virtual instance, its VO image on a chatting one.
pub fn esm_slot(inst: &Instance, test: SlotTest) -> Result<Schedule> {
    match test {
        SlotTest::Printed => produce(inst, &METHOD, |n, m| esm_slots(n, m, SlotTest::Printed)),
        SlotTest::Literal => produce(inst, &METHOD, |n, m| esm_slots(n, m, SlotTest::Literal)),
        SlotTest::Refined => produce(inst, &REFINED_METHOD, |n, m| esm_slots(n, m, SlotTest::Refined)),
    }
}

/// Theorem 5.3 (CHAT-26): S(σ) ≤ 2C(M), for a virtual schedule on an ESM.
fn theorem_5_3(inst: &Instance) -> Option<ClaimValue> {
    let (c, _, _) = parameters(inst)?;
    (is_virtual(inst) && matches!(inst.network.family(), Family::Esm(_)))
        .then(|| claimed("CHAT-26", "ESM slot algorithm (Theorem 5.3)", "S ≤ 2C", Relation::AtMost, 2 * c))?
}

/// Registry entry of the literal algorithm (corrected test).
pub const METHOD: Method = Method {
    name: "esm-slot",
    source: "000 §5.2 Theorem 5.3 (test col_j[s] >= h, CHAT-25 errata); CHAT-23, CHAT-25, CHAT-26",
    summary: "unit-length messages on an ESM (a full mesh as four ESMs): turning nodes by diagonals, \
              earliest slot free in row_i/col_j arrays; paper claims S ≤ 2C (violated, CHAT-26)",
    applicability: chatting_on(MESHES, true),
    claim: theorem_5_3,
    run: |inst| esm_slot(inst, SlotTest::Literal),
};

/// Registry entry of the refined algorithm (straight messages skip the array they do not use).
pub const REFINED_METHOD: Method = Method {
    name: "esm-slot-refined",
    source: "000 §5.2 Theorem 5.3, refined variant of CHAT-26; CHAT-23, CHAT-25, CHAT-26",
    summary: "esm-slot where purely eastward/southward messages skip the column/row arrays; \
              S ≤ 2C measured, not proved",
    applicability: chatting_on(MESHES, true),
    claim: theorem_5_3,
    run: |inst| esm_slot(inst, SlotTest::Refined),
};

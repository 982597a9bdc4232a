//! # Algorithm Shoulder-Tap (paper 001 §3.1, Theorem 2)
//!
//! Gathering to the end P_0 of a path P_0..P_n. P_0 sends P_1 the wake-up call "TRANSMIT AFTER
//! ≥ 1 STEPS" in step 1 (Phase 0); P_i, having received (s_i) at the end of step t_i = i, sends
//! P_{i+1} the call s_{i+1} = max(1, L_i + max(0, s_i − 2)) in step t_i + 1 (Phase 1), then
//! transmits M_i from step t_i + max(2, s_i) through t_i + L_i + max(1, s_i − 1) (Phase 2, the
//! extraction's "max(1, s_i 1)" lost its minus, SG-9) and relays passively (Phase 3). The
//! wake-up calls are one-flit [`ControlKind::WakeUp`] messages of the schedule, so the checker
//! verifies them under its distributed rules (inequality (5), SG-8) and the single-port rule
//! (SG-10).
//!
//! Theorem 2 claims the schedule meets recursion (7) with equality (SG-13), hence is optimal
//! among distributed gathers (SG-11). As printed, P_n also waits max(2, s_n), although it sends
//! no wake-up and (5), (7) let it start at n + 1: whenever M_n is nonnull and s_n = 1 the printed
//! algorithm starts M_n one step after (7) (n = 2, L = (1, 1): 5 steps against 4).
//! [`Variant::Corrected`] starts P_n at t_n + max(1, s_n) (the correction of SG-11);
//! [`Variant::Printed`] keeps the text. Figs. 2 and 3 (SG-29, SG-30) are the same under both.

use super::{DISTRIBUTED_GATHER_ON_PATH, Tree, require};
use crate::error::Result;
use crate::heuristics::Method;
use crate::spec::{Control, ControlKind, Instance, Schedule, Start};

/// Which reading of Phase 2 for the last PE P_n.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Variant {
    /// P_n starts at t_n + max(1, s_n): it sends no wake-up (SG-11's correction, meets (7)).
    Corrected,
    /// As printed: P_n starts at t_n + max(2, s_n) like every other PE.
    Printed,
}

/// Shoulder-Tap on `inst`, a distributed gather on a path rooted at one end.
pub fn shoulder_tap(inst: &Instance, variant: Variant) -> Result<Schedule> {
    let name = match variant {
        Variant::Corrected => METHOD.name,
        Variant::Printed => METHOD_PRINTED.name,
    };
    require(inst, &DISTRIBUTED_GATHER_ON_PATH, name)?;
    let tree = Tree::of(inst)?;
    // The path P_0, P_1, …, P_n from the root.
    let mut path = vec![0];
    while let Some(&next) = tree.children[*path.last().expect("nonempty")].first() {
        path.push(next);
    }
    let n = path.len() - 1;
    let mut control = Vec::with_capacity(n);
    let mut starts = Vec::new();
    let mut s = 1i64; // s_1 (Phase 0).
    for i in 1..=n {
        let t = i as i64; // P_i receives its call at the end of step t_i = i.
        control.push(Control {
            kind: ControlKind::WakeUp,
            from: path[i - 1],
            to: path[i],
            start: t,
            value: Some(s),
            value2: None,
        });
        let len = tree.lengths[path[i]];
        if len > 0 {
            let wait = if i == n && variant == Variant::Corrected { s.max(1) } else { s.max(2) };
            starts.push(Start { msg: path[i], start: t + wait });
        }
        s = (len as i64 + (s - 2).max(0)).max(1); // s_{i+1}, sent in step t_i + 1 (Phase 1).
    }
    starts.sort_unstable_by_key(|s| s.msg);
    Ok(Schedule::Bufferless { starts, control })
}

/// Registry entry: the corrected reading.
pub const METHOD: Method = Method {
    name: "shoulder-tap",
    source: "001 §3.1 Theorem 2, P_n corrected (SG-11); SG-8..SG-13, SG-29, SG-30",
    summary: "distributed gather on a path: wake-up calls s_{i+1} = max(1, L_i + max(0, s_i − 2)) down the \
              path, P_i transmits at i + max(2, s_i), P_n at n + max(1, s_n); meets recursion (7), optimal \
              under (5)",
    applicability: DISTRIBUTED_GATHER_ON_PATH,
    claim: |_| None,
    run: |inst| shoulder_tap(inst, Variant::Corrected),
};

/// Registry entry: the printed reading.
pub const METHOD_PRINTED: Method = Method {
    name: "shoulder-tap-printed",
    source: "001 §3.1 Theorem 2 as printed; SG-9..SG-11",
    summary: "Shoulder-Tap exactly as printed: P_n too waits max(2, s_n) after its wake-up call; one step \
              above recursion (7) when s_n = 1 (SG-11)",
    applicability: DISTRIBUTED_GATHER_ON_PATH,
    claim: |_| None,
    run: |inst| shoulder_tap(inst, Variant::Printed),
};

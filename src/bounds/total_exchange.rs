//! # Total exchange on linear arrays and rings: bounds of paper 004
//!
//! Paper 004 (Dimakopoulos, Dimopoulos), §2, (1) and (2); the
//! half-duplex remark of §2 (TE-23); the values of TE-22.
//!
//! Model: F\*, move mode, p = 1 (SPEC §4.2). Time 1 is the first step and the running time is
//! the last step with a transmission, i.e. the SPEC length: no conversion. F\* admits every
//! schedule of H\*, F1 and H1, so (1) and (2) hold under every rule.
//!
//! * **TE-1** (1): a linear array (`path(n)`) bisected after ⌊n/2⌋ nodes has ⌊n/2⌋⌈n/2⌉
//!   messages to move over the single rightward arc: T ≥ ⌊n/2⌋⌈n/2⌉ = ⌈(n²−1)/4⌉.
//! * **TE-2** (2): a ring bisected into two arcs of ⌊n/2⌋ and ⌈n/2⌉ nodes has ⌊n/2⌋⌈n/2⌉
//!   messages leaving either half over 2 arcs: T ≥ ⌈⌊n/2⌋⌈n/2⌉/2⌉ = ⌈(n²−1)/8⌉.
//! * **TE-23**, H\* (and H1): the link also carries the opposite traffic, one packet per step:
//!   linear array 2⌊n/2⌋⌈n/2⌉ (so the factor 2 of §2 is exactly necessary), ring ⌊n/2⌋⌈n/2⌉
//!   (one less than 2·T_opt(R) when n ≡ 2 mod 4).
//!
//! They apply to the full exchange (every ordered pair) with p = 1; demand matrices and other
//! packet sizes get the generic cut bound of [`super::generic`], which reproduces these values.
//! TE-18 (even ring, all antipodal messages clockwise) bounds a restricted routing, not every
//! schedule, and is not a lower bound here.

use super::Bound;
use crate::spec::{Family, Instance, Model, PortRule, Problem};

/// TE-1 / TE-22: T_opt(LA) = ⌊n/2⌋⌈n/2⌉ = ⌈(n²−1)/4⌉.
pub fn linear_array(n: u64) -> u64 {
    (n / 2) * n.div_ceil(2)
}

/// TE-2 / TE-22: T_opt(R) = ⌈(n²−1)/8⌉.
pub fn ring(n: u64) -> u64 {
    linear_array(n).div_ceil(2)
}

/// The closed forms that apply: full exchange, p = 1, on `path(n)` or `ring(n)`.
pub fn bounds(instance: &Instance) -> Vec<Bound> {
    let Model::StoreForward { rule, packet: 1, .. } = instance.model else { return Vec::new() };
    let n = instance.network.len() as u64;
    let full = matches!(instance.problem, Problem::TotalExchange(_))
        && instance.packets().len() as u64 == n * (n - 1);
    if !full {
        return Vec::new();
    }
    let half_duplex = matches!(rule, PortRule::HStar | PortRule::H1);
    let mut out = Vec::new();
    match instance.network.family() {
        Family::Path(_) => {
            out.push(Bound::new(
                "bisection",
                Some("TE-1"),
                linear_array(n),
                "⌊n/2⌋⌈n/2⌉ messages over one arc (1)",
            ));
            if half_duplex {
                out.push(Bound::new(
                    "bisection half-duplex",
                    Some("TE-23"),
                    2 * linear_array(n),
                    "both directions share the middle link: 2⌊n/2⌋⌈n/2⌉",
                ));
            }
        }
        Family::Ring(_) => {
            out.push(Bound::new(
                "ring bisection",
                Some("TE-2"),
                ring(n),
                "⌊n/2⌋⌈n/2⌉ messages over two arcs (2)",
            ));
            if half_duplex {
                out.push(Bound::new(
                    "ring bisection half-duplex",
                    Some("TE-23"),
                    linear_array(n),
                    "2⌊n/2⌋⌈n/2⌉ messages both ways over two links: ⌊n/2⌋⌈n/2⌉",
                ));
            }
        }
        _ => {}
    }
    out
}

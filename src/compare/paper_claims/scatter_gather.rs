//! Paper 001's claims about the optimum of an instance (the algorithms' own claims sit on their
//! registry entries in [`crate::heuristics::scatter_gather`]).

use crate::bounds::scatter_gather::fdf_length;
use crate::claims::ClaimValue;
use crate::heuristics::scatter_gather::Routes;
use crate::spec::{Family, GatherMode, Instance, Model, Port, Problem};

/// SG-4 (single-port scatter on a tree: the farthest-destination-first length, Theorem 1) or
/// SG-11 (single-port distributed gather on a path: Shoulder-Tap's length, recursion (7),
/// Theorem 2).
pub fn optimum(instance: &Instance) -> Option<ClaimValue> {
    let Model::Bufferless { port: Port::Single, virtual_schedule: false, gather } = instance.model else {
        return None;
    };
    let (claim, about, value, convention) = match &instance.problem {
        // Theorem 1 holds on a tree, and off one on routes that form trees hanging from P_0
        // (§1.2, "Porting to General Networks").
        Problem::Scatter(_) => {
            let routes = Routes::of(instance).ok()?;
            (
                "SG-4",
                "optimum (farthest-destination-first, Theorem 1)",
                fdf_length(routes.nonnull().into_iter().map(|i| (routes.depth[i], routes.lengths[i]))),
                "max over Δ of (Σ_{δ≥Δ} L + Δ − 1); the paper's T^scat is one more",
            )
        }
        Problem::Gather(lengths)
            if gather == GatherMode::Distributed && matches!(instance.network.family(), Family::Path(_)) =>
        {
            (
                "SG-11",
                "optimum under (5) (Shoulder-Tap, recursion (7), Theorem 2)",
                recursion_7(lengths),
                "max_i (τ(i) + L_i + i − 2) with τ from (7) as SPEC starts; the paper's α_γ is two more",
            )
        }
        _ => return None,
    };
    Some(ClaimValue::optimum_equals(claim, about, value, convention.into()))
}

/// The length of a distributed gather on the path P_0..P_n whose starts meet recursion (7)
/// (SG-13) with equality, messages received nearest first: τ(i_1) = i_1 + 2, τ(i_j) =
/// max(i_j + 2, τ(i_{j−1}) + L_{i_{j−1}} + i_{j−1} − i_j), with i_j + 1 instead of i_j + 2 for
/// i_j = n; M_i's last flit reaches P_0 in step τ(i) + L_i + i − 2.
pub fn recursion_7(lengths: &[u64]) -> u64 {
    let n = lengths.len() as i64 - 1;
    let mut previous: Option<(i64, i64, i64)> = None; // (i, τ(i), L_i)
    let mut last = 0i64;
    for (i, &len) in lengths.iter().enumerate().skip(1).filter(|&(_, &l)| l > 0) {
        let (i, len) = (i as i64, len as i64);
        let earliest = if i == n { i + 1 } else { i + 2 };
        let tau = previous.map_or(earliest, |(p, tp, lp)| earliest.max(tp + lp + p - i));
        last = last.max(tau + len + i - 2);
        previous = Some((i, tau, len));
    }
    last as u64
}

#[cfg(test)]
mod tests {
    use super::*;

    /// SG-29, SG-30: recursion (7) gives Fig. 2's 11 and Fig. 3's 13 steps; SG-11's example
    /// (n = 2, L = 1, 1) gives 4, one below the printed Shoulder-Tap's 5.
    #[test]
    fn recursion_7_on_the_figures() {
        assert_eq!(recursion_7(&[0, 2, 3, 0, 2, 1]), 11);
        assert_eq!(recursion_7(&[0, 9, 0, 1, 0, 1]), 13);
        assert_eq!(recursion_7(&[0, 1, 1]), 4);
    }
}

//! Paper 004's claims about the optimum of an instance (the algorithms' own claims sit on their
//! registry entries in [`crate::heuristics::total_exchange`]).

// The papers' optima are their own lower bounds (TE-1, TE-2): one formula serves both.
use crate::bounds::total_exchange::{linear_array as t_opt_linear_array, ring as t_opt_ring};
use crate::claims::ClaimValue;
use crate::spec::{Family, Instance, Model, PortRule, Problem};

/// TE-13 (linear array) or TE-16 / TE-21 (odd / even ring): the F\* optimum of a full total
/// exchange.
pub fn optimum(instance: &Instance) -> Option<ClaimValue> {
    let full_exchange = matches!(instance.problem, Problem::TotalExchange(None));
    if !full_exchange || !matches!(instance.model, Model::StoreForward { rule: PortRule::FStar, .. }) {
        return None;
    }
    let n = instance.network.len() as u64;
    let (claim, about, value, formula) = match instance.network.family() {
        Family::Path(_) => {
            ("TE-13", "optimum (furthest-first, Theorem 1)", t_opt_linear_array(n), "⌈(n²−1)/4⌉")
        }
        Family::Ring(_) if n % 2 == 1 => {
            ("TE-16", "optimum (node-invariant algorithms, Theorem 2)", t_opt_ring(n), "(n²−1)/8")
        }
        Family::Ring(_) => {
            ("TE-21", "optimum (modified message-shift, Theorem 3)", t_opt_ring(n), "⌈(n²−1)/8⌉")
        }
        _ => return None,
    };
    Some(ClaimValue::optimum_equals(claim, about, value, format!("{formula}; paper 004 time 1 is step 1")))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// TE-22: the collected values for n = 2..12.
    #[test]
    fn te_22_values() {
        let la: Vec<u64> = (2..=12).map(t_opt_linear_array).collect();
        assert_eq!(la, [1, 2, 4, 6, 9, 12, 16, 20, 25, 30, 36]);
        let ring: Vec<u64> = (3..=12).map(t_opt_ring).collect();
        assert_eq!(ring, [1, 2, 3, 5, 6, 8, 10, 13, 15, 18]);
    }
}

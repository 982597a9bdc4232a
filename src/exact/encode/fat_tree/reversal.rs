//! # Product by reversal (pipelined, and in rounds where no channel binds; FT-23, FT-24)
//!
//! The product model has O(N³·T) variables (312k at N = 16), out of reach from N = 16 on. Two
//! facts about time reversal ([`crate::spec::reversal`]) settle the pipelined product anyway:
//!
//! - **Relaxation ([`Encoder::relaxation`]): the broadcast.** Run a product of length T
//!   backwards: a message a → b submitted in step s becomes b → a submitted in step
//!   T + 2 − s − 2h, crossing the mirror of every channel (an up-channel becomes the same
//!   node's down-channel, of equal capacity) in the mirror step, and swapping submissions with
//!   receipts, so the capacity and processor rules hold. Every a_i reaches P_0 along messages
//!   that each leave after the previous one arrives; backwards, they carry P_0's value to P_i.
//!   Keeping only each processor's first receipt of it is a broadcast of length ≤ T. So the
//!   product at T − 1 is infeasible when the broadcast at T − 1 is. For prefix, P_{N−1} must
//!   form [0, N − 1]: backwards that is a broadcast from P_{N−1}, and the mirror i ↦ N − 1 − i
//!   (a map of the fat-tree onto itself) makes it one from P_0. In rounds both hold where no
//!   channel binds (w(2^k) ≥ 2^k below the root, as under w = n): a reversed round whose
//!   messages all leave in its first step is a round of the same height, the processor rule
//!   is symmetric, and no channel can carry more than its capacity
//!   ([`crate::bounds::fat_tree::channels_never_bind`]). Where channels bind, a reversed
//!   round may not be one (what entered a block in several steps leaves it in one), and
//!   neither model is used.
//! - **Restriction ([`Variant::Restricted`], product only): broadcasts that run backwards.**
//!   Backwards, a broadcast is a product with a non-commutative ⋆ when every processor's
//!   subtree in the tree of first receipts is an index range: P_v sends its subtree's range
//!   once all its children's ranges have arrived. The model is the broadcast model
//!   ([`super::broadcast`]) without `left_first` (a swap of two children breaks ranges) plus
//!   `d_{u}_{v}` ∈ {0,1} for u, v ≠ 0 (u is a proper ancestor of v; P_0 is everyone's) and
//!   `ancestor_parent`: x(u, v, ·) ⇒ d(u, v); `ancestor_down`/`ancestor_up`: when w ≠ u sends
//!   v its value, d(u, v) = d(u, w) (so d is exactly the ancestry, by induction on the step in
//!   which v gets the value); `range`: d(u, v) ⇒ d(u, w) for the w next to v towards u (every
//!   subtree is a range). Its witnesses decode backwards ([`Shape::ReversedBroadcast`]) and are
//!   checked as products; its infeasibility proves nothing.
//!
//! The search certifies the broadcast first and asks the restricted model for a witness at
//! its optimum: at N = 16 and 32, under w = 1, log n + 1 and n, there is one every time, so the
//! product's optimum is the broadcast's (docs/results.md, "Fat-tree exact optima"). In rounds
//! under w = n the broadcast's round-model optimum is already a bound of the instance's own
//! (`bounds::fat_tree`), which the product algorithm's 20 meets on fat-tree:16; on fat-tree:32
//! (26) the restricted model found nothing shorter than 28 in 12 minutes. Prefix has a
//! restricted model of its own, aligned payloads ([`super::combine`]): the up- and down-sweeps
//! of a reversible broadcast, twice its length, which this module used to give it, are never
//! shorter than `prefix-fenwick-pieces` on the fat-trees measured.
//!

use super::{FatTreeBroadcast, Tree};
use crate::exact::encode::{Encoder, Encoding, Relaxation, Shape, Variant};
use crate::spec::{Instance, Problem};

/// The schedules of the product's restricted model, in words.
pub(super) const RESTRICTION: &str = "broadcasts run backwards, each subtree an index range";

/// The models of a product or prefix by time reversal (module documentation), where reversal
/// keeps the rules: pipelined, and in rounds where no channel binds.
pub(super) struct Reversal {
    /// The product's restricted model: the broadcasts that run backwards.
    broadcasts: FatTreeBroadcast,
    /// The broadcast on the same fat-tree.
    relaxation: Option<Relaxation>,
    /// How the restricted model's answers decode.
    shape: Shape,
}

impl Reversal {
    /// The reversal of the product or prefix `instance` on `tree`, or `None` where a reversed
    /// round need not be a round.
    pub(super) fn of(instance: &Instance, tree: &Tree) -> Option<Self> {
        if tree.rounds && !tree.unbound {
            return None;
        }
        let relaxation = Instance::new(
            format!("{}~broadcast", instance.name),
            instance.network.clone(),
            Problem::Broadcast,
            instance.model.clone(),
            instance.ring_tie,
            "<relaxation>",
        )
        .ok()
        .map(|instance| Relaxation { name: "the broadcast it reverses into (FT-24)", instance });
        let shape = Shape::ReversedBroadcast { processors: tree.n, rounds: tree.rounds };
        Some(Self { broadcasts: FatTreeBroadcast::reversible(tree.clone()), relaxation, shape })
    }

    /// The broadcast the instance reverses into.
    pub(super) fn relaxation(&self) -> Option<&Relaxation> {
        self.relaxation.as_ref()
    }

    /// The variables of the product's restricted model at `horizon`.
    pub(super) fn variables(&self, horizon: u64) -> usize {
        self.broadcasts.variables(horizon, Variant::Full)
    }

    /// The product's restricted model at `horizon`: the reversible broadcasts at `horizon`,
    /// decoded backwards into products.
    pub(super) fn encode(&self, horizon: u64) -> Option<Encoding> {
        let encoding = self.broadcasts.encode(horizon, Variant::Full)?;
        Some(Encoding { shape: self.shape, ..encoding })
    }
}

#[cfg(all(test, any(feature = "smt", feature = "sat")))]
mod tests {
    use super::*;
    use crate::exact::encode::Event;
    use crate::exact::encode::fat_tree::FatTreeCombine;
    use crate::exact::encode::fat_tree::tests::fat_tree;

    /// The product's restricted model (module documentation, "Product by reversal") on
    /// fat-tree:4 and fat-tree:8 under w = 1, log n + 1 and n, and in rounds under w = n: it is
    /// feasible at the broadcast's optimum (5 and 8; in rounds 6 and 12), every `d` of its
    /// solution is the ancestry of the decoded broadcast's tree, and the decoded product is
    /// accepted by the checker with that length. In rounds where channels bind there is none.
    #[test]
    fn reversible_broadcasts_reach_the_broadcast_optimum_and_decode_to_products() {
        use crate::checker::{Producer, accept};
        use crate::exact::backend::{BackendAnswer, Limits};
        let backend = crate::exact::default_backend().backend().unwrap();
        let pipelined = [(4, 5), (8, 8)].into_iter().flat_map(|(n, optimum)| {
            ["const:1", "log+1", "pow:1"].map(|capacity| (n, capacity, false, optimum))
        });
        // In rounds where no channel binds: the round-model optima 6 and 12.
        let in_rounds = [(4, "pow:1", true, 6), (8, "pow:1", true, 12)];
        for (n, capacity, rounds, optimum) in pipelined.chain(in_rounds) {
            let product = fat_tree("product", n, capacity, rounds);
            let encoder = FatTreeCombine::new(&product);
            let encoding = encoder.encode(optimum, Variant::Restricted).unwrap();
            assert_eq!(encoder.variables(optimum, Variant::Restricted), encoding.model.variables.len());
            let BackendAnswer::Feasible(assignment) =
                backend.solve(&encoding.model, &Limits::default()).unwrap()
            else {
                panic!("N = {n}, {capacity}: no reversible broadcast of length {optimum}");
            };
            let values = &assignment.values;
            // The broadcast's tree from the x set to 1, and its ancestry.
            let mut parent = vec![None; n];
            for &(var, event) in &encoding.events {
                if let (1, Event::Send(s)) = (values[var.index()], event) {
                    parent[s.to] = Some(s.from);
                }
            }
            for (var, v) in encoding.model.variables.iter().zip(values) {
                if let Some(rest) = var.name.strip_prefix("d_") {
                    let (u, w) = rest.split_once('_').unwrap();
                    let (u, w): (usize, usize) = (u.parse().unwrap(), w.parse().unwrap());
                    let ancestors: Vec<usize> = std::iter::successors(parent[w], |&p| parent[p]).collect();
                    assert_eq!(*v == 1, ancestors.contains(&u), "N = {n}, {capacity}: {}", var.name);
                }
            }
            let checked = accept(&product, encoding.decode(values), Producer::Exact("test")).unwrap();
            assert_eq!(checked.length(), optimum, "N = {n}, {capacity}");
        }
        // Where channels bind, a reversed round need not be a round: no restricted model.
        for capacity in ["const:1", "log+1"] {
            let product = FatTreeCombine::new(&fat_tree("product", 8, capacity, true));
            assert!(product.variants().restricted.is_none() && product.relaxation().is_none(), "{capacity}");
        }
    }
}

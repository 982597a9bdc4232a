//! # Sparse-Broadcast (paper 002 §3.1, Algorithm 2)
//!
//! Claims FT-6 (copy positions, no capacity excess) and FT-7 (recurrence (2):
//! S(n) ≤ 2S(m) + 4 log n). Sparse-Broadcast(first, n) starts with the value at P_first and ends
//! with r copies at P_{first + k·n/r}, k = 0..r−1:
//!
//! * r = 2: P\[first\] → P\[first + n/2\];
//! * r > 2, with q = √r and m the smallest subtree size of capacity (and rounded copy count) at
//!   least q: Sparse-Broadcast(first, m) (line 6); P\[first + i·m/q\] → P\[first + i·n/q\] for
//!   i = 1..q−1 (lines 7–8); Sparse-Broadcast(first + i·n/q, m) for all i = 0..q−1 in parallel
//!   (lines 9–10; i = 0 is kept, as printed: its copies have their own successors in lines
//!   11–13, which the product reversal needs); P\[first + i·n/q + j·m/q\] →
//!   P\[first + i·n/q + j·n/r\] for all i and j = 1..q−1 (lines 11–13). Self-sends are skipped.
//!
//! Every pardo line is one round of the round model (§4.2).
//!
//! ## Rounding (the reading chosen)
//!
//! The paper takes r = max(w(n), 2) and needs r, √r, n/r, m/√r to be powers of two and
//! w(n) ≤ n, none of which it states (FT-6 notes). Here
//!
//! ```text
//! r(n) = 2                                    if min(w(n), n) < 4,
//! r(n) = the largest 2^(2^k) ≤ min(w(n), n)   otherwise  (r ∈ {2, 4, 16, 256, 65536, …}),
//! m    = the smallest power of two n' ≥ 2 with r(n') ≥ √r and w(n') ≥ √r.
//! ```
//!
//! With this r the recursion closes: √r is again a possible copy count, so the call on m makes
//! at least √r copies (at positions containing j·m/√r), and w(n/√r) ≥ w(n)/√r ≥ √r (from
//! w(2n) ≤ 2w(n)) together with n/√r ≥ √r gives m ≤ n/√r, so the calls of line 10 use disjoint
//! subtrees. The rounding suggested alongside the claims ("the largest power of 4 that is
//! ≤ min(w(n), n)") does not close: with w(n) = n and n = 64 it gives r = 64, √r = 8, but every
//! subtree of at most n/√r = 8 leaves gets a rounded count of at most 4, so line 10 cannot make
//! its 8 copies inside its 8-leaf block. [`Spread::Halving`] is the other rule used here: r = 2
//! on every subtree, one unit of capacity (the naive algorithm of §3, FT-3).

use super::plan::{Phase, parallel, push};
use crate::error::{Error, Result};
use crate::spec::Capacity;

/// How many copies Sparse-Broadcast makes on a subtree, and which capacity it relies on.
#[derive(Debug, Clone, Copy)]
pub enum Spread<'a> {
    /// The rounded r(n) of the module documentation under this capacity function.
    Rounded(&'a Capacity),
    /// r = 2 everywhere, needing capacity 1 (recursive halving, §3).
    Halving,
}

impl Spread<'_> {
    /// r(n): the number of evenly spaced copies made on a subtree of n ≥ 2 leaves.
    pub fn copies(&self, n: usize) -> usize {
        match self {
            Spread::Halving => 2,
            Spread::Rounded(w) => {
                let x = w.w(n as u64).min(n as u64);
                let mut r = 2u64;
                while r.checked_mul(r).is_some_and(|s| s <= x) {
                    r *= r;
                }
                r as usize
            }
        }
    }

    fn capacity(&self, n: usize) -> u64 {
        match self {
            Spread::Halving => 1,
            Spread::Rounded(w) => w.w(n as u64),
        }
    }

    /// Line 5's m for √r = q: the smallest power of two n' in 2..=n/q whose capacity and
    /// rounded copy count are both at least q.
    fn inner_size(&self, n: usize, q: usize) -> Result<usize> {
        std::iter::successors(Some(2usize), |&k| Some(k * 2))
            .take_while(|&k| k <= n / q)
            .find(|&k| self.copies(k) >= q && self.capacity(k) >= q as u64)
            .ok_or_else(|| Error::NotApplicable {
                method: "sparse-broadcast".into(),
                reason: format!(
                    "no subtree of at most {} leaves has capacity {q}: w breaks w(2n) <= 2w(n)",
                    n / q
                ),
            })
    }
}

/// Algorithm 2 on the subtree of processors 0..n−1 (translate with
/// [`parallel`]): one round per pardo line.
pub fn sparse_broadcast(n: usize, spread: Spread) -> Result<Vec<Phase>> {
    let r = spread.copies(n);
    if r == 2 {
        return Ok(vec![Phase::round([(0, n / 2)])]);
    }
    let q = r.isqrt();
    let m = spread.inner_size(n, q)?;
    let inner = sparse_broadcast(m, spread)?;
    let mut plan = inner.clone();
    push(&mut plan, Phase::round((1..q).map(|i| (i * m / q, i * n / q))));
    plan.extend(parallel(&inner, (0..q).map(|i| i * n / q)));
    let spread_out = (0..q).flat_map(|i| (1..q).map(move |j| (i * n / q + j * m / q, i * n / q + j * n / r)));
    push(&mut plan, Phase::round(spread_out));
    Ok(plan)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rounded_copies() {
        let id = Capacity::Power { beta: 1.0 };
        let r: Vec<usize> = (1..=12).map(|e| Spread::Rounded(&id).copies(1 << e)).collect();
        assert_eq!(r, [2, 4, 4, 16, 16, 16, 16, 256, 256, 256, 256, 256]);
        assert_eq!(Spread::Rounded(&Capacity::LogPlusOne).copies(16), 4); // w(16) = 5
        assert_eq!(Spread::Rounded(&Capacity::LogPlusOne).copies(4), 2); // w(4) = 3
        assert_eq!(Spread::Halving.copies(1 << 10), 2);
    }
}

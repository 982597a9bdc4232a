//! # Shards: one long run as the N tasks of a cluster job array
//!
//! `report --shard I/N` assesses the instance files whose position in the sorted list is I
//! modulo N; `pareto --shard I/N` walks the chunk counts C of 1..=K with C − 1 ≡ I (mod N)
//! (docs/spec.md §4.5, "Walks in shards"). Both deal positions out round-robin, so the N tasks
//! cover every position once and share the expensive end of a list (the large instances, the
//! large C) between them; `merge` joins what the tasks wrote.

use crate::error::{InputError, Result};
use serde::{Deserialize, Serialize};
use std::fmt;

/// Shard I of N: the positions p (from 0) with p mod N = I.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shard {
    /// I, below N.
    pub index: usize,
    /// N, at least 1.
    pub count: usize,
}

impl Shard {
    /// The one shard that holds every position: the run unsplit.
    pub const WHOLE: Shard = Shard { index: 0, count: 1 };

    /// `--shard I/N`, with 0 ≤ I < N; otherwise an error naming the flag and the text.
    pub fn parse(text: &str) -> Result<Shard> {
        text.split_once('/')
            .and_then(|(i, n)| Some((i.trim().parse::<usize>().ok()?, n.trim().parse::<usize>().ok()?)))
            .filter(|&(i, n)| i < n)
            .map(|(index, count)| Shard { index, count })
            .ok_or_else(|| {
                InputError::new("<flags>", "--shard", format!("`{text}` is not I/N with 0 ≤ I < N")).into()
            })
    }

    /// Whether position `p` (from 0) is this shard's.
    pub fn holds(self, p: usize) -> bool {
        p % self.count == self.index
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

#[cfg(test)]
mod tests {
    use super::Shard;

    #[test]
    fn a_shard_is_an_index_below_the_count() {
        assert_eq!(Shard::parse("0/3").unwrap(), Shard { index: 0, count: 3 });
        assert_eq!(Shard::parse(" 2 / 3 ").unwrap().to_string(), "2/3");
        for bad in ["3/3", "1", "a/2", "1/0", "-1/2"] {
            let e = Shard::parse(bad).unwrap_err().to_string();
            assert!(e.contains("--shard") && e.contains(&format!("`{bad}`")), "{e}");
        }
    }

    #[test]
    fn the_shards_of_a_count_hold_every_position_once() {
        let shards: Vec<Shard> = (0..3).map(|index| Shard { index, count: 3 }).collect();
        for p in 0..10 {
            assert_eq!(shards.iter().filter(|s| s.holds(p)).count(), 1, "position {p}");
            assert!(Shard::WHOLE.holds(p));
        }
        assert!(shards[1].holds(4) && !shards[1].holds(5));
    }
}

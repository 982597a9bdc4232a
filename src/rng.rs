//! Seeded pseudo-random numbers for reproducible runs (tie orders, random instances): SplitMix64,
//! small, fast and the same on every platform. Not for anything that must be unpredictable.
//!
//! It is the crate's one generator, kept in-crate rather than taken from `rand` for
//! reproducibility across versions: the seeded instances of `ratios`, `bench` and the property
//! tests, and the counterexample files they write, must come out the same from every future
//! build, while `rand` documents its `StdRng` as free to change its algorithm in any release.

/// SplitMix64's output function: a bijective mix of 64 bits.
pub fn splitmix64(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The SplitMix64 generator: the mix of a counter advanced by the golden-ratio increment.
#[derive(Debug, Clone)]
pub struct SplitMix64 {
    state: u64,
}

impl SplitMix64 {
    /// The generator of `seed`.
    pub fn new(seed: u64) -> Self {
        Self { state: seed }
    }

    /// The next 64 bits.
    pub fn next_u64(&mut self) -> u64 {
        let out = splitmix64(self.state);
        self.state = self.state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        out
    }

    /// A value in `lo..=hi` (the modulo bias is below 2^-50 for the small ranges used here).
    pub fn range(&mut self, lo: usize, hi: usize) -> usize {
        assert!(lo <= hi, "empty range {lo}..={hi}");
        lo + (self.next_u64() % (hi - lo + 1) as u64) as usize
    }
}

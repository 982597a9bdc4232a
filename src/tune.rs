//! # Time for a message size, and the choice by size (docs/spec.md §4.6)
//!
//! SCCL's cost model (PPoPP'21 §5.2; docs/spec.md §4.5) prices a schedule of S steps and R
//! rounds with C chunks per unit of data at
//!
//! T(M) = base + α·S + (u(M)/C)·R / b,
//!
//! where u(M) is the unit of data of a message of M bytes ([`unit_divisor`]), α the latency of
//! one step, b the bandwidth of a link of bandwidth 1 in the network's own units, and base a
//! launch latency paid once. The frontier of a collective ([`crate::exact::pareto`]) is the set
//! of (S, R/C) no other point beats at every size; this module picks, for each size, the
//! cheapest of a set of checked candidates, and gives the byte ranges over which each one is
//! the cheapest ([`ranges`]): what an MSCCL runtime's `minBytes`/`maxBytes` select by.
//!
//! **The lower bound at a size.** Every schedule has S ≥ the distance bound and R/C ≥ ρ, the
//! multicommodity-flow bound of [`crate::bounds::collective::rounds_per_chunk`]; each term of
//! T is bounded on its own, so base + α·S_lb + (u(M)·ρ)/b is below the time of every schedule
//! of the model, and above both the latency bound and the bandwidth bound taken alone.
//!
//! **At scale** ([`choose_packed`]): on a machine of the bandwidth model the candidates are
//! packings, priced as pipelines by [`crate::bandwidth::time::sized_time`], and bounded below by
//! [`PackedBound`].
//!
//! **NCCL's constants** ([`Preset`]): NVIDIA/nccl `src/graph/tuning.cc`,
//! `ncclTunerConstantsDefaults`: the ring algorithm's base latency (LL 6.6, LL128 14.0,
//! Simple 8.4 µs) and its per-hop NVLink latency (LL 0.6, LL128 1.9, Simple 3.4 µs), which
//! NCCL adds once per ring step.

use crate::spec::CollectiveKind;

/// A set of latency constants: NCCL's per protocol, or none.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Preset {
    /// No constants: α must be given, and there is no base latency.
    None,
    /// NCCL's LL protocol, ring algorithm, NVLink.
    NcclLl,
    /// NCCL's LL128 protocol, ring algorithm, NVLink.
    NcclLl128,
    /// NCCL's Simple protocol, ring algorithm, NVLink.
    NcclSimple,
}

impl Preset {
    /// Every preset, in the order `--preset` lists them.
    pub const ALL: [Preset; 4] = [Preset::NcclSimple, Preset::NcclLl128, Preset::NcclLl, Preset::None];

    /// The name `--preset` takes.
    pub fn name(self) -> &'static str {
        match self {
            Preset::None => "none",
            Preset::NcclLl => "nccl-ll",
            Preset::NcclLl128 => "nccl-ll128",
            Preset::NcclSimple => "nccl-simple",
        }
    }

    /// The preset a name names.
    pub fn parse(name: &str) -> Option<Preset> {
        Preset::ALL.into_iter().find(|p| p.name() == name)
    }

    /// The latency paid once per collective, µs (`baseLatencies[RING][proto]`).
    pub fn base_us(self) -> f64 {
        match self {
            Preset::None => 0.0,
            Preset::NcclLl => 6.6,
            Preset::NcclLl128 => 14.0,
            Preset::NcclSimple => 8.4,
        }
    }

    /// The latency of one step over NVLink, µs (`hwLatencies[NVLINK][RING][proto]`); `None`
    /// without constants.
    pub fn hop_us(self) -> Option<f64> {
        match self {
            Preset::None => None,
            Preset::NcclLl => Some(0.6),
            Preset::NcclLl128 => Some(1.9),
            Preset::NcclSimple => Some(3.4),
        }
    }
}

/// The α–β constants of one tuning.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct CostModel {
    /// α: the latency of one step, µs.
    pub alpha_us: f64,
    /// The latency paid once, µs.
    pub base_us: f64,
    /// b: GB/s of a link of bandwidth 1 (one chunk per round).
    pub bandwidth_gbs: f64,
}

/// A checked schedule as the cost model sees it.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Candidate {
    /// Who made it: `pareto (S, R, C)` or an algorithm's name with its C.
    pub name: String,
    /// S.
    pub steps: u64,
    /// R.
    pub rounds: u64,
    /// C.
    pub chunks: usize,
    /// Whether it is a certified point of the frontier (its S optimal for its R and C).
    pub certified: bool,
}

/// The divisor d of a message of M bytes into SCCL's unit of data u = M/d: the bytes an MSCCL
/// runtime compares with `minBytes`/`maxBytes` (count × type size × its `sizeMultiplier`,
/// which is the number of ranks for allgather, reduce-scatter and alltoall), and nccl-tests'
/// size. An allgather's unit is one rank's input, M/n; an alltoall's the data from one rank to
/// another, M/n; a reduce-scatter's or an allreduce's one rank's share, M/n; a broadcast's,
/// reduce's, scatter's or gather's unit is M itself (their chunk is the whole buffer of one
/// rank).
pub fn unit_divisor(kind: CollectiveKind, ranks: usize) -> f64 {
    match kind {
        CollectiveKind::Allgather
        | CollectiveKind::Alltoall
        | CollectiveKind::ReduceScatter
        | CollectiveKind::Allreduce => ranks as f64,
        CollectiveKind::Broadcast
        | CollectiveKind::Reduce
        | CollectiveKind::Scatter
        | CollectiveKind::Gather => 1.0,
    }
}

/// nccl-tests' bus bandwidth factor (its `doc/PERFORMANCE.md`): busbw = algbw × factor, 2(n − 1)/n
/// for allreduce, (n − 1)/n for allgather, reduce-scatter and alltoall (and scatter and gather),
/// 1 for broadcast and reduce.
pub fn bus_factor(kind: CollectiveKind, ranks: usize) -> f64 {
    let n = ranks as f64;
    match kind {
        CollectiveKind::Allreduce => 2.0 * (n - 1.0) / n,
        CollectiveKind::Broadcast | CollectiveKind::Reduce => 1.0,
        _ => (n - 1.0) / n,
    }
}

/// The collective being tuned: what turns a message size into SCCL's unit of data.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Sizing {
    /// The collective.
    pub kind: CollectiveKind,
    /// Its number of ranks n.
    pub ranks: usize,
}

impl Sizing {
    /// u(M), bytes.
    pub fn unit(&self, bytes: u64) -> f64 {
        bytes as f64 / unit_divisor(self.kind, self.ranks)
    }
}

impl CostModel {
    /// The time of a candidate for M bytes, µs: base + α·S + (u/C)·R/b.
    pub fn time_us(&self, sizing: &Sizing, candidate: &Candidate, bytes: u64) -> f64 {
        let (intercept, slope) = self.line(sizing, candidate);
        intercept + slope * bytes as f64
    }

    /// T(M) = intercept + slope · M, µs.
    fn line(&self, sizing: &Sizing, candidate: &Candidate) -> (f64, f64) {
        let per_round = 1.0
            / unit_divisor(sizing.kind, sizing.ranks)
            / candidate.chunks as f64
            / (self.bandwidth_gbs * 1e3);
        (self.base_us + self.alpha_us * candidate.steps as f64, per_round * candidate.rounds as f64)
    }

    /// The lower bound on every schedule's time for M bytes, µs (module documentation):
    /// base + α·S_lb + u(M)·ρ/b.
    pub fn lower_bound_us(&self, sizing: &Sizing, bound: &LowerBound, bytes: u64) -> f64 {
        self.base_us
            + self.alpha_us * bound.steps as f64
            + sizing.unit(bytes) * bound.rounds_per_chunk / (self.bandwidth_gbs * 1e3)
    }
}

/// The model's lower bounds on S and on R/C.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct LowerBound {
    /// S_lb: the distance bound.
    pub steps: u64,
    /// ρ: the bound on R/C.
    pub rounds_per_chunk: f64,
}

/// The cheapest candidate at one size.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Choice {
    /// M, bytes.
    pub bytes: u64,
    /// The index of the chosen candidate.
    pub candidate: usize,
    /// Its time, µs.
    pub time_us: f64,
    /// The lower bound at this size, µs.
    pub lower_bound_us: f64,
    /// M / time, GB/s.
    pub algbw: f64,
    /// algbw × [`bus_factor`], GB/s.
    pub busbw: f64,
    /// time / lower bound (≥ 1).
    pub gap: f64,
}

/// The index of the cheapest candidate at M bytes: least time, then fewer steps, then the
/// lower R/C, then the first listed. `None` without candidates.
pub fn best_at(model: &CostModel, sizing: &Sizing, candidates: &[Candidate], bytes: u64) -> Option<usize> {
    let key = |i: usize| {
        let c = &candidates[i];
        (model.time_us(sizing, c, bytes), c.steps, c.rounds as f64 / c.chunks as f64, i)
    };
    (0..candidates.len()).min_by(|&a, &b| {
        let (ka, kb) = (key(a), key(b));
        ka.0.total_cmp(&kb.0).then(ka.1.cmp(&kb.1)).then(ka.2.total_cmp(&kb.2)).then(ka.3.cmp(&kb.3))
    })
}

/// The choice at every size.
pub fn choose(
    model: &CostModel,
    sizing: &Sizing,
    candidates: &[Candidate],
    bound: &LowerBound,
    sizes: &[u64],
) -> Vec<Choice> {
    sizes
        .iter()
        .filter_map(|&bytes| {
            let candidate = best_at(model, sizing, candidates, bytes)?;
            let time_us = model.time_us(sizing, &candidates[candidate], bytes);
            let lower_bound_us = model.lower_bound_us(sizing, bound, bytes);
            let algbw = bytes as f64 / (time_us * 1e3);
            Some(Choice {
                bytes,
                candidate,
                time_us,
                lower_bound_us,
                algbw,
                busbw: algbw * bus_factor(sizing.kind, sizing.ranks),
                gap: time_us / lower_bound_us,
            })
        })
        .collect()
}

/// The sizes over which one candidate is the cheapest: `min_bytes..=max_bytes`, no upper end
/// for the last range.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct Range {
    /// The candidate.
    pub candidate: usize,
    /// The least size, bytes.
    pub min_bytes: u64,
    /// The largest size, bytes; `None`: every larger size.
    pub max_bytes: Option<u64>,
}

/// The ranges that tile every size 0, 1, 2, … exactly once, each with the candidate
/// [`best_at`] picks at every size in it: the lower envelope of the candidates' lines, walked
/// from 0 by their crossings (a line that takes over has a smaller slope, so it never gives
/// way back). Empty without candidates.
pub fn ranges(model: &CostModel, sizing: &Sizing, candidates: &[Candidate]) -> Vec<Range> {
    let best = |m: u64| best_at(model, sizing, candidates, m);
    let Some(mut current) = best(0) else { return Vec::new() };
    let mut out = Vec::new();
    let mut lo = 0u64;
    loop {
        let (a, k) = model.line(sizing, &candidates[current]);
        // The first crossing past `lo` of a line with a smaller slope.
        let crossing = candidates
            .iter()
            .map(|c| model.line(sizing, c))
            .filter(|&(_, kj)| kj < k)
            .map(|(aj, kj)| (aj - a) / (k - kj))
            .filter(|x| x.is_finite())
            .fold(f64::INFINITY, f64::min);
        // Past u64, or no crossing: the current candidate to the end.
        let upper = if crossing.is_finite() && crossing < (u64::MAX / 4) as f64 {
            (crossing.max(lo as f64).ceil() as u64).saturating_add(2)
        } else {
            u64::MAX
        };
        let next = if upper == u64::MAX || best(upper) == Some(current) {
            None
        } else {
            // The least size in (lo, upper] where the choice changes.
            let (mut l, mut h) = (lo, upper);
            while h - l > 1 {
                let mid = l + (h - l) / 2;
                if best(mid) == Some(current) { l = mid } else { h = mid }
            }
            Some(h)
        };
        match next {
            Some(h) => {
                out.push(Range { candidate: current, min_bytes: lo, max_bytes: Some(h - 1) });
                lo = h;
                current = best(h).expect("candidates are not empty");
            }
            None => {
                out.push(Range { candidate: current, min_bytes: lo, max_bytes: None });
                return out;
            }
        }
    }
}

/// A checked packing of the bandwidth model as the α–β pipeline prices it
/// ([`crate::bandwidth::time::sized_time`]): the certified optimum or a registered algorithm.
pub struct Packed {
    /// `optimum` or the algorithm's name.
    pub name: String,
    /// Whether it is the certified optimum.
    pub certified: bool,
    /// The packing, checked.
    pub packing: crate::spec::packing::Packing,
    /// The checker's measure of it.
    pub measure: crate::checker::packing::PackingMeasure,
}

/// What bounds every pipelined packing on a fabric from below (module `bandwidth::depth`):
/// T(M) ≥ base + phases · α_min · D_min + (M/N) · τ, τ the optimum's time per shard (or its
/// lower bound when the optimum timed out).
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct PackedBound {
    /// The phases of the collective (2 for allreduce).
    pub phases: usize,
    /// The least link latency, µs.
    pub alpha_min_us: f64,
    /// The largest hop distance between two compute nodes: the least depth of some tree.
    pub depth: usize,
    /// τ, s/GB per shard.
    pub per_shard: f64,
    /// N.
    pub ranks: usize,
}

impl PackedBound {
    /// The bound at M bytes, µs, with `base_us` paid once.
    pub fn at(&self, base_us: f64, bytes: u64) -> f64 {
        base_us
            + self.phases as f64 * self.alpha_min_us * self.depth as f64
            + bytes as f64 / self.ranks as f64 / 1e9 * self.per_shard * 1e6
    }
}

/// The cheapest pipelined packing at one size.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct PackedChoice {
    /// M, bytes.
    pub bytes: u64,
    /// The index of the chosen packing.
    pub candidate: usize,
    /// Its pipeline: each phase's depth D and chunk count C.
    pub phases: Vec<crate::bandwidth::time::PhaseTime>,
    /// Its time with the base latency, µs.
    pub time_us: f64,
    /// The bound at this size, µs.
    pub lower_bound_us: f64,
    /// time / bound.
    pub gap: f64,
    /// M / time, GB/s.
    pub algbw: f64,
    /// algbw × the collective's bus factor.
    pub busbw: f64,
}

/// At each size, the packing whose pipeline is fastest (ties: the first listed, the optimum
/// first), priced by `sized_time` plus `base_us`.
pub fn choose_packed(
    fabric: &crate::spec::fabric::Fabric,
    candidates: &[Packed],
    bound: &PackedBound,
    base_us: f64,
    sizes: &[u64],
) -> Vec<PackedChoice> {
    sizes
        .iter()
        .filter_map(|&bytes| {
            let timed: Vec<_> = candidates
                .iter()
                .map(|c| crate::bandwidth::time::sized_time(fabric, &c.packing, &c.measure, bytes))
                .collect();
            let candidate =
                (0..timed.len()).min_by(|&a, &b| timed[a].time_us.total_cmp(&timed[b].time_us))?;
            let time_us = base_us + timed[candidate].time_us;
            let lower_bound_us = bound.at(base_us, bytes);
            let algbw = bytes as f64 / (time_us * 1e3);
            Some(PackedChoice {
                bytes,
                candidate,
                phases: timed[candidate].phases.clone(),
                time_us,
                lower_bound_us,
                gap: time_us / lower_bound_us,
                algbw,
                busbw: algbw * candidates[candidate].packing.collective.bus_factor(bound.ranks),
            })
        })
        .collect()
}

/// Sizes as `--sizes` takes them: a comma-separated list (`1K,1M,4G`) or a range `A..B` of
/// every power of two from A to B (`1K..4G`), each size as [`crate::bandwidth::time::parse_size`]
/// reads it. The reason on error.
pub fn parse_sizes(text: &str) -> Result<Vec<u64>, String> {
    let one = |s: &str| {
        crate::bandwidth::time::parse_size(s)
            .ok_or_else(|| format!("`{s}` is not a size (bytes, or 4K, 256M, 1G: powers of 1024)"))
    };
    if let Some((a, b)) = text.split_once("..") {
        let (lo, hi) = (one(a)?, one(b)?);
        if lo > hi {
            return Err(format!("`{text}`: the range ends below its start"));
        }
        let mut sizes = Vec::new();
        let mut m = lo;
        while m <= hi {
            sizes.push(m);
            match m.checked_mul(2) {
                Some(next) => m = next,
                None => break,
            }
        }
        return Ok(sizes);
    }
    let mut sizes = text.split(',').map(|s| one(s.trim())).collect::<Result<Vec<_>, _>>()?;
    sizes.sort_unstable();
    sizes.dedup();
    Ok(sizes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn point(steps: u64, rounds: u64, chunks: usize) -> Candidate {
        Candidate { name: format!("({steps}, {rounds}, {chunks})"), steps, rounds, chunks, certified: true }
    }

    const DGX1: Sizing = Sizing { kind: CollectiveKind::Allgather, ranks: 8 };

    #[test]
    fn sccl_crossover_between_the_latency_and_the_bandwidth_optimum() {
        // (2, 3, 2) against (3, 7, 6): equal where α = u·(3/2 − 7/6)/b, u = 3αb; M = 8u.
        let model = CostModel { alpha_us: 10.0, base_us: 0.0, bandwidth_gbs: 25.0 };
        let cands = [point(2, 3, 2), point(3, 7, 6)];
        let r = ranges(&model, &DGX1, &cands);
        let crossover = 8.0 * 3.0 * 10.0 * 25.0e3; // 6,000,000 bytes
        assert_eq!(r.len(), 2);
        assert_eq!(r[0], Range { candidate: 0, min_bytes: 0, max_bytes: Some(crossover as u64) });
        assert_eq!(r[1], Range { candidate: 1, min_bytes: crossover as u64 + 1, max_bytes: None });
    }

    #[test]
    fn sizes_read_as_lists_and_power_of_two_ranges() {
        assert_eq!(parse_sizes("1K..8K"), Ok(vec![1024, 2048, 4096, 8192]));
        assert_eq!(parse_sizes("1M,1K,1K"), Ok(vec![1024, 1 << 20]));
        assert!(parse_sizes("4K..1K").is_err());
        assert!(parse_sizes("1Q").is_err());
    }

    proptest! {
        /// The ranges tile [0, ∞) and agree with the choice at every size tried.
        #[test]
        fn ranges_tile_every_size_with_the_cheapest(
            lines in proptest::collection::vec((1u64..12, 1u64..40, 1usize..9), 1..7),
            alpha in 0.1f64..50.0,
            bw in 1.0f64..300.0,
            probes in proptest::collection::vec(0u64..(1 << 36), 20),
        ) {
            let model = CostModel { alpha_us: alpha, base_us: 1.0, bandwidth_gbs: bw };
            let cands: Vec<Candidate> = lines.iter().map(|&(s, r, c)| point(s, r, c)).collect();
            let r = ranges(&model, &DGX1, &cands);
            prop_assert_eq!(r[0].min_bytes, 0);
            prop_assert!(r.last().unwrap().max_bytes.is_none());
            for w in r.windows(2) {
                prop_assert_eq!(w[0].max_bytes.map(|m| m + 1), Some(w[1].min_bytes));
                prop_assert!(w[0].min_bytes <= w[0].max_bytes.unwrap());
            }
            for m in probes {
                let range = r.iter().find(|x| x.min_bytes <= m && x.max_bytes.is_none_or(|h| m <= h)).unwrap();
                prop_assert_eq!(Some(range.candidate), best_at(&model, &DGX1, &cands, m));
            }
        }
    }
}

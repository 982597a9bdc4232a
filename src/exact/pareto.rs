//! # SCCL's latency–bandwidth frontier, every point certified (docs/spec.md §4.5)
//!
//! A collective on a network trades steps S (latency) against rounds per chunk R/C
//! (bandwidth). SCCL (PPoPP'21 §5.2, msccl-tools `solve_all_latency_bandwidth_tradeoffs`)
//! walks it: for C = 1, 2, …, the least R from ⌈ρ·C⌉, where ρ is the lower bound on R/C, and
//! for that R the least S; the walk ends at the first point whose R/C meets ρ.
//!
//! [`walk`] asks the same questions, and keeps the evidence of every answer:
//! - **a refuted R**: the model at horizon R under budget R is infeasible. Each step takes at
//!   least one round, so no schedule within budget R has more than R steps: no schedule
//!   exists at all. Its evidence is a [`Refutation`] (a bound, a checked proof, or the solver's
//!   word).
//! - **a point**: for each R, S = the distance bound, the next, … are decided in turn (small
//!   models first, as SCCL does). The first feasible S gives the point: a checked schedule,
//!   and the certificate that S − 1 steps do not fit in R rounds (the refutation just
//!   decided, or the distance bound). When S = R is infeasible too, R is refuted.
//!
//! Unlike SCCL, R with gcd(R, C) > 1 is not skipped: R/C equals a ratio of fewer chunks, but
//! whether S steps fit is another question at C chunks, so skipping would leave the least R
//! uncertified. Points that another point dominates (no fewer steps and no lower R/C) are
//! marked as off the frontier rather than dropped.
//!
//! The time limit is the whole walk's: every decision gets what is left of it. A walk that
//! stops leaves (C, R) undecided, and a point one of them could dominate is marked
//! [`Frontier::Unsettled`], never on the frontier.
//!
//! Each decision is handed to the caller as it is settled ([`Settled`]), with the folder its
//! proof was traced into: the certificate folders (docs/spec.md §7.1) are written above this
//! layer, by `folder::write_settled`.
//!
//! A walk can be cut into shards by C ([`WalkOptions::shard`], docs/spec.md §4.5, "Walks in
//! shards"): each C is decided on its own, from ⌈ρ·C⌉, so a shard walks its own C alone and
//! ends at its first point that meets ρ. [`mark_frontier`] settles the frontier of any walk,
//! a shard's (the C of other shards are undecided) or one joined from shards by `merge`.

use super::decision::{Point, Refutation, decide_point};
use super::{BackendKind, SolveOptions, StopReason};
use crate::bounds::{self, Bound, collective::RoundsPerChunk};
use crate::certify::{Certificate, certify};
use crate::checker::Checked;
use crate::deadline::Deadline;
use crate::error::{Error, InputError, Result};
use crate::shard::Shard;
use crate::spec::{Instance, Model, Problem};
use std::path::{Path, PathBuf};

/// One (C, R) whose collective has no schedule at all.
#[derive(Debug)]
pub struct Refuted {
    /// C.
    pub chunks: usize,
    /// R.
    pub rounds: u64,
    /// Why no schedule within R rounds exists.
    pub refutation: Refutation,
    /// Its certificate folder, when one was asked for.
    pub folder: Option<PathBuf>,
}

/// A point of the walk: the least R for C, and the least S for (R, C).
#[derive(Debug)]
pub struct ParetoPoint {
    /// C.
    pub chunks: usize,
    /// R.
    pub rounds: u64,
    /// The optimum under budget R: its length is S.
    pub checked: Checked,
    /// Why S − 1 steps do not fit.
    pub certificate: Certificate,
    /// Whether another point has as few steps and a lower R/C, or fewer steps and the same R/C.
    pub frontier: Frontier,
    /// Its certificate folder, when one was asked for.
    pub folder: Option<PathBuf>,
}

/// Whether a point is on the frontier.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Frontier {
    /// No point of the walk dominates it, and none left undecided can.
    Yes,
    /// A point of the walk dominates it.
    No,
    /// No point of the walk dominates it, but the walk stopped before deciding a (C, R) that
    /// could.
    Unsettled,
}

impl ParetoPoint {
    /// S.
    pub fn steps(&self) -> u64 {
        self.checked.length()
    }
}

/// The walk and where it ended.
#[derive(Debug)]
pub struct Walk {
    /// ρ, the lower bound on R/C the walk starts from and stops at.
    pub bound: RoundsPerChunk,
    /// The points, by C.
    pub points: Vec<ParetoPoint>,
    /// The refuted (C, R), in the order they were decided.
    pub refuted: Vec<Refuted>,
    /// Why the walk ended before a point met ρ: `None` when one did, or when C reached
    /// the maximum (then [`Walk::complete`] is false).
    pub stop: Option<StopReason>,
    /// The (C, R) the walk stopped at, undecided, when it stopped.
    pub stopped_at: Option<(usize, u64)>,
}

impl Walk {
    /// Whether a point met the bound ρ, which ends the frontier.
    pub fn complete(&self) -> bool {
        self.points.last().is_some_and(|p| self.bound.met_by(p.rounds, p.chunks))
    }
}

/// The limits of a walk.
#[derive(Debug, Clone)]
pub struct WalkOptions {
    /// The largest C tried.
    pub max_chunks: usize,
    /// The backend of every decision.
    pub backend: BackendKind,
    /// Limits of the decisions: the timeout is the whole walk's, each decision gets what is left.
    pub solve: SolveOptions,
    /// Write a certificate folder `c{C}-r{R}` per point and per refuted (C, R) under this
    /// directory.
    pub folders: Option<PathBuf>,
    /// The C walked: those of 1..=`max_chunks` with C − 1 ≡ I (mod N), every one for
    /// [`Shard::WHOLE`].
    pub shard: Shard,
}

/// One decision of the walk, handed to the caller of [`walk`] as soon as it is settled.
#[derive(Debug, Clone, Copy)]
pub struct Settled<'a> {
    /// The instance at (C, R).
    pub instance: &'a Instance,
    /// Its folder `c{C}-r{R}` under [`WalkOptions::folders`], holding the CNF and LRAT proof
    /// of a proof-checked refutation; `None` when no folders were asked for.
    pub folder: Option<&'a Path>,
    /// Wall-clock seconds the decision took.
    pub seconds: f64,
    /// What was decided.
    pub decision: Decision<'a>,
}

/// What the walk decided at one (C, R).
#[derive(Debug, Clone, Copy)]
pub enum Decision<'a> {
    /// The least S within R: the optimum, why S − 1 steps do not fit, and the instance's
    /// lower bounds.
    Point {
        /// The optimum under budget R.
        checked: &'a Checked,
        /// Its certificate.
        certificate: &'a Certificate,
        /// The instance's lower bounds.
        bounds: &'a [Bound],
    },
    /// No schedule within R rounds.
    Refuted {
        /// R, the horizon refuted.
        rounds: u64,
        /// Why.
        refutation: &'a Refutation,
    },
}

/// The instance of `base` with C chunks and budget R: the instance a point or a refutation at
/// (C, R) answers.
pub fn at(base: &Instance, chunks: usize, rounds: u64) -> Instance {
    let mut inst = base.clone();
    if let Problem::Collective(c) = &mut inst.problem {
        c.chunks = chunks;
    }
    inst.model = Model::Collective { rounds: Some(rounds) };
    inst.name = format!("{}-c{chunks}-r{rounds}", base.name);
    inst
}

/// Walks the frontier of the collective `base` (its own C and budget are ignored; module
/// documentation), handing each decision to `record` as it is settled. Errors: the instance
/// is not a collective, a folder cannot be created, or `record` fails.
pub fn walk(
    base: &Instance,
    options: &WalkOptions,
    record: &mut dyn FnMut(Settled<'_>) -> Result<()>,
) -> Result<Walk> {
    if !matches!(base.problem, Problem::Collective(_)) {
        return Err(InputError::new(
            "",
            "problem",
            "the Pareto walk needs a collective (allgather, alltoall, …)",
        )
        .into());
    }
    super::encode::encoder_for(base)?;
    let deadline = Deadline::after(options.solve.timeout);
    let bound = bounds::collective::rounds_per_chunk_within(&at(base, 1, 1), deadline).ok_or_else(|| {
        InputError::new("", "network", "some chunk cannot reach a target: no schedule exists")
    })?;
    let mut walk = Walk { bound, points: Vec::new(), refuted: Vec::new(), stop: None, stopped_at: None };
    'chunks: for chunks in (1..=options.max_chunks).filter(|c| options.shard.holds(c - 1)) {
        let mut rounds = walk.bound.least_rounds(chunks);
        loop {
            let inst = at(base, chunks, rounds);
            if deadline.passed() {
                walk.stop = Some(StopReason::Timeout);
                walk.stopped_at = Some((chunks, rounds));
                break 'chunks;
            }
            let dir = folder_for(options, chunks, rounds)?;
            let started = std::time::Instant::now();
            let seconds = || started.elapsed().as_secs_f64();
            let settled =
                |decision| Settled { instance: &inst, folder: dir.as_deref(), seconds: seconds(), decision };
            match least_steps(&inst, rounds, options, deadline, dir.as_deref())? {
                Least::Steps(checked, certificate, lower) => {
                    record(settled(Decision::Point {
                        checked: &checked,
                        certificate: &certificate,
                        bounds: &lower,
                    }))?;
                    let met = walk.bound.met_by(rounds, chunks);
                    let point = ParetoPoint {
                        chunks,
                        rounds,
                        checked,
                        certificate,
                        frontier: Frontier::Yes,
                        folder: dir,
                    };
                    walk.points.push(point);
                    if met {
                        break 'chunks;
                    }
                    break;
                }
                Least::Refuted(refutation) => {
                    record(settled(Decision::Refuted { rounds, refutation: &refutation }))?;
                    walk.refuted.push(Refuted { chunks, rounds, refutation, folder: dir });
                    rounds += 1;
                }
                Least::Unknown(stop) => {
                    walk.stop = Some(stop);
                    walk.stopped_at = Some((chunks, rounds));
                    break 'chunks;
                }
            }
        }
    }
    mark_frontier(&mut walk, base, options.max_chunks);
    Ok(walk)
}

/// The least steps of a collective within its budget R.
enum Least {
    /// The optimum, its certificate and the instance's lower bounds.
    Steps(Checked, Certificate, Vec<Bound>),
    /// No schedule within R rounds: the refutation at horizon R.
    Refuted(Refutation),
    /// Undecided.
    Unknown(StopReason),
}

/// Decides S = the distance bound, the next, … up to R in turn (small models first, as SCCL
/// does); the first feasible S is the optimum, certified by the bound or by the refutation of
/// S − 1, whose CNF and proof are then in `dir`.
fn least_steps(
    inst: &Instance,
    rounds: u64,
    options: &WalkOptions,
    deadline: Deadline,
    dir: Option<&std::path::Path>,
) -> Result<Least> {
    let lower = bounds::lower_bounds_within(inst, deadline);
    let first = bounds::strongest(&lower).map_or(1, |b| b.value.max(1));
    let mut previous = None;
    for steps in first..=rounds {
        if deadline.passed() {
            return Ok(Least::Unknown(StopReason::Timeout));
        }
        let solve_options = SolveOptions {
            proof_dir: dir.map(Into::into),
            timeout: deadline.left(),
            ..options.solve.clone()
        };
        match decide_point(inst, options.backend, steps, &solve_options, None)? {
            Point::Feasible(checked) => {
                let infeasible = match &previous {
                    Some(Refutation::Solver(i)) => Some(i),
                    _ => None,
                };
                let certificate = certify(&lower, &checked, infeasible).ok_or_else(|| Error::Backend {
                    backend: options.backend.name(),
                    reason: format!(
                        "{}: a witness of {} steps without a certificate",
                        inst.name,
                        checked.length()
                    ),
                })?;
                return Ok(Least::Steps(checked, certificate, lower));
            }
            Point::Infeasible(refutation @ Refutation::Bound(_)) => return Ok(Least::Refuted(refutation)),
            Point::Infeasible(refutation) => previous = Some(refutation),
            Point::Unknown(stop) => return Ok(Least::Unknown(stop)),
        }
    }
    Ok(match previous {
        Some(refutation) => Least::Refuted(refutation),
        // The bound exceeds R: no step count within the budget is left.
        None => Least::Refuted(Refutation::Bound(format!("the steps need more than R = {rounds} rounds"))),
    })
}

/// The folder `c{C}-r{R}` of one decision, created, when folders were asked for.
fn folder_for(options: &WalkOptions, chunks: usize, rounds: u64) -> Result<Option<PathBuf>> {
    let Some(root) = &options.folders else { return Ok(None) };
    let dir = root.join(format!("c{chunks}-r{rounds}"));
    std::fs::create_dir_all(&dir).map_err(|source| Error::Io { path: dir.display().to_string(), source })?;
    Ok(Some(dir))
}

/// Marks the points of `walk` another point dominates (one with no more steps and a lower
/// R/C, or fewer steps and the same R/C) off the frontier, and those that a point of a (C, R)
/// left undecided could dominate unsettled. Undecided are, up to the last point's C when it
/// meets ρ and up to `max_chunks` otherwise, the C without a point: from the R the walk
/// stopped at for the C it stopped at, from ⌈ρ·C⌉ for the others (later C of a stopped walk,
/// other shards' C); a point there has at least the distance bound's steps.
pub fn mark_frontier(walk: &mut Walk, base: &Instance, max_chunks: usize) {
    let end = match walk.points.last() {
        Some(p) if walk.complete() => p.chunks,
        _ => max_chunks,
    };
    let open: Vec<(usize, u64)> = (1..=end)
        .filter(|&c| !walk.points.iter().any(|p| p.chunks == c))
        .map(|c| match walk.stopped_at {
            Some((at, r)) if at == c => (c, r),
            _ => (c, walk.bound.least_rounds(c)),
        })
        .collect();
    let least_steps = bounds::collective::distance(base).unwrap_or(1);
    let points = &mut walk.points;
    let keys: Vec<(u64, u64, u64)> = points.iter().map(|p| (p.steps(), p.rounds, p.chunks as u64)).collect();
    // r2/c2 < r/c  ⇔  r2·c < r·c2 (all positive).
    let dominates = |(s2, r2, c2): (u64, u64, u64), (s, r, c): (u64, u64, u64)| {
        (s2 <= s && r2 * c < r * c2) || (s2 < s && r2 * c == r * c2)
    };
    for (i, p) in points.iter_mut().enumerate() {
        let (s, r, c) = keys[i];
        p.frontier = if keys.iter().any(|&k| dominates(k, (s, r, c))) {
            Frontier::No
        } else if open.iter().any(|&(c2, least)| {
            let c2 = c2 as u64;
            // The fewest steps at the lowest R/C it allows, or at R/C = r/c when that is an R.
            dominates((least_steps, least, c2), (s, r, c))
                || ((r * c2).is_multiple_of(c)
                    && r * c2 / c >= least
                    && dominates((least_steps, r * c2 / c, c2), (s, r, c)))
        }) {
            Frontier::Unsettled
        } else {
            Frontier::Yes
        };
    }
}

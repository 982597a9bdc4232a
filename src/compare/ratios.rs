//! # Measured approximation ratios of the chatting algorithms (paper 000)
//!
//! Paper 000 proves for each algorithm a bound on its length in the instance's parameters
//! (C, L, Q, n, δ: CHAT-14, CHAT-15, CHAT-26 … CHAT-29, CHAT-33), and through the lower bounds
//! T_opt ≥ max(C, Q) (CHAT-2) and S_opt ≥ max(C, L) (CHAT-4) a ratio to the optimum. This module
//! measures the ratio itself: on seeded random instances of one network family it runs the one
//! pipeline ([`assess`]: every applicable algorithm checked, then the exact layer with the
//! bounds and the best algorithm as incumbent) and keeps the instances whose optimum is
//! certified. An instance whose exact search stops (timeout, size guard) has bounds, not an
//! optimum: it is skipped and counted, never in a ratio.
//!
//! Per algorithm and schedule kind (chatting T, virtual S) a [`Row`] holds
//! - the measured ratios length / optimum (each ≥ 1: the incumbent is an upper bound of the
//!   search);
//! - the proven ratio on each instance, the paper's bound B over the instance's strongest lower
//!   bound (the guarantee the paper's argument gives there, since optimum ≥ lower bound);
//! - every instance on which the checked length breaks the paper's bound, kept whole as a
//!   counterexample. Where the bound holds, measured ≤ B / optimum ≤ proven.
//!
//! Each random draw is scheduled four ways: unit-length and with lengths 1..=`max_len`, as a
//! chatting and as a virtual schedule, so the unit-length algorithms (first-fit, the ESM slot
//! algorithm) are measured on every draw too.

use super::assess::{Algorithms, AssessOptions, Attached, ExactAnswer, assess};
use crate::certify::Certificate;
use crate::claims::ClaimVerdict;
use crate::error::{InputError, Result};
use crate::exact::{BackendKind, SolveOptions};
use crate::rng::SplitMix64;
use crate::spec::{GatherMode, Instance, MessageSpec, Model, Network, Port, Problem, RingTie};
use crate::svg::{LineChart, Series, style};
use std::io::{self, Write};

/// The most messages a random instance may have: beyond it a single exact solve is no longer
/// reliably fast (ratios need hundreds of them).
pub const MAX_MESSAGES: usize = 12;

/// The network families the chatting algorithms are stated for (000 §3.4, §4 – §6).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RandomFamily {
    /// Unidirectional linear array `ula:n`, n = 3..8 (§4, §6.2).
    Ula,
    /// Bidirectional linear array `path:n` as two ULAs, n = 3..8 (§3.4).
    Path,
    /// A random rooted tree `tree:…`, n = 3..8 nodes (§6.3).
    Tree,
    /// East-south mesh `esm:N`, N = 2..4 (§5.2).
    Esm,
    /// Full mesh `mesh:R×C` as four ESMs, R, C = 2..3 (§5.2).
    Mesh,
}

impl RandomFamily {
    /// Every family, in the order of the paper.
    pub const ALL: [RandomFamily; 5] =
        [RandomFamily::Ula, RandomFamily::Path, RandomFamily::Esm, RandomFamily::Mesh, RandomFamily::Tree];

    /// Its name in tables and file names.
    pub fn name(self) -> &'static str {
        match self {
            RandomFamily::Ula => "ula",
            RandomFamily::Path => "path",
            RandomFamily::Tree => "tree",
            RandomFamily::Esm => "esm",
            RandomFamily::Mesh => "mesh",
        }
    }

    /// A random network of the family (its `network` string).
    fn network(self, rng: &mut SplitMix64) -> String {
        match self {
            RandomFamily::Ula => format!("ula:{}", rng.range(3, 8)),
            RandomFamily::Path => format!("path:{}", rng.range(3, 8)),
            RandomFamily::Esm => format!("esm:{}", rng.range(2, 4)),
            RandomFamily::Mesh => format!("mesh:{}x{}", rng.range(2, 3), rng.range(2, 3)),
            RandomFamily::Tree => {
                let parents: Vec<String> =
                    (1..rng.range(3, 8)).map(|v| rng.range(0, v - 1).to_string()).collect();
                format!("tree:{}", parents.join(","))
            }
        }
    }
}

/// What to measure.
#[derive(Debug, Clone)]
pub struct RatioOptions {
    /// The network family.
    pub family: RandomFamily,
    /// Random draws (each scheduled four ways, see the module documentation).
    pub count: usize,
    /// Seed of the draws; the same seed gives the same instances.
    pub seed: u64,
    /// Messages per draw: between ⌈messages/2⌉ and `messages`, at most [`MAX_MESSAGES`].
    pub messages: usize,
    /// Longest message of the variable-length instances, flits.
    pub max_len: i64,
    /// The exact backend.
    pub backend: BackendKind,
    /// Limits of each exact solve.
    pub solve: SolveOptions,
}

impl RatioOptions {
    /// [`InputError`] (file `<flags>`) for a count of zero, a message count outside
    /// 1..=[`MAX_MESSAGES`] or a length below 1.
    pub fn validate(&self) -> Result<()> {
        let err = |field: &str, reason: String| Err(InputError::new("<flags>", field, reason).into());
        if self.count == 0 {
            return err("--count", "the number of random instances must be at least 1".into());
        }
        if !(1..=MAX_MESSAGES).contains(&self.messages) {
            return err(
                "--messages",
                format!(
                    "{} messages: give 1..={MAX_MESSAGES} (each instance is solved exactly)",
                    self.messages
                ),
            );
        }
        if self.max_len < 1 {
            return err("--max-len", format!("{}: a message has at least one flit", self.max_len));
        }
        Ok(())
    }
}

/// A random message: (source, destination, length in flits).
pub type Drawn = (usize, usize, i64);

/// `count` random messages on `network`'s atlas paths, as (src, dst, length) with lengths in
/// 1..=`max_len`.
pub fn random_messages(network: &Network, count: usize, max_len: i64, rng: &mut SplitMix64) -> Vec<Drawn> {
    let n = network.len() - 1;
    let mut out = Vec::with_capacity(count);
    while out.len() < count {
        let (src, dst) = (rng.range(0, n), rng.range(0, n));
        if src != dst && network.default_path(src, dst, RingTie::Clockwise).is_some() {
            out.push((src, dst, 1 + rng.range(0, max_len as usize - 1) as i64));
        }
    }
    out
}

/// The multi-port chatting instance of `messages` on `network`, asking for a virtual schedule
/// when `virtual_schedule`.
pub fn chatting_instance(
    name: String,
    network: &Network,
    messages: &[Drawn],
    virtual_schedule: bool,
) -> Result<Instance> {
    let specs =
        messages.iter().map(|&(src, dst, length)| MessageSpec { src, dst, length, path: None }).collect();
    let model = Model::Bufferless { port: Port::Multi, virtual_schedule, gather: GatherMode::Centralized };
    Ok(Instance::new(name, network.clone(), Problem::Chatting(specs), model, RingTie::Clockwise, "")?)
}

/// One random draw scheduled four ways: `[unit, variable] × [chatting, virtual]` (two when
/// `max_len` is 1). Instance names are `FAMILY-DRAW-{unit,var}-{chat,virt}`.
pub fn draw(
    family: RandomFamily,
    index: usize,
    rng: &mut SplitMix64,
    messages: usize,
    max_len: i64,
) -> Vec<Instance> {
    let network = Network::parse(&family.network(rng)).expect("the families draw valid networks");
    let count = rng.range(messages.div_ceil(2), messages);
    let drawn = random_messages(&network, count, max_len, rng);
    let unit: Vec<_> = drawn.iter().map(|&(src, dst, _)| (src, dst, 1)).collect();
    let lengths: &[(&str, &[Drawn])] =
        if max_len == 1 { &[("unit", &unit)] } else { &[("unit", &unit), ("var", &drawn)] };
    let mut out = Vec::new();
    for &(kind, messages) in lengths {
        for (tag, virtual_schedule) in [("chat", false), ("virt", true)] {
            let name = format!("{}-{index}-{kind}-{tag}", family.name());
            out.push(
                chatting_instance(name, &network, messages, virtual_schedule)
                    .expect("drawn messages follow the network's paths"),
            );
        }
    }
    out
}

/// An instance on which an algorithm's checked length breaks the paper's bound.
#[derive(Debug, Clone)]
pub struct Counterexample {
    /// The instance.
    pub instance: Instance,
    /// The checked length.
    pub length: u64,
    /// The claim id and the bound it states here.
    pub claim: String,
    /// The bound.
    pub bound: u64,
    /// The certified optimum.
    pub optimum: u64,
}

/// The measurements of one algorithm on one schedule kind.
#[derive(Debug, Clone)]
pub struct Row {
    /// The algorithm's registered name.
    pub method: &'static str,
    /// `chatting` (T) or `virtual` (S).
    pub schedule: &'static str,
    /// length / optimum per instance.
    pub ratios: Vec<f64>,
    /// Per instance (aligned with `ratios`), the paper's bound over the strongest lower bound,
    /// when the paper claims a bound there.
    pub proven: Vec<Option<f64>>,
    /// The claim ids of the paper's bounds.
    pub claims: Vec<String>,
    /// The instances on which the length breaks the paper's bound.
    pub violations: Vec<Counterexample>,
}

impl Row {
    /// The largest measured ratio.
    pub fn max(&self) -> f64 {
        self.ratios.iter().copied().fold(f64::NAN, f64::max)
    }

    /// The mean measured ratio.
    pub fn mean(&self) -> f64 {
        self.ratios.iter().sum::<f64>() / self.ratios.len() as f64
    }

    /// The largest proven ratio (`None` when the paper claims no bound).
    pub fn proven_max(&self) -> Option<f64> {
        self.proven.iter().flatten().copied().reduce(f64::max)
    }
}

/// A measurement on one family.
#[derive(Debug, Clone)]
pub struct RatioRun {
    /// What was asked.
    pub options: RatioOptions,
    /// One row per algorithm and schedule kind, in registry order.
    pub rows: Vec<Row>,
    /// Instances with a certified optimum, by the certificate's kind: a lower bound met, and an
    /// exact infeasibility at T − 1.
    pub certified: (usize, usize),
    /// Instances skipped because the exact search stopped with bounds, with the first reason.
    pub skipped: (usize, Option<String>),
}

/// Measures every applicable chatting algorithm against the certified optimum on
/// `options.count` random draws (see the module documentation). Errors: bad options
/// ([`RatioOptions::validate`]) and whatever makes the exact layer fail (a backend fault, a
/// checker rejection); an inadmissible algorithm schedule is an error too (a bug).
pub fn measure(options: &RatioOptions) -> Result<RatioRun> {
    options.validate()?;
    let assess_options = AssessOptions {
        algorithms: Algorithms::Applicable,
        exact: Some(options.backend.into()),
        solve: options.solve.clone(),
        fail_fast: true,
    };
    let mut rng = SplitMix64::new(options.seed);
    let mut run =
        RatioRun { options: options.clone(), rows: Vec::new(), certified: (0, 0), skipped: (0, None) };
    for index in 0..options.count {
        for inst in draw(options.family, index, &mut rng, options.messages, options.max_len) {
            let a = assess(&inst, Attached::default(), &assess_options)?;
            let optimum = match a.exact.as_ref().map(|e| &e.answer) {
                Some(ExactAnswer::Optimal { optimum, certificate }) => {
                    match certificate {
                        Certificate::LowerBound { .. } => run.certified.0 += 1,
                        Certificate::InfeasibleAtTMinus1 { .. } => run.certified.1 += 1,
                    }
                    *optimum
                }
                Some(ExactAnswer::Bounds { stop, .. }) => {
                    run.skipped.0 += 1;
                    run.skipped.1.get_or_insert_with(|| format!("{}: {stop}", inst.name));
                    continue;
                }
                other => unreachable!("fail-fast assessment with an exact layer answered {other:?}"),
            };
            let lower = a.lower_bound.as_ref().map_or(optimum, |b| b.value);
            let schedule = if matches!(inst.model, Model::Bufferless { virtual_schedule: true, .. }) {
                "virtual"
            } else {
                "chatting"
            };
            for alg in &a.algorithms {
                let Some(length) = alg.length else {
                    return Err(match &alg.error {
                        Some(reason) => crate::Error::NotApplicable {
                            method: alg.method.into(),
                            reason: format!("{}: {reason}", inst.name),
                        },
                        None => crate::Error::Rejected {
                            producer: format!("algorithm {}", alg.method),
                            reason: format!("{}: {}", inst.name, alg.violations.join("; ")),
                        },
                    });
                };
                let row = match run.rows.iter().position(|r| r.method == alg.method && r.schedule == schedule)
                {
                    Some(i) => &mut run.rows[i],
                    None => {
                        run.rows.push(Row {
                            method: alg.method,
                            schedule,
                            ratios: Vec::new(),
                            proven: Vec::new(),
                            claims: Vec::new(),
                            violations: Vec::new(),
                        });
                        run.rows.last_mut().expect("just pushed")
                    }
                };
                row.ratios.push(length as f64 / optimum as f64);
                row.proven.push(alg.claim.as_ref().map(|c| c.claimed.value as f64 / lower as f64));
                if let Some(c) = &alg.claim {
                    if !row.claims.contains(&c.claimed.claim) {
                        row.claims.push(c.claimed.claim.clone());
                    }
                    if c.verdict == ClaimVerdict::Violated {
                        row.violations.push(Counterexample {
                            instance: inst.clone(),
                            length,
                            claim: c.claimed.claim.clone(),
                            bound: c.claimed.value,
                            optimum,
                        });
                    }
                }
            }
        }
    }
    Ok(run)
}

/// A ratio with three decimals, `-` when absent.
fn ratio(v: Option<f64>) -> String {
    v.map_or_else(|| "-".into(), |x| format!("{x:.3}"))
}

/// The table's cells of one row: family, algorithm, schedule, instances, max, mean, proven max,
/// claims, violations.
fn cells(run: &RatioRun, row: &Row) -> [String; 9] {
    [
        run.options.family.name().into(),
        row.method.into(),
        row.schedule.into(),
        row.ratios.len().to_string(),
        ratio(Some(row.max())),
        ratio(Some(row.mean())),
        ratio(row.proven_max()),
        if row.claims.is_empty() { "-".into() } else { row.claims.join(" ") },
        row.violations.len().to_string(),
    ]
}

const HEADER: [&str; 9] = [
    "family",
    "algorithm",
    "schedule",
    "instances",
    "max ratio",
    "mean ratio",
    "proven ratio",
    "claim",
    "violated",
];

/// The Markdown table of the runs, then per run the instances solved and skipped, and every
/// counterexample (instance name, length, bound, optimum).
pub fn write_markdown(runs: &[RatioRun], out: &mut dyn Write) -> io::Result<()> {
    writeln!(out, "| {} |", HEADER.join(" | "))?;
    writeln!(out, "|{}", "---|".repeat(HEADER.len()))?;
    for run in runs {
        for row in &run.rows {
            writeln!(out, "| {} |", cells(run, row).join(" | "))?;
        }
    }
    writeln!(out)?;
    for run in runs {
        let o = &run.options;
        writeln!(
            out,
            "- {}: {} draws (seed {}, ≤ {} messages, lengths 1..={}), {} instances with a certified optimum \
             ({} by a lower bound, {} by infeasibility at T − 1), {} skipped{}.",
            o.family.name(),
            o.count,
            o.seed,
            o.messages,
            o.max_len,
            run.certified.0 + run.certified.1,
            run.certified.0,
            run.certified.1,
            run.skipped.0,
            run.skipped.1.as_ref().map_or(String::new(), |r| format!(" (first: {r})"))
        )?;
        for row in &run.rows {
            for c in &row.violations {
                writeln!(
                    out,
                    "  - {} ({}) breaks {} on `{}`: length {} > {}, optimum {}",
                    row.method, row.schedule, c.claim, c.instance.name, c.length, c.bound, c.optimum
                )?;
            }
        }
    }
    Ok(())
}

/// The CSV of the runs: the table's columns, ratios with six decimals.
pub fn write_csv(runs: &[RatioRun], out: &mut dyn Write) -> io::Result<()> {
    writeln!(out, "{}", HEADER.map(|h| h.replace(' ', "_")).join(","))?;
    for run in runs {
        for row in &run.rows {
            let r = |v: Option<f64>| v.map_or_else(String::new, |x| format!("{x:.6}"));
            let c = cells(run, row);
            writeln!(
                out,
                "{},{},{},{},{},{},{},{},{}",
                c[0],
                c[1],
                c[2],
                c[3],
                r(Some(row.max())),
                r(Some(row.mean())),
                r(row.proven_max()),
                row.claims.join(" "),
                c[8]
            )?;
        }
    }
    Ok(())
}

/// The measured ratios of one run as a chart: per algorithm and schedule kind its ratios sorted
/// ascending against the share of instances (a distribution function read sideways).
pub fn chart(run: &RatioRun) -> LineChart {
    LineChart {
        title: format!("length / optimum, random {} instances", run.options.family.name()),
        x_label: "share of instances (%)".into(),
        y_label: "length / optimum".into(),
        series: run
            .rows
            .iter()
            .enumerate()
            .map(|(k, row)| {
                let mut sorted = row.ratios.clone();
                sorted.sort_by(f64::total_cmp);
                let n = sorted.len().max(2) - 1;
                Series {
                    label: format!("{} ({})", row.method, row.schedule),
                    points: sorted
                        .into_iter()
                        .enumerate()
                        .map(|(i, r)| (100.0 * i as f64 / n as f64, r))
                        .collect(),
                    style: style(k),
                }
            })
            .collect(),
    }
}

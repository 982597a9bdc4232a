//! The registered algorithms set against the optimum, per machine (docs/spec.md §3.2): what
//! `algbw` prints and the scale section of `report` shows. Every packing goes through the
//! checker before its algbw is stated, and the optimum is the optimiser's, certified by its
//! packing and its cut ([`optimise`]), or the cut bound known when the deadline passed, marked
//! as such.

use super::baseline::Baseline;
use super::{Answer, optimise};
use crate::checker::packing::{PackingMeasure, check_packing};
use crate::error::{Error, Result};
use crate::spec::fabric::{Fabric, ratio_text};
use crate::spec::packing::{BandwidthCollective, Packing};
use num_rational::BigRational;
use serde::{Deserialize, Serialize};
use std::time::Instant;

/// The optimum a registered algorithm is set against: certified, or the cut bound at the
/// deadline.
pub struct Reference {
    /// Time per shard (s/GB).
    pub time: BigRational,
    /// Whether a packing meets it (else it is the best cut's bound).
    pub certified: bool,
}

/// The optimum of `collective` on `fabric` as a [`Reference`], by [`optimise`].
pub fn reference(
    fabric: &Fabric,
    collective: BandwidthCollective,
    deadline: Option<Instant>,
) -> Result<Reference> {
    Ok(match optimise(fabric, collective, deadline)? {
        Answer::Optimal(opt) => Reference { time: opt.measure.time, certified: true },
        Answer::Bounds { lower, .. } => Reference { time: lower, certified: false },
    })
}

/// A registered algorithm's packing of `collective` on `fabric`, checked: its measure, or why
/// it does not apply. A packing the checker rejects is an error (a bug of the algorithm).
pub fn measured(
    fabric: &Fabric,
    collective: BandwidthCollective,
    algorithm: Baseline,
) -> Result<std::result::Result<(Packing, PackingMeasure), String>> {
    let packing = match algorithm.packing(fabric, collective)? {
        Ok(packing) => packing,
        Err(reason) => return Ok(Err(reason)),
    };
    let measure = check_packing(fabric, &packing).map_err(|v| Error::Rejected {
        producer: format!("the {} algorithm", algorithm.name()),
        reason: v.into_iter().take(3).collect::<Vec<_>>().join("; "),
    })?;
    Ok(Ok((packing, measure)))
}

/// One machine: the optimum and every registered algorithm against it.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Row {
    /// The machine as given (`ndv2x4`, a file).
    pub network: String,
    /// Its compute nodes (N).
    pub compute_nodes: usize,
    /// The optimum.
    pub optimum: OptimumCell,
    /// Every registered algorithm, in [`Baseline::ALL`] order.
    pub algorithms: Vec<AlgorithmCell>,
}

/// The optimum of a [`Row`]: certified, or the cut bound at the timeout.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct OptimumCell {
    /// Its algbw (GB/s).
    pub algbw: f64,
    /// Its time per shard (`"p/q"` s/GB).
    pub time_per_shard: String,
    /// Whether a checked packing meets the cut (else only the cut's bound is known).
    pub certified: bool,
}

/// A registered algorithm of a [`Row`]: its checked algbw and share of the optimum, or why it
/// does not apply.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct AlgorithmCell {
    /// Its name ([`Baseline::name`]).
    pub name: String,
    /// What it reached.
    #[serde(flatten)]
    pub outcome: Outcome,
}

/// What a registered algorithm reached on a machine.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Outcome {
    /// Its packing, checked.
    Measured {
        /// Its algbw (GB/s).
        algbw: f64,
        /// algbw over the optimum's.
        share_of_optimum: f64,
        /// Its number of trees.
        trees: usize,
    },
    /// It does not apply (or its packing is over a size guard).
    NotApplicable {
        /// Why.
        not_applicable: String,
    },
}

/// The [`Row`] of `fabric` (named `network`): the optimum, by the `deadline`, and every
/// registered algorithm's checked packing against it.
pub fn compare(
    network: &str,
    fabric: &Fabric,
    collective: BandwidthCollective,
    deadline: Option<Instant>,
) -> Result<Row> {
    let n = fabric.compute().len();
    let optimum = reference(fabric, collective, deadline)?;
    let (best, _) = collective.bandwidths(n, &optimum.time);
    let mut algorithms = Vec::new();
    for algorithm in Baseline::ALL {
        // A packing over the size guards is a cell of the table, not the end of it.
        let outcome = match measured(fabric, collective, algorithm) {
            Ok(Ok((_, measure))) => {
                let (algbw, _) = collective.bandwidths(n, &measure.time);
                Outcome::Measured { algbw, share_of_optimum: algbw / best, trees: measure.trees }
            }
            Ok(Err(reason)) | Err(Error::NotApplicable { reason, .. }) => {
                Outcome::NotApplicable { not_applicable: reason }
            }
            Err(e) => return Err(e),
        };
        algorithms.push(AlgorithmCell { name: algorithm.name().into(), outcome });
    }
    let optimum =
        OptimumCell { algbw: best, time_per_shard: ratio_text(&optimum.time), certified: optimum.certified };
    Ok(Row { network: network.into(), compute_nodes: n, optimum, algorithms })
}

/// The header of the table of rows: machine, GPUs, optimum, then each algorithm's name.
pub fn header() -> Vec<String> {
    let mut header = vec!["machine".to_string(), "GPUs".into(), "optimum".into()];
    header.extend(Baseline::ALL.iter().map(|b| b.name().to_string()));
    header
}

/// A row's cells under [`header`]: its GPUs, the optimum's algbw (`cut`: certified; `bound`:
/// the cut's bound at the timeout) and each algorithm's algbw with its share of the optimum,
/// `n/a` where it does not apply.
pub fn cells(row: &Row) -> Vec<String> {
    let kind = if row.optimum.certified { "cut" } else { "bound" };
    let mut line = vec![
        row.network.clone(),
        row.compute_nodes.to_string(),
        format!("{:.3} ({kind})", row.optimum.algbw),
    ];
    line.extend(row.algorithms.iter().map(|a| match &a.outcome {
        Outcome::Measured { algbw, share_of_optimum, .. } => {
            format!("{algbw:.3} ({:.1} %)", 100.0 * share_of_optimum)
        }
        Outcome::NotApplicable { .. } => "n/a".into(),
    }));
    line
}

/// Why each algorithm marked `n/a` in a row's [`cells`] does not apply, one line each.
pub fn notes(row: &Row) -> Vec<String> {
    (row.algorithms.iter())
        .filter_map(|a| match &a.outcome {
            Outcome::NotApplicable { not_applicable } => {
                Some(format!("{}: {} does not apply: {not_applicable}", row.network, a.name))
            }
            Outcome::Measured { .. } => None,
        })
        .collect()
}

/// The rows as a text table, algbw in GB/s ([`header`], [`cells`]), then [`notes`].
pub fn table(collective: BandwidthCollective, rows: &[Row]) -> String {
    let lines: Vec<Vec<String>> = std::iter::once(header()).chain(rows.iter().map(cells)).collect();
    let widths: Vec<usize> =
        (0..lines[0].len()).map(|i| lines.iter().map(|l| l[i].chars().count()).max().unwrap_or(0)).collect();
    let mut text = format!(
        "{} (bandwidth model): algbw in GB/s; the optimum certified by a cut (or its bound at the timeout); each algorithm's packing checked, with its share of the optimum\n",
        collective.name()
    );
    for line in &lines {
        let cells: Vec<String> = line.iter().zip(&widths).map(|(c, w)| format!("{c:<w$}")).collect();
        text += cells.join("  ").trim_end();
        text += "\n";
    }
    for note in rows.iter().flat_map(notes) {
        text += &note;
        text += "\n";
    }
    text
}

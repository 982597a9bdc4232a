//! The report's machines at scale: per machine of a machine list, the certified bandwidth
//! optimum of a collective and each registered NCCL-style algorithm's checked algbw and share of
//! it ([`crate::bandwidth::compare`], the table `algbw` prints).
//!
//! `report` finds the lists as files named `*.machines.toml` under its paths (default
//! `instances/`, which holds `instances/scale/nccl.machines.toml`;
//! [`crate::spec::io::is_machine_list`]), and keeps them out of the instance files. A list is
//!
//! ```toml
//! collective = "allgather"            # allgather, reduce-scatter or allreduce
//! machines = ["ndv2x2", "rail:4x8"]   # what `--network` takes: named machines or node-link files
//! ```
//!
//! A file path in `machines` is read relative to the list's folder.

use super::plots::Plot;
use crate::bandwidth::compare::{self, Outcome, Row};
use crate::error::{InputError, Result};
use crate::spec::fabric;
use crate::spec::packing::BandwidthCollective;
use crate::svg::{self, CategoryChart, CategoryKind, CategorySeries, Value};
use serde::{Deserialize, Serialize};
use std::path::Path;
use std::time::{Duration, Instant};

/// A machine list file.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct MachineList {
    collective: String,
    machines: Vec<String>,
}

/// One machine list of a report: its rows, or why it could not be assessed.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ScaleTable {
    /// The list's file.
    pub file: String,
    /// The collective (`allgather`, …), as the file names it.
    pub collective: String,
    /// One row per machine, in the list's order.
    pub machines: Vec<Row>,
    /// Why the list could not be assessed (bad input), else `null`.
    pub error: Option<String>,
}

/// Assesses a machine list: every machine's row ([`compare::compare`]), the optimiser of each
/// stopped after `timeout` (its row then holds the cut's bound, marked uncertified). Bad input
/// (the file, an unknown collective or machine) is the table's error.
pub fn assess(file: &Path, timeout: Option<Duration>) -> ScaleTable {
    let name = file.display().to_string();
    let mut table =
        ScaleTable { file: name.clone(), collective: String::new(), machines: Vec::new(), error: None };
    let result = (|| -> Result<()> {
        let text = std::fs::read_to_string(file)
            .map_err(|source| crate::Error::Io { path: name.clone(), source })?;
        let list: MachineList =
            toml::from_str(&text).map_err(|e| InputError::new(&name, "", e.to_string()))?;
        table.collective = list.collective.clone();
        let collective = BandwidthCollective::parse(&list.collective).ok_or_else(|| {
            InputError::new(
                &name,
                "collective",
                format!("`{}` is not allgather, reduce-scatter or allreduce", list.collective),
            )
        })?;
        let dir = file.parent().unwrap_or(Path::new(""));
        for machine in &list.machines {
            let beside = dir.join(machine);
            let spec = if beside.is_file() { beside.display().to_string() } else { machine.clone() };
            let fabric = fabric::load(&spec, None)?;
            let deadline = timeout.map(|t| Instant::now() + t);
            table.machines.push(compare::compare(machine, &fabric, collective, deadline)?);
        }
        Ok(())
    })();
    if let Err(e) = result {
        table.machines.clear();
        table.error = Some(e.to_string());
    }
    table
}

/// The plot of a table (the `i`-th of the report): per machine, each algorithm's algbw as a
/// share of the optimum, the optimum the level of 100 % (filled where certified, hollow where
/// only the cut's bound is known); the optimum's algbw is in each machine's label.
pub fn plot(table: &ScaleTable, i: usize) -> Plot {
    let names: Vec<&str> =
        table.machines.first().map_or(Vec::new(), |r| r.algorithms.iter().map(|a| &*a.name).collect());
    let mut series = vec![CategorySeries {
        label: "optimum (cut bound; certified where filled)".into(),
        values: table
            .machines
            .iter()
            .map(|r| Some(Value { y: 100.0, filled: r.optimum.certified }))
            .collect(),
        style: svg::reference_style(1),
    }];
    series.extend(names.iter().enumerate().map(|(k, name)| {
        CategorySeries {
            label: (*name).into(),
            values: table
                .machines
                .iter()
                .map(|r| match r.algorithms.iter().find(|a| a.name == *name).map(|a| &a.outcome) {
                    Some(Outcome::Measured { share_of_optimum, .. }) => {
                        Some(Value { y: 100.0 * share_of_optimum, filled: r.optimum.certified })
                    }
                    _ => None,
                })
                .collect(),
            style: svg::style(k),
        }
    }));
    let svg = CategoryChart {
        title: format!("{} at scale: NCCL-style algorithms against the optimum", table.collective),
        y_label: "algbw, % of the optimum".into(),
        note: vec!["machine (optimum algbw in GB/s)".into()],
        categories: table
            .machines
            .iter()
            .map(|r| format!("{} ({:.1})", r.network, r.optimum.algbw))
            .collect(),
        series,
        kind: CategoryKind::Bars,
        rule: None,
    }
    .to_svg();
    let stem = Path::new(&table.file)
        .file_name()
        .and_then(|n| n.to_str())
        .map_or("machines", |n| n.trim_end_matches(".machines.toml"))
        .to_string();
    Plot {
        file: format!("scale-{}-{stem}.svg", i + 1),
        caption: format!(
            "{} at scale ({}): each algorithm's algbw as a share of the certified optimum",
            table.collective, table.file
        ),
        svg,
    }
}

/// Writes the tables as text ([`compare::table`]), each under its file's name.
pub fn write_text(tables: &[ScaleTable], out: &mut dyn std::io::Write) -> std::io::Result<()> {
    for t in tables {
        writeln!(out, "== machines at scale ({}) ==", t.file)?;
        match (&t.error, BandwidthCollective::parse(&t.collective)) {
            (Some(e), _) => writeln!(out, "  ERROR: {e}")?,
            (None, Some(c)) => write!(out, "{}", compare::table(c, &t.machines))?,
            (None, None) => {}
        }
        writeln!(out)?;
    }
    Ok(())
}

/// Writes the tables as Markdown: a section, then per list a table ([`compare::header`],
/// [`compare::cells`]) and its notes.
pub fn write_markdown(tables: &[ScaleTable], out: &mut dyn std::io::Write) -> std::io::Result<()> {
    if tables.is_empty() {
        return Ok(());
    }
    writeln!(
        out,
        "\n## Machines at scale\n\nalgbw in GB/s: the optimum certified by a packing and a tight cut (`bound`: only the cut's, at the timeout); each algorithm's packing checked, with its share of the optimum.\n"
    )?;
    for t in tables {
        writeln!(out, "### {} ({})\n", t.collective, t.file)?;
        if let Some(e) = &t.error {
            writeln!(out, "ERROR: {e}\n")?;
            continue;
        }
        let header = compare::header();
        writeln!(out, "| {} |\n|{}", header.join(" | "), "---|".repeat(header.len()))?;
        for row in &t.machines {
            writeln!(out, "| {} |", compare::cells(row).join(" | "))?;
        }
        for note in t.machines.iter().flat_map(compare::notes) {
            writeln!(out, "\n- {note}")?;
        }
        writeln!(out)?;
    }
    Ok(())
}

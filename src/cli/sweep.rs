//! `commsched sweep fat-tree`: Table 1 of paper 002 measured (FT-21, FT-22). For N = 2^2 … 2^L
//! and every capacity family, one row: Algorithm 1's checked length, recurrence (3)
//! (T(N) = S(N) + T(N/r), T(1) = 0, S(N) the length of Sparse-Broadcast's phases, FT-8), the
//! pipelined broadcast's checked length (FT-10) and the length of its phases, the naive
//! broadcast's log N (log N + 1) (FT-3) and the lower bounds of FT-2, FT-11, FT-17, FT-18 and
//! the far half (`bounds::fat_tree::far_half`).
//! Schedules are built and checked only on trees within the `--max-nodes` guard; above it the
//! checked cells stay empty and the recurrence and the phases still give the lengths. Writes
//! `table1.csv` and `table1.svg` (Algorithm 1 against log N, one line per capacity).

use super::io_err;
use commsched::bounds::fat_tree as ft_bounds;
use commsched::checker::{Producer, accept};
use commsched::error::{InputError, Result};
use commsched::heuristics::fat_tree::{self as ft, Phase, Spread};
use commsched::spec::io::parse_instance;
use commsched::spec::{Capacity, Instance};
use commsched::svg::{LineChart, Series, reference_style, style};
use std::collections::BTreeMap;
use std::io::Write;
use std::path::Path;

/// One row of the table.
struct Row {
    capacity: String,
    levels: u32,
    broadcast_checked: Option<u64>,
    recurrence_3: u64,
    pipelined_checked: Option<u64>,
    pipelined_phases: u64,
    naive: u64,
    ft2: u64,
    ft11: u64,
    ft17: u64,
    ft18: u64,
    far_half: u64,
}

fn plan_length(plan: &[Phase]) -> u64 {
    plan.iter().map(Phase::length).sum::<i64>() as u64
}

/// The instance `broadcast` on fat-tree:N under `capacity`, pipelined.
fn instance(n: usize, capacity: &str) -> std::result::Result<Instance, InputError> {
    let text = format!(
        "problem = \"broadcast\"\nnetwork = \"fat-tree:{n}\"\n[model]\nkind = \"fat-tree\"\ncapacity = \"{capacity}\"\n"
    );
    parse_instance(&text, "<flags>", &format!("broadcast-fat-tree{n}-{capacity}"))
}

/// The checked length of a registered method's schedule.
fn checked(method: &'static str, inst: &Instance) -> Result<u64> {
    let m = commsched::heuristics::all().into_iter().find(|m| m.name == method).expect("registered");
    Ok(accept(inst, m.produce(inst)?, Producer::Algorithm(m.name))?.length())
}

/// The rows of one capacity family for log N = 2..=`max_levels`.
fn rows(cap_s: &str, max_levels: u32, max_nodes: u64) -> Result<Vec<Row>> {
    let capacity = Capacity::parse(cap_s).map_err(|r| InputError::new("<flags>", "--capacities", r))?;
    // t[l] = recurrence (3) at N = 2^l.
    let mut t: BTreeMap<u32, u64> = BTreeMap::from([(0, 0)]);
    let mut out = Vec::new();
    for l in 1..=max_levels {
        let n = 1usize << l;
        capacity.validate(n as u64).map_err(|r| InputError::new("<flags>", "--capacities", r))?;
        let spread = Spread::Rounded(&capacity);
        let r = spread.copies(n);
        let value = plan_length(&ft::sparse_broadcast(n, spread)?) + t[&(l - r.ilog2())];
        t.insert(l, value);
        if l < 2 {
            continue;
        }
        let n64 = n as u64;
        let inst = if n64 <= max_nodes { Some(instance(n, cap_s)?) } else { None };
        let measured = |method| inst.as_ref().map(|i| checked(method, i)).transpose();
        out.push(Row {
            capacity: cap_s.to_string(),
            levels: l,
            broadcast_checked: measured("broadcast")?,
            recurrence_3: value,
            pipelined_checked: measured("pipelined-broadcast")?,
            pipelined_phases: plan_length(&ft::pipelined_plan(n, &capacity)?),
            naive: u64::from(l) * u64::from(l + 1),
            ft2: ft_bounds::diameter(n64),
            ft11: ft_bounds::empty_subtree(n64, &capacity),
            ft17: ft_bounds::round_model_broadcast(n64, &capacity),
            ft18: ft_bounds::theorem_3(n64, &capacity),
            far_half: ft_bounds::far_half(n64, &capacity),
        });
    }
    Ok(out)
}

const HEADER: &str = "capacity,log2_n,n,broadcast_checked,recurrence_3,pipelined_checked,pipelined_phases,naive_ft3,lower_ft2,lower_ft11,round_lower_ft17,round_lower_ft18,lower_far_half";

fn csv_line(r: &Row) -> String {
    let opt = |v: Option<u64>| v.map_or(String::new(), |v| v.to_string());
    format!(
        "{},{},{},{},{},{},{},{},{},{},{},{},{}",
        r.capacity,
        r.levels,
        1u64 << r.levels,
        opt(r.broadcast_checked),
        r.recurrence_3,
        opt(r.pipelined_checked),
        r.pipelined_phases,
        r.naive,
        r.ft2,
        r.ft11,
        r.ft17,
        r.ft18,
        r.far_half
    )
}

/// Runs the sweep and writes `table1.csv` and `table1.svg` into `dir`; prints the CSV.
pub fn run(
    capacities: &[String],
    max_levels: u32,
    max_nodes: u64,
    dir: &Path,
    out: &mut dyn Write,
) -> Result<u8> {
    if !(2..=20).contains(&max_levels) {
        return Err(InputError::new("<flags>", "--max-log", format!("{max_levels} is outside 2..=20")).into());
    }
    let mut all = Vec::new();
    for cap in capacities {
        all.extend(rows(cap, max_levels, max_nodes)?);
    }
    let mut csv = format!("{HEADER}\n");
    for r in &all {
        csv += &csv_line(r);
        csv.push('\n');
    }
    let mut series: Vec<Series> = capacities
        .iter()
        .enumerate()
        .map(|(i, cap)| Series {
            label: format!("Algorithm 1, w = {cap}"),
            points: all
                .iter()
                .filter(|r| &r.capacity == cap)
                .map(|r| (f64::from(r.levels), r.broadcast_checked.unwrap_or(r.recurrence_3) as f64))
                .collect(),
            style: style(i),
        })
        .collect();
    series.push(Series {
        label: "naive, log N (log N + 1) (FT-3)".into(),
        points: (2..=max_levels).map(|l| (f64::from(l), f64::from(l * (l + 1)))).collect(),
        style: reference_style(0),
    });
    series.push(Series {
        label: "2 log N (FT-2)".into(),
        points: (2..=max_levels).map(|l| (f64::from(l), f64::from(2 * l))).collect(),
        style: reference_style(1),
    });
    let chart = LineChart {
        title: format!(
            "Broadcast on the ideal fat-tree: Algorithm 1 (checked up to {max_nodes} processors, recurrence (3) above)"
        ),
        x_label: "log2 N".into(),
        y_label: "steps".into(),
        series,
    };
    std::fs::create_dir_all(dir).map_err(io_err(&dir.display().to_string()))?;
    for (name, text) in [("table1.csv", &csv), ("table1.svg", &chart.to_svg())] {
        let path = dir.join(name);
        std::fs::write(&path, text).map_err(io_err(&path.display().to_string()))?;
    }
    out.write_all(csv.as_bytes()).map_err(io_err("<stdout>"))?;
    Ok(0)
}

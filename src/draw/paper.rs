//! The papers' own pictures of a schedule, drawn from the same checked [`Diagram`]:
//!
//! * **dot-wire** (paper 003 §3, Fig. 2): one column of dots per link of a linear array or
//!   ring, one row per step going down; a dot is black when the link carries a packet in that
//!   step and white when it is idle, and a *wire* joins the step a token reaches a node to each
//!   step it leaves it again, so a token's spread reads as wires going downward (two wires
//!   through one black dot would be a clash);
//! * **parallelograms** (paper 000 §2.2, Fig. 1): the processor-time plane of a ULA, arc
//!   (x, x + 1) across and time upward; the flits of one message mark a parallelogram with two
//!   vertical sides and two sides along the main bisector, and an admissible chatting schedule
//!   is exactly a set of parallelograms that do not overlap.
//!
//! Violations the checker places on arcs are outlined in red, as in the space-time diagram.

use super::{Diagram, LISTED};
use crate::error::{Error, Result};
use crate::spec::{Family, Instance, Schedule};
use crate::svg::{Anchor, Svg, colour};
use std::collections::HashMap;

/// The dot-wire diagram of a store-and-forward schedule on `path:N` or `ring:N`.
pub fn dot_wire(inst: &Instance, schedule: &Schedule, d: &Diagram) -> Result<String> {
    let (n, ring) = match *inst.network.family() {
        Family::Path(n) => (n, false),
        Family::Ring(n) => (n, true),
        _ => {
            return Err(refuse("dot-wire", format!("it draws a linear array or ring, not {}", inst.network)));
        }
    };
    let explicit = schedule.explicit()?;
    let Schedule::StoreForward(steps) = explicit.as_ref() else {
        return Err(refuse(
            "dot-wire",
            format!("it draws store-and-forward schedules, not {} ones", schedule.model_name()),
        ));
    };
    // Link j joins j and j + 1 (mod n on a ring).
    let links = if ring { n } else { n - 1 };
    let link = |u: usize, v: usize| if v == (u + 1) % n { u } else { v };
    let (left, top, dx, dy) = (40.0, 64.0, 36.0, 22.0);
    let rows = d.steps.max(1);
    let height = top + dy * rows as f64 + 30.0 + 16.0 * (d.violations.len().min(LISTED) + 1) as f64;
    let mut svg = Svg::new((left * 2.0 + dx * links as f64).max(420.0), height);
    let at = |j: usize, t: i64| (left + dx * (j as f64 + 0.5), top + dy * (t - 1) as f64);
    svg.text((10.0, 22.0), &format!("{} (dot-wire)", d.title), 14.0, Anchor::Start, false);
    for v in 0..=links {
        let label = format!("v{}", v % n);
        svg.text((left + dx * v as f64, top - 20.0), &label, 10.0, Anchor::Middle, false);
    }
    for t in 1..=rows {
        svg.text((left - 12.0, at(0, t).1 + 4.0), &t.to_string(), 10.0, Anchor::End, false);
    }
    // Wires first, dots over them: a token's send from v joins the step it first reached v.
    let mut reached: HashMap<(usize, usize), (usize, i64)> = HashMap::new();
    let mut busy: HashMap<(usize, i64), Vec<String>> = HashMap::new();
    for (index, step) in steps.iter().enumerate() {
        let t = index as i64 + 1;
        for tr in step.iter().filter(|tr| tr.from < n && tr.to < n) {
            let j = link(tr.from, tr.to);
            for &k in &tr.tokens {
                if let Some(&(i, s)) = reached.get(&(k, tr.from)) {
                    svg.line(at(i, s), at(j, t), colour(k), 2.0, false);
                }
            }
            busy.entry((j, t)).or_default().push(format!("t{:?} {}→{}", tr.tokens, tr.from, tr.to));
        }
        for tr in step.iter().filter(|tr| tr.from < n && tr.to < n) {
            for &k in &tr.tokens {
                reached.entry((k, tr.to)).or_insert((link(tr.from, tr.to), t));
            }
        }
    }
    for t in 1..=rows {
        for j in 0..links {
            match busy.get(&(j, t)) {
                Some(what) => {
                    svg.circle(at(j, t), 5.0, "#000000", Some(&format!("step {t}: {}", what.join(", "))))
                }
                None => svg.ring(at(j, t), 4.0, "#000000", Some(&format!("step {t}: idle"))),
            }
        }
    }
    for j in 0..links {
        let (x, _) = at(j, 1);
        svg.line((x, top - 8.0), (x, top + dy * (rows as f64 - 1.0) + 8.0), "#d0d0d0", 0.5, true);
    }
    let arcs = inst.network.arcs();
    for &(arc, t) in &d.marks {
        let (u, v) = arcs[arc];
        let (x, y) = at(link(u, v), t);
        svg.outline(x - 8.0, y - 8.0, 16.0, 16.0, "#d00000", 2.5);
    }
    d.list_violations(&mut svg, top + dy * rows as f64 + 20.0);
    Ok(svg.finish())
}

/// The parallelogram diagram of a bufferless schedule on `ula:N`.
pub fn parallelograms(inst: &Instance, d: &Diagram) -> Result<String> {
    let Family::Ula(n) = *inst.network.family() else {
        return Err(refuse(
            "parallelogram",
            format!("it draws the ULA's processor-time plane, not {}", inst.network),
        ));
    };
    let arcs = inst.network.arcs();
    // Per message: its steps on each arc (column x is arc (x, x + 1)).
    let mut columns: HashMap<usize, Vec<(usize, i64, i64)>> = HashMap::new();
    let mut sorted = d.cells.clone();
    sorted.sort_by_key(|c| (c.key, arcs[c.arc].0, c.step));
    for c in &sorted {
        let x = arcs[c.arc].0;
        let cols = columns.entry(c.key).or_default();
        match cols.last_mut() {
            Some((cx, _, hi)) if *cx == x && *hi + 1 == c.step => *hi = c.step,
            _ => cols.push((x, c.step, c.step)),
        }
    }
    let (left, top, dx, dy) = (50.0, 40.0, 28.0, 16.0);
    let rows = d.steps.max(1);
    let bottom = top + dy * rows as f64;
    let height = bottom + 40.0 + 16.0 * (d.violations.len().min(LISTED) + 1) as f64;
    let mut svg = Svg::new((left + dx * (n - 1) as f64 + 30.0).max(420.0), height);
    // Cell (x, t) spans [x, x + 1] across and [t − 1, t] up.
    let px = |x: f64| left + dx * x;
    let py = |t: f64| bottom - dy * t;
    svg.text((10.0, 22.0), &format!("{} (parallelograms)", d.title), 14.0, Anchor::Start, false);
    for x in 0..n - 1 {
        svg.text((px(x as f64 + 0.5), bottom + 14.0), &format!("η{x}"), 9.0, Anchor::Middle, false);
    }
    for t in (0..=rows).step_by(5) {
        svg.text((left - 6.0, py(t as f64) + 4.0), &t.to_string(), 9.0, Anchor::End, false);
        svg.line((left, py(t as f64)), (px((n - 1) as f64), py(t as f64)), "#eeeeee", 1.0, false);
    }
    let mut keys: Vec<&usize> = columns.keys().collect();
    keys.sort();
    for &key in keys {
        let cols = &columns[&key];
        // The union of the columns: bottom staircase left to right, top staircase back.
        let mut outline: Vec<(f64, f64)> = Vec::new();
        for &(x, lo, _) in cols {
            outline.push((px(x as f64), py((lo - 1) as f64)));
            outline.push((px(x as f64 + 1.0), py((lo - 1) as f64)));
        }
        for &(x, _, hi) in cols.iter().rev() {
            outline.push((px(x as f64 + 1.0), py(hi as f64)));
            outline.push((px(x as f64), py(hi as f64)));
        }
        let label = sorted.iter().find(|c| c.key == key).map_or(String::new(), |c| c.label.clone());
        svg.polygon(&outline, colour(key), "#333333", Some(&label));
        let &(x, lo, hi) = &cols[0];
        let message = label.split('.').next().unwrap_or(&label).to_string();
        svg.text(
            (px(x as f64 + 0.5), py((lo + hi) as f64 / 2.0) + 3.0),
            &message,
            8.0,
            Anchor::Middle,
            false,
        );
    }
    for &(arc, t) in &d.marks {
        svg.outline(px(arcs[arc].0 as f64), py(t as f64), dx, dy, "#d00000", 2.5);
    }
    d.list_violations(&mut svg, bottom + 34.0);
    Ok(svg.finish())
}

fn refuse(style: &str, reason: String) -> Error {
    Error::NotApplicable { method: format!("draw --style {style}"), reason }
}

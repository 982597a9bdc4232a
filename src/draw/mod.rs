//! Space-time diagrams of schedules (`commsched draw`): one row per arc of the network, one
//! column per step, one coloured cell for everything that crosses an arc in a step.
//!
//! Every model reduces to one generic list of [`Cell`]s (arc, step, label, colour key), so a
//! single drawing routine serves them all:
//!
//! * store-and-forward: one cell per transmission, labelled with its tokens and coloured by its
//!   first token;
//! * bufferless: one cell per flit and arc (flit h of a message started at s crosses the k-th arc
//!   of its path in step s + h + k), coloured by message; control messages likewise, labelled by
//!   kind.
//!
//! Virtual and fat-tree schedules have no arc-per-step form (a virtual start is not a step, a
//! fat-tree message occupies channels of the tree rather than arcs of the network) and are
//! refused by name. The schedule always goes through the checker first: an admissible one is
//! titled with its checked length, an inadmissible one gets every violation that names an arc,
//! link or node in a step outlined in red, and the violations listed under the diagram.

pub mod paper;
pub mod topology;

use crate::checker::{self, Verdict, Violation};
use crate::error::{Error, Result};
use crate::spec::{ControlKind, Instance, Schedule};
use crate::svg::{Anchor, Svg, colour};

/// Something crossing one arc in one step.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cell {
    /// Arc index (row), as in [`crate::spec::Network::arcs`].
    pub arc: usize,
    /// Step (column), from 1.
    pub step: i64,
    /// Short label drawn in the cell (`t5`, `m3.0`, `token`).
    pub label: String,
    /// Colour key: the message or token it belongs to, an index into the palette.
    pub key: usize,
}

/// A checked schedule laid out as cells, with its violations placed on them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagram {
    /// The title: instance, verdict, length.
    pub title: String,
    /// Row labels, one per arc: `(u,v)`.
    pub rows: Vec<String>,
    /// The number of columns (the last step with a cell or a violation).
    pub steps: i64,
    /// The cells.
    pub cells: Vec<Cell>,
    /// `(arc, step)` of each cell position a violation points at.
    pub marks: Vec<(usize, i64)>,
    /// The checker's violations, as contract text (empty when admissible).
    pub violations: Vec<String>,
}

/// The cells of a schedule: what crosses which arc in which step. Entries the checker would
/// reject as unknown (a message id that does not exist, a pair of nodes that is not an arc) have
/// no cell; the checker's diagnosis names them.
pub fn cells(inst: &Instance, schedule: &Schedule) -> Result<Vec<Cell>> {
    let net = &inst.network;
    let mut out = Vec::new();
    match schedule {
        Schedule::Itineraries(_) => return cells(inst, schedule.explicit()?.as_ref()),
        Schedule::StoreForward(steps) | Schedule::Collective { steps, .. } => {
            let prefix = if matches!(schedule, Schedule::Collective { .. }) { "c" } else { "t" };
            for (index, step) in steps.iter().enumerate() {
                for tr in step {
                    let Some(arc) = net.arc(tr.from, tr.to) else { continue };
                    let tokens: Vec<String> = tr.tokens.iter().map(|t| format!("{prefix}{t}")).collect();
                    out.push(Cell {
                        arc,
                        step: index as i64 + 1,
                        label: tokens.join(","),
                        key: tr.tokens.first().copied().unwrap_or(0),
                    });
                }
            }
        }
        Schedule::Bufferless { starts, control } => {
            let messages = inst.messages()?;
            for s in starts {
                let Some(m) = messages.iter().find(|m| m.id == s.msg) else { continue };
                for h in 0..m.len as i64 {
                    for (k, &arc) in m.arcs.iter().enumerate() {
                        let label = format!("m{}.{h}", m.id);
                        out.push(Cell { arc, step: s.start + h + k as i64, label, key: m.id });
                    }
                }
            }
            let control_key = messages.iter().map(|m| m.id + 1).max().unwrap_or(0);
            for c in control {
                let Some(arcs) = net
                    .default_path(c.from, c.to, inst.ring_tie)
                    .and_then(|nodes| net.walk_arcs(&nodes, c.from, c.to).ok())
                else {
                    continue;
                };
                let label = match c.kind {
                    ControlKind::WakeUp => "wake",
                    ControlKind::Token => "token",
                    ControlKind::Certificate => "cert",
                    ControlKind::Order => "order",
                };
                for (k, &arc) in arcs.iter().enumerate() {
                    out.push(Cell { arc, step: c.start + k as i64, label: label.into(), key: control_key });
                }
            }
        }
        Schedule::Virtual(_) | Schedule::FatTree(_) => {
            return Err(Error::NotApplicable {
                method: "draw".into(),
                reason: format!(
                    "a {} schedule has no arc-per-step form; draw takes store-and-forward and bufferless schedules",
                    schedule.model_name()
                ),
            });
        }
    }
    Ok(out)
}

/// The arcs a violation's place names: `arc (u,v)`, both arcs of `link {u,v}`, or every arc
/// into or out of `node u` that carries a cell in the violation's step.
fn marked_arcs(inst: &Instance, v: &Violation, cells: &[Cell]) -> Vec<usize> {
    let net = &inst.network;
    let numbers = |s: &str| -> Vec<usize> {
        s.split(|c: char| !c.is_ascii_digit())
            .filter(|x| !x.is_empty())
            .filter_map(|x| x.parse().ok())
            .collect()
    };
    let (Some(step), Some((kind, rest))) = (v.step, v.place.split_once(' ')) else { return Vec::new() };
    match (kind, &numbers(rest)[..]) {
        ("arc", &[u, w]) => net.arc(u, w).into_iter().collect(),
        ("link", &[u, w]) => [net.arc(u, w), net.arc(w, u)].into_iter().flatten().collect(),
        ("node", &[u]) => {
            let mut arcs: Vec<usize> = cells
                .iter()
                .filter(|c| c.step == step)
                .filter(|c| {
                    let (a, b) = net.arcs()[c.arc];
                    a == u || b == u
                })
                .map(|c| c.arc)
                .collect();
            arcs.sort_unstable();
            arcs.dedup();
            arcs
        }
        _ => Vec::new(),
    }
}

/// Checks `schedule` and lays it out as a [`Diagram`].
pub fn diagram(inst: &Instance, schedule: &Schedule) -> Result<Diagram> {
    let cells = cells(inst, schedule)?;
    let verdict = checker::check(inst, schedule);
    let mut marks: Vec<(usize, i64)> = Vec::new();
    for v in verdict.violations() {
        for arc in marked_arcs(inst, v, &cells) {
            marks.push((arc, v.step.unwrap_or(0)));
        }
    }
    marks.sort_unstable();
    marks.dedup();
    let title = match &verdict {
        Verdict::Admissible(m) => format!("{}: admissible, length {}", inst.name, m.length()),
        Verdict::Inadmissible(v) => format!(
            "{}: inadmissible, {} violation{}",
            inst.name,
            v.len(),
            if v.len() == 1 { "" } else { "s" }
        ),
    };
    let steps = cells.iter().map(|c| c.step).chain(marks.iter().map(|m| m.1)).max().unwrap_or(0);
    Ok(Diagram {
        title,
        rows: inst.network.arcs().iter().map(|(u, v)| format!("({u},{v})")).collect(),
        steps,
        cells,
        marks,
        violations: verdict.violations().iter().map(ToString::to_string).collect(),
    })
}

/// How many violations the picture lists before "and N more".
const LISTED: usize = 20;

impl Diagram {
    /// The diagram as an SVG document: arcs down, steps across; cells sharing an arc and a step
    /// split its box; violations outlined in red and listed below.
    pub fn to_svg(&self) -> String {
        let (left, top, cw, rh) = (70.0, 50.0, 34.0, 18.0);
        let columns = self.steps.max(1);
        let listed = self.violations.len().min(LISTED);
        let list_lines = listed + usize::from(self.violations.len() > LISTED);
        let grid_bottom = top + rh * self.rows.len() as f64;
        let width = (left + cw * columns as f64 + 20.0).max(480.0);
        let height = grid_bottom + 40.0 + 16.0 * list_lines as f64;
        let x = |step: i64| left + cw * (step - 1) as f64;
        let y = |arc: usize| top + rh * arc as f64;
        let mut svg = Svg::new(width, height);
        svg.text((left, 22.0), &self.title, 14.0, Anchor::Start, false);
        for (i, row) in self.rows.iter().enumerate() {
            svg.text((left - 6.0, y(i) + rh * 0.7), row, 11.0, Anchor::End, false);
            svg.line((left, y(i)), (x(columns + 1), y(i)), "#e5e5e5", 1.0, false);
        }
        for t in 1..=columns {
            svg.text((x(t) + cw / 2.0, top - 6.0), &t.to_string(), 10.0, Anchor::Middle, false);
            svg.line((x(t), top), (x(t), grid_bottom), "#e5e5e5", 1.0, false);
        }
        let mut sorted: Vec<&Cell> = self.cells.iter().collect();
        sorted.sort_by_key(|c| (c.arc, c.step));
        for group in sorted.chunk_by(|a, b| (a.arc, a.step) == (b.arc, b.step)) {
            let h = (rh - 2.0) / group.len() as f64;
            for (k, c) in group.iter().enumerate() {
                let (cx, cy) = (x(c.step) + 1.0, y(c.arc) + 1.0 + h * k as f64);
                let title = format!("step {}, arc {}: {}", c.step, self.rows[c.arc], c.label);
                svg.rect(cx, cy, cw - 2.0, h, colour(c.key), None, Some(&title));
                if group.len() == 1 {
                    svg.text((cx + (cw - 2.0) / 2.0, cy + h * 0.72), &c.label, 8.0, Anchor::Middle, false);
                }
            }
        }
        for &(arc, step) in &self.marks {
            svg.outline(x(step), y(arc), cw, rh, "#d00000", 2.5);
        }
        self.list_violations(&mut svg, grid_bottom + 24.0);
        svg.finish()
    }

    /// Lines of text under a picture from height `y`: the first [`LISTED`] violations, then
    /// `... and N more`.
    fn list_violations(&self, svg: &mut Svg, y: f64) {
        let mut ly = y;
        for v in self.violations.iter().take(LISTED) {
            svg.text((10.0, ly), v, 11.0, Anchor::Start, false);
            ly += 16.0;
        }
        if self.violations.len() > LISTED {
            let more = format!("... and {} more", self.violations.len() - LISTED);
            svg.text((10.0, ly), &more, 11.0, Anchor::Start, false);
        }
    }
}

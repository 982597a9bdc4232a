//! The pictures of a bound-gap report (docs/guide.md, "The report's pictures"):
//!
//! - **Per network family**, one plot per problem, family and model: the checked length of each
//!   algorithm and of the paper's schedule, the strongest lower bound and the certified optimum,
//!   against the family's natural size (n for an n × n mesh, N for a fat-tree, the node count of
//!   a machine). A line joins only instances of one family and one model over two sizes or more,
//!   instances of one size sharing a point only when they agree on every line (the same problem
//!   with another paper's schedule attached); a family whose instances differ at one size (in
//!   their messages or budgets) is a bar chart, one group per instance, and the families with
//!   one instance share one bar chart.
//! - **The gap plot** of each problem: every schedule's length over the certified optimum
//!   (a filled marker) or, where none is certified, over the lower bound (a hollow one), one
//!   column per instance, instances of a family side by side.
//! - **The scale machines** ([`super::scale`]): each registered NCCL-style algorithm's algbw as
//!   a share of the certified optimum, one group per machine.
//!
//! Within a problem each schedule keeps one style ([`crate::svg::style`]) in every plot, and no
//! two legend entries of a plot share colour, marker and dash.

use super::assess::{Assessment, Status};
use super::scale::ScaleTable;
use crate::spec::{Family, Network};
use crate::svg::{self, CategoryChart, CategoryKind, CategorySeries, LineChart, Series, Value};
use std::collections::BTreeMap;

/// A picture of the report: its file name (`plot-…svg`), what it shows (a heading for the HTML
/// page) and the SVG.
#[derive(Debug, Clone)]
pub struct Plot {
    /// The file name.
    pub file: String,
    /// One line saying what it shows.
    pub caption: String,
    /// The picture.
    pub svg: String,
}

/// The network family of a network string as a report groups it: its name (the family's, or
/// the machine's class: a named topology's name before `:`), the title of its natural size and
/// the instance's size on it.
pub fn family_size(network: &str) -> (String, &'static str, f64) {
    let Ok(net) = Network::parse(network) else { return (network.to_string(), "nodes", f64::NAN) };
    let spec = net.spec_string();
    let class = spec.split(':').next().unwrap_or(&spec).to_string();
    match net.family() {
        Family::Mesh(r, c) | Family::Torus(r, c) if r == c => (class, "n (n × n)", *r as f64),
        Family::Mesh(r, c) | Family::Torus(r, c) => (format!("{class} (r × c)"), "nodes", (r * c) as f64),
        Family::Esm(n) => (class, "n (n × n)", *n as f64),
        Family::FatTree(n) => (class, "N (processors)", *n as f64),
        Family::Ula(n) | Family::Path(n) | Family::Ring(n) | Family::URing(n) => {
            (class, "n (nodes)", *n as f64)
        }
        _ => (class, "nodes", net.len() as f64),
    }
}

/// The certified optimum of an assessment, if any: the answer's length when it is optimal.
fn optimum(a: &Assessment) -> Option<u64> {
    a.answer.length.filter(|_| a.answer.status == Status::Optimal)
}

/// The schedules of an assessment: the paper's, then each algorithm's, with checked lengths.
fn schedules(a: &Assessment) -> Vec<(&str, Option<u64>)> {
    let paper = a.paper_schedule.as_ref().map(|p| ("paper schedule", p.length));
    paper.into_iter().chain(a.algorithms.iter().map(|m| (m.method, m.length))).collect()
}

/// The legend labels of the two references, styled [`svg::reference_style`] 0 and 1.
const REFERENCES: [&str; 2] = ["lower bound", "certified optimum"];

/// The value of the line `label` (a reference or a schedule) on an instance.
fn value(a: &Assessment, label: &str) -> Option<u64> {
    match REFERENCES.iter().position(|r| *r == label) {
        Some(0) => a.lower_bound.as_ref().map(|b| b.value),
        Some(_) => optimum(a),
        None => schedules(a).into_iter().find(|(l, _)| *l == label).and_then(|(_, v)| v),
    }
}

/// Every line of a set of instances with its style: the references, then each schedule in the
/// order of `labels` (the problem's).
fn lines<'a>(group: &[&'a Assessment], labels: &[&'a str]) -> Vec<(&'a str, svg::Style)> {
    let present = |l: &&str| group.iter().any(|a| value(a, l).is_some());
    let references = REFERENCES.iter().enumerate().filter(|(_, l)| present(l));
    let references = references.map(|(j, l)| (*l, svg::reference_style(j)));
    let schedules = labels.iter().enumerate().filter(|(_, l)| present(l));
    references.chain(schedules.map(|(k, l)| (*l, svg::style(k)))).collect()
}

/// Every plot of a report: per problem (in name order) its family plots (one per family and
/// model; the families with one instance together in one bar chart), then its gap plot; then
/// one plot per scale table.
pub fn plots(assessments: &[&Assessment], scale: &[ScaleTable]) -> Vec<Plot> {
    let mut by_problem: BTreeMap<String, Vec<&Assessment>> = BTreeMap::new();
    for a in assessments {
        by_problem.entry(a.problem.to_string()).or_default().push(a);
    }
    let mut out = Vec::new();
    for (problem, runs) in by_problem {
        // One style per schedule across the problem's plots, in order of first appearance.
        let mut labels: Vec<&str> = Vec::new();
        for a in &runs {
            for (label, _) in schedules(a) {
                if !labels.contains(&label) {
                    labels.push(label);
                }
            }
        }
        let mut families: BTreeMap<(String, String), Vec<&Assessment>> = BTreeMap::new();
        for a in &runs {
            families.entry((family_size(&a.network).0, a.model.clone())).or_default().push(a);
        }
        let several_models = |family: &str| families.keys().filter(|(f, _)| f == family).count() > 1;
        let (mut order, mut singles) = (Vec::new(), Vec::new());
        for ((family, model), group) in &families {
            let size = |a: &Assessment| family_size(&a.network).2;
            let mut group = group.clone();
            group.sort_by(|a, b| size(a).total_cmp(&size(b)).then_with(|| a.instance.cmp(&b.instance)));
            if group.len() == 1 {
                singles.extend(group);
                continue;
            }
            let name = match several_models(family) {
                true => format!("{family}-{model}"),
                false => family.clone(),
            };
            let file = format!("plot-{problem}-{}.svg", slug(&name));
            let title = format!("{problem} on {family} ({model})");
            let plot = match line_chart(&group, &labels, &title) {
                Some(svg) => Plot {
                    file,
                    caption: format!("{title}: schedule length against {}", family_size(&group[0].network).1),
                    svg,
                },
                None => Plot {
                    file,
                    caption: format!("{title}: schedule length per instance"),
                    svg: bar_chart(&group, &labels, title, |a| a.instance.clone()),
                },
            };
            out.push(plot);
            order.extend(group);
        }
        if !singles.is_empty() {
            let title = format!("{problem}: the families with one instance");
            let svg =
                bar_chart(&singles, &labels, title.clone(), |a| format!("{} ({})", a.instance, a.network));
            let caption = format!("{title}: schedule length per instance");
            out.push(Plot { file: format!("plot-{problem}-one-instance.svg"), caption, svg });
            order.extend(singles);
        }
        out.push(gap_plot(&problem, &order, &labels));
    }
    out.extend(scale.iter().enumerate().map(|(i, t)| super::scale::plot(t, i)));
    out
}

/// A file-name-safe form of a name: lower-case letters, digits and single `-`.
fn slug(name: &str) -> String {
    let s: String =
        name.chars().map(|c| if c.is_ascii_alphanumeric() { c.to_ascii_lowercase() } else { '-' }).collect();
    s.split('-').filter(|p| !p.is_empty()).collect::<Vec<_>>().join("-")
}

/// The line chart of a family's instances (of one model, in size order) over its natural size,
/// when they span two sizes or more and the instances of one size agree on every line (they
/// are the same problem, with different papers' schedules or claims attached): a line through
/// several values at one size would be no line at all. `None` otherwise.
fn line_chart(group: &[&Assessment], labels: &[&str], title: &str) -> Option<String> {
    let (_, axis, _) = family_size(&group[0].network);
    let size = |a: &Assessment| family_size(&a.network).2;
    if group.iter().all(|a| size(a) == size(group[0])) {
        return None;
    }
    let mut series = Vec::new();
    for (label, style) in lines(group, labels) {
        let mut points: Vec<(f64, f64)> = Vec::new();
        for a in group {
            let Some(y) = value(a, label) else { continue };
            match points.last() {
                Some(&(x, v)) if x == size(a) && v != y as f64 => return None,
                Some(&(x, _)) if x == size(a) => {}
                _ => points.push((size(a), y as f64)),
            }
        }
        series.push(Series { label: label.into(), points, style });
    }
    Some(
        LineChart {
            title: format!("{title}: length against size"),
            x_label: axis.into(),
            y_label: "length (steps)".into(),
            series,
        }
        .to_svg(),
    )
}

/// The bar chart of instances, one group per instance (labelled by `name`): a bar per schedule,
/// the lower bound and the certified optimum as levels across the group.
fn bar_chart(
    group: &[&Assessment],
    labels: &[&str],
    title: String,
    name: impl Fn(&Assessment) -> String,
) -> String {
    CategoryChart {
        title,
        y_label: "length (steps)".into(),
        note: Vec::new(),
        categories: group.iter().map(|a| name(a)).collect(),
        series: lines(group, labels)
            .into_iter()
            .map(|(label, style)| CategorySeries {
                label: label.into(),
                values: group
                    .iter()
                    .map(|a| value(a, label).map(|y| Value { y: y as f64, filled: true }))
                    .collect(),
                style,
            })
            .collect(),
        kind: CategoryKind::Bars,
        rule: None,
    }
    .to_svg()
}

/// The gap plot of a problem: per instance (in `order`), each schedule's length over the
/// certified optimum (filled) or the lower bound (hollow).
fn gap_plot(problem: &str, order: &[&Assessment], labels: &[&str]) -> Plot {
    // What an instance's ratios are taken to: the certified optimum, else the lower bound.
    let base = |a: &Assessment| -> Option<(f64, bool)> {
        match optimum(a) {
            Some(o) => Some((o as f64, true)),
            None => {
                a.answer.lower_bound.or(a.lower_bound.as_ref().map(|b| b.value)).map(|b| (b as f64, false))
            }
        }
        .filter(|(b, _)| *b > 0.0)
    };
    let series = labels
        .iter()
        .enumerate()
        .map(|(k, &label)| CategorySeries {
            label: label.into(),
            values: order
                .iter()
                .map(|a| {
                    let (b, certified) = base(a)?;
                    let length = schedules(a).into_iter().find(|(l, _)| *l == label)?.1?;
                    Some(Value { y: length as f64 / b, filled: certified })
                })
                .collect(),
            style: svg::style(k),
        })
        .collect();
    let svg = CategoryChart {
        title: format!("{problem}: how far each schedule is from the optimum"),
        y_label: "length / optimum (filled) or / lower bound (hollow)".into(),
        note: vec![
            "filled: over the certified optimum".into(),
            "hollow: over the lower bound (no optimum".into(),
            "certified; the gap may be smaller)".into(),
        ],
        categories: order.iter().map(|a| a.instance.clone()).collect(),
        series,
        kind: CategoryKind::Dots,
        rule: Some(1.0),
    }
    .to_svg();
    Plot {
        file: format!("gap-{problem}.svg"),
        caption: format!("{problem}: each schedule's length over the certified optimum or the lower bound"),
        svg,
    }
}

#[cfg(test)]
mod tests {
    use super::family_size;

    /// Each family on its natural axis: n for square meshes and tori, N for a fat-tree, nodes
    /// for rectangles (a family of their own) and machines (grouped by class).
    #[test]
    fn a_network_is_grouped_by_its_family_at_its_natural_size() {
        assert_eq!(family_size("mesh:4x4"), ("mesh".into(), "n (n × n)", 4.0));
        assert_eq!(family_size("torus:9x9"), ("torus".into(), "n (n × n)", 9.0));
        assert_eq!(family_size("mesh:3x5"), ("mesh (r × c)".into(), "nodes", 15.0));
        assert_eq!(family_size("fat-tree:32"), ("fat-tree".into(), "N (processors)", 32.0));
        assert_eq!(family_size("path:11"), ("path".into(), "n (nodes)", 11.0));
        assert_eq!(family_size("ula:12"), ("ula".into(), "n (nodes)", 12.0));
        assert_eq!(family_size("dgx1"), ("dgx1".into(), "nodes", 8.0));
        assert_eq!(family_size("hub-and-spoke:6").0, "hub-and-spoke");
    }
}

//! A network as a picture and as a table (`commsched topology`, docs/spec.md §2.4): its nodes on
//! a circle, each link drawn once with its width growing with its bandwidth, a one-way arc (or
//! a link whose two directions differ) drawn as an arrow per direction, and its switch groups
//! listed beneath.

use crate::spec::{Network, Node};
use crate::svg::{Anchor, Svg, colour};
use serde::Serialize;

/// One link as [`links`] groups the arcs: u < v, and the bandwidth of each direction (`None`
/// where that arc is absent).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Link {
    /// The smaller node.
    pub u: Node,
    /// The larger node.
    pub v: Node,
    /// b(u → v).
    pub forward: Option<u64>,
    /// b(v → u).
    pub backward: Option<u64>,
}

/// The arcs grouped into links, ordered by (u, v).
pub fn links(net: &Network) -> Vec<Link> {
    // Each link once, found by its ends: one look-up an arc, not a scan of the links.
    let mut out: std::collections::BTreeMap<(Node, Node), Link> = std::collections::BTreeMap::new();
    for (a, &(x, y)) in net.arcs().iter().enumerate() {
        let (u, v) = (x.min(y), x.max(y));
        let b = Some(net.bandwidth(a));
        let link = out.entry((u, v)).or_insert(Link { u, v, forward: None, backward: None });
        if x == u {
            link.forward = b;
        } else {
            link.backward = b;
        }
    }
    out.into_values().collect()
}

/// The network drawn as SVG (module documentation), titled `title`.
pub fn network_svg(net: &Network, title: &str) -> String {
    let n = net.len().max(1);
    let radius = 60.0 + 14.0 * n as f64;
    let centre = (radius + 60.0, radius + 70.0);
    let switch_lines = net.switches().len();
    let (width, height) = (2.0 * radius + 120.0, 2.0 * radius + 120.0 + 16.0 * switch_lines as f64);
    let at = |v: Node| {
        let angle = std::f64::consts::TAU * v as f64 / n as f64 - std::f64::consts::FRAC_PI_2;
        (centre.0 + radius * angle.cos(), centre.1 + radius * angle.sin())
    };
    let mut svg = Svg::new(width, height);
    svg.text((width / 2.0, 24.0), title, 15.0, Anchor::Middle, false);
    let stroke = |b: u64| 1.0 + 1.5 * (b as f64 - 1.0).min(6.0);
    for link in links(net) {
        let (p, q) = (at(link.u), at(link.v));
        match (link.forward, link.backward) {
            (Some(f), Some(b)) if f == b => {
                svg.line(p, q, "#555555", stroke(f), false);
                if f > 1 {
                    let mid = ((p.0 + q.0) / 2.0, (p.1 + q.1) / 2.0 - 3.0);
                    svg.text(mid, &f.to_string(), 11.0, Anchor::Middle, false);
                }
            }
            (forward, backward) => {
                for (b, from, to, side) in [(forward, p, q, 1.0), (backward, q, p, -1.0)] {
                    if let Some(b) = b {
                        arrow(&mut svg, from, to, side, stroke(b), &b.to_string());
                    }
                }
            }
        }
    }
    for v in 0..net.len() {
        svg.circle(at(v), 13.0, colour(0), Some(&format!("node {v}")));
        let (x, y) = at(v);
        svg.text((x, y + 4.0), &v.to_string(), 12.0, Anchor::Middle, false);
    }
    for (i, sw) in net.switches().iter().enumerate() {
        let y = 2.0 * radius + 120.0 + 16.0 * i as f64 - 8.0;
        let line = format!(
            "switch {}: {:?} → {:?}, bandwidth {}",
            sw.name, sw.sources, sw.destinations, sw.bandwidth
        );
        svg.text((12.0, y), &line, 11.0, Anchor::Start, false);
    }
    svg.finish()
}

/// A one-way arc from `p` to `q`, moved aside by `side` so that the two directions of a link
/// do not overlap, with an arrowhead and its bandwidth.
fn arrow(svg: &mut Svg, p: (f64, f64), q: (f64, f64), side: f64, width: f64, label: &str) {
    let (dx, dy) = (q.0 - p.0, q.1 - p.1);
    let len = (dx * dx + dy * dy).sqrt().max(1.0);
    let (ux, uy) = (dx / len, dy / len);
    let (nx, ny) = (-uy * 4.0 * side, ux * 4.0 * side);
    let from = (p.0 + ux * 15.0 + nx, p.1 + uy * 15.0 + ny);
    let tip = (q.0 - ux * 15.0 + nx, q.1 - uy * 15.0 + ny);
    svg.line(from, tip, "#555555", width, false);
    let back = (tip.0 - ux * 9.0, tip.1 - uy * 9.0);
    let head = [tip, (back.0 - uy * 4.0, back.1 + ux * 4.0), (back.0 + uy * 4.0, back.1 - ux * 4.0)];
    svg.polygon(&head, "#555555", "#555555", None);
    let mid = ((from.0 + tip.0) / 2.0 + nx * 2.0, (from.1 + tip.1) / 2.0 + ny * 2.0);
    svg.text(mid, label, 10.0, Anchor::Middle, false);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn links_pair_the_two_directions() {
        let net = Network::weighted(3, vec![(0, 1, 2), (1, 0, 2), (2, 1, 1)], Vec::new()).unwrap();
        assert_eq!(
            links(&net),
            [
                Link { u: 0, v: 1, forward: Some(2), backward: Some(2) },
                Link { u: 1, v: 2, forward: None, backward: Some(1) }
            ]
        );
        let svg = network_svg(&net, "t");
        assert_eq!(svg.matches("<polygon").count(), 1, "one arrowhead, for the one-way arc");
        assert_eq!(svg.matches("<circle").count(), 3);
    }
}

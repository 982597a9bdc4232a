//! Fabrics: machines at cluster scale for the bandwidth model (docs/spec.md §2.5). A fabric is a
//! directed graph whose nodes are *compute* nodes (GPUs, which hold data) or *switches* (which
//! forward but hold nothing and cannot replicate), and whose links carry a bandwidth in GB/s,
//! exact as a rational, and a latency in µs.
//!
//! Fabrics are read from networkx node-link JSON ([`node_link`]) or built from the named
//! machines of [`machines`] (`ndv2x4`, `rail:128x8`, `torus3d:8x8x8`). Parallel links add their
//! bandwidth; size guards run before anything of the fabric's size is allocated.

pub mod machines;
pub mod node_link;

use crate::error::InputError;
use crate::spec::limits::Resource;
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{Signed, Zero};
use std::collections::HashMap;

/// What a fabric node is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum NodeKind {
    /// A GPU or accelerator: holds a shard, receives every collective's data.
    Compute,
    /// A switch or NIC: forwards, holds nothing, cannot replicate.
    Switch,
}

impl NodeKind {
    /// The name node-link JSON uses (`compute`, `switch`).
    pub fn name(self) -> &'static str {
        match self {
            NodeKind::Compute => "compute",
            NodeKind::Switch => "switch",
        }
    }
}

/// A directed link of a fabric.
#[derive(Debug, Clone, PartialEq)]
pub struct Link {
    /// The sending node.
    pub from: usize,
    /// The receiving node.
    pub to: usize,
    /// GB/s, exact; positive.
    pub bandwidth: BigRational,
    /// µs, non-negative.
    pub latency: f64,
}

/// A machine for the bandwidth model: named nodes of two kinds and directed links.
#[derive(Debug, Clone)]
pub struct Fabric {
    name: String,
    nodes: Vec<(String, NodeKind)>,
    links: Vec<Link>,
    index: HashMap<(usize, usize), usize>,
    structure: Option<Structure>,
}

/// How a named machine was built, for the optimiser's constructions
/// (`crate::bandwidth::construct`); a fabric read from a file has none. Nothing trusts it: a
/// construction's packing is checked and its cut's bound computed like any other.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Structure {
    /// `rail:NxG`: `gpu[i][g]`, the NVSwitch of node i, the switch of rail g.
    Rail {
        /// GPU g of node i.
        gpu: Vec<Vec<usize>>,
        /// Node i's NVSwitch.
        nvswitch: Vec<usize>,
        /// Rail g's switch.
        rail: Vec<usize>,
    },
    /// `torus3d:AxAxA` with one bandwidth: node (x, y, z) is x + A·y + A²·z.
    CubicTorus {
        /// A.
        side: usize,
    },
}

/// Builds a fabric link by link, adding the bandwidths of parallel links.
#[derive(Debug, Default)]
pub struct FabricBuilder {
    nodes: Vec<(String, NodeKind)>,
    links: Vec<Link>,
    index: HashMap<(usize, usize), usize>,
}

impl FabricBuilder {
    /// An empty builder for a fabric of about `nodes` nodes and `links` links, refused by the
    /// size guards (docs/spec.md §5.3) before anything is allocated.
    pub fn with_capacity(nodes: u64, links: u64) -> Result<Self, String> {
        Resource::Nodes.guard(Some(nodes), "the fabric")?;
        Resource::Arcs.guard(Some(links), "the fabric")?;
        let (nodes, links) = (nodes as usize, links as usize);
        Ok(Self {
            nodes: Vec::with_capacity(nodes),
            links: Vec::with_capacity(links),
            index: HashMap::with_capacity(links),
        })
    }

    /// Adds a node; returns its index.
    pub fn node(&mut self, name: impl Into<String>, kind: NodeKind) -> usize {
        self.nodes.push((name.into(), kind));
        self.nodes.len() - 1
    }

    /// Adds a link `from → to`; a parallel link adds its bandwidth and keeps the larger latency.
    /// Errors name the reason (self-link, unknown node, bandwidth not positive).
    pub fn link(
        &mut self,
        from: usize,
        to: usize,
        bandwidth: BigRational,
        latency: f64,
    ) -> Result<(), String> {
        let n = self.nodes.len();
        if from >= n || to >= n {
            return Err(format!("link ({from}, {to}) names a node outside 0..{n}"));
        }
        if from == to {
            return Err(format!("a self-link at node `{}`", self.nodes[from].0));
        }
        if !bandwidth.is_positive() {
            return Err(format!("bandwidth {bandwidth} is not positive"));
        }
        if !(latency.is_finite() && latency >= 0.0) {
            return Err(format!("latency {latency} is not a non-negative number of µs"));
        }
        match self.index.get(&(from, to)) {
            Some(&l) => {
                let link = &mut self.links[l];
                link.bandwidth += bandwidth;
                link.latency = link.latency.max(latency);
            }
            None => {
                self.index.insert((from, to), self.links.len());
                self.links.push(Link { from, to, bandwidth, latency });
            }
        }
        Ok(())
    }

    /// Adds the two links `a → b` and `b → a`.
    pub fn duplex(
        &mut self,
        a: usize,
        b: usize,
        bandwidth: &BigRational,
        latency: f64,
    ) -> Result<(), String> {
        self.link(a, b, bandwidth.clone(), latency)?;
        self.link(b, a, bandwidth.clone(), latency)
    }

    /// The fabric; it needs at least two compute nodes.
    pub fn build(self, name: impl Into<String>) -> Result<Fabric, String> {
        let compute = self.nodes.iter().filter(|n| n.1 == NodeKind::Compute).count();
        if compute < 2 {
            return Err(format!("a fabric needs at least 2 compute nodes, this one has {compute}"));
        }
        Ok(Fabric {
            name: name.into(),
            nodes: self.nodes,
            links: self.links,
            index: self.index,
            structure: None,
        })
    }
}

impl Fabric {
    /// The fabric's name (`ndv2x4`, or the file it was read from).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The number of nodes, compute and switch.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Never true: a fabric has at least two compute nodes.
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// A node's name.
    pub fn node_name(&self, v: usize) -> &str {
        &self.nodes[v].0
    }

    /// A node's kind.
    pub fn kind(&self, v: usize) -> NodeKind {
        self.nodes[v].1
    }

    /// Whether `v` is a compute node.
    pub fn is_compute(&self, v: usize) -> bool {
        self.nodes[v].1 == NodeKind::Compute
    }

    /// The compute nodes, in index order.
    pub fn compute(&self) -> Vec<usize> {
        (0..self.len()).filter(|&v| self.is_compute(v)).collect()
    }

    /// How the machine was built, when a named machine's builder says.
    pub fn structure(&self) -> Option<&Structure> {
        self.structure.as_ref()
    }

    /// The same fabric, said to have this structure.
    pub fn with_structure(mut self, structure: Structure) -> Self {
        self.structure = Some(structure);
        self
    }

    /// Whether every link has a reverse link of the same bandwidth.
    pub fn is_symmetric(&self) -> bool {
        self.links.iter().all(|l| self.link(l.to, l.from).is_some_and(|r| r.bandwidth == l.bandwidth))
    }

    /// The links.
    pub fn links(&self) -> &[Link] {
        &self.links
    }

    /// The link `from → to`, if any.
    pub fn link(&self, from: usize, to: usize) -> Option<&Link> {
        self.link_index(from, to).map(|l| &self.links[l])
    }

    /// The position of the link `from → to` in [`Fabric::links`], if there is one.
    pub fn link_index(&self, from: usize, to: usize) -> Option<usize> {
        self.index.get(&(from, to)).copied()
    }

    /// The node with this name.
    pub fn node_named(&self, name: &str) -> Option<usize> {
        self.nodes.iter().position(|n| n.0 == name)
    }

    /// A map from node names to indices.
    pub fn name_index(&self) -> HashMap<&str, usize> {
        self.nodes.iter().enumerate().map(|(i, n)| (n.0.as_str(), i)).collect()
    }

    /// Every link turned around: where reduce-scatter's in-trees are out-trees (docs/spec.md
    /// §3.2).
    pub fn reversed(&self) -> Fabric {
        let links: Vec<Link> =
            self.links.iter().map(|l| Link { from: l.to, to: l.from, ..l.clone() }).collect();
        let index = links.iter().enumerate().map(|(i, l)| ((l.from, l.to), i)).collect();
        Fabric { name: self.name.clone(), nodes: self.nodes.clone(), links, index, structure: None }
    }

    /// The total bandwidth of the links leaving the node set `inside` (GB/s).
    pub fn bandwidth_leaving(&self, inside: &[bool]) -> BigRational {
        self.links
            .iter()
            .filter(|l| inside[l.from] && !inside[l.to])
            .fold(BigRational::zero(), |sum, l| sum + &l.bandwidth)
    }
}

/// The fabric a `--network` value names: a machine of [`machines`] (`ndv2x4`), a node-link JSON
/// file, an SCCL / msccl-tools topology JSON file, or a network of the collective model (`dgx1`,
/// `ring:8`) whose integer bandwidths read as GB/s. An edge of a node-link file without a
/// bandwidth takes `default_bandwidth` when given. SCCL's switch groups are budgets, not nodes,
/// and have no place here: such a machine is refused with what to write instead.
pub fn load(spec: &str, default_bandwidth: Option<&BigRational>) -> Result<Fabric, InputError> {
    let flag = |reason: String| InputError::new("<flags>", "--network", reason);
    if let Some(fabric) = machines::parse_machine(spec).map_err(flag)? {
        return Ok(fabric);
    }
    let network = if spec.ends_with(".json") {
        let text = std::fs::read_to_string(spec)
            .map_err(|e| InputError::new(spec, "", format!("cannot read: {e}")))?;
        let is_node_link = serde_json::from_str::<serde_json::Value>(&text)
            .map_err(|e| InputError::new(spec, "", format!("not JSON: {e}")))?
            .get("nodes")
            .is_some();
        if is_node_link {
            return node_link::parse_node_link(&text, spec, spec, default_bandwidth);
        }
        crate::spec::topology::parse_topology_json(&text, spec)?
            .network()
            .map_err(|r| InputError::new(spec, "links", r))?
    } else {
        crate::spec::Network::parse(spec)
            .map_err(|r| flag(format!("{r}; or a machine at scale: {}", machines::names())))?
    };
    if let Some(group) = network.switches().first() {
        return Err(InputError::new(
            spec,
            "switches",
            format!(
                "switch group `{}` is a budget of SCCL's model, not a node: describe the switches as nodes of a node-link JSON file for the bandwidth model",
                group.name
            ),
        ));
    }
    let mut b =
        FabricBuilder::with_capacity(network.len() as u64, network.arcs().len() as u64).map_err(flag)?;
    for v in 0..network.len() {
        b.node(v.to_string(), NodeKind::Compute);
    }
    for (a, &(u, v)) in network.arcs().iter().enumerate() {
        b.link(u, v, BigRational::from_integer(network.bandwidth(a).into()), 0.0).map_err(flag)?;
    }
    b.build(network.spec_string()).map_err(|r| InputError::new(spec, "", r))
}

/// Reads a bandwidth or latency written as a decimal (`12.5`, `1e3`) into an exact rational:
/// the decimal as written, not the nearest binary float (`0.1` is 1/10).
pub fn decimal(text: &str) -> Option<BigRational> {
    let text = text.trim();
    let (mantissa, exponent) = match text.find(['e', 'E']) {
        Some(i) => (&text[..i], text[i + 1..].parse::<i32>().ok()?),
        None => (text, 0),
    };
    let (negative, digits) = match mantissa.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, mantissa.strip_prefix('+').unwrap_or(mantissa)),
    };
    let (int, frac) = digits.split_once('.').unwrap_or((digits, ""));
    if int.is_empty() && frac.is_empty() || !(int.chars().chain(frac.chars()).all(|c| c.is_ascii_digit())) {
        return None;
    }
    if exponent.unsigned_abs() > 60 || int.len() + frac.len() > 60 {
        return None;
    }
    let numerator: BigInt = format!("{int}{frac}").parse().ok()?;
    let scale = exponent - frac.len() as i32;
    let ten = BigInt::from(10);
    let value = if scale >= 0 {
        BigRational::from_integer(numerator * num_traits::pow(ten, scale as usize))
    } else {
        BigRational::new(numerator, num_traits::pow(ten, (-scale) as usize))
    };
    Some(if negative { -value } else { value })
}

/// A rational written as `p/q`, or `p` when it is whole (the form certificates use).
pub fn ratio_text(r: &BigRational) -> String {
    if r.is_integer() { r.numer().to_string() } else { format!("{}/{}", r.numer(), r.denom()) }
}

/// Reads `p/q` or `p` (or a decimal) into a rational.
pub fn parse_ratio(text: &str) -> Option<BigRational> {
    match text.split_once('/') {
        Some((p, q)) => {
            let (p, q): (BigInt, BigInt) = (p.trim().parse().ok()?, q.trim().parse().ok()?);
            (!q.is_zero()).then(|| BigRational::new(p, q))
        }
        None => decimal(text),
    }
}

/// A rational as a float, for display (`algbw`).
pub fn to_f64(r: &BigRational) -> f64 {
    use num_traits::ToPrimitive;
    r.to_f64().unwrap_or(f64::NAN)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn q(p: i64, q: i64) -> BigRational {
        BigRational::new(p.into(), q.into())
    }

    #[test]
    fn decimals_are_read_exactly() {
        assert_eq!(decimal("12.5"), Some(q(25, 2)));
        assert_eq!(decimal("0.1"), Some(q(1, 10)));
        assert_eq!(decimal("1e3"), Some(q(1000, 1)));
        assert_eq!(decimal("2.5E-1"), Some(q(1, 4)));
        assert_eq!(decimal("-3"), Some(q(-3, 1)));
        for bad in ["", ".", "1.2.3", "abc", "1e", "1e999", "NaN"] {
            assert_eq!(decimal(bad), None, "{bad}");
        }
        assert_eq!(parse_ratio("24/25"), Some(q(24, 25)));
        assert_eq!(parse_ratio("1/0"), None);
        assert_eq!(ratio_text(&q(48, 2)), "24");
        assert_eq!(ratio_text(&q(24, 25)), "24/25");
    }

    #[test]
    fn parallel_links_add_their_bandwidth() {
        let mut b = FabricBuilder::default();
        let (x, y) = (b.node("x", NodeKind::Compute), b.node("y", NodeKind::Compute));
        b.link(x, y, q(1, 2), 1.0).unwrap();
        b.link(x, y, q(3, 2), 2.0).unwrap();
        assert!(b.link(x, x, q(1, 1), 0.0).unwrap_err().contains("self-link"));
        assert!(b.link(x, y, q(0, 1), 0.0).unwrap_err().contains("not positive"));
        let f = b.build("t").unwrap();
        assert_eq!(f.links().len(), 1);
        assert_eq!(f.link(x, y).unwrap().bandwidth, q(2, 1));
        assert_eq!(f.link(x, y).unwrap().latency, 2.0);
        assert_eq!(f.reversed().link(y, x).unwrap().bandwidth, q(2, 1));
    }
}

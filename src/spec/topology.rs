//! Networks with link bandwidths and switch groups, as the collective-synthesis tools describe
//! machines (docs/spec.md §2.4): SCCL's bandwidth matrix `links[dst][src]`, its serialised
//! topology JSON, and a registry of the named machines it ships.
//!
//! The named topologies follow msccl-tools (`msccl/topologies/{generic,nvidia,amd}.py`, MIT
//! licence): `fully-connected:N`, `star:N` (centre 0, non-blocking), `hub-and-spoke:N` (fully
//! connected, plus one switch per node for what it sends and one for what it receives),
//! `dgx1` (NVLink matrix with bandwidths 1 and 2), `dgx2` (`HubAndSpoke(16)`, as SCCL's CLI
//! builds it), `dgx-a100` (8 GPUs, 12 between every pair), `amd4` and `amd8`. SCCL's `Ring(n)`
//! and `Line(n)` are the families `ring:N` and `path:N` (both directions, bandwidth 1).
//! Adding a machine is one line in [`TOPOLOGIES`].

use super::network::{Network, Node, Switch};
use crate::error::InputError;
use serde::Deserialize;

/// SCCL's description of a machine: the arcs of its bandwidth matrix `links[dst][src]` (0: no
/// link), held sparse so that a large family is never a dense matrix, plus switch groups.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Topology {
    /// SCCL's name (`DGX1`, `HubAndSpoke(n=16)`).
    pub name: String,
    /// The node count (the matrix's side).
    pub nodes: usize,
    /// Every arc `(src, dst, bandwidth)` with a non-zero entry, ordered by source, then
    /// destination.
    pub arcs: Vec<(Node, Node, u64)>,
    /// Switch groups.
    pub switches: Vec<Switch>,
}

impl Topology {
    /// A machine given as SCCL writes it, `links[dst][src]`.
    fn from_matrix(name: &str, links: &[Vec<u64>]) -> Self {
        let n = links.len();
        let arcs = (0..n)
            .flat_map(|src| (0..n).map(move |dst| (src, dst)))
            .filter(|&(src, dst)| links[dst][src] > 0)
            .map(|(src, dst)| (src, dst, links[dst][src]))
            .collect();
        Topology { name: name.into(), nodes: n, arcs, switches: Vec::new() }
    }

    /// The network: an arc `src → dst` of bandwidth `links[dst][src]` for every non-zero entry
    /// (arcs ordered by source, then destination), and the switch groups.
    pub fn network(&self) -> Result<Network, String> {
        Network::weighted(self.nodes, self.arcs.clone(), self.switches.clone())
    }
}

/// One machine or family of the registry.
pub struct NamedTopology {
    /// The name in network strings (`dgx1`; `star` for `star:N`).
    pub name: &'static str,
    /// Whether the string takes a size (`star:5`).
    pub sized: bool,
    /// Where the definition comes from.
    pub source: &'static str,
    /// The topology, given the size (ignored when not sized).
    pub build: fn(usize) -> Topology,
    /// Its arcs plus the members of its switch groups given the size (docs/spec.md §5.3),
    /// counted before it is built; None beyond u64.
    pub size: fn(u64) -> Option<u64>,
    /// Its diameter given the size, when a closed form gives it (None: computed).
    pub diameter: fn(usize) -> Option<usize>,
}

/// The arcs of `fully-connected:n`: n(n−1).
fn complete_arcs(n: u64) -> Option<u64> {
    n.checked_mul(n.saturating_sub(1))
}

/// A fixed machine: its few arcs are checked when it is built.
fn fixed(_: u64) -> Option<u64> {
    Some(0)
}

/// No closed form: the diameter is computed.
fn computed(_: usize) -> Option<usize> {
    None
}

/// The named topologies, in the order `topology --list` prints them.
pub const TOPOLOGIES: &[NamedTopology] = &[
    NamedTopology {
        name: "fully-connected",
        sized: true,
        source: "msccl-tools topologies/generic.py fully_connected",
        build: fully_connected,
        size: complete_arcs,
        diameter: |_| Some(1),
    },
    NamedTopology {
        name: "star",
        sized: true,
        source: "msccl-tools topologies/generic.py star",
        build: star,
        size: |n| n.saturating_sub(1).checked_mul(2),
        diameter: |n| Some(if n > 2 { 2 } else { 1 }),
    },
    NamedTopology {
        name: "hub-and-spoke",
        sized: true,
        source: "msccl-tools topologies/generic.py hub_and_spoke",
        build: hub_and_spoke,
        // n(n−1) arcs and 2n switch groups of n members each.
        size: |n| complete_arcs(n).and_then(|a| n.checked_mul(n)?.checked_mul(2)?.checked_add(a)),
        diameter: |_| Some(1),
    },
    NamedTopology {
        name: "dgx1",
        sized: false,
        source: "msccl-tools topologies/nvidia.py dgx1",
        build: dgx1,
        size: fixed,
        diameter: computed,
    },
    NamedTopology {
        name: "dgx2",
        sized: false,
        source: "msccl-tools cli/known_topologies.py: DGX2 = HubAndSpoke(16)",
        build: |_| hub_and_spoke(16),
        size: fixed,
        diameter: computed,
    },
    NamedTopology {
        name: "dgx-a100",
        sized: false,
        source: "msccl-tools topologies/nvidia.py dgx_a100",
        build: dgx_a100,
        size: fixed,
        diameter: computed,
    },
    NamedTopology {
        name: "amd4",
        sized: false,
        source: "msccl-tools topologies/amd.py amd4",
        build: amd4,
        size: fixed,
        diameter: computed,
    },
    NamedTopology {
        name: "amd8",
        sized: false,
        source: "msccl-tools topologies/amd.py amd8",
        build: amd8,
        size: fixed,
        diameter: computed,
    },
];

/// The registry's names as a listing (`fully-connected:N, star:N, …, amd8`).
pub fn names() -> String {
    let names: Vec<String> = TOPOLOGIES
        .iter()
        .map(|t| if t.sized { format!("{}:N", t.name) } else { t.name.to_string() })
        .collect();
    names.join(", ")
}

/// The network a registry string names, `Ok(None)` when the string names no registry entry
/// (then it is a family string), or the reason the size is wrong.
pub fn parse_named(s: &str) -> Result<Option<Network>, String> {
    let (name, size) = match s.split_once(':') {
        Some((name, size)) => (name, Some(size)),
        None => (s, None),
    };
    let Some(entry) = TOPOLOGIES.iter().find(|t| t.name == name) else { return Ok(None) };
    let n = match (entry.sized, size) {
        (true, Some(size)) => {
            let n =
                size.trim().parse::<usize>().map_err(|_| format!("`{size}` is not a node count in `{s}`"))?;
            if n < 2 {
                return Err(format!("`{s}` needs at least 2 nodes"));
            }
            let what = format!("`{s}`");
            super::limits::Resource::Nodes.guard(Some(n as u64), &what)?;
            super::limits::Resource::Arcs.guard((entry.size)(n as u64), &what)?;
            n
        }
        (true, None) => return Err(format!("`{name}` needs a node count, e.g. `{name}:8`")),
        (false, Some(_)) => return Err(format!("`{name}` is a fixed machine and takes no size")),
        (false, None) => 0,
    };
    let net = (entry.build)(n).network()?;
    Ok(Some(net.named(s.to_string()).with_diameter((entry.diameter)(n))))
}

fn fully_connected(n: usize) -> Topology {
    let arcs = (0..n).flat_map(|s| (0..n).filter(move |&d| d != s).map(move |d| (s, d, 1))).collect();
    Topology { name: format!("FullyConnected(n={n})"), nodes: n, arcs, switches: Vec::new() }
}

fn star(n: usize) -> Topology {
    // Ordered by source: the centre's arcs out, then each leaf's arc in.
    let arcs = (1..n).map(|d| (0, d, 1)).chain((1..n).map(|s| (s, 0, 1))).collect();
    Topology { name: format!("Star(n={n})"), nodes: n, arcs, switches: Vec::new() }
}

fn hub_and_spoke(n: usize) -> Topology {
    let mut topo = fully_connected(n);
    topo.name = format!("HubAndSpoke(n={n})");
    for v in 0..n {
        let others: Vec<Node> = (0..n).filter(|&o| o != v).collect();
        topo.switches.push(Switch {
            sources: vec![v],
            destinations: others.clone(),
            bandwidth: 1,
            name: format!("node_{v}_out"),
        });
        topo.switches.push(Switch {
            sources: others,
            destinations: vec![v],
            bandwidth: 1,
            name: format!("node_{v}_in"),
        });
    }
    topo
}

fn matrix(name: &str, rows: &[[u64; 8]]) -> Topology {
    Topology::from_matrix(name, &rows.iter().map(|r| r.to_vec()).collect::<Vec<_>>())
}

/// The DGX-1 hybrid cube-mesh (msccl-tools `nvidia.py`, also NDv2's chassis in TE-CCL's
/// `ndv2.py`): NVLink lanes between each pair of GPUs, symmetric, 2 on the double links.
pub const DGX1_LANES: [[u64; 8]; 8] = [
    [0, 2, 1, 1, 2, 0, 0, 0],
    [2, 0, 1, 2, 0, 1, 0, 0],
    [1, 1, 0, 2, 0, 0, 2, 0],
    [1, 2, 2, 0, 0, 0, 0, 1],
    [2, 0, 0, 0, 0, 2, 1, 1],
    [0, 1, 0, 0, 2, 0, 1, 2],
    [0, 0, 2, 0, 1, 1, 0, 2],
    [0, 0, 0, 1, 1, 2, 2, 0],
];

/// (0 1 2 3) and (4 5 6 7) are the two sockets; 0 1 3 2 and 4 5 7 6 the double-bandwidth
/// chains, 0–4 and 2–6 the double-bandwidth links between sockets.
fn dgx1(_: usize) -> Topology {
    matrix("DGX1", &DGX1_LANES)
}

fn dgx_a100(_: usize) -> Topology {
    let mut topo = fully_connected(8);
    topo.name = "DGX_A100".into();
    for arc in &mut topo.arcs {
        arc.2 *= 12;
    }
    topo
}

fn amd4(_: usize) -> Topology {
    let links = [vec![0, 1, 1, 0], vec![1, 0, 0, 1], vec![1, 0, 0, 1], vec![0, 1, 1, 0]];
    Topology::from_matrix("AMD4", &links)
}

fn amd8(_: usize) -> Topology {
    matrix(
        "AMD8",
        &[
            [0, 5, 6, 6, 5, 6, 5, 5],
            [5, 0, 5, 5, 6, 5, 6, 6],
            [6, 5, 0, 6, 5, 6, 5, 5],
            [6, 5, 6, 0, 5, 6, 5, 5],
            [5, 6, 5, 5, 0, 5, 6, 6],
            [6, 5, 6, 6, 5, 0, 5, 5],
            [5, 6, 5, 5, 6, 5, 0, 6],
            [5, 6, 5, 5, 6, 5, 6, 0],
        ],
    )
}

/// SCCL's serialised topology: `{"sccl_type" | "msccl_type": "topology", "name", "links",
/// "switches": [[sources, destinations, bandwidth, name], …]}`.
#[derive(Deserialize)]
struct TopologyFile {
    msccl_type: Option<String>,
    sccl_type: Option<String>,
    name: Option<String>,
    links: Vec<Vec<i64>>,
    #[serde(default)]
    switches: Vec<(Vec<i64>, Vec<i64>, i64, String)>,
}

/// Reads an SCCL / msccl-tools topology JSON as it is written (`links[dst][src]`). Errors name
/// the file, the field (`links[2][5]`, `switches[1]`) and the reason.
pub fn parse_topology_json(text: &str, file: &str) -> Result<Topology, InputError> {
    let err = |field: &str, reason: String| InputError::new(file, field, reason);
    let raw: TopologyFile = serde_json::from_str(text).map_err(|e| err("", e.to_string()))?;
    match raw.msccl_type.as_deref().or(raw.sccl_type.as_deref()) {
        Some("topology") => {}
        Some(other) => return Err(err("msccl_type", format!("`{other}` is not a topology"))),
        None => {
            return Err(err("msccl_type", "neither `msccl_type` nor `sccl_type` says \"topology\"".into()));
        }
    }
    let n = raw.links.len();
    if n < 2 {
        return Err(err("links", one_node(n)));
    }
    super::limits::Resource::Nodes.guard(Some(n as u64), "the matrix").map_err(|r| err("links", r))?;
    let node = |field: String, v: i64| -> Result<Node, InputError> {
        usize::try_from(v)
            .ok()
            .filter(|&v| v < n)
            .ok_or_else(|| err(&field, format!("node {v} is unknown: the matrix has nodes 0..{}", n - 1)))
    };
    let mut links = Vec::with_capacity(n);
    for (dst, row) in raw.links.iter().enumerate() {
        if row.len() != n {
            return Err(err(
                &format!("links[{dst}]"),
                format!("has {} entries: the matrix must be square ({n} x {n})", row.len()),
            ));
        }
        let mut out = Vec::with_capacity(n);
        for (src, &b) in row.iter().enumerate() {
            let field = format!("links[{dst}][{src}]");
            if b < 0 {
                return Err(err(&field, format!("bandwidth {b} is negative")));
            }
            if b > 0 && src == dst {
                return Err(err(&field, format!("a self-link of bandwidth {b} from node {src} to itself")));
            }
            out.push(b as u64);
        }
        links.push(out);
    }
    let mut switches = Vec::with_capacity(raw.switches.len());
    for (i, (sources, destinations, bandwidth, name)) in raw.switches.iter().enumerate() {
        let field = format!("switches[{i}]");
        if *bandwidth <= 0 {
            return Err(err(
                &field,
                format!("switch `{name}` has bandwidth {bandwidth}: it must be at least 1"),
            ));
        }
        let nodes =
            |list: &[i64]| list.iter().map(|&v| node(field.clone(), v)).collect::<Result<Vec<_>, _>>();
        switches.push(Switch {
            sources: nodes(sources)?,
            destinations: nodes(destinations)?,
            bandwidth: *bandwidth as u64,
            name: name.clone(),
        });
    }
    let mut topo = Topology::from_matrix(&raw.name.unwrap_or_default(), &links);
    topo.switches = switches;
    topo.network().map_err(|r| err("links", r))?;
    Ok(topo)
}

/// Why a network of `n` < 2 nodes is refused (docs/spec.md §2.4), as `fully-connected:1` is:
/// a collective on one rank has nothing to send, and its lower bound of one step contradicts
/// the empty schedule that meets it.
pub fn one_node(n: usize) -> String {
    format!(
        "the network has {n} node{}: it needs at least 2, as `fully-connected:1` does",
        if n == 1 { "" } else { "s" }
    )
}

/// Reads a topology JSON file into its network.
pub fn load_topology(path: &std::path::Path) -> Result<Network, InputError> {
    let file = path.display().to_string();
    let text =
        std::fs::read_to_string(path).map_err(|e| InputError::new(&file, "", format!("cannot read: {e}")))?;
    parse_topology_json(&text, &file)?.network().map_err(|r| InputError::new(&file, "links", r))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_registry_builds_every_machine_with_its_public_bandwidths() {
        let dgx1 = Network::parse("dgx1").unwrap();
        assert_eq!(dgx1.len(), 8);
        // Four links per GPU (16 in all, 32 arcs), two of them doubled (8 links, 16 arcs).
        assert_eq!(dgx1.arcs().len(), 32);
        let double = (0..dgx1.arcs().len()).filter(|&a| dgx1.bandwidth(a) == 2).count();
        assert_eq!(double, 16);
        assert_eq!(dgx1.bandwidth(dgx1.arc(0, 1).unwrap()), 2);
        assert_eq!(dgx1.bandwidth(dgx1.arc(0, 2).unwrap()), 1);
        assert_eq!(dgx1.spec_string(), "dgx1");
        assert_eq!(dgx1.diameter(), (2, true));
        let hub = Network::parse("hub-and-spoke:6").unwrap();
        assert_eq!((hub.arcs().len(), hub.switches().len()), (30, 12));
        assert_eq!(Network::parse("dgx2").unwrap().switches().len(), 32);
        assert_eq!(Network::parse("dgx-a100").unwrap().bandwidth(0), 12);
        assert_eq!(Network::parse("star:5").unwrap().arcs().len(), 8);
        assert_eq!(Network::parse("amd8").unwrap().bandwidth(0), 5);
        assert_eq!(Network::parse("amd4").unwrap().diameter(), (2, true));
    }

    #[test]
    fn registry_strings_refuse_wrong_sizes() {
        assert!(Network::parse("star").unwrap_err().contains("needs a node count"));
        assert!(Network::parse("dgx1:8").unwrap_err().contains("takes no size"));
        assert!(Network::parse("fully-connected:1").unwrap_err().contains("at least 2"));
    }

    #[test]
    fn topology_json_is_read_as_links_dst_src() {
        let text =
            r#"{"msccl_type": "topology", "name": "one-way", "links": [[0, 0], [3, 0]], "switches": []}"#;
        let net = parse_topology_json(text, "t.json").unwrap().network().unwrap();
        assert_eq!(net.arcs(), &[(0, 1)]);
        assert_eq!(net.bandwidth(0), 3);
        let bad = |text: &str| parse_topology_json(text, "t.json").unwrap_err().to_string();
        assert!(bad(r#"{"sccl_type": "topology", "links": [[0, 1], [1]]}"#).contains("links[1]"));
        assert!(bad(r#"{"sccl_type": "topology", "links": [[0, -1], [1, 0]]}"#).contains("negative"));
        assert!(bad(r#"{"sccl_type": "topology", "links": [[1, 1], [1, 0]]}"#).contains("self-link"));
        assert!(
            bad(r#"{"sccl_type": "topology", "links": [[0, 1], [1, 0]], "switches": [[[0], [5], 1, "s"]]}"#)
                .contains("switches[0]")
        );
        assert!(bad(r#"{"msccl_type": "algorithm", "links": [[0]]}"#).contains("not a topology"));
    }
}

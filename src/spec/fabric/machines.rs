//! The named machines of the bandwidth model (docs/spec.md §2.5), each with the parameters of its
//! public definition (docs/guide.md, "Machines at scale", cites them):
//!
//! - `ndv2xK`: K Azure NDv2 chassis (TE-CCL `teccl/topologies/ndv2.py`): 8 V100 in the DGX-1
//!   hybrid cube-mesh, NVLink 50 GB/s (double links) and 25 GB/s, α 0.7 µs; with K ≥ 2 one
//!   InfiniBand switch, GPU 0 of every chassis sending to it and GPU 1 receiving from it at
//!   12.5 GB/s, α 1.3 µs. TE-CCL uses index 0 as the switch; here the switch is a node of its own.
//! - `dgx2xK`: K DGX-2 boxes (TE-CCL `dgx2.py`): 16 V100 each with 125 GB/s to and from the box's
//!   NVSwitch (α 0.35 µs); for every ordered pair of boxes, the 8 odd GPUs of one send to the
//!   even GPU below them in the other at 12.5 GB/s (α 2.6 µs).
//! - `a100xK`: K boxes of 8 A100 (ForestColl `topologies.py`, `a100_topology`): an NVSwitch at
//!   300 GB/s each way per GPU; with K ≥ 2 a NIC per GPU (25 GB/s each way), the even NICs on one
//!   InfiniBand switch and the odd on another (25 GB/s each way). No latency given.
//! - `mi250xK`: K boxes of 16 MI250 GCDs (ForestColl `mi250_topology`): the xGMI adjacency × 50
//!   GB/s each way; with K ≥ 2 one InfiniBand switch at 16 GB/s each way per GCD. No latency.
//! - `torus3d:AxBxC` and `mesh2d:AxB` (TACOS `Torus3D`, `Mesh2D`, `Mesh2D_Hetero`): 50 GB/s and
//!   0.5 µs per link and direction, or per-dimension bandwidths after a colon
//!   (`mesh2d:4x4:100,50`) and a latency in µs after another (`mesh2d:10x10:100,100:1`, or
//!   `mesh2d:10x10::1` with the default bandwidths); a torus dimension of 2 has one link each
//!   way, not two.
//! - `rail:NxG`: N nodes of G GPUs, rail-optimised as in NVIDIA's DGX H100 SuperPOD: an NVSwitch
//!   per node at 450 GB/s each way per GPU (NVLink 4, 900 GB/s bidirectional), and GPU g of every
//!   node on rail switch g through its own 400 Gb/s NIC (50 GB/s each way). No latency.

use super::{Fabric, FabricBuilder, NodeKind, Structure, decimal};
use crate::spec::topology::DGX1_LANES;
use num_rational::BigRational;

/// One machine family of the registry.
pub struct NamedMachine {
    /// The name before the size (`ndv2x` in `ndv2x4`, `torus3d` in `torus3d:8x8x8`).
    pub name: &'static str,
    /// How the size is written.
    pub form: &'static str,
    /// Where the definition comes from.
    pub source: &'static str,
    /// The fabric for the text after the name; errors say what is wrong with the size.
    build: fn(&str) -> Result<Fabric, String>,
}

/// The named machines, in the order `topology --list` prints them.
pub const MACHINES: &[NamedMachine] = &[
    NamedMachine { name: "ndv2x", form: "ndv2xK", source: "TE-CCL teccl/topologies/ndv2.py", build: ndv2 },
    NamedMachine { name: "dgx2x", form: "dgx2xK", source: "TE-CCL teccl/topologies/dgx2.py", build: dgx2 },
    NamedMachine {
        name: "a100x",
        form: "a100xK",
        source: "ForestColl topologies.py a100_topology",
        build: a100,
    },
    NamedMachine {
        name: "mi250x",
        form: "mi250xK",
        source: "ForestColl topologies.py mi250_topology",
        build: mi250,
    },
    NamedMachine {
        name: "torus3d:",
        form: "torus3d:AxBxC[:bx,by,bz[:latency]]",
        source: "TACOS src/topology/torus_3d.cpp",
        build: torus3d,
    },
    NamedMachine {
        name: "mesh2d:",
        form: "mesh2d:AxB[:bx,by[:latency]]",
        source: "TACOS src/topology/mesh_2d.cpp, mesh_2d_hetero.cpp",
        build: mesh2d,
    },
    NamedMachine {
        name: "rail:",
        form: "rail:NxG",
        source: "NVIDIA DGX H100 user guide (NVLink 4, ConnectX-7 400 Gb/s), rail-optimised",
        build: rail,
    },
];

/// The fabric a machine string names, `Ok(None)` when the string names no machine.
pub fn parse_machine(s: &str) -> Result<Option<Fabric>, String> {
    let Some(m) = MACHINES.iter().find(|m| s.starts_with(m.name) && s.len() > m.name.len()) else {
        return Ok(None);
    };
    (m.build)(&s[m.name.len()..]).map(|f| Some(f.renamed(s))).map_err(|e| format!("`{s}` ({}): {e}", m.form))
}

/// The registry's forms as a listing.
pub fn names() -> String {
    MACHINES.iter().map(|m| m.form).collect::<Vec<_>>().join(", ")
}

impl Fabric {
    fn renamed(mut self, name: &str) -> Self {
        self.name = name.to_string();
        self
    }
}

fn gbs(text: &str) -> BigRational {
    decimal(text).expect("a registry bandwidth is a decimal")
}

/// A count `1 ≤ k ≤ max`.
fn count(text: &str, what: &str, max: u64) -> Result<u64, String> {
    let k: u64 = text.trim().parse().map_err(|_| format!("`{text}` is not a {what}"))?;
    if k == 0 || k > max {
        return Err(format!("{what} {k} is outside 1..={max}"));
    }
    Ok(k)
}

/// `K` boxes of a machine: the builder sized for `per_box` nodes and `links_per_box` links each.
fn boxes(text: &str, per_box: u64, links_per_box: u64) -> Result<(usize, FabricBuilder), String> {
    let k = count(text, "box count", 1 << 20)?;
    let b = FabricBuilder::with_capacity(
        k * per_box + 2,
        k.saturating_mul(links_per_box).saturating_add(k * k * 8),
    )?;
    Ok((k as usize, b))
}

/// Adds `k` boxes of `gpus` compute nodes named `n{i}.gpu{g}`; returns their indices.
fn gpus(b: &mut FabricBuilder, k: usize, gpus: usize) -> Vec<Vec<usize>> {
    (0..k).map(|i| (0..gpus).map(|g| b.node(format!("n{i}.gpu{g}"), NodeKind::Compute)).collect()).collect()
}

fn ndv2(size: &str) -> Result<Fabric, String> {
    let (k, mut b) = boxes(size, 8, 40)?;
    let boxes = gpus(&mut b, k, 8);
    let (fast, slow, ib) = (gbs("50"), gbs("25"), gbs("12.5"));
    for g in &boxes {
        for (x, row) in DGX1_LANES.iter().enumerate() {
            for (y, &lanes) in row.iter().enumerate() {
                if lanes > 0 {
                    b.link(g[x], g[y], if lanes == 2 { fast.clone() } else { slow.clone() }, 0.7)?;
                }
            }
        }
    }
    if k > 1 {
        let switch = b.node("ib", NodeKind::Switch);
        for g in &boxes {
            b.link(g[0], switch, ib.clone(), 1.3)?;
            b.link(switch, g[1], ib.clone(), 1.3)?;
        }
    }
    b.build("ndv2")
}

fn dgx2(size: &str) -> Result<Fabric, String> {
    let (k, mut b) = boxes(size, 17, 32)?;
    let boxes = gpus(&mut b, k, 16);
    let (nvswitch, ib) = (gbs("125"), gbs("12.5"));
    for (i, g) in boxes.iter().enumerate() {
        let switch = b.node(format!("n{i}.nvswitch"), NodeKind::Switch);
        for &gpu in g {
            b.duplex(gpu, switch, &nvswitch, 0.35)?;
        }
    }
    for (i, from) in boxes.iter().enumerate() {
        for (j, to) in boxes.iter().enumerate() {
            if i != j {
                for odd in (1..16).step_by(2) {
                    b.link(from[odd], to[odd - 1], ib.clone(), 2.6)?;
                }
            }
        }
    }
    b.build("dgx2")
}

fn a100(size: &str) -> Result<Fabric, String> {
    let (k, mut b) = boxes(size, 17, 48)?;
    let boxes = gpus(&mut b, k, 8);
    let (nvlink, nic) = (gbs("300"), gbs("25"));
    let ib = if k > 1 {
        [b.node("ib0", NodeKind::Switch), b.node("ib1", NodeKind::Switch)].to_vec()
    } else {
        vec![]
    };
    for (i, g) in boxes.iter().enumerate() {
        let switch = b.node(format!("n{i}.nvswitch"), NodeKind::Switch);
        for (gpu_index, &gpu) in g.iter().enumerate() {
            b.duplex(gpu, switch, &nvlink, 0.0)?;
            if k > 1 {
                let card = b.node(format!("n{i}.nic{gpu_index}"), NodeKind::Switch);
                b.duplex(gpu, card, &nic, 0.0)?;
                b.duplex(card, ib[gpu_index % 2], &nic, 0.0)?;
            }
        }
    }
    b.build("a100")
}

const MI250_XGMI: [[u8; 16]; 16] = [
    [0, 4, 0, 0, 2, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0],
    [4, 0, 0, 0, 0, 1, 0, 0, 0, 1, 1, 0, 0, 0, 0, 0],
    [0, 0, 0, 4, 0, 0, 1, 0, 0, 1, 1, 0, 0, 0, 0, 0],
    [0, 0, 4, 0, 0, 0, 0, 2, 0, 0, 0, 1, 0, 0, 0, 0],
    [2, 0, 0, 0, 0, 4, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 1, 0, 0, 4, 0, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 1, 0, 1, 1, 0, 4, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 2, 0, 1, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0],
    [1, 0, 0, 0, 0, 0, 0, 0, 0, 4, 0, 0, 2, 0, 0, 0],
    [0, 1, 1, 0, 0, 0, 0, 0, 4, 0, 0, 0, 0, 1, 0, 0],
    [0, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 4, 0, 0, 1, 0],
    [0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 4, 0, 0, 0, 0, 2],
    [0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 4, 1, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 4, 0, 1, 1],
    [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 1, 1, 0, 4],
    [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 1, 4, 0],
];

fn mi250(size: &str) -> Result<Fabric, String> {
    let (k, mut b) = boxes(size, 16, 96)?;
    let boxes = gpus(&mut b, k, 16);
    let ib = (k > 1).then(|| b.node("ib", NodeKind::Switch));
    for g in &boxes {
        for (x, row) in MI250_XGMI.iter().enumerate() {
            for (y, &width) in row.iter().enumerate() {
                if width > 0 {
                    b.link(g[x], g[y], gbs("50") * BigRational::from_integer(width.into()), 0.0)?;
                }
            }
            if let Some(ib) = ib {
                b.duplex(g[x], ib, &gbs("16"), 0.0)?;
            }
        }
    }
    b.build("mi250")
}

/// `AxB…[:b1,b2…[:α]]`: the dimensions, one bandwidth per dimension (default 50 GB/s; an empty
/// list is the default) and the links' latency in µs (default TACOS's 0.5).
fn grid_size(text: &str, dims: usize) -> Result<(Vec<usize>, Vec<BigRational>, f64), String> {
    let mut parts = text.splitn(3, ':');
    let sizes = parts.next().unwrap_or_default();
    let bandwidths = parts.next().filter(|b| !b.is_empty());
    let latency = match parts.next() {
        None => 0.5,
        Some(t) => t
            .trim()
            .parse::<f64>()
            .ok()
            .filter(|a| a.is_finite() && *a >= 0.0)
            .ok_or(format!("`{t}` is not a latency in µs (a non-negative number)"))?,
    };
    let sizes = sizes
        .split('x')
        .map(|d| count(d, "dimension", 1 << 20).map(|d| d as usize))
        .collect::<Result<Vec<_>, _>>()?;
    if sizes.len() != dims {
        return Err(format!("{} dimensions given, {dims} expected", sizes.len()));
    }
    let bandwidths = match bandwidths {
        None => vec![gbs("50"); dims],
        Some(list) => {
            let b = list
                .split(',')
                .map(|t| {
                    decimal(t)
                        .filter(|b| b > &BigRational::from_integer(0.into()))
                        .ok_or(format!("`{t}` is not a positive bandwidth in GB/s"))
                })
                .collect::<Result<Vec<_>, _>>()?;
            if b.len() != dims {
                return Err(format!("{} bandwidths given, one per dimension ({dims}) expected", b.len()));
            }
            b
        }
    };
    Ok((sizes, bandwidths, latency))
}

/// A grid of the given dimensions, with or without wrap-around; node `x.y[.z]`.
fn grid(text: &str, dims: usize, wrap: bool) -> Result<Fabric, String> {
    let (sizes, bandwidths, latency) = grid_size(text, dims)?;
    let n = sizes.iter().try_fold(1u64, |n, &d| n.checked_mul(d as u64)).ok_or("too many nodes")?;
    let mut b = FabricBuilder::with_capacity(n, n.saturating_mul(2 * dims as u64))?;
    let coords = |mut v: usize| -> Vec<usize> {
        sizes
            .iter()
            .map(|&d| {
                let c = v % d;
                v /= d;
                c
            })
            .collect()
    };
    for v in 0..n as usize {
        let name = coords(v).iter().map(|c| c.to_string()).collect::<Vec<_>>().join(".");
        b.node(name, NodeKind::Compute);
    }
    let mut stride = 1;
    for (d, &len) in sizes.iter().enumerate() {
        for v in 0..n as usize {
            let c = coords(v)[d];
            let up = if c + 1 < len {
                Some(v + stride)
            } else if wrap && len > 2 {
                Some(v - c * stride)
            } else {
                None
            };
            if let Some(u) = up {
                b.duplex(v, u, &bandwidths[d], latency)?;
            }
        }
        stride *= len;
    }
    let fabric = b.build(if wrap { "torus3d" } else { "mesh2d" })?;
    let cubic =
        wrap && sizes.iter().all(|&d| d == sizes[0]) && bandwidths.iter().all(|b| b == &bandwidths[0]);
    Ok(if cubic { fabric.with_structure(Structure::CubicTorus { side: sizes[0] }) } else { fabric })
}

fn torus3d(size: &str) -> Result<Fabric, String> {
    grid(size, 3, true)
}

fn mesh2d(size: &str) -> Result<Fabric, String> {
    grid(size, 2, false)
}

fn rail(size: &str) -> Result<Fabric, String> {
    let (nodes, per_node) = size.split_once('x').ok_or("write the size as NODESxGPUS")?;
    let (k, g) = (count(nodes, "node count", 1 << 20)?, count(per_node, "GPU count", 1 << 10)?);
    let gpus_total = k.checked_mul(g).ok_or("too many GPUs")?;
    let mut b = FabricBuilder::with_capacity(gpus_total + k + g, 4 * gpus_total)?;
    let boxes = gpus(&mut b, k as usize, g as usize);
    let rails: Vec<usize> = (0..g).map(|r| b.node(format!("rail{r}"), NodeKind::Switch)).collect();
    let (nvlink, nic) = (gbs("450"), gbs("50"));
    let mut nvswitch = Vec::with_capacity(boxes.len());
    for (i, node) in boxes.iter().enumerate() {
        let switch = b.node(format!("n{i}.nvswitch"), NodeKind::Switch);
        nvswitch.push(switch);
        for (r, &gpu) in node.iter().enumerate() {
            b.duplex(gpu, switch, &nvlink, 0.0)?;
            b.duplex(gpu, rails[r], &nic, 0.0)?;
        }
    }
    Ok(b.build("rail")?.with_structure(Structure::Rail { gpu: boxes, nvswitch, rail: rails }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn machine(s: &str) -> Fabric {
        parse_machine(s).unwrap().unwrap()
    }

    #[test]
    fn the_machines_have_their_sources_sizes() {
        let nd = machine("ndv2x4");
        assert_eq!((nd.compute().len(), nd.len(), nd.links().len()), (32, 33, 4 * 32 + 8));
        assert_eq!(machine("ndv2x1").len(), 8);
        let dgx = machine("dgx2x2");
        assert_eq!((dgx.compute().len(), dgx.len(), dgx.links().len()), (32, 34, 2 * 32 + 16));
        let a = machine("a100x2");
        assert_eq!((a.compute().len(), a.len()), (16, 16 + 2 + 16 + 2));
        assert_eq!(machine("mi250x2").compute().len(), 32);
        let t = machine("torus3d:4x4x2");
        assert_eq!((t.len(), t.links().len()), (32, 32 * 5));
        let m = machine("mesh2d:3x2:100,50");
        assert_eq!(m.links().len(), 2 * (2 * 2 + 3));
        assert!(m.links().iter().all(|l| l.latency == 0.5));
        let slow = machine("mesh2d:3x2::1.5");
        assert!(slow.links().iter().all(|l| l.latency == 1.5 && l.bandwidth == gbs("50")));
        assert!(machine("torus3d:3x3x3:10,20,30:1").links().iter().all(|l| l.latency == 1.0));
        let r = machine("rail:4x8");
        assert_eq!((r.compute().len(), r.len(), r.links().len()), (32, 32 + 4 + 8, 4 * 32));
        assert_eq!(r.name(), "rail:4x8");
    }

    #[test]
    fn bad_sizes_are_refused_with_the_form() {
        assert!(parse_machine("dgx1").unwrap().is_none());
        assert!(parse_machine("ndv2x0").unwrap_err().contains("ndv2xK"));
        assert!(parse_machine("torus3d:4x4").unwrap_err().contains("3 expected"));
        assert!(parse_machine("mesh2d:4x4:1").unwrap_err().contains("one per dimension"));
        assert!(parse_machine("mesh2d:4x4::-1").unwrap_err().contains("latency"));
        assert!(parse_machine("mesh2d:4x4:1,1:x").unwrap_err().contains("latency"));
        assert!(parse_machine("rail:1000000x1000").unwrap_err().contains("limit"));
        assert!(parse_machine("torus3d:1000x1000x1000").unwrap_err().contains("limit"));
    }
}

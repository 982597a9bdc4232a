//! `commsched topology NET`: a network's nodes, links with their bandwidths, switch groups and
//! diameter (docs/spec.md §2.4), and with `--out FILE.svg` its picture.

use super::args::Format;
use super::io_err;
use commsched::draw::topology::{Link, links, network_svg};
use commsched::error::{InputError, Result};
use commsched::spec::fabric::{self, Fabric, machines, ratio_text};
use commsched::spec::io::load_instance;
use commsched::spec::{Network, Switch};
use serde::Serialize;
use std::io::Write;
use std::path::Path;

/// What `topology --format json` prints.
#[derive(Debug, Serialize)]
struct TopologyJson<'a> {
    name: String,
    nodes: usize,
    arcs: usize,
    links: Vec<Link>,
    switches: &'a [Switch],
    /// The largest hop distance, when every node reaches every other.
    diameter: Option<usize>,
}

/// The network `gen --network` would read: a name or a topology JSON file.
/// The network a spec names, with the name to print: an instance file's network (`*.toml`), an
/// SCCL / msccl-tools topology file's (its own `name` beside the network's), or a network string.
fn load(spec: &str) -> Result<(Network, String)> {
    if spec.ends_with(".toml") {
        let net = load_instance(Path::new(spec))?.network;
        let name = net.spec_string();
        return Ok((net, name));
    }
    if spec.ends_with(".json") {
        let text = std::fs::read_to_string(spec)
            .map_err(|e| InputError::new(spec, "", format!("cannot read: {e}")))?;
        let topology = commsched::spec::topology::parse_topology_json(&text, spec)?;
        let net = topology.network().map_err(|r| InputError::new(spec, "links", r))?;
        let name = format!("{} ({})", topology.name, net.spec_string());
        return Ok((net, name));
    }
    let net = Network::parse(spec).map_err(|reason| InputError::new("<flags>", "--network", reason))?;
    let name = net.spec_string();
    Ok((net, name))
}

/// The fabric of the bandwidth model a spec names (a machine at scale or a node-link file), if
/// it names one.
pub(super) fn fabric_of(spec: &str) -> Result<Option<Fabric>> {
    let node_link = spec.ends_with(".json")
        && std::fs::read_to_string(spec)
            .ok()
            .and_then(|t| serde_json::from_str::<serde_json::Value>(&t).ok())
            .is_some_and(|d| d.get("nodes").is_some());
    let machine = machines::parse_machine(spec).map_err(|r| InputError::new("<flags>", "NETWORK", r))?;
    Ok(match machine {
        Some(f) => Some(f),
        None if node_link => Some(fabric::load(spec, None)?),
        None => None,
    })
}

/// A fabric's nodes, compute and switch, its links and their bandwidths (docs/spec.md §2.5).
fn describe_fabric(f: &Fabric, svg: Option<&Path>, format: Format, out: &mut dyn Write) -> Result<u8> {
    if svg.is_some() {
        return Err(InputError::new(
            "<flags>",
            "--out",
            "draws the networks of docs/spec.md §2.4; a fabric is described in text or JSON",
        )
        .into());
    }
    let compute = f.compute().len();
    let bandwidths: Vec<f64> = f.links().iter().map(|l| fabric::to_f64(&l.bandwidth)).collect();
    let (low, high) = bandwidths.iter().fold((f64::INFINITY, 0.0f64), |(lo, hi), &b| (lo.min(b), hi.max(b)));
    let text = match format {
        Format::Json => {
            let links: Vec<serde_json::Value> = f
                .links()
                .iter()
                .map(|l| serde_json::json!({"from": f.node_name(l.from), "to": f.node_name(l.to), "bandwidth": ratio_text(&l.bandwidth), "latency": l.latency}))
                .collect();
            serde_json::json!({"name": f.name(), "nodes": f.len(), "compute": compute, "switches": f.len() - compute, "links": links}).to_string() + "\n"
        }
        _ => {
            let mut t = format!(
                "{}: {} nodes ({compute} compute, {} switches), {} links, {low}–{high} GB/s\n",
                f.name(),
                f.len(),
                f.len() - compute,
                f.links().len()
            );
            for l in f.links() {
                t += &format!(
                    "  {} -> {}  {} GB/s, {} µs\n",
                    f.node_name(l.from),
                    f.node_name(l.to),
                    fabric::to_f64(&l.bandwidth),
                    l.latency
                );
            }
            t
        }
    };
    out.write_all(text.as_bytes()).map_err(io_err("<stdout>"))?;
    Ok(0)
}

/// `topology NET [--out FILE.svg]`.
pub fn topology(spec: &str, svg: Option<&Path>, format: Format, out: &mut dyn Write) -> Result<u8> {
    if let Some(f) = fabric_of(spec)? {
        return describe_fabric(&f, svg, format, out);
    }
    let (net, name) = load(spec)?;
    let (diameter, connected) = net.diameter();
    let links = links(&net);
    if let Some(path) = svg {
        let title = format!("{name}: {} nodes, {} arcs", net.len(), net.arcs().len());
        std::fs::write(path, network_svg(&net, &title)).map_err(io_err(&path.display().to_string()))?;
    }
    let text = match format {
        Format::Json => {
            let json = TopologyJson {
                name,
                nodes: net.len(),
                arcs: net.arcs().len(),
                links,
                switches: net.switches(),
                diameter: connected.then_some(diameter),
            };
            serde_json::to_string_pretty(&json).expect("the topology serialises") + "\n"
        }
        _ => {
            let mut t =
                format!("{name}: {} nodes, {} arcs in {} links, ", net.len(), net.arcs().len(), links.len());
            t += &if connected {
                format!("diameter {diameter}\n")
            } else {
                "not strongly connected\n".to_string()
            };
            for l in &links {
                let b = |x: Option<u64>| x.map_or("-".to_string(), |b| b.to_string());
                t += &match (l.forward, l.backward) {
                    (Some(f), Some(g)) if f == g => format!("  {} <-> {}  bandwidth {f}\n", l.u, l.v),
                    _ => format!(
                        "  {} -> {}  bandwidth {}; {} -> {}  bandwidth {}\n",
                        l.u,
                        l.v,
                        b(l.forward),
                        l.v,
                        l.u,
                        b(l.backward)
                    ),
                };
            }
            for sw in net.switches() {
                t += &format!(
                    "  switch {}: {:?} -> {:?}, bandwidth {}\n",
                    sw.name, sw.sources, sw.destinations, sw.bandwidth
                );
            }
            if let Some(path) = svg {
                t += &format!("drawn to {}\n", path.display());
            }
            t
        }
    };
    out.write_all(text.as_bytes()).map_err(io_err("<stdout>"))?;
    Ok(0)
}

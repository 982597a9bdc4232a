//! `commsched topology NET`: a network's nodes, links with their bandwidths, switch groups and
//! diameter (docs/spec.md §2.4), and with `--out FILE.svg` its picture.

use super::args::Format;
use super::io_err;
use commsched::draw::topology::{Link, links, network_svg};
use commsched::error::{InputError, Result};
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
fn load(spec: &str) -> Result<Network> {
    if spec.ends_with(".json") {
        return Ok(commsched::spec::topology::load_topology(Path::new(spec))?);
    }
    Network::parse(spec).map_err(|reason| InputError::new("<flags>", "--network", reason).into())
}

/// `topology NET [--out FILE.svg]`.
pub fn topology(spec: &str, svg: Option<&Path>, format: Format, out: &mut dyn Write) -> Result<u8> {
    let net = load(spec)?;
    let (diameter, connected) = net.diameter();
    let name = net.spec_string();
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

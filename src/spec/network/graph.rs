//! Explicit graphs (SPEC §2, docs/spec.md §2.4): arcs listed in a file or built by the
//! topology registry ([`crate::spec::topology`]); no string family, so not in
//! [`super::family::FAMILIES`]. The atlas's path is a BFS shortest path.

use super::family::{Family, NetworkFamily, not_mine};
use super::{Network, Node};

/// An explicit graph.
pub struct Graph;

/// An explicit graph.
pub static GRAPH: Graph = Graph;

impl NetworkFamily for Graph {
    fn name(&self) -> &'static str {
        "graph"
    }

    fn parse(&'static self, _: &str, _: &str) -> Result<Family, String> {
        Err("an explicit graph is written as a table of arcs, not a string".into())
    }

    fn params(&self, family: &Family) -> String {
        match *family {
            Family::Graph(n) => n.to_string(),
            _ => not_mine(self, family),
        }
    }

    fn build(&self, _: &Family) -> Result<(usize, Vec<(Node, Node)>), String> {
        Err("use Network::graph for explicit graphs".into())
    }

    /// The longest simple path: the bound of any network whose nodes reach each other.
    fn diameter_bound(&self, network: &Network) -> usize {
        network.len() - 1
    }
}

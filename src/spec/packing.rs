//! Schedules of the bandwidth model (docs/spec.md §3.2, §7.3): weighted trees per root, each tree
//! edge a physical path through the fabric, and the cuts that bound them. `packing.json` and
//! `cut.json` name nodes by their fabric names, so that a script of anyone's can check them
//! against the fabric's node-link file.

use super::fabric::{Fabric, parse_ratio, ratio_text};
use crate::error::InputError;
use num_rational::BigRational;
use serde_json::{Value, json};

/// The collectives of the bandwidth model.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BandwidthCollective {
    /// Every rank ends with every shard: out-trees.
    Allgather,
    /// Every rank ends with its shard reduced over all ranks: in-trees.
    ReduceScatter,
    /// Reduce-scatter, then allgather.
    Allreduce,
}

impl BandwidthCollective {
    /// Every collective, in the order `--help` lists them.
    pub const ALL: [BandwidthCollective; 3] = [Self::Allgather, Self::ReduceScatter, Self::Allreduce];

    /// The name on the command line and in the files.
    pub fn name(self) -> &'static str {
        match self {
            Self::Allgather => "allgather",
            Self::ReduceScatter => "reduce-scatter",
            Self::Allreduce => "allreduce",
        }
    }

    /// The collective with this name.
    pub fn parse(s: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|c| c.name() == s)
    }

    /// Its phases, in the order they run.
    pub fn phases(self) -> &'static [Phase] {
        match self {
            Self::Allgather => &[Phase::Allgather],
            Self::ReduceScatter => &[Phase::ReduceScatter],
            Self::Allreduce => &[Phase::ReduceScatter, Phase::Allgather],
        }
    }

    /// nccl-tests' bus-bandwidth factor for N ranks: (N − 1)/N, twice that for allreduce.
    pub fn bus_factor(self, n: usize) -> f64 {
        let f = (n as f64 - 1.0) / n as f64;
        if self == Self::Allreduce { 2.0 * f } else { f }
    }

    /// algbw and busbw (GB/s) of a time per shard on N compute nodes.
    pub fn bandwidths(self, n: usize, time: &BigRational) -> (f64, f64) {
        let algbw = n as f64 / super::fabric::to_f64(time);
        (algbw, algbw * self.bus_factor(n))
    }
}

/// One phase of a collective: which way its trees point.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Phase {
    /// Out-trees: the root's shard goes to every compute node; a path runs parent to child.
    Allgather,
    /// In-trees: every compute node's part of the root's shard is reduced into the root; a path
    /// runs child to parent, the way the data flows.
    ReduceScatter,
}

impl Phase {
    /// The name in the files.
    pub fn name(self) -> &'static str {
        match self {
            Phase::Allgather => "allgather",
            Phase::ReduceScatter => "reduce-scatter",
        }
    }

    fn parse(s: &str) -> Option<Self> {
        [Phase::Allgather, Phase::ReduceScatter].into_iter().find(|p| p.name() == s)
    }
}

/// One weighted tree.
#[derive(Debug, Clone, PartialEq)]
pub struct Tree {
    /// Its phase.
    pub phase: Phase,
    /// Its root, a compute node.
    pub root: usize,
    /// The fraction of the root's shard it carries, in (0, 1].
    pub weight: BigRational,
    /// One path per tree edge, in the direction data flows.
    pub paths: Vec<Vec<usize>>,
}

/// A schedule of the bandwidth model: `packing.json`.
#[derive(Debug, Clone, PartialEq)]
pub struct Packing {
    /// The collective.
    pub collective: BandwidthCollective,
    /// The trees of every phase: of every root, or with a symmetry those of one representative
    /// root.
    pub trees: Vec<Tree>,
    /// A symmetric packing's generators (docs/spec.md §6.1): permutations of the fabric's nodes,
    /// the image of node v at index v, whose group gives every root the images of the
    /// representative root's trees. `None`: the trees are every root's.
    pub symmetry: Option<Vec<Vec<usize>>>,
}

/// A node set whose leaving bandwidth bounds a phase's time: one entry of `cut.json`.
#[derive(Debug, Clone, PartialEq)]
pub struct Cut {
    /// The phase it bounds.
    pub phase: Phase,
    /// The set S, in index order.
    pub nodes: Vec<usize>,
}

/// `cut.json`: one cut per phase of the collective.
#[derive(Debug, Clone, PartialEq)]
pub struct Cuts {
    /// The collective.
    pub collective: BandwidthCollective,
    /// One cut per phase.
    pub cuts: Vec<Cut>,
}

/// `packing.json`'s text: one tree per block, every path and every generator on one line.
/// Written directly, not through a JSON tree, since a packing at scale has millions of paths.
pub fn packing_to_json(fabric: &Fabric, packing: &Packing) -> String {
    let quoted: Vec<String> =
        (0..fabric.len()).map(|v| Value::from(fabric.node_name(v)).to_string()).collect();
    let names = |nodes: &[usize]| nodes.iter().map(|&v| quoted[v].as_str()).collect::<Vec<_>>().join(", ");
    let mut out = format!("{{\n  \"collective\": \"{}\",\n", packing.collective.name());
    if let Some(generators) = &packing.symmetry {
        out += "  \"symmetry\": [";
        for (i, g) in generators.iter().enumerate() {
            out += if i == 0 { "\n    [" } else { ",\n    [" };
            out += &names(g);
            out.push(']');
        }
        out += if generators.is_empty() { "],\n" } else { "\n  ],\n" };
    }
    out += "  \"trees\": [";
    for (i, t) in packing.trees.iter().enumerate() {
        out += if i == 0 { "\n" } else { ",\n" };
        out += &format!(
            "    {{\n      \"phase\": \"{}\",\n      \"root\": {},\n      \"weight\": \"{}\",\n      \"paths\": [",
            t.phase.name(),
            quoted[t.root],
            ratio_text(&t.weight)
        );
        for (j, path) in t.paths.iter().enumerate() {
            out += if j == 0 { "\n        [" } else { ",\n        [" };
            out += &names(path);
            out.push(']');
        }
        out += if t.paths.is_empty() { "]\n    }" } else { "\n      ]\n    }" };
    }
    out += if packing.trees.is_empty() { "]\n}\n" } else { "\n  ]\n}\n" };
    out
}

/// `cut.json`'s text.
pub fn cuts_to_json(fabric: &Fabric, cuts: &Cuts) -> String {
    let list: Vec<Value> = cuts
        .cuts
        .iter()
        .map(|c| json!({"phase": c.phase.name(), "nodes": c.nodes.iter().map(|&v| fabric.node_name(v)).collect::<Vec<_>>()}))
        .collect();
    serde_json::to_string_pretty(&json!({"collective": cuts.collective.name(), "cuts": list}))
        .expect("a cut serialises")
        + "\n"
}

/// The file a certificate reader is looking at and its fabric's names.
pub(super) struct Reader<'a> {
    file: &'a str,
    fabric: &'a Fabric,
    names: std::collections::HashMap<&'a str, usize>,
}

impl<'a> Reader<'a> {
    pub(super) fn new(file: &'a str, fabric: &'a Fabric) -> Self {
        Self { file, fabric, names: fabric.name_index() }
    }

    pub(super) fn err(&self, field: &str, reason: impl Into<String>) -> InputError {
        InputError::new(self.file, field, reason)
    }

    pub(super) fn doc(&self, text: &str) -> Result<serde_json::Map<String, Value>, InputError> {
        match serde_json::from_str(text) {
            Ok(Value::Object(map)) => Ok(map),
            Ok(_) => Err(self.err("", "is not a JSON object")),
            Err(e) => Err(self.err("", format!("not JSON: {e}"))),
        }
    }

    pub(super) fn collective(
        &self,
        doc: &serde_json::Map<String, Value>,
    ) -> Result<BandwidthCollective, InputError> {
        let v = doc.get("collective").ok_or_else(|| self.err("collective", "is missing"))?;
        v.as_str().and_then(BandwidthCollective::parse).ok_or_else(|| {
            self.err("collective", format!("`{v}` is not allgather, reduce-scatter or allreduce"))
        })
    }

    fn phase(&self, field: &str, v: Option<&Value>) -> Result<Phase, InputError> {
        let v = v.ok_or_else(|| self.err(field, "is missing"))?;
        v.as_str()
            .and_then(Phase::parse)
            .ok_or_else(|| self.err(field, format!("`{v}` is not allgather or reduce-scatter")))
    }

    pub(super) fn node(&self, field: &str, v: &Value) -> Result<usize, InputError> {
        let name =
            v.as_str().ok_or_else(|| self.err(field, format!("`{v}` is not a node name (a string)")))?;
        self.names.get(name).copied().ok_or_else(|| {
            self.err(field, format!("node `{name}` is not in the fabric `{}`", self.fabric.name()))
        })
    }

    /// A list of node names, `field[k]` naming a bad entry.
    fn nodes(&self, field: &str, v: Option<&Value>) -> Result<Vec<usize>, InputError> {
        self.list(field, v)?.iter().enumerate().map(|(k, v)| self.node(&format!("{field}[{k}]"), v)).collect()
    }

    pub(super) fn list<'v>(&self, field: &str, v: Option<&'v Value>) -> Result<&'v Vec<Value>, InputError> {
        match v {
            Some(Value::Array(a)) => Ok(a),
            Some(other) => Err(self.err(field, format!("`{}` is not a list", short(other)))),
            None => Err(self.err(field, "is missing")),
        }
    }
}

fn short(v: &Value) -> String {
    let text = v.to_string();
    if text.len() > 40 {
        format!("{}…", &text[..text.char_indices().nth(40).map_or(text.len(), |c| c.0)])
    } else {
        text
    }
}

/// Reads `packing.json` against its fabric. Errors name the file, the field
/// (`trees[3].paths[2][1]`) and the reason; what the trees mean is the checker's to judge.
pub fn parse_packing(text: &str, file: &str, fabric: &Fabric) -> Result<Packing, InputError> {
    let r = Reader::new(file, fabric);
    let doc = r.doc(text)?;
    let collective = r.collective(&doc)?;
    let mut trees = Vec::new();
    for (i, tree) in r.list("trees", doc.get("trees"))?.iter().enumerate() {
        let field = |f: &str| format!("trees[{i}].{f}");
        let tree = tree.as_object().ok_or_else(|| r.err(&format!("trees[{i}]"), "is not an object"))?;
        let phase = r.phase(&field("phase"), tree.get("phase"))?;
        let root =
            r.node(&field("root"), tree.get("root").ok_or_else(|| r.err(&field("root"), "is missing"))?)?;
        let w = tree.get("weight").ok_or_else(|| r.err(&field("weight"), "is missing"))?;
        let weight = w
            .as_str()
            .and_then(parse_ratio)
            .ok_or_else(|| r.err(&field("weight"), format!("`{}` is not a fraction \"p/q\"", short(w))))?;
        let paths = r
            .list(&field("paths"), tree.get("paths"))?
            .iter()
            .enumerate()
            .map(|(j, path)| r.nodes(&format!("trees[{i}].paths[{j}]"), Some(path)))
            .collect::<Result<_, _>>()?;
        trees.push(Tree { phase, root, weight, paths });
    }
    let symmetry = match doc.get("symmetry") {
        None => None,
        Some(v) => Some(
            r.list("symmetry", Some(v))?
                .iter()
                .enumerate()
                .map(|(i, g)| r.nodes(&format!("symmetry[{i}]"), Some(g)))
                .collect::<Result<_, _>>()?,
        ),
    };
    Ok(Packing { collective, trees, symmetry })
}

/// Reads `cut.json` against its fabric.
pub fn parse_cuts(text: &str, file: &str, fabric: &Fabric) -> Result<Cuts, InputError> {
    let r = Reader::new(file, fabric);
    let doc = r.doc(text)?;
    let collective = r.collective(&doc)?;
    let mut cuts = Vec::new();
    for (i, cut) in r.list("cuts", doc.get("cuts"))?.iter().enumerate() {
        let cut = cut.as_object().ok_or_else(|| r.err(&format!("cuts[{i}]"), "is not an object"))?;
        let phase = r.phase(&format!("cuts[{i}].phase"), cut.get("phase"))?;
        let mut nodes = r.nodes(&format!("cuts[{i}].nodes"), cut.get("nodes"))?;
        nodes.sort_unstable();
        nodes.dedup();
        cuts.push(Cut { phase, nodes });
    }
    Ok(Cuts { collective, cuts })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spec::fabric::machines::parse_machine;

    #[test]
    fn packings_and_cuts_read_back_as_written() {
        let f = parse_machine("ndv2x1").unwrap().unwrap();
        let packing = Packing {
            collective: BandwidthCollective::Allgather,
            trees: vec![Tree {
                phase: Phase::Allgather,
                root: 0,
                weight: BigRational::new(1.into(), 3.into()),
                paths: vec![vec![0, 1], vec![0, 4, 5]],
            }],
            symmetry: None,
        };
        let text = packing_to_json(&f, &packing);
        assert!(text.contains(r#"["n0.gpu0", "n0.gpu4", "n0.gpu5"]"#), "{text}");
        assert_eq!(parse_packing(&text, "p.json", &f).unwrap(), packing);
        let cuts = Cuts {
            collective: BandwidthCollective::Allgather,
            cuts: vec![Cut { phase: Phase::Allgather, nodes: vec![0, 3] }],
        };
        assert_eq!(parse_cuts(&cuts_to_json(&f, &cuts), "c.json", &f).unwrap(), cuts);
        let symmetric = Packing { symmetry: Some(vec![vec![1, 2, 3, 4, 5, 6, 7, 0], vec![]]), ..packing };
        let text = packing_to_json(&f, &symmetric);
        assert!(text.contains("  \"symmetry\": [\n    [\"n0.gpu1\", "), "{text}");
        assert_eq!(parse_packing(&text, "p.json", &f).unwrap(), symmetric);
        let bad = |t: &str| parse_packing(t, "p.json", &f).unwrap_err().to_string();
        assert!(
            bad(&text.replace("\"n0.gpu7\", \"n0.gpu0\"]", "\"n0.gpu7\", \"gpu0\"]"))
                .contains("symmetry[0][7]")
        );
        assert!(bad(r#"{"collective": "gossip", "trees": []}"#).contains("collective"));
        assert!(bad(&text.replace("n0.gpu5", "n9.gpu5")).contains("trees[0].paths[1][2]"));
        assert!(bad(&text.replace("1/3", "third")).contains("trees[0].weight"));
    }
}

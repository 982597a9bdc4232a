//! The instance file (TOML, docs/spec.md §2 and §5): one type, [`InstanceFile`], that serde
//! reads and writes, so reading and writing are one definition. [`InstanceFile::instance`]
//! validates it into an [`Instance`], naming the file, the field and the reason of every error;
//! [`InstanceFile::of`] is the file of an instance, and [`InstanceFile::to_toml`] writes it with
//! the comments a reader needs.

use super::capacity::Capacity;
use super::collective::{Collective, CollectiveKind};
use super::model::{GatherMode, Mode, Model, Port, PortRule};
use super::network::{Network, Node, RingTie, Switch};
use super::problem::{Instance, MessageSpec, PaperNote, Problem, ProblemKind};
use crate::error::InputError;
use serde::{Deserialize, Serialize};

/// An instance file as written: every key of docs/spec.md §2, typed where the type alone
/// validates it, and kept as written where the validation must name the key (a negative
/// length, an unknown node, a capacity that breaks FT-1).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct InstanceFile {
    /// The instance's name; the file's stem when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Where it comes from (paper, figure).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub source: String,
    /// The problem's name (`gossip`, `allgather`).
    pub problem: String,
    /// A network string (`mesh:4x4`), or an explicit network as a table ([`NetworkTable`]).
    /// Kept as a TOML value, so that a table that is not a network is reported as field
    /// `network` rather than by its line alone.
    pub network: toml::Value,
    /// The tie rule for antipodal ring messages.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ring_tie: Option<RingTie>,
    /// Scatter and gather: L_1 .. L_n, the flits of the message of node i.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lengths: Option<Vec<i64>>,
    /// Scatter and gather off a tree: the path of the message of node i, from P_0.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub routes: Option<Vec<Vec<Node>>>,
    /// Total exchange: the 0/1 demand matrix (all pairs when absent).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub demand: Option<Vec<Vec<u8>>>,
    /// Collective model: the chunks C each rank's data is cut into.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub chunks: Option<i64>,
    /// Collective model: the root of a broadcast, scatter or gather.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub root: Option<i64>,
    /// The model; the problem's own ([`default_model`]) for every key left out.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model: Option<ModelTable>,
    /// What the paper says.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub paper: Option<PaperNote>,
    /// Chatting: the messages.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub messages: Option<Vec<MessageSpec>>,
}

/// The `[model]` table: the kind and the keys of that kind.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ModelTable {
    /// `bufferless`, `store-forward`, `fat-tree` or `collective`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kind: Option<String>,
    /// Bufferless: the port rule.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub port: Option<Port>,
    /// Bufferless: virtual schedules.
    #[serde(default, rename = "virtual", skip_serializing_if = "Option::is_none")]
    pub virtual_schedule: Option<bool>,
    /// Bufferless gather: centralized or distributed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gather: Option<GatherMode>,
    /// Store-and-forward: F*, H*, F1 or H1.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rule: Option<String>,
    /// Store-and-forward: move or copy.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mode: Option<Mode>,
    /// Store-and-forward: tokens per packet.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub packet: Option<i64>,
    /// Fat-tree: the capacity function (`log+1`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub capacity: Option<String>,
    /// A flag for the fat-tree model, a budget for the collective model.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rounds: Option<Rounds>,
}

/// `rounds`: a flag for the fat-tree model, a budget for the collective model.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Rounds {
    /// The fat-tree round model on or off.
    Flag(bool),
    /// The collective model's budget R of rounds over all steps.
    Budget(i64),
}

/// An explicit network, the `[network]` table (docs/spec.md §2.4).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NetworkTable {
    /// The node count n: nodes 0..n − 1.
    pub nodes: i64,
    /// `[u, v]` or `[u, v, bandwidth]`: both arcs.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub links: Vec<Vec<i64>>,
    /// `[u, v]` or `[u, v, bandwidth]`: the arc u → v alone.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub arcs: Vec<Vec<i64>>,
    /// The switch groups.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub switches: Vec<SwitchTable>,
}

/// A `[[network.switches]]` entry ([`Switch`]).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SwitchTable {
    /// Its sources.
    pub sources: Vec<i64>,
    /// Its destinations.
    pub destinations: Vec<i64>,
    /// Chunks per round over all its (source, destination) pairs.
    #[serde(default = "one")]
    pub bandwidth: i64,
    /// Its name in diagnoses (`switch i` when absent).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
}

fn one() -> i64 {
    1
}

impl InstanceFile {
    /// A file with the problem and the network alone; every other key takes its default.
    pub fn new(problem: impl Into<String>, network: toml::Value) -> Self {
        InstanceFile {
            name: None,
            source: String::new(),
            problem: problem.into(),
            network,
            ring_tie: None,
            lengths: None,
            routes: None,
            demand: None,
            chunks: None,
            root: None,
            model: None,
            paper: None,
            messages: None,
        }
    }

    /// Parses instance TOML; `file` names it in errors, which give the line of a malformed key.
    pub fn parse(text: &str, file: &str) -> Result<Self, InputError> {
        toml::from_str(text).map_err(|e| {
            let line = e.span().map(|s| text[..s.start].matches('\n').count() + 1);
            let msg = e.message().trim().to_string();
            InputError::new(
                file,
                "",
                match line {
                    Some(l) => format!("line {l}: {msg}"),
                    None => msg,
                },
            )
        })
    }

    /// Validates the file into an instance; `default_name` is used when it has no `name`.
    pub fn instance(self, file: &str, default_name: &str) -> Result<Instance, InputError> {
        let network = network_of(self.network.clone(), file)?;
        let problem = self.problem_of(file)?;
        let model = self.model.unwrap_or_default().model(&problem, file)?;
        let problem_kind = problem.kind();
        let mut inst = Instance::routed(
            self.name.unwrap_or_else(|| default_name.to_string()),
            network,
            problem,
            model,
            self.ring_tie.unwrap_or_default(),
            // Like the other problems' keys, `routes` is ignored outside scatter and gather.
            self.routes.filter(|_| matches!(problem_kind, ProblemKind::Scatter | ProblemKind::Gather)),
            file,
        )?;
        inst.source = self.source;
        inst.paper = self.paper.unwrap_or_default();
        Ok(inst)
    }

    /// The problem the keys describe; the problem's own keys are read, the others ignored.
    fn problem_of(&self, file: &str) -> Result<Problem, InputError> {
        let err = |field: &str, reason: String| InputError::new(file, field, reason);
        let collective_model = self.model.as_ref().and_then(|m| m.kind.as_deref()) == Some("collective");
        let collective = CollectiveKind::parse(&self.problem).filter(|k| {
            collective_model
                || !matches!(k, CollectiveKind::Broadcast | CollectiveKind::Scatter | CollectiveKind::Gather)
        });
        if let Some(kind) = collective {
            let chunks = self.chunks.unwrap_or(1);
            let chunks = usize::try_from(chunks)
                .ok()
                .filter(|&c| c >= 1)
                .ok_or_else(|| err("chunks", format!("{chunks} is not a chunk count >= 1")))?;
            let root = match (self.root, kind.rooted()) {
                (Some(r), true) => {
                    usize::try_from(r).map_err(|_| err("root", format!("node {r} is unknown")))?
                }
                (Some(_), false) => return Err(err("root", format!("the {} has no root", kind.name()))),
                (None, _) => 0,
            };
            return Ok(Problem::Collective(Collective { kind, chunks, root }));
        }
        Ok(match self.problem.as_str() {
            "chatting" => Problem::Chatting(
                self.messages.clone().ok_or_else(|| err("messages", "chatting needs [[messages]]".into()))?,
            ),
            "scatter" | "gather" => {
                let l = self
                    .lengths
                    .as_ref()
                    .ok_or_else(|| err("lengths", "scatter/gather need lengths = [L_1, ..., L_n]".into()))?;
                let mut lengths = vec![0];
                for (i, &x) in l.iter().enumerate() {
                    lengths.push(
                        u64::try_from(x)
                            .map_err(|_| err(&format!("lengths[{i}]"), format!("length {x} is negative")))?,
                    );
                }
                if self.problem == "scatter" { Problem::Scatter(lengths) } else { Problem::Gather(lengths) }
            }
            "total-exchange" => Problem::TotalExchange(match &self.demand {
                None => None,
                Some(rows) => Some(
                    rows.iter()
                        .enumerate()
                        .map(|(i, row)| {
                            row.iter()
                                .enumerate()
                                .map(|(j, &x)| match x {
                                    0 => Ok(false),
                                    1 => Ok(true),
                                    _ => Err(err(&format!("demand[{i}][{j}]"), format!("{x} is not 0 or 1"))),
                                })
                                .collect()
                        })
                        .collect::<Result<_, _>>()?,
                ),
            }),
            "gossip" => Problem::Gossip,
            "broadcast" => Problem::Broadcast,
            "product" => Problem::Product,
            "prefix" => Problem::Prefix,
            other => {
                let reason = ProblemKind::parse(other).err();
                return Err(err(
                    "problem",
                    reason.unwrap_or_else(|| format!("`{other}` has no problem keys")),
                ));
            }
        })
    }

    /// The file of an instance: the keys its problem and model need, nothing defaulted away
    /// that a reader would have to look up (a store-and-forward model names its rule, mode and
    /// packet).
    pub fn of(inst: &Instance) -> Self {
        let net = &inst.network;
        let network = if net.is_explicit() && net.spec_string() == format!("graph:{}", net.len()) {
            NetworkTable::value_of(net)
        } else {
            toml::Value::String(net.spec_string())
        };
        let mut file = InstanceFile::new(inst.problem.name(), network);
        file.name = Some(inst.name.clone());
        file.source = inst.source.clone();
        file.ring_tie = (inst.ring_tie != RingTie::default()).then_some(inst.ring_tie);
        match &inst.problem {
            Problem::Scatter(l) | Problem::Gather(l) => {
                file.lengths = Some(l[1..].iter().map(|&x| x as i64).collect());
                file.routes = inst.routes.clone();
            }
            Problem::TotalExchange(Some(d)) => {
                file.demand = Some(d.iter().map(|row| row.iter().map(|&b| u8::from(b)).collect()).collect());
            }
            Problem::Collective(c) => {
                file.chunks = Some(c.chunks as i64);
                file.root = c.kind.rooted().then_some(c.root as i64);
            }
            Problem::Chatting(msgs) => file.messages = Some(msgs.clone()),
            Problem::TotalExchange(None)
            | Problem::Gossip
            | Problem::Broadcast
            | Problem::Product
            | Problem::Prefix => {}
        }
        file.model = Some(ModelTable::of(&inst.model, &inst.problem));
        file.paper = (inst.paper != PaperNote::default()).then(|| inst.paper.clone());
        file
    }

    /// The file as TOML under the comment line `header`: the keys a reader may not know
    /// commented, and the lists of lists one entry per line.
    pub fn to_toml(&self, header: &str) -> String {
        let mut doc = toml_edit::ser::to_document(self).expect("an instance file is TOML");
        let root = doc.as_table_mut();
        standard_tables(root);
        comment(root, "lengths", "L_1 .. L_n: flits of the message of node i");
        comment(root, "routes", "the path of the message of node i, from P_0 (a gather takes it backwards)");
        comment(root, "chunks", "each rank's data cut into C chunks");
        one_per_line(root, "routes");
        one_per_line(root, "demand");
        if let Some(network) = root.get_mut("network").and_then(|n| n.as_table_mut()) {
            comment(network, "arcs", "[u, v, bandwidth]: the arc u -> v");
            one_per_line(network, "arcs");
        }
        if let Some(model) = root.get_mut("model").and_then(|n| n.as_table_mut())
            && self.model.as_ref().is_some_and(|m| matches!(m.rounds, Some(Rounds::Budget(_))))
        {
            comment(model, "rounds", "the budget R of rounds over all steps");
        }
        format!("# {header}\n{doc}")
    }
}

/// Every table and array of tables below `table` written as a section (`[model]`,
/// `[[messages]]`) after a blank line, rather than inline.
fn standard_tables(table: &mut toml_edit::Table) {
    for (_, item) in table.iter_mut() {
        let taken = std::mem::take(item);
        *item = match taken.into_table() {
            Ok(mut t) => {
                t.decor_mut().set_prefix("\n");
                standard_tables(&mut t);
                toml_edit::Item::Table(t)
            }
            Err(other) => match other.into_array_of_tables() {
                Ok(mut list) => {
                    for t in list.iter_mut() {
                        t.decor_mut().set_prefix("\n");
                        standard_tables(t);
                    }
                    toml_edit::Item::ArrayOfTables(list)
                }
                Err(other) => other,
            },
        };
    }
}

/// A comment line above `key`, if the table has it.
fn comment(table: &mut toml_edit::Table, key: &str, text: &str) {
    if let Some(mut k) = table.key_mut(key) {
        k.leaf_decor_mut().set_prefix(format!("# {text}\n"));
    }
}

/// The list at `key`, if any, one entry per line.
fn one_per_line(table: &mut toml_edit::Table, key: &str) {
    if let Some(list) = table.get_mut(key).and_then(|item| item.as_array_mut()) {
        for entry in list.iter_mut() {
            entry.decor_mut().set_prefix("\n  ");
            entry.decor_mut().set_suffix("");
        }
        list.set_trailing_comma(true);
        list.set_trailing("\n");
    }
}

/// The network a file's `network` value names: a family string, or an explicit table.
fn network_of(value: toml::Value, file: &str) -> Result<Network, InputError> {
    let err = |reason: String| InputError::new(file, "network", reason);
    match value {
        toml::Value::String(name) => Network::parse(&name).map_err(err),
        toml::Value::Table(table) => {
            let table = NetworkTable::deserialize(table).map_err(|e| err(e.message().to_string()))?;
            table.network(file)
        }
        other => Err(err(format!("a {} is neither a network string nor a table", other.type_str()))),
    }
}

impl NetworkTable {
    /// The network of the table: every field checked, errors naming `network.links[2]`.
    fn network(&self, file: &str) -> Result<Network, InputError> {
        let err = |field: String, reason: String| InputError::new(file, field, reason);
        let n = usize::try_from(self.nodes)
            .ok()
            .filter(|&n| n >= 2)
            .ok_or_else(|| err("network.nodes".into(), format!("{} is not a node count >= 2", self.nodes)))?;
        let node = |field: &str, v: i64| {
            usize::try_from(v).ok().filter(|&v| v < n).ok_or_else(|| {
                err(field.into(), format!("node {v} is unknown: the network has nodes 0..{}", n - 1))
            })
        };
        let mut arcs = Vec::new();
        for (key, list, both) in [("links", &self.links, true), ("arcs", &self.arcs, false)] {
            for (i, entry) in list.iter().enumerate() {
                let field = format!("network.{key}[{i}]");
                let (u, v, b) = match entry[..] {
                    [u, v] => (u, v, 1),
                    [u, v, b] => (u, v, b),
                    _ => return Err(err(field, format!("{entry:?} is not [u, v] or [u, v, bandwidth]"))),
                };
                if b < 1 {
                    return Err(err(field, format!("bandwidth {b} is not >= 1")));
                }
                let (u, v) = (node(&field, u)?, node(&field, v)?);
                arcs.push((u, v, b as u64));
                if both {
                    arcs.push((v, u, b as u64));
                }
            }
        }
        let mut switches = Vec::new();
        for (i, sw) in self.switches.iter().enumerate() {
            let field = format!("network.switches[{i}]");
            let nodes = |list: &[i64]| list.iter().map(|&v| node(&field, v)).collect::<Result<Vec<_>, _>>();
            if sw.bandwidth < 1 {
                return Err(err(field, format!("bandwidth {} is not >= 1", sw.bandwidth)));
            }
            switches.push(Switch {
                sources: nodes(&sw.sources)?,
                destinations: nodes(&sw.destinations)?,
                bandwidth: sw.bandwidth as u64,
                name: sw.name.clone().unwrap_or_else(|| format!("switch {i}")),
            });
        }
        Network::weighted(n, arcs, switches).map_err(|r| err("network".into(), r))
    }

    /// The `network` value of an explicit network: its table ([`NetworkTable::of`]).
    pub fn value_of(net: &Network) -> toml::Value {
        toml::Value::try_from(Self::of(net)).expect("a network table is TOML")
    }

    /// The table of a network: one `arcs` entry `[u, v, bandwidth]` per arc, and the switch
    /// groups with their names.
    pub fn of(net: &Network) -> Self {
        let ids = |list: &[Node]| list.iter().map(|&v| v as i64).collect();
        NetworkTable {
            nodes: net.len() as i64,
            links: Vec::new(),
            arcs: (net.arcs().iter().enumerate())
                .map(|(a, &(u, v))| vec![u as i64, v as i64, net.bandwidth(a) as i64])
                .collect(),
            switches: (net.switches().iter())
                .map(|sw| SwitchTable {
                    sources: ids(&sw.sources),
                    destinations: ids(&sw.destinations),
                    bandwidth: sw.bandwidth as i64,
                    name: Some(sw.name.clone()),
                })
                .collect(),
        }
    }
}

/// The model a problem gets when the file does not say (the papers' own models).
pub fn default_model(problem: &Problem) -> Model {
    match problem {
        Problem::Chatting(_) => {
            Model::Bufferless { port: Port::Multi, virtual_schedule: false, gather: GatherMode::Centralized }
        }
        Problem::Scatter(_) | Problem::Gather(_) => {
            Model::Bufferless { port: Port::Single, virtual_schedule: false, gather: GatherMode::Centralized }
        }
        Problem::TotalExchange(_) => {
            Model::StoreForward { rule: PortRule::FStar, mode: Mode::Move, packet: 1 }
        }
        Problem::Gossip => Model::StoreForward { rule: PortRule::HStar, mode: Mode::Copy, packet: 1 },
        Problem::Broadcast | Problem::Product | Problem::Prefix => {
            Model::FatTree { capacity: Capacity::Constant { value: 1 }, rounds: false }
        }
        Problem::Collective(_) => Model::Collective { rounds: None },
    }
}

impl ModelTable {
    /// The model the table gives `problem`: its kind (the problem's own by default) with every
    /// key left out taken from [`default_model`].
    fn model(self, problem: &Problem, file: &str) -> Result<Model, InputError> {
        let err = |field: &str, reason: String| InputError::new(file, field, reason);
        let default = default_model(problem);
        let kind = self.kind.unwrap_or_else(|| default.kind().key().into());
        Ok(match kind.as_str() {
            "bufferless" => {
                let (port, gather) = match default {
                    Model::Bufferless { port, gather, .. } => (port, gather),
                    _ => (Port::Multi, GatherMode::Centralized),
                };
                Model::Bufferless {
                    port: self.port.unwrap_or(port),
                    virtual_schedule: self.virtual_schedule.unwrap_or(false),
                    gather: self.gather.unwrap_or(gather),
                }
            }
            "store-forward" => {
                let (rule, mode) = match default {
                    Model::StoreForward { rule, mode, .. } => (rule, mode),
                    _ => (PortRule::FStar, Mode::Move),
                };
                let packet = self.packet.unwrap_or(1);
                if packet < 1 {
                    return Err(err(
                        "model.packet",
                        format!("p = {packet}: a packet carries at least one token"),
                    ));
                }
                Model::StoreForward {
                    rule: match self.rule {
                        Some(r) => PortRule::parse(&r).map_err(|e| err("model.rule", e))?,
                        None => rule,
                    },
                    mode: self.mode.unwrap_or(mode),
                    packet: packet as usize,
                }
            }
            "fat-tree" => Model::FatTree {
                capacity: match self.capacity {
                    Some(c) => Capacity::parse(&c).map_err(|e| err("model.capacity", e))?,
                    None => {
                        return Err(err(
                            "model.capacity",
                            "the fat-tree model needs a capacity (e.g. \"log+1\")".into(),
                        ));
                    }
                },
                rounds: match self.rounds {
                    None => false,
                    Some(Rounds::Flag(f)) => f,
                    Some(Rounds::Budget(_)) => {
                        return Err(err(
                            "model.rounds",
                            "the fat-tree model's `rounds` is true or false".into(),
                        ));
                    }
                },
            },
            "collective" => Model::Collective {
                rounds: match self.rounds {
                    None => None,
                    Some(Rounds::Budget(r)) if r >= 1 => Some(r as u64),
                    Some(Rounds::Budget(r)) => {
                        return Err(err(
                            "model.rounds",
                            format!("R = {r}: every step has at least one round"),
                        ));
                    }
                    Some(Rounds::Flag(_)) => {
                        return Err(err(
                            "model.rounds",
                            "the collective model's `rounds` is a budget R >= 1".into(),
                        ));
                    }
                },
            },
            other => {
                return Err(err(
                    "model.kind",
                    format!(
                        "unknown model `{other}` (known: bufferless, store-forward, fat-tree, collective)"
                    ),
                ));
            }
        })
    }

    /// The table of a model: its kind and every key of that kind, but a bufferless model's
    /// gather mode only where it matters (a gather, or not the default) and its `virtual` only
    /// when set.
    fn of(model: &Model, problem: &Problem) -> Self {
        let mut table = ModelTable { kind: Some(model.kind().key().into()), ..ModelTable::default() };
        match *model {
            Model::Bufferless { port, virtual_schedule, gather } => {
                table.port = Some(port);
                table.virtual_schedule = virtual_schedule.then_some(true);
                table.gather = (matches!(problem, Problem::Gather(_)) || gather != GatherMode::default())
                    .then_some(gather);
            }
            Model::StoreForward { rule, mode, packet } => {
                table.rule = Some(rule.to_string());
                table.mode = Some(mode);
                table.packet = Some(packet as i64);
            }
            Model::FatTree { ref capacity, rounds } => {
                table.capacity = Some(capacity.spec_string());
                table.rounds = Some(Rounds::Flag(rounds));
            }
            Model::Collective { rounds } => table.rounds = rounds.map(|r| Rounds::Budget(r as i64)),
        }
        table
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Keys of every shape the writer decorates: a comment above a key, lists one entry per
    /// line, sections, arrays of tables inside a table.
    const DECORATED: [&str; 4] = [
        "problem = \"scatter\"\nnetwork = \"mesh:2x2\"\nlengths = [1, 2, 3]\nroutes = [[0, 1], [0, 2], [0, 1, 3]]\n[paper]\nclaims = [\"SG-1\"]\nlength = 7\nnote = \"a \\\"quoted\\\" note\"",
        "problem = \"total-exchange\"\nnetwork = \"path:3\"\ndemand = [[0, 1, 0], [1, 0, 1], [0, 0, 0]]\n[model]\nrule = \"H1\"",
        "problem = \"allgather\"\nchunks = 2\n[network]\nnodes = 3\nlinks = [[0, 1, 2], [1, 2]]\n[[network.switches]]\nsources = [0]\ndestinations = [1, 2]\n[model]\nkind = \"collective\"\nrounds = 4",
        "name = \"chat\"\nproblem = \"chatting\"\nnetwork = \"ring:5\"\nring_tie = \"alternating\"\n[[messages]]\nsrc = 0\ndst = 2\nlength = 3\npath = [0, 1, 2]\n[[messages]]\nsrc = 4\ndst = 1\nlength = 1",
    ];

    /// The comments and line breaks of [`InstanceFile::to_toml`] are presentation: the file it
    /// writes parses back to the same `InstanceFile`, key for key.
    #[test]
    fn the_written_file_reads_back_as_itself() {
        for text in DECORATED {
            let file = InstanceFile::parse(text, "<test>").unwrap();
            let written = file.to_toml("a header");
            assert_eq!(InstanceFile::parse(&written, "<written>").unwrap(), file, "written as:\n{written}");
            assert!(written.starts_with("# a header\n"), "{written}");
        }
    }

    /// The file of an instance names what the papers' defaults would leave implicit, and the
    /// instance it describes is the one it was written from.
    #[test]
    fn the_file_of_an_instance_is_that_instance() {
        for text in DECORATED {
            let inst = InstanceFile::parse(text, "<test>").unwrap().instance("<test>", "t").unwrap();
            let file = InstanceFile::of(&inst);
            assert_eq!(file.model.as_ref().and_then(|m| m.kind.as_deref()), Some(inst.model.kind().key()));
            assert_eq!(file.clone().instance("<of>", "other").unwrap(), inst);
        }
        let gossip = InstanceFile::parse("problem = \"gossip\"\nnetwork = \"mesh:3x3\"", "<test>")
            .unwrap()
            .instance("<test>", "g")
            .unwrap();
        let table = InstanceFile::of(&gossip).model.unwrap();
        assert_eq!(
            (table.rule.as_deref(), table.mode, table.packet),
            (Some("H*"), Some(Mode::Copy), Some(1))
        );
    }

    /// The lists a reader scans line by line are written one entry per line, under their
    /// comment.
    #[test]
    fn lists_of_lists_are_written_one_entry_per_line() {
        let file = InstanceFile::parse(DECORATED[0], "<test>").unwrap();
        let written = file.to_toml("h");
        assert!(
            written.contains(
                "# L_1 .. L_n: flits of the message of node i\nlengths = [1, 2, 3]\n# the path of the message of node i, from P_0 (a gather takes it backwards)\nroutes = [\n  [0, 1],\n  [0, 2],\n  [0, 1, 3],\n]\n"
            ),
            "{written}"
        );
        assert!(written.contains("\n\n[paper]\n"), "{written}");
        let collective = InstanceFile::parse(DECORATED[2], "<test>").unwrap().to_toml("h");
        assert!(collective.contains("\n\n[[network.switches]]\nsources = [0]\n"), "{collective}");
        assert!(collective.contains("# the budget R of rounds over all steps\nrounds = 4\n"), "{collective}");
    }
}

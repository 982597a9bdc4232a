//! Instance files (TOML) and schedule files (JSON), validated on load (SPEC §5). Every error
//! names the file, the field and the reason.

use super::capacity::Capacity;
use super::collective::{Collective, CollectiveKind};
use super::model::{GatherMode, Mode, Model, Port, PortRule};
use super::network::{Network, Node, RingTie, Switch};
use super::problem::{Instance, MessageSpec, PaperNote, Problem, ProblemKind};
use super::schedule::{Schedule, ScheduleFile, Start};
use crate::error::InputError;
use serde::Deserialize;
use std::path::Path;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawInstance {
    name: Option<String>,
    #[serde(default)]
    source: String,
    problem: String,
    network: toml::Value,
    ring_tie: Option<RingTie>,
    chunks: Option<i64>,
    root: Option<i64>,
    model: Option<RawModel>,
    messages: Option<Vec<MessageSpec>>,
    lengths: Option<Vec<i64>>,
    routes: Option<Vec<Vec<Node>>>,
    demand: Option<Vec<Vec<u8>>>,
    paper: Option<PaperNote>,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct RawModel {
    kind: Option<String>,
    port: Option<Port>,
    #[serde(rename = "virtual")]
    virtual_schedule: Option<bool>,
    gather: Option<GatherMode>,
    rule: Option<String>,
    mode: Option<Mode>,
    packet: Option<i64>,
    capacity: Option<String>,
    rounds: Option<RawRounds>,
}

/// `rounds`: a flag for the fat-tree model, a budget for the collective model.
#[derive(Deserialize)]
#[serde(untagged)]
enum RawRounds {
    Flag(bool),
    Budget(i64),
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ExplicitNetwork {
    nodes: i64,
    /// `[u, v]` or `[u, v, bandwidth]`: both arcs.
    #[serde(default)]
    links: Vec<Vec<i64>>,
    /// `[u, v]` or `[u, v, bandwidth]`: the arc u → v alone.
    #[serde(default)]
    arcs: Vec<Vec<i64>>,
    #[serde(default)]
    switches: Vec<RawSwitch>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawSwitch {
    sources: Vec<i64>,
    destinations: Vec<i64>,
    #[serde(default = "one_i64")]
    bandwidth: i64,
    #[serde(default)]
    name: Option<String>,
}

fn one_i64() -> i64 {
    1
}

/// The network of an explicit table: every field checked, errors naming `network.links[2]`.
fn explicit_network(raw: &ExplicitNetwork, file: &str) -> Result<Network, InputError> {
    let err = |field: String, reason: String| InputError::new(file, field, reason);
    let n = usize::try_from(raw.nodes)
        .ok()
        .filter(|&n| n >= 1)
        .ok_or_else(|| err("network.nodes".into(), format!("{} is not a node count >= 1", raw.nodes)))?;
    let node = |field: &str, v: i64| {
        usize::try_from(v).ok().filter(|&v| v < n).ok_or_else(|| {
            err(field.into(), format!("node {v} is unknown: the network has nodes 0..{}", n - 1))
        })
    };
    let mut arcs = Vec::new();
    for (key, list, both) in [("links", &raw.links, true), ("arcs", &raw.arcs, false)] {
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
    for (i, sw) in raw.switches.iter().enumerate() {
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

/// Reads and validates an instance file.
pub fn load_instance(path: &Path) -> Result<Instance, InputError> {
    let file = path.display().to_string();
    let text =
        std::fs::read_to_string(path).map_err(|e| InputError::new(&file, "", format!("cannot read: {e}")))?;
    let stem = path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
    parse_instance(&text, &file, &stem)
}

/// Parses and validates instance TOML; `file` names it in errors, `default_name` is used when
/// the file has no `name`.
pub fn parse_instance(text: &str, file: &str, default_name: &str) -> Result<Instance, InputError> {
    let raw: RawInstance = toml::from_str(text).map_err(|e| {
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
    })?;
    let err = |field: &str, reason: String| InputError::new(file, field, reason);
    // A network string, or an explicit network as a table (docs/spec.md §2.4).
    let network = match raw.network {
        toml::Value::String(name) => Network::parse(&name).map_err(|r| err("network", r))?,
        toml::Value::Table(table) => {
            let table =
                ExplicitNetwork::deserialize(table).map_err(|e| err("network", e.message().to_string()))?;
            explicit_network(&table, file)?
        }
        other => {
            return Err(err(
                "network",
                format!("a {} is neither a network string nor a table", other.type_str()),
            ));
        }
    };
    let nonneg = |v: &[i64], field: &str| -> Result<Vec<u64>, InputError> {
        v.iter()
            .enumerate()
            .map(|(i, &x)| {
                u64::try_from(x).map_err(|_| err(&format!("{field}[{i}]"), format!("length {x} is negative")))
            })
            .collect()
    };
    let collective_model = raw.model.as_ref().and_then(|m| m.kind.as_deref()) == Some("collective");
    let collective = CollectiveKind::parse(&raw.problem).filter(|k| {
        collective_model
            || !matches!(k, CollectiveKind::Broadcast | CollectiveKind::Scatter | CollectiveKind::Gather)
    });
    let problem = match raw.problem.as_str() {
        _ if collective.is_some() => {
            let kind = collective.expect("matched");
            let chunks = raw.chunks.unwrap_or(1);
            let chunks = usize::try_from(chunks)
                .ok()
                .filter(|&c| c >= 1)
                .ok_or_else(|| err("chunks", format!("{chunks} is not a chunk count >= 1")))?;
            let root = match (raw.root, kind.rooted()) {
                (Some(r), true) => {
                    usize::try_from(r).map_err(|_| err("root", format!("node {r} is unknown")))?
                }
                (None, true) => 0,
                (Some(_), false) => {
                    return Err(err("root", format!("the {} has no root", kind.name())));
                }
                (None, false) => 0,
            };
            Problem::Collective(Collective { kind, chunks, root })
        }
        "chatting" => Problem::Chatting(
            raw.messages.ok_or_else(|| err("messages", "chatting needs [[messages]]".into()))?,
        ),
        "scatter" | "gather" => {
            let l = raw
                .lengths
                .ok_or_else(|| err("lengths", "scatter/gather need lengths = [L_1, ..., L_n]".into()))?;
            let mut lengths = vec![0];
            lengths.extend(nonneg(&l, "lengths")?);
            if raw.problem == "scatter" { Problem::Scatter(lengths) } else { Problem::Gather(lengths) }
        }
        "total-exchange" => Problem::TotalExchange(match raw.demand {
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
        other => return Err(err("problem", ProblemKind::parse(other).unwrap_err())),
    };
    let model = build_model(raw.model.unwrap_or_default(), &problem, file)?;
    let problem_kind = problem.kind();
    let mut inst = Instance::routed(
        raw.name.unwrap_or_else(|| default_name.to_string()),
        network,
        problem,
        model,
        raw.ring_tie.unwrap_or_default(),
        // Like the other problems' keys, `routes` is ignored outside scatter and gather.
        raw.routes.filter(|_| matches!(problem_kind, ProblemKind::Scatter | ProblemKind::Gather)),
        file,
    )?;
    inst.source = raw.source;
    inst.paper = raw.paper.unwrap_or_default();
    Ok(inst)
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

fn build_model(raw: RawModel, problem: &Problem, file: &str) -> Result<Model, InputError> {
    let err = |field: &str, reason: String| InputError::new(file, field, reason);
    let default = default_model(problem);
    let kind = raw.kind.unwrap_or_else(|| match default {
        Model::Bufferless { .. } => "bufferless".into(),
        Model::StoreForward { .. } => "store-forward".into(),
        Model::FatTree { .. } => "fat-tree".into(),
        Model::Collective { .. } => "collective".into(),
    });
    Ok(match kind.as_str() {
        "bufferless" => {
            let (port, gather) = match default {
                Model::Bufferless { port, gather, .. } => (port, gather),
                _ => (Port::Multi, GatherMode::Centralized),
            };
            Model::Bufferless {
                port: raw.port.unwrap_or(port),
                virtual_schedule: raw.virtual_schedule.unwrap_or(false),
                gather: raw.gather.unwrap_or(gather),
            }
        }
        "store-forward" => {
            let (rule, mode) = match default {
                Model::StoreForward { rule, mode, .. } => (rule, mode),
                _ => (PortRule::FStar, Mode::Move),
            };
            let packet = raw.packet.unwrap_or(1);
            if packet < 1 {
                return Err(err(
                    "model.packet",
                    format!("p = {packet}: a packet carries at least one token"),
                ));
            }
            Model::StoreForward {
                rule: match raw.rule {
                    Some(r) => PortRule::parse(&r).map_err(|e| err("model.rule", e))?,
                    None => rule,
                },
                mode: raw.mode.unwrap_or(mode),
                packet: packet as usize,
            }
        }
        "fat-tree" => Model::FatTree {
            capacity: match raw.capacity {
                Some(c) => Capacity::parse(&c).map_err(|e| err("model.capacity", e))?,
                None => {
                    return Err(err(
                        "model.capacity",
                        "the fat-tree model needs a capacity (e.g. \"log+1\")".into(),
                    ));
                }
            },
            rounds: match raw.rounds {
                None => false,
                Some(RawRounds::Flag(f)) => f,
                Some(RawRounds::Budget(_)) => {
                    return Err(err("model.rounds", "the fat-tree model's `rounds` is true or false".into()));
                }
            },
        },
        "collective" => Model::Collective {
            rounds: match raw.rounds {
                None => None,
                Some(RawRounds::Budget(r)) if r >= 1 => Some(r as u64),
                Some(RawRounds::Budget(r)) => {
                    return Err(err("model.rounds", format!("R = {r}: every step has at least one round")));
                }
                Some(RawRounds::Flag(_)) => {
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
                format!("unknown model `{other}` (known: bufferless, store-forward, fat-tree, collective)"),
            ));
        }
    })
}

/// Writes an instance as commented TOML (used by `commsched gen`).
pub fn instance_to_toml(inst: &Instance) -> String {
    let mut s = String::new();
    s.push_str(&format!("# commsched instance: {} on {} ({})\n", inst.problem, inst.network, inst.model));
    s.push_str(&format!("name = {}\n", toml_string(&inst.name)));
    if !inst.source.is_empty() {
        s.push_str(&format!("source = {}\n", toml_string(&inst.source)));
    }
    s.push_str(&format!("problem = {:?}\n", inst.problem.name()));
    if !inst.network.is_explicit() || inst.network.spec_string() != format!("graph:{}", inst.network.len()) {
        s.push_str(&format!("network = {:?}\n", inst.network.spec_string()));
    }
    if inst.ring_tie != RingTie::default() {
        let tie = serde_json::to_string(&inst.ring_tie).expect("plain enum");
        s.push_str(&format!("ring_tie = {tie}\n"));
    }
    match &inst.problem {
        Problem::Scatter(l) | Problem::Gather(l) => {
            let v: Vec<String> = l[1..].iter().map(|x| x.to_string()).collect();
            s.push_str(&format!(
                "# L_1 .. L_n: flits of the message of node i\nlengths = [{}]\n",
                v.join(", ")
            ));
            if let Some(routes) = &inst.routes {
                s.push_str("# the path of the message of node i, from P_0 (a gather takes it backwards)\nroutes = [\n");
                for r in routes {
                    s.push_str(&format!("  {r:?},\n"));
                }
                s.push_str("]\n");
            }
        }
        Problem::TotalExchange(Some(d)) => {
            s.push_str("demand = [\n");
            for row in d {
                let v: Vec<&str> = row.iter().map(|&b| if b { "1" } else { "0" }).collect();
                s.push_str(&format!("  [{}],\n", v.join(", ")));
            }
            s.push_str("]\n");
        }
        Problem::Collective(c) => {
            s.push_str(&format!("# each rank's data cut into C chunks\nchunks = {}\n", c.chunks));
            if c.kind.rooted() {
                s.push_str(&format!("root = {}\n", c.root));
            }
        }
        _ => {}
    }
    if inst.network.is_explicit() && inst.network.spec_string() == format!("graph:{}", inst.network.len()) {
        s.push_str(&explicit_network_toml(&inst.network));
    }
    s.push_str("\n[model]\n");
    match &inst.model {
        Model::Bufferless { port, virtual_schedule, gather } => {
            s.push_str("kind = \"bufferless\"\n");
            s.push_str(&format!("port = {}\n", serde_json::to_string(port).expect("plain enum")));
            if *virtual_schedule {
                s.push_str("virtual = true\n");
            }
            if matches!(inst.problem, Problem::Gather(_)) || *gather != GatherMode::default() {
                s.push_str(&format!("gather = {}\n", serde_json::to_string(gather).expect("plain enum")));
            }
        }
        Model::StoreForward { rule, mode, packet } => {
            s.push_str(&format!(
                "kind = \"store-forward\"\nrule = \"{rule}\"\nmode = {}\npacket = {packet}\n",
                serde_json::to_string(mode).expect("plain enum")
            ));
        }
        Model::FatTree { capacity, rounds } => {
            s.push_str(&format!(
                "kind = \"fat-tree\"\ncapacity = {:?}\nrounds = {rounds}\n",
                capacity.spec_string()
            ));
        }
        Model::Collective { rounds } => {
            s.push_str("kind = \"collective\"\n");
            if let Some(r) = rounds {
                s.push_str(&format!("# the budget R of rounds over all steps\nrounds = {r}\n"));
            }
        }
    }
    let paper = &inst.paper;
    if *paper != PaperNote::default() {
        let claims: Vec<String> = paper.claims.iter().map(|c| toml_string(c)).collect();
        s.push_str(&format!("\n[paper]\nclaims = [{}]\n", claims.join(", ")));
        if let Some(length) = paper.length {
            s.push_str(&format!("length = {length}\n"));
        }
        if !paper.note.is_empty() {
            s.push_str(&format!("note = {}\n", toml_string(&paper.note)));
        }
    }
    if let Problem::Chatting(msgs) = &inst.problem {
        for m in msgs {
            s.push_str(&format!("\n[[messages]]\nsrc = {}\ndst = {}\nlength = {}\n", m.src, m.dst, m.length));
            if let Some(p) = &m.path {
                s.push_str(&format!("path = {p:?}\n"));
            }
        }
    }
    s
}

/// An explicit network as the `[network]` table (docs/spec.md §2.4): one `arcs` entry
/// `[u, v, bandwidth]` per arc, and the switch groups.
fn explicit_network_toml(net: &Network) -> String {
    let mut s =
        format!("\n[network]\nnodes = {}\n# [u, v, bandwidth]: the arc u -> v\narcs = [\n", net.len());
    for (a, &(u, v)) in net.arcs().iter().enumerate() {
        s.push_str(&format!("  [{u}, {v}, {}],\n", net.bandwidth(a)));
    }
    s.push_str("]\n");
    for sw in net.switches() {
        s.push_str(&format!(
            "\n[[network.switches]]\nsources = {:?}\ndestinations = {:?}\nbandwidth = {}\nname = {}\n",
            sw.sources,
            sw.destinations,
            sw.bandwidth,
            toml_string(&sw.name)
        ));
    }
    s
}

/// A string as a TOML value (quoted and escaped).
fn toml_string(text: &str) -> String {
    toml::Value::String(text.to_string()).to_string()
}

/// Reads a schedule file in the JSON of SPEC §5 and validates it against the instance (a file
/// that may be MSCCL XML is read by `msccl::load_schedule`, a layer above the checker).
pub fn load_schedule(path: &Path, inst: &Instance) -> Result<Schedule, InputError> {
    let file = path.display().to_string();
    let text =
        std::fs::read_to_string(path).map_err(|e| InputError::new(&file, "", format!("cannot read: {e}")))?;
    parse_schedule(&text, &file, inst)
}

/// Whether a schedule file is MSCCL XML, by its extension.
pub fn is_xml(path: &Path) -> bool {
    path.extension().is_some_and(|x| x.eq_ignore_ascii_case("xml"))
}

/// Parses schedule JSON and validates its shape against the instance: problem and model echo,
/// exactly one body, known node ids. Message and token ids are checked by the checker, which
/// reports unknown ones as violations.
pub fn parse_schedule(text: &str, file: &str, inst: &Instance) -> Result<Schedule, InputError> {
    let err = |field: &str, reason: String| InputError::new(file, field, reason);
    let raw: ScheduleFile = serde_json::from_str(text).map_err(|e| err("", e.to_string()))?;
    if raw.problem != inst.problem.name() {
        return Err(err(
            "problem",
            format!("`{}` does not match the instance's `{}`", raw.problem, inst.problem),
        ));
    }
    if raw.model != inst.model.name() {
        return Err(err(
            "model",
            format!("`{}` does not match the instance's `{}`", raw.model, inst.model.name()),
        ));
    }
    let n = inst.network.len();
    let node = |field: String, v: usize| {
        if v < n {
            Ok(())
        } else {
            Err(err(&field, format!("node {v} is unknown: the network has nodes 0..{}", n - 1)))
        }
    };
    let bodies = [
        raw.starts.is_some() || raw.control.is_some() || raw.order.is_some(),
        raw.virtual_starts.is_some(),
        raw.steps.is_some(),
        raw.sends.is_some(),
    ];
    if bodies.iter().filter(|&&b| b).count() != 1 {
        return Err(err("", "give exactly one of starts/control/order, virtual_starts, steps, sends".into()));
    }
    let sched = if let Some(order) = raw.order {
        let Problem::Scatter(lengths) = &inst.problem else {
            return Err(err("order", "a dispatch order is only meaningful for scatter".into()));
        };
        Schedule::Bufferless {
            starts: scatter_order_starts(&order, lengths, file)?,
            control: raw.control.unwrap_or_default(),
        }
    } else if raw.starts.is_some() || raw.control.is_some() {
        let control = raw.control.unwrap_or_default();
        for (i, c) in control.iter().enumerate() {
            node(format!("control[{i}].from"), c.from)?;
            node(format!("control[{i}].to"), c.to)?;
        }
        Schedule::Bufferless { starts: raw.starts.unwrap_or_default(), control }
    } else if let Some(v) = raw.virtual_starts {
        Schedule::Virtual(v)
    } else if let Some(steps) = raw.steps {
        for (t, step) in steps.iter().enumerate() {
            for (i, tr) in step.iter().enumerate() {
                node(format!("steps[{t}][{i}].from"), tr.from)?;
                node(format!("steps[{t}][{i}].to"), tr.to)?;
            }
        }
        match (&inst.model, raw.rounds) {
            (super::Model::Collective { .. }, rounds) => {
                let rounds = rounds.unwrap_or_else(|| vec![1; steps.len()]);
                if rounds.len() != steps.len() {
                    return Err(err(
                        "rounds",
                        format!("{} rounds given for {} steps: one r_s per step", rounds.len(), steps.len()),
                    ));
                }
                Schedule::Collective { steps, rounds }
            }
            (_, Some(_)) => {
                return Err(err("rounds", "only the collective model has rounds per step".into()));
            }
            (_, None) => Schedule::StoreForward(steps),
        }
    } else {
        let sends = raw.sends.unwrap_or_default();
        for (i, s) in sends.iter().enumerate() {
            node(format!("sends[{i}].from"), s.from)?;
            node(format!("sends[{i}].to"), s.to)?;
        }
        Schedule::FatTree(sends)
    };
    Ok(sched)
}

/// Paper 001 (1): messages dispatched back to back in `order`; M_i starts at
/// τ(i) + 1 where τ(i) is the total length dispatched before it.
pub fn scatter_order_starts(order: &[usize], lengths: &[u64], file: &str) -> Result<Vec<Start>, InputError> {
    let mut tau = 0i64;
    let mut starts = Vec::new();
    for (k, &m) in order.iter().enumerate() {
        let l = *lengths.get(m).filter(|_| m > 0).ok_or_else(|| {
            InputError::new(
                file,
                format!("order[{k}]"),
                format!("message {m} is unknown: messages are 1..{}", lengths.len() - 1),
            )
        })?;
        if l == 0 {
            continue;
        }
        starts.push(Start { msg: m, start: tau + 1 });
        tau += l as i64;
    }
    Ok(starts)
}

/// Writes a schedule as the JSON file of SPEC §5 (itineraries in their explicit form, refused
/// beyond `--max-events` hops).
pub fn schedule_to_json(inst: &Instance, sched: &Schedule) -> Result<String, InputError> {
    let mut file = ScheduleFile {
        problem: inst.problem.name().into(),
        model: inst.model.name().into(),
        ..Default::default()
    };
    match sched {
        Schedule::Bufferless { starts, control } => {
            file.starts = Some(starts.clone());
            if !control.is_empty() {
                file.control = Some(control.clone());
            }
        }
        Schedule::Virtual(v) => file.virtual_starts = Some(v.clone()),
        Schedule::StoreForward(steps) => file.steps = Some(steps.clone()),
        Schedule::Itineraries(it) => file.steps = Some(it.explicit_steps()?),
        Schedule::FatTree(sends) => file.sends = Some(sends.clone()),
        Schedule::Collective { steps, rounds } => {
            file.steps = Some(steps.clone());
            file.rounds = Some(rounds.clone());
        }
    }
    Ok(serde_json::to_string_pretty(&file).expect("schedule serialises"))
}

/// Every `*.toml` under the given files and directories, sorted, each with the root it was found
/// under (to mirror the layout in outputs), but none inside a certificate folder
/// ([`certificate_folder`]), whose `instance.toml` is a copy. A path that does not exist is an
/// input error.
pub fn instance_files(
    paths: &[std::path::PathBuf],
) -> crate::Result<Vec<(std::path::PathBuf, std::path::PathBuf)>> {
    use std::path::PathBuf;
    let io = |dir: &Path| {
        let path = dir.display().to_string();
        move |source| crate::Error::Io { path, source }
    };
    let mut files = Vec::new();
    for p in paths {
        if p.is_dir() {
            let mut stack = vec![p.clone()];
            while let Some(dir) = stack.pop() {
                for entry in std::fs::read_dir(&dir).map_err(io(&dir))? {
                    let path = entry.map_err(io(&dir))?.path();
                    if path.is_dir() {
                        if path.extension().is_none_or(|x| x != "certificate") {
                            stack.push(path);
                        }
                    } else if path.extension().is_some_and(|x| x == "toml") {
                        files.push((p.clone(), path));
                    }
                }
            }
        } else if p.exists() {
            files.push((p.parent().map(Path::to_path_buf).unwrap_or_else(PathBuf::new), p.clone()));
        } else {
            return Err(InputError::new(p.display().to_string(), "", "no such file or directory").into());
        }
    }
    files.sort_by(|a, b| a.1.cmp(&b.1));
    Ok(files)
}

/// The certificate folder of an instance file `X.toml`: the directory `X.certificate` beside it,
/// if any (docs/spec.md §7.1). [`instance_files`] does not look inside such folders.
pub fn certificate_folder(instance: &Path) -> Option<std::path::PathBuf> {
    let path = instance.with_extension("certificate");
    path.is_dir().then_some(path)
}

/// The paper's own schedule for an instance file `X.toml`: `X.schedule.json` beside it, if any.
pub fn paper_schedule_file(instance: &Path) -> Option<std::path::PathBuf> {
    let path = instance.with_extension("schedule.json");
    path.exists().then_some(path)
}

//! Instance generation (`commsched gen`): an instance from a problem, a network and the
//! flags of its model, written as a TOML table and validated exactly like a file
//! ([`parse_instance`]); a flag the instance would silently ignore is refused, naming it.

use crate::error::{InputError, Result};
use crate::heuristics::scatter_gather::tree_cover::{self, Routing};
use crate::spec::io::parse_instance;
use crate::spec::{CollectiveKind, Family, Instance, Model, Network, Problem, ProblemKind};
use std::path::Path;

/// What `gen` is asked for, as its flags give it (docs/guide.md); `None` and empty: the
/// problem's defaults.
#[derive(Debug, Clone, Default)]
pub struct Request {
    /// The problem's name (`gossip`, `allgather`).
    pub problem: String,
    /// A network string or an SCCL / msccl-tools topology JSON file (`topo.json`).
    pub network: String,
    /// The instance name (default: PROBLEM-NETWORK).
    pub name: Option<String>,
    /// Store-and-forward rule: F*, H*, F1, H1.
    pub rule: Option<String>,
    /// Tokens per packet (store-and-forward).
    pub packet: Option<usize>,
    /// Bufferless port rule: multi or single.
    pub port: Option<String>,
    /// Bufferless: virtual schedules.
    pub virtual_schedule: bool,
    /// Gather: check as distributed.
    pub distributed: bool,
    /// Fat-tree capacity.
    pub capacity: Option<String>,
    /// `on` for the fat-tree round model, or the collective model's budget R.
    pub rounds: Option<String>,
    /// Collective model: the chunks C each rank's data is cut into.
    pub chunks: Option<usize>,
    /// Collective model: the root of a broadcast, scatter or gather.
    pub root: Option<usize>,
    /// Ring tie rule: clockwise, counterclockwise, alternating.
    pub ring_tie: Option<String>,
    /// Scatter/gather lengths L_1,...,L_n.
    pub lengths: Vec<i64>,
    /// Chatting messages as SRC-DST:LEN.
    pub messages: Vec<String>,
    /// Scatter/gather routing off a tree: `bfs`, `cover` or `spanning:K` (paper 001 §4).
    pub routes: Option<String>,
}

/// Builds the instance `commsched gen` writes, validated exactly like a file.
pub fn generate(g: &Request) -> Result<Instance> {
    let mut t = toml::Table::new();
    // A topology file names the instance by its stem (`allgather-dgx1` for `topo/dgx1.json`).
    let network_name = match g.network.strip_suffix(".json") {
        Some(_) => {
            Path::new(&g.network).file_stem().map_or_else(String::new, |s| s.to_string_lossy().into_owned())
        }
        None => g.network.replace(':', ""),
    };
    let name = g.name.clone().unwrap_or_else(|| format!("{}-{network_name}", g.problem));
    t.insert("name".into(), name.clone().into());
    t.insert("problem".into(), g.problem.clone().into());
    if g.network.ends_with(".json") {
        let net = crate::spec::topology::load_topology(Path::new(&g.network))?;
        t.insert("network".into(), network_table(&net));
    } else {
        t.insert("network".into(), g.network.clone().into());
    }
    if let Some(tie) = &g.ring_tie {
        if !["clockwise", "counterclockwise", "alternating"].contains(&tie.as_str()) {
            return Err(InputError::new(
                "<flags>",
                "--ring-tie",
                format!("`{tie}` is not clockwise, counterclockwise or alternating"),
            )
            .into());
        }
        t.insert("ring_tie".into(), tie.clone().into());
    }
    if !g.lengths.is_empty() {
        t.insert("lengths".into(), toml::Value::Array(g.lengths.iter().map(|&x| x.into()).collect()));
    }
    if let Some(routing) = &g.routes {
        let flag = |reason: String| InputError::new("<flags>", "--routes", reason);
        let net = Network::parse(&g.network).map_err(|r| InputError::new("<flags>", "--network", r))?;
        let trees = Routing::parse(routing).and_then(|r| r.trees(&net, 0)).map_err(flag)?;
        let lengths: Vec<u64> = [0].into_iter().chain(g.lengths.iter().map(|&l| l.max(0) as u64)).collect();
        let routes = tree_cover::routes(net.len(), &trees, &lengths);
        let node_list = |r: &Vec<usize>| toml::Value::Array(r.iter().map(|&v| (v as i64).into()).collect());
        t.insert("routes".into(), toml::Value::Array(routes.iter().map(node_list).collect()));
    }
    if let Some(c) = g.chunks {
        t.insert("chunks".into(), (c as i64).into());
    }
    if let Some(r) = g.root {
        t.insert("root".into(), (r as i64).into());
    }
    if !g.messages.is_empty() {
        let mut msgs = Vec::new();
        for (i, m) in g.messages.iter().enumerate() {
            let bad = || {
                InputError::new("<flags>", format!("--messages[{i}]"), format!("`{m}` is not SRC-DST:LEN"))
            };
            let (ends, len) = m.split_once(':').ok_or_else(bad)?;
            let (src, dst) = ends.split_once('-').ok_or_else(bad)?;
            let mut msg = toml::Table::new();
            msg.insert("src".into(), src.trim().parse::<i64>().map_err(|_| bad())?.into());
            msg.insert("dst".into(), dst.trim().parse::<i64>().map_err(|_| bad())?.into());
            msg.insert("length".into(), len.trim().parse::<i64>().map_err(|_| bad())?.into());
            msgs.push(toml::Value::Table(msg));
        }
        t.insert("messages".into(), toml::Value::Array(msgs));
    }
    let mut model = toml::Table::new();
    let mut set = |k: &str, v: toml::Value| {
        model.insert(k.into(), v);
    };
    if let Some(r) = &g.rule {
        set("rule", r.clone().into());
    }
    if let Some(p) = g.packet {
        set("packet", (p as i64).into());
    }
    if let Some(p) = &g.port {
        set("port", p.clone().into());
    }
    if g.virtual_schedule {
        set("virtual", true.into());
    }
    if g.distributed {
        set("gather", "distributed".into());
    }
    if let Some(c) = &g.capacity {
        set("capacity", c.clone().into());
    }
    // A collective problem name, or a rooted collective's flags or a network with bandwidths,
    // select the collective model.
    let collective = CollectiveKind::parse(&g.problem).is_some_and(|k| {
        !matches!(k, CollectiveKind::Broadcast | CollectiveKind::Scatter | CollectiveKind::Gather)
            || g.chunks.is_some()
            || g.root.is_some()
            || g.rounds.as_deref().is_some_and(|r| r != "on")
            || g.network.ends_with(".json")
            || Network::parse(&g.network).is_ok_and(|n| n.is_explicit())
    });
    if collective {
        set("kind", "collective".into());
    }
    match g.rounds.as_deref() {
        None => {}
        Some("on") if !collective => set("rounds", true.into()),
        Some(r) => {
            let budget = r.parse::<i64>().ok().filter(|&r| r >= 1 && collective).ok_or_else(|| {
                InputError::new(
                    "<flags>",
                    "--rounds",
                    format!("`{r}`: the collective model's budget R is an integer >= 1; the fat-tree round model is `--rounds` alone"),
                )
            })?;
            set("rounds", budget.into());
        }
    }
    if !model.is_empty() {
        t.insert("model".into(), toml::Value::Table(model));
    }
    let text = toml::to_string(&t).expect("a table serialises");
    let inst = parse_instance(&text, "<flags>", &name).map_err(|mut e| {
        e.field = flag_of(&e.field);
        e
    })?;
    refuse_inapplicable(g, &inst)?;
    Ok(inst)
}

/// An explicit network as the instance file's `[network]` table (docs/spec.md §2.4).
fn network_table(net: &Network) -> toml::Value {
    let mut t = toml::Table::new();
    t.insert("nodes".into(), (net.len() as i64).into());
    let arcs = net
        .arcs()
        .iter()
        .enumerate()
        .map(|(a, &(u, v))| {
            toml::Value::Array(vec![(u as i64).into(), (v as i64).into(), (net.bandwidth(a) as i64).into()])
        })
        .collect();
    t.insert("arcs".into(), toml::Value::Array(arcs));
    let nodes = |list: &[usize]| toml::Value::Array(list.iter().map(|&v| (v as i64).into()).collect());
    let switches = net
        .switches()
        .iter()
        .map(|sw| {
            let mut s = toml::Table::new();
            s.insert("sources".into(), nodes(&sw.sources));
            s.insert("destinations".into(), nodes(&sw.destinations));
            s.insert("bandwidth".into(), (sw.bandwidth as i64).into());
            s.insert("name".into(), sw.name.clone().into());
            toml::Value::Table(s)
        })
        .collect();
    t.insert("switches".into(), toml::Value::Array(switches));
    toml::Value::Table(t)
}

/// The `gen` flag that set an instance field (`model.capacity` → `--capacity`).
fn flag_of(field: &str) -> String {
    let key = field.strip_prefix("model.").unwrap_or(field);
    let key = key.split('[').next().unwrap_or(key);
    match key {
        "" => String::new(),
        "problem" => "PROBLEM".into(),
        "gather" => "--distributed".into(),
        key => format!("--{}", key.replace('_', "-")),
    }
}

/// Refuses a `gen` flag the generated instance would silently ignore, naming the flag.
fn refuse_inapplicable(g: &Request, inst: &Instance) -> Result<()> {
    let bufferless = matches!(inst.model, Model::Bufferless { .. });
    let store_forward = matches!(inst.model, Model::StoreForward { .. });
    let fat_tree = matches!(inst.model, Model::FatTree { .. });
    let collective = matches!(inst.model, Model::Collective { .. });
    let kind = inst.problem.kind();
    let flags = [
        ("--rule", g.rule.is_some(), store_forward),
        ("--packet", g.packet.is_some(), store_forward),
        ("--port", g.port.is_some(), bufferless),
        ("--virtual", g.virtual_schedule, bufferless),
        ("--distributed", g.distributed, kind == ProblemKind::Gather),
        ("--capacity", g.capacity.is_some(), fat_tree),
        ("--rounds", g.rounds.is_some(), fat_tree || collective),
        ("--chunks", g.chunks.is_some(), collective),
        ("--root", g.root.is_some(), matches!(&inst.problem, Problem::Collective(c) if c.kind.rooted())),
        (
            "--ring-tie",
            g.ring_tie.is_some(),
            matches!(inst.network.family(), Family::Ring(_) | Family::URing(_)),
        ),
        ("--lengths", !g.lengths.is_empty(), matches!(kind, ProblemKind::Scatter | ProblemKind::Gather)),
        ("--messages", !g.messages.is_empty(), kind == ProblemKind::Chatting),
        ("--routes", g.routes.is_some(), matches!(kind, ProblemKind::Scatter | ProblemKind::Gather)),
    ];
    match flags.iter().find(|(_, given, applies)| *given && !applies) {
        Some((flag, ..)) => Err(InputError::new(
            "<flags>",
            *flag,
            format!(
                "does not apply to {kind} on `{}` in model `{}`",
                inst.network.spec_string(),
                inst.model.name()
            ),
        )
        .into()),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::flag_of;

    #[test]
    fn an_instance_field_is_named_by_the_flag_that_set_it() {
        assert_eq!(flag_of("model.capacity"), "--capacity");
        assert_eq!(flag_of("ring_tie"), "--ring-tie");
        assert_eq!(flag_of("messages[2].src"), "--messages");
        assert_eq!(flag_of("model.gather"), "--distributed");
        assert_eq!(flag_of("problem"), "PROBLEM");
        assert_eq!(flag_of(""), "");
    }
}

//! Instance generation (`commsched gen`): an instance from a problem, a network and the
//! flags of its model, built as the instance file ([`InstanceFile`]) those flags describe and
//! validated exactly like a file; a flag the instance would silently ignore is refused, naming
//! it.

use crate::error::{InputError, Result};
use crate::heuristics::scatter_gather::tree_cover::{self, Routing};
use crate::spec::instance_file::{InstanceFile, ModelTable, NetworkTable, Rounds};
use crate::spec::{
    CollectiveKind, Family, GatherMode, Instance, MessageSpec, Model, ModelKind, Network, Problem,
    ProblemKind,
};
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

/// Builds the instance `commsched gen` writes: the [`InstanceFile`] the flags describe,
/// validated exactly like a file, with errors naming the flag.
pub fn generate(g: &Request) -> Result<Instance> {
    // A topology file names the instance by its stem (`allgather-dgx1` for `topo/dgx1.json`).
    let topology = g.network.ends_with(".json");
    let network_name = if topology {
        Path::new(&g.network).file_stem().map_or_else(String::new, |s| s.to_string_lossy().into_owned())
    } else {
        g.network.replace(':', "")
    };
    let name = g.name.clone().unwrap_or_else(|| format!("{}-{network_name}", g.problem));
    let network = if topology {
        let net = crate::spec::topology::load_topology(Path::new(&g.network))?;
        NetworkTable::value_of(&net)
    } else {
        g.network.clone().into()
    };
    let mut file = InstanceFile::new(g.problem.clone(), network);
    file.name = Some(name.clone());
    file.ring_tie = match &g.ring_tie {
        Some(tie) => Some(flag_value(tie).map_err(|_| {
            InputError::new(
                "<flags>",
                "--ring-tie",
                format!("`{tie}` is not clockwise, counterclockwise or alternating"),
            )
        })?),
        None => None,
    };
    file.lengths = (!g.lengths.is_empty()).then(|| g.lengths.clone());
    if let Some(routing) = &g.routes {
        let flag = |reason: String| InputError::new("<flags>", "--routes", reason);
        let net = Network::parse(&g.network).map_err(|r| InputError::new("<flags>", "--network", r))?;
        let trees = Routing::parse(routing).and_then(|r| r.trees(&net, 0)).map_err(flag)?;
        let lengths: Vec<u64> = [0].into_iter().chain(g.lengths.iter().map(|&l| l.max(0) as u64)).collect();
        file.routes = Some(tree_cover::routes(net.len(), &trees, &lengths));
    }
    file.chunks = g.chunks.map(|c| c as i64);
    file.root = g.root.map(|r| r as i64);
    if !g.messages.is_empty() {
        file.messages =
            Some(g.messages.iter().enumerate().map(|(i, m)| message(i, m)).collect::<Result<_>>()?);
    }
    // A collective problem name, or a rooted collective's flags or a network with bandwidths,
    // select the collective model.
    let collective = CollectiveKind::parse(&g.problem).is_some_and(|k| {
        !matches!(k, CollectiveKind::Broadcast | CollectiveKind::Scatter | CollectiveKind::Gather)
            || g.chunks.is_some()
            || g.root.is_some()
            || g.rounds.as_deref().is_some_and(|r| r != "on")
            || topology
            || Network::parse(&g.network).is_ok_and(|n| n.is_explicit())
    });
    let rounds = match g.rounds.as_deref() {
        None => None,
        Some("on") if !collective => Some(Rounds::Flag(true)),
        Some(r) => Some(Rounds::Budget(r.parse::<i64>().ok().filter(|&r| r >= 1 && collective).ok_or_else(
            || {
                InputError::new(
                    "<flags>",
                    "--rounds",
                    format!("`{r}`: the collective model's budget R is an integer >= 1; the fat-tree round model is `--rounds` alone"),
                )
            },
        )?)),
    };
    let port = match &g.port {
        Some(p) => Some(flag_value(p).map_err(|reason| InputError::new("<flags>", "--port", reason))?),
        None => None,
    };
    file.model = Some(ModelTable {
        kind: collective.then(|| ModelKind::Collective.key().into()),
        port,
        virtual_schedule: g.virtual_schedule.then_some(true),
        gather: g.distributed.then_some(GatherMode::Distributed),
        rule: g.rule.clone(),
        mode: None,
        packet: g.packet.map(|p| p as i64),
        capacity: g.capacity.clone(),
        rounds,
    });
    let inst = file.instance("<flags>", &name).map_err(|mut e| {
        e.field = flag_of(&e.field);
        e
    })?;
    refuse_inapplicable(g, &inst)?;
    Ok(inst)
}

/// A flag's value as the instance file's key would read it (`--port single`).
fn flag_value<T: serde::de::DeserializeOwned>(text: &str) -> std::result::Result<T, String> {
    toml::Value::String(text.into()).try_into().map_err(|e: toml::de::Error| e.message().to_string())
}

/// The chatting message of `--messages` entry `i`, `SRC-DST:LEN`.
fn message(i: usize, m: &str) -> Result<MessageSpec> {
    let bad = || InputError::new("<flags>", format!("--messages[{i}]"), format!("`{m}` is not SRC-DST:LEN"));
    let (ends, len) = m.split_once(':').ok_or_else(bad)?;
    let (src, dst) = ends.split_once('-').ok_or_else(bad)?;
    Ok(MessageSpec {
        src: src.trim().parse().map_err(|_| bad())?,
        dst: dst.trim().parse().map_err(|_| bad())?,
        length: len.trim().parse().map_err(|_| bad())?,
        path: None,
    })
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

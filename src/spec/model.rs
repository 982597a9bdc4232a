//! The three communication models of SPEC §4 with their options.

use super::capacity::Capacity;
use serde::{Deserialize, Serialize};
use std::fmt;

/// Port rule of the bufferless model (SPEC §4.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum Port {
    /// Paper 000: only the arc rule.
    #[default]
    Multi,
    /// Paper 001: each node sends at most one and receives at most one flit per step.
    Single,
}

/// How a gather schedule is checked (SPEC §4.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum GatherMode {
    /// Any starts.
    #[default]
    Centralized,
    /// Every node's start must follow from control messages it has received (001 ineq. (5)).
    Distributed,
}

/// Port and duplex rule of the store-and-forward model (SPEC §4.2, paper 003 §1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default, Hash)]
pub enum PortRule {
    /// Full-duplex, all-port: each arc carries at most one packet per step.
    #[default]
    #[serde(rename = "F*")]
    FStar,
    /// Half-duplex, all-port: each link carries at most one packet per step.
    #[serde(rename = "H*")]
    HStar,
    /// Full-duplex, one-port: each node sends at most one and receives at most one packet.
    #[serde(rename = "F1")]
    F1,
    /// Half-duplex, one-port: each node takes part in at most one transmission.
    #[serde(rename = "H1")]
    H1,
}

impl PortRule {
    /// All four rules.
    pub const ALL: [PortRule; 4] = [PortRule::FStar, PortRule::HStar, PortRule::F1, PortRule::H1];

    /// Parses `F*`, `H*`, `F1`, `H1`.
    pub fn parse(s: &str) -> Result<Self, String> {
        match s {
            "F*" => Ok(PortRule::FStar),
            "H*" => Ok(PortRule::HStar),
            "F1" => Ok(PortRule::F1),
            "H1" => Ok(PortRule::H1),
            _ => Err(format!("unknown port rule `{s}` (known: F*, H*, F1, H1)")),
        }
    }
}

impl fmt::Display for PortRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            PortRule::FStar => "F*",
            PortRule::HStar => "H*",
            PortRule::F1 => "F1",
            PortRule::H1 => "H1",
        })
    }
}

/// Whether a sender keeps what it sends (SPEC §4.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Hash)]
#[serde(rename_all = "kebab-case")]
pub enum Mode {
    /// Gossip: the sender keeps a copy.
    Copy,
    /// Total exchange: the packet leaves its sender and is consumed at its destination.
    Move,
}

/// A communication model with all its options.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Model {
    /// Bufferless wormhole-like routing (papers 000, 001), SPEC §4.1.
    Bufferless {
        /// Port rule.
        #[serde(default)]
        port: Port,
        /// Whether schedules are virtual schedules (000 §3).
        #[serde(default, rename = "virtual")]
        virtual_schedule: bool,
        /// How gather schedules are checked.
        #[serde(default)]
        gather: GatherMode,
    },
    /// Store-and-forward with unit packets (papers 003, 004), SPEC §4.2.
    StoreForward {
        /// Port and duplex rule.
        #[serde(default)]
        rule: PortRule,
        /// Copy (gossip) or move (total exchange).
        mode: Mode,
        /// Tokens per packet, p ≥ 1.
        #[serde(default = "one")]
        packet: usize,
    },
    /// Ideal fat-tree (paper 002), SPEC §4.3.
    FatTree {
        /// Channel capacities.
        capacity: Capacity,
        /// Whether schedules must follow the round model (002 §4.2).
        #[serde(default)]
        rounds: bool,
    },
    /// SCCL's collective model (docs/spec.md §4.4): chunks, store-and-forward one hop per
    /// step, multicast, link bandwidths and switch groups per round.
    Collective {
        /// The budget R of rounds over all steps (Σ r_s ≤ R); `None`: every step has one round.
        rounds: Option<u64>,
    },
}

fn one() -> usize {
    1
}

impl Model {
    /// Short name echoed in schedule files: `bufferless`, `virtual`, `store-forward`, `fat-tree`.
    pub fn name(&self) -> &'static str {
        match self {
            Model::Bufferless { virtual_schedule: true, .. } => "virtual",
            Model::Bufferless { .. } => "bufferless",
            Model::StoreForward { .. } => "store-forward",
            Model::FatTree { .. } => "fat-tree",
            Model::Collective { .. } => "collective",
        }
    }
}

/// A model without its numeric parameters (packet size, capacities): what an algorithm or an
/// encoder is stated for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum ModelClass {
    /// SPEC §4.1, real (not virtual) schedules.
    Bufferless {
        /// Port rule.
        port: Port,
        /// How gather schedules are checked.
        gather: GatherMode,
    },
    /// SPEC §4.1 virtual schedules (paper 000 §3).
    Virtual {
        /// Port rule.
        port: Port,
    },
    /// SPEC §4.2.
    StoreForward {
        /// Port and duplex rule.
        rule: PortRule,
        /// Copy or move.
        mode: Mode,
    },
    /// SPEC §4.3.
    FatTree {
        /// Whether the round model applies.
        rounds: bool,
    },
    /// docs/spec.md §4.4.
    Collective,
}

impl Model {
    /// The model's class.
    pub fn class(&self) -> ModelClass {
        match *self {
            Model::Bufferless { port, virtual_schedule: true, .. } => ModelClass::Virtual { port },
            Model::Bufferless { port, gather, .. } => ModelClass::Bufferless { port, gather },
            Model::StoreForward { rule, mode, .. } => ModelClass::StoreForward { rule, mode },
            Model::FatTree { rounds, .. } => ModelClass::FatTree { rounds },
            Model::Collective { .. } => ModelClass::Collective,
        }
    }
}

impl fmt::Display for ModelClass {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ModelClass::Bufferless { port, gather } => {
                write!(f, "bufferless {}-port, {} gather", port.name(), gather.name())
            }
            ModelClass::Virtual { port } => write!(f, "virtual {}-port", port.name()),
            ModelClass::StoreForward { rule, mode } => write!(f, "store-and-forward {rule} {}", mode.name()),
            ModelClass::FatTree { rounds: false } => f.write_str("fat-tree, pipelined"),
            ModelClass::FatTree { rounds: true } => f.write_str("fat-tree, round model"),
            ModelClass::Collective => f.write_str("collective (chunks, bandwidths, rounds)"),
        }
    }
}

impl Port {
    /// `multi` or `single`.
    pub fn name(self) -> &'static str {
        match self {
            Port::Multi => "multi",
            Port::Single => "single",
        }
    }
}

impl GatherMode {
    /// `centralized` or `distributed`.
    pub fn name(self) -> &'static str {
        match self {
            GatherMode::Centralized => "centralized",
            GatherMode::Distributed => "distributed",
        }
    }
}

impl Mode {
    /// `copy` or `move`.
    pub fn name(self) -> &'static str {
        match self {
            Mode::Copy => "copy",
            Mode::Move => "move",
        }
    }
}

impl fmt::Display for Model {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            // The gather mode only matters for a distributed gather (every other problem and a
            // centralized gather share the same rules), so it is named only then.
            Model::Bufferless { port, virtual_schedule, gather } => write!(
                f,
                "{} ({:?}-port{})",
                if *virtual_schedule { "virtual" } else { "bufferless" },
                port,
                if *gather == GatherMode::Distributed { ", Distributed gather" } else { "" }
            ),
            Model::StoreForward { rule, mode, packet } => {
                write!(f, "store-and-forward {rule}, {mode:?}, p = {packet}")
            }
            Model::FatTree { capacity, rounds } => {
                write!(
                    f,
                    "ideal fat-tree, w = {}{}",
                    capacity.spec_string(),
                    if *rounds { ", round model" } else { "" }
                )
            }
            Model::Collective { rounds: Some(r) } => write!(f, "collective, R = {r}"),
            Model::Collective { rounds: None } => f.write_str("collective, one round per step"),
        }
    }
}

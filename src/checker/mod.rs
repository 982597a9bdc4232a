//! The checker (SPEC §4, §6): the only place that can declare a schedule admissible.
//!
//! [`check`] returns a [`Verdict`]: either a [`Measure`] (length and metrics; it can only be built
//! inside this module) or every [`Violation`] with its rule, step, place and the colliding items.
//! It never trusts the producer of a schedule: [`accept`] is the only way to a [`Checked`], an
//! admissible schedule kept together with its measure and its [`Producer`].

pub mod bufferless;
pub mod collective;
pub mod events;
pub mod fat_tree;
pub mod itinerary;
pub mod packing;
pub mod store_forward;
pub mod symmetry;

use crate::error::{Error, Result};
use crate::spec::{Instance, Model, Schedule};
use serde::Serialize;
use std::fmt;

/// The rule a violation breaks (SPEC §4, §6).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Rule {
    /// SPEC §4.1 (2.1): no arc carries two flits in one step; §4.2 F*: one packet per arc.
    ArcRule,
    /// SPEC §4.1 single-port / §4.2 F1: at most one send and one receive per node and step.
    PortRule,
    /// SPEC §4.2 H*: at most one packet per link per step.
    LinkRule,
    /// SPEC §4.2 H1: each node takes part in at most one transmission per step.
    DuplexRule,
    /// A transmission or path uses a pair of nodes that is not an arc.
    NotAnArc,
    /// SPEC §4.2: a node sends a token it does not hold at the end of the previous step.
    NotHeld,
    /// SPEC §4.2: a packet carries more than p tokens (or none).
    PacketSize,
    /// SPEC §6: something is not delivered.
    Incomplete,
    /// SPEC §6: a schedule entry names an unknown message, token or node.
    UnknownItem,
    /// A message is scheduled twice, or a step number is below 1.
    BadEntry,
    /// SPEC §4.1 distributed gather: a node starts before its control messages allow.
    Distributed,
    /// SPEC §4.3: a channel carries more messages than its capacity.
    CapacityRule,
    /// SPEC §4.3: a processor submits or receives more than one message in a step.
    ProcessorRule,
    /// SPEC §4.3: a message combines ranges that are not adjacent, or sends what is not held.
    PayloadRule,
    /// SPEC §4.3 round model: a send breaks the round structure.
    RoundRule,
    /// docs/spec.md §4.4: a link or switch carries more chunks than its bandwidth times the
    /// step's rounds.
    BandwidthRule,
    /// docs/spec.md §4.4: the steps use more rounds than the budget R.
    RoundBudget,
    /// docs/spec.md §4.4: a node receives a chunk twice, or one it started with.
    ReceiveOnce,
    /// docs/spec.md §4.4, combining collectives: a received partial reduction and the
    /// receiver's own share contributors, so combining them counts those twice.
    CountedTwice,
    /// docs/msccl.md, runtime reading: a reduction step combines two different chunks.
    MixedChunks,
    /// docs/msccl.md, runtime reading: a runtime cannot run the file to its end (a send never
    /// received, a receive nothing feeds, a deadlock, a read before its write, a race).
    DoesNotRun,
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Rule::ArcRule => "arc rule",
            Rule::PortRule => "port rule",
            Rule::LinkRule => "link rule",
            Rule::DuplexRule => "duplex rule",
            Rule::NotAnArc => "not an arc",
            Rule::NotHeld => "not held",
            Rule::PacketSize => "packet size",
            Rule::Incomplete => "incomplete delivery",
            Rule::UnknownItem => "unknown item",
            Rule::BadEntry => "bad entry",
            Rule::Distributed => "distributed start",
            Rule::CapacityRule => "capacity rule",
            Rule::ProcessorRule => "processor rule",
            Rule::PayloadRule => "payload rule",
            Rule::RoundRule => "round rule",
            Rule::BandwidthRule => "bandwidth rule",
            Rule::RoundBudget => "round budget",
            Rule::ReceiveOnce => "receive once",
            Rule::CountedTwice => "counted twice",
            Rule::MixedChunks => "mixed chunks",
            Rule::DoesNotRun => "does not run",
        })
    }
}

/// One violation: the rule, the step (when there is one), the place (arc, link, node or
/// channel) and a description naming the colliding items.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Violation {
    /// The rule broken.
    pub rule: Rule,
    /// The step, if the violation happens in one.
    pub step: Option<i64>,
    /// Where: `arc (3,4)`, `link {3,4}`, `node 5`, `channel up(2,1)`, `message 7`.
    pub place: String,
    /// What collides, e.g. `carries flit 2 of message 5 and flit 0 of message 9`.
    pub detail: String,
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.step {
            Some(t) => write!(f, "{}: step {t}, {} {}", self.rule, self.place, self.detail),
            None => write!(f, "{}: {} {}", self.rule, self.place, self.detail),
        }
    }
}

/// Metrics of an admissible schedule (SPEC §6).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize)]
pub struct Metrics {
    /// Events checked (flit-arc crossings, packet hops, channel hops).
    pub events: u64,
    /// Store-and-forward: the largest number of tokens any node holds (in transit, not
    /// counting tokens it originated and still holds in move mode... see the model docs).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub peak_buffer: Option<u64>,
    /// Store-and-forward copy mode: deliveries of a token a node already held (paper 003 §2).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub duplicates: Option<u64>,
    /// Arc- (or link-) steps used, out of arcs x length.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub link_use: Option<u64>,
    /// Model-specific extras as (name, value), e.g. `virtual duration S`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub extra: Vec<(String, String)>,
}

impl Metrics {
    /// The model-specific extra named `key` (`rounds`, `bandwidth cost R/C`, …).
    pub fn value(&self, key: &str) -> Option<&str> {
        self.extra.iter().find(|(k, _)| k == key).map(|(_, v)| v.as_str())
    }

    /// R, the rounds a collective schedule uses, as the collective checker measures them.
    pub fn rounds(&self) -> Option<u64> {
        self.value("rounds")?.parse().ok()
    }
}

/// What the checker measured on an admissible schedule: its length and metrics. Only this
/// module can build one.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Measure {
    length: u64,
    metrics: Metrics,
}

impl Measure {
    pub(crate) fn new(length: u64, metrics: Metrics) -> Self {
        Self { length, metrics }
    }

    /// The length: last step holding an event − first step holding an event + 1, i.e. the last
    /// step of the normalised schedule (0 for an empty schedule).
    pub fn length(&self) -> u64 {
        self.length
    }

    /// The metrics.
    pub fn metrics(&self) -> &Metrics {
        &self.metrics
    }
}

/// Steps beyond ±2^40 are rejected before any arithmetic on them (no overflow on bad input).
pub(crate) const MAX_STEP: i64 = 1 << 40;

/// The length of a schedule whose events lie in steps `first..=last` (docs/spec.md §1.2):
/// `last − first + 1`, the same for the schedule and every shifted copy; 0 without events.
pub(crate) fn span_length(first: Option<i64>, last: Option<i64>) -> u64 {
    match (first, last) {
        (Some(first), Some(last)) if last >= first => (last - first + 1) as u64,
        _ => 0,
    }
}

/// The checker's verdict.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "verdict", rename_all = "kebab-case")]
pub enum Verdict {
    /// Admissible, with length and metrics.
    Admissible(Measure),
    /// Every violation found.
    Inadmissible(Vec<Violation>),
}

impl Verdict {
    /// The measure, if admissible.
    pub fn admissible(&self) -> Option<&Measure> {
        match self {
            Verdict::Admissible(c) => Some(c),
            Verdict::Inadmissible(_) => None,
        }
    }

    /// The violations (empty if admissible).
    pub fn violations(&self) -> &[Violation] {
        match self {
            Verdict::Admissible(_) => &[],
            Verdict::Inadmissible(v) => v,
        }
    }

    /// Builds a verdict from collected violations.
    pub(crate) fn from_parts(violations: Vec<Violation>, length: u64, metrics: Metrics) -> Self {
        if violations.is_empty() {
            Verdict::Admissible(Measure::new(length, metrics))
        } else {
            Verdict::Inadmissible(violations)
        }
    }
}

/// Who produced a schedule: the checker names it when it rejects one, and reports say whose
/// schedule a length is.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(tag = "kind", content = "name", rename_all = "kebab-case")]
pub enum Producer {
    /// A registered algorithm, by its registered name.
    Algorithm(#[serde(deserialize_with = "crate::names::name")] crate::names::Name),
    /// An exact backend's witness, by the backend's name.
    Exact(#[serde(deserialize_with = "crate::names::name")] crate::names::Name),
    /// A paper's own schedule (a transcribed figure), by its file.
    Paper(String),
    /// A schedule a user gave, by its file.
    User(String),
    /// The witness of a certificate folder (docs/spec.md §7.1), by the folder.
    Certificate(String),
}

impl fmt::Display for Producer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Producer::Algorithm(name) => write!(f, "algorithm {name}"),
            Producer::Exact(backend) => write!(f, "exact backend {backend}"),
            Producer::Paper(file) => write!(f, "paper schedule {file}"),
            Producer::User(file) => write!(f, "schedule {file}"),
            Producer::Certificate(dir) => write!(f, "certificate folder {dir}"),
        }
    }
}

/// An admissible schedule together with what the checker measured on it and who produced it.
/// Only [`accept`] builds one, so a length can never drift from the schedule it was measured on.
/// Clones share the schedule (an itinerary schedule can hold gigabytes).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Checked {
    schedule: std::sync::Arc<Schedule>,
    measure: Measure,
    producer: Producer,
}

impl Checked {
    /// The schedule.
    pub fn schedule(&self) -> &Schedule {
        &self.schedule
    }

    /// The schedule, consuming the result.
    pub fn into_schedule(self) -> Schedule {
        std::sync::Arc::try_unwrap(self.schedule).unwrap_or_else(|shared| (*shared).clone())
    }

    /// The checked length.
    pub fn length(&self) -> u64 {
        self.measure.length
    }

    /// The metrics.
    pub fn metrics(&self) -> &Metrics {
        &self.measure.metrics
    }

    /// Who produced it.
    pub fn producer(&self) -> &Producer {
        &self.producer
    }
}

/// The first few violations as one line, with a count of the rest.
fn summarise(violations: &[Violation]) -> String {
    let shown: Vec<String> = violations.iter().take(3).map(|v| v.to_string()).collect();
    let more = violations.len().saturating_sub(shown.len());
    format!("{}{}", shown.join("; "), if more > 0 { format!(" (and {more} more)") } else { String::new() })
}

/// Checks a schedule a producer emitted and keeps it with its measure: the only way to build a
/// [`Checked`]. A rejection is [`Error::Rejected`] naming the producer and the first violations:
/// a bug in the producer, since the checker never trusts it.
pub fn accept(instance: &Instance, schedule: Schedule, producer: Producer) -> Result<Checked> {
    judge(instance, schedule, producer).map_err(|(producer, violations)| Error::Rejected {
        producer: producer.to_string(),
        reason: summarise(&violations),
    })
}

/// Checks a schedule and keeps it as a [`Checked`] when admissible; otherwise returns the
/// producer with every violation (for callers that report violations rather than fail).
pub fn judge(
    instance: &Instance,
    schedule: Schedule,
    producer: Producer,
) -> std::result::Result<Checked, (Producer, Vec<Violation>)> {
    match check(instance, &schedule) {
        Verdict::Admissible(measure) => Ok(Checked { schedule: schedule.into(), measure, producer }),
        Verdict::Inadmissible(violations) => Err((producer, violations)),
    }
}

/// Checks a schedule some producer emitted without keeping it: its [`Measure`], or
/// [`Error::Rejected`] as in [`accept`].
pub fn check_produced(instance: &Instance, schedule: &Schedule, producer: &str) -> Result<Measure> {
    match check(instance, schedule) {
        Verdict::Admissible(measure) => Ok(measure),
        Verdict::Inadmissible(violations) => {
            Err(Error::Rejected { producer: producer.to_string(), reason: summarise(&violations) })
        }
    }
}

/// Checks `schedule` against `instance` (SPEC §4) and returns the verdict.
pub fn check(instance: &Instance, schedule: &Schedule) -> Verdict {
    match (&instance.model, schedule) {
        (Model::Bufferless { virtual_schedule: false, .. }, Schedule::Bufferless { .. }) => {
            bufferless::check(instance, schedule)
        }
        (Model::Bufferless { virtual_schedule: true, .. }, Schedule::Virtual(starts)) => {
            bufferless::check_virtual(instance, starts)
        }
        (Model::StoreForward { .. }, Schedule::StoreForward(steps)) => store_forward::check(instance, steps),
        (Model::StoreForward { .. }, Schedule::Itineraries(it)) => itinerary::check(instance, it),
        (Model::FatTree { .. }, Schedule::FatTree(sends)) => fat_tree::check(instance, sends),
        (Model::Collective { .. }, Schedule::Collective { steps, rounds }) => {
            collective::check(instance, steps, rounds)
        }
        (m, s) => Verdict::Inadmissible(vec![Violation {
            rule: Rule::BadEntry,
            step: None,
            place: "schedule".into(),
            detail: format!("is a {} schedule but the instance's model is {}", s.model_name(), m.name()),
        }]),
    }
}

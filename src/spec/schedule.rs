//! Schedules (SPEC §5): the in-memory form every producer builds and the checker reads, and its
//! JSON file form.

use super::itinerary::Itineraries;
use super::network::Node;
use serde::{Deserialize, Serialize};

/// The start of one bufferless message: flit h crosses the k-th arc of its path in step
/// `start + h + k` (SPEC §4.1). For a virtual schedule, the virtual start.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Start {
    /// Message id (see [`crate::spec::Message::id`]).
    pub msg: usize,
    /// Step of the first flit on the first arc.
    pub start: i64,
}

/// Kinds of control message used by the distributed gather protocols (paper 001 §3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ControlKind {
    /// Shoulder-tap wake-up call "TRANSMIT AFTER >= s STEPS", written (s).
    WakeUp,
    /// Synchronisation token `[*]` (transmission certification, phase 1).
    Token,
    /// Certificate `<c>` = (c, n) (phase 2).
    Certificate,
    /// Order "TRANSMIT AFTER s STEPS" (phase 3).
    Order,
}

/// A one-flit control message; it follows the atlas path from `from` to `to` and obeys the
/// same rules as data (SPEC §4.1).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Control {
    /// Kind.
    pub kind: ControlKind,
    /// Sender.
    pub from: Node,
    /// Receiver.
    pub to: Node,
    /// Step in which it crosses its first arc.
    pub start: i64,
    /// The value it carries (wake-up s, certificate c, order s), if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value: Option<i64>,
    /// Second value (a certificate's stream length n), if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value2: Option<i64>,
}

/// One store-and-forward transmission: a packet of up to p tokens over arc (from, to).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Transmission {
    /// Sender.
    pub from: Node,
    /// Receiver.
    pub to: Node,
    /// Tokens carried: packet ids for total exchange, origin nodes for gossip.
    pub tokens: Vec<usize>,
}

/// One fat-tree message: submitted by `from` in `step`, received by `to` at the end of step
/// `step + 2h - 1` (SPEC §4.3). The payload is the contiguous index range `[lo, hi]` it combines.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FatTreeSend {
    /// Submission step.
    pub step: i64,
    /// Sending processor.
    pub from: Node,
    /// Receiving processor.
    pub to: Node,
    /// `[lo, hi]`: the product a_lo * ... * a_hi (broadcast carries `[0, 0]`).
    pub payload: [usize; 2],
}

impl FatTreeSend {
    /// The step at whose end it is received.
    pub fn arrival(&self) -> i64 {
        super::network::fat_tree_arrival(self.from, self.to, self.step)
    }
}

/// A schedule of any model (SPEC §5).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Schedule {
    /// Bufferless starts plus control messages.
    Bufferless {
        /// One start per nonnull message.
        starts: Vec<Start>,
        /// Control messages (distributed protocols).
        control: Vec<Control>,
    },
    /// Virtual starts (paper 000 §3).
    Virtual(Vec<Start>),
    /// Store-and-forward transmissions, step 1 first.
    StoreForward(Vec<Vec<Transmission>>),
    /// A store-and-forward schedule held compactly as per-packet itineraries (total exchange
    /// on a linear array or ring; [`super::itinerary`]).
    Itineraries(Itineraries),
    /// Fat-tree sends.
    FatTree(Vec<FatTreeSend>),
    /// The collective model (docs/spec.md §4.4): per step, the chunks sent on each arc
    /// (`tokens` are chunk ids) and the step's rounds r_s.
    Collective {
        /// Transmissions, step 1 first.
        steps: Vec<Vec<Transmission>>,
        /// r_s for every step (`rounds.len() == steps.len()`).
        rounds: Vec<u64>,
    },
}

impl Schedule {
    /// A collective schedule run backwards on the reversed network: step s of S becomes step
    /// S + 1 − s with its rounds, and u → v becomes v → u (docs/spec.md §3.1, the
    /// non-combining dual of a reduction). Other schedules are returned unchanged.
    pub fn reversed_collective(self) -> Schedule {
        let Schedule::Collective { mut steps, mut rounds } = self else { return self };
        steps.reverse();
        rounds.reverse();
        for step in &mut steps {
            for tr in step.iter_mut() {
                std::mem::swap(&mut tr.from, &mut tr.to);
            }
            step.sort_by_key(|tr| (tr.from, tr.to));
        }
        Schedule::Collective { steps, rounds }
    }

    /// The model name echoed in the file.
    pub fn model_name(&self) -> &'static str {
        match self {
            Schedule::Bufferless { .. } => "bufferless",
            Schedule::Virtual(_) => "virtual",
            Schedule::StoreForward(_) | Schedule::Itineraries(_) => "store-forward",
            Schedule::FatTree(_) => "fat-tree",
            Schedule::Collective { .. } => "collective",
        }
    }

    /// Number of schedule entries (starts, control messages, transmissions or sends).
    pub fn entries(&self) -> usize {
        match self {
            Schedule::Bufferless { starts, control } => starts.len() + control.len(),
            Schedule::Virtual(v) => v.len(),
            Schedule::StoreForward(steps) => steps.iter().map(Vec::len).sum(),
            Schedule::Itineraries(it) => it.hops(),
            Schedule::FatTree(s) => s.len(),
            Schedule::Collective { steps, .. } => steps.iter().map(Vec::len).sum(),
        }
    }

    /// The explicit form, for files, pictures and transformations: itineraries expanded to
    /// their steps ([`Itineraries::explicit_steps`], refused beyond `--max-events`), every
    /// other schedule as it is.
    pub fn explicit(&self) -> Result<std::borrow::Cow<'_, Schedule>, crate::error::InputError> {
        match self {
            Schedule::Itineraries(it) => {
                Ok(std::borrow::Cow::Owned(Schedule::StoreForward(it.explicit_steps()?)))
            }
            other => Ok(std::borrow::Cow::Borrowed(other)),
        }
    }
}

/// The JSON file form of a schedule (SPEC §5). Exactly one body field is present.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct ScheduleFile {
    /// Echoes the instance's problem.
    pub problem: String,
    /// Echoes the instance's model name.
    pub model: String,
    /// Bufferless starts.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub starts: Option<Vec<Start>>,
    /// Bufferless control messages.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub control: Option<Vec<Control>>,
    /// Scatter dispatch order (message ids); expands to starts back to back (paper 001 (1)).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub order: Option<Vec<usize>>,
    /// Virtual starts.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub virtual_starts: Option<Vec<Start>>,
    /// Store-and-forward steps.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub steps: Option<Vec<Vec<Transmission>>>,
    /// Fat-tree sends.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sends: Option<Vec<FatTreeSend>>,
    /// The collective model: the rounds r_s of every step of `steps` (1 each when absent).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rounds: Option<Vec<u64>>,
}

//! # Start-time schedules (bufferless, docs/spec.md §4.1)
//!
//! Paper 000 (chatting, §2 (2.1)–(2.4); virtual schedules §3 (3.1)–(3.5): S_opt, CHAT-14) and
//! paper 001 (scatter and centralized gather, §1.2A single-port; SG-4 is the scatter optimum this
//! encoding certifies). A message M with designated path e_0..e_{d−1} and length ℓ is scheduled
//! by one integer, its start: flit h crosses e_k in step s(M) + h + k (a virtual schedule
//! occupies every arc of the path in steps v(M)..v(M) + ℓ − 1). One mechanism serves the three
//! registry entries: real chatting schedules, virtual chatting schedules, scatter and centralized
//! gather.
//!
//! ## Formulation for a horizon T
//!
//! - `y_M{m}_s{τ}` ∈ {0,1}: message m starts in step τ, for the starts that keep it inside steps
//!   1..=T (its **window**): real, 1 ≤ τ ≤ T − (ℓ + d − 2) (the last flit crosses the last arc in
//!   step τ + ℓ + d − 2); virtual, 1 ≤ τ ≤ T − ℓ + 1.
//! - `one_M{m}`: Σ_τ y(m, τ) = 1.
//! - `arc_a{u}_{v}_t{t}`: per arc and step, Σ of the y's that occupy the arc in that step ≤ 1
//!   (paper 000 (2.1), (3.1)); a path that uses an arc twice counts it twice.
//! - under `port = single`, real schedules only (paper 001 §1.2A): `send_v{v}_t{t}` and
//!   `recv_v{v}_t{t}`, per node and step at most one flit sent over all its out-arcs and one
//!   received over all its in-arcs.
//!
//! Rows with a single term are left out (a boolean is ≤ 1 anyway). Every start is ≥ 1 and every
//! event lies in 1..=T, so a decoded real schedule has length (its last step, §1.2) ≤ T and a
//! virtual one (max − min + 1) ≤ T; conversely every schedule of length ≤ T, normalised to begin
//! in step 1, is an assignment. The encoding is therefore exact at every horizon.
//!
//! Distributed gather (paper 001 §3, control messages and inequality (5)) is not encoded.

use super::time_expanded::span;
use super::{Encoder, EncoderEntry, Encoding, Event, Shape};
use crate::exact::ir::{Linear, Model, Sense, VarId};
use crate::spec::{
    Applicability, GatherMode, Instance, Message, Model as CommModel, ModelClass, Port, ProblemKind, Start,
};

/// Real chatting schedules, multi- and single-port (paper 000 §2).
pub const CHATTING: EncoderEntry = EncoderEntry {
    name: "chatting-starts",
    source: "000 §2 (2.1)-(2.4): optimum chatting schedules T_opt, any network and designated paths",
    applicability: Applicability {
        problems: &[ProblemKind::Chatting],
        models: &[
            ModelClass::Bufferless { port: Port::Multi, gather: GatherMode::Centralized },
            ModelClass::Bufferless { port: Port::Single, gather: GatherMode::Centralized },
        ],
        families: &[],
        refine: None,
        model_note: "",
    },
    build: |instance| Box::new(Starts::new(instance)),
};

/// Virtual chatting schedules: rectangle compaction (paper 000 §3, S_opt; CHAT-14).
pub const VIRTUAL: EncoderEntry = EncoderEntry {
    name: "virtual-starts",
    source: "000 §3 (3.1)-(3.5): optimum virtual schedules S_opt (CHAT-14 on unit-length ULAs)",
    applicability: Applicability {
        problems: &[ProblemKind::Chatting],
        models: &[ModelClass::Virtual { port: Port::Multi }, ModelClass::Virtual { port: Port::Single }],
        families: &[],
        refine: None,
        model_note: "",
    },
    build: |instance| Box::new(Starts::new(instance)),
};

/// Scatter and centralized gather (paper 001 §2, §3; SG-4).
pub const SCATTER_GATHER: EncoderEntry = EncoderEntry {
    name: "scatter-gather-starts",
    source: "001 §2 (SG-4: the single-port scatter optimum), §3 centralized gather: any start times",
    applicability: Applicability {
        problems: &[ProblemKind::Scatter, ProblemKind::Gather],
        models: &[
            ModelClass::Bufferless { port: Port::Single, gather: GatherMode::Centralized },
            ModelClass::Bufferless { port: Port::Single, gather: GatherMode::Distributed },
        ],
        families: &[],
        refine: Some(|instance| match instance.model.class() {
            ModelClass::Bufferless { gather: GatherMode::Distributed, .. }
                if instance.problem.kind() == ProblemKind::Gather =>
            {
                Err("distributed gather (control messages, paper 001 §3 inequality (5)) is not encoded; \
                     only centralized gather (any start times) is"
                    .into())
            }
            _ => Ok(()),
        }),
        model_note: "paper 001 is single-port (§1.2A)",
    },
    build: |instance| Box::new(Starts::new(instance)),
};

/// The start-time encoder (see the module documentation).
pub struct Starts {
    /// The messages with their paths, or why they cannot be resolved.
    messages: Result<Vec<Message>, String>,
    virtual_schedule: bool,
    single_port: bool,
    arcs: Vec<(usize, usize)>,
    nodes: usize,
}

impl Starts {
    /// Resolves the messages' designated paths.
    pub fn new(instance: &Instance) -> Self {
        let (virtual_schedule, single_port) = match instance.model {
            CommModel::Bufferless { port, virtual_schedule, .. } => (virtual_schedule, port == Port::Single),
            // Instance validation pairs chatting, scatter and gather with the bufferless model.
            _ => (false, false),
        };
        Self {
            messages: instance.messages().map_err(|e| e.to_string()),
            virtual_schedule,
            single_port: single_port && !virtual_schedule,
            arcs: instance.network.arcs().to_vec(),
            nodes: instance.network.len(),
        }
    }

    fn messages(&self) -> &[Message] {
        self.messages.as_deref().unwrap_or_default()
    }

    /// The last start of message `m` that keeps it inside steps 1..=`horizon` (0: none).
    fn last_start(&self, m: &Message, horizon: u64) -> u64 {
        let steps = if self.virtual_schedule { m.len } else { m.len + m.arcs.len() as u64 - 1 };
        (horizon + 1).saturating_sub(steps)
    }

    /// The resources message `m` started in step `tau` occupies, one entry per flit-crossing:
    /// (resource, step). Resources: arc a = a; under the single-port rule, node v's sending port
    /// = |A| + v and its receiving port = |A| + n + v.
    fn occupies(&self, m: &Message, tau: u64) -> Vec<(usize, u64)> {
        let mut out = Vec::new();
        for (k, &a) in m.arcs.iter().enumerate() {
            let first = if self.virtual_schedule { tau } else { tau + k as u64 };
            for t in first..first + m.len {
                out.push((a, t));
                if self.single_port {
                    let (u, v) = self.arcs[a];
                    out.push((self.arcs.len() + u, t));
                    out.push((self.arcs.len() + self.nodes + v, t));
                }
            }
        }
        out
    }

    /// A row's name from its resource index and step.
    fn row_name(&self, resource: usize, t: u64) -> String {
        let a = self.arcs.len();
        match resource {
            r if r < a => format!("arc_a{}_{}_t{t}", self.arcs[r].0, self.arcs[r].1),
            r if r < a + self.nodes => format!("send_v{}_t{t}", r - a),
            r => format!("recv_v{}_t{t}", r - a - self.nodes),
        }
    }
}

impl Encoder for Starts {
    fn impossible(&self) -> Option<String> {
        self.messages.as_ref().err().cloned()
    }

    fn min_variables(&self, horizon: u64) -> usize {
        self.variables(horizon)
    }

    fn variables(&self, horizon: u64) -> usize {
        self.messages().iter().map(|m| span(1, self.last_start(m, horizon))).sum()
    }

    fn encode(&self, horizon: u64) -> Encoding {
        let kind = if self.virtual_schedule { "virtual" } else { "real" };
        let mut model = Model::new(format!(
            "bufferless start times ({kind} schedules{}), {} messages, horizon T = {horizon}",
            if self.single_port { ", single-port" } else { "" },
            self.messages().len()
        ));
        let resources = self.arcs.len() + 2 * self.nodes;
        // rows[r][t]: the start variables occupying resource r in step t (t = 1..=T).
        let mut rows: Vec<Vec<Vec<VarId>>> = vec![vec![Vec::new(); horizon as usize + 1]; resources];
        let mut events = Vec::new();
        for m in self.messages() {
            let mut starts = Vec::new();
            for tau in 1..=self.last_start(m, horizon) {
                let y = model.bool_var(format!("y_M{}_s{tau}", m.id));
                starts.push(y);
                events.push((y, Event::Start(Start { msg: m.id, start: tau as i64 })));
                for (r, t) in self.occupies(m, tau) {
                    rows[r][t as usize].push(y);
                }
            }
            // No start at all leaves the row 0 = 1: the model's own contradiction.
            model.constrain(format!("one_M{}", m.id), &Linear::sum(&starts), Sense::Eq, 1);
        }
        for (r, steps) in rows.iter().enumerate() {
            for (t, vars) in steps.iter().enumerate().filter(|(_, vars)| vars.len() > 1) {
                model.constrain(self.row_name(r, t as u64), &Linear::sum(vars), Sense::Le, 1);
            }
        }
        let shape = if self.virtual_schedule { Shape::Virtual } else { Shape::Bufferless };
        Encoding { horizon, model, shape, events }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spec::io::parse_instance;

    fn chatting(net: &str, model: &str, messages: &[(usize, usize, u64)]) -> Instance {
        let mut text = format!("problem = \"chatting\"\nnetwork = \"{net}\"\n[model]\n{model}\n");
        for (src, dst, len) in messages {
            text += &format!("[[messages]]\nsrc = {src}\ndst = {dst}\nlength = {len}\n");
        }
        parse_instance(&text, "<test>", "t").unwrap()
    }

    /// Windows: a real message of ℓ = 2 over d = 3 arcs fits at horizon T from step 1 to
    /// T − 3; a virtual one to T − 1.
    #[test]
    fn windows_keep_every_event_inside_the_horizon() {
        let real = chatting("ula:4", "kind = \"bufferless\"", &[(0, 3, 2)]);
        let virt = chatting("ula:4", "kind = \"bufferless\"\nvirtual = true", &[(0, 3, 2)]);
        assert_eq!(Starts::new(&real).variables(6), 3);
        assert_eq!(Starts::new(&virt).variables(6), 5);
        assert_eq!(Starts::new(&real).variables(3), 0);
        assert!(Starts::new(&real).encode(3).model.contradiction().is_some());
        assert!(Starts::new(&real).encode(4).model.contradiction().is_none());
    }

    /// The size guard's count is the built model's.
    #[test]
    fn variable_counts_match_the_model() {
        let inst = chatting("ring:5", "kind = \"bufferless\"\nport = \"single\"", &[(0, 2, 2), (1, 4, 1)]);
        let enc = Starts::new(&inst);
        for t in [0, 2, 5, 9] {
            assert_eq!(enc.variables(t), enc.encode(t).model.variables.len(), "T = {t}");
        }
    }
}

//! Encoders: an instance and a horizon T become an [`ir::Program`](super::ir::Program) whose
//! assignments are exactly the admissible schedules of length ≤ T (up to moves that are never
//! needed, see each encoder), and an assignment decodes back into a [`Schedule`] of any model.
//!
//! One registry, [`ENCODERS`]: each entry declares what it supports ([`Applicability`]) and
//! builds the [`Encoder`] that owns both directions. Adding an encoder is one file plus one line
//! in [`ENCODERS`]. Encoders never see a solver. The time-expanded machinery that
//! store-and-forward problems share (windows, port rules, packets of p tokens) is
//! [`time_expanded`].

pub mod bufferless;
pub mod collective;
pub mod fat_tree;
pub mod gossip;
pub mod time_expanded;
pub mod total_exchange;

use super::BackendKind;
use super::ir::{Linear, Program, Sense, VarId};
use crate::error::{Error, Result};
use crate::spec::reversal::reverse_broadcast;
use crate::spec::{
    Applicability, Control, ControlKind, FatTreeSend, Instance, Node, Schedule, Start, Transmission,
};

/// What a variable set to 1 means in the schedule.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Event {
    /// Store-and-forward: `token` crosses arc `(from, to)` in `step`.
    Hop {
        /// The token (total exchange: packet id src·n + dst; gossip: origin node).
        token: usize,
        /// Sender.
        from: Node,
        /// Receiver.
        to: Node,
        /// Step, 1-based.
        step: u64,
    },
    /// Bufferless: message `msg` starts in step `start` (a virtual start in a virtual schedule).
    Start(Start),
    /// Bufferless, distributed gather: a wake-up call without a value from `from` to `to`, its
    /// one flit on the first arc in step `start` (docs/spec.md §4.1, control messages).
    WakeUp {
        /// Sender.
        from: Node,
        /// Receiver.
        to: Node,
        /// Step in which it crosses its first arc.
        start: i64,
    },
    /// Fat-tree: one send.
    Send(FatTreeSend),
    /// Fat-tree, with the payload apart from the send ([`fat_tree::aligned`]): the message that
    /// `to` receives at the end of step `arrival` carries `payload`, in place of its
    /// [`Event::Send`]'s placeholder.
    Carries {
        /// Receiver.
        to: usize,
        /// The step at whose end it arrives.
        arrival: u64,
        /// The range it carries.
        payload: [usize; 2],
    },
}

/// Which [`Schedule`] variant a model's answers decode into.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shape {
    /// [`Schedule::Collective`] from [`Event::Hop`]s (tokens are chunks); with `rounds`, the
    /// rounds of step t are the value of variable t − 1, else every step has one round. Steps
    /// that send nothing are dropped ([`collective`]).
    Collective {
        /// Whether the model has round variables.
        rounds: bool,
        /// Whether the model is a reduction's non-combining dual, whose schedule is read
        /// backwards ([`crate::spec::Schedule::reversed_collective`]).
        reversed: bool,
    },
    /// [`Schedule::StoreForward`] from [`Event::Hop`]s.
    StoreForward,
    /// [`Schedule::Bufferless`] from [`Event::Start`]s and [`Event::WakeUp`]s.
    Bufferless,
    /// [`Schedule::Virtual`] from [`Event::Start`]s.
    Virtual,
    /// [`Schedule::FatTree`] from [`Event::Send`]s.
    FatTree,
    /// [`Schedule::FatTree`]: a broadcast from [`Event::Send`]s on `fat-tree:processors`, run
    /// backwards into a product ([`crate::spec::reversal::reverse_broadcast`]).
    ReversedBroadcast {
        /// N.
        processors: usize,
        /// Whether the broadcast is in rounds (each reversed round leaves in its first step).
        rounds: bool,
    },
}

/// A model for one horizon and its decoding table.
#[derive(Debug, Clone)]
pub struct Encoding {
    /// The horizon T: every event of a decoded schedule lies in steps 1..=T.
    pub horizon: u64,
    /// The model.
    pub model: Program,
    /// The schedule variant answers decode into.
    pub shape: Shape,
    /// The variables that stand for schedule events.
    pub events: Vec<(VarId, Event)>,
}

impl Encoding {
    /// The schedule of an assignment (one value per model variable): the events of the
    /// variables set to 1, in the encoding's [`Shape`]. Store-and-forward hops on one arc in one
    /// step form one transmission, and leading and trailing idle steps are dropped (docs/spec.md
    /// §1: a schedule's first event is in step 1), which keeps it admissible. Starts and sends
    /// are sorted; an event of another shape than the encoding's is an encoder bug and panics.
    pub fn decode(&self, values: &[i64]) -> Schedule {
        let set = self.events.iter().filter(|(var, _)| values[var.index()] == 1).map(|&(_, e)| e);
        match self.shape {
            Shape::Collective { rounds, reversed } => {
                let schedule = self.decode_collective(set, values, rounds);
                if reversed { schedule.reversed_collective() } else { schedule }
            }
            Shape::StoreForward => {
                let mut steps = self.transmissions(set);
                let first = steps.iter().position(|s| !s.is_empty()).unwrap_or(steps.len());
                let last = steps.iter().rposition(|s| !s.is_empty()).map_or(first, |l| l + 1);
                Schedule::StoreForward(steps.drain(first..last).collect())
            }
            Shape::Bufferless | Shape::Virtual => {
                let (mut starts, mut control) = (Vec::new(), Vec::new());
                for event in set {
                    match event {
                        Event::Start(s) => starts.push(s),
                        Event::WakeUp { from, to, start } if self.shape == Shape::Bufferless => {
                            control.push(Control {
                                kind: ControlKind::WakeUp,
                                from,
                                to,
                                start,
                                value: None,
                                value2: None,
                            })
                        }
                        other => panic!("{other:?} in a start model"),
                    }
                }
                starts.sort_by_key(|s| (s.msg, s.start));
                control.sort_by_key(|c| (c.start, c.from, c.to));
                match self.shape {
                    Shape::Virtual => Schedule::Virtual(starts),
                    _ => Schedule::Bufferless { starts, control },
                }
            }
            Shape::FatTree | Shape::ReversedBroadcast { .. } => {
                let (mut sends, mut carried) = (Vec::new(), std::collections::BTreeMap::new());
                for event in set {
                    match event {
                        Event::Send(s) => sends.push(s),
                        Event::Carries { to, arrival, payload } => {
                            carried.insert((to, arrival), payload);
                        }
                        other => panic!("{other:?} in a fat-tree model"),
                    }
                }
                for s in &mut sends {
                    if let Some(&payload) = carried.get(&(s.to, s.arrival() as u64)) {
                        s.payload = payload;
                    }
                }
                sends.sort_by_key(|s| (s.step, s.from, s.to));
                if let Shape::ReversedBroadcast { processors, rounds } = self.shape {
                    // The model keeps only broadcasts that reverse: a refusal is an encoder bug.
                    sends = reverse_broadcast(&sends, processors, rounds)
                        .unwrap_or_else(|reason| panic!("a reversible broadcast did not reverse: {reason}"));
                }
                Schedule::FatTree(sends)
            }
        }
    }
}

impl Encoding {
    /// [`Encoding::decode`] for [`Shape::Collective`].
    fn decode_collective(&self, set: impl Iterator<Item = Event>, values: &[i64], rounds: bool) -> Schedule {
        let (mut kept, mut kept_rounds) = (Vec::new(), Vec::new());
        for (t, step) in self.transmissions(set).into_iter().enumerate().filter(|(_, s)| !s.is_empty()) {
            kept.push(step);
            kept_rounds.push(if rounds { values[t] as u64 } else { 1 });
        }
        Schedule::Collective { steps: kept, rounds: kept_rounds }
    }

    /// The hops as transmissions, one list per step 1..=T: the hops on one arc in one step form
    /// one transmission; transmissions sorted by arc, tokens in increasing order.
    fn transmissions(&self, set: impl Iterator<Item = Event>) -> Vec<Vec<Transmission>> {
        let mut steps: Vec<Vec<Transmission>> = vec![Vec::new(); self.horizon as usize];
        for event in set {
            let Event::Hop { token, from, to, step } = event else { panic!("{event:?} in a hop model") };
            let step = &mut steps[step as usize - 1];
            match step.iter_mut().find(|tr| tr.from == from && tr.to == to) {
                Some(tr) => tr.tokens.push(token),
                None => step.push(Transmission { from, to, tokens: vec![token] }),
            }
        }
        for step in &mut steps {
            step.sort_by_key(|tr| (tr.from, tr.to));
            for tr in step.iter_mut() {
                tr.tokens.sort_unstable();
            }
        }
        steps
    }
}

/// The first steps of a store-and-forward schedule that a model keeps ([`Encoding::keep`]), so
/// that a solver only completes them (`solve --steps S --complete FILE --keep K`). A search
/// from a good list schedule's prefix is a large-neighbourhood move: the schedule's early
/// steps, where greedy choices cost nothing yet, stay, and the solver rearranges the rest. It
/// settled the 5×10 mesh under H\* at its total-load bound (docs/results.md, "Gossip").
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Prefix {
    /// The schedule's steps; only the first `keep` are kept.
    pub steps: Vec<Vec<Transmission>>,
    /// K: the steps kept.
    pub keep: u64,
    /// Where the schedule came from (a file), for errors.
    pub source: String,
}

impl Encoding {
    /// Restricts the model to the schedules whose steps 1..=K are the prefix's: each hop
    /// variable of those steps is fixed, to 1 for a hop of the prefix and to 0 for any other.
    /// The model keeps fewer schedules, so its witnesses are schedules of the instance and its
    /// infeasibility is no evidence about the instance. The reason, when the model has no
    /// variable for a hop of the prefix (a token delivered twice, or a hop outside its window
    /// at this horizon), or when the model is not a store-and-forward one.
    pub fn keep(&mut self, prefix: &Prefix) -> std::result::Result<(), String> {
        if self.shape != Shape::StoreForward {
            return Err("only a store-and-forward model (gossip, total exchange) keeps a prefix".into());
        }
        let mut hops: std::collections::BTreeSet<(u64, Node, Node, usize)> =
            std::collections::BTreeSet::new();
        for (t, step) in (1..=prefix.keep).zip(&prefix.steps) {
            for tr in step {
                hops.extend(tr.tokens.iter().map(|&token| (t, tr.from, tr.to, token)));
            }
        }
        let mut fixed: Vec<Option<(VarId, bool)>> = vec![None; self.model.variables.len()];
        for &(var, event) in &self.events {
            let Event::Hop { token, from, to, step } = event else { continue };
            if step > prefix.keep {
                continue;
            }
            let kept = hops.remove(&(step, from, to, token));
            if fixed[var.index()].replace((var, kept)).is_some_and(|(_, before)| before != kept) {
                return Err(format!("the model identifies hops that the prefix keeps apart (step {step})"));
            }
        }
        if let Some((step, from, to, token)) = hops.into_iter().next() {
            return Err(format!(
                "step {step} sends token {token} from node {from} to node {to}, which the model at horizon T = {} \
                 has no variable for (no schedule it keeps makes that hop then)",
                self.horizon
            ));
        }
        for (var, kept) in fixed.into_iter().flatten() {
            let name = format!("keep_{}", var.index());
            self.model.constrain(name, Linear::new().add(1, var), Sense::Eq, i64::from(kept));
        }
        self.model.description = format!("{}, its first {} steps kept", self.model.description, prefix.keep);
        Ok(())
    }
}

/// Which model of an instance an encoder builds at a horizon: its own, or one of the variants
/// it offers ([`Encoder::variants`]). The search reads each answer by the variant (module
/// [`crate::exact`], "Search").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Variant {
    /// The encoder's model: exactly the schedules it keeps, so its infeasibility is evidence.
    Full,
    /// The model restricted to the schedules of [`Variants::restricted`], which are easier to
    /// find. Each of its answers decodes to a schedule of the instance (a witness, checked
    /// like any other), but its infeasibility says nothing about the instance, so the search
    /// only ever takes witnesses from it.
    Restricted,
    /// Relaxed model `i` of [`Variants::relaxed`]: a model of the instance itself, weaker than
    /// the full one: every schedule of length ≤ T gives one of its solutions, so its
    /// infeasibility at T is the instance's, but its solutions are never decoded (its events
    /// need not form a schedule). It is horizon-monotone, so the search walks the relaxed
    /// models up from the lower bound (module [`crate::exact`], "Relaxed model").
    Relaxed(usize),
}

/// The variants an encoder offers for its instance besides [`Variant::Full`], in words.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Variants {
    /// The schedules [`Variant::Restricted`] keeps ("schedules invariant under the 4 rotations
    /// by 90° of mesh:4x4 that send every token along shortest paths"); `None` without a
    /// restricted model.
    pub restricted: Option<String>,
    /// The relaxed models ([`Variant::Relaxed`]) as certificates name them, cheapest first;
    /// each solution of a later one solves the earlier ones. Empty without relaxed models.
    pub relaxed: &'static [&'static str],
}

impl Variants {
    /// The relaxed model that certificates name `name`, if it is one of these.
    pub fn relaxed_named(&self, name: &str) -> Option<Variant> {
        self.relaxed.iter().position(|&model| model == name).map(Variant::Relaxed)
    }
}

/// An encoder for one instance, reused across horizons and variants. It is asked only for
/// [`Variant::Full`] and the variants it lists in [`Encoder::variants`].
pub trait Encoder {
    /// `Some(reason)` when no horizon admits a schedule (an item cannot reach its target).
    fn impossible(&self) -> Option<String>;

    /// The variants this encoder builds for its instance besides the full model; none (the
    /// default) without any.
    fn variants(&self) -> Variants {
        Variants::default()
    }

    /// A cheap lower estimate of [`Encoder::variables`] (no pruning beyond distances), used
    /// to refuse huge instances before the pruning tables are built; the count itself (the
    /// default) where that is cheap.
    fn min_variables(&self, horizon: u64, variant: Variant) -> usize {
        self.variables(horizon, variant)
    }

    /// The number of variables of the model of `variant` at `horizon`.
    fn variables(&self, horizon: u64, variant: Variant) -> usize;

    /// Builds its full models from the state the first K steps of `prefix` leave, where it can:
    /// variables those steps decide are left out, so the model that [`Encoding::keep`] then
    /// restricts is small. The default builds every variable and lets `keep` fix them.
    fn start_after(&mut self, _prefix: &Prefix) {}

    /// The model of `variant` at `horizon`; `None` for a variant the encoder does not offer.
    fn encode(&self, horizon: u64, variant: Variant) -> Option<Encoding>;

    /// The last step that `event` occupies (its arrival), if the encoder is
    /// **horizon-monotone**: for every T < H, the assignments of the model at H whose events
    /// all end by step T decode to schedules of length ≤ T, and every schedule of length ≤ T
    /// (among those the encoder keeps) is one of them. Windows that grow with H keep this; a
    /// cut that holds only at its own horizon (gossip's `idle` and `busy`) breaks it. The SAT
    /// backend then descends over horizons in one incremental solver (module
    /// [`crate::exact`], "Search"). `None`: not horizon-monotone.
    fn last_step(&self, event: &Event) -> Option<u64>;

    /// A relaxation of the instance (module [`crate::exact`], "Search"), if the encoder knows one.
    fn relaxation(&self) -> Option<&Relaxation> {
        None
    }
}

impl dyn Encoder + '_ {
    /// The model of `variant` at `horizon`; an encoder that builds none for the full model or a
    /// variant it lists is at fault.
    pub fn model(&self, horizon: u64, variant: Variant) -> Result<Encoding> {
        self.encode(horizon, variant).ok_or_else(|| Error::Backend {
            backend: "encoder",
            reason: match variant {
                Variant::Full => "it built no model".into(),
                Variant::Restricted => "it declared a restriction but built no restricted model".into(),
                Variant::Relaxed(_) => "it declared a relaxed model but built none".into(),
            },
        })
    }
}

/// Another instance into which every schedule of the instance maps with no greater length, so
/// that its infeasibility at a horizon is the instance's and its optimum a lower bound; the
/// search certifies that optimum with the relaxation's own exact search
/// ([`crate::certify::Certificate::InfeasibleAtTMinus1`] with `relaxation`).
#[derive(Debug, Clone)]
pub struct Relaxation {
    /// How the certificate names it ("the broadcast it reverses into").
    pub name: &'static str,
    /// The relaxed instance.
    pub instance: Instance,
}

impl Encoding {
    /// Each event variable with its last step ([`Encoder::last_step`]), or `None` when the
    /// encoder is not horizon-monotone.
    pub fn ends(&self, encoder: &dyn Encoder) -> Option<Vec<(VarId, u64)>> {
        self.events.iter().map(|&(var, event)| encoder.last_step(&event).map(|s| (var, s))).collect()
    }
}

/// A registered encoder: what it supports and how to build it for an instance.
pub struct EncoderEntry {
    /// Its name (`total-exchange`), shown by `list`.
    pub name: &'static str,
    /// Paper sections and claim ids whose optima it certifies.
    pub source: &'static str,
    /// The instances it encodes.
    pub applicability: Applicability,
    /// Builds the encoder for an instance it applies to.
    pub build: for<'a> fn(&'a Instance) -> Box<dyn Encoder + 'a>,
    /// The backends `--method exact` tries for its instances, fastest first as measured by
    /// `commsched bench --exact` (docs/guide.md, "Exact backends compared"); the first one the build
    /// includes decides ([`crate::exact::BackendChoice::Measured`]).
    pub backends: &'static [BackendKind],
}

/// Every registered encoder.
pub static ENCODERS: &[EncoderEntry] = &[
    total_exchange::ENTRY,
    gossip::ENTRY,
    bufferless::CHATTING,
    bufferless::VIRTUAL,
    bufferless::SCATTER_GATHER,
    bufferless::DISTRIBUTED_GATHER,
    fat_tree::BROADCAST,
    fat_tree::PRODUCT_PREFIX,
    collective::ENTRY,
];

/// The registered encoder for the instance, or [`Error::NotApplicable`] naming first why the
/// encoders of the instance's problem refuse it, then the encoders of other problems by name.
pub fn encoder_for(instance: &Instance) -> Result<(&'static EncoderEntry, Box<dyn Encoder + '_>)> {
    let (mut reasons, mut others) = (Vec::new(), Vec::new());
    for entry in ENCODERS {
        match entry.applicability.check(instance) {
            Ok(()) => return Ok((entry, (entry.build)(instance))),
            Err(r) if r.starts_with("it solves ") => others.push(entry.name),
            Err(r) => reasons.push(format!("{}: {r}", entry.name)),
        }
    }
    let mut reason = if reasons.is_empty() {
        format!("no exact encoder solves {}", instance.problem.name())
    } else {
        reasons.join("; ")
    };
    if !others.is_empty() {
        reason += &format!(" (the other encoders, {}, solve other problems)", others.join(", "));
    }
    Err(Error::NotApplicable { method: "exact".into(), reason })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Decoding reads only the variables set to 1, into the encoding's schedule variant.
    #[test]
    fn every_shape_decodes_its_events() {
        let mut model = Program::new("decode");
        let vars: Vec<VarId> = (0..3).map(|i| model.bool_var(format!("v{i}"))).collect();
        let encoding = |shape, events: Vec<Event>| Encoding {
            horizon: 4,
            model: model.clone(),
            shape,
            events: vars.iter().copied().zip(events).collect(),
        };
        let values = [1, 0, 1];
        let hops = encoding(
            Shape::StoreForward,
            vec![
                Event::Hop { token: 7, from: 1, to: 2, step: 3 },
                Event::Hop { token: 5, from: 0, to: 1, step: 2 },
                Event::Hop { token: 4, from: 1, to: 2, step: 3 },
            ],
        );
        assert_eq!(
            hops.decode(&values),
            Schedule::StoreForward(vec![vec![Transmission { from: 1, to: 2, tokens: vec![4, 7] }]])
        );
        let starts = vec![
            Event::Start(Start { msg: 2, start: 5 }),
            Event::Start(Start { msg: 0, start: 1 }),
            Event::Start(Start { msg: 1, start: 3 }),
        ];
        let expected = vec![Start { msg: 1, start: 3 }, Start { msg: 2, start: 5 }];
        assert_eq!(
            encoding(Shape::Virtual, starts.clone()).decode(&values),
            Schedule::Virtual(expected.clone())
        );
        assert_eq!(
            encoding(Shape::Bufferless, starts).decode(&values),
            Schedule::Bufferless { starts: expected, control: Vec::new() }
        );
        let send = |step, from, to| FatTreeSend { step, from, to, payload: [0, 0] };
        let sends = vec![Event::Send(send(2, 0, 4)), Event::Send(send(1, 0, 2)), Event::Send(send(1, 0, 1))];
        assert_eq!(
            encoding(Shape::FatTree, sends).decode(&values),
            Schedule::FatTree(vec![send(1, 0, 1), send(2, 0, 4)])
        );
    }

    /// Keeping a prefix fixes every hop variable of its steps, 1 on its hops and 0 elsewhere,
    /// and leaves later steps free; a hop without a variable, or a model of another shape, is
    /// refused with the reason.
    #[test]
    fn a_kept_prefix_fixes_the_hops_of_its_steps() {
        let mut model = Program::new("keep");
        let vars: Vec<VarId> = (0..3).map(|i| model.bool_var(format!("v{i}"))).collect();
        let events = [
            Event::Hop { token: 0, from: 0, to: 1, step: 1 },
            Event::Hop { token: 1, from: 1, to: 0, step: 1 },
            Event::Hop { token: 0, from: 1, to: 2, step: 2 },
        ];
        let mut encoding = Encoding {
            horizon: 2,
            model,
            shape: Shape::StoreForward,
            events: vars.iter().copied().zip(events).collect(),
        };
        let hop = |from, to, token| Transmission { from, to, tokens: vec![token] };
        let prefix = |steps| Prefix { steps, keep: 1, source: "p.json".into() };
        let mut kept = encoding.clone();
        kept.keep(&prefix(vec![vec![hop(0, 1, 0)], vec![hop(1, 2, 0)]])).unwrap();
        let fixed: Vec<(Vec<(i64, VarId)>, i64)> =
            kept.model.constraints.iter().map(|c| (c.terms.clone(), c.rhs)).collect();
        assert_eq!(fixed, [(vec![(1, vars[0])], 1), (vec![(1, vars[1])], 0)]);
        assert!(kept.model.description.ends_with("its first 1 steps kept"));
        let e = encoding.clone().keep(&prefix(vec![vec![hop(2, 1, 2)]])).unwrap_err();
        assert!(e.starts_with("step 1 sends token 2 from node 2 to node 1, which the model at horizon T = 2 has no variable for"), "{e}");
        encoding.shape = Shape::FatTree;
        assert!(encoding.keep(&prefix(vec![vec![hop(0, 1, 0)]])).unwrap_err().contains("store-and-forward"));
    }
}

//! # Chatting: virtual schedules and their transformations (paper 000)
//!
//! Paper 000 (Bhatt, Bilardi, Pucci, Ranade, Rosenberg, Schwabe, "On Bufferless Routing of
//! Variable Length Messages in Leveled Networks"). Bufferless model, multi-port (SPEC §4.1). A
//! chatting schedule gives each message its start s(M) (flit h crosses arc e_k in step
//! s + h + k, (2.4)); a virtual schedule gives it a virtual start v(M) (it occupies every arc
//! of its path in steps v..v+ℓ−1, (3.2)). Both are plain [`Start`] lists here.
//!
//! The paper's strategy: build a virtual schedule σ on a forward-leveled (FL) network, then
//! turn it into a chatting schedule with the VO transformation (Theorem 3.2).
//!
//! | item | file | paper | claims |
//! |---|---|---|---|
//! | LS transformation | [`ls_transformation`](mod@ls_transformation) | §3.4A, Theorem 3.1 | CHAT-6, CHAT-7 |
//! | VO transformation | [`vo_transformation`](mod@vo_transformation) | §3.4B, Theorem 3.2 | CHAT-8 … CHAT-11 |
//! | OV transformation | [`ov_transformation`](mod@ov_transformation) | §3.4B, Theorem 3.3, Corollary 3.1 | CHAT-12, CHAT-13 |
//! | `first-fit` | [`first_fit`](mod@first_fit) | §4.1, Theorem 4.4, Corollary 4.2 | CHAT-14, CHAT-15 |
//! | `first-fit-by-length-class` (a substitute, **not** Kierstead's) | [`first_fit_by_length_class`](mod@first_fit_by_length_class) | §4.2, Theorem 4.5, Corollary 4.3 | CHAT-16 … CHAT-18 (measured) |
//! | stretching, shrinking, `length-classes-*` | [`length_classes`](mod@length_classes) | §5.1, Theorems 5.1, 5.2; §5.2 | CHAT-19 … CHAT-22, CHAT-27, CHAT-28 |
//! | `esm-slot`, `esm-slot-refined` | [`esm_slot`](mod@esm_slot) | §5.2, Theorem 5.3 | CHAT-23 … CHAT-26 |
//! | `recursive-cut` | [`recursive_cut`](mod@recursive_cut) | §6.2 | CHAT-29 |
//! | `bt-cut-decomposition` | [`tree_cuts`](mod@tree_cuts) | §6.3, Proposition 6.1, Theorem 6.1 | CHAT-30 … CHAT-33 |
//! | two ULAs, four ESMs | [`fl_parts`](mod@fl_parts) | §3.4 (bidirectional array), §5.2 (full mesh) | CHAT-24 |
//!
//! Every registered method builds virtual schedules on FL (sub)networks: the FL parts of the
//! network ([`fl_parts()`]), or, on a tree, the paths through one cut arc ([`tree_cuts`](mod@tree_cuts)).
//! On a virtual instance it returns the virtual schedule, on a chatting instance the VO image of
//! it (one private `assemble` combines them). Callers check every schedule; the tests assert on the checker's lengths.
//! Not implemented: Kierstead's on-line colouring (§4.2, \[7\]; the paper does not describe it,
//! a documented substitute stands in).

pub mod esm_slot;
pub mod first_fit;
pub mod first_fit_by_length_class;
pub mod fl_parts;
pub mod length_classes;
pub mod ls_transformation;
pub mod ov_transformation;
pub mod recursive_cut;
pub mod tree_cuts;
pub mod vo_transformation;

pub use esm_slot::{SlotTest, esm_slot, esm_slots};
pub use first_fit::{first_fit, first_fit_tracks};
pub use first_fit_by_length_class::{first_fit_by_length_class, first_fit_by_length_class_sigma};
pub use fl_parts::{Part, fl_parts};
pub use length_classes::{
    by_length_classes, length_class, length_classes_esm_slot, length_classes_first_fit, shrink, stretch,
};
pub use ls_transformation::{ls, ls_inverse};
pub use ov_transformation::ov;
pub use recursive_cut::{cut_level, recursive_cut, recursive_cut_sigma};
pub use tree_cuts::{Cut, bt_cut_decomposition, cut_levels};
pub use vo_transformation::{home_region, vo};

use super::Method;
use crate::bounds::chatting::{congestion, longest_message, longest_transit};
use crate::claims::{ClaimValue, Relation, Subject};
use crate::error::{Error, Result};
use crate::spec::{
    Applicability, FamilyKind, GatherMode, Instance, Message, Model, ModelClass, Network, Port, Problem,
    ProblemKind, RingTie, Schedule, Start,
};

/// The registered chatting algorithms.
pub static METHODS: &[Method] = &[
    first_fit::METHOD,
    length_classes::FIRST_FIT_METHOD,
    first_fit_by_length_class::METHOD,
    esm_slot::METHOD,
    esm_slot::REFINED_METHOD,
    length_classes::ESM_SLOT_METHOD,
    length_classes::ESM_SLOT_REFINED_METHOD,
    recursive_cut::METHOD,
    tree_cuts::METHOD,
];

/// One message as the transformations see it on an FL-network: its id, length ℓ, hop count d
/// and the level of its first arc, level(e_0) (the level of its source node).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Leveled {
    /// Message id.
    pub id: usize,
    /// ℓ(M), flits.
    pub len: i64,
    /// d(M), arcs.
    pub hops: i64,
    /// level(e_0(M)).
    pub level: i64,
}

/// The messages of a bufferless instance with the levels of their first arcs, or
/// [`Error::NotApplicable`] (naming `what`) when the network is not forward-leveled (§3.4).
pub fn leveled(inst: &Instance, what: &str) -> Result<Vec<Leveled>> {
    let messages = inst.messages()?;
    let levels =
        inst.network.levels().map_err(|reason| Error::NotApplicable { method: what.to_string(), reason })?;
    Ok(leveled_on(&levels, &messages))
}

/// [`Leveled`] messages given the node levels of an FL-network.
pub(crate) fn leveled_on(levels: &[usize], messages: &[Message]) -> Vec<Leveled> {
    messages
        .iter()
        .map(|m| Leveled {
            id: m.id,
            len: m.len as i64,
            hops: m.arcs.len() as i64,
            level: levels[m.src] as i64,
        })
        .collect()
}

/// The start of each message (in message order) read from a start list; a message without a
/// start is an input error.
pub(crate) fn values(messages: &[Leveled], starts: &[Start]) -> Result<Vec<i64>> {
    let by_id: std::collections::HashMap<usize, i64> = starts.iter().map(|s| (s.msg, s.start)).collect();
    messages
        .iter()
        .map(|m| {
            by_id.get(&m.id).copied().ok_or_else(|| {
                crate::InputError::new("", "starts", format!("message {} has no start", m.id)).into()
            })
        })
        .collect()
}

/// A start list from per-message values (in message order).
pub(crate) fn starts(messages: &[Leveled], values: &[i64]) -> Vec<Start> {
    messages.iter().zip(values).map(|(m, &start)| Start { msg: m.id, start }).collect()
}

/// The values shifted so that the smallest is 1 (the normalisation of §3.4B: the first event
/// in step 1, SPEC §1).
pub(crate) fn normalised(values: Vec<i64>) -> Vec<i64> {
    let min = values.iter().copied().min().unwrap_or(1);
    values.into_iter().map(|v| v - min + 1).collect()
}

/// S(σ) = max σ − min σ + 1 (3.5) of virtual starts.
pub(crate) fn virtual_duration(messages: &[Leveled], v: &[i64]) -> i64 {
    let lo = v.iter().copied().min().unwrap_or(0);
    let hi = messages.iter().zip(v).map(|(m, &v)| v + m.len - 1).max().unwrap_or(-1);
    hi - lo + 1
}

/// T(τ) = max τ − min τ + 1 (2.5) of chatting starts.
pub(crate) fn chatting_duration(messages: &[Leveled], s: &[i64]) -> i64 {
    let lo = s.iter().copied().min().unwrap_or(0);
    let hi = messages.iter().zip(s).map(|(m, &s)| s + m.len + m.hops - 2).max().unwrap_or(-1);
    hi - lo + 1
}

/// A procedure that builds a virtual schedule (virtual starts ≥ 1, in message order) for
/// messages on an FL part (a ULA or an ESM).
pub type Procedure = fn(&Network, &[Message]) -> Result<Vec<i64>>;

/// The models every chatting method serves: the paper's multi-port bufferless model (000 §2.1),
/// with chatting or virtual schedules.
const MODELS: &[ModelClass] = &[
    ModelClass::Bufferless { port: Port::Multi, gather: GatherMode::Centralized },
    ModelClass::Virtual { port: Port::Multi },
];

const MODEL_NOTE: &str = "the paper's model is multi-port (000 §2.1: one flit per arc and step)";

/// The applicability of a chatting method on `families`, for unit-length messages only when
/// `unit` ([`unit_atlas_paths`]) and otherwise for any lengths ([`atlas_paths`]).
pub(crate) const fn chatting_on(families: &'static [FamilyKind], unit: bool) -> Applicability {
    Applicability {
        problems: &[ProblemKind::Chatting],
        models: MODELS,
        families,
        refine: Some(if unit { unit_atlas_paths } else { atlas_paths }),
        model_note: MODEL_NOTE,
    }
}

/// A ULA, or a bidirectional linear array as two ULAs (000 §3.4).
pub(crate) const LINEAR_ARRAYS: &[FamilyKind] = &[FamilyKind::ULA, FamilyKind::PATH];

/// An ESM, or a full mesh as four ESMs (000 §5.2).
pub(crate) const MESHES: &[FamilyKind] = &[FamilyKind::ESM, FamilyKind::MESH];

/// `Ok(())` when every message follows the atlas path (the paper's designated paths), else the
/// reason.
fn atlas_paths(inst: &Instance) -> std::result::Result<(), String> {
    let messages = inst.messages().map_err(|e| e.to_string())?;
    match messages
        .iter()
        .find(|m| inst.network.default_path(m.src, m.dst, RingTie::Clockwise).as_ref() != Some(&m.nodes))
    {
        Some(m) => Err(format!(
            "message {} has an explicit path that is not the atlas path (the algorithm assumes the \
             paper's designated paths)",
            m.id
        )),
        None => Ok(()),
    }
}

/// [`atlas_paths`], and every message has one flit.
fn unit_atlas_paths(inst: &Instance) -> std::result::Result<(), String> {
    if let Problem::Chatting(specs) = &inst.problem
        && let Some(i) = specs.iter().position(|m| m.length != 1)
    {
        return Err(format!("it needs unit-length messages; message {i} has {} flits", specs[i].length));
    }
    atlas_paths(inst)
}

/// Whether the instance asks for a virtual schedule.
pub(crate) fn is_virtual(inst: &Instance) -> bool {
    matches!(inst.model, Model::Bufferless { virtual_schedule: true, .. })
}

/// (C, L, Q) of the instance (000 §2.4).
pub(crate) fn parameters(inst: &Instance) -> Option<(u64, u64, u64)> {
    let m = inst.messages().ok()?;
    Some((congestion(inst.network.arcs().len(), &m), longest_message(&m), longest_transit(&m)))
}

/// ⌈log2 x⌉ (0 for x ≤ 1).
pub(crate) fn ceil_log2(x: u64) -> u64 {
    x.next_power_of_two().trailing_zeros() as u64
}

/// A claimed bound on an algorithm's length: the paper's `formula` in steps (durations (2.5)
/// and (3.5) are commsched lengths once the first event is in step 1).
pub(crate) fn claimed(
    claim: &str,
    about: &str,
    formula: &str,
    relation: Relation,
    value: u64,
) -> Option<ClaimValue> {
    Some(ClaimValue {
        claim: claim.into(),
        subject: Subject::Algorithm,
        about: about.into(),
        value,
        relation,
        convention: format!("{formula}; the paper's duration max − min + 1 is the length from step 1"),
    })
}

/// Runs `procedure` on every FL part of the instance's network ([`fl_parts()`]) and
/// [`assemble`]s the parts: the parts of one phase use disjoint arcs and run at once; phases
/// follow each other.
pub(crate) fn produce(inst: &Instance, method: &Method, procedure: Procedure) -> Result<Schedule> {
    refuse(inst, method)?;
    let phases = fl_parts(inst)?
        .into_iter()
        .map(|phase| {
            phase
                .into_iter()
                .map(|part| {
                    let levels = part.network.levels().expect("a ULA and an ESM are forward-leveled");
                    let sigma = procedure(&part.network, &part.messages)?;
                    Ok(Group { messages: leveled_on(&levels, &part.messages), sigma })
                })
                .collect::<Result<Vec<_>>>()
        })
        .collect::<Result<Vec<_>>>()?;
    Ok(assemble(inst, phases))
}

/// [`Error::NotApplicable`] with the method's reason when it does not apply.
pub(crate) fn refuse(inst: &Instance, method: &Method) -> Result<()> {
    method.applies(inst).map_err(|reason| Error::NotApplicable { method: method.name.to_string(), reason })
}

/// Messages of one FL (sub)network with their levels and a virtual schedule of them.
pub(crate) struct Group {
    /// The messages, with level(e_0) in this group's leveling.
    pub messages: Vec<Leveled>,
    /// Their virtual starts, in the same order.
    pub sigma: Vec<i64>,
}

/// The instance's schedule from groups in phases: on a virtual instance each group's virtual
/// schedule, on a chatting instance its VO image (Theorem 3.2) in the group's own leveling; each
/// shifted to start in step 1 (so a VO image lasts T(τ), (2.5)). Groups of one phase are
/// superposed (the caller guarantees disjoint arcs); each phase starts after the last step of
/// the previous one.
pub(crate) fn assemble(inst: &Instance, phases: Vec<Vec<Group>>) -> Schedule {
    let virtual_schedule = is_virtual(inst);
    let mut out = Vec::new();
    let mut offset = 0;
    for phase in phases {
        let mut phase_length = 0;
        for Group { messages, sigma } in phase {
            let sigma = normalised(sigma);
            let values = if virtual_schedule {
                sigma
            } else {
                normalised(vo_transformation::vo_values(&messages, &sigma))
            };
            // The last step of the group (its values start at step 1).
            let length = messages
                .iter()
                .zip(&values)
                .map(|(m, &v)| v + m.len - 1 + if virtual_schedule { 0 } else { m.hops - 1 })
                .max()
                .unwrap_or(0);
            phase_length = phase_length.max(length);
            out.extend(messages.iter().zip(&values).map(|(m, &v)| Start { msg: m.id, start: v + offset }));
        }
        offset += phase_length;
    }
    out.sort_by_key(|s| s.msg);
    if virtual_schedule {
        Schedule::Virtual(out)
    } else {
        Schedule::Bufferless { starts: out, control: Vec::new() }
    }
}

//! # Total exchange on linear arrays and rings (paper 004)
//!
//! Paper 004: Dimakopoulos & Dimopoulos, "Optimal Total Exchange in
//! Linear Arrays and Rings". Model F\*, move mode (SPEC §4.2); the token of m_src(dst) is
//! `src * n + dst`; paper linear-array label ℓ is SPEC node ℓ − 1.
//!
//! Every algorithm is the one per-direction queue simulation of [`queue_sim`] with a
//! discipline, an initial queue order and a ring routing:
//!
//! | method | file | network | discipline | claimed length | claims |
//! |---|---|---|---|---|---|
//! | `furthest-first` | [`furthest_first`](mod@furthest_first) | linear array, odd ring | furthest-first, smallest-source ties | ⌈(n²−1)/4⌉, (n²−1)/8 | TE-5 … TE-17 |
//! | `consecutive-scatter` | [`consecutive_scatter`](mod@consecutive_scatter) | linear array | n scatterings in turn | 3T_opt − ⌊n/2⌋ | TE-3, TE-4 |
//! | `message-shift` | [`message_shift`](mod@message_shift) | odd ring | FIFO, own furthest-first | (n²−1)/8 | TE-14 … TE-17, TE-25 |
//! | `closest-first` | [`closest_first`](mod@closest_first) | odd ring | closest-first | (n²−1)/8 | TE-14 … TE-17 |
//! | `modified-message-shift` | [`modified_message_shift`](mod@modified_message_shift) | even ring | FIFO, alternating split | ⌈(n²−1)/8⌉ | TE-19 … TE-21, TE-26 |
//! | `all-clockwise` | [`all_clockwise`](mod@all_clockwise) | even ring | FIFO, antipodal clockwise | ⌈n(n+2)/8⌉ | TE-18 |
//!
//! [`half_duplex_split::split_half_duplex`] turns any of them into an H\* (and, on these
//! networks, F1) schedule of at most twice the length (TE-23); the registered methods apply it
//! themselves on H\* and F1 instances. H1 is refused (the split is not H1-admissible). [`trace::Trace`] reads departure
//! times and queues back from a checked schedule for the lemma checks.

pub mod all_clockwise;
pub mod closest_first;
pub mod consecutive_scatter;
pub mod furthest_first;
pub mod half_duplex_split;
pub mod message_shift;
pub mod modified_message_shift;
pub mod queue_sim;
pub mod trace;

pub use all_clockwise::all_clockwise;
pub use closest_first::{ClosestFirst, closest_first};
pub use consecutive_scatter::{consecutive_scatter, scatter};
pub use furthest_first::{FurthestFirst, furthest_first};
pub use half_duplex_split::{split_half_duplex, split_itineraries};
pub use message_shift::{Fifo, message_shift};
pub use modified_message_shift::modified_message_shift;
pub use queue_sim::{Direction, Discipline, InitialOrder, Lane, Msg, Tie};
pub use trace::Trace;

use crate::claims::{ClaimValue, Relation, Subject};
use crate::error::InputError;
use crate::error::Result;
use crate::spec::limits::Resource;
use crate::spec::{
    Applicability, Family, FamilyKind, Instance, Itineraries, Mode, Model, ModelClass, PortRule, Problem,
    ProblemKind, Refinement, Schedule,
};

/// The registered total-exchange algorithms.
pub static METHODS: &[super::Method] = &[
    furthest_first::METHOD,
    consecutive_scatter::METHOD,
    message_shift::METHOD,
    closest_first::METHOD,
    modified_message_shift::METHOD,
    all_clockwise::METHOD,
];

/// The models a paper-004 algorithm runs under: F\* as stated (004 §2), H\* and F1 through the
/// half-duplex split (TE-23). H1 is refused: the split is not H1-admissible.
const MODELS: &[ModelClass] = &[
    ModelClass::StoreForward { rule: PortRule::FStar, mode: Mode::Move },
    ModelClass::StoreForward { rule: PortRule::HStar, mode: Mode::Move },
    ModelClass::StoreForward { rule: PortRule::F1, mode: Mode::Move },
];

/// Where a paper-004 algorithm applies: total exchange under [`MODELS`] on `families`, with a
/// further condition on the ring's parity.
const fn applicability(families: &'static [FamilyKind], refine: Option<Refinement>) -> Applicability {
    Applicability {
        problems: &[ProblemKind::TotalExchange],
        models: MODELS,
        families,
        refine,
        model_note: "the paper-004 algorithms are stated for F* (004 §2) and run under H* and F1 through \
                     the half-duplex split (TE-23); H1 needs another algorithm",
    }
}

/// On the linear array.
const LINEAR_ARRAY: Applicability = applicability(&[FamilyKind::PATH], None);
/// On an odd ring (Theorem 2).
const ODD_RING: Applicability = applicability(&[FamilyKind::RING], Some(odd_ring));
/// On an even ring (Theorem 3).
const EVEN_RING: Applicability = applicability(&[FamilyKind::RING], Some(even_ring));
/// On the linear array or an odd ring (furthest-first: Theorems 1 and 2).
const LINEAR_ARRAY_OR_ODD_RING: Applicability =
    applicability(&[FamilyKind::PATH, FamilyKind::RING], Some(odd_ring));

/// A ring must have an odd number of nodes (other families pass).
fn odd_ring(inst: &Instance) -> std::result::Result<(), String> {
    match inst.network.family() {
        Family::Ring(n) if n.is_multiple_of(2) => Err(format!(
            "{} has an even number of nodes: the paper proves it optimal on odd rings only \
             (Theorem 2); use modified-message-shift (Theorem 3)",
            inst.network.spec_string()
        )),
        _ => Ok(()),
    }
}

/// A ring must have an even number of nodes.
fn even_ring(inst: &Instance) -> std::result::Result<(), String> {
    match inst.network.family() {
        Family::Ring(n) if !n.is_multiple_of(2) => Err(format!(
            "it needs a ring with an even number of nodes (004 §4.2), not {}",
            inst.network.spec_string()
        )),
        _ => Ok(()),
    }
}

/// How an algorithm writes large schedules down: as itineraries (docs/spec.md §5.4), from a
/// closed form or a node-invariant simulation, or not at all.
type Compact = Option<fn(&Instance) -> Result<Itineraries>>;

/// Runs an algorithm. On a full exchange its F\* schedule is held as itineraries when the
/// algorithm has a compact form (4 bytes a hop; the instance guard keeps it within
/// `--max-compact-events`), and explicitly otherwise, refused beyond `--max-events`. Under H\*
/// or F1 the steps are halved with [`split_half_duplex`] ("a slowdown factor of two", 004 §2,
/// TE-23).
fn produce(
    inst: &Instance,
    explicit: fn(&Instance) -> Result<Schedule>,
    compact: Compact,
) -> Result<Schedule> {
    let schedule = match compact.filter(|_| matches!(inst.problem, Problem::TotalExchange(None))) {
        Some(compact) => Schedule::Itineraries(compact(inst)?),
        None => {
            Resource::Events
                .guard(inst.lane_hops(), "an explicit schedule of this instance")
                .map_err(|reason| InputError::new("", "", reason))?;
            explicit(inst)?
        }
    };
    match (&inst.model, schedule) {
        (Model::StoreForward { rule: PortRule::FStar, .. }, schedule) => Ok(schedule),
        (_, Schedule::Itineraries(mut it)) => {
            split_itineraries(&mut it);
            Ok(Schedule::Itineraries(it))
        }
        (_, schedule) => split_half_duplex(inst, &schedule),
    }
}

/// What the paper claims for an algorithm's length on a full total exchange: `value` under F\*
/// (claim `claim`, `formula`), and under H\* and F1 at most twice that through the split (TE-23).
fn claimed(inst: &Instance, claim: &str, about: &str, formula: &str, value: u64) -> Option<ClaimValue> {
    if !matches!(inst.problem, crate::spec::Problem::TotalExchange(None)) {
        return None;
    }
    let split = !matches!(inst.model, Model::StoreForward { rule: PortRule::FStar, .. });
    Some(ClaimValue {
        claim: if split { format!("TE-23 ({claim})") } else { claim.into() },
        subject: Subject::Algorithm,
        about: about.into(),
        value: if split { 2 * value } else { value },
        relation: if split { Relation::AtMost } else { Relation::Equal },
        convention: if split {
            format!("2 x {formula}: the F* schedule split into two half-duplex steps per step")
        } else {
            format!("{formula}; paper 004 time 1 is step 1")
        },
    })
}

/// TE-16 (Theorem 2): every node-invariant algorithm is optimal on an odd ring, (n²−1)/8 steps.
fn te_16(inst: &Instance) -> Option<ClaimValue> {
    let n = inst.network.len() as u64;
    let optimum = crate::bounds::total_exchange::ring(n);
    claimed(inst, "TE-16", "node-invariant algorithm on an odd ring (Theorem 2)", "(n²−1)/8", optimum)
}

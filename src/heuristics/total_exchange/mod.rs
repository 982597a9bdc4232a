//! # Total exchange on linear arrays and rings (paper 004)
//!
//! Seed `004_d5b71cb5fff24442.txt`: Dimakopoulos & Dimopoulos, "Optimal Total Exchange in
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
pub use half_duplex_split::split_half_duplex;
pub use message_shift::{Fifo, message_shift};
pub use modified_message_shift::modified_message_shift;
pub use queue_sim::{Direction, Discipline, InitialOrder, Lane, Msg, Tie};
pub use trace::Trace;

use super::Method;
use crate::error::{Error, Result};
use crate::spec::{Family, Instance, Mode, Model, PortRule, Problem, Schedule};

/// The registered total-exchange algorithms.
pub static METHODS: &[Method] = &[
    furthest_first::METHOD,
    consecutive_scatter::METHOD,
    message_shift::METHOD,
    closest_first::METHOD,
    modified_message_shift::METHOD,
    all_clockwise::METHOD,
];

/// The networks a paper-004 algorithm is stated for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Shape {
    LinearArray,
    OddRing,
    EvenRing,
    LinearArrayOrOddRing,
}

/// `Ok(())` when `inst` is an F\* move-mode total exchange on the network `shape` asks for, else
/// the reason.
fn fits(inst: &Instance, shape: Shape) -> std::result::Result<(), String> {
    if !matches!(inst.problem, Problem::TotalExchange(_)) {
        return Err(format!("it solves total-exchange, not {}", inst.problem));
    }
    match inst.model {
        Model::StoreForward {
            rule: PortRule::FStar | PortRule::HStar | PortRule::F1,
            mode: Mode::Move,
            ..
        } => {}
        Model::StoreForward { rule, .. } => {
            return Err(format!(
                "it is an F* algorithm (004 §2), run under H* and F1 through the half-duplex split \
                 (TE-23), and the instance's rule is {rule}"
            ));
        }
        ref m => return Err(format!("it needs the store-forward model, not {}", m.name())),
    }
    let ok = match (inst.network.family(), shape) {
        (Family::Path(_), Shape::LinearArray | Shape::LinearArrayOrOddRing) => true,
        (Family::Ring(n), Shape::OddRing | Shape::LinearArrayOrOddRing) => !n.is_multiple_of(2),
        (Family::Ring(n), Shape::EvenRing) => n.is_multiple_of(2),
        _ => false,
    };
    if ok {
        return Ok(());
    }
    let network = inst.network.spec_string();
    Err(match shape {
        Shape::LinearArray => format!("it runs on a linear array (path:N), not on {network}"),
        Shape::OddRing | Shape::LinearArrayOrOddRing if matches!(inst.network.family(), Family::Ring(_)) => {
            format!(
                "{network} has an even number of nodes: the paper proves it optimal on odd rings only \
                 (Theorem 2); use modified-message-shift (Theorem 3)"
            )
        }
        Shape::OddRing => format!("it runs on a ring with an odd number of nodes, not on {network}"),
        Shape::LinearArrayOrOddRing => {
            format!("it runs on a linear array (path:N) or an odd ring (ring:N), not on {network}")
        }
        Shape::EvenRing => format!("it needs a ring with an even number of nodes (004 §4.2), not {network}"),
    })
}

/// A method's `run`: refuses (as [`Error::NotApplicable`]) what `applies` refuses, runs the F\*
/// algorithm, and under H\* or F1 halves its steps with [`split_half_duplex`] ("a slowdown
/// factor of two", 004 §2, TE-23).
fn produce(
    inst: &Instance,
    method: &Method,
    algorithm: fn(&Instance) -> Result<Schedule>,
) -> Result<Schedule> {
    (method.applies)(inst)
        .map_err(|reason| Error::NotApplicable { method: method.name.to_string(), reason })?;
    let schedule = algorithm(inst)?;
    match inst.model {
        Model::StoreForward { rule: PortRule::FStar, .. } => Ok(schedule),
        _ => split_half_duplex(inst, &schedule),
    }
}

//! # Gossip on paths, cycles, meshes and tori (paper 003)
//!
//! Paper 003: Lau & Zhang, "Fast Gossiping in Square Meshes/Tori with
//! Bounded-Size Packets". Model H\*, p = 1, copy mode (SPEC §4.2): a token is named by its
//! origin node; mesh and torus node (i, j) is SPEC node i·c + j; a line's v_0 … v_{n−1} are a
//! row's columns or a column's rows in increasing order (§2). Rounds are SPEC steps from 1.
//!
//! Every algorithm draws its lines' dot-wire diagrams ([`line`](mod@line)) and assembles them into one
//! explicit schedule; callers check it with [`crate::checker::check`].
//!
//! | method | file | network | claimed length | claims |
//! |---|---|---|---|---|
//! | `path-gossip` | [`path_gossip`](mod@path_gossip) | path | n + ⌊n/2⌋ − 1 | GOS-8, GOS-27 |
//! | `cycle-gossip` | [`cycle_gossip`](mod@cycle_gossip) | ring | n − 1 (optimal) | GOS-19 |
//! | `mesh-two-phase` | [`two_phase`](mod@two_phase) | r×c mesh | (n − 1) + (n² + n − 2)/2 | GOS-4 … GOS-12 |
//! | `mesh-combined` | [`combined`](mod@combined) | r×c mesh | n²/2 + n − 1/2, n²/2 + n − 1 (Thm 1) | GOS-13, GOS-14 |
//! | `mesh-2x2` | [`mesh_2x2`](mod@mesh_2x2) | 2×2 mesh | 3 (optimal) | GOS-16, GOS-30 |
//! | `mesh-3x3` | [`mesh_3x3`](mod@mesh_3x3) | 3×3 mesh | 6 (optimal) | GOS-17, GOS-31 |
//! | `torus-even` | [`torus_even`](mod@torus_even) | r×c torus, r, c even | n²/2 (Thm 2, optimal) | GOS-18 … GOS-20 |
//! | `torus-odd-delayer` | [`torus_odd`](mod@torus_odd) | r×c torus, r or c odd | (n² + 1)/2 + 1 (Thm 3) | GOS-21 … GOS-23 |
//!
//! Ours, not the paper's: `torus-cut-in` ([`torus_cut_in`](mod@torus_cut_in), the torus phases
//! overlapped), `torus-offset-growth` ([`torus_offset_growth`](mod@torus_offset_growth), a
//! translation-invariant schedule of ⌈(rc − 1)/2⌉ rounds, Lemma 2's bound on every torus),
//! `urgent-first` ([`urgent_first`](mod@urgent_first), a list schedule for any network, port
//! rule and packet size; on the n×n mesh one round above Lemma 1 for n = 3..=15 and 17),
//! `urgent-matching` ([`urgent_matching`](mod@urgent_matching), its steps made maximum matchings
//! by augmenting paths; at the total-load bound on thirteen rectangles nothing else settles) and
//! `urgent-orbits` ([`urgent_orbits`](mod@urgent_orbits), each step the heaviest maximum matching
//! that the grid's rotations map to themselves; Lemma 1 on the n×n meshes n = 2..=12).
//!
//! Building blocks: [`phase1`] (the half-gossip on a line, Fig. 2), [`phase2`] (the path
//! gossip of Fig. 3, optionally cutting into Phase 1), [`cycle_gossip::ring_gossip`] (the torus
//! Phase 2) and [`two_phase::TwoPhase`] (both phases on every line of a mesh or torus).

mod assignment;
pub mod combined;
pub mod cycle_gossip;
pub mod line;
pub mod mesh_2x2;
pub mod mesh_3x3;
pub mod path_gossip;
pub mod phase1;
pub mod phase2;
pub mod torus_cut_in;
pub mod torus_even;
pub mod torus_odd;
pub mod torus_offset_growth;
pub mod two_phase;
pub mod urgent_first;
pub mod urgent_matching;
pub mod urgent_orbits;

pub use combined::mesh_combined;
pub use cycle_gossip::{cycle_gossip, ring_gossip};
pub use line::{Dir, Dot, DotWire, Line, assemble};
pub use mesh_2x2::mesh_2x2;
pub use mesh_3x3::mesh_3x3;
pub use path_gossip::path_gossip;
pub use phase1::{Reach, half_gossip};
pub use phase2::Release;
pub use torus_even::torus_even;
pub use torus_odd::torus_odd;
pub use two_phase::{TwoPhase, mesh_two_phase};
pub use urgent_first::urgent_first;
pub use urgent_matching::urgent_matching;

use super::Method;
use crate::claims::{ClaimValue, Relation, Subject};
use crate::spec::{
    Applicability, Family, FamilyKind, Instance, Mode, ModelClass, PortRule, ProblemKind, Refinement,
};

/// The registered gossip algorithms.
pub static METHODS: &[Method] = &[
    path_gossip::METHOD,
    cycle_gossip::METHOD,
    two_phase::METHOD,
    combined::METHOD,
    mesh_2x2::METHOD,
    mesh_3x3::METHOD,
    torus_even::METHOD,
    torus_odd::METHOD,
    torus_cut_in::METHOD,
    torus_offset_growth::METHOD,
    urgent_first::METHOD,
    urgent_matching::METHOD,
    urgent_orbits::METHOD,
];

/// Copy mode under the all-port rules: H\* (003 §1) and F\*, which admits every H\* schedule.
const ALL_PORT_COPY: &[ModelClass] = &[
    ModelClass::StoreForward { rule: PortRule::HStar, mode: Mode::Copy },
    ModelClass::StoreForward { rule: PortRule::FStar, mode: Mode::Copy },
];

/// Gossip where a step is a matching of channels and (receiver, token) pairs (F\*, H\*), with
/// a further condition on the instance; `model_note` says why the one-port rules are out.
const fn matching_steps_only(refine: Refinement, model_note: &'static str) -> Applicability {
    Applicability {
        problems: &[ProblemKind::Gossip],
        models: ALL_PORT_COPY,
        families: &[],
        refine: Some(refine),
        model_note,
    }
}

/// Where a paper-003 algorithm applies: gossip in copy mode under H\* (003 §1) or F\*, which
/// admits every H\* schedule, on `family`, with a further condition.
const fn applicability(family: &'static [FamilyKind], refine: Option<Refinement>) -> Applicability {
    Applicability {
        problems: &[ProblemKind::Gossip],
        models: ALL_PORT_COPY,
        families: family,
        refine,
        model_note: "the paper-003 algorithms are H* (all-port) algorithms (003 §1), valid under F* too; \
                     nodes use several links per round, which one-port rules forbid",
    }
}

/// On a path.
const PATH: Applicability = applicability(&[FamilyKind::PATH], None);
/// On a cycle.
const RING: Applicability = applicability(&[FamilyKind::RING], None);
/// On an r×c mesh.
const MESH: Applicability = applicability(&[FamilyKind::MESH], None);
/// On the 2×2 mesh.
const MESH_2X2: Applicability = applicability(&[FamilyKind::MESH], Some(|inst| mesh_of_side(inst, 2)));
/// On the 3×3 mesh.
const MESH_3X3: Applicability = applicability(&[FamilyKind::MESH], Some(|inst| mesh_of_side(inst, 3)));
/// On any torus.
const TORUS: Applicability = applicability(&[FamilyKind::TORUS], None);
/// On a torus with an even number of rows and of columns (§4.1).
const TORUS_EVEN: Applicability = applicability(&[FamilyKind::TORUS], Some(even_torus));
/// On a torus with an odd number of rows or of columns (§4.2).
const TORUS_ODD: Applicability = applicability(&[FamilyKind::TORUS], Some(odd_torus));

/// The mesh must be n×n.
fn mesh_of_side(inst: &Instance, n: usize) -> std::result::Result<(), String> {
    match *inst.network.family() {
        Family::Mesh(r, c) if r == n && c == n => Ok(()),
        _ => Err(format!(
            "it is the {n}x{n} mesh schedule of §3.5, not one for {}",
            inst.network.spec_string()
        )),
    }
}

/// Both sides of the torus must be even.
fn even_torus(inst: &Instance) -> std::result::Result<(), String> {
    match *inst.network.family() {
        Family::Torus(r, c) if r.is_multiple_of(2) && c.is_multiple_of(2) => Ok(()),
        _ => Err(format!(
            "it needs a torus with an even number of rows and columns (§4.1), not {}; use torus-odd-delayer",
            inst.network.spec_string()
        )),
    }
}

/// One side of the torus must be odd.
fn odd_torus(inst: &Instance) -> std::result::Result<(), String> {
    match even_torus(inst) {
        Ok(()) => Err(format!(
            "it needs a torus with an odd number of rows or columns (§4.2), not {}; use torus-even",
            inst.network.spec_string()
        )),
        Err(_) => Ok(()),
    }
}

/// The side n of a square n×n mesh or torus.
fn square(inst: &Instance) -> Option<u64> {
    match *inst.network.family() {
        Family::Mesh(r, c) | Family::Torus(r, c) if r == c => Some(r as u64),
        _ => None,
    }
}

/// What the paper claims for an algorithm's length on an instance: exactly `value` rounds
/// (claim `claim`, `formula`).
fn claimed(claim: &str, about: &str, formula: &str, value: u64) -> Option<ClaimValue> {
    Some(ClaimValue {
        claim: claim.into(),
        subject: Subject::Algorithm,
        about: about.into(),
        value,
        relation: Relation::Equal,
        convention: format!("{formula}; paper 003 rounds are numbered from 1, as steps"),
    })
}

/// The rows and columns of a mesh or torus instance (1×n for anything else).
fn grid(inst: &Instance) -> (usize, usize) {
    match *inst.network.family() {
        Family::Mesh(r, c) | Family::Torus(r, c) => (r, c),
        _ => (1, inst.network.len()),
    }
}

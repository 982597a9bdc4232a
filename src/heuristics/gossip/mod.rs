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
//! Building blocks: [`phase1`] (the half-gossip on a line, Fig. 2), [`phase2`] (the path
//! gossip of Fig. 3, optionally cutting into Phase 1), [`cycle_gossip::ring_gossip`] (the torus
//! Phase 2) and [`two_phase::TwoPhase`] (both phases on every line of a mesh or torus).

pub mod combined;
pub mod cycle_gossip;
pub mod line;
pub mod mesh_2x2;
pub mod mesh_3x3;
pub mod path_gossip;
pub mod phase1;
pub mod phase2;
pub mod torus_even;
pub mod torus_odd;
pub mod two_phase;

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

use super::Method;
use crate::error::{Error, Result};
use crate::spec::{Family, Instance, Mode, Model, PortRule, Problem, Schedule};

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
];

/// The networks a paper-003 algorithm runs on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Shape {
    Path,
    Ring,
    Mesh,
    Mesh2x2,
    Mesh3x3,
    TorusEven,
    TorusOdd,
}

/// `Ok(())` when `inst` is a gossip in copy mode under H\* (or F\*, which admits every H\*
/// schedule) on the network `shape` asks for, else the reason.
fn fits(inst: &Instance, shape: Shape) -> std::result::Result<(), String> {
    if inst.problem != Problem::Gossip {
        return Err(format!("it solves gossip, not {}", inst.problem));
    }
    match inst.model {
        Model::StoreForward { rule: PortRule::HStar | PortRule::FStar, mode: Mode::Copy, .. } => {}
        Model::StoreForward { rule, .. } => {
            return Err(format!(
                "it is an H* (all-port) algorithm (003 §1): nodes use several links per round, which \
                 rule {rule} forbids"
            ));
        }
        ref m => return Err(format!("it needs the store-forward model, not {}", m.name())),
    }
    let network = inst.network.spec_string();
    let ok = match (inst.network.family(), shape) {
        (Family::Path(_), Shape::Path) | (Family::Ring(_), Shape::Ring) | (Family::Mesh(..), Shape::Mesh) => {
            true
        }
        (Family::Mesh(2, 2), Shape::Mesh2x2) | (Family::Mesh(3, 3), Shape::Mesh3x3) => true,
        (Family::Torus(r, c), Shape::TorusEven) => r.is_multiple_of(2) && c.is_multiple_of(2),
        (Family::Torus(r, c), Shape::TorusOdd) => !r.is_multiple_of(2) || !c.is_multiple_of(2),
        _ => false,
    };
    if ok {
        return Ok(());
    }
    Err(match shape {
        Shape::Path => format!("it runs on a path (path:N), not on {network}"),
        Shape::Ring => format!("it runs on a cycle (ring:N), not on {network}"),
        Shape::Mesh => format!("it runs on a mesh (mesh:RxC), not on {network}"),
        Shape::Mesh2x2 => format!("it is the 2x2 mesh schedule of §3.5, not one for {network}"),
        Shape::Mesh3x3 => format!("it is the 3x3 mesh schedule of §3.5, not one for {network}"),
        Shape::TorusEven => format!(
            "it needs a torus with an even number of rows and columns (§4.1), not {network}; \
             use torus-odd-delayer"
        ),
        Shape::TorusOdd => format!(
            "it needs a torus with an odd number of rows or columns (§4.2), not {network}; use torus-even"
        ),
    })
}

/// The rows and columns of a mesh or torus instance (1×n for anything else).
fn grid(inst: &Instance) -> (usize, usize) {
    match *inst.network.family() {
        Family::Mesh(r, c) | Family::Torus(r, c) => (r, c),
        _ => (1, inst.network.len()),
    }
}

/// A method's `run`: refuses (as [`Error::NotApplicable`]) what `applies` refuses, then runs the
/// algorithm.
fn produce(
    inst: &Instance,
    method: &Method,
    algorithm: fn(&Instance) -> Result<Schedule>,
) -> Result<Schedule> {
    (method.applies)(inst)
        .map_err(|reason| Error::NotApplicable { method: method.name.to_string(), reason })?;
    algorithm(inst)
}

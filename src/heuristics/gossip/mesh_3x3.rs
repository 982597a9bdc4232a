//! # The 3×3 mesh in 6 rounds: the modified algorithm (paper 003 §3.5, Fig. 8b, 8c)
//!
//! The combined algorithm ([`combined`](mod@super::combined)) takes 7 rounds on the 3×3 mesh: rows
//! 6/5/6, columns 6/7/6 (Phase 1 then Phase 2 per line, GOS-17). §3.5 cuts the middle column
//! short and uses the middle row's spare round:
//!
//! * "for the middle column, for Phase 2, instead of ⟨0,2⟩−⟨4⟩−⟨6,8⟩, we do the gossip for just
//!   ⟨0⟩−⟨4⟩−⟨6⟩";
//! * ⟨8⟩ goes v_3 → v_4 → v_1 and ⟨2⟩ goes v_5 → v_4 → v_7: ⟨8⟩ reaches v_3 through column 0's
//!   Phase 2 and ⟨2⟩ reaches v_5 through column 2's; both cross into v_4 in the first round after
//!   both are there (they take priority over row 1's Phase 2, which shifts its later tokens by one
//!   round), and v_4 sends them on in the first round after that in which its column link is
//!   idle ("v_4 can wait until as late as t = 6").
//!
//! The result is 6 rounds, Lemma 1's n(n + 1)/2, hence optimal (GOS-17, GOS-31 — the
//! reconstructed schedule of GOS-31 is exactly this one). Registered as `mesh-3x3`.

use super::line::Dot;
use super::phase2::path_gossip;
use super::two_phase::TwoPhase;
use crate::error::Result;
use crate::heuristics::Method;
use crate::spec::{Instance, Schedule};

/// The tokens the middle column no longer gossips, each with the column whose Phase 2 brings it
/// to the middle row: ⟨8⟩ through v_3 (column 0), ⟨2⟩ through v_5 (column 2), as §3.5 routes
/// them (one per middle-row edge).
const DETOURS: [(usize, usize); 2] = [(8, 0), (2, 2)];

/// The §3.5 modified algorithm on the 3×3 mesh: 6 rounds.
pub fn mesh_3x3(_inst: &Instance) -> Result<Schedule> {
    let n = 3;
    let (row1, column) = (1, |j: usize| n + j);
    let mut plan = TwoPhase::mesh(n, n)?;
    plan.releases[column(1)].retain(|r| DETOURS.iter().all(|&(k, _)| r.token != k));
    let mut phase2 = plan.run_all(path_gossip)?;
    // ⟨k⟩ reaches (1, j) by column j's Phase 2; both then cross into v_4 at once.
    let reached = DETOURS.map(|(k, j)| {
        phase2[column(j)].arrival(&plan.lines[column(j)], 1, k).expect("column Phase 2 delivers every token")
    });
    let cross = reached.into_iter().max().unwrap_or(0) + 1;
    for (k, j) in DETOURS {
        let (edge, dir) = plan.lines[row1].hop(j, 1);
        plan.extra[row1].put(cross, edge, Dot { token: k, dir }).expect("row 1 is idle but for phase 1");
    }
    phase2[row1] = plan.run_phase2(row1, path_gossip)?;
    // v_4 forwards ⟨k⟩ along the middle column to the end away from k's own row.
    let middle = column(1);
    for (k, _) in DETOURS {
        let (edge, dir) = plan.lines[middle].hop(1, n - 1 - k / n);
        let busy = |t| plan.phase1[middle].is_busy(t, edge) || phase2[middle].is_busy(t, edge);
        let t = (cross + 1..).find(|&t| !busy(t)).expect("an idle round exists");
        plan.extra[middle].put(t, edge, Dot { token: k, dir }).expect("the middle column's edge is idle");
    }
    plan.schedule(&phase2, METHOD.name)
}

/// Registry entry.
pub const METHOD: Method = Method {
    name: "mesh-3x3",
    source: "003 §3.5 Fig. 8b, 8c; GOS-17, GOS-31, GOS-24c",
    summary: "the combined algorithm with the middle column gossiping only <0>-<4>-<6>, <8> and <2> \
              detouring through the middle row's spare round: 6 rounds = Lemma 1, optimal",
    applicability: super::MESH_3X3,
    claim: |_| super::claimed("GOS-17", "modified 3x3 algorithm (§3.5)", "6", 6),
    run: mesh_3x3,
};

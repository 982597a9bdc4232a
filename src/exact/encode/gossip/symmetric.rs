//! # Symmetric witnesses of the gossip model (a restriction: witnesses only)
//!
//! On a mesh or torus whose grid rotations about the centre map the network onto itself
//! ([`Rotations`](crate::spec::network::grid::Rotations): by 90° on a square grid, 180° otherwise), the restricted model
//! ([`Variant::Restricted`]) identifies every variable with its images: x(k,(u,v),t) with
//! x(σk,(σu,σv),t) and h(k,v,τ) with h(σk,σv,τ) for every rotation σ. The model then admits exactly the schedules that every
//! rotation maps to themselves. A rotation is an automorphism of the network that moves tokens
//! with their origins, so windows, port rules and counting cuts are invariant under it and the
//! restricted model is the full model plus equalities: each of its answers is a schedule of
//! the instance (checked like any witness). Its infeasibility proves nothing, and the search
//! never takes it as evidence: it asks the restricted model for a witness at the lower bound,
//! where a witness is an optimum certified by that bound. It has a quarter of the variables on
//! a square grid and is decided far sooner: mesh 6×6 under H\* at GOS-1's 21 (module
//! [`crate::exact`], "Search"), which the full model did not decide in 20 minutes.
//!
//! **Shortest routes (part of the same restriction).** The restricted model also keeps only
//! the hops that take a token one step farther from its origin: x(k,(u,v),t) exists only when
//! dist(k,v) = dist(k,u) + 1, so every node gets every token along a shortest path from its
//! origin. This only deletes variables (fixes them to 0), so every answer is still a schedule
//! of the instance, and rotations preserve distances, so the deleted set is closed under them.
//! Optimal H\* gossip along shortest paths on square meshes is reported in the literature
//! ("Optimal gossiping in square 2D meshes", Theoretical Computer Science 384 (2007)), whose
//! construction this project does not reproduce; here it is only a search restriction, and
//! the model at the lower bound has about half the hop variables. z3 then finds the Lemma 1
//! witness of the mesh 7×7 in 4.5 s instead of 25 s, 8×8 in 98 s instead of 500 s (one run
//! each, a second solver on the other core), and 9×9 in 100–108 s (two runs), where the
//! rotations alone gave no witness in 2000 s (docs/results.md, "Gossip: the square meshes' gap").
//!
//! **Without rotations.** A mesh with exactly one odd side, or a torus with an odd side, has
//! no rotation that maps every link onto a link without reversing one ([`Rotations::of`](crate::spec::network::grid::Rotations::of)).
//! Under F\* and H\* its restricted model is then the full model with shortest routes only,
//! nothing identified: about half the hop variables. z3 finds the total-load witness of the
//! mesh 4×7 in 6.4 s instead of 23.7 s (whole-process medians of three runs each), 5×6 in 29 s
//! instead of 242 s, and 3×8 in 40 s, which the full model left undecided after 300 s (one run
//! each); a second solver ran on the other core throughout.
//! Under F1 and H1 it is not offered: on the mesh 3×4 under F1 its probe used half of the
//! 60 s and the full model then ran out of time, where the full model alone takes 52 s.

//!
//! This module builds that restricted model from the full one (`Gossip::build` with shortest
//! routes): the places of its variables, their images under the rotations, and the quotient.

use super::{Gossip, Routes};
use crate::exact::encode::{Encoding, Event, Variant};
use crate::exact::ir::VarId;
use std::collections::HashMap;

impl Gossip<'_> {
    /// How many variables of the full model make one of `variant`'s: in the restricted model
    /// the number of rotations (1 without them), else 1.
    pub(super) fn orbit(&self, variant: Variant) -> usize {
        match (&self.rotations, variant) {
            (Some(r), Variant::Restricted) => r.perms.len(),
            _ => 1,
        }
    }

    /// The schedules the restricted model keeps, in words; `None` where it is not offered.
    pub(super) fn restriction(&self) -> Option<String> {
        if self.start.is_some() {
            return None;
        }
        let shortest = "send every token along shortest paths";
        match &self.rotations {
            Some(r) => Some(format!("schedules invariant under {} that {shortest}", r.name)),
            None => self.shortest_only.then(|| format!("schedules that {shortest}")),
        }
    }

    /// The restricted model (module documentation, "Symmetric witnesses").
    pub(super) fn restricted(&self, horizon: u64) -> Option<Encoding> {
        let label = format!("restricted to {}", self.restriction()?);
        let (mut encoding, held) = self.build(horizon, Routes::Shortest);
        let Some(rotations) = self.rotations.as_ref() else {
            encoding.model.description = format!("{}, {label}", encoding.model.description);
            return Some(encoding);
        };
        let mut index: HashMap<Place, VarId> = HashMap::with_capacity(encoding.model.variables.len());
        for &(var, event) in &encoding.events {
            if let Event::Hop { token, from, to, step } = event {
                index.insert(Place::Hop { token, from, to, step }, var);
            }
        }
        for &(var, token, node, tau) in &held {
            index.insert(Place::Held { token, node, tau }, var);
        }
        // Every variable is a hop or a holding (no packet variables: see `Gossip::new`).
        debug_assert_eq!(index.len(), encoding.model.variables.len());
        // A variable's class is the least of its images (the identity comes first). Rotations
        // preserve distances and separations, hence every window: the image of a variable is a
        // variable.
        let mut class: Vec<Option<VarId>> = vec![None; encoding.model.variables.len()];
        for (&place, &var) in &index {
            class[var.index()] =
                rotations.perms.iter().map(|perm| index.get(&place.rotated(perm)).copied()).min()?;
        }
        let class: Vec<VarId> = class.into_iter().collect::<Option<_>>()?;
        let (model, image) = encoding.model.quotient(&class, &label);
        let events = encoding.events.iter().map(|&(var, event)| (image[var.index()], event)).collect();
        Some(Encoding { horizon, model, shape: encoding.shape, events })
    }
}

/// What a gossip variable stands for, to find its images under a rotation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Place {
    /// `x`: token crosses arc (from, to) in step.
    Hop { token: usize, from: usize, to: usize, step: u64 },
    /// `h`: node holds token at the end of step tau.
    Held { token: usize, node: usize, tau: u64 },
}

impl Place {
    /// The place under node permutation `perm` (a token is named by its origin node).
    fn rotated(self, perm: &[usize]) -> Self {
        match self {
            Place::Hop { token, from, to, step } => {
                Place::Hop { token: perm[token], from: perm[from], to: perm[to], step }
            }
            Place::Held { token, node, tau } => Place::Held { token: perm[token], node: perm[node], tau },
        }
    }
}

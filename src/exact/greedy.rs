//! A simple feasible schedule that gives the exact search its ceiling U. It is the exact
//! layer's own (heuristics and exact never call each other) and, like every schedule, it is
//! checked by [`crate::checker::check`] before its length is used.
//!
//! Total exchange: every token follows its atlas path (SPEC §2); in each step the tokens are
//! taken by remaining distance, furthest first (ties: smaller token id), and each is sent if
//! the port rule (SPEC §4.2) still allows its transmission (joining a transmission already
//! open on the same arc while it carries fewer than p tokens). The first candidate of a step is
//! always sent, so the simulation ends.

use crate::error::{Error, Result};
use crate::spec::{Instance, Model, Node, PortRule, Schedule, Transmission};

/// The greedy total-exchange schedule. Callers first rule out unreachable destinations.
pub fn total_exchange(instance: &Instance) -> Result<Schedule> {
    let (rule, packet) = match instance.model {
        Model::StoreForward { rule, packet, .. } => (rule, packet),
        _ => (PortRule::FStar, 1),
    };
    let net = &instance.network;
    let mut routes: Vec<(usize, Vec<Node>)> = Vec::new();
    for p in instance.packets() {
        let route =
            net.default_path(p.src, p.dst, instance.ring_tie).ok_or_else(|| Error::NotApplicable {
                method: "exact".into(),
                reason: format!("the atlas has no path from {} to {} in {net}", p.src, p.dst),
            })?;
        routes.push((p.id, route));
    }
    let mut at = vec![0usize; routes.len()]; // index of each token's node on its route
    let mut steps = Vec::new();
    loop {
        let mut waiting: Vec<usize> = (0..routes.len()).filter(|&k| at[k] + 1 < routes[k].1.len()).collect();
        if waiting.is_empty() {
            return Ok(Schedule::StoreForward(steps));
        }
        waiting.sort_by_key(|&k| (std::cmp::Reverse(routes[k].1.len() - at[k]), routes[k].0));
        let n = net.len();
        let (mut sends, mut recvs) = (vec![0u32; n], vec![0u32; n]);
        let mut step: Vec<Transmission> = Vec::new();
        let mut moved = Vec::new();
        for k in waiting {
            let (u, v) = (routes[k].1[at[k]], routes[k].1[at[k] + 1]);
            let open = step.iter().position(|tr| tr.from == u && tr.to == v);
            let ok = match open {
                Some(i) => step[i].tokens.len() < packet,
                None => match rule {
                    PortRule::FStar => true,
                    PortRule::HStar => !step.iter().any(|tr| tr.from == v && tr.to == u),
                    PortRule::F1 => sends[u] == 0 && recvs[v] == 0,
                    PortRule::H1 => sends[u] + recvs[u] == 0 && sends[v] + recvs[v] == 0,
                },
            };
            if !ok {
                continue;
            }
            match open {
                Some(i) => step[i].tokens.push(routes[k].0),
                None => {
                    sends[u] += 1;
                    recvs[v] += 1;
                    step.push(Transmission { from: u, to: v, tokens: vec![routes[k].0] });
                }
            }
            moved.push(k);
        }
        for k in moved {
            at[k] += 1;
        }
        step.sort_by_key(|tr| (tr.from, tr.to));
        steps.push(step);
    }
}

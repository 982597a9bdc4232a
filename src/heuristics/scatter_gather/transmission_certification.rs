//! # Algorithm Transmission-Certification (paper 001 §3.2, Theorem 3)
//!
//! Gathering on any tree in four phases, every control message a one-flit
//! [`Control`] of the schedule (checked under the distributed rules and single-port):
//!
//! * **Phases 1 and 2**, token [⋆] down and certificates ⟨c_i, n_i⟩ up, as described: P_i sends the
//!   token to child j, "waits to receive that child's transmission certificate before sending the
//!   token to the next child", then certifies to its parent. One step per tree edge and direction:
//!   the two phases take 2·(number of edges) steps (an Euler tour).
//! * **The certificate** (SG-16 … SG-18): stream length n_i = L_i + Σ_j n_{i,j}; a leaf's lag is 1.
//!   P_i places segment X_{i,0} (its own L_i flits, left end ≥ d_i + 1) and then its children's
//!   streams X_{i,π(1)}, X_{i,π(2)}, … in increasing order π of their lags, each of length n_{i,j}
//!   with left end ≥ d_i + c_{i,j} + 1, gap-free; c_i is the left end of the whole. The `+ 1` is
//!   the relay step: the printed constraint c'_{i,j} = d_i + c_{i,j} is one short of the time-line,
//!   which the paper's own c_i formula and Fig. 4 follow (SG-18). [`Lag::Formula`] takes the
//!   displayed formula (SG-17) c_i = d_i + 1 + max(0, c_{i,π(1)} − L_i) + Σ_{j≥2} max(0, c_{i,π(j)}
//!   − c_{i,π(j−1)} − n_{i,π(j−1)}), [`Lag::Exact`] the smallest feasible left end (Remark 5's one
//!   pass; increasing-lag order is optimal by an exchange argument): c_i = max(d_i + 1,
//!   max_k (d_i + c_{i,π(k)} + 1 − L_i − Σ_{m<k} n_{i,π(m)})). The formula telescopes to at least
//!   that value; it is strictly larger e.g. for L_i = 2 and children (c, n) = (1, 1), (3, 1): 4
//!   against 3 (SG-17).
//! * **Phase 3**, orders "TRANSMIT AFTER s STEPS" down: P_i, told s_i at the end of step t_i, sends
//!   child j (fixed order, increasing node id) s_{i,j} = c*_{i,j} + s_i − c_i − (j + 1) in step
//!   t_i + j, c*_{i,j} being X_{i,j}'s left end: child j hears at the end of step t_i + j, sends in
//!   step t_i + j + s_{i,j}, and P_i relays one step later, at X_{i,j}'s place shifted by s_i −
//!   c_i. This is the rule that reproduces Fig. 4; the printed s_{i,j} = c*_{i,j} + s_i − c_i
//!   forgets the j + 1 steps (SG-20). P_0 acts as a PE with L_0 = 0 told s_0 = c_0 when its last
//!   certificate arrives (Fig. 4: it sends P_1 the order c_1 = 3), not the printed s_0 = 0.
//!   [`Orders::Fig4`] is this rule, [`Orders::Printed`] the text (rejected by the checker).
//! * **Phase 4**, transmission: P_i sends M_i in steps t_i + s_i … t_i + s_i + L_i − 1, then
//!   relays; P_0 receives all M = Σ L_i flits gap-free (SG-21).
//!
//! On Fig. 4's path (L = 2, 3, 0, 2, 1) this gives the transcribed schedule step for step: tokens
//! in steps 1..5, certificates (1,1), (2,3), (4,3), (3,6), (3,8) in steps 6..10, orders 3, 3, 4,
//! 2, 2 in steps 11..15, starts 14, 15, 16, 17; 21 steps. Theorem 3's 2B + C + M is 18 there
//! (B = 5, C = 0, M = 8): the bound is violated (SG-22).

use super::{DISTRIBUTED_GATHER, Tree, require};
use crate::claims::{ClaimValue, Relation, Subject};
use crate::error::Result;
use crate::heuristics::Method;
use crate::spec::{Control, ControlKind, Instance, Node, Schedule, Start};

/// How a PE computes its certified lag time c_i.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lag {
    /// The paper's displayed formula (SG-17): feasible, not always minimal.
    Formula,
    /// The smallest left end of the combined segment (SG-18, Remark 5).
    Exact,
}

/// How a PE computes its children's transmission times (phase 3).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Orders {
    /// s_{i,j} = c*_{i,j} + s_i − c_i − (j + 1), P_0 told s_0 = c_0: reproduces Fig. 4 (SG-20).
    Fig4,
    /// As printed: s_{i,j} = c*_{i,j} + s_i − c_i, P_0 told "TRANSMIT AFTER 0 STEPS". On Fig. 4
    /// it orders P_1 to transmit after 0 steps; the checker rejects the schedule (SG-20).
    Printed,
}

/// A PE's certificate and its tentative schedule (Remark 4(c)).
struct Certificate {
    /// Certified lag time c_i.
    lag: i64,
    /// Certified stream length n_i.
    stream: i64,
    /// c*_{i,j}: the left end of child j's segment (fixed child order), in P_i's frame.
    child_at: Vec<i64>,
}

/// Every PE's certificate, leaves first (P_0 included, with L_0 = 0).
fn certify(tree: &Tree, lag: Lag) -> Vec<Certificate> {
    let mut certs: Vec<Option<Certificate>> = (0..tree.len()).map(|_| None).collect();
    for i in tree.top_down().into_iter().rev() {
        let kids = &tree.children[i];
        let get = |k: usize| certs[kids[k]].as_ref().expect("children are certified first");
        let d = kids.len() as i64;
        let own = tree.lengths[i] as i64;
        let mut pi: Vec<usize> = (0..kids.len()).collect();
        pi.sort_by_key(|&k| get(k).lag);
        let c = match lag {
            Lag::Formula => {
                let mut c = d + 1;
                let mut previous: Option<&Certificate> = None;
                for &k in &pi {
                    let x = get(k);
                    c += match previous {
                        None => (x.lag - own).max(0),
                        Some(p) => (x.lag - p.lag - p.stream).max(0),
                    };
                    previous = Some(x);
                }
                c
            }
            Lag::Exact => {
                let mut c = d + 1;
                let mut before = own;
                for &k in &pi {
                    let x = get(k);
                    c = c.max(d + x.lag + 1 - before);
                    before += x.stream;
                }
                c
            }
        };
        let mut child_at = vec![0; kids.len()];
        let mut at = c + own;
        for &k in &pi {
            child_at[k] = at;
            at += get(k).stream;
        }
        certs[i] = Some(Certificate { lag: c, stream: at - c, child_at });
    }
    certs.into_iter().map(|c| c.expect("every PE is certified")).collect()
}

/// Transmission-Certification on `inst`, a distributed gather on a tree, lags by `lag`, orders
/// by `orders`.
pub fn transmission_certification(inst: &Instance, lag: Lag, orders: Orders) -> Result<Schedule> {
    let name = match lag {
        Lag::Formula => METHOD.name,
        Lag::Exact => METHOD_EXACT.name,
    };
    require(inst, &DISTRIBUTED_GATHER, name)?;
    let tree = Tree::of(inst)?;
    let certs = certify(&tree, lag);
    let control_message =
        |kind, from: Node, to: Node, start, value, value2| Control { kind, from, to, start, value, value2 };
    let mut control = Vec::new();
    // Phases 1 and 2: an Euler tour, one step per edge crossing.
    let mut step = 0i64;
    let mut stack: Vec<(Node, usize)> = vec![(0, 0)];
    while let Some((v, next)) = stack.last_mut() {
        let v = *v;
        if let Some(&child) = tree.children[v].get(*next) {
            *next += 1;
            step += 1;
            control.push(control_message(ControlKind::Token, v, child, step, None, None));
            stack.push((child, 0));
        } else {
            stack.pop();
            if let Some(parent) = tree.parent[v] {
                step += 1;
                let cert = &certs[v];
                control.push(control_message(
                    ControlKind::Certificate,
                    v,
                    parent,
                    step,
                    Some(cert.lag),
                    Some(cert.stream),
                ));
            }
        }
    }
    // Phases 3 and 4: P_i is told s_i at the end of step t_i; P_0 at the last certificate.
    let mut told = vec![(0i64, 0i64); tree.len()];
    told[0] = (step, if orders == Orders::Fig4 { certs[0].lag } else { 0 });
    let mut starts = Vec::new();
    for i in tree.top_down() {
        let (t, s) = told[i];
        let cert = &certs[i];
        for (k, &child) in tree.children[i].iter().enumerate() {
            let j = k as i64 + 1;
            let relay = if orders == Orders::Fig4 { j + 1 } else { 0 };
            let order = cert.child_at[k] + s - cert.lag - relay;
            control.push(control_message(ControlKind::Order, i, child, t + j, Some(order), None));
            told[child] = (t + j, order);
        }
        if i != 0 && tree.lengths[i] > 0 {
            starts.push(Start { msg: i, start: t + s });
        }
    }
    control.sort_by_key(|c| c.start);
    starts.sort_unstable_by_key(|s| s.msg);
    Ok(Schedule::Bufferless { starts, control })
}

/// Theorem 3's 2B + C + M (SG-22) for the tree of `tree`: B the root-to-leaf single-port
/// broadcast time for the fixed child order (the largest sum over a root-to-leaf path of the
/// ranks 1, 2, … of each node among its siblings; the depth on a path), C the largest
/// root-to-leaf sum of d_i·log2 d_i (d_i children, leaves weighing 0; the "small multiple" taken
/// as 1, rounded up), M = ΣL.
pub fn theorem_3_bound(tree: &Tree) -> (u64, u64, u64) {
    let (mut b, mut c) = (vec![0u64; tree.len()], vec![0f64; tree.len()]);
    // Parents before children: by depth.
    let mut order: Vec<Node> = (0..tree.len()).collect();
    order.sort_unstable_by_key(|&v| tree.depth[v]);
    for v in order {
        let d = tree.children[v].len() as f64;
        let weight = if d > 0.0 { d * d.log2() } else { 0.0 };
        for (rank, &child) in tree.children[v].iter().enumerate() {
            b[child] = b[v] + rank as u64 + 1;
            c[child] = c[v] + weight;
        }
    }
    let leaves = (0..tree.len()).filter(|&v| tree.children[v].is_empty());
    let c_max = leaves.clone().map(|v| c[v]).fold(0.0, f64::max).ceil() as u64;
    (leaves.map(|v| b[v]).max().unwrap_or(0), c_max, tree.lengths.iter().sum())
}

/// SG-22: Transmission-Certification takes at most 2B + C + M steps (Theorem 3).
fn theorem_3_claim(inst: &Instance) -> Option<ClaimValue> {
    let (b, c, m) = theorem_3_bound(&Tree::of(inst).ok()?);
    Some(ClaimValue {
        claim: "SG-22".into(),
        subject: Subject::Algorithm,
        about: format!("at most 2B + C + M (Theorem 3) with B = {b}, C = {c}, M = {m}"),
        value: 2 * b + c + m,
        relation: Relation::AtMost,
        convention: "commsched length; B for the fixed child order, C = max root-to-leaf Σ d·log2 d \
                     (multiple 1, rounded up), M = ΣL"
            .into(),
    })
}

/// Registry entry: the paper's lag formula.
pub const METHOD: Method = Method {
    name: "transmission-certification",
    source: "001 §3.2 Theorem 3, lags by the displayed formula, orders by the Fig. 4 rule (SG-20); \
             SG-16..SG-22, SG-31",
    summary: "distributed gather on a tree: token down and certificates (c, n) up child by child, orders \
              \"TRANSMIT AFTER s STEPS\" down, one gap-free stream into P_0; Fig. 4: 21 steps, above \
              Theorem 3's 2B + C + M = 18",
    applicability: DISTRIBUTED_GATHER,
    claim: theorem_3_claim,
    run: |inst| transmission_certification(inst, Lag::Formula, Orders::Fig4),
};

/// Registry entry: minimal lags.
pub const METHOD_EXACT: Method = Method {
    name: "transmission-certification-exact",
    source: "001 §3.2 Remark 5 (segment optimum for the lags), Theorem 3; SG-17, SG-18",
    summary: "Transmission-Certification with each certified lag the smallest left end of the combined \
              segment (Remark 5) instead of the displayed formula; never longer",
    applicability: DISTRIBUTED_GATHER,
    claim: |_| None,
    run: |inst| transmission_certification(inst, Lag::Exact, Orders::Fig4),
};

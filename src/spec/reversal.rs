//! # A fat-tree broadcast run backwards (paper 002 §5, relation 3; FT-23, FT-24)
//!
//! Running a broadcast backwards in time turns it into a product: every message goes from its
//! receiver to its sender, an up-channel crossing becomes a crossing of the same node's
//! down-channel (of equal capacity) and a submission becomes a receipt (docs/spec.md §4.3). The
//! paper notes that this "requires, in general, commutativity"; ⋆ is not commutative here, so
//! every broadcast message gets a *responsibility*, the index range it carries back:
//!
//! - the parent of a message from P_u is the last message P_u received before it was sent (P_0
//!   starts as the root and needs none);
//! - P_x's own index belongs to the last message P_x receives (P_0's to the root);
//! - a message's range is its own index (if any) together with the ranges of its children. They
//!   must chain into one range, else the reversal is refused. A message with nothing to carry
//!   (a duplicate copy) has no range.
//!
//! [`responsibilities`] works on messages ordered by opaque keys, so that the phased algorithms
//! ("received in an earlier phase") and the exact layer's witnesses (absolute steps) share it;
//! [`reverse_broadcast`] is the second use.

use super::FatTreeSend;

/// A broadcast message for [`responsibilities`]: it is sent at key `sent` and received at key
/// `arrived`; a receipt can feed a message whose `sent` key is larger than its `arrived` key.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Timed {
    /// When it is submitted.
    pub sent: i64,
    /// When it is received.
    pub arrived: i64,
    /// Sender.
    pub from: usize,
    /// Receiver.
    pub to: usize,
}

/// The range each message of a broadcast from P_0 to processors 0..n−1 carries back (`None`:
/// nothing to carry), in the order of `messages`. An error names the first message that breaks
/// the rules: a processor beyond P_{n−1}, a send before its sender holds the value, a processor
/// that never receives, or ranges that do not chain.
pub fn responsibilities(messages: &[Timed], n: usize) -> Result<Vec<Option<[usize; 2]>>, String> {
    let mut order: Vec<usize> = (0..messages.len()).collect();
    order.sort_by_key(|&e| messages[e].sent);
    // rank[e]: where message e stands in `order`; between receipts at equal keys the later wins.
    let mut rank = vec![0; messages.len()];
    for (i, &e) in order.iter().enumerate() {
        rank[e] = i;
    }
    // receipts[x]: (arrival key, message) of every message to P_x seen so far, in `order`.
    let mut receipts: Vec<Vec<(i64, usize)>> = vec![Vec::new(); n];
    let root = messages.len();
    let mut parent = vec![root; messages.len()];
    for &e in &order {
        let m = messages[e];
        if m.from.max(m.to) >= n {
            return Err(format!("P{} -> P{} names a processor beyond P{}", m.from, m.to, n - 1));
        }
        // Every earlier receipt was sent before this message, so it is among those seen.
        let fed = receipts[m.from].iter().filter(|r| r.0 < m.sent).max_by_key(|r| (r.0, rank[r.1]));
        match fed {
            Some(&(_, p)) => parent[e] = p,
            None if m.from == 0 => {}
            None => return Err(format!("P{} sends before it holds the value", m.from)),
        }
        receipts[m.to].push((m.arrived, e));
    }
    let mut pieces: Vec<Vec<[usize; 2]>> = vec![Vec::new(); root + 1];
    pieces[root].push([0, 0]);
    for (x, got) in receipts.iter().enumerate().skip(1) {
        match got.iter().max_by_key(|r| (r.0, rank[r.1])) {
            Some(&(_, e)) => pieces[e].push([x, x]),
            None => return Err(format!("P{x} never receives the value")),
        }
    }
    // Children are sent after their parents arrive, so later in `order`: visit it backwards.
    let mut range = vec![None; root + 1];
    for e in order.iter().rev().copied().chain([root]) {
        let mut own = std::mem::take(&mut pieces[e]);
        own.sort_unstable();
        if own.windows(2).any(|w| w[1][0] != w[0][1] + 1) {
            let shown: Vec<String> = own.iter().map(|[a, b]| format!("[{a},{b}]")).collect();
            return Err(format!(
                "the ranges gathered at one message are not contiguous ({}): the reversal would need a \
                 commutative operation",
                shown.join(", ")
            ));
        }
        range[e] = own.first().map(|f| [f[0], own[own.len() - 1][1]]);
        if let (Some(r), true) = (range[e], e < root) {
            pieces[parent[e]].push(r);
        }
    }
    if range[root] != Some([0, n - 1]) {
        return Err("the broadcast does not reach every processor".into());
    }
    range.truncate(root);
    Ok(range)
}

/// A broadcast from P_0 on `fat-tree:n` run backwards as a product: a message submitted in
/// step s with LCA height h and received at the end of step a = s + 2h − 1 becomes its reverse,
/// submitted in step L + 1 − a and received at the end of step L + 1 − s, where L is the last
/// receipt; it carries its responsibility. Duplicates are dropped. That map keeps the pipelined
/// model's rules. With `rounds`, a is the end of the message's round instead, so the reversed
/// round's messages all leave in its first step: a round again, of the same height, whose
/// channel loads are the rules' business only where channels bind (a message entering a
/// block crossed its down-channel in a step set by its LCA height; backwards, they all cross
/// its up-channel in one step). The checker decides.
pub fn reverse_broadcast(sends: &[FatTreeSend], n: usize, rounds: bool) -> Result<Vec<FatTreeSend>, String> {
    let timed: Vec<Timed> =
        sends.iter().map(|s| Timed { sent: s.step, arrived: s.arrival(), from: s.from, to: s.to }).collect();
    let ranges = responsibilities(&timed, n)?;
    let last = timed.iter().map(|t| t.arrived).max().unwrap_or(0);
    // In rounds, every message sent in a step ends with the round that step starts.
    let mut round_end: std::collections::HashMap<i64, i64> = std::collections::HashMap::new();
    for t in timed.iter().filter(|_| rounds) {
        let end = round_end.entry(t.sent).or_insert(t.arrived);
        *end = (*end).max(t.arrived);
    }
    let end = |t: &Timed| round_end.get(&t.sent).copied().unwrap_or(t.arrived);
    let mut out: Vec<FatTreeSend> = timed
        .iter()
        .zip(ranges)
        .filter_map(|(t, range)| {
            range.map(|payload| FatTreeSend { step: last + 1 - end(t), from: t.to, to: t.from, payload })
        })
        .collect();
    out.sort_by_key(|s| (s.step, s.from, s.to));
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn send(step: i64, from: usize, to: usize) -> FatTreeSend {
        carrying(step, from, to, [0, 0])
    }

    fn carrying(step: i64, from: usize, to: usize, payload: [usize; 2]) -> FatTreeSend {
        FatTreeSend { step, from, to, payload }
    }

    /// Recursive halving on fat-tree:4.
    fn halving() -> [FatTreeSend; 3] {
        [send(1, 0, 2), send(5, 0, 1), send(5, 2, 3)]
    }

    /// fat-tree:4, P_0 → P_2 (height 2, steps 1–4), then P_0 → P_1 and P_2 → P_3 (height 1,
    /// steps 5–6): the subtrees are [1, 1], [2, 3] and [3, 3], and backwards P_1 → P_0 and
    /// P_3 → P_2 go first (steps 1–2), then P_2 → P_0 with [2, 3] in steps 3–6.
    #[test]
    fn a_recursive_halving_broadcast_reverses_into_a_product() {
        assert_eq!(
            reverse_broadcast(&halving(), 4, false).unwrap(),
            vec![carrying(1, 1, 0, [1, 1]), carrying(1, 3, 2, [3, 3]), carrying(3, 2, 0, [2, 3])]
        );
    }

    /// A broadcast in rounds on fat-tree:8 whose second round mixes heights: P_0 → P_4 (steps
    /// 1–6); P_0 → P_2 and P_4 → P_5 (steps 7–10, the second received at the end of step 8);
    /// P_0 → P_1, P_2 → P_3, P_4 → P_7, P_5 → P_6 (steps 11–14). Backwards in rounds every
    /// message of a round leaves in its mirror's first step (P_5 → P_4 in step 5 with P_2 → P_0,
    /// not in step 7 as the pipelined map puts it), and the checker accepts the product in
    /// rounds under w = n with the broadcast's length.
    #[test]
    fn a_broadcast_in_rounds_reverses_round_by_round() {
        let forward = [
            send(1, 0, 4),
            send(7, 0, 2),
            send(7, 4, 5),
            send(11, 0, 1),
            send(11, 2, 3),
            send(11, 4, 7),
            send(11, 5, 6),
        ];
        let sent = carrying;
        let rounds = reverse_broadcast(&forward, 8, true).unwrap();
        assert_eq!(
            rounds,
            vec![
                sent(1, 1, 0, [1, 1]),
                sent(1, 3, 2, [3, 3]),
                sent(1, 6, 5, [6, 6]),
                sent(1, 7, 4, [7, 7]),
                sent(5, 2, 0, [2, 3]),
                sent(5, 5, 4, [5, 6]),
                sent(9, 4, 0, [4, 7]),
            ]
        );
        let pipelined = reverse_broadcast(&forward, 8, false).unwrap();
        assert!(pipelined.contains(&sent(7, 5, 4, [5, 6])), "{pipelined:?}");
        let text = "problem = \"product\"\nnetwork = \"fat-tree:8\"\n[model]\nkind = \"fat-tree\"\ncapacity = \"pow:1\"\nrounds = true\n";
        let product = crate::spec::io::parse_instance(text, "<test>", "product").unwrap();
        let checked =
            crate::checker::check_produced(&product, &crate::spec::Schedule::FatTree(rounds), "test");
        assert_eq!(checked.unwrap().length(), 14);
    }

    /// P_0 → P_3, then P_3 → P_1 and P_0 → P_2: P_3's subtree {1, 3} is not a range.
    #[test]
    fn a_subtree_that_is_not_a_range_is_refused() {
        let forward = [send(1, 0, 3), send(5, 3, 1), send(5, 0, 2)];
        let err = reverse_broadcast(&forward, 4, false).unwrap_err();
        assert!(err.contains("not contiguous ([1,1], [3,3])"), "{err}");
        let early = [send(1, 1, 2)];
        assert_eq!(reverse_broadcast(&early, 4, false).unwrap_err(), "P1 sends before it holds the value");
    }
}

//! The shared suites every registered producer joins through its registry, with no test code of
//! its own (in the manner of rustsat's one suite for every solver):
//!
//! - **algorithms** ([`commsched::heuristics::all`]): on every corpus instance it applies to, its
//!   schedule passes the checker, is never below the strongest lower bound, never below the exact
//!   optimum where an encoder applies, and is deterministic. Every registered algorithm must
//!   apply to at least one corpus instance: a new algorithm joins by adding its paper's tiny
//!   instances to [`corpus`] (one line) if none fits yet.
//! - **encoders** ([`commsched::exact::encode::ENCODERS`]): on every tiny instance, every
//!   available backend finds the same optimum from the lower bounds alone, and that optimum
//!   equals an exhaustive search's ([`brute_force`]). Every encoder must have a tiny instance.

use commsched::bounds;
use commsched::checker::{self, Producer};
use commsched::exact::{self, BackendKind, Outcome, SolveOptions, encode};
use commsched::heuristics;
use commsched::spec::io::{instance_files, load_instance, parse_instance};
use commsched::spec::{GatherMode, Instance, Mode, Model, Port, PortRule, Problem};
use std::collections::{HashMap, HashSet};
use std::path::PathBuf;

/// A tiny store-and-forward instance from its network, problem, rule and packet size.
pub(crate) fn tiny(problem: &str, net: &str, rule: &str, packet: usize) -> Instance {
    let mode = if problem == "gossip" { "copy" } else { "move" };
    let text = format!(
        "problem = \"{problem}\"\nnetwork = \"{net}\"\n[model]\nkind = \"store-forward\"\nmode = \"{mode}\"\nrule = \"{rule}\"\npacket = {packet}"
    );
    parse_instance(&text, "<suite>", &format!("{problem}-{net}-{rule}-p{packet}")).unwrap()
}

/// Tiny instances small enough for the exact layer and [`brute_force`] (store-and-forward: at
/// most 6 items on 3 nodes, or 3 gossip tokens, the search's state space stays in the hundreds;
/// bufferless: at most 4 messages): per paper, the networks and models
/// its algorithms and encoders are stated for.
fn tiny_instances() -> Vec<Instance> {
    let mut out = Vec::new();
    for net in ["path:2", "path:3", "ring:3"] {
        for rule in ["F*", "H*", "F1", "H1"] {
            out.push(tiny("total-exchange", net, rule, 1));
        }
    }
    out.push(tiny("total-exchange", "path:3", "H*", 2));
    out.push(tiny("total-exchange", "ring:3", "F1", 2));
    // Paper 003: gossip (copy mode) under every rule, and with packets of two tokens.
    for net in ["path:2", "path:3", "ring:3"] {
        for rule in ["F*", "H*", "F1", "H1"] {
            out.push(tiny("gossip", net, rule, 1));
        }
    }
    out.push(tiny("gossip", "path:3", "H*", 2));
    out.push(tiny("gossip", "ring:3", "H1", 2));
    // Paper 001: single-port scatter and gather on a small tree and a path; distributed gather
    // with its wake-up calls on a path and a tree.
    for (problem, net, lengths, gather) in [
        ("scatter", "tree:0,0,1,1", "[2, 1, 3, 1]", "centralized"),
        ("gather", "tree:0,0,1,1", "[2, 1, 3, 1]", "centralized"),
        ("gather", "path:4", "[2, 1, 3]", "distributed"),
        ("gather", "tree:0,0,1", "[1, 2, 1]", "distributed"),
    ] {
        let text = format!(
            "problem = \"{problem}\"\nnetwork = \"{net}\"\nlengths = {lengths}\n[model]\nkind = \"bufferless\"\nport = \"single\"\ngather = \"{gather}\""
        );
        out.push(parse_instance(&text, "<suite>", &format!("{problem}-{net}-{gather}")).unwrap());
    }
    // Paper 000: chatting on a ULA, a ring and a tree; real and virtual, multi- and single-port.
    for (net, model, messages) in [
        ("ula:4", "port = \"multi\"", [(0, 2, 2), (1, 3, 1), (0, 3, 1)]),
        ("ula:4", "virtual = true", [(0, 2, 2), (1, 3, 1), (0, 3, 1)]),
        ("ula:4", "port = \"single\"", [(0, 2, 2), (1, 3, 1), (0, 3, 1)]),
        ("ring:4", "port = \"multi\"", [(0, 2, 1), (1, 3, 2), (3, 1, 1)]),
        ("ring:4", "port = \"single\"\nvirtual = true", [(0, 2, 1), (1, 3, 2), (3, 1, 1)]),
        ("tree:0,0,1", "port = \"single\"", [(3, 2, 2), (0, 3, 1), (2, 1, 1)]),
        ("tree:0,0,1", "virtual = true", [(3, 2, 2), (0, 3, 1), (2, 1, 1)]),
    ] {
        let mut text =
            format!("problem = \"chatting\"\nnetwork = \"{net}\"\n[model]\nkind = \"bufferless\"\n{model}\n");
        for (src, dst, length) in messages {
            text += &format!("[[messages]]\nsrc = {src}\ndst = {dst}\nlength = {length}\n");
        }
        let name = format!("chatting-{net}-{}", model.replace(['\n', ' ', '"'], ""));
        out.push(parse_instance(&text, "<suite>", &name).unwrap());
    }
    // Paper 002: broadcast, product and prefix on the ideal fat-tree, pipelined and in rounds,
    // under one unit of capacity and under w = log + 1 (w(2) = 2 lets two messages share the
    // channels above a pair). Pipelined prefix under w = 1 on fat-tree:4 is left out: its
    // exhaustive search alone takes seconds (it must rule out every schedule of 5 steps).
    for problem in ["broadcast", "product", "prefix"] {
        for (net, capacity) in [("fat-tree:2", "const:1"), ("fat-tree:4", "const:1"), ("fat-tree:4", "log+1")]
        {
            for rounds in [false, true] {
                if (problem, net, capacity, rounds) == ("prefix", "fat-tree:4", "const:1", false) {
                    continue;
                }
                let text = format!(
                    "problem = \"{problem}\"\nnetwork = \"{net}\"\n[model]\nkind = \"fat-tree\"\ncapacity = \"{capacity}\"\nrounds = {rounds}\n"
                );
                let name = format!("{problem}-{net}-{capacity}-rounds-{rounds}");
                out.push(parse_instance(&text, "<suite>", &name).unwrap());
            }
        }
    }
    // The collective model (one round per step): switch groups, multicast, C = 2.
    for (problem, net, extra) in [
        ("allgather", "path:3", ""),
        ("allgather", "fully-connected:4", ""),
        ("allgather", "hub-and-spoke:3", ""),
        ("alltoall", "ring:3", ""),
        ("broadcast", "star:3", "chunks = 2\n"),
    ] {
        let text =
            format!("problem = \"{problem}\"\nnetwork = \"{net}\"\n{extra}[model]\nkind = \"collective\"\n");
        out.push(parse_instance(&text, "<suite>", &format!("{problem}-{net}")).unwrap());
    }
    out
}

/// The corpus of the algorithm suite: the tiny instances and every instance file of the papers.
fn corpus() -> Vec<Instance> {
    let files = instance_files(&[PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("instances")]).unwrap();
    let mut out = tiny_instances();
    out.extend(files.iter().map(|(_, f)| load_instance(f).unwrap()));
    out
}

/// The exact optimum from the lower bounds alone (no incumbent), with every available backend,
/// which must agree. `None` when no encoder applies.
fn exact_optimum(inst: &Instance) -> Option<u64> {
    encode::encoder_for(inst).ok()?;
    let bounds = bounds::lower_bounds(inst);
    let optima: Vec<(BackendKind, u64)> = BackendKind::available()
        .into_iter()
        .map(|b| match exact::solve(inst, b, &SolveOptions::default(), &bounds, None).unwrap() {
            Outcome::Optimal { checked, .. } => {
                assert_eq!(
                    checker::check(inst, checked.schedule()).admissible().map(|m| m.length()),
                    Some(checked.length())
                );
                (b, checked.length())
            }
            Outcome::Bounds { stop, .. } => panic!("{} with {b}: stopped: {stop}", inst.name),
        })
        .collect();
    let first = optima[0].1;
    assert!(optima.iter().all(|&(_, o)| o == first), "{}: backends disagree: {optima:?}", inst.name);
    Some(first)
}

#[test]
fn every_algorithm_is_checked_bounded_optimal_at_best_and_deterministic() {
    let corpus = corpus();
    let mut optima: HashMap<String, Option<u64>> = HashMap::new();
    for m in heuristics::all() {
        let mut applied = 0;
        for inst in corpus.iter().filter(|i| m.applies(i).is_ok()) {
            applied += 1;
            let schedule = m.produce(inst).unwrap_or_else(|e| panic!("{} on {}: {e}", m.name, inst.name));
            let again = m.produce(inst).unwrap();
            assert_eq!(schedule, again, "{} on {} is not deterministic", m.name, inst.name);
            let checked = checker::accept(inst, schedule, Producer::Algorithm(m.name))
                .unwrap_or_else(|e| panic!("{} on {}: {e}", m.name, inst.name));
            if let Some(b) = bounds::best(inst) {
                assert!(
                    checked.length() >= b.value,
                    "{} on {}: {} below {} = {}",
                    m.name,
                    inst.name,
                    checked.length(),
                    b.name,
                    b.value
                );
            }
            if inst.network.len() <= 4 {
                let opt = *optima.entry(inst.name.clone()).or_insert_with(|| exact_optimum(inst));
                if let Some(opt) = opt {
                    assert!(
                        checked.length() >= opt,
                        "{} on {}: {} below the optimum {opt}",
                        m.name,
                        inst.name,
                        checked.length()
                    );
                }
            }
        }
        assert!(
            applied > 0,
            "{} applies to no corpus instance: add its paper's tiny instances to corpus()",
            m.name
        );
    }
}

#[test]
fn every_encoder_agrees_across_backends_and_with_exhaustive_search() {
    let instances = tiny_instances();
    for entry in encode::ENCODERS {
        let mine: Vec<&Instance> =
            instances.iter().filter(|i| entry.applicability.check(i).is_ok()).collect();
        assert!(
            !mine.is_empty(),
            "encoder {} has no tiny instance: add some to tiny_instances()",
            entry.name
        );
        for inst in mine {
            let optimum = exact_optimum(inst).expect("the encoder applies");
            assert_eq!(Some(optimum), brute_force(inst, 12), "{}: exact vs exhaustive search", inst.name);
        }
    }
}

/// The optimum of a tiny instance up to `limit` steps by exhaustive search, independent of the
/// checker and the encoders: store-and-forward by [`store_forward_search`], bufferless (real or
/// virtual start times) by [`start_search`].
pub(crate) fn brute_force(inst: &Instance, limit: u64) -> Option<u64> {
    match inst.model {
        Model::Bufferless { .. } => start_search(inst, limit),
        Model::FatTree { .. } => fat_tree_search(inst, limit),
        Model::Collective { rounds: None } => collective_search(inst, limit),
        _ => store_forward_search(inst, limit),
    }
}

/// The least number of steps of a collective with one round per step (docs/spec.md §4.4), up to
/// `limit`, by breadth-first search over what every node holds: each step sends any set of
/// (chunk, arc) pairs whose sender holds the chunk and whose receiver does not, within every
/// arc's and switch group's bandwidth, one copy of a chunk per receiver.
fn collective_search(inst: &Instance, limit: u64) -> Option<u64> {
    let Problem::Collective(c) = &inst.problem else { return None };
    let net = &inst.network;
    let n = net.len();
    let chunks = c.chunk_table(n);
    let bit = |chunk: usize, v: usize| 1u64 << (chunk * n + v);
    let start: u64 =
        chunks.iter().enumerate().flat_map(|(i, ch)| ch.sources.iter().map(move |&v| bit(i, v))).sum();
    let goal: u64 = chunks
        .iter()
        .enumerate()
        .flat_map(|(i, ch)| ch.targets.iter().map(move |&v| bit(i, v)))
        .fold(0, |a, b| a | b);
    let mut level = HashSet::from([start]);
    for steps in 0..=limit {
        if level.iter().any(|&s| s & goal == goal) {
            return Some(steps);
        }
        let mut next = HashSet::new();
        for &held in &level {
            let candidates: Vec<(usize, usize)> = (0..chunks.len())
                .flat_map(|ch| (0..net.arcs().len()).map(move |a| (ch, a)))
                .filter(|&(ch, a)| {
                    let (u, v) = net.arcs()[a];
                    held & bit(ch, u) != 0 && held & bit(ch, v) == 0
                })
                .collect();
            'subsets: for mask in 1u64..(1 << candidates.len()) {
                let chosen: Vec<(usize, usize)> =
                    (0..candidates.len()).filter(|&i| mask >> i & 1 == 1).map(|i| candidates[i]).collect();
                let mut after = held;
                for &(ch, a) in &chosen {
                    let v = net.arcs()[a].1;
                    if after & bit(ch, v) != 0 && held & bit(ch, v) == 0 {
                        continue 'subsets; // a second copy for the same receiver
                    }
                    after |= bit(ch, v);
                }
                let over = |arcs: &dyn Fn(usize) -> bool, cap: u64| {
                    chosen.iter().filter(|&&(_, a)| arcs(a)).count() as u64 > cap
                };
                if (0..net.arcs().len()).any(|a| over(&|b| b == a, net.bandwidth(a))) {
                    continue;
                }
                if net.switches().iter().any(|sw| {
                    over(
                        &|a| {
                            sw.sources.contains(&net.arcs()[a].0)
                                && sw.destinations.contains(&net.arcs()[a].1)
                        },
                        sw.bandwidth,
                    )
                }) {
                    continue;
                }
                next.insert(after);
            }
        }
        level = next;
    }
    None
}

/// The least length of a broadcast from P_0 on an ideal fat-tree (docs/spec.md §4.3), up to
/// `limit` steps, by trying every set of sends step by step (pipelined) or round by round (round
/// model) for T = 0, 1, …: a message from a to b with lowest common ancestor at height h, sent
/// in step s, crosses the up-channel above a's height-k ancestor in step s + k and the
/// down-channel into b's in step s + 2h − 1 − k, at most w(2^k) messages per channel and step,
/// and b holds the value from the end of step s + 2h − 1. Every rule only caps what is sent, so
/// deleting a message keeps a schedule admissible: the search sends only to processors that
/// neither hold the value nor have it on the way (which also keeps one receipt per processor,
/// step and round).
fn fat_tree_search(inst: &Instance, limit: u64) -> Option<u64> {
    let Model::FatTree { capacity, rounds } = &inst.model else { return None };
    let n = inst.network.len();
    let levels = n.trailing_zeros() as usize;
    if inst.problem != Problem::Broadcast {
        return (0..=limit).find(|&horizon| {
            let search = FatTreeSearch { caps: (0..levels).map(|k| capacity.w(1 << k)).collect(), horizon };
            let goals: Vec<Option<Span>> = match inst.problem {
                Problem::Product => (0..n).map(|i| (i == 0).then_some((0, n - 1))).collect(),
                _ => (0..n).map(|i| Some((0, i))).collect(),
            };
            let mut combine = Combine { goals, held: vec![Vec::new(); n], receipts: HashSet::new() };
            if *rounds {
                search.combine_in_rounds(1, &mut combine)
            } else {
                search.combine_pipelined(1, &mut combine, &mut Loads::new())
            }
        });
    }
    (0..=limit).find(|&horizon| {
        let search = FatTreeSearch { caps: (0..levels).map(|k| capacity.w(1 << k)).collect(), horizon };
        let mut holds = vec![None; n];
        holds[0] = Some(0);
        if *rounds {
            search.in_rounds(1, &mut holds)
        } else {
            search.pipelined(1, &mut holds, &mut Loads::new())
        }
    })
}

/// Messages per (channel, step); a channel is (level, node, up).
type Loads = HashMap<((usize, usize, bool), u64), u64>;

/// What the search does once a step's (or round's) sends are chosen: holdings, loads, receivers.
type Continue<'a> = dyn FnMut(&mut Vec<Option<u64>>, &mut Loads, &[usize]) -> bool + 'a;

/// [`fat_tree_search`] at one horizon; `holds[v]`: the step from whose end v holds the value.
struct FatTreeSearch {
    caps: Vec<u64>,
    horizon: u64,
}

impl FatTreeSearch {
    /// The (channel, step) cells of a message from a to b sent in step s.
    fn cells(a: usize, b: usize, s: u64) -> Vec<((usize, usize, bool), u64)> {
        let h = (0..).find(|&h| a >> h == b >> h).unwrap();
        (0..h)
            .flat_map(|k| {
                [((k, a >> k, true), s + k as u64), ((k, b >> k, false), s + 2 * h as u64 - 1 - k as u64)]
            })
            .collect()
    }

    /// Pipelined: step s chooses the sends of every processor holding the value since s − 1.
    fn pipelined(&self, s: u64, holds: &mut Vec<Option<u64>>, loads: &mut Loads) -> bool {
        if s > self.horizon {
            return holds.iter().all(Option::is_some);
        }
        let senders: Vec<usize> = (0..holds.len()).filter(|&v| holds[v].is_some_and(|t| t < s)).collect();
        self.choose(&senders, s, holds, loads, &mut Vec::new(), &mut |holds, loads, _| {
            self.pipelined(s + 1, holds, loads)
        })
    }

    /// Rounds: a round starting in s whose tallest message has height H lasts 2H steps.
    fn in_rounds(&self, s: u64, holds: &mut Vec<Option<u64>>) -> bool {
        if holds.iter().all(Option::is_some) {
            return true;
        }
        let senders: Vec<usize> = (0..holds.len()).filter(|&v| holds[v].is_some()).collect();
        self.choose(&senders, s, holds, &mut Loads::new(), &mut Vec::new(), &mut |holds, _, sent| {
            let Some(end) = sent.iter().map(|&b| holds[b].unwrap()).max() else { return false };
            self.in_rounds(end + 1, holds)
        })
    }

    /// Chooses for each of `senders` a target (or none) in step s, then calls `next` with the
    /// receivers chosen.
    fn choose(
        &self,
        senders: &[usize],
        s: u64,
        holds: &mut Vec<Option<u64>>,
        loads: &mut Loads,
        sent: &mut Vec<usize>,
        next: &mut Continue,
    ) -> bool {
        let Some((&a, rest)) = senders.split_first() else { return next(holds, loads, sent) };
        if self.choose(rest, s, holds, loads, sent, next) {
            return true;
        }
        for b in 0..holds.len() {
            if holds[b].is_some() {
                continue;
            }
            let route = Self::cells(a, b, s);
            let arrival = route.iter().map(|&(_, t)| t).max().unwrap();
            if arrival > self.horizon
                || route.iter().any(|c| loads.get(c).copied().unwrap_or(0) >= self.caps[c.0.0])
            {
                continue;
            }
            for &c in &route {
                *loads.entry(c).or_default() += 1;
            }
            holds[b] = Some(arrival);
            sent.push(b);
            let found = self.choose(rest, s, holds, loads, sent, next);
            sent.pop();
            holds[b] = None;
            for c in &route {
                *loads.get_mut(c).unwrap() -= 1;
            }
            if found {
                return true;
            }
        }
        false
    }
}

/// An index range [lo, hi]: the product a_lo ⋆ … ⋆ a_hi.
type Span = (usize, usize);

/// The state of a product or prefix search: P_i starts with [i, i] and must end able to form
/// `goals[i]`; `held[v]`: the ranges v has received, with the step from whose end it holds
/// them; `receipts`: the (processor, step) pairs that already receive a message.
struct Combine {
    goals: Vec<Option<Span>>,
    held: Vec<Vec<(Span, u64)>>,
    receipts: HashSet<(usize, u64)>,
}

/// What the product and prefix search does once a step's (or round's) sends are chosen, given
/// the (receiver, arrival) pairs chosen.
type ContinueRanges<'a> = dyn FnMut(&mut Combine, &mut Loads, &[(usize, u64)]) -> bool + 'a;

impl Combine {
    /// `forms[lo][hi]`: whether v can chain [lo, hi] at the end of step τ from [v, v] and what
    /// it holds by then (a_lo ⋆ … ⋆ a_hi only from adjacent ranges: ⋆ need not commute).
    fn forms(&self, v: usize, tau: u64) -> Vec<Vec<bool>> {
        let n = self.held.len();
        let held: Vec<Span> =
            self.held[v].iter().filter(|&&(_, t)| t <= tau).map(|&(r, _)| r).chain([(v, v)]).collect();
        let mut forms = vec![vec![false; n]; n];
        for lo in (0..n).rev() {
            for &(_, b) in held.iter().filter(|&&(a, _)| a == lo) {
                let (head, tail) = forms.split_at_mut(b + 1);
                head[lo][b] = true;
                if let Some(next) = tail.first() {
                    for (f, &g) in head[lo].iter_mut().zip(next).skip(b + 1) {
                        *f |= g;
                    }
                }
            }
        }
        forms
    }

    fn done(&self, horizon: u64) -> bool {
        self.goals.iter().enumerate().all(|(v, g)| g.is_none_or(|(lo, hi)| self.forms(v, horizon)[lo][hi]))
    }
}

impl FatTreeSearch {
    /// Product or prefix, pipelined: step s chooses each processor's send.
    fn combine_pipelined(&self, s: u64, state: &mut Combine, loads: &mut Loads) -> bool {
        if s > self.horizon {
            return state.done(self.horizon);
        }
        let senders: Vec<usize> = (0..state.held.len()).collect();
        self.choose_ranges(&senders, s, false, state, loads, &mut Vec::new(), &mut |state, loads, _| {
            self.combine_pipelined(s + 1, state, loads)
        })
    }

    /// Product or prefix in rounds: a round starting in s whose tallest message has height H
    /// lasts 2H steps; each processor receives at most one message per round.
    fn combine_in_rounds(&self, s: u64, state: &mut Combine) -> bool {
        if state.done(s - 1) {
            return true;
        }
        let senders: Vec<usize> = (0..state.held.len()).collect();
        self.choose_ranges(
            &senders,
            s,
            true,
            state,
            &mut Loads::new(),
            &mut Vec::new(),
            &mut |state, _, sent| {
                let Some(end) = sent.iter().map(|&(_, t)| t).max() else { return false };
                self.combine_in_rounds(end + 1, state)
            },
        )
    }

    /// Chooses for each of `senders` a target and a range it can form at the end of step
    /// s − 1 (or nothing) in step s, then calls `next` with the (receiver, arrival) pairs
    /// chosen. Only ranges the receiver cannot yet form the step before the arrival are sent
    /// (deleting the others keeps a schedule admissible and every holding unchanged), and a
    /// receiver gets at most one message per step (and per call when `per_round`).
    #[allow(clippy::too_many_arguments)]
    fn choose_ranges(
        &self,
        senders: &[usize],
        s: u64,
        per_round: bool,
        state: &mut Combine,
        loads: &mut Loads,
        sent: &mut Vec<(usize, u64)>,
        next: &mut ContinueRanges,
    ) -> bool {
        let Some((&a, rest)) = senders.split_first() else { return next(state, loads, sent) };
        if self.choose_ranges(rest, s, per_round, state, loads, sent, next) {
            return true;
        }
        let n = state.held.len();
        let offers = state.forms(a, s - 1);
        for b in (0..n).filter(|&b| b != a) {
            let route = Self::cells(a, b, s);
            let arrival = route.iter().map(|&(_, t)| t).max().unwrap();
            if arrival > self.horizon
                || state.receipts.contains(&(b, arrival))
                || (per_round && sent.iter().any(|&(r, _)| r == b))
                || route.iter().any(|c| loads.get(c).copied().unwrap_or(0) >= self.caps[c.0.0])
            {
                continue;
            }
            let known = state.forms(b, arrival - 1);
            for lo in 0..n {
                for hi in lo..n {
                    if !offers[lo][hi] || known[lo][hi] {
                        continue;
                    }
                    for &c in &route {
                        *loads.entry(c).or_default() += 1;
                    }
                    state.held[b].push(((lo, hi), arrival));
                    state.receipts.insert((b, arrival));
                    sent.push((b, arrival));
                    let found = self.choose_ranges(rest, s, per_round, state, loads, sent, next);
                    sent.pop();
                    state.receipts.remove(&(b, arrival));
                    state.held[b].pop();
                    for c in &route {
                        *loads.get_mut(c).unwrap() -= 1;
                    }
                    if found {
                        return true;
                    }
                }
            }
        }
        false
    }
}

/// The least length of a bufferless schedule for `inst` (chatting, scatter or gather;
/// docs/spec.md §4.1), by trying every start vector with starts in 1..=T for T = 0, 1, …,
/// `limit`: flit h of a message crosses the k-th arc of its path in step s + h + k (a virtual
/// schedule holds every arc of the path in steps v..v + ℓ − 1), no arc carries two flits in a
/// step, and under the single-port rule (real schedules) no node sends two or receives two.
/// Normalised to begin in step 1, a schedule of length ≤ T has every start in 1..=T, so the first
/// T with a vector whose last occupied step is ≤ T is the optimum, in either length convention.
/// A distributed gather also places its wake-up calls ([`wake_up_search`]).
fn start_search(inst: &Instance, limit: u64) -> Option<u64> {
    let Model::Bufferless { port, virtual_schedule, gather } = inst.model else { return None };
    let single = port == Port::Single && !virtual_schedule;
    let messages = inst.messages().unwrap();
    let cells: Vec<Vec<(String, u64)>> =
        messages.iter().map(|m| cells_of(&m.nodes, m.len, virtual_schedule, single)).collect();
    if matches!(inst.problem, Problem::Gather(_)) && gather == GatherMode::Distributed {
        return (0..=limit).find(|&horizon| wake_up_search(inst, &cells, single, horizon));
    }
    let first = vec![1; cells.len()];
    (0..=limit).find(|&horizon| place(&cells, &first, horizon, &mut HashSet::new()))
}

/// Per message: the (place, step offset) pairs it occupies relative to its start, along `nodes`.
fn cells_of(nodes: &[usize], len: u64, virtual_schedule: bool, single: bool) -> Vec<(String, u64)> {
    let mut out = Vec::new();
    for (k, pair) in nodes.windows(2).enumerate() {
        let first = if virtual_schedule { 0 } else { k as u64 };
        for t in first..first + len {
            out.push((format!("arc {}->{}", pair[0], pair[1]), t));
            if single {
                out.push((format!("send {}", pair[0]), t));
                out.push((format!("recv {}", pair[1]), t));
            }
        }
    }
    out
}

/// Whether the messages of `cells` fit in steps 1..=`horizon`, message i starting no earlier
/// than `first[i]`, beside what is `busy` already.
fn place(
    cells: &[Vec<(String, u64)>],
    first: &[u64],
    horizon: u64,
    busy: &mut HashSet<(String, u64)>,
) -> bool {
    let Some((mine, rest)) = cells.split_first() else { return true };
    let last = mine.iter().map(|&(_, t)| t).max().unwrap_or(0);
    for start in first[0]..=horizon.saturating_sub(last) {
        let occupied: Vec<(String, u64)> = mine.iter().map(|(p, t)| (p.clone(), start + t)).collect();
        let mut taken = HashSet::new();
        if occupied.iter().all(|c| !busy.contains(c) && taken.insert(c.clone())) {
            busy.extend(occupied.iter().cloned());
            let found = place(rest, &first[1..], horizon, busy);
            for c in &occupied {
                busy.remove(c);
            }
            if found {
                return true;
            }
        }
    }
    false
}

/// The occupied (place, step) cells of the exhaustive search.
type Busy = HashSet<(String, u64)>;

/// What the search does once every wake-up call (sender, start) is placed.
type Finish<'a> = &'a dyn Fn(&[(usize, u64)], &mut Busy) -> bool;

/// Whether a distributed gather (docs/spec.md §4.1, rules D0–D3) fits in `horizon` steps: every
/// non-root node u gets one valueless wake-up call from any other node in any step (a second
/// call, or a value, only adds constraints), placed like a one-flit message; then the calls
/// must respect causality (a non-root sender sends after its own wake-up is received) and the
/// data messages are placed with s(M_u) after u's wake-up and after every control flit u sends
/// or relays.
fn wake_up_search(inst: &Instance, data: &[Vec<(String, u64)>], single: bool, horizon: u64) -> bool {
    let n = inst.network.len();
    let path = |o: usize, u: usize| inst.network.default_path(o, u, inst.ring_tie).unwrap();
    // calls[u] = (sender, start) for u = 1..n, chosen in turn.
    fn choose(
        u: usize,
        calls: &mut Vec<(usize, u64)>,
        ctx: Finish,
        cells: &dyn Fn(usize, usize) -> Vec<(String, u64)>,
        n: usize,
        horizon: u64,
        busy: &mut Busy,
    ) -> bool {
        if u == n {
            return ctx(calls, busy);
        }
        for from in (0..n).filter(|&o| o != u) {
            let mine = cells(from, u);
            let last = mine.iter().map(|&(_, t)| t).max().unwrap_or(0);
            for start in 1..=horizon.saturating_sub(last) {
                let occupied: Vec<(String, u64)> = mine.iter().map(|(p, t)| (p.clone(), start + t)).collect();
                if occupied.iter().any(|c| busy.contains(c)) {
                    continue;
                }
                busy.extend(occupied.iter().cloned());
                calls.push((from, start));
                let found = choose(u + 1, calls, ctx, cells, n, horizon, busy);
                calls.pop();
                for c in &occupied {
                    busy.remove(c);
                }
                if found {
                    return true;
                }
            }
        }
        false
    }
    let messages = inst.messages().unwrap();
    let finish = |calls: &[(usize, u64)], busy: &mut Busy| {
        // Reception of node u's call (calls[u − 1]) at the end of step w[u].
        let mut w = vec![0u64; n];
        for (i, &(from, start)) in calls.iter().enumerate() {
            w[i + 1] = start + path(from, i + 1).len() as u64 - 2;
        }
        let causal = calls.iter().all(|&(from, start)| from == 0 || start > w[from]);
        if !causal {
            return false;
        }
        // The earliest start of each node's message: after its wake-up, after every control
        // flit it sends or relays.
        let mut earliest = w.iter().map(|&t| t + 1).collect::<Vec<u64>>();
        for (i, &(from, start)) in calls.iter().enumerate() {
            let nodes = path(from, i + 1);
            for (k, &x) in nodes[..nodes.len() - 1].iter().enumerate() {
                earliest[x] = earliest[x].max(start + k as u64 + 1);
            }
        }
        let first: Vec<u64> = messages.iter().map(|m| earliest[m.src]).collect();
        place(data, &first, horizon, busy)
    };
    let cells = |from: usize, to: usize| cells_of(&path(from, to), 1, false, single);
    choose(1, &mut Vec::new(), &finish, &cells, n, horizon, &mut HashSet::new())
}

/// The least number of steps of a store-and-forward schedule for `inst`, by breadth-first search
/// over every set of transmissions the port rule allows (docs/spec.md §4.2), up to `limit` steps.
fn store_forward_search(inst: &Instance, limit: u64) -> Option<u64> {
    let Model::StoreForward { rule, mode, packet } = inst.model else { return None };
    let net = &inst.network;
    let n = net.len();
    // Items: (token, destination set as a node mask); state: holders of each item as a node mask.
    let items: Vec<(usize, u64)> = match &inst.problem {
        Problem::TotalExchange(_) => inst.packets().iter().map(|p| (p.src, 1u64 << p.dst)).collect(),
        Problem::Gossip => (0..n).map(|v| (v, (1u64 << n) - 1)).collect(),
        _ => return None,
    };
    let oracle = Oracle { arcs: net.arcs(), rule, mode, packet, items };
    let start: Vec<u64> = oracle.items.iter().map(|&(src, _)| 1u64 << src).collect();
    let done = |s: &[u64]| s.iter().zip(&oracle.items).all(|(&h, &(_, goal))| h & goal == goal);
    let mut frontier = vec![start.clone()];
    let mut seen: HashSet<Vec<u64>> = HashSet::from([start]);
    for step in 0..=limit {
        if frontier.iter().any(|s| done(s)) {
            return Some(step);
        }
        let mut next = Vec::new();
        for s in &frontier {
            let mut successors = Vec::new();
            oracle.extend(0, s, &mut Vec::new(), &mut successors);
            next.extend(successors.into_iter().filter(|t| seen.insert(t.clone())));
        }
        frontier = next;
    }
    None
}

/// The exhaustive search's view of an instance: items with their sources and destination masks,
/// and a state as the holders of each item (a node mask).
struct Oracle<'a> {
    arcs: &'a [(usize, usize)],
    rule: PortRule,
    mode: Mode,
    packet: usize,
    items: Vec<(usize, u64)>,
}

impl Oracle<'_> {
    /// Every state one step after `s`, choosing for arcs `a..` what each carries: nothing or a
    /// packet of 1..=p items its sender holds (in move mode an item at its destination is
    /// consumed and never sent), subject to the port rule given the arcs `chosen` so far.
    fn extend(&self, a: usize, s: &[u64], chosen: &mut Vec<(usize, Vec<usize>)>, out: &mut Vec<Vec<u64>>) {
        if a == self.arcs.len() {
            let mut t = s.to_vec();
            for (arc, items) in chosen.iter() {
                let (u, v) = self.arcs[*arc];
                for &k in items {
                    if self.mode == Mode::Move {
                        t[k] &= !(1u64 << u);
                    }
                    t[k] |= 1u64 << v;
                }
            }
            if self.mode == Mode::Move {
                for (k, &(_, goal)) in self.items.iter().enumerate() {
                    if t[k] & goal != 0 {
                        t[k] = goal;
                    }
                }
            }
            out.push(t);
            return;
        }
        self.extend(a + 1, s, chosen, out);
        let (u, v) = self.arcs[a];
        let allowed = chosen.iter().all(|&(b, _)| {
            let (x, y) = self.arcs[b];
            match self.rule {
                PortRule::FStar => true,
                PortRule::HStar => !(x == v && y == u),
                PortRule::F1 => x != u && y != v,
                PortRule::H1 => x != u && x != v && y != u && y != v,
            }
        });
        if !allowed {
            return;
        }
        let held: Vec<usize> = (0..self.items.len())
            .filter(|&k| s[k] & (1u64 << u) != 0 && !(self.mode == Mode::Move && s[k] & self.items[k].1 != 0))
            .collect();
        for size in 1..=self.packet.min(held.len()) {
            for subset in subsets(&held, size) {
                chosen.push((a, subset));
                self.extend(a + 1, s, chosen, out);
                chosen.pop();
            }
        }
    }
}

/// Every `k`-element subset of `xs`.
fn subsets(xs: &[usize], k: usize) -> Vec<Vec<usize>> {
    if k == 0 {
        return vec![Vec::new()];
    }
    let mut out = Vec::new();
    for (i, &x) in xs.iter().enumerate() {
        for mut rest in subsets(&xs[i + 1..], k - 1) {
            rest.insert(0, x);
            out.push(rest);
        }
    }
    out
}

/// The oracle itself against values the papers and the exact layer agree on: T_opt(LA) for
/// path(3) (TE-1), the ring optimum for ring(3) (TE-2), the H1 path(3) optimum 8, and gossip on
/// path(3) in n + ⌊n/2⌋ − 1 = 3 steps under H* (paper 003's path reference); the FDF scatter
/// optimum of paper 001 Fig. 1(a) (SG-4) and S_opt = C on the unit-length ULA of paper 000 §4.1
/// (CHAT-14).
#[test]
fn the_exhaustive_search_knows_the_papers_values() {
    assert_eq!(brute_force(&tiny("total-exchange", "path:3", "F*", 1), 12), Some(2));
    assert_eq!(brute_force(&tiny("total-exchange", "ring:3", "F*", 1), 12), Some(1));
    assert_eq!(brute_force(&tiny("total-exchange", "path:3", "H1", 1), 12), Some(8));
    assert_eq!(brute_force(&tiny("gossip", "path:3", "H*", 1), 12), Some(3), "n + ⌊n/2⌋ − 1 on path(3)");
    let paper =
        |file: &str| load_instance(&PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("instances").join(file));
    assert_eq!(brute_force(&paper("001/scatter-fig1a.toml").unwrap(), 12), Some(10), "SG-4 on Fig. 1(a)");
    assert_eq!(brute_force(&paper("000/ula8-sec41.toml").unwrap(), 12), Some(4), "CHAT-14: S_opt = C");
    // Paper 002, fat-tree:4 under w = 1: P_0 reaches P_2 at the end of step 4 (FT-1), one more
    // step for P_3; in rounds, one round of height 2 and one of height 1 (FT-17's 2·(2 + 1)).
    let fat_tree = |rounds: bool| {
        let text = format!(
            "problem = \"broadcast\"\nnetwork = \"fat-tree:4\"\n[model]\nkind = \"fat-tree\"\ncapacity = \"const:1\"\nrounds = {rounds}\n"
        );
        parse_instance(&text, "<suite>", "broadcast-fat-tree4").unwrap()
    };
    assert_eq!(brute_force(&fat_tree(false), 12), Some(5));
    assert_eq!(brute_force(&fat_tree(true), 12), Some(6));
}

/// Paper 002 §5, Fig. 2 relation 3 (FT-23): a broadcast reversed in time is a product schedule
/// of the same length, and a product schedule reversed is a broadcast (every a_i reaches P_0
/// along a chain of messages; the capacity and processor rules are symmetric in time), so the
/// two optima coincide. The exhaustive searches agree on every tiny fat-tree, and prefix, whose
/// P_{N−1} needs the product, is never shorter.
#[test]
fn the_exhaustive_search_finds_product_as_long_as_broadcast() {
    let tiny = tiny_instances();
    let find =
        |problem: &str, name: &str| tiny.iter().find(|i| i.name == name.replacen("broadcast", problem, 1));
    let mut compared = 0;
    for inst in
        tiny.iter().filter(|i| i.problem == Problem::Broadcast && matches!(i.model, Model::FatTree { .. }))
    {
        let broadcast = brute_force(inst, 12).unwrap();
        assert_eq!(brute_force(find("product", &inst.name).unwrap(), 12), Some(broadcast), "{}", inst.name);
        if let Some(prefix) = find("prefix", &inst.name) {
            assert!(brute_force(prefix, 12).unwrap() >= broadcast, "{}", inst.name);
        }
        compared += 1;
    }
    assert_eq!(compared, 6);
}

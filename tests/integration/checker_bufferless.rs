//! The bufferless checker (SPEC §4.1) on the traces of paper 001
//! (paper 001, Figures 1–4; the claims catalogue SG-27 … SG-31), and a mutation
//! property test against an independent brute-force oracle.
//!
//! Instances: `instances/001/*.toml`; schedules: `instances/001/*.schedule.json` (SPEC §5 format).
//! The figure tables below are the claims catalogue's corrected transcriptions, with `[*]` for the token
//! [⋆] and `<c>` for the certificate ⟨c⟩. Row r is the state after r steps = at the end of step
//! r (paper 001's time conventions in the claims catalogue).

use commsched::checker::{self, Rule, Verdict};
use commsched::spec::io::{load_instance, load_schedule};
use commsched::spec::{ControlKind, GatherMode, Instance, Model, Problem, Schedule, Start};
use proptest::prelude::*;
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

fn load(instance: &str, schedule: &str) -> (Instance, Schedule) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let inst = load_instance(&root.join("instances/001").join(instance)).expect("instance loads");
    let sched = load_schedule(&root.join("instances/001").join(schedule), &inst).expect("schedule loads");
    (inst, sched)
}

fn with_gather(inst: &Instance, mode: GatherMode) -> Instance {
    let mut inst = inst.clone();
    let Model::Bufferless { gather, .. } = &mut inst.model else { panic!("bufferless instance") };
    *gather = mode;
    inst
}

fn rules(verdict: &Verdict) -> BTreeSet<Rule> {
    verdict.violations().iter().map(|v| v.rule).collect()
}

fn admissible_length(inst: &Instance, sched: &Schedule) -> u64 {
    match checker::check(inst, sched) {
        Verdict::Admissible(c) => c.length(),
        Verdict::Inadmissible(v) => {
            panic!(
                "{} rejected: {}",
                inst.name,
                v.iter().map(|v| v.to_string()).collect::<Vec<_>>().join("; ")
            )
        }
    }
}

fn extra<'a>(verdict: &'a Verdict, name: &str) -> Option<&'a str> {
    let checked = verdict.admissible().expect("admissible");
    checked.metrics().extra.iter().find(|(k, _)| k == name).map(|(_, v)| v.as_str())
}

/// One paper figure: instance file, schedule file, the figure's table.
struct Figure {
    instance: &'static str,
    schedule: &'static str,
    table: &'static str,
}

/// SG-27, Fig. 1(a).
const FIG1A: &str = "
| 0 | m5,1 | | | | | |
| 1 | m5,2 | m5,1 | | | | |
| 2 | m5,3 | m5,2 | m5,1 | | | |
| 3 | m4,1 | m5,3 | m5,2 | m5,1 | | |
| 4 | m4,2 | m4,1 | m5,3 | m5,2 | m5,1 | |
| 5 | m4,3 | m4,2 | m4,1 | m5,3 | m5,2 | m5,1 |
| 6 | m4,4 | m4,3 | m4,2 | m4,1 | m5,3 | m5,2 |
| 7 | | m4,4 | m4,3 | m4,2 | m4,1 | m5,3 |
| 8 | | | m4,4 | m4,3 | m4,2 | |
| 9 | | | | m4,4 | m4,3 | |
| 10 | | | | | m4,4 | |
";

/// SG-28, Fig. 1(b) (reconstructed by the claims catalogue from the garbled extraction).
const FIG1B: &str = "
| 0 | m4,1 | | | | | |
| 1 | m4,2 | m4,1 | | | | |
| 2 | m4,3 | m4,2 | m4,1 | | | |
| 3 | m4,4 | m4,3 | m4,2 | m4,1 | | |
| 4 | m5,1 | m4,4 | m4,3 | m4,2 | m4,1 | |
| 5 | m5,2 | m5,1 | m4,4 | m4,3 | m4,2 | |
| 6 | m5,3 | m5,2 | m5,1 | m4,4 | m4,3 | |
| 7 | | m5,3 | m5,2 | m5,1 | m4,4 | |
| 8 | | | m5,3 | m5,2 | m5,1 | |
| 9 | | | | m5,3 | m5,2 | m5,1 |
| 10 | | | | | m5,3 | m5,2 |
| 11 | | | | | | m5,3 |
";

/// SG-29, Fig. 2 (column-corrected reading).
const FIG2: &str = "
| 1 | | (1) | | | | |
| 2 | | m1,1 | (2) | | | |
| 3 | m1,1 | m1,2 | m2,1 | (3) | | |
| 4 | m1,2 | m2,1 | m2,2 | | (1) | |
| 5 | m2,1 | m2,2 | m2,3 | | m4,1 | (2) |
| 6 | m2,2 | m2,3 | | m4,1 | m4,2 | m5,1 |
| 7 | m2,3 | | m4,1 | m4,2 | m5,1 | |
| 8 | | m4,1 | m4,2 | m5,1 | | |
| 9 | m4,1 | m4,2 | m5,1 | | | |
| 10 | m4,2 | m5,1 | | | | |
| 11 | m5,1 | | | | | |
";

/// SG-30, Fig. 3.
const FIG3: &str = "
| 1 | | (1) | | | | |
| 2 | | m1,1 | (9) | | | |
| 3 | m1,1 | m1,2 | | (7) | | |
| 4 | m1,2 | m1,3 | | | (6) | |
| 5 | m1,3 | m1,4 | | | | (4) |
| 6 | m1,4 | m1,5 | | | | |
| 7 | m1,5 | m1,6 | | | | |
| 8 | m1,6 | m1,7 | | | | m5,1 |
| 9 | m1,7 | m1,8 | | m3,1 | m5,1 | |
| 10 | m1,8 | m1,9 | m3,1 | m5,1 | | |
| 11 | m1,9 | m3,1 | m5,1 | | | |
| 12 | m3,1 | m5,1 | | | | |
| 13 | m5,1 | | | | | |
";

/// SG-31, Fig. 4.
const FIG4: &str = "
| 1 | | [*] | | | | |
| 2 | | | [*] | | | |
| 3 | | | | [*] | | |
| 4 | | | | | [*] | |
| 5 | | | | | | [*] |
| 6 | | | | | <1> | |
| 7 | | | | <2> | | |
| 8 | | | <4> | | | |
| 9 | | <3> | | | | |
| 10 | <3> | | | | | |
| 11 | | (3) | | | | |
| 12 | | | (3) | | | |
| 13 | | m1,1 | | (4) | | |
| 14 | m1,1 | m1,2 | m2,1 | | (2) | |
| 15 | m1,2 | m2,1 | m2,2 | | m4,1 | (2) |
| 16 | m2,1 | m2,2 | m2,3 | m4,1 | m4,2 | m5,1 |
| 17 | m2,2 | m2,3 | m4,1 | m4,2 | m5,1 | |
| 18 | m2,3 | m4,1 | m4,2 | m5,1 | | |
| 19 | m4,1 | m4,2 | m5,1 | | | |
| 20 | m4,2 | m5,1 | | | | |
| 21 | m5,1 | | | | | |
";

const FIGURES: [Figure; 5] = [
    Figure { instance: "scatter-fig1a.toml", schedule: "scatter-fig1a.schedule.json", table: FIG1A },
    Figure { instance: "scatter-fig1b.toml", schedule: "scatter-fig1b.schedule.json", table: FIG1B },
    Figure { instance: "gather-fig2.toml", schedule: "gather-fig2.schedule.json", table: FIG2 },
    Figure { instance: "gather-fig3.toml", schedule: "gather-fig3.schedule.json", table: FIG3 },
    Figure { instance: "gather-fig4.toml", schedule: "gather-fig4.schedule.json", table: FIG4 },
];

/// A figure table as row -> the six cells P_0..P_5 (rows with nothing in them dropped).
fn parse_table(text: &str) -> BTreeMap<i64, Vec<String>> {
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .map(|l| {
            let cells: Vec<String> = l.trim_matches('|').split('|').map(|c| c.trim().to_string()).collect();
            (cells[0].parse().expect("row number"), cells[1..].to_vec())
        })
        .filter(|(_, cells)| cells.iter().any(|c| !c.is_empty()))
        .collect()
}

/// The figures' view of a schedule, computed from the starts and control messages alone:
/// row r holds, under each node, the flits that crossed into it in step r, the flits of its own
/// message that leave it in step r + 1, and the control messages it receives at the end of step
/// r. Flit h (0-based) crosses the k-th arc of its path in step s + h + k (SPEC §4.1).
fn occupancy(inst: &Instance, sched: &Schedule) -> BTreeMap<i64, Vec<String>> {
    let Schedule::Bufferless { starts, control } = sched else { panic!("bufferless schedule") };
    let n = inst.network.len();
    let mut rows: BTreeMap<i64, Vec<Vec<String>>> = BTreeMap::new();
    let mut put = |row: i64, node: usize, label: String| {
        rows.entry(row).or_insert_with(|| vec![Vec::new(); n])[node].push(label);
    };
    for s in starts {
        let (src, dst, len) = match &inst.problem {
            Problem::Scatter(l) => (0, s.msg, l[s.msg]),
            Problem::Gather(l) => (s.msg, 0, l[s.msg]),
            p => panic!("no figure for {p}"),
        };
        let path = inst.network.default_path(src, dst, inst.ring_tie).expect("path");
        for h in 0..len as i64 {
            let label = format!("m{},{}", s.msg, h + 1);
            put(s.start + h - 1, src, label.clone());
            for (k, &node) in path.iter().enumerate().skip(1) {
                put(s.start + h + k as i64 - 1, node, label.clone());
            }
        }
    }
    for c in control {
        let hops = inst.network.default_path(c.from, c.to, inst.ring_tie).expect("path").len() as i64 - 1;
        let label = match (c.kind, c.value) {
            (ControlKind::Token, _) => "[*]".to_string(),
            (ControlKind::Certificate, Some(v)) => format!("<{v}>"),
            (ControlKind::WakeUp | ControlKind::Order, Some(v)) => format!("({v})"),
            (kind, None) => format!("{kind:?}"),
        };
        put(c.start + hops - 1, c.to, label);
    }
    rows.into_iter().map(|(r, cells)| (r, cells.into_iter().map(|c| c.join("+")).collect())).collect()
}

#[test]
fn sg27_to_sg31_figure_tables_are_reproduced_from_the_starts() {
    for fig in &FIGURES {
        let (inst, sched) = load(fig.instance, fig.schedule);
        let expected = parse_table(fig.table);
        let actual = occupancy(&inst, &sched);
        for row in expected.keys().chain(actual.keys()).collect::<BTreeSet<_>>() {
            assert_eq!(actual.get(row), expected.get(row), "{}: row {row}", fig.schedule);
        }
    }
}

#[test]
fn sg27_to_sg31_every_figure_is_admissible_with_the_papers_length() {
    for fig in &FIGURES {
        let (inst, sched) = load(fig.instance, fig.schedule);
        let paper = inst.paper.length.expect("the instance records the paper's length");
        assert_eq!(admissible_length(&inst, &sched), paper, "{}", fig.instance);
        // The table's last row is the schedule's last step (SPEC length = last step).
        assert_eq!(*parse_table(fig.table).keys().last().unwrap() as u64, paper, "{}", fig.instance);
    }
}

#[test]
fn sg29_to_sg31_gather_figures_pass_both_gather_modes() {
    for fig in &FIGURES[2..] {
        let (inst, sched) = load(fig.instance, fig.schedule);
        for mode in [GatherMode::Centralized, GatherMode::Distributed] {
            let length = admissible_length(&with_gather(&inst, mode), &sched);
            assert_eq!(Some(length), inst.paper.length, "{} {mode:?}", fig.instance);
        }
    }
}

/// SG-1 / SG-28: T^scat(σ) = max_q (Σ_{p≤q} L_σ(p) + δ(σ(q))) is one more than the checked
/// length; Fig. 1(b) is one step longer than the FDF Fig. 1(a) (Theorem 1).
#[test]
fn sg1_sg4_fig1_alpha_is_length_plus_one_and_fdf_wins_by_one() {
    let lengths = [0, 0, 0, 0, 4, 3];
    let t_scat = |order: &[usize]| {
        let mut sent = 0;
        order
            .iter()
            .map(|&i| {
                sent += lengths[i];
                sent + i as u64 // δ(i) = i on the path
            })
            .max()
            .unwrap()
    };
    let (a, sa) = load("scatter-fig1a.toml", "scatter-fig1a.schedule.json");
    let (b, sb) = load("scatter-fig1b.toml", "scatter-fig1b.schedule.json");
    assert_eq!((&a.network, &a.problem, &a.model), (&b.network, &b.problem, &b.model), "one instance");
    let (la, lb) = (admissible_length(&a, &sa), admissible_length(&b, &sb));
    assert_eq!(t_scat(&[5, 4]), la + 1);
    assert_eq!(t_scat(&[4, 5]), lb + 1);
    assert_eq!((la, lb), (10, 11));
}

/// SG-29: Shoulder-Tap on Fig. 2 leaves P_0 idle in step 8; SG-30 and SG-31 are gap-free.
#[test]
fn sg14_sg21_root_gaps() {
    let cases = [
        ("gather-fig2.toml", "gather-fig2.schedule.json", "1", Some("8")),
        ("gather-fig3.toml", "gather-fig3.schedule.json", "0", None),
    ];
    for (i, s, idle, gaps) in
        cases.into_iter().chain([("gather-fig4.toml", "gather-fig4.schedule.json", "0", None)])
    {
        let (inst, sched) = load(i, s);
        let verdict = checker::check(&inst, &sched);
        assert_eq!(extra(&verdict, "root idle steps"), Some(idle), "{i}");
        assert_eq!(extra(&verdict, "root gaps"), gaps, "{i}");
    }
}

/// SG-24: certification (Fig. 4) is 10 = 2n steps slower than shoulder-tapping (Fig. 2).
#[test]
fn sg24_certificates_are_ten_steps_slower_than_shoulder_taps() {
    let (i2, s2) = load("gather-fig2.toml", "gather-fig2.schedule.json");
    let (i4, s4) = load("gather-fig4.toml", "gather-fig4.schedule.json");
    assert_eq!(i2.problem, i4.problem);
    assert_eq!(admissible_length(&i4, &s4) - admissible_length(&i2, &s2), 10);
}

/// SG-9: the wake-up values and starts of Figs. 2 and 3 follow Shoulder-Tap's rules
/// s_1 = 1, s_{i+1} = max(1, L_i + max(0, s_i − 2)), τ(i) = t_i + max(2, s_i) with t_i = i.
#[test]
fn sg9_figure_wake_ups_follow_shoulder_tap() {
    for (i, s) in
        [("gather-fig2.toml", "gather-fig2.schedule.json"), ("gather-fig3.toml", "gather-fig3.schedule.json")]
    {
        let (inst, sched) = load(i, s);
        let (Problem::Gather(l), Schedule::Bufferless { starts, control }) = (&inst.problem, &sched) else {
            panic!("gather")
        };
        let mut wake = vec![0i64; l.len()];
        wake[1] = 1;
        for k in 1..l.len() - 1 {
            wake[k + 1] = 1.max(l[k] as i64 + 0.max(wake[k] - 2));
        }
        for c in control {
            assert_eq!((c.from + 1, c.start, c.value), (c.to, c.to as i64, Some(wake[c.to])), "{s}");
        }
        for st in starts {
            assert_eq!(st.start, st.msg as i64 + 2.max(wake[st.msg]), "{s}: message {}", st.msg);
        }
    }
}

/// SG-11: Shoulder-Tap as printed starts P_n at t_n + max(2, s_n); the corrected reading
/// t_n + max(1, s_n) is also a distributed schedule and one step shorter on L = (1, 1).
#[test]
fn sg11_last_node_correction_is_distributed_and_shorter() {
    let inst = commsched::spec::io::parse_instance(
        "problem = \"gather\"\nnetwork = \"path:3\"\nlengths = [1, 1]\n[model]\nport = \"single\"\ngather = \"distributed\"\n",
        "sg11",
        "sg11",
    )
    .unwrap();
    let schedule = |m2: i64| {
        let json = format!(
            r#"{{"problem":"gather","model":"bufferless","starts":[{{"msg":1,"start":3}},{{"msg":2,"start":{m2}}}],
            "control":[{{"kind":"wake-up","from":0,"to":1,"start":1,"value":1}},
                       {{"kind":"wake-up","from":1,"to":2,"start":2,"value":1}}]}}"#
        );
        commsched::spec::io::parse_schedule(&json, "sg11", &inst).unwrap()
    };
    assert_eq!(admissible_length(&inst, &schedule(4)), 5, "as printed");
    assert_eq!(admissible_length(&inst, &schedule(3)), 4, "corrected");
    // One step earlier P_2 has not been woken yet (it receives its call at the end of step 2);
    // M_2 would also collide with M_1 on (1,0) in step 3.
    let early = checker::check(&inst, &schedule(2));
    let distributed: Vec<String> =
        early.violations().iter().filter(|v| v.rule == Rule::Distributed).map(|v| v.to_string()).collect();
    assert_eq!(
        distributed,
        ["distributed start: step 2, node 2 starts message 2 in step 2, but it is woken only at the end of \
          step 2 (by wake-up (1) 1->2): step 3 at the earliest"]
    );
    assert_eq!(rules(&early), BTreeSet::from([Rule::ArcRule, Rule::PortRule, Rule::Distributed]));
}

// ---------------------------------------------------------------------------------------------
// Mutation property test against a brute-force oracle.
// ---------------------------------------------------------------------------------------------

/// One flit crossing one arc: (item, tail, head, step). Items are numbered starts first, then
/// control messages.
type Event = (usize, usize, usize, i64);

/// A naive, independent reading of SPEC §4.1 and of the distributed rules D0–D3 documented in
/// `src/checker/bufferless.rs`: list every flit-arc event, compare every pair. Returns the
/// broken rules and the length (last step holding an event − first + 1).
fn oracle(inst: &Instance, sched: &Schedule) -> (BTreeSet<Rule>, i64) {
    let Schedule::Bufferless { starts, control } = sched else { panic!("bufferless schedule") };
    let (Problem::Scatter(lengths) | Problem::Gather(lengths)) = &inst.problem else { panic!("001 problem") };
    let gather = matches!(inst.problem, Problem::Gather(_));
    let Model::Bufferless { port, gather: mode, .. } = inst.model else { panic!("bufferless model") };
    let single = port == commsched::spec::Port::Single;
    let distributed = gather && mode == GatherMode::Distributed;
    let n = inst.network.len();
    let path = |a: usize, b: usize| inst.network.default_path(a, b, inst.ring_tie).unwrap();
    let mut broken = BTreeSet::new();
    let mut events: Vec<Event> = Vec::new();
    let mut start_of: BTreeMap<usize, i64> = BTreeMap::new();
    for (item, s) in starts.iter().enumerate() {
        if s.msg == 0 || s.msg >= lengths.len() || lengths[s.msg] == 0 {
            broken.insert(Rule::UnknownItem);
            continue;
        }
        if start_of.contains_key(&s.msg) {
            broken.insert(Rule::BadEntry);
            continue;
        }
        if s.start < 1 {
            broken.insert(Rule::BadEntry);
        }
        start_of.insert(s.msg, s.start);
        let p = if gather { path(s.msg, 0) } else { path(0, s.msg) };
        for h in 0..lengths[s.msg] as i64 {
            for k in 0..p.len() - 1 {
                events.push((item, p[k], p[k + 1], s.start + h + k as i64));
            }
        }
    }
    if (1..lengths.len()).any(|i| lengths[i] > 0 && !start_of.contains_key(&i)) {
        broken.insert(Rule::Incomplete);
    }
    let control_paths: Vec<Vec<usize>> = control.iter().map(|c| path(c.from, c.to)).collect();
    for (j, (c, p)) in control.iter().zip(&control_paths).enumerate() {
        if c.start < 1 {
            broken.insert(Rule::BadEntry);
        }
        for k in 0..p.len() - 1 {
            events.push((starts.len() + j, p[k], p[k + 1], c.start + k as i64));
        }
    }
    for (x, a) in events.iter().enumerate() {
        for b in &events[x + 1..] {
            if a.3 == b.3 && (a.1, a.2) == (b.1, b.2) {
                broken.insert(Rule::ArcRule);
            }
            if single && a.3 == b.3 && (a.1 == b.1 || a.2 == b.2) {
                broken.insert(Rule::PortRule);
            }
        }
    }
    if distributed {
        let received = |j: usize| control[j].start + control_paths[j].len() as i64 - 2;
        let woken = |u: usize| (0..control.len()).filter(|&j| control[j].to == u).map(received).min();
        let mut ok = (1..n).all(|u| woken(u).is_some());
        for c in control {
            if c.from != 0 && woken(c.from).is_none_or(|w| c.start <= w) {
                ok = false;
            }
        }
        for (&i, &s) in &start_of {
            if woken(i).is_some_and(|w| s <= w) {
                ok = false;
            }
            for (j, c) in control.iter().enumerate() {
                if c.to == i
                    && matches!(c.kind, ControlKind::WakeUp | ControlKind::Order)
                    && c.value.is_some_and(|v| s < received(j) + v)
                {
                    ok = false;
                }
            }
            if events.iter().any(|e| e.0 >= starts.len() && e.1 == i && e.3 >= s) {
                ok = false;
            }
        }
        if !ok {
            broken.insert(Rule::Distributed);
        }
    }
    // docs/spec.md §1.2: the length is last − first + 1 over every event, so a mutation that
    // drops or delays the only step-1 event (say a wake-up call) shortens the schedule.
    let steps = || events.iter().map(|e| e.3);
    (broken, steps().max().map_or(0, |last| last - steps().min().unwrap_or(last) + 1))
}

/// One single-event mutation of a figure's schedule.
#[derive(Debug, Clone, Copy)]
/// Positions are taken modulo the number of entries.
enum Mutation {
    ShiftStart(usize, i64),
    ShiftControl(usize, i64),
    DropControl(usize),
    DuplicateStart(usize),
    UnknownId(usize, usize),
    DropStart(usize),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    let delta = prop_oneof![-3i64..=-1, 1i64..=3];
    let at = 0..64usize;
    prop_oneof![
        (at.clone(), delta.clone()).prop_map(|(i, d)| Mutation::ShiftStart(i, d)),
        (at.clone(), delta).prop_map(|(i, d)| Mutation::ShiftControl(i, d)),
        at.clone().prop_map(Mutation::DropControl),
        at.clone().prop_map(Mutation::DuplicateStart),
        (at.clone(), at.clone()).prop_map(|(i, j)| Mutation::UnknownId(i, j)),
        at.prop_map(Mutation::DropStart),
    ]
}

/// Applies `m`; returns the mutated schedule and the exact rule set it must produce when the
/// mutation alone determines it (duplicate, unknown id, dropped start). Control mutations on a
/// schedule without control messages shift a start instead.
fn mutate(inst: &Instance, sched: &Schedule, m: Mutation) -> (Schedule, Option<BTreeSet<Rule>>) {
    let Schedule::Bufferless { starts, control } = sched else { panic!("bufferless schedule") };
    let (Problem::Scatter(lengths) | Problem::Gather(lengths)) = &inst.problem else { panic!("001 problem") };
    let (mut starts, mut control) = (starts.clone(), control.clone());
    let mut expected = None;
    let m = match m {
        Mutation::ShiftControl(i, d) if control.is_empty() => Mutation::ShiftStart(i, d),
        Mutation::DropControl(i) if control.is_empty() => Mutation::DropStart(i),
        m => m,
    };
    match m {
        Mutation::ShiftStart(i, d) => {
            let k = i % starts.len();
            starts[k].start += d;
        }
        Mutation::ShiftControl(i, d) => {
            let k = i % control.len();
            control[k].start += d;
        }
        Mutation::DropControl(i) => {
            control.remove(i % control.len());
        }
        Mutation::DuplicateStart(i) => {
            let s = starts[i % starts.len()];
            starts.push(s);
            expected = Some(BTreeSet::from([Rule::BadEntry]));
        }
        Mutation::UnknownId(i, j) => {
            // The root, null messages and ids beyond the last node are not messages.
            let mut unknown: Vec<usize> = vec![0, lengths.len(), 1000];
            unknown.extend((1..lengths.len()).filter(|&k| lengths[k] == 0));
            let k = i % starts.len();
            starts[k] = Start { msg: unknown[j % unknown.len()], start: starts[k].start };
            expected = Some(BTreeSet::from([Rule::UnknownItem, Rule::Incomplete]));
        }
        Mutation::DropStart(i) => {
            starts.remove(i % starts.len());
            expected = Some(BTreeSet::from([Rule::Incomplete]));
        }
    }
    (Schedule::Bufferless { starts, control }, expected)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn mutated_figures_get_exactly_the_oracles_verdict(
        fig in 0..FIGURES.len(),
        distributed in any::<bool>(),
        m in mutation(),
    ) {
        let (inst, sched) = load(FIGURES[fig].instance, FIGURES[fig].schedule);
        let mode = if distributed { GatherMode::Distributed } else { GatherMode::Centralized };
        let inst = with_gather(&inst, mode);
        let (mutated, expected) = mutate(&inst, &sched, m);
        let verdict = checker::check(&inst, &mutated);
        let (oracle_rules, oracle_last) = oracle(&inst, &mutated);
        prop_assert_eq!(&rules(&verdict), &oracle_rules, "{:?}: {:?}", m, verdict.violations());
        if let Some(expected) = expected {
            prop_assert_eq!(&rules(&verdict), &expected, "{:?}", m);
        }
        if let Verdict::Admissible(checked) = &verdict {
            prop_assert_eq!(checked.length() as i64, oracle_last);
            // SG-8: every accepted distributed gather satisfies inequality (5) on the path.
            if let (Problem::Gather(l), GatherMode::Distributed, Schedule::Bufferless { starts, .. }) =
                (&inst.problem, mode, &mutated)
            {
                let n = l.len() - 1;
                for s in starts {
                    let bound = if s.msg < n { s.msg + 2 } else { n + 1 };
                    prop_assert!(s.start >= bound as i64, "(5) fails for message {}: {:?}", s.msg, m);
                }
            }
        }
    }
}

/// The deterministic half of the mutation test: every single start or control shift by ±1..3
/// and every dropped control message of every figure, in both gather modes, gets exactly the
/// oracle's rules (random sampling alone rarely hits the boundary cases, e.g. a start moved onto
/// the step of its own wake-up call).
#[test]
fn every_single_shift_or_drop_gets_exactly_the_oracles_verdict() {
    let mut checked = 0;
    for fig in &FIGURES {
        let (inst, sched) = load(fig.instance, fig.schedule);
        let Schedule::Bufferless { starts, control } = &sched else { panic!("bufferless schedule") };
        let mut mutations = Vec::new();
        for d in [-3, -2, -1, 1, 2, 3] {
            mutations.extend((0..starts.len()).map(|i| Mutation::ShiftStart(i, d)));
            mutations.extend((0..control.len()).map(|i| Mutation::ShiftControl(i, d)));
        }
        mutations.extend((0..control.len()).map(Mutation::DropControl));
        for mode in [GatherMode::Centralized, GatherMode::Distributed] {
            let inst = with_gather(&inst, mode);
            for &m in &mutations {
                let (mutated, _) = mutate(&inst, &sched, m);
                let verdict = checker::check(&inst, &mutated);
                let (expected, last) = oracle(&inst, &mutated);
                assert_eq!(
                    rules(&verdict),
                    expected,
                    "{} {mode:?} {m:?}: {:?}",
                    fig.schedule,
                    verdict.violations()
                );
                if let Some(c) = verdict.admissible() {
                    assert_eq!(c.length() as i64, last);
                }
                checked += 1;
            }
        }
    }
    assert_eq!(checked, 2 * (6 * (15 + 25) + 25), "15 starts and 25 control messages in Figs. 1-4");
}

/// SG-8: the distributed rules imply inequality (5) on a path whatever the control routing
/// (src/checker/bufferless.rs, "Distributed gather"). Random gathers on path:3..6 whose every
/// node gets a wake-up from a random nearer node (the root's calls may skip nodes and are then
/// relayed): each one the checker accepts as distributed satisfies τ(i) ≥ i + 2 for i < n and
/// τ(n) ≥ n + 1.
#[test]
fn sg8_accepted_distributed_gathers_satisfy_inequality_5() {
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    let mut rand = |k: u64| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed % k
    };
    let mut accepted = [0; 2];
    for trial in 0..20_000 {
        let n = 2 + rand(4) as usize;
        let lengths: Vec<u64> = (0..n).map(|_| rand(3)).collect();
        let port = if trial % 2 == 0 { "single" } else { "multi" };
        let lengths_toml: Vec<String> = lengths.iter().map(u64::to_string).collect();
        let toml = format!(
            "problem = \"gather\"\nnetwork = \"path:{}\"\nlengths = [{}]\n[model]\nport = \"{port}\"\ngather = \"distributed\"\n",
            n + 1,
            lengths_toml.join(", ")
        );
        let inst = commsched::spec::io::parse_instance(&toml, "sg8", "sg8").unwrap();
        let control: Vec<_> = (1..=n)
            .map(|k| commsched::spec::Control {
                kind: ControlKind::WakeUp,
                from: if rand(3) == 0 { 0 } else { k - 1 },
                to: k,
                start: 1 + rand(2 * n as u64) as i64,
                value: Some(1 + rand(2) as i64),
                value2: None,
            })
            .collect();
        let starts: Vec<Start> = (1..=n)
            .filter(|&i| lengths[i - 1] > 0)
            .map(|i| Start { msg: i, start: 1 + rand(3 * n as u64 + 3) as i64 })
            .collect();
        let sched = Schedule::Bufferless { starts: starts.clone(), control };
        if checker::check(&inst, &sched).admissible().is_some() {
            accepted[trial % 2] += 1;
            for s in &starts {
                let bound = if s.msg < n { s.msg + 2 } else { n + 1 };
                assert!(s.start >= bound as i64, "(5) fails for message {} in {sched:?}", s.msg);
            }
        }
    }
    // Not vacuous: both port rules accept a good number of the random schedules.
    assert!(accepted.iter().all(|&a| a >= 50), "accepted {accepted:?}");
}

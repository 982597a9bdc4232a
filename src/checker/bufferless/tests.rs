//! The bufferless checker against hand-made schedules: every rule, its place and its detail.

use super::*;
use crate::checker;
use crate::spec::io::parse_instance;

fn instance(toml: &str) -> Instance {
    parse_instance(toml, "test.toml", "test").expect("valid instance")
}

/// A chatting instance on `network` with `(src, dst, length)` messages.
fn chatting(network: &str, port: &str, messages: &[(usize, usize, u64)]) -> Instance {
    let mut toml = format!("problem = \"chatting\"\nnetwork = \"{network}\"\n[model]\nport = \"{port}\"\n");
    for (s, d, l) in messages {
        toml.push_str(&format!("[[messages]]\nsrc = {s}\ndst = {d}\nlength = {l}\n"));
    }
    instance(&toml)
}

fn starts(s: &[(usize, i64)]) -> Vec<Start> {
    s.iter().map(|&(msg, start)| Start { msg, start }).collect()
}

fn bufferless(s: &[(usize, i64)], control: Vec<Control>) -> Schedule {
    Schedule::Bufferless { starts: starts(s), control }
}

fn control(kind: ControlKind, from: Node, to: Node, start: i64, value: Option<i64>) -> Control {
    Control { kind, from, to, start, value, value2: None }
}

fn texts(v: &Verdict) -> Vec<String> {
    v.violations().iter().map(|v| v.to_string()).collect()
}

fn length(v: &Verdict) -> u64 {
    v.admissible().unwrap_or_else(|| panic!("rejected: {:?}", texts(v))).length()
}

fn extra<'a>(v: &'a Verdict, name: &str) -> Option<&'a str> {
    let m = v.admissible().expect("admissible").metrics();
    m.extra.iter().find(|(k, _)| k == name).map(|(_, x)| x.as_str())
}

/// SPEC §6's example verbatim: messages 5 (0 -> 4, 3 flits, start 2) and 9 (3 -> 4, start 7)
/// meet on arc (3,4) in step 7; the other eight messages use arc (5,4) from step 20 on.
fn spec_example(port: &str) -> Verdict {
    let mut msgs = vec![(5, 4, 1); 10];
    msgs[5] = (0, 4, 3);
    msgs[9] = (3, 4, 1);
    let inst = chatting("path:6", port, &msgs);
    let s: Vec<(usize, i64)> = (0..10).map(|i| (i, 20 + i as i64)).collect();
    let mut s = s;
    s[5].1 = 2;
    s[9].1 = 7;
    check(&inst, &bufferless(&s, vec![]))
}

#[test]
fn arc_rule_names_both_flits_exactly_as_spec_section_6() {
    assert_eq!(
        texts(&spec_example("multi")),
        ["arc rule: step 7, arc (3,4) carries flit 2 of message 5 and flit 0 of message 9"]
    );
    assert_eq!(
        texts(&spec_example("single")),
        [
            "arc rule: step 7, arc (3,4) carries flit 2 of message 5 and flit 0 of message 9",
            "port rule: step 7, node 3 sends flit 2 of message 5 and flit 0 of message 9",
            "port rule: step 7, node 4 receives flit 2 of message 5 and flit 0 of message 9",
        ]
    );
}

#[test]
fn a_long_overlap_is_one_violation_that_says_how_long() {
    let inst = chatting("path:2", "multi", &[(0, 1, 4), (0, 1, 3)]);
    assert_eq!(
        texts(&check(&inst, &bufferless(&[(0, 1), (1, 2)], vec![]))),
        [
            "arc rule: step 2, arc (0,1) carries flit 1 of message 0 and flit 0 of message 1 (overlap in steps 2..4)"
        ]
    );
    // Back to back: flit 3 in step 4, the next message from step 5.
    assert_eq!(length(&check(&inst, &bufferless(&[(0, 1), (1, 5)], vec![]))), 7);
}

#[test]
fn port_rule_applies_only_under_single_port() {
    for (msgs, verb) in [([(1, 0, 1), (1, 2, 1)], "sends"), ([(0, 1, 1), (2, 1, 1)], "receives")] {
        let sched = bufferless(&[(0, 1), (1, 1)], vec![]);
        assert_eq!(length(&check(&chatting("path:3", "multi", &msgs), &sched)), 1);
        assert_eq!(
            texts(&check(&chatting("path:3", "single", &msgs), &sched)),
            [format!("port rule: step 1, node 1 {verb} flit 0 of message 0 and flit 0 of message 1")]
        );
    }
}

#[test]
fn unknown_duplicate_early_and_missing_starts_under_both_port_rules() {
    for port in ["multi", "single"] {
        let inst = chatting("path:4", port, &[(0, 3, 2), (3, 2, 1), (1, 2, 1)]);
        let v = check(&inst, &bufferless(&[(0, 1), (7, 3), (0, 5), (1, 0)], vec![]));
        assert_eq!(
            texts(&v),
            [
                "incomplete delivery: message 2 has no start: its 1 flits never leave node 1 for node 2",
                "unknown item: message 7 is not a message of this instance (start 3)",
                "bad entry: message 0 is started twice (steps 1 and 5); the first start is checked",
                "bad entry: step 0, message 1 starts before step 1 (steps are numbered 1, 2, ...)",
            ],
            "{port}"
        );
    }
}

#[test]
fn absurd_steps_are_bad_entries_not_overflows() {
    let inst = chatting("path:3", "single", &[(0, 2, 3), (2, 0, 1)]);
    let v = check(
        &inst,
        &bufferless(&[(0, i64::MAX), (1, i64::MIN)], vec![control(ControlKind::Token, 0, 2, i64::MAX, None)]),
    );
    assert_eq!(
        texts(&v),
        [
            "incomplete delivery: message 0 has no start: its 3 flits never leave node 0 for node 2",
            "incomplete delivery: message 1 has no start: its 1 flits never leave node 2 for node 0",
            format!(
                "bad entry: message 0 starts in step {}, outside -2^40..2^40; it is not checked further",
                i64::MAX
            )
            .as_str(),
            format!(
                "bad entry: message 1 starts in step {}, outside -2^40..2^40; it is not checked further",
                i64::MIN
            )
            .as_str(),
            format!("bad entry: token 0->2 starts in step {}, outside -2^40..2^40", i64::MAX).as_str(),
        ]
    );
}

#[test]
fn a_null_message_needs_no_start() {
    let inst = instance("problem = \"gather\"\nnetwork = \"path:3\"\nlengths = [0, 2]\n");
    assert_eq!(
        texts(&check(&inst, &bufferless(&[(2, 1), (1, 1)], vec![]))),
        ["unknown item: message 1 is null (L = 0): a null message takes no time and needs no start"]
    );
    assert_eq!(length(&check(&inst, &bufferless(&[(2, 1)], vec![]))), 3);
}

#[test]
fn control_messages_are_one_flit_messages_named_by_kind_and_value() {
    // Gather on path:3: M_2 crosses (1,0) in step 2, as does P_1's certificate.
    let inst = instance("problem = \"gather\"\nnetwork = \"path:3\"\nlengths = [0, 1]\n");
    let cert = Control { value2: Some(1), ..control(ControlKind::Certificate, 1, 0, 2, Some(3)) };
    assert_eq!(
        texts(&check(&inst, &bufferless(&[(2, 1)], vec![cert.clone()]))),
        [
            "arc rule: step 2, arc (1,0) carries flit 0 of message 2 and certificate (3, 1) 1->0",
            "port rule: step 2, node 1 sends flit 0 of message 2 and certificate (3, 1) 1->0",
            "port rule: step 2, node 0 receives flit 0 of message 2 and certificate (3, 1) 1->0",
        ]
    );
    let later = Control { start: 3, ..cert };
    let v = check(&inst, &bufferless(&[(2, 1)], vec![later]));
    assert_eq!(length(&v), 3);
    assert_eq!(v.admissible().unwrap().metrics().events, 3);
}

#[test]
fn malformed_control_messages() {
    let inst = chatting("ula:3", "multi", &[(0, 2, 1)]);
    let v = check(
        &inst,
        &bufferless(
            &[(0, 5)],
            vec![
                control(ControlKind::WakeUp, 0, 9, 1, Some(1)),
                control(ControlKind::Token, 1, 1, 1, None),
                control(ControlKind::Order, 0, 1, 0, Some(0)),
                control(ControlKind::Token, 2, 0, 1, None),
            ],
        ),
    );
    assert_eq!(
        texts(&v),
        [
            "not an arc: token 2->0 has no path from 2 to 0 in ula:3",
            "unknown item: wake-up (1) 0->9 names a node outside 0..2",
            "bad entry: token 1->1 is addressed to its own sender",
            "bad entry: order (0) 0->1 carries an impossible value (orders and lags are >= 1, stream lengths \
             >= 0, paper 001 §3)",
            "bad entry: step 0, order (0) 0->1 starts before step 1 (steps are numbered 1, 2, ...)",
        ]
    );
}

/// Gather on path:4 with L = (1, 0, 1), Shoulder-Tap with the SG-11 correction: wake-ups
/// (1) in steps 1, 2, 3; M_1 starts in step 3, M_3 in step 4; the last flit reaches P_0 in
/// step 6.
fn tap(mode: &str, port: &str) -> Instance {
    instance(&format!(
        "problem = \"gather\"\nnetwork = \"path:4\"\nlengths = [1, 0, 1]\n[model]\nport = \"{port}\"\ngather = \"{mode}\"\n"
    ))
}

fn wake_ups(steps: [i64; 3], values: [i64; 3]) -> Vec<Control> {
    (0..3).map(|k| control(ControlKind::WakeUp, k, k + 1, steps[k], Some(values[k]))).collect()
}

fn distributed(starts: &[(usize, i64)], control: Vec<Control>, port: &str) -> Vec<String> {
    let sched = bufferless(starts, control);
    let central = check(&tap("centralized", port), &sched);
    let distributed = check(&tap("distributed", port), &sched);
    // The distributed rules only add violations.
    let rest: Vec<String> =
        texts(&distributed).into_iter().filter(|t| !t.starts_with("distributed")).collect();
    assert_eq!(rest, texts(&central));
    texts(&distributed)
}

#[test]
fn distributed_gather_accepts_shoulder_tap_and_reports_its_metrics() {
    let v =
        check(&tap("distributed", "single"), &bufferless(&[(1, 3), (3, 4)], wake_ups([1, 2, 3], [1, 1, 1])));
    assert_eq!(length(&v), 6);
    let m = v.admissible().unwrap().metrics();
    assert_eq!((m.events, m.link_use), (7, Some(7)));
    assert_eq!(extra(&v, "congestion C"), Some("2"));
    assert_eq!(extra(&v, "lower bound parameter Q"), Some("3"));
    assert_eq!(extra(&v, "root idle steps"), Some("2"));
    assert_eq!(extra(&v, "root gaps"), Some("4..5"));
    assert_eq!(extra(&v, "first step"), None);
}

#[test]
fn d0_every_node_must_be_woken() {
    let mut c = wake_ups([1, 2, 3], [1, 1, 1]);
    c.pop();
    assert_eq!(
        distributed(&[(1, 3), (3, 4)], c, "single"),
        ["distributed start: node 3 is never woken: no control message reaches it (paper 001 (5))"]
    );
}

#[test]
fn d1_nothing_is_sent_before_the_node_is_woken() {
    assert_eq!(
        distributed(&[(1, 3), (3, 4)], wake_ups([1, 1, 3], [1, 1, 1]), "single"),
        ["distributed start: step 1, node 1 sends wake-up (1) 1->2 before it is woken (wake-up (1) 0->1 is \
             received at the end of step 1)"]
    );
    assert_eq!(
        distributed(&[(1, 3), (3, 3)], wake_ups([1, 2, 3], [1, 1, 1]), "single"),
        ["distributed start: step 3, node 3 starts message 3 in step 3, but it is woken only at the end of \
             step 3 (by wake-up (1) 2->3): step 4 at the earliest"]
    );
}

#[test]
fn d2_transmit_after_s_steps_is_honoured() {
    assert_eq!(
        distributed(&[(1, 3), (3, 4)], wake_ups([1, 2, 3], [1, 1, 3]), "single"),
        ["distributed start: step 4, node 3 starts message 3 in step 4, but wake-up (3) 2->3, received at \
             the end of step 3, allows step 6 at the earliest"]
    );
    let v =
        check(&tap("distributed", "single"), &bufferless(&[(1, 3), (3, 6)], wake_ups([1, 2, 3], [1, 1, 3])));
    assert_eq!(length(&v), 8);
}

#[test]
fn d3_a_node_synchronises_before_it_transmits() {
    // P_1 dispatches in step 2, the step it sends P_2's wake-up (a port violation too when
    // single-port).
    assert_eq!(
        distributed(&[(1, 2), (3, 4)], wake_ups([1, 2, 3], [1, 1, 1]), "multi"),
        ["distributed start: step 2, node 1 sends wake-up (1) 1->2 in step 2 but already started message 1 \
             in step 2 (a PE synchronises before it transmits, paper 001 (5))"]
    );
    // The root wakes P_2 itself, over P_1, which relays the call in the step it dispatches
    // (different arcs, so multi-port allows it).
    let mut c = wake_ups([1, 2, 4], [1, 1, 1]);
    c[1] = control(ControlKind::WakeUp, 0, 2, 2, Some(1));
    assert_eq!(
        distributed(&[(1, 3), (3, 5)], c, "multi"),
        [
            "distributed start: step 3, node 1 relays wake-up (1) 0->2 in step 3 but already started message 1 \
             in step 3 (a PE synchronises before it transmits, paper 001 (5))"
        ]
    );
}

#[test]
fn a_late_first_event_is_accepted_reported_and_normalised() {
    let inst = instance("problem = \"scatter\"\nnetwork = \"path:3\"\nlengths = [1, 1]\n");
    let v = check(&inst, &bufferless(&[(2, 3), (1, 4)], vec![]));
    // Events in steps 3..4: length 2, the same as the copy shifted to step 1.
    assert_eq!(length(&v), 2);
    assert_eq!(length(&check(&inst, &bufferless(&[(2, 1), (1, 2)], vec![]))), 2);
    assert_eq!(extra(&v, "first step"), Some("3"));
}

#[test]
fn a_schedule_of_another_model_is_a_bad_entry() {
    let inst = chatting("path:2", "multi", &[(0, 1, 1)]);
    assert_eq!(
        texts(&check(&inst, &Schedule::Virtual(starts(&[(0, 1)])))),
        ["bad entry: schedule is a virtual schedule, not a bufferless one"]
    );
}

/// CHAT-5: on ula:5, messages 0 -> 3 and 1 -> 4 (2 flits each) and 3 -> 4 (1 flit) are
/// rectangles [0,2] x [v, v+1], [1,3] x [v, v+1] and [3,3] x [v, v].
fn ula_virtual() -> Instance {
    instance(
        "problem = \"chatting\"\nnetwork = \"ula:5\"\n[model]\nvirtual = true\n\
         [[messages]]\nsrc = 0\ndst = 3\nlength = 2\n[[messages]]\nsrc = 1\ndst = 4\nlength = 2\n\
         [[messages]]\nsrc = 3\ndst = 4\nlength = 1\n",
    )
}

#[test]
fn chat5_overlapping_rectangles_are_rejected() {
    let v = checker::check(&ula_virtual(), &Schedule::Virtual(starts(&[(0, 1), (1, 2), (2, 1)])));
    assert_eq!(
        texts(&v),
        [
            "arc rule: step 2, arc (1,2) carries flit 1 of message 0 and flit 0 of message 1",
            "arc rule: step 2, arc (2,3) carries flit 1 of message 0 and flit 0 of message 1",
        ]
    );
    // Message 2 shares arc (3,4) with message 1 in steps 2..3.
    let v = checker::check(&ula_virtual(), &Schedule::Virtual(starts(&[(0, 1), (1, 3), (2, 4)])));
    assert_eq!(
        texts(&v),
        ["arc rule: step 4, arc (3,4) carries flit 1 of message 1 and flit 0 of message 2"]
    );
}

#[test]
fn chat4_chat5_disjoint_rectangles_are_admissible_with_duration_s() {
    for (s, expected) in
        [([(0, 1), (1, 3), (2, 1)], 4), ([(0, 5), (1, 7), (2, 6)], 4), ([(0, 1), (1, 3), (2, 9)], 9)]
    {
        let v = checker::check(&ula_virtual(), &Schedule::Virtual(starts(&s)));
        assert_eq!(length(&v), expected, "{s:?}");
        assert_eq!(extra(&v, "virtual duration S"), Some(expected.to_string().as_str()));
        // (3.5) is shift-invariant, and S >= max(C, L) = max(4, 2) (Proposition 3.1).
        assert_eq!(extra(&v, "congestion C"), Some("4"));
        assert_eq!(extra(&v, "lower bound parameter L"), Some("2"));
        assert_eq!(v.admissible().unwrap().metrics().events, 2 * 3 + 2 * 3 + 1);
    }
}

#[test]
fn virtual_starts_are_resolved_like_ordinary_starts() {
    let v = checker::check(&ula_virtual(), &Schedule::Virtual(starts(&[(0, 1), (0, 9), (5, 1), (2, 0)])));
    assert_eq!(
        texts(&v),
        [
            "incomplete delivery: message 1 has no start: its 2 flits never leave node 1 for node 4",
            "unknown item: message 5 is not a message of this instance (start 1)",
            "bad entry: message 0 is started twice (steps 1 and 9); the first start is checked",
            "bad entry: step 0, message 2 starts before step 1 (steps are numbered 1, 2, ...)",
        ]
    );
}

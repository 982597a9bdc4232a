//! The event model (docs/spec.md §3.3): the checker's replay on hand-made schedules with their
//! exact times and violations, the producers' schedules checked on random fabrics against the
//! bound, and `solve --events` / `check events.json` from the binary.

use super::bandwidth::fabric_strategy;
use super::cli::run;
use commsched::bandwidth::events::{best, lower_bound_us};
use commsched::bandwidth::{Answer, optimise};
use commsched::checker::events::check_events;
use commsched::spec::events::{EventSchedule, Piece, parse_events};
use commsched::spec::fabric::{Fabric, FabricBuilder, NodeKind, load};
use commsched::spec::packing::BandwidthCollective;
use num_rational::BigRational;
use num_traits::ToPrimitive;
use proptest::prelude::*;

fn q(p: i64, d: i64) -> BigRational {
    BigRational::new(p.into(), d.into())
}

/// Nodes `a`, `b`, … (compute) and `s…` (switches), duplex links of 1 GB/s and 1 µs.
fn fabric(compute: &[&str], switches: &[&str], links: &[(&str, &str)]) -> Fabric {
    let mut b = FabricBuilder::default();
    for c in compute {
        b.node(*c, NodeKind::Compute);
    }
    for s in switches {
        b.node(*s, NodeKind::Switch);
    }
    let names: Vec<&str> = compute.iter().chain(switches).copied().collect();
    let at = |n: &str| names.iter().position(|m| *m == n).unwrap();
    for (u, v) in links {
        b.duplex(at(u), at(v), &q(1, 1), 1.0).unwrap();
    }
    b.build("hand").unwrap()
}

/// One link's order by name: `(from, to, [(root, index)])`.
type Order<'a> = (&'a str, &'a str, &'a [(&'a str, u64)]);

/// A schedule from its links' orders.
fn schedule(f: &Fabric, bytes: u64, c: u64, links: &[Order<'_>]) -> EventSchedule {
    let at = |n: &str| f.node_named(n).unwrap();
    let mut links: Vec<(usize, Vec<Piece>)> = links
        .iter()
        .map(|(u, v, pieces)| {
            let l = f.link_index(at(u), at(v)).unwrap();
            (l, pieces.iter().map(|(r, k)| Piece { root: at(r), index: *k, route: None }).collect())
        })
        .collect();
    links.sort_by_key(|(l, _)| *l);
    EventSchedule { bytes, pieces_per_rank: c, links }
}

#[test]
fn the_replay_times_a_line_and_a_switch_exactly() {
    // Three ranks on a line, shards of 1000 bytes: a transfer is 1 µs + 1000 B / 1 GB/s = 2 µs.
    let line = fabric(&["a", "b", "c"], &[], &[("a", "b"), ("b", "c")]);
    let s = schedule(
        &line,
        3000,
        1,
        &[
            ("a", "b", &[("a", 0)]),
            ("b", "c", &[("b", 0), ("a", 0)]),
            ("c", "b", &[("c", 0)]),
            ("b", "a", &[("b", 0), ("c", 0)]),
        ],
    );
    let m = check_events(&line, &s).unwrap();
    assert_eq!((m.time_us, m.transfers), (q(4, 1), 6));
    // Two pieces per rank halve the bytes per transfer: 1.5 µs each; b → c carries three.
    let s2 = schedule(
        &line,
        3000,
        2,
        &[
            ("a", "b", &[("a", 0), ("a", 1)]),
            ("b", "c", &[("b", 0), ("a", 0), ("b", 1), ("a", 1)]),
            ("c", "b", &[("c", 0), ("c", 1)]),
            ("b", "a", &[("b", 0), ("c", 0), ("b", 1), ("c", 1)]),
        ],
    );
    assert_eq!(check_events(&line, &s2).unwrap().time_us, q(6, 1));
    // Through a switch: a → s → b is two transfers, the switch relaying its one copy.
    let star = fabric(&["a", "b"], &["s"], &[("a", "s"), ("b", "s")]);
    let mut s3 = schedule(
        &star,
        2000,
        1,
        &[("a", "s", &[("a", 0)]), ("s", "b", &[("a", 0)]), ("b", "s", &[("b", 0)]), ("s", "a", &[("b", 0)])],
    );
    let (a, b) = (star.node_named("a").unwrap(), star.node_named("b").unwrap());
    for p in s3.links.iter_mut().flat_map(|(_, p)| p.iter_mut()) {
        p.route = Some(if p.root == a { (a, b) } else { (b, a) });
    }
    assert_eq!(check_events(&star, &s3).unwrap().time_us, q(4, 1));
    // A copy is relayed only along its own route.
    let mut astray = s3.clone();
    astray
        .links
        .iter_mut()
        .flat_map(|(_, p)| p.iter_mut())
        .for_each(|p| p.route = p.route.map(|(f, _)| (f, f)));
    let v = check_events(&star, &astray).unwrap_err();
    assert!(v.iter().all(|l| l.contains("route")), "{v:?}");
}

#[test]
fn the_replay_names_what_never_starts_and_what_never_arrives() {
    let line = fabric(&["a", "b", "c"], &[], &[("a", "b"), ("b", "c")]);
    // b forwards a's piece it never receives; a and b never get c's.
    let s = schedule(&line, 3000, 1, &[("b", "c", &[("a", 0), ("b", 0)]), ("a", "b", &[])]);
    let v = check_events(&line, &s).unwrap_err();
    assert!(
        v[0].contains("`b` → `c`") && v[0].contains("(a, 0)") && v[0].contains("never receives it"),
        "{v:?}"
    );
    assert!(v.last().unwrap().starts_with("incomplete:"), "{v:?}");
    // A switch relays, it does not replicate: one copy in, two out.
    let star = fabric(&["a", "b", "c"], &["s"], &[("a", "s"), ("b", "s"), ("c", "s")]);
    let mut s = schedule(
        &star,
        3000,
        1,
        &[("a", "s", &[("a", 0)]), ("s", "b", &[("a", 0)]), ("s", "c", &[("a", 0)])],
    );
    let at = |n: &str| star.node_named(n).unwrap();
    for (l, pieces) in &mut s.links {
        let to = star.links()[*l].to;
        pieces[0].route = Some((at("a"), if star.is_compute(to) { to } else { at("b") }));
    }
    let v = check_events(&star, &s).unwrap_err();
    assert!(v.iter().any(|l| l.contains("no copy of it left to relay")), "{v:?}");
}

#[test]
fn event_files_are_read_with_errors_naming_the_field() {
    let line = fabric(&["a", "b"], &[], &[("a", "b")]);
    let ok = r#"{"collective": "allgather", "model": "events", "bytes": 2000, "pieces_per_rank": 1,
        "links": [{"from": "a", "to": "b", "pieces": [["a", 0]]}, {"from": "b", "to": "a", "pieces": [["b", 0]]}]}"#;
    let s = parse_events(ok, "e.json", &line).unwrap();
    assert_eq!(check_events(&line, &s).unwrap().time_us, q(2, 1));
    for (bad, field) in [
        (ok.replace(r#"["a", 0]]}, {"#, r#"["a", 1]]}, {"#), "links[0].pieces[0]"),
        (ok.replace(r#""to": "b""#, r#""to": "z""#), "links[0].to"),
        (ok.replace(r#""from": "b", "to": "a""#, r#""from": "a", "to": "b""#), "links[1]"),
        (ok.replace(r#""bytes": 2000"#, r#""bytes": 0"#), "bytes"),
        (ok.replace("allgather", "allreduce"), "collective"),
    ] {
        let e = parse_events(&bad, "e.json", &line).unwrap_err().to_string();
        assert!(e.contains("e.json") && e.contains(field), "{field}: {e}");
    }
}

/// The fabric with latencies: link i gets `lat[i mod len] / 2` µs.
fn with_latencies(f: &Fabric, lat: &[u8]) -> Fabric {
    let mut b = FabricBuilder::default();
    for v in 0..f.len() {
        b.node(f.node_name(v), f.kind(v));
    }
    for (i, l) in f.links().iter().enumerate() {
        b.link(l.from, l.to, l.bandwidth.clone(), f64::from(lat[i % lat.len()]) / 2.0).unwrap();
    }
    b.build(f.name()).unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// On random fabrics with switches and latencies, the best event schedule passes the checker
    /// again, is no faster than the bound, and needs every transfer it makes: without its last
    /// transfer on any link, the checker rejects it.
    #[test]
    fn event_schedules_check_meet_no_less_than_the_bound_and_waste_nothing(
        f in fabric_strategy(),
        lat in proptest::collection::vec(0u8..4, 1..6),
        bytes in 1_000u64..10_000_000,
        drop in any::<prop::sample::Index>(),
    ) {
        let f = with_latencies(&f, &lat);
        let Answer::Optimal(o) = optimise(&f, BandwidthCollective::Allgather, None).unwrap() else {
            panic!("no deadline")
        };
        let answer = best(&f, Some(&o.packing), bytes).unwrap();
        let m = check_events(&f, &answer.schedule).unwrap();
        prop_assert_eq!(&m, &answer.measure);
        let bound = lower_bound_us(&f, &o.measure.time, bytes);
        prop_assert!(m.time_us.to_f64().unwrap() >= bound * (1.0 - 1e-9), "{} < {bound}", m.time_us);
        let mut cut = answer.schedule.clone();
        let busy: Vec<usize> = (0..cut.links.len()).filter(|&i| !cut.links[i].1.is_empty()).collect();
        let i = busy[drop.index(busy.len())];
        cut.links[i].1.pop();
        prop_assert!(check_events(&f, &cut).is_err(), "a transfer of {} was not needed", answer.rule.name());
    }
}

#[test]
fn solve_events_writes_a_schedule_that_check_accepts_at_the_same_time() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("events.json");
    let file = file.to_str().unwrap();
    let net = "mesh2d:3x3:50,50:1";
    let (code, out, err) = run(&[
        "--format",
        "json",
        "solve",
        "allgather",
        "--network",
        net,
        "--model",
        "bandwidth",
        "--size",
        "1M",
        "--events-out",
        file,
    ]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let events = &v["events"];
    assert_eq!(events["checked"], true);
    let time = events["time_us"].as_f64().unwrap();
    assert!(time >= events["bound_us"].as_f64().unwrap());
    // The corner of a 3x3 mesh takes 8 shards over 2 links: at least 4 transfers of a whole
    // shard, 1 µs + (2^20/9) B / 50 GB/s each, whatever the chunk count.
    assert!(time >= 4.0 * (1.0 + (1u64 << 20) as f64 / 9.0 / 50e3) - 1e-9, "{time}");
    let (code, out, err) = run(&["--format", "json", "check", file, "--network", net]);
    assert_eq!(code, 0, "{err}");
    let checked: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(checked["time_us_exact"], events["time_us_exact"]);
    // The file on another fabric, or cut short, is refused.
    let (code, _, err) = run(&["check", file, "--network", "mesh2d:2x2"]);
    assert_eq!(code, 2, "{err}");
    let text = std::fs::read_to_string(file).unwrap();
    let fabric = load(net, None).unwrap();
    let mut s = parse_events(&text, file, &fabric).unwrap();
    s.links[0].1.clear();
    let short = dir.path().join("short.json");
    std::fs::write(&short, commsched::spec::events::events_to_json(&fabric, &s)).unwrap();
    let (code, out, _) = run(&["check", short.to_str().unwrap(), "--network", net]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("inadmissible"), "{out}");
}

#[test]
fn events_are_refused_where_the_model_does_not_apply() {
    let dir = tempfile::tempdir().unwrap();
    let other = dir.path().join("packing.json");
    std::fs::write(&other, r#"{"collective": "allgather", "trees": []}"#).unwrap();
    for (args, expect) in [
        (
            &[
                "solve",
                "reduce-scatter",
                "--network",
                "mesh2d:3x3",
                "--model",
                "bandwidth",
                "--size",
                "1M",
                "--events",
            ][..],
            "allgather only",
        ),
        (&["check", other.to_str().unwrap(), "--network", "mesh2d:3x3"][..], "SCHEDULE"),
    ] {
        let (code, _, stderr) = run(args);
        assert_eq!(code, 2, "{args:?}: {stderr}");
        assert!(stderr.contains(expect) && stderr.trim().lines().count() == 1, "{args:?}: {stderr}");
    }
}

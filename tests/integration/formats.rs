//! Schedules in pictures and in the formats of collective runtimes: `draw`'s space-time diagram
//! on the papers' figures (cell counts, violations marked) and the MSCCL XML round trip of total
//! exchange (alltoall) and gossip (allgather), each read back through the checker.

use crate::common::checked;
use commsched::checker::{self, Producer};
use commsched::draw;
use commsched::error::Error;
use commsched::heuristics;
use commsched::msccl;
use commsched::spec::io::{load_instance, load_schedule, paper_schedule_file};
use commsched::spec::{Instance, Schedule, Transmission};
use std::path::PathBuf;

fn instance(path: &str) -> (PathBuf, Instance) {
    let file = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(path);
    let inst = load_instance(&file).expect("instance loads");
    (file, inst)
}

fn paper(path: &str) -> (Instance, Schedule) {
    let (file, inst) = instance(path);
    let sched = load_schedule(&paper_schedule_file(&file).expect("a paper schedule"), &inst).expect("loads");
    (inst, sched)
}

#[test]
fn draw_lays_out_every_hop_of_the_path6_figure() {
    let (inst, sched) = paper("instances/004/path6-fig2.toml");
    let d = draw::diagram(&inst, &sched).unwrap();
    // Every ordered pair (u, v) of path(6) sends one packet over |u − v| arcs: 2·(5+8+9+8+5).
    assert_eq!(d.cells.len(), 70);
    assert_eq!(d.rows.len(), 10);
    assert_eq!(d.steps, 9);
    assert!(d.marks.is_empty() && d.violations.is_empty());
    assert_eq!(d.title, "path6-fig2: admissible, length 9");
    let svg = d.to_svg();
    assert_eq!(svg.matches("<rect").count(), 1 + 70, "background and one box per cell");
    assert!(!svg.contains("#d00000"));
}

#[test]
fn draw_marks_the_checkers_violations_on_their_cells() {
    let (inst, Schedule::StoreForward(mut steps)) = paper("instances/004/path6-fig2.toml") else {
        panic!("a store-and-forward schedule")
    };
    // m_0(4) leaves a step early, beside m_0(5) on arc (0,1), and is sent again in step 2.
    steps[0].push(Transmission { from: 0, to: 1, tokens: vec![4] });
    let d = draw::diagram(&inst, &Schedule::StoreForward(steps)).unwrap();
    assert_eq!(d.violations.len(), 2, "{:?}", d.violations);
    assert!(d.violations[0].starts_with("arc rule: step 1, arc (0,1)"));
    assert!(d.violations[1].starts_with("not held: step 2, node 0"));
    // The arc rule marks arc (0,1) in step 1; the not-held send marks node 0's busy arcs in step 2.
    let a01 = inst.network.arc(0, 1).unwrap();
    let a10 = inst.network.arc(1, 0).unwrap();
    let mut want = vec![(a01, 1), (a01, 2), (a10, 2)];
    want.sort_unstable();
    assert_eq!(d.marks, want);
    assert_eq!(d.title, "path6-fig2: inadmissible, 2 violations");
    let svg = d.to_svg();
    assert_eq!(svg.matches("stroke=\"#d00000\"").count(), 3);
    assert!(svg.contains("arc rule: step 1, arc (0,1) carries"));
}

#[test]
fn draw_counts_every_flit_of_the_distributed_gather_figure() {
    let (inst, sched) = paper("instances/001/gather-fig4.toml");
    let measure = checker::check(&inst, &sched);
    let measure = measure.admissible().expect("the paper's schedule is admissible");
    let d = draw::diagram(&inst, &sched).unwrap();
    assert_eq!(d.title, "gather-fig4: admissible, length 21");
    // One cell per flit-arc crossing of data and control: the checker's event count.
    assert_eq!(d.cells.len() as u64, measure.metrics().events);
    assert!(d.cells.iter().any(|c| c.label == "token"));
}

#[test]
fn draw_refuses_fat_tree_schedules_by_name() {
    let (_, inst) = instance("instances/002/fattree8-const1.toml");
    let sched = heuristics::find("broadcast").unwrap().produce(&inst).unwrap();
    let err = draw::diagram(&inst, &sched).unwrap_err();
    assert!(matches!(err, Error::NotApplicable { .. }), "{err}");
    assert!(err.to_string().contains("fat-tree schedule"), "{err}");
}

/// Steps with their transmissions in a canonical order (export groups them by rank).
fn canonical(s: &Schedule) -> Vec<Vec<(usize, usize, Vec<usize>)>> {
    let explicit = s.explicit().unwrap();
    let (Schedule::StoreForward(steps) | Schedule::Collective { steps, .. }) = explicit.as_ref() else {
        panic!("store-and-forward or collective")
    };
    steps
        .iter()
        .map(|step| {
            let mut v: Vec<_> = step
                .iter()
                .map(|t| {
                    let mut tokens = t.tokens.clone();
                    tokens.sort_unstable();
                    (t.from, t.to, tokens)
                })
                .collect();
            v.sort();
            v
        })
        .collect()
}

/// The transmissions of a schedule, whatever their steps.
fn transmissions(sched: &Schedule) -> Vec<(usize, usize, Vec<usize>)> {
    let mut all: Vec<_> = canonical(sched).into_iter().flatten().collect();
    all.sort();
    all
}

/// Exports a checked schedule and reads it back both ways (docs/msccl.md). The export writes the
/// schedule as the runtime runs it whenever the checker admits that: then both readings give
/// the same schedule, with the same transmissions, no longer than the original. Otherwise (a
/// one-port rule the runtime's timing breaks) it writes the schedule's own steps, which the
/// step-index reading gives back exactly.
fn round_trip(inst: &Instance, sched: Schedule) -> String {
    let accepted = checker::accept(inst, sched, Producer::User("test".into())).unwrap();
    let xml = msccl::to_xml(inst, accepted.schedule(), Default::default()).unwrap();
    let read = |reading| msccl::import(&xml, "x.xml", inst, reading, None).unwrap();
    let (by_index, by_runtime) = (read(msccl::Reading::StepIndex), read(msccl::Reading::Runtime));
    assert_eq!(by_runtime.violations, []);
    assert_eq!(transmissions(&by_index.schedule), transmissions(accepted.schedule()), "{}", inst.name);
    if checker::check(inst, &by_runtime.schedule).admissible().is_some() {
        assert_eq!(canonical(&by_index.schedule), canonical(&by_runtime.schedule), "{}", inst.name);
        assert!(checked(inst, &by_index.schedule) <= accepted.length(), "{}", inst.name);
    } else {
        assert_eq!(canonical(&by_index.schedule), canonical(accepted.schedule()), "{}", inst.name);
        assert_eq!(checked(inst, &by_index.schedule), accepted.length());
    }
    xml
}

#[test]
fn total_exchange_round_trips_as_alltoall() {
    let (_, path6) = instance("instances/004/path6-fig2.toml");
    let ff = heuristics::find("furthest-first").unwrap().produce(&path6).unwrap();
    let xml = round_trip(&path6, ff);
    assert!(xml.starts_with("<algo name=\"path6-fig2\" nchunksperloop=\"6\""));
    assert!(xml.contains("coll=\"alltoall\""));
    assert_eq!(xml.matches("<gpu ").count(), 6);
    // One sending and one receiving thread block per arc, and one per rank for the local copy
    // of its own chunk; 70 hops, each a send and a receive.
    assert_eq!(xml.matches("<tb ").count(), 20 + 6);
    assert_eq!(xml.matches("type=\"cpy\"").count(), 6);
    assert_eq!(xml.matches("type=\"s\"").count(), 70);
    assert_eq!(xml.matches("type=\"r\"").count(), 70);
    // Relayed packets wait for their receive.
    assert!(xml.contains("hasdep=\"1\""));
    for fig in ["instances/004/ring7-fig3a.toml", "instances/004/ring6-fig3b.toml"] {
        let (inst, sched) = paper(fig);
        round_trip(&inst, sched);
    }
}

#[test]
fn gossip_round_trips_as_allgather() {
    for (file, method) in
        [("instances/003/path11-fig5.toml", "path-gossip"), ("instances/003/mesh4.toml", "mesh-combined")]
    {
        let (_, inst) = instance(file);
        let sched = heuristics::find(method).unwrap().produce(&inst).unwrap();
        let xml = round_trip(&inst, sched);
        assert!(xml.contains("coll=\"allgather\" inplace=\"1\""), "{file}");
    }
}

/// MSCCL moves one contiguous range per step and connection: a packet whose chunks are not one
/// run on both ends goes out on several channels in the same step, and reads back as one
/// transmission; a problem without an MSCCL collective is refused, naming it.
#[test]
fn packets_of_several_runs_take_several_channels() {
    let (_, inst) = instance("instances/004/path3.toml");
    // m_0(1) ends at node 1 (output chunk 0) while m_0(2) goes on (scratch): two buffers.
    let sched = Schedule::StoreForward(vec![vec![Transmission { from: 0, to: 1, tokens: vec![1, 2] }]]);
    let xml = msccl::to_xml(&inst, &sched, Default::default()).unwrap();
    assert!(xml.contains("nchannels=\"2\""), "{xml}");
    assert!(xml.contains("<tb id=\"1\" send=\"1\" recv=\"-1\" chan=\"1\">"), "{xml}");
    let back = msccl::import(&xml, "x.xml", &inst, msccl::Reading::StepIndex, None).unwrap();
    assert_eq!(canonical(&back.schedule), [[(0, 1, vec![1, 2])]]);
    let (_, bufferless) = instance("instances/000/ula6-fig1.toml");
    let err = msccl::to_xml(&bufferless, &Schedule::Virtual(Vec::new()), Default::default()).unwrap_err();
    assert!(err.to_string().contains("has no MSCCL collective"), "{err}");
}

#[test]
fn import_names_the_element_and_reason_of_bad_xml() {
    let (_, inst) = instance("instances/004/path3.toml");
    let head = "<algo name=\"x\" ngpus=\"3\" coll=\"alltoall\"><gpu id=\"0\">";
    let cases = [
        ("<algo coll=\"allgather\" ngpus=\"3\"/>", "algo.coll", "does not match"),
        ("<algo coll=\"alltoall\" ngpus=\"4\"/>", "algo.ngpus", "3 nodes"),
        (
            "<tb id=\"0\" send=\"1\" recv=\"-1\"><step s=\"0\" type=\"s\" srcbuf=\"i\" srcoff=\"1\" dstbuf=\"o\" dstoff=\"0\" cnt=\"1\"/></tb></gpu></algo>",
            "gpu[0].tb[0].step[0]",
            "has no receive",
        ),
        (
            "<tb id=\"0\" send=\"1\" recv=\"-1\"><step s=\"0\" type=\"rrc\" srcbuf=\"i\" srcoff=\"1\" dstbuf=\"o\" dstoff=\"0\" cnt=\"1\"/></tb></gpu></algo>",
            "gpu[0].tb[0].step[0].type",
            "reductions",
        ),
        ("<tb id=\"0\" send=\"7\" recv=\"-1\"></tb></gpu></algo>", "gpu[0].tb[0].send", "rank 7"),
        (
            "<tb id=\"0\" send=\"1\" recv=\"-1\"><step s=\"x\"/></tb></gpu></algo>",
            "gpu[0].tb[0].step.s",
            "integer",
        ),
        ("<tb id=\"0\" send=\"1\" recv=\"-1\"", "", "not well-formed XML"),
    ];
    for (body, field, reason) in cases {
        let text = if body.starts_with("<algo") { body.to_string() } else { format!("{head}{body}") };
        let err = msccl::import(&text, "bad.xml", &inst, msccl::Reading::StepIndex, None).unwrap_err();
        let err = err.error();
        assert_eq!(err.file, "bad.xml");
        assert_eq!(err.field, field, "{err}");
        assert!(err.reason.contains(reason), "{err}");
    }
}

/// Runs the binary; returns (exit code, stdout, stderr).
fn run(args: &[&str]) -> (i32, String, String) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_commsched"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("the binary runs");
    let text = |b: Vec<u8>| String::from_utf8(b).expect("utf-8");
    (out.status.code().expect("exited normally"), text(out.stdout), text(out.stderr))
}

#[test]
fn solve_writes_xml_that_check_reads_back_as_admissible_and_draw_draws() {
    let scratch = tempfile::tempdir().unwrap();
    let dir = scratch.path().join("formats");
    std::fs::create_dir_all(&dir).unwrap();
    let (xml, svg) = (dir.join("ring7.xml"), dir.join("ring7.svg"));
    let (xml_s, svg_s) = (xml.display().to_string(), svg.display().to_string());
    let inst = "instances/004/ring7-fig3a.toml";
    let (code, _, err) = run(&["solve", inst, "--method", "furthest-first", "--out", &xml_s]);
    assert_eq!(code, 0, "{err}");
    assert!(std::fs::read_to_string(&xml).unwrap().contains("coll=\"alltoall\""));
    let (code, stdout, _) = run(&["--format", "json", "check", inst, &xml_s]);
    assert_eq!(code, 0, "{stdout}");
    let v: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(v["admissible"], true);
    assert_eq!(v["length"], 6, "(7² − 1)/8 on the odd ring");
    let (code, stdout, err) = run(&["draw", inst, &xml_s, "-o", &svg_s]);
    assert_eq!(code, 0, "{err}");
    assert!(stdout.contains("admissible, length 6"), "{stdout}");
    assert!(std::fs::read_to_string(&svg).unwrap().starts_with("<svg"));
    // A truncated file: exit 2, one line naming the file.
    std::fs::write(&xml, "<algo coll=\"alltoall\" ngpus=\"7\"><gpu id=\"0\"").unwrap();
    let (code, stdout, err) = run(&["check", inst, &xml_s]);
    assert_eq!(code, 2, "{stdout}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("ring7.xml: not well-formed XML: the root node was opened but never closed"),
        "{err}"
    );
}

/// The one-port rules F1 and H1 (spec §3) round-trip too: the step-index reading keeps every
/// transmission in its step (the runtime's own timing may break a one-port rule, and then the
/// export keeps the schedule's steps), and the checker judges the imported copy against the
/// instance's rule. Total exchange:
/// furthest-first under F1 on path(5) (12 steps, TE-23); gossip: the exact layer's witnesses on
/// path(4) under F1 and H1.
#[test]
fn one_port_schedules_round_trip() {
    use commsched::exact::{self, BackendKind, Outcome, SolveOptions};
    use commsched::spec::{Mode, Model, Network, PortRule, Problem, RingTie};
    let store_forward = |net: &str, problem: Problem, rule: PortRule, mode: Mode| {
        Instance::new(
            net,
            Network::parse(net).unwrap(),
            problem,
            Model::StoreForward { rule, mode, packet: 1 },
            RingTie::Alternating,
            "<test>",
        )
        .unwrap()
    };
    let te = store_forward("path:5", Problem::TotalExchange(None), PortRule::F1, Mode::Move);
    let ff = heuristics::find("furthest-first").unwrap().produce(&te).unwrap();
    let xml = round_trip(&te, ff);
    assert!(xml.contains("coll=\"alltoall\""));
    let by_index = msccl::import(&xml, "x.xml", &te, msccl::Reading::StepIndex, None).unwrap();
    assert_eq!(checked(&te, &by_index.schedule), 12);
    for rule in [PortRule::F1, PortRule::H1] {
        let gossip = store_forward("path:4", Problem::Gossip, rule, Mode::Copy);
        let bounds = commsched::bounds::lower_bounds(&gossip);
        let Outcome::Optimal { checked: witness, .. } =
            exact::solve(&gossip, BackendKind::Ilp, &SolveOptions::default(), &bounds, None).unwrap()
        else {
            panic!("path(4) gossip under {rule:?} is settled by the exact layer")
        };
        let xml = round_trip(&gossip, witness.schedule().clone());
        assert!(xml.contains("coll=\"allgather\""), "{rule:?}");
    }
}

/// Collective schedules export with C chunks per rank (SCCL's numbering, docs/msccl.md) and the
/// header a runtime needs: the DGX-1 allgather (S, R, C) = (3, 7, 6) of the certificate folder,
/// and the collective algorithms' allgather and alltoall on ring:4 with C = 2.
#[test]
fn collective_schedules_export_with_c_chunks_per_rank() {
    let (file, dgx1) = instance("instances/sccl/dgx1-allgather-c6r7.toml");
    let folder = file.with_extension("certificate");
    let sched = load_schedule(&folder.join("schedule.json"), &dgx1).unwrap();
    let xml = round_trip(&dgx1, sched);
    assert!(xml.starts_with("<algo name=\"dgx1-allgather-c6r7\" nchunksperloop=\"48\""), "{}", &xml[..120]);
    for attr in [
        "coll=\"allgather\"",
        "inplace=\"1\" outofplace=\"0\" minBytes=\"0\"",
        "i_chunks=\"6\" o_chunks=\"48\"",
    ] {
        assert!(xml.contains(attr), "{attr}");
    }
    for kind in ["allgather", "alltoall"] {
        let text = format!(
            "problem = \"{kind}\"\nnetwork = \"ring:4\"\nchunks = 2\n[model]\nkind = \"collective\"\n"
        );
        let inst = commsched::spec::io::parse_instance(&text, "<test>", kind).unwrap();
        let sched = heuristics::find("ring").unwrap().produce(&inst).unwrap();
        let xml = round_trip(&inst, sched);
        assert!(xml.contains(&format!(
            "nchunksperloop=\"8\" nchannels=\"1\" proto=\"Simple\" ngpus=\"4\" coll=\"{kind}\""
        )));
    }
}

/// Files the runtime cannot run are errors naming the element: two ranks that each receive
/// before they send wait for each other (a deadlock), a send nobody receives, a send of a chunk
/// before anything arrived there, and an offset outside its buffer.
#[test]
fn the_runtime_reading_names_deadlocks_and_lost_sends() {
    let text = "problem = \"allgather\"\nnetwork = \"fully-connected:2\"\n[model]\nkind = \"collective\"\n";
    let inst = commsched::spec::io::parse_instance(text, "<test>", "ag2").unwrap();
    let step = |s: usize, kind: &str, src: &str, dst: &str| {
        let (sb, so) = src.split_at(1);
        let (db, d) = dst.split_at(1);
        format!(
            "<step s=\"{s}\" type=\"{kind}\" srcbuf=\"{sb}\" srcoff=\"{so}\" dstbuf=\"{db}\" dstoff=\"{d}\" cnt=\"1\"/>"
        )
    };
    let file = |rank0: String, rank1: String| {
        format!(
            "<algo name=\"x\" nchunksperloop=\"2\" ngpus=\"2\" coll=\"allgather\" inplace=\"1\"><gpu id=\"0\" o_chunks=\"2\"><tb id=\"0\" send=\"1\" recv=\"1\" chan=\"0\">{rank0}</tb></gpu><gpu id=\"1\" o_chunks=\"2\"><tb id=\"0\" send=\"0\" recv=\"0\" chan=\"0\">{rank1}</tb></gpu></algo>"
        )
    };
    let good = file(
        step(0, "s", "o0", "o0") + &step(1, "r", "o1", "o1"),
        step(0, "s", "o1", "o1") + &step(1, "r", "o0", "o0"),
    );
    let imported = msccl::import(&good, "ok.xml", &inst, msccl::Reading::Runtime, None).unwrap();
    assert_eq!(imported.violations, []);
    assert_eq!(checked(&inst, &imported.schedule), 1);
    let cases = [
        (
            file(
                step(0, "r", "o1", "o1") + &step(1, "s", "o0", "o0"),
                step(0, "r", "o0", "o0") + &step(1, "s", "o1", "o1"),
            ),
            "gpu[0].tb[0].step[0]",
            "deadlock: it waits for gpu[1].tb[0].step[1], which waits for gpu[1].tb[0].step[0], which waits for gpu[0].tb[0].step[1], which waits for gpu[0].tb[0].step[0]",
        ),
        (
            file(
                step(0, "s", "o0", "o0") + &step(1, "s", "o0", "o0"),
                step(0, "s", "o1", "o1") + &step(1, "r", "o0", "o0"),
            ),
            "gpu[0].tb[0].step[1]",
            "sends to rank 1 on channel 0, and is never received: rank 1 receives 1 time on that connection, rank 0 sends 2",
        ),
        (
            file(
                step(0, "s", "o1", "o1") + &step(1, "r", "o1", "o1"),
                step(0, "s", "o1", "o1") + &step(1, "r", "o0", "o0"),
            ),
            "gpu[0].tb[0].step[0].srcoff",
            "reads o[1] of rank 0 before anything arrives there",
        ),
        (
            file(
                step(0, "s", "o0", "o0") + &step(1, "r", "o2", "o2"),
                step(0, "s", "o1", "o1") + &step(1, "r", "o0", "o0"),
            ),
            "gpu[0].tb[0].step[1].dstoff",
            "chunks 2..3 are outside buffer `o` of rank 0, which has 2 chunks",
        ),
    ];
    for (text, field, reason) in cases {
        let err = msccl::import(&text, "bad.xml", &inst, msccl::Reading::Runtime, None).unwrap_err();
        let err = err.error();
        assert_eq!((err.field.as_str(), err.reason.as_str()), (field, reason));
    }
}

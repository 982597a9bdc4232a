//! MSCCL XML export of every collective a runtime runs (docs/msccl.md, "The mapping"):
//! reduce-scatter, broadcast, reduce and allreduce with the runtime's step types, the
//! synthesised steps and rounds kept on machines with switch groups, from the binary: `solve
//! --out FILE.xml`, then `check INSTANCE FILE.xml` and `check FILE.xml --network NET` give back
//! (S, R, C) and the collective; a mutated reduction step is rejected, naming the step; and
//! every corpus file re-exported checks to its own verdict.

use crate::cli::{data, json, run};
use commsched::checker::{self, Producer};
use commsched::msccl;
use commsched::spec::io::{load_instance, load_schedule, parse_instance};
use commsched::spec::{Schedule, Transmission};

/// `solve` a collective on `net` with `method`, exported as XML, then checked back with the
/// instance and alone on `net`: the same S and R each time. Returns (S, R).
fn export_and_check(coll: &str, net: &str, chunks: usize, method: &str) -> (u64, u64) {
    let dir = tempfile::tempdir().unwrap();
    let (toml, xml) = (dir.path().join("i.toml"), dir.path().join("i.xml"));
    let (toml, xml) = (toml.to_str().unwrap(), xml.to_str().unwrap());
    let (code, text, err) = run(&["gen", coll, "--network", net, "--chunks", &chunks.to_string()]);
    assert_eq!(code, 0, "{err}");
    std::fs::write(toml, text).unwrap();
    let (code, solved) = json(&["solve", toml, "--method", method, "--out", xml]);
    assert_eq!(code, 0, "{coll} on {net}: {solved}");
    let (s, r) = (solved["length"].as_u64().unwrap(), solved["rounds"].as_u64().unwrap());
    let what = format!("{coll} on {net} by {method}");
    let (code, back) = json(&["check", toml, xml]);
    assert_eq!(
        (code, &back["length"], &back["rounds"]),
        (0, &solved["length"], &solved["rounds"]),
        "{what}: {back}"
    );
    let (code, alone) = json(&["check", xml, "--network", net]);
    assert_eq!(
        (code, &alone["length"], &alone["rounds"]),
        (0, &solved["length"], &solved["rounds"]),
        "{what}: {alone}"
    );
    let method = alone["method"].as_str().unwrap();
    assert!(
        method.starts_with(&format!("check ({coll}")) && method.contains(&format!("R = {r}")),
        "{what}: {method}"
    );
    (s, r)
}

/// Reduce-scatter and broadcast on the DGX-1, on two 4-GPU boxes with a NIC switch each and on
/// HubAndSpoke(8), by an algorithm; reduce and allreduce on the DGX-1 too.
#[test]
fn reductions_and_broadcast_export_and_check_back_with_their_steps_and_rounds() {
    let boxes = data("two-boxes-4-nic.json");
    for net in ["dgx1", boxes.as_str(), "hub-and-spoke:8"] {
        for coll in ["reduce-scatter", "broadcast"] {
            export_and_check(coll, net, 1, "shortest-path-trees");
        }
    }
    export_and_check("reduce", "dgx1", 2, "shortest-path-trees");
    // The algorithms' allreduce is a reduce-scatter routed as its dual, then an allgather.
    assert_eq!(export_and_check("allreduce", "dgx1", 1, "shortest-path-trees"), (6, 6));
}

/// The exact witnesses on the switch machine: a step that puts several chunks through a NIC
/// keeps its steps, where the runtime's earliest timing would crowd the switch (the allgather
/// of the two boxes: 5 steps of one round each, not 3 steps and R = 10).
#[cfg(feature = "sat")]
#[test]
fn exact_witnesses_on_a_switch_machine_keep_their_steps_and_rounds() {
    let boxes = data("two-boxes-4-nic.json");
    for net in ["dgx1", boxes.as_str(), "hub-and-spoke:8"] {
        for coll in ["reduce-scatter", "broadcast"] {
            export_and_check(coll, net, 1, "sat");
        }
    }
    assert_eq!(export_and_check("allgather", &boxes, 1, "sat"), (5, 5));
}

/// The DGX-1 allgather (S, R, C) = (3, 7, 6) of the certificate folder, and the reduce-scatter
/// that is its dual run backwards (the DGX-1 is symmetric): one reduce-scatter then the
/// allgather is an allreduce of (6, 14, 6), exported as one file that `check` reads as that
/// allreduce. Its first reduction step mutated to reduce the wrong chunk is rejected, naming it.
#[test]
fn the_dgx1_allreduce_composed_of_two_optima_exports_as_one_file() {
    let root = env!("CARGO_MANIFEST_DIR");
    let ag = load_instance(format!("{root}/instances/sccl/dgx1-allgather-c6r7.toml").as_ref()).unwrap();
    let folder = format!("{root}/instances/sccl/dgx1-allgather-c6r7.certificate/schedule.json");
    let Schedule::Collective { steps, rounds } = load_schedule(folder.as_ref(), &ag).unwrap() else {
        panic!("a collective schedule")
    };
    let reversed = steps.iter().rev().map(|step| {
        step.iter()
            .map(|t| Transmission { from: t.to, to: t.from, tokens: t.tokens.clone() })
            .collect::<Vec<_>>()
    });
    let composed: Vec<Vec<Transmission>> = reversed.chain(steps.iter().cloned()).collect();
    let rounds: Vec<u64> = rounds.iter().rev().chain(&rounds).copied().collect();
    let text = "problem = \"allreduce\"\nnetwork = \"dgx1\"\nchunks = 6\n[model]\nkind = \"collective\"\nrounds = 14\n";
    let inst = parse_instance(text, "<test>", "dgx1-allreduce").unwrap();
    let schedule = Schedule::Collective { steps: composed, rounds };
    let accepted = checker::accept(&inst, schedule, Producer::User("composed".into())).unwrap();
    let xml = msccl::to_xml(&inst, accepted.schedule(), Default::default()).unwrap();
    assert!(xml.contains("coll=\"allreduce\"") && xml.contains("type=\"rrc\""));
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("allreduce.xml");
    std::fs::write(&file, &xml).unwrap();
    let file = file.to_str().unwrap();
    let (code, v) = json(&["check", file, "--network", "dgx1"]);
    assert_eq!(
        (code, &v["length"], &v["rounds"], &v["rounds_per_chunk"]),
        (0, &6.into(), &14.into(), &"7/3".into()),
        "{v}"
    );
    assert!(v["method"].as_str().unwrap().starts_with("check (allreduce (C = 6), R = 14"), "{v}");
    // The first `rrc` reads the chunk after the one it reduces.
    let lines: Vec<&str> = xml.lines().collect();
    let at = lines.iter().position(|l| l.contains("type=\"rrc\"")).unwrap();
    let attr = |l: &str, key: &str| {
        let from = l.find(&format!(" {key}=\"")).unwrap() + key.len() + 3;
        l[from..from + l[from..].find('"').unwrap()].to_string()
    };
    let gpu = lines[..at].iter().rev().find(|l| l.contains("<gpu ")).map(|l| attr(l, "id")).unwrap();
    let tb = lines[..at].iter().rev().find(|l| l.contains("<tb ")).map(|l| attr(l, "id")).unwrap();
    let place = format!("gpu[{gpu}].tb[{tb}].step[{}]", attr(lines[at], "s"));
    let off = attr(lines[at], "srcoff");
    let moved = (off.parse::<usize>().unwrap() + 1) % 48;
    let mutated = xml.replacen(
        lines[at],
        &lines[at].replace(&format!("srcoff=\"{off}\""), &format!("srcoff=\"{moved}\"")),
        1,
    );
    std::fs::write(file, mutated).unwrap();
    let (code, stdout, _) = run(&["check", file, "--network", "dgx1"]);
    assert_eq!(code, 1, "{stdout}");
    assert!(stdout.contains(&format!("mixed chunks: step 1, {place} reduces chunk")), "{place}: {stdout}");
}

/// Every corpus file that implements its collective (docs/msccl.md, "The corpus"), read as the
/// runtime runs it and exported again by commsched, checks alone to the same verdict, with no
/// more steps or rounds (the export's thread blocks can let the runtime run earlier: MSCCLang's
/// 4-rank tree allreduce takes (4, 8) where its own file takes (5, 10)). RCCL's one-step
/// all-pairs allreduces are refused, naming why: a rank sends and receives one chunk in one
/// step, which needs a receive into scratch that export does not write (docs/msccl.md,
/// "Limits"). The early ring reduce-scatter's wrong reductions are in its steps, not in the
/// transfers its schedule keeps, so its re-export would be right: it is left out.
#[test]
fn every_corpus_file_reexported_checks_to_its_own_verdict() {
    let dir = format!("{}/tests/data/msccl", env!("CARGO_MANIFEST_DIR"));
    let out = tempfile::tempdir().unwrap();
    let mut refused = Vec::new();
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if !name.ends_with(".xml")
            || name.starts_with("lyd-invalid")
            || name.contains("custom")
            || name.contains("reducescatter")
        {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        let collective = (!text.contains(" coll="))
            .then(|| if name.contains("allgather") { "allgather" } else { "allreduce" });
        let (inst, imported) = msccl::from_header(&text, &name, None, collective).unwrap();
        assert_eq!(imported.violations, [], "{name}");
        let xml = match msccl::to_xml(&inst, &imported.schedule, Default::default()) {
            Ok(xml) => xml,
            Err(e) => {
                refused.push(name.clone());
                assert!(e.to_string().contains("sends and receives chunk 0 in step 1"), "{name}: {e}");
                continue;
            }
        };
        let file = out.path().join(&name);
        std::fs::write(&file, xml).unwrap();
        let (code, before) = json(&[
            "check",
            path.to_str().unwrap(),
            "--collective",
            collective.unwrap_or(inst.problem.name()),
        ]);
        let (again, after) = json(&["check", file.to_str().unwrap()]);
        assert_eq!((code, again), (0, 0), "{name}: {after}");
        let at_most = |key: &str| after[key].as_u64().unwrap() <= before[key].as_u64().unwrap();
        assert!(at_most("length") && at_most("rounds"), "{name}: {before} then {after}");
    }
    refused.sort();
    assert_eq!(refused, ["rccl-allreduce-allpairs-4-ll.xml", "rccl-allreduce-allpairs-8-ll-outofplace.xml"]);
}

/// `--channels K` cuts each step's transfer on a connection into up to K ranges, one channel
/// each: the file reads back with the same (S, R) under both readings, no range is longer than
/// ⌈the one-channel file's longest / K⌉, and it uses more channels.
#[test]
fn channels_split_transfers_and_keep_steps_and_rounds() {
    let dir = tempfile::tempdir().unwrap();
    let toml = dir.path().join("r.toml");
    let toml = toml.to_str().unwrap();
    let (code, text, err) =
        run(&["gen", "allgather", "--network", "ring:4", "--chunks", "4", "--rounds", "8"]);
    assert_eq!(code, 0, "{err}");
    std::fs::write(toml, text).unwrap();
    let longest = |xml: &str| {
        let doc = roxmltree::Document::parse(xml).unwrap();
        let cnt = doc.descendants().filter_map(|n| n.attribute("cnt")).map(|c| c.parse::<usize>().unwrap());
        let channels: usize = doc.root_element().attribute("nchannels").unwrap().parse().unwrap();
        (cnt.max().unwrap(), channels)
    };
    let mut seen = Vec::new();
    for k in ["1", "2"] {
        let xml = dir.path().join(format!("c{k}.xml"));
        let xml = xml.to_str().unwrap();
        let (code, solved) = json(&["solve", toml, "--method", "sat", "--out", xml, "--channels", k]);
        assert_eq!(code, 0, "{solved}");
        for args in [&[toml, xml][..], &[xml, "--network", "ring:4"][..]] {
            let mut all = vec!["check"];
            all.extend_from_slice(args);
            let (code, back) = json(&all);
            assert_eq!(
                (code, &back["length"], &back["rounds"]),
                (0, &solved["length"], &solved["rounds"]),
                "{k}"
            );
        }
        seen.push(longest(&std::fs::read_to_string(xml).unwrap()));
    }
    let [(one, one_channels), (two, two_channels)] = seen[..] else { unreachable!() };
    assert!(one > 1 && two <= one.div_ceil(2), "{one} then {two}");
    assert!(two_channels > one_channels, "{one_channels} then {two_channels} channels");
    let (code, _, err) = run(&["solve", toml, "--method", "ring", "--out", "x.xml", "--channels", "0"]);
    assert_eq!(code, 2, "{err}");
}

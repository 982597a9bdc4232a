//! One (S, R, C) point decided with its evidence, and SCCL's latency–bandwidth frontier
//! walked point by point (docs/spec.md §4.5): refutation and witness folders that `verify`
//! re-checks, the multicommodity-flow bound on R/C, and the DGX-1 allgather frontier of
//! SCCL's paper.

use commsched::bounds::collective::rounds_per_chunk;
use commsched::certify::Evidence;
use commsched::exact::decision::{Point, Refutation, decide_point};
use commsched::exact::pareto::{Frontier, WalkOptions, walk};
use commsched::exact::{BackendKind, SolveOptions};
use commsched::folder;
use commsched::shard::Shard;
use commsched::spec::Instance;
use commsched::spec::io::parse_instance;

fn instance(problem: &str, network: &str, chunks: usize, rounds: Option<u64>) -> Instance {
    let budget = rounds.map_or(String::new(), |r| format!("rounds = {r}\n"));
    let text = format!(
        "problem = \"{problem}\"\nnetwork = \"{network}\"\nchunks = {chunks}\n[model]\nkind = \"collective\"\n{budget}"
    );
    parse_instance(&text, "<test>", &format!("{problem}-{network}")).unwrap()
}

/// The backend `--method exact` picks for the collective encoder in this build.
fn first_backend(inst: &Instance) -> BackendKind {
    commsched::exact::BackendChoice::Measured.resolve(inst)
}

/// ρ\* of the flow LP: 7/6 on the DGX-1 (each GPU receives 7 chunks over links of total
/// bandwidth 6), 3/2 for allgather on ring:4 (3 chunks over 2 in-links), 1 for alltoall on
/// fully-connected:4 (3 chunks over 3 links), and 5 for HubAndSpoke(6) allgather, where the
/// switch takes one chunk per round into each node.
#[test]
fn the_flow_bound_on_rounds_per_chunk() {
    for (problem, network, p, q) in [
        ("allgather", "dgx1", 7, 6),
        ("allgather", "ring:4", 3, 2),
        ("alltoall", "fully-connected:4", 1, 1),
        ("allgather", "hub-and-spoke:6", 5, 1),
    ] {
        let rho = rounds_per_chunk(&instance(problem, network, 1, None)).unwrap();
        assert_eq!((rho.name, rho.fraction), ("multicommodity flow", Some((p, q))), "{problem} on {network}");
        assert_eq!(rho.least_rounds(6), (6 * p).div_ceil(q), "{problem} on {network}");
    }
}

/// (S, R, C) = (2, 7, 6) on the DGX-1 is infeasible and (3, 7, 6) feasible (SCCL's
/// bandwidth-optimal point; (2, 3, 2) without SAT): the witness is checked, and in the sat
/// build the refutation is a checked proof whose folder `verify` accepts, and rejects once the
/// proof is cut.
#[test]
fn dgx1_allgather_points_with_their_evidence() {
    let inst = instance("allgather", "dgx1", 6, Some(7));
    let backend = first_backend(&inst);
    let dir = tempfile::tempdir().unwrap();
    let options = SolveOptions { proof_dir: Some(dir.path().to_path_buf()), ..SolveOptions::default() };
    let Point::Infeasible(refutation) = decide_point(&inst, backend, 2, &options, None).unwrap() else {
        panic!("(2, 7, 6) is infeasible")
    };
    let Refutation::Solver(infeasibility) = &refutation else { panic!("{refutation:?}") };
    assert_eq!(infeasibility.horizon, 2);
    if backend == BackendKind::Sat {
        assert_eq!(infeasibility.evidence, Evidence::ProofChecked);
        folder::write_refutation(dir.path(), &inst, 2, &refutation, 0.0).unwrap();
        assert_eq!(folder::verify(dir.path()).unwrap(), Vec::<String>::new());
        let proof = dir.path().join(commsched::exact::PROOF_LRAT);
        let text = std::fs::read_to_string(&proof).unwrap();
        std::fs::write(&proof, &text[..text.len() / 2]).unwrap();
        assert!(!folder::verify(dir.path()).unwrap().is_empty(), "a cut proof accepted");
    }
    // (3, 7, 6) takes z3 minutes; the SAT build decides it in the frontier test, and every
    // build decides (2, 3, 2) here.
    let small = instance("allgather", "dgx1", 2, Some(3));
    let (inst, steps) = if backend == BackendKind::Sat { (inst, 3) } else { (small, 2) };
    let Point::Feasible(witness) =
        decide_point(&inst, backend, steps, &SolveOptions::default(), None).unwrap()
    else {
        panic!("{}: S = {steps} is feasible", inst.name)
    };
    assert_eq!(crate::common::checked(&inst, witness.schedule()), steps);
    let witness_dir = tempfile::tempdir().unwrap();
    folder::write_witness(witness_dir.path(), &inst, &witness, 0.0).unwrap();
    assert_eq!(folder::verify(witness_dir.path()).unwrap(), Vec::<String>::new());
}

/// A budget below the receive bandwidth's rounds is refuted by the bound, before any solve
/// (HubAndSpoke(6) allgather: 5 chunks into each node at one per round, so no horizon
/// helps), and so is one step under the distance bound; the folders verify by recomputing
/// the argument. The distance refutation moved to a horizon the bound does not reach is
/// rejected.
#[test]
fn refutations_by_a_bound_verify() {
    let write = |inst: &Instance, steps: u64| {
        let point = decide_point(inst, BackendKind::Ilp, steps, &SolveOptions::default(), None).unwrap();
        let Point::Infeasible(refutation @ Refutation::Bound(_)) = point else { panic!("{point:?}") };
        let dir = tempfile::tempdir().unwrap();
        folder::write_refutation(dir.path(), inst, steps, &refutation, 0.0).unwrap();
        assert_eq!(folder::verify(dir.path()).unwrap(), Vec::<String>::new(), "{refutation}");
        dir
    };
    write(&instance("allgather", "hub-and-spoke:6", 1, Some(4)), 4);
    let dir = write(&instance("allgather", "ring:6", 1, None), 2);
    let manifest = dir.path().join(folder::MANIFEST);
    let text = std::fs::read_to_string(&manifest).unwrap();
    let bolder = text
        .replace("\"infeasible_horizon\": 2", "\"infeasible_horizon\": 3")
        .replace("\"length\": 3", "\"length\": 4");
    assert_ne!(bolder, text);
    std::fs::write(&manifest, bolder).unwrap();
    let failures = folder::verify(dir.path()).unwrap();
    assert!(failures.iter().any(|f| f.contains("not above the horizon 3")), "{failures:?}");
}

/// The DGX-1 allgather frontier (SCCL, PPoPP'21 Table 3): for C = 1..6 the least R is
/// ⌈7C/6⌉ and the least S is 2 for C ≤ 2, then 3; (C, S, R) = (2, 2, 3) and (6, 3, 7) are the
/// Pareto-optimal ones, and the walk ends at C = 6 where R/C meets the bound 7/6. The
/// backend of `--method exact` decides; with SAT, every point's folder verifies. Without SAT
/// the walk stops at C = 3 (z3 and microlp take minutes on the larger models).
#[test]
fn the_dgx1_allgather_frontier() {
    let base = instance("allgather", "dgx1", 1, None);
    let backend = first_backend(&base);
    let sat = backend == BackendKind::Sat;
    let root = tempfile::tempdir().unwrap();
    let options = WalkOptions {
        max_chunks: if sat { 6 } else { 3 },
        backend,
        solve: SolveOptions::default(),
        folders: sat.then(|| root.path().to_path_buf()),
        shard: Shard::WHOLE,
    };
    let walk = walk(&base, &options, &mut folder::write_settled).unwrap();
    assert_eq!(walk.bound.fraction, Some((7, 6)));
    assert!(walk.refuted.is_empty(), "{:?}", walk.refuted);
    let points: Vec<(usize, u64, u64, bool)> =
        walk.points.iter().map(|p| (p.chunks, p.steps(), p.rounds, p.frontier == Frontier::Yes)).collect();
    let expected = [
        (1, 2, 2, false),
        (2, 2, 3, true),
        (3, 3, 4, false),
        (4, 3, 5, false),
        (5, 3, 6, false),
        (6, 3, 7, true),
    ];
    if sat {
        assert_eq!(points, expected);
        assert!(walk.complete() && walk.stop.is_none());
        for p in &walk.points {
            let dir = p.folder.as_ref().unwrap();
            assert_eq!(folder::verify(dir).unwrap(), Vec::<String>::new(), "{}", dir.display());
        }
    } else {
        // Up to C = 3 the frontier so far marks (3, 3, 4) as on it: nothing dominates it yet.
        let so_far: Vec<_> = expected[..3].iter().map(|&(c, s, r, _)| (c, s, r)).collect();
        assert_eq!(points.iter().map(|&(c, s, r, _)| (c, s, r)).collect::<Vec<_>>(), so_far);
        assert!(!walk.complete());
    }
}

//! Combining collectives (docs/spec.md §3.1, §4.4): reduce, reduce-scatter and allreduce are
//! judged by what each rank ends with, the contributors of its partial reductions; reductions
//! are solved as their non-combining dual, and SCCL's DGX-1 ReduceScatter rows agree.

use crate::common::{checked, verdict_text};
use commsched::checker::{Rule, check};
use commsched::spec::io::parse_instance;
use commsched::spec::{Instance, Schedule, Transmission};

fn instance(problem: &str, network: &str, rounds: Option<u64>) -> Instance {
    let budget = rounds.map_or(String::new(), |r| format!("rounds = {r}\n"));
    let text =
        format!("problem = \"{problem}\"\nnetwork = \"{network}\"\n[model]\nkind = \"collective\"\n{budget}");
    parse_instance(&text, "<test>", &format!("{problem}-{network}")).unwrap()
}

fn tr(from: usize, to: usize, chunks: &[usize]) -> Transmission {
    Transmission { from, to, tokens: chunks.to_vec() }
}

/// Reduce-scatter on path:3 in 2 steps (the distance bound): the ends' shares of chunk 1
/// reach node 1 in step 2, and node 1's combined shares of chunks 0 and 2 reach the ends.
fn reduce_scatter_path3() -> Vec<Vec<Transmission>> {
    vec![
        vec![tr(0, 1, &[2]), tr(2, 1, &[0])],
        vec![tr(0, 1, &[1]), tr(1, 0, &[0]), tr(1, 2, &[2]), tr(2, 1, &[1])],
    ]
}

#[test]
fn a_reduce_scatter_is_judged_by_what_each_rank_ends_with() {
    let inst = instance("reduce-scatter", "path:3", None);
    let ok = Schedule::Collective { steps: reduce_scatter_path3(), rounds: vec![1, 1] };
    assert_eq!(checked(&inst, &ok), 2);
    // Node 0's share of chunk 2 sent twice: node 1 would count it twice; chunk 1 never reduced.
    let bad = Schedule::Collective {
        steps: vec![
            vec![tr(0, 1, &[2])],
            vec![tr(1, 2, &[2])],
            vec![tr(0, 1, &[2]), tr(2, 1, &[0])],
            vec![tr(1, 0, &[0])],
        ],
        rounds: vec![1; 4],
    };
    let verdict = check(&inst, &bad);
    let text = verdict_text(&verdict);
    let rules: Vec<Rule> = verdict.violations().iter().map(|v| v.rule).collect();
    assert_eq!(rules, [Rule::CountedTwice, Rule::Incomplete], "{text}");
    assert!(
        text.contains(
            "counted twice: step 3, node 1 receives chunk 2 from node 0 with the contributions of node 0, \
             which its own partial reduction (nodes 0, 1) already counts in part: node 0 would count twice"
        ),
        "{text}"
    );
    assert!(text.contains("node 1 ends chunk 1 without the contributions of nodes 0, 2"), "{text}");
}

/// An allreduce on path:3: the reduce-scatter above, then an allgather of the reductions, each
/// received as a copy (it contains the receiver's own share): 4 steps. A partial reduction
/// that overlaps the receiver's without containing it is counted twice.
#[test]
fn an_allreduce_takes_copies_of_complete_reductions() {
    let inst = instance("allreduce", "path:3", None);
    let mut steps = reduce_scatter_path3();
    steps.push(vec![tr(0, 1, &[0]), tr(1, 0, &[1]), tr(1, 2, &[1]), tr(2, 1, &[2])]);
    steps.push(vec![tr(1, 0, &[2]), tr(1, 2, &[0])]);
    let ok = Schedule::Collective { rounds: vec![1; steps.len()], steps };
    assert_eq!(checked(&inst, &ok), 4);
    // Node 2 holds {1, 2} of chunk 1 after step 1, node 1 {0, 1}: combining node 1's with
    // node 2's counts node 1 twice, and taking it as a copy would lose node 2.
    let overlap = Schedule::Collective {
        steps: vec![vec![tr(0, 1, &[1]), tr(1, 2, &[1])], vec![tr(1, 2, &[1])]],
        rounds: vec![1, 1],
    };
    let verdict = check(&inst, &overlap);
    let text = verdict_text(&verdict);
    assert!(
        text.contains(
            "counted twice: step 2, node 2 receives chunk 1 from node 1 with the contributions of nodes 0, 1, \
             which its own partial reduction (nodes 1, 2) already counts in part: node 1 would count twice"
        ),
        "{text}"
    );
}

//! The integration suite, one binary (one link of the crate and its solvers instead of one per
//! file). Each module tests one layer against the papers' numbers; see its module doc.

/// Asserts a reviewed snapshot stored under `snapshots/` by its name alone (no module prefix),
/// the one place that says where snapshots live.
macro_rules! snapshot {
    ($name:expr, $value:expr) => {
        insta::with_settings!({snapshot_path => "../../snapshots", prepend_module_to_snapshot => false}, {
            insta::assert_snapshot!($name, $value);
        })
    };
}

mod bandwidth;
mod baselines;
mod bounds;
mod bufferless_exact;
mod catalogue;
mod chatting;
mod checker_bufferless;
mod checker_fat_tree;
mod checker_sf;
mod cli;
mod collective;
mod common;
mod events;
mod exact;
mod families;
mod fat_tree_algorithms;
mod formats;
mod frontier;
mod fuzz;
mod gossip;
mod gossip_exact;
mod instances;
mod itineraries;
mod layers;
mod models;
mod msccl_corpus;
mod msccl_export;
mod reductions;
mod report;
mod scatter_gather;
mod suites;
mod svg;
mod timeouts;
mod total_exchange;
mod tune;
mod walk_shards;

//! The integration suite, one binary (one link of the crate and its solvers instead of one per
//! file). Each module tests one layer against the papers' numbers; see its module doc.

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
mod models;
mod msccl_corpus;
mod reductions;
mod report;
mod scatter_gather;
mod suites;
mod svg;
mod total_exchange;

//! Clausal proofs of unsatisfiability, checked inside commsched: a SAT backend's "infeasible at
//! T − 1" becomes evidence only once [`lrat::check`] has verified its proof against the CNF
//! (docs/spec.md §7). The checker is small and shares nothing with any solver: it reads DIMACS
//! CNF ([`lrat::Cnf`]) and ASCII LRAT and checks every added clause by unit propagation over the
//! antecedents the proof lists for it. A proof file may be stored compressed, xz or zstd
//! ([`compressed`]), and is read as a stream either way.
//!
//! A leaf of the crate: it imports nothing from it. [`sha256`] hashes the files of the
//! certificate folders, which are written and re-checked a layer above the exact search
//! (`folder`, `solve --certificate`, `verify`).

pub mod compressed;
pub mod lrat;
pub mod sha256;

//! Clausal proofs of unsatisfiability, checked inside commsched: a SAT backend's "infeasible at
//! T − 1" becomes evidence only once [`lrat::check`] has verified its proof against the CNF
//! (docs/spec.md §7). The checker is small and shares nothing with any solver: it reads DIMACS
//! CNF and ASCII LRAT and checks every added clause by unit propagation over the antecedents the
//! proof lists for it.
//!
//! [`folder`] writes and re-checks certificate folders (`solve --certificate`, `verify`), with
//! file hashes from [`sha256`].

pub mod folder;
pub mod lrat;
pub mod sha256;

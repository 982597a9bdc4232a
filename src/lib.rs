//! # commsched
//!
//! Certifies and optimises collective-communication schedules in processor networks: a formal
//! model and checker, lower bounds, the papers' heuristics and SCCL's collectives on real
//! machines, exact optima with certificates (ILP, SMT, and SAT with LRAT proofs checked
//! in-crate), and bound-gap reports.
//!
//! The pipeline on paper 004's 6-node linear array (Fig. 2, TE-24): every schedule, ours or a
//! user's, goes through the checker, and a length equal to a lower bound is a certified optimum.
//!
//! ```
//! use commsched::{bounds, certify, checker, exact, heuristics, spec::io::parse_instance};
//!
//! let inst = parse_instance(
//!     "problem = \"total-exchange\"\nnetwork = \"path:6\"",
//!     "<doc>",
//!     "path6",
//! )
//! .unwrap();
//! let method = heuristics::find("furthest-first").unwrap();
//! let schedule = method.produce(&inst).unwrap();
//! let checked = checker::accept(&inst, schedule, checker::Producer::Algorithm(method.name)).unwrap();
//! assert_eq!(checked.length(), 9); // ⌈(6²−1)/4⌉, TE-13
//! let bounds = bounds::lower_bounds(&inst);
//! let certificate = certify::certify(&bounds, &checked, None).unwrap();
//! assert_eq!(certificate.to_string(), "lower-bound bisection = 9 (TE-1)");
//!
//! // The exact layer, from the bounds alone (no incumbent), finds and certifies the same optimum.
//! let outcome = exact::solve(&inst, exact::default_backend(), &Default::default(), &bounds, None).unwrap();
//! assert!(matches!(outcome, exact::Outcome::Optimal { ref checked, .. } if checked.length() == 9));
//! ```
#![warn(missing_docs)]

// The command-line interface lives in the library (its code names the crate `commsched`, as
// the binary sees it), so that the binary and the Python bindings run the same commands.
extern crate self as commsched;

pub mod bandwidth;
pub mod bounds;
pub mod certify;
pub mod checker;
pub mod claims;
pub mod cli;
pub mod compare;
pub mod deadline;
pub mod draw;
pub mod error;
pub mod exact;
pub mod folder;
pub mod generate;
pub mod heuristics;
pub mod msccl;
pub mod names;
pub mod proof;
pub mod rng;
pub mod shard;
pub mod spec;
pub mod svg;
pub mod tune;

pub use error::{Error, InputError, Result};

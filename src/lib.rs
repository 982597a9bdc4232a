//! # commsched
//!
//! Certifies and optimises collective-communication schedules in processor networks: a formal
//! model and checker, lower bounds, the papers' heuristics, exact ILP/SMT optima with
//! certificates, and bound-gap reports.
//!
//! The pipeline on paper 004's 6-node linear array (Fig. 2, TE-24): every schedule, ours or a
//! user's, goes through the checker, and a length equal to a lower bound is a certified optimum.
//!
//! ```
//! use commsched::{bounds, checker, exact, heuristics, spec::io::parse_instance};
//!
//! let inst = parse_instance(
//!     "problem = \"total-exchange\"\nnetwork = \"path:6\"",
//!     "<doc>",
//!     "path6",
//! )
//! .unwrap();
//! let method = heuristics::find("furthest-first").unwrap();
//! let schedule = (method.run)(&inst).unwrap();
//! let checked = checker::check(&inst, &schedule);
//! let length = checked.admissible().expect("admissible").length();
//! assert_eq!(length, 9); // ⌈(6²−1)/4⌉, TE-13
//! assert_eq!(bounds::best(&inst).unwrap().value, 9); // bisection, TE-1: so 9 is optimal
//!
//! // The exact layer certifies the same optimum with its own witness.
//! let outcome = exact::solve(&inst, exact::default_backend(), &Default::default()).unwrap();
//! assert!(matches!(outcome, exact::Outcome::Optimal { ref checked, .. } if checked.length() == 9));
//! ```
#![warn(missing_docs)]

pub mod bounds;
pub mod catalogue;
pub mod checker;
pub mod cli;
pub mod compare;
pub mod error;
pub mod exact;
pub mod heuristics;
pub mod spec;

pub use error::{Error, InputError, Result};

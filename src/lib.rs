//! # commsched
//!
//! Certifies and optimises collective-communication schedules in processor networks: a formal
//! model and checker, lower bounds, the papers' heuristics, exact ILP/SMT optima with
//! certificates, and bound-gap reports.
#![warn(missing_docs)]

pub mod bounds;
pub mod checker;
pub mod cli;
pub mod compare;
pub mod error;
pub mod exact;
pub mod heuristics;
pub mod spec;

pub use error::{Error, InputError, Result};

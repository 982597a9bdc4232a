//! The comparator: where lower bounds, checked algorithm lengths, exact optima and the papers'
//! claims meet. [`assess()`] is the one pipeline every command runs; [`report`] formats its
//! results.

pub mod assess;
pub mod paper_claims;
pub mod ratios;
pub mod report;
mod run;

pub use assess::{Algorithms, AssessOptions, Assessment, Attached, Status, assess};

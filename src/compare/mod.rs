//! The comparator: where lower bounds, checked algorithm lengths, exact optima and the papers'
//! claims meet. [`assess()`] is the one pipeline every command runs; [`report`] formats its
//! results.

pub mod assess;
pub mod html;
pub mod paper_claims;
pub mod plots;
pub mod ratios;
pub mod report;
mod run;
pub mod scale;

pub use assess::{Algorithms, AssessOptions, Assessment, Attached, Status, assess};

//! The comparator: the only place where lower bounds, heuristics, exact optima and the papers'
//! claims meet. Reports are data ([`report::InstanceReport`]) first, formatters second.

pub mod claims;
pub mod report;

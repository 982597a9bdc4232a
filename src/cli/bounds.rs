//! `bounds INSTANCE`: every lower bound of the instance and the strongest, and why no schedule
//! exists when a cheap count refutes a round budget.

use super::args::Format;
use super::summary::{Summary, print_summary};
use commsched::bounds;
use commsched::deadline::Deadline;
use commsched::error::Result;
use commsched::spec::io::load_instance;
use std::io::Write;
use std::path::Path;
use std::time::Duration;

pub(super) fn bounds(instance: &Path, timeout: Duration, format: Format, out: &mut dyn Write) -> Result<u8> {
    let inst = load_instance(instance)?;
    let all = bounds::lower_bounds_within(&inst, Deadline::after(Some(timeout)));
    let s = Summary {
        no_schedule: bounds::collective::no_schedule(&inst),
        ..Summary::of_bounds(&inst.name, all)
    };
    print_summary(&s, format, out)?;
    Ok(0)
}

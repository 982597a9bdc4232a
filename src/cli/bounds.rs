//! `bounds INSTANCE`: every lower bound of the instance and the strongest.

use super::args::Format;
use super::summary::{Summary, print_summary};
use commsched::bounds;
use commsched::compare::Status;
use commsched::error::Result;
use commsched::spec::io::load_instance;
use std::io::Write;
use std::path::Path;

pub(super) fn bounds(instance: &Path, format: Format, out: &mut dyn Write) -> Result<u8> {
    let inst = load_instance(instance)?;
    let bounds = bounds::lower_bounds(&inst);
    let s = Summary {
        instance: inst.name.clone(),
        method: "bounds".into(),
        status: Status::Bounds.to_string(),
        lower_bound: bounds::strongest(&bounds).map(|b| b.value),
        bounds,
        ..Default::default()
    };
    print_summary(&s, format, out)?;
    Ok(0)
}

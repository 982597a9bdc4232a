//! `bounds INSTANCE`: every lower bound of the instance and the strongest.

use super::args::Format;
use super::summary::{Summary, print_summary};
use commsched::bounds;
use commsched::error::Result;
use commsched::spec::io::load_instance;
use std::io::Write;
use std::path::Path;

pub(super) fn bounds(instance: &Path, format: Format, out: &mut dyn Write) -> Result<u8> {
    let inst = load_instance(instance)?;
    let s = Summary::of_bounds(&inst.name, bounds::lower_bounds(&inst));
    print_summary(&s, format, out)?;
    Ok(0)
}

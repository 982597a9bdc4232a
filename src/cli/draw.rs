//! `draw INSTANCE SCHEDULE --out FILE.svg`: a checked schedule as a picture.

use super::args::Style;
use super::{in_file, io_err};
use commsched::error::Result;
use commsched::msccl::load_schedule;
use commsched::spec::io::load_instance;
use std::io::Write;
use std::path::Path;

/// `draw`: the checked schedule as a space-time diagram; prints the verdict it drew.
pub(super) fn draw(
    instance: &Path,
    schedule: &Path,
    file: &Path,
    style: Style,
    out: &mut dyn Write,
) -> Result<u8> {
    let inst = load_instance(instance)?;
    let sched = load_schedule(schedule, &inst)?;
    let d = commsched::draw::diagram(&inst, &sched).map_err(in_file(instance))?;
    let svg = match style {
        Style::SpaceTime => Ok(d.to_svg()),
        Style::DotWire => commsched::draw::paper::dot_wire(&inst, &sched, &d),
        Style::Parallelogram => commsched::draw::paper::parallelograms(&inst, &d),
    }
    .map_err(in_file(instance))?;
    std::fs::write(file, svg).map_err(io_err(&file.display().to_string()))?;
    writeln!(
        out,
        "wrote {} ({}; {} cells, {} marked)",
        file.display(),
        d.title,
        d.cells.len(),
        d.marks.len()
    )
    .map_err(io_err("<stdout>"))?;
    Ok(0)
}

//! `ratios`: the chatting algorithms against certified optima on seeded random instances.

use super::args::RatioFamily;
use super::io_err;
use commsched::compare::ratios;
use commsched::error::Result;
use commsched::spec::io::instance_to_toml;
use std::io::Write;
use std::path::Path;

pub(super) fn family(f: RatioFamily) -> ratios::RandomFamily {
    match f {
        RatioFamily::Ula => ratios::RandomFamily::Ula,
        RatioFamily::Path => ratios::RandomFamily::Path,
        RatioFamily::Esm => ratios::RandomFamily::Esm,
        RatioFamily::Mesh => ratios::RandomFamily::Mesh,
        RatioFamily::Tree => ratios::RandomFamily::Tree,
    }
}

/// `ratios`: validates every family's options first (so a bad flag fails at once), measures
/// each family, prints the Markdown table and with `--out` writes the table, the CSV, one chart
/// per family and every counterexample instance.
pub(super) fn ratios(
    options: Vec<ratios::RatioOptions>,
    dir: Option<&Path>,
    out: &mut dyn Write,
) -> Result<u8> {
    for o in &options {
        o.validate()?;
    }
    let runs = options.iter().map(ratios::measure).collect::<Result<Vec<_>>>()?;
    ratios::write_markdown(&runs, out).map_err(io_err("<stdout>"))?;
    let Some(dir) = dir else { return Ok(0) };
    let write = |name: &str, text: &[u8]| {
        let path = dir.join(name);
        std::fs::write(&path, text).map_err(io_err(&path.display().to_string()))
    };
    std::fs::create_dir_all(dir.join("counterexamples")).map_err(io_err(&dir.display().to_string()))?;
    let mut md = Vec::new();
    ratios::write_markdown(&runs, &mut md).map_err(io_err("ratios.md"))?;
    write("ratios.md", &md)?;
    let mut csv = Vec::new();
    ratios::write_csv(&runs, &mut csv).map_err(io_err("ratios.csv"))?;
    write("ratios.csv", &csv)?;
    for run in &runs {
        write(&format!("ratios-{}.svg", run.options.family.name()), ratios::chart(run).to_svg().as_bytes())?;
        for c in run.rows.iter().flat_map(|r| &r.violations) {
            write(
                &format!("counterexamples/{}.toml", c.instance.name),
                instance_to_toml(&c.instance).as_bytes(),
            )?;
        }
    }
    Ok(0)
}

//! `export PATHS --backend B --out DIR`: the exact models as `.lp`, `.smt2` or `.cnf` files.

use super::args::BackendArg;
use super::{backend, in_file, io_err};
use commsched::compare::{Algorithms, AssessOptions, Attached, assess};
use commsched::error::{Error, InputError, Result};
use commsched::exact::{self, SolveOptions, encode};
use commsched::spec::Instance;
use commsched::spec::io::{instance_files, load_instance};
use std::io::Write;
use std::path::{Path, PathBuf};

/// Writes the model of every instance under `paths` at `horizon` (default: the best
/// algorithm's checked length), skipping in a directory what no encoder takes.
pub(super) fn export(
    paths: &[PathBuf],
    b: BackendArg,
    dir: &Path,
    horizon: Option<u64>,
    max_vars: usize,
    out: &mut dyn Write,
) -> Result<u8> {
    let kind = backend(b);
    let single = paths.len() == 1 && paths[0].is_file();
    for (root, file) in instance_files(paths)? {
        let inst = load_instance(&file)?;
        inst.guard_events().map_err(|e| Error::Input(e.in_file(file.display().to_string())))?;
        let skip = |out: &mut dyn Write, e: &Error| {
            writeln!(out, "skipped {}: {e}", file.display()).map_err(io_err("<stdout>"))
        };
        if let Err(reason) = encode::encoder_for(&inst).map(|_| ()) {
            if single {
                return Err(reason);
            }
            skip(out, &reason)?;
            continue;
        }
        let horizon = match horizon {
            Some(t) => t,
            None => match export_horizon(&inst) {
                Some(t) => t,
                None => {
                    let e = Error::Input(InputError::new(
                        file.display().to_string(),
                        "--horizon",
                        "no registered algorithm applies to this instance: give the horizon",
                    ));
                    if single {
                        return Err(e);
                    }
                    skip(out, &e)?;
                    continue;
                }
            },
        };
        // In a directory, an instance over the size guard is skipped like one no encoder takes.
        let text = match exact::export(&inst, kind, horizon, max_vars) {
            Ok(text) => text,
            Err(e) if !single => {
                skip(out, &e)?;
                continue;
            }
            Err(e) => return Err(in_file(&file)(e)),
        };
        let target = exact::model_file(dir, &root, &file, kind);
        if let Some(parent) = target.parent() {
            std::fs::create_dir_all(parent).map_err(io_err(&parent.display().to_string()))?;
        }
        std::fs::write(&target, text).map_err(io_err(&target.display().to_string()))?;
        writeln!(out, "wrote {}", target.display()).map_err(io_err("<stdout>"))?;
    }
    Ok(0)
}

/// The default export horizon: the checked length of the shortest schedule of the registered
/// algorithms, so the exported model is satisfiable.
fn export_horizon(inst: &Instance) -> Option<u64> {
    let options = AssessOptions {
        algorithms: Algorithms::Applicable,
        exact: None,
        solve: SolveOptions::default(),
        fail_fast: false,
    };
    assess(inst, Attached::default(), &options).ok()?.best.map(|c| c.length())
}

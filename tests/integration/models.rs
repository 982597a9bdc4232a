//! `models/` holds the exact model of every instance the exact layer encodes with at most
//! [`CHECKED_IN_VARIABLES`] variables at the default horizon, one file per backend, written by
//! `commsched export instances --backend ilp|smt|sat --max-vars 2500` (which skips the larger ones:
//! the gossip models of the 4×4 mesh and beyond run to megabytes; `export` writes them on
//! demand). This test regenerates each one in memory and fails when a file is stale, missing or
//! left over, so the checked-in encodings always match the encoders.

use commsched::compare::{Algorithms, AssessOptions, Attached, assess};
use commsched::exact::{self, BackendKind, SolveOptions, model_file};
use commsched::spec::io::{instance_files, load_instance};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// The largest model (in variables, at the default horizon) whose files are checked in.
const CHECKED_IN_VARIABLES: usize = 2_500;

fn files_under(dir: &Path) -> BTreeSet<PathBuf> {
    let mut out = BTreeSet::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else {
                out.insert(p);
            }
        }
    }
    out
}

#[test]
fn models_are_in_sync_with_the_encoder() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let instances = root.join("instances");
    let models = root.join("models");
    let mut expected = BTreeSet::new();
    let regenerate = "regenerate with `cargo run --release -- export instances --max-vars 2500 --backend ilp` (and `--backend smt`, `--backend sat`)";
    for (base, file) in instance_files(std::slice::from_ref(&instances)).unwrap() {
        let inst = load_instance(&file).unwrap();
        let Ok((_, encoder)) = exact::encode::encoder_for(&inst) else { continue };
        // The CLI's default horizon: the best registered algorithm's checked length.
        let options = AssessOptions {
            algorithms: Algorithms::Applicable,
            exact: None,
            solve: SolveOptions::default(),
            fail_fast: false,
        };
        // No algorithm fits the DGX-1's (C, R) = (6, 7) budget: no default horizon to export at.
        let Some(best) = assess(&inst, Attached::default(), &options).unwrap().best else { continue };
        let horizon = best.length();
        if encoder.variables(horizon, exact::encode::Variant::Full) > CHECKED_IN_VARIABLES {
            continue;
        }
        for kind in BackendKind::ALL {
            let text = match exact::export(&inst, kind, horizon, CHECKED_IN_VARIABLES) {
                Ok(t) => t,
                Err(commsched::Error::NotApplicable { .. }) => continue,
                Err(e) => panic!("{}: {e}", file.display()),
            };
            let path = model_file(&models, &base, &file, kind);
            let on_disk = std::fs::read_to_string(&path)
                .unwrap_or_else(|e| panic!("{} missing ({e}): {regenerate}", path.display()));
            assert!(on_disk == text, "{} is stale: {regenerate}", path.display());
            expected.insert(path);
        }
    }
    assert!(
        expected.len() >= 51,
        "every total-exchange instance and the small gossip ones have a model per backend, got {}",
        expected.len()
    );
    let stray: Vec<_> = files_under(&models).difference(&expected).cloned().collect();
    assert!(stray.is_empty(), "model files with no instance: {stray:?}");
}

//! `verify DIR`: re-checks a certificate folder from its files alone; a folder of certificate
//! folders (what `pareto --certificate` writes, one per point and per refuted budget) has each of
//! them re-checked.

use super::io_err;
use commsched::error::Result;
use commsched::folder;
use std::io::Write;
use std::path::Path;

/// `verify DIR`: every failure on its own line, exit 1 if there is any; a compressed proof that
/// does not decode is bad input (exit 2, docs/spec.md §7.1).
pub(super) fn verify(dir: &Path, out: &mut dyn Write) -> Result<u8> {
    let folders = folder::certificate_folders(dir);
    let mut text = String::new();
    let mut invalid = 0;
    for folder in &folders {
        let failures = folder::verify(folder)?;
        if failures.is_empty() {
            text += &format!("{}: valid certificate\n", folder.display());
        } else {
            invalid += 1;
            text += &format!("{}: invalid certificate\n", folder.display());
            for f in &failures {
                text += &format!("  {f}\n");
            }
        }
    }
    if folders.len() > 1 {
        text += &format!(
            "{}: {} of {} certificate folders valid\n",
            dir.display(),
            folders.len() - invalid,
            folders.len()
        );
    }
    out.write_all(text.as_bytes()).map_err(io_err("<stdout>"))?;
    Ok(if invalid == 0 { 0 } else { 1 })
}

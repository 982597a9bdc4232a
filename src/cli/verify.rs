//! `verify DIR`: re-checks a certificate folder from its files alone.

use super::io_err;
use commsched::error::Result;
use commsched::folder;
use std::io::Write;
use std::path::Path;

/// `verify DIR`: every failure on its own line, exit 1 if there is any.
pub(super) fn verify(dir: &Path, out: &mut dyn Write) -> Result<u8> {
    let failures = folder::verify(dir);
    let text = if failures.is_empty() {
        format!("{}: valid certificate\n", dir.display())
    } else {
        let mut t = format!("{}: invalid certificate\n", dir.display());
        for f in &failures {
            t += &format!("  {f}\n");
        }
        t
    };
    out.write_all(text.as_bytes()).map_err(io_err("<stdout>"))?;
    Ok(if failures.is_empty() { 0 } else { 1 })
}

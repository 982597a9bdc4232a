//! `gen PROBLEM --network N …`: an instance file from flags, validated like a file.

use super::args::GenArgs;
use commsched::error::Result;
use commsched::spec::Instance;

/// Builds the instance `commsched gen` writes ([`commsched::generate`]).
pub fn generate(g: &GenArgs) -> Result<Instance> {
    commsched::generate::generate(&g.request())
}

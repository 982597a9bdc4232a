//! A file judged by its header alone (`check FILE.xml`, docs/msccl.md): the instance its
//! header names, and the file run on it as a runtime runs it.

use super::runtime::{RunError, Semantics};
use super::xml::{self, Algo};
use super::{Imported, Reading, import};
use crate::error::InputError;
use crate::spec::{Collective, CollectiveKind, Instance, Model, Network, Problem, RingTie, Schedule};

/// A file judged by its header alone (`check FILE.xml`): the instance is its collective (from
/// `coll`, or `collective` when given) on `network` (`fully-connected:ngpus` when `None`) in
/// the collective model, with the chunks `nchunksperloop` gives (an allreduce whose P is not a
/// multiple of n is cut finer, `refinement`), the root a broadcast or reduce names, and the
/// budget R that the runtime reading's
/// timing uses, so the file is judged as SCCL's (S, R, C).
pub fn from_header(
    text: &str,
    file: &str,
    network: Option<Network>,
    collective: Option<&str>,
) -> std::result::Result<(Instance, Imported), RunError> {
    let mut inst = header_instance(text, file, network, collective)?;
    let imported = import(text, file, &inst, Reading::Runtime, collective)?;
    if let Schedule::Collective { rounds, .. } = &imported.schedule {
        inst.model = Model::Collective { rounds: Some(rounds.iter().sum()) };
    }
    Ok((inst, imported))
}

/// The instance a file's header names ([`from_header`], before the file is run): its
/// collective on `network` in the collective model without a round budget.
pub fn header_instance(
    text: &str,
    file: &str,
    network: Option<Network>,
    collective: Option<&str>,
) -> std::result::Result<Instance, InputError> {
    let algo: Algo = xml::parse(text, file)?;
    let semantics = Semantics::of(&algo, collective, file)?;
    let kind = semantics.kind.ok_or_else(|| {
        InputError::new(
            file,
            "algo.coll",
            "`custom` has no postcondition to judge: name the collective it implements (--collective)",
        )
    })?;
    let n = semantics.ranks;
    let network = match network {
        Some(net) => net,
        None => Network::parse(&format!("fully-connected:{n}"))
            .map_err(|r| InputError::new(file, "algo.ngpus", r))?,
    };
    let p = semantics.chunks;
    let chunks = match kind {
        CollectiveKind::Allreduce => p / gcd(p, n),
        CollectiveKind::Broadcast | CollectiveKind::Reduce => p,
        _ => p / n,
    };
    let name =
        std::path::Path::new(file).file_stem().map_or(file.to_string(), |s| s.to_string_lossy().into_owned());
    Instance::new(
        name,
        network,
        Problem::Collective(Collective { kind, chunks, root: semantics.root }),
        Model::Collective { rounds: None },
        RingTie::default(),
        file,
    )
}

fn gcd(a: usize, b: usize) -> usize {
    if b == 0 { a } else { gcd(b, a % b) }
}

//! Certificate folders of the bandwidth model (docs/spec.md §7.3): the fabric as node-link JSON
//! (`network.json`), the packing (`packing.json`), one cut per phase (`cut.json`) and the
//! manifest. [`verify`] re-reads all three and trusts nothing: it re-hashes the files, checks the
//! packing with the checker, computes the cuts' bound and requires the two to be equal, and
//! recomputes every figure the manifest states. Both halves take polynomial time.

use super::{FileEntry, MANIFEST, entry, hash_failures, io_error};
use crate::bandwidth::Optimum;
use crate::checker::packing::{check_packing, cuts_bound};
use crate::error::Result;
use crate::spec::fabric::node_link::{parse_node_link, to_node_link};
use crate::spec::fabric::{Fabric, parse_ratio, ratio_text};
use crate::spec::packing::{cuts_to_json, packing_to_json, parse_cuts, parse_packing};
use serde::{Deserialize, Serialize};
use std::path::Path;

/// The manifest's `format` value of a bandwidth certificate.
pub const FORMAT: &str = "commsched-bandwidth-certificate-1";
/// The fabric, as node-link JSON.
pub const NETWORK: &str = "network.json";
/// The packing.
pub const PACKING: &str = "packing.json";
/// The cuts.
pub const CUT: &str = "cut.json";

/// `manifest.json` of a bandwidth certificate.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Manifest {
    /// [`FORMAT`].
    pub format: String,
    /// The version of commsched that wrote the folder.
    pub commsched: String,
    /// The fabric's name.
    pub network: String,
    /// The collective.
    pub collective: String,
    /// N, the compute nodes.
    pub compute_nodes: usize,
    /// The optimal time per shard, `p/q` seconds per GB of shard (T(M) = (M/N) · this).
    pub time_per_shard: String,
    /// M / T(M) in GB/s.
    pub algbw: f64,
    /// algbw times nccl-tests' bus factor.
    pub busbw: f64,
    /// The packing's trees.
    pub trees: usize,
    /// Every file but the manifest.
    pub files: Vec<FileEntry>,
    /// Wall-clock seconds of the optimisation.
    pub solve_seconds: f64,
}

/// Whether `dir` holds a bandwidth certificate (its manifest says [`FORMAT`]).
pub fn is_packing_folder(dir: &Path) -> bool {
    std::fs::read(dir.join(MANIFEST))
        .ok()
        .and_then(|d| serde_json::from_slice::<serde_json::Value>(&d).ok())
        .is_some_and(|m| m.get("format").and_then(|f| f.as_str()) == Some(FORMAT))
}

/// Writes the folder of a certified optimum.
pub fn write(dir: &Path, fabric: &Fabric, optimum: &Optimum, solve_seconds: f64) -> Result<()> {
    std::fs::create_dir_all(dir).map_err(io_error(dir))?;
    let put = |name: &str, text: String| {
        let path = dir.join(name);
        std::fs::write(&path, text).map_err(io_error(&path))
    };
    put(NETWORK, to_node_link(fabric))?;
    put(PACKING, packing_to_json(fabric, &optimum.packing))?;
    put(CUT, cuts_to_json(fabric, &optimum.cuts))?;
    let n = fabric.compute().len();
    let (algbw, busbw) = optimum.collective.bandwidths(n, &optimum.measure.time);
    let manifest = Manifest {
        format: FORMAT.into(),
        commsched: env!("CARGO_PKG_VERSION").into(),
        network: fabric.name().into(),
        collective: optimum.collective.name().into(),
        compute_nodes: n,
        time_per_shard: ratio_text(&optimum.measure.time),
        algbw,
        busbw,
        trees: optimum.measure.trees,
        files: [NETWORK, PACKING, CUT].iter().map(|f| entry(dir, f)).collect::<Result<_>>()?,
        solve_seconds,
    };
    put(MANIFEST, serde_json::to_string_pretty(&manifest).expect("the manifest serialises") + "\n")
}

/// Re-checks a bandwidth certificate folder: what failed, one line each; empty when valid.
pub fn verify(dir: &Path) -> Vec<String> {
    let read =
        |name: &str| std::fs::read_to_string(dir.join(name)).map_err(|e| format!("{name}: cannot read: {e}"));
    let manifest: Manifest =
        match read(MANIFEST).and_then(|t| serde_json::from_str(&t).map_err(|e| format!("{MANIFEST}: {e}"))) {
            Ok(m) => m,
            Err(e) => return vec![e],
        };
    let mut failures = Vec::new();
    for name in [NETWORK, PACKING, CUT] {
        if !manifest.files.iter().any(|f| f.name == name) {
            failures.push(format!("{MANIFEST}: does not list {name}"));
        }
    }
    failures.extend(hash_failures(dir, &manifest.files));
    let fabric = match read(NETWORK)
        .and_then(|t| parse_node_link(&t, NETWORK, &manifest.network, None).map_err(|e| e.to_string()))
    {
        Ok(f) => f,
        Err(e) => {
            failures.push(e);
            return failures;
        }
    };
    let packing = read(PACKING).and_then(|t| parse_packing(&t, PACKING, &fabric).map_err(|e| e.to_string()));
    let cuts = read(CUT).and_then(|t| parse_cuts(&t, CUT, &fabric).map_err(|e| e.to_string()));
    let (packing, cuts) = match (packing, cuts) {
        (Ok(p), Ok(c)) => (p, c),
        (p, c) => {
            failures.extend(p.err().into_iter().chain(c.err()));
            return failures;
        }
    };
    if packing.collective.name() != manifest.collective || cuts.collective != packing.collective {
        failures.push(format!(
            "collective: the manifest says {}, {PACKING} {}, {CUT} {}",
            manifest.collective,
            packing.collective.name(),
            cuts.collective.name()
        ));
    }
    let measure = check_packing(&fabric, &packing);
    let bound = cuts_bound(&fabric, &cuts);
    let (measure, bound) = match (measure, bound) {
        (Ok(m), Ok(b)) => (m, b),
        (m, b) => {
            let m = m.err().unwrap_or_default().into_iter().map(|v| format!("{PACKING}: {v}"));
            let b = b.err().unwrap_or_default().into_iter().map(|v| format!("{CUT}: {v}"));
            failures.extend(m.take(10).chain(b));
            return failures;
        }
    };
    if measure.time != bound {
        failures.push(format!(
            "the packing's time per shard {} is not the cuts' bound {}: the pair proves no optimum",
            ratio_text(&measure.time),
            ratio_text(&bound)
        ));
    }
    let n = fabric.compute().len();
    let (algbw, busbw) = packing.collective.bandwidths(n, &measure.time);
    let close = |a: f64, b: f64| (a - b).abs() <= 1e-9 * a.abs().max(1.0);
    let claims = [
        (
            "time_per_shard",
            parse_ratio(&manifest.time_per_shard) == Some(measure.time.clone()),
            manifest.time_per_shard.clone(),
            ratio_text(&measure.time),
        ),
        ("compute_nodes", manifest.compute_nodes == n, manifest.compute_nodes.to_string(), n.to_string()),
        ("trees", manifest.trees == measure.trees, manifest.trees.to_string(), measure.trees.to_string()),
        ("algbw", close(manifest.algbw, algbw), manifest.algbw.to_string(), algbw.to_string()),
        ("busbw", close(manifest.busbw, busbw), manifest.busbw.to_string(), busbw.to_string()),
    ];
    for (field, holds, said, is) in claims {
        if !holds {
            failures.push(format!("{MANIFEST}: {field} says {said}, the files give {is}"));
        }
    }
    failures
}

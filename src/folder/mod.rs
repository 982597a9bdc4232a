//! Certificate folders (docs/spec.md §7.1): everything an outsider needs to re-check that a
//! schedule is optimal, written by `solve --certificate DIR` and re-checked by
//! `commsched verify DIR`.
//!
//! A folder holds `instance.toml`, the witness `schedule.json`, for a proof-checked
//! certificate the CNF of the exact model at T − 1 ([`PROOF_CNF`]) and its LRAT proof
//! ([`PROOF_LRAT`], or that file compressed, `.xz` or `.zst`: [`crate::proof::compressed`]), and
//! `manifest.json` ([`Manifest`]): versions, the certificate, the lower-bound argument when the
//! certificate is a bound, the SHA-256 of every file as stored and the solve time. [`verify`]
//! trusts nothing in the folder: it re-hashes the files, re-checks the witness with the checker,
//! recomputes the lower bounds, re-encodes the instance at T − 1 and compares the CNF clause by
//! clause, and checks the proof with [`lrat::check`], decoding a compressed one as it reads it.

use crate::bounds::{self, Bound};
use crate::certify::{Certificate, Evidence, Infeasibility, certify};
use crate::checker::{Checked, Producer, judge};
use crate::error::{Error, InputError, Result};
use crate::exact::cnf::CnfModel;
use crate::exact::cnf::DESCENT_MARKER;
use crate::exact::decision::Refutation;
use crate::exact::encode::{self, Variant};
use crate::exact::pareto::{Decision, Settled};
use crate::exact::{PROOF_CNF, PROOF_LRAT};
use crate::proof::compressed::Compression;
use crate::proof::{lrat, sha256};
use crate::spec::io::{instance_to_toml, parse_instance, parse_schedule, schedule_to_json};
use crate::spec::{Instance, InstanceFile};
use serde::{Deserialize, Serialize};
use std::path::Path;

pub mod packing;

/// The instance file of a folder.
pub const INSTANCE: &str = "instance.toml";
/// The witness schedule of a folder.
pub const SCHEDULE: &str = "schedule.json";
/// The manifest of a folder.
pub const MANIFEST: &str = "manifest.json";
/// The manifest's `format` value.
pub const FORMAT: &str = "commsched-certificate-1";

/// One file of a folder and its hash.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FileEntry {
    /// The file name, inside the folder.
    pub name: String,
    /// Its SHA-256, 64 lowercase hex digits (as `sha256sum` prints it).
    pub sha256: String,
    /// Its size in bytes.
    pub bytes: u64,
}

/// The lower bound a certificate rests on, with its argument.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BoundArgument {
    /// The bound's name (`bisection`, `total load`, ...).
    pub name: String,
    /// Its claim id, for a paper's bound.
    pub claim: Option<String>,
    /// Its value, equal to the witness's length.
    pub value: u64,
    /// How it is derived.
    pub argument: String,
}

/// `manifest.json`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Manifest {
    /// [`FORMAT`].
    pub format: String,
    /// The version of commsched that wrote the folder.
    pub commsched: String,
    /// The instance's name.
    pub instance: String,
    /// The witness's checked length T.
    pub length: u64,
    /// The certificate as it reads (docs/spec.md §7).
    pub certificate: String,
    /// `lower-bound`, `proof-checked` or `solver-word`.
    pub kind: String,
    /// For `lower-bound`: the bound and its argument.
    pub lower_bound: Option<BoundArgument>,
    /// For `proof-checked` and `solver-word`: T − 1, the horizon shown infeasible.
    pub infeasible_horizon: Option<u64>,
    /// For `proof-checked` and `solver-word`: the backend that decided it.
    pub backend: Option<String>,
    /// For `proof-checked` and `solver-word`, when the infeasible model is a relaxation's
    /// ([`crate::exact::encode::Relaxation`]): its name. The CNF is then the relaxed instance's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub relaxation: Option<String>,
    /// A refutation folder (docs/spec.md §7.1): no witness, and `length` is a lower bound,
    /// `infeasible_horizon` + 1: no schedule of length ≤ `infeasible_horizon` exists.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub refutation: bool,
    /// Every file of the folder but the manifest.
    pub files: Vec<FileEntry>,
    /// Wall-clock seconds of the solve that produced the folder.
    pub solve_seconds: f64,
}

pub(crate) fn io_error(path: &Path) -> impl Fn(std::io::Error) -> Error + '_ {
    move |source| Error::Io { path: path.display().to_string(), source }
}

pub(crate) fn entry(dir: &Path, name: &str) -> Result<FileEntry> {
    let path = dir.join(name);
    let (sha256, bytes) = sha256::file_digest(&path).map_err(io_error(&path))?;
    Ok(FileEntry { name: name.into(), sha256, bytes })
}

impl Manifest {
    /// A manifest with no bound, infeasibility or files yet.
    fn new(instance: &Instance, length: u64, certificate: String, kind: &str, solve_seconds: f64) -> Self {
        Manifest {
            format: FORMAT.into(),
            commsched: env!("CARGO_PKG_VERSION").into(),
            instance: instance.name.clone(),
            length,
            certificate,
            kind: kind.into(),
            lower_bound: None,
            infeasible_horizon: None,
            backend: None,
            relaxation: None,
            refutation: false,
            files: Vec::new(),
            solve_seconds,
        }
    }
}

/// Creates `dir` and writes the instance, and the witness when there is one: the names of the
/// files written.
fn open_folder(dir: &Path, instance: &Instance, witness: Option<&Checked>) -> Result<Vec<&'static str>> {
    std::fs::create_dir_all(dir).map_err(io_error(dir))?;
    let put = |name: &str, text: String| {
        let path = dir.join(name);
        std::fs::write(&path, text).map_err(io_error(&path))
    };
    put(INSTANCE, instance_to_toml(instance))?;
    let Some(checked) = witness else { return Ok(vec![INSTANCE]) };
    put(SCHEDULE, schedule_to_json(instance, checked.schedule())? + "\n")?;
    Ok(vec![INSTANCE, SCHEDULE])
}

/// The kind of an infeasibility's evidence; a proof is trimmed and checked, and its CNF and
/// LRAT join `names`.
fn evidence_kind(dir: &Path, evidence: Evidence, names: &mut Vec<&'static str>) -> Result<&'static str> {
    Ok(match evidence {
        Evidence::ProofChecked => {
            trim_proof(dir)?;
            names.extend([PROOF_CNF, PROOF_LRAT]);
            "proof-checked"
        }
        Evidence::SolverWord => "solver-word",
    })
}

/// Hashes the files `names` into `manifest` and writes it.
fn seal(dir: &Path, names: &[&str], mut manifest: Manifest) -> Result<()> {
    manifest.files = names.iter().map(|n| entry(dir, n)).collect::<Result<Vec<_>>>()?;
    let path = dir.join(MANIFEST);
    std::fs::write(&path, serde_json::to_string_pretty(&manifest).expect("the manifest serialises") + "\n")
        .map_err(io_error(&path))
}

/// Writes the folder of an optimum: `checked` is the witness, `certificate` why it is optimal,
/// `bounds` the instance's lower bounds. For a proof-checked certificate the CNF and the proof
/// must already be in `dir` (the exact search writes them there, see
/// [`crate::exact::SolveOptions::proof_dir`]); the proof is trimmed to what its empty clause
/// uses ([`lrat::trim`]) and checked once more.
pub fn write(
    dir: &Path,
    instance: &Instance,
    checked: &Checked,
    certificate: &Certificate,
    bounds: &[Bound],
    solve_seconds: f64,
) -> Result<()> {
    let mut names = open_folder(dir, instance, Some(checked))?;
    let manifest =
        |kind| Manifest::new(instance, checked.length(), certificate.to_string(), kind, solve_seconds);
    let manifest = match certificate {
        Certificate::LowerBound { name, .. } => {
            let bound = bounds.iter().find(|b| &b.name == name && b.value == checked.length());
            let argument = bound.map(|b| BoundArgument {
                name: b.name.clone(),
                claim: b.claim.map(str::to_string),
                value: b.value,
                argument: b.note.clone(),
            });
            Manifest { lower_bound: argument, ..manifest("lower-bound") }
        }
        Certificate::InfeasibleAtTMinus1 { t, backend, evidence, relaxation } => Manifest {
            infeasible_horizon: Some(*t),
            backend: Some(backend.to_string()),
            relaxation: relaxation.clone(),
            ..manifest(evidence_kind(dir, *evidence, &mut names)?)
        },
    };
    seal(dir, &names, manifest)
}

/// Writes the folder of a feasible answer: `checked`, a witness of length ≤ the horizon asked
/// about, and nothing about optimality (kind `witness`).
pub fn write_witness(dir: &Path, instance: &Instance, checked: &Checked, solve_seconds: f64) -> Result<()> {
    let names = open_folder(dir, instance, Some(checked))?;
    let length = checked.length();
    let claim = format!("a checked schedule of length {length}");
    seal(dir, &names, Manifest::new(instance, length, claim, "witness", solve_seconds))
}

/// Writes the folder of a refutation: no schedule of `instance` has length ≤ `horizon`, for
/// the reason `refutation` gives. A proof's CNF and LRAT must already be in `dir`, as for
/// [`write()`]; a solver's word is written down but [`verify`] will not accept it.
pub fn write_refutation(
    dir: &Path,
    instance: &Instance,
    horizon: u64,
    refutation: &Refutation,
    solve_seconds: f64,
) -> Result<()> {
    let mut names = open_folder(dir, instance, None)?;
    let claim = format!("no schedule of length ≤ {horizon} ({refutation})");
    let manifest = |kind| Manifest {
        infeasible_horizon: Some(horizon),
        refutation: true,
        ..Manifest::new(instance, horizon + 1, claim.clone(), kind, solve_seconds)
    };
    let manifest = match refutation {
        Refutation::Bound(argument) => {
            let bound = BoundArgument {
                name: "lower bound".into(),
                claim: None,
                value: horizon + 1,
                argument: argument.clone(),
            };
            Manifest { lower_bound: Some(bound), ..manifest("lower-bound") }
        }
        Refutation::Solver(i) => Manifest {
            backend: Some(i.backend.to_string()),
            ..manifest(evidence_kind(dir, i.evidence, &mut names)?)
        },
    };
    seal(dir, &names, manifest)
}

/// Writes the folder of one decision of SCCL's frontier walk, when folders were asked for
/// ([`crate::exact::pareto::WalkOptions::folders`]): a point as [`write()`] does, a refuted R
/// as [`write_refutation`]. The `record` of [`crate::exact::pareto::walk`].
pub fn write_settled(settled: Settled<'_>) -> Result<()> {
    let Settled { instance, folder: Some(dir), seconds, decision } = settled else { return Ok(()) };
    match decision {
        Decision::Point { checked, certificate, bounds } => {
            write(dir, instance, checked, certificate, bounds, seconds)
        }
        Decision::Refuted { rounds, refutation } => {
            write_refutation(dir, instance, rounds, refutation, seconds)
        }
    }
}

/// Replaces the folder's proof by its trimmed form ([`lrat::trim`]) and checks that against the
/// CNF, so the folder never holds a proof that was not checked as it is.
fn trim_proof(dir: &Path) -> Result<()> {
    let path = dir.join(PROOF_LRAT);
    let proof = std::fs::read_to_string(&path).map_err(io_error(&path))?;
    let fault = |reason: String| Error::Backend { backend: "sat", reason };
    let trimmed = lrat::trim(&proof).map_err(|e| fault(format!("{}: {e}", path.display())))?;
    drop(proof);
    std::fs::write(&path, trimmed).map_err(io_error(&path))?;
    lrat::check_files(&dir.join(PROOF_CNF), &path).map(drop).map_err(fault)
}

/// Every file of `files` whose SHA-256 or size in `dir` is not the one listed, one line each.
pub(crate) fn hash_failures(dir: &Path, files: &[FileEntry]) -> Vec<String> {
    files
        .iter()
        .filter_map(|f| match sha256::file_digest(&dir.join(&f.name)) {
            Ok((digest, bytes)) if digest == f.sha256 && bytes == f.bytes => None,
            Ok((digest, bytes)) => Some(format!(
                "{}: sha256 {digest} ({bytes} bytes), the manifest says {} ({} bytes)",
                f.name, f.sha256, f.bytes
            )),
            Err(e) => Some(format!("{}: cannot read: {e}", f.name)),
        })
        .collect()
}

/// The folders `verify` re-checks under `dir`: `dir` itself when it holds a manifest (or has no
/// subfolder that does), else its subfolders that hold one (what `pareto --certificate` writes,
/// one per point and per refuted budget), in name order.
pub fn certificate_folders(dir: &Path) -> Vec<std::path::PathBuf> {
    let own = || vec![dir.to_path_buf()];
    if dir.join(MANIFEST).exists() {
        return own();
    }
    let Ok(entries) = std::fs::read_dir(dir) else { return own() };
    let mut folders: Vec<std::path::PathBuf> =
        entries.flatten().map(|e| e.path()).filter(|p| p.join(MANIFEST).is_file()).collect();
    folders.sort();
    if folders.is_empty() { own() } else { folders }
}

/// Re-checks a folder. Returns what failed, one line each; an empty list means the folder is a
/// valid certificate. A compressed proof that does not decode
/// ([`crate::proof::compressed::Undecodable`]) is the one `Err`: a damaged folder, bad input
/// rather than a failed check (docs/spec.md §7.1, "Compressed proofs").
pub fn verify(dir: &Path) -> Result<Vec<String>> {
    if packing::is_packing_folder(dir) {
        return Ok(packing::verify(dir));
    }
    Ok(inspect(dir, Producer::User(SCHEDULE.into()))?.0)
}

/// What a re-checked folder holds: its manifest, its instance and its witness, checked (none
/// in a refutation folder).
type Contents = (Manifest, Instance, Option<Checked>);

/// [`verify`], which also returns the folder's contents when it read them all, its witness
/// checked as a schedule of `producer`.
fn inspect(dir: &Path, producer: Producer) -> Result<(Vec<String>, Option<Contents>)> {
    let mut failures = Vec::new();
    let read = |name: &str| std::fs::read(dir.join(name)).map_err(|e| format!("{name}: cannot read: {e}"));
    let manifest: Manifest = match read(MANIFEST)
        .and_then(|d| serde_json::from_slice(&d).map_err(|e| format!("{MANIFEST}: {e}")))
    {
        Ok(m) => m,
        Err(e) => return Ok((vec![e], None)),
    };
    if manifest.format != FORMAT {
        failures.push(format!("{MANIFEST}: format `{}`, expected `{FORMAT}`", manifest.format));
    }
    // Every file the certificate needs is listed (the proof by `verify_proof`, under one of its
    // names), and every listed file has its hash.
    let mut needed = if manifest.refutation { vec![INSTANCE] } else { vec![INSTANCE, SCHEDULE] };
    if manifest.kind == "proof-checked" {
        needed.push(PROOF_CNF);
    }
    for name in &needed {
        if !manifest.files.iter().any(|f| f.name == *name) {
            failures.push(format!("{MANIFEST}: does not list {name}"));
        }
    }
    failures.extend(hash_failures(dir, &manifest.files));
    let text = |name: &str| read(name).map(|d| String::from_utf8_lossy(&d).into_owned());
    let instance = match text(INSTANCE)
        .and_then(|t| parse_instance(&t, INSTANCE, &manifest.instance).map_err(|e| e.to_string()))
    {
        Ok(i) => i,
        Err(e) => {
            failures.push(e);
            return Ok((failures, None));
        }
    };
    if manifest.refutation {
        failures.extend(verify_refutation(dir, &instance, &manifest)?);
        return Ok((failures, Some((manifest, instance, None))));
    }
    let witness = text(SCHEDULE)
        .and_then(|t| parse_schedule(&t, SCHEDULE, &instance).map_err(|e| e.to_string()))
        .and_then(|s| {
            judge(&instance, s, producer).map_err(|(_, violations)| {
                format!("{SCHEDULE}: rejected by the checker: {}", violations.len())
                    + " violation(s), the first: "
                    + &violations.first().map(ToString::to_string).unwrap_or_default()
            })
        });
    let witness = match witness {
        Ok(checked) if checked.length() != manifest.length => {
            failures.push(format!(
                "{SCHEDULE}: checked length {}, the manifest says {}",
                checked.length(),
                manifest.length
            ));
            None
        }
        Ok(checked) => Some(checked),
        Err(e) => {
            failures.push(e);
            None
        }
    };
    match manifest.kind.as_str() {
        "lower-bound" => {
            let all = bounds::lower_bounds(&instance);
            match (bounds::strongest(&all), &manifest.lower_bound) {
                (Some(b), Some(claimed)) if b.value == manifest.length && b.value == claimed.value => {}
                (strongest, _) => failures.push(format!(
                    "lower bound: the strongest bound of the instance is {}, the witness has length {}",
                    strongest.map_or("none".to_string(), |b| format!("{} = {}", b.name, b.value)),
                    manifest.length
                )),
            }
        }
        "proof-checked" => failures.extend(verify_proof(dir, &instance, &manifest)?),
        // A feasible answer: the witness, checked above, is the whole claim.
        "witness" => {}
        "solver-word" => failures.push(format!(
            "certificate: infeasibility at T-1 rests on the {} solver's word, which cannot be re-checked",
            manifest.backend.as_deref().unwrap_or("backend")
        )),
        other => failures.push(format!("{MANIFEST}: unknown certificate kind `{other}`")),
    }
    Ok((failures, witness.map(|checked| (manifest, instance, Some(checked)))))
}

/// A folder that [`verify`] accepts, read as a certificate of `instance`: its witness (checked
/// once, as a schedule produced by the folder) and its certificate decided afresh by
/// [`certify`] from `bounds` and the folder's evidence. The folder must hold the same instance:
/// both written out in the canonical TOML form must be identical. Errors: one line per
/// failure, as [`verify`] gives them, or the instance's mismatch.
pub fn attest(
    dir: &Path,
    instance: &Instance,
    bounds: &[Bound],
) -> std::result::Result<(Checked, Certificate), Vec<String>> {
    let (manifest, checked) = match valid(dir, instance)? {
        (manifest, Some(checked)) => (manifest, checked),
        (_, None) => return Err(vec![format!("{MANIFEST}: a refutation, no witness")]),
    };
    let infeasible = match (manifest.kind.as_str(), manifest.infeasible_horizon, manifest.backend) {
        ("proof-checked", Some(horizon), Some(backend)) => Some(Infeasibility {
            horizon,
            backend: crate::names::intern(backend),
            evidence: Evidence::ProofChecked,
            relaxation: manifest.relaxation,
        }),
        _ => None,
    };
    match certify(bounds, &checked, infeasible.as_ref()) {
        Some(certificate) => Ok((checked, certificate)),
        None => Err(vec![format!(
            "{MANIFEST}: certifies nothing about length {} (certificate `{}`)",
            checked.length(),
            manifest.certificate
        )]),
    }
}

/// A refutation folder that [`verify`] accepts, read as the refutation of `instance` at
/// `horizon`: no schedule of length ≤ `horizon` exists, by the bound whose argument the folder
/// gives (recomputed by [`verify`]) or by its checked proof. The folder must hold the same
/// instance, as for [`attest`]. Errors: one line per failure, or what the folder is instead.
pub fn refutation(
    dir: &Path,
    instance: &Instance,
    horizon: u64,
) -> std::result::Result<Refutation, Vec<String>> {
    let manifest = match valid(dir, instance)? {
        (_, Some(_)) => return Err(vec![format!("{MANIFEST}: a witness, not a refutation")]),
        (manifest, None) => manifest,
    };
    if manifest.infeasible_horizon != Some(horizon) {
        return Err(vec![format!(
            "{MANIFEST}: refutes horizon {}, not {horizon}",
            manifest.infeasible_horizon.map_or("none".into(), |h| h.to_string())
        )]);
    }
    // `verify` accepts a refutation by a checked proof or by a bound it recomputed, no other.
    Ok(match manifest.kind.as_str() {
        "proof-checked" => Refutation::Solver(Infeasibility {
            horizon,
            backend: crate::names::intern(manifest.backend.unwrap_or_default()),
            evidence: Evidence::ProofChecked,
            relaxation: manifest.relaxation,
        }),
        _ => Refutation::Bound(manifest.lower_bound.map_or(manifest.certificate, |b| b.argument)),
    })
}

/// The manifest and the checked witness (none in a refutation folder) of a folder that
/// [`verify`] accepts and that holds `instance`: both written out in the canonical TOML form
/// must be identical, so that what the folder proves of its own instance holds of `instance`.
fn valid(dir: &Path, instance: &Instance) -> std::result::Result<(Manifest, Option<Checked>), Vec<String>> {
    let (failures, contents) =
        inspect(dir, Producer::Certificate(dir.display().to_string())).map_err(|e| vec![e.to_string()])?;
    let (manifest, own, checked) = match contents {
        Some(contents) if failures.is_empty() => contents,
        _ => return Err(failures),
    };
    if InstanceFile::of(&own) != InstanceFile::of(instance) {
        return Err(vec![format!("{INSTANCE}: not the instance `{}` it is attached to", instance.name)]);
    }
    Ok((manifest, checked))
}

/// The certificate of a refutation folder: a lower bound of the instance (or the encoder's
/// argument that no horizon admits a schedule) above the horizon, or a checked proof at it.
/// The `Err` is [`verify_proof`]'s.
fn verify_refutation(dir: &Path, instance: &Instance, manifest: &Manifest) -> Result<Vec<String>> {
    let Some(horizon) = manifest.infeasible_horizon.filter(|h| h + 1 == manifest.length) else {
        return Ok(vec![format!("{MANIFEST}: a refutation's length is its infeasible horizon + 1")]);
    };
    match manifest.kind.as_str() {
        "lower-bound" => {
            let impossible = encode::encoder_for(instance).ok().and_then(|(_, e)| e.impossible());
            let strongest = bounds::strongest(&bounds::lower_bounds(instance)).map(|b| b.value);
            if impossible.is_none() && strongest.is_none_or(|b| b <= horizon) {
                return Ok(vec![format!(
                    "lower bound: the instance's strongest bound is {}, not above the horizon {horizon}",
                    strongest.map_or("none".into(), |b| b.to_string())
                )]);
            }
            Ok(Vec::new())
        }
        "proof-checked" => verify_proof(dir, instance, manifest),
        "solver-word" => Ok(vec![format!(
            "certificate: the infeasibility rests on the {} solver's word, which cannot be re-checked",
            manifest.backend.as_deref().unwrap_or("backend")
        )]),
        other => Ok(vec![format!("{MANIFEST}: unknown certificate kind `{other}`")]),
    }
}

/// The proof file the manifest lists: [`PROOF_LRAT`], plain or compressed (one of the names
/// [`Compression::extension`] gives), and only one of them.
fn listed_proof(manifest: &Manifest) -> std::result::Result<&str, String> {
    let is_proof =
        |name: &&str| Compression::ALL.iter().any(|c| *name == format!("{PROOF_LRAT}{}", c.extension()));
    let listed: Vec<&str> = manifest.files.iter().map(|f| f.name.as_str()).filter(is_proof).collect();
    match listed[..] {
        [name] => Ok(name),
        [] => Err(format!("{MANIFEST}: does not list {PROOF_LRAT} (plain, .xz or .zst)")),
        _ => Err(format!("{MANIFEST}: lists more than one proof: {}", listed.join(", "))),
    }
}

/// The proof part of [`verify`]: the horizon is T − 1, the CNF is the encoding of the instance
/// at T − 1, and the LRAT proof, plain or compressed, refutes it. A compressed proof that does
/// not decode is the `Err`, as bad input.
fn verify_proof(dir: &Path, instance: &Instance, manifest: &Manifest) -> Result<Vec<String>> {
    let mut failures = Vec::new();
    let Some(t) = manifest.infeasible_horizon.filter(|t| t + 1 == manifest.length) else {
        return Ok(vec![format!(
            "{MANIFEST}: the infeasible horizon is not T - 1 = {}",
            manifest.length.saturating_sub(1)
        )]);
    };
    let cnf_path = dir.join(PROOF_CNF);
    let text = std::fs::read_to_string(&cnf_path).map_err(|e| e.to_string());
    let on_disk = text
        .as_deref()
        .map_err(Clone::clone)
        .and_then(|text| lrat::Cnf::parse(text).map_err(|e| e.to_string()));
    // A descent's CNF names the horizon of its model; the comparison below is what checks it.
    let descent = text.as_deref().ok().and_then(|text| {
        text.lines()
            .find_map(|l| l.strip_prefix("c ")?.strip_prefix(DESCENT_MARKER)?.trim().parse::<u64>().ok())
    });
    match (&on_disk, expected_cnf(instance, manifest.relaxation.as_deref(), t, descent)) {
        (Ok(cnf), Ok(expected)) => {
            if let Err(why) = expected.matches(cnf) {
                failures.push(format!("{PROOF_CNF}: {why}"));
            }
        }
        (Err(e), _) => failures.push(format!("{PROOF_CNF}: {e}")),
        (_, Err(e)) => failures.push(format!("{PROOF_CNF}: cannot re-encode the instance: {e}")),
    }
    // The proof against the CNF read above, which is not read a second time.
    let proof = match (&on_disk, listed_proof(manifest)) {
        (_, Err(e)) => Err(e),
        (Err(e), _) => Err(format!("{}: {e}", cnf_path.display())),
        (Ok(cnf), Ok(name)) => match lrat::check_proof_file(cnf, &dir.join(name)) {
            Ok(_) => Ok(()),
            Err(lrat::FileError::Undecodable { file, reason }) => {
                return Err(InputError::new(file, "", reason).into());
            }
            Err(lrat::FileError::Rejected(e)) => Err(e),
        },
    };
    if let Err(e) = proof {
        failures.push(format!("proof: {e}"));
    }
    Ok(failures)
}

/// What the CNF of a proof-checked certificate must be: the encoding of the instance at T − 1,
/// or, for a SAT descent over horizons, the encoding at its horizon H ≥ T − 1 with the makespan
/// clauses, followed by unit clauses ¬g_m that all leave length ≤ T − 1 possible (m ≥ T) and
/// together exclude everything longer (some m = T, or H = T − 1).
struct ExpectedCnf {
    cnf: lrat::Cnf,
    /// For a descent: (H, g_1..=g_H).
    makespan: Option<(u64, Vec<i32>)>,
    /// T − 1.
    t: u64,
}

fn expected_cnf(
    instance: &Instance,
    relaxation: Option<&str>,
    t: u64,
    descent: Option<u64>,
) -> std::result::Result<ExpectedCnf, String> {
    // The relaxation the manifest names: another instance, or one of the encoder's relaxed models.
    let (_, own) = encode::encoder_for(instance).map_err(|e| e.to_string())?;
    let (mut relaxed, mut relaxed_model) = (None, None);
    let variants = own.variants();
    if let Some(name) = relaxation {
        let which = variants.relaxed_named(name);
        match (own.relaxation(), which) {
            (Some(r), _) if r.name == name => relaxed = Some(r.instance.clone()),
            (_, Some(which)) => match descent {
                None => relaxed_model = Some(which),
                Some(_) => return Err(format!("`{name}` is never searched by a descent over horizons")),
            },
            (r, None) => {
                let known: Vec<&str> =
                    r.map(|r| r.name).into_iter().chain(variants.relaxed.iter().copied()).collect();
                return Err(format!(
                    "the manifest names the relaxation `{name}`, the instance has {}",
                    if known.is_empty() { "none".to_string() } else { format!("`{}`", known.join("`, `")) }
                ));
            }
        }
    }
    let other;
    let encoder = match &relaxed {
        Some(r) => {
            other = encode::encoder_for(r).map_err(|e| e.to_string())?.1;
            &other
        }
        None => &own,
    };
    let encoding = match relaxed_model {
        Some(which) => encoder.model(t, which),
        None => encoder.model(descent.unwrap_or(t), Variant::Full),
    }
    .map_err(|e| e.to_string())?;
    let mut enc = CnfModel::encode(&encoding.model).map_err(|e| e.to_string())?;
    let makespan = match descent {
        None => None,
        Some(h) if h < t => return Err(format!("the descent's horizon {h} is below T-1 = {t}")),
        Some(h) => {
            let ends = encoding.ends(encoder.as_ref()).ok_or("the encoder is not horizon-monotone")?;
            let (g, _) = enc.makespan(&ends, h).map_err(|e| e.to_string())?;
            Some((h, g))
        }
    };
    Ok(ExpectedCnf { cnf: enc.cnf, makespan, t })
}

impl ExpectedCnf {
    fn matches(&self, cnf: &lrat::Cnf) -> std::result::Result<(), String> {
        let t = self.t;
        let differ = || {
            format!(
                "not the encoding of the instance at {} ({} variables, {} clauses; the encoding has {} and {})",
                match &self.makespan {
                    Some((h, _)) => format!("horizon {h} with makespan literals"),
                    None => format!("T-1 = {t}"),
                },
                cnf.vars,
                cnf.clauses.len(),
                self.cnf.vars,
                self.cnf.clauses.len()
            )
        };
        let Some((h, g)) = &self.makespan else {
            return if *cnf == self.cnf { Ok(()) } else { Err(differ()) };
        };
        let n = self.cnf.clauses.len();
        if cnf.vars != self.cnf.vars || cnf.clauses.len() < n || cnf.clauses[..n] != self.cnf.clauses[..] {
            return Err(differ());
        }
        let mut closes = *h == t;
        for unit in &cnf.clauses[n..] {
            // ¬g_m: no event ends in step m or later.
            let m = match unit[..] {
                [lit] => g.iter().position(|&l| -l == lit).map(|i| i as u64 + 1),
                _ => None,
            };
            match m {
                Some(m) if m > t => closes |= m == t + 1,
                _ => {
                    return Err(format!(
                        "clause {unit:?} after the model is not a unit ¬g_m with m ≥ T = {}",
                        t + 1
                    ));
                }
            }
        }
        if closes { Ok(()) } else { Err(format!("no unit clause excludes length T = {}", t + 1)) }
    }
}

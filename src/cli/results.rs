//! Long report runs: the resumable result cache of `report --cache DIR`, and `merge`, which
//! joins the JSON reports of shards (`report --shard I/N`) into one report.
//!
//! **Cache.** Each assessed instance is one file `DIR/STEM-KEY.json` holding its report entry
//! and its best checked schedule. KEY is a SHA-256 of what the result depends on: the tool's
//! version, commit and executable, the exact backend choice, the time and size limits, and the
//! bytes of the instance file, of its paper schedule and of its certificate folder's files. A
//! file is written to a temporary name and renamed, so an interrupted run leaves whole entries
//! or none; the next run reads them and assesses only the rest. A cached schedule is checked
//! again when it is read back, like any producer's: a file that does not parse, or whose
//! schedule the checker rejects, is reported on stderr and the instance is assessed afresh.

use super::io_err;
use commsched::checker::{self, Producer};
use commsched::compare::assess::AssessOptions;
use commsched::compare::report::{Entry, Report, RunInfo};
use commsched::error::{Error, InputError, Result};
use commsched::proof::sha256::{Hasher, file_digest};
use commsched::spec::io::{
    certificate_folder, load_instance, paper_schedule_file, parse_schedule, schedule_to_json,
};
use commsched::spec::limits::Resource;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// One cached result.
#[derive(Serialize, Deserialize)]
struct Cached {
    /// The key it was stored under (checked on reading).
    key: String,
    /// The report entry.
    entry: Entry,
    /// The best checked schedule: its producer and its JSON file form.
    best: Option<(Producer, String)>,
}

/// Where one instance's result lives in the cache: its key and its file.
pub struct Slot {
    key: String,
    path: PathBuf,
}

/// The result cache of one report run.
pub struct Cache {
    dir: PathBuf,
    /// What every key shares: version, commit, backend choice and limits.
    run: String,
}

impl Cache {
    /// The cache in `dir` (created if missing) for results of `run` under `options`.
    pub fn open(dir: &Path, run: &RunInfo, options: &AssessOptions) -> Result<Self> {
        std::fs::create_dir_all(dir).map_err(io_err(&dir.display().to_string()))?;
        let limits: Vec<u64> =
            [Resource::Nodes, Resource::Arcs, Resource::Items, Resource::Events, Resource::CompactEvents]
                .map(|r| r.limit())
                .into();
        // The program itself, so that a rebuild from an uncommitted change misses too.
        let program =
            std::env::current_exe().and_then(|exe| file_digest(&exe)).map(|(d, _)| d).unwrap_or_default();
        let run = format!(
            "commsched result cache 1\n{}\n{}\n{program}\n{:?}\n{:?}\n{}\n{limits:?}\n",
            run.version,
            run.commit,
            options.exact.map(|c| c.name()),
            options.solve.timeout,
            options.solve.max_variables
        );
        Ok(Self { dir: dir.to_path_buf(), run })
    }

    /// The key and file of `file`'s result, read once per instance for both [`Cache::load`] and
    /// [`Cache::store`]. The key covers the instance file, its paper schedule and every file of
    /// its certificate folder, if it has them.
    pub fn slot(&self, file: &Path) -> Slot {
        let mut material = Hasher::default();
        material.update(self.run.as_bytes());
        let mut attached: Vec<PathBuf> = paper_schedule_file(file).into_iter().collect();
        if let Some(dir) = certificate_folder(file) {
            let mut inside: Vec<PathBuf> =
                std::fs::read_dir(&dir).into_iter().flatten().flatten().map(|e| e.path()).collect();
            inside.sort();
            attached.extend(inside);
        }
        for f in std::iter::once(file).chain(attached.iter().map(PathBuf::as_path)) {
            material.update(f.display().to_string().as_bytes());
            material.update(&[0]);
            // A file that cannot be read (or a folder) adds nothing, as an empty one would.
            material.update_file(f).unwrap_or_default();
            material.update(&[0]);
        }
        let key = material.hex();
        let stem = file.file_stem().map_or_else(|| "instance".into(), |s| s.to_string_lossy().into_owned());
        let path = self.dir.join(format!("{stem}-{}.json", &key[..16]));
        Slot { key, path }
    }

    /// The cached entry of `file`, its best schedule checked again; `None` when there is none
    /// or it cannot be trusted (said on stderr).
    pub fn load(&self, file: &Path, slot: &Slot) -> Option<Entry> {
        let Slot { key, path } = slot;
        let text = std::fs::read_to_string(path).ok()?;
        let restored = (|| -> std::result::Result<Entry, String> {
            let cached: Cached = serde_json::from_str(&text).map_err(|e| format!("does not parse: {e}"))?;
            if &cached.key != key {
                return Err("was stored under another key".into());
            }
            let mut entry = cached.entry;
            if let (Some(a), Some((producer, schedule))) = (entry.assessment.as_mut(), cached.best) {
                let inst = load_instance(file).map_err(|e| e.to_string())?;
                let schedule = parse_schedule(&schedule, &path.display().to_string(), &inst)
                    .map_err(|e| e.to_string())?;
                let checked = checker::judge(&inst, schedule, producer).map_err(|(_, v)| {
                    format!(
                        "holds a schedule the checker rejects ({})",
                        v.first().map_or(String::new(), |v| v.to_string())
                    )
                })?;
                a.best = Some(checked);
            }
            Ok(entry)
        })();
        match restored {
            Ok(entry) => Some(entry),
            Err(why) => {
                eprintln!(
                    "commsched: note: cache file {} {why}; assessing {} again",
                    path.display(),
                    file.display()
                );
                None
            }
        }
    }

    /// Stores `entry` for `file`, atomically (a temporary file renamed into place).
    pub fn store(&self, file: &Path, slot: &Slot, entry: &Entry) -> Result<()> {
        let Slot { key, path } = slot;
        let best = entry.assessment.as_ref().and_then(|a| a.best.as_ref()).and_then(|best| {
            let inst = load_instance(file).ok()?;
            Some((best.producer().clone(), schedule_to_json(&inst, best.schedule()).ok()?))
        });
        let cached = Cached { key: key.clone(), entry: entry.clone(), best };
        let text = serde_json::to_string(&cached).expect("a report entry serialises");
        let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        let temporary =
            self.dir.join(format!(".{name}.{}.{:?}.tmp", std::process::id(), std::thread::current().id()));
        let shown = temporary.display().to_string();
        std::fs::write(&temporary, text).map_err(io_err(&shown))?;
        std::fs::rename(&temporary, path).map_err(io_err(&shown))
    }
}

/// `merge FILE...`: the JSON reports of shards (`report --shard I/N --format json`, or the
/// `report.json` of `report --out`) as one report. Each instance may appear in one file only,
/// and every file must come from the same version, commit, backend and timeout. Entries are
/// ordered by file path, as `report` orders them.
pub fn merge(files: &[PathBuf]) -> Result<Report> {
    let mut run: Option<(RunInfo, String)> = None;
    let mut entries: Vec<Entry> = Vec::new();
    let mut scale = Vec::new();
    // Which part holds each instance file (and each machine list).
    let mut holder: std::collections::HashMap<String, String> = std::collections::HashMap::new();
    for f in files {
        let name = f.display().to_string();
        let text = std::fs::read_to_string(f).map_err(io_err(&name))?;
        let part: Report = serde_json::from_str(&text)
            .map_err(|e| InputError::new(&name, "", format!("not a report: {e}")))?;
        match &run {
            None => run = Some((part.run.clone(), name.clone())),
            Some((first, from)) => {
                let same =
                    |a: &RunInfo| (a.version.clone(), a.commit.clone(), a.backend.clone(), a.timeout_seconds);
                if same(first) != same(&part.run) {
                    return Err(InputError::new(
                        &name,
                        "run",
                        format!(
                            "comes from another run than {from} (version, commit, backend and timeout must agree): {:?} against {:?}",
                            same(&part.run),
                            same(first)
                        ),
                    )
                    .into());
                }
            }
        }
        for e in part.instances {
            if let Some(other) = holder.insert(e.file.clone(), name.clone()) {
                return Err(
                    InputError::new(&name, "instances", format!("{} is also in {other}", e.file)).into()
                );
            }
            entries.push(e);
        }
        for t in part.scale {
            if let Some(other) = holder.insert(t.file.clone(), name.clone()) {
                return Err(InputError::new(&name, "scale", format!("{} is also in {other}", t.file)).into());
            }
            scale.push(t);
        }
    }
    let Some((run, _)) = run else {
        return Err(Error::Input(InputError::new("<flags>", "FILE", "merge needs at least one report")));
    };
    entries.sort_by(|a, b| a.file.cmp(&b.file));
    scale.sort_by(|a: &commsched::compare::scale::ScaleTable, b| a.file.cmp(&b.file));
    Ok(Report::new(run, entries).with_scale(scale))
}

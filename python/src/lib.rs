//! `commsched._native`: the library's commands for Python. The Python package (`commsched/`)
//! builds the calls; this module runs them on the same code the `commsched` binary runs
//! ([`commsched::cli::run`]), off the interpreter's lock, and turns every error, and any panic,
//! into an exception of the `commsched.errors` hierarchy.

use clap::{CommandFactory, Parser};
use commsched::cli::{self, args::Cli};
use commsched::error::Error;
use commsched::spec::Model;
use commsched::spec::fabric::{self, node_link};
use commsched::spec::io::{instance_to_toml, parse_instance, parse_schedule};
use commsched::{checker, folder, msccl};
use pyo3::prelude::*;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::Path;
use std::sync::mpsc::{RecvTimeoutError, channel};
use std::time::Duration;

/// How often a waiting call looks for a signal (Ctrl-C) while the work runs.
const SIGNAL_POLL: Duration = Duration::from_millis(50);

/// What failed, as the Python class that reports it (in `commsched.errors`) and its message.
struct Failure {
    class: &'static str,
    message: String,
}

impl From<Error> for Failure {
    fn from(e: Error) -> Self {
        let class = match &e {
            Error::Input(_) => "InputError",
            Error::Backend { .. } => "BackendError",
            Error::Rejected { .. } => "RejectedError",
            Error::NotApplicable { .. } => "NotApplicableError",
            Error::Io { .. } => "FileError",
        };
        Failure { class, message: e.to_string() }
    }
}

impl Failure {
    fn into_pyerr(self, py: Python<'_>) -> PyErr {
        let raised = py
            .import("commsched.errors")
            .and_then(|errors| errors.getattr(self.class))
            .and_then(|class| class.call1((self.message.clone(),)));
        match raised {
            Ok(exception) => PyErr::from_value(exception),
            // The package is broken if its errors module is missing: say so with the message.
            Err(e) => e,
        }
    }
}

/// The text of a panic's payload.
fn panic_text(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a panic without a message".into())
}

/// Runs `work` on a thread of its own while this thread, off the interpreter's lock, waits for
/// it and looks for signals: Ctrl-C raises `KeyboardInterrupt` at once, the temporary SAT proofs
/// are removed, and the abandoned work runs on until its own `timeout` ends it (the library has
/// no other way to stop a search). A panic is a `commsched.errors.InternalError`.
fn run_blocking<T: Send + 'static>(
    py: Python<'_>,
    work: impl FnOnce() -> Result<T, Failure> + Send + 'static,
) -> PyResult<T> {
    let (send, receive) = channel();
    std::thread::Builder::new()
        .name("commsched".into())
        .spawn(move || {
            let outcome = catch_unwind(AssertUnwindSafe(work)).unwrap_or_else(|payload| {
                Err(Failure {
                    class: "InternalError",
                    message: format!("commsched panicked (a bug): {}", panic_text(payload.as_ref())),
                })
            });
            // The receiver is gone when the call was interrupted; the answer is not needed.
            let _ = send.send(outcome);
        })
        .map_err(|e| Failure { class: "InternalError", message: format!("cannot start a thread: {e}") })
        .map_err(|f| f.into_pyerr(py))?;
    let mut receive = receive;
    loop {
        // The receiver goes into the closure and comes back: it is `Send`, not `Sync`.
        let (received, back) = py.detach(move || (receive.recv_timeout(SIGNAL_POLL), receive));
        receive = back;
        match received {
            Ok(outcome) => return outcome.map_err(|f| f.into_pyerr(py)),
            Err(RecvTimeoutError::Timeout) => {
                if let Err(interrupt) = py.check_signals() {
                    commsched::exact::remove_temporary_proofs();
                    return Err(interrupt);
                }
            }
            Err(RecvTimeoutError::Disconnected) => {
                return Err(Failure {
                    class: "InternalError",
                    message: "the worker thread ended without an answer".into(),
                }
                .into_pyerr(py));
            }
        }
    }
}

/// Runs one command of the CLI (`argv` without the program name) and returns its exit code
/// and what it printed. Bad flags are an `InputError` carrying clap's message; an error of the
/// command is the exception of its kind with the message the CLI prints after
/// `commsched: error: `.
#[pyfunction]
fn run(py: Python<'_>, argv: Vec<String>) -> PyResult<(u8, String)> {
    let cli = Cli::try_parse_from(std::iter::once("commsched".to_string()).chain(argv)).map_err(|e| {
        Failure { class: "InputError", message: e.render().to_string().trim_end().to_string() }.into_pyerr(py)
    })?;
    run_blocking(py, move || {
        let mut out = Vec::new();
        let code = cli::run(cli, &mut out)?;
        Ok((code, String::from_utf8_lossy(&out).into_owned()))
    })
}

/// The certificate folders under `dir` (itself, or the subfolders of a `pareto` folder), each
/// with what failed to re-check (empty: a valid certificate), as `commsched verify` reads them;
/// a compressed proof that does not decode is an `InputError`, as `verify` exits 2.
#[pyfunction]
fn verify(py: Python<'_>, dir: std::path::PathBuf) -> PyResult<Vec<(String, Vec<String>)>> {
    run_blocking(py, move || {
        folder::certificate_folders(&dir)
            .into_iter()
            .map(|f| -> Result<_, Failure> { Ok((f.display().to_string(), folder::verify(&f)?)) })
            .collect()
    })
}

/// The fabric a network value names (a machine, a network of the collective model, a topology
/// or node-link JSON file) as directed node-link JSON.
#[pyfunction]
fn node_link_json(py: Python<'_>, spec: String) -> PyResult<String> {
    run_blocking(py, move || Ok(node_link::to_node_link(&fabric::load(&spec, None).map_err(Error::from)?)))
}

/// A schedule (JSON, docs/spec.md §5.2) of an instance (TOML), checked, as MSCCL XML.
#[pyfunction]
#[pyo3(signature = (instance_toml, schedule_json, proto = "Simple".to_string(), max_thread_blocks = None))]
fn to_xml(
    py: Python<'_>,
    instance_toml: String,
    schedule_json: String,
    proto: String,
    max_thread_blocks: Option<usize>,
) -> PyResult<String> {
    run_blocking(py, move || {
        let proto = msccl::Proto::parse(&proto).ok_or_else(|| Failure {
            class: "InputError",
            message: format!("proto: `{proto}` is not a protocol: Simple, LL or LL128"),
        })?;
        let inst = parse_instance(&instance_toml, "<instance>", "instance").map_err(Error::from)?;
        let schedule = parse_schedule(&schedule_json, "<schedule>", &inst).map_err(Error::from)?;
        let checked = checker::accept(&inst, schedule, checker::Producer::User("<schedule>".into()))?;
        let options = msccl::XmlOptions { proto, max_thread_blocks, bytes: None, channels: None };
        Ok(msccl::to_xml(&inst, checked.schedule(), options)?)
    })
}

/// An instance (TOML) of the collective model with the round budget R that `solve --steps S
/// --rounds R` decides it under: the instance a witness of that decision is a schedule of.
#[pyfunction]
fn with_round_budget(py: Python<'_>, instance_toml: String, rounds: u64) -> PyResult<String> {
    run_blocking(py, move || {
        let mut inst = parse_instance(&instance_toml, "<instance>", "instance").map_err(Error::from)?;
        if !matches!(inst.model, Model::Collective { .. }) || rounds == 0 {
            return Err(Failure {
                class: "InputError",
                message: "rounds: a round budget R ≥ 1 belongs to the collective model".into(),
            });
        }
        inst.model = Model::Collective { rounds: Some(rounds) };
        Ok(instance_to_toml(&inst))
    })
}

/// The version of the commsched library the module was built with.
#[pyfunction]
fn version() -> String {
    Cli::command().get_version().unwrap_or_default().to_string()
}

/// Whether `path` names an MSCCL XML file by its extension, as the CLI tells schedules apart.
#[pyfunction]
fn is_xml(path: std::path::PathBuf) -> bool {
    commsched::spec::io::is_xml(Path::new(&path))
}

/// The extension module.
#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(run, m)?)?;
    m.add_function(wrap_pyfunction!(verify, m)?)?;
    m.add_function(wrap_pyfunction!(node_link_json, m)?)?;
    m.add_function(wrap_pyfunction!(to_xml, m)?)?;
    m.add_function(wrap_pyfunction!(with_round_budget, m)?)?;
    m.add_function(wrap_pyfunction!(version, m)?)?;
    m.add_function(wrap_pyfunction!(is_xml, m)?)?;
    Ok(())
}

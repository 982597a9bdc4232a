//! The last horizons in one incremental solver (module [`crate::exact`], "Incremental across
//! horizons"), for a backend that has one ([`crate::exact::backend::Incremental`]).

use super::{Progress, Search};
use crate::checker::{Checked, Producer, accept};
use crate::error::{Error, Result};
use crate::exact::StopReason;
use crate::exact::backend::{Descent, Limits, ProofTrace, Unknown};
use crate::exact::encode::{self, Variant};
use crate::spec::Schedule;
use std::time::Instant;

/// How a descent ended, for the bisection.
pub(super) enum Descended {
    /// Nothing was decided: the backend has no incremental solver, the encoder is not
    /// horizon-monotone, or the model is over the size guard. The probes take over, and at the
    /// guard the restricted witnesses and the relaxed models get their turn.
    Declined,
    /// L met the best schedule: its optimum is settled.
    Settled,
    /// It stopped early, and why.
    Stopped(StopReason),
}

/// What the descent's thread reports.
enum Report {
    /// A schedule and the makespan of the assignment it decodes.
    Witness(Schedule, u64),
    /// The end.
    End(Result<Descent>),
    /// The encoder is not horizon-monotone.
    NotMonotone,
}

impl Search<'_> {
    /// The descent from `horizon`, on an abandonable thread like a probe: every model it finds
    /// is decoded there and checked here. Updates the best schedule, and L with the
    /// infeasibility on record when the solver ends unsatisfiable.
    pub(super) fn descend(&self, horizon: u64, progress: &mut Progress) -> Result<Descended> {
        let Some(incremental) = self.solver.as_incremental() else { return Ok(Descended::Declined) };
        if !self.fits(horizon, Variant::Full) {
            return Ok(Descended::Declined);
        }
        let time = match self.time_left() {
            Ok(t) => t,
            Err(stop) => return Ok(Descended::Stopped(stop)),
        };
        let (instance, floor) = (self.instance.clone(), progress.lo);
        // The session's proof, renamed to the trace of T − 1 if it ends infeasible.
        let session = self.trace(horizon).map(|t| ProofTrace {
            cnf: t.cnf.with_extension("descent.cnf"),
            proof: t.proof.with_extension("descent.lrat"),
            ..t
        });
        let trace = session.clone();
        let (send, receive) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let report = match encode::encoder_for(&instance).and_then(|(_, encoder)| {
                let encoding = encoder.model(horizon, Variant::Full)?;
                Ok((encoding.ends(encoder.as_ref()), encoding))
            }) {
                Err(e) => Report::End(Err(e)),
                Ok((None, _)) => Report::NotMonotone,
                Ok((Some(ends), encoding)) => {
                    let limits = Limits { time, ..Limits::default() };
                    Report::End(incremental.descend(
                        &encoding.model,
                        &ends,
                        floor..=horizon,
                        &limits,
                        trace.as_ref(),
                        &mut |values, makespan| {
                            // A closed channel means the search was abandoned.
                            let _ = send.send(Report::Witness(encoding.decode(&values), makespan));
                        },
                    ))
                }
            };
            let _ = send.send(report);
        });
        loop {
            let report = match self.deadline {
                None => receive.recv().ok(),
                Some(d) => receive.recv_timeout(d.saturating_duration_since(Instant::now())).ok(),
            };
            let fault = |reason: String| Error::Backend { backend: self.backend.name(), reason };
            match report {
                None => return Ok(Descended::Stopped(StopReason::Timeout)),
                Some(Report::NotMonotone) => return Ok(Descended::Declined),
                Some(Report::Witness(schedule, makespan)) => {
                    let checked = accept(self.instance, schedule, Producer::Exact(self.backend.name()))?;
                    if checked.length() > makespan || checked.length() < progress.lo {
                        return Err(fault(format!(
                            "its witness has length {} at makespan {makespan}, with the bound at {}",
                            checked.length(),
                            progress.lo
                        )));
                    }
                    if progress.upper().is_none_or(|u| checked.length() < u) {
                        progress.best = Some(checked);
                    }
                }
                Some(Report::End(answer)) => {
                    return Ok(match answer? {
                        Descent::Floor => Descended::Settled,
                        Descent::Infeasible { below } => {
                            let length = progress.best.as_ref().map_or(0, Checked::length);
                            if length != below {
                                return Err(fault(format!(
                                    "it found no schedule of length < {below}, but one of length {length}"
                                )));
                            }
                            if let (Some(from), Some(to)) = (&session, self.trace(below - 1)) {
                                std::fs::rename(&from.cnf, &to.cnf)
                                    .and_then(|()| std::fs::rename(&from.proof, &to.proof))
                                    .map_err(|source| Error::Io {
                                        path: to.cnf.display().to_string(),
                                        source,
                                    })?;
                                self.descended.set(Some(below - 1));
                            }
                            self.refuted(progress, below - 1, None);
                            Descended::Settled
                        }
                        Descent::Unknown(Unknown::Timeout) => Descended::Stopped(StopReason::Timeout),
                        Descent::Unknown(Unknown::Other(reason)) => {
                            Descended::Stopped(StopReason::BackendUnknown { reason })
                        }
                    });
                }
            }
        }
    }
}

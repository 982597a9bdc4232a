//! # LS transformation (paper 000 §3.4A, Theorem 3.1)
//!
//! Two pseudo-schedules on an FL-network are LS-related when τ(m,e) = σ(m,e) + level(e) (3.6).
//! With (2.4) and (3.2) this is one relation between starts: s(M) = v(M) + level(e_0(M)).
//! Theorem 3.1(a) (CHAT-6): τ is an admissible chatting schedule iff σ is an admissible virtual
//! schedule. Theorem 3.1(b) (CHAT-7): |T(τ) − S(σ)| ≤ H − 1 on an (H+1)-level network.
//!
//! Both directions shift the result so that its first event is in step 1 (SPEC §1); a shift
//! changes neither admissibility nor duration.

use super::{leveled, normalised, starts, values};
use crate::error::Result;
use crate::spec::{Instance, Start};

/// Virtual → chatting: s(M) = v(M) + level(e_0(M)), normalised to start in step 1.
/// [`crate::Error::NotApplicable`] when the network is not forward-leveled.
pub fn ls(inst: &Instance, sigma: &[Start]) -> Result<Vec<Start>> {
    shift_by_level(inst, sigma, 1)
}

/// Chatting → virtual: v(M) = s(M) − level(e_0(M)), normalised to start in step 1.
pub fn ls_inverse(inst: &Instance, tau: &[Start]) -> Result<Vec<Start>> {
    shift_by_level(inst, tau, -1)
}

fn shift_by_level(inst: &Instance, from: &[Start], sign: i64) -> Result<Vec<Start>> {
    let messages = leveled(inst, "the LS transformation")?;
    let v = values(&messages, from)?;
    let moved = messages.iter().zip(&v).map(|(m, &v)| v + sign * m.level).collect();
    Ok(starts(&messages, &normalised(moved)))
}

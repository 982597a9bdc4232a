//! # VO transformation (paper 000 §3.4B, Theorem 3.2)
//!
//! From a virtual schedule σ, normalised to 1..S with S = S(σ), on an FL-network: with
//! λ(e) = level(e) − (level(e) mod S), every flit m of message M (first flit m_0, first arc
//! e_0) crosses arc e at (3.8)
//!
//! * τ(m,e) = σ(m,e) + level(e) − λ(e_0) when σ(m_0,e_0) ≤ S − (level(e_0) mod S),
//! * τ(m,e) = σ(m,e) + level(e) − λ(e_0) − S otherwise.
//!
//! In starts: s(M) = v(M) + (level(e_0) mod S), minus S when that exceeds S, so 1 ≤ s ≤ S.
//! Theorem 3.2: τ is admissible (CHAT-8) and T(τ) < S(σ) + Q(M) (CHAT-9); every event lies
//! in steps 1..S+Q−1. Geometrically (CHAT-10) it is LS with the origin moved to the message's
//! home region, s = v + level(e_0) − S·home(M) with home(M) = ⌈(level(e_0) + v)/S⌉ − 1
//! ([`home_region`]). The map never looks at conflicts, so it also applies to pseudo-schedules
//! whose overlaps are all across home regions (CHAT-11).
//!
//! The output is not shifted: its first event may be after step 1 (SPEC §1 length = last step).

use super::{Leveled, leveled, normalised, starts, values, virtual_duration};
use crate::error::Result;
use crate::spec::{Instance, Start};

/// The VO-derived chatting schedule of the virtual starts `sigma` (any admissible virtual
/// schedule, or a pseudo-schedule as in CHAT-11), which are first normalised to start at 1.
/// [`crate::Error::NotApplicable`] when the network is not forward-leveled.
pub fn vo(inst: &Instance, sigma: &[Start]) -> Result<Vec<Start>> {
    let messages = leveled(inst, "the VO transformation")?;
    let v = normalised(values(&messages, sigma)?);
    Ok(starts(&messages, &vo_values(&messages, &v)))
}

/// (3.8) on normalised virtual starts (in message order): the chatting starts.
pub(crate) fn vo_values(messages: &[Leveled], sigma: &[i64]) -> Vec<i64> {
    let s = virtual_duration(messages, sigma);
    messages
        .iter()
        .zip(sigma)
        .map(|(m, &v)| {
            let rem = m.level.rem_euclid(s);
            let lambda = m.level - rem;
            let base = v + m.level - lambda;
            if v <= s - rem { base } else { base - s }
        })
        .collect()
}

/// The home region (CHAT-10) of a message whose first arc has level `level` and whose
/// normalised virtual start is `v`, for virtual duration `s`: the base region
/// {S·i + 1 ≤ x + t ≤ S·(i+1)} holding its south-west corner, ⌈(level + v)/S⌉ − 1.
pub fn home_region(level: i64, v: i64, s: i64) -> i64 {
    (level + v + s - 1).div_euclid(s) - 1
}

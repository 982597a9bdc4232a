//! # OV transformation (paper 000 §3.4B, Theorem 3.3; Corollary 3.1)
//!
//! From a chatting schedule τ, normalised to 1..T with T = T(τ), on an FL-network, every flit
//! m of message M (first flit m_0, first arc e_0) gets (3.10)
//!
//! * σ(m,e) = τ(m,e_0) − (level(e_0) mod T) when τ(m_0,e_0) > level(e_0) mod T,
//! * σ(m,e) = τ(m,e_0) − (level(e_0) mod T) + T otherwise,
//!
//! independent of e. In starts: v(M) = s(M) − (level(e_0) mod T), plus T when that is ≤ 0, so
//! 1 ≤ v ≤ T. Theorem 3.3 (CHAT-12): σ is admissible and S(σ) < T(τ) + L(M). Its proof's
//! (3.12) misprints the level term; (3.13) is right (erratum CHAT-12). With Theorem 3.2
//! it gives Corollary 3.1 (CHAT-13): VO of an optimal virtual schedule is < 2·T_opt + L − 1.

use super::{chatting_duration, leveled, normalised, starts, values};
use crate::error::Result;
use crate::spec::{Instance, Start};

/// The OV-derived virtual schedule of the chatting starts `tau`, which are first normalised to
/// start at 1. [`crate::Error::NotApplicable`] when the network is not forward-leveled.
pub fn ov(inst: &Instance, tau: &[Start]) -> Result<Vec<Start>> {
    let messages = leveled(inst, "the OV transformation")?;
    let s = normalised(values(&messages, tau)?);
    let t = chatting_duration(&messages, &s);
    let v: Vec<i64> = messages
        .iter()
        .zip(&s)
        .map(|(m, &s)| {
            let rem = m.level.rem_euclid(t);
            if s > rem { s - rem } else { s - rem + t }
        })
        .collect();
    Ok(starts(&messages, &v))
}

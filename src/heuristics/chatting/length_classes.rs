//! # Stretching, shrinking and decomposition by message length (paper 000 §5.1, §5.2)
//!
//! * **Stretching** (Theorem 5.1(a), CHAT-19): for related uniform problems (same (src, dst)
//!   pairs, all lengths 1, resp. ℓ) a unit virtual schedule σ_1, normalised to 1..S, gives
//!   σ_ℓ(m'_h, e) = ℓ·(σ_1(m_0, e) − 1) + 1 + h, with S(σ_ℓ) = ℓ·S(σ_1). [`stretch`].
//! * **Shrinking** (Theorem 5.1(b), CHAT-20): σ_ℓ normalised to 1..S; the ℓ steps v..v+ℓ−1 of a
//!   message hold exactly one multiple of ℓ, ℓ·⌈v/ℓ⌉, and σ_1 = ⌈v/ℓ⌉. The paper's
//!   S(σ_1) = ⌊S(σ_ℓ)/ℓ⌋ holds with equality (the catalogued reading "only ≤" is too weak): the
//!   first message keeps start 1, and the one with the largest start v_max ends last, at
//!   S(σ_ℓ) = v_max + ℓ − 1, so ⌈v_max/ℓ⌉ = ⌊S(σ_ℓ)/ℓ⌋. [`shrink`].
//! * **Decomposition by length** (Theorem 5.2, CHAT-22): class i = 0..⌈log L⌉ holds the
//!   messages with 2^{i−1} < ℓ ≤ 2^i. For each non-empty class: run a unit-length procedure P
//!   on the class with all lengths 1, stretch to 2^i, ignore each message's last 2^i − ℓ flits;
//!   classes follow each other in virtual time. [`by_length_classes`].
//!   * P = `first-fit` on a ULA (§5.2 first paragraph, CHAT-28):
//!     S ≤ 2(⌈log L⌉ + 1)·C(M). Registered as `length-classes-first-fit`.
//!   * P = the ESM slot algorithm, then VO (Corollary 5.1, CHAT-27):
//!     T ≤ 4(⌈log L⌉ + 1)·C(M) + L(M) + 2N. Registered as `length-classes-esm-slot` (P =
//!     `esm-slot`, the paper's) and `length-classes-esm-slot-refined` (P = `esm-slot-refined`).
//!     The bound follows from the proof's per-class chain, not from Theorem 5.2's statement,
//!     and inherits Theorem 5.3's caveat (CHAT-26, CHAT-27).

use super::esm_slot::{SlotTest, esm_slots};
use super::first_fit::first_fit_tracks;
use super::{
    LINEAR_ARRAYS, MESHES, Procedure, ceil_log2, chatting_on, claimed, is_virtual, parameters, produce,
};
use crate::claims::{ClaimValue, Relation};
use crate::error::Result;
use crate::heuristics::Method;
use crate::spec::Family;
use crate::spec::{Instance, Message, Network, Schedule, Start};

/// Theorem 5.1(a): the unit virtual starts `sigma1` (normalised to start at 1 first) stretched
/// to a common length ℓ = `ell`.
pub fn stretch(sigma1: &[Start], ell: i64) -> Vec<Start> {
    let min = sigma1.iter().map(|s| s.start).min().unwrap_or(1);
    sigma1.iter().map(|s| Start { msg: s.msg, start: ell * (s.start - min) + 1 }).collect()
}

/// Theorem 5.1(b): the virtual starts `sigma_ell` of a uniform length-ℓ problem (normalised to
/// start at 1 first) shrunk to unit length: ⌈v/ℓ⌉.
pub fn shrink(sigma_ell: &[Start], ell: i64) -> Vec<Start> {
    let min = sigma_ell.iter().map(|s| s.start).min().unwrap_or(1);
    sigma_ell.iter().map(|s| Start { msg: s.msg, start: (s.start - min + 1 + ell - 1) / ell }).collect()
}

/// The length class of a message of ℓ flits: the i with 2^{i−1} < ℓ ≤ 2^i (0 for ℓ = 1).
pub fn length_class(len: u64) -> u32 {
    len.next_power_of_two().trailing_zeros()
}

/// Theorem 5.2: virtual starts (from 1, in message order) that run each length class in turn,
/// scheduled by the unit-length procedure `p` and stretched to the class's power of two.
pub fn by_length_classes(network: &Network, messages: &[Message], p: Procedure) -> Result<Vec<i64>> {
    let mut start = vec![0i64; messages.len()];
    let mut offset = 0;
    let top = messages.iter().map(|m| length_class(m.len)).max().unwrap_or(0);
    for class in 0..=top {
        let members: Vec<usize> =
            (0..messages.len()).filter(|&x| length_class(messages[x].len) == class).collect();
        if members.is_empty() {
            continue;
        }
        let unit: Vec<Message> = members.iter().map(|&x| Message { len: 1, ..messages[x].clone() }).collect();
        let sigma1 = p(network, &unit)?;
        let min = sigma1.iter().copied().min().unwrap_or(1);
        let width = 1i64 << class;
        for (&x, &v) in members.iter().zip(&sigma1) {
            start[x] = offset + width * (v - min) + 1;
        }
        let s1 = sigma1.iter().map(|v| v - min + 1).max().unwrap_or(0);
        offset += width * s1;
    }
    Ok(start)
}

/// Decomposition by length with P = `first-fit` on a ULA (or a bidirectional array as two ULAs).
pub fn length_classes_first_fit(inst: &Instance) -> Result<Schedule> {
    produce(inst, &FIRST_FIT_METHOD, |n, m| by_length_classes(n, m, first_fit_tracks))
}

/// Decomposition by length with P = the ESM slot algorithm under `test` (an ESM, or a full mesh
/// as four ESMs). Under [`SlotTest::Printed`] it fails as soon as a class has a message the
/// printed test cannot place (CHAT-25).
pub fn length_classes_esm_slot(inst: &Instance, test: SlotTest) -> Result<Schedule> {
    match test {
        SlotTest::Printed => produce(inst, &ESM_SLOT_METHOD, |n, m| {
            by_length_classes(n, m, |n, m| esm_slots(n, m, SlotTest::Printed))
        }),
        SlotTest::Literal => produce(inst, &ESM_SLOT_METHOD, |n, m| {
            by_length_classes(n, m, |n, m| esm_slots(n, m, SlotTest::Literal))
        }),
        SlotTest::Refined => produce(inst, &ESM_SLOT_REFINED_METHOD, |n, m| {
            by_length_classes(n, m, |n, m| esm_slots(n, m, SlotTest::Refined))
        }),
    }
}

/// Corollary 5.1 (CHAT-27): T ≤ 4(⌈log L⌉ + 1)C + L + 2N, for a chatting schedule on an N×N ESM.
fn corollary_5_1(inst: &Instance) -> Option<ClaimValue> {
    let (c, l, _) = parameters(inst)?;
    let &Family::Esm(n) = inst.network.family() else { return None };
    let bound = 4 * (ceil_log2(l) + 1) * c + l + 2 * n as u64;
    (!is_virtual(inst)).then(|| {
        claimed(
            "CHAT-27",
            "length classes, ESM slots, VO (Corollary 5.1)",
            "T ≤ 4(⌈log L⌉+1)C + L + 2N",
            Relation::AtMost,
            bound,
        )
    })?
}

/// Registry entry: decomposition by length with first-fit on a ULA (CHAT-28).
pub const FIRST_FIT_METHOD: Method = Method {
    name: "length-classes-first-fit",
    source: "000 §5.1 Theorems 5.1, 5.2, §5.2 first paragraph; CHAT-19, CHAT-22, CHAT-28",
    summary: "ULA (a bidirectional array as two ULAs), any lengths: classes 2^(i-1) < l <= 2^i, first-fit \
              per class, stretched to 2^i, classes in turn; S ≤ 2(⌈log L⌉+1)C, chatting = VO of it",
    applicability: chatting_on(LINEAR_ARRAYS, false),
    claim: |inst| {
        let (c, l, _) = parameters(inst)?;
        let bound = 2 * (ceil_log2(l) + 1) * c;
        is_virtual(inst).then(|| {
            claimed(
                "CHAT-28",
                "length classes with first-fit (§5.2)",
                "S ≤ 2(⌈log L⌉+1)C",
                Relation::AtMost,
                bound,
            )
        })?
    },
    run: length_classes_first_fit,
};

/// Registry entry: decomposition by length with the ESM slot algorithm (Corollary 5.1, CHAT-27).
pub const ESM_SLOT_METHOD: Method = Method {
    name: "length-classes-esm-slot",
    source: "000 §5.2 Corollary 5.1 (P = esm-slot); CHAT-22, CHAT-26, CHAT-27",
    summary: "ESM (a full mesh as four ESMs), any lengths: classes by length, esm-slot per class, \
              stretched, in turn, then VO; paper claims T ≤ 4(⌈log L⌉+1)C + L + 2N",
    applicability: chatting_on(MESHES, false),
    claim: corollary_5_1,
    run: |inst| length_classes_esm_slot(inst, SlotTest::Literal),
};

/// Registry entry: as [`ESM_SLOT_METHOD`] with P = `esm-slot-refined`.
pub const ESM_SLOT_REFINED_METHOD: Method = Method {
    name: "length-classes-esm-slot-refined",
    source: "000 §5.2 Corollary 5.1 (P = esm-slot-refined, CHAT-26); CHAT-22, CHAT-27",
    summary: "length-classes-esm-slot with the refined slot test (straight messages skip the array \
              they do not use)",
    applicability: chatting_on(MESHES, false),
    claim: corollary_5_1,
    run: |inst| length_classes_esm_slot(inst, SlotTest::Refined),
};

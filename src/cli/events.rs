//! `solve allgather --model bandwidth --size M --events [--events-out FILE]`: the best checked
//! schedule of the event model (docs/spec.md §3.3) at that size, beside the optimum's pipeline
//! formula; and `check events.json --network NET`, a schedule of anyone's judged by the same
//! checker.

use super::io_err;
use commsched::bandwidth::events::{best, lower_bound_us};
use commsched::checker::events::check_events;
use commsched::error::{Error, InputError, Result};
use commsched::spec::events::{events_to_json, parse_events};
use commsched::spec::fabric::{Fabric, ratio_text, to_f64};
use commsched::spec::packing::{BandwidthCollective, Packing};
use num_rational::BigRational;
use serde_json::{Value, json};
use std::path::Path;

/// The event model's answer at one size: its JSON object and its line of text.
pub(super) struct EventReport {
    pub json: Value,
    pub text: String,
}

/// The best checked event schedule of an allgather of `bytes` on the fabric, the packing's
/// trees among its candidates, written to `file` when given; `tau` is the certified optimum per
/// shard byte, for the bound.
pub(super) fn events(
    fabric: &Fabric,
    collective: BandwidthCollective,
    packing: &Packing,
    tau: Option<&BigRational>,
    bytes: u64,
    file: Option<&Path>,
) -> Result<EventReport> {
    if collective != BandwidthCollective::Allgather {
        return Err(InputError::new(
            "<flags>",
            "--events",
            format!("the event model schedules allgather only, not {}", collective.name()),
        )
        .into());
    }
    let answer = best(fabric, Some(packing), bytes)
        .map_err(|reason| Error::NotApplicable { method: "the event model".into(), reason })?;
    if let Some(path) = file {
        let name = path.display().to_string();
        std::fs::write(path, events_to_json(fabric, &answer.schedule)).map_err(io_err(&name))?;
    }
    let m = &answer.measure;
    let time_us = to_f64(&m.time_us);
    let algbw = bytes as f64 / 1e3 / time_us;
    let bound = tau.map(|t| lower_bound_us(fabric, t, bytes));
    let json = json!({
        "time_us": time_us,
        "time_us_exact": ratio_text(&m.time_us),
        "algbw": algbw,
        "pieces_per_rank": m.pieces_per_rank,
        "rule": answer.rule.name(),
        "transfers": m.transfers,
        "candidates": answer.candidates,
        "bound_us": bound,
        "checked": true,
    });
    let text = format!(
        "  event model at {bytes} bytes: {time_us:.1} µs, algbw {algbw:.3} GB/s ({}, {} pieces per rank, {} transfers; checked){}\n",
        answer.rule.name(),
        m.pieces_per_rank,
        m.transfers,
        bound.map_or(String::new(), |b| format!("; bound {b:.1} µs"))
    );
    Ok(EventReport { json, text })
}

/// `check events.json --network NET`: exit 0 with the replayed time if the schedule runs and
/// completes, 1 with its violations if not.
pub(super) fn check(file: &Path, network: &str, text: &str, json_out: bool) -> Result<(u8, String)> {
    let fabric = commsched::spec::fabric::load(network, None)?;
    let schedule = parse_events(text, &file.display().to_string(), &fabric)?;
    Ok(match check_events(&fabric, &schedule) {
        Ok(m) => {
            let time_us = to_f64(&m.time_us);
            let out = if json_out {
                json!({"admissible": true, "time_us": time_us, "time_us_exact": ratio_text(&m.time_us), "transfers": m.transfers, "pieces_per_rank": m.pieces_per_rank}).to_string()
            } else {
                format!(
                    "admissible: the allgather of {} bytes on {} completes at {time_us:.3} µs ({} transfers, {} pieces per rank)",
                    schedule.bytes,
                    fabric.name(),
                    m.transfers,
                    m.pieces_per_rank
                )
            };
            (0, out + "\n")
        }
        Err(violations) => {
            let out = if json_out {
                json!({"admissible": false, "violations": violations}).to_string()
            } else {
                format!("inadmissible: {} violations\n  {}", violations.len(), violations.join("\n  "))
            };
            (1, out + "\n")
        }
    })
}

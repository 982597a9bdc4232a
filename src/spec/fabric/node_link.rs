//! networkx node-link JSON (docs/spec.md §2.5), as `networkx.node_link_data` writes it: `nodes`
//! with an `id` and a `kind` (`compute`, the default, or `switch`), and `edges` (or, as networkx
//! before 3.4 wrote it, `links`) with `source`, `target`, `bandwidth` in GB/s (or `capacity`, as
//! ForestColl names it) and `latency` in µs (default 0). `"directed": false` makes every edge a
//! link each way; parallel edges add their bandwidth.
//!
//! Node ids may be any JSON value: a string is its own name, a number its decimal text, anything
//! else (networkx writes a tuple id as a list) its compact JSON text.

use super::{Fabric, FabricBuilder, NodeKind, decimal};
use crate::error::InputError;
use num_rational::BigRational;
use num_traits::{Signed, Zero};
use serde_json::{Map, Value, json};
use std::collections::HashMap;

/// A node id's name.
fn id_name(id: &Value) -> String {
    match id {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// Reads a fabric from node-link JSON; an edge without a bandwidth takes `default_bandwidth`
/// when one is given. Errors name the file, the field (`edges[3].bandwidth`) and the reason.
pub fn parse_node_link(
    text: &str,
    file: &str,
    name: &str,
    default_bandwidth: Option<&BigRational>,
) -> Result<Fabric, InputError> {
    let err = |field: &str, reason: String| InputError::new(file, field, reason);
    let doc: Value = serde_json::from_str(text).map_err(|e| err("", format!("not JSON: {e}")))?;
    let doc = doc.as_object().ok_or_else(|| err("", "a node-link document is a JSON object".into()))?;
    let flag = |key: &str, default: bool| match doc.get(key) {
        None => Ok(default),
        Some(Value::Bool(b)) => Ok(*b),
        Some(other) => Err(err(key, format!("`{other}` is not true or false"))),
    };
    let directed = flag("directed", true)?;
    let nodes = match doc.get("nodes") {
        Some(Value::Array(nodes)) => nodes,
        Some(_) => return Err(err("nodes", "is not a list".into())),
        None => return Err(err("nodes", "is missing: a node-link document lists its nodes".into())),
    };
    let (key, edges) = match (doc.get("edges"), doc.get("links")) {
        (Some(_), Some(_)) => {
            return Err(err("edges", "both `edges` and `links` are present: give one".into()));
        }
        (Some(Value::Array(e)), None) => ("edges", e),
        (None, Some(Value::Array(e))) => ("links", e),
        (Some(_), None) => return Err(err("edges", "is not a list".into())),
        (None, Some(_)) => return Err(err("links", "is not a list".into())),
        (None, None) => return Err(err("edges", "is missing: give `edges` (or `links`)".into())),
    };
    let links = (edges.len() as u64).saturating_mul(if directed { 1 } else { 2 });
    let mut b = FabricBuilder::with_capacity(nodes.len() as u64, links).map_err(|r| err("nodes", r))?;
    let mut ids: HashMap<String, usize> = HashMap::with_capacity(nodes.len());
    for (i, node) in nodes.iter().enumerate() {
        let field = format!("nodes[{i}]");
        let node = node.as_object().ok_or_else(|| err(&field, "is not an object".into()))?;
        let id = node.get("id").ok_or_else(|| err(&format!("{field}.id"), "is missing".into()))?;
        let kind = match node.get("kind") {
            None => NodeKind::Compute,
            Some(Value::String(k)) if k == "compute" => NodeKind::Compute,
            Some(Value::String(k)) if k == "switch" => NodeKind::Switch,
            Some(other) => {
                return Err(err(
                    &format!("{field}.kind"),
                    format!("`{other}` is neither \"compute\" nor \"switch\""),
                ));
            }
        };
        let name = id_name(id);
        if ids.insert(name.clone(), i).is_some() {
            return Err(err(&format!("{field}.id"), format!("node `{name}` is listed twice")));
        }
        b.node(name, kind);
    }
    for (i, edge) in edges.iter().enumerate() {
        let field = |f: &str| format!("{key}[{i}]{f}");
        let edge = edge.as_object().ok_or_else(|| err(&field(""), "is not an object".into()))?;
        let end = |end: &str| -> Result<usize, InputError> {
            let id = edge.get(end).ok_or_else(|| err(&field(&format!(".{end}")), "is missing".into()))?;
            // networkx before 2.0 wrote an edge's ends as positions in `nodes`.
            let position = || id.as_u64().filter(|&p| p < nodes.len() as u64).map(|p| p as usize);
            ids.get(&id_name(id)).copied().or_else(position).ok_or_else(|| {
                err(&field(&format!(".{end}")), format!("node `{}` is not in `nodes`", id_name(id)))
            })
        };
        let (from, to) = (end("source")?, end("target")?);
        let bandwidth = match (edge.get("bandwidth"), edge.get("capacity"), default_bandwidth) {
            (Some(bw), _, _) | (None, Some(bw), _) => {
                let key = if edge.contains_key("bandwidth") { "bandwidth" } else { "capacity" };
                number(bw).filter(|b| *b > BigRational::zero()).ok_or_else(|| {
                    err(&field(&format!(".{key}")), format!("`{bw}` is not a positive bandwidth in GB/s"))
                })?
            }
            (None, None, Some(default)) => default.clone(),
            (None, None, None) => {
                return Err(err(
                    &field(".bandwidth"),
                    "is missing (GB/s; or give a default bandwidth)".into(),
                ));
            }
        };
        let latency = match edge.get("latency") {
            None => 0.0,
            Some(v) => v.as_f64().filter(|l| l.is_finite() && *l >= 0.0).ok_or_else(|| {
                err(&field(".latency"), format!("`{v}` is not a non-negative number of µs"))
            })?,
        };
        let result = if directed {
            b.link(from, to, bandwidth, latency)
        } else {
            b.duplex(from, to, &bandwidth, latency)
        };
        result.map_err(|r| err(&field(""), r))?;
    }
    b.build(name).map_err(|r| err("nodes", r))
}

/// A JSON number or a string holding a decimal or `p/q`, exactly.
fn number(v: &Value) -> Option<BigRational> {
    match v {
        Value::Number(n) => decimal(&n.to_string()),
        Value::String(s) => super::parse_ratio(s),
        _ => None,
    }
}

/// Writes a fabric as directed node-link JSON with string ids, every link once; a bandwidth is
/// a JSON number when its decimal is short and exact, otherwise a string `p/q`.
pub fn to_node_link(fabric: &Fabric) -> String {
    let nodes: Vec<Value> = (0..fabric.len())
        .map(|v| json!({"id": fabric.node_name(v), "kind": fabric.kind(v).name()}))
        .collect();
    let edges: Vec<Value> = fabric
        .links()
        .iter()
        .map(|l| {
            let mut e = Map::new();
            e.insert("source".into(), fabric.node_name(l.from).into());
            e.insert("target".into(), fabric.node_name(l.to).into());
            e.insert("bandwidth".into(), exact_number(&l.bandwidth));
            e.insert("latency".into(), json!(l.latency));
            Value::Object(e)
        })
        .collect();
    let doc = json!({
        "directed": true,
        "multigraph": false,
        "graph": {"name": fabric.name()},
        "nodes": nodes,
        "edges": edges,
    });
    serde_json::to_string_pretty(&doc).expect("a fabric serialises") + "\n"
}

/// A rational as a JSON number when its decimal is exact in at most 15 places after the point,
/// otherwise a string `p/q`.
fn exact_number(r: &BigRational) -> Value {
    let ten = BigRational::from_integer(10.into());
    let mut scaled = r.clone();
    for places in 0..=15usize {
        if scaled.is_integer() {
            let digits = scaled.numer().abs().to_string();
            let digits = format!("{digits:0>width$}", width = places + 1);
            let (int, frac) = digits.split_at(digits.len() - places);
            let sign = if r.is_negative() { "-" } else { "" };
            let text = if places == 0 { format!("{sign}{int}") } else { format!("{sign}{int}.{frac}") };
            if let Ok(n) = text.parse::<serde_json::Number>() {
                return Value::Number(n);
            }
            break;
        }
        scaled *= &ten;
    }
    Value::String(super::ratio_text(r))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn networkx_documents_read_as_written() {
        let text = r#"{"directed": false, "multigraph": true, "graph": {},
            "nodes": [{"id": [0, "GPU", 0]}, {"id": [0, "GPU", 1]}, {"id": "sw", "kind": "switch"}],
            "links": [{"source": [0, "GPU", 0], "target": "sw", "capacity": 12.5, "key": 0},
                      {"source": [0, "GPU", 0], "target": "sw", "capacity": 0.1, "key": 1},
                      {"source": [0, "GPU", 1], "target": "sw", "bandwidth": "25", "latency": 1.5}]}"#;
        let f = parse_node_link(text, "g.json", "g", None).unwrap();
        assert_eq!(f.compute(), vec![0, 1]);
        assert_eq!(f.node_name(0), r#"[0,"GPU",0]"#);
        assert_eq!(f.links().len(), 4);
        assert_eq!(f.link(0, 2).unwrap().bandwidth, BigRational::new(126.into(), 10.into()));
        assert_eq!(f.link(2, 1).unwrap().latency, 1.5);
        let back = parse_node_link(&to_node_link(&f), "back.json", "g", None).unwrap();
        assert_eq!(back.links(), f.links());
    }

    #[test]
    fn bad_documents_name_the_field() {
        let bad = |text: &str| parse_node_link(text, "g.json", "g", None).unwrap_err().to_string();
        let nodes = r#""nodes": [{"id": 0}, {"id": 1}]"#;
        assert!(
            bad(&format!(r#"{{{nodes}, "edges": [{{"source": 0, "target": 2, "bandwidth": 1}}]}}"#))
                .contains("edges[0].target")
        );
        assert!(
            bad(&format!(r#"{{{nodes}, "edges": [{{"source": 0, "target": 1}}]}}"#))
                .contains("edges[0].bandwidth")
        );
        assert!(
            bad(&format!(r#"{{{nodes}, "edges": [{{"source": 0, "target": 1, "bandwidth": -1}}]}}"#))
                .contains("not a positive")
        );
        assert!(
            bad(&format!(r#"{{{nodes}, "edges": [{{"source": 0, "target": 0, "bandwidth": 1}}]}}"#))
                .contains("self-link")
        );
        assert!(bad(r#"{"nodes": [{"id": 0}], "edges": []}"#).contains("at least 2 compute"));
        assert!(bad(r#"{"nodes": [{"id": 0, "kind": "gpu"}], "edges": []}"#).contains("nodes[0].kind"));
        assert!(bad(r#"{"nodes": [{"id": 0}, {"id": 0}], "edges": []}"#).contains("listed twice"));
        assert!(bad(r#"{"nodes": [], "edges": [], "links": []}"#).contains("both"));
    }

    #[test]
    fn exact_numbers_stay_exact() {
        let q = |p: i64, q: i64| BigRational::new(p.into(), q.into());
        assert_eq!(exact_number(&q(25, 2)), json!(12.5));
        assert_eq!(exact_number(&q(1, 10)), json!(0.1));
        assert_eq!(exact_number(&q(300, 1)), json!(300));
        assert_eq!(exact_number(&q(1, 3)), json!("1/3"));
    }
}

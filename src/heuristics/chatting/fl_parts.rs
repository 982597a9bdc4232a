//! # FL parts: a bidirectional array as two ULAs, a full mesh as four ESMs (paper 000 §3.4, §5.2)
//!
//! The paper's results are for forward-leveled networks; §3.4 applies them to a bidirectional
//! linear array by "the decomposition of a *bidirectional* linear array … into two ULAs", and
//! §5.2 to a full mesh, which "can be obtained by superposing four appropriately rotated ESMs"
//! (CHAT-24). Each message goes to the part its direction selects, relabelled so that its
//! atlas path becomes the part's designated path:
//!
//! * `path:n`: rightward messages on `ula:n` as they are; leftward ones on `ula:n` under
//!   x ↦ n−1−x. The two ULAs use disjoint arcs, so they form **one phase**.
//! * `mesh:r x c` (dimension order: along the row, then along the column, SPEC §2): on
//!   `esm:N`, N = max(r, c), with rows reflected (i ↦ r−1−i) for northward messages and
//!   columns reflected (j ↦ c−1−j) for westward ones. Straight messages go to the south/east
//!   side. Every mesh arc belongs to two of the four ESMs (CHAT-24 notes), and the paper says
//!   nothing on how to combine them; here the arc-disjoint pairs {south-east, north-west} and
//!   {south-west, north-east} form **two phases**, run one after the other.
//!
//! `ula` and `esm` instances are one part. The relabelling preserves arcs one to one, so a
//! schedule of a part is, step for step, a schedule of its messages on the original network.

use crate::error::Result;
use crate::spec::{Family, Instance, Message, Network, Node, RingTie};

/// Messages relabelled onto one FL network (a ULA or an ESM); ids are the instance's.
#[derive(Debug, Clone)]
pub struct Part {
    /// The FL network (`ula:n` or `esm:N`).
    pub network: Network,
    /// The messages on it, with their designated paths in that network.
    pub messages: Vec<Message>,
}

/// The FL parts of a chatting instance on `ula`, `path`, `esm` or `mesh`, grouped in phases:
/// parts of one phase use disjoint arcs of the original network. Empty parts are omitted.
pub fn fl_parts(inst: &Instance) -> Result<Vec<Vec<Part>>> {
    let messages = inst.messages()?;
    let phases = match *inst.network.family() {
        Family::Path(n) => {
            let ula = Network::new(Family::Ula(n)).map_err(network_error)?;
            let flip = |x: Node| n - 1 - x;
            vec![vec![
                relabel(&ula, messages.iter().filter(|m| m.src < m.dst), |x| x)?,
                relabel(&ula, messages.iter().filter(|m| m.src > m.dst), flip)?,
            ]]
        }
        Family::Mesh(r, c) => {
            let n = r.max(c);
            let esm = Network::new(Family::Esm(n)).map_err(network_error)?;
            let quadrant = |south: bool, east: bool| {
                let part = messages
                    .iter()
                    .filter(move |m| (m.dst / c >= m.src / c) == south && (m.dst % c >= m.src % c) == east);
                relabel(&esm, part, move |x: Node| {
                    let (i, j) = (x / c, x % c);
                    let i = if south { i } else { r - 1 - i };
                    let j = if east { j } else { c - 1 - j };
                    i * n + j
                })
            };
            vec![
                vec![quadrant(true, true)?, quadrant(false, false)?],
                vec![quadrant(true, false)?, quadrant(false, true)?],
            ]
        }
        _ => vec![vec![Part { network: inst.network.clone(), messages }]],
    };
    Ok(phases
        .into_iter()
        .map(|phase| phase.into_iter().filter(|p| !p.messages.is_empty()).collect::<Vec<_>>())
        .filter(|phase| !phase.is_empty())
        .collect())
}

fn network_error(reason: String) -> crate::Error {
    crate::InputError::new("", "network", reason).into()
}

/// The messages with every node relabelled by `f`, on `network`'s atlas path.
fn relabel<'a>(
    network: &Network,
    messages: impl Iterator<Item = &'a Message>,
    f: impl Fn(Node) -> Node,
) -> Result<Part> {
    let messages = messages
        .map(|m| {
            let (src, dst) = (f(m.src), f(m.dst));
            let nodes: Vec<Node> = m.nodes.iter().map(|&x| f(x)).collect();
            debug_assert_eq!(network.default_path(src, dst, RingTie::Clockwise).as_ref(), Some(&nodes));
            let arcs = network.walk_arcs(&nodes, src, dst).map_err(network_error)?;
            Ok(Message { id: m.id, src, dst, len: m.len, nodes, arcs })
        })
        .collect::<Result<Vec<_>>>()?;
    Ok(Part { network: network.clone(), messages })
}

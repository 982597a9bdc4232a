//! MSCCL algorithm XML as a document (docs/msccl.md): `<algo>` with its `<gpu>`s, their thread
//! blocks `<tb>` and steps `<step>`, read with a real XML parser (roxmltree: comments,
//! declarations, entities and `>` inside attribute values are XML's business, not ours) into
//! plain data. What the steps mean is [`crate::msccl`]'s.
//!
//! Errors name the file, the element (`gpu[2].tb[1].step[4]`, by the ids the file gives) and
//! the attribute, with the reason. Attributes the format does not know are ignored, as the
//! runtimes do. The ids, a step's index, type, buffers, offsets and count are required; the
//! header's counts, buffer sizes, channels and dependencies may be absent (early SCCL files
//! omit some); a value that is not a number where one is needed is an error.

use crate::error::InputError;

/// A step's type (`type`): what the thread block does in it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StepKind {
    /// `s`: send to the block's `send` peer.
    Send,
    /// `r`: receive from the block's `recv` peer.
    Recv,
    /// `cpy`: a local copy.
    Copy,
    /// `nop`: wait (for its dependency).
    Nop,
    /// `re`: reduce a local chunk into another.
    Reduce,
    /// `rrc`: receive, reduce with a local chunk, store.
    RecvReduceCopy,
    /// `rrs`: receive, reduce with a local chunk, send on.
    RecvReduceSend,
    /// `rrcs`: receive, reduce, store and send on.
    RecvReduceCopySend,
    /// `rcs`: receive, store and send on.
    RecvCopySend,
}

impl StepKind {
    /// Every kind with its `type` value.
    const NAMES: [(&'static str, StepKind); 9] = [
        ("s", StepKind::Send),
        ("r", StepKind::Recv),
        ("cpy", StepKind::Copy),
        ("nop", StepKind::Nop),
        ("re", StepKind::Reduce),
        ("rrc", StepKind::RecvReduceCopy),
        ("rrs", StepKind::RecvReduceSend),
        ("rrcs", StepKind::RecvReduceCopySend),
        ("rcs", StepKind::RecvCopySend),
    ];

    /// The `type` value.
    pub fn name(self) -> &'static str {
        Self::NAMES.iter().find(|(_, k)| *k == self).map_or("?", |(n, _)| n)
    }

    fn parse(s: &str) -> Option<Self> {
        Self::NAMES.iter().find(|(n, _)| *n == s).map(|&(_, k)| k)
    }
}

/// A buffer of a rank: `i` input, `o` output, `s` scratch.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Buffer {
    /// `i`.
    Input,
    /// `o`.
    Output,
    /// `s`.
    Scratch,
}

impl Buffer {
    /// The letter the file uses.
    pub fn letter(self) -> char {
        match self {
            Buffer::Input => 'i',
            Buffer::Output => 'o',
            Buffer::Scratch => 's',
        }
    }
}

/// One `<step>`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Step {
    /// `s`, its index in the thread block.
    pub index: usize,
    /// `type`.
    pub kind: StepKind,
    /// `srcbuf`, `srcoff`.
    pub src: (Buffer, usize),
    /// `dstbuf`, `dstoff`.
    pub dst: (Buffer, usize),
    /// `cnt`, the chunks moved (0 for a `nop`).
    pub cnt: usize,
    /// `depid`, `deps`: the thread block and step of the same rank that must finish first.
    pub dep: Option<(usize, usize)>,
    /// `hasdep`: another step waits on this one.
    pub hasdep: bool,
    /// Where it is, for diagnostics: `gpu[2].tb[1].step[4]`.
    pub place: String,
}

/// One `<tb>`: a thread block, its peers and its steps in program order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ThreadBlock {
    /// `id`.
    pub id: usize,
    /// `send`: the rank it sends to.
    pub send: Option<usize>,
    /// `recv`: the rank it receives from.
    pub recv: Option<usize>,
    /// `chan`: its channel.
    pub channel: usize,
    /// Its steps, in file order.
    pub steps: Vec<Step>,
    /// `gpu[2].tb[1]`.
    pub place: String,
}

/// One `<gpu>`: a rank, its buffer sizes in chunks and its thread blocks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Gpu {
    /// `id`.
    pub id: usize,
    /// `i_chunks`, `o_chunks`, `s_chunks` (0 where absent).
    pub chunks: [usize; 3],
    /// Its thread blocks.
    pub blocks: Vec<ThreadBlock>,
}

/// The `<algo>` element.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Algo {
    /// `name` (empty where absent).
    pub name: String,
    /// `coll`, absent in some early files.
    pub coll: Option<String>,
    /// `ngpus` (else the number of `<gpu>`s).
    pub ngpus: usize,
    /// `nchunksperloop`, when given.
    pub nchunksperloop: Option<usize>,
    /// `nchannels`, when given.
    pub nchannels: Option<usize>,
    /// `proto`: Simple, LL or LL128.
    pub proto: String,
    /// `inplace`.
    pub inplace: bool,
    /// `outofplace`, when given.
    pub outofplace: Option<bool>,
    /// `minBytes`, `maxBytes`, when given.
    pub bytes: Option<(u64, u64)>,
    /// `root`, commsched's for a rooted collective (runtimes ignore it, docs/msccl.md).
    pub root: Option<usize>,
    /// `timing="step-index"`, commsched's: a send leaves no earlier than step `s + 1`, the
    /// synthesised timing (docs/msccl.md, "Timing"); runtimes ignore it.
    pub timed_by_index: bool,
    /// The ranks.
    pub gpus: Vec<Gpu>,
}

/// Reads one attribute of a node.
struct Element<'a, 'input> {
    node: roxmltree::Node<'a, 'input>,
    place: String,
    file: &'a str,
}

impl Element<'_, '_> {
    fn error(&self, key: &str, reason: String) -> InputError {
        let field = if key.is_empty() { self.place.clone() } else { format!("{}.{key}", self.place) };
        InputError::new(self.file, field, reason)
    }

    fn text(&self, key: &str) -> Result<&str, InputError> {
        self.node.attribute(key).ok_or_else(|| {
            self.error("", format!("<{}> has no `{key}` attribute", self.node.tag_name().name()))
        })
    }

    fn integer(&self, key: &str) -> Result<i64, InputError> {
        let v = self.text(key)?;
        v.trim().parse().map_err(|_| self.error(key, format!("`{v}` is not an integer")))
    }

    fn count(&self, key: &str) -> Result<usize, InputError> {
        let v = self.integer(key)?;
        usize::try_from(v).map_err(|_| self.error(key, format!("{v} is negative")))
    }

    fn optional_count(&self, key: &str) -> Result<Option<usize>, InputError> {
        if self.node.attribute(key).is_none() {
            return Ok(None);
        }
        self.count(key).map(Some)
    }

    /// A peer or dependency: −1 (or absent) is none.
    fn maybe(&self, key: &str) -> Result<Option<usize>, InputError> {
        if self.node.attribute(key).is_none() {
            return Ok(None);
        }
        match self.integer(key)? {
            -1 => Ok(None),
            v => usize::try_from(v)
                .map(Some)
                .map_err(|_| self.error(key, format!("{v} is neither -1 nor ≥ 0"))),
        }
    }

    fn flag(&self, key: &str) -> Result<Option<bool>, InputError> {
        match self.node.attribute(key).map(str::trim) {
            None => Ok(None),
            Some("1" | "true") => Ok(Some(true)),
            Some("0" | "false") => Ok(Some(false)),
            Some(v) => Err(self.error(key, format!("`{v}` is not 0 or 1"))),
        }
    }

    fn buffer(&self, key: &str) -> Result<Buffer, InputError> {
        match self.text(key)?.trim() {
            "i" => Ok(Buffer::Input),
            "o" => Ok(Buffer::Output),
            "s" => Ok(Buffer::Scratch),
            v => Err(self.error(key, format!("`{v}` is not a buffer (i, o, s)"))),
        }
    }

    fn children<'s>(&'s self, tag: &'static str) -> impl Iterator<Item = roxmltree::Node<'s, 's>> + 's {
        self.node.children().filter(move |c| c.is_element() && c.tag_name().name() == tag)
    }
}

/// Parses an MSCCL XML document (module documentation).
pub fn parse(text: &str, file: &str) -> Result<Algo, InputError> {
    let doc = roxmltree::Document::parse(text)
        .map_err(|e| InputError::new(file, "", format!("not well-formed XML: {e}")))?;
    let root = doc.root_element();
    if root.tag_name().name() != "algo" {
        return Err(InputError::new(
            file,
            "",
            format!("the root element is <{}>, not <algo>", root.tag_name().name()),
        ));
    }
    let algo = Element { node: root, place: "algo".into(), file };
    let mut gpus = Vec::new();
    for g in algo.children("gpu") {
        let gpu = Element { node: g, place: "gpu".into(), file };
        let id = gpu.count("id")?;
        let gpu = Element { place: format!("gpu[{id}]"), ..gpu };
        let mut blocks = Vec::new();
        for t in gpu.children("tb") {
            let tb = Element { node: t, place: format!("{}.tb", gpu.place), file };
            let tb = Element { place: format!("{}.tb[{}]", gpu.place, tb.count("id")?), ..tb };
            let mut steps = Vec::new();
            for s in tb.children("step") {
                let step = Element { node: s, place: format!("{}.step", tb.place), file };
                let index = step.count("s")?;
                let step = Element { place: format!("{}.step[{index}]", tb.place), ..step };
                let v = step.text("type")?;
                let kind = StepKind::parse(v.trim()).ok_or_else(|| {
                    step.error(
                        "type",
                        format!("`{v}` is not a step type (s, r, cpy, nop, re, rrc, rrs, rrcs, rcs)"),
                    )
                })?;
                // A `nop` may leave its buffers and offsets at -1.
                let end = |buf: &str, off: &str| -> Result<(Buffer, usize), InputError> {
                    match (kind, step.integer(off)) {
                        (StepKind::Nop, Ok(-1)) => Ok((Buffer::Input, 0)),
                        _ => Ok((step.buffer(buf)?, step.count(off)?)),
                    }
                };
                let dep = match (step.maybe("depid")?, step.maybe("deps")?) {
                    (Some(tb), Some(s)) => Some((tb, s)),
                    (None, None) => None,
                    _ => return Err(step.error("deps", "`depid` and `deps` are both -1 or both set".into())),
                };
                steps.push(Step {
                    index,
                    kind,
                    src: end("srcbuf", "srcoff")?,
                    dst: end("dstbuf", "dstoff")?,
                    cnt: step.count("cnt")?,
                    dep,
                    hasdep: step.flag("hasdep")?.unwrap_or(false),
                    place: step.place,
                });
            }
            blocks.push(ThreadBlock {
                id: tb.count("id")?,
                send: tb.maybe("send")?,
                recv: tb.maybe("recv")?,
                channel: tb.optional_count("chan")?.unwrap_or(0),
                steps,
                place: tb.place,
            });
        }
        gpus.push(Gpu {
            id,
            chunks: [
                gpu.optional_count("i_chunks")?.unwrap_or(0),
                gpu.optional_count("o_chunks")?.unwrap_or(0),
                gpu.optional_count("s_chunks")?.unwrap_or(0),
            ],
            blocks,
        });
    }
    let bytes = match (algo.node.attribute("minBytes"), algo.node.attribute("maxBytes")) {
        (None, None) => None,
        _ => Some((algo.count("minBytes")? as u64, algo.count("maxBytes")? as u64)),
    };
    let timed_by_index = match algo.node.attribute("timing").map(str::trim) {
        None | Some("earliest") => false,
        Some("step-index") => true,
        Some(v) => return Err(algo.error("timing", format!("`{v}` is not `step-index` or `earliest`"))),
    };
    Ok(Algo {
        root: algo.optional_count("root")?,
        timed_by_index,
        name: algo.node.attribute("name").unwrap_or_default().to_string(),
        coll: algo.node.attribute("coll").map(str::to_string),
        ngpus: algo.optional_count("ngpus")?.unwrap_or(gpus.len()),
        nchunksperloop: algo.optional_count("nchunksperloop")?,
        nchannels: algo.optional_count("nchannels")?,
        proto: algo.node.attribute("proto").unwrap_or("Simple").to_string(),
        inplace: algo.flag("inplace")?.unwrap_or(true),
        outofplace: algo.flag("outofplace")?,
        bytes,
        gpus,
    })
}

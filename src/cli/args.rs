//! Command-line arguments (clap derive). The contract is stable: scripts use it.

use clap::{Args, Parser, Subcommand, ValueEnum};
use commsched::msccl::{Proto, XmlOptions};
use std::path::PathBuf;

/// Certify and optimise collective-communication schedules.
#[derive(Debug, Parser)]
#[command(name = "commsched", version, about, long_about = None)]
pub struct Cli {
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text, global = true)]
    pub format: Format,
    /// Size guard: refuse networks with more nodes than this (docs/spec.md §5.3).
    #[arg(long, global = true, default_value_t = commsched::spec::limits::DEFAULT_MAX_NODES)]
    pub max_nodes: u64,
    /// Size guard: refuse networks with more arcs (and switch-group members) than this,
    /// counted before the network is built (docs/spec.md §5.3).
    #[arg(long, global = true, default_value_t = commsched::spec::limits::DEFAULT_MAX_ARCS)]
    pub max_arcs: u64,
    /// Size guard: refuse instances with more items (packets, pieces) than this.
    #[arg(long, global = true, default_value_t = commsched::spec::limits::DEFAULT_MAX_ITEMS)]
    pub max_items: u64,
    /// Size guard: refuse explicit schedules with more packet hops than this (about 64 bytes
    /// per hop; `bench` skips such sizes instead).
    #[arg(long, global = true, default_value_t = commsched::spec::limits::DEFAULT_MAX_EVENTS)]
    pub max_events: u64,
    /// Size guard: refuse schedules held as itineraries (total exchange on a linear array or
    /// ring beyond --max-events; 4 bytes per hop) with more packet hops than this.
    #[arg(long, global = true, default_value_t = commsched::spec::limits::DEFAULT_MAX_COMPACT_EVENTS)]
    pub max_compact_events: u64,
    /// The subcommand.
    #[command(subcommand)]
    pub command: Command,
}

/// Pictures of a schedule (`draw --style`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Style {
    /// Arcs against steps, one coloured cell per crossing.
    SpaceTime,
    /// Paper 003's dots (links by steps, black when busy) and wires (a token's relays).
    DotWire,
    /// Paper 000's processor-time plane of a ULA, one parallelogram per message.
    Parallelogram,
}

/// How an MSCCL XML file's steps are read (`check --reading`, docs/msccl.md).
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Reading {
    /// As a runtime runs the file.
    Runtime,
    /// Step index s is schedule step s + 1 (commsched's own export).
    StepIndex,
}

/// Output formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// Human-readable text.
    Text,
    /// One JSON object.
    Json,
    /// A Markdown table (`report` only; other commands print text).
    Markdown,
    /// CSV, one row per instance (`report` only; other commands refuse it).
    Csv,
}

impl Format {
    /// The name typed after `--format`.
    pub fn name(self) -> &'static str {
        match self {
            Format::Text => "text",
            Format::Json => "json",
            Format::Markdown => "markdown",
            Format::Csv => "csv",
        }
    }
}

/// `solve --model`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ModelArg {
    /// The bandwidth (fluid) model of allgather, reduce-scatter and allreduce at scale.
    Bandwidth,
}

/// Exact backends on the command line.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum BackendArg {
    /// ILP: good_lp with the embedded microlp solver (the default).
    Ilp,
    /// SMT: z3.
    Smt,
    /// SAT: CaDiCaL, with checked LRAT proofs of infeasibility.
    Sat,
}

/// Subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Check a schedule against an instance; exit 0 if admissible, 1 if not. `check FILE.xml`
    /// alone judges an MSCCL algorithm file against the collective its header names, on
    /// `fully-connected:ngpus` unless `--network` names another (docs/msccl.md).
    Check {
        /// Instance file (TOML), or an MSCCL XML file to judge by its header.
        instance: PathBuf,
        /// Schedule file (JSON, or MSCCL XML by the `.xml` extension).
        schedule: Option<PathBuf>,
        /// Print at most this many violations, then how many were left out.
        #[arg(long, default_value_t = 100)]
        max_violations: usize,
        /// How MSCCL XML steps are read: as a runtime runs them (FIFO pairing per connection,
        /// dependencies, earliest timing), or step index s as schedule step s + 1.
        #[arg(long, value_enum, default_value_t = Reading::Runtime)]
        reading: Reading,
        /// `check FILE.xml`: the network (dgx1, ring:8, topo.json, ...) instead of
        /// fully-connected:ngpus.
        #[arg(long)]
        network: Option<String>,
        /// MSCCL XML: the collective the file implements, where its `coll` is absent or
        /// `custom` (allgather, alltoall, allreduce, reduce-scatter).
        #[arg(long)]
        collective: Option<String>,
    },
    /// Draw a schedule as a space-time diagram (SVG): arcs against steps, coloured by message
    /// or token, violations outlined in red when the checker rejects it.
    Draw {
        /// Instance file (TOML).
        instance: PathBuf,
        /// Schedule file (JSON, or MSCCL XML by the `.xml` extension).
        schedule: PathBuf,
        /// The SVG file to write.
        #[arg(short, long)]
        out: PathBuf,
        /// The picture: links against steps (every model), the dot-wire diagram of paper 003
        /// (store-and-forward on a path or ring), or the parallelograms of paper 000 (chatting
        /// on a ULA).
        #[arg(long, value_enum, default_value_t = Style::SpaceTime)]
        style: Style,
    },
    /// Print every lower bound of an instance.
    Bounds {
        /// Instance file (TOML).
        instance: PathBuf,
        /// Give up on the bounds that take time (the collective's flow LP gets half of it) and
        /// list the others.
        #[arg(long, default_value = "60")]
        timeout: String,
    },
    /// Produce a schedule with an algorithm or the exact layer, check it and report it. With
    /// `--model bandwidth`: the certified bandwidth optimum of a collective (allgather,
    /// reduce-scatter, allreduce) on `--network`, a tree packing and a tight cut.
    Solve {
        /// Instance file (TOML); with --model bandwidth, the collective.
        instance: PathBuf,
        /// An algorithm as its paper names it (see `commsched list`), or `ilp`, `smt`, `sat`,
        /// `exact` (the default backend). With --model bandwidth: `optimal` (the default, certified)
        /// or a registered algorithm, checked and set against the optimum: ring,
        /// hierarchical-ring, direct, bruck.
        #[arg(long)]
        method: Option<String>,
        /// The bandwidth model (docs/spec.md §3.5): every shard along weighted trees, time per
        /// shard the most loaded link's load over its bandwidth; the answer is certified by a
        /// cut.
        #[arg(long, value_enum)]
        model: Option<ModelArg>,
        /// With --model bandwidth: the machine (ndv2x4, rail:16x8, torus3d:4x4x4, dgx1, a
        /// node-link JSON file, ...).
        #[arg(long)]
        network: Option<String>,
        /// With --model bandwidth: a message size (bytes, or 4K, 256M, 1G: powers of 1024), for
        /// the α–β time of the optimum pipelined in its best chunk count.
        #[arg(long, value_name = "BYTES", requires = "model")]
        size: Option<String>,
        /// With --model bandwidth and --size, allgather: also the best checked schedule of the
        /// event model (docs/spec.md §3.3, TACOS's: indivisible pieces, every transfer paying
        /// the link's latency), by link-chunk matching and by the trees' pieces over a range of
        /// chunk counts.
        #[arg(long, requires = "size")]
        events: bool,
        /// Write that event schedule here (`events.json`, docs/spec.md §3.3); implies --events.
        #[arg(long, value_name = "FILE", requires = "size")]
        events_out: Option<PathBuf>,
        /// With --model bandwidth: the bandwidth in GB/s of a node-link edge that gives none
        /// (without it such an edge is an error naming it).
        #[arg(long, value_name = "GBPS", requires = "model")]
        bandwidth: Option<String>,
        /// C, the chunks per rank's data: of the instance `solve PROBLEM --network NET`
        /// generates, or with --model bandwidth of the MSCCL XML `--out` (a multiple of the least
        /// common denominator of the trees' weights, which is the default).
        #[arg(long)]
        chunks: Option<usize>,
        /// Exact-solve limits.
        #[command(flatten)]
        limits: Limits,
        /// Write the checked schedule here: MSCCL XML if the file ends in `.xml` (total exchange,
        /// gossip and the collectives but scatter and gather, docs/msccl.md; with --model
        /// bandwidth, the packing's trees pipelined in C chunks), JSON otherwise.
        #[arg(long)]
        out: Option<PathBuf>,
        /// What an MSCCL XML `--out` asks of the runtime.
        #[command(flatten)]
        xml: XmlArgs,
        /// Write a certificate folder here when the answer is a certified optimum: the
        /// instance, the witness, the lower-bound argument or the CNF and LRAT proof at T − 1,
        /// and a manifest with hashes (`commsched verify DIR` re-checks it).
        #[arg(long)]
        certificate: Option<PathBuf>,
        /// A schedule of the instance (JSON, or MSCCL XML) for the exact search to start from:
        /// it is checked, and when it is shorter than every algorithm's it is the incumbent, so
        /// the search only has to prove that nothing shorter exists (exact methods only).
        #[arg(long)]
        incumbent: Option<PathBuf>,
        /// Decide one point instead of searching for the optimum: is there a schedule of at
        /// most S steps? The answer is a checked witness, or "infeasible" with its evidence
        /// (a bound, a checked proof with sat, the solver's word with ilp and smt); with
        /// --certificate, a folder that `verify` re-checks (exact methods only).
        #[arg(long, value_name = "S")]
        steps: Option<u64>,
        /// With --steps, on a collective: the round budget R (SCCL's (S, R, C) question),
        /// replacing the instance's.
        #[arg(long, value_name = "R", requires = "steps")]
        rounds: Option<u64>,
        /// With --steps and --keep: a store-and-forward schedule of the instance (JSON, or MSCCL
        /// XML) whose first K steps the witness keeps; the solver only completes them. A
        /// witness is a schedule of the instance; "no schedule ... keeps the first K steps"
        /// proves nothing about the instance.
        #[arg(long, value_name = "SCHEDULE", requires_all = ["steps", "keep"])]
        complete: Option<PathBuf>,
        /// With --complete: K, the steps of its schedule kept (1 ≤ K ≤ S).
        #[arg(long, value_name = "K", requires = "complete")]
        keep: Option<u64>,
    },
    /// Describe a network: nodes, links with their bandwidths, switch groups and diameter;
    /// with --out, draw it as SVG.
    Topology {
        /// A network as `gen --network` takes it (dgx1, ring:8, hub-and-spoke:4, topo.json, a
        /// machine at scale such as ndv2x4), or an instance file (*.toml) for its network.
        network: String,
        /// Draw the network into this SVG file.
        #[arg(long)]
        out: Option<PathBuf>,
    },
    /// The bandwidth model per machine: the certified optimum's algbw and, for each registered
    /// algorithm (ring, hierarchical-ring, direct, bruck), its checked algbw and the share of
    /// the optimum it reaches.
    Algbw {
        /// allgather, reduce-scatter or allreduce.
        collective: String,
        /// The machines, comma-separated (ndv2x4,dgx2x2,rail:16x8, node-link JSON files, ...).
        #[arg(long, value_delimiter = ',', required = true)]
        network: Vec<String>,
        /// The bandwidth of a node-link edge that gives none, GB/s.
        #[arg(long)]
        bandwidth: Option<String>,
        /// Seconds for each machine's optimum; past it the row shows the cut bound.
        #[arg(long, default_value = "600")]
        timeout: String,
    },
    /// Walk SCCL's latency-bandwidth frontier of a collective: for C = 1, 2, ... the least
    /// rounds R, then the least steps S; each point with its certificate, each refuted (C, R)
    /// with its evidence; ends when R/C meets the multicommodity-flow bound.
    Pareto {
        /// A collective (allgather, alltoall, broadcast, scatter, gather) with --network, or a
        /// collective instance file (*.toml).
        target: String,
        /// The network, as `gen --network` takes it (dgx1, amd4, topo.json, ...).
        #[arg(long)]
        network: Option<String>,
        /// The root of a broadcast, scatter or gather (default 0).
        #[arg(long)]
        root: Option<usize>,
        /// The largest C tried.
        #[arg(long, default_value_t = 8)]
        max_chunks: usize,
        /// exact (the encoder's measured first backend), ilp, smt or sat.
        #[arg(long, default_value = "exact")]
        method: String,
        /// Limits of each decision (the timeout applies to each solve on its own).
        #[command(flatten)]
        limits: Limits,
        /// Write a certificate folder `cC-rR` per point and per refuted (C, R) under this
        /// directory (`verify` re-checks each).
        #[arg(long)]
        certificate: Option<PathBuf>,
        /// Write every point as MSCCL XML under this directory, `cC-rR.xml` (`check FILE.xml
        /// --network NET` gives back its S and R).
        #[arg(long)]
        xml: Option<PathBuf>,
        /// What the XML files ask of the runtime.
        #[command(flatten)]
        xml_args: XmlArgs,
        /// Walk only shard I of N (`I/N`, 0 ≤ I < N): the C of 1..=--max-chunks with C − 1 ≡ I
        /// (mod N), so N jobs of a cluster array walk every C once. Needs --certificate DIR,
        /// where the shard also writes its summary `walk.json` and the instance; `merge DIR...`
        /// joins the shards into the walk one machine makes.
        #[arg(long)]
        shard: Option<String>,
    },
    /// For each message size, the cheapest of every certified Pareto point and every registered
    /// algorithm under the α–β cost base + α·S + (M/d/C)·R/b (docs/spec.md §4.6), with its
    /// time, algbw, busbw, the lower bound and the gap; the byte ranges over which each is the
    /// cheapest, and with --xml the MSCCL algorithm set that a runtime loads.
    Tune {
        /// A collective (allgather, alltoall, broadcast, …) with --network, or a collective
        /// instance file (*.toml).
        target: String,
        /// The network, as `gen --network` takes it (dgx1, amd4, topo.json, ...), or a machine at
        /// scale (ndv2x4, rail:16x8, a node-link file): then the optimum's and the registered
        /// algorithms' packings, priced as pipelines (docs/spec.md §4.6, "At scale").
        #[arg(long)]
        network: Option<String>,
        /// The root of a broadcast, scatter or gather (default 0).
        #[arg(long)]
        root: Option<usize>,
        /// The message sizes (MSCCL's bytes, nccl-tests' size): a list `1K,1M,4G` or every power
        /// of two in a range `1K..4G`.
        #[arg(long, default_value = "1K..4G")]
        sizes: String,
        /// α, the latency of one step in µs (default: the preset's per-hop latency).
        #[arg(long)]
        alpha: Option<f64>,
        /// b, GB/s of a link of bandwidth 1 (one NVLink lane of the dgx1 topology: 25).
        #[arg(long, default_value_t = 25.0)]
        bandwidth: f64,
        /// NCCL's latency constants (src/graph/tuning.cc, ring, NVLink): nccl-simple, nccl-ll128,
        /// nccl-ll, or none (no base latency; --alpha required).
        #[arg(long, default_value = "nccl-simple")]
        preset: String,
        /// The largest C of the Pareto walk and of the algorithms.
        #[arg(long, default_value_t = 6)]
        max_chunks: usize,
        /// The exact method of the walk: exact, ilp, smt or sat.
        #[arg(long, default_value = "exact")]
        method: String,
        /// Limits of the walk's decisions.
        #[command(flatten)]
        limits: Limits,
        /// Write the chosen schedules here as an MSCCL algorithm set: one file per range, its
        /// minBytes/maxBytes the range (the last maxBytes="0": every larger size).
        #[arg(long)]
        xml: Option<PathBuf>,
        /// What the XML files ask of the runtime.
        #[command(flatten)]
        xml_args: XmlArgs,
        /// Draw algbw against size (log scale) with the bound, as SVG.
        #[arg(long)]
        plot: Option<PathBuf>,
    },
    /// Re-check a certificate folder written by `solve --certificate`: the hashes, the witness,
    /// the lower bound or the CNF (re-encoded) and its proof; on a folder of such folders (`pareto
    /// --certificate`), every one of them. Exit 0 if valid, 1 if not.
    Verify {
        /// The folder.
        dir: PathBuf,
    },
    /// Write the exact model of instances (`.lp` for ilp, `.smt2` for smt, `.cnf` for sat).
    Export {
        /// Instance files or directories (searched recursively for *.toml).
        #[arg(required = true)]
        paths: Vec<PathBuf>,
        /// The backend whose format to write.
        #[arg(long, value_enum, default_value_t = BackendArg::Ilp)]
        backend: BackendArg,
        /// Output directory.
        #[arg(long, default_value = "models")]
        out: PathBuf,
        /// The horizon T of the model (default: the checked length of the best registered
        /// algorithm's schedule, so the model is satisfiable; T* − 1 gives the model whose
        /// infeasibility certifies an optimum T*).
        #[arg(long)]
        horizon: Option<u64>,
        /// Size guard: refuse models with more variables than this.
        #[arg(long, default_value_t = 200_000)]
        max_vars: usize,
    },
    /// Write an instance of any family to stdout (TOML).
    Gen(GenArgs),
    /// Report lower bounds, algorithms, exact optima and paper claims for instances.
    Report {
        /// Instance files or directories (default: instances/).
        paths: Vec<PathBuf>,
        /// Write report.txt, report.md, report.json and report.csv into this directory.
        #[arg(long)]
        out: Option<PathBuf>,
        /// Assess this many instances in parallel (results stay in input order).
        #[arg(long, default_value_t = 1)]
        jobs: usize,
        /// Assess only shard I of N (`I/N`, 0 ≤ I < N): the files whose position in the sorted
        /// list is I modulo N, so N jobs of a cluster array cover every instance once.
        #[arg(long)]
        shard: Option<String>,
        /// Keep each instance's result in this directory and reuse it: an interrupted report
        /// run again with the same cache assesses only what is missing (results are keyed by the
        /// version, commit, backend, limits and the instance's bytes; cached schedules are
        /// checked again).
        #[arg(long)]
        cache: Option<PathBuf>,
        /// Exact backend (default: the measured choice per problem, as `solve --method exact`),
        /// or skip the exact layer with --no-exact.
        #[arg(long, value_enum)]
        backend: Option<BackendArg>,
        /// Skip the exact layer.
        #[arg(long)]
        no_exact: bool,
        /// Exact-solve limits.
        #[command(flatten)]
        limits: Limits,
    },
    /// Join the JSON reports of shards (`report --shard I/N --format json`, or report.json of
    /// `report --out`) into one report, in the format asked, or all formats and the plots with
    /// --out. Or join the shards of a Pareto walk (`pareto --shard I/N --certificate DIR`) into
    /// the walk one machine makes, every folder re-checked: text, or --format json.
    Merge {
        /// The JSON reports, or the shards' folders (or the `walk.json` in each).
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Write report.txt, report.md, report.json, report.csv and the plots into this
        /// directory.
        #[arg(long)]
        out: Option<PathBuf>,
    },
    /// List the methods for every problem.
    List,
    /// Measure each chatting algorithm (paper 000) against the certified optimum on seeded
    /// random instances: max and mean of length / optimum and the paper's proven ratio. Prints a
    /// Markdown table; instances whose exact solve stops with bounds are skipped and counted.
    Ratios {
        /// Network families.
        #[arg(long, value_enum, value_delimiter = ',', default_value = "ula,path,esm,mesh,tree")]
        family: Vec<RatioFamily>,
        /// Random draws per family (each scheduled unit-length and variable-length, as chatting
        /// and as virtual schedules).
        #[arg(long, default_value_t = 200)]
        count: usize,
        /// Seed of the random draws.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Most messages per draw (1..=12).
        #[arg(long, default_value_t = 8)]
        messages: usize,
        /// Longest message of the variable-length instances, flits.
        #[arg(long, default_value_t = 4, allow_hyphen_values = true)]
        max_len: i64,
        /// Exact backend.
        #[arg(long, value_enum, default_value_t = BackendArg::Ilp)]
        backend: BackendArg,
        /// Limits of each exact solve.
        #[command(flatten)]
        limits: Limits,
        /// Write ratios.md, ratios.csv, ratios-FAMILY.svg and the counterexamples here.
        #[arg(long)]
        out: Option<PathBuf>,
    },
    /// Measure checker throughput and generate-and-check times; prints a table.
    /// Sizes whose total exchange needs more packet hops than `--max-events` are skipped.
    Bench {
        /// Sizes n of path(n) and ring(n).
        #[arg(long, value_delimiter = ',', default_value = "64,128,256,512,1024")]
        sizes: Vec<usize>,
        /// Also scatter and gather (paper 001) on a seeded random tree of NODES nodes carrying
        /// FLITS flits in all, e.g. `100000:1000000` (none by default).
        #[arg(long, value_delimiter = ',')]
        trees: Vec<String>,
        /// Also broadcast, product and prefix (paper 002) on fat-tree:N for each N, e.g.
        /// `65536,1048576` (none by default).
        #[arg(long, value_delimiter = ',')]
        fat_trees: Vec<usize>,
        /// Messages of each random chatting instance (paper 000's algorithms).
        #[arg(long, default_value_t = 10_000)]
        messages: usize,
        /// Random 12-message ULA chatting instances the exact layer certifies alone (0: none).
        #[arg(long, default_value_t = 20)]
        exact_draws: usize,
        /// Random 12-node trees whose distributed gather `solve --method exact` certifies (0:
        /// none).
        #[arg(long, default_value_t = 10)]
        tree_draws: usize,
        /// Instead, the exact table: per instance and backend, seconds to decide the exact model
        /// at the optimum T* (a witness) and at T* − 1 (infeasible).
        #[arg(long)]
        exact: bool,
        /// Instance files or directories for `--exact` (default: a small set, one per encoder
        /// family).
        instances: Vec<PathBuf>,
        /// Time limit, in seconds, of each exact solve (`--exact-draws`, `--tree-draws`) or decision
        /// (`--exact`).
        #[arg(long, default_value = "10")]
        timeout: String,
        /// Instead, MSCCL XML import: per file (or every `.xml` in a directory), milliseconds to
        /// parse, to run it as a runtime does and to check the schedule, median of 5.
        #[arg(long, num_args = 1.., value_name = "PATH")]
        msccl: Vec<PathBuf>,
    },
    /// Measure a paper's table over sizes: writes a CSV and an SVG plot into a directory.
    Sweep {
        /// The family: `fat-tree` (Table 1 of paper 002, broadcast).
        family: SweepFamily,
        /// Output directory.
        #[arg(long)]
        out: PathBuf,
        /// Largest log2 N (N = 2^2 ... 2^max-log).
        #[arg(long, default_value_t = 20)]
        max_log: u32,
        /// Capacity functions, one line each.
        #[arg(
            long,
            value_delimiter = ',',
            default_value = "const:1,log+1,rootloglog,explog:0.5,pow:0.5,pow:1"
        )]
        capacities: Vec<String>,
    },
}

/// The families `sweep` measures.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum SweepFamily {
    /// Broadcast on the ideal fat-tree (paper 002, Table 1).
    FatTree,
}

/// Network families of `ratios` (paper 000's chatting algorithms).
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum RatioFamily {
    /// Unidirectional linear arrays ula:3..8.
    Ula,
    /// Bidirectional linear arrays path:3..8 (two ULAs).
    Path,
    /// East-south meshes esm:2..4.
    Esm,
    /// Full meshes mesh:2..3x2..3 (four ESMs).
    Mesh,
    /// Random trees of 3..8 nodes.
    Tree,
}

/// What an exported MSCCL XML file asks of the runtime (docs/msccl.md, "The mapping").
#[derive(Debug, Clone, Args)]
pub struct XmlArgs {
    /// MSCCL XML output: the protocol the runtime runs it with (Simple, LL, LL128).
    #[arg(long, default_value = "Simple", value_parser = parse_proto)]
    pub proto: Proto,
    /// MSCCL XML output: refuse a schedule whose file needs more thread blocks on some rank
    /// (export uses as few as the schedule's connections allow).
    #[arg(long, value_name = "N")]
    pub max_thread_blocks: Option<usize>,
    /// MSCCL XML output: split each step's transfer on a connection into up to K ranges, one
    /// channel each, which the runtime runs in parallel (default: one range per transfer).
    #[arg(long, value_name = "K", value_parser = clap::value_parser!(u64).range(1..=32))]
    pub channels: Option<u64>,
}

impl XmlArgs {
    /// The export options.
    pub fn options(&self) -> XmlOptions {
        XmlOptions {
            proto: self.proto,
            max_thread_blocks: self.max_thread_blocks,
            bytes: None,
            channels: self.channels.map(|k| k as usize),
        }
    }
}

fn parse_proto(s: &str) -> Result<Proto, String> {
    Proto::parse(s).ok_or_else(|| format!("`{s}` is not a protocol: Simple, LL or LL128"))
}

/// Resource limits of an exact solve.
#[derive(Debug, Clone, Args)]
pub struct Limits {
    /// Give up after this many seconds and report bounds.
    #[arg(long, default_value = "60")]
    pub timeout: String,
    /// Size guard: refuse exact models with more variables than this.
    #[arg(long, default_value_t = 200_000)]
    pub max_vars: usize,
    /// Do not ask the restricted model for witnesses (gossip on a mesh or torus: every token
    /// along shortest paths, in schedules the grid's rotations map to themselves where it has
    /// such rotations; pipelined product and prefix on a fat-tree: reversible broadcasts),
    /// neither at the lower bound first nor past the size guard.
    #[arg(long)]
    pub no_symmetry: bool,
}

/// `commsched gen` arguments.
#[derive(Debug, Clone, Default, Args)]
pub struct GenArgs {
    /// Problem: chatting, scatter, gather, total-exchange, gossip, broadcast, product, prefix, or a
    /// collective of the collective model: allgather, alltoall, reduce, reduce-scatter, allreduce
    /// (and broadcast, scatter, gather with --chunks, --root or a network with bandwidths).
    pub problem: String,
    /// Network: path:6, ring:7, uring:5, ula:8, mesh:4x4, torus:5x5, esm:4, tree:0,0,1,
    /// fat-tree:16, a named machine (fully-connected:N, star:N, hub-and-spoke:N, dgx1, dgx2,
    /// dgx-a100, amd4, amd8), or an SCCL / msccl-tools topology JSON file (`topo.json`).
    #[arg(long)]
    pub network: String,
    /// Instance name (default: PROBLEM-NETWORK).
    #[arg(long)]
    pub name: Option<String>,
    /// Store-and-forward rule: F*, H*, F1, H1.
    #[arg(long)]
    pub rule: Option<String>,
    /// Tokens per packet (store-and-forward).
    #[arg(long)]
    pub packet: Option<usize>,
    /// Bufferless port rule: multi or single.
    #[arg(long)]
    pub port: Option<String>,
    /// Bufferless: virtual schedules.
    #[arg(long)]
    pub r#virtual: bool,
    /// Gather: check as distributed.
    #[arg(long)]
    pub distributed: bool,
    /// Fat-tree capacity: const:C, log+1, pow:B, explog:B, rootloglog, table:W1,W2,...
    #[arg(long)]
    pub capacity: Option<String>,
    /// Fat-tree: round model (`--rounds`); collective model: the budget R of rounds over all
    /// steps (`--rounds 7`; without it every step has one round).
    #[arg(long, num_args = 0..=1, default_missing_value = "on", value_name = "R")]
    pub rounds: Option<String>,
    /// Collective model: the chunks C each rank's data is cut into (default 1).
    #[arg(long)]
    pub chunks: Option<usize>,
    /// Collective model: the root of a broadcast, scatter or gather (default 0).
    #[arg(long)]
    pub root: Option<usize>,
    /// Ring tie rule: clockwise, counterclockwise, alternating.
    #[arg(long)]
    pub ring_tie: Option<String>,
    /// Scatter/gather lengths L_1,...,L_n.
    #[arg(long, value_delimiter = ',', allow_hyphen_values = true)]
    pub lengths: Vec<i64>,
    /// Chatting messages as SRC-DST:LEN, comma-separated.
    #[arg(long, value_delimiter = ',')]
    pub messages: Vec<String>,
    /// Scatter/gather off a tree: route every message over `bfs` (one breadth-first spanning
    /// tree), `cover` (one tree per edge of P_0, jointly spanning) or `spanning:K` (K
    /// edge-disjoint spanning trees), every node preallocated to one tree (paper 001 §4).
    #[arg(long)]
    pub routes: Option<String>,
}

impl GenArgs {
    /// The library's request for these flags.
    pub fn request(&self) -> commsched::generate::Request {
        let g = self.clone();
        commsched::generate::Request {
            problem: g.problem,
            network: g.network,
            name: g.name,
            rule: g.rule,
            packet: g.packet,
            port: g.port,
            virtual_schedule: g.r#virtual,
            distributed: g.distributed,
            capacity: g.capacity,
            rounds: g.rounds,
            chunks: g.chunks,
            root: g.root,
            ring_tie: g.ring_tie,
            lengths: g.lengths,
            messages: g.messages,
            routes: g.routes,
        }
    }
}

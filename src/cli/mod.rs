//! The command-line interface: one small function per subcommand, all on the library's one
//! pipeline ([`commsched::compare::assess()`]). Exit codes are a contract: 0 admissible / solved,
//! 1 inadmissible schedule, 2 bad input or error, 3 a report written with some instance files
//! unassessable (their rows carry the error).

pub mod args;
mod bandwidth;
mod bench;
mod bounds;
mod check;
mod decide;
mod draw;
mod events;
mod export;
mod generate;
mod list;
mod pareto;
mod ratios;
mod report;
mod results;
mod solve;
mod summary;
mod sweep;
mod topology;
mod tune;
mod verify;

use args::{BackendArg, Cli, Command, Format, GenArgs, Limits};
use commsched::compare::ratios::RatioOptions;
use commsched::compare::{Algorithms, AssessOptions};
use commsched::error::{Error, InputError, Result};
use commsched::exact::{self, BackendChoice, BackendKind, SolveOptions};
use commsched::heuristics;
use commsched::spec::Instance;
use commsched::spec::io::{instance_to_toml, load_instance};
use commsched::spec::limits::Resource;
use std::io::Write;
use std::path::Path;
use std::time::Duration;

/// Runs the CLI, printing what the command prints into `out` (the binary passes stdout, the
/// Python bindings a buffer); returns the exit code (0 or 1) or an error (exit code 2).
pub fn run(cli: Cli, out: &mut dyn Write) -> Result<u8> {
    let format = cli.format;
    for (resource, limit) in [
        (Resource::Nodes, cli.max_nodes),
        (Resource::Arcs, cli.max_arcs),
        (Resource::Items, cli.max_items),
        (Resource::Events, cli.max_events),
        (Resource::CompactEvents, cli.max_compact_events),
    ] {
        resource.set_limit(limit);
    }
    refuse_format(&cli.command, format)?;
    match cli.command {
        Command::Check { instance, schedule, max_violations, reading, network, collective } => {
            let msccl =
                check::MscclFlags { reading, network: network.as_deref(), collective: collective.as_deref() };
            check::check(&instance, schedule.as_deref(), max_violations, &msccl, format, out)
        }
        Command::Draw { instance, schedule, out: file, style } => {
            draw::draw(&instance, &schedule, &file, style, out)
        }
        Command::Bounds { instance, timeout } => {
            bounds::bounds(&instance, timeout_flag(timeout)?, format, out)
        }
        Command::Solve {
            instance,
            model: Some(args::ModelArg::Bandwidth),
            network,
            limits,
            out: file,
            certificate,
            method,
            steps,
            size,
            events,
            events_out,
            bandwidth: default_bandwidth,
            chunks,
            xml,
            ..
        } => {
            bandwidth::refuse_discrete_flags(steps)?;
            let args = bandwidth::Args {
                collective: &instance.display().to_string(),
                method: method.as_deref(),
                network: network.as_deref(),
                size: size.as_deref(),
                events: events || events_out.is_some(),
                events_out: events_out.as_deref(),
                default_bandwidth: default_bandwidth.as_deref(),
                timeout: solve_options(&limits)?.timeout,
                out: file.as_deref(),
                chunks,
                xml: xml.options(),
                certificate: certificate.as_deref(),
            };
            bandwidth::solve(&args, format, out)
        }
        Command::Tune {
            target,
            network,
            root,
            sizes,
            alpha,
            bandwidth,
            preset,
            max_chunks,
            method,
            limits,
            xml,
            xml_args,
            plot,
        } => {
            let args = tune::TuneArgs {
                target: &target,
                network: network.as_deref(),
                root,
                sizes: &sizes,
                alpha,
                bandwidth,
                preset: &preset,
                max_chunks,
                method: &method,
                limits: &limits,
                xml: xml.as_deref(),
                xml_options: xml_args.options(),
                plot: plot.as_deref(),
            };
            tune::tune(&args, format, out)
        }
        Command::Solve {
            instance,
            method,
            limits,
            out: file,
            certificate,
            steps: Some(steps),
            rounds,
            incumbent,
            complete,
            keep,
            network,
            chunks,
            xml,
            ..
        } => {
            if incumbent.is_some() {
                return Err(InputError::new(
                    "<flags>",
                    "--incumbent",
                    "starts a search; --steps decides one point",
                )
                .into());
            }
            let files = decide::Files {
                out: file.as_deref(),
                xml: xml.options(),
                certificate: certificate.as_deref(),
            };
            let question = decide::Question { steps, rounds, complete: complete.as_deref().zip(keep) };
            let inst = solve_target(&instance, network.as_deref(), chunks)?;
            let method = required_method(method)?;
            decide::decide((&inst, &instance), &method, question, &limits, files, format, out)
        }
        Command::Algbw { collective, network, bandwidth: default_bandwidth, timeout } => {
            let timeout = timeout_flag(timeout)?;
            bandwidth::algbw(&collective, &network, default_bandwidth.as_deref(), timeout, format, out)
        }
        Command::Topology { network, out: svg } => topology::topology(&network, svg.as_deref(), format, out),
        Command::Pareto {
            target,
            network,
            root,
            max_chunks,
            method,
            limits,
            certificate,
            xml,
            xml_args,
            shard,
        } => {
            let args = pareto::ParetoArgs {
                target: &target,
                network: network.as_deref(),
                root,
                max_chunks,
                method: &method,
                limits: &limits,
                certificate: certificate.as_deref(),
                xml: xml.as_deref(),
                xml_options: xml_args.options(),
                shard: shard.as_deref(),
            };
            pareto::pareto(&args, format, out)
        }
        Command::Solve {
            instance,
            method,
            limits,
            out: file,
            certificate,
            incumbent,
            network,
            chunks,
            steps: None,
            xml,
            ..
        } => {
            let files = solve::SolveFiles {
                out: file.as_deref(),
                xml: xml.options(),
                certificate: certificate.as_deref(),
                incumbent: incumbent.as_deref(),
            };
            let inst = solve_target(&instance, network.as_deref(), chunks)?;
            let method = required_method(method)?;
            solve::solve(&inst, &instance, &method, &limits, files, format, out)
        }
        Command::Verify { dir } => verify::verify(&dir, out),
        Command::Export { paths, backend, out: dir, horizon, max_vars } => {
            export::export(&paths, backend, &dir, horizon, max_vars, out)
        }
        Command::Gen(g) => {
            let inst = generate::generate(&g)?;
            write!(out, "{}", instance_to_toml(&inst)).map_err(io_err("<stdout>"))?;
            Ok(0)
        }
        Command::Report { paths, out: dir, backend: b, no_exact, limits, jobs, shard, cache } => {
            report::report(
                &paths,
                dir.as_deref(),
                (!no_exact).then(|| b.map_or(BackendChoice::Measured, |b| backend(b).into())),
                &limits,
                (jobs, shard.as_deref(), cache.as_deref()),
                format,
                out,
            )
        }
        Command::Merge { files, out: dir } if files.iter().any(|f| pareto::is_walk(f)) => {
            pareto::merge(&files, dir.as_deref(), format, out)
        }
        Command::Merge { files, out: dir } => {
            let report = results::merge(&files)?;
            report::write_report(&report, dir.as_deref(), format, out)?;
            Ok(if report.failed > 0 { 3 } else { 0 })
        }
        Command::List => list::list(format, out),
        Command::Ratios { family, count, seed, messages, max_len, backend: b, limits, out: dir } => {
            let solve = solve_options(&limits)?;
            let options = family.iter().map(|&f| RatioOptions {
                family: ratios::family(f),
                count,
                seed,
                messages,
                max_len,
                backend: backend(b),
                solve: solve.clone(),
            });
            ratios::ratios(options.collect(), dir.as_deref(), out)
        }
        Command::Bench {
            sizes,
            trees,
            fat_trees,
            messages,
            exact_draws,
            tree_draws,
            exact: run_exact,
            instances,
            timeout,
            msccl: files,
        } => {
            if !files.is_empty() {
                return bench::msccl(&files, out);
            }
            let timeout = timeout_flag(timeout)?;
            if run_exact {
                bench::exact(&instances, timeout.as_secs_f64(), out)
            } else {
                let chatting = bench::Chatting { messages, exact_draws, tree_draws, exact_timeout: timeout };
                bench::run(&sizes, &trees, &fat_trees, cli.max_events, &chatting, format, out)
            }
        }
        Command::Sweep { family: args::SweepFamily::FatTree, out: dir, max_log, capacities } => {
            sweep::run(&capacities, max_log, cli.max_nodes, &dir, out)
        }
    }
}

/// `solve`'s `--method`, which every model but the bandwidth model needs.
fn required_method(method: Option<String>) -> Result<String> {
    method.ok_or_else(|| {
        InputError::new(
            "<flags>",
            "--method",
            "is required: an algorithm (see `commsched list`) or exact, ilp, smt, sat",
        )
        .into()
    })
}

/// The instance `solve` works on: an instance file, or with `--network` a problem's name that
/// `gen` turns into one with its defaults (`solve allgather --network dgx1`: C = 1, no round
/// budget; `commsched gen` writes other instances).
fn solve_target(target: &Path, network: Option<&str>, chunks: Option<usize>) -> Result<Instance> {
    let Some(network) = network else {
        if chunks.is_some() {
            return Err(InputError::new(
                "<flags>",
                "--chunks",
                "an instance file names its own C: --chunks goes with `solve PROBLEM --network NET`",
            )
            .into());
        }
        return Ok(load_instance(target)?);
    };
    let problem = target.display().to_string();
    if problem.ends_with(".toml") {
        return Err(InputError::new(
            "<flags>",
            "--network",
            "an instance file names its own network: --network goes with a problem's name (allgather, gossip, ...) or with --model bandwidth",
        )
        .into());
    }
    generate_named(&problem, network, None, chunks)
}

/// The instance `gen PROBLEM --network NET [--root R] [--chunks C]` writes, the short form of
/// `solve`, `pareto` and `tune`.
fn generate_named(
    problem: &str,
    network: &str,
    root: Option<usize>,
    chunks: Option<usize>,
) -> Result<Instance> {
    generate::generate(&GenArgs {
        problem: problem.to_string(),
        network: network.to_string(),
        root,
        chunks,
        ..GenArgs::default()
    })
}

/// Refuses a `--format` a command cannot honour, naming the flag: `csv` is a report table,
/// `gen` writes a TOML instance, `export` and `draw` write files.
fn refuse_format(command: &Command, format: Format) -> Result<()> {
    let (name, takes): (&str, &[Format]) = match command {
        Command::Report { .. } => ("report", &[Format::Text, Format::Json, Format::Markdown, Format::Csv]),
        Command::Merge { .. } => ("merge", &[Format::Text, Format::Json, Format::Markdown, Format::Csv]),
        Command::Gen(_) => ("gen", &[Format::Text]),
        Command::Export { .. } => ("export", &[Format::Text]),
        Command::Draw { .. } => ("draw", &[Format::Text]),
        Command::Check { .. } => ("check", &[Format::Text, Format::Json, Format::Markdown]),
        Command::Bounds { .. } => ("bounds", &[Format::Text, Format::Json, Format::Markdown]),
        Command::Solve { .. } => ("solve", &[Format::Text, Format::Json, Format::Markdown]),
        Command::Pareto { .. } => ("pareto", &[Format::Text, Format::Json]),
        Command::Tune { .. } => ("tune", &[Format::Text, Format::Json, Format::Csv]),
        Command::Topology { .. } => ("topology", &[Format::Text, Format::Json]),
        Command::Algbw { .. } => ("algbw", &[Format::Text, Format::Json]),
        Command::List => ("list", &[Format::Text, Format::Json, Format::Markdown]),
        Command::Bench { exact: true, .. } => ("bench --exact", &[Format::Text]),
        Command::Bench { msccl, .. } if !msccl.is_empty() => ("bench --msccl", &[Format::Text]),
        Command::Bench { .. } => ("bench", &[Format::Text, Format::Json, Format::Markdown]),
        Command::Verify { .. } => ("verify", &[Format::Text]),
        // It prints its CSV table either way and writes the CSV and SVG files.
        Command::Sweep { .. } => ("sweep", &[Format::Text, Format::Csv]),
        Command::Ratios { .. } => ("ratios", &[Format::Text, Format::Markdown]),
    };
    if takes.contains(&format) {
        return Ok(());
    }
    let names: Vec<&str> = takes.iter().map(|f| f.name()).collect();
    Err(InputError::new(
        "<flags>",
        "--format",
        format!("`{}` is not an output of {name}, which prints {}", format.name(), names.join(", ")),
    )
    .into())
}

fn io_err(path: &str) -> impl Fn(std::io::Error) -> Error + '_ {
    move |source| Error::Io { path: path.to_string(), source }
}

fn backend(b: BackendArg) -> BackendKind {
    match b {
        BackendArg::Ilp => BackendKind::Ilp,
        BackendArg::Smt => BackendKind::Smt,
        BackendArg::Sat => BackendKind::Sat,
    }
}

/// The exit code of a search that stopped at its limit before it ended (`pareto`).
pub(crate) const STOPPED: u8 = 4;

/// The longest `--timeout` accepted, in seconds (about 115 days).
const MAX_TIMEOUT: f64 = 1e7;

/// A `--timeout` of a command without the other limits.
fn timeout_flag(timeout: String) -> Result<Duration> {
    let limits = Limits { timeout, max_vars: exact::DEFAULT_MAX_VARIABLES, no_symmetry: false };
    Ok(solve_options(&limits)?.timeout.expect("solve_options sets a timeout"))
}

fn solve_options(limits: &Limits) -> Result<SolveOptions> {
    let typed = &limits.timeout;
    let seconds =
        typed.trim().parse::<f64>().ok().filter(|t| *t > 0.0 && *t <= MAX_TIMEOUT).ok_or_else(|| {
            InputError::new(
                "<flags>",
                "--timeout",
                format!("`{typed}` is not a number of seconds in (0, {MAX_TIMEOUT:e}]"),
            )
        })?;
    Ok(SolveOptions {
        timeout: Some(Duration::from_secs_f64(seconds)),
        max_variables: limits.max_vars,
        proof_dir: None,
        symmetric: !limits.no_symmetry,
    })
}

/// Attributes an error about an instance (file left empty by the library) to its file.
fn in_file(file: &Path) -> impl Fn(Error) -> Error + '_ {
    move |e| match e {
        Error::Input(i) if i.file.is_empty() => Error::Input(i.in_file(file.display().to_string())),
        e => e,
    }
}

/// What `--method` asks for: one algorithm, or the exact layer with a backend (`exact` = the
/// default backend), which also runs every applicable algorithm for its incumbent.
/// The exact backend a `--method` names, `None` for an algorithm.
fn exact_choice(method: &str) -> Option<BackendChoice> {
    match method {
        "exact" => Some(BackendChoice::Measured),
        "ilp" => Some(BackendKind::Ilp.into()),
        "smt" => Some(BackendKind::Smt.into()),
        "sat" => Some(BackendKind::Sat.into()),
        _ => None,
    }
}

fn assess_options(method: &str, limits: &Limits) -> Result<AssessOptions> {
    let exact = exact_choice(method);
    let algorithms = match exact {
        Some(_) => Algorithms::Applicable,
        None => Algorithms::Only(heuristics::find(method).ok_or_else(|| {
            InputError::new(
                "<flags>",
                "--method",
                format!(
                    "unknown method `{method}`: an algorithm `commsched list` names, or exact, ilp, smt, sat"
                ),
            )
        })?),
    };
    Ok(AssessOptions { algorithms, exact, solve: solve_options(limits)?, fail_fast: true })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn limits(timeout: &str) -> Limits {
        Limits { timeout: timeout.into(), max_vars: exact::DEFAULT_MAX_VARIABLES, no_symmetry: false }
    }

    #[test]
    fn a_timeout_is_a_positive_number_of_seconds_within_the_cap() {
        let options = solve_options(&limits(" 2.5 ")).unwrap();
        assert_eq!(options.timeout, Some(Duration::from_millis(2500)));
        assert!(options.symmetric);
        for bad in ["0", "-1", "nan", "1e8", "soon"] {
            let e = solve_options(&limits(bad)).unwrap_err().to_string();
            assert!(e.contains("--timeout") && e.contains(&format!("`{bad}`")), "{e}");
        }
    }

    #[test]
    fn a_method_is_an_exact_backend_or_a_registered_algorithm() {
        assert!(matches!(exact_choice("exact"), Some(BackendChoice::Measured)));
        assert!(exact_choice("furthest-first").is_none());
        let a = assess_options("furthest-first", &limits("1")).unwrap();
        assert!(matches!(a.algorithms, Algorithms::Only(m) if m.name == "furthest-first"));
        assert!(a.exact.is_none());
        let Err(e) = assess_options("fastest", &limits("1")) else { panic!("an unknown method is refused") };
        let e = e.to_string();
        assert!(e.contains("--method") && e.contains("unknown method `fastest`"), "{e}");
    }
}

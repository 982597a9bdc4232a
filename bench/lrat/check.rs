//! `lrat CNF PROOF`: checks an ASCII LRAT proof against a DIMACS CNF with commsched's checker
//! (`commsched::proof::lrat::check_files`) and prints the verdict and the seconds it took. It is
//! the commsched side of `bench/lrat/run.sh`, which builds this same file against the current
//! crate and against an older revision's checker; `cargo bench --bench lrat -- CNF PROOF` runs
//! it alone.

use std::path::Path;
use std::process::ExitCode;
use std::time::Instant;

fn main() -> ExitCode {
    // `cargo bench` passes `--bench`; every other argument is a path.
    let args: Vec<String> = std::env::args().skip(1).filter(|a| !a.starts_with("--")).collect();
    let [cnf, proof] = &args[..] else {
        eprintln!("usage: lrat CNF PROOF");
        return ExitCode::from(2);
    };
    let start = Instant::now();
    let verdict = commsched::proof::lrat::check_files(Path::new(cnf), Path::new(proof));
    let seconds = start.elapsed().as_secs_f64();
    match verdict {
        Ok(v) => {
            let (vars, clauses, lines) = (v.variables, v.clauses, v.proof_lines);
            println!("VERIFIED in {seconds:.2} s: {vars} variables, {clauses} clauses, {lines} proof lines");
            ExitCode::SUCCESS
        }
        Err(e) => {
            println!("NOT VERIFIED in {seconds:.2} s: {e}");
            ExitCode::FAILURE
        }
    }
}

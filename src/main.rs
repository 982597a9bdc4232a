//! The `commsched` binary: parse, run, map the result to the exit-code contract
//! (0 admissible / solved, 1 inadmissible, 2 bad input or error).

use clap::Parser;
use commsched::cli;
use std::process::ExitCode;

fn main() -> ExitCode {
    // Ctrl-C or a SIGTERM during a SAT search would leave its proofs behind, gigabytes of them.
    #[cfg(feature = "sat")]
    let _ = ctrlc::set_handler(|| {
        commsched::exact::remove_temporary_proofs();
        std::process::exit(130);
    });
    let cli = match cli::args::Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let code = if e.use_stderr() { 2 } else { 0 };
            let _ = e.print();
            return ExitCode::from(code);
        }
    };
    match cli::run(cli, &mut std::io::stdout().lock()) {
        Ok(code) => ExitCode::from(code),
        // A closed stdout (`commsched report | head -1`) ends the program quietly.
        Err(commsched::error::Error::Io { source, .. })
            if source.kind() == std::io::ErrorKind::BrokenPipe =>
        {
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("commsched: error: {e}");
            ExitCode::from(2)
        }
    }
}

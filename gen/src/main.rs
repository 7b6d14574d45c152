//! The `tagmatch` command: [`cli`] defines the command line, [`commands`] runs each
//! subcommand. Every failure is one line on stderr, `tagmatch: error: ...`, and exit 2.

mod bench;
mod board;
mod cli;
mod commands;
mod emit;
mod flow;
mod output;
mod verify;

use clap::{CommandFactory, Parser};
use cli::{Cli, Command};
use std::process::ExitCode;

fn run(cli: Cli) -> Result<(), String> {
    match cli.command {
        Command::Gen(args) => commands::gen::run(args),
        Command::Boards { format } => commands::boards::run(format),
        Command::Bench(args) => commands::bench::run(args),
        Command::Cosim(args) => commands::cosim::run(args),
        Command::Trace { action } => commands::trace::run(action),
        Command::Docs { options: true, .. } => {
            // A reader that stops early (`| head`) is not an error.
            use std::io::Write;
            let _ = writeln!(std::io::stdout(), "{}", commands::docs::options_json(Cli::command()));
            Ok(())
        }
        Command::Docs { check, .. } => commands::docs::run(Cli::command(), check),
        Command::Waves { check } => commands::waves::run(check),
        Command::Verify(args) => commands::verify::run(args),
        Command::Record(_) => unreachable!("main runs record itself: it exits with the program's status"),
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    if let Command::Record(args) = cli.command {
        return match commands::record::run(args) {
            Ok(status) => ExitCode::from(status),
            Err(e) => {
                eprintln!("tagmatch: error: {e}");
                ExitCode::from(2)
            }
        };
    }
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("tagmatch: error: {e}");
            ExitCode::from(2)
        }
    }
}

//! `ddz`: the Dou Dizhu binary. Subcommands run the engine's tools; see `ddz --help`.

mod moves;

use std::io;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

#[derive(Parser)]
#[command(
    name = "ddz",
    version,
    about = "Dou Dizhu: game server and engine tools"
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Read positions as JSON lines on stdin; write each one's legal plays as a JSON line (docs/moves.md).
    Moves {
        /// Write only the number of legal plays of each position.
        #[arg(long)]
        count: bool,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Some(Command::Moves { count }) => {
            moves::run(io::stdin().lock(), io::stdout().lock(), count)
        }
        None => {
            eprintln!(
                "ddz: the game server is not built yet; see `ddz --help` for the engine tools"
            );
            return ExitCode::FAILURE;
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("ddz: {e}");
            ExitCode::FAILURE
        }
    }
}

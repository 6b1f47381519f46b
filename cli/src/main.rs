//! `ontoly`: the command line of the ontoly graph evidence engine.
//!
//! # Exit codes
//!
//! | code | meaning |
//! | --- | --- |
//! | 0 | success |
//! | 1 | validation failed: the workspace has at least one error-severity diagnostic (`validate`) |
//! | 2 | usage or workspace error: bad arguments, no workspace found, a workspace that cannot be read |
//!
//! # Adding a subcommand
//!
//! Write `commands/<name>.rs` with `pub struct Args` (clap `Args`) and
//! `pub fn run(ctx: &Context, args: &Args) -> Result<Output, CliError>`, declare the module in
//! `commands/mod.rs`, and add one line `Variant => name,` to the `commands!` list below.

mod commands;

use clap::{Parser, Subcommand, ValueEnum};
use commands::{CliError, Context, Output};
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

/// mimalloc instead of the system allocator: a cold build of a large workspace makes millions
/// of small, short-lived allocations (ids, metadata, serialized chunks) from several rayon
/// threads, and glibc malloc spent about a third of the build in malloc/free/consolidation
/// (perf, 100k sections). mimalloc's per-thread free lists remove most of that.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Output format of every command.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// Human-readable text.
    Text,
    /// Pretty JSON with sorted keys.
    Json,
}

#[derive(Parser)]
#[command(
    name = "ontoly",
    version,
    about = "Graph evidence engine for Context knowledge workspaces"
)]
struct Cli {
    /// The workspace directory (holding knowledge/structure.yaml); default: the current
    /// directory or its nearest ancestor that holds one.
    #[arg(long, global = true, value_name = "DIR")]
    workspace: Option<PathBuf>,
    /// Ignore and do not write the snapshot cache under <workspace>/.ontoly/.
    #[arg(long, global = true)]
    no_cache: bool,
    /// Output format.
    #[arg(long, global = true, value_enum, default_value_t = Format::Text)]
    format: Format,
    #[command(subcommand)]
    command: Command,
}

/// Declares the subcommands: each line is `Variant => module` (a module of `commands/`).
macro_rules! commands {
    ($( $(#[$meta:meta])* $variant:ident => $module:ident, )*) => {
        #[derive(Subcommand)]
        enum Command {
            $( $(#[$meta])* $variant(commands::$module::Args), )*
        }

        impl Command {
            fn run(&self, ctx: &Context) -> Result<Output, CliError> {
                match self {
                    $( Command::$variant(args) => commands::$module::run(ctx, args), )*
                }
            }
        }
    };
}

commands! {
    /// Build the evidence graph (or load it from the cache) and print counts, diagnostics and
    /// the graph hash.
    Build => build,
    /// Node and edge counts by kind, references by source kind, diagnostics by code.
    Stats => stats,
    /// Every diagnostic with file:line; exit 1 when any has error severity.
    Validate => validate,
    /// Repository plugin contract (Source Graph ABI 2).
    Plugin => plugin,
    /// Read and blake3-hash every input file without parsing (the benchmark floor).
    #[command(hide = true)]
    HashInputs => hash_inputs,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let ctx = Context {
        workspace: cli.workspace.clone(),
        no_cache: cli.no_cache,
        format: cli.format,
    };
    match cli.command.run(&ctx) {
        Ok(out) => {
            if let Some(raw) = out.raw {
                let mut stdout = std::io::stdout().lock();
                let written = stdout
                    .write_all(raw.as_bytes())
                    .and_then(|()| stdout.flush());
                return if written.is_ok() {
                    ExitCode::from(out.exit)
                } else {
                    ExitCode::from(2)
                };
            }
            let text = match ctx.format {
                Format::Text => out.text,
                Format::Json => commands::to_json(&out.json),
            };
            print!("{text}");
            ExitCode::from(out.exit)
        }
        Err(e) => {
            eprintln!("ontoly: {e}");
            ExitCode::from(e.exit_code())
        }
    }
}

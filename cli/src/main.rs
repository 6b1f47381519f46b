//! `ontoly`: the command line of the ontoly graph evidence engine.
//!
//! # Exit codes
//!
//! | code | meaning |
//! | --- | --- |
//! | 0 | success |
//! | 1 | validation failed: the workspace has at least one error-severity diagnostic (`validate`) |
//! | 2 | usage or workspace error: bad arguments, no workspace found, a workspace that cannot be read |
//! | 3 | evidence gate failed: a question came back `CAPABILITY_LOW_EVIDENCE` or `CAPABILITY_NOT_FOUND`, or missed its expected sections (`check`, `evidence --fail-on-low-evidence`) |
//!
//! # Adding a subcommand
//!
//! Write `commands/<name>.rs` with `pub struct Args` (clap `Args`) and
//! `pub fn run(ctx: &Context, args: &Args) -> Result<Output, CliError>`, declare the module in
//! `commands/mod.rs`, and add one line `Variant => name,` to the `commands!` list below.

mod commands;
mod mcp;

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
    /// YAML of the JSON rendering (`evidence`, `capabilities`, `run`, `cites`).
    Yaml,
    /// GitHub Actions annotations (`check`).
    Github,
    /// A Mermaid flowchart (`graph`).
    Mermaid,
    /// A Graphviz DOT digraph (`graph`).
    Dot,
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
    /// A local clone for a registered repository: NAME is a remote (github.com/acme/server)
    /// or a <source>/<module> name; PATH a git work tree or bare repository, relative to the
    /// workspace. Adds to or overrides ontoly.toml's [sources]. Repeatable.
    #[arg(long = "source", global = true, value_name = "NAME=PATH")]
    sources: Vec<String>,
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
    /// Serve the evidence graph and pinned reads to agents over MCP (stdio).
    Mcp => mcp,
    /// Read a line range of a file at a pinned commit (knowledge pages with their references).
    Read => read,
    /// Read up to ten ranges at one commit within one batch budget.
    ReadMany => read_many,
    /// Search file contents at a pinned commit, line by line.
    Search => search,
    /// Resolve a branch (or the default branch) to its full commit.
    Resolve => resolve,
    /// Repository plugin contract (Source Graph ABI 2).
    Plugin => plugin,
    /// Read and blake3-hash every input file without parsing (the benchmark floor).
    #[command(hide = true)]
    HashInputs => hash_inputs,
    /// Answer a question with an Evidence Pack (text, or the pack as json/yaml).
    Evidence => evidence,
    /// List the registered capabilities and their input schemas.
    Capabilities => capabilities,
    /// Run a capability: `ontoly run EvidencePack --input '{"query":"..."}'` (or `@file`).
    Run => run,
    /// The references of the sections overlapping a range of a knowledge page (plugin YAML).
    Refs => refs,
    /// Which sections cite a file, a line range of it, or a symbol.
    Cites => cites,
    /// A picture of a node's neighbourhood (--format mermaid|dot|json).
    Graph => graph,
    /// CI gate: answer every question of a YAML file; exit 3 when any is weak or wrong.
    Check => check,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let ctx = Context {
        workspace: cli.workspace.clone(),
        no_cache: cli.no_cache,
        format: cli.format,
        sources: cli.sources.clone(),
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
                Format::Yaml => commands::to_yaml(&out.json),
                // Commands that support these render them into `text`.
                Format::Github | Format::Mermaid | Format::Dot => out.text,
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

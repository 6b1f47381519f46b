//! `ontoly`: the command line of the ontoly graph evidence engine.
//!
//! # Exit codes
//!
//! | code | meaning |
//! | --- | --- |
//! | 0 | success |
//! | 1 | validation failed: the workspace has at least one error-severity diagnostic (`validate`); a capability could not run (`run`, `cites`); a pinned read failed |
//! | 2 | usage or workspace error: bad arguments, an unsupported `--format`, no workspace found, a workspace that cannot be read |
//! | 3 | evidence gate failed: a question came back `CAPABILITY_LOW_EVIDENCE` or `CAPABILITY_NOT_FOUND`, or missed its expected sections (`check`, `evidence --fail-on-low-evidence`) |
//!
//! # Adding a subcommand
//!
//! Write `commands/<name>.rs` with `pub struct Args` (clap `Args`, with a `--format` limited to
//! the module's `FORMATS`), `pub const FORMATS`, `pub fn format(&Args)` and
//! `pub fn run(ctx: &Globals, args: &Args) -> Result<Output, CliError>`, declare the module in
//! `commands/mod.rs`, and add one line `Variant => name,` to the `commands!` list below. Give
//! its output a [`report::Report`] variant and a rendering in each format it lists.

#![deny(missing_docs)]
// The doc comments of the argument structs are clap's `--help` text, read in a terminal:
// `<workspace>` and `[sources]` there are placeholders and TOML, not HTML or links.
#![allow(rustdoc::invalid_html_tags, rustdoc::broken_intra_doc_links)]

mod allocator;
mod commands;
mod help;
mod mcp;
mod render;
mod report;

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};
use commands::{CliError, Globals, Output};
use render::Format;
use std::io::Write;
use std::path::PathBuf;

#[derive(Parser)]
#[command(
    name = "ontoly",
    version = env!("ONTOLY_VERSION_LINE"),
    about = "Graph evidence engine for Context knowledge workspaces",
    after_help = help::EXIT_CODES
)]
struct Cli {
    /// The workspace directory (holding knowledge/structure.yaml); default: the current
    /// directory or its nearest ancestor that holds one.
    #[arg(long, global = true, value_name = "DIR")]
    workspace: Option<PathBuf>,
    /// Ignore and do not write the snapshot cache under <workspace>/.ontoly/.
    #[arg(long, global = true)]
    no_cache: bool,
    /// A local clone for a registered repository: NAME is a remote (github.com/acme/server)
    /// or a <source>/<module> name; PATH a git work tree or bare repository, relative to the
    /// workspace. Adds to or overrides ontoly.toml's [sources]. Repeatable.
    // Not `global`: clap replaces a global's values given before the command with those given
    // after it, and `--source` is repeatable on both sides (`ontoly --source a=../a impact
    // --source a` maps a clone and names the source). `cli_command` gives every command its
    // own `--source`, and `main` joins both lists.
    #[arg(long = "source", value_name = "NAME=PATH")]
    sources: Vec<String>,
    /// `--format` before the command name, as earlier versions took it; each command's own
    /// `--format` lists what it renders.
    #[arg(long, hide = true, value_name = "FORMAT")]
    format: Option<String>,
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
            fn run(&self, ctx: &Globals) -> Result<Output, CliError> {
                match self {
                    $( Command::$variant(args) => commands::$module::run(ctx, args), )*
                }
            }

            /// The formats the command renders (the first is its default).
            fn formats(&self) -> &'static [Format] {
                match self {
                    $( Command::$variant(_) => commands::$module::FORMATS, )*
                }
            }

            /// The command's own `--format`.
            fn format(&self) -> Option<Format> {
                match self {
                    $( Command::$variant(args) => commands::$module::format(args), )*
                }
            }

            /// The command's name as typed.
            fn name(&self) -> &'static str {
                match self {
                    $( Command::$variant(_) => stringify!($module), )*
                }
            }
        }
    };
}

commands! {
    /// Build the evidence graph (or load it from the cache) and print counts, diagnostics and
    /// the graph hash.
    Build => build,
    /// Node and edge counts by kind, references by source kind, symbols by kind, cited files by language, diagnostics by code.
    Stats => stats,
    /// Every diagnostic with file:line; exit 1 when any has error severity.
    // `verify` too: what a user who wants the recorded digests checked types first (clap
    // suggested `drift` for it).
    #[command(alias = "verify")]
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
    /// Is the knowledge still true? Compare every cited range with a later commit (--write
    /// re-anchors the modules whose references all survived).
    Drift => drift,
    /// The sections and pages whose cited code a change (--from/--to, or --diff) touches; the
    /// change is on the source named by --source NAME (no =PATH), by default the one cited.
    Impact => impact,
    /// Start a workspace: one page, one section, the structure and an ontoly.toml.
    Init => init,
    /// Section markers for pages written without them (--write puts them in), and the
    /// structure.yaml entries that list those pages.
    Mark => mark,
    /// The reference entry (source_ref, locator, content_digest) for lines of a repository,
    /// ready to paste into knowledge/structure.yaml; the module is `--source NAME`.
    Digest => digest,
    /// Shell completions for bash, zsh, fish, PowerShell or Elvish.
    Completions => completions,
    /// The man page (roff) listing every command; with --dir, one page per command too.
    Man => man,
}

/// The id of the `--source` values given after the command's name.
const SOURCES_AFTER: &str = "sources_after";

fn source_arg(command: &str) -> clap::Arg {
    let help = match command {
        "impact" => "NAME=PATH maps a local clone, as for every command; a bare NAME (a <source>/<module>, <source> or the repository's remote) names the source the change is on. Repeatable",
        "digest" => "NAME=PATH maps a local clone, as for every command; a bare NAME (a <source>/<module> of sources/repo/index.yaml) names the module the lines are cited from. Repeatable",
        _ => "A local clone for a registered repository: NAME is a remote (github.com/acme/server) or a <source>/<module> name; PATH a git work tree or bare repository, relative to the workspace. Adds to or overrides ontoly.toml's [sources]. Repeatable",
    };
    clap::Arg::new(SOURCES_AFTER)
        .long("source")
        .value_name(if matches!(command, "impact" | "digest") {
            "NAME[=PATH]"
        } else {
            "NAME=PATH"
        })
        .action(clap::ArgAction::Append)
        .global(true)
        .help(help)
}

/// The command line with each command's exit codes and examples at the end of its help.
fn cli_command() -> clap::Command {
    let mut cmd = Cli::command().mut_subcommands(|c| {
        let arg = source_arg(c.get_name());
        c.arg(arg)
    });
    let names: Vec<String> = cmd
        .get_subcommands()
        .map(|c| c.get_name().to_string())
        .collect();
    for name in names {
        if let Some(text) = help::after_help(&name.replace('-', "_")) {
            cmd = cmd.mut_subcommand(&name, |c| c.after_help(text));
        }
    }
    cmd
}

/// The format to render in: the command's `--format`, else one given before the command name
/// (when the command renders it), else the command's default.
fn chosen_format(cli: &Cli) -> Result<Format, CliError> {
    let formats = cli.command.formats();
    if let Some(f) = cli.command.format() {
        return Ok(f);
    }
    match cli.format.as_deref() {
        None => Ok(formats.first().copied().unwrap_or(Format::Text)),
        Some(name) => Format::parse(name)
            .filter(|f| formats.contains(f))
            .ok_or_else(|| {
                let names: Vec<&str> = formats.iter().map(|f| f.name()).collect();
                CliError {
                    message: format!(
                        "`ontoly {}` does not render --format {name}",
                        cli.command.name().replace('_', "-")
                    ),
                    hint: Some(if names.is_empty() {
                        "this command takes no --format".to_string()
                    } else {
                        format!("use --format {}", names.join("|"))
                    }),
                    ..Default::default()
                }
            }),
    }
}

/// Writes to a stream; a closed pipe (`ontoly … | head`) ends the process quietly, as a
/// reader that stopped reading is not an error. Any other failure (a full disk, an I/O error)
/// is said on standard error, so a CI log shows why the step failed, and exits 2.
fn write_or_exit(stream: &mut dyn Write, bytes: &str) {
    let written = stream
        .write_all(bytes.as_bytes())
        .and_then(|()| stream.flush());
    match written {
        Ok(()) => {}
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => std::process::exit(0),
        Err(e) => {
            // Standard error may be the failing stream too: then nothing more can be said.
            let _ = writeln!(std::io::stderr(), "error: could not write the output: {e}");
            std::process::exit(2)
        }
    }
}

/// [`fail`], with the error also in the CI format asked for: a GitHub annotation, a SARIF
/// log of a failed run (an upload step needs a valid file), or a JUnit report of its errors.
fn fail_as(e: &CliError, format: Format, command: &str) -> ! {
    let errors: Vec<(String, Option<(&str, u64)>)> = std::iter::once(e)
        .chain(&e.also)
        .map(|e| {
            let text = match &e.hint {
                Some(h) => format!("{} ({h})", e.message),
                None => e.message.clone(),
            };
            // A file outside the repository is no place a CI format can name.
            let at =
                e.at.as_ref()
                    .filter(|(f, _)| commands::ci::in_repository(f))
                    .map(|(f, l)| (f.as_str(), *l));
            (text, at)
        })
        .collect();
    let errors: Vec<(&str, Option<(&str, u64)>)> =
        errors.iter().map(|(t, at)| (t.as_str(), *at)).collect();
    match format {
        Format::Github => write_or_exit(
            &mut std::io::stdout(),
            &render::github::failed_run(command, &errors),
        ),
        Format::Sarif => write_or_exit(&mut std::io::stdout(), &render::sarif::failed_run(&errors)),
        Format::Junit => write_or_exit(
            &mut std::io::stdout(),
            &render::junit::failed_run(command, &errors),
        ),
        _ => {}
    }
    fail(e)
}

fn fail(e: &CliError) -> ! {
    // Messages quote what was typed or found (a path, a revision, a question): one line each,
    // their control characters escaped, whatever they hold.
    let line = ontoly_graph::formats::text::one_line;
    let mut msg = String::new();
    for e in std::iter::once(e).chain(&e.also) {
        msg.push_str(&format!("error: {}\n", line(&e.message)));
        if let Some(h) = &e.hint {
            msg.push_str(&format!("hint: {}\n", line(h)));
        }
    }
    write_or_exit(&mut std::io::stderr(), &msg);
    std::process::exit(i32::from(e.exit_code()));
}

fn main() {
    allocator::tune();
    let matches = cli_command().get_matches();
    let cli = Cli::from_arg_matches(&matches).unwrap_or_else(|e| e.exit());
    let format = chosen_format(&cli).unwrap_or_else(|e| fail(&e));
    let mut sources = cli.sources.clone();
    if let Some((_, sub)) = matches.subcommand() {
        sources.extend(
            sub.get_many::<String>(SOURCES_AFTER)
                .into_iter()
                .flatten()
                .cloned(),
        );
    }
    let mut ctx = Globals {
        workspace: cli.workspace.clone(),
        no_cache: cli.no_cache,
        sources,
        verify_snapshot: false,
    };
    let mut out = cli.command.run(&ctx);
    if ontoly_graph::graph::store::container::corruption_seen() {
        // A snapshot read failed its checksum while answering: that answer may miss what the
        // corrupt block held. Answer again from a snapshot checked whole (or rebuilt).
        write_or_exit(
            &mut std::io::stderr(),
            "note: the snapshot under .ontoly/ failed its checksum; answering again from a rebuilt one\n",
        );
        ctx.verify_snapshot = true;
        out = cli.command.run(&ctx);
    }
    let command = cli.command.name().replace('_', "-");
    let out = out.unwrap_or_else(|e| fail_as(&e, format, &command));
    if let Some(md) = render::summary::markdown(&out.report) {
        commands::ci::append_step_summary(&md);
    }
    if let report::Report::Raw(raw) = &out.report {
        write_or_exit(&mut std::io::stdout().lock(), raw);
    } else {
        let Some(rendered) = render::render(&out.report, format, commands::use_color()) else {
            fail(&CliError::new(format!(
                "`ontoly {}` has no {} rendering of this result",
                cli.command.name().replace('_', "-"),
                format.name()
            )));
        };
        if let Some(note) = &rendered.stderr {
            write_or_exit(&mut std::io::stderr(), note);
        }
        write_or_exit(&mut std::io::stdout().lock(), &rendered.stdout);
    }
    // Exit without dropping the graph: freeing a large graph's million small allocations
    // would only add time after the answer is out.
    std::process::exit(i32::from(out.exit));
}

//! `ontoly completions SHELL` and `ontoly man`: shell completions (clap_complete) and a roff
//! man page (clap_mangen) of the command line as it is, examples and exit codes included.

use super::{CliError, Globals, Output};
use crate::render::Format;
use crate::report::Report;

/// Neither prints in a `--format`.
pub const FORMATS: &[Format] = &[];

/// Arguments of `ontoly completions`.
#[derive(clap::Args)]
pub struct Args {
    /// The shell to complete for.
    #[arg(value_enum)]
    shell: clap_complete::Shell,
}

/// No `--format`.
pub fn format(_: &Args) -> Option<Format> {
    None
}

/// Prints the completion script.
pub fn run(_ctx: &Globals, a: &Args) -> Result<Output, CliError> {
    let mut cmd = crate::cli_command();
    let mut out = Vec::new();
    clap_complete::generate(a.shell, &mut cmd, "ontoly", &mut out);
    Ok(Output::ok(Report::Raw(
        String::from_utf8_lossy(&out).into_owned(),
    )))
}

/// `ontoly man`.
pub mod man {
    use super::*;

    /// The formats: none (roff).
    pub const FORMATS: &[Format] = &[];

    /// Arguments of `ontoly man`.
    #[derive(clap::Args)]
    pub struct Args {
        /// Write every page into DIR instead of printing the main one: ontoly.1 and one
        /// ontoly-COMMAND.1 per command (the pages the main one's command list names)
        #[arg(long, value_name = "DIR")]
        dir: Option<std::path::PathBuf>,
    }

    /// No `--format`.
    pub fn format(_: &Args) -> Option<Format> {
        None
    }

    /// Prints the main man page (section 1) in roff, or writes every page into `--dir`.
    pub fn run(_ctx: &Globals, a: &Args) -> Result<Output, CliError> {
        if let Some(dir) = &a.dir {
            return write_all(dir);
        }
        let mut out = Vec::new();
        // As `generate_to` does: `help` has no page of its own (`--help` is on every page).
        clap_mangen::Man::new(crate::cli_command().disable_help_subcommand(true))
            .render(&mut out)
            .map_err(|e| CliError::new(format!("cannot render the man page: {e}")))?;
        Ok(Output::ok(Report::Raw(
            String::from_utf8_lossy(&out).into_owned(),
        )))
    }

    /// Every page into `dir` (created if missing); prints the files written, in name order.
    fn write_all(dir: &std::path::Path) -> Result<Output, CliError> {
        let shown = dir.display();
        std::fs::create_dir_all(dir)
            .map_err(|e| CliError::new(format!("cannot create {shown}: {}", e.kind())))?;
        // Each page is rendered here and written afresh (what is at its name — an old page,
        // a planted link, a FIFO — is removed, never opened): `generate_to` truncates through
        // a link.
        let mut cmd = crate::cli_command().disable_help_subcommand(true);
        cmd.build();
        let mut all = vec![cmd.clone()];
        all.extend(cmd.get_subcommands().filter(|c| !c.is_hide_set()).cloned());
        let mut pages = Vec::new();
        for c in all {
            let man = clap_mangen::Man::new(c);
            let name = man.get_filename();
            let mut roff = Vec::new();
            man.render(&mut roff)
                .map_err(|e| CliError::new(format!("cannot render {name}: {e}")))?;
            let path = dir.join(&name);
            let written = match std::fs::remove_file(&path) {
                Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(e),
                _ => std::fs::File::create_new(&path)
                    .and_then(|mut f| std::io::Write::write_all(&mut f, &roff)),
            };
            written.map_err(|e| {
                CliError::new(format!("cannot write {}: {}", path.display(), e.kind()))
            })?;
            pages.push(name);
        }
        pages.sort();
        let mut out = String::new();
        for p in &pages {
            out.push_str(&format!("{}\n", dir.join(p).display()));
        }
        Ok(Output::ok(Report::Raw(out)))
    }
}

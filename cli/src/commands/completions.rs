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

    /// `ontoly man` takes no arguments.
    #[derive(clap::Args)]
    pub struct Args {}

    /// No `--format`.
    pub fn format(_: &Args) -> Option<Format> {
        None
    }

    /// Prints the man page (section 1) in roff.
    pub fn run(_ctx: &Globals, _a: &Args) -> Result<Output, CliError> {
        let mut out = Vec::new();
        clap_mangen::Man::new(crate::cli_command())
            .render(&mut out)
            .map_err(|e| CliError::new(format!("cannot render the man page: {e}")))?;
        Ok(Output::ok(Report::Raw(
            String::from_utf8_lossy(&out).into_owned(),
        )))
    }
}

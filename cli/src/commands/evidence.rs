//! `ontoly evidence <query…> [--limit N] [--format text|json|yaml] [--fail-on-low-evidence]`.
//!
//! The query is taken as typed: unquoted words (`ontoly evidence how does retry work`) and
//! words that start with a dash (`ontoly evidence --engine auto fallback`, `-z formats`) are the
//! question. ontoly's own options are recognised before or after the words, exactly as spelled
//! (`--limit N` / `--limit=N`, `--format F`, `--fail-on-low-evidence`, and the global
//! `--workspace DIR`, `--no-cache`, `--source NAME=PATH`); everything after `--` is the
//! question, whatever it looks like. A question that is `-` alone is read from standard input.

use super::{index, CliError, Globals, Output, EXIT_GATE};
use crate::render::Format;
use crate::report::Report;
use ontoly_capabilities::evidence::{Level, Severity};
use ontoly_capabilities::pack;
use std::path::PathBuf;

/// The formats `ontoly evidence` renders.
pub const FORMATS: &[Format] = &[Format::Text, Format::Json, Format::Yaml];

/// Arguments of `ontoly evidence`.
#[derive(clap::Args)]
pub struct Args {
    /// Entities in the pack (default 12; clamped to 5-20).
    #[arg(long, allow_negative_numbers = true)]
    limit: Option<i64>,
    /// Exit 3 when the pack comes back CAPABILITY_LOW_EVIDENCE or CAPABILITY_NOT_FOUND, or
    /// carries error diagnostics of a broken workspace.
    #[arg(long)]
    fail_on_low_evidence: bool,
    /// Output format: a readable answer, or the Evidence Pack itself.
    #[arg(long, value_parser = crate::render::parser(FORMATS))]
    format: Option<Format>,
    /// The question, quoted or not; it may start with a dash (`--engine auto fallback`).
    /// ontoly's own options may come before or after it; after `--` everything is the question.
    /// `-` alone reads it from standard input (a long pasted trace).
    #[arg(
        value_name = "QUERY",
        trailing_var_arg = true,
        allow_hyphen_values = true,
        num_args = 0..
    )]
    words: Vec<String>,
}

/// The query and the options found among its words.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Parsed {
    /// The question, its words joined by one space.
    pub query: String,
    /// `--limit`.
    pub limit: Option<i64>,
    /// `--format`.
    pub format: Option<Format>,
    /// `--fail-on-low-evidence`.
    pub fail_on_low_evidence: bool,
    /// `--workspace`.
    pub workspace: Option<PathBuf>,
    /// `--no-cache`.
    pub no_cache: bool,
    /// `--source`, in order.
    pub sources: Vec<String>,
    /// The question is `-`, typed where an option could be: it is read from standard input (a
    /// pasted trace can exceed the system's limit on one argument, 128 KiB on Linux).
    pub stdin: bool,
    /// Words of the question that look like a mistyped option of this command, with the
    /// option (`--fromat`, `--format`): they stay words, and the command says so.
    pub near_options: Vec<(String, &'static str)>,
}

/// The options `ontoly evidence` reads among the question's words.
const OPTIONS: [&str; 6] = [
    "--limit",
    "--format",
    "--workspace",
    "--source",
    "--fail-on-low-evidence",
    "--no-cache",
];

/// Whether the words clap collected came after a `--` that clap consumed itself (then none of
/// them is an option). clap keeps a `--` that follows the first word, but drops one that comes
/// before it, so the raw command line is the only place that says so.
fn escaped(words: &[String]) -> bool {
    let raw: Vec<std::ffi::OsString> = std::env::args_os().collect();
    raw.len() > words.len() && raw[raw.len() - words.len() - 1] == "--"
}

/// Separates the question from ontoly's options among `words` (`escaped`: all of them follow a
/// `--`). A `--` among the words ends the options.
pub fn split_words(words: &[String], escaped: bool) -> Result<Parsed, CliError> {
    let mut p = Parsed::default();
    let mut query: Vec<&str> = Vec::new();
    let mut literal = escaped;
    let mut stdin_dash = false;
    let mut it = words.iter();
    let value = |name: &str, v: Option<&String>| -> Result<String, CliError> {
        v.cloned().ok_or_else(|| CliError {
            message: format!("{name} needs a value"),
            hint: Some(format!(
                "to ask about `{name}` itself, put the question after `--`: ontoly evidence -- '{name} …'"
            )),
            ..Default::default()
        })
    };
    while let Some(w) = it.next() {
        if literal {
            query.push(w);
            continue;
        }
        let (name, inline) = match w.split_once('=') {
            Some((n, v)) if n.starts_with("--") => (n, Some(v.to_string())),
            _ => (w.as_str(), None),
        };
        match name {
            "--" => literal = true,
            "--limit" => {
                let v = match inline {
                    Some(v) => v,
                    None => value(name, it.next())?,
                };
                p.limit = Some(v.parse().map_err(|_| CliError {
                    message: format!("--limit takes a number, not {v:?}"),
                    hint: Some("to ask about `--limit` itself, put the question after `--`".into()),
                    ..Default::default()
                })?);
            }
            "--format" => {
                let v = match inline {
                    Some(v) => v,
                    None => value(name, it.next())?,
                };
                p.format = Some(
                    Format::parse(&v)
                        .filter(|f| FORMATS.contains(f))
                        .ok_or_else(|| CliError {
                            message: format!("`ontoly evidence` does not render --format {v}"),
                            hint: Some(
                                "possible values: text, json, yaml (a question about `--format` goes after `--`)"
                                    .into(),
                            ),
                            ..Default::default()
                        })?,
                );
            }
            "--workspace" => {
                p.workspace = Some(PathBuf::from(match inline {
                    Some(v) => v,
                    None => value(name, it.next())?,
                }))
            }
            "--source" => p.sources.push(match inline {
                Some(v) => v,
                None => value(name, it.next())?,
            }),
            "--fail-on-low-evidence" if inline.is_none() => p.fail_on_low_evidence = true,
            "--no-cache" if inline.is_none() => p.no_cache = true,
            "-" => {
                stdin_dash = true;
                query.push(w)
            }
            _ => {
                if name.starts_with("--") {
                    if let Some(o) = ontoly_graph::suggest::nearest(name, OPTIONS) {
                        p.near_options.push((name.to_string(), o));
                    }
                }
                query.push(w)
            }
        }
    }
    // `-` alone, not after `--`, names standard input (as `--diff -` and `--input @-` do);
    // `ontoly evidence -- -` asks about the dash.
    if stdin_dash && query == ["-"] {
        p.stdin = true;
        return Ok(p);
    }
    p.query = query.join(" ").trim().to_string();
    if p.query.is_empty() {
        return Err(CliError {
            message: "`ontoly evidence` needs a question".into(),
            hint: Some(
                "ontoly evidence how does retry work  (or: ontoly evidence -- '--engine auto'; a long trace: ontoly evidence - < trace.txt)"
                    .into(),
            ),
            ..Default::default()
        });
    }
    Ok(p)
}

fn parsed(a: &Args) -> Result<Parsed, CliError> {
    let mut p = split_words(&a.words, escaped(&a.words))?;
    p.limit = p.limit.or(a.limit);
    p.format = p.format.or(a.format);
    p.fail_on_low_evidence |= a.fail_on_low_evidence;
    Ok(p)
}

/// The `--format` given to this command (before or after the question).
pub fn format(a: &Args) -> Option<Format> {
    parsed(a).ok().and_then(|p| p.format).or(a.format)
}

/// The Evidence Pack for the query.
pub fn run(ctx: &Globals, a: &Args) -> Result<Output, CliError> {
    let mut p = parsed(a)?;
    if p.stdin {
        p.query = question_from_stdin()?;
    }
    // A mistyped option is a word of the question (it may be one: `--engine` is asked
    // about), so the answer stands; standard error says how it was read.
    for (word, option) in &p.near_options {
        let _ = std::io::Write::write_all(
            &mut std::io::stderr(),
            format!("note: `{word}` is read as a word of the question; did you mean {option}? (a question about it goes after `--`)\n").as_bytes(),
        );
    }
    // Global options typed after the question reach us among its words.
    let mut globals = ctx.clone();
    if p.workspace.is_some() {
        globals.workspace = p.workspace.clone();
    }
    globals.no_cache |= p.no_cache;
    globals.sources.extend(p.sources.iter().cloned());
    let session = globals.session()?;
    let index = index(&session)?;
    let cx = ontoly_capabilities::Context::new(&session, &index)?;
    let answer = pack::evidence_pack(&cx, &p.query, p.limit);
    // A broken workspace fails the gate too: the pack then carries its error diagnostics.
    let weak = matches!(answer.pack.confidence.level, Level::Low | Level::None)
        || answer
            .pack
            .diagnostics
            .iter()
            .any(|d| d.severity == Severity::Error);
    Ok(Output {
        report: Report::Pack(Box::new(answer)),
        exit: if p.fail_on_low_evidence && weak {
            EXIT_GATE
        } else {
            0
        },
    })
}

/// The question read from standard input: its text as given (a trace keeps its lines), or a
/// usage error when it is empty or not UTF-8.
fn question_from_stdin() -> Result<String, CliError> {
    let mut bytes = Vec::new();
    std::io::Read::read_to_end(&mut std::io::stdin(), &mut bytes).map_err(|e| {
        CliError::new(format!(
            "cannot read the question from standard input: {}",
            e.kind()
        ))
    })?;
    let text = String::from_utf8(bytes).map_err(|e| {
        let (line, column, byte) =
            ontoly_graph::formats::text::not_utf8_at(e.as_bytes(), &e.utf8_error());
        CliError::new(format!(
            "the question on standard input is not UTF-8: {}",
            ontoly_graph::formats::text::not_utf8_place(line, column, byte)
        ))
    })?;
    if text.trim().is_empty() {
        let mut err =
            CliError::new("`ontoly evidence -` read an empty question from standard input");
        err.hint = Some("pipe the question in: ontoly evidence - < trace.txt (a question about `-` itself: ontoly evidence -- -)".into());
        return Err(err);
    }
    // As `"$(cat trace.txt)"` would give it: without the final newlines.
    Ok(text.trim_end().to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(s: &str) -> Vec<String> {
        s.split(' ').map(str::to_string).collect()
    }

    #[test]
    fn options_are_found_around_the_words_and_dashes_are_words() {
        let p = split_words(
            &words("--engine auto fallback --limit 7 --format json"),
            false,
        )
        .expect("valid");
        assert_eq!(p.query, "--engine auto fallback");
        assert_eq!(p.limit, Some(7));
        assert_eq!(p.format, Some(Format::Json));
        let p = split_words(&words("-z formats --workspace=ws --no-cache"), false).expect("valid");
        assert_eq!(p.query, "-z formats");
        assert_eq!(p.workspace, Some(PathBuf::from("ws")));
        assert!(p.no_cache);
        let p = split_words(&words("how -- --limit 5"), false).expect("valid");
        assert_eq!(p.query, "how --limit 5");
        assert_eq!(p.limit, None);
        let p = split_words(&words("--limit 5"), true).expect("valid");
        assert_eq!(p.query, "--limit 5");
        assert!(split_words(&[], false).is_err());
        // `-` alone is standard input; after `--`, or among words, it is a word.
        let p = split_words(&words("- --format json"), false).expect("valid");
        assert!(p.stdin && p.query.is_empty());
        assert!(!split_words(&words("-- -"), false).expect("valid").stdin);
        assert!(!split_words(&words("-"), true).expect("valid").stdin);
        assert!(!split_words(&words("a - b"), false).expect("valid").stdin);
        assert!(split_words(&words("--limit 5"), false).is_err());
        assert!(split_words(&words("q --limit"), false).is_err());
        assert!(split_words(&words("q --format xml"), false).is_err());
        // One argument holding a whole dash-led question is a question.
        let p = split_words(&["--format '{size}' template".to_string()], false).expect("valid");
        assert_eq!(p.query, "--format '{size}' template");
    }
}

//! Commit-pinned reads from the command line: `ontoly read`, `read-many`, `search` and
//! `resolve`, thin wrappers over [`ontoly_graph::sources::reads::Reader`] (the MCP server calls the
//! same API). JSON output is the library's camelCase result; a read error prints
//! `{code, message}` (text: `CODE: message`) and exits 1.

use super::{CliError, Context, Output};
use ontoly_graph::sources::reads::{ReadError, Reader};
use serde::Serialize;

/// Opens the reader of the current workspace (its repository, registered modules, clones).
fn reader(ctx: &Context) -> Result<Reader, CliError> {
    let ws = ctx.workspace()?;
    let overrides = ctx
        .sources
        .iter()
        .map(|s| ontoly_graph::sources::clones::parse_override(s))
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| CliError(e.message))?;
    Reader::open(&ws.root, &overrides).map_err(|e| CliError(e.message))
}

/// The output of a result, or of a read error (exit 1).
fn output<T: Serialize>(
    result: Result<T, ReadError>,
    text: impl FnOnce(&T) -> String,
) -> Result<Output, CliError> {
    match result {
        Ok(r) => {
            let json = serde_json::to_value(&r)
                .map_err(|e| CliError(format!("cannot render the result: {e}")))?;
            Ok(Output::new(text(&r), json, 0))
        }
        Err(e) => {
            let json = serde_json::to_value(&e)
                .map_err(|e| CliError(format!("cannot render the error: {e}")))?;
            Ok(Output::new(
                format!("{}: {}\n", e.code.as_str(), e.message),
                json,
                1,
            ))
        }
    }
}

/// Options shared by every pinned read.
#[derive(clap::Args, Debug, Clone)]
pub struct RepoArgs {
    /// Repository: owner/name, <source>/<module>, or a remote.
    #[arg(long, alias = "repository", value_name = "REPO")]
    repo: String,
    /// Branch or full commit (default: the repository's default branch).
    #[arg(long, alias = "revision", value_name = "REV")]
    rev: Option<String>,
}

/// `ontoly read`.
pub mod read {
    use super::*;
    use ontoly_graph::sources::reads::ReadRequest;

    /// Read a line range of a file at a pinned commit (500 lines / 256 KiB at most); knowledge
    /// pages come with the references of the overlapping sections.
    #[derive(clap::Args, Debug)]
    pub struct Args {
        #[command(flatten)]
        repo: RepoArgs,
        /// Repository-root relative path.
        path: String,
        /// First line (default 1).
        #[arg(long, alias = "start-line", allow_negative_numbers = true)]
        start: Option<i64>,
        /// Last line (default start + 499).
        #[arg(long, alias = "end-line", allow_negative_numbers = true)]
        end: Option<i64>,
    }

    /// Runs the read.
    pub fn run(ctx: &Context, args: &Args) -> Result<Output, CliError> {
        let r = reader(ctx)?;
        let res = r.read(&ReadRequest {
            repository: args.repo.repo.clone(),
            revision: args.repo.rev.clone(),
            path: args.path.clone(),
            start_line: args.start,
            end_line: args.end,
        });
        output(res, |r| {
            eprintln!(
                "{}@{} {} lines {}-{}{}{}",
                r.repository,
                r.commit,
                r.path,
                r.start_line,
                r.end_line,
                if r.truncated { " (truncated)" } else { "" },
                r.next_start_line
                    .map(|n| format!("; more from line {n}"))
                    .unwrap_or_default()
            );
            r.text()
        })
    }
}

/// `ontoly read-many`.
pub mod read_many {
    use super::*;
    use ontoly_graph::sources::reads::{ReadManyItem, ReadManyRequest};

    /// Read 1–10 ranges at one commit within one batch budget (1000 lines / 256 KiB).
    #[derive(clap::Args, Debug)]
    pub struct Args {
        #[command(flatten)]
        repo: RepoArgs,
        /// Items as PATH, PATH:START or PATH:START-END, in order.
        #[arg(required = true, value_name = "PATH[:START[-END]]")]
        items: Vec<String>,
    }

    /// `src/a.rs:10-20` → path and range; a suffix that is not a range stays in the path.
    pub(crate) fn parse_item(s: &str) -> ReadManyItem {
        if let Some((path, range)) = s.rsplit_once(':') {
            let (a, b) = match range.split_once('-') {
                Some((a, b)) => (a, Some(b)),
                None => (range, None),
            };
            if let Ok(start) = a.parse::<i64>() {
                let end = match b.map(str::parse::<i64>) {
                    None => Some(None),
                    Some(Ok(e)) => Some(Some(e)),
                    Some(Err(_)) => None,
                };
                if let Some(end) = end {
                    return ReadManyItem {
                        path: path.to_string(),
                        start_line: Some(start),
                        end_line: end,
                    };
                }
            }
        }
        ReadManyItem {
            path: s.to_string(),
            start_line: None,
            end_line: None,
        }
    }

    /// Runs the batch.
    pub fn run(ctx: &Context, args: &Args) -> Result<Output, CliError> {
        let r = reader(ctx)?;
        let res = r.read_many(&ReadManyRequest {
            repository: args.repo.repo.clone(),
            revision: args.repo.rev.clone(),
            items: args.items.iter().map(|s| parse_item(s)).collect(),
        });
        output(res, |r| {
            let mut text = String::new();
            for item in &r.items {
                match (item.start_line, item.end_line) {
                    (Some(a), Some(b)) => {
                        text.push_str(&format!("==> {}:{a}-{b} <==\n", item.path))
                    }
                    _ => text.push_str(&format!("==> {} <==\n", item.path)),
                }
                if let Some(c) = &item.content {
                    text.push_str(c);
                    if !c.is_empty() && !c.ends_with('\n') {
                        text.push('\n');
                    }
                }
                if let Some(ev) = &item.evidence {
                    text.push('\n');
                    text.push_str(ev);
                }
                if let Some(e) = &item.error {
                    text.push_str(&format!("{}: {}\n", e.code.as_str(), e.message));
                }
            }
            text
        })
    }
}

/// `ontoly search`.
pub mod search {
    use super::*;
    use ontoly_graph::sources::reads::{SearchOutput, SearchRequest};

    /// Search file contents at a pinned commit, line by line (bounded; never proof of absence).
    #[derive(clap::Args, Debug)]
    pub struct Args {
        #[command(flatten)]
        repo: RepoArgs,
        /// A regular expression matched within single lines.
        pattern: String,
        /// Treat the pattern as a literal string.
        #[arg(short = 'F', long)]
        fixed_strings: bool,
        /// Match case-insensitively.
        #[arg(short = 'i', long)]
        ignore_case: bool,
        /// Glob filter, in order; `!` excludes; the last matching glob wins. Repeatable.
        #[arg(
            short = 'g',
            long = "glob",
            value_name = "GLOB",
            allow_hyphen_values = true
        )]
        glob: Vec<String>,
        /// Only paths under this prefix. Repeatable.
        #[arg(long = "path", value_name = "PREFIX")]
        paths: Vec<String>,
        /// List matching files only.
        #[arg(short = 'l', long = "files")]
        files: bool,
    }

    /// Runs the search.
    pub fn run(ctx: &Context, args: &Args) -> Result<Output, CliError> {
        let r = reader(ctx)?;
        let res = r.search(&SearchRequest {
            repository: args.repo.repo.clone(),
            revision: args.repo.rev.clone(),
            pattern: args.pattern.clone(),
            fixed_strings: args.fixed_strings,
            ignore_case: args.ignore_case,
            glob: args.glob.clone(),
            paths: args.paths.clone(),
            output: if args.files {
                SearchOutput::Files
            } else {
                SearchOutput::Content
            },
        });
        output(res, |r| {
            let mut text = String::new();
            for f in &r.files {
                if f.matches.is_empty() {
                    text.push_str(&format!("{}\n", f.path));
                }
                for m in &f.matches {
                    text.push_str(&format!("{}:{}:{}\n", f.path, m.line, m.text));
                }
            }
            eprintln!(
                "{}@{}: {} file(s){}",
                r.repository,
                r.commit,
                r.files.len(),
                if r.truncated {
                    " (truncated: narrow the search)"
                } else {
                    ""
                }
            );
            text
        })
    }
}

/// `ontoly resolve`.
pub mod resolve {
    use super::*;
    use ontoly_graph::sources::reads::ResolveRequest;

    /// Resolve a branch (or the default branch) to its full commit.
    #[derive(clap::Args, Debug)]
    pub struct Args {
        #[command(flatten)]
        repo: RepoArgs,
    }

    /// Runs the resolution.
    pub fn run(ctx: &Context, args: &Args) -> Result<Output, CliError> {
        let r = reader(ctx)?;
        let res = r.resolve(&ResolveRequest {
            repository: args.repo.repo.clone(),
            revision: args.repo.rev.clone(),
        });
        output(res, |r| format!("{}\n", r.commit))
    }
}

#[cfg(test)]
mod tests {
    use super::read_many::parse_item;

    #[test]
    fn items() {
        let i = parse_item("src/a.rs:10-20");
        assert_eq!(
            (i.path.as_str(), i.start_line, i.end_line),
            ("src/a.rs", Some(10), Some(20))
        );
        let i = parse_item("src/a.rs:7");
        assert_eq!(
            (i.path.as_str(), i.start_line, i.end_line),
            ("src/a.rs", Some(7), None)
        );
        let i = parse_item("weird:name.rs");
        assert_eq!((i.path.as_str(), i.start_line), ("weird:name.rs", None));
        let i = parse_item("a.rs:1-x");
        assert_eq!((i.path.as_str(), i.start_line), ("a.rs:1-x", None));
    }
}

//! Commit-pinned reads from the command line: `ontoly read`, `read-many`, `search` and
//! `resolve`, thin wrappers over [`ontoly_graph::sources::reads::Reader`] (the MCP server calls the
//! same API). JSON output is the library's camelCase result; a read error prints
//! `{code, message}` (text: `CODE: message`), with a `hint` when `read` misses a file the
//! workspace cites at another commit, and exits 1.

use super::{CliError, Globals, Output};
use crate::render::Format;
use crate::report::{ReadFailure, Report};
use ontoly_graph::diagnostics::Code;
use ontoly_graph::sources::reads::{ReadError, Reader};
use ontoly_graph::Session;

/// The reader of the current workspace (its repository, registered modules, clones).
fn reader(ctx: &Globals, args: &RepoArgs) -> Result<Reader, CliError> {
    Ok(session(ctx, args)?.reader()?)
}

/// The session, refusing a bare `--source NAME` with the option that names the repository
/// to read: `impact` and `digest` take a bare NAME for their source, and a user who learned
/// that types it here too.
fn session(ctx: &Globals, args: &RepoArgs) -> Result<super::Held, CliError> {
    if let Some(name) = ctx.sources.iter().find(|s| !s.contains('=')) {
        return Err(CliError {
            message: format!("--source expects NAME=PATH (a local clone), not {name:?}"),
            hint: Some(match &args.repo {
                None => format!("the repository to read is named with --repo: --repo {name}"),
                Some(repo) => format!(
                    "--repo {repo} already names the repository to read; drop --source {name}"
                ),
            }),
            ..Default::default()
        });
    }
    ctx.session()
}

impl RepoArgs {
    /// The repository to read: `--repo`, else the workspace's own.
    fn repository(&self, r: &Reader) -> Result<String, CliError> {
        if let Some(name) = &self.repo {
            return Ok(name.clone());
        }
        r.repositories()
            .workspace()
            .map(|w| w.name.clone())
            .ok_or_else(|| CliError {
                message: "no --repo, and the workspace has no repository of its own".into(),
                hint: Some("name one with --repo (owner/name or <source>/<module>)".into()),
                ..Default::default()
            })
    }
}

/// The output of a result, or of a read error (exit 1) with what to try instead, when the
/// workspace knows: a repository to name when its own directory cannot be searched or resolved
/// ([`repositories_hint`]), or `hint` for the error.
fn output<T>(
    result: Result<T, ReadError>,
    report: impl FnOnce(T) -> Report,
    (r, args): (&Reader, &RepoArgs),
    hint: impl FnOnce(&ReadError) -> Option<String>,
) -> Output {
    match result {
        Ok(res) => Output::ok(report(res)),
        Err(e) => Output {
            report: Report::ReadError(ReadFailure {
                hint: repositories_hint(r, args, &e).or_else(|| hint(&e)),
                error: e,
            }),
            exit: 1,
        },
    }
}

/// When a read of the default repository failed because the workspace's directory is no git
/// repository (resolve needs one): the repositories with a local clone, to name with `--repo`.
fn repositories_hint(r: &Reader, args: &RepoArgs, e: &ReadError) -> Option<String> {
    if args.repo.is_some() || e.code != Code::RepositoryNotFound {
        return None;
    }
    cloned_repositories(r)
}

/// The repositories with a local clone other than the workspace's, as a hint to name one
/// with `--repo`; `None` when there is none.
fn cloned_repositories(r: &Reader) -> Option<String> {
    let names: Vec<&str> = r
        .repositories()
        .repos
        .iter()
        .filter(|x| !x.is_workspace && x.repo.is_some())
        .map(|x| x.name.as_str())
        .collect();
    match names.as_slice() {
        [] => None,
        [one] => Some(format!(
            "the cited code is in {one}, which has a local clone: add --repo {one}"
        )),
        many => Some(format!(
            "the cited code is in repositories with local clones: add --repo with one of {}",
            many.join(", ")
        )),
    }
}

/// For a file not found where it was asked for: where the workspace's references cite it (its
/// repository path, or a path ending so), with the read at that commit to paste. `None` when
/// no reference cites it, or the graph cannot be had.
fn cited_hint(session: &Session, path: &str, lines: &str) -> Option<String> {
    use ontoly_capabilities::pack::shell_quote;
    let at = ontoly_capabilities::walk::cited_at(session.graph().ok()?, path);
    // As a pack's next steps name it: `--workspace` as given, when it is not the current
    // directory's.
    let workspace = match session.display_root() {
        "" | "." => String::new(),
        root => format!("--workspace {} ", shell_quote(root)),
    };
    let read = |(repo, commit, p): &(&str, &str, &str)| {
        format!(
            "ontoly {workspace}read --repo {} --rev {} {}",
            shell_quote(repo),
            shell_quote(commit),
            shell_quote(&format!("{p}{lines}"))
        )
    };
    match at.as_slice() {
        [] => None,
        [one] => Some(format!(
            "the workspace cites {} in {} at {}: {}",
            one.2,
            one.0,
            one.1.get(..12).unwrap_or(one.1),
            read(one)
        )),
        many => Some(format!(
            "the workspace cites it at {} places, e.g. {}",
            many.len(),
            read(&many[0])
        )),
    }
}

/// The formats every pinned read renders.
pub const FORMATS: &[Format] = &[Format::Text, Format::Json, Format::Yaml];

/// Options shared by every pinned read.
#[derive(clap::Args, Debug, Clone)]
pub struct RepoArgs {
    /// Repository: owner/name, <source>/<module>, <source>, or a remote (default: the
    /// workspace's own, which holds its knowledge pages).
    #[arg(long, alias = "repository", value_name = "REPO")]
    repo: Option<String>,
    /// Branch, tag or commit (default: the repository's default branch).
    #[arg(long, alias = "revision", value_name = "REV")]
    rev: Option<String>,
    /// Output format.
    #[arg(long, value_parser = crate::render::parser(FORMATS))]
    format: Option<Format>,
}

/// `ontoly read`.
pub mod read {
    pub use super::FORMATS;
    use super::*;

    /// The `--format` given to this command.
    pub fn format(a: &Args) -> Option<Format> {
        a.repo.format
    }
    use crate::report::ReadView;
    use ontoly_capabilities::walk;
    use ontoly_graph::formats::location::{LinesTwice, ReadLines};
    use ontoly_graph::sources::reads::{ReadRequest, ReadResult};

    /// Read a line range of a file at a pinned commit (500 lines / 256 KiB at most); knowledge
    /// pages come with the references of the overlapping sections.
    #[derive(clap::Args, Debug)]
    pub struct Args {
        #[command(flatten)]
        repo: RepoArgs,
        /// Repository-root relative path, with its lines as PATH:START or PATH:START-END if you
        /// like (as `read-many`, `digest` and `cites` take them), or with --start and --end.
        #[arg(value_name = "PATH[:START[-END]]")]
        path: String,
        /// First line (default 1).
        #[arg(long, alias = "start-line", allow_negative_numbers = true)]
        start: Option<i64>,
        /// Last line (default start + 499).
        #[arg(long, alias = "end-line", allow_negative_numbers = true)]
        end: Option<i64>,
    }

    /// Runs the read.
    pub fn run(ctx: &Globals, args: &Args) -> Result<Output, CliError> {
        let (path, start_line, end_line) = match ReadLines::of(&args.path, args.start, args.end) {
            Ok(l) => (l.path.to_string(), l.start, l.end),
            Err(LinesTwice { written: (a, b) }) => {
                return Err(CliError {
                    message: format!(
                        "{:?} names lines {a}-{b}, and --start/--end say otherwise",
                        args.path
                    ),
                    hint: Some(
                        "give the lines once: PATH:START-END, or PATH --start N --end M".into(),
                    ),
                    ..Default::default()
                })
            }
        };
        let session = session(ctx, &args.repo)?;
        let r = session.reader()?;
        let res = r.read(&ReadRequest {
            repository: args.repo.repository(&r)?,
            revision: args.repo.rev.clone(),
            path: path.clone(),
            start_line,
            end_line,
        });
        let lines = match (start_line, end_line) {
            (Some(a), Some(b)) => format!(":{a}-{b}"),
            (Some(a), None) => format!(":{a}"),
            _ => String::new(),
        };
        let unpinned = args.repo.rev.is_none();
        let view = |result: ReadResult| {
            let hint = unpinned
                .then(|| session.graph().ok())
                .flatten()
                .and_then(|g| {
                    walk::unpinned_read_note(g, &result.repository, &result.path, &result.commit)
                });
            Report::Read(ReadView { result, hint })
        };
        Ok(output(res, view, (&r, &args.repo), |e| {
            (e.code == Code::FileNotFound)
                .then(|| {
                    cited_hint(&session, &path, &lines)
                        .or_else(|| here_hint(&session, &r, &args.repo, &path, &lines))
                })
                .flatten()
        }))
    }

    /// A path typed from a subdirectory (`configuration-file.md` in `knowledge/usage/`) names
    /// a file of the workspace's own repository relative to the current directory, where
    /// reads take it from the repository's root: the path to give instead.
    fn here_hint(
        session: &Session,
        r: &Reader,
        repo: &RepoArgs,
        path: &str,
        lines: &str,
    ) -> Option<String> {
        if repo.repo.is_some() {
            return None;
        }
        let in_workspace = crate::commands::from_current_dir(session, path)?;
        if in_workspace == path || !session.workspace().path(&in_workspace).is_file() {
            return None;
        }
        let prefix = r.repositories().workspace()?.workspace_root.clone();
        let full = if prefix.is_empty() {
            in_workspace
        } else {
            format!("{prefix}/{in_workspace}")
        };
        Some(format!(
            "paths are read from the repository's root, not the current directory: `ontoly read {}`",
            ontoly_capabilities::pack::shell_quote(&format!("{full}{lines}"))
        ))
    }
}

/// `ontoly read-many`.
pub mod read_many {
    pub use super::FORMATS;
    use super::*;

    /// The `--format` given to this command.
    pub fn format(a: &Args) -> Option<Format> {
        a.repo.format
    }
    use ontoly_capabilities::walk;
    use ontoly_graph::formats::location::Location;
    use ontoly_graph::sources::reads::{ReadManyItem, ReadManyItemResult, ReadManyRequest};

    /// Read 1–10 ranges at one commit within one batch budget (1000 lines / 256 KiB).
    #[derive(clap::Args, Debug)]
    pub struct Args {
        #[command(flatten)]
        repo: RepoArgs,
        /// Items as PATH, PATH:START or PATH:START-END, in order.
        #[arg(required = true, value_name = "PATH[:START[-END]]")]
        items: Vec<String>,
    }

    /// `src/a.rs:10-20` → path and range, `src/a.rs:7` → line 7 alone, as everywhere
    /// ([`Location`]).
    pub(crate) fn parse_item(s: &str) -> ReadManyItem {
        let l = Location::parse(s);
        let lines = l.lines.map(|(a, b)| {
            let line = |n: u64| i64::try_from(n).unwrap_or(i64::MAX);
            (line(a), line(b))
        });
        ReadManyItem {
            path: l.path.to_string(),
            start_line: lines.map(|x| x.0),
            end_line: lines.map(|x| x.1),
        }
    }

    /// Runs the batch.
    pub fn run(ctx: &Globals, args: &Args) -> Result<Output, CliError> {
        let session = session(ctx, &args.repo)?;
        let r = session.reader()?;
        let mut res = r.read_many(&ReadManyRequest {
            repository: args.repo.repository(&r)?,
            revision: args.repo.rev.clone(),
            items: args.items.iter().map(|s| parse_item(s)).collect(),
        });
        // An item not found where it was asked for says where the workspace cites it, and
        // one read at the default branch which commit the pages cite instead, as `read` does
        // (the graph is opened only for such items).
        let unpinned = args.repo.rev.is_none();
        if let Ok(many) = res.as_mut() {
            let missing = |i: &ReadManyItemResult| {
                i.error
                    .as_ref()
                    .is_some_and(|e| e.code == Code::FileNotFound)
            };
            if let Some(g) = (unpinned || many.items.iter().any(missing))
                .then(|| session.graph().ok())
                .flatten()
            {
                let (repository, commit) = (&many.repository, &many.commit);
                for item in &mut many.items {
                    if let Some(e) = item.error.as_mut() {
                        walk::note_where_cited(g, &item.path, e);
                    }
                    if unpinned && item.content.is_some() {
                        item.note = walk::unpinned_read_note(g, repository, &item.path, commit);
                    }
                }
            }
        }
        let failed = res
            .as_ref()
            .is_ok_and(|r| r.items.iter().any(|i| i.error.is_some()));
        let mut out = output(res, Report::ReadMany, (&r, &args.repo), |_| None);
        // Every item is printed; a failed one makes the answer negative, as for `read`.
        if failed {
            out.exit = 1;
        }
        Ok(out)
    }
}

/// `ontoly search`.
pub mod search {
    pub use super::FORMATS;
    use super::*;

    /// The `--format` given to this command.
    pub fn format(a: &Args) -> Option<Format> {
        a.repo.format
    }
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
    pub fn run(ctx: &Globals, args: &Args) -> Result<Output, CliError> {
        let r = reader(ctx, &args.repo)?;
        let res = r.search(&SearchRequest {
            repository: args.repo.repository(&r)?,
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
        let none = res.as_ref().is_ok_and(|r| r.files.is_empty());
        // Nothing in the workspace's own files, when no repository was named: the cited code
        // is elsewhere, and where is worth saying.
        let hint = (none && args.repo.repo.is_none())
            .then(|| cloned_repositories(&r))
            .flatten();
        let view = |result| Report::Search(Box::new(crate::report::SearchView { result, hint }));
        let mut out = output(res, view, (&r, &args.repo), |_| None);
        // No match is exit 1, as with grep and rg.
        if none {
            out.exit = 1;
        }
        Ok(out)
    }
}

/// `ontoly resolve`.
pub mod resolve {
    pub use super::FORMATS;
    use super::*;

    /// The `--format` given to this command.
    pub fn format(a: &Args) -> Option<Format> {
        a.repo.format
    }
    use ontoly_graph::sources::reads::ResolveRequest;

    /// Resolve a branch (or the default branch) to its full commit.
    #[derive(clap::Args, Debug)]
    pub struct Args {
        #[command(flatten)]
        repo: RepoArgs,
    }

    /// Runs the resolution.
    pub fn run(ctx: &Globals, args: &Args) -> Result<Output, CliError> {
        let r = reader(ctx, &args.repo)?;
        let res = r.resolve(&ResolveRequest {
            repository: args.repo.repository(&r)?,
            revision: args.repo.rev.clone(),
        });
        Ok(output(res, Report::Resolve, (&r, &args.repo), |_| None))
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
            ("src/a.rs", Some(7), Some(7))
        );
        let i = parse_item("weird:name.rs");
        assert_eq!((i.path.as_str(), i.start_line), ("weird:name.rs", None));
        let i = parse_item("a.rs:1-x");
        assert_eq!((i.path.as_str(), i.start_line), ("a.rs:1-x", None));
    }
}

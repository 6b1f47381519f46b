//! `ontoly digest PATH:START-END [--source NAME] [--rev REV]`: the reference entry for a range
//! of a registered repository — `source_ref`, `locator` and `content_digest` by the format's
//! digest rule — as YAML ready to paste under a section's `references:`.
//!
//! `--source` is the global option: `--source NAME=PATH` maps a clone as everywhere, while a
//! bare `--source NAME` (no `=`) names the registry module to cite.

use super::{CliError, Globals, Output};
use crate::render::Format;
use crate::report::Report;
use ontoly_graph::diagnostics::Code;
use ontoly_graph::formats::location::path_fault;
use ontoly_graph::formats::location::Location;
use ontoly_graph::formats::text::{is_full_commit, range_digest};
use ontoly_graph::sources::clones::{repo_modules, RepoModule};
use ontoly_graph::sources::drift::DriftRepo;
use ontoly_graph::sources::git::Lookup;
use ontoly_graph::sources::reads::ReadError;

/// The formats `ontoly digest` renders (the entry is YAML whatever the format).
pub const FORMATS: &[Format] = &[Format::Text];

/// Arguments of `ontoly digest`. The module comes from `--source NAME` (without `=PATH`).
#[derive(clap::Args)]
pub struct Args {
    /// The cited lines: `PATH:START-END` (or `PATH:LINE`), PATH relative to the module's
    /// subpath, as in a locator (a repository path under the subpath, as `cites` and `read`
    /// print it, is read as relative to it when only that names a file).
    #[arg(value_name = "PATH:START-END")]
    location: String,
    /// The commit to read (default: the commit the registry pins the module to).
    #[arg(long, value_name = "REV")]
    rev: Option<String>,
}

/// No `--format`.
pub fn format(_: &Args) -> Option<Format> {
    None
}

fn failed(code: Code, message: String) -> Output {
    Output {
        report: Report::ReadError(ReadError { code, message }.into()),
        exit: 1,
    }
}

/// The hint when no repository is registered: what a first-time user has to add, and where.
fn no_module() -> String {
    format!(
        "sources/repo/index.yaml registers no repository yet: write it with your repository as a \
         module, its remote and the commit it is pinned to, e.g. `{}`, and map its local clone \
         under [sources] in ontoly.toml (\"acme/payments\" = \"../payments\")",
        ontoly_graph::formats::source_registry::REPO_EXAMPLE
    )
}

/// The registry module named `name` (`acme/payments`), or the only one when no name is given.
fn module(modules: &[RepoModule], name: Option<&str>) -> Result<RepoModule, CliError> {
    let names = || {
        modules
            .iter()
            .map(|m| m.name.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    };
    let found = match name {
        Some(n) => modules.iter().find(|m| m.name == n),
        None if modules.len() == 1 => modules.first(),
        None => {
            return Err(CliError {
                message: "which repository? name its module with --source NAME".into(),
                hint: Some(if modules.is_empty() {
                    no_module()
                } else {
                    format!("modules of sources/repo/index.yaml: {}", names())
                }),
                ..Default::default()
            })
        }
    };
    found.cloned().ok_or_else(|| CliError {
        message: format!(
            "no module {:?} in sources/repo/index.yaml",
            name.unwrap_or("")
        ),
        hint: Some(
            match name.and_then(|n| {
                ontoly_graph::suggest::nearest(n, modules.iter().map(|m| m.name.as_str()))
            }) {
                Some(near) => format!("did you mean --source {near}?"),
                None if modules.is_empty() => no_module(),
                None => format!("modules: {}", names()),
            },
        ),
        ..Default::default()
    })
}

/// Prints the reference entry.
pub fn run(ctx: &Globals, a: &Args) -> Result<Output, CliError> {
    let (names, maps): (Vec<String>, Vec<String>) =
        ctx.sources.iter().cloned().partition(|s| !s.contains('='));
    if names.len() > 1 {
        return Err(CliError::new(format!(
            "digest cites one module, got --source {}",
            names.join(", --source ")
        )));
    }
    let loc = Location::parse(&a.location);
    let Some((start, end)) = loc.lines.filter(|(s, e)| *s >= 1 && s <= e) else {
        return Err(CliError {
            message: format!("{:?} is not PATH:START-END", a.location),
            hint: Some("lines are 1-based and START <= END, e.g. src/retry.py:1-3".into()),
            ..Default::default()
        });
    };
    // The entry this prints must pass the structure's locator rule, so that rule decides.
    if let Some(fault) = path_fault(loc.path) {
        return Err(CliError::new(format!("the path {:?} {fault}", loc.path)));
    }
    let globals = Globals {
        sources: maps,
        ..ctx.clone()
    };
    let session = globals.session()?;
    let m = module(
        &repo_modules(&session.workspace().root),
        names.first().map(String::as_str),
    )?;
    let repos = session.repositories()?;
    let Some(git) = repos.lookup(&m.name).ok().and_then(|r| r.repo.as_ref()) else {
        // Mapped to a path that does not open: say that, not that nothing is mapped.
        let message = match session
            .clones()?
            .broken_for(Some(&m.name), m.remote.as_deref())
        {
            Some((mapping, why)) => format!(
                "module '{}': the clone mapped by {} {why}",
                m.name,
                mapping.shown()
            ),
            None => format!(
                "module '{}' has no local clone: map it in ontoly.toml or with --source {}=PATH",
                m.name, m.name
            ),
        };
        return Ok(failed(Code::RepositoryNotFound, message));
    };
    let local = git.local();
    let rev = a
        .rev
        .clone()
        .or_else(|| m.git_ref.clone())
        .unwrap_or_default();
    let commit = if is_full_commit(&rev) && local.has_commit(&rev) {
        rev.to_ascii_lowercase()
    } else {
        // Revisions as `drift --to` takes them: `HEAD`, `HEAD~1`, `v2.0^2`, a branch, a tag,
        // an abbreviated commit (`drift --write`'s review sends here with the later commit).
        match DriftRepo::new(git).reader().resolve(&rev) {
            Ok(c) => c,
            Err(_) => {
                return Ok(failed(
                    Code::RevisionNotFound,
                    format!(
                        "revision '{rev}' was not found in the clone of '{}'",
                        m.name
                    ),
                ))
            }
        }
    };
    let subpath = m.subpath.trim_end_matches('/');
    let under = |p: &str| {
        if subpath.is_empty() {
            p.to_string()
        } else {
            format!("{subpath}/{p}")
        }
    };
    let blob = |p: &str| match local.lookup(&commit, p) {
        Ok(Lookup::Blob { id, .. }) => Some(id),
        _ => None,
    };
    // A path copied from `read`, `cites` or a link is repository-relative: under a module
    // with a subpath, taken as relative to it when only that reading names a file.
    let mut path = loc.path;
    let mut read_as = None;
    let mut found = blob(&under(path));
    if found.is_none() && !subpath.is_empty() {
        if let Some(rest) = path.strip_prefix(subpath).and_then(|r| r.strip_prefix('/')) {
            found = blob(path);
            if found.is_some() {
                read_as = Some(format!(
                    "# {path} is {rest} under the module's subpath {subpath}/: the locator names {rest}\n"
                ));
                path = rest;
            }
        }
    }
    let full = under(path);
    let text = match found {
        Some(id) => match local.blob(id) {
            Ok(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
            Err(_) => {
                return Ok(failed(
                    Code::FileNotFound,
                    format!("'{full}' could not be read at {commit}"),
                ))
            }
        },
        None => {
            let relative = if subpath.is_empty() {
                String::new()
            } else {
                format!(
                    " (locator paths of module {} are relative to its subpath {subpath}/)",
                    m.name
                )
            };
            // The file it most likely meant, as `cites` reads a shortened path and `validate`
            // offers one: offered with the command that prints its entry, never taken in its
            // place (an entry records the path it names).
            let meant: Vec<String> =
                ontoly_graph::sources::verify::nearby_files(&local, &commit, &full)
                    .into_iter()
                    .filter_map(|f| match subpath {
                        "" => Some(f),
                        s => f.strip_prefix(s)?.strip_prefix('/').map(str::to_string),
                    })
                    .collect();
            let offer = match meant.as_slice() {
                [] => String::new(),
                [one] => format!(
                    "; the commit has `{one}`: {} `ontoly digest {one}:{start}-{end} --source {}` prints its entry",
                    ontoly_graph::sources::verify::missing_path_question(path, &meant),
                    m.name
                ),
                many => format!(
                    "; the commit has {}: {}",
                    (many.iter().map(|f| format!("`{f}`")))
                        .collect::<Vec<_>>()
                        .join(", "),
                    ontoly_graph::sources::verify::missing_path_question(path, &meant)
                ),
            };
            return Ok(failed(
                Code::FileNotFound,
                format!("'{full}' is not a file at {commit}{relative}{offer}"),
            ));
        }
    };
    let n = text.matches('\n').count() + usize::from(!text.is_empty() && !text.ends_with('\n'));
    // The format's split makes the empty text after a final newline a line of its own, so a
    // range may end there and verify; but it cites nothing, and such an entry (its digest is
    // that of the real lines plus a newline) is what `sed -n S,Ep | sha256sum` gives, the
    // mistake the docs warn about. Not printed as a ready entry.
    if end > n as u64 && range_digest(&text, start, end).is_some() {
        let instead = if start <= n as u64 {
            format!("; lines {start}-{n} are the range")
        } else {
            String::new()
        };
        return Ok(failed(
            Code::LineRangeNotSatisfiable,
            format!(
                "'{full}' has {n} lines at {commit}: line {end} is the empty text after its final newline, which cites nothing{instead}"
            ),
        ));
    }
    let Some(digest) = range_digest(&text, start, end) else {
        return Ok(failed(
            Code::LineRangeNotSatisfiable,
            format!("'{full}' has {n} lines at {commit}: lines {start}-{end} go past its end"),
        ));
    };
    let pinned = m.git_ref.as_deref().filter(|r| is_full_commit(r));
    let mut out = format!("# lines {start}-{end} of {full} at {commit} (the file has {n} lines)\n");
    out.push_str(read_as.as_deref().unwrap_or(""));
    if pinned.is_some_and(|p| !p.eq_ignore_ascii_case(&commit)) {
        out.push_str(&format!(
            "# note: the registry pins {} at {}; the reference is verified there\n",
            m.name,
            pinned.unwrap_or_default()
        ));
    }
    // A tag or branch as the module's ref can move, so no reference of it verifies
    // (`validate` says SOURCE_UNPINNED); said here, where the entry is written, with the
    // commit to pin instead (the stop-45 docs audit found digest silent about it).
    if let Some(name) = m.git_ref.as_deref().filter(|r| !is_full_commit(r)) {
        let resolved = DriftRepo::new(git).reader().resolve(name).ok();
        out.push_str(&match resolved {
            Some(c) => format!(
                "# note: the registry pins {} to {name}, which can move (SOURCE_UNPINNED): write its commit {c} as the module's ref, or no reference of it verifies\n",
                m.name
            ),
            None => format!(
                "# note: the registry pins {} to {name}, which its clone does not resolve (SOURCE_UNPINNED): write a full commit as the module's ref\n",
                m.name
            ),
        });
    }
    out.push_str(&format!(
        "- source_ref: repo:{}\n  locator: {{path: {}, start_line: {start}, end_line: {end}}}\n  content_digest: {digest}\n",
        m.name,
        yaml_plain(path)
    ));
    Ok(Output::ok(Report::Raw(out)))
}

/// A path as a YAML flow scalar: plain when that reads back as the same string, else quoted.
fn yaml_plain(s: &str) -> String {
    // A `/` or `.` keeps it from reading as a number, boolean or null.
    let plain = s.contains(['/', '.'])
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || "/._-".contains(c))
        && !s.starts_with(['-', '.'])
        && s.parse::<f64>().is_err();
    if plain {
        s.to_string()
    } else {
        serde_json::to_string(s).unwrap_or_default()
    }
}

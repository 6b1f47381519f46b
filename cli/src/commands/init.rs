//! `ontoly init [DIR]`: a minimal workspace to start from — one page with one marked section,
//! the structure that lists it, and an `ontoly.toml` for local clones. Never overwrites.

use super::{CliError, Globals, Output};
use crate::render::Format;
use crate::report::Report;
use std::path::{Path, PathBuf};

/// `ontoly init` prints what it wrote; no `--format`.
pub const FORMATS: &[Format] = &[];

/// Arguments of `ontoly init`.
#[derive(clap::Args)]
pub struct Args {
    /// The directory to create the workspace in (created when missing; default: the current
    /// directory).
    #[arg(default_value = ".")]
    dir: PathBuf,
}

/// No `--format`.
pub fn format(_: &Args) -> Option<Format> {
    None
}

const STRUCTURE: &str = "\
schema_version: context.approved-structure.v1
articles:
  - article_id: welcome
    path: welcome.md
    visibility: public
    sections:
      - id: about
        references: []
";

const PAGE: &str = "\
---
title: Welcome
---
# Welcome

<!-- context:section id=\"about\" -->
## About this workspace

What this knowledge workspace documents, and for whom. Each section like this one is listed in
knowledge/structure.yaml with the source lines it was written from (its `references`).

<!-- /context:section -->
";

const CONFIG: &str = "\
# Local clones of the repositories that references cite, relative to this directory:
# a registry module (\"<source>/<module>\") or a remote (\"github.com/acme/payments\").
[sources]
# \"acme/payments\" = \"../payments\"
";

const GITIGNORE: &str = "# ontoly's graph cache\n.ontoly/\n";

/// The files `init` writes, relative to the workspace.
const FILES: [(&str, &str); 4] = [
    ("knowledge/structure.yaml", STRUCTURE),
    ("knowledge/welcome.md", PAGE),
    ("ontoly.toml", CONFIG),
    (".gitignore", GITIGNORE),
];

fn shown(dir: &Path, rel: &str) -> String {
    if dir == Path::new(".") {
        rel.to_string()
    } else {
        format!("{}/{rel}", dir.to_string_lossy().trim_end_matches('/'))
    }
}

/// The workspace whose `knowledge/` already holds `dir`, as `../..` from `dir`: a new
/// workspace there would be pages of that one (`knowledge/guides/knowledge/…`). A workspace
/// beside another one's `knowledge/` (`repo/` and `repo/docs-kb/`) is not inside it.
fn enclosing_workspace(dir: &Path) -> Option<String> {
    // The nearest directory that exists: `dir` may not yet.
    let existing = dir
        .ancestors()
        .find(|d| !d.as_os_str().is_empty() && d.exists());
    let mut target = std::fs::canonicalize(existing.unwrap_or(Path::new("."))).ok()?;
    match existing {
        Some(e) => target.push(dir.strip_prefix(e).ok()?),
        None => target.push(dir),
    }
    target
        .ancestors()
        .enumerate()
        .skip(1)
        .find(|(_, d)| {
            d.join("knowledge/structure.yaml").is_file() && target.starts_with(d.join("knowledge"))
        })
        .map(|(up, _)| above(dir, up))
}

/// The directory `up` levels above `dir`, written from where the command runs (the way `dir`
/// was typed): `kb` for `kb/knowledge/sub` two levels up, not `../..` from inside it.
fn above(dir: &Path, up: usize) -> String {
    use std::path::Component;
    if dir.is_absolute() {
        return dir
            .ancestors()
            .nth(up)
            .map_or_else(|| "/".to_string(), |p| p.display().to_string());
    }
    let parts: Vec<Component> = dir
        .components()
        .filter(|c| !matches!(c, Component::CurDir))
        .collect();
    if !parts.iter().all(|c| matches!(c, Component::Normal(_))) {
        return format!("{}/{}", dir.display(), vec![".."; up].join("/"));
    }
    match parts.len().checked_sub(up) {
        Some(0) => ".".to_string(),
        Some(keep) => parts[..keep]
            .iter()
            .collect::<std::path::PathBuf>()
            .display()
            .to_string(),
        None => vec![".."; up - parts.len()].join("/"),
    }
}

/// The `[sources]` lines for `--source NAME=PATH` given to `init` (the commented example when
/// none is).
fn sources_table(sources: &[String]) -> Result<String, CliError> {
    if sources.is_empty() {
        return Ok(CONFIG.to_string());
    }
    let mut lines: Vec<String> = CONFIG
        .lines()
        .filter(|l| !l.starts_with("# \""))
        .map(str::to_string)
        .collect();
    for s in sources {
        let Some((name, path)) = s
            .split_once('=')
            .filter(|(n, p)| !n.is_empty() && !p.is_empty())
        else {
            return Err(CliError {
                message: format!("init maps clones: --source {s} has no =PATH"),
                hint: Some("give --source NAME=PATH (\"acme/payments=../payments\")".into()),
                ..Default::default()
            });
        };
        let quote = |v: &str| toml::Value::String(v.to_string()).to_string();
        lines.push(format!("{} = {}", quote(name), quote(path)));
    }
    Ok(lines.join("\n") + "\n")
}

/// Writes the starter workspace.
pub fn run(ctx: &Globals, a: &Args) -> Result<Output, CliError> {
    // `--workspace DIR` names the directory as well as the positional DIR does.
    let dir = match (&ctx.workspace, a.dir == Path::new(".")) {
        (Some(w), true) => w.clone(),
        (Some(w), false) if *w != a.dir => {
            return Err(CliError::new(format!(
                "init was given two directories: {} and --workspace {}",
                a.dir.display(),
                w.display()
            )))
        }
        _ => a.dir.clone(),
    };
    let a = &Args { dir };
    let config = sources_table(&ctx.sources)?;
    if let Some(up) = enclosing_workspace(&a.dir) {
        let what = if a.dir == Path::new(".") {
            "this directory".to_string()
        } else {
            a.dir.display().to_string()
        };
        return Err(CliError {
            message: format!(
                "{what} is inside the knowledge workspace at {up} (it holds knowledge/structure.yaml); init starts a new workspace, not pages of one"
            ),
            hint: Some(format!(
                "add pages under {up}/knowledge/ and list them in its structure.yaml, or give init a directory outside it"
            )),
            ..Default::default()
        });
    }
    // A directory init would write into that is a link (`knowledge -> /elsewhere`) would put
    // the new files outside the workspace.
    let linked: Vec<String> = FILES
        .iter()
        .flat_map(|(rel, _)| {
            Path::new(rel)
                .ancestors()
                .skip(1)
                .filter(|p| !p.as_os_str().is_empty())
                .map(|p| p.to_string_lossy().into_owned())
                .collect::<Vec<_>>()
        })
        .filter(|d| {
            std::fs::symlink_metadata(a.dir.join(d)).is_ok_and(|m| m.file_type().is_symlink())
        })
        .collect::<std::collections::BTreeSet<_>>()
        .into_iter()
        .map(|d| shown(&a.dir, &d))
        .collect();
    if !linked.is_empty() {
        return Err(CliError {
            message: format!(
                "{} is a link; init writes a new workspace into directories of its own",
                linked.join(", ")
            ),
            hint: Some("choose another directory (`ontoly init DIR`)".into()),
            ..Default::default()
        });
    }
    // Whatever is at a name counts, a dangling link too (`exists` follows links).
    let existing: Vec<String> = FILES
        .iter()
        .filter(|(rel, _)| std::fs::symlink_metadata(a.dir.join(rel)).is_ok())
        .map(|(rel, _)| shown(&a.dir, rel))
        .collect();
    if !existing.is_empty() {
        return Err(CliError {
            message: format!(
                "{} already {}; init never overwrites",
                existing.join(", "),
                if existing.len() == 1 {
                    "exists"
                } else {
                    "exist"
                }
            ),
            hint: Some(
                "choose another directory (`ontoly init DIR`), or edit the workspace by hand"
                    .into(),
            ),
            ..Default::default()
        });
    }
    let mut out = String::new();
    for (rel, text) in FILES {
        let text = if rel == "ontoly.toml" {
            config.as_str()
        } else {
            text
        };
        let path = a.dir.join(rel);
        let written = path
            .parent()
            .map_or(Ok(()), std::fs::create_dir_all)
            .and_then(|()| {
                std::fs::OpenOptions::new()
                    .write(true)
                    .create_new(true)
                    .open(&path)
            })
            .and_then(|mut f| std::io::Write::write_all(&mut f, text.as_bytes()));
        if let Err(e) = written {
            // Not half a workspace: what this run created goes again.
            for (done, _) in FILES.iter().take_while(|(r, _)| *r != rel) {
                let _ = std::fs::remove_file(a.dir.join(done));
            }
            return Err(CliError::new(format!(
                "cannot write {}: {}",
                shown(&a.dir, rel),
                e.kind()
            )));
        }
        out.push_str(&format!("created {}\n", shown(&a.dir, rel)));
    }
    let ws = if a.dir == Path::new(".") {
        String::new()
    } else {
        let dir = a.dir.to_string_lossy();
        // A path has no NUL byte, the one thing a shell word cannot hold.
        let quoted = shlex::try_quote(&dir).unwrap_or_else(|_| dir.clone());
        format!("--workspace {quoted} ")
    };
    // Points at commands, not at a docs path: an installed binary comes without the docs.
    out.push_str(&format!(
        "next: write pages under knowledge/, list their sections in knowledge/structure.yaml, \
         register cited repositories in sources/repo/index.yaml and their clones in ontoly.toml, \
         get each reference entry from `ontoly {ws}digest PATH:START-END --source MODULE`, \
         then `ontoly {ws}validate`\n"
    ));
    Ok(Output::ok(Report::Raw(out)))
}

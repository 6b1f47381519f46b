//! `ontoly mark PAGE… [--level N] [--write]`: section markers for pages written without them,
//! and the `structure.yaml` entries that list them — the first step of converting an existing
//! docs folder, which every converting team otherwise scripts by hand (authoring walk, stop 54).
//!
//! Without `--write` nothing changes: it prints the sections it would mark (a page that is
//! already marked lists the sections it has). With `--write` it writes the markers into the
//! pages (each file replaced atomically). Either way it ends with the entries to add under
//! `articles:` for the pages `knowledge/structure.yaml` does not list yet.

use super::{CliError, Globals, Output};
use crate::render::Format;
use crate::report::Report;
use ontoly_graph::formats::markers::parse_sections;
use ontoly_graph::formats::marking::{apply, plan, slug, Planned};
use ontoly_graph::formats::page::parse_page;
use ontoly_graph::formats::structure::load_structure;
use ontoly_graph::formats::yaml_edit::scalar as yaml_scalar;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// `ontoly mark` prints text; no `--format`.
pub const FORMATS: &[Format] = &[];

/// Arguments of `ontoly mark`.
#[derive(clap::Args)]
pub struct Args {
    /// The pages: markdown files under the workspace's `knowledge/` (as typed from the current
    /// directory, or relative to `knowledge/`).
    #[arg(required = true, value_name = "PAGE")]
    pages: Vec<PathBuf>,
    /// The heading level whose headings open sections (1–6); the text up to the next heading
    /// of that level or above is the section.
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u8).range(1..=6))]
    level: u8,
    /// Write the markers into the pages (without it, only print what would be marked).
    #[arg(long)]
    write: bool,
}

/// No `--format`.
pub fn format(_: &Args) -> Option<Format> {
    None
}

/// One page as `mark` read it.
struct Page {
    /// Relative to `knowledge/`.
    rel: String,
    /// The sections it has (already marked) or would have.
    sections: Vec<Planned>,
    /// Whether its markers were there before.
    marked: bool,
    /// The marked text, when `--write` is to write it.
    new_text: Option<String>,
}

/// The page `typed` names, relative to `knowledge/`: as typed from the current directory when
/// that is a file inside `knowledge/`, else as a path under `knowledge/`.
fn page_path(root: &Path, typed: &Path) -> Result<String, CliError> {
    let knowledge = root.join("knowledge");
    let knowledge = knowledge.canonicalize().unwrap_or(knowledge);
    let candidates = [typed.to_path_buf(), knowledge.join(typed)];
    for c in candidates {
        let Ok(full) = c.canonicalize() else { continue };
        if !full.is_file() {
            continue;
        }
        let Ok(rel) = full.strip_prefix(&knowledge) else {
            return Err(CliError {
                message: format!(
                    "{} is not under the workspace's knowledge/",
                    typed.display()
                ),
                hint: Some("pages live under knowledge/: copy or move the page there first".into()),
                ..Default::default()
            });
        };
        let rel = rel.to_string_lossy().replace('\\', "/");
        if !rel.ends_with(".md") {
            return Err(CliError::new(format!("{rel} is not a markdown page (.md)")));
        }
        return Ok(rel);
    }
    Err(CliError::new(format!(
        "{} does not exist (nor knowledge/{})",
        typed.display(),
        typed.display()
    )))
}

/// The title of each section of an already-marked page: the section's title in the graph
/// (its first heading, read by the one heading reader), else its first line of text.
fn marked_titles(rel: &str, text: &str) -> Vec<String> {
    parse_page(rel, Ok(text.as_bytes()), "")
        .section_texts
        .into_iter()
        .map(|(title, body)| {
            title.unwrap_or_else(|| {
                let first = body.lines().map(str::trim).find(|l| !l.is_empty());
                first.unwrap_or_default().to_string()
            })
        })
        .collect()
}

/// Marks the pages (or says what it would mark) and prints their structure entries.
pub fn run(ctx: &Globals, a: &Args) -> Result<Output, CliError> {
    let session = ctx.session()?;
    let root = session.workspace().root.clone();
    let mut pages: Vec<Page> = Vec::new();
    for typed in &a.pages {
        let rel = page_path(&root, typed)?;
        if pages.iter().any(|p| p.rel == rel) {
            continue;
        }
        let file = format!("knowledge/{rel}");
        let bytes = session
            .read_workspace_file(&file)
            .map_err(|e| CliError::new(format!("{file}: {e}")))?;
        let text = String::from_utf8(bytes).map_err(|e| {
            CliError::new(format!(
                "{file}: not UTF-8 (at byte {})",
                e.utf8_error().valid_up_to()
            ))
        })?;
        let existing = parse_sections(&text);
        if let Some(e) = existing.errors.first() {
            return Err(CliError::new(format!(
                "{file}:{}: {} — fix its markers first (`ontoly validate` lists them)",
                e.line,
                e.kind.message()
            )));
        }
        if !existing.sections.is_empty() {
            let titles = marked_titles(&rel, &text);
            let sections = existing
                .sections
                .iter()
                .zip(titles)
                .map(|(s, title)| Planned {
                    id: s.id.clone(),
                    title,
                    heading_line: s.start,
                    last_line: s.end,
                })
                .collect();
            pages.push(Page {
                rel,
                sections,
                marked: true,
                new_text: None,
            });
            continue;
        }
        let sections = plan(&text, a.level);
        let new_text = (a.write && !sections.is_empty()).then(|| apply(&text, &sections));
        pages.push(Page {
            rel,
            sections,
            marked: false,
            new_text,
        });
    }
    let listed: Vec<String> = session
        .read_workspace_file("knowledge/structure.yaml")
        .ok()
        .and_then(|b| load_structure(&String::from_utf8_lossy(&b)).ok())
        .and_then(|s| s.articles)
        .unwrap_or_default()
        .into_iter()
        .filter_map(|a| a.path)
        .collect();
    let writes: Vec<(String, Vec<u8>)> = pages
        .iter()
        .filter_map(|p| {
            let t = p.new_text.as_ref()?;
            Some((format!("knowledge/{}", p.rel), t.clone().into_bytes()))
        })
        .collect();
    if !writes.is_empty() {
        session
            .replace_workspace_files(&writes)
            .map_err(|e| CliError::new(format!("nothing was written: {e}")))?;
    }
    let mut out = String::new();
    let mut empty = 0;
    for p in &pages {
        let what = if p.marked {
            "already marked".to_string()
        } else if p.sections.is_empty() {
            empty += 1;
            format!(
                "no level-{} heading outside code, quotes and lists",
                a.level
            )
        } else if a.write {
            "marked".to_string()
        } else {
            "would mark".to_string()
        };
        let _ = writeln!(
            out,
            "knowledge/{}: {what}{}",
            p.rel,
            match p.sections.len() {
                0 => String::new(),
                1 => ", 1 section".to_string(),
                n => format!(", {n} sections"),
            }
        );
        for s in &p.sections {
            let _ = writeln!(out, "  L{:<5} {:<28} {}", s.heading_line, s.id, s.title);
        }
    }
    if empty > 0 {
        let other = if a.level == 2 { 3 } else { 2 };
        let _ = writeln!(
            out,
            "A page without level-{} headings: try --level {other} (or 1).",
            a.level
        );
    }
    let new: Vec<&Page> = pages
        .iter()
        .filter(|p| !p.sections.is_empty() && !listed.contains(&p.rel))
        .collect();
    let already: Vec<&str> = pages
        .iter()
        .filter(|p| listed.contains(&p.rel))
        .map(|p| p.rel.as_str())
        .collect();
    if !already.is_empty() {
        let _ = writeln!(
            out,
            "\nknowledge/structure.yaml already lists {}: compare its sections with the ids above.",
            already.join(", ")
        );
    }
    if !new.is_empty() {
        let _ = writeln!(
            out,
            "\n# Add under `articles:` in knowledge/structure.yaml, then give each section the\n# source lines it was written from (`ontoly digest PATH:START-END --source NAME`):"
        );
        for p in new {
            let stem = p.rel.trim_end_matches(".md");
            let _ = writeln!(out, "  - article_id: {}", yaml_scalar(&slug(stem)));
            let _ = writeln!(out, "    path: {}", yaml_scalar(&p.rel));
            if let Some((dir, _)) = p.rel.split_once('/') {
                let _ = writeln!(out, "    collection: {}", yaml_scalar(dir));
            }
            let _ = writeln!(out, "    visibility: public");
            let _ = writeln!(out, "    sections:");
            for s in &p.sections {
                let _ = writeln!(out, "      - id: {}", yaml_scalar(&s.id));
                let _ = writeln!(out, "        references: []");
            }
        }
    }
    if !a.write && pages.iter().any(|p| !p.marked && !p.sections.is_empty()) {
        let _ = writeln!(
            out,
            "\nNothing was written: run again with --write to put the markers into the pages."
        );
    }
    Ok(Output::ok(Report::Raw(out)))
}

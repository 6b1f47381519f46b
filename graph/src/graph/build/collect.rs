//! Stage 3: workspace, article and section nodes, `CONTAINS` and `LINKS_TO` edges, texts for
//! retrieval, and every cross-check between the structure and the pages.

use super::{Parts, RefSite};
use crate::diagnostics::Code;
use crate::formats::layout::STRUCTURE_FILE;
use crate::formats::markers::SectionSpan;
use crate::formats::page::PageParse;
use crate::formats::parsed::StructureParse;
use crate::formats::structure::{self, ArticleEntry};
use crate::graph::findings::Finding;
use crate::graph::model::{ids, Edge, EdgeKind, Metadata, Node, NodeKind, Origin, SharedStr, Span};
use rayon::prelude::*;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::sync::Arc;

pub(super) fn node(kind: NodeKind, id: String, name: String) -> Node {
    Node {
        id,
        kind,
        name,
        file: None,
        span: None,
        package: None,
        metadata: Metadata::new(),
    }
}

/// `file:line` (a [`SharedStr`] file is shared, not copied).
pub(super) fn origin(file: impl Into<SharedStr>, line: u64) -> Origin {
    Origin {
        file: file.into(),
        line: line.max(1),
    }
}

/// Unknown top-level keys of the structure reported one by one; the rest are counted in one
/// finding (each finding is a graph node: 60 000 keys in 600 KB would be 60 000 nodes).
pub const MAX_UNKNOWN_KEYS: usize = 100;

/// References of one section that the build checks and resolves. The format allows 3; a
/// section over that is an error already, and checking 40 000 of them took 350 MB.
pub const MAX_CHECKED_REFERENCES: usize = 100;

/// Stage 3: workspace, article and section nodes, `CONTAINS` and `LINKS_TO` edges, texts, and
/// every cross-check between the structure and the pages. Also returns every recorded
/// reference of a registered section, in structure order, borrowing its entry from the parse.
pub fn collect<'a>(
    structure: &'a StructureParse,
    pages: &'a BTreeMap<String, PageParse>,
    unlisted: &[(String, String)],
) -> (Parts, Vec<RefSite<'a>>) {
    let ws_id = ids::WORKSPACE.to_string();
    let mut parts = Parts::default();
    parts.nodes.push(node(
        NodeKind::Workspace,
        ws_id.clone(),
        ids::WORKSPACE_NAME.to_string(),
    ));
    for (dir, why) in unlisted {
        let (at, message) = if why == super::inputs::NOT_UTF8 {
            (
                dir.trim_end_matches('/'),
                format!("{why}, so no structure entry can name it: left out (rename it)"),
            )
        } else {
            (
                dir.as_str(),
                format!("cannot list this directory ({why}): the pages in it are left out"),
            )
        };
        parts
            .findings
            .push(Finding::new(Code::PageUnreadable, message, at, 1, &ws_id));
    }
    let sf = STRUCTURE_FILE;

    // Structure-level checks.
    let mut entries: BTreeMap<&str, &ArticleEntry> = BTreeMap::new();
    match structure {
        StructureParse::Unreadable(m) => parts.findings.push(Finding::new(
            Code::StructureUnreadable,
            m.clone(),
            sf,
            1,
            &ws_id,
        )),
        StructureParse::NotUtf8 { line, .. } => parts.findings.push(Finding::new(
            Code::StructureUnreadable,
            structure.problem().unwrap_or_default(),
            sf,
            *line,
            &ws_id,
        )),
        StructureParse::Invalid(m, line) => parts.findings.push(Finding::new(
            Code::YamlInvalid,
            format!("Invalid YAML metadata: {m}"),
            sf,
            line.unwrap_or(1),
            &ws_id,
        )),
        StructureParse::Parsed(s) => {
            if s.schema_version.as_deref() != Some(structure::SCHEMA_VERSION) {
                let got = s.schema_version.as_deref().unwrap_or("(missing)");
                parts.findings.push(Finding::new(
                    Code::SchemaUnsupported,
                    format!(
                        "Unsupported approved structure schema: {got} (expected {})",
                        structure::SCHEMA_VERSION
                    ),
                    sf,
                    s.key_line("schema_version"),
                    &ws_id,
                ));
            }
            if s.articles.is_none() {
                // An empty file (or one of comments) is the usual way to get here: say so.
                let empty = s.schema_version.is_none() && s.unknown_keys.is_empty();
                parts.findings.push(Finding::new(
                    Code::ArticlesMissing,
                    if empty {
                        "Missing structure articles: the file has no keys (it is empty, or only comments); it needs `schema_version` and an `articles:` list of the pages and their sections"
                    } else {
                        "Missing structure articles: add an `articles:` list of the pages and their sections"
                    },
                    sf,
                    s.key_line("articles"),
                    &ws_id,
                ));
            }
            for k in s.unknown_keys.iter().take(MAX_UNKNOWN_KEYS) {
                parts.findings.push(
                    Finding::new(
                        Code::UnknownKey,
                        format!("unknown key `{k}` is ignored"),
                        sf,
                        s.key_line(k),
                        &ws_id,
                    )
                    .with_discriminator(k.clone()),
                );
            }
            if let Some(first) = s.unknown_keys.get(MAX_UNKNOWN_KEYS) {
                let more = s.unknown_keys.len() - MAX_UNKNOWN_KEYS;
                parts.findings.push(Finding::new(
                    Code::UnknownKey,
                    format!("{more} more unknown keys are ignored (not listed one by one)"),
                    sf,
                    s.key_line(first),
                    &ws_id,
                ));
            }
            let mut by_id: HashMap<&str, u64> = HashMap::new();
            for a in s.articles.iter().flatten() {
                let Some(path) = a.path.as_deref() else {
                    parts.findings.push(Finding::new(
                        Code::EntryIncomplete,
                        format!(
                            "article entry has no `path`{}",
                            structure::misspelling_of(&a.misspelled, "path", ": ")
                        ),
                        sf,
                        a.line,
                        &ws_id,
                    ));
                    continue;
                };
                if let Some(aid) = a.article_id.as_deref() {
                    if let Some(first) = by_id.insert(aid, a.line) {
                        by_id.insert(aid, first);
                        parts.findings.push(Finding::new(
                            Code::ArticleDuplicate,
                            format!("article_id `{aid}` is already used at line {first}"),
                            sf,
                            a.line,
                            ids::article(path),
                        ));
                    }
                }
                if let Some(first) = entries.get(path) {
                    parts.findings.push(Finding::new(
                        Code::ArticleDuplicate,
                        format!(
                            "Article structure is missing or ambiguous: path `{path}` is already listed at line {}",
                            first.line
                        ),
                        sf,
                        a.line,
                        ids::article(path),
                    ));
                    continue;
                }
                entries.insert(path, a);
            }
        }
    }

    // Per article: the union of structure entries and pages, in path order.
    let mut all: BTreeSet<&str> = entries.keys().copied().collect();
    all.extend(pages.keys().map(String::as_str));
    let all: Vec<&str> = all.into_iter().collect();
    // Made once: every article's edges and origins share them.
    let (ws, structure_file) = (SharedStr::from(&ws_id), SharedStr::from(STRUCTURE_FILE));
    // A structure that could not be read, or has no `articles`, lists no article: its own
    // error says why, and a warning per page that it "does not list" would bury that error
    // under consequences.
    let listing = matches!(structure, StructureParse::Parsed(s) if s.articles.is_some());
    let per: Vec<(Parts, Vec<RefSite<'a>>)> = all
        .par_iter()
        .map(|&path| {
            article_parts(
                &ws,
                &structure_file,
                path,
                (entries.get(path).copied(), listing),
                pages.get(path),
                pages,
                &entries,
            )
        })
        .collect();
    // The sites at their final size. (Reserving the merged nodes, edges, texts and findings
    // too raised the peak of a 10 000-entry structure by 2-6 MiB over cli/tests/budget.rs's
    // limit, for no measured gain at 100k: not done.)
    let mut sites = Vec::with_capacity(per.iter().map(|(_, r)| r.len()).sum());
    for (p, r) in per {
        parts.extend(p);
        sites.extend(r);
    }
    (parts, sites)
}

/// A marked section of a page: its span and (first heading, body).
type Marked<'a> = (&'a SectionSpan, &'a (Option<String>, Arc<str>));

/// One article being collected: where it lives and what it contributes so far.
struct Article<'a> {
    path: &'a str,
    /// The page's file and the article's id: shared by the origins and edges of its sections.
    page_file: SharedStr,
    aid: SharedStr,
    /// The structure file, shared by the origins of every reference (250k at 100k sections).
    structure_file: SharedStr,
    parts: Parts,
    references: Vec<RefSite<'a>>,
}

impl Article<'_> {
    fn finding(
        &mut self,
        code: Code,
        message: impl Into<String>,
        file: &str,
        line: u64,
        subject: &str,
    ) {
        self.parts
            .findings
            .push(Finding::new(code, message, file, line, subject));
    }
}

/// One article's parts. `listed`: its structure entry, and whether the structure was read (a
/// page without an entry is only reported as not listed when it was).
fn article_parts<'a>(
    ws_id: &SharedStr,
    structure_file: &SharedStr,
    path: &'a str,
    listed: (Option<&'a ArticleEntry>, bool),
    page: Option<&PageParse>,
    pages: &BTreeMap<String, PageParse>,
    entries: &BTreeMap<&str, &ArticleEntry>,
) -> (Parts, Vec<RefSite<'a>>) {
    let (entry, structure_read) = listed;
    let mut cx = Article {
        path,
        page_file: format!("knowledge/{path}").into(),
        aid: ids::article(path).into(),
        structure_file: structure_file.clone(),
        parts: Parts::default(),
        references: Vec::new(),
    };
    let mut a = article_node(&cx, entry, page);
    let contains_origin = match entry {
        Some(e) => origin(structure_file, e.line),
        None => origin(&cx.page_file, 1),
    };
    cx.parts.edges.push(Edge::new(
        EdgeKind::Contains,
        ws_id,
        cx.aid.clone(),
        Some(contains_origin),
    ));
    let (marked, page_usable) = match page {
        Some(pg) => page_facts(&mut cx, &mut a, pg, pages),
        None => (BTreeMap::new(), false),
    };
    let (aid, page_file) = (cx.aid.clone(), cx.page_file.clone());
    if let (Some(e), None) = (entry, page) {
        cx.finding(
            Code::ArticlePageMissing,
            missing_page_message(path, e, pages, entries),
            STRUCTURE_FILE,
            e.line,
            &aid,
        );
    }
    if entry.is_none() && !marked.is_empty() && structure_read {
        cx.finding(
            Code::ArticleNotInStructure,
            format!("Article structure is missing or ambiguous: the page has sections but knowledge/structure.yaml does not list it: add `- path: {path}` with its `sections` under `articles:`"),
            &page_file,
            1,
            &aid,
        );
    }
    cx.parts.nodes.push(a);
    // Sections: structure entries first (in structure order), then marked-only ones.
    let registered = match entry {
        Some(e) => registered_sections(&mut cx, e, &marked, page_usable),
        None => BTreeSet::new(),
    };
    marked_only_sections(&mut cx, entry, &marked, &registered);
    (cx.parts, cx.references)
}

/// The message for an entry whose page does not exist: what is wrong with its path when it is
/// no path of a page under `knowledge/` (author walk, stop 54: `../docs/tasklist.md` was
/// "missing: knowledge/../docs/tasklist.md", as if the path were fine), then where the page
/// most likely is.
fn missing_page_message(
    path: &str,
    entry: &ArticleEntry,
    pages: &BTreeMap<String, PageParse>,
    entries: &BTreeMap<&str, &ArticleEntry>,
) -> String {
    // A page another entry lists is that entry's: suggesting it (because it marks the same
    // generic ids, `overview` or `options`) sends the writer to the wrong page.
    let free = |p: &str| pages.contains_key(p) && !entries.contains_key(p);
    let hint = missing_page_hint(path, entry, pages, &free);
    let Some(fault) = article_path_fault(path) else {
        return format!("Article page is missing: knowledge/{path}{hint}");
    };
    let written = crate::formats::text::one_line(path);
    match fault {
        ArticlePathFault::Leaves => {
            let hint = if hint.is_empty() {
                " (ontoly reads pages only under knowledge/: move the page there)".to_string()
            } else {
                hint
            };
            format!(
                "Article path `{written}` leaves knowledge/: a structure path is relative to knowledge/ and stays inside it{hint}"
            )
        }
        ArticlePathFault::Absolute(within) => {
            let write = within
                .filter(|p| free(p))
                .map(|p| format!(": write `{p}`"))
                .unwrap_or_default();
            let hint = if write.is_empty() {
                hint
            } else {
                String::new()
            };
            format!(
                "Article path `{written}` is absolute: a structure path is relative to knowledge/ and stays inside it{write}{hint}"
            )
        }
        ArticlePathFault::Unusual(why, as_page) => {
            let write = Some(as_page)
                .filter(|p| free(p))
                .map(|p| format!(" (write `{p}`)"))
                .unwrap_or_else(|| hint.clone());
            format!("Article page is missing: knowledge/{written}: the path {why}{write}")
        }
    }
}

/// Why an article's path names no page under `knowledge/`, when it is not a plain relative
/// path (the rule of `docs/workspace-format.md` for paths: no `..`, `.` or empty segments,
/// no `\`, not absolute).
#[derive(Debug, PartialEq)]
enum ArticlePathFault {
    /// A `..` climbs above `knowledge/`.
    Leaves,
    /// Written from `/` (or a drive); with the part after a `knowledge/` in it, when there is
    /// one (a path copied from a file manager).
    Absolute(Option<String>),
    /// `\`, `.`, `..` inside or empty segments: why, and the path they stand for.
    Unusual(&'static str, String),
}

/// What is wrong with an article's `path`, when it names no page because of how it is written
/// (a page exists at a path, so only a missing page's path is asked about: a page's own name
/// may hold any character but `/`).
fn article_path_fault(path: &str) -> Option<ArticlePathFault> {
    let drive = path.as_bytes().get(1) == Some(&b':')
        && path.starts_with(|c: char| c.is_ascii_alphabetic())
        && matches!(path.as_bytes().get(2), Some(b'/' | b'\\'));
    let slashed = path.replace('\\', "/");
    if slashed.starts_with('/') || drive {
        let within = slashed
            .rsplit_once("/knowledge/")
            .map(|(_, rest)| rest.to_string());
        return Some(ArticlePathFault::Absolute(within));
    }
    let segments = || slashed.split('/');
    let why = if path.contains('\\') {
        "separates directories with `\\`: a structure path separates them with `/`"
    } else if segments().any(|s| s == "..") {
        "has a `..` segment"
    } else if segments().any(|s| s == ".") {
        "has a `.` segment"
    } else if segments().any(str::is_empty) {
        "has an empty segment (`//`, or a `/` at its end)"
    } else {
        return None;
    };
    // The page the path stands for: `.` and empty segments dropped, a `..` taking back the
    // segment before it; one that climbs above knowledge/ leaves it.
    let mut kept: Vec<&str> = Vec::new();
    for seg in segments() {
        match seg {
            "" | "." => {}
            ".." => {
                if kept.pop().is_none() {
                    return Some(ArticlePathFault::Leaves);
                }
            }
            s => kept.push(s),
        }
    }
    Some(ArticlePathFault::Unusual(why, kept.join("/")))
}

/// Where the page of an entry whose page is missing most likely is, when that can be told: its
/// path written with `knowledge/` in front (paths are relative to `knowledge/`), or the page
/// that marks most of the entry's sections (a page renamed or moved; newcomer's walk, stop 43:
/// its ARTICLE_NOT_IN_STRUCTURE stood beside this one, unlinked). Only a page no other entry
/// lists (`free`) is named. Empty otherwise.
fn missing_page_hint(
    path: &str,
    entry: &ArticleEntry,
    pages: &BTreeMap<String, PageParse>,
    free: &dyn Fn(&str) -> bool,
) -> String {
    if let Some(rest) = path.strip_prefix("knowledge/") {
        if free(rest) {
            return format!(" (a structure path is relative to knowledge/: write `{rest}`)");
        }
    }
    let listed: Vec<&str> = (entry.sections.iter().flatten())
        .filter_map(|s| s.id.as_deref())
        .collect();
    if listed.is_empty() {
        return String::new();
    }
    // The page marking the most of them, at least half; the first by path on a tie.
    let best = (pages.iter())
        .filter(|(p, _)| free(p))
        .map(|(p, pg)| {
            let marked = (pg.sections.iter())
                .filter(|s| listed.contains(&s.id.as_str()))
                .count();
            (marked, p)
        })
        .filter(|&(n, _)| n > 0 && 2 * n >= listed.len())
        .max_by(|a, b| a.0.cmp(&b.0).then_with(|| b.1.cmp(a.1)));
    match best {
        Some((n, p)) => format!(
            " (knowledge/{p} marks {n} of its {} sections: if the page was renamed or moved, write `{p}` as its path)",
            listed.len()
        ),
        None => String::new(),
    }
}

/// The article node, with what the structure entry and the page say about it.
fn article_node(cx: &Article<'_>, entry: Option<&ArticleEntry>, page: Option<&PageParse>) -> Node {
    let mut a = node(NodeKind::Article, cx.aid.to_string(), cx.path.to_string());
    a.file = Some(cx.page_file.to_string());
    a.metadata.insert("path".into(), cx.path.to_string());
    if let Some(e) = entry {
        for (k, v) in [
            ("article_id", &e.article_id),
            ("collection", &e.collection),
            ("visibility", &e.visibility),
        ] {
            if let Some(v) = v {
                a.metadata.insert(k.into(), v.clone());
            }
        }
    }
    a.metadata.insert(
        "page".into(),
        if page.is_some() { "present" } else { "missing" }.into(),
    );
    a.metadata.insert(
        "registered".into(),
        if entry.is_some() { "true" } else { "false" }.into(),
    );
    a
}

/// What the page itself contributes: its findings, title and description, article text,
/// links, and its marked sections by id. Returns those and whether the page is usable (no
/// marker errors).
fn page_facts<'p>(
    cx: &mut Article<'_>,
    a: &mut Node,
    pg: &'p PageParse,
    pages: &BTreeMap<String, PageParse>,
) -> (BTreeMap<&'p str, Marked<'p>>, bool) {
    let mut marked = BTreeMap::new();
    let (aid, page_file) = (cx.aid.clone(), cx.page_file.clone());
    if let Some((code, msg, line)) = &pg.unusable {
        cx.finding(*code, msg.clone(), &page_file, *line, &aid);
        return (marked, false);
    }
    for err in &pg.marker_errors {
        cx.parts.findings.push(
            Finding::new(
                Code::MarkerError,
                match &err.detail {
                    Some(d) => format!("{}: {d}", err.kind.message()),
                    None => err.kind.message().to_string(),
                },
                &page_file,
                err.line,
                &aid,
            )
            .with_discriminator(format!("{:?}", err.kind)),
        );
    }
    if let Some((m, line)) = &pg.front.error {
        cx.finding(
            Code::YamlInvalid,
            format!("Invalid YAML front matter: {m}"),
            &page_file,
            *line,
            &aid,
        );
    }
    let title = pg.front.title.clone().or_else(|| pg.heading.clone());
    if let Some(t) = &title {
        a.name = t.clone();
        a.metadata.insert("title".into(), t.clone());
    }
    if let Some(d) = &pg.front.description {
        a.metadata.insert("description".into(), d.clone());
    }
    let text: Vec<&str> = [title.as_deref(), pg.front.description.as_deref()]
        .into_iter()
        .flatten()
        .collect();
    if !text.is_empty() {
        cx.parts
            .texts
            .push((aid.to_string(), text.join("\n").into()));
    }
    for (s, t) in pg.sections.iter().zip(&pg.section_texts) {
        marked.insert(s.id.as_str(), (s, t));
    }
    for l in &pg.links {
        if pages.contains_key(&l.target) {
            cx.parts.edges.push(Edge::new(
                EdgeKind::LinksTo,
                aid.clone(),
                ids::article(&l.target),
                Some(origin(&page_file, l.line)),
            ));
        } else {
            cx.parts.findings.push(
                Finding::new(
                    Code::LinkUnresolved,
                    format!("link to `{}`: no such page", l.target),
                    &page_file,
                    l.line,
                    &aid,
                )
                .with_discriminator(l.target.clone()),
            );
        }
    }
    (marked, pg.marker_errors.is_empty())
}

/// The sections the structure lists, in structure order, with their references. Returns the
/// ids registered.
fn registered_sections<'e>(
    cx: &mut Article<'e>,
    entry: &'e ArticleEntry,
    marked: &BTreeMap<&str, Marked<'_>>,
    page_usable: bool,
) -> BTreeSet<&'e str> {
    let sf = STRUCTURE_FILE;
    let (path, aid, page_file) = (cx.path, cx.aid.clone(), cx.page_file.clone());
    let mut registered: BTreeSet<&str> = BTreeSet::new();
    for s in entry.sections.iter().flatten() {
        let Some(sid) = s.id.as_deref() else {
            let hint = structure::misspelling_of(&s.misspelled, "id", "; ");
            let message = if hint.is_empty() {
                "section entry has no string `id` (quote an id YAML reads as a number, a date or a boolean: `id: \"2024\"`)".to_string()
            } else {
                format!("section entry has no string `id`{hint}")
            };
            cx.finding(Code::EntryIncomplete, message, sf, s.line, &aid);
            continue;
        };
        let secid: SharedStr = ids::section(path, sid).into();
        if !registered.insert(sid) {
            // Its references are not read, so nothing else will report what is wrong with
            // them until the duplicate is gone: say so (CI walk, stop 49: a path typo in the
            // second entry surfaced only on the next round).
            let first = (entry.sections.iter().flatten())
                .find(|e| e.id.as_deref() == Some(sid))
                .map_or(0, |e| e.line);
            let refs = s.references.as_ref().map_or(0, Vec::len);
            let unread = match refs {
                0 => String::new(),
                n => format!(
                    "; this entry's {n} reference{} {} not read: merge {} into the first entry, or give this section its own id",
                    if n == 1 { "" } else { "s" },
                    if n == 1 { "is" } else { "are" },
                    if n == 1 { "it" } else { "them" },
                ),
            };
            cx.finding(
                Code::SectionDuplicate,
                format!(
                    "Section registration is missing or ambiguous: `{sid}` is listed twice (first at line {first}){unread}"
                ),
                sf,
                s.line,
                &secid,
            );
            continue;
        }
        let m = marked.get(sid);
        cx.parts
            .nodes
            .push(section_node(path, sid, m.copied(), true));
        if let Some((_, (_, body))) = m {
            cx.parts
                .texts
                .push((secid.to_string(), body.clone().into()));
        }
        let cont = match m {
            Some((span, _)) => origin(&page_file, span.start),
            None => origin(&cx.structure_file, s.line),
        };
        cx.parts.edges.push(Edge::new(
            EdgeKind::Contains,
            aid.clone(),
            secid.clone(),
            Some(cont),
        ));
        if m.is_none() && page_usable {
            // A marker the structure does not list is the other half of one typo: the fix is
            // to make the two match, not to copy either (adoption walk, stop 59: both messages
            // said to copy the typo).
            let listed =
                |id: &str| (entry.sections.iter().flatten()).any(|e| e.id.as_deref() == Some(id));
            let unlisted = marked.keys().copied().filter(|k| !listed(k));
            let hint = match crate::suggest::nearest(sid, unlisted) {
                Some(n) => format!(
                    "; did you mean `{n}`, a marker of the page the structure does not list? Rename this entry or that marker so the two match"
                ),
                None => crate::suggest::nearest(sid, marked.keys().copied())
                    .map(|n| format!("; did you mean `{n}` (a marker id of the page)?"))
                    .unwrap_or_default(),
            };
            cx.finding(
                Code::SectionMissingMarker,
                format!("Section `{sid}` has no marker in {page_file}{hint}"),
                sf,
                s.line,
                &secid,
            );
        }
        let Some(refs) = &s.references else {
            cx.finding(
                Code::EntryIncomplete,
                format!(
                    "Missing section references: `{sid}` has no `references` list{}",
                    structure::misspelling_of(&s.misspelled, "references", ": ")
                ),
                sf,
                s.line,
                &secid,
            );
            continue;
        };
        if refs.len() > 3 {
            let checked = if refs.len() > MAX_CHECKED_REFERENCES {
                format!("; only the first {MAX_CHECKED_REFERENCES} are checked")
            } else {
                String::new()
            };
            cx.finding(
                Code::TooManyReferences,
                format!(
                    "section `{sid}` has {} references (at most 3){checked}",
                    refs.len()
                ),
                sf,
                s.line,
                &secid,
            );
        }
        for r in refs.iter().take(MAX_CHECKED_REFERENCES) {
            cx.references.push(RefSite {
                section: secid.clone(),
                entry: r,
                origin: origin(&cx.structure_file, r.line),
            });
        }
    }
    registered
}

/// The marked sections the structure does not list (a finding when the article is listed, at
/// `listed`, its entry).
fn marked_only_sections(
    cx: &mut Article<'_>,
    listed: Option<&ArticleEntry>,
    marked: &BTreeMap<&str, Marked<'_>>,
    registered: &BTreeSet<&str>,
) {
    let (path, aid, page_file) = (cx.path, cx.aid.clone(), cx.page_file.clone());
    for (sid, (span, t)) in marked {
        if registered.contains(sid) {
            continue;
        }
        let secid = ids::section(path, sid);
        cx.parts
            .nodes
            .push(section_node(path, sid, Some((span, t)), false));
        cx.parts.texts.push((secid.clone(), t.1.clone().into()));
        cx.parts.edges.push(Edge::new(
            EdgeKind::Contains,
            aid.clone(),
            secid.clone(),
            Some(origin(&page_file, span.start)),
        ));
        if let Some(entry) = listed {
            let line = entry.line;
            // An entry of the article with no marker on the page, whose id is near this one:
            // one typo, reported from both sides, fixed by making the two match.
            let unmarked = (entry.sections.iter().flatten())
                .filter_map(|e| Some((e.id.as_deref()?, e.line)))
                .filter(|(id, _)| !marked.contains_key(id));
            let twin = crate::suggest::nearest(sid, unmarked.clone().map(|(id, _)| id))
                .and_then(|n| unmarked.clone().find(|(id, _)| *id == n));
            // Where to add it, so that the fix needs no search (author walk, stop 49); an
            // entry whose `sections` key is misspelled lists it already, under that key.
            let misspelled = entry.misspelled.iter().find(|m| m.meant == "sections");
            let under = if let Some((n, at)) = twin {
                format!(
                    ", which lists `{n}` (line {at}) with no marker on this page: rename this marker or that entry so the two match"
                )
            } else if let Some(m) = misspelled {
                format!(
                    ": its article's entry (line {line}) has no `sections`, and {}",
                    m.hint()
                )
            } else {
                // Written as it reads back: `- id: 2024` is a number, the entry that fails.
                let id = crate::formats::yaml_edit::scalar(sid);
                let at = if line > 0 {
                    format!(" (line {line})")
                } else {
                    String::new()
                };
                format!(": add `- id: {id}` to the `sections` of its article's entry{at}")
            };
            cx.finding(
                Code::SectionNotInStructure,
                format!(
                    "Section registration is missing or ambiguous: `{sid}` is not in {STRUCTURE_FILE}{under}"
                ),
                &page_file,
                span.start,
                &secid,
            );
        }
    }
}

fn section_node(path: &str, sid: &str, marked: Option<Marked<'_>>, registered: bool) -> Node {
    let mut n = node(NodeKind::Section, ids::section(path, sid), sid.to_string());
    let file = format!("knowledge/{path}");
    // One map per section (100k at 100k sections): allocated once, at its size.
    let titled = marked.is_some_and(|(_, (title, _))| title.is_some());
    n.metadata = Metadata::with_capacity(4 + usize::from(titled));
    n.metadata.insert("article".into(), path.to_string());
    n.metadata.insert("section_id".into(), sid.to_string());
    n.metadata
        .insert("registered".into(), registered.to_string());
    n.metadata
        .insert("marked".into(), marked.is_some().to_string());
    if let Some((span, (title, _))) = marked {
        if let Some(t) = title {
            n.name = t.clone();
            n.metadata.insert("title".into(), t.clone());
        }
        n.span = Some(Span {
            file: file.clone(),
            start_line: span.start,
            end_line: span.end,
        });
    }
    n.file = Some(file);
    n
}

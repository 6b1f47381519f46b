//! Re-anchoring (`ontoly drift --write`): the edits that move a module's pin to the later
//! commit when every reference of it survived (`unchanged` or `moved`), touching only the
//! scalars that change — the module's `ref` (and `subpath`, see below) in
//! `sources/repo/index.yaml`, each moved locator's `path`, `start_line` and `end_line`, and
//! every `content_digest` — in `knowledge/structure.yaml`. Everything else in both files
//! (comments, order, layout, quoting) stays byte for byte.
//!
//! A module with a `changed`, `missing` or `unverifiable` reference is left alone and listed
//! for review with its references (mapped ranges and symbol suggestions included). Once a
//! person has reviewed the sections against the later code, `accept_changed` re-anchors
//! changed references too: at the same definition when one was cited whole and the later file
//! has it, else at the range the diff maps them to, with that range's digest (a changed
//! reference all of whose lines were deleted, or that went elsewhere, still holds its module
//! back; `accept_relocated` takes it where they went).
//!
//! Extension beyond the issue: when the module's files left its `subpath` (a directory moved,
//! `pkg/` → `vendor/pkg/`), and one prefix rewrite of the subpath puts every later path back
//! under it, the subpath is rewritten too, and the locators are taken relative to the new one.
//!
//! The plan is computed without writing; the result is checked by parsing the new texts
//! again (each edited reference and module must read back as intended) before any file is
//! handed back. Applying it is the caller's job ([`Session::replace_workspace_files`]).

use super::{DriftError, DriftReport, ReferenceDrift, Status};
use ontoly_graph::formats::source_registry::{RegistryKind, RegistryState};
use ontoly_graph::formats::yaml_edit::{self, Edit, Lines};
use ontoly_graph::Session;
use serde::Serialize;
use std::collections::BTreeMap;

/// The structure file, relative to the workspace.
pub const STRUCTURE_FILE: &str = "knowledge/structure.yaml";
/// The repository registry, relative to the workspace.
pub const REGISTRY_FILE: &str = "sources/repo/index.yaml";

/// A module re-anchored at its later commit.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ModuleChange {
    /// `<source>/<module>`.
    pub module: String,
    /// The pinned commit before.
    pub from: String,
    /// The later commit, the module's new `ref`.
    pub to: String,
    /// The subpath before and after, when it changes.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub subpath: Option<(String, String)>,
    /// Its references.
    pub references: usize,
    /// Locators rewritten.
    pub locators: usize,
    /// `content_digest`s rewritten.
    pub digests: usize,
    /// Changed references accepted at their `accept_at` range, and unchanged or moved ones at
    /// the whole definition that grew around their lines (only with `Accept::changed`).
    #[serde(skip_serializing_if = "is_zero")]
    pub accepted: usize,
    /// Changed or missing references accepted at their relocation (only with
    /// `Accept::relocated`).
    #[serde(skip_serializing_if = "is_zero")]
    pub relocated: usize,
    /// The sections (`page#section`, each once, in structure order) of its moved references
    /// whose definition changed around their lines: re-anchored like any moved reference (the
    /// cited lines are unchanged), but the code they are part of is not, so a person reviews
    /// those sections (js-drift walk, `repro-sparse.sh`: re-anchored above a section the
    /// change made false).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub changed_around: Vec<String>,
    /// How many moved and unchanged references `changed_around` stands for.
    #[serde(skip_serializing_if = "is_zero")]
    pub changed_around_references: usize,
    /// How many of them are unchanged: their lines stayed at their numbers, and the code
    /// around them changed all the same (Go walk on google/uuid).
    #[serde(skip_serializing_if = "is_zero")]
    pub changed_around_unchanged: usize,
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

/// A module left alone, and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ModuleReview {
    /// `<source>/<module>`.
    pub module: String,
    /// Why it was not re-anchored.
    pub reason: String,
    /// The references a person must review (the ones that did not survive), in structure
    /// order.
    pub references: Vec<ReferenceDrift>,
}

/// What `--write` does (or did).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Reanchor {
    /// Modules re-anchored.
    pub modules: Vec<ModuleChange>,
    /// Modules left for review.
    pub review: Vec<ModuleReview>,
    /// Modules already pinned at their later commit with every reference unchanged.
    pub current: Vec<String>,
    /// Workspace files whose bytes change, with their new bytes (not in the JSON).
    #[serde(skip)]
    pub files: Vec<(String, Vec<u8>)>,
    /// What to do next outside the workspace's files: a module now pinned at a commit that
    /// only a `--source` clone holds, not the clone `ontoly.toml` maps.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
    /// What the person accepted, so that advice names only the flags not given yet (not in
    /// the JSON).
    #[serde(skip)]
    pub accept: Accept,
}

/// Scalars to set in one YAML item: key path and new value.
type Scalars = Vec<(Vec<&'static str>, String)>;

/// New contents of workspace files: relative path and bytes.
type Files = Vec<(String, Vec<u8>)>;

/// One module's planned edits.
struct ModuleEdits {
    change: ModuleChange,
    registry: Scalars,
    /// Per reference: its structure line, the new scalars and what must read back.
    references: Vec<(u64, Scalars, Expect)>,
    registry_line: u64,
}

/// What a reference must read back as.
struct Expect {
    /// The article's `article_id`, empty when it has none (its `path` then tells it apart).
    article_id: String,
    /// The article's `path`.
    page: String,
    section_id: String,
    ref_index: usize,
    path: String,
    start_line: u64,
    end_line: u64,
    digest: Option<String>,
}

/// Plans the re-anchoring of `report` (computed with digests) for the session's workspace;
/// the references `accept` names survive too.
pub fn plan(
    session: &Session,
    report: &DriftReport,
    accept: Accept,
) -> Result<Reanchor, DriftError> {
    let parsed = session.parsed()?;
    let RegistryState::Loaded(registry) = &parsed.registries.repo else {
        return Err(DriftError::Session(format!(
            "{REGISTRY_FILE} cannot be used: run `ontoly validate`"
        )));
    };
    let mut by_module: BTreeMap<&str, Vec<&ReferenceDrift>> = BTreeMap::new();
    for r in &report.references {
        if r.source_ref.starts_with("repo:") && !r.origin.module.is_empty() {
            by_module.entry(&r.origin.module).or_default().push(r);
        }
    }
    let mut out = Reanchor {
        modules: Vec::new(),
        review: Vec::new(),
        current: Vec::new(),
        files: Vec::new(),
        notes: Vec::new(),
        accept,
    };
    let mut planned = Vec::new();
    for (module, refs) in by_module {
        let found = registry.lookup(module);
        let sub = found
            .as_ref()
            .ok()
            .and_then(|m| m.module.subpath.clone())
            .unwrap_or_default();
        // Where the files of its surviving references went, when a directory moved: a
        // relocation may point there too.
        let plain: Vec<(&str, &str)> = refs
            .iter()
            .filter(|r| matches!(r.status, Status::Unchanged | Status::Moved))
            .map(|r| (r.path.as_str(), r.new_path.as_deref().unwrap_or(&r.path)))
            .collect();
        let moved = subpath_rewrite(&sub, &plain).filter(|m| *m != sub);
        let within = Within {
            sub: &sub,
            moved: moved.as_deref(),
        };
        let review = |reason: String, all: bool| ModuleReview {
            module: module.to_string(),
            reason,
            references: refs
                .iter()
                .filter(|r| all || !survives(r, accept, within))
                .map(|r| (*r).clone())
                .collect(),
        };
        let Ok(m) = found else {
            out.review.push(review(
                format!("{module} is not registered once in {REGISTRY_FILE}"),
                true,
            ));
            continue;
        };
        match module_edits(module, m.module, within, &refs, accept) {
            Ok(None) => out.current.push(module.to_string()),
            Ok(Some(e)) => planned.push(e),
            Err((reason, all)) => out.review.push(review(reason, all)),
        }
    }
    let (files, modules) = apply(session, planned, &mut out.review)?;
    out.files = files;
    out.modules = modules;
    out.notes = configured_clone_notes(session, &out.modules);
    Ok(out)
}

/// A module read through a `--source` clone and now pinned at a commit the clone that
/// `ontoly.toml` maps does not hold: the next run without `--source` would find every one of
/// its references `commit_missing`. Say so while the user can still fetch it.
fn configured_clone_notes(session: &Session, modules: &[ModuleChange]) -> Vec<String> {
    use ontoly_graph::sources::clones::{repo_modules, CloneMap, CONFIG_FILE};
    let Ok(clones) = session.clones() else {
        return Vec::new();
    };
    let root = &session.workspace().root;
    let registered = repo_modules(root);
    let mut configured: Option<Option<CloneMap>> = None;
    let mut notes = Vec::new();
    for m in modules {
        let remote = registered
            .iter()
            .find(|r| r.name == m.module)
            .and_then(|r| r.remote.as_deref());
        let Some(mapping) = clones.mapping_for(Some(&m.module), remote) else {
            continue;
        };
        if mapping.file == CONFIG_FILE {
            continue;
        }
        let Some(file_map) = configured
            .get_or_insert_with(|| CloneMap::load(root, &[]).ok())
            .as_ref()
        else {
            continue;
        };
        let Some(path) = file_map.find(Some(&m.module), remote) else {
            continue;
        };
        let holds = file_map
            .open(path)
            .is_some_and(|repo| repo.local().has_commit(&m.to));
        if !holds {
            let shown = file_map
                .mapping_for(Some(&m.module), remote)
                .map_or_else(|| CONFIG_FILE.to_string(), |c| c.shown());
            notes.push(format!(
                "{} now pins {}, which the clone {CONFIG_FILE} maps ({shown}) does not hold: fetch it there, or every run without {} will find its references commit_missing",
                m.module,
                m.to.get(..12).unwrap_or(&m.to),
                mapping.shown()
            ));
        }
    }
    notes
}

/// Which drifted references a person has reviewed and accepts.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Accept {
    /// Changed references, at their `accept_at` range.
    pub changed: bool,
    /// Changed references with no `accept_at` range (every cited line deleted, or the lines
    /// went elsewhere) and missing ones, at their relocation: the window of the later commit
    /// that holds most of their lines.
    pub relocated: bool,
}

/// Where an accepted changed reference goes ([`super::Origin::accept_at`]), when its digest
/// there was computed.
fn accepted_range(r: &ReferenceDrift) -> Option<(&str, u64, u64)> {
    match (&r.status, &r.origin.accept_at, &r.origin.later_digest) {
        (Status::Changed, Some(m), Some(_)) => Some((m.path.as_str(), m.start_line, m.end_line)),
        _ => None,
    }
}

/// Where a module's locators may point once it is re-anchored: under its subpath, or under the
/// one its unchanged and moved references' files went to when a directory moved (see
/// [`subpath_rewrite`]); a locator cannot name a file outside the subpath.
#[derive(Debug, Clone, Copy)]
struct Within<'a> {
    /// The module's subpath ("" for the repository's root).
    sub: &'a str,
    /// The subpath the surviving references' files moved to, when it is another.
    moved: Option<&'a str>,
}

impl Within<'_> {
    fn holds(&self, path: &str) -> bool {
        under(path, self.sub) || self.moved.is_some_and(|m| under(path, m))
    }
}

/// Where an accepted relocated reference goes, and its digest there: a changed one that no
/// `accept_at` range takes, or a missing one, with a relocation whose digest was computed and
/// that lies where the module's locators may point (`within`).
fn relocated_range<'r>(
    r: &'r ReferenceDrift,
    within: Within<'_>,
) -> Option<(&'r str, u64, u64, &'r str)> {
    let taken = match r.status {
        Status::Changed => accepted_range(r).is_some(),
        Status::Missing => false,
        _ => return None,
    };
    match (&r.relocation, &r.origin.relocated_digest) {
        (Some(to), Some(d)) if !taken && within.holds(&to.path) => {
            let (s, e) = r
                .origin
                .relocated_at
                .unwrap_or((to.start_line, to.end_line));
            Some((to.path.as_str(), s, e, d))
        }
        _ => None,
    }
}

/// Where `r` goes when its module is re-anchored with `accept`, and the digest it gets there
/// (`None` for the digest: it keeps its own), or `None` when it holds its module back.
fn later_place(
    r: &ReferenceDrift,
    accept: Accept,
    within: Within<'_>,
) -> Option<(String, u64, u64, Option<String>)> {
    match r.status {
        // The definition it cited whole grew: its lines are there, not all of what the
        // section describes. Reviewed and accepted, it cites the whole definition.
        Status::Unchanged | Status::Moved if r.grown.is_some() => {
            let g = r.grown.as_ref()?;
            let digest = r.origin.grown_digest.clone().filter(|_| accept.changed)?;
            Some((g.path.clone(), g.start_line, g.end_line, Some(digest)))
        }
        Status::Unchanged | Status::Moved => Some((
            r.new_path.clone().unwrap_or_else(|| r.path.clone()),
            r.new_start_line.unwrap_or(r.start_line),
            r.new_end_line.unwrap_or(r.end_line),
            r.origin.later_digest.clone(),
        )),
        _ => {
            if let Some((p, s, e)) = accepted_range(r).filter(|_| accept.changed) {
                return Some((p.to_string(), s, e, r.origin.later_digest.clone()));
            }
            let (p, s, e, d) = relocated_range(r, within).filter(|_| accept.relocated)?;
            Some((p.to_string(), s, e, Some(d.to_string())))
        }
    }
}

/// Whether `r` is unchanged or moved but its recorded `content_digest` is not the digest of
/// its lines (which are the same at both commits): the section was written from other lines,
/// or the locator was mistyped (`validate` reports `DIGEST_MISMATCH`). Re-anchoring would
/// write the digest of the lines it now names and so hide that.
fn digest_disagrees(r: &ReferenceDrift) -> bool {
    matches!(r.status, Status::Unchanged | Status::Moved)
        && match (&r.origin.recorded_digest, &r.origin.later_digest) {
            (Some(recorded), Some(now)) => {
                !ontoly_graph::formats::text::digests_equal(recorded, now)
            }
            _ => false,
        }
}

/// Whether `r` lets its module be re-anchored.
fn survives(r: &ReferenceDrift, accept: Accept, within: Within<'_>) -> bool {
    !digest_disagrees(r) && later_place(r, accept, within).is_some()
}

/// The edits of one module, `Ok(None)` when it is already current, or why it is left alone
/// (and whether to list all its references rather than the failed ones).
fn module_edits(
    module: &str,
    m: &ontoly_graph::formats::source_registry::RegistryModule,
    within: Within<'_>,
    refs: &[&ReferenceDrift],
    accept: Accept,
) -> Result<Option<ModuleEdits>, (String, bool)> {
    let mut counts = super::Counts::default();
    let mut relocatable = 0;
    let mut mismatched = 0;
    let mut grown = 0;
    for r in refs.iter().filter(|r| !survives(r, accept, within)) {
        if digest_disagrees(r) {
            mismatched += 1;
            continue;
        }
        if matches!(r.status, Status::Unchanged | Status::Moved) {
            grown += 1;
            continue;
        }
        counts.add(r.status);
        relocatable += usize::from(relocated_range(r, within).is_some());
    }
    let failed = counts.changed + counts.missing + counts.unverifiable + mismatched + grown;
    if failed > 0 {
        let parts: Vec<String> = [Status::Changed, Status::Missing, Status::Unverifiable]
            .into_iter()
            .filter(|s| counts.of(*s) > 0)
            .map(|s| match s {
                Status::Changed if accept.changed => {
                    format!(
                        "{} changed with their cited lines deleted, rewritten or elsewhere",
                        counts.of(s)
                    )
                }
                _ => format!("{} {}", counts.of(s), s.as_str()),
            })
            .chain((grown > 0).then(|| {
                format!(
                    "{grown} whose cited definition grew around its lines: review the section, then --accept-changed cites the whole definition"
                )
            }))
            .chain((mismatched > 0).then(|| {
                format!(
                    "{mismatched} whose content_digest does not match its lines at the pinned commit: DIGEST_MISMATCH, fix the locator or the digest first"
                )
            }))
            .collect();
        // What the one flag left would take, when the lines went somewhere.
        let more = if relocatable > 0 && !accept.relocated {
            format!(
                "; --accept-relocated would re-anchor {relocatable} of them where most of their lines are now"
            )
        } else {
            String::new()
        };
        return Err((
            format!(
                "{} of {} references did not survive ({}){more}",
                failed,
                refs.len(),
                parts.join(", ")
            ),
            false,
        ));
    }
    let from = refs[0].origin.pinned.clone().unwrap_or_default();
    let Some(to) = refs[0].origin.later.clone() else {
        return Err(("no later commit was compared".into(), true));
    };
    if refs
        .iter()
        .any(|r| r.origin.later.as_ref() != Some(&to) || r.origin.pinned.as_ref() != Some(&from))
    {
        return Err((
            "its references were compared at different commits".into(),
            true,
        ));
    }
    let moved = refs.iter().filter(|r| r.status == Status::Moved).count();
    if from == to && moved == 0 {
        return Ok(None);
    }
    if m.line == 0 || refs.iter().any(|r| r.origin.line == 0) {
        return Err((
            "the layout of its YAML entries is not supported for editing".into(),
            true,
        ));
    }
    let old_sub = within.sub;
    // Each reference's later place: its own for the unchanged, the occurrence for the moved,
    // its `accept_at` range for an accepted changed one, its relocation for an accepted
    // relocated one. Every reference survived, so each has one.
    let later: Vec<(String, u64, u64, Option<String>)> = refs
        .iter()
        .filter_map(|r| later_place(r, accept, within))
        .collect();
    if later.len() != refs.len() {
        return Err(("a reference has no later place".into(), true));
    }
    let moves: Vec<(&str, &str)> = refs
        .iter()
        .zip(&later)
        .map(|(r, (p, _, _, _))| (r.path.as_str(), p.as_str()))
        .collect();
    let Some(new_sub) = subpath_rewrite(old_sub, &moves) else {
        return Err((
            format!("its files left subpath `{old_sub}` in ways one prefix rewrite cannot follow"),
            true,
        ));
    };
    if new_sub != *old_sub && m.subpath.is_none() {
        return Err(("its files left the repository root for a directory, and the module has no subpath key to rewrite".into(), true));
    }
    let mut registry = vec![(vec!["git", "ref"], to.clone())];
    if new_sub != *old_sub {
        registry.push((vec!["subpath"], new_sub.clone()));
    }
    let mut change = ModuleChange {
        module: module.to_string(),
        from,
        to,
        subpath: (new_sub != *old_sub).then(|| (old_sub.to_string(), new_sub.clone())),
        references: refs.len(),
        locators: 0,
        digests: 0,
        accepted: refs
            .iter()
            .filter(|r| accept.changed && (accepted_range(r).is_some() || r.grown.is_some()))
            .count(),
        relocated: refs
            .iter()
            .filter(|r| accept.relocated && relocated_range(r, within).is_some())
            .count(),
        changed_around: Vec::new(),
        changed_around_references: 0,
        changed_around_unchanged: 0,
    };
    for r in refs.iter().filter(|r| {
        matches!(r.status, Status::Moved | Status::Unchanged) && r.changed_around.is_some()
    }) {
        let page = if r.origin.page.is_empty() {
            &r.article_id
        } else {
            &r.origin.page
        };
        let section = format!("{page}#{}", r.section_id);
        if !change.changed_around.contains(&section) {
            change.changed_around.push(section);
        }
        change.changed_around_references += 1;
        change.changed_around_unchanged += usize::from(r.status == Status::Unchanged);
    }
    let mut references = Vec::new();
    for (r, (new_path, s, e, digest)) in refs.iter().zip(&later) {
        let locator = strip_dir(new_path, &new_sub).to_string();
        let (s, e) = (*s, *e);
        let old_locator = strip_dir(&r.path, old_sub);
        if locator != old_locator || s != r.start_line || e != r.end_line {
            change.locators += 1;
        }
        let mut scalars = vec![
            (vec!["locator", "path"], locator.clone()),
            (vec!["locator", "start_line"], s.to_string()),
            (vec!["locator", "end_line"], e.to_string()),
        ];
        if let Some(d) = digest {
            scalars.push((vec!["content_digest"], d.clone()));
        }
        references.push((
            r.origin.line,
            scalars,
            Expect {
                article_id: r.article_id.clone(),
                page: r.origin.page.clone(),
                section_id: r.section_id.clone(),
                ref_index: r.ref_index,
                path: locator,
                start_line: s,
                end_line: e,
                digest: digest.clone(),
            },
        ));
    }
    Ok(Some(ModuleEdits {
        change,
        registry,
        references,
        registry_line: m.line,
    }))
}

/// Whether `path` is `dir` or under it (everything is under the root, "").
fn under(path: &str, dir: &str) -> bool {
    dir.is_empty() || path.strip_prefix(dir).is_some_and(|r| r.starts_with('/'))
}

/// `path` relative to `dir`.
fn strip_dir<'a>(path: &'a str, dir: &str) -> &'a str {
    if dir.is_empty() {
        path
    } else {
        path.strip_prefix(dir)
            .and_then(|r| r.strip_prefix('/'))
            .unwrap_or(path)
    }
}

/// The subpath under which every later path of `moves` (`(old, new)` repository paths) lies:
/// `old_sub` itself when they all still do, else the first rewrite of it that one move implies
/// (`pkg/x.py` → `vendor/pkg/x.py` implies `vendor/pkg`) and that holds for every move.
pub fn subpath_rewrite(old_sub: &str, moves: &[(&str, &str)]) -> Option<String> {
    if moves.iter().all(|(_, new)| under(new, old_sub)) {
        return Some(old_sub.to_string());
    }
    for (old, new) in moves.iter().filter(|(_, new)| !under(new, old_sub)) {
        let rest = strip_dir(old, old_sub);
        let candidate = if *new == rest {
            Some("")
        } else {
            new.strip_suffix(rest).and_then(|c| c.strip_suffix('/'))
        };
        if let Some(c) = candidate {
            if moves.iter().all(|(_, n)| under(n, c) && *n != c) {
                return Some(c.to_string());
            }
        }
    }
    None
}

/// Turns the planned modules into new file contents, checked by parsing them again. A module
/// whose entries cannot be located for editing joins the review list instead.
fn apply(
    session: &Session,
    planned: Vec<ModuleEdits>,
    review: &mut Vec<ModuleReview>,
) -> Result<(Files, Vec<ModuleChange>), DriftError> {
    if planned.is_empty() {
        return Ok((Vec::new(), Vec::new()));
    }
    let read = |rel: &str| -> Result<String, DriftError> {
        let bytes = session
            .read_workspace_file(rel)
            .map_err(|e| DriftError::Session(format!("cannot read {rel}: {}", e.kind())))?;
        String::from_utf8(bytes).map_err(|_| DriftError::Session(format!("{rel} is not UTF-8")))
    };
    let structure = read(STRUCTURE_FILE)?;
    let registry = read(REGISTRY_FILE)?;
    let (s_lines, r_lines) = (Lines::new(&structure), Lines::new(&registry));
    let mut s_edits = Vec::new();
    let mut r_edits = Vec::new();
    let mut kept = Vec::new();
    for mut m in planned {
        let found = edits_of(&r_lines, &registry, m.registry_line, &m.registry).and_then(|r| {
            let (mut s, mut digests) = (Vec::new(), 0);
            for (line, scalars, _) in &m.references {
                // A digest is rewritten when its value changes (the lines did, or it was wrong).
                let (digest, rest): (Scalars, Scalars) = scalars
                    .iter()
                    .cloned()
                    .partition(|(k, _)| k.as_slice() == ["content_digest"]);
                let digest = edits_of(&s_lines, &structure, *line, &digest)?;
                digests += digest.len();
                s.extend(edits_of(&s_lines, &structure, *line, &rest)?);
                s.extend(digest);
            }
            Some((r, s, digests))
        });
        match found {
            Some((r, s, digests)) => {
                r_edits.extend(r);
                s_edits.extend(s);
                m.change.digests = digests;
                kept.push(m);
            }
            None => review.push(ModuleReview {
                module: m.change.module.clone(),
                reason: "the layout of its YAML entries is not supported for editing".into(),
                references: Vec::new(),
            }),
        }
    }
    let broken = |f: &str| {
        DriftError::Session(format!(
            "re-anchoring would not leave {f} as intended; nothing was written"
        ))
    };
    let new_structure =
        yaml_edit::apply(&structure, &s_edits).ok_or_else(|| broken(STRUCTURE_FILE))?;
    let new_registry =
        yaml_edit::apply(&registry, &r_edits).ok_or_else(|| broken(REGISTRY_FILE))?;
    check_structure(&new_structure, &kept).ok_or_else(|| broken(STRUCTURE_FILE))?;
    check_registry(&new_registry, &kept).ok_or_else(|| broken(REGISTRY_FILE))?;
    let mut files = Vec::new();
    if new_registry != registry {
        files.push((REGISTRY_FILE.to_string(), new_registry.into_bytes()));
    }
    if new_structure != structure {
        files.push((STRUCTURE_FILE.to_string(), new_structure.into_bytes()));
    }
    Ok((files, kept.into_iter().map(|m| m.change).collect()))
}

/// The edits setting `scalars` (key path, value) in the item on `line`; `None` when one of
/// them cannot be located. Numbers are written plain; strings keep their quoting.
fn edits_of(lines: &Lines<'_>, text: &str, line: u64, scalars: &Scalars) -> Option<Vec<Edit>> {
    let mut out = Vec::new();
    for (keys, value) in scalars {
        let span = lines.find(line, keys)?;
        let numeric = matches!(keys.last(), Some(&"start_line" | &"end_line"));
        let new = if numeric {
            value.clone()
        } else {
            yaml_edit::render_scalar(value, &span)
        };
        if new != text[span.start..span.end] {
            out.push(Edit {
                start: span.start,
                end: span.end,
                text: new,
            });
        }
    }
    Some(out)
}

/// Whether every re-anchored reference reads back as intended from `text`.
fn check_structure(text: &str, modules: &[ModuleEdits]) -> Option<()> {
    let s = ontoly_graph::formats::structure::parse_structure(text).ok()?;
    let articles = s.articles?;
    for m in modules {
        for (_, _, e) in &m.references {
            // `article_id` is optional: an article without one (the js-drift walk's
            // `repro-sparse.sh` workspace) read back as missing, and nothing was written.
            let a = articles.iter().find(|a| {
                a.article_id.as_deref().unwrap_or_default() == e.article_id
                    && a.path.as_deref().unwrap_or_default() == e.page
            })?;
            let sec = a
                .sections
                .as_ref()?
                .iter()
                .find(|x| x.id.as_deref() == Some(&e.section_id))?;
            let r = sec.references.as_ref()?.get(e.ref_index)?;
            let p = &r.locator_parts;
            let ok = p.path.as_deref() == Some(e.path.as_str())
                && p.start_line == Some(e.start_line)
                && p.end_line == Some(e.end_line)
                && e.digest
                    .as_ref()
                    .is_none_or(|d| r.content_digest.as_ref() == Some(d));
            if !ok {
                return None;
            }
        }
    }
    Some(())
}

/// Whether every re-anchored module reads back as intended from `text`.
fn check_registry(text: &str, modules: &[ModuleEdits]) -> Option<()> {
    let v = ontoly_graph::formats::yaml::parse_value(text).ok()?;
    let registry =
        ontoly_graph::formats::source_registry::Registry::from_value(RegistryKind::Repo, &v);
    for m in modules {
        let found = registry.lookup(&m.change.module).ok()?.module;
        let sub_ok = m
            .change
            .subpath
            .as_ref()
            .is_none_or(|(_, new)| found.subpath.as_deref() == Some(new.as_str()));
        if found.git_ref.as_deref() != Some(m.change.to.as_str()) || !sub_ok {
            return None;
        }
    }
    Some(())
}

#[cfg(test)]
mod tests {
    use super::{later_place, relocated_range, subpath_rewrite, Accept, Within};
    use crate::drift::ReferenceDrift;

    /// A module's subpath, no directory of it moved.
    fn sub(s: &str) -> Within<'_> {
        Within {
            sub: s,
            moved: None,
        }
    }

    #[test]
    fn a_relocation_may_point_under_the_directory_the_module_moved_to() {
        let r = lost("changed");
        let relocated = Accept {
            changed: false,
            relocated: true,
        };
        let moved = Within {
            sub: "lib",
            moved: Some("src"),
        };
        assert_eq!(
            later_place(&r, relocated, moved),
            later_place(&r, relocated, sub("src"))
        );
        assert!(later_place(&r, relocated, moved).is_some());
    }

    fn lost(status: &str) -> ReferenceDrift {
        let mut r: ReferenceDrift = serde_json::from_value(serde_json::json!({
            "articleId": "a", "sectionId": "s", "refIndex": 0, "sourceRef": "repo:x/src",
            "path": "src/old.rs", "startLine": 1, "endLine": 9, "status": status,
            "relocation": {"path": "src/new.rs", "startLine": 3, "endLine": 11,
                           "matched": 6, "of": 7}
        }))
        .expect("a well-formed reference drift");
        r.origin.relocated_digest = Some("sha256:00".into());
        r
    }

    #[test]
    fn a_relocation_is_accepted_only_when_asked_and_under_the_module() {
        for status in ["missing", "changed"] {
            let r = lost(status);
            let relocated = Accept {
                changed: true,
                relocated: true,
            };
            assert_eq!(
                later_place(&r, relocated, sub("src")),
                Some(("src/new.rs".into(), 3, 11, Some("sha256:00".into())))
            );
            assert_eq!(
                later_place(&r, relocated, sub("")),
                later_place(&r, relocated, sub("src"))
            );
            // A locator of module `lib` cannot name src/new.rs.
            assert_eq!(relocated_range(&r, sub("lib")), None);
            assert_eq!(later_place(&r, relocated, sub("lib")), None);
            // Not asked for: the reference holds its module back.
            let changed_only = Accept {
                changed: true,
                relocated: false,
            };
            assert_eq!(later_place(&r, changed_only, sub("src")), None);
        }
        // Without the window's digest there is nothing to write.
        let mut r = lost("missing");
        r.origin.relocated_digest = None;
        assert_eq!(relocated_range(&r, sub("src")), None);
    }

    #[test]
    fn a_reference_whose_definition_grew_moves_only_when_accepted_to_the_whole_definition() {
        let mut r: ReferenceDrift = serde_json::from_value(serde_json::json!({
            "articleId": "a", "sectionId": "s", "refIndex": 0, "sourceRef": "repo:x/src",
            "path": "src/hooks.py", "startLine": 1, "endLine": 3, "status": "moved",
            "newPath": "src/hooks.py", "newStartLine": 4, "newEndLine": 6,
            "grown": {"kind": "function", "qualified": "normalize", "path": "src/hooks.py",
                      "startLine": 4, "endLine": 7}
        }))
        .expect("a well-formed reference drift");
        r.origin.later_digest = Some("sha256:moved".into());
        r.origin.grown_digest = Some("sha256:whole".into());
        let plain = Accept::default();
        assert_eq!(later_place(&r, plain, sub("src")), None);
        let changed = Accept {
            changed: true,
            relocated: false,
        };
        assert_eq!(
            later_place(&r, changed, sub("src")),
            Some(("src/hooks.py".into(), 4, 7, Some("sha256:whole".into())))
        );
        // Without its grown definition it moves as before.
        r.grown = None;
        assert_eq!(
            later_place(&r, plain, sub("src")),
            Some(("src/hooks.py".into(), 4, 6, Some("sha256:moved".into())))
        );
    }

    #[test]
    fn one_prefix_rewrite_follows_a_moved_directory() {
        assert_eq!(
            subpath_rewrite("pkg", &[("pkg/a.py", "pkg/b.py")]).as_deref(),
            Some("pkg")
        );
        assert_eq!(
            subpath_rewrite(
                "pkg",
                &[
                    ("pkg/a.py", "vendor/pkg/a.py"),
                    ("pkg/x/b.py", "vendor/pkg/x/c.py")
                ]
            )
            .as_deref(),
            Some("vendor/pkg")
        );
        assert_eq!(
            subpath_rewrite("requests", &[("requests/api.py", "src/requests/api.py")]).as_deref(),
            Some("src/requests")
        );
        // Into the root.
        assert_eq!(
            subpath_rewrite("lib", &[("lib/a.rs", "a.rs")]).as_deref(),
            Some("")
        );
        // Two directions: no single rewrite.
        assert_eq!(
            subpath_rewrite(
                "pkg",
                &[("pkg/a.py", "vendor/pkg/a.py"), ("pkg/b.py", "pkg/b.py")]
            ),
            None
        );
        assert_eq!(
            subpath_rewrite("", &[("a.py", "b/a.py")]).as_deref(),
            Some("")
        );
    }
}

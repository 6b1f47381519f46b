//! From the workspace's references to cited ranges of the session's repositories: each
//! reference resolved (as the build resolves it), its repository found among the session's
//! opened repositories, its pinned commit checked and its later commit resolved, and the
//! comparable ones grouped by repository and pair of commits.

use super::{DriftError, DriftOptions, Origin, ReferenceDrift, Status};
use ontoly_graph::formats::parsed::StructureParse;
use ontoly_graph::formats::source_ref::{self, ResolvedRef};
use ontoly_graph::formats::structure::ReferenceEntry;
use ontoly_graph::sources::clones::CloneMap;
use ontoly_graph::sources::drift::{CitedRange, DriftRepo};
use ontoly_graph::sources::git::GitRepo;
use ontoly_graph::sources::repositories::{RepoLookupError, Repositories};
use ontoly_graph::Session;
use std::collections::{BTreeMap, BTreeSet};

/// One reference of the workspace, ready to compare (or with the reason it cannot be).
#[derive(Debug, Clone)]
pub struct Target {
    /// The article of the section.
    pub article_id: String,
    /// The section.
    pub section_id: String,
    /// 0-based position in the section's references.
    pub ref_index: usize,
    /// `source_ref` as written, shown as the graph shows it: any credential redacted, and by
    /// its kind only (`repo:***`) when it does not resolve and may hold one
    /// ([`ontoly_graph::formats::source_ref::shown_unresolved`]).
    pub source_ref: String,
    /// The repository-relative path and lines.
    pub range: CitedRange,
    /// Where it is written, its module and commits.
    pub origin: Origin,
    /// Why it cannot be compared, when it cannot.
    pub reason: Option<String>,
    /// Its repository (an index into the session's repositories) and the names `--to
    /// NAME=REV` selects it by (most specific first), when it has a local clone.
    pub located: Option<Located>,
}

/// Where a reference's repository is among the session's repositories.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Located {
    /// Index into `Repositories::repos`.
    pub repo: usize,
    /// `<source>/<module>` then `<source>` (or `repo-content:<id>` then `repo-content`).
    pub names: Vec<String>,
    /// Its repository's other names (`host/owner/name`, `owner/name`: as `ontoly.toml` and
    /// `--source NAME=PATH` write it), which select it too, after `names`.
    pub aliases: Vec<String>,
}

impl Located {
    /// Whether `name` selects it.
    pub fn is_named(&self, name: &str) -> bool {
        self.names
            .iter()
            .chain(&self.aliases)
            .any(|n| names(name, n))
    }
}

/// Whether `typed` (a `--to NAME`) names `name`: the same, or a remote as a registry writes it
/// (`https://github.com/hynek/structlog`, `git@github.com:hynek/structlog.git`) whose
/// `host/owner/name` is `name` (found in the stop-42 walk: the remote pasted from
/// `index.yaml` was refused).
fn names(typed: &str, name: &str) -> bool {
    typed == name
        || ((typed.contains("://") || typed.contains('@'))
            && ontoly_graph::sources::clones::remote_key(typed).as_deref() == Some(name))
}

impl Target {
    /// The reference, `unverifiable` for `reason`.
    pub fn unverifiable(&self, reason: String) -> ReferenceDrift {
        ReferenceDrift {
            article_id: self.article_id.clone(),
            section_id: self.section_id.clone(),
            ref_index: self.ref_index,
            source_ref: self.source_ref.clone(),
            path: self.range.path.clone(),
            start_line: self.range.start_line,
            end_line: self.range.end_line,
            status: Status::Unverifiable,
            new_path: None,
            new_start_line: None,
            new_end_line: None,
            occurrences: None,
            mapped: None,
            kept_lines: None,
            symbol: None,
            suggestion: None,
            touched: Vec::new(),
            relocation: None,
            successor: None,
            grown: None,
            changed_around: None,
            reason: Some(reason),
            diff: None,
            origin: self.origin.clone(),
        }
    }
}

/// References of one repository with one pinned commit, compared with one later commit.
#[derive(Debug, Clone)]
pub struct TargetGroup {
    /// Index of the repository in the session's repositories.
    pub repo_index: usize,
    /// The repository (opened by the session).
    pub repo: GitRepo,
    /// The pinned commit.
    pub from: String,
    /// The later commit.
    pub to: String,
    /// Indices into [`Plan::targets`].
    pub members: Vec<usize>,
}

/// Every reference and the groups to compare.
#[derive(Debug, Clone)]
pub struct Plan {
    /// Every reference, in structure order.
    pub targets: Vec<Target>,
    /// The comparable ones, grouped.
    pub groups: Vec<TargetGroup>,
}

/// Turns every reference of the session's workspace into a [`Target`] and groups the
/// comparable ones.
pub fn plan(session: &Session, opts: &DriftOptions) -> Result<Plan, DriftError> {
    let mut targets = collect(session)?;
    let groups = group(session.repositories()?, opts, &mut targets)?;
    Ok(Plan { targets, groups })
}

/// Every reference of the session's workspace, in structure order, resolved and located.
pub fn collect(session: &Session) -> Result<Vec<Target>, DriftError> {
    let parsed = session.parsed()?;
    let structure = match &parsed.structure.1 {
        StructureParse::Parsed(s) => s,
        other => {
            let m = other.problem().unwrap_or_default();
            return Err(DriftError::Session(format!(
                "knowledge/structure.yaml cannot be used ({m}): run `ontoly validate`"
            )));
        }
    };
    let repos = session.repositories()?;
    let clones = session.clones()?;
    let mut targets = Vec::new();
    // Each module's repository, looked up once.
    let mut located: std::collections::HashMap<String, Result<usize, RepoLookupError>> =
        std::collections::HashMap::new();
    let mut locate = |name: &str| -> Result<usize, RepoLookupError> {
        *located.entry(name.to_string()).or_insert_with(|| {
            let found = repos.lookup(name)?;
            repos
                .repos
                .iter()
                .position(|x| std::ptr::eq(x, found))
                .ok_or(RepoLookupError::Unknown)
        })
    };
    for article in structure.articles.iter().flatten() {
        let page = article.path.clone().unwrap_or_default();
        for section in article.sections.iter().flatten() {
            for (i, entry) in section.references.iter().flatten().enumerate() {
                let t = target_of(entry, &parsed.registries, repos, clones, &mut locate);
                targets.push(Target {
                    article_id: article.article_id.clone().unwrap_or_default(),
                    section_id: section.id.clone().unwrap_or_default(),
                    ref_index: i,
                    origin: Origin {
                        page: page.clone(),
                        line: entry.line,
                        recorded_digest: entry.content_digest.clone(),
                        ..t.origin
                    },
                    ..t
                });
            }
        }
    }
    Ok(targets)
}

/// A target (article, section and index still to be filled) and its repository.
fn target_of(
    entry: &ReferenceEntry,
    registries: &ontoly_graph::formats::source_registry::Registries,
    repos: &Repositories,
    clones: &CloneMap,
    locate: &mut impl FnMut(&str) -> Result<usize, RepoLookupError>,
) -> Target {
    let parts = &entry.locator_parts;
    let mut t = Target {
        article_id: String::new(),
        section_id: String::new(),
        ref_index: 0,
        // Shown as the graph shows it (redacted; by its kind only when it does not resolve):
        // a reference written with a credential never resolves, so this changes nothing but
        // what is printed.
        source_ref: entry
            .source_ref
            .as_deref()
            .map(ontoly_graph::formats::remote::redact)
            .unwrap_or_default(),
        range: CitedRange {
            path: parts.path.clone().unwrap_or_default(),
            start_line: parts.start_line.unwrap_or(0),
            end_line: parts.end_line.unwrap_or(0),
        },
        origin: Origin::default(),
        reason: None,
        located: None,
    };
    let resolved = match source_ref::resolve(entry, registries, None) {
        Ok(r) => r,
        Err(e) => {
            t.source_ref = source_ref::shown_unresolved(&t.source_ref);
            t.reason = Some(format!("the reference does not resolve: {}", e.message()));
            return t;
        }
    };
    let c = resolved.citation();
    t.range = CitedRange {
        path: resolved.cited_path(),
        start_line: c.start_line,
        end_line: c.end_line,
    };
    let index_of = |r: &ontoly_graph::sources::repositories::ReadableRepo| {
        repos.repos.iter().position(|x| std::ptr::eq(x, r))
    };
    match &resolved {
        ResolvedRef::Repo(r) => {
            let name = format!("{}/{}", r.source, r.module);
            t.origin.module = name.clone();
            if !r.pinned {
                // What to do about it, not only what it is: the drift of a module pinned to a
                // tag cannot be compared, and the fix is one scalar in its registry.
                t.reason = Some(format!(
                    "unpinned: the module's ref `{}` is not a full commit (`ontoly resolve --repo {name} --rev {}` prints the one to write in its registry)",
                    r.git_ref, r.git_ref
                ));
                return t;
            }
            t.origin.pinned = Some(r.git_ref.to_ascii_lowercase());
            match locate(&name) {
                Ok(repo) => {
                    let names = vec![name, r.source.clone()];
                    // Not its repository's other modules (nor their sources): `--to
                    // drift/core=REV` must not move drift/app on the same clone.
                    let module_name = |a: &str| {
                        repos
                            .modules
                            .iter()
                            .any(|m| m == a || m.split_once('/').is_some_and(|(s, _)| s == a))
                    };
                    let aliases = repos.repos[repo]
                        .aliases
                        .iter()
                        .filter(|a| !names.contains(a) && !module_name(a))
                        .cloned()
                        .collect();
                    t.located = Some(Located {
                        repo,
                        names,
                        aliases,
                    });
                    t
                }
                Err(e) => {
                    t.reason = Some(match e {
                        RepoLookupError::Ambiguous => {
                            format!("{name} names several local clones")
                        }
                        // A module whose mapped clone does not open is told so, not told
                        // to map one.
                        _ => {
                            match clones.broken_for(Some(&name), Some(&r.remote)) {
                                Some((m, why)) => {
                                    format!("the clone mapped by {} {why}", m.shown())
                                }
                                None => format!(
                                    "no local clone of {name} (map it in ontoly.toml [sources] or with --source {name}=PATH)"
                                ),
                            }
                        }
                    });
                    t
                }
            }
        }
        ResolvedRef::RepoContent(r) => {
            t.origin.module = format!("repo-content:{}", r.id);
            if r.worktree {
                t.reason = Some("cites uncommitted content (+worktree)".into());
                return t;
            }
            t.origin.pinned = Some(r.commit.to_ascii_lowercase());
            match repos.workspace().filter(|w| w.repo.is_some()) {
                Some(w) => {
                    let names = vec![t.origin.module.clone(), "repo-content".to_string()];
                    t.located = index_of(w).map(|repo| Located {
                        repo,
                        names,
                        aliases: Vec::new(),
                    });
                    t
                }
                None => {
                    t.reason = Some("the workspace is not in a git repository".into());
                    t
                }
            }
        }
        ResolvedRef::Document(_) => {
            t.reason = Some("a document source (file:, lark:) has no commits to compare".into());
            t
        }
        ResolvedRef::Managed(_) => {
            t.reason = Some("a note or session record has no commits to compare".into());
            t
        }
    }
}

/// Every `--to NAME=REV` must name a module (or source) some reference uses.
fn check_names(opts: &DriftOptions, targets: &[Target]) -> Result<(), DriftError> {
    let known: BTreeSet<&str> = targets
        .iter()
        .filter_map(|t| t.located.as_ref())
        .flat_map(|l| l.names.iter().map(String::as_str))
        .collect();
    let located: Vec<&Located> = targets.iter().filter_map(|t| t.located.as_ref()).collect();
    for (name, _) in &opts.to_by_name {
        if !located.iter().any(|l| l.is_named(name)) {
            let modules: Vec<&str> = known
                .iter()
                .copied()
                .filter(|n| n.contains('/') || n.contains(':'))
                .collect();
            return Err(DriftError::UnknownName(name.clone(), modules.join(", ")));
        }
    }
    Ok(())
}

/// The revision asked for a reference located at `l`: its most specific `--to NAME=REV`
/// (with its NAME), else `--to REV`, else `None` (the repository's default).
fn spec_of<'a>(opts: &'a DriftOptions, l: &Located) -> (Option<&'a str>, Option<&'a str>) {
    for n in l.names.iter().chain(&l.aliases) {
        if let Some((name, rev)) = opts.to_by_name.iter().rev().find(|(k, _)| names(k, n)) {
            return (Some(rev), Some(name));
        }
    }
    (opts.to.as_deref(), None)
}

/// Resolves each later revision once per repository, checks pinned commits, and groups the
/// comparable targets (a target that cannot be compared gets its reason).
pub fn group(
    repos: &Repositories,
    opts: &DriftOptions,
    targets: &mut [Target],
) -> Result<Vec<TargetGroup>, DriftError> {
    check_names(opts, targets)?;
    let mut resolved: BTreeMap<(usize, Option<&str>), Result<String, String>> = BTreeMap::new();
    let mut missing_commit: BTreeMap<(usize, String), Option<String>> = BTreeMap::new();
    // One reader per repository: making one opens a thread-local handle.
    let mut readers: BTreeMap<usize, ontoly_graph::sources::drift::DriftReader> = BTreeMap::new();
    let mut groups: BTreeMap<(usize, String, String), Vec<usize>> = BTreeMap::new();
    // A plain `--to REV` is an error only if no repository it applies to has it.
    let mut plain_found: Option<bool> = None;
    let mut plain_error = String::new();
    for (i, target) in targets.iter_mut().enumerate() {
        let Some(l) = target.located.clone() else {
            continue;
        };
        if target.reason.is_some() {
            continue;
        }
        let Some(git) = repos.repos[l.repo].repo.as_ref() else {
            continue;
        };
        let reader = readers
            .entry(l.repo)
            .or_insert_with(|| DriftRepo::new(git).reader());
        let (spec, named) = spec_of(opts, &l);
        let later = resolved
            .entry((l.repo, spec))
            .or_insert_with(|| match spec {
                Some(rev) => reader.resolve(rev).map_err(|e| reader.explain(e)),
                None => reader
                    .default_later()
                    .map_err(|_| "the clone has no HEAD and no default branch".to_string()),
            })
            .clone();
        let later = match later {
            Ok(c) => {
                if spec.is_some() && named.is_none() {
                    plain_found = Some(true);
                }
                c
            }
            Err(m) => {
                if let (Some(rev), Some(name)) = (spec, named) {
                    // As typed: `--to requests/lib=` said "--to : not a branch".
                    return Err(DriftError::Revision(shown(&format!("{name}={rev}")), m));
                }
                if spec.is_some() {
                    plain_found.get_or_insert(false);
                    plain_error = m.clone();
                }
                let typed = spec
                    .map(|r| format!("--to {}: ", shown(r)))
                    .unwrap_or_default();
                target.reason = Some(format!("{typed}{m}"));
                continue;
            }
        };
        let from = target.origin.pinned.clone().unwrap_or_default();
        // Why the pinned commit cannot be compared, found once per repository and commit.
        let missing = missing_commit
            .entry((l.repo, from.clone()))
            .or_insert_with(|| {
                (!reader.has_commit(&from)).then(|| {
                    let shallow = if reader.is_shallow() {
                        format!("; {}", ontoly_graph::sources::git::SHALLOW_CLONE)
                    } else {
                        String::new()
                    };
                    format!(
                        "the pinned commit {} is not in the local clone{shallow}",
                        from.get(..12).unwrap_or(&from)
                    )
                })
            });
        if let Some(reason) = missing {
            target.reason = Some(reason.clone());
            continue;
        }
        target.origin.later = Some(later.clone());
        groups.entry((l.repo, from, later)).or_default().push(i);
    }
    if plain_found == Some(false) {
        return Err(DriftError::Revision(
            shown(&opts.to.clone().unwrap_or_default()),
            plain_error,
        ));
    }
    Ok(groups
        .into_iter()
        .filter_map(|((repo, from, to), members)| {
            Some(TargetGroup {
                repo_index: repo,
                repo: repos.repos[repo].repo.clone()?,
                from,
                to,
                members,
            })
        })
        .collect())
}

/// A `--to` value as a message quotes it: whole up to 200 characters, else its start and how
/// much was left out (an MCP client sent 900 KB, which the error echoed twice).
fn shown(typed: &str) -> String {
    const SHOWN: usize = 200;
    match typed.char_indices().nth(SHOWN) {
        Some((cut, _)) => format!(
            "{}… ({} more characters)",
            &typed[..cut],
            typed[cut..].chars().count()
        ),
        None => typed.to_string(),
    }
}

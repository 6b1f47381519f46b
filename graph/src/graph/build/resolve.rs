//! Stage 4: every recorded reference checked (locator, digest) and resolved through the
//! registries into Source, Repository, Commit, File and Range nodes and `CITES` edges.

use super::collect::{node, origin};
use super::inputs::Inputs;
use super::{BuildOptions, CitedRange, CitedTarget, Parts, RefSite};
use crate::diagnostics::Code;
use crate::formats::source_ref::{self, ResolveError, ResolvedRef};
use crate::formats::source_registry::{
    FileProblem, FileReadError, Registries, RegistryKind, RegistryState, WorkspaceFiles,
    MAX_PATH_BYTES,
};
use crate::formats::structure::{ReferenceEntry, MAX_LINE};
use crate::graph::fasthash::FastMap;
use crate::graph::findings::Finding;
use crate::graph::model::{ids, Edge, EdgeKind, Metadata, Node, NodeKind, Origin, Span};
use crate::sources::clones::CloneMap;
use rayon::prelude::*;
use std::sync::Arc;

/// What one reference contributes once resolved (built in parallel).
#[derive(Default)]
struct Resolved {
    /// Nodes only this site can produce (an unresolved source).
    nodes: Vec<Node>,
    /// The `CITES` edge.
    edges: Vec<Edge>,
    /// The range and its `IN_FILE` edge (kept for the first citation of a range).
    range: Option<(Node, Edge)>,
    /// The parts shared with other citations.
    shared: Option<Shared>,
    findings: Vec<Finding>,
    cited: Option<CitedRange>,
}

/// Stage 4: checks every recorded reference (locator, digest) and resolves its `source_ref`
/// through the registries. Adds Source / Repository / Commit / File / Range nodes, `CITES`,
/// `IN_FILE`, `AT_COMMIT`, `OF_REPOSITORY` and `REGISTERED_AS` edges, and findings. Returns
/// the resolved repository ranges for the sources stage. `sites`: every recorded reference
/// of a registered section, in structure order (from [`super::collect::collect`]).
pub fn resolve_references(
    inputs: &Inputs,
    registries: &Registries,
    opts: &BuildOptions,
    sites: Vec<RefSite<'_>>,
    parts: &mut Parts,
) -> Vec<CitedRange> {
    let from = parts.findings.len();
    for p in registries.problems() {
        parts.findings.push(Finding::new(
            p.code,
            p.message,
            &p.path,
            p.line.unwrap_or(1),
            ids::WORKSPACE,
        ));
    }
    let files = |path: &str| -> Result<Vec<u8>, FileReadError> {
        match inputs.get(path).map(|f| &f.bytes) {
            Some(Ok(b)) => Ok(b.clone()),
            _ => Err(FileReadError::Unreadable),
        }
    };
    // Large workspaces cite the same few thousand ranges hundreds of thousands of times, and
    // resolving an entry (registry lookup, remote normalization, ids, URL, range node) costs far
    // more than a CITES edge. So each distinct entry is resolved once, from its first citation,
    // and every later citation of it only gets its own CITES edge, findings and cited range.
    // The outputs are exactly those of resolving every site: everything else a later citation
    // would produce (range, source, file, commit, repository) was already kept from the first.
    // FxHash, not SipHash: this loop is serial, and SipHash over 250k keys of ~5 strings each
    // was ~0.05-0.08 s of it at 100k sections (the map's order is never read).
    let mut first_of: FastMap<EntryKey<'_>, usize> =
        FastMap::with_capacity_and_hasher(sites.len() / 8, Default::default());
    let mut firsts: Vec<usize> = Vec::new();
    let key_of: Vec<usize> = sites
        .iter()
        .enumerate()
        .map(|(i, site)| {
            *first_of.entry(entry_key(site.entry)).or_insert_with(|| {
                firsts.push(i);
                firsts.len() - 1
            })
        })
        .collect();
    drop(first_of);
    let mut resolved: Vec<Resolved> = firsts
        .par_iter()
        .map(|&i| resolve_site(&sites[i], registries, &files, opts))
        .collect();
    // Shared nodes (a source, repository, commit, file or range cited many times) arrive once
    // per citation; keeping the first here spares assembly from sorting the duplicates. Sites
    // are merged in structure order, so "first" means the same as when each site was resolved.
    let mut seen = Seen::default();
    // Every site adds a CITES edge, every distinct entry at most a range and its IN_FILE edge:
    // room for them now instead of doubling a vector of 370k edges.
    parts.edges.reserve(sites.len() + 2 * firsts.len());
    parts.nodes.reserve(firsts.len());
    let mut cited = Vec::with_capacity(sites.len());
    // Later citations are derived in parallel from their entry's first resolution, one window
    // of sites at a time: deriving all of them before merging held every citation's edge,
    // findings and cited range twice (300 MB more at the peak of a 100k build).
    const WINDOW: usize = 16 * 1024;
    for (w, window) in sites.chunks(WINDOW).enumerate() {
        let base = w * WINDOW;
        let repeats: Vec<Option<Resolved>> = window
            .par_iter()
            .enumerate()
            .map(|(j, site)| {
                let k = key_of[base + j];
                (firsts[k] != base + j).then(|| resolved[k].repeat_for(site))
            })
            .collect();
        for (j, repeat) in repeats.into_iter().enumerate() {
            let r = match repeat {
                Some(r) => r,
                // A first citation: later windows still derive their repeats from it.
                None => resolved[key_of[base + j]].take_first(),
            };
            for n in r.nodes {
                if seen.sources.insert(n.id.clone()) {
                    parts.nodes.push(n);
                }
            }
            parts.edges.extend(r.edges);
            if let Some((range, in_file)) = r.range {
                if seen.ranges.insert(range.id.clone()) {
                    parts.nodes.push(range);
                    parts.edges.push(in_file);
                }
            }
            if let Some(sh) = r.shared {
                build_shared(sh, registries, &mut seen, parts);
            }
            parts.findings.extend(r.findings);
            cited.extend(r.cited);
        }
    }
    registry_typo_note(&mut parts.findings[from..], registries);
    cited
}

/// A module name mistyped in the registry leaves every reference through it unresolved, and
/// each one's "did you mean" proposes editing that reference. When several references name
/// the same unregistered module alike, the registry's name is as likely the typo: each says
/// so, with the line to fix instead. Only unresolved findings with a suggestion are counted
/// (rare), so a workspace without them pays one pass over its findings.
fn registry_typo_note(findings: &mut [Finding], registries: &Registries) {
    const SUGGESTION: &str = "; did you mean `repo:";
    let RegistryState::Loaded(r) = registries.get(RegistryKind::Repo) else {
        return;
    };
    let mut alike: std::collections::HashMap<String, usize> = Default::default();
    for f in findings.iter() {
        if f.code == Code::SourceUnresolved && f.message.contains(SUGGESTION) {
            *alike.entry(f.message.clone()).or_default() += 1;
        }
    }
    if alike.values().all(|&n| n < 2) {
        return;
    }
    for f in findings.iter_mut() {
        let n = match alike.get(&f.message) {
            Some(&n) if n >= 2 && f.code == Code::SourceUnresolved => n,
            _ => continue,
        };
        let Some(suggested) =
            (f.message.split(SUGGESTION).nth(1)).and_then(|s| s.split('`').next())
        else {
            continue;
        };
        let line = match r.lookup(suggested) {
            Ok(m) if m.module.line > 0 => m.module.line,
            _ => continue,
        };
        let note = format!(
            "; {n} references name it alike: if the registry's `{suggested}` is the typo, rename that module at {}:{line} instead",
            RegistryKind::Repo.index_path()
        );
        f.message.push_str(&note);
    }
}

/// Everything of a [`ReferenceEntry`] that [`resolve_site`] reads, i.e. all but its line: two
/// entries with equal keys resolve alike.
type EntryKey<'a> = (
    Option<&'a str>,
    bool,
    Option<(&'a str, u64, u64)>,
    bool,
    Option<&'a str>,
    (Option<&'a str>, Option<u64>, Option<u64>),
);

fn entry_key(e: &ReferenceEntry) -> EntryKey<'_> {
    (
        e.source_ref.as_deref(),
        e.source_ref_is_string,
        e.locator
            .as_ref()
            .map(|l| (l.path.as_str(), l.start_line, l.end_line)),
        e.has_locator,
        e.content_digest.as_deref(),
        (
            e.locator_parts.path.as_deref(),
            e.locator_parts.start_line,
            e.locator_parts.end_line,
        ),
    )
}

impl Resolved {
    /// What the first citation contributes: everything, leaving in `self` what
    /// [`Resolved::repeat_for`] reads (edges, findings, the cited range).
    fn take_first(&mut self) -> Resolved {
        Resolved {
            nodes: std::mem::take(&mut self.nodes),
            edges: self.edges.clone(),
            range: self.range.take(),
            shared: self.shared.take(),
            findings: self.findings.clone(),
            cited: self.cited.clone(),
        }
    }

    /// What resolving `site` gives when `self` is the resolution of an earlier site with the
    /// same entry: the same findings and CITES edge, placed at `site`. Nodes, the range and
    /// the shared parts are left out: the earlier site already contributed them.
    fn repeat_for(&self, site: &RefSite) -> Resolved {
        let findings = self
            .findings
            .iter()
            .map(|f| Finding {
                code: f.code,
                message: f.message.clone(),
                at: site.origin.clone(),
                subject: site.section.to_string(),
                discriminator: f.discriminator.clone(),
            })
            .collect();
        let edges: Vec<Edge> = self
            .edges
            .iter()
            .map(|e| {
                let mut cites = Edge::new(
                    e.kind,
                    site.section.clone(),
                    e.to.clone(),
                    Some(site.origin.clone()),
                );
                cites.metadata = e.metadata.clone();
                cites
            })
            .collect();
        let cited = self.cited.as_ref().map(|c| CitedRange {
            cites: edges.first().map(|e| e.id.clone()).unwrap_or_default(),
            origin: site.origin.clone(),
            target: Arc::clone(&c.target),
        });
        Resolved {
            nodes: Vec::new(),
            edges,
            range: None,
            shared: None,
            findings,
            cited,
        }
    }
}

fn resolve_site(
    site: &RefSite,
    registries: &Registries,
    files: &dyn WorkspaceFiles,
    opts: &BuildOptions,
) -> Resolved {
    let mut out = Resolved::default();
    let r = &site.entry;
    let own_check_failed = check_locator_and_digest(site, &mut out.findings);
    let at = |code: Code, message: String| {
        Finding::new(
            code,
            message,
            &site.origin.file,
            site.origin.line,
            &site.section,
        )
    };
    let Some(source_ref) = r.source_ref.as_deref().filter(|_| r.source_ref_is_string) else {
        let hint = crate::formats::structure::misspelling_of(&r.misspelled, "source_ref", ": ");
        let message = match (&r.source_ref, hint.is_empty()) {
            (_, false) => format!("Invalid source_ref: the reference has no `source_ref`{hint}"),
            // Written, but YAML reads it as something else than a string (a number, a list).
            (Some(written), true) => format!(
                "Invalid source_ref: `{written}` is not a string (a source_ref is `KIND:NAME`, such as `repo:SOURCE/MODULE`; quote it)"
            ),
            (None, true) => "Invalid source_ref: the reference has no `source_ref` (a reference needs `source_ref`, `locator` and `content_digest`)".to_string(),
        };
        out.findings.push(at(Code::SourceUnresolved, message));
        return out;
    };
    // Ids, names and messages carry the ref without credentials; resolution reads the entry.
    let shown = crate::formats::remote::redact(source_ref);
    let source_ref = shown.as_str();
    let resolved = source_ref::resolve(r, registries, opts.knowledge_repository.as_deref())
        .and_then(|res| source_ref::check_managed_file(&res, files, "").map(|()| res));
    let res = match resolved {
        Ok(res) => res,
        Err(e) => {
            // An unresolved ref is quoted in a message and names a Source node: one that may
            // hold a credential the redaction does not recognise (`repo:u:pw@internal-host:x`,
            // `?token=`, `#…`) is shown by its kind only.
            let shown = crate::formats::source_ref::shown_unresolved(source_ref);
            let source_ref = shown.as_str();
            let path_too_long =
                (r.locator_parts.path.as_ref()).is_some_and(|p| p.len() > MAX_PATH_BYTES);
            let locator_or_digest = matches!(
                e,
                ResolveError::MissingPath
                    | ResolveError::InvalidStartLine
                    | ResolveError::InvalidEndLine
                    | ResolveError::MissingDigest
                    | ResolveError::InvalidDigest
            ) || (e == ResolveError::UnsafeSourcePath
                && (path_too_long
                    || (r.locator_parts.path.as_deref())
                        .is_some_and(|p| !crate::formats::location::is_safe_relative_path(p))));
            // The locator and digest checks above already said it, with more detail.
            if !(locator_or_digest && own_check_failed) {
                out.findings.push(at(
                    Code::SourceUnresolved,
                    resolve_message(&e, source_ref, registries),
                ));
            }
            if !locator_or_digest {
                let mut source = source_node(source_ref, &source_kind_of(source_ref));
                source.metadata.insert("status".into(), "unresolved".into());
                out.nodes.push(source);
            }
            return out;
        }
    };
    let labels = Labels::of(&res, source_ref, &opts.clones);
    let pinned_at = match &res {
        ResolvedRef::Repo(rr) => pin_line(registries, &format!("{}/{}", rr.source, rr.module)),
        _ => None,
    };
    if let (ResolvedRef::Repo(rr), "unpinned") = (&res, labels.status) {
        let place = pinned_at
            .as_ref()
            .map(|o| format!(", at {}:{}", o.file, o.line))
            .unwrap_or_default();
        out.findings.push(at(
            Code::SourceUnpinned,
            format!(
                "Repository reference is not pinned to a full commit (ref `{}`{place}): no URL, no verification",
                rr.git_ref
            ),
        ));
    }
    cite(site, source_ref, res, labels, pinned_at, &mut out);
    out
}

/// Where module `name`'s commit is pinned: its `ref:` line (else its entry's line) in
/// `sources/repo/index.yaml`.
fn pin_line(registries: &Registries, name: &str) -> Option<Origin> {
    let RegistryState::Loaded(r) = &registries.repo else {
        return None;
    };
    let m = r.lookup(name).ok()?.module;
    let line = if m.ref_line > 0 { m.ref_line } else { m.line };
    (line > 0).then(|| Origin {
        file: RegistryKind::Repo.index_path().into(),
        line,
    })
}

/// The message of a resolution error. The plugin contract says "Host could not read the
/// requested repository file" for a registry that cannot be read (its reasons could name
/// private paths); a build names the missing registry instead, which is inside the workspace.
fn resolve_message(e: &ResolveError, source_ref: &str, registries: &Registries) -> String {
    let kind = match source_ref.split(':').next() {
        Some("repo") => Some(RegistryKind::Repo),
        Some("file") => Some(RegistryKind::File),
        Some("lark") => Some(RegistryKind::Lark),
        _ => None,
    };
    if let Some(kind) = kind {
        if matches!(registries.get(kind), RegistryState::Absent)
            && *e == ResolveError::File(FileProblem::Unreadable)
        {
            return format!(
                "{} does not exist: `{source_ref}` is resolved through it (create it and register the source there{})",
                kind.index_path(),
                if kind == RegistryKind::Repo {
                    format!(": {}", crate::formats::source_registry::REPO_EXAMPLE)
                } else {
                    String::new()
                }
            );
        }
    }
    let mut message = format!("{} (`{source_ref}`)", e.message());
    if let Some(kind) = kind.filter(|k| matches!(registries.get(*k), RegistryState::Unusable(_))) {
        // The registry's own diagnostic says why; each reference through it points there.
        message.push_str(&format!(
            "; {} cannot be used (REGISTRY_UNUSABLE says why)",
            kind.index_path()
        ));
        return message;
    }
    // Where to fix it: a registry mistake is reported at every reference through the module,
    // so each says which module entry, or which modules there are.
    if let (Some(RegistryKind::Repo), RegistryState::Loaded(r)) =
        (kind, registries.get(RegistryKind::Repo))
    {
        let name = source_ref.strip_prefix("repo:").unwrap_or(source_ref);
        match r.lookup(name) {
            // Written, but as a number or a boolean: "Missing" alone sent an author looking for
            // a ref that was there (author walk, stop 49).
            Ok(m) if *e == ResolveError::MissingRef && m.module.git_ref_not_text.is_some() => {
                let read_as = m.module.git_ref_not_text.as_deref().unwrap_or_default();
                let line = if m.module.ref_line > 0 {
                    m.module.ref_line
                } else {
                    m.module.line
                };
                message.push_str(&format!(
                    "; the `ref` at {}:{line} is read as {read_as}, not a commit: quote it (`ref: \"…\"`)",
                    RegistryKind::Repo.index_path(),
                ));
            }
            Ok(m) if m.module.line > 0 => message.push_str(&format!(
                "; the module is at {}:{}",
                RegistryKind::Repo.index_path(),
                m.module.line
            )),
            Err(_) if *e == ResolveError::Unregistered => {
                let names: Vec<String> = crate::sources::clones::modules_of(r)
                    .into_iter()
                    .map(|m| m.name)
                    .collect();
                if !names.is_empty() {
                    let registers = format!(
                        "{} registers {}",
                        RegistryKind::Repo.index_path(),
                        crate::formats::text::first_of(&names, 8)
                    );
                    match crate::suggest::nearest(name, names.iter().map(String::as_str)) {
                        Some(n) => {
                            message.push_str(&format!("; did you mean `repo:{n}`? ({registers})"))
                        }
                        None => message.push_str(&format!("; {registers}")),
                    }
                }
            }
            _ => {}
        }
    }
    message
}

/// Checks the entry's own fields; findings go to `findings`. True when one failed.
fn check_locator_and_digest(site: &RefSite, findings: &mut Vec<Finding>) -> bool {
    let r = &site.entry;
    let at = |code: Code, message: String| {
        Finding::new(
            code,
            message,
            &site.origin.file,
            site.origin.line,
            &site.section,
        )
    };
    let before = findings.len();
    match r.locator.as_ref() {
        // Before any message that quotes the path.
        Some(l) if l.path.len() > MAX_PATH_BYTES => findings.push(at(
            Code::PathTooLong,
            format!(
                "locator `path` of {} bytes is longer than {MAX_PATH_BYTES}",
                l.path.len()
            ),
        )),
        None => findings.push(at(
            Code::LocatorInvalid,
            if r.has_locator {
                format!(
                    "Invalid locator: it needs a string `path` and integer `start_line`/`end_line`{}",
                    locator_faults(&r.locator_parts)
                )
            } else {
                format!(
                    "reference has no `locator`{}",
                    crate::formats::structure::misspelling_of(&r.misspelled, "locator", ": ")
                )
            },
        )),
        Some(l) if crate::formats::location::path_fault(&l.path).is_some() => findings.push(at(
            Code::LocatorInvalid,
            format!(
                "locator `path` {:?} {}",
                l.path,
                crate::formats::location::path_fault(&l.path).unwrap_or_default()
            ),
        )),
        Some(l) if l.end_line > MAX_LINE || l.start_line > MAX_LINE => findings.push(at(
            Code::LocatorInvalid,
            format!(
                "Invalid locator: a line of `{}` is beyond {MAX_LINE}, more than any file holds",
                l.path
            ),
        )),
        // (Context's plugin says "Invalid returned file range" here, of a range a plugin
        // returned; a writer reads it of the lines they wrote: author walk, stop 54.)
        Some(l) if !l.is_valid() => findings.push(at(
            Code::LocatorInvalid,
            if l.start_line == 0 {
                format!(
                    "Invalid locator: `start_line` of `{}` is 0, and lines count from 1",
                    l.path
                )
            } else {
                format!(
                    "Invalid locator: `start_line` {} of `{}` is after `end_line` {} (did you mean start_line {}, end_line {}?)",
                    l.start_line, l.path, l.end_line, l.end_line, l.start_line
                )
            },
        )),
        Some(_) => {}
    }
    match r.content_digest.as_deref() {
        None => findings.push(at(
            Code::DigestMissing,
            match crate::formats::structure::misspelling_of(&r.misspelled, "content_digest", "") {
                hint if hint.is_empty() => "Missing source content_digest: `ontoly digest PATH:START-END --source MODULE` prints the entry with it".into(),
                hint => format!("Missing source content_digest: {hint}"),
            },
        )),
        Some(d) if !crate::formats::text::is_sha256_digest(d) => findings.push(at(
            Code::DigestInvalid,
            format!("Invalid content digest: {}", digest_fault(d)),
        )),
        Some(_) => {}
    }
    findings.len() > before
}

/// Which of a locator's fields failed (the parts the parser could read are `Some`), so a
/// newcomer knows what to fix: ": `start_line` is missing or not a line number …".
fn locator_faults(parts: &crate::formats::structure::LocatorParts) -> String {
    const LINE: &str = "is missing or not a line number (a whole number from 1)";
    let mut bad = Vec::new();
    if parts.path.is_none() {
        bad.push("`path` is missing or not a string".to_string());
    }
    if parts.start_line.is_none() {
        bad.push(format!("`start_line` {LINE}"));
    }
    if parts.end_line.is_none() {
        bad.push(format!("`end_line` {LINE}"));
    }
    match bad.len() {
        0 => String::new(),
        3 => ": it has none of them (a `locator` is a mapping of the three)".into(),
        _ => format!(": {}", bad.join("; ")),
    }
}

/// Why a recorded digest is not one: the form it must have, and what differs.
fn digest_fault(digest: &str) -> String {
    const FORM: &str = "a digest is `sha256:` and 64 hex digits";
    match digest.strip_prefix("sha256:") {
        None => {
            let prefix: String = digest.chars().take_while(|c| *c != ':').take(16).collect();
            if digest.contains(':') {
                format!("`{prefix}:` is not `sha256:` ({FORM})")
            } else {
                format!("no `sha256:` prefix ({FORM})")
            }
        }
        Some(hex) if !hex.bytes().all(|b| b.is_ascii_hexdigit()) => {
            format!("its hex part holds a character that is not a hex digit ({FORM})")
        }
        Some(hex) => format!("{} hex digits, not 64 ({FORM})", hex.len()),
    }
}

/// `repo`, `file`… : the part of a `source_ref` before its colon.
fn source_kind_of(source_ref: &str) -> String {
    source_ref.split(':').next().unwrap_or("").to_string()
}

fn source_node(source_ref: &str, kind: &str) -> Node {
    let mut source = node(
        NodeKind::Source,
        ids::source(source_ref),
        source_ref.to_string(),
    );
    source.metadata.insert("kind".into(), kind.to_string());
    source
}

/// How a resolved reference is named in ids, and its status before verification.
struct Labels {
    repo: String,
    commit: String,
    status: &'static str,
}

impl Labels {
    fn of(res: &ResolvedRef, source_ref: &str, clones: &CloneMap) -> Labels {
        let (repo, commit, status) = match res {
            ResolvedRef::Repo(rr) => {
                let key = res.repository_key().unwrap_or_default();
                let module = format!("{}/{}", rr.source, rr.module);
                let status = if !rr.pinned {
                    "unpinned"
                } else if clones.find(Some(&module), Some(&rr.remote)).is_some()
                    || clones.find(Some(&key), None).is_some()
                {
                    "unverified"
                } else {
                    "no_clone"
                };
                (key, rr.git_ref.clone(), status)
            }
            ResolvedRef::RepoContent(rc) => {
                let key = res
                    .repository_key()
                    .unwrap_or_else(|| "knowledge".to_string());
                if rc.worktree {
                    (key, format!("{}+worktree", rc.commit), "worktree")
                } else {
                    let status = if clones.find(Some(&key), None).is_some() {
                        "unverified"
                    } else {
                        "no_clone"
                    };
                    (key, rc.commit.clone(), status)
                }
            }
            ResolvedRef::Document(_) => (source_ref.to_string(), "snapshot".into(), "unverified"),
            ResolvedRef::Managed(_) => (source_ref.to_string(), "workspace".into(), "unverified"),
        };
        Labels {
            repo,
            commit,
            status,
        }
    }
}

/// The range node, its `IN_FILE` edge, the `CITES` edge and (for repositories) the cited range
/// of a resolved reference.
fn cite(
    site: &RefSite,
    source_ref: &str,
    res: ResolvedRef,
    l: Labels,
    pinned_at: Option<Origin>,
    out: &mut Resolved,
) {
    let c = res.citation().clone();
    let file_path = match &res {
        ResolvedRef::Managed(m) => m.materialized_at.clone(),
        ResolvedRef::Document(d) => {
            crate::formats::source_registry::join_path(&d.materialized_at, &c.path)
        }
        _ => res.cited_path(),
    };
    let range_id = ids::range(&l.repo, &l.commit, &file_path, c.start_line, c.end_line);
    let file_id = ids::file(&l.repo, &l.commit, &file_path);
    let mut range = node(
        NodeKind::Range,
        range_id.clone(),
        format!("{file_path}#L{}-L{}", c.start_line, c.end_line),
    );
    range.file = Some(file_path.clone());
    range.span = Some(Span {
        file: file_path.clone(),
        start_line: c.start_line,
        end_line: c.end_line,
    });
    range.package = Some(l.repo.clone());
    if let Some(url) = res.web_url() {
        range.metadata.insert("url".into(), url);
    }
    let mut cites = Edge::new(
        EdgeKind::Cites,
        site.section.clone(),
        range_id.clone(),
        Some(site.origin.clone()),
    );
    // Shared: every later citation of this entry repeats the map (see `Resolved::repeat_for`).
    cites.metadata = Metadata::from([
        ("content_digest", c.content_digest.clone()),
        ("status", l.status.to_string()),
        ("source_ref", source_ref.to_string()),
        ("source_kind", res.kind().as_str().to_string()),
    ])
    .share();
    let in_file = Edge::new(
        EdgeKind::InFile,
        range_id.clone(),
        file_id.clone(),
        Some(site.origin.clone()),
    );
    if matches!(res, ResolvedRef::Repo(_) | ResolvedRef::RepoContent(_)) {
        out.cited = Some(CitedRange {
            cites: cites.id.clone(),
            origin: site.origin.clone(),
            target: Arc::new(CitedTarget {
                range: range_id,
                repository: l.repo.clone(),
                remote: match &res {
                    ResolvedRef::Repo(rr) => Some(crate::formats::remote::redact(&rr.remote)),
                    _ => None,
                },
                commit: l.commit.clone(),
                path: file_path.clone(),
                start_line: c.start_line,
                end_line: c.end_line,
                content_digest: Some(c.content_digest.clone()),
                pinned_at,
            }),
        });
    }
    out.edges.push(cites);
    out.range = Some((range, in_file));
    out.shared = Some(Shared {
        source_ref: source_ref.to_string(),
        res,
        repo_label: l.repo,
        commit_label: l.commit,
        file_id,
        file_path,
        origin: site.origin.clone(),
    });
}

/// What many citations have in common (their source, file, commit, repository): built once,
/// from the first citation in structure order, by [`build_shared`].
struct Shared {
    source_ref: String,
    res: ResolvedRef,
    repo_label: String,
    commit_label: String,
    file_id: String,
    file_path: String,
    origin: Origin,
}

#[derive(Default)]
struct Seen {
    ranges: std::collections::HashSet<String>,
    files: std::collections::HashSet<String>,
    sources: std::collections::HashSet<String>,
    commits: std::collections::HashSet<String>,
    repos: std::collections::HashSet<String>,
    doc_links: std::collections::HashSet<(String, String)>,
}

fn build_shared(d: Shared, registries: &Registries, seen: &mut Seen, parts: &mut Parts) {
    let is_repo = matches!(d.res, ResolvedRef::Repo(_) | ResolvedRef::RepoContent(_));
    let source_id = ids::source(&d.source_ref);
    if !seen.sources.contains(&source_id) {
        seen.sources.insert(source_id.clone());
        let mut source = node(NodeKind::Source, source_id.clone(), d.source_ref.clone());
        source
            .metadata
            .insert("kind".into(), d.res.kind().as_str().to_string());
        match &d.res {
            ResolvedRef::Repo(rr) => {
                source
                    .metadata
                    .insert("remote".into(), crate::formats::remote::redact(&rr.remote));
                source.metadata.insert("ref".into(), rr.git_ref.clone());
                source.package = Some(format!("{}/{}", rr.source, rr.module));
                // The registry line of the module, when the registry layout gives it.
                let reg_line =
                    match registries.get(crate::formats::source_registry::RegistryKind::Repo) {
                        crate::formats::source_registry::RegistryState::Loaded(reg) => {
                            let name = d.source_ref.split_once(':').map_or("", |x| x.1);
                            reg.lookup(name).map_or(0, |m| m.module.line)
                        }
                        _ => 0,
                    };
                let reg_origin = if reg_line > 0 {
                    origin("sources/repo/index.yaml", reg_line)
                } else {
                    d.origin.clone()
                };
                parts.edges.push(Edge::new(
                    EdgeKind::RegisteredAs,
                    source_id.clone(),
                    ids::repository(&d.repo_label),
                    Some(reg_origin),
                ));
            }
            ResolvedRef::RepoContent(_) => parts.edges.push(Edge::new(
                EdgeKind::RegisteredAs,
                source_id.clone(),
                ids::repository(&d.repo_label),
                Some(d.origin.clone()),
            )),
            ResolvedRef::Document(doc) => {
                source
                    .metadata
                    .insert("materialized_at".into(), doc.materialized_at.clone());
                if let Some(m) = &doc.manifest {
                    source.metadata.insert("manifest".into(), m.clone());
                }
            }
            ResolvedRef::Managed(m) => {
                source
                    .metadata
                    .insert("materialized_at".into(), m.materialized_at.clone());
            }
        }
        parts.nodes.push(source);
    }
    if !is_repo
        && seen
            .doc_links
            .insert((source_id.clone(), d.file_id.clone()))
    {
        parts.edges.push(Edge::new(
            EdgeKind::RegisteredAs,
            source_id,
            d.file_id.clone(),
            Some(d.origin.clone()),
        ));
    }
    if seen.files.contains(&d.file_id) {
        return;
    }
    seen.files.insert(d.file_id.clone());
    let mut file = node(NodeKind::File, d.file_id.clone(), d.file_path.clone());
    file.file = Some(d.file_path.clone());
    file.package = Some(d.repo_label.clone());
    file.metadata.insert("path".into(), d.file_path.clone());
    if is_repo {
        file.metadata
            .insert("commit".into(), d.commit_label.clone());
        let commit_id = ids::commit(&d.repo_label, &d.commit_label);
        parts.edges.push(Edge::new(
            EdgeKind::AtCommit,
            d.file_id.clone(),
            commit_id.clone(),
            Some(d.origin.clone()),
        ));
        if !seen.commits.contains(&commit_id) {
            seen.commits.insert(commit_id.clone());
            let mut commit = node(NodeKind::Commit, commit_id.clone(), d.commit_label.clone());
            commit.package = Some(d.repo_label.clone());
            commit
                .metadata
                .insert("commit".into(), d.commit_label.clone());
            commit.metadata.insert(
                "pinned".into(),
                crate::formats::text::is_full_commit(&d.commit_label).to_string(),
            );
            let repo_id = ids::repository(&d.repo_label);
            parts.edges.push(Edge::new(
                EdgeKind::OfRepository,
                commit_id,
                repo_id.clone(),
                Some(d.origin.clone()),
            ));
            parts.nodes.push(commit);
            if seen.repos.insert(repo_id.clone()) {
                let mut repo = node(NodeKind::Repository, repo_id, d.repo_label.clone());
                if let ResolvedRef::Repo(rr) = &d.res {
                    repo.metadata
                        .insert("remote".into(), crate::formats::remote::redact(&rr.remote));
                }
                parts.nodes.push(repo);
            }
        }
    }
    parts.nodes.push(file);
}

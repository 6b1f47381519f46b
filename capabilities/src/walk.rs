//! Reading the graph, shared by the capabilities: what a section cites (pinned and resolved),
//! titles, the diagnostics that concern a node, and the counts that frame an answer.

use crate::evidence::Diagnostic;
use ontoly_graph::diagnostics::{Code, Severity};
use ontoly_graph::formats::text::{is_full_commit, is_sha256_digest};
use ontoly_graph::graph::model::{Edge, EdgeKind, Metadata, Node, NodeKind};
use ontoly_graph::graph::Graph;
use ontoly_graph::sources::drift::anchor;
use ontoly_graph::sources::verify::Status;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet, VecDeque};

/// How a citation's recorded digest compares with the source, when it could be checked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Verification {
    /// The source was read and the digest matches.
    Verified,
    /// The source was read and the evidence is wrong (digest mismatch, missing commit, file
    /// or range).
    Mismatch,
    /// The source was not available; nothing is known.
    Unknown,
}

/// One `CITES` edge of a section, resolved down to its repository.
#[derive(Debug, Clone)]
pub(crate) struct CitationPath<'g> {
    pub edge: &'g Edge,
    pub target: &'g Node,
    pub commit: Option<String>,
    pub repository: Option<String>,
    pub path: Option<String>,
    pub start: u64,
    pub end: u64,
    pub url: Option<String>,
    /// `IN_FILE`, `AT_COMMIT`, `OF_REPOSITORY` edges and their nodes, in path order.
    pub chain: Vec<(&'g Edge, &'g Node)>,
    pub symbols: Vec<(&'g Edge, &'g Node)>,
    pub pinned: bool,
    pub digest_ok: bool,
    pub verification: Verification,
}

impl CitationPath<'_> {
    /// 0..1: how far this citation can be trusted without reading the source. Pinned full
    /// commit 0.5, a well-formed digest 0.2, a verified digest 0.3; a mismatch voids it.
    pub fn grounding(&self) -> f64 {
        if self.verification == Verification::Mismatch {
            return 0.0;
        }
        let mut g = 0.0;
        if self.pinned {
            g += 0.5;
        }
        if self.digest_ok {
            g += 0.2;
        }
        if self.verification == Verification::Verified {
            g += 0.3;
        }
        g
    }

    /// `repo@commit12:path#Ls-Le`, short and readable.
    pub fn label(&self) -> String {
        let repo = self.repository.as_deref().unwrap_or("?");
        let commit = self
            .commit
            .as_deref()
            .map(|c| c.get(..12).unwrap_or(c))
            .unwrap_or("?");
        let path = self.path.as_deref().unwrap_or(&self.target.name);
        format!("{repo}@{commit}:{path}#L{}-L{}", self.start, self.end)
    }
}

fn first_out<'g>(graph: &'g Graph, id: &str, kind: EdgeKind) -> Option<(&'g Edge, &'g Node)> {
    let e = graph.out_edges(id, Some(kind)).into_iter().next()?;
    Some((e, graph.node(&e.to)?))
}

fn verification_of(meta: &Metadata) -> Option<Verification> {
    let status = Status::parse(meta.get("status")?)?;
    Some(if status == Status::Verified {
        Verification::Verified
    } else if status.is_error() {
        Verification::Mismatch
    } else {
        Verification::Unknown
    })
}

/// A web URL for a pinned range on a known forge.
pub(crate) fn forge_url(
    remote: &str,
    commit: &str,
    path: &str,
    start: u64,
    end: u64,
) -> Option<String> {
    let r = remote.trim_end_matches('/').trim_end_matches(".git");
    let forge = [
        "https://github.com/",
        "https://gitlab.com/",
        "https://bitbucket.org/",
    ];
    if !forge.iter().any(|f| r.starts_with(f)) || !is_full_commit(commit) || r.contains('@') {
        return None;
    }
    Some(format!("{r}/blob/{commit}/{path}#L{start}-L{end}"))
}

/// Resolves one `CITES` edge.
pub(crate) fn citation<'g>(graph: &'g Graph, edge: &'g Edge) -> Option<CitationPath<'g>> {
    let target = graph.node(&edge.to)?;
    let mut chain = Vec::new();
    let file = first_out(graph, &target.id, EdgeKind::InFile);
    let mut commit_node = None;
    let mut repo_node = None;
    if let Some((e, f)) = file {
        chain.push((e, f));
        if let Some((e, c)) = first_out(graph, &f.id, EdgeKind::AtCommit) {
            chain.push((e, c));
            commit_node = Some(c);
            if let Some((e, r)) = first_out(graph, &c.id, EdgeKind::OfRepository) {
                chain.push((e, r));
                repo_node = Some(r);
            }
        }
    }
    let commit = commit_node
        .and_then(|c| {
            c.metadata
                .get("commit")
                .cloned()
                .or_else(|| c.id.rsplit('@').next().map(str::to_string))
        })
        .or_else(|| target.metadata.get("commit").cloned())
        .or_else(|| edge.metadata.get("commit").cloned());
    let repository = repo_node
        .map(|r| r.name.clone())
        .or_else(|| target.package.clone());
    let (path, start, end) = match &target.span {
        Some(s) => (Some(s.file.clone()), s.start_line, s.end_line),
        None => (
            target
                .file
                .clone()
                .or_else(|| file.and_then(|(_, f)| f.file.clone())),
            0,
            0,
        ),
    };
    let url = target.metadata.get("url").cloned().or_else(|| {
        let remote = repo_node.and_then(|r| r.metadata.get("remote"))?;
        forge_url(remote, commit.as_deref()?, path.as_deref()?, start, end)
    });
    let digest = edge
        .metadata
        .get("content_digest")
        .or_else(|| target.metadata.get("content_digest"));
    let verification = verification_of(&edge.metadata)
        .or_else(|| verification_of(&target.metadata))
        .unwrap_or(Verification::Unknown);
    let mut symbols: Vec<(&Edge, &Node)> = graph
        .out_edges(&target.id, Some(EdgeKind::Overlaps))
        .into_iter()
        .filter_map(|e| Some((e, graph.node(&e.to)?)))
        .collect();
    // One entry per symbol: a range may overlap it through several recorded edges.
    symbols.sort_by(|a, b| a.1.id.cmp(&b.1.id).then_with(|| a.0.id.cmp(&b.0.id)));
    symbols.dedup_by(|a, b| a.1.id == b.1.id);
    Some(CitationPath {
        edge,
        target,
        pinned: commit.as_deref().is_some_and(is_full_commit),
        commit,
        repository,
        path,
        start,
        end,
        url,
        chain,
        symbols,
        digest_ok: digest.is_some_and(|d| is_sha256_digest(d)),
        verification,
    })
}

/// Every citation of a section, in edge-id order.
pub(crate) fn citations<'g>(graph: &'g Graph, section: &str) -> Vec<CitationPath<'g>> {
    graph
        .out_edges(section, Some(EdgeKind::Cites))
        .into_iter()
        .filter_map(|e| citation(graph, e))
        .collect()
}

/// The article that contains a section, with the `CONTAINS` edge.
pub(crate) fn article_of<'g>(graph: &'g Graph, section: &str) -> Option<(&'g Edge, &'g Node)> {
    graph
        .in_edges(section, Some(EdgeKind::Contains))
        .into_iter()
        .filter_map(|e| Some((e, graph.node(&e.from)?)))
        .find(|(_, n)| n.kind == NodeKind::Article)
}

/// Mean grounding of a section's citations (0 when it cites nothing).
pub(crate) fn section_grounding(graph: &Graph, section: &str) -> f64 {
    let cites = citations(graph, section);
    if cites.is_empty() {
        return 0.0;
    }
    cites.iter().map(CitationPath::grounding).sum::<f64>() / cites.len() as f64
}

/// The knowledge page path of a section or article node (`knowledge/faq/guide.md`).
pub fn page_path(node: &Node) -> Option<String> {
    if let Some(f) = node
        .span
        .as_ref()
        .map(|s| s.file.clone())
        .or(node.file.clone())
    {
        return Some(f);
    }
    let rest = node.id.split_once(':')?.1;
    let p = rest.split('#').next()?;
    Some(format!("knowledge/{p}"))
}

/// Counts that frame an answer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GraphFacts {
    /// Knowledge pages.
    pub articles: usize,
    /// Marked sections.
    pub sections: usize,
    /// `CITES` edges.
    pub references: usize,
    /// Repositories.
    pub repositories: usize,
    /// Pinned commits.
    pub commits: usize,
    /// Code definitions.
    pub symbols: usize,
    /// All nodes.
    pub nodes: usize,
    /// All edges.
    pub edges: usize,
}

impl GraphFacts {
    /// The facts of `graph`.
    pub fn of(graph: &Graph) -> Self {
        let count = |k| graph.count_of(k);
        GraphFacts {
            articles: count(NodeKind::Article),
            sections: count(NodeKind::Section),
            references: graph.edge_count_of(EdgeKind::Cites),
            repositories: count(NodeKind::Repository),
            commits: count(NodeKind::Commit),
            symbols: count(NodeKind::Symbol),
            nodes: graph.node_count(),
            edges: graph.edge_count(),
        }
    }
}

/// The heading of a section (or title of another node) for people; a symbol's name as Rust
/// writes it when its qualified name is its type's (a trait impl's block, `impl Index<&Q> for
/// IndexMap<K, V, S>`, and its members, `<IndexMap<K, V, S> as Index<&Q>>::index`).
pub fn title(n: &Node) -> &str {
    n.metadata
        .get("heading")
        .or_else(|| n.metadata.get("title"))
        .or_else(|| n.metadata.get("written"))
        .map(String::as_str)
        .filter(|s| !s.is_empty())
        .unwrap_or(&n.name)
}

/// Graph diagnostics (`Diagnostic` nodes) that concern `id`.
pub fn graph_diagnostics(graph: &Graph, id: &str) -> Vec<Diagnostic> {
    // A mapped graph filters a node's incoming edges by reading each one's kind: for a file
    // cited by thousands of sections that grows with the workspace. A graph without any
    // `CONCERNS` edge (the counts are stored) has nothing to find.
    if graph.edge_count_of(EdgeKind::Concerns) == 0 {
        return Vec::new();
    }
    graph
        .in_edges(id, Some(EdgeKind::Concerns))
        .into_iter()
        .filter_map(|e| graph.node(&e.from))
        .filter(|n| n.kind == NodeKind::Diagnostic)
        .map(diagnostic_of_node)
        .collect()
}

/// A `Diagnostic` node as a diagnostic.
pub fn diagnostic_of_node(n: &Node) -> Diagnostic {
    // A Diagnostic node's code is its name and its `code` metadata, both written from the one
    // vocabulary; a graph from another version may hold a code this build does not know.
    let code = n
        .metadata
        .get("code")
        .and_then(|c| Code::parse(c))
        .or_else(|| Code::parse(&n.name))
        .unwrap_or(Code::InternalError);
    Diagnostic {
        code,
        severity: Severity::parse(n.metadata.get("severity").map_or("", String::as_str)),
        message: n
            .metadata
            .get("message")
            .cloned()
            .unwrap_or_else(|| n.name.clone()),
        subject: n.metadata.get("subject").cloned(),
        location: n.span.as_ref().map(|s| {
            format!(
                "{}:{}",
                ontoly_graph::formats::text::one_line(&s.file),
                s.start_line
            )
        }),
    }
}

/// The repository-relative path of a source `File` node.
pub fn source_path(n: &Node) -> Option<&str> {
    n.span
        .as_ref()
        .map(|s| s.file.as_str())
        .or(n.file.as_deref())
        .or_else(|| n.id.split_once('@')?.1.split_once(':').map(|x| x.1))
}

/// The cited source files whose repository path is `path`.
pub fn files_at<'g>(graph: &'g Graph, path: &str) -> Vec<&'g Node> {
    let path = as_typed(path);
    graph
        .nodes_of(NodeKind::File)
        .filter(|n| source_path(n) == Some(path))
        .collect()
}

/// A path as people type it, without its leading `./` (`./README.md` is the repository's
/// `README.md`, not any file whose path ends in `/README.md`).
pub fn as_typed(path: &str) -> &str {
    let mut p = path;
    while let Some(rest) = p.strip_prefix("./") {
        p = rest.trim_start_matches('/');
    }
    p
}

/// The cited source files whose repository path ends with `path`, whole components only
/// (`adapters.py` for `requests/adapters.py`, not for `myadapters.py`): a path as people type it.
pub fn files_ending<'g>(graph: &'g Graph, path: &str) -> Vec<&'g Node> {
    let tail = format!("/{}", as_typed(path));
    graph
        .nodes_of(NodeKind::File)
        .filter(|n| source_path(n).is_some_and(|p| p.ends_with(&tail)))
        .collect()
}

/// Where the workspace's references cite a source file named `path` (its repository path, or
/// failing that a path ending so): each `(repository, full commit, path)` once, sorted. For a
/// read that found no such file where it looked.
pub fn cited_at<'g>(graph: &'g Graph, path: &str) -> Vec<(&'g str, &'g str, &'g str)> {
    let mut files = files_at(graph, path);
    if files.is_empty() {
        files = files_ending(graph, path);
    }
    let mut at: Vec<(&str, &str, &str)> = files
        .iter()
        .filter_map(|n| {
            Some((
                n.package.as_deref()?,
                n.metadata.get("commit")?.as_str(),
                source_path(n)?,
            ))
        })
        .collect();
    at.sort_unstable();
    at.dedup();
    at
}

/// For a read that did not find `path`: where the workspace's references cite it, as a clause
/// an error message can end with ("the workspace cites src/a.rs in repository acme/a at
/// revision 0123…", up to three places). `None` when no reference cites it.
fn cited_note(graph: &Graph, path: &str) -> Option<String> {
    let places: Vec<String> = cited_at(graph, path)
        .iter()
        .take(3)
        .map(|(repo, commit, p)| format!("{p} in repository {repo} at revision {commit}"))
        .collect();
    (!places.is_empty()).then(|| format!("the workspace cites {}", places.join(", ")))
}

/// For a read of `path` in `repository` at the default branch (no revision asked), which
/// resolved to `commit`: when the workspace cites that file only at other commits, a note
/// that says so and which revision to pass ("the workspace cites httpx/_config.py at
/// 6b036eca3f5f…, not at this commit: pass that revision to read what its pages describe").
/// The stop-44 MCP walk read lines 361-363 of the branch, other code than the pinned
/// commit's, and only the header's commit told it. `None` when a citation is at `commit`,
/// or none is of that file in that repository.
pub fn unpinned_read_note(
    graph: &Graph,
    repository: &str,
    path: &str,
    commit: &str,
) -> Option<String> {
    let same_repo = |r: &str| r == repository || r.ends_with(&format!("/{repository}"));
    let commits: Vec<&str> = (files_at(graph, path).iter())
        .filter(|n| n.package.as_deref().is_some_and(same_repo))
        .filter_map(|n| n.metadata.get("commit").map(|c| c.as_str()))
        .collect::<std::collections::BTreeSet<_>>()
        .into_iter()
        .collect();
    if commits.is_empty() || commits.contains(&commit) {
        return None;
    }
    let shown: Vec<&str> = commits.iter().take(3).copied().collect();
    Some(format!(
        "the workspace cites {} at revision {}, not at this commit (the default branch): pass {} as the revision to read what its pages describe",
        as_typed(path),
        shown.join(", "),
        if commits.len() == 1 { "it" } else { "one" }
    ))
}

/// Ends the message of a read error that did not find `path` with where the workspace's
/// references cite it ("; the workspace cites src/a.rs in repository acme/a at revision
/// 0123…", up to three places); other errors, and paths no reference cites, are left as they
/// are. The error keeps its code and
/// `{code, message}` shape (the reads contract's).
pub fn note_where_cited(
    graph: &Graph,
    path: &str,
    error: &mut ontoly_graph::sources::reads::ReadError,
) {
    if error.code != Code::FileNotFound {
        return;
    }
    if let Some(note) = cited_note(graph, path) {
        error.message.push_str(&format!("; {note}"));
    }
}

/// Symbols named `name`: exactly, or as the last segments of a qualified name; either way
/// with or without generic arguments and lifetimes (`Parser::parse_ast` names
/// `Parser<'tokens, 'src>::parse_ast`, as people and rustdoc write it); else with the module
/// path in front (`click.core.Context.invoke` for `Context.invoke` in `src/click/core.py`),
/// each leading segment a component of the symbol's file path or its repository's name.
/// JavaScript's ways of naming a method, `Command.prototype.option` and JSDoc's
/// `Command#option`, are read as `Command.option`; V8's trace names too: a function
/// expression's own name (`parseQueryStringValues`, the symbol's alias), the exports object
/// in front (`exports.parse`, `module.exports.formatters.RFC1738`), and the property a
/// function was called through (`module.exports [as parse]` is `module.exports`). A container no cited range names itself
/// (`Range`, when only `Range.parseRange` is cited) stands for its members.
pub fn symbols_named<'g>(graph: &'g Graph, name: &str) -> Vec<&'g Node> {
    let found = symbols_named_in_code(graph, name);
    if found.is_empty() {
        return made_by_loop(graph, name);
    }
    found
}

/// The members a loop over a computed list makes that `name` may be one of
/// ([`Generated`](ontoly_graph::sources::symbols::Generated)): `app[method]` for `app.get`,
/// `Route[method]` for `Route.prototype.get` or `Route#get` (express walk, F6). A loop over a
/// list the file writes names what it makes (its aliases), and is not one of these.
pub fn made_by_loop<'g>(graph: &'g Graph, name: &str) -> Vec<&'g Node> {
    let mut out: Vec<&Node> = Vec::new();
    for form in written_forms(name) {
        let Some((owner, member)) = form.rsplit_once('.') else {
            continue;
        };
        let identifier = member
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'$');
        if owner.is_empty() || member.is_empty() || !identifier {
            continue;
        }
        for n in graph
            .nodes_of(NodeKind::Symbol)
            .filter(|n| is_computed_loop(n))
        {
            let made_here = (n.name.strip_prefix(owner))
                .is_some_and(|rest| rest.starts_with('[') && rest.ends_with(']'));
            if made_here && !out.iter().any(|x| x.id == n.id) {
                out.push(n);
            }
        }
    }
    out.sort_unstable_by(|a, b| a.id.cmp(&b.id));
    out
}

/// Whether symbol `n` is a member a loop makes over a list whose items the code computes.
pub fn is_computed_loop(n: &Node) -> bool {
    n.metadata.contains_key("loop") && !n.metadata.contains_key("made")
}

/// How the loop-made member `n` is made, `app[method]` for each item of `methods` by the loop
/// at lib/application.js:489-502 (and the names, when the file writes them); `None` for a
/// member the code names.
pub fn loop_note(n: &Node) -> Option<String> {
    let lines = n.metadata.get("loop")?;
    let over = n.metadata.get("over").map_or("", String::as_str);
    let at = match source_path(n) {
        Some(p) => format!("{p}:{lines}"),
        None => format!("lines {lines}"),
    };
    Some(match n.metadata.get("made") {
        Some(names) => format!(
            "`{}` is made for each item of `{over}` by the loop at {at}: {}",
            n.name,
            names.replace(' ', ", ")
        ),
        None => format!(
            "`{}` is made for each item of `{over}` (a list the code computes) by the loop at {at}",
            n.name
        ),
    })
}

/// [`symbols_named`] without the members a loop makes.
fn symbols_named_in_code<'g>(graph: &'g Graph, name: &str) -> Vec<&'g Node> {
    // A frame of `RUST_BACKTRACE=full` ends with the symbol's hash, which no code writes.
    let name = crate::retrieval::pasted::without_rust_hash(name);
    // `indexmap!`, as a macro is invoked: the macro, else what has its name (a procedural
    // macro is a function).
    if let Some(bare) = name.strip_suffix('!').filter(|b| is_path(b)) {
        let found = symbols_named(graph, bare);
        let macros: Vec<&Node> = (found.iter().copied())
            .filter(|n| n.metadata.get("kind").is_some_and(|k| k == "macro"))
            .collect();
        return if macros.is_empty() { found } else { macros };
    }
    let found = symbols_named_as_written(graph, name);
    // `impl<E> From<E> for Error`, as the code writes the block.
    if found.is_empty() {
        if let Some(rest) = name.strip_prefix("impl") {
            let rest = match rest.strip_prefix('<') {
                Some(generic) => generic.split_once("> ").map_or("", |(_, r)| r),
                None => rest,
            };
            let rest = rest.trim();
            if rest.contains(" for ") {
                return symbols_named_as_written(graph, rest);
            }
        }
    }
    if found.is_empty() {
        if let Some((ty, tr, member)) = rust_written(name) {
            return trait_member(graph, &ty, &tr, &member);
        }
        let of_trait = trait_methods(graph, name);
        if !of_trait.is_empty() {
            return of_trait;
        }
        if let Some(go) = go_written(name) {
            return symbols_named_as_written(graph, &go);
        }
        if let Some(java) = java_written(name) {
            return symbols_named(graph, &java);
        }
    }
    if found.is_empty() {
        if let Some(js) = v8_written(name) {
            return symbols_named(graph, &js);
        }
    }
    if found.is_empty() && (name.contains(".prototype.") || name.contains('#')) {
        let member = name.replace(".prototype.", ".").replace('#', ".");
        return symbols_named_as_written(graph, &member);
    }
    // A member written with the other language's separator: `Schema::load` for Python's
    // `Schema.load`, `Database.add` for Rust's `Database::add`.
    if found.is_empty() && name.contains("::") {
        return symbols_named_as_written(graph, &name.replace("::", "."));
    }
    if found.is_empty() && name.contains('.') && !name.contains('/') {
        return symbols_named_as_written(graph, &name.replace('.', "::"));
    }
    found
}

/// Whether `name` is an identifier or a path of them (`indexmap`, `crate::indexmap`).
fn is_path(name: &str) -> bool {
    !name.is_empty()
        && name
            .split("::")
            .all(|s| !s.is_empty() && s.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_'))
}

/// Rust's way of naming a trait's method in backtraces, rustc's messages and rustdoc,
/// `<bytes::Bytes as bytes::Buf>::advance`: the type, the trait and the member, each without
/// its module path (`Bytes`, `Buf`, `advance`; Rust walk on bytes, stop 49). `None` when
/// `name` is not written so.
fn rust_written(name: &str) -> Option<(String, String, String)> {
    let inner = name.strip_prefix('<')?;
    // The `>` that closes the first `<`, past the generic arguments inside.
    let mut depth = 1usize;
    let close = inner.char_indices().find_map(|(i, c)| {
        match c {
            '<' => depth += 1,
            '>' => depth -= 1,
            _ => {}
        }
        (depth == 0).then_some(i)
    })?;
    let member = inner[close + 1..].strip_prefix("::")?;
    let (ty, tr) = inner[..close].split_once(" as ")?;
    (!member.is_empty()).then(|| (unpathed(ty), unpathed(tr), member.to_string()))
}

/// `name` without the module path in front of it (`core::fmt::Debug` -> `Debug`; generic
/// arguments are kept as written: `std::convert::From<Vec<u8>>` -> `From<Vec<u8>>`). A
/// reference or pointer keeps what makes it one: `&indexmap::set::IndexSet<T,S1>` ->
/// `&IndexSet<T,S1>` (indexmap walk, F5: the `&` went with the path, and the frame named no
/// impl).
fn unpathed(name: &str) -> String {
    let name = name.trim();
    let (prefix, name) = pointer_prefix(name);
    let head_end = name.find('<').unwrap_or(name.len());
    match name[..head_end].rfind("::") {
        Some(at) => format!("{prefix}{}", &name[at + 2..]),
        None => format!("{prefix}{name}"),
    }
}

/// The `&`, `&mut `, `&'a `, `*const ` or `*mut ` (any of them, repeated) in front of a Rust
/// type, and the type after them.
fn pointer_prefix(name: &str) -> (&str, &str) {
    let mut rest = name;
    loop {
        if let Some(r) = rest.strip_prefix('&') {
            rest = r.trim_start();
            if let Some(r) = rest.strip_prefix('\'') {
                let end = r
                    .find(|c: char| !(c.is_alphanumeric() || c == '_'))
                    .unwrap_or(r.len());
                rest = r[end..].trim_start();
            }
            if let Some(r) = rest.strip_prefix("mut ") {
                rest = r.trim_start();
            }
        } else if let Some(r) = rest.strip_prefix('*') {
            rest = r.trim_start();
            for q in ["const ", "mut "] {
                if let Some(r) = rest.strip_prefix(q) {
                    rest = r.trim_start();
                }
            }
        } else {
            break;
        }
    }
    name.split_at(name.len() - rest.len())
}

/// A trait impl's own name (`fmt::Write for BytesMut`) as [`rust_written`] reads one: the
/// trait and the type, each without its module path.
fn impl_parts(own: &str) -> Option<(String, String)> {
    let (tr, ty) = own.split_once(" for ")?;
    Some((unpathed(tr), unpathed(ty)))
}

/// Whether two names are the same but for whitespace (`Chain<T,U>`, `Chain<T, U>`), or, when
/// `loose`, but for generic arguments too.
fn same_written(a: &str, b: &str, loose: bool) -> bool {
    let squash = |s: &str| s.split_whitespace().collect::<String>();
    if loose {
        squash(&anchor::name_key(a)) == squash(&anchor::name_key(b))
    } else {
        squash(a) == squash(b)
    }
}

/// The member `member` of the impl of trait `tr` for type `ty`: the impl by its own name as
/// written; else the members whose impl the written trait and type fit best ([`fit`]:
/// concrete types where the impl has its parameters, module paths anywhere), by the impl's
/// block or by the member's own Rust name; else by names without generic arguments; failing
/// all, `ty`'s members of that name. Those last two leave out what a Rust name says is
/// another impl's (`<IndexMap<String, i32> as IndexMut<usize>>::index_mut` is not the member
/// of `IndexMut<&Q>`).
fn trait_member<'g>(graph: &'g Graph, ty: &str, tr: &str, member: &str) -> Vec<&'g Node> {
    let impls = |loose: bool| -> Vec<&'g Node> {
        (graph.nodes_of(NodeKind::Symbol))
            .filter(|n| {
                (n.metadata.get("name").and_then(|own| impl_parts(own))).is_some_and(|(t, y)| {
                    same_written(&t, tr, loose) && same_written(&y, ty, loose)
                })
            })
            .collect()
    };
    let is_member = |m: &Node| named_member(m, member);
    let members_of = |found: Vec<&'g Node>| -> Vec<&'g Node> {
        (found.iter())
            .flat_map(|i| within(graph, i))
            .filter(|m| is_member(m))
            .collect()
    };
    let strict = impls(false);
    let written = RustType::parse(ty).zip(RustType::parse(tr));
    if strict.is_empty() {
        if let Some((ty, tr)) = &written {
            let fitting = best_fitting(graph, ty, tr, member, &members_of);
            if !fitting.is_empty() {
                return fitting;
            }
        }
    }
    let other_impls = |n: &&Node| {
        written
            .as_ref()
            .is_some_and(|(ty, tr)| impl_fit(n, ty, tr) == Some(None))
    };
    let members = if strict.is_empty() {
        members_of(impls(true))
    } else {
        members_of(strict)
    };
    let members: Vec<&Node> = members.into_iter().filter(|m| !other_impls(m)).collect();
    if members.is_empty() {
        (symbols_named_as_written(graph, &format!("{ty}::{member}")).into_iter())
            .filter(|m| !other_impls(m))
            .collect()
    } else {
        members
    }
}

/// Whether symbol `m`'s own name is `member`, or ends with it after `::` or `.`.
fn named_member(m: &Node, member: &str) -> bool {
    let own = m.metadata.get("name").unwrap_or(&m.name);
    own == member
        || ["::", "."]
            .iter()
            .any(|sep| own.ends_with(&format!("{sep}{member}")))
}

/// A trait's method as Rust users write it, `Display::fmt` or `fmt::Display::fmt`: the member
/// of that name of every impl of the trait, whatever the type (Rust library walk, stop 53:
/// `Index::index` found nothing while `<IndexMap<K, V, S> as Index<&Q>>::index` did). Empty
/// unless `name` is `Trait::member` and some impl's block names that trait.
fn trait_methods<'g>(graph: &'g Graph, name: &str) -> Vec<&'g Node> {
    let Some((tr, member)) = name.rsplit_once("::") else {
        return Vec::new();
    };
    if tr.is_empty() || !is_path(member) {
        return Vec::new();
    }
    let tr = unpathed(tr);
    let mut out: Vec<&Node> = (graph.nodes_of(NodeKind::Symbol))
        .filter(|n| {
            (n.metadata.get("name").and_then(|own| impl_parts(own)))
                .is_some_and(|(t, _)| same_written(&t, &tr, true))
        })
        .flat_map(|i| within(graph, i))
        .filter(|m| named_member(m, member))
        .collect();
    out.sort_by(|a, b| a.id.cmp(&b.id));
    out.dedup_by(|a, b| a.id == b.id);
    out
}

/// The members `member` of the trait impls that the trait `tr` and type `ty`, as a backtrace
/// or rustc wrote them, fit best ([`fit`]), all of those tied, in id order.
/// `<IndexMap<String, i32> as Index<usize>>::index` is the member of `impl Index<usize> for
/// IndexMap<K, V, S>`, not of `impl Index<&Q> for …`: by names without arguments both were
/// (indexmap walk, F6).
fn best_fitting<'g>(
    graph: &'g Graph,
    ty: &RustType,
    tr: &RustType,
    member: &str,
    members_of: &dyn Fn(Vec<&'g Node>) -> Vec<&'g Node>,
) -> Vec<&'g Node> {
    let mut best: BTreeMap<&str, &'g Node> = BTreeMap::new();
    let mut top = 0;
    for n in graph.nodes_of(NodeKind::Symbol) {
        let Some(Some(score)) = impl_fit(n, ty, tr) else {
            continue;
        };
        // An impl stands for its members; a member (whose impl the graph may not hold) for
        // itself.
        let found = if n.metadata.get("name").is_some_and(|o| o.contains(" for ")) {
            members_of(vec![n])
        } else {
            let written = n.metadata.get("written").and_then(|w| rust_written(w));
            match written {
                Some((_, _, m)) if m == member => vec![n],
                _ => Vec::new(),
            }
        };
        if found.is_empty() || score < top {
            continue;
        }
        if score > top {
            best.clear();
            top = score;
        }
        best.extend(found.into_iter().map(|m| (m.id.as_str(), m)));
    }
    best.into_values().collect()
}

/// How well the written trait `tr` and type `ty` fit the impl that `n` names: a trait impl by
/// its block's name, a member of one by its Rust name (`<IndexMap<K, V, S> as
/// Index<&Q>>::index`). `None` when `n` names no trait impl (or one this reading cannot
/// read), `Some(None)` when they do not fit it.
fn impl_fit(n: &Node, ty: &RustType, tr: &RustType) -> Option<Option<usize>> {
    let (t, y) = match n
        .metadata
        .get("name")
        .and_then(|own| own.split_once(" for "))
    {
        Some((t, y)) => (t.to_string(), y.to_string()),
        None => {
            let (y, t, _) = rust_written(n.metadata.get("written")?)?;
            (t, y)
        }
    };
    let (t, y) = (RustType::parse(&t)?, RustType::parse(&y)?);
    Some(fit(tr, &t).zip(fit(ty, &y)).map(|(a, b)| a + b))
}

/// A Rust type as names of it compare: each path by its last segment (`alloc::string::String`
/// is `String`), lifetimes, `dyn` and `impl` left out.
#[derive(Debug, PartialEq)]
enum RustType {
    /// A path's last segment with its generic arguments (`IndexMap<K, V, S>`).
    Path(String, Vec<RustType>),
    /// `&T` (false) or `&mut T` (true): an impl for one is not an impl for the other.
    Ref(bool, Box<RustType>),
    /// `*const T` (false) or `*mut T` (true).
    Ptr(bool, Box<RustType>),
    /// A tuple `(A, B)`.
    Tuple(Vec<RustType>),
    /// A slice `[T]` or an array `[T; N]` (its length not compared).
    Slice(Box<RustType>),
}

/// How deep a written type may nest before it is not read (a name typed by a person).
const RUST_TYPE_DEPTH: usize = 16;

impl RustType {
    /// `text` read as one type; `None` when it is not one this reading knows.
    fn parse(text: &str) -> Option<Self> {
        let tokens = rust_tokens(text);
        let mut at = 0;
        let t = Self::at(&tokens, &mut at, 0)?;
        (at == tokens.len()).then_some(t)
    }

    fn at(tokens: &[&str], i: &mut usize, depth: usize) -> Option<Self> {
        if depth > RUST_TYPE_DEPTH {
            return None;
        }
        let next = |i: &mut usize| {
            let t = tokens.get(*i).copied();
            *i += 1;
            t
        };
        let list = |i: &mut usize, close: &str| -> Option<Vec<Self>> {
            let mut items = Vec::new();
            loop {
                if tokens.get(*i) == Some(&close) {
                    *i += 1;
                    return Some(items);
                }
                // An associated type's binding (`Iterator<Item = T>`) is compared by its type.
                if tokens.get(*i + 1) == Some(&"=") {
                    *i += 2;
                }
                // A lifetime argument (`Parser<'a, T>`) says nothing of the type.
                if tokens.get(*i).is_some_and(|t| t.starts_with('\'')) {
                    *i += 1;
                } else {
                    items.push(Self::at(tokens, i, depth + 1)?);
                }
                match tokens.get(*i) {
                    Some(&",") => *i += 1,
                    Some(t) if *t == close => {}
                    _ => return None,
                }
            }
        };
        match next(i)? {
            "&" => {
                if tokens.get(*i).is_some_and(|t| t.starts_with('\'')) {
                    *i += 1;
                }
                let mutable = tokens.get(*i) == Some(&"mut");
                *i += usize::from(mutable);
                Some(Self::Ref(
                    mutable,
                    Box::new(Self::at(tokens, i, depth + 1)?),
                ))
            }
            "*" => {
                let mutable = tokens.get(*i) == Some(&"mut");
                if mutable || tokens.get(*i) == Some(&"const") {
                    *i += 1;
                }
                Some(Self::Ptr(
                    mutable,
                    Box::new(Self::at(tokens, i, depth + 1)?),
                ))
            }
            "(" => Some(Self::Tuple(list(i, ")")?)),
            "[" => {
                let inner = Self::at(tokens, i, depth + 1)?;
                // An array's length is an expression: up to the bracket.
                while next(i)? != "]" {}
                Some(Self::Slice(Box::new(inner)))
            }
            "dyn" | "impl" => Self::at(tokens, i, depth + 1),
            word if word.starts_with(|c: char| c.is_alphanumeric() || c == '_') => {
                let mut last = word;
                while tokens.get(*i) == Some(&"::") {
                    *i += 1;
                    last = next(i)?;
                }
                let args = if tokens.get(*i) == Some(&"<") {
                    *i += 1;
                    list(i, ">")?
                } else {
                    Vec::new()
                };
                Some(Self::Path(last.to_string(), args))
            }
            _ => None,
        }
    }
}

/// The tokens of a Rust type: words, lifetimes, `::` and single punctuation.
fn rust_tokens(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(c) = rest.chars().next() {
        let word = |s: &str| {
            s.find(|c: char| !(c.is_alphanumeric() || c == '_'))
                .unwrap_or(s.len())
        };
        let len = if c.is_whitespace() {
            rest = &rest[c.len_utf8()..];
            continue;
        } else if rest.starts_with("::") {
            2
        } else if c == '\'' {
            1 + word(&rest[1..])
        } else if c.is_alphanumeric() || c == '_' {
            word(rest)
        } else {
            c.len_utf8()
        };
        out.push(&rest[..len]);
        rest = &rest[len..];
    }
    out
}

/// Rust's primitive types: written in an impl's name, one is that type, never a parameter.
const RUST_PRIMITIVES: [&str; 17] = [
    "bool", "char", "str", "u8", "u16", "u32", "u64", "u128", "usize", "i8", "i16", "i32", "i64",
    "i128", "isize", "f32", "f64",
];

/// Whether the type `written` (a backtrace's, rustc's or a person's) can be the type
/// `declared` in an impl's name, and how many of its names agree: a declared name without
/// arguments that is no primitive may be one of the impl's parameters and stands for any type
/// (`String` fits `K`, `usize` does not fit `&Q`), and written arguments may stop short of the
/// declared ones (a defaulted `S` left out). `None` when it cannot be.
fn fit(written: &RustType, declared: &RustType) -> Option<usize> {
    use RustType::*;
    match (written, declared) {
        (Path(w, wargs), Path(d, dargs)) if w == d && wargs.len() <= dargs.len() => {
            let mut n = 1;
            for (a, b) in wargs.iter().zip(dargs) {
                n += fit(a, b)?;
            }
            Some(n)
        }
        (_, Path(d, dargs)) if dargs.is_empty() && !RUST_PRIMITIVES.contains(&d.as_str()) => {
            Some(0)
        }
        (Ref(a, w), Ref(b, d)) | (Ptr(a, w), Ptr(b, d)) if a == b => fit(w, d),
        (Slice(w), Slice(d)) => fit(w, d),
        (Tuple(w), Tuple(d)) if w.len() == d.len() => {
            let mut n = 0;
            for (a, b) in w.iter().zip(d) {
                n += fit(a, b)?;
            }
            Some(n)
        }
        _ => None,
    }
}

/// Java's ways of naming a member in stack traces, `javap` and Javadoc: an inner class's
/// binary name (`Outer$Inner`) and a method with its parameter types
/// (`Device.name(boolean)`, `Proxy#invoke(Object, Method)`), as the qualified name writes it
/// (`Outer.Inner`, `Device.name`; Java walk, stop 48). Overloads share that name. `None` when
/// `name` is not written so.
fn java_written(name: &str) -> Option<String> {
    let without_params = match name.find('(') {
        Some(open) if name.ends_with(')') && open > 0 => &name[..open],
        _ => name,
    };
    let java = without_params.replace('$', ".");
    (java != name && !java.is_empty()).then_some(java)
}

/// V8's way of naming a function in a stack trace, as the symbol's qualified name writes it
/// (qs walk, `/tmp/w50/js-drift`): `module.exports [as parse]` names the function
/// `module.exports` called as `parse`, and `exports.parse` or `module.exports.formatters.RFC1738`
/// a member of the exports object, which qualified names leave out as importers do
/// (`parse`, `formatters.RFC1738`). `None` when `name` is not written so.
fn v8_written(name: &str) -> Option<String> {
    let mut js = name.trim();
    if let Some(open) = js.find(" [as ").filter(|_| js.ends_with(']')) {
        js = js[..open].trim_end();
    }
    for exports in ["module.exports.", "exports."] {
        if let Some(rest) = js.strip_prefix(exports).filter(|r| !r.is_empty()) {
            js = rest;
            break;
        }
    }
    (js != name && !js.is_empty()).then(|| js.to_string())
}

/// Go's way of naming a method in godoc, pprof and a panic's trace, with a pointer receiver
/// and the package's import path (`github.com/spf13/cobra.(*Command).ExecuteC`), as the
/// symbol's qualified name writes it (`cobra.Command.ExecuteC`; Go walk, stop 48). `None`
/// when `name` is not written so.
fn go_written(name: &str) -> Option<String> {
    let receiver = name.contains("(*") || name.contains(").");
    let path = name
        .split('(')
        .next()
        .is_some_and(|head| head.contains('/'));
    if !receiver && !path {
        return None;
    }
    // The import path up to the package's own name is no part of the qualified name.
    let head_end = name.find('(').unwrap_or(name.len());
    let rest = match name[..head_end].rfind('/') {
        Some(slash) => &name[slash + 1..],
        None => name,
    };
    let go = rest.replace("(*", "").replace(['(', ')'], "");
    (go != name && !go.is_empty()).then_some(go)
}

/// The other names of a symbol node ([`Definition::aliases`](ontoly_graph::sources::symbols::Definition::aliases)):
/// a function expression's own name, the other targets of a chained assignment.
pub fn aliases(n: &Node) -> impl Iterator<Item = &str> {
    (n.metadata.get("alias").map(String::as_str))
        .into_iter()
        .flat_map(|a| a.split(' '))
        .filter(|a| !a.is_empty())
}

/// The ways `name` may write a definition's qualified name, as [`symbols_named`] reads
/// them: as typed, as Go, Java and V8 traces, godoc, Javadoc and JSDoc write names, and with
/// the other language's separator; each once, in that order.
pub fn written_forms(name: &str) -> Vec<String> {
    let name = name.trim();
    let mut out: Vec<String> = vec![name.to_string()];
    out.extend(go_written(name));
    out.extend(java_written(name));
    out.extend(v8_written(name));
    if name.contains(".prototype.") || name.contains('#') {
        out.push(name.replace(".prototype.", ".").replace('#', "."));
    }
    if name.contains("::") {
        out.push(name.replace("::", "."));
    } else if name.contains('.') && !name.contains('/') {
        out.push(name.replace('.', "::"));
    }
    let mut seen = BTreeSet::new();
    out.retain(|f| !f.is_empty() && !f.contains(char::is_whitespace) && seen.insert(f.clone()));
    out
}

fn symbols_named_as_written<'g>(graph: &'g Graph, name: &str) -> Vec<&'g Node> {
    // A trait impl named with its trait's arguments (`From<Box<[u8]>> for Bytes`) is that one
    // impl, not every `From<…> for Bytes` its name without them would match (Rust walk, stop
    // 49: four impls).
    if name.contains(" for ") {
        let strict: Vec<&Node> = (graph.nodes_of(NodeKind::Symbol))
            .filter(|n| {
                (n.metadata.get("name"))
                    .is_some_and(|own| own.contains(" for ") && same_written(own, name, false))
            })
            .collect();
        if !strict.is_empty() {
            return strict;
        }
    }
    let key = anchor::name_key(name);
    let exact: Vec<&Node> = graph
        .nodes_of(NodeKind::Symbol)
        .filter(|n| {
            n.name == name
                || anchor::name_key(&n.name) == key
                || n.metadata
                    .get("qualified")
                    .is_some_and(|q| q == name || anchor::name_key(q) == key)
                // A JavaScript function expression's own name, which traces print.
                || aliases(n).any(|a| a == name || anchor::name_key(a) == key)
                // A trait's impl by its own name, `From<E> for Error`: its qualified name is
                // the type's, which every impl of the type shares (Rust walk, stop 48).
                || n.metadata.get("name").is_some_and(|own| {
                    own.contains(" for ") && (own == name || anchor::name_key(own) == key)
                })
        })
        .collect();
    // A bare name is every definition called so, whichever matched it as written: a
    // function expression's own name (`Layer.prototype.handle_request = function handle`)
    // or a top-level `sendfile` is one `handle` or `sendfile` among the members called so
    // (`app.handle`, `proto.handle`, `res.sendfile`; express walk, F2).
    let bare = !["::", ".", "/", "#"].iter().any(|sep| key.contains(sep));
    if !exact.is_empty() && !bare {
        return exact;
    }
    let ends_with_key = |name: &str| {
        let own = anchor::name_key(name);
        ["::", ".", "/", "#"]
            .iter()
            .any(|sep| own.ends_with(&format!("{sep}{key}")))
    };
    let mut ending: Vec<&Node> = graph
        .nodes_of(NodeKind::Symbol)
        .filter(|n| {
            ends_with_key(&n.name)
                // Another name of a chained assignment (`req.get = req.header = …`).
                || aliases(n).any(ends_with_key)
        })
        .collect();
    if bare && !exact.is_empty() {
        ending.extend(exact);
        ending.sort_unstable_by(|a, b| a.id.cmp(&b.id));
        ending.dedup_by(|a, b| a.id == b.id);
        return ending;
    }
    if !ending.is_empty() {
        return ending;
    }
    let in_module = module_qualified(graph, &key);
    if !in_module.is_empty() {
        return in_module;
    }
    members_of(graph, &key)
}

/// The symbols defined in a class, impl or module named `key` (`Range` for `Range.parseRange`,
/// `Parser` for `Parser::parse_ast`): a range cited inside one of its methods makes the
/// method a symbol of the graph, not the class, and "who cites Range" means them.
fn members_of<'g>(graph: &'g Graph, key: &str) -> Vec<&'g Node> {
    graph
        .nodes_of(NodeKind::Symbol)
        .filter(|n| {
            let own = anchor::name_key(n.metadata.get("qualified").unwrap_or(&n.name));
            ["::", "."].iter().any(|sep| {
                own.strip_prefix(key)
                    .and_then(|rest| rest.strip_prefix(sep))
                    .is_some_and(|member| !member.is_empty())
                    || own.contains(&format!("{sep}{key}{sep}"))
            })
        })
        .collect()
}

/// Whether `symbols`, the nodes [`symbols_named`] gives for `name`, are all defined inside a
/// class, impl or module called `name` rather than called so themselves: a range cited inside
/// one of its methods makes the method a node, not the class (`Ky` names its ten cited
/// methods; `Justfile<'src>::run` is a member of `Justfile`, names compared without
/// generics). `false` when there are none.
pub fn are_members_of(symbols: &[&Node], name: &str) -> bool {
    let key = anchor::name_key(name);
    !symbols.is_empty()
        && symbols.iter().all(|n| {
            let q = anchor::name_key(n.metadata.get("qualified").unwrap_or(&n.name));
            n.kind == NodeKind::Symbol
                && ["::", ".", "#"]
                    .iter()
                    .any(|sep| q.starts_with(&format!("{key}{sep}")))
        })
}

/// The symbols defined inside `container` (a class's methods, an impl's functions, a
/// function's nested items), by qualified name, in its repository: "who cites `Database`"
/// means every range inside it, and a range inside one method names only that method.
pub fn within<'g>(graph: &'g Graph, container: &Node) -> Vec<&'g Node> {
    let key = anchor::name_key(
        container
            .metadata
            .get("qualified")
            .unwrap_or(&container.name),
    );
    // Every impl of a type shares the type's qualified name: an impl holds only what is
    // written inside it (`From<E> for Error` is not `Display for Error`'s `fmt`).
    let inside = |m: &Node| match (&container.span, &m.span) {
        (Some(c), Some(s)) if container.metadata.get("kind").is_some_and(|k| k == "impl") => {
            c.file == s.file && c.start_line <= s.start_line && s.end_line <= c.end_line
        }
        _ => true,
    };
    members_of(graph, &key)
        .into_iter()
        .filter(|m| m.package == container.package && m.id != container.id && inside(m))
        .collect()
}

/// Symbols named with their module path in front, as Python and Rust spell them in imports:
/// `click.core.Context.invoke` is `Context.invoke` in `src/click/core.py`, and
/// `just::parser::Parser::parse_ast` is `Parser::parse_ast` in `src/parser.rs` of
/// `casey/just`. The fewest leading segments are dropped that leave a name some symbol has,
/// and each dropped one must be a component of that symbol's file path (without its
/// extension), the last part of its repository's name, or Rust's `crate`, `self` or `super`.
fn module_qualified<'g>(graph: &'g Graph, key: &str) -> Vec<&'g Node> {
    let sep = if key.contains("::") { "::" } else { "." };
    let segments: Vec<&str> = key.split(sep).collect();
    for k in 1..segments.len() {
        let (module, rest) = segments.split_at(k);
        let name = rest.join(sep);
        let found: Vec<&Node> = graph
            .nodes_of(NodeKind::Symbol)
            .filter(|n| anchor::name_key(&n.name) == name)
            .filter(|n| {
                let path = n.file.as_deref().unwrap_or("");
                let parts: Vec<&str> = path
                    .split('/')
                    .map(|c| c.split('.').next().unwrap_or(c))
                    .collect();
                let repo = n.package.as_deref().and_then(|p| p.rsplit('/').next());
                module.iter().all(|m| {
                    parts.contains(m) || repo == Some(*m) || ["crate", "self", "super"].contains(m)
                })
            })
            .collect();
        if !found.is_empty() {
            return found;
        }
    }
    Vec::new()
}

/// The node a person means by `text`: an id as written; a section as `page.md#id` (also
/// `knowledge/page.md#id`); an article as its page path; a source file by its repository path,
/// or failing that by the end of one (`main.go`), when exactly one file node has it (one
/// pinned commit); a symbol by its name as [`symbols_named`] reads it, when exactly one
/// matches. `None` when nothing, or more than one file or symbol, matches.
pub fn resolve_node<'g>(graph: &'g Graph, text: &str) -> Option<&'g Node> {
    resolve_or_candidates(graph, text).ok()
}

/// [`resolve_node`], or when no single node matches, the files or symbols `text` could mean
/// (empty when there are none).
pub fn resolve_or_candidates<'g>(graph: &'g Graph, text: &str) -> Result<&'g Node, Vec<&'g Node>> {
    if let Some(n) = graph.node(text) {
        return Ok(n);
    }
    let text = as_typed(text);
    let page = text.strip_prefix("knowledge/").unwrap_or(text);
    let kind = if page.contains('#') {
        "section"
    } else {
        "article"
    };
    // The labels the text outputs print without their kind (`cites` prints a range as
    // `github.com/o/r@abc123:src/x.rs#L3-L9`).
    for candidate in [
        format!("{kind}:{text}"),
        format!("{kind}:{page}"),
        format!("range:{text}"),
        format!("file:{text}"),
    ] {
        if let Some(n) = graph.node(&candidate) {
            return Ok(n);
        }
    }
    // `path:START-END`: the cited range of exactly those lines; also as the pictures label
    // one, `path#LSTART-LEND` (TypeScript walk, stop 49: `graph` refused its own label).
    if let ontoly_graph::formats::location::Location {
        path,
        lines: Some((a, b)),
    } = ontoly_graph::formats::location::Location::parse(text)
    {
        let mut files = files_at(graph, path);
        if files.is_empty() {
            files = files_ending(graph, path);
        }
        let ranges: Vec<&Node> = files
            .iter()
            .flat_map(|f| graph.in_edges(&f.id, Some(EdgeKind::InFile)))
            .filter_map(|e| graph.node(&e.from))
            .filter(|r| {
                r.span
                    .as_ref()
                    .is_some_and(|s| s.start_line == a && s.end_line == b)
            })
            .collect();
        if !ranges.is_empty() {
            return match ranges.as_slice() {
                [r] => Ok(r),
                _ => Err(ranges),
            };
        }
    }
    let mut found = files_at(graph, text);
    if found.is_empty() {
        found = files_ending(graph, text);
    }
    if found.is_empty() {
        found = symbols_named(graph, text);
    }
    match found.as_slice() {
        [n] => Ok(n),
        _ => Err(found),
    }
}

/// A commit, repository, source or the workspace: a node that links everything of its kind,
/// so a walk shows it where it reaches it but does not cross it (every file of a commit is
/// two hops from any other through it, every two sections four through the workspace).
pub fn is_hub(node: &Node) -> bool {
    matches!(
        node.kind,
        NodeKind::Commit | NodeKind::Repository | NodeKind::Source | NodeKind::Workspace
    )
}

/// A candidate a name could mean, as a message lists it: its id, and Rust's name for a trait
/// impl or its member, which the id (built from the type's qualified name every impl of the
/// type shares) does not say (`symbol:…#impl:IndexMap<K, V, S>@L1243-L1279 (impl Index<&Q>
/// for IndexMap<K, V, S>)`).
pub fn candidate(n: &Node) -> String {
    match n.metadata.get("written") {
        Some(w) => format!("{} ({w})", n.id),
        None => n.id.clone(),
    }
}

/// How many of the candidates a name could mean a message lists.
pub const CANDIDATES_SHOWN: usize = 5;

/// Nodes shown around a focus at most.
pub const NEIGHBOURHOOD_MAX_NODES: usize = 60;

/// The nodes within `depth` hops of `focus` (edges in either direction), at most
/// [`NEIGHBOURHOOD_MAX_NODES`], the edges among them, and whether nodes were left out for the
/// bound. `None` when `focus` is unknown. A commit, repository, source or the workspace is
/// shown where it is reached but not crossed (unless it is the focus): every file of a
/// commit is two hops from any one of them, and they would fill the picture before the
/// sections that cite the file. A cited range comes with the sections citing it, whatever
/// the depth left.
pub fn neighbourhood<'g>(
    graph: &'g Graph,
    focus: &str,
    depth: usize,
) -> Option<(Vec<&'g Node>, Vec<&'g Edge>, bool)> {
    neighbourhood_of(graph, &[focus], depth)
}

/// [`neighbourhood`] around several nodes at once, each at the centre (a class's cited
/// members, when the class is no node itself: [`are_members_of`]); the bound counts them all.
/// `None` when any of `foci` is unknown or there is none.
pub fn neighbourhood_of<'g>(
    graph: &'g Graph,
    foci: &[&str],
    depth: usize,
) -> Option<(Vec<&'g Node>, Vec<&'g Edge>, bool)> {
    let hub = |id: &str| !foci.contains(&id) && graph.node(id).is_some_and(is_hub);
    let mut seen: BTreeSet<&str> = BTreeSet::new();
    let mut queue = VecDeque::new();
    if foci.is_empty() {
        return None;
    }
    for focus in foci {
        let f = graph.node(focus)?;
        if seen.insert(&f.id) {
            queue.push_back((f.id.as_str(), 0));
        }
    }
    let mut truncated = false;
    while let Some((id, d)) = queue.pop_front() {
        if d >= depth || hub(id) {
            continue;
        }
        let mut next: Vec<&Edge> = graph.out_edges(id, None);
        next.extend(graph.in_edges(id, None));
        next.sort_by(|a, b| a.id.cmp(&b.id));
        for e in next {
            let other = if e.from == id { &e.to } else { &e.from };
            if seen.contains(other.as_str()) {
                continue;
            }
            if seen.len() >= NEIGHBOURHOOD_MAX_NODES {
                truncated = true;
                break;
            }
            seen.insert(other);
            queue.push_back((other.as_str(), d + 1));
            // A cited range comes with the sections citing it: a file cited by sixty ranges
            // would otherwise fill the picture with ranges and show no section at all, and a
            // symbol's picture at depth 1 showed its range but not what cites it (indexmap
            // walk, F10). They are shown, not walked from.
            let is_range = graph.node(other).is_some_and(|n| n.kind == NodeKind::Range);
            if is_range {
                let mut citing = graph.in_edges(other, Some(EdgeKind::Cites));
                citing.sort_by(|a, b| a.id.cmp(&b.id));
                for c in citing {
                    if seen.contains(c.from.as_str()) {
                        continue;
                    }
                    if seen.len() >= NEIGHBOURHOOD_MAX_NODES {
                        truncated = true;
                        break;
                    }
                    seen.insert(&c.from);
                    queue.push_back((c.from.as_str(), d + 2));
                }
            }
        }
    }
    let nodes: Vec<&Node> = seen.iter().filter_map(|id| graph.node(id)).collect();
    // The edges among them: the out edges of each that end in the set, in id order.
    let mut edges: Vec<&Edge> = seen
        .iter()
        .flat_map(|id| graph.out_edges(id, None))
        .filter(|e| seen.contains(e.to.as_str()))
        .collect();
    edges.sort_by(|a, b| a.id.cmp(&b.id));
    Some((nodes, edges, truncated))
}

#[cfg(test)]
mod tests {
    use super::go_written;

    #[test]
    fn rust_names_keep_what_makes_a_reference_and_lose_a_frames_hash() {
        use super::{fit, unpathed, RustType};
        use crate::retrieval::pasted::without_rust_hash;
        for (written, bare) in [
            ("&indexmap::set::IndexSet<T,S1>", "&IndexSet<T,S1>"),
            ("&mut a::B<T>", "&mut B<T>"),
            ("&'a mut a::B", "&'a mut B"),
            ("*const a::B", "*const B"),
            ("core::fmt::Debug", "Debug"),
        ] {
            assert_eq!(unpathed(written), bare, "{written}");
        }
        assert_eq!(
            without_rust_hash("a::B<K,V>::insert::h1a2b3c4d5e6f7a8b"),
            "a::B<K,V>::insert"
        );
        assert_eq!(without_rust_hash("a::hash"), "a::hash");
        let ty = |t: &str| RustType::parse(t).expect(t);
        let fits = |w: &str, d: &str| fit(&ty(w), &ty(d));
        assert_eq!(fits("Index<usize>", "Index<&Q>"), None);
        assert_eq!(fits("Index<usize>", "Index<usize>"), Some(2));
        assert_eq!(fits("Index<&alloc::string::String>", "Index<&Q>"), Some(1));
        assert_eq!(fits("IndexMap<String, i32>", "IndexMap<K, V, S>"), Some(1));
        assert_eq!(fits("&mut IndexSet<T>", "&IndexSet<T>"), None);
        assert_eq!(fits("From<[(K, V); 3]>", "From<[(K, V); N]>"), Some(3));
        assert_eq!(fits("Parser<'a, T>", "Parser<'src, T>"), Some(2));
        // A name a person could type that is no type: read as nothing, not a panic.
        assert!(RustType::parse("<<<&").is_none());
        assert!(RustType::parse(&"&".repeat(100)).is_none());
    }

    #[test]
    fn go_method_names_as_traces_and_godoc_write_them() {
        let go = |n: &str| go_written(n);
        assert_eq!(
            go("github.com/spf13/cobra.(*Command).ExecuteC").as_deref(),
            Some("cobra.Command.ExecuteC")
        );
        assert_eq!(
            go("cobra.(*Command).Execute").as_deref(),
            Some("cobra.Command.Execute")
        );
        assert_eq!(go("(*Command).Execute").as_deref(), Some("Command.Execute"));
        assert_eq!(
            go("github.com/spf13/cobra.Command.Execute").as_deref(),
            Some("cobra.Command.Execute")
        );
        assert_eq!(go("Command.Execute"), None);
        assert_eq!(
            super::java_written("Client$Proxy.invoke").as_deref(),
            Some("Client.Proxy.invoke")
        );
        assert_eq!(
            super::java_written("Proxy#invoke(Object, Method, Object[])").as_deref(),
            Some("Proxy#invoke")
        );
        assert_eq!(
            super::java_written("Device.name()").as_deref(),
            Some("Device.name")
        );
        assert_eq!(super::java_written("Device.name"), None);
        assert_eq!(go("Schema::load"), None);
    }

    #[test]
    fn v8_trace_names_as_qualified_names_write_them() {
        let v8 = |n: &str| super::v8_written(n);
        assert_eq!(
            v8("module.exports [as parse]").as_deref(),
            Some("module.exports")
        );
        assert_eq!(v8("exports.parse").as_deref(), Some("parse"));
        assert_eq!(
            v8("module.exports.formatters.RFC1738").as_deref(),
            Some("formatters.RFC1738")
        );
        assert_eq!(v8("Parser.run [as go]").as_deref(), Some("Parser.run"));
        assert_eq!(v8("module.exports"), None);
        assert_eq!(v8("exports."), None);
        assert_eq!(v8("myexports.parse"), None);
        assert_eq!(v8("parse"), None);
    }
}

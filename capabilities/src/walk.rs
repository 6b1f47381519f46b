//! Graph walks shared by the capabilities: what a section cites, pinned and resolved.

use ontoly_graph::graph::Graph;
use ontoly_graph::graph::model::{Edge, EdgeKind, Node, NodeKind};
use ontoly_graph::formats::text::{is_full_commit, is_sha256_digest};

/// How a citation's recorded digest compares with the source, when it could be checked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Verification {
    /// The source was read and the digest matches.
    Verified,
    /// The source was read and differs (drift, mismatch).
    Drift,
    /// The source was not available; nothing is known.
    Unknown,
}

/// One `CITES` edge of a section, resolved down to its repository.
#[derive(Debug, Clone)]
pub(crate) struct Citation<'g> {
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

impl Citation<'_> {
    /// 0..1: how far this citation can be trusted without reading the source. Pinned full
    /// commit 0.5, a well-formed digest 0.2, a verified digest 0.3; drift voids it.
    pub fn grounding(&self) -> f64 {
        if self.verification == Verification::Drift {
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

fn verification_of(meta: &std::collections::BTreeMap<String, String>) -> Option<Verification> {
    let v = meta
        .get("status")
        .or_else(|| meta.get("verification"))?
        .to_ascii_lowercase();
    Some(match v.as_str() {
        "verified" | "match" | "matches" | "ok" | "current" => Verification::Verified,
        // The statuses of graph::verify that say the evidence is wrong, and their synonyms.
        "digest_mismatch"
        | "commit_missing"
        | "file_missing"
        | "range_out_of_bounds"
        | "drift"
        | "drifted"
        | "mismatch"
        | "changed"
        | "stale"
        | "missing" => Verification::Drift,
        _ => Verification::Unknown,
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
pub(crate) fn citation<'g>(graph: &'g Graph, edge: &'g Edge) -> Option<Citation<'g>> {
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
    Some(Citation {
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
pub(crate) fn citations<'g>(graph: &'g Graph, section: &str) -> Vec<Citation<'g>> {
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
    cites.iter().map(Citation::grounding).sum::<f64>() / cites.len() as f64
}

/// The knowledge page path of a section or article node (`knowledge/faq/guide.md`).
pub(crate) fn page_path(node: &Node) -> Option<String> {
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

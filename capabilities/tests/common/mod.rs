//! A small hand-assembled graph: two pages, three sections, pinned citations into one
//! repository, one symbol, one diagnostic. Shaped like the builder's output.
#![allow(dead_code)]

use ontoly_capabilities::Index;
use ontoly_graph::graph::model::{ids, Edge, EdgeKind, Node, NodeKind, Origin, Span};
use ontoly_graph::graph::Graph;
use std::collections::BTreeMap;

pub const COMMIT: &str = "0123456789abcdef0123456789abcdef01234567";
pub const REPO: &str = "github.com/acme/server";
pub const DIGEST: &str = "sha256:aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa";

fn node(id: String, kind: NodeKind, name: &str) -> Node {
    Node {
        id,
        kind,
        name: name.into(),
        file: None,
        span: None,
        package: None,
        metadata: Default::default(),
    }
}

fn span(file: &str, s: u64, e: u64) -> Option<Span> {
    Some(Span {
        file: file.into(),
        start_line: s,
        end_line: e,
    })
}

fn origin(file: &str, line: u64) -> Option<Origin> {
    Some(Origin {
        file: file.into(),
        line,
    })
}

pub struct Builder {
    pub nodes: Vec<Node>,
    pub edges: Vec<Edge>,
    pub texts: BTreeMap<String, String>,
}

impl Builder {
    pub fn new() -> Self {
        let mut b = Builder {
            nodes: Vec::new(),
            edges: Vec::new(),
            texts: BTreeMap::new(),
        };
        let mut r = node(ids::repository(REPO), NodeKind::Repository, REPO);
        r.metadata
            .insert("remote".into(), "https://github.com/acme/server".into());
        b.nodes.push(r);
        let mut c = node(ids::commit(REPO, COMMIT), NodeKind::Commit, &COMMIT[..12]);
        c.metadata.insert("commit".into(), COMMIT.into());
        b.edges.push(Edge::new(
            EdgeKind::OfRepository,
            c.id.clone(),
            ids::repository(REPO),
            None,
        ));
        b.nodes.push(c);
        b.nodes.push(node(
            ids::WORKSPACE.into(),
            NodeKind::Workspace,
            ids::WORKSPACE_NAME,
        ));
        b
    }

    pub fn article(&mut self, path: &str, title: &str) {
        let mut a = node(ids::article(path), NodeKind::Article, title);
        a.file = Some(format!("knowledge/{path}"));
        a.metadata.insert("title".into(), title.into());
        self.texts.insert(a.id.clone(), title.into());
        self.edges.push(Edge::new(
            EdgeKind::Contains,
            ids::WORKSPACE,
            a.id.clone(),
            origin("knowledge/structure.yaml", 1),
        ));
        self.nodes.push(a);
    }

    pub fn section(
        &mut self,
        page: &str,
        id: &str,
        heading: &str,
        lines: (u64, u64),
        body: &str,
    ) -> String {
        let mut s = node(ids::section(page, id), NodeKind::Section, heading);
        s.span = span(&format!("knowledge/{page}"), lines.0, lines.1);
        s.file = Some(format!("knowledge/{page}"));
        s.metadata.insert("heading".into(), heading.into());
        self.texts.insert(s.id.clone(), body.into());
        self.edges.push(Edge::new(
            EdgeKind::Contains,
            ids::article(page),
            s.id.clone(),
            origin(&format!("knowledge/{page}"), lines.0),
        ));
        let sid = s.id.clone();
        self.nodes.push(s);
        sid
    }

    /// A pinned citation of `path` lines `s..e`; `status` is the verification, if any.
    pub fn cite(
        &mut self,
        section: &str,
        path: &str,
        s: u64,
        e: u64,
        status: Option<&str>,
    ) -> String {
        let file_id = ids::file(REPO, COMMIT, path);
        if !self.nodes.iter().any(|n| n.id == file_id) {
            let mut f = node(file_id.clone(), NodeKind::File, path);
            f.file = Some(path.into());
            f.package = Some(REPO.into());
            self.nodes.push(f);
            self.edges.push(Edge::new(
                EdgeKind::AtCommit,
                file_id.clone(),
                ids::commit(REPO, COMMIT),
                None,
            ));
        }
        let rid = ids::range(REPO, COMMIT, path, s, e);
        let mut r = node(rid.clone(), NodeKind::Range, &format!("{path}#L{s}-L{e}"));
        r.span = span(path, s, e);
        r.package = Some(REPO.into());
        self.nodes.push(r);
        self.edges
            .push(Edge::new(EdgeKind::InFile, rid.clone(), file_id, None));
        let mut c = Edge::new(
            EdgeKind::Cites,
            section,
            rid.clone(),
            origin("knowledge/structure.yaml", 10 + s),
        );
        c.metadata.insert("content_digest".into(), DIGEST.into());
        if let Some(st) = status {
            c.metadata.insert("status".into(), st.into());
        }
        self.edges.push(c);
        rid
    }

    pub fn symbol(&mut self, range: &str, path: &str, kind: &str, name: &str, s: u64, e: u64) {
        let id = ids::symbol(REPO, COMMIT, path, kind, name, s, e);
        let mut n = node(id.clone(), NodeKind::Symbol, name);
        n.span = span(path, s, e);
        n.package = Some(REPO.into());
        n.metadata.insert("kind".into(), kind.into());
        self.nodes.push(n);
        self.edges
            .push(Edge::new(EdgeKind::Overlaps, range, id, None));
    }

    /// A symbol whose own name differs from its qualified one (a Rust trait's impl:
    /// qualified `Cache`, own name `Display for Cache`).
    #[allow(clippy::too_many_arguments, dead_code)]
    pub fn named_symbol(
        &mut self,
        range: &str,
        path: &str,
        kind: &str,
        qualified: &str,
        own: &str,
        s: u64,
        e: u64,
    ) {
        self.symbol(range, path, kind, qualified, s, e);
        if let Some(n) = self.nodes.last_mut() {
            n.metadata.insert("name".into(), own.into());
        }
    }

    pub fn diagnostic(&mut self, code: &str, subject: &str, file: &str, line: u64, message: &str) {
        let id = ids::diagnostic(code, file, line, "");
        let mut d = node(id.clone(), NodeKind::Diagnostic, code);
        d.span = span(file, line, line);
        d.metadata.insert("code".into(), code.into());
        d.metadata.insert("severity".into(), "warning".into());
        d.metadata.insert("message".into(), message.into());
        self.nodes.push(d);
        self.edges
            .push(Edge::new(EdgeKind::Concerns, id, subject, None));
    }

    pub fn build(self) -> Graph {
        let texts = self.texts.into_iter().map(|(k, v)| (k, v.into())).collect();
        Graph::assemble(self.nodes, self.edges, texts)
    }
}

/// The fixture graph and its index.
pub fn fixture() -> (Graph, Index) {
    let mut b = Builder::new();
    b.article("faq/cache.md", "Caching");
    b.article("guide/build.md", "Building releases");
    let ev = b.section(
        "faq/cache.md",
        "eviction",
        "How cache eviction works",
        (3, 12),
        "The LRU cache evicts the least recently used entry when its capacity is reached. \
         Eviction happens in evictOldest, called on every insert.",
    );
    let r = b.cite(&ev, "src/cache.rs", 10, 30, Some("verified"));
    b.symbol(
        &r,
        "src/cache.rs",
        "function",
        "cache::evict_oldest",
        12,
        28,
    );
    let r2 = b.cite(&ev, "src/cache.rs", 40, 52, Some("verified"));
    b.symbol(&r2, "src/cache.rs", "function", "cache::insert", 40, 52);
    let sz = b.section(
        "faq/cache.md",
        "sizing",
        "Sizing the cache",
        (14, 20),
        "Cache capacity is configured by max_entries in the server configuration; \
         eviction starts when the cache is full.",
    );
    b.cite(&sz, "src/config.rs", 1, 9, None);
    let rel = b.section(
        "guide/build.md",
        "release",
        "Release builds",
        (1, 8),
        "Release builds run cargo build --release with link-time optimisation enabled.",
    );
    b.diagnostic(
        "ENTRY_INCOMPLETE",
        &rel,
        "knowledge/structure.yaml",
        30,
        "section has no references",
    );
    let g = b.build();
    let ix = Index::build(&g);
    (g, ix)
}

/// The knowledge commit the fixture's provenance reports.
pub const KNOWLEDGE_COMMIT: &str = "fedcba9876543210fedcba9876543210fedcba98";

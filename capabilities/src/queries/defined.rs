//! Definitions of the cited files that no cited range made a symbol of the graph, read from
//! the files when a name or a line is looked up: a name that exists but is not cited is told
//! apart from one that does not exist, a struct's field is found in the ranges that cite its
//! line, and a line past a cited range is named by the definition it is in (Go and Java
//! walks, w52).

use crate::context::Context;
use crate::walk;
use ontoly_graph::graph::model::{EdgeKind, Node, NodeKind};
use ontoly_graph::sources::symbols::{self, FileSymbols};

/// A definition or field of a cited file at the file's cited commit.
pub(crate) struct Defined<'g> {
    /// The cited file it is in.
    pub file: &'g Node,
    /// Its repository path.
    pub path: String,
    /// `method`, `struct`, `field`, …
    pub kind: String,
    /// Its qualified name.
    pub qualified: String,
    /// Its first and last line (a field's one line twice).
    pub lines: (u64, u64),
}

impl Defined<'_> {
    /// `interface viper.RemoteProvider at viper.go:368`.
    pub fn label(&self) -> String {
        format!(
            "{} `{}` at {}:{}",
            self.kind, self.qualified, self.path, self.lines.0
        )
    }

    /// The cited ranges of its file that overlap its lines.
    pub fn citing_ranges<'g>(&self, g: &'g ontoly_graph::graph::Graph) -> Vec<&'g Node> {
        let (a, b) = self.lines;
        (g.in_edges(&self.file.id, Some(EdgeKind::InFile))
            .into_iter())
        .filter_map(|e| g.node(&e.from))
        .filter(|r| {
            r.span
                .as_ref()
                .is_some_and(|s| s.start_line <= b && s.end_line >= a)
        })
        .collect()
    }
}

/// The bytes of cited file `file` at its commit, from its repository's clone through the
/// session; `None` without one.
pub(crate) fn file_bytes(ctx: &Context<'_>, file: &Node) -> Option<Vec<u8>> {
    let repos = ctx.session()?.repositories().ok()?;
    let repo = repos.lookup(file.package.as_deref()?).ok()?.repo.as_ref()?;
    let commit = file.metadata.get("commit")?;
    repo.local().file_at(commit, walk::source_path(file)?)
}

/// The definitions and fields of `file`, parsed from its text.
fn read<'g>(ctx: &Context<'_>, file: &'g Node) -> Vec<Defined<'g>> {
    let Some(path) = walk::source_path(file) else {
        return Vec::new();
    };
    let Some(bytes) = file_bytes(ctx, file) else {
        return Vec::new();
    };
    let Ok(text) = std::str::from_utf8(&bytes) else {
        return Vec::new();
    };
    let Some(syms): Option<FileSymbols> = symbols::extract(path, text) else {
        return Vec::new();
    };
    let mut out: Vec<Defined<'g>> = (syms.definitions.iter())
        .map(|d| Defined {
            file,
            path: path.to_string(),
            kind: d.kind.as_str().to_string(),
            qualified: d.qualified.clone(),
            lines: (d.item_line, d.end_line),
        })
        .collect();
    out.extend(
        symbols::fields(path, text, &syms)
            .into_iter()
            .map(|f| Defined {
                file,
                path: path.to_string(),
                kind: "field".to_string(),
                qualified: f.qualified,
                lines: (f.line, f.line),
            }),
    );
    out
}

/// Whether the qualified name `q` is what `form` names: the same, or `form` its last
/// segments (`Viper.keyDelim` for `viper.Viper.keyDelim`).
fn names(q: &str, form: &str) -> bool {
    q == form
        || ["::", ".", "#"]
            .iter()
            .any(|sep| q.strip_suffix(form).is_some_and(|head| head.ends_with(sep)))
}

/// The definitions and fields of the workspace's cited files that `name` names, in the ways
/// [`walk::symbols_named`] reads a name (Go's `(*T).m`, Java's `Outer$Inner` and
/// parameters, JavaScript's `.prototype.` and `#`, the other language's separator), in path
/// and line order. Every cited file is parsed: only asked when the graph has no answer.
pub(crate) fn named<'g>(ctx: &Context<'g>, name: &str) -> Vec<Defined<'g>> {
    let forms = walk::written_forms(name);
    if forms.is_empty() {
        return Vec::new();
    }
    let mut files: Vec<&'g Node> = ctx.graph.nodes_of(NodeKind::File).collect();
    files.sort_by(|a, b| a.id.cmp(&b.id));
    let mut out = Vec::new();
    for f in files {
        for d in read(ctx, f) {
            if forms.iter().any(|form| names(&d.qualified, form)) {
                out.push(d);
            }
        }
    }
    out
}

/// The innermost definition of `file` whose lines hold lines `a..=b`.
pub(crate) fn enclosing<'g>(
    ctx: &Context<'g>,
    file: &'g Node,
    a: u64,
    b: u64,
) -> Option<Defined<'g>> {
    read(ctx, file)
        .into_iter()
        .filter(|d| d.kind != "field" && d.lines.0 <= a && b <= d.lines.1)
        .min_by_key(|d| (d.lines.1 - d.lines.0, std::cmp::Reverse(d.lines.0)))
}

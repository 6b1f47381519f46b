//! Definitions of the cited files that no cited range made a symbol of the graph, read from
//! the files when a name or a line is looked up: a name that exists but is not cited is told
//! apart from one that does not exist, a struct's field is found in the ranges that cite its
//! line, and a line past a cited range is named by the definition it is in (Go and Java
//! walks, w52).

use crate::context::Context;
use crate::walk;
use ontoly_graph::graph::model::{EdgeKind, Node, NodeKind};
use ontoly_graph::sources::drift::anchor;
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
                kind: f.kind.to_string(),
                qualified: f.qualified,
                lines: (f.line, f.line),
            }),
    );
    out
}

/// Whether definition `d` is what `form` names, both without generic arguments and
/// whitespace (`IndexMap::get_mut` and `IndexMap<K, V, S>::get_mut`, as rustc prints it, name
/// `IndexMap<K, V, S>::get_mut`; Rust library walk, stop 53): the same, `form` its last
/// segments (`Viper.keyDelim` for `viper.Viper.keyDelim`), or its qualified name with a
/// module path in front (`map::IndexMap::get_mut`) under the rule graph symbols are read by
/// (`walk::symbols_named`): each leading segment a component of its file's path, the last
/// part of its repository's name, or Rust's `crate`, `self` or `super`.
fn names(d: &Defined<'_>, form: &str) -> bool {
    let (q, form) = (key(&d.qualified), key(form));
    let ends = |long: &str, short: &str| {
        ["::", ".", "#"].iter().any(|sep| {
            long.strip_suffix(short)
                .is_some_and(|head| head.ends_with(sep))
        })
    };
    if q == form || ends(&q, &form) {
        return true;
    }
    let Some(module) = form.strip_suffix(q.as_str()) else {
        return false;
    };
    let sep = if module.ends_with("::") { "::" } else { "." };
    let Some(module) = module.strip_suffix(sep).filter(|m| !m.is_empty()) else {
        return false;
    };
    let parts: Vec<&str> = (d.path.split('/'))
        .map(|c| c.split('.').next().unwrap_or(c))
        .collect();
    let repo = (d.file.package.as_deref()).and_then(|p| p.rsplit('/').next());
    module
        .split(sep)
        .all(|m| parts.contains(&m) || repo == Some(m) || ["crate", "self", "super"].contains(&m))
}

/// A name as [`names`] compares it: no generic arguments, no whitespace.
fn key(name: &str) -> String {
    anchor::name_key(name).split_whitespace().collect()
}

/// The definitions and fields of the workspace's cited files that `name` names, in the ways
/// [`walk::symbols_named`] reads a name (Go's `(*T).m`, Java's `Outer$Inner` and
/// parameters, JavaScript's `.prototype.` and `#`, the other language's separator), in path
/// and line order. Every cited file is parsed: only asked when the graph has no answer.
pub(crate) fn named<'g>(ctx: &Context<'g>, name: &str) -> Vec<Defined<'g>> {
    // Forms with whitespace are dropped; the name without its generic arguments has none.
    let mut forms = walk::written_forms(name);
    forms.extend(walk::written_forms(&key(name)));
    forms.sort_unstable();
    forms.dedup();
    if forms.is_empty() {
        return Vec::new();
    }
    let mut files: Vec<&'g Node> = ctx.graph.nodes_of(NodeKind::File).collect();
    files.sort_by(|a, b| a.id.cmp(&b.id));
    let mut out = Vec::new();
    for f in files {
        for d in read(ctx, f) {
            if forms.iter().any(|form| names(&d, form)) {
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
        .filter(|d| {
            !["field", "variant"].contains(&d.kind.as_str()) && d.lines.0 <= a && b <= d.lines.1
        })
        .min_by_key(|d| (d.lines.1 - d.lines.0, std::cmp::Reverse(d.lines.0)))
}

/// How a member asked for by a class that inherits it was read.
pub(crate) struct Inherited<'g> {
    /// The name read instead (`ZodType.parse`).
    pub form: String,
    /// The graph's symbols of that name.
    pub symbols: Vec<&'g Node>,
    /// The declarations that say so, nearest first (`ZodObject extends ZodType at
    /// src/types.ts:2400`).
    pub chain: Vec<String>,
}

/// Levels of `extends` followed from the class asked for.
const INHERITED_DEPTH: usize = 4;

/// `Class.member` (or `Class#member`, `Class::member`) that no symbol of the graph has, read
/// through the classes `Class` extends in the cited files, nearest first, up to
/// [`INHERITED_DEPTH`] levels: the first such name some symbol has. V8 prints the receiver's
/// class (`at ZodObject.parse` for the `parse` ZodObject inherits from ZodType), and users
/// name a method by the class they call it on (TypeScript walk, stop 53).
pub(crate) fn inherited<'g>(ctx: &Context<'g>, name: &str) -> Option<Inherited<'g>> {
    let (class_path, sep, member) = ["::", "#", "."]
        .iter()
        .filter_map(|sep| {
            let (c, m) = name.rsplit_once(sep)?;
            Some((c, *sep, m))
        })
        .max_by_key(|(c, _, _)| c.len())?;
    let member_ok =
        !member.is_empty() && (member.chars()).all(|c| c.is_alphanumeric() || c == '_' || c == '$');
    let class = class_path.rsplit(['.', ':']).next().unwrap_or(class_path);
    if !member_ok || class.is_empty() {
        return None;
    }
    let mut files: Vec<&'g Node> = ctx.graph.nodes_of(NodeKind::File).collect();
    files.sort_by(|a, b| a.id.cmp(&b.id));
    // Each class's first declaration with bases in the cited files, in path order.
    let mut extends: std::collections::BTreeMap<String, (Vec<String>, String)> =
        std::collections::BTreeMap::new();
    for f in files {
        let Some(path) = walk::source_path(f) else {
            continue;
        };
        let Some(text) = file_bytes(ctx, f).and_then(|b| String::from_utf8(b).ok()) else {
            continue;
        };
        for h in symbols::heritage(path, &text) {
            let at = format!("{path}:{}", h.line);
            extends.entry(h.class).or_insert((h.bases, at));
        }
    }
    let mut queue: std::collections::VecDeque<(String, Vec<String>)> =
        [(class.to_string(), Vec::new())].into();
    let mut seen = std::collections::BTreeSet::new();
    while let Some((c, chain)) = queue.pop_front() {
        if chain.len() >= INHERITED_DEPTH || !seen.insert(c.clone()) {
            continue;
        }
        let Some((bases, at)) = extends.get(&c) else {
            continue;
        };
        for base in bases {
            let mut chain = chain.clone();
            chain.push(format!("{c} extends {base} at {at}"));
            let form = format!("{base}{sep}{member}");
            let found = walk::symbols_named(ctx.graph, &form);
            if !found.is_empty() {
                return Some(Inherited {
                    form,
                    symbols: found,
                    chain,
                });
            }
            queue.push_back((base.clone(), chain));
        }
    }
    None
}

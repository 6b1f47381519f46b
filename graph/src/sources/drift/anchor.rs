//! Symbols behind a changed reference: the definition that covered the cited range at the
//! pinned commit (the tree-sitter extractor of [`crate::sources::symbols`]) and, as the re-anchoring
//! suggestion, a definition of the same qualified name at the later commit.

use crate::sources::symbols::{Definition, FileSymbols, SymbolKind};
use serde::{Deserialize, Serialize};

/// A definition and where it is.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SymbolAt {
    /// What it is.
    pub kind: SymbolKind,
    /// Its name with its enclosing definitions (`Session.send`, `Engine::start`).
    pub qualified: String,
    /// Repository-relative path of the file it is in.
    pub path: String,
    /// 1-based first line.
    pub start_line: u64,
    /// 1-based last line, inclusive.
    pub end_line: u64,
    /// The name people read when `qualified` is shared by definitions that are not this one
    /// ([`Definition::written`]): a Rust trait impl's block, `impl Index<&Q> for
    /// IndexMap<K, V, S>`, or a member of one, `<IndexMap<K, V, S> as Index<&Q>>::index`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub written: Option<String>,
}

impl SymbolAt {
    /// `def` of the file at `path`.
    pub fn new(def: &Definition, path: &str) -> Self {
        Self {
            kind: def.kind,
            qualified: def.qualified.clone(),
            path: path.to_string(),
            start_line: def.start_line,
            end_line: def.end_line,
            written: def.written.clone(),
        }
    }

    /// Its name for people: [`Self::written`] when it has one, else `qualified`. A trait
    /// impl's is its block's name without the `impl` a kind already says (`Index<&Q> for
    /// IndexMap<K, V, S>`).
    pub fn shown(&self) -> &str {
        match &self.written {
            Some(w) if self.kind == SymbolKind::Impl => w.strip_prefix("impl ").unwrap_or(w),
            Some(w) => w,
            None => &self.qualified,
        }
    }
}

/// The definition a cited range `start..=end` stands for: the innermost one that encloses the
/// whole range; else, among those it overlaps, the one it overlaps most (the first on a tie),
/// when that is at least a third of the range and its outermost definition overlaps more of
/// it than the other outermost ones together. A range over a list of one-line declarations, or
/// a file of two impls, stands for none of them (semver's eight `mod` lines were "module
/// `backport`", and a whole `serde.rs` was "in impl `Version`": blind walk, stop 44).
pub fn covering(symbols: &FileSymbols, start: u64, end: u64) -> Option<&Definition> {
    let defs = symbols.for_range(start, end);
    if let Some(d) = defs
        .iter()
        .find(|d| d.start_line <= start && d.end_line >= end)
    {
        return Some(d);
    }
    let overlap = |d: &Definition| d.end_line.min(end) + 1 - d.start_line.max(start);
    let outermost = |d: &'_ Definition| -> u64 {
        let mut at = d;
        while let Some(p) = at.parent.and_then(|p| symbols.definitions.get(p)) {
            at = p;
        }
        at.start_line
    };
    let best = defs
        .iter()
        .copied()
        .fold(None, |best: Option<&Definition>, d| match best {
            Some(b) if overlap(b) >= overlap(d) => Some(b),
            _ => Some(d),
        })
        .filter(|d| 3 * overlap(d) >= end + 1 - start)?;
    // The outermost definitions the range overlaps, by their first line: the best one's
    // against the others.
    let root = outermost(best);
    let (mine, others) =
        defs.iter()
            .filter(|d| d.parent.is_none())
            .fold((0, 0), |(mine, others), d| {
                if d.start_line == root {
                    (mine + overlap(d), others)
                } else {
                    (mine, others + overlap(d))
                }
            });
    (mine > others).then_some(best)
}

/// A definition that does not stand for a range inside it: a class, impl, trait, interface
/// or module, whose members do.
pub fn holds_members(kind: SymbolKind) -> bool {
    matches!(
        kind,
        SymbolKind::Impl
            | SymbolKind::Class
            | SymbolKind::Trait
            | SymbolKind::Interface
            | SymbolKind::Module
    )
}

/// The definitions whose code the lines `start..=end` are part of, in document order: the
/// one covering them ([`covering`]) when it is a function, a method or a binding (a change
/// anywhere in it may change what the cited lines do), else the members of a container the
/// lines overlap, down to those that hold no members. A range in no member (a class's
/// attributes, an impl's header) is part of no definition beyond its own lines. Impact and
/// drift ask the same question of a change (what changed around the cited lines), so they
/// answer it with the same definitions.
pub fn standing_for(symbols: &FileSymbols, start: u64, end: u64) -> Vec<&Definition> {
    let Some(cover) = covering(symbols, start, end) else {
        return Vec::new();
    };
    let defs = &symbols.definitions;
    let mut stack: Vec<usize> = defs
        .iter()
        .position(|d| std::ptr::eq(d, cover))
        .into_iter()
        .collect();
    let mut members = Vec::new();
    while let Some(i) = stack.pop() {
        let d = &defs[i];
        let container = holds_members(d.kind);
        let inner: Vec<usize> = (i + 1..defs.len())
            .filter(|&j| defs[j].parent == Some(i))
            .filter(|&j| defs[j].start_line <= end && defs[j].end_line >= start)
            .collect();
        if container && (i + 1..defs.len()).any(|j| defs[j].parent == Some(i)) {
            // Last first, so that the members come out in document order.
            stack.extend(inner.into_iter().rev());
        } else {
            members.push(d);
        }
    }
    members
}

/// For a range that code hunks (`hunks`, `-U0`, blank and comment lines aside) touch inside it:
/// the innermost definitions those hunks change within `start..=end`, but `cover` (the one
/// [`covering`] the range). A range over a function and its unchanged neighbour stands for the
/// larger of the two, while the change is in the other: both drift and impact name it
/// (jsdrift walk, F7: `normalizeType` changed, the range is mostly `normalizeTypes`).
pub fn changed_within<'a>(
    symbols: &'a FileSymbols,
    start: u64,
    end: u64,
    hunks: &[super::Hunk],
    cover: Option<&Definition>,
) -> Vec<&'a Definition> {
    let defs = &symbols.definitions;
    let hit: Vec<usize> = (0..defs.len())
        .filter(|&i| {
            let d = &defs[i];
            let (a, b) = (d.start_line.max(start), d.end_line.min(end));
            a <= b && !super::impact::touching(hunks, a, b).is_empty()
        })
        .collect();
    // Innermost: a definition whose member is hit is named by that member.
    hit.iter()
        .filter(|&&i| !hit.iter().any(|&j| defs[j].parent == Some(i)))
        .map(|&i| &defs[i])
        .filter(|d| cover.is_none_or(|c| !std::ptr::eq(*d, c)))
        .collect()
}

/// `start..=end` without the blank lines at its edges (`blank` tells whether a 1-based line
/// of the file is blank): which definition a range stands for is said by its code, not by a blank line
/// after it (`core.rs:233-242`, a method and the blank line below it, stood for its 480-line
/// impl: indexmap walk, stop 47). A range of blank lines only is left as it is.
pub fn without_blank_edges(blank: impl Fn(u64) -> bool, start: u64, end: u64) -> (u64, u64) {
    let (mut s, mut e) = (start, end);
    while s < e && blank(s) {
        s += 1;
    }
    while e > s && blank(e) {
        e -= 1;
    }
    if blank(s) {
        (start, end)
    } else {
        (s, e)
    }
}

/// Whether 1-based line `n` of `lines` is blank (whitespace only); a line past the end is not.
pub fn is_blank_line(lines: &[&[u8]], n: u64) -> bool {
    usize::try_from(n)
        .ok()
        .and_then(|n| lines.get(n.checked_sub(1)?))
        .is_some_and(|l| l.iter().all(u8::is_ascii_whitespace))
}

/// Whether `start..=end` cites `def` whole: `Some(true)` with the lines written above it
/// (doc comments, attributes, decorators), `Some(false)` from its own first line, `None` when
/// the range is not the definition.
pub fn cited_whole(def: &Definition, start: u64, end: u64) -> Option<bool> {
    if def.end_line != end {
        return None;
    }
    if def.start_line == start {
        Some(true)
    } else {
        (def.item_line == start).then_some(false)
    }
}

/// Lines of code a range may hold beside a definition and still cite it whole
/// ([`cited_mostly_whole`]): a neighbour's closing line, a comment or an import above it.
pub const CONTEXT_LINES: u64 = 3;

/// Whether `start..=end` (its blank edges trimmed) cites `def` whole, as [`cited_whole`] says,
/// or holds it whole with a little context around it: at most [`CONTEXT_LINES`] lines of code
/// outside it, and at most a quarter of the range (`blank` tells whether a 1-based line is
/// blank; blank lines do not count), none
/// of them a definition of `symbols` held whole (a second definition cited whole is a subject
/// of its own, not context). Such a range is about the definition, and follows it by its
/// name as an exact one does (stop 55). The form is the definition's own: with the lines
/// written above it when the range starts at or above them.
pub fn cited_mostly_whole(
    symbols: &FileSymbols,
    def: &Definition,
    (start, end): (u64, u64),
    blank: impl Fn(u64) -> bool,
) -> Option<bool> {
    if let Some(form) = cited_whole(def, start, end) {
        return Some(form);
    }
    // The definition whole, from its own first line at least, to its last.
    if start > def.item_line || end < def.end_line {
        return None;
    }
    let outside = (start..def.start_line.min(def.item_line))
        .chain(def.end_line + 1..=end)
        .filter(|&n| !blank(n))
        .count() as u64;
    let another = symbols.definitions.iter().any(|d| {
        !std::ptr::eq(d, def)
            && start <= d.start_line.min(d.item_line)
            && d.end_line <= end
            && (d.end_line < def.start_line.min(def.item_line) || def.end_line < d.start_line)
    });
    let short = outside <= CONTEXT_LINES && 4 * outside <= end - start + 1;
    (short && !another).then_some(start <= def.start_line)
}

/// `def` at `path` in the form a whole citation of it took ([`cited_whole`]): from its first
/// written line, or from its own.
pub fn as_cited(def: &Definition, with_leading: bool, path: &str) -> SymbolAt {
    let mut at = SymbolAt::new(def, path);
    if !with_leading {
        at.start_line = def.item_line;
    }
    at
}

/// A qualified name without its generic arguments and lifetimes (`Database<'file>::dedup` ->
/// `Database::dedup`, `Stream<'db, 'file>` -> `Stream`): the same definition keeps its name
/// when a change adds or drops a type's parameters, so that is how names are matched across
/// commits. Unbalanced brackets are kept as written.
pub fn name_key(qualified: &str) -> std::borrow::Cow<'_, str> {
    if !qualified.contains('<') {
        return qualified.into();
    }
    let mut out = String::with_capacity(qualified.len());
    let mut depth = 0usize;
    for c in qualified.chars() {
        match c {
            '<' => depth += 1,
            '>' if depth > 0 => depth -= 1,
            _ if depth == 0 => out.push(c),
            _ => {}
        }
    }
    if depth == 0 {
        out.into()
    } else {
        qualified.into()
    }
}

/// The definitions of `symbols` with the qualified name and own name of `was` (compared by
/// [`name_key`]), an exact namesake before one that differs only in generic arguments, then
/// the one starting nearest to line `near` (document order on a tie). The own name tells a
/// type's impls apart: `impl Executor for ShellExecutor` and `impl ShellExecutor` share the
/// qualified name `ShellExecutor`.
///
/// When no definition has that name, one whose name differs only by the leading underscores
/// of its parts (a private class made public, `_HookCaller.__call__` now
/// `HookCaller.__call__`; pluggy 1.0 → 1.3, maintainer's walk, stop 43) is its namesake: the
/// rename left every method of the class without a suggestion, and their references fell
/// back to the diff's mapped lines, which were other methods.
pub fn same_name<'a>(symbols: &'a FileSymbols, was: &Definition, near: u64) -> Vec<&'a Definition> {
    let qualified = was.qualified.as_str();
    let key = name_key(qualified);
    let own = name_key(&was.name);
    // A module with a body is not where its declaration alone (`mod tests;`) is now: its
    // body went to a file of its own (indexmap walk, stop 47: "module `tests` now at
    // src/map.rs:13-13").
    let declaration_only = |d: &&Definition| {
        d.kind == SymbolKind::Module && d.item_line == d.end_line && was.end_line > was.item_line
    };
    // A binding of the name to something else is an alias kept for compatibility
    // (`_HookCaller = HookCaller`), not where a class or function went.
    let alias =
        |d: &&Definition| d.kind == SymbolKind::Variable && was.kind != SymbolKind::Variable;
    let mut found: Vec<&Definition> = symbols
        .definitions
        .iter()
        .filter(|d| !declaration_only(d) && !alias(d) && !impl_and_type(d.kind, was.kind))
        .filter(|d| d.qualified == qualified || name_key(&d.qualified) == key)
        .filter(|d| name_key(&d.name) == own)
        .collect();
    if found.is_empty() {
        let (loose, loose_own) = (unprivate(&key), unprivate(&own));
        found = (symbols.definitions.iter())
            .filter(|d| !declaration_only(d))
            .filter(|d| d.kind == was.kind && unprivate(&name_key(&d.qualified)) == loose)
            .filter(|d| unprivate(&name_key(&d.name)) == loose_own)
            .collect();
    }
    found.sort_by_key(|d| (d.qualified != qualified, d.start_line.abs_diff(near)));
    found
}

/// Whether one of two namesakes' kinds is a Rust `impl` block and the other is not: `impl
/// OptionsError` and `enum OptionsError` share their names, but an impl deleted is not now the
/// type it implemented (eza drift walk, stop 59: `--accept-changed` re-anchored a deleted
/// `impl` onto its `enum`, and the page kept describing hints eza no longer gives).
pub fn impl_and_type(a: SymbolKind, b: SymbolKind) -> bool {
    (a == SymbolKind::Impl) != (b == SymbolKind::Impl)
}

/// A qualified name with the leading underscores of each part dropped, dunder names
/// (`__call__`, which no rename to public touches) kept whole.
fn unprivate(qualified: &str) -> String {
    let mut out = String::with_capacity(qualified.len());
    let mut rest = qualified;
    while !rest.is_empty() {
        let end = rest.find(['.', ':']).unwrap_or(rest.len());
        let part = &rest[..end];
        let dunder = part.len() > 4 && part.starts_with("__") && part.ends_with("__");
        out.push_str(if dunder {
            part
        } else {
            part.trim_start_matches('_')
        });
        let seps = rest[end..]
            .find(|c| c != '.' && c != ':')
            .map_or(rest.len() - end, |n| n);
        out.push_str(&rest[end..end + seps]);
        rest = &rest[end + seps..];
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const PY: &str = "class Store:\n    def get(self):\n        return 1\n\n    def put(self):\n        return 2\n\n\ndef free():\n    return 3\n";

    #[test]
    fn the_innermost_enclosing_definition_covers_the_range() {
        let syms = crate::sources::symbols::extract("s.py", PY).expect("python parses");
        assert_eq!(
            covering(&syms, 2, 3).map(|d| d.qualified.as_str()),
            Some("Store.get")
        );
        assert_eq!(
            covering(&syms, 1, 6).map(|d| d.qualified.as_str()),
            Some("Store")
        );
        // Spanning the class's end and the free function: most overlap wins.
        assert_eq!(
            covering(&syms, 6, 10).map(|d| d.qualified.as_str()),
            Some("free")
        );
        assert!(covering(&syms, 7, 8).is_none());
        // A list of one-line declarations stands for none of them.
        let rs = "mod a;\nmod b;\nmod c;\nmod d;\n\npub use a::A;\npub use b::B;\n";
        let syms = crate::sources::symbols::extract("lib.rs", rs).expect("rust parses");
        assert_eq!(
            covering(&syms, 1, 1).map(|d| d.qualified.as_str()),
            Some("a")
        );
        assert!(covering(&syms, 1, 7).is_none());
        assert!(covering(&syms, 2, 4).is_none(), "three declarations alike");
        // Two impls of a file, each a third of it and more: neither stands for it.
        let rs =
            "struct V;\n\nimpl A for V {\n    fn a() {}\n}\n\nimpl B for V {\n    fn b() {}\n}\n";
        let syms = crate::sources::symbols::extract("serde.rs", rs).expect("rust parses");
        assert!(covering(&syms, 1, 9).is_none());
        assert!(covering(&syms, 2, 6).is_some(), "one impl and a blank line");
    }

    #[test]
    fn a_module_whose_body_left_is_not_at_its_declaration() {
        let old = "mod tests {\n    fn it_works() {}\n}\n";
        let new = "mod tests;\n";
        let old = crate::sources::symbols::extract("map.rs", old).expect("parses");
        let new = crate::sources::symbols::extract("map.rs", new).expect("parses");
        assert!(same_name(&new, &old.definitions[0], 1).is_empty());
        // A declaration still finds a declaration.
        let decl = crate::sources::symbols::extract("lib.rs", "mod tests;\n").expect("parses");
        assert_eq!(same_name(&new, &decl.definitions[0], 1).len(), 1);
    }

    #[test]
    fn a_class_made_public_keeps_its_methods_namesakes() {
        let old = "class _HookCaller:\n    def __call__(self):\n        return 1\n\n    def get_hookimpls(self):\n        return []\n";
        let new = "class HookCaller:\n    def __repr__(self):\n        return ''\n\n    def __call__(self):\n        return 1\n\n    def get_hookimpls(self):\n        return []\n\n\n_HookCaller = HookCaller\n";
        let old = crate::sources::symbols::extract("h.py", old).expect("parses");
        let new = crate::sources::symbols::extract("h.py", new).expect("parses");
        let name = |q: &str| old.definitions.iter().find(|d| d.qualified == q).expect(q);
        let found = same_name(&new, name("_HookCaller.__call__"), 2);
        assert_eq!(
            found
                .iter()
                .map(|d| (d.qualified.as_str(), d.start_line))
                .collect::<Vec<_>>(),
            [("HookCaller.__call__", 5)]
        );
        let found = same_name(&new, name("_HookCaller.get_hookimpls"), 5);
        assert_eq!(found[0].qualified, "HookCaller.get_hookimpls");
        let found = same_name(&new, name("_HookCaller"), 1);
        assert_eq!(found[0].qualified, "HookCaller");
        // A dunder is not a private name: `__call__` is not `call`.
        assert_eq!(unprivate("_A.__call__"), "A.__call__");
        assert_eq!(unprivate("crate::_x::_y"), "crate::x::y");
    }

    #[test]
    fn same_name_prefers_the_nearest() {
        let twice = "def f():\n    pass\n\n\ndef f():\n    pass\n\n\ndef g():\n    pass\n";
        let syms = crate::sources::symbols::extract("t.py", twice).expect("python parses");
        let f = &syms.definitions[0];
        let found = same_name(&syms, f, 6);
        assert_eq!(found.len(), 2);
        assert_eq!(found[0].start_line, 5);
        let g = syms.definitions[2].clone();
        let none = crate::sources::symbols::extract("t.py", "def f():\n    pass\n").unwrap();
        assert!(same_name(&none, &g, 1).is_empty());
    }

    #[test]
    fn a_types_impls_are_told_apart_by_their_trait() {
        let old = "impl Executor for Shell {\n    fn run(&self) {}\n}\n";
        let new = "impl Shell {\n    fn new() -> Self { Shell }\n}\n\nimpl Executor for Shell {\n    fn run(&self) {}\n}\n";
        let old = crate::sources::symbols::extract("x.rs", old).expect("rust parses");
        let new = crate::sources::symbols::extract("x.rs", new).expect("rust parses");
        let was = &old.definitions[0];
        assert_eq!(
            (was.qualified.as_str(), was.name.as_str()),
            ("Shell", "Executor for Shell")
        );
        let found = same_name(&new, was, 1);
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].start_line, 5);
    }

    #[test]
    fn a_deleted_impl_is_not_now_its_type() {
        let old = "enum E {\n    A,\n}\n\nimpl E {\n    fn hint(&self) {}\n}\n";
        let new = "enum E {\n    A,\n}\n";
        let old = crate::sources::symbols::extract("e.rs", old).expect("rust parses");
        let new = crate::sources::symbols::extract("e.rs", new).expect("rust parses");
        let was = (old.definitions.iter())
            .find(|d| d.kind == SymbolKind::Impl)
            .expect("the impl is a definition");
        assert_eq!(
            name_key(&was.qualified),
            name_key(&new.definitions[0].qualified)
        );
        assert!(same_name(&new, was, 5).is_empty());
        // The type itself still follows its name.
        let ty = &old.definitions[0];
        assert_eq!(same_name(&new, ty, 1).len(), 1);
    }

    #[test]
    fn names_match_whatever_their_generic_arguments() {
        assert_eq!(name_key("Database<'file>::dedup"), "Database::dedup");
        assert_eq!(name_key("Stream<'db, 'file>"), "Stream");
        assert_eq!(name_key("Map<K, Vec<V>>::get"), "Map::get");
        assert_eq!(name_key("Store.get"), "Store.get");
        assert_eq!(name_key("a<b"), "a<b");
        let old = "struct Database<'file> { x: &'file str }\n\nimpl<'file> Database<'file> {\n    fn dedup(&mut self) {}\n}\n";
        let new = "struct Database { x: String }\n\nimpl Database {\n    fn age(&self) {}\n\n    fn dedup(&mut self) {}\n}\n";
        let old = crate::sources::symbols::extract("db.rs", old).expect("rust parses");
        let new = crate::sources::symbols::extract("db.rs", new).expect("rust parses");
        let was = covering(&old, 4, 4).expect("the method covers its line");
        assert_eq!(was.qualified, "Database<'file>::dedup");
        let found = same_name(&new, was, 4);
        assert_eq!(found.len(), 1);
        assert_eq!(
            (found[0].qualified.as_str(), found[0].start_line),
            ("Database::dedup", 6)
        );
    }
}

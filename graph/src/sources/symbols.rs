//! Code definitions behind cited ranges, found with tree-sitter.
//!
//! A file is parsed once into a flat list of definitions (kind, name, qualified name, span,
//! parent); each cited range then picks its symbols from that list: the innermost definition
//! that encloses the whole range, and every definition the range overlaps below it (so a
//! range spanning two methods names both, and the enclosing class once). Languages are chosen
//! by file extension (a `.h` by its text too: [`Lang::for_file`]); other files have no
//! symbols.

use serde::{Deserialize, Serialize};
use std::cell::RefCell;
use std::collections::HashMap;
use tree_sitter::{Node, Parser};

/// A language with a definition extractor.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Lang {
    /// `.rs`
    Rust,
    /// `.py`, `.pyi`
    Python,
    /// `.ts`, `.mts`, `.cts`
    TypeScript,
    /// `.tsx`
    Tsx,
    /// `.js`, `.jsx`, `.mjs`, `.cjs`
    JavaScript,
    /// `.go`
    Go,
    /// `.java`
    Java,
    /// `.c`, and `.h` unless it reads as C++ ([`Lang::for_file`]).
    C,
    /// `.cc`, `.cpp`, `.cxx`, `.c++`, `.hpp`, `.hh`, `.hxx`, `.h++`, `.ipp`, `.tpp`, and a `.h`
    /// that reads as C++ ([`Lang::for_file`]).
    Cpp,
}

impl Lang {
    /// The language of `path`, by extension (a `.h` is C here; [`Lang::for_file`] reads its
    /// text to tell C++ headers apart).
    pub fn for_path(path: &str) -> Option<Lang> {
        let ext = path.rsplit_once('.')?.1;
        Some(match ext {
            "rs" => Lang::Rust,
            "py" | "pyi" => Lang::Python,
            "ts" | "mts" | "cts" => Lang::TypeScript,
            "tsx" => Lang::Tsx,
            "js" | "jsx" | "mjs" | "cjs" => Lang::JavaScript,
            "go" => Lang::Go,
            "java" => Lang::Java,
            "c" | "h" => Lang::C,
            "cc" | "cpp" | "cxx" | "c++" | "hpp" | "hh" | "hxx" | "h++" | "ipp" | "tpp" => {
                Lang::Cpp
            }
            _ => return None,
        })
    }

    /// The language of the file `path` holding `text`: [`Lang::for_path`], except that a `.h`
    /// header is C++ when its code says so ([`reads_as_cpp`]): C and C++ share the extension,
    /// and the C grammar reads a class or a namespace as broken code that defines nothing.
    pub fn for_file(path: &str, text: &str) -> Option<Lang> {
        let lang = Lang::for_path(path)?;
        let header = path.rsplit_once('.').is_some_and(|(_, e)| e == "h");
        Some(if header && reads_as_cpp(text) {
            Lang::Cpp
        } else {
            lang
        })
    }

    /// The family a user names the language by, for counts: C and C++ are one (a `.h` may be
    /// either, and only its text tells), as are JavaScript and TypeScript.
    pub fn family(self) -> &'static str {
        match self {
            Lang::Rust => "rust",
            Lang::Python => "python",
            Lang::TypeScript | Lang::Tsx | Lang::JavaScript => "javascript/typescript",
            Lang::Go => "go",
            Lang::Java => "java",
            Lang::C | Lang::Cpp => "c/c++",
        }
    }

    /// Every family [`Lang::family`] names, in a fixed order (for statistics).
    pub const FAMILIES: [&'static str; 6] = [
        "c/c++",
        "go",
        "java",
        "javascript/typescript",
        "python",
        "rust",
    ];

    /// Whether `self` and `other` are one family of languages, whose code moves between
    /// their files: C and C++ (a `.h` may be either, and a C++ project includes C headers).
    pub fn kin(self, other: Lang) -> bool {
        self == other || matches!((self, other), (Lang::C, Lang::Cpp) | (Lang::Cpp, Lang::C))
    }

    fn grammar(self) -> tree_sitter::Language {
        match self {
            Lang::Rust => tree_sitter_rust::LANGUAGE.into(),
            Lang::Python => tree_sitter_python::LANGUAGE.into(),
            Lang::TypeScript => tree_sitter_typescript::LANGUAGE_TYPESCRIPT.into(),
            Lang::Tsx => tree_sitter_typescript::LANGUAGE_TSX.into(),
            Lang::JavaScript => tree_sitter_javascript::LANGUAGE.into(),
            Lang::Go => tree_sitter_go::LANGUAGE.into(),
            Lang::Java => tree_sitter_java::LANGUAGE.into(),
            Lang::C => tree_sitter_c::LANGUAGE.into(),
            Lang::Cpp => tree_sitter_cpp::LANGUAGE.into(),
        }
    }

    fn separator(self) -> &'static str {
        match self {
            Lang::Rust | Lang::Cpp => "::",
            _ => ".",
        }
    }
}

/// Whether the header `text` is C++ rather than C, by what only C++ writes, outside comments
/// and outside preprocessor blocks conditioned on `__cplusplus` (a C header wraps its API in
/// `extern "C"` and may add C++ helpers there): a line opening with `namespace`, `template <`,
/// `class Name`, `using` or an access specifier (`public:`), a standard
/// header included without an extension (`#include <string>`), or a `Name::name` scope. C
/// uses `class` and `new` as identifiers (`int class;`, `struct x *new`), never that way.
pub fn reads_as_cpp(text: &str) -> bool {
    let mut in_block_comment = false;
    // Per open `#if…`: whether its condition mentions `__cplusplus`.
    let mut conditions: Vec<bool> = Vec::new();
    for raw in text.lines() {
        // Drop comments, keeping the code around them.
        let mut line = String::with_capacity(raw.len());
        let mut rest = raw;
        loop {
            if in_block_comment {
                match rest.find("*/") {
                    Some(at) => {
                        rest = &rest[at + 2..];
                        in_block_comment = false;
                    }
                    None => break,
                }
            } else {
                let block = rest.find("/*");
                let line_comment = rest.find("//");
                match (block, line_comment) {
                    (Some(b), l) if l.is_none_or(|l| b < l) => {
                        line.push_str(&rest[..b]);
                        line.push(' ');
                        rest = &rest[b + 2..];
                        in_block_comment = true;
                    }
                    (_, Some(l)) => {
                        line.push_str(&rest[..l]);
                        break;
                    }
                    _ => {
                        line.push_str(rest);
                        break;
                    }
                }
            }
        }
        let t = line.trim();
        if let Some(directive) = t.strip_prefix('#').map(str::trim_start) {
            let word = directive
                .split(|c: char| !c.is_ascii_alphanumeric())
                .next()
                .unwrap_or("");
            match word {
                "if" | "ifdef" | "ifndef" => conditions.push(asks_cpp(directive)),
                "elif" | "elifdef" | "elifndef" if asks_cpp(directive) => {
                    if let Some(last) = conditions.last_mut() {
                        *last = true;
                    }
                }
                "endif" => {
                    conditions.pop();
                }
                "include" => {
                    let target = directive["include".len()..].trim();
                    if let Some(name) = target.strip_prefix('<').and_then(|t| t.split('>').next()) {
                        if !conditions.contains(&true)
                            && !name.contains('.')
                            && !name.is_empty()
                            && name.bytes().all(|b| b.is_ascii_lowercase() || b == b'_')
                        {
                            return true;
                        }
                    }
                }
                _ => {}
            }
            continue;
        }
        if t.is_empty() || conditions.contains(&true) {
            continue;
        }
        let word_then = |w: &str| -> Option<&str> {
            let after = t.strip_prefix(w)?;
            (after.is_empty() || !after.starts_with(|c: char| c.is_alphanumeric() || c == '_'))
                .then(|| after.trim_start())
        };
        let ident_start = |s: &str| s.starts_with(|c: char| c.is_alphabetic() || c == '_');
        let cpp = word_then("namespace").is_some_and(|a| a.starts_with('{') || ident_start(a))
            || word_then("template").is_some_and(|a| a.starts_with('<'))
            || word_then("class").is_some_and(|a| {
                ident_start(a)
                    && a.trim_end().ends_with(['{', ':', ';'])
                    && !a.contains('=')
                    && !a.contains('(')
            })
            || word_then("using").is_some_and(ident_start)
            || ["public:", "private:", "protected:"]
                .iter()
                .any(|a| t.starts_with(a))
            || (!t.contains("[[") && has_scope(t));
        if cpp {
            return true;
        }
    }
    false
}

/// Whether the preprocessor condition `directive` asks whether the code is compiled as C++
/// (`#ifdef __cplusplus`, `#if !defined __cplusplus || …`), as a C header does around its C++
/// wrapping; not only which C++ (`#if __cplusplus >= 201103L`), which C++ headers ask.
fn asks_cpp(directive: &str) -> bool {
    directive.match_indices("__cplusplus").any(|(at, m)| {
        let after = directive[at + m.len()..].trim_start();
        !after.starts_with(['<', '>', '=', '!'])
    })
}

/// Whether `line` writes `name::name` outside a string literal.
fn has_scope(line: &str) -> bool {
    let b = line.as_bytes();
    let mut in_string = false;
    let ident = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    for i in 0..b.len() {
        match b[i] {
            b'"' if i == 0 || b[i - 1] != b'\\' => in_string = !in_string,
            b':' if !in_string
                && i > 0
                && b.get(i + 1) == Some(&b':')
                && ident(b[i - 1])
                && b.get(i + 2).is_some_and(|c| ident(*c) || *c == b'~') =>
            {
                return true;
            }
            _ => {}
        }
    }
    false
}

/// What a definition is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SymbolKind {
    /// A free function (or a function nested in one).
    Function,
    /// A function defined in a class, impl, trait or interface, a Go method, a C++ member
    /// function (declared in its class, or defined outside it as `void Foo::bar() {}`), or a
    /// JavaScript function assigned to an object's member (`Foo.prototype.bar = function`).
    Method,
    /// A struct (Rust, Go, C, C++) or union; a C `typedef struct {…} name;` by its typedef.
    Struct,
    /// A class (Python, JS/TS, Java, Java records, C++).
    Class,
    /// An enum.
    Enum,
    /// A Rust trait.
    Trait,
    /// An interface (Go, TS, Java).
    Interface,
    /// A Rust impl block.
    Impl,
    /// A module or namespace (a C++ `namespace`).
    Module,
    /// A constant (Rust const/static, Go const, upper-case module-level bindings, static final,
    /// C++ `constexpr`, an anonymous C enum's enumerators).
    Constant,
    /// A type alias or other named type (a C `typedef`, a C++ `using X = …`).
    Type,
    /// A Rust `macro_rules!` definition, or a C or C++ `#define` (an include guard is none).
    Macro,
    /// A module- or package-level variable that is not a constant by name: Go `var`, a Python
    /// module's binding (`suffixes = …`), a JavaScript or TypeScript module's top-level
    /// `const`/`let`/`var` other than a function, a class or a `require(…)`, a C or C++
    /// variable at file or namespace scope (`static`, `extern`, arrays and tables).
    Variable,
}

impl SymbolKind {
    /// Every kind, in a fixed order (for statistics).
    pub const ALL: [SymbolKind; 13] = [
        Self::Function,
        Self::Method,
        Self::Struct,
        Self::Class,
        Self::Enum,
        Self::Trait,
        Self::Interface,
        Self::Impl,
        Self::Module,
        Self::Constant,
        Self::Type,
        Self::Macro,
        Self::Variable,
    ];

    /// The kind's name (`method`).
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Function => "function",
            Self::Method => "method",
            Self::Struct => "struct",
            Self::Class => "class",
            Self::Enum => "enum",
            Self::Trait => "trait",
            Self::Interface => "interface",
            Self::Impl => "impl",
            Self::Module => "module",
            Self::Constant => "constant",
            Self::Type => "type",
            Self::Macro => "macro",
            Self::Variable => "variable",
        }
    }

    fn is_container(self) -> bool {
        matches!(
            self,
            Self::Class | Self::Trait | Self::Interface | Self::Impl | Self::Struct | Self::Enum
        )
    }
}

/// One definition in a file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Definition {
    /// What it is.
    pub kind: SymbolKind,
    /// Its own name (`search_slice`; for an impl, `Trait for Type` or `Type`).
    pub name: String,
    /// The name with its enclosing definitions (`Searcher::search_slice`, `pkg.Type.Method`).
    pub qualified: String,
    /// 1-based first line: of the doc comments, comments, attributes or decorators written
    /// directly above it (no blank line between), else of the definition itself.
    pub start_line: u64,
    /// 1-based first line of the definition itself (its keyword's line; `start_line` when
    /// nothing is written above it).
    pub item_line: u64,
    /// 1-based last line, inclusive.
    pub end_line: u64,
    /// The other names the code gives it, each a name to look it up by, not a second
    /// definition that would count its lines twice: a JavaScript function or class
    /// expression's own name when its binding is named otherwise (`var parseValues = function
    /// parseQueryStringValues`: V8's traces say `parseQueryStringValues`; qs walk), and the
    /// other targets of a chained assignment (`req.get = req.header = function header`
    /// defines `req.get`, also called `req.header` and `header`; `var proto =
    /// module.exports = function` defines `proto`, also `module.exports`; express walk, F3).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub aliases: Vec<String>,
    /// The name people read and write for it when its qualified name is shared by
    /// definitions that are not it: a Rust trait impl by its block's name (`impl Index<&Q> for
    /// IndexMap<K, V, S>`; every impl of a type is qualified by the type), and a member of one
    /// as Rust writes it (`<IndexMap<K, V, S> as Index<&Q>>::index`), which backtraces print
    /// and `cites` resolves (indexmap walk: two `Index` impls both read "impl `IndexMap<K, V,
    /// S>`"). `None` when the qualified name says which definition it is.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub written: Option<String>,
    /// The loop that makes it, when its name is computed: a JavaScript member assigned for
    /// each item of a list (`methods.forEach(function (method) { app[method] = function … })`
    /// is `app[method]`; express walk, F6). `None` for a definition the code names.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub generated: Option<Generated>,
    /// Index of the enclosing definition in [`FileSymbols::definitions`].
    #[serde(skip)]
    pub parent: Option<usize>,
}

/// The loop behind a definition whose name is computed ([`Definition::generated`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Generated {
    /// 1-based first line of the loop (the `forEach` call or the `for … of` statement).
    pub first_line: u64,
    /// 1-based last line of the loop, inclusive.
    pub last_line: u64,
    /// The list it goes over, as written on one line (`methods`, `methods.concat('all')`),
    /// shortened past 60 characters.
    pub over: String,
    /// The names it makes, each as the definition's qualified name with the item in place
    /// of the variable (`app.get`), when the list is an array of string literals written in
    /// the same file (in the loop, or bound once at the file's top level); empty when the
    /// list is computed, and then which names it makes is not known.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub names: Vec<String>,
}

/// The definitions of one parsed file, in document order (parents before children).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FileSymbols {
    /// All definitions.
    pub definitions: Vec<Definition>,
    /// The lines (first, last) of each stretch the grammar could not parse, outermost only,
    /// in order: definitions written there are not known (tree-sitter-typescript reads a call
    /// signature followed by a generic one as one broken expression and drops the rest of
    /// immer's `types-external.ts`; TypeScript walk, stop 48).
    pub unparsed: Vec<(u64, u64)>,
}

thread_local! {
    static PARSERS: RefCell<HashMap<Lang, Parser>> = RefCell::new(HashMap::new());
}

/// The largest source file whose symbols are read. Past it a file is generated or bundled
/// code as a rule, and parsing costs more than the build: a 500 MB file in a 1.8 MB clone
/// (it compresses) took 3 minutes and 6 GB before.
pub const MAX_SOURCE_BYTES: usize = 8 << 20;

/// Parses `text` as the language of `path` and lists its definitions; `None` when the
/// extension has no extractor, the file is over [`MAX_SOURCE_BYTES`], or the parser gives up.
pub fn extract(path: &str, text: &str) -> Option<FileSymbols> {
    if text.len() > MAX_SOURCE_BYTES {
        return None;
    }
    let lang = Lang::for_file(path, text)?;
    if matches!(lang, Lang::C | Lang::Cpp) {
        let (tree, first) = parse_preprocessed(lang, text)?;
        let chosen = collect(lang, tree.root_node(), text.as_bytes());
        return Some(match first {
            Some((first, blanked)) => with_alternatives(
                chosen,
                collect(lang, first.root_node(), text.as_bytes()),
                &blanked,
            ),
            None => chosen,
        });
    }
    let tree = parse(lang, text)?;
    Some(collect(lang, tree.root_node(), text.as_bytes()))
}

/// `chosen` (a parse of a C or C++ file with its conditionals' later branches blanked) with
/// the definitions `first` (the parse of the file as written) found in the blanked lines and
/// `chosen` lacks: the other branch's alternatives, as the `#else` of `#ifdef WIN32 int
/// umain(…) { #else int main(…) { #endif` (jq's `main.c`), which are definitions of the file
/// as much as a function defined under both branches is. Document order is kept.
fn with_alternatives(chosen: FileSymbols, first: FileSymbols, blanked: &[bool]) -> FileSymbols {
    let in_blanked = |line: u64| {
        (line as usize)
            .checked_sub(1)
            .and_then(|i| blanked.get(i))
            .copied()
            .unwrap_or(false)
    };
    // Top-level definitions and their descendants, which follow them (pre-order).
    let groups = |defs: &[Definition]| -> Vec<(usize, usize)> {
        let mut out: Vec<(usize, usize)> = Vec::new();
        for (i, d) in defs.iter().enumerate() {
            match (d.parent, out.last_mut()) {
                (Some(_), Some(g)) => g.1 = i + 1,
                _ => out.push((i, i + 1)),
            }
        }
        out
    };
    let known = |d: &Definition| {
        chosen
            .definitions
            .iter()
            .any(|c| c.kind == d.kind && c.qualified == d.qualified && c.item_line == d.item_line)
    };
    let extra: Vec<(usize, usize)> = groups(&first.definitions)
        .into_iter()
        .filter(|&(a, _)| {
            let d = &first.definitions[a];
            in_blanked(d.item_line) && !known(d)
        })
        .collect();
    if extra.is_empty() {
        return chosen;
    }
    // (list, first, end) of each group, by the line its root starts.
    let mut merged: Vec<(&[Definition], usize, usize)> = groups(&chosen.definitions)
        .into_iter()
        .map(|(a, b)| (chosen.definitions.as_slice(), a, b))
        .chain(
            extra
                .iter()
                .map(|&(a, b)| (first.definitions.as_slice(), a, b)),
        )
        .collect();
    merged.sort_by_key(|&(list, a, _)| list[a].item_line);
    let mut definitions = Vec::new();
    for (list, a, b) in merged {
        // A descendant's parent is in its group, at or after the root.
        let base = definitions.len();
        for d in &list[a..b] {
            let mut d = d.clone();
            d.parent = d.parent.map(|p| base + p.saturating_sub(a));
            definitions.push(d);
        }
    }
    FileSymbols {
        definitions,
        unparsed: chosen.unparsed,
    }
}

/// A data member of a struct or class: a Go or Rust struct's field, a Java field, a C or C++
/// struct's or class's data member, or a TypeScript or JavaScript class field that holds no
/// function. Not a definition of the graph
/// (a range over a struct would stand for each of them); read when a name is looked up
/// (`cites --symbol Viper.keyDelim`; Go walk, w52).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Field {
    /// The qualified name of the struct or class it is in, then its own (`viper.Viper.keyDelim`).
    pub qualified: String,
    /// 1-based line of its declaration.
    pub line: u64,
    /// `field`, or `variant` for an enum's (Rust's variants, Java's constants, TypeScript's
    /// members, C's and C++'s enumerators of a named enum: `Entry::Occupied`, asked for as a
    /// field is; Rust library walk, stop 53).
    pub kind: &'static str,
}

/// The fields of `symbols`' structs and classes and the variants of its enums in `text` (the
/// file [`extract`] read as `path`), in document order; empty when the language has none or
/// the file is not read.
pub fn fields(path: &str, text: &str, symbols: &FileSymbols) -> Vec<Field> {
    let Some(lang) = Lang::for_file(path, text).filter(|_| text.len() <= MAX_SOURCE_BYTES) else {
        return Vec::new();
    };
    let Some(tree) = parse(lang, text) else {
        return Vec::new();
    };
    let src = text.as_bytes();
    let sep = lang.separator();
    let mut out = Vec::new();
    let mut stack = vec![tree.root_node()];
    while let Some(node) = stack.pop() {
        let variants = matches!(
            (lang, node.kind()),
            (Lang::Rust, "enum_variant")
                | (Lang::Java, "enum_constant")
                | (Lang::TypeScript | Lang::Tsx, "enum_body")
                | (Lang::C | Lang::Cpp, "enumerator")
        );
        let names: Vec<Node<'_>> = match (lang, node.kind()) {
            (Lang::Rust, "enum_variant") | (Lang::Java, "enum_constant") => {
                node.child_by_field_name("name").into_iter().collect()
            }
            // A member written bare is the body's `name`; one given a value, its assignment's.
            (Lang::TypeScript | Lang::Tsx, "enum_body") => {
                let mut cursor = node.walk();
                let mut names: Vec<Node<'_>> =
                    node.children_by_field_name("name", &mut cursor).collect();
                let mut cursor = node.walk();
                names.extend(
                    (node.named_children(&mut cursor))
                        .filter(|c| c.kind() == "enum_assignment")
                        .filter_map(|c| c.child_by_field_name("name")),
                );
                names.sort_by_key(|n| n.start_byte());
                names
            }
            (Lang::Go, "field_declaration") | (Lang::Rust, "field_declaration") => {
                let mut cursor = node.walk();
                node.children_by_field_name("name", &mut cursor).collect()
            }
            // An enumerator of a named enum (an anonymous one's are constants of their own).
            (Lang::C | Lang::Cpp, "enumerator") if !is_anonymous_enumerator(node) => {
                node.child_by_field_name("name").into_iter().collect()
            }
            // A data member; a member function is a definition. The members of an unnamed
            // struct that is a named member's type (`union { int i; } u;`) are that member's,
            // not the outer struct's (`node.u.i`, not `node.i`), and are left out.
            (Lang::C | Lang::Cpp, "field_declaration") if !in_named_member(node) => {
                let mut cursor = node.walk();
                (node.children_by_field_name("declarator", &mut cursor))
                    .filter_map(c_declared)
                    .filter(|(n, function)| !function && n.kind() == "field_identifier")
                    .map(|(n, _)| n)
                    .collect()
            }
            (Lang::Java, "field_declaration") => {
                let mut cursor = node.walk();
                (node.children_by_field_name("declarator", &mut cursor))
                    .filter_map(|d| d.child_by_field_name("name"))
                    .collect()
            }
            (
                Lang::TypeScript | Lang::Tsx | Lang::JavaScript,
                "public_field_definition" | "field_definition",
            ) if !node
                .child_by_field_name("value")
                .is_some_and(is_function_value) =>
            {
                (node.child_by_field_name("name"))
                    .or_else(|| node.child_by_field_name("property"))
                    .into_iter()
                    .collect()
            }
            _ => Vec::new(),
        };
        for n in names {
            let line = n.start_position().row as u64 + 1;
            // The innermost struct or class (enum, for a variant) whose lines hold it.
            let owner = (symbols.definitions.iter())
                .filter(|d| {
                    let kind = if variants {
                        d.kind == SymbolKind::Enum
                    } else {
                        matches!(d.kind, SymbolKind::Struct | SymbolKind::Class)
                    };
                    kind && d.item_line <= line && line <= d.end_line
                })
                .min_by_key(|d| d.end_line - d.item_line);
            if let Some(owner) = owner {
                out.push(Field {
                    qualified: format!("{}{sep}{}", owner.qualified, text_of(n, src)),
                    line,
                    kind: if variants { "variant" } else { "field" },
                });
            }
        }
        for i in (0..node.named_child_count()).rev() {
            if let Some(c) = node.named_child(i) {
                stack.push(c);
            }
        }
    }
    // A C member's declaration is read before the unnamed struct it is typed with, whose
    // members come first in the file.
    if matches!(lang, Lang::C | Lang::Cpp) {
        out.sort_by_key(|f| f.line);
    }
    out
}

/// Whether the C or C++ member `field` is in an unnamed struct or union that is the type of a
/// named member (`struct { int x; } pos;`): not a member of the struct around it.
fn in_named_member(field: Node<'_>) -> bool {
    let Some(spec) = field.parent().and_then(|list| list.parent()) else {
        return false;
    };
    spec.child_by_field_name("name").is_none()
        && spec.parent().is_some_and(|holder| {
            holder.kind() == "field_declaration"
                && holder.child_by_field_name("declarator").is_some()
        })
}

/// The classes a class extends, as its file writes them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Heritage {
    /// The class's own name.
    pub class: String,
    /// 1-based line of its declaration.
    pub line: u64,
    /// The classes it extends, each by its last segment without type arguments
    /// (`ZodType` for `extends ZodType<Output, Def>`, `Base` for `mod.Base`).
    pub bases: Vec<String>,
}

/// The classes of `text` (the file `path`) that extend others, in document order:
/// TypeScript's and JavaScript's `extends`, Java's superclass, C++'s base classes, Python's bases (not keyword
/// arguments such as `metaclass=`). A method a class inherits is asked for by the class a
/// trace or a user names (`ZodObject.parse`, as V8 prints the receiver's class, for
/// `ZodType.parse`; TypeScript walk, stop 53).
pub fn heritage(path: &str, text: &str) -> Vec<Heritage> {
    let Some(lang) = Lang::for_file(path, text).filter(|_| text.len() <= MAX_SOURCE_BYTES) else {
        return Vec::new();
    };
    if matches!(lang, Lang::Rust | Lang::Go | Lang::C) {
        return Vec::new();
    }
    let Some(tree) = parse(lang, text) else {
        return Vec::new();
    };
    let src = text.as_bytes();
    // `a.b.Base<T>` -> `Base`.
    let last = |n: Node<'_>| -> Option<String> {
        let t = text_of(n, src);
        let t = t.split('<').next().unwrap_or(t).trim();
        let t = t.rsplit(['.', ':']).next().unwrap_or(t).trim();
        (!t.is_empty()
            && t.chars()
                .all(|c| c.is_alphanumeric() || c == '_' || c == '$'))
        .then(|| t.to_string())
    };
    let mut out = Vec::new();
    let mut stack = vec![tree.root_node()];
    while let Some(node) = stack.pop() {
        let bases: Vec<String> = match (lang, node.kind()) {
            (
                Lang::TypeScript | Lang::Tsx | Lang::JavaScript,
                "class_declaration" | "abstract_class_declaration" | "class",
            ) => {
                let mut cursor = node.walk();
                let heritage =
                    (node.named_children(&mut cursor)).find(|c| c.kind() == "class_heritage");
                match heritage {
                    Some(h) => {
                        let mut cursor = h.walk();
                        let children: Vec<Node<'_>> = h.named_children(&mut cursor).collect();
                        children
                            .into_iter()
                            .filter_map(|c| match c.kind() {
                                "extends_clause" => c.child_by_field_name("value"),
                                "implements_clause" => None,
                                _ => Some(c),
                            })
                            .filter_map(last)
                            .collect()
                    }
                    None => Vec::new(),
                }
            }
            (Lang::Java, "class_declaration") => (node.child_by_field_name("superclass"))
                .and_then(|s| s.named_child(0))
                .and_then(last)
                .into_iter()
                .collect(),
            // `class Derived : public Base, private ns::Mixin<T>`.
            (Lang::Cpp, "class_specifier" | "struct_specifier") => {
                let mut cursor = node.walk();
                let clause =
                    (node.named_children(&mut cursor)).find(|c| c.kind() == "base_class_clause");
                match clause {
                    Some(c) => {
                        let mut cursor = c.walk();
                        let bases: Vec<Node<'_>> = (c.named_children(&mut cursor))
                            .filter(|b| {
                                matches!(
                                    b.kind(),
                                    "type_identifier" | "qualified_identifier" | "template_type"
                                )
                            })
                            .collect();
                        bases.into_iter().filter_map(last).collect()
                    }
                    None => Vec::new(),
                }
            }
            (Lang::Python, "class_definition") => match node.child_by_field_name("superclasses") {
                Some(args) => {
                    let mut cursor = args.walk();
                    let bases: Vec<Node<'_>> = (args.named_children(&mut cursor))
                        .filter(|c| matches!(c.kind(), "identifier" | "attribute"))
                        .collect();
                    bases.into_iter().filter_map(last).collect()
                }
                None => Vec::new(),
            },
            _ => Vec::new(),
        };
        if !bases.is_empty() {
            if let Some(name) = node.child_by_field_name("name") {
                out.push(Heritage {
                    class: text_of(name, src).to_string(),
                    line: name.start_position().row as u64 + 1,
                    bases,
                });
            }
        }
        for i in (0..node.named_child_count()).rev() {
            if let Some(c) = node.named_child(i) {
                stack.push(c);
            }
        }
    }
    out
}

/// Parses `text` with the grammar of `lang` (a parser per thread and language is reused).
/// For C and C++, a file whose conditionals make it unparsable as written is read as a
/// preprocessor would read it, with one branch of each conditional (the first).
pub fn parse(lang: Lang, text: &str) -> Option<tree_sitter::Tree> {
    if matches!(lang, Lang::C | Lang::Cpp) {
        return parse_preprocessed(lang, text).map(|(tree, _)| tree);
    }
    parse_as_written(lang, text)
}

/// A C or C++ file parsed as written, or, when that leaves stretches unparsed, with the later
/// branches of its conditionals blanked (the first branch of each kept, as a preprocessor
/// keeps one) if that leaves fewer lines unparsed. Conditionals that give one body two
/// headers (`#ifdef WIN32 int umain(…) { #else int main(…) { #endif`, jq's `main.c`) are
/// broken code to a grammar that reads both branches. With the blanked parse come the parse
/// as written and which lines were blanked, whose definitions are the other branches'.
#[allow(clippy::type_complexity)]
fn parse_preprocessed(
    lang: Lang,
    text: &str,
) -> Option<(tree_sitter::Tree, Option<(tree_sitter::Tree, Vec<bool>)>)> {
    let first = parse_as_written(lang, text)?;
    if !first.root_node().has_error() {
        return Some((first, None));
    }
    let Some((one_branch, blanked)) = with_first_branches(text) else {
        return Some((first, None));
    };
    let Some(second) = parse_as_written(lang, &one_branch) else {
        return Some((first, None));
    };
    if unparsed_lines(&second) < unparsed_lines(&first) {
        Some((second, Some((first, blanked))))
    } else {
        Some((first, None))
    }
}

/// How many lines of `tree` are in error nodes (outermost only), plus one per missing node.
fn unparsed_lines(tree: &tree_sitter::Tree) -> u64 {
    let mut total = 0;
    let mut stack = vec![tree.root_node()];
    while let Some(node) = stack.pop() {
        if node.is_error() {
            let (a, b) = line_span(node);
            total += b + 1 - a;
            continue;
        }
        if node.is_missing() {
            total += 1;
        }
        if node.has_error() {
            let mut cursor = node.walk();
            stack.extend(node.children(&mut cursor));
        }
    }
    total
}

/// `text` with every conditional's directives and its `#else`/`#elif` branches blanked, byte
/// for byte (lines and positions stay), and per line whether it was in such a branch; `None`
/// when there is no such branch. The directives go too: the grammar reads a conditional as a
/// block of whole items, which the kept branch need not be.
fn with_first_branches(text: &str) -> Option<(String, Vec<bool>)> {
    let mut out = text.as_bytes().to_vec();
    let mut blanked = Vec::new();
    // Per open conditional: whether it is past its first branch.
    let mut stack: Vec<bool> = Vec::new();
    let mut any = false;
    let mut continued = false;
    let mut at = 0;
    for line in text.split_inclusive('\n') {
        let start = at;
        at += line.len();
        let body = line.trim_end_matches(['\n', '\r']);
        let directive = line.trim_start().strip_prefix('#').map(str::trim_start);
        let word = directive
            .map(|d| {
                d.split(|c: char| !c.is_ascii_alphabetic())
                    .next()
                    .unwrap_or("")
            })
            .unwrap_or("");
        let mut blank = continued || stack.iter().any(|&later| later);
        if !continued {
            match word {
                "if" | "ifdef" | "ifndef" => {
                    stack.push(false);
                    blank = true;
                }
                "else" | "elif" | "elifdef" | "elifndef" if !stack.is_empty() => {
                    if let Some(later) = stack.last_mut() {
                        *later = true;
                    }
                    any = true;
                    blank = true;
                }
                "endif" if !stack.is_empty() => {
                    stack.pop();
                    blank = true;
                }
                _ => {}
            }
        }
        // A blanked directive's continuation lines are part of it.
        continued = blank && (continued || directive.is_some()) && body.ends_with('\\');
        blanked.push(stack.iter().any(|&later| later));
        if blank {
            for b in &mut out[start..at] {
                if *b != b'\n' && *b != b'\r' {
                    *b = b' ';
                }
            }
        }
    }
    if !any {
        return None;
    }
    // Whole lines of ASCII-or-not bytes became spaces: a line boundary splits no character.
    String::from_utf8(out).ok().map(|s| (s, blanked))
}

fn parse_as_written(lang: Lang, text: &str) -> Option<tree_sitter::Tree> {
    PARSERS.with(|cell| {
        let mut parsers = cell.borrow_mut();
        let parser = match parsers.entry(lang) {
            std::collections::hash_map::Entry::Occupied(e) => e.into_mut(),
            std::collections::hash_map::Entry::Vacant(v) => {
                let mut p = Parser::new();
                p.set_language(&lang.grammar()).ok()?;
                v.insert(p)
            }
        };
        match lang {
            Lang::Cpp => parser.parse(without_export_macros(text).as_ref(), None),
            Lang::C => parser.parse(without_cpp_only_code(text).as_ref(), None),
            _ => parser.parse(text, None),
        }
    })
}

/// `text` with the code only a C++ compiler sees blanked out, byte for byte (positions stay
/// those of `text`): the blocks under `#ifdef __cplusplus` or `#if defined(__cplusplus)`, and
/// the `#else` of `#ifndef __cplusplus`, with those directives. A C compiler never reads them,
/// and the C grammar reads their `extern "C" {` (its `}` in a later block) or `extern "C"`
/// before a declaration past the `#endif` as broken code: jq's `builtin.c` lost every
/// definition after line 11 so.
fn without_cpp_only_code(text: &str) -> std::borrow::Cow<'_, str> {
    if !text.contains("__cplusplus") {
        return std::borrow::Cow::Borrowed(text);
    }
    // Whether a condition is only "compiled as C++" (true) or "not as C++" (false).
    let only_cpp =
        |directive: &str| -> Option<bool> {
            let d = directive.split("//").next().unwrap_or(directive);
            let d = d.split("/*").next().unwrap_or(d).trim();
            let word_end = d
                .find(|c: char| !c.is_ascii_alphabetic())
                .unwrap_or(d.len());
            let (word, rest) = d.split_at(word_end);
            let rest: String = rest.chars().filter(|c| !c.is_whitespace()).collect();
            match (word, rest.as_str()) {
                ("ifdef", "__cplusplus")
                | ("if", "defined(__cplusplus)" | "defined__cplusplus") => Some(true),
                ("ifndef", "__cplusplus")
                | ("if", "!defined(__cplusplus)" | "!defined__cplusplus") => Some(false),
                _ => None,
            }
        };
    let mut out = text.as_bytes().to_vec();
    // Per open conditional: whether its current branch is blanked, and whether it is one of
    // ours (a `__cplusplus` test) or another, inside or around.
    let mut stack: Vec<(bool, Option<bool>)> = Vec::new();
    let mut at = 0;
    let mut changed = false;
    for line in text.split_inclusive('\n') {
        let start = at;
        at += line.len();
        let t = line.trim_start();
        let directive = t.strip_prefix('#').map(str::trim_start);
        let blanked_outside = stack.iter().any(|(b, _)| *b);
        let mut blank_line = blanked_outside;
        if let Some(d) = directive {
            let word = d
                .split(|c: char| !c.is_ascii_alphabetic())
                .next()
                .unwrap_or("");
            match word {
                "if" | "ifdef" | "ifndef" => {
                    let ours = only_cpp(d);
                    stack.push((ours == Some(true), ours));
                    blank_line |= ours.is_some();
                }
                "else" | "elif" | "elifdef" | "elifndef" => {
                    if let Some((blanked, Some(cpp_first))) = stack.last_mut() {
                        // `#else` of `#ifdef __cplusplus` is C's; of `#ifndef`, C++'s. An
                        // `#elif` after C++'s branch is read as C's.
                        *blanked = word == "else" && !*cpp_first;
                        blank_line = true;
                    }
                }
                "endif" => {
                    if let Some((_, ours)) = stack.pop() {
                        blank_line |= ours.is_some();
                    }
                }
                _ => {}
            }
        }
        if blank_line || stack.iter().any(|(b, _)| *b) {
            for b in &mut out[start..at] {
                if *b != b'\n' && *b != b'\r' {
                    *b = b' ';
                }
            }
            changed = true;
        }
    }
    if !changed {
        return std::borrow::Cow::Borrowed(text);
    }
    // Only bytes of whole lines were replaced by spaces: still UTF-8 unless a line held a
    // character split by nothing else, which a line boundary cannot split.
    std::borrow::Cow::Owned(String::from_utf8(out).unwrap_or_else(|_| text.to_string()))
}

/// `text` with the export macro of each class written with one blanked out (`class
/// U_COMMON_API Appendable : public UObject {` reads as `class              Appendable …`),
/// byte for byte, so that positions stay those of `text`: tree-sitter-cpp reads the macro as
/// the class's name and the rest as a broken function, and ICU, V8, Qt and ncurses declare
/// every exported class so. A macro is an upper-case word between `class` or `struct` and
/// the name, the name followed by `{`, `:` (not `::`) or `final`.
fn without_export_macros(text: &str) -> std::borrow::Cow<'_, str> {
    let b = text.as_bytes();
    let ident = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    let word_at = |at: usize| -> usize {
        let mut end = at;
        while end < b.len() && ident(b[end]) {
            end += 1;
        }
        end
    };
    let spaces = |mut at: usize| -> usize {
        while at < b.len() && b[at].is_ascii_whitespace() {
            at += 1;
        }
        at
    };
    let mut blank: Vec<(usize, usize)> = Vec::new();
    for keyword in ["class", "struct"] {
        for (at, _) in text.match_indices(keyword) {
            let end = at + keyword.len();
            if (at > 0 && ident(b[at - 1])) || b.get(end).is_none_or(|c| !c.is_ascii_whitespace()) {
                continue;
            }
            let m = spaces(end);
            let m_end = word_at(m);
            let macro_like = m_end - m >= 2
                && b[m..m_end].iter().any(u8::is_ascii_uppercase)
                && b[m..m_end]
                    .iter()
                    .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || *c == b'_');
            if !macro_like || b.get(m_end).is_none_or(|c| !c.is_ascii_whitespace()) {
                continue;
            }
            let n = spaces(m_end);
            let n_end = word_at(n);
            if n_end == n || b.get(n).is_some_and(u8::is_ascii_digit) {
                continue;
            }
            let after = spaces(n_end);
            let opens = match b.get(after) {
                Some(b'{') => true,
                Some(b':') => b.get(after + 1) != Some(&b':'),
                _ => {
                    b[after..].starts_with(b"final") && b.get(after + 5).is_none_or(|c| !ident(*c))
                }
            };
            if opens && &b[n..n_end] != b"final" {
                blank.push((m, m_end));
            }
        }
    }
    if blank.is_empty() {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = b.to_vec();
    for (a, z) in blank {
        out[a..z].fill(b' ');
    }
    // Only ASCII letters were replaced by spaces: still UTF-8.
    std::borrow::Cow::Owned(String::from_utf8(out).unwrap_or_else(|_| text.to_string()))
}

impl FileSymbols {
    /// The first stretch the grammar could not parse that lines `start..=end` overlap.
    pub fn unparsed_in(&self, start: u64, end: u64) -> Option<(u64, u64)> {
        (self.unparsed.iter())
            .find(|&&(a, b)| a <= end && start <= b)
            .copied()
    }

    /// The definitions a cited range `start..=end` concerns: the innermost definition that
    /// encloses the whole range, then every definition below it (or at top level when none
    /// encloses) that the range overlaps, in document order. Enclosing ancestors of the
    /// innermost one are left out: they say nothing the innermost does not.
    pub fn for_range(&self, start: u64, end: u64) -> Vec<&Definition> {
        let defs = &self.definitions;
        let innermost = defs
            .iter()
            .enumerate()
            .filter(|(_, d)| d.start_line <= start && d.end_line >= end)
            .max_by_key(|(i, d)| {
                (
                    depth(defs, *i),
                    std::cmp::Reverse(d.end_line - d.start_line),
                )
            })
            .map(|(i, _)| i);
        defs.iter()
            .enumerate()
            .filter(|(i, d)| {
                if Some(*i) == innermost {
                    return true;
                }
                if !(d.start_line <= end && d.end_line >= start) {
                    return false;
                }
                match innermost {
                    // Only descendants of the innermost enclosing definition.
                    Some(inner) => is_descendant(defs, *i, inner),
                    None => true,
                }
            })
            .map(|(_, d)| d)
            .collect()
    }
}

fn depth(defs: &[Definition], mut i: usize) -> usize {
    let mut d = 0;
    while let Some(p) = defs[i].parent {
        d += 1;
        i = p;
    }
    d
}

fn is_descendant(defs: &[Definition], mut i: usize, ancestor: usize) -> bool {
    while let Some(p) = defs[i].parent {
        if p == ancestor {
            return true;
        }
        i = p;
    }
    false
}

fn text_of<'a>(node: Node<'_>, src: &'a [u8]) -> &'a str {
    std::str::from_utf8(&src[node.byte_range()]).unwrap_or("")
}

fn field_text<'a>(node: Node<'_>, field: &str, src: &'a [u8]) -> Option<&'a str> {
    node.child_by_field_name(field)
        .map(|n| text_of(n, src))
        .filter(|s| !s.is_empty())
}

/// A name on one line with collapsed whitespace (generic arguments can span lines).
fn one_line(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn is_constant_name(name: &str) -> bool {
    name.bytes().any(|b| b.is_ascii_uppercase())
        && name
            .bytes()
            .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || b == b'_')
}

/// A definition found at a node: kind, own name, and the name its children are qualified by.
struct Found {
    kind: SymbolKind,
    name: String,
    scope: String,
    aliases: Vec<String>,
    /// A Rust trait impl's trait as written (`Index<&Q>`), which names its members.
    of_trait: Option<String>,
    /// The loop that makes it ([`Definition::generated`]).
    generated: Option<Generated>,
    /// The function a wrapper call is given (`res.x = deprecate.function(function x () {…})`),
    /// by node id: part of this definition, not one of its own.
    part: Option<usize>,
}

fn found(kind: SymbolKind, name: &str) -> Option<Found> {
    let name = one_line(name);
    Some(Found {
        kind,
        scope: name.clone(),
        name,
        aliases: Vec::new(),
        of_trait: None,
        generated: None,
        part: None,
    })
}

/// The kinds of a JavaScript or TypeScript function written as an expression.
fn is_function_value(node: Node<'_>) -> bool {
    matches!(
        node.kind(),
        "arrow_function" | "function_expression" | "function" | "generator_function"
    )
}

/// `f` with the own name of the function or class expression `value` as an alias, when
/// that name is not `f`'s own ([`Definition::aliases`]).
fn with_alias(mut f: Found, value: Option<Node<'_>>, src: &[u8]) -> Found {
    let own = value
        .map(unwrapped)
        .filter(|v| is_function_value(*v) || v.kind() == "class")
        .and_then(|v| field_text(v, "name", src));
    if let Some(own) = own.filter(|n| *n != f.name && *n != f.scope) {
        if !f.aliases.iter().any(|a| a == own) {
            f.aliases.push(own.to_string());
        }
    }
    f
}

/// The targets of the chained assignment `node` (`a.x = b.y = value`: `a.x`, `b.y`) and the
/// value they are all given, through parentheses and type assertions.
fn assignment_chain(node: Node<'_>) -> (Vec<Node<'_>>, Node<'_>) {
    let mut lefts = Vec::new();
    let mut at = unwrapped(node);
    while at.kind() == "assignment_expression" {
        let (Some(left), Some(right)) = (
            at.child_by_field_name("left"),
            at.child_by_field_name("right"),
        ) else {
            break;
        };
        lefts.push(left);
        at = unwrapped(right);
    }
    (lefts, at)
}

/// `f` with the names of the chain's `targets` as aliases, as an importer or caller writes
/// them ([`assigned_member`]'s path: `req.header`, `module.exports`).
fn with_targets(mut f: Found, targets: &[Node<'_>], kind: SymbolKind, src: &[u8]) -> Found {
    for t in targets {
        if let Some(other) = assigned_member(*t, kind, src) {
            if other.scope != f.scope && !f.aliases.contains(&other.scope) {
                f.aliases.push(other.scope);
            }
        }
    }
    f
}

/// The definition kind of a value a binding is given: a function or a class.
fn value_kind(value: Node<'_>) -> Option<SymbolKind> {
    if is_function_value(value) {
        Some(SymbolKind::Function)
    } else if value.kind() == "class" {
        Some(SymbolKind::Class)
    } else {
        None
    }
}

/// Whether the assignment `node` is an inner link of a chain (`a.x = b.y = value`'s `b.y =
/// value`) or the value of a declarator (`var proto = module.exports = function`), which
/// the outer assignment or the declarator defines with this one's target as an alias.
fn is_inner_link(node: Node<'_>, src: &[u8]) -> bool {
    let outer = unwrapped_up(node);
    let Some(p) = outer.parent() else {
        return false;
    };
    match p.kind() {
        "assignment_expression" => {
            // Only when the outer assignment is a definition itself.
            p.child_by_field_name("right") == Some(outer)
                && p.child_by_field_name("left")
                    .is_some_and(|l| member_chain(l, src).is_some())
                && (!in_function(p) || assigns_to_local_member(p, src))
        }
        "variable_declarator" => {
            p.child_by_field_name("value") == Some(outer)
                && p.child_by_field_name("name")
                    .is_some_and(|n| n.kind() == "identifier")
        }
        _ => false,
    }
}

/// A property defined by a call rather than an assignment, as `(object path, property,
/// the function that defines it)`: `Object.defineProperty(obj, 'name', { get: function
/// () {…} })` (or `Reflect.defineProperty`; the descriptor's `get`, else `set`, else a
/// function `value`), and any helper given an object, a property name and a function
/// expression of that very name (`defineGetter(req, 'hostname', function hostname() {…})`:
/// the name written twice says the function is that property; express walk, F4).
fn defined_property<'a>(
    call: Node<'a>,
    src: &'a [u8],
) -> Option<(Vec<&'a str>, &'a str, Node<'a>)> {
    if call.kind() != "call_expression" {
        return None;
    }
    let callee = call.child_by_field_name("function")?;
    let args = call.child_by_field_name("arguments")?;
    let mut cursor = args.walk();
    let list: Vec<Node<'a>> = args.named_children(&mut cursor).map(unwrapped).collect();
    let [object, key, value] = list.as_slice() else {
        return None;
    };
    let object = member_chain(*object, src)?;
    let key = string_value(*key, src)?;
    let standard = matches!(
        member_chain(callee, src).as_deref(),
        Some(["Object" | "Reflect", "defineProperty"])
    );
    if standard {
        return Some((object, key, descriptor_function(*value, src)?));
    }
    let function = function_value(*value, src)?.0;
    if !is_function_value(function) {
        return None;
    }
    let named = field_text(function, "name", src) == Some(key);
    (named || (is_identifier(key) && defines_by_name(callee, src)))
        .then_some((object, key, function))
}

/// Whether `name` is written as a JavaScript identifier (`fresh`, `$el`), which a member
/// read as `obj.name` has; not a route (`/x`) or an event with a separator (`user:login`).
fn is_identifier(name: &str) -> bool {
    let mut chars = name.chars();
    chars
        .next()
        .is_some_and(|c| c.is_alphabetic() || c == '_' || c == '$')
        && chars.all(|c| c.is_alphanumeric() || c == '_' || c == '$')
}

/// Whether the function `callee` calls defines a property by its arguments: its name says so
/// (`defineGetter`, `defineLazyProperty`), or it is declared at the top level of the same
/// file and calls `Object.defineProperty` (or `Reflect.defineProperty`). A helper given an
/// object, a name and a function otherwise may do anything with them: register a listener
/// (`on(window, 'load', function () {…})`) or a test.
fn defines_by_name(callee: Node<'_>, src: &[u8]) -> bool {
    let name = match callee.kind() {
        "identifier" => text_of(callee, src),
        "member_expression" => callee
            .child_by_field_name("property")
            .map_or("", |p| text_of(p, src)),
        _ => return false,
    };
    if name
        .get(..6)
        .is_some_and(|p| p.eq_ignore_ascii_case("define"))
    {
        return true;
    }
    if callee.kind() != "identifier" {
        return false;
    }
    let mut root = callee;
    while let Some(p) = root.parent() {
        root = p;
    }
    let mut cursor = root.walk();
    let declared = (root.named_children(&mut cursor))
        .find(|d| d.kind() == "function_declaration" && field_text(*d, "name", src) == Some(name));
    let Some(body) = declared.and_then(|d| d.child_by_field_name("body")) else {
        return false;
    };
    let mut stack = vec![body];
    while let Some(n) = stack.pop() {
        if n.kind() == "call_expression"
            && n.child_by_field_name("function")
                .and_then(|f| member_chain(f, src))
                .is_some_and(|c| matches!(c.as_slice(), ["Object" | "Reflect", "defineProperty"]))
        {
            return true;
        }
        for i in 0..n.named_child_count() {
            if let Some(c) = n.named_child(i) {
                stack.push(c);
            }
        }
    }
    false
}

/// Methods of JavaScript's arrays, promises and strings that call the function they are
/// given and return something else: `obj.names = list.map((x) => x.name)` holds an array,
/// not the callback (npm's `node_modules`: sigstore's generated `toJSON`s wrote 50 such).
const CALLBACK_METHODS: [&str; 19] = [
    "map",
    "filter",
    "reduce",
    "reduceRight",
    "forEach",
    "some",
    "every",
    "find",
    "findIndex",
    "findLast",
    "findLastIndex",
    "flatMap",
    "sort",
    "toSorted",
    "then",
    "catch",
    "finally",
    "replace",
    "replaceAll",
];

/// The function or class `value` gives a binding: itself, or the one function or class a
/// wrapper call is given, through nested wrappers (`deprecate.function(function x () {…},
/// 'msg')`, `memoize(once(function () {…}))`), with that function's node id when it was
/// wrapped. `None` when a call is given no function, or several (which one the binding
/// holds is not written), and for [`CALLBACK_METHODS`].
fn function_value<'a>(value: Node<'a>, src: &[u8]) -> Option<(Node<'a>, Option<usize>)> {
    let value = unwrapped(value);
    if value_kind(value).is_some() {
        return Some((value, None));
    }
    let mut at = value;
    // Nested wrappers, a few deep: past that the value is not a wrapped function.
    for _ in 0..4 {
        if at.kind() != "call_expression" {
            return None;
        }
        let callee = at.child_by_field_name("function")?;
        if callee.kind() == "member_expression"
            && callee
                .child_by_field_name("property")
                .is_some_and(|p| CALLBACK_METHODS.contains(&text_of(p, src)))
        {
            return None;
        }
        let args = at
            .child_by_field_name("arguments")
            .filter(|a| a.kind() == "arguments")?;
        let mut cursor = args.walk();
        let list: Vec<Node<'_>> = args.named_children(&mut cursor).map(unwrapped).collect();
        let functions: Vec<Node<'_>> = (list.iter().copied())
            .filter(|a| value_kind(*a).is_some())
            .collect();
        let calls: Vec<Node<'_>> = (list.iter().copied())
            .filter(|a| a.kind() == "call_expression")
            .collect();
        match (functions.as_slice(), calls.as_slice()) {
            ([f], _) => return Some((*f, Some(f.id()))),
            ([], [inner]) => at = *inner,
            _ => return None,
        }
    }
    None
}

/// Whether the assignment `node` writes a computed member (`app[method] = …`).
fn assigns_computed_member(node: Node<'_>) -> bool {
    node.child_by_field_name("left")
        .is_some_and(|l| l.kind() == "subscript_expression")
}

/// The member the assignment `node` gives a function for each item of a list (`app[method] =
/// function …` in `methods.forEach(function (method) {…})` or `for (const method of
/// methods)`), in top-level code (`top`: no definition encloses it) or on an object its
/// function declares ([`assigns_to_local_member`]): `app[method]`, generated by that loop.
fn looped_member(node: Node<'_>, top: bool, src: &[u8]) -> Option<Found> {
    let (targets, right) = assignment_chain(node);
    let (value, part) = function_value(right, src)?;
    let kind = value_kind(value)?;
    let left = *targets.first()?;
    if left.kind() != "subscript_expression" {
        return None;
    }
    let segments = member_chain(left.child_by_field_name("object")?, src)?;
    let index = left.child_by_field_name("index")?;
    if index.kind() != "identifier" {
        return None;
    }
    let var = text_of(index, src);
    let (lp, list) = item_loop(left, var, src)?;
    if !(top || declared_in_function(lp, segments.first()?, src)) {
        return None;
    }
    let (_, path) = api_path(&segments);
    let owner = path.join(".");
    let named = |item: &str| {
        if owner.is_empty() {
            item.to_string()
        } else {
            format!("{owner}.{item}")
        }
    };
    let names: Vec<String> = (literal_items(list, src).into_iter().flatten())
        .map(named)
        .collect();
    let over = one_line(text_of(list, src));
    let over = match over.char_indices().nth(60) {
        Some((at, _)) => format!("{}…", &over[..at]),
        None => over,
    };
    let (first_line, last_line) = line_span(lp);
    let kind = if kind == SymbolKind::Function && !owner.is_empty() {
        SymbolKind::Method
    } else {
        kind
    };
    let f = Found {
        kind,
        name: format!("[{var}]"),
        scope: format!("{owner}[{var}]"),
        aliases: names.clone(),
        of_trait: None,
        generated: Some(Generated {
            first_line,
            last_line,
            over,
            names,
        }),
        part,
    };
    Some(with_alias(f, Some(value), src))
}

/// The loop whose variable `var` is, seen from `from` inside it, and the list it goes over:
/// `LIST.forEach(function (var) {…})` (or an arrow) and `for (… var of LIST)`. `None` when a
/// function in between takes `var` otherwise, or it is a `for … in` loop's key.
fn item_loop<'a>(from: Node<'a>, var: &str, src: &[u8]) -> Option<(Node<'a>, Node<'a>)> {
    let mut up = from.parent();
    while let Some(p) = up {
        if p.kind() == "for_in_statement"
            && p.child_by_field_name("left")
                .is_some_and(|l| l.kind() == "identifier" && text_of(l, src) == var)
        {
            let of = p
                .child_by_field_name("operator")
                .is_some_and(|o| text_of(o, src) == "of");
            return if of {
                Some((p, p.child_by_field_name("right")?))
            } else {
                None
            };
        }
        if is_function_node(p) {
            let first = match p.child_by_field_name("parameter") {
                Some(one) => one,
                None => p.child_by_field_name("parameters")?.named_child(0)?,
            };
            if first.kind() != "identifier" || text_of(first, src) != var {
                return None;
            }
            let callback = unwrapped_up(p);
            let args = callback.parent().filter(|a| a.kind() == "arguments")?;
            if args.named_child(0) != Some(callback) {
                return None;
            }
            let call = args.parent()?;
            let callee = call.child_by_field_name("function")?;
            let each = callee.kind() == "member_expression"
                && callee
                    .child_by_field_name("property")
                    .is_some_and(|m| text_of(m, src) == "forEach");
            return each.then_some((call, callee.child_by_field_name("object")?));
        }
        up = p.parent();
    }
    None
}

/// The items of `list` when it is an array of string literals, each an identifier, written in
/// the loop or bound to a name once at the file's top level (`var METHODS = ['get',
/// 'post']`); `None` for anything computed (`require('methods')`, `methods.concat('all')`).
fn literal_items<'a>(list: Node<'_>, src: &'a [u8]) -> Option<Vec<&'a str>> {
    let list = unwrapped(list);
    let array = match list.kind() {
        "array" => list,
        "identifier" => {
            let name = text_of(list, src);
            let mut root = list;
            while let Some(p) = root.parent() {
                root = p;
            }
            let mut cursor = root.walk();
            let mut bound = Vec::new();
            for statement in root.named_children(&mut cursor) {
                let d = declared(statement);
                if !matches!(d.kind(), "lexical_declaration" | "variable_declaration") {
                    continue;
                }
                let mut c2 = d.walk();
                for declarator in d.named_children(&mut c2) {
                    if field_text(declarator, "name", src) == Some(name) {
                        bound.push(declarator.child_by_field_name("value")?);
                    }
                }
            }
            match bound.as_slice() {
                [one] if unwrapped(*one).kind() == "array" => unwrapped(*one),
                _ => return None,
            }
        }
        _ => return None,
    };
    let mut cursor = array.walk();
    let items: Vec<&'a str> = (array.named_children(&mut cursor))
        .filter(|n| !n.kind().contains("comment"))
        .map(|n| string_value(n, src).filter(|s| is_identifier(s)))
        .collect::<Option<_>>()?;
    (!items.is_empty()).then_some(items)
}

/// The text of a plain string literal (no substitutions); `None` for anything else.
fn string_value<'a>(node: Node<'_>, src: &'a [u8]) -> Option<&'a str> {
    if node.kind() != "string" {
        return None;
    }
    let text = text_of(node, src);
    let inner = text.get(1..text.len().checked_sub(1)?)?;
    (!inner.is_empty() && !inner.contains(['\\', '\n'])).then_some(inner)
}

/// The accessor or value function of a property descriptor literal (`{ get: function () {…},
/// enumerable: true }`, `{ get() {…} }`): `get`, else `set`, else a function `value`.
fn descriptor_function<'a>(descriptor: Node<'a>, src: &'a [u8]) -> Option<Node<'a>> {
    if descriptor.kind() != "object" {
        return None;
    }
    let mut cursor = descriptor.walk();
    let members: Vec<Node<'a>> = descriptor.named_children(&mut cursor).collect();
    ["get", "set", "value"].into_iter().find_map(|want| {
        members.iter().find_map(|m| match m.kind() {
            "method_definition" if field_text(*m, "name", src) == Some(want) => Some(*m),
            "pair" if pair_key(*m, src) == Some(want) => {
                let v = unwrapped(m.child_by_field_name("value")?);
                is_function_value(v).then_some(v)
            }
            _ => None,
        })
    })
}

/// The property a member of `Object.defineProperties(obj, { name: { get() {…} } })`'s second
/// argument defines, as `(object path, property, its function)`.
fn defined_properties_member<'a>(
    pair: Node<'a>,
    src: &'a [u8],
) -> Option<(Vec<&'a str>, &'a str, Node<'a>)> {
    let props = unwrapped_up(pair.parent()?);
    let args = props.parent().filter(|a| a.kind() == "arguments")?;
    let call = args.parent()?;
    let callee = call.child_by_field_name("function")?;
    if !matches!(
        member_chain(callee, src).as_deref(),
        Some(["Object", "defineProperties"])
    ) {
        return None;
    }
    let mut cursor = args.walk();
    let list: Vec<Node<'a>> = args.named_children(&mut cursor).collect();
    let [object, second] = list.as_slice() else {
        return None;
    };
    if *second != props {
        return None;
    }
    let object = member_chain(unwrapped(*object), src)?;
    let key = pair_key(pair, src)?;
    let value = unwrapped(pair.child_by_field_name("value")?);
    Some((object, key, descriptor_function(value, src)?))
}

/// Whether `node`, a function or method, is the function of a property another node
/// defines ([`defined_property`], [`defined_properties_member`]): part of that
/// definition, not one of its own.
fn defines_property(node: Node<'_>, src: &[u8]) -> bool {
    // `get() {…}` or `get: function` in a descriptor, or the function argument itself.
    let mut up = unwrapped_up(node).parent();
    if up.is_some_and(|p| p.kind() == "pair") {
        up = up.and_then(|p| p.parent());
    }
    let Some(container) = up else {
        return false;
    };
    let is_fn = |f: Option<(Vec<&str>, &str, Node<'_>)>| f.is_some_and(|(_, _, f)| f == node);
    match container.kind() {
        "arguments" => container
            .parent()
            .is_some_and(|c| is_fn(defined_property(c, src))),
        "object" => {
            let outer = unwrapped_up(container);
            let Some(p) = outer.parent() else {
                return false;
            };
            match p.kind() {
                "arguments" => p.parent().is_some_and(|c| is_fn(defined_property(c, src))),
                "pair" => is_fn(defined_properties_member(p, src)),
                _ => false,
            }
        }
        _ => false,
    }
}

/// The definition of the property `key` of the object at `object` ([`defined_property`]):
/// named as an assignment to `object.key` would be ([`assigned_member`]), with its
/// function's own name as an alias.
fn property_found(object: &[&str], key: &str, function: Node<'_>, src: &[u8]) -> Option<Found> {
    let mut segments = object.to_vec();
    segments.push(key);
    let (_, path) = api_path(&segments);
    Some(with_alias(at_path(&path)?, Some(function), src))
}

/// A function assigned at `path` (`req.get`, `proto.handle`): a method of its owner, or a
/// function when the path is one name.
fn at_path(path: &[&str]) -> Option<Found> {
    let (name, owner) = path.split_last()?;
    Some(Found {
        kind: if owner.is_empty() {
            SymbolKind::Function
        } else {
            SymbolKind::Method
        },
        name: (*name).to_string(),
        scope: path.join("."),
        aliases: Vec::new(),
        of_trait: None,
        generated: None,
        part: None,
    })
}

fn classify(lang: Lang, node: Node<'_>, parent: Option<SymbolKind>, src: &[u8]) -> Option<Found> {
    let in_container = parent.is_some_and(SymbolKind::is_container);
    let fn_kind = if in_container {
        SymbolKind::Method
    } else {
        SymbolKind::Function
    };
    let name = |field: &str| field_text(node, field, src);
    match lang {
        Lang::Rust => match node.kind() {
            "function_item" | "function_signature_item" => found(fn_kind, name("name")?),
            "struct_item" | "union_item" => found(SymbolKind::Struct, name("name")?),
            "enum_item" => found(SymbolKind::Enum, name("name")?),
            "trait_item" => found(SymbolKind::Trait, name("name")?),
            "mod_item" => found(SymbolKind::Module, name("name")?),
            "const_item" | "static_item" => found(SymbolKind::Constant, name("name")?),
            "type_item" => found(SymbolKind::Type, name("name")?),
            "macro_definition" => found(SymbolKind::Macro, name("name")?),
            "impl_item" => {
                let ty = one_line(name("type")?);
                let of_trait = name("trait").map(one_line);
                let label = match &of_trait {
                    Some(t) => format!("{t} for {ty}"),
                    None => ty.clone(),
                };
                Some(Found {
                    kind: SymbolKind::Impl,
                    name: label,
                    scope: ty,
                    aliases: Vec::new(),
                    of_trait,
                    generated: None,
                    part: None,
                })
            }
            _ => None,
        },
        Lang::Python => match node.kind() {
            "function_definition" => found(fn_kind, name("name")?),
            "class_definition" => found(SymbolKind::Class, name("name")?),
            "assignment" if parent.is_none() => {
                // A module's bindings are its API as much as its functions (humanize's
                // `suffixes`; Python walk, stop 48); UPPER_CASE = … is a constant by
                // convention, `X: TypeAlias = …` a type.
                let stmt = node.parent()?;
                if stmt.kind() != "expression_statement"
                    || stmt.parent().map(|p| p.kind()) != Some("module")
                {
                    return None;
                }
                let left = node.child_by_field_name("left")?;
                let n = text_of(left, src);
                if left.kind() != "identifier" || n.bytes().all(|b| b == b'_') {
                    return None;
                }
                let alias = field_text(node, "type", src)
                    .is_some_and(|t| t == "TypeAlias" || t.ends_with(".TypeAlias"));
                let kind = if alias {
                    SymbolKind::Type
                } else if is_constant_name(n) {
                    SymbolKind::Constant
                } else {
                    SymbolKind::Variable
                };
                found(kind, n)
            }
            _ => None,
        },
        Lang::TypeScript | Lang::Tsx | Lang::JavaScript => match node.kind() {
            // An overload signature is part of the implementation below it (whose lines start
            // at the first signature, `leading_line`), not a definition of its own.
            "function_signature" | "method_signature" if overloads_next(node, src) => None,
            // `export default function (…) {…}` has no name of its own: an importer calls it
            // `default` (`import x from`, `require(…).default`), and so does the graph
            // (`repro-constructs.sh`'s `lib/b.mjs` had no symbol; qs walk). A named one is a
            // declaration, named by its name below.
            "function_expression"
            | "function"
            | "generator_function"
            | "arrow_function"
            | "class"
                if is_default_export_value(node) =>
            {
                let kind = if node.kind() == "class" {
                    SymbolKind::Class
                } else {
                    SymbolKind::Function
                };
                found(kind, "default").map(|f| with_alias(f, Some(node), src))
            }
            // A class expression bound to a name is that binding's definition (the declarator,
            // assignment or member names it, its own name is the alias), not one of its own.
            "class"
                if node.parent().is_some_and(|p| {
                    matches!(p.kind(), "variable_declarator" | "assignment_expression")
                }) =>
            {
                None
            }
            "function_declaration" | "generator_function_declaration" | "function_signature" => {
                found(fn_kind, name("name")?)
            }
            "class_declaration" | "abstract_class_declaration" | "class" => {
                found(SymbolKind::Class, name("name")?)
            }
            // The accessor of a property a call defines is that property's definition.
            "method_definition" if defines_property(node, src) => None,
            "method_definition" | "method_signature" | "abstract_method_signature" => {
                found(SymbolKind::Method, name("name")?)
            }
            // `Object.defineProperty(obj, 'name', { get … })` and a helper given the name
            // and a function of that name define `obj.name`, in top-level code as an
            // assignment to it would (express's getters; walk 52, F4).
            "call_expression" if !in_function(node) => {
                let (object, key, function) = defined_property(node, src)?;
                let mut f = property_found(&object, key, function, src)?;
                f.part = Some(function.id());
                Some(f)
            }
            // A function expression passed with a name of its own inside a function
            // (`this.on('mount', function onmount(parent) {…})`) is a named function as a
            // nested declaration is: runtimes print that name, and a range over it is about
            // it (walk 52, F5). Not in top-level code, where a named factory given to a UMD
            // wrapper would qualify the whole module by its name.
            "function_expression" | "function" | "generator_function"
                if unwrapped_up(node)
                    .parent()
                    .is_some_and(|p| p.kind() == "arguments")
                    && in_function(node)
                    && !defines_property(node, src) =>
            {
                found(fn_kind, name("name")?)
            }
            "interface_declaration" => found(SymbolKind::Interface, name("name")?),
            "enum_declaration" => found(SymbolKind::Enum, name("name")?),
            "type_alias_declaration" => found(SymbolKind::Type, name("name")?),
            "internal_module" | "module" => {
                let n = name("name")?;
                found(
                    SymbolKind::Module,
                    n.trim_matches(|c| c == '"' || c == '\''),
                )
            }
            // Before classes, JavaScript defined members by assignment, and much of npm
            // still does: `Foo.prototype.bar = function`, `app.listen = function`,
            // `exports.parse = (s) => …`. Inside a function such an assignment configures an
            // object it was given (a parameter, `this`, a global) rather than defining an
            // API, unless the object is the function's own local: ky's `createInstance`
            // builds the whole instance so (`ky.create = (…) => …`; walk 51, F7).
            // A chain (`req.get = req.header = function header`) is one definition, named
            // by its first target, with the others as aliases (walk 52, F3). A function
            // given to a wrapper (`res.sendfile = deprecate.function(function sendfile () {…},
            // '…')`) is the member's as one assigned bare is (express walk, F4).
            "assignment_expression"
                if (parent.is_none() || assigns_to_local_member(node, src))
                    && !is_inner_link(node, src)
                    && !assigns_computed_member(node) =>
            {
                let (targets, right) = assignment_chain(node);
                let (value, part) = function_value(right, src)?;
                let kind = value_kind(value)?;
                let (first, others) = targets.split_first()?;
                let f = assigned_member(*first, kind, src)?;
                let mut f = with_targets(f, others, kind, src);
                f.part = part;
                Some(with_alias(f, Some(value), src))
            }
            // A member assigned for each item of a list (`methods.forEach(function (method) {
            // app[method] = function … })`, `for (const m of list) ky[m] = …`) has no name
            // in the code, but it is where `app.get` is made (express walk, F6): it is
            // `app[method]`, with the names it makes when the list is written in the file.
            "assignment_expression" if !is_inner_link(node, src) => {
                looped_member(node, parent.is_none(), src)
            }
            // A member of an object assigned at top level (`module.exports = { formatters: {
            // RFC1738: function … } }`, `exports.x = {…}`, `Foo.prototype = {…}`) is named by
            // the path an importer or caller writes to it, as an assigned function is
            // ([`assigned_member`]); nested objects are part of that path (qs's
            // `formatters.RFC1738` had no symbol; `repro-constructs.sh`, qs walk).
            "pair" if parent.is_none() && defined_properties_member(node, src).is_some() => {
                let (object, key, function) = defined_properties_member(node, src)?;
                if in_function(node) {
                    return None;
                }
                property_found(&object, key, function, src)
            }
            "pair" if parent.is_none() => {
                let value = unwrapped(node.child_by_field_name("value")?);
                if !is_function_value(value) {
                    return None;
                }
                let path = assigned_object_path(node, src)?;
                Some(with_alias(at_path(&path)?, Some(value), src))
            }
            // An object literal's member holding a function, bound at its declaration
            // (`const coerce = { string: ((arg) => …) as Create }`), is a method as much as
            // one written `string(arg) { … }` (zod's `coerce.string`; TypeScript walk, stop 49).
            "pair" => {
                let object = node.parent()?;
                let bound = unwrapped_up(object)
                    .parent()
                    .is_some_and(|p| p.kind() == "variable_declarator");
                let value = unwrapped(node.child_by_field_name("value")?);
                if !bound || !is_function_value(value) {
                    return None;
                }
                let f = found(SymbolKind::Method, pair_key(node, src)?)?;
                Some(with_alias(f, Some(value), src))
            }
            // A class field holding a function is a method as much as one written as such
            // (immer's `produce = (base, recipe) => …`; TypeScript walk, stop 48).
            "public_field_definition" | "field_definition" => {
                let value = node.child_by_field_name("value")?;
                if !matches!(
                    value.kind(),
                    "arrow_function" | "function_expression" | "function" | "generator_function"
                ) {
                    return None;
                }
                found(
                    SymbolKind::Method,
                    name("name").or_else(|| name("property"))?,
                )
            }
            "variable_declarator" => {
                let n = name("name")?;
                let value = node.child_by_field_name("value");
                // `var proto = module.exports = function (options) {…}`: the function the
                // file exports, which its own code calls `proto` (walk 52, F6).
                if let Some((targets, end)) = value
                    .map(assignment_chain)
                    .filter(|(targets, _)| !targets.is_empty())
                {
                    let kind = value_kind(end)?;
                    let kind = if kind == SymbolKind::Function {
                        fn_kind
                    } else {
                        kind
                    };
                    let f = found(kind, n)?;
                    let f = with_targets(f, &targets, kind, src);
                    return Some(with_alias(f, Some(end), src));
                }
                if value.is_some_and(is_function_value) {
                    return found(fn_kind, n).map(|f| with_alias(f, value, src));
                }
                if value.is_some_and(|v| v.kind() == "class") {
                    return found(SymbolKind::Class, n).map(|f| with_alias(f, value, src));
                }
                let decl = node.parent()?;
                let is_const = decl.kind() == "lexical_declaration"
                    && decl.child(0).is_some_and(|c| c.kind() == "const");
                if parent.is_some() || !js_module_level(decl) {
                    return None;
                }
                if node.child_by_field_name("name")?.kind() != "identifier"
                    || value.is_some_and(|v| is_require(v, src))
                {
                    return None;
                }
                if is_const && is_constant_name(n) {
                    return found(SymbolKind::Constant, n);
                }
                // `export const produce: IProduce = immer.produce`: immer's whole public API
                // is bound this way (TypeScript walk, stop 48).
                found(SymbolKind::Variable, n)
            }
            _ => None,
        },
        Lang::Go => match node.kind() {
            "function_declaration" => found(SymbolKind::Function, name("name")?),
            "method_declaration" => {
                let recv = node.child_by_field_name("receiver")?;
                let ty = receiver_type(recv, src)?;
                let n = name("name")?;
                Some(Found {
                    kind: SymbolKind::Method,
                    name: n.to_string(),
                    scope: format!("{ty}.{n}"),
                    aliases: Vec::new(),
                    of_trait: None,
                    generated: None,
                    part: None,
                })
            }
            "type_spec" | "type_alias" => {
                let n = name("name")?;
                let kind = match node.child_by_field_name("type").map(|t| t.kind()) {
                    Some("struct_type") => SymbolKind::Struct,
                    Some("interface_type") => SymbolKind::Interface,
                    _ => SymbolKind::Type,
                };
                found(kind, n)
            }
            "const_spec" => found(SymbolKind::Constant, name("name")?),
            // Package-level `var`s are API too (cobra's `EnablePrefixMatching`; Go walk, stop
            // 48); inside a function a `var` is a local.
            "var_spec" if parent.is_none() => {
                let n = name("name")?;
                (n != "_").then(|| found(SymbolKind::Variable, n))?
            }
            "method_elem" | "method_spec" => found(SymbolKind::Method, name("name")?),
            _ => None,
        },
        Lang::Java => match node.kind() {
            "class_declaration" | "record_declaration" => found(SymbolKind::Class, name("name")?),
            "interface_declaration" | "annotation_type_declaration" => {
                found(SymbolKind::Interface, name("name")?)
            }
            "enum_declaration" => found(SymbolKind::Enum, name("name")?),
            "method_declaration"
            | "constructor_declaration"
            | "compact_constructor_declaration" => found(SymbolKind::Method, name("name")?),
            "field_declaration" | "constant_declaration" => {
                let mods = (0..node.child_count())
                    .filter_map(|i| node.child(i))
                    .find(|c| c.kind() == "modifiers")
                    .map(|m| text_of(m, src))
                    .unwrap_or("");
                let constant = node.kind() == "constant_declaration"
                    || (mods.split_whitespace().any(|w| w == "static")
                        && mods.split_whitespace().any(|w| w == "final"));
                if !constant {
                    return None;
                }
                let decl = node.child_by_field_name("declarator")?;
                found(SymbolKind::Constant, field_text(decl, "name", src)?)
            }
            _ => None,
        },
        Lang::C | Lang::Cpp => classify_c(node, in_container, src),
    }
}

/// Where a C or C++ declaration stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum CScope {
    /// At file or namespace scope (through `#if` blocks, `extern "C"` and templates).
    File,
    /// In a struct's, union's or class's body.
    Member,
    /// In a function, a parameter list or anything else.
    Local,
}

/// Where the C or C++ declaration `decl` stands: its enclosing nodes up to the file, a body
/// or anything else, past those that only group declarations (preprocessor conditionals
/// nest whole declarations, `#ifdef HAVE_X` around a function).
fn c_scope(decl: Node<'_>) -> CScope {
    let mut up = decl.parent();
    while let Some(p) = up {
        match p.kind() {
            "translation_unit" => return CScope::File,
            "field_declaration_list" => return CScope::Member,
            "preproc_if"
            | "preproc_ifdef"
            | "preproc_else"
            | "preproc_elif"
            | "preproc_elifdef"
            | "linkage_specification"
            | "declaration_list"
            | "namespace_definition"
            | "template_declaration"
            | "ERROR" => up = p.parent(),
            _ => return CScope::Local,
        }
    }
    CScope::Local
}

/// The name a C or C++ declarator declares (an identifier, a qualified name, an operator),
/// through pointers, arrays, references, parentheses and initializers, and whether it declares
/// a function: whether the declarator nearest the name is a function's (`char *f(void)` is a
/// function returning a pointer; `int (*f)(void)` a pointer to one).
fn c_declared(decl: Node<'_>) -> Option<(Node<'_>, bool)> {
    let mut at = decl;
    let mut function = false;
    // Declarators nest a few deep; the bound keeps a broken tree from looping.
    for _ in 0..32 {
        let inner = match at.kind() {
            "function_declarator" => {
                function = true;
                at.child_by_field_name("declarator")
            }
            "pointer_declarator" | "array_declarator" => {
                function = false;
                at.child_by_field_name("declarator")
            }
            "reference_declarator" => {
                function = false;
                at.named_child(0)
            }
            // `operator bool() const`: a conversion function, its declarator its own.
            "operator_cast" => return Some((at, true)),
            "init_declarator" => at.child_by_field_name("declarator"),
            "parenthesized_declarator" | "attributed_declarator" => {
                let mut cursor = at.walk();
                let inner = at
                    .named_children(&mut cursor)
                    .find(|c| !c.kind().starts_with("attribute") && !c.kind().starts_with("ms_"));
                inner
            }
            _ => return Some((at, function)),
        };
        at = inner?;
    }
    None
}

/// The text of a C++ scope segment without template arguments (`Foo` of `Foo<T>`).
fn scope_segment(node: Node<'_>, src: &[u8]) -> String {
    match node.kind() {
        "template_type" => field_text(node, "name", src)
            .map(one_line)
            .unwrap_or_else(|| one_line(text_of(node, src))),
        _ => one_line(text_of(node, src)),
    }
}

/// A C or C++ function (or, with `function` false, variable) named by the declarator name
/// `name`: a C++ qualified name (`Foo::bar`, `ns::Foo::~Foo`, `Foo<T>::get`) is a member of
/// the scope it writes, qualified by it (an out-of-class definition is its class's method).
fn c_named(name: Node<'_>, function: bool, in_container: bool, src: &[u8]) -> Option<Found> {
    let mut scopes: Vec<String> = Vec::new();
    let mut at = name;
    while at.kind() == "qualified_identifier" {
        if let Some(scope) = at.child_by_field_name("scope") {
            scopes.push(scope_segment(scope, src));
        }
        at = at.child_by_field_name("name")?;
    }
    let own = match at.kind() {
        "identifier" | "field_identifier" | "destructor_name" | "operator_name" => {
            one_line(text_of(at, src))
        }
        // `operator bool() const` is `operator bool`.
        "operator_cast" => format!("operator {}", one_line(field_text(at, "type", src)?)),
        // An explicit specialization (`f<int>`) is the template's.
        "template_function" | "template_method" => one_line(field_text(at, "name", src)?),
        _ => return None,
    };
    if own.is_empty() {
        return None;
    }
    let member = in_container || !scopes.is_empty();
    let kind = match (function, member) {
        (true, true) => SymbolKind::Method,
        (true, false) => SymbolKind::Function,
        (false, _) if is_constant_name(&own) => SymbolKind::Constant,
        (false, _) => SymbolKind::Variable,
    };
    let mut f = found(kind, &own)?;
    scopes.retain(|s| !s.is_empty());
    if !scopes.is_empty() {
        f.scope = format!("{}::{own}", scopes.join("::"));
    }
    Some(f)
}

/// Whether `before` (the text just above a `#define NAME` without a value; a guard's test
/// stands right above it) tests `NAME` in an `#ifndef NAME` or `#if !defined(NAME)`: the
/// define is an include guard. Read from the text, as a header's C++ wrapping can leave the
/// grammar's tree around it broken.
fn guarded_by(before: &[u8], name: &str) -> bool {
    let text = String::from_utf8_lossy(before);
    text.lines().any(|l| {
        let Some(d) = l.trim_start().strip_prefix('#') else {
            return false;
        };
        let d = d.trim_start();
        let tested = match d.strip_prefix("ifndef") {
            Some(rest) => rest.trim(),
            None => match d.strip_prefix("if") {
                Some(rest) => rest
                    .trim()
                    .strip_prefix('!')
                    .and_then(|r| r.trim_start().strip_prefix("defined"))
                    .map(|r| {
                        r.trim()
                            .trim_start_matches('(')
                            .trim_end_matches(')')
                            .trim()
                    })
                    .unwrap_or(""),
                None => "",
            },
        };
        tested == name
    })
}

/// Whether the enumerator `node` is a constant of its own: its enum has no name (nor a
/// typedef's), as C writes constants (`enum { MAX_DEPTH = 64 };`).
fn is_anonymous_enumerator(node: Node<'_>) -> bool {
    let Some(spec) = node.parent().and_then(|l| l.parent()) else {
        return false;
    };
    spec.kind() == "enum_specifier"
        && spec.child_by_field_name("name").is_none()
        && spec.parent().is_none_or(|p| p.kind() != "type_definition")
}

/// The definition kind of a C or C++ type specifier with a body.
fn c_type_kind(spec: Node<'_>) -> Option<SymbolKind> {
    spec.child_by_field_name("body")?;
    match spec.kind() {
        "struct_specifier" | "union_specifier" => Some(SymbolKind::Struct),
        "class_specifier" => Some(SymbolKind::Class),
        "enum_specifier" => Some(SymbolKind::Enum),
        _ => None,
    }
}

/// A C or C++ definition at `node` ([`classify`]). Names in C are flat (the caller does
/// not qualify them); C++ qualifies by namespace and class.
fn classify_c(node: Node<'_>, in_container: bool, src: &[u8]) -> Option<Found> {
    let name = |field: &str| field_text(node, field, src);
    match node.kind() {
        "function_definition" => {
            let (n, _) = c_declared(node.child_by_field_name("declarator")?)?;
            c_named(n, true, in_container, src)
        }
        "preproc_def" | "preproc_function_def" => {
            let n = name("name")?;
            // An include guard (`#ifndef FOO_H` / `#define FOO_H`) names no API.
            let guard = node.child_by_field_name("value").is_none()
                && guarded_by(
                    &src[node.start_byte().saturating_sub(512)..node.start_byte()],
                    n,
                );
            (!guard).then(|| found(SymbolKind::Macro, n))?
        }
        "struct_specifier" | "union_specifier" | "class_specifier" | "enum_specifier" => {
            found(c_type_kind(node)?, name("name")?)
        }
        "type_definition" => {
            let mut cursor = node.walk();
            let names: Vec<Node<'_>> = (node.children_by_field_name("declarator", &mut cursor))
                .filter_map(|d| c_declared(d).map(|(n, _)| n))
                .filter(|n| n.kind() == "type_identifier")
                .collect();
            let n = text_of(*names.first()?, src);
            let ty = node.child_by_field_name("type");
            // `typedef struct {…} name;` is the struct, named by the typedef; its tag, when it
            // has one (`typedef struct node {…} node_t;`), is another name for it.
            match ty.and_then(|t| Some((t, c_type_kind(t)?))) {
                Some((t, kind)) => {
                    let mut f = found(kind, n)?;
                    f.part = Some(t.id());
                    if let Some(tag) = field_text(t, "name", src).filter(|tag| *tag != n) {
                        f.aliases.push(one_line(tag));
                    }
                    Some(f)
                }
                None => found(SymbolKind::Type, n),
            }
        }
        "alias_declaration" => found(SymbolKind::Type, name("name")?),
        "namespace_definition" => found(SymbolKind::Module, name("name")?),
        "enumerator" if is_anonymous_enumerator(node) => {
            let n = name("name")?;
            found(SymbolKind::Constant, n)
        }
        _ => {
            // A declarator of a declaration: a prototype, a variable, a member function.
            let decl = node.parent()?;
            if !matches!(decl.kind(), "declaration" | "field_declaration") {
                return None;
            }
            let mut cursor = decl.walk();
            if !(decl.children_by_field_name("declarator", &mut cursor)).any(|d| d == node) {
                return None;
            }
            let (n, function) = c_declared(node)?;
            match (decl.kind(), c_scope(decl), function) {
                ("declaration", CScope::File, _) => {
                    let mut f = c_named(n, function, in_container, src)?;
                    let mut cursor = decl.walk();
                    let constexpr = (decl.children(&mut cursor))
                        .any(|c| !c.is_named() && text_of(c, src) == "constexpr")
                        || (0..decl.named_child_count())
                            .filter_map(|i| decl.named_child(i))
                            .any(|c| {
                                c.kind() == "type_qualifier" && text_of(c, src) == "constexpr"
                            });
                    if !function && constexpr {
                        f.kind = SymbolKind::Constant;
                    }
                    Some(f)
                }
                // Member functions declared in a class body (`void run();`, `Foo(int);`).
                ("declaration" | "field_declaration", CScope::Member, true) => {
                    c_named(n, true, true, src)
                }
                _ => None,
            }
        }
    }
}

/// A JavaScript or TypeScript declaration written at the module's top level (or exported
/// there), not in a block, function or wrapper (a UMD bundle's IIFE binds its locals so).
fn js_module_level(decl: Node<'_>) -> bool {
    let mut up = decl.parent();
    if up.is_some_and(|p| p.kind() == "export_statement") {
        up = up.and_then(|p| p.parent());
    }
    up.is_some_and(|p| p.kind() == "program")
}

/// Whether `node` is the value of `export default …` (the grammar's `value` field, which only
/// a default export has), not a declaration with a name of its own.
fn is_default_export_value(node: Node<'_>) -> bool {
    let outer = unwrapped_up(node);
    outer.parent().is_some_and(|p| {
        p.kind() == "export_statement" && p.child_by_field_name("value") == Some(outer)
    })
}

/// `require('x')` or `require('x').y` / `require('debug')('app')`: an import, not a definition.
fn is_require(value: Node<'_>, src: &[u8]) -> bool {
    let mut node = value;
    loop {
        match node.kind() {
            "call_expression" => {
                let Some(f) = node.child_by_field_name("function") else {
                    return false;
                };
                if f.kind() == "identifier" && text_of(f, src) == "require" {
                    return true;
                }
                node = f;
            }
            "member_expression" => match node.child_by_field_name("object") {
                Some(o) => node = o,
                None => return false,
            },
            "await_expression" | "parenthesized_expression" => match node.named_child(0) {
                Some(c) => node = c,
                None => return false,
            },
            _ => return false,
        }
    }
}

/// The names of `left`, a chain of plain names (`module.exports.parse` -> `module`,
/// `exports`, `parse`); `None` for anything else (`this.x`, `a[k]`, `f().x`).
fn member_chain<'a>(left: Node<'_>, src: &'a [u8]) -> Option<Vec<&'a str>> {
    let mut segments = Vec::new();
    let mut node = left;
    while node.kind() == "member_expression" {
        let property = node.child_by_field_name("property")?;
        if property.kind() != "property_identifier" {
            return None;
        }
        segments.push(text_of(property, src));
        node = node.child_by_field_name("object")?;
    }
    if node.kind() != "identifier" {
        return None;
    }
    segments.push(text_of(node, src));
    segments.reverse();
    Some(segments)
}

/// Whether the assignment `node` writes a plain-named member of an object declared by a
/// `const`, `let` or `var` of its own function (in its body or a block of it), other than one
/// bound to `this` (`var self = this`, which is `this.x` written otherwise). A computed
/// member (`ky[method] = …`) has no name to give and is not one.
fn assigns_to_local_member(node: Node<'_>, src: &[u8]) -> bool {
    let Some(segments) = node
        .child_by_field_name("left")
        .filter(|l| l.kind() == "member_expression")
        .and_then(|l| member_chain(l, src))
    else {
        return false;
    };
    segments
        .first()
        .is_some_and(|root| declared_in_function(node, root, src))
}

/// Whether `root` is declared by a `const`, `let` or `var` of the function `node` is in (in
/// its body or a block of it, seen from `node`), other than as `this`.
fn declared_in_function(node: Node<'_>, root: &str, src: &[u8]) -> bool {
    let mut up = node.parent();
    while let Some(p) = up {
        if is_function_node(p) {
            return false;
        }
        if p.kind() == "statement_block" {
            let mut cursor = p.walk();
            if (p.named_children(&mut cursor))
                .any(|statement| declares_object(statement, root, src))
            {
                return true;
            }
        }
        up = p.parent();
    }
    false
}

/// Whether `statement` is a `const`, `let` or `var` declaring `name`, other than as `this`.
fn declares_object(statement: Node<'_>, name: &str, src: &[u8]) -> bool {
    if !matches!(
        statement.kind(),
        "lexical_declaration" | "variable_declaration"
    ) {
        return false;
    }
    let mut cursor = statement.walk();
    let mut declarators = statement.named_children(&mut cursor);
    declarators.any(|d| {
        let named = d.kind() == "variable_declarator"
            && d.child_by_field_name("name")
                .is_some_and(|n| n.kind() == "identifier" && text_of(n, src) == name);
        let value = d.child_by_field_name("value").map(unwrapped);
        named && value.is_none_or(|v| v.kind() != "this")
    })
}

/// Whether `node` is inside a JavaScript or TypeScript function or class: not top-level code.
fn in_function(node: Node<'_>) -> bool {
    let mut up = node.parent();
    while let Some(p) = up {
        if is_function_node(p) || p.kind() == "class_body" {
            return true;
        }
        up = p.parent();
    }
    false
}

/// Whether `node` opens a JavaScript or TypeScript function's scope.
fn is_function_node(node: Node<'_>) -> bool {
    matches!(
        node.kind(),
        "function_declaration"
            | "generator_function_declaration"
            | "function_expression"
            | "function"
            | "generator_function"
            | "arrow_function"
            | "method_definition"
    )
}

/// How many of `segments` name the CommonJS exports object (`module.exports` 2, `exports`
/// 1, else 0), and the path after them without `prototype`: what an importer or caller
/// writes after the module (`parse` of `exports.parse`, `Foo.bar` of
/// `Foo.prototype.bar`).
fn api_path<'a>(segments: &[&'a str]) -> (usize, Vec<&'a str>) {
    let exported = match segments {
        ["module", "exports", ..] => 2,
        ["exports", ..] => 1,
        _ => 0,
    };
    let path = (segments[exported..].iter())
        .copied()
        .filter(|s| *s != "prototype")
        .collect();
    (exported, path)
}

/// The definition an assignment to `left` makes: `Foo.prototype.bar` is method `bar` of
/// `Foo` (qualified `Foo.bar`, as a class would name it), `app.listen` method `listen` of
/// `app`, `exports.parse` or `module.exports.parse` the module's function `parse`, and
/// `module.exports` itself the function `module.exports`. `None` when `left` is not a chain of
/// plain names (`this.x`, `a[k]`, `f().x`).
fn assigned_member(left: Node<'_>, kind: SymbolKind, src: &[u8]) -> Option<Found> {
    let segments = member_chain(left, src)?;
    let (exported, path) = api_path(&segments);
    // `module.exports = function (…)`: the module's one export, a CommonJS package's entry
    // point (ms's `index.js`; npm walk, stop 47), named as it is written.
    if path.is_empty() && exported > 0 {
        let whole = segments[..exported].join(".");
        return Some(Found {
            kind,
            name: whole.clone(),
            scope: whole,
            aliases: Vec::new(),
            of_trait: None,
            generated: None,
            part: None,
        });
    }
    let (name, owner) = path.split_last()?;
    let kind = if owner.is_empty() || kind != SymbolKind::Function {
        kind
    } else {
        SymbolKind::Method
    };
    Some(Found {
        kind,
        name: (*name).to_string(),
        scope: path.join("."),
        aliases: Vec::new(),
        of_trait: None,
        generated: None,
        part: None,
    })
}

/// The key of an object literal's member, unquoted; `None` for a computed one.
fn pair_key<'a>(pair: Node<'_>, src: &'a [u8]) -> Option<&'a str> {
    let key = pair.child_by_field_name("key")?;
    if !matches!(key.kind(), "property_identifier" | "string") {
        return None;
    }
    Some(text_of(key, src).trim_matches(|c| c == '"' || c == '\''))
}

/// The path to the object member `pair` when its object, or an object it is nested in
/// through members alone, is assigned to a chain of plain names: `formatters`, `RFC1738` in
/// `module.exports = { formatters: { RFC1738: … } }` ([`api_path`]). `None` through an array,
/// a call or anything else, and when a key is computed.
fn assigned_object_path<'a>(pair: Node<'_>, src: &'a [u8]) -> Option<Vec<&'a str>> {
    let mut keys = vec![pair_key(pair, src)?];
    let mut object = unwrapped_up(pair.parent()?);
    loop {
        let up = object.parent()?;
        match up.kind() {
            "pair" => {
                keys.push(pair_key(up, src)?);
                object = unwrapped_up(up.parent()?);
            }
            "assignment_expression" if up.child_by_field_name("right") == Some(object) => {
                let segments = member_chain(up.child_by_field_name("left")?, src)?;
                let (_, mut path) = api_path(&segments);
                path.extend(keys.into_iter().rev());
                return Some(path);
            }
            _ => return None,
        }
    }
}

/// The type name of a Go method receiver: `(s *Server)` → `Server`, `(l List[T])` → `List`.
fn receiver_type(recv: Node<'_>, src: &[u8]) -> Option<String> {
    let mut stack = vec![recv];
    while let Some(n) = stack.pop() {
        if n.kind() == "type_identifier" {
            return Some(text_of(n, src).to_string());
        }
        for i in (0..n.named_child_count()).rev() {
            if let Some(c) = n.named_child(i) {
                stack.push(c);
            }
        }
    }
    None
}

/// The package prefix of a file: Go `package x`, Java `package a.b;`.
fn package(lang: Lang, root: Node<'_>, src: &[u8]) -> Option<String> {
    let wanted = match lang {
        Lang::Go => "package_clause",
        Lang::Java => "package_declaration",
        _ => return None,
    };
    let mut cursor = root.walk();
    let node = root
        .named_children(&mut cursor)
        .find(|c| c.kind() == wanted)?;
    let mut c2 = node.walk();
    let name = node
        .named_children(&mut c2)
        .find(|c| {
            matches!(
                c.kind(),
                "package_identifier" | "identifier" | "scoped_identifier"
            )
        })
        .map(|c| text_of(c, src).to_string())?;
    Some(name)
}

fn line_span(node: Node<'_>) -> (u64, u64) {
    let s = node.start_position();
    let e = node.end_position();
    let start = s.row as u64 + 1;
    // An end at column 0 means the node stopped at the previous line's newline.
    let end = if e.column == 0 && e.row > s.row {
        e.row as u64
    } else {
        e.row as u64 + 1
    };
    (start, end.max(start))
}

/// The 1-based first line of what is written on the definition `node`: the doc comments,
/// comments, attributes and decorators directly above it, each starting its own line, with no
/// blank line between them and it but one after a `/** … */` block that is not the file's
/// first node (a wrapper such as Python's `decorated_definition` or an
/// `export` statement counts as the definition). A Rust function is cited with its `///`
/// lines as a rule; without them a range over both stood for the enclosing impl (indexmap
/// walk, stop 47). Inner doc comments and attributes (`//!`, `#![…]`) are their parent's.
fn leading_line(node: Node<'_>, src: &[u8]) -> u64 {
    let mut item = node;
    while let Some(p) = item.parent() {
        // A declaration of one definition is written on as that definition: comments above
        // `const f = () => …`, Go's `type T struct` or `var x`, or Python's `X = 1` stand
        // above the declaration, not its declarator (Go and TypeScript walks, stop 48).
        let wraps = match p.kind() {
            "decorated_definition" | "export_statement" => true,
            "lexical_declaration"
            | "variable_declaration"
            | "type_declaration"
            | "var_declaration"
            | "const_declaration"
            | "expression_statement" => p.named_child_count() == 1,
            // A C or C++ declarator is written on as its declaration (`static const struct
            // option longopts[] = …` under its comment), and a template as what it declares.
            "declaration"
            | "field_declaration"
            | "init_declarator"
            | "pointer_declarator"
            | "reference_declarator"
            | "array_declarator"
            | "function_declarator"
            | "parenthesized_declarator"
            | "attributed_declarator"
            | "template_declaration" => true,
            _ => false,
        };
        if !wraps {
            break;
        }
        item = p;
    }
    let mut first = item.start_position().row;
    // Python's parser leaves a comment before a block's first statement outside the block.
    let mut at = item.prev_sibling().or_else(|| {
        item.parent()
            .filter(|b| b.kind() == "block" && b.start_byte() == item.start_byte())?
            .prev_sibling()
    });
    while let Some(sib) = at {
        let kind = sib.kind();
        // A class body's `;` after a member (an overload signature's) stands apart from it.
        if kind == ";" && !sib.is_named() {
            at = sib.prev_sibling();
            continue;
        }
        let text = text_of(sib, src);
        let written_on = sib.is_named()
            && (kind.contains("comment")
                || matches!(kind, "attribute_item" | "decorator")
                || is_overload_of(sib, node, src))
            && !text.starts_with("//!")
            && !text.starts_with("/*!");
        // Its last line, as `line_span` counts it (1-based), is the line above (`first`, the
        // 0-based row) or the same line.
        let (sib_start, sib_end) = line_span(sib);
        let first_line = first as u64 + 1;
        // A `/** … */` doc block right above the definition may stand one blank line off, as
        // older JavaScript writes it (ms's `index.js`; npm walk, stop 47), unless it opens
        // the file: that is the file's header, not the first definition's.
        let doc_block = first_line == item.start_position().row as u64 + 1
            && text.starts_with("/**")
            && sib_end + 2 == first_line
            && !(sib.parent().is_some_and(|p| p.parent().is_none())
                && sib.prev_named_sibling().is_none());
        let adjacent = sib_end + 1 == first_line || sib_end == first_line || doc_block;
        let line_start = src
            .get(..sib.start_byte())
            .map(|before| before.rsplit(|&b| b == b'\n').next().unwrap_or(before))
            .is_some_and(|indent| indent.iter().all(|b| *b == b' ' || *b == b'\t'));
        if !(written_on && adjacent && line_start) {
            break;
        }
        first = (sib_start - 1) as usize;
        at = sib.prev_sibling();
    }
    first as u64 + 1
}

/// Kinds that only wrap an expression (their first named child) in TypeScript: a cast,
/// `satisfies`, parentheses, `!`.
const WRAPPERS: [&str; 4] = [
    "as_expression",
    "satisfies_expression",
    "parenthesized_expression",
    "non_null_expression",
];

/// The expression `node` wraps ([`WRAPPERS`]), however deep; or `node`.
fn unwrapped(node: Node<'_>) -> Node<'_> {
    let mut n = node;
    while WRAPPERS.contains(&n.kind()) {
        let Some(inner) = n.named_child(0) else { break };
        n = inner;
    }
    n
}

/// The outermost wrapper ([`WRAPPERS`]) around `node`; or `node`.
fn unwrapped_up(node: Node<'_>) -> Node<'_> {
    let mut n = node;
    while let Some(p) = n.parent().filter(|p| WRAPPERS.contains(&p.kind())) {
        n = p;
    }
    n
}

/// `node` as a declaration: the declaration an `export` statement wraps, or itself.
fn declared(node: Node<'_>) -> Node<'_> {
    match node.kind() {
        "export_statement" => node.child_by_field_name("declaration").unwrap_or(node),
        _ => node,
    }
}

/// Whether `node` is a TypeScript overload signature (`function f(a: string): T;`, or a
/// method's in a class) of the implementation that follows it, past further signatures and
/// comments. zod's `flattenError` is two signatures and a body: each signature was a
/// definition of its own, so a range over all three was suggested at the first signature's
/// one line (TypeScript drift walk, stop 49).
fn overloads_next(node: Node<'_>, src: &[u8]) -> bool {
    let Some(name) = field_text(node, "name", src) else {
        return false;
    };
    let item = match node.parent() {
        Some(p) if p.kind() == "export_statement" => p,
        _ => node,
    };
    let mut at = item.next_named_sibling();
    while let Some(sib) = at {
        let d = declared(sib);
        match d.kind() {
            k if k.contains("comment") => {}
            "function_signature" | "method_signature"
                if field_text(d, "name", src) == Some(name) => {}
            "function_declaration" | "generator_function_declaration" | "method_definition" => {
                return field_text(d, "name", src) == Some(name);
            }
            _ => return false,
        }
        at = sib.next_named_sibling();
    }
    false
}

/// Whether `sib`, directly above the implementation `node`, is one of its overload
/// signatures ([`overloads_next`]).
fn is_overload_of(sib: Node<'_>, node: Node<'_>, src: &[u8]) -> bool {
    let d = declared(sib);
    matches!(d.kind(), "function_signature" | "method_signature")
        && matches!(
            node.kind(),
            "function_declaration" | "generator_function_declaration" | "method_definition"
        )
        && field_text(d, "name", src).is_some_and(|n| field_text(node, "name", src) == Some(n))
}

/// Whether `node` is inside a `macro_rules!` body or a macro invocation's token tree.
fn in_macro_body(node: Node<'_>) -> bool {
    let mut up = node.parent();
    while let Some(p) = up {
        if matches!(
            p.kind(),
            "macro_definition" | "token_tree" | "macro_invocation"
        ) {
            return true;
        }
        up = p.parent();
    }
    false
}

fn collect(lang: Lang, root: Node<'_>, src: &[u8]) -> FileSymbols {
    let sep = lang.separator();
    let pkg = package(lang, root, src);
    let mut defs: Vec<Definition> = Vec::new();
    // Qualified scope of each definition (what its children are prefixed with).
    let mut scopes: Vec<String> = Vec::new();
    // What each definition's members are written with, when that is not its scope: a trait
    // impl's `<Type as Trait>` ([`Definition::written`]).
    let mut written_scopes: Vec<Option<String>> = Vec::new();
    // Explicit stack: deeply nested sources must not overflow the thread's stack.
    let mut stack: Vec<(Node<'_>, Option<usize>)> = vec![(root, None)];
    let mut unparsed: Vec<(u64, u64)> = Vec::new();
    // Nodes that are part of a definition made above them ([`Found::part`]).
    let mut parts: Vec<usize> = Vec::new();
    while let Some((node, parent)) = stack.pop() {
        // A macro's body is token trees that no grammar reads as code (anyhow's `/* fuel */
        // (~~~~…)`; Rust walk, stop 48), and defines nothing the graph would miss.
        if node.is_error() && !in_macro_body(node) {
            // The stretch starts where the statements it could still read end: the root of
            // a broken file is an error node holding every definition before the break.
            let mut span = line_span(node);
            let mut cursor = node.walk();
            if let Some(broken) = node
                .children(&mut cursor)
                .find(|c| c.is_error() || c.has_error() || c.is_missing() || !c.is_named())
            {
                span.0 = line_span(broken).0.min(span.1);
            }
            // Nodes come in document order: one inside the last stretch is part of it.
            if unparsed.last().is_none_or(|&(_, end)| span.0 > end) {
                unparsed.push(span);
            }
        }
        let parent_kind = parent.map(|p| defs[p].kind);
        let mut here = parent;
        let classified = if parts.contains(&node.id()) {
            None
        } else {
            classify(lang, node, parent_kind, src)
        };
        if let Some(f) = classified {
            parts.extend(f.part);
            let prefix = match parent {
                // C has one namespace: a struct in a struct is named as one at file scope.
                _ if lang == Lang::C => None,
                Some(p) => Some(scopes[p].clone()),
                None => pkg.clone(),
            };
            let join = |s: &str| match &prefix {
                Some(p) => format!("{p}{sep}{s}"),
                None => s.to_string(),
            };
            // A scope other than the name carries the qualification itself: an impl's type,
            // a Go method's receiver, an assigned member's object path.
            let by_scope = f.scope != f.name;
            let qualified = if by_scope {
                join(&f.scope)
            } else {
                join(&f.name)
            };
            let scope = if f.kind == SymbolKind::Impl {
                join(&f.scope)
            } else {
                qualified.clone()
            };
            let in_written = parent.and_then(|p| written_scopes[p].as_deref());
            let (written, written_scope) = match (&f.of_trait, in_written) {
                (Some(t), _) => (
                    Some(format!("impl {}", f.name)),
                    Some(format!("<{scope} as {t}>")),
                ),
                (None, Some(w)) => {
                    let own = format!("{w}{sep}{}", f.name);
                    (Some(own.clone()), Some(own))
                }
                (None, None) => (None, None),
            };
            let (item_line, end_line) = line_span(node);
            defs.push(Definition {
                kind: f.kind,
                name: f.name,
                qualified,
                start_line: leading_line(node, src).min(item_line),
                item_line,
                end_line,
                aliases: f.aliases,
                written,
                generated: f.generated,
                parent,
            });
            scopes.push(scope);
            written_scopes.push(written_scope);
            here = Some(defs.len() - 1);
        }
        for i in (0..node.named_child_count()).rev() {
            if let Some(c) = node.named_child(i) {
                stack.push((c, here));
            }
        }
    }
    if matches!(lang, Lang::TypeScript | Lang::Tsx | Lang::JavaScript) {
        export_aliases(root, src, &mut defs);
    }
    FileSymbols {
        definitions: defs,
        unparsed,
    }
}

/// Adds the names a module's export list gives its own top-level definitions as their aliases:
/// `export { objectType as object }` exports `objectType` as `object`, the name importers write
/// (`z.object`; zod walk, stop 53), and `export type { TypeOf as infer }` likewise. A re-export
/// from another module (`export { a as b } from './x'`) names no definition of this file, and
/// `as default` is no name anyone writes.
fn export_aliases(root: Node<'_>, src: &[u8], defs: &mut [Definition]) {
    let mut cursor = root.walk();
    for statement in root.named_children(&mut cursor) {
        if statement.kind() != "export_statement"
            || statement.child_by_field_name("source").is_some()
        {
            continue;
        }
        let mut inner = statement.walk();
        let Some(clause) = statement
            .named_children(&mut inner)
            .find(|c| c.kind() == "export_clause")
        else {
            continue;
        };
        let mut specs = clause.walk();
        for spec in clause.named_children(&mut specs) {
            let (Some(local), Some(alias)) = (
                field_text(spec, "name", src),
                field_text(spec, "alias", src),
            ) else {
                continue;
            };
            if alias == local || alias == "default" || !is_identifier(alias) {
                continue;
            }
            for d in defs
                .iter_mut()
                .filter(|d| d.parent.is_none() && d.name == local)
            {
                if !d.aliases.iter().any(|a| a == alias) {
                    d.aliases.push(alias.to_string());
                }
            }
        }
    }
}

//! Definitions found with tree-sitter in all eight languages, and the symbols a range concerns.

use ontoly_graph::sources::symbols::{extract, fields, heritage, FileSymbols, SymbolKind};

fn sample(name: &str) -> String {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../testdata/recipes/server");
    std::fs::read_to_string(dir.join(name)).unwrap()
}

fn defs(path: &str, file: &str) -> FileSymbols {
    extract(path, &sample(file)).expect("supported language")
}

/// `kind qualified start-end` of every definition.
fn listing(s: &FileSymbols) -> Vec<String> {
    s.definitions
        .iter()
        .map(|d| {
            format!(
                "{} {} {}-{}",
                d.kind.as_str(),
                d.qualified,
                d.start_line,
                d.end_line
            )
        })
        .collect()
}

fn range(s: &FileSymbols, a: u64, b: u64) -> Vec<String> {
    s.for_range(a, b)
        .iter()
        .map(|d| format!("{} {}", d.kind.as_str(), d.qualified))
        .collect()
}

#[test]
fn rust_definitions_and_ranges() {
    let s = defs("src/lib.rs", "lib.rs");
    assert_eq!(
        listing(&s),
        [
            "constant MAX 2-2",
            "struct Searcher 4-6",
            "impl Searcher 8-19",
            "method Searcher::new 9-11",
            "method Searcher::search_slice 13-18",
            "function Searcher::search_slice::helper 14-16",
            "trait Sink 21-23",
            "method Sink::matched 22-22",
            "module util 25-33",
            "enum util::Mode 26-29",
            "function util::pick 30-32",
        ]
    );
    // Inside a nested function: only the innermost.
    assert_eq!(
        range(&s, 15, 15),
        ["function Searcher::search_slice::helper"]
    );
    // In a method, below its nested function: the method only.
    assert_eq!(range(&s, 17, 17), ["method Searcher::search_slice"]);
    // Spanning two methods: the impl that encloses them, then both methods (and the nested
    // function the range reaches), in document order.
    assert_eq!(
        range(&s, 10, 14),
        [
            "impl Searcher",
            "method Searcher::new",
            "method Searcher::search_slice",
            "function Searcher::search_slice::helper"
        ]
    );
    // Across top-level items: no enclosing definition, every overlapped one.
    assert_eq!(
        range(&s, 5, 9),
        ["struct Searcher", "impl Searcher", "method Searcher::new"]
    );
    // Blank lines between items: nothing.
    assert!(range(&s, 20, 20).is_empty());
    // The impl's label carries the trait when there is one.
    let t = extract(
        "x.rs",
        "struct A;\nimpl std::fmt::Display for A {\n    fn fmt(&self) {}\n}\n",
    )
    .unwrap();
    assert_eq!(t.definitions[1].name, "std::fmt::Display for A");
    assert_eq!(t.definitions[2].qualified, "A::fmt");
}

#[test]
fn a_trait_impl_and_its_members_are_written_as_rust_names_them() {
    // Every impl of `IndexMap` is qualified `IndexMap<K, V, S>`, and so are its members: the
    // block's name and `<Type as Trait>::member` tell the two `Index` impls apart (indexmap
    // walk, F4). An inherent impl's qualified name already says which it is.
    let t = extract(
        "src/map.rs",
        "impl<K, V, S> IndexMap<K, V, S> {\n    fn len(&self) -> usize { 0 }\n}\n\
         impl<K, V, Q: ?Sized, S> Index<&Q> for IndexMap<K, V, S> {\n    type Output = V;\n    fn index(&self, key: &Q) -> &V { todo!() }\n}\n\
         impl<K, V, S> Index<usize> for IndexMap<K, V, S> {\n    fn index(&self, i: usize) -> &V { fn inner() {} todo!() }\n}\n\
         mod tests {\n    impl<Q: ?Sized, K: ?Sized> Equivalent<K> for Q {}\n}\n",
    )
    .expect("Rust");
    let written: Vec<(&str, Option<&str>)> = (t.definitions.iter())
        .map(|d| (d.qualified.as_str(), d.written.as_deref()))
        .collect();
    assert_eq!(
        written,
        [
            ("IndexMap<K, V, S>", None),
            ("IndexMap<K, V, S>::len", None),
            (
                "IndexMap<K, V, S>",
                Some("impl Index<&Q> for IndexMap<K, V, S>")
            ),
            (
                "IndexMap<K, V, S>::Output",
                Some("<IndexMap<K, V, S> as Index<&Q>>::Output")
            ),
            (
                "IndexMap<K, V, S>::index",
                Some("<IndexMap<K, V, S> as Index<&Q>>::index")
            ),
            (
                "IndexMap<K, V, S>",
                Some("impl Index<usize> for IndexMap<K, V, S>")
            ),
            (
                "IndexMap<K, V, S>::index",
                Some("<IndexMap<K, V, S> as Index<usize>>::index")
            ),
            (
                "IndexMap<K, V, S>::index::inner",
                Some("<IndexMap<K, V, S> as Index<usize>>::index::inner")
            ),
            ("tests", None),
            ("tests::Q", Some("impl Equivalent<K> for Q")),
        ]
    );
}

#[test]
fn python_definitions() {
    let s = defs("app/main.py", "main.py");
    assert_eq!(
        listing(&s),
        [
            "constant LIMIT 2-2",
            "class Server 5-12",
            "method Server.__init__ 6-7",
            "method Server.handle 9-12",
            "function Server.handle.inner 10-11",
            "function serve 15-16",
        ]
    );
    assert_eq!(
        range(&s, 7, 9),
        [
            "class Server",
            "method Server.__init__",
            "method Server.handle"
        ]
    );
    assert_eq!(range(&s, 12, 12), ["method Server.handle"]);
}

#[test]
fn typescript_and_tsx_definitions() {
    let s = defs("web/app.ts", "app.ts");
    assert_eq!(
        listing(&s),
        [
            "constant VERSION 1-1",
            "interface Handler 3-5",
            "method Handler.handle 4-4",
            "enum Mode 7-10",
            "module Util 12-16",
            "function Util.trim 13-15",
            "class App 18-25",
            "method App.handle 19-21",
            "method App.create 22-24",
            "function run 27-27",
            "type Alias 28-28",
        ]
    );
    assert_eq!(
        range(&s, 20, 23),
        ["class App", "method App.handle", "method App.create"]
    );
    let x = defs("web/view.tsx", "view.tsx");
    assert_eq!(
        listing(&x),
        [
            "function View 3-6",
            "function View.label 4-4",
            "class Panel 8-12",
            "method Panel.render 9-11"
        ]
    );
    assert_eq!(range(&x, 10, 10), ["method Panel.render"]);
}

#[test]
fn javascript_definitions() {
    let s = defs("web/util.js", "util.js");
    assert_eq!(
        listing(&s),
        [
            "function add 1-3",
            "class Counter 5-12",
            "method Counter.constructor 6-8",
            "method Counter.inc 9-11",
            "function double 14-16",
        ]
    );
    assert_eq!(
        range(&s, 2, 15),
        [
            "function add",
            "class Counter",
            "method Counter.constructor",
            "method Counter.inc",
            "function double"
        ]
    );
}

/// Members defined by assignment, as pre-class JavaScript (and much of npm) writes them.
#[test]
fn javascript_members_assigned_at_top_level() {
    let src = "\
function Router(opts) {
  this.handle = function (req) { return req; };
  helpers.local = function () {};
}

Router.prototype.route = function route(path) {
  return path;
};

Router.match = (a, b) => a === b;
exports.parse = function (s) { return s; };
module.exports.Layer = class {
  run() {}
};
if (process.env.FAST) {
  module.exports.mask = function (b) { return b; };
}
module.exports = Router;
this.x = function () {};
cache[key] = function () {};
app.settings.port = 3000;
";
    let s = extract("lib/router.js", src).expect("supported language");
    assert_eq!(
        listing(&s),
        [
            "function Router 1-4",
            "method Router.route 6-8",
            "method Router.match 10-10",
            "function parse 11-11",
            "class Layer 12-14",
            "method Layer.run 13-13",
            "function mask 16-16",
        ]
    );
    assert_eq!(range(&s, 7, 7), ["method Router.route"]);
    // TypeScript shares the grammar's expressions.
    let ts = extract("src/a.ts", "Foo.prototype.bar = function (): void {};\n").unwrap();
    assert_eq!(listing(&ts), ["method Foo.bar 1-1"]);
    // A package's one export, with its JSDoc (ms's index.js).
    let ms = "/**\n * Parse or format.\n */\n\nmodule.exports = function(val, options) {\n  return val;\n};\n";
    let s = extract("index.js", ms).expect("javascript");
    assert_eq!(listing(&s), ["function module.exports 5-7"]);
}

#[test]
fn go_definitions_are_package_qualified() {
    let s = defs("cmd/server/server.go", "server.go");
    assert_eq!(
        listing(&s),
        [
            "constant server.Port 3-3",
            "struct server.Server 5-7",
            "interface server.Handler 9-11",
            "method server.Handler.Serve 10-10",
            "function server.New 13-15",
            "method server.Server.Start 17-19",
        ]
    );
    assert_eq!(range(&s, 18, 18), ["method server.Server.Start"]);
}

#[test]
fn java_definitions_are_package_qualified() {
    let s = defs("java/com/acme/Server.java", "Server.java");
    assert_eq!(
        listing(&s),
        [
            "class com.acme.Server 3-21",
            "constant com.acme.Server.PORT 4-4",
            "method com.acme.Server.Server 6-7",
            "method com.acme.Server.start 9-11",
            "interface com.acme.Server.Listener 13-15",
            "method com.acme.Server.Listener.onEvent 14-14",
            "enum com.acme.Server.State 17-20",
        ]
    );
    assert_eq!(
        range(&s, 14, 14),
        ["method com.acme.Server.Listener.onEvent"]
    );
    assert_eq!(
        range(&s, 10, 13),
        [
            "class com.acme.Server",
            "method com.acme.Server.start",
            "interface com.acme.Server.Listener"
        ]
    );
}

/// `kind qualified line` of every field and variant.
fn members(path: &str, text: &str) -> Vec<String> {
    let s = extract(path, text).expect("supported language");
    (fields(path, text, &s).into_iter())
        .map(|f| format!("{} {} {}", f.kind, f.qualified, f.line))
        .collect()
}

#[test]
fn enum_variants_are_read_beside_struct_fields() {
    let rust = "pub enum Entry<'a, K, V> {\n    Occupied(OccupiedEntry<'a, K, V>),\n    Vacant { key: K },\n}\n\npub struct Bucket<K, V> {\n    hash: u64,\n    key: K,\n}\n";
    assert_eq!(
        members("src/entry.rs", rust),
        [
            "variant Entry::Occupied 2",
            "variant Entry::Vacant 3",
            "field Bucket::hash 7",
            "field Bucket::key 8",
        ]
    );
    let java = "package com.acme;\n\npublic enum State {\n    IDLE,\n    RUNNING(\"run\") {\n    };\n\n    private final String label = \"\";\n}\n";
    assert_eq!(
        members("com/acme/State.java", java),
        [
            "variant com.acme.State.IDLE 4",
            "variant com.acme.State.RUNNING 5"
        ]
    );
    let ts = "export enum Level {\n  Low,\n  High = \"high\",\n  Max,\n}\n";
    assert_eq!(
        members("src/level.ts", ts),
        [
            "variant Level.Low 2",
            "variant Level.High 3",
            "variant Level.Max 4"
        ]
    );
}

#[test]
fn the_classes_a_class_extends() {
    let listing = |path: &str, text: &str| -> Vec<String> {
        (heritage(path, text).into_iter())
            .map(|h| format!("{} {} < {}", h.line, h.class, h.bases.join(", ")))
            .collect()
    };
    let ts = "export abstract class ZodType<O, D> {\n  parse() {}\n}\nexport class ZodObject<T> extends ZodType<T, Def> implements Shape {}\nclass Other extends mod.Base {}\n";
    assert_eq!(
        listing("src/types.ts", ts),
        ["4 ZodObject < ZodType", "5 Other < Base"]
    );
    let js = "class Router extends EventEmitter {}\nconst Layer = class Inner extends Base {};\n";
    assert_eq!(
        listing("lib/router.js", js),
        ["1 Router < EventEmitter", "2 Inner < Base"]
    );
    let java = "package a;\npublic class Mapper extends ObjectCodec implements Versioned {}\n";
    assert_eq!(listing("a/Mapper.java", java), ["2 Mapper < ObjectCodec"]);
    let py = "class Session(SessionRedirectMixin, abc.ABC, metaclass=Meta):\n    pass\n";
    assert_eq!(
        listing("requests/sessions.py", py),
        ["1 Session < SessionRedirectMixin, ABC"]
    );
    assert!(heritage("src/lib.rs", "struct A;").is_empty());
}

#[test]
fn other_files_and_broken_sources() {
    assert!(extract("README.md", "# x\n").is_none());
    assert!(extract("Makefile", "all:\n").is_none());
    // A syntax error still yields what parses; never a panic.
    let s = extract("a.rs", "fn ok() {}\nfn broken( {\n").unwrap();
    assert_eq!(s.definitions[0].qualified, "ok");
    assert!(s.definitions.iter().all(|d| d.kind == SymbolKind::Function));
    // Deep nesting does not overflow the stack.
    let deep = format!("fn f() {{ {} }}\n", "{".repeat(5000) + &"}".repeat(5000));
    assert!(extract("deep.rs", &deep).is_some());
}

#[test]
fn a_source_file_over_the_bound_is_not_parsed() {
    // Generated or bundled code: parsing 500 MB took minutes and gigabytes.
    use ontoly_graph::sources::symbols::{extract, MAX_SOURCE_BYTES};
    let def = "def f():\n    return 1\n";
    assert!(extract("a.py", def).is_some_and(|s| !s.definitions.is_empty()));
    let big = def.repeat(MAX_SOURCE_BYTES / def.len() + 1);
    assert!(big.len() > MAX_SOURCE_BYTES);
    assert_eq!(extract("a.py", &big), None);
}

/// `qualified start/item-end` of every definition.
fn spans(path: &str, text: &str) -> Vec<String> {
    extract(path, text)
        .expect("supported language")
        .definitions
        .iter()
        .map(|d| {
            format!(
                "{} {}/{}-{}",
                d.qualified, d.start_line, d.item_line, d.end_line
            )
        })
        .collect()
}

#[test]
fn doc_comments_attributes_and_decorators_are_the_definitions_lines() {
    // Rust: `///` and `#[…]` directly above are the item's; `//!` is the module's, a comment
    // after a blank line or at the end of a line of code is nobody's.
    let rs = "//! The crate.\nuse std::fmt;\n\n/// A point.\n#[derive(Debug)]\npub struct P;\n\n// Loose.\n\nimpl P {\n    /// Makes one.\n    /* and more */\n    pub fn new() -> P { P }\n    const N: u8 = 1; // trailing\n    fn id(&self) {}\n}\n";
    assert_eq!(
        spans("a.rs", rs),
        [
            "P 4/6-6",
            "P 10/10-16",
            "P::new 11/13-13",
            "P::N 14/14-14",
            "P::id 15/15-15"
        ]
    );
    // A range over a method and its doc comment stands for the method, not the impl.
    let s = extract("a.rs", rs).expect("rust");
    assert_eq!(range(&s, 11, 13), ["method P::new"]);
    // Python: decorators and the comment above them; the docstring is inside already.
    let py = "import os\n# Cached.\n@cache\n@other(1)\ndef f():\n    \"\"\"Doc.\"\"\"\n    return 1\n\nclass C:\n    # Why.\n    def m(self):\n        pass\n";
    assert_eq!(spans("a.py", py), ["f 2/5-7", "C 9/9-12", "C.m 10/11-12"]);
    // Go and TypeScript: the comments directly above, an export included.
    let go = "package p\n\n// F does it.\n// Twice.\nfunc F() {}\n";
    assert_eq!(spans("a.go", go), ["p.F 3/5-5"]);
    let ts = "/** Adds. */\nexport function add(a: number) { return a; }\n";
    assert_eq!(spans("a.ts", ts), ["add 1/2-2"]);
    // A JSDoc block one blank line above, as older JavaScript writes it; not the file's
    // header, nor a line comment, nor a block two blank lines off.
    let js = "/**\n * License.\n */\n\nfunction a() {}\nvar s = 1;\n\n/**\n * Parse.\n */\n\nfunction parse() {}\n// Note.\n\nfunction b() {}\n/** Far. */\n\n\nfunction c() {}\n";
    assert_eq!(
        spans("index.js", js),
        [
            "a 5/5-5",
            "s 6/6-6",
            "parse 8/12-12",
            "b 15/15-15",
            "c 19/19-19"
        ]
    );
}

#[test]
fn typescript_overload_signatures_are_the_implementations_lines() {
    // zod's `flattenError` (two signatures and a body) was three definitions, so a range over
    // all of it was suggested at the first signature's one line (TypeScript walk, stop 49).
    let ts = "/** Flattens. */\nexport function f(a: string): string;\nexport function f(a: number): number;\nexport function f(a: any) {\n  return a;\n}\nclass C {\n  m(): void;\n  // Or with one.\n  m(x: number): void;\n  m(x?: number) {}\n}\ndeclare function g(): void;\ninterface I {\n  h(): void;\n  h(x: number): void;\n}\n";
    assert_eq!(
        spans("a.ts", ts),
        [
            "f 1/4-6",
            "C 7/7-12",
            "C.m 8/11-11",
            "g 13/13-13",
            "I 14/14-17",
            "I.h 15/15-15",
            "I.h 16/16-16"
        ]
    );
    let s = extract("a.ts", ts).expect("typescript");
    assert_eq!(range(&s, 8, 11), ["method C.m"]);
}

#[test]
fn an_object_literals_members_holding_functions_are_its_methods() {
    // zod's `coerce = { string: ((arg) => …) as Create }` had no `coerce.string` (TypeScript
    // walk, stop 49); a shorthand method already was one. Values that are no function, and
    // objects nested in another member, are not.
    let ts = "type Create = (arg?: object) => string;\nexport const plain = {\n  string: (arg?: object) => String(arg),\n  n: 1,\n};\nexport const short = {\n  string(arg?: object) { return String(arg); },\n};\nexport const cast = {\n  string: ((arg) => String(arg)) as Create,\n  'quoted': function () {},\n  deep: { inner: () => 1 },\n} satisfies object;\n";
    let names: Vec<String> = extract("a.ts", ts)
        .expect("typescript")
        .definitions
        .iter()
        .map(|d| format!("{:?} {}", d.kind, d.qualified))
        .collect();
    assert_eq!(
        names,
        [
            "Type Create",
            "Variable plain",
            "Method plain.string",
            "Variable short",
            "Method short.string",
            "Variable cast",
            "Method cast.string",
            "Method cast.quoted"
        ]
    );
}

#[test]
fn module_level_variables_class_field_functions_and_declarations_written_on() {
    // Go: package-level `var`s (alone and grouped) are symbols, locals and `_` are not; a
    // type's doc comment is its own, as a function's is (Go walk, stop 48).
    let go = "package cobra\n\n// EnablePrefixMatching allows prefixes.\nvar EnablePrefixMatching = false\n\nvar (\n\t// a note\n\tflagMu sync.Mutex\n\t_ Value = (*boolValue)(nil)\n)\n\n// Command is a command.\n// It runs.\ntype Command struct {\n\tUse string\n}\n\nfunc F() {\n\tvar local = 1\n\t_ = local\n}\n";
    let s = extract("cobra.go", go).expect("go");
    assert_eq!(
        listing(&s),
        [
            "variable cobra.EnablePrefixMatching 3-4",
            "variable cobra.flagMu 7-8",
            "struct cobra.Command 12-16",
            "function cobra.F 18-21",
        ]
    );
    // Python: a module's lower-case bindings are variables, `X: TypeAlias = …` a type,
    // UPPER_CASE a constant, each with the comment above it; nothing inside functions.
    let py = "import os\n\n# Size suffixes.\nsuffixes = (\n    'kB',\n)\nNumberOrString: TypeAlias = 'float | str'\nMAX = 3\n_ = None\n\ndef f():\n    local = 1\n";
    let s = extract("number.py", py).expect("python");
    assert_eq!(
        listing(&s),
        [
            "variable suffixes 3-6",
            "type NumberOrString 7-7",
            "constant MAX 8-8",
            "function f 11-12",
        ]
    );
    // TypeScript: a class field holding a function is a method; a module's exported bindings
    // are variables (with their JSDoc), an object literal's methods are qualified by it;
    // `require(…)`, locals and a bundle's IIFE bind no symbols.
    let ts = "class Immer {\n  /** Produces. */\n  produce = (base: any) => {\n    return base\n  }\n  other() {}\n}\nconst immer = new Immer()\n/** The producer. */\nexport const produce: IProduce = immer.produce\nconst objectTraps = {\n  get(state: any) {\n    return state\n  },\n}\nconst fs = require('fs')\nfunction g() {\n  const inner = 1\n}\n";
    let s = extract("src/immer.ts", ts).expect("typescript");
    assert_eq!(
        listing(&s),
        [
            "class Immer 1-7",
            "method Immer.produce 2-5",
            "method Immer.other 6-6",
            "variable immer 8-8",
            "variable produce 9-10",
            "variable objectTraps 11-15",
            "method objectTraps.get 12-14",
            "function g 17-19",
        ]
    );
    let js = "(function () {\n  var hidden = 1;\n})();\nclass K {\n  run = (x) => x + 1;\n  method() {}\n}\n/** Checks. */\nconst isDraft = (x) => !!x;\n";
    let s = extract("k.js", js).expect("javascript");
    assert_eq!(
        listing(&s),
        [
            "class K 4-7",
            "method K.run 5-5",
            "method K.method 6-6",
            "function isDraft 8-9",
        ]
    );
}

#[test]
fn lines_the_grammar_could_not_parse_are_named() {
    // tree-sitter-typescript reads a call signature ending `): Curried` and a generic one on
    // the next line as one broken expression; what follows is lost (immer's
    // `types-external.ts`; TypeScript walk, stop 48). The definitions before it are kept.
    let ts = "export type Head = string\nexport interface IProduce {\n\t<Curried>(\n\t\trecipe: Curried\n\t): Curried\n\n\t<Recipe extends AnyFunc>(\n\t\trecipe: Recipe\n\t): Recipe\n}\nexport type Tail = number\n";
    let s = extract("src/types.ts", ts).expect("typescript");
    assert!(listing(&s).contains(&"type Head 1-1".to_string()));
    assert!(!listing(&s).iter().any(|l| l.contains("Tail")));
    let (first, last) = s.unparsed_in(7, 9).expect("named");
    assert!(first > 1 && first <= 7 && last >= 9, "{first}-{last}");
    assert_eq!(s.unparsed_in(1, 1), None);
    // A file that parses has no such lines.
    assert!(extract("src/ok.ts", "export type A = 1\n")
        .expect("typescript")
        .unparsed
        .is_empty());
}

#[test]
fn a_macro_body_the_grammar_cannot_read_hides_no_definition() {
    // anyhow's `ensure!` passes `/* fuel */ (~~~~)` through its rules: rustc compiles it,
    // tree-sitter-rust does not, and no definition is lost there (Rust walk, stop 48).
    let rs = "macro_rules! ensure {\n    ($($tt:tt)*) => {\n        __parse!(\n            /* fuel */ (~~~~~~~~~~)\n        )\n    };\n}\n\nfn after() {}\n";
    let s = extract("src/macros.rs", rs).expect("rust");
    assert!(s.unparsed.is_empty(), "{:?}", s.unparsed);
    assert!(listing(&s).contains(&"function after 9-9".to_string()));
}

/// `kind qualified start-end` of every definition, with ` (also alias)` for one its code
/// names otherwise.
fn listing_with_aliases(s: &FileSymbols) -> Vec<String> {
    (s.definitions.iter())
        .map(|d| {
            let also = if d.aliases.is_empty() {
                String::new()
            } else {
                format!(" (also {})", d.aliases.join(", "))
            };
            format!(
                "{} {} {}-{}{also}",
                d.kind.as_str(),
                d.qualified,
                d.start_line,
                d.end_line
            )
        })
        .collect()
}

/// The functions of a CommonJS exports object are named as importers reach them, the
/// `module.exports` in front left out as `exports.parse = function` leaves it out: qs's
/// `lib/formats.js` had no symbol for `RFC1738` (JavaScript drift walk on qs,
/// `/tmp/w50/js-drift/repro-constructs.sh`).
#[test]
fn javascript_exports_objects_name_their_functions() {
    let formats = "'use strict';\n\nvar Format = {\n    RFC1738: 'RFC1738',\n    RFC3986: 'RFC3986'\n};\n\nmodule.exports = {\n    'default': Format.RFC3986,\n    formatters: {\n        RFC1738: function (value) {\n            return value;\n        },\n        RFC3986: function (value) {\n            return String(value);\n        }\n    },\n    parse: function parse(s) { return s; },\n    RFC1738: Format.RFC1738,\n    list: [{ inArray: function () {} }],\n    made: make({ inCall: function () {} })\n};\n";
    let s = extract("lib/formats.js", formats).expect("javascript");
    assert_eq!(
        listing_with_aliases(&s),
        [
            "variable Format 3-6",
            "method formatters.RFC1738 11-13",
            "method formatters.RFC3986 14-16",
            "function parse 18-18",
        ]
    );
    assert_eq!(range(&s, 12, 12), ["method formatters.RFC1738"]);
    // The same members assigned one object at a time, through `exports` or a prototype.
    let members = "module.exports.formatters = {\n  RFC1738: function (value) {\n    return value;\n  },\n  RFC3986: (value) => String(value),\n  n: 1\n};\nexports.options = { nested: { deep: function () {} } };\nParser.prototype = {\n  run: function run(input) { return input; }\n};\nfunction setup() {\n  exports.local = { inner: function () {} };\n}\n";
    let s = extract("lib/a.js", members).expect("javascript");
    assert_eq!(
        listing_with_aliases(&s),
        [
            "method formatters.RFC1738 2-4",
            "method formatters.RFC3986 5-5",
            "method options.nested.deep 8-8",
            "method Parser.run 10-10",
            "function setup 12-14",
        ]
    );
}

/// An `export default` without a name is what an importer calls `default` (qs-style ESM, and
/// `repro-constructs.sh`'s `lib/b.mjs` had no symbol); a named one keeps its name.
#[test]
fn javascript_default_exports() {
    let anon = "export default function (str) {\n  return str.length;\n}\n\nexport const helper = (x) => {\n  return x * 2;\n};\n";
    let s = extract("lib/b.mjs", anon).expect("javascript");
    assert_eq!(
        listing_with_aliases(&s),
        ["function default 1-3", "function helper 5-7"]
    );
    let named = "/** Counts. */\nexport default function count(str) {\n  return str.length;\n}\n";
    let s = extract("lib/c.js", named).expect("javascript");
    assert_eq!(listing_with_aliases(&s), ["function count 1-4"]);
    let class = "export default class {\n  run() {}\n}\n";
    let s = extract("lib/d.js", class).expect("javascript");
    assert_eq!(
        listing_with_aliases(&s),
        ["class default 1-3", "method default.run 2-2"]
    );
    let named_class = "export default class Store {\n  get() {}\n}\n";
    let s = extract("src/e.ts", named_class).expect("typescript");
    assert_eq!(
        listing_with_aliases(&s),
        ["class Store 1-3", "method Store.get 2-2"]
    );
    let arrow = "export default (a, b) => a + b;\n";
    let s = extract("src/f.ts", arrow).expect("typescript");
    assert_eq!(listing_with_aliases(&s), ["function default 1-1"]);
}

/// A function expression's own name is the one V8's stack traces print
/// (`at parseQueryStringValues`, for qs's `var parseValues = function
/// parseQueryStringValues`): it is kept beside the binding's name, one definition still.
#[test]
fn javascript_function_expressions_own_names_are_aliases() {
    let js = "var parseValues = function parseQueryStringValues(str, options) {\n  return str;\n};\nvar same = function same() {};\nvar anon = function () {};\nmodule.exports = function parseQuery(str) {\n  return parseValues(str);\n};\nexports.stringify = function stringifyAll(obj) {};\nconst Klass = class Named {};\nvar generators = {\n  brackets: function bracketsPrefix(prefix) { return prefix; }\n};\n";
    let s = extract("lib/parse.js", js).expect("javascript");
    assert_eq!(
        listing_with_aliases(&s),
        [
            "function parseValues 1-3 (also parseQueryStringValues)",
            "function same 4-4",
            "function anon 5-5",
            "function module.exports 6-8 (also parseQuery)",
            "function stringify 9-9 (also stringifyAll)",
            "class Klass 10-10 (also Named)",
            "variable generators 11-13",
            "method generators.brackets 12-12 (also bracketsPrefix)",
        ]
    );
}

/// ky's `createInstance` builds its API on a local (`ky.create = (…) => …`, `ky.extend = …`):
/// those functions had no symbol, so `cites --symbol ky.create` found nothing though a section
/// cites exactly those lines (walk 51, F7). A member of a local object is named under the
/// function that defines it, as its other nested definitions are; one of a parameter, of
/// `this` or of a local bound to `this` configure something else and stay the enclosing
/// function's lines; a computed member a loop makes is `ky[method]` (stop 53).
#[test]
fn functions_assigned_to_a_local_objects_members_are_its_methods() {
    let ts = "\
const createInstance = (defaults?: Partial<Options>): KyInstance => {
\tconst ky: Partial<Mutable<KyInstance>> = (input: Input) => Ky.create(input, defaults);

\tfor (const method of requestMethods) {
\t\tky[method] = (input: Input) => Ky.create(input, {method});
\t}

\tky.create = (newDefaults?: Partial<Options>) => createInstance(newDefaults);
\tky.extend = (newDefaults?: Partial<Options>) => {
\t\treturn createInstance(newDefaults);
\t};
\tky.stop = stop;

\treturn ky as KyInstance;
};
";
    let expected = [
        "function createInstance 1-15",
        "function createInstance.ky 2-2",
        "method createInstance.ky[method] 5-5",
        "method createInstance.ky.create 8-8",
        "method createInstance.ky.extend 9-11",
    ];
    for path in ["source/index.ts", "source/index.js"] {
        let src = if path.ends_with(".js") {
            // The same code without its types.
            ts.replace("?: Partial<Options>", "")
                .replace(": KyInstance =>", " =>")
                .replace(": Partial<Mutable<KyInstance>>", "")
                .replace(": Input", "")
                .replace(" as KyInstance", "")
        } else {
            ts.to_string()
        };
        let s = extract(path, &src).expect("supported language");
        assert_eq!(listing(&s), expected, "{path}");
        assert_eq!(
            range(&s, 8, 8),
            ["method createInstance.ky.create"],
            "{path}"
        );
        // A computed member a loop makes is the loop's member (stop 53).
        assert_eq!(
            range(&s, 5, 5),
            ["method createInstance.ky[method]"],
            "{path}"
        );
    }
    // Nested in a block, declared with `let` or `var`, in a method: still a local's member.
    let js = "\
class Api {
  build() {
    if (ready) {
      let client = {};
      client.get = function get(url) { return url; };
    }
  }
}
function init(app, opts) {
  var self = this;
  self.close = function () {};
  app.listen = function () {};
  opts.onDone = () => {};
  window.handler = () => {};
  this.run = function () {};
}
";
    let s = extract("lib/api.js", js).expect("javascript");
    assert_eq!(
        listing(&s),
        [
            "class Api 1-8",
            "method Api.build 2-7",
            "method Api.build.client.get 5-5",
            "function init 9-16",
        ]
    );
}

/// express 4's ways of defining its API beyond `obj.name = function`: a chained assignment
/// is one function with every target a name of it, a declarator holding `module.exports =
/// function` is that function under the declarator's name, getters defined with
/// `Object.defineProperty`, `Object.defineProperties` or a helper given the name and a
/// function of that name are `obj.name`, and a named callback inside a function is a nested
/// function (express walk, F3–F6). A helper named `define…` defines the property whatever
/// its function's own name (stop 53); a named factory given to a wrapper at top level
/// defines nothing.
#[test]
fn javascript_chains_getters_and_named_callbacks() {
    let js = r#"var req = Object.create(null);

/** Header lookup. */
req.get =
req.header = function header(name) {
  return name;
};

var proto = module.exports = function(options) {
  return options;
};

/** The host. */
Object.defineProperty(req, 'host', {
  get: function () { return 'h'; },
  enumerable: true
});

Object.defineProperties(req, {
  secure: { get() { return true; } },
  plain: { value: 1 }
});

defineGetter(req, 'hostname', function hostname() {
  return 'x';
});

defineGetter(req, 'fresh', function () {
  return true;
});

proto.init = function init() {
  this.on('mount', function onmount(parent) {
    return parent;
  });
};

(function (root, factory) { factory(root); })(this, function factory(exports) {
  exports.parse = function () {};
});
"#;
    let s = extract("lib/request.js", js).expect("javascript");
    assert_eq!(
        listing_with_aliases(&s),
        [
            "variable req 1-1",
            "method req.get 3-7 (also req.header, header)",
            "function proto 9-11 (also module.exports)",
            "method req.host 13-17",
            "method req.secure 20-20",
            "method req.hostname 24-26",
            "method req.fresh 28-30",
            "method proto.init 32-36",
            "function proto.init.onmount 33-35",
            "function parse 39-39",
        ]
    );
}

/// Members express 4 makes without writing their names (express walk, F4, F6): a member
/// assigned a function for each item of a list is `app[method]`, made by that loop, with the
/// names it makes only when the list is written in the file; a getter defined by a helper
/// whose name says so, or that calls `Object.defineProperty`, is the member whatever its
/// function's own name; a function given to a wrapper is the member's. A callback given a
/// route, an event registered on an object, a loop over an object's keys, a call given two
/// functions and an array method's callback define nothing.
#[test]
fn javascript_loop_made_members_helper_getters_and_wrapped_functions() {
    let js = r#"var methods = require('methods');
var VERBS = ['get', 'post'];

methods.forEach(function(method){
  app[method] = function(path){
    return this;
  };
});

VERBS.forEach((verb) => {
  Route.prototype[verb] = function () {};
});

for (const m of ['head', 'put']) {
  exports[m] = function () {};
}

methods.concat('all').forEach(function(method){
  proto[method] = function(path){};
});

for (var key in table) {
  app[key] = function () {};
}

defineGetter(req, 'fresh', function(){
  return true;
});

defineGetter(req, 'host', deprecate.function(function host(){
  return this.hostname;
}, 'req.host: Use req.hostname instead'));

getter(req, 'ip', () => 'x');

function getter(obj, name, fn) {
  Object.defineProperty(obj, name, { get: fn });
}

res.sendfile = deprecate.function(function sendfile(path) {
  return path;
}, 'res.sendfile: Use res.sendFile instead');

app.get('/x', function(){});
on(window, 'load', function () {});
register(app, '/users', function () {});
res.both = wrap(function a() {}, function b() {});
exports.names = list.map(function (x) { return x.name; });
"#;
    let s = extract("lib/application.js", js).expect("javascript");
    assert_eq!(
        listing_with_aliases(&s),
        [
            "variable VERBS 2-2",
            "method app[method] 5-7",
            "method Route[verb] 11-11 (also Route.get, Route.post)",
            "function [m] 15-15 (also head, put)",
            "method proto[method] 19-19",
            "method req.fresh 26-28",
            "method req.host 30-32",
            "method req.ip 34-34",
            "function getter 36-38",
            "method res.sendfile 40-42",
        ]
    );
    let made = |q: &str| {
        (s.definitions.iter())
            .find(|d| d.qualified == q)
            .and_then(|d| d.generated.clone())
            .map(|g| (g.first_line, g.last_line, g.over, g.names))
    };
    assert_eq!(made("app[method]"), Some((4, 8, "methods".into(), vec![])));
    assert_eq!(
        made("Route[verb]"),
        Some((
            10,
            12,
            "VERBS".into(),
            vec!["Route.get".into(), "Route.post".into()]
        ))
    );
    assert_eq!(
        made("proto[method]"),
        Some((18, 20, "methods.concat('all')".into(), vec![]))
    );
    assert_eq!(made("res.sendfile"), None);
    // A range inside the loop's member is about it; the wrapped function is the member's.
    assert_eq!(range(&s, 6, 6), ["method app[method]"]);
    assert_eq!(range(&s, 41, 41), ["method res.sendfile"]);
}

/// A module's export list gives its definitions the names importers write: zod's `objectType`
/// is `z.object` (`export { objectType as object }`; TypeScript walk, stop 53).
#[test]
fn an_export_lists_aliases_are_the_definitions_other_names() {
    let ts = "const objectType = ZodObject.create;\nfunction stringType() {}\ntype TypeOf<T> = T;\nconst z = {};\nexport { objectType as object, stringType as string, stringType, z as default };\nexport type { TypeOf as infer };\nexport { other as renamed } from './other';\n";
    let s = extract("src/types.ts", ts).expect("typescript");
    let aliases = |name: &str| {
        (s.definitions.iter())
            .find(|d| d.name == name)
            .map(|d| d.aliases.clone())
            .unwrap_or_default()
    };
    assert_eq!(aliases("objectType"), ["object"]);
    assert_eq!(aliases("stringType"), ["string"]);
    assert_eq!(aliases("TypeOf"), ["infer"]);
    assert!(aliases("z").is_empty());
    assert!(s
        .definitions
        .iter()
        .all(|d| !d.aliases.contains(&"renamed".to_string())));
    let js = "function parse() {}\nmodule.exports = {};\nexport { parse as parseQuery };\n";
    let s = extract("lib/qs.mjs", js).expect("javascript");
    assert_eq!(s.definitions[0].aliases, ["parseQuery"]);
}

/// A C source as real projects write it: macros, typedef'd structs and enums, an options
/// table, prototypes, functions under `#ifdef`, a pointer return type, a K&R definition.
const C_SOURCE: &str = r#"#include <stdio.h>
#include "util.h"

#define MAX_ARGS 10
#define SQR(x) ((x) * (x))

enum { DEPTH = 64, WIDTH };

typedef enum color { RED, GREEN = 2 } color_t;
typedef int (*handler_fn)(int argc, char **argv);

typedef struct {
    const char *name;
    handler_fn run;
} command_t;

struct node {
    struct node *next;
    union { int i; float f; } value;
    struct { int line; };
    int (*visit)(struct node *);
};

/* The options the parser knows. */
static const struct option longopts[] = {
    {"help", no_argument, NULL, 'h'},
    {NULL, 0, NULL, 0},
};
extern int verbose;
static int counter, *cursor;
static int (*hook)(void);

char *dup_str(const char *s);
static int parse_args(int argc, char **argv);

#ifdef HAVE_COLOR
/* Paints the output. */
static inline int paint(int fd)
{
    int local = fd;
    return local;
}
#else
static int paint(int fd) { return 0; }
#endif

char *
make_name(void)
{
    return NULL;
}

int old_style(a, b)
    int a;
    char *b;
{
    return a;
}

static int parse_args(int argc, char **argv)
{
    static int calls = 0;
    for (int i = 0; i < argc; i++) {
        calls++;
    }
    return calls;
}
"#;

#[test]
fn c_definitions() {
    let s = extract("src/main.c", C_SOURCE).expect("c");
    assert_eq!(
        listing(&s),
        [
            "macro MAX_ARGS 4-4",
            "macro SQR 5-5",
            "constant DEPTH 7-7",
            "constant WIDTH 7-7",
            "enum color_t 9-9",
            "type handler_fn 10-10",
            "struct command_t 12-15",
            "struct node 17-22",
            "variable longopts 24-28",
            "variable verbose 29-29",
            "variable counter 30-30",
            "variable cursor 30-30",
            "variable hook 31-31",
            "function dup_str 33-33",
            "function parse_args 34-34",
            "function paint 37-42",
            "function paint 44-44",
            "function make_name 47-51",
            "function old_style 53-58",
            "function parse_args 60-67",
        ]
    );
    // Names in C are flat; the tag of a typedef'd struct or enum is another name for it.
    let color = (s.definitions.iter()).find(|d| d.name == "color_t");
    assert_eq!(
        color.map(|d| d.aliases.clone()),
        Some(vec!["color".to_string()])
    );
    // Locals (`local`, `calls`, the loop's `i`) are not definitions.
    assert!(s
        .definitions
        .iter()
        .all(|d| !["local", "calls", "i"].contains(&d.name.as_str())));
    // A range over the prototypes names both functions; one inside a function names it.
    assert_eq!(
        range(&s, 33, 34),
        ["function dup_str", "function parse_args"]
    );
    assert_eq!(range(&s, 62, 64), ["function parse_args"]);
    assert_eq!(range(&s, 40, 41), ["function paint"]);
    assert!(s.unparsed.is_empty(), "{:?}", s.unparsed);
    // Members and the enumerators of a named enum are fields; an unnamed struct's members
    // are the named member's it types (`value.i`), an anonymous member's the struct's.
    assert_eq!(
        members("src/main.c", C_SOURCE),
        [
            "variant color_t.RED 9",
            "variant color_t.GREEN 9",
            "field command_t.name 13",
            "field command_t.run 14",
            "field node.next 18",
            "field node.value 19",
            "field node.line 20",
            "field node.visit 21",
        ]
    );
}

#[test]
fn a_c_header_names_its_prototypes_and_is_c_unless_its_code_is_cpp() {
    use ontoly_graph::sources::symbols::{reads_as_cpp, Lang};
    let header = "#ifndef UTIL_H\n#define UTIL_H\n\n#ifdef __cplusplus\nextern \"C\" {\n#endif\n\n/* Copies `s`. */\nchar *dup_str(const char *s);\nint parse(int argc, char **argv);\nstruct buf { char *data; int class; };\nextern struct buf *new;\n\n#ifdef __cplusplus\n}\ntemplate <typename T> T id(T x) { return x; }\n#endif\n#endif\n";
    assert_eq!(Lang::for_file("include/util.h", header), Some(Lang::C));
    let s = extract("include/util.h", header).expect("c header");
    // The include guard names no API.
    assert_eq!(
        listing(&s),
        [
            "function dup_str 8-9",
            "function parse 10-10",
            "struct buf 11-11",
            "variable new 12-12",
        ]
    );
    assert_eq!(range(&s, 9, 10), ["function dup_str", "function parse"]);
    // C++ headers: a class, a namespace, a template outside `#ifdef __cplusplus`, a version
    // check (which only C++ code asks), a standard header without extension.
    for cpp in [
        "class Widget {\npublic:\n  void draw();\n};\n",
        "namespace util {\nint f();\n}\n",
        "#if __cplusplus >= 201103L\ntemplate <typename T> struct Box { T v; };\n#endif\n",
        "#include <string>\nint size(const std::string& s);\n",
        "// class Foo {\nint x = a::b;\n",
    ] {
        assert!(reads_as_cpp(cpp), "{cpp}");
        assert_eq!(Lang::for_file("a/b.h", cpp), Some(Lang::Cpp), "{cpp}");
    }
    // C that only looks like it: `class` and `new` as names, C++ in comments or strings.
    for c in [
        "struct s { int class; };\nint new(void);\n",
        "/* namespace x { */\nint f(void);\n",
        "const char *usage = \"std::string\";\n",
        "#ifdef __cplusplus\nnamespace c { }\n#endif\n",
        "#if !defined __cplusplus || defined _WRAP\n#else\nusing std::abs;\n#endif\n",
    ] {
        assert!(!reads_as_cpp(c), "{c}");
    }
    // By extension alone, a `.h` is C and the C++ extensions are C++.
    assert_eq!(Lang::for_path("a.h"), Some(Lang::C));
    for ext in [
        "cc", "cpp", "cxx", "c++", "hpp", "hh", "hxx", "h++", "ipp", "tpp",
    ] {
        assert_eq!(
            Lang::for_path(&format!("a.{ext}")),
            Some(Lang::Cpp),
            "{ext}"
        );
    }
    assert!(Lang::C.kin(Lang::Cpp) && !Lang::C.kin(Lang::Go));
}

const CPP_SOURCE: &str = r#"#include <string>
namespace outer {
namespace inner::deep {
int helper(int x);
}

/// A widget.
template <typename T>
class WIDGET_EXPORT Widget : public Base, private ns::Mixin<T> {
public:
    Widget();
    explicit Widget(int size);
    ~Widget();
    Widget& operator=(const Widget&) = delete;
    bool operator==(const Widget& o) const { return true; }
    operator bool() const;
    virtual void draw() = 0;
    static constexpr int kMax = 3;
    template <typename U> U convert() const;
    struct Nested { int z; };
    using value_type = T;
    enum class Mode { Fast, Slow };
    enum { kInline = 4 };
private:
    int size_;
    std::string name_;
};

using Alias = Widget<int>;
typedef Widget<char> CharWidget;

template <typename T>
Widget<T>::Widget() : size_(0) {}

template <typename T>
void Widget<T>::draw() {
    int local = 0;
}

int free_function(const std::string& s) {
    return 0;
}
}  // namespace outer

void outer::Widget<int>::extra() {}
int outer::Widget<int>::count = 0;
int global_count = 0;
constexpr int limit = 10;
namespace {
int hidden() { return 1; }
}
extern "C" {
int c_api(void);
}
struct Point { int x, y; };
"#;

#[test]
fn cpp_definitions() {
    let s = extract("src/widget.cpp", CPP_SOURCE).expect("c++");
    assert_eq!(
        listing(&s),
        [
            "module outer 2-43",
            "module outer::inner::deep 3-5",
            "function outer::inner::deep::helper 4-4",
            "class outer::Widget 7-27",
            "method outer::Widget::Widget 11-11",
            "method outer::Widget::Widget 12-12",
            "method outer::Widget::~Widget 13-13",
            "method outer::Widget::operator= 14-14",
            "method outer::Widget::operator== 15-15",
            "method outer::Widget::operator bool 16-16",
            "method outer::Widget::draw 17-17",
            "method outer::Widget::convert 19-19",
            "struct outer::Widget::Nested 20-20",
            "type outer::Widget::value_type 21-21",
            "enum outer::Widget::Mode 22-22",
            "constant outer::Widget::kInline 23-23",
            "type outer::Alias 29-29",
            "type outer::CharWidget 30-30",
            "method outer::Widget::Widget 32-33",
            "method outer::Widget::draw 35-38",
            "function outer::free_function 40-42",
            "method outer::Widget::extra 45-45",
            "variable outer::Widget::count 46-46",
            "variable global_count 47-47",
            "constant limit 48-48",
            "function hidden 50-50",
            "function c_api 53-53",
            "struct Point 55-55",
        ]
    );
    // The class starts at its doc comment and template line; it is written on line 9.
    let widget = (s.definitions.iter()).find(|d| d.qualified == "outer::Widget");
    assert_eq!(widget.map(|d| d.item_line), Some(9));
    // An out-of-class definition is its class's method, inside a template's body too.
    assert_eq!(range(&s, 37, 37), ["method outer::Widget::draw"]);
    assert_eq!(
        members("src/widget.cpp", CPP_SOURCE),
        [
            "field outer::Widget::kMax 18",
            "field outer::Widget::Nested::z 20",
            "variant outer::Widget::Mode::Fast 22",
            "variant outer::Widget::Mode::Slow 22",
            "field outer::Widget::size_ 25",
            "field outer::Widget::name_ 26",
            "field Point::x 55",
            "field Point::y 55",
        ]
    );
    let bases: Vec<String> = (heritage("src/widget.cpp", CPP_SOURCE).into_iter())
        .map(|h| format!("{} {} < {}", h.line, h.class, h.bases.join(", ")))
        .collect();
    assert_eq!(bases, ["9 Widget < Base, Mixin"]);
    // A `.h` holding C++ is read as C++.
    let header = "#pragma once\nclass API Panel : public Window {\npublic:\n  void show();\n};\n";
    let s = extract("include/panel.h", header).expect("c++ header");
    assert_eq!(listing(&s), ["class Panel 2-5", "method Panel::show 4-4"]);
}

#[test]
fn code_only_a_cpp_compiler_reads_does_not_break_a_c_file() {
    // jq's `builtin.c`: `extern "C"` under `#ifdef __cplusplus`, its declaration past the
    // `#endif`, read by the C grammar as broken code to the end of the file.
    let c = "#ifdef __cplusplus\nextern \"C\"\n#endif\nvoid *alloca (size_t);\n\n#ifndef __cplusplus\n#define CAST(t, e) ((t) (e))\n#else\n#define CAST(t, e) (static_cast<t> (e))\ntemplate <typename T> T id(T x) { return x; }\n#endif\n\nstatic int f_length(int x)\n{\n    return x;\n}\n";
    let s = extract("src/builtin.c", c).expect("c");
    assert_eq!(
        listing(&s),
        [
            "function alloca 4-4",
            "macro CAST 7-7",
            "function f_length 13-16"
        ]
    );
    assert!(s.unparsed.is_empty(), "{:?}", s.unparsed);
}

#[test]
fn a_function_with_a_header_per_platform_is_read_as_a_preprocessor_reads_it() {
    // jq 1.7's `main.c`: one body under two alternative headers. Read with both branches,
    // the file is broken from the `#ifdef` to the body's end.
    let c = "static int isoption(const char *t)\n{\n  return t[0] == '-';\n}\n\n#ifdef WIN32\nint umain(int argc, char* argv[]);\n\nint wmain(int argc, wchar_t* wargv[]) {\n  return umain(argc, 0);\n}\n\nint umain(int argc, char* argv[]) {\n#else /*}*/\nint main(int argc, char* argv[]) {\n#endif\n  int ret = 0;\n#if defined(HAVE_SETLOCALE) && \\\n    defined(LC_ALL)\n  setlocale(LC_ALL, \"\");\n#endif\n  if (isoption(argv[1])) {\n    ret = 2;\n  }\n  return ret;\n}\n\nstatic void after(void)\n{\n}\n";
    let s = extract("src/main.c", c).expect("c");
    assert!(s.unparsed.is_empty(), "{:?}", s.unparsed);
    assert_eq!(
        listing(&s),
        [
            "function isoption 1-4",
            "function umain 7-7",
            "function wmain 9-11",
            "function umain 13-26",
            "function main 15-26",
            "function after 28-30",
        ]
    );
    // A range in the body is in the innermost of the alternatives, the one a reader of the
    // `#else` branch knows.
    assert_eq!(range(&s, 22, 24), ["function main"]);
    // A file that parses as written is read as written, every branch's definitions kept.
    let both = "#ifdef HAVE_ONIG\nstatic int f_match(int x) {\n  return x;\n}\n#else\nstatic int f_match(int x) {\n  return 0;\n}\n#endif\n";
    let s = extract("src/builtin.c", both).expect("c");
    assert_eq!(
        listing(&s),
        ["function f_match 2-4", "function f_match 6-8"]
    );
}

//! Pasted traces: a question that holds a traceback, a stack trace or a panic is read for what
//! it says, apart from how the runtime prints it.
//!
//! Agents paste whole traces. Read as prose, a trace's frames outweigh its message: the
//! asker's own paths and function names, the runtime's boilerplate ("most recent call last",
//! "run with `RUST_BACKTRACE=1`") and the standard library's frames are words no page writes,
//! so the answer looked unanswerable, and a long trace could push its final exception past the
//! terms a query keeps. A [`Reading`] splits a trace into what it *says* (the asker's own
//! lines and the errors' messages, searched as any question) and what is *around* it (the
//! library's frames — their function names and module paths — and the code lines printed
//! under a frame), which ranking searches at a lower weight. Frames of the asker's code and of
//! a language's standard library, locations and boilerplate are dropped.
//!
//! Recognised: Python tracebacks, Node.js and Java stack traces (`at …`), Rust panics and
//! backtraces, Go panics. A question without a frame or a trace's header is not a trace.

use std::borrow::Cow;

/// A question read as a pasted trace.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reading {
    /// The asker's own lines and the errors' messages.
    pub said: String,
    /// The library frames' names and module paths, and the code lines printed with frames.
    pub around: String,
}

/// Where a frame's code lives.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Origin {
    /// An installed dependency (`site-packages/`, `node_modules/`, cargo's registry, Go's
    /// module cache): the project a workspace documents, or one beside it.
    Library,
    /// The language's runtime or standard library.
    Runtime,
    /// The asker's own code.
    Own,
}

const LIBRARY_DIRS: &[&str] = &[
    "site-packages/",
    "dist-packages/",
    "node_modules/",
    ".cargo/registry/",
    ".cargo/git/",
    "/pkg/mod/",
];

const RUNTIME_DIRS: &[&str] = &[
    "/lib/python",
    "\\lib\\",
    "node:",
    "/rustc/",
    "/usr/local/go/",
    "/usr/lib/go",
    "<frozen ",
    "java.base/",
];

fn origin(path: &str) -> Origin {
    let path = path.trim();
    if LIBRARY_DIRS.iter().any(|d| path.contains(d)) {
        Origin::Library
    } else if RUNTIME_DIRS.iter().any(|d| path.contains(d))
        || path.starts_with("internal/")
        || path.starts_with('<')
    {
        Origin::Runtime
    } else {
        Origin::Own
    }
}

/// A library frame's path from its package on (`requests/models.py` of
/// `…/site-packages/requests/models.py`), which is how a workspace cites it.
fn package_path(path: &str) -> &str {
    LIBRARY_DIRS
        .iter()
        .filter_map(|d| path.rfind(d).map(|at| &path[at + d.len()..]))
        .min_by_key(|p| p.len())
        .unwrap_or(path)
}

/// One line of a pasted text, as a trace prints it.
#[derive(Debug, PartialEq, Eq)]
enum Line<'a> {
    /// The runtime's own words: headers, chaining notes, hints, footers, markers.
    Boilerplate,
    /// A frame: the code it ran in and the function's name (if printed).
    Frame {
        path: &'a str,
        name: Option<&'a str>,
    },
    /// `  12: core::result::unwrap_failed`: a Rust backtrace's frame when a location follows.
    Numbered(&'a str),
    /// A location on its own (`/app/index.js:9`, `\t/app/main.go:12 +0x1d`).
    Location(&'a str),
    /// A panic's message, with its location dropped.
    Message(&'a str),
    /// Anything else.
    Text(&'a str),
}

/// `path:line` or `path:line:column`, optionally followed by Go's ` +0x…` offset.
fn is_location(s: &str) -> bool {
    let s = s.trim();
    let s = s.split(" +0x").next().unwrap_or(s);
    let mut parts = s.rsplitn(3, ':');
    let last = parts.next().unwrap_or("");
    let digits = |p: &str| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit());
    if !digits(last) {
        return false;
    }
    let rest: Vec<&str> = parts.collect();
    let path = match rest.as_slice() {
        [col_or_path, path] if digits(col_or_path) => *path,
        [line, path] => return !path.is_empty() && !line.contains(' ') && looks_like_path(line),
        [path] => path,
        _ => return false,
    };
    looks_like_path(path)
}

fn looks_like_path(p: &str) -> bool {
    !p.contains(' ') && (p.contains('/') || p.contains('\\') || p.contains('.'))
}

fn classify(line: &str) -> Line<'_> {
    let t = line.trim();
    const BOILERPLATE: &[&str] = &[
        "Traceback (most recent call last):",
        "During handling of the above exception, another exception occurred:",
        "The above exception was the direct cause of the following exception:",
        "stack backtrace:",
        // anyhow's error report.
        "Stack backtrace:",
        "Caused by:",
    ];
    if BOILERPLATE.contains(&t)
        || t.starts_with("note: run with `RUST_BACKTRACE")
        || t.starts_with("note: Some details are omitted")
        || t.starts_with("goroutine ") && t.ends_with(':')
        || t.starts_with("Node.js v")
        || t.starts_with("exit status ")
        || (t.starts_with("... ") && t.ends_with(" more"))
        || (!t.is_empty() && t.chars().all(|c| matches!(c, '^' | '~' | ' ')))
    {
        return Line::Boilerplate;
    }
    // Python: `File "/app/x.py", line 12, in handler`.
    if let Some(rest) = t.strip_prefix("File \"") {
        if let Some((path, after)) = rest.split_once("\", line ") {
            let name = after.split_once(", in ").map(|(_, n)| n.trim());
            return Line::Frame { path, name };
        }
    }
    // Node.js and Java: `at fn (/app/x.js:3:9)`, `at /app/x.js:3:9`, `at a.b.C.m(C.java:10)`.
    if let Some(rest) = t.strip_prefix("at ") {
        let rest = rest.strip_prefix("async ").unwrap_or(rest);
        let printed = |p: &str| {
            is_location(p) || p.starts_with("node:") || p == "<anonymous>" || p == "Native Method"
        };
        if let Some(open) = rest.rfind(" (").filter(|_| rest.ends_with(')')) {
            let path = &rest[open + 2..rest.len() - 1];
            if printed(path) {
                return Line::Frame {
                    path,
                    name: Some(&rest[..open]),
                };
            }
        }
        if let Some(open) = rest.find('(').filter(|_| rest.ends_with(')')) {
            // Java: the class names its package; the file in brackets carries no directory.
            let name = &rest[..open];
            if !name.contains(' ') && printed(&rest[open + 1..rest.len() - 1]) {
                return Line::Frame {
                    path: name,
                    name: Some(name),
                };
            }
        }
        if is_location(rest) {
            return Line::Frame {
                path: rest,
                name: None,
            };
        }
    }
    // Rust: `thread 'main' panicked at src/main.rs:4:5:` and the older
    // `thread 'main' panicked at 'message', src/main.rs:4:5`.
    // Since Rust 1.89 the thread's id follows its name: `thread 'main' (4711) panicked at`.
    if let Some((_, rest)) = t
        .strip_prefix("thread '")
        .and_then(|r| r.split_once(" panicked at "))
    {
        let rest = rest.trim_end_matches(':');
        return match rest.rsplit_once(", ") {
            Some((msg, at)) if is_location(at) => Line::Message(msg.trim_matches('\'')),
            _ if is_location(rest) => Line::Message(""),
            _ => Line::Message(rest),
        };
    }
    // Rust backtrace frame `  12: core::result::unwrap_failed` (a frame only when its
    // location follows, or in a backtrace: see `read`); `RUST_BACKTRACE=full` prints the
    // address first (`12:     0x560a95ea95da - std[e28293b1aa0f68bd]::rt::lang_start`), and a
    // trait's or an impl's method has spaces (`<&dyn Fn() + Sync as FnOnce<()>>::call_once`,
    // `anyhow::<impl anyhow::Context<T,E> for Result<T,E>>::with_context`).
    if let Some((n, name)) = t.split_once(": ") {
        let name = name.trim_start();
        let name = match name.strip_prefix("0x").and_then(|a| a.split_once(" - ")) {
            Some((address, name)) if address.bytes().all(|b| b.is_ascii_hexdigit()) => name,
            _ => name,
        };
        if !n.is_empty()
            && n.bytes().all(|b| b.is_ascii_digit())
            && (!name.contains(' ') || name.contains("::"))
        {
            return Line::Numbered(name);
        }
    }
    if is_location(t) {
        return Line::Location(t);
    }
    Line::Text(line)
}

/// Where the frame a name opens is: the location on the next line (a Rust backtrace's
/// `at /rustc/…`, a Go trace's tab-indented `/app/main.go:12 +0x1d`), if one follows.
fn located<'a>(lines: &[Line<'a>], raw: &[&str], i: usize) -> Option<&'a str> {
    match lines.get(i + 1)? {
        Line::Frame { path, name: None } => Some(path),
        Line::Location(path) if raw.get(i + 1).is_some_and(|r| r.starts_with('\t')) => Some(path),
        _ => None,
    }
}

/// A Go frame's function (`main.main()`, `github.com/x/y.(*T).M(0xc000…)`) without its
/// arguments.
fn go_function(t: &str) -> Option<&str> {
    let t = t.trim();
    (t.ends_with(')') && !t.contains(' ') && t.contains('.'))
        .then(|| t.rfind('(').map(|open| &t[..open]))
        .flatten()
}

/// A frame as read: where its code lives, its function and its module's path, as printed.
#[derive(Debug, Clone, Copy)]
struct Seen<'a> {
    origin: Origin,
    name: Option<&'a str>,
    path: Option<&'a str>,
}

/// Reads `query` as a pasted trace; `None` when it holds none (no frame, no traceback header
/// or panic line), so an ordinary question is searched as typed.
pub fn read<'q>(query: &'q str) -> Option<Reading> {
    let raw: Vec<&str> = query.lines().collect();
    let lines: Vec<Line> = raw.iter().map(|l| classify(l)).collect();
    // The frame each line opens, if any; a location that belongs to the frame above it is no
    // line of its own.
    let mut frames: Vec<Option<Seen>> = vec![None; raw.len()];
    let mut owned = vec![false; raw.len()];
    // Inside a Rust backtrace every numbered line is a frame, with or without its location
    // (`17: main`, `20: _start`).
    let mut in_backtrace = false;
    for (i, line) in lines.iter().enumerate() {
        if owned[i] {
            continue;
        }
        let t = raw[i].trim();
        if t == "stack backtrace:" || t == "Stack backtrace:" {
            in_backtrace = true;
        } else if !matches!(line, Line::Numbered(_)) {
            in_backtrace = false;
        }
        // A name on a line of its own is a frame only when its location follows.
        let name = match line {
            Line::Numbered(name) => Some(*name),
            Line::Text(t) => go_function(t),
            _ => None,
        };
        let frame = match line {
            Line::Frame { path, name } => Some(Seen {
                origin: origin(path),
                name: *name,
                path: Some(*path),
            }),
            _ => name.and_then(|name| match located(&lines, &raw, i) {
                Some(p) => Some(Seen {
                    origin: origin(p),
                    name: Some(name),
                    path: None,
                }),
                // Unlocated, it is the runtime's or the binary's own start.
                None => in_backtrace.then_some(Seen {
                    origin: Origin::Runtime,
                    name: Some(name),
                    path: None,
                }),
            }),
        };
        if frame.is_some()
            && !matches!(line, Line::Frame { .. })
            && located(&lines, &raw, i).is_some()
        {
            owned[i + 1] = true;
        }
        frames[i] = frame;
    }
    let header = raw.iter().any(|l| {
        let t = l.trim();
        t == "Traceback (most recent call last):" || t.starts_with("goroutine ")
    }) || lines.iter().any(|l| matches!(l, Line::Message(_)));
    if !header && frames.iter().all(Option::is_none) {
        return None;
    }
    // A Rust panic prints the error it unwrapped in its `Debug` form.
    let panic = lines.iter().any(|l| matches!(l, Line::Message(_)));
    let mut said: Vec<Cow<str>> = Vec::new();
    let mut around: Vec<Cow<str>> = Vec::new();
    let mut say = |text: &'q str, around: &mut Vec<Cow<'q, str>>| {
        if panic {
            let (s, a) = panic_line(text);
            said.extend(s);
            around.extend(a);
        } else {
            said.push(Cow::Borrowed(text));
        }
    };
    // The origin of the last frame seen, which the code lines under it share.
    let mut last: Option<Origin> = None;
    for (i, line) in lines.iter().enumerate() {
        if owned[i] {
            continue;
        }
        if let Some(f) = frames[i] {
            last = Some(f.origin);
            if f.origin == Origin::Library {
                around.extend(
                    f.path
                        .map(|p| Cow::Borrowed(package_path(without_position(p)))),
                );
                around.extend(f.name.map(rust_symbol));
            }
            continue;
        }
        match line {
            Line::Boilerplate | Line::Location(_) | Line::Frame { .. } => {}
            Line::Message("") => {}
            Line::Message(m) => say(m, &mut around),
            Line::Numbered(_) | Line::Text(_) => {
                let t = raw[i];
                if t.trim().is_empty() {
                    continue;
                }
                // An indented line under a Python frame is its code; a line a caret marks is
                // the code a Node.js error points at.
                let indented = t.starts_with("    ") || t.starts_with('\t');
                let marked = raw.get(i + 1).is_some_and(|n| n.trim().starts_with('^'));
                if (indented && last.is_some()) || marked {
                    if last != Some(Origin::Runtime) {
                        around.push(Cow::Borrowed(t.trim()));
                    }
                } else {
                    last = None;
                    say(t.trim(), &mut around);
                }
            }
        }
    }
    Some(Reading {
        said: said.join("\n"),
        around: around.join("\n"),
    })
}

/// `name` without the hash a legacy-mangled Rust symbol ends with, as `RUST_BACKTRACE=full`
/// prints it (`indexmap::map::IndexMap<K,V,S>::insert::h1a2b3c4d5e6f7a8b`: `h` and 16 hex
/// digits).
pub(crate) fn without_rust_hash(name: &str) -> &str {
    match name.trim_end().rsplit_once("::") {
        Some((head, hash))
            if !head.is_empty()
                && hash.len() == 17
                && hash.starts_with('h')
                && hash[1..].bytes().all(|b| b.is_ascii_hexdigit()) =>
        {
            head
        }
        _ => name,
    }
}

/// A Rust symbol as a backtrace prints it, without the crate hashes of `RUST_BACKTRACE=full`
/// (`std[e28293b1aa0f68bd]::rt::lang_start`) and the legacy mangling's hash
/// (`toml::de::from_str::h1a2b3c4d5e6f7a8b`): they are no words of anything.
fn rust_symbol(name: &str) -> Cow<'_, str> {
    let hex16 = |s: &str| s.len() == 16 && s.bytes().all(|b| b.is_ascii_hexdigit());
    let mut name = Cow::Borrowed(without_rust_hash(name));
    if name.contains('[') {
        let mut out = String::with_capacity(name.len());
        let mut rest = name.as_ref();
        while let Some(open) = rest.find('[') {
            let after = &rest[open + 1..];
            match after.find(']') {
                Some(close) if hex16(&after[..close]) => {
                    out.push_str(&rest[..open]);
                    rest = &after[close + 1..];
                }
                _ => {
                    out.push_str(&rest[..=open]);
                    rest = after;
                }
            }
        }
        out.push_str(rest);
        name = Cow::Owned(out);
    }
    name
}

/// A line of a Rust panic's message. `unwrap()` prints `called `Result::unwrap()` on an `Err`
/// value: ` and `expect("msg")` prints `msg: ` before the error's `Debug` form (`Error { inner:
/// TomlError { message: "expected `.`, `=`", raw: Some("[package]\nname"), keys: [], span:
/// Some(15..16) } }`): the wrapper is the runtime's, the same on every such panic, and the
/// field names, `Some` and the numbers are the printer's. What the error says is its strings
/// (unescaped: `\n` ends a word); its type and variant names (`TomlError`, `NotPresent`) are
/// around it. Other lines are said as they are.
fn panic_line(line: &str) -> (Vec<Cow<'_, str>>, Vec<Cow<'_, str>>) {
    const UNWRAPPED: &[&str] = &[
        "called `Result::unwrap()` on an `Err` value: ",
        "called `Result::unwrap_err()` on an `Ok` value: ",
    ];
    let (head, value) = match UNWRAPPED.iter().find_map(|w| line.strip_prefix(w)) {
        Some(value) => ("", value),
        None => match line.split_once(": ") {
            Some((head, value)) if debug_structure(value) => (head, value),
            _ => return (vec![Cow::Borrowed(line)], Vec::new()),
        },
    };
    match debug_value(value) {
        Some(d) => {
            let mut said: Vec<Cow<str>> = Vec::new();
            if !head.trim().is_empty() {
                said.push(Cow::Borrowed(head));
            }
            said.extend(d.strings.into_iter().map(Cow::Owned));
            (said, d.names.into_iter().map(Cow::Borrowed).collect())
        }
        None => (vec![Cow::Borrowed(line)], Vec::new()),
    }
}

/// Whether `v` is a `Debug` form of a struct or a tuple variant (`Os { code: 2 }`,
/// `Custom("…")`): what `expect`'s message is followed by.
fn debug_structure(v: &str) -> bool {
    let name_end = v
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == ':'))
        .unwrap_or(v.len());
    v.starts_with(|c: char| c.is_ascii_uppercase())
        && (v[name_end..].starts_with(" {") || v[name_end..].starts_with('('))
        && debug_value(v).is_some()
}

/// What a `Debug` form holds: its strings, unescaped, and its type and variant names.
struct Debugged<'a> {
    strings: Vec<String>,
    names: Vec<&'a str>,
}

/// Reads a Rust `Debug` form; `None` when `v` is not one (brackets that do not balance, a
/// string that does not end, anything but names, strings, numbers and punctuation).
fn debug_value(v: &str) -> Option<Debugged<'_>> {
    let v = v.trim();
    if !v.starts_with(|c: char| c.is_ascii_uppercase() || c == '"') {
        return None;
    }
    let b = v.as_bytes();
    let mut out = Debugged {
        strings: Vec::new(),
        names: Vec::new(),
    };
    let mut open: Vec<u8> = Vec::new();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'"' => {
                let mut s = String::new();
                let mut chars = v[i + 1..].char_indices();
                let mut end = None;
                while let Some((k, c)) = chars.next() {
                    match c {
                        '"' => {
                            end = Some(i + 1 + k + 1);
                            break;
                        }
                        '\\' => match chars.next() {
                            Some((_, 'n' | 't' | 'r')) => s.push(' '),
                            Some((_, e)) => s.push(e),
                            None => return None,
                        },
                        c => s.push(c),
                    }
                }
                i = end?;
                if s.chars().any(char::is_alphanumeric) {
                    out.strings.push(s);
                }
            }
            b'{' | b'(' | b'[' => {
                open.push(b[i]);
                i += 1;
            }
            b'}' | b')' | b']' => {
                let want = match b[i] {
                    b'}' => b'{',
                    b')' => b'(',
                    _ => b'[',
                };
                if open.pop() != Some(want) {
                    return None;
                }
                i += 1;
            }
            c if c.is_ascii_alphabetic() || c == b'_' => {
                let start = i;
                while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_' || b[i] == b':')
                {
                    i += 1;
                }
                let word = v[start..i].trim_end_matches(':');
                let field = v[start..i].ends_with(':') && !v[start..i].ends_with("::");
                if !field
                    && word.starts_with(|c: char| c.is_ascii_uppercase())
                    && !matches!(word, "Some" | "None" | "Ok" | "Err")
                    && !out.names.contains(&word)
                {
                    out.names.push(word);
                }
            }
            c if c.is_ascii_digit() || b" ,.:-+'".contains(&c) => i += 1,
            _ => return None,
        }
    }
    open.is_empty().then_some(out)
}

/// `x.js:3:9` → `x.js`, `x.py` → `x.py`.
fn without_position(path: &str) -> &str {
    let mut p = path;
    for _ in 0..2 {
        match p.rsplit_once(':') {
            Some((head, n)) if !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()) => p = head,
            _ => break,
        }
    }
    p
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_python_traceback_says_its_exception_and_keeps_library_frames_around() {
        let q = "getting this on deploy:\nTraceback (most recent call last):\n  File \"/home/ann/billing/app/main.py\", line 88, in <module>\n    sync_invoices(client)\n  File \"/home/ann/.venvs/b/lib/python3.11/site-packages/requests/models.py\", line 910, in json\n    return complexjson.loads(self.text, **kwargs)\n  File \"/usr/lib/python3.11/json/decoder.py\", line 355, in raw_decode\n    raise JSONDecodeError(\"Expecting value\", s, err.value) from None\njson.decoder.JSONDecodeError: Expecting value: line 1 column 1 (char 0)\n\nDuring handling of the above exception, another exception occurred:\n\nrequests.exceptions.JSONDecodeError: Expecting value: line 1 column 1 (char 0)";
        let r = read(q).expect("a traceback");
        assert_eq!(
            r.said,
            "getting this on deploy:\njson.decoder.JSONDecodeError: Expecting value: line 1 column 1 (char 0)\nrequests.exceptions.JSONDecodeError: Expecting value: line 1 column 1 (char 0)"
        );
        assert_eq!(
            r.around,
            "sync_invoices(client)\nrequests/models.py\njson\nreturn complexjson.loads(self.text, **kwargs)"
        );
    }

    #[test]
    fn a_node_stack_keeps_the_message_and_the_packages_frames() {
        let q = "/home/bo/cli/index.js:9\nprogram.parse();\n        ^\n\nTypeError: Cannot read properties of undefined (reading 'name')\n    at Command.parseOptions (/home/bo/cli/node_modules/commander/lib/command.js:1412:20)\n    at Object.<anonymous> (/home/bo/cli/index.js:9:9)\n    at node:internal/main/run_main_module:28:49\n\nNode.js v20.11.0";
        let r = read(q).expect("a stack");
        assert_eq!(
            r.said,
            "TypeError: Cannot read properties of undefined (reading 'name')"
        );
        assert_eq!(
            r.around,
            "program.parse();\ncommander/lib/command.js\nCommand.parseOptions"
        );
    }

    #[test]
    fn a_rust_panic_drops_its_location_and_the_runtime() {
        let new = "thread 'main' (4711) panicked at src/main.rs:4:5:\ncalled `Option::unwrap()` on a `None` value\nnote: run with `RUST_BACKTRACE=1` environment variable to display a backtrace";
        let r = read(new).expect("a panic");
        assert_eq!(r.said, "called `Option::unwrap()` on a `None` value");
        let old = "thread 'main' panicked at 'index out of bounds', src/lib.rs:10:9\nstack backtrace:\n   0: rust_begin_unwind\n             at /rustc/abc/library/std/src/panicking.rs:645:5\n   1: globset::GlobBuilder::build\n             at /home/c/.cargo/registry/src/index.crates.io-6f17d22bba15001f/globset-0.4.14/src/glob.rs:12:5";
        let r = read(old).expect("a panic");
        assert_eq!(r.said, "index out of bounds");
        assert_eq!(r.around, "globset::GlobBuilder::build");
    }

    #[test]
    fn an_unwrapped_error_says_its_strings_and_names_its_types() {
        // A walk's toml panics (stop 51): the wrapper and the `Debug` form's field names were
        // read as the message, and the page quoting that form came first for every panic.
        let q = "thread 'main' (28799) panicked at src/main.rs:82:98:\ncalled `Result::unwrap()` on an `Err` value: Error { inner: Error { inner: TomlError { message: \"invalid table header\\nexpected `.`, `]`\", raw: Some(\"[dependencies\\nserde = \\\"1\\\"\\n\"), keys: [], span: Some(15..16) } } }\nnote: run with `RUST_BACKTRACE=1` environment variable to display a backtrace";
        let r = read(q).expect("a panic");
        assert_eq!(
            r.said,
            "invalid table header expected `.`, `]`\n[dependencies serde = \"1\" "
        );
        assert_eq!(r.around, "Error\nTomlError");
        // Nothing but a variant: its name is all there is to search.
        let r = read("thread 'main' panicked at src/main.rs:1:1:\ncalled `Result::unwrap()` on an `Err` value: NotPresent").expect("a panic");
        assert_eq!((r.said.as_str(), r.around.as_str()), ("", "NotPresent"));
        // `expect`'s own message stays; a line that only looks like `name: value` is said whole.
        let r = read("thread 'main' panicked at src/main.rs:1:1:\nreading config: Os { code: 2, kind: NotFound, message: \"No such file or directory\" }\nerror: Something went wrong").expect("a panic");
        assert_eq!(
            r.said,
            "reading config\nNo such file or directory\nerror: Something went wrong"
        );
        assert_eq!(r.around, "Os\nNotFound");
    }

    #[test]
    fn an_anyhow_report_and_a_full_backtrace_keep_their_frames_out() {
        let anyhow = "Error: failed to load server config\n\nCaused by:\n    invalid value: integer `80800`, expected u16\n\nStack backtrace:\n   0: <E as anyhow::context::ext::StdError>::ext_context\n             at /home/u/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/anyhow-1.0.105/src/backtrace.rs:10:14\n   1: cli::load\n             at ./src/bin/cli.rs:17:26\n   7: <&dyn core::ops::function::Fn<(), Output = i32> + core::marker::Sync as core::ops::function::FnOnce<()>>::call_once\n             at /rustc/5980/library/core/src/ops/function.rs:287:21\n  17: main\n  18: __libc_start_call_main\n             at ./csu/../sysdeps/nptl/libc_start_call_main.h:58:16\n  20: _start";
        let r = read(anyhow).expect("a report with a backtrace");
        assert_eq!(
            r.said,
            "Error: failed to load server config\ninvalid value: integer `80800`, expected u16"
        );
        assert_eq!(
            r.around,
            "<E as anyhow::context::ext::StdError>::ext_context"
        );
        let full = "thread 'main' (2419) panicked at src/main.rs:102:138:\nindex not found\nstack backtrace:\n   0:     0x560a95ea95da - std[e28293b1aa0f68bd]::backtrace_rs::backtrace::libunwind::trace\n                               at /rustc/5980/library/std/src/../../backtrace/src/backtrace/libunwind.rs:117:9\n   5:     0x560a95ebd0fa - core[c1f1a4ba060b9bfa]::fmt::write\n  21:     0x55d0 - <toml[8e2ac1f3b2c4d5e6]::value::Value as core[c1f1a4ba060b9bfa]::ops::index::Index<I>>::index::h1a2b3c4d5e6f7a8b\n                               at /home/u/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/toml-0.8.19/src/value.rs:235:25";
        let r = read(full).expect("a full backtrace");
        assert_eq!(r.said, "index not found");
        assert_eq!(
            r.around,
            "<toml::value::Value as core::ops::index::Index<I>>::index"
        );
    }

    #[test]
    fn a_go_panic_and_a_java_trace() {
        let go = "panic: runtime error: invalid memory address\n\ngoroutine 1 [running]:\ngithub.com/spf13/cobra.(*Command).execute(0xc000)\n\t/home/d/go/pkg/mod/github.com/spf13/cobra@v1.8.0/command.go:987 +0x1d\nmain.main()\n\t/home/d/app/main.go:12 +0x1d\nexit status 2";
        let r = read(go).expect("a panic");
        assert_eq!(r.said, "panic: runtime error: invalid memory address");
        assert_eq!(r.around, "github.com/spf13/cobra.(*Command).execute");
        let java = "Exception in thread \"main\" java.lang.IllegalStateException: closed\n\tat okhttp3.Call.execute(Call.java:10)\n\tat com.acme.App.main(App.java:3)\n\t... 4 more";
        let r = read(java).expect("a trace");
        assert_eq!(
            r.said,
            "Exception in thread \"main\" java.lang.IllegalStateException: closed"
        );
    }

    #[test]
    fn no_question_of_the_corpora_is_a_trace_and_the_pasted_traces_are() {
        let corpora = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../testdata/corpora");
        let mut questions = 0;
        let mut traces = 0;
        let mut read_traces = 0;
        for entry in std::fs::read_dir(&corpora).expect("the corpora") {
            let dir = entry.expect("a corpus").path();
            // Sealed sets are read by nothing but their own measurement.
            if ["tqdm", "tealdeer", "tokei"]
                .iter()
                .any(|s| dir.ends_with(s))
            {
                continue;
            }
            for (file, trace) in [("questions.yaml", false), ("traces.yaml", true)] {
                let Ok(text) = std::fs::read_to_string(dir.join(file)) else {
                    continue;
                };
                let qs = crate::gate::parse_questions(&text).expect("the questions parse");
                for q in &qs {
                    let read_as_trace = read(&q.question).is_some();
                    if trace {
                        traces += 1;
                        read_traces += usize::from(read_as_trace);
                    } else {
                        questions += 1;
                        assert!(!read_as_trace, "{}", q.question);
                    }
                }
            }
        }
        // A command line's own one-line error (commander's `error: unknown command`) is in the
        // trace sets as users paste it, and is no trace.
        assert!(questions > 1500 && traces >= 160, "{questions} {traces}");
        assert!(read_traces * 10 >= traces * 9, "{read_traces} of {traces}");
    }

    #[test]
    fn a_question_is_no_trace() {
        for q in [
            "how does retry work",
            "error: option '--json' cannot be used with option '--csv'",
            "at what point is the session closed (see src/session.py:40)",
            "requests.exceptions.ConnectionError: Max retries exceeded",
        ] {
            assert_eq!(read(q), None, "{q}");
        }
    }
}

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
//! a language's standard library, locations and boilerplate are dropped. A Go runtime error's
//! message (`invalid memory address or nil pointer dereference`, `concurrent map read and map
//! write`) is the runtime's fixed words, the same in every program ([`GO_RUNTIME_MESSAGES`]):
//! it is kept apart ([`Reading::runtime`]), so that it can lead ranking without being the
//! question's topic, unless it is all the paste says.
//!
//! Recognised: Python tracebacks, Node.js and Java stack traces (`at …`), Rust panics and
//! backtraces, Go panics and fatal errors (a line of the runtime's own message is a trace on its
//! own), and the frames of C and C++ programs as gdb, lldb, AddressSanitizer and valgrind print
//! them (`native_frame`). A question without a frame or a trace's header is not a trace.

use std::borrow::Cow;

/// A question read as a pasted trace.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reading {
    /// The asker's own lines and the errors' messages.
    pub said: String,
    /// The library frames' names and module paths, and the code lines printed with frames.
    pub around: String,
    /// The code lines among [`Reading::around`]: source a library's authors wrote, where the
    /// rest of it is names the program printed.
    pub code: String,
    /// The runtime's own message (a Go runtime error's fixed words, without `panic: ` and
    /// `runtime error: `): what went wrong as the runtime says it of every program. Empty when
    /// it is all the paste says: it is then [`Reading::said`].
    pub runtime: String,
    /// The innermost frame of the cited code with a location: its path as printed and line.
    pub innermost: Option<(String, u32)>,
}

/// Where a frame's code lives.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Origin {
    /// An installed dependency (`site-packages/`, `node_modules/`, cargo's registry, Go's
    /// module cache, a `vendor/` directory): the project a workspace documents, or one beside
    /// it.
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
    // Go's vendored modules, and other vendored packages: code the project did not write.
    "/vendor/",
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
    /// `at com.x.Parser.parse(Parser.java:10)`: a Java (or Kotlin) frame, by its qualified
    /// method, the JVM module or class loader in front of it dropped.
    Java(&'a str),
    /// A C or C++ frame as a debugger or sanitizer prints it ([`native_frame`]), with its source
    /// location; a frame printed without one (a system library's) is the runtime's and read
    /// as [`Line::Boilerplate`].
    Native { path: &'a str, name: &'a str },
    /// `  12: core::result::unwrap_failed`: a Rust backtrace's frame when a location follows.
    Numbered(&'a str),
    /// A location on its own (`/app/index.js:9`, `\t/app/main.go:12 +0x1d`).
    Location(&'a str),
    /// A panic's message, with its location dropped.
    Message(&'a str),
    /// A Go panic's or fatal error's line (`panic: runtime error: …`, `fatal error: …`).
    Go(GoPanic<'a>),
    /// A debugger's or sanitizer's line about how a native program stopped, with what it says
    /// of every program ([`native_stop`]).
    Stopped(&'a str),
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
        || GO_DIAGNOSTICS.iter().any(|d| t.starts_with(d))
        || t.starts_with("note: run with `RUST_BACKTRACE")
        || t.starts_with("note: Some details are omitted")
        || t.starts_with("goroutine ") && t.ends_with(':')
        // Go's signal line: `[signal SIGSEGV: segmentation violation code=0x1 addr=0x0 pc=…]`.
        || t.starts_with("[signal ") && t.ends_with(']')
        || t.starts_with("Node.js v")
        // valgrind's banner and summaries, AddressSanitizer's last line.
        || [
            "Memcheck, a memory error detector",
            "Copyright (C) ",
            "Using Valgrind-",
            "Command: ",
            "Rerun with ",
            "For lists of detected",
            "For counts of detected",
            "ERROR SUMMARY: ",
            "HEAP SUMMARY:",
            "LEAK SUMMARY:",
            "ABORTING",
        ]
        .iter()
        .any(|b| t.starts_with(b))
        || t.starts_with("exit status ")
        // AddressSanitizer's account of the access and the memory: sizes, addresses, threads.
        || ["READ of size ", "WRITE of size ", "freed by thread ", "previously allocated by thread "]
            .iter()
            .any(|b| t.starts_with(b))
        || (t.starts_with("0x") && t.contains(" is located "))
        || (t.starts_with("... ") && t.ends_with(" more"))
        || (!t.is_empty() && t.chars().all(|c| matches!(c, '^' | '~' | ' ')))
        // A debugger's prompt (`(gdb) bt`).
        || t.starts_with("(gdb)")
        || t.starts_with("(lldb)")
        // AddressSanitizer's rule above its report.
        || (t.len() >= 8 && t.bytes().all(|b| b == b'='))
    {
        return Line::Boilerplate;
    }
    if let Some(stop) = native_stop(t) {
        return if stop.is_empty() {
            Line::Boilerplate
        } else {
            Line::Stopped(stop)
        };
    }
    if let Some(native) = native_frame(t) {
        return native;
    }
    if let Some(p) = go_panic(t) {
        return Line::Go(p);
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
            // Since Java 9 the module or class loader comes first (`java.base/java.lang.…`,
            // `app//com.acme.Main.main`).
            let name = &rest[..open];
            let file = &rest[open + 1..rest.len() - 1];
            if !name.contains(' ')
                && (printed(file) || file == "Unknown Source")
                && name.contains('.')
            {
                return Line::Java(name.rsplit('/').next().unwrap_or(name));
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

/// What follows the address `0x…` that `s` starts with; `None` when it starts with none.
fn after_address(s: &str) -> Option<&str> {
    let s = s.trim_start().strip_prefix("0x")?;
    let end = s.find(|c: char| !c.is_ascii_hexdigit()).unwrap_or(s.len());
    (end > 0).then(|| &s[end..])
}

/// Where C and C++ code of the system lives: the C library, the compiler's runtime, the
/// sanitizers' and valgrind's own frames (`vg_replace_malloc.c`, `asan_malloc_linux.cpp`).
const NATIVE_RUNTIME: &[&str] = &[
    "/usr/include/",
    "/usr/lib/gcc",
    "/usr/lib/llvm",
    "sysdeps/",
    "/csu/",
    "libc-start",
    "libc_start",
    "/glibc",
    "/usr/src/debug/",
    "compiler-rt/",
    "libsanitizer/",
    "sanitizer_common/",
    "asan_",
    "vg_replace_",
    "/valgrind/",
    "libstdc++",
    "/libcxx/",
    "/libc++",
];

/// A C or C++ frame (`#1  0x0000555555555141 in parse_args (argc=2) at src/main.c:57` as gdb
/// prints it, `frame #0: 0x0000000100003f6c a.out`main at main.c:5:3` as lldb does, `#0
/// 0x4c7a1b in foo /build/src/a.c:12:3` as AddressSanitizer does, `at 0x4005E4: main
/// (test.c:5)` as valgrind does, its `==PID==` prefix cut by [`without_sanitizer_noise`]):
/// [`Line::Native`] with its function (arguments dropped) and location, or
/// [`Line::Boilerplate`] when it has no source location (`in _start ()`, `from
/// /lib/x86_64-linux-gnu/libc.so.6`, `(in /usr/lib/…/vgpreload_memcheck-amd64-linux.so)`).
/// `None` for any other line.
fn native_frame(t: &str) -> Option<Line<'_>> {
    let frame = |path: &str, name: &str| -> bool { is_location(path) && !name.is_empty() };
    // valgrind: `at 0x4005E4: main (test.c:5)`, `by 0x40054F: helper (in /usr/lib/libx.so)`.
    if let Some(rest) = t.strip_prefix("at ").or_else(|| t.strip_prefix("by ")) {
        if let Some(rest) = after_address(rest).and_then(|r| r.strip_prefix(": ")) {
            let (name, loc) = rest.rsplit_once(" (")?;
            let loc = loc.strip_suffix(')')?;
            let name = native_name(name);
            return Some(if frame(loc, name) {
                Line::Native { path: loc, name }
            } else {
                Line::Boilerplate
            });
        }
        return None;
    }
    // lldb: `* frame #0: 0x… a.out`main at main.c:5:3`, `frame #1: 0x… libdyld.dylib`start + 1`.
    let lldb = t.trim_start_matches('*').trim_start();
    if let Some(rest) = lldb.strip_prefix("frame #") {
        let (n, rest) = rest.split_once(": ")?;
        if n.is_empty() || !n.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let rest = after_address(rest)?.trim_start();
        let (_, rest) = rest.split_once('`')?;
        return Some(match rest.rsplit_once(" at ") {
            Some((name, loc)) if frame(loc.trim(), native_name(name)) => Line::Native {
                path: loc.trim(),
                name: native_name(name),
            },
            _ => Line::Boilerplate,
        });
    }
    // gdb and AddressSanitizer: `#3  0x… in name (args) at path:line`, `#0  name (args) at
    // path:line`, `#0 0x… in name path:line:col`; gdb's own stop line has no number.
    let numbered = t.strip_prefix('#').and_then(|r| {
        let end = r.find(|c: char| !c.is_ascii_digit())?;
        (end > 0 && r[end..].starts_with(char::is_whitespace)).then(|| r[end..].trim_start())
    });
    let rest = match numbered {
        Some(r) => r,
        None if t.starts_with("0x") && t.contains(" in ") => t,
        None => return None,
    };
    let rest = match after_address(rest) {
        Some(r) => r.trim_start().strip_prefix("in ")?,
        None if numbered.is_some() => rest,
        None => return None,
    };
    // gdb: the location after the arguments.
    if let Some((name, loc)) = rest.rsplit_once(" at ") {
        let name = native_name(name);
        if frame(loc.trim(), name) {
            return Some(Line::Native {
                path: loc.trim(),
                name,
            });
        }
    }
    if rest.contains(" from ") || rest.ends_with(')') {
        // gdb's `in _start ()`, `from /lib/…`; ASan's `(/lib/…/libc.so.6+0x29d90)`.
        return Some(Line::Boilerplate);
    }
    // AddressSanitizer: the location is the last word.
    let (name, loc) = rest.trim_end().rsplit_once(' ')?;
    let name = native_name(name);
    frame(loc, name).then_some(Line::Native { path: loc, name })
}

/// A C or C++ function's name as a frame prints it, without its arguments or signature:
/// `parse_args` of `parse_args (argc=2, argv=0x7ffe…)`, `ns::Foo::bar` of `ns::Foo::bar(int)
/// const`.
fn native_name(printed: &str) -> &str {
    let t = printed.trim();
    let t = t.strip_prefix("(anonymous namespace)::").unwrap_or(t);
    t.split('(').next().unwrap_or(t).trim()
}

/// Where a C or C++ frame's code is: the system's ([`NATIVE_RUNTIME`]), the code `cited`
/// holds (a frame's path ends with a cited file's path: C has no directory of installed
/// packages to tell a library by), or the asker's own.
fn native_origin(path: &str, cited: &dyn Fn(Code) -> bool) -> Origin {
    if NATIVE_RUNTIME.iter().any(|d| path.contains(d)) {
        Origin::Runtime
    } else if cited(Code::Native(without_position(path))) {
        Origin::Library
    } else {
        Origin::Own
    }
}

/// How a debugger or sanitizer says a native program stopped, as Go's signal line does: gdb's
/// `Program received signal SIGSEGV, Segmentation fault.` (`Program terminated with signal …`,
/// `Thread 2 "worker" received signal …`), lldb's `* thread #1, …, stop reason =
/// EXC_BAD_ACCESS (code=1, address=0x0)`, AddressSanitizer's (and the other sanitizers')
/// `ERROR: AddressSanitizer: heap-use-after-free on address 0x… at pc …`. These are the tool's
/// words, the same for every program: the signal or error kind is returned, the rest (the
/// program's thread names, addresses) dropped; empty for a line that says nothing more than a
/// line before it did (the sanitizer's `SUMMARY:`). `None` for any other line.
fn native_stop(t: &str) -> Option<&str> {
    let t = t.trim();
    for after in [" received signal ", " terminated with signal "] {
        if let Some((who, rest)) = t.split_once(after) {
            if who == "Program" || who.starts_with("Thread ") {
                return Some(rest.trim_end_matches('.').trim());
            }
        }
    }
    if t.starts_with("* thread #") || t.starts_with("thread #") {
        let (_, reason) = t.split_once("stop reason = ")?;
        return Some(reason.split(" (").next().unwrap_or(reason).trim());
    }
    if let Some(rest) = t.strip_prefix("SUMMARY: ") {
        return rest
            .split_once("Sanitizer: ")
            .filter(|(tool, _)| !tool.contains(' '))
            .map(|_| "");
    }
    let rest = t.strip_prefix("ERROR: ")?;
    let (tool, kind) = rest.split_once("Sanitizer: ")?;
    if tool.contains(' ') {
        return None;
    }
    let kind = [" on address ", " on unknown address ", " at pc "]
        .iter()
        .filter_map(|m| kind.find(m))
        .min()
        .map_or(kind, |at| &kind[..at]);
    Some(kind.trim())
}

/// `query` with what sanitizers and valgrind print around a report cut: the `==PID==` in front
/// of each of valgrind's and AddressSanitizer's lines, and AddressSanitizer's shadow-byte map
/// (from `Shadow bytes around the buggy address:` to `==PID==ABORTING`), hex bytes no page
/// writes. `query` itself when it has neither.
fn without_sanitizer_noise(query: &str) -> Cow<'_, str> {
    let pid = |l: &str| -> Option<usize> {
        let rest = l.strip_prefix("==")?;
        let end = rest.find("==")?;
        (end > 0 && rest[..end].bytes().all(|b| b.is_ascii_digit())).then_some(end + 4)
    };
    if !query.lines().any(|l| pid(l.trim_start()).is_some()) {
        return Cow::Borrowed(query);
    }
    let mut out = String::with_capacity(query.len());
    let mut shadow = false;
    for line in query.lines() {
        let t = line.trim_start();
        let rest = match pid(t) {
            Some(at) => &t[at..],
            None => line,
        };
        if rest.trim() == "Shadow bytes around the buggy address:" {
            shadow = true;
        }
        if shadow {
            shadow = !rest.trim().starts_with("ABORTING");
            continue;
        }
        out.push_str(rest);
        out.push('\n');
    }
    Cow::Owned(out)
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
    // A goroutine's creator: `created by main.main in goroutine 1` (Go 1.21 on names the
    // goroutine), printed without arguments.
    if let Some(rest) = t.strip_prefix("created by ") {
        let name = rest.split(" in goroutine ").next().unwrap_or(rest);
        return (!name.contains(' ') && name.contains('.')).then_some(name);
    }
    if !t.ends_with(')') {
        return None;
    }
    // The arguments' bracket, from the end: they hold spaces (`{0xc00020e0a0, 0x1, 0x1}`) and
    // the name holds brackets of its own (`(*Viper).find`).
    let mut depth = 0usize;
    let mut open = None;
    for (i, c) in t.char_indices().rev() {
        match c {
            ')' => depth += 1,
            '(' => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    open = Some(i);
                    break;
                }
            }
            _ => {}
        }
    }
    let name = &t[..open?];
    (!name.is_empty() && !name.contains(' ') && name.contains('.')).then_some(name)
}

/// The language a frame was printed by, where its names need reading of their own.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Lang {
    Java,
    Go,
    /// C and C++ ([`Line::Native`]).
    Native,
    Other,
}

/// A frame as read: where its code lives, its function and its module's path, as printed.
#[derive(Debug, Clone, Copy)]
struct Seen<'a> {
    origin: Origin,
    name: Option<&'a str>,
    path: Option<&'a str>,
    lang: Lang,
}

/// Reads `query` as a pasted trace; `None` when it holds none (no frame, no traceback header
/// or panic line), so an ordinary question is searched as typed.
///
/// Jackson's location (`at [Source: (String)"{…}"; line: 1, column: 17]`, which may span the
/// payload's lines) and reference chain (`(through reference chain: a.B["c"]->…)`) end its
/// messages: the asker's document and object path, not words of the error. They are cut
/// before anything else, and a question holding such a location is a pasted error.
pub fn read(query: &str) -> Option<Reading> {
    read_citing(query, &|_| true)
}

/// Where a library frame's code is: what tells the code a workspace cites from other code.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Code<'a> {
    /// The frame's path as printed (`…/site-packages/requests/models.py`,
    /// `…/index.crates.io-…/tokio-1.41.1/src/runtime/task/core.rs:331:17`).
    Path(&'a str),
    /// A Java frame's qualified method (`com.fasterxml.jackson.databind.ObjectMapper.readValue`).
    Java(&'a str),
    /// A C or C++ frame's source path as printed, without its line (`/build/libfoo/src/a.c`,
    /// `main.c`).
    Native(&'a str),
}

/// [`read`], with the frames of installed code `cited` does not hold read as the runtime's:
/// a service's trace passes through its framework's and runtime's crates or packages
/// (tokio, hyper, a web framework), whose names are words of no page of a workspace that does
/// not cite them, yet counted as the query's words they diluted what the message matched.
pub fn read_citing(query: &str, cited: &dyn Fn(Code) -> bool) -> Option<Reading> {
    let query = without_sanitizer_noise(query);
    match jackson_tails(&query) {
        Some(cut) => read_lines(&cut, true, cited),
        None => read_lines(&query, false, cited),
    }
}

fn read_lines<'q>(query: &'q str, tails: bool, cited: &dyn Fn(Code) -> bool) -> Option<Reading> {
    let raw: Vec<&str> = query.lines().collect();
    let lines: Vec<Line> = raw.iter().map(|l| classify(l)).collect();
    // A Java program's own code is the package its entry point (`main`) is in; the frames of
    // any other package outside the JDK are a library's.
    let own_root: Option<&str> = lines.iter().find_map(|l| match l {
        Line::Java(name) if name.ends_with(".main") => Some(package_root(name)),
        _ => None,
    });
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
        let (name, lang) = match line {
            Line::Numbered(name) => (Some(*name), Lang::Other),
            Line::Text(t) => (go_function(t), Lang::Go),
            _ => (None, Lang::Other),
        };
        let frame = match line {
            Line::Frame { path, name } => Some(Seen {
                origin: origin(path),
                name: *name,
                path: Some(*path),
                lang: Lang::Other,
            }),
            Line::Java(name) => Some(Seen {
                origin: java_origin(name, own_root),
                name: Some(*name),
                path: None,
                lang: Lang::Java,
            }),
            Line::Native { path, name } => Some(Seen {
                origin: native_origin(path, cited),
                name: Some(*name),
                path: Some(*path),
                lang: Lang::Native,
            }),
            _ => name.and_then(|name| match located(&lines, &raw, i) {
                Some(p) => Some(Seen {
                    origin: origin(p),
                    name: Some(name),
                    path: None,
                    lang,
                }),
                // Unlocated, it is the runtime's or the binary's own start.
                None => in_backtrace.then_some(Seen {
                    origin: Origin::Runtime,
                    name: Some(name),
                    path: None,
                    lang,
                }),
            }),
        };
        if frame.is_some()
            && !matches!(
                line,
                Line::Frame { .. } | Line::Java(_) | Line::Native { .. }
            )
            && located(&lines, &raw, i).is_some()
        {
            owned[i + 1] = true;
        }
        frames[i] = frame.map(|f| of_cited_code(f, line, located(&lines, &raw, i), cited));
    }
    let header = raw.iter().any(|l| {
        let t = l.trim();
        t == "Traceback (most recent call last):" || t.starts_with("goroutine ")
    }) || lines
        .iter()
        .any(|l| matches!(l, Line::Message(_) | Line::Go(GoPanic { known: true, .. })));
    if !tails && !header && frames.iter().all(Option::is_none) {
        return None;
    }
    // A Java trace: its exceptions' headers name their classes in full, and the cause is the
    // last `Caused by:`.
    let java = tails
        || lines.iter().any(|l| matches!(l, Line::Java(_)))
        || raw.iter().any(|l| {
            l.trim()
                .strip_prefix("Caused by: ")
                .is_some_and(|r| java_header(r).is_some())
        });
    // A Rust panic prints the error it unwrapped in its `Debug` form.
    let panic = lines.iter().any(|l| matches!(l, Line::Message(_)));
    // What is said, each part with the Java exception it belongs to (`ASKED` before any:
    // the asker's own lines).
    const ASKED: usize = usize::MAX;
    let mut said: Vec<(usize, Cow<str>)> = Vec::new();
    let mut around: Vec<Cow<str>> = Vec::new();
    let mut code: Vec<&str> = Vec::new();
    let mut runtime: Vec<&str> = Vec::new();
    // The Java exception the lines are in: the first one's header opens 0, each `Caused by:` the
    // next.
    let mut block = ASKED;
    // Where each exception's class lives, by block.
    let mut origins: Vec<Origin> = Vec::new();
    // The innermost library frames of each Java exception, by block.
    let mut java_frames: Vec<(usize, String)> = Vec::new();
    type Said<'q> = Vec<(usize, Cow<'q, str>)>;
    let say = |text: &'q str, block: usize, said: &mut Said<'q>, around: &mut Vec<Cow<'q, str>>| {
        if panic {
            let (s, a) = panic_line(text);
            said.extend(s.into_iter().map(|s| (block, s)));
            around.extend(a);
        } else {
            said.push((block, Cow::Borrowed(text)));
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
                match f.lang {
                    Lang::Java => {
                        if let Some(symbol) = f.name.and_then(java_symbol) {
                            let n = java_frames.iter().filter(|(b, _)| *b == block).count();
                            if n < JAVA_FRAMES && !java_frames.contains(&(block, symbol.clone())) {
                                java_frames.push((block, symbol));
                            }
                        }
                    }
                    Lang::Go => around.extend(f.name.map(go_symbol).map(Cow::Borrowed)),
                    // The function and its file's name: the rest of a C path is where it was
                    // built (`/build/libfoo-1.2/`), which no page writes.
                    Lang::Native => {
                        around.extend(f.name.map(Cow::Borrowed));
                        around.extend(
                            (f.path.map(without_position))
                                .and_then(|p| p.rsplit(['/', '\\']).next())
                                .map(Cow::Borrowed),
                        );
                    }
                    Lang::Other => {
                        around.extend(
                            f.path
                                .map(|p| Cow::Borrowed(package_path(without_position(p)))),
                        );
                        around.extend(f.name.map(rust_symbol));
                    }
                }
            }
            continue;
        }
        match line {
            Line::Boilerplate
            | Line::Location(_)
            | Line::Frame { .. }
            | Line::Java(_)
            | Line::Native { .. } => {}
            Line::Message("") => {}
            Line::Message(m) => say(m, block, &mut said, &mut around),
            Line::Stopped(r) => {
                last = None;
                if !runtime.contains(r) {
                    runtime.push(r);
                }
            }
            Line::Go(p) => {
                last = None;
                if !p.runtime.is_empty() && !runtime.contains(&p.runtime) {
                    runtime.push(p.runtime);
                }
                // `panic: X [recovered]` is printed again under it as `\tpanic: X`.
                if !p.said.is_empty() && !said.iter().any(|(_, s)| s == p.said) {
                    said.push((block, Cow::Borrowed(p.said)));
                }
            }
            Line::Numbered(_) | Line::Text(_) => {
                let t = raw[i];
                if t.trim().is_empty() {
                    continue;
                }
                // An indented line under a Python frame is its code; a line a caret marks is
                // the code a Node.js error points at.
                let indented = t.starts_with("    ") || t.starts_with('\t');
                // gdb prints the line a frame stopped at under it, numbered: `57\t  return x;`.
                let numbered = (t.split_once('\t'))
                    .filter(|(n, _)| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
                    .map(|(_, code)| code.trim());
                if let Some(code_line) = numbered.filter(|_| last.is_some()) {
                    if last != Some(Origin::Runtime) && !code_line.is_empty() {
                        around.push(Cow::Borrowed(code_line));
                        code.push(code_line);
                    }
                    continue;
                }
                let marked = raw.get(i + 1).is_some_and(|n| n.trim().starts_with('^'));
                if (indented && last.is_some()) || marked {
                    if last != Some(Origin::Runtime) {
                        around.push(Cow::Borrowed(t.trim()));
                        code.push(t.trim());
                    }
                    continue;
                }
                last = None;
                let t = t.trim();
                if !java {
                    say(t, block, &mut said, &mut around);
                    continue;
                }
                // `Caused by: a.b.C: message` opens the next exception; a `Suppressed:` one is
                // beside the cause, not it.
                let (t, opens) = match t.strip_prefix("Caused by: ") {
                    Some(rest) => (rest, true),
                    None => (t.strip_prefix("Suppressed: ").unwrap_or(t), false),
                };
                let t = t
                    .strip_prefix("Exception in thread \"")
                    .and_then(|r| r.split_once("\" "))
                    .map_or(t, |(_, r)| r);
                match java_header(t) {
                    Some((class, message)) => {
                        if opens || block == ASKED {
                            block = block.wrapping_add(1);
                            origins.push(java_origin(class, own_root));
                        }
                        // The class by its own name; a library's package is around it.
                        if java_origin(class, own_root) != Origin::Own {
                            around.push(Cow::Borrowed(class));
                        }
                        let simple = simple_name(class);
                        said.push((block, Cow::Borrowed(simple)));
                        if !message.is_empty() {
                            said.push((block, simple_names(message)));
                        }
                    }
                    None => said.push((block, simple_names(t))),
                }
            }
        }
    }
    // A Java trace with causes says the innermost exception of a library's class, else its
    // root cause (the last `Caused by:`): the wrappers' messages (`ImportException: Could not
    // import order …`) are the asker's code's, and a cause of the JDK's under a library's
    // exception (`NumberFormatException` thrown in the asker's deserializer, under Jackson's
    // `JsonMappingException`) is the asker's failure the library reports. The others are
    // around.
    let root = origins
        .iter()
        .rposition(|o| *o == Origin::Library)
        .or_else(|| origins.len().checked_sub(1));
    around.extend(
        java_frames
            .into_iter()
            .filter(|(b, _)| root.is_none_or(|r| *b == r))
            .map(|(_, s)| Cow::Owned(s)),
    );
    let mut out: Vec<Cow<str>> = Vec::new();
    for (b, text) in said {
        if b == ASKED || Some(b) == root {
            out.push(text);
        } else {
            around.push(text);
        }
    }
    let (said, runtime) = if out.is_empty() && around.is_empty() {
        // The runtime's message alone (`fatal error: concurrent map read and map write`): it is
        // all there is to search, and what the question is about.
        (runtime.join("\n"), String::new())
    } else {
        (out.join("\n"), runtime.join("\n"))
    };
    Some(Reading {
        said,
        around: around.join("\n"),
        code: code.join("\n"),
        runtime,
        innermost: innermost(&lines, &raw, &frames, cited),
    })
}

/// `query` with Jackson's location and reference-chain tails cut out; `None` when it holds
/// neither. A location is `[Source: DESCRIPTION; line: N, column: M]` (or `; byte offset: #N]`,
/// `; UNKNOWN]`), the description quoting the asker's document, newlines and brackets
/// included; the ` at ` before it goes with it. A chain is `(through reference chain: …)` up to
/// the bracket that ends its line.
fn jackson_tails(query: &str) -> Option<String> {
    const SOURCE: &str = "[Source: ";
    const CHAIN: &str = "(through reference chain: ";
    if !query.contains(SOURCE) && !query.contains(CHAIN) {
        return None;
    }
    let mut out = String::with_capacity(query.len());
    let mut rest = query;
    let mut cut = false;
    loop {
        let next = [SOURCE, CHAIN]
            .iter()
            .filter_map(|m| rest.find(m).map(|at| (at, *m)))
            .min();
        let Some((at, mark)) = next else { break };
        let end = if mark == SOURCE {
            location_end(&rest[at..])
        } else {
            let tail = &rest[at..];
            let line = tail.find('\n').unwrap_or(tail.len());
            tail[..line]
                .trim_end()
                .ends_with(')')
                .then(|| tail[..line].trim_end().len())
        };
        match end {
            Some(len) => {
                let mut head = &rest[..at];
                if mark == SOURCE {
                    head = head.strip_suffix("at ").unwrap_or(head);
                }
                out.push_str(head.trim_end_matches([' ', '\t']));
                rest = &rest[at + len..];
                cut = true;
            }
            None => {
                out.push_str(&rest[..at + mark.len()]);
                rest = &rest[at + mark.len()..];
            }
        }
    }
    out.push_str(rest);
    cut.then_some(out)
}

/// The length of the location `tail` starts with (`[Source: …; line: 1, column: 17]`), if it
/// is one: the first `; line: N, column: M]`, `; byte offset: #N]` or `; UNKNOWN]` ends it.
fn location_end(tail: &str) -> Option<usize> {
    let mut from = 0;
    while let Some(semi) = tail[from..].find("; ").map(|k| from + k) {
        let after = &tail[semi + 2..];
        if let Some(close) = after.find(']') {
            let offset = &after[..close];
            let number = |s: &str| {
                let s = s.trim_start_matches('-');
                !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit())
            };
            let ok = match offset.strip_prefix("line: ") {
                Some(lc) => lc
                    .split_once(", column: ")
                    .is_some_and(|(l, c)| number(l) && number(c)),
                None => {
                    offset == "UNKNOWN"
                        || offset
                            .strip_prefix("byte offset: #")
                            .is_some_and(|n| number(n) || n == "UNKNOWN")
                }
            };
            if ok {
                return Some(semi + 2 + close + 1);
            }
        }
        from = semi + 2;
    }
    None
}

/// A Java exception's header without its `Caused by: `: (`a.b.SomeException`, `message`) when
/// the line starts with a qualified class name followed by `: ` or nothing.
fn java_header(t: &str) -> Option<(&str, &str)> {
    let (class, message) = t.split_once(": ").unwrap_or((t, ""));
    let name_char = |c: char| c.is_alphanumeric() || matches!(c, '_' | '$' | '.');
    let simple = simple_name(class);
    (class.contains('.')
        && class.chars().all(name_char)
        && !class.starts_with('.')
        && simple.starts_with(|c: char| c.is_uppercase()))
    .then_some((class, message.trim()))
}

/// `com.acme.orders.Order` → `Order`, `a.B$Inner` → `B$Inner`.
fn simple_name(class: &str) -> &str {
    class.rsplit('.').next().unwrap_or(class)
}

/// `text` with each qualified Java class name outside the JDK (`com.acme.orders.Order`:
/// lower-case packages, then a capitalised class) read as the class's own name: the packages
/// are the asker's or a library's, which no page writes in a message. The JDK's types keep
/// their packages (`java.util.Optional`): a library's pages quote its messages naming them.
fn simple_names(text: &str) -> Cow<'_, str> {
    let mut out = String::new();
    let mut last = 0;
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        let starts = (c.is_ascii_lowercase()) && (i == 0 || !is_name_byte(bytes[i - 1]));
        if !starts {
            i += 1;
            continue;
        }
        let mut j = i;
        while j < bytes.len() && (is_name_byte(bytes[j]) || bytes[j] == b'.') {
            j += 1;
        }
        let word = text[i..j].trim_end_matches('.');
        let segments: Vec<&str> = word.split('.').collect();
        let qualified = segments.len() >= 3
            && segments.iter().all(|s| !s.is_empty())
            && segments[..segments.len() - 1]
                .iter()
                .all(|s| s.starts_with(|c: char| c.is_ascii_lowercase()))
            && segments[segments.len() - 1].starts_with(|c: char| c.is_ascii_uppercase());
        if qualified && java_origin(word, None) != Origin::Runtime {
            out.push_str(&text[last..i]);
            out.push_str(simple_name(word));
            last = i + word.len();
        }
        i = j.max(i + 1);
    }
    if last == 0 {
        return Cow::Borrowed(text);
    }
    out.push_str(&text[last..]);
    Cow::Owned(out)
}

fn is_name_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b == b'$'
}

/// The first two segments of a qualified Java name (`com.acme` of `com.acme.orders.Main.main`):
/// an organisation's packages.
fn package_root(name: &str) -> &str {
    match name.match_indices('.').nth(1) {
        Some((at, _)) => &name[..at],
        None => name,
    }
}

/// Where a Java frame's code lives: the JDK's (and Kotlin's) packages are the runtime, the
/// packages of the program's entry point the asker's, the others a library's.
fn java_origin(name: &str, own_root: Option<&str>) -> Origin {
    const RUNTIME: &[&str] = &["java.", "javax.", "jdk.", "sun.", "com.sun.", "kotlin."];
    if RUNTIME.iter().any(|r| name.starts_with(r)) {
        Origin::Runtime
    } else if own_root.is_some_and(|r| name.starts_with(r) && name[r.len()..].starts_with('.')) {
        Origin::Own
    } else {
        Origin::Library
    }
}

/// How many library frames of a Java exception are read around it, innermost first. The
/// outer ones are the library's entry points (`ObjectMapper.readValue`, `_readMapAndClose`),
/// the same in every trace of it, and led a Jackson trace to the page about those frames.
const JAVA_FRAMES: usize = 3;

/// A library's Java frame as a workspace names its code: `Class.method`
/// (`EnumDeserializer._deserializeAltString`), a nested class's `$` read as `.`, a
/// constructor as its class. `None` for an exception's own frames (its constructor, its
/// factory `from`) and for a method that builds one (`DeserializationContext.
/// weirdStringException`): every failure of a kind passes through them, so they tell nothing.
fn java_symbol(name: &str) -> Option<String> {
    let (class, method) = name.rsplit_once('.')?;
    let class = simple_name(class);
    let outer = class.split('$').next().unwrap_or(class);
    let inner = class.rsplit('$').next().unwrap_or(class);
    if ["Exception", "Error", "Throwable"]
        .iter()
        .any(|e| inner.ends_with(e) || outer.ends_with(e) || method.ends_with(e))
    {
        return None;
    }
    let class = class.replace('$', ".");
    Some(
        if method.starts_with('<') || method.starts_with("lambda$") {
            class
        } else {
            format!("{class}.{method}")
        },
    )
}

/// A Go frame's function without its import path (`viper.(*Viper).find` of
/// `github.com/spf13/viper.(*Viper).find`): the module's path is in every frame of it, and
/// would lead to the one page that spells it.
fn go_symbol(name: &str) -> &str {
    // The import path ends at the last `/` before the package's name; a method's receiver
    // holds none.
    let head = name.find(".(").map_or(name, |at| &name[..at]);
    match head.rfind('/') {
        Some(at) => &name[at + 1..],
        None => name,
    }
}

/// The Go runtime's own messages: what `panic: …` and `fatal error: …` print when the runtime
/// (or the standard library's `sync` and `reflect`) stops a program, the same words in every program. Written
/// from the messages of Go's `src/runtime` — its `boundsError` formats, the nil-dereference
/// signal panic, the `plainError`s of maps and channels, the `throw`s of the map's race
/// detector and the scheduler — and of `sync`'s misuse checks, as Go 1.17–1.23 print them.
/// In a pattern, `#` is a number the runtime prints (an index, a length), `[#]` a bracketed
/// index or slice expression (`[3]`, `[:-1]`, `[2:1]`) and `*` a word it fills in itself (the
/// `reflect.Value` method misused, a kind). Whatever follows a message is not the
/// runtime's: a type's name after `hash of unhashable type`, the asker's words after a pasted
/// line ("… after viper.Sub("db")").
///
/// `runtime error: ` in front of a message marks it as the runtime's whatever it says (a
/// message not listed here is still the runtime's); a `fatal error: ` in a trace is a `throw`,
/// the runtime's too. The list matters where nothing else marks the words: a plain panic
/// (`assignment to entry in nil map`, which the program's own `panic("…")` prints alike) and a
/// one-line paste without the trace under it.
pub const GO_RUNTIME_MESSAGES: &[&str] = &[
    // runtime.Error: nil pointers, bounds, arithmetic, conversions, allocation sizes.
    "invalid memory address or nil pointer dereference",
    "index out of range [#] with length #",
    "index out of range [#]",
    "slice bounds out of range [#] with length #",
    "slice bounds out of range [#] with capacity #",
    "slice bounds out of range [#]",
    "cannot convert slice with length # to array or pointer to array with length #",
    "integer divide by zero",
    "integer overflow",
    "floating point error",
    "negative shift amount",
    "hash of unhashable type",
    "comparing uncomparable type",
    "interface conversion:",
    "makeslice: len out of range",
    "makeslice: cap out of range",
    "makechan: size out of range",
    "growslice: len out of range",
    "unsafe.Slice: len out of range",
    "unsafe.String: len out of range",
    // Plain runtime panics.
    "assignment to entry in nil map",
    "close of nil channel",
    "close of closed channel",
    "send on closed channel",
    // Fatal errors (`throw`): maps written while read, the scheduler, memory.
    "concurrent map writes",
    "concurrent map read and map write",
    "concurrent map iteration and map write",
    "concurrent map clone and map write",
    "all goroutines are asleep - deadlock!",
    "stack overflow",
    "out of memory",
    "runtime: out of memory",
    "unexpected signal during runtime execution",
    "sync: negative WaitGroup counter",
    "sync: WaitGroup is reused before previous Wait has returned",
    "sync: unlock of unlocked mutex",
    "sync: Unlock of unlocked RWMutex",
    "sync: RUnlock of unlocked RWMutex",
    "sync: inconsistent mutex state",
    // `reflect`'s misuse checks (its `ValueError`, `mustBeAssignable`, `mustBeExported` and
    // the checks of `Call`, `Set` and the indexing methods): a decoder or binder built on
    // reflection panics with these inside the library a workspace documents.
    "reflect: call of * on zero Value",
    "reflect: call of * on * Value",
    "reflect: * using unaddressable value",
    "reflect: * using value obtained using unexported field",
    "reflect: Call using zero Value argument",
    "reflect: Call with too few input arguments",
    "reflect: Call with too many input arguments",
    "reflect: Call using",
    "reflect.Set: value of type",
    "reflect.Value.Interface: cannot return value obtained from unexported field or method",
    "reflect: Field index out of range",
    "reflect: slice index out of range",
    "reflect: array index out of range",
    "reflect: string index out of range",
    "reflect: * of * type",
    "reflect.MakeSlice: negative len",
    "reflect.MakeSlice: negative cap",
    "reflect.MakeSlice: len > cap",
];

/// Lines the Go runtime prints about itself around a fatal error, beside the goroutine headers
/// and the signal line (`classify`): a stack overflow's limit and stack bounds.
const GO_DIAGNOSTICS: &[&str] = &["runtime: goroutine stack exceeds ", "runtime: sp="];

/// A Go panic's or fatal error's line, read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct GoPanic<'a> {
    /// The runtime's own message (empty when the panic is the program's).
    runtime: &'a str,
    /// What is not the runtime's: the program's message (`viper: config file not found`), a
    /// type a runtime message names, or the asker's words after a pasted line.
    said: &'a str,
    /// Whether the runtime's message is one it is known to print ([`GO_RUNTIME_MESSAGES`], or
    /// anything after `runtime error: `): such a line is a trace even alone.
    known: bool,
}

/// Reads `panic: …` and `fatal error: …` (without a `[recovered]` mark); `None` for any other
/// line.
fn go_panic(t: &str) -> Option<GoPanic<'_>> {
    let (fatal, rest) = match t.strip_prefix("panic: ") {
        Some(rest) => (false, rest),
        None => (true, t.strip_prefix("fatal error: ")?),
    };
    // A panic recovered and raised again (`[recovered, repanicked]` since Go 1.23).
    let rest = rest
        .strip_suffix(" [recovered]")
        .or_else(|| rest.strip_suffix(" [recovered, repanicked]"))
        .unwrap_or(rest)
        .trim();
    let (marked, message) = match rest.strip_prefix("runtime error: ") {
        Some(m) => (true, m),
        None => (false, rest),
    };
    let read = match runtime_phrase(message) {
        Some(end) => GoPanic {
            runtime: message[..end].trim_end(),
            said: message[end..].trim(),
            known: true,
        },
        // `runtime error: ` and a `throw` mark the runtime's words, though not its asker's; a
        // `throw` not listed is only known to be one in a trace (`known` false).
        None if marked || fatal => GoPanic {
            runtime: message,
            said: "",
            known: marked,
        },
        // `panic("…")`, `panic(err)`: the program's own message.
        None => GoPanic {
            runtime: "",
            said: message,
            known: false,
        },
    };
    Some(read)
}

/// The length of the runtime's message `m` starts with (the longest pattern of
/// [`GO_RUNTIME_MESSAGES`] its words match), if any.
fn runtime_phrase(m: &str) -> Option<usize> {
    // The message's words with where each ends.
    let words: Vec<(&str, usize)> = m
        .split(' ')
        .scan(0usize, |at, w| {
            let end = *at + w.len();
            *at = end + 1;
            Some((w, end))
        })
        .filter(|(w, _)| !w.is_empty())
        .collect();
    let number = |w: &str| {
        let d = w.strip_prefix('-').unwrap_or(w);
        !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit())
    };
    let bracket = |w: &str| {
        w.len() > 2
            && w.starts_with('[')
            && w.ends_with(']')
            && w[1..w.len() - 1]
                .bytes()
                .all(|b| b.is_ascii_digit() || b == b':' || b == b'-')
    };
    GO_RUNTIME_MESSAGES
        .iter()
        .filter_map(|pattern| {
            let pattern: Vec<&str> = pattern.split(' ').collect();
            let matched = pattern.len() <= words.len()
                && pattern.iter().zip(&words).all(|(p, (w, _))| match *p {
                    "#" => number(w),
                    "[#]" => bracket(w),
                    "*" => true,
                    p => p == *w,
                });
            matched.then(|| words[pattern.len() - 1].1)
        })
        .max()
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

/// The innermost library frame that has a location (of the code `cited` holds): a Python
/// traceback prints it last, other runtimes first; a Rust panic's own location is a library's
/// when the panic was raised for its caller there (`#[track_caller]` stops at the caller).
fn innermost(
    lines: &[Line],
    raw: &[&str],
    frames: &[Option<Seen>],
    cited: &dyn Fn(Code) -> bool,
) -> Option<(String, u32)> {
    let panicked = raw.iter().find_map(|l| {
        let rest = l
            .trim()
            .strip_prefix("thread '")?
            .split_once(" panicked at ")?
            .1;
        let rest = rest.trim_end_matches(':');
        let at = match rest.rsplit_once(", ") {
            Some((_, at)) if is_location(at) => at,
            _ => rest,
        };
        (is_location(at) && origin(at) == Origin::Library && cited(Code::Path(at)))
            .then(|| position(at))
            .flatten()
    });
    if let Some((path, line)) = panicked {
        return Some((path.to_string(), line));
    }
    let mut at = frames
        .iter()
        .enumerate()
        .filter(|(_, f)| f.is_some_and(|f| f.origin == Origin::Library))
        .filter_map(|(i, _)| frame_location(lines, raw, i));
    let python = raw
        .iter()
        .any(|l| l.trim() == "Traceback (most recent call last):");
    let (path, line) = if python { at.next_back() } else { at.next() }?;
    Some((path.to_string(), line))
}

/// Where the frame line `i` opens ran: its path and line (`File "p", line 12, in f`,
/// `at f (p:3:9)`, a location on the next line).
fn frame_location<'a>(lines: &[Line<'a>], raw: &[&'a str], i: usize) -> Option<(&'a str, u32)> {
    if let Some(rest) = raw[i].trim().strip_prefix("File \"") {
        let (path, after) = rest.split_once("\", line ")?;
        let n = after.split(',').next()?.trim().parse().ok()?;
        return Some((path, n));
    }
    let at = match lines.get(i)? {
        Line::Frame { path, .. } | Line::Native { path, .. } => path,
        _ => located(lines, raw, i)?,
    };
    position(at)
}

/// (`p`, 12) of `p:12`, `p:12:5` or `p:12 +0x1d`.
fn position(at: &str) -> Option<(&str, u32)> {
    let at = at.trim().split(" +0x").next()?;
    let path = without_position(at);
    let n = at[path.len()..]
        .strip_prefix(':')?
        .split(':')
        .next()?
        .parse()
        .ok()?;
    Some((path, n))
}

/// `frame` with a library's origin kept only when `cited` holds its code (the path on its line
/// or the location under it, a Java frame's method); other installed code is the trace's
/// structure, as the runtime is.
fn of_cited_code<'a>(
    mut frame: Seen<'a>,
    line: &Line<'a>,
    location: Option<&'a str>,
    cited: &dyn Fn(Code) -> bool,
) -> Seen<'a> {
    let code = match line {
        Line::Frame { path, .. } => Some(Code::Path(path)),
        Line::Java(name) => Some(Code::Java(name)),
        // Its origin read it against the cited code already.
        Line::Native { .. } => None,
        _ => location.map(Code::Path),
    };
    if frame.origin == Origin::Library && code.is_some_and(|c| !cited(c)) {
        frame.origin = Origin::Runtime;
    }
    frame
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

/// `x.js:3:9` → `x.js`, `x.py` → `x.py`, `x.go:12 +0x1d` → `x.go`.
fn without_position(path: &str) -> &str {
    let mut p = path.split(" +0x").next().unwrap_or(path);
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
    fn how_a_native_program_stopped_is_the_tools_words() {
        assert_eq!(
            native_stop("Program received signal SIGSEGV, Segmentation fault."),
            Some("SIGSEGV, Segmentation fault")
        );
        assert_eq!(
            native_stop("Thread 2 \"worker\" received signal SIGABRT, Aborted."),
            Some("SIGABRT, Aborted")
        );
        assert_eq!(
            native_stop("* thread #1, queue = 'com.apple.main-thread', stop reason = EXC_BAD_ACCESS (code=1, address=0x0)"),
            Some("EXC_BAD_ACCESS")
        );
        assert_eq!(
            native_stop("ERROR: AddressSanitizer: heap-use-after-free on address 0x602000000010 at pc 0x4c7a1b bp 0x7ffc sp 0x7ff4"),
            Some("heap-use-after-free")
        );
        assert_eq!(
            native_stop("SUMMARY: AddressSanitizer: heap-use-after-free /build/a.c:88:12 in f"),
            Some("")
        );
        // The asker's words that only mention a signal or an error.
        for said in [
            "My program received signal SIGSEGV, why?",
            "ERROR: could not open config",
            "the thread #1 stop reason = unknown",
        ] {
            assert_eq!(native_stop(said), None, "{said}");
        }
        // The walk's gdb session (jq): the frame is read, the banner is the runtime's.
        let gdb = "Program received signal SIGSEGV, Segmentation fault.\n0x00007ffff7f8a2b1 in jq_next (jq=0x5555555592a0) at src/execute.c:345\n#1  0x0000555555555296 in main () at myprog.c:22";
        let r = read(gdb).expect("a gdb trace");
        assert_eq!(
            (r.said.as_str(), r.runtime.as_str()),
            ("", "SIGSEGV, Segmentation fault")
        );
        assert_eq!(r.innermost, Some(("src/execute.c".to_string(), 345)));
    }

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
        // The runtime's message (cut short as a pasted one is) is apart from what is said.
        assert_eq!(r.said, "");
        assert_eq!(r.runtime, "invalid memory address");
        assert_eq!(r.around, "cobra.(*Command).execute");
        let java = "Exception in thread \"main\" java.lang.IllegalStateException: closed\n\tat okhttp3.Call.execute(Call.java:10)\n\tat com.acme.App.main(App.java:3)\n\t... 4 more";
        let r = read(java).expect("a trace");
        assert_eq!(r.said, "IllegalStateException\nclosed");
        // `com.acme` has the entry point; okhttp3 is a library.
        assert_eq!(r.around, "java.lang.IllegalStateException\nCall.execute");
    }

    #[test]
    fn a_java_trace_says_its_root_cause_without_jacksons_tails() {
        // The Java walk's trace 02 (stop 52), its frames cut: the app's wrapper came first and
        // the payload in `[Source: …]` and the object path of the reference chain were searched.
        let q = "com.acme.orders.ImportException: Could not import order from sftp://partner/orders/0042.json\n\tat com.acme.orders.OrderImporter.importOrder(OrderImporter.java:15)\n\tat com.acme.orders.TraceRunner.main(TraceRunner.java:158)\nCaused by: com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException: Unrecognized field \"sku_code\" (class com.acme.orders.Item), not marked as ignorable (2 known properties: \"sku\", \"qty\"])\n at [Source: (String)\"{\"id\":42,\"items\":[{\"sku_code\":\"B-7\",\"qty\":1}]}\"; line: 1, column: 73] (through reference chain: com.acme.orders.Order[\"items\"]->java.util.ArrayList[1]->com.acme.orders.Item[\"sku_code\"])\n\tat com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException.from(UnrecognizedPropertyException.java:61)\n\tat com.fasterxml.jackson.databind.DeserializationContext.handleUnknownProperty(DeserializationContext.java:1132)\n\tat com.fasterxml.jackson.databind.deser.std.StdDeserializer.handleUnknownProperty(StdDeserializer.java:2202)\n\tat com.fasterxml.jackson.databind.deser.BeanDeserializerBase.handleUnknownProperty(BeanDeserializerBase.java:1705)\n\tat com.fasterxml.jackson.databind.deser.BeanDeserializerBase.handleUnknownVanilla(BeanDeserializerBase.java:1683)\n\tat java.base/java.lang.reflect.Method.invoke(Method.java:568)\n\tat com.acme.orders.OrderImporter.importOrder(OrderImporter.java:13)\n\t... 2 more";
        let r = read(q).expect("a trace");
        assert_eq!(
            r.said,
            "UnrecognizedPropertyException\nUnrecognized field \"sku_code\" (class Item), not marked as ignorable (2 known properties: \"sku\", \"qty\"])"
        );
        assert_eq!(
            r.around,
            "com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException\nDeserializationContext.handleUnknownProperty\nStdDeserializer.handleUnknownProperty\nBeanDeserializerBase.handleUnknownProperty\nImportException\nCould not import order from sftp://partner/orders/0042.json"
        );
        // A location spanning the payload's lines; a cause of the JDK's under the library's
        // exception is the asker's failure the library reports.
        let q = "com.fasterxml.jackson.databind.JsonMappingException: For input string: \"12.\" (through reference chain: com.acme.orders.Dimensions[\"width\"])\n\tat com.fasterxml.jackson.databind.deser.BeanDeserializerBase.wrapAndThrow(BeanDeserializerBase.java:1826)\n\tat com.acme.orders.TraceRunner.main(TraceRunner.java:158)\nCaused by: java.lang.NumberFormatException: For input string: \"12.\"\n\tat java.base/java.lang.Integer.parseInt(Integer.java:668)\n\tat com.acme.orders.PixelDeserializer.deserialize(PixelDeserializer.java:15)\n\t... 8 more";
        let r = read(q).expect("a trace");
        assert_eq!(r.said, "JsonMappingException\nFor input string: \"12.\"");
        let q = "com.fasterxml.jackson.core.JsonParseException: Unexpected character ('}' (code 125)): was expecting double-quote to start field name\n at [Source: (String)\"{\n  \"endpoint\": \"http://api\",\n}\"; line: 3, column: 2]";
        let r = read(q).expect("a Jackson error, frames or not");
        assert_eq!(
            r.said,
            "JsonParseException\nUnexpected character ('}' (code 125)): was expecting double-quote to start field name"
        );
        // The JDK's types keep their packages: pages quote the messages naming them.
        let q = "com.fasterxml.jackson.databind.exc.InvalidDefinitionException: Cannot construct instance of `java.util.Optional` (no Creators, like default constructor, exist)\n at [Source: UNKNOWN; byte offset: #UNKNOWN]";
        assert_eq!(
            read(q).expect("a trace").said,
            "InvalidDefinitionException\nCannot construct instance of `java.util.Optional` (no Creators, like default constructor, exist)"
        );
    }

    #[test]
    fn an_exceptions_own_frames_and_its_builders_name_no_code() {
        for own in [
            "com.fasterxml.jackson.databind.exc.InvalidFormatException.from",
            "com.fasterxml.jackson.databind.DeserializationContext.weirdStringException",
            "com.acme.Outer$ParseError.<init>",
        ] {
            assert_eq!(java_symbol(own), None, "{own}");
        }
        assert_eq!(
            java_symbol(
                "com.fasterxml.jackson.databind.DeserializationContext.handleWeirdStringValue"
            )
            .as_deref(),
            Some("DeserializationContext.handleWeirdStringValue")
        );
    }

    #[test]
    fn a_go_panic_keeps_the_runtime_and_the_module_path_out() {
        // The viper walk (stop 52): the signal line and the frames' arguments (`{0x7d1e2b,
        // 0x4}` has a space) were read as the message, and every frame's module path led to the
        // one page that spells it.
        let q = "panic: runtime error: invalid memory address or nil pointer dereference\n[signal SIGSEGV: segmentation violation code=0x1 addr=0x0 pc=0x6b2c1a]\n\ngoroutine 1 [running]:\ngithub.com/spf13/viper.(*Viper).GetString(0x0, {0x7d1e2b, 0x4})\n\t/home/me/go/pkg/mod/github.com/spf13/viper@v1.10.1/viper.go:1185 +0x1d\nmain.main()\n\t/home/me/src/app/main.go:21 +0x35\ncreated by github.com/spf13/viper.(*Viper).WatchConfig in goroutine 1\n\t/home/me/go/pkg/mod/github.com/spf13/viper@v1.10.1/viper.go:431 +0x9a\nexit status 2";
        let r = read(q).expect("a panic");
        assert_eq!(r.said, "");
        assert_eq!(
            r.runtime,
            "invalid memory address or nil pointer dereference"
        );
        assert_eq!(
            r.around,
            "viper.(*Viper).GetString\nviper.(*Viper).WatchConfig"
        );
        assert_eq!(
            without_position("viper@v1.10.1/viper.go:1185 +0x1d"),
            "viper@v1.10.1/viper.go"
        );
    }

    #[test]
    fn a_go_runtime_panic_alone_is_read_as_the_runtimes_message() {
        // The viper walk (stop 52): pasted alone, the runtime's words were the question's
        // topic ("unmatched: runtime, error, invalid, memory, address, dereference").
        for (q, runtime) in [
            (
                "panic: runtime error: invalid memory address or nil pointer dereference",
                "invalid memory address or nil pointer dereference",
            ),
            (
                "panic: runtime error: index out of range [3] with length 3",
                "index out of range [3] with length 3",
            ),
            (
                "panic: runtime error: slice bounds out of range [:-1]",
                "slice bounds out of range [:-1]",
            ),
            (
                "fatal error: concurrent map read and map write",
                "concurrent map read and map write",
            ),
            (
                "panic: assignment to entry in nil map",
                "assignment to entry in nil map",
            ),
            (
                "fatal error: all goroutines are asleep - deadlock!",
                "all goroutines are asleep - deadlock!",
            ),
            // Whatever follows `runtime error: ` is the runtime's, listed or not.
            (
                "panic: runtime error: some message of a later Go",
                "some message of a later Go",
            ),
        ] {
            let r = read(q).expect(q);
            // All the paste says: what is searched, as any question (`runtime` is empty).
            assert_eq!((r.said.as_str(), r.runtime.as_str()), (runtime, ""), "{q}");
            assert_eq!(r.around, "", "{q}");
        }
    }

    #[test]
    fn a_go_runtime_panic_with_the_askers_words_says_those() {
        // The viper questions q17 and q31 (stop 52).
        let r = read(
            "panic: runtime error: invalid memory address or nil pointer dereference after viper.Sub(\"db\")",
        )
        .expect("a panic");
        assert_eq!(r.said, "after viper.Sub(\"db\")");
        assert_eq!(
            r.runtime,
            "invalid memory address or nil pointer dereference"
        );
        let r = read("fatal error: concurrent map read and map write inside viper.find")
            .expect("a fatal error");
        assert_eq!(
            (r.said.as_str(), r.runtime.as_str()),
            ("inside viper.find", "concurrent map read and map write")
        );
        // The longest message the runtime prints: its length is no word of the asker's.
        let r = read("panic: runtime error: index out of range [5] with length 2 in my loop")
            .expect("a panic");
        assert_eq!(
            (r.said.as_str(), r.runtime.as_str()),
            ("in my loop", "index out of range [5] with length 2")
        );
        // `reflect`'s misuse panics: the method it names is its own, a type is the program's.
        let r = read("panic: reflect: reflect.Value.SetInt using unaddressable value")
            .expect("a panic");
        assert_eq!(
            (r.said.as_str(), r.runtime.as_str()),
            (
                "reflect: reflect.Value.SetInt using unaddressable value",
                ""
            )
        );
        let r =
            read("panic: reflect: call of reflect.Value.Interface on zero Value in mapstructure")
                .expect("a panic");
        assert_eq!(
            (r.said.as_str(), r.runtime.as_str()),
            (
                "in mapstructure",
                "reflect: call of reflect.Value.Interface on zero Value"
            )
        );
        let r = read("panic: reflect.Set: value of type string is not assignable to type int")
            .expect("a panic");
        assert_eq!(
            (r.said.as_str(), r.runtime.as_str()),
            (
                "string is not assignable to type int",
                "reflect.Set: value of type"
            )
        );
        // A type a runtime message names is the program's.
        let r =
            read("panic: interface conversion: interface {} is string, not int").expect("a panic");
        assert_eq!(
            (r.said.as_str(), r.runtime.as_str()),
            ("interface {} is string, not int", "interface conversion:")
        );
    }

    #[test]
    fn a_go_panic_of_the_program_says_its_message_and_a_fatal_trace_its_frames() {
        // `panic(err)`, `panic(fmt.Sprintf(…))`: the program's message is said, in full, without
        // the runtime's `panic: ` and `[recovered]`.
        let q = "panic: viper: config file not found in [/etc/app] [recovered]\n\tpanic: viper: config file not found in [/etc/app]\n\ngoroutine 1 [running]:\nmain.main()\n\t/home/me/src/app/main.go:21 +0x35\nexit status 2";
        let r = read(q).expect("a panic");
        assert_eq!(r.said, "viper: config file not found in [/etc/app]");
        assert_eq!((r.around.as_str(), r.runtime.as_str()), ("", ""));
        // Alone, a program's panic line is no trace: nothing marks it as Go's.
        assert_eq!(read("panic: viper: config file not found"), None);
        // The walk's concurrent map fatal error (trace_concurrent.txt): viper's frames without
        // their arguments and offsets are around the runtime's message; the asker's frame and
        // the runtime's diagnostics are not read.
        let q = "fatal error: concurrent map read and map write\n\ngoroutine 34 [running]:\nruntime.throw({0x8a3b2e?, 0x0?})\n\t/usr/local/go/src/runtime/panic.go:1047 +0x5d fp=0xc000125c88 sp=0xc000125c58 pc=0x43587d\ngithub.com/spf13/viper.(*Viper).searchMap(0xc0001a0000, 0xc000212000, {0xc00020e0a0, 0x1, 0x1})\n\t/home/me/go/pkg/mod/github.com/spf13/viper@v1.10.1/viper.go:613 +0x5a\ngithub.com/spf13/viper.(*Viper).find(0xc0001a0000, {0xc00001c0a8, 0x4}, 0x1)\n\t/home/me/go/pkg/mod/github.com/spf13/viper@v1.10.1/viper.go:1185 +0x8e\ngithub.com/spf13/viper.(*Viper).Get(0xc0001a0000, {0xc00001c0a8, 0x4})\n\t/home/me/go/pkg/mod/github.com/spf13/viper@v1.10.1/viper.go:843 +0x65\nmain.handler(...)\n\t/home/me/src/app/main.go:40 +0x25\n\ngoroutine 1 [chan receive]:\nmain.main()\n\t/home/me/src/app/main.go:61 +0x1d\nexit status 2";
        let r = read(q).expect("a fatal error");
        assert_eq!(r.said, "");
        assert_eq!(r.runtime, "concurrent map read and map write");
        assert_eq!(
            r.around,
            "viper.(*Viper).searchMap\nviper.(*Viper).find\nviper.(*Viper).Get"
        );
        // A stack overflow: the runtime's own lines before its fatal error.
        let q = "runtime: goroutine stack exceeds 1000000000-byte limit\nruntime: sp=0xc020160398 stack=[0xc020160000, 0xc040160000]\nfatal error: stack overflow\n\ngoroutine 1 [running]:\ngithub.com/spf13/viper.(*Viper).find(0xc0001a0000, {0xc00001c0a8, 0x4}, 0x1)\n\t/home/me/go/pkg/mod/github.com/spf13/viper@v1.10.1/viper.go:1185 +0x8e";
        let r = read(q).expect("a fatal error");
        assert_eq!(
            (r.said.as_str(), r.runtime.as_str(), r.around.as_str()),
            ("", "stack overflow", "viper.(*Viper).find")
        );
    }

    #[test]
    fn the_runtime_vocabulary_reads_its_numbers_and_nothing_else() {
        assert_eq!(
            runtime_phrase("index out of range [-1]"),
            Some("index out of range [-1]".len())
        );
        assert_eq!(
            runtime_phrase("slice bounds out of range [2:1] with capacity 4 again"),
            Some("slice bounds out of range [2:1] with capacity 4".len())
        );
        assert_eq!(
            runtime_phrase(
                "cannot convert slice with length 2 to array or pointer to array with length 4"
            )
            .map(|n| n > 0),
            Some(true)
        );
        for not in [
            "index out of range [i]",
            "index out of range",
            "concurrent map",
            "my map is concurrent",
        ] {
            assert_eq!(runtime_phrase(not), None, "{not}");
        }
        // A `fatal error: ` not listed is the runtime's in a trace, but alone it could be any
        // program's (a C compiler's `fatal error: 'stdio.h' file not found`).
        assert_eq!(read("fatal error: 'stdio.h' file not found"), None);
    }

    #[test]
    fn no_question_of_the_corpora_is_a_trace_and_the_pasted_traces_are() {
        let corpora = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../testdata/corpora");
        let mut questions = 0;
        let mut traces = 0;
        let mut read_traces = 0;
        for entry in std::fs::read_dir(&corpora).expect("the corpora") {
            let dir = entry.expect("a corpus").path();
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
                        // The viper set pastes the Go runtime's one-line panics, and tokei's
                        // a Rust panic's first line, which are.
                        let panic = q.question.starts_with("panic: runtime error: ")
                            || q.question.starts_with("fatal error: concurrent map")
                            || q.question.starts_with("thread '")
                                && q.question.contains("' panicked at ");
                        assert_eq!(read_as_trace, panic, "{}", q.question);
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

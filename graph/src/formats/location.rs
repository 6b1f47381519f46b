//! Paths inside a workspace or repository: the safe-relative-path rule every reader applies,
//! and `PATH[:START[-END]]`, the one syntax for a file and an optional line range on the command
//! line (`refs`, `cites`, `read-many`, `digest`). `:N` always means line N alone, and
//! `:A-B` lines A to B inclusive. A suffix that is not such a range stays part of the path, so
//! a path that itself contains a colon (`weird:name.rs`) still works. The forms the outputs
//! print for a cited range are taken too, so a location copied from a pack reads back: a line
//! anchor (`PATH#L10-L20`), a pinned label (`github.com/o/r@46746648b35e:PATH`, [`Pinned`]) and
//! a web URL of a file at a commit ([`web_path`]).

/// The longest path-like field accepted (a locator path, a subpath, a snapshot path), as on
/// most systems (`PATH_MAX`). Without a bound, one long `subpath` is copied into every
/// reference that cites its module: 1 MB cited 90 times took 3 GB.
pub const MAX_PATH_BYTES: usize = 4096;

/// Whether `path` is a safe relative path: non-empty, at most [`MAX_PATH_BYTES`], no `\`, no
/// `:`, no control characters, and `/`-separated segments that are neither empty nor `.`
/// nor `..`.
pub fn is_safe_relative_path(path: &str) -> bool {
    path_fault(path).is_none()
}

/// Why `path` is not a safe relative path ([`is_safe_relative_path`]), in words a person who
/// wrote it can act on ("is absolute", "has a `..` segment"), or `None` when it is one.
pub fn path_fault(path: &str) -> Option<&'static str> {
    fault(path, false)
}

/// [`path_fault`] for a path read from a repository, where a `:` may be part of a file's name
/// (`weird:name.rs`): the reads' rule.
pub fn read_path_fault(path: &str) -> Option<&'static str> {
    fault(path, true)
}

fn fault(path: &str, colon: bool) -> Option<&'static str> {
    let segments = || path.split('/');
    Some(if path.is_empty() {
        "is empty"
    } else if path.len() > MAX_PATH_BYTES {
        "is longer than 4096 bytes"
    } else if path.starts_with('/') {
        "is absolute: write it relative to the repository's root (or the module's subpath)"
    } else if path.chars().any(char::is_control) {
        "has a control character"
    } else if path.contains('\\') {
        "has a `\\`: separate directories with `/`"
    } else if !colon && path.contains(':') {
        "has a `:`"
    } else if segments().any(|p| p == "..") {
        "has a `..` segment"
    } else if segments().any(|p| p == ".") {
        "has a `.` segment: write `a/b`, not `./a/b`"
    } else if segments().any(str::is_empty) {
        "has an empty segment (`//`, or a `/` at its end)"
    } else {
        return None;
    })
}

/// `root/path`, or `path` when `root` is empty.
pub fn join_path(root: &str, path: &str) -> String {
    if root.is_empty() {
        path.to_string()
    } else {
        format!("{root}/{path}")
    }
}

/// A path and the lines it names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Location<'a> {
    /// The path, as written.
    pub path: &'a str,
    /// `(start, end)` when a range was given (`:N` gives `(N, N)`); not checked for
    /// `1 <= start <= end`, which each command reports in its own terms.
    pub lines: Option<(u64, u64)>,
}

impl<'a> Location<'a> {
    /// Parses `PATH`, `PATH:N` or `PATH:A-B`, or `PATH#LN` and `PATH#LA-LB`, the line anchor
    /// of the URLs and labels the outputs print.
    pub fn parse(s: &'a str) -> Location<'a> {
        // `N` or `A<to>B`, after the path's `at`.
        let split = |at: &str, to: &str| {
            let (path, range) = s.rsplit_once(at)?;
            let lines = match range.split_once(to) {
                Some((a, b)) => number(a).zip(number(b)),
                None => number(range).map(|n| (n, n)),
            };
            lines.filter(|_| !path.is_empty()).map(|lines| Location {
                path,
                lines: Some(lines),
            })
        };
        if let Some(l) = split("#L", "-L").or_else(|| split(":", "-")) {
            return l;
        }
        Location {
            path: s,
            lines: None,
        }
    }
}

/// A repository named with the commit it is read at, `REPOSITORY@COMMIT`, as a pinned label
/// begins (`github.com/o/r@46746648b35e:src/main.rs:109-124`): the commit is 7 to 64 hex
/// digits, the repository holds a `/` and no `:`, so a remote's user (`git@host:o/r`) is none.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Pinned<'a> {
    /// The repository as written (`github.com/o/r`, `o/r`).
    pub repository: &'a str,
    /// The commit, as written (a prefix or the full id).
    pub commit: &'a str,
    /// What followed the commit's `:`, if anything (a path, with its lines).
    pub rest: Option<&'a str>,
}

impl<'a> Pinned<'a> {
    /// `REPOSITORY@COMMIT` or `REPOSITORY@COMMIT:REST` (REST non-empty), else `None`.
    pub fn parse(s: &'a str) -> Option<Pinned<'a>> {
        let (repository, after) = s.rsplit_once('@')?;
        let (commit, rest) = match after.split_once(':') {
            Some((c, r)) if !r.is_empty() => (c, Some(r)),
            Some(_) => return None,
            None => (after, None),
        };
        let hex = (7..=64).contains(&commit.len()) && commit.bytes().all(|b| b.is_ascii_hexdigit());
        let named = repository.contains('/') && !repository.contains(':');
        (hex && named && !repository.starts_with('/')).then_some(Pinned {
            repository,
            commit,
            rest,
        })
    }
}

/// The repository path of a web URL of a file at a commit (`https://HOST/OWNER/REPO/blob/REV/PATH`,
/// GitLab's `/-/blob/` too), with its anchor.
pub fn web_path(t: &str) -> Option<&str> {
    let rest = t
        .strip_prefix("https://")
        .or_else(|| t.strip_prefix("http://"))?;
    let (_, after) = rest.split_once("/blob/")?;
    let (_, path) = after.split_once('/')?;
    (!path.is_empty()).then_some(path)
}

/// A read's path and lines when the path may name its lines (`PATH:START-END`, the form packs
/// print and every command takes) and the lines may also be given apart (`--start`/`--end`,
/// MCP `startLine`/`endLine`): one rule for every reader.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReadLines<'a> {
    /// The path without the lines it named.
    pub path: &'a str,
    /// The first line, from the path or given apart.
    pub start: Option<i64>,
    /// The last line, from the path or given apart.
    pub end: Option<i64>,
}

/// The lines a path names, `(start, end)`, when lines given apart say otherwise.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LinesTwice {
    /// The lines written in the path.
    pub written: (i64, i64),
}

impl<'a> ReadLines<'a> {
    /// `path` with lines given apart as `start` and `end`: the path's own lines when it names
    /// them (`a.rs:10-20`, `a.rs:7`) and none are given apart, or when those given agree with
    /// them; the path as it is, with the lines given, when it names none. Lines given twice
    /// that disagree are refused: which the asker meant is not ours to guess.
    pub fn of(path: &'a str, start: Option<i64>, end: Option<i64>) -> Result<Self, LinesTwice> {
        let l = Location::parse(path);
        let Some((a, b)) = l.lines else {
            return Ok(ReadLines { path, start, end });
        };
        let line = |n: u64| i64::try_from(n).unwrap_or(i64::MAX);
        let written = (line(a), line(b));
        let agrees = start.is_none_or(|s| s == written.0) && end.is_none_or(|e| e == written.1);
        if !agrees {
            return Err(LinesTwice { written });
        }
        Ok(ReadLines {
            path: l.path,
            start: Some(written.0),
            end: Some(written.1),
        })
    }
}

/// A line number: ASCII digits only (no sign, no blanks).
fn number(s: &str) -> Option<u64> {
    if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    s.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_meaning_everywhere() {
        let l = Location::parse("src/a.rs:10-20");
        assert_eq!((l.path, l.lines), ("src/a.rs", Some((10, 20))));
        let l = Location::parse("src/a.rs:7");
        assert_eq!((l.path, l.lines), ("src/a.rs", Some((7, 7))));
        for path in [
            "src/a.rs",
            "weird:name.rs",
            "a.rs:1-x",
            "a.rs:-5",
            "a.rs:+5",
            ":5",
        ] {
            let l = Location::parse(path);
            assert_eq!((l.path, l.lines), (path, None), "{path}");
        }
        let l = Location::parse("c:/x.rs:3-1");
        assert_eq!((l.path, l.lines), ("c:/x.rs", Some((3, 1))));
    }

    #[test]
    fn the_forms_the_outputs_print_read_back() {
        let l = Location::parse("src/a.rs#L10-L20");
        assert_eq!((l.path, l.lines), ("src/a.rs", Some((10, 20))));
        let l = Location::parse("src/a.rs#L7");
        assert_eq!((l.path, l.lines), ("src/a.rs", Some((7, 7))));
        for path in ["src/a.rs#Lx", "#L5", "src/a.rs#L1-9"] {
            assert_eq!(Location::parse(path).lines, None, "{path}");
        }
        let p = Pinned::parse("github.com/o/r@46746648b35e:src/main.rs:109-124").expect("label");
        assert_eq!(
            (p.repository, p.commit, p.rest),
            (
                "github.com/o/r",
                "46746648b35e",
                Some("src/main.rs:109-124")
            )
        );
        let p = Pinned::parse("o/r@46746648b35e").expect("repository at a commit");
        assert_eq!(
            (p.repository, p.commit, p.rest),
            ("o/r", "46746648b35e", None)
        );
        for not in [
            "git@github.com:o/r",
            "user@host/o/r",
            "o/r@main:src/a.rs",
            "o/r@abc12:src/a.rs",
            "repo@46746648b35e:src/a.rs",
            "o/r@46746648b35e:",
            "src/a.rs",
        ] {
            assert_eq!(Pinned::parse(not), None, "{not}");
        }
        assert_eq!(
            web_path("https://github.com/o/r/blob/4674664/src/a.rs#L3-L9"),
            Some("src/a.rs#L3-L9")
        );
        assert_eq!(web_path("src/a.rs"), None);
    }

    #[test]
    fn lines_in_the_path_or_apart_once() {
        let r = ReadLines::of("src/a.rs:10-20", None, None).expect("lines");
        assert_eq!((r.path, r.start, r.end), ("src/a.rs", Some(10), Some(20)));
        let r = ReadLines::of("src/a.rs:7", None, None).expect("lines");
        assert_eq!((r.path, r.start, r.end), ("src/a.rs", Some(7), Some(7)));
        let r = ReadLines::of("src/a.rs:10-20", Some(10), None).expect("agree");
        assert_eq!((r.path, r.start, r.end), ("src/a.rs", Some(10), Some(20)));
        let r = ReadLines::of("src/a.rs", Some(3), Some(4)).expect("apart");
        assert_eq!((r.path, r.start, r.end), ("src/a.rs", Some(3), Some(4)));
        let r = ReadLines::of("weird:name.rs", Some(3), None).expect("no lines");
        assert_eq!((r.path, r.start, r.end), ("weird:name.rs", Some(3), None));
        assert_eq!(
            ReadLines::of("src/a.rs:10-20", Some(11), Some(20)),
            Err(LinesTwice { written: (10, 20) })
        );
        assert_eq!(
            ReadLines::of("src/a.rs:10-20", None, Some(30)),
            Err(LinesTwice { written: (10, 20) })
        );
    }
}

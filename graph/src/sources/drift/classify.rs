//! The drift verdict of one cited range, as pure functions of the cited lines, the file at the
//! later commit and the `-U0` hunks between the two versions.
//!
//! The rules are those of the development corpus's `drift.yaml` header:
//!
//! 1. the later file is the same path if it exists at the later commit, else git's rename
//!    target, else the reference is [`Verdict::Missing`];
//! 2. [`Verdict::Unchanged`]: same path, and the later file has the cited lines at the same
//!    line numbers;
//! 3. otherwise the line-aligned occurrences of the cited block in the later file are counted:
//!    exactly one is [`Verdict::Moved`];
//! 4. zero or several is [`Verdict::Changed`], with the range the hunks map the old range to
//!    ([`map_range`]).
//!
//! Lines are compared as bytes after the workspace format's split (on `\n`, one trailing `\r`
//! dropped per line), so a file whose line endings alone changed from CRLF to LF is unchanged,
//! while hunks come from a diff of the raw bytes, as `git diff` computes them.

use serde::{Deserialize, Serialize};
use std::collections::HashMap;

/// The lines of `data` per the workspace format: split on `\n`, one trailing `\r` dropped from
/// each; a final `\n` leaves an empty last line (`"a\n"` has two lines, `"a"` and `""`).
pub fn split_lines(data: &[u8]) -> Vec<&[u8]> {
    data.split(|&b| b == b'\n')
        .map(|l| l.strip_suffix(b"\r").unwrap_or(l))
        .collect()
}

/// One hunk of a `-U0` diff, numbered as in its `@@ -old_start,old_count +new_start,new_count
/// @@` header: a side with count 0 names the line *after which* the change happens (0 at the
/// top of the file), as git prints it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Hunk {
    /// First old line (or, for a pure insertion, the old line it follows).
    pub old_start: u64,
    /// Old lines replaced.
    pub old_count: u64,
    /// First new line (or, for a pure deletion, the new line it follows).
    pub new_start: u64,
    /// New lines inserted.
    pub new_count: u64,
}

impl std::fmt::Display for Hunk {
    /// The hunk header as `git diff -U0` prints it (`@@ -12,3 +12 @@`).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let side = |start: u64, count: u64| {
            if count == 1 {
                start.to_string()
            } else {
                format!("{start},{count}")
            }
        };
        write!(
            f,
            "@@ -{} +{} @@",
            side(self.old_start, self.old_count),
            side(self.new_start, self.new_count)
        )
    }
}

/// A 1-based inclusive line range.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct LineRange {
    /// First line.
    pub start_line: u64,
    /// Last line, inclusive.
    pub end_line: u64,
}

/// Where the hunks take old line `line`: a line outside every hunk shifts by the net delta of
/// the hunks before it; a line inside a hunk maps to the hunk's first new line when it starts a
/// range (`is_start`) and to its last new line when it ends one; inside a pure deletion
/// (`+c,0`) a start maps to `c + 1` and an end to `c`. `hunks` must be in order, as a diff
/// gives them.
pub fn map_line(line: u64, hunks: &[Hunk], is_start: bool) -> u64 {
    let mut delta: i64 = 0;
    for h in hunks {
        if h.old_count == 0 {
            // A pure insertion after old line `old_start` shifts every later line.
            if h.old_start < line {
                delta += h.new_count as i64;
                continue;
            }
            break;
        }
        let last = h.old_start + h.old_count - 1;
        if last < line {
            delta += h.new_count as i64 - h.old_count as i64;
            continue;
        }
        if h.old_start <= line {
            if h.new_count == 0 {
                return if is_start {
                    h.new_start + 1
                } else {
                    h.new_start
                };
            }
            return if is_start {
                h.new_start
            } else {
                h.new_start + h.new_count - 1
            };
        }
        break;
    }
    // A line shifted before line 1 cannot happen with hunks of a real diff; saturate rather
    // than wrap if a caller hands in inconsistent ones.
    (line as i64 + delta).max(0) as u64
}

/// The range the hunks map `start..=end` to ([`map_line`] on both ends), or `None` when the
/// whole range was deleted (the mapped start lies after the mapped end).
pub fn map_range(start: u64, end: u64, hunks: &[Hunk]) -> Option<LineRange> {
    let s = map_line(start, hunks, true);
    let e = map_line(end, hunks, false);
    (s <= e).then_some(LineRange {
        start_line: s,
        end_line: e,
    })
}

/// A file at the later commit, split into lines, with an index from a line's content to the
/// positions where it occurs (built on first use: most files are searched several times).
pub struct LaterFile<'a> {
    /// Repository-relative path.
    pub path: &'a str,
    lines: Vec<&'a [u8]>,
    index: std::cell::OnceCell<HashMap<&'a [u8], Vec<u32>>>,
}

impl<'a> LaterFile<'a> {
    /// Splits `data` (the file at the later commit, found at `path`).
    pub fn new(path: &'a str, data: &'a [u8]) -> Self {
        Self {
            path,
            lines: split_lines(data),
            index: std::cell::OnceCell::new(),
        }
    }

    /// The file's lines.
    pub fn lines(&self) -> &[&'a [u8]] {
        &self.lines
    }

    /// 1-based first lines of every line-aligned occurrence of `block`, in order.
    pub fn occurrences(&self, block: &[&[u8]]) -> Vec<u64> {
        let Some(first) = block.first() else {
            return Vec::new();
        };
        let n = block.len();
        let index = self.index.get_or_init(|| {
            let mut map: HashMap<&[u8], Vec<u32>> = HashMap::new();
            for (i, l) in self.lines.iter().enumerate() {
                map.entry(*l).or_default().push(i as u32);
            }
            map
        });
        let Some(starts) = index.get(first) else {
            return Vec::new();
        };
        starts
            .iter()
            .map(|&i| i as usize)
            .filter(|&i| i + n <= self.lines.len() && self.lines[i..i + n] == *block)
            .map(|i| i as u64 + 1)
            .collect()
    }
}

/// 1-based first lines of every line-aligned occurrence of `block` in `lines` (a plain scan;
/// [`LaterFile::occurrences`] is the indexed form).
pub fn occurrences(block: &[&[u8]], lines: &[&[u8]]) -> Vec<u64> {
    let n = block.len();
    if n == 0 || n > lines.len() {
        return Vec::new();
    }
    (0..=lines.len() - n)
        .filter(|&i| lines[i..i + n] == *block)
        .map(|i| i as u64 + 1)
        .collect()
}

/// How a cited range fares at the later commit.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "status", rename_all = "camelCase")]
pub enum Verdict {
    /// Same path, same lines at the same line numbers.
    Unchanged,
    /// The cited lines occur exactly once in the later file, at `new_path` lines
    /// `new_start_line..=new_end_line`.
    #[serde(rename_all = "camelCase")]
    Moved {
        /// The later file's path (the rename target when the file was renamed).
        new_path: String,
        /// First line of the one occurrence.
        new_start_line: u64,
        /// Its last line.
        new_end_line: u64,
    },
    /// The cited lines occur zero or several times in the later file.
    #[serde(rename_all = "camelCase")]
    Changed {
        /// The later file's path.
        new_path: String,
        /// How many times the cited block occurs there.
        occurrences: u64,
        /// Where the diff takes the old range (`None`: all of it was deleted).
        mapped: Option<LineRange>,
    },
    /// Neither the path nor a rename target of it exists at the later commit.
    Missing,
}

impl Verdict {
    /// The status name: `unchanged`, `moved`, `changed` or `missing`.
    pub fn status(&self) -> &'static str {
        match self {
            Self::Unchanged => "unchanged",
            Self::Moved { .. } => "moved",
            Self::Changed { .. } => "changed",
            Self::Missing => "missing",
        }
    }
}

/// The verdict for lines `start..=end` of `path` at the pinned commit, whose text is `cited`,
/// given the later file (`None` when neither the path nor a rename target exists) and, for the
/// changed case only, the hunks between the two versions (`hunks` is called at most once, so a
/// caller can compute them lazily).
pub fn classify<H: AsRef<[Hunk]>>(
    path: &str,
    start: u64,
    end: u64,
    cited: &[&[u8]],
    later: Option<&LaterFile<'_>>,
    hunks: impl FnOnce() -> H,
) -> Verdict {
    let Some(later) = later else {
        return Verdict::Missing;
    };
    let lines = later.lines();
    if later.path == path && start >= 1 {
        let (s, e) = (start as usize - 1, end as usize);
        if e <= lines.len() && s <= e && lines[s..e] == *cited {
            return Verdict::Unchanged;
        }
    }
    let occ = later.occurrences(cited);
    if let [one] = occ.as_slice() {
        return Verdict::Moved {
            new_path: later.path.to_string(),
            new_start_line: *one,
            new_end_line: *one + cited.len() as u64 - 1,
        };
    }
    let hunks = hunks();
    Verdict::Changed {
        new_path: later.path.to_string(),
        occurrences: occ.len() as u64,
        mapped: map_range(start, end, hunks.as_ref()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn h(a: u64, b: u64, c: u64, d: u64) -> Hunk {
        Hunk {
            old_start: a,
            old_count: b,
            new_start: c,
            new_count: d,
        }
    }

    #[test]
    fn split_follows_the_format() {
        assert_eq!(split_lines(b"a\r\nb\n"), vec![&b"a"[..], b"b", b""]);
        assert_eq!(split_lines(b""), vec![&b""[..]]);
        assert_eq!(split_lines(b"x\r\r\n"), vec![&b"x\r"[..], b""]);
    }

    #[test]
    fn lines_outside_hunks_shift_by_earlier_deltas() {
        // +2 lines after line 3, -1 line at 10.
        let hs = [h(3, 0, 4, 2), h(10, 1, 11, 0)];
        assert_eq!(map_line(1, &hs, true), 1);
        assert_eq!(map_line(3, &hs, true), 3);
        assert_eq!(map_line(4, &hs, true), 6);
        assert_eq!(map_line(9, &hs, false), 11);
        assert_eq!(map_line(11, &hs, true), 12);
        assert_eq!(
            map_range(5, 20, &hs),
            Some(LineRange {
                start_line: 7,
                end_line: 21
            })
        );
    }

    #[test]
    fn ends_inside_a_hunk_take_its_new_edges() {
        // Lines 5..7 replaced by 4 lines at 5..8.
        let hs = [h(5, 3, 5, 4)];
        assert_eq!(map_line(6, &hs, true), 5);
        assert_eq!(map_line(6, &hs, false), 8);
        assert_eq!(
            map_range(2, 6, &hs),
            Some(LineRange {
                start_line: 2,
                end_line: 8
            })
        );
        assert_eq!(
            map_range(6, 10, &hs),
            Some(LineRange {
                start_line: 5,
                end_line: 11
            })
        );
    }

    #[test]
    fn a_fully_deleted_range_maps_to_none() {
        // Lines 4..8 deleted; the new side is "after line 3".
        let hs = [h(4, 5, 3, 0)];
        assert_eq!(map_line(4, &hs, true), 4);
        assert_eq!(map_line(8, &hs, false), 3);
        assert_eq!(map_range(4, 8, &hs), None);
        assert_eq!(
            map_range(2, 5, &hs),
            Some(LineRange {
                start_line: 2,
                end_line: 3
            })
        );
        assert_eq!(
            map_range(6, 10, &hs),
            Some(LineRange {
                start_line: 4,
                end_line: 5
            })
        );
    }

    #[test]
    fn an_insertion_at_the_range_start_line_does_not_shift_it() {
        // Insertion after line 5: line 5 stays, line 6 moves.
        let hs = [h(5, 0, 6, 3)];
        assert_eq!(
            map_range(5, 6, &hs),
            Some(LineRange {
                start_line: 5,
                end_line: 9
            })
        );
        // Insertion at the top of the file ("after line 0") shifts line 1.
        let top = [h(0, 0, 1, 2)];
        assert_eq!(map_line(1, &top, true), 3);
    }

    #[test]
    fn occurrences_are_line_aligned() {
        let lines = split_lines(b"a\nb\na\nb\nab\n");
        let block = split_lines(b"a\nb");
        assert_eq!(occurrences(&block, &lines), vec![1, 3]);
        let f = LaterFile::new("f", b"a\nb\na\nb\nab\n");
        assert_eq!(f.occurrences(&block), vec![1, 3]);
        assert_eq!(f.occurrences(&split_lines(b"ab")), vec![5]);
        assert_eq!(f.occurrences(&split_lines(b"b\nab\n")), vec![4]);
        assert!(f.occurrences(&split_lines(b"zz")).is_empty());
        // A block longer than the file.
        assert!(occurrences(&split_lines(b"a\nb\nc"), &split_lines(b"a\nb")).is_empty());
    }

    #[test]
    fn the_four_verdicts() {
        let old = b"one\ntwo\nthree\nfour\n";
        let cited = &split_lines(old)[1..3]; // two, three
        let no_hunks = Vec::<Hunk>::new;

        let same = LaterFile::new("f.txt", b"one\ntwo\r\nthree\nfour\n");
        assert_eq!(
            classify("f.txt", 2, 3, cited, Some(&same), no_hunks),
            Verdict::Unchanged
        );

        let shifted = LaterFile::new("f.txt", b"zero\none\ntwo\nthree\n");
        assert_eq!(
            classify("f.txt", 2, 3, cited, Some(&shifted), no_hunks),
            Verdict::Moved {
                new_path: "f.txt".into(),
                new_start_line: 3,
                new_end_line: 4
            }
        );

        // Same lines at the same numbers, but in a renamed file: moved, not unchanged.
        let renamed = LaterFile::new("g.txt", old);
        assert_eq!(
            classify("f.txt", 2, 3, cited, Some(&renamed), no_hunks).status(),
            "moved"
        );

        let twice = LaterFile::new("f.txt", b"two\nthree\ntwo\nthree\n");
        let v = classify("f.txt", 2, 3, cited, Some(&twice), || vec![h(1, 1, 0, 0)]);
        assert_eq!(
            v,
            Verdict::Changed {
                new_path: "f.txt".into(),
                occurrences: 2,
                mapped: Some(LineRange {
                    start_line: 1,
                    end_line: 2
                })
            }
        );

        let edited = LaterFile::new("f.txt", b"one\n2\nthree\nfour\n");
        let v = classify("f.txt", 2, 3, cited, Some(&edited), || [h(2, 1, 2, 1)]);
        assert_eq!(
            v,
            Verdict::Changed {
                new_path: "f.txt".into(),
                occurrences: 0,
                mapped: Some(LineRange {
                    start_line: 2,
                    end_line: 3
                })
            }
        );

        assert_eq!(
            classify("f.txt", 2, 3, cited, None, no_hunks),
            Verdict::Missing
        );
    }

    #[test]
    fn hunks_are_computed_only_for_changed_references() {
        let old = b"a\nb\n";
        let cited = &split_lines(old)[0..1];
        let later = LaterFile::new("f", b"x\na\nb\n");
        let v = classify("f", 1, 1, cited, Some(&later), || -> Vec<Hunk> {
            panic!("a moved reference needs no diff")
        });
        assert_eq!(v.status(), "moved");
    }

    #[test]
    fn hunk_headers_print_like_git() {
        assert_eq!(h(12, 3, 12, 1).to_string(), "@@ -12,3 +12 @@");
        assert_eq!(h(0, 0, 1, 2).to_string(), "@@ -0,0 +1,2 @@");
        assert_eq!(h(4, 5, 3, 0).to_string(), "@@ -4,5 +3,0 @@");
    }
}

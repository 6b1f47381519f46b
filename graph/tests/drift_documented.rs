//! A Rust method is cited with its doc comment as a rule. On a real git history (built here
//! with the git CLI) whose change edits such a method and adds another right after it, the
//! range stands for the method, not its impl, and accepting the change cites the method whole,
//! not the diff's mapped range that reaches into the new neighbour (indexmap walk, stop 47:
//! `set.rs:280-300` was "in impl `IndexSet<T, S>`" and would have been re-anchored at 342-376,
//! `insert_full` and the new `replace` and `replace_full`).

mod support;

use ontoly_graph::sources::drift::Verdict;

const OLD: &str = "pub struct Set;

impl Set {
    /// Inserts a value.
    ///
    /// Returns its index.
    pub fn insert_full(&mut self, v: u32) -> usize {
        let i = self.find(v);
        i + 1
    }

    /// Removes a value.
    pub fn remove(&mut self, v: u32) -> bool {
        v > 0
    }
}
";

const NEW: &str = "pub struct Set;

impl Set {
    /// Inserts a value.
    ///
    /// Returns its index.
    pub fn insert_full(&mut self, v: u32) -> usize {
        let i = self.find_or_insert(v);
        i
    }

    /// Replaces a value.
    pub fn replace_full(&mut self, v: u32) -> usize {
        self.insert_full(v)
    }

    /// Removes a value.
    pub fn remove(&mut self, v: u32) -> bool {
        v > 0
    }
}
";

#[test]
fn a_method_cited_with_its_doc_comment_is_the_method() {
    // With its doc comment; the same and the blank line after it; without the comment;
    // two lines of its body.
    let out = support::drift_between("set.rs", OLD, NEW, &[(4, 10), (4, 11), (7, 10), (8, 9)]);
    let at = |i: usize| out[i].accept_at.map(|a| (a.start_line, a.end_line));
    for (i, accepted) in [(0, (4, 10)), (1, (4, 10)), (2, (7, 10))] {
        assert!(
            matches!(out[i].outcome, Ok(Verdict::Changed { .. })),
            "{i}: {:?}",
            out[i].outcome
        );
        let symbol = out[i].symbol.as_ref().expect("a symbol");
        assert_eq!(
            (
                symbol.qualified.as_str(),
                symbol.start_line,
                symbol.end_line
            ),
            // In the form it was cited, as the suggestion is: "was at" and "now at" count the
            // same lines (TypeScript walk, stop 49).
            ("Set::insert_full", accepted.0, accepted.1),
            "{i}"
        );
        assert!(out[i].cited_whole, "{i}");
        assert_eq!(at(i), Some(accepted), "{i}");
        let now = out[i].suggestion.as_ref().expect("a suggestion");
        assert_eq!((now.start_line, now.end_line), accepted, "{i}");
    }
    // Part of the body: the method, not cited whole; accepted where the diff maps it.
    let part = &out[3];
    assert_eq!(
        part.symbol.as_ref().map(|s| s.qualified.as_str()),
        Some("Set::insert_full")
    );
    assert!(!part.cited_whole);
    let Ok(Verdict::Changed {
        mapped: Some(mapped),
        ..
    }) = &part.outcome
    else {
        panic!("{:?}", part.outcome);
    };
    assert_eq!(at(3), Some((mapped.start_line, mapped.end_line)));
}

//! A changed range whose lines were mostly deleted is not accepted where the diff maps what is
//! left: on a real git history (built here with the git CLI), an eleven-line branch replaced
//! by one unrelated line maps to that line, which is not what the section describes
//! (maintainer's walk, stop 43: pluggy's `_getargspec` branch anchored at `_PYPY = …`).

mod support;

use ontoly_graph::sources::drift::{self, CitedRange, CompareOptions, DriftRepo};
use ontoly_graph::sources::git::GitRepo;

const OLD: &str = r#"import sys
import inspect


def varnames(func):
    if sys.version_info >= (3,):
        spec = inspect.getfullargspec(func)
        args = spec.args
        defaults = spec.defaults
        if defaults:
            args = args[: -len(defaults)]
    else:
        spec = inspect.getargspec(func)
        args = spec.args
    return tuple(args)


def other():
    return 1
"#;

const NEW: &str = r#"import sys
import inspect


def varnames(func):
    _PYPY = hasattr(sys, "pypy_version_info")
    return tuple(inspect.signature(func).parameters)


def other():
    return 1
"#;

#[test]
fn a_range_whose_lines_are_mostly_deleted_is_not_accepted_at_what_is_left() {
    let tmp = tempfile::tempdir().expect("temp dir");
    let dir = tmp.path();
    let (c1, c2) = support::two_commits(dir, "hooks.py", OLD, NEW);
    let repo = DriftRepo::new(&GitRepo::open(dir).expect("opens"));
    let options = CompareOptions {
        symbols: true,
        digests: true,
        diffs: true,
    };
    let ranges = [
        // The version branch, lines 6-14: nine lines, of which the diff maps what is left to
        // the one line that replaced them.
        CitedRange {
            path: "hooks.py".into(),
            start_line: 6,
            end_line: 14,
        },
        // `other`, moved up by the deletion: unaffected.
        CitedRange {
            path: "hooks.py".into(),
            start_line: 18,
            end_line: 19,
        },
    ];
    let out = drift::compare(&repo, &c1, &c2, &ranges, options).expect("compares");
    let branch = &out[0];
    assert!(
        matches!(branch.outcome, Ok(drift::Verdict::Changed { .. })),
        "{:?}",
        branch.outcome
    );
    assert_eq!(branch.accept_at, None, "{branch:?}");
    assert_eq!(branch.later_digest, None, "{branch:?}");
    assert!(
        matches!(out[1].outcome, Ok(drift::Verdict::Moved { .. })),
        "{:?}",
        out[1].outcome
    );
    // Where the pack marks it, it says most of the lines are gone: one rule for both.
    assert!(drift::mostly_gone(9, 1));
    assert!(drift::mostly_gone(8, 2));
    assert!(!drift::mostly_gone(9, 3));
    assert!(!drift::mostly_gone(43, 13));
    assert!(!drift::mostly_gone(3, 0));
}

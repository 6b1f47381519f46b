//! A definition cited whole whose lines all survive can still have grown around them: on a
//! real git history (built here with the git CLI), a function that gained a line at the end of
//! its body while an import above moved it down is `moved`, and says the definition grew
//! (maintainer's walk, stop 43: pluggy's `normalize_hookimpl_opts` gained
//! `opts.setdefault("specname", None)` and was re-anchored without review).

mod support;

use ontoly_graph::sources::drift::Verdict;

const OLD: &str = "def normalize(opts):\n    opts.setdefault(\"tryfirst\", False)\n    opts.setdefault(\"hookwrapper\", False)\n\n\ndef other():\n    return 1\n";

const NEW: &str = "import sys\n\n\ndef normalize(opts):\n    opts.setdefault(\"tryfirst\", False)\n    opts.setdefault(\"hookwrapper\", False)\n    opts.setdefault(\"specname\", None)\n\n\ndef other():\n    return 1\n";

#[test]
fn a_definition_cited_whole_that_grew_is_moved_and_says_so() {
    // `normalize` whole, two of its lines, and `other` whole (moved, not grown).
    let out = support::drift_between("hooks.py", OLD, NEW, &[(1, 3), (2, 3), (6, 7)]);
    assert!(
        matches!(
            &out[0].outcome,
            Ok(Verdict::Moved {
                new_start_line: 4,
                new_end_line: 6,
                ..
            })
        ),
        "{:?}",
        out[0].outcome
    );
    let grown = out[0].grown.as_ref().expect("the definition grew");
    assert_eq!(
        (grown.qualified.as_str(), grown.start_line, grown.end_line),
        ("normalize", 4, 7)
    );
    let lines: Vec<&str> = NEW.lines().collect();
    let whole = ontoly_graph::formats::text::lines_digest(
        &lines[3..7].iter().map(|l| l.as_bytes()).collect::<Vec<_>>(),
    );
    assert_eq!(out[0].grown_digest.as_deref(), Some(whole.as_str()));
    // Part of a definition, and a definition that did not grow: nothing to say.
    assert_eq!(out[1].grown, None);
    assert!(matches!(out[2].outcome, Ok(Verdict::Moved { .. })));
    assert_eq!(out[2].grown, None);
}

#[test]
fn a_range_that_ran_to_its_functions_end_is_accepted_to_its_new_end() {
    // The cited tail of `clamp` (lines 3-6, to its last line) is changed: its `raise` became
    // a message and the `raise` was appended after it. To the diff that line is past the
    // range; accepting the change must still cite the function's tail up to its new end
    // (humanize's clamp; Python walk, stop 48). A range inside the function that did not run
    // to its end keeps the diff's mapping.
    let old = "def clamp(value, floor):\n    if value >= floor:\n        return value\n    raise ValueError(\n        'below the floor'\n    )\n\n\ndef other():\n    return 1\n";
    let new = "def clamp(value, floor):\n    if value >= floor:\n        return value\n    msg = (\n        'below the floor'\n    )\n    raise ValueError(msg)\n\n\ndef other():\n    return 1\n";
    let out = support::drift_between("number.py", old, new, &[(2, 6), (2, 5)]);
    let at = |i: usize| {
        let a = out[i].accept_at.as_ref().expect("accepted somewhere");
        (a.start_line, a.end_line)
    };
    assert_eq!(at(0), (2, 7), "{:?}", out[0]);
    assert_eq!(at(1), (2, 5), "{:?}", out[1]);
}

//! A moved range is the same lines elsewhere, not the same code: the definition its lines are
//! part of may have changed around them, and a definition cited whole may have gained only a
//! comment. On real git histories (built here with the git CLI):
//!
//! - a one-line citation inside a function that gained a branch right above it is `moved` and
//!   names the function and the hunk that changed it (js-drift walk, finding 1,
//!   `repro-sparse.sh`: qs's `return utils.compact(obj);` under a new `allowSparse` branch,
//!   "moved, re-anchorable" above a section saying there is no such option);
//! - an unchanged range (its lines at their numbers) in a function that gained code below them
//!   names the function too (Go walk on google/uuid: the same lines say no more than moved
//!   ones do about the code around them);
//! - a function cited whole that gained only a JSDoc or a `//` comment above it has not grown
//!   (finding 7, `repro-exp.sh`: drift held `--write` back while impact, by its rule that a
//!   comment-only hunk touches nothing, listed nothing).

mod support;

use ontoly_graph::sources::drift::{Hunk, Verdict};

const PARSE_OLD: &str = "\
var utils = require('./utils');

module.exports = function (str, opts) {
    var obj = {};
    // merge the keys
    for (var i = 0; i < str.length; ++i) {
        obj = utils.merge(obj, str[i]);
    }

    return utils.compact(obj);
};
";

const PARSE_NEW: &str = "\
var utils = require('./utils');
var formats = require('./formats');

module.exports = function (str, opts) {
    var obj = {};
    // merge the keys (in order)
    for (var i = 0; i < str.length; ++i) {
        obj = utils.merge(obj, str[i]);
    }

    if (opts.allowSparse === true) {
        return obj;
    }

    return utils.compact(obj);
};
";

fn moved_to(out: &ontoly_graph::sources::drift::RangeDrift) -> (u64, u64) {
    match &out.outcome {
        Ok(Verdict::Moved {
            new_start_line,
            new_end_line,
            ..
        }) => (*new_start_line, *new_end_line),
        other => panic!("not moved: {other:?}"),
    }
}

#[test]
fn a_moved_line_inside_a_function_that_changed_around_it_names_the_function() {
    // The cited `return utils.compact(obj);`, and the loop above it (whose function changed
    // below it), and the `require` line outside every function.
    let out = support::drift_between(
        "parse.js",
        PARSE_OLD,
        PARSE_NEW,
        &[(10, 10), (6, 8), (1, 1)],
    );
    assert_eq!(moved_to(&out[0]), (15, 15));
    assert_eq!(out[0].grown, None);
    let around = out[0]
        .changed_around
        .as_ref()
        .expect("the function changed around the line");
    assert_eq!(
        (
            around.definition.qualified.as_str(),
            around.definition.path.as_str(),
            around.definition.start_line,
            around.definition.end_line
        ),
        ("module.exports", "parse.js", 4, 16)
    );
    // The branch, not the edited comment (a comment-only hunk changes no code), numbered in
    // the two files as `git diff -U0` numbers it.
    assert_eq!(
        around.hunks,
        vec![Hunk {
            old_start: 9,
            old_count: 0,
            new_start: 11,
            new_count: 4
        }]
    );
    assert_eq!(moved_to(&out[1]), (7, 9));
    assert!(out[1].changed_around.is_some());
    // Outside every definition: nothing changed around it.
    assert_eq!(out[2].changed_around, None);
}

#[test]
fn a_function_whose_only_change_is_a_comment_has_not_changed_around_its_lines() {
    let new = PARSE_OLD
        .replace("// merge the keys", "// merge the keys, in order")
        .replace("module.exports", "// the parser\nmodule.exports");
    let out = support::drift_between("parse.js", PARSE_OLD, &new, &[(10, 10)]);
    assert_eq!(moved_to(&out[0]), (11, 11));
    assert_eq!(out[0].changed_around, None, "{:?}", out[0]);
}

#[test]
fn a_function_moved_whole_within_its_file_has_not_changed_around_its_lines() {
    // Diffed as a file, the function is deleted and inserted elsewhere; its own lines are the
    // same, so the line cited in it only moved.
    let old =
        "function a() {\n    var x = 1;\n    return x;\n}\n\nfunction b() {\n    return 2;\n}\n";
    let new =
        "function b() {\n    return 2;\n}\n\nfunction a() {\n    var x = 1;\n    return x;\n}\n";
    let out = support::drift_between("m.js", old, new, &[(3, 3)]);
    assert_eq!(moved_to(&out[0]), (7, 7));
    assert_eq!(out[0].changed_around, None, "{:?}", out[0]);
}

const UTILS_OLD: &str = "\
var has = Object.prototype.hasOwnProperty;

var decode = function (str) {
    return str.replace(/\\+/g, ' ');
};

var encode = function encode(str) {
    return escape(str);
};

module.exports = { decode: decode, encode: encode };
";

#[test]
fn a_definition_cited_whole_that_gained_only_comments_above_it_has_not_grown() {
    // A JSDoc above `encode` and a `//` line above `decode`, each cited whole.
    let new = UTILS_OLD
        .replace(
            "var encode",
            "/**\n * Percent-encodes a string (RFC 3986).\n */\nvar encode",
        )
        .replace("var decode", "// the default decoder\nvar decode");
    let out = support::drift_between("utils.js", UTILS_OLD, &new, &[(3, 5), (7, 9)]);
    assert_eq!(moved_to(&out[0]), (4, 6));
    assert_eq!(out[0].grown, None, "{:?}", out[0]);
    assert_eq!(out[0].changed_around, None);
    assert_eq!(moved_to(&out[1]), (11, 13));
    assert_eq!(out[1].grown, None, "{:?}", out[1]);
    assert_eq!(out[1].changed_around, None);
}

#[test]
fn a_definition_cited_whole_that_gained_code_above_it_has_grown() {
    // A decorator is code written on the function: it grew, as before.
    let old = "import functools\n\n\ndef cached(x):\n    return x\n";
    let new = "import functools\n\n\n@functools.cache\ndef cached(x):\n    return x\n";
    let out = support::drift_between("m.py", old, new, &[(4, 5)]);
    assert_eq!(moved_to(&out[0]), (5, 6));
    let grown = out[0].grown.as_ref().expect("grew by its decorator");
    assert_eq!((grown.start_line, grown.end_line), (4, 6));
    // Said once, by `grown`.
    assert_eq!(out[0].changed_around, None);
}

const GO_PARSE_OLD: &str = "\
package uuid

// Parse decodes s into a UUID.
func Parse(s string) (UUID, error) {
\tvar uuid UUID
\tswitch len(s) {
\tcase 36:
\t\tbreak
\tdefault:
\t\treturn uuid, invalidLengthError{len(s)}
\t}
\treturn uuid, nil
}

func Must(uuid UUID, err error) UUID {
\treturn uuid
}
";

#[test]
fn an_unchanged_range_inside_a_function_that_changed_below_it_names_the_function() {
    // A new case below the cited lines; the lines stay at their numbers.
    let new = GO_PARSE_OLD.replace(
        "\t}\n\treturn uuid, nil",
        "\t}\n\tif strings.HasPrefix(s, \"urn:\") {\n\t\treturn uuid, errURN\n\t}\n\treturn uuid, nil",
    );
    let out = support::drift_between("uuid.go", GO_PARSE_OLD, &new, &[(5, 10), (15, 17), (1, 1)]);
    assert_eq!(out[0].outcome, Ok(Verdict::Unchanged));
    let around = out[0]
        .changed_around
        .as_ref()
        .expect("the function changed around the lines");
    assert_eq!(
        (
            around.definition.qualified.as_str(),
            around.definition.start_line,
            around.definition.end_line
        ),
        ("uuid.Parse", 3, 16),
        "{around:?}"
    );
    assert_eq!(around.hunks.len(), 1, "{around:?}");
    assert_eq!(
        (around.hunks[0].new_start, around.hunks[0].new_count),
        (12, 3)
    );
    // A function the change left alone, and lines outside every definition: nothing.
    assert_eq!(
        out[1].outcome,
        Ok(Verdict::Moved {
            new_path: "uuid.go".into(),
            new_start_line: 18,
            new_end_line: 20
        })
    );
    assert_eq!(out[1].changed_around, None);
    assert_eq!(out[2].outcome, Ok(Verdict::Unchanged));
    assert_eq!(out[2].changed_around, None);
}

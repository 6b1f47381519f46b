//! Two methods cited together whose order the change swapped, on a real git history (built
//! here with the git CLI), from the Go walk on google/uuid (`repro-1-accept-reorder.sh`,
//! `repro-2-reorder-text.sh`): `uuid.go:231-252` cited `Version.String` then
//! `Variant.String`, and the change put `Variant.String` first. The diff maps the range onto
//! `Variant.String` alone, 13 of the 17 distinctive lines, while the relocation holds all 17
//! around it: accepting the change must not cite the one method, and the window must start at
//! the first method, not at the `}` of the function above it.

mod support;

use ontoly_graph::sources::drift::Verdict;

const UUID_OLD: &str = "\
package uuid

import \"fmt\"

// Version returns the version of uuid.
func (uuid UUID) Version() Version {
\treturn Version(uuid[6] >> 4)
}

func (v Version) String() string {
\tif v > 15 {
\t\treturn fmt.Sprintf(\"BAD_VERSION_%d\", v)
\t}
\treturn fmt.Sprintf(\"VERSION_%d\", v)
}

func (v Variant) String() string {
\tswitch v {
\tcase RFC4122:
\t\treturn \"RFC4122\"
\tcase Reserved:
\t\treturn \"Reserved\"
\tcase Microsoft:
\t\treturn \"Microsoft\"
\tcase Future:
\t\treturn \"Future\"
\tcase Invalid:
\t\treturn \"Invalid\"
\t}
\treturn fmt.Sprintf(\"BadVariant%d\", int(v))
}

// SetRand sets the random number generator to r.
func SetRand(r io.Reader) {
\trander = r
}
";

/// `UUID_OLD` with the two `String` methods swapped and a line added above them.
fn uuid_new() -> String {
    let version = "func (v Version) String() string {\n\tif v > 15 {\n\t\treturn fmt.Sprintf(\"BAD_VERSION_%d\", v)\n\t}\n\treturn fmt.Sprintf(\"VERSION_%d\", v)\n}\n\n";
    let start = UUID_OLD.find("func (v Version)").unwrap();
    let end = UUID_OLD.find("// SetRand").unwrap();
    let variant = &UUID_OLD[start + version.len()..end];
    format!(
        "{}{}{}{}",
        UUID_OLD[..start].replace("import \"fmt\"", "import (\n\t\"fmt\"\n\t\"io\"\n)"),
        variant,
        version,
        &UUID_OLD[end..]
    )
}

#[test]
fn two_methods_swapped_are_held_back_for_their_relocation_not_accepted_at_one() {
    let new = uuid_new();
    let lines: Vec<&str> = new.lines().collect();
    let line_of = |s: &str| lines.iter().position(|l| *l == s).unwrap() as u64 + 1;
    let variant_at = line_of("func (v Variant) String() string {");
    let version_end = line_of("\treturn fmt.Sprintf(\"VERSION_%d\", v)") + 1;
    // Version.String and Variant.String, 10-31.
    let out = support::drift_between("uuid.go", UUID_OLD, &new, &[(10, 31)]);
    let d = &out[0];
    let Ok(Verdict::Changed {
        occurrences: 0,
        mapped: Some(m),
        ..
    }) = &d.outcome
    else {
        panic!("not changed: {d:?}");
    };
    // The diff maps the range onto Variant.String alone.
    assert_eq!(
        (m.start_line, m.end_line),
        (variant_at, variant_at + 14),
        "{d:?}"
    );
    let r = d.relocation.as_ref().expect("relocated");
    // Both methods, from the first's `func` line: not the `}` and blank line above it.
    assert_eq!(
        (r.start_line, r.end_line, r.matched, r.of),
        (variant_at, version_end, 17, 17),
        "{r:?}"
    );
    // The diff's range holds 13 of them: said beside the window, and accepting the change
    // does not anchor the reference there (it waits for `--accept-relocated`).
    assert_eq!(r.mapped_holds, Some(13), "{r:?}");
    assert_eq!(d.accept_at, None, "{d:?}");
    assert_eq!(d.later_digest, None, "{d:?}");
    assert!(d.relocated_digest.is_some(), "{d:?}");
}

#[test]
fn a_relocation_inside_the_mapped_range_is_not_news_and_the_change_is_accepted() {
    // One method edited in place: the diff's range holds what the window holds.
    let new = UUID_OLD.replace("\"BAD_VERSION_%d\"", "\"BAD_VERSION_%02d\"");
    let out = support::drift_between("uuid.go", UUID_OLD, &new, &[(10, 31)]);
    let d = &out[0];
    let r = d.relocation.as_ref().expect("relocated");
    assert_eq!((r.start_line, r.end_line, r.matched), (10, 31, 16), "{r:?}");
    assert_eq!(r.mapped_holds, None, "{r:?}");
    assert!(d.accept_at.is_some() && d.later_digest.is_some(), "{d:?}");
}

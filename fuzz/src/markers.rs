//! Section markers, front matter, links and headings of one page: no panic, and the scan's
//! invariants (sections in order and disjoint, none when there are errors, ids round-trip).

use ontoly_graph::formats::markers::{decode_id, encode_id, parse_sections, MAX_SECTIONS};
use ontoly_graph::formats::page::{parse_page, MAX_LINKS};
use ontoly_graph::formats::text::strip_bom;

/// Runs the target on one input: panics when one of the checks described above fails.
pub fn run(data: &[u8]) {
    let page = parse_page("faq/page.md", Ok(data), "");
    let Ok(text) = std::str::from_utf8(data) else {
        assert!(page.unusable.is_some(), "non-UTF-8 page used");
        return;
    };
    // A leading byte order mark hides nothing: the page reads as without it.
    assert_eq!(
        page,
        parse_page("faq/page.md", Ok(strip_bom(text).as_bytes()), "")
    );
    let ps = parse_sections(strip_bom(text));
    assert_eq!(ps.sections, page.sections);
    if !ps.errors.is_empty() {
        assert!(ps.sections.is_empty(), "sections kept beside marker errors");
    }
    let lines = text.split('\n').count() as u64;
    let mut last_end = 0;
    for s in &ps.sections {
        assert!(s.start >= 1 && s.start < s.end && s.end <= lines, "{s:?}");
        assert!(s.start > last_end, "overlapping sections {s:?}");
        assert!(!s.id.is_empty());
        last_end = s.end;
        assert_eq!(decode_id(&encode_id(&s.id)), s.id);
    }
    for e in &ps.errors {
        assert!(e.line >= 1 && e.line <= lines, "{e:?}");
    }
    assert!(ps.sections.len() <= MAX_SECTIONS && page.links.len() <= MAX_LINKS);
    assert_eq!(page.section_texts.len(), page.sections.len());
    for l in &page.links {
        assert!(!l.target.starts_with('/') && !l.target.split('/').any(|s| s == ".."));
    }
}

//! Differential: the chunked structure parse with the fast block-layout reader against a
//! whole-document parse of the same text (`parse_structure_split_from` with the chunking
//! threshold at 0 and at `usize::MAX`), so every input, however small, is split into chunks
//! and read by the fast path where it can. The JSON-compatible loader must accept a subset of
//! what the tolerant one does, with the same result. And the values of unread keys, which the
//! loader leaves out unbuilt, change nothing: wherever a parse that builds everything succeeds,
//! the structure is the same.

use ontoly_graph::formats::structure::{
    fill_lines, from_value, load_structure, parse_structure_split_from, Structure,
};
use ontoly_graph::formats::yaml::parse_value;

/// Unknown keys in a stable order: blanked entries are read back after the kept ones.
fn sorted(mut s: Structure) -> Structure {
    s.unknown_keys.sort();
    s
}

/// Runs the target on one input: panics when one of the checks described above fails.
pub fn run(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let chunked = parse_structure_split_from(text, 0);
    let whole = parse_structure_split_from(text, usize::MAX);
    match (&chunked, &whole) {
        (Ok(a), Ok(b)) => assert_eq!(a, b, "chunked and whole-document parses differ"),
        (Err(a), Err(b)) => assert_eq!(a, b),
        _ => panic!("one parse failed: chunked {chunked:?}, whole {whole:?}"),
    }
    if let Ok(strict) = load_structure(text) {
        // The same keys; the order of unknown ones may differ (see `sorted`).
        let whole = whole.as_ref().ok().map(|w| sorted(w.clone()));
        assert_eq!(Some(sorted(strict)), whole);
    }
    if let Ok(v) = parse_value(text) {
        let mut built = from_value(&v);
        fill_lines(&mut built, text);
        let whole = whole
            .as_ref()
            .expect("leaving unread values out added an error");
        assert_eq!(sorted(built), sorted(whole.clone()));
    }
}

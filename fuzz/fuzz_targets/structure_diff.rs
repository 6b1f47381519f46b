//! Differential: the chunked structure parse with the fast block-layout reader against a
//! whole-document YAML parse of the same text. Both come from `graph/src/structure.rs`,
//! compiled into the fuzz crate with the chunking threshold lifted (see fuzz/build.rs), so
//! every input, however small, is split into chunks and read by the fast path where it can.
//! The JSON-compatible loader must accept a subset of what the tolerant one does, with the
//! same result.
#![no_main]

use libfuzzer_sys::fuzz_target;
use ontoly_fuzz::structure::{chunked_at_any_size, fill_lines, from_value, load_structure};
use ontoly_graph::yaml::parse_value;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let chunked = chunked_at_any_size(text);
    let whole = parse_value(text).map(|v| {
        let mut s = from_value(&v);
        fill_lines(&mut s, text);
        s
    });
    match (&chunked, &whole) {
        (Ok(a), Ok(b)) => assert_eq!(a, b, "chunked and whole-document parses differ"),
        (Err(a), Err(b)) => assert_eq!(a, b),
        _ => panic!("one parse failed: chunked {chunked:?}, whole {whole:?}"),
    }
    if let Ok(strict) = load_structure(text) {
        assert_eq!(Some(&strict), chunked.as_ref().ok());
    }
});

//! Differential: `parse_structure` (chunked, with the fast block-layout reader) against a
//! whole-document YAML parse, on the same text. Also the JSON-compatible loader against the
//! tolerant one, and the registry reader on the same text.
//!
//! The chunked path only runs on files of at least 1 MiB, and its threshold is private, so
//! the input is padded past it with a trailing comment line (part of the last item, which the
//! fast reader skips). Both sides parse the padded text, so the comparison stays exact; the
//! padding costs executions per second (see docs/reliability.md).
#![no_main]

use libfuzzer_sys::fuzz_target;
use ontoly_graph::structure::{fill_lines, from_value, load_structure, parse_structure};
use ontoly_graph::yaml::parse_value;

const PAD_TO: usize = 1 << 20;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if text.len() > 64 * 1024 {
        return;
    }
    let mut doc = String::with_capacity(PAD_TO + 16);
    doc.push_str(text);
    if !doc.ends_with('\n') {
        doc.push('\n');
    }
    doc.push_str("# ");
    while doc.len() < PAD_TO {
        doc.push_str("padding padding padding padding padding padding padding padding\n# ");
    }
    doc.push('\n');
    let fast = parse_structure(&doc);
    let whole = parse_value(&doc).map(|v| {
        let mut s = from_value(&v);
        fill_lines(&mut s, &doc);
        s
    });
    match (&fast, &whole) {
        (Ok(a), Ok(b)) => assert_eq!(a, b, "chunked and whole-document parses differ"),
        (Err(a), Err(b)) => assert_eq!(a, b),
        _ => panic!("one parse failed: chunked {fast:?}, whole {whole:?}"),
    }
    // The strict loader accepts a subset of what the tolerant one does, with the same result.
    if let Ok(strict) = load_structure(&doc) {
        assert_eq!(Some(&strict), fast.as_ref().ok());
    }
});

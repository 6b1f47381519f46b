//! A streaming pass over a YAML text, made with the parser the YAML crate itself is built on
//! (libyaml, as `libyaml-rs`), before anything is built from the text.
//!
//! The YAML crate loads every event of a document and then a tree of values: about 200 bytes
//! per node, so `[a,a,a,…]` costs 100× its size, and aliases multiply that by the size of
//! what they name. This pass looks at the events one at a time and drops them, so it costs no
//! more than the parser's own state, and measures what the build would cost: the nodes as
//! written, the nodes once aliases are expanded, the nesting depth, and where each value of
//! the top-level mapping lies (so that values nobody reads can be blanked out unbuilt).
//!
//! It is the same parser, so it sees exactly the document the YAML crate sees; on a syntax
//! error it stops and leaves the message to the real parse.

// The parser is libyaml transpiled to Rust: a C-style API over raw pointers. Everything unsafe
// is in `Events` below, which mirrors how the YAML crate drives the same functions.
#![allow(unsafe_code)]

use libyaml_rs as sys;
use std::collections::HashMap;

/// One value of the top-level mapping.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct TopEntry {
    /// The key, when it is a plain or quoted scalar.
    pub key: Option<String>,
    /// Where the key starts in the text.
    pub key_start: usize,
    /// Byte range of the value in the text (from its anchor or tag, if any).
    pub value: std::ops::Range<usize>,
    /// Nodes of the value as written.
    pub nodes: u64,
    /// Whether the value holds a mapping (whose keys might have no JSON form).
    pub has_mapping: bool,
}

/// What the pass found.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Scan {
    /// Nodes as written: scalars, sequences, mappings, aliases.
    pub nodes: u64,
    /// Nodes once every alias is replaced by what it names.
    pub expanded: u64,
    /// Whether any node carries an anchor.
    pub anchors: bool,
    /// The entries of the top-level mapping (empty when the root is not a mapping).
    pub top: Vec<TopEntry>,
    /// Whether the top-level mapping is in block style (`key: value` lines), where an entry
    /// can be blanked whole; in flow style (`{…}`) its commas must stay.
    pub block_root: bool,
    /// Whether the parser stopped at a syntax error (the figures then cover what came before).
    pub incomplete: bool,
}

/// Why the pass refused the text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Refusal {
    /// One line.
    pub message: String,
    /// 1-based line.
    pub line: u64,
}

/// Kinds of event the pass distinguishes.
enum Kind {
    Open { mapping: bool, flow: bool },
    Close,
    Scalar,
    Alias,
    DocumentEnd,
    StreamEnd,
    Other,
}

struct Event {
    kind: Kind,
    start: usize,
    end: usize,
    line: u64,
    anchor: Option<Vec<u8>>,
    /// The scalar's value (for scalars only, and only when asked for).
    value: Option<String>,
}

/// The parser over one text, one event at a time.
struct Events<'t> {
    // Boxed and never moved: the parser keeps pointers to itself and to `_text`.
    parser: Box<std::mem::MaybeUninit<sys::yaml_parser_t>>,
    _text: &'t [u8],
}

impl<'t> Events<'t> {
    fn new(text: &'t str) -> Option<Events<'t>> {
        let mut parser = Box::new(std::mem::MaybeUninit::<sys::yaml_parser_t>::uninit());
        let p = parser.as_mut_ptr();
        // SAFETY: `p` points to memory owned by the box, which outlives the parser (deleted in
        // Drop, never moved); the input outlives `Events` through its lifetime.
        unsafe {
            if sys::yaml_parser_initialize(p).fail {
                return None;
            }
            sys::yaml_parser_set_encoding(p, sys::YAML_UTF8_ENCODING);
            sys::yaml_parser_set_input_string(p, text.as_ptr(), text.len() as _);
        }
        Some(Events {
            parser,
            _text: text.as_bytes(),
        })
    }

    /// The next event; `None` at a syntax error. `want_value`: copy a scalar's value.
    fn next(&mut self, want_value: bool) -> Option<Event> {
        let mut raw = std::mem::MaybeUninit::<sys::yaml_event_t>::uninit();
        let p = self.parser.as_mut_ptr();
        // SAFETY: the parser was initialized in `new`; a successful parse initializes `raw`,
        // which is read only then and deleted once its data is copied.
        unsafe {
            if sys::yaml_parser_parse(p, raw.as_mut_ptr()).fail {
                return None;
            }
            let e = raw.as_mut_ptr();
            let c_str = |ptr: *const u8| -> Option<Vec<u8>> {
                if ptr.is_null() {
                    return None;
                }
                let mut n = 0;
                while *ptr.add(n) != 0 {
                    n += 1;
                }
                Some(std::slice::from_raw_parts(ptr, n).to_vec())
            };
            let (kind, anchor, value) = match (*e).type_ {
                sys::YAML_SCALAR_EVENT => {
                    let s = (*e).data.scalar;
                    let value = (want_value && !s.value.is_null()).then(|| {
                        let bytes = std::slice::from_raw_parts(s.value, s.length as usize);
                        String::from_utf8_lossy(bytes).into_owned()
                    });
                    (Kind::Scalar, c_str(s.anchor), value)
                }
                sys::YAML_ALIAS_EVENT => (Kind::Alias, c_str((*e).data.alias.anchor), None),
                sys::YAML_SEQUENCE_START_EVENT => (
                    Kind::Open {
                        mapping: false,
                        flow: false,
                    },
                    c_str((*e).data.sequence_start.anchor),
                    None,
                ),
                sys::YAML_MAPPING_START_EVENT => (
                    Kind::Open {
                        mapping: true,
                        flow: (*e).data.mapping_start.style == sys::YAML_FLOW_MAPPING_STYLE,
                    },
                    c_str((*e).data.mapping_start.anchor),
                    None,
                ),
                sys::YAML_SEQUENCE_END_EVENT | sys::YAML_MAPPING_END_EVENT => {
                    (Kind::Close, None, None)
                }
                sys::YAML_DOCUMENT_END_EVENT => (Kind::DocumentEnd, None, None),
                sys::YAML_STREAM_END_EVENT => (Kind::StreamEnd, None, None),
                _ => (Kind::Other, None, None),
            };
            let event = Event {
                kind,
                start: (*e).start_mark.index as usize,
                end: (*e).end_mark.index as usize,
                line: (*e).start_mark.line + 1,
                anchor,
                value,
            };
            sys::yaml_event_delete(e);
            Some(event)
        }
    }
}

impl Drop for Events<'_> {
    fn drop(&mut self) {
        // SAFETY: initialized in `new` (a failed initialization never builds an `Events`).
        unsafe { sys::yaml_parser_delete(self.parser.as_mut_ptr()) }
    }
}

/// An open collection: where its expanded count started, its anchor, and (for a value of the
/// top-level mapping) nothing more — that is tracked in `top`.
struct Open {
    expanded_at_start: u64,
    anchor: Option<Vec<u8>>,
}

/// Streams the events of `text`, refusing nesting deeper than `max_depth` at the line where it
/// happens. Counts cover every document (the YAML crate loads a second one before refusing
/// it); the top-level entries are those of the first.
pub(crate) fn scan(text: &str, max_depth: usize) -> Result<Scan, Refusal> {
    let mut out = Scan::default();
    let Some(mut events) = Events::new(text) else {
        out.incomplete = true;
        return Ok(out);
    };
    let mut stack: Vec<Open> = Vec::new();
    // What each anchor expands to, in nodes.
    let mut sizes: HashMap<Vec<u8>, u64> = HashMap::new();
    // Inside the root mapping: whether the next child is a key, and the entry being read.
    let mut root_is_mapping = false;
    let mut expect_key = true;
    let mut key: Option<String> = None;
    let mut key_start = 0;
    let mut entry_start: Option<(usize, u64, u64)> = None; // (start, nodes, expanded) at start
    let mut entry_has_mapping = false;
    loop {
        let at_root_child = root_is_mapping && stack.len() == 1;
        let Some(e) = events.next(at_root_child && expect_key) else {
            out.incomplete = true;
            return Ok(out);
        };
        // A node starts at root-child level: a key or a value of the top-level mapping.
        let starts_node = matches!(e.kind, Kind::Open { .. } | Kind::Scalar | Kind::Alias);
        if at_root_child && starts_node && !expect_key {
            entry_start = Some((e.start, out.nodes, out.expanded));
            entry_has_mapping = false;
        }
        match e.kind {
            Kind::StreamEnd => return Ok(out),
            Kind::DocumentEnd => {
                root_is_mapping = false;
                continue;
            }
            Kind::Other => continue,
            Kind::Open { mapping, flow } => {
                out.nodes += 1;
                out.expanded += 1;
                out.anchors |= e.anchor.is_some();
                if stack.is_empty() && out.nodes == 1 {
                    root_is_mapping = mapping;
                    out.block_root = mapping && !flow;
                }
                entry_has_mapping |= mapping && !stack.is_empty();
                stack.push(Open {
                    expanded_at_start: out.expanded - 1,
                    anchor: e.anchor,
                });
                if stack.len() > max_depth {
                    return Err(Refusal {
                        message: format!(
                            "recursion limit exceeded: nested deeper than {max_depth}"
                        ),
                        line: e.line,
                    });
                }
                continue; // the node completes at its Close
            }
            Kind::Close => {
                let Some(open) = stack.pop() else {
                    continue;
                };
                if let Some(a) = open.anchor {
                    sizes.insert(a, out.expanded - open.expanded_at_start);
                }
            }
            Kind::Scalar => {
                out.nodes += 1;
                out.expanded += 1;
                if let Some(a) = e.anchor {
                    out.anchors = true;
                    sizes.insert(a, 1);
                }
            }
            Kind::Alias => {
                out.nodes += 1;
                let size = e.anchor.and_then(|a| sizes.get(&a).copied());
                match size {
                    Some(n) => out.expanded = out.expanded.saturating_add(n),
                    // An unknown anchor: the YAML crate reports it.
                    None => {
                        out.incomplete = true;
                        return Ok(out);
                    }
                }
            }
        }
        // A node just completed at root-child level.
        if root_is_mapping && stack.len() == 1 {
            if expect_key {
                key = e.value;
                key_start = e.start;
            } else if let Some((start, nodes, _)) = entry_start.take() {
                out.top.push(TopEntry {
                    key: key.take(),
                    key_start,
                    value: start..e.end,
                    nodes: out.nodes - nodes,
                    has_mapping: entry_has_mapping,
                });
            }
            expect_key = !expect_key;
        }
    }
}

/// `text` with each range in `blank` (values of the top-level mapping) replaced by spaces, line
/// breaks kept: the value reads as empty, i.e. null, and offsets and line numbers stay those
/// of `text`. (Not `~`: a sequence may start at its key's column, where `~` would be a key.)
pub(crate) fn blank_out(text: &str, blank: &[std::ops::Range<usize>]) -> String {
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    for r in blank {
        out.push_str(&text[at..r.start]);
        for c in text[r.clone()].chars() {
            if c == '\n' || c == '\r' {
                out.push(c);
            } else {
                out.extend(std::iter::repeat_n(' ', c.len_utf8()));
            }
        }
        at = r.end;
    }
    out.push_str(&text[at..]);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn keys(text: &str) -> Vec<(Option<String>, String, u64)> {
        scan(text, 128)
            .expect("scans")
            .top
            .into_iter()
            .map(|t| (t.key, text[t.value].to_string(), t.nodes))
            .collect()
    }

    #[test]
    fn top_level_values_are_located_in_every_layout() {
        let text = "a: 1\nb:\n  - x\n  - [y, z]\n# c\nc: {k: v}\nd:\n- p\n- q\ne: |\n  lit\n  eral\nf: &n 'q'\n? [g]\n: 2\n";
        assert_eq!(
            keys(text),
            vec![
                (Some("a".into()), "1".into(), 1),
                (Some("b".into()), "- x\n  - [y, z]\n# c\n".into(), 5),
                (Some("c".into()), "{k: v}".into(), 3),
                (Some("d".into()), "- p\n- q\n".into(), 3),
                (Some("e".into()), "|\n  lit\n  eral\n".into(), 1),
                (Some("f".into()), "&n 'q'".into(), 1),
                (None, "2".into(), 1),
            ]
        );
    }

    #[test]
    fn blanking_keeps_lines_and_gives_nulls() {
        let text = "a: 1\nb:\n  - x\n  - [y, z]\nc: {k: v}\nd: é\ne:\n- p\n- q\nf: 2\n";
        let s = scan(text, 128).expect("scans");
        let ranges: Vec<_> = s
            .top
            .iter()
            .skip(1)
            .take(4)
            .map(|t| t.value.clone())
            .collect();
        let blanked = blank_out(text, &ranges);
        assert_eq!(blanked.len(), text.len());
        assert_eq!(blanked.lines().count(), text.lines().count());
        let v: yaml_serde::Value = yaml_serde::from_str(&blanked).expect("parses");
        assert_eq!(v.get("a").and_then(|x| x.as_u64()), Some(1));
        for k in ["b", "c", "d", "e"] {
            assert!(v.get(k).is_some_and(|x| x.is_null()), "{k}: {blanked}");
        }
        assert_eq!(v.get("f").and_then(|x| x.as_u64()), Some(2));
    }

    #[test]
    fn aliases_are_counted_as_expanded() {
        let s = scan("a: &x [1, 2, 3]\nb: [*x, *x]\nc: *x\n", 128).expect("scans");
        // Written: the root, a, seq, 3 items, b, seq, 2 aliases, c, alias = 12 nodes.
        assert_eq!(s.nodes, 12);
        // Each alias stands for the 4 nodes of the sequence.
        assert_eq!(s.expanded, 12 - 3 + 3 * 4);
        assert!(s.anchors);
    }

    #[test]
    fn nesting_is_refused_at_its_line_block_or_flow() {
        let e = scan(&format!("{}x\n", "- ".repeat(100_000)), 128).unwrap_err();
        assert_eq!(e.line, 1);
        assert!(e.message.contains("nested deeper than 128"), "{e:?}");
        let deep: String = (0..200)
            .map(|i| format!("{}- \n", "  ".repeat(i)))
            .collect();
        assert_eq!(scan(&deep, 128).unwrap_err().line, 129);
        assert!(scan(&format!("a: {}", "[".repeat(200)), 128).is_err());
        assert!(scan(&format!("{}x{}", "[".repeat(100), "]".repeat(100)), 128).is_ok());
    }

    #[test]
    fn syntax_errors_stop_the_pass_without_a_refusal() {
        let s = scan("a: [1, 2\nb: 3\n", 128).expect("no refusal");
        assert!(s.incomplete);
        let s = scan("a: *nope\n", 128).expect("no refusal");
        assert!(s.incomplete);
    }
}

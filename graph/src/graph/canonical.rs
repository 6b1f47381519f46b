//! The canonical JSON of a node or an edge as the graph hash reads it: byte for byte what
//! `serde_json::to_writer` writes for the same value, written without serde's machinery.
//!
//! Most strings of a graph (ids, names, paths, digests) hold no byte that JSON escapes: those
//! are copied between quotes in one piece after a scan that the compiler vectorizes, where
//! serde_json's writer tests them byte by byte. Any string that holds such a byte is written by
//! serde_json itself, so escaping is serde_json's in every case.

use crate::graph::model::{Edge, Metadata, Node};
use std::io::Write;

/// `s` as a JSON string.
fn string(out: &mut Vec<u8>, s: &str) {
    let b = s.as_bytes();
    // serde_json escapes exactly the control bytes, `"` and `\` (not DEL, not non-ASCII).
    if b.iter().all(|&c| c >= 0x20 && c != b'"' && c != b'\\') {
        out.reserve(b.len() + 2);
        out.push(b'"');
        out.extend_from_slice(b);
        out.push(b'"');
    } else {
        // Writing into a Vec cannot fail.
        let _ = serde_json::to_writer(&mut *out, s);
    }
}

fn number(out: &mut Vec<u8>, n: u64) {
    // Writing into a Vec cannot fail; `u64`'s Display is serde_json's form (plain decimal).
    let _ = write!(out, "{n}");
}

fn metadata(out: &mut Vec<u8>, m: &Metadata) {
    // `skip_serializing_if = "Metadata::is_empty"`.
    if m.is_empty() {
        return;
    }
    out.extend_from_slice(b",\"metadata\":{");
    for (i, (k, v)) in m.iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        string(out, k);
        out.push(b':');
        string(out, v);
    }
    out.push(b'}');
}

/// A value with a canonical JSON form.
pub(crate) trait Canonical {
    /// Appends the value's JSON, as `serde_json::to_writer` would write it.
    fn canonical(&self, out: &mut Vec<u8>);
}

impl Canonical for Node {
    fn canonical(&self, out: &mut Vec<u8>) {
        // Fields in declaration order, with the derive's renames and skips (model.rs).
        out.extend_from_slice(b"{\"id\":");
        string(out, &self.id);
        out.extend_from_slice(b",\"type\":");
        string(out, self.kind.as_str());
        out.extend_from_slice(b",\"name\":");
        string(out, &self.name);
        if let Some(f) = &self.file {
            out.extend_from_slice(b",\"file\":");
            string(out, f);
        }
        if let Some(s) = &self.span {
            out.extend_from_slice(b",\"span\":{\"file\":");
            string(out, &s.file);
            out.extend_from_slice(b",\"startLine\":");
            number(out, s.start_line);
            out.extend_from_slice(b",\"endLine\":");
            number(out, s.end_line);
            out.push(b'}');
        }
        if let Some(p) = &self.package {
            out.extend_from_slice(b",\"package\":");
            string(out, p);
        }
        metadata(out, &self.metadata);
        out.push(b'}');
    }
}

impl Canonical for Edge {
    fn canonical(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(b"{\"id\":");
        string(out, &self.id);
        out.extend_from_slice(b",\"type\":");
        string(out, self.kind.as_str());
        out.extend_from_slice(b",\"from\":");
        string(out, &self.from);
        out.extend_from_slice(b",\"to\":");
        string(out, &self.to);
        if let Some(o) = &self.origin {
            out.extend_from_slice(b",\"origin\":{\"file\":");
            string(out, &o.file);
            out.extend_from_slice(b",\"line\":");
            number(out, o.line);
            out.push(b'}');
        }
        metadata(out, &self.metadata);
        out.push(b'}');
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::model::{meta_key, EdgeKind, NodeKind, Origin, Span};

    /// Strings with every byte JSON escapes, the ones it does not (DEL, non-ASCII, a lone
    /// `/`), and plain ones.
    fn hostile() -> Vec<String> {
        let mut v: Vec<String> = vec![
            String::new(),
            "plain".into(),
            "quote \" inside".into(),
            "\"".into(),
            "back\\slash".into(),
            "\\".into(),
            "tab\tnew\nline\rret".into(),
            "\u{8}\u{c}".into(),
            "\u{7f} del".into(),
            "slash / </script>".into(),
            "ünïcödé ✓ 漢字 🦀".into(),
            "\u{2028}\u{2029}".into(),
            "mixed \"ü\"\\\n\u{1}end".into(),
            "section:guides/a.md#x".into(),
            "x".repeat(300) + "\"",
        ];
        v.extend((0u8..0x20).map(|b| format!("c{}c", char::from(b))));
        v
    }

    fn same<T: Canonical + serde::Serialize>(x: &T) {
        let mut a = Vec::new();
        x.canonical(&mut a);
        let b = serde_json::to_vec(x).expect("serializes");
        assert_eq!(
            String::from_utf8_lossy(&a),
            String::from_utf8_lossy(&b),
            "canonical bytes differ from serde_json's"
        );
        assert_eq!(a, b);
    }

    #[test]
    fn nodes_and_edges_write_serde_jsons_bytes_for_hostile_strings() {
        let strs = hostile();
        for (i, s) in strs.iter().enumerate() {
            let t = &strs[(i + 1) % strs.len()];
            for kind in NodeKind::ALL {
                let bare = Node {
                    id: s.clone(),
                    kind,
                    name: t.clone(),
                    file: None,
                    span: None,
                    package: None,
                    metadata: Metadata::new(),
                };
                same(&bare);
                let full = Node {
                    file: Some(t.clone()),
                    span: Some(Span {
                        file: s.clone(),
                        start_line: i as u64,
                        end_line: u64::MAX - i as u64,
                    }),
                    package: Some(s.clone()),
                    metadata: [
                        (meta_key("status"), s.clone()),
                        (meta_key(t), t.clone()),
                        (meta_key("zz"), String::new()),
                    ]
                    .into_iter()
                    .collect(),
                    ..bare
                };
                same(&full);
            }
            for kind in EdgeKind::ALL {
                let bare = Edge {
                    id: t.clone(),
                    kind,
                    from: s.clone(),
                    to: t.clone(),
                    origin: None,
                    metadata: Metadata::new(),
                };
                same(&bare);
                let full = Edge {
                    origin: Some(Origin {
                        file: s.clone(),
                        line: i as u64 * 1_000_003,
                    }),
                    metadata: [
                        (meta_key(s), t.clone()),
                        (meta_key("content_digest"), s.clone()),
                    ]
                    .into_iter()
                    .collect(),
                    ..bare
                };
                same(&full);
            }
        }
    }
}

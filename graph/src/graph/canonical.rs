//! The canonical bytes of a node or an edge, as the graph hash reads them: exactly what
//! `serde_json::to_writer` writes for it (compact, fields in declaration order, absent fields
//! skipped), written without serde's generic machinery.
//!
//! The graph hash reads every node and edge this way (~0.5 M nodes and edges at 100k
//! sections); through serde_json that cost ~1 CPU-s with the hashing, most of it in the
//! generic string escaping of ids and paths that never need an escape. The hash must not change, so the bytes must not either: the tests compare this
//! writer with serde_json on the demo's and the fixtures' graphs and on strings holding every
//! character that JSON escapes.

use crate::graph::model::{Edge, Metadata, Node, Origin, Span};

/// A value the graph hash reads as its canonical JSON.
pub trait Canonical {
    /// Appends this value's canonical JSON to `out`.
    fn write_canonical(&self, out: &mut Vec<u8>);
}

impl Canonical for Node {
    fn write_canonical(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(b"{\"id\":");
        string(out, &self.id);
        out.extend_from_slice(b",\"type\":");
        string(out, self.kind.as_str());
        out.extend_from_slice(b",\"name\":");
        string(out, &self.name);
        if let Some(file) = &self.file {
            out.extend_from_slice(b",\"file\":");
            string(out, file);
        }
        if let Some(span) = &self.span {
            out.extend_from_slice(b",\"span\":");
            write_span(out, span);
        }
        if let Some(package) = &self.package {
            out.extend_from_slice(b",\"package\":");
            string(out, package);
        }
        write_metadata(out, &self.metadata);
        out.push(b'}');
    }
}

impl Canonical for Edge {
    fn write_canonical(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(b"{\"id\":");
        string(out, &self.id);
        out.extend_from_slice(b",\"type\":");
        string(out, self.kind.as_str());
        out.extend_from_slice(b",\"from\":");
        string(out, &self.from);
        out.extend_from_slice(b",\"to\":");
        string(out, &self.to);
        if let Some(origin) = &self.origin {
            out.extend_from_slice(b",\"origin\":");
            write_origin(out, origin);
        }
        write_metadata(out, &self.metadata);
        out.push(b'}');
    }
}

fn write_span(out: &mut Vec<u8>, span: &Span) {
    out.extend_from_slice(b"{\"file\":");
    string(out, &span.file);
    out.extend_from_slice(b",\"startLine\":");
    number(out, span.start_line);
    out.extend_from_slice(b",\"endLine\":");
    number(out, span.end_line);
    out.push(b'}');
}

fn write_origin(out: &mut Vec<u8>, origin: &Origin) {
    out.extend_from_slice(b"{\"file\":");
    string(out, &origin.file);
    out.extend_from_slice(b",\"line\":");
    number(out, origin.line);
    out.push(b'}');
}

/// `,"metadata":{…}`, or nothing for an empty map (the field is skipped then).
fn write_metadata(out: &mut Vec<u8>, metadata: &Metadata) {
    if metadata.is_empty() {
        return;
    }
    out.extend_from_slice(b",\"metadata\":{");
    for (i, (k, v)) in metadata.iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        string(out, k);
        out.push(b':');
        string(out, v);
    }
    out.push(b'}');
}

fn number(out: &mut Vec<u8>, n: u64) {
    out.extend_from_slice(itoa::Buffer::new().format(n).as_bytes());
}

/// Whether JSON needs `b` escaped: quote, backslash and the control characters below space
/// (serde_json leaves DEL and every non-ASCII character as they are).
fn needs_escape(b: u8) -> bool {
    b < 0x20 || b == b'"' || b == b'\\'
}

/// `s` as a JSON string, escaped as serde_json escapes it.
fn string(out: &mut Vec<u8>, s: &str) {
    out.push(b'"');
    let bytes = s.as_bytes();
    // Ids, names and paths almost never hold a character to escape: one copy then.
    if !bytes.iter().any(|&b| needs_escape(b)) {
        out.extend_from_slice(bytes);
    } else {
        let mut start = 0;
        for (i, &b) in bytes.iter().enumerate() {
            if !needs_escape(b) {
                continue;
            }
            out.extend_from_slice(&bytes[start..i]);
            start = i + 1;
            match b {
                b'"' => out.extend_from_slice(b"\\\""),
                b'\\' => out.extend_from_slice(b"\\\\"),
                0x08 => out.extend_from_slice(b"\\b"),
                b'\t' => out.extend_from_slice(b"\\t"),
                b'\n' => out.extend_from_slice(b"\\n"),
                0x0c => out.extend_from_slice(b"\\f"),
                b'\r' => out.extend_from_slice(b"\\r"),
                _ => {
                    const HEX: &[u8; 16] = b"0123456789abcdef";
                    out.extend_from_slice(b"\\u00");
                    out.push(HEX[usize::from(b >> 4)]);
                    out.push(HEX[usize::from(b & 0xf)]);
                }
            }
        }
        out.extend_from_slice(&bytes[start..]);
    }
    out.push(b'"');
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::model::{EdgeKind, NodeKind};

    fn same<T: Canonical + serde::Serialize>(value: &T) {
        let mut ours = Vec::new();
        value.write_canonical(&mut ours);
        let theirs = serde_json::to_vec(value).expect("serializes");
        assert_eq!(
            String::from_utf8_lossy(&ours),
            String::from_utf8_lossy(&theirs)
        );
    }

    /// Every byte below 0x80 (each control character, quote, backslash, DEL), and characters
    /// of two, three and four bytes.
    fn awkward() -> Vec<String> {
        let mut all: String = (0u8..0x80).map(char::from).collect();
        all.push_str("é€😀");
        vec![
            String::new(),
            all.clone(),
            format!("plain {all} plain"),
            "a\"b\\c\nd".into(),
            "\u{1f}".into(),
            "section:guide.md#intro".into(),
        ]
    }

    #[test]
    fn nodes_are_written_as_serde_json_writes_them() {
        for s in awkward() {
            let mut n = Node {
                id: s.clone(),
                kind: NodeKind::Section,
                name: s.clone(),
                file: None,
                span: None,
                package: None,
                metadata: Metadata::new(),
            };
            same(&n);
            n.file = Some(s.clone());
            n.span = Some(Span {
                file: s.clone(),
                start_line: 0,
                end_line: u64::MAX,
            });
            n.package = Some(s.clone());
            n.metadata = [("title", s.clone()), ("zeta", "1".into()), ("a", s.clone())].into();
            same(&n);
            n.metadata = n.metadata.clone().share();
            same(&n);
        }
        for kind in NodeKind::ALL {
            same(&Node {
                id: "x".into(),
                kind,
                name: "y".into(),
                file: None,
                span: None,
                package: None,
                metadata: Metadata::new(),
            });
        }
    }

    #[test]
    fn edges_are_written_as_serde_json_writes_them() {
        for s in awkward() {
            for kind in EdgeKind::ALL {
                let mut e = Edge::new(kind, s.as_str(), "to", None);
                same(&e);
                e = Edge::new(
                    kind,
                    "from",
                    s.as_str(),
                    Some(Origin {
                        file: s.as_str().into(),
                        line: 12_345_678_901,
                    }),
                );
                same(&e);
                e.metadata = [(s.clone(), s.clone()), ("status".into(), "ok".into())].into();
                same(&e);
            }
        }
    }

    /// The graph hash as it was computed before this writer: serde_json's bytes of every node
    /// and edge, then the texts.
    fn hash_through_serde_json(g: &crate::graph::Graph) -> String {
        let mut h = blake3::Hasher::new();
        h.update(g.version.as_bytes());
        h.update(b"\n");
        for n in g.nodes() {
            h.update(&serde_json::to_vec(n).expect("serializes"));
            h.update(b"\n");
        }
        for e in g.edges() {
            h.update(&serde_json::to_vec(e).expect("serializes"));
            h.update(b"\n");
        }
        for (k, v) in g.texts() {
            h.update(k.as_bytes());
            h.update(b"\0");
            h.update(v.as_bytes());
            h.update(b"\n");
        }
        h.finalize().to_hex().to_string()
    }

    #[test]
    fn the_graph_hash_of_real_workspaces_is_the_one_serde_json_gave() {
        use crate::formats::layout::Workspace;
        use crate::graph::build::{build, BuildOptions};
        let testdata = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../testdata");
        let mut roots = vec![testdata.join("demo")];
        let fixtures = std::fs::read_dir(testdata.join("fixtures")).expect("fixtures listed");
        let mut fixtures: Vec<_> = fixtures
            .map(|e| e.expect("fixture entry").path())
            .filter(|p| p.join("knowledge").is_dir())
            .collect();
        fixtures.sort();
        assert!(fixtures.len() >= 5, "fixtures found: {fixtures:?}");
        roots.extend(fixtures);
        for root in roots {
            let g = build(&Workspace::at(root.clone()), &BuildOptions::default())
                .expect("builds")
                .graph;
            assert!(g.node_count() >= 2, "{}: a graph", root.display());
            for n in g.nodes() {
                same(n);
            }
            for e in g.edges() {
                same(e);
            }
            assert_eq!(g.hash, hash_through_serde_json(&g), "{}", root.display());
        }
    }
}

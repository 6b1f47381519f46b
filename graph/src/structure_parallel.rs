//! Parallel reading of `knowledge/structure.yaml`, with the line of every article, section and
//! reference entry.
//!
//! A large structure file is one long block sequence of articles. Parsing it as one YAML
//! document is inherently serial and is the slowest step of a cold build, so the file is cut at
//! article boundaries (found by a line scan of the block layout), and the pieces are parsed
//! by the same YAML crate on every core. Anything the scan cannot vouch for (anchors, aliases,
//! tags, a piece that fails to parse or parses to a different number of entries) falls back
//! to one serial parse of the whole file, so the fast path never changes the result, only the
//! time it takes. The same scan gives every entry its line, which the YAML value model lacks.

use crate::structure::{self, ArticleEntry, Structure};
use crate::yaml::{parse_value, YamlError};
use rayon::prelude::*;
use yaml_serde::Value;

/// Pieces handed to one parse call are about this large (bytes).
const BATCH_BYTES: usize = 256 * 1024;

/// Parses structure.yaml text like [`structure::parse_structure`], filling in the `line` of
/// every article, section and reference entry that the block layout locates.
pub fn parse(text: &str) -> Result<Structure, YamlError> {
    let lines: Vec<&str> = text.split('\n').collect();
    let mut s = match fast(text, &lines) {
        Some(s) => s,
        None => structure::parse_structure(text)?,
    };
    assign_lines(&lines, &mut s);
    Ok(s)
}

/// Byte offset of the start of each line.
fn offsets(lines: &[&str]) -> Vec<usize> {
    let mut v = Vec::with_capacity(lines.len() + 1);
    let mut o = 0;
    for l in lines {
        v.push(o);
        o += l.len() + 1;
    }
    v.push(o);
    v
}

fn fast(text: &str, lines: &[&str]) -> Option<Structure> {
    if text.len() < BATCH_BYTES || memchr::memchr3(b'&', b'*', b'!', text.as_bytes()).is_some() {
        return None;
    }
    let items = block_items(lines, 0, lines.len(), "articles", 0)?;
    let (first, last) = (items.first()?.0, items.last()?.1);
    let off = offsets(lines);
    let mut batches: Vec<(usize, usize, usize)> = Vec::new(); // (start line, end line, count)
    for &(a, b) in &items {
        match batches.last_mut() {
            Some(last) if off[b] - off[last.0] <= BATCH_BYTES => {
                last.1 = b;
                last.2 += 1;
            }
            _ => batches.push((a, b, 1)),
        }
    }
    let parsed: Vec<Option<Vec<ArticleEntry>>> = batches
        .par_iter()
        .map(|&(a, b, n)| {
            let end = off[b].min(text.len());
            let chunk = &text[off[a]..end];
            let v = crate::block_yaml::parse(chunk).or_else(|| parse_value(chunk).ok())?;
            let seq = v.as_sequence()?;
            if seq.len() != n {
                return None;
            }
            let mut m = yaml_serde::Mapping::new();
            m.insert(Value::String("articles".into()), v);
            structure::from_value(&Value::Mapping(m)).articles
        })
        .collect();
    let mut articles = Vec::with_capacity(items.len());
    for p in parsed {
        articles.extend(p?);
    }
    // The rest of the file, with the article block blanked so lines keep their numbers.
    let mut header = String::with_capacity(off[first] + (last - first) + text.len() - off[last]);
    header.push_str(&text[..off[first]]);
    header.extend(std::iter::repeat_n('\n', last - first));
    header.push_str(text.get(off[last].min(text.len())..).unwrap_or(""));
    let head = crate::block_yaml::parse(&header).or_else(|| parse_value(&header).ok())?;
    let mut s = structure::from_value(&head);
    if !matches!(head.get("articles"), Some(Value::Null)) {
        return None;
    }
    s.articles = Some(articles);
    Some(s)
}

fn indent(l: &str) -> usize {
    l.len() - l.trim_start_matches(' ').len()
}

fn is_blank(l: &str) -> bool {
    let t = l.trim();
    t.is_empty() || t.starts_with('#')
}

fn is_item(l: &str, col: usize) -> bool {
    indent(l) == col && {
        let r = &l[col..];
        r == "-" || r.starts_with("- ") || r.starts_with("-\t") || r == "-\r"
    }
}

/// The line ranges `[start, end)` of the block-sequence items under `key`, where the key sits at
/// column `col` within lines `[from, to)` (on its own line, or after the `- ` of line `from`).
/// `None` when the key is absent, has an inline value, or the layout is not a plain block list.
fn block_items(
    lines: &[&str],
    from: usize,
    to: usize,
    key: &str,
    col: usize,
) -> Option<Vec<(usize, usize)>> {
    let mut k = None;
    for (i, l) in lines.iter().enumerate().take(to).skip(from) {
        if l.len() > col && l.is_char_boundary(col) {
            let lead_ok = if i == from { true } else { indent(l) == col };
            let rest = &l[col..];
            if lead_ok && rest.starts_with(key) && rest[key.len()..].starts_with(':') {
                let after = rest[key.len() + 1..].trim();
                if !(after.is_empty() || after.starts_with('#')) {
                    return None;
                }
                k = Some(i);
                break;
            }
        }
    }
    let k = k?;
    let mut items = Vec::new();
    let mut item_col = None;
    let mut i = k + 1;
    while i < to {
        let l = lines[i];
        if is_blank(l) {
            i += 1;
            continue;
        }
        let c = *item_col.get_or_insert(indent(l));
        if c < col || indent(l) < c {
            break;
        }
        if indent(l) == c {
            if !is_item(l, c) {
                break;
            }
            if let Some(last) = items.last_mut() {
                let last: &mut (usize, usize) = last;
                last.1 = i;
            }
            items.push((i, to));
        }
        i += 1;
    }
    if let Some(last) = items.last_mut() {
        // The last item ends at the first line that left the block.
        last.1 = i;
    }
    Some(items)
}

/// Column where an item's own mapping keys sit: after `- ` and any further spaces.
fn content_col(line: &str, item_col: usize) -> usize {
    let r = &line[item_col + 1..];
    item_col + 1 + (r.len() - r.trim_start_matches(' ').len())
}

fn assign_lines(lines: &[&str], s: &mut Structure) {
    let Some(articles) = s.articles.as_mut() else {
        return;
    };
    let Some(items) = block_items(lines, 0, lines.len(), "articles", 0) else {
        return;
    };
    if items.len() != articles.len() {
        return;
    }
    articles
        .par_iter_mut()
        .zip(items.par_iter())
        .for_each(|(a, &(start, end))| {
            a.line = start as u64 + 1;
            let col = content_col(lines[start], indent(lines[start]));
            let Some(sections) = a.sections.as_mut() else {
                return;
            };
            let sitems = block_items(lines, start, end, "sections", col).unwrap_or_default();
            let aligned = sitems.len() == sections.len();
            for (j, sec) in sections.iter_mut().enumerate() {
                sec.line = a.line;
                if !aligned {
                    continue;
                }
                let (ss, se) = sitems[j];
                sec.line = ss as u64 + 1;
                let scol = content_col(lines[ss], indent(lines[ss]));
                if let Some(refs) = sec.references.as_mut() {
                    let ritems = block_items(lines, ss, se, "references", scol).unwrap_or_default();
                    let raligned = ritems.len() == refs.len();
                    for (r, reference) in refs.iter_mut().enumerate() {
                        reference.line = if raligned {
                            ritems[r].0 as u64 + 1
                        } else {
                            sec.line
                        };
                    }
                }
            }
        });
}

#[cfg(test)]
mod tests {
    use super::*;

    const SAMPLE: &str = "schema_version: context.approved-structure.v1\n# comment\narticles:\n  - article_id: guide\n    path: faq/guide.md\n    sections:\n      - id: answer\n        references:\n          - source_ref: repo:acme/server\n            locator: {path: a.go, start_line: 1, end_line: 2}\n            content_digest: sha256:aa\n\n          - source_ref: note:20260101/x.md\n            locator:\n              path: x.md\n              start_line: 1\n              end_line: 1\n      - id: second\n        references: []\n  - path: b.md\n    article_id: b\n    sections:\n    - id: s\n      references:\n      - source_ref: file:x\ninput_hash: sha256:x\n";

    #[test]
    fn lines_of_every_entry() {
        let s = parse(SAMPLE).unwrap();
        let a = s.articles.as_ref().unwrap();
        assert_eq!(a[0].line, 4);
        let secs = a[0].sections.as_ref().unwrap();
        assert_eq!((secs[0].line, secs[1].line), (7, 18));
        let refs = secs[0].references.as_ref().unwrap();
        assert_eq!((refs[0].line, refs[1].line), (9, 13));
        assert_eq!(a[1].line, 20);
        let s1 = &a[1].sections.as_ref().unwrap()[0];
        assert_eq!(s1.line, 23);
        assert_eq!(s1.references.as_ref().unwrap()[0].line, 25);
    }

    #[test]
    fn chunked_parse_equals_serial_parse() {
        // Enough articles to exceed one batch, so the parallel path runs.
        let mut text = String::from("schema_version: context.approved-structure.v1\narticles:\n");
        for i in 0..4000 {
            text.push_str(&format!(
                "- article_id: a{i}\n  path: c/a{i}.md\n  sections:\n  - id: s\n    references:\n    - source_ref: repo:x/y\n      locator: {{path: p.rs, start_line: 1, end_line: {i}}}\n      content_digest: sha256:00\n"
            ));
        }
        text.push_str("processed_scopes: []\nextra: 1\n");
        let lines: Vec<&str> = text.split('\n').collect();
        let fast = fast(&text, &lines).expect("fast path applies");
        let serial = structure::parse_structure(&text).unwrap();
        assert_eq!(fast, serial);
        let with_lines = parse(&text).unwrap();
        let a = &with_lines.articles.unwrap()[3999];
        assert_eq!(a.line, 3 + 3999 * 8);
        assert_eq!(
            a.sections.as_ref().unwrap()[0].references.as_ref().unwrap()[0].line,
            a.line + 5
        );
    }

    #[test]
    fn block_layout_as_context_writes_it_equals_serial_parse() {
        let mut text = String::from("schema_version: context.approved-structure.v1\narticles:\n");
        for i in 0..3000 {
            text.push_str(&format!(
                "  - article_id: a{i}\n    path: 'c/a {i}.md'\n    collection: c\n    sections:\n      - id: \"s-{i}\"\n        references:\n          - source_ref: repo:x/y\n            locator:\n              path: src/p{i}.rs\n              start_line: {}\n              end_line: {}\n            content_digest: sha256:{:064x}\n      - id: {}\n        references: []\n",
                i + 1,
                i + 2,
                i,
                // Every 100th id is a float: that piece goes through the YAML crate.
                if i % 100 == 0 { "1.50".to_string() } else { format!("t{i}") }
            ));
        }
        let lines: Vec<&str> = text.split('\n').collect();
        let fast = fast(&text, &lines).expect("fast path applies");
        assert_eq!(fast, structure::parse_structure(&text).unwrap());
        assert_eq!(
            fast.articles.as_ref().unwrap()[100]
                .sections
                .as_ref()
                .unwrap()[1]
                .id,
            None
        );
    }

    #[test]
    fn errors_and_oddities_fall_back_to_the_serial_parser() {
        let mut text = String::from("schema_version: v\narticles:\n");
        for i in 0..6000 {
            text.push_str(&format!("- path: a{i}.md\n  sections: []\n"));
        }
        let broken = format!("{text}- path: [\n");
        let e = parse(&broken).unwrap_err();
        assert!(e.line.is_some());
        let dup = format!("{text}articles: []\n");
        assert!(parse(&dup).is_err(), "duplicate top-level key is refused");
        let alias = format!("{text}- &x {{path: z.md}}\n- *x\n");
        let s = parse(&alias).unwrap();
        assert_eq!(s.articles.unwrap().len(), 6002);
    }
}

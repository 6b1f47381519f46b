//! What a knowledge page says: its sections (markers), their texts and first headings, the
//! page's front matter and first heading, and its links to other pages. One page at a time,
//! independent of every other file, so the build can cache it by the page's hash.

use crate::diagnostics::Code;
use crate::formats::headings::{self, Heading};
use crate::formats::markers::{self, MarkerError, SectionSpan};
use crate::formats::text;
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// What one knowledge page contributes, independent of every other file (cached per page).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PageParse {
    /// blake3 of the page bytes.
    pub hash: String,
    /// Why the page could not be used (not UTF-8, unreadable): the code, the message and the
    /// 1-based line it concerns (the first invalid byte's; 1 when the whole file).
    pub unusable: Option<(Code, String, u64)>,
    /// Sections in document order (empty when there are marker errors).
    pub sections: Vec<SectionSpan>,
    /// Marker errors in the order found.
    pub marker_errors: Vec<MarkerError>,
    /// Per section: (first heading, body between the markers). Not stored in the parse cache
    /// (they are the page's own bytes again, a third of the cache): a parse read back from it
    /// has none until [`PageParse::restore_texts`] derives them from the page. The body is
    /// shared by reference count: the graph's text of the section is the same allocation
    /// (~45 MB of bodies at 100k sections, held once while the parse is being cached).
    #[serde(skip)]
    pub section_texts: Vec<(Option<String>, Arc<str>)>,
    /// Front matter.
    pub front: FrontMatter,
    /// The first heading of the page (a title when the front matter has none).
    pub heading: Option<String>,
    /// Links to other pages.
    pub links: Vec<Link>,
    /// Number of lines of the page.
    #[serde(default)]
    pub lines: u64,
}

/// Parses one page (`path` relative to `knowledge/`) from its bytes (or why they could not be
/// read) and their blake3 `hash`.
pub fn parse_page(path: &str, bytes: Result<&[u8], &str>, hash: &str) -> PageParse {
    let empty = |code: Code, msg: String, line: u64| PageParse {
        hash: hash.to_string(),
        unusable: Some((code, msg, line)),
        sections: Vec::new(),
        marker_errors: Vec::new(),
        section_texts: Vec::new(),
        front: FrontMatter::default(),
        heading: None,
        links: Vec::new(),
        lines: 0,
    };
    let bytes = match bytes {
        Ok(b) => b,
        Err(m) => return empty(Code::PageUnreadable, m.to_string(), 1),
    };
    let text = match std::str::from_utf8(bytes) {
        Ok(text) => text,
        Err(e) => {
            // Where to look: an editor shows the rest of the page as it is.
            let (line, column, byte) = text::not_utf8_at(bytes, &e);
            return empty(
                Code::PageNotUtf8,
                text::not_utf8_message(line, column, byte),
                line,
            );
        }
    };
    let text = text::strip_bom(text);
    let ps = markers::parse_sections(text);
    let lines: Vec<&str> = text::lines(text).collect();
    let headings = headings::read(&lines);
    let section_texts = texts_of(&lines, &ps.sections, &headings);
    PageParse {
        hash: hash.to_string(),
        unusable: None,
        sections: ps.sections,
        marker_errors: ps.errors,
        section_texts,
        front: front_matter_of(&lines),
        heading: headings.iter().find_map(|h| headings::title(&h.text)),
        links: links(text, path),
        lines: lines.len() as u64,
    }
}

/// `message` with every `at line N` moved by `by` lines: the YAML parser numbers the front
/// matter's lines from its first, the page from the `---` before it.
fn shift_lines(message: &str, by: u64) -> String {
    let mut out = String::with_capacity(message.len());
    let mut rest = message;
    while let Some(i) = rest.find("at line ") {
        let (before, after) = rest.split_at(i + "at line ".len());
        out.push_str(before);
        let digits = after.bytes().take_while(u8::is_ascii_digit).count();
        match after[..digits].parse::<u64>() {
            Ok(n) => out.push_str(&(n + by).to_string()),
            Err(_) => out.push_str(&after[..digits]),
        }
        rest = &after[digits..];
    }
    out.push_str(rest);
    out
}

/// Per section: its first heading and its body (the lines between its markers).
fn texts_of(
    lines: &[&str],
    sections: &[SectionSpan],
    headings: &[Heading<'_>],
) -> Vec<(Option<String>, Arc<str>)> {
    sections
        .iter()
        .map(|s| {
            let (a, b) = (s.start as usize, (s.end as usize).saturating_sub(1));
            let body = lines.get(a..b.max(a)).unwrap_or(&[]);
            let first = headings.partition_point(|h| h.line <= s.start);
            let heading = headings[first..]
                .iter()
                .take_while(|h| h.line < s.end)
                .find_map(|h| headings::title(&h.text));
            (heading, body.join("\n").into())
        })
        .collect()
}

impl PageParse {
    /// Derives the section texts again from the page's bytes (the same bytes whose hash this
    /// parse carries), for a parse read back from the cache without them.
    pub fn restore_texts(&mut self, bytes: &[u8]) {
        if self.unusable.is_some() || self.section_texts.len() == self.sections.len() {
            return;
        }
        let Ok(text) = std::str::from_utf8(bytes) else {
            return;
        };
        let lines: Vec<&str> = text::lines(text::strip_bom(text)).collect();
        self.section_texts = texts_of(&lines, &self.sections, &headings::read(&lines));
    }
}

/// What a page's YAML front matter says about it.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct FrontMatter {
    /// `title`, when it is a string.
    pub title: Option<String>,
    /// `description`, when it is a string.
    pub description: Option<String>,
    /// Why the front matter could not be read (message, 1-based page line).
    pub error: Option<(String, u64)>,
}

/// The nodes a page's front matter may build: it holds a title and a description, so a few
/// thousand nodes and then one per 20 bytes.
const FRONT_MATTER_NODES: crate::formats::yaml::NodeBudget = crate::formats::yaml::NodeBudget {
    floor: 5_000,
    bytes_per_node: 20,
};

/// Reads the front matter: a first line `---`, YAML, and a closing `---` (or `...`) line.
/// A page without one has an empty [`FrontMatter`].
pub fn front_matter(text: &str) -> FrontMatter {
    front_matter_of(&text::lines(text).collect::<Vec<_>>())
}

/// [`front_matter`] of a page's lines; where it ends is the heading reader's rule
/// ([`headings::front_matter_end`]), so titles and front matter never disagree on it.
fn front_matter_of(lines: &[&str]) -> FrontMatter {
    if lines.first().map(|l| l.trim_end()) != Some("---") {
        return FrontMatter::default();
    }
    let close = headings::front_matter_end(lines) as usize;
    if close == 0 {
        return FrontMatter {
            error: Some(("front matter is not closed by a `---` line".into(), 1)),
            ..Default::default()
        };
    }
    let body = lines[1..close - 1].join("\n");
    let read = |k: &str| k == "title" || k == "description";
    match crate::formats::yaml::parse_value_keeping(&body, &read, FRONT_MATTER_NODES)
        .map(|l| l.value)
    {
        Ok(v) => FrontMatter {
            title: crate::formats::yaml::get_str(&v, "title").map(str::to_string),
            description: crate::formats::yaml::get_str(&v, "description").map(str::to_string),
            error: None,
        },
        Err(e) => FrontMatter {
            error: Some((shift_lines(&e.message, 1), e.line.map_or(1, |l| l + 1))),
            ..Default::default()
        },
    }
}

/// A markdown link from one page to a target under `knowledge/`.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Link {
    /// The target, relative to `knowledge/`, normalized (no `.`/`..`, no fragment).
    pub target: String,
    /// 1-based page line of the link.
    pub line: u64,
}

/// The links of a page the build keeps. Each becomes an edge or a `LINK_UNRESOLVED` finding,
/// which cost the graph about 2.5 KB each: 200 000 links in 3.8 MB took 500 MB. A page of
/// Context's holds tens.
pub const MAX_LINKS: usize = 1000;

/// Markdown links (inline, reference and autolinks) of a page at `page` (relative to
/// `knowledge/`) whose destination is a relative `.md` path that stays inside `knowledge/`.
/// External URLs, in-page anchors and absolute paths are not article links. At most
/// [`MAX_LINKS`], the first in document order.
pub fn links(text: &str, page: &str) -> Vec<Link> {
    use pulldown_cmark::{Event, Options, Parser, Tag};
    // The markdown parser builds a paragraph's inline tree whole (about 500 bytes a link): it
    // is given the page up to the line that holds twice [`MAX_LINKS`] `](`, which is where
    // the links kept can be. (Reference definitions further down are then not seen.)
    let text = match memchr::memmem::find_iter(text.as_bytes(), b"](").nth(2 * MAX_LINKS) {
        Some(at) => {
            &text[..memchr::memchr(b'\n', &text.as_bytes()[at..]).map_or(text.len(), |e| at + e)]
        }
        None => text,
    };
    let starts = line_starts(text);
    let mut out = Vec::new();
    let parser = Parser::new_ext(text, Options::ENABLE_YAML_STYLE_METADATA_BLOCKS);
    for (event, range) in parser.into_offset_iter() {
        let Event::Start(Tag::Link { dest_url, .. }) = event else {
            continue;
        };
        if let Some(target) = resolve_link(page, &dest_url) {
            let line = starts.partition_point(|&s| s <= range.start) as u64;
            out.push(Link { target, line });
            if out.len() == MAX_LINKS {
                break;
            }
        }
    }
    out
}

fn line_starts(text: &str) -> Vec<usize> {
    let mut v = vec![0];
    v.extend(memchr::memchr_iter(b'\n', text.as_bytes()).map(|i| i + 1));
    v
}

/// Resolves a link destination against the page's directory; `None` for anything that is not a
/// relative link to a `.md` file inside `knowledge/`.
pub fn resolve_link(page: &str, dest: &str) -> Option<String> {
    let dest = dest.split(['#', '?']).next().unwrap_or("");
    if dest.is_empty() || dest.starts_with('/') || dest.contains("://") || dest.contains(':') {
        return None;
    }
    let dest = percent_decode(dest);
    if !dest.ends_with(".md") {
        return None;
    }
    let mut parts: Vec<&str> = page.split('/').collect();
    parts.pop();
    for seg in dest.split('/') {
        match seg {
            "" | "." => {}
            ".." => {
                parts.pop()?;
            }
            s => parts.push(s),
        }
    }
    Some(parts.join("/"))
}

/// `%XX` escapes decoded (malformed ones kept as written); the text as written when the result
/// is not UTF-8.
fn percent_decode(s: &str) -> String {
    percent_encoding::percent_decode_str(s)
        .decode_utf8()
        .map_or_else(|_| s.to_string(), |d| d.into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn front_matter_title_description_and_errors() {
        let fm = front_matter("---\ntitle: Guide\ndescription: How to\n---\n# x\n");
        assert_eq!(fm.title.as_deref(), Some("Guide"));
        assert_eq!(fm.description.as_deref(), Some("How to"));
        assert_eq!(front_matter("# no front matter\n"), FrontMatter::default());
        let bad = front_matter("---\ntitle: [\n---\n");
        assert!(bad.error.is_some());
        assert!(front_matter("---\ntitle: x\n").error.is_some());
        // The message's lines are the page's, as the diagnostic's line is.
        let (message, line) = front_matter("---\nid: 1\ntitle: \"open\n---\n# x\n")
            .error
            .expect("an unclosed quote");
        assert_eq!(line, 3, "{message}");
        assert!(message.contains("scalar at line 3 column"), "{message}");
    }

    #[test]
    fn a_page_that_is_not_utf8_names_the_first_bad_byte() {
        let p = parse_page("a.md", Ok(b"# A\n\nok\nnot \xe9t\xe9\n"), "h");
        let (code, message, line) = p.unusable.expect("not UTF-8");
        assert_eq!((code, line), (Code::PageNotUtf8, 4));
        assert!(
            message.ends_with("(0xe9) is at line 4, byte 5 of the line"),
            "{message}"
        );
    }

    #[test]
    fn links_resolve_relative_to_the_page() {
        let text = "---\ntitle: t\n---\nSee [a](../api/a.md#x) and [b](b.md).\n\n[ext](https://x.org/a.md) [anchor](#top) [img](c.png)\n[up](../../out.md)\n";
        let l = links(text, "faq/guide.md");
        assert_eq!(
            l,
            [
                Link {
                    target: "api/a.md".into(),
                    line: 4
                },
                Link {
                    target: "faq/b.md".into(),
                    line: 4
                }
            ]
        );
        assert_eq!(
            resolve_link("a.md", "my%20page.md").as_deref(),
            Some("my page.md")
        );
    }

    /// The titles `parse_page` gives the page and each of its sections.
    fn titles(page: &str) -> (Option<String>, Vec<Option<String>>) {
        let p = parse_page("p.md", Ok(page.as_bytes()), "h");
        assert_eq!(p.marker_errors, [], "{page}");
        let sections = p.section_texts.into_iter().map(|(h, _)| h).collect();
        (p.heading, sections)
    }

    #[test]
    fn code_comments_are_no_titles() {
        // Author walk s54: a sample's `# comment` before the heading was the title.
        let page = "Intro.\n\n```bash\n# install it\npip install x\n```\n\n# Real page title\n\n<!-- context:section id=\"s\" -->\n~~~yaml\n# markdown_extensions:\n~~~\n## Real section title\nBody.\n<!-- /context:section -->\n";
        let (page_title, sections) = titles(page);
        assert_eq!(page_title.as_deref(), Some("Real page title"));
        assert_eq!(sections, [Some("Real section title".to_string())]);
        // Front matter is no heading either, nor a section's heading after it ends.
        let page = "---\n# a YAML comment\ndescription: d\n---\nText\n\n<!-- context:section id=\"a\" -->\nbody\n<!-- /context:section -->\n## Later\n";
        assert_eq!(titles(page), (Some("Later".into()), vec![None]));
    }

    #[test]
    fn titles_are_read_as_people_see_them() {
        let cases = [
            ("## Custom anchor {: #my-anchor .special }", "Custom anchor"),
            ("## Pandoc anchor {#x}", "Pandoc anchor"),
            ("## Config {name}", "Config {name}"),
            (
                "## [Linked heading](a.md) with **bold** and ![img](i.png)",
                "Linked heading with bold and img",
            ),
            (
                "## Usage 🚀 «Démarrage» &amp; <em>quick</em> start",
                "Usage 🚀 «Démarrage» & quick start",
            ),
            ("## Strict `KBD` Output", "Strict `KBD` Output"),
            (
                "## The generated __hash__ and *its* __eq__",
                "The generated __hash__ and its __eq__",
            ),
            ("## AsyncRetrying.__call__", "AsyncRetrying.__call__"),
            (
                "## The <level> tag, <kbd>Ctrl</kbd><br/>",
                "The <level> tag, Ctrl",
            ),
            ("## 1. Intro", "1. Intro"),
            ("Setext Heading\n--------------", "Setext Heading"),
            ("A two-line\nsetext title\n===", "A two-line setext title"),
            (
                "<h2 id=\"x\">HTML <code>heading</code></h2>",
                "HTML heading",
            ),
        ];
        for (heading, want) in cases {
            let page = format!("<!-- context:section id=\"s\" -->\n{heading}\n\nBody.\n<!-- /context:section -->\n");
            let (page_title, sections) = titles(&page);
            assert_eq!(sections, [Some(want.to_string())], "{heading}");
            assert_eq!(page_title.as_deref(), Some(want), "{heading}");
        }
        // No heading: a list, a rule, a table, indented code, a `#` without a space.
        for body in [
            "- item\n---",
            "***\n---",
            "| a |\n---",
            "    # code\n#NoSpace",
            "<!-- c -->\n---",
        ] {
            let page =
                format!("<!-- context:section id=\"s\" -->\n{body}\n<!-- /context:section -->\n");
            assert_eq!(titles(&page), (None, vec![None]), "{body}");
        }
    }

    #[test]
    fn restored_texts_have_the_same_titles() {
        let page = "\u{feff}```\n# no\n```\n<!-- context:section id=\"s\" -->\nTitle\n===\n<!-- /context:section -->\n";
        let p = parse_page("p.md", Ok(page.as_bytes()), "h");
        let mut cached = p.clone();
        cached.section_texts.clear();
        cached.restore_texts(page.as_bytes());
        assert_eq!(cached.section_texts, p.section_texts);
        assert_eq!(p.section_texts[0].0.as_deref(), Some("Title"));
    }
}

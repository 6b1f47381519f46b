//! Section markers written into a page that has none: what a team converting an existing docs
//! folder does to every page before `structure.yaml` can list it (the authoring walk of stop 54
//! wrote this script by hand, as every converting team would).
//!
//! Headings are the page's own, as [`headings::read`] reads them for titles: a `#` line inside
//! a code fence or an HTML block is no heading, a setext heading (`Title` over `=====`) is one,
//! and a heading inside a block quote or a list item is left alone (markers there would break
//! the quote or the list). Each heading of the chosen level opens a section that runs to the next
//! heading of that level or above; text before the first one stays outside every section.

use crate::formats::headings;
use crate::formats::markers::encode_id;
use crate::formats::text;

/// One section to mark: a heading of the chosen level and the lines it heads.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Planned {
    /// The id written in its marker: the heading's slug, made unique within the page.
    pub id: String,
    /// The heading's title, as the section's title in the graph will read.
    pub title: String,
    /// 1-based line of the heading (of its text, for a setext heading).
    pub heading_line: u64,
    /// 1-based last line of the section's text (trailing blank lines not counted).
    pub last_line: u64,
}

/// The sections of `text` headed by its level-`level` headings (1–6), in page order.
pub fn plan(text: &str, level: u8) -> Vec<Planned> {
    let lines: Vec<&str> = text::lines(text::strip_bom(text)).collect();
    // (level, first line, title) of every heading of the page.
    let headings: Vec<(u8, u64, String)> = headings::read(&lines)
        .into_iter()
        .map(|h| {
            let title = headings::title(&h.text).unwrap_or_default();
            (h.level, h.line, title)
        })
        .collect();
    let blank = |line: u64| {
        lines
            .get(line as usize - 1)
            .is_none_or(|l| l.trim().is_empty())
    };
    let last_line = lines.len() as u64 - u64::from(text.ends_with('\n'));
    let mut out: Vec<Planned> = Vec::new();
    for (i, (l, line, title)) in headings.iter().enumerate() {
        if *l != level {
            continue;
        }
        let next = headings[i + 1..]
            .iter()
            .find(|(n, _, _)| *n <= level)
            .map_or(last_line + 1, |(_, at, _)| *at);
        let mut last = next - 1;
        while last > *line && blank(last) {
            last -= 1;
        }
        let title = title.clone();
        let base = slug(&title);
        let mut id = base.clone();
        let mut k = 2;
        while out.iter().any(|p| p.id == id) {
            id = format!("{base}-{k}");
            k += 1;
        }
        out.push(Planned {
            id,
            title,
            heading_line: *line,
            last_line: last,
        });
    }
    out
}

/// A section id from a heading: lower-case letters and digits of any script, words joined by
/// `-` (`Retry & back-off (v2)` → `retry-back-off-v2`); `section` when nothing is left.
pub fn slug(title: &str) -> String {
    let mut out = String::new();
    for c in title.chars().flat_map(char::to_lowercase) {
        if c.is_alphanumeric() || c == '_' {
            out.push(c);
        } else if !out.is_empty() && !out.ends_with('-') {
            out.push('-');
        }
    }
    let out = out.trim_end_matches('-');
    if out.is_empty() {
        "section".to_string()
    } else {
        out.to_string()
    }
}

/// `text` with each planned section between its markers: the opening marker on the line above
/// its heading, the closing one after its last line and a blank line. The page's line ending
/// (`\r\n` when its first line has one) is kept.
pub fn apply(text: &str, plan: &[Planned]) -> String {
    let eol = if text.split('\n').next().is_some_and(|l| l.ends_with('\r')) && text.contains('\n') {
        "\r\n"
    } else {
        "\n"
    };
    let mut out = String::with_capacity(text.len() + plan.len() * 64);
    let mut lines = text.split_inclusive('\n').enumerate().peekable();
    let mut pending: Vec<&Planned> = plan.iter().collect();
    pending.reverse();
    let mut closing_after: Option<u64> = None;
    while let Some((i, line)) = lines.next() {
        let n = i as u64 + 1;
        if let Some(p) = pending.last().filter(|p| p.heading_line == n) {
            out.push_str(&format!(
                "<!-- context:section id=\"{}\" -->{eol}",
                encode_id(&p.id)
            ));
            closing_after = Some(p.last_line);
            pending.pop();
        }
        out.push_str(line);
        if closing_after == Some(n) {
            if !line.ends_with('\n') {
                out.push_str(eol);
            }
            out.push_str(eol);
            out.push_str("<!-- /context:section -->");
            out.push_str(eol);
            closing_after = None;
            // The original blank lines after the section keep it apart from what follows.
            if lines.peek().is_none() {
                break;
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headings_of_the_level_head_sections_up_to_the_next_of_that_level_or_above() {
        let page = "---\ntitle: T\n---\n# Guide\n\nIntro.\n\n## Install it\n\n```sh\n# not a heading\npip install x\n```\n\n### Detail\n\nMore.\n\n## Use it\nText.\n\n> ## quoted\n\nSetext\n------\n\nEnd.\n\n# Appendix\n\n## Use it\n";
        let p = plan(page, 2);
        let got: Vec<(&str, &str, u64, u64)> = p
            .iter()
            .map(|s| (s.id.as_str(), s.title.as_str(), s.heading_line, s.last_line))
            .collect();
        assert_eq!(
            got,
            [
                ("install-it", "Install it", 8, 17),
                ("use-it", "Use it", 19, 22),
                ("setext", "Setext", 24, 27),
                ("use-it-2", "Use it", 31, 31),
            ]
        );
        let marked = apply(page, &p);
        let again = crate::formats::markers::parse_sections(&marked);
        assert!(again.errors.is_empty(), "{marked}");
        let ids: Vec<&str> = again.sections.iter().map(|s| s.id.as_str()).collect();
        assert_eq!(ids, ["install-it", "use-it", "setext", "use-it-2"]);
        // Nothing but the markers and their blank lines was added.
        let without: String = marked
            .lines()
            .filter(|l| !l.starts_with("<!-- "))
            .collect::<Vec<_>>()
            .join("\n");
        let squeeze = |s: &str| s.split_whitespace().collect::<Vec<_>>().join(" ");
        assert_eq!(squeeze(&without), squeeze(page));
        assert!(marked.contains("# not a heading\npip install x"));
    }

    #[test]
    fn a_pages_line_endings_are_kept_and_slugs_read_any_script() {
        let page = "## Première étape\r\nTexte.\r\n## Retry & back-off (v2)\r\nx\r\n";
        let p = plan(page, 2);
        assert_eq!(p[0].id, "première-étape");
        assert_eq!(p[1].id, "retry-back-off-v2");
        let marked = apply(page, &p);
        assert!(
            marked
                .split('\n')
                .all(|l| l.is_empty() || l.ends_with('\r')),
            "{marked:?}"
        );
        assert_eq!(slug("!!!"), "section");
    }
}

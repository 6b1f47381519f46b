//! The headings of a page: the one reader behind a page's and its sections' titles (`page`) and
//! the sections `ontoly mark` plans (`marking`).
//!
//! A heading is one of the page's own: ATX (`## Title`), setext (a paragraph underlined with
//! `===` or `---`) or a one-line HTML heading (`<h2 id="x">Title</h2>`), at the top level of
//! the page. Lines in code fences (read as the markers read them, [`FencedLines`]) and the
//! front matter are no headings, nor are lines of a block quote, of a list item or of an HTML
//! block (`<div>` up to a blank line, `<!-- … -->`): CommonMark reads `> ## Note` or an
//! indented `## Step` under `1. Install` as a heading *of the quote or the list item*, which a
//! reader sees inside it, not as a heading of the page, and markers written there would break
//! the quote or the list.
//!
//! The reader is line-based, one pass, no allocation but for setext titles: it is on the
//! build's path for every page. Its containers follow CommonMark's rules as far as they decide
//! what is at the top level (a list item's content column, lazy continuation lines, what
//! interrupts a paragraph); a test holds it to pulldown-cmark over every page of `testdata/`.

use crate::formats::markers::{self, FencedLines};
use std::borrow::Cow;

/// How a heading is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// `## Title`.
    Atx,
    /// A paragraph underlined with `===` (level 1) or `---` (level 2).
    Setext,
    /// `<h2>Title</h2>` on one line.
    Html,
}

/// One heading of a page.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Heading<'a> {
    /// 1-based line (of its first text line, for a setext heading).
    pub line: u64,
    /// 1–6.
    pub level: u8,
    /// How it is written.
    pub kind: Kind,
    /// Its text as written (inline markdown still in it; a setext heading's lines joined by a
    /// space). Empty for an empty ATX heading (`##`).
    pub text: Cow<'a, str>,
}

/// The paragraph being read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Para {
    None,
    /// At the top level, from this 1-based line: a setext underline makes it a heading.
    Top(u64),
    /// Inside a block quote or a list item: lines that only continue text stay in it (lazy
    /// continuation), whatever their indentation.
    Inner,
}

/// How an open HTML block ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum HtmlEnd {
    /// At a blank line (`<div>`, `<details>`, any tag alone on its line). Its HTML headings
    /// are rendered as headings.
    Blank,
    /// At the line holding one of these (`-->`, `</pre>`, …): a comment, raw text, no headings.
    Holding(&'static [&'static str]),
}

/// The headings of a page's `lines` (split by [`crate::formats::text::lines`]), in order.
pub fn read<'a>(lines: &[&'a str]) -> Vec<Heading<'a>> {
    let mut out = Vec::new();
    let skip = front_matter_end(lines);
    let mut para = Para::None;
    // The content column of the outermost open list item: a line indented that far is in it.
    let mut item: Option<usize> = None;
    let mut html: Option<HtmlEnd> = None;
    let mut page = FencedLines::new(lines.iter().copied());
    while let Some(line) = page.next() {
        let (n, l) = (line.n, line.text);
        if n <= skip {
            continue;
        }
        let (indent, at) = indentation(l);
        let blank = at == l.len();
        if line.code {
            if page.open_fence() == Some(n) {
                // A fence interrupts a paragraph and ends what it is not indented into.
                para = Para::None;
                if item.is_some_and(|w| indent < w) {
                    item = None;
                }
            }
            if blank && html == Some(HtmlEnd::Blank) {
                html = None;
            }
            continue;
        }
        if blank {
            para = Para::None;
            if html == Some(HtmlEnd::Blank) {
                html = None;
            }
            continue;
        }
        if let Some(end) = html {
            match end {
                HtmlEnd::Blank => {
                    if let Some((level, text)) = html_heading(l) {
                        out.push(heading(n, level, Kind::Html, text));
                    }
                }
                HtmlEnd::Holding(ends) => {
                    if holds_any(l, ends) {
                        html = None;
                    }
                }
            }
            continue;
        }
        if let Some(w) = item {
            if indent >= w {
                para = inner(&l[at..], indent - w, para);
                continue;
            }
            if para == Para::Inner && continues_text(l) {
                continue;
            }
            item = None;
        }
        if para == Para::Inner {
            if continues_text(l) {
                continue;
            }
            para = Para::None;
        }
        // The top level.
        let t = &l[at..];
        if indent >= 4 {
            // A paragraph's continuation, else indented code.
            if !matches!(para, Para::Top(_)) {
                para = Para::None;
            }
            continue;
        }
        if let Para::Top(first) = para {
            if let Some(level) = setext_underline(l) {
                let text = lines[first as usize - 1..n as usize - 1]
                    .iter()
                    .map(|l| l.trim())
                    .collect::<Vec<_>>()
                    .join(" ");
                out.push(heading(first, level, Kind::Setext, Cow::Owned(text)));
                para = Para::None;
                continue;
            }
        }
        if let Some((level, text)) = atx(t) {
            out.push(heading(n, level, Kind::Atx, Cow::Borrowed(text)));
            para = Para::None;
            continue;
        }
        if let Some(rest) = t.strip_prefix('>') {
            para = inner(quoted(rest), 0, Para::None);
            continue;
        }
        if thematic_break(t) {
            para = Para::None;
            continue;
        }
        if let Some(li) = list_item(t, indent) {
            if matches!(para, Para::Top(_)) && !li.interrupts {
                continue;
            }
            item = Some(li.content_column);
            para = inner(&t[li.content_at..], 0, Para::None);
            continue;
        }
        if let Some((end, interrupts)) = html_start(t) {
            if matches!(para, Para::Top(_)) && !interrupts {
                continue;
            }
            para = Para::None;
            if end == HtmlEnd::Blank {
                if let Some((level, text)) = html_heading(l) {
                    out.push(heading(n, level, Kind::Html, text));
                }
                html = Some(end);
            } else if let HtmlEnd::Holding(ends) = end {
                // The end may be on the opening line (a one-line comment: every marker).
                if !holds_any(&t[2..], ends) {
                    html = Some(end);
                }
            }
            continue;
        }
        if para == Para::None {
            // A table row starts a table, not a paragraph (GitHub's tables).
            para = if t.starts_with('|') {
                Para::None
            } else {
                Para::Top(n)
            };
        }
    }
    out
}

fn heading<'a>(line: u64, level: u8, kind: Kind, text: Cow<'a, str>) -> Heading<'a> {
    Heading {
        line,
        level,
        kind,
        text,
    }
}

/// The number of the front matter's closing line, 0 when the page has none (`# comment` and
/// `---` inside it are YAML).
pub(crate) fn front_matter_end(lines: &[&str]) -> u64 {
    match lines.first().map(|l| l.trim_end()) {
        Some("---") => lines
            .iter()
            .skip(1)
            .position(|l| matches!(l.trim_end(), "---" | "..."))
            .map_or(0, |i| i as u64 + 2),
        _ => 0,
    }
}

/// The columns of `l`'s leading spaces and tabs (a tab to the next multiple of 4), and the
/// byte where its content starts.
fn indentation(l: &str) -> (usize, usize) {
    let mut cols = 0;
    for (i, b) in l.bytes().enumerate() {
        match b {
            b' ' => cols += 1,
            b'\t' => cols += 4 - cols % 4,
            _ => return (cols, i),
        }
    }
    (cols, l.len())
}

/// The paragraph state after a line of a container whose content (past the container's own
/// markers) is `content`, indented `extra` columns more than the container's content.
fn inner(content: &str, extra: usize, before: Para) -> Para {
    let (indent, at) = indentation(content);
    let t = &content[at..];
    if t.is_empty() {
        return Para::None;
    }
    if extra + indent >= 4 {
        // Indented code, unless it continues a paragraph.
        return if before == Para::Inner {
            Para::Inner
        } else {
            Para::None
        };
    }
    if let Some(rest) = t.strip_prefix('>') {
        return inner(quoted(rest), 0, Para::None);
    }
    if !thematic_break(t) {
        if let Some(li) = list_item(t, 0) {
            return inner(&t[li.content_at..], 0, Para::None);
        }
    }
    if atx(t).is_some() || thematic_break(t) || html_start(t).is_some() || markers::is_fence(t) {
        return Para::None;
    }
    Para::Inner
}

/// A block quote's line past its `>`: without the one space that may follow it.
fn quoted(rest: &str) -> &str {
    rest.strip_prefix(' ').unwrap_or(rest)
}

/// Whether `l` (not blank) only continues a paragraph: it starts no block that interrupts
/// one. Such a line stays in a quote's or a list item's paragraph however it is indented.
fn continues_text(l: &str) -> bool {
    let (indent, at) = indentation(l);
    let t = &l[at..];
    if indent >= 4 {
        return true;
    }
    !(atx(t).is_some()
        || t.starts_with('>')
        || thematic_break(t)
        || list_item(t, indent).is_some_and(|li| li.interrupts)
        || html_start(t).is_some_and(|(_, interrupts)| interrupts)
        || markers::is_fence(t))
}

/// The level and text of an ATX heading (`## Title ##` → `Title`, inline markdown as written)
/// whose `#` run starts `t` (the line past its indentation).
fn atx(t: &str) -> Option<(u8, &str)> {
    let level = t.bytes().take_while(|&b| b == b'#').count();
    if !(1..=6).contains(&level) {
        return None;
    }
    let rest = &t[level..];
    if !(rest.is_empty() || rest.starts_with([' ', '\t'])) {
        return None;
    }
    let rest = rest.trim();
    // A closing run of `#` is one only after a space: `## Learn C#` keeps its `#`.
    let open = rest.trim_end_matches('#');
    let text = if open.is_empty() || open.ends_with([' ', '\t']) {
        open.trim_end()
    } else {
        rest
    };
    Some((level as u8, text))
}

/// The level and inner text of a one-line HTML heading (`<h2 id="x">Title</h2>` → `Title`).
fn html_heading(line: &str) -> Option<(u8, Cow<'_, str>)> {
    let t = line.trim();
    let b = t.as_bytes();
    if line.len() - line.trim_start().len() > 3
        || b.len() < 4
        || !b[0..2].eq_ignore_ascii_case(b"<h")
        || !(b'1'..=b'6').contains(&b[2])
        || !(b[3] == b'>' || b[3].is_ascii_whitespace())
    {
        return None;
    }
    let open = t.find('>')? + 1;
    let close = format!("</h{}", b[2] as char);
    let end = t.to_ascii_lowercase().rfind(&close)?;
    let inner = t.get(open..end)?.trim();
    (!inner.is_empty()).then_some((b[2] - b'0', Cow::Borrowed(inner)))
}

/// The level a setext underline gives (`===` 1, `---` 2): `=` or `-` alone, indented at most
/// three spaces.
fn setext_underline(line: &str) -> Option<u8> {
    let t = line.trim_end();
    let body = t.trim_start_matches(' ');
    if t.len() - body.len() > 3 || body.is_empty() {
        return None;
    }
    if body.bytes().all(|b| b == b'=') {
        Some(1)
    } else if body.bytes().all(|b| b == b'-') {
        Some(2)
    } else {
        None
    }
}

/// Whether `t` (a line past its indentation) is a thematic break: three or more `*`, `-` or
/// `_`, the same, with only spaces or tabs between.
fn thematic_break(t: &str) -> bool {
    let Some(&c) = t.as_bytes().first() else {
        return false;
    };
    matches!(c, b'*' | b'-' | b'_')
        && t.bytes().filter(|&b| b == c).count() >= 3
        && t.bytes().all(|b| b == c || b == b' ' || b == b'\t')
}

/// A list item's opening line.
struct ListItem {
    /// The column its content starts at (where its further lines must be indented to).
    content_column: usize,
    /// The byte of `t` its content starts at.
    content_at: usize,
    /// Whether it may interrupt a paragraph: it has content, and an ordered one starts at 1.
    interrupts: bool,
}

/// The list item `t` (a line past its `indent` columns of indentation, at most 3) opens.
fn list_item(t: &str, indent: usize) -> Option<ListItem> {
    let b = t.as_bytes();
    let digits = b.iter().take_while(|c| c.is_ascii_digit()).count();
    let (marker, first) = match b.first()? {
        b'-' | b'+' | b'*' => (1, true),
        _ if (1..=9).contains(&digits) && matches!(b.get(digits), Some(b'.' | b')')) => {
            (digits + 1, t[..digits].parse::<u32>() == Ok(1))
        }
        _ => return None,
    };
    let after = &t[marker..];
    if !(after.is_empty() || after.starts_with([' ', '\t'])) {
        return None;
    }
    // Columns are counted from the marker's end, so that a tab after it lands where it does.
    let column = indent + marker;
    let mut cols = 0;
    let mut at = after.len();
    for (i, c) in after.bytes().enumerate() {
        match c {
            b' ' => cols += 1,
            b'\t' => cols += 4 - (column + cols) % 4,
            _ => {
                at = i;
                break;
            }
        }
    }
    let has_content = at < after.len();
    // Content after five or more spaces is indented code one column past the marker.
    let (width, content_at) = if !has_content || cols >= 5 {
        (1, marker + after.len().min(1))
    } else {
        (cols, marker + at)
    };
    Some(ListItem {
        content_column: column + width,
        content_at,
        interrupts: has_content && first,
    })
}

/// The HTML block `t` (a line past its indentation) opens, as CommonMark reads its first line:
/// how it ends, and whether it may interrupt a paragraph.
fn html_start(t: &str) -> Option<(HtmlEnd, bool)> {
    const RAW: &[&str] = &["</script>", "</pre>", "</style>", "</textarea>"];
    const BLOCK: &[&str] = &[
        "address",
        "article",
        "aside",
        "base",
        "basefont",
        "blockquote",
        "body",
        "caption",
        "center",
        "col",
        "colgroup",
        "dd",
        "details",
        "dialog",
        "dir",
        "div",
        "dl",
        "dt",
        "fieldset",
        "figcaption",
        "figure",
        "footer",
        "form",
        "frame",
        "frameset",
        "h1",
        "h2",
        "h3",
        "h4",
        "h5",
        "h6",
        "head",
        "header",
        "hr",
        "html",
        "iframe",
        "legend",
        "li",
        "link",
        "main",
        "menu",
        "menuitem",
        "nav",
        "noframes",
        "ol",
        "optgroup",
        "option",
        "p",
        "param",
        "search",
        "section",
        "summary",
        "table",
        "tbody",
        "td",
        "tfoot",
        "th",
        "thead",
        "title",
        "tr",
        "track",
        "ul",
    ];
    let rest = t.strip_prefix('<')?;
    if rest.starts_with("!--") {
        return Some((HtmlEnd::Holding(&["-->"]), true));
    }
    if rest.starts_with('?') {
        return Some((HtmlEnd::Holding(&["?>"]), true));
    }
    if rest.starts_with("![CDATA[") {
        return Some((HtmlEnd::Holding(&["]]>"]), true));
    }
    if rest.starts_with('!') && rest.as_bytes().get(1).is_some_and(u8::is_ascii_alphabetic) {
        return Some((HtmlEnd::Holding(&[">"]), true));
    }
    let closing = rest.starts_with('/');
    let name_at = usize::from(closing);
    let name_len = rest[name_at..]
        .bytes()
        .take_while(|b| b.is_ascii_alphanumeric() || *b == b'-')
        .count();
    let name = rest[name_at..name_at + name_len].to_ascii_lowercase();
    if name.is_empty() || !name.as_bytes()[0].is_ascii_alphabetic() {
        return None;
    }
    let after = &rest[name_at + name_len..];
    let ends_name = |extra: &str| {
        after.is_empty() || after.starts_with([' ', '\t', '>']) || after.starts_with(extra)
    };
    if !closing && ["script", "pre", "style", "textarea"].contains(&name.as_str()) && ends_name("")
    {
        return Some((HtmlEnd::Holding(RAW), true));
    }
    if BLOCK.contains(&name.as_str()) && ends_name("/>") {
        return Some((HtmlEnd::Blank, true));
    }
    complete_tag(after, closing).then_some((HtmlEnd::Blank, false))
}

/// Whether `after` (what follows a tag's name) completes an open tag (attributes, an optional
/// `/`, `>`) or a closing tag (`>`), with nothing but whitespace after it: CommonMark's
/// seventh kind of HTML block, a tag alone on its line.
fn complete_tag(after: &str, closing: bool) -> bool {
    let mut s = after;
    if !closing {
        loop {
            let trimmed = s.trim_start_matches([' ', '\t']);
            let spaced = trimmed.len() < s.len();
            let name_len = trimmed
                .bytes()
                .take_while(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b':' | b'.' | b'-'))
                .count();
            if !spaced
                || name_len == 0
                || !trimmed
                    .as_bytes()
                    .first()
                    .is_some_and(|b| b.is_ascii_alphabetic() || matches!(b, b'_' | b':'))
            {
                s = trimmed;
                break;
            }
            s = &trimmed[name_len..];
            let value = s.trim_start_matches([' ', '\t']);
            if let Some(v) = value.strip_prefix('=') {
                let v = v.trim_start_matches([' ', '\t']);
                let end = match v.as_bytes().first() {
                    Some(q @ (b'"' | b'\'')) => v[1..].find(*q as char).map(|e| e + 2),
                    Some(_) => Some(v.bytes().take_while(|b| !b" \t\"'=<>`".contains(b)).count())
                        .filter(|&e| e > 0),
                    None => None,
                };
                let Some(end) = end else { return false };
                s = &v[end..];
            }
        }
        s = s.strip_prefix('/').unwrap_or(s);
    } else {
        s = s.trim_start_matches([' ', '\t']);
    }
    s.strip_prefix('>').is_some_and(|r| r.trim().is_empty())
}

/// Whether `l` holds any of `ends`, ASCII case aside.
fn holds_any(l: &str, ends: &[&str]) -> bool {
    let lower = l.to_ascii_lowercase();
    ends.iter().any(|e| lower.contains(e))
}

/// A heading's text for people: inline markdown read (a link or image keeps its text,
/// emphasis its words, a code span its backticks), inline HTML and a trailing attribute list
/// (`{: #id .class }`, `{#id}`) left out, whitespace collapsed. `None` when nothing is left.
pub fn title(raw: &str) -> Option<String> {
    use pulldown_cmark::{Event, Parser, Tag};
    let raw = strip_attribute_list(raw);
    if raw.is_empty() {
        return None;
    }
    // Read as an ATX heading's content, so that `1. Intro` or `> x` stay text.
    let source = format!("# {raw}");
    let mut out = String::new();
    // Emphasis written with `_` is kept as written: in a heading it is mostly a name
    // (`__init__`, `__match_args__`), which a title must keep, and search finds by.
    let mut written_until = 0;
    for (event, range) in Parser::new(&source).into_offset_iter() {
        if range.start < written_until {
            continue;
        }
        match event {
            Event::Start(Tag::Emphasis | Tag::Strong) if source[range.clone()].starts_with('_') => {
                out.push_str(&source[range.clone()]);
                written_until = range.end;
            }
            Event::Text(t) => out.push_str(&t),
            Event::Code(_) => out.push_str(&source[range]),
            Event::SoftBreak | Event::HardBreak => out.push(' '),
            // A tag no HTML element has is text a reader sees (loguru's `<level>` markup).
            Event::InlineHtml(h) if !is_html_phrasing_tag(&h) => out.push_str(&h),
            _ => {}
        }
    }
    let title = out.split_whitespace().collect::<Vec<_>>().join(" ");
    (!title.is_empty()).then_some(title)
}

/// Whether `tag` (`<em>`, `</span>`, `<br/>`) is a tag of an HTML element written inside
/// text, which a browser renders rather than shows.
fn is_html_phrasing_tag(tag: &str) -> bool {
    const ELEMENTS: &[&str] = &[
        "a", "abbr", "b", "bdi", "bdo", "big", "br", "cite", "code", "data", "del", "dfn", "em",
        "font", "i", "img", "ins", "kbd", "mark", "q", "s", "samp", "small", "span", "strike",
        "strong", "sub", "sup", "time", "tt", "u", "var", "wbr",
    ];
    let name: String = (tag.trim_start_matches('<').trim_start_matches('/').chars())
        .take_while(char::is_ascii_alphanumeric)
        .collect::<String>()
        .to_ascii_lowercase();
    ELEMENTS.contains(&name.as_str())
}

/// `raw` without a trailing attribute list as Python-Markdown's `attr_list` and Pandoc write
/// it (`{: #id .class }`, `{#id}`, `{.class}`); other braces (`Config {name}`) are text.
fn strip_attribute_list(raw: &str) -> &str {
    let t = raw.trim_end();
    if let Some(open) = t.strip_suffix('}').and_then(|b| b.rfind('{')) {
        if t[open + 1..].trim_start().starts_with([':', '#', '.']) {
            return t[..open].trim_end();
        }
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;

    /// (line, level, kind, text) of each heading of `page`.
    fn of(page: &str) -> Vec<(u64, u8, Kind, String)> {
        let lines: Vec<&str> = crate::formats::text::lines(page).collect();
        read(&lines)
            .into_iter()
            .map(|h| (h.line, h.level, h.kind, h.text.into_owned()))
            .collect()
    }

    /// The 1-based lines of `page`'s headings, which CommonMark's must be.
    fn lines_of(page: &str) -> Vec<u64> {
        let ours: Vec<u64> = of(page).into_iter().map(|h| h.0).collect();
        let theirs: Vec<u64> = commonmark(page).into_iter().map(|h| h.0).collect();
        assert_eq!(ours, theirs, "CommonMark reads {page:?} otherwise");
        ours
    }

    #[test]
    fn atx_setext_and_html_headings_with_their_levels() {
        assert_eq!(
            of("## Title ##\n   # x\n## Learn C#\n#nope\n    # code\n\n##\nSetext\n===\n<h3 class=\"a\">Html</h3>\n"),
            [
                (1, 2, Kind::Atx, "Title".into()),
                (2, 1, Kind::Atx, "x".into()),
                (3, 2, Kind::Atx, "Learn C#".into()),
                (7, 2, Kind::Atx, "".into()),
                (8, 1, Kind::Setext, "Setext".into()),
                (10, 3, Kind::Html, "Html".into()),
            ]
        );
    }

    #[test]
    fn headings_of_quotes_and_list_items_are_theirs_not_the_pages() {
        // Inside a quote, and after it (a heading is no lazy continuation of a quote).
        assert_eq!(lines_of("> ## Note\n> text\n## After\n"), [3]);
        // A quote's paragraph continues lazily: the underline is no setext heading of the page.
        assert_eq!(lines_of("> quoted\nlazy\n---\n"), Vec::<u64>::new());
        // A list item's content column holds its lines, after blank lines too.
        let page = "1. Install\n\n   ## Step heading\n\n   text\n\n## Page heading\n";
        assert_eq!(lines_of(page), [7]);
        // Nested items, a tab after the marker, and a lazy line then an underline.
        let page = "- a\n  - b\n\n    # deep\n-\tc\n\n    tabbed text\nlazy text\n---\n# top\n";
        assert_eq!(lines_of(page), [10]);
        // A line indented less than the item's content ends it.
        assert_eq!(lines_of("- item\n\n ## One space\n"), [3]);
        // A paragraph underlined after a list is the page's (the list ended at the blank).
        assert_eq!(lines_of("- item\n\nTitle\n=====\n"), [3]);
        // `2.` cannot interrupt a paragraph, so it is text of the setext heading.
        assert_eq!(
            of("Step\n2. more\n---\n"),
            [(1, 2, Kind::Setext, "Step 2. more".into())]
        );
        // A bullet can: the underline is then a rule.
        assert_eq!(lines_of("Text\n- item\n---\n"), Vec::<u64>::new());
    }

    #[test]
    fn html_blocks_code_and_front_matter_hold_no_headings() {
        assert_eq!(lines_of("<div>\n## inside\n</div>\n\n## after\n"), [5]);
        assert_eq!(lines_of("<!--\n# commented out\n-->\n# real\n"), [4]);
        // An HTML block's HTML headings are rendered; a comment's are not.
        assert_eq!(
            lines_of("<div>\n<h2>x</h2>\n</div>\n\n<!--\n<h2>y</h2>\n-->\n"),
            [2]
        );
        // A tag alone on its line cannot interrupt a paragraph.
        assert_eq!(lines_of("Para\n<span>\n===\n"), [1]);
        // Markers are one-line comments: the heading after one is a heading.
        assert_eq!(
            lines_of("<!-- context:section id=\"s\" -->\n## In\n<!-- /context:section -->\n"),
            [2]
        );
        assert_eq!(
            lines_of("```sh\n# comment\n```\n~~~\n## x\n~~~\n# y\n"),
            [7]
        );
        // A fence ends the list item it is not indented into.
        assert_eq!(
            lines_of("- item\n```\ncode\n```\n  # not in the item\n"),
            [5]
        );
        assert_eq!(lines_of("---\n# yaml\n---\n# Title\n"), [4]);
        // A table row starts no paragraph to underline (pulldown-cmark reads a setext heading
        // here; a reader who wrote it meant a table).
        assert_eq!(of("| a |\n---\n"), []);
    }

    #[test]
    fn list_items_content_columns() {
        let col = |t: &str| list_item(t, 0).map(|li| (li.content_column, li.interrupts));
        assert_eq!(col("- a"), Some((2, true)));
        assert_eq!(col("10. a"), Some((4, false)));
        assert_eq!(col("1) a"), Some((3, true)));
        assert_eq!(col("-"), Some((2, false)));
        assert_eq!(col("-      code"), Some((2, true)));
        assert_eq!(col("-a"), None);
        assert_eq!(col("1234567890. a"), None);
    }

    /// The pages' headings as CommonMark (pulldown-cmark, with GitHub's tables) reads them:
    /// (line, level) of every heading outside block quotes and lists, and of one-line HTML
    /// headings in HTML blocks other than comments and raw text.
    fn commonmark(text: &str) -> Vec<(u64, u8)> {
        use pulldown_cmark::{Event, Options, Parser, Tag, TagEnd};
        let starts: Vec<usize> = std::iter::once(0)
            .chain(memchr::memchr_iter(b'\n', text.as_bytes()).map(|i| i + 1))
            .collect();
        let line_of = |offset: usize| starts.partition_point(|&s| s <= offset) as u64;
        let options = Options::ENABLE_YAML_STYLE_METADATA_BLOCKS | Options::ENABLE_TABLES;
        let mut out = Vec::new();
        let mut depth = 0usize;
        let mut rendered_html = false;
        for (event, range) in Parser::new_ext(text, options).into_offset_iter() {
            match event {
                Event::Start(Tag::Heading { level, .. }) if depth == 0 => {
                    out.push((line_of(range.start), level as u8));
                }
                Event::Start(Tag::BlockQuote(_) | Tag::List(_)) => depth += 1,
                Event::End(TagEnd::BlockQuote(_) | TagEnd::List(_)) => depth -= 1,
                Event::Start(Tag::HtmlBlock) => {
                    let t = text[range.clone()].trim_start().to_ascii_lowercase();
                    rendered_html = !["<!", "<?", "<script", "<pre", "<style", "<textarea"]
                        .iter()
                        .any(|p| t.starts_with(p));
                }
                Event::Html(h) if depth == 0 && rendered_html => {
                    for (i, l) in h.split('\n').enumerate() {
                        if let Some((level, _)) = html_heading(l) {
                            out.push((line_of(range.start) + i as u64, level));
                        }
                    }
                }
                _ => {}
            }
        }
        out
    }

    fn markdown_files(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for e in entries.flatten() {
            let p = e.path();
            let name = e.file_name();
            if p.is_dir() && !matches!(name.to_str(), Some("generated" | ".ontoly" | ".git")) {
                markdown_files(&p, out);
            } else if p.extension().is_some_and(|x| x == "md") {
                out.push(p);
            }
        }
    }

    /// The reader agrees with CommonMark on every markdown file of `testdata/` (the demo, the
    /// fixtures, every corpus's pages): the same headings at the same lines and levels.
    #[test]
    fn the_reader_agrees_with_commonmark_on_every_testdata_page() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../testdata");
        let mut files = Vec::new();
        markdown_files(&root, &mut files);
        files.sort();
        assert!(files.len() > 500, "{} markdown files", files.len());
        let mut disagree = Vec::new();
        let mut headings = 0;
        for f in &files {
            let Ok(text) = std::fs::read_to_string(f) else {
                continue;
            };
            let text = crate::formats::text::strip_bom(&text);
            let lines: Vec<&str> = crate::formats::text::lines(text).collect();
            let ours: Vec<(u64, u8)> = read(&lines).iter().map(|h| (h.line, h.level)).collect();
            let theirs = commonmark(text);
            headings += theirs.len();
            if ours != theirs {
                let only_ours: Vec<_> = ours.iter().filter(|h| !theirs.contains(h)).collect();
                let only_theirs: Vec<_> = theirs.iter().filter(|h| !ours.contains(h)).collect();
                disagree.push(format!(
                    "{}: only ours {only_ours:?}, only CommonMark's {only_theirs:?}",
                    f.display()
                ));
            }
        }
        assert!(headings > 3000, "{headings} headings");
        assert!(disagree.is_empty(), "{}", disagree.join("\n"));
    }
}

//! Section markers in knowledge pages (`<!-- context:section id="…" -->` … `<!-- /context:section -->`).
//!
//! A page is valid when every marker pairs up; any marker error makes the whole page contribute
//! no sections, because a half-understood page would attach evidence to the wrong text.

use crate::formats::text::lines;

/// One marked section: its decoded id and its extent, opening to closing marker line inclusive.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct SectionSpan {
    /// The decoded section id.
    pub id: String,
    /// 1-based line of the opening marker.
    pub start: u64,
    /// 1-based line of the closing marker.
    pub end: u64,
}

/// What is wrong with a marker.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum MarkerErrorKind {
    /// An opening marker while a section is open.
    Nested,
    /// A second section with an id already used in the page.
    Duplicate,
    /// A closing marker with no open section.
    UnmatchedEnd,
    /// A section still open at the end of the page (reported at its opening line).
    Unclosed,
    /// A line that starts like a marker but is not one of the two forms.
    Invalid,
    /// More than [`MAX_SECTIONS`] sections in one page (reported at the first one over).
    TooMany,
}

/// What an invalid marker is told: what a marker may be (the legacy form's attributes,
/// `kind=`, `source_ref=`, are the usual cause, and an empty id the next).
const INVALID_DETAIL: &str = "a marker is `<!-- context:section id=\"ID\" -->`, a non-empty `id` alone (attributes such as `kind=` are the legacy form)";

/// [`INVALID_DETAIL`], led by what is wrong with this `line` when it can be told: an id not
/// in double quotes (`id=intro`, `id='intro'`), an empty one, a marker not closed on its line.
fn invalid_detail(line: &str) -> String {
    let t = line.trim();
    let after_id = t.find("id=").map(|i| &t[i + 3..]);
    let why = match after_id {
        Some(v) if v.starts_with("\"\"") => Some("the `id` is empty".to_string()),
        Some(v) if !v.starts_with('"') => {
            // The id runs to its closing quote or the first space; `-` belongs to it
            // (`json-body`), so only a `-->` written against it ends it.
            let raw: String = (v.trim_start_matches('\''))
                .chars()
                .take_while(|c| !c.is_whitespace() && *c != '\'' && *c != '"')
                .take(64)
                .collect();
            let value = raw.strip_suffix("-->").unwrap_or(&raw);
            Some(format!(
                "the `id` must be in double quotes (`id=\"{value}\"`)"
            ))
        }
        _ if !t.ends_with("-->") => Some("the marker must end with `-->` on the same line".into()),
        _ => None,
    };
    match why {
        Some(w) => format!("{w}; {INVALID_DETAIL}"),
        None => INVALID_DETAIL.to_string(),
    }
}

/// The most sections one page may hold. Each costs the build about 2.5 KB whatever its size,
/// so a page of 100 000 one-line sections (7.7 MB) took 250 MB; Context's pages hold tens.
pub const MAX_SECTIONS: usize = 10_000;

/// Scanning stops at this many marker errors: the page is unusable from the first one, and a
/// page of a million bad markers must not become a million findings.
pub const MAX_ERRORS: usize = 100;

impl MarkerErrorKind {
    /// The message Context's evidence plugin uses for this error.
    pub fn message(self) -> &'static str {
        match self {
            Self::Nested => "Nested section marker",
            Self::Duplicate => "Duplicate section marker",
            Self::UnmatchedEnd => "Unmatched section end",
            Self::Unclosed => "Unclosed section marker",
            Self::Invalid => "Invalid section marker",
            Self::TooMany => "Too many section markers (more than 10000 in one page)",
        }
    }
}

/// A marker error and the 1-based line it concerns.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct MarkerError {
    /// What is wrong.
    pub kind: MarkerErrorKind,
    /// Where.
    pub line: u64,
    /// The section ids and lines involved, for a person (`` `setup` is already marked at
    /// line 4``); the kind's message is the format's, this adds to it.
    #[serde(default)]
    pub detail: Option<String>,
}

/// The outcome of scanning one page: sections in document order and errors in the order found.
/// When `errors` is not empty the page has no usable sections (`sections` is then empty).
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct PageSections {
    /// Sections in document order (empty when there are errors).
    pub sections: Vec<SectionSpan>,
    /// Errors in the order they were found while scanning.
    pub errors: Vec<MarkerError>,
}

enum Marker {
    Open(String),
    Close,
    Invalid,
}

/// Decodes an id as written in a marker: `&quot;`, `&lt;`, `&gt;` first, `&amp;` last, so that
/// `&amp;lt;` stays the literal `&lt;`.
pub fn decode_id(raw: &str) -> String {
    raw.replace("&quot;", "\"")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&amp;", "&")
}

/// Encodes an id for a marker (the inverse of [`decode_id`]).
pub fn encode_id(id: &str) -> String {
    id.replace('&', "&amp;")
        .replace('"', "&quot;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

fn classify(line: &str) -> Option<Marker> {
    let t = line.trim();
    let rest = t.strip_prefix("<!--")?;
    let body = rest.trim_start();
    if body.starts_with("/context:section") {
        // Only the exact closing form is a marker; any other line starting like a closing
        // marker is ordinary text (the format's error rule covers lines that start like an
        // opening marker), as in Context's plugin.
        let is_close = rest
            .strip_suffix("-->")
            .is_some_and(|inner| inner.trim() == "/context:section");
        return is_close.then_some(Marker::Close);
    }
    if !body.starts_with("context:section") {
        return None;
    }
    let Some(inner) = rest.strip_suffix("-->") else {
        return Some(Marker::Invalid);
    };
    let inner = inner.trim();
    let Some(attrs) = inner.strip_prefix("context:section") else {
        return Some(Marker::Invalid);
    };
    if !attrs.starts_with(char::is_whitespace) {
        return Some(Marker::Invalid);
    }
    let attrs = attrs.trim();
    let Some(value) = attrs
        .strip_prefix("id=\"")
        .and_then(|v| v.strip_suffix('"'))
    else {
        return Some(Marker::Invalid);
    };
    if value.is_empty() || value.contains('"') {
        return Some(Marker::Invalid);
    }
    Some(Marker::Open(decode_id(value)))
}

/// A fence opener or closer: its character and run length, and whether only whitespace follows.
fn fence(line: &str) -> Option<(u8, usize, bool)> {
    let indent = line.bytes().take_while(|&b| b == b' ').count();
    if indent > 3 {
        return None;
    }
    let rest = &line[indent..];
    let ch = *rest.as_bytes().first()?;
    if ch != b'`' && ch != b'~' {
        return None;
    }
    let run = rest.bytes().take_while(|&b| b == ch).count();
    if run < 3 {
        return None;
    }
    // Unlike CommonMark, a backtick fence's info string may contain backticks: the format
    // (and Context's plugin) take any run of 3+ backticks or tildes as a fence.
    let after = &rest[run..];
    Some((ch, run, after.trim().is_empty()))
}

/// Whether `line` opens or closes a fence, as [`FencedLines`] reads fences.
pub(crate) fn is_fence(line: &str) -> bool {
    fence(line).is_some()
}

/// One line of a page as the format reads it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PageLine<'a> {
    /// 1-based line number.
    pub n: u64,
    /// The line, without its line ending.
    pub text: &'a str,
    /// Whether the line is code: a fence or a line inside a fenced block.
    pub code: bool,
}

/// A page's lines, each told whether it is code. Markers and headings are both read only
/// outside code, by this one reading of fences: a `# comment` in a shell sample is no more a
/// heading than a marker in a markdown sample is a marker (author walk s54: a page's title
/// was a code comment).
pub struct FencedLines<'a, I: Iterator<Item = &'a str>> {
    lines: I,
    n: u64,
    /// The open fence: its character, run length and line.
    open: Option<(u8, usize, u64)>,
}

impl<'a, I: Iterator<Item = &'a str>> FencedLines<'a, I> {
    /// Reads `lines` (a page's lines, split by [`lines`]) from the first.
    pub fn new(lines: I) -> Self {
        Self {
            lines,
            n: 0,
            open: None,
        }
    }

    /// The line of the fence still open after the lines read so far, if one is.
    pub fn open_fence(&self) -> Option<u64> {
        self.open.map(|(_, _, at)| at)
    }
}

impl<'a, I: Iterator<Item = &'a str>> Iterator for FencedLines<'a, I> {
    type Item = PageLine<'a>;

    fn next(&mut self) -> Option<PageLine<'a>> {
        let text = self.lines.next()?;
        self.n += 1;
        let code = match (self.open, fence(text)) {
            (Some((ch, run, _)), Some((c, r, bare))) => {
                if c == ch && r >= run && bare {
                    self.open = None;
                }
                true
            }
            (Some(_), None) => true,
            (None, Some((c, r, _))) => {
                self.open = Some((c, r, self.n));
                true
            }
            (None, None) => false,
        };
        Some(PageLine {
            n: self.n,
            text,
            code,
        })
    }
}

/// Whether `line` is an HTML comment that looks like a misspelled marker, and which:
/// `Some(true)` an opening (`<!-- context:sectoin id="x" -->`, `<!-- contex:section … -->`),
/// `Some(false)` a closing (`<!-- /context:sectoin -->`, `<!-- /context:section x -->`). The
/// format reads such lines as text, so the error is reported where the pairing breaks; this
/// lets that report point at the line (adoption walk, stop 47: a typo at line 17 was only
/// "Unmatched section end" at line 24).
fn near_miss(line: &str) -> Option<bool> {
    if classify(line).is_some() {
        return None;
    }
    let body = line.trim().strip_prefix("<!--")?.trim_start();
    let (closing, body) = match body.strip_prefix('/') {
        Some(b) => (true, b.trim_start()),
        None => (false, body),
    };
    let word: String = body
        .chars()
        .take_while(|c| !c.is_whitespace() && *c != '-')
        .take(40)
        .collect::<String>()
        .to_ascii_lowercase();
    let like = word == "context:section"
        || (word.len() >= 8 && strsim::levenshtein(&word, "context:section") <= 2);
    like.then_some(!closing)
}

/// `detail` with the near-miss line among `near` (line, text, opening) of the wanted kind
/// within `after..before`, the last one, when there is one.
fn with_near_miss(
    detail: String,
    near: &[(u64, String, bool)],
    opening: bool,
    after: u64,
    before: u64,
) -> String {
    let found = near
        .iter()
        .rev()
        .find(|(l, _, o)| *o == opening && *l > after && *l < before);
    match found {
        Some((l, text, _)) => format!(
            "{detail}; line {l} looks like a misspelled {} marker: `{text}`",
            if opening { "opening" } else { "closing" }
        ),
        None => detail,
    }
}

/// Scans a page for sections.
pub fn parse_sections(text: &str) -> PageSections {
    let mut out = PageSections::default();
    let mut open: Option<(String, u64)> = None;
    // Lines that look like misspelled markers (line, text, opening), and the last marker's line.
    let mut near: Vec<(u64, String, bool)> = Vec::new();
    let mut last_marker = 0u64;
    let mut seen: std::collections::HashMap<String, u64> = std::collections::HashMap::new();
    let mut page = FencedLines::new(lines(text));
    for PageLine {
        n,
        text: line,
        code,
    } in page.by_ref()
    {
        if out.errors.len() >= MAX_ERRORS {
            break;
        }
        if code {
            continue;
        }
        let marker = classify(line);
        if marker.is_none() && near.len() < MAX_ERRORS {
            if let Some(opening) = near_miss(line) {
                let text: String = line.trim().chars().take(80).collect();
                near.push((n, text, opening));
            }
        }
        let previous = last_marker;
        if marker.is_some() {
            last_marker = n;
        }
        match marker {
            None => {}
            Some(Marker::Invalid) => out.errors.push(MarkerError {
                kind: MarkerErrorKind::Invalid,
                line: n,
                detail: Some(invalid_detail(line)),
            }),
            Some(Marker::Open(id)) => {
                if let Some((outer, at)) = &open {
                    out.errors.push(MarkerError {
                        kind: MarkerErrorKind::Nested,
                        line: n,
                        detail: Some(with_near_miss(
                            format!(
                                "`{id}` opens inside `{outer}` (line {at}), which has not ended"
                            ),
                            &near,
                            false,
                            *at,
                            n,
                        )),
                    });
                    continue;
                }
                if let Some(first) = seen.get(&id) {
                    out.errors.push(MarkerError {
                        kind: MarkerErrorKind::Duplicate,
                        line: n,
                        detail: Some(format!("`{id}` is already marked at line {first}")),
                    });
                } else {
                    seen.insert(id.clone(), n);
                }
                open = Some((id, n));
            }
            Some(Marker::Close) => match open.take() {
                Some(_) if out.sections.len() == MAX_SECTIONS => {
                    out.errors.push(MarkerError {
                        kind: MarkerErrorKind::TooMany,
                        line: n,
                        detail: None,
                    });
                    break;
                }
                Some((id, start)) => out.sections.push(SectionSpan { id, start, end: n }),
                None => out.errors.push(MarkerError {
                    kind: MarkerErrorKind::UnmatchedEnd,
                    line: n,
                    detail: Some(with_near_miss(
                        "no section is open here".to_string(),
                        &near,
                        true,
                        previous,
                        n,
                    )),
                }),
            },
        }
    }
    if let Some((id, start)) = open {
        let mut detail = with_near_miss(
            format!("`{id}` has no `<!-- /context:section -->` after it"),
            &near,
            false,
            start,
            u64::MAX,
        );
        // A fence left open hides every line after it, a closing marker in plain sight
        // included (author walk, stop 49).
        if let Some(at) = page.open_fence().filter(|&at| at > start) {
            detail.push_str(&format!(
                "; the code fence opened at line {at} is never closed, so the lines after it are code, the closing marker too"
            ));
        }
        out.errors.push(MarkerError {
            kind: MarkerErrorKind::Unclosed,
            line: start,
            detail: Some(detail),
        });
    }
    if !out.errors.is_empty() {
        out.sections.clear();
    }
    out
}

/// The sections of `sections` that overlap lines `start..=end`, in document order.
pub fn overlapping(
    sections: &[SectionSpan],
    start: u64,
    end: u64,
) -> impl Iterator<Item = &SectionSpan> {
    sections
        .iter()
        .filter(move |s| s.start <= end && s.end >= start)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ids(p: &PageSections) -> Vec<(&str, u64, u64)> {
        p.sections
            .iter()
            .map(|s| (s.id.as_str(), s.start, s.end))
            .collect()
    }

    #[test]
    fn basic_and_crlf() {
        let p = parse_sections(
            "x\r\n<!-- context:section id=\"a\" -->\r\nbody\r\n<!-- /context:section -->\r\n",
        );
        assert!(p.errors.is_empty());
        assert_eq!(ids(&p), [("a", 2, 4)]);
    }

    #[test]
    fn an_unclosed_fence_is_named_when_it_hides_the_closing_marker() {
        let page = "<!-- context:section id=\"a\" -->\n## A\n```python\nx = 1\n<!-- /context:section -->\n";
        let p = parse_sections(page);
        assert_eq!(p.errors.len(), 1, "{:?}", p.errors);
        let detail = p.errors[0].detail.clone().unwrap_or_default();
        assert!(
            detail.ends_with("the code fence opened at line 3 is never closed, so the lines after it are code, the closing marker too"),
            "{detail}"
        );
    }

    #[test]
    fn fences_hide_markers() {
        let text = "```md\n<!-- context:section id=\"fake\" -->\n```\n<!-- context:section id=\"real\" -->\n~~~\n<!-- /context:section -->\n~~~\n````text\n```\n<!-- context:section bad -->\n```` trailing\n````\n   ~~~~\n<!-- /context:section -->\n~~~~~  \n    ```\n<!-- /context:section -->\n";
        let p = parse_sections(text);
        assert_eq!(p.errors, []);
        assert_eq!(ids(&p), [("real", 4, 17)]);
    }

    #[test]
    fn whitespace_inside_and_around_markers() {
        let p = parse_sections(
            "  <!--   context:section   id=\"spaced\"   -->  \ntext\n\t<!-- /context:section -->",
        );
        assert_eq!(ids(&p), [("spaced", 1, 3)]);
    }

    #[test]
    fn entity_decoding_order() {
        assert_eq!(decode_id("a&amp;b"), "a&b");
        assert_eq!(decode_id("x&lt;y&gt;&quot;z"), "x<y>\"z");
        assert_eq!(decode_id("&amp;lt;"), "&lt;");
        assert_eq!(decode_id("plain&#39;s"), "plain&#39;s");
        assert_eq!(decode_id(&encode_id("a&<>\"b")), "a&<>\"b");
    }

    #[test]
    fn errors() {
        let cases: &[(&str, MarkerErrorKind, u64, Option<&str>)] = &[
            ("<!-- context:section id=\"a\" -->\n<!-- context:section id=\"b\" -->\n<!-- /context:section -->", MarkerErrorKind::Nested, 2, Some("`b` opens inside `a` (line 1), which has not ended")),
            ("<!-- context:section id=\"a\" -->\n<!-- /context:section -->\n<!-- context:section id=\"a\" -->\n<!-- /context:section -->", MarkerErrorKind::Duplicate, 3, Some("`a` is already marked at line 1")),
            ("x\n<!-- /context:section -->", MarkerErrorKind::UnmatchedEnd, 2, Some("no section is open here")),
            ("x\n<!-- context:section id=\"a\" -->\nbody", MarkerErrorKind::Unclosed, 2, Some("`a` has no `<!-- /context:section -->` after it")),
            ("<!-- context:section bad -->", MarkerErrorKind::Invalid, 1, Some(INVALID_DETAIL)),
            ("<!-- context:section id=\"a\" kind=\"x\" -->", MarkerErrorKind::Invalid, 1, Some(INVALID_DETAIL)),
            ("<!-- context:section id=\"a\" source_ref=\"repo:x/y\" -->", MarkerErrorKind::Invalid, 1, Some(INVALID_DETAIL)),
            ("<!-- context:section id=\"\" -->", MarkerErrorKind::Invalid, 1, Some(&format!("the `id` is empty; {INVALID_DETAIL}"))),
            ("<!-- context:section id=\"a\"", MarkerErrorKind::Invalid, 1, Some(&format!("the marker must end with `-->` on the same line; {INVALID_DETAIL}"))),
            ("<!-- context:section id=intword -->", MarkerErrorKind::Invalid, 1, Some(&format!("the `id` must be in double quotes (`id=\"intword\"`); {INVALID_DETAIL}"))),
            ("<!-- context:section id='intword' -->", MarkerErrorKind::Invalid, 1, Some(&format!("the `id` must be in double quotes (`id=\"intword\"`); {INVALID_DETAIL}"))),
            ("<!-- context:section id='json-body' -->", MarkerErrorKind::Invalid, 1, Some(&format!("the `id` must be in double quotes (`id=\"json-body\"`); {INVALID_DETAIL}"))),
            ("<!-- context:section id=prefix-url -->", MarkerErrorKind::Invalid, 1, Some(&format!("the `id` must be in double quotes (`id=\"prefix-url\"`); {INVALID_DETAIL}"))),
            ("<!-- context:section id=prefix-url-->", MarkerErrorKind::Invalid, 1, Some(&format!("the `id` must be in double quotes (`id=\"prefix-url\"`); {INVALID_DETAIL}"))),
        ];
        for (text, kind, line, detail) in cases {
            let p = parse_sections(text);
            assert_eq!(
                p.errors.first(),
                Some(&MarkerError {
                    kind: *kind,
                    line: *line,
                    detail: detail.map(str::to_string),
                }),
                "{text}"
            );
            assert!(p.sections.is_empty(), "{text}");
        }
    }

    #[test]
    fn sections_and_errors_are_bounded() {
        let section = |i: usize| {
            format!("<!-- context:section id=\"s{i}\" -->\nx\n<!-- /context:section -->\n")
        };
        let at_limit: String = (0..MAX_SECTIONS).map(section).collect();
        let p = parse_sections(&at_limit);
        assert_eq!((p.sections.len(), p.errors.len()), (MAX_SECTIONS, 0));
        let over = at_limit.clone() + &section(MAX_SECTIONS) + &section(MAX_SECTIONS + 1);
        let p = parse_sections(&over);
        assert!(p.sections.is_empty());
        let line = 3 * MAX_SECTIONS as u64 + 3;
        let first = MarkerError {
            kind: MarkerErrorKind::TooMany,
            line,
            detail: None,
        };
        assert_eq!(p.errors, vec![first]);
        assert!(MarkerErrorKind::TooMany
            .message()
            .contains(&MAX_SECTIONS.to_string()));
        let bad = "<!-- context:section bad -->\n".repeat(10 * MAX_ERRORS);
        assert_eq!(parse_sections(&bad).errors.len(), MAX_ERRORS);
    }

    #[test]
    fn text_that_only_resembles_markers() {
        // A closing marker with extra text is ordinary text; a backtick fence may carry
        // backticks in its info string (the fence hides the marker inside it).
        let p = parse_sections(
            "<!-- /context:section x -->\n<!-- /context:section\n```js `x`\n<!-- context:section id=\"hidden\" -->\n```\n<!-- context:section id=\"a\" -->\n<!-- /context:section -->",
        );
        assert_eq!(p.errors, []);
        assert_eq!(ids(&p), [("a", 6, 7)]);
    }

    #[test]
    fn no_markers_is_valid() {
        let p = parse_sections("# Title\n\nplain text\n");
        assert_eq!(p, PageSections::default());
    }

    #[test]
    fn overlap_rule() {
        let p = parse_sections("<!-- context:section id=\"a\" -->\n<!-- /context:section -->\n\n<!-- context:section id=\"b\" -->\nx\n<!-- /context:section -->");
        let got: Vec<_> = overlapping(&p.sections, 2, 4)
            .map(|s| s.id.as_str())
            .collect();
        assert_eq!(got, ["a", "b"]);
        assert_eq!(overlapping(&p.sections, 3, 3).count(), 0);
    }

    #[test]
    fn a_misspelled_marker_is_pointed_at_where_the_pairing_breaks() {
        // An opening typo: the closing marker is unmatched, and names the line of the typo.
        let page =
            "# P\n\n<!-- context:sectoin id=\"run-all\" -->\ntext\n<!-- /context:section -->\n";
        let p = parse_sections(page);
        assert_eq!(p.errors.len(), 1);
        assert_eq!(
            (p.errors[0].kind, p.errors[0].line),
            (MarkerErrorKind::UnmatchedEnd, 5)
        );
        assert_eq!(
            p.errors[0].detail.as_deref(),
            Some("no section is open here; line 3 looks like a misspelled opening marker: `<!-- context:sectoin id=\"run-all\" -->`")
        );
        // A closing typo: the next opening nests, the section stays open; both name it.
        let page = "<!-- context:section id=\"a\" -->\nx\n<!-- /context:sectio -->\n<!-- context:section id=\"b\" -->\ny\n<!-- /context:section -->\n";
        let p = parse_sections(page);
        let details: Vec<&str> = p
            .errors
            .iter()
            .filter_map(|e| e.detail.as_deref())
            .collect();
        assert_eq!(details.len(), 1, "{details:?}");
        assert!(
            details[0].ends_with(
                "line 3 looks like a misspelled closing marker: `<!-- /context:sectio -->`"
            ),
            "{details:?}"
        );
        // Other comments are not markers, nor near ones.
        assert_eq!(near_miss("<!-- TODO: context is missing -->"), None);
        assert_eq!(near_miss("<!-- context:section id=\"ok\" -->"), None);
        assert_eq!(near_miss("<!-- contxt:section id=\"x\" -->"), Some(true));
        assert_eq!(near_miss("<!-- /context:section x -->"), Some(false));
    }
}

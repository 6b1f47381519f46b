//! Text: what a person reads in a terminal. Deterministic; colour only when asked for (the
//! caller decides: a terminal and no `NO_COLOR`).

mod capabilities;
mod drift;
mod pack;
mod reads;
mod workspace;

use crate::report::Report;

/// `--format text` (the default).
pub fn render(report: &Report, color: bool) -> Option<String> {
    Some(match report {
        Report::Build(v) => workspace::build(v),
        Report::Stats(v) => workspace::stats(v),
        Report::Validate(v) => workspace::validate(v),
        Report::Inputs(v) => format!(
            "files {}\nbytes {}\ninputs {}\n",
            v.files, v.bytes, v.inputs
        ),
        Report::Pack(a) => pack::pack(a, color, pack::Next::Commands),
        Report::ToolPack(a) => pack::pack(a, color, pack::Next::ToolCalls),
        Report::Capabilities(_) => capabilities::registry(),
        Report::Capability(r) => capabilities::result(r),
        Report::Refs(r) => r.data["yaml"].as_str().unwrap_or("").to_string(),
        Report::Cites(r) => capabilities::cites(r),
        Report::Check(c) => capabilities::check(c),
        Report::Read(r) => r.result.text(),
        Report::ReadMany(r) => reads::read_many(r),
        Report::Search(r) => reads::search(&r.result),
        Report::Resolve(r) => format!("{}\n", r.commit),
        // On stderr, in the one error style (see `note`); stdout stays empty.
        Report::ReadError(_) => String::new(),
        Report::Drift(d) => drift::drift(d, Style(color)),
        Report::Impact(i) => drift::impact(i, Style(color)),
        Report::Graph(_) | Report::Raw(_) => return None,
    })
}

/// What goes to standard error beside the text (a read's position, a search's totals).
pub fn note(report: &Report) -> Option<String> {
    match report {
        Report::Read(r) => Some(reads::read_note(&r.result, r.hint.as_deref())),
        Report::Validate(v) => workspace::validate_note(v),
        Report::Search(r) => Some(reads::search_note(&r.result, r.hint.as_deref())),
        Report::ReadError(f) => {
            let e = &f.error;
            let mut out = format!("error: {}: {}\n", e.code.as_str(), e.message);
            if let Some(h) = &f.hint {
                out.push_str(&format!("hint: {h}\n"));
            }
            Some(out)
        }
        _ => None,
    }
}

/// `text` fit for a terminal: control characters the report quotes from the workspace (an
/// escape sequence in a heading sets a window title or clears the screen), direction
/// overrides and line separators are written as their Rust escapes (`\u{1b}`); line breaks
/// and tabs stay. With `color`, colour sequences (an escape, `[`, digits and `;`, then `m`)
/// stay too, as [`Style`] writes them; without it there are none of ours, so every escape is
/// quoted (a quoted `ESC[8m` would hide text in a CI log).
pub fn for_terminal(text: String, color: bool) -> String {
    let quoted = |c: char| c != '\n' && ontoly_graph::formats::text::is_quoted(c);
    if !text.chars().any(quoted) {
        return text;
    }
    let mut out = String::with_capacity(text.len() + 16);
    let mut rest = text.as_str();
    while let Some(c) = rest.chars().next() {
        let sgr = color
            && c == '\x1b'
            && rest[1..].strip_prefix('[').is_some_and(|s| {
                let params = s.len()
                    - s.trim_start_matches(|p: char| p.is_ascii_digit() || p == ';')
                        .len();
                s[params..].starts_with('m')
            });
        if sgr {
            let end = rest.find('m').map_or(rest.len(), |i| i + 1);
            out.push_str(&rest[..end]);
            rest = &rest[end..];
            continue;
        }
        if quoted(c) {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
        rest = &rest[c.len_utf8()..];
    }
    out
}

/// ANSI styling (anstyle), or none.
#[derive(Debug, Clone, Copy)]
pub struct Style(pub bool);

impl Style {
    /// `s` in `style` when styling is on.
    pub fn paint(self, style: anstyle::Style, s: &str) -> String {
        if self.0 {
            format!("{style}{s}{style:#}")
        } else {
            s.to_string()
        }
    }
    /// Bold.
    pub fn bold(self, s: &str) -> String {
        self.paint(anstyle::Style::new().bold(), s)
    }
    /// Dim.
    pub fn dim(self, s: &str) -> String {
        self.paint(anstyle::Style::new().dimmed(), s)
    }
    /// In a foreground colour.
    pub fn fg(self, color: anstyle::AnsiColor, s: &str) -> String {
        self.paint(color.on_default(), s)
    }
}

#[cfg(test)]
mod tests {
    use super::for_terminal;

    #[test]
    fn quoted_control_characters_are_escaped_and_colours_kept() {
        let bold = format!(
            "{}x{}",
            anstyle::Style::new().bold(),
            anstyle::Style::new().bold().render_reset()
        );
        assert_eq!(for_terminal(bold.clone(), true), bold);
        assert_eq!(for_terminal(bold, false), "\\u{1b}[1mx\\u{1b}[0m");
        assert_eq!(for_terminal("a\tb\nc\n".into(), false), "a\tb\nc\n");
        assert_eq!(
            for_terminal("Escape \x1b]0;TITLE\x07 \x1b[2J heading\r\n".into(), true),
            "Escape \\u{1b}]0;TITLE\\u{7} \\u{1b}[2J heading\\r\n"
        );
        assert_eq!(for_terminal("\x1b".into(), true), "\\u{1b}");
        assert_eq!(for_terminal("\x1b[".into(), true), "\\u{1b}[");
        assert_eq!(
            for_terminal("a\u{202e}b\u{9b}1A".into(), true),
            "a\\u{202e}b\\u{9b}1A"
        );
    }
}

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
        Report::Pack(a) => pack::pack(a, color),
        Report::Capabilities(_) => capabilities::registry(),
        Report::Capability(r) => capabilities::result(r),
        Report::Refs(r) => r.data["yaml"].as_str().unwrap_or("").to_string(),
        Report::Cites(r) => capabilities::cites(r),
        Report::Check(c) => capabilities::check(c),
        Report::Read(r) => r.text(),
        Report::ReadMany(r) => reads::read_many(r),
        Report::Search(r) => reads::search(r),
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
        Report::Read(r) => Some(reads::read_note(r)),
        Report::Search(r) => Some(reads::search_note(r)),
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

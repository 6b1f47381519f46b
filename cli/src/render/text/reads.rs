//! Text of the pinned reads: `read`, `read-many`, `search`.

use ontoly_graph::sources::reads::{ReadManyResult, ReadResult, SearchResult};

pub(super) fn read_note(r: &ReadResult, hint: Option<&str>) -> String {
    format!(
        "{}@{} {} lines {}-{}{}{}\n{}",
        r.repository,
        r.commit,
        r.path,
        r.start_line,
        r.end_line,
        if r.truncated { " (truncated)" } else { "" },
        r.next_start_line
            .map(|n| format!("; more from line {n}"))
            .unwrap_or_default(),
        hint.map(|h| format!("hint: {h}\n")).unwrap_or_default()
    )
}

pub(super) fn read_many(r: &ReadManyResult) -> String {
    let mut text = String::new();
    for item in &r.items {
        match (item.start_line, item.end_line) {
            (Some(a), Some(b)) => text.push_str(&format!("==> {}:{a}-{b} <==\n", item.path)),
            _ => text.push_str(&format!("==> {} <==\n", item.path)),
        }
        if let Some(c) = &item.content {
            text.push_str(c);
            if !c.is_empty() && !c.ends_with('\n') {
                text.push('\n');
            }
        }
        if let Some(ev) = &item.evidence {
            text.push('\n');
            text.push_str(ev);
        }
        if let Some(e) = &item.error {
            text.push_str(&format!("{}: {}\n", e.code.as_str(), e.message));
        }
    }
    text
}

pub(super) fn search(r: &SearchResult) -> String {
    let mut text = String::new();
    for f in &r.files {
        if f.matches.is_empty() {
            text.push_str(&format!("{}\n", f.path));
        }
        for m in &f.matches {
            text.push_str(&format!("{}:{}:{}\n", f.path, m.line, m.text));
        }
    }
    text
}

pub(super) fn search_note(r: &SearchResult, hint: Option<&str>) -> String {
    format!(
        "{}@{}: {} file(s){}\n{}",
        r.repository,
        r.commit,
        r.files.len(),
        if r.truncated {
            " (truncated: narrow the search)"
        } else {
            ""
        },
        hint.map(|h| format!("hint: {h}\n")).unwrap_or_default()
    )
}

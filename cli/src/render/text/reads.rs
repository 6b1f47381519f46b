//! Text of the pinned reads: `read`, `read-many`, `search`.

use ontoly_graph::sources::reads::{ReadManyResult, ReadResult, SearchResult};

pub(super) fn read_note(r: &ReadResult, hint: Option<&str>) -> String {
    format!(
        "{}\n{}",
        position(
            &format!("{}@{}", r.repository, r.commit),
            &r.path,
            Some((r.start_line, r.end_line)),
            r.truncated,
            r.next_start_line
        ),
        hint.map(|h| format!("hint: {h}\n")).unwrap_or_default()
    )
}

/// `repository@commit path lines a-b (truncated); more from line n`: where returned lines are,
/// the same for a `read` and each `read_many` item, so lines are never shown without the
/// commit they are of (the plugin-reads walk, `repro_readmany_note.py`).
fn position(
    at: &str,
    path: &str,
    lines: Option<(u64, u64)>,
    truncated: bool,
    next: Option<u64>,
) -> String {
    format!(
        "{at} {path}{}{}{}",
        lines
            .map(|(a, b)| format!(" lines {a}-{b}"))
            .unwrap_or_default(),
        if truncated { " (truncated)" } else { "" },
        next.map(|n| format!("; more from line {n}"))
            .unwrap_or_default(),
    )
}

pub(super) fn read_many(r: &ReadManyResult) -> String {
    let at = format!("{}@{}", r.repository, r.commit);
    let mut text = String::new();
    for item in &r.items {
        let lines = item.start_line.zip(item.end_line);
        let header = position(
            &at,
            &item.path,
            lines,
            item.truncated.unwrap_or(false),
            item.next_start_line,
        );
        text.push_str(&format!("==> {header} <==\n"));
        if let Some(n) = &item.note {
            text.push_str(&format!("hint: {n}\n"));
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

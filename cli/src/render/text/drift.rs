//! Text of `drift` (grouped by page and section, one verdict line per section, a line per
//! reference that did not stay put) and of `impact`.

use super::Style;
use crate::report::{DriftView, ImpactView};
use ontoly_capabilities::drift::reanchor::Reanchor;
use ontoly_capabilities::drift::{ChangedLines, ReferenceDrift, Status};
use ontoly_graph::sources::drift::SymbolAt;
use std::collections::BTreeMap;
use std::fmt::Write;

fn short(c: &str) -> &str {
    c.get(..12).unwrap_or(c)
}

fn symbol(s: &SymbolAt) -> String {
    let kind = serde_json::to_value(s.kind)
        .ok()
        .and_then(|v| v.as_str().map(str::to_string))
        .unwrap_or_default();
    format!("{kind} `{}`", s.shown())
}

fn at(s: &SymbolAt) -> String {
    format!("{}:{}-{}", s.path, s.start_line, s.end_line)
}

/// The one-line verdict of a section's references.
fn verdict(refs: &[&ReferenceDrift], st: Style) -> String {
    let compared: Vec<&&ReferenceDrift> = refs
        .iter()
        .filter(|r| r.status != Status::Unverifiable)
        .collect();
    let unverifiable = refs.len() - compared.len();
    let Some(worst) = compared.iter().map(|r| r.status).max() else {
        let why = refs
            .first()
            .and_then(|r| r.reason.as_deref())
            .unwrap_or("not compared");
        return st.dim(&format!("unverifiable: {why}"));
    };
    let first = |s: Status| compared.iter().find(|r| r.status == s);
    // Lines that stayed put inside a definition that grew are for a person to review, as
    // `--write` says ("still accurate" beside it misled; Python and Go walks, stop 48).
    let grown = compared.iter().find_map(|r| r.grown.as_ref());
    let mut v = match (worst, grown) {
        (Status::Unchanged | Status::Moved, Some(g)) => st.fg(
            anstyle::AnsiColor::Yellow,
            &format!(
                "review: {} grew around the cited lines (now {})",
                symbol(g),
                at(g)
            ),
        ),
        // Lines at their numbers in a definition whose code changed around them say no more
        // than moved ones do (Go walk on google/uuid).
        (Status::Unchanged, None) => {
            match compared.iter().find_map(|r| r.changed_around.as_ref()) {
                Some(c) => st.fg(
                    anstyle::AnsiColor::Yellow,
                    &format!(
                        "lines unchanged; review: {} changed around the cited lines (now {})",
                        symbol(&c.definition),
                        at(&c.definition)
                    ),
                ),
                None => st.fg(anstyle::AnsiColor::Green, "still accurate"),
            }
        }
        // The same lines inside code that changed around them: `--write` re-anchors them, and
        // the section is for a person to read against the change (js-drift walk,
        // `repro-sparse.sh`: "moved, re-anchorable" above a section the change made false).
        (Status::Moved, None) => match compared.iter().find_map(|r| r.changed_around.as_ref()) {
            Some(c) => st.fg(
                anstyle::AnsiColor::Yellow,
                &format!(
                    "moved, re-anchorable; review: {} changed around the cited lines (now {})",
                    symbol(&c.definition),
                    at(&c.definition)
                ),
            ),
            None => st.fg(anstyle::AnsiColor::Green, "moved, re-anchorable"),
        },
        (Status::Changed, _) => {
            let r = first(Status::Changed).map(|r| **r);
            // Where the reference goes is where it is reviewed, as `--diff` and `--write`
            // read it: the window it follows (with its counts, unless that is the definition it
            // cited whole), else the definition it cited whole where it is now, else the
            // range the diff maps it to. Before, the headline chose on its own and could name
            // a namesake the lines had left (hyperfine's emptied `compute`) or a window
            // `--accept-changed` did not take.
            let defined = r.and_then(ReferenceDrift::cited_definition_now);
            let agreed = r.and_then(ReferenceDrift::followed).filter(|m| {
                defined.as_ref().is_none_or(|d| {
                    (&d.path, d.start_line, d.end_line) == (&m.path, m.start_line, m.end_line)
                })
            });
            let place = match (agreed, r.and_then(ReferenceDrift::review_range)) {
                (Some(m), _) if r.and_then(ReferenceDrift::moved_whole).is_some() => format!(
                    "moved whole to {}: review lines {}–{} ({} of its {} distinctive lines)",
                    m.path, m.start_line, m.end_line, m.matched, m.of
                ),
                (Some(m), _) => format!(
                    "review lines {}–{} of {} ({} of its {} distinctive lines)",
                    m.start_line, m.end_line, m.path, m.matched, m.of
                ),
                (None, Some(m)) => {
                    format!("review lines {}–{} of {}", m.start_line, m.end_line, m.path)
                }
                _ if r.is_some_and(ReferenceDrift::rewritten_away) => format!(
                    "review {} (the cited lines were rewritten: other code is in their place)",
                    r.and_then(|r| r.new_path.as_deref()).unwrap_or("the file")
                ),
                _ => format!(
                    "review {} (the cited lines are gone)",
                    r.and_then(|r| r.new_path.as_deref()).unwrap_or("the file")
                ),
            };
            // The old definition is named as such: with no definition of its name at the
            // later commit, naming it beside the new lines would say it is there.
            let sym = match r.map(|r| (&r.suggestion, &r.symbol)) {
                // A namesake the reference does not follow is not what is reviewed: the lines
                // went to the window, and the name to a shell or to other code.
                Some((Some(s), _))
                    if r.and_then(ReferenceDrift::followed).is_some_and(|m| {
                        s.path != m.path || s.end_line < m.start_line || m.end_line < s.start_line
                    }) =>
                {
                    format!(", was {} (its namesake is now at {})", symbol(s), at(s))
                }
                Some((Some(s), _)) => format!(", {}", symbol(s)),
                Some((None, Some(s))) => format!(", was {}", symbol(s)),
                _ => String::new(),
            };
            // Lines inside the definition reviewed are no news either.
            let within = |r: &ReferenceDrift| {
                let (Some(d), Some(m)) = (defined.as_ref(), r.relocation.as_ref()) else {
                    return false;
                };
                d.path == m.path && d.start_line <= m.end_line && m.start_line <= d.end_line
            };
            let moved = match agreed {
                Some(_) => String::new(),
                None if r.is_some_and(within) => String::new(),
                None => r
                    .and_then(ReferenceDrift::whereabouts)
                    .map(|m| format!("; {m}"))
                    .unwrap_or_default(),
            };
            // The range stands for `sym`; the edit may be in another definition it holds
            // (impact names it the same way: jsdrift walk, F7).
            let edited = r
                .and_then(|r| changed_in(r, false))
                .map(|w| format!("; {w}"))
                .unwrap_or_default();
            st.fg(
                anstyle::AnsiColor::Yellow,
                &format!("changed: {place}{sym}{edited}{moved}"),
            )
        }
        (Status::Missing | Status::Unverifiable, _) => {
            let r = first(Status::Missing).map(|r| **r);
            let path = r.map_or("the file", |r| r.path.as_str());
            let sug = match r.map(|r| (&r.suggestion, r.whereabouts())) {
                Some((Some(s), _)) => format!("; {} is now at {}", symbol(s), at(s)),
                Some((None, Some(m))) => format!("; {m}"),
                _ => String::new(),
            };
            st.fg(
                anstyle::AnsiColor::Red,
                &format!("missing: {path} is gone{sug}"),
            )
        }
    };
    if unverifiable > 0 {
        let _ = write!(v, " ({unverifiable} unverifiable)");
    }
    v
}

/// One line for a reference that did not stay put.
fn detail(r: &ReferenceDrift) -> Option<String> {
    let cited = format!(
        "[{}] {}:{}-{}",
        r.ref_index, r.path, r.start_line, r.end_line
    );
    let np = r.new_path.as_deref().unwrap_or("");
    if let (Status::Unchanged | Status::Moved, Some(g)) = (r.status, &r.grown) {
        let lines = match r.status {
            Status::Moved => format!(
                "moved to {np}:{}-{}",
                r.new_start_line.unwrap_or(0),
                r.new_end_line.unwrap_or(0)
            ),
            _ => "its lines unchanged".to_string(),
        };
        return Some(format!(
            "{cited} {lines}, but {} grew around them: now at {}",
            symbol(g),
            at(g)
        ));
    }
    let mut line = match r.status {
        Status::Unchanged => format!(
            "{cited} its lines unchanged, but {}",
            r.changed_around_words()?
        ),
        Status::Moved => {
            let around = r
                .changed_around_words()
                .map(|w| format!(", but {w}"))
                .unwrap_or_default();
            format!(
                "{cited} moved to {np}:{}-{}{around}",
                r.new_start_line.unwrap_or(0),
                r.new_end_line.unwrap_or(0)
            )
        }
        Status::Changed => {
            let occ = r.occurrences.unwrap_or(0);
            // The diff maps the range onto code written in its place, or onto what is left of
            // it: said, with why it is not where the lines went (jsdrift walk, F1: `req.param`
            // onto `req.query`). A pack's drift marks say it in the same words.
            let cited_lines = r.end_line.saturating_sub(r.start_line) + 1;
            let to = match (r.moved_whole(), r.changed_lines()) {
                (Some(m), _) => format!(
                    "moved whole to {}:{}-{} ({} of {} distinctive lines)",
                    m.path, m.start_line, m.end_line, m.matched, m.of
                ),
                (None, Some(ChangedLines::Edited { mapped: m })) => {
                    format!("now {}:{}-{}", m.path, m.start_line, m.end_line)
                }
                (None, Some(ChangedLines::Deleted) | None) => format!("deleted from {np}"),
                (None, Some(c)) => c.words(cited_lines).unwrap_or_default(),
            };
            // More than one occurrence is why a block that is still there could not be
            // called moved; none needs no words.
            if occ > 1 {
                format!("{cited} changed (the cited lines occur {occ} times), {to}")
            } else {
                format!("{cited} changed, {to}")
            }
        }
        Status::Missing => format!("{cited} missing"),
        Status::Unverifiable => format!(
            "{cited} unverifiable: {}",
            r.reason.as_deref().unwrap_or("")
        ),
    };
    match (&r.symbol, &r.suggestion) {
        (Some(was), Some(now)) if symbol(was) == symbol(now) => {
            if at(was) == at(now) {
                let _ = write!(line, "; {} is still at {}", symbol(was), at(was));
            } else {
                let _ = write!(
                    line,
                    "; {} was at {}, now at {}",
                    symbol(was),
                    at(was),
                    at(now)
                );
            }
        }
        (was, now) => {
            if let Some(s) = was {
                let _ = write!(line, "; was {} at {}", symbol(s), at(s));
            }
            if let Some(s) = now {
                let _ = write!(line, "; now {} at {}", symbol(s), at(s));
            }
        }
    }
    if let Some(w) = changed_in(r, true) {
        let _ = write!(line, "; {w}");
    }
    if let Some(m) = r.whereabouts().filter(|_| r.moved_whole().is_none()) {
        let _ = write!(line, "; {m}");
    }
    Some(line)
}

/// The definitions a changed reference's range holds that the change edited, besides the one
/// it stands for, in words: "the change is in function `normalizeType` (lib/utils.js:81-85 as
/// pinned)", the places only `with_at`. The places are the pinned commit's: beside "now at …"
/// they would read as the later commit's (re-walk, stop 52).
fn changed_in(r: &ReferenceDrift, with_at: bool) -> Option<String> {
    const SHOWN: usize = 3;
    if r.touched.is_empty() || r.moved_whole().is_some() {
        return None;
    }
    // A definition of the same name as the one the range stands for is its other one (an
    // `#ifdef` alternative): named so, the sentence does not read "function `f_match`; the
    // change is in function `f_match`" (jq walk, C5).
    let stands_for: Vec<String> = [&r.symbol, &r.suggestion]
        .into_iter()
        .flatten()
        .map(symbol)
        .collect();
    let mut names: Vec<String> = (r.touched.iter())
        .take(SHOWN)
        .map(|s| {
            let name = match stands_for.contains(&symbol(s)) {
                true => format!("another definition of {}", symbol(s)),
                false => symbol(s),
            };
            match with_at {
                true => format!("{name} ({} as pinned)", at(s)),
                false => name,
            }
        })
        .collect();
    if r.touched.len() > SHOWN {
        names.push(format!("{} more", r.touched.len() - SHOWN));
    }
    Some(format!("the change is in {}", names.join(", ")))
}

/// `ontoly drift` as text.
/// References sharing one unverifiable reason past which the reason is said once.
const SHARED_REASON: usize = 5;

pub(super) fn drift(v: &DriftView, st: Style) -> String {
    let r = &v.report;
    let c = &r.counts;
    let mut o = format!(
        "{} {} unchanged, {} moved, {} changed, {} missing, {} unverifiable\n",
        st.bold("drift:"),
        c.unchanged,
        c.moved,
        c.changed,
        c.missing,
        c.unverifiable
    );
    if r.omitted > 0 {
        let _ = writeln!(
            o,
            "{} more reference(s) not listed (the limit keeps drifted ones first)",
            r.omitted
        );
    }
    let mut commits: Vec<&str> = r.to.values().map(String::as_str).collect();
    commits.dedup();
    if let [one] = commits.as_slice() {
        let _ = writeln!(
            o,
            "later commit {} ({})",
            short(one),
            r.to.keys().cloned().collect::<Vec<_>>().join(", ")
        );
    } else {
        for (m, commit) in &r.to {
            let _ = writeln!(o, "later commit {} ({m})", short(commit));
        }
    }
    for n in &r.notes {
        let _ = writeln!(o, "{} {n}", st.bold("note:"));
    }
    // A reason many references share (no clone of a repository, a clone that lacks the
    // commit) is said once, with its count, and those references are not listed one by one:
    // with no clone checked out, a large workspace printed one line per reference (56 MB).
    let mut reasons: BTreeMap<&str, usize> = BTreeMap::new();
    // The references a bounded list left out count with their reasons too.
    for (reason, n) in &r.omitted_reasons {
        *reasons.entry(reason.as_str()).or_default() += n;
    }
    for x in r
        .references
        .iter()
        .filter(|x| x.status == Status::Unverifiable)
    {
        *reasons
            .entry(x.reason.as_deref().unwrap_or(""))
            .or_default() += 1;
    }
    reasons.retain(|_, n| *n > SHARED_REASON);
    let listed = |x: &&ReferenceDrift| {
        x.status != Status::Unverifiable || !reasons.contains_key(x.reason.as_deref().unwrap_or(""))
    };
    // Ids, paths and reasons quote the workspace: each stays on its line.
    let line = ontoly_graph::formats::text::one_line;
    // Each section: its page, all its references, and those listed one by one.
    let refs = &r.references;
    let mut sections: Vec<(&str, Vec<&ReferenceDrift>)> = Vec::new();
    let mut i = 0;
    while i < refs.len() {
        let j = refs[i..]
            .iter()
            .position(|x| x.article_id != refs[i].article_id || x.section_id != refs[i].section_id)
            .map_or(refs.len(), |k| i + k);
        let p = if refs[i].origin.page.is_empty() {
            refs[i].article_id.as_str()
        } else {
            refs[i].origin.page.as_str()
        };
        sections.push((p, refs[i..j].iter().collect()));
        i = j;
    }
    // Sections none of whose references is listed are named together, so that a reader knows
    // which went unchecked without a line each.
    let unchecked: Vec<String> = sections
        .iter()
        .filter(|(_, all)| !all.iter().any(listed))
        .map(|(p, all)| format!("{}#{}", line(p), line(&all[0].section_id)))
        .collect();
    if !reasons.is_empty() {
        let _ = writeln!(
            o,
            "\n{}",
            st.bold("unverifiable, each reason once (its references are not listed below):")
        );
        let mut by_count: Vec<(&str, usize)> = reasons.iter().map(|(k, v)| (*k, *v)).collect();
        by_count.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
        for (reason, n) in by_count {
            let _ = writeln!(o, "  {n} references: {}", line(reason));
        }
        if !unchecked.is_empty() {
            const NAMED: usize = 10;
            let _ = writeln!(
                o,
                "  {} {}section(s) with no reference checked: {}{}",
                unchecked.len(),
                if r.omitted > 0 { "listed " } else { "" },
                ontoly_graph::formats::text::first_of(&unchecked, NAMED),
                if unchecked.len() > NAMED {
                    " (--format json lists every reference)"
                } else {
                    ""
                }
            );
        }
    }
    let mut page = None;
    for (p, all) in &sections {
        let shown: Vec<&ReferenceDrift> = all.iter().copied().filter(listed).collect();
        if shown.is_empty() {
            continue;
        }
        if page != Some(*p) {
            let _ = write!(o, "\n{}\n", st.bold(&line(p)));
            page = Some(*p);
        }
        // The verdict is over every reference of the section (`(1 unverifiable)` included);
        // it is styled, so only its line breaks are quoted here (the rest is quoted with the
        // whole text, colour sequences kept).
        let _ = writeln!(
            o,
            "  #{:<24} {}",
            line(&all[0].section_id),
            verdict(all, st).replace('\n', "\\n").replace('\r', "\\r")
        );
        for r in &shown {
            if let Some(d) = detail(r) {
                let _ = writeln!(o, "      {}", st.dim(&line(&d)));
            }
            for line in r.diff.as_deref().unwrap_or("").lines() {
                let _ = writeln!(o, "          {}", diff_line(line, st));
            }
            if let Some(n) = r.diff.as_deref().and_then(moved_in_diff) {
                let _ = writeln!(
                    o,
                    "          {}",
                    st.dim(&format!(
                        "({n} removed line(s) are added back unchanged elsewhere in it: moved, not deleted)"
                    ))
                );
            }
            // An empty diff is the cited lines found as they were (moved whole to another
            // file): said, rather than a blank where the diff goes.
            if let (Some(""), Some(to)) = (r.diff.as_deref(), &r.relocation) {
                let _ = writeln!(
                    o,
                    "          {}",
                    st.dim(&format!(
                        "(no line differs: the cited lines are at {}:{}-{} as they were)",
                        line(&to.path),
                        to.start_line,
                        to.end_line
                    ))
                );
            }
        }
    }
    if let Some(w) = &v.reanchor {
        reanchor(&mut o, w, st);
    } else if let Some(next) = next_steps(r) {
        let _ = write!(o, "\n{} {next}\n", st.bold("next:"));
    }
    if let Some(why) = &v.gate_failed {
        let _ = writeln!(o, "{}", st.fg(anstyle::AnsiColor::Red, why));
    }
    o
}

/// What to run after a report that found drift, as flags to add to the same command: a
/// maintainer's walk (stop 59) read 260 lines that ended with no pointer to `--diff`,
/// `--write` or the accept flags.
fn next_steps(r: &ontoly_capabilities::drift::DriftReport) -> Option<String> {
    let c = &r.counts;
    if c.moved + c.changed + c.missing == 0 {
        return None;
    }
    let mut steps = Vec::new();
    let changed = r.references.iter().filter(|x| x.status == Status::Changed);
    if c.changed > 0 && changed.clone().all(|x| x.diff.is_none()) {
        steps.push("add --diff to see what changed under each section".to_string());
    }
    if c.moved > 0 {
        steps.push("--write re-anchors what moved".to_string());
    }
    if c.changed + c.missing > 0 {
        steps.push("once each section listed as changed or missing is read against its code (and edited if it no longer holds), --write --accept-changed takes the changed references, and --accept-relocated those that went elsewhere".to_string());
    }
    Some(steps.join("; "))
}

/// How many removed lines of a diff with code (not blank, not a lone bracket) are added back
/// word for word: a diff against a window whose blocks the change reordered shows a block
/// that moved as deleted and inserted (Go walk, `repro-2-reorder-text.sh`: `Version.String`,
/// swapped with `Variant.String`, read as removed), and a diff cannot show a move otherwise.
fn moved_in_diff(diff: &str) -> Option<usize> {
    let code = |l: &str| l.trim().chars().filter(|c| c.is_alphanumeric()).count() >= 4;
    let mut added: BTreeMap<&str, usize> = BTreeMap::new();
    for l in diff.lines().filter_map(|l| l.strip_prefix('+')) {
        *added.entry(l).or_default() += 1;
    }
    let n = diff
        .lines()
        .filter_map(|l| l.strip_prefix('-'))
        .filter(|l| code(l))
        .filter(|l| match added.get_mut(l) {
            Some(k) if *k > 0 => {
                *k -= 1;
                true
            }
            _ => false,
        })
        .count();
    (n > 0).then_some(n)
}

/// A line of a unified diff, coloured as `git diff` colours it when colour is on.
fn diff_line(line: &str, st: Style) -> String {
    match line.as_bytes().first() {
        Some(b'-') => st.fg(anstyle::AnsiColor::Red, line),
        Some(b'+') => st.fg(anstyle::AnsiColor::Green, line),
        Some(b'@') => st.fg(anstyle::AnsiColor::Cyan, line),
        _ => line.to_string(),
    }
}

/// `n` things, singular for one ("1 digest", "3 locators").
fn counted(n: usize, thing: &str) -> String {
    format!("{n} {thing}{}", if n == 1 { "" } else { "s" })
}

fn reanchor(o: &mut String, w: &Reanchor, st: Style) {
    let _ = write!(
        o,
        "\n{} {} module(s)\n",
        st.bold("re-anchored:"),
        w.modules.len()
    );
    for m in &w.modules {
        let sub = m
            .subpath
            .as_ref()
            .map(|(a, b)| format!(", subpath `{a}` -> `{b}`"))
            .unwrap_or_default();
        let accepted = match (m.accepted, m.relocated) {
            (0, 0) => String::new(),
            (a, 0) => format!(" ({a} changed, accepted)"),
            (0, r) => format!(" ({r} relocated, accepted)"),
            (a, r) => format!(" ({a} changed and {r} relocated, accepted)"),
        };
        let _ = writeln!(
            o,
            "  {} {} -> {}: {}, {} and {} rewritten{sub}{accepted}",
            m.module,
            short(&m.from),
            short(&m.to),
            counted(m.references, "reference"),
            counted(m.locators, "locator"),
            counted(m.digests, "digest")
        );
        // Re-anchored, since their lines are the same, but not known to be still true.
        if m.changed_around_references > 0 {
            const SHOWN: usize = 10;
            let mut sections: Vec<&str> = m
                .changed_around
                .iter()
                .take(SHOWN)
                .map(String::as_str)
                .collect();
            let more = m.changed_around.len().saturating_sub(SHOWN);
            let more = (more > 0).then(|| format!("{more} more"));
            sections.extend(more.as_deref());
            let n = m.changed_around_references;
            let noun = match m.changed_around_unchanged {
                0 => "moved reference",
                u if u == n => "unchanged reference",
                _ => "reference",
            };
            let _ = writeln!(
                o,
                "    {} whose definition changed around {}: review {}",
                counted(n, noun),
                if n == 1 { "its lines" } else { "their lines" },
                sections.join(", ")
            );
        }
    }
    if !w.current.is_empty() {
        let _ = writeln!(o, "  already current: {}", w.current.join(", "));
    }
    let _ = writeln!(
        o,
        "{} {} module(s) left as they were",
        st.bold("review:"),
        w.review.len()
    );
    for m in &w.review {
        let _ = writeln!(o, "  {}: {}", m.module, m.reason);
        for r in &m.references {
            let page = if r.origin.page.is_empty() {
                &r.article_id
            } else {
                &r.origin.page
            };
            let what =
                detail(r).unwrap_or_else(|| format!("[{}] {}", r.ref_index, r.status.as_str()));
            let _ = writeln!(o, "    {page}#{} {what}", r.section_id);
        }
    }
    if !w.review.is_empty() {
        // What moves such a module, naming only the flags not given yet: a walk that had given
        // both was told to accept with them what they cannot take.
        let flags: Vec<&str> = [
            (!w.accept.changed).then_some(
                "`--accept-changed`: a changed reference at the lines the diff maps it to",
            ),
            (!w.accept.relocated).then_some(
                "`--accept-relocated`: a deleted, missing or moved-away one where most of its lines went",
            ),
        ]
        .into_iter()
        .flatten()
        .collect();
        let accept = if flags.is_empty() {
            String::new()
        } else {
            format!(
                ", or once its section is reviewed accept it ({})",
                flags.join("; ")
            )
        };
        let _ = writeln!(
            o,
            "  a module moves only when all its references can: remove each one listed from knowledge/structure.yaml{accept}, run this again, then cite the code that replaced it at the module's new commit (`ontoly digest PATH:START-END --source MODULE` prints an entry to paste)"
        );
    }
    if w.files.is_empty() {
        o.push_str("nothing written\n");
    } else {
        let names: Vec<&str> = w.files.iter().map(|(p, _)| p.as_str()).collect();
        let _ = writeln!(o, "written: {}", names.join(", "));
    }
    for n in &w.notes {
        let _ = writeln!(o, "{} {n}", st.bold("note:"));
    }
}

/// `ontoly impact` as text.
pub(super) fn impact(v: &ImpactView, st: Style) -> String {
    let r = &v.report;
    let c = &r.counts;
    let side = match &r.to {
        Some(to) => format!("{}..{}", short(&r.from), short(to)),
        None => format!("(a diff against {})", short(&r.from)),
    };
    let added = match c.added {
        0 => String::new(),
        n => format!(" ({n} added file(s) hold no cited line)"),
    };
    let left_out = match c.left_out {
        0 => String::new(),
        n => format!(
            "; {n} reference(s) touched only through the definition around their lines left out (--lines-only)"
        ),
    };
    let mut o = format!(
        "{} {} {side}: {} file(s) and {} hunk(s) affect {} section(s) on {} page(s){added}{left_out}\n",
        st.bold("impact of"),
        r.source,
        c.files,
        c.hunks,
        c.sections,
        c.pages
    );
    for p in &r.pages {
        let _ = write!(o, "\n{}\n", st.bold(&p.page));
        for s in &p.sections {
            let _ = writeln!(o, "  #{}", s.section_id);
            for a in &s.references {
                let hunks: Vec<&str> = a.hunks.iter().map(|h| h.header.as_str()).collect();
                // A range that starts or ends outside its definition is mostly in it.
                let sym = a
                    .symbol
                    .as_ref()
                    .map(|s| {
                        let inside = s.start_line <= a.at.start_line && a.at.end_line <= s.end_line;
                        format!(" {} {}", if inside { "in" } else { "mostly in" }, symbol(s))
                    })
                    .unwrap_or_default();
                // The lines at the change's old side, which the hunks number; a reference
                // pinned elsewhere (after `drift --write` moved it past the change) also says
                // what it cites, or its text would not match structure.yaml.
                let pinned = (a.path.as_str(), a.start_line, a.end_line);
                let as_cited = if pinned != (a.at.path.as_str(), a.at.start_line, a.at.end_line) {
                    format!(
                        " (cited as {}:{}-{} at its pinned commit)",
                        a.path, a.start_line, a.end_line
                    )
                } else {
                    String::new()
                };
                let cited = format!(
                    "[{}] {}:{}-{}{as_cited}{sym}",
                    a.ref_index, a.at.path, a.at.start_line, a.at.end_line
                );
                let _ = match (&a.renamed_to, a.hunks.first()) {
                    (Some(to), None) => match a.renamed_lines {
                        Some(l)
                            if (l.start_line, l.end_line) != (a.at.start_line, a.at.end_line) =>
                        {
                            writeln!(
                                o,
                                "      {cited} moves with its file to {to}:{}-{} (its lines unchanged)",
                                l.start_line, l.end_line
                            )
                        }
                        _ => writeln!(
                            o,
                            "      {cited} moves with its file to {to} (its lines unchanged)"
                        ),
                    },
                    (_, Some(first)) if a.deleted => writeln!(
                        o,
                        "      {cited} is deleted with its file: {} {}",
                        first.path,
                        hunks.join(" ")
                    ),
                    (_, first) => writeln!(
                        o,
                        "      {cited} touched via {}{}: {} {}",
                        a.via,
                        members(a),
                        first.map_or("", |h| h.path.as_str()),
                        hunks.join(" ")
                    ),
                };
            }
        }
    }
    if !r.unassessed.is_empty() {
        let _ = write!(
            o,
            "\n{} {} reference(s) of the source\n",
            st.bold("not assessed:"),
            r.unassessed.len()
        );
        for u in &r.unassessed {
            let _ = writeln!(
                o,
                "  {}#{} [{}] {}",
                u.article_id, u.section_id, u.ref_index, u.reason
            );
        }
    }
    o
}

/// ` (method `A::b`, method `A::c`)`: the members of the definition around a reference that
/// the change touched, when they are not that definition itself.
fn members(a: &ontoly_capabilities::impact::AffectedReference) -> String {
    match a.touched.as_slice() {
        [only] if Some(only) == a.symbol.as_ref() => String::new(),
        [] => String::new(),
        touched => {
            let names: Vec<String> = touched.iter().map(symbol).collect();
            format!(" ({})", names.join(", "))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn changed(occurrences: u64, suggestion_start: u64) -> ReferenceDrift {
        let json = serde_json::json!({
            "articleId": "payments", "sectionId": "retries", "refIndex": 0,
            "sourceRef": "repo:acme/payments", "path": "src/lib.rs",
            "startLine": 11, "endLine": 19, "status": "changed", "newPath": "src/lib.rs",
            "occurrences": occurrences,
            "mapped": {"path": "src/lib.rs", "startLine": 11, "endLine": 19},
            "symbol": {"kind": "function", "qualified": "charge", "path": "src/lib.rs",
                       "startLine": 12, "endLine": 19},
            "suggestion": {"kind": "function", "qualified": "charge", "path": "src/lib.rs",
                           "startLine": suggestion_start, "endLine": suggestion_start + 7}
        });
        serde_json::from_value(json).expect("a well-formed reference drift")
    }

    /// A range that starts in one function and is mostly another is not "in" it (semver's
    /// `parse.rs:263-365`, blind walk, stop 44).
    #[test]
    fn an_impact_says_in_only_for_a_definition_around_the_whole_range() {
        let view = |start: u64| {
            let report = serde_json::json!({
                "source": "repo:semver/crate", "from": "a", "to": "b",
                "counts": {"files": 1, "hunks": 1, "pages": 1, "sections": 1, "references": 1},
                "pages": [{"page": "knowledge/parse.md", "articleId": "parse", "sections": [
                    {"sectionId": "ops", "references": [{
                        "refIndex": 0, "sourceRef": "repo:semver/crate", "path": "src/parse.rs",
                        "startLine": start, "endLine": 365,
                        "at": {"path": "src/parse.rs", "startLine": start, "endLine": 365},
                        "via": "range",
                        "symbol": {"kind": "function", "qualified": "comparator",
                                   "path": "src/parse.rs", "startLine": 280, "endLine": 365},
                        "hunks": [{"path": "src/parse.rs", "header": "@@ -300 +300 @@",
                                   "oldStart": 300, "oldCount": 1, "newStart": 300,
                                   "newCount": 1}]}]}]}],
                "unassessed": []
            });
            ImpactView {
                report: serde_json::from_value(report).expect("an impact report"),
                workspace_root: String::new(),
            }
        };
        let text = impact(&view(263), Style(false));
        assert!(
            text.contains("[0] src/parse.rs:263-365 mostly in function `comparator` touched"),
            "{text}"
        );
        let text = impact(&view(290), Style(false));
        assert!(
            text.contains("[0] src/parse.rs:290-365 in function `comparator` touched"),
            "{text}"
        );
    }

    #[test]
    fn a_changed_block_names_its_definition_once_when_it_stayed() {
        assert_eq!(
            detail(&changed(0, 12)).as_deref(),
            Some(
                "[0] src/lib.rs:11-19 changed, now src/lib.rs:11-19; \
                 function `charge` is still at src/lib.rs:12-19"
            )
        );
        assert_eq!(
            detail(&changed(3, 20)).as_deref(),
            Some(
                "[0] src/lib.rs:11-19 changed (the cited lines occur 3 times), now \
                 src/lib.rs:11-19; function `charge` was at src/lib.rs:12-19, now at \
                 src/lib.rs:20-27"
            )
        );
    }

    #[test]
    fn with_its_definition_gone_a_section_is_reviewed_where_its_lines_went() {
        // The diff maps the range onto the one line that replaced it; 14 of its 15 lines are
        // in another file, and no definition of the old name is left: the engine says the
        // reference follows them (`followed`), and so do `--diff` and `--accept-relocated`.
        let json = serde_json::json!({
            "articleId": "guide", "sectionId": "custom-factory", "refIndex": 1,
            "sourceRef": "repo:arrow/root", "path": "docs/index.rst",
            "startLine": 344, "endLine": 373, "status": "changed", "newPath": "docs/index.rst",
            "occurrences": 0,
            "mapped": {"path": "docs/index.rst", "startLine": 13, "endLine": 13},
            "relocation": {"path": "docs/guide.rst", "startLine": 337, "endLine": 365,
                           "matched": 14, "of": 15, "followed": true}
        });
        let r: ReferenceDrift = serde_json::from_value(json).expect("a reference drift");
        assert_eq!(
            verdict(&[&r], Style(false)),
            "changed: review lines 337–365 of docs/guide.rst (14 of its 15 distinctive lines)"
        );
        // A namesake elsewhere is named as where the old definition is now.
        let mut named = r.clone();
        named.suggestion = changed(0, 40).suggestion;
        assert_eq!(
            verdict(&[&named], Style(false)),
            "changed: review lines 337–365 of docs/guide.rst (14 of its 15 distinctive lines), \
             was function `charge` (its namesake is now at src/lib.rs:40-47)"
        );
        // When the engine keeps the reference where the diff maps it (the namesake kept more
        // than a quarter of its lines), that place is reviewed, and where most lines went is
        // said after it.
        if let Some(to) = named.relocation.as_mut() {
            to.followed = false;
        }
        assert_eq!(
            verdict(&[&named], Style(false)),
            "changed: review lines 13–13 of docs/index.rst, function `charge`; \
             14 of 15 distinctive lines are at docs/guide.rst:337-365"
        );
    }

    #[test]
    fn a_definition_cited_whole_is_reviewed_whole_where_it_is_now() {
        // The diff maps `insert_full` with its doc comment onto 342-376, reaching into the
        // two methods added after it; the method itself is at 342-354 (indexmap walk, stop 47).
        let json = serde_json::json!({
            "articleId": "set", "sectionId": "insert-full", "refIndex": 0,
            "sourceRef": "repo:indexmap/src", "path": "src/set.rs",
            "startLine": 280, "endLine": 300, "status": "changed", "newPath": "src/set.rs",
            "occurrences": 0,
            "mapped": {"path": "src/set.rs", "startLine": 342, "endLine": 376},
            "relocation": {"path": "src/set.rs", "startLine": 331, "endLine": 351,
                           "matched": 8, "of": 15},
            "symbol": {"kind": "method", "qualified": "IndexSet::insert_full",
                       "path": "src/set.rs", "startLine": 280, "endLine": 300},
            "suggestion": {"kind": "method", "qualified": "IndexSet::insert_full",
                           "path": "src/set.rs", "startLine": 342, "endLine": 354}
        });
        let mut r: ReferenceDrift = serde_json::from_value(json).expect("a reference drift");
        let part = verdict(&[&r], Style(false));
        r.origin.cited_whole = true;
        assert_eq!(
            verdict(&[&r], Style(false)),
            "changed: review lines 342–354 of src/set.rs, method `IndexSet::insert_full`"
        );
        // Cited in part, the diff's place is the one to review (as it was for this reference
        // before stop 47 read the doc comment as the method's).
        assert_eq!(
            part,
            "changed: review lines 342–376 of src/set.rs, method `IndexSet::insert_full`"
        );
    }

    fn affected(symbol: &str, touched: &[&str]) -> ontoly_capabilities::impact::AffectedReference {
        let sym = |q: &str| {
            serde_json::json!({"kind": if q.contains("::") { "method" } else { "impl" },
            "qualified": q, "path": "src/parser.rs", "startLine": 1, "endLine": 9})
        };
        let json = serde_json::json!({
            "refIndex": 0, "sourceRef": "repo:acme/parser", "path": "src/parser.rs",
            "startLine": 3, "endLine": 5,
            "at": {"path": "src/parser.rs", "startLine": 3, "endLine": 5},
            "via": "symbol", "symbol": sym(symbol),
            "touched": touched.iter().map(|q| sym(q)).collect::<Vec<_>>(),
            "hunks": []
        });
        serde_json::from_value(json).expect("a well-formed affected reference")
    }

    #[test]
    fn a_touched_member_is_named_when_it_is_not_the_covering_definition() {
        assert_eq!(members(&affected("Parser::parse", &["Parser::parse"])), "");
        assert_eq!(
            members(&affected("Parser", &["Parser::parse", "Parser::peek"])),
            " (method `Parser::parse`, method `Parser::peek`)"
        );
    }
}

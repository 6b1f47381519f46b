//! The CI gate: answer a file of questions, say which ones the graph cannot back, and measure
//! how answerable the knowledge base is (top-1, top-3, unanswerable flagged, false alarms).
//!
//! A questions file is a YAML list (or a map with a `questions:` list). Each item is a string,
//! or a map with:
//!
//! - the question: `question`, `query` or `q`;
//! - the sections that answer it: `expect` (also `expected`, `expected_sections`, `sections`):
//!   one section or a list, written `section:page.md#id`, `page.md#id`,
//!   `knowledge/page.md#id` or `article_id#id` (the corpus shape);
//! - `answerable: false` for a question the workspace should *not* answer confidently. An
//!   explicit empty `expect: []` without `answerable` means the same (the corpus shape);
//! - `known_failure: "<why>"` for a question the gate is known to fail today (a known engine
//!   limit, an open issue): it is still answered and measured, its failure does not fail the
//!   gate, and the day it passes the gate fails until the marker is removed — so a marker never
//!   outlives its reason silently;
//! - annotations that the gate ignores: `id`, `note`, `notes`, `tags`.
//!
//! Any other key is an error that names the key and its line (a misspelled `expected_sectons`
//! would otherwise silently turn an expectation off). The file is read through the one safe YAML
//! loader ([`ontoly_graph::formats::yaml`]) with its size and nesting limits.
//!
//! A question passes when its pack is at least `medium` and, when it lists expected sections,
//! at least one of them is among the top three sections (any of them answers it); an
//! `answerable: false` question passes when its pack is `low` or `none` (the gate then checks
//! that the workspace does not claim what it cannot back).

use crate::context::Context;
use crate::evidence::{round4, Code, Level};
use crate::pack::evidence_pack;
use ontoly_graph::formats::yaml;
use ontoly_graph::graph::model::NodeKind;
use ontoly_graph::graph::Graph;
use serde::Serialize;
use std::collections::BTreeMap;
use yaml_serde::Value;

/// Expected sections must be among this many top sections.
pub const EXPECT_TOP: usize = 3;

/// Keys a question may have.
const QUESTION_KEYS: &[&str] = &["question", "query", "q"];
const EXPECT_KEYS: &[&str] = &["expect", "expected", "expected_sections", "sections"];
const NOTE_KEYS: &[&str] = &["id", "note", "notes", "tags"];
/// The key that marks a question the gate is known to fail.
const KNOWN_KEY: &str = "known_failure";

/// One question of a questions file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Question {
    /// The question.
    pub question: String,
    /// Section ids that must answer it, normalized to `section:<page or article id>#<id>`
    /// (an article id is resolved against the graph by [`check`]).
    pub expect: Vec<String>,
    /// The same ids as the file writes them, for messages.
    pub expect_written: Vec<String>,
    /// False for a question the workspace should not answer.
    pub answerable: bool,
    /// Why the gate is known to fail this question (`known_failure`), if it is.
    pub known_failure: Option<String>,
    /// 1-based line of the item in the file (for annotations).
    pub line: u64,
}

fn normalize_section(s: &str) -> String {
    let s = s.trim();
    let s = s.strip_prefix("section:").unwrap_or(s);
    let s = s.strip_prefix("knowledge/").unwrap_or(s);
    format!("section:{s}")
}

/// The 1-based lines where the items of the questions list start: lines that begin with `-`
/// at the smallest indentation any such line has after the `questions:` key (or in the whole
/// file for a bare list). `None` when that does not give one line per item (flow style, block
/// scalars holding dashes): then each item is found by its text instead.
fn item_lines(text: &str, mapped: bool, count: usize) -> Option<Vec<u64>> {
    let lines: Vec<&str> = text.split('\n').collect();
    let start = if mapped {
        lines
            .iter()
            .position(|l| l.starts_with("questions:"))
            .map_or(0, |i| i + 1)
    } else {
        0
    };
    let dash = |l: &str| {
        let t = l.trim_start_matches(' ');
        (t == "-" || t.starts_with("- ")).then(|| l.len() - t.len())
    };
    let indent = lines[start..].iter().filter_map(|l| dash(l)).min()?;
    let found: Vec<u64> = lines
        .iter()
        .enumerate()
        .skip(start)
        .filter(|(_, l)| dash(l) == Some(indent))
        .map(|(i, _)| i as u64 + 1)
        .collect();
    (found.len() == count).then_some(found)
}

/// The line of `needle` at or after line `from` (1-based), for files whose items
/// [`item_lines`] cannot place.
fn line_of(text: &str, needle: &str, from: u64) -> u64 {
    text.split('\n')
        .enumerate()
        .skip(from.saturating_sub(1) as usize)
        .find(|(_, l)| l.contains(needle))
        .map_or(from.max(1), |(i, _)| i as u64 + 1)
}

/// The line of `key:` within the item that spans lines `from..to` (1-based, `to` exclusive).
fn key_line(text: &str, key: &str, from: u64, to: u64) -> u64 {
    text.split('\n')
        .enumerate()
        .skip(from.saturating_sub(1) as usize)
        .take(to.saturating_sub(from).max(1) as usize)
        .find(|(_, l)| {
            let t = l.trim_start().trim_start_matches('-').trim_start();
            let t = t.trim_start_matches('{').trim_start();
            t.strip_prefix(key)
                .is_some_and(|r| r.trim_start().starts_with(':'))
                || l.contains(&format!(" {key}:"))
                || l.contains(&format!("{{{key}:"))
        })
        .map_or(from, |(i, _)| i as u64 + 1)
}

fn key_name(k: &Value) -> String {
    match k {
        Value::String(s) => s.clone(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => n.to_string(),
        _ => "?".to_string(),
    }
}

/// What is wrong with a questions file: every item's error in one pass, so an author fixes them
/// all at once rather than one run at a time (ky authoring walk, stop 51). An error of the file
/// as a whole (its YAML, its shape) is the only one told: nothing after it can be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct QuestionsError {
    /// Each error, in file order: `line N: …` when it has a line.
    pub errors: Vec<String>,
    /// The items that did parse, each with its 1-based number in the file (none when the file
    /// as a whole could not be read): [`unknown_expected`] checks their expected sections, so
    /// that those mistakes are told in the same run as the parse errors.
    pub parsed: Vec<(usize, Question)>,
}

impl QuestionsError {
    fn one(message: impl Into<String>) -> QuestionsError {
        QuestionsError {
            errors: vec![message.into()],
            parsed: Vec::new(),
        }
    }

    /// The line the error names (`line 4: …`), if it names one.
    pub fn line_of(error: &str) -> Option<u64> {
        error
            .strip_prefix("line ")?
            .split(':')
            .next()?
            .parse::<u64>()
            .ok()
    }
}

impl std::fmt::Display for QuestionsError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.errors.join("\n"))
    }
}

impl std::error::Error for QuestionsError {}

/// Parses a questions file; each error names the line and what is wrong there.
pub fn parse_questions(text: &str) -> Result<Vec<Question>, QuestionsError> {
    parse_all(text).map_err(|e| match e {
        Whole(message) => QuestionsError::one(message),
        Items(errors, parsed) => QuestionsError { errors, parsed },
    })
}

/// Why a file does not parse: as a whole, or item by item (with the items that did parse and
/// their numbers).
enum Unparsed {
    Whole(String),
    Items(Vec<String>, Vec<(usize, Question)>),
}
use Unparsed::{Items, Whole};

impl From<String> for Unparsed {
    fn from(s: String) -> Unparsed {
        Whole(s)
    }
}

impl From<&str> for Unparsed {
    fn from(s: &str) -> Unparsed {
        Whole(s.to_string())
    }
}

fn parse_all(text: &str) -> Result<Vec<Question>, Unparsed> {
    // A byte order mark is no part of the first line (editors on Windows write one).
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    if text.trim().is_empty() {
        return Err("the file is empty: it needs a list of questions".into());
    }
    // The line first, as every other error of the file says it: the CLI puts a CI annotation
    // there.
    let v = yaml::parse_value(text).map_err(|e| match e.line {
        Some(line) => {
            let m = e
                .message
                .strip_prefix(&format!("line {line}: "))
                .unwrap_or(&e.message);
            format!("line {line}: invalid YAML: {m}")
        }
        None => format!("invalid YAML: {e}"),
    })?;
    let (list, mapped) = match &v {
        Value::Sequence(s) => (s, false),
        Value::Mapping(m) => {
            if let Some((k, _)) = m.iter().find(|(k, _)| k.as_str() != Some("questions")) {
                let key = key_name(k);
                let line = key_line(text, &key, 1, u64::MAX);
                return Err(Whole(format!(
                    "line {line}: unknown key `{key}` (a questions file is a list, or a map with a `questions:` list)"
                )));
            }
            match m.get("questions") {
                Some(Value::Sequence(s)) => (s, true),
                _ => {
                    return Err(
                        "expected a list of questions, or a map with a `questions:` list".into(),
                    )
                }
            }
        }
        Value::Null => return Err("the file is empty: it needs a list of questions".into()),
        _ => return Err("expected a list of questions".into()),
    };
    if list.is_empty() {
        return Err("the file lists no questions".into());
    }
    let starts = item_lines(text, mapped, list.len());
    let mut out = Vec::new();
    let mut errors = Vec::new();
    let mut from = 1u64;
    for (i, item) in list.iter().enumerate() {
        let line = match &starts {
            Some(s) => s[i],
            None => {
                let key = match item {
                    Value::String(s) => s.chars().take(40).collect::<String>(),
                    Value::Mapping(m) => QUESTION_KEYS
                        .iter()
                        .find_map(|k| m.get(*k).and_then(Value::as_str))
                        .unwrap_or("")
                        .chars()
                        .take(40)
                        .collect(),
                    _ => String::new(),
                };
                line_of(text, &key, from)
            }
        };
        let end = starts
            .as_ref()
            .map(|s| s.get(i + 1).copied().unwrap_or(u64::MAX))
            .unwrap_or(line + 1);
        from = line;
        let at = |(l, msg): (Option<u64>, String)| {
            format!("line {}: question {}: {msg}", l.unwrap_or(line), i + 1)
        };
        let q = match item {
            Value::String(s) => Ok(Question {
                question: s.clone(),
                expect: Vec::new(),
                expect_written: Vec::new(),
                answerable: true,
                known_failure: None,
                line,
            }),
            Value::Mapping(m) => parse_item(text, m, line, end).map_err(at),
            _ => Err(at((None, "expected a string or a map".into()))),
        };
        match q {
            Ok(q) if q.question.trim().is_empty() => {
                errors.push(at((None, "the question is empty".into())))
            }
            Ok(q) => out.push((i + 1, q)),
            Err(e) => errors.push(e),
        }
    }
    if errors.is_empty() {
        Ok(out.into_iter().map(|(_, q)| q).collect())
    } else {
        Err(Items(errors, out))
    }
}

/// One item of a questions file; the error is the line it concerns (when not the item's own)
/// and what is wrong.
fn parse_item(
    text: &str,
    m: &yaml_serde::Mapping,
    line: u64,
    end: u64,
) -> Result<Question, (Option<u64>, String)> {
    for (k, _) in m {
        let key = key_name(k);
        let known = [
            QUESTION_KEYS,
            EXPECT_KEYS,
            NOTE_KEYS,
            &["answerable", KNOWN_KEY],
        ]
        .iter()
        .any(|ks| ks.contains(&key.as_str()));
        if !known {
            return Err((
                Some(key_line(text, &key, line, end)),
                format!(
                    "unknown key `{key}` (known: question/query/q, expect/expected/expected_sections/sections, answerable, known_failure, id, note, notes, tags)"
                ),
            ));
        }
    }
    // Two questions in one item: which one is meant cannot be told, so neither is guessed.
    let mut asked: Vec<(u64, &str)> = QUESTION_KEYS
        .iter()
        .filter(|k| m.contains_key(**k))
        .map(|k| (key_line(text, k, line, end), *k))
        .collect();
    asked.sort();
    if let [(_, first), (at, second), ..] = asked[..] {
        return Err((
            Some(at),
            format!("both `{first}` and `{second}` ask a question: give one of them"),
        ));
    }
    // A wrong value is told at its key's line, not the item's.
    parse_fields(m, line).map_err(|(key, e)| (key.map(|k| key_line(text, k, line, end)), e))
}

/// The fields of one item; the error names the key whose value is wrong, when one is.
fn parse_fields(
    m: &yaml_serde::Mapping,
    line: u64,
) -> Result<Question, (Option<&'static str>, String)> {
    let q = QUESTION_KEYS
        .iter()
        .find_map(|k| m.get(*k).and_then(Value::as_str))
        .ok_or_else(|| {
            let key = QUESTION_KEYS.iter().copied().find(|k| m.contains_key(*k));
            (
                key,
                "needs a string `question` (or `query`, `q`)".to_string(),
            )
        })?;
    let mut expect = Vec::new();
    let mut written = Vec::new();
    let mut explicit_empty = None;
    for &k in EXPECT_KEYS {
        match m.get(k) {
            Some(Value::String(s)) => {
                expect.push(normalize_section(s));
                written.push(s.trim().to_string());
            }
            Some(Value::Sequence(seq)) => {
                if seq.is_empty() {
                    explicit_empty = Some(k);
                }
                for e in seq {
                    let s = e
                        .as_str()
                        .ok_or_else(|| (Some(k), format!("`{k}` must list section ids")))?;
                    expect.push(normalize_section(s));
                    written.push(s.trim().to_string());
                }
            }
            Some(Value::Null) | None => {}
            Some(_) => return Err((Some(k), format!("`{k}` must be a section id or a list"))),
        }
    }
    let answerable = match m.get("answerable") {
        None | Some(Value::Null) => !(explicit_empty.is_some() && expect.is_empty()),
        Some(Value::Bool(false)) if !expect.is_empty() => return Err((
            Some("answerable"),
            "`answerable: false` but it expects sections: an unanswerable question expects none"
                .into(),
        )),
        // Both contradictions are told at `answerable`, the key that says the opposite of
        // what the sections say.
        Some(Value::Bool(true)) if expect.is_empty() && explicit_empty.is_some() => {
            let k = explicit_empty.unwrap_or("expect");
            return Err((
                Some("answerable"),
                format!("`answerable: true` but `{k}: []` marks a question unanswerable"),
            ));
        }
        Some(Value::Bool(b)) => *b,
        Some(_) => {
            return Err((
                Some("answerable"),
                "`answerable` must be true or false".into(),
            ))
        }
    };
    let known_failure = match m.get(KNOWN_KEY) {
        None => None,
        Some(Value::String(s)) if !s.trim().is_empty() => Some(s.trim().to_string()),
        Some(_) => {
            return Err((
                Some(KNOWN_KEY),
                format!(
                    "`{KNOWN_KEY}` must say why the question is known to fail (a non-empty string)"
                ),
            ))
        }
    };
    Ok(Question {
        question: q.to_string(),
        expect,
        expect_written: written,
        answerable,
        known_failure,
        line,
    })
}

/// Resolves an expected section written `section:<X>#<id>` against the graph: `X` is a page
/// path, or an article's `article_id` (the corpus shape). `None` when no such section exists.
pub fn resolve_section(
    graph: &Graph,
    id: &str,
    articles: &BTreeMap<String, String>,
) -> Option<String> {
    if graph.node(id).is_some_and(|n| n.kind == NodeKind::Section) {
        return Some(id.to_string());
    }
    let (x, sid) = id.strip_prefix("section:")?.split_once('#')?;
    let path = articles.get(x)?;
    let resolved = format!("section:{path}#{sid}");
    graph
        .node(&resolved)
        .is_some_and(|n| n.kind == NodeKind::Section)
        .then_some(resolved)
}

/// `article_id` → page path (relative to `knowledge/`) of every article of the graph.
pub fn article_ids(graph: &Graph) -> BTreeMap<String, String> {
    graph
        .nodes_of(NodeKind::Article)
        .filter_map(|a| {
            let aid = a.metadata.get("article_id")?;
            let path = a.id.strip_prefix("article:")?;
            Some((aid.clone(), path.to_string()))
        })
        .collect()
}

/// The outcome of one question.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Outcome {
    /// The question.
    pub question: String,
    /// Its line in the file.
    pub line: u64,
    /// Whether it should be answerable.
    pub answerable: bool,
    /// Confidence level of its pack.
    pub level: Level,
    /// Confidence score.
    pub score: f64,
    /// Capability diagnostic codes of the pack.
    pub codes: Vec<Code>,
    /// The top sections, best first (at most [`EXPECT_TOP`]).
    pub top_sections: Vec<String>,
    /// Expected sections not among them (the question passes when at least one is).
    pub missing: Vec<String>,
    /// 1-based rank of the best expected section among the pack's sections (absent when none
    /// is there or none is expected).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rank: Option<usize>,
    /// The gate accepts it (a known failure that still fails is accepted).
    pub passed: bool,
    /// Why it failed, or `ok`.
    pub reason: String,
    /// Why the question is known to fail, when its item says so.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub known_failure: Option<String>,
}

impl Outcome {
    /// A known failure that still fails: accepted by the gate, shown apart from a pass.
    pub fn is_known_failure(&self) -> bool {
        self.passed && self.known_failure.is_some()
    }
}

/// How answerable the knowledge base is, over a questions file.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Default)]
#[serde(rename_all = "camelCase")]
pub struct Metrics {
    /// Answerable questions.
    pub answerable: usize,
    /// Answerable questions that list expected sections (the denominator of top-1 and top-3).
    pub with_expected: usize,
    /// Unanswerable questions.
    pub unanswerable: usize,
    /// Questions whose first section is an expected one.
    pub top1: usize,
    /// Questions with an expected section among the first three.
    pub top3: usize,
    /// Unanswerable questions flagged `CAPABILITY_LOW_EVIDENCE` / `CAPABILITY_NOT_FOUND`.
    pub flagged: usize,
    /// Answerable questions flagged `CAPABILITY_LOW_EVIDENCE` / `CAPABILITY_NOT_FOUND`.
    pub false_alarms: usize,
    /// `top1 / withExpected` (absent without expected sections).
    pub top1_rate: Option<f64>,
    /// `top3 / withExpected`.
    pub top3_rate: Option<f64>,
    /// `flagged / unanswerable`.
    pub flagged_rate: Option<f64>,
    /// `falseAlarms / answerable`.
    pub false_alarm_rate: Option<f64>,
}

impl Metrics {
    fn of(outcomes: &[Outcome], questions: &[Question]) -> Metrics {
        let mut m = Metrics::default();
        for (o, q) in outcomes.iter().zip(questions) {
            let weak = matches!(o.level, Level::Low | Level::None);
            if o.answerable {
                m.answerable += 1;
                m.false_alarms += usize::from(weak);
                if !q.expect.is_empty() {
                    m.with_expected += 1;
                    m.top1 += usize::from(o.rank == Some(1));
                    m.top3 += usize::from(o.rank.is_some_and(|r| r <= EXPECT_TOP));
                }
            } else {
                m.unanswerable += 1;
                m.flagged += usize::from(weak);
            }
        }
        let rate = |a: usize, b: usize| (b > 0).then(|| round4(a as f64 / b as f64));
        m.top1_rate = rate(m.top1, m.with_expected);
        m.top3_rate = rate(m.top3, m.with_expected);
        m.flagged_rate = rate(m.flagged, m.unanswerable);
        m.false_alarm_rate = rate(m.false_alarms, m.answerable);
        m
    }
}

/// The outcome of a questions file.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Report {
    /// Questions asked.
    pub total: usize,
    /// Passed.
    pub passed: usize,
    /// Failed.
    pub failed: usize,
    /// Of `passed`: known failures that still fail (`known_failure`).
    pub known: usize,
    /// Top-1, top-3, unanswerable flagged, false alarms.
    pub metrics: Metrics,
    /// Each question's outcome, in file order.
    pub outcomes: Vec<Outcome>,
}

impl Report {
    /// The one-line tally every output format prints: `56 question(s): 55 passed, 0 failed`,
    /// with `(1 known failure)` after the passes when there are any.
    pub fn tally(&self) -> String {
        let known = match self.known {
            0 => String::new(),
            1 => " (1 known failure)".to_string(),
            n => format!(" ({n} known failures)"),
        };
        format!(
            "{} question(s): {} passed{known}, {} failed",
            self.total, self.passed, self.failed
        )
    }
}

/// Answers every question and applies the gate.
pub fn check(ctx: &Context<'_>, questions: &[Question]) -> Report {
    let articles = article_ids(ctx.graph);
    let outcomes: Vec<Outcome> = questions
        .iter()
        .map(|q| outcome(ctx, q, &articles))
        .collect();
    let passed = outcomes.iter().filter(|o| o.passed).count();
    Report {
        total: outcomes.len(),
        passed,
        failed: outcomes.len() - passed,
        known: outcomes.iter().filter(|o| o.is_known_failure()).count(),
        metrics: Metrics::of(&outcomes, questions),
        outcomes,
    }
}

/// For a section not in the graph of a workspace with errors: that it may be one they left
/// out. A malformed `structure.yaml` made every expected section "not exist in this
/// workspace", which sent a person looking for typos (adoption walk, stop 47).
fn lost_to_errors(ctx: &Context<'_>) -> String {
    let errors = ctx.index.errors();
    let first = errors
        .iter()
        .find_map(|id| ctx.graph.node(id))
        .map(crate::walk::diagnostic_of_node);
    match first {
        Some(d) => format!(
            " (the workspace has {} error(s), the first {}{}: it may have left the section out; ontoly validate lists them)",
            errors.len(),
            d.code.as_str(),
            d.location.map(|l| format!(" at {l}")).unwrap_or_default()
        ),
        None => String::new(),
    }
}

/// The section a mistyped expected id most likely meant, in the form it was written: an
/// `article_id#id` among those ids, a section id without its page among the sections of that
/// id, else a page path among the graph's.
fn meant(graph: &Graph, id: &str, articles: &BTreeMap<String, String>) -> Option<String> {
    let bare = id.strip_prefix("section:").unwrap_or(id);
    // `section:<page>#<id>`: the page and the id.
    let parts = || {
        graph
            .nodes_of(NodeKind::Section)
            .filter_map(|n| n.id.strip_prefix("section:")?.rsplit_once('#'))
    };
    match bare.split_once('#') {
        None => {
            let mut same = parts().filter(|(_, sid)| *sid == bare);
            match (same.next(), same.next()) {
                (Some((page, sid)), None) => Some(format!("{page}#{sid}")),
                _ => None,
            }
        }
        Some((x, _)) if articles.contains_key(x) || !x.contains('.') => {
            let aid_of: BTreeMap<&str, &str> = articles
                .iter()
                .map(|(aid, path)| (path.as_str(), aid.as_str()))
                .collect();
            let forms: Vec<String> = parts()
                .filter_map(|(page, sid)| Some(format!("{}#{sid}", aid_of.get(page)?)))
                .collect();
            ontoly_graph::suggest::nearest(bare, forms.iter().map(String::as_str))
                .map(str::to_string)
                .or_else(|| {
                    // The right section id under another article (its page's folder written
                    // as the article: `internals#construct-unsafe` for
                    // `representation#construct-unsafe`; Rust walk, stop 48), when only one
                    // article has it.
                    let sid = bare.split_once('#').map(|(_, sid)| sid)?;
                    let mut same = forms
                        .iter()
                        .filter(|f| f.rsplit_once('#').map(|(_, s)| s) == Some(sid));
                    match (same.next(), same.next()) {
                        (Some(one), None) => Some(one.clone()),
                        _ => None,
                    }
                })
        }
        // In the file's own style: with `section:` or `knowledge/` when it wrote them.
        Some(_) => {
            let prefix = ["section:", "knowledge/"]
                .into_iter()
                .find(|p| id.starts_with(p))
                .unwrap_or("");
            let bare = bare.strip_prefix("knowledge/").unwrap_or(bare);
            crate::queries::nearest_section(graph, bare).map(|s| format!("{prefix}{s}"))
        }
    }
}

/// Why the expected section `expected` ranks below the top: where it ranks (its place in the
/// pack, `in_pack`, else among the search's sections: Rust library walk, stop 53, could not
/// tell a near miss from a section nowhere near), and the question's words it does not hold
/// (in the asker's words, as the pack's explanation names them), or that it holds none.
fn unmatched_by(
    ctx: &Context<'_>,
    question: &str,
    expected: &str,
    in_pack: Option<usize>,
) -> String {
    // A section the structure lists with no marker on its page has no words to match: that,
    // not the question's words, is why (adoption walk, stop 59: a marker id's typo read as
    // "holds none of the question's words").
    if ctx.graph.node(expected).is_some() && ctx.graph.text(expected).is_none() {
        return format!(
            "; {expected} has no marker on its page (SECTION_MISSING_MARKER: `ontoly validate` names the marker it may be)"
        );
    }
    let ranking = crate::retrieval::rank::rank(ctx.graph, ctx.index, question);
    let mut sections = (ranking.nodes.iter()).filter(|n| n.kind == NodeKind::Section);
    match sections.position(|n| n.id == expected) {
        Some(at) => {
            let place = match in_pack {
                Some(k) => format!("is number {k} in the pack"),
                None => format!("is number {} in the search", at + 1),
            };
            let words = (ranking.nodes.iter().find(|n| n.id == expected))
                .map_or_else(Vec::new, |n| {
                    crate::pack::confidence::words_missing_from(ctx.graph, &ranking, n)
                });
            if words.is_empty() {
                format!("; {expected} {place}")
            } else {
                format!(
                    "; {expected} {place} and does not hold: {}",
                    words.join(", ")
                )
            }
        }
        // The ranking keeps the best MAX_RANKED: below them, which words it holds is unknown.
        None if ranking.nodes.len() >= crate::retrieval::rank::MAX_RANKED => {
            format!(
                "; {expected} is not among the {} best matches",
                crate::retrieval::rank::MAX_RANKED
            )
        }
        None => format!("; {expected} holds none of the question's words"),
    }
}

/// The place of `expected` among the pack's sections, from 1.
fn in_pack(sections: &[&str], expected: &str) -> Option<usize> {
    sections.iter().position(|s| *s == expected).map(|i| i + 1)
}

/// Why expected sections fail their question: `unknown` (as the file writes them) are not in
/// the workspace; each names the section it most likely meant.
fn not_in_workspace(
    ctx: &Context<'_>,
    unknown: &[String],
    articles: &BTreeMap<String, String>,
) -> String {
    let named: Vec<String> = unknown
        .iter()
        .map(|u| match meant(ctx.graph, u, articles) {
            Some(m) => format!("{u} (did you mean {m}?)"),
            None => u.clone(),
        })
        .collect();
    format!(
        "expected section{} {} do{} not exist in this workspace{}",
        if unknown.len() == 1 { "" } else { "s" },
        named.join(", "),
        if unknown.len() == 1 { "es" } else { "" },
        lost_to_errors(ctx)
    )
}

/// The expected sections of `parsed` (the items of the questions file `text` that parsed, with
/// their numbers: [`QuestionsError::parsed`]) that are not in the workspace, each an error at
/// the line that writes it, in the form of the file's parse errors (`line 7: question 3:
/// expected section … does not exist in this workspace`). A file with parse errors is not
/// answered, so without these its missing sections would be told only in the run after the
/// parse errors are fixed (re-walk, stop 52).
pub fn unknown_expected(
    ctx: &Context<'_>,
    text: &str,
    parsed: &[(usize, Question)],
) -> Vec<String> {
    let articles = article_ids(ctx.graph);
    let mut out = Vec::new();
    for (number, q) in parsed {
        for (i, e) in q.expect.iter().enumerate() {
            if resolve_section(ctx.graph, e, &articles).is_some() {
                continue;
            }
            let written = q.expect_written.get(i).unwrap_or(e);
            // The id is written in the item, at or after the item's own line.
            let line = line_of(text, written, q.line);
            out.push(format!(
                "line {line}: question {number}: {}",
                not_in_workspace(ctx, std::slice::from_ref(written), &articles)
            ));
        }
    }
    out
}

fn outcome(ctx: &Context<'_>, q: &Question, articles: &BTreeMap<String, String>) -> Outcome {
    let p = evidence_pack(ctx, &q.question, None).pack;
    let sections: Vec<&str> = p.top_sections().map(|t| t.node.id.as_str()).collect();
    let top: Vec<String> = sections
        .iter()
        .take(EXPECT_TOP)
        .map(|s| s.to_string())
        .collect();
    let mut unknown = Vec::new();
    let expect: Vec<String> = q
        .expect
        .iter()
        .enumerate()
        .map(|(i, e)| {
            resolve_section(ctx.graph, e, articles).unwrap_or_else(|| {
                // Told as the file writes it.
                unknown.push(q.expect_written.get(i).unwrap_or(e).clone());
                e.clone()
            })
        })
        .collect();
    let rank = sections
        .iter()
        .position(|s| expect.iter().any(|e| e == s))
        .map(|i| i + 1);
    let missing: Vec<String> = expect
        .iter()
        .filter(|e| !top.contains(e))
        .cloned()
        .collect();
    // Each code once: two diagnostics of one code (the pack's truncation and its budget's
    // note) are one fact for the gate.
    let mut codes: Vec<Code> = Vec::new();
    for d in &p.diagnostics {
        if d.code.as_str().starts_with("CAPABILITY_") && !codes.contains(&d.code) {
            codes.push(d.code);
        }
    }
    let weak = matches!(p.confidence.level, Level::Low | Level::None);
    let (passed, reason) = if !unknown.is_empty() {
        (false, not_in_workspace(ctx, &unknown, articles))
    } else if !q.answerable {
        if weak {
            (true, "ok".to_string())
        } else {
            (
                false,
                format!(
                    "expected no confident answer, got {} ({})",
                    p.confidence.level.as_str(),
                    top.first().map(String::as_str).unwrap_or("-")
                ),
            )
        }
    } else if weak {
        let code = if p.confidence.level == Level::None {
            "CAPABILITY_NOT_FOUND"
        } else {
            "CAPABILITY_LOW_EVIDENCE"
        };
        (false, format!("{code}: {}", p.confidence.explanation))
    } else if !expect.is_empty() && missing.len() == expect.len() {
        (
            false,
            format!(
                "expected one of {} in the top {EXPECT_TOP} sections, got {}{}",
                missing.join(", "),
                if top.is_empty() {
                    "-".to_string()
                } else {
                    top.join(", ")
                },
                unmatched_by(ctx, &q.question, &expect[0], in_pack(&sections, &expect[0]))
            ),
        )
    } else {
        (true, "ok".to_string())
    };
    let (passed, reason) = match (&q.known_failure, passed) {
        (None, _) => (passed, reason),
        // A section that does not exist can never be found: the marker would outlive its
        // reason, hiding a typo for good.
        (Some(_), false) if !unknown.is_empty() => (
            false,
            format!("{reason}; known_failure does not excuse a section that does not exist"),
        ),
        (Some(_), false) => (true, reason),
        (Some(why), true) => (
            false,
            format!("passes now, but is marked known_failure ({why}): remove the marker"),
        ),
    };
    Outcome {
        question: q.question.clone(),
        line: q.line,
        answerable: q.answerable,
        level: p.confidence.level,
        score: p.confidence.score,
        codes,
        top_sections: top,
        missing,
        rank,
        passed,
        reason,
        known_failure: q.known_failure.clone(),
    }
}

//! The CI gate: answer a file of questions and say which ones the graph cannot back.
//!
//! A questions file is a YAML list (or a map with a `questions:` list). Each item is a string,
//! or a map: `question` (or `query`), optional `expect` (also `expected`, `sections`: one
//! section or a list; `section:page.md#id`, `page.md#id` or `knowledge/page.md#id`) and optional
//! `answerable: false` for a question the workspace should *not* answer confidently.
//!
//! A question passes when its pack is at least `medium` and, when it lists expected sections,
//! at least one of them is among the top three sections (any of them answers it); an `answerable: false` question passes when its pack is `low` or
//! `none` (the gate then checks that the workspace does not claim what it cannot back).

use crate::context::Context;
use crate::evidence::Code;
use crate::evidence::Level;
use crate::pack::evidence_pack;
use serde::Serialize;
use yaml_serde::Value;

/// Expected sections must be among this many top sections.
pub const EXPECT_TOP: usize = 3;

/// One question of a questions file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Question {
    /// The question.
    pub question: String,
    /// Section ids that must answer it (normalized to `section:page.md#id`).
    pub expect: Vec<String>,
    /// False for a question the workspace should not answer.
    pub answerable: bool,
    /// 1-based line of the item in the file (for annotations).
    pub line: u64,
}

fn normalize_section(s: &str) -> String {
    let s = s.trim();
    let s = s.strip_prefix("section:").unwrap_or(s);
    let s = s.strip_prefix("knowledge/").unwrap_or(s);
    format!("section:{s}")
}

fn line_of(text: &str, needle: &str, from: usize) -> u64 {
    text.split('\n')
        .enumerate()
        .skip(from)
        .find(|(_, l)| l.contains(needle))
        .map_or(1, |(i, _)| i as u64 + 1)
}

/// Parses a questions file; the error names the item that is wrong.
pub fn parse_questions(text: &str) -> Result<Vec<Question>, String> {
    let v: Value = yaml_serde::from_str(text).map_err(|e| format!("invalid YAML: {e}"))?;
    let list = match &v {
        Value::Sequence(s) => s.clone(),
        Value::Mapping(m) => match m.get("questions") {
            Some(Value::Sequence(s)) => s.clone(),
            _ => {
                return Err(
                    "expected a list of questions, or a map with a `questions:` list".into(),
                )
            }
        },
        _ => return Err("expected a list of questions".into()),
    };
    let mut out = Vec::new();
    let mut from = 0usize;
    for (i, item) in list.iter().enumerate() {
        let n = i + 1;
        let (question, expect, answerable) = match item {
            Value::String(s) => (s.clone(), Vec::new(), true),
            Value::Mapping(m) => {
                let q = ["question", "query", "q"]
                    .iter()
                    .find_map(|k| m.get(*k).and_then(Value::as_str))
                    .ok_or_else(|| format!("question {n}: needs a string `question`"))?;
                let mut expect = Vec::new();
                for k in ["expect", "expected", "expected_sections", "sections"] {
                    match m.get(k) {
                        Some(Value::String(s)) => expect.push(normalize_section(s)),
                        Some(Value::Sequence(seq)) => {
                            for e in seq {
                                let s = e.as_str().ok_or_else(|| {
                                    format!("question {n}: `{k}` must list section ids")
                                })?;
                                expect.push(normalize_section(s));
                            }
                        }
                        Some(Value::Null) | None => {}
                        Some(_) => {
                            return Err(format!(
                                "question {n}: `{k}` must be a section id or a list"
                            ))
                        }
                    }
                }
                let answerable = match m.get("answerable") {
                    None | Some(Value::Null) => true,
                    Some(Value::Bool(b)) => *b,
                    Some(_) => {
                        return Err(format!("question {n}: `answerable` must be true or false"))
                    }
                };
                (q.to_string(), expect, answerable)
            }
            _ => return Err(format!("question {n}: expected a string or a map")),
        };
        let key = question.chars().take(40).collect::<String>();
        let line = line_of(text, &key, from);
        from = line as usize;
        out.push(Question {
            question,
            expect,
            answerable,
            line,
        });
    }
    Ok(out)
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
    /// Passed the gate.
    pub passed: bool,
    /// Why it failed, or `ok`.
    pub reason: String,
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
    /// Each question's outcome, in file order.
    pub outcomes: Vec<Outcome>,
}

/// Answers every question and applies the gate.
pub fn check(ctx: &Context<'_>, questions: &[Question]) -> Report {
    let outcomes: Vec<Outcome> = questions
        .iter()
        .map(|q| {
            let p = evidence_pack(ctx, &q.question, None).pack;
            let top: Vec<String> = p
                .top_nodes
                .iter()
                .filter(|t| t.node.kind == ontoly_graph::graph::model::NodeKind::Section)
                .take(EXPECT_TOP)
                .map(|t| t.node.id.clone())
                .collect();
            let missing: Vec<String> = q
                .expect
                .iter()
                .filter(|e| !top.contains(e))
                .cloned()
                .collect();
            let codes: Vec<Code> = p
                .diagnostics
                .iter()
                .filter(|d| d.code.as_str().starts_with("CAPABILITY_"))
                .map(|d| d.code)
                .collect();
            let weak = matches!(p.confidence.level, Level::Low | Level::None);
            let (passed, reason) = if !q.answerable {
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
            } else if !q.expect.is_empty() && missing.len() == q.expect.len() {
                (
                    false,
                    format!(
                        "expected one of {} in the top {EXPECT_TOP} sections, got {}",
                        missing.join(", "),
                        if top.is_empty() {
                            "-".to_string()
                        } else {
                            top.join(", ")
                        }
                    ),
                )
            } else {
                (true, "ok".to_string())
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
                passed,
                reason,
            }
        })
        .collect();
    let passed = outcomes.iter().filter(|o| o.passed).count();
    Report {
        total: outcomes.len(),
        passed,
        failed: outcomes.len() - passed,
        outcomes,
    }
}

//! A small driver for the drift tests: reads a workspace's references with the public parsing
//! API, runs `ontoly_graph::sources::drift::compare` per pinned commit, and renders both its results
//! and an expected `drift.yaml` as one line per reference, so that a disagreement reads as a
//! diff of two lines.
#![allow(dead_code)]

use ontoly_graph::formats::source_registry::{DirFiles, Registries, RegistryState};
use ontoly_graph::formats::structure::parse_structure;
use ontoly_graph::sources::drift::{
    compare, CitedRange, CompareOptions, DriftRepo, RangeDrift, Verdict,
};
use std::collections::BTreeMap;
use std::path::Path;

/// One `repo:` reference of a workspace, with its repository path and pinned commit.
#[derive(Debug, Clone)]
pub struct WsRef {
    pub article_id: String,
    pub section_id: String,
    pub ref_index: usize,
    pub source_ref: String,
    /// Module subpath joined with the locator path.
    pub path: String,
    pub start_line: u64,
    pub end_line: u64,
    /// The module's pinned commit.
    pub commit: String,
}

impl WsRef {
    /// `article#section[i] source_ref path start-end`.
    pub fn key(&self) -> String {
        format!(
            "{}#{}[{}] {} {} {}-{}",
            self.article_id,
            self.section_id,
            self.ref_index,
            self.source_ref,
            self.path,
            self.start_line,
            self.end_line
        )
    }
}

/// Every `repo:` reference of the workspace at `ws`, in structure.yaml order.
pub fn workspace_refs(ws: &Path) -> Vec<WsRef> {
    let text = std::fs::read_to_string(ws.join("knowledge/structure.yaml"))
        .expect("structure.yaml is readable");
    let structure = parse_structure(&text).expect("structure.yaml parses");
    let registries = Registries::load(&DirFiles::new(ws), "");
    let RegistryState::Loaded(repo) = &registries.repo else {
        panic!(
            "sources/repo/index.yaml does not load: {:?}",
            registries.repo
        );
    };
    let mut out = Vec::new();
    for article in structure.articles.expect("articles") {
        let article_id = article.article_id.expect("article_id");
        for section in article.sections.unwrap_or_default() {
            let section_id = section.id.expect("section id");
            for (i, r) in section
                .references
                .unwrap_or_default()
                .into_iter()
                .enumerate()
            {
                let source_ref = r.source_ref.expect("source_ref");
                let name = source_ref
                    .strip_prefix("repo:")
                    .expect("only repo: references in these workspaces");
                let m = repo.lookup(name).expect("module is registered").module;
                let loc = r.locator.expect("locator");
                let sub = m.subpath.clone().unwrap_or_default();
                let path = if sub.is_empty() {
                    loc.path.clone()
                } else {
                    format!("{sub}/{}", loc.path)
                };
                out.push(WsRef {
                    article_id: article_id.clone(),
                    section_id: section_id.clone(),
                    ref_index: i,
                    source_ref: source_ref.clone(),
                    path,
                    start_line: loc.start_line,
                    end_line: loc.end_line,
                    commit: m.git_ref.clone().expect("pinned ref"),
                });
            }
        }
    }
    out
}

/// Runs drift for every reference (grouped by pinned commit) up to commit `to`.
pub fn run(repo: &DriftRepo, refs: &[WsRef], to: &str) -> Vec<RangeDrift> {
    let mut by_commit: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
    for (i, r) in refs.iter().enumerate() {
        by_commit.entry(r.commit.as_str()).or_default().push(i);
    }
    let mut out: Vec<Option<RangeDrift>> = vec![None; refs.len()];
    for (commit, idx) in by_commit {
        let ranges: Vec<CitedRange> = idx
            .iter()
            .map(|&i| CitedRange {
                path: refs[i].path.clone(),
                start_line: refs[i].start_line,
                end_line: refs[i].end_line,
            })
            .collect();
        let got = compare(repo, commit, to, &ranges, CompareOptions::default())
            .expect("both commits are readable");
        for (i, d) in idx.into_iter().zip(got) {
            out[i] = Some(d);
        }
    }
    out.into_iter().map(|d| d.expect("every ref ran")).collect()
}

/// One line per reference: its key, then what drift says of it, in drift.yaml's terms.
pub fn render(refs: &[WsRef], drifts: &[RangeDrift]) -> Vec<String> {
    refs.iter()
        .zip(drifts)
        .map(|(r, d)| {
            let what = match &d.outcome {
                Err(why) => format!("unverifiable ({why})"),
                Ok(Verdict::Unchanged) => "unchanged".to_string(),
                Ok(Verdict::Missing) => "missing".to_string(),
                Ok(Verdict::Moved {
                    new_path,
                    new_start_line,
                    new_end_line,
                }) => format!("moved {new_path} {new_start_line}-{new_end_line}"),
                Ok(Verdict::Changed {
                    new_path,
                    occurrences,
                    mapped,
                }) => format!(
                    "changed {new_path} occurrences={occurrences} mapped={}",
                    mapped.map_or("null".to_string(), |m| format!(
                        "{}-{}",
                        m.start_line, m.end_line
                    ))
                ),
            };
            format!("{}: {what}", r.key())
        })
        .collect()
}

/// The expected lines of a `drift.yaml` (as tools/drift.py writes it), and its two commits.
pub fn expected(drift_yaml: &Path) -> (String, String, Vec<String>) {
    let text = std::fs::read_to_string(drift_yaml).expect("drift.yaml is readable");
    let doc = ontoly_graph::formats::yaml::parse_value(&text).expect("drift.yaml parses");
    let s = |v: &yaml_serde::Value, k: &str| -> String {
        v.get(k)
            .and_then(|x| x.as_str())
            .unwrap_or_else(|| panic!("{k} is a string"))
            .to_string()
    };
    let n = |v: &yaml_serde::Value, k: &str| -> u64 {
        v.get(k)
            .and_then(|x| x.as_u64())
            .unwrap_or_else(|| panic!("{k} is a number"))
    };
    let lines = doc
        .get("references")
        .and_then(|r| r.as_sequence())
        .expect("references")
        .iter()
        .map(|e| {
            let key = format!(
                "{}#{}[{}] {} {} {}-{}",
                s(e, "article_id"),
                s(e, "section_id"),
                n(e, "ref_index"),
                s(e, "source_ref"),
                s(e, "path"),
                n(e, "start_line"),
                n(e, "end_line")
            );
            let status = s(e, "status");
            let what = match status.as_str() {
                "moved" => format!(
                    "moved {} {}-{}",
                    s(e, "new_path"),
                    n(e, "new_start_line"),
                    n(e, "new_end_line")
                ),
                "changed" => {
                    let mapped = e.get("mapped").expect("changed has mapped");
                    format!(
                        "changed {} occurrences={} mapped={}",
                        s(e, "new_path"),
                        n(e, "occurrences_at_head"),
                        if mapped.is_null() {
                            "null".to_string()
                        } else {
                            format!("{}-{}", n(mapped, "start_line"), n(mapped, "end_line"))
                        }
                    )
                }
                other => other.to_string(),
            };
            format!("{key}: {what}")
        })
        .collect();
    (s(&doc, "base_commit"), s(&doc, "head_commit"), lines)
}

/// Asserts that `got` and `want` agree line for line, listing every disagreement.
pub fn assert_agree(got: &[String], want: &[String]) {
    assert_eq!(got.len(), want.len(), "number of references");
    let bad: Vec<String> = got
        .iter()
        .zip(want)
        .filter(|(g, w)| g != w)
        .map(|(g, w)| format!("  want {w}\n  got  {g}"))
        .collect();
    assert!(
        bad.is_empty(),
        "{} of {} references disagree:\n{}",
        bad.len(),
        want.len(),
        bad.join("\n")
    );
}

/// Runs git in `dir` and returns stdout (the test environment ignores user configuration).
pub fn git(dir: &Path, args: &[&str]) -> String {
    let out = std::process::Command::new("git")
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .arg("-C")
        .arg(dir)
        .args(args)
        .output()
        .expect("git runs");
    assert!(
        out.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// `git diff -M --name-status A B` renames: (from, to, similarity %).
pub fn git_renames(dir: &Path, a: &str, b: &str) -> Vec<(String, String, u64)> {
    let mut out: Vec<(String, String, u64)> = git(dir, &["diff", "-M", "--name-status", a, b])
        .lines()
        .filter_map(|l| {
            let parts: Vec<&str> = l.split('\t').collect();
            let score = parts.first()?.strip_prefix('R')?.parse().ok()?;
            Some((parts.get(1)?.to_string(), parts.get(2)?.to_string(), score))
        })
        .collect();
    out.sort();
    out
}

/// The hunk headers (`@@ -a,b +c,d @@`, section text cut) of `git diff -U0 A:OLD B:NEW`.
pub fn git_hunks(dir: &Path, a: &str, old: &str, b: &str, new: &str) -> Vec<String> {
    let out = std::process::Command::new("git")
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .arg("-C")
        .arg(dir)
        .args([
            "diff",
            "-U0",
            "--no-color",
            "--no-ext-diff",
            &format!("{a}:{old}"),
            &format!("{b}:{new}"),
        ])
        .output()
        .expect("git runs");
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter(|l| l.starts_with("@@ "))
        .map(|l| {
            let end = l[3..].find(" @@").expect("hunk header closes") + 6;
            l[..end].to_string()
        })
        .collect()
}

/// The JSON `ontoly drift --format json` is specified to print (issue 9), built from the
/// engine's results: what `scripts/drift-compare.py` reads. `to` is the later commit of every
/// module the references use.
pub fn drift_json(refs: &[WsRef], drifts: &[RangeDrift], to: &str) -> serde_json::Value {
    use serde_json::{json, Map, Value};
    let mut counts: BTreeMap<&str, u64> =
        ["unchanged", "moved", "changed", "missing", "unverifiable"]
            .into_iter()
            .map(|s| (s, 0))
            .collect();
    let mut to_map = Map::new();
    let mut out = Vec::new();
    for (r, d) in refs.iter().zip(drifts) {
        let module = r.source_ref.trim_start_matches("repo:").to_string();
        to_map.insert(module, Value::String(to.to_string()));
        let mut o = Map::new();
        o.insert("articleId".into(), json!(r.article_id));
        o.insert("sectionId".into(), json!(r.section_id));
        o.insert("refIndex".into(), json!(r.ref_index));
        o.insert("sourceRef".into(), json!(r.source_ref));
        o.insert("path".into(), json!(r.path));
        o.insert("startLine".into(), json!(r.start_line));
        o.insert("endLine".into(), json!(r.end_line));
        let status = match &d.outcome {
            Err(why) => {
                o.insert("reason".into(), json!(why));
                "unverifiable"
            }
            Ok(v) => {
                match v {
                    Verdict::Moved {
                        new_path,
                        new_start_line,
                        new_end_line,
                    } => {
                        o.insert("newPath".into(), json!(new_path));
                        o.insert("newStartLine".into(), json!(new_start_line));
                        o.insert("newEndLine".into(), json!(new_end_line));
                    }
                    Verdict::Changed {
                        new_path,
                        occurrences,
                        mapped,
                    } => {
                        o.insert("newPath".into(), json!(new_path));
                        o.insert("occurrences".into(), json!(occurrences));
                        o.insert(
                            "mapped".into(),
                            mapped.map_or(Value::Null, |m| {
                                json!({"path": new_path, "startLine": m.start_line, "endLine": m.end_line})
                            }),
                        );
                    }
                    Verdict::Unchanged | Verdict::Missing => {}
                }
                v.status()
            }
        };
        o.insert("status".into(), json!(status));
        if let Some(s) = &d.symbol {
            o.insert(
                "symbol".into(),
                serde_json::to_value(s).expect("serializes"),
            );
        }
        if let Some(s) = &d.suggestion {
            o.insert(
                "suggestion".into(),
                serde_json::to_value(s).expect("serializes"),
            );
        }
        *counts.get_mut(status).expect("known status") += 1;
        out.push(Value::Object(o));
    }
    json!({"to": to_map, "counts": counts, "references": out})
}

/// Runs scripts/drift-compare.py on `json` against `drift_yaml`; returns (success, output).
pub fn drift_compare_script(json: &serde_json::Value, drift_yaml: &Path) -> (bool, String) {
    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join("drift.json");
    std::fs::write(&file, serde_json::to_vec_pretty(json).expect("serializes")).expect("write");
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../scripts/drift-compare.py");
    let out = std::process::Command::new("python3")
        .arg(script)
        .arg(&file)
        .arg(drift_yaml)
        .output()
        .expect("python3 runs");
    (
        out.status.success(),
        format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ),
    )
}

/// Checks that each old-side line a parsed diff quotes is the file's line at `commit`, and
/// takes them out of `change` (a change between commits quotes none); returns how many.
pub fn take_quoted_lines(
    reader: &ontoly_graph::sources::drift::DriftReader,
    commit: &str,
    change: &mut ontoly_graph::sources::drift::impact::FileChange,
) -> usize {
    let quoted = std::mem::take(&mut change.old_lines);
    let Some(path) = &change.old_path else {
        return 0;
    };
    let Some(old) = reader.file(commit, path).expect("reads") else {
        return 0;
    };
    let old = String::from_utf8_lossy(&old).into_owned();
    let lines: Vec<&str> = old
        .split('\n')
        .map(|l| l.strip_suffix('\r').unwrap_or(l))
        .collect();
    for (n, text) in &quoted {
        assert_eq!(lines[*n as usize - 1], text, "{path}:{n}");
    }
    quoted.len()
}

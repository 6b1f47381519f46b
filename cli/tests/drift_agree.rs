//! A reference's section verdict, its `--diff` and `--write` name the same lines and agree
//! on whether it can be re-anchored (stop 55, hyperfine 1.16.1 → 1.18.0): `compute`, cited
//! whole, became a wrapper of the new `compute_relative_speeds`, which holds 19 of its 24
//! distinctive lines; the verdict reviewed the wrapper while `--diff` and
//! `--accept-relocated` took the helper.

mod common;

use common::{one_module, one_page_citing, repo_with_files, run_in};
use serde_json::Value;

/// hyperfine 1.16.1's `src/benchmark/relative_speed.rs`, to the end of `compute`.
const BEFORE: &str = r#"use std::cmp::Ordering;

use super::benchmark_result::BenchmarkResult;
use crate::util::units::Scalar;

#[derive(Debug)]
pub struct BenchmarkResultWithRelativeSpeed<'a> {
    pub result: &'a BenchmarkResult,
    pub relative_speed: Scalar,
    pub relative_speed_stddev: Option<Scalar>,
    pub is_fastest: bool,
}

pub fn compare_mean_time(l: &BenchmarkResult, r: &BenchmarkResult) -> Ordering {
    l.mean.partial_cmp(&r.mean).unwrap_or(Ordering::Equal)
}

pub fn compute(results: &[BenchmarkResult]) -> Option<Vec<BenchmarkResultWithRelativeSpeed>> {
    let fastest: &BenchmarkResult = results
        .iter()
        .min_by(|&l, &r| compare_mean_time(l, r))
        .expect("at least one benchmark result");

    if fastest.mean == 0.0 {
        return None;
    }

    Some(
        results
            .iter()
            .map(|result| {
                let ratio = result.mean / fastest.mean;

                // https://en.wikipedia.org/wiki/Propagation_of_uncertainty#Example_formulas
                // Covariance asssumed to be 0, i.e. variables are assumed to be independent
                let ratio_stddev = match (result.stddev, fastest.stddev) {
                    (Some(result_stddev), Some(fastest_stddev)) => Some(
                        ratio
                            * ((result_stddev / result.mean).powi(2)
                                + (fastest_stddev / fastest.mean).powi(2))
                            .sqrt(),
                    ),
                    _ => None,
                };

                BenchmarkResultWithRelativeSpeed {
                    result,
                    relative_speed: ratio,
                    relative_speed_stddev: ratio_stddev,
                    is_fastest: result == fastest,
                }
            })
            .collect(),
    )
}
"#;

/// hyperfine 1.18.0's, to the end of `compute`, now a wrapper.
const AFTER: &str = r#"use std::cmp::Ordering;

use super::benchmark_result::BenchmarkResult;
use crate::{options::SortOrder, util::units::Scalar};

#[derive(Debug)]
pub struct BenchmarkResultWithRelativeSpeed<'a> {
    pub result: &'a BenchmarkResult,
    pub relative_speed: Scalar,
    pub relative_speed_stddev: Option<Scalar>,
    pub is_fastest: bool,
}

pub fn compare_mean_time(l: &BenchmarkResult, r: &BenchmarkResult) -> Ordering {
    l.mean.partial_cmp(&r.mean).unwrap_or(Ordering::Equal)
}

fn fastest_of(results: &[BenchmarkResult]) -> &BenchmarkResult {
    results
        .iter()
        .min_by(|&l, &r| compare_mean_time(l, r))
        .expect("at least one benchmark result")
}

fn compute_relative_speeds<'a>(
    results: &'a [BenchmarkResult],
    fastest: &'a BenchmarkResult,
    sort_order: SortOrder,
) -> Vec<BenchmarkResultWithRelativeSpeed<'a>> {
    let mut results: Vec<_> = results
        .iter()
        .map(|result| {
            let is_fastest = result == fastest;

            if result.mean == 0.0 {
                return BenchmarkResultWithRelativeSpeed {
                    result,
                    relative_speed: if is_fastest { 1.0 } else { f64::INFINITY },
                    relative_speed_stddev: None,
                    is_fastest,
                };
            }

            let ratio = result.mean / fastest.mean;

            // https://en.wikipedia.org/wiki/Propagation_of_uncertainty#Example_formulas
            // Covariance asssumed to be 0, i.e. variables are assumed to be independent
            let ratio_stddev = match (result.stddev, fastest.stddev) {
                (Some(result_stddev), Some(fastest_stddev)) => Some(
                    ratio
                        * ((result_stddev / result.mean).powi(2)
                            + (fastest_stddev / fastest.mean).powi(2))
                        .sqrt(),
                ),
                _ => None,
            };

            BenchmarkResultWithRelativeSpeed {
                result,
                relative_speed: ratio,
                relative_speed_stddev: ratio_stddev,
                is_fastest,
            }
        })
        .collect();

    match sort_order {
        SortOrder::Command => {}
        SortOrder::MeanTime => {
            results.sort_unstable_by(|r1, r2| compare_mean_time(r1.result, r2.result));
        }
    }

    results
}

pub fn compute_with_check(
    results: &[BenchmarkResult],
    sort_order: SortOrder,
) -> Option<Vec<BenchmarkResultWithRelativeSpeed>> {
    let fastest = fastest_of(results);

    if fastest.mean == 0.0 {
        return None;
    }

    Some(compute_relative_speeds(results, fastest, sort_order))
}

/// Same as compute_with_check, potentially resulting in relative speeds of infinity
pub fn compute(
    results: &[BenchmarkResult],
    sort_order: SortOrder,
) -> Vec<BenchmarkResultWithRelativeSpeed> {
    let fastest = fastest_of(results);

    compute_relative_speeds(results, fastest, sort_order)
}
"#;

/// The numbers of a `@@ -a,b +c,d @@` header's new side: (c, c + d - 1).
fn new_side(diff: &str) -> (u64, u64) {
    let header = diff.lines().find(|l| l.starts_with("@@")).expect("a hunk");
    let plus = header.split(' ').nth(2).expect("+c,d");
    let (c, d) = plus.trim_start_matches('+').split_once(',').expect("c,d");
    let (c, d): (u64, u64) = (c.parse().expect("c"), d.parse().expect("d"));
    (c, c + d - 1)
}

#[test]
fn an_emptied_function_is_reviewed_diffed_and_re_anchored_at_where_its_body_went() {
    let dir = tempfile::tempdir().expect("tempdir");
    let repo = dir.path().join("repo");
    let base = repo_with_files(&repo, &[("src/relative_speed.rs", BEFORE)]);
    std::fs::write(repo.join("src/relative_speed.rs"), AFTER).expect("write");
    common::git(&repo, &["commit", "-q", "-am", "compute_relative_speeds"]);
    let ws = dir.path().join("ws");
    one_module(
        &ws,
        "hyperfine",
        "src",
        "sharkdp/hyperfine",
        &base,
        "../repo",
    );
    one_page_citing(
        &ws,
        "hyperfine/src",
        &[("speed", "src/relative_speed.rs:18-55")],
    );

    // Where the body went: the helper, not the wrapper that kept the name.
    let v: Value = serde_json::from_str(
        &run_in(
            &ws,
            &["drift", "--to", "main", "--diff", "--format", "json"],
        )
        .stdout,
    )
    .expect("json");
    let r = &v["references"][0];
    assert_eq!(r["status"], "changed", "{r}");
    assert_eq!(r["suggestion"]["qualified"], "compute", "{r}");
    let window = &r["relocation"];
    assert_eq!(window["followed"], true, "{r}");
    let (s, e) = (
        window["startLine"].as_u64().expect("start"),
        window["endLine"].as_u64().expect("end"),
    );
    let helper = AFTER
        .lines()
        .position(|l| l.starts_with("fn compute_relative_speeds"))
        .expect("helper") as u64
        + 1;
    let wrapper = AFTER
        .lines()
        .position(|l| l.starts_with("pub fn compute("))
        .expect("wrapper") as u64
        + 1;
    assert!(helper <= e && s < wrapper - 10, "{window}");

    // The verdict reviews the window, and says where the name went.
    let text = run_in(&ws, &["drift", "--to", "main"]).stdout;
    assert!(
        text.contains(&format!(
            "changed: review lines {s}–{e} of src/relative_speed.rs ("
        )),
        "{text}"
    );
    assert!(
        text.contains("was function `compute` (its namesake is now at"),
        "{text}"
    );
    // The diff is against those lines.
    assert_eq!(new_side(r["diff"].as_str().expect("a diff")), (s, e), "{r}");

    // `--accept-changed` alone holds the module back; with `--accept-relocated` it is written
    // at those same lines, and verifies.
    let structure = ws.join("knowledge/structure.yaml");
    let before = std::fs::read_to_string(&structure).expect("structure");
    let held = run_in(
        &ws,
        &["drift", "--to", "main", "--write", "--accept-changed"],
    );
    assert!(
        held.stdout
            .contains("--accept-relocated would re-anchor 1 of them"),
        "{}",
        held.stdout
    );
    assert_eq!(
        before,
        std::fs::read_to_string(&structure).expect("structure")
    );
    let written = run_in(
        &ws,
        &[
            "drift",
            "--to",
            "main",
            "--write",
            "--accept-changed",
            "--accept-relocated",
        ],
    );
    assert_eq!(written.code, 0, "{}{}", written.stdout, written.stderr);
    let after = std::fs::read_to_string(&structure).expect("structure");
    assert!(
        after.contains(&format!("start_line: {s}, end_line: {e}}}")),
        "{after}"
    );
    let check = run_in(&ws, &["validate", "--require-verified"]);
    assert_eq!(check.code, 0, "{}{}", check.stdout, check.stderr);
}

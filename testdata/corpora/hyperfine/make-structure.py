#!/usr/bin/env python3
"""Writes ws/knowledge/structure.yaml for the hyperfine corpus from the reference table below.

Every reference is (module, path, start, end, anchor): module "src" (subpath src/) or "root"
(crate root), the path inside the module, the cited 1-based inclusive line range at the
base commit, and a text that must occur in the first cited line (a guard against off-by-one
ranges). The script checks that each page's section markers appear in the same order as the
table, that every range has 5-60 lines inside the file, and computes each content_digest by the
rule of the workspace format: split the file on "\\n", drop one trailing "\\r" per line, join
lines start..end with "\\n" and take the sha256 of the UTF-8 bytes.

Usage: make-structure.py            (reads repo.git next to this script, writes ws/...)
The prose of the pages is hand-written; this script only computes the structure file.
"""

import hashlib
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.join(HERE, "repo.git")
WS = os.path.join(HERE, "ws")
BASE = "cffd703f7f02f70b59c514da3173c328d0b07bcf"
SUBPATH = {"src": "src", "root": ""}

# article_id, path under knowledge/, then the sections in page order with their references.
RM, CL, CT = "README.md", "CHANGELOG.md", "Cargo.toml"
CLI, OPT, BM, EX = "cli.rs", "options.rs", "benchmark/mod.rs", "benchmark/executor.rs"
CMD, ERR, WARN, MU = "command.rs", "error.rs", "output/warnings.rs", "export/markup.rs"
ARTICLES = [
    ("overview", "architecture/overview.md", [
        ("what-it-is", [("root", RM, 1, 24, "# hyperfine"),
                        ("root", RM, 287, 303, "## Alternative tools")]),
        ("source-layout", [("src", "main.rs", 6, 27, "use std::env;"),
                           ("root", "build.rs", 1, 25, "use std::fs;")]),
        ("run-flow", [("src", "main.rs", 29, 46, "fn run()")]),
        ("dependencies", [("root", CT, 1, 13, "[package]"),
                          ("root", CT, 19, 48, "[dependencies]"),
                          ("root", CT, 50, 62, "[dev-dependencies]")]),
        ("exit-status", [("src", "main.rs", 48, 56, "fn main()"),
                         ("src", CLI, 7, 14, "pub fn get_cli_arguments")]),
    ]),
    ("options-model", "architecture/options-model.md", [
        ("defaults", [("src", OPT, 187, 243, "/// The main settings"),
                      ("src", OPT, 16, 36, "#[cfg(not(windows))]")]),
        ("run-bounds", [("src", OPT, 98, 111, "/// Bounds for the number"),
                        ("src", OPT, 245, 285, "impl Options {")]),
        ("output-policy", [("src", OPT, 138, 173, "/// How to handle the output"),
                           ("src", OPT, 295, 312, "options.command_output_policy = if")]),
        ("input-policy", [("src", OPT, 113, 136, "#[derive(Debug, Default, Clone, PartialEq)]"),
                          ("src", OPT, 381, 397, "options.command_input_policy = if"),
                          ("root", CL, 18, 32, "# v1.16.1")]),
        ("style-resolution", [("src", OPT, 314, 347, "options.output_style = match"),
                              ("src", OPT, 79, 96, "/// Output style type option")]),
    ]),
    ("benchmark-loop", "architecture/benchmark-loop.md", [
        ("intermediate-commands", [("src", BM, 53, 111, "/// Run setup, cleanup, or preparation")]),
        ("warmup-phase", [("src", BM, 152, 174, "// Warmup phase"),
                          ("src", BM, 113, 150, "/// Run the benchmark for a single command")]),
        ("run-count", [("src", BM, 176, 211, "// Set up progress bar"),
                       ("src", OPT, 226, 243, "impl Default for Options")]),
        ("measurement-loop", [("src", BM, 213, 259, "// Save the first result"),
                              ("src", "util/exit_code.rs", 1, 22, "use std::process::ExitStatus;")]),
        ("statistics", [("src", BM, 261, 317, "// Compute statistical quantities")]),
        ("result-and-cleanup", [("src", BM, 319, 363, "// Warnings"),
                                ("src", BM, 365, 389, "if self.options.output_style != OutputStyleOption::Disabled"),
                                ("src", "benchmark/scheduler.rs", 34, 54, "pub fn run_benchmarks")]),
    ]),
    ("executors", "architecture/executors.md", [
        ("executor-trait", [("src", EX, 17, 36, "pub trait Executor"),
                            ("src", "benchmark/scheduler.rs", 34, 54, "pub fn run_benchmarks")]),
        ("common-run", [("src", EX, 38, 69, "fn run_command_and_measure_common(")]),
        ("raw-executor", [("src", EX, 71, 112, "pub struct RawExecutor"),
                          ("src", CMD, 62, 79, "pub fn get_command_line")]),
        ("shell-executor", [("src", EX, 114, 170, "pub struct ShellExecutor"),
                            ("root", CL, 39, 44, "## Bugfixes")]),
        ("calibration", [("src", EX, 172, 229, "/// Measure the average shell spawning time"),
                         ("root", CL, 115, 122, "## Changes")]),
        ("mock-executor", [("src", EX, 236, 294, "#[derive(Clone)]"),
                           ("src", CLI, 329, 336, ".arg(")]),
    ]),
    ("timing", "architecture/timing.md", [
        ("execute-and-measure", [("src", "timer/mod.rs", 76, 114, "/// Execute the given command"),
                                 ("src", "timer/mod.rs", 24, 43, "#[cfg(not(windows))]")]),
        ("wall-clock", [("src", "timer/wall_clock_timer.rs", 1, 20, "use std::time::Instant;")]),
        ("cpu-times", [("src", "timer/unix_timer.rs", 17, 62, "pub struct CPUTimer"),
                       ("root", CL, 51, 65, "# v1.15.0")]),
        ("pipe-discard", [("src", "timer/mod.rs", 45, 74, "/// Discard the output"),
                          ("src", OPT, 155, 173, "impl CommandOutputPolicy")]),
        ("environment-offset", [("src", "util/randomized_environment_offset.rs", 1, 8, "/// Returns a string"),
                                ("root", CL, 162, 172, "# v1.10.0"),
                                ("root", CL, 93, 98, "## Changes")]),
    ]),
    ("export-system", "architecture/export-system.md", [
        ("export-manager", [("src", "export/mod.rs", 53, 106, "/// Handles the management")]),
        ("incremental-writes", [("src", "export/mod.rs", 108, 123, "/// Write the given results"),
                                ("src", "benchmark/scheduler.rs", 34, 54, "pub fn run_benchmarks"),
                                ("root", CL, 115, 120, "## Changes")]),
        ("benchmark-result", [("src", "benchmark/benchmark_result.rs", 1, 46, "use std::collections::BTreeMap;")]),
        ("markup-table", [("src", MU, 13, 41, "pub trait MarkupExporter"),
                          ("src", MU, 42, 77, "for entry in entries {")]),
        ("table-unit", [("src", MU, 94, 117, "fn determine_unit_from_results"),
                        ("src", "output/format.rs", 1, 24, "use crate::util::units")]),
    ]),
    ("basic-usage", "usage/basic-usage.md", [
        ("first-benchmark", [("root", RM, 25, 45, "## Usage"),
                             ("src", CLI, 16, 35, "/// Build the clap command")]),
        ("reading-output", [("src", BM, 276, 317, "// Formatting and console output"),
                            ("src", BM, 229, 240, "// Gather statistics")]),
        ("comparing-commands", [("src", "benchmark/scheduler.rs", 56, 96, "pub fn print_relative_speed_comparison"),
                                ("root", RM, 42, 46, "If you want to compare")]),
        ("relative-speed", [("src", "benchmark/relative_speed.rs", 14, 55, "pub fn compare_mean_time")]),
        ("command-names", [("src", CLI, 309, 317, "Arg::new(\"command-name\")"),
                           ("src", CMD, 216, 230, "} else {"),
                           ("src", CMD, 166, 179, "if param_space_size == 0")]),
        ("duration-format", [("src", "output/format.rs", 1, 24, "use crate::util::units"),
                             ("src", "util/units.rs", 1, 30, "//! This module contains")]),
    ]),
    ("runs-and-warmup", "usage/runs-and-warmup.md", [
        ("run-count-flags", [("src", CLI, 48, 72, "Arg::new(\"min-runs\")"),
                             ("root", "doc/hyperfine.1", 187, 228, ".SH EXAMPLES")]),
        ("run-count-rules", [("src", OPT, 258, 285, "options.warmup_count = param_to_u64"),
                             ("src", BM, 195, 211, "// Determine number of benchmark runs")]),
        ("warmup", [("src", CLI, 37, 46, "Arg::new(\"warmup\")"),
                    ("root", RM, 47, 56, "### Warmup runs"),
                    ("root", CL, 208, 215, "## Changes")]),
        ("min-benchmarking-time", [("src", CLI, 318, 328, "// This option is hidden"),
                                   ("src", OPT, 375, 379, "if let Some(time)"),
                                   ("root", CL, 51, 57, "# v1.15.0")]),
        ("first-run", [("src", BM, 187, 219, "let preparation_result"),
                       ("src", WARN, 32, 56, "Warnings::SlowInitialRun")]),
    ]),
    ("setup-prepare-cleanup", "usage/setup-prepare-cleanup.md", [
        ("prepare", [("src", CLI, 87, 100, "Arg::new(\"prepare\")"),
                     ("root", RM, 58, 68, "Conversely, if you want")]),
        ("prepare-per-command", [("src", OPT, 400, 411, "pub fn validate_against_command_list"),
                                 ("src", BM, 131, 148, "let preparation_command = self"),
                                 ("root", CL, 220, 232, "# v1.8.0")]),
        ("setup", [("src", CLI, 74, 85, "Arg::new(\"setup\")"),
                   ("root", CL, 77, 98, "# v1.13.0")]),
        ("cleanup", [("src", CLI, 102, 113, "Arg::new(\"cleanup\")"),
                     ("src", BM, 85, 103, "/// Run the command specified by `--cleanup`."),
                     ("root", CL, 267, 275, "# v1.6.0")]),
        ("auxiliary-failures", [("src", BM, 53, 111, "/// Run setup, cleanup, or preparation")]),
        ("execution-order", [("root", RM, 157, 162, "### Detailed benchmark flowchart"),
                             ("src", BM, 150, 192, "self.run_setup_command(")]),
    ]),
    ("parameters", "usage/parameters.md", [
        ("parameter-scan", [("src", CLI, 115, 131, "Arg::new(\"parameter-scan\")"),
                            ("root", RM, 70, 88, "### Parameterized benchmarks")]),
        ("step-size", [("src", CLI, 133, 145, "Arg::new(\"parameter-step-size\")"),
                       ("src", CMD, 293, 340, "fn get_parameter_scan_commands")]),
        ("parameter-list", [("src", CLI, 147, 162, "Arg::new(\"parameter-list\")"),
                            ("src", CMD, 137, 165, "} else if let Some(args)"),
                            ("root", CL, 186, 200, "# v1.9.0")]),
        ("combinations", [("root", CL, 126, 150, "# v1.11.0"),
                          ("src", CMD, 181, 215, "let mut i = 0;")]),
        ("list-escaping", [("src", "parameter/tokenize.rs", 1, 31, "pub fn tokenize")]),
        ("substitution", [("src", CMD, 85, 112, "fn replace_parameters_in"),
                          ("src", CMD, 55, 64, "pub fn get_name")]),
        ("range-errors", [("src", "parameter/range_step.rs", 40, 78, "impl<T: Numeric> RangeStep<T>"),
                          ("src", ERR, 6, 22, "#[derive(Debug, Error)]")]),
    ]),
    ("shell", "usage/shell.md", [
        ("default-shell", [("root", RM, 90, 101, "### Intermediate shell"),
                           ("src", OPT, 16, 67, "#[cfg(not(windows))]")]),
        ("shell-option", [("src", CLI, 179, 199, "Arg::new(\"shell\")"),
                          ("src", OPT, 349, 363, "options.executor_kind = if")]),
        ("no-shell", [("root", RM, 103, 108, "If you want to run a benchmark *without"),
                      ("root", CL, 77, 92, "# v1.13.0"),
                      ("src", CMD, 66, 79, "pub fn get_command(&self)")]),
        ("functions-and-aliases", [("root", RM, 111, 128, "### Shell functions and aliases")]),
        ("windows-shell", [("root", CL, 26, 49, "# v1.16.0"),
                           ("src", EX, 130, 145, "impl<'a> Executor for ShellExecutor"),
                           ("src", "output/progress_bar.rs", 1, 31, "use indicatif")]),
    ]),
    ("output-control", "usage/output-control.md", [
        ("output-option", [("src", CLI, 272, 293, "Arg::new(\"output\")"),
                           ("root", CL, 67, 75, "# v1.14.0")]),
        ("output-to-file", [("src", OPT, 295, 312, "options.command_output_policy = if"),
                            ("src", OPT, 155, 173, "impl CommandOutputPolicy")]),
        ("show-output", [("src", CLI, 260, 270, "Arg::new(\"show-output\")"),
                         ("src", OPT, 314, 324, "options.output_style = match")]),
        ("input-option", [("src", CLI, 295, 307, "Arg::new(\"input\")"),
                          ("src", OPT, 381, 397, "options.command_input_policy = if"),
                          ("root", CL, 18, 32, "# v1.16.1")]),
        ("style-option", [("src", CLI, 164, 177, "Arg::new(\"style\")"),
                          ("src", OPT, 314, 347, "options.output_style = match")]),
        ("progress-bar", [("src", "output/progress_bar.rs", 1, 31, "use indicatif")]),
        ("time-unit", [("src", CLI, 208, 217, "Arg::new(\"time-unit\")"),
                       ("src", OPT, 369, 373, "options.time_unit = match"),
                       ("root", CL, 294, 300, "# v1.4.0")]),
    ]),
    ("exporting", "usage/exporting.md", [
        ("export-json", [("src", CLI, 236, 242, "Arg::new(\"export-json\")"),
                         ("src", "export/json.rs", 1, 27, "use serde::*;"),
                         ("root", CL, 145, 150, "## Changes")]),
        ("export-csv", [("src", "export/csv.rs", 11, 55, "#[derive(Default)]"),
                        ("src", CLI, 227, 234, "Arg::new(\"export-csv\")")]),
        ("export-markdown", [("root", RM, 130, 143, "### Exporting results"),
                             ("src", "export/markdown.rs", 1, 29, "use crate::export::markup")]),
        ("export-asciidoc", [("src", "export/asciidoc.rs", 1, 37, "use super::markup::Alignment;"),
                             ("src", CLI, 219, 225, "Arg::new(\"export-asciidoc\")")]),
        ("export-orgmode", [("src", "export/orgmode.rs", 1, 23, "use super::markup::Alignment;"),
                            ("src", CLI, 252, 258, "Arg::new(\"export-orgmode\")")]),
        ("export-stdout", [("src", "export/mod.rs", 80, 106, "/// Add an additional exporter"),
                           ("root", CL, 26, 33, "# v1.16.0"),
                           ("root", CL, 115, 120, "## Changes")]),
    ]),
    ("analysis-scripts", "usage/analysis-scripts.md", [
        ("scripts-setup", [("root", "scripts/README.md", 1, 17, "This folder contains scripts"),
                           ("root", RM, 145, 155, "#### JSON")]),
        ("plot-histogram", [("root", "scripts/plot_histogram.py", 1, 59, "#!/usr/bin/env python")]),
        ("plot-whisker", [("root", "scripts/plot_whisker.py", 1, 51, "#!/usr/bin/env python")]),
        ("plot-progression", [("root", "scripts/plot_progression.py", 14, 62, "def moving_average"),
                              ("root", CL, 88, 92, "- Added `--setup`")]),
        ("plot-parametrized", [("root", "scripts/plot_parametrized.py", 1, 38, "#!/usr/bin/env python"),
                               ("root", "scripts/plot_parametrized.py", 59, 109, "def unique_parameter")]),
        ("statistics-scripts", [("root", "scripts/advanced_statistics.py", 1, 39, "#!/usr/bin/env python"),
                                ("root", "scripts/welch_ttest.py", 1, 38, "#!/usr/bin/env python")]),
    ]),
    ("warnings", "faq/warnings.md", [
        ("fast-command", [("src", WARN, 20, 31, "impl fmt::Display for Warnings"),
                          ("src", BM, 319, 333, "// Warnings")]),
        ("ignoring-exit-code", [("src", WARN, 20, 31, "impl fmt::Display for Warnings"),
                                ("src", CLI, 201, 206, "Arg::new(\"ignore-failure\")"),
                                ("src", BM, 329, 333, "// Check programm exit codes")]),
        ("slow-first-run", [("src", WARN, 32, 56, "Warnings::SlowInitialRun"),
                            ("src", BM, 334, 356, "// Run outlier detection")]),
        ("outliers-detected", [("src", WARN, 57, 69, "Warnings::OutliersDetected"),
                               ("root", CL, 152, 159, "## Bugfixes"),
                               ("src", BM, 348, 363, "if scores[0] > OUTLIER_THRESHOLD")]),
        ("outlier-algorithm", [("src", "outlier_detection.rs", 1, 38, "//! A module for statistical")]),
    ]),
    ("errors", "faq/errors.md", [
        ("non-zero-exit", [("src", EX, 38, 69, "fn run_command_and_measure_common("),
                           ("src", "main.rs", 48, 56, "fn main()")]),
        ("option-errors", [("src", ERR, 36, 58, "#[derive(Debug, Error)]"),
                           ("src", OPT, 245, 285, "impl Options {")]),
        ("count-errors", [("src", CMD, 216, 230, "} else {"),
                          ("src", CMD, 166, 179, "if param_space_size == 0"),
                          ("src", OPT, 400, 411, "pub fn validate_against_command_list")]),
        ("io-errors", [("src", OPT, 381, 397, "options.command_input_policy = if"),
                       ("src", "export/mod.rs", 80, 123, "/// Add an additional exporter")]),
        ("shell-errors", [("src", EX, 185, 216, "let mut times_real"),
                          ("src", OPT, 47, 67, "impl Shell {")]),
        ("zero-times", [("src", "benchmark/scheduler.rs", 56, 96, "pub fn print_relative_speed_comparison"),
                        ("src", MU, 104, 117, "impl<T: MarkupExporter> Exporter for T")]),
    ]),
    ("how-to", "faq/how-to.md", [
        ("cold-or-warm-cache", [("root", RM, 47, 68, "### Warmup runs")]),
        ("install", [("root", RM, 168, 226, "### On Ubuntu"),
                     ("root", RM, 228, 285, "### On macOS")]),
        ("completions-and-man-page", [("root", "build.rs", 1, 25, "use std::fs;"),
                                      ("root", "doc/hyperfine.1", 1, 45, ".TH HYPERFINE 1"),
                                      ("root", CL, 162, 185, "# v1.10.0")]),
        ("machine-readable-only", [("src", "export/mod.rs", 80, 106, "/// Add an additional exporter"),
                                   ("src", CLI, 164, 177, "Arg::new(\"style\")")]),
        ("exit-codes", [("src", "util/exit_code.rs", 1, 22, "use std::process::ExitStatus;"),
                        ("root", CL, 106, 114, "# v1.12.0")]),
        ("significant-difference", [("root", "scripts/welch_ttest.py", 1, 38, "#!/usr/bin/env python"),
                                    ("src", "benchmark/relative_speed.rs", 18, 55, "pub fn compute")]),
    ]),
]

MARKER = re.compile(r'^\s*<!-- context:section id="([^"]*)" -->\s*$')


def die(msg):
    sys.exit("make-structure.py: " + msg)


def lines_at(path, cache={}):
    if path not in cache:
        res = subprocess.run(["git", "--git-dir", REPO, "show", f"{BASE}:{path}"],
                             capture_output=True)
        if res.returncode != 0:
            die(f"git show {BASE}:{path}: {res.stderr.decode().strip()}")
        cache[path] = [ln[:-1] if ln.endswith("\r") else ln
                       for ln in res.stdout.decode("utf-8").split("\n")]
    return cache[path]


def main():
    out = ["schema_version: context.approved-structure.v1", "articles:"]
    n_sec = n_ref = 0
    for aid, path, sections in ARTICLES:
        page = open(os.path.join(WS, "knowledge", path), encoding="utf-8").read()
        ids = [m.group(1) for m in (MARKER.match(ln) for ln in page.split("\n")) if m]
        want = [sid for sid, _ in sections]
        if ids != want:
            die(f"{path}: markers {ids} != table {want}")
        out += [f"  - article_id: {aid}", f"    path: {path}",
                f"    collection: {path.split('/')[0]}", "    visibility: public",
                "    sections:"]
        for sid, refs in sections:
            n_sec += 1
            if not 1 <= len(refs) <= 3:
                die(f"{aid}#{sid}: {len(refs)} references")
            out += [f"      - id: {sid}", "        references:"]
            for module, rel, start, end, anchor in refs:
                n_ref += 1
                full = f"{SUBPATH[module]}/{rel}" if SUBPATH[module] else rel
                lines = lines_at(full)
                where = f"{aid}#{sid} {full}:{start}-{end}"
                if not (1 <= start <= end <= len(lines)) or not 5 <= end - start + 1 <= 60:
                    die(f"{where}: bad range (file has {len(lines)} lines)")
                if anchor not in lines[start - 1]:
                    die(f"{where}: line {start} is {lines[start - 1]!r}, expected {anchor!r}")
                body = "\n".join(lines[start - 1:end])
                digest = hashlib.sha256(body.encode("utf-8")).hexdigest()
                out += [f"          - source_ref: repo:hyperfine/{module}",
                        "            locator:",
                        f"              path: {rel}",
                        f"              start_line: {start}",
                        f"              end_line: {end}",
                        f"            content_digest: sha256:{digest}"]
    dst = os.path.join(WS, "knowledge", "structure.yaml")
    with open(dst, "w", encoding="utf-8", newline="\n") as f:
        f.write("\n".join(out) + "\n")
    print(f"{len(ARTICLES)} articles, {n_sec} sections, {n_ref} references -> {dst}")


if __name__ == "__main__":
    main()

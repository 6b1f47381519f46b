#!/usr/bin/env python3
"""Writes ws/knowledge/structure.yaml for the fd corpus from the reference table below.

Every reference is (module, path, start, end, anchor): module "src" (subpath src/) or "root"
(repository root), the path inside the module, the cited 1-based inclusive line range at the
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
BASE = "46746648b35ebe34be3b42cdbc4fc4faa7261eb1"
SUBPATH = {"src": "src", "root": ""}

# article_id, path under knowledge/, then the sections in page order with their references.
ARTICLES = [
    ("overview", "architecture/overview.md", [
        ("entry-point", [("src", "main.rs", 57, 107, "fn main()")]),
        ("module-map", [("src", "main.rs", 1, 12, "mod cli;"),
                        ("root", "Cargo.toml", 29, 51, "[[bin]]")]),
        ("error-reporting", [("src", "main.rs", 57, 68, "fn main()"),
                             ("src", "walk.rs", 92, 117, "if config.read_global_ignore"),
                             ("src", "exec/command.rs", 96, 110, "pub fn handle_cmd_error")]),
        ("exit-status", [("src", "exit_codes.rs", 6, 51, "#[derive(Debug, Clone, Copy")]),
        ("build-and-features", [("root", "build.rs", 1, 12, "fn main()"),
                                ("root", "Cargo.toml", 15, 21, "license ="),
                                ("root", "Cargo.toml", 74, 95, "# FIXME: Re-enable jemalloc")]),
    ]),
    ("cli-options", "architecture/cli-options.md", [
        ("opts-derive", [("src", "cli.rs", 20, 46, "#[derive(Parser)]"),
                         ("src", "cli.rs", 564, 595, "/// the search pattern which")]),
        ("negation-flags", [("src", "cli.rs", 32, 75, "/// Include hidden"),
                            ("root", "tests/tests.rs", 2475, 2498, '#[test_case("--hidden"')]),
        ("conflicts", [("src", "cli.rs", 20, 30, "#[derive(Parser)]"),
                       ("src", "cli.rs", 503, 538, "///Limit the number"),
                       ("root", "tests/tests.rs", 2360, 2392, "fn test_max_results")]),
        ("exec-args", [("src", "cli.rs", 755, 780, "// there isn't a derive api"),
                       ("src", "cli.rs", 782, 826, "impl clap::Args for Exec")]),
        ("numeric-values", [("src", "cli.rs", 491, 501, "/// Set number of threads"),
                            ("src", "cli.rs", 683, 700, "pub fn threads"),
                            ("root", "tests/tests.rs", 2456, 2473, "/// Make sure that fd fails")]),
        ("shell-completions", [("src", "main.rs", 109, 124, '#[cfg(feature = "completions")]'),
                               ("src", "cli.rs", 702, 713, '#[cfg(feature = "completions")]'),
                               ("root", "Makefile", 11, 31, ".PHONY: completions")]),
    ]),
    ("configuration", "architecture/configuration.md", [
        ("construct-config", [("src", "main.rs", 191, 236, "fn construct_config")]),
        ("config-fields", [("src", "config.rs", 12, 60, "/// Configuration options"),
                           ("src", "config.rs", 79, 132, "/// The type of file to search for")]),
        ("ignore-mapping", [("src", "main.rs", 237, 256, "Ok(Config {"),
                            ("root", "CHANGELOG.md", 14, 25, "# v8.7.0")]),
        ("type-and-extension-config", [("src", "main.rs", 259, 301, "file_types: opts.filetype"),
                                       ("src", "filetypes.rs", 6, 16, "/// Whether or not to show")]),
        ("strip-prefix-rule", [("src", "main.rs", 300, 313, "exclude_patterns:"),
                               ("src", "dir_entry.rs", 54, 70, "/// Returns the path as it should"),
                               ("root", "tests/tests.rs", 1642, 1660, "te.assert_output(")]),
    ]),
    ("walker", "architecture/walker.md", [
        ("walk-builder", [("src", "walk.rs", 56, 90, "pub fn scan"),
                          ("src", "walk.rs", 92, 121, "if config.read_global_ignore")]),
        ("parallel-threads", [("src", "walk.rs", 119, 159, "for path in &paths[1..]"),
                              ("src", "cli.rs", 683, 694, "pub fn threads")]),
        ("sender-filters", [("src", "walk.rs", 426, 473, "if let Some(min_depth)"),
                            ("src", "walk.rs", 475, 506, "#[cfg(unix)]"),
                            ("src", "walk.rs", 508, 545, "// Filter out unwanted modification")]),
        ("walk-errors", [("src", "walk.rs", 378, 424, "parallel_walker.run"),
                         ("src", "walk.rs", 433, 448, "let entry_path = entry.path();"),
                         ("src", "walk.rs", 37, 44, "/// The Worker threads")]),
        ("ctrl-c", [("src", "walk.rs", 125, 159, "// Flag for cleanly"),
                    ("src", "exit_codes.rs", 25, 44, "impl ExitCode")]),
    ]),
    ("receiver", "architecture/receiver.md", [
        ("buffer-then-stream", [("src", "walk.rs", 26, 49, "/// The receiver thread can either"),
                                ("src", "walk.rs", 183, 230, "impl<W: Write> ReceiverBuffer<W>")]),
        ("sorting", [("src", "walk.rs", 289, 313, "/// Switch ourselves into streaming"),
                     ("src", "dir_entry.rs", 102, 123, "impl PartialEq for DirEntry"),
                     ("src", "cli.rs", 205, 216, "/// Use a detailed listing")]),
        ("poll-loop", [("src", "walk.rs", 232, 274, "/// Wait for a result"),
                       ("src", "walk.rs", 208, 216, "/// Process results until finished.")]),
        ("print-entry", [("src", "output.rs", 11, 55, "fn replace_path_separator"),
                         ("src", "output.rs", 115, 131, "// TODO: this function"),
                         ("src", "walk.rs", 315, 323, "/// Flush stdout")]),
        ("raw-bytes", [("src", "output.rs", 142, 160, "#[cfg(unix)]"),
                       ("src", "filesystem.rs", 82, 96, "#[cfg(any(unix"),
                       ("root", "tests/tests.rs", 2394, 2438, "/// Filenames with non-utf8")]),
    ]),
    ("exec-engine", "architecture/exec-engine.md", [
        ("command-set", [("src", "exec/mod.rs", 25, 82, "/// Execution mode of the command"),
                         ("src", "walk.rs", 336, 359, "thread::spawn(move || {")]),
        ("template-parsing", [("src", "exec/mod.rs", 228, 279, "fn new<I, S>(input: I)"),
                              ("src", "exec/mod.rs", 281, 296, "// We need to check"),
                              ("src", "exec/token.rs", 1, 29, "use std::fmt")]),
        ("argument-generation", [("src", "exec/mod.rs", 325, 362, "impl ArgumentTemplate"),
                                 ("src", "exec/input.rs", 6, 32, "/// Removes the parent component")]),
        ("parallel-jobs", [("src", "walk.rs", 336, 359, "thread::spawn(move || {"),
                           ("src", "exec/job.rs", 13, 50, "/// An event loop")]),
        ("output-buffering", [("src", "exec/command.rs", 14, 51, "struct OutputBuffer"),
                              ("src", "exec/command.rs", 53, 110, "/// Executes a command.")]),
        ("batch-builder", [("src", "exec/mod.rs", 98, 128, "pub fn execute_batch"),
                           ("src", "exec/mod.rs", 143, 170, "impl CommandBuilder"),
                           ("src", "exec/mod.rs", 181, 216, "fn push(")]),
    ]),
    ("dir-entry", "architecture/dir-entry.md", [
        ("dir-entry-type", [("src", "dir_entry.rs", 11, 70, "enum DirEntryInner"),
                            ("src", "walk.rs", 426, 430, "if let Some(min_depth)")]),
        ("metadata-and-style", [("src", "dir_entry.rs", 72, 100, "pub fn file_type"),
                                ("src", "dir_entry.rs", 125, 153, "impl Colorable for DirEntry"),
                                ("src", "dir_entry.rs", 102, 123, "impl PartialEq for DirEntry")]),
        ("path-helpers", [("src", "filesystem.rs", 14, 42, "pub fn path_absolute_form"),
                          ("src", "filesystem.rs", 98, 118, "/// Remove the `./` prefix")]),
        ("empty-and-special", [("src", "filesystem.rs", 44, 96, "pub fn is_empty")]),
    ]),
    ("patterns", "features/patterns.md", [
        ("regex-default", [("src", "main.rs", 165, 175, "fn build_pattern_regex"),
                           ("src", "main.rs", 458, 471, "fn build_regex"),
                           ("root", "tests/tests.rs", 2041, 2069, "/// Literal search")]),
        ("filename-vs-full-path", [("src", "walk.rs", 432, 455, "// Check the name first"),
                                   ("src", "cli.rs", 233, 242, "/// By default, the search pattern"),
                                   ("root", "tests/tests.rs", 587, 603, "/// Full path search")]),
        ("and-patterns", [("src", "cli.rs", 178, 189, "/// Add additional required"),
                          ("src", "main.rs", 84, 104, "ensure_search_pattern_is_not_a_path(&opts)?;"),
                          ("root", "tests/tests.rs", 127, 160, "#[test]")]),
        ("empty-pattern", [("src", "cli.rs", 564, 575, "/// the search pattern which"),
                           ("root", "tests/tests.rs", 290, 309, "/// Test each pattern type"),
                           ("root", "README.md", 413, 429, "### `fd` doesn't seem")]),
        ("path-in-pattern-error", [("src", "main.rs", 144, 163, "/// Detect if the user accidentally")]),
    ]),
    ("glob-and-fixed-strings", "features/glob-and-fixed-strings.md", [
        ("glob-mode", [("src", "main.rs", 165, 175, "fn build_pattern_regex"),
                       ("src", "cli.rs", 144, 163, "/// Perform a glob-based search"),
                       ("root", "tests/tests.rs", 494, 521, "/// Glob-based searches (--glob)")]),
        ("glob-full-path", [("root", "tests/tests.rs", 523, 545, "/// Glob-based searches (--glob) in combination with full"),
                            ("src", "cli.rs", 233, 242, "/// By default, the search pattern")]),
        ("fixed-strings", [("src", "cli.rs", 165, 176, "/// Treat the pattern as a literal"),
                           ("root", "tests/tests.rs", 2041, 2069, "/// Literal search")]),
        ("switching-modes", [("src", "cli.rs", 144, 163, "/// Perform a glob-based search"),
                             ("root", "tests/tests.rs", 579, 585, "/// Make sure that --regex overrides"),
                             ("src", "cli.rs", 287, 301, "/// Exclude files/directories")]),
    ]),
    ("case-sensitivity", "features/case-sensitivity.md", [
        ("smart-case", [("src", "main.rs", 191, 198, "fn construct_config"),
                        ("src", "regex_helper.rs", 1, 37, "use regex_syntax::hir::Hir;"),
                        ("root", "tests/tests.rs", 437, 459, "/// Smart case")]),
        ("case-flags", [("src", "cli.rs", 121, 142, "/// Case-sensitive search"),
                        ("root", "tests/tests.rs", 461, 492, "/// Case sensitivity (--case-sensitive)")]),
        ("glob-case", [("root", "tests/tests.rs", 548, 566, "fn test_smart_case_glob_searches"),
                       ("src", "main.rs", 165, 175, "fn build_pattern_regex")]),
        ("extension-and-exclude-case", [("src", "main.rs", 285, 297, "extensions: opts"),
                                        ("src", "walk.rs", 59, 71, "// Channel capacity")]),
    ]),
    ("hidden-files", "features/hidden-files.md", [
        ("hidden-default", [("src", "cli.rs", 32, 46, "/// Include hidden"),
                            ("src", "main.rs", 237, 241, "Ok(Config {"),
                            ("root", "tests/tests.rs", 605, 620, "/// Hidden files (--hidden)")]),
        ("leading-dot-error", [("src", "main.rs", 438, 456, "fn ensure_use_hidden_option"),
                               ("src", "regex_helper.rs", 39, 79, "/// Determine if a regex pattern only"),
                               ("root", "tests/tests.rs", 2500, 2513, "/// Print error if search pattern starts")]),
        ("unrestricted", [("src", "cli.rs", 113, 119, "/// Perform an unrestricted search"),
                          ("src", "main.rs", 237, 248, "Ok(Config {"),
                          ("root", "tests/tests.rs", 919, 936, "/// Ignored files with ripgrep aliases")]),
        ("windows-hidden", [("root", "tests/tests.rs", 622, 642, "/// Hidden file attribute on Windows"),
                            ("src", "main.rs", 438, 456, "fn ensure_use_hidden_option")]),
    ]),
    ("ignore-files", "features/ignore-files.md", [
        ("default-ignore-sources", [("root", "doc/fd.1", 37, 58, ".TP"),
                                    ("src", "cli.rs", 48, 62, "/// Show search results from files"),
                                    ("src", "walk.rs", 73, 90, "let mut walker = WalkBuilder::new")]),
        ("no-ignore-vcs", [("src", "cli.rs", 63, 75, "///Show search results"),
                           ("root", "tests/tests.rs", 675, 711, "/// .gitignore and .fdignore")]),
        ("require-git", [("src", "cli.rs", 77, 97, "/// Do not require a git"),
                         ("root", "tests/tests.rs", 811, 865, "/// Don't require git"),
                         ("root", "tests/testenv/mod.rs", 28, 60, "/// Create the working directory")]),
        ("parent-ignores", [("src", "cli.rs", 99, 107, "/// Show search results from files"),
                            ("root", "tests/tests.rs", 713, 743, "/// Ignore parent ignore files (--no-ignore-parent)"),
                            ("root", "tests/tests.rs", 745, 783, "/// Ignore parent ignore files (--no-ignore-parent) with")]),
        ("global-ignore-file", [("src", "walk.rs", 92, 106, "if config.read_global_ignore"),
                                ("root", "doc/fd.1", 448, 463, ".SH ENVIRONMENT"),
                                ("root", "README.md", 257, 268, "To make exclude-patterns")]),
        ("custom-ignore-file", [("src", "cli.rs", 469, 477, "/// Add a custom ignore-file"),
                                ("src", "walk.rs", 108, 117, "for ignore_file in"),
                                ("root", "tests/tests.rs", 900, 917, "/// Custom ignore files")]),
        ("ignore-precedence", [("root", "tests/tests.rs", 785, 809, "/// Precedence of .fdignore"),
                               ("src", "cli.rs", 287, 301, "/// Exclude files/directories")]),
    ]),
    ("depth-and-excludes", "features/depth-and-excludes.md", [
        ("exclude-globs", [("src", "cli.rs", 287, 301, "/// Exclude files/directories"),
                           ("src", "walk.rs", 59, 71, "// Channel capacity"),
                           ("root", "tests/tests.rs", 1573, 1621, "/// Exclude patterns (--exclude)")]),
        ("max-depth", [("src", "cli.rs", 256, 266, "/// Limit the directory traversal"),
                       ("src", "config.rs", 48, 55, "/// The maximum search depth"),
                       ("root", "tests/tests.rs", 1078, 1113, "/// Maximum depth (--max-depth)")]),
        ("min-exact-depth", [("src", "cli.rs", 268, 285, "/// Only show search results starting"),
                             ("src", "cli.rs", 675, 681, "pub fn max_depth"),
                             ("root", "tests/tests.rs", 1115, 1147, "/// Minimum depth")]),
        ("prune", [("src", "cli.rs", 303, 308, "/// Do not traverse into directories"),
                   ("src", "walk.rs", 531, 545, "let send_result"),
                   ("root", "tests/tests.rs", 1149, 1181, "/// Pruning (--prune)")]),
    ]),
    ("file-types", "features/file-types.md", [
        ("type-values", [("src", "cli.rs", 310, 352, "/// Filter the search by type:"),
                         ("src", "cli.rs", 715, 732, "#[derive(Copy, Clone, PartialEq, Eq, ValueEnum)]"),
                         ("root", "contrib/completion/_fd", 23, 31, "fd_types=(")]),
        ("type-semantics", [("src", "filetypes.rs", 1, 37, "use crate::dir_entry;"),
                            ("root", "tests/tests.rs", 1036, 1060, "#[test]")]),
        ("executable-and-empty", [("root", "tests/tests.rs", 1296, 1335, "/// Test `--type executable`"),
                                  ("root", "tests/tests.rs", 1337, 1362, "/// Test `--type empty`"),
                                  ("src", "filesystem.rs", 44, 60, "pub fn is_empty")]),
        ("extensions", [("src", "main.rs", 285, 297, "extensions: opts"),
                        ("src", "walk.rs", 457, 466, "// Filter out unwanted extensions."),
                        ("root", "tests/tests.rs", 1364, 1419, "/// File extension (--extension)")]),
        ("no-extension", [("src", "cli.rs", 354, 366, "/// (Additionally) filter"),
                          ("root", "tests/tests.rs", 1421, 1447, "/// No file extension")]),
    ]),
    ("metadata-filters", "features/metadata-filters.md", [
        ("size-syntax", [("src", "filter/size.rs", 27, 66, "impl SizeFilter"),
                         ("src", "cli.rs", 368, 390, "/// Limit results based on the size")]),
        ("size-semantics", [("src", "filter/size.rs", 68, 75, "pub fn is_within"),
                            ("src", "walk.rs", 488, 506, "// Filter out unwanted sizes"),
                            ("root", "tests/tests.rs", 2117, 2173, "// Zero sized files.")]),
        ("time-formats", [("src", "filter/time.rs", 1, 46, "use chrono::"),
                          ("src", "cli.rs", 392, 431, "/// Filter results based on the file modification time")]),
        ("time-semantics", [("src", "main.rs", 412, 436, "fn extract_time_constraints"),
                            ("src", "walk.rs", 508, 522, "// Filter out unwanted modification times"),
                            ("root", "tests/tests.rs", 2195, 2226, "#[test]")]),
        ("owner", [("src", "filter/owner.rs", 17, 67, "impl OwnerFilter"),
                   ("src", "filter/owner.rs", 69, 96, "impl<T: PartialEq> Check<T>"),
                   ("src", "cli.rs", 433, 446, "/// Filter files by their user")]),
    ]),
    ("command-execution", "features/command-execution.md", [
        ("exec-basics", [("src", "cli.rs", 782, 814, "impl clap::Args for Exec"),
                         ("root", "README.md", 157, 214, "### Command execution")]),
        ("placeholders", [("root", "README.md", 216, 235, "#### Placeholder syntax"),
                          ("root", "tests/tests.rs", 1642, 1700, "te.assert_output("),
                          ("src", "exec/mod.rs", 244, 262, "let pattern =")]),
        ("exec-batch", [("src", "cli.rs", 815, 843, ".arg("),
                        ("root", "tests/tests.rs", 1782, 1841, "te.assert_output("),
                        ("src", "exec/mod.rs", 56, 78, "pub fn new_batch")]),
        ("batch-size", [("src", "cli.rs", 451, 467, "/// Maximum number of arguments"),
                        ("src", "exec/mod.rs", 181, 197, "fn push("),
                        ("root", "tests/tests.rs", 1912, 1947, "#[test]")]),
        ("multiple-commands", [("root", "tests/tests.rs", 1706, 1765, "#[test]"),
                               ("src", "exec/mod.rs", 84, 96, "pub fn execute("),
                               ("src", "exec/command.rs", 53, 94, "/// Executes a command.")]),
        ("list-details", [("src", "main.rs", 315, 331, "fn extract_command"),
                          ("src", "main.rs", 346, 405, "let cmd: Vec<&str> = if cfg!(unix)"),
                          ("src", "cli.rs", 205, 216, "/// Use a detailed listing")]),
    ]),
    ("output-format", "features/output-format.md", [
        ("colors", [("src", "main.rs", 214, 233, "#[cfg(windows)]"),
                    ("src", "cli.rs", 479, 489, "/// Declare when to use color"),
                    ("src", "output.rs", 57, 113, "// TODO: this function")]),
        ("print0", [("src", "cli.rs", 244, 254, "/// Separate search results by the null"),
                    ("root", "README.md", 514, 523, "### Using fd with `xargs`"),
                    ("root", "tests/tests.rs", 1062, 1076, "/// Null separator")]),
        ("absolute-path", [("src", "cli.rs", 191, 203, "/// Shows the full path"),
                           ("src", "cli.rs", 658, 664, "fn normalize_path"),
                           ("root", "tests/tests.rs", 1239, 1257, "/// Absolute paths should be normalized")]),
        ("path-separator", [("src", "cli.rs", 577, 586, "/// Set the path separator"),
                            ("src", "main.rs", 177, 207, "fn check_path_separator_length"),
                            ("root", "tests/tests.rs", 2296, 2308, "#[test]")]),
        ("cwd-prefix", [("src", "cli.rs", 610, 615, "/// By default, relative paths are prefixed"),
                        ("root", "CHANGELOG.md", 70, 84, "# v8.5.0"),
                        ("root", "tests/tests.rs", 2515, 2533, "#[test]")]),
    ]),
    ("search-roots", "features/search-roots.md", [
        ("search-paths", [("src", "cli.rs", 630, 656, "impl Opts {"),
                          ("src", "cli.rs", 854, 862, "fn ensure_current_directory_exists"),
                          ("root", "tests/tests.rs", 335, 372, "/// Test search over multiple directory with missing")]),
        ("base-directory", [("src", "main.rs", 126, 142, "fn set_working_dir"),
                            ("src", "cli.rs", 550, 562, "/// Change the current working directory"),
                            ("root", "tests/tests.rs", 2310, 2357, "#[test]")]),
        ("follow-symlinks", [("src", "cli.rs", 218, 231, "/// Follow symbolic links"),
                             ("root", "tests/tests.rs", 979, 991, "/// Symlinks (--follow)"),
                             ("root", "tests/tests.rs", 1449, 1489, "/// Symlink as search directory")]),
        ("broken-symlinks", [("src", "walk.rs", 389, 417, "let entry = match entry_o"),
                             ("root", "tests/tests.rs", 1036, 1060, "#[test]"),
                             ("root", "tests/testenv/mod.rs", 188, 207, "/// Create a broken symlink")]),
        ("one-file-system", [("src", "cli.rs", 617, 623, "/// By default, fd will traverse"),
                             ("src", "walk.rs", 82, 86, ".overrides(overrides)"),
                             ("root", "tests/tests.rs", 993, 1034, "// File system boundaries")]),
    ]),
    ("troubleshooting", "faq/troubleshooting.md", [
        ("file-not-found", [("root", "README.md", 404, 411, "### `fd` does not find my file!"),
                            ("src", "main.rs", 237, 248, "Ok(Config {"),
                            ("root", "README.md", 127, 146, "### Hidden and ignored files")]),
        ("gitignore-not-applied", [("src", "cli.rs", 77, 97, "/// Do not require a git"),
                                   ("root", "tests/tests.rs", 811, 865, "/// Don't require git")]),
        ("unexpectedly-ignored", [("root", "doc/fd.1", 37, 58, ".TP"),
                                  ("src", "walk.rs", 73, 106, "let mut walker = WalkBuilder::new"),
                                  ("src", "cli.rs", 99, 111, "/// Show search results from files")]),
        ("regex-error", [("src", "main.rs", 458, 471, "fn build_regex"),
                         ("root", "README.md", 413, 429, "### `fd` doesn't seem")]),
        ("command-not-found", [("root", "README.md", 431, 437, '### "Command not found"'),
                               ("src", "exec/command.rs", 96, 110, "pub fn handle_cmd_error")]),
        ("fdfind-binary", [("root", "README.md", 529, 558, "### On Ubuntu"),
                           ("root", "Cargo.toml", 1, 31, "[package]"),
                           ("src", "main.rs", 109, 124, '#[cfg(feature = "completions")]')]),
        ("silent-errors", [("src", "cli.rs", 540, 548, "/// Enable the display of filesystem errors"),
                           ("src", "walk.rs", 260, 271, "Ok(WorkerResult::Error(err))"),
                           ("src", "cli.rs", 642, 656, "Ok(paths")]),
        ("rm-race", [("root", "README.md", 270, 290, "### Deleting files"),
                     ("src", "walk.rs", 537, 542, "// Apply pruning.")]),
    ]),
    ("how-to", "faq/how-to.md", [
        ("delete-files", [("root", "README.md", 270, 290, "### Deleting files"),
                          ("src", "exec/mod.rs", 56, 78, "pub fn new_batch")]),
        ("search-file-contents", [("root", "README.md", 182, 200, "Find all `test_*.py` files"),
                                  ("src", "cli.rs", 815, 843, ".arg(")]),
        ("recent-files", [("src", "cli.rs", 392, 431, "/// Filter results based on the file modification time"),
                          ("src", "walk.rs", 508, 522, "// Filter out unwanted modification times"),
                          ("src", "filter/time.rs", 12, 30, "impl TimeFilter")]),
        ("empty-dirs", [("src", "filesystem.rs", 44, 60, "pub fn is_empty"),
                        ("root", "tests/tests.rs", 1337, 1362, "/// Test `--type empty`"),
                        ("src", "main.rs", 259, 284, "file_types: opts.filetype")]),
        ("fzf-integration", [("root", "README.md", 441, 462, "### Using fd with `fzf`"),
                             ("src", "main.rs", 220, 227, "let interactive_terminal")]),
        ("tree-output", [("root", "README.md", 489, 512, "### Printing the output as a tree")]),
        ("script-existence-check", [("src", "cli.rs", 525, 538, "/// When the flag is present"),
                                    ("src", "exit_codes.rs", 6, 23, "#[derive(Debug, Clone, Copy"),
                                    ("root", "tests/tests.rs", 2028, 2039, "/// Non-zero exit code")]),
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
                out += [f"          - source_ref: repo:fd/{module}",
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

#!/usr/bin/env python3
"""Writes ws/knowledge/structure.yaml for the tokei corpus from the reference table below.

Every reference is (module, path, start, end, anchor): module "src" (subpath src/: the Rust
sources, including the Tera template language/language_type.tera.rs) or "root" (the package
root: Cargo.toml, build.rs, languages.json), the path inside the module, the cited line range at
the base commit, and a text its first line must hold. The checks and the digest rule are in the
shared writer, ../tools/structure_table.py.

Usage: make-structure.py            (reads repo.git next to this script, writes ws/...)
The prose of the pages is hand-written; this script only computes the structure file.
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tools"))
from structure_table import write_structure  # noqa: E402  (the shared writer, ../tools)

BASE = "836304845dae216288d1a5063ad255cd1e5798a7"
SUBPATH = {"src": "src", "root": ""}

TERA = 'language/language_type.tera.rs'
LT = 'language/language_type.rs'
SYN = 'language/syntax.rs'
LANGS = 'language/languages.rs'
MOD = 'language/mod.rs'

# article_id, path under knowledge/, then the sections in page order with their references.
ARTICLES = [
    ('overview', 'architecture/overview.md', [
        ('crate-layout', [('src', 'lib.rs', 36, 62, '#![deny('),
                          ('root', 'Cargo.toml', 1, 14, '[package]')]),
        ('library-example', [('src', 'lib.rs', 1, 34, '//! # Tokei: Count your code quickly.')]),
        ('dependencies', [('root', 'Cargo.toml', 16, 64, '[features]')]),
        ('program-flow', [('src', 'main.rs', 14, 59, 'fn main()')]),
        ('table-flow', [('src', 'main.rs', 61, 92, 'let mut printer'),
                        ('src', MOD, 148, 162, 'pub fn sort_by')]),
    ]),
    ('language-definitions', 'architecture/language-definitions.md', [
        ('languages-json', [('root', 'languages.json', 2, 40, '"languages": {')]),
        ('rust-entry', [('root', 'languages.json', 981, 989, '"Rust": {')]),
        ('build-script', [('root', 'build.rs', 12, 55, 'fn main()'),
                          ('src', LT, 21, 28, 'use self::LanguageType::*;')]),
        ('quote-sorting', [('root', 'build.rs', 25, 45, 'for (_key, ref mut item) in json'),
                           ('root', 'build.rs', 57, 65, 'fn compare_json_str_len')]),
        ('generated-enum', [('src', TERA, 1, 59, '/// Represents a individual'),
                            ('src', TERA, 390, 403, 'impl FromStr for LanguageType')]),
    ]),
    ('file-walking', 'architecture/file-walking.md', [
        ('walker-setup', [('src', 'utils/fs.rs', 14, 38, 'pub fn get_all_files'),
                          ('src', 'utils/macros.rs', 39, 49, 'macro_rules! rs_error')]),
        ('ignore-switches', [('src', 'utils/fs.rs', 40, 55, '// Flip the booleans'),
                             ('src', 'utils/fs.rs', 12, 19, 'const IGNORE_FILE')]),
        ('walk-errors', [('src', 'utils/fs.rs', 57, 85, 'walker.build_parallel()')]),
        ('parallel-counting', [('src', 'utils/fs.rs', 87, 110, 'let rx_iter = rx')]),
    ]),
    ('line-counting', 'architecture/line-counting.md', [
        ('reading-files', [('src', LT, 25, 53, 'impl LanguageType {')]),
        ('fast-path', [('src', LT, 56, 90, 'pub fn parse_from_slice'),
                       ('src', LT, 91, 121, 'let simple_parse')]),
        ('state-machine', [('src', SYN, 12, 30, '/// Tracks the syntax'),
                           ('src', SYN, 169, 203, '/// Try to see if'),
                           ('src', LT, 123, 147, '#[inline]')]),
        ('comment-rules', [('src', SYN, 267, 284, '/// Performs a set of heuristics'),
                           ('src', SYN, 285, 343, 'pub(crate) fn line_is_comment('),
                           ('src', LT, 186, 198, 'if syntax.shared.is_literate')]),
        ('embedded-languages', [('src', LT, 149, 183, 'let started_in_comments')]),
        ('jupyter', [('src', LT, 201, 246, 'fn parse_jupyter'),
                     ('src', LT, 247, 267, 'let iter = jupyter')]),
    ]),
    ('syntax-tables', 'architecture/syntax-tables.md', [
        ('comment-accessors', [('src', TERA, 61, 92, '/// Returns the single line comments'),
                               ('src', TERA, 197, 228, 'pub(crate) fn any_multi_line_comments')]),
        ('nesting', [('src', TERA, 95, 127, '/// Returns whether the language allows nested'),
                     ('src', SYN, 612, 642, 'pub(crate) fn parse_multi_line_comment')]),
        ('quote-accessors', [('src', TERA, 129, 163, '/// Returns the quotes of a language.'),
                             ('src', SYN, 542, 587, 'pub(crate) fn parse_quote'),
                             ('src', SYN, 590, 609, 'pub(crate) fn parse_end_of_quote')]),
        ('important-syntax', [('src', TERA, 230, 257, '/// Returns the parts of syntax'),
                              ('root', 'languages.json', 713, 717, '"Markdown": {')]),
        ('shared-matchers', [('src', SYN, 61, 116, '#[derive(Clone, Debug)]')]),
    ]),
    ('statistics-model', 'architecture/statistics-model.md', [
        ('code-stats', [('src', 'stats.rs', 5, 45, '/// A struct representing stats about a single blob'),
                        ('src', 'stats.rs', 47, 66, 'impl ops::Add for CodeStats')]),
        ('report', [('src', 'stats.rs', 68, 94, '/// A struct representing the statistics of a file.'),
                    ('src', 'stats.rs', 96, 137, 'fn find_char_boundary')]),
        ('language-struct', [('src', MOD, 14, 65, '/// A struct representing statistics about a single Language.'),
                             ('src', MOD, 85, 116, '/// Totals up')]),
        ('summaries', [('src', MOD, 67, 83, '/// Creates a new `Language` from `self`'),
                       ('src', MOD, 118, 129, '/// Checks if the language is empty.')]),
        ('adding-languages', [('src', MOD, 131, 162, '/// Sorts each'),
                              ('src', MOD, 165, 176, 'impl AddAssign for Language')]),
    ]),
    ('language-detection', 'usage/language-detection.md', [
        ('detection-order', [('src', TERA, 259, 291, '/// Get language from a file path.')]),
        ('extensions', [('src', 'utils/fs.rs', 112, 118, 'pub(crate) fn get_extension'),
                        ('src', TERA, 293, 314, '/// Get language from a file extension.')]),
        ('shebangs', [('src', TERA, 339, 387, '/// Get language from a shebang.'),
                      ('root', 'languages.json', 97, 104, '"Bash": {')]),
        ('mime-and-names', [('src', TERA, 316, 337, '/// Get language from its MIME type'),
                            ('src', TERA, 390, 403, 'impl FromStr for LanguageType'),
                            ('src', TERA, 1, 12, '/// Represents a individual')]),
        ('listing-languages', [('src', 'cli.rs', 149, 153, 'pub fn print_supported_languages'),
                               ('src', 'cli.rs', 51, 56, '(@arg input:'),
                               ('src', TERA, 405, 409, 'impl fmt::Display for LanguageType')]),
    ]),
    ('command-line', 'usage/command-line.md', [
        ('paths-and-excludes', [('src', 'cli.rs', 40, 53, '(@arg exclude:'),
                                ('src', 'cli.rs', 134, 147, 'pub fn ignored_directories'),
                                ('src', 'main.rs', 32, 39, 'let input = cli.input();')]),
        ('ignore-flags', [('src', 'cli.rs', 50, 62, '(@arg hidden'),
                          ('src', 'cli.rs', 155, 192, '/// Overrides the shared options')]),
        ('type-filter', [('src', 'cli.rs', 74, 81, '(@arg types:'),
                         ('src', 'cli.rs', 85, 98, 'let columns = matches'),
                         ('src', 'utils/fs.rs', 105, 109, 'if let Some(types)')]),
        ('sort-option', [('src', 'cli.rs', 69, 73, '(@arg sort:'),
                         ('src', 'sort.rs', 20, 44, 'impl FromStr for Sort'),
                         ('src', 'main.rs', 69, 87, 'if let Some(sort_category)')]),
        ('columns-and-files', [('src', 'cli.rs', 35, 39, '(@arg columns:'),
                               ('src', 'main.rs', 41, 52, 'let columns = cli'),
                               ('src', 'cli_utils.rs', 50, 59, 'pub fn parse_or_exit')]),
        ('verbose', [('src', 'cli.rs', 77, 83, '(@arg verbose:'),
                     ('src', 'cli_utils.rs', 34, 48, 'pub fn setup_logger')]),
    ]),
    ('configuration', 'usage/configuration.md', [
        ('config-fields', [('src', 'config.rs', 6, 43, '/// A configuration struct')]),
        ('config-files', [('src', 'config.rs', 45, 70, 'impl Config {')]),
        ('config-precedence', [('src', 'config.rs', 71, 115, '/// # Example'),
                               ('src', 'cli.rs', 155, 192, '/// Overrides the shared options')]),
        ('doc-strings-option', [('src', 'config.rs', 30, 36, "/// Don't respect VCS ignore files."),
                                ('src', SYN, 318, 325, '// `Some(true)`')]),
    ]),
    ('output-formats', 'usage/output-formats.md', [
        ('output-option', [('src', 'cli.rs', 63, 68, '(@arg output:'),
                           ('src', 'input.rs', 86, 97, 'pub fn print'),
                           ('src', 'main.rs', 54, 59, 'languages.get_statistics')]),
        ('missing-format', [('src', 'input.rs', 99, 129, 'impl FromStr for Format'),
                            ('src', 'cli_utils.rs', 19, 32, 'pub fn crate_version')]),
        ('cbor-hex', [('src', 'input.rs', 133, 150, '// The ordering of these'),
                      ('src', 'input.rs', 7, 30, 'macro_rules! supported_formats')]),
        ('input-option', [('src', 'input.rs', 152, 190, 'pub fn add_input'),
                          ('src', LANGS, 128, 136, 'impl AddAssign<BTreeMap'),
                          ('src', 'main.rs', 22, 30, 'let config = cli.override_config')]),
        ('input-failure', [('src', 'cli.rs', 194, 218, 'pub fn print_input_parse_failure'),
                           ('src', 'input.rs', 31, 60, 'impl Format {')]),
    ]),
    ('terminal-output', 'usage/terminal-output.md', [
        ('table-header', [('src', 'cli_utils.rs', 61, 98, 'pub struct Printer'),
                          ('src', 'cli_utils.rs', 13, 17, 'pub const FALLBACK_ROW_LEN')]),
        ('long-names', [('src', 'cli_utils.rs', 125, 152, 'pub fn print_language_name'),
                        ('src', 'stats.rs', 96, 137, 'fn find_char_boundary')]),
        ('inaccuracy-marker', [('src', 'cli_utils.rs', 100, 106, 'pub fn print_inaccuracy_warning'),
                               ('src', 'utils/fs.rs', 92, 103, 'let process ='),
                               ('src', 'main.rs', 61, 67, 'let mut printer')]),
        ('embedded-rows', [('src', 'cli_utils.rs', 185, 227, 'fn print_language_total')]),
        ('files-listing', [('src', 'cli_utils.rs', 228, 272, 'if self.list_files'),
                           ('src', 'cli_utils.rs', 301, 320, 'fn print_report_total')]),
        ('grand-total', [('src', 'cli_utils.rs', 322, 333, 'pub fn print_total'),
                         ('src', 'main.rs', 84, 92, 'printer.print_results')]),
    ]),
    ('embedded-languages', 'usage/embedded-languages.md', [
        ('markdown-fences', [('src', SYN, 346, 403, 'pub(crate) fn parse_context(')]),
        ('fence-counting', [('src', LT, 153, 183, 'let ended_with_comments'),
                            ('src', SYN, 377, 402, 'let end_of_code = closing_fence')]),
        ('rust-doc-comments', [('src', SYN, 404, 439, 'LanguageType::Rust => {')]),
        ('html-blocks', [('src', SYN, 440, 478, 'LanguageType::Html'),
                         ('src', SYN, 479, 536, '} else if let Some(captures) = START_STYLE')]),
        ('literate-languages', [('src', TERA, 32, 54, 'pub(crate) fn _is_blank'),
                                ('root', 'languages.json', 1110, 1115, '"Text": {'),
                                ('root', 'languages.json', 353, 357, '"FEN": {')]),
    ]),
    ('library-api', 'usage/library-api.md', [
        ('get-statistics', [('src', LANGS, 63, 99, '/// Populates')]),
        ('reading-results', [('src', LANGS, 101, 150, 'impl IntoIterator for Languages'),
                             ('src', LANGS, 25, 61, 'impl serde::Serialize for Languages')]),
        ('parse-text', [('src', LT, 25, 56, 'impl LanguageType {'),
                        ('src', TERA, 259, 291, '/// Get language from a file path.')]),
        ('config-in-code', [('src', 'config.rs', 6, 24, '/// A configuration struct'),
                            ('src', 'config.rs', 80, 115, 'pub fn from_config_files')]),
        ('library-limits', [('src', 'lib.rs', 36, 62, '#![deny('),
                            ('src', 'main.rs', 1, 14, '#[macro_use]')]),
    ]),
    ('installing', 'usage/installing.md', [
        ('cargo-install', [('root', 'Cargo.toml', 16, 20, '[features]'),
                           ('root', 'Cargo.toml', 50, 64, '[dependencies.env_logger]'),
                           ('src', 'input.rs', 99, 129, 'impl FromStr for Format')]),
        ('version-output', [('src', 'cli_utils.rs', 19, 32, 'pub fn crate_version'),
                            ('src', 'input.rs', 31, 53, 'impl Format {')]),
        ('help-text', [('src', 'cli.rs', 24, 68, "impl<'a> Cli<'a> {")]),
        ('licence-and-build', [('root', 'Cargo.toml', 1, 30, '[package]'),
                               ('root', 'build.rs', 12, 24, 'fn main()')]),
    ]),
    ('excluding-files', 'usage/excluding-files.md', [
        ('several-paths', [('src', 'utils/fs.rs', 14, 29, 'pub fn get_all_files'),
                           ('src', 'main.rs', 32, 39, 'let input = cli.input();'),
                           ('src', 'cli.rs', 142, 147, 'pub fn input(&self)')]),
        ('exclude-patterns', [('src', 'utils/fs.rs', 30, 38, 'if !ignored_directories.is_empty()'),
                              ('src', LANGS, 63, 78, '/// Populates')]),
        ('tokeignore', [('src', 'utils/fs.rs', 40, 55, '// Flip the booleans')]),
        ('defaults-summary', [('src', 'config.rs', 21, 31, '/// Width of columns'),
                              ('src', 'utils/fs.rs', 49, 85, 'walker')]),
    ]),
    ('common-tasks', 'usage/common-tasks.md', [
        ('count-a-project', [('src', 'cli.rs', 142, 147, 'pub fn input(&self)'),
                             ('src', 'utils/fs.rs', 40, 55, '// Flip the booleans')]),
        ('one-language', [('src', 'cli.rs', 74, 81, '(@arg types:'),
                          ('src', 'config.rs', 35, 40, '/// Sort languages.')]),
        ('biggest-files', [('src', 'main.rs', 69, 87, 'if let Some(sort_category)'),
                           ('src', MOD, 148, 162, 'pub fn sort_by')]),
        ('json-for-scripts', [('src', 'input.rs', 86, 97, 'pub fn print'),
                              ('src', LANGS, 25, 32, 'impl serde::Serialize for Languages'),
                              ('src', MOD, 14, 29, '/// A struct representing statistics about a single Language.')]),
        ('count-everything', [('src', 'cli.rs', 50, 62, '(@arg hidden'),
                              ('src', 'utils/fs.rs', 40, 55, '// Flip the booleans')]),
        ('exclude-build-output', [('src', 'utils/fs.rs', 30, 38, 'if !ignored_directories.is_empty()'),
                                  ('src', LANGS, 63, 78, '/// Populates')]),
    ]),
    ('troubleshooting', 'faq/troubleshooting.md', [
        ('file-not-counted', [('src', TERA, 302, 314, 'pub fn from_file_extension'),
                              ('src', TERA, 368, 387, 'Some("#!/usr/bin/env") => {'),
                              ('src', 'cli_utils.rs', 34, 48, 'pub fn setup_logger')]),
        ('empty-type-filter', [('src', 'cli.rs', 93, 98, 'let types = matches'),
                               ('src', 'utils/fs.rs', 105, 109, 'if let Some(types)')]),
        ('input-ignored', [('src', 'main.rs', 22, 30, 'let config = cli.override_config'),
                           ('src', LANGS, 128, 136, 'impl AddAssign<BTreeMap'),
                           ('src', 'input.rs', 152, 186, 'pub fn add_input')]),
        ('holyc-extension', [('root', 'languages.json', 501, 506, '"HolyC": {'),
                             ('src', 'utils/fs.rs', 112, 118, 'pub(crate) fn get_extension')]),
        ('where-errors-go', [('src', 'cli_utils.rs', 50, 59, 'pub fn parse_or_exit'),
                             ('src', 'utils/fs.rs', 92, 103, 'let process ='),
                             ('src', 'main.rs', 54, 59, 'languages.get_statistics')]),
    ]),
    ('accuracy', 'faq/accuracy.md', [
        ('why-state-machine', [('src', 'lib.rs', 1, 10, '//! # Tokei')]),
        ('mixed-lines', [('src', SYN, 285, 343, 'pub(crate) fn line_is_comment('),
                         ('src', LT, 186, 198, 'if syntax.shared.is_literate')]),
        ('strings-with-markers', [('src', SYN, 12, 30, '/// Tracks the syntax'),
                                  ('src', SYN, 590, 609, 'pub(crate) fn parse_end_of_quote')]),
        ('blank-lines', [('src', 'utils/ext.rs', 1, 21, '//! Various extensions'),
                         ('src', SYN, 169, 203, '/// Try to see if')]),
        ('fortran-and-doc-strings', [('src', LT, 131, 147, 'let mut stepper'),
                                     ('root', 'languages.json', 898, 905, '"Python": {'),
                                     ('src', SYN, 318, 333, '// `Some(true)`')]),
    ]),
]

if __name__ == "__main__":
    write_structure(HERE, "tokei", BASE, SUBPATH, ARTICLES)

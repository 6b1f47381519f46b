#!/usr/bin/env python3
"""Writes ws/knowledge/structure.yaml for the eza corpus from the reference table below.

Every reference is (module, path, start, end, anchor): module "root" (the crate root:
Cargo.toml, README.md), "src" (subpath src/: the implementation) or "man" (subpath man/: the
markdown sources of the eza.1, eza_colors.5 and eza_colors-explanation.5 manual pages), the
path inside the module, the cited line range at the base commit, and a text its first line
must hold. The checks and the digest rule are in the shared writer,
../tools/structure_table.py.

Usage: make-structure.py            (reads repo.git next to this script, writes ws/...)
The prose of the pages is hand-written; this script only computes the structure file.
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tools"))
from structure_table import write_structure  # noqa: E402  (the shared writer, ../tools)

BASE = "7301a537411d2252709000004e1354392738c6b6"
SUBPATH = {"root": "", "src": "src", "man": "man"}

# article_id, path under knowledge/, then the sections in page order with their references.
ARTICLES = [
    ('overview', 'architecture/overview.md', [
        ('package-layout', [('root', 'Cargo.toml', 69, 92, '[[bin]]'),
                            ('root', 'Cargo.toml', 119, 131, '[features]'),
                            ('src', 'lib.rs', 1, 12, '#[allow(unused)]')]),
        ('main-flow', [('src', 'main.rs', 48, 103, 'fn main() {'),
                       ('src', 'logger.rs', 7, 27, '/// Sets the internal logger')]),
        ('exit-statuses', [('src', 'main.rs', 106, 142, 'match exa.run() {'),
                           ('src', 'main.rs', 500, 513, 'mod exits {')]),
        ('files-and-directories', [('src', 'main.rs', 250, 299, 'pub fn run(mut self)'),
                                   ('src', 'main.rs', 301, 360, 'fn print_dirs(')]),
        ('view-dispatch', [('src', 'main.rs', 387, 446, '/// Prints the list of files'),
                           ('src', 'main.rs', 474, 495, '(Mode::GridDetails(ref opts), None) => {')]),
    ]),
    ('option-parsing', 'architecture/option-parsing.md', [
        ('arg-table', [('src', 'options/flags.rs', 1, 29, 'use crate::options::parser'),
                       ('src', 'options/parser.rs', 89, 129, '/// Whether a flag takes a value.')]),
        ('long-options', [('src', 'options/parser.rs', 156, 210, 'while let Some(arg) = inputs.next() {'),
                          ('src', 'options/parser.rs', 347, 362, 'fn lookup_short(&self, short: ShortArg)')]),
        ('short-clusters', [('src', 'options/parser.rs', 215, 262, 'else if bytes.starts_with(b"-") && arg != "-" {'),
                            ('src', 'options/parser.rs', 264, 300, 'If there’s no equals, then every character')]),
        ('precedence-and-strict', [('src', 'options/parser.rs', 406, 448, '/// nothing if none is found, or an error'),
                                   ('src', 'options/mod.rs', 138, 150, 'use crate::options::parser::{Matches, Strictness};'),
                                   ('src', 'options/error.rs', 88, 96, 'Self::Parse(e)')]),
        ('deduce-order', [('src', 'options/mod.rs', 152, 164, 'if let Some(help) = HelpString::deduce(&flags) {'),
                          ('src', 'options/mod.rs', 191, 217, '/// Determines the complete set of options')]),
    ]),
    ('view-selection', 'architecture/view-selection.md', [
        ('mode-deduce', [('src', 'options/view.rs', 41, 96, 'pub fn deduce<V: Vars>(matches')]),
        ('useless-flags', [('src', 'options/view.rs', 98, 134, 'fn strict_check_long_flags'),
                           ('src', 'options/view.rs', 161, 168, 'fn deduce_long<V: Vars>')]),
        ('terminal-width', [('src', 'options/view.rs', 181, 209, 'impl TerminalWidth {'),
                            ('src', 'output/mod.rs', 39, 76, '/// The width of the terminal requested by the user.')]),
        ('grid-layout', [('src', 'output/grid.rs', 14, 26, 'pub struct Options {'),
                         ('src', 'output/grid.rs', 38, 96, 'pub fn render<W: Write>(mut self, w: &mut W)'),
                         ('src', 'output/grid.rs', 104, 117, 'if let Some(display) = grid.fit_into_width(self.console_width) {')]),
        ('grid-details', [('src', 'output/grid_details.rs', 213, 257, 'let mut last_working_grid'),
                          ('src', 'options/view.rs', 212, 232, 'impl RowThreshold {')]),
    ]),
    ('details-table', 'architecture/details-table.md', [
        ('column-order', [('src', 'output/table.rs', 63, 104, 'impl Columns {'),
                          ('src', 'output/table.rs', 105, 143, 'if self.file_flags {')]),
        ('header-row', [('src', 'output/table.rs', 179, 229, 'impl Column {'),
                        ('src', 'output/details.rs', 423, 429, 'pub fn render_header')]),
        ('render-rows', [('src', 'output/details.rs', 160, 213, 'pub fn render<W: Write>(mut self, w: &mut W)'),
                         ('src', 'output/details.rs', 334, 338, 'let mut file_eggs = unsafe')]),
        ('tree-recursion', [('src', 'output/details.rs', 302, 330, 'let table_row = table.as_ref().map(|t| {'),
                            ('src', 'output/tree.rs', 41, 70, '#[derive(PartialEq, Eq, Debug, Copy, Clone)]'),
                            ('src', 'fs/dir_action.rs', 48, 77, 'pub fn treat_dirs_as_files(self) -> bool {')]),
        ('error-rows', [('src', 'output/details.rs', 431, 458, 'fn render_error'),
                        ('src', 'output/details.rs', 233, 244, '/// Whether to show the extended attribute hint')]),
    ]),
    ('filesystem-layer', 'architecture/filesystem-layer.md', [
        ('file-metadata', [('src', 'fs/file.rs', 112, 156, 'pub fn from_args<PD, FN>('),
                           ('src', 'fs/file.rs', 223, 235, '/// Extract an extension from a file path')]),
        ('dir-iteration', [('src', 'fs/dir.rs', 35, 45, 'pub fn read_dir(path: PathBuf)'),
                           ('src', 'fs/dir.rs', 118, 158, 'fn next_visible_file'),
                           ('src', 'fs/dir.rs', 180, 199, 'fn next(&mut self) -> Option<Self::Item> {')]),
        ('sizes', [('src', 'fs/file.rs', 538, 584, 'pub fn size(&self) -> f::Size {'),
                   ('src', 'fs/file.rs', 480, 500, 'pub fn blocksize(&self)')]),
        ('total-size', [('src', 'fs/file.rs', 586, 631, 'fn recursive_directory_size(&self) -> RecursiveSize {')]),
        ('sort-pipeline', [('src', 'fs/filter.rs', 76, 108, 'pub fn filter_child_files'),
                           ('src', 'fs/filter.rs', 111, 131, 'pub fn sort_files')]),
    ]),
    ('theming', 'architecture/theming.md', [
        ('plain-or-coloured', [('src', 'theme/mod.rs', 58, 81, 'pub fn to_theme'),
                               ('src', 'options/theme.rs', 6, 22, 'impl Options {'),
                               ('src', 'theme/default_theme.rs', 9, 30, 'pub fn default_theme')]),
        ('colour-variables', [('src', 'theme/mod.rs', 84, 135, 'impl Definitions {'),
                              ('src', 'options/theme.rs', 50, 60, 'impl Definitions {')]),
        ('ls-colors-keys', [('src', 'theme/ui_styles.rs', 168, 190, 'impl UiStyles {')]),
        ('eza-colors-keys', [('src', 'theme/ui_styles.rs', 192, 250, '/// Sets a value on this set of colours using one of the keys understood'),
                             ('src', 'theme/ui_styles.rs', 251, 287, '"xx" => self.punctuation')]),
        ('style-codes', [('src', 'theme/lsc.rs', 24, 41, "pub struct LSColors<'var>(pub &'var str);"),
                         ('src', 'theme/lsc.rs', 94, 153, 'impl<\'var> Pair<\'var> {'),
                         ('src', 'output/file_name.rs', 416, 443, 'pub fn style(&self) -> Style {')]),
    ]),
    ('display-modes', 'usage/display-modes.md', [
        ('grid-and-across', [('man', 'eza.1.md', 54, 76, '`-1`, `--oneline`'),
                             ('src', 'options/view.rs', 137, 145, 'impl grid::Options {')]),
        ('oneline', [('src', 'output/lines.rs', 11, 37, '/// The lines view literally just displays'),
                     ('src', 'output/file_name.rs', 216, 232, 'if let (LinkStyle::FullLinkPaths, Some(target))')]),
        ('long-view', [('src', 'output/table.rs', 352, 363, 'impl Default for TimeTypes {'),
                       ('src', 'output/grid_details.rs', 141, 147, 'pub fn render<W: Write>(mut self, w: &mut W)')]),
        ('recurse-and-tree', [('src', 'options/dir_action.rs', 8, 44, 'impl DirAction {'),
                              ('src', 'options/dir_action.rs', 47, 72, 'impl RecurseOptions {'),
                              ('src', 'options/filter.rs', 139, 160, 'pub fn deduce(matches: &MatchedFlags<\'_>) -> Result<Self, OptionsError> {')]),
        ('list-dirs-classify', [('src', 'output/file_name.rs', 323, 352, '/// The character to be displayed after a file'),
                                ('man', 'eza.1.md', 131, 136, '`-d`, `--list-dirs`')]),
    ]),
    ('long-view-columns', 'usage/long-view-columns.md', [
        ('optional-columns', [('src', 'options/view.rs', 253, 297, 'impl Columns {'),
                              ('src', 'output/render/octal.rs', 10, 45, 'impl Render for Option<f::OctalPermissions> {')]),
        ('size-formats', [('src', 'options/view.rs', 300, 318, 'impl SizeFormat {'),
                          ('src', 'output/render/size.rs', 10, 69, 'impl f::Size {')]),
        ('users-and-groups', [('src', 'output/render/groups.rs', 20, 70, 'impl Render for Option<f::Group> {'),
                              ('src', 'output/render/users.rs', 12, 36, 'impl Render for Option<f::User> {'),
                              ('man', 'eza.1.md', 179, 203, '`-g`, `--group`')]),
        ('suppressing-columns', [('src', 'options/view.rs', 401, 418, 'fn deduce(matches: &MatchedFlags<\'_>) -> Result<Self, OptionsError> {'),
                                 ('man', 'eza.1.md', 232, 245, '`--no-permissions`')]),
        ('platform-columns', [('man', 'eza.1.md', 197, 206, '`-M`, `--mounts`'),
                              ('src', 'output/table.rs', 325, 336, 'impl FlagsFormat {'),
                              ('src', 'output/file_name.rs', 282, 291, 'if let (MountStyle::MountInfo, Some(mount_details))')]),
    ]),
    ('timestamps', 'usage/timestamps.md', [
        ('time-fields', [('src', 'options/view.rs', 401, 450, 'fn deduce(matches: &MatchedFlags<\'_>) -> Result<Self, OptionsError> {'),
                         ('src', 'output/table.rs', 288, 297, 'impl TimeType {')]),
        ('time-styles', [('src', 'output/time.rs', 74, 123, 'fn default(time: &DateTime<FixedOffset>)')]),
        ('custom-format', [('src', 'options/view.rs', 338, 373, "fmt if fmt.starts_with('+') => {"),
                           ('src', 'output/time.rs', 125, 140, 'fn custom(time'),
                           ('root', 'CHANGELOG.md', 3, 20, '## [0.17.0] - 2023-12-13')]),
        ('time-style-variable', [('src', 'options/view.rs', 320, 337, 'impl TimeFormat {'),
                                 ('man', 'eza.1.md', 209, 221, '`-t`, `--time=WORD`')]),
    ]),
    ('filtering-and-sorting', 'usage/filtering-and-sorting.md', [
        ('hidden-files', [('src', 'options/filter.rs', 127, 160, 'impl DotFilter {'),
                          ('man', 'eza.1.md', 124, 130, '`-a`, `--all`')]),
        ('sort-fields', [('src', 'options/filter.rs', 39, 88, 'impl SortField {'),
                         ('src', 'options/flags.rs', 36, 44, 'pub static SORT:')]),
        ('name-order', [('src', 'fs/filter.rs', 233, 277, 'pub fn compare_files'),
                        ('man', 'eza.1.md', 137, 147, '`-r`, `--reverse`')]),
        ('ignore-glob', [('src', 'options/filter.rs', 162, 184, 'impl IgnorePatterns {'),
                         ('src', 'fs/filter.rs', 97, 108, '/// Remove every file in the given vector that does *not* pass the')]),
        ('only-dirs-files', [('src', 'fs/filter.rs', 76, 95, 'pub fn filter_child_files'),
                             ('src', 'fs/dir.rs', 133, 138, 'if self.git_ignoring {'),
                             ('man', 'eza.1.md', 149, 162, '`-I`, `--ignore-glob=GLOBS`')]),
    ]),
    ('git-integration', 'usage/git-integration.md', [
        ('git-column', [('src', 'output/render/git.rs', 6, 29, 'impl f::Git {'),
                        ('man', 'eza.1.md', 256, 260, '`--git`  [if eza')]),
        ('directory-status', [('src', 'fs/feature/git.rs', 274, 320, 'fn file_status'),
                              ('src', 'fs/feature/git.rs', 218, 243, 'fn repo_to_statuses')]),
        ('git-repos', [('src', 'output/render/git.rs', 45, 85, 'impl f::SubdirGitRepo {'),
                       ('src', 'fs/feature/git.rs', 378, 403, 'fn current_branch'),
                       ('man', 'eza.1.md', 260, 271, '`--git-repos` [if eza')]),
        ('turning-git-off', [('src', 'options/view.rs', 253, 268, 'impl Columns {'),
                             ('src', 'fs/feature/git.rs', 52, 64, 'if let Ok(path) = env::var("GIT_DIR")')]),
    ]),
    ('colours-and-icons', 'usage/colours-and-icons.md', [
        ('color-when', [('src', 'options/theme.rs', 25, 48, 'impl UseColours {'),
                        ('man', 'eza.1.md', 78, 86, '`--color=WHEN`')]),
        ('color-scale', [('src', 'options/view.rs', 453, 512, 'impl ColorScaleOptions {'),
                         ('src', 'theme/default_theme.rs', 127, 134, 'impl Size {')]),
        ('icons-when', [('src', 'options/file_name.rs', 41, 88, 'impl ShowIcons {'),
                        ('src', 'output/file_name.rs', 182, 196, 'pub fn paint(&self) -> TextCellContents {')]),
        ('icon-choice', [('src', 'output/icons.rs', 764, 790, 'pub fn iconify_style'),
                         ('src', 'output/icons.rs', 120, 156, 'const DIRECTORY_ICONS')]),
        ('quoting-and-escaping', [('src', 'output/escape.rs', 4, 39, 'pub fn escape('),
                                  ('src', 'output/file_name.rs', 120, 135, '/// Whether or not to wrap file names')]),
    ]),
    ('other-options', 'usage/other-options.md', [
        ('hyperlinks', [('src', 'output/file_name.rs', 365, 410, 'fn escaped_file_name'),
                        ('src', 'fs/file.rs', 344, 348, 'pub fn absolute_path')]),
        ('stdin', [('src', 'options/stdin.rs', 14, 29, 'impl FilesInput {'),
                   ('src', 'main.rs', 66, 87, 'OptionsResult::Ok(options, mut input_paths) => {')]),
        ('help-and-version', [('src', 'options/help.rs', 95, 140, '/// see one section’s help.'),
                              ('src', 'options/version.rs', 11, 36, 'pub struct VersionString;')]),
    ]),
    ('environment', 'usage/environment.md', [
        ('exa-fallback', [('src', 'options/vars.rs', 74, 92, '/// Mockable wrapper'),
                          ('src', 'options/file_name.rs', 65, 81, 'let width = if let Some(columns) = vars'),
                          ('man', 'eza.1.md', 273, 278, 'ENVIRONMENT VARIABLES')]),
        ('strict-mode', [('man', 'eza.1.md', 288, 296, '## `EZA_STRICT`'),
                         ('src', 'options/error.rs', 88, 96, 'Self::Parse(e)')]),
        ('customising-colours', [('man', 'eza_colors.5.md', 14, 46, 'SYNOPSIS'),
                                 ('man', 'eza_colors-explanation.5.md', 11, 45, '# Eza Color Explanation')]),
        ('debug-logging', [('src', 'logger.rs', 9, 27, 'pub fn configure'),
                           ('src', 'logger.rs', 34, 52, 'impl log::Log for Logger'),
                           ('src', 'main.rs', 48, 55, 'fn main() {')]),
    ]),
    ('troubleshooting', 'faq/troubleshooting.md', [
        ('icons-as-boxes', [('src', 'output/icons.rs', 10, 50, 'impl Icons {'),
                            ('man', 'eza.1.md', 305, 310, '## `EZA_ICON_SPACING`')]),
        ('no-colours', [('src', 'options/theme.rs', 25, 48, 'impl UseColours {'),
                        ('man', 'eza.1.md', 311, 322, '## `NO_COLOR`')]),
        ('git-column-missing', [('src', 'output/details.rs', 177, 192, 'if let Some(ref table) = self.opts.table {'),
                                ('src', 'options/mod.rs', 191, 202, '/// Determines the complete set of options')]),
        ('option-errors', [('src', 'options/parser.rs', 508, 545, '/// A problem with the user’s input'),
                           ('src', 'options/error.rs', 69, 101, 'impl fmt::Display for OptionsError')]),
        ('ls-habits', [('src', 'options/error.rs', 103, 118, 'impl OptionsError {'),
                       ('src', 'options/flags.rs', 55, 67, 'pub static MODIFIED:')]),
    ]),
    ('about-eza', 'faq/about-eza.md', [
        ('exa-successor', [('root', 'README.md', 21, 46, '---'),
                           ('man', 'eza.1.md', 353, 361, 'AUTHOR')]),
        ('migrating-from-exa', [('src', 'options/vars.rs', 21, 72, '// exa-specific variables'),
                                ('src', 'options/mod.rs', 193, 202, 'fn deduce<V: Vars>')]),
        ('installing-and-features', [('root', 'INSTALL.md', 1, 24, '# Installation'),
                                     ('root', 'Cargo.toml', 119, 131, '[features]')]),
        ('exit-statuses-faq', [('man', 'eza.1.md', 340, 351, 'EXIT STATUSES'),
                               ('src', 'main.rs', 255, 282, 'let mut exit_status = 0;')]),
    ]),
]

if __name__ == "__main__":
    write_structure(HERE, "eza", BASE, SUBPATH, ARTICLES)

#!/usr/bin/env python3
"""Writes ws/knowledge/structure.yaml for the bat corpus from the reference table below.

Every reference is (module, path, start, end, anchor): module "root" (the package root:
README.md, CHANGELOG.md, Cargo.toml, build.rs), "src" (subpath src/: the library and the
bin/bat executable), "assets" (subpath assets/: the man page template manual/bat.1.in) or "doc"
(subpath doc/: the project documents shipped in the crate), the path inside the module, the
cited line range at the base commit, and a text its first line must hold. The checks and the
digest rule are in the shared writer, ../tools/structure_table.py.

Usage: make-structure.py            (reads repo.git next to this script, writes ws/...)
The prose of the pages is hand-written; this script only computes the structure file.
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tools"))
from structure_table import write_structure  # noqa: E402  (the shared writer, ../tools)

BASE = "f3f6edbc9f3bfaa3dd6c5905da54c048bfb43494"
SUBPATH = {"root": "", "src": "src", "assets": "assets", "doc": "doc"}

# article_id, path under knowledge/, then the sections in page order with their references.
ARTICLES = [
    ('overview', 'architecture/overview.md', [
        ('crate-layout', [('src', 'lib.rs', 1, 57, '//! `bat` is a library')]),
        ('cargo-features', [('root', 'Cargo.toml', 14, 41, '[features]'),
                           ('root', 'README.md', 766, 774, '# Build a bat binary with modified syntaxes')]),
        ('main-dispatch', [('src', 'bin/bat/main.rs', 291, 350, 'fn run() -> Result<bool> {'),
                          ('src', 'bin/bat/main.rs', 355, 371, 'fn main() {')]),
        ('argument-assembly', [('src', 'bin/bat/app.rs', 52, 77, 'fn matches(interactive_output: bool)'),
                              ('src', 'bin/bat/config.rs', 105, 123, 'pub fn get_args_from_config_file()')]),
    ]),
    ('controller', 'architecture/controller.md', [
        ('controller-run', [('src', 'controller.rs', 45, 100, '// Do not launch the pager if NONE of the input files exist')]),
        ('input-sources', [('src', 'input.rs', 72, 91, 'pub(crate) enum InputKind'),
                          ('src', 'bin/bat/app.rs', 262, 306, 'pub fn inputs(&self)'),
                          ('src', 'bin/bat/input.rs', 4, 18, 'pub fn new_file_input')]),
        ('opening-and-sniffing', [('src', 'input.rs', 214, 241, 'InputKind::OrdinaryFile(path) => Ok(OpenedInput {'),
                                 ('src', 'input.rs', 258, 294, "impl<'a> InputReader<'a> {")]),
        ('io-circle', [('src', 'input.rs', 190, 212, 'pub(crate) fn open<R: BufRead'),
                      ('src', 'controller.rs', 70, 77, 'let attached_to_pager = output_type.is_pager();')]),
        ('range-loop', [('src', 'controller.rs', 164, 200, 'fn print_file('),
                       ('src', 'controller.rs', 202, 248, 'fn print_file_ranges(')]),
    ]),
    ('printer', 'architecture/printer.md', [
        ('simple-and-interactive', [('src', 'printer.rs', 69, 104, "impl<'a> Printer for SimplePrinter<'a> {"),
                                   ('src', 'printer.rs', 183, 201, 'let highlighter_from_set = if input'),
                                   ('src', 'bin/bat/app.rs', 190, 197, 'loop_through: !(self.interactive_output')]),
        ('file-header', [('src', 'printer.rs', 282, 319, 'fn print_header('),
                        ('src', 'printer.rs', 336, 380, '// Print the cornering grid')]),
        ('side-panel', [('src', 'printer.rs', 150, 180, '// Create decorations.'),
                       ('src', 'decorations.rs', 82, 99, 'impl LineChangesDecoration {')]),
        ('line-rendering', [('src', 'printer.rs', 424, 481, 'let line = if self.config.show_nonprintable {')]),
        ('terminal-colours', [('src', 'terminal.rs', 6, 47, 'pub fn to_ansi_color'),
                             ('src', 'printer.rs', 704, 727, 'fn colored(theme: &Theme, true_color: bool)')]),
    ]),
    ('syntax-detection', 'architecture/syntax-detection.md', [
        ('detection-order', [('src', 'assets.rs', 179, 235, '/// Detect the syntax based on, in order:'),
                            ('src', 'assets.rs', 257, 289, 'pub(crate) fn get_syntax(')]),
        ('explicit-language', [('src', 'assets.rs', 257, 269, 'pub(crate) fn get_syntax('),
                              ('src', 'error.rs', 19, 26, '#[error("unable to detect syntax for {0}")]'),
                              ('src', 'bin/bat/app.rs', 151, 162, 'language: self')]),
        ('builtin-mappings', [('src', 'syntax_mapping.rs', 41, 97, 'pub fn builtin() -> SyntaxMapping'),
                             ('src', 'syntax_mapping.rs', 108, 163, 'for glob in &[')]),
        ('mapping-matching', [('src', 'syntax_mapping.rs', 183, 217, 'pub fn insert(&mut self, from: &str')]),
        ('ignored-suffixes', [('src', 'syntax_mapping/ignored_suffixes.rs', 12, 36, 'impl Default for IgnoredSuffixes'),
                             ('src', 'assets.rs', 309, 339, 'fn get_syntax_for_file_name(')]),
    ]),
    ('assets', 'architecture/assets.md', [
        ('integrated-assets', [('src', 'assets.rs', 32, 62, 'pub struct HighlightingAssets {'),
                              ('src', 'assets.rs', 353, 384, 'pub(crate) fn get_serialized_integrated_syntaxset()')]),
        ('cache-loading', [('src', 'bin/bat/assets.rs', 27, 51, 'pub fn assets_from_cache_or_binary'),
                          ('src', 'assets/assets_metadata.rs', 40, 81, '/// Load metadata about the stored cache file')]),
        ('cache-build', [('src', 'assets/build_assets.rs', 12, 65, 'pub fn build('),
                        ('src', 'bin/bat/main.rs', 44, 61, 'fn build_assets(matches: &clap::ArgMatches)')]),
        ('directories', [('src', 'bin/bat/directories.rs', 6, 62, "/// Wrapper for 'dirs'"),
                        ('src', 'bin/bat/directories.rs', 66, 72, 'pub fn config_dir(&self)')]),
    ]),
    ('output-and-pager', 'architecture/output-and-pager.md', [
        ('paging-mode', [('src', 'bin/bat/app.rs', 82, 106, 'let paging_mode = match'),
                        ('src', 'paging.rs', 2, 13, 'pub enum PagingMode {')]),
        ('pager-selection', [('src', 'pager.rs', 93, 131, 'pub(crate) fn get_pager'),
                            ('src', 'pager.rs', 40, 62, 'fn from_bin(bin: &str) -> PagerKind')]),
        ('less-arguments', [('src', 'output.rs', 73, 119, 'let mut p = Command::new(resolved_path);')]),
        ('less-version', [('src', 'less.rs', 12, 38, 'pub fn retrieve_less_version')]),
        ('stdout-fallback', [('src', 'output.rs', 44, 70, '/// Try to launch the pager.'),
                            ('src', 'error.rs', 45, 65, 'pub fn default_error_handler'),
                            ('src', 'output.rs', 154, 160, 'impl Drop for OutputType {')]),
    ]),
    ('output-style', 'usage/output-style.md', [
        ('style-components', [('src', 'bin/bat/clap_app.rs', 392, 451, 'Arg::new("style")')]),
        ('style-presets', [('src', 'style.rs', 25, 63, 'pub fn components(self, interactive_terminal: bool)')]),
        ('plain-and-number', [('src', 'bin/bat/clap_app.rs', 73, 85, 'Arg::new("plain")'),
                             ('src', 'bin/bat/app.rs', 308, 316, 'fn style_components(&self)'),
                             ('src', 'bin/bat/app.rs', 198, 210, 'tab_width: self')]),
        ('decorations-option', [('src', 'bin/bat/clap_app.rs', 270, 297, 'Arg::new("decorations")'),
                               ('assets', 'manual/bat.1.in', 98, 108, '\\fB\\-\\-decorations\\fR <when>')]),
        ('bat-style-env', [('src', 'bin/bat/app.rs', 318, 353, 'let env_style_components'),
                          ('src', 'style.rs', 65, 86, 'impl FromStr for StyleComponent {')]),
    ]),
    ('paging', 'usage/paging.md', [
        ('paging-options', [('src', 'bin/bat/clap_app.rs', 299, 332, 'Arg::new("paging")'),
                           ('root', 'CHANGELOG.md', 18, 22, '- Make `--no-paging`/`-P` override')]),
        ('choosing-pager', [('root', 'README.md', 569, 585, '### Using a different pager'),
                           ('src', 'pager.rs', 109, 120, 'let use_less_instead = if source == PagerSource::EnvVarPager {')]),
        ('less-options', [('root', 'README.md', 587, 600, '**Note**: By default, if the pager is set to `less`'),
                         ('src', 'output.rs', 76, 116, 'if pager.kind == PagerKind::Less {'),
                         ('assets', 'manual/bat.1.in', 116, 122, '\\fB\\-\\-pager\\fR <command>')]),
        ('disabling-paging', [('root', 'README.md', 56, 65, '### Automatic paging'),
                             ('src', 'bin/bat/config.rs', 74, 80, '# Uncomment the following line to disable automatic paging:')]),
    ]),
    ('themes', 'usage/themes.md', [
        ('choosing-theme', [('src', 'bin/bat/app.rs', 211, 223, 'theme: self'),
                           ('src', 'assets.rs', 72, 121, '/// The default theme.'),
                           ('root', 'README.md', 433, 451, '### Highlighting theme')]),
        ('list-themes', [('src', 'bin/bat/main.rs', 184, 223, 'pub fn list_themes(cfg: &Config)')]),
        ('eight-bit-themes', [('root', 'README.md', 453, 471, '### 8-bit themes'),
                             ('src', 'assets.rs', 238, 255, '/// Look up a syntect theme by name.')]),
        ('colour-and-italics', [('src', 'bin/bat/app.rs', 28, 32, 'fn is_truecolor_terminal()'),
                               ('src', 'bin/bat/clap_app.rs', 242, 268, 'Arg::new("color")'),
                               ('root', 'README.md', 720, 731, '### Terminals & colors')]),
    ]),
    ('languages', 'usage/languages.md', [
        ('language-option', [('src', 'bin/bat/clap_app.rs', 87, 98, 'Arg::new("language")'),
                            ('root', 'README.md', 81, 93, 'Read from stdin, determine the syntax automatically'),
                            ('src', 'bin/bat/clap_app.rs', 59, 71, 'Arg::new("show-all")')]),
        ('list-languages', [('src', 'bin/bat/main.rs', 89, 148, 'pub fn get_languages(config: &Config)')]),
        ('map-syntax', [('src', 'bin/bat/app.rs', 116, 126, 'if let Some(values) = self.matches.get_many::<String>("map-syntax")'),
                       ('root', 'README.md', 541, 567, '### Adding or changing file type associations')]),
        ('file-name-and-suffixes', [('src', 'bin/bat/clap_app.rs', 119, 132, 'Arg::new("file-name")'),
                                   ('src', 'bin/bat/clap_app.rs', 360, 369, 'Arg::new("ignored-suffix")'),
                                   ('root', 'CHANGELOG.md', 19, 23, '- `--map-syntax` and `--ignored-suffix` now works together')]),
    ]),
    ('line-selection', 'usage/line-selection.md', [
        ('line-range', [('src', 'line_range.rs', 30, 79, 'fn parse_range(range_raw: &str)'),
                       ('src', 'bin/bat/clap_app.rs', 457, 473, 'Arg::new("line-range")')]),
        ('highlight-line', [('src', 'bin/bat/clap_app.rs', 101, 117, 'Arg::new("highlight-line")'),
                           ('src', 'printer.rs', 483, 494, '// Line highlighting')]),
        ('diff-mode', [('src', 'bin/bat/clap_app.rs', 138, 167, 'Arg::new("diff")'),
                      ('src', 'controller.rs', 113, 140, 'let line_changes = if self.config.visible_lines.diff_mode()'),
                      ('root', 'README.md', 168, 179, '#### `git diff`')]),
    ]),
    ('text-handling', 'usage/text-handling.md', [
        ('wrapping', [('src', 'bin/bat/clap_app.rs', 191, 228, 'Arg::new("wrap")'),
                     ('src', 'bin/bat/app.rs', 163, 180, 'wrapping_mode: if self.interactive_output')]),
        ('tabs', [('root', 'README.md', 602, 610, '### Indentation'),
                 ('src', 'preprocessor.rs', 5, 36, '/// Expand tabs like an ANSI-enabled expand(1).')]),
        ('show-all', [('src', 'preprocessor.rs', 52, 101, 'pub fn replace_nonprintable(input: &[u8], tab_width: usize)')]),
        ('encodings', [('root', 'README.md', 738, 748, '### File encodings'),
                      ('root', 'CHANGELOG.md', 20, 24, '- Strips byte order mark from output')]),
    ]),
    ('configuration', 'usage/configuration.md', [
        ('config-location', [('src', 'bin/bat/config.rs', 25, 30, 'pub fn config_file() -> PathBuf'),
                            ('root', 'README.md', 623, 635, '## Configuration file'),
                            ('assets', 'manual/bat.1.in', 191, 202, '.SH "FILES"')]),
        ('system-config', [('src', 'bin/bat/config.rs', 9, 22, '#[cfg(not(target_os = "windows"))]'),
                          ('root', 'README.md', 642, 646, 'There is also now a systemwide configuration file')]),
        ('config-format', [('src', 'bin/bat/config.rs', 124, 138, 'fn get_args_from_str(content: &str)'),
                          ('root', 'README.md', 646, 663, '### Format')]),
        ('generate-config', [('src', 'bin/bat/config.rs', 32, 61, 'pub fn generate_config_file()'),
                            ('src', 'bin/bat/config.rs', 62, 103, 'let default_config = r#"')]),
        ('bat-opts-and-env', [('src', 'bin/bat/config.rs', 120, 124, 'pub fn get_args_from_env_var()'),
                             ('src', 'bin/bat/main.rs', 246, 264, '.info(EnvironmentVariables::list(&[')]),
    ]),
    ('custom-assets', 'usage/custom-assets.md', [
        ('adding-syntaxes', [('root', 'README.md', 481, 521, '### Adding new syntaxes / language definitions'),
                            ('doc', 'assets.md', 1, 18, '## Adding new builtin languages')]),
        ('adding-themes', [('root', 'README.md', 523, 539, '### Adding new themes'),
                          ('src', 'assets/build_assets.rs', 38, 63, 'fn build_theme_set('),
                          ('assets', 'manual/bat.1.in', 230, 238, '.SH "ADDING CUSTOM THEMES"')]),
        ('cache-subcommand', [('src', 'bin/bat/clap_app.rs', 562, 621, 'Command::new("cache")'),
                             ('src', 'bin/bat/main.rs', 63, 74, 'fn run_cache_subcommand')]),
        ('cache-clear', [('src', 'bin/bat/assets.rs', 21, 25, 'pub fn clear_assets()'),
                        ('src', 'bin/bat/assets.rs', 53, 65, 'fn clear_asset(filename: &str'),
                        ('src', 'bin/bat/clap_app.rs', 556, 561, '// Check if the current directory contains a file name cache.')]),
    ]),
    ('integrations', 'usage/integrations.md', [
        ('fzf-and-find', [('root', 'README.md', 114, 146, '#### `fzf`')]),
        ('man-pager', [('root', 'README.md', 191, 209, '#### `man`')]),
        ('tail-and-git', [('root', 'README.md', 148, 166, '#### `tail -f`')]),
        ('clipboard-and-help', [('root', 'README.md', 181, 189, '#### `xclip`'),
                               ('root', 'README.md', 215, 229, '#### Highlighting `--help` messages')]),
    ]),
    ('library-api', 'usage/library-api.md', [
        ('pretty-printer', [('src', 'pretty_printer.rs', 46, 63, "impl<'a> PrettyPrinter<'a> {"),
                           ('src', 'pretty_printer.rs', 262, 301, '/// Pretty-print all specified inputs.')]),
        ('inputs', [('src', 'pretty_printer.rs', 65, 108, '/// Add an input which should be pretty-printed'),
                   ('src', 'pretty_printer.rs', 310, 357, '/// An input source for the pretty printer.')]),
        ('printer-options', [('src', 'pretty_printer.rs', 140, 199, '/// Whether to show a header with the file name'),
                            ('src', 'pretty_printer.rs', 244, 260, 'pub fn themes(&self)')]),
        ('library-features', [('root', 'Cargo.toml', 38, 42, '# You need to use one of these'),
                             ('root', 'build.rs', 4, 11, '// For bat-as-a-library, no build script is required.')]),
    ]),
    ('troubleshooting', 'faq/troubleshooting.md', [
        ('no-colours-when-piped', [('root', 'README.md', 62, 66, '#### File concatenation'),
                                  ('src', 'bin/bat/app.rs', 181, 197, 'colored_output: self.matches.get_flag("force-colorization")'),
                                  ('root', 'README.md', 733, 737, '### Line numbers and grid are hardly visible')]),
        ('garbled-and-binary', [('root', 'README.md', 713, 719, '### Garbled output'),
                               ('root', 'CHANGELOG.md', 1, 6, '# v0.22.1'),
                               ('src', 'printer.rs', 292, 305, 'if !self.config.style_components.header() {')]),
        ('windows', [('root', 'README.md', 665, 709, '## Using `bat` on Windows')]),
        ('pager-and-cache-errors', [('src', 'output.rs', 62, 66, 'if pager.kind == PagerKind::Bat {'),
                                   ('src', 'bin/bat/assets.rs', 29, 43, 'if let Some(metadata) = AssetsMetadata::load_from_folder'),
                                   ('root', 'CHANGELOG.md', 17, 21, '- Prevent fork nightmare with `PAGER=batcat`')]),
    ]),
    ('about-bat', 'faq/about-bat.md', [
        ('batcat-on-debian', [('root', 'README.md', 238, 254, '### On Ubuntu (using `apt`)'),
                             ('src', 'pager.rs', 43, 53, '// Set to `less` by default on most Linux distros.'),
                             ('root', 'build.rs', 17, 22, 'let project_name = option_env!("PROJECT_NAME")')]),
        ('diagnostics-and-goals', [('src', 'bin/bat/main.rs', 232, 288, 'fn invoke_bugreport(app: &App)'),
                                  ('root', 'README.md', 791, 808, '## Project goals and alternatives'),
                                  ('doc', 'alternatives.md', 1, 6, '# Alternatives')]),
    ]),
]

if __name__ == "__main__":
    write_structure(HERE, "bat", BASE, SUBPATH, ARTICLES)

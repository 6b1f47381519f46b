#!/usr/bin/env python3
"""Writes ws/knowledge/structure.yaml for the coverage corpus from the reference table below.

Every reference is (module, path, start, end, anchor): module "root" (the sdist root: setup.py),
"coverage" (subpath coverage: the package code) or "doc" (subpath doc: the reStructuredText
documentation shipped in the sdist), the path inside the module, the cited line range at the
base commit, and a text its first line must hold. The checks and the digest rule are in the
shared writer, ../tools/structure_table.py.

Usage: make-structure.py            (reads repo.git next to this script, writes ws/...)
The prose of the pages is hand-written; this script only computes the structure file.
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tools"))
from structure_table import write_structure  # noqa: E402  (the shared writer, ../tools)

BASE = "98ea162c3cf92bda753880afd68f8c9e2839fd1c"
SUBPATH = {"root": "", "coverage": "coverage", "doc": "doc"}

# article_id, path under knowledge/, then the sections in page order with their references.
ARTICLES = [
    ('overview', 'architecture/overview.md', [
        ('package-layout', [('root', 'setup.py', 96, 127, 'entry_points={'),
                   ('coverage', 'collector.py', 34, 49, '    # Use the C extension code when we can, for speed.')]),
        ('coverage-object', [('coverage', 'control.py', 116, 135, '    def __init__(                       # pylint: disable=too-many-arguments'),
                   ('coverage', 'control.py', 273, 304, '        # Build our configuration from a number of sources.')]),
        ('lifecycle', [('coverage', 'control.py', 607, 651, '    def start(self) -> None:'),
                   ('coverage', 'control.py', 100, 115, '    _instances: List[Coverage] = []'),
                   ('coverage', 'control.py', 755, 759, '    def save(self) -> None:')]),
        ('process-exit', [('coverage', 'control.py', 652, 667, '    def _atexit(self, event: str = "atexit") -> None:'),
                   ('coverage', 'control.py', 580, 592, '        # Register our clean-up handlers.'),
                   ('doc', 'config.rst', 277, 292, '[run] sigterm')]),
    ]),
    ('configuration-loading', 'architecture/configuration-loading.md', [
        ('file-search', [('coverage', 'config.py', 537, 565, 'def config_files_to_try('),
                   ('coverage', 'config.py', 568, 619, 'def read_coverage_config(')]),
        ('ini-parsing', [('coverage', 'config.py', 30, 61, 'class HandyConfigParser(configparser.ConfigParser):'),
                   ('coverage', 'config.py', 85, 144, '    def get(self, section: str, option: str, *args: Any, **kwargs: Any) -> str: # type: ignore')]),
        ('toml-parsing', [('coverage', 'tomlconfig.py', 45, 68, '    def read(self, filenames: Iterable[str]) -> List[str]:'),
                   ('coverage', 'tomlconfig.py', 157, 186, '        """Check that `value` has the type we want, converting if needed.')]),
        ('option-table', [('coverage', 'config.py', 363, 392, '    CONFIG_FILE_OPTIONS = ['),
                   ('coverage', 'config.py', 314, 339, '        # Check that there are no unrecognized options.'),
                   ('coverage', 'config.py', 519, 532, '    def post_process(self) -> None:')]),
    ]),
    ('collection', 'architecture/collection.md', [
        ('tracer-choice', [('coverage', 'collector.py', 143, 158, '        use_ctracer = False'),
                   ('coverage', 'control.py', 553, 566, "        # Early warning if we aren't going to be able to support plugins.")]),
        ('concurrency-setup', [('coverage', 'collector.py', 159, 202, '        # We can handle a few concurrency options here, but only one at a time.'),
                   ('coverage', 'config.py', 361, 365, '    CONCURRENCY_CHOICES = {')]),
        ('file-decisions', [('coverage', 'inorout.py', 395, 454, '    def check_include_omit_etc(self, filename: str, frame: Optional[FrameType]) -> Optional[str]:'),
                   ('coverage', 'control.py', 389, 404, '    def _check_include_omit_etc(self, filename: str, frame: FrameType) -> bool:')]),
    ]),
    ('data-storage', 'architecture/data-storage.md', [
        ('schema', [('coverage', 'sqldata.py', 42, 101, 'SCHEMA_VERSION = 7'),
                   ('coverage', 'numbits.py', 67, 76, 'def numbits_union(numbits1: bytes, numbits2: bytes) -> bytes:')]),
        ('data-suffix', [('coverage', 'sqldata.py', 1075, 1095, 'def filename_suffix(suffix: Union[str, bool, None]) -> Union[str, None]:'),
                   ('coverage', 'sqldata.py', 845, 854, '    def _start_using(self) -> None:'),
                   ('coverage', 'control.py', 535, 547, '        suffix = self._data_suffix_specified')]),
        ('lines-vs-arcs', [('coverage', 'sqldata.py', 543, 562, '    def _choose_lines_or_arcs(self, lines: bool = False, arcs: bool = False) -> None:'),
                   ('coverage', 'sqldata.py', 644, 660, '    def update(self, other_data: CoverageData, aliases: Optional[PathAliases] = None) -> None:'),
                   ('coverage', 'sqldata.py', 841, 845, '    def write(self) -> None:')]),
        ('combining-files', [('coverage', 'data.py', 66, 86, 'def combinable_files(data_file: str, data_paths: Optional[Iterable[str]] = None) -> List[str]:'),
                   ('coverage', 'data.py', 124, 183, '    files_to_combine = combinable_files(data.base_filename(), data_paths)')]),
        ('db-errors', [('coverage', 'sqldata.py', 289, 313, '    def _read_db(self) -> None:'),
                   ('coverage', 'sqldata.py', 1165, 1195, '    def _execute(self, sql: str, parameters: Iterable[Any]) -> sqlite3.Cursor:')]),
    ]),
    ('analysis', 'architecture/analysis.md', [
        ('parser-exclusion', [('coverage', 'parser.py', 117, 176, '    def _raw_parse(self) -> None:'),
                   ('coverage', 'parser.py', 101, 115, '    def lines_matching(self, *regexes: str) -> Set[TLineNo]:')]),
        ('statements', [('coverage', 'parser.py', 245, 268, '    def parse_source(self) -> None:'),
                   ('coverage', 'python.py', 41, 74, 'def get_python_source(filename: str) -> str:')]),
        ('branch-arcs', [('coverage', 'parser.py', 300, 325, '    def exit_counts(self) -> Dict[TLineNo, int]:'),
                   ('coverage', 'parser.py', 327, 372, '    def missing_arc_description('),
                   ('coverage', 'python.py', 206, 213, '    def no_branch_lines(self) -> Set[TLineNo]:')]),
        ('numbers', [('coverage', 'results.py', 33, 67, '        self.file_reporter = file_reporter'),
                   ('coverage', 'results.py', 231, 265, '    def pc_covered(self) -> float:')]),
    ]),
    ('reporting-pipeline', 'architecture/reporting-pipeline.md', [
        ('get-analysis', [('coverage', 'report_core.py', 71, 117, 'def get_analysis_to_report('),
                   ('coverage', 'control.py', 973, 979, '    def _prepare_data_for_reporting(self) -> None:')]),
        ('summary-reporter', [('coverage', 'report.py', 31, 35, '        self.output_format = self.config.format or "text"'),
                   ('coverage', 'report.py', 172, 231, '    def report(self, morfs: Optional[Iterable[TMorf]], outfile: Optional[IO[str]] = None) -> float:'),
                   ('coverage', 'report.py', 252, 261, '        if self.config.skip_covered and self.skipped_count:')]),
        ('html-incremental', [('coverage', 'html.py', 281, 330, '    def report(self, morfs: Optional[Iterable[TMorf]]) -> float:'),
                   ('coverage', 'html.py', 337, 353, '    def make_local_static_report_files(self) -> None:'),
                   ('coverage', 'html.py', 589, 617, '    def check_global_data(self, *data: Any) -> None:')]),
    ]),
    ('command-line', 'usage/command-line.md', [
        ('commands', [('coverage', 'cmdline.py', 932, 966, 'HELP_TOPICS = {'),
                   ('coverage', 'cmdline.py', 624, 638, '        # The command syntax we parse depends on the first argument.  Global')]),
        ('run-options', [('coverage', 'cmdline.py', 516, 536, '    "run": CmdOptionParser('),
                   ('doc', 'cmd.rst', 171, 187, 'If you want :ref:`branch coverage <branch>` measurement, use the ``--branch``'),
                   ('doc', 'cmd.rst', 228, 232, 'Coverage.py sets an environment variable, ``COVERAGE_RUN`` to indicate that')]),
        ('run-rules', [('coverage', 'cmdline.py', 813, 868, '    def do_run(self, options: optparse.Values, args: List[str]) -> int:')]),
        ('exit-status', [('coverage', 'cmdline.py', 964, 994, 'def main(argv: Optional[List[str]] = None) -> Optional[int]:'),
                   ('coverage', 'cmdline.py', 754, 773, '        if total is not None:')]),
        ('erase-and-debug', [('coverage', 'cmdline.py', 872, 904, '    def do_debug(self, args: List[str]) -> int:'),
                   ('coverage', 'sqldata.py', 813, 833, '    def erase(self, parallel: bool = False) -> None:')]),
    ]),
    ('text-report', 'usage/text-report.md', [
        ('report-options', [('coverage', 'cmdline.py', 495, 516, '    "report": CmdOptionParser('),
                   ('coverage', 'results.py', 329, 363, 'def format_lines(')]),
        ('sort-and-format', [('coverage', 'report.py', 223, 240, '        # Line sorting.'),
                   ('coverage', 'config.py', 398, 402, '        ("format", "report:format", "boolean"),'),
                   ('doc', 'cmd.rst', 492, 541, 'Coverage summary: ``coverage report``')]),
        ('fail-under', [('coverage', 'results.py', 364, 383, 'def should_fail_under(total: float, fail_under: float, precision: int) -> bool:'),
                   ('doc', 'config.rst', 412, 423, '[report] fail_under')]),
    ]),
    ('other-reports', 'usage/other-reports.md', [
        ('html-report', [('coverage', 'control.py', 1102, 1160, '    def html_report('),
                   ('coverage', 'html.py', 109, 118, '    def __init__(self, cov: Coverage) -> None:'),
                   ('coverage', 'html.py', 220, 231, '    def __init__(self, cov: Coverage) -> None:')]),
        ('xml-report', [('coverage', 'xmlreport.py', 78, 122, '    def report(self, morfs: Optional[Iterable[TMorf]], outfile: Optional[IO[str]] = None) -> float:'),
                   ('doc', 'config.rst', 611, 620, '[xml] package_depth')]),
        ('json-report', [('coverage', 'jsonreport.py', 35, 86, '    def report(self, morfs: Optional[Iterable[TMorf]], outfile: IO[str]) -> float:'),
                   ('coverage', 'jsonreport.py', 87, 122, '    def report_one_file(self, coverage_data: CoverageData, analysis: Analysis) -> Dict[str, Any]:')]),
        ('lcov-report', [('coverage', 'lcovreport.py', 54, 108, '    def get_lcov(self, fr: FileReporter, analysis: Analysis, outfile: IO[str]) -> None:'),
                   ('coverage', 'lcovreport.py', 23, 27, 'def line_hash(line: str) -> str:')]),
        ('annotate', [('coverage', 'annotate.py', 26, 46, 'class AnnotateReporter:'),
                   ('coverage', 'control.py', 1088, 1099, '        print("The annotate command will be removed in a future version.")')]),
    ]),
    ('configuration', 'usage/configuration.md', [
        ('config-files', [('doc', 'config.rst', 7, 43, 'Configuration reference'),
                   ('coverage', 'tomlconfig.py', 82, 95, '        prefixes = ["tool.coverage."]')]),
        ('value-syntax', [('doc', 'config.rst', 44, 73, 'Syntax'),
                   ('coverage', 'misc.py', 264, 313, 'def substitute_variables(text: str, variables: Mapping[str, str]) -> str:')]),
        ('run-settings', [('coverage', 'config.py', 190, 210, '        # Defaults for [run]'),
                   ('coverage', 'config.py', 372, 392, '        # [run]')]),
        ('report-settings', [('coverage', 'config.py', 216, 255, '        # Defaults for [report]'),
                   ('coverage', 'config.py', 394, 430, '        # [report]')]),
    ]),
    ('excluding-code', 'usage/excluding-code.md', [
        ('pragma-no-cover', [('coverage', 'config.py', 151, 167, '# The default line exclusion regexes.'),
                   ('doc', 'excluding.rst', 7, 43, 'Excluding code from coverage.py')]),
        ('exclude-lines-vs-also', [('doc', 'excluding.rst', 63, 111, 'Advanced exclusion'),
                   ('doc', 'config.rst', 377, 411, '[report] exclude_also')]),
        ('decorators-and-branches', [('doc', 'excluding.rst', 45, 62, 'Branch coverage'),
                   ('coverage', 'parser.py', 168, 173, '                elif ttext == "@" and first_on_line:')]),
        ('exclude-api', [('coverage', 'control.py', 708, 753, '    def clear_exclude(self, which: str = "exclude") -> None:')]),
    ]),
    ('branch-coverage', 'usage/branch-coverage.md', [
        ('enabling-branches', [('doc', 'branch.rst', 7, 54, 'Branch coverage measurement'),
                   ('coverage', 'collector.py', 280, 284, '        tracer.trace_arcs = self.branch')]),
        ('reading-branch-results', [('doc', 'faq.rst', 96, 116, 'Q: How is the total percentage calculated?'),
                   ('coverage', 'results.py', 70, 84, '    def missing_formatted(self, branches: bool = False) -> str:')]),
        ('no-branch-pragma', [('doc', 'branch.rst', 89, 119, 'Structurally partial branches'),
                   ('coverage', 'config.py', 156, 167, '# The default partial branch regexes, to be modified by the user.')]),
    ]),
    ('source-selection', 'usage/source-selection.md', [
        ('source-option', [('coverage', 'inorout.py', 194, 203, '        self.source: List[str] = []'),
                   ('doc', 'source.rst', 22, 54, 'Execution'),
                   ('coverage', 'inorout.py', 456, 460, '    def warn_conflicting_settings(self) -> None:')]),
        ('include-omit', [('doc', 'source.rst', 51, 84, "You can further fine-tune coverage.py's attention with the ``--include`` and"),
                   ('coverage', 'report_core.py', 85, 93, '    if config.report_include:')]),
        ('file-patterns', [('coverage', 'files.py', 200, 215, 'def prep_patterns(patterns: Iterable[str]) -> List[str]:'),
                   ('coverage', 'files.py', 313, 346, 'G2RX_TOKENS = [(re.compile(rx), sub) for rx, sub in [')]),
        ('unexecuted-files', [('coverage', 'files.py', 515, 543, 'def find_python_files(dirname: str, include_namespace_packages: bool) -> Iterable[str]:'),
                   ('coverage', 'inorout.py', 525, 538, '    def find_possibly_unexecuted_files(self) -> Iterable[Tuple[str, Optional[str]]]:')]),
    ]),
    ('parallel-and-combining', 'usage/parallel-and-combining.md', [
        ('parallel-mode', [('doc', 'cmd.rst', 335, 344, 'Coverage normally writes data to a filed named ".coverage".  The ``run'),
                   ('coverage', 'control.py', 535, 547, '        suffix = self._data_suffix_specified')]),
        ('combine-command', [('doc', 'cmd.rst', 351, 381, 'You can also name directories or files to be combined on the command line::'),
                   ('coverage', 'cmdline.py', 686, 692, '        elif options.action == "combine":')]),
        ('paths-remapping', [('doc', 'config.rst', 326, 368, '[paths]'),
                   ('coverage', 'files.py', 409, 446, '    def add(self, pattern: str, result: str) -> None:'),
                   ('coverage', 'files.py', 471, 494, '        for original_pattern, regex, result in self.aliases:')]),
        ('relative-files', [('doc', 'config.rst', 261, 276, '[run] relative_files'),
                   ('coverage', 'files.py', 495, 511, '        if self.relative and not isabs_anywhere(path):')]),
        ('subprocess-startup', [('doc', 'subprocess.rst', 37, 85, 'Configuring Python for sub-process measurement'),
                   ('coverage', 'control.py', 1349, 1375, '    cps = os.environ.get("COVERAGE_PROCESS_START")')]),
        ('multiprocessing', [('coverage', 'multiproc.py', 24, 51, 'class ProcessWithCoverage(OriginalProcess):         # pylint: disable=abstract-method'),
                   ('coverage', 'multiproc.py', 65, 104, 'def patch_multiprocessing(rcfile: str) -> None:'),
                   ('coverage', 'control.py', 505, 509, '        if "multiprocessing" in concurrency:')]),
    ]),
    ('contexts', 'usage/contexts.md', [
        ('static-context', [('doc', 'contexts.rst', 22, 38, 'Static contexts'),
                   ('coverage', 'collector.py', 414, 425, '    def switch_context(self, new_context: Optional[str]) -> None:')]),
        ('dynamic-contexts', [('coverage', 'context.py', 44, 72, 'def should_start_context_test_function(frame: FrameType) -> Optional[str]:'),
                   ('coverage', 'control.py', 510, 522, '        dycon = self.config.dynamic_context')]),
        ('switch-context', [('coverage', 'control.py', 686, 707, '    def switch_context(self, new_context: str) -> None:'),
                   ('doc', 'contexts.rst', 49, 58, 'There are three ways to enable dynamic contexts:')]),
        ('reporting-contexts', [('doc', 'contexts.rst', 89, 107, 'Context reporting'),
                   ('coverage', 'sqldata.py', 915, 934, '    def set_query_contexts(self, contexts: Optional[Sequence[str]]) -> None:')]),
    ]),
    ('plugins-and-api', 'usage/plugins-and-api.md', [
        ('using-plugins', [('doc', 'plugins.rst', 21, 62, 'Using plug-ins'),
                   ('coverage', 'plugin_support.py', 39, 68, '    def load_plugins(')]),
        ('plugin-kinds', [('coverage', 'plugin.py', 127, 166, 'class CoveragePlugin:'),
                   ('coverage', 'inorout.py', 376, 380, '                self.warn(f"Disabling plug-in {plugin_name!r} due to an exception:\\n{tb}")')]),
        ('api-basics', [('doc', 'api.rst', 7, 46, 'Coverage.py API'),
                   ('coverage', 'control.py', 772, 791, '    def combine(')]),
        ('api-options-and-analysis', [('coverage', 'config.py', 456, 485, '    def set_option(self, option_name: str, value: Union[TConfigValueIn, TConfigSectionIn]) -> None:'),
                   ('coverage', 'control.py', 877, 905, '    def analysis2(')]),
    ]),
    ('troubleshooting', 'faq/troubleshooting.md', [
        ('no-data-collected', [('coverage', 'control.py', 843, 860, '    def _post_save_work(self) -> None:'),
                   ('doc', 'cmd.rst', 264, 270, 'No data was collected (no-data-collected)')]),
        ('module-warnings', [('coverage', 'inorout.py', 494, 523, '    def warn_unimported_source(self) -> None:'),
                   ('coverage', 'inorout.py', 462, 485, '    def warn_already_imported_files(self) -> None:')]),
        ('no-source', [('coverage', 'python.py', 61, 65, '    else:'),
                   ('coverage', 'execfile.py', 294, 298, '    except (OSError, NoSource) as exc:')]),
        ('couldnt-parse', [('coverage', 'parser.py', 254, 263, '        except (tokenize.TokenError, IndentationError, SyntaxError) as err:'),
                   ('doc', 'cmd.rst', 244, 248, "Couldn't parse Python file XXX (couldnt-parse)")]),
        ('combine-errors', [('coverage', 'sqldata.py', 656, 660, '        if self._has_lines and other_data._has_arcs:'),
                   ('coverage', 'data.py', 126, 130, '    if strict and not files_to_combine:'),
                   ('doc', 'cmd.rst', 409, 430, 'Re-mapping paths')]),
        ('debugging', [('doc', 'cmd.rst', 1004, 1063, '``--debug``'),
                   ('doc', 'faq.rst', 14, 29, 'Q: Why are some of my files not measured?')]),
    ]),
    ('about-coverage', 'faq/about-coverage.md', [
        ('environment-variables', [('coverage', 'config.py', 603, 610, '    # $set_env.py: COVERAGE_DEBUG - Options for --debug.'),
                   ('coverage', 'cmdline.py', 849, 853, '        os.environ["COVERAGE_RUN"] = "true"'),
                   ('coverage', 'debug.py', 356, 360, '                file_name = os.environ.get("COVERAGE_DEBUG_FILE", FORCED_DEBUG_FILE)')]),
        ('surprising-results', [('doc', 'faq.rst', 30, 80, 'Q: Why do unexecutable lines show up as executed?')]),
        ('limits-and-speed', [('doc', 'trouble.rst', 25, 54, "Things that don't work"),
                   ('doc', 'faq.rst', 117, 129, "Q: Coverage.py is much slower than I remember, what's going on?")]),
    ]),
]

if __name__ == "__main__":
    write_structure(HERE, "coverage", BASE, SUBPATH, ARTICLES)

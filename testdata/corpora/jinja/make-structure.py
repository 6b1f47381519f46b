#!/usr/bin/env python3
"""Writes ws/knowledge/structure.yaml for the jinja corpus from the reference table below.

Every reference is (module, path, start, end, anchor): module "lib" (subpath src/jinja2/) or
"root" (the sdist root: docs/*.rst, setup.py, setup.cfg), the path inside the module, the cited
1-based inclusive line range at the base commit, and a text that must occur in the first cited line (a guard against off-by-one
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
BASE = "a038da347d881c92d1dee43dc0227126f4d9cefa"
SUBPATH = {"lib": "src/jinja2", "root": ""}

# article_id, path under knowledge/, then the sections in page order with their references.
ARTICLES = [
    ("overview", "architecture/overview.md", [
        ("package-layout", [("root", "setup.py", 1, 8, 'from setuptools'),
                           ("lib", "__init__.py", 5, 45, 'from .bccache import BytecodeCache'),
                           ("root", "setup.cfg", 32, 43, '[options]')]),
        ("environment-central", [("root", "docs/api.rst", 13, 71, 'Basics'),
                                ("lib", "environment.py", 143, 181, 'class Environment:')]),
        ("template-objects", [("lib", "environment.py", 1117, 1151, 'class Template:'),
                             ("lib", "environment.py", 68, 78, 'def get_spontaneous_environment')]),
        ("render-path", [("lib", "loaders.py", 107, 148, 'def load('),
                        ("lib", "environment.py", 1256, 1291, 'def render(self')]),
        ("defaults", [("lib", "defaults.py", 13, 48, '# defaults for the parser')]),
    ]),
    ("compiler-pipeline", "architecture/compiler-pipeline.md", [
        ("preprocess-and-tokenize", [("lib", "environment.py", 629, 643, 'def preprocess('),
                                    ("lib", "environment.py", 645, 664, 'def _tokenize('),
                                    ("lib", "environment.py", 608, 627, 'def lex(')]),
        ("lexer", [("lib", "lexer.py", 426, 447, 'def get_lexer('),
                  ("lib", "lexer.py", 615, 667, 'def wrap(')]),
        ("token-stream", [("lib", "lexer.py", 317, 346, 'class TokenStream:'),
                         ("lib", "lexer.py", 401, 423, 'def expect(')]),
        ("parser", [("lib", "parser.py", 165, 192, 'def parse_statement('),
                   ("lib", "parser.py", 88, 126, 'def _fail_ut_eof(')]),
        ("nodes", [("lib", "nodes.py", 103, 127, 'class Node(metaclass=NodeType):'),
                  ("lib", "nodes.py", 465, 485, 'class Expr(Node):')]),
        ("code-generator", [("lib", "compiler.py", 101, 122, 'def generate('),
                           ("lib", "compiler.py", 825, 864, 'def visit_Template('),
                           ("lib", "environment.py", 718, 757, 'def compile(')]),
    ]),
    ("runtime-context", "architecture/runtime-context.md", [
        ("context-object", [("lib", "runtime.py", 156, 176, 'class Context:'),
                           ("root", "docs/api.rst", 363, 422, 'The Context')]),
        ("variable-resolution", [("lib", "runtime.py", 244, 268, 'def resolve(self'),
                                ("lib", "runtime.py", 178, 195, 'def __init_subclass__(cls)'),
                                ("lib", "runtime.py", 270, 294, 'def resolve_or_missing(')]),
        ("new-context", [("lib", "runtime.py", 104, 130, 'def new_context('),
                        ("lib", "environment.py", 1369, 1384, 'def new_context('),
                        ("lib", "runtime.py", 356, 366, 'def derived(')]),
        ("context-call", [("lib", "runtime.py", 312, 354, 'def call('),
                         ("lib", "utils.py", 30, 44, 'def pass_context(')]),
        ("blocks-and-super", [("lib", "runtime.py", 218, 230, 'def super('),
                             ("lib", "runtime.py", 390, 435, 'class BlockReference:')]),
        ("macro-objects", [("lib", "runtime.py", 706, 739, 'class Macro:'),
                          ("lib", "runtime.py", 769, 814, 'found_caller = False')]),
    ]),
    ("undefined-types", "architecture/undefined-types.md", [
        ("default-undefined", [("lib", "runtime.py", 840, 874, 'class Undefined:'),
                              ("lib", "runtime.py", 905, 949, '@internalcode')]),
        ("undefined-messages", [("lib", "runtime.py", 875, 894, 'def _undefined_message('),
                               ("root", "docs/api.rst", 279, 318, 'Undefined Types')]),
        ("strict-undefined", [("lib", "runtime.py", 1071, 1104, 'class StrictUndefined'),
                             ("root", "docs/api.rst", 289, 296, 'The closest to regular Python behavior')]),
        ("chainable-and-debug", [("lib", "runtime.py", 1012, 1036, 'class ChainableUndefined'),
                                ("lib", "runtime.py", 1039, 1068, 'class DebugUndefined')]),
        ("logging-and-custom", [("lib", "runtime.py", 952, 1009, 'def make_logging_undefined('),
                               ("root", "docs/api.rst", 333, 360, '.. admonition:: Implementation'),
                               ("lib", "utils.py", 161, 175, 'def is_undefined(')]),
    ]),
    ("errors-and-tracebacks", "architecture/errors-and-tracebacks.md", [
        ("exception-hierarchy", [("lib", "exceptions.py", 1, 15, 'import typing as t'),
                                ("lib", "exceptions.py", 139, 144, 'class TemplateAssertionError'),
                                ("root", "docs/api.rst", 617, 652, 'Exceptions')]),
        ("template-not-found", [("lib", "exceptions.py", 18, 50, 'class TemplateNotFound'),
                               ("lib", "exceptions.py", 53, 85, 'class TemplatesNotFound'),
                               ("lib", "environment.py", 1034, 1051, 'if isinstance(names, Undefined):')]),
        ("syntax-errors", [("lib", "exceptions.py", 88, 136, 'class TemplateSyntaxError'),
                          ("lib", "compiler.py", 380, 384, 'def fail(self, msg: str')]),
        ("runtime-errors", [("lib", "compiler.py", 987, 1028, 'def visit_Extends('),
                           ("lib", "compiler.py", 563, 579, '# add check during runtime'),
                           ("lib", "compiler.py", 1767, 1772, '# When inside an If or CondExpr frame')]),
        ("traceback-rewriting", [("lib", "debug.py", 15, 73, 'def rewrite_traceback_stack('),
                                ("root", "docs/faq.rst", 128, 147, 'My tracebacks look weird')]),
    ]),
    ("bytecode-cache", "architecture/bytecode-cache.md", [
        ("how-buckets-work", [("lib", "bccache.py", 150, 159, 'def get_cache_key('),
                             ("lib", "bccache.py", 44, 57, 'class Bucket:'),
                             ("lib", "loaders.py", 127, 142, '# try to load the code from the bytecode cache')]),
        ("serialisation", [("lib", "bccache.py", 33, 41, 'bc_version = 5'),
                          ("lib", "bccache.py", 63, 80, 'def load_bytecode(self, f'),
                          ("lib", "bccache.py", 82, 88, 'def write_bytecode(')]),
        ("filesystem-cache", [("lib", "bccache.py", 186, 210, 'class FileSystemBytecodeCache'),
                             ("lib", "bccache.py", 212, 257, 'def _get_default_cache_dir('),
                             ("lib", "bccache.py", 273, 284, 'def clear(self) -> None:')]),
        ("memcached-cache", [("lib", "bccache.py", 287, 342, 'class MemcachedBytecodeCache'),
                            ("lib", "bccache.py", 344, 364, 'def load_bytecode(self, bucket: Bucket) ')]),
        ("custom-cache", [("lib", "bccache.py", 101, 148, 'class BytecodeCache:'),
                         ("root", "docs/api.rst", 459, 496, 'Bytecode Cache')]),
    ]),
    ("environment-options", "usage/environment-options.md", [
        ("delimiters", [("lib", "environment.py", 143, 171, 'class Environment:'),
                       ("lib", "environment.py", 125, 140, 'def _environment_config_check(')]),
        ("trim-and-lstrip", [("root", "docs/templates.rst", 191, 250, 'Whitespace Control'),
                            ("lib", "environment.py", 183, 189, '`trim_blocks`')]),
        ("manual-whitespace", [("root", "docs/templates.rst", 247, 273, 'You can also strip whitespace in templates by hand'),
                              ("root", "docs/templates.rst", 291, 305, 'For bigger sections, it makes sense to mark a block')]),
        ("newlines", [("lib", "environment.py", 191, 202, '`newline_sequence`'),
                     ("root", "docs/templates.rst", 194, 199, 'In the default configuration:')]),
        ("line-statements", [("root", "docs/templates.rst", 310, 359, 'Line Statements'),
                            ("lib", "environment.py", 173, 181, '`line_statement_prefix`')]),
        ("finalize-and-cache", [("lib", "environment.py", 212, 219, '`undefined`'),
                               ("lib", "environment.py", 235, 251, '`cache_size`'),
                               ("lib", "environment.py", 81, 91, 'def create_cache(')]),
        ("overlay-and-expressions", [("lib", "environment.py", 383, 439, 'def overlay('),
                                    ("lib", "environment.py", 759, 802, 'def compile_expression('),
                                    ("lib", "environment.py", 367, 381, 'def add_extension(self, extension: t.Uni')]),
    ]),
    ("loaders", "usage/loaders.md", [
        ("filesystem-loader", [("lib", "loaders.py", 151, 189, 'class FileSystemLoader'),
                              ("lib", "loaders.py", 191, 214, 'def get_source('),
                              ("lib", "loaders.py", 216, 231, 'def list_templates(self) -> t.List[str]:')]),
        ("package-loader", [("lib", "loaders.py", 234, 265, 'class PackageLoader'),
                           ("lib", "loaders.py", 273, 324, 'package_path = os.path.normpath')]),
        ("dict-and-function-loaders", [("lib", "loaders.py", 395, 416, 'class DictLoader'),
                                      ("lib", "loaders.py", 419, 461, 'class FunctionLoader')]),
        ("prefix-and-choice", [("lib", "loaders.py", 464, 523, 'class PrefixLoader'),
                              ("lib", "loaders.py", 527, 572, 'class ChoiceLoader')]),
        ("module-loader", [("lib", "environment.py", 804, 863, 'def compile_templates('),
                          ("lib", "loaders.py", 579, 638, 'class ModuleLoader'),
                          ("root", "docs/api.rst", 427, 457, 'Loaders')]),
        ("custom-loader", [("lib", "loaders.py", 41, 72, 'class BaseLoader:'),
                          ("lib", "loaders.py", 74, 98, 'def get_source('),
                          ("lib", "loaders.py", 24, 38, 'def split_template_path(')]),
        ("lookup-and-cache", [("lib", "environment.py", 940, 962, 'def _load_template('),
                             ("lib", "environment.py", 965, 997, 'def get_template('),
                             ("lib", "environment.py", 927, 937, 'def join_path(')]),
    ]),
    ("template-syntax", "usage/template-syntax.md", [
        ("delimiters-and-extensions", [("root", "docs/templates.rst", 48, 62, 'The following example shows the default configuration'),
                                      ("root", "docs/templates.rst", 65, 79, 'Template File Extension')]),
        ("variables-and-attributes", [("root", "docs/templates.rst", 81, 133, 'Variables'),
                                     ("lib", "environment.py", 450, 467, 'def getitem('),
                                     ("lib", "environment.py", 469, 480, 'def getattr(')]),
        ("filters-and-tests-syntax", [("root", "docs/templates.rst", 135, 152, 'Filters'),
                                     ("root", "docs/templates.rst", 154, 174, 'Tests')]),
        ("comments-and-raw", [("root", "docs/templates.rst", 176, 188, 'Comments'),
                             ("root", "docs/templates.rst", 278, 308, 'Escaping')]),
        ("literals", [("root", "docs/templates.rst", 1255, 1313, 'Literals')]),
        ("operators", [("root", "docs/templates.rst", 1315, 1358, 'Math'),
                      ("root", "docs/templates.rst", 1361, 1380, 'Comparisons'),
                      ("root", "docs/templates.rst", 1408, 1441, 'Other Operators')]),
        ("if-expression-and-methods", [("root", "docs/templates.rst", 1443, 1464, 'If Expression'),
                                      ("root", "docs/templates.rst", 1466, 1500, 'Python Methods')]),
    ]),
    ("control-structures", "usage/control-structures.md", [
        ("for-loop", [("root", "docs/templates.rst", 682, 708, 'For'),
                     ("lib", "compiler.py", 1215, 1225, '# make sure the loop variable is a special one')]),
        ("loop-variable", [("root", "docs/templates.rst", 717, 755, 'Inside of a for-loop block, you can access some special'),
                          ("lib", "runtime.py", 579, 588, 'def cycle('),
                          ("lib", "runtime.py", 590, 600, 'def changed(')]),
        ("loop-filtering-and-else", [("root", "docs/templates.rst", 769, 794, "Unlike in Python, it's not possible to `break`"),
                                    ("lib", "parser.py", 234, 251, 'def parse_for(')]),
        ("recursive-loops", [("root", "docs/templates.rst", 796, 822, 'It is also possible to use loops recursively.'),
                            ("lib", "runtime.py", 618, 629, 'def __call__(self, iterable')]),
        ("if-statement", [("root", "docs/templates.rst", 850, 879, 'If'),
                         ("lib", "parser.py", 253, 269, 'def parse_if(')]),
        ("assignments", [("root", "docs/templates.rst", 1003, 1032, 'Assignments'),
                        ("root", "docs/templates.rst", 1059, 1091, 'Block Assignments')]),
        ("namespace-and-with", [("root", "docs/templates.rst", 1040, 1054, 'As of version 2.10 more complex use cases'),
                               ("root", "docs/templates.rst", 1828, 1880, 'With Statement'),
                               ("lib", "utils.py", 812, 833, 'class Namespace:')]),
    ]),
    ("macros-and-imports", "usage/macros-and-imports.md", [
        ("defining-macros", [("root", "docs/templates.rst", 881, 901, 'Macros'),
                            ("root", "docs/templates.rst", 917, 939, 'Macros also expose some of their internal details.'),
                            ("lib", "parser.py", 443, 448, 'def parse_macro(')]),
        ("special-variables", [("root", "docs/templates.rst", 903, 915, 'Inside macros, you have access to three special variables:'),
                              ("lib", "runtime.py", 769, 814, 'found_caller = False')]),
        ("call-blocks", [("root", "docs/templates.rst", 944, 987, 'Call'),
                        ("lib", "parser.py", 422, 435, 'def parse_call_block(')]),
        ("filter-sections", [("root", "docs/templates.rst", 990, 1001, 'Filters'),
                            ("lib", "parser.py", 437, 441, 'def parse_filter_block('),
                            ("lib", "compiler.py", 1335, 1344, 'def visit_FilterBlock(')]),
        ("importing-macros", [("root", "docs/templates.rst", 1155, 1213, 'Import'),
                             ("lib", "parser.py", 360, 404, 'def parse_from('),
                             ("lib", "compiler.py", 1107, 1155, 'def visit_FromImport(')]),
        ("import-context", [("root", "docs/templates.rst", 1215, 1246, 'Import Context Behavior'),
                           ("lib", "parser.py", 329, 339, 'def parse_import_context(')]),
    ]),
    ("inheritance-and-includes", "usage/inheritance-and-includes.md", [
        ("base-and-child", [("root", "docs/templates.rst", 372, 403, 'Base Template'),
                           ("root", "docs/templates.rst", 405, 442, 'Child Template'),
                           ("lib", "compiler.py", 987, 1028, 'def visit_Extends(')]),
        ("block-rules", [("root", "docs/templates.rst", 444, 455, "You can't define multiple ``{% block %}`` tags"),
                        ("root", "docs/templates.rst", 507, 519, 'Named Block End-Tags'),
                        ("lib", "parser.py", 294, 309, 'def parse_block(')]),
        ("super-blocks", [("root", "docs/templates.rst", 459, 469, 'Super Blocks'),
                         ("root", "docs/templates.rst", 472, 504, 'Nesting extends')]),
        ("scoped-blocks", [("root", "docs/templates.rst", 522, 545, 'Block Nesting and Scope'),
                          ("lib", "compiler.py", 944, 985, 'def visit_Block(self, node: nodes.Block, frame: Frame)')]),
        ("required-blocks", [("root", "docs/templates.rst", 548, 584, 'Required Blocks'),
                            ("lib", "parser.py", 311, 319, '# enforce that required blocks'),
                            ("lib", "compiler.py", 944, 985, 'def visit_Block(self, node: nodes.Block, frame: Frame)')]),
        ("include", [("root", "docs/templates.rst", 1113, 1153, 'Include'),
                    ("root", "docs/templates.rst", 587, 609, 'Template Objects'),
                    ("lib", "compiler.py", 1030, 1079, 'def visit_Include(')]),
    ]),
    ("builtin-filters-and-tests", "usage/builtin-filters-and-tests.md", [
        ("default-filter", [("lib", "filters.py", 528, 558, 'def do_default(')]),
        ("string-filters", [("lib", "filters.py", 856, 900, 'def do_truncate('),
                           ("lib", "filters.py", 1000, 1025, 'def do_format('),
                           ("lib", "filters.py", 686, 697, 'def do_filesizeformat(')]),
        ("sequence-filters", [("lib", "filters.py", 338, 376, 'def do_dictsort('),
                             ("lib", "filters.py", 380, 432, 'def do_sort('),
                             ("lib", "filters.py", 635, 671, 'def sync_do_first(')]),
        ("groupby-map-select", [("lib", "filters.py", 1184, 1239, 'def sync_do_groupby('),
                               ("lib", "filters.py", 1407, 1453, 'def sync_do_map('),
                               ("lib", "filters.py", 1493, 1520, 'def sync_do_select(')]),
        ("number-and-output-filters", [("lib", "filters.py", 1130, 1167, 'def do_round('),
                                      ("lib", "filters.py", 1648, 1673, 'def do_tojson('),
                                      ("lib", "filters.py", 967, 986, 'def do_int(')]),
        ("builtin-tests", [("lib", "tests.py", 215, 255, 'TESTS = {'),
                          ("lib", "tests.py", 29, 43, 'def test_defined('),
                          ("lib", "tests.py", 52, 66, 'def test_filter(')]),
        ("global-functions", [("root", "docs/templates.rst", 1522, 1561, 'List of Global Functions'),
                             ("root", "docs/templates.rst", 1564, 1608, '.. class:: cycler('),
                             ("lib", "defaults.py", 29, 48, 'DEFAULT_NAMESPACE = {')]),
    ]),
    ("custom-filters-and-tests", "usage/custom-filters-and-tests.md", [
        ("custom-filters", [("root", "docs/api.rst", 654, 681, 'Custom Filters')]),
        ("custom-tests", [("root", "docs/api.rst", 720, 772, 'Custom Tests')]),
        ("pass-decorators", [("root", "docs/api.rst", 684, 691, 'Some decorators are available to tell Jinja'),
                            ("lib", "utils.py", 30, 74, 'def pass_context(f: F) -> F:'),
                            ("lib", "utils.py", 77, 100, 'class _PassArg(')]),
        ("eval-context", [("root", "docs/api.rst", 774, 833, 'Evaluation Context'),
                         ("lib", "nodes.py", 69, 89, 'class EvalContext:')]),
        ("globals", [("root", "docs/api.rst", 845, 871, 'The Global Namespace'),
                    ("lib", "environment.py", 1094, 1114, 'def make_globals(')]),
        ("call-filter", [("lib", "environment.py", 482, 534, 'def _filter_test_common('),
                        ("lib", "environment.py", 536, 555, 'def call_filter(')]),
    ]),
    ("autoescaping", "usage/autoescaping.md", [
        ("autoescape-option", [("lib", "utils.py", 648, 701, 'def select_autoescape('),
                              ("root", "docs/api.rst", 223, 263, 'Autoescaping')]),
        ("manual-escaping", [("root", "docs/templates.rst", 612, 630, 'HTML Escaping'),
                            ("root", "docs/templates.rst", 632, 641, 'Working with Manual Escaping'),
                            ("lib", "filters.py", 189, 194, 'def do_forceescape(')]),
        ("markup-and-safe", [("root", "docs/templates.rst", 643, 670, 'Working with Automatic Escaping'),
                            ("lib", "filters.py", 1317, 1321, 'def do_mark_safe(')]),
        ("autoescape-block", [("root", "docs/templates.rst", 1882, 1905, 'Autoescape Overrides'),
                             ("lib", "parser.py", 288, 292, 'def parse_autoescape('),
                             ("lib", "ext.py", 611, 619, 'class AutoEscapeExtension')]),
        ("json-and-deprecations", [("lib", "utils.py", 704, 741, 'def htmlsafe_json_dumps('),
                                  ("lib", "utils.py", 836, 854, 'class Markup(markupsafe.Markup):')]),
    ]),
    ("sandbox", "usage/sandbox.md", [
        ("sandboxed-environment", [("lib", "sandbox.py", 187, 200, 'class SandboxedEnvironment'),
                                  ("lib", "sandbox.py", 125, 159, 'def is_internal_attribute('),
                                  ("lib", "sandbox.py", 258, 265, 'def is_safe_attribute(')]),
        ("security-errors", [("root", "docs/sandbox.rst", 1, 15, 'Sandbox'),
                            ("lib", "sandbox.py", 338, 346, 'def unsafe_undefined('),
                            ("lib", "sandbox.py", 267, 276, 'def is_safe_callable(')]),
        ("range-and-format", [("lib", "sandbox.py", 97, 109, 'def safe_range('),
                             ("lib", "sandbox.py", 348, 375, 'def format_string('),
                             ("lib", "sandbox.py", 409, 424, 'class SandboxedFormatter')]),
        ("immutable-sandbox", [("lib", "sandbox.py", 396, 406, 'class ImmutableSandboxedEnvironment'),
                              ("lib", "sandbox.py", 162, 184, 'def modifies_known_mutable('),
                              ("lib", "sandbox.py", 40, 80, '_mutable_spec:')]),
        ("operator-intercepting", [("root", "docs/sandbox.rst", 52, 94, 'Operator Intercepting'),
                                  ("lib", "sandbox.py", 221, 250, '#: a set of binary operators that should'),
                                  ("lib", "sandbox.py", 278, 287, 'def call_binop(')]),
        ("sandbox-limits", [("root", "docs/sandbox.rst", 37, 50, '.. admonition:: Note')]),
    ]),
    ("async-native-and-streaming", "usage/async-native-and-streaming.md", [
        ("enable-async", [("root", "docs/api.rst", 499, 535, 'Async Support'),
                         ("lib", "environment.py", 1256, 1291, 'def render(self')]),
        ("render-async", [("lib", "environment.py", 1293, 1312, 'async def render_async('),
                         ("lib", "environment.py", 1350, 1367, 'async def generate_async('),
                         ("root", "docs/api.rst", 527, 532, 'Awaitable objects can be returned from functions')]),
        ("async-filters", [("lib", "async_utils.py", 11, 44, 'def async_variant('),
                          ("lib", "async_utils.py", 50, 75, 'async def auto_await(value: t.Union[t.Aw')]),
        ("streaming", [("lib", "environment.py", 1320, 1348, 'def generate(self'),
                      ("lib", "environment.py", 1568, 1618, 'class TemplateStream:'),
                      ("lib", "environment.py", 1644, 1650, 'def enable_buffering(')]),
        ("native-environment", [("root", "docs/nativetypes.rst", 5, 56, 'Native Python Types'),
                               ("lib", "nativetypes.py", 85, 92, 'class NativeEnvironment')]),
        ("native-concat", [("lib", "nativetypes.py", 15, 44, 'def native_concat('),
                          ("lib", "nativetypes.py", 47, 82, 'class NativeCodeGenerator'),
                          ("lib", "nativetypes.py", 91, 124, 'class NativeTemplate')]),
    ]),
    ("extensions", "usage/extensions.md", [
        ("adding-extensions", [("root", "docs/extensions.rst", 11, 26, 'Adding Extensions'),
                              ("root", "docs/extensions.rst", 201, 253, 'Expression Statement'),
                              ("lib", "ext.py", 622, 659, 'class DebugExtension')]),
        ("i18n-setup", [("lib", "ext.py", 246, 267, 'class InternationalizationExtension'),
                       ("root", "docs/extensions.rst", 43, 96, 'Environment Methods'),
                       ("root", "docs/extensions.rst", 144, 183, 'New Style Gettext')]),
        ("trans-blocks", [("root", "docs/templates.rst", 1663, 1722, 'i18n'),
                         ("lib", "ext.py", 473, 508, 'def _parse_block(')]),
        ("writing-extensions", [("lib", "ext.py", 55, 114, 'class Extension:'),
                               ("root", "docs/extensions.rst", 259, 274, 'Writing Extensions'),
                               ("root", "docs/extensions.rst", 280, 308, 'Cache')]),
    ]),
    ("design-questions", "faq/design-questions.md", [
        ("why-not-default", [("root", "docs/faq.rst", 89, 111, 'Why is Autoescaping not the Default?'),
                            ("root", "docs/api.rst", 67, 71, '.. admonition:: Notes on Autoescaping')]),
        ("macros-overridden", [("root", "docs/faq.rst", 149, 175, 'My Macros are overridden by something'),
                              ("root", "docs/faq.rst", 113, 126, 'Why is the Context immutable?')]),
    ]),
    ("recipes", "faq/recipes.md", [
        ("meta-api", [("lib", "meta.py", 33, 54, 'def find_undeclared_variables('),
                     ("lib", "meta.py", 61, 111, 'def find_referenced_templates('),
                     ("root", "docs/api.rst", 919, 931, 'The Meta API')]),
        ("template-tricks", [("root", "docs/tricks.rst", 12, 34, 'Null-Default Fallback'),
                            ("root", "docs/tricks.rst", 53, 83, 'Highlighting Active Menu Items'),
                            ("root", "docs/tricks.rst", 85, 100, 'Accessing the parent Loop')]),
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
                out += [f"          - source_ref: repo:jinja/{module}",
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

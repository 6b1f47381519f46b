#!/usr/bin/env python3
"""Writes ws/knowledge/structure.yaml for the dotenv corpus from the reference table below.

Every reference is (module, path, start, end, anchor): module "lib" (subpath src/dotenv/) or
"root" (the sdist root: README.md, CHANGELOG.md, setup.py, tox.ini, ...), the path inside the
module, the cited line range at the base commit, and a text its first line must hold. The
checks and the digest rule are in the shared writer, ../tools/structure_table.py.

Usage: make-structure.py            (reads repo.git next to this script, writes ws/...)
The prose of the pages is hand-written; this script only computes the structure file.
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tools"))
from structure_table import write_structure  # noqa: E402  (the shared writer, ../tools)

BASE = "7061aa6aad6633283955af9d69b1997770c4fcbd"
SUBPATH = {"lib": "src/dotenv", "root": ""}

# article_id, path under knowledge/, then the sections in page order with their references.
ARTICLES = [
    ('overview', 'architecture/overview.md', [
        ('package-layout', [('lib', 'main.py', 1, 20, 'import io'),
                            ('lib', '__init__.py', 1, 9, 'from typing import Any')]),
        ('public-api', [('lib', '__init__.py', 12, 49, 'def get_cli_string('),
                        ('lib', '__init__.py', 1, 9, 'from typing import Any')]),
        ('packaging-and-extras', [('root', 'setup.py', 19, 43, 'setup(')]),
        ('python-support', [('root', 'CHANGELOG.md', 8, 34, '## [0.19.2]'),
                            ('root', 'setup.py', 35, 60, 'python_requires'),
                            ('lib', 'main.py', 15, 21, 'logger = logging.getLogger')]),
        ('types', [('lib', 'main.py', 300, 307, 'def load_dotenv('),
                   ('lib', 'main.py', 335, 341, 'def dotenv_values('),
                   ('root', 'tox.ini', 24, 37, '[testenv:lint]')]),
    ]),
    ('parser', 'architecture/parser.md', [
        ('reader-and-position', [('lib', 'parser.py', 47, 62, 'class Position:'),
                                 ('lib', 'parser.py', 69, 102, 'class Reader:')]),
        ('bindings', [('lib', 'parser.py', 28, 44, 'Original = NamedTuple('),
                      ('lib', 'parser.py', 142, 168, 'def parse_binding(')]),
        ('parse-binding-steps', [('lib', 'parser.py', 142, 168, 'def parse_binding('),
                                 ('lib', 'parser.py', 11, 25, '_newline = '),
                                 ('lib', 'parser.py', 112, 120, 'def parse_key(')]),
        ('value-tokens', [('lib', 'parser.py', 105, 139, 'def decode_escapes('),
                          ('lib', 'parser.py', 15, 25, '_single_quoted_key')]),
        ('error-recovery', [('lib', 'parser.py', 169, 182, 'except Error:'),
                            ('lib', 'main.py', 23, 30, 'def with_warn_for_invalid_lines'),
                            ('root', 'CHANGELOG.md', 139, 146, '## [0.10.5]')]),
    ]),
    ('dotenv-class', 'architecture/dotenv-class.md', [
        ('constructor', [('lib', 'main.py', 33, 49, 'class DotEnv'),
                         ('lib', 'main.py', 300, 332, 'def load_dotenv(')]),
        ('choosing-the-input', [('lib', 'main.py', 51, 64, '@contextmanager')]),
        ('dict-and-parse', [('lib', 'main.py', 66, 84, 'def dict(')]),
        ('set-as-environment-variables', [('lib', 'main.py', 86, 96, 'def set_as_environment_variables'),
                                          ('lib', 'main.py', 321, 332, 'if dotenv_path is None and stream is None:')]),
        ('get-one-key', [('lib', 'main.py', 98, 118, 'def get(')]),
    ]),
    ('interpolation', 'architecture/interpolation.md', [
        ('posix-pattern', [('lib', 'variables.py', 1, 15, 'import re')]),
        ('atoms', [('lib', 'variables.py', 18, 69, 'class Atom'),
                   ('lib', 'variables.py', 72, 88, 'def parse_variables(')]),
        ('resolve-variables', [('lib', 'main.py', 216, 238, 'def resolve_variables(')]),
        ('override-precedence', [('lib', 'main.py', 222, 236, 'for (name, value) in values:'),
                                 ('root', 'CHANGELOG.md', 65, 71, '## [0.16.0]'),
                                 ('root', 'CHANGELOG.md', 92, 102, '## [0.14.0]')]),
    ]),
    ('file-rewriting', 'architecture/file-rewriting.md', [
        ('rewrite-context-manager', [('lib', 'main.py', 121, 135, '@contextmanager')]),
        ('failure-cleanup', [('lib', 'main.py', 121, 135, '@contextmanager'),
                             ('lib', 'main.py', 300, 307, 'def load_dotenv(')]),
        ('preserving-lines', [('lib', 'main.py', 168, 183, 'with rewrite(dotenv_path) as (source, dest):'),
                              ('lib', 'main.py', 201, 213, 'removed = False')]),
    ]),
    ('cli-internals', 'architecture/cli-internals.md', [
        ('guarded-import', [('lib', 'cli.py', 1, 14, 'import os')]),
        ('group-and-context', [('lib', 'cli.py', 17, 34, '@click.group()')]),
        ('subcommands-to-library', [('lib', 'cli.py', 37, 65, '@cli.command()'),
                                    ('lib', 'cli.py', 68, 97, '@cli.command()')]),
        ('run-command', [('lib', 'cli.py', 100, 126, '@cli.command(context_settings'),
                         ('lib', 'cli.py', 129, 160, 'def run_command(')]),
    ]),
    ('getting-started', 'usage/getting-started.md', [
        ('install-and-load', [('root', 'README.md', 22, 45, '## Getting Started'),
                              ('root', 'README.md', 1, 8, '# python-dotenv')]),
        ('project-layout', [('root', 'README.md', 47, 54, 'To configure the development'),
                            ('root', 'README.md', 65, 72, 'If you use variables'),
                            ('lib', 'main.py', 259, 297, 'def find_dotenv(')]),
        ('first-env-file', [('root', 'README.md', 56, 72, 'The syntax of')]),
        ('values-are-strings', [('lib', 'main.py', 86, 96, 'def set_as_environment_variables'),
                                ('lib', 'main.py', 335, 341, 'def dotenv_values(')]),
    ]),
    ('load-dotenv', 'usage/load-dotenv.md', [
        ('signature', [('lib', 'main.py', 300, 332, 'def load_dotenv(')]),
        ('override', [('lib', 'main.py', 86, 96, 'def set_as_environment_variables'),
                      ('root', 'README.md', 183, 201, '### Variable expansion')]),
        ('missing-file-and-return', [('lib', 'main.py', 51, 64, '@contextmanager'),
                                     ('lib', 'main.py', 86, 96, 'def set_as_environment_variables')]),
        ('encoding', [('lib', 'main.py', 51, 55, '@contextmanager'),
                      ('root', 'CHANGELOG.md', 65, 71, '## [0.16.0]')]),
        ('disable-interpolation', [('lib', 'main.py', 66, 78, 'def dict('),
                                   ('root', 'CHANGELOG.md', 123, 137, '## [0.11.0]')]),
        ('several-files', [('lib', 'main.py', 86, 96, 'def set_as_environment_variables'),
                           ('lib', 'main.py', 321, 332, 'if dotenv_path is None and stream is None:')]),
    ]),
    ('dotenv-values', 'usage/dotenv-values.md', [
        ('signature', [('lib', 'main.py', 335, 364, 'def dotenv_values(')]),
        ('expansion-in-values', [('lib', 'main.py', 354, 364, 'if dotenv_path is None and stream is None:'),
                                 ('root', 'README.md', 183, 193, '### Variable expansion')]),
        ('keys-without-values', [('lib', 'parser.py', 153, 168, 'reader.read_regex(_export)'),
                                 ('root', 'CHANGELOG.md', 139, 154, '## [0.10.5]'),
                                 ('lib', 'cli.py', 116, 120, 'dotenv_as_dict = {')]),
        ('layering', [('root', 'README.md', 76, 99, '### Load configuration')]),
    ]),
    ('streams', 'usage/streams.md', [
        ('stream-argument', [('root', 'README.md', 101, 114, '### Parse configuration'),
                             ('root', 'CHANGELOG.md', 21, 34, '## [0.19.0]'),
                             ('lib', 'parser.py', 69, 76, 'class Reader:')]),
        ('path-versus-stream', [('lib', 'main.py', 51, 64, '@contextmanager'),
                                ('lib', 'main.py', 308, 322, 'Parse a .env file and then load')]),
        ('streams-in-tests', [('lib', 'main.py', 335, 353, 'def dotenv_values('),
                              ('lib', 'parser.py', 7, 13, 'def make_regex')]),
    ]),
    ('finding-env-files', 'usage/finding-env-files.md', [
        ('parameters', [('lib', 'main.py', 259, 268, 'def find_dotenv('),
                        ('lib', 'main.py', 289, 297, 'for dirname in _walk_to_root(path):')]),
        ('starting-directory', [('lib', 'main.py', 275, 287, 'if usecwd or _is_interactive()')]),
        ('interactive-and-frozen', [('lib', 'main.py', 270, 278, 'def _is_interactive():'),
                                    ('root', 'CHANGELOG.md', 110, 121, '## [0.12.0]')]),
        ('walking-to-root', [('lib', 'main.py', 241, 256, 'def _walk_to_root('),
                             ('lib', 'main.py', 289, 297, 'for dirname in _walk_to_root(path):')]),
    ]),
    ('file-format', 'usage/file-format.md', [
        ('keys-and-assignments', [('root', 'README.md', 154, 162, '## File format'),
                                  ('lib', 'parser.py', 112, 120, 'def parse_key('),
                                  ('lib', 'parser.py', 13, 17, '_whitespace')]),
        ('export-prefix', [('lib', 'parser.py', 14, 20, '_export = make_regex'),
                           ('root', 'README.md', 156, 162, 'The format is not formally'),
                           ('lib', 'main.py', 159, 166, 'if quote:')]),
        ('comments', [('lib', 'parser.py', 123, 139, 'def parse_unquoted_value('),
                      ('lib', 'parser.py', 18, 22, '_single_quoted_value'),
                      ('root', 'CHANGELOG.md', 156, 161, '## 0.10.3')]),
        ('quoted-values-and-escapes', [('root', 'README.md', 159, 167, 'Keys can be unquoted'),
                                       ('lib', 'parser.py', 105, 139, 'def decode_escapes(')]),
        ('multiline-values', [('root', 'README.md', 169, 181, '### Multiline values'),
                              ('lib', 'parser.py', 18, 22, '_single_quoted_value')]),
        ('empty-and-missing-values', [('lib', 'parser.py', 128, 139, 'def parse_value('),
                                      ('lib', 'parser.py', 142, 168, 'def parse_binding('),
                                      ('root', 'CHANGELOG.md', 148, 154, '## [0.10.4]')]),
        ('malformed-lines', [('lib', 'parser.py', 169, 182, 'except Error:'),
                             ('lib', 'main.py', 23, 30, 'def with_warn_for_invalid_lines'),
                             ('root', 'CHANGELOG.md', 139, 146, '## [0.10.5]')]),
    ]),
    ('variable-expansion', 'usage/variable-expansion.md', [
        ('syntax', [('root', 'README.md', 56, 67, 'The syntax of'),
                    ('lib', 'variables.py', 1, 15, 'import re')]),
        ('defaults', [('lib', 'variables.py', 50, 69, 'class Variable(Atom):'),
                      ('root', 'CHANGELOG.md', 104, 108, '## [0.13.0]')]),
        ('precedence-override-true', [('root', 'README.md', 185, 193, 'Python-dotenv can interpolate'),
                                      ('root', 'CHANGELOG.md', 92, 102, '## [0.14.0]')]),
        ('precedence-override-false', [('root', 'README.md', 195, 201, 'With `load_dotenv(override=False)`'),
                                       ('lib', 'main.py', 216, 238, 'def resolve_variables(')]),
        ('disabling-expansion', [('lib', 'main.py', 66, 78, 'def dict('),
                                 ('lib', 'main.py', 112, 118, 'def get_key(')]),
    ]),
    ('set-and-unset-keys', 'usage/set-and-unset-keys.md', [
        ('get-key', [('lib', 'main.py', 98, 118, 'def get(')]),
        ('set-key', [('lib', 'main.py', 138, 183, 'def set_key(')]),
        ('quote-modes', [('lib', 'main.py', 151, 166, 'if quote_mode not in'),
                         ('root', 'CHANGELOG.md', 36, 47, '## [0.18.0]')]),
        ('export-and-newline', [('lib', 'main.py', 159, 183, 'if quote:'),
                                ('root', 'CHANGELOG.md', 8, 13, '## [0.19.2]')]),
        ('unset-key', [('lib', 'main.py', 186, 213, 'def unset_key(')]),
    ]),
    ('cli', 'usage/cli.md', [
        ('installing', [('lib', 'cli.py', 1, 14, 'import os'),
                        ('root', 'README.md', 137, 152, '## Command-line Interface'),
                        ('root', 'setup.py', 36, 42, 'extras_require')]),
        ('global-options', [('lib', 'cli.py', 17, 34, '@click.group()')]),
        ('list-and-get', [('lib', 'cli.py', 37, 49, '@cli.command()'),
                          ('lib', 'cli.py', 68, 83, '@cli.command()'),
                          ('root', 'CHANGELOG.md', 55, 63, '## [0.17.0]')]),
        ('set-and-unset', [('lib', 'cli.py', 52, 65, '@cli.command()'),
                           ('lib', 'cli.py', 86, 97, '@cli.command()'),
                           ('root', 'CHANGELOG.md', 73, 90, '## [0.15.0]')]),
        ('run', [('lib', 'cli.py', 100, 126, '@cli.command(context_settings'),
                 ('lib', 'cli.py', 129, 160, 'def run_command(')]),
        ('run-override', [('lib', 'cli.py', 100, 120, '@cli.command(context_settings'),
                          ('root', 'CHANGELOG.md', 55, 63, '## [0.17.0]')]),
    ]),
    ('ipython', 'usage/ipython.md', [
        ('loading-the-extension', [('root', 'README.md', 116, 135, '### Load .env files in IPython'),
                                   ('lib', '__init__.py', 1, 9, 'from typing import Any'),
                                   ('lib', 'ipython.py', 34, 39, 'load_dotenv(dotenv_path')]),
        ('arguments-and-flags', [('lib', 'ipython.py', 8, 24, '@magics_class')]),
        ('search-and-errors', [('lib', 'ipython.py', 23, 34, 'def dotenv(self, line):')]),
    ]),
    ('logging', 'usage/logging.md', [
        ('logger-and-levels', [('lib', 'main.py', 15, 30, 'logger = logging.getLogger'),
                               ('root', 'CHANGELOG.md', 123, 137, '## [0.11.0]')]),
        ('message-list', [('lib', 'main.py', 23, 30, 'def with_warn_for_invalid_lines'),
                          ('lib', 'main.py', 56, 64, 'elif self.stream is not None:'),
                          ('lib', 'main.py', 197, 213, 'if not os.path.exists(dotenv_path):')]),
        ('silencing', [('lib', 'main.py', 15, 21, 'logger = logging.getLogger'),
                       ('lib', 'main.py', 289, 297, 'for dirname in _walk_to_root(path):')]),
    ]),
    ('troubleshooting', 'faq/troubleshooting.md', [
        ('values-not-loaded', [('lib', 'main.py', 259, 297, 'def find_dotenv('),
                               ('lib', 'main.py', 51, 64, '@contextmanager')]),
        ('values-not-overridden', [('root', 'README.md', 37, 45, 'from dotenv import load_dotenv'),
                                   ('lib', 'cli.py', 100, 120, '@cli.command(context_settings')]),
        ('dollar-not-expanded', [('root', 'README.md', 56, 67, 'The syntax of'),
                                 ('lib', 'variables.py', 1, 15, 'import re'),
                                 ('lib', 'main.py', 216, 238, 'def resolve_variables(')]),
        ('parse-warning', [('lib', 'main.py', 23, 30, 'def with_warn_for_invalid_lines'),
                           ('lib', 'parser.py', 169, 182, 'except Error:')]),
        ('cli-missing', [('lib', 'cli.py', 1, 14, 'import os'),
                         ('root', 'setup.py', 36, 42, 'extras_require')]),
        ('per-environment-files', [('root', 'README.md', 76, 99, '### Load configuration'),
                                   ('lib', 'main.py', 259, 268, 'def find_dotenv(')]),
    ]),
    ('version-history', 'faq/version-history.md', [
        ('release-0-19', [('root', 'CHANGELOG.md', 8, 34, '## [0.19.2]')]),
        ('release-0-17-0-18', [('root', 'CHANGELOG.md', 36, 63, '## [0.18.0]')]),
        ('release-0-15-0-16', [('root', 'CHANGELOG.md', 65, 90, '## [0.16.0]')]),
        ('release-0-11-to-0-14', [('root', 'CHANGELOG.md', 92, 137, '## [0.14.0]')]),
        ('release-0-10', [('root', 'CHANGELOG.md', 139, 182, '## [0.10.5]')]),
    ]),
    ('about', 'faq/about.md', [
        ('maintainers-and-licence', [('root', 'README.md', 215, 220, '## Acknowledgements'),
                                     ('root', 'LICENSE', 1, 16, 'python-dotenv'),
                                     ('root', 'setup.py', 43, 60, "license='BSD-3-Clause'")]),
        ('contributing-and-tests', [('root', 'CONTRIBUTING.md', 1, 17, 'Contributing'),
                                    ('root', 'tox.ini', 1, 37, '[tox]')]),
        ('related-projects', [('root', 'README.md', 203, 213, '## Related Projects')]),
    ]),
]

if __name__ == "__main__":
    write_structure(HERE, "dotenv", BASE, SUBPATH, ARTICLES)

#!/usr/bin/env python3
"""Writes ws/knowledge/structure.yaml for the werkzeug corpus from the reference table below.

Every reference is (module, path, start, end, anchor): module "root" (the sdist root: setup.py,
setup.cfg, CHANGES.rst), "src" (subpath src/werkzeug: the package code) or "docs" (subpath
docs/: the reStructuredText documentation shipped in the sdist), the path inside the module, the
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

BASE = "a6dc1f9a11148e4631d0f93fb4c3386da1998ae0"
SUBPATH = {"root": "", "src": "src/werkzeug", "docs": "docs"}

# article_id, path under knowledge/, then the sections in page order with their references.
ARTICLES = [
    ('overview', 'architecture/overview.md', [
        ('package-layout', [('root', 'setup.py', 1, 8, 'from setuptools import setup'),
                            ('root', 'setup.cfg', 34, 42, '[options]'),
                            ('src', '__init__.py', 1, 6, 'from .serving import run_simple')]),
        ('sansio-split', [('src', 'sansio/request.py', 38, 60, 'class Request:'),
                          ('src', 'sansio/request.py', 119, 151, '    def __init__(')]),
        ('context-locals', [('src', 'local.py', 472, 520, '    def __init__('),
                            ('src', 'local.py', 33, 62, 'class Local:')]),
        ('wsgi-helpers', [('src', 'wsgi.py', 136, 171, 'def get_input_stream('),
                          ('src', 'wsgi.py', 174, 196, 'def get_query_string(')]),
    ]),
    ('dev-server', 'architecture/dev-server.md', [
        ('run-simple', [('src', 'serving.py', 1019, 1069, 'if not isinstance(port, int):')]),
        ('server-classes', [('src', 'serving.py', 853, 896, 'def make_server('),
                            ('src', 'serving.py', 815, 851, 'class ThreadedWSGIServer'),
                            ('src', 'serving.py', 675, 682, 'If the handler doesn')]),
        ('binding', [('src', 'serving.py', 688, 735, 'self.address_family = address_family'),
                     ('src', 'serving.py', 780, 812, '    def log_startup(self)')]),
        ('request-handler', [('src', 'serving.py', 159, 211, '    def make_environ(self)'),
                             ('src', 'serving.py', 212, 240, 'if environ.get("HTTP_TRANSFER_ENCODING"'),
                             ('src', 'serving.py', 272, 288, '                if (')]),
        ('tls', [('src', 'serving.py', 549, 597, 'def generate_adhoc_ssl_context()'),
                 ('src', 'serving.py', 459, 475, 'def generate_adhoc_ssl_pair(')]),
        ('reloader', [('src', '_reloader.py', 257, 278, '    def restart_with_reloader(self)'),
                      ('src', '_reloader.py', 385, 395, 'reloader_loops: t.Dict'),
                      ('src', '_reloader.py', 417, 446, 'def run_with_reloader(')]),
        ('watched-files', [('src', '_reloader.py', 63, 114, 'def _find_stat_paths('),
                           ('src', '_reloader.py', 304, 336, 'class WatchdogReloaderLoop')]),
    ]),
    ('debugger', 'architecture/debugger.md', [
        ('debugged-application', [('src', 'debug/__init__.py', 263, 297, '    def __init__('),
                                  ('src', 'debug/__init__.py', 318, 364, '    def debug_application(')]),
        ('debugger-commands', [('src', 'debug/__init__.py', 499, 533, '    def __call__('),
                               ('src', 'debug/__init__.py', 381, 411, '    def display_console(')]),
        ('pin-generation', [('src', 'debug/__init__.py', 137, 196, 'def get_pin_and_cookie_name('),
                            ('src', 'debug/__init__.py', 47, 80, 'def get_machine_id()')]),
        ('pin-auth', [('src', 'debug/__init__.py', 413, 468, '    def check_pin_trust('),
                      ('docs', 'debug.rst', 72, 93, 'Debugger PIN')]),
    ]),
    ('routing-internals', 'architecture/routing-internals.md', [
        ('map-and-rules', [('src', 'routing/map.py', 94, 130, '    def __init__('),
                           ('src', 'routing/rules.py', 439, 490, '    def __init__(')]),
        ('state-machine', [('src', 'routing/matcher.py', 31, 60, 'class StateMachineMatcher:'),
                           ('src', 'routing/matcher.py', 158, 192, '        try:')]),
        ('match-outcomes', [('src', 'routing/map.py', 583, 640, '        self.map.update()')]),
        ('building', [('src', 'routing/map.py', 901, 944, '        self.map.update()'),
                      ('src', 'routing/exceptions.py', 105, 134, '    def __str__(self)')]),
    ]),
    ('routing', 'usage/routing.md', [
        ('converters', [('src', 'routing/converters.py', 119, 165, 'class NumberConverter'),
                        ('src', 'routing/converters.py', 249, 257, 'DEFAULT_CONVERTERS'),
                        ('docs', 'routing.rst', 68, 89, 'Rule Format')]),
        ('custom-converters', [('src', 'routing/converters.py', 11, 34, 'class ValidationError'),
                               ('docs', 'routing.rst', 156, 183, 'Custom Converters')]),
        ('binding', [('src', 'routing/map.py', 219, 245, 'server_name = server_name.lower()'),
                     ('src', 'routing/map.py', 315, 337, '        if subdomain is None and not self.host_matching:'),
                     ('src', 'routing/map.py', 455, 465, '        try:')]),
        ('slashes-and-redirects', [('src', 'routing/exceptions.py', 25, 44, 'class RequestRedirect'),
                                   ('docs', 'routing.rst', 77, 88, 'Rules that end with a slash')]),
        ('hosts-and-factories', [('src', 'routing/rules.py', 171, 221, 'class Submount'),
                                 ('docs', 'routing.rst', 220, 245, 'Host Matching')]),
    ]),
    ('requests', 'usage/requests.md', [
        ('request-basics', [('src', 'wrappers/request.py', 162, 199, '    def application('),
                            ('src', 'wrappers/request.py', 440, 467, '    def values(self)')]),
        ('host-and-remote', [('src', 'sansio/utils.py', 56, 100, 'def get_host('),
                             ('src', 'sansio/request.py', 188, 245, '    def access_route(self)')]),
        ('form-and-files', [('src', 'wrappers/request.py', 235, 290, '    def want_form_data_parsed(self)'),
                            ('src', 'formparser.py', 58, 71, 'def default_stream_factory(')]),
        ('raw-body', [('src', 'wrappers/request.py', 322, 362, '    def stream(self)'),
                      ('src', 'wrappers/request.py', 382, 419, '    def get_data(')]),
        ('json', [('src', 'wrappers/request.py', 586, 634, 'if cache and self._cached_json[silent]'),
                  ('src', 'sansio/request.py', 538, 547, '    def is_json(self)')]),
        ('limits', [('src', 'wrappers/request.py', 64, 91, '#: the maximum content length'),
                    ('docs', 'request_data.rst', 73, 96, 'Limiting Request Data'),
                    ('src', 'formparser.py', 252, 273, '        if (')]),
    ]),
    ('responses', 'usage/responses.md', [
        ('response-basics', [('src', 'sansio/response.py', 110, 150, '    def __init__('),
                             ('src', 'sansio/response.py', 159, 191, '    def status(self, value')]),
        ('bodies-and-streaming', [('src', 'wrappers/response.py', 32, 45, 'def _warn_if_string('),
                                  ('src', 'wrappers/response.py', 353, 377, '    def _ensure_sequence(')]),
        ('wsgi-headers', [('src', 'wrappers/response.py', 521, 569, '        if location is not None:'),
                          ('src', 'wrappers/response.py', 143, 160, '    implicit_sequence_conversion = True'),
                          ('src', 'wrappers/response.py', 585, 598, '        status = self.status_code')]),
        ('cookies', [('src', 'sansio/response.py', 192, 243, '    def set_cookie('),
                     ('src', 'http.py', 1247, 1303, '    if samesite is not None:')]),
        ('conditional', [('src', 'wrappers/response.py', 803, 840, '        environ = _get_environ(request_or_environ)'),
                         ('src', 'wrappers/response.py', 757, 762, '    def make_conditional(')]),
    ]),
    ('datastructures', 'usage/datastructures.md', [
        ('multidict', [('src', 'datastructures.py', 238, 269, '    def get(self, key, default=None, type=None):'),
                       ('src', 'datastructures.py', 363, 420, '    def __getitem__(self, key):')]),
        ('immutable-variants', [('src', 'datastructures.py', 1405, 1443, 'class CombinedMultiDict'),
                                ('src', 'exceptions.py', 188, 220, 'class BadRequestKeyError')]),
        ('headers', [('src', 'datastructures.py', 890, 907, '    def __getitem__(self, key, _get_mode=False):'),
                     ('src', 'datastructures.py', 1090, 1121, '    def add(self, _key, _value, **kw):'),
                     ('src', 'datastructures.py', 1354, 1380, 'class EnvironHeaders')]),
        ('file-storage', [('src', 'datastructures.py', 2894, 2940, 'class FileStorage'),
                          ('src', 'datastructures.py', 2978, 3019, '    def save(self, dst')]),
        ('accept-headers', [('src', 'datastructures.py', 1629, 1660, 'class Accept(ImmutableList)'),
                            ('src', 'datastructures.py', 1888, 1935, '    def best_match(self, matches')]),
    ]),
    ('exceptions', 'usage/exceptions.md', [
        ('http-exception', [('src', 'exceptions.py', 64, 110, 'class HTTPException(Exception):'),
                            ('src', 'exceptions.py', 144, 172, '        from .wrappers.response import Response as WSGIResponse')]),
        ('abort', [('src', 'exceptions.py', 833, 884, 'class Aborter:'),
                   ('src', 'exceptions.py', 812, 831, 'default_exceptions: t.Dict')]),
        ('exception-arguments', [('src', 'exceptions.py', 354, 389, 'class MethodNotAllowed'),
                                 ('src', 'exceptions.py', 633, 667, 'class _RetryAfter')]),
        ('bad-request-family', [('src', 'exceptions.py', 222, 250, 'class ClientDisconnected'),
                                ('src', 'exceptions.py', 477, 487, 'class RequestEntityTooLarge')]),
    ]),
    ('files-and-redirects', 'usage/files-and-redirects.md', [
        ('redirect', [('src', 'utils.py', 244, 291, 'def redirect('),
                      ('src', 'utils.py', 292, 326, 'def append_slash_redirect(')]),
        ('send-file', [('src', 'utils.py', 329, 345, 'def send_file('),
                       ('src', 'utils.py', 446, 500, '    if download_name is None and path is not None:')]),
        ('send-file-caching', [('src', 'utils.py', 499, 546, '    rv = response_class(')]),
        ('send-from-directory', [('src', 'utils.py', 549, 592, 'def send_from_directory(')]),
        ('secure-filename', [('src', 'utils.py', 197, 241, 'def secure_filename('),
                             ('src', 'utils.py', 49, 80, 'class cached_property(')]),
    ]),
    ('security', 'usage/security.md', [
        ('password-hash', [('src', 'security.py', 27, 58, 'def _hash_internal('),
                           ('src', 'security.py', 60, 89, 'def generate_password_hash(')]),
        ('check-password', [('src', 'security.py', 92, 107, 'def check_password_hash('),
                            ('src', 'security.py', 11, 24, 'SALT_CHARS = ')]),
        ('safe-join', [('src', 'security.py', 110, 140, 'def safe_join('),
                       ('src', 'utils.py', 575, 592, '    path = safe_join(')]),
    ]),
    ('middleware', 'usage/middleware.md', [
        ('proxy-fix', [('src', 'middleware/proxy_fix.py', 130, 187, '    def __call__('),
                       ('src', 'middleware/proxy_fix.py', 93, 128, '    def __init__('),
                       ('docs', 'deployment/proxy_fix.rst', 1, 33, 'Tell Werkzeug it is Behind a Proxy')]),
        ('shared-data', [('src', 'middleware/shared_data.py', 100, 145, '    def __init__('),
                         ('src', 'middleware/shared_data.py', 224, 280, '    def __call__(')]),
        ('dispatcher', [('src', 'middleware/dispatcher.py', 41, 78, 'class DispatcherMiddleware')]),
        ('profiler-and-lint', [('src', 'middleware/profiler.py', 77, 110, '    def __init__('),
                               ('src', 'middleware/lint.py', 210, 235, 'class LintMiddleware'),
                               ('src', 'middleware/http_proxy.py', 79, 95, '    def __init__(')]),
    ]),
    ('testing', 'usage/testing.md', [
        ('environ-builder', [('src', 'test.py', 360, 419, '    def __init__('),
                             ('src', 'test.py', 422, 431, '        self.closed = False')]),
        ('request-bodies', [('src', 'test.py', 432, 460, '        if json is not None:'),
                            ('src', 'test.py', 737, 760, '    def get_environ(self)')]),
        ('test-client', [('src', 'test.py', 843, 893, 'class Client:'),
                         ('src', 'test.py', 1075, 1100, '        request: t.Optional["Request"] = None')]),
        ('redirects-and-responses', [('src', 'test.py', 1101, 1137, '        if not follow_redirects:'),
                                     ('src', 'test.py', 982, 1031, '        to_name_parts = '),
                                     ('src', 'test.py', 1277, 1300, 'class TestResponse(Response):')]),
    ]),
    ('http-helpers', 'usage/http-helpers.md', [
        ('dates', [('src', 'http.py', 931, 959, 'def parse_date('),
                   ('src', 'http.py', 960, 991, 'def http_date(')]),
        ('header-values', [('src', 'http.py', 390, 410, 'def parse_options_header('),
                           ('src', 'http.py', 273, 306, 'def dump_header('),
                           ('src', 'http.py', 654, 680, 'def parse_authorization_header(')]),
        ('etags', [('src', 'http.py', 854, 892, 'def quote_etag('),
                   ('src', 'http.py', 1034, 1071, 'def is_resource_modified(')]),
        ('cookie-functions', [('src', 'http.py', 1133, 1172, 'def parse_cookie('),
                              ('src', 'http.py', 1173, 1190, 'def dump_cookie(')]),
    ]),
    ('troubleshooting', 'faq/troubleshooting.md', [
        ('address-in-use', [('src', 'serving.py', 707, 735, '        if fd is None:')]),
        ('debugger-pin', [('src', 'debug/__init__.py', 288, 297, '        if pin_security:'),
                          ('src', 'debug/__init__.py', 490, 497, '    def log_pin_request'),
                          ('src', 'debug/shared/debugger.js', 78, 95, 'function promptForPin')]),
        ('reloader-problems', [('docs', 'serving.rst', 39, 71, 'Reloader'),
                               ('src', 'serving.py', 898, 905, 'def is_running_from_reloader')]),
        ('behind-a-proxy', [('docs', 'deployment/nginx.rst', 53, 69, '.. code-block:: nginx'),
                            ('src', 'middleware/proxy_fix.py', 34, 60, 'class ProxyFix:')]),
        ('form-limits', [('src', 'sansio/multipart.py', 192, 202, 'event = Field('),
                         ('src', 'wsgi.py', 155, 171, '    stream = t.cast(t.IO[bytes], environ["wsgi.input"])'),
                         ('root', 'CHANGES.rst', 3, 26, 'Version 2.2.3')]),
        ('bad-request-key', [('src', 'exceptions.py', 174, 220, 'class BadRequest(HTTPException)')]),
    ]),
    ('about-werkzeug', 'faq/about-werkzeug.md', [
        ('requirements', [('docs', 'installation.rst', 5, 38, 'Python Version'),
                          ('root', 'setup.py', 1, 8, 'from setuptools import setup')]),
        ('changes-in-2-2', [('root', 'CHANGES.rst', 68, 99, 'Version 2.2.0'),
                            ('root', 'CHANGES.rst', 30, 50, 'Version 2.2.2')]),
        ('deployment', [('docs', 'deployment/index.rst', 1, 55, 'Deploying to Production')]),
    ]),
]

if __name__ == "__main__":
    write_structure(HERE, "werkzeug", BASE, SUBPATH, ARTICLES)

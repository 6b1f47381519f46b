#!/usr/bin/env python3
"""Writes ws/knowledge/structure.yaml for the flask corpus from the reference table below.

Every reference is (module, path, start, end, anchor): module "root" (the sdist root: setup.py,
setup.cfg, CHANGES.rst), "src" (subpath src/flask: the package code) or "docs" (subpath docs/:
the reStructuredText documentation shipped in the sdist), the path inside the module, the cited
line range at the base commit, and a text its first line must hold. The checks and the digest
rule are in the shared writer, ../tools/structure_table.py.

Usage: make-structure.py            (reads repo.git next to this script, writes ws/...)
The prose of the pages is hand-written; this script only computes the structure file.
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tools"))
from structure_table import write_structure  # noqa: E402  (the shared writer, ../tools)

BASE = "f4a6569b355c594102c2185302c24d060ea024e6"
SUBPATH = {"root": "", "src": "src/flask", "docs": "docs"}

# article_id, path under knowledge/, then the sections in page order with their references.
ARTICLES = [
    ('overview', 'architecture/overview.md', [
        ('package-layout', [('root', 'setup.py', 1, 17, 'from setuptools import setup'),
                            ('root', 'setup.cfg', 34, 46, '[options]')]),
        ('flask-object', [('src', 'app.py', 553, 584, '    def __init__('),
                          ('src', 'app.py', 702, 718, 'if self.has_static_folder:')]),
        ('scaffold', [('src', 'scaffold.py', 45, 55, 'def setupmethod'),
                      ('src', 'scaffold.py', 130, 164, 'self.view_functions: t.Dict'),
                      ('src', 'app.py', 720, 730, 'def _check_setup_finished')]),
        ('global-proxies', [('src', 'globals.py', 47, 105, '_no_app_msg = ')]),
    ]),
    ('request-dispatch', 'architecture/request-dispatch.md', [
        ('wsgi-app', [('src', 'app.py', 2499, 2551, '    def wsgi_app(self, environ')]),
        ('full-dispatch', [('src', 'app.py', 1801, 1826, '    def full_dispatch_request(self)'),
                           ('src', 'app.py', 2293, 2318, '    def preprocess_request(self)')]),
        ('dispatch-request', [('src', 'app.py', 1776, 1800, '    def dispatch_request(self)'),
                              ('src', 'app.py', 1748, 1775, '    def raise_routing_exception'),
                              ('src', 'debughelpers.py', 41, 68, 'class FormDataRoutingRedirect')]),
        ('make-response', [('src', 'app.py', 2056, 2115, '    def make_response(self, rv'),
                           ('src', 'app.py', 2136, 2188, '        # the body must not be None')]),
        ('process-response', [('src', 'app.py', 1828, 1855, '    def finalize_request('),
                              ('src', 'app.py', 2320, 2346, '    def process_response(self, response'),
                              ('src', 'app.py', 2348, 2379, '    def do_teardown_request(')]),
    ]),
    ('contexts', 'architecture/contexts.md', [
        ('app-context', [('src', 'ctx.py', 229, 276, 'class AppContext:'),
                         ('src', 'ctx.py', 25, 64, 'class _AppCtxGlobals:')]),
        ('request-context', [('src', 'ctx.py', 300, 328, '    def __init__('),
                             ('src', 'ctx.py', 346, 383, '    def match_request(self)')]),
        ('popping', [('src', 'ctx.py', 385, 432, '    def pop(self, exc: t.Optional[BaseException] = _sentinel)')]),
        ('context-helpers', [('src', 'ctx.py', 113, 143, 'def after_this_request'),
                             ('src', 'ctx.py', 146, 185, 'def copy_current_request_context'),
                             ('src', 'helpers.py', 84, 143, 'def stream_with_context')]),
    ]),
    ('cli-internals', 'architecture/cli-internals.md', [
        ('script-info', [('src', 'cli.py', 275, 331, '    def __init__(')]),
        ('find-best-app', [('src', 'cli.py', 32, 83, 'def find_best_app(module):')]),
        ('app-strings', [('src', 'cli.py', 111, 170, 'def find_app_by_string'),
                         ('src', 'cli.py', 187, 239, 'def prepare_import(path):')]),
        ('flask-group', [('src', 'cli.py', 510, 547, '    def __init__('),
                         ('src', 'cli.py', 564, 589, '    def get_command(self, ctx, name):'),
                         ('src', 'cli.py', 612, 635, '    def make_context(')]),
    ]),
    ('configuration', 'usage/configuration.md', [
        ('builtin-keys', [('src', 'app.py', 488, 519, '    default_config = ImmutableDict('),
                          ('src', 'app.py', 817, 832, '    def make_config(self')]),
        ('secret-key', [('docs', 'config.rst', 126, 139, '.. py:data:: SECRET_KEY'),
                        ('src', 'sessions.py', 345, 359, '    def get_signing_serializer('),
                        ('src', 'sessions.py', 91, 105, 'class NullSession(SecureCookieSession):')]),
        ('loading-files', [('src', 'config.py', 77, 98, '    def from_envvar('),
                           ('src', 'config.py', 180, 205, '        filename = os.path.join(self.root_path, filename)'),
                           ('src', 'config.py', 261, 271, '        filename = os.path.join(self.root_path, filename)')]),
        ('prefixed-env', [('src', 'config.py', 127, 163, '        prefix = f"{prefix}_"'),
                          ('docs', 'config.rst', 549, 569, 'When adding a boolean value with the default JSON')]),
        ('debug-mode', [('src', 'helpers.py', 47, 68, 'def get_debug_flag() -> bool:'),
                        ('docs', 'config.rst', 48, 60, 'The :data:`DEBUG` config value is special'),
                        ('src', 'app.py', 1048, 1066, '    def debug(self) -> bool:')]),
        ('instance-folder', [('src', 'app.py', 846, 870, '    def auto_find_instance_path(self)'),
                             ('src', 'config.py', 294, 336, '    def get_namespace(')]),
    ]),
    ('routing', 'usage/routing.md', [
        ('route-decorators', [('src', 'scaffold.py', 371, 422, '    def _method_route('),
                              ('src', 'scaffold.py', 423, 453, '    def route(self, rule: str')]),
        ('add-url-rule', [('src', 'app.py', 1309, 1366, '    def add_url_rule('),
                          ('src', 'scaffold.py', 523, 544, '    def endpoint(self, endpoint: str)')]),
        ('converters', [('docs', 'quickstart.rst', 201, 233, 'Converter types:'),
                        ('src', 'app.py', 672, 687, '#: The :class:`~werkzeug.routing.Map` for this instance.')]),
        ('url-for', [('src', 'app.py', 1973, 2031, '        req_ctx = _cv_request.get(None)'),
                     ('src', 'app.py', 2259, 2291, '    def handle_url_build_error(')]),
        ('url-processors', [('src', 'scaffold.py', 646, 683, '    def url_value_preprocessor('),
                            ('src', 'app.py', 2238, 2258, '    def inject_url_defaults(self'),
                            ('docs', 'patterns/urlprocessors.rst', 1, 40, 'Using URL Processors')]),
    ]),
    ('blueprints', 'usage/blueprints.md', [
        ('creating', [('src', 'blueprints.py', 247, 284, '    def __init__('),
                      ('src', 'blueprints.py', 283, 298, '    def _check_setup_finished(self, f_name: str)')]),
        ('registering', [('src', 'blueprints.py', 89, 120, '    def add_url_rule('),
                         ('src', 'blueprints.py', 376, 393, '        name_prefix = options.get("name_prefix", "")'),
                         ('src', 'app.py', 1274, 1300, '    def register_blueprint(self, blueprint')]),
        ('nesting', [('src', 'blueprints.py', 453, 469, '        for blueprint, bp_options in self._blueprints:'),
                     ('src', 'wrappers.py', 95, 110, '    def blueprints(self) -> t.List[str]:'),
                     ('docs', 'blueprints.rst', 123, 147, 'Nesting Blueprints')]),
        ('app-wide-hooks', [('src', 'blueprints.py', 614, 673, '    def before_app_request(self'),
                            ('docs', 'blueprints.rst', 271, 303, 'Blueprint Error Handlers')]),
        ('resources-and-commands', [('docs', 'blueprints.rst', 178, 237, 'Static Files'),
                                    ('src', 'blueprints.py', 441, 451, '        cli_resolved_group = options.get(')]),
    ]),
    ('cli', 'usage/cli.md', [
        ('app-option', [('docs', 'cli.rst', 14, 67, 'Application Discovery'),
                        ('src', 'cli.py', 406, 420, '_app_option = click.Option(')]),
        ('run-command', [('src', 'cli.py', 824, 883, '@click.command("run", short_help='),
                         ('src', 'cli.py', 913, 934, '    debug = get_debug_flag()')]),
        ('shell-and-routes', [('src', 'cli.py', 939, 985, '@click.command("shell", short_help='),
                              ('src', 'cli.py', 988, 1032, '@click.command("routes", short_help=')]),
        ('dotenv', [('docs', 'cli.rst', 151, 183, 'Environment Variables From dotenv'),
                    ('src', 'cli.py', 654, 706, 'def load_dotenv(path'),
                    ('src', 'cli.py', 446, 469, 'def _env_file_callback(')]),
        ('custom-commands', [('src', 'cli.py', 337, 390, 'def with_appcontext(f):'),
                             ('docs', 'cli.rst', 318, 365, 'Custom Commands')]),
    ]),
    ('sessions', 'usage/sessions.md', [
        ('signed-cookie', [('src', 'sessions.py', 326, 374, 'class SecureCookieSessionInterface(SessionInterface):'),
                           ('src', 'json/tag.py', 216, 240, 'class TaggedJSONSerializer:')]),
        ('modified-tracking', [('src', 'sessions.py', 49, 90, 'class SecureCookieSession(CallbackDict, SessionMixin):'),
                               ('src', 'sessions.py', 376, 421, '    def save_session('),
                               ('src', 'sessions.py', 281, 296, '    def should_set_cookie(')]),
        ('cookie-settings', [('src', 'sessions.py', 183, 240, '    def get_cookie_domain(self'),
                             ('docs', 'config.rst', 140, 186, '.. py:data:: SESSION_COOKIE_NAME')]),
        ('permanent-sessions', [('src', 'sessions.py', 21, 48, 'class SessionMixin(MutableMapping):'),
                                ('src', 'sessions.py', 108, 157, 'class SessionInterface:'),
                                ('src', 'sessions.py', 269, 280, '    def get_expiration_time(')]),
        ('flashing', [('src', 'helpers.py', 337, 368, 'def flash(message: str'),
                      ('src', 'helpers.py', 369, 410, 'def get_flashed_messages(')]),
    ]),
    ('templates', 'usage/templates.md', [
        ('environment', [('src', 'app.py', 907, 946, '    def create_jinja_environment(self)'),
                         ('src', 'app.py', 960, 972, '    def select_jinja_autoescape(self')]),
        ('rendering', [('src', 'templating.py', 127, 159, 'def _render(app: "Flask"'),
                       ('src', 'templating.py', 162, 199, 'def _stream(')]),
        ('context-processors', [('src', 'app.py', 973, 1000, '    def update_template_context(self'),
                                ('src', 'templating.py', 21, 35, 'def _default_template_ctx_processor()'),
                                ('docs', 'templating.rst', 167, 204, 'Context Processors')]),
        ('filters-and-globals', [('src', 'app.py', 1368, 1413, '    def template_filter('),
                                 ('src', 'helpers.py', 315, 336, 'def get_template_attribute(')]),
        ('template-lookup', [('src', 'templating.py', 57, 112, '    def get_source(  # type: ignore'),
                             ('src', 'debughelpers.py', 114, 158, 'def explain_template_loading_attempts('),
                             ('docs', 'blueprints.rst', 206, 235, 'Templates')]),
    ]),
    ('json', 'usage/json.md', [
        ('returning-json', [('src', 'json/__init__.py', 310, 342, 'def jsonify('),
                            ('src', 'json/provider.py', 76, 89, '    def _prepare_response_obj('),
                            ('src', 'json/provider.py', 105, 140, '        obj = self._prepare_response_obj(args, kwargs)')]),
        ('default-provider', [('src', 'json/provider.py', 109, 122, 'def _default(o: t.Any)'),
                              ('src', 'json/provider.py', 125, 167, 'class DefaultJSONProvider(JSONProvider):')]),
        ('custom-provider', [('src', 'json/provider.py', 20, 49, 'class JSONProvider:'),
                             ('src', 'json/provider.py', 201, 229, '        ensure_ascii = self._app.config["JSON_AS_ASCII"]'),
                             ('src', 'json/__init__.py', 111, 126, '    if app is not None:')]),
        ('request-json', [('src', 'wrappers.py', 126, 133, '    def on_json_loading_failed(self'),
                          ('src', 'ctx.py', 308, 313, '        if request is None:')]),
    ]),
    ('errors', 'usage/errors.md', [
        ('abort', [('src', 'helpers.py', 290, 314, 'def abort('),
                   ('src', 'app.py', 834, 844, '    def make_aborter(self)'),
                   ('src', 'helpers.py', 266, 289, 'def redirect(')]),
        ('registering-handlers', [('src', 'scaffold.py', 729, 786, '    def register_error_handler('),
                                  ('src', 'app.py', 1553, 1574, '    def _find_error_handler(self')]),
        ('generic-handlers', [('docs', 'errorhandling.rst', 176, 235, 'Generic Exception Handlers'),
                              ('src', 'app.py', 1576, 1609, '    def handle_http_exception(')]),
        ('unhandled-exceptions', [('src', 'app.py', 1678, 1730, '    def handle_exception(self, e'),
                                  ('src', 'app.py', 1611, 1645, '    def trap_http_exception(self'),
                                  ('docs', 'config.rst', 100, 125, '.. py:data:: PROPAGATE_EXCEPTIONS')]),
    ]),
    ('testing', 'usage/testing.md', [
        ('test-client', [('src', 'testing.py', 44, 90, '    def __init__('),
                         ('docs', 'testing.rst', 35, 82, 'Fixtures')]),
        ('preserving-context', [('src', 'testing.py', 120, 157, '    def session_transaction('),
                                ('src', 'testing.py', 233, 265, '        # Pop any previously preserved contexts.')]),
        ('contexts-in-tests', [('docs', 'testing.rst', 275, 314, 'Tests that depend on an Active Context'),
                               ('src', 'app.py', 2443, 2498, '    def test_request_context(self')]),
        ('cli-runner', [('src', 'testing.py', 268, 301, 'class FlaskCliRunner(CliRunner):'),
                        ('docs', 'testing.rst', 245, 274, 'Running Commands with the CLI Runner')]),
    ]),
    ('views', 'usage/views.md', [
        ('view-class', [('src', 'views.py', 48, 107, '    methods: t.ClassVar'),
                        ('docs', 'views.rst', 125, 159, 'View Lifetime and ``self``')]),
        ('method-view', [('src', 'views.py', 135, 188, 'class MethodView(View):')]),
        ('async-views', [('src', 'app.py', 1880, 1915, '    def ensure_sync(self, func'),
                         ('docs', 'async-await.rst', 3, 27, 'Using ``async`` and ``await``'),
                         ('docs', 'async-await.rst', 60, 97, 'Background tasks')]),
    ]),
    ('signals-and-logging', 'usage/signals-and-logging.md', [
        ('core-signals', [('src', 'signals.py', 40, 57, '# The namespace for code signals.'),
                          ('docs', 'signals.rst', 32, 71, 'Subscribing to Signals')]),
        ('without-blinker', [('src', 'signals.py', 1, 38, 'import typing as t'),
                             ('docs', 'signals.rst', 107, 151, 'Creating Signals')]),
        ('app-logger', [('src', 'logging.py', 26, 75, 'def has_level_handler'),
                        ('docs', 'logging.rst', 27, 76, 'Basic Configuration')]),
    ]),
    ('static-files', 'usage/static-files.md', [
        ('static-folder', [('src', 'scaffold.py', 271, 326, '    def static_url_path(self) -> t.Optional[str]:'),
                           ('docs', 'quickstart.rst', 346, 351, 'To generate URLs for static files')]),
        ('send-file', [('src', 'helpers.py', 424, 467, 'def send_file('),
                       ('src', 'helpers.py', 537, 579, '    return werkzeug.utils.send_file(')]),
    ]),
    ('troubleshooting', 'faq/troubleshooting.md', [
        ('outside-app-context', [('docs', 'appcontext.rst', 53, 84, 'Manually Push a Context'),
                                 ('src', 'globals.py', 47, 65, '_no_app_msg = ')]),
        ('outside-request-context', [('docs', 'reqcontext.rst', 50, 87, 'Manually Push a Context'),
                                     ('src', 'globals.py', 66, 85, '_no_req_msg = ')]),
        ('cli-cannot-find-app', [('src', 'cli.py', 216, 239, 'def locate_app(module_name'),
                                 ('src', 'app.py', 1130, 1142, '        # Ignore this call so that it doesn')]),
        ('debug-request-errors', [('src', 'debughelpers.py', 14, 38, 'class DebugFilesKeyError(KeyError, AssertionError):'),
                                  ('src', 'debughelpers.py', 71, 95, 'def attach_enctype_error_multidict(request):'),
                                  ('src', 'app.py', 1646, 1677, '    def handle_user_exception(')]),
        ('dev-server-problems', [('docs', 'server.rst', 37, 93, 'Address already in use'),
                                 ('docs', 'debugging.rst', 5, 22, 'In Production')]),
    ]),
    ('about-flask', 'faq/about-flask.md', [
        ('deployment', [('docs', 'deploying/index.rst', 1, 42, 'Deploying to Production'),
                        ('docs', 'deploying/gunicorn.rst', 39, 71, 'Running'),
                        ('docs', 'deploying/proxy_fix.rst', 1, 33, 'Tell Flask it is Behind a Proxy')]),
        ('deprecations', [('root', 'CHANGES.rst', 74, 118, '-   The ``FLASK_ENV`` environment variable'),
                          ('root', 'CHANGES.rst', 1, 25, 'Version 2.2.5')]),
    ]),
]

if __name__ == "__main__":
    write_structure(HERE, "flask", BASE, SUBPATH, ARTICLES)

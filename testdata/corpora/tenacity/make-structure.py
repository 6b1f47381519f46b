#!/usr/bin/env python3
"""Writes ws/knowledge/structure.yaml for the tenacity corpus from the reference table below.

Every reference is (module, path, start, end, anchor): module "lib" (subpath tenacity/) or
"root" (the sdist root: doc/source/*.rst, README.rst, setup.cfg, pyproject.toml,
releasenotes/notes/), the path inside the module, the cited line range at the base commit, and a
text its first line must hold. The checks and the digest rule are in the shared writer,
../tools/structure_table.py.

Usage: make-structure.py            (reads repo.git next to this script, writes ws/...)
The prose of the pages is hand-written; this script only computes the structure file.
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tools"))
from structure_table import write_structure  # noqa: E402  (the shared writer, ../tools)

BASE = "b245003797d21e9031c97ce4279ed8b1310fe421"
SUBPATH = {"lib": "tenacity", "root": ""}

DOC = "doc/source/index.rst"
DROP_DEPRECATED = "releasenotes/notes/drop_deprecated-7ea90b212509b082.yaml"
NO_ASYNC_ITER = "releasenotes/notes/no-async-iter-6132a42e52348a75.yaml"
PY3_WHEEL = "releasenotes/notes/pr320-py3-only-wheel-tag.yaml"

# article_id, path under knowledge/, then the sections in page order with their references.
ARTICLES = [
    ('overview', 'architecture/overview.md', [
        ('package-layout', [('lib', '__init__.py', 30, 85, '# Import all built-in retry strategies')]),
        ('public-names', [('lib', '__init__.py', 552, 606, '__all__ = [')]),
        ('packaging', [('root', 'setup.cfg', 1, 40, '[metadata]'),
                       ('root', 'pyproject.toml', 1, 25, '[build-system]')]),
        ('strategy-protocol', [('root', DOC, 441, 475, 'Other Custom Callbacks'),
                               ('lib', 'retry.py', 25, 39, 'class retry_base(abc.ABC):')]),
        ('origins', [('root', DOC, 13, 22, 'Tenacity is an Apache 2.0'),
                     ('root', DOC, 52, 61, 'Features'),
                     ('root', 'README.rst', 13, 22, 'Tenacity is an Apache 2.0')]),
    ]),
    ('retry-loop', 'architecture/retry-loop.md', [
        ('actions', [('lib', '__init__.py', 99, 140, 'class TryAgain(Exception):')]),
        ('begin', [('lib', '__init__.py', 299, 304, 'def begin(self)'),
                   ('root', DROP_DEPRECATED, 1, 5, '---')]),
        ('deciding-to-retry', [('lib', '__init__.py', 305, 314, 'def iter(')]),
        ('giving-up', [('lib', '__init__.py', 316, 326, 'if self.after is not None:'),
                       ('lib', '__init__.py', 149, 162, 'class RetryError(Exception):')]),
        ('scheduling-the-sleep', [('lib', '__init__.py', 328, 340, 'if self.wait:')]),
        ('call-loop', [('lib', '__init__.py', 366, 391, 'class Retrying(BaseRetrying):')]),
    ]),
    ('call-state', 'architecture/call-state.md', [
        ('call-state-fields', [('lib', '__init__.py', 423, 453, 'class RetryCallState:'),
                               ('root', DOC, 400, 439, 'RetryCallState')]),
        ('seconds-since-start', [('lib', '__init__.py', 455, 465, '@property')]),
        ('recording-outcomes', [('lib', '__init__.py', 467, 479, 'def set_result(')]),
        ('future', [('lib', '__init__.py', 394, 420, 'if sys.version_info[1] >= 9:')]),
        ('call-state-repr', [('lib', '__init__.py', 481, 492, 'def __repr__(self)')]),
    ]),
    ('async-and-tornado', 'architecture/async-and-tornado.md', [
        ('decorator-dispatch', [('lib', '__init__.py', 516, 549, 'def retry(*dargs')]),
        ('async-retrying', [('lib', '_asyncio.py', 33, 59, 'class AsyncRetrying(BaseRetrying):')]),
        ('async-iteration', [('lib', '_asyncio.py', 61, 80, 'def __iter__(self)'),
                             ('root', NO_ASYNC_ITER, 1, 7, '---')]),
        ('async-wraps', [('lib', '_asyncio.py', 82, 94, 'def wraps(self')]),
        ('tornado-retrying', [('lib', 'tornadoweb.py', 31, 59, 'class TornadoRetrying(BaseRetrying):'),
                              ('root', DOC, 592, 610, 'Async and retry')]),
    ]),
    ('helpers', 'architecture/helpers.md', [
        ('time-units', [('lib', '_utils.py', 72, 76, 'time_unit_type = '),
                        ('lib', 'stop.py', 94, 103, 'class stop_after_delay(stop_base):'),
                        ('lib', 'wait.py', 145, 155, 'def __init__(')]),
        ('max-wait', [('lib', '_utils.py', 17, 24, 'import sys'),
                      ('lib', 'wait.py', 117, 129, 'def __init__(')]),
        ('ordinals', [('lib', '_utils.py', 27, 44, 'def find_ordinal(')]),
        ('callback-names', [('lib', '_utils.py', 47, 69, 'def get_callback_name(')]),
    ]),
    ('getting-started', 'usage/getting-started.md', [
        ('installing', [('root', DOC, 64, 72, 'Installation'),
                        ('root', 'setup.cfg', 24, 40, '[options]')]),
        ('first-retry', [('root', DOC, 21, 41, 'The simplest use case'),
                         ('lib', '__init__.py', 281, 297, 'def wraps(self')]),
        ('defaults', [('root', DOC, 92, 100, 'As you saw above'),
                      ('lib', '__init__.py', 189, 213, 'class BaseRetrying(ABC):')]),
        ('decorator-forms', [('lib', '__init__.py', 495, 526, '@t.overload')]),
        ('wildcard-import', [('root', DOC, 80, 90, '.. testsetup::')]),
    ]),
    ('stopping', 'usage/stopping.md', [
        ('stop-after-attempt', [('lib', 'stop.py', 84, 91, 'class stop_after_attempt(stop_base):'),
                                ('root', DOC, 102, 113, 'Stopping')]),
        ('stop-after-delay', [('lib', 'stop.py', 94, 103, 'class stop_after_delay(stop_base):'),
                              ('root', DOC, 115, 123, "We don't have all day"),
                              ('lib', '__init__.py', 455, 459, '@property')]),
        ('combining-stops', [('lib', 'stop.py', 27, 61, 'class stop_base(abc.ABC):'),
                             ('root', DOC, 125, 132, 'You can combine several stop conditions')]),
        ('stop-never-and-event', [('lib', 'stop.py', 64, 81, 'class _stop_never(stop_base):'),
                                  ('lib', 'nap.py', 34, 43, 'class sleep_using_event:')]),
        ('custom-stop', [('root', DOC, 441, 462, 'Other Custom Callbacks'),
                         ('lib', 'stop.py', 27, 41, 'class stop_base(abc.ABC):')]),
    ]),
    ('waiting', 'usage/waiting.md', [
        ('wait-fixed', [('lib', 'wait.py', 47, 61, 'class wait_fixed(wait_base):'),
                        ('root', DOC, 134, 145, 'Waiting before retrying')]),
        ('wait-random', [('lib', 'wait.py', 64, 72, 'class wait_random(wait_base):'),
                         ('root', DOC, 147, 154, 'Some things perform best')]),
        ('wait-incrementing', [('lib', 'wait.py', 110, 129, 'class wait_incrementing(wait_base):')]),
        ('wait-exponential', [('lib', 'wait.py', 132, 163, 'class wait_exponential(wait_base):'),
                              ('root', DOC, 156, 164, "Then again, it's hard to beat")]),
        ('wait-random-exponential', [('lib', 'wait.py', 166, 194, 'class wait_random_exponential('),
                                     ('root', DOC, 178, 186, 'When multiple processes'),
                                     ('lib', '__init__.py', 58, 68, '# Import all built-in wait strategies')]),
        ('wait-exponential-jitter', [('lib', 'wait.py', 197, 228, 'class wait_exponential_jitter(')]),
        ('combining-waits', [('lib', 'wait.py', 27, 44, 'class wait_base(abc.ABC):'),
                             ('lib', 'wait.py', 75, 82, 'class wait_combine(wait_base):'),
                             ('root', DOC, 167, 176, "Then again, it's also hard")]),
        ('wait-chain', [('lib', 'wait.py', 85, 107, 'class wait_chain(wait_base):'),
                        ('root', DOC, 189, 198, 'Sometimes it')]),
    ]),
    ('retry-conditions', 'usage/retry-conditions.md', [
        ('exception-type', [('lib', 'retry.py', 81, 92, 'class retry_if_exception_type('),
                            ('root', DOC, 200, 214, 'Whether to retry')]),
        ('not-exception-type', [('lib', 'retry.py', 95, 106, 'class retry_if_not_exception_type('),
                                ('root', DOC, 216, 220, 'retry_if_not_exception_type(ClientError)')]),
        ('unless-exception-type', [('lib', 'retry.py', 109, 133, 'class retry_unless_exception_type(')]),
        ('exception-cause-type', [('lib', 'retry.py', 136, 163, 'class retry_if_exception_cause_type(')]),
        ('result-predicates', [('lib', 'retry.py', 166, 195, 'class retry_if_result(retry_base):'),
                               ('root', DOC, 221, 231, 'We can also use the result')]),
        ('exception-message', [('lib', 'retry.py', 198, 226, 'class retry_if_exception_message(')]),
        ('not-exception-message', [('lib', 'retry.py', 229, 252, 'class retry_if_not_exception_message(')]),
        ('never-always-predicate', [('lib', 'retry.py', 42, 78, 'class _retry_never(retry_base):')]),
        ('combining-conditions', [('lib', 'retry.py', 255, 272, 'class retry_any(retry_base):'),
                                  ('lib', 'retry.py', 25, 39, 'class retry_base(abc.ABC):'),
                                  ('root', DOC, 248, 258, 'We can also combine')]),
    ]),
    ('error-handling', 'usage/error-handling.md', [
        ('retry-error', [('lib', '__init__.py', 149, 162, 'class RetryError(Exception):'),
                         ('root', DOC, 274, 282, 'Error Handling'),
                         ('lib', '__init__.py', 320, 326, 'if self.stop(retry_state):')]),
        ('reraise', [('root', DOC, 281, 294, 'If you would rather'),
                     ('lib', '__init__.py', 156, 160, 'def reraise(self)'),
                     ('lib', '__init__.py', 320, 326, 'if self.stop(retry_state):')]),
        ('retry-error-callback', [('root', DOC, 373, 398, 'Custom Callbacks'),
                                  ('lib', '__init__.py', 316, 326, 'if self.after is not None:')]),
        ('custom-error-class', [('lib', '__init__.py', 149, 162, 'class RetryError(Exception):'),
                                ('lib', '__init__.py', 316, 326, 'if self.after is not None:')]),
        ('try-again', [('root', DOC, 260, 273, 'Any combination of stop'),
                       ('lib', '__init__.py', 305, 314, 'def iter('),
                       ('lib', '__init__.py', 99, 103, 'class TryAgain(Exception):')]),
    ]),
    ('logging-and-hooks', 'usage/logging-and-hooks.md', [
        ('before-log', [('lib', 'before.py', 27, 46, 'def before_nothing('),
                        ('root', DOC, 296, 313, 'Before and After Retry')]),
        ('after-log', [('lib', 'after.py', 27, 51, 'def after_nothing('),
                       ('root', DOC, 315, 328, 'In the same spirit')]),
        ('before-sleep-log', [('lib', 'before_sleep.py', 31, 71, 'def before_sleep_log('),
                              ('root', DOC, 330, 346, "It's also possible to only log")]),
        ('hook-order', [('lib', '__init__.py', 305, 340, 'def iter(')]),
        ('custom-callbacks', [('root', DOC, 373, 383, 'Custom Callbacks'),
                              ('root', DOC, 441, 475, 'Other Custom Callbacks')]),
        ('custom-before-sleep', [('root', DOC, 476, 502, "Here's an example")]),
    ]),
    ('retrying-code-blocks', 'usage/retrying-code-blocks.md', [
        ('for-loop', [('root', DOC, 541, 560, 'Retrying code block'),
                      ('lib', '__init__.py', 342, 354, 'def __iter__(self)')]),
        ('attempt-manager', [('lib', '__init__.py', 165, 186, 'class AttemptManager:')]),
        ('setting-results', [('root', DOC, 576, 590, 'In both cases')]),
        ('async-for', [('root', DOC, 562, 574, 'With async code'),
                       ('lib', '_asyncio.py', 61, 80, 'def __iter__(self)')]),
        ('retrying-directly', [('root', DOC, 529, 539, 'If you want to use variables'),
                               ('lib', '__init__.py', 366, 391, 'class Retrying(BaseRetrying):')]),
    ]),
    ('statistics-and-runtime', 'usage/statistics-and-runtime.md', [
        ('statistics-attribute', [('root', DOC, 349, 371, 'Statistics'),
                                  ('lib', '__init__.py', 253, 279, '@property')]),
        ('statistics-keys', [('lib', '__init__.py', 299, 304, 'def begin(self)'),
                             ('lib', '__init__.py', 316, 340, 'if self.after is not None:')]),
        ('thread-local-statistics', [('lib', '__init__.py', 253, 279, '@property'),
                                     ('lib', '__init__.py', 203, 213, 'self.sleep = sleep')]),
        ('retry-with', [('root', DOC, 505, 527, 'Changing Arguments at Run Time'),
                        ('lib', '__init__.py', 281, 297, 'def wraps(self')]),
        ('copy-and-repr', [('lib', '__init__.py', 215, 251, 'def copy('),
                           ('lib', '__init__.py', 142, 146, '_unset = object()')]),
    ]),
    ('async-usage', 'usage/async-usage.md', [
        ('coroutines', [('root', DOC, 592, 603, 'Async and retry'),
                        ('lib', '__init__.py', 527, 541, 'def wrap(f'),
                        ('lib', '_asyncio.py', 33, 38, 'class AsyncRetrying(BaseRetrying):')]),
        ('tornado-coroutines', [('root', DOC, 604, 610, '.. code-block:: python'),
                                ('lib', '__init__.py', 534, 541, 'if iscoroutinefunction(f):'),
                                ('lib', 'tornadoweb.py', 31, 35, 'class TornadoRetrying(BaseRetrying):')]),
        ('other-event-loops', [('root', DOC, 611, 617, 'You can even use alternative event loops'),
                               ('lib', '_asyncio.py', 33, 38, 'class AsyncRetrying(BaseRetrying):')]),
    ]),
    ('sleeping-and-testing', 'usage/sleeping-and-testing.md', [
        ('default-sleep', [('lib', 'nap.py', 25, 31, 'def sleep('),
                           ('root', 'doc/source/api.rst', 47, 55, 'Nap Functions')]),
        ('sleep-using-event', [('lib', 'nap.py', 34, 43, 'class sleep_using_event:'),
                               ('lib', 'stop.py', 74, 81, 'class stop_when_event_set(stop_base):')]),
        ('fast-tests', [('lib', 'nap.py', 18, 31, 'import time'),
                        ('lib', '__init__.py', 281, 297, 'def wraps(self')]),
    ]),
    ('common-questions', 'faq/common-questions.md', [
        ('why-forever', [('root', DOC, 92, 100, 'As you saw above'),
                         ('lib', 'retry.py', 81, 92, 'class retry_if_exception_type(')]),
        ('tenacity-vs-retrying', [('root', DOC, 13, 19, 'Tenacity is an Apache 2.0')]),
        ('hang-warning', [('lib', '__init__.py', 516, 532, 'def retry(*dargs')]),
        ('upgrading', [('root', DROP_DEPRECATED, 1, 5, '---'),
                       ('root', NO_ASYNC_ITER, 1, 7, '---')]),
        ('python-versions', [('root', 'setup.cfg', 10, 27, 'classifier'),
                             ('root', PY3_WHEEL, 1, 5, '---'),
                             ('root', 'pyproject.toml', 11, 19, '[tool.black]')]),
        ('contributing', [('root', DOC, 619, 645, 'Contribute')]),
    ]),
]

if __name__ == "__main__":
    write_structure(HERE, "tenacity", BASE, SUBPATH, ARTICLES)

#!/usr/bin/env python3
"""Writes ws/knowledge/structure.yaml for the pino corpus from the reference table below.

Every reference is (module, path, start, end, anchor): module "root" (the package root:
pino.js, file.js, browser.js, package.json), "lib" (subpath lib/: the implementation) or
"docs" (subpath docs/: the documentation shipped in the package), the path inside the module,
the cited line range at the base commit, and a text its first line must hold. The checks and
the digest rule are in the shared writer, ../tools/structure_table.py.

Usage: make-structure.py            (reads repo.git next to this script, writes ws/...)
The prose of the pages is hand-written; this script only computes the structure file.
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tools"))
from structure_table import write_structure  # noqa: E402  (the shared writer, ../tools)

BASE = "b0fde1b20bdef4a1cc7ccb4a28a1871316de54d9"
SUBPATH = {"root": "", "lib": "lib", "docs": "docs"}

# article_id, path under knowledge/, then the sections in page order with their references.
ARTICLES = [
    ('overview', 'architecture/overview.md', [
        ('package-layout', [('root', 'package.json', 1, 10, '{'),
                            ('root', 'package.json', 103, 115, '"dependencies": {')]),
        ('default-options', [('root', 'pino.js', 50, 83, 'const defaultOptions = {')]),
        ('instance-assembly', [('root', 'pino.js', 139, 194, "let chindings = ''"),
                               ('lib', 'proto.js', 51, 78, '// note: use of class is satirical')]),
        ('static-exports', [('root', 'pino.js', 196, 218, 'module.exports = pino')]),
    ]),
    ('log-pipeline', 'architecture/log-pipeline.md', [
        ('log-method', [('lib', 'tools.js', 33, 74, 'function genLog (level, hook) {')]),
        ('write-and-mixin', [('lib', 'proto.js', 176, 216, 'function defaultMixinMergeStrategy')]),
        ('as-json', [('lib', 'tools.js', 106, 161, 'function asJson (obj, msg, num, time) {')]),
        ('message-and-nested-key', [('lib', 'tools.js', 163, 198, "let msgStr = ''"),
                                    ('root', 'pino.js', 170, 176, '[formatOptsSym]: formatOpts,')]),
        ('escaping-and-circular', [('lib', 'tools.js', 81, 104, 'function asString (str) {'),
                                   ('lib', 'tools.js', 337, 348, 'function stringify (obj, stringifySafeFn) {'),
                                   ('root', 'pino.js', 111, 125, 'const stringifySafe = configure({')]),
    ]),
    ('level-machinery', 'architecture/level-machinery.md', [
        ('level-table', [('lib', 'levels.js', 13, 51, 'const levels = {')]),
        ('set-level', [('lib', 'levels.js', 83, 123, 'function setLevel (level) {')]),
        ('mappings', [('lib', 'levels.js', 125, 146, 'function mappings ('),
                      ('lib', 'levels.js', 53, 63, 'function genLsCache (instance) {')]),
        ('level-assertions', [('lib', 'levels.js', 148, 181, 'function assertDefaultLevelFound'),
                              ('root', 'pino.js', 153, 158, 'if (useOnlyCustomLevels && !customLevels)')]),
    ]),
    ('destination-internals', 'architecture/destination-internals.md', [
        ('argument-normalizer', [('lib', 'tools.js', 285, 335, 'function createArgsNormalizer (defaultOptions) {')]),
        ('safe-sonic-boom', [('lib', 'tools.js', 233, 262, 'function buildSafeSonicBoom (opts) {')]),
        ('exit-flushing', [('lib', 'tools.js', 264, 283, 'function autoEnd (stream, eventName) {'),
                           ('lib', 'levels.js', 21, 35, 'const levelMethods = {')]),
        ('destination-factory', [('root', 'pino.js', 198, 205, 'module.exports.destination'),
                                 ('lib', 'tools.js', 366, 377, 'function normalizeDestFileDescriptor')]),
    ]),
    ('transport-internals', 'architecture/transport-internals.md', [
        ('thread-stream', [('lib', 'transport.js', 10, 67, 'function setupOnExit (stream) {')]),
        ('target-resolution', [('lib', 'transport.js', 73, 114, 'function transport (fullOptions) {'),
                               ('lib', 'transport.js', 116, 145, 'function fixTarget (origin) {')]),
        ('caller-detection', [('lib', 'caller.js', 7, 30, 'module.exports = function getCallers () {')]),
        ('workers', [('lib', 'worker.js', 12, 54, 'module.exports = async function'),
                     ('lib', 'worker-pipeline.js', 12, 38, 'module.exports = async function')]),
        ('module-loading', [('lib', 'transport-stream.js', 13, 50, 'async function loadTransportStreamBuilder')]),
    ]),
    ('logger-options', 'usage/logger-options.md', [
        ('name-level-base', [('docs', 'api.md', 49, 67, '#### `name` (String)'),
                             ('docs', 'api.md', 441, 461, '#### `base` (Object)')]),
        ('timestamps', [('docs', 'api.md', 462, 484, '#### `timestamp` (Boolean | Function)'),
                        ('lib', 'time.js', 1, 11, "'use strict'")]),
        ('message-error-nested-keys', [('docs', 'api.md', 485, 523, '#### `messageKey` (String)')]),
        ('depth-and-edge-limits', [('docs', 'api.md', 105, 117, '#### `depthLimit` (Number)')]),
    ]),
    ('output-shaping', 'usage/output-shaping.md', [
        ('formatters', [('docs', 'api.md', 352, 405, '#### `formatters` (Object)')]),
        ('serializers', [('docs', 'api.md', 406, 421, '#### `serializers` (Object)'),
                         ('lib', 'tools.js', 128, 136, 'for (const key in obj) {')]),
        ('mixin', [('docs', 'api.md', 118, 170, '#### `mixin` (Function):')]),
        ('mixin-merge-strategy', [('docs', 'api.md', 236, 290, '#### `mixinMergeStrategy` (Function):')]),
        ('log-method-hook-and-prefix', [('docs', 'api.md', 320, 351, '#### `hooks` (Object)'),
                                        ('docs', 'api.md', 422, 440, '#### `msgPrefix` (String)')]),
    ]),
    ('logging-methods', 'usage/logging-methods.md', [
        ('merging-object-and-message', [('docs', 'api.md', 664, 723, '### Logging Method Parameters')]),
        ('interpolation', [('docs', 'api.md', 724, 764, '#### `...interpolationValues` (Any)')]),
        ('logging-errors', [('docs', 'api.md', 765, 783, '#### Errors'),
                            ('lib', 'proto.js', 187, 199, 'if (_obj === undefined || _obj === null) {')]),
    ]),
    ('child-loggers', 'usage/child-loggers.md', [
        ('creating-children', [('docs', 'api.md', 850, 877, '### `logger.child(bindings, [options]) => logger`'),
                               ('lib', 'proto.js', 80, 89, 'const resetChildingsFormatter')]),
        ('child-options', [('docs', 'api.md', 882, 940, '#### `options` (Object)'),
                           ('lib', 'proto.js', 126, 151, "if (options.hasOwnProperty('customLevels') === true) {")]),
        ('bindings-and-set-bindings', [('lib', 'proto.js', 153, 166, 'function bindings () {'),
                                       ('docs', 'api.md', 954, 966, '### `logger.bindings()`')]),
        ('duplicate-keys-and-cost', [('docs', 'child-loggers.md', 23, 60, '## Cost of child logging')]),
    ]),
    ('levels', 'usage/levels.md', [
        ('changing-level', [('docs', 'api.md', 985, 1029, '### `logger.level` (String) [Getter/Setter]')]),
        ('custom-levels', [('docs', 'api.md', 68, 104, '#### `customLevels` (Object)')]),
        ('level-change-event', [('docs', 'api.md', 1074, 1111, "### Event: 'level-change'")]),
    ]),
    ('destinations', 'usage/destinations.md', [
        ('destination-argument', [('docs', 'api.md', 578, 618, '### `destination` (SonicBoom | WritableStream | String | Object)')]),
        ('sync-and-min-length', [('docs', 'asynchronous.md', 1, 40, '# Asynchronous Logging'),
                                 ('docs', 'api.md', 1121, 1154, '### `pino.destination([opts]) => SonicBoom`')]),
        ('flush', [('docs', 'api.md', 967, 984, '### `logger.flush()`'),
                   ('lib', 'proto.js', 218, 223, 'function noop () {}')]),
        ('log-rotation-and-reopen', [('docs', 'help.md', 18, 48, '## Log rotation'),
                                     ('docs', 'help.md', 49, 90, '## Reopening log files')]),
    ]),
    ('transports', 'usage/transports.md', [
        ('transport-basics', [('docs', 'transports.md', 23, 70, '## v7+ Transports'),
                              ('docs', 'api.md', 1232, 1242, '#### Options')]),
        ('targets-and-levels', [('docs', 'transports.md', 71, 130, 'The `options.destination` value can be set'),
                                ('lib', 'tools.js', 299, 312, '} else if (opts.transport) {')]),
        ('pipelines', [('docs', 'transports.md', 196, 253, '### Creating a transport pipeline')]),
        ('pino-file', [('docs', 'transports.md', 272, 312, '#### `pino/file`'),
                       ('root', 'file.js', 1, 12, "'use strict'")]),
    ]),
    ('multistream', 'usage/multistream.md', [
        ('streams-array', [('docs', 'api.md', 1243, 1270, '### `pino.multistream(streamsArray, opts) => MultiStreamRes`'),
                           ('lib', 'multistream.js', 89, 129, 'function add (dest) {')]),
        ('routing-and-dedupe', [('lib', 'multistream.js', 46, 80, 'function write (data) {'),
                                ('docs', 'api.md', 1271, 1311, '#### Options')]),
        ('end-and-clone', [('lib', 'multistream.js', 81, 88, 'function flushSync () {'),
                           ('lib', 'multistream.js', 130, 160, 'function end () {')]),
    ]),
    ('redaction', 'usage/redaction.md', [
        ('redact-paths', [('docs', 'api.md', 297, 319, '#### `redact` (Array | Object)'),
                          ('docs', 'redaction.md', 100, 116, '## Path Syntax')]),
        ('censor-and-remove', [('lib', 'redaction.js', 104, 116, 'function handle (opts) {'),
                               ('lib', 'redaction.js', 7, 13, 'const validate = validator({')]),
        ('redaction-shape', [('lib', 'redaction.js', 15, 70, 'function redaction (opts, serialize) {'),
                             ('docs', 'redaction.md', 117, 135, '## Overhead')]),
    ]),
    ('browser', 'usage/browser.md', [
        ('browser-logger', [('root', 'browser.js', 33, 80, 'function pino (opts) {'),
                            ('root', 'browser.js', 206, 213, 'function set (opts, logger, level, fallback) {')]),
        ('as-object-and-write', [('root', 'browser.js', 250, 270, 'function asObject (logger, level, args, ts) {'),
                                 ('docs', 'browser.md', 15, 68, '### `asObject` (Boolean)')]),
        ('browser-serializers-and-children', [('root', 'browser.js', 123, 160, 'function child (bindings, childOptions) {'),
                                              ('root', 'browser.js', 348, 365, 'function getTimeFunction (opts) {')]),
        ('transmit', [('root', 'browser.js', 297, 323, 'function transmit (logger, opts, args) {'),
                      ('docs', 'browser.md', 130, 189, '### `transmit` (Object)')]),
    ]),
    ('troubleshooting', 'faq/troubleshooting.md', [
        ('pretty-print-removed', [('lib', 'tools.js', 313, 319, 'opts = Object.assign({}, defaultOptions, opts)'),
                                  ('docs', 'pretty.md', 1, 35, '# Pretty Printing')]),
        ('transport-errors', [('lib', 'transport.js', 82, 86, 'let target = fullOptions.target'),
                              ('docs', 'transports.md', 914, 940, '## Communication between Pino and Transports')]),
        ('lost-logs-at-exit', [('docs', 'transports.md', 330, 353, '### Asynchronous startup'),
                               ('docs', 'asynchronous.md', 22, 36, '### AWS Lambda')]),
        ('message-conflict', [('docs', 'help.md', 263, 293, '## Avoid Message Conflict')]),
        ('windows-and-stackdriver', [('docs', 'help.md', 211, 223, '## Unicode and Windows terminal'),
                                     ('docs', 'help.md', 224, 262, '## Mapping Pino Log Levels to Google Cloud')]),
    ]),
    ('about-pino', 'faq/about-pino.md', [
        ('versions-and-lts', [('docs', 'lts.md', 1, 50, '## Long Term Support')]),
        ('web-frameworks', [('docs', 'web.md', 17, 69, '## Pino with Fastify')]),
        ('debug-and-filtering', [('docs', 'help.md', 187, 210, '## Pino with `debug`'),
                                 ('docs', 'help.md', 96, 112, '## Log Filtering')]),
    ]),
]

if __name__ == "__main__":
    write_structure(HERE, "pino", BASE, SUBPATH, ARTICLES)

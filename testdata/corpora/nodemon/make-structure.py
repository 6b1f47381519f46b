#!/usr/bin/env python3
"""Writes ws/knowledge/structure.yaml for the nodemon corpus from the reference table below.

Every reference is (module, path, start, end, anchor): module "root" (the package root:
README.md, package.json, bin/nodemon.js), "lib" (subpath lib/: the implementation) or "doc"
(subpath doc/: the doc/cli/*.txt help texts shipped in the package), the path inside the
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

BASE = "f707d232db9e2a4ff28c334355ef81878ed33ea3"
SUBPATH = {"root": "", "lib": "lib", "doc": "doc"}

# article_id, path under knowledge/, then the sections in page order with their references.
ARTICLES = [
    ('overview', 'architecture/overview.md', [
        ('package-layout', [('root', 'package.json', 1, 30, '{'),
                            ('root', 'package.json', 57, 68, '"dependencies": {')]),
        ('entry-point', [('root', 'bin/nodemon.js', 1, 16, '#!/usr/bin/env node'),
                         ('lib', 'utils/index.js', 20, 35, 'isRequired: (function () {')]),
        ('boot-sequence', [('lib', 'nodemon.js', 19, 70, 'function nodemon(settings) {'),
                           ('lib', 'nodemon.js', 72, 82, 'const cwd = process.cwd();')]),
        ('startup-messages', [('lib', 'nodemon.js', 84, 98, '// before we print anything'),
                              ('lib', 'nodemon.js', 149, 197, 'if (config.options.restartable) {')]),
    ]),
    ('cli-parsing', 'architecture/cli-parsing.md', [
        ('argument-walk', [('lib', 'cli/parse.js', 31, 90, 'function parse(argv) {')]),
        ('switches', [('lib', 'cli/parse.js', 105, 160, 'function nodemonOption(options, arg, eatNext) {')]),
        ('value-options', [('lib', 'cli/parse.js', 149, 207, "if (arg === '--config') {")]),
    ]),
    ('config-loading', 'architecture/config-loading.md', [
        ('load-order', [('lib', 'config/load.js', 32, 64, 'function load(settings, options, config, callback) {')]),
        ('defaults-and-app-script', [('lib', 'config/load.js', 66, 97, '// add in any missing defaults'),
                                     ('lib', 'config/load.js', 16, 22, 'function findAppScript() {')]),
        ('config-file-read', [('lib', 'config/load.js', 171, 221, 'function loadFile(options, config, dir, ready) {')]),
        ('package-json-config', [('lib', 'config/load.js', 223, 234, 'function loadPackageJSON(config, ready) {'),
                                 ('root', 'README.md', 101, 120, '### package.json')]),
        ('legacy-ignore-files', [('lib', 'config/load.js', 105, 150, "// if we didn't pick up a nodemon.json file"),
                                 ('lib', 'rules/add.js', 54, 71, '// remove comments and trim lines')]),
        ('merge-semantics', [('lib', 'utils/merge.js', 15, 46, 'function merge(source, target, result) {')]),
    ]),
    ('exec-resolution', 'architecture/exec-resolution.md', [
        ('script-discovery', [('lib', 'config/exec.js', 79, 109, "// if there's no script passed"),
                              ('lib', 'config/exec.js', 15, 33, 'function execFromPackage() {'),
                              ('lib', 'config/exec.js', 42, 59, 'function expandScript(script, ext) {')]),
        ('extension-defaults', [('lib', 'config/exec.js', 111, 141, '// var options = utils.clone'),
                                ('lib', 'config/exec.js', 200, 214, '// allow users to make a mistake')]),
        ('placeholders-and-env', [('lib', 'config/exec.js', 140, 166, 'if (options.exec === undefined) {'),
                                  ('lib', 'config/exec.js', 216, 224, 'options.env = {};')]),
        ('coffee-handling', [('lib', 'config/exec.js', 168, 198, "// note: indexOf('coffee')")]),
        ('command-construction', [('lib', 'config/command.js', 18, 43, 'function command(settings) {'),
                                  ('lib', 'utils/index.js', 63, 81, 'stringify: function (exec, args) {')]),
    ]),
    ('process-runner', 'architecture/process-runner.md', [
        ('child-environment', [('lib', 'monitor/run.js', 21, 58, 'function run(options) {'),
                               ('lib', 'monitor/run.js', 60, 97, "var sh = 'sh';")]),
        ('fork-vs-spawn', [('lib', 'monitor/run.js', 99, 141, "const firstArg = cmd.args[0] || '';"),
                           ('lib', 'monitor/run.js', 143, 169, 'if (config.required) {')]),
        ('exit-classification', [('lib', 'monitor/run.js', 219, 266, '// In case we killed the app ourselves')]),
        ('kill-tree', [('lib', 'monitor/run.js', 424, 470, 'run.kill = function (noRestart, callback) {'),
                       ('lib', 'monitor/run.js', 394, 422, '// we use psTree to kill the full subtree'),
                       ('lib', 'monitor/run.js', 311, 325, 'function waitForSubProcesses(pid, callback) {')]),
        ('windows-kill', [('lib', 'monitor/run.js', 327, 354, 'function kill(child, signal, callback) {'),
                          ('lib', 'monitor/run.js', 356, 392, 'try {')]),
        ('quit-and-restart-events', [('lib', 'monitor/run.js', 474, 516, "bus.on('quit', function onQuit(code) {"),
                                     ('lib', 'monitor/run.js', 518, 544, "bus.on('restart', function () {")]),
    ]),
    ('file-watching', 'architecture/file-watching.md', [
        ('rules-to-monitor', [('lib', 'monitor/match.js', 43, 101, 'monitor = monitor.map(function (rule) {'),
                              ('lib', 'monitor/match.js', 106, 130, 'function tryBaseDir(dir) {')]),
        ('chokidar-setup', [('lib', 'monitor/watch.js', 26, 79, 'function watch() {')]),
        ('watcher-events', [('lib', 'monitor/watch.js', 81, 130, 'watcher.ready = false;')]),
        ('match-algorithm', [('lib', 'monitor/match.js', 132, 190, 'function match(files, monitor, ext) {'),
                             ('lib', 'monitor/match.js', 197, 245, 'files.forEach(function (file) {'),
                             ('lib', 'monitor/match.js', 247, 276, '// finally check the good files')]),
        ('filter-and-restart', [('lib', 'monitor/watch.js', 168, 216, "debug('filterAndRestart on', files);"),
                                ('lib', 'monitor/watch.js', 218, 239, 'function restartBus(matched) {')]),
    ]),
    ('internals', 'architecture/internals.md', [
        ('event-bus', [('lib', 'utils/bus.js', 1, 44, "var events = require('events');")]),
        ('logger', [('lib', 'utils/log.js', 1, 56, "var colour = require('./colour');"),
                    ('lib', 'utils/index.js', 36, 55, 'quiet: function () {')]),
        ('help-and-version', [('lib', 'help/index.js', 1, 27, "var fs = require('fs');"),
                              ('lib', 'version.js', 15, 60, 'function version(callback) {')]),
    ]),
    ('running', 'usage/running.md', [
        ('installing', [('root', 'README.md', 14, 30, '# Installation'),
                        ('root', 'package.json', 8, 13, '"bin": {')]),
        ('running-a-script', [('root', 'README.md', 32, 58, '# Usage'),
                              ('doc', 'cli/help.txt', 1, 13, 'Usage: nodemon [options] [script.js] [args]')]),
        ('no-script', [('root', 'README.md', 60, 64, 'If you have a `package.json` file'),
                       ('lib', 'config/load.js', 16, 22, 'function findAppScript() {'),
                       ('lib', 'nodemon.js', 74, 82, 'config.load(settings, function (config) {')]),
        ('passing-arguments', [('doc', 'cli/help.txt', 21, 27, 'Examples:'),
                               ('lib', 'cli/parse.js', 66, 86, 'if (lookForArgs) {'),
                               ('lib', 'config/command.js', 23, 37, '// after "executable" go the exec args')]),
        ('manual-restart', [('lib', 'nodemon.js', 100, 147, 'if (config.options.stdin && config.options.restartable) {'),
                            ('root', 'README.md', 66, 72, '## Automatic re-running')]),
    ]),
    ('cli-options', 'usage/cli-options.md', [
        ('execution-flags', [('doc', 'cli/options.txt', 12, 19, 'Execution'),
                             ('lib', 'monitor/run.js', 33, 46, 'var runCmd =')]),
        ('information-flags', [('doc', 'cli/options.txt', 27, 36, 'Information'),
                               ('lib', 'nodemon.js', 199, 214, 'if (config.options.dump) {'),
                               ('doc', 'cli/topics.txt', 2, 8, 'options ....')]),
        ('quiet-and-verbose', [('lib', 'config/load.js', 88, 96, 'mutateExecOptions(options);'),
                               ('lib', 'utils/index.js', 36, 45, 'quiet: function () {'),
                               ('lib', 'nodemon.js', 36, 40, '// set the debug flag')]),
        ('colours-and-update-check', [('doc', 'cli/options.txt', 2, 10, 'Configuration'),
                                      ('root', 'bin/nodemon.js', 9, 16, "const fs = require('fs');")]),
    ]),
    ('configuration', 'usage/configuration.md', [
        ('nodemon-json', [('root', 'README.md', 74, 99, '## Config files'),
                          ('doc', 'cli/config.txt', 2, 19, 'Typically the options')]),
        ('nodemonconfig', [('root', 'README.md', 101, 120, '### package.json'),
                           ('doc', 'cli/config.txt', 5, 9, 'nodemon can also be configured')]),
        ('global-config', [('doc', 'cli/config.txt', 35, 44, 'The global config file'),
                           ('lib', 'config/load.js', 32, 45, 'function load(settings, options, config, callback) {')]),
        ('config-only-keys', [('lib', 'config/defaults.js', 1, 32, "var ignoreRoot = require('ignore-by-default').directories();")]),
        ('placeholders', [('doc', 'cli/config.txt', 20, 33, 'There are a limited number of variables'),
                          ('lib', 'config/exec.js', 140, 160, 'if (options.exec === undefined) {')]),
    ]),
    ('watching', 'usage/watching.md', [
        ('watch-paths', [('root', 'README.md', 162, 172, '## Monitoring multiple directories'),
                         ('lib', 'monitor/match.js', 220, 232, "// if the rule doesn't match the WATCH EVERYTHING")]),
        ('extensions', [('root', 'README.md', 174, 182, '## Specifying extension watch list'),
                        ('lib', 'config/exec.js', 111, 121, '// var options = utils.clone'),
                        ('doc', 'cli/help.txt', 14, 19, 'Note: if the script is omitted')]),
        ('ignore-patterns', [('root', 'README.md', 184, 206, '## Ignoring files'),
                             ('lib', 'monitor/match.js', 153, 179, '}).map(function (s) {')]),
        ('default-ignores', [('root', 'README.md', 208, 212, 'Note that by default'),
                             ('lib', 'config/load.js', 51, 63, 'if (!options.ignoreRoot) {'),
                             ('lib', 'monitor/watch.js', 41, 53, 'const dotFilePattern')]),
        ('delay', [('root', 'README.md', 222, 254, '## Delaying restarting'),
                   ('lib', 'cli/parse.js', 216, 229, 'function parseDelay(value) {')]),
    ]),
    ('non-node-scripts', 'usage/non-node-scripts.md', [
        ('exec-option', [('root', 'README.md', 130, 138, '## Running non-node scripts'),
                         ('lib', 'monitor/run.js', 60, 70, "var sh = 'sh';")]),
        ('exec-map', [('root', 'README.md', 140, 160, '### Default executables'),
                      ('lib', 'config/defaults.js', 4, 14, 'const defaults = {')]),
        ('typescript', [('lib', 'config/defaults.js', 28, 32, "if ((process.env.NODE_OPTIONS || '').includes('--loader')) {"),
                        ('lib', 'config/exec.js', 123, 131, 'var execDefined = !!options.exec;')]),
    ]),
    ('signals', 'usage/signals.md', [
        ('restart-signal', [('root', 'README.md', 288, 292, '## Controlling shutdown of your script'),
                            ('lib', 'monitor/run.js', 394, 422, '// we use psTree to kill the full subtree'),
                            ('lib', 'monitor/run.js', 341, 354, "// We are handling a 'SIGKILL'")]),
        ('graceful-shutdown', [('root', 'README.md', 292, 302, 'The following example will listen once'),
                               ('lib', 'monitor/run.js', 219, 237, '// In case we killed the app ourselves')]),
        ('custom-signal', [('root', 'README.md', 256, 286, '## Gracefully reloading down your script'),
                           ('lib', 'cli/parse.js', 191, 197, "if (arg === '--signal' || arg === '-s') {")]),
        ('signalling-nodemon', [('lib', 'nodemon.js', 154, 162, 'if (!config.required) {'),
                                ('lib', 'monitor/run.js', 532, 544, '// because windows borks')]),
    ]),
    ('events', 'usage/events.md', [
        ('event-list', [('root', 'README.md', 304, 318, '## Triggering events when nodemon state changes'),
                        ('lib', 'monitor/watch.js', 218, 229, 'function restartBus(matched) {'),
                        ('lib', 'config/index.js', 76, 88, 'if (config.dirs.length === 0) {')]),
        ('events-in-config', [('lib', 'nodemon.js', 227, 238, 'if (config.options.events'),
                              ('lib', 'spawn.js', 7, 51, 'module.exports = function spawnCommand')]),
        ('parent-process', [('lib', 'utils/bus.js', 27, 42, '// proxy process messages'),
                            ('root', 'README.md', 122, 128, '## Using nodemon as a module')]),
    ]),
    ('module-api', 'usage/module-api.md', [
        ('require-nodemon', [('lib', 'nodemon.js', 19, 34, 'function nodemon(settings) {'),
                             ('lib', 'cli/index.js', 12, 49, 'function stringToArgs(string) {')]),
        ('methods', [('lib', 'nodemon.js', 247, 305, 'nodemon.restart = function () {')]),
        ('log-messages', [('lib', 'utils/log.js', 15, 37, 'function log(type, text) {'),
                          ('lib', 'utils/log.js', 63, 71, 'Logger.prototype._log')]),
        ('piping-output', [('root', 'README.md', 320, 330, '## Pipe output to somewhere else'),
                           ('lib', 'nodemon.js', 216, 225, 'config.run = true;'),
                           ('lib', 'monitor/run.js', 143, 162, 'if (config.required) {')]),
    ]),
    ('troubleshooting', 'faq/troubleshooting.md', [
        ('not-restarting-in-containers', [('root', 'README.md', 210, 220, "## Application isn't restarting"),
                                          ('doc', 'cli/options.txt', 21, 25, 'Watching'),
                                          ('lib', 'monitor/watch.js', 55, 66, 'var watchOptions = {')]),
        ('too-many-files', [('lib', 'monitor/watch.js', 103, 114, "watcher.on('error', function (error) {")]),
        ('crashed-or-clean-exit', [('lib', 'monitor/run.js', 229, 259, 'if (signal === config.signal || code === 0) {'),
                                   ('root', 'README.md', 66, 72, '## Automatic re-running')]),
        ('exit-code-2', [('lib', 'monitor/run.js', 199, 217, '// If the command failed with code 2')]),
        ('executable-not-found', [('lib', 'monitor/run.js', 175, 197, "child.on('error', function (error) {"),
                                  ('lib', 'monitor/run.js', 63, 70, 'const binPath')]),
        ('changes-ignored', [('lib', 'monitor/watch.js', 196, 214, 'utils.log.detail('),
                             ('lib', 'monitor/watch.js', 85, 94, "watcher.on('change', filterAndRestart);")]),
        ('config-parse-failure', [('lib', 'config/load.js', 205, 216, 'var settings = {};'),
                                  ('lib', 'config/exec.js', 216, 222, 'options.env = {};')]),
    ]),
    ('about-nodemon', 'faq/about-nodemon.md', [
        ('node-versions', [('root', 'package.json', 8, 13, '"bin": {'),
                           ('lib', 'monitor/run.js', 272, 303, '// connect stdin to the child process'),
                           ('lib', 'monitor/run.js', 106, 118, '// hasStdio allows us')]),
        ('windows-notes', [('lib', 'monitor/run.js', 74, 94, 'if (utils.isWindows) {'),
                           ('lib', 'monitor/watch.js', 159, 165, 'if (utils.isWindows) {'),
                           ('lib', 'monitor/match.js', 188, 195, 'var minimatchOpts = {')]),
        ('project', [('root', 'README.md', 332, 358, '## Using nodemon in your gulp workflow'),
                     ('doc', 'cli/authors.txt', 2, 8, 'Remy Sharp - author and maintainer')]),
    ]),
]

if __name__ == "__main__":
    write_structure(HERE, "nodemon", BASE, SUBPATH, ARTICLES)

#!/usr/bin/env python3
"""Writes ws/knowledge/structure.yaml for the kong corpus from the reference table below.

Every reference is (module, path, start, end, anchor): module "root" (the repository root: the
kong package, README.md, go.mod, the tests), the path inside the module, the cited line range
at the base commit, and a text its first line must hold. The checks and the digest rule are in
the shared writer, ../tools/structure_table.py.

Usage: make-structure.py            (reads repo.git next to this script, writes ws/...)
The prose of the pages is hand-written; this script only computes the structure file.
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tools"))
from structure_table import write_structure  # noqa: E402  (the shared writer, ../tools)

BASE = "bf694877dab45c6e051a1d78ac483c65965f1b9b"
SUBPATH = {"root": ""}

# article_id, path under knowledge/, then the sections in page order with their references.
ARTICLES = [
    ('overview', 'architecture/overview.md', [
        ('kong-struct', [('root', 'kong.go', 42, 72, '// Kong is the main parser type.')]),
        ('constructor', [('root', 'kong.go', 74, 133, '// New creates a new Kong parser')]),
        ('parse-pipeline', [('root', 'kong.go', 239, 279, '// Parse arguments into target.'),
                            ('root', 'global.go', 7, 16, '// Parse constructs a new parser')]),
    ]),
    ('model-building', 'architecture/model-building.md', [
        ('build-entry', [('root', 'build.go', 14, 40, 'func build(k *Kong'),
                         ('root', 'kong.go', 215, 237, '// Provide additional builtin flags')]),
        ('flattening', [('root', 'build.go', 52, 107, 'func flattenedFields')]),
        ('naming-and-fields', [('root', 'build.go', 123, 159, 'MAIN:'),
                               ('root', 'build.go', 267, 317, 'func buildField')]),
        ('child-nodes', [('root', 'build.go', 203, 258, 'func buildChild'),
                         ('root', 'build.go', 181, 201, 'func validatePositionalArguments')]),
    ]),
    ('tag-parsing', 'architecture/tag-parsing.md', [
        ('tag-syntaxes', [('root', 'tag.go', 47, 100, 'type tagChars struct'),
                          ('root', 'tag.go', 117, 124, 'func getTagInfo'),
                          ('root', 'README.md', 514, 522, '## Supported tags')]),
        ('hydrate', [('root', 'tag.go', 169, 220, 'func hydrateTag'),
                     ('root', 'tag.go', 221, 245, 'aliases := t.Get("aliases")')]),
        ('separators-and-runes', [('root', 'tag.go', 284, 312, '// GetRune parses')]),
    ]),
    ('parsing-trace', 'architecture/parsing-trace.md', [
        ('scanner', [('root', 'scanner.go', 8, 40, '// TokenType is the type of a token.'),
                     ('root', 'scanner.go', 151, 180, 'type expectedError struct')]),
        ('token-splitting', [('root', 'context.go', 347, 405, 'func (c *Context) trace')]),
        ('positional-and-branches', [('root', 'context.go', 431, 487, 'case PositionalArgumentToken:'),
                                     ('root', 'context.go', 489, 521, '// Finally, check arguments.')]),
        ('flag-matching', [('root', 'context.go', 666, 720, 'func flipBoolValue')]),
    ]),
    ('resolve-apply-validate', 'architecture/resolve-apply-validate.md', [
        ('reset-and-env', [('root', 'model.go', 345, 380, '// Apply value to field.')]),
        ('resolve-step', [('root', 'context.go', 541, 595, '// Resolve walks through')]),
        ('validate-step', [('root', 'context.go', 163, 215, '// Validate the current context.'),
                           ('root', 'context.go', 239, 270, '// Check the terminal node.')]),
    ]),
    ('mappers', 'architecture/mappers.md', [
        ('lookup-order', [('root', 'mapper.go', 154, 170, '// ForNamedValue finds a mapper'),
                          ('root', 'mapper.go', 182, 214, '// ForType finds a mapper')]),
        ('default-registry', [('root', 'mapper.go', 250, 279, '// RegisterDefaults registers'),
                              ('root', 'mapper.go', 281, 311, 'type boolMapper struct{}')]),
        ('slices-and-maps', [('root', 'mapper.go', 443, 490, 'func mapDecoder'),
                             ('root', 'mapper.go', 521, 561, 'func sliceDecoder')]),
        ('files-and-paths', [('root', 'mapper.go', 563, 607, 'func pathMapper'),
                             ('root', 'mapper.go', 609, 643, 'func existingFileMapper')]),
        ('counter-and-escapes', [('root', 'mapper.go', 695, 734, 'func counterMapper'),
                                 ('root', 'mapper.go', 752, 785, '// SplitEscaped splits')]),
    ]),
    ('help-rendering', 'architecture/help-rendering.md', [
        ('help-flag', [('root', 'help.go', 16, 28, '// Help flag.'),
                       ('root', 'options.go', 84, 90, '// NoDefaultHelp disables')]),
        ('node-detail', [('root', 'help.go', 160, 215, 'func printNodeDetail')]),
        ('flag-column', [('root', 'help.go', 488, 518, '// haveShort will be true'),
                         ('root', 'model.go', 410, 439, '// FormatPlaceHolder formats')]),
        ('wrap-width', [('root', 'guesswidth_unix.go', 14, 42, 'func guessWidth'),
                        ('root', 'help.go', 373, 387, 'func newHelpWriter')]),
    ]),
    ('bindings', 'architecture/bindings.md', [
        ('binding-map', [('root', 'callbacks.go', 9, 65, 'type bindings map')]),
        ('calling-methods', [('root', 'callbacks.go', 67, 100, 'func getMethod'),
                             ('root', 'kong.go', 281, 312, 'func (k *Kong) applyHook')]),
        ('run-node', [('root', 'context.go', 722, 781, '// RunNode calls the Run() method')]),
    ]),
    ('commands-and-arguments', 'usage/commands-and-arguments.md', [
        ('commands', [('root', 'README.md', 352, 370, '## Commands and sub-commands'),
                      ('root', 'context.go', 280, 296, '// Command returns the full command path.')]),
        ('positional-arguments', [('root', 'README.md', 398, 424, '## Positional arguments'),
                                  ('root', 'context.go', 870, 898, "// If we're missing any positionals")]),
        ('branching-arguments', [('root', 'README.md', 371, 397, '## Branching positional arguments')]),
        ('aliases-and-hidden', [('root', 'context.go', 455, 487, '// Assign token value to a branch name'),
                                ('root', 'model.go', 200, 216, '// Path through ancestors')]),
        ('passthrough', [('root', 'build.go', 245, 256, 'if tag.Passthrough {'),
                         ('root', 'context.go', 332, 345, 'func (c *Context) endParsing()')]),
    ]),
    ('flags', 'usage/flags.md', [
        ('declaring-flags', [('root', 'README.md', 340, 351, '## Flags'),
                             ('root', 'README.md', 447, 475, '## Pointers')]),
        ('required-and-defaults', [('root', 'context.go', 792, 829, 'func checkMissingFlags')]),
        ('enums', [('root', 'context.go', 900, 930, 'func checkEnum'),
                   ('root', 'tag.go', 233, 238, 't.PlaceHolder = t.Get("placeholder")')]),
        ('negatable-booleans', [('root', 'mapper.go', 281, 311, 'type boolMapper struct{}'),
                                ('root', 'tag.go', 216, 220, 'negatable := t.Has("negatable")')]),
        ('xor-groups', [('root', 'context.go', 942, 958, 'func checkXorDuplicates'),
                        ('root', 'README.md', 544, 548, '| `enum:"X,Y,..."`')]),
    ]),
    ('run-and-hooks', 'usage/run-and-hooks.md', [
        ('run-methods', [('root', 'README.md', 239, 290, '### Attach a `Run(...) error`')]),
        ('binding-values', [('root', 'options.go', 160, 196, '// Bind binds values for hooks'),
                            ('root', 'context.go', 104, 124, '// Bind adds bindings to the Context.')]),
        ('hooks', [('root', 'README.md', 304, 339, '## Hooks: BeforeReset()'),
                   ('root', 'hooks.go', 1, 19, 'package kong')]),
        ('validation', [('root', 'README.md', 621, 635, '## Validation'),
                        ('root', 'context.go', 979, 992, 'type validatable interface')]),
    ]),
    ('options', 'usage/options.md', [
        ('name-and-description', [('root', 'options.go', 92, 117, '// PostBuild provides read/write access'),
                                  ('root', 'README.md', 642, 649, '### `Name(help)` and `Description(help)`')]),
        ('writers-and-exit', [('root', 'options.go', 50, 56, '// Exit overrides the function'),
                              ('root', 'options.go', 151, 158, '// Writers overrides the default')]),
        ('usage-on-error', [('root', 'options.go', 298, 314, '// UsageOnError configures'),
                            ('root', 'options.go', 206, 215, '// ShortHelp configures')]),
        ('dynamic-commands-plugins', [('root', 'options.go', 58, 82, 'type dynamicCommand struct'),
                                      ('root', 'README.md', 554, 578, '## Plugins')]),
    ]),
    ('variables-and-env', 'usage/variables-and-env.md', [
        ('interpolation', [('root', 'interpolate.go', 8, 52, 'var interpolationRegex'),
                           ('root', 'README.md', 579, 620, '## Variable interpolation')]),
        ('env-tag', [('root', 'help.go', 87, 101, '// DefaultHelpValueFormatter is'),
                     ('root', 'model.go', 360, 380, '// Reset this value to its default')]),
        ('default-envars', [('root', 'options.go', 426, 465, '// DefaultEnvars option inits')]),
    ]),
    ('configuration-files', 'usage/configuration-files.md', [
        ('configuration-option', [('root', 'options.go', 357, 412, '// ConfigurationLoader is a function'),
                                  ('root', 'README.md', 650, 667, '### `Configuration(loader, paths...)`')]),
        ('json-keys', [('root', 'resolver.go', 30, 68, '// JSON returns a Resolver')]),
        ('config-flag', [('root', 'util.go', 9, 27, '// ConfigFlag uses the configured'),
                         ('root', 'kong.go', 399, 416, '// LoadConfig from path')]),
    ]),
    ('help-and-version', 'usage/help-and-version.md', [
        ('help-options', [('root', 'help.go', 30, 65, '// HelpOptions for HelpPrinters.')]),
        ('detailed-help', [('root', 'README.md', 131, 180, '### Defining help in Kong'),
                           ('root', 'help.go', 67, 85, '// HelpProvider can be implemented')]),
        ('groups', [('root', 'options.go', 243, 296, '// AutoGroup automatically assigns'),
                    ('root', 'build.go', 319, 334, 'func buildGroupForKey')]),
        ('version-and-chdir', [('root', 'util.go', 29, 57, '// VersionFlag is a flag type')]),
    ]),
    ('custom-types', 'usage/custom-types.md', [
        ('mapper-options', [('root', 'options.go', 119, 149, '// TypeMapper registers a mapper'),
                            ('root', 'README.md', 668, 690, '### `*Mapper(...)`')]),
        ('mapper-value', [('root', 'mapper.go', 26, 63, '// DecodeContext is passed'),
                          ('root', 'README.md', 497, 513, '## Custom decoders (mappers)')]),
        ('file-content-flags', [('root', 'mapper.go', 798, 846, '// NamedFileContentFlag is a flag')]),
    ]),
    ('troubleshooting', 'faq/troubleshooting.md', [
        ('unexpected-argument', [('root', 'context.go', 504, 521, '// If there is a default command'),
                                 ('root', 'context.go', 960, 977, 'func findPotentialCandidates')]),
        ('missing-and-expected', [('root', 'context.go', 831, 868, 'func checkMissingChildren')]),
        ('build-time-errors', [('root', 'build.go', 267, 271, 'func buildField'),
                               ('root', 'build.go', 14, 19, 'func build(k *Kong'),
                               ('root', 'build.go', 336, 351, 'func checkDuplicateNames')]),
        ('binding-errors', [('root', 'callbacks.go', 77, 100, 'func callMethod'),
                            ('root', 'context.go', 762, 781, '// Run executes the Run() method')]),
        ('help-not-shown-on-error', [('root', 'kong.go', 246, 259, 'func (k *Kong) Parse'),
                                     ('root', 'context.go', 523, 539, "// End of the line, check for a default")]),
    ]),
    ('about-kong', 'faq/about-kong.md', [
        ('what-is-kong', [('root', 'README.md', 47, 88, '## Introduction'),
                          ('root', 'doc.go', 1, 32, '// Package kong aims')]),
        ('module-and-licence', [('root', 'go.mod', 1, 10, 'module github.com/alecthomas/kong'),
                                ('root', 'COPYING', 1, 19, 'Copyright (C) 2018 Alec Thomas')]),
    ]),
]

if __name__ == "__main__":
    write_structure(HERE, "kong", BASE, SUBPATH, ARTICLES)

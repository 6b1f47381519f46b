#!/usr/bin/env python3
"""Writes ws/knowledge/structure.yaml for the urfave-cli corpus from the reference table below.

Every reference is (module, path, start, end, anchor): module "root" (the repository root: the
cli package, altsrc/, autocomplete/, README.md, go.mod, the tests) or "docs" (subpath docs/:
the v2 manual, the v1-to-v2 migration guide and the changelog), the path inside the module, the
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

BASE = "c3fe0d372b4c4e0b5379501edd1daf74ea164596"
SUBPATH = {"root": "", "docs": "docs"}

# article_id, path under knowledge/, then the sections in page order with their references.
ARTICLES = [
    ('overview', 'architecture/overview.md', [
        ('source-layout', [('root', 'cli.go', 1, 21, '// Package cli provides'),
                           ('root', 'README.md', 9, 22, 'cli is a simple, fast')]),
        ('dependencies', [('root', 'go.mod', 1, 9, 'module github.com/urfave/cli/v2'),
                          ('root', 'README.md', 24, 42, '## Installation')]),
        ('newapp-and-setup', [('root', 'app.go', 111, 126, '// NewApp creates'),
                              ('root', 'app.go', 131, 176, 'func (a *App) Setup()'),
                              ('root', 'app.go', 188, 211, 'if a.Command(helpCommand.Name) == nil')]),
    ]),
    ('run-flow', 'architecture/run-flow.md', [
        ('parse-and-normalize', [('root', 'app.go', 227, 258, '// RunContext is like Run'),
                                 ('root', 'help.go', 338, 351, 'func checkShellCompleteFlag'),
                                 ('root', 'flag.go', 121, 131, 'func flagSet(')]),
        ('usage-errors', [('root', 'app.go', 260, 269, 'if err != nil {'),
                          ('root', 'funcs.go', 20, 24, '// OnUsageErrorFunc is executed')]),
        ('checks-before-action', [('root', 'app.go', 271, 285, 'if !a.HideHelp && checkHelp(context)'),
                                  ('root', 'help.go', 300, 318, 'func checkVersion')]),
        ('hooks-and-dispatch', [('root', 'app.go', 287, 326, 'if a.After != nil {'),
                                ('root', 'app.go', 501, 507, 'func (a *App) handleExitCoder')]),
        ('run-as-subcommand', [('root', 'app.go', 340, 398, '// RunAsSubcommand invokes'),
                               ('root', 'app.go', 400, 443, 'cerr := checkRequiredFlags(a.Flags, context)')]),
    ]),
    ('command-dispatch', 'architecture/command-dispatch.md', [
        ('leaf-command-run', [('root', 'command.go', 91, 134, '// Run invokes the command'),
                              ('root', 'command.go', 136, 169, 'if c.After != nil {')]),
        ('start-app', [('root', 'command.go', 217, 272, 'func (c *Command) startApp')]),
        ('skip-flag-parsing', [('root', 'command.go', 179, 200, 'func (c *Command) parseFlags'),
                               ('root', 'command.go', 42, 48, '// Treat all flags as normal arguments')]),
        ('names-and-lookup', [('root', 'command.go', 82, 89, '// FullName returns'),
                              ('root', 'command.go', 202, 227, '// Names returns'),
                              ('root', 'app.go', 445, 454, '// Command returns the named command')]),
    ]),
    ('context', 'architecture/context.md', [
        ('context-struct', [('root', 'context.go', 11, 42, '// Context is a type'),
                            ('root', 'context.go', 80, 107, '// LocalFlagNames returns')]),
        ('getter-lookup', [('root', 'flag_string.go', 76, 95, '// String looks up'),
                           ('root', 'context.go', 109, 123, '// Value returns the value'),
                           ('root', 'context.go', 153, 161, 'func lookupFlagSet')]),
        ('is-set', [('root', 'context.go', 44, 78, '// NumFlags returns'),
                    ('root', 'context.go', 125, 151, 'func lookupFlag(')]),
        ('normalize-aliases', [('root', 'context.go', 163, 203, 'func copyFlag('),
                               ('root', 'flag_string_slice.go', 45, 49, '// Serialize allows')]),
        ('args-and-lookup-quirks', [('root', 'args.go', 1, 54, 'package cli'),
                                    ('root', 'flag_int_slice.go', 156, 173, '// IntSlice looks up'),
                                    ('root', 'flag_int64_slice.go', 145, 149, '// Int64Slice looks up')]),
    ]),
    ('flag-internals', 'architecture/flag-internals.md', [
        ('flag-interfaces', [('root', 'flag.go', 87, 119, '// Flag is a common interface')]),
        ('apply-and-flagset', [('root', 'flag.go', 121, 131, 'func flagSet('),
                               ('root', 'flag.go', 206, 218, 'func flagNames('),
                               ('root', 'flag_string.go', 58, 74, '// Apply populates')]),
        ('env-and-file-sources', [('root', 'flag.go', 375, 388, 'func flagFromEnvOrFile'),
                                  ('root', 'flag_int.go', 61, 85, '// Apply populates the flag')]),
        ('help-line', [('root', 'flag.go', 251, 301, 'func stringifyFlag'),
                       ('root', 'flag.go', 171, 204, 'func prefixedNames')]),
        ('short-option-parsing', [('root', 'parse.go', 13, 68, '// To enable short-option handling'),
                                  ('root', 'parse.go', 70, 94, 'func splitShortOptions')]),
    ]),
    ('getting-started', 'usage/getting-started.md', [
        ('installing', [('root', 'README.md', 24, 64, '## Installation')]),
        ('first-app', [('docs', 'v2/manual.md', 50, 108, '## Getting Started'),
                       ('docs', 'v2/manual.md', 150, 179, 'Install our command')]),
        ('positional-arguments', [('docs', 'v2/manual.md', 180, 211, '### Arguments'),
                                  ('root', 'args.go', 3, 16, 'type Args interface')]),
        ('app-metadata', [('root', 'app.go', 69, 96, '// Compilation date'),
                          ('root', 'app.go', 509, 523, '// Author represents'),
                          ('root', 'template.go', 6, 33, 'var AppHelpTemplate')]),
    ]),
    ('flag-types', 'usage/flag-types.md', [
        ('scalar-flags', [('root', 'flag_bool.go', 9, 22, '// BoolFlag is a flag with type bool'),
                          ('root', 'flag_int.go', 87, 105, '// Int looks up')]),
        ('slice-flags', [('root', 'flag_string_slice.go', 10, 38, '// StringSlice wraps'),
                         ('root', 'flag_string_slice.go', 117, 161, '// Apply populates')]),
        ('timestamp-flag', [('root', 'flag_timestamp.go', 116, 137, '// Apply populates'),
                            ('docs', 'v2/manual.md', 1415, 1457, '### Timestamp Flag')]),
        ('path-and-generic', [('root', 'flag_generic.go', 8, 27, '// Generic is a generic'),
                              ('root', 'flag_path.go', 1, 18, 'package cli'),
                              ('root', 'altsrc/flag.go', 164, 190, '// ApplyInputSourceValue applies a Path')]),
        ('destination', [('docs', 'v2/manual.md', 261, 310, 'You can also set a destination'),
                         ('root', 'flag_string_slice.go', 61, 75, '// StringSliceFlag is a flag')]),
    ]),
    ('flag-options', 'usage/flag-options.md', [
        ('aliases', [('docs', 'v2/manual.md', 361, 402, '#### Alternate Names'),
                     ('root', 'flag.go', 206, 218, 'func flagNames(')]),
        ('env-vars', [('docs', 'v2/manual.md', 478, 530, '#### Values from the Environment'),
                      ('root', 'flag.go', 189, 204, 'func withEnvHint')]),
        ('file-path', [('docs', 'v2/manual.md', 553, 592, '#### Values from files'),
                       ('root', 'flag.go', 375, 388, 'func flagFromEnvOrFile')]),
        ('required-flags', [('docs', 'v2/manual.md', 663, 717, '#### Required Flags'),
                            ('root', 'context.go', 223, 273, 'type requiredFlagsErr interface')]),
        ('default-text', [('docs', 'v2/manual.md', 718, 762, '#### Default Values'),
                          ('root', 'flag.go', 269, 297, 'placeholder, usage := unquoteUsage')]),
        ('placeholders-and-hidden', [('docs', 'v2/manual.md', 313, 360, '#### Placeholder Values'),
                                     ('docs', 'v2/manual.md', 763, 771, '#### Precedence'),
                                     ('root', 'flag.go', 154, 169, '// Returns the placeholder')]),
    ]),
    ('commands', 'usage/commands.md', [
        ('defining-commands', [('root', 'command.go', 10, 41, '// Command is a subcommand'),
                               ('root', 'app.go', 308, 315, 'args := context.Args()')]),
        ('subcommands', [('docs', 'v2/manual.md', 772, 831, '### Subcommands'),
                         ('root', 'help.go', 29, 42, 'var helpSubcommand')]),
        ('categories', [('docs', 'v2/manual.md', 845, 897, '### Subcommands categories'),
                        ('root', 'category.go', 30, 79, 'func (c *commandCategories) AddCommand('),
                        ('root', 'app.go', 456, 471, '// VisibleCategories returns')]),
        ('ordering-and-hiding', [('docs', 'v2/manual.md', 403, 460, '#### Ordering'),
                                 ('root', 'sort.go', 5, 29, '// lexicographicLess compares'),
                                 ('root', 'flag.go', 67, 85, '// FlagsByName is a slice')]),
    ]),
    ('lifecycle-hooks', 'usage/lifecycle-hooks.md', [
        ('before-hook', [('root', 'funcs.go', 1, 15, 'package cli'),
                         ('root', 'app.go', 299, 306, 'if a.Before != nil {')]),
        ('after-hook', [('root', 'app.go', 287, 297, 'if a.After != nil {'),
                        ('root', 'errors.go', 17, 48, '// MultiError is an error')]),
        ('on-usage-error', [('root', 'funcs.go', 20, 24, '// OnUsageErrorFunc is executed'),
                            ('root', 'command.go', 114, 124, 'if err != nil {'),
                            ('root', 'app.go', 379, 388, 'if err != nil {')]),
        ('command-not-found', [('root', 'help.go', 188, 215, '// ShowCommandHelp prints help'),
                               ('root', 'app.go', 525, 540, '// HandleAction attempts'),
                               ('root', 'app.go', 14, 21, 'var (')]),
    ]),
    ('exit-codes', 'usage/exit-codes.md', [
        ('exit-function', [('root', 'errors.go', 55, 94, '// ExitCoder is the interface'),
                           ('docs', 'v2/manual.md', 898, 939, '### Exit code')]),
        ('handle-exit-coder', [('root', 'errors.go', 96, 126, '// HandleExitCoder handles')]),
        ('multi-error', [('root', 'errors.go', 17, 48, '// MultiError is an error'),
                         ('root', 'errors.go', 128, 141, 'func handleMultiError')]),
        ('exit-handlers-and-testing', [('root', 'errors.go', 10, 15, '// OsExiter is the function'),
                                       ('root', 'app.go', 328, 338, '// RunAndExitOnError calls'),
                                       ('root', 'help.go', 67, 71, '// ShowAppHelpAndExit')]),
    ]),
    ('help-and-version', 'usage/help-and-version.md', [
        ('help-flag-and-command', [('root', 'help.go', 13, 27, 'var helpCommand ='),
                                   ('root', 'flag.go', 30, 44, '// VersionFlag prints'),
                                   ('docs', 'CHANGELOG.md', 25, 30, '### Added')]),
        ('help-templates', [('root', 'template.go', 35, 75, '// CommandHelpTemplate is'),
                            ('root', 'help.go', 266, 294, '// printHelpCustom is the default')]),
        ('help-printer', [('root', 'help.go', 44, 93, '// Prints help for the App or Command'),
                          ('docs', 'v2/manual.md', 1246, 1262, '### Generated Help Text')]),
        ('version-flag', [('docs', 'v2/manual.md', 1343, 1400, '### Version Flag'),
                          ('root', 'help.go', 236, 243, '// ShowVersion prints')]),
    ]),
    ('shell-completion', 'usage/shell-completion.md', [
        ('enabling-completion', [('docs', 'v2/manual.md', 1177, 1211, '#### Customization'),
                                 ('root', 'help.go', 338, 368, 'func checkShellCompleteFlag'),
                                 ('root', 'flag.go', 24, 28, '// BashCompletionFlag enables')]),
        ('default-completion', [('root', 'help.go', 100, 132, 'func printCommandSuggestions'),
                                ('root', 'help.go', 134, 180, 'func printFlagSuggestions')]),
        ('custom-completion', [('docs', 'v2/manual.md', 1081, 1131, '#### Custom auto-completion'),
                               ('root', 'help.go', 253, 264, '// ShowCommandCompletions prints')]),
        ('shell-scripts', [('docs', 'v2/manual.md', 1132, 1176, '#### Enabling'),
                           ('root', 'autocomplete/zsh_autocomplete', 1, 23, '#compdef $PROG'),
                           ('docs', 'v2/manual.md', 1212, 1245, '#### ZSH Support')]),
        ('fish-completion', [('root', 'fish.go', 11, 65, '// ToFishCompletion creates'),
                             ('root', 'fish.go', 115, 158, 'func (a *App) prepareFishFlags'),
                             ('root', 'template.go', 108, 120, 'var FishCompletionTemplate')]),
    ]),
    ('altsrc', 'usage/altsrc.md', [
        ('wrapping-flags', [('root', 'altsrc/flag_generated.go', 1, 28, '// Code generated by fg'),
                            ('root', 'altsrc/flag.go', 12, 35, '// FlagInputSourceExtension is'),
                            ('docs', 'v2/manual.md', 593, 621, '#### Values from alternate')]),
        ('init-input-source', [('root', 'altsrc/flag.go', 37, 63, '// InitInputSource is used'),
                               ('docs', 'v2/manual.md', 627, 662, 'Here is a more complete sample')]),
        ('file-formats', [('root', 'altsrc/yaml_file_loader.go', 21, 43, '// NewYamlSourceFromFile'),
                          ('root', 'altsrc/yaml_file_loader.go', 60, 91, 'func loadDataFrom'),
                          ('root', 'altsrc/json_source_context.go', 14, 58, '// NewJSONSourceFromFlagFunc')]),
        ('keys-and-precedence', [('root', 'altsrc/map_input_source.go', 24, 46, '// nestedVal checks'),
                                 ('root', 'altsrc/flag.go', 192, 208, '// ApplyInputSourceValue applies a int'),
                                 ('root', 'altsrc/map_input_source.go', 247, 255, 'func incorrectTypeForFlagError')]),
    ]),
    ('doc-generation', 'usage/doc-generation.md', [
        ('to-markdown', [('root', 'template.go', 77, 106, 'var MarkdownDocTemplate'),
                         ('root', 'docs.go', 14, 22, '// ToMarkdown creates'),
                         ('root', 'docs.go', 56, 90, 'func prepareCommands')]),
        ('to-man', [('root', 'docs.go', 24, 54, '// ToMan creates'),
                    ('docs', 'CHANGELOG.md', 13, 24, '### Fixed')]),
        ('flags-in-docs', [('root', 'docs.go', 92, 148, 'func prepareArgsWithValues')]),
    ]),
    ('troubleshooting', 'faq/troubleshooting.md', [
        ('flag-not-defined', [('root', 'app.go', 260, 269, 'if err != nil {'),
                              ('root', 'command.go', 114, 124, 'if err != nil {'),
                              ('docs', 'v2/manual.md', 996, 1008, 'If your program has any number of bool')]),
        ('flags-after-arguments', [('docs', 'migrate-v1-to-v2.md', 30, 46, '# Flags before args'),
                                   ('root', 'app.go', 308, 315, 'args := context.Args()')]),
        ('required-flag-not-set', [('root', 'context.go', 245, 273, 'func checkRequiredFlags'),
                                   ('root', 'app.go', 281, 306, 'cerr := checkRequiredFlags(a.Flags, context)')]),
        ('flag-redefined-panic', [('root', 'app.go', 188, 200, 'if a.Command(helpCommand.Name) == nil'),
                                  ('root', 'flag.go', 30, 44, '// VersionFlag prints'),
                                  ('root', 'flag_bool.go', 76, 85, 'for _, name := range f.Names()')]),
        ('no-help-topic', [('root', 'help.go', 13, 27, 'var helpCommand ='),
                           ('root', 'help.go', 188, 215, '// ShowCommandHelp prints help')]),
        ('ineffective-customisation', [('root', 'flag.go', 46, 65, '// FlagStringer converts'),
                                       ('root', 'help.go', 320, 336, 'func checkCommandHelp')]),
    ]),
    ('v1-to-v2', 'faq/v1-to-v2.md', [
        ('names-and-imports', [('docs', 'migrate-v1-to-v2.md', 47, 95, '# Import string changed')]),
        ('pointers-and-actions', [('docs', 'migrate-v1-to-v2.md', 96, 155, '# Actions returns errors'),
                                  ('docs', 'migrate-v1-to-v2.md', 156, 183, '# Lists of commands should be pointers')]),
        ('removed-apis', [('docs', 'CHANGELOG.md', 59, 88, '## [2.0.0] - 2019-11-17')]),
    ]),
]

if __name__ == "__main__":
    write_structure(HERE, "urfave-cli", BASE, SUBPATH, ARTICLES)

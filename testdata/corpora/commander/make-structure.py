#!/usr/bin/env python3
"""Writes ws/knowledge/structure.yaml for the commander corpus from the reference table below.

Every reference is (module, path, start, end, anchor): module "lib" (subpath lib/) or "root"
(package root), the path inside the module, the cited 1-based inclusive line range at the
base commit, and a text that must occur in the first cited line (a guard against off-by-one
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
BASE = "c851177996e7eca799923232093879f58026d99e"
SUBPATH = {"lib": "lib", "root": ""}

# article_id, path under knowledge/, then the sections in page order with their references.
C, RM, T = "command.js", "Readme.md", "typings/index.d.ts"
ARTICLES = [
    ("overview", "architecture/overview.md", [
        ("package-layout", [("root", "package.json", 31, 57, '"files"'),
                            ("root", "package.json", 58, 80, '"devDependencies"')]),
        ("exports", [("root", "index.js", 1, 26, "const { Argument }"),
                     ("root", "esm.mjs", 1, 16, "import commander")]),
        ("program-vs-new-command", [("root", RM, 145, 173, "## Declaring _program_"),
                                    ("root", "index.js", 7, 13, "/**")]),
        ("command-state", [("lib", C, 20, 79, "constructor(name)")]),
        ("node-support", [("root", RM, 1137, 1148, "## Support"),
                          ("root", "package.json", 76, 80, '"engines"'),
                          ("root", "package-support.json", 1, 16, "{")]),
    ]),
    ("parsing-pipeline", "architecture/parsing-pipeline.md", [
        ("prepare-user-args", [("lib", C, 844, 889, "_prepareUserArgs(argv, parseOptions)")]),
        ("parse-command", [("lib", C, 1255, 1304, "_parseCommand(operands, unknown)"),
                           ("lib", C, 1305, 1331, "if (this.parent && this.parent.listenerCount")]),
        ("option-scanning", [("lib", C, 1432, 1481, "parseOptions(argv)"),
                             ("root", RM, 183, 201, "An option and its option-argument")]),
        ("unknown-and-positional", [("lib", C, 1483, 1515, "// Look for combo options"),
                                    ("lib", C, 1517, 1546, "// If using positionalOptions")]),
        ("env-and-implied", [("lib", C, 1613, 1629, "_parseOptionsEnv()"),
                             ("lib", C, 1636, 1652, "_parseOptionsImplied()"),
                             ("lib", C, 1255, 1262, "_parseCommand(operands, unknown)")]),
    ]),
    ("option-model", "architecture/option-model.md", [
        ("flags-string", [("lib", "option.js", 11, 36, "constructor(flags, description)"),
                          ("lib", "option.js", 311, 325, "function splitOptionFlags")]),
        ("attribute-name", [("lib", "option.js", 199, 241, "name() {"),
                            ("lib", "option.js", 299, 303, "function camelcase")]),
        ("value-handler", [("lib", C, 558, 603, "// register the option"),
                           ("lib", C, 610, 631, "_optionEx(config")]),
        ("dual-options", [("lib", C, 543, 556, "addOption(option)"),
                          ("lib", "option.js", 244, 289, "/**")]),
        ("value-sources", [("lib", C, 775, 816, "/**"),
                           ("lib", C, 818, 835, "/**"),
                           ("root", T, 286, 291, "export type AddHelpTextPosition")]),
    ]),
    ("help-system", "architecture/help-system.md", [
        ("help-class", [("lib", "help.js", 11, 45, "// Although this is a class"),
                        ("root", T, 209, 265, "export class Help")]),
        ("visible-items", [("lib", "help.js", 27, 45, "visibleCommands(cmd)"),
                           ("lib", "help.js", 69, 110, "visibleOptions(cmd)"),
                           ("lib", "help.js", 119, 132, "visibleArguments(cmd)")]),
        ("descriptions", [("lib", "help.js", 141, 170, "subcommandTerm(cmd)"),
                          ("lib", "help.js", 280, 336, "optionDescription(option)")]),
        ("format-help", [("lib", "help.js", 346, 405, "formatHelp(cmd, helper)"),
                         ("lib", "help.js", 235, 246, "commandUsage(cmd)"),
                         ("lib", C, 1978, 1984, "helpInformation(contextOptions)")]),
        ("wrap", [("lib", "help.js", 424, 459, "/**"),
                  ("root", RM, 758, 770, "A `help` command is added by default")]),
        ("help-events", [("lib", C, 2012, 2037, "outputHelp(contextOptions)"),
                         ("lib", C, 1990, 2002, "_getHelpContext(contextOptions)")]),
    ]),
    ("errors-and-exit", "architecture/errors-and-exit.md", [
        ("error-classes", [("lib", "error.js", 1, 43, "/**"),
                           ("root", T, 16, 47, "export class CommanderError")]),
        ("error-method", [("lib", C, 1590, 1605, "error(message, errorOptions)"),
                          ("lib", C, 459, 465, "_exit(exitCode, code, message)")]),
        ("error-codes-arguments", [("lib", C, 1661, 1688, "missingArgument(name)"),
                                   ("lib", C, 1764, 1772, "_excessArguments(receivedArgs)"),
                                   ("lib", C, 525, 535, "_callParseArg(")]),
        ("error-codes-options", [("lib", C, 1697, 1726, "_conflictingOption("),
                                 ("lib", C, 1735, 1755, "unknownOption(flag)"),
                                 ("lib", C, 1780, 1796, "unknownCommand()")]),
        ("exit-codes", [("lib", C, 2072, 2080, "help(contextOptions)"),
                        ("lib", C, 1811, 1824, "version(str, flags, description)"),
                        ("lib", C, 2123, 2130, "function outputHelpIfRequested")]),
    ]),
    ("executable-subcommands", "architecture/executable-subcommands.md", [
        ("declare-executable", [("lib", C, 149, 174, "command(nameAndArgs"),
                                ("root", RM, 684, 707, "### Stand-alone executable"),
                                ("root", T, 865, 873, "export interface CommandOptions")]),
        ("file-search", [("lib", C, 947, 996, "_executeSubCommand(subcommand, args)")]),
        ("spawn", [("lib", C, 998, 1028, "launchWithNode = sourceExt"),
                   ("root", RM, 1051, 1056, "### Node options such as")]),
        ("child-exit", [("lib", C, 1030, 1066, "// By default terminate process"),
                        ("lib", C, 434, 447, "exitOverride(fn)")]),
        ("inspector-port", [("lib", C, 2140, 2177, "function incrementNodeInspectorPort"),
                            ("root", RM, 1058, 1065, "### Debugging stand-alone"),
                            ("root", RM, 1032, 1036, "ts-node: If you use")]),
    ]),
    ("options", "usage/options.md", [
        ("boolean-and-value", [("root", RM, 202, 243, "### Common option types"),
                               ("lib", C, 1460, 1481, "if (maybeOption(arg)) {")]),
        ("value-syntax", [("root", RM, 175, 201, "## Options"),
                          ("lib", C, 1483, 1507, "// Look for combo options")]),
        ("default-values", [("root", RM, 245, 265, "### Default option value"),
                            ("lib", C, 610, 631, "_optionEx("),
                            ("lib", "option.js", 38, 50, "/**")]),
        ("negatable", [("root", RM, 267, 299, "### Other option types"),
                       ("lib", C, 543, 556, "addOption(option)")]),
        ("optional-value", [("root", RM, 301, 330, "You can specify an option which may be used"),
                            ("lib", C, 1468, 1474, "} else if (option.optional) {")]),
        ("variadic-options", [("root", RM, 350, 382, "### Variadic option"),
                              ("lib", "option.js", 164, 170, "_concatValue(value, previous)"),
                              ("lib", C, 1443, 1458, "let activeVariadicOption = null;")]),
        ("reading-values", [("lib", C, 1553, 1580, "opts() {"),
                            ("root", RM, 192, 200, "You can use `--` to indicate"),
                            ("root", T, 580, 604, "/**")]),
    ]),
    ("option-settings", "usage/option-settings.md", [
        ("required-option", [("root", RM, 332, 348, "### Required option"),
                             ("lib", C, 1362, 1371, "_checkForMissingMandatoryOptions()"),
                             ("lib", C, 659, 674, "/**")]),
        ("version-option", [("root", RM, 384, 402, "### Version option"),
                            ("lib", C, 1811, 1824, "version(str"),
                            ("root", T, 303, 315, "/**")]),
        ("choices", [("lib", "option.js", 172, 191, "/**"),
                     ("root", RM, 404, 445, "### More configuration")]),
        ("env-var", [("lib", "option.js", 109, 122, "/**"),
                     ("lib", C, 1613, 1629, "_parseOptionsEnv()"),
                     ("lib", C, 595, 600, "if (option.envVar) {")]),
        ("preset", [("lib", "option.js", 52, 67, "/**"),
                    ("lib", C, 561, 568, "// handler for cli and env")]),
        ("conflicts", [("lib", "option.js", 69, 84, "/**"),
                       ("lib", C, 1378, 1414, "_checkForConflictingLocalOptions()")]),
        ("implies", [("lib", "option.js", 86, 107, "/**"),
                     ("lib", C, 1636, 1652, "_parseOptionsImplied()"),
                     ("lib", "option.js", 273, 288, "/**")]),
        ("hidden-options", [("lib", "option.js", 148, 158, "/**"),
                            ("lib", C, 500, 513, "/**"),
                            ("lib", C, 1739, 1750, "if (flag.startsWith('--')")]),
    ]),
    ("custom-processing", "usage/custom-processing.md", [
        ("parser-signature", [("root", RM, 447, 496, "### Custom option processing"),
                              ("lib", C, 561, 588, "// handler for cli and env")]),
        ("accumulate", [("root", RM, 468, 509, "function increaseVerbosity"),
                        ("lib", C, 569, 576, "// custom processing")]),
        ("invalid-argument", [("lib", C, 515, 535, "/**"),
                              ("lib", "error.js", 24, 40, "/**"),
                              ("lib", C, 590, 600, "this.on('option:' + oname")]),
        ("argument-parsers", [("lib", C, 1138, 1175, "_processArguments()"),
                              ("root", RM, 610, 631, "#### Custom argument processing")]),
        ("regex-deprecated", [("lib", C, 610, 631, "_optionEx("),
                              ("root", T, 538, 552, "option(flags: string")]),
    ]),
    ("arguments", "usage/arguments.md", [
        ("declaring-arguments", [("root", RM, 553, 596, "### Command-arguments"),
                                 ("lib", C, 321, 349, "argument(name, description, fn, defaultValue)")]),
        ("variadic-arguments", [("lib", C, 357, 367, "addArgument(argument)"),
                                ("lib", "argument.js", 13, 40, "constructor(name, description)"),
                                ("root", RM, 576, 589, "The last argument")]),
        ("argument-class", [("lib", "argument.js", 64, 109, "/**"),
                            ("lib", "argument.js", 111, 125, "/**"),
                            ("root", RM, 598, 608, "#### More configuration")]),
        ("argument-errors", [("lib", C, 1116, 1130, "_checkNumberOfArguments()"),
                             ("lib", C, 1654, 1664, "/**"),
                             ("lib", C, 1764, 1772, "_excessArguments(")]),
        ("arguments-in-help", [("lib", C, 1903, 1919, "usage(str)"),
                               ("lib", "argument.js", 128, 142, "/**"),
                               ("lib", "help.js", 119, 132, "visibleArguments(cmd)")]),
    ]),
    ("subcommands", "usage/subcommands.md", [
        ("command-method", [("lib", C, 124, 174, "/**"),
                            ("root", RM, 511, 541, "## Commands")]),
        ("add-command", [("lib", C, 275, 288, "addCommand(cmd, opts)"),
                         ("root", RM, 543, 551, "Configuration options can be passed")]),
        ("inherited-settings", [("lib", C, 81, 109, "/**"),
                                ("root", RM, 543, 551, "Configuration options can be passed")]),
        ("aliases", [("lib", C, 1854, 1894, "/**"),
                     ("lib", C, 1333, 1341, "/**")]),
        ("default-command", [("lib", C, 1263, 1276, "if (operands && this._findCommand"),
                             ("root", RM, 693, 707, "Example file: [pm]"),
                             ("lib", "help.js", 27, 37, "visibleCommands(cmd)")]),
        ("no-subcommand", [("lib", C, 1305, 1331, "if (this.parent && this.parent.listenerCount"),
                           ("lib", C, 1780, 1796, "unknownCommand()"),
                           ("lib", C, 1072, 1086, "_dispatchSubcommand(")]),
    ]),
    ("action-handlers", "usage/action-handlers.md", [
        ("handler-parameters", [("lib", C, 482, 498, "action(fn)"),
                                ("root", RM, 633, 652, "### Action handler")]),
        ("this-binding", [("root", RM, 654, 666, "If you prefer, you can work"),
                          ("lib", C, 482, 498, "action(fn)")]),
        ("async-actions", [("lib", C, 934, 939, "async parseAsync("),
                           ("lib", C, 1186, 1194, "_chainOrCall(promise, fn)"),
                           ("root", RM, 668, 682, "You may supply an `async` action")]),
        ("no-action", [("lib", C, 1322, 1331, "} else if (this.commands.length) {"),
                       ("root", RM, 66, 97, "## Quick Start")]),
        ("command-events", [("lib", C, 1289, 1321, "const commandEvent = ")]),
    ]),
    ("hooks-and-events", "usage/hooks-and-events.md", [
        ("hook-events", [("lib", C, 405, 425, "/**"),
                         ("root", RM, 709, 736, "### Life cycle hooks")]),
        ("hook-order", [("lib", C, 1204, 1225, "_chainOrCallHooks(promise, event)"),
                        ("lib", C, 1290, 1304, "if (this._actionHandler) {")]),
        ("async-hooks", [("lib", C, 1186, 1194, "_chainOrCall("),
                         ("lib", C, 1236, 1246, "_chainOrCallSubCommandHook("),
                         ("root", T, 286, 291, "export type AddHelpTextPosition")]),
        ("option-events", [("root", RM, 940, 948, "## Custom event listeners"),
                           ("lib", C, 590, 600, "this.on('option:' + oname")]),
    ]),
    ("parsing-configuration", "usage/parsing-configuration.md", [
        ("parse-from", [("root", RM, 952, 968, "### .parse() and .parseAsync()"),
                        ("lib", C, 891, 913, "/**"),
                        ("root", T, 265, 272, "export type HelpConfiguration")]),
        ("positional-options", [("lib", C, 713, 723, "/**"),
                                ("root", RM, 970, 984, "### Parsing Configuration"),
                                ("lib", C, 1517, 1532, "// If using positionalOptions")]),
        ("pass-through", [("lib", C, 725, 740, "/**"),
                          ("root", RM, 986, 998, "By default, options are recognised"),
                          ("lib", C, 1534, 1539, "// If using passThroughOptions")]),
        ("unknown-options", [("lib", C, 691, 700, "/**"),
                             ("lib", C, 1282, 1287, "// We do not always call"),
                             ("root", RM, 1000, 1004, "By default, the option processing")]),
        ("excess-arguments", [("lib", C, 702, 711, "/**"),
                              ("lib", C, 1764, 1772, "_excessArguments("),
                              ("lib", C, 1116, 1130, "_checkNumberOfArguments()")]),
        ("combine-flag", [("lib", C, 676, 689, "/**"),
                          ("lib", C, 1483, 1497, "// Look for combo options")]),
        ("double-dash", [("lib", C, 1444, 1452, "while (args.length)"),
                         ("root", RM, 1067, 1076, "### npm run-script"),
                         ("root", RM, 192, 196, "You can use `--`")]),
    ]),
    ("help-customisation", "usage/help-customisation.md", [
        ("default-help", [("root", RM, 738, 770, "## Automated help"),
                          ("lib", C, 1095, 1108, "_dispatchHelpCommand(subcommandName)"),
                          ("lib", C, 2123, 2130, "function outputHelpIfRequested")]),
        ("add-help-text", [("lib", C, 2082, 2112, "/**"),
                           ("root", RM, 771, 812, "### Custom help")]),
        ("help-after-error", [("lib", C, 242, 263, "/**"),
                              ("root", RM, 814, 842, "### Display help after errors")]),
        ("help-option", [("lib", C, 2039, 2062, "/**"),
                         ("root", RM, 898, 905, "### .helpOption"),
                         ("lib", "help.js", 69, 84, "visibleOptions(cmd)")]),
        ("help-command", [("lib", C, 369, 403, "/**"),
                          ("root", RM, 907, 915, "### .addHelpCommand()")]),
        ("name-usage-description", [("root", RM, 852, 896, "### .name"),
                                    ("lib", C, 1826, 1852, "/**"),
                                    ("lib", C, 1903, 1932, "usage(str)")]),
        ("configure-help", [("lib", C, 190, 214, "/**"),
                            ("root", RM, 917, 938, "### More configuration")]),
        ("help-from-code", [("root", RM, 844, 850, "### Display help from code"),
                            ("lib", C, 1971, 1984, "/**"),
                            ("lib", C, 2064, 2080, "/**")]),
    ]),
    ("exit-and-output", "usage/exit-and-output.md", [
        ("exit-override", [("lib", C, 427, 465, "/**"),
                           ("root", RM, 1090, 1106, "### Override exit")]),
        ("configure-output", [("lib", C, 216, 240, "/**"),
                              ("root", RM, 1108, 1127, "By default, Commander is configured"),
                              ("lib", C, 59, 66, "// see .configureOutput()")]),
        ("program-error", [("lib", C, 1582, 1605, "/**"),
                           ("root", RM, 1078, 1088, "### Display error")]),
        ("testing", [("lib", C, 89, 109, "copyInheritedSettings("),
                     ("root", T, 440, 448, "/**"),
                     ("root", RM, 952, 968, "### .parse()")]),
    ]),
    ("typescript-and-legacy", "usage/typescript-and-legacy.md", [
        ("typings", [("root", T, 265, 299, "export type HelpConfiguration"),
                     ("root", T, 865, 884, "export interface CommandOptions")]),
        ("extra-typings", [("root", RM, 1022, 1037, "### TypeScript"),
                           ("lib", C, 947, 951, "_executeSubCommand(")]),
        ("factories", [("root", RM, 1038, 1049, "### createCommand()"),
                       ("lib", C, 176, 199, "/**"),
                       ("lib", C, 500, 513, "/**")]),
        ("options-as-properties", [("root", RM, 1005, 1020, "### Legacy options as properties"),
                                   ("lib", C, 742, 759, "/**"),
                                   ("lib", C, 1553, 1567, "opts() {")]),
        ("deprecated", [("root", RM, 1129, 1135, "### Additional documentation"),
                        ("root", T, 865, 873, "export interface CommandOptions"),
                        ("lib", C, 2012, 2029, "outputHelp(contextOptions)")]),
    ]),
    ("troubleshooting", "faq/troubleshooting.md", [
        ("unknown-option-error", [("lib", C, 1735, 1755, "unknownOption(flag)"),
                                  ("root", RM, 66, 97, "## Quick Start")]),
        ("opts-empty", [("lib", C, 1553, 1580, "opts() {"),
                        ("root", RM, 175, 181, "## Options")]),
        ("option-after-subcommand", [("root", RM, 970, 984, "### Parsing Configuration"),
                                     ("lib", C, 1509, 1532, "// Not a recognised option")]),
        ("dash-values", [("root", RM, 237, 243, "Multiple boolean short options"),
                         ("root", RM, 327, 331, "Options with an optional option-argument are not greedy"),
                         ("lib", C, 1464, 1474, "if (option.required) {")]),
        ("executable-not-found", [("lib", C, 1040, 1054, "proc.on('error'"),
                                  ("lib", C, 952, 965, "function findFile(")]),
        ("async-not-awaited", [("lib", C, 915, 939, "/**"),
                               ("root", RM, 668, 679, "You may supply an `async`")]),
        ("configuration-errors", [("lib", C, 357, 367, "addArgument(argument)"),
                                  ("lib", C, 1863, 1877, "alias(alias)"),
                                  ("lib", C, 734, 759, "passThroughOptions(passThrough = true)")]),
    ]),
    ("how-to", "faq/how-to.md", [
        ("parse-numbers", [("root", RM, 456, 509, "Example file: [options-custom-processing"),
                           ("lib", "error.js", 24, 40, "/**")]),
        ("global-options", [("lib", C, 1569, 1580, "/**"),
                            ("lib", C, 818, 835, "/**"),
                            ("lib", "help.js", 91, 110, "/**")]),
        ("config-files", [("lib", C, 775, 816, "/**"),
                          ("lib", C, 1613, 1629, "_parseOptionsEnv()")]),
        ("help-when-no-args", [("lib", C, 1269, 1276, "if (this._defaultCommandName) {"),
                               ("root", RM, 814, 829, "### Display help after errors"),
                               ("root", RM, 844, 850, "### Display help from code")]),
        ("typo-suggestions", [("lib", "suggestSimilar.js", 1, 45, "const maxDistance"),
                              ("lib", "suggestSimilar.js", 47, 100, "/**")]),
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
                out += [f"          - source_ref: repo:commander/{module}",
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

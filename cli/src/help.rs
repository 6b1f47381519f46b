//! The end of every `--help`: the exit codes a script can rely on, then 1–3 examples. Kept in
//! one table so the codes stay consistent across commands (and with the README).

/// The exit codes of the whole program, for `ontoly --help`.
pub const EXIT_CODES: &str = "\
Exit codes:
  0  success
  1  the answer is negative: validate found an error (or, with --require-verified, an
     unverified reference); a pinned read failed, read-many had a failed item, search found
     no match, cites found no citing section; refs of a page that does not exist or of
     lines past its end; a capability could not run
  2  usage or workspace error: bad arguments, an unsupported --format, no workspace, an
     unreadable questions file or ontoly.toml; drift --fail-on or impact --fail-on-affected
     when nothing could be compared or assessed
  3  the evidence gate failed: check had a failed question, or evidence
     --fail-on-low-evidence came back CAPABILITY_LOW_EVIDENCE / CAPABILITY_NOT_FOUND (either,
     too, when the workspace has an error diagnostic); drift
     --fail-on found a reference of that status or worse; impact --fail-on-affected found a
     touched section";

const USAGE: &str = "  2  usage or workspace error";

/// `(exit codes besides 2, examples)` of a command, by its name as typed.
fn entry(command: &str) -> Option<(&'static str, &'static [&'static str])> {
    Some(match command {
        "build" => (
            "  0  the graph was built or loaded (diagnostics do not change the code)",
            &[
                "ontoly --workspace kb build",
                "ontoly --workspace kb --no-cache build --format json",
            ],
        ),
        "stats" => (
            "  0  success",
            &[
                "ontoly --workspace kb stats",
                "ontoly --workspace kb stats --format json",
            ],
        ),
        "validate" => (
            "  0  no error diagnostic (with --require-verified: and every repository reference verified)\n  1  an error diagnostic, or an unverified reference with --require-verified",
            &[
                "ontoly --workspace kb validate",
                "ontoly --workspace kb validate --require-verified --format github",
                "ontoly --workspace kb validate --format sarif > ontoly.sarif",
            ],
        ),
        "mcp" => (
            "  0  the client closed the session",
            &["ontoly mcp --workspace /path/to/kb"],
        ),
        "read" => (
            "  0  success\n  1  the read failed (the code and message are on stderr)",
            &[
                "ontoly read --repo acme/payments --rev c11b1eb453b0 src/retry.py --start 1 --end 3",
                "ontoly read --repo kb knowledge/guides/payments.md",
            ],
        ),
        "read_many" => (
            "  0  every item was read\n  1  the batch failed, or one of its items did (the others are still printed)",
            &["ontoly read-many --repo acme/payments --rev main src/retry.py:1-3 README.md"],
        ),
        "search" => (
            "  0  at least one match\n  1  no match, or the search failed",
            &[
                "ontoly search --repo acme/payments --rev main 'def \\w+'",
                "ontoly search --repo acme/payments -F -l -g '*.py' attempt",
            ],
        ),
        "resolve" => (
            "  0  success\n  1  the revision or repository was not found",
            &[
                "ontoly resolve --repo acme/payments",
                "ontoly resolve --repo acme/payments --rev c11b1eb",
            ],
        ),
        "plugin" => (
            "  0  a response was written (error responses included)",
            &["ontoly plugin enrich --root . < request.json"],
        ),
        "hash_inputs" => ("  0  success", &["ontoly --workspace kb hash-inputs"]),
        "evidence" => (
            "  0  success\n  3  with --fail-on-low-evidence: the pack is CAPABILITY_LOW_EVIDENCE or CAPABILITY_NOT_FOUND, or carries an error diagnostic of the workspace",
            &[
                "ontoly --workspace kb evidence \"what is the retry backoff?\"",
                "ontoly --workspace kb evidence \"retry backoff\" --format json --limit 5",
            ],
        ),
        "capabilities" => (
            "  0  success",
            &["ontoly capabilities", "ontoly capabilities --format json"],
        ),
        "run" => (
            "  0  the capability ran\n  1  it could not run (CAPABILITY_NOT_REGISTERED, CAPABILITY_INVALID_INPUT)",
            &[
                "ontoly --workspace kb run EvidencePack --input '{\"query\":\"retry backoff\"}'",
                "ontoly --workspace kb run SectionEvidence --input @input.json",
            ],
        ),
        "refs" => (
            "  0  success (no output when no overlapping section has references)\n  1  the page does not exist (FILE_NOT_FOUND), or it ends before the lines asked for (INVALID_LINE_RANGE)",
            &[
                "ontoly --workspace kb refs knowledge/guides/payments.md:6-11",
                "ontoly --workspace kb refs knowledge/guides/payments.md --include-digest",
            ],
        ),
        "cites" => (
            "  0  at least one section cites it\n  1  no section cites it (CAPABILITY_NOT_FOUND), or the capability could not run",
            &[
                "ontoly --workspace kb cites src/retry.py:1-3",
                "ontoly --workspace kb cites --symbol backoff",
            ],
        ),
        "graph" => (
            "  0  success",
            &[
                "ontoly --workspace kb graph section:guides/payments.md#backoff --format mermaid",
                "ontoly --workspace kb graph --focus section:guides/payments.md#backoff --depth 1 --format json",
            ],
        ),
        "check" => (
            "  0  every question passed\n  3  a question failed, or the workspace has an error diagnostic (the output lists them)",
            &[
                "ontoly --workspace kb check --questions kb/questions.yaml",
                "ontoly --workspace kb check --questions kb/questions.yaml --format github",
                "ontoly --workspace kb check --questions kb/questions.yaml --format junit > junit.xml",
            ],
        ),
        "init" => (
            "  0  the workspace was created\n  2  usage or workspace error, or the directory already holds a workspace or a file init would write",
            &["ontoly init kb", "ontoly init"],
        ),
        "mark" => (
            "  0  success (the pages were marked with --write, or what would be marked was printed)\n  2  usage or workspace error: a page outside knowledge/, unreadable, or with broken markers",
            &[
                "ontoly mark knowledge/guides/*.md              # what would be marked, and the structure entries",
                "ontoly mark knowledge/guides/*.md --write      # write the markers",
                "ontoly mark knowledge/reference.md --level 3 --write",
            ],
        ),
        "digest" => (
            "  0  success\n  1  the lines could not be read (no such file, commit or range)",
            &[
                "ontoly --workspace kb digest src/retry.py:1-3 --source acme/payments",
                "ontoly --workspace kb digest src/retry.py:2-3 --source acme/payments --rev c11b1eb",
            ],
        ),
        "completions" => (
            "  0  success",
            &[
                "ontoly completions bash > ~/.local/share/bash-completion/completions/ontoly",
                "ontoly completions zsh > \"${fpath[1]}/_ontoly\"",
            ],
        ),
        "man" => (
            "  0  success",
            &[
                "ontoly man > ontoly.1 && man ./ontoly.1",
                "ontoly man --dir ~/.local/share/man/man1   # every page: ontoly.1, ontoly-evidence.1, ...",
            ],
        ),
        "drift" => (
            "  0  the report was printed, whatever drifted (with --write: the re-anchorable modules were written)\n  2  usage or workspace error; also with --fail-on when no reference could be compared (every one unverifiable)\n  3  with --fail-on: a reference of that status or worse",
            &[
                "ontoly --workspace kb drift --to main",
                "ontoly --workspace kb drift --to v2.32.3 --fail-on changed --format github",
                "ontoly --workspace kb drift --to main --write --accept-changed   # after reviewing the changed sections",
            ],
        ),
        "impact" => (
            "  0  the report was printed\n  2  usage or workspace error; also with --fail-on-affected when no reference of the source could be assessed (a shallow clone without the pinned commits)\n  3  with --fail-on-affected: the change touches a section",
            &[
                "ontoly --workspace kb impact --from v1.2 --to main --source acme/server",
                "git diff origin/main... | ontoly --workspace kb impact --diff - --from \"$(git merge-base origin/main HEAD)\" --fail-on-affected --format github",
            ],
        ),
        _ => return None,
    })
}

/// The text after a command's options: its exit codes and examples.
pub fn after_help(command: &str) -> Option<String> {
    let (codes, examples) = entry(command)?;
    let mut codes: Vec<&str> = codes.lines().collect();
    // Every command can fail on usage; a command that says more about its 2 says it in that
    // one line, so no code is listed twice.
    if !codes.iter().any(|l| l.starts_with("  2 ")) {
        let at = codes
            .iter()
            .position(|l| !l.starts_with("  0 ") && !l.starts_with("  1 "));
        codes.insert(at.unwrap_or(codes.len()), USAGE);
    }
    let mut s = format!("Exit codes:\n{}\n\nExamples:\n", codes.join("\n"));
    for e in examples {
        s.push_str(&format!("  {e}\n"));
    }
    Some(s.trim_end().to_string())
}

#[cfg(test)]
mod tests {
    #[test]
    fn codes_are_in_order_and_examples_bounded() {
        let h = super::after_help("validate").unwrap_or_default();
        let codes: Vec<&str> = h
            .lines()
            .skip(1)
            .take_while(|l| !l.is_empty())
            .filter_map(|l| l.split_whitespace().next())
            .collect();
        assert_eq!(codes, ["0", "1", "2"]);
        let h = super::after_help("check").unwrap_or_default();
        assert!(
            h.contains("  2  usage or workspace error\n  3  a question failed, or the workspace has an error"),
            "{h}"
        );
        assert_eq!(super::after_help("nope"), None);
    }
}

//! `search`: a regular expression matched line by line at a pinned commit, with ordered glob
//! filters and path prefixes, bounded in files, matches and bytes.

use super::*;

impl Reader {
    /// Searches file contents at a pinned commit, line by line.
    pub fn search(&self, req: &SearchRequest) -> Result<SearchResult, ReadError> {
        let matcher = line_matcher(&req.pattern, req.fixed_strings, req.ignore_case)?;
        let globs = Globs::new(&req.glob)?;
        let mut prefixes = Vec::new();
        for p in &req.paths {
            let p = p.trim_end_matches('/');
            check_path(p)?;
            prefixes.push(p.to_string());
        }
        let pinned = self.pin(&req.repository, req.revision.as_deref())?;
        let tree_unreadable = || {
            err(
                Code::RevisionNotFound,
                "The commit's tree could not be read",
            )
        };
        // A file to search: a blob of the pinned commit, or (a work tree without git) a file
        // of the tree, read when its chunk comes.
        let files: Vec<(String, Option<gix::ObjectId>)> =
            match (&pinned.local, worktree_of(&pinned)) {
                (Some(local), _) => {
                    let mut found = local
                        .files(&pinned.commit, &prefixes)
                        .map_err(|_| tree_unreadable())?;
                    // As `read` does: in the workspace's repository, prefixes that select
                    // nothing at its root (`knowledge`, as packs name pages) are read under
                    // the workspace's directory.
                    let root = pinned.repo.workspace_root.as_str();
                    if found.is_empty()
                        && pinned.repo.is_workspace
                        && !root.is_empty()
                        && !prefixes.is_empty()
                    {
                        let inside: Vec<String> =
                            prefixes.iter().map(|p| format!("{root}/{p}")).collect();
                        found = local
                            .files(&pinned.commit, &inside)
                            .map_err(|_| tree_unreadable())?;
                    }
                    found.into_iter().map(|(p, id)| (p, Some(id))).collect()
                }
                (None, Some(root)) => worktree_files(root, &prefixes)
                    .into_iter()
                    .map(|p| (p, None))
                    .collect(),
                (None, None) => {
                    return Err(err(
                        Code::RepositoryNotFound,
                        "The repository has no local clone",
                    ))
                }
            };
        let files: Vec<_> = files
            .into_iter()
            .filter(|(path, _)| globs.selects(path))
            .collect();
        let git = pinned.repo.repo.as_ref();
        let worktree = worktree_of(&pinned);
        let mut out = Vec::new();
        let mut bytes = 0usize;
        let mut truncated = false;
        // Chunks keep the output in path order while reading blobs in parallel, and stop
        // reading once a bound is reached.
        'chunks: for chunk in files.chunks(256) {
            let found: Vec<Option<Hits>> = chunk
                .par_iter()
                .map_init(
                    || git.map(|g| g.local()),
                    |local, (path, id)| {
                        let bytes = match (id, worktree) {
                            (Some(id), _) => local.as_ref()?.blob(*id).ok()?,
                            (None, Some(root)) => worktree_file(root, path).ok()?,
                            (None, None) => return None,
                        };
                        let text = decode_text(bytes).ok()?;
                        search_text(&text, &matcher, req.output)
                    },
                )
                .collect();
            for ((path, _), hit) in chunk.iter().zip(found) {
                let Some((matches, more)) = hit else { continue };
                if out.len() >= MAX_SEARCH_FILES {
                    truncated = true;
                    break 'chunks;
                }
                let mut kept = Vec::new();
                for m in matches {
                    if bytes + m.text.len() > MAX_SEARCH_BYTES {
                        truncated = true;
                        break;
                    }
                    bytes += m.text.len();
                    kept.push(m);
                }
                truncated |= more;
                let stop = req.output == SearchOutput::Content && kept.is_empty();
                if stop {
                    break 'chunks;
                }
                out.push(SearchFile {
                    path: path.clone(),
                    matches: kept,
                });
                if truncated && bytes + MAX_SEARCH_LINE_BYTES > MAX_SEARCH_BYTES {
                    break 'chunks;
                }
            }
        }
        Ok(SearchResult {
            repository: pinned.repo.name.clone(),
            revision: pinned.revision.clone(),
            commit: pinned.commit,
            files: out,
            truncated,
        })
    }
}

/// The root of a work tree without git that `pinned` stands for.
fn worktree_of<'a>(pinned: &Pinned<'a>) -> Option<&'a std::path::Path> {
    pinned
        .local
        .is_none()
        .then_some(pinned.repo.worktree.as_deref())
        .flatten()
}

/// The regular files of the work tree at `root` under `prefixes` (all when empty), as
/// repository paths in byte order: symlinks are not followed (a listing never leaves the
/// tree), the snapshot cache `.ontoly/` is not content, and a name the path rules refuse (not
/// UTF-8, a backslash, a control character) could not be read back, so it is not listed.
fn worktree_files(root: &std::path::Path, prefixes: &[String]) -> Vec<String> {
    let mut out: Vec<String> = walkdir::WalkDir::new(root)
        .follow_links(false)
        .into_iter()
        .filter_entry(|e| e.depth() != 1 || e.file_name() != ".ontoly")
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_file())
        .filter_map(|e| {
            let rel = e.path().strip_prefix(root).ok()?;
            let parts: Option<Vec<&str>> =
                rel.components().map(|c| c.as_os_str().to_str()).collect();
            let path = parts?.join("/");
            is_valid_path(&path).then_some(path)
        })
        .filter(|p| {
            prefixes.is_empty() || prefixes.iter().any(|x| crate::sources::git::under(p, x))
        })
        .collect();
    out.sort_unstable();
    out
}

/// A compiled line matcher.
pub(super) struct LineMatcher {
    re: regex::Regex,
}

/// Refuses what can match across lines: a literal newline (`\n`, `\x0A`, in a class too)
/// or the `s` flag that lets `.` match one. Perl classes like `\s` and negated classes are
/// allowed: lines never contain their terminator, so they cannot match one there.
pub(super) struct NewlineFinder;

impl regex_syntax::ast::Visitor for NewlineFinder {
    type Output = ();
    type Err = ();

    fn finish(self) -> Result<(), ()> {
        Ok(())
    }

    fn visit_pre(&mut self, ast: &regex_syntax::ast::Ast) -> Result<(), ()> {
        use regex_syntax::ast::{Ast, Flag, FlagsItemKind};
        let flags = match ast {
            Ast::Literal(l) if l.c == '\n' || l.c == '\r' => return Err(()),
            Ast::Flags(f) => Some(&f.flags),
            Ast::Group(g) => g.flags(),
            _ => None,
        };
        if let Some(flags) = flags {
            let mut negated = false;
            for item in &flags.items {
                match item.kind {
                    FlagsItemKind::Negation => negated = true,
                    FlagsItemKind::Flag(Flag::DotMatchesNewLine) if !negated => return Err(()),
                    _ => {}
                }
            }
        }
        Ok(())
    }

    fn visit_class_set_item_pre(
        &mut self,
        item: &regex_syntax::ast::ClassSetItem,
    ) -> Result<(), ()> {
        use regex_syntax::ast::ClassSetItem;
        match item {
            ClassSetItem::Literal(l) if l.c == '\n' => Err(()),
            ClassSetItem::Range(r) if r.start.c <= '\n' && r.end.c >= '\n' => Err(()),
            _ => Ok(()),
        }
    }
}

pub(super) fn line_matcher(
    pattern: &str,
    fixed_strings: bool,
    ignore_case: bool,
) -> Result<LineMatcher, ReadError> {
    let invalid = |why: &str| err(Code::InvalidPattern, format!("Invalid pattern: {why}"));
    if pattern.is_empty() {
        return Err(invalid("the pattern is empty"));
    }
    let source = if fixed_strings {
        if pattern.contains('\n') || pattern.contains('\r') {
            return Err(invalid(
                "search matches within one line; the pattern contains a newline",
            ));
        }
        regex::escape(pattern)
    } else {
        pattern.to_string()
    };
    let ast = regex_syntax::ast::parse::Parser::new()
        .parse(&source)
        .map_err(|e| invalid(&at_column(&e.kind().to_string(), e.span().start.column)))?;
    if regex_syntax::ast::visit(&ast, NewlineFinder).is_err() {
        return Err(invalid(
            "search matches within one line; the pattern can match a newline",
        ));
    }
    let hir = regex_syntax::ParserBuilder::new()
        .case_insensitive(ignore_case)
        .build()
        .parse(&source)
        .map_err(|e| match &e {
            regex_syntax::Error::Translate(t) => {
                invalid(&at_column(&t.kind().to_string(), t.span().start.column))
            }
            _ => invalid(&message_line(&e.to_string())),
        })?;
    if hir.properties().minimum_len() == Some(0) {
        return Err(invalid(
            "the pattern can match the empty string, which would match every line",
        ));
    }
    let re = regex::RegexBuilder::new(&source)
        .case_insensitive(ignore_case)
        .size_limit(MAX_PATTERN_PROGRAM_BYTES)
        .build()
        .map_err(|e| match e {
            regex::Error::CompiledTooBig(_) => invalid(
                "the pattern is too large once compiled (over 1 MiB): a Unicode class such as \\w or \\p{L} repeated many times is; an ASCII class ([A-Za-z0-9_]) or fewer repetitions is not",
            ),
            e => invalid(&message_line(&e.to_string())),
        })?;
    Ok(LineMatcher { re })
}

/// The largest compiled pattern. Matching costs time per byte in proportion to the compiled
/// program, so this bounds a search's work by the bytes it reads: at 16 MiB one pattern
/// (`\p{L}{100}\p{N}{100}[^x]{500}`) took 33 s of a core over 60 MB (hostile walk, stop 43)
/// and an MCP client could start several at once. Patterns people search with compile to a
/// few kilobytes; a Unicode class repeated hundreds of times is refused as too large.
const MAX_PATTERN_PROGRAM_BYTES: usize = 1 << 20;

/// The last non-empty line of a multi-line message (the regex crates end theirs with
/// `error: <what>` under a caret drawing), without that `error: `: the message that carries it
/// already says it is one.
pub(super) fn message_line(s: &str) -> String {
    let l: Vec<&str> = s.lines().filter(|l| !l.trim().is_empty()).collect();
    let last = l.last().map(|x| x.trim()).unwrap_or_default();
    last.strip_prefix("error: ").unwrap_or(last).to_string()
}

/// `what` with where in the pattern it is (a column counted in characters, from 1): the
/// caret drawing of the regex crates does not survive a one-line message.
fn at_column(what: &str, column: usize) -> String {
    format!("{what} (at character {column} of the pattern)")
}

/// The matches of one file (up to the per-file bound; none listed for `files` output) and
/// whether more were left out.
type Hits = (Vec<SearchMatch>, bool);

/// `None` when no line of `text` matches.
pub(super) fn search_text(text: &str, m: &LineMatcher, output: SearchOutput) -> Option<Hits> {
    let mut out = Vec::new();
    for (i, line) in crate::formats::text::lines(text).enumerate() {
        if !m.re.is_match(line) {
            continue;
        }
        if output == SearchOutput::Files {
            return Some((Vec::new(), false));
        }
        if out.len() >= MAX_SEARCH_MATCHES_PER_FILE {
            return Some((out, true));
        }
        let (text, cut) = if line.len() > MAX_SEARCH_LINE_BYTES {
            let mut c = MAX_SEARCH_LINE_BYTES;
            while !line.is_char_boundary(c) {
                c -= 1;
            }
            (line[..c].to_string(), true)
        } else {
            (line.to_string(), false)
        };
        out.push(SearchMatch {
            line: i as u64 + 1,
            text,
            truncated: cut,
        });
    }
    if out.is_empty() {
        return None;
    }
    Some((out, false))
}

/// Ordered include/exclude globs; the last glob that matches a path decides.
pub(super) struct Globs {
    set: Option<globset::GlobSet>,
    negated: Vec<bool>,
    any_include: bool,
}

impl Globs {
    fn new(globs: &[String]) -> Result<Globs, ReadError> {
        if globs.is_empty() {
            return Ok(Globs {
                set: None,
                negated: Vec::new(),
                any_include: false,
            });
        }
        let mut b = globset::GlobSetBuilder::new();
        let mut negated = Vec::new();
        for g in globs {
            let (neg, pat) = match g.strip_prefix('!') {
                Some(p) => (true, p),
                None => (false, g.as_str()),
            };
            // Like ripgrep: a glob without '/' matches the file name at any depth.
            let pat = if pat.contains('/') {
                pat.trim_start_matches('/').to_string()
            } else {
                format!("**/{pat}")
            };
            let glob = globset::GlobBuilder::new(&pat)
                .literal_separator(true)
                .build()
                .map_err(|e| {
                    // A message is one line of bounded length (fuzzing sent a glob with a
                    // newline), as for revisions.
                    let message = if g.chars().any(char::is_control) || g.len() > 200 {
                        format!(
                            "Invalid glob: {} (not shown: it holds control characters or is over 200 bytes)",
                            e.kind()
                        )
                    } else {
                        format!("Invalid glob '{g}': {}", e.kind())
                    };
                    err(Code::InvalidPattern, message)
                })?;
            b.add(glob);
            negated.push(neg);
        }
        let set = b
            .build()
            .map_err(|_| err(Code::InvalidPattern, "Invalid glob set"))?;
        Ok(Globs {
            any_include: negated.iter().any(|n| !n),
            set: Some(set),
            negated,
        })
    }

    fn selects(&self, path: &str) -> bool {
        let Some(set) = &self.set else { return true };
        match set.matches(path).into_iter().max() {
            Some(last) => !self.negated[last],
            None => !self.any_include,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn patterns() {
        for bad in [
            "",
            "a*",
            "^",
            "\\b",
            "a\\nb",
            "[\\n]",
            "(?s)a.b",
            "x|",
            "[\\x00-\\x7f]z",
        ] {
            assert!(line_matcher(bad, false, false).is_err(), "{bad}");
        }
        for good in ["a\\s+b", "[^a]b", "fn\\s+main", "(?i)x", "(?-s)a.b"] {
            assert!(line_matcher(good, false, false).is_ok(), "{good}");
        }
        assert!(line_matcher("a.b(", true, false).is_ok());
        assert!(line_matcher("a(", false, false).is_err());
        assert!(line_matcher("a\nb", true, false).is_err());
        // A pattern whose program would cost its size in time at every byte is refused, and
        // says why; the ASCII form of the same search is not.
        match line_matcher("\\p{L}{100}\\p{N}{100}[^x]{500}", false, false) {
            Err(e) => assert!(
                e.message.contains("too large once compiled"),
                "{}",
                e.message
            ),
            Ok(_) => panic!("a 16 MiB program was accepted"),
        }
        assert!(line_matcher("[A-Za-z]{100}[0-9]{100}", false, false).is_ok());
    }

    #[test]
    fn glob_order() {
        let g = Globs::new(&[
            "*.rs".into(),
            "!src/gen/**".into(),
            "src/gen/keep.rs".into(),
        ])
        .unwrap();
        assert!(g.selects("src/main.rs"));
        assert!(!g.selects("src/gen/x.rs"));
        assert!(g.selects("src/gen/keep.rs"));
        assert!(!g.selects("README.md"));
        let g = Globs::new(&["!*.md".into()]).unwrap();
        assert!(g.selects("a.rs"));
        assert!(!g.selects("docs/a.md"));
        assert!(Globs::new(&["a[".into()]).is_err());
    }

    #[test]
    fn an_invalid_glob_is_quoted_on_one_line() {
        let message = |g: &str| Globs::new(&[g.into()]).err().map(|e| e.message);
        assert_eq!(
            message("a[").as_deref(),
            Some("Invalid glob 'a[': unclosed character class; missing ']'")
        );
        let m = message("a\n[z-a]").unwrap_or_default();
        assert!(m.starts_with("Invalid glob: invalid range"), "{m}");
        assert!(!m.contains('\n'), "{m}");
    }
}

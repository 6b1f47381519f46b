//! The fuzz targets' bodies (one module each, `run(data)`) and their shared helpers: splitting
//! one input into fields, a small in-memory workspace, and the invariants every target checks
//! on what ontoly prints.
//!
//! Nothing here uses libfuzzer-sys: the cargo-fuzz binaries (`fuzz_targets/`) only call `run`,
//! and `cli/tests/fuzz_regressions.rs` compiles this file by `#[path]` to replay the committed
//! regression inputs on stable in every `cargo test`. So paths between these modules are
//! relative (`super::`), which resolve the same in both crates.

pub mod markers;
pub mod mcp_transport;
pub mod plugin;
pub mod reads;
pub mod registry;
pub mod source_ref;
pub mod structure_diff;

/// Splits `data` at `0xFF` bytes (never part of UTF-8 text) into at most `n` fields; missing
/// fields are empty.
pub fn fields(data: &[u8], n: usize) -> Vec<&[u8]> {
    let mut out: Vec<&[u8]> = data.splitn(n, |&b| b == 0xFF).collect();
    out.resize(n, &[]);
    out
}

/// A field as text, lossily (so most mutations still reach the parsers).
pub fn text(field: &[u8]) -> String {
    String::from_utf8_lossy(field).into_owned()
}

/// The secret in the user-info of a remote-like string (`https://user:pass@host/x` → `pass`,
/// `https://token@host/x` → `token`, `user:pass@host/x` → `pass`), when it carries one (not
/// the SSH user `git`). Short values are ignored: they occur in any output by chance.
pub fn userinfo(s: &str) -> Option<&str> {
    let (rest, scheme) = match s.split_once("://") {
        Some((_, r)) => (r, true),
        None => (s, false),
    };
    // User-info sits in the authority, which ends at the first `/`, `?` or `#` (RFC 3986, as
    // `remote::redact` reads it): an `@` further on is a path's, a query's or a
    // `repo-content:` commit separator, and the host is what stands between them.
    let authority = &rest[..rest.find(['/', '?', '#']).unwrap_or(rest.len())];
    let (user, host) = authority.split_once('@')?;
    // The host ends where a URL's host must: at a port, a path, or a character no host holds
    // (prose quotes a URL in backticks or brackets).
    let host = host
        .split(|c: char| c == ':' || c.is_whitespace() || "`'\"()<>[]{},".contains(c))
        .next()
        .unwrap_or(host);
    if !scheme && !host.contains('.') {
        // `repo-content:docs@<commit>`: an identity and a commit, not user-info and a host.
        return None;
    }
    // The same opening brackets that end user-info for `remote::redact`: in
    // `remote:{git@github.com:team/two.git` the `{` opens a flow map around an SSH remote.
    let user = user
        .rsplit(['/', '`', '\'', '"', '(', '<', '[', '{'])
        .next()
        .unwrap_or(user);
    // RFC 3986 user-info holds no whitespace: such text is prose around an `@`, not a URL.
    if user == "git" || (!scheme && !user.contains(':')) || user.contains(char::is_whitespace) {
        return None;
    }
    let secret = user.split_once(':').map_or(user, |(_, p)| p);
    (secret.len() >= 4).then_some(secret)
}

/// Every secret (see [`userinfo`]) of the words of `text`.
pub fn secrets(text: &str) -> Vec<String> {
    text.split(|c: char| c.is_whitespace() || matches!(c, '"' | ',' | '{' | '}' | '[' | ']'))
        .filter_map(userinfo)
        .map(str::to_string)
        .collect()
}

/// Panics when `out` carries the user-info of `input` (a credential echoed).
/// (A secret that occurs more than once in the input cannot be told from other text that
/// happens to repeat it, and is not checked.)
pub fn assert_no_credentials(input: &str, out: &str) {
    if let Some(user) = userinfo(input).filter(|u| input.matches(u).count() == 1) {
        assert!(
            !out.contains(user),
            "credentials {user:?} of {input:?} echoed in {out:?}"
        );
    }
}

/// Like [`assert_no_credentials`], for output whose fixed text may hold the secret by chance
/// (`osito` of `https://g'osito@x` is in every "repository"): `out` may hold it no more often
/// than `baseline`, the output of the same request for a name without user-info.
pub fn assert_no_credentials_beyond(input: &str, out: &str, baseline: &str) {
    if let Some(user) = userinfo(input).filter(|u| input.matches(u).count() == 1) {
        assert!(
            out.matches(user).count() <= baseline.matches(user).count(),
            "credentials {user:?} of {input:?} echoed in {out:?} (for a plain name: {baseline:?})"
        );
    }
}

/// The files of the `valid` fixture workspace, with the page and the structure replaceable.
pub struct MemoryWorkspace {
    /// `knowledge/faq/guide.md`.
    pub page: Vec<u8>,
    /// `knowledge/structure.yaml`.
    pub structure: Vec<u8>,
    /// `sources/repo/index.yaml`.
    pub registry: Vec<u8>,
}

/// The fixture's own files.
pub const PAGE: &str = include_str!("../../testdata/fixtures/valid/knowledge/faq/guide.md");
/// The fixture's structure.
pub const STRUCTURE: &str = include_str!("../../testdata/fixtures/valid/knowledge/structure.yaml");
/// The fixture's repository registry.
pub const REGISTRY: &str = include_str!("../../testdata/fixtures/valid/sources/repo/index.yaml");
/// The fixture's note.
pub const NOTE: &str =
    include_str!("../../testdata/fixtures/valid/sources/note/20260101/meeting.md");

impl MemoryWorkspace {
    /// Reads a repository-relative path under any workspace root: every page under
    /// `knowledge/` is the one page, so requests with any root and path reach the parsers.
    pub fn read(
        &self,
        path: &str,
    ) -> Result<Vec<u8>, ontoly_graph::formats::source_registry::FileReadError> {
        if path.ends_with("knowledge/structure.yaml") {
            Ok(self.structure.clone())
        } else if path.ends_with("sources/repo/index.yaml") {
            Ok(self.registry.clone())
        } else if path.ends_with("sources/note/20260101/meeting.md") {
            Ok(NOTE.as_bytes().to_vec())
        } else if path.contains("knowledge/") && path.ends_with(".md") {
            Ok(self.page.clone())
        } else {
            Err(ontoly_graph::formats::source_registry::FileReadError::Unreadable)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn userinfo_of_remotes() {
        assert_eq!(userinfo("https://u:SECRET@github.com/a/b"), Some("SECRET"));
        assert_eq!(userinfo("u:SECRET@github.com/a/b"), Some("SECRET"));
        assert_eq!(
            secrets("source_ref: repo-content:https://u:SECRET@github.com/team/kb@0123"),
            vec!["SECRET"]
        );
        assert_eq!(userinfo("git@github.com:a/b"), None);
        assert_eq!(userinfo("https://example.org/team/docs@0123"), None);
        assert_eq!(userinfo("repo-content:docs@e83c5163"), None);
        assert_eq!(userinfo("github.com/a/b"), None);
        assert_eq!(fields(b"a\xffb", 3), vec![&b"a"[..], b"b", b""]);
    }
}

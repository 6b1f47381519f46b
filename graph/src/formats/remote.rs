//! Git remotes as registries write them: which shapes name a web-browsable repository, how a
//! cited range becomes a commit-pinned blob URL, and how credentials are kept out of output.
//!
//! Supported shapes (formats.md, "Web URLs for references"): `https://host/path[.git][/]`,
//! `http://host/path…`, `git@host:path[.git]` and `ssh://git@host/path[.git]`. The repository
//! path may have more than two segments (`group/sub/repo`), as in Context's exported links.
//!
//! Difference from formats.md, following Context's recorded behaviour (conformance case
//! `08-remote-transports-and-hosts`): an `http://` remote keeps its `http` scheme in the URL;
//! only the SSH forms become `https`.
//!
//! Differences from Context's plugin, on the side of safety: the refused hosts
//! (`gitlab.com`, `bitbucket.org`, `dev.azure.com`) are compared case-insensitively, and an
//! SSH-form remote with a second `@` (e.g. `ssh://git@host/x:token@y`) counts as carrying
//! credentials.

/// Hosts whose blob routes differ from `/<repo>/blob/<commit>/<path>`.
const REFUSED_HOSTS: [&str; 3] = ["gitlab.com", "bitbucket.org", "dev.azure.com"];

/// A remote reduced to the web location of its repository.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct NormalizedRemote {
    /// `https`, or `http` for a plain-HTTP remote.
    pub scheme: &'static str,
    /// The host as written (only `A-Za-z0-9.-`).
    pub host: String,
    /// The repository path without `.git` or trailing slashes, e.g. `acme/server`.
    pub path: String,
}

impl NormalizedRemote {
    /// `scheme://host/path`.
    pub fn web_base(&self) -> String {
        format!("{}://{}/{}", self.scheme, self.host, self.path)
    }

    /// A transport-independent identity, `host/path` with the host lowercased: the same
    /// repository reached over HTTPS and SSH gets the same key.
    pub fn key(&self) -> String {
        format!("{}/{}", self.host.to_ascii_lowercase(), self.path)
    }

    /// Whether the host serves the default `blob/<commit>/<path>` route.
    pub fn supports_blob_urls(&self) -> bool {
        !REFUSED_HOSTS
            .iter()
            .any(|h| self.host.eq_ignore_ascii_case(h))
    }

    /// The commit-pinned URL of lines `start..=end` of `path`, or `None` when the commit is not
    /// a full 40/64-hex id or the host's routes differ.
    pub fn blob_url(&self, commit: &str, path: &str, start: u64, end: u64) -> Option<String> {
        if !crate::formats::text::is_full_commit(commit) || !self.supports_blob_urls() {
            return None;
        }
        let anchor = if start == end {
            format!("L{start}")
        } else {
            format!("L{start}-L{end}")
        };
        Some(format!(
            "{}/blob/{commit}/{}#{anchor}",
            self.web_base(),
            percent_encode_path(path)
        ))
    }
}

/// Reduces a remote to its web location, or `None` when its shape is not supported (ports,
/// credentials, query or fragment, odd characters, no repository path, other transports).
pub fn normalize(remote: &str) -> Option<NormalizedRemote> {
    let (scheme, rest) = if let Some(rest) = remote.strip_prefix("https://") {
        ("https", rest.to_string())
    } else if let Some(rest) = remote.strip_prefix("http://") {
        ("http", rest.to_string())
    } else if let Some(rest) = remote.strip_prefix("ssh://git@") {
        ("https", rest.to_string())
    } else if let Some(rest) = remote.strip_prefix("git@") {
        let (host, path) = rest.split_once(':')?;
        ("https", format!("{host}/{path}"))
    } else {
        return None;
    };
    let (host, path) = rest.split_once('/')?;
    if host.is_empty()
        || !host
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'-'))
    {
        return None;
    }
    let path = path.trim_end_matches('/');
    let path = path.strip_suffix(".git").unwrap_or(path);
    if !crate::formats::location::is_safe_relative_path(path)
        || !path
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'/' | b'-' | b'_' | b'.'))
    {
        return None;
    }
    Some(NormalizedRemote {
        scheme,
        host: host.to_string(),
        path: path.to_string(),
    })
}

/// The commit-pinned web URL of a cited range, when the remote and commit allow one.
pub fn blob_url(remote: &str, commit: &str, path: &str, start: u64, end: u64) -> Option<String> {
    normalize(remote)?.blob_url(commit, path, start, end)
}

/// What a path in a URL keeps unescaped: `A-Z a-z 0-9 / - _ . ~`.
const URL_PATH: &percent_encoding::AsciiSet = &percent_encoding::NON_ALPHANUMERIC
    .remove(b'/')
    .remove(b'-')
    .remove(b'_')
    .remove(b'.')
    .remove(b'~');

/// Percent-encodes a repository path byte by byte (uppercase hex), keeping
/// `A-Z a-z 0-9 / - _ . ~`.
pub fn percent_encode_path(path: &str) -> String {
    percent_encoding::utf8_percent_encode(path, URL_PATH).to_string()
}

/// Whether a registry remote may be used and echoed: an HTTP(S) URL with no `@` at all, or
/// an SSH form whose only user is `git`; never control characters, `?` or `#`.
pub fn is_acceptable_remote(remote: &str) -> bool {
    if remote.chars().any(char::is_control) || remote.contains(['?', '#']) {
        return false;
    }
    if remote.starts_with("https://") || remote.starts_with("http://") {
        return !remote.contains('@');
    }
    if let Some(rest) = remote.strip_prefix("ssh://git@") {
        return !rest.contains('@');
    }
    if let Some(rest) = remote.strip_prefix("git@") {
        return rest.contains(':') && !rest.contains('@');
    }
    false
}

/// Whether `s` carries something that reads as credentials. Deliberately conservative: any
/// `@` counts, except the SSH user `git` of `git@host:…` and `ssh://git@host/…`.
pub fn has_credentials(s: &str) -> bool {
    match s
        .strip_prefix("ssh://git@")
        .or_else(|| s.strip_prefix("git@"))
    {
        Some(rest) => rest.contains('@'),
        None => s.contains('@'),
    }
}

/// Characters that end a word of text around a URL (a message quotes refs in backticks).
fn is_word_end(c: char) -> bool {
    c.is_whitespace()
        || matches!(
            c,
            '`' | '\'' | '"' | '(' | ')' | '<' | '>' | '[' | ']' | '{' | '}' | ','
        )
}

/// `s` — a remote, a `source_ref`, a message — with the user-info of every URL in it replaced
/// by `***`, for every output: `https://u:p@h/x` becomes `https://***@h/x`,
/// `repo-content:https://u:p@h/team/kb@<commit>` becomes `repo-content:https://***@h/team/kb@<commit>`
/// and `u:p@github.com/x` becomes `***@github.com/x`. Text without user-info comes back
/// unchanged, so identities built from redacted refs stay what they were.
///
/// User-info is what precedes an `@`, back to the previous `/` or word boundary, when it sits
/// in the authority of a `scheme://` URL, or looks like `user:password` later in such a URL,
/// or precedes a dotted host in a word without a scheme. The SSH user `git` is not a secret;
/// `repo-content:docs@<commit>` (an identity and a commit) is not user-info.
pub fn redact(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut copied = 0;
    for (at, _) in s.match_indices('@') {
        let before = &s[..at];
        let word_start = before.rfind(is_word_end).map_or(0, |i| i + 1);
        // In the authority of a `scheme://` URL the user-info runs from the `://` to the `@`,
        // whatever characters it holds (a password may contain `)`, `'` or `,`).
        let authority = before
            .rfind("://")
            .map(|p| p + 3)
            .filter(|&p| !before[p..].contains(|c: char| c == '/' || c.is_whitespace()));
        // Elsewhere it starts after a `/`, a blank, a quote or an opening bracket (a closing one
        // can sit inside a password: `u:pa)ss@host`).
        let seg_start = authority.unwrap_or_else(|| {
            before
                .rfind(|c: char| c == '/' || c.is_whitespace() || "`'\"(<[{".contains(c))
                .map_or(0, |i| i + 1)
        });
        let seg = &s[seg_start.max(copied)..at];
        let host = s[at + 1..]
            .split(|c: char| matches!(c, '/' | ':' | '?' | '#' | '@') || is_word_end(c))
            .next()
            .unwrap_or("");
        let in_authority = authority.is_some() || before[..seg_start].ends_with("://");
        let in_url = !in_authority
            && word_start <= seg_start
            && before[word_start..seg_start].contains("://");
        // `repo-content:git@github.com:team/kb.git@<commit>` names the SSH user `git` after a
        // scheme-like prefix; `sha256:x:git@host.org` is a user `sha256` whose password ends in
        // `:git`, so only a single RFC 3986 scheme token may stand before it (found by fuzzing).
        let is_git = seg == "git" || seg.strip_suffix(":git").is_some_and(is_scheme);
        let secret = !seg.is_empty()
            && if in_authority {
                seg != "git"
            } else if in_url {
                seg.contains(':')
            } else {
                !is_git && host.contains('.')
            };
        if secret {
            out.push_str(&s[copied..at - seg.len()]);
            out.push_str("***");
            copied = at;
        }
    }
    out.push_str(&s[copied..]);
    out
}

/// Whether `s` has the shape of a URL scheme (RFC 3986: a letter, then letters, digits, `+`,
/// `-` or `.`), as `ssh` or `repo-content` do.
fn is_scheme(s: &str) -> bool {
    let mut chars = s.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic())
        && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'))
}

/// A document URL fit to echo: [`redact`]ed, without its query and fragment (which carry
/// access tokens as often as not).
pub fn redact_url(url: &str) -> String {
    let url = redact(url);
    match url.find(['?', '#']) {
        Some(i) => url[..i].to_string(),
        None => url,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const C40: &str = "9fceb02d0ae598e95dc970b74767f19372d61af8";

    #[test]
    fn transports_normalize_to_one_web_base() {
        for (remote, base) in [
            (
                "https://github.com/team/one.git",
                "https://github.com/team/one",
            ),
            ("git@github.com:team/two.git", "https://github.com/team/two"),
            (
                "ssh://git@github.com/team/three.git",
                "https://github.com/team/three",
            ),
            (
                "http://git.internal.example/team/four",
                "http://git.internal.example/team/four",
            ),
            (
                "https://example.org/group/sub/five.git/",
                "https://example.org/group/sub/five",
            ),
        ] {
            assert_eq!(
                normalize(remote).map(|n| n.web_base()).as_deref(),
                Some(base),
                "{remote}"
            );
        }
        let a = normalize("git@GitHub.com:acme/server.git").unwrap();
        let b = normalize("https://github.com/acme/server").unwrap();
        assert_eq!(a.key(), b.key());
        assert_eq!(b.key(), "github.com/acme/server");
    }

    #[test]
    fn unsupported_shapes() {
        for remote in [
            "ssh://git@example.org:2222/team/source",
            "git@example.org:2222:team/source.git",
            "https://example.org",
            "https://example.org/",
            "https://example.org/team/source name",
            "https://user:pw@example.org/team/source",
            "https://example.org/team/source?x=1",
            "https://example.org/team/source#frag",
            "https://example.org/team/../source",
            "ftp://example.org/team/source",
            "/srv/git/source",
        ] {
            assert_eq!(normalize(remote), None, "{remote}");
        }
    }

    #[test]
    fn blob_urls() {
        let n = normalize("https://github.com/acme/server.git").unwrap();
        assert_eq!(
            n.blob_url(C40, "src/a b/ü.rs", 3, 3).as_deref(),
            Some("https://github.com/acme/server/blob/9fceb02d0ae598e95dc970b74767f19372d61af8/src/a%20b/%C3%BC.rs#L3")
        );
        assert!(n.blob_url(C40, "x", 3, 9).unwrap().ends_with("/x#L3-L9"));
        let c64 = "a".repeat(64);
        assert!(n.blob_url(&c64, "x", 1, 1).is_some());
        assert_eq!(n.blob_url("main", "x", 1, 1), None);
        assert_eq!(n.blob_url(&C40[..39], "x", 1, 1), None);
        for host in ["gitlab.com", "GitLab.com", "bitbucket.org", "dev.azure.com"] {
            assert_eq!(
                blob_url(&format!("https://{host}/a/b"), C40, "x", 1, 1),
                None
            );
        }
    }

    #[test]
    fn percent_encoding_keeps_unreserved() {
        assert_eq!(percent_encode_path("A-z_0.9~/x"), "A-z_0.9~/x");
        assert_eq!(percent_encode_path("a+b%c#d?e"), "a%2Bb%25c%23d%3Fe");
    }

    #[test]
    fn acceptable_remotes() {
        assert!(is_acceptable_remote("https://example.org/team/source name"));
        assert!(is_acceptable_remote("git@example.org:2222:team/source.git"));
        assert!(is_acceptable_remote(
            "ssh://git@example.org:2222/team/source"
        ));
        assert!(!is_acceptable_remote("https://user:secret@example.org/x"));
        assert!(!is_acceptable_remote("https://token@example.org/x"));
        assert!(!is_acceptable_remote("ssh://git@host/x:token@y"));
        assert!(!is_acceptable_remote("ssh://deploy:pw@host/x"));
        assert!(!is_acceptable_remote("git@host"));
        assert!(!is_acceptable_remote("https://example.org/x?token=1"));
        assert!(!is_acceptable_remote("file:///srv/git/x"));
        assert!(!is_acceptable_remote("https://example.org/x\n"));
    }

    #[test]
    fn credentials_are_detected_and_redacted() {
        assert!(has_credentials("https://user:secret@example.org/x"));
        assert!(has_credentials("user:secret@example.org:x"));
        assert!(!has_credentials("git@github.com:a/b.git"));
        assert!(!has_credentials("ssh://git@github.com/a/b"));
        assert!(!has_credentials("https://example.org/a/b"));
        assert_eq!(
            redact("https://user:secret@example.org/x"),
            "https://***@example.org/x"
        );
        assert_eq!(redact("user:secret@example.org:x"), "***@example.org:x");
        assert_eq!(redact("git@github.com:a/b.git"), "git@github.com:a/b.git");
        assert!(!redact("ssh://git@h/x:tok@y").contains("tok"));
        assert_eq!(
            redact("https://token@example.org/x"),
            "https://***@example.org/x"
        );
    }

    #[test]
    fn redaction_finds_user_info_in_refs_and_messages() {
        for (s, shown) in [
            // A later `://` does not make the user-info a scheme (found by fuzzing).
            (
                "u:SECRETPW@github.com/acme/x?next=https://example.org",
                "***@github.com/acme/x?next=https://example.org",
            ),
            (
                "SECRETPW@github.com/acme/x#https://y",
                "***@github.com/acme/x#https://y",
            ),
            (
                "repo-content:https://u:S@github.com/team/kb@9fceb02d",
                "repo-content:https://***@github.com/team/kb@9fceb02d",
            ),
            (
                "Invalid repo-content id (`repo-content:https://u:S@github.com/team/kb@9fceb02d`)",
                "Invalid repo-content id (`repo-content:https://***@github.com/team/kb@9fceb02d`)",
            ),
            (
                "a https://x:y@h.org/a and b:c@d.org/e",
                "a https://***@h.org/a and ***@d.org/e",
            ),
            // A password with a word-ending character is still all user-info (found by
            // fuzzing).
            (
                "\"https://user:s3cre)@docs.example.org/d.md",
                "\"https://***@docs.example.org/d.md",
            ),
            ("(see https://u:a,b'c@h.org/x)", "(see https://***@h.org/x)"),
            ("u:pa)ss@host.example.org/x", "***@host.example.org/x"),
            // Not user-info: identities, commits, the SSH user, blob URLs.
            ("repo-content:docs@9fceb02d", "repo-content:docs@9fceb02d"),
            (
                "repo-content:https://github.com/team/kb@9fceb02d",
                "repo-content:https://github.com/team/kb@9fceb02d",
            ),
            ("git@github.com:a/b.git", "git@github.com:a/b.git"),
            ("ssh://git@github.com/a/b", "ssh://git@github.com/a/b"),
            (
                "repo-content:git@github.com:team/kb.git@9fceb02d",
                "repo-content:git@github.com:team/kb.git@9fceb02d",
            ),
            ("ssh:git@host.example.org/x", "ssh:git@host.example.org/x"),
            // A password that ends in `:git` is still a password (found by fuzzing).
            ("sha256:2c26b4lark:git@design.doc.md", "***@design.doc.md"),
            (
                "see u:pw:git@host.example.org/x",
                "see ***@host.example.org/x",
            ),
            (
                "https://github.com/a/b/blob/c/p.rs#L1-L2",
                "https://github.com/a/b/blob/c/p.rs#L1-L2",
            ),
            ("@@", "@@"),
        ] {
            assert_eq!(redact(s), shown, "{s}");
        }
        assert_eq!(
            redact_url("https://u:p@acme.feishu.cn/docx/AbCd?token=S#x"),
            "https://***@acme.feishu.cn/docx/AbCd"
        );
        assert_eq!(
            redact_url("https://acme.feishu.cn/docx/AbCd"),
            "https://acme.feishu.cn/docx/AbCd"
        );
    }
}

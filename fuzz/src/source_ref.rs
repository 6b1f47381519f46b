//! `source_ref` resolution against a registry, remote normalization and redaction: no panic,
//! and nothing that leaves (a key, a web URL, a redacted string) carries credentials.

use super::{assert_no_credentials, fields, text, userinfo, REGISTRY};
use ontoly_graph::formats::remote;
use ontoly_graph::formats::source_ref::resolve;
use ontoly_graph::formats::source_registry::{Registries, Registry, RegistryKind, RegistryState};
use ontoly_graph::formats::structure::{LocatorParts, ReferenceEntry};

fn number(field: &[u8]) -> Option<u64> {
    std::str::from_utf8(field).ok()?.trim().parse().ok()
}

/// Runs the target on one input: panics when one of the checks described above fails.
pub fn run(data: &[u8]) {
    // source_ref | path | start | end | digest | registry YAML (default: the fixture's) |
    // knowledge repository identity
    let f = fields(data, 7);
    let source_ref = text(f[0]);
    let registry_text = if f[5].is_empty() {
        REGISTRY.to_string()
    } else {
        text(f[5])
    };
    let knowledge = text(f[6]);
    let mut registries = Registries::empty();
    if let Ok(v) = ontoly_graph::formats::yaml::parse_json_compatible(&registry_text) {
        for kind in [RegistryKind::Repo, RegistryKind::File, RegistryKind::Lark] {
            registries.set(kind, RegistryState::Loaded(Registry::from_value(kind, &v)));
        }
    }
    let entry = ReferenceEntry {
        line: 1,
        source_ref: Some(source_ref.clone()),
        source_ref_is_string: true,
        locator: None,
        has_locator: true,
        content_digest: Some(text(f[4])),
        locator_parts: LocatorParts {
            path: Some(text(f[1])),
            start_line: number(f[2]),
            end_line: number(f[3]),
        },
        misspelled: Vec::new(),
    };
    let knowledge_repository = (!knowledge.is_empty()).then_some(knowledge.as_str());
    if let Ok(r) = resolve(&entry, &registries, knowledge_repository) {
        let c = r.citation();
        assert!(c.start_line >= 1 && c.end_line >= c.start_line);
        let cited = r.cited_path();
        assert!(
            !cited.starts_with('/') && !cited.split('/').any(|s| s == ".."),
            "{cited}"
        );
        let mut shown = format!(
            "{} {}",
            r.repository_key().unwrap_or_default(),
            c.source_ref
        );
        if let Some(url) = r.web_url() {
            assert!(
                url.starts_with("https://") || url.starts_with("http://"),
                "{url}"
            );
            shown.push(' ');
            shown.push_str(&url);
        }
        for input in [source_ref.as_str(), knowledge.as_str()] {
            assert_no_credentials(input, &shown);
        }
        for secret in super::secrets(&registry_text) {
            assert!(
                !shown.contains(&secret),
                "registry secret echoed in {shown}"
            );
        }
    }
    let words =
        registry_text.split(|c: char| c.is_whitespace() || matches!(c, '{' | '}' | ',' | '"'));
    let inputs = [source_ref.as_str(), knowledge.as_str()];
    let words = inputs
        .into_iter()
        .flat_map(str::split_whitespace)
        .chain(words);
    for s in words {
        let redacted = remote::redact(s);
        if userinfo(s).is_some() {
            assert!(remote::has_credentials(s));
        }
        // Issue 13 (found by this target): `redact` took the scheme from the first `://`,
        // even one after the user-info (`u:pw@host/x?next=https://y` kept `u:pw`).
        assert_no_credentials(s, &redacted);
        if let Some(key) = ontoly_graph::sources::clones::remote_key(s) {
            assert_no_credentials(s, &key);
        }
        if let Some(n) = remote::normalize(s) {
            assert!(
                !n.key().contains('@') && !n.web_base().contains('@'),
                "{n:?}"
            );
            assert!(!n.path.is_empty() && !n.host.is_empty());
        }
        if remote::is_acceptable_remote(s) {
            assert_eq!(
                remote::redact(s),
                s,
                "an acceptable remote needs no redaction"
            );
        }
    }
}

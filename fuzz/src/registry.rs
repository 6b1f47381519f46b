//! Registry loading and lookup (`sources/*/index.yaml`): no panic, deterministic, and a
//! looked-up module's remote is only handed out when it is safe to echo.

use super::{fields, text};
use ontoly_graph::formats::source_registry::{
    load_registry, FileReadError, Registry, RegistryKind, RegistryState,
};
use ontoly_graph::formats::yaml::parse_json_compatible;

/// Runs the target on one input: panics when one of the checks described above fails.
pub fn run(data: &[u8]) {
    let f = fields(data, 2);
    let yaml = f[0].to_vec();
    let name = text(f[1]);
    for kind in [RegistryKind::Repo, RegistryKind::File, RegistryKind::Lark] {
        let files = |path: &str| {
            if path == kind.index_path() {
                Ok(yaml.clone())
            } else {
                Err(FileReadError::Unreadable)
            }
        };
        let state = load_registry(&files, "", kind);
        assert_eq!(state, load_registry(&files, "", kind), "not deterministic");
        if let Ok(t) = std::str::from_utf8(&yaml) {
            if let Ok(v) = parse_json_compatible(t) {
                let r = Registry::from_value(kind, &v);
                if let RegistryState::Loaded(loaded) = &state {
                    assert_eq!(loaded.kind, r.kind);
                    assert_eq!(
                        loaded.sources.as_ref().map(Vec::len),
                        r.sources.as_ref().map(Vec::len)
                    );
                }
                let _ = r.lookup(&name);
            }
        }
    }
}

//! Paths for CI reports: GitHub annotations and SARIF locate files relative to the root of the
//! repository being checked (the workspace's root when it is in no repository), whatever the
//! current directory or the paths typed.

use ontoly_graph::Session;
use std::path::{Component, Path, PathBuf};

/// Where the workspace sits in its repository, to turn workspace- and cwd-relative paths into
/// repository-relative ones.
#[derive(Debug, Clone, Default)]
pub struct Anchor {
    /// The repository's work-tree root (canonical), or the workspace's root when it is in no
    /// git repository.
    root: Option<PathBuf>,
    /// The workspace directory relative to that root ("" at the root, and always without a
    /// repository).
    workspace: String,
}

/// `a/b/../c` → `a/c`, `./a` → `a`, `/`-separated (no file system access); an absolute path
/// (a file outside the repository, typed so) keeps its one leading `/`.
pub(crate) fn normalize(p: &Path) -> String {
    let mut parts: Vec<String> = Vec::new();
    let mut absolute = false;
    for c in p.components() {
        match c {
            Component::CurDir => {}
            Component::RootDir | Component::Prefix(_) => absolute = true,
            Component::ParentDir => {
                if parts.last().is_some_and(|l| l != "..") {
                    parts.pop();
                } else if !absolute {
                    // Above the root of an absolute path is the root itself.
                    parts.push("..".into());
                }
            }
            other => parts.push(other.as_os_str().to_string_lossy().into_owned()),
        }
    }
    let joined = parts.join("/");
    if absolute {
        format!("/{joined}")
    } else {
        joined
    }
}

/// Whether a path [`Anchor::typed_path`] gave lies in the repository (or, without one, in the
/// workspace): an annotation or a SARIF location may name it. A file outside (typed
/// absolute, or above the root) is named in the message instead.
pub fn in_repository(path: &str) -> bool {
    !(path.starts_with('/') || path == ".." || path.starts_with("../"))
}

impl Anchor {
    /// The anchor of a session's workspace.
    pub fn of(session: &Session) -> Anchor {
        let in_repo = session
            .repositories()
            .ok()
            .and_then(|r| r.workspace().filter(|w| w.repo.is_some()))
            .map(|w| w.workspace_root.clone());
        let root = in_repo.as_ref().and_then(|rel| {
            let mut root = std::fs::canonicalize(&session.workspace().root).ok()?;
            for _ in Path::new(rel).components() {
                root.pop();
            }
            Some(root)
        });
        match (root, in_repo) {
            (Some(root), Some(rel)) => Anchor {
                root: Some(root),
                workspace: rel,
            },
            // No repository: relative to the workspace's root, the one root a report can state
            // whatever the current directory (relative to that, a run from `knowledge/` named
            // `../knowledge/structure.yaml`; author walk, stop 51), and never absolute (a
            // workspace named by its absolute path must not put it in every annotation).
            _ => Anchor {
                root: std::fs::canonicalize(&session.workspace().root).ok(),
                workspace: String::new(),
            },
        }
    }

    /// The workspace directory, repository-relative ("" at the root).
    pub fn workspace_dir(&self) -> &str {
        if self.workspace == "." {
            ""
        } else {
            &self.workspace
        }
    }

    /// A path as typed on the command line (relative to the current directory),
    /// relative to the root when it lies under it; else as typed, normalized.
    pub fn typed_path(&self, typed: &Path) -> String {
        if let Some(root) = &self.root {
            let abs = std::env::current_dir()
                .map(|d| d.join(typed))
                .unwrap_or_else(|_| typed.to_path_buf());
            if let Ok(abs) = std::fs::canonicalize(abs) {
                if let Ok(rel) = abs.strip_prefix(root) {
                    return normalize(rel);
                }
            }
        }
        normalize(typed)
    }
}

/// Appends `markdown` to the file named by `$GITHUB_STEP_SUMMARY`, when it is set. A summary
/// that cannot be written is reported on stderr but does not change the exit code: the
/// report itself was printed.
pub fn append_step_summary(markdown: &str) {
    let Some(path) = std::env::var_os("GITHUB_STEP_SUMMARY").filter(|p| !p.is_empty()) else {
        return;
    };
    use std::io::Write;
    let written = std::fs::OpenOptions::new()
        .append(true)
        .create(true)
        .open(&path)
        .and_then(|mut f| f.write_all(markdown.as_bytes()));
    if written.is_err() {
        eprintln!("warning: could not append the job summary to $GITHUB_STEP_SUMMARY");
    }
}

#[cfg(test)]
mod tests {
    use super::normalize;
    use std::path::Path;

    #[test]
    fn normalizes_without_the_file_system() {
        assert_eq!(normalize(Path::new("./kb/../kb/q.yaml")), "kb/q.yaml");
        assert_eq!(normalize(Path::new("../q.yaml")), "../q.yaml");
        assert_eq!(normalize(Path::new(".")), "");
        // Typed absolute (outside the repository): one leading slash, never two.
        assert_eq!(normalize(Path::new("/tmp/kb/q.yaml")), "/tmp/kb/q.yaml");
        assert_eq!(normalize(Path::new("/tmp/../../q.yaml")), "/q.yaml");
    }
}

//! Reading a file under a directory only where it resolves inside that directory.
//!
//! A workspace (or the repository the plugin is given) can hold symbolic links. A link that
//! stays inside may be followed; one that leaves — `knowledge/faq/x.md -> /etc/passwd`, or a
//! directory link `knowledge/up -> ../..` — must never let ontoly read, or confirm the existence
//! of, a file outside. Every reader of workspace files goes through [`Confined::read`].

use std::io::Read;
use std::path::{Path, PathBuf};

/// Why a file under a [`Confined`] directory was not read. Deliberately without the path or the
/// OS error, which can name private locations.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum ConfinedError {
    /// Nothing there (or a link to nothing).
    #[error("file not found")]
    Missing,
    /// The process may not read it.
    #[error("permission denied")]
    PermissionDenied,
    /// The path resolves, through a symbolic link, outside the directory.
    #[error("is a symlink that leaves the workspace")]
    LeavesRoot,
    /// A directory, FIFO, socket or device: not a regular file.
    #[error("is not a regular file")]
    NotAFile,
    /// Larger than the reader's budget.
    #[error("file is too large")]
    TooLarge,
    /// Any other failure.
    #[error("file could not be read")]
    Unreadable,
}

impl ConfinedError {
    /// The kind of an I/O error, without its text (which can name private paths).
    pub(crate) fn from_io(e: &std::io::Error) -> ConfinedError {
        match e.kind() {
            std::io::ErrorKind::NotFound => ConfinedError::Missing,
            std::io::ErrorKind::PermissionDenied => ConfinedError::PermissionDenied,
            _ => ConfinedError::Unreadable,
        }
    }
}

/// A directory whose files are read only when, after following every link, they are regular
/// files inside it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Confined {
    dir: PathBuf,
    /// `dir` with every link resolved, taken once (a directory that does not exist yet is
    /// resolved at each read instead).
    canonical: Option<PathBuf>,
}

impl Confined {
    /// Files under `dir` (absolute or relative to the current directory).
    pub fn new(dir: impl Into<PathBuf>) -> Confined {
        let dir = dir.into();
        let canonical = std::fs::canonicalize(&dir).ok();
        Confined { dir, canonical }
    }

    /// The directory as given.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The location of the `/`-separated relative path `rel` (not checked).
    pub fn path(&self, rel: &str) -> PathBuf {
        let mut p = self.dir.clone();
        for part in rel.split('/') {
            p.push(part);
        }
        p
    }

    /// Where `rel` really is, when that is a regular file inside the directory.
    fn resolve(&self, rel: &str) -> Result<(PathBuf, std::fs::Metadata), ConfinedError> {
        let real = std::fs::canonicalize(self.path(rel)).map_err(|e| ConfinedError::from_io(&e))?;
        let root = match &self.canonical {
            Some(c) => std::borrow::Cow::Borrowed(c),
            None => std::borrow::Cow::Owned(
                std::fs::canonicalize(&self.dir).map_err(|e| ConfinedError::from_io(&e))?,
            ),
        };
        if !real.starts_with(root.as_ref()) {
            return Err(ConfinedError::LeavesRoot);
        }
        let meta = std::fs::metadata(&real).map_err(|e| ConfinedError::from_io(&e))?;
        if !meta.is_file() {
            return Err(ConfinedError::NotAFile);
        }
        Ok((real, meta))
    }

    /// Whether `rel` exists and resolves outside the directory (a link that leaves it, or
    /// a path through one).
    pub fn leaves_root(&self, rel: &str) -> bool {
        let (Ok(real), Some(root)) = (std::fs::canonicalize(self.path(rel)), &self.canonical)
        else {
            return false;
        };
        !real.starts_with(root)
    }

    /// Whether `rel` is a regular file inside the directory (see [`Confined::read`]).
    pub fn is_file(&self, rel: &str) -> bool {
        self.resolve(rel).is_ok()
    }

    /// The bytes of the `/`-separated relative path `rel`, when it resolves to a regular file
    /// inside the directory and holds at most `max_bytes` (when given).
    pub fn read(&self, rel: &str, max_bytes: Option<u64>) -> Result<Vec<u8>, ConfinedError> {
        let (real, meta) = self.resolve(rel)?;
        if max_bytes.is_some_and(|m| meta.len() > m) {
            return Err(ConfinedError::TooLarge);
        }
        let file = std::fs::File::open(&real).map_err(|e| ConfinedError::from_io(&e))?;
        // The file may have grown since it was measured: never read past the budget.
        let limit = max_bytes.map_or(u64::MAX, |m| m.saturating_add(1));
        let mut bytes = Vec::with_capacity(meta.len().min(limit) as usize);
        file.take(limit)
            .read_to_end(&mut bytes)
            .map_err(|e| ConfinedError::from_io(&e))?;
        if max_bytes.is_some_and(|m| bytes.len() as u64 > m) {
            return Err(ConfinedError::TooLarge);
        }
        Ok(bytes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::symlink;

    #[test]
    fn links_are_followed_inside_only() {
        let t = tempfile::tempdir().unwrap();
        let (root, outside) = (t.path().join("ws"), t.path().join("outside"));
        for d in [root.join("a/b"), outside.clone()] {
            std::fs::create_dir_all(d).unwrap();
        }
        std::fs::write(root.join("a/inside.md"), "in").unwrap();
        std::fs::write(outside.join("secret.md"), "out").unwrap();
        symlink("../inside.md", root.join("a/b/link.md")).unwrap();
        symlink(outside.join("secret.md"), root.join("a/secret.md")).unwrap();
        symlink("../../outside", root.join("a/up")).unwrap();
        symlink("nowhere.md", root.join("a/dangling.md")).unwrap();
        let c = Confined::new(&root);
        assert_eq!(c.read("a/inside.md", None), Ok(b"in".to_vec()));
        assert_eq!(c.read("a/b/link.md", None), Ok(b"in".to_vec()));
        assert_eq!(c.read("a/secret.md", None), Err(ConfinedError::LeavesRoot));
        assert_eq!(
            c.read("a/up/secret.md", None),
            Err(ConfinedError::LeavesRoot)
        );
        assert_eq!(c.read("a/up/none.md", None), Err(ConfinedError::Missing));
        assert_eq!(c.read("a/dangling.md", None), Err(ConfinedError::Missing));
        assert_eq!(c.read("a", None), Err(ConfinedError::NotAFile));
        assert_eq!(c.read("a/inside.md", Some(1)), Err(ConfinedError::TooLarge));
        assert!(c.is_file("a/b/link.md") && !c.is_file("a/secret.md"));
        // The directory itself may be reached through a link.
        symlink(&root, t.path().join("ws-link")).unwrap();
        let c = Confined::new(t.path().join("ws-link"));
        assert_eq!(c.read("a/b/link.md", None), Ok(b"in".to_vec()));
        assert_eq!(c.read("a/secret.md", None), Err(ConfinedError::LeavesRoot));
    }

    #[test]
    fn special_files_are_not_read() {
        let t = tempfile::tempdir().unwrap();
        symlink("/dev/zero", t.path().join("zero")).unwrap();
        let c = Confined::new(t.path());
        assert_eq!(c.read("zero", None), Err(ConfinedError::LeavesRoot));
        let made = std::process::Command::new("mkfifo")
            .arg(t.path().join("fifo"))
            .status()
            .expect("mkfifo runs");
        assert!(made.success());
        assert_eq!(c.read("fifo", None), Err(ConfinedError::NotAFile));
    }
}

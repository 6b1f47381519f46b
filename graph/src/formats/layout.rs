//! The knowledge workspace on disk: finding it, listing its input files, and reading what a
//! page says about itself (front matter) and about other pages (markdown links).
//!
//! Every path this module hands out is workspace-relative and `/`-separated, so nothing that
//! reaches the graph depends on where the workspace sits on disk.

use std::path::{Path, PathBuf};

/// The file whose presence marks a workspace root.
pub const STRUCTURE_FILE: &str = "knowledge/structure.yaml";

/// The registry files a workspace may hold, workspace-relative.
pub const REGISTRY_FILES: [&str; 3] = [
    "sources/repo/index.yaml",
    "sources/file/index.yaml",
    "sources/lark/index.yaml",
];

/// The largest `structure.yaml` read: Context's writer needs about 460 bytes a section with
/// one reference and 740 with two (100 000 sections: 46–74 MB), so 1 GiB is some 1.4–2.3
/// million sections. A structure over the whole-document YAML limit
/// ([`crate::formats::yaml::MAX_YAML_BYTES`]) must be in the block layout Context writes
/// (no anchors), which is read in chunks each within that limit.
pub const MAX_STRUCTURE_BYTES: u64 = 1 << 30;

/// The largest registry read, as the plugin's read budget: a module takes about 120 bytes.
pub const MAX_REGISTRY_BYTES: u64 = 8 << 20;

/// The largest page, note or session record read.
pub const MAX_PAGE_BYTES: u64 = 32 << 20;

/// The largest `ontoly.toml` read: a few lines a clone.
pub const MAX_CONFIG_BYTES: u64 = 1 << 20;

/// The most the build reads of the workspace file at `rel`: a file over it is an input that
/// could not be read, and says so.
pub fn max_bytes(rel: &str) -> u64 {
    if rel == STRUCTURE_FILE {
        MAX_STRUCTURE_BYTES
    } else if REGISTRY_FILES.contains(&rel) {
        MAX_REGISTRY_BYTES
    } else if rel == "ontoly.toml" {
        MAX_CONFIG_BYTES
    } else {
        MAX_PAGE_BYTES
    }
}

/// A located knowledge workspace.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Workspace {
    /// The workspace directory (absolute or as given; never written into outputs).
    pub root: PathBuf,
    /// The workspace name: the root directory's name.
    pub name: String,
}

/// Why no workspace could be used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DiscoverError {
    /// `--workspace DIR` was given but `DIR/knowledge/structure.yaml` does not exist.
    #[error("{} is not a knowledge workspace: it has no {STRUCTURE_FILE}", dir.display())]
    NotAWorkspace {
        /// The directory as given (relative to the start directory, or absolute when given
        /// so): messages never make a path absolute.
        dir: PathBuf,
    },
    /// `--workspace DIR` was given and `DIR` is not a directory at all (a typo, most often).
    #[error("{} does not exist (or is not a directory)", dir.display())]
    NoSuchDirectory {
        /// The directory as given.
        dir: PathBuf,
    },
    /// `--workspace DIR` names a file (`kb/ontoly.toml`, `kb/knowledge/structure.yaml`): the
    /// workspace is the directory that holds `knowledge/`.
    #[error("{} is a file: --workspace takes the workspace's directory (the one that holds {STRUCTURE_FILE})", dir.display())]
    IsAFile {
        /// The path as given.
        dir: PathBuf,
    },
    /// No directory from the start directory up to the filesystem root holds one.
    #[error(
        "no knowledge workspace found: looked for {STRUCTURE_FILE} in the current directory and its {} parent directories (use --workspace DIR)",
        searched.len().saturating_sub(1)
    )]
    NotFound {
        /// The directories that were searched, nearest first.
        searched: Vec<PathBuf>,
    },
    /// The nearest workspace above the start directory belongs to another user: whoever can
    /// create `/tmp/knowledge/` would otherwise decide what is answered (and where the cache
    /// is written), as git refuses a repository another user owns.
    #[error(
        "the nearest knowledge workspace ({} level(s) up) belongs to another user: it is used only when named with --workspace DIR",
        levels
    )]
    OwnedByAnother {
        /// How many directories above the start directory it is.
        levels: usize,
    },
}

/// Whether `dir` belongs to the user running this process (by its owner's id).
fn owned_by_us(dir: &Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    // SAFETY: geteuid has no preconditions and cannot fail.
    let us = unsafe { libc::geteuid() };
    std::fs::metadata(dir).is_ok_and(|m| m.uid() == us)
}

/// Finds the workspace: `explicit` when given (it must hold `knowledge/structure.yaml`), else
/// `start` and then each of its ancestors.
pub fn discover(explicit: Option<&Path>, start: &Path) -> Result<Workspace, DiscoverError> {
    if let Some(given) = explicit {
        let dir = if given.is_absolute() {
            given.to_path_buf()
        } else {
            start.join(given)
        };
        if dir.join(STRUCTURE_FILE).is_file() {
            return Ok(Workspace::at(dir));
        }
        let dir_ = given.to_path_buf();
        return Err(if dir.is_dir() {
            DiscoverError::NotAWorkspace { dir: dir_ }
        } else if dir.is_file() {
            DiscoverError::IsAFile { dir: dir_ }
        } else {
            DiscoverError::NoSuchDirectory { dir: dir_ }
        });
    }
    let mut searched = Vec::new();
    for (levels, dir) in start.ancestors().enumerate() {
        searched.push(dir.to_path_buf());
        if dir.join(STRUCTURE_FILE).is_file() {
            // The start directory is the user's choice; one above it must be the user's own.
            if levels > 0 && !owned_by_us(dir) {
                return Err(DiscoverError::OwnedByAnother { levels });
            }
            return Ok(Workspace::at(dir.to_path_buf()));
        }
    }
    Err(DiscoverError::NotFound { searched })
}

impl Workspace {
    /// A workspace rooted at `root` (not checked). The name is the directory's own name, after
    /// resolving `.` and `..` lexically so `--workspace .` names the real directory.
    pub fn at(root: PathBuf) -> Workspace {
        let canonical = std::fs::canonicalize(&root).unwrap_or_else(|_| root.clone());
        let name = canonical
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| "workspace".to_string());
        Workspace { root, name }
    }

    /// The absolute location of a workspace-relative `/`-separated path.
    pub fn path(&self, rel: &str) -> PathBuf {
        let mut p = self.root.clone();
        for part in rel.split('/') {
            p.push(part);
        }
        p
    }

    /// Every knowledge page: `.md` files under `knowledge/`, as paths relative to `knowledge/`,
    /// sorted in byte order. Hidden directories are not entered. A linked directory is entered
    /// when it resolves inside the workspace (once per chain of links, so a link back to a
    /// directory it is in ends there) and named as a directory that could not be listed when it
    /// leaves it; a linked page is listed, and read only where it resolves inside the workspace
    /// ([`crate::formats::confined`]), so a link that leaves it gets a diagnostic.
    pub fn pages(&self) -> std::io::Result<Vec<String>> {
        self.pages_and_unlisted().map(|(pages, _)| pages)
    }

    /// [`Workspace::pages`], and the directories under `knowledge/` that could not be listed
    /// (`guides/private/`, with a trailing `/`), sorted: their pages are left out, which a
    /// build reports instead of failing whole. `knowledge/` itself must list.
    pub fn pages_and_unlisted(&self) -> std::io::Result<(Vec<String>, Vec<String>)> {
        let mut out = Vec::new();
        let mut unlisted = Vec::new();
        // `knowledge/` itself a link out of the workspace: not walked (the names of the
        // files there would become articles), but named, as any directory not listed.
        if crate::formats::confined::Confined::new(&self.root).leaves_root("knowledge") {
            return Ok((out, vec![String::new()]));
        }
        walk(
            &self.root.join("knowledge"),
            "",
            &mut Found {
                out: &mut out,
                unlisted: &mut unlisted,
                keep: &|name| name.ends_with(".md"),
                links: Links::new(&self.root, &self.root.join("knowledge")),
            },
        )?;
        out.sort();
        unlisted.sort();
        Ok((out, unlisted))
    }

    /// Committed notes and session records (`sources/note/**.md`, `sources/sessions/**.md`),
    /// workspace-relative, sorted. Their presence decides whether `note:` references resolve.
    pub fn managed_documents(&self) -> Vec<String> {
        let mut out = Vec::new();
        for kind in ["note", "sessions"] {
            let mut found = Vec::new();
            let dir = self.root.join("sources").join(kind);
            // A managed document that cannot be listed is one a reference cannot resolve to,
            // which resolution reports.
            let mut unlisted = Vec::new();
            let mut into = Found {
                out: &mut found,
                unlisted: &mut unlisted,
                keep: &|n| n.ends_with(".md"),
                links: Links::new(&self.root, &dir),
            };
            if walk(&dir, "", &mut into).is_ok() {
                out.extend(found.into_iter().map(|p| format!("sources/{kind}/{p}")));
            }
        }
        out.sort();
        out
    }
}

/// What a walk collects, and the linked directories it is inside.
struct Found<'a> {
    /// Files kept, relative to the walk's start.
    out: &'a mut Vec<String>,
    /// Directories that could not be listed (`dir/`).
    unlisted: &'a mut Vec<String>,
    keep: &'a dyn Fn(&str) -> bool,
    links: Links,
}

/// The linked directories a walk may enter: those that resolve inside the workspace, each at
/// most once on the chain that leads to it (`a/up -> ..` would otherwise list forever).
struct Links {
    /// The workspace, resolved; `None` when it does not resolve, and then no link is entered.
    root: Option<std::path::PathBuf>,
    /// The walk's start and the targets of the links entered, resolved.
    chain: Vec<std::path::PathBuf>,
}

/// Links deep a walk follows at most: enough for any layout a person makes, and a bound on
/// links that fan out into each other.
const MAX_LINK_DEPTH: usize = 8;

impl Links {
    fn new(root: &Path, start: &Path) -> Links {
        Links {
            root: std::fs::canonicalize(root).ok(),
            chain: std::fs::canonicalize(start).into_iter().collect(),
        }
    }
}

fn walk(dir: &Path, prefix: &str, found: &mut Found) -> std::io::Result<()> {
    let keep = found.keep;
    let entries = match std::fs::read_dir(dir) {
        Ok(e) => e,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        // A directory below the top that cannot be listed is left out and named, not fatal:
        // the rest of the workspace still answers.
        Err(_) if !prefix.is_empty() => {
            found.unlisted.push(format!("{prefix}/"));
            return Ok(());
        }
        Err(e) => return Err(e),
    };
    for entry in entries {
        let entry = match entry {
            Ok(entry) => entry,
            Err(e) if prefix.is_empty() => return Err(e),
            Err(_) => {
                found.unlisted.push(format!("{prefix}/"));
                return Ok(());
            }
        };
        let name = match entry.file_name().into_string() {
            Ok(name) => name,
            Err(raw) => {
                // No structure entry can name it, so it is not a page; but a page (or a
                // directory of pages) left out without a word is knowledge lost: it is named
                // as an entry that could not be taken, in its lossy spelling.
                let lossy = raw.to_string_lossy().into_owned();
                let is_dir = entry.file_type().is_ok_and(|t| t.is_dir());
                if !lossy.starts_with('.') && (is_dir || keep(&lossy)) {
                    found.unlisted.push(if prefix.is_empty() {
                        format!("{lossy}/")
                    } else {
                        format!("{prefix}/{lossy}/")
                    });
                }
                continue;
            }
        };
        if name.starts_with('.') {
            continue;
        }
        let rel = if prefix.is_empty() {
            name.clone()
        } else {
            format!("{prefix}/{name}")
        };
        let Ok(ft) = entry.file_type() else {
            // Its type unknown (gone since the listing): a page read later says what it is.
            if keep(&name) {
                found.out.push(rel);
            }
            continue;
        };
        if ft.is_dir() {
            walk(&entry.path(), &rel, found)?;
        } else if ft.is_symlink() && std::fs::metadata(entry.path()).is_ok_and(|m| m.is_dir()) {
            let target = std::fs::canonicalize(entry.path()).ok();
            let links = &mut found.links;
            match (target, &links.root) {
                (Some(t), Some(root)) if t.starts_with(root) => {
                    if !links.chain.contains(&t) && links.chain.len() <= MAX_LINK_DEPTH {
                        links.chain.push(t);
                        let walked = walk(&entry.path(), &rel, found);
                        found.links.chain.pop();
                        walked?;
                    }
                }
                // Out of the workspace: named as a directory not listed, whose reading says
                // why, rather than its pages left out without a word.
                _ => found.unlisted.push(format!("{rel}/")),
            }
        } else if keep(&name) {
            // Every other entry with a page's name is listed, whatever it is (a file, a link,
            // a dangling link, a FIFO): reading it says what is wrong with one that is not a
            // readable file, where skipping it left a page missing without a word. The type
            // comes with the listing, so no entry costs a `stat` here.
            found.out.push(rel);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn discovery_walks_up_and_names_where_it_looked() {
        let t = tempfile::tempdir().unwrap();
        let ws = t.path().join("kb");
        std::fs::create_dir_all(ws.join("knowledge/faq")).unwrap();
        std::fs::write(ws.join(STRUCTURE_FILE), "schema_version: x\n").unwrap();
        let found = discover(None, &ws.join("knowledge/faq")).unwrap();
        assert_eq!(found.root, ws);
        assert_eq!(found.name, "kb");
        let explicit = discover(Some(Path::new("kb")), t.path()).unwrap();
        assert_eq!(explicit.name, "kb");
        let err = discover(Some(Path::new("nope")), t.path()).unwrap_err();
        assert_eq!(
            err.to_string(),
            "nope does not exist (or is not a directory)"
        );
        let err = discover(Some(Path::new("kb/knowledge/structure.yaml")), t.path()).unwrap_err();
        assert_eq!(
            err.to_string(),
            "kb/knowledge/structure.yaml is a file: --workspace takes the workspace's directory (the one that holds knowledge/structure.yaml)"
        );
        let err = discover(Some(Path::new("kb/knowledge")), t.path()).unwrap_err();
        assert!(
            err.to_string().contains("knowledge/structure.yaml"),
            "{err}"
        );
        let other = t.path().join("other/deep");
        std::fs::create_dir_all(&other).unwrap();
        match discover(None, &other) {
            Err(DiscoverError::NotFound { searched }) => {
                assert_eq!(searched[0], other);
                assert_eq!(searched[1], t.path().join("other"));
            }
            // A workspace above the temp dir would be a broken test machine, not a pass.
            r => panic!("unexpected {r:?}"),
        }
    }

    #[test]
    fn pages_are_sorted_and_relative() {
        let t = tempfile::tempdir().unwrap();
        for p in [
            "knowledge/b.md",
            "knowledge/a/z.md",
            "knowledge/a/x.txt",
            "knowledge/.h/y.md",
        ] {
            let f = t.path().join(p);
            std::fs::create_dir_all(f.parent().unwrap()).unwrap();
            std::fs::write(f, "").unwrap();
        }
        let ws = Workspace::at(t.path().to_path_buf());
        assert_eq!(ws.pages().unwrap(), ["a/z.md", "b.md"]);
    }

    #[test]
    fn linked_directories_are_entered_inside_the_workspace_and_named_outside_it() {
        use std::os::unix::fs::symlink;
        let t = tempfile::tempdir().unwrap();
        let root = t.path().join("ws");
        for p in ["knowledge/a/z.md", "shared/ext.md", "shared/deep/d.md"] {
            let f = root.join(p);
            std::fs::create_dir_all(f.parent().unwrap()).unwrap();
            std::fs::write(f, "").unwrap();
        }
        std::fs::create_dir_all(t.path().join("outside")).unwrap();
        std::fs::write(t.path().join("outside/o.md"), "").unwrap();
        // Inside the workspace, beside knowledge/: its pages are pages.
        symlink("../shared", root.join("knowledge/ext")).unwrap();
        // Back up the chain it is in: entered once more at most, never forever.
        symlink("..", root.join("knowledge/a/up")).unwrap();
        // Out of the workspace: not read, but named.
        symlink(t.path().join("outside"), root.join("knowledge/out")).unwrap();
        let ws = Workspace::at(root);
        let (pages, unlisted) = ws.pages_and_unlisted().unwrap();
        assert_eq!(pages, ["a/z.md", "ext/deep/d.md", "ext/ext.md"]);
        assert_eq!(unlisted, ["out/"]);
    }
}

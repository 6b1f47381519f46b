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

/// A located knowledge workspace.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Workspace {
    /// The workspace directory (absolute or as given; never written into outputs).
    pub root: PathBuf,
    /// The workspace name: the root directory's name.
    pub name: String,
}

/// Why no workspace could be used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DiscoverError {
    /// `--workspace DIR` was given but `DIR/knowledge/structure.yaml` does not exist.
    NotAWorkspace {
        /// The directory as given.
        dir: PathBuf,
    },
    /// No directory from the start directory up to the filesystem root holds one.
    NotFound {
        /// The directories that were searched, nearest first.
        searched: Vec<PathBuf>,
    },
}

impl std::fmt::Display for DiscoverError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::NotAWorkspace { dir } => write!(
                f,
                "{} is not a knowledge workspace: {} does not exist",
                dir.display(),
                dir.join(STRUCTURE_FILE).display()
            ),
            Self::NotFound { searched } => {
                write!(
                    f,
                    "no knowledge workspace found: looked for {STRUCTURE_FILE} in "
                )?;
                let shown: Vec<String> = searched.iter().map(|p| p.display().to_string()).collect();
                write!(f, "{}", shown.join(", "))?;
                write!(f, " (use --workspace DIR)")
            }
        }
    }
}

impl std::error::Error for DiscoverError {}

/// Finds the workspace: `explicit` when given (it must hold `knowledge/structure.yaml`), else
/// `start` and then each of its ancestors.
pub fn discover(explicit: Option<&Path>, start: &Path) -> Result<Workspace, DiscoverError> {
    if let Some(dir) = explicit {
        let dir = if dir.is_absolute() {
            dir.to_path_buf()
        } else {
            start.join(dir)
        };
        if dir.join(STRUCTURE_FILE).is_file() {
            return Ok(Workspace::at(dir));
        }
        return Err(DiscoverError::NotAWorkspace { dir });
    }
    let mut searched = Vec::new();
    for dir in start.ancestors() {
        searched.push(dir.to_path_buf());
        if dir.join(STRUCTURE_FILE).is_file() {
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
    /// sorted in byte order. Hidden directories and symlinks leaving the tree are skipped.
    pub fn pages(&self) -> std::io::Result<Vec<String>> {
        let mut out = Vec::new();
        walk(&self.root.join("knowledge"), "", &mut out, &|name| {
            name.ends_with(".md")
        })?;
        out.sort();
        Ok(out)
    }

    /// Committed notes and session records (`sources/note/**.md`, `sources/sessions/**.md`),
    /// workspace-relative, sorted. Their presence decides whether `note:` references resolve.
    pub fn managed_documents(&self) -> Vec<String> {
        let mut out = Vec::new();
        for kind in ["note", "sessions"] {
            let mut found = Vec::new();
            let dir = self.root.join("sources").join(kind);
            if walk(&dir, "", &mut found, &|n| n.ends_with(".md")).is_ok() {
                out.extend(found.into_iter().map(|p| format!("sources/{kind}/{p}")));
            }
        }
        out.sort();
        out
    }
}

fn walk(
    dir: &Path,
    prefix: &str,
    out: &mut Vec<String>,
    keep: &dyn Fn(&str) -> bool,
) -> std::io::Result<()> {
    let entries = match std::fs::read_dir(dir) {
        Ok(e) => e,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(e),
    };
    for entry in entries {
        let entry = entry?;
        let Ok(name) = entry.file_name().into_string() else {
            continue; // a non-UTF-8 name cannot be referenced from structure.yaml
        };
        if name.starts_with('.') {
            continue;
        }
        let rel = if prefix.is_empty() {
            name.clone()
        } else {
            format!("{prefix}/{name}")
        };
        let ft = entry.file_type()?;
        if ft.is_dir() {
            walk(&entry.path(), &rel, out, keep)?;
        } else if (ft.is_file() || ft.is_symlink()) && keep(&name) && entry.path().is_file() {
            out.push(rel);
        }
    }
    Ok(())
}

/// What a page's YAML front matter says about it.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct FrontMatter {
    /// `title`, when it is a string.
    pub title: Option<String>,
    /// `description`, when it is a string.
    pub description: Option<String>,
    /// Why the front matter could not be read (message, 1-based page line).
    pub error: Option<(String, u64)>,
}

/// Reads the front matter: a first line `---`, YAML, and a closing `---` (or `...`) line.
/// A page without one has an empty [`FrontMatter`].
pub fn front_matter(text: &str) -> FrontMatter {
    let mut it = crate::formats::text::lines(text);
    if it.next().map(str::trim_end) != Some("---") {
        return FrontMatter::default();
    }
    let mut body = Vec::new();
    let mut closed = false;
    for line in it {
        if line.trim_end() == "---" || line.trim_end() == "..." {
            closed = true;
            break;
        }
        body.push(line);
    }
    if !closed {
        return FrontMatter {
            error: Some(("front matter is not closed by a `---` line".into(), 1)),
            ..Default::default()
        };
    }
    match crate::formats::yaml::parse_value(&body.join("\n")) {
        Ok(v) => FrontMatter {
            title: crate::formats::yaml::get_str(&v, "title").map(str::to_string),
            description: crate::formats::yaml::get_str(&v, "description").map(str::to_string),
            error: None,
        },
        Err(e) => FrontMatter {
            error: Some((e.message, e.line.map_or(1, |l| l + 1))),
            ..Default::default()
        },
    }
}

/// A markdown link from one page to a target under `knowledge/`.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Link {
    /// The target, relative to `knowledge/`, normalized (no `.`/`..`, no fragment).
    pub target: String,
    /// 1-based page line of the link.
    pub line: u64,
}

/// Markdown links (inline, reference and autolinks) of a page at `page` (relative to
/// `knowledge/`) whose destination is a relative `.md` path that stays inside `knowledge/`.
/// External URLs, in-page anchors and absolute paths are not article links.
pub fn links(text: &str, page: &str) -> Vec<Link> {
    use pulldown_cmark::{Event, Options, Parser, Tag};
    let starts = line_starts(text);
    let mut out = Vec::new();
    let parser = Parser::new_ext(text, Options::ENABLE_YAML_STYLE_METADATA_BLOCKS);
    for (event, range) in parser.into_offset_iter() {
        let Event::Start(Tag::Link { dest_url, .. }) = event else {
            continue;
        };
        if let Some(target) = resolve_link(page, &dest_url) {
            let line = starts.partition_point(|&s| s <= range.start) as u64;
            out.push(Link { target, line });
        }
    }
    out
}

fn line_starts(text: &str) -> Vec<usize> {
    let mut v = vec![0];
    v.extend(memchr::memchr_iter(b'\n', text.as_bytes()).map(|i| i + 1));
    v
}

/// Resolves a link destination against the page's directory; `None` for anything that is not a
/// relative link to a `.md` file inside `knowledge/`.
pub fn resolve_link(page: &str, dest: &str) -> Option<String> {
    let dest = dest.split(['#', '?']).next().unwrap_or("");
    if dest.is_empty() || dest.starts_with('/') || dest.contains("://") || dest.contains(':') {
        return None;
    }
    let dest = percent_decode(dest);
    if !dest.ends_with(".md") {
        return None;
    }
    let mut parts: Vec<&str> = page.split('/').collect();
    parts.pop();
    for seg in dest.split('/') {
        match seg {
            "" | "." => {}
            ".." => {
                parts.pop()?;
            }
            s => parts.push(s),
        }
    }
    Some(parts.join("/"))
}

fn percent_decode(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%'
            && i + 2 < b.len()
            && b[i + 1].is_ascii_hexdigit()
            && b[i + 2].is_ascii_hexdigit()
        {
            let hexval = |c: u8| (c as char).to_digit(16).unwrap_or(0) as u8;
            out.push(hexval(b[i + 1]) * 16 + hexval(b[i + 2]));
            i += 3;
            continue;
        }
        out.push(b[i]);
        i += 1;
    }
    String::from_utf8(out).unwrap_or_else(|_| s.to_string())
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
        assert!(err.to_string().contains("knowledge/structure.yaml"));
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
    fn front_matter_title_description_and_errors() {
        let fm = front_matter("---\ntitle: Guide\ndescription: How to\n---\n# x\n");
        assert_eq!(fm.title.as_deref(), Some("Guide"));
        assert_eq!(fm.description.as_deref(), Some("How to"));
        assert_eq!(front_matter("# no front matter\n"), FrontMatter::default());
        let bad = front_matter("---\ntitle: [\n---\n");
        assert!(bad.error.is_some());
        assert!(front_matter("---\ntitle: x\n").error.is_some());
    }

    #[test]
    fn links_resolve_relative_to_the_page() {
        let text = "---\ntitle: t\n---\nSee [a](../api/a.md#x) and [b](b.md).\n\n[ext](https://x.org/a.md) [anchor](#top) [img](c.png)\n[up](../../out.md)\n";
        let l = links(text, "faq/guide.md");
        assert_eq!(
            l,
            [
                Link {
                    target: "api/a.md".into(),
                    line: 4
                },
                Link {
                    target: "faq/b.md".into(),
                    line: 4
                }
            ]
        );
        assert_eq!(
            resolve_link("a.md", "my%20page.md").as_deref(),
            Some("my page.md")
        );
    }
}

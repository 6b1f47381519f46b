//! Reads of local git repositories with gix: revisions, trees and blobs at pinned commits.
//!
//! One [`GitRepo`] wraps a `gix::ThreadSafeRepository` shared by every thread; each worker
//! takes its own [`LocalRepo`] handle ([`GitRepo::local`]) because gix handles carry caches
//! that are not `Sync`. Nothing here touches the network or the work tree: every read goes
//! through the object database, so bare clones and work trees behave the same.

use gix::hash::ObjectId;
use gix::objs::tree::EntryKind;
use std::path::Path;

/// Symlink hops followed before a path is declared unresolvable (git itself uses 40).
const MAX_SYMLINK_HOPS: usize = 40;

/// Object cache per thread-local handle: trees of one commit are looked up over and over.
const OBJECT_CACHE_BYTES: usize = 8 * 1024 * 1024;

/// A local git repository (work tree or bare), shareable across threads.
#[derive(Clone)]
pub struct GitRepo {
    shared: gix::ThreadSafeRepository,
}

impl std::fmt::Debug for GitRepo {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Never print the on-disk location: outputs must not carry absolute paths.
        f.write_str("GitRepo")
    }
}

/// Why a repository could not be opened or read. Messages never contain paths.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct GitError {
    /// One line, free of absolute paths and credentials.
    pub message: String,
}

fn git_err(what: &str) -> GitError {
    GitError {
        message: what.to_string(),
    }
}

/// Why a revision could not be resolved (the codes of the reads contract).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RevisionError {
    /// A hex string too short to name a commit (under [`MIN_SHORT_SHA`] digits).
    ShortSha,
    /// A commit prefix that more than one commit of the repository starts with.
    Ambiguous,
    /// Not a branch name nor a full commit (`HEAD~1`, `a..b`, `refs/x`, …).
    Invalid,
    /// A well-formed branch or commit that this repository does not have.
    NotFound,
}

impl RevisionError {
    /// The error code of the reads contract.
    pub fn code(self) -> &'static str {
        match self {
            Self::ShortSha => "SHORT_SHA_UNSUPPORTED",
            Self::Ambiguous => "REVISION_AMBIGUOUS",
            Self::Invalid => "INVALID_REVISION",
            Self::NotFound => "REVISION_NOT_FOUND",
        }
    }
}

/// The shortest commit prefix a revision may be: what `git log --oneline` prints at least.
pub const MIN_SHORT_SHA: usize = 7;

/// What to do about a pinned commit a shallow clone lacks (a CI checkout fetches one commit by
/// default): said wherever such a commit is reported, since "fetch it" alone does not tell a
/// CI job how.
pub const SHALLOW_CLONE: &str = "the clone is shallow: fetch its history (`git fetch --unshallow`; with actions/checkout, `fetch-depth: 0`)";

/// What a repository-relative path names at a commit (symlinks already followed).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Lookup {
    /// A regular (or executable) file; the blob id and the path it was finally found at.
    Blob {
        /// The blob's object id.
        id: ObjectId,
        /// The path after following symlinks.
        resolved: String,
    },
    /// A directory.
    Tree,
    /// A submodule (gitlink): no content at this commit.
    Submodule,
    /// Nothing at this path.
    Missing,
    /// A symlink that leaves the repository, is absolute, or loops.
    SymlinkOutside,
}

impl GitRepo {
    /// Opens the repository at `path` (a work tree, its `.git`, or a bare repository).
    /// Only that exact location is tried: no discovery upwards, so a mapping to the wrong
    /// directory fails instead of silently reading an enclosing repository.
    pub fn open(path: &Path) -> Result<GitRepo, GitError> {
        let repo = gix::open_opts(path, gix::open::Options::isolated())
            .map_err(|_| git_err("not a readable git repository"))?;
        Ok(GitRepo {
            shared: repo.into_sync(),
        })
    }

    /// Finds the repository that contains `dir` (searching upwards), and returns it with the
    /// `/`-separated path of `dir` relative to its work tree root ("" at the root).
    ///
    /// A repository owned by another user (and not listed in git's `safe.directory`) is not
    /// the workspace's: git refuses it ("dubious ownership"), and anyone who can create
    /// `/tmp/.git` would otherwise decide what the workspace's own pages read as.
    pub fn discover(dir: &Path) -> Option<(GitRepo, String)> {
        let repo = gix::discover(dir).ok()?;
        if repo.git_dir_trust() != gix::sec::Trust::Full {
            return None;
        }
        let work = repo.workdir()?.to_path_buf();
        let work = std::fs::canonicalize(work).ok()?;
        let dir = std::fs::canonicalize(dir).ok()?;
        let rel = dir.strip_prefix(&work).ok()?;
        let mut parts = Vec::new();
        for c in rel.components() {
            parts.push(c.as_os_str().to_str()?.to_string());
        }
        Some((
            GitRepo {
                shared: repo.into_sync(),
            },
            parts.join("/"),
        ))
    }

    /// A handle for the current thread.
    pub fn local(&self) -> LocalRepo {
        let mut repo = self.shared.to_thread_local();
        repo.object_cache_size_if_unset(OBJECT_CACHE_BYTES);
        LocalRepo { repo }
    }

    /// The shared gix repository, for readers in this crate that need more than the reads
    /// here (drift's revision parsing and tree diffs), so that they use the repository the
    /// session opened instead of opening it again.
    pub(crate) fn shared(&self) -> &gix::ThreadSafeRepository {
        &self.shared
    }

    /// The URL of remote `origin` as configured (may contain credentials: never print it
    /// without normalizing it first).
    pub fn origin_url(&self) -> Option<String> {
        let repo = self.shared.to_thread_local();
        let url = repo.config_snapshot().string("remote.origin.url")?;
        String::from_utf8(url.to_vec()).ok()
    }
}

/// A thread-local handle on a [`GitRepo`].
pub struct LocalRepo {
    repo: gix::Repository,
}

/// Whether `name` is a well-formed branch name (git's `check-ref-format --branch` rules, and
/// no full `refs/…` names: those are "other ref forms").
pub fn is_branch_name(name: &str) -> bool {
    if name.is_empty()
        || name == "@"
        || name == "HEAD"
        || name.starts_with('-')
        || name.starts_with('/')
        || name.ends_with('/')
        || name.ends_with('.')
        || name.ends_with(".lock")
        || name.contains("..")
        || name.contains("//")
        || name.contains("@{")
        || name.starts_with("refs/")
    {
        return false;
    }
    if name
        .bytes()
        .any(|b| b < 0x20 || b == 0x7f || b" ~^:?*[\\".contains(&b))
    {
        return false;
    }
    name.split('/')
        .all(|c| !c.is_empty() && !c.starts_with('.') && !c.ends_with(".lock"))
}

fn is_hex(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(|b| b.is_ascii_hexdigit())
}

impl LocalRepo {
    /// Resolves a revision: a full 40- or 64-hex commit (which must exist), a branch name
    /// (local branch first, then `origin`'s remote-tracking branch), a tag name (`v2.1.0`, as
    /// drift and impact take it; a branch of the same name wins), or a prefix of at least
    /// [`MIN_SHORT_SHA`] hex digits that exactly one commit starts with, to a full lowercase
    /// commit. Outputs print 12-digit prefixes, so they can be pasted back. Other ref forms
    /// (`HEAD`, `refs/…`, `main~1`) are invalid, as the reads contract says.
    pub fn resolve(&self, revision: &str) -> Result<String, RevisionError> {
        if crate::formats::text::is_full_commit(revision) {
            return self.commit_exists(revision);
        }
        if !is_branch_name(revision) {
            return Err(RevisionError::Invalid);
        }
        if let Some(c) = self.commit_of_ref(&[
            format!("refs/heads/{revision}"),
            format!("refs/remotes/origin/{revision}"),
            format!("refs/tags/{revision}"),
        ]) {
            return Ok(c);
        }
        // A hex string is an abbreviated commit: long enough, it must name exactly one commit
        // (never a guess, so every read of an answer stays on one exact commit); shorter ones
        // are refused.
        if is_hex(revision) && revision.len() >= MIN_SHORT_SHA {
            return self.commit_by_prefix(revision);
        }
        if is_hex(revision) && revision.len() >= 4 {
            return Err(RevisionError::ShortSha);
        }
        Err(RevisionError::NotFound)
    }

    /// The one commit whose id starts with `hex` (other objects with that prefix do not count).
    fn commit_by_prefix(&self, hex: &str) -> Result<String, RevisionError> {
        let prefix = gix::hash::Prefix::from_hex(&hex.to_ascii_lowercase())
            .map_err(|_| RevisionError::Invalid)?;
        let mut candidates = std::collections::HashSet::new();
        self.repo
            .objects
            .lookup_prefix(prefix, Some(&mut candidates))
            .map_err(|_| RevisionError::NotFound)?;
        let mut commits = candidates.into_iter().filter(|id| {
            matches!(
                self.repo.try_find_object(*id),
                Ok(Some(o)) if o.kind == gix::objs::Kind::Commit
            )
        });
        match (commits.next(), commits.next()) {
            (Some(one), None) => Ok(one.to_string()),
            (Some(_), Some(_)) => Err(RevisionError::Ambiguous),
            (None, _) => Err(RevisionError::NotFound),
        }
    }

    /// The commit the first of `refs` that exists points to (an annotated tag peeled).
    fn commit_of_ref(&self, refs: &[String]) -> Option<String> {
        for full in refs {
            let Ok(Some(mut r)) = self.repo.try_find_reference(full.as_str()) else {
                continue;
            };
            let Ok(commit) = r.peel_to_commit() else {
                continue;
            };
            return Some(commit.id.to_string());
        }
        None
    }

    fn commit_exists(&self, hex: &str) -> Result<String, RevisionError> {
        let id = ObjectId::from_hex(hex.to_ascii_lowercase().as_bytes())
            .map_err(|_| RevisionError::NotFound)?;
        if id.kind() != self.repo.object_hash() {
            return Err(RevisionError::NotFound);
        }
        let Ok(Some(obj)) = self.repo.try_find_object(id) else {
            return Err(RevisionError::NotFound);
        };
        match obj.kind {
            gix::objs::Kind::Commit => Ok(id.to_string()),
            _ => Err(RevisionError::NotFound),
        }
    }

    /// What the full hex id `hex` is when it names an object of the clone that is not a commit
    /// ("a tag object, whose commit is …", "a tree", "a blob"): a pin copied from `git
    /// rev-parse v1.0` or `git ls-tree` names one, and "the clone does not contain the pinned
    /// commit; fetch it" sent people to fetch what they had. `None` for a commit or nothing.
    pub fn not_a_commit(&self, hex: &str) -> Option<String> {
        let id = ObjectId::from_hex(hex.to_ascii_lowercase().as_bytes()).ok()?;
        if id.kind() != self.repo.object_hash() {
            return None;
        }
        let obj = self.repo.try_find_object(id).ok()??;
        match obj.kind {
            gix::objs::Kind::Commit => None,
            gix::objs::Kind::Tag => Some(match obj.peel_to_kind(gix::objs::Kind::Commit) {
                Ok(c) => format!("a tag object, whose commit is {}", c.id),
                Err(_) => "a tag object of no commit".to_string(),
            }),
            gix::objs::Kind::Tree => Some("a tree, not a commit".to_string()),
            gix::objs::Kind::Blob => Some("a blob, not a commit".to_string()),
        }
    }

    /// The default branch (the branch `HEAD` points to) and its commit.
    pub fn default_branch(&self) -> Result<(Option<String>, String), RevisionError> {
        let name = self
            .repo
            .head_name()
            .ok()
            .flatten()
            .map(|n| n.shorten().to_string());
        let id = self.repo.head_id().map_err(|_| RevisionError::NotFound)?;
        Ok((name, id.to_string()))
    }

    /// Up to `limit` commits of the clone, newest first by commit time, reached from every
    /// branch, remote-tracking branch and tag (the tips sorted by id, so that commits of
    /// equal time come in the same order on every run). Where a mis-pinned module's pages may
    /// have been written from.
    pub fn commits_newest_first(&self, limit: usize) -> Vec<String> {
        let mut tips: Vec<ObjectId> = Vec::new();
        if let Ok(platform) = self.repo.references() {
            if let Ok(all) = platform.all() {
                for mut r in all.flatten() {
                    if let Ok(c) = r.peel_to_commit() {
                        tips.push(c.id);
                    }
                }
            }
        }
        tips.sort();
        tips.dedup();
        if tips.is_empty() {
            return Vec::new();
        }
        let order = gix::revision::walk::Sorting::ByCommitTime(
            gix::traverse::commit::simple::CommitTimeOrder::NewestFirst,
        );
        let Ok(walk) = self.repo.rev_walk(tips).sorting(order).all() else {
            return Vec::new();
        };
        walk.flatten()
            .take(limit)
            .map(|info| info.id.to_string())
            .collect()
    }

    /// Whether `commit` (full hex) is a commit of this repository.
    pub fn has_commit(&self, commit: &str) -> bool {
        crate::formats::text::is_full_commit(commit) && self.commit_exists(commit).is_ok()
    }

    /// Whether the clone is shallow (`git clone --depth`, a CI checkout's default): its
    /// history stops short, so a pinned commit it lacks may only need fetching.
    pub fn is_shallow(&self) -> bool {
        // An unreadable `shallow` file costs only the hint that names the fix.
        self.repo.is_shallow().unwrap_or(false)
    }

    fn root_tree(&self, commit: &str) -> Result<ObjectId, GitError> {
        let id = ObjectId::from_hex(commit.to_ascii_lowercase().as_bytes())
            .map_err(|_| git_err("invalid commit id"))?;
        let c = self
            .repo
            .find_commit(id)
            .map_err(|_| git_err("commit not found"))?;
        c.tree_id()
            .map(|t| t.detach())
            .map_err(|_| git_err("commit has no readable tree"))
    }

    fn tree_entries(&self, tree: ObjectId) -> Result<Vec<(String, EntryKind, ObjectId)>, GitError> {
        let t = self
            .repo
            .find_tree(tree)
            .map_err(|_| git_err("tree object not found"))?;
        let decoded = t.decode().map_err(|_| git_err("tree object is corrupt"))?;
        Ok(decoded
            .entries
            .iter()
            .map(|e| {
                (
                    String::from_utf8_lossy(e.filename).into_owned(),
                    e.mode.kind(),
                    e.oid.to_owned(),
                )
            })
            .collect())
    }

    /// The entry `name` of tree `tree`, without decoding the other entries' names.
    fn find_entry(
        &self,
        tree: ObjectId,
        name: &str,
    ) -> Result<Option<(EntryKind, ObjectId)>, GitError> {
        let t = self
            .repo
            .find_tree(tree)
            .map_err(|_| git_err("tree object not found"))?;
        for e in gix::objs::TreeRefIter::from_bytes(&t.data, tree.kind()) {
            let e = e.map_err(|_| git_err("tree object is corrupt"))?;
            if e.filename == name.as_bytes() {
                return Ok(Some((e.mode.kind(), e.oid.to_owned())));
            }
        }
        Ok(None)
    }

    /// What `path` (repository-root relative, already validated) names at `commit`. Symlinks
    /// are followed while they stay inside the repository, including symlinked directories
    /// in the middle of the path.
    pub fn lookup(&self, commit: &str, path: &str) -> Result<Lookup, GitError> {
        let root = self.root_tree(commit)?;
        let mut components: Vec<String> = path.split('/').map(str::to_string).collect();
        let mut hops = 0;
        'restart: loop {
            let mut tree = root;
            for i in 0..components.len() {
                let last = i + 1 == components.len();
                let Some((kind, oid)) = self.find_entry(tree, &components[i])? else {
                    return Ok(Lookup::Missing);
                };
                let (kind, oid) = (&kind, &oid);
                match kind {
                    EntryKind::Tree => {
                        if last {
                            return Ok(Lookup::Tree);
                        }
                        tree = *oid;
                    }
                    EntryKind::Commit => return Ok(Lookup::Submodule),
                    EntryKind::Blob | EntryKind::BlobExecutable => {
                        if last {
                            return Ok(Lookup::Blob {
                                id: *oid,
                                resolved: components.join("/"),
                            });
                        }
                        return Ok(Lookup::Missing);
                    }
                    EntryKind::Link => {
                        hops += 1;
                        if hops > MAX_SYMLINK_HOPS {
                            return Ok(Lookup::SymlinkOutside);
                        }
                        let target = self.blob(*oid)?;
                        let Ok(target) = String::from_utf8(target) else {
                            return Ok(Lookup::SymlinkOutside);
                        };
                        if target.starts_with('/') {
                            return Ok(Lookup::SymlinkOutside);
                        }
                        let mut next: Vec<String> = components[..i].to_vec();
                        for seg in target.split('/') {
                            match seg {
                                "" | "." => {}
                                ".." => {
                                    if next.pop().is_none() {
                                        return Ok(Lookup::SymlinkOutside);
                                    }
                                }
                                s => next.push(s.to_string()),
                            }
                        }
                        next.extend(components[i + 1..].iter().cloned());
                        if next.is_empty() {
                            return Ok(Lookup::Tree);
                        }
                        components = next;
                        continue 'restart;
                    }
                }
            }
            return Ok(Lookup::Tree);
        }
    }

    /// The bytes of blob `id`.
    pub fn blob(&self, id: ObjectId) -> Result<Vec<u8>, GitError> {
        let mut obj = self
            .repo
            .find_object(id)
            .map_err(|_| git_err("blob object not found"))?;
        Ok(std::mem::take(&mut obj.data))
    }

    /// The bytes of the file `path` at `commit`; `None` when it is no file there (absent, a
    /// directory, a submodule) or cannot be read.
    pub fn file_at(&self, commit: &str, path: &str) -> Option<Vec<u8>> {
        match self.lookup(commit, path).ok()? {
            Lookup::Blob { id, .. } => self.blob(id).ok(),
            _ => None,
        }
    }

    /// Every regular file at `commit` under one of `prefixes` (all files when empty), in path
    /// order, with its blob id. Symlinks and submodules are not listed: search reads content.
    pub fn files(
        &self,
        commit: &str,
        prefixes: &[String],
    ) -> Result<Vec<(String, ObjectId)>, GitError> {
        let root = self.root_tree(commit)?;
        let mut out = Vec::new();
        self.walk(root, "", prefixes, &mut out)?;
        out.sort_by(|a, b| a.0.cmp(&b.0));
        Ok(out)
    }

    fn walk(
        &self,
        tree: ObjectId,
        dir: &str,
        prefixes: &[String],
        out: &mut Vec<(String, ObjectId)>,
    ) -> Result<(), GitError> {
        for (name, kind, oid) in self.tree_entries(tree)? {
            let path = if dir.is_empty() {
                name
            } else {
                format!("{dir}/{name}")
            };
            let wanted = prefixes.is_empty()
                || prefixes.iter().any(|p| {
                    // Inside the prefix, or an ancestor directory of it.
                    under(&path, p) || under(p, &path)
                });
            if !wanted {
                continue;
            }
            match kind {
                EntryKind::Tree => self.walk(oid, &path, prefixes, out)?,
                EntryKind::Blob | EntryKind::BlobExecutable => {
                    if prefixes.is_empty() || prefixes.iter().any(|p| under(&path, p)) {
                        out.push((path, oid));
                    }
                }
                EntryKind::Link | EntryKind::Commit => {}
            }
        }
        Ok(())
    }
}

/// Whether `path` is `prefix` or inside directory `prefix`.
pub fn under(path: &str, prefix: &str) -> bool {
    path == prefix
        || (path.len() > prefix.len()
            && path.starts_with(prefix)
            && path.as_bytes()[prefix.len()] == b'/')
}

impl LocalRepo {
    /// The clone's branches (local, then `origin`'s) and tags as a revision names them,
    /// sorted: what an unknown revision's message offers instead.
    pub(crate) fn revision_names(&self) -> (Vec<String>, Vec<String>) {
        let (mut branches, mut tags) = (Vec::new(), Vec::new());
        if let Ok(platform) = self.repo.references() {
            if let Ok(all) = platform.all() {
                for r in all.flatten() {
                    let name = r.name().as_bstr().to_string();
                    if let Some(b) = name
                        .strip_prefix("refs/heads/")
                        .or_else(|| name.strip_prefix("refs/remotes/origin/"))
                        .filter(|b| *b != "HEAD")
                    {
                        branches.push(b.to_string());
                    } else if let Some(t) = name.strip_prefix("refs/tags/") {
                        tags.push(t.to_string());
                    }
                }
            }
        }
        for names in [&mut branches, &mut tags] {
            names.sort();
            names.dedup();
        }
        (branches, tags)
    }

    /// What a revision that names nothing could have been, for its message: ` (branches:
    /// main; tags: v1.0, v1.1)` (up to five of each, the last tags, which are the latest
    /// releases when they sort by version); empty when the clone has neither.
    pub fn revision_names_note(&self) -> String {
        const SHOWN: usize = 5;
        let (branches, tags) = self.revision_names();
        let mut parts = Vec::new();
        if !branches.is_empty() {
            let more = if branches.len() > SHOWN { ", …" } else { "" };
            parts.push(format!(
                "branches: {}{more}",
                branches[..branches.len().min(SHOWN)].join(", ")
            ));
        }
        if !tags.is_empty() {
            let more = if tags.len() > SHOWN { "…, " } else { "" };
            parts.push(format!(
                "tags: {more}{}",
                tags[tags.len().saturating_sub(SHOWN)..].join(", ")
            ));
        }
        if parts.is_empty() {
            String::new()
        } else {
            format!(" ({})", parts.join("; "))
        }
    }

    /// The state of the object store, as one string: which commits a clone holds can change
    /// while no ref moves (`git fetch origin <sha>` into a shallow clone, a `--shared` clone
    /// whose alternate is moved away, packs removed). It lists the pack files with their
    /// sizes, the loose objects' fan-out directories with their modification times (a
    /// directory's time moves when an object is added to it or removed), the `shallow` file
    /// and each alternate object directory the same way. Cheap: one directory listing and
    /// at most 256 `stat` calls per object directory; never an object read.
    pub fn objects_fingerprint(&self) -> String {
        let common = self.repo.common_dir();
        let mut out = String::new();
        match std::fs::read(common.join("shallow")) {
            Ok(bytes) => out.push_str(&format!("shallow {}\n", blake3::hash(&bytes).to_hex())),
            Err(_) => out.push_str("shallow -\n"),
        }
        stamp_objects(&common.join("objects"), 0, &mut out);
        out
    }

    /// Every ref name and target, sorted, as one string (changes when refs move or appear).
    pub fn refs_fingerprint(&self) -> String {
        let mut out = Vec::new();
        if let Ok(platform) = self.repo.references() {
            if let Ok(all) = platform.all() {
                for r in all.flatten() {
                    let target = r
                        .target()
                        .try_id()
                        .map(|id| id.to_string())
                        .unwrap_or_default();
                    out.push(format!("{} {target}", r.name().as_bstr()));
                }
            }
        }
        out.sort();
        out.join("\n")
    }
}

/// How deep alternates of alternates are followed (git itself stops at 5).
const ALTERNATES_DEPTH: usize = 5;

/// [`LocalRepo::objects_fingerprint`] of one object directory, appended to `out`.
fn stamp_objects(dir: &std::path::Path, depth: usize, out: &mut String) {
    use std::fmt::Write;
    let time = |m: &std::fs::Metadata| {
        m.modified()
            .ok()
            .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
            .map_or(0, |d| d.as_nanos())
    };
    let Ok(entries) = std::fs::read_dir(dir) else {
        out.push_str("objects -\n");
        return;
    };
    let mut loose: Vec<String> = entries
        .flatten()
        .filter_map(|e| {
            let name = e.file_name().into_string().ok()?;
            let fan_out = name.len() == 2 && name.bytes().all(|b| b.is_ascii_hexdigit());
            fan_out.then(|| format!("{name} {}", e.metadata().map(|m| time(&m)).unwrap_or(0)))
        })
        .collect();
    loose.sort_unstable();
    let mut packs: Vec<String> = std::fs::read_dir(dir.join("pack"))
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|e| {
            let name = e.file_name().into_string().ok()?;
            Some(format!(
                "{name} {}",
                e.metadata().map(|m| m.len()).unwrap_or(0)
            ))
        })
        .collect();
    packs.sort_unstable();
    let _ = writeln!(out, "loose {}\npacks {}", loose.join(","), packs.join(","));
    if let Ok(text) = std::fs::read_to_string(dir.join("info/alternates")) {
        for line in text
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty() && !l.starts_with('#'))
        {
            let _ = writeln!(out, "alternate {line}");
            if depth < ALTERNATES_DEPTH {
                stamp_objects(&dir.join(line), depth + 1, out);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn branch_names() {
        for ok in ["main", "feature/x", "release-1.2", "v1", "deadbeef", "a@b"] {
            assert!(is_branch_name(ok), "{ok}");
        }
        for bad in [
            "",
            "HEAD",
            "@",
            "-x",
            "/a",
            "a/",
            "a..b",
            "a//b",
            "a.lock",
            "x/.hidden",
            "a b",
            "a~1",
            "a^",
            "a:b",
            "a?",
            "a*",
            "a[",
            "a\\b",
            "a@{1}",
            "refs/heads/main",
            "a.",
        ] {
            assert!(!is_branch_name(bad), "{bad}");
        }
    }

    #[test]
    fn prefixes() {
        assert!(under("src/a.rs", "src"));
        assert!(under("src", "src"));
        assert!(!under("srcx/a.rs", "src"));
        assert!(!under("sr", "src"));
    }
}

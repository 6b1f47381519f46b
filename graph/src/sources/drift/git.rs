//! The repository reads drift needs, with gix: a revision to its commit, a file's bytes at a
//! commit, and what changed between two commits' trees (deletions, additions, modifications),
//! from which [`TreeChanges::renames`] derives git's rename targets.
//!
//! [`DriftReader::blob`] reads exactly what git names (a symlink as its target text, as `git
//! show COMMIT:PATH` does); [`DriftReader::file`], which drift reads cited files with,
//! follows symlinks inside the repository as verification does, so that a reference that
//! verifies is compared on the same bytes. Every read goes through the object database, so
//! bare repositories and work trees behave the same. Errors never contain paths.

use super::rename::{self, Side};
use crate::sources::git::{GitError, GitRepo, LocalRepo, Lookup};
use gix::hash::ObjectId;
use gix::objs::tree::EntryKind;
use std::collections::{BTreeMap, HashSet};

/// Object cache of a reader: the same trees are walked for every cited path.
const OBJECT_CACHE_BYTES: usize = 16 * 1024 * 1024;

/// Shortest abbreviated commit accepted (git's minimum abbreviation).
const MIN_SHORT_SHA: usize = 4;

fn err(message: &str) -> GitError {
    GitError {
        message: message.to_string(),
    }
}

/// A repository read for drift, shareable across threads; each thread reads through its own
/// [`DriftReader`]. Made from a repository the session already opened ([`DriftRepo::new`]):
/// drift never opens a repository itself.
#[derive(Clone)]
pub struct DriftRepo {
    git: GitRepo,
}

impl std::fmt::Debug for DriftRepo {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Never print the on-disk location: outputs must not carry absolute paths.
        f.write_str("DriftRepo")
    }
}

impl DriftRepo {
    /// Drift reads of `git` (sharing its object database handle).
    pub fn new(git: &GitRepo) -> Self {
        Self { git: git.clone() }
    }

    /// A reader for the current thread.
    pub fn reader(&self) -> DriftReader {
        let mut repo = self.git.shared().to_thread_local();
        repo.object_cache_size_if_unset(OBJECT_CACHE_BYTES);
        DriftReader {
            repo,
            local: self.git.local(),
        }
    }
}

/// Why a revision does not name one commit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ResolveError {
    /// Not a well-formed branch, tag, `HEAD` or hexadecimal commit.
    Invalid,
    /// Well-formed, but nothing in this repository matches.
    NotFound,
    /// An abbreviated commit that matches more than one commit.
    Ambiguous,
    /// `~N` or `^N` asks for an ancestor the history does not have (before the first commit,
    /// or past a shallow clone's end): `HEAD~5` of a repository with three commits.
    NoSuchAncestor,
}

impl ResolveError {
    /// A one-line explanation.
    pub fn message(self) -> &'static str {
        match self {
            Self::Invalid => "not a branch, tag or commit",
            Self::NotFound => "no such branch, tag or commit in the repository",
            Self::Ambiguous => "the abbreviated commit matches several commits",
            Self::NoSuchAncestor => {
                "the history has no such ancestor (the `~N` or `^N` goes past its first commit, or past where a shallow clone stops)"
            }
        }
    }
}

impl std::fmt::Display for ResolveError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.message())
    }
}

impl std::error::Error for ResolveError {}

fn is_hex(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(|b| b.is_ascii_hexdigit())
}

/// Whether `name` is acceptable as a branch or tag name, short (`main`, `v1.2`) or full
/// (`refs/tags/v1.2`).
fn is_ref_name(name: &str) -> bool {
    crate::sources::git::is_branch_name(name.strip_prefix("refs/").unwrap_or(name))
}

/// Commits [`DriftReader::is_ancestor`] walks at most.
pub const ANCESTRY_WALK_LIMIT: usize = 200_000;

/// What changed between two commits' trees (trees themselves are not listed), each list in
/// path order.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TreeChanges {
    /// Paths of the older tree that the newer one does not have.
    pub deleted: Vec<Side>,
    /// Paths of the newer tree that the older one does not have.
    pub added: Vec<Side>,
    /// Paths in both whose content or mode differs.
    pub modified: Vec<String>,
}

/// A rename between two commits.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Rename {
    /// The deleted path.
    pub from: String,
    /// The added path git pairs it with.
    pub to: String,
    /// Similarity in percent, as `git diff -M --name-status` prints it after `R`.
    pub similarity: u64,
}

impl TreeChanges {
    /// git's renames (`git diff -M` rules, see [`rename::detect`]), in the order of their
    /// deleted paths. `reader` loads the blobs whose similarity must be estimated.
    pub fn renames(&self, reader: &DriftReader) -> Result<Vec<Rename>, GitError> {
        let pairs = rename::detect(&self.deleted, &self.added, |id| reader.blob_by_id(*id))?;
        Ok(pairs
            .into_iter()
            .map(|p| Rename {
                from: self.deleted[p.source].path.clone(),
                to: self.added[p.dest].path.clone(),
                similarity: p.similarity,
            })
            .collect())
    }

    /// The rename targets: deleted path -> added path.
    pub fn rename_targets(
        &self,
        reader: &DriftReader,
    ) -> Result<BTreeMap<String, String>, GitError> {
        Ok(self
            .renames(reader)?
            .into_iter()
            .map(|r| (r.from, r.to))
            .collect())
    }
}

/// git's ancestry suffixes (`~2^`, `^^`, `^2~3`) as `(operator, count)` steps: `~` alone is
/// `~1`, `^` alone `^1`. `None` when anything else follows.
fn ancestry(suffix: &str) -> Option<Vec<(char, usize)>> {
    let mut steps = Vec::new();
    let mut chars = suffix.char_indices().peekable();
    while let Some((i, op)) = chars.next() {
        if op != '~' && op != '^' {
            return None;
        }
        let start = i + 1;
        let mut end = start;
        while let Some((j, c)) = chars.peek().copied() {
            if !c.is_ascii_digit() {
                break;
            }
            end = j + 1;
            chars.next();
        }
        let n = if end == start {
            1
        } else {
            suffix[start..end].parse().ok()?
        };
        steps.push((op, n));
    }
    Some(steps)
}

/// A thread-local reader of a [`DriftRepo`].
pub struct DriftReader {
    repo: gix::Repository,
    /// The session's reads, for paths through symlinks.
    local: LocalRepo,
}

impl DriftReader {
    /// Why [`DriftReader::resolve`] failed, in words; a revision that names nothing is told
    /// the clone's branches and tags.
    pub fn explain(&self, e: ResolveError) -> String {
        match e {
            ResolveError::NotFound => {
                format!("{}{}", e.message(), self.local.revision_names_note())
            }
            _ => e.message().to_string(),
        }
    }

    /// The commit `HEAD` points to.
    pub fn head(&self) -> Result<String, ResolveError> {
        self.repo
            .head_id()
            .map(|id| id.to_string())
            .map_err(|_| ResolveError::NotFound)
    }

    /// The commit drift compares with when no revision is given: `HEAD`, else the default
    /// branch of remote `origin` (`refs/remotes/origin/HEAD`).
    pub fn default_later(&self) -> Result<String, ResolveError> {
        self.head().or_else(|_| self.resolve("origin"))
    }

    fn peel_to_commit(&self, id: ObjectId) -> Option<ObjectId> {
        let obj = self.repo.try_find_object(id).ok()??;
        obj.peel_to_commit().ok().map(|c| c.id)
    }

    /// Resolves `HEAD`, a full commit id, a branch or tag name (git's order: `refs/<name>`,
    /// tags, branches, remote-tracking branches, then `origin`'s branch of that name), or an
    /// abbreviated commit of at least 4 hex digits that is unique among commits, to the full
    /// lowercase id of a commit (annotated tags are peeled); any of them followed by git's
    /// ancestry suffixes, `~N` (the Nth first-parent ancestor), `^` and `^N` (the Nth parent),
    /// as in `HEAD~1` or `v2.0^2`.
    pub fn resolve(&self, rev: &str) -> Result<String, ResolveError> {
        if let Some(at) = rev.find(['~', '^']).filter(|at| *at > 0) {
            let mut id = ObjectId::from_hex(self.resolve(&rev[..at])?.as_bytes())
                .map_err(|_| ResolveError::Invalid)?;
            for (op, n) in ancestry(&rev[at..]).ok_or(ResolveError::Invalid)? {
                for _ in 0..if op == '~' { n } else { 1 } {
                    let parent = if op == '~' { 1 } else { n };
                    id = self
                        .parent(id, parent)
                        .ok_or(ResolveError::NoSuchAncestor)?;
                }
            }
            return Ok(id.to_string());
        }
        if rev == "HEAD" {
            return self.head();
        }
        if crate::formats::text::is_full_commit(rev) {
            let id = ObjectId::from_hex(rev.to_ascii_lowercase().as_bytes())
                .map_err(|_| ResolveError::Invalid)?;
            if id.kind() != self.repo.object_hash() {
                return Err(ResolveError::NotFound);
            }
            return self
                .peel_to_commit(id)
                .map(|c| c.to_string())
                .ok_or(ResolveError::NotFound);
        }
        let hex = is_hex(rev);
        if !is_ref_name(rev) && !hex {
            return Err(ResolveError::Invalid);
        }
        if is_ref_name(rev) {
            let mut names = Vec::new();
            if rev.starts_with("refs/") {
                names.push(rev.to_string());
            }
            names.extend([
                format!("refs/tags/{rev}"),
                format!("refs/heads/{rev}"),
                format!("refs/remotes/{rev}"),
                format!("refs/remotes/{rev}/HEAD"),
                format!("refs/remotes/origin/{rev}"),
            ]);
            for name in names {
                let Ok(Some(mut r)) = self.repo.try_find_reference(name.as_str()) else {
                    continue;
                };
                if let Ok(c) = r.peel_to_commit() {
                    return Ok(c.id.to_string());
                }
            }
        }
        if hex && rev.len() >= MIN_SHORT_SHA {
            return self.resolve_prefix(rev);
        }
        Err(ResolveError::NotFound)
    }

    /// The `n`th parent of commit `id` (1: the first; 0: the commit itself, as `^0` is).
    fn parent(&self, id: ObjectId, n: usize) -> Option<ObjectId> {
        if n == 0 {
            return Some(id);
        }
        let commit = self.repo.find_commit(id).ok()?;
        let parents: Vec<ObjectId> = commit.parent_ids().map(|p| p.detach()).collect();
        // A shallow clone names parents it does not have: git says no such revision too.
        parents
            .get(n - 1)
            .copied()
            .filter(|p| self.repo.find_commit(*p).is_ok())
    }

    fn resolve_prefix(&self, hex: &str) -> Result<String, ResolveError> {
        let prefix = gix::hash::Prefix::from_hex(&hex.to_ascii_lowercase())
            .map_err(|_| ResolveError::Invalid)?;
        let mut candidates = HashSet::new();
        self.repo
            .objects
            .lookup_prefix(prefix, Some(&mut candidates))
            .map_err(|_| ResolveError::NotFound)?;
        // Like `git rev-parse <hex>^{commit}`: only commit-ish objects count.
        let mut commits: Vec<ObjectId> = candidates
            .into_iter()
            .filter_map(|id| self.peel_to_commit(id))
            .collect();
        commits.sort_unstable();
        commits.dedup();
        match commits.as_slice() {
            [one] => Ok(one.to_string()),
            [] => Err(ResolveError::NotFound),
            _ => Err(ResolveError::Ambiguous),
        }
    }

    /// Whether `commit` (full hex) is a commit of this repository.
    pub fn has_commit(&self, commit: &str) -> bool {
        crate::formats::text::is_full_commit(commit)
            && ObjectId::from_hex(commit.to_ascii_lowercase().as_bytes())
                .ok()
                .and_then(|id| self.repo.try_find_object(id).ok().flatten())
                .is_some_and(|o| o.kind == gix::objs::Kind::Commit)
    }

    /// Whether the clone is shallow (see [`LocalRepo::is_shallow`]).
    pub fn is_shallow(&self) -> bool {
        self.local.is_shallow()
    }

    /// Whether commit `older` (full hex) is a proper ancestor of commit `newer`: a drift
    /// `--to` it compares backwards, from a pinned commit to one before it. Every drift run
    /// asks, and the usual answer is no: the walk from `newer` stops at commits made before
    /// `older` (committer time), so a later `--to` costs a commit or two, not the pinned
    /// commit's whole history. It also stops after [`ANCESTRY_WALK_LIMIT`] commits (a
    /// history longer than that, or an ancestor dated after its descendant, is said not to
    /// hold it: a note is lost, nothing else).
    pub fn is_ancestor(&self, older: &str, newer: &str) -> bool {
        let (Ok(older), Ok(newer)) = (
            ObjectId::from_hex(older.to_ascii_lowercase().as_bytes()),
            ObjectId::from_hex(newer.to_ascii_lowercase().as_bytes()),
        ) else {
            return false;
        };
        if older == newer {
            return false;
        }
        let Some(seconds) = self
            .repo
            .find_commit(older)
            .ok()
            .and_then(|c| c.time().ok())
            .map(|t| t.seconds)
        else {
            return false;
        };
        let sorting = gix::revision::walk::Sorting::ByCommitTimeCutoff {
            order: gix::traverse::commit::simple::CommitTimeOrder::NewestFirst,
            seconds,
        };
        let Ok(walk) = self.repo.rev_walk([newer]).sorting(sorting).all() else {
            return false;
        };
        walk.flatten()
            .take(ANCESTRY_WALK_LIMIT)
            .any(|info| info.id == older)
    }

    fn tree_of(&self, commit: &str) -> Result<gix::Tree<'_>, GitError> {
        let id = ObjectId::from_hex(commit.to_ascii_lowercase().as_bytes())
            .map_err(|_| err("invalid commit id"))?;
        let c = self
            .repo
            .find_commit(id)
            .map_err(|_| err("commit not found"))?;
        c.tree().map_err(|_| err("commit has no readable tree"))
    }

    /// The blob id (hex) of the file (or symlink) at repository-relative `path` in `commit`,
    /// or `None` when the commit has no file there.
    pub fn blob_id(&self, commit: &str, path: &str) -> Result<Option<String>, GitError> {
        Ok(self
            .blob_entry(commit, path)?
            .map(|id| id.to_hex().to_string()))
    }

    /// The object id of the file (or symlink) at `path` in `commit`, if one is there.
    fn blob_entry(&self, commit: &str, path: &str) -> Result<Option<ObjectId>, GitError> {
        let tree = self.tree_of(commit)?;
        let entry = tree
            .lookup_entry(path.split('/').map(str::as_bytes))
            .map_err(|_| err("tree object is corrupt or missing"))?;
        Ok(entry.and_then(|entry| match entry.mode().kind() {
            EntryKind::Blob | EntryKind::BlobExecutable | EntryKind::Link => {
                Some(entry.object_id())
            }
            EntryKind::Tree | EntryKind::Commit => None,
        }))
    }

    /// The bytes of the file (or symlink) at repository-relative `path` in `commit`, or `None`
    /// when the commit has no file there (nothing, a directory or a submodule).
    pub fn blob(&self, commit: &str, path: &str) -> Result<Option<Vec<u8>>, GitError> {
        self.blob_entry(commit, path)?
            .map(|id| self.blob_by_id(id))
            .transpose()
    }

    /// The bytes of the file at `path` in `commit`, symlinks inside the repository followed
    /// (as verification reads cited files), or `None` when nothing readable is there (no
    /// file, a directory, a submodule, a link that leaves the repository or loops).
    pub fn file(&self, commit: &str, path: &str) -> Result<Option<Vec<u8>>, GitError> {
        match self.local.lookup(commit, path)? {
            Lookup::Blob { id, .. } => self.blob_by_id(id).map(Some),
            _ => Ok(None),
        }
    }

    /// The bytes of blob `id`.
    pub fn blob_by_id(&self, id: ObjectId) -> Result<Vec<u8>, GitError> {
        let mut obj = self
            .repo
            .find_object(id)
            .map_err(|_| err("blob object not found"))?;
        Ok(std::mem::take(&mut obj.data))
    }

    /// What changed from `from`'s tree to `to`'s (full commit ids). Identical subtrees are
    /// skipped without being read.
    pub fn tree_changes(&self, from: &str, to: &str) -> Result<TreeChanges, GitError> {
        use gix::diff::tree::recorder::Change;
        let lhs = self.tree_of(from)?;
        let rhs = self.tree_of(to)?;
        let mut recorder = gix::diff::tree::Recorder::default();
        gix::diff::tree(
            gix::objs::TreeRefIter::from_bytes(&lhs.data, lhs.id.kind()),
            gix::objs::TreeRefIter::from_bytes(&rhs.data, rhs.id.kind()),
            gix::diff::tree::State::default(),
            &self.repo.objects,
            &mut recorder,
        )
        .map_err(|_| err("could not compare the two commits' trees"))?;
        let mut out = TreeChanges::default();
        let side = |path: &gix::bstr::BString, oid: ObjectId, kind: EntryKind| Side {
            path: String::from_utf8_lossy(path).into_owned(),
            id: oid,
            kind,
        };
        for change in &recorder.records {
            match change {
                Change::Addition {
                    entry_mode,
                    oid,
                    path,
                    ..
                } if !entry_mode.is_tree() => out.added.push(side(path, *oid, entry_mode.kind())),
                Change::Deletion {
                    entry_mode,
                    oid,
                    path,
                    ..
                } if !entry_mode.is_tree() => out.deleted.push(side(path, *oid, entry_mode.kind())),
                Change::Modification {
                    entry_mode,
                    previous_entry_mode,
                    path,
                    ..
                } if !entry_mode.is_tree() && !previous_entry_mode.is_tree() => {
                    // gix reports a file that became a directory (or the reverse) as a
                    // deletion plus an addition, as git's diff queue has it.
                    out.modified
                        .push(String::from_utf8_lossy(path).into_owned())
                }
                _ => {}
            }
        }
        out.deleted.sort_by(|a, b| a.path.cmp(&b.path));
        out.added.sort_by(|a, b| a.path.cmp(&b.path));
        out.modified.sort();
        Ok(out)
    }
}

//! Verification of cited ranges against their pinned commits, and the symbols behind them.
//!
//! Each distinct (repository, commit, path) is read and parsed once, in parallel, however
//! many references cite it; then every reference gets its status from the shared file. The
//! work per thread uses its own gix handle (one per repository, made on first use).

use crate::git::{GitRepo, LocalRepo, Lookup};
use crate::symbols::{Definition, FileSymbols};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;

/// The verification status of one reference.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// Commit, file and range exist and the sha256 digest of the range matches.
    Verified,
    /// The range exists but its digest differs from the recorded one.
    DigestMismatch,
    /// The clone does not have the pinned commit.
    CommitMissing,
    /// The commit has no file at the cited path.
    FileMissing,
    /// The file is shorter than the cited range.
    RangeOutOfBounds,
    /// The reference's ref is not a full commit.
    Unpinned,
    /// No local clone of the repository: not verifiable here.
    NoClone,
    /// Uncommitted evidence (`+worktree`): the digest is its only identity.
    Worktree,
}

impl Status {
    /// Every status, in a fixed order (for statistics).
    pub const ALL: [Status; 8] = [
        Self::Verified,
        Self::DigestMismatch,
        Self::CommitMissing,
        Self::FileMissing,
        Self::RangeOutOfBounds,
        Self::Unpinned,
        Self::NoClone,
        Self::Worktree,
    ];

    /// The status as serialized (`digest_mismatch`).
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Verified => "verified",
            Self::DigestMismatch => "digest_mismatch",
            Self::CommitMissing => "commit_missing",
            Self::FileMissing => "file_missing",
            Self::RangeOutOfBounds => "range_out_of_bounds",
            Self::Unpinned => "unpinned",
            Self::NoClone => "no_clone",
            Self::Worktree => "worktree",
        }
    }

    /// Whether the status says the evidence is wrong (as opposed to verified or unverifiable).
    pub fn is_error(self) -> bool {
        matches!(
            self,
            Self::DigestMismatch | Self::CommitMissing | Self::FileMissing | Self::RangeOutOfBounds
        )
    }

    /// A one-line explanation for diagnostics.
    pub fn message(self) -> &'static str {
        match self {
            Self::Verified => "the cited range matches its recorded digest at the pinned commit",
            Self::DigestMismatch => "the cited lines at the pinned commit do not match the recorded content_digest",
            Self::CommitMissing => "the local clone does not contain the pinned commit",
            Self::FileMissing => "the cited file does not exist at the pinned commit",
            Self::RangeOutOfBounds => "the cited line range goes past the end of the file at the pinned commit",
            Self::Unpinned => "the reference is not pinned to a full commit",
            Self::NoClone => "no local clone of the repository is configured; the reference is not verifiable here",
            Self::Worktree => "the reference cites uncommitted content; only its digest identifies it",
        }
    }
}

/// One cited range to verify.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Citation {
    /// Index of the clone in the `repos` slice given to [`verify_all`]; `None` without one.
    pub repo: Option<usize>,
    /// The recorded ref or commit.
    pub commit: String,
    /// Whether the reference is `+worktree` evidence.
    pub worktree: bool,
    /// Repository-root relative path of the cited file.
    pub path: String,
    /// First cited line.
    pub start_line: u64,
    /// Last cited line.
    pub end_line: u64,
    /// The recorded `content_digest`.
    pub digest: Option<String>,
}

/// The verification of one citation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Outcome {
    /// The status.
    pub status: Status,
    /// The definitions the range concerns (see [`FileSymbols::for_range`]); empty unless the
    /// file was read and its language is supported.
    pub symbols: Vec<Definition>,
}

/// What one distinct (repository, commit, path) turned out to be.
enum FileState {
    CommitMissing,
    FileMissing,
    Text {
        text: String,
        symbols: Option<FileSymbols>,
    },
}

type Key = (usize, String, String);

fn read_file(local: &LocalRepo, commit: &str, path: &str, with_symbols: bool) -> FileState {
    if !local.has_commit(commit) {
        return FileState::CommitMissing;
    }
    match local.lookup(commit, path) {
        Ok(Lookup::Blob { id, .. }) => match local.blob(id) {
            Ok(bytes) => {
                let text = match String::from_utf8(bytes) {
                    Ok(t) => t,
                    Err(e) => String::from_utf8_lossy(e.as_bytes()).into_owned(),
                };
                let symbols = if with_symbols {
                    crate::symbols::extract(path, &text)
                } else {
                    None
                };
                FileState::Text { text, symbols }
            }
            Err(_) => FileState::FileMissing,
        },
        _ => FileState::FileMissing,
    }
}

/// Verifies every citation; the result is parallel to `cites`. `with_symbols` also parses each
/// cited file (once) and lists the definitions each range concerns.
pub fn verify_all(repos: &[GitRepo], cites: &[Citation], with_symbols: bool) -> Vec<Outcome> {
    let mut keys: Vec<Key> = cites
        .iter()
        .filter(|c| !c.worktree && crate::text::is_full_commit(&c.commit))
        .filter_map(|c| Some((c.repo?, c.commit.to_ascii_lowercase(), c.path.clone())))
        .filter(|(r, _, _)| *r < repos.len())
        .collect();
    keys.sort();
    keys.dedup();
    let states: Vec<FileState> = keys
        .par_iter()
        .map_init(
            || -> Vec<Option<LocalRepo>> { (0..repos.len()).map(|_| None).collect() },
            |locals, (r, commit, path)| {
                let local = locals[*r].get_or_insert_with(|| repos[*r].local());
                read_file(local, commit, path, with_symbols)
            },
        )
        .collect();
    let index: HashMap<&Key, &FileState> = keys.iter().zip(states.iter()).collect();
    cites
        .par_iter()
        .map(|c| {
            let plain = |status| Outcome {
                status,
                symbols: Vec::new(),
            };
            if c.worktree {
                return plain(Status::Worktree);
            }
            if !crate::text::is_full_commit(&c.commit) {
                return plain(Status::Unpinned);
            }
            let Some(r) = c.repo.filter(|r| *r < repos.len()) else {
                return plain(Status::NoClone);
            };
            let key = (r, c.commit.to_ascii_lowercase(), c.path.clone());
            match index.get(&key) {
                None | Some(FileState::FileMissing) => plain(Status::FileMissing),
                Some(FileState::CommitMissing) => plain(Status::CommitMissing),
                Some(FileState::Text { text, symbols }) => {
                    let status = match crate::text::range_digest(text, c.start_line, c.end_line) {
                        None => Status::RangeOutOfBounds,
                        Some(d) => match &c.digest {
                            Some(rec) if crate::text::digests_equal(rec, &d) => Status::Verified,
                            _ => Status::DigestMismatch,
                        },
                    };
                    let symbols = match (status, symbols) {
                        (Status::RangeOutOfBounds, _) | (_, None) => Vec::new(),
                        (_, Some(s)) => s
                            .for_range(c.start_line, c.end_line)
                            .into_iter()
                            .cloned()
                            .collect(),
                    };
                    Outcome { status, symbols }
                }
            }
        })
        .collect()
}

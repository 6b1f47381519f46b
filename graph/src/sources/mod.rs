//! The sources: the git repositories a workspace cites, read locally at pinned commits.
//!
//! - [`drift`]: how cited ranges fare at a later commit (unchanged, moved, changed, missing),
//!   with git-equal hunks and renames;
//! - [`clones`]: which local git repository holds each registered repository (`ontoly.toml`
//!   `[sources]` and `--source NAME=PATH`);
//! - [`repositories`]: every repository reads can name, opened once;
//! - [`git`]: blob and tree reads at a commit (gix);
//! - [`verify`]: the build stage that checks each cited range's digest at its pinned commit;
//! - [`symbols`]: the tree-sitter definitions behind a cited range;
//! - [`reads`]: `read`, `read_many`, `search` and `resolve` under the reads contract.
//!
//! Invariant: only local repositories are read (no network, ever), and no message names a disk
//! location or a remote's credentials.

pub mod clones;
pub mod drift;
pub mod git;
pub mod reads;
pub mod repositories;
pub mod symbols;
pub mod verify;

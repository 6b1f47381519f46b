//! ontoly-graph: reads a Context knowledge workspace (and, where local clones exist, the source
//! repositories it cites) and builds the evidence graph.
//!
//! Three layers, each a module folder, and the [`Session`] that ties them together for every
//! caller:
//!
//! - [`formats`]: the workspace's own files — layout and discovery, section markers, pages,
//!   `structure.yaml`, the source registries, `source_ref` resolution, remotes and web URLs,
//!   the digest rule, `PATH[:START[-END]]` locations, and the references YAML of the plugin
//!   contract. Pure parsing: no git, no graph.
//! - [`sources`]: the cited repositories — local clones (`ontoly.toml`, `--source`), git reads
//!   at pinned commits, verification, tree-sitter symbols, and the pinned reads of the reads
//!   contract.
//! - [`graph`]: the evidence graph — the model and stable ids, the parallel build, findings,
//!   the snapshot cache.
//!
//! Data flows one way: files → [`formats`] → [`graph::build`] (which calls into [`sources`]
//! for verification) → a [`graph::Graph`] with stable ids and a blake3 hash → the snapshot.
//! [`diagnostics`] is the one vocabulary of codes and severities every layer reports in.

#![deny(missing_docs)]

pub mod diagnostics;
pub mod formats;
pub mod graph;
pub mod session;
pub mod sources;
pub mod suggest;
pub mod timings;

pub use session::{Artifacts, CachePolicy, Session, SessionError, SessionOptions};

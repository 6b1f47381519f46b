//! ontoly-graph: reads a Context knowledge workspace (and, where local clones exist, the source
//! repositories it cites) and builds the evidence graph.
//!
//! Data flows one way: files → parsers ([`markers`], [`structure`], registries) → the parallel
//! builder → a [`model`] graph with stable ids and a blake3 hash → the on-disk snapshot.

pub mod build;
pub mod clones;
pub mod diagnostics;
pub mod git;
pub mod graph;
pub mod markers;
pub mod model;
pub mod reads;
pub mod references;
pub mod registry;
pub mod remote;
pub mod snapshot;
pub mod source_ref;
pub mod store;
pub mod structure;
pub mod symbols;
pub mod text;
pub mod verify;
pub mod workspace;
pub mod yaml;
